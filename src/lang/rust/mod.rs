//! The Rust front end: `syn` parses the file, one visitor pass extracts facts.

mod calls;
mod clients;
pub mod crates;
mod entries;
mod eval;
mod extract;
mod handshakes;
mod resolve;
mod spans;
mod types;

use std::borrow::Cow;

use syn::visit::Visit;

use super::{ExtractOptions, Frontend};
use crate::facts::FileFacts;
use crate::source::SourceFile;

pub struct RustFrontend;

impl Frontend for RustFrontend {
    fn extract(&self, file: &SourceFile, opts: &ExtractOptions) -> Result<FileFacts, String> {
        spans::reset();
        let text = without_prelude(&file.text);
        spans::set_text(&text);
        let result = match syn::parse_file(&text) {
            // `#![cfg(test)]` at the top of a file: the whole module is test code.
            Ok(ast) if !opts.include_tests && extract::is_test(&ast.attrs) => {
                Ok(FileFacts::default())
            }
            Ok(ast) => {
                let mut imports = resolve::Imports::collect(&ast);
                imports.rename_crates(&opts.catalog.data.crate_paths);
                imports.follow_reexports(&opts.catalog.data.external_crates);
                let local_store =
                    (opts.catalog.data.local_store_crates.iter()).any(|c| imports.uses_crate(c));
                let types = types::Types::new(&ast, &imports, opts.catalog);
                let mut x = extract::Extractor::new(opts.catalog, types, &ast, opts.include_tests);
                x.binary = is_binary(&file.path, opts.catalog);
                x.file_span = crate::source::Span::new(0, text.len());
                x.static_calls = clients::calls_on_upper_case(&text);
                x.text = &text;
                x.note_bounded_channels(&text, &ast);
                x.visit_file(&ast);
                x.mark_cold_registered();
                x.field_requests(&ast);
                x.bound_per_request(&ast);
                x.facts.binary = x.binary;
                x.facts.local_store = local_store;
                x.facts.modules = declared_modules(&ast.items);
                x.facts.struct_fields = x.types.project_fields();
                x.facts.wait_fields = x.types.wait_fields();
                x.facts.type_aliases = x.types.alias_facts();
                Ok(x.facts)
            }
            Err(e) => {
                let at = e.span().start();
                Err(format!(
                    "could not parse: {e} at line {}, column {}",
                    at.line,
                    at.column + 1
                ))
            }
        };
        // Spans are resolved by now: free this thread's span table so memory
        // stays flat however many files one thread parses.
        proc_macro2::extra::invalidate_current_thread_spans();
        spans::reset();
        result
    }

    fn parse_only(&self, text: &str) -> bool {
        let ok = syn::parse_file(&without_prelude(text)).is_ok();
        proc_macro2::extra::invalidate_current_thread_spans();
        ok
    }
}

/// Whether a file belongs to a binary (`src/bin/`, `build.rs`, an `xtask` crate), per
/// the catalog's `entry_points` with `paths`.
fn is_binary(path: &std::path::Path, catalog: &crate::catalog::Indexed) -> bool {
    let text = path.to_string_lossy().replace('\\', "/");
    catalog.data.entry_points.iter().any(|e| {
        e.paths.iter().any(|p| {
            if p.contains('/') {
                text.contains(&format!("{p}/")) || text.starts_with(&format!("{p}/"))
            } else {
                text.ends_with(&format!("/{p}")) || text == *p || text.contains(&format!("/{p}/"))
            }
        })
    })
}

/// The text with a leading BOM and a shebang line blanked out by spaces of the
/// same byte length: `syn` strips both, which would shift every span.
fn without_prelude(text: &str) -> Cow<'_, str> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let rest = &text[bom..];
    // `#!` starts a shebang unless it begins an inner attribute (`#![..]`).
    let shebang = rest.starts_with("#!") && !rest[2..].trim_start().starts_with('[');
    let end = if shebang {
        bom + rest.find('\n').unwrap_or(rest.len())
    } else {
        bom
    };
    if end == 0 {
        return Cow::Borrowed(text);
    }
    Cow::Owned(" ".repeat(end) + &text[end..])
}

/// The out-of-line modules a file declares (`mod store;`, `a/b` for `mod a { mod b; }`,
/// `@dir/file.rs` for a `#[path]`), or `None` when it may declare others where they
/// cannot be read: a `#[path]` inside an inline module, or an item macro that
/// mentions `mod` or includes a file.
fn declared_modules(items: &[syn::Item]) -> Option<Vec<Box<str>>> {
    fn walk(items: &[syn::Item], prefix: &str, out: &mut Vec<Box<str>>) -> bool {
        for item in items {
            match item {
                syn::Item::Mod(m) => {
                    let path = m.attrs.iter().find(|a| a.path().is_ident("path"));
                    if let Some(a) = path {
                        // `#[path = "vendored/v2.rs"] mod parse;` at the top: that file,
                        // relative to this one's directory (`@` marks a path).
                        let file = match &a.meta {
                            syn::Meta::NameValue(syn::MetaNameValue {
                                value:
                                    syn::Expr::Lit(syn::ExprLit {
                                        lit: syn::Lit::Str(s),
                                        ..
                                    }),
                                ..
                            }) if prefix.is_empty() && m.content.is_none() => s.value(),
                            _ => return false,
                        };
                        out.push(format!("@{file}").into());
                        continue;
                    }
                    let name = format!("{prefix}{}", m.ident);
                    match &m.content {
                        None => out.push(name.into()),
                        Some((_, inner)) => {
                            if !walk(inner, &format!("{name}/"), out) {
                                return false;
                            }
                        }
                    }
                }
                syn::Item::Macro(m) => {
                    let tokens = m.mac.tokens.to_string();
                    let includes = m
                        .mac
                        .path
                        .segments
                        .last()
                        .is_some_and(|s| s.ident == "include");
                    if includes || tokens.split_whitespace().any(|t| t == "mod") {
                        return false;
                    }
                }
                _ => {}
            }
        }
        true
    }
    let mut out = Vec::new();
    walk(items, "", &mut out).then_some(out)
}
