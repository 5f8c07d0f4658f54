//! Cross-file linking: runs once, after the parallel per-file phase, and gives
//! rules one view of the whole scan: which keys name the same pool (fields,
//! qualifiers, bean names), which `@Async` method a call reaches, and where a
//! piece of code runs (a pool task, an event loop, an async task), directly or
//! through same-class calls.

use std::collections::{BTreeMap, HashMap};

use crate::facts::{AsyncMethod, CtxId, CtxKind, FileFacts, Pool, PoolKey};
use crate::source::{FileId, SourceFile, Span};

/// How many same-class calls deep execution contexts are followed.
pub const CALL_DEPTH: usize = 3;

/// (owner class or impl type, method name): how same-class calls are matched.
type MethodKey = (String, String);

/// All files of a run with their facts, indexed by [`FileId`].
pub struct Project<'a> {
    pub files: &'a [SourceFile],
    pub facts: &'a [FileFacts],
    /// Every pool key -> its canonical key.
    canon: HashMap<PoolKey, PoolKey>,
    /// Canonical key -> the pool's definition.
    pools: HashMap<PoolKey, (FileId, usize)>,
    /// (class simple name, method) -> `@Async` method.
    async_methods: HashMap<(String, String), (FileId, usize)>,
    /// Per file: (owner class, method name) -> calls to it with no receiver (same class).
    callers: Vec<HashMap<MethodKey, Vec<(CtxId, Span)>>>,
    /// Per file: (owner class, method name) -> submissions running it by method reference.
    method_tasks: Vec<HashMap<MethodKey, Vec<usize>>>,
    default_async_bean: String,
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
    /// For a submission fact: its index.
    pub index: Option<usize>,
    /// For an `@Async` call: the method it reaches.
    pub via_async: Option<(FileId, AsyncMethod)>,
    /// Rust `install`: the caller blocks while the closure runs on the pool.
    pub install: bool,
}

/// Where a piece of code runs.
#[derive(Debug, Clone)]
pub struct Execution {
    /// The task, event-loop or async context (or the method run as a task).
    pub ctx: CtxId,
    pub kind: CtxKind,
    /// The submission that runs the task, if it is one.
    pub submission: Option<usize>,
    /// Same-class calls that lead from `ctx` to the code, outermost first.
    pub via: Vec<Span>,
}

impl<'a> Project<'a> {
    /// Link the facts of a run. `default_async_bean` is the executor bean an
    /// `@Async` with no value uses.
    pub fn new(
        files: &'a [SourceFile],
        facts: &'a [FileFacts],
        default_async_bean: &str,
    ) -> Project<'a> {
        let mut uf = UnionFind::default();
        for f in facts {
            for p in &f.pools {
                uf.add(&p.key);
                for a in &p.aliases {
                    uf.union(&p.key, a);
                }
            }
            for (a, b) in &f.pool_aliases {
                uf.union(a, b);
            }
        }
        let canon = uf.resolve();
        let mut pools = HashMap::new();
        let mut async_methods = HashMap::new();
        let mut callers = Vec::with_capacity(facts.len());
        let mut method_tasks = Vec::with_capacity(facts.len());
        for (file, f) in facts.iter().enumerate() {
            for (i, p) in f.pools.iter().enumerate() {
                let key = canon.get(&p.key).cloned().unwrap_or_else(|| p.key.clone());
                pools.entry(key).or_insert((file, i));
            }
            for (i, m) in f.async_methods.iter().enumerate() {
                async_methods
                    .entry((m.class.clone(), m.method.clone()))
                    .or_insert((file, i));
            }
            let mut by_method: HashMap<MethodKey, Vec<(CtxId, Span)>> = HashMap::new();
            for c in f.calls.iter().filter(|c| c.receiver_type.is_none()) {
                let owner = match &c.callee_owner {
                    Some(o) => o.clone(),
                    None => f.contexts[c.ctx].owner.clone().unwrap_or_default(),
                };
                by_method
                    .entry((owner, c.method.clone()))
                    .or_default()
                    .push((c.ctx, c.span));
            }
            callers.push(by_method);
            let mut tasks: HashMap<MethodKey, Vec<usize>> = HashMap::new();
            for (i, s) in f.submissions.iter().enumerate() {
                if let Some(m) = &s.task_method {
                    let owner = f.contexts[s.ctx].owner.clone().unwrap_or_default();
                    tasks.entry((owner, m.clone())).or_default().push(i);
                }
            }
            method_tasks.push(tasks);
        }
        let default_async_bean = default_async_bean.to_string();
        Project {
            files,
            facts,
            canon,
            pools,
            async_methods,
            callers,
            method_tasks,
            default_async_bean,
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
    pub fn pool(&self, key: &str) -> Option<(FileId, &'a Pool)> {
        let &(file, i) = self.pools.get(self.canonical(key))?;
        Some((file, &self.facts[file].pools[i]))
    }

    /// Every submission: pool calls whose pool is known, and calls of `@Async` methods.
    pub fn submissions(&self) -> Vec<Sub> {
        let mut out = Vec::new();
        for (file, _, f) in self.each() {
            for (i, s) in f.submissions.iter().enumerate() {
                if !s.confirmed && self.pool(&s.pool).is_none() {
                    continue;
                }
                out.push(Sub {
                    file,
                    span: s.span,
                    what: s.what.clone(),
                    pool: s.pool.clone(),
                    pool_name: s.pool_name.clone(),
                    ctx: s.ctx,
                    waited: s.waited.map(|w| f.waits[w].span),
                    index: Some(i),
                    via_async: None,
                    install: s.install,
                });
            }
            for c in &f.calls {
                let Some(t) = &c.receiver_type else { continue };
                let Some(&(mf, mi)) = self.async_methods.get(&(t.clone(), c.method.clone())) else {
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
                    pool_name: bean,
                    ctx: c.ctx,
                    waited: c.waited,
                    index: None,
                    via_async: Some((mf, m.clone())),
                    install: false,
                });
            }
        }
        out
    }

    /// Where the code of `ctx` runs: the enclosing task, event-loop or async
    /// contexts, directly or through same-class calls (up to [`CALL_DEPTH`]).
    pub fn executions(&self, file: FileId, ctx: CtxId) -> Vec<Execution> {
        let mut out = Vec::new();
        self.collect_executions(file, ctx, Vec::new(), &mut out);
        out
    }

    fn collect_executions(
        &self,
        file: FileId,
        ctx: CtxId,
        via: Vec<Span>,
        out: &mut Vec<Execution>,
    ) {
        let contexts = &self.facts[file].contexts;
        let mut cur = ctx;
        while contexts[cur].kind == CtxKind::Inline {
            match contexts[cur].parent {
                Some(p) => cur = p,
                None => return,
            }
        }
        let c = &contexts[cur];
        if c.kind != CtxKind::Function {
            out.push(Execution {
                ctx: cur,
                kind: c.kind.clone(),
                submission: c.submission,
                via,
            });
            return;
        }
        if via.len() >= CALL_DEPTH {
            return;
        }
        let key = (c.owner.clone().unwrap_or_default(), c.name.clone());
        for &s in self.method_tasks[file].get(&key).into_iter().flatten() {
            let sub = &self.facts[file].submissions[s];
            out.push(Execution {
                ctx: cur,
                kind: CtxKind::PoolTask(sub.pool.clone()),
                submission: Some(s),
                via: via.clone(),
            });
        }
        for &(caller, span) in self.callers[file].get(&key).into_iter().flatten() {
            if caller == cur {
                continue;
            }
            let mut v = vec![span];
            v.extend(via.iter().copied());
            self.collect_executions(file, caller, v, out);
        }
    }
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
