//! The calls that name each Java method, for the dead-code search: a method that only
//! dead code names is dead too. A call names a method of its name unless what the
//! project knows of it rules the method out: the type it is made on, its argument
//! count, its literal arguments.

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use super::types::{TypeId, Types};
use super::Node;
use crate::facts::{ArgKind, FileFacts};

/// What a call is made on.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum On {
    /// Not known (a call's or a field's result; a call the call graph dropped).
    Unknown,
    /// A library type (`redisTemplate.delete(key)`): no method of a class whose every
    /// supertype is the project's.
    Library,
    /// A project type: its hierarchy's methods.
    Project(TypeId),
    /// Unqualified or `this.`: the calling class's hierarchy and its outer classes'.
    Own(Option<TypeId>),
}

/// (Ordered by what the call is made on first: a name's sites on one type are a run.)
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Site {
    on: On,
    /// The calling context (`None`: a call the call graph dropped).
    at: Option<Node>,
    args: Option<u8>,
    literals: u32,
}

/// Every call site by the method name it calls.
pub struct CallSites<'a> {
    facts: &'a [FileFacts],
    types: &'a Types,
    by_name: FxHashMap<&'a str, Vec<Site>>,
    ancestry: RefCell<FxHashMap<TypeId, Vec<TypeId>>>,
}

impl<'a> CallSites<'a> {
    pub fn new(facts: &'a [FileFacts], types: &'a Types) -> Self {
        let mut by_name: FxHashMap<&str, Vec<Site>> = FxHashMap::default();
        for (file, f) in facts.iter().enumerate() {
            for c in &f.calls {
                let on = match &c.target {
                    None => Own(f
                        .contexts
                        .get(c.ctx)
                        .and_then(|x| x.owner.as_deref())
                        .and_then(|o| types.id(o))),
                    Some(t) if t.candidates.is_empty() => Unknown,
                    Some(t) => types.resolve(t).map_or(Library, Project),
                };
                by_name.entry(&*c.method).or_default().push(Site {
                    on,
                    at: Some((file, c.ctx)),
                    args: c.args,
                    literals: c.literals,
                });
            }
            for u in &f.untyped_calls {
                by_name.entry(&*u.method).or_default().push(Site {
                    on: Unknown,
                    at: None,
                    args: u.args,
                    literals: u.literals,
                });
            }
        }
        for sites in by_name.values_mut() {
            sites.sort_unstable();
            sites.dedup();
        }
        CallSites {
            facts,
            types,
            by_name,
            ancestry: RefCell::default(),
        }
    }

    /// Whether every call that may name method `n` is made in `dead` code (or in `n`
    /// itself: an overload's call of another).
    pub fn named_only_in(&self, n: Node, dead: &rustc_hash::FxHashSet<Node>) -> bool {
        let c = &self.facts[n.0].contexts[n.1];
        let own = c.owner.as_deref().and_then(|o| self.types.id(o));
        let Some(sites) = self.by_name.get(c.name.as_str()) else {
            return true;
        };
        // Run by run of one receiver type, asking once whether it may reach `n`.
        let reachable = sites
            .chunk_by(|a, b| a.on == b.on)
            .filter(|run| own.is_none_or(|o| self.may_reach(run[0].on, o)));
        !reachable.flatten().any(|s| {
            !(s.at.is_some_and(|x| x == n || dead.contains(&x))
                || s.args.is_some_and(|a| c.arity.is_some_and(|p| p != a))
                || !ArgKind::fits(s.literals, c.param_kinds))
        })
    }

    /// Whether a call made on `on` may run a method of class `owner`.
    fn may_reach(&self, on: On, owner: TypeId) -> bool {
        match on {
            Unknown | Own(None) => true,
            Library => false,
            Project(t) => self.related(t, owner),
            Own(Some(t)) => self.types.enclosing(t).any(|t| self.related(t, owner)),
        }
    }

    /// Whether one type inherits from the other.
    fn related(&self, a: TypeId, b: TypeId) -> bool {
        let mut memo = self.ancestry.borrow_mut();
        let mut inherits = |x: TypeId, y: TypeId| {
            memo.entry(x)
                .or_insert_with(|| self.types.ancestry(x))
                .contains(&y)
        };
        inherits(a, b) || inherits(b, a)
    }
}

use On::{Library, Own, Project, Unknown};
