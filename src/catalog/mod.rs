//! API knowledge as data: `rules/java.toml` and `rules/rust.toml`, embedded at
//! build time and extended from `poolguard.toml` (`[[catalog.java.queues]]` ...).
//!
//! Front ends look calls up here by fully-qualified name; no rule or front end
//! hard-codes which API queues, waits, submits or connects.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use serde::Deserialize;

mod schema;

pub use schema::*;

use crate::source::Language;

const JAVA_TOML: &str = include_str!("../../rules/java.toml");
const RUST_TOML: &str = include_str!("../../rules/rust.toml");

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
    /// Methods of return entries for receivers of any type (`bodyToMono`).
    any_receiver_returns: HashSet<String>,
    client_start_names: HashSet<String>,
    /// The methods that end a client builder (`build`), each once.
    client_ends: Vec<String>,
    /// Connector types that carry timeouts (`connectors`), and their simple names.
    connectors: HashSet<String>,
    connector_names: HashSet<String>,
    /// Java: client types whose beans are followed to their injection points.
    bean_clients: HashSet<String>,
    /// The same, as patterns (`*BlockingStub`: the stubs gRPC generates).
    bean_client_patterns: Vec<String>,
    /// Java: client types whose requests are bounded one by one (`setConfig(rc)`):
    /// a field of one filled from a project factory is followed back to the factory.
    taken_clients: HashSet<String>,
    /// Rust: client types a per-request `.timeout(..)` bounds (`reqwest::Client`, from
    /// `call:reqwest::Client::new`): a struct keeping one is bounded request by request.
    timed_per_request: HashSet<String>,
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
        // A client that a class may bound per request (`per_request`) is judged in
        // the class that makes it; only the others are followed into other classes.
        for c in ix
            .data
            .clients
            .iter()
            .filter(|c| !c.internal && c.per_request.is_empty())
        {
            let made = c.starts.iter().filter_map(|s| s.strip_prefix("new:"));
            for m in made.chain(c.makes.iter().map(|m| m.as_str())) {
                if m.contains('*') {
                    ix.bean_client_patterns.push(m.to_string());
                } else {
                    ix.bean_clients.insert(m.to_string());
                }
            }
        }
        for c in ix
            .data
            .clients
            .iter()
            .filter(|c| !c.internal && c.configured_per_request())
        {
            let made = c.starts.iter().filter_map(|s| s.strip_prefix("new:"));
            ix.taken_clients.extend(
                made.chain(c.makes.iter().map(|m| m.as_str()))
                    .map(String::from),
            );
        }
        for c in &ix.data.clients {
            if c.needs.iter().any(|n| n.split('|').any(|a| a == "timeout")) {
                let built = c.starts.iter().filter_map(|s| s.strip_prefix("call:"));
                let types = built.filter_map(|f| Some(f.rsplit_once("::")?.0.to_string()));
                ix.timed_per_request.extend(types);
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
        ix.any_receiver_returns = ix
            .data
            .returns
            .iter()
            .filter(|e| e.on.iter().any(|o| o == "*"))
            .flat_map(|e| e.methods.iter().cloned())
            .collect();
        ix.client_ends = ix
            .data
            .clients
            .iter()
            .filter_map(|c| c.ends.clone())
            .collect();
        ix.client_ends.sort_unstable();
        ix.client_ends.dedup();
        ix.connectors = ix
            .data
            .clients
            .iter()
            .flat_map(|c| c.connectors.iter().cloned())
            .collect();
        ix.connector_names = ix
            .connectors
            .iter()
            .map(|t| t.rsplit("::").next().unwrap_or(t).to_string())
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
            .chain(d.entry_points.iter().flat_map(|e| {
                e.method_annotations
                    .iter()
                    .chain(&e.class_annotations)
                    .chain(&e.supertypes)
                    .chain(&e.param_types)
                    .chain(&e.return_types)
            }))
            .chain(&d.policies.caller_runs)
            .chain(&d.awaits.types)
            .chain(&d.awaits.timeout_calls)
            .chain(&d.spring.qualifiers)
            .chain(&d.spring.injects)
            .chain(&d.spring.applications)
            .chain(&d.fixed_thread_users)
            .chain(&d.executor_decorators)
            .chain([&d.spring.bean, &d.spring.r#async]);
        for name in lists {
            if !name.starts_with('@') && name != "*" && name != "self" {
                known.insert(name.clone());
            }
        }
        // The types a client is cast to (`(HttpURLConnection) url.openConnection()`),
        // also through an on-demand import (`import java.net.*;`).
        let casts = d.clients.iter().filter_map(|c| c.cast.as_deref());
        known.extend(casts.flat_map(|c| c.split('|')).map(str::to_string));
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

    /// Whether calls on a client of this type return futures its own I/O timeouts
    /// bound (`futures.io_clients`; `*` matches any run of characters).
    pub fn io_client(&self, fq: &str) -> bool {
        Self::matches_pattern(&self.data.futures.io_clients, fq)
    }

    /// Whether calls on a client of this type wait forever unless it is configured
    /// (`futures.unbounded_io_clients`).
    pub fn unbounded_io_client(&self, fq: &str) -> bool {
        Self::matches_pattern(&self.data.futures.unbounded_io_clients, fq)
    }

    /// Whether `fq` is one of `patterns` (`*` matches any run of characters).
    fn matches_pattern(patterns: &[String], fq: &str) -> bool {
        patterns.iter().any(|p| match p.split_once('*') {
            Some((head, tail)) => {
                fq.len() >= head.len() + tail.len() && fq.starts_with(head) && fq.ends_with(tail)
            }
            None => p == fq,
        })
    }

    /// Whether a type is one a caller can wait on: a future or a publisher.
    pub fn waitable(&self, fq: &str) -> bool {
        self.in_group("future", fq) || self.in_group("publisher", fq)
    }

    /// Whether a type is in a named group.
    pub fn in_group(&self, group: &str, fq: &str) -> bool {
        self.data
            .groups
            .get(group)
            .is_some_and(|g| g.iter().any(|t| t == fq))
    }

    /// Wait entries for a method or function name, with their index in `data.waits`.
    pub fn waits_named_at(&self, name: &str) -> impl Iterator<Item = (usize, &WaitEntry)> {
        self.waits_by_name
            .get(name)
            .into_iter()
            .flatten()
            .map(|&i| (i, &self.data.waits[i]))
    }

    /// Wait entries for a method or function name.
    pub fn waits_named(&self, name: &str) -> impl Iterator<Item = &WaitEntry> {
        self.waits_named_at(name).map(|(_, w)| w)
    }

    /// Whether any submission entry names this method.
    pub fn is_submit_method(&self, name: &str) -> bool {
        self.submit_methods.contains(name)
    }

    /// Whether any return entry names this method.
    pub fn is_return_method(&self, name: &str) -> bool {
        self.return_methods.contains(name)
    }

    /// Whether a return entry types `method` on a receiver of type `on` (a library's, not
    /// a future's own continuation) as a future or publisher: a library future the
    /// catalog names because nothing bounds it (a whole S3 transfer, an etcd call).
    pub fn library_future(&self, on: Option<&str>, method: &str) -> bool {
        if !self.is_return_method(method) {
            return false;
        }
        self.data.returns.iter().any(|r| {
            r.methods.iter().any(|m| m == method)
                && !r.complete
                && r.r#type.as_deref().is_some_and(|t| self.waitable(t))
                && !r
                    .on
                    .iter()
                    .any(|o| self.waitable(o) || o.ends_with(".CompletionStage"))
                && self.matches(&r.on, on)
        })
    }

    /// Whether a return entry for receivers of any type (`on = ["*"]`) names this method.
    pub fn is_any_receiver_return(&self, name: &str) -> bool {
        self.any_receiver_returns.contains(name)
    }

    /// Java: whether a bean of this type is a client whose requests are judged where
    /// it is injected (`RestTemplate`, not a request factory or a config).
    pub fn bean_client_type(&self, fq: &str) -> bool {
        self.bean_clients.contains(fq) || Self::matches_pattern(&self.bean_client_patterns, fq)
    }

    /// Java: what a per-call client entry (one with an `interceptor`: a gRPC stub) needs,
    /// each alternative (`withDeadlineAfter`, `withDeadline`): set on a call, not a client.
    pub fn per_call_needs(&self) -> impl Iterator<Item = &str> {
        self.per_call_entries()
            .flat_map(|e| e.needs.iter().flat_map(|n| n.split('|')))
    }

    /// Java: whether the methods `called` on a value set every need of a per-call entry.
    pub fn sets_per_call_needs(&self, called: &[&str]) -> bool {
        self.per_call_entries().any(|e| {
            !e.needs.is_empty()
                && e.needs
                    .iter()
                    .all(|n| n.split('|').any(|a| called.contains(&a)))
        })
    }

    fn per_call_entries(&self) -> impl Iterator<Item = &ClientEntry> {
        self.data.clients.iter().filter(|e| e.interceptor.is_some())
    }

    /// Java: whether a field of this type, filled from a project factory, is followed
    /// back to the factory (an Apache client, bounded request by request).
    pub fn taken_client_type(&self, fq: &str) -> bool {
        self.taken_clients.contains(fq)
    }

    /// Rust: whether a per-request `.timeout(..)` bounds clients of this type.
    pub fn timed_per_request(&self, ty: &str) -> bool {
        self.timed_per_request.contains(ty)
    }

    /// Whether a method (an identifier, or a name as text) ends a client builder
    /// (`build`).
    pub fn ends_client<M: PartialEq<String> + ?Sized>(&self, method: &M) -> bool {
        self.client_ends.iter().any(|e| method == e)
    }

    /// Whether a type is a connector some client entry counts as carrying timeouts.
    pub fn is_connector(&self, ty: &str) -> bool {
        self.connectors.contains(ty)
    }

    /// Whether a simple type name may be such a connector (a quick reject).
    pub fn may_be_connector(&self, name: &str) -> bool {
        self.connector_names.contains(name)
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
