//! `poolguard debug model`: the project model as text, one fact a line, sorted
//! and stable. It is the contract of a front end: fixtures snapshot it.

use std::fmt::Write;

use crate::facts::CtxKind;
use crate::link::Project;
use crate::source::{FileId, Span};

/// Render types, contexts with their heat, call edges, pools and submissions.
pub fn dump(project: &Project) -> String {
    let mut order: Vec<FileId> = (0..project.files.len()).collect();
    order.sort_by(|&a, &b| project.files[a].display.cmp(&project.files[b].display));
    let at = |f: FileId, s: Span| {
        format!(
            "{}:{}",
            project.files[f].display,
            project.files[f].line_number(s.start)
        )
    };
    let mut out = String::new();
    for &file in &order {
        let facts = &project.facts[file];
        // A program's or tool crate's file: its code is cold whatever its contexts say.
        let role = if facts.binary {
            " [serves no traffic]"
        } else {
            ""
        };
        let timeout = if facts.request_timeout {
            " [request timeout]"
        } else {
            ""
        };
        let store = if facts.local_store {
            " [local store]"
        } else {
            ""
        };
        // An application's main class: the project's uncalled code is dead.
        let app = if facts.application {
            " [application]"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "file {}{role}{timeout}{store}{app}",
            project.files[file].display
        );
        for t in &facts.types {
            let supers: Vec<String> = t
                .supers
                .iter()
                .map(|r| match project.model.types.resolve(r) {
                    Some(id) => project.model.types.names[id].clone(),
                    None => format!("?{}", r.candidates.first().map_or("", String::as_str)),
                })
                .collect();
            let _ = write!(out, "  type {}", t.name);
            if !supers.is_empty() {
                let _ = write!(out, " : {}", supers.join(", "));
            }
            if let Some(o) = &t.outer {
                let _ = write!(out, " in {o}");
            }
            if !t.inherited_waits.is_empty() {
                let _ = write!(out, " (inherits waits: {})", t.inherited_waits.join(", "));
            }
            if !t.blocking_api.is_empty() {
                let _ = write!(
                    out,
                    " (untimed blocking API: {})",
                    t.blocking_api.join(", ")
                );
            }
            if !t.interceptor_sets.is_empty() {
                let _ = write!(
                    out,
                    " (interceptor sets: {})",
                    t.interceptor_sets.join(", ")
                );
            }
            out.push('\n');
        }
        for (alias, target) in &facts.type_aliases {
            let _ = writeln!(out, "  alias {alias} = {target}");
        }
        for (name, value) in &facts.string_constants {
            let _ = writeln!(out, "  constant {name} = {value:?}");
        }
        for (i, c) in facts.contexts.iter().enumerate() {
            let kind = match &c.kind {
                CtxKind::Function => "fn".to_string(),
                CtxKind::PoolTask(p) => format!("task({})", project.canonical(p)),
                CtxKind::EventLoop => "event-loop".into(),
                CtxKind::Async => "async".into(),
                CtxKind::Thread => "thread".into(),
                CtxKind::Inline => "inline".into(),
                CtxKind::Deferred => "deferred".into(),
            };
            let kind = match facts.returns_of(i) {
                Some(r) => format!("{kind} returns {r}"),
                None => kind,
            };
            // A factory: the classes of the objects its `return new T(..)` make.
            let kind = match facts.factory_of(i) {
                Some(made) => {
                    let names: Vec<&str> = made
                        .iter()
                        .filter_map(|t| t.candidates.first())
                        .map(|c| c.rsplit('.').next().unwrap_or(c))
                        .collect();
                    format!("{kind} makes {}", names.join(", "))
                }
                None => kind,
            };
            let heat = project.heat(file, i);
            let _ = write!(
                out,
                "  ctx {i} {} {kind} line {} {}",
                project.display_name(file, i),
                project.files[file].line_number(c.head.start),
                heat.as_str()
            );
            if project.model.calls.sections.contains(&(file, i)) {
                out.push_str(" [blocking section]");
            }
            if facts.handshake_fns.contains(&i) {
                out.push_str(" [handshake]");
            }
            // A runtime task whose handle is dropped: no caller awaits it.
            if c.detached {
                out.push_str(" [detached]");
            }
            if let Some(why) = project.model.heats.root_why((file, i)) {
                let _ = write!(out, " ({why})");
            } else if heat == crate::facts::Heat::Cold {
                out.push_str(" (every caller is cold)");
            } else if heat != crate::facts::Heat::Unknown {
                let root = project.model.heats.path((file, i))[0].node;
                let _ = write!(out, " via {}", project.display_name(root.0, root.1));
            }
            // Hot, but only from pool tasks or schedules (`unbounded_queue` reads this).
            if heat == crate::facts::Heat::Hot && !project.model.heats.per_request((file, i)) {
                out.push_str(" [paced]");
            }
            // Only a scheduled job's run reaches it (`unbounded_join` reads this).
            if project.job_run(file, i) {
                out.push_str(" [job]");
            }
            if project.model.heats.first_use((file, i)) {
                out.push_str(" [first use]");
            }
            // Code only dead code reaches: its findings are notes.
            if project.dead_code(file, i) {
                out.push_str(" [uncalled]");
            }
            if project.deprecated(file, i) {
                out.push_str(" [deprecated]");
            }
            // Queue parameters kept on this thread (`unbounded_queue`'s work lists).
            if c.local_params != 0 {
                let bits: Vec<String> = (0..16)
                    .filter(|b| c.local_params & (1 << b) != 0)
                    .map(|b| b.to_string())
                    .collect();
                let _ = write!(out, " [local queue params {}]", bits.join(","));
            }
            out.push('\n');
            let mut callees: Vec<String> = project
                .model
                .calls
                .callees
                .get(&(file, i))
                .into_iter()
                .flatten()
                .map(|e| {
                    let target = &project.files[e.node.0];
                    let head = project.facts[e.node.0].contexts[e.node.1].head.start;
                    format!(
                        "    calls {} at line {} -> {}:{}{}",
                        project.display_name(e.node.0, e.node.1),
                        project.files[file].line_number(e.span.start),
                        target.display,
                        target.line_number(head),
                        if e.timed {
                            " (under a timeout)"
                        } else if facts.method_marks.iter().any(|m| m.2 == e.span) {
                            " (advice, at the annotation)"
                        } else if e.cold_only {
                            " (cold only)"
                        } else if e.once {
                            " (lazy initialization)"
                        } else {
                            ""
                        }
                    )
                })
                .collect();
            callees.extend(
                facts
                    .accept_loop_calls
                    .iter()
                    .filter(|(c, _, _)| *c == i)
                    .map(|(_, span, what)| {
                        format!(
                            "    accept loop awaits {what} at line {}",
                            project.files[file].line_number(span.start)
                        )
                    }),
            );
            callees.sort();
            callees.dedup();
            for c in callees {
                let _ = writeln!(out, "{c}");
            }
        }
        for h in &facts.caller_runs_handlers {
            let _ = writeln!(out, "  rejection handler {h} runs the task");
        }
        for f in &facts.pool_factories {
            let _ = write!(out, "  pool factory {}/{}", f.method, f.arity);
            if f.caller_runs {
                out.push_str(" caller-runs");
            }
            if let Some(i) = f.policy_param {
                let _ = write!(out, " policy from #{i}");
            }
            if f.bounded {
                out.push_str(" bounded");
            }
            out.push('\n');
        }
        for u in &facts.factory_uses {
            if let Some(m) = u.key.strip_prefix(crate::facts::DELEGATE) {
                let _ = writeln!(out, "  pool factory {m} returns {}/{}", u.method, u.arity);
            }
        }
        let made = project.made_pools().filter(|(f, _)| *f == file);
        for (p, how) in facts
            .pools
            .iter()
            .map(|p| (p, ""))
            .chain(made.map(|(_, p)| {
                let how = if p.handler.is_some() {
                    " (its handler class runs the task)"
                } else {
                    " (factory call)"
                };
                (p, how)
            }))
        {
            let _ = write!(
                out,
                "  pool {} = {} at {}{how}",
                p.name,
                project.canonical(&p.key),
                at(file, p.span)
            );
            if p.caller_runs.is_some() {
                out.push_str(" caller-runs");
            }
            if p.bounded {
                out.push_str(" bounded");
            }
            if p.scoped {
                out.push_str(" scoped");
            }
            if p.per_call {
                out.push_str(" per-call");
            }
            out.push('\n');
        }
        for q in facts.queues.iter() {
            let item = q.item.as_deref().map(crate::facts::item_key);
            let keys: Vec<&str> = q
                .keys
                .iter()
                .map(String::as_str)
                .chain(item.as_deref())
                .collect();
            if let Some((call, index)) = q.handed_to {
                let _ = writeln!(
                    out,
                    "  queue {} handed as argument {index} to the call at {}",
                    q.what,
                    at(file, call)
                );
            }
            for (call, index) in &q.kept_by {
                let _ = writeln!(
                    out,
                    "  queue {} sender handed as argument {index} to the call at {}",
                    q.what,
                    at(file, *call)
                );
            }
            if keys.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "  queue {} known as {} at {}{}",
                q.what,
                keys.join(", "),
                at(file, q.span),
                if q.free_list { ", a free list" } else { "" }
            );
        }
        for s in &facts.queue_sends {
            let _ = writeln!(
                out,
                "  put into {} at {} from {}",
                s.key,
                at(file, s.span),
                project.display_name(file, s.ctx)
            );
        }
        for s in &facts.submissions {
            let linked = project.pool(&s.pool).is_some();
            let _ = writeln!(
                out,
                "  submit {} to {}{}{} at {} from {}{}{}",
                s.what,
                project.canonical(&s.pool),
                if linked { "" } else { " (no definition)" },
                if s.forkjoin { " (a ForkJoinPool)" } else { "" },
                at(file, s.span),
                project.display_name(file, s.ctx),
                match (s.waited, s.waited_at) {
                    (Some(_), _) => ", waited".to_string(),
                    (None, Some(w)) => format!(", waited by a helper at {}", at(file, w)),
                    (None, None) => String::new(),
                },
                if s.detached { ", handle dropped" } else { "" }
            );
        }
        for c in facts.clients.iter().filter(|c| !c.requests.is_empty()) {
            let requests: Vec<String> = c.requests.iter().map(|s| at(file, *s)).collect();
            let _ = writeln!(
                out,
                "  client at {} in {}, requests at {}",
                at(file, c.span),
                project.display_name(file, c.ctx),
                requests.join(", ")
            );
        }
        for c in facts.clients.iter() {
            let Some(b) = c.bean.and_then(|i| facts.client_beans.get(i as usize)) else {
                continue;
            };
            let _ = writeln!(
                out,
                "  client bean {} ({}) at {}",
                b.names.join(" / "),
                b.ty,
                at(file, c.span)
            );
        }
        for b in &facts.client_beans {
            let _ = writeln!(out, "  bean {} ({})", b.names.join(" / "), b.ty);
        }
        for c in &facts.clients {
            if let Some(by) = &c.built_by {
                let _ = writeln!(
                    out,
                    "  builder at {} handed to the call at {} (argument {}) to be built",
                    at(file, c.span),
                    at(file, by.call),
                    by.arg
                );
            }
            if let Some(bounds) = &c.unbuilt {
                let _ = writeln!(
                    out,
                    "  builder at {} returned unbuilt, bounded by any of [{}]",
                    at(file, c.span),
                    bounds.join(", ")
                );
            }
            if let Some((from, entry)) = &c.returned_by {
                let _ = writeln!(
                    out,
                    "  client at {} ({entry}) returned by {from}",
                    at(file, c.span)
                );
            }
            if let Some(name) = &c.static_item {
                let _ = writeln!(
                    out,
                    "  client at {} kept in static {name}",
                    at(file, c.span)
                );
            }
            if let Some((call, arg)) = c.handed_to {
                let _ = writeln!(
                    out,
                    "  client at {} handed as argument {arg} to the call at {}",
                    at(file, c.span),
                    at(file, call)
                );
            }
        }
        for (name, timed) in &facts.static_requests {
            let how = if *timed { "with" } else { "without" };
            let _ = writeln!(out, "  request on static {name}, {how} a timeout");
        }
        for s in &facts.client_sources {
            let _ = writeln!(
                out,
                "  client taken from {} at {}, each request bounded for [{}]",
                s.from,
                at(file, s.span),
                s.bounded.join(", ")
            );
        }
        for u in &facts.builder_uses {
            let _ = writeln!(
                out,
                "  {} builds the builder the call at {} returns, setting {}",
                project.display_name(file, u.ctx),
                at(file, u.call),
                u.sets.join(", ")
            );
        }
        for f in &facts.finishers {
            let _ = writeln!(
                out,
                "  {} builds parameter {} at {}, setting {}",
                project.display_name(file, f.ctx),
                f.param,
                at(file, f.span),
                f.sets.join(", ")
            );
        }
        for call in &facts.bounded_takes {
            let _ = writeln!(
                out,
                "  the client the call at {} may return is bounded where it is taken",
                at(file, *call)
            );
        }
        let java = project.files[file].language == crate::source::Language::Java;
        for k in facts.keepers.iter().filter(|k| k.sender.is_none()) {
            if java {
                let _ = writeln!(
                    out,
                    "  {} sets a per-call deadline on parameter {} at {}",
                    project.display_name(file, k.ctx),
                    k.param,
                    at(file, k.span),
                );
                continue;
            }
            let timed = if k.timed { ", every request timed" } else { "" };
            let _ = writeln!(
                out,
                "  {} keeps parameter {} in a field at {}{timed}",
                project.display_name(file, k.ctx),
                k.param,
                at(file, k.span),
            );
        }
        for k in &facts.keepers {
            if let Some(key) = &k.sender {
                let _ = writeln!(
                    out,
                    "  {} keeps sender parameter {} as {key}",
                    project.display_name(file, k.ctx),
                    k.param
                );
            }
        }
        for f in &facts.client_fields {
            let requests: Vec<String> = f.requests.iter().map(|s| at(file, *s)).collect();
            let how = if f.qualified { "qualified " } else { "" };
            let handed: String = f
                .handed
                .iter()
                .map(|(s, i)| format!(", handed as argument {i} at {}", at(file, *s)))
                .collect();
            let per_call = if f.per_call { ", set per call" } else { "" };
            let _ = writeln!(
                out,
                "  injected {} {how}{}, requests at {}{handed}{per_call}",
                f.ty,
                f.bean,
                requests.join(", ")
            );
        }
        for w in &facts.waits {
            let at_wait = (file, w.span.start);
            let typed = w.by_call && project.model.typed_waits.contains(&at_wait);
            let member = w.by_call
                && facts
                    .member_waits
                    .iter()
                    .any(|(_, s)| s.start == w.span.start);
            // Recorded in a side table of waits (by index) the model confirms.
            let listed = |ids: Vec<u32>| {
                w.by_call
                    && ids.iter().any(|&i| {
                        facts
                            .waits
                            .get(i as usize)
                            .is_some_and(|x| x.span == w.span)
                    })
            };
            let field = listed(facts.field_waits.iter().map(|x| x.0).collect());
            let result = listed(facts.result_waits.iter().map(|x| x.0).collect());
            let how = if project.model.promise_waits.contains(&at_wait) {
                " on a bounded promise (I/O callback or invocation deadline)"
            } else if field && typed {
                " on a field another file declares of a waited type"
            } else if field {
                " on a field another file does not declare of a waited type"
            } else if result && typed {
                " on what a project function is declared to return, of a waited type"
            } else if result {
                " on what a project function returns, not declared of a waited type"
            } else if member && typed {
                " on a project class that is a future"
            } else if member {
                " on a project class not known to be a future"
            } else if typed {
                " on a call's result (every target returns a future)"
            } else if w.by_call {
                " on a call's result (no target known to return a future)"
            } else if project.model.library_waits.contains(&at_wait) {
                " on library calls only (no pool work of the project's)"
            } else if w.timed {
                " timed"
            } else if w.forkjoin {
                " on a ForkJoinTask"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "  wait {} {:?}{how} at {} in {}",
                w.what,
                w.kind,
                at(file, w.span),
                project.display_name(file, w.ctx)
            );
        }
    }
    out
}
