//! API knowledge as data: `rules/java.toml` and `rules/rust.toml`, embedded at
//! build time and extended from `poolguard.toml` (`[[catalog.java.queues]]` ...).
//!
//! Front ends look calls up here by fully-qualified name; no rule or front end
//! hard-codes which API queues, waits or connects.

use std::collections::HashMap;

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
    /// Absent: never bounded by an argument.
    #[serde(default)]
    pub capacity_arg: Option<usize>,
    /// A setter that bounds the object after construction (`setQueueCapacity`).
    #[serde(default)]
    pub capacity_setter: Option<String>,
    /// What grows without bound: `queue` (default) or `threads`.
    #[serde(default = "default_grows")]
    pub grows: String,
    /// Why it is unbounded, completing "`<call>` ...": defaults to "has no capacity bound".
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

/// One language's catalog.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LangCatalog {
    #[serde(default)]
    pub queues: Vec<QueueEntry>,
}

impl LangCatalog {
    fn extend(&mut self, other: LangCatalog) {
        self.queues.extend(other.queues);
    }
}

/// Both catalogs, indexed for lookup by fully-qualified name.
#[derive(Debug, Clone)]
pub struct Catalog {
    java: Indexed,
    rust: Indexed,
}

#[derive(Debug, Clone, Default)]
pub struct Indexed {
    pub data: LangCatalog,
    queue_new: HashMap<String, usize>,
    queue_call: HashMap<String, usize>,
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

    /// Whether any catalog entry names this fully-qualified type or function.
    pub fn knows(&self, name: &str) -> bool {
        self.queue_new.contains_key(name) || self.queue_call.contains_key(name)
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
    #[test]
    fn builtin_catalogs_parse() {
        let c = super::Catalog::builtin();
        assert!(c
            .lang(crate::source::Language::Java)
            .queue_new("java.util.concurrent.LinkedBlockingQueue")
            .is_some());
        assert!(c
            .lang(crate::source::Language::Rust)
            .queue_call("std::sync::mpsc::channel")
            .is_some());
    }
}
