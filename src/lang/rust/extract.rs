//! One pass over a syn AST that records the facts of a Rust file.

use std::collections::HashMap;

use proc_macro2::Span as PmSpan;
use syn::spanned::Spanned;
use syn::visit::Visit;

use super::resolve::Imports;
use crate::catalog::Indexed;
use crate::diagnostic::Item;
use crate::facts::{Bound, FileFacts, Queue};
use crate::source::Span;

pub struct Extractor<'a> {
    pub catalog: &'a Indexed,
    pub imports: Imports,
    pub include_tests: bool,
    pub facts: FileFacts,
    consts: HashMap<String, u64>,
    /// Name of the enclosing `impl` type, for item names.
    impl_type: Option<String>,
}

pub fn span(s: PmSpan) -> Span {
    let r = s.byte_range();
    Span::new(r.start, r.end)
}

/// Whether attributes mark test-only code: `#[test]`, `#[tokio::test]`, `#[cfg(test)]`.
pub fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let path = a.path();
        if path.segments.last().is_some_and(|s| s.ident == "test") {
            return true;
        }
        if path.is_ident("cfg") {
            if let syn::Meta::List(list) = &a.meta {
                let mut words = Vec::new();
                collect_idents(list.tokens.clone(), &mut words);
                return words.iter().any(|w| w == "test") && !words.iter().any(|w| w == "not");
            }
        }
        false
    })
}

fn collect_idents(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
    for t in tokens {
        match t {
            proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
            proc_macro2::TokenTree::Group(g) => collect_idents(g.stream(), out),
            _ => {}
        }
    }
}

impl<'a> Extractor<'a> {
    pub fn new(catalog: &'a Indexed, file: &syn::File, include_tests: bool) -> Extractor<'a> {
        let mut consts = HashMap::new();
        for item in &file.items {
            if let syn::Item::Const(c) = item {
                if let Some(v) = eval_int(&c.expr, &consts) {
                    consts.insert(c.ident.to_string(), v);
                }
            }
        }
        Extractor {
            catalog,
            imports: Imports::collect(file),
            include_tests,
            facts: FileFacts::default(),
            consts,
            impl_type: None,
        }
    }

    fn skip(&self, attrs: &[syn::Attribute]) -> bool {
        !self.include_tests && is_test(attrs)
    }

    fn resolve(&self, path: &syn::Path) -> Option<String> {
        let catalog = self.catalog;
        self.imports.resolve(path, &|p| catalog.knows(p))
    }

    fn call(&mut self, call: &syn::ExprCall) {
        let syn::Expr::Path(func) = &*call.func else {
            return;
        };
        if func.qself.is_some() {
            return;
        }
        let Some(full) = self.resolve(&func.path) else {
            return;
        };
        if let Some(entry) = self.catalog.queue_call(&full) {
            let bound = match entry.capacity_arg {
                None => Bound::Unbounded,
                Some(i) => match call.args.iter().nth(i) {
                    None => Bound::Unbounded,
                    Some(arg) => eval_int(arg, &self.consts)
                        .map(Bound::Capacity)
                        .unwrap_or(Bound::Unknown),
                },
            };
            let written = path_text(&func.path);
            let what = if written == full {
                format!("`{written}()`")
            } else {
                format!("`{written}()` (`{full}`)")
            };
            self.facts.queues.push(Queue {
                span: span(call.span()),
                what,
                bound,
                why: entry.why.clone(),
                help: entry.help.clone(),
                related: None,
            });
        }
    }

    fn item(&mut self, s: PmSpan, name: String) {
        self.facts.items.push(Item {
            span: span(s),
            name,
        });
    }
}

fn path_text(p: &syn::Path) -> String {
    let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
    let lead = if p.leading_colon.is_some() { "::" } else { "" };
    format!("{lead}{}", segs.join("::"))
}

/// Value of a constant integer expression: literals, `MAX` constants, same-file
/// `const` items, and `+ - * <<` of those.
pub fn eval_int(e: &syn::Expr, consts: &HashMap<String, u64>) -> Option<u64> {
    match e {
        syn::Expr::Lit(l) => match &l.lit {
            syn::Lit::Int(i) => i.base10_parse::<u64>().ok(),
            _ => None,
        },
        syn::Expr::Paren(p) => eval_int(&p.expr, consts),
        syn::Expr::Group(g) => eval_int(&g.expr, consts),
        syn::Expr::Cast(c) => eval_int(&c.expr, consts),
        syn::Expr::Path(p) => {
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            match segs.as_slice() {
                [ty, max] if max == "MAX" => match ty.as_str() {
                    "u8" => Some(u8::MAX as u64),
                    "u16" => Some(u16::MAX as u64),
                    "u32" => Some(u32::MAX as u64),
                    "i32" => Some(i32::MAX as u64),
                    "i64" => Some(i64::MAX as u64),
                    "u64" | "usize" => Some(u64::MAX),
                    _ => None,
                },
                [name] => consts.get(name).copied(),
                _ => None,
            }
        }
        syn::Expr::Binary(b) => {
            let l = eval_int(&b.left, consts)?;
            let r = eval_int(&b.right, consts)?;
            match b.op {
                syn::BinOp::Add(_) => l.checked_add(r),
                syn::BinOp::Sub(_) => l.checked_sub(r),
                syn::BinOp::Mul(_) => l.checked_mul(r),
                syn::BinOp::Shl(_) => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)),
                _ => None,
            }
        }
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Extractor<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if self.skip(&f.attrs) {
            return;
        }
        self.item(f.span(), f.sig.ident.to_string());
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if self.skip(&m.attrs) {
            return;
        }
        syn::visit::visit_item_mod(self, m);
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
        syn::visit::visit_item_impl(self, i);
        self.impl_type = outer;
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if self.skip(&f.attrs) {
            return;
        }
        let name = match &self.impl_type {
            Some(t) => format!("{t}::{}", f.sig.ident),
            None => f.sig.ident.to_string(),
        };
        self.item(f.span(), name);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        self.call(c);
        syn::visit::visit_expr_call(self, c);
    }
}
