//! Rust entry points from the catalog's `entry_points`: `main` and binaries,
//! `Drop::drop`, tower `Service::call`, route attributes (`#[get("/")]`), and
//! handlers passed by name to route registrars (`get(list_orders)`).

use super::extract::Extractor;
use crate::catalog::EntryHeat;
use crate::facts::{Entry, Heat};
use crate::source::Span;

fn heat(h: EntryHeat) -> Heat {
    match h {
        EntryHeat::Hot => Heat::Hot,
        EntryHeat::Cold => Heat::Cold,
    }
}

impl Extractor<'_> {
    /// The entry point a function is, if any.
    pub(super) fn entry_for(
        &self,
        name: &str,
        attrs: &[syn::Attribute],
        sig: &syn::Signature,
    ) -> Option<Entry> {
        for e in &self.catalog.data.entry_points {
            if !e.registrars.is_empty() {
                continue;
            }
            if !e.param_types.is_empty() {
                // `async fn say_hello(&self, r: Request<Hello>)` in `impl Greeter for ..`.
                let takes = sig.inputs.iter().any(|i| match i {
                    syn::FnArg::Typed(pt) => self
                        .types
                        .resolve(&pt.ty)
                        .is_some_and(|t| e.param_types.contains(&t)),
                    syn::FnArg::Receiver(_) => false,
                });
                if takes && self.impl_trait.is_some() {
                    return Some(Entry {
                        heat: heat(e.heat),
                        why: e.why.clone(),
                    });
                }
                continue;
            }
            if !e.paths.is_empty() {
                if self.binary {
                    return Some(Entry {
                        heat: heat(e.heat),
                        why: e.why.clone(),
                    });
                }
                continue;
            }
            if !e.method_annotations.is_empty() {
                let hit = attrs.iter().find_map(|a| {
                    let last = a.path().segments.last()?.ident.to_string();
                    e.method_annotations.contains(&last).then_some(last)
                });
                if let Some(attr) = hit {
                    return Some(Entry {
                        heat: heat(e.heat),
                        why: format!("`#[{attr}]` {}", e.why),
                    });
                }
                continue;
            }
            if !e.supertypes.is_empty()
                && !self
                    .impl_trait
                    .as_ref()
                    .is_some_and(|t| e.supertypes.contains(t))
            {
                continue;
            }
            if e.supertypes.is_empty() && self.impl_type.is_some() {
                continue; // `main` and other free functions by name
            }
            if e.methods.iter().any(|m| m == name) {
                return Some(Entry {
                    heat: heat(e.heat),
                    why: e.why.clone(),
                });
            }
        }
        None
    }

    /// `get(handler)`, `.to(handler)`: functions passed by name to a route registrar.
    pub(super) fn handler_refs<'e>(
        &mut self,
        registrar: &str,
        args: impl Iterator<Item = &'e syn::Expr>,
        at: Span,
    ) {
        let Some(e) = self
            .catalog
            .data
            .entry_points
            .iter()
            .find(|e| e.registrars.iter().any(|r| r == registrar))
        else {
            return;
        };
        let why = e.why.clone();
        for arg in args {
            let syn::Expr::Path(p) = arg else { continue };
            let segs = super::resolve::segments(&p.path);
            let (owner, name) = match segs.as_slice() {
                [.., t, n] if t.starts_with(char::is_uppercase) => (t.clone(), n.clone()),
                [.., n] => (String::new(), n.clone()),
                [] => continue,
            };
            if !name.starts_with(char::is_lowercase) {
                continue;
            }
            // `client.get(url)`: a local variable or parameter names no handler.
            if segs.len() == 1 && (self.scopes.get(&name).is_some() || self.params.contains(&name))
            {
                continue;
            }
            let call = self.call_record(owner, name, at, Vec::new());
            self.facts.handlers.push((call, why.clone()));
        }
    }
}
