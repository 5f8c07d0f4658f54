//! One pass over a syn AST that records the facts of a Rust file: the visitor,
//! its scopes and execution contexts. Calls are handled in `calls.rs`.

use rustc_hash::FxHashMap as HashMap;

use proc_macro2::Span as PmSpan;
use syn::visit::Visit;

use super::eval::eval_int;
use super::spans;
use super::types::{PoolRef, Scopes, Types, Value};
use crate::catalog::Indexed;
use crate::facts::Item;
use crate::facts::{Context, CtxId, CtxKind, Entry, FileFacts, Heat};
use crate::source::Span;

/// A call's future kept in a local (`let upload = self.put(..);`): when it is run only
/// under a timeout wrapper (`timeout(d, upload)`), its calls are bounded there.
struct FutureLocal {
    name: String,
    /// The calls its initializer records (indexes into `facts.calls`).
    calls: std::ops::Range<usize>,
    /// Used inside a timeout wrapper.
    timed: bool,
    /// Awaited with no timeout, or moved anywhere else.
    untimed: bool,
}

pub struct Extractor<'a> {
    pub(super) catalog: &'a Indexed,
    /// The file, for same-file summaries looked up on demand.
    pub(super) file: &'a syn::File,
    pub(super) types: Types<'a>,
    pub(super) include_tests: bool,
    pub facts: FileFacts,
    pub(super) consts: HashMap<String, u64>,
    /// The enclosing `impl` type, if any.
    pub(super) impl_type: Option<String>,
    pub(super) scopes: Scopes,
    pub(super) ctx: Vec<CtxId>,
    /// The enclosing function's name (for `exempt_in`).
    pub(super) method: String,
    /// The rayon pools the code runs on, innermost last (for `current-rayon`).
    pub(super) rayon: Vec<String>,
    /// Submission index by the byte range of its call.
    pub(super) submission_at: HashMap<(usize, usize), usize>,
    /// Calls of project functions and methods recorded here, by span: a value bound
    /// from one is typed by its callee's return type in the model.
    pub(super) call_at: HashMap<(usize, usize), usize>,
    /// Loops around the current point, within the current function or closure.
    pub(super) loops: usize,
    /// What the innermost loop around the current point does each round.
    pub(super) inner_loop: InnerLoop,
    /// Thread bodies spawned in a loop: a hand-rolled pool's workers.
    pub(super) hand_rolled: std::collections::HashSet<CtxId>,
    /// The next closure is a hand-rolled pool's worker body.
    pub(super) next_hand_rolled: bool,
    /// How many job fetches of hand-rolled pool workers (their queue's `recv`, `iter`)
    /// were seen: a loop whose head fetches one is the worker's loop.
    pub(super) job_fetches: usize,
    /// Client starts already judged.
    /// Client builder chains already judged (by the start of their root expression).
    pub(super) clients_seen: rustc_hash::FxHashSet<usize>,
    /// Client starts passed whole as an argument of a path call (`build(Client::builder())`),
    /// by the start of the start: that call's span and the argument's index.
    pub(super) handed_builders: rustc_hash::FxHashMap<usize, (Span, u8)>,
    /// The file's functions that return a catalogued client builder
    /// (`fn http() -> reqwest::ClientBuilder`): name -> that builder's `T::new` path,
    /// and the methods the function calls (what it may set on the builder).
    pub(super) builder_fns: HashMap<String, (String, Vec<String>)>,
    /// Requests built inline as a call's argument (`send_json(Client::new().get(url))`),
    /// by their chain's start: that call sends them; they go no further.
    pub(super) handed_requests: rustc_hash::FxHashSet<usize>,
    /// Clients stored away (not local) that a per-request `.timeout(..)` would bound:
    /// indexes into `facts.clients`.
    pub(super) stored_clients: Vec<usize>,
    /// Stored clients with no timeout setting of their own (hyper's) whose keeper
    /// implements a transport-layer trait (`layer_traits`): the stack bounds them.
    pub(super) layered_clients: Vec<usize>,
    /// Stored clients: (client index, the client type it builds, `reqwest::Client`, the
    /// impl it is built in, `Forwarder::new`, whose fields may keep it, and whether its
    /// entry is `fixed`).
    pub(super) stored_types: Vec<(usize, String, Option<String>, bool)>,
    /// The `static` whose initializer is being visited (`CLIENT`).
    pub(super) static_item: Option<String>,
    /// The file calls a method on an upper-case name (`CLIENT.get(url)`): requests on
    /// statics are looked for.
    pub(super) static_calls: bool,
    /// Struct literals of the file, by the struct's name (`Self` named), and the
    /// context each is built in.
    pub(super) struct_literals: Vec<(String, CtxId)>,
    /// The file's text (spans index it).
    pub(super) text: &'a str,
    /// The current function's body names a timeout (`timeout`, `time_out`): only then
    /// can a `let` take a client it bounds ([`FileFacts::bounded_takes`]).
    pub(super) mentions_timeout: bool,
    /// The whole file's span, and the context of code outside any function (a
    /// static's initializer), made when first needed.
    pub(super) file_span: Span,
    file_ctx: Option<CtxId>,
    /// Inside the arguments of a timeout wrapper (`tokio::time::timeout(..)`).
    pub(super) timeout_wrapped: usize,
    /// The context whose loop accepts connections (`listener.accept().await`), while
    /// its body is visited.
    pub(super) accept_loop: Option<CtxId>,
    /// Depth of `select!` arm futures raced against a timer arm: an `.await` there
    /// ends when the timer fires.
    pub(super) timer_raced: usize,
    /// The value a `match` examines, when it is a project call's result.
    pub(super) scrutinee: Option<Value>,
    /// Inside a `while` condition (`while let Ok(job) = rx.recv()`): a consumer
    /// loop fetching its next item, whose wait is the loop's job.
    pub(super) loop_head: usize,
    /// Inside a branch of a `match`/`if` another branch of which creates a bounded
    /// channel: an unbounded one here is the configured alternative.
    pub(super) bounded_sibling: usize,
    /// The function bounds admission itself (it creates a `Semaphore`, or takes a
    /// `capacity` it enforces): an unbounded channel it makes is the bound's storage.
    pub(super) admission: bool,
    /// The file creates some bounded channel (checked once, before the branch checks).
    pub(super) has_bounded_channels: bool,
    /// Inside an impl of a trait whose caller bounds one of its methods: a transport
    /// layer's `call` (`impl Service<..> for Connector`), a pool manager's `connect`.
    pub(super) in_layer: Option<&'static str>,
    /// The trait of the enclosing `impl .. for` (last segment).
    pub(super) impl_trait: Option<String>,
    /// That trait is the project's own (declared here, or named through `crate::`,
    /// `super::`, `self::` or a local module): no library's entry point.
    pub(super) impl_trait_project: bool,
    /// In an impl that carries `#[async_trait]` (also through a crate that re-exports
    /// it: `#[mgmt::async_trait]`): what `Status` names in this file (`mgmt::Status`).
    pub(super) impl_async_status: Option<String>,
    /// The next closure gets a context even if it runs inline.
    pub(super) force_closure_ctx: bool,
    /// Closures stored for later (`Arc::new(move |x| ..)`), by address: they run
    /// where they are called, not where they are built.
    deferred: Vec<*const syn::ExprClosure>,
    /// Calls that are arguments of another call (`pool.execute(Box::new(|| ..))`):
    /// what they build is handed on there, not stored.
    handed_calls: rustc_hash::FxHashSet<*const syn::ExprCall>,
    /// Requests of this function given a timeout of their own
    /// (`*req.timeout_mut() = Some(d)`): a client that executes them is bounded.
    pub(super) timed_requests: Vec<String>,
    /// Futures of this function kept in a local before they run (`let upload =
    /// self.put(..);` then `timeout(d, upload)`).
    future_locals: Vec<FutureLocal>,
    /// Locals of this function bound from a value named for a shutdown or cancel
    /// signal (`let mut srx = shutdown.shutdown_rx();`).
    pub(super) signal_locals: Vec<String>,
    /// Locals of this function holding a `Command` or its `Child`, with the program
    /// named by `Command::new`'s literal (`None`: a variable names it).
    pub(super) command_locals: Vec<(String, Option<String>)>,
    /// Locals of this function holding a connector that carries timeouts (a catalog
    /// `connectors` type: `let c = TimeoutConnector::new(http);`).
    pub(super) connector_locals: Vec<String>,
    /// This file's functions and methods declared to return such a connector.
    pub(super) connector_fns: rustc_hash::FxHashSet<String>,
    /// The enclosing function's parameter names, in order (a wrapper's task parameter).
    pub(super) params: Vec<String>,
    /// Senders of unbounded channels created in this function: variable -> queue index.
    pub(super) senders: Vec<(String, usize)>,
    /// Parameters of this function declared as senders of a project item type
    /// (`tx: &Sender<Msg>`): (name, item).
    pub(super) sender_params: Vec<(String, String)>,
    /// `let (tx, rx) = oneshot::channel()` in this function: (rx, tx).
    pub(super) oneshots: Vec<(String, String)>,
    /// Locals of this function bound to a loopback address (`let addr =
    /// "127.0.0.1:6969".to_string();`): a connect to one never waits on a dead host.
    pub(super) loopback: Vec<String>,
    /// Variables this function passed as a whole argument to a call (`quote(b, tx)`).
    pub(super) handed: Vec<String>,
    /// Oneshot senders whose reply is settled before their receiver is awaited: handed
    /// to a call awaited in place (`self.start(req, tx).await?`: it sent or dropped
    /// it), or moved into a task this function submits (awaiting it is awaiting the
    /// task, as a `JoinHandle` would).
    pub(super) settled: Vec<String>,
    /// Locals made from a oneshot sender by a call (`let slot = outparam(tx)?`):
    /// (local, sender). Moving one into a task moves the sender with it.
    pub(super) carriers: Vec<(String, String)>,
    /// The context a scope body (`thread::scope(|s| ..)`) being visited runs in (its
    /// function's: the body runs inline; the tasks it spawns have their own).
    pub(super) scope_body: Option<CtxId>,
    /// Runtime tasks started so far (`tokio::spawn(..)`): a call that starts one
    /// moves what its arguments name into it, as a submission does.
    pub(super) tasks_started: u32,
    /// The call an enclosing `.await` awaits (its address).
    pub(super) awaited_call: usize,
    /// Submissions whose handle is awaited where they are made (`spawn_blocking(..)
    /// .await`): no later wait is on them.
    pub(super) awaited_submissions: rustc_hash::FxHashSet<usize>,
    /// The call a statement makes and drops the result of (its address): `tokio::spawn(
    /// async move { .. });`, `let _ = spawn(..);`, `spawn(..)?;`.
    pub(super) dropped_call: usize,
    /// An `async` block given straight to `block_on` (its address): the thread that
    /// calls `block_on` drives it, so it runs where that call runs.
    driven_async: usize,
    /// The file is a binary's (`src/bin/`, `build.rs`, `xtask`): its code is cold.
    pub(super) binary: bool,
    /// Functions a cold registrar names (`define_windows_service!(ffi, service_main)`),
    /// with why: this file's functions of those names are cold roots.
    pub(super) cold_registered: Vec<(String, String)>,
}

fn name_span(m: &syn::Macro) -> PmSpan {
    m.path
        .segments
        .last()
        .map_or_else(PmSpan::call_site, |s| s.ident.span())
}

pub use super::spans::{line, span};

/// Whether attributes mark test-only code: `#[test]`, `#[tokio::test]`, `#[cfg(test)]`
/// (also `#[cfg(all(test, not(target_family = "wasm")))]`, `#[cfg(any(test, feature =
/// "test-utils"))]`), or debug-build-only code (`#[cfg(debug_assertions)]`).
pub fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let path = a.path();
        if path.segments.last().is_some_and(|s| s.ident == "test") {
            return true;
        }
        // `test`, or a feature only tests turn on (`feature = "test-utils"`, not
        // `feature = "attestation"`).
        cfg_requires(a, &|m| match m {
            syn::Meta::NameValue(nv) if nv.path.is_ident("feature") => {
                quote::ToTokens::to_token_stream(&nv.value)
                    .to_string()
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| matches!(w, "test" | "tests" | "testing"))
            }
            // Debug builds only (`#[cfg(debug_assertions)]`): never in a release.
            _ => m.path().is_ident("test") || m.path().is_ident("debug_assertions"),
        })
    })
}

/// The outer attributes of an expression statement's expression (`#[cfg(..)] return x;`).
fn expr_attrs(e: &syn::Expr) -> &[syn::Attribute] {
    use syn::Expr as E;
    match e {
        E::Return(x) => &x.attrs,
        E::Call(x) => &x.attrs,
        E::MethodCall(x) => &x.attrs,
        E::Await(x) => &x.attrs,
        E::Try(x) => &x.attrs,
        E::Assign(x) => &x.attrs,
        E::Block(x) => &x.attrs,
        E::If(x) => &x.attrs,
        E::Match(x) => &x.attrs,
        E::Macro(x) => &x.attrs,
        E::Path(x) => &x.attrs,
        E::Struct(x) => &x.attrs,
        _ => &[],
    }
}

/// Whether attributes compile code only for WebAssembly (`#[cfg(target_family =
/// "wasm")]`, `target_arch = "wasm32"`, a `wasm` alias): no threads there, and the
/// browser's fetch owns timeouts.
pub fn is_wasm_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        cfg_requires(a, &|m| match m {
            syn::Meta::Path(p) => p.is_ident("wasm"),
            syn::Meta::NameValue(nv) => {
                let value = quote::ToTokens::to_token_stream(&nv.value).to_string();
                (nv.path.is_ident("target_family") || nv.path.is_ident("target_arch"))
                    && (value == "\"wasm\"" || value == "\"wasm32\"")
            }
            syn::Meta::List(_) => false,
        })
    })
}

/// Whether `attrs` hold `#[allow(.., lint, ..)]`.
fn allows(attrs: &[syn::Attribute], lint: &str) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("allow")
            && a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|lints| lints.iter().any(|l| l.is_ident(lint)))
    })
}

/// Whether `a` is a `#[cfg(..)]` whose predicate holds only when `atom` does:
/// `all(..)` when one part requires it, `any(..)` when every part does, `not(..)` never.
fn cfg_requires(a: &syn::Attribute, atom: &dyn Fn(&syn::Meta) -> bool) -> bool {
    fn requires(m: &syn::Meta, atom: &dyn Fn(&syn::Meta) -> bool) -> bool {
        let syn::Meta::List(list) = m else {
            return atom(m);
        };
        let parts = || {
            list.parse_args_with(
                syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
            )
            .map(|p| p.into_iter().collect::<Vec<_>>())
            .unwrap_or_default()
        };
        if list.path.is_ident("all") {
            parts().iter().any(|p| requires(p, atom))
        } else if list.path.is_ident("any") {
            let parts = parts();
            !parts.is_empty() && parts.iter().all(|p| requires(p, atom))
        } else {
            !list.path.is_ident("not") && atom(m)
        }
    }
    if !a.path().is_ident("cfg") {
        return false;
    }
    a.parse_args::<syn::Meta>()
        .is_ok_and(|m| requires(&m, atom))
}

impl<'a> Extractor<'a> {
    pub fn new(
        catalog: &'a Indexed,
        types: Types<'a>,
        file: &'a syn::File,
        include_tests: bool,
    ) -> Extractor<'a> {
        let mut consts = HashMap::default();
        for item in &file.items {
            if let syn::Item::Const(c) = item {
                if let Some(v) = eval_int(&c.expr, &consts) {
                    consts.insert(c.ident.to_string(), v);
                }
            }
        }
        // Statics holding pools have one identity in the whole project: `static:NAME`.
        let mut facts = FileFacts::default();
        let mut statics: Vec<(&String, &(String, Span))> = types
            .statics
            .iter()
            .filter(|(_, (ty, _))| catalog.in_group("pool", ty))
            .collect();
        statics.sort();
        for (name, (_, at)) in statics {
            facts.pools.push(crate::facts::Pool {
                key: format!("static:{name}"),
                aliases: Vec::new(),
                name: name.clone(),
                span: *at,
                caller_runs: None,
                handler: None,
                bounded: true,
                elastic: false,
                scoped: false,
                per_call: false,
                single: false,
            });
        }
        let builder_fns = builder_fns(file, &types, catalog);
        let connector_fns = connector_fns(file, &types, catalog);
        Extractor {
            catalog,
            file,
            builder_fns,
            types,
            include_tests,
            facts,
            consts,
            impl_type: None,
            scopes: Scopes::default(),
            ctx: Vec::new(),
            method: String::new(),
            rayon: Vec::new(),
            submission_at: HashMap::default(),
            call_at: HashMap::default(),
            loops: 0,
            inner_loop: InnerLoop::default(),
            hand_rolled: Default::default(),
            next_hand_rolled: false,
            job_fetches: 0,
            clients_seen: Default::default(),
            handed_builders: Default::default(),
            handed_requests: Default::default(),
            stored_clients: Vec::new(),
            layered_clients: Vec::new(),
            stored_types: Vec::new(),
            static_item: None,
            struct_literals: Vec::new(),
            text: "",
            mentions_timeout: false,
            static_calls: false,
            file_span: Span::new(0, 0),
            file_ctx: None,
            timeout_wrapped: 0,
            accept_loop: None,
            timer_raced: 0,
            scrutinee: None,
            loop_head: 0,
            bounded_sibling: 0,
            admission: false,
            has_bounded_channels: false,
            in_layer: None,
            impl_trait: None,
            impl_trait_project: false,
            impl_async_status: None,
            force_closure_ctx: false,
            deferred: Vec::new(),
            handed_calls: Default::default(),
            timed_requests: Vec::new(),
            future_locals: Vec::new(),
            signal_locals: Vec::new(),
            command_locals: Vec::new(),
            connector_locals: Vec::new(),
            connector_fns,
            params: Vec::new(),
            senders: Vec::new(),
            oneshots: Vec::new(),
            loopback: Vec::new(),
            handed: Vec::new(),
            settled: Vec::new(),
            carriers: Vec::new(),
            sender_params: Vec::new(),
            tasks_started: 0,
            scope_body: None,
            awaited_call: 0,
            awaited_submissions: rustc_hash::FxHashSet::default(),
            dropped_call: 0,
            driven_async: 0,
            binary: false,
            cold_registered: Vec::new(),
        }
    }

    /// Whether a path names the project's own item: `RequestHandler` after `use
    /// super::RequestHandler`, `dealer::RequestHandler` after `use crate::dealer`, or
    /// one this file declares (a trait is the project's, whatever a library calls its own).
    pub(super) fn names_project_item(&self, p: &syn::Path) -> bool {
        let imports = &self.types.imports;
        p.segments.first().is_some_and(|s| {
            let first = s.ident.to_string();
            matches!(first.as_str(), "crate" | "self" | "super")
                || imports.is_local(&first)
                || imports.project_import(&first).is_some()
        })
    }

    fn skip(&self, attrs: &[syn::Attribute]) -> bool {
        (!self.include_tests && is_test(attrs)) || is_wasm_only(attrs)
    }

    /// A function named as a test helper (`new_for_test`, `client_for_testing`): test
    /// support kept in the library, skipped like `#[cfg(test)]` code.
    fn test_helper(&self, sig: &syn::Signature) -> bool {
        if self.include_tests {
            return false;
        }
        let name = sig.ident.to_string();
        ["_for_test", "_for_tests", "_for_testing"]
            .iter()
            .any(|s| name.ends_with(s))
    }

    /// Mark this file's functions a cold registrar named as cold roots.
    pub fn mark_cold_registered(&mut self) {
        for (name, why) in std::mem::take(&mut self.cold_registered) {
            for c in &mut self.facts.contexts {
                if c.kind == CtxKind::Function && c.name == name && c.entry.is_none() {
                    c.entry = Some(Box::new(Entry::new(Heat::Cold, why.clone())));
                }
            }
        }
    }

    pub(super) fn current_ctx(&self) -> Option<CtxId> {
        self.ctx.last().copied()
    }

    /// The current context, or the file's own for code outside any function (a
    /// static's initializer): every fact names a context that exists.
    pub(super) fn ctx_or_file(&mut self) -> CtxId {
        if let Some(c) = self.current_ctx() {
            return c;
        }
        if let Some(c) = self.file_ctx {
            return c;
        }
        let whole = self.file_span;
        let id = self.push_ctx(CtxKind::Function, "<file>".into(), Span::new(0, 0), whole);
        self.file_ctx = Some(id);
        id
    }

    pub(super) fn push_ctx(
        &mut self,
        kind: CtxKind,
        name: String,
        head: Span,
        body: Span,
    ) -> CtxId {
        let id = self.facts.contexts.len();
        self.facts.contexts.push(Context {
            kind,
            parent: self.ctx.last().copied(),
            name,
            owner: self.impl_type.as_deref().map(std::sync::Arc::from),
            head,
            body,
            submission: None,
            entry: None,
            worker_loop: false,
            dedicated_loop: false,
            once: false,
            detached: false,
            arity: None,
            param_kinds: 0,
            local_params: 0,
            is_static: false,
            is_public: false,
            deprecated: false,
            allows_dead: false,
            test_hook: false,
            annotated: false,
        });
        id
    }

    /// A function or method body in its own context.
    fn function(&mut self, sig: &syn::Signature, block: &syn::Block, attrs: &[syn::Attribute]) {
        let whole = Span::new(span(sig.fn_token.span).start, spans::block(block).end);
        let name = sig.ident.to_string();
        let item = match &self.impl_type {
            Some(t) => format!("{t}::{name}"),
            None => name.clone(),
        };
        self.facts.items.push(Item {
            span: whole,
            name: item.into(),
        });
        let kind = if sig.asyncness.is_some() {
            CtxKind::Async
        } else {
            CtxKind::Function
        };
        let id = self.push_ctx(
            kind,
            name.clone(),
            span(sig.ident.span()),
            spans::block(block),
        );
        // Functions nest (items in blocks) but each runs where it is called.
        self.facts.contexts[id].parent = None;
        self.facts.contexts[id].allows_dead = allows(attrs, "dead_code");
        if let syn::ReturnType::Type(_, ty) = &sig.output {
            // `-> Self` (or `-> Result<Self>`) in an impl: the impl's type.
            let ret = match self.types.return_path(ty) {
                Some(r) if r == "Self" => self.impl_type.clone(),
                r => r,
            };
            if let Some(r) = ret {
                self.facts.returns.push((id, r.into()));
            }
            // `-> Receiver<T>`, `-> (Outgoing, Receiver<T>)`: what a caller may wait on.
            if let Ok(ctx) = u32::try_from(id) {
                match self.types.tuple_elems(ty) {
                    Some(elems) => {
                        for (i, e) in elems.iter().enumerate().take(usize::from(u8::MAX)) {
                            let entries = self.types.wait_entries(e);
                            if let (false, Ok(i)) = (entries.is_empty(), u8::try_from(i)) {
                                self.facts.wait_returns.push((ctx, i, entries));
                            }
                        }
                    }
                    None => {
                        let entries = self.types.wait_entries(ty);
                        if !entries.is_empty() {
                            self.facts.wait_returns.push((ctx, u8::MAX, entries));
                        }
                    }
                }
            }
        }
        self.facts.contexts[id].entry = self
            .entry_for(&name, attrs, sig)
            .or_else(|| periodic_loop(block))
            .map(Box::new);
        // A blocking function that loops until stopped (`fn run(&mut self) { while
        // !stopped { .. } }`): a thread that calls it is dedicated to it.
        self.facts.contexts[id].dedicated_loop =
            sig.asyncness.is_none() && runs_until_stopped(block);
        let saved_ctx = std::mem::replace(&mut self.ctx, vec![id]);
        let saved_method = std::mem::replace(&mut self.method, name);
        let saved_rayon = std::mem::take(&mut self.rayon);
        let saved_loops = std::mem::take(&mut self.loops);
        self.scopes.push();
        let params: Vec<String> = sig
            .inputs
            .iter()
            .map(|input| match input {
                syn::FnArg::Typed(pt) => match &*pt.pat {
                    syn::Pat::Ident(i) => i.ident.to_string(),
                    _ => String::new(),
                },
                syn::FnArg::Receiver(_) => "self".into(),
            })
            .filter(|p| p != "self")
            .collect();
        let saved_params = std::mem::replace(&mut self.params, params);
        let body = spans::block(block);
        let body = self
            .text
            .get(body.start..body.end)
            .unwrap_or_default()
            .as_bytes();
        let mentions = memchr::memmem::find(body, b"timeout").is_some()
            || memchr::memmem::find(body, b"time_out").is_some();
        let saved_mentions = std::mem::replace(&mut self.mentions_timeout, mentions);
        let saved_senders = std::mem::take(&mut self.senders);
        let saved_oneshots = std::mem::take(&mut self.oneshots);
        let saved_loopback = std::mem::take(&mut self.loopback);
        let saved_handed = std::mem::take(&mut self.handed);
        let saved_settled = std::mem::take(&mut self.settled);
        let saved_carriers = std::mem::take(&mut self.carriers);
        let saved_sender_params = std::mem::take(&mut self.sender_params);
        let saved_timed_requests = std::mem::take(&mut self.timed_requests);
        let saved_future_locals = std::mem::take(&mut self.future_locals);
        let saved_signal_locals = std::mem::take(&mut self.signal_locals);
        let saved_command_locals = std::mem::take(&mut self.command_locals);
        let saved_connector_locals = std::mem::take(&mut self.connector_locals);
        let saved_admission = std::mem::replace(&mut self.admission, takes_capacity(sig));
        let first_queue = self.facts.queues.len();
        for input in &sig.inputs {
            if let syn::FnArg::Typed(pt) = input {
                // A parameter of a project type (`conn: &Conn`): calls on it go there.
                // `State(state): State<Arc<AppState>>`: the binding holds the argument.
                let (pat, ty) = match (destructured_arg(&pt.pat, &pt.ty), &*pt.pat) {
                    (Some(inner), syn::Pat::TupleStruct(ts)) if ts.elems.len() == 1 => {
                        (&ts.elems[0], inner)
                    }
                    _ => (&*pt.pat, &*pt.ty),
                };
                // `tx: &Sender<Msg>`: sends on it fill the channel of `Msg`.
                if let (Some(item), Some(name)) = (super::calls::sender_item(ty), binding_name(pat))
                {
                    self.sender_params.push((name, item));
                }
                let ty = self
                    .types
                    .resolve(ty)
                    .or_else(|| self.types.project_path(ty));
                self.bind(
                    pat,
                    Value {
                        ty,
                        ..Value::default()
                    },
                );
            }
        }
        self.visit_block(block);
        // Its unbounded channels are the storage of that bound (a `Semaphore` may come
        // after the channel).
        if self.admission {
            for q in &mut self.facts.queues[first_queue..] {
                q.configured |= q.bound == crate::facts::Bound::Unbounded;
            }
        }
        self.params = saved_params;
        self.mentions_timeout = saved_mentions;
        self.senders = saved_senders;
        self.oneshots = saved_oneshots;
        self.loopback = saved_loopback;
        self.handed = saved_handed;
        self.settled = saved_settled;
        self.carriers = saved_carriers;
        self.sender_params = saved_sender_params;
        self.timed_requests = saved_timed_requests;
        self.signal_locals = saved_signal_locals;
        self.command_locals = saved_command_locals;
        self.connector_locals = saved_connector_locals;
        for l in std::mem::replace(&mut self.future_locals, saved_future_locals) {
            if l.timed && !l.untimed {
                for c in &mut self.facts.calls[l.calls] {
                    c.timed = true;
                }
            }
        }
        self.admission = saved_admission;
        self.scopes.pop();
        self.loops = saved_loops;
        self.rayon = saved_rayon;
        self.method = saved_method;
        self.ctx = saved_ctx;
    }

    /// A closure that runs where it is written, or one stored for later.
    pub(super) fn inline_or_deferred(&mut self, c: &syn::ExprClosure) -> CtxKind {
        match self.deferred.last() {
            Some(&d) if std::ptr::eq(d, c) => {
                self.deferred.pop();
                CtxKind::Deferred
            }
            _ => CtxKind::Inline,
        }
    }

    /// A method named to register a callback for later (`callback_registrations`:
    /// `set_consumer`, `register_handler`, `add_listener`, `on_close`, `subscribe`).
    fn registers(&self, method: &str) -> bool {
        self.catalog
            .data
            .callback_registrations
            .iter()
            .any(|p| method.starts_with(p.as_str()))
    }

    /// Calls among `args` build values handed on to this call, not stored.
    fn hand_on_calls<'e>(&mut self, args: impl Iterator<Item = &'e syn::Expr>) {
        self.handed_calls.extend(args.filter_map(|a| match a {
            syn::Expr::Call(inner) => Some(inner as *const _),
            _ => None,
        }));
    }

    /// A closure body in its own context; `param` types its first parameter.
    pub(super) fn closure(
        &mut self,
        c: &syn::ExprClosure,
        kind: CtxKind,
        submission: Option<usize>,
        param: Option<String>,
    ) -> Option<CtxId> {
        // A closure that runs where its caller runs needs no context of its own, unless
        // it is an argument of a call that may hand it to a pool (`force_closure_ctx`).
        let force = std::mem::take(&mut self.force_closure_ctx);
        let id = (kind != CtxKind::Inline || submission.is_some() || force).then(|| {
            let id = self.push_ctx(
                kind,
                "task".into(),
                span(c.or1_token.span),
                spans::expr(&c.body),
            );
            self.facts.contexts[id].submission = submission;
            if std::mem::take(&mut self.next_hand_rolled) {
                self.hand_rolled.insert(id);
            }
            id
        });
        if let Some(id) = id {
            self.ctx.push(id);
        }
        let saved_loops = std::mem::take(&mut self.loops);
        self.scopes.push();
        for (i, p) in c.inputs.iter().enumerate() {
            let ty = match p {
                syn::Pat::Type(t) => self.types.resolve(&t.ty),
                _ if i == 0 => param.clone(),
                _ => None,
            };
            self.bind(
                p,
                Value {
                    ty,
                    ..Value::default()
                },
            );
        }
        self.visit_expr(&c.body);
        self.scopes.pop();
        self.loops = saved_loops;
        if id.is_some() {
            self.ctx.pop();
        }
        id
    }

    /// Bind a pattern to a value (tuples typed by the call that produced them).
    pub(super) fn bind(&mut self, pat: &syn::Pat, value: Value) {
        self.bind_init(pat, value, None)
    }

    pub(super) fn bind_init(&mut self, pat: &syn::Pat, mut value: Value, init: Option<&syn::Expr>) {
        match pat {
            syn::Pat::Ident(i) => {
                let name = i.ident.to_string();
                if value.local && value.created_in.is_none() {
                    value.created_in = self.current_ctx().map(|c| self.execution_of(c));
                }
                if value.pool.is_none()
                    && value
                        .ty
                        .as_deref()
                        .is_some_and(|t| self.catalog.in_group("pool", t))
                {
                    value.pool = Some(PoolRef {
                        key: format!("local:{name}@{}", span(i.ident.span()).start),
                        name: name.clone(),
                    });
                }
                self.scopes.declare(name, value);
            }
            syn::Pat::Type(t) => {
                // `State(state): State<Arc<AppState>>`: the binding holds the argument.
                if let (Some(inner), syn::Pat::TupleStruct(ts)) =
                    (destructured_arg(&t.pat, &t.ty), &*t.pat)
                {
                    if ts.elems.len() == 1 {
                        value.ty = self
                            .types
                            .resolve(inner)
                            .or_else(|| self.types.project_path(inner));
                        self.bind_init(&ts.elems[0], value, None);
                        return;
                    }
                }
                // `let store: &Store = ctx.context();`: the annotation types the local.
                if let Some(ty) = self
                    .types
                    .resolve(&t.ty)
                    .or_else(|| self.types.project_path(&t.ty))
                {
                    value.ty = Some(ty);
                }
                self.bind_init(&t.pat, value, init);
            }
            syn::Pat::Reference(r) => self.bind_init(&r.pat, value, init),
            syn::Pat::Tuple(t) => {
                for (i, elem) in t.elems.iter().enumerate() {
                    let v = init.map(|e| self.tuple_value(e, i)).unwrap_or_default();
                    self.bind_init(elem, v, None);
                }
            }
            syn::Pat::TupleStruct(ts) => {
                // `Ok(x)` / `Some(x)`: transparent.
                if let Some(first) = ts.elems.first() {
                    self.bind_init(first, value, init);
                }
            }
            _ => {}
        }
    }

    /// A one-field variant pattern of an enum this file declares (`Self::Client(c)`,
    /// `Cmd::Serve(args)`): the binding and the payload's type.
    fn variant_payload<'p>(&self, pat: &'p syn::Pat) -> Option<(&'p syn::Pat, String)> {
        let syn::Pat::TupleStruct(ts) = pat else {
            return None;
        };
        let [binding] = ts.elems.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let segs = super::resolve::segments(&ts.path);
        let [owner, variant] = segs.as_slice() else {
            return None;
        };
        let owner = match owner.as_str() {
            "Self" => self.impl_type.clone()?,
            o => o.to_string(),
        };
        let ty = self.types.variants.get(&(owner, variant.clone()))?;
        Some((binding, ty.clone()))
    }

    /// Names a condition proves finished (`h.is_finished()`) or not (`!h.is_finished()`).
    fn done_checks(&self, cond: &syn::Expr) -> (Vec<String>, Vec<String>) {
        let checks = &self.catalog.data.futures.done_checks;
        let mut done = Vec::new();
        let mut not_done = Vec::new();
        let mut stack = vec![(cond, false)];
        while let Some((e, neg)) = stack.pop() {
            match e {
                syn::Expr::Paren(p) => stack.push((&p.expr, neg)),
                syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
                    stack.push((&u.expr, !neg))
                }
                syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_)) && !neg => {
                    stack.push((&b.left, false));
                    stack.push((&b.right, false));
                }
                syn::Expr::MethodCall(m) if checks.iter().any(|c| m.method == c) => {
                    if let syn::Expr::Path(p) = &*m.receiver {
                        if let Some(id) = p.path.get_ident() {
                            if neg {
                                not_done.push(id.to_string())
                            } else {
                                done.push(id.to_string())
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        (done, not_done)
    }

    fn mark_complete(&mut self, name: &str, here: bool) {
        let mut v = self.scopes.get(name).cloned().unwrap_or_default();
        v.complete = true;
        if here {
            self.scopes.declare(name.to_string(), v);
        } else if let Some(slot) = self.scopes.get_mut(name) {
            *slot = v;
        }
    }
}

impl<'ast> Visit<'ast> for Extractor<'_> {
    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        let outer = self.static_item.replace(s.ident.to_string());
        syn::visit::visit_item_static(self, s);
        self.static_item = outer;
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if self.skip(&f.attrs) || self.test_helper(&f.sig) {
            return;
        }
        let outer = self.impl_type.take();
        let outer_trait = self.impl_trait.take();
        self.function(&f.sig, &f.block, &f.attrs);
        self.impl_trait = outer_trait;
        self.impl_type = outer;
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if is_test(&m.attrs) && m.content.is_none() {
            // `#[path = "unit/x_tests.rs"]`: the file it names, not the module's name.
            let named = m.attrs.iter().find_map(|a| match &a.meta {
                syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) => Some(s.value()),
                    _ => None,
                },
                _ => None,
            });
            let module = named.filter(|p| p.ends_with(".rs"));
            let module = module.unwrap_or_else(|| m.ident.to_string());
            self.facts.test_modules.push(module);
        }
        if is_wasm_only(&m.attrs) && m.content.is_none() {
            self.facts.wasm_modules.push(m.ident.to_string());
        }
        if self.skip(&m.attrs) {
            return;
        }
        if let Some((brace, _)) = &m.content {
            self.facts
                .inline_modules
                .push((m.ident.to_string().into(), span(brace.span.join())));
        }
        syn::visit::visit_item_mod(self, m);
    }

    /// `#[enum_dispatch(AuthClient)] enum AnyAuthClient { Hub(HubAuthClient), .. }`: a
    /// method called on the enum runs its variants' implementations, as on a `dyn`.
    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        let dispatched = e.attrs.iter().any(|a| {
            a.path()
                .segments
                .last()
                .is_some_and(|s| s.ident == "enum_dispatch")
        });
        if dispatched {
            let name = e.ident.to_string();
            for v in &e.variants {
                let syn::Fields::Unnamed(f) = &v.fields else {
                    continue;
                };
                let Some(field) = f.unnamed.first().filter(|_| f.unnamed.len() == 1) else {
                    continue;
                };
                if let syn::Type::Path(p) = &field.ty {
                    if let Some(last) = p.path.segments.last() {
                        self.facts
                            .trait_impls
                            .push((name.clone(), last.ident.to_string()));
                    }
                }
            }
            self.facts.traits.push(name);
        }
        syn::visit::visit_item_enum(self, e);
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.facts.traits.push(t.ident.to_string());
        syn::visit::visit_item_trait(self, t);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if self.skip(&i.attrs) {
            return;
        }
        let name = match &*i.self_ty {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        let outer = std::mem::replace(&mut self.impl_type, name);
        let named = |traits: &[String]| {
            i.trait_.as_ref().is_some_and(|(_, path, _)| {
                path.segments
                    .last()
                    .is_some_and(|s| traits.iter().any(|t| s.ident == t))
            })
        };
        let data = &self.catalog.data;
        let layer = match () {
            _ if named(&data.layer_traits) => Some("call"),
            _ if named(&data.pool_managers) => Some("connect"),
            _ => None,
        };
        let outer_layer = std::mem::replace(&mut self.in_layer, layer);
        let tr = i
            .trait_
            .as_ref()
            .and_then(|(_, p, _)| p.segments.last().map(|s| s.ident.to_string()));
        if let (Some(t), Some(ty)) = (&tr, &self.impl_type) {
            self.facts.trait_impls.push((t.clone(), ty.clone()));
        }
        let outer_trait = std::mem::replace(&mut self.impl_trait, tr);
        let project = i
            .trait_
            .as_ref()
            .is_some_and(|(_, p, _)| self.names_project_item(p));
        let outer_project = std::mem::replace(&mut self.impl_trait_project, project);
        let async_trait = i.attrs.iter().any(|a| {
            a.path()
                .segments
                .last()
                .is_some_and(|s| s.ident == "async_trait")
        });
        let status = async_trait
            .then(|| syn::parse_str::<syn::Type>("Status").ok())
            .flatten()
            .and_then(|t| self.types.resolve(&t));
        let outer_async = std::mem::replace(&mut self.impl_async_status, status);
        syn::visit::visit_item_impl(self, i);
        self.impl_async_status = outer_async;
        self.impl_trait = outer_trait;
        self.impl_trait_project = outer_project;
        self.in_layer = outer_layer;
        self.impl_type = outer;
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if self.skip(&f.attrs) || self.test_helper(&f.sig) {
            return;
        }
        self.function(&f.sig, &f.block, &f.attrs);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            if !self.skip(&f.attrs) {
                self.function(&f.sig, block, &f.attrs);
            }
        }
    }

    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.scopes.push();
        // A block that ends its loop (`..; return Err(e);`, `..; break;`) runs once
        // per entry into it: a thread spawned there is not one of many workers.
        let saved_loops = self.loops;
        for stmt in &b.stmts {
            match stmt {
                syn::Stmt::Expr(syn::Expr::Return(_), _) => self.loops = 0,
                syn::Stmt::Expr(syn::Expr::Break(br), _) if br.label.is_none() => {
                    self.loops = self.loops.saturating_sub(1)
                }
                _ => {}
            }
        }
        for (i, stmt) in b.stmts.iter().enumerate() {
            // `#[cfg(target_family = "wasm")] let res = req.send().await?;`
            // `#[cfg(target_family = "wasm")] return Self::Custom(Client::new());`
            let attrs = match stmt {
                syn::Stmt::Local(l) => &l.attrs[..],
                syn::Stmt::Expr(e, _) => expr_attrs(e),
                syn::Stmt::Macro(m) => &m.attrs[..],
                syn::Stmt::Item(_) => &[],
            };
            if is_wasm_only(attrs) {
                continue;
            }
            // A client bound to a variable: its later statements may configure it.
            if let syn::Stmt::Local(syn::Local {
                pat,
                init: Some(init),
                ..
            }) = stmt
            {
                // `let Ok(ep) = Endpoint::from_shared(u) else { .. }` binds the client too.
                let name = binding_name(pat)
                    .or_else(|| super::clients::unwrapped(pat).map(|i| i.to_string()));
                if let Some(name) = name {
                    // `let ep = match addr { .. => Channel::builder(u), .. }`: each arm's value.
                    let chains = super::clients::branch_chains(&init.expr);
                    self.client_chains(chains, Some((&name, &b.stmts[i + 1..])));
                    if self.mentions_timeout {
                        self.note_bounded_take(&name, &init.expr, &b.stmts[i + 1..]);
                    }
                }
            }
            let queues = self.facts.queues.len();
            let saved_dropped = std::mem::replace(&mut self.dropped_call, dropped_call(stmt));
            self.visit_stmt(stmt);
            self.dropped_call = saved_dropped;
            // `return Err(unimplemented());` ahead of the rest (`#[allow(unreachable_code)]`):
            // what follows never runs.
            if diverges(stmt) {
                break;
            }
            // `let (tx, rx) = unbounded(); .. rx.recv().await`: a reply channel.
            if let (syn::Stmt::Local(l), true) = (stmt, self.facts.queues.len() == queues + 1) {
                let rest = &b.stmts[i + 1..];
                let (tx, rx) = (tuple_name(&l.pat, 0), tuple_name(&l.pat, 1));
                let pair = tx.as_deref().zip(rx.as_deref());
                let streamed = || pair.is_some_and(|(tx, rx)| streamed(tx, rx, rest));
                let own = self.impl_type.as_deref();
                let carried = || pair.is_some_and(|(tx, rx)| carried_stream(tx, rx, own, rest));
                // `let (_, rx) = unbounded_channel();`, or `drop(tx);` next: the sender
                // is dropped at once.
                let unsent = tuple_wild(&l.pat, 0)
                    || tuple_name(&l.pat, 0).is_some_and(|tx| dropped_first(&tx, rest));
                // `let (tx, _) = unbounded();`: the receiver is dropped at once, so every
                // send fails (a placeholder); `channel::<()>()` carries only signals.
                // Also a sender kept in a struct of this file whose field carries `()`
                // (`WaitToken(tx)` with `struct WaitToken(UnboundedSender<()>)`).
                let unread = tuple_wild(&l.pat, 1)
                    || l.init.as_ref().is_some_and(|i| unit_items(&i.expr))
                    || tuple_name(&l.pat, 0).is_some_and(|tx| unit_keeper(self.file, &tx, rest));
                if unsent
                    || unread
                    || tuple_name(&l.pat, 1)
                        .is_some_and(|rx| read_once(&rx, rest) || collected(&rx, rest))
                    || streamed()
                    || carried()
                {
                    self.facts.queues[queues].reply = true;
                }
            }
        }
        self.loops = saved_loops;
        self.scopes.pop();
    }

    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        // A future kept in a local, used under a timeout wrapper (`timeout(d, upload)`,
        // as a call there is timed) or with none around it (`upload.await`).
        if let syn::Expr::Path(p) = e {
            if let Some(id) = p.path.get_ident() {
                if let Some(l) = self.future_locals.iter_mut().rev().find(|l| id == &l.name) {
                    match self.timeout_wrapped {
                        0 => l.untimed = true,
                        _ => l.timed = true,
                    }
                }
            }
        }
        if matches!(
            e,
            syn::Expr::Call(_) | syn::Expr::MethodCall(_) | syn::Expr::Await(_) | syn::Expr::Try(_)
        ) {
            self.skip_fallback_clients(e);
            let args = match e {
                syn::Expr::Call(c) => Some(&c.args),
                syn::Expr::MethodCall(m) => Some(&m.args),
                _ => None,
            };
            for a in args.into_iter().flatten() {
                let chain = super::clients::flatten(a);
                if super::clients::holds_request(&chain) {
                    self.handed_requests
                        .insert(super::spans::expr(chain.root).start);
                }
            }
            if let syn::Expr::Call(c) = e {
                self.note_handed_builders(c);
            }
            self.client_chains(super::clients::chains(e), None);
        }
        syn::visit::visit_expr(self, e);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        if self.skip(&l.attrs) {
            return;
        }
        let Some(init) = &l.init else {
            return self.bind(&l.pat, Value::default());
        };
        let queues = self.facts.queues.len();
        let calls = self.facts.calls.len();
        self.visit_expr(&init.expr);
        // (The name is read only for the rare local either check keeps.)
        let signal = names_signal(&init.expr, &self.catalog.data.awaits.signal_words);
        let program = self.program_of(&init.expr);
        if signal || program.is_some() {
            if let Some(name) = binding_name(&l.pat) {
                if signal {
                    self.signal_locals.push(name.clone());
                }
                if let Some(program) = program {
                    self.command_locals.push((name, program));
                }
            }
        }
        // (A `let` of another value shadows a connector local's name.)
        let connector = self.timeout_connector(&init.expr);
        if connector || !self.connector_locals.is_empty() {
            if let Some(name) = binding_name(&l.pat) {
                self.connector_locals.retain(|c| *c != name);
                if connector {
                    self.connector_locals.push(name);
                }
            }
        }
        // `let upload = self.put(..);`: a future, run later (not its awaited result).
        // Any other `let` of the name shadows it (`let upload = timeout(d, upload);`).
        if let syn::Pat::Ident(p) = &l.pat {
            let future = matches!(&*init.expr, syn::Expr::Call(_) | syn::Expr::MethodCall(_))
                && init.diverge.is_none();
            let shadows = self.future_locals.iter().any(|f| p.ident == f.name);
            if future || shadows {
                let calls = if future {
                    calls
                } else {
                    self.facts.calls.len()
                };
                self.future_locals.push(FutureLocal {
                    name: p.ident.to_string(),
                    calls: calls..self.facts.calls.len(),
                    timed: false,
                    untimed: false,
                });
            }
        }
        if let Some((_, diverge)) = &init.diverge {
            self.visit_expr(diverge);
        }
        if let (syn::Pat::Ident(p), true) = (&l.pat, self.loopback_address(&init.expr)) {
            self.loopback.push(p.ident.to_string());
        }
        if let (syn::Expr::Call(c), syn::Pat::Tuple(t)) = (&*init.expr, &l.pat) {
            let oneshot = matches!(&*c.func, syn::Expr::Path(p)
                if p.path.segments.len() >= 2
                    && p.path.segments[p.path.segments.len() - 2].ident == "oneshot"
                    && p.path.segments.last().is_some_and(|s| s.ident == "channel"));
            if let (true, [syn::Pat::Ident(tx), syn::Pat::Ident(rx)]) =
                (oneshot, t.elems.iter().collect::<Vec<_>>().as_slice())
            {
                self.oneshots
                    .push((rx.ident.to_string(), tx.ident.to_string()));
            }
        }
        if let syn::Pat::Ident(p) = &l.pat {
            self.note_carrier(&p.ident, &init.expr);
        }
        // `let (tx, rx) = unbounded_channel()`: sends on `tx` fill that queue.
        if self.facts.queues.len() == queues + 1 {
            if let Some(tx) = tuple_name(&l.pat, 0) {
                let key = format!("local:{}:{tx}", self.facts.queues[queues].span.start);
                self.facts.queues[queues].keys.push(key);
                self.senders.push((tx, queues));
            }
        }
        let value = self.value_of(&init.expr);
        self.bind_init(&l.pat, value, Some(&init.expr));
    }

    /// Macro bodies (`tokio::join!(..)`, `par!(..)`, `select! {..}`, user macros) are
    /// parsed best effort as comma-separated expressions or as statements, so a wait
    /// inside one is seen. Formatting and logging macros are skipped.
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // The trees parsed from its tokens are freed once walked (`spans::first`).
        spans::in_temporary_tree(|| {
            let name = m
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            if self.catalog.data.skipped_macros.contains(&name) {
                return;
            }
            use syn::parse::Parser;
            // `select! { v = fut => handler, .. }`: its futures and handlers run here.
            if name == "select" || name == "select_biased" {
                if let Ok(arms) = select_arms.parse2(m.tokens.clone()) {
                    // An arm that fires on a timer bounds the others' futures.
                    let raced = arms.iter().any(|(e, future)| *future && is_timer(e));
                    for (e, future) in &arms {
                        let timed = usize::from(raced && *future);
                        self.timer_raced += timed;
                        self.scopes.push();
                        self.visit_expr(e);
                        self.scopes.pop();
                        self.timer_raced -= timed;
                    }
                    return;
                }
            }
            let exprs = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated
                .parse2(m.tokens.clone());
            match exprs {
                Ok(list) => {
                    for e in &list {
                        self.visit_expr(e);
                    }
                    // `routes!(list_crates, show_crate)`: handlers registered by a macro.
                    if list.iter().any(|e| matches!(e, syn::Expr::Path(_))) {
                        let at = span(name_span(m));
                        self.handler_refs(&name, None, list.iter(), at);
                    }
                }
                Err(_) => {
                    if let Ok(stmts) = syn::Block::parse_within.parse2(m.tokens.clone()) {
                        self.scopes.push();
                        for s in &stmts {
                            self.visit_stmt(s);
                        }
                        self.scopes.pop();
                    }
                }
            }
        })
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        let kind = self.inline_or_deferred(c);
        self.closure(c, kind, None, None);
    }

    fn visit_expr_async(&mut self, a: &'ast syn::ExprAsync) {
        let driven = std::mem::take(&mut self.driven_async) == a as *const _ as usize;
        let id = self.push_ctx(
            if driven {
                CtxKind::Inline
            } else {
                CtxKind::Async
            },
            "async block".into(),
            span(a.async_token.span),
            spans::block(&a.block),
        );
        self.ctx.push(id);
        let saved_rayon = std::mem::take(&mut self.rayon);
        self.visit_block(&a.block);
        self.rayon = saved_rayon;
        self.ctx.pop();
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        let name = match &*c.func {
            syn::Expr::Path(p) => p.path.segments.last().map(|s| &s.ident),
            _ => None,
        };
        self.note_driven(name, &c.args);
        // `Store::new(tx)`: a project function may keep the sender in a field.
        // (The span is measured only for a call that is given a sender.)
        if matches!(&*c.func, syn::Expr::Path(_)) && !self.senders.is_empty() {
            for (i, a) in c.args.iter().enumerate() {
                if let (Some(q), Ok(i)) = (self.sender_in(a), u8::try_from(i)) {
                    let call = super::calls::fn_call_span(c);
                    self.facts.queues[q].kept_by.push((call, i));
                }
            }
        }
        // `signals.register(SIGTERM, ..)`, `Signals::new([SIGTERM, SIGINT])`.
        self.facts.handles_sigterm |= c.args.iter().any(names_sigterm);
        // `TcpListener::bind(addr)`, hyper's `Server::bind(&addr)`: this crate accepts
        // connections, a server.
        if let syn::Expr::Path(p) = &*c.func {
            let mut segs = p.path.segments.iter().rev();
            if let (Some(f), Some(ty)) = (segs.next(), segs.next()) {
                // `Semaphore::new(n)`: the function bounds admission itself.
                self.admission |= f.ident == "new" && ty.ident.to_string().ends_with("Semaphore");
                let listener = ty.ident == "TcpListener" || ty.ident == "UnixListener";
                let server = ty.ident == "Server" && (f.ident == "try_bind" || f.ident == "bind");
                if server || (f.ident == "bind" && listener) {
                    self.facts.listens = true;
                }
                self.facts.handles_sigterm |= ty.ident == "SignalKind" && f.ident == "terminate";
            }
        }
        // `Msg::Usage(id, tx)` builds a message (like a struct literal); a function
        // call hands its arguments on.
        if !self.oneshots.is_empty() && !is_constructor(c) {
            self.note_handed(c.args.iter());
            if self.awaited_call == c as *const _ as usize {
                self.note_settled(c.args.iter());
            }
        }
        let (submissions, started) = (self.facts.submissions.len(), self.tasks_started);
        let handed = self.handed_calls.remove(&(c as *const _));
        let stored = stored_closure(c).filter(|_| !handed);
        // `Some(Box::new(..))` hands its value on only where it is itself handed on.
        if has_call_arg(&c.args) && (handed || !is_constructor(c)) {
            self.hand_on_calls(c.args.iter());
        }
        if let Some(closure) = stored {
            self.deferred.push(closure);
        }
        self.call(c);
        if self.facts.submissions.len() > submissions || self.tasks_started > started {
            self.note_moved(c.args.iter());
        }
        // Visited by `call` unless the call skipped its arguments.
        if stored.is_some_and(|d| self.deferred.last() == Some(&d)) {
            self.deferred.pop();
        }
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        self.note_driven(Some(&m.method), &m.args);
        if m.method == "timeout_mut" {
            if let syn::Expr::Path(p) = &*m.receiver {
                if let Some(id) = p.path.get_ident() {
                    self.timed_requests.push(id.to_string());
                }
            }
        }
        // A registration (`set_consumer(Box::new(..))`, `on_event(..)`) keeps the
        // callback it is given for later: not handed on to run here.
        if has_call_arg(&m.args) && !self.registers(&m.method.to_string()) {
            self.hand_on_calls(m.args.iter());
        }
        if m.method != "send" {
            self.note_handed(m.args.iter());
            if self.awaited_call == m as *const _ as usize {
                self.note_settled(m.args.iter());
            }
        }
        self.queue_send(m);
        self.note_finisher(m);
        let (submissions, started) = (self.facts.submissions.len(), self.tasks_started);
        self.method_call(m);
        if self.facts.submissions.len() > submissions || self.tasks_started > started {
            self.note_moved(m.args.iter());
        }
    }

    /// `AppState { audit: tx, .. }`: the struct field now holds the sender, and sends
    /// on that field of that struct anywhere fill the queue.
    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        let last = s.path.segments.last().map(|x| x.ident.to_string());
        let owner = match last.as_deref() {
            Some("Self") => self.impl_type.clone(),
            _ => last,
        };
        if let (Some(owner), Some(ctx)) = (&owner, self.current_ctx()) {
            self.struct_literals.push((owner.clone(), ctx));
        }
        for f in &s.fields {
            let (syn::Member::Named(field), Some(owner)) = (&f.member, &owner) else {
                continue;
            };
            if !self.params.is_empty() {
                self.note_keeper(owner, &field.to_string(), &f.expr);
                self.note_sender_keeper(owner, &field.to_string(), &f.expr);
            }
            if let Some(q) = self.sender_in(&f.expr) {
                let key = format!("field:{owner}.{field}");
                if !self.facts.queues[q].keys.contains(&key) {
                    self.facts.queues[q].keys.push(key);
                }
            }
        }
        syn::visit::visit_expr_struct(self, s);
    }

    fn visit_expr_await(&mut self, a: &'ast syn::ExprAwait) {
        let call = call_address(&a.base);
        let saved = std::mem::replace(&mut self.awaited_call, call);
        self.accept_loop_handshake(a);
        self.await_expr(a);
        self.awaited_call = saved;
    }

    /// `Self::Client(client) => client.run()`: the binding holds the variant's payload.
    fn visit_arm(&mut self, a: &'ast syn::Arm) {
        if self.skip(&a.attrs) {
            return; // `#[cfg(test)] Mode::Test => ..`
        }
        self.scopes.push();
        // Every name the pattern binds shadows the outer one (`Cmd::Get { key, .. }`:
        // `key` is a value here, not the function `key`); what is known of it below.
        let mut names = Vec::new();
        bound_names(&a.pat, &mut names);
        for n in names {
            self.scopes.declare(n, Value::default());
        }
        if let Some((pat, ty)) = self.variant_payload(&a.pat) {
            self.bind(
                pat,
                Value {
                    ty: Some(ty),
                    ..Value::default()
                },
            );
        } else if let Some(v) = self.scrutinee.clone().filter(|_| unwraps(&a.pat)) {
            // `match open(..).await { Ok(conn) => conn.handle(), .. }`
            self.bind(&a.pat, v);
        }
        syn::visit::visit_arm(self, a);
        self.scopes.pop();
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        let bounded = m.arms.len() > 1
            && self.creates_bounded_channel(|f| {
                for a in &m.arms {
                    syn::visit::Visit::visit_expr(f, &a.body);
                }
            });
        self.bounded_sibling += usize::from(bounded);
        for attr in &m.attrs {
            self.visit_attribute(attr);
        }
        self.visit_expr(&m.expr);
        let v = self.value_of(&m.expr);
        let saved = std::mem::replace(&mut self.scrutinee, v.from_call.map(|_| v));
        for arm in &m.arms {
            let chosen = untimed_by_choice(m, arm);
            self.timeout_wrapped += usize::from(chosen);
            self.visit_arm(arm);
            self.timeout_wrapped -= usize::from(chosen);
        }
        self.scrutinee = saved;
        self.bounded_sibling -= usize::from(bounded);
    }

    fn visit_expr_if(&mut self, i: &'ast syn::ExprIf) {
        let bounded = i.else_branch.as_ref().is_some_and(|(_, e)| {
            self.creates_bounded_channel(|f| {
                syn::visit::Visit::visit_block(f, &i.then_branch);
                syn::visit::Visit::visit_expr(f, e);
            })
        });
        self.bounded_sibling += usize::from(bounded);
        self.visit_expr(&i.cond);
        let (done, not_done) = self.done_checks(&i.cond);
        self.scopes.push();
        // `if let Ok(conn) = open(..).await { conn.handle() }`; `if let Some(rx) =
        // self.replies.as_ref() { rx.recv() }` (an `Option` field: its type's value).
        if let syn::Expr::Let(l) = &*i.cond {
            let v = self.value_of(&l.expr);
            if (v.from_call.is_some() || v.ty.is_some()) && unwraps(&l.pat) {
                self.bind(&l.pat, v);
            }
        }
        for d in &done {
            self.mark_complete(d, true);
        }
        let chosen = then_untimed_by_choice(i);
        self.timeout_wrapped += usize::from(chosen);
        self.visit_block(&i.then_branch);
        self.timeout_wrapped -= usize::from(chosen);
        self.scopes.pop();
        if let Some((_, e)) = &i.else_branch {
            let chosen = else_untimed_by_choice(i);
            self.scopes.push();
            for d in &not_done {
                self.mark_complete(d, true);
            }
            self.timeout_wrapped += usize::from(chosen);
            self.visit_expr(e);
            self.timeout_wrapped -= usize::from(chosen);
            self.scopes.pop();
        }
        self.bounded_sibling -= usize::from(bounded);
    }

    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        let (waits, fetches) = (self.facts.waits.len(), self.job_fetches);
        self.visit_expr(&f.expr);
        // `for stream in listener.incoming().flatten()`: an accept loop, open-ended.
        let mut accept = false;
        let mut e = &*f.expr;
        while let syn::Expr::MethodCall(m) = e {
            accept |= m.method == "incoming";
            e = &m.receiver;
        }
        if let (true, Some(c)) = (accept, self.current_ctx()) {
            self.facts.contexts[c].worker_loop = true;
        }
        // `for job in rx` / `for job in &rx` blocks on the receiver like `rx.iter()`.
        if matches!(&*f.expr, syn::Expr::Path(_) | syn::Expr::Reference(_)) {
            let v = self.value_of(&f.expr);
            self.receiver_wait(spans::expr(&f.expr), &v, "iter", 0, &f.expr);
        }
        // `for job in rx.iter()`: a loop over a channel's messages (a worker's jobs),
        // open-ended too.
        let on_channel =
            self.job_fetches > fetches || self.facts.waits.iter().skip(waits).any(|w| !w.by_call);
        if let (true, Some(c)) = (on_channel, self.current_ctx()) {
            self.facts.contexts[c].worker_loop = true;
        }
        let round = InnerLoop {
            paced: false,
            conn: accept,
        };
        self.in_loop(round, |x| {
            x.scopes.push();
            x.bind(&f.pat, Value::default());
            x.visit_block(&f.body);
            x.scopes.pop();
        });
    }

    fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
        if let Some(c) = self.current_ctx() {
            self.facts.contexts[c].worker_loop = true;
        }
        let saved = self.accept_loop;
        let accepts = super::handshakes::accepts(None, &l.body);
        if accepts {
            self.accept_loop = self.current_ctx();
            // A loop accepting connections: this crate serves them, whatever made the
            // listener (`TcpSocket::listen(backlog)`, a project wrapper).
            self.facts.listens = true;
        }
        let round = InnerLoop {
            paced: sleeps_each_round(&l.body),
            conn: accepts,
        };
        self.in_loop(round, |x| x.visit_block(&l.body));
        self.accept_loop = saved;
    }

    fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
        self.loop_head += 1;
        self.visit_expr(&w.cond);
        self.loop_head -= 1;
        if let Some(c) = self.current_ctx() {
            self.facts.contexts[c].worker_loop = true;
        }
        let saved = self.accept_loop;
        let accepts = super::handshakes::accepts(Some(&w.cond), &w.body);
        if accepts {
            self.accept_loop = self.current_ctx();
            self.facts.listens = true;
        }
        // Inside a loop that reconnects for good, a loop over a stream's messages that
        // starts a task (the catalog's async spawns) per message consumes a feed: each
        // message's task is traffic.
        let feed = self.loops > 0 && awaits_next(&w.cond);
        let started = self.tasks_started;
        let round = InnerLoop {
            paced: sleeps_each_round(&w.body),
            conn: accepts,
        };
        self.in_loop(round, |x| x.visit_block(&w.body));
        if feed && self.tasks_started > started {
            self.facts.consumes = true;
        }
        self.accept_loop = saved;
        // `while !h.is_finished() { .. }`: afterwards `h` has finished.
        let (_, not_done) = self.done_checks(&w.cond);
        for d in &not_done {
            self.mark_complete(d, false);
        }
    }
}

/// The closure a smart-pointer constructor stores (`Arc::new(move |ns| ..)`,
/// `Box::new({ let s = ..; move || .. })`): code that runs when something calls
/// it later, not here.
fn stored_closure(c: &syn::ExprCall) -> Option<*const syn::ExprClosure> {
    let syn::Expr::Path(p) = &*c.func else {
        return None;
    };
    let mut segs = p.path.segments.iter().rev();
    let (Some(f), Some(ty)) = (segs.next(), segs.next()) else {
        return None;
    };
    if f.ident != "new" || !matches!(ty.ident.to_string().as_str(), "Arc" | "Box" | "Rc") {
        return None;
    }
    let mut arg = c.args.first()?;
    if let syn::Expr::Block(b) = arg {
        match b.block.stmts.last() {
            Some(syn::Stmt::Expr(tail, None)) => arg = tail,
            _ => return None,
        }
    }
    match arg {
        syn::Expr::Closure(closure) => Some(closure as *const _),
        _ => None,
    }
}

/// The file's top-level functions declared to return a client builder the catalog
/// starts with `T::new()` (an entry that `ends` with a build call).
fn builder_fns(
    file: &syn::File,
    types: &Types,
    catalog: &Indexed,
) -> HashMap<String, (String, Vec<String>)> {
    struct Methods(Vec<String>);
    impl<'ast> syn::visit::Visit<'ast> for Methods {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            self.0.push(m.method.to_string());
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    let mut out = HashMap::default();
    for item in &file.items {
        let syn::Item::Fn(f) = item else { continue };
        let syn::ReturnType::Type(_, ty) = &f.sig.output else {
            continue;
        };
        let Some(t) = types.resolve(ty) else { continue };
        let new = format!("{t}::new");
        let builds = catalog
            .clients_starting("call", &new)
            .iter()
            .any(|e| e.ends.is_some() && !e.internal);
        if builds {
            let mut m = Methods(Vec::new());
            syn::visit::Visit::visit_block(&mut m, &f.block);
            out.insert(f.sig.ident.to_string(), (new, m.0));
        }
    }
    out
}

/// The file's functions and methods declared to return a connector type that carries
/// timeouts (a catalog client's `connectors`: `fn with_timeouts(c: C) ->
/// TimeoutConnector<C>`).
fn connector_fns(
    file: &syn::File,
    types: &Types,
    catalog: &Indexed,
) -> rustc_hash::FxHashSet<String> {
    let mut out = rustc_hash::FxHashSet::default();
    let mut check = |sig: &syn::Signature| {
        let syn::ReturnType::Type(_, ty) = &sig.output else {
            return;
        };
        let syn::Type::Path(p) = &**ty else { return };
        let named = p.path.segments.last();
        if !named.is_some_and(|s| catalog.may_be_connector(&s.ident.to_string())) {
            return;
        }
        if types.resolve(ty).is_some_and(|t| catalog.is_connector(&t)) {
            out.insert(sig.ident.to_string());
        }
    };
    for item in &file.items {
        match item {
            syn::Item::Fn(f) => check(&f.sig),
            syn::Item::Impl(i) => i.items.iter().for_each(|it| {
                if let syn::ImplItem::Fn(f) = it {
                    check(&f.sig);
                }
            }),
            _ => {}
        }
    }
    out
}

/// Every variable a pattern binds (`Cmd::Get { key, ns: n }` binds `key` and `n`).
/// A capitalised name is a constant or a unit variant (`None`), not a binding.
fn bound_names(pat: &syn::Pat, out: &mut Vec<String>) {
    match pat {
        syn::Pat::Ident(i) => {
            let name = i.ident.to_string();
            if !name.starts_with(char::is_uppercase) {
                out.push(name);
            }
            if let Some((_, sub)) = &i.subpat {
                bound_names(sub, out);
            }
        }
        syn::Pat::Type(t) => bound_names(&t.pat, out),
        syn::Pat::Reference(r) => bound_names(&r.pat, out),
        syn::Pat::Paren(p) => bound_names(&p.pat, out),
        syn::Pat::Tuple(t) => t.elems.iter().for_each(|e| bound_names(e, out)),
        syn::Pat::TupleStruct(t) => t.elems.iter().for_each(|e| bound_names(e, out)),
        syn::Pat::Slice(s) => s.elems.iter().for_each(|e| bound_names(e, out)),
        syn::Pat::Or(o) => o.cases.iter().for_each(|e| bound_names(e, out)),
        syn::Pat::Struct(s) => s.fields.iter().for_each(|f| bound_names(&f.pat, out)),
        _ => {}
    }
}

/// The variable a `let` pattern binds (`x`, `mut x`, `x: T`).
fn binding_name(pat: &syn::Pat) -> Option<String> {
    match pat {
        syn::Pat::Ident(i) => Some(i.ident.to_string()),
        syn::Pat::Type(t) => binding_name(&t.pat),
        _ => None,
    }
}

/// Whether `rx` is used by these statements only for one receive (`rx.recv()`,
/// `rx.recv_async().await`), outside loops and closures: the channel carries one
/// reply and dies with the call.
fn read_once(rx: &str, stmts: &[syn::Stmt]) -> bool {
    struct Uses<'a> {
        rx: &'a str,
        reads: usize,
        other: bool,
        nested: usize,
    }
    impl<'ast> Visit<'ast> for Uses<'_> {
        fn visit_expr(&mut self, e: &'ast syn::Expr) {
            match e {
                syn::Expr::MethodCall(m) if matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident(self.rx)) =>
                {
                    let method = m.method.to_string();
                    if self.nested > 0 || !method.starts_with("recv") {
                        self.other = true;
                    } else {
                        self.reads += 1;
                    }
                    for a in &m.args {
                        self.visit_expr(a);
                    }
                }
                syn::Expr::Path(p) if p.path.is_ident(self.rx) => self.other = true,
                e if repeats_or_defers(e) => {
                    self.nested += 1;
                    syn::visit::visit_expr(self, e);
                    self.nested -= 1;
                }
                _ => syn::visit::visit_expr(self, e),
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            // `select!`, `println!("{rx:?}")`: a use this visitor cannot read.
            self.other |= mentions_name(m, self.rx);
        }
    }
    let mut uses = Uses {
        rx,
        reads: 0,
        other: false,
        nested: 0,
    };
    for s in stmts {
        uses.visit_stmt(s);
    }
    uses.reads == 1 && !uses.other
}

/// `Ok(x)`, `Some(x)` or a plain binding: a pattern that holds the matched value.
fn unwraps(pat: &syn::Pat) -> bool {
    match pat {
        syn::Pat::Ident(_) => true,
        syn::Pat::TupleStruct(ts) => {
            ts.elems.len() == 1
                && ts
                    .path
                    .get_ident()
                    .is_some_and(|i| i == "Ok" || i == "Some")
                && matches!(ts.elems.first(), Some(syn::Pat::Ident(_)))
        }
        _ => false,
    }
}

/// `sleep(d)`, `tokio::time::sleep_until(t)`, `interval.tick()`: a future that completes
/// on a timer.
fn is_timer(e: &syn::Expr) -> bool {
    let name = match e {
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        },
        syn::Expr::MethodCall(m) => Some(m.method.to_string()),
        syn::Expr::Reference(r) => return is_timer(&r.expr),
        _ => None,
    };
    name.is_some_and(|n| super::clients::TIMER_ARMS.contains(&n.as_str()))
}

/// The expressions of a `select!` body (tokio's and futures'): each arm's future
/// (`true`), precondition and handler, and the `else`/`default`/`complete` handlers.
fn select_arms(input: syn::parse::ParseStream) -> syn::Result<Vec<(syn::Expr, bool)>> {
    let mut out = Vec::new();
    // `biased;`
    if input.peek(syn::Ident) && input.peek2(syn::Token![;]) {
        input.parse::<syn::Ident>()?;
        input.parse::<syn::Token![;]>()?;
    }
    while !input.is_empty() {
        let fallback = input.peek(syn::Token![else])
            || (input.peek(syn::Ident) && input.peek2(syn::Token![=>]));
        if input.peek(syn::Token![else]) {
            input.parse::<syn::Token![else]>()?;
        } else if fallback {
            input.parse::<syn::Ident>()?; // `default`, `complete`
        } else {
            syn::Pat::parse_multi_with_leading_vert(input)?;
            input.parse::<syn::Token![=]>()?;
            out.push((input.parse::<syn::Expr>()?, true));
            if input.peek(syn::Token![,]) && input.peek2(syn::Token![if]) {
                input.parse::<syn::Token![,]>()?;
                input.parse::<syn::Token![if]>()?;
                out.push((input.parse::<syn::Expr>()?, false));
            }
        }
        input.parse::<syn::Token![=>]>()?;
        if input.peek(syn::token::Brace) {
            let block: syn::ExprBlock = input.parse()?;
            out.push((syn::Expr::Block(block), false));
        } else {
            out.push((input.parse::<syn::Expr>()?, false));
        }
        if !input.is_empty() && input.peek(syn::Token![,]) {
            input.parse::<syn::Token![,]>()?;
        }
    }
    Ok(out)
}

/// Whether a macro's tokens name `name` (a use the visitors cannot read).
fn mentions_name(m: &syn::Macro, name: &str) -> bool {
    m.tokens
        .to_string()
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| w == name)
}

/// Whether `rx`'s one use in these statements gathers every item into a collection
/// (`rx.iter().collect()`, also in a task the function spawns, or `rx.try_iter()
/// .collect()`, a channel used as a list its senders append to): the channel holds no
/// more than its consumer keeps anyway, and dies with it.
fn collected(rx: &str, stmts: &[syn::Stmt]) -> bool {
    struct Uses<'a> {
        rx: &'a str,
        collects: usize,
        other: bool,
    }
    impl<'ast> Visit<'ast> for Uses<'_> {
        fn visit_expr(&mut self, e: &'ast syn::Expr) {
            if let syn::Expr::MethodCall(m) = e {
                if let syn::Expr::MethodCall(inner) = &*m.receiver {
                    let on_rx =
                        matches!(&*inner.receiver, syn::Expr::Path(p) if p.path.is_ident(self.rx));
                    if on_rx
                        && m.method == "collect"
                        && matches!(
                            inner.method.to_string().as_str(),
                            "iter" | "into_iter" | "try_iter"
                        )
                    {
                        self.collects += 1;
                        return;
                    }
                }
            }
            match e {
                syn::Expr::Path(p) if p.path.is_ident(self.rx) => self.other = true,
                _ => syn::visit::visit_expr(self, e),
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            self.other |= mentions_name(m, self.rx);
        }
    }
    let mut uses = Uses {
        rx,
        collects: 0,
        other: false,
    };
    for s in stmts {
        uses.visit_stmt(s);
    }
    uses.collects == 1 && !uses.other
}

/// Whether a channel streams one call's results back to its caller: the sender goes
/// into one task the function spawns (its only producer) and the receiver is only
/// returned, as the function's tail (`Box::pin(UnboundedReceiverStream::new(rx))`).
/// Its backlog is that one call's output, not a shared queue's.
fn streamed(tx: &str, rx: &str, stmts: &[syn::Stmt]) -> bool {
    struct Uses<'a> {
        name: &'a str,
        count: usize,
        spawns: usize,
        in_spawn: usize,
        outside: bool,
    }
    impl<'ast> Visit<'ast> for Uses<'_> {
        fn visit_expr(&mut self, e: &'ast syn::Expr) {
            if let syn::Expr::Call(c) = e {
                let spawn = matches!(&*c.func, syn::Expr::Path(p)
                    if p.path.segments.last().is_some_and(|s| s.ident == "spawn"));
                if spawn {
                    let before = self.count;
                    self.in_spawn += 1;
                    syn::visit::visit_expr_call(self, c);
                    self.in_spawn -= 1;
                    if self.count > before && self.in_spawn == 0 {
                        self.spawns += 1;
                    }
                    return;
                }
            }
            match e {
                syn::Expr::Path(p) if p.path.is_ident(self.name) => {
                    self.count += 1;
                    self.outside |= self.in_spawn == 0;
                }
                _ => syn::visit::visit_expr(self, e),
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            // `tx.send(..)` in a macro inside the task is still in the task.
            if mentions_name(m, self.name) {
                self.count += 1;
                self.outside |= self.in_spawn == 0;
            }
        }
    }
    let Some((tail, body)) = stmts.split_last() else {
        return false;
    };
    // The receiver leaves as the value (`rx`, `Box::pin(Stream::new(rx))`, `Ok(..)`),
    // not drained in a loop here, which may last as long as a connection.
    let syn::Stmt::Expr(
        tail @ (syn::Expr::Path(_)
        | syn::Expr::Call(_)
        | syn::Expr::MethodCall(_)
        | syn::Expr::Struct(_)
        | syn::Expr::Tuple(_)),
        None,
    ) = tail
    else {
        return false;
    };
    let uses = |name| Uses {
        name,
        count: 0,
        spawns: 0,
        in_spawn: 0,
        outside: false,
    };
    let (mut sender, mut receiver, mut returned) = (uses(tx), uses(rx), uses(rx));
    for s in body {
        sender.visit_stmt(s);
        receiver.visit_stmt(s);
    }
    sender.visit_expr(tail);
    returned.visit_expr(tail);
    sender.spawns == 1
        && !sender.outside
        && receiver.count == 0
        && returned.count == 1
        && returned.outside
}

/// Whether a channel is one request's reply stream: the sender goes, once, into the
/// request handed on (a field of a struct literal, `Entry { response_tx, .. }`, or an
/// argument of a constructor, `Request::new(&req, tx)`), and the receiver's one use is
/// in the function's tail (`Ok(UnboundedReceiverStream::new(rx))`, also in an arm of a
/// `match` there). The worker answers that one request: the backlog is its output. A
/// subscription (`Subscriber { tx }`, `Command::Watch { tx }`) is not one, nor the object
/// the function builds (`Self { events, .. }` or one of `own`, the impl's type, returned
/// with the receiver by `AppState::new`): its sender lives as long as the object.
fn carried_stream(tx: &str, rx: &str, own: Option<&str>, stmts: &[syn::Stmt]) -> bool {
    struct Uses<'a> {
        name: &'a str,
        own: Option<&'a str>,
        count: usize,
        /// Uses inside a loop, closure or async block.
        nested_uses: usize,
        carried: usize,
        nested: usize,
    }
    impl Uses<'_> {
        fn is(&self, e: &syn::Expr) -> bool {
            matches!(e, syn::Expr::Path(p) if p.path.is_ident(self.name))
        }
        /// A path that names the type being built (`Self`, `AppState`).
        fn builds_own(&self, path: &syn::Path) -> bool {
            path.segments
                .iter()
                .any(|s| s.ident == "Self" || self.own.is_some_and(|o| s.ident == o))
        }
    }
    impl<'ast> Visit<'ast> for Uses<'_> {
        fn visit_expr(&mut self, e: &'ast syn::Expr) {
            match e {
                syn::Expr::Path(p) if p.path.is_ident(self.name) => {
                    self.count += 1;
                    self.nested_uses += usize::from(self.nested > 0);
                }
                syn::Expr::Struct(st) if self.nested == 0 => {
                    let kind = st.path.segments.iter().map(|s| s.ident.to_string());
                    let listens = kind.into_iter().any(|k| {
                        ["Subscri", "Watch", "Listen", "Regist"]
                            .iter()
                            .any(|w| k.contains(w))
                    });
                    let carries = st.fields.iter().any(|f| self.is(&f.expr));
                    if !listens && !self.builds_own(&st.path) && carries {
                        self.carried += 1;
                    }
                    syn::visit::visit_expr(self, e);
                }
                syn::Expr::Call(c) if self.nested == 0 => {
                    let new = matches!(&*c.func, syn::Expr::Path(p)
                        if p.path.segments.len() > 1
                            && p.path.segments.last().is_some_and(|s| s.ident == "new")
                            && !self.builds_own(&p.path));
                    if new && c.args.iter().any(|a| self.is(a)) {
                        self.carried += 1;
                    }
                    syn::visit::visit_expr(self, e);
                }
                e if repeats_or_defers(e) => {
                    self.nested += 1;
                    syn::visit::visit_expr(self, e);
                    self.nested -= 1;
                }
                _ => syn::visit::visit_expr(self, e),
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if mentions_name(m, self.name) {
                self.count += 2; // a use this visitor cannot read
            }
        }
    }
    let Some((syn::Stmt::Expr(tail, None), body)) = stmts.split_last() else {
        return false;
    };
    let uses = |name| Uses {
        name,
        own,
        count: 0,
        nested_uses: 0,
        carried: 0,
        nested: 0,
    };
    let (mut sender, mut receiver, mut returned) = (uses(tx), uses(rx), uses(rx));
    for s in body {
        sender.visit_stmt(s);
        receiver.visit_stmt(s);
    }
    sender.visit_expr(tail);
    returned.visit_expr(tail);
    // The receiver leaves in the tail, outside loops and closures.
    let left = returned.count == 1 && returned.nested_uses == 0 && receiver.count == 0;
    sender.count == 1 && sender.carried == 1 && left
}

/// A loop, closure or async block: what it holds may run many times, or later.
fn repeats_or_defers(e: &syn::Expr) -> bool {
    matches!(
        e,
        syn::Expr::ForLoop(_)
            | syn::Expr::While(_)
            | syn::Expr::Loop(_)
            | syn::Expr::Closure(_)
            | syn::Expr::Async(_)
    )
}

/// Whether element `index` of a tuple pattern is `_`.
fn tuple_wild(pat: &syn::Pat, index: usize) -> bool {
    matches!(pat, syn::Pat::Tuple(t) if matches!(t.elems.iter().nth(index), Some(syn::Pat::Wild(_))))
}

/// The name bound at `index` of a tuple pattern: in `let (tx, rx) = ..`, the sender
/// (0, also `(mut tx, _)`) or the receiver (1).
fn tuple_name(pat: &syn::Pat, index: usize) -> Option<String> {
    let syn::Pat::Tuple(t) = pat else {
        return None;
    };
    match t.elems.iter().nth(index)? {
        syn::Pat::Ident(i) => Some(i.ident.to_string()),
        _ => None,
    }
}

impl Extractor<'_> {
    /// Visit a loop body: one loop deeper, with `round` as the innermost loop's.
    fn in_loop(&mut self, round: InnerLoop, visit: impl FnOnce(&mut Self)) {
        self.loops += 1;
        let outer = std::mem::replace(&mut self.inner_loop, round);
        visit(self);
        self.inner_loop = outer;
        self.loops -= 1;
    }

    /// `Self { sender }` in a function given `sender`, for a field of a sender type:
    /// sends on that field fill the channel a caller hands it.
    fn note_sender_keeper(&mut self, owner: &str, field: &str, value: &syn::Expr) {
        let Some((param, p)) = self.kept_param(value) else {
            return;
        };
        let sender = self
            .types
            .fields
            .get(&(owner.to_string(), field.to_string()))
            .and_then(|ty| ty.split('<').next()?.rsplit("::").next())
            .is_some_and(|t| t.ends_with("Sender"));
        if let (true, Some(ctx), Ok(param)) = (sender, self.current_ctx(), u8::try_from(param)) {
            self.facts.keepers.push(crate::facts::Keeper {
                ctx,
                param,
                timed: false,
                span: span(p.segments[0].ident.span()),
                sender: Some(format!("field:{owner}.{field}").into()),
            });
        }
    }

    /// The queue whose sender this expression is (`tx`, `tx.clone()`, `Some(tx)`, which
    /// a handle empties on shutdown).
    fn sender_in(&self, e: &syn::Expr) -> Option<usize> {
        let e = match e {
            syn::Expr::Call(c) if c.args.len() == 1 && is_some_path(&c.func) => &c.args[0],
            e => e,
        };
        let syn::Expr::Path(p) = peel_sender(e) else {
            return None;
        };
        let name = p.path.get_ident()?.to_string();
        self.senders
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, q)| *q)
    }

    /// The item type of the sender parameter `e` names (`tx` with `tx: &Sender<Msg>`).
    fn sender_param_item(&self, e: &syn::Expr) -> Option<String> {
        let syn::Expr::Path(p) = peel_sender(e) else {
            return None;
        };
        let name = p.path.get_ident()?;
        (self.sender_params.iter())
            .find(|(n, _)| name == n)
            .map(|(_, item)| item.clone())
    }

    /// `tx.send(x)` on a sender created here, or `state.audit.send(x)` on a field.
    fn queue_send(&mut self, m: &syn::ExprMethodCall) {
        let method = m.method.to_string();
        if !self.catalog.data.queue_puts.contains(&method) {
            return;
        }
        let Some(ctx) = self.current_ctx() else {
            return;
        };
        let key = match peel_sender(&m.receiver) {
            // `self.tx.send(..)` in `impl Handle`, `state.audit.send(..)` with `state:
            // AppState`; `?` when the struct is not known (matched within its crate).
            syn::Expr::Field(f) => match &f.member {
                syn::Member::Named(n) => {
                    let owner = match &*f.base {
                        syn::Expr::Path(p) if p.path.is_ident("self") => self.impl_type.clone(),
                        // A framework's wrapper (`State(state)`) names no struct of ours.
                        base => self
                            .value_of(base)
                            .ty
                            .filter(|t| !self.catalog.knows(t))
                            .map(|t| {
                                let last = t.rsplit("::").next().unwrap_or(&t);
                                last.to_string()
                            }),
                    };
                    format!("field:{}.{n}", owner.as_deref().unwrap_or("?"))
                }
                syn::Member::Unnamed(_) => return,
            },
            e => match self.sender_in(e) {
                Some(q) => self.facts.queues[q].keys[0].clone(),
                // `tx.send(..)` on a parameter `tx: &Sender<Msg>`: the channel of `Msg`.
                None => match self.sender_param_item(e) {
                    Some(item) => crate::facts::item_key(&item),
                    None => return,
                },
            },
        };
        // A request that carries its own oneshot reply sender: the caller waits for
        // the answer, so it holds at most one item in the queue (an actor's mailbox).
        let guarded = !self.oneshots.is_empty() && m.args.iter().any(|a| self.carries_reply(a));
        self.facts.queue_sends.push(crate::facts::QueueSend {
            key,
            span: spans::method_call(m),
            ctx,
            guarded,
        });
    }

    /// Whether a message names one of this function's oneshot senders (`Msg::Get {
    /// id, reply: tx }`, `(id, tx)`, `Msg::Get(id, tx)`).
    fn carries_reply(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|id| self.oneshots.iter().any(|(_, tx)| id == tx)),
            syn::Expr::Struct(st) => st.fields.iter().any(|f| self.carries_reply(&f.expr)),
            syn::Expr::Call(c) => c.args.iter().any(|a| self.carries_reply(a)),
            syn::Expr::Tuple(t) => t.elems.iter().any(|a| self.carries_reply(a)),
            syn::Expr::Paren(p) => self.carries_reply(&p.expr),
            syn::Expr::MethodCall(m) => self.carries_reply(&m.receiver),
            _ => false,
        }
    }
}

impl Extractor<'_> {
    /// A oneshot sender of this function passed whole as an argument: handed to the callee.
    fn note_handed<'e>(&mut self, args: impl Iterator<Item = &'e syn::Expr>) {
        let senders = self.senders_among(args);
        self.handed.extend(senders);
    }

    /// Oneshot senders passed whole to a call awaited in place: it replied or dropped them.
    fn note_settled<'e>(&mut self, args: impl Iterator<Item = &'e syn::Expr>) {
        let senders = self.senders_among(args);
        self.settled.extend(senders);
    }

    /// This function's oneshot senders among `args`, passed whole (`quote(b, tx)`).
    fn senders_among<'e>(&self, args: impl Iterator<Item = &'e syn::Expr>) -> Vec<String> {
        if self.oneshots.is_empty() {
            return Vec::new();
        }
        args.filter_map(|a| match a {
            syn::Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
            _ => None,
        })
        .filter(|id| self.oneshots.iter().any(|(_, tx)| tx == id))
        .collect()
    }

    /// `rt.block_on(async { .. })`, `executor::block_on(async { .. })`: the block runs
    /// where that call runs (see [`Extractor::driven_async`]).
    fn note_driven(
        &mut self,
        name: Option<&syn::Ident>,
        args: &syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>,
    ) {
        if let (true, 1, Some(syn::Expr::Async(a))) = (
            name.is_some_and(|n| n == "block_on"),
            args.len(),
            args.first(),
        ) {
            self.driven_async = a as *const syn::ExprAsync as usize;
        }
    }

    /// `let slot = wasi.new_outparam(tx)?`: `slot` carries the sender `tx`.
    fn note_carrier(&mut self, local: &syn::Ident, init: &syn::Expr) {
        let mut e = init;
        while let syn::Expr::Try(t) = e {
            e = &t.expr;
        }
        let senders = match e {
            syn::Expr::Call(c) if !is_constructor(c) => self.senders_among(c.args.iter()),
            syn::Expr::MethodCall(m) => self.senders_among(m.args.iter()),
            _ => return,
        };
        for tx in senders {
            self.carriers.push((local.to_string(), tx));
        }
    }

    /// Oneshot senders named anywhere in the arguments of a submission (moved into the
    /// task's closure or async block), alone or inside a local made from them: the
    /// receiver waits for that task.
    fn note_moved<'e>(&mut self, args: impl Iterator<Item = &'e syn::Expr>) {
        if self.oneshots.is_empty() {
            return;
        }
        struct Names<'n>(&'n [(String, String)], &'n [(String, String)], Vec<String>);
        impl<'ast> syn::visit::Visit<'ast> for Names<'_> {
            fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
                if let Some(id) = p.path.get_ident() {
                    if let Some((_, tx)) = self.0.iter().find(|(_, tx)| id == tx) {
                        self.2.push(tx.clone());
                    }
                    if let Some((_, tx)) = self.1.iter().find(|(c, _)| id == c) {
                        self.2.push(tx.clone());
                    }
                }
            }
        }
        let mut names = Names(&self.oneshots, &self.carriers, Vec::new());
        for a in args {
            syn::visit::Visit::visit_expr(&mut names, a);
        }
        self.settled.extend(names.2);
    }

    /// Whether the receiver `rx` waits for a settled reply (see [`Extractor::settled`]).
    pub(super) fn reply_settled(&self, rx: &syn::Expr) -> bool {
        let syn::Expr::Path(p) = rx else {
            return false;
        };
        let Some(rx) = p.path.get_ident().map(|i| i.to_string()) else {
            return false;
        };
        self.oneshots
            .iter()
            .rev()
            .find(|(r, _)| *r == rx)
            .is_some_and(|(_, tx)| self.settled.contains(tx))
    }

    /// Whether `rx` is a oneshot receiver whose sender was not handed to a call here.
    pub(super) fn actor_reply(&self, rx: &syn::Expr) -> bool {
        let syn::Expr::Path(p) = rx else {
            return true;
        };
        let Some(rx) = p.path.get_ident().map(|i| i.to_string()) else {
            return true;
        };
        match self.oneshots.iter().rev().find(|(r, _)| *r == rx) {
            Some((_, tx)) => !self.handed.contains(tx),
            None => true,
        }
    }
}

/// A channel made for `()` items (`mpsc::channel::<()>()`): stop or wake-up signals.
fn unit_items(e: &syn::Expr) -> bool {
    let syn::Expr::Call(c) = e else {
        return false;
    };
    let syn::Expr::Path(p) = &*c.func else {
        return false;
    };
    p.path.segments.last().is_some_and(unit_arg)
}

/// Whether a path segment's one type argument is `()` (`channel::<()>`,
/// `UnboundedSender<()>`).
fn unit_arg(s: &syn::PathSegment) -> bool {
    matches!(&s.arguments, syn::PathArguments::AngleBracketed(a)
        if a.args.len() == 1
            && matches!(a.args.first(), Some(syn::GenericArgument::Type(syn::Type::Tuple(t)))
                if t.elems.is_empty()))
}

/// Whether `rest` keeps `tx` in a struct this file declares with a field of `()`
/// items there (`WaitToken(tx)`, `Gate { tx }`): a sender for wake-up or close signals.
fn unit_keeper(file: &syn::File, tx: &str, rest: &[syn::Stmt]) -> bool {
    struct Kept<'s> {
        tx: &'s str,
        /// (struct, tuple index or field name) where `tx` goes.
        places: Vec<(String, Result<usize, String>)>,
    }
    impl<'ast> Visit<'ast> for Kept<'_> {
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            if let syn::Expr::Path(p) = &*c.func {
                if let Some(last) = p.path.segments.last() {
                    for (i, a) in c.args.iter().enumerate() {
                        if matches!(a, syn::Expr::Path(x) if x.path.is_ident(self.tx)) {
                            self.places.push((last.ident.to_string(), Ok(i)));
                        }
                    }
                }
            }
            syn::visit::visit_expr_call(self, c);
        }
        fn visit_expr_struct(&mut self, e: &'ast syn::ExprStruct) {
            if let Some(last) = e.path.segments.last() {
                for f in &e.fields {
                    if let (syn::Member::Named(n), syn::Expr::Path(x)) = (&f.member, &f.expr) {
                        if x.path.is_ident(self.tx) {
                            self.places
                                .push((last.ident.to_string(), Err(n.to_string())));
                        }
                    }
                }
            }
            syn::visit::visit_expr_struct(self, e);
        }
    }
    let mut kept = Kept {
        tx,
        places: Vec::new(),
    };
    for st in rest {
        kept.visit_stmt(st);
    }
    let unit_field = |name: &str, at: &Result<usize, String>| {
        file.items.iter().any(|item| {
            let syn::Item::Struct(st) = item else {
                return false;
            };
            if st.ident != name {
                return false;
            }
            let field = match (&st.fields, at) {
                (syn::Fields::Unnamed(u), Ok(i)) => u.unnamed.iter().nth(*i),
                (syn::Fields::Named(n), Err(f)) => n
                    .named
                    .iter()
                    .find(|x| x.ident.as_ref().is_some_and(|i| i == f)),
                _ => None,
            };
            field.is_some_and(|f| matches!(&f.ty, syn::Type::Path(tp) if tp.path.segments.last().is_some_and(unit_arg)))
        })
    };
    !kept.places.is_empty() && kept.places.iter().all(|(n, at)| unit_field(n, at))
}

/// Whether the first of `rest` is `drop(tx);`.
fn dropped_first(tx: &str, rest: &[syn::Stmt]) -> bool {
    let Some(syn::Stmt::Expr(syn::Expr::Call(c), _)) = rest.first() else {
        return false;
    };
    let drop = matches!(&*c.func, syn::Expr::Path(p) if p.path.is_ident("drop"));
    drop && matches!(c.args.first(), Some(syn::Expr::Path(p)) if p.path.is_ident(tx))
}

/// Whether a call is among the arguments (what `hand_on_calls` looks at).
fn has_call_arg(args: &syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>) -> bool {
    args.iter().any(|a| matches!(a, syn::Expr::Call(_)))
}

/// A tuple struct or enum variant built by a call (`Msg::Usage(id, tx)`, `Some(tx)`).
fn is_constructor(c: &syn::ExprCall) -> bool {
    matches!(&*c.func, syn::Expr::Path(p)
    if p.path.segments.last().is_some_and(|s| {
        s.ident.to_string().starts_with(char::is_uppercase)
    }))
}

/// The type argument a tuple-struct pattern unwraps: `State(s): State<Arc<AppState>>`
/// gives `Arc<AppState>` (an extractor's field is its type argument).
fn destructured_arg<'t>(pat: &syn::Pat, ty: &'t syn::Type) -> Option<&'t syn::Type> {
    let syn::Pat::TupleStruct(ts) = pat else {
        return None;
    };
    let syn::Type::Path(tp) = ty else {
        return None;
    };
    let last = tp.path.segments.last()?;
    if ts.path.segments.last()?.ident != last.ident {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// `match timeout { Some(t) => timeout(t, connect(a)), None => connect(a) }`: whether
/// `arm` is the one without the optional timeout, which the caller that passes `None`
/// chose (a connect or request there is bounded by that choice, not left unbounded).
pub(super) fn untimed_by_choice(m: &syn::ExprMatch, arm: &syn::Arm) -> bool {
    optional_timeout(&m.expr)
        && !some_pattern(&arm.pat)
        && m.arms.iter().any(|a| some_pattern(&a.pat))
}

/// `if let Some(t) = self.connect_timeout { .. } else { connect(a) }`: the same for the
/// `else` branch.
pub(super) fn else_untimed_by_choice(i: &syn::ExprIf) -> bool {
    matches!(&*i.cond, syn::Expr::Let(l) if some_pattern(&l.pat) && optional_timeout(&l.expr))
}

/// `if timeout_ms == 0 { send(..).await } else { timeout(d, send(..)).await }`: the
/// branch for a timeout of zero, which its caller chose to mean none.
pub(super) fn then_untimed_by_choice(i: &syn::ExprIf) -> bool {
    let syn::Expr::Binary(b) = &*i.cond else {
        return false;
    };
    let zero = |e: &syn::Expr| matches!(e, syn::Expr::Lit(l) if matches!(&l.lit, syn::Lit::Int(n) if n.base10_digits() == "0"));
    i.else_branch.is_some()
        && matches!(b.op, syn::BinOp::Eq(_))
        && ((optional_timeout(&b.left) && zero(&b.right))
            || (zero(&b.left) && optional_timeout(&b.right)))
}

/// An optional timeout as a value (`timeout`, `self.connect_timeout`, `opts.timeout_ms`,
/// `self.deadline_ms`).
fn optional_timeout(e: &syn::Expr) -> bool {
    let name = match e {
        syn::Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => Some(n.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        syn::Expr::Reference(r) => return optional_timeout(&r.expr),
        _ => None,
    };
    name.is_some_and(|n| {
        let n = n.to_ascii_lowercase();
        n.contains("timeout") || n.contains("deadline")
    })
}

/// `Some(..)`.
fn some_pattern(p: &syn::Pat) -> bool {
    matches!(p, syn::Pat::TupleStruct(ts) if ts.path.is_ident("Some"))
}

/// Whether an expression's receivers and callees are named for a shutdown or cancel
/// signal (`shutdown.shutdown_rx()`, `self.stop_rx.clone()`, `signal::ctrl_c()`).
pub(super) fn names_signal(e: &syn::Expr, words: &[String]) -> bool {
    let named = |ident: &syn::Ident| {
        let n = ident.to_string().to_ascii_lowercase();
        words.iter().any(|w| n.contains(w.as_str())) || n == "ctrl_c"
    };
    match e {
        syn::Expr::MethodCall(m) => named(&m.method) || names_signal(&m.receiver, words),
        syn::Expr::Call(c) => names_signal(&c.func, words),
        syn::Expr::Path(p) => p.path.segments.iter().any(|s| named(&s.ident)),
        syn::Expr::Field(f) => {
            matches!(&f.member, syn::Member::Named(i) if named(i)) || names_signal(&f.base, words)
        }
        syn::Expr::Reference(r) => names_signal(&r.expr, words),
        syn::Expr::Paren(p) => names_signal(&p.expr, words),
        _ => false,
    }
}

/// The expression of an expression statement or of a `let`'s initializer.
fn stmt_expr(s: &syn::Stmt) -> Option<&syn::Expr> {
    match s {
        syn::Stmt::Expr(e, _) => Some(e),
        syn::Stmt::Local(l) => l.init.as_ref().map(|i| &*i.expr),
        _ => None,
    }
}

/// Whether a task's first statements wait for a shutdown or cancel signal (`drop(srx
/// .changed().await);`, `let _ = signal::ctrl_c().await;`): what follows is its
/// shutdown path.
pub(super) fn awaits_signal_first(block: &syn::Block, locals: &[String], words: &[String]) -> bool {
    fn awaited(e: &syn::Expr) -> Option<&syn::Expr> {
        match e {
            syn::Expr::Await(a) => Some(&a.base),
            // `drop(rx.changed().await)`, `rx.changed().await.ok()`
            syn::Expr::Call(c) if c.args.len() == 1 => match &*c.func {
                syn::Expr::Path(p) if p.path.is_ident("drop") => awaited(&c.args[0]),
                _ => None,
            },
            syn::Expr::MethodCall(m) if m.args.len() <= 1 => awaited(&m.receiver),
            _ => None,
        }
    }
    block.stmts.iter().take(2).filter_map(stmt_expr).any(|e| {
        awaited(e).is_some_and(|base| {
            let local = match base {
                syn::Expr::MethodCall(m) => &*m.receiver,
                other => other,
            };
            let is_local = matches!(local, syn::Expr::Path(p)
                if p.path.get_ident().is_some_and(|i| locals.iter().any(|l| i == l)));
            is_local || names_signal(base, words)
        })
    })
}

/// A function whose body runs an interval forever (`loop { interval.tick().await; push()
/// .await; }`): a background job that paces itself, like a thread dedicated to one
/// job; what it alone calls serves no request.
fn periodic_loop(block: &syn::Block) -> Option<Entry> {
    let ticks = |body: &syn::Block| {
        body.stmts.iter().take(2).filter_map(stmt_expr).any(|e| {
            let syn::Expr::Await(a) = e else { return false };
            matches!(&*a.base, syn::Expr::MethodCall(m) if m.method == "tick" && m.args.is_empty())
        })
    };
    let paced = block.stmts.iter().any(|s| match s {
        syn::Stmt::Expr(syn::Expr::Loop(l), _) => ticks(&l.body),
        _ => false,
    });
    paced.then(|| Entry::new(Heat::Cold, "periodic job (a loop paced by an interval)"))
}

/// Whether a function body's own statements include a loop that runs until the
/// component stops: `loop { .. }`, `while !stopped { .. }` (a condition named for the
/// lifecycle), or `while let Ok(msg) = rx.recv() { .. }` (until its channel closes).
fn runs_until_stopped(block: &syn::Block) -> bool {
    block.stmts.iter().any(|s| match s {
        syn::Stmt::Expr(syn::Expr::Loop(_), _) => true,
        syn::Stmt::Expr(syn::Expr::While(w), _) => {
            let text = quote::ToTokens::to_token_stream(&w.cond).to_string();
            match &*w.cond {
                syn::Expr::Let(_) => text.contains("recv"),
                _ => crate::lang::names_lifecycle(&text),
            }
        }
        _ => false,
    })
}

/// A function that takes a `capacity` it enforces (`fn bounded(capacity: usize)` over
/// unbounded parts) bounds admission itself, as one that creates a `Semaphore` does
/// (tower's buffer: a permit per message on an unbounded channel).
fn takes_capacity(sig: &syn::Signature) -> bool {
    // `fn batch_bounded(size: u32)`: a constructor named for the bound it is given.
    let name = sig.ident.to_string();
    let named_bounded = name.contains("bounded") && !name.contains("unbounded");
    sig.inputs.iter().any(|i| {
        matches!(i, syn::FnArg::Typed(pt) if matches!(&*pt.pat, syn::Pat::Ident(p)
            if p.ident == "capacity" || p.ident == "max_capacity" || named_bounded))
    })
}

/// The sender under the accessors a send is made through: `self.tx.as_ref()`,
/// `tx.clone()`, `self.tx.as_ref().ok_or(Closed)?` (an `Option` the handle empties on
/// shutdown), `.unwrap()`, `.expect(..)`.
fn peel_sender(mut e: &syn::Expr) -> &syn::Expr {
    loop {
        e = match e {
            syn::Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "as_ref" | "clone" | "unwrap" | "expect" | "ok_or" | "ok_or_else"
                ) =>
            {
                &m.receiver
            }
            syn::Expr::Try(t) => &t.expr,
            syn::Expr::Paren(p) => &p.expr,
            _ => return e,
        };
    }
}

/// `Some` (the `Option` constructor), as a call's function.
fn is_some_path(func: &syn::Expr) -> bool {
    matches!(func, syn::Expr::Path(p) if p.path.is_ident("Some"))
}

/// What a loop does each round, for the threads it spawns.
#[derive(Clone, Copy, Default)]
pub(super) struct InnerLoop {
    /// It sleeps between rounds (`loop { ..; thread::sleep(day) }`): what it starts,
    /// it starts once a period.
    pub paced: bool,
    /// It accepts connections (`for s in listener.incoming()`): a thread it spawns
    /// serves one connection.
    pub conn: bool,
}

/// `while let Some(msg) = socket.next().await`: a loop over the messages of a stream.
fn awaits_next(cond: &syn::Expr) -> bool {
    let syn::Expr::Let(l) = cond else {
        return false;
    };
    let syn::Expr::Await(a) = &*l.expr else {
        return false;
    };
    matches!(&*a.base, syn::Expr::MethodCall(m)
        if matches!(m.method.to_string().as_str(), "next" | "recv" | "message" | "try_next"))
}

/// Whether a loop body sleeps at its top level (`thread::sleep(..)`,
/// `tokio::time::sleep(..).await`): one round per period, not per item.
fn sleeps_each_round(body: &syn::Block) -> bool {
    body.stmts.iter().any(|s| {
        let syn::Stmt::Expr(e, _) = s else {
            return false;
        };
        let e = match e {
            syn::Expr::Await(a) => &*a.base,
            e => e,
        };
        matches!(e, syn::Expr::Call(c) if matches!(&*c.func, syn::Expr::Path(p)
            if p.path.segments.last().is_some_and(|s| s.ident == "sleep")))
    })
}

/// A statement after which nothing in its block runs: `return ..;`, `panic!(..);`,
/// `unreachable!()`, `todo!()`, `unimplemented!()`.
fn diverges(stmt: &syn::Stmt) -> bool {
    let mac = match stmt {
        syn::Stmt::Expr(syn::Expr::Return(_), _) => return true,
        syn::Stmt::Expr(syn::Expr::Macro(m), _) => &m.mac,
        syn::Stmt::Macro(m) => &m.mac,
        _ => return false,
    };
    mac.path.get_ident().is_some_and(|i| {
        matches!(
            i.to_string().as_str(),
            "panic" | "unreachable" | "todo" | "unimplemented"
        )
    })
}

/// An argument that names SIGTERM: `SIGTERM`, `libc::SIGTERM`, `Signal::SIGTERM`, or a
/// list of signals with it.
fn names_sigterm(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "SIGTERM"),
        syn::Expr::Array(a) => a.elems.iter().any(names_sigterm),
        syn::Expr::Reference(r) => names_sigterm(&r.expr),
        _ => false,
    }
}

/// The call whose result a statement drops (its address, 0 for none): `spawn(..);`,
/// `spawn(..)?;` and `let _ = spawn(..);`.
fn dropped_call(stmt: &syn::Stmt) -> usize {
    let mut e = match stmt {
        syn::Stmt::Expr(e, Some(_)) => e,
        syn::Stmt::Local(syn::Local {
            pat: syn::Pat::Wild(_),
            init: Some(init),
            ..
        }) => &*init.expr,
        _ => return 0,
    };
    while let syn::Expr::Try(t) = e {
        e = &t.expr;
    }
    call_address(e)
}

/// The address of a call expression's call (what `awaited_call` and `dropped_call`
/// hold), 0 for anything else.
fn call_address(e: &syn::Expr) -> usize {
    match e {
        syn::Expr::Call(c) => c as *const _ as usize,
        syn::Expr::MethodCall(m) => m as *const _ as usize,
        _ => 0,
    }
}
