//! The project model, built once after the per-file phase: the type hierarchy,
//! the call graph across files, and the execution context (hot, cold, unknown) of
//! every method and task body. Rules read it through [`crate::link::Project`].

pub mod calls;
pub mod heat;
pub mod naming;
pub mod promises;
pub mod types;

use crate::catalog::{EntryHeat, EntryPoint};
use crate::facts::{CtxKind, FileFacts, Heat};
use crate::source::{Language, SourceFile};

pub use calls::{CallGraph, Edge, Node};
pub use heat::{Heats, Step};
pub use types::Types;

/// Types, calls and heats of one run.
#[derive(Debug, Default)]
pub struct Model {
    pub types: Types,
    pub calls: CallGraph,
    pub heats: Heats,
    /// Java waits, as (file, span start), on a project call that returns a promise an
    /// I/O callback completes: bounded by that client's timeouts.
    pub promise_waits: rustc_hash::FxHashSet<(crate::source::FileId, usize)>,
    /// Java waits on a project call's result (`Wait::by_call`) whose every target is
    /// declared to return a future, and Rust waits on a field another file declares of
    /// a waited type: untimed waits, as (file, start of the wait's span).
    pub typed_waits: rustc_hash::FxHashSet<(crate::source::FileId, usize)>,
    /// Java waits on a project call whose futures come only from library calls, none a
    /// submission to a pool (`promises::library_waits`).
    pub library_waits: rustc_hash::FxHashSet<(crate::source::FileId, usize)>,
    /// The project gives its scheduler at least as many threads as it has `@Scheduled`
    /// methods (`Entry::sized_job`): each of them is a job, as a Quartz job is.
    pub scheduler_sized: bool,
}

impl Model {
    /// `java_entries`: the Java catalog's entry points, matched here against
    /// supertypes inherited through project classes (`Engine extends BaseDaemon`,
    /// `BaseDaemon extends Thread`), which one file cannot see.
    pub fn new(files: &[SourceFile], facts: &[FileFacts], java_entries: &[EntryPoint]) -> Model {
        let types = Types::new(facts);
        let calls = CallGraph::new(files, facts, &types);
        let mut inherited = inherited_entries(files, facts, &types, java_entries);
        inherited.extend(implemented_handlers(files, facts, &types, &calls));
        let heats = Heats::new(facts, &calls, &inherited);
        let promises::ProvenWaits {
            bounded: promise_waits,
            library: library_waits,
        } = promises::proven_waits(facts, &calls, &types);
        let mut typed_waits = promises::future_waits(facts, &calls, &types);
        typed_waits.extend(promises::field_waits(facts));
        typed_waits.extend(promises::result_waits(facts, &calls));
        let scheduler_sized = scheduler_sized(facts);
        Model {
            types,
            calls,
            heats,
            promise_waits,
            library_waits,
            typed_waits,
            scheduler_sized,
        }
    }
}

/// Java: an entry point matched by a supertype's name suffix (`CacheMXBean`, a Thrift
/// `.Iface`) is that interface's contract: where the project declares the interface,
/// only the methods it declares are entries (a provider's public `findUsers`, beside
/// the `getCacheHitRatio` its MXBean declares, is no JMX operation).
pub fn declared_entries_only(
    files: &[SourceFile],
    facts: &mut [FileFacts],
    entries: &[EntryPoint],
) {
    if entries.iter().all(|e| e.supertype_suffixes.is_empty()) {
        return;
    }
    let types = Types::new(facts);
    // Whether project type `t` declares a method `name` (its file has its context).
    let declares = |t: types::TypeId, name: &str| {
        let owner = types.names[t].as_str();
        let (file, _) = types.decls[t];
        (facts[file].contexts.iter()).any(|c| c.owner.as_deref() == Some(owner) && c.name == name)
    };
    let mut undeclared: Vec<Node> = Vec::new();
    for (file, f) in facts.iter().enumerate() {
        if files.get(file).is_none_or(|s| s.language != Language::Java) {
            continue;
        }
        for (ctx, c) in f.contexts.iter().enumerate() {
            let (Some(e), Some(owner)) = (&c.entry, c.owner.as_deref()) else {
                continue;
            };
            let by_suffix = entries
                .iter()
                .find(|s| !s.supertype_suffixes.is_empty() && s.why == e.why);
            let (Some(entry), Some(t)) = (by_suffix, types.id(owner)) else {
                continue;
            };
            // The project interfaces named with the entry's suffixes.
            let mut named = (types.supers[t].iter())
                .filter(|&&s| entry.suffix_names(&types.names[s]))
                .peekable();
            if named.peek().is_some() && !named.any(|&s| declares(s, &c.name)) {
                undeclared.push((file, ctx));
            }
        }
    }
    for (file, ctx) in undeclared {
        facts[file].contexts[ctx].entry = None;
    }
}

/// An entry point a method takes from a supertype or an interface: the method, its
/// heat, why, and whether it runs per message or event (the catalog's `per_event`).
pub type Inherited = (Node, Heat, String, bool);

/// Whether the scheduler threads the project sets (all literals, the largest count)
/// are at least as many as its methods whose entry is a job when sized.
fn scheduler_sized(facts: &[FileFacts]) -> bool {
    let mut threads = None;
    for f in facts {
        for n in &f.scheduler_threads {
            match n {
                Some(n) => threads = threads.max(Some(*n)),
                None => return false,
            }
        }
    }
    let Some(threads) = threads else {
        return false;
    };
    let jobs = facts
        .iter()
        .flat_map(|f| &f.contexts)
        .filter(|c| c.entry.as_ref().is_some_and(|e| e.sized_job))
        .count();
    jobs <= threads as usize
}

/// Java: a Spring controller's method that implements a method its project interface
/// maps (`@PostMapping` on `NotifyApi.send`, a Feign API the controller serves):
/// Spring maps it from the interface, so it is that handler.
fn implemented_handlers(
    files: &[SourceFile],
    facts: &[FileFacts],
    types: &Types,
    calls: &calls::CallGraph,
) -> Vec<Inherited> {
    let mut out = Vec::new();
    for (node, c, t) in unentered_methods(files, facts, types) {
        if !types.decl(facts, t).controller {
            continue;
        }
        let mapped = types.ancestry(t).into_iter().skip(1).find_map(|a| {
            let owner = &types.decl(facts, a).name;
            calls.named(owner, &c.name).iter().find_map(|&(df, dc)| {
                let e = facts[df].contexts[dc].entry.as_ref()?;
                let simple = owner.rsplit('.').next().unwrap_or(owner);
                (e.heat == Heat::Hot && !e.paced).then(|| {
                    format!(
                        "{} (mapped on `{simple}.{}`, which it implements)",
                        e.why, c.name
                    )
                })
            })
        });
        if let Some(why) = mapped {
            out.push((node, Heat::Hot, why, false));
        }
    }
    out
}

/// Java methods with no entry point of their own, with their class: where one may
/// be inherited.
fn unentered_methods<'f>(
    files: &'f [SourceFile],
    facts: &'f [FileFacts],
    types: &'f Types,
) -> impl Iterator<Item = (Node, &'f crate::facts::Context, types::TypeId)> + 'f {
    let java = move |file: usize| {
        files
            .get(file)
            .is_some_and(|s| s.language == Language::Java)
    };
    facts
        .iter()
        .enumerate()
        .filter(move |(file, _)| java(*file))
        .flat_map(move |(file, f)| {
            f.contexts.iter().enumerate().filter_map(move |(ctx, c)| {
                if c.entry.is_some() || c.kind != CtxKind::Function {
                    return None;
                }
                let t = c.owner.as_deref().and_then(|o| types.id(o))?;
                Some(((file, ctx), c, t))
            })
        })
}

/// Entry points by a supertype a project base class extends: `run` of a class whose
/// project superclass extends `Thread`, `doGet` of a servlet's project base.
fn inherited_entries(
    files: &[SourceFile],
    facts: &[FileFacts],
    types: &Types,
    entries: &[EntryPoint],
) -> Vec<Inherited> {
    let by_supertype: Vec<&EntryPoint> = entries
        .iter()
        .filter(|e| !e.supertypes.is_empty())
        .filter(|e| e.method_annotations.is_empty() && e.class_annotations.is_empty())
        .collect();
    let mut out = Vec::new();
    if by_supertype.is_empty() {
        return out;
    }
    for ((file, ctx), c, t) in unentered_methods(files, facts, types) {
        // Supertypes outside the project, of the class's project ancestors.
        let external: Vec<&str> = types
            .ancestry(t)
            .into_iter()
            .skip(1)
            .flat_map(|a| types.external_supers(facts, a))
            .filter_map(|r| r.candidates.first().map(String::as_str))
            .collect();
        if external.is_empty() {
            continue;
        }
        // With no `methods`, every public instance method (as for a direct subclass).
        let named = |e: &EntryPoint| {
            if e.methods.is_empty() {
                c.is_public
                    && !c.is_static
                    && (!e.no_params || c.arity == Some(0))
                    && e.param_types.is_empty()
                    && !e.overrides
            } else {
                e.methods.contains(&c.name)
            }
        };
        let hit = by_supertype.iter().find(|e| {
            named(e)
                && !e.except_methods.contains(&c.name)
                && external.iter().any(|x| e.supertypes.iter().any(|s| s == x))
        });
        if let Some(e) = hit {
            // A back-office class's handlers (`@RequestMapping("/admin/..")`).
            let admin = types.decl(facts, t).admin_root;
            let (heat, why) = match e.heat {
                EntryHeat::Hot if admin => (Heat::Cold, crate::facts::admin_only(&e.why)),
                EntryHeat::Hot => (Heat::Hot, e.why.clone()),
                EntryHeat::Cold => (Heat::Cold, e.why.clone()),
            };
            out.push(((file, ctx), heat, why, e.per_event));
        }
    }
    out
}
