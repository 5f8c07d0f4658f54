//! `caller_runs_under_join`: `CallerRunsPolicy` makes the submitting thread run
//! the task when the pool is saturated. That is an outage when the submitter then
//! waits for the result, or is an event loop (Rust: blocking on a runtime thread).

use super::{nested_in, Level, Rule, Settings};
use crate::diagnostic::{Diagnostic, Worth};
use crate::facts::{CtxKind, WaitKind};
use crate::link::Project;

pub const RULE: Rule = Rule {
    id: "caller_runs_under_join",
    default_level: Level::Error,
    languages: "java, rust",
    summary:
        "CallerRunsPolicy where the caller waits or is an event loop; blocking on a runtime thread",
    doc: include_str!("../../rules/caller_runs_under_join.md"),
    precision: "high",
    check,
};

fn check(project: &Project, _: &Settings) -> Vec<Diagnostic> {
    let mut out = submissions(project);
    out.extend(blocking_in_async(project));
    out
}

/// Java: submissions to a `CallerRunsPolicy` pool from a waiting caller or an event loop.
fn submissions(project: &Project) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    // One finding per method and pool: a handler that fans out nine tasks to one
    // pool is one hazard with one fix (its other submissions are labels).
    let mut first: std::collections::HashMap<(usize, usize, String), usize> =
        std::collections::HashMap::new();
    for sub in project.submissions() {
        let Some((pool_file, pool)) = project.pool(&sub.pool) else {
            continue;
        };
        let Some(policy) = pool.caller_runs else {
            continue;
        };
        let execs = project.executions(sub.file, sub.ctx);
        if nested_in(project, sub, &execs).is_some() {
            continue; // reported by nested_pool_submission, with the policy as a label
        }
        let group = (sub.file, sub.ctx, project.canonical(&sub.pool).to_string());
        if let Some(&i) = first.get(&group) {
            let name = &pool.name;
            out[i].add_label(sub.file, sub.span, format!("also submits to `{name}` here"));
            if let Some(w) = sub.waited {
                out[i].add_label(sub.file, w, "and waits for it here");
            }
            continue;
        }
        let what = format!("`{}`", sub.what);
        let name = &pool.name;
        let event_loop = execs.iter().find(|e| e.kind == CtxKind::EventLoop);
        let mut d = if let Some(w) = sub.waited {
            // `get(3, SECONDS)`: the timeout starts only once the caller ran the task.
            let timed = sub.wait_timed(project);
            let (label, then) = if timed {
                (
                    "the caller waits for the result here; its timeout starts only after the caller ran the task",
                    "the wait's timeout does not bound this: the caller runs the task before it waits",
                )
            } else {
                (
                    "the caller waits for the result here",
                    "then bound the wait as well (a timeout alone does not help: the caller runs the task before it waits)",
                )
            };
            Diagnostic::new(
                RULE.id,
                sub.file,
                sub.span,
                format!(
                    "{what} submits to `{name}`, whose `CallerRunsPolicy` runs the task on this thread \
                     when the pool is saturated, and then waits for it: the async call becomes a slow synchronous one"
                ),
            )
            .label(sub.file, w, label)
            .help(format!(
                "give `{name}` an `AbortPolicy` and handle `RejectedExecutionException` with a fallback; {then}"
            ))
        } else if let Some(e) = event_loop {
            let method = &project.facts[e.file].contexts[e.ctx];
            let mut d = Diagnostic::new(
                RULE.id,
                sub.file,
                sub.span,
                format!(
                    "{what} submits from event-loop code to `{name}`, whose `CallerRunsPolicy` runs the task \
                     on the event loop when the pool is saturated: the server stops accepting requests"
                ),
            )
            .label(
                e.file,
                method.head,
                format!("`{}` runs on an event-loop thread", method.name),
            )
            .help(
                "use `DiscardPolicy` (or `DiscardOldestPolicy`) for best-effort side work such as logging, \
                 or `AbortPolicy` with explicit handling; the event loop must never run the task itself",
            );
            for &(f, call) in &e.via {
                d = d.label(f, call, "called from the event loop here");
            }
            d
        } else {
            continue;
        };
        // `latch.await()` on a latch these tasks count down: the same wait, first step.
        let facts = &project.facts[sub.file];
        if let Some(latch) = facts.waits.iter().find(|w| {
            sub.waited.is_some_and(|at| at != w.span)
                && w.ctx == sub.ctx
                && w.counted_by.is_some()
                && w.counted_by == sub.index
        }) {
            d = d.label(
                sub.file,
                latch.span,
                "and awaits the latch its tasks count down here",
            );
        }
        d = d
            .label(
                pool_file,
                policy,
                format!("`CallerRunsPolicy` set on `{name}` here"),
            )
            .at(sub.file, sub.ctx);
        if let Some((wf, at)) = sub.via_wrapper {
            d = d.label(
                wf,
                at,
                format!("the wrapper hands the task to `{name}` here"),
            );
        }
        if let Some((mf, at, text)) = sub.async_label(name) {
            d = d.label(mf, at, text);
        }
        first.insert(group, out.len());
        out.push(d);
    }
    out
}

/// Rust: `block_on`/`block_in_place` reached from async code blocks a runtime worker.
fn blocking_in_async(project: &Project) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (file, _, facts) in project.each() {
        // `block_in_place(|| handle.block_on(f))`: the sanctioned bridge; the worker
        // already left the runtime, so only `block_in_place` itself is a finding.
        // The waits recorded in a call's arguments sit just before it (`Wait::holds`).
        let inner = |i: usize| &facts.waits[i - (facts.waits[i].holds as usize).min(i)..i];
        let mut held = vec![false; facts.waits.len()];
        for i in 0..facts.waits.len() {
            let from = i - inner(i).len();
            held[from..i].iter_mut().for_each(|x| *x = true);
        }
        for (i, w) in facts.waits.iter().enumerate() {
            if held[i] || !matches!(w.kind, WaitKind::BlockOn | WaitKind::CallerRuns) {
                continue;
            }
            // On a field or a call's result of a type only another file declares: a
            // blocking call once the model confirms that type.
            if w.by_call && !project.model.typed_waits.contains(&(file, w.span.start)) {
                continue;
            }
            let in_place = w.what.contains("block_in_place");
            let execs = project.executions(file, w.ctx);
            let Some(e) = execs
                .iter()
                .find(|e| e.kind == CtxKind::Async && project.polled_on_runtime(e.file, e.ctx))
            else {
                continue;
            };
            let c = &project.facts[e.file].contexts[e.ctx];
            let mut d = Diagnostic::new(
                RULE.id,
                file,
                w.span,
                if in_place {
                    // tokio hands the worker's other tasks to another thread first:
                    // what waits is this task and what it polls.
                    format!(
                        "{} blocks this task in place until it returns: tokio moves the worker's other tasks to another thread, but the futures this task polls (`join!`, `select!`) and whatever awaits it wait too, and on a current-thread runtime it panics",
                        w.what
                    )
                } else if w.kind == WaitKind::CallerRuns && w.what.contains("block_on") {
                    // A runtime's own `block_on` refuses to run inside a runtime context.
                    format!(
                        "{} is reached from async code: on an async runtime thread tokio panics (\"Cannot start a runtime from within a runtime\"), so this path fails whenever it runs there",
                        w.what
                    )
                } else {
                    format!(
                        "{} blocks an async runtime worker thread: every task scheduled on it waits until this returns",
                        w.what
                    )
                },
            )
            .label(e.file, c.head, format!("`{}` runs on the async runtime", c.name))
            .help(w.help.clone())
            .at(file, w.ctx);
            // A runtime's `block_on` inside a runtime panics wherever the path runs:
            // a defect, not a risk its context weighs.
            let panics = !in_place && w.kind == WaitKind::CallerRuns && w.what.contains("block_on");
            if panics || e.blocks_shared_worker(project) {
                d = d.in_any_context();
            }
            // `block_in_place(|| conn.query(..))` with no wait inside: tokio's way to
            // run local synchronous work (an embedded database, a file); it matters
            // on a request path, not in code the project cannot place.
            // In a file that uses an embedded database (`rusqlite`), that local work is
            // its queries: tokio's advice followed (no owner acted on one in the audits).
            if in_place && inner(i).iter().all(|x| x.timed) {
                d.worth = if facts.local_store {
                    Worth::PedanticOnly
                } else {
                    Worth::HotOnly
                };
            }
            for &(f, call) in &e.via {
                d = d.label(f, call, "called from async code here");
            }
            out.push(d);
        }
    }
    out
}
