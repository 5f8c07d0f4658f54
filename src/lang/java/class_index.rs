//! What the checks of a class body ask again and again (once per queue, client or
//! future it holds), found in one walk of the body the first time one asks: its
//! identifiers by name, and the fields it assigns exactly once.

use super::tree::Node;
use rustc_hash::FxHashMap as HashMap;

use super::extract::Extractor;
use super::syntax::NodeExt;

/// One class body's index, by byte ranges (nodes are found again from them).
#[derive(Default)]
pub(super) struct ClassIndex {
    identifiers: HashMap<Box<str>, Vec<(usize, usize)>>,
    /// `x = ..` or `this.x = ..`: the value's range when assigned once, `None` when more.
    assigned: HashMap<Box<str>, Option<(usize, usize)>>,
}

/// Class bodies' indexes, by node id.
pub(super) type ClassIndexes = HashMap<usize, ClassIndex>;

impl<'a> Extractor<'a> {
    /// Runs `f` on the index of a class body, built on first use.
    fn with_class_index<R>(&self, body: Node, f: impl FnOnce(&ClassIndex) -> R) -> R {
        let mut indexes = self.class_indexes.borrow_mut();
        let index = indexes.entry(body.id()).or_insert_with(|| {
            let mut index = ClassIndex::default();
            self.each_below(body, |n| {
                match n.kind_name() {
                    "identifier" => index
                        .identifiers
                        .entry(self.text(n).into())
                        .or_default()
                        .push((n.start_byte(), n.end_byte())),
                    "assignment_expression" => {
                        if let (Some(l), Some(r)) = (n.field("left"), n.field("right")) {
                            let t = self.text(l);
                            index
                                .assigned
                                .entry(t.strip_prefix("this.").unwrap_or(t).into())
                                .and_modify(|v| *v = None)
                                .or_insert(Some((r.start_byte(), r.end_byte())));
                        }
                    }
                    _ => {}
                }
                true
            });
            index
        });
        f(index)
    }

    /// The identifiers named `var` in `scope`: from the index for a class body, by a
    /// walk for any other scope.
    pub(super) fn named_identifiers<'t>(&self, scope: Node<'t>, var: &str) -> Vec<Node<'t>>
    where
        'a: 't,
    {
        if scope.kind_name() != "class_body" {
            let mut found = Vec::new();
            self.each_below(scope, |n| {
                if n.kind_name() == "identifier" && self.text(n) == var {
                    found.push(n);
                }
                true
            });
            return found;
        }
        self.with_class_index(scope, |index| {
            index
                .identifiers
                .get(var)
                .into_iter()
                .flatten()
                .filter_map(|&(s, e)| scope.descendant_for_byte_range(s, e))
                .collect()
        })
    }

    /// The one value a class body assigns to the field `name` (`name = ..` or
    /// `this.name = ..`, anywhere in it), if it assigns it exactly once.
    pub(super) fn assigned_once<'t>(&self, class: Node<'t>, name: &str) -> Option<Node<'t>> {
        let (start, end) =
            self.with_class_index(class, |index| index.assigned.get(name).copied().flatten())?;
        // The outermost node of that range: the value, not its first token.
        let mut value = class.descendant_for_byte_range(start, end)?;
        while let Some(p) = value
            .parent()
            .filter(|p| p.start_byte() == start && p.end_byte() == end)
        {
            value = p;
        }
        Some(value)
    }
}
