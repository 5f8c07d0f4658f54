//! `nested_pool_submission`: a task running on pool P submits another task to
//! the same P and waits for it. Once every thread of P is a parent waiting for
//! a child, the children never run: a starvation deadlock the queue only postpones.

use super::{nested_in, Level, Rule, Settings};
use crate::diagnostic::Diagnostic;
use crate::facts::CtxKind;
use crate::link::{Execution, Project, Sub};

pub const RULE: Rule = Rule {
    id: "nested_pool_submission",
    default_level: Level::Error,
    languages: "java, rust",
    summary: "a pool task submits to its own pool and waits: starvation deadlock",
    doc: include_str!("../../rules/nested_pool_submission.md"),
    precision: "high",
    check,
};

fn check(project: &Project, _: &Settings) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // One finding per method and pool: a task that fans four children out to its own
    // pool and waits for them is one hazard with one fix (the others are labels).
    let mut first: std::collections::HashMap<(usize, usize, String, bool), usize> =
        std::collections::HashMap::new();
    for sub in project.submissions() {
        let execs = project.executions(sub.file, sub.ctx);
        let Some(outer) = nested_in(project, sub, &execs) else {
            if sub.install {
                out.extend(install_from_other_pool(project, sub, &execs));
            }
            continue;
        };
        if sub.install {
            continue; // `install` into the pool the caller already runs on runs inline
        }
        let outer_facts = &project.facts[outer.file];
        let pool = project.pool(&sub.pool);
        let pool_name = pool
            .map(|(_, p)| p.name.clone())
            .unwrap_or_else(|| sub.pool_name.clone());
        if pool.is_some_and(|(_, p)| p.elastic) {
            continue; // a thread per task: the child never waits for a free thread
        }
        let caller_runs = pool.and_then(|(f, p)| p.caller_runs.map(|s| (f, s)));
        let bounded = pool.is_some_and(|(_, p)| p.bounded);
        let mut d = match sub.waited {
            Some(_) => Diagnostic::new(
                RULE.id,
                sub.file,
                sub.span,
                format!(
                    "a task running on `{pool_name}` submits to `{pool_name}` again and waits for it: \
                     when every thread of `{pool_name}` is a parent waiting for its child, nothing can run"
                ),
            ),
            // A dispatch loop (`while (true) { poll(); pool.submit(..); }`) that hands work
            // off without waiting: `CallerRunsPolicy` slows the loop down, by design.
            None if bounded
                && caller_runs.is_some()
                && !project.facts[sub.file]
                    .contexts
                    .get(sub.ctx)
                    .is_some_and(|c| c.worker_loop) =>
            {
                let mut d = Diagnostic::new(
                    RULE.id,
                    sub.file,
                    sub.span,
                    format!(
                        "a task running on `{pool_name}` submits to `{pool_name}` again: when the pool \
                         is saturated, `CallerRunsPolicy` runs the child on the parent's thread"
                    ),
                );
                d.level = Level::Warning;
                d
            }
            None => continue,
        };
        let pool_key = project.canonical(&sub.pool).to_string();
        let group = (sub.file, sub.ctx, pool_key, sub.waited.is_some());
        if let Some(&i) = first.get(&group) {
            out[i].add_label(
                sub.file,
                sub.span,
                format!("also submits to `{pool_name}` here"),
            );
            if let Some(w) = sub.waited {
                out[i].add_label(sub.file, w, "and waits for it here");
            }
            continue;
        }
        first.insert(group, out.len());
        if let Some(s) = outer.submission {
            let outer_span = outer_facts.submissions[s].span;
            d = d.label(
                outer.file,
                outer_span,
                format!("outer task submitted to `{pool_name}` here"),
            );
        } else if let Some(c) = outer_facts.contexts.get(outer.ctx) {
            d = d.label(outer.file, c.head, format!("this runs on `{pool_name}`"));
        }
        for &(f, call) in &outer.via {
            d = d.label(f, call, "the outer task calls this");
        }
        d = d.at(sub.file, sub.ctx);
        if sub.waited.is_some() {
            // A pool whose tasks wait for their children deadlocks wherever it runs.
            d = d.in_any_context();
        }
        if let Some(w) = sub.waited {
            d = d.label(sub.file, w, "the outer task waits for the inner one here");
        }
        if let Some((wf, at)) = sub.via_wrapper {
            d = d.label(
                wf,
                at,
                format!("the wrapper hands the task to `{pool_name}` here"),
            );
        }
        if let Some((f, policy)) = caller_runs {
            d = d.label(
                f,
                policy,
                format!("`CallerRunsPolicy` on `{pool_name}`: when it is full the parent runs the child itself"),
            );
        }
        out.push(d.help(format!(
            "give the inner tasks their own pool (one pool per level), or run the inner work \
             directly in the outer task instead of submitting it to `{pool_name}` and waiting"
        )));
    }
    out
}

/// Rust `other.install(..)` from a task of a different pool: that worker blocks
/// while the closure runs elsewhere (a warning: not a deadlock by itself).
fn install_from_other_pool(
    project: &Project,
    sub: &Sub,
    execs: &[Execution],
) -> Option<Diagnostic> {
    let outer = execs
        .iter()
        .find(|e| matches!(e.kind, CtxKind::PoolTask(_)))?;
    let CtxKind::PoolTask(outer_pool) = &outer.kind else {
        return None;
    };
    let facts = &project.facts[outer.file];
    let outer_name = outer
        .submission
        .map(|s| facts.submissions[s].pool_name.clone())
        .unwrap_or_else(|| outer_pool.clone());
    let mut d = Diagnostic::new(
        RULE.id,
        sub.file,
        sub.span,
        format!(
            "a task running on `{outer_name}` calls `install` on `{}`: the `{outer_name}` worker blocks until the other pool runs the closure",
            sub.pool_name
        ),
    )
    .help(format!(
        "let the `{outer_name}` task hand the work to `{}` with `spawn` and a channel it does not block on, or do the work on `{outer_name}` directly",
        sub.pool_name
    ));
    d.level = Level::Warning;
    if let Some(s) = outer.submission {
        d = d.label(
            outer.file,
            facts.submissions[s].span,
            format!("outer task submitted to `{outer_name}` here"),
        );
    }
    Some(d)
}
