//! `unbounded_join`: waiting with no time bound for work handed to another
//! thread, pool or task, or for a synchronizer another thread must release.

use super::{Level, Rule, Settings};
use crate::diagnostic::Diagnostic;
use crate::facts::{CtxKind, FileFacts, Heat, Submission, Wait, WaitKind};
use crate::link::Project;
use crate::source::FileId;

pub const RULE: Rule = Rule {
    id: "unbounded_join",
    default_level: Level::Error,
    languages: "java, rust",
    summary: "waits with no time bound for another thread, pool or task",
    doc: include_str!("../../rules/unbounded_join.md"),
    // Measured: about 20 % acted on in audit rounds 19-23, most of the rest by-design waits.
    precision: "medium",
    check,
};

/// Untimed waits not worth a finding (notes with `--pedantic`):
/// - a synchronizer in code no entry point reaches (a library's API: start handshakes,
///   helper threads it joins, its own admission control) blocks by contract; whether
///   that pins a request thread is its callers' question;
/// - a reply awaited from an actor (`oneshot` sender sent in a message) pins no thread,
///   and the actor drops the sender when it fails (no owner acted on one in three
///   audits); a sender handed to a call of this function is reported in hot code,
///   unless a task nobody awaits waits for it (it forwards the reply; no request waits);
/// - waiting for the tasks of a pool this method made for them and shuts down, or for
///   a parallel stream run on a fork/join pool to confine its threads, is running
///   them inline: the unbounded call inside them is the finding;
/// - a monitor or condition wait in a `while (cond)` loop of a class that signals it
///   itself is a handshake between the component's own threads (reviewers acted on
///   none of them in three audit rounds).
fn by_design(project: &Project, file: FileId, facts: &FileFacts, w: &Wait) -> bool {
    if w.handshake {
        return true;
    }
    // A wait only a lazy initialization reaches runs once: as good as unknown.
    let heat = project.steady_heat(file, w.ctx);
    if w.kind == WaitKind::Synchronizer && w.submission.is_none() && heat == Heat::Unknown {
        return true;
    }
    if w.reply && (w.actor || heat != Heat::Hot || in_detached_task(facts, w.ctx)) {
        return true;
    }
    let scoped = |s: &Submission| project.pool(&s.pool).is_some_and(|(_, p)| p.scoped);
    // A fork/join pool that confines a parallel stream's threads (`pool.submit(() ->
    // ids.parallelStream()..).get()`): the wait is the caller running its own
    // stream; an unbounded call inside it is the finding.
    let confines = |s: &Submission| s.forkjoin && s.parallel_stream;
    match w.submission {
        Some(s) => scoped(&facts.submissions[s]) || confines(&facts.submissions[s]),
        // `for (Future<?> f : futures) f.get()` after submitting them here.
        None => {
            w.kind == WaitKind::Result
                && facts
                    .submissions
                    .iter()
                    .any(|s| s.ctx == w.ctx && scoped(s))
        }
    }
}

/// A submission its method waits for, to a pool whose `CallerRunsPolicy` makes the
/// waiting caller run the task (`caller_runs_under_join` reports it).
fn caller_runs_waited(project: &Project, file: FileId, index: usize) -> bool {
    project
        .submissions()
        .iter()
        .find(|s| s.file == file && s.index == Some(index))
        .is_some_and(|s| {
            s.waited.is_some()
                && project
                    .pool(&s.pool)
                    .is_some_and(|(_, p)| p.caller_runs.is_some())
                && super::nested_in(project, s, &project.executions(file, s.ctx)).is_none()
        })
}

/// Code that runs only as tasks whose submitters wait for them with a time bound
/// (`f = pool.submit(task); f.get(30, SECONDS)`, then `cancel(true)`): the submitter
/// bounds this wait too (a note with `--pedantic`).
fn submitter_bounds(project: &Project, execs: &[crate::link::Execution]) -> bool {
    !execs.is_empty()
        && execs.iter().all(|e| {
            let f = &project.facts[e.file];
            matches!(e.kind, CtxKind::PoolTask(_))
                && e.submission
                    .and_then(|s| f.submissions[s].waited)
                    .is_some_and(|wi| f.waits[wi].timed)
        })
}

fn check(project: &Project, settings: &Settings) -> Vec<Diagnostic> {
    // Waits on a wrapper's task are reported once, naming the pool (below); the
    // front end's span of the same wait is its method call, so match on the end.
    let wrapped = wrapper_waits(project, settings);
    let on_wrapper: std::collections::HashSet<_> =
        wrapped.iter().map(|d| (d.file, d.span.end)).collect();
    // `f = api.checkUri(..); f.get()` on an `@Async` method's future: its call and
    // the pool it runs on, by the wait they lead to.
    let async_calls: std::collections::HashMap<(usize, usize), &crate::link::Sub> = project
        .submissions()
        .iter()
        .filter(|s| s.via_async.is_some())
        .filter_map(|s| Some(((s.file, s.waited?.start), s)))
        .collect();
    let mut out = Vec::new();
    for (file, _, facts) in project.each() {
        // A wait on a project call that returns a promise an I/O callback completes
        // is bounded by that client's timeouts.
        let promise = |w: &&Wait| project.model.promise_waits.contains(&(file, w.span.start));
        // A wait on a project call's result counts once the callee returns a future.
        let untimed = |w: &&Wait| {
            !w.timed || (w.by_call && project.model.typed_waits.contains(&(file, w.span.start)))
        };
        let wrapper = |w: &&Wait| on_wrapper.contains(&(file, w.span.end));
        let two_steps = latched_results(facts);
        for (i, w) in facts
            .waits
            .iter()
            .enumerate()
            .filter(|(_, w)| untimed(w) && !promise(w) && !wrapper(w))
        {
            if two_steps.iter().any(|&(_, second)| second == i) {
                continue;
            }
            let execs = project.executions(file, w.ctx);
            let on_async = execs.iter().any(|e| e.kind == CtxKind::Async);
            let on_pool = execs.iter().find_map(|e| match &e.kind {
                CtxKind::PoolTask(p) => Some(p.clone()),
                _ => None,
            });
            if w.kind == WaitKind::CallerRuns
                || (w.kind == WaitKind::BlockOn && (on_async || on_pool.is_none()))
            {
                continue; // in async code this is `caller_runs_under_join`'s
            }
            if w.needs_worker && !on_async && on_pool.is_none() && w.submission.is_none() {
                continue;
            }
            // A latch the tasks of a waited submission to a `CallerRunsPolicy` pool
            // count down: one hazard with that submission, `caller_runs_under_join`'s.
            if w.counted_by
                .is_some_and(|s| caller_runs_waited(project, file, s))
            {
                continue;
            }
            if w.consumer && project.called_only_from_loops(file, w.ctx) {
                continue; // a consumer API: its callers are dedicated consumer loops
            }
            // A throttle's permit taken only in a pool's own tasks paces that pool.
            let paced = w.permit
                && !execs.is_empty()
                && execs.iter().all(|e| matches!(e.kind, CtxKind::PoolTask(_)));
            // A `ForkJoinTask` joined on a fork/join worker: the pool helps with queued
            // tasks or adds a thread while it waits (round 79: janusgraph's snapshot).
            let compensated = w.forkjoin
                && !execs.is_empty()
                && execs.iter().all(|e| {
                    e.submission
                        .is_some_and(|s| project.facts[e.file].submissions[s].forkjoin)
                });
            let library = project.model.library_waits.contains(&(file, w.span.start));
            // Only a scheduled job's run reaches it: waiting holds back the job's next
            // run, not requests (a Quartz job waiting for its shards or its registry:
            // no owner acted on one in audit rounds 12, 14, 42 and 44).
            let job = project.job_run(file, w.ctx);
            let quiet = on_elastic_pool(project, &execs)
                || by_design(project, file, facts, w)
                || awaits_lifecycle(&w.what)
                || submitter_bounds(project, &execs)
                || paced
                || library
                || compensated
                || job;
            if quiet && !settings.pedantic {
                continue;
            }
            let sub = w.submission.map(|s| &facts.submissions[s]);
            let message = match (sub, w.kind) {
                (Some(s), _) => format!(
                    "{} waits with no time bound for a task on pool `{}`",
                    w.what, s.pool_name
                ),
                (None, WaitKind::Synchronizer) => format!(
                    "{} blocks with no time bound until {}",
                    w.what,
                    w.until.as_deref().unwrap_or("another thread releases it")
                ),
                (None, WaitKind::BlockOn | WaitKind::CallerRuns) => format!(
                    "{} blocks a pool worker with no time bound until the future completes",
                    w.what
                ),
                (None, WaitKind::Result) => format!(
                    "{} waits with no time bound for work on another thread",
                    w.what
                ),
            };
            let mut d = Diagnostic::new(RULE.id, file, w.span, message)
                .help(w.help.clone())
                .at(file, w.ctx)
                .once_unknown();
            // A blocking wait in a background loop task still pins a runtime worker.
            if !w.reply && execs.iter().any(|e| e.blocks_shared_worker(project)) {
                d = d.in_any_context();
            }
            if w.reply {
                d.level = Level::Warning;
            }
            if quiet {
                d.level = Level::Note;
            }
            if let Some(s) = sub {
                d = d.label(
                    file,
                    s.span,
                    format!("task submitted to `{}` here", s.pool_name),
                );
                if let Some((pf, pool)) = project.pool(&s.pool) {
                    d = d.label(pf, pool.span, format!("pool `{}` defined here", pool.name));
                }
            } else if let Some(a) = async_calls.get(&(file, w.span.start)) {
                let hands = format!("`{}` hands its work to `{}` here", a.what, a.pool_name);
                d = d.label(file, a.span, hands);
                if let Some((mf, at, text)) = a.async_label(&a.pool_name) {
                    d = d.label(mf, at, text);
                }
            }
            for &(_, second) in two_steps.iter().filter(|&&(first, _)| first == i) {
                let other = &facts.waits[second];
                let text = if other.kind == WaitKind::Synchronizer {
                    "then awaits the latch the same tasks count down"
                } else {
                    "then waits for the same tasks' results"
                };
                d = d.label(file, other.span, text);
            }
            if on_async {
                if let Some(e) = execs.iter().find(|e| e.kind == CtxKind::Async) {
                    let c = &project.facts[e.file].contexts[e.ctx];
                    d = d.label(
                        e.file,
                        c.head,
                        "this runs on an async runtime worker thread",
                    );
                }
            } else if let Some(e) = execs
                .iter()
                .find(|e| matches!(e.kind, CtxKind::PoolTask(_)))
            {
                let pool = on_pool.as_deref().unwrap_or_default();
                let ef = &project.facts[e.file];
                let name = project
                    .pool(pool)
                    .map(|(_, p)| p.name.clone())
                    .or_else(|| e.submission.map(|s| ef.submissions[s].pool_name.clone()))
                    // A task handed to a wrapper: the pool its own submission names.
                    .or_else(|| {
                        let w = project.model.calls.wrapped_tasks.get(&(e.file, e.ctx))?;
                        let (f, s) = w.inner?;
                        Some(project.facts[f].submissions[s].pool_name.clone())
                    })
                    .unwrap_or_else(|| pool.to_string());
                let at = e
                    .submission
                    .map_or(ef.contexts[e.ctx].head, |s| ef.submissions[s].span);
                d = d.label(e.file, at, format!("this code runs as a task on `{name}`"));
            }
            out.push(d);
        }
    }
    out.extend(wrapped);
    out
}

/// A wait on a receiver named for the component's end (`close_rx.recv()`,
/// `shutdownLatch.await()`, `stop_signal.wait()`): it waits for the end of a
/// lifetime by design, not for work.
fn awaits_lifecycle(what: &str) -> bool {
    const END: [&str; 8] = [
        "close", "stop", "shut", "terminat", "cancel", "exit", "quit", "kill",
    ];
    let text = what.trim_matches('`');
    let Some((receiver, _)) = text.rsplit_once('.') else {
        return false;
    };
    // A variable or field, not a call's result (`killers.submit(() -> kill(id)).get()`).
    let name = receiver.rsplit(['.', ':']).next().unwrap_or(receiver);
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return false;
    }
    let name = name.to_ascii_lowercase();
    END.iter().any(|w| name.contains(w))
}

/// A fan-out that awaits a latch its tasks count down and `get()`s their futures (in
/// either order): one wait in two steps, reported at the first (`(first, second)`
/// indices into `facts.waits`).
fn latched_results(facts: &FileFacts) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for (l, latch) in facts.waits.iter().enumerate() {
        let Some(sub) = latch.counted_by.filter(|_| !latch.timed) else {
            continue;
        };
        let result = facts.waits.iter().position(|w| {
            w.ctx == latch.ctx
                && w.kind == WaitKind::Result
                && w.submission == Some(sub)
                && !w.timed
        });
        if let Some(r) = result {
            let latch_first = latch.span.start <= facts.waits[r].span.start;
            pairs.push(if latch_first { (l, r) } else { (r, l) });
        }
    }
    pairs
}

/// Only fire-and-forget tasks of a pool that starts a thread per task (a cached pool)
/// run this: a stuck wait there costs a thread, which the pool's own finding reports,
/// and starves nothing; no caller waits for the task.
fn on_elastic_pool(project: &Project, execs: &[crate::link::Execution]) -> bool {
    !execs.is_empty()
        && execs.iter().all(|e| {
            let f = &project.facts[e.file];
            matches!(&e.kind, CtxKind::PoolTask(p)
                if project.pool(p.as_str()).is_some_and(|(_, p)| p.elastic))
                && e.submission
                    .is_some_and(|s| f.submissions[s].waited.is_none())
        })
}

/// `store.load(id).join()` where the project's `load` returns the future of a task it
/// submits (or hands the caller's task to a pool): the wait is on that task, though
/// this file cannot see a future type.
fn wrapper_waits(project: &Project, settings: &Settings) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for s in project.submissions() {
        let (Some(w), Some(false), Some((wf, ws))) =
            (s.waited, s.wrapper_wait_timed, s.via_wrapper)
        else {
            continue;
        };
        let facts = &project.facts[s.file];
        // The front end saw this wait already (a future type it knew).
        // (Not one on a call's result it could not type: that one is this.)
        let typed = |x: &&Wait| x.span == w && !x.by_call;
        if facts.waits.iter().any(|x| typed(&x)) || !seen.insert((s.file, w.start)) {
            continue;
        }
        let scoped = project.pool(&s.pool).is_some_and(|(_, p)| p.scoped);
        let elastic = on_elastic_pool(project, &project.executions(s.file, s.ctx));
        if scoped || elastic && !settings.pedantic {
            continue;
        }
        let message = format!(
            "the result of `{}` is waited for with no time bound: it is a task on pool `{}`",
            s.what, s.pool_name
        );
        let mut d = Diagnostic::new(RULE.id, s.file, w, message)
            .help("bound the wait (`.get(500, MILLISECONDS)`, `.orTimeout(..).join()`) and handle the timeout")
            .at(s.file, s.ctx)
            .once_unknown()
            .label(wf, ws, "the task is submitted here");
        if let Some((pf, pool)) = project.pool(&s.pool) {
            d = d.label(pf, pool.span, format!("pool `{}` defined here", pool.name));
        }
        if elastic {
            d.level = Level::Note;
        }
        out.push(d);
    }
    out
}

/// Whether code at `ctx` runs in a runtime task whose handle its spawner drops
/// (`tokio::spawn(async move { let r = rx.await; reply.send(r) });`), through the
/// closures and blocks inside it.
fn in_detached_task(facts: &FileFacts, ctx: crate::facts::CtxId) -> bool {
    let mut at = Some(ctx);
    while let Some(c) = at.and_then(|c| facts.contexts.get(c)) {
        match c.kind {
            CtxKind::Async if c.detached => return true,
            CtxKind::Inline | CtxKind::Async if c.parent.is_some() && &*c.name != "task" => {}
            _ => return false,
        }
        at = c.parent;
    }
    false
}
