//! Cross-file linking: runs once, after the parallel per-file phase, and gives
//! rules one view of the whole scan: which keys name the same pool (fields,
//! qualifiers, bean names, inherited fields), which `@Async` method a call
//! reaches, and where a piece of code runs (a pool task, an event loop, an async
//! task), directly or through calls the project model resolves across files.

use std::collections::{BTreeMap, HashMap};

use crate::diagnostic::{ExecContext, ViaStep};
use crate::facts::{AsyncMethod, CtxId, CtxKind, FileFacts, Heat, Pool, PoolKey};
use crate::model::{Model, Node};
use crate::source::{FileId, SourceFile, Span};

/// How many calls deep execution contexts are followed.
pub const CALL_DEPTH: usize = 8;

/// All files of a run with their facts, indexed by [`FileId`].
pub struct Project<'a> {
    pub files: &'a [SourceFile],
    pub facts: &'a [FileFacts],
    /// Every pool key -> its canonical key.
    canon: HashMap<PoolKey, PoolKey>,
    /// Canonical key -> the pool's definition.
    pools: HashMap<PoolKey, PoolAt>,
    /// Pools made by calls of project factory methods, with the file of the call.
    made: Vec<(FileId, Pool)>,
    /// A factory method (its file, `<class fq>.<method>`, arity) -> the keys of the
    /// pools its calls make: what fills those fills the queue it creates.
    factory_users: HashMap<(FileId, String, usize), Vec<PoolKey>>,
    /// (class simple name, method) -> `@Async` method.
    async_methods: HashMap<(String, String), (FileId, usize)>,
    default_async_bean: String,
    /// Types, the call graph and execution contexts.
    pub model: Model,
    /// [`Project::submissions`], computed once for every rule that reads it.
    subs: std::sync::OnceLock<Vec<Sub>>,
    /// The functions only dead code reaches ([`Project::dead_code`]), found once.
    dead: std::sync::OnceLock<rustc_hash::FxHashSet<Node>>,
    /// Deprecated classes the project's current code still calls ([`Project::deprecated`]).
    live_deprecated: std::sync::OnceLock<rustc_hash::FxHashSet<&'a str>>,
}

/// Where a pool's definition is: a file's pool fact, or a pool the model made.
#[derive(Debug, Clone, Copy)]
enum PoolAt {
    Fact(FileId, usize),
    Made(usize),
}

/// A submission as rules see it: a call to a pool, or a call of an `@Async` method.
#[derive(Debug, Clone)]
pub struct Sub {
    pub file: FileId,
    pub span: Span,
    /// The call as written, for messages.
    pub what: String,
    pub pool: PoolKey,
    pub pool_name: String,
    pub ctx: CtxId,
    /// Where the result is waited for in the submitting code.
    pub waited: Option<Span>,
    /// For a wrapper's call: the wait chained onto it passes a time bound (`None`: the
    /// wait is a fact of the file, or there is none).
    pub wrapper_wait_timed: Option<bool>,
    /// For a submission fact: its index.
    pub index: Option<usize>,
    /// For an `@Async` call: the method it reaches.
    pub via_async: Option<(FileId, AsyncMethod)>,
    /// Rust `install`: the caller blocks while the closure runs on the pool.
    pub install: bool,
    /// For a call of a wrapper method: the wrapper's own submission (file, span).
    pub via_wrapper: Option<(FileId, Span)>,
    /// Made past a guard that admits one at a time (for a wrapper's call: the
    /// wrapper's own submission is).
    pub guarded: bool,
    /// A direct submission whose handle is dropped ([`crate::facts::Submission::detached`]).
    pub detached: bool,
}

impl Sub {
    /// The wait on the result passes a time bound (`get(3, SECONDS)`), in the
    /// submitting code or chained onto a wrapper's call.
    pub fn wait_timed(&self, project: &Project) -> bool {
        let Some(at) = self.waited else { return false };
        if let Some(timed) = self.wrapper_wait_timed {
            return timed;
        }
        let typed = project.model.typed_waits.contains(&(self.file, at.start));
        project.facts[self.file]
            .waits
            .iter()
            .any(|w| w.span == at && w.timed && !(w.by_call && typed))
    }

    /// For an `@Async` call: a label on the method, saying it runs on `pool`.
    pub fn async_label(&self, pool: &str) -> Option<(FileId, Span, String)> {
        let (file, m) = self.via_async.as_ref()?;
        let text = format!("`@Async` method `{}` runs on `{pool}`", m.method);
        Some((*file, m.span, text))
    }
}

/// Where a piece of code runs.
#[derive(Debug, Clone)]
pub struct Execution {
    /// The task, event-loop or async context (or the method run as a task), and its file.
    pub file: FileId,
    pub ctx: CtxId,
    pub kind: CtxKind,
    /// The submission that runs the task, if it is one (in `file`).
    pub submission: Option<usize>,
    /// Calls that lead from `ctx` to the code, outermost first, each in its file.
    pub via: Vec<(FileId, Span)>,
}

impl Execution {
    /// A spawned async task that loops for good (cold: a background job), outside
    /// a binary: what blocks in it still blocks a runtime worker that serves traffic.
    pub fn blocks_shared_worker(&self, project: &Project) -> bool {
        let f = &project.facts[self.file];
        self.kind == CtxKind::Async && !f.binary && f.contexts[self.ctx].dedicated_loop
    }
}

impl<'a> Project<'a> {
    /// Link the facts of a run. `default_async_bean` is the executor bean an
    /// `@Async` with no value uses.
    pub fn new(
        files: &'a [SourceFile],
        facts: &'a [FileFacts],
        default_async_bean: &str,
        java_entries: &[crate::catalog::EntryPoint],
    ) -> Project<'a> {
        let mut uf = UnionFind::default();
        let model = Model::new(files, facts, java_entries);
        let aliases = AliasIndex::new(facts);
        let passed = parameter_pools(facts, &model, &aliases.params);
        // A field its class's callers fill by hand (`new Worker(pool)`) is not injected.
        let hand_built: std::collections::HashSet<&str> = aliases
            .all
            .iter()
            .filter(|(_, b)| passed.contains_key(*b))
            .map(|(a, _)| *a)
            .collect();
        let getters = &aliases.getters;
        let (mut made, factory_users) = factory_pools(facts, &model);
        made.extend(handler_pools(facts, &model));
        let defined: std::collections::HashSet<&str> = facts
            .iter()
            .flat_map(|f| f.pools.iter().map(|p| p.key.as_str()))
            .chain(made.iter().map(|(_, p)| p.key.as_str()))
            .collect();
        for (_, p) in &made {
            uf.add(&p.key);
        }
        let mut providers: HashMap<&str, usize> = HashMap::new();
        for a in facts
            .iter()
            .flat_map(|f| f.pools.iter().flat_map(|p| &p.aliases))
        {
            if a.starts_with("provided:") {
                *providers.entry(a.as_str()).or_default() += 1;
            }
        }
        for f in facts {
            for p in &f.pools {
                uf.add(&p.key);
                for a in &p.aliases {
                    if a.starts_with("provided:") && providers.get(a.as_str()) != Some(&1) {
                        continue;
                    }
                    uf.union(&p.key, a);
                }
            }
            for (a, b) in &f.pool_aliases {
                // A field its own class assigns a new pool to is not injected: no bean
                // of that name or provider of that type is it (else two classes' `pool`
                // fields become one pool, or every such field the one `@Provides` pool).
                if (defined.contains(a.as_str()) || hand_built.contains(a.as_str()))
                    && (b.starts_with("bean:") || b.starts_with("provided:"))
                {
                    continue;
                }
                if getters
                    .get(b.as_str())
                    .is_some_and(|fields| fields.len() > 1)
                {
                    continue;
                }
                // By type: only to the project's one provider of that type.
                if b.starts_with("provided:") && providers.get(b.as_str()) != Some(&1) {
                    continue;
                }
                uf.union(a, b);
            }
        }
        bean_constants(facts, &mut uf);
        inherited_fields(facts, &aliases.fields, &model, &mut uf);
        inherited_getters(&aliases.getters, &model, &mut uf);
        for (param, pools) in &passed {
            if let [pool] = pools.iter().collect::<Vec<_>>()[..] {
                uf.union(param, pool);
            }
        }
        let canon = uf.resolve();
        let mut pools = HashMap::new();
        let mut async_methods = HashMap::new();
        let mut made_in: HashMap<FileId, Vec<usize>> = HashMap::new();
        for (i, (file, _)) in made.iter().enumerate() {
            made_in.entry(*file).or_default().push(i);
        }
        let canonical = |k: &PoolKey| canon.get(k).cloned().unwrap_or_else(|| k.clone());
        for (file, f) in facts.iter().enumerate() {
            // Pools the model completed (factory calls, handler classes) come first.
            for &i in made_in.get(&file).into_iter().flatten() {
                pools
                    .entry(canonical(&made[i].1.key))
                    .or_insert(PoolAt::Made(i));
            }
            for (i, p) in f.pools.iter().enumerate() {
                pools
                    .entry(canonical(&p.key))
                    .or_insert(PoolAt::Fact(file, i));
            }
            for (i, m) in f.async_methods.iter().enumerate() {
                async_methods
                    .entry((m.class.clone(), m.method.clone()))
                    .or_insert((file, i));
            }
        }
        let default_async_bean = default_async_bean.to_string();
        Project {
            files,
            facts,
            canon,
            pools,
            made,
            factory_users,
            async_methods,
            default_async_bean,
            model,
            subs: std::sync::OnceLock::new(),
            dead: std::sync::OnceLock::new(),
            live_deprecated: std::sync::OnceLock::new(),
        }
    }

    /// Every file with its facts.
    pub fn each(&self) -> impl Iterator<Item = (FileId, &'a SourceFile, &'a FileFacts)> {
        self.files
            .iter()
            .zip(self.facts)
            .enumerate()
            .map(|(i, (s, f))| (i, s, f))
    }

    pub fn canonical<'k>(&'k self, key: &'k str) -> &'k str {
        self.canon.get(key).map(String::as_str).unwrap_or(key)
    }

    pub fn same_pool(&self, a: &str, b: &str) -> bool {
        self.canonical(a) == self.canonical(b)
    }

    /// A pool's definition, by any key that names it.
    pub fn pool(&self, key: &str) -> Option<(FileId, &Pool)> {
        match *self.pools.get(self.canonical(key))? {
            PoolAt::Fact(file, i) => Some((file, &self.facts[file].pools[i])),
            PoolAt::Made(i) => self.made.get(i).map(|(f, p)| (*f, p)),
        }
    }

    /// The keys of the pools that calls of the factory method `ctx` of `file` make.
    pub fn factory_users(&self, file: FileId, ctx: usize) -> &[PoolKey] {
        let c = &self.facts[file].contexts[ctx];
        let (Some(owner), Some(arity)) = (&c.owner, c.arity) else {
            return &[];
        };
        let method = format!("{owner}.{}", c.name);
        self.factory_users
            .get(&(file, method, usize::from(arity)))
            .map_or(&[], Vec::as_slice)
    }

    /// Pools made by calls of project factory methods, with the file of the call.
    pub fn made_pools(&self) -> impl Iterator<Item = (FileId, &Pool)> {
        self.made.iter().map(|(f, p)| (*f, p))
    }

    /// Dead code, not code of unknown context, in a project that serves requests: a
    /// Java `static` method, in a class the project calls, which no entry point runs
    /// and nothing in the project calls but other such methods (nor names in a method
    /// reference; a copied utility's unused overloads); a Rust function marked
    /// `#[allow(dead_code)]` that nothing calls but such code.
    pub fn dead_code(&self, file: FileId, ctx: CtxId) -> bool {
        self.dead
            .get_or_init(|| self.find_dead_code())
            .contains(&(file, ctx))
    }

    /// Code its author marks `@Deprecated` (the method, a method or class around it, or
    /// every constructor of its class) that no current code of the project calls: what
    /// calls it is outside, and moving off it. (A deprecated class the project's own
    /// services still call is live.)
    pub fn deprecated(&self, file: FileId, ctx: CtxId) -> bool {
        let live = || {
            let live = self
                .live_deprecated
                .get_or_init(|| self.find_live_deprecated());
            // (A top-level class's field initializers have no owner: kept live.)
            self.facts[file].contexts[ctx]
                .owner
                .as_deref()
                .is_none_or(|o| live.contains(o))
        };
        self.facts[file].contexts[ctx].deprecated && !live()
    }

    /// The classes of deprecated code that a call from code of another class, not
    /// deprecated itself, reaches.
    fn find_live_deprecated(&self) -> rustc_hash::FxHashSet<&'a str> {
        let facts = self.facts;
        let ctx = |n: &Node| &facts[n.0].contexts[n.1];
        let deprecated = |n: &Node| ctx(n).deprecated;
        let mut live = rustc_hash::FxHashSet::default();
        for (callee, edges) in self.model.calls.callers.iter() {
            let Some(owner) = ctx(callee).owner.as_deref() else {
                continue;
            };
            if live.contains(owner) || !deprecated(callee) {
                continue;
            }
            let current = |e: &crate::model::calls::Edge| {
                ctx(&e.node).owner.as_deref() != Some(owner) && !deprecated(&e.node)
            };
            if edges.iter().any(current) {
                live.insert(owner);
            }
        }
        live
    }

    /// Code no entry point is known to reach that is dead or deprecated: as good as
    /// cold (a finding there is a note with `--pedantic`).
    pub fn retired(&self, file: FileId, ctx: CtxId) -> bool {
        self.dead_code(file, ctx) || self.deprecated(file, ctx)
    }

    fn find_dead_code(&self) -> rustc_hash::FxHashSet<Node> {
        let mut dead = rustc_hash::FxHashSet::default();
        if !self.model.heats.serves() {
            return dead;
        }
        let referenced: rustc_hash::FxHashSet<&str> = self
            .facts
            .iter()
            .flat_map(|f| f.method_refs.iter().map(|m| &**m))
            .collect();
        let calls = &self.model.calls;
        let called = |n: &Node| calls.called(*n);
        // Classes the project's other classes call: a method of a class nothing else
        // calls may be there for the code that depends on the project (a framework's
        // utility).
        let owner = |n: &Node| self.facts[n.0].contexts[n.1].owner.as_deref();
        let mut used: rustc_hash::FxHashSet<&str> = rustc_hash::FxHashSet::default();
        for (callee, edges) in calls.callers.iter() {
            if let Some(o) = owner(callee) {
                if edges.iter().any(|e| owner(&e.node) != Some(o)) {
                    used.insert(o);
                }
            }
        }
        // (In an application, any class: nothing outside the project calls its code.)
        let application = self.facts.iter().any(|f| f.application);
        let internal = |o: &str| application || used.contains(o);
        // A Java static method of such a class that no method reference names, or a
        // Rust function its author marks `#[allow(dead_code)]`.
        let candidate = |n: Node| {
            let c = &self.facts[n.0].contexts[n.1];
            c.allows_dead
                || c.is_static
                    && c.entry.is_none()
                    && c.owner.as_deref().is_some_and(internal)
                    && !referenced.contains(c.name.rsplit('.').next().unwrap_or(&c.name))
        };
        // A Java instance method no call of the project names (not even one the call
        // graph could not type): an override of a project interface's method nobody
        // calls, a helper left behind. Only in a class whose every supertype is the
        // project's (a library's would call it: a listener, a `Runnable`), with no
        // annotation a framework could call it by.
        let types = &self.model.types;
        let closed = |owner: &str| {
            types.id(owner).is_some_and(|id| {
                types
                    .ancestry(id)
                    .iter()
                    .all(|&t| types.decl(self.facts, t).supers.len() == types.supers[t].len())
            })
        };
        let sites = crate::model::naming::CallSites::new(self.facts, types);
        let instance_method = |n: Node| {
            let c = &self.facts[n.0].contexts[n.1];
            self.files[n.0].language == crate::source::Language::Java
                && c.kind == CtxKind::Function
                && !c.is_static
                && !c.annotated
                && c.entry.is_none()
                // (Not a constructor or field initializer: `new` runs them, and so does
                // dependency injection.)
                && c.name != "<init>"
                && c.owner.as_deref().and_then(|o| o.rsplit(['.', '$']).next()) != Some(&c.name)
                && !referenced.contains(c.name.as_str())
                && c.owner.as_deref().is_some_and(|o| internal(o) && closed(o))
        };
        // Every call naming it is made in dead code (none at all, at first). (Only
        // asked of methods of classes whose every supertype is the project's: a call on
        // a library type reaches none of them.)
        let mut work: Vec<Node> = Vec::new();
        for (f, facts) in self.facts.iter().enumerate() {
            for c in 0..facts.contexts.len() {
                let n = (f, c);
                let unnamed = || instance_method(n) && sites.named_only_in(n, &dead);
                if (candidate(n) || unnamed()) && !called(&n) {
                    dead.insert(n);
                    work.push(n);
                }
            }
        }
        // Then what only dead code calls (`sendPost(url, param)` -> its overload).
        while let Some(n) = work.pop() {
            for e in calls.callees.get(&n).into_iter().flatten() {
                let m = e.node;
                let eligible =
                    candidate(m) || (instance_method(m) && sites.named_only_in(m, &dead));
                if dead.contains(&m) || !eligible {
                    continue;
                }
                let only_dead = calls
                    .callers
                    .get(&m)
                    .is_some_and(|es| es.iter().all(|x| dead.contains(&x.node)));
                if only_dead {
                    dead.insert(m);
                    work.push(m);
                }
            }
        }
        dead
    }

    /// Every submission: pool calls whose pool is known, calls of `@Async` methods,
    /// and calls of wrappers and pool classes the model found.
    pub fn submissions(&self) -> &[Sub] {
        self.subs.get_or_init(|| self.collect_submissions())
    }

    fn collect_submissions(&self) -> Vec<Sub> {
        let mut out = Vec::new();
        // A wrapper's own submission is reported at the calls of the wrapper.
        let wrapped: rustc_hash::FxHashSet<(FileId, usize)> = self
            .model
            .calls
            .wrapped
            .iter()
            .filter_map(|w| w.inner)
            .collect();
        let instances = InstancePools::new(self.facts);
        for (file, _, f) in self.each() {
            for (i, s) in f.submissions.iter().enumerate() {
                // `broker.storeRunner().execute(..)` on a wrapper instance made with one
                // pool (`storeRunner = new TaskRunner(pool)`): a submission to that pool.
                let defined = self.pool(&s.pool).is_some();
                let held = (!defined)
                    .then(|| instances.held_pool(self, &s.pool))
                    .flatten();
                let pool = held.unwrap_or(&s.pool);
                // A static pool named in another module counts once its definition is found.
                let unproven = !s.confirmed || s.pool.starts_with("static:");
                if unproven && !defined && held.is_none() {
                    continue;
                }
                if wrapped.contains(&(file, i)) {
                    continue;
                }
                out.push(Sub {
                    file,
                    span: s.span,
                    what: s.what.clone(),
                    pool: pool.to_string(),
                    pool_name: match held.and_then(|p| self.pool(p)) {
                        Some((_, def)) => def.name.clone(),
                        None => s.pool_name.clone(),
                    },
                    ctx: s.ctx,
                    waited: s.waited.map(|w| f.waits[w].span).or(s.waited_at),
                    wrapper_wait_timed: None,
                    index: Some(i),
                    via_async: None,
                    install: s.install,
                    via_wrapper: None,
                    guarded: s.guarded,
                    detached: s.detached,
                });
            }
            for (ci, c) in f.calls.iter().enumerate() {
                let Some(t) = &c.receiver_type else { continue };
                let Some(&(mf, mi)) = self
                    .async_methods
                    .get(&(t.to_string(), c.method.to_string()))
                else {
                    continue;
                };
                let m = &self.facts[mf].async_methods[mi];
                let bean = m
                    .executor
                    .clone()
                    .unwrap_or_else(|| self.default_async_bean.clone());
                out.push(Sub {
                    file,
                    span: c.span,
                    what: format!("{}.{}(..)", m.class, m.method),
                    pool: format!("bean:{bean}"),
                    pool_name: crate::facts::bean_display(&bean).to_string(),
                    ctx: c.ctx,
                    waited: c.waited().or_else(|| later_wait(f, ci)),
                    wrapper_wait_timed: None,
                    index: None,
                    via_async: Some((mf, m.clone())),
                    install: false,
                    via_wrapper: None,
                    guarded: false,
                    detached: false,
                });
            }
        }
        for w in &self.model.calls.wrapped {
            let (file, ci) = w.call;
            let call = &self.facts[file].calls[ci];
            let inner = w.inner.map(|(f, s)| (f, &self.facts[f].submissions[s]));
            // `runner.execute(task)` on a wrapper instance whose constructor was given
            // its own pool (the wrapper's field answers to several): that pool.
            let instance = instances.pool_of(self, file, ci, &w.pool);
            let w_pool = instance.unwrap_or(&w.pool);
            // A pool the project defines, or a pool the wrapper knows by type; a pool
            // class needs no label of its own (its policy is labelled in `super(..)`).
            let pool_name = match (self.pool(w_pool), inner) {
                (Some((_, def)), _) => qualified_name(w_pool, &def.name),
                (None, Some((_, s))) if s.confirmed => s.pool_name.clone(),
                _ => continue,
            };
            out.push(Sub {
                file,
                span: call.span,
                what: format!("{}(..)", call.method),
                pool: w_pool.to_string(),
                pool_name,
                ctx: call.ctx,
                waited: call.waited().or_else(|| later_wait(&self.facts[file], ci)),
                wrapper_wait_timed: call.waited().map(|_| call.waited_timed()),
                index: None,
                via_async: None,
                install: false,
                via_wrapper: inner.map(|(f, s)| (f, s.span)),
                guarded: inner.is_some_and(|(_, s)| s.guarded),
                // `TaskExecutor.submit(task);` where the wrapper's own submission drops
                // its handle too, or returns it to this call, which drops it.
                detached: call.detached && inner.is_some_and(|(_, s)| s.detached || s.returned),
            });
        }
        out
    }

    /// Where the code of `ctx` runs: the enclosing task, event-loop or async
    /// contexts, directly or through calls the model resolves (up to [`CALL_DEPTH`],
    /// each context once).
    pub fn executions(&self, file: FileId, ctx: CtxId) -> Vec<Execution> {
        let mut out = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        self.collect_executions((file, ctx), Vec::new(), &mut seen, &mut out);
        out
    }

    fn collect_executions(
        &self,
        (file, ctx): Node,
        via: Vec<(FileId, Span)>,
        seen: &mut rustc_hash::FxHashSet<Node>,
        out: &mut Vec<Execution>,
    ) {
        let contexts = &self.facts[file].contexts;
        let mut cur = ctx;
        while contexts.get(cur).is_some_and(|c| c.kind == CtxKind::Inline) {
            // A lambda handed to a wrapper that submits it: a task of the wrapper's pool.
            if let Some(w) = self.model.calls.wrapped_tasks.get(&(file, cur)) {
                out.push(Execution {
                    file,
                    ctx: cur,
                    kind: CtxKind::PoolTask(w.pool.clone()),
                    submission: None,
                    via,
                });
                return;
            }
            // A closure a wrapper runs in a blocking section: off the runtime, on the
            // calling thread (which the section took from the runtime).
            if self.model.calls.sections.contains(&(file, cur)) {
                out.push(Execution {
                    file,
                    ctx: cur,
                    kind: CtxKind::Thread,
                    submission: None,
                    via,
                });
                return;
            }
            match contexts[cur].parent {
                Some(p) => cur = p,
                None => return,
            }
        }
        let Some(c) = contexts.get(cur) else {
            return;
        };
        if c.kind != CtxKind::Function {
            out.push(Execution {
                file,
                ctx: cur,
                kind: c.kind.clone(),
                submission: c.submission,
                via,
            });
            return;
        }
        if via.len() >= CALL_DEPTH || !seen.insert((file, cur)) {
            return;
        }
        let graph = &self.model.calls;
        for &(sf, s) in graph.tasks.get(&(file, cur)).into_iter().flatten() {
            let sub = &self.facts[sf].submissions[s];
            out.push(Execution {
                file,
                ctx: cur,
                kind: CtxKind::PoolTask(sub.pool.clone()),
                submission: (sf == file).then_some(s),
                via: via.clone(),
            });
        }
        for e in graph.callers.get(&(file, cur)).into_iter().flatten() {
            let mut v = vec![(e.node.0, e.span)];
            v.extend(via.iter().copied());
            self.collect_executions(e.node, v, seen, out);
        }
    }

    /// Whether an async runtime's worker may poll the async code of `ctx` (an `async`
    /// block, a task, or an `async fn` some caller on the runtime awaits, or that no
    /// project code calls). An `async fn` awaited only from code a `block_on` drives
    /// on a thread of its own (`spawn_blocking(move || rt.block_on(async { f().await }))`)
    /// runs on that thread.
    pub fn polled_on_runtime(&self, file: FileId, ctx: CtxId) -> bool {
        let mut seen = rustc_hash::FxHashSet::default();
        self.polled_from((file, ctx), 0, &mut seen)
    }

    fn polled_from(
        &self,
        node: Node,
        depth: usize,
        seen: &mut rustc_hash::FxHashSet<Node>,
    ) -> bool {
        let c = &self.facts[node.0].contexts[node.1];
        if c.kind != CtxKind::Async || matches!(c.name.as_str(), "async block" | "task") {
            return c.kind == CtxKind::Async;
        }
        if depth >= CALL_DEPTH {
            return true;
        }
        if !seen.insert(node) {
            return false;
        }
        let callers = self.model.calls.callers.get(&node);
        let Some(callers) = callers.filter(|c| !c.is_empty()) else {
            return true;
        };
        callers.iter().any(|e| {
            self.executions(e.node.0, e.node.1).iter().any(|x| {
                x.kind == CtxKind::Async && self.polled_from((x.file, x.ctx), depth + 1, seen)
            })
        })
    }

    /// Whether every call of the method that holds `ctx` is made from an open-ended
    /// loop (a consumer API such as `Item next() { return queue.take(); }`).
    pub fn called_only_from_loops(&self, file: FileId, ctx: CtxId) -> bool {
        let contexts = &self.facts[file].contexts;
        let mut cur = ctx;
        while contexts.get(cur).is_some_and(|c| c.kind == CtxKind::Inline) {
            match contexts[cur].parent {
                Some(p) => cur = p,
                None => break,
            }
        }
        let callers = self.model.calls.callers.get(&(file, cur));
        callers.is_some_and(|e| !e.is_empty() && e.iter().all(|e| e.in_loop))
    }

    /// Whether code runs hot, cold or unknown, through its nearest named or task context.
    pub fn heat(&self, file: FileId, ctx: CtxId) -> Heat {
        self.model.heats.heat((file, ctx))
    }

    /// Whether hot code is reached from a request, message or event entry point, not
    /// only from pool tasks or schedules: what it puts in a queue grows with load.
    /// Code that only a lazy initialization reaches runs once, so it does not.
    pub fn per_request(&self, file: FileId, ctx: CtxId) -> bool {
        let heats = &self.model.heats;
        heats.per_request((file, ctx)) && !heats.first_use((file, ctx))
    }

    /// Whether hot code is hot only as part of a scheduled job's run: no request
    /// reaches it, and the entry its path starts from is a job (`Entry::job`).
    pub fn job_run(&self, file: FileId, ctx: CtxId) -> bool {
        let heats = &self.model.heats;
        if heats.heat((file, ctx)) != Heat::Hot || heats.per_request((file, ctx)) {
            return false;
        }
        let root = heats.path((file, ctx))[0].node;
        self.facts[root.0]
            .contexts
            .get(root.1)
            .and_then(|c| c.entry.as_ref())
            .is_some_and(|e| e.job || (e.sized_job && self.model.scheduler_sized))
    }

    /// The heat of code as a wait there matters: hot code that only a lazy
    /// initialization reaches (`Heats::first_use`) runs once, so it counts as unknown.
    pub fn steady_heat(&self, file: FileId, ctx: CtxId) -> Heat {
        match self.heat(file, ctx) {
            Heat::Hot if self.model.heats.first_use((file, ctx)) => Heat::Unknown,
            heat => heat,
        }
    }

    /// Whether cold code is cold only because a dedicated thread's loop runs it.
    pub fn looped(&self, file: FileId, ctx: CtxId) -> bool {
        self.model.heats.looped((file, ctx))
    }

    /// `Owner.method` of a context (lambdas and task bodies: of the method they are in).
    pub fn display_name(&self, file: FileId, ctx: CtxId) -> String {
        let contexts = &self.facts[file].contexts;
        let java = self.files[file].language == crate::source::Language::Java;
        let mut cur = ctx;
        while let Some(c) = contexts.get(cur) {
            if c.name != "lambda" && c.name != "task" {
                let owner = c.owner.as_deref().unwrap_or("");
                let owner = owner.rsplit(['.', ':']).next().unwrap_or(owner);
                return match (owner, c.name.as_str()) {
                    ("", name) => name.to_string(),
                    (owner, "<init>") => owner.to_string(),
                    // A Java constructor (named as its class).
                    (owner, name) if owner == name && java => {
                        format!("new {owner}(..)")
                    }
                    (owner, name) => format!("{owner}.{name}"),
                };
            }
            match c.parent {
                Some(p) => cur = p,
                None => break,
            }
        }
        "a task body".into()
    }

    /// The execution context of code: its heat and, for hot code, the path from
    /// the entry point (entry first, then each call); and the root it comes from.
    pub fn exec_context(&self, file: FileId, ctx: CtxId) -> (ExecContext, Node) {
        let heats = &self.model.heats;
        let heat = heats.heat((file, ctx));
        let mut path = heats.path((file, ctx));
        if heat == Heat::Cold && heats.root_why(path[0].node).is_none() {
            path = self.cold_path((file, ctx)).unwrap_or(path);
        }
        let root = path[0].node;
        let mut via = Vec::new();
        if heat != Heat::Unknown {
            let mut prev: Option<Node> = None;
            for step in &path {
                let (f, c) = step.node;
                let name = self.display_name(f, c);
                match (prev, step.call) {
                    (None, _) => {
                        // Cold with no cold root within reach: no entry point.
                        let what = match heats.root_why(step.node) {
                            Some(why) => root_named(why, &name),
                            None if heat == Heat::Cold => {
                                format!("`{name}`, whose every caller is cold")
                            }
                            None => root_named("entry point", &name),
                        };
                        let head = self.facts[f].contexts[c].head;
                        via.push(ViaStep {
                            file: f,
                            span: head,
                            what,
                        });
                    }
                    (Some((pf, _)), Some(call)) => {
                        // An aspect's advice, reached at the annotation that selects it.
                        let marks = &self.facts[pf].method_marks;
                        let advised = marks.iter().any(|(_, _, s)| *s == call);
                        let verb = if advised { "is advised by" } else { "calls" };
                        via.push(ViaStep {
                            file: pf,
                            span: call,
                            what: format!("{verb} `{name}`"),
                        })
                    }
                    (Some(_), None) => {}
                }
                prev = Some(step.node);
            }
        }
        (ExecContext { heat, via }, root)
    }
}

impl<'a> Project<'a> {
    /// Rust: for each project function the call at `call` in `node` resolves to, what it
    /// keeps its parameter `param` in ([`crate::facts::Keeper`]): a client it bounds or
    /// a channel sender whose field names the channel's sends.
    pub fn keepers_at(
        &self,
        node: Node,
        call: Span,
        param: u8,
    ) -> impl Iterator<Item = Vec<&crate::facts::Keeper>> + use<'_, 'a> {
        self.model.calls.callees.at(&node, call).map(move |e| {
            let (f, c) = e.node;
            self.facts[f]
                .keepers
                .iter()
                .filter(|k| k.ctx == c && k.param == param)
                .collect()
        })
    }

    /// Cold code that is no root itself: a path from a cold root through cold callers
    /// (the first caller of each, in file order), so a note says where it runs
    /// (`main`, a shutdown hook) rather than calling it an entry point.
    fn cold_path(&self, n: crate::model::Node) -> Option<Vec<crate::model::heat::Step>> {
        /// How many calls up the chain a cold root is looked for.
        const DEPTH: usize = 8;
        let heats = &self.model.heats;
        let mut chain: Vec<(crate::model::Node, Option<Span>)> = vec![(n, None)];
        let mut cur = n;
        while heats.root_why(cur).is_none() {
            if chain.len() > DEPTH {
                return None;
            }
            let seen = |x: &crate::model::Node| chain.iter().any(|(c, _)| c == x);
            let next = self
                .model
                .calls
                .callers
                .get(&cur)
                .into_iter()
                .flatten()
                .filter(|e| heats.heat(e.node) == Heat::Cold && !seen(&e.node))
                .min_by_key(|e| (e.node, e.span.start))?;
            chain.push((next.node, Some(next.span)));
            cur = next.node;
        }
        let steps = (0..chain.len()).rev().map(|i| crate::model::heat::Step {
            node: chain[i].0,
            call: chain.get(i + 1).and_then(|c| c.1),
        });
        Some(steps.collect())
    }
}

/// An entry point by why it is one and its name (`route handler `list``); a why that
/// names it already (`` `main` ``) stands alone.
pub fn root_named(why: &str, name: &str) -> String {
    if why.starts_with('`') && why.ends_with('`') && !why.contains(' ') {
        why.to_string()
    } else {
        format!("{why} `{name}`")
    }
}

/// A pool named from another class's code: `AlarmExecutor.pool`, not just `pool`.
fn qualified_name(key: &str, name: &str) -> String {
    let Some(path) = key.strip_prefix("field:") else {
        return name.to_string();
    };
    let mut parts = path.rsplitn(3, '.');
    match (parts.next(), parts.next()) {
        (Some(field), Some(class)) => format!("{class}.{field}"),
        _ => name.to_string(),
    }
}

/// Every `pool_aliases` pair of the run, read once, and the views linking needs.
struct AliasIndex<'f> {
    /// (alias, target) in file order.
    all: Vec<(&'f str, &'f str)>,
    /// Constructor and method parameters fields are assigned from (`param:..`).
    params: std::collections::HashSet<&'f str>,
    /// Getter keys (`getter:..`) and the fields that answer to each.
    getters: HashMap<&'f str, std::collections::BTreeSet<&'f str>>,
    /// Alias keys that are fields (`field:Class.name`).
    fields: Vec<&'f str>,
}

impl<'f> AliasIndex<'f> {
    fn new(facts: &'f [FileFacts]) -> AliasIndex<'f> {
        let mut ix = AliasIndex {
            all: Vec::new(),
            params: Default::default(),
            getters: HashMap::new(),
            fields: Vec::new(),
        };
        for (a, b) in facts.iter().flat_map(|f| &f.pool_aliases) {
            let (a, b) = (a.as_str(), b.as_str());
            ix.all.push((a, b));
            if b.starts_with("param:") {
                ix.params.insert(b);
            }
            if b.starts_with("getter:") {
                ix.getters.entry(b).or_default().insert(a);
            }
            if a.starts_with("field:") {
                ix.fields.push(a);
            }
        }
        ix
    }
}

/// `@Bean(Pools.AUDIT)` and `@Async("auditPool")` name one bean when the constant's
/// value is `"auditPool"`: each `bean:const:<class>.<NAME>` key joins `bean:<value>`.
/// A constant of a class the file could not resolve is looked up by `Class.NAME`
/// when that names one constant in the project.
fn bean_constants(facts: &[FileFacts], uf: &mut UnionFind) {
    const PREFIX: &str = "bean:const:";
    let mut keys: Vec<String> = Vec::new();
    for f in facts {
        let pools = f
            .pools
            .iter()
            .flat_map(|p| std::iter::once(&p.key).chain(&p.aliases));
        let aliased = f.pool_aliases.iter().flat_map(|(a, b)| [a, b]);
        keys.extend(
            pools
                .chain(aliased)
                .filter(|k| k.starts_with(PREFIX))
                .cloned(),
        );
        let executors = f.async_methods.iter().filter_map(|m| m.executor.as_deref());
        keys.extend(
            executors
                .filter(|e| e.starts_with("const:"))
                .map(|e| format!("bean:{e}")),
        );
    }
    if keys.is_empty() {
        return;
    }
    let mut values: HashMap<&str, &str> = HashMap::new();
    let mut by_tail: HashMap<&str, Option<&str>> = HashMap::new();
    for (k, v) in facts.iter().flat_map(|f| &f.string_constants) {
        values.insert(k, v);
        let tail = crate::facts::class_and_name(k);
        by_tail
            .entry(tail)
            .and_modify(|e| {
                if *e != Some(&**v) {
                    *e = None;
                }
            })
            .or_insert(Some(v));
    }
    for key in keys {
        let constant = &key[PREFIX.len()..];
        let value = values.get(constant).copied().or_else(|| {
            by_tail
                .get(crate::facts::class_and_name(constant))
                .copied()
                .flatten()
        });
        uf.add(&key);
        if let Some(v) = value {
            uf.union(&key, &format!("bean:{v}"));
        }
    }
}

/// A subclass naming a field it inherits (`executor.submit(..)` in a class whose
/// superclass, maybe in another file, declares `executor`): both keys name one pool.
fn inherited_fields(facts: &[FileFacts], fields: &[&str], model: &Model, uf: &mut UnionFind) {
    let keys = facts
        .iter()
        .flat_map(|f| f.pools.iter().map(|p| p.key.as_str()))
        .chain(fields.iter().copied());
    union_inherited(keys, "field:", |n| n.to_string(), model, uf);
}

/// A getter a class inherits (`agent.getExecutor()` where `Agent extends Base` and
/// `Base.getExecutor()` returns its pool field, maybe in another file): both getter
/// keys name one pool. Getter keys use simple class names.
fn inherited_getters(
    getters: &HashMap<&str, std::collections::BTreeSet<&str>>,
    model: &Model,
    uf: &mut UnionFind,
) {
    let simple = |n: &str| n.rsplit(['.', '$']).next().unwrap_or(n).to_string();
    union_inherited(getters.keys().copied(), "getter:", simple, model, uf);
}

/// For keys `<prefix><class>.<member>`: a class that inherits a member one of its
/// ancestors has a key for (and has none of its own) names the ancestor's. `name`
/// turns a type's fully-qualified name into the form the keys use.
fn union_inherited<'k>(
    keys: impl Iterator<Item = &'k str>,
    prefix: &str,
    name: impl Fn(&str) -> String,
    model: &Model,
    uf: &mut UnionFind,
) {
    let mut by_class: HashMap<&str, Vec<&str>> = HashMap::new();
    for k in keys {
        if let Some((class, member)) = k.strip_prefix(prefix).and_then(|r| r.rsplit_once('.')) {
            by_class.entry(class).or_default().push(member);
        }
    }
    if by_class.is_empty() {
        return;
    }
    let types = &model.types;
    for t in 0..types.names.len() {
        let me = name(&types.names[t]);
        let own = by_class.get(me.as_str());
        for a in types.ancestry(t).into_iter().skip(1) {
            let ancestor = name(&types.names[a]);
            for m in by_class.get(ancestor.as_str()).into_iter().flatten() {
                if own.is_some_and(|o| o.contains(m)) {
                    continue;
                }
                uf.union(
                    &format!("{prefix}{me}.{m}"),
                    &format!("{prefix}{ancestor}.{m}"),
                );
            }
        }
    }
}

/// The pools the project's calls pass to each parameter a field is assigned from
/// (`param:<class>.<m>#<i>`, `new Worker(ioPool)`). The field holds that pool when every
/// call passes the same one; callers that disagree leave it unresolved.
fn parameter_pools<'f>(
    facts: &'f [FileFacts],
    model: &Model,
    params: &std::collections::HashSet<&str>,
) -> BTreeMap<String, std::collections::BTreeSet<&'f str>> {
    let mut passed: BTreeMap<String, std::collections::BTreeSet<&str>> = BTreeMap::new();
    if params.is_empty() {
        return passed;
    }
    let types = &model.types;
    for a in facts.iter().flat_map(|f| &f.pool_args) {
        let Some(t) = types.resolve(&a.target) else {
            continue;
        };
        // The constructor is the class's own; a method may be inherited.
        let classes = if &*a.method == "<init>" {
            vec![t]
        } else {
            types.ancestry(t)
        };
        let key = classes
            .into_iter()
            .map(|c| format!("param:{}.{}#{}", types.names[c], a.method, a.index))
            .find(|k| params.contains(k.as_str()));
        if let Some(key) = key {
            passed.entry(key).or_default().insert(a.pool.as_str());
        }
    }
    passed
}

/// The pools that calls of project factory methods make (`pool = Pools.newPool(..,
/// new CallerRunsPolicy())`): each has the factory's bound and its policy, or the
/// caller-runs handler the call passes where the factory installs a parameter.
type FactoryUsers = HashMap<(FileId, String, usize), Vec<PoolKey>>;

fn factory_pools<'a>(facts: &'a [FileFacts], model: &Model) -> (Vec<(FileId, Pool)>, FactoryUsers) {
    let mut factories: HashMap<(&str, usize), (FileId, &crate::facts::PoolFactory)> = facts
        .iter()
        .enumerate()
        .flat_map(|(i, f)| f.pool_factories.iter().map(move |p| (i, p)))
        .map(|(i, p)| ((p.method.as_str(), p.arity), (i, p)))
        .collect();
    let mut out = Vec::new();
    let mut users = FactoryUsers::default();
    if factories.is_empty() {
        return (out, users);
    }
    let types = &model.types;
    let find = |factories: &HashMap<(&str, usize), (FileId, &'a crate::facts::PoolFactory)>,
                u: &crate::facts::FactoryUse| {
        let t = types.resolve(&u.target)?;
        types.ancestry(t).into_iter().find_map(|c| {
            let method = format!("{}.{}", types.names[c], u.method);
            factories.get(&(method.as_str(), u.arity)).copied()
        })
    };
    // A factory that returns another factory's pool (`return newPool(n, prefix)`) makes
    // that pool: chains of them resolve to the factory that creates it.
    let mut delegates: Vec<(&str, usize, &crate::facts::FactoryUse)> = facts
        .iter()
        .flat_map(|f| &f.factory_uses)
        .filter_map(|u| {
            let (method, arity) = u
                .key
                .strip_prefix(crate::facts::DELEGATE)?
                .rsplit_once('/')?;
            Some((method, arity.parse().ok()?, u))
        })
        .collect();
    while !delegates.is_empty() {
        let before = delegates.len();
        delegates.retain(|&(method, arity, u)| match find(&factories, u) {
            Some(root) => {
                factories.entry((method, arity)).or_insert(root);
                false
            }
            None => true,
        });
        if delegates.len() == before {
            break;
        }
    }
    for (file, f) in facts.iter().enumerate() {
        for u in &f.factory_uses {
            let Some((factory_file, factory)) = find(&factories, u) else {
                continue;
            };
            // A delegating factory's own call counts as a use of the pool whose
            // producers are unknown there, so its factory is never judged quiet.
            users
                .entry((factory_file, factory.method.clone(), factory.arity))
                .or_default()
                .push(u.key.clone());
            if u.key.starts_with(crate::facts::DELEGATE) {
                continue;
            }
            let passed = factory
                .policy_param
                .and_then(|i| u.caller_runs_args.iter().find(|(a, _)| *a == i))
                .map(|(_, s)| *s);
            let caller_runs = passed.or(factory.caller_runs.then_some(u.span));
            out.push((
                file,
                Pool {
                    key: u.key.clone(),
                    aliases: Vec::new(),
                    name: u.name.clone(),
                    span: u.span,
                    caller_runs,
                    handler: None,
                    bounded: factory.bounded,
                    elastic: false,
                    scoped: false,
                    per_call: false,
                    single: false,
                },
            ));
        }
    }
    (out, users)
}

/// Pools given to wrapper instances: a wrapper class's field assigned from a
/// constructor parameter holds, in each instance, the pool that instance's
/// constructor call passed (`storeRunner = new TaskRunner(storePool)`), even when
/// several instances disagree.
struct InstancePools<'f> {
    /// A field and the constructor parameter (class, index) it is assigned from.
    params: HashMap<&'f str, Vec<(&'f str, usize)>>,
    /// A holder field and the pools passed to the constructor of the object stored in it.
    passed: HashMap<&'f str, Vec<&'f crate::facts::PoolArg>>,
    /// Getter key -> the fields it returns.
    getters: HashMap<&'f str, Vec<&'f str>>,
}

impl<'f> InstancePools<'f> {
    fn new(facts: &'f [FileFacts]) -> Self {
        let mut ix = InstancePools {
            params: HashMap::new(),
            passed: HashMap::new(),
            getters: HashMap::new(),
        };
        for f in facts {
            for a in f.pool_args.iter().filter(|a| &*a.method == "<init>") {
                if let Some(h) = &a.holder {
                    ix.passed.entry(&**h).or_default().push(a);
                }
            }
            for (g, field) in &f.getter_fields {
                ix.getters.entry(&**g).or_default().push(&**field);
            }
        }
        if ix.passed.is_empty() {
            return ix;
        }
        for f in facts {
            for (field, p) in &f.pool_aliases {
                let Some(rest) = p.strip_prefix("param:") else {
                    continue;
                };
                let Some((class, index)) = rest.rsplit_once(".<init>#") else {
                    continue;
                };
                if let Ok(i) = index.parse() {
                    ix.params
                        .entry(field.as_str())
                        .or_default()
                        .push((class, i));
                }
            }
        }
        ix
    }

    /// The pools given to the constructors of the objects a holder (a field, or a
    /// getter returning fields) stores.
    fn passed_to<'a>(
        &'a self,
        holder: &'a str,
    ) -> impl Iterator<Item = &'f crate::facts::PoolArg> + 'a {
        let fields: Vec<&str> = match self.getters.get(holder) {
            Some(fs) => fs.clone(),
            None => vec![holder],
        };
        fields
            .into_iter()
            .filter_map(|h| self.passed.get(h))
            .flatten()
            .copied()
    }

    /// The one pool given to the constructor of the object a holder stores, when that
    /// pool is defined.
    fn held_pool(&self, project: &Project<'f>, holder: &str) -> Option<&'f str> {
        if self.passed.is_empty()
            || !(holder.starts_with("getter:") || holder.starts_with("field:"))
        {
            return None;
        }
        one_pool(self.passed_to(holder)).filter(|p| project.pool(p).is_some())
    }

    /// The pool of the instance a wrapper call is made on, when the wrapper submits to
    /// `pool` (its field, assigned from a constructor parameter) and the instance's
    /// holder got exactly one pool for that parameter.
    fn pool_of(
        &self,
        project: &Project<'f>,
        file: FileId,
        ci: usize,
        pool: &str,
    ) -> Option<&'f str> {
        if self.passed.is_empty() {
            return None;
        }
        let params = self.params.get(pool)?;
        let f = &project.facts[file];
        let at = u32::try_from(ci).ok()?;
        let i = f.call_holders.binary_search_by_key(&at, |(c, _)| *c).ok()?;
        let types = &project.model.types;
        let to_param = |a: &&crate::facts::PoolArg| {
            let class = types.resolve(&a.target).map(|t| types.names[t].as_str());
            params
                .iter()
                .any(|&(c, i)| i == a.index && class == Some(c))
        };
        one_pool(self.passed_to(&f.call_holders[i].1).filter(to_param))
    }
}

/// The pool every argument names, if they all name one.
fn one_pool<'f>(args: impl Iterator<Item = &'f crate::facts::PoolArg>) -> Option<&'f str> {
    let mut found: Option<&'f str> = None;
    for a in args {
        match found {
            Some(p) if p != a.pool.as_str() => return None,
            _ => found = Some(a.pool.as_str()),
        }
    }
    found
}

/// A wait, later in the calling code, on the result of call `ci`.
fn later_wait(f: &FileFacts, ci: usize) -> Option<Span> {
    f.call_waits.iter().find(|(c, _)| *c == ci).map(|(_, s)| *s)
}

/// Pools given a project rejection handler class whose `rejectedExecution` runs the
/// task (`new LoggingCallerRuns()`, declared in another file): caller-runs pools.
fn handler_pools(facts: &[FileFacts], model: &Model) -> Vec<(FileId, Pool)> {
    let classes: std::collections::HashSet<&str> = facts
        .iter()
        .flat_map(|f| f.caller_runs_handlers.iter().map(String::as_str))
        .collect();
    let mut out = Vec::new();
    if classes.is_empty() {
        return out;
    }
    let types = &model.types;
    for (file, f) in facts.iter().enumerate() {
        for p in f.pools.iter().filter(|p| p.caller_runs.is_none()) {
            let Some((class, at)) = &p.handler else {
                continue;
            };
            let Some(t) = types.resolve(class) else {
                continue;
            };
            if types
                .ancestry(t)
                .into_iter()
                .any(|c| classes.contains(types.names[c].as_str()))
            {
                let mut pool = p.clone();
                pool.caller_runs = Some(*at);
                out.push((file, pool));
            }
        }
    }
    out
}

/// Union-find over pool keys, deterministic: the smallest key of a set is its root.
#[derive(Default)]
struct UnionFind {
    parent: BTreeMap<String, String>,
}

impl UnionFind {
    fn add(&mut self, k: &str) {
        self.parent
            .entry(k.to_string())
            .or_insert_with(|| k.to_string());
    }

    fn find(&mut self, k: &str) -> String {
        self.add(k);
        let mut root = k.to_string();
        while self.parent[&root] != root {
            root = self.parent[&root].clone();
        }
        let mut cur = k.to_string();
        while cur != root {
            let next = self.parent[&cur].clone();
            self.parent.insert(cur, root.clone());
            cur = next;
        }
        root
    }

    fn union(&mut self, a: &str, b: &str) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent.insert(hi, lo);
        }
    }

    fn resolve(mut self) -> HashMap<String, String> {
        let keys: Vec<String> = self.parent.keys().cloned().collect();
        keys.into_iter()
            .map(|k| {
                let r = self.find(&k);
                (k, r)
            })
            .collect()
    }
}
