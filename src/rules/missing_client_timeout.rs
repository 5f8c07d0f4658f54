//! `missing_client_timeout`: a network client with no timeout lets one slow
//! dependency hold a thread (or task) for as long as it likes.

use super::{Level, Rule, Settings};
use crate::diagnostic::Diagnostic;
use crate::link::Project;

pub const RULE: Rule = Rule {
    id: "missing_client_timeout",
    default_level: Level::Warning,
    languages: "java, rust",
    summary: "network client created without connect/read timeouts",
    doc: include_str!("../../rules/missing_client_timeout.md"),
    precision: "high",
    check,
};

fn check(project: &Project, _: &Settings) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (file, _, facts) in project.each() {
        for c in &facts.clients {
            out.push(
                Diagnostic::new(RULE.id, file, c.span, c.message.clone()).help(c.help.clone()),
            );
        }
    }
    out
}
