//! `unbounded_queue`: a queue, channel or executor with no bound (or a bound too
//! large to matter) turns overload into unbounded latency and memory.

use super::{Level, Rule, Settings};
use crate::diagnostic::Diagnostic;
use crate::facts::Bound;
use crate::link::Project;

pub const RULE: Rule = Rule {
    id: "unbounded_queue",
    default_level: Level::Warning,
    languages: "java, rust",
    summary: "queue, channel or executor whose backlog can grow without bound",
    doc: include_str!("../../rules/unbounded_queue.md"),
    precision: "very-high",
    check,
};

fn check(project: &Project, settings: &Settings) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (file, _, facts) in project.each() {
        for q in &facts.queues {
            let message = match q.bound {
                Bound::Unbounded => format!(
                    "{} {}; under overload, work waits in it instead of being rejected",
                    q.what, q.why
                ),
                Bound::UnboundedThreads => format!(
                    "{} {}; under overload it starts a thread for every waiting task",
                    q.what, q.why
                ),
                Bound::Capacity(n) if n > settings.max_queue_capacity => format!(
                    "{} has capacity {n}, above `max_queue_capacity` ({}): as good as unbounded",
                    q.what, settings.max_queue_capacity
                ),
                Bound::Capacity(_) | Bound::Unknown => continue,
            };
            let mut d = Diagnostic::new(RULE.id, file, q.span, message).help(q.help.clone());
            if let Some((span, msg)) = &q.related {
                d = d.label(file, *span, msg.clone());
            }
            out.push(d);
        }
    }
    out
}
