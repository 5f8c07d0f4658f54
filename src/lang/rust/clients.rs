//! Network clients for `missing_client_timeout`: a client (or builder) created
//! by a catalogued call, the method chain applied to it, and the calls later
//! made on the binding that holds it; `lang::clients` judges them.

use syn::visit::Visit;

use super::extract::{span, Extractor};
use crate::catalog::ClientEntry;
use crate::facts::Client;
use crate::lang::clients::{message, missing, Observed};
use crate::source::Span;

/// A method chain taken apart: its root expression and the calls on it, innermost first.
pub struct Chain<'e> {
    pub root: &'e syn::Expr,
    pub calls: Vec<&'e syn::ExprMethodCall>,
}

pub fn flatten(e: &syn::Expr) -> Chain<'_> {
    flatten_from(Vec::new(), e)
}

/// The root of `flatten(e)`, without collecting the chain's calls.
pub fn chain_root(mut cur: &syn::Expr) -> &syn::Expr {
    loop {
        cur = match cur {
            syn::Expr::MethodCall(m) => &m.receiver,
            syn::Expr::Try(t) => &t.expr,
            syn::Expr::Await(a) => &a.base,
            syn::Expr::Paren(p) => &p.expr,
            syn::Expr::Reference(r) => &r.expr,
            _ => return cur,
        }
    }
}

pub(super) fn flatten_from<'e>(
    mut calls: Vec<&'e syn::ExprMethodCall>,
    e: &'e syn::Expr,
) -> Chain<'e> {
    let mut cur = e;
    loop {
        match cur {
            syn::Expr::MethodCall(m) => {
                calls.push(m);
                cur = &m.receiver;
            }
            syn::Expr::Try(t) => cur = &t.expr,
            syn::Expr::Await(a) => cur = &a.base,
            syn::Expr::Paren(p) => cur = &p.expr,
            syn::Expr::Reference(r) => cur = &r.expr,
            _ => break,
        }
    }
    calls.reverse();
    Chain { root: cur, calls }
}

/// The chains a `let` initialiser can produce: each arm of a `match`, each branch
/// of an `if` (their blocks' tail expressions), or the expression itself. An arm
/// that unwraps the scrutinee (`match Endpoint::from_shared(u) { Ok(e) =>
/// e.timeout(t), Err(..) => return }`) continues the scrutinee's chain.
pub fn branch_chains(e: &syn::Expr) -> Vec<Chain<'_>> {
    fn body_chains(body: &syn::Expr) -> Vec<Chain<'_>> {
        match body {
            syn::Expr::Block(b) => block_value(&b.block).map(branch_chains).unwrap_or_default(),
            other => branch_chains(other),
        }
    }
    match e {
        // (An arm compiled only for tests, `#[cfg(test)] Mode::Test => Client::new()`,
        // builds no client of the product.)
        syn::Expr::Match(m) => m
            .arms
            .iter()
            .filter(|a| !super::extract::is_test(&a.attrs))
            .flat_map(|a| {
                let arm = body_chains(&a.body);
                match unwrapped(&a.pat) {
                    Some(x) => arm
                        .into_iter()
                        .map(|c| continue_with(c, x, &m.expr))
                        .collect(),
                    None => arm,
                }
            })
            .collect(),
        syn::Expr::If(i) => {
            let mut out = block_value(&i.then_branch)
                .map(branch_chains)
                .unwrap_or_default();
            // `if let Ok(e) = Endpoint::from_shared(u) { e.timeout(t) } else { .. }`
            if let syn::Expr::Let(l) = &*i.cond {
                if let Some(x) = unwrapped(&l.pat) {
                    out = out
                        .into_iter()
                        .map(|c| continue_with(c, x, &l.expr))
                        .collect();
                }
            }
            if let Some((_, other)) = &i.else_branch {
                out.extend(body_chains(other));
            }
            out
        }
        _ => chains(e),
    }
}

/// A block's value: its last statement when that is an expression without `;`.
pub fn block_value(b: &syn::Block) -> Option<&syn::Expr> {
    match b.stmts.last() {
        Some(syn::Stmt::Expr(e, None)) => Some(e),
        _ => None,
    }
}

/// The chains of an expression whose root may be a branch: `if p { B::new().proxy(p) }
/// else { B::new() }.timeout(t).build()` is two chains, each ending in the outer calls.
pub fn chains(e: &syn::Expr) -> Vec<Chain<'_>> {
    let outer = flatten(e);
    match outer.root {
        syn::Expr::If(_) | syn::Expr::Match(_) => branch_chains(outer.root)
            .into_iter()
            .map(|mut c| {
                c.calls.extend(outer.calls.iter().copied());
                c
            })
            .collect(),
        _ => vec![outer],
    }
}

/// The name `Ok(x)` / `Some(x)` binds.
pub fn unwrapped(pat: &syn::Pat) -> Option<&syn::Ident> {
    let syn::Pat::TupleStruct(t) = pat else {
        return None;
    };
    let last = t.path.segments.last()?.ident.to_string();
    match (last.as_str(), t.elems.iter().collect::<Vec<_>>().as_slice()) {
        ("Ok" | "Some", [syn::Pat::Ident(i)]) => Some(&i.ident),
        _ => None,
    }
}

/// A chain rooted at `x`, the unwrapped value of `scrutinee`: the scrutinee's own
/// chain followed by it. Other chains are left as they are.
fn continue_with<'e>(c: Chain<'e>, x: &syn::Ident, scrutinee: &'e syn::Expr) -> Chain<'e> {
    let rooted = matches!(c.root, syn::Expr::Path(p) if p.path.is_ident(x));
    if !rooted {
        return c;
    }
    let mut inner = flatten(scrutinee);
    inner.calls.extend(c.calls);
    inner
}

fn observed(m: &syn::ExprMethodCall) -> Observed<()> {
    let first = m.args.first();
    Observed {
        method: m.method.to_string(),
        first_arg: None,
        first_arg_text: first
            .map(|a| quote::ToTokens::to_token_stream(a).to_string())
            .unwrap_or_default(),
    }
}

impl<'a> Extractor<'a> {
    /// The client entries a call starts, if it is a catalogued start.
    fn client_entries(&self, root: &syn::Expr) -> Vec<ClientEntry> {
        let syn::Expr::Call(c) = root else {
            return Vec::new();
        };
        let syn::Expr::Path(p) = &*c.func else {
            return Vec::new();
        };
        let catalog = self.catalog;
        // `client_builder(headers).build()`: a function of this file that returns a
        // builder starts that builder.
        if let Some((new, _)) = builder_fn(root).and_then(|f| self.builder_fns.get(&f)) {
            return catalog
                .clients_starting("call", new)
                .into_iter()
                .filter(|e| !e.internal && e.ends.is_some())
                .cloned()
                .collect();
        }
        // Every call expression comes through here: reject by the last name before resolving.
        let last = p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if !catalog.may_start_client(&last) {
            return Vec::new();
        }
        let Some(full) = self.call_path(root) else {
            return Vec::new();
        };
        catalog
            .clients_starting("call", &full)
            .into_iter()
            .filter(|e| !e.internal)
            .cloned()
            .collect()
    }

    /// The full path a call expression's function resolves to (`Client::builder` ->
    /// `hyper_util::client::legacy::Client::builder`).
    fn call_path(&self, root: &syn::Expr) -> Option<String> {
        let syn::Expr::Call(c) = root else {
            return None;
        };
        let syn::Expr::Path(p) = &*c.func else {
            return None;
        };
        let catalog = self.catalog;
        self.types.imports.resolve(&p.path, &|s| catalog.knows(s))
    }

    /// `build_safe_client(reqwest::Client::builder())`: a client start passed whole to a
    /// path call is built by the function called, if anywhere.
    pub(super) fn note_handed_builders(&mut self, c: &syn::ExprCall) {
        if !matches!(&*c.func, syn::Expr::Path(_)) {
            return;
        }
        for (i, a) in c.args.iter().enumerate() {
            let root = chain_root(a);
            if !self.client_entries(root).is_empty() {
                let call = super::calls::fn_call_span(c);
                let at = super::spans::expr(root).start;
                self.handed_builders.insert(at, (call, i as u8));
            }
        }
    }

    /// `let channel = meta.node_conn(id).await?;` then only `time_out_client(channel, d)`
    /// or requests that each set `.timeout(..)`: what the call returns, if a client, is
    /// bounded here ([`FileFacts::bounded_takes`]).
    pub(super) fn note_bounded_take(&mut self, name: &str, init: &syn::Expr, later: &[syn::Stmt]) {
        let Some(call) = taken_call(init) else { return };
        let mut uses = VarUses::new(name, false);
        for stmt in later {
            uses.visit_stmt(stmt);
        }
        if uses.escapes || !uses.moved.iter().all(|(f, _)| names_timeout(f)) {
            return;
        }
        let mut requests = TimedRequests {
            aliases: vec![name.to_string()],
            ..TimedRequests::default()
        };
        for stmt in later {
            requests.visit_stmt(stmt);
        }
        let timed = requests.starts == 0 || requests.all_timed();
        if timed && (!uses.moved.is_empty() || requests.starts > 0) {
            self.facts.bounded_takes.push(call);
        }
    }

    /// `Self { client: http, .. }` in a function given `http`: it keeps that parameter
    /// in a field whose type is a client bounded request by request (`reqwest::Client`).
    pub(super) fn note_keeper(&mut self, owner: &str, field: &str, value: &syn::Expr) {
        let Some((param, p)) = self.kept_param(value) else {
            return;
        };
        let Some(ty) = self
            .types
            .fields
            .get(&(owner.to_string(), field.to_string()))
        else {
            return;
        };
        let per_request = self.catalog.timed_per_request(ty);
        let (Some(ctx), Ok(param), true) = (self.current_ctx(), u8::try_from(param), per_request)
        else {
            return;
        };
        self.facts.keepers.push(crate::facts::Keeper {
            ctx,
            param,
            timed: false,
            span: span(p.segments[0].ident.span()),
            sender: None,
        });
    }

    /// The parameter a field initializer names (`client: http` in a function given
    /// `http`): its index, and the path.
    pub(super) fn kept_param<'e>(&self, value: &'e syn::Expr) -> Option<(usize, &'e syn::Path)> {
        let syn::Expr::Path(p) = value else {
            return None;
        };
        let id = p.path.get_ident()?;
        let param = self.params.iter().position(|x| id == x)?;
        Some((param, &p.path))
    }

    /// `fn build_safe_client(b: ClientBuilder) -> .. { b.redirect(..).build() }`: this
    /// function builds the builder its parameter `b` is given.
    pub(super) fn note_finisher(&mut self, m: &syn::ExprMethodCall) {
        if self.params.is_empty() || !self.catalog.ends_client(&m.method) {
            return;
        }
        let chain = flatten_from(vec![m], &m.receiver);
        let syn::Expr::Path(p) = chain.root else {
            return;
        };
        let Some(id) = p.path.get_ident() else { return };
        let Some(param) = self.params.iter().position(|x| id == x) else {
            return;
        };
        let (Some(ctx), Ok(param)) = (self.current_ctx(), u8::try_from(param)) else {
            return;
        };
        self.facts.finishers.push(crate::facts::Finisher {
            ctx,
            param,
            sets: chain
                .calls
                .iter()
                .map(|c| c.method.to_string().into())
                .collect(),
            span: span(m.method.span()),
        });
    }

    /// `builder().timeout(..).build().unwrap_or_else(|_| Client::new())`: the fallback
    /// runs only when `build()` fails, and `Client::new()` fails (panics) the same way,
    /// so it never hands out a client: not a client of its own.
    pub(super) fn skip_fallback_clients(&mut self, e: &syn::Expr) {
        let syn::Expr::MethodCall(m) = e else { return };
        if !(m.method == "unwrap_or_else" || m.method == "unwrap_or") {
            return;
        }
        if self.client_entries(flatten(&m.receiver).root).is_empty() {
            return;
        }
        for a in &m.args {
            let mut body = match a {
                syn::Expr::Closure(c) => &*c.body,
                other => other,
            };
            // `|err| { log(err); Client::new() }`: the block's value.
            if let syn::Expr::Block(b) = body {
                match block_value(&b.block) {
                    Some(tail) => body = tail,
                    None => continue,
                }
            }
            let root = flatten(body).root;
            self.clients_seen.insert(super::spans::expr(root).start);
        }
    }

    /// Check a chain (`Client::builder().x().build()`), optionally bound to a
    /// variable whose later uses are in `later`.
    /// The clients the chains of one expression create (its branches: `if p {
    /// B::new().proxy(p) } else { B::new() }.build()`): a client the same as one an
    /// earlier branch made is one hazard, reported once.
    pub(super) fn client_chains(
        &mut self,
        chains: Vec<Chain<'_>>,
        var: Option<(&str, &[syn::Stmt])>,
    ) {
        let batch = self.facts.clients.len();
        for chain in chains {
            self.client_chain(chain, var, batch);
        }
    }

    fn client_chain(&mut self, chain: Chain<'_>, var: Option<(&str, &[syn::Stmt])>, batch: usize) {
        let start = super::spans::expr(chain.root);
        if self.clients_seen.contains(&start.start) {
            return;
        }
        let entries = self.client_entries(chain.root);
        if entries.is_empty() {
            self.note_builder_use(&chain, var);
            return;
        }
        // `TcpStream::connect("127.0.0.1:6969")`: a loopback connect is refused or
        // accepted at once; there is no dead host to wait for.
        if let syn::Expr::Call(c) = chain.root {
            let connect = matches!(&*c.func, syn::Expr::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == "connect"));
            if connect && c.args.first().is_some_and(|a| self.loopback_address(a)) {
                return;
            }
        }
        self.clients_seen.insert(start.start);
        let mut calls: Vec<Observed<()>> = chain.calls.iter().map(|m| observed(m)).collect();
        // What a builder function may set on the builder it returns counts as set.
        if let Some((_, set)) = builder_fn(chain.root).and_then(|f| self.builder_fns.get(&f)) {
            calls.extend(set.iter().map(|m| Observed {
                method: m.clone(),
                first_arg: None,
                first_arg_text: String::new(),
            }));
        }
        // `builder.build()?.execute(req)` after `*req.timeout_mut() = Some(d)`: that
        // request's own timeout bounds the call.
        let timed_request = calls
            .iter()
            .any(|c| c.method == "execute" && self.timed_requests.contains(&c.first_arg_text));
        if timed_request {
            calls.push(Observed {
                method: "timeout".into(),
                first_arg: None,
                first_arg_text: String::new(),
            });
        }
        // A connector inside a tower `Service` impl: the stack adds the timeouts; a
        // bb8/r2d2 manager's `connect`: the pool's checkout timeout bounds it.
        let mut wrapped = self.timeout_wrapped > 0 || self.in_layer == Some(self.method.as_str());
        // `send_json(Client::new().get(url))`: sent by the call it is handed to; and
        // `Client::builder().build()?.post(url).send()`: sent by its own chain.
        let mut local =
            var.is_none() && (self.handed_requests.contains(&start.start) || holds_request(&chain));
        let mut handed = match var {
            None => self.handed_builders.get(&start.start).copied(),
            Some(_) => None,
        };
        // Lent to this file's functions (`stream(&client, ..)`) and no request made on
        // it here: bounded where the file's requests all are, as a field's client is.
        let mut lent_only = false;
        // Handed whole to one path call and used for no request here (`PeerClient::new(http,
        // ..)`): judged where that call keeps it.
        let mut handed_to = None;
        if let Some((name, later)) = var {
            let mut uses = VarUses::new(name, holds_request(&chain));
            for stmt in later {
                uses.visit_stmt(stmt);
            }
            // `download(path, client, &v)`: moved into a function of this file that
            // keeps it to itself, it still ends with this call.
            // A builder's client built into another local (`let c = builder.build(conn);`)
            // and stored is kept elsewhere too.
            let kept_elsewhere =
                uses.escapes || ((uses.reassigned || uses.built) && uses.derived_escapes);
            local = !kept_elsewhere && uses.moved.iter().all(|(f, i)| self.param_stays(f, *i));
            handed = uses.handed.first().copied();
            let requested = uses
                .calls
                .iter()
                .any(|c| REQUEST_METHODS.contains(&c.method.as_str()));
            if let [one] = uses.handed[..] {
                handed_to = (!requested).then_some(one);
            }
            wrapped |= uses.raced_with_timer;
            lent_only = local
                && !uses.wrapper_args.is_empty()
                && !uses
                    .calls
                    .iter()
                    .any(|c| REQUEST_METHODS.contains(&c.method.as_str()));
            calls.extend(uses.calls);
            // `let endpoint = apply_options(endpoint, opts);`: what a function of this
            // file sets on the parameter it is given counts as set here.
            for (name, idx) in &uses.helper_args {
                calls.extend(configured_param(self.file, name, *idx));
            }
            wrapped |= uses.wrapper_args.iter().any(|path| {
                let catalog = self.catalog;
                let full = self.types.imports.resolve(path, &|s| catalog.knows(s));
                timeout_helper(path)
                    || entries
                        .iter()
                        .any(|e| full.as_ref().is_some_and(|f| e.wrapped_by.contains(f)))
            });
        }
        for entry in entries {
            if wrapped && !entry.wrapped_by.is_empty() {
                continue;
            }
            if !entry.connectors.is_empty() && self.built_on_connector(&chain) {
                continue;
            }
            // A builder handed elsewhere before it is built is judged where it is built:
            // by a function of the project the call resolves to (see `BuiltBy`).
            let unbuilt = entry
                .ends
                .as_ref()
                .is_some_and(|e| !calls.iter().any(|c| &c.method == e));
            let built_by = match (unbuilt, handed) {
                (false, _) => None,
                (true, Some((call, arg))) => Some(crate::facts::BuiltBy {
                    call,
                    arg,
                    bounds: needed_methods(&entry),
                }),
                // What a builder function returns is built by its callers.
                (true, None) if var.is_none() && self.in_builder_fn() => None,
                (true, None) => continue,
            };
            let returned = (unbuilt && built_by.is_none()).then(|| needed_methods(&entry));
            let Some(lacks) = missing(&entry, &calls, &mut |_, _| None) else {
                continue;
            };
            let s = self.root_span(chain.root);
            let args = match chain.root {
                syn::Expr::Call(c) if !c.args.is_empty() => "(..)",
                _ => "()",
            };
            let what = format!("`{}{args}`", path_text(chain.root));
            let message = message(&what, &entry, &lacks);
            if self.facts.clients[batch..]
                .iter()
                .any(|c| c.message == message)
            {
                continue;
            }
            // A client kept in a struct (or lent to this file's functions): bounded
            // where every request through it is (a per-request `.timeout(..)`, or
            // `tokio::time::timeout` around each one, the only bound hyper's client has).
            let per_request = entry
                .needs
                .iter()
                .any(|n| n.split('|').any(|a| a == "timeout"))
                || (entry.fixed && !entry.one_shot && !entry.wrapped_by.is_empty());
            if (!local || lent_only) && per_request {
                self.stored_clients.push(self.facts.clients.len());
                // `reqwest::Client::new` / `::builder` build a `reqwest::Client` (the
                // start the chain matched: hyper-util's legacy `Client::builder` its own).
                let matched = self.call_path(chain.root).filter(|f| {
                    entry
                        .starts
                        .iter()
                        .any(|s| s.strip_prefix("call:") == Some(f))
                });
                let built = matched
                    .as_deref()
                    .or_else(|| entry.starts.first().and_then(|s| s.strip_prefix("call:")))
                    .and_then(|path| Some(path.rsplit_once("::")?.0.to_string()));
                if let Some(t) = built.filter(|_| !local) {
                    let owner = self.impl_type.clone();
                    self.stored_types
                        .push((self.facts.clients.len(), t, owner, entry.fixed));
                }
            }
            let ctx = self.ctx_or_file();
            self.facts.clients.push(Client {
                span: s,
                ctx,
                message,
                help: entry.help.clone(),
                local: local || entry.one_shot,
                requests: Vec::new(),
                serves: false,
                os_bounded: entry.os_bounded,
                in_default: self.impl_trait.as_deref() == Some("Default")
                    && self.method == "default",
                default_ctor: false,
                bean: None,
                built_by,
                returned_by: None,
                made_with: Vec::new(),
                unbuilt: returned,
                static_item: self.static_item.as_deref().map(Into::into),
                handed_to: handed_to.filter(|_| !unbuilt),
            });
        }
    }

    /// `Client::builder(exec).build(connector)` where `connector` carries timeouts
    /// (a local bound to one, or the call that makes it).
    fn built_on_connector(&self, chain: &Chain<'_>) -> bool {
        chain
            .calls
            .iter()
            .filter(|m| self.catalog.ends_client(&m.method))
            .filter_map(|m| m.args.first())
            .any(|a| match a {
                syn::Expr::Path(p) => p
                    .path
                    .get_ident()
                    .is_some_and(|i| self.connector_locals.iter().any(|c| i == c)),
                other => self.timeout_connector(other),
            })
    }

    /// Whether an expression makes a connector that carries timeouts:
    /// `TimeoutConnector::new(http)`, or a call of this file's function declared to
    /// return one (`self.with_timeouts(http)`).
    pub(super) fn timeout_connector(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Try(t) => self.timeout_connector(&t.expr),
            syn::Expr::Paren(p) => self.timeout_connector(&p.expr),
            syn::Expr::MethodCall(m) => {
                !self.connector_fns.is_empty() && self.connector_fns.contains(&m.method.to_string())
            }
            syn::Expr::Call(c) => {
                let syn::Expr::Path(p) = &*c.func else {
                    return false;
                };
                let segs = &p.path.segments;
                if segs.len() == 1 {
                    return !self.connector_fns.is_empty()
                        && self.connector_fns.contains(&segs[0].ident.to_string());
                }
                // `TimeoutConnector::new(..)`: the type's simple name first.
                let ty = segs.iter().nth_back(1).map(|s| s.ident.to_string());
                let new = segs.last().is_some_and(|s| s.ident == "new");
                if !new || !ty.is_some_and(|t| self.catalog.may_be_connector(&t)) {
                    return false;
                }
                let catalog = self.catalog;
                self.types
                    .imports
                    .resolve(&p.path, &|s| catalog.knows(s))
                    .and_then(|full| full.strip_suffix("::new").map(|t| catalog.is_connector(t)))
                    .unwrap_or(false)
            }
            _ => false,
        }
    }

    /// Whether the current function is a top-level one of this file declared to return
    /// a client builder (`builder_fns`).
    fn in_builder_fn(&self) -> bool {
        self.impl_type.is_none() && self.builder_fns.contains_key(&self.method)
    }

    /// `let b = http::api_builder(); b.build()`, with `api_builder` a function of
    /// another file: what this code sets on the builder it returns before building it
    /// (a [`crate::facts::BuilderUse`]; the model pairs it with the function's
    /// `Client::unbuilt`).
    fn note_builder_use(&mut self, chain: &Chain<'_>, var: Option<(&str, &[syn::Stmt])>) {
        let syn::Expr::Call(c) = chain.root else {
            return;
        };
        let syn::Expr::Path(p) = &*c.func else {
            return;
        };
        // Built in its own chain, or held in a variable that may be built later (the
        // quick rejects first: most calls are neither).
        let in_chain = chain
            .calls
            .iter()
            .any(|m| self.catalog.ends_client(&m.method));
        if !in_chain && var.is_none() {
            return;
        }
        let Some(ctx) = self.current_ctx().filter(|_| self.timeout_wrapped == 0) else {
            return;
        };
        // One of this file's builder functions is a client start (`client_entries`).
        let own = p
            .path
            .get_ident()
            .is_some_and(|i| self.builder_fns.contains_key(&i.to_string()));
        if own || !self.names_project_item(&p.path) {
            return;
        }
        let mut calls: Vec<Observed<()>> = chain.calls.iter().map(|m| observed(m)).collect();
        if let Some((name, later)) = var.filter(|_| !in_chain) {
            let mut uses = VarUses::new(name, false);
            for stmt in later {
                uses.visit_stmt(stmt);
            }
            // Stored, returned or moved away: built elsewhere. (Where the client built
            // from it goes does not matter: it is made here.)
            let built = uses
                .calls
                .iter()
                .any(|o| self.catalog.ends_client(o.method.as_str()));
            if !built || uses.escapes || !uses.moved.is_empty() {
                return;
            }
            calls.extend(uses.calls);
        }
        // A `let`'s chain comes here again as an expression.
        if !self
            .clients_seen
            .insert(super::spans::expr(chain.root).start)
        {
            return;
        }
        self.facts.builder_uses.push(crate::facts::BuilderUse {
            ctx,
            call: super::calls::fn_call_span(c),
            sets: calls.into_iter().map(|o| o.method.into()).collect(),
        });
    }

    /// The requests through a field of the client's type (`self.client.post(url)` in
    /// `impl Output` whose `client: reqwest::Client`) of the struct that keeps the
    /// client: hot requests make it hot, as for Java clients kept in fields.
    pub fn field_requests(&mut self, file: &syn::File) {
        if self.stored_types.is_empty() {
            return;
        }
        let mut v = FieldCalls::default();
        v.visit_file(file);
        for (client, ty, impl_type, fixed) in std::mem::take(&mut self.stored_types) {
            // The struct that keeps it: the file's one struct with a field of that type
            // (`HttpOutput { client, .. }` built in another impl, where the client is
            // made), else the impl's own. (A stream a reconnect loop connects and hands
            // to a function is not the stream another struct of the file accepts.)
            let made_in = self.facts.clients.get(client).map(|c| c.ctx);
            let built_there = |owner: &str| {
                impl_type.as_deref() == Some(owner)
                    || self.struct_literals.iter().any(|(o, at)| {
                        o == owner && made_in.is_some_and(|m| self.facts.inside(Some(*at), m))
                    })
            };
            let mut keepers: Vec<&str> = self
                .types
                .fields
                .iter()
                .filter(|((owner, _), t)| **t == ty && built_there(owner))
                .map(|((owner, _), _)| owner.as_str())
                .collect();
            keepers.sort_unstable();
            keepers.dedup();
            let keeper = match keepers[..] {
                [one] => Some(one.to_string()),
                _ => impl_type,
            };
            let Some(keeper) = keeper else {
                continue;
            };
            // `impl Service<Req> for Transport { async fn call(..) { self.client.request(..) } }`
            // over a client that cannot bound itself (hyper's) kept in its field (or made
            // by its impl and kept, wrapped in a layer stack under an alias): the
            // transport of a service stack, whose layers are where its bound belongs.
            let layers = &self.catalog.data.layer_traits;
            if fixed
                && self
                    .facts
                    .trait_impls
                    .iter()
                    .any(|(t, ty)| *ty == keeper && layers.contains(t))
            {
                self.layered_clients.push(client);
                continue;
            }
            let spans = v.calls.iter().filter(|(owner, field, _)| {
                *owner == keeper
                    && self
                        .types
                        .fields
                        .get(&(owner.clone(), field.clone()))
                        .is_some_and(|t| *t == ty)
            });
            let requests: Vec<Span> = spans.map(|(_, _, s)| *s).collect();
            if let Some(c) = self.facts.clients.get_mut(client) {
                c.requests = requests;
            }
        }
    }

    /// Whether a free function of this file named `name` keeps its parameter `idx`
    /// to itself (uses it, borrows it on, never stores, clones or moves it further).
    fn param_stays(&self, name: &str, idx: usize) -> bool {
        let found = self.file.items.iter().find_map(|item| match item {
            syn::Item::Fn(f) if f.sig.ident == name => Some(f),
            _ => None,
        });
        let Some(f) = found else { return false };
        let param = match f.sig.inputs.iter().nth(idx) {
            Some(syn::FnArg::Typed(t)) => pat_ident(&t.pat),
            _ => None,
        };
        let Some(param) = param else { return false };
        let mut uses = VarUses::new(&param, false);
        for stmt in &f.block.stmts {
            uses.visit_stmt(stmt);
        }
        !uses.escapes && uses.moved.is_empty()
    }

    /// A client kept in a struct whose file gives every request it starts on a field
    /// a per-request `.timeout(..)` (`self.client.request(m, url)` then
    /// `rb.timeout(d)`, one send helper for every call): bounded, so not reported;
    /// nor is a hyper client a transport-layer type keeps (`layered_clients`).
    pub fn bound_per_request(&mut self, file: &syn::File) {
        let mut drop: std::collections::HashSet<usize> = self.layered_clients.drain(..).collect();
        let keepers = self.facts.keepers.iter().any(|k| k.sender.is_none());
        if !self.stored_clients.is_empty() || self.static_calls || keepers {
            let mut v = TimedRequests::default();
            v.visit_file(file);
            let timed = v.all_timed();
            if !self.stored_clients.is_empty() && timed {
                drop.extend(self.stored_clients.drain(..));
            }
            for k in self.facts.keepers.iter_mut().filter(|k| k.sender.is_none()) {
                k.timed = timed;
            }
            self.facts.static_requests = v.on_statics();
        }
        if drop.is_empty() {
            return;
        }
        let mut i = 0;
        self.facts.clients.retain(|_| {
            i += 1;
            !drop.contains(&(i - 1))
        });
    }

    /// Whether calls to this path bound what runs inside them (`tokio::time::timeout`).
    pub(super) fn is_client_wrapper(&self, full: &str) -> bool {
        // A crate re-exporting tokio's timers (`n0_future::time::timeout`) or wrapping
        // them (`hbb_common::timeout(ms, f)`).
        let timer = matches!(full.rsplit("::").next(), Some("timeout" | "timeout_at"));
        timer
            || self
                .catalog
                .data
                .clients
                .iter()
                .any(|c| c.wrapped_by.iter().any(|w| w == full))
    }

    fn root_span(&self, root: &syn::Expr) -> Span {
        let whole = super::spans::expr(root);
        match root {
            syn::Expr::Call(c) if !super::spans::one_line(root) => {
                Span::new(whole.start, span(super::spans::last(&c.func)).end)
            }
            _ => whole,
        }
    }
}

/// The name of the lone function a chain's root calls (`client_builder(..)`).
fn builder_fn(root: &syn::Expr) -> Option<String> {
    let syn::Expr::Call(c) = root else {
        return None;
    };
    let syn::Expr::Path(p) = &*c.func else {
        return None;
    };
    p.path.get_ident().map(ToString::to_string)
}

/// A function of the project named for a timeout (`with_timeout(channel, d)`,
/// `rpc_time_out_client(channel, d)`): it bounds the client it is given.
pub(super) fn timeout_helper(path: &syn::Path) -> bool {
    path.segments
        .last()
        .is_some_and(|s| names_timeout(&s.ident.to_string()))
}

/// A function name that names a timeout (`with_timeout`, `rpc_time_out_client`).
fn names_timeout(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.contains("timeout") || name.contains("time_out")
}

fn path_text(root: &syn::Expr) -> String {
    match root {
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => super::resolve::segments(&p.path).join("::"),
            _ => String::new(),
        },
        _ => String::new(),
    }
}

/// Calls made on a variable in the statements after its binding, the calls it is
/// passed to (to see a `timeout(.., var)` wrapper), and whether it escapes: used
/// other than as the receiver of calls or a borrowed argument (stored, returned,
/// moved, captured by a closure or `async` block).
struct VarUses<'v> {
    var: &'v str,
    /// Requests built from it (`let req = client.get(url);`): calls on them count.
    derived: Vec<String>,
    calls: Vec<Observed<()>>,
    wrapper_args: Vec<syn::Path>,
    /// Calls of a plain function name it is passed to, with the argument's index.
    helper_args: Vec<(String, usize)>,
    /// Path calls it is passed to by value (`build_safe_client(builder)`): the call's
    /// span and the argument's index.
    handed: Vec<(Span, u8)>,
    /// Plain functions it is moved into (`download(path, client)`), with the index.
    moved: Vec<(String, usize)>,
    escapes: bool,
    /// Depth of closures and `async` blocks around the current expression.
    closures: usize,
    /// Awaited in a `select!` beside a timer arm.
    raced_with_timer: bool,
    /// It holds one request (`Client::new().post(url)`): a call it is handed to by
    /// value sends it there, so it goes no further than that call.
    request: bool,
    /// A builder given one more setting in place (`builder = builder.no_proxy();`).
    reassigned: bool,
    /// What is derived from it is stored, moved or captured (followed for a
    /// reassigned builder, whose client is derived).
    derived_escapes: bool,
    /// A local is derived from it with a `build` call (`let c = builder.build(conn);`):
    /// a builder, whose client is derived.
    built: bool,
}

/// Calls that make a `select!` arm a time bound (`interval.tick()` too).
pub(super) const TIMER_ARMS: [&str; 7] = [
    "sleep",
    "sleep_until",
    "timeout",
    "timeout_at",
    "deadline",
    "tick",
    "delay_for",
];

impl<'v> VarUses<'v> {
    fn new(var: &'v str, request: bool) -> Self {
        VarUses {
            var,
            derived: Vec::new(),
            calls: Vec::new(),
            wrapper_args: Vec::new(),
            helper_args: Vec::new(),
            handed: Vec::new(),
            moved: Vec::new(),
            escapes: false,
            closures: 0,
            raced_with_timer: false,
            request,
            reassigned: false,
            derived_escapes: false,
            built: false,
        }
    }

    fn is_var(&self, e: &syn::Expr) -> bool {
        matches!(e, syn::Expr::Path(p) if p.path.is_ident(self.var))
    }

    fn is_derived(&self, e: &syn::Expr) -> bool {
        matches!(e, syn::Expr::Path(p) if self.derived.iter().any(|d| p.path.is_ident(d)))
    }
}

impl<'ast> Visit<'ast> for VarUses<'_> {
    fn visit_local(&mut self, l: &'ast syn::Local) {
        if crate::lang::rust::extract::is_wasm_only(&l.attrs) {
            return;
        }
        // `let req = client.get(url);` (also `let req = req.header(..);`)
        if let (Some(init), syn::Pat::Ident(p)) = (&l.init, &l.pat) {
            let chain = flatten(&init.expr);
            if !chain.calls.is_empty() && (self.is_var(chain.root) || self.is_derived(chain.root)) {
                self.derived.push(p.ident.to_string());
                self.built |= chain.calls.iter().any(|c| c.method == "build");
            }
        }
        syn::visit::visit_local(self, l);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let chain = flatten_from(vec![m], &m.receiver);
        let (var, derived) = (self.is_var(chain.root), self.is_derived(chain.root));
        if var || derived {
            self.calls.extend(chain.calls.iter().map(|c| observed(c)));
            if self.closures > 0 || chain.calls.iter().any(|c| c.method == "clone") {
                // (A name that is both, `let b = b.x();`, counts as derived.)
                if derived {
                    self.derived_escapes = true;
                } else {
                    self.escapes = true;
                }
            }
            visit_chain_args(self, &chain);
            return;
        }
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        // `helper(..)`: a function of a plain name, which may be this file's.
        let plain = match &*c.func {
            syn::Expr::Path(p) => p.path.get_ident(),
            _ => None,
        };
        let passes_var = c.args.iter().any(|a| {
            let root = flatten(a).root;
            self.is_var(root) || self.is_derived(root)
        });
        if let (true, syn::Expr::Path(p)) = (passes_var, &*c.func) {
            self.wrapper_args.push(p.path.clone());
            let at = c.args.iter().position(|a| self.is_var(flatten(a).root));
            if let (Some(name), Some(at)) = (plain, at) {
                self.helper_args.push((name.to_string(), at));
            }
            if let Some(at) = c.args.iter().position(|a| self.is_var(a)) {
                let call = super::calls::fn_call_span(c);
                self.handed.push((call, at as u8));
            }
        }
        self.visit_expr(&c.func);
        for (i, a) in c.args.iter().enumerate() {
            // `fetch(&client, url)`: borrowed for the call, it stays here;
            // `send_json(req)`: a request handed over is sent by that call;
            // `download(path, client)`: moved into a function, judged there.
            match a {
                syn::Expr::Reference(r) if self.is_var(&r.expr) && self.closures == 0 => {}
                _ if self.is_var(a) && self.closures == 0 => match plain {
                    _ if self.request => {}
                    Some(f) => self.moved.push((f.to_string(), i)),
                    None => self.escapes = true,
                },
                _ => self.visit_expr(a),
            }
        }
    }

    fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
        if p.path.is_ident(self.var) {
            self.escapes = true;
        }
        if self.derived.iter().any(|d| p.path.is_ident(d)) {
            self.derived_escapes = true;
        }
    }

    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        // `req = req.header(k, v);`: the same request, one more setting. (Not for a
        // client's builder: what it builds may be stored, which this does not follow.)
        // A builder's setting in place counts when what it builds stays here too.
        let same = matches!(&*a.left, syn::Expr::Path(p) if p.path.is_ident(self.var))
            && self.is_var(flatten(&a.right).root);
        if same {
            self.reassigned |= !self.request;
            self.visit_expr(&a.right);
        } else {
            syn::visit::visit_expr_assign(self, a);
        }
    }

    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        // `Api { client }`: the shorthand names the variable without a path expression;
        // `Self { inner: builder.build(connector) }`: what it builds is kept there.
        for f in &s.fields {
            let shorthand = match (&f.member, f.colon_token) {
                (syn::Member::Named(n), None) => Some(n),
                _ => None,
            };
            let chain = flatten(&f.expr);
            if shorthand.is_some_and(|n| n == self.var)
                || (self.is_var(chain.root) && !chain.calls.is_empty())
            {
                self.escapes = true;
            }
            if shorthand.is_some_and(|n| self.derived.iter().any(|d| n == d)) {
                self.derived_escapes = true;
            }
        }
        syn::visit::visit_expr_struct(self, s);
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        self.closures += 1;
        syn::visit::visit_expr_closure(self, c);
        self.closures -= 1;
    }

    fn visit_expr_async(&mut self, a: &'ast syn::ExprAsync) {
        self.closures += 1;
        syn::visit::visit_expr_async(self, a);
        self.closures -= 1;
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // A macro's tokens may use it in any way (`json!({ "c": client })`); a
        // formatting macro only reads it.
        let formatting = m.path.segments.last().is_some_and(|s| {
            matches!(
                s.ident.to_string().as_str(),
                "println" | "eprintln" | "format" | "info" | "debug" | "warn" | "error" | "trace"
            )
        });
        // `try_join!(latest(&client), installed(&path))`: futures polled right here,
        // their expressions seen as such.
        let joins = m
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "join" || s.ident == "try_join");
        if joins {
            type Exprs = syn::punctuated::Punctuated<syn::Expr, syn::Token![,]>;
            if let Ok(exprs) = m.parse_body_with(Exprs::parse_terminated) {
                exprs.iter().for_each(|e| self.visit_expr(e));
                return;
            }
        }
        if !formatting && mentions(m.tokens.clone(), self.var) {
            self.escapes = true;
            // `select! { r = req => r, _ = sleep(t) => .. }`: a timer arm bounds it.
            let select = m
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident.to_string().starts_with("select"));
            if select && TIMER_ARMS.iter().any(|t| mentions(m.tokens.clone(), t)) {
                self.raced_with_timer = true;
            }
        }
    }
}

/// Whether a token stream names `var` anywhere, inside groups too.
fn mentions(ts: proc_macro2::TokenStream, var: &str) -> bool {
    ts.into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == var,
        proc_macro2::TokenTree::Group(g) => mentions(g.stream(), var),
        _ => false,
    })
}

/// Whether a chain turns a client into one request (`Client::new().get(url)`).
pub fn holds_request(chain: &Chain) -> bool {
    chain
        .calls
        .iter()
        .any(|m| REQUEST_METHODS.iter().any(|r| m.method == r))
}

/// Methods of an HTTP client that start a request.
const REQUEST_METHODS: [&str; 7] = ["request", "get", "post", "put", "delete", "patch", "head"];

/// Counts the requests a file starts on a `self` field and those given a
/// `.timeout(..)`: inline (`self.http.get(url).timeout(d)`) or through the local that
/// holds the request (`let mut rb = self.http.request(..); rb = rb.timeout(d);`).
#[derive(Default)]
struct TimedRequests {
    starts: usize,
    inline_timed: usize,
    /// Locals holding a request started on a `self` field (or on a static, named),
    /// and whether it was timed.
    requests: Vec<(String, bool, Option<String>)>,
    /// Requests started inline on a static (by its name), and whether each is timed.
    static_requests: Vec<(String, bool)>,
    /// Locals holding a static client (`let c = CLIENT.as_ref()?.clone();`): (local,
    /// static).
    static_aliases: Vec<(String, String)>,
    /// Inside the arguments of `tokio::time::timeout(..)` / `timeout_at(..)`.
    in_timeout: usize,
    /// Locals holding a client field (`let client = self.client.as_mut().ok_or(..)?;`,
    /// `let c = client.clone();`): a call on one starts a request, a gRPC call too.
    aliases: Vec<String>,
    /// Locals holding a shared field (`Arc::clone(&self.poster)`), and parameters
    /// typed as a client: an HTTP request method called on one starts a request.
    shared: Vec<String>,
}

impl TimedRequests {
    /// Every request the file starts on a field is bounded (and there is one).
    fn all_timed(&self) -> bool {
        let timed = self.inline_timed
            + (self.requests.iter())
                .filter(|r| r.1 && r.2.is_none())
                .count();
        self.starts > 0 && timed == self.starts
    }

    /// A chain that starts a request on a `self` field or on a local alias of a
    /// client field: whether it sets a timeout.
    fn request_start(&self, chain: &Chain) -> Option<bool> {
        field_request(chain)
            .or_else(|| accessor_request(chain))
            .or_else(|| {
                let first = chain.calls.first()?;
                let shared = matches!(chain.root, syn::Expr::Path(p)
                if self.shared.iter().any(|a| p.path.is_ident(a)))
                    && starts_request(first);
                ((self.is_alias_var(chain.root) && !hands_on(first)) || shared)
                    .then(|| sets_timeout(chain))
            })
    }

    /// A chain that starts a request on a static (`CLIENT.get(url)`,
    /// `CLIENT.as_ref().unwrap().post(url)`) or on a local holding one: the static's
    /// name, and whether the chain sets a timeout.
    fn static_request(&self, chain: &Chain) -> Option<(String, bool)> {
        let origin = match chain.root {
            syn::Expr::Path(p) => static_name(p).or_else(|| {
                let (_, s) = self
                    .static_aliases
                    .iter()
                    .find(|(a, _)| p.path.is_ident(a))?;
                Some(s.clone())
            }),
            _ => None,
        }?;
        let first = chain.calls.iter().find(|c| !static_handoff(c))?;
        starts_request(first).then(|| (origin, sets_timeout(chain)))
    }

    /// The requests started on statics, by name, and whether each is timed.
    fn on_statics(self) -> Vec<(Box<str>, bool)> {
        let locals = (self.requests.into_iter()).filter_map(|(_, t, o)| Some((o?, t)));
        (self.static_requests.into_iter())
            .chain(locals)
            .map(|(o, t)| (o.into(), t))
            .collect()
    }

    /// A `let` that binds a client field (or an alias of one) handed on unchanged.
    fn is_alias(&self, chain: &Chain) -> bool {
        let client_field = match self_field(chain.root) {
            Some(syn::Member::Named(f)) => {
                let f = f.to_string().to_ascii_lowercase();
                ["client", "channel", "stub"].iter().any(|s| f.ends_with(s))
            }
            _ => false,
        };
        (client_field || self.is_alias_var(chain.root)) && chain.calls.iter().all(|c| hands_on(c))
    }

    fn is_alias_var(&self, e: &syn::Expr) -> bool {
        matches!(e, syn::Expr::Path(p) if self.aliases.iter().any(|a| p.path.is_ident(a)))
    }
}

/// The `self` field a chain starts on (`client` in `self.client.as_ref()`, `0` in
/// `self.0`).
fn self_field(e: &syn::Expr) -> Option<&syn::Member> {
    let syn::Expr::Field(f) = e else { return None };
    match &*f.base {
        syn::Expr::Path(p) if p.path.is_ident("self") => Some(&f.member),
        inner => self_field(inner),
    }
}

/// A static's name: a path whose last segment is in upper case (`CLIENT`,
/// `super::HTTP_CLIENT`).
fn static_name(p: &syn::ExprPath) -> Option<String> {
    let name = p.path.segments.last()?.ident.to_string();
    upper_snake(name.as_bytes()).then_some(name)
}

/// A name in upper snake case, as statics and constants are named (`HTTP_2`).
fn upper_snake(name: &[u8]) -> bool {
    name.iter().any(u8::is_ascii_uppercase)
        && name
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
}

/// A call that hands on what a static holds (`CLIENT.get()` of a `OnceLock`,
/// `.as_ref()`, `.ok()?` of a `Lazy<Result<Client>>`).
fn static_handoff(m: &syn::ExprMethodCall) -> bool {
    hands_on(m)
        || matches!(
            m.method.to_string().as_str(),
            "ok" | "inspect_err" | "map_err"
        )
        || (m.method == "get" && m.args.is_empty())
}

/// Whether a source text calls a method on an upper-case name (`CLIENT.get(url)`,
/// `HTTP.as_ref()`): only then can a request start on a static.
pub(super) fn calls_on_upper_case(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr_iter(b'.', b).any(|dot| {
        let name = crate::lang::name_before(b, dot, b"");
        name.len() > 1 && upper_snake(name)
    })
}

/// `let c = CLIENT.as_ref()?.clone();`: the static a local takes its client from.
fn static_alias(chain: &Chain) -> Option<String> {
    let syn::Expr::Path(p) = chain.root else {
        return None;
    };
    let name = static_name(p)?;
    chain
        .calls
        .iter()
        .all(|c| static_handoff(c))
        .then_some(name)
}

/// Calls that hand on a client rather than use it (`self.client.as_ref().unwrap()`).
const ALIAS_METHODS: [&str; 10] = [
    "clone",
    "as_ref",
    "as_mut",
    "unwrap",
    "expect",
    "ok_or",
    "ok_or_else",
    "context",
    "with_context",
    "lock",
];

/// The span of the call whose result a `let` takes, through `.await`, `?` and the
/// calls that hand a value on (`meta.node_conn(id).await.map_err(..)?`), as the call
/// graph knows it; `None` for anything else.
fn taken_call(e: &syn::Expr) -> Option<Span> {
    match e {
        syn::Expr::Await(a) => taken_call(&a.base),
        syn::Expr::Try(t) => taken_call(&t.expr),
        syn::Expr::MethodCall(m) if hands_on(m) || m.method == "map_err" => taken_call(&m.receiver),
        syn::Expr::MethodCall(m) => Some(super::calls::method_call_span(m)),
        syn::Expr::Call(c) if matches!(&*c.func, syn::Expr::Path(_)) => {
            Some(super::calls::fn_call_span(c))
        }
        _ => None,
    }
}

/// A call that hands the client on ([`ALIAS_METHODS`]).
fn hands_on(m: &syn::ExprMethodCall) -> bool {
    ALIAS_METHODS.iter().any(|a| m.method == a)
}

/// A chain that starts a request on a `self` field: whether it sets a timeout. (A
/// request names its target: `self.counter.get()` is no request.)
fn field_request(chain: &Chain) -> Option<bool> {
    let first = chain.calls.first()?;
    (self_field(chain.root).is_some() && starts_request(first)).then(|| sets_timeout(chain))
}

/// A chain that starts a request on what an own client accessor returns
/// (`self.client(cert)?.get(url)`, `self.http_client().post(url)`): whether it sets a
/// timeout.
fn accessor_request(chain: &Chain) -> Option<bool> {
    let [accessor, first, ..] = chain.calls[..] else {
        return None;
    };
    let on_self = matches!(chain.root, syn::Expr::Path(p) if p.path.is_ident("self"));
    let named = accessor
        .method
        .to_string()
        .to_ascii_lowercase()
        .ends_with("client");
    (on_self && named && starts_request(first)).then(|| sets_timeout(chain))
}

/// A call that starts an HTTP request on a client: a request method naming its target
/// (`get(url)`; `self.counter.get()` is none).
fn starts_request(m: &syn::ExprMethodCall) -> bool {
    REQUEST_METHODS.contains(&m.method.to_string().as_str()) && !m.args.is_empty()
}

/// `let client = Arc::clone(&self.poster);`: a shared field handed to a task, unchanged.
/// Only request methods called on it start requests (it may be any field).
fn arc_cloned_field(chain: &Chain) -> bool {
    let syn::Expr::Call(c) = chain.root else {
        return false;
    };
    let arc_clone = matches!(&*c.func, syn::Expr::Path(p)
        if p.path.segments.len() == 2
            && p.path.segments[1].ident == "clone"
            && matches!(p.path.segments[0].ident.to_string().as_str(), "Arc" | "Rc"));
    let field = match c.args.first() {
        Some(syn::Expr::Reference(r)) => self_field(&r.expr).is_some(),
        Some(e) => self_field(e).is_some(),
        None => false,
    };
    arc_clone && field && chain.calls.iter().all(|m| hands_on(m))
}

/// The chain gives its request a `.timeout(..)`.
fn sets_timeout(chain: &Chain) -> bool {
    chain.calls.iter().any(|c| c.method == "timeout")
}

impl<'ast> Visit<'ast> for TimedRequests {
    /// `if let Some(t) = request.timeout { timeout(t, self.client.request(req)) } else {
    /// self.client.request(req) }`: without a timeout is the caller's choice.
    fn visit_expr_if(&mut self, i: &'ast syn::ExprIf) {
        let optional = super::extract::else_untimed_by_choice(i);
        self.visit_expr(&i.cond);
        self.visit_block(&i.then_branch);
        if let Some((_, e)) = &i.else_branch {
            self.in_timeout += usize::from(optional);
            self.visit_expr(e);
            self.in_timeout -= usize::from(optional);
        }
    }

    /// `match timeout { Some(t) => .., None => self.client.request(req) }`.
    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.visit_expr(&m.expr);
        for a in &m.arms {
            let chosen = super::extract::untimed_by_choice(m, a);
            self.in_timeout += usize::from(chosen);
            self.visit_arm(a);
            self.in_timeout -= usize::from(chosen);
        }
    }

    /// `timeout(d, self.http.get(url).send())`, or `timeout(d, request)` on a local
    /// holding a request: bounded there.
    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        let is_timeout = matches!(&*c.func, syn::Expr::Path(p)
            if p.path.segments.last().is_some_and(|s| s.ident == "timeout" || s.ident == "timeout_at"));
        if !is_timeout {
            return syn::visit::visit_expr_call(self, c);
        }
        for a in &c.args {
            if let syn::Expr::Path(p) = a {
                for r in self.requests.iter_mut().filter(|r| p.path.is_ident(&r.0)) {
                    r.1 = true;
                }
            }
        }
        self.in_timeout += 1;
        syn::visit::visit_expr_call(self, c);
        self.in_timeout -= 1;
    }

    /// `if let Some(client) = self.client.clone() { .. }`.
    fn visit_expr_let(&mut self, l: &'ast syn::ExprLet) {
        if let Some(name) = unwrapped(&l.pat) {
            if self.is_alias(&flatten(&l.expr)) {
                self.aliases.push(name.to_string());
            }
        }
        syn::visit::visit_expr_let(self, l);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        let name = pat_ident(&l.pat).or_else(|| unwrapped(&l.pat).map(|i| i.to_string()));
        if let (Some(init), Some(name)) = (&l.init, name) {
            let chain = flatten(&init.expr);
            if let Some(origin) = static_alias(&chain) {
                self.static_aliases.push((name, origin));
                syn::visit::visit_local(self, l);
                return;
            }
            if let Some((origin, timed)) = self.static_request(&chain) {
                let timed = timed || self.in_timeout > 0;
                self.requests.push((name, timed, Some(origin)));
                visit_chain_args(self, &chain);
                return;
            }
            if self.is_alias(&chain) {
                self.aliases.push(name);
                syn::visit::visit_local(self, l);
                return;
            }
            if arc_cloned_field(&chain) {
                self.shared.push(name);
                syn::visit::visit_local(self, l);
                return;
            }
            if let Some(timed) = self.request_start(&chain) {
                self.starts += 1;
                self.requests
                    .push((name, timed || self.in_timeout > 0, None));
                visit_chain_args(self, &chain);
                return;
            }
        }
        syn::visit::visit_local(self, l);
    }

    /// `async fn subscribe(client: &reqwest::Client, ..)`: a client handed in is used
    /// like a shared field (its HTTP requests are requests of this file's clients).
    fn visit_signature(&mut self, s: &'ast syn::Signature) {
        for input in &s.inputs {
            let syn::FnArg::Typed(t) = input else {
                continue;
            };
            let mut ty = &*t.ty;
            while let syn::Type::Reference(r) = ty {
                ty = &r.elem;
            }
            let client = matches!(ty, syn::Type::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident.to_string().ends_with("Client")));
            if let Some(name) = pat_ident(&t.pat).filter(|_| client) {
                self.shared.push(name);
            }
        }
        syn::visit::visit_signature(self, s);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let chain = flatten_from(vec![m], &m.receiver);
        if let Some((origin, timed)) = self.static_request(&chain) {
            let timed = timed || self.in_timeout > 0;
            self.static_requests.push((origin, timed));
            visit_chain_args(self, &chain);
            return;
        }
        if let Some(timed) = self.request_start(&chain) {
            self.starts += 1;
            self.inline_timed += usize::from(timed || self.in_timeout > 0);
            visit_chain_args(self, &chain);
            return;
        }
        if let syn::Expr::Path(p) = chain.root {
            if sets_timeout(&chain) {
                for r in self.requests.iter_mut().filter(|r| p.path.is_ident(&r.0)) {
                    r.1 = true;
                }
            }
        }
        syn::visit::visit_expr_method_call(self, m);
    }
}

fn pat_ident(p: &syn::Pat) -> Option<String> {
    match p {
        syn::Pat::Ident(i) => Some(i.ident.to_string()),
        syn::Pat::Type(t) => pat_ident(&t.pat),
        _ => None,
    }
}

/// Visit the arguments of every call of a chain (not its root).
fn visit_chain_args<'ast, V: Visit<'ast>>(v: &mut V, chain: &Chain<'ast>) {
    for c in &chain.calls {
        for a in &c.args {
            v.visit_expr(a);
        }
    }
}

/// The calls a free function of this file makes on its parameter `idx` (`fn
/// apply_options(ep: Endpoint, ..) -> Endpoint { ep.timeout(d).tcp_nodelay(true) }`),
/// in any branch.
fn configured_param(file: &syn::File, name: &str, idx: usize) -> Vec<Observed<()>> {
    struct OnParam<'p> {
        param: &'p str,
        found: Vec<Observed<()>>,
    }
    impl<'ast> Visit<'ast> for OnParam<'_> {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            let chain = flatten_from(vec![m], &m.receiver);
            if matches!(chain.root, syn::Expr::Path(p) if p.path.is_ident(self.param)) {
                self.found.extend(chain.calls.iter().map(|c| observed(c)));
            }
            syn::visit::visit_expr_method_call(self, m);
        }
    }
    let Some(f) = file.items.iter().find_map(|item| match item {
        syn::Item::Fn(f) if f.sig.ident == name => Some(f),
        _ => None,
    }) else {
        return Vec::new();
    };
    let Some(syn::FnArg::Typed(pt)) = f.sig.inputs.iter().nth(idx) else {
        return Vec::new();
    };
    let syn::Pat::Ident(param) = &*pt.pat else {
        return Vec::new();
    };
    let param = param.ident.to_string();
    let mut v = OnParam {
        param: &param,
        found: Vec::new(),
    };
    v.visit_block(&f.block);
    v.found
}

/// Every method that would meet one of an entry's needs (`timeout`, `read_timeout`).
fn needed_methods(entry: &ClientEntry) -> Vec<Box<str>> {
    let alts = entry.needs.iter().flat_map(|n| n.split('|'));
    alts.map(|a| a.split_once('=').map_or(a, |(m, _)| m).trim().into())
        .collect()
}

/// Whether a string names a loopback host (`127.0.0.1:8080`, `localhost`, `[::1]:80`).
fn loopback_text(s: &str) -> bool {
    let host = s
        .trim_start_matches("http://")
        .trim_start_matches("https://");
    host.starts_with("127.0.0.1")
        || host.starts_with("localhost")
        || host.starts_with("[::1]")
        || host == "::1"
}

impl Extractor<'_> {
    /// An address that is the loopback host: a literal (`"127.0.0.1:6969"`,
    /// `format!("127.0.0.1:{port}")`, `("localhost", port)`, `Ipv4Addr::LOCALHOST`,
    /// `([127, 0, 0, 1], port)`), maybe borrowed or converted, or a local of this
    /// function bound to one.
    pub(super) fn loopback_address(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => loopback_text(&s.value()),
            // `format!("127.0.0.1:{port}")`: its first token, the format string.
            syn::Expr::Macro(m) if m.mac.path.is_ident("format") => {
                match m.mac.tokens.clone().into_iter().next() {
                    Some(proc_macro2::TokenTree::Literal(l)) => {
                        let text = l.to_string();
                        loopback_text(text.trim_start_matches('"'))
                    }
                    _ => false,
                }
            }
            syn::Expr::Path(p) => match p.path.get_ident() {
                Some(id) => self.loopback.iter().any(|l| id == l),
                None => p
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "LOCALHOST"),
            },
            syn::Expr::Tuple(t) => t.elems.first().is_some_and(|a| self.loopback_address(a)),
            syn::Expr::Array(a) => {
                let octets: Vec<String> = a
                    .elems
                    .iter()
                    .map(|x| quote::ToTokens::to_token_stream(x).to_string())
                    .collect();
                octets == ["127", "0", "0", "1"]
            }
            // `if named { format!("127.0.0.1:{port}") } else { "127.0.0.1:6969".into() }`
            syn::Expr::If(i) => {
                let tail = |b: &syn::Block| match b.stmts.last() {
                    Some(syn::Stmt::Expr(e, None)) => self.loopback_address(e),
                    _ => false,
                };
                tail(&i.then_branch)
                    && i.else_branch
                        .as_ref()
                        .is_some_and(|(_, e)| self.loopback_address(e))
            }
            syn::Expr::Block(b) => match b.block.stmts.last() {
                Some(syn::Stmt::Expr(e, None)) => self.loopback_address(e),
                _ => false,
            },
            syn::Expr::Reference(r) => self.loopback_address(&r.expr),
            syn::Expr::Paren(p) => self.loopback_address(&p.expr),
            // `"127.0.0.1:80".parse()?`, `.to_string()`, `SocketAddr::from(..)`.
            syn::Expr::Try(t) => self.loopback_address(&t.expr),
            syn::Expr::MethodCall(m)
                if [
                    "to_string",
                    "to_owned",
                    "into",
                    "as_str",
                    "clone",
                    "parse",
                    "unwrap",
                ]
                .iter()
                .any(|n| m.method == n) =>
            {
                self.loopback_address(&m.receiver)
            }
            syn::Expr::Call(c) if c.args.len() == 1 => {
                matches!(&*c.func, syn::Expr::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == "from" || s.ident == "new"))
                    && self.loopback_address(&c.args[0])
            }
            _ => false,
        }
    }
}

/// Method calls on a field of `self` (`self.client.post(url)`), with the impl's type.
#[derive(Default)]
struct FieldCalls {
    impl_type: Option<String>,
    calls: Vec<(String, String, Span)>,
}

impl<'ast> Visit<'ast> for FieldCalls {
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        let name = match &*i.self_ty {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        let outer = std::mem::replace(&mut self.impl_type, name);
        syn::visit::visit_item_impl(self, i);
        self.impl_type = outer;
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if let (syn::Expr::Field(f), Some(owner)) = (&*m.receiver, &self.impl_type) {
            let on_self = matches!(&*f.base, syn::Expr::Path(p) if p.path.is_ident("self"));
            if let (true, syn::Member::Named(field)) = (on_self, &f.member) {
                if m.method != "clone" {
                    self.calls.push((
                        owner.clone(),
                        field.to_string(),
                        super::spans::method_call(m),
                    ));
                }
            }
        }
        syn::visit::visit_expr_method_call(self, m);
    }
}

#[cfg(test)]
mod tests {
    use super::calls_on_upper_case;

    #[test]
    fn upper_case_receivers() {
        assert!(calls_on_upper_case("let r = CLIENT.get(url);"));
        assert!(calls_on_upper_case("super::HTTP_2 .as_ref()"));
        assert!(!calls_on_upper_case(
            "let r = client.get(url); Ordering::SeqCst; A.b()"
        ));
        assert!(!calls_on_upper_case("self.Client.get(url)"));
        assert!(!calls_on_upper_case(""));
    }
}
