//! The rule registry: one file per rule, each a pure function over the linked facts.

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::facts::{CtxKind, COMMON_POOL};
use crate::link::{Execution, Project, Sub};

mod caller_runs_under_join;
mod missing_client_timeout;
mod nested_pool_submission;
mod unbounded_join;
mod unbounded_queue;

/// How seriously a finding is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Off,
    /// Findings in cold code, reported only with `--pedantic`; never fail a build.
    Note,
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
            Level::Note => "note",
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
    /// SARIF `precision`: how often a finding is a real defect (`very-high`, `high`, `medium`).
    pub precision: &'static str,
    pub check: fn(&Project, &Settings) -> Vec<Diagnostic>,
}

/// Every rule, in the order `poolguard rules` lists them. The order is also the
/// precedence when two rules report the same span: the first one wins.
pub const RULES: &[Rule] = &[
    nested_pool_submission::RULE,
    caller_runs_under_join::RULE,
    unbounded_join::RULE,
    unbounded_queue::RULE,
    missing_client_timeout::RULE,
];

/// The task of the same pool that a submission runs in, if it does (shared by
/// `nested_pool_submission`, which reports it, and `caller_runs_under_join`, which defers).
pub(crate) fn nested_in<'e>(
    project: &Project,
    sub: &Sub,
    execs: &'e [Execution],
) -> Option<&'e Execution> {
    if sub.pool == COMMON_POOL {
        return None;
    }
    execs
        .iter()
        .find(|e| matches!(&e.kind, CtxKind::PoolTask(p) if project.same_pool(p, &sub.pool)))
}

pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}
