//! The project's types: every declared type by fully-qualified name, with its
//! supertypes, subtypes and outer class resolved across files.

use rustc_hash::FxHashMap as HashMap;

use crate::facts::{FileFacts, TypeRef};
use crate::source::FileId;

/// Index of a type in [`Types`].
pub type TypeId = usize;

/// How many supertype levels lookups climb (cycles in broken code stop here too).
const MAX_SUPER_DEPTH: usize = 12;

/// Every type the project declares.
#[derive(Debug, Default)]
pub struct Types {
    /// (file, index into that file's `types`).
    pub decls: Vec<(FileId, usize)>,
    pub names: Vec<String>,
    by_name: HashMap<String, TypeId>,
    pub supers: Vec<Vec<TypeId>>,
    pub subs: Vec<Vec<TypeId>>,
    pub outer: Vec<Option<TypeId>>,
}

impl Types {
    pub fn new(facts: &[FileFacts]) -> Types {
        let mut t = Types::default();
        for (file, f) in facts.iter().enumerate() {
            for (i, d) in f.types.iter().enumerate() {
                if t.by_name.contains_key(&d.name) {
                    continue; // the same name twice (broken or duplicated sources): first wins
                }
                t.by_name.insert(d.name.clone(), t.decls.len());
                t.decls.push((file, i));
                t.names.push(d.name.clone());
            }
        }
        let n = t.decls.len();
        t.supers = vec![Vec::new(); n];
        t.subs = vec![Vec::new(); n];
        t.outer = vec![None; n];
        for id in 0..n {
            let (file, i) = t.decls[id];
            let d = &facts[file].types[i];
            for s in &d.supers {
                if let Some(sid) = t.resolve(s).filter(|&s| s != id) {
                    t.supers[id].push(sid);
                    t.subs[sid].push(id);
                }
            }
            t.outer[id] = d.outer.as_deref().and_then(|o| t.id(o));
        }
        t
    }

    /// The supertypes of `id` the project does not declare (`extends HttpServlet`).
    pub fn external_supers<'f>(
        &self,
        facts: &'f [FileFacts],
        id: TypeId,
    ) -> impl Iterator<Item = &'f TypeRef> + use<'f, '_> {
        self.decl(facts, id)
            .supers
            .iter()
            .map(|r| &**r)
            .filter(|r| self.resolve(r).is_none())
    }

    /// The declaration of type `id`.
    pub fn decl<'f>(&self, facts: &'f [FileFacts], id: TypeId) -> &'f crate::facts::TypeDecl {
        let (file, i) = self.decls[id];
        &facts[file].types[i]
    }

    pub fn id(&self, name: &str) -> Option<TypeId> {
        self.by_name.get(name).copied()
    }

    /// The first candidate the project declares.
    pub fn resolve(&self, r: &TypeRef) -> Option<TypeId> {
        r.candidates.iter().find_map(|c| self.id(c))
    }

    /// The type and its supertypes, nearest first (breadth-first, each once).
    pub fn ancestry(&self, id: TypeId) -> Vec<TypeId> {
        let mut out = vec![id];
        let mut i = 0;
        while i < out.len() && out.len() < 64 {
            let depth_ok = i < MAX_SUPER_DEPTH * 4;
            if depth_ok {
                for &s in &self.supers[out[i]] {
                    if !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
            i += 1;
        }
        out
    }

    /// The type and the classes enclosing it, innermost first (at most eight).
    pub fn enclosing(&self, id: TypeId) -> impl Iterator<Item = TypeId> + '_ {
        std::iter::successors(Some(id), |&t| self.outer[t]).take(8)
    }

    /// The project subtypes, transitively (each once); past `limit` it stops and
    /// returns `limit + 1` of them.
    pub fn descendants(&self, id: TypeId, limit: usize) -> Vec<TypeId> {
        let mut out: Vec<TypeId> = Vec::new();
        let mut stack = self.subs[id].clone();
        while let Some(s) = stack.pop() {
            if s != id && !out.contains(&s) {
                out.push(s);
                if out.len() > limit {
                    break;
                }
                stack.extend(self.subs[s].iter().copied());
            }
        }
        out
    }
}
