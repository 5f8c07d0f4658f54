//! Rust entry points from the catalog's `entry_points`: `main` and binaries,
//! `Drop::drop`, tower `Service::call`, route attributes (`#[get("/")]`), and
//! handlers passed by name to route registrars (`get(list_orders)`).

use super::extract::Extractor;
use crate::facts::Entry;
use crate::source::Span;

impl Extractor<'_> {
    /// The entry point a function is, if any.
    pub(super) fn entry_for(
        &self,
        name: &str,
        attrs: &[syn::Attribute],
        sig: &syn::Signature,
    ) -> Option<Entry> {
        for e in &self.catalog.data.entry_points {
            if !e.registrars.is_empty() || e.except_methods.iter().any(|m| m == name) {
                continue;
            }
            if !e.param_types.is_empty() {
                // `async fn say_hello(&self, r: Request<Hello>)` in `impl Greeter for ..`.
                // The type re-exported by a crate of the project (`pub use tonic::Request;`
                // in `mgmt`, then `r: mgmt::Request<()>`) counts in an `#[async_trait]`
                // impl: only the re-export's own file could say what it is.
                // That crate must re-export tonic's `Status` too (hickory-server's own
                // `Request` is no tonic type).
                let reexported = |t: &str| {
                    let (first, last) = (t.split("::").next(), t.rsplit("::").next());
                    first.is_some_and(|f| {
                        !self.catalog.data.external_crates.iter().any(|c| c == f)
                            && !e
                                .param_types
                                .iter()
                                .any(|p| p.starts_with(&format!("{f}::")))
                            && self.impl_async_status.as_deref()
                                == Some(format!("{f}::Status").as_str())
                    }) && e.param_types.iter().any(|p| p.rsplit("::").next() == last)
                };
                let takes = sig.inputs.iter().any(|i| match i {
                    syn::FnArg::Typed(pt) => self
                        .types
                        .resolve(&pt.ty)
                        .is_some_and(|t| e.param_types.contains(&t) || reexported(&t)),
                    syn::FnArg::Receiver(_) => false,
                });
                if takes && self.impl_trait.is_some() {
                    return Some(Entry::new(e.heat.into(), e.why.clone()));
                }
                continue;
            }
            if !e.return_types.is_empty() {
                // `async fn block_number(&self) -> RpcResult<U64>` in `impl EthApiServer for ..`.
                let returns = match &sig.output {
                    syn::ReturnType::Type(_, ty) => self
                        .types
                        .resolve(ty)
                        .is_some_and(|t| e.return_types.contains(&t)),
                    syn::ReturnType::Default => false,
                };
                if returns && self.impl_trait.is_some() {
                    return Some(Entry::new(e.heat.into(), e.why.clone()));
                }
                continue;
            }
            if !e.paths.is_empty() {
                if self.binary {
                    let mut entry = Entry::new(e.heat.into(), e.why.clone());
                    entry.yields = e.yields;
                    return Some(entry);
                }
                continue;
            }
            if !e.method_annotations.is_empty() {
                let hit = attrs.iter().find_map(|a| {
                    let last = a.path().segments.last()?.ident.to_string();
                    e.method_annotations.contains(&last).then_some(last)
                });
                if let Some(attr) = hit {
                    return Some(Entry::new(e.heat.into(), format!("`#[{attr}]` {}", e.why)));
                }
                continue;
            }
            if !e.supertypes.is_empty()
                && (self.impl_trait_project
                    || !self
                        .impl_trait
                        .as_ref()
                        .is_some_and(|t| e.supertypes.contains(t)))
            {
                continue;
            }
            if e.supertypes.is_empty() && self.impl_type.is_some() && !e.in_impls {
                continue; // `main` and other free functions by name
            }
            if e.methods.iter().any(|m| m == name) {
                return Some(Entry {
                    heat: e.heat.into(),
                    why: e.why.clone(),
                    paced: false,
                    yields: e.yields,
                    job: e.job,
                    sized_job: e.job_when_sized,
                    per_event: e.per_event,
                });
            }
        }
        None
    }

    /// `get(handler)`, `.to(handler)`: functions passed by name to a route registrar.
    /// `root`: the crate the method chain of the registrar starts at, if any.
    pub(super) fn handler_refs<'e>(
        &mut self,
        registrar: &str,
        root: Option<String>,
        args: impl Iterator<Item = &'e syn::Expr>,
        at: Span,
    ) {
        let Some(e) = self.catalog.data.entry_points.iter().find(|e| {
            e.registrars.iter().any(|r| r == registrar)
                && (e.chain_roots.is_empty()
                    || root.as_ref().is_some_and(|r| e.chain_roots.contains(r)))
        }) else {
            return;
        };
        let why = e.why.clone();
        if e.heat == crate::catalog::EntryHeat::Cold {
            // `define_windows_service!(ffi_service_main, service_main)`: the named
            // function of this file is where the program starts.
            for a in args {
                if let syn::Expr::Path(p) = a {
                    if let Some(name) = p.path.segments.last() {
                        self.cold_registered
                            .push((name.ident.to_string(), why.clone()));
                    }
                }
            }
            return;
        }
        let args: Vec<&syn::Expr> = args.collect();
        // `.get("/v1/status", |r| request_span(r, status_handler))`: with a route
        // string, the functions a closure argument calls or passes on are handlers.
        let routed = e.closures
            || args
                .iter()
                .any(|a| matches!(a, syn::Expr::Lit(l) if matches!(l.lit, syn::Lit::Str(_))));
        let mut named: Vec<&syn::ExprPath> = Vec::new();
        let mut closure_params: Vec<String> = Vec::new();
        for arg in &args {
            match arg {
                syn::Expr::Path(p) => named.push(p),
                syn::Expr::Closure(c) if routed => {
                    closure_handlers(&c.body, &mut named);
                    closure_params.extend(c.inputs.iter().filter_map(|i| match i {
                        syn::Pat::Ident(p) => Some(p.ident.to_string()),
                        syn::Pat::Type(t) => match &*t.pat {
                            syn::Pat::Ident(p) => Some(p.ident.to_string()),
                            _ => None,
                        },
                        _ => None,
                    }));
                }
                _ => {}
            }
        }
        for p in named {
            let segs = super::resolve::segments(&p.path);
            let (owner, name) = match segs.as_slice() {
                // `Self::route(req)` in a closure of the impl's own method.
                [t, n] if t == "Self" => (self.impl_type.clone().unwrap_or_default(), n.clone()),
                [.., t, n] if t.starts_with(char::is_uppercase) => (t.clone(), n.clone()),
                [.., n] => (String::new(), n.clone()),
                [] => continue,
            };
            if !name.starts_with(char::is_lowercase) {
                continue;
            }
            // `client.get(url)`: a local variable or parameter names no handler.
            if segs.len() == 1
                && (self.scopes.get(&name).is_some()
                    || self.params.contains(&name)
                    || closure_params.contains(&name))
            {
                continue;
            }
            // `get(get_workspace::get_workspace)`: the module picks among functions
            // of that name, as for a call.
            let module = self.path_module(&segs, owner.is_empty());
            let mut call = self.call_record(owner, name, at, Vec::new());
            if let Some(m) = module {
                call.extra_mut().module = Some(m.into());
            }
            self.facts.handlers.push((call, why.clone()));
        }
    }
}

/// Functions a route closure's body calls or passes by name (through `async`
/// blocks, `.await`, `?`, the calls' arguments and the receivers of method chains
/// on their results; every statement of a block:
/// `let resp = handle(req).await?; Ok(respond(resp).await?)`).
fn closure_handlers<'e>(body: &'e syn::Expr, out: &mut Vec<&'e syn::ExprPath>) {
    match body {
        syn::Expr::Call(c) => {
            if let syn::Expr::Path(p) = &*c.func {
                out.push(p);
            }
            for a in &c.args {
                match a {
                    syn::Expr::Path(p) => out.push(p),
                    a => closure_handlers(a, out),
                }
            }
        }
        syn::Expr::Await(a) => closure_handlers(&a.base, out),
        syn::Expr::Try(t) => closure_handlers(&t.expr, out),
        // `dump(meta, q).await.map(|r| r.into_bytes())`: what the chain starts from.
        syn::Expr::MethodCall(m) => closure_handlers(&m.receiver, out),
        syn::Expr::Async(a) => block_handlers(&a.block, out),
        syn::Expr::Block(b) => block_handlers(&b.block, out),
        _ => {}
    }
}

fn block_handlers<'e>(block: &'e syn::Block, out: &mut Vec<&'e syn::ExprPath>) {
    for st in &block.stmts {
        match st {
            syn::Stmt::Local(l) => {
                if let Some(init) = &l.init {
                    closure_handlers(&init.expr, out);
                }
            }
            syn::Stmt::Expr(e, _) => closure_handlers(e, out),
            _ => {}
        }
    }
}
