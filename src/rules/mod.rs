//! The rule registry: one file per rule, each a pure function over the linked facts.

use crate::diagnostic::Diagnostic;
use crate::facts::{CtxKind, COMMON_POOL};
use crate::link::{Execution, Project, Sub};

mod caller_runs_under_join;
mod invalid_allow;
mod missing_client_timeout;
mod nested_pool_submission;
mod unbounded_join;
mod unbounded_queue;
mod unused_allow;

pub use crate::diagnostic::Level;

/// Settings rules read from the config.
#[derive(Debug, Clone)]
pub struct Settings {
    pub max_queue_capacity: u64,
    /// `--pedantic`: findings a rule judges not worth acting on are reported as notes.
    pub pedantic: bool,
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
/// precedence when two rules report the same span: the first one wins. The
/// meta-rules about suppressions come last (see [`META_RULES`]).
pub const RULES: &[Rule] = &[
    nested_pool_submission::RULE,
    caller_runs_under_join::RULE,
    unbounded_join::RULE,
    unbounded_queue::RULE,
    missing_client_timeout::RULE,
    invalid_allow::RULE,
    unused_allow::RULE,
];

/// Rules about the suppressions themselves rather than the code: the engine
/// reports them while matching allows (see `crate::suppress`), so their registry
/// `check` is [`engine_fills`]. `--select` of other rules leaves them as they are.
pub const META_RULES: &[&str] = &[invalid_allow::RULE.id, unused_allow::RULE.id];

/// The `check` of a meta-rule: nothing, the engine fills its findings in.
fn engine_fills(_: &Project, _: &Settings) -> Vec<Diagnostic> {
    Vec::new()
}

impl Rule {
    /// Whether the rule judges suppressions (filled by the engine), not code.
    pub fn is_meta(&self) -> bool {
        META_RULES.contains(&self.id)
    }
}

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

/// Every rule id, for messages and did-you-mean.
pub fn ids() -> impl Iterator<Item = &'static str> {
    RULES.iter().map(|r| r.id)
}

/// `unknown rule `x`` with a did-you-mean and the list of known rules.
pub fn unknown_rule_message(id: &str) -> String {
    format!(
        "unknown rule `{id}`{}; known rules: {}",
        crate::suggest::hint(id, ids()),
        ids().collect::<Vec<_>>().join(", ")
    )
}
