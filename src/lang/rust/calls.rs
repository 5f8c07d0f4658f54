//! Calls in Rust code: channel constructors (queues), submissions to pools and
//! threads, blocking waits, awaited task handles, and the calls rules follow;
//! plus what an expression holds.

use syn::visit::Visit;

use super::eval::eval_int;
use super::extract::{line, span, Extractor};
use super::spans;
use super::types::{PoolRef, Value};
use crate::catalog::{RunsOn, WaitCatalogKind};
use crate::catalog::{SubmitEntry, WaitEntry};
use crate::facts::{Bound, Call, CallExtra, CtxKind, Queue, Submission, Wait};
use crate::source::Span;

/// Where a closure argument of a call runs.
enum Runs {
    Pool {
        key: String,
        name: String,
        install: bool,
        rayon: bool,
    },
    Async,
    Thread,
    Scope(Option<String>),
}

impl<'a> Extractor<'a> {
    fn resolve_path(&self, path: &syn::Path) -> Option<String> {
        let catalog = self.catalog;
        self.types.imports.resolve(path, &|p| catalog.knows(p))
    }

    /// A free-function call: `mpsc::channel()`, `rayon::spawn(..)`, `block_on(..)`, `helper(..)`.
    pub(super) fn call(&mut self, c: &syn::ExprCall) {
        let path = match &*c.func {
            syn::Expr::Path(p) if p.qself.is_none() => Some(&p.path),
            _ => None,
        };
        let full = path.and_then(|p| self.resolve_path(p));
        let cspan = fn_call_span(c);
        if let (Some(full), Some(p)) = (&full, path) {
            self.queue(c, full, p);
            if self.catalog.data.request_timeouts.contains(full) {
                self.facts.request_timeout = true;
            }
        }
        let entry = full.as_deref().and_then(|f| {
            self.catalog
                .data
                .submits
                .iter()
                .find(|e| e.call.iter().any(|x| x == f))
        });
        let runs = entry.and_then(|e| self.runs(e, None));
        self.visit_expr(&c.func);
        let sub = runs
            .as_ref()
            .and_then(|r| self.record_submission(r, cspan, spans::call(c)));
        if self.awaited_call == c as *const _ as usize {
            self.awaited_submissions.extend(sub);
        }
        // `tokio::time::timeout(d, f)` (or a crate's own `timeout`), or a project
        // function named for a timeout (`pending_session_with_timeout(d, connect(..))`).
        let wrapper = full.as_deref().is_some_and(|f| self.is_client_wrapper(f))
            || (full.is_none() && path.is_some_and(super::clients::timeout_helper));
        self.timeout_wrapped += usize::from(wrapper);
        if wrapper && c.args.iter().any(|a| self.runs_next(a)) {
            self.facts.request_timeout = true;
        }
        // A call of a function of this project: its closures may become pool tasks there.
        // (`graph::spawn_thread(name, move || ..)` in another crate of the workspace.)
        let project_fn = runs.is_none()
            && full.as_deref().is_none_or(|f| !self.catalog.knows(f))
            && path.is_some_and(|p| {
                let first = p.segments.first().map(|s| s.ident.to_string());
                p.segments.len() == 1
                    || first.is_some_and(|f| self.is_own_module(&f) || f == "Self")
            });
        let waits_before = self.facts.waits.len();
        let dropped = self.dropped_call == c as *const _ as usize;
        let lambdas = self.visit_args(c.args.iter(), runs.as_ref(), sub, project_fn, dropped);
        let held = self.facts.waits.len() - waits_before;
        self.timeout_wrapped -= usize::from(wrapper);
        if let Some(f) = &full {
            if let Some(w) = self
                .catalog
                .waits_named(f)
                .find(|w| w.call.is_some())
                .cloned()
            {
                let what = short(&path_text(path));
                let origin = c.args.first().and_then(|a| self.value_of(a).origin);
                let at = self.facts.waits.len();
                self.push_wait(cspan, format!("`{what}(..)`"), &w, String::new(), origin);
                if let Some(w) = self.facts.waits.get_mut(at) {
                    w.holds = held as u32;
                }
                // `block_in_place(move || f(conn))` with `f` this function's parameter.
                if w.section {
                    let forwarded = c.args.iter().find_map(|a| match peel_closure(a).1 {
                        syn::Expr::Closure(k) => forwarded_param(&k.body, &self.params),
                        _ => None,
                    });
                    if let (Some(p), Some(ctx)) = (forwarded, self.current_ctx()) {
                        self.facts.section_params.push((ctx, p));
                    }
                }
            }
        }
        if let Some(p) = path {
            self.record_call(p, cspan, lambdas);
            if let Some(last) = p.segments.last() {
                if c.args
                    .iter()
                    .any(|a| matches!(a, syn::Expr::Path(_) | syn::Expr::Closure(_)))
                {
                    self.handler_refs(&last.ident.to_string(), None, c.args.iter(), cspan);
                }
            }
        }
    }

    /// `next.run(req)` with `next` this function's parameter: a middleware running the
    /// rest of the request (`middleware_next`). Also a wrapping endpoint's inner one
    /// given this function's request (poem's `self.ep.call(req)` in `Endpoint::call`).
    fn runs_next(&self, arg: &syn::Expr) -> bool {
        let syn::Expr::MethodCall(m) = arg else {
            return false;
        };
        let is_param = |e: &syn::Expr| match e {
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|id| self.params.iter().any(|x| id == x)),
            _ => false,
        };
        let inner = match &*m.receiver {
            syn::Expr::Field(f) => {
                matches!(&*f.base, syn::Expr::Path(b) if b.path.is_ident("self"))
                    && m.args.first().is_some_and(is_param)
            }
            r => is_param(r),
        };
        inner && (self.catalog.data.middleware_next.iter()).any(|n| m.method == n)
    }

    /// A method call: `pool.spawn(..)`, `rx.recv()`, `handle.join()`, `self.helper()`.
    pub(super) fn method_call(&mut self, m: &syn::ExprMethodCall) {
        self.visit_expr(&m.receiver);
        let recv = self.value_of(&m.receiver);
        let method = m.method.to_string();
        let mspan = method_call_span(m);
        // A static another module declares has no type here. Only rayon's own methods,
        // or `spawn` on a static named as a pool (`pool_name_hints`: `INDEX_POOL`), are
        // taken as a rayon pool's (a runtime or a connection held in a static must not).
        let guessed = recv.ty.is_none()
            && recv.pool.as_ref().is_some_and(|p| {
                matches!(
                    method.as_str(),
                    "install" | "spawn_fifo" | "spawn_broadcast"
                ) || (method == "spawn"
                    && self
                        .catalog
                        .data
                        .pool_name_hints
                        .iter()
                        .any(|h| p.name.contains(h.as_str())))
            });
        let ty = if guessed {
            Some("rayon::ThreadPool")
        } else {
            recv.ty.as_deref()
        };
        let entry = ty.and_then(|t| {
            self.catalog
                .data
                .submits
                .iter()
                .find(|e| e.methods.contains(&method) && self.catalog.matches(&e.on, Some(t)))
        });
        let runs = entry.and_then(|e| self.runs(e, Some(&recv)));
        let sub = runs
            .as_ref()
            .and_then(|r| self.record_submission(r, mspan, spans::method_call(m)));
        if self.awaited_call == m as *const _ as usize {
            self.awaited_submissions.extend(sub);
        }
        let own_type = recv.ty.as_deref().filter(|t| !self.catalog.knows(t));
        let owner = match &*m.receiver {
            syn::Expr::Path(p) if p.path.is_ident("self") => self.impl_type.clone(),
            // A receiver of a project type: `store.load(..)` with `store: Store`.
            _ => own_type
                .and_then(|t| t.rsplit("::").next())
                .filter(|t| t.starts_with(char::is_uppercase))
                .map(str::to_string),
        };
        // `client::Cmd`: the module picks among the project's types named `Cmd`.
        let module = own_type
            .filter(|t| t.contains("::") && owner.is_some())
            .and_then(|t| {
                let segs: Vec<String> = t.split("::").map(str::to_string).collect();
                self.types.imports.module_of(&segs)
            });
        let connector = self.catalog.data.connector_methods.contains(&method);
        self.timeout_wrapped += usize::from(connector);
        // A method of this project: its closures may run in a pool or a blocking section there.
        let project_method = runs.is_none() && owner.is_some();
        let dropped = self.dropped_call == m as *const _ as usize;
        let lambdas = self.visit_args(m.args.iter(), runs.as_ref(), sub, project_method, dropped);
        self.timeout_wrapped -= usize::from(connector);
        self.receiver_wait(mspan, &recv, &method, m.args.len(), &m.receiver);
        if m.args
            .iter()
            .any(|a| matches!(a, syn::Expr::Path(_) | syn::Expr::Closure(_)))
        {
            self.handler_refs(&method, chain_crate(&m.receiver), m.args.iter(), mspan);
        }
        if let Some(owner) = owner {
            let mut call = self.call_record(owner, method, mspan, lambdas);
            if let Some(m) = module {
                call.extra_mut().module = Some(m.into());
            }
            self.call_at.insert(key(mspan), self.facts.calls.len());
            self.facts.calls.push(call);
        } else if let (None, Some((ty, field)), false) = (
            &recv.ty,
            &recv.from_field,
            self.types.is_transparent_method(&method),
        ) {
            // `ctx.core.subscribe(..)`: a method of the type of `Context.core`.
            let call = self.call_record(String::new(), method, mspan, lambdas);
            let at = self.facts.calls.len();
            if let Ok(at) = u32::try_from(at) {
                self.facts
                    .field_receivers
                    .push((at, ty.clone(), field.clone()));
            }
            self.call_at.insert(key(mspan), at);
            self.facts.calls.push(call);
        } else if let (None, Some(k), false) = (
            &recv.ty,
            recv.from_call,
            self.types.is_transparent_method(&method),
        ) {
            // `open(..).await?.handle()`: a method of the type `open` returns.
            let call = self.call_record(String::new(), method, mspan, lambdas);
            let at = self.facts.calls.len();
            if let (Ok(at), Ok(k)) = (u32::try_from(at), u32::try_from(k)) {
                self.facts.receivers.push((at, k));
            }
            self.call_at.insert(key(mspan), at);
            self.facts.calls.push(call);
        }
    }

    /// A blocking method called on a value: `rx.recv()`, `handle.join()`, `rx.iter()`.
    pub(super) fn receiver_wait(
        &mut self,
        s: Span,
        recv: &Value,
        method: &str,
        nargs: usize,
        receiver: &syn::Expr,
    ) {
        if recv.complete {
            return;
        }
        let by_result = recv.from_field.is_none()
            && recv.from_call.is_some()
            && (recv.ty.is_none() || recv.call_elem.is_some());
        if by_result || recv.ty.is_none() {
            return self.model_wait(s, recv, method, nargs, receiver);
        }
        // `thread::scope(|s| { ..spawn workers..; rx.iter().sum() })`: a scope body
        // draining a channel of its own function waits for the scope's threads, which
        // the scope joins by design (rules.md).
        let in_body = self
            .scope_body
            .is_some_and(|b| self.current_ctx() == Some(b));
        if in_body && recv.local && recv.created_in.is_some() {
            return;
        }
        let wait = self
            .catalog
            .waits_named(method)
            .find(|w| {
                w.method.is_some()
                    && w.args.contains(&nargs)
                    && self.catalog.matches(&w.on, recv.ty.as_deref())
            })
            .cloned();
        // A hand-rolled pool's worker fetching its next job is the worker loop
        // itself; only what it waits for inside a job counts.
        let exec = self.current_ctx().map(|c| self.execution_of(c));
        let fetch =
            exec.is_some_and(|e| self.hand_rolled.contains(&e) && recv.created_in != Some(e));
        if fetch && wait.is_some() {
            self.job_fetches += 1;
        }
        // A child process waits on a remote only when it runs such a program.
        let remote = |w: &WaitEntry| {
            w.programs.is_empty()
                || self.program_of(receiver).flatten().is_some_and(|p| {
                    let file = p.rsplit(['/', '\\']).next().unwrap_or(&p);
                    let name = file.strip_suffix(".exe").unwrap_or(file);
                    self.catalog.matches(&w.programs, Some(name))
                })
        };
        let wait = wait.filter(remote);
        if let (Some(w), false) = (wait, fetch) {
            let recv_text = short(&expr_text(receiver));
            let what = format!("`{recv_text}.{method}()`");
            self.push_wait(s, what, &w, recv_text, recv.origin);
        }
    }

    /// The program a `Command` (or the `Child` it spawned) runs: `Some(Some(name))` for
    /// `Command::new("git")` along a chain or through a local bound from one,
    /// `Some(None)` when a variable names it, `None` when no `Command` is seen.
    pub(super) fn program_of(&self, e: &syn::Expr) -> Option<Option<String>> {
        match e {
            syn::Expr::MethodCall(m) => self.program_of(&m.receiver),
            syn::Expr::Reference(r) => self.program_of(&r.expr),
            syn::Expr::Paren(p) => self.program_of(&p.expr),
            syn::Expr::Try(t) => self.program_of(&t.expr),
            syn::Expr::Await(a) => self.program_of(&a.base),
            syn::Expr::Call(c) => {
                let syn::Expr::Path(f) = &*c.func else {
                    return None;
                };
                let mut segs = f.path.segments.iter().rev();
                let is_new = segs.next().is_some_and(|s| s.ident == "new")
                    && segs.next().is_some_and(|s| s.ident == "Command");
                if !is_new {
                    return None;
                }
                Some(match c.args.first() {
                    Some(syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    })) => Some(s.value()),
                    _ => None,
                })
            }
            syn::Expr::Path(p) => {
                let id = p.path.get_ident()?;
                self.command_locals
                    .iter()
                    .rev()
                    .find(|(n, _)| id == n)
                    .map(|(_, program)| program.clone())
            }
            _ => None,
        }
    }

    /// A wait on a receiver whose type only the project model can tell, which it
    /// confirms from a declared type; until then it counts as timed:
    /// - `rx.recv()` on what a project function returned (`let (out, rx) =
    ///   Outgoing::new(id)`): from the callee's return type
    ///   ([`crate::facts::FileFacts::wait_returns`]);
    /// - `node.state_changed.wait(guard)` on a field of a project struct another file
    ///   declares: from the field's type ([`crate::facts::FileFacts::field_waits`]).
    fn model_wait(
        &mut self,
        s: Span,
        recv: &Value,
        method: &str,
        nargs: usize,
        receiver: &syn::Expr,
    ) {
        enum Confirm {
            Result(u32, u8),
            Field(Box<str>, Box<str>),
        }
        let confirm = match (&recv.from_field, recv.from_call.map(u32::try_from)) {
            (None, Some(Ok(call))) => match recv.call_elem.map(u8::try_from) {
                None => Confirm::Result(call, u8::MAX),
                Some(Ok(e)) if e < u8::MAX => Confirm::Result(call, e),
                Some(_) => return,
            },
            (None, _) => return,
            (Some((st, field)), _) => Confirm::Field(st.clone(), field.clone()),
        };
        let Some((idx, at)) = self.unconfirmed_wait(s, method, nargs, receiver) else {
            return;
        };
        match confirm {
            Confirm::Result(call, elem) => self.facts.result_waits.push((idx, call, elem, at)),
            Confirm::Field(st, field) => self.facts.field_waits.push((idx, st, field, at)),
        }
    }

    /// A wait a catalog method entry may be, on a receiver whose type only the project
    /// model can tell: recorded timed and `by_call`, as (its index in `waits`, the
    /// entry's index).
    fn unconfirmed_wait(
        &mut self,
        s: Span,
        method: &str,
        nargs: usize,
        receiver: &syn::Expr,
    ) -> Option<(u32, u16)> {
        let (i, w) = self
            .catalog
            .waits_named_at(method)
            .find(|(_, w)| w.method.is_some() && w.args.contains(&nargs))?;
        let (at, w) = (u16::try_from(i).ok()?, w.clone());
        let idx = u32::try_from(self.facts.waits.len()).ok()?;
        let recv_text = short(&expr_text(receiver));
        let what = format!("`{recv_text}.{method}()`");
        self.push_wait(s, what, &w, recv_text, None);
        let pushed = self.facts.waits.get_mut(idx as usize)?;
        pushed.timed = true;
        pushed.by_call = true;
        Some((idx, at))
    }

    /// `handle.await` on a task or oneshot created in this function, with no timeout around it.
    pub(super) fn await_expr(&mut self, a: &syn::ExprAwait) {
        self.visit_expr(&a.base);
        let v = self.value_of(&a.base);
        let awaits = &self.catalog.data.awaits;
        if !v.local || v.complete || !self.catalog.matches(&awaits.types, v.ty.as_deref()) {
            return;
        }
        if self.reply_settled(&a.base) {
            return;
        }
        // A variable named like a shutdown or cancel signal is awaited by design.
        if let syn::Expr::Path(p) = &*a.base {
            let name = p
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string().to_ascii_lowercase());
            if name.is_some_and(|n| awaits.signal_words.iter().any(|w| n.contains(w.as_str()))) {
                return;
            }
        }
        let (base, await_end) = (spans::expr(&a.base), a.await_token.span);
        let end = if await_end.start().line == spans::first(&a.base).start().line {
            span(await_end).end
        } else {
            base.end
        };
        let recv_text = short(&expr_text(&a.base));
        let pushed = self.facts.waits.len();
        let entry = WaitEntry {
            on: Vec::new(),
            method: None,
            call: None,
            args: Vec::new(),
            kind: WaitCatalogKind::Result,
            request_path: false,
            exempt_in: Vec::new(),
            bounded_only: false,
            section: false,
            permit: false,
            until: None,
            drained_by: Vec::new(),
            programs: Vec::new(),
            known_pool: false,
            help: awaits.help.clone().unwrap_or_default(),
        };
        self.push_wait(
            Span::new(base.start, end),
            format!("`{recv_text}.await`"),
            &entry,
            recv_text,
            v.origin,
        );
        let actor = self.actor_reply(&a.base);
        if let Some(w) = self.facts.waits.get_mut(pushed).filter(|w| w.reply) {
            w.actor = actor;
        }
    }

    /// Where a submission entry runs its closure, with the pool resolved.
    fn runs(&self, e: &SubmitEntry, recv: Option<&Value>) -> Option<Runs> {
        Some(match e.runs {
            RunsOn::Async => Runs::Async,
            RunsOn::Thread => Runs::Thread,
            RunsOn::Scope => Runs::Scope(e.param_type.clone()),
            RunsOn::Pool | RunsOn::Install => {
                let install = e.runs == RunsOn::Install;
                let rayon_recv = recv
                    .and_then(|r| r.ty.as_deref())
                    .is_some_and(|t| self.catalog.in_group("rayon_pool", t));
                let (key, name, rayon) = match e.pool.as_deref() {
                    Some("current-rayon") => {
                        let key = self
                            .rayon
                            .last()
                            .cloned()
                            .unwrap_or_else(|| "rayon-global".into());
                        let name = self.pool_name(&key);
                        (key, name, true)
                    }
                    Some(p) => (
                        p.to_string(),
                        e.pool_name.clone().unwrap_or_else(|| p.to_string()),
                        false,
                    ),
                    None => {
                        let pool = recv?.pool.clone()?;
                        (pool.key, pool.name, rayon_recv)
                    }
                };
                Runs::Pool {
                    key,
                    name,
                    install,
                    rayon,
                }
            }
        })
    }

    fn pool_name(&self, key: &str) -> String {
        if key == "rayon-global" {
            return "the global rayon pool".into();
        }
        key.rsplit_once(':')
            .map(|(_, n)| n)
            .unwrap_or(key)
            .split('@')
            .next()
            .unwrap_or(key)
            .to_string()
    }

    fn record_submission(&mut self, runs: &Runs, s: Span, whole: Span) -> Option<usize> {
        let (key, name, confirmed, install) = match runs {
            Runs::Pool {
                key, name, install, ..
            } => (key.clone(), name.clone(), true, *install),
            Runs::Thread => (
                format!("thread@{}", s.start),
                "a new thread".to_string(),
                false,
                false,
            ),
            _ => return None,
        };
        let idx = self.facts.submissions.len();
        let ctx = self.ctx_or_file();
        self.facts.submissions.push(Submission {
            span: s,
            what: String::new(),
            pool: key,
            pool_name: name,
            confirmed,
            ctx,
            task: None,
            task_method: None,
            waited: None,
            waited_at: None,
            install,
            task_param: None,
            guarded: false,
            detached: false,
            returned: false,
            task_type: None,
            task_factory: None,
            forkjoin: false,
            parallel_stream: false,
        });
        self.submission_at.insert((whole.start, whole.end), idx);
        Some(idx)
    }

    /// Visit call arguments; closures (and async blocks) run where `runs` says.
    /// Returns the closures given their own context as arguments of a call that is not
    /// a submission (the callee may be a wrapper that hands them to a pool).
    fn visit_args<'e>(
        &mut self,
        args: impl Iterator<Item = &'e syn::Expr>,
        runs: Option<&Runs>,
        sub: Option<usize>,
        force: bool,
        dropped: bool,
    ) -> Vec<(usize, usize)> {
        let mut lambdas = Vec::new();
        if matches!(runs, Some(Runs::Async)) {
            self.tasks_started += 1;
        }
        for (i, arg) in args.enumerate() {
            // `spawn_blocking({ let s = s.clone(); move || work(s) })`: the block's
            // statements run here, its closure is the argument.
            let (setup, arg) = peel_closure(arg);
            for st in setup {
                syn::visit::Visit::visit_stmt(self, st);
            }
            // `pool.spawn(task)` with `task` this function's parameter: a wrapper.
            if let (Some(s), syn::Expr::Path(p)) = (sub, arg) {
                if let Some(id) = p.path.get_ident() {
                    let name = id.to_string();
                    self.facts.submissions[s].task_param =
                        self.params.iter().position(|x| *x == name);
                }
            }
            // `pool.spawn(move || run_in_scope(f))`: a closure that runs or passes on
            // this function's parameter `f` also makes this function a wrapper.
            if let (Some(s), syn::Expr::Closure(c)) = (sub, arg) {
                if self.facts.submissions[s].task_param.is_none() {
                    self.facts.submissions[s].task_param = forwarded_param(&c.body, &self.params);
                }
            }
            let syn::Expr::Closure(c) = arg else {
                let before = self.facts.contexts.len();
                // `tokio::spawn(handle(socket))`: the future a call returns runs as a
                // task, as `tokio::spawn(async move { handle(socket).await })` does (an
                // accept loop's per-connection handler).
                let spawned_call = matches!(runs, Some(Runs::Async))
                    && matches!(
                        super::clients::flatten(arg).root,
                        syn::Expr::Call(_) | syn::Expr::MethodCall(_)
                    );
                if spawned_call {
                    let at = spans::expr(arg);
                    let id = self.push_ctx(CtxKind::Async, "task".into(), at, at);
                    self.facts.contexts[id].once = self.loops == 0;
                    self.facts.contexts[id].detached = dropped;
                    self.ctx.push(id);
                    self.visit_expr(arg);
                    self.ctx.pop();
                    continue;
                }
                self.visit_expr(arg);
                // `tokio::spawn(async move { .. })`: the block is a runtime task; one
                // whose body is a `loop` (a ticker, a reporter) is a background job.
                // `Arbiter::new().spawn(async move { .. })`: the block runs on a thread
                // started for it, with its own event loop.
                // Also through a future adapter (`async move { .. }.instrument(span)`).
                let arg = super::clients::flatten(arg).root;
                if let (syn::Expr::Async(_), Some(Runs::Thread)) = (arg, runs) {
                    if let Some(c) = self.facts.contexts.get_mut(before) {
                        c.entry = dedicated_thread();
                    }
                }
                if let (syn::Expr::Async(a), Some(Runs::Async)) = (arg, runs) {
                    if let Some(c) = self.facts.contexts.get_mut(before) {
                        c.name = "task".into();
                        c.once = self.loops == 0;
                        c.detached = dropped;
                        c.dedicated_loop = a
                            .block
                            .stmts
                            .iter()
                            .any(|s| matches!(s, syn::Stmt::Expr(syn::Expr::Loop(_), _)));
                    }
                    let words = &self.catalog.data.awaits.signal_words;
                    if super::extract::awaits_signal_first(&a.block, &self.signal_locals, words) {
                        if let Some(c) = self.facts.contexts.get_mut(before) {
                            c.entry = Some(Box::new(crate::facts::Entry::new(
                                crate::facts::Heat::Cold,
                                "task that runs after a shutdown signal",
                            )));
                        }
                    }
                }
                continue;
            };
            match runs {
                Some(Runs::Pool { key, rayon, .. }) => {
                    if *rayon {
                        self.rayon.push(key.clone());
                    }
                    let id = self.closure(c, CtxKind::PoolTask(key.clone()), sub, None);
                    if *rayon {
                        self.rayon.pop();
                    }
                    if let Some(s) = sub {
                        self.facts.submissions[s].task = id;
                    }
                }
                Some(Runs::Thread) => {
                    let saved = std::mem::take(&mut self.rayon);
                    if self.loops > 0 && self.inner_loop.conn {
                        // A thread per accepted connection: it serves that connection
                        // alone, a request's own thread, no worker others share.
                        if let Some(id) = self.closure(c, CtxKind::Thread, sub, None) {
                            self.facts.contexts[id].entry = thread_entry(
                                crate::facts::Heat::Hot,
                                "thread spawned for each accepted connection",
                                false,
                            );
                            if let Some(s) = sub {
                                self.facts.submissions[s].task = Some(id);
                            }
                        }
                    } else if self.loops > 0 && !self.inner_loop.paced {
                        // Threads spawned in a loop are a hand-rolled pool's workers
                        // (one a period, from a loop that sleeps: a periodic job's).
                        let key = format!(
                            "{}{}",
                            crate::facts::HAND_ROLLED,
                            span(c.or1_token.span).start
                        );
                        self.next_hand_rolled = true;
                        self.closure(c, CtxKind::PoolTask(key), sub, None);
                    } else if let Some(id) = self.closure(c, CtxKind::Thread, sub, None) {
                        self.facts.contexts[id].entry = if self.loops > 0 {
                            thread_entry(
                                crate::facts::Heat::Cold,
                                "thread started each round of a loop that sleeps",
                                true,
                            )
                        } else {
                            dedicated_thread()
                        };
                        if let Some(s) = sub {
                            self.facts.submissions[s].task = Some(id);
                        }
                    }
                    self.rayon = saved;
                }
                Some(Runs::Async) => {
                    self.closure(c, CtxKind::Async, None, None);
                }
                Some(Runs::Scope(param)) => {
                    let body = self.current_ctx();
                    let saved = std::mem::replace(&mut self.scope_body, body);
                    self.closure(c, CtxKind::Inline, None, param.clone());
                    self.scope_body = saved;
                }
                None => {
                    self.force_closure_ctx = force;
                    let kind = self.inline_or_deferred(c);
                    if let Some(id) = self.closure(c, kind, None, None) {
                        lambdas.push((i, id));
                    }
                    self.force_closure_ctx = false;
                }
            }
        }
        lambdas
    }

    /// Record a blocking wait, and link it to the submission it waits for: the
    /// handle's origin, or the latest submission made earlier in the same task.
    fn push_wait(
        &mut self,
        s: Span,
        what: String,
        w: &WaitEntry,
        recv_text: String,
        origin: Option<usize>,
    ) {
        if w.exempt_in.contains(&self.method) {
            return;
        }
        let ctx = self.ctx_or_file();
        let exec = self.execution_of(ctx);
        // A thread the function started itself is not a pool hand-off ("submit then wait").
        let origin = origin.filter(|&o| self.facts.submissions[o].confirmed);
        let submission = origin.or_else(|| {
            self.facts
                .submissions
                .iter()
                .rposition(|sub| {
                    sub.confirmed
                        && sub.span.start < s.end
                        && self.execution_of(sub.ctx) == exec
                        && sub.waited.is_none()
                })
                // (Not one whose handle was awaited where it was made: `spawn_blocking(..).await`.)
                .filter(|i| !self.awaited_submissions.contains(i))
        });
        // `while let Ok(job) = rx.recv()` with nothing handed off before it here: a
        // consumer loop fetching its next item (waiting is its job).
        if self.loop_head > 0 && submission.is_none() {
            return;
        }
        let idx = self.facts.waits.len();
        if let Some(sub) = submission {
            self.facts.submissions[sub].waited.get_or_insert(idx);
        }
        self.facts.waits.push(Wait {
            span: s,
            ctx,
            what,
            kind: w.kind.into(),
            // `.await` in a `select!` arm beside a timer arm, or inside the future a
            // timeout wraps (`timeout(d, async move { rx.await })`).
            timed: (self.timer_raced > 0 || self.timeout_wrapped > 0)
                && w.method.is_none()
                && w.call.is_none(),
            submission,
            help: w.help.replace("{recv}", &recv_text),
            needs_worker: true,
            consumer: false,
            reply: w.method.is_none() && w.call.is_none(),
            actor: false,
            handshake: false,
            holds: 0,
            permit: false,
            by_call: false,
            counted_by: None,
            cancels: false,
            forkjoin: false,
            until: w.until.as_deref().map(Into::into),
        });
    }

    /// The nearest enclosing context that is not an inline closure.
    pub(super) fn execution_of(&self, mut ctx: usize) -> usize {
        while self
            .facts
            .contexts
            .get(ctx)
            .is_some_and(|c| c.kind == CtxKind::Inline)
        {
            match self.facts.contexts[ctx].parent {
                Some(p) => ctx = p,
                None => break,
            }
        }
        ctx
    }

    /// The module a path names its function or type through (`db::load`, or
    /// `Client::new()` after `use reqwest::{Client, ..}`: the `use` names it).
    pub(super) fn path_module(&self, segs: &[String], free: bool) -> Option<String> {
        if free {
            self.types.imports.module_of(segs)
        } else {
            (segs.len() >= 2)
                .then(|| self.types.imports.module_of(&segs[..segs.len() - 1]))
                .flatten()
        }
    }

    /// `helper(..)` or `Self::helper(..)`: a call rules may follow.
    fn record_call(&mut self, p: &syn::Path, s: Span, lambda_args: Vec<(usize, usize)>) {
        let segs = super::resolve::segments(p);
        let (owner, name) = match segs.as_slice() {
            [name] => (String::new(), name.clone()),
            [t, name] if t == "Self" => (self.impl_type.clone().unwrap_or_default(), name.clone()),
            // `Store::open(..)`, `crate::db::Store::open(..)`: an associated function.
            [.., t, name] if t.starts_with(char::is_uppercase) => (t.clone(), name.clone()),
            // `crate::db::load(..)`, `db::load(..)`: a function of another module.
            [first, .., name] if self.is_own_module(first) => (String::new(), name.clone()),
            _ => return,
        };
        // `async_bb8_diesel::Connection::new(..)`: the type's module path too (also
        // through its `use`), so the model does not take a library's type for the
        // project's of the same name.
        let module = self.path_module(&segs, owner.is_empty());
        // `fs::rename(..)` after `use std::fs`: no project function.
        if let Some(m) = &module {
            if !self.is_own_module(m.split("::").next().unwrap_or_default()) {
                return;
            }
        }
        let mut call = self.call_record(owner, name, s, lambda_args);
        if let Some(m) = module {
            call.extra_mut().module = Some(m.into());
        }
        self.call_at.insert(key(s), self.facts.calls.len());
        self.facts.calls.push(call);
    }

    /// A call record here: `owner::name` ("" for a free function).
    pub(super) fn call_record(
        &mut self,
        owner: String,
        name: String,
        s: Span,
        lambdas: Vec<(usize, usize)>,
    ) -> Call {
        let ctx = self.ctx_or_file();
        Call {
            span: s,
            ctx,
            method: name.into(),
            receiver_type: None,
            callee_owner: Some(owner.into()),
            returned: false,
            target: None,
            in_loop: self.loops > 0,
            submit_like: false,
            extra: (!lambdas.is_empty()).then(|| {
                Box::new(CallExtra {
                    lambda_args: lambdas.into(),
                    ..CallExtra::default()
                })
            }),
            args: None,
            literals: 0,
            timed: self.timeout_wrapped > 0,
            once: false,
            detached: false,
        }
    }

    /// A channel constructor: `unbounded_queue`'s fact.
    fn queue(&mut self, c: &syn::ExprCall, full: &str, p: &syn::Path) {
        let Some(entry) = self.catalog.queue_call(full) else {
            return;
        };
        let bound = match entry.capacity_arg {
            None => Bound::Unbounded,
            Some(i) => match c.args.iter().nth(i) {
                None => Bound::Unbounded,
                Some(arg) => eval_int(arg, &self.consts)
                    .map(Bound::Capacity)
                    .unwrap_or(Bound::Unknown),
            },
        };
        let written = path_text(Some(p));
        let what = if written == full {
            format!("`{written}()`")
        } else {
            format!("`{written}()` (`{full}`)")
        };
        self.facts.queues.push(Queue {
            span: spans::call(c),
            what,
            bound,
            why: entry.why.clone(),
            help: entry.help.clone(),
            related: None,
            ctx: self.current_ctx(),
            argument_of: None,
            executor: false,
            keys: Vec::new(),
            item: turbofish_item(p).map(Into::into),
            timers: false,
            configured: bound == Bound::Unbounded && self.bounded_sibling > 0,
            reply: false,
            handed_to: None,
            kept_by: Vec::new(),
            free_list: false,
            batched: false,
        });
    }

    /// Whether code creates the bounded form of some catalogued channel
    /// (`mpsc::channel(cap)`), so an unbounded one beside it is a configured choice.
    /// `visit` walks the code with the finder it is given.
    pub(super) fn creates_bounded_channel(&self, visit: impl FnOnce(&mut BoundedFinder)) -> bool {
        self.has_bounded_channels && self.find_bounded(visit)
    }

    fn find_bounded(&self, visit: impl FnOnce(&mut BoundedFinder)) -> bool {
        let mut f = BoundedFinder {
            x: self,
            found: false,
        };
        visit(&mut f);
        f.found
    }

    /// Before the walk: whether the file creates any bounded channel. A file that never
    /// names a bounded constructor (its last path segment, from the catalog) has none
    /// and skips the extra walk.
    pub(super) fn note_bounded_channels(&mut self, text: &str, file: &syn::File) {
        let named = self
            .catalog
            .data
            .queues
            .iter()
            .filter(|q| q.capacity_arg.is_some())
            .filter_map(|q| q.call.as_deref()?.rsplit("::").next())
            .any(|name| text.contains(name));
        self.has_bounded_channels =
            named && self.find_bounded(|f| syn::visit::Visit::visit_file(f, file));
    }

    /// What an expression holds.
    /// A static by name: its type and pool when this file declares it; a static pool
    /// another module declares is named `static:NAME` too, and counts once linking
    /// finds its definition.
    fn static_value(&self, name: &str) -> Value {
        let screaming = name.len() > 1
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
        if !screaming {
            return Value::default();
        }
        let key = format!("static:{name}");
        match self.types.statics.get(name) {
            Some((ty, _)) => Value {
                pool: self.catalog.in_group("pool", ty).then(|| PoolRef {
                    key,
                    name: name.to_string(),
                }),
                ty: Some(ty.clone()),
                ..Value::default()
            },
            None => Value {
                pool: Some(PoolRef {
                    key,
                    name: name.to_string(),
                }),
                ..Value::default()
            },
        }
    }

    pub(super) fn value_of(&self, e: &syn::Expr) -> Value {
        match e {
            syn::Expr::Path(p) if p.qself.is_none() => match p.path.get_ident() {
                Some(id) if id == "self" => Value {
                    ty: self.impl_type.clone(),
                    ..Value::default()
                },
                Some(id) => {
                    let name = id.to_string();
                    match self.scopes.get(&name) {
                        Some(v) => v.clone(),
                        None => self.static_value(&name),
                    }
                }
                None => match p.path.segments.last() {
                    Some(last) => self.static_value(&last.ident.to_string()),
                    None => Value::default(),
                },
            },
            syn::Expr::Field(f) => {
                let syn::Member::Named(name) = &f.member else {
                    // `self.pair.1`: an element of a tuple-typed field.
                    return match (&*f.base, &f.member) {
                        (syn::Expr::Field(inner), syn::Member::Unnamed(i)) => {
                            self.tuple_field(inner, i.index as usize)
                        }
                        _ => Value::default(),
                    };
                };
                let base = self.value_of(&f.base);
                let Some(owner) = base.ty else {
                    return Value::default();
                };
                let owner = owner.rsplit("::").next().unwrap_or_default().to_string();
                let Some(ty) = self
                    .types
                    .fields
                    .get(&(owner.clone(), name.to_string()))
                    .cloned()
                else {
                    // A struct of the project declared elsewhere: the model knows its fields.
                    let declared_here = self.types.declares(&owner);
                    return Value {
                        from_field: (!declared_here && !self.catalog.knows(&owner))
                            .then(|| (owner.into(), name.to_string().into())),
                        ..Value::default()
                    };
                };
                let pool = self.catalog.in_group("pool", &ty).then(|| PoolRef {
                    key: format!("field:{owner}.{name}"),
                    name: name.to_string(),
                });
                Value {
                    ty: Some(ty),
                    pool,
                    ..Value::default()
                }
            }
            // `state::Cli { .. }`: a value of the project's struct (`Self { .. }`: the
            // impl's type).
            syn::Expr::Struct(st) if st.qself.is_none() => {
                let segs = super::resolve::segments(&st.path);
                let named = segs.last().is_some_and(|l| {
                    l.starts_with(char::is_uppercase) && l != "Self" && !self.catalog.knows(l)
                });
                let own = matches!(segs.as_slice(), [s] if s == "Self");
                Value {
                    ty: if own {
                        self.impl_type.clone()
                    } else {
                        named.then(|| segs.join("::"))
                    },
                    local: true,
                    ..Value::default()
                }
            }
            syn::Expr::Reference(r) => self.value_of(&r.expr),
            syn::Expr::Paren(p) => self.value_of(&p.expr),
            syn::Expr::Group(g) => self.value_of(&g.expr),
            syn::Expr::Try(t) => self.value_of(&t.expr),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => self.value_of(&u.expr),
            syn::Expr::Call(c) => self.call_value(c, None),
            syn::Expr::MethodCall(m) => {
                let recv = self.value_of(&m.receiver);
                let method = m.method.to_string();
                if self.types.is_transparent_method(&method) {
                    return recv;
                }
                let ty = recv.ty.as_deref().and_then(|t| {
                    self.catalog.data.returns.iter().find_map(|r| {
                        (r.methods.contains(&method) && self.catalog.matches(&r.on, Some(t)))
                            .then(|| r.r#type.clone())
                            .flatten()
                            .map(|rt| if rt == "self" { t.to_string() } else { rt })
                    })
                });
                Value {
                    from_call: ty
                        .is_none()
                        .then(|| self.call_at.get(&key(method_call_span(m))).copied())
                        .flatten(),
                    ty,
                    origin: self.submission_at.get(&key(spans::method_call(m))).copied(),
                    local: true,
                    ..Value::default()
                }
            }
            // `if let Some(r) = registry { Client::new(&r)? } else { Client::default() }`:
            // the type both branches make.
            syn::Expr::If(i) => {
                let tail = |b: &syn::Block| match b.stmts.last() {
                    Some(syn::Stmt::Expr(e, None)) => Some(self.value_of(e)),
                    _ => None,
                };
                let other = i.else_branch.as_ref().and_then(|(_, e)| match &**e {
                    syn::Expr::Block(b) => tail(&b.block),
                    e @ syn::Expr::If(_) => Some(self.value_of(e)),
                    _ => None,
                });
                match (tail(&i.then_branch), other) {
                    (Some(a), Some(b)) if a.ty.is_some() && a.ty == b.ty => Value {
                        ty: a.ty,
                        local: true,
                        ..Value::default()
                    },
                    _ => Value::default(),
                }
            }
            // `match open(..).await { Ok(c) => c, Err(e) => return .. }`
            syn::Expr::Match(m) => {
                let v = self.value_of(&m.expr);
                let passes = m.arms.iter().any(|a| match (&a.pat, &*a.body) {
                    (syn::Pat::TupleStruct(ts), syn::Expr::Path(body)) => {
                        matches!(ts.elems.first(), Some(syn::Pat::Ident(i)) if body.path.is_ident(&i.ident))
                    }
                    _ => false,
                });
                Value {
                    from_call: v.from_call.filter(|_| passes),
                    ..Value::default()
                }
            }
            // `open(..).await`: what the project function returns; `Client::new(..).await`:
            // the project type an async constructor makes (a library's future awaited
            // gives its output, not its own type).
            syn::Expr::Await(a) => {
                let v = self.value_of(&a.base);
                let made = matches!(&*a.base, syn::Expr::Call(_))
                    && v.ty.as_deref().is_some_and(|t| !self.catalog.knows(t));
                Value {
                    ty: v.ty.filter(|_| made),
                    from_call: v.from_call,
                    ..Value::default()
                }
            }
            _ => Value::default(),
        }
    }

    fn call_value(&self, c: &syn::ExprCall, tuple: Option<usize>) -> Value {
        let syn::Expr::Path(p) = &*c.func else {
            return Value::default();
        };
        let segs = super::resolve::segments(&p.path);
        // `Arc::new(x)`, `Arc::clone(&x)`, `Some(x)`, `Mutex::new(x)`: the value of `x`.
        let transparent = match segs.as_slice() {
            [w] => matches!(w.as_str(), "Some" | "Ok"),
            [.., t, f] => {
                self.types.is_transparent_type(t) && matches!(f.as_str(), "new" | "clone" | "from")
            }
            _ => false,
        };
        if transparent {
            return c.args.first().map(|a| self.value_of(a)).unwrap_or_default();
        }
        let full = self.resolve_path(&p.path);
        let ty = full.as_deref().and_then(|full| {
            self.catalog.data.returns.iter().find_map(|r| {
                (r.call.iter().any(|c| c == full) && r.tuple_index == tuple)
                    .then(|| r.r#type.clone())
                    .flatten()
            })
        });
        let ty = ty.or_else(|| self.constructed(&p.path, &segs));
        // An element of a tuple a constructor returns is typed as the constructor's
        // type, a guess (`Writer::new(..)` returning `(Sender<..>, Writer)`): a wait
        // on it is judged by the element's declared type instead (`result_wait`).
        let from_call = (ty.is_none() || tuple.is_some())
            .then(|| self.call_at.get(&key(fn_call_span(c))).copied())
            .flatten();
        Value {
            from_call,
            call_elem: from_call.and(tuple),
            ty,
            origin: self.submission_at.get(&key(spans::call(c))).copied(),
            local: true,
            ..Value::default()
        }
    }

    /// `App::new(..)`, `Cli::parse()`: a constructor of a project type (declared here or
    /// named through the project's modules) makes that type.
    fn constructed(&self, path: &syn::Path, segs: &[String]) -> Option<String> {
        let [.., t, f] = segs else {
            return None;
        };
        let ctor = matches!(
            f.as_str(),
            "new"
                | "default"
                | "parse"
                | "parse_from"
                | "try_parse"
                | "try_parse_from"
                | "from_args"
        );
        if !ctor || !t.starts_with(char::is_uppercase) || self.catalog.knows(t) {
            return None;
        }
        if segs.len() == 2 {
            let imports = &self.types.imports;
            return if imports.is_local(t) {
                Some(t.clone())
            } else {
                imports.project_import(t)
            };
        }
        let mut path = path.clone();
        path.segments.pop();
        let ty = syn::Type::Path(syn::TypePath { qself: None, path });
        self.types.project_path(&ty).filter(|p| p.contains("::"))
    }

    /// Element `i` of the tuple an initializer returns: `let (tx, rx) = mpsc::channel()`.
    pub(super) fn tuple_value(&self, init: &syn::Expr, i: usize) -> Value {
        match init {
            syn::Expr::Reference(r) => self.tuple_value(&r.expr, i),
            syn::Expr::Paren(p) => self.tuple_value(&p.expr, i),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                self.tuple_value(&u.expr, i)
            }
            syn::Expr::Field(f) => self.tuple_field(f, i),
            syn::Expr::Call(c) => self.call_value(c, Some(i)),
            syn::Expr::Try(t) => self.tuple_value(&t.expr, i),
            syn::Expr::MethodCall(m) if self.types.is_transparent_method(&m.method.to_string()) => {
                self.tuple_value(&m.receiver, i)
            }
            _ => Value::default(),
        }
    }
}

impl Extractor<'_> {
    /// Element `i` of a tuple-typed field (`self.pair` with `pair: Arc<(Mutex<bool>,
    /// Condvar)>`), as the struct declares it.
    fn tuple_field(&self, f: &syn::ExprField, i: usize) -> Value {
        let syn::Member::Named(name) = &f.member else {
            return Value::default();
        };
        let Some(owner) = self.value_of(&f.base).ty else {
            return Value::default();
        };
        let owner = owner.rsplit("::").next().unwrap_or_default().to_string();
        Value {
            ty: self
                .types
                .fields
                .get(&(owner, format!("{name}.{i}")))
                .cloned(),
            ..Value::default()
        }
    }
}

fn key(s: Span) -> (usize, usize) {
    (s.start, s.end)
}

/// The crate a method chain starts at: `warp` for `warp::path!(..).and(..)` or
/// `warp::post().and(..)`.
fn chain_crate(e: &syn::Expr) -> Option<String> {
    let path = match super::clients::chain_root(e) {
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => &p.path,
            _ => return None,
        },
        syn::Expr::Path(p) => &p.path,
        syn::Expr::Macro(m) => &m.mac.path,
        _ => return None,
    };
    (path.segments.len() > 1).then(|| path.segments[0].ident.to_string())
}

/// A method call's primary span: from the receiver (when on the method name's
/// line) to the end of the call (or of the name, when the arguments run over lines).
pub(super) fn method_call_span(m: &syn::ExprMethodCall) -> Span {
    let name = m.method.span();
    let whole = spans::method_call(m);
    let start = if spans::first(&m.receiver).start().line == line(name) {
        whole.start
    } else {
        span(name).start
    };
    let end = if m.paren_token.span.close().end().line == line(name) {
        whole.end
    } else {
        span(name).end
    };
    Span::new(start, end)
}

/// A function call's primary span: the callee path to the end of the call (or of
/// the path, when the arguments run over lines).
pub(super) fn fn_call_span(c: &syn::ExprCall) -> Span {
    let whole = spans::call(c);
    let func_end = spans::last(&c.func);
    let end = if c.paren_token.span.close().end().line == func_end.end().line {
        whole.end
    } else {
        span(func_end).end
    };
    Span::new(whole.start, end)
}

/// The item type a channel constructor names: `flume::unbounded::<PrefetchMsg>()`
/// -> `PrefetchMsg` (a type of the project's, by its last segment).
fn turbofish_item(p: &syn::Path) -> Option<String> {
    let syn::PathArguments::AngleBracketed(a) = &p.segments.last()?.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(t) => project_item(t),
        _ => None,
    }
}

/// A named type that is no primitive or std wrapper (`PrefetchMsg`, `Event`), by
/// its last segment.
pub(super) fn project_item(t: &syn::Type) -> Option<String> {
    let syn::Type::Path(tp) = t else { return None };
    let last = tp.path.segments.last()?.ident.to_string();
    let std = matches!(
        last.as_str(),
        "String" | "Vec" | "Box" | "Arc" | "Option" | "Result" | "Bytes" | "Value"
    );
    (last.starts_with(char::is_uppercase) && !std).then_some(last)
}

/// The item type of a sender a parameter is declared as: `&flume::Sender<Msg>`,
/// `UnboundedSender<Msg>`, `State<Sender<Msg>>`, `Arc<Sender<Msg>>` -> `Msg`.
pub(super) fn sender_item(t: &syn::Type) -> Option<String> {
    match t {
        syn::Type::Reference(r) => sender_item(&r.elem),
        syn::Type::Paren(p) => sender_item(&p.elem),
        syn::Type::Path(tp) => {
            let last = tp.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                return None;
            };
            let syn::GenericArgument::Type(inner) = a.args.first()? else {
                return None;
            };
            match last.ident.to_string().as_str() {
                "Sender" | "UnboundedSender" | "SyncSender" => project_item(inner),
                "State" | "Arc" | "Extension" | "Data" => sender_item(inner),
                _ => None,
            }
        }
        _ => None,
    }
}

fn path_text(p: Option<&syn::Path>) -> String {
    let Some(p) = p else { return String::new() };
    let segs = super::resolve::segments(p);
    let lead = if p.leading_colon.is_some() { "::" } else { "" };
    format!("{lead}{}", segs.join("::"))
}

fn expr_text(e: &syn::Expr) -> String {
    quote::ToTokens::to_token_stream(e).to_string()
}

/// Source-like text for a message: `self . tiles` -> `self.tiles`, long text elided.
fn short(text: &str) -> String {
    let t = text
        .replace(" . ", ".")
        .replace(" :: ", "::")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace("& ", "&");
    if t.chars().count() > 40 {
        format!("{}..", t.chars().take(37).collect::<String>())
    } else {
        t
    }
}

/// The parameter a closure body calls (`f()`) or passes on as an argument
/// (`Hub::run(hub, f)`): the closure runs it.
fn forwarded_param(body: &syn::Expr, params: &[String]) -> Option<usize> {
    struct Find<'p> {
        params: &'p [String],
        found: Option<usize>,
    }
    impl Find<'_> {
        fn check(&mut self, e: &syn::Expr) {
            if let syn::Expr::Path(p) = e {
                if let Some(id) = p.path.get_ident() {
                    let name = id.to_string();
                    if let Some(i) = self.params.iter().position(|x| *x == name) {
                        self.found.get_or_insert(i);
                    }
                }
            }
        }
    }
    impl<'ast> Visit<'ast> for Find<'_> {
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            self.check(&c.func);
            c.args.iter().for_each(|a| self.check(a));
            syn::visit::visit_expr_call(self, c);
        }
        fn visit_expr_method_call(&mut self, c: &'ast syn::ExprMethodCall) {
            c.args.iter().for_each(|a| self.check(a));
            syn::visit::visit_expr_method_call(self, c);
        }
    }
    if params.is_empty() {
        return None;
    }
    let mut f = Find {
        params,
        found: None,
    };
    f.visit_expr(body);
    f.found
}

impl Extractor<'_> {
    /// Whether a path's first segment can name a module of this crate or workspace
    /// (not the standard library or an external crate the catalog lists).
    fn is_own_module(&self, first: &str) -> bool {
        first.starts_with(char::is_lowercase)
            && !self.catalog.data.external_crates.iter().any(|c| c == first)
    }
}

/// `spawn_blocking({ move || work() })`, `spawn((|| work()))`: the closure a block
/// ends with (and the statements before it) or parentheses hold; anything else as it is.
fn peel_closure(e: &syn::Expr) -> (&[syn::Stmt], &syn::Expr) {
    match e {
        syn::Expr::Paren(p) => match peel_closure(&p.expr) {
            (setup, c @ syn::Expr::Closure(_)) => (setup, c),
            _ => (&[], e),
        },
        syn::Expr::Block(b) if b.label.is_none() => match b.block.stmts.split_last() {
            Some((syn::Stmt::Expr(inner @ syn::Expr::Closure(_), None), setup)) => (setup, inner),
            _ => (&[], e),
        },
        _ => (&[], e),
    }
}

/// Finds a call of a catalogued bounded channel constructor.
pub(super) struct BoundedFinder<'x, 'a> {
    pub(super) x: &'x super::extract::Extractor<'a>,
    pub(super) found: bool,
}

impl<'ast> syn::visit::Visit<'ast> for BoundedFinder<'_, '_> {
    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*c.func {
            let catalog = self.x.catalog;
            let full = self.x.types.imports.resolve(&p.path, &|s| catalog.knows(s));
            self.found |= full
                .and_then(|f| catalog.queue_call(&f))
                .is_some_and(|q| q.capacity_arg.is_some());
        }
        if !self.found {
            syn::visit::visit_expr_call(self, c);
        }
    }
}

/// The entry of code on a thread started for it: a dedicated thread (waiting there is
/// its job), one a loop that sleeps between rounds starts each round (`loop {
/// thread::spawn(check); thread::sleep(day) }`: a periodic job's run, which holds
/// nothing up when it hangs but its own thread), or one per accepted connection (hot:
/// it serves that connection alone).
fn thread_entry(
    heat: crate::facts::Heat,
    why: &str,
    job: bool,
) -> Option<Box<crate::facts::Entry>> {
    Some(Box::new(crate::facts::Entry {
        heat,
        why: why.into(),
        paced: false,
        yields: false,
        job,
        sized_job: false,
        per_event: false,
    }))
}

fn dedicated_thread() -> Option<Box<crate::facts::Entry>> {
    thread_entry(crate::facts::Heat::Cold, "dedicated thread", false)
}
