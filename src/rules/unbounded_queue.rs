//! `unbounded_queue`: a queue, channel or executor with no bound (or a bound too
//! large to matter) turns overload into unbounded latency and memory.

use std::collections::HashMap;

use super::{Level, Rule, Settings};
use crate::diagnostic::Diagnostic;
use crate::facts::{Bound, Heat};
use crate::link::{Project, Sub};

pub const RULE: Rule = Rule {
    id: "unbounded_queue",
    default_level: Level::Warning,
    languages: "java, rust",
    summary: "queue, channel or executor whose backlog can grow without bound",
    doc: include_str!("../../rules/unbounded_queue.md"),
    precision: "very-high",
    check,
};

/// Revision 2: an executor's queue is reported when hot code fills it, or when its
/// producers cannot all be seen; it is left alone when every producer is cold and
/// the number of items is fixed (periodic tasks scheduled at startup, the one
/// long-lived task of a single-thread executor).
enum Producers<'s> {
    /// Some producer runs hot: the first one, for a label.
    Hot(&'s Sub),
    Fixed,
    Unknown,
}

/// A scheduler's queue (`timers`) holds timers whose number is set by what schedules
/// them, and no API bounds it: only immediate work (`execute`, `submit`) from hot code
/// makes it a backlog.
fn producers<'s>(
    project: &Project,
    key: &str,
    subs: &HashMap<String, Vec<&'s Sub>>,
    single: bool,
    timers: bool,
) -> Producers<'s> {
    // A bean with no producer the project can see is filled by code it cannot see.
    let unknown = if timers {
        Producers::Fixed
    } else {
        Producers::Unknown
    };
    let Some(list) = subs.get(project.canonical(key)) else {
        return unknown;
    };
    let delayed = |s: &Sub| s.what.contains("schedule");
    if let Some(hot) = list
        .iter()
        .find(|s| project.heat(s.file, s.ctx) == Heat::Hot && !(timers && delayed(s)))
    {
        return Producers::Hot(hot);
    }
    if timers {
        return Producers::Fixed;
    }
    let periodic = |s: &Sub| {
        s.what.contains("scheduleAtFixedRate") || s.what.contains("scheduleWithFixedDelay")
    };
    let fixed = list.iter().all(|s| {
        project.heat(s.file, s.ctx) == Heat::Cold || periodic(s) || (single && list.len() == 1)
    });
    if fixed {
        Producers::Fixed
    } else {
        Producers::Unknown
    }
}

fn check(project: &Project, settings: &Settings) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut subs: HashMap<String, Vec<&Sub>> = HashMap::new();
    for s in project.submissions() {
        subs.entry(project.canonical(&s.pool).to_string())
            .or_default()
            .push(s);
    }
    for (file, _, facts) in project.each() {
        // Executors created by a factory: the pool and its queue start at one place.
        let pools: HashMap<usize, &crate::facts::Pool> =
            facts.pools.iter().map(|p| (p.span.start, p)).collect();
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
            if let Some(pool) = pools.get(&q.span.start) {
                let single = q.what.contains("Single");
                match producers(project, &pool.key, &subs, single, q.timers) {
                    Producers::Fixed if settings.pedantic => d.level = Level::Note,
                    Producers::Fixed => continue,
                    Producers::Hot(s) => {
                        d = d
                            .label(
                                s.file,
                                s.span,
                                "filled from code that runs per request or event here",
                            )
                            .at(s.file, s.ctx);
                    }
                    Producers::Unknown => {}
                }
            }
            if q.timers && !pools.contains_key(&q.span.start) {
                continue; // a scheduler whose pool was not recorded: nothing fills it here
            }
            out.push(d);
        }
    }
    out
}
