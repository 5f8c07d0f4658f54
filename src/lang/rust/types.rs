//! Rust types as far as one file can tell: declared types resolved through
//! `use` items (wrappers like `Arc<Mutex<T>>` looked through), struct fields,
//! and what a binding is known to hold.

use rustc_hash::FxHashMap as HashMap;

use super::resolve::Imports;
use crate::catalog::Indexed;

/// What a binding or expression is known to hold.
#[derive(Debug, Clone, Default)]
pub struct Value {
    /// Canonical type path (`std::sync::mpsc::Receiver`), wrappers stripped.
    pub ty: Option<String>,
    /// The pool this names (`local:pool@120`, `field:MapRenderer.tiles`).
    pub pool: Option<PoolRef>,
    /// The submission whose handle or result channel this is.
    pub origin: Option<usize>,
    /// Created in the current function (not a parameter or field).
    pub local: bool,
    /// Known finished (`is_finished()` checked).
    pub complete: bool,
    /// The task or function context the value was created in.
    pub created_in: Option<usize>,
    /// The result of this project call (an index into the file's calls), whose type
    /// the model reads from the callee's declared return type.
    pub from_call: Option<usize>,
    /// The element of the tuple `from_call` returns that this is (`let (out, rx) =
    /// Outgoing::new(..)`): its type is that element's, not the call's.
    pub call_elem: Option<usize>,
    /// A field of a project type declared in another file (`ctx.core` with `ctx:
    /// &Context`): (the type's simple name, the field). The model reads the field's
    /// declared type from the file that declares the struct.
    pub from_field: Option<(Box<str>, Box<str>)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolRef {
    pub key: String,
    pub name: String,
}

/// Nested scopes of bindings.
#[derive(Debug, Default)]
pub struct Scopes {
    stack: Vec<HashMap<String, Value>>,
}

impl Scopes {
    pub fn push(&mut self) {
        self.stack.push(HashMap::default());
    }

    pub fn pop(&mut self) {
        self.stack.pop();
    }

    pub fn declare(&mut self, name: String, value: Value) {
        if let Some(top) = self.stack.last_mut() {
            top.insert(name, value);
        }
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.stack.iter().rev().find_map(|s| s.get(name))
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.stack.iter_mut().rev().find_map(|s| s.get_mut(name))
    }
}

/// Type resolution for one file.
pub struct Types<'a> {
    pub imports: &'a Imports,
    pub catalog: &'a Indexed,
    /// `Struct.field` -> declared type.
    pub fields: HashMap<(String, String), String>,
    /// Statics (`static`, `LazyLock`, `lazy_static!`) -> (declared type, where).
    pub statics: HashMap<String, (String, crate::source::Span)>,
    /// `Enum::Variant(T)` -> `T`, for one-field tuple variants (`Client(client::Cmd)`):
    /// a project type keeps the module it is named through (`client::Cmd`).
    pub variants: HashMap<(String, String), String>,
    /// The structs the file declares.
    structs: rustc_hash::FxHashSet<String>,
    /// Their fields other files can read (declared `pub`, `pub(crate)`, ..).
    visible: rustc_hash::FxHashSet<(String, String)>,
    /// The file's type aliases of project types: alias -> the type it names.
    aliases: HashMap<String, String>,
}

impl<'a> Types<'a> {
    pub fn new(file: &syn::File, imports: &'a Imports, catalog: &'a Indexed) -> Types<'a> {
        let mut t = Types {
            imports,
            catalog,
            fields: HashMap::default(),
            statics: HashMap::default(),
            variants: HashMap::default(),
            structs: Default::default(),
            visible: Default::default(),
            aliases: HashMap::default(),
        };
        t.aliases = t.project_aliases(&file.items).into_iter().collect();
        let mut structs = Vec::new();
        let mut enums = Vec::new();
        collect_structs(&file.items, &mut structs, &mut enums);
        for e in enums {
            for v in &e.variants {
                let syn::Fields::Unnamed(f) = &v.fields else {
                    continue;
                };
                let [field] = f.unnamed.iter().collect::<Vec<_>>()[..] else {
                    continue;
                };
                if let Some(ty) = t.resolve(&field.ty).or_else(|| t.project_path(&field.ty)) {
                    t.variants
                        .insert((e.ident.to_string(), v.ident.to_string()), ty);
                }
            }
        }
        let mut statics = Vec::new();
        collect_statics(&file.items, &mut statics);
        for (name, ty, at) in statics {
            if let Some(ty) = t.resolve(&ty) {
                t.statics.insert(name, (ty, at));
            }
        }
        for s in structs {
            t.structs.insert(s.ident.to_string());
            if let syn::Fields::Named(named) = &s.fields {
                for f in &named.named {
                    // `pair: Arc<(Mutex<bool>, Condvar)>`: each element as `pair.0`, `pair.1`
                    // (what `let (lock, cvar) = &*self.pair;` binds).
                    if let (Some(name), Some(elems)) = (&f.ident, t.tuple_elems(&f.ty)) {
                        for (i, e) in elems.iter().enumerate() {
                            if let Some(ty) = t.resolve(e).or_else(|| t.project_path(e)) {
                                t.fields
                                    .insert((s.ident.to_string(), format!("{name}.{i}")), ty);
                            }
                        }
                    }
                    let ty = t.resolve(&f.ty).or_else(|| t.project_path(&f.ty));
                    if let (Some(name), Some(ty)) = (&f.ident, ty) {
                        let key = (s.ident.to_string(), name.to_string());
                        // Only a `pub` field (`pub(crate)`, ..) is read in other files.
                        if !matches!(f.vis, syn::Visibility::Inherited) {
                            t.visible.insert(key.clone());
                        }
                        t.fields.insert(key, ty);
                    }
                }
            }
        }
        t
    }

    /// The path a type names, looking through references, parentheses and transparent
    /// wrappers (`&Arc<Store>` -> `Store`).
    fn named_path<'t>(&self, ty: &'t syn::Type) -> Option<&'t syn::Path> {
        match ty {
            syn::Type::Reference(r) => self.named_path(&r.elem),
            syn::Type::Paren(p) => self.named_path(&p.elem),
            syn::Type::Group(g) => self.named_path(&g.elem),
            // `dyn Store + Send`, `impl Store`: the trait, whose project impls a call may run.
            syn::Type::TraitObject(syn::TypeTraitObject { bounds, .. })
            | syn::Type::ImplTrait(syn::TypeImplTrait { bounds, .. }) => {
                bounds.iter().find_map(|b| match b {
                    syn::TypeParamBound::Trait(t) => Some(&t.path),
                    _ => None,
                })
            }
            // A wrapper's name with no type argument is a type of its own (a
            // project's `State`).
            syn::Type::Path(p) if p.qself.is_none() => match self.wrapped(&p.path) {
                Some(mut inner) => inner.find_map(|t| self.named_path(t)),
                None => Some(&p.path),
            },
            _ => None,
        }
    }

    /// The element types of a tuple type, looking through references, parentheses and
    /// transparent wrappers (`Arc<(Mutex<bool>, Condvar)>`).
    pub fn tuple_elems<'t>(
        &self,
        ty: &'t syn::Type,
    ) -> Option<&'t syn::punctuated::Punctuated<syn::Type, syn::Token![,]>> {
        match ty {
            syn::Type::Tuple(t) if !t.elems.is_empty() => Some(&t.elems),
            syn::Type::Reference(r) => self.tuple_elems(&r.elem),
            syn::Type::Paren(p) => self.tuple_elems(&p.elem),
            syn::Type::Path(p) if p.qself.is_none() => {
                self.wrapped(&p.path)?.find_map(|t| self.tuple_elems(t))
            }
            _ => None,
        }
    }

    /// The type arguments of a transparent wrapper (`Arc<T>`, `&Mutex<T>`'s `Mutex`);
    /// `None` for any other path, and for a wrapper's name with no type argument.
    fn wrapped<'t>(&self, path: &'t syn::Path) -> Option<impl Iterator<Item = &'t syn::Type>> {
        let last = path.segments.last()?;
        if !self.is_transparent_type(&last.ident.to_string()) {
            return None;
        }
        let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
            return None;
        };
        Some(a.args.iter().filter_map(|arg| match arg {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        }))
    }

    /// The canonical path of a type, looking through transparent wrappers and references.
    pub fn resolve(&self, ty: &syn::Type) -> Option<String> {
        let catalog = self.catalog;
        self.imports
            .resolve(self.named_path(ty)?, &|s| catalog.knows(s))
    }

    /// A type of the project's own (`Ledger`, `Arc<crate::db::Ledger>`, `client::Cmd`),
    /// as written: calls on a value of that type go to the project's `Ledger`, and a
    /// module path picks that module's type when several share the name.
    pub fn project_path(&self, ty: &syn::Type) -> Option<String> {
        let path = self.named_path(ty)?;
        let last = path.segments.last()?;
        let modules = path.segments.len() - 1;
        let name = last.ident.to_string();
        let own = |s: &syn::PathSegment| {
            let s = s.ident.to_string();
            s.starts_with(char::is_lowercase)
                && !matches!(s.as_str(), "std" | "core" | "alloc")
                && !self.catalog.data.external_crates.contains(&s)
        };
        // `Notify<'_>`: lifetimes name no other type.
        let plain = match &last.arguments {
            syn::PathArguments::None => true,
            syn::PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .all(|g| matches!(g, syn::GenericArgument::Lifetime(_))),
            syn::PathArguments::Parenthesized(_) => false,
        };
        if modules == 0 && plain {
            // `ctx: Ctx` with `type Ctx = Data<JobQueue>;` in this file: `JobQueue`.
            if let Some(target) = self.aliases.get(&name) {
                return Some(target.clone());
            }
        }
        (path.leading_colon.is_none()
            && name.starts_with(char::is_uppercase)
            && plain
            && path
                .segments
                .iter()
                .take(modules)
                .all(|s| own(s) && s.arguments.is_empty()))
        .then(|| super::resolve::segments(path).join("::"))
    }

    /// The file's type aliases of project types, sorted, for the project model.
    pub fn alias_facts(&self) -> Vec<(Box<str>, Box<str>)> {
        let mut out: Vec<(Box<str>, Box<str>)> = self
            .aliases
            .iter()
            .map(|(a, t)| (a.as_str().into(), t.as_str().into()))
            .collect();
        out.sort_unstable();
        out
    }

    /// The file's type aliases that name a project type (`type AppData =
    /// web::Data<ArcData>;` -> (`AppData`, `ArcData`); `type DbPool = db::Pool;` ->
    /// (`DbPool`, `db::Pool`)), in inline modules too.
    fn project_aliases(&self, items: &[syn::Item]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for item in items {
            match item {
                syn::Item::Type(t) => {
                    // As written (`db::Pool`): the model checks the module path.
                    if let Some(target) = self.project_path(&t.ty) {
                        let last = target.rsplit("::").next().unwrap_or(&target);
                        if t.ident != last {
                            out.push((t.ident.to_string(), target));
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        out.extend(self.project_aliases(inner));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// A declared return type's path without its type arguments (`Result<Client<S>,
    /// Error>` is `Client`), when it names a type: the model looks its methods up
    /// among the project's.
    pub fn return_path(&self, ty: &syn::Type) -> Option<String> {
        let path = self.named_path(ty)?;
        let last = path.segments.last()?.ident.to_string();
        (last.starts_with(char::is_uppercase) && !self.catalog.knows(&last))
            .then(|| super::resolve::segments(path).join("::"))
    }

    pub fn is_transparent_type(&self, name: &str) -> bool {
        self.catalog
            .data
            .transparent
            .types
            .iter()
            .any(|t| t == name)
    }

    /// Whether a type is no project type: the catalog's, a prelude type (`String`), or
    /// one of a crate that is never the project's (`std::time::Duration`).
    fn foreign(&self, ty: &str) -> bool {
        let first = ty.split("::").next().unwrap_or(ty);
        self.catalog.knows(ty)
            || matches!(ty, "String" | "Vec" | "Box" | "Option" | "Result")
            || (ty.contains("::")
                && (matches!(first, "std" | "core" | "alloc")
                    || self.catalog.data.external_crates.iter().any(|c| c == first)))
    }

    /// Whether the file declares struct `name`.
    pub fn declares(&self, name: &str) -> bool {
        self.structs.contains(name)
    }

    /// The file's `pub` struct fields of project types, sorted: (struct, field, type).
    pub fn project_fields(&self) -> Vec<(Box<str>, Box<str>, Box<str>)> {
        let mut out: Vec<(Box<str>, Box<str>, Box<str>)> = self
            .fields
            .iter()
            .filter(|(k, ty)| self.visible.contains(*k) && !self.foreign(ty))
            .map(|((s, f), ty)| (s.as_str().into(), f.as_str().into(), ty.as_str().into()))
            .collect();
        out.sort_unstable();
        out
    }

    /// The file's struct fields of a type some catalog method wait is called on
    /// (`pub state_changed: Condvar`; a private one too, which the struct's child
    /// modules read: `worker_pool: rayon::ThreadPool` in `mod.rs`, used in `main.rs`),
    /// sorted: (struct, field, the entries by index).
    pub fn wait_fields(&self) -> Vec<(Box<str>, Box<str>, Vec<u16>)> {
        let mut out: Vec<(Box<str>, Box<str>, Vec<u16>)> = self
            .fields
            .iter()
            .filter_map(|((s, f), ty)| {
                let entries = self.waits_on(ty);
                (!entries.is_empty()).then(|| (s.as_str().into(), f.as_str().into(), entries))
            })
            .collect();
        out.sort_unstable();
        out
    }

    /// The catalog method waits called on a value of this declared type (a function's
    /// return type, or one element of it: `Receiver<Notification>`), by index.
    pub fn wait_entries(&self, ty: &syn::Type) -> Vec<u16> {
        self.resolve(ty)
            .map(|ty| self.waits_on(&ty))
            .unwrap_or_default()
    }

    /// The catalog method waits called on a value of type `ty` (a canonical path), by index.
    fn waits_on(&self, ty: &str) -> Vec<u16> {
        let waits = &self.catalog.data.waits;
        (0..waits.len())
            .filter(|&i| waits[i].method.is_some() && self.catalog.matches(&waits[i].on, Some(ty)))
            .filter_map(|i| u16::try_from(i).ok())
            .collect()
    }

    pub fn is_transparent_method(&self, name: &str) -> bool {
        self.catalog
            .data
            .transparent
            .methods
            .iter()
            .any(|t| t == name)
    }
}

fn collect_structs<'f>(
    items: &'f [syn::Item],
    out: &mut Vec<&'f syn::ItemStruct>,
    enums: &mut Vec<&'f syn::ItemEnum>,
) {
    for item in items {
        match item {
            syn::Item::Struct(s) => out.push(s),
            syn::Item::Enum(e) => enums.push(e),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect_structs(inner, out, enums);
                }
            }
            _ => {}
        }
    }
}

/// `static NAME: T` items and `lazy_static! { static ref NAME: T = ..; }` entries,
/// at any module depth.
fn collect_statics(items: &[syn::Item], out: &mut Vec<(String, syn::Type, crate::source::Span)>) {
    for item in items {
        match item {
            syn::Item::Static(s) => {
                let at = super::spans::span(s.ident.span());
                out.push((s.ident.to_string(), (*s.ty).clone(), at));
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    collect_statics(inner, out);
                }
            }
            syn::Item::Macro(m)
                if m.mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "lazy_static") =>
            {
                let at = super::spans::span(
                    m.mac
                        .path
                        .segments
                        .last()
                        .map_or_else(proc_macro2::Span::call_site, |s| s.ident.span()),
                );
                let text = m.mac.tokens.to_string();
                for entry in text.split("static ref ").skip(1) {
                    let Some((name, rest)) = entry.split_once(':') else {
                        continue;
                    };
                    let Some((ty, _)) = rest.split_once(" = ") else {
                        continue;
                    };
                    if let Ok(ty) = syn::parse_str::<syn::Type>(ty.trim()) {
                        out.push((name.trim().to_string(), ty, at));
                    }
                }
            }
            _ => {}
        }
    }
}
