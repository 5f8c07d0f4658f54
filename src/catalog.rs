//! API knowledge as data: `rules/java.toml` and `rules/rust.toml`, embedded at
//! build time and extended from `poolguard.toml` (`[[catalog.java.queues]]` ...).
//!
//! Front ends look calls up here by fully-qualified name; no rule or front end
//! hard-codes which API queues, waits, submits or connects.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use serde::Deserialize;

use crate::source::Language;

const JAVA_TOML: &str = include_str!("../rules/java.toml");
const RUST_TOML: &str = include_str!("../rules/rust.toml");

/// A queue, channel or executor whose creation sets (or fails to set) a bound.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueEntry {
    /// Java: a class created with `new` (fully qualified).
    #[serde(default)]
    pub new: Option<String>,
    /// A function or static factory: `java.util.concurrent.Executors.newFixedThreadPool`,
    /// `std::sync::mpsc::channel`.
    #[serde(default)]
    pub call: Option<String>,
    /// Index of the argument that bounds it; with no such argument it is unbounded.
    #[serde(default)]
    pub capacity_arg: Option<usize>,
    /// A setter that bounds the object after construction (`setQueueCapacity`).
    #[serde(default)]
    pub capacity_setter: Option<String>,
    /// What grows without bound: `queue` (default) or `threads`.
    #[serde(default = "default_grows")]
    pub grows: String,
    /// Why it is unbounded, completing "`<call>` ...".
    #[serde(default = "default_why")]
    pub why: String,
    /// The fix, shown as `help`.
    pub help: String,
}

fn default_why() -> String {
    "has no capacity bound".into()
}

fn default_grows() -> String {
    "queue".into()
}

/// A call that blocks the calling thread.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaitEntry {
    /// Receiver types (`@group`, fully-qualified names, `*` for any).
    #[serde(default)]
    pub on: Vec<String>,
    #[serde(default)]
    pub method: Option<String>,
    /// A free function instead of a method (Rust: `futures::executor::block_on`).
    #[serde(default)]
    pub call: Option<String>,
    /// Argument counts that wait with no time bound.
    #[serde(default)]
    pub args: Vec<usize>,
    /// `result` (default), `synchronizer`, `block_on` (runs a future to completion on this thread).
    #[serde(default = "default_wait_kind")]
    pub kind: String,
    /// Only a wait outside a dedicated consumer loop counts.
    #[serde(default)]
    pub request_path: bool,
    /// Methods or functions where this wait is fine (`main`, shutdown paths).
    #[serde(default)]
    pub exempt_in: Vec<String>,
    /// Blocks only when the queue is bounded (`put`): skipped on a known-unbounded queue.
    #[serde(default)]
    pub bounded_only: bool,
    pub help: String,
}

fn default_wait_kind() -> String {
    "result".into()
}

/// What a call returns, for typing receivers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReturnEntry {
    #[serde(default)]
    pub on: Vec<String>,
    /// Java: a class whose static methods these are.
    #[serde(default)]
    pub r#static: Option<String>,
    /// Rust: free functions (canonical paths).
    #[serde(default)]
    pub call: Vec<String>,
    #[serde(default)]
    pub methods: Vec<String>,
    /// The returned type; `self` keeps the receiver's type (builders).
    #[serde(default)]
    pub r#type: Option<String>,
    /// The result is (or wraps) the receiver's first type argument.
    #[serde(default)]
    pub element: bool,
    /// Rust: the returned tuple's element that has `type` (`(tx, rx)` -> 1).
    #[serde(default)]
    pub tuple_index: Option<usize>,
    /// Java: the element type of the returned collection (`invokeAll` -> `Future`).
    #[serde(default)]
    pub element_type: Option<String>,
    /// The result is already complete (`invokeAll`'s futures are all done).
    #[serde(default)]
    pub complete: bool,
}

/// A call that hands a task to a pool or thread.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitEntry {
    #[serde(default)]
    pub on: Vec<String>,
    #[serde(default)]
    pub r#static: Option<String>,
    #[serde(default)]
    pub call: Vec<String>,
    #[serde(default)]
    pub methods: Vec<String>,
    /// Java: the executor is the last argument when there are more than this many.
    #[serde(default)]
    pub executor_after: Option<usize>,
    /// Rust: the pool every call of this entry submits to (`rayon-global`, `tokio-blocking`).
    #[serde(default)]
    pub pool: Option<String>,
    /// Rust: how messages name that pool.
    #[serde(default)]
    pub pool_name: Option<String>,
    /// Rust: where the task runs: `pool` (default), `install` (on the pool while the
    /// caller waits), `async` (a runtime task), `thread` (a dedicated thread), `scope`
    /// (inline; what it spawns is joined by the scope).
    #[serde(default = "default_runs")]
    pub runs: String,
    /// Rust: the type of the closure's first parameter (`rayon::scope(|s| ..)`).
    #[serde(default)]
    pub param_type: Option<String>,
}

fn default_runs() -> String {
    "pool".into()
}

/// Creating a thread pool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolEntry {
    #[serde(default)]
    pub new: Option<String>,
    #[serde(default)]
    pub call: Option<String>,
    #[serde(default)]
    pub queue_arg: Option<usize>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FutureRules {
    #[serde(default)]
    pub bounding: Vec<String>,
    #[serde(default)]
    pub continuations: Vec<String>,
    #[serde(default)]
    pub all_of: Vec<String>,
    #[serde(default)]
    pub done_checks: Vec<String>,
    /// A method with one of these names implements a blocking API: the waits in
    /// it are its own implementation (`get()` delegating to `inner.get()`).
    #[serde(default)]
    pub blocking_apis: Vec<String>,
    /// Words (lowercase) naming a timeout value in a condition.
    #[serde(default)]
    pub timeout_words: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policies {
    #[serde(default)]
    pub caller_runs: Vec<String>,
    #[serde(default)]
    pub setters: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventLoopEntry {
    pub framework: String,
    /// Handler types: their `methods` run on the event loop.
    pub types: Vec<String>,
    pub methods: Vec<String>,
    /// Methods that register a lambda to run on the event loop (`router.get(..).handler(ctx -> ..)`)...
    #[serde(default)]
    pub registrars: Vec<String>,
    /// ... when called on a chain rooted at a value of one of these types.
    #[serde(default)]
    pub registrar_types: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reactive {
    /// Operators that move the whole chain's work off the event loop (`subscribeOn`).
    #[serde(default)]
    pub off_loop: Vec<String>,
    /// Operators that move the operators after them off the event loop (`publishOn`).
    #[serde(default)]
    pub off_loop_after: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spring {
    #[serde(default)]
    pub bean: String,
    #[serde(default)]
    pub r#async: String,
    #[serde(default)]
    pub qualifiers: Vec<String>,
    #[serde(default)]
    pub default_async_bean: String,
}

/// Rust: awaiting these types blocks the task until another task finishes.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Awaits {
    #[serde(default)]
    pub types: Vec<String>,
    /// Wrappers that bound an await: `tokio::time::timeout(d, fut)`.
    #[serde(default)]
    pub timeout_calls: Vec<String>,
    /// Methods that bound an await: `fut.timeout(d)`.
    #[serde(default)]
    pub timeout_methods: Vec<String>,
    /// Words (lowercase) naming a signal rather than a result (`shutdown_rx.await`).
    #[serde(default)]
    pub signal_words: Vec<String>,
    pub help: Option<String>,
}

/// Rust: wrappers that are transparent for typing (`Arc<T>`, `x.lock().unwrap()`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transparent {
    #[serde(default)]
    pub types: Vec<String>,
    #[serde(default)]
    pub methods: Vec<String>,
}

/// A network client: where it is created and what bounds it (`missing_client_timeout`).
/// The schema is documented in `rules/java.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientEntry {
    pub id: String,
    pub name: String,
    pub starts: Vec<String>,
    #[serde(default)]
    pub needs: Vec<String>,
    #[serde(default)]
    pub fixed: bool,
    #[serde(default)]
    pub min_args: usize,
    #[serde(default)]
    pub config_arg: Option<String>,
    #[serde(default)]
    pub sent_by: Vec<String>,
    #[serde(default)]
    pub ends: Option<String>,
    #[serde(default)]
    pub internal: bool,
    #[serde(default)]
    pub forbid: Vec<String>,
    #[serde(default)]
    pub wrapped_by: Vec<String>,
    /// Java: only when the created value is cast to (or declared as) this type.
    #[serde(default)]
    pub cast: Option<String>,
    pub missing: String,
    pub default: String,
    pub help: String,
}

/// One language's catalog.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LangCatalog {
    #[serde(default)]
    pub queues: Vec<QueueEntry>,
    #[serde(default)]
    pub groups: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub waits: Vec<WaitEntry>,
    #[serde(default)]
    pub futures: FutureRules,
    #[serde(default)]
    pub returns: Vec<ReturnEntry>,
    #[serde(default)]
    pub submits: Vec<SubmitEntry>,
    #[serde(default)]
    pub pools: Vec<PoolEntry>,
    #[serde(default)]
    pub policies: Policies,
    #[serde(default)]
    pub event_loops: Vec<EventLoopEntry>,
    #[serde(default)]
    pub reactive: Reactive,
    #[serde(default)]
    pub spring: Spring,
    #[serde(default)]
    pub awaits: Awaits,
    #[serde(default)]
    pub transparent: Transparent,
    #[serde(default)]
    pub clients: Vec<ClientEntry>,
    /// Java: constructors that take a fixed number of threads from an executor passed
    /// to them (Netty 3 channel factories): such an executor's bound does not matter.
    #[serde(default)]
    pub fixed_thread_users: Vec<String>,
}

impl LangCatalog {
    fn extend(&mut self, other: LangCatalog) {
        self.queues.extend(other.queues);
        for (k, v) in other.groups {
            self.groups.entry(k).or_default().extend(v);
        }
        self.waits.extend(other.waits);
        self.returns.extend(other.returns);
        self.submits.extend(other.submits);
        self.pools.extend(other.pools);
        self.event_loops.extend(other.event_loops);
        self.policies.caller_runs.extend(other.policies.caller_runs);
        self.policies.setters.extend(other.policies.setters);
        self.awaits.types.extend(other.awaits.types);
        self.clients.extend(other.clients);
        self.fixed_thread_users.extend(other.fixed_thread_users);
    }
}

/// Both catalogs, indexed for lookup by fully-qualified name.
#[derive(Debug, Clone)]
pub struct Catalog {
    java: Indexed,
    rust: Indexed,
}

/// One language's catalog with lookup indices.
#[derive(Debug, Clone, Default)]
pub struct Indexed {
    pub data: LangCatalog,
    queue_new: HashMap<String, usize>,
    queue_call: HashMap<String, usize>,
    /// Every fully-qualified name the catalog mentions (types, functions, classes).
    known: HashSet<String>,
    /// Wait entries by method or function name.
    waits_by_name: HashMap<String, Vec<usize>>,
    pool_new: HashSet<String>,
    pool_call: HashSet<String>,
    /// Client entries by start (`call:..`, `new:..`, `type:..`, `method:..`).
    client_starts: HashMap<String, Vec<usize>>,
    /// `call:*Suffix.method` starts: (class suffix, method, entry).
    client_wildcards: Vec<(String, String, usize)>,
    /// Quick rejects: every method a submission, a return type or a client start names.
    submit_methods: HashSet<String>,
    return_methods: HashSet<String>,
    client_start_names: HashSet<String>,
}

impl Indexed {
    fn new(data: LangCatalog) -> Result<Indexed, String> {
        let mut ix = Indexed {
            data,
            ..Indexed::default()
        };
        for (i, q) in ix.data.queues.iter().enumerate() {
            match (&q.new, &q.call) {
                (Some(t), None) => ix.queue_new.insert(t.clone(), i),
                (None, Some(c)) => ix.queue_call.insert(c.clone(), i),
                _ => {
                    return Err(format!(
                        "queue entry {i}: set exactly one of `new` or `call`"
                    ))
                }
            };
            if q.grows != "queue" && q.grows != "threads" {
                return Err(format!(
                    "queue entry {i}: `grows` is `queue` or `threads`, not `{}`",
                    q.grows
                ));
            }
        }
        for (i, w) in ix.data.waits.iter().enumerate() {
            let name = match (&w.method, &w.call) {
                (Some(m), None) => m.clone(),
                (None, Some(c)) => c.clone(),
                _ => {
                    return Err(format!(
                        "wait entry {i}: set exactly one of `method` or `call`"
                    ))
                }
            };
            ix.waits_by_name.entry(name).or_default().push(i);
        }
        for p in &ix.data.pools {
            if let Some(n) = &p.new {
                ix.pool_new.insert(n.clone());
            }
            if let Some(c) = &p.call {
                ix.pool_call.insert(c.clone());
            }
        }
        let mut ids = HashSet::default();
        for (i, c) in ix.data.clients.iter().enumerate() {
            if !ids.insert(c.id.clone()) {
                return Err(format!("client entry `{}` is defined twice", c.id));
            }
            for s in &c.starts {
                let Some((kind, name)) = s.split_once(':') else {
                    return Err(format!("client `{}`: start `{s}` needs a `call:`, `new:`, `type:` or `method:` prefix", c.id));
                };
                if !matches!(kind, "call" | "new" | "type" | "method") {
                    return Err(format!("client `{}`: unknown start kind `{kind}`", c.id));
                }
                match name.strip_prefix('*').and_then(|w| w.rsplit_once('.')) {
                    Some((suffix, method)) => {
                        ix.client_wildcards
                            .push((suffix.to_string(), method.to_string(), i))
                    }
                    None => ix.client_starts.entry(s.clone()).or_default().push(i),
                }
            }
        }
        for c in &ix.data.clients {
            let nested = c
                .needs
                .iter()
                .flat_map(|n| n.split('|'))
                .filter_map(|a| a.split_once('=').map(|(_, id)| id));
            for id in nested.chain(c.config_arg.as_deref().filter(|a| *a != "any")) {
                if !ids.contains(id) {
                    return Err(format!("client `{}` refers to unknown client `{id}`", c.id));
                }
            }
        }
        ix.submit_methods = ix
            .data
            .submits
            .iter()
            .flat_map(|e| e.methods.iter().cloned())
            .collect();
        ix.return_methods = ix
            .data
            .returns
            .iter()
            .flat_map(|e| e.methods.iter().cloned())
            .collect();
        ix.client_start_names = ix
            .client_starts
            .keys()
            .filter_map(|k| k.split_once(':').map(|(_, n)| n))
            .map(|n| n.rsplit(['.', ':']).next().unwrap_or(n).to_string())
            .chain(ix.client_wildcards.iter().map(|(_, m, _)| m.clone()))
            .collect();
        let mut known: HashSet<String> = HashSet::default();
        for s in ix.client_starts.keys() {
            if let Some((_, name)) = s.split_once(':') {
                known.insert(name.to_string());
            }
        }
        known.extend(ix.queue_new.keys().cloned());
        known.extend(ix.queue_call.keys().cloned());
        known.extend(ix.pool_new.iter().cloned());
        known.extend(ix.pool_call.iter().cloned());
        for g in ix.data.groups.values() {
            known.extend(g.iter().cloned());
        }
        let d = &ix.data;
        let lists = d
            .waits
            .iter()
            .flat_map(|w| w.on.iter().chain(&w.call))
            .chain(d.returns.iter().flat_map(|r| {
                r.on.iter()
                    .chain(&r.r#static)
                    .chain(&r.call)
                    .chain(&r.r#type)
            }))
            .chain(
                d.submits
                    .iter()
                    .flat_map(|s| s.on.iter().chain(&s.r#static).chain(&s.call)),
            )
            .chain(
                d.event_loops
                    .iter()
                    .flat_map(|e| e.types.iter().chain(&e.registrar_types)),
            )
            .chain(&d.policies.caller_runs)
            .chain(&d.awaits.types)
            .chain(&d.awaits.timeout_calls)
            .chain(&d.spring.qualifiers)
            .chain(&d.fixed_thread_users)
            .chain([&d.spring.bean, &d.spring.r#async]);
        for name in lists {
            if !name.starts_with('@') && name != "*" && name != "self" {
                known.insert(name.clone());
            }
        }
        // A static method `a.b.C.m` makes its class `a.b.C` known too.
        let classes: Vec<String> = known
            .iter()
            .filter_map(|n| {
                n.rsplit_once(['.', ':'])
                    .map(|(c, _)| c.trim_end_matches(':').to_string())
            })
            .collect();
        known.extend(classes);
        ix.known = known;
        Ok(ix)
    }

    /// The queue created by `new T(..)`, by fully-qualified type.
    pub fn queue_new(&self, fq_type: &str) -> Option<&QueueEntry> {
        self.queue_new.get(fq_type).map(|&i| &self.data.queues[i])
    }

    /// The queue created by calling a function, by fully-qualified path.
    pub fn queue_call(&self, path: &str) -> Option<&QueueEntry> {
        self.queue_call.get(path).map(|&i| &self.data.queues[i])
    }

    /// Whether any catalog entry names this fully-qualified type, class or function.
    pub fn knows(&self, name: &str) -> bool {
        self.known.contains(name)
    }

    /// Whether a type belongs to a receiver list (`@group`, a name, or `*`).
    pub fn matches(&self, list: &[String], fq: Option<&str>) -> bool {
        list.iter().any(|item| {
            if item == "*" {
                return true;
            }
            let Some(fq) = fq else { return false };
            match item.strip_prefix('@') {
                Some(group) => self
                    .data
                    .groups
                    .get(group)
                    .is_some_and(|g| g.iter().any(|t| t == fq)),
                None => item == fq,
            }
        })
    }

    /// Whether a type is in a named group.
    pub fn in_group(&self, group: &str, fq: &str) -> bool {
        self.data
            .groups
            .get(group)
            .is_some_and(|g| g.iter().any(|t| t == fq))
    }

    /// Wait entries for a method or function name.
    pub fn waits_named(&self, name: &str) -> impl Iterator<Item = &WaitEntry> {
        self.waits_by_name
            .get(name)
            .into_iter()
            .flatten()
            .map(|&i| &self.data.waits[i])
    }

    /// Whether any submission entry names this method.
    pub fn is_submit_method(&self, name: &str) -> bool {
        self.submit_methods.contains(name)
    }

    /// Whether any return entry names this method.
    pub fn is_return_method(&self, name: &str) -> bool {
        self.return_methods.contains(name)
    }

    /// Whether any client start ends in this name (a method, or a class's simple name).
    pub fn may_start_client(&self, name: &str) -> bool {
        let last = name.rsplit(['.', ':']).next().unwrap_or(name);
        self.client_start_names.contains(last)
    }

    /// Client entries that start at `kind:name` (`call:java.net.http.HttpClient.newBuilder`).
    pub fn clients_starting(&self, kind: &str, name: &str) -> Vec<&ClientEntry> {
        let mut out: Vec<&ClientEntry> = self
            .client_starts
            .get(&format!("{kind}:{name}"))
            .into_iter()
            .flatten()
            .map(|&i| &self.data.clients[i])
            .collect();
        if kind == "call" {
            if let Some((class, method)) = name.rsplit_once(['.', ':']) {
                let class = class.trim_end_matches(':');
                let simple = class.rsplit(['.', ':']).next().unwrap_or(class);
                for (suffix, m, i) in &self.client_wildcards {
                    if m == method && simple.ends_with(suffix.as_str()) {
                        out.push(&self.data.clients[*i]);
                    }
                }
            }
        }
        out
    }

    /// Whether any client entry starts at a call of this (simple) method name through a
    /// wildcard class (`*Grpc.newBlockingStub`).
    pub fn client_wildcard_method(&self, method: &str) -> bool {
        self.client_wildcards.iter().any(|(_, m, _)| m == method)
    }

    pub fn client(&self, id: &str) -> Option<&ClientEntry> {
        self.data.clients.iter().find(|c| c.id == id)
    }

    pub fn is_pool_new(&self, fq_type: &str) -> bool {
        self.pool_new.contains(fq_type)
    }

    pub fn is_pool_call(&self, path: &str) -> bool {
        self.pool_call.contains(path)
    }
}

/// Extensions from the config file, per language.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogExtensions {
    #[serde(default)]
    pub java: Option<LangCatalog>,
    #[serde(default)]
    pub rust: Option<LangCatalog>,
}

impl Catalog {
    /// The built-in catalogs plus the config's extensions.
    pub fn load(ext: &CatalogExtensions) -> Result<Catalog, String> {
        let mut java = parse("rules/java.toml", JAVA_TOML)?;
        let mut rust = parse("rules/rust.toml", RUST_TOML)?;
        if let Some(j) = &ext.java {
            java.extend(j.clone());
        }
        if let Some(r) = &ext.rust {
            rust.extend(r.clone());
        }
        Ok(Catalog {
            java: Indexed::new(java).map_err(|e| format!("java catalog: {e}"))?,
            rust: Indexed::new(rust).map_err(|e| format!("rust catalog: {e}"))?,
        })
    }

    pub fn builtin() -> Catalog {
        Catalog::load(&CatalogExtensions::default()).expect("built-in catalogs are valid")
    }

    pub fn lang(&self, language: Language) -> &Indexed {
        match language {
            Language::Java => &self.java,
            Language::Rust => &self.rust,
        }
    }
}

fn parse(name: &str, text: &str) -> Result<LangCatalog, String> {
    toml::from_str(text).map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use crate::source::Language;

    #[test]
    fn builtin_catalogs_parse() {
        let c = super::Catalog::builtin();
        let java = c.lang(Language::Java);
        assert!(java
            .queue_new("java.util.concurrent.LinkedBlockingQueue")
            .is_some());
        assert!(java.knows("java.util.concurrent.CompletableFuture"));
        assert!(java.knows("java.util.concurrent.Executors"));
        assert!(java.matches(
            &["@future".to_string()],
            Some("java.util.concurrent.CompletableFuture")
        ));
        let rust = c.lang(Language::Rust);
        assert!(rust.queue_call("std::sync::mpsc::channel").is_some());
    }
}
