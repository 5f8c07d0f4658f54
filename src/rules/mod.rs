//! The rule registry: one file per rule, each a pure function over the linked facts.

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::link::Project;

mod unbounded_queue;

/// How seriously a finding is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Off,
    Warning,
    Error,
}

impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        match s {
            "error" => Some(Level::Error),
            "warning" => Some(Level::Warning),
            "off" => Some(Level::Off),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Off => "off",
        }
    }
}

/// Settings rules read from the config.
#[derive(Debug, Clone)]
pub struct Settings {
    pub max_queue_capacity: u64,
}

/// A rule's identity, documentation and check function.
pub struct Rule {
    pub id: &'static str,
    pub default_level: Level,
    pub languages: &'static str,
    pub summary: &'static str,
    /// `rules/<id>.md`, shown by `poolguard explain` and in SARIF help.
    pub doc: &'static str,
    pub check: fn(&Project, &Settings) -> Vec<Diagnostic>,
}

/// Every rule, in the order `poolguard rules` lists them.
pub const RULES: &[Rule] = &[unbounded_queue::RULE];

pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}
