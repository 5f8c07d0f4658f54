//! Server handshakes awaited in the accept loop itself (`acceptor.accept(stream).await`
//! right after `listener.accept().await`, no timeout, no task in between): one peer
//! that opens TCP and never finishes the handshake stops the server from accepting
//! anyone. Reported by `missing_client_timeout` (catalog `handshakes`).

use syn::visit::Visit;

use super::extract::Extractor;
use crate::facts::Client;

/// Whether a loop's condition or body awaits `x.accept()` (no arguments: a listener's)
/// or `accept(&listener)` in the loop's own code, not in a closure, async block or nested item.
pub fn accepts(cond: Option<&syn::Expr>, body: &syn::Block) -> bool {
    let mut f = AcceptFinder::default();
    if let Some(c) = cond {
        f.visit_expr(c);
    }
    f.visit_block(body);
    f.found
}

#[derive(Default)]
struct AcceptFinder {
    found: bool,
}

impl<'ast> Visit<'ast> for AcceptFinder {
    fn visit_expr_await(&mut self, a: &'ast syn::ExprAwait) {
        match &*a.base {
            syn::Expr::MethodCall(m) => self.found |= m.method == "accept" && m.args.is_empty(),
            // `accept(&listener).await`: a helper (often nested in the loop's function)
            // that accepts on the listener it is given.
            syn::Expr::Call(c) => {
                self.found |= c.args.len() == 1
                    && matches!(&*c.func, syn::Expr::Path(p)
                        if p.path.segments.last().is_some_and(|s| s.ident == "accept"));
            }
            _ => {}
        }
        syn::visit::visit_expr_await(self, a);
    }
    // `tokio::select! { Ok((s, _)) = listener.accept() => .. }` awaits it too, and
    // `res = accept(&socket) => ..`.
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let select = m.path.segments.last().is_some_and(|s| s.ident == "select");
        if select {
            let tokens: String = m.tokens.to_string().split_whitespace().collect();
            self.found |= tokens.contains(".accept()") || tokens.contains("=accept(");
        }
    }
    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
    fn visit_expr_async(&mut self, _: &'ast syn::ExprAsync) {}
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl Extractor<'_> {
    /// At an `.await`: a catalogued handshake awaited in the accept loop's own code with
    /// no timeout around it becomes a one-shot client that serves in any context.
    /// Elsewhere, such a handshake marks its function a handshake helper, and a call
    /// awaited in the loop is recorded for the model to follow into helpers.
    pub(super) fn accept_loop_handshake(&mut self, a: &syn::ExprAwait) {
        let Some(here) = self.current_ctx().filter(|_| self.timeout_wrapped == 0) else {
            return;
        };
        let in_loop = self.accept_loop == Some(here);
        let Some(what) = self.handshake(a) else {
            // (`listener.accept()` is the loop's own accept.)
            let own = matches!(&*a.base, syn::Expr::MethodCall(m) if m.method == "accept" && m.args.is_empty());
            if let (true, false, Some(name)) = (in_loop, own, call_name(&a.base)) {
                let at = super::spans::expr(&a.base);
                self.facts.accept_loop_calls.push((here, at, name.into()));
            }
            return;
        };
        if !in_loop {
            if !self.facts.handshake_fns.contains(&here) {
                self.facts.handshake_fns.push(here);
            }
            return;
        }
        self.facts.clients.push(Client {
            span: super::spans::expr(&a.base),
            ctx: here,
            message: format!(
                "{what} runs a connection's handshake in the accept loop without a timeout: \
                 a peer that never finishes it stops the server from accepting anyone else"
            ),
            help: self.catalog.data.handshakes.help.clone(),
            local: true,
            requests: Vec::new(),
            serves: true,
            os_bounded: false,
            in_default: false,
            default_ctor: false,
            bean: None,
            built_by: None,
            returned_by: None,
            made_with: Vec::new(),
            unbuilt: None,
            static_item: None,
            handed_to: None,
        });
    }

    /// The awaited call, when it is a catalogued handshake: how to name it.
    fn handshake(&self, a: &syn::ExprAwait) -> Option<String> {
        let hs = &self.catalog.data.handshakes;
        let catalogued = match &*a.base {
            syn::Expr::Call(c) => match &*c.func {
                syn::Expr::Path(p) => p
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| hs.functions.iter().any(|f| s.ident == f)),
                _ => false,
            },
            syn::Expr::MethodCall(m)
                if m.args.len() == 1 && hs.methods.iter().any(|x| m.method == x) =>
            {
                // A known type must be a TLS crate's acceptor; an unknown one is
                // judged by its name (`tls_acceptor`, `ssl_acceptor`).
                match self.value_of(&m.receiver).ty.as_deref() {
                    Some(t) => {
                        let krate = t.split("::").next().unwrap_or(t);
                        hs.acceptor_crates.iter().any(|c| c == krate)
                    }
                    None => {
                        let name = receiver_name(&m.receiver).to_ascii_lowercase();
                        hs.acceptor_words.iter().any(|w| name.contains(w.as_str()))
                    }
                }
            }
            _ => false,
        };
        catalogued.then(|| call_name(&a.base)).flatten()
    }
}

/// How a finding names a call: `` `tls_acceptor.accept(..)` ``, `` `accept_async(..)` ``.
fn call_name(e: &syn::Expr) -> Option<String> {
    let name = match e {
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => p.path.segments.last()?.ident.to_string(),
            _ => return None,
        },
        syn::Expr::MethodCall(m) => match receiver_name(&m.receiver) {
            r if r.is_empty() => m.method.to_string(),
            r => format!("{r}.{}", m.method),
        },
        _ => return None,
    };
    Some(format!("`{name}(..)`"))
}

/// The receiver's last name (`self.tls_acceptor` -> `tls_acceptor`).
fn receiver_name(e: &syn::Expr) -> String {
    match e {
        syn::Expr::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => n.to_string(),
            syn::Member::Unnamed(_) => String::new(),
        },
        syn::Expr::Reference(r) => receiver_name(&r.expr),
        syn::Expr::Paren(p) => receiver_name(&p.expr),
        syn::Expr::MethodCall(m) if m.method == "clone" => receiver_name(&m.receiver),
        _ => String::new(),
    }
}
