//! The project's call graph: each recorded call resolved to the method contexts
//! it can reach, across classes, files and (Rust) modules.
//!
//! Java: unqualified and `this.` calls look in the caller's class, its supertypes,
//! then its outer classes; calls on a typed receiver look in that type and its
//! supertypes, and also in the project's single implementation of an interface or
//! abstract method. Rust: `self.f()`, `Self::f()` and `f()` resolve in the same
//! file first, then to the one function of that name (and impl type) in the project.

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

use super::types::{TypeId, Types};
use crate::facts::{ArgKind, Call, CtxId, CtxKind, FileFacts};
use crate::source::{FileId, Language, SourceFile, Span};

/// Edges grouped by node in one flat vector (one allocation, not one a node).
#[derive(Debug, Default)]
pub struct Adjacency {
    index: HashMap<Node, (u32, u32)>,
    edges: Vec<Edge>,
}

impl Adjacency {
    /// Group `(node, edge)` pairs by node, keeping their order within a node.
    fn build(mut pairs: Vec<(Node, Edge)>) -> Adjacency {
        pairs.sort_by_key(|(n, _)| *n);
        let mut index: HashMap<Node, (u32, u32)> = HashMap::default();
        let mut edges = Vec::with_capacity(pairs.len());
        for (n, e) in pairs {
            let at = edges.len() as u32;
            index.entry(n).or_insert((at, at)).1 = at + 1;
            edges.push(e);
        }
        Adjacency { index, edges }
    }

    pub fn get(&self, n: &Node) -> Option<&[Edge]> {
        self.index
            .get(n)
            .map(|&(a, b)| &self.edges[a as usize..b as usize])
    }

    /// The edges of `n` made by its call at `span` (that call's targets).
    pub fn at(&self, n: &Node, span: Span) -> impl Iterator<Item = &Edge> {
        self.get(n)
            .into_iter()
            .flatten()
            .filter(move |e| e.span == span)
    }

    /// Every node with its edges (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = (&Node, &[Edge])> {
        self.index
            .iter()
            .map(|(n, &(a, b))| (n, &self.edges[a as usize..b as usize]))
    }
}

/// A call through an interface or base class reaches its project subtypes only
/// when there are at most this many: past it the type is an extension point
/// (`Service.start()`, a channel writer) and a caller says nothing about which
/// implementation runs. Measured on four audit rounds: 8 keeps every acted-on
/// finding reached through an interface and drops the invented paths.
const MAX_SUBTYPES: usize = 8;

/// In `FileFacts::promise_methods`: a returned call that no project method receives.
pub const LIBRARY_CALL: u32 = u32::MAX;

/// In `FileFacts::wait_sources`: a call on a project type this run does not see.
pub const UNSEEN_CALL: u32 = u32::MAX - 1;

/// A context of one file: a method, function or task body.
pub type Node = (FileId, CtxId);

/// One call from `node`, at `span` in `node`'s file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub node: Node,
    pub span: Span,
    /// The call is made inside an open-ended loop.
    pub in_loop: bool,
    /// Rust: the call's future runs inside a timeout wrapper (`timeout(d, f(..))`).
    pub timed: bool,
    /// Cold code that makes the call makes the callee cold; hot code does not make
    /// it hot (`Heats::spread_hot`): a Java constructor call (`new T(..)`).
    pub cold_only: bool,
    /// Made on a lazy initialization's path (`Call::once`): hot code makes the callee
    /// hot only on first use (`Heats::first_use`).
    pub once: bool,
}

#[derive(Debug, Default)]
pub struct CallGraph {
    /// Rust type aliases (`type AppData = Data<ArcData>`) -> the project type they
    /// name; an alias two files define differently is left out.
    aliases: HashMap<Box<str>, Option<Box<str>>>,
    /// owner (class or impl type; "" for free functions) -> method name -> contexts.
    /// Keyed by a 64-bit hash of (owner, name): no string is copied.
    methods: HashMap<u64, (u32, u32)>,
    method_nodes: Vec<Node>,
    /// callee -> the calls that reach it (`node` is the caller).
    pub callers: Adjacency,
    /// caller -> the calls it makes (`node` is the callee).
    pub callees: Adjacency,
    /// Methods run as a pool task by method reference (`pool.submit(this::load)`):
    /// method -> (file, submission index).
    pub tasks: HashMap<Node, Vec<(FileId, usize)>>,
    /// Functions registered as handlers by name, with why (hot entry points).
    pub handlers: Vec<(Node, String)>,
    /// Calls of wrapper methods that hand their task parameter to a pool: the call
    /// is a submission to that pool.
    pub wrapped: Vec<WrappedCall>,
    /// Lambdas passed to such calls: they run as that pool's tasks.
    pub wrapped_tasks: HashMap<Node, WrappedCall>,
    /// Rust: closures passed to a function that runs them in a blocking section
    /// (`conn.run(|c| ..)` where `run` does `block_in_place(move || f(conn))`).
    pub sections: std::collections::HashSet<Node>,
    /// Rust: one of the project's traits -> the project types that implement it.
    implementors: HashMap<String, Vec<String>>,
    /// Rust: every module path of the project and its prefixes (`graph`, `graph::tokio`).
    modules: std::collections::HashSet<String>,
    /// Rust: every name of a module of the project (`graph`, `tokio`).
    module_names: std::collections::HashSet<Box<str>>,
    /// Java: each file's build module (the path before `src/main/java`), interned;
    /// `u32::MAX` when the file is in no such layout.
    build_module: Vec<u32>,
}

/// A call that submits to a pool the project model found: a wrapper (`runner.submit(..)`
/// where `TaskRunner.submit` does `pool.submit(task)`), a method that returns the future
/// of its own submission, called and waited on (`store.load(id).join()` where
/// `TraceStore.load` does `return supplyAsync(.., pool)`), or a pool class of the
/// project (`pool.submit(..)` on a `NamedPool extends ThreadPoolExecutor`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrappedCall {
    /// The call: file and index into that file's `calls`.
    pub call: (FileId, usize),
    /// A wrapper's own submission: file and index into that file's `submissions`.
    pub inner: Option<(FileId, usize)>,
    /// The pool's key.
    pub pool: String,
}

/// Whether a context is a named method or function (what calls resolve to).
fn is_method(kind: &CtxKind, name: &str) -> bool {
    matches!(
        kind,
        CtxKind::Function | CtxKind::EventLoop | CtxKind::Async
    ) && name != "lambda"
        && name != "task"
}

impl CallGraph {
    /// Whether any call of the project reaches `n`.
    pub fn called(&self, n: Node) -> bool {
        self.callers.get(&n).is_some_and(|e| !e.is_empty())
    }

    pub fn new(files: &[SourceFile], facts: &[FileFacts], types: &Types) -> CallGraph {
        let mut g = CallGraph {
            build_module: build_modules(files),
            ..CallGraph::default()
        };
        for f in facts {
            for n in 1..=f.module.len() {
                g.modules.insert(f.module[..n].join("::"));
            }
            g.module_names.extend(f.module.iter().cloned());
        }
        // A file outside its crate's `src/` has no module path but its crate's name:
        // its folders and name may still name modules (`tasks` for `tasks.rs`). Not a
        // crate's own root file: the folders of a crate in `clients/pgwire/` name no
        // module (a path through `pgwire::` is the library's).
        let outside_src = |f: &SourceFile, x: &FileFacts| {
            let stem = std::path::Path::new(&f.display).file_stem();
            x.module.len() <= 1
                && !(x.module.len() == 1 && stem.is_some_and(|s| s == "lib" || s == "main"))
        };
        for (f, _) in files
            .iter()
            .zip(facts)
            .filter(|(f, x)| f.language == crate::source::Language::Rust && outside_src(f, x))
        {
            let stem = std::path::Path::new(&f.display).with_extension("");
            g.module_names.extend(
                stem.iter()
                    .filter_map(|c| c.to_str())
                    .map(|c| c.replace('-', "_").into_boxed_str()),
            );
        }
        g.aliases = type_aliases(facts, Some(&g.module_names));
        let traits: std::collections::HashSet<&str> = facts
            .iter()
            .flat_map(|f| f.traits.iter().map(String::as_str))
            .collect();
        for f in facts {
            for (t, ty) in f.trait_impls.iter().filter(|(t, _)| traits.contains(&**t)) {
                let types = g.implementors.entry(t.clone()).or_default();
                if !types.contains(ty) {
                    types.push(ty.clone());
                }
            }
        }
        let (mut callers, mut callees) = (Vec::new(), Vec::new());
        let mut methods: Vec<(u64, Node)> = Vec::new();
        for (file, f) in facts.iter().enumerate() {
            for (ctx, c) in f.contexts.iter().enumerate() {
                if is_method(&c.kind, &c.name) {
                    let owner = c.owner.as_deref().unwrap_or("");
                    methods.push((method_key(owner, &c.name), (file, ctx)));
                }
            }
        }
        methods.sort_by_key(|(k, _)| *k);
        for (k, n) in methods {
            let at = g.method_nodes.len() as u32;
            g.methods.entry(k).or_insert((at, at)).1 = at + 1;
            g.method_nodes.push(n);
        }
        let pool_classes: std::collections::HashSet<&str> = facts
            .iter()
            .flat_map(|f| f.pools.iter().map(|p| p.key.as_str()))
            .filter(|k| k.starts_with("class:"))
            .collect();
        // Wrapper summaries: methods that hand their parameter N to a pool.
        let mut hands: HashMap<Node, Vec<(usize, usize)>> = HashMap::default();
        for (file, f) in facts.iter().enumerate() {
            for (i, s) in f.submissions.iter().enumerate() {
                if let Some(p) = s.task_param {
                    hands.entry((file, s.ctx)).or_default().push((p, i));
                }
            }
        }
        let mut sections: HashMap<Node, Vec<usize>> = HashMap::default();
        for (file, f) in facts.iter().enumerate() {
            for &(ctx, p) in &f.section_params {
                sections.entry((file, ctx)).or_default().push(p);
            }
        }
        // Rust: project struct fields by (struct, field), for calls on them made in
        // other files (`ctx.core.subscribe(..)`); a name two structs share is left out.
        let mut fields: HashMap<(&str, &str), Option<&str>> = HashMap::default();
        for f in facts {
            for (st, field, ty) in &f.struct_fields {
                fields
                    .entry((st, field))
                    .and_modify(|t| {
                        if *t != Some(&**ty) {
                            *t = None;
                        }
                    })
                    .or_insert(Some(ty));
            }
        }
        // Every call's targets, resolved file by file in parallel (resolution reads
        // only the method index), then linked in file order.
        let is_java = |file: usize| {
            files
                .get(file)
                .is_some_and(|s| s.language == Language::Java)
        };
        let all_targets: Vec<Vec<Vec<Node>>> = facts
            .par_iter()
            .enumerate()
            .map(|(file, f)| {
                let java = is_java(file);
                // Rust: the targets of the calls whose result another call is made on.
                let sources: std::collections::HashSet<usize> =
                    f.receivers.iter().map(|&(_, from)| from as usize).collect();
                let mut resolved: HashMap<usize, Vec<Node>> = HashMap::default();
                let mut out = Vec::with_capacity(f.calls.len());
                for (ci, call) in f.calls.iter().enumerate() {
                    if call.ctx >= f.contexts.len() {
                        out.push(Vec::new());
                        continue;
                    }
                    let caller = (file, call.ctx);
                    let targets = if java {
                        // A receiver the front end could not type: the declared return
                        // type of the call it is made on (`Registry.me().lookup(..)`), or
                        // that of another class's field (`context.webSocket.handle(..)`,
                        // declared in the class or a superclass). (`None`: the call's own
                        // target; `Some`: these types, none when unknown.)
                        let typed: Option<Vec<_>> = if let Some(k) = f.receiver_of(ci) {
                            let from: &[Node] = out.get(k).map_or(&[][..], Vec::as_slice);
                            Some(
                                from.iter()
                                    .find_map(|&(f, c)| facts[f].ret_type_of(c))
                                    .cloned()
                                    .into_iter()
                                    .collect(),
                            )
                        } else if let Some(k) = f.factory_receiver_of(ci) {
                            // `factory.plugin().track(..)`: the classes every method the
                            // inner call reaches makes (none when one returns another).
                            let from: &[Node] = out.get(k).map_or(&[][..], Vec::as_slice);
                            let made: Option<Vec<_>> =
                                from.iter().map(|&(f, c)| facts[f].factory_of(c)).collect();
                            Some(made.unwrap_or_default().concat())
                        } else if let Some(k) = f.getter_receiver_of(ci) {
                            // `server.getThreadPool()` that no source declares (Lombok's
                            // `@Getter`): the type of the field it is named for. (A
                            // declared getter's result may be any implementation.)
                            let declared = out.get(k).is_none_or(|from| !from.is_empty());
                            Some(
                                f.calls
                                    .get(k)
                                    .filter(|_| !declared)
                                    .and_then(|c| generated_getter(facts, types, c))
                                    .into_iter()
                                    .collect(),
                            )
                        } else {
                            f.member_receiver_of(ci).map(|(owner, field)| {
                                let t = types.resolve(owner);
                                let ancestry = t.map(|t| types.ancestry(t)).unwrap_or_default();
                                let declared = ancestry.into_iter().find_map(|a| {
                                    let fields = &types.decl(facts, a).fields;
                                    fields
                                        .iter()
                                        .find(|(n, _)| n == field)
                                        .map(|(_, r)| r.clone())
                                });
                                declared.into_iter().collect()
                            })
                        };
                        let bean = f.bean_receiver_of(ci);
                        let found = match typed {
                            None => g.resolve_java(facts, types, caller, call, bean),
                            Some(tys) => {
                                let many = tys.len() > 1;
                                let mut found: Vec<Node> = tys
                                    .into_iter()
                                    .flat_map(|ty| {
                                        let mut typed = call.clone();
                                        typed.target = Some(ty);
                                        g.resolve_java(facts, types, caller, &typed, bean)
                                    })
                                    .collect();
                                if many {
                                    found.sort_unstable();
                                    found.dedup();
                                }
                                found
                            }
                        };
                        let found = match f.arg_types_of(ci) {
                            Some(args) if found.len() > 1 => fitting(facts, types, found, args),
                            _ => found,
                        };
                        Self::with_literals(facts, found, call.literals)
                    } else if let Some(k) = f.receiver_of(ci) {
                        // `open(..).await?.handle()`: `handle` of the type `open` returns.
                        let from = resolved.get(&k).map_or(&[][..], Vec::as_slice);
                        let ret = from.iter().find_map(|&(f, c)| facts[f].returns_of(c));
                        g.resolve_typed(facts, caller, call, ret)
                    } else if let Some(key) = f.field_receiver_of(ci) {
                        // `ctx.core.subscribe(..)`: a method of `Context.core`'s declared type
                        // (the struct named through its aliases: `data.settings` on `AppData`).
                        let ty = alias_chain(&g.aliases, key.0)
                            .find_map(|st| fields.get(&(st, key.1)).copied().flatten());
                        g.resolve_typed(facts, caller, call, ty)
                    } else {
                        g.resolve_rust(facts, caller, call)
                    };
                    if sources.contains(&ci) {
                        resolved.insert(ci, targets.clone());
                    }
                    out.push(targets);
                }
                out
            })
            .collect();
        let returns = returned_submissions(facts, &all_targets);
        for ((file, f), file_targets) in facts.iter().enumerate().zip(all_targets) {
            let java = is_java(file);
            for ((ci, call), targets) in f.calls.iter().enumerate().zip(file_targets) {
                if call.ctx >= f.contexts.len() {
                    continue;
                }
                let caller = (file, call.ctx);
                for &t in &targets {
                    for &(param, sub) in hands.get(&t).into_iter().flatten() {
                        let w = WrappedCall {
                            call: (file, ci),
                            inner: Some((t.0, sub)),
                            pool: facts[t.0].submissions[sub].pool.clone(),
                        };
                        for &(arg, lambda) in call.lambda_args() {
                            if arg == param {
                                g.wrapped_tasks.insert((file, lambda), w.clone());
                            }
                        }
                        g.wrapped.push(w);
                    }
                    // `store.load(id).join()`: the call's result is that task's future.
                    let waited = call.waited().is_some();
                    for &(sf, sub) in returns.get(&t).into_iter().flatten().filter(|_| waited) {
                        g.wrapped.push(WrappedCall {
                            call: (file, ci),
                            inner: Some((sf, sub)),
                            pool: facts[sf].submissions[sub].pool.clone(),
                        });
                    }
                    for &param in sections.get(&t).into_iter().flatten() {
                        let runs_there = call.lambda_args().iter().filter(|(arg, _)| *arg == param);
                        g.sections
                            .extend(runs_there.map(|&(_, lambda)| (file, lambda)));
                    }
                }
                // `pool.submit(..)` on an instance of a project class that is a pool.
                if java && targets.is_empty() && call.submit_like && !pool_classes.is_empty() {
                    let class = call.target.as_ref().and_then(|r| types.resolve(r));
                    let key = class.and_then(|c| {
                        types
                            .ancestry(c)
                            .into_iter()
                            .map(|a| format!("class:{}", types.names[a]))
                            .find(|k| pool_classes.contains(k.as_str()))
                    });
                    if let Some(pool) = key {
                        let w = WrappedCall {
                            call: (file, ci),
                            inner: None,
                            pool,
                        };
                        for &(_, lambda) in call.lambda_args() {
                            g.wrapped_tasks.insert((file, lambda), w.clone());
                        }
                        g.wrapped.push(w);
                    }
                }
                for t in targets {
                    if t == caller {
                        continue;
                    }
                    callers.push((
                        t,
                        Edge {
                            node: caller,
                            span: call.span,
                            in_loop: call.in_loop,
                            timed: call.timed,
                            cold_only: &*call.method == "<init>",
                            once: call.once,
                        },
                    ));
                    callees.push((
                        caller,
                        Edge {
                            node: t,
                            span: call.span,
                            in_loop: call.in_loop,
                            timed: call.timed,
                            cold_only: &*call.method == "<init>",
                            once: call.once,
                        },
                    ));
                }
            }
            for (call, why) in &f.handlers {
                let caller = (file, call.ctx.min(f.contexts.len().saturating_sub(1)));
                if f.contexts.is_empty() && call.callee_owner.is_none() {
                    continue;
                }
                let targets = if is_java(file) {
                    g.resolve_java(facts, types, caller, call, None)
                } else {
                    g.resolve_rust(facts, caller, call)
                };
                for t in targets {
                    g.handlers.push((t, why.clone()));
                }
            }
            for (i, s) in f.submissions.iter().enumerate() {
                // A task object (its class's `run()`/`call()`), or the body a method of
                // the class returns (`execute(getRunnable(m))`): it runs as the task, and
                // the submitting code reaches it (it takes that code's heat, as a call).
                let mut bodies: Vec<Node> = Vec::new();
                let task_class = s.task_type.as_ref().and_then(|r| types.resolve(r));
                for t in task_class.into_iter().filter(|_| java) {
                    bodies.extend(
                        ["run", "call"]
                            .iter()
                            .flat_map(|m| g.in_hierarchy(facts, types, t, m, Some(0))),
                    );
                }
                let factory = s.task_factory.as_ref().zip(f.contexts.get(s.ctx));
                if let Some((m, c)) = factory.filter(|_| java) {
                    let made_here = |made: CtxId| {
                        let x = &f.contexts[made];
                        x.name == *m && x.owner == c.owner
                    };
                    bodies.extend(
                        f.returned_tasks
                            .iter()
                            .filter(|&&(made, _)| made_here(made))
                            .map(|&(_, body)| (file, body)),
                    );
                }
                for n in bodies {
                    g.tasks.entry(n).or_default().push((file, i));
                    let edge = |node| Edge {
                        node,
                        span: s.span,
                        in_loop: false,
                        timed: false,
                        cold_only: false,
                        once: false,
                    };
                    callers.push((n, edge((file, s.ctx))));
                    callees.push(((file, s.ctx), edge(n)));
                }
                let (Some(m), Some(c)) = (&s.task_method, f.contexts.get(s.ctx)) else {
                    continue;
                };
                let owner = c.owner.clone().unwrap_or_default();
                let found = match types.id(&owner) {
                    Some(t) if java => g.in_hierarchy(facts, types, t, m, None),
                    _ => g.named(&owner, m).to_vec(),
                };
                for n in found {
                    g.tasks.entry(n).or_default().push((file, i));
                }
            }
        }
        advice_edges(facts, &g.build_module, &mut callers, &mut callees);
        g.callers = Adjacency::build(callers);
        g.callees = Adjacency::build(callees);
        g
    }

    /// The contexts declared as `owner.name`.
    pub fn named(&self, owner: &str, name: &str) -> &[Node] {
        self.methods
            .get(&method_key(owner, name))
            .map_or(&[], |&(a, b)| &self.method_nodes[a as usize..b as usize])
    }

    /// `name` in the type or its nearest supertype that declares it with as many
    /// parameters as the call passes (any, when `args` is `None`).
    fn in_hierarchy(
        &self,
        facts: &[FileFacts],
        types: &Types,
        t: TypeId,
        name: &str,
        args: Option<u8>,
    ) -> Vec<Node> {
        types
            .ancestry(t)
            .into_iter()
            .map(|a| self.with_arity(facts, self.named(&types.names[a], name), args))
            .find(|found| !found.is_empty())
            .unwrap_or_default()
    }

    /// The overloads a call with `args` arguments can mean: those declaring that many
    /// parameters, or varargs (an unknown count matches every overload).
    fn with_arity(&self, facts: &[FileFacts], nodes: &[Node], args: Option<u8>) -> Vec<Node> {
        let Some(n) = args else {
            return nodes.to_vec();
        };
        nodes
            .iter()
            .copied()
            .filter(|&(f, c)| facts[f].contexts[c].arity.is_none_or(|a| a == n))
            .collect()
    }

    /// Of the methods a Java call may reach, those whose parameter types take its
    /// literal arguments (`delete(version, false)` is not `delete(SchemaVersion,
    /// Project)`); all of them when none does.
    fn with_literals(facts: &[FileFacts], mut nodes: Vec<Node>, literals: u32) -> Vec<Node> {
        if literals == 0 || nodes.len() < 2 {
            return nodes;
        }
        let fits = |&(f, c): &Node| ArgKind::fits(literals, facts[f].contexts[c].param_kinds);
        if nodes.iter().any(fits) {
            nodes.retain(fits);
        }
        nodes
    }

    /// `bean`: the call is made on an injected field of that bean name
    /// ([`FileFacts::bean_receivers`]).
    fn resolve_java(
        &self,
        facts: &[FileFacts],
        types: &Types,
        caller: Node,
        call: &Call,
        bean: Option<&str>,
    ) -> Vec<Node> {
        let name = &*call.method;
        let Some(target) = &call.target else {
            // Unqualified: the caller's class and supertypes, then its outer classes.
            let owner = facts[caller.0].contexts[caller.1]
                .owner
                .clone()
                .unwrap_or_default();
            let Some(mut t) = types.id(&owner) else {
                if call.callee_owner.as_deref() == Some(crate::facts::SUPER_CALL) {
                    return Vec::new();
                }
                return self.with_arity(facts, self.named(&owner, name), call.args);
            };
            if call.callee_owner.as_deref() == Some(crate::facts::SUPER_CALL) {
                // The nearest supertype that declares it (the project's own supertypes).
                return types.supers[t]
                    .iter()
                    .map(|&s| self.in_hierarchy(facts, types, s, name, call.args))
                    .find(|found| !found.is_empty())
                    .unwrap_or_default();
            }
            for depth in 0..8 {
                let mut found = self.in_hierarchy(facts, types, t, name, call.args);
                if let Some(at) = call.overload().filter(|_| depth == 0) {
                    let picked = |&(f, c): &Node| {
                        f == caller.0 && u32::try_from(facts[f].contexts[c].head.start) == Ok(at)
                    };
                    if found.iter().any(picked) {
                        found.retain(picked);
                    }
                }
                if !found.is_empty() {
                    // A template method's `doExecute(..)`: a subclass's override may
                    // run (the class's own callers reach it through `this`).
                    if depth == 0 {
                        found.extend(self.overrides(facts, types, t, name, call.args, caller.0));
                        found.sort_unstable();
                        found.dedup();
                    }
                    return found;
                }
                match types.outer[t] {
                    Some(o) => t = o,
                    None => break,
                }
            }
            return Vec::new();
        };
        let Some(t) = types.resolve(target) else {
            return Vec::new();
        };
        // `new T(..)` runs T's constructors (named as the class) that take as many
        // arguments, never a subclass's. (Its field initializers' context belongs to
        // no class in the model: it is not reached.)
        if name == "<init>" {
            let owner = &*types.names[t];
            let simple = owner.rsplit(['.', '$']).next().unwrap_or(owner);
            return self.with_arity(facts, self.named(owner, simple), call.args);
        }
        let mut found = self.in_hierarchy(facts, types, t, name, call.args);
        // An interface or abstract method: the project's implementations (a call
        // through `plugin.execute(..)` may run any of them), when there are few. Not
        // the caller's own class or one enclosing it: a decorator (`Wrapper implements
        // Context`, its callables calling `real.getProgress()`) holds the object it
        // wraps, not itself.
        let overrides = self.overrides(facts, types, t, name, call.args, caller.0);
        if overrides.is_empty() {
            return found;
        }
        // `@Resource IOAuth2Service googleDriveOAuth2ServiceImpl`: of several project
        // implementations, Spring injects the bean named as the field.
        if let Some(d) = bean.and_then(|b| bean_subtype(types, t, b)) {
            let picked = self.in_hierarchy(facts, types, d, name, call.args);
            if !picked.is_empty() {
                return picked;
            }
        }
        let own = Self::own_classes(facts, types, caller);
        found.extend(overrides.into_iter().filter(|&(f, c)| {
            let owner = facts[f].contexts[c].owner.as_deref().unwrap_or_default();
            types.id(owner).is_none_or(|d| !own.contains(&d))
        }));
        found
    }

    /// The class a caller's method belongs to and the classes enclosing it.
    fn own_classes(facts: &[FileFacts], types: &Types, caller: Node) -> Vec<TypeId> {
        let owner = facts[caller.0].contexts[caller.1]
            .owner
            .as_deref()
            .unwrap_or_default();
        types
            .id(owner)
            .map(|t| types.enclosing(t).collect())
            .unwrap_or_default()
    }

    /// The methods named `name` of `t`'s project subtypes, when it has at most
    /// [`MAX_SUBTYPES`] (past that, `t` is an extension point). Subtypes spread over
    /// three or more other build modules are plugins, one module each (`KinesisSystemConsumer`
    /// in `samza-aws`, `HdfsSystemConsumer` in `samza-hdfs` for a `SystemConsumer` call in
    /// `samza-rest`), chosen by configuration the project model cannot read: only those
    /// in the caller's or `t`'s module are reached. Subtypes in one or two other modules
    /// (an implementation module beside an API module) all are.
    fn overrides(
        &self,
        facts: &[FileFacts],
        types: &Types,
        t: TypeId,
        name: &str,
        args: Option<u8>,
        caller: FileId,
    ) -> Vec<Node> {
        let mut subtypes = types.descendants(t, MAX_SUBTYPES);
        if subtypes.len() > MAX_SUBTYPES {
            return Vec::new();
        }
        let module = |f: FileId| self.build_module.get(f).copied().unwrap_or(u32::MAX);
        let (from, declared) = (module(caller), module(types.decls[t].0));
        if subtypes.len() > 2 && from != u32::MAX {
            let mut others: Vec<u32> = subtypes
                .iter()
                .map(|&d| module(types.decls[d].0))
                .filter(|&m| m != from && m != declared)
                .collect();
            others.sort_unstable();
            others.dedup();
            if others.len() > 2 {
                subtypes.retain(|&d| {
                    let m = module(types.decls[d].0);
                    m == from || m == declared
                });
            }
        }
        subtypes
            .into_iter()
            .flat_map(|d| self.with_arity(facts, self.named(&types.names[d], name), args))
            .collect()
    }

    /// A Rust method call on a value of type `ty` as written (`crate::db::Conn`, whose
    /// module path picks among types of that name); nothing when the type is unknown.
    fn resolve_typed(
        &self,
        facts: &[FileFacts],
        caller: Node,
        call: &Call,
        ty: Option<&str>,
    ) -> Vec<Node> {
        let Some(r) = ty else {
            return Vec::new();
        };
        // `crate::db::Conn` names module `db`, as a call's hint does.
        let r = r
            .trim_start_matches("crate::")
            .trim_start_matches("self::")
            .trim_start_matches("super::");
        let (module, owner) = match r.rsplit_once("::") {
            Some((m, o)) => (Some(m.into()), o),
            None => (None, r),
        };
        let mut typed = Call {
            callee_owner: Some(owner.into()),
            ..call.clone()
        };
        if module.is_some() || typed.module().is_some() {
            typed.extra_mut().module = module;
        }
        self.resolve_rust(facts, caller, &typed)
    }

    fn resolve_rust(&self, facts: &[FileFacts], caller: Node, call: &Call) -> Vec<Node> {
        let written: &str = match &call.callee_owner {
            Some(o) => o,
            None => facts[caller.0].contexts[caller.1]
                .owner
                .as_deref()
                .unwrap_or_default(),
        };
        // `data.get_config(..)` on `data: AppData`, `type AppData = Data<ArcData>`,
        // `type ArcData = Arc<Data>`: the methods of `Data` (or of the implementations
        // of the trait the last alias names).
        let (mut owner, mut all) = (written, &[][..]);
        for o in alias_chain(&self.aliases, written) {
            (owner, all) = (o, self.named(o, &call.method));
            if !all.is_empty() {
                break;
            }
        }
        // A call on a `dyn Trait` (or `impl Trait`) value: the project's implementations
        // (any of them may run), when there are few.
        if all.is_empty() {
            let impls = self.implementors.get(owner).map_or(&[][..], Vec::as_slice);
            return if impls.len() <= MAX_SUBTYPES {
                impls
                    .iter()
                    .flat_map(|t| self.named(t, &call.method))
                    .copied()
                    .collect()
            } else {
                Vec::new()
            };
        }
        let hint: Vec<&str> = call
            .module()
            .map_or_else(Vec::new, |h| h.split("::").collect());
        // `handlers::run_job` names the function of the file's `mod handlers { .. }`
        // (the innermost module that declares it); a path that names no such module
        // (`api::run_job`) means the file's own function of that name, if it has one.
        let inline_module = |n: &Node| {
            let file = &facts[n.0];
            let at = file.contexts.get(n.1)?.head.start;
            file.inline_modules
                .iter()
                .filter(|(_, s)| s.start <= at && at < s.end)
                .max_by_key(|(_, s)| s.start)
                .map(|(name, _)| &**name)
        };
        let outside: Vec<Node>;
        if let Some(m) = hint.last() {
            // Each candidate with its innermost inline module, looked up once.
            let placed: Vec<(Node, Option<&str>)> =
                all.iter().map(|n| (*n, inline_module(n))).collect();
            let inside: Vec<Node> = placed
                .iter()
                .filter(|(n, im)| n.0 == caller.0 && *im == Some(*m))
                .map(|(n, _)| *n)
                .collect();
            if !inside.is_empty() {
                return inside;
            }
            // Only where the same file has one outside every inline module: a module's
            // `pub use client::Client` may re-export the only one.
            let top: rustc_hash::FxHashSet<FileId> = placed
                .iter()
                .filter(|(_, im)| im.is_none())
                .map(|(n, _)| n.0)
                .collect();
            if placed
                .iter()
                .any(|(n, im)| im.is_some() && top.contains(&n.0))
            {
                outside = placed
                    .iter()
                    .filter(|(n, im)| im.is_none() || !top.contains(&n.0))
                    .map(|(n, _)| *n)
                    .collect();
                all = &outside;
            }
        }
        // A path through another module (`upgrade::init`) never means this file's own.
        let local: Vec<Node> = all.iter().copied().filter(|n| n.0 == caller.0).collect();
        if !local.is_empty() && call.module().is_none() {
            return local;
        }
        let module = |n: &Node| &facts[n.0].module;
        let contains = |m: &[Box<str>]| {
            m.windows(hint.len())
                .any(|w| w.iter().map(|s| &**s).eq(hint.iter().copied()))
        };
        // `async_bb8_diesel::Connection::new`: a path through a crate or module the
        // project does not have names a library's function.
        if hint
            .first()
            .is_some_and(|h| !self.module_names.contains(*h))
        {
            return Vec::new();
        }
        if all.len() == 1 && local.is_empty() {
            // The only function of that name, unless the path names its crate and then
            // modules the project does not have (`graph::futures03::executor::block_on`:
            // a crate `graph` re-exports, not `graph::tokio::block_on`); a module the
            // path names (`graph::prelude`) may re-export it.
            let elsewhere = hint.len() > 1
                && module(&all[0]).first().is_some_and(|c| **c == *hint[0])
                && !contains(module(&all[0]))
                && !self.modules.contains(&hint.join("::"));
            return if elsewhere { Vec::new() } else { all.to_vec() };
        }
        // Several functions of that name: the module the path or its `use` names
        // picks one file (`cli::upgrade` in `server::cli::upgrade`, or a parent
        // module that re-exports it), preferring an exact suffix, then the caller's crate.
        if hint.is_empty() {
            return Vec::new();
        }
        let ends = |m: &[Box<str>]| {
            m.len() >= hint.len()
                && m[m.len() - hint.len()..]
                    .iter()
                    .map(|s| &**s)
                    .eq(hint.iter().copied())
        };
        let caller_crate = facts[caller.0].module.first();
        let caller_module = &facts[caller.0].module;
        let child = |m: &[Box<str>]| {
            m.len() == caller_module.len() + hint.len() && m.starts_with(caller_module) && ends(m)
        };
        let picks: [&dyn Fn(&Node) -> bool; 4] = [
            &|n| child(module(n)),
            &|n| ends(module(n)) && module(n).first() == caller_crate,
            &|n| ends(module(n)),
            &|n| contains(module(n)),
        ];
        for pick in picks {
            let found: Vec<Node> = all.iter().copied().filter(|n| pick(n)).collect();
            if found.is_empty() {
                continue;
            }
            return if found.iter().all(|n| n.0 == found[0].0) {
                found
            } else {
                Vec::new()
            };
        }
        Vec::new()
    }
}

/// Drops the calls that no method or function of the project can receive (`list.add`,
/// `log.info`: nothing here declares `add` or `info`), before the project is
/// linked: most calls of a file are such library calls, and the project model
/// only resolves calls to named project methods. Kept: every call whose name a
/// project method has, and `submit`-like calls (a pool class's instance).
pub fn prune_calls(facts: &mut [FileFacts]) {
    let names: rustc_hash::FxHashSet<Box<str>> = facts
        .iter()
        .flat_map(|f| f.contexts.iter())
        .filter(|c| is_method(&c.kind, &c.name))
        .map(|c| Box::from(c.name.as_str()))
        .collect();
    // Getters no source declares (Lombok's) that return a project class's object:
    // calls are made on their results.
    let getters: rustc_hash::FxHashSet<Box<str>> = facts
        .iter()
        .flat_map(|f| f.getter_fields.iter())
        .filter_map(|(g, _)| g.rsplit('.').next())
        .map(Box::from)
        .collect();
    for f in facts.iter_mut() {
        let mut index = vec![usize::MAX; f.calls.len()];
        let mut kept = 0;
        let mut receivers = f.receivers.iter().peekable();
        let mut getter_receivers = f.getter_receivers.iter().peekable();
        let mut factory_receivers = f.factory_receivers.iter().peekable();
        // The getter calls another call is made on.
        let getter_sources: rustc_hash::FxHashSet<u32> =
            f.getter_receivers.iter().map(|&(_, from)| from).collect();
        // A wait on a project class's variable is judged by the call's receiver type
        // (`pump.join()` on a `Thread` subclass), even when no project method has its name.
        let member_waits: rustc_hash::FxHashSet<u32> =
            f.member_waits.iter().map(|&(at, _)| at).collect();
        for (i, c) in f.calls.iter().enumerate() {
            // A call on the result of a dropped call has no type to be looked up in.
            let on_call = receiver_kept(&mut receivers, i, &index);
            let on_getter = receiver_kept(&mut getter_receivers, i, &index);
            let on_factory = receiver_kept(&mut factory_receivers, i, &index);
            let typed = on_call.or(on_getter).or(on_factory).unwrap_or(true);
            let waited = u32::try_from(i).is_ok_and(|i| member_waits.contains(&i));
            let generated = || {
                u32::try_from(i).is_ok_and(|i| getter_sources.contains(&i))
                    && getters.contains(&c.method)
            };
            let named = names.contains(&c.method) || generated();
            if !typed && named {
                f.untyped_calls.push(crate::facts::UntypedCall {
                    method: c.method.clone(),
                    args: c.args,
                    literals: c.literals,
                });
            }
            if typed && (c.submit_like || waited || named) {
                index[i] = kept;
                kept += 1;
            }
        }
        if kept == f.calls.len() {
            continue;
        }
        // The calls a waited future can come from, while the dropped ones are still
        // there: one on a type written without an import (the file's package's, or
        // nested) is the project's own, in code this run does not see.
        let calls = &f.calls;
        let returned = f.return_sources.iter_mut().map(|(_, list)| list);
        let sourced = returned.chain(f.wait_sources.iter_mut().map(|(_, list)| list));
        for c in sourced.flat_map(|list| list.iter_mut()) {
            let at = *c as usize;
            *c = match index.get(at).filter(|&&k| k != usize::MAX) {
                Some(&k) => u32::try_from(k).unwrap_or(LIBRARY_CALL),
                None if calls
                    .get(at)
                    .and_then(|x| x.target.as_ref())
                    .is_some_and(|t| t.candidates.len() > 1) =>
                {
                    UNSEEN_CALL
                }
                None => LIBRARY_CALL,
            };
        }
        let mut i = 0;
        f.calls.retain(|_| {
            i += 1;
            index[i - 1] != usize::MAX
        });
        f.calls.shrink_to_fit();
        let remap = |k: u32| {
            index
                .get(k as usize)
                .filter(|&&x| x != usize::MAX)
                .and_then(|&x| u32::try_from(x).ok())
        };
        let remap_pairs = |pairs: &mut Vec<(u32, u32)>| {
            pairs.retain_mut(|(at, from)| match (remap(*at), remap(*from)) {
                (Some(a), Some(b)) => {
                    (*at, *from) = (a, b);
                    true
                }
                _ => false,
            });
        };
        remap_pairs(&mut f.receivers);
        remap_pairs(&mut f.getter_receivers);
        remap_pairs(&mut f.factory_receivers);
        f.field_receivers = std::mem::take(&mut f.field_receivers)
            .into_iter()
            .filter_map(|(at, ty, field)| Some((remap(at)?, ty, field)))
            .collect();
        f.member_receivers = std::mem::take(&mut f.member_receivers)
            .into_iter()
            .filter_map(|(at, ty, field)| Some((remap(at)?, ty, field)))
            .collect();
        f.bean_receivers = std::mem::take(&mut f.bean_receivers)
            .into_iter()
            .filter_map(|(at, bean)| Some((remap(at)?, bean)))
            .collect();
        f.member_waits = std::mem::take(&mut f.member_waits)
            .into_iter()
            .filter_map(|(at, span)| Some((remap(at)?, span)))
            .collect();
        f.result_waits = std::mem::take(&mut f.result_waits)
            .into_iter()
            .filter_map(|(w, at, elem, entry)| Some((w, remap(at)?, elem, entry)))
            .collect();
        f.call_holders = std::mem::take(&mut f.call_holders)
            .into_iter()
            .filter_map(|(at, holder)| Some((remap(at)?, holder)))
            .collect();
        f.arg_types = std::mem::take(&mut f.arg_types)
            .into_iter()
            .filter_map(|(at, types)| Some((remap(at)?, types)))
            .collect();
        // A returned call no project method receives (a library's) proves no promise,
        // but no pool work of the project's either: kept as `LIBRARY_CALL`.
        let promised = f.promise_methods.iter_mut().map(|(_, calls)| calls);
        for calls in promised.chain(f.chain_waits.iter_mut().map(|(_, calls)| calls)) {
            for c in calls.iter_mut() {
                *c = remap(*c).unwrap_or(LIBRARY_CALL);
            }
        }
        f.call_waits.retain_mut(|(c, _)| {
            *c = index.get(*c).copied().unwrap_or(usize::MAX);
            *c != usize::MAX
        });
    }
    // Struct fields no kept call is made on: nothing will look them up.
    // (Through aliases too: `data.store` on `data: AppData` reads `Data.store`.)
    let aliases = type_aliases(facts, None);
    let read: rustc_hash::FxHashSet<u64> = facts
        .iter()
        .flat_map(|f| f.field_receivers.iter())
        .flat_map(|(_, ty, field)| alias_chain(&aliases, ty).map(|t| method_key(t, field)))
        .collect();
    for f in facts.iter_mut().filter(|f| !f.struct_fields.is_empty()) {
        f.struct_fields
            .retain(|(ty, field, _)| read.contains(&method_key(ty, field)));
        f.struct_fields.shrink_to_fit();
    }
}

/// How many aliases deep a type is followed (`AppData` -> `ArcData` -> `Data`).
const MAX_ALIASES: usize = 4;

/// Rust type aliases of the project -> the name of the type each names; an alias
/// two files define differently maps to `None`. With `modules`, a target named
/// through a module path must be through one of the project's (`deadpool::Pool` is
/// a library's `Pool`, not the project's).
fn type_aliases(
    facts: &[FileFacts],
    modules: Option<&std::collections::HashSet<Box<str>>>,
) -> HashMap<Box<str>, Option<Box<str>>> {
    let mut aliases: HashMap<Box<str>, Option<Box<str>>> = HashMap::default();
    for f in facts {
        for (alias, written) in &f.type_aliases {
            let mut segs = written
                .split("::")
                .skip_while(|s| matches!(*s, "crate" | "self" | "super"))
                .peekable();
            let first = segs.peek().copied().unwrap_or_default();
            let target: Box<str> = segs.last().unwrap_or_default().into();
            let foreign = first != &*target && modules.is_some_and(|m| !m.contains(first));
            if foreign {
                continue;
            }
            aliases
                .entry(alias.clone())
                .and_modify(|t| {
                    if t.as_ref() != Some(&target) {
                        *t = None;
                    }
                })
                .or_insert_with(|| Some(target));
        }
    }
    aliases
}

/// A type name, then the types its aliases name in turn (`AppData`, `ArcData`, `Data`).
fn alias_chain<'a>(
    aliases: &'a HashMap<Box<str>, Option<Box<str>>>,
    name: &'a str,
) -> impl Iterator<Item = &'a str> {
    std::iter::successors(Some(name), |n| aliases.get(*n).and_then(|t| t.as_deref()))
        .take(MAX_ALIASES + 1)
}

/// Advances a side table of (call, the call whose result it is made on), in call
/// order, to call `i`: whether that receiver call was kept (`None`: `i` has no row).
fn receiver_kept(
    rows: &mut std::iter::Peekable<std::slice::Iter<'_, (u32, u32)>>,
    i: usize,
    index: &[usize],
) -> Option<bool> {
    let mut kept = None;
    while let Some(&&(at, from)) = rows.peek() {
        if at as usize > i {
            break;
        }
        if at as usize == i {
            kept = Some(index.get(from as usize).is_some_and(|&x| x != usize::MAX));
        }
        rows.next();
    }
    kept
}

/// The declared type of the field a getter no source declares is named for
/// (`getThreadPool()` → `threadPool`, `isReady()` → `ready`), in the receiver's
/// project class or a superclass: Lombok's `@Getter`, `@Data` and `@Value`.
fn generated_getter(
    facts: &[FileFacts],
    types: &Types,
    call: &Call,
) -> Option<std::sync::Arc<crate::facts::TypeRef>> {
    let field = crate::facts::getter_field(&call.method).filter(|_| call.args == Some(0))?;
    let t = types.resolve(call.target.as_ref()?)?;
    types.ancestry(t).into_iter().find_map(|a| {
        types
            .decl(facts, a)
            .fields
            .iter()
            .find(|(n, _)| **n == *field)
            .map(|(_, r)| r.clone())
    })
}

/// The methods index key: `owner` and `name`, hashed (the separator keeps
/// `a.bc`/`ab.c` apart).
fn method_key(owner: &str, name: &str) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(owner.as_bytes());
    h.update(&[0]);
    h.update(name.as_bytes());
    h.digest()
}

/// Methods that return the future of a submission, by (file, submission): their own
/// (`return pool.submit(..)`), or the result of a call they return (`return
/// queryAsync(() -> ..)` where `queryAsync` returns the future of the task it is given;
/// `return store.load(id)` where `load` returns its own), to a fixpoint over the call
/// graph (at most 8 calls deep: a method returns what it returns after that many).
fn returned_submissions(
    facts: &[FileFacts],
    targets: &[Vec<Vec<Node>>],
) -> HashMap<Node, Vec<(FileId, usize)>> {
    let mut returns: HashMap<Node, Vec<(FileId, usize)>> = HashMap::default();
    for (file, f) in facts.iter().enumerate() {
        for (i, s) in f.submissions.iter().enumerate() {
            // A wrapper's (`task_param`) future is its caller's, through the call below.
            if s.returned && s.task_param.is_none() {
                returns.entry((file, s.ctx)).or_default().push((file, i));
            }
        }
    }
    let returned_calls: Vec<(Node, &[Node], bool)> = facts
        .iter()
        .enumerate()
        .flat_map(|(file, f)| {
            f.calls
                .iter()
                .zip(&targets[file])
                .filter(|(c, t)| c.returned && !t.is_empty())
                .map(move |(c, t)| ((file, c.ctx), &t[..], !c.lambda_args().is_empty()))
        })
        .collect();
    if returned_calls.is_empty() {
        return returns;
    }
    // Wrappers that return the future of the task a call gives them.
    let mut wrappers: HashMap<Node, Vec<(FileId, usize)>> = HashMap::default();
    for (file, f) in facts.iter().enumerate() {
        for (i, s) in f.submissions.iter().enumerate() {
            if s.returned && s.task_param.is_some() {
                wrappers.entry((file, s.ctx)).or_default().push((file, i));
            }
        }
    }
    for _ in 0..8 {
        let mut changed = false;
        for &(caller, callees, gives_task) in &returned_calls {
            let mut found: Vec<(FileId, usize)> = Vec::new();
            for &t in callees {
                found.extend(returns.get(&t).into_iter().flatten().copied());
                if gives_task {
                    found.extend(wrappers.get(&t).into_iter().flatten().copied());
                }
            }
            let mine = returns.entry(caller).or_default();
            for x in found {
                if !mine.contains(&x) {
                    mine.push(x);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    returns.retain(|_, v| !v.is_empty());
    returns
}

/// Java aspects: an advice (`@Around("@annotation(Audited)")`) runs around each
/// method its pointcut selects, on that method's thread, as if the method called it:
/// an edge from each method marked with the annotation (at the mark) to the advice.
/// An annotation resolves to the project's own `@interface` first; one the project
/// does not declare must be named alike (the same import) on both sides. A method is
/// advised by the aspects of its own build module when that module has any for the
/// annotation (two applications that share the annotation each weave their own).
fn advice_edges<'f>(
    facts: &'f [FileFacts],
    build_module: &[u32],
    callers: &mut Vec<(Node, Edge)>,
    callees: &mut Vec<(Node, Edge)>,
) {
    if facts.iter().all(|f| f.advice.is_empty()) {
        return;
    }
    let declared: std::collections::HashSet<&'f str> = facts
        .iter()
        .flat_map(|f| f.annotation_types.iter().map(|a| &**a))
        .collect();
    let resolve = |r: &'f crate::facts::TypeRef| -> Option<&'f str> {
        let own = r.candidates.iter().find(|c| declared.contains(c.as_str()));
        match (own, r.candidates.as_slice()) {
            (Some(c), _) | (None, [c]) => Some(c.as_str()),
            _ => None,
        }
    };
    let mut advised: HashMap<&str, Vec<Node>> = HashMap::default();
    for (file, f) in facts.iter().enumerate() {
        for (ctx, target) in &f.advice {
            if let Some(fq) = resolve(target) {
                advised.entry(fq).or_default().push((file, *ctx));
            }
        }
    }
    let module = |n: &Node| build_module.get(n.0).copied().unwrap_or(u32::MAX);
    for (file, f) in facts.iter().enumerate() {
        for (ctx, mark, span) in &f.method_marks {
            let Some(advice) = resolve(mark).and_then(|fq| advised.get(fq)) else {
                continue;
            };
            let here = module(&(file, *ctx));
            let own = here != u32::MAX && advice.iter().any(|a| module(a) == here);
            for &a in advice.iter().filter(|a| !own || module(a) == here) {
                let edge = |node| Edge {
                    node,
                    span: *span,
                    in_loop: false,
                    timed: false,
                    cold_only: false,
                    once: false,
                };
                callers.push((a, edge((file, *ctx))));
                callees.push(((file, *ctx), edge(a)));
            }
        }
    }
}

/// Each file's Java build module: the display path before `src/main/java/` (`samza-aws/`,
/// `server/tserver/`), interned in order of first appearance; `u32::MAX` for other files.
fn build_modules(files: &[SourceFile]) -> Vec<u32> {
    let mut ids: HashMap<&str, u32> = HashMap::default();
    files
        .iter()
        .map(|f| match f.display.find("src/main/java/") {
            Some(at) => {
                let next = ids.len() as u32;
                *ids.entry(&f.display[..at]).or_insert(next)
            }
            None => u32::MAX,
        })
        .collect()
}

/// Of the overloads a call may reach, those its arguments' declared types can be passed
/// to (`getItem(id)` with a `NodeId` reaches `getItem(ItemId)`, not `getItem(Path)`).
/// A method whose parameter types are not recorded stays; when nothing fits, all stay.
fn fitting(
    facts: &[FileFacts],
    types: &Types,
    found: Vec<Node>,
    args: &[Option<std::sync::Arc<crate::facts::TypeRef>>],
) -> Vec<Node> {
    let fits = |&(f, c): &Node| {
        let Some(params) = facts[f].param_types_of(c) else {
            return true;
        };
        params.len() != args.len()
            || params.iter().zip(args).all(|(p, a)| match (p, a) {
                (Some(p), Some(a)) => assignable(facts, types, a, p),
                _ => true,
            })
    };
    if found.iter().all(fits) || !found.iter().any(fits) {
        return found;
    }
    found.into_iter().filter(fits).collect()
}

/// JDK classes that no library or project class stands in for (final, or in practice
/// never subclassed): a parameter of one takes only a value of that class.
pub const JDK_VALUES: &[&str] = &[
    "java.io.File",
    "java.lang.String",
    "java.net.URI",
    "java.net.URL",
    "java.nio.file.Path",
    "java.util.UUID",
    "java.math.BigDecimal",
    "java.math.BigInteger",
    "java.time.Duration",
    "java.time.Instant",
    "java.time.LocalDate",
    "java.time.LocalDateTime",
];

/// Whether a simple class name is one of [`JDK_VALUES`] (`File`), as written.
pub fn jdk_value_name(simple: &str) -> bool {
    JDK_VALUES
        .iter()
        .any(|fq| fq.rsplit('.').next() == Some(simple))
}

/// Whether a value of type `arg` may be passed as `param`. A project type: `param` is
/// one of its project ancestors, or a type outside the project that its ancestry may
/// reach (any, when some ancestor extends a type outside the project). A type outside
/// the project: any `param`, but a JDK value class ([`JDK_VALUES`]) of another name
/// (a `MultipartFile` is no `File`).
fn assignable(
    facts: &[FileFacts],
    types: &Types,
    arg: &crate::facts::TypeRef,
    param: &crate::facts::TypeRef,
) -> bool {
    let Some(a) = types.resolve(arg) else {
        return match (&arg.candidates[..], &param.candidates[..]) {
            ([a], [p]) if JDK_VALUES.contains(&p.as_str()) => a == p,
            _ => true,
        };
    };
    let ancestry = types.ancestry(a);
    if let Some(p) = types.resolve(param) {
        return ancestry.contains(&p);
    }
    let object = param
        .candidates
        .first()
        .is_some_and(|n| n == "java.lang.Object" || n == "Object");
    // An ancestor with a supertype outside the project: that may be `param`.
    object
        || ancestry
            .iter()
            .any(|&t| types.external_supers(facts, t).next().is_some())
}

/// The one project subtype of `t` whose default Spring bean name is `bean` (the simple
/// class name with its first letter lowered, unless its first two are capitals, as
/// `java.beans.Introspector.decapitalize` does).
fn bean_subtype(types: &Types, t: TypeId, bean: &str) -> Option<TypeId> {
    let named = |d: &TypeId| {
        let fq = &*types.names[*d];
        let simple = fq.rsplit(['.', '$']).next().unwrap_or(fq);
        let mut chars = simple.chars();
        match (chars.next(), chars.next()) {
            (Some(a), Some(b)) if a.is_uppercase() && b.is_uppercase() => simple == bean,
            (Some(a), _) => {
                bean.len() == simple.len()
                    && bean.starts_with(a.to_ascii_lowercase())
                    && bean[a.len_utf8()..] == simple[a.len_utf8()..]
            }
            _ => false,
        }
    };
    let mut found = types.descendants(t, MAX_SUBTYPES).into_iter().filter(named);
    let one = found.next()?;
    found.next().is_none().then_some(one)
}
