//! Java methods that return a promise an I/O callback completes, followed across
//! classes (`publishRules` returns `client.setRules(..)`, which returns the future its
//! HTTP callback completes), and the waits on their results: what they wait for is
//! I/O, bounded by the client's own timeouts (`missing_client_timeout` judges those).
//! A method declared to return a future with its own deadline (a Hazelcast
//! `InvocationFuture`) is such a method too, with nothing left to prove.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::calls::{CallGraph, Node, LIBRARY_CALL, UNSEEN_CALL};
use crate::facts::FileFacts;
use crate::source::FileId;

/// Waits, as (file, start of the wait's span), on the result of calls whose every
/// target returns a promise.
pub struct ProvenWaits {
    /// Every target returns an I/O promise (or a future with its own deadline).
    pub bounded: HashSet<(FileId, usize)>,
    /// Every target returns a chain of calls on libraries or such methods, none a
    /// submission to a pool (`bounded` included): no pool work of the project's.
    pub library: HashSet<(FileId, usize)>,
}

pub fn proven_waits(
    facts: &[FileFacts],
    calls: &CallGraph,
    types: &super::types::Types,
) -> ProvenWaits {
    let mut out = ProvenWaits {
        bounded: HashSet::default(),
        library: HashSet::default(),
    };
    // A method that returns the future of a task it submits (`return allAsList(futures)`
    // over its own submissions) returns that task's work, no library's promise; so
    // does an `@Async` method, whatever its body returns (`completedFuture(v)`): its
    // callers get the future of the task Spring's proxy submits.
    let pending: HashMap<Node, &[u32]> = facts
        .iter()
        .enumerate()
        .flat_map(|(file, f)| {
            f.promise_methods
                .iter()
                .filter(|(ctx, _)| !f.submissions.iter().any(|s| s.returned && s.ctx == *ctx))
                .filter(move |(ctx, _)| !spring_async(facts, (file, *ctx)))
                .map(move |(ctx, calls)| ((file, *ctx), &calls[..]))
        })
        .collect();
    if pending.is_empty() && facts.iter().all(|f| f.chain_waits.is_empty()) {
        return out;
    }
    let targets = |file: FileId, ci: usize| bodied_targets(facts, calls, file, ci);
    // Least fixpoints: a method is proven once every call it returns reaches only
    // proven methods (a cycle proves nothing); with `library`, a returned call with no
    // project target counts as proven too. The second starts from the first.
    let mut proven: HashSet<Node> = HashSet::default();
    prove(&pending, &mut proven, &targets, false);
    let strict = proven.clone();
    prove(&pending, &mut proven, &targets, true);
    // A wait on several calls (`allOf(a.f(), b.g()).join()`) is proven when all are.
    let mut unproven = (HashSet::default(), HashSet::default());
    for (file, f) in facts.iter().enumerate() {
        for &(ci, span) in &f.call_waits {
            let t = targets(file, ci);
            let at = (file, span.start);
            let (b, l) = if t.is_empty() {
                (false, false)
            } else {
                (
                    t.iter().all(|n| strict.contains(n)),
                    t.iter().all(|n| proven.contains(n)),
                )
            };
            for (ok, set, miss) in [
                (b, &mut out.bounded, &mut unproven.0),
                (l, &mut out.library, &mut unproven.1),
            ] {
                if ok {
                    set.insert(at);
                } else {
                    miss.insert(at);
                }
            }
        }
    }
    out.bounded.retain(|w| !unproven.0.contains(w));
    out.library.retain(|w| !unproven.1.contains(w));
    // A reactive chain made where it is waited on: library I/O when each call is on a
    // library's type, or reaches only methods that return such a chain. (A project
    // interface nothing implements, a Spring Data repository: unknown.)
    for (file, f) in facts.iter().enumerate() {
        for (span, chain) in &f.chain_waits {
            let library = chain.iter().all(|&ci| {
                let t = targets(file, ci as usize);
                ci == LIBRARY_CALL
                    || t.iter().all(|n| proven.contains(n))
                        && (!t.is_empty() || !on_project(facts, types, file, ci))
            });
            if library {
                out.library.insert((file, span.start));
            }
        }
    }
    // A future that can come only from calls that reach no pool work of the project's:
    // a library's, a project method's that returns no future, or one whose returned
    // future comes from such calls in turn.
    if facts.iter().any(|f| !f.wait_sources.is_empty()) {
        let free = pool_free(facts, calls, types);
        for (file, f) in facts.iter().enumerate() {
            for (span, sources) in &f.wait_sources {
                if sources
                    .iter()
                    .all(|&ci| call_free(facts, calls, types, &free, file, ci))
                {
                    out.library.insert((file, span.start));
                }
            }
        }
    }
    out
}

/// Whether call `ci` of `file` is made on a project type: one the project declares, or
/// one written without an import (of the file's package, or nested: the project's own,
/// in a file this run does not see).
fn on_project(facts: &[FileFacts], types: &super::types::Types, file: FileId, ci: u32) -> bool {
    facts[file]
        .calls
        .get(ci as usize)
        .and_then(|c| c.target.as_deref())
        .is_some_and(|r| types.resolve(r).is_some() || r.candidates.len() > 1)
}

/// Methods declared to return a future whose every returned future comes from calls
/// that reach no pool work of the project's (a least fixpoint: a cycle proves nothing).
fn pool_free(facts: &[FileFacts], calls: &CallGraph, types: &super::types::Types) -> HashSet<Node> {
    let summaries: Vec<(Node, &[u32])> = facts
        .iter()
        .enumerate()
        .flat_map(|(file, f)| {
            f.return_sources
                .iter()
                .map(move |(ctx, c)| ((file, *ctx), &c[..]))
        })
        .collect();
    let mut free = HashSet::default();
    fixpoint(summaries, &mut free, |free, file, ci| {
        call_free(facts, calls, types, free, file, ci)
    });
    free
}

/// Whether what call `ci` of `file` returns holds no pool work of the project's: a
/// library's call, or one whose every target has a body and returns no future or is in
/// `free` (not an `@Async` method, a method with no body the run can show, a call on a
/// project type the run does not see).
fn call_free(
    facts: &[FileFacts],
    calls: &CallGraph,
    types: &super::types::Types,
    free: &HashSet<Node>,
    file: FileId,
    ci: u32,
) -> bool {
    match ci {
        LIBRARY_CALL => return true,
        UNSEEN_CALL => return false,
        _ => {}
    }
    let t = targets(facts, calls, file, ci as usize);
    let returns_future = |&(f, c): &Node| facts[f].returns.iter().any(|(r, _)| *r == c);
    let bodied = |&n: &Node| has_body(facts, n);
    // An `@Async` method's callers get the future of the task Spring submits.
    if t.iter().any(|&n| spring_async(facts, n)) {
        return false;
    }
    // A project type's method with no body the project can show (an interface only
    // other code implements, a Spring Data repository): what it returns is unknown.
    if !t.is_empty() && !t.iter().any(bodied) || t.is_empty() && on_project(facts, types, file, ci)
    {
        return false;
    }
    t.iter()
        .all(|n| !bodied(n) || !returns_future(n) || free.contains(n))
}

/// Whether a method is Spring `@Async`: its callers get the future of the task
/// Spring's proxy submits, whatever its body returns.
fn spring_async(facts: &[FileFacts], (f, c): Node) -> bool {
    let head = facts[f].contexts[c].head;
    facts[f].async_methods.iter().any(|m| m.span == head)
}

/// Whether a method has a body (a Java method without one has its whole declaration
/// as its body span, which starts before its name).
fn has_body(facts: &[FileFacts], (f, c): Node) -> bool {
    let ctx = &facts[f].contexts[c];
    ctx.body.start > ctx.head.start
}

/// Grow `proven` to its fixpoint over `pending`.
fn prove(
    pending: &HashMap<Node, &[u32]>,
    proven: &mut HashSet<Node>,
    targets: &dyn Fn(FileId, usize) -> Vec<Node>,
    library: bool,
) {
    let pending = pending.iter().map(|(&node, calls)| (node, *calls));
    fixpoint(pending, proven, |proven, file, ci| {
        let t = targets(file, ci as usize);
        (library || !t.is_empty()) && t.iter().all(|n| proven.contains(n))
    });
}

/// A least fixpoint: add each method of `summaries` to `proven` once `holds` accepts
/// every call it lists (given what is proven so far), until nothing changes; a cycle
/// proves nothing.
fn fixpoint<'s>(
    summaries: impl IntoIterator<Item = (Node, &'s [u32])>,
    proven: &mut HashSet<Node>,
    holds: impl Fn(&HashSet<Node>, FileId, u32) -> bool,
) {
    let summaries: Vec<(Node, &[u32])> = summaries.into_iter().collect();
    loop {
        let before = proven.len();
        for &(node, calls) in &summaries {
            if !proven.contains(&node) && calls.iter().all(|&ci| holds(proven, node.0, ci)) {
                proven.insert(node);
            }
        }
        if proven.len() == before {
            break;
        }
    }
}

/// The methods a call of `file` (by index) reaches.
fn targets(facts: &[FileFacts], calls: &CallGraph, file: FileId, ci: usize) -> Vec<Node> {
    let Some(call) = facts[file].calls.get(ci) else {
        return Vec::new();
    };
    calls
        .callees
        .at(&(file, call.ctx), call.span)
        .map(|e| e.node)
        .collect()
}

/// The targets with a body: what a call returns is what its implementations return,
/// not an interface's abstract method (none: nothing is proven).
fn bodied_targets(facts: &[FileFacts], calls: &CallGraph, file: FileId, ci: usize) -> Vec<Node> {
    let mut t = targets(facts, calls, file, ci);
    t.retain(|&n| has_body(facts, n));
    t
}

/// Java waits on a project call's result of unknown type (`Wait::by_call`), as (file,
/// start of the wait's span), where every target of the call is declared to return a
/// future (`FileFacts::returns`): `ev.getResultFuture().get()` waits for that future.
pub fn future_waits(
    facts: &[FileFacts],
    calls: &CallGraph,
    types: &super::types::Types,
) -> HashSet<(FileId, usize)> {
    let mut out = HashSet::default();
    // `rpcFuture.get()`: every target is a method of a project class that is a future
    // (implements one itself or through a project supertype). Not on a variable of a
    // project future interface: it may hold a completed no-op (`sync ? new
    // FutureImpl<>() : SimpleFuture.dumb()`), which the project cannot tell apart.
    let decl = |t| types.decl(facts, t);
    // Or a method that implements a blocking API with an untimed wait inside
    // (`ClusterFuture.get()` awaiting a latch).
    // A fan-out's `await()` counts when its class starts the work it waits for (a
    // pool submission of its own), not a closure handed to another component's thread.
    let submits = |f: FileId, owner: Option<&str>| {
        facts[f]
            .submissions
            .iter()
            .any(|s| facts[f].contexts[s.ctx].owner.as_deref() == owner)
    };
    let is_future = |&(f, c): &Node| {
        let ctx = &facts[f].contexts[c];
        let owner = ctx.owner.as_deref().and_then(|o| types.id(o));
        let method = ctx.name.rsplit('.').next().unwrap_or("");
        owner.is_some_and(|t| {
            !decl(t).interface
                && (types.ancestry(t).into_iter().any(|a| decl(a).future)
                    || decl(t).blocking_api.iter().any(|m| &**m == method)
                        && (method != "await" || submits(f, ctx.owner.as_deref())))
        })
    };
    for (file, f) in facts.iter().enumerate() {
        for &(ci, span) in &f.member_waits {
            let call = f.calls.get(ci as usize);
            // The receiver's declared type; an unqualified call's is its caller's class.
            let declared = call.and_then(|c| match (&c.target, &c.receiver_type) {
                (Some(r), _) => types.resolve(r),
                (None, None) => f.contexts[c.ctx].owner.as_deref().and_then(|o| types.id(o)),
                (None, Some(_)) => None,
            });
            if declared.is_some_and(|t| decl(t).interface) {
                continue;
            }
            let t = targets(facts, calls, file, ci as usize);
            if !t.is_empty() && t.iter().all(is_future) {
                out.insert((file, span.start));
            }
            // `ackLatch.await()` on a project subclass of `CountDownLatch` that does not
            // declare `await` itself: the JDK class's wait.
            let method = call.map(|c| &*c.method);
            let inherits = |t: super::types::TypeId| {
                types
                    .ancestry(t)
                    .into_iter()
                    .any(|a| decl(a).inherited_waits.iter().any(|w| Some(&**w) == method))
            };
            if t.is_empty() && declared.is_some_and(inherits) {
                out.insert((file, span.start));
            }
        }
    }
    // A wrapper's submission (`store.spans(id).join()` where `spans` returns its task's
    // future): `unbounded_join` reports that wait as the task's.
    let wrapped: HashSet<(FileId, usize)> = calls.wrapped.iter().map(|w| w.call).collect();
    for (file, f) in facts.iter().enumerate() {
        let by_call: HashSet<usize> = f
            .waits
            .iter()
            .filter(|w| w.by_call)
            .map(|w| w.span.start)
            .collect();
        if by_call.is_empty() {
            continue;
        }
        for &(ci, span) in &f.call_waits {
            if !by_call.contains(&span.start) || wrapped.contains(&(file, ci)) {
                continue;
            }
            let t = targets(facts, calls, file, ci);
            if !t.is_empty() && t.iter().all(|&(tf, c)| facts[tf].returns_of(c).is_some()) {
                out.insert((file, span.start));
            }
        }
    }
    out
}

/// Rust waits on what a project call returns (`FileFacts::result_waits`), as (file,
/// start of the wait's span), where every target of the call is declared to return,
/// at that tuple element, a type the wait's catalog entry is called on
/// (`FileFacts::wait_returns`): `let (out, rx) = Outgoing::new(id); rx.recv()`.
pub fn result_waits(facts: &[FileFacts], calls: &CallGraph) -> HashSet<(FileId, usize)> {
    let mut out = HashSet::default();
    for (file, f) in facts.iter().enumerate() {
        for &(w, ci, elem, entry) in &f.result_waits {
            let t = targets(facts, calls, file, ci as usize);
            let declared = |&(tf, tc): &Node| {
                facts[tf].wait_returns.iter().any(|(c, e, entries)| {
                    *c as usize == tc && *e == elem && entries.contains(&entry)
                })
            };
            if let (false, Some(w)) = (t.is_empty(), f.waits.get(w as usize)) {
                if t.iter().all(declared) {
                    out.insert((file, w.span.start));
                }
            }
        }
    }
    out
}

/// Rust blocking calls on a field of a project struct another file declares
/// (`node.state_changed.wait(guard)`, `FileFacts::field_waits`), as (file, start of the
/// wait's span), where that field is declared of the wait entry's type (`pub
/// state_changed: Condvar`). A struct name two files give different such fields is
/// left out.
pub fn field_waits(facts: &[FileFacts]) -> HashSet<(FileId, usize)> {
    let mut out = HashSet::default();
    let mut fields: HashMap<(&str, &str), Option<&[u16]>> = HashMap::default();
    for f in facts {
        for (st, field, entries) in &f.wait_fields {
            fields
                .entry((st, field))
                .and_modify(|e| {
                    if *e != Some(&entries[..]) {
                        *e = None;
                    }
                })
                .or_insert(Some(entries));
        }
    }
    if fields.is_empty() {
        return out;
    }
    for (file, f) in facts.iter().enumerate() {
        for (w, st, field, entry) in &f.field_waits {
            let declared = fields.get(&(&**st, &**field)).copied().flatten();
            if let (Some(e), Some(w)) = (declared, f.waits.get(*w as usize)) {
                if e.contains(entry) {
                    out.insert((file, w.span.start));
                }
            }
        }
    }
    out
}
