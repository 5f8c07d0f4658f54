//! Rust name resolution within one file: `use` items (paths, aliases, groups,
//! `self`, globs), `extern crate` renames, and the file's own item names that
//! shadow glob imports.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use syn::visit::Visit;

/// What the names of one file refer to.
#[derive(Debug, Default)]
pub struct Imports {
    /// `use a::b::c as d;` -> `d` => [a, b, c].
    aliases: HashMap<String, Vec<String>>,
    /// `use a::b::*;` -> [a, b].
    globs: Vec<Vec<String>>,
    /// Functions, modules, types and consts defined in this file.
    locals: HashSet<String>,
    /// Free functions at the file's top level: a lone name called (`remote(..)`) is
    /// one of these even when a `use` brings in a module of that name (`remote::{self}`).
    fns: HashSet<String>,
    /// `type Sso = Client<Discovered, Claims>;` after `use openid::Client;` -> `Sso` =>
    /// [openid, Client]: read only in paths through the alias (`Sso::discover`), so a
    /// type named by the alias alone (`ctx: Ctx`) stays the project's alias.
    type_aliases: HashMap<String, Vec<String>>,
    /// Facade paths of re-exported crates (`rayon_core` -> [rayon]).
    renames: Vec<(String, Vec<String>)>,
}

impl Imports {
    pub fn collect(file: &syn::File) -> Imports {
        let mut c = Collector::default();
        c.visit_file(file);
        c.0.fns = file
            .items
            .iter()
            .filter_map(|i| match i {
                syn::Item::Fn(f) => Some(f.sig.ident.to_string()),
                _ => None,
            })
            .collect();
        c.0
    }

    /// The canonical path of a path expression, e.g. `mpsc::channel` ->
    /// `std::sync::mpsc::channel`. `None` when it names something local.
    /// `known` tells which fully-qualified names a glob import may resolve to.
    pub fn resolve(&self, path: &syn::Path, known: &dyn Fn(&str) -> bool) -> Option<String> {
        let segs = segments(path);
        self.resolve_segments(&segs, path.leading_colon.is_some(), known)
    }

    /// A dependency re-exported by another crate names that dependency:
    /// `use openidconnect::reqwest;` and `use hbb_common::tokio::sync::mpsc;` alias
    /// `reqwest` and `tokio::sync::mpsc`. `crates` are the well-known crate names.
    pub fn follow_reexports(&mut self, crates: &[String]) {
        for target in self.aliases.values_mut() {
            if matches!(target[0].as_str(), "crate" | "self" | "super")
                || crates.contains(&target[0])
            {
                continue;
            }
            // `jsonrpsee::core::RpcResult`: `core`, `std` and `alloc` are common
            // module names too.
            let reexported =
                |s: &String| !matches!(s.as_str(), "std" | "core" | "alloc") && crates.contains(s);
            if let Some(i) = (1..target.len()).find(|&i| reexported(&target[i])) {
                target.drain(..i);
            }
        }
    }

    /// Reads the paths of crates a facade re-exports as the facade's
    /// (`rayon_core::ThreadPool` -> `rayon::ThreadPool`), in `use` items and in paths
    /// written out in full.
    pub fn rename_crates(&mut self, paths: &std::collections::BTreeMap<String, String>) {
        if paths.is_empty() {
            return;
        }
        self.renames = paths
            .iter()
            .map(|(k, v)| (k.clone(), v.split("::").map(str::to_string).collect()))
            .collect();
        let renames = &self.renames;
        for target in self.aliases.values_mut().chain(self.globs.iter_mut()) {
            if let Some((_, to)) = renames.iter().find(|(k, _)| *k == target[0]) {
                target.splice(..1, to.iter().cloned());
            }
        }
    }

    /// Whether a `use` (or an `extern crate`) of this file names crate `name`.
    pub fn uses_crate(&self, name: &str) -> bool {
        self.aliases
            .values()
            .any(|t| t.first().is_some_and(|f| f == name))
            || self
                .globs
                .iter()
                .any(|g| g.first().is_some_and(|f| f == name))
    }

    /// Declared in this file (a function, module, type or const).
    pub fn is_local(&self, name: &str) -> bool {
        self.locals.contains(name)
    }

    /// `Store` after `use crate::db::Store`: the project path a name is imported from.
    pub fn project_import(&self, name: &str) -> Option<String> {
        self.aliases
            .get(name)
            .filter(|t| matches!(t[0].as_str(), "crate" | "self" | "super"))
            .map(|t| t.join("::"))
    }

    /// The module a called path names, `use` aliases expanded, without `crate`,
    /// `self` and `super`: `upgrade::init` after `use crate::cli::upgrade` ->
    /// `cli::upgrade`; `init` after `use server::init` -> `server`. `None` when the
    /// path names no module.
    pub fn module_of(&self, segs: &[String]) -> Option<String> {
        let (first, rest) = segs.split_first()?;
        // A lone name that no `use` brings in names no module (most calls); nor does
        // one the file defines as a function (a `use` can only bring in a module then).
        if rest.is_empty() && (!self.aliases.contains_key(first) || self.fns.contains(first)) {
            return None;
        }
        let mut full: Vec<&str> = match self.aliases.get(first) {
            Some(target) => target.iter().map(String::as_str).collect(),
            None => vec![first.as_str()],
        };
        full.extend(rest.iter().map(String::as_str));
        full.pop();
        let module: Vec<&str> = full
            .into_iter()
            .filter(|s| !matches!(*s, "crate" | "self" | "super"))
            .collect();
        (!module.is_empty()).then(|| module.join("::"))
    }

    pub fn resolve_segments(
        &self,
        segs: &[String],
        absolute: bool,
        known: &dyn Fn(&str) -> bool,
    ) -> Option<String> {
        let first = segs.first()?;
        if let Some((_, to)) = self.renames.iter().find(|(k, _)| k == first) {
            if absolute || (segs.len() > 1 && !self.aliases.contains_key(first)) {
                return Some(
                    to.iter()
                        .chain(&segs[1..])
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("::"),
                );
            }
        }
        if absolute {
            return Some(segs.join("::"));
        }
        if matches!(first.as_str(), "crate" | "self" | "super" | "Self") {
            return None;
        }
        let typed = self.type_aliases.get(first).filter(|_| segs.len() > 1);
        if let Some(target) = self.aliases.get(first).or(typed) {
            if matches!(target[0].as_str(), "crate" | "self" | "super") {
                return None;
            }
            let mut full = target.clone();
            full.extend(segs[1..].iter().cloned());
            return Some(full.join("::"));
        }
        if self.locals.contains(first) {
            return None;
        }
        if segs.len() > 1 {
            return Some(segs.join("::"));
        }
        self.globs
            .iter()
            .map(|g| format!("{}::{}", g.join("::"), first))
            .find(|p| known(p))
    }
}

/// The imports, and how many inline modules deep the visit is: a `use` inside
/// `mod inner { .. }` never replaces the file's own import of the same name
/// (`use super::{mpsc, ..}` in a module of helpers names what the file imports).
#[derive(Default)]
struct Collector(Imports, usize);

impl Collector {
    fn alias(&mut self, name: String, full: Vec<String>) {
        if self.1 == 0 {
            self.0.aliases.insert(name, full);
        } else {
            self.0.aliases.entry(name).or_insert(full);
        }
    }

    fn tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                if name == "self" {
                    if let Some(last) = prefix.last() {
                        self.alias(last.clone(), prefix.clone());
                    }
                } else {
                    let mut full = prefix.clone();
                    full.push(name.clone());
                    self.alias(name, full);
                }
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                if r.ident != "self" {
                    full.push(r.ident.to_string());
                }
                if r.rename != "_" && !full.is_empty() {
                    self.alias(r.rename.to_string(), full);
                }
            }
            syn::UseTree::Glob(_) => {
                if !prefix.is_empty() {
                    self.0.globs.push(prefix.clone());
                }
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.tree(prefix, t);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut prefix = Vec::new();
        self.tree(&mut prefix, &u.tree);
    }

    fn visit_item_extern_crate(&mut self, e: &'ast syn::ItemExternCrate) {
        if let Some((_, rename)) = &e.rename {
            self.0
                .aliases
                .insert(rename.to_string(), vec![e.ident.to_string()]);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.0.locals.insert(f.sig.ident.to_string());
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.0.locals.insert(m.ident.to_string());
        // Test modules are not analysed: their imports name nothing the rules see.
        if super::extract::is_test(&m.attrs) {
            return;
        }
        self.1 += 1;
        syn::visit::visit_item_mod(self, m);
        self.1 -= 1;
    }

    /// `type DiscoveredClient = Client<Discovered, Claims>;` after `use openid::Client;`
    /// names `openid::Client`, as `use openid::Client as DiscoveredClient;` would: an
    /// alias of an imported (or fully written) type. One of the file's own types stays
    /// local.
    fn visit_item_type(&mut self, t: &'ast syn::ItemType) {
        let syn::Type::Path(tp) = &*t.ty else {
            return;
        };
        if tp.qself.is_some() {
            return;
        }
        let segs = segments(&tp.path);
        let full = match self.0.aliases.get(&segs[0]) {
            Some(target) => target.iter().chain(&segs[1..]).cloned().collect(),
            None if segs.len() > 1
                && !matches!(segs[0].as_str(), "crate" | "self" | "super" | "Self")
                && !self.0.locals.contains(&segs[0]) =>
            {
                segs
            }
            None => return,
        };
        self.0.type_aliases.insert(t.ident.to_string(), full);
    }

    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        self.0.locals.insert(s.ident.to_string());
    }

    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        self.0.locals.insert(e.ident.to_string());
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.0.locals.insert(t.ident.to_string());
        syn::visit::visit_item_trait(self, t);
    }

    fn visit_item_const(&mut self, c: &'ast syn::ItemConst) {
        self.0.locals.insert(c.ident.to_string());
        syn::visit::visit_item_const(self, c);
    }

    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        self.0.locals.insert(s.ident.to_string());
        syn::visit::visit_item_static(self, s);
    }
}

/// A path's segments as written (`crate::db::Store::open` -> `[crate, db, Store, open]`).
pub fn segments(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(src: &str, path: &str) -> Option<String> {
        let file = syn::parse_file(src).unwrap();
        let imports = Imports::collect(&file);
        let p: syn::Path = syn::parse_str(path).unwrap();
        imports.resolve(&p, &|s| s == "crossbeam_channel::unbounded")
    }

    #[test]
    fn reexported_crates_name_the_crate() {
        let file = syn::parse_file(
            "use openidconnect::reqwest; use hbb_common::tokio::sync::mpsc; use tokio::sync::oneshot; \
             use crate::reqwest as own; use jsonrpsee::core::RpcResult;",
        )
        .unwrap();
        let mut imports = Imports::collect(&file);
        imports.follow_reexports(&["reqwest".into(), "tokio".into(), "core".into()]);
        let r = |p: &str| imports.resolve(&syn::parse_str(p).unwrap(), &|_| false);
        assert_eq!(
            r("reqwest::Client::new").as_deref(),
            Some("reqwest::Client::new")
        );
        assert_eq!(
            r("mpsc::unbounded_channel").as_deref(),
            Some("tokio::sync::mpsc::unbounded_channel")
        );
        assert_eq!(
            r("oneshot::channel").as_deref(),
            Some("tokio::sync::oneshot::channel")
        );
        assert_eq!(r("own::Client::new"), None);
        assert_eq!(
            r("RpcResult").as_deref(),
            Some("jsonrpsee::core::RpcResult")
        );
    }

    #[test]
    fn type_aliases_of_imported_types() {
        let src = "use openid::{Client, Discovered}; type Sso = Client<Discovered, Claims>; \
                   type Local = Store; struct Store;";
        assert_eq!(
            resolve(src, "Sso::discover").as_deref(),
            Some("openid::Client::discover")
        );
        // An alias of the file's own type is no import: the name stays as written.
        assert_eq!(resolve(src, "Local::open").as_deref(), Some("Local::open"));
    }

    #[test]
    fn aliases_groups_self_and_globs() {
        let src = "use std::sync::{mpsc::{self, channel as chan}}; use crossbeam_channel::*;";
        assert_eq!(
            resolve(src, "mpsc::channel").as_deref(),
            Some("std::sync::mpsc::channel")
        );
        assert_eq!(
            resolve(src, "chan").as_deref(),
            Some("std::sync::mpsc::channel")
        );
        assert_eq!(
            resolve(src, "unbounded").as_deref(),
            Some("crossbeam_channel::unbounded")
        );
        assert_eq!(resolve(src, "bounded"), None);
    }

    #[test]
    fn local_items_shadow_globs() {
        let src = "use crossbeam_channel::*; fn unbounded() {}";
        assert_eq!(resolve(src, "unbounded"), None);
        assert_eq!(resolve("fn channel() {}", "channel"), None);
    }
}
