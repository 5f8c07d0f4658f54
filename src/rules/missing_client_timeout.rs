//! `missing_client_timeout`: a network client with no timeout lets one slow
//! dependency hold a thread (or task) for as long as it likes.

use super::{Level, Rule, Settings};
use crate::diagnostic::Diagnostic;
use crate::facts::{BuilderUse, Client, ClientBean, ClientField, CtxId, CtxKind, Heat};
use crate::link::Project;
use crate::source::{FileId, Span};
use rustc_hash::FxHashSet as HashSet;

pub const RULE: Rule = Rule {
    id: "missing_client_timeout",
    default_level: Level::Warning,
    languages: "java, rust",
    summary: "network client created without connect/read timeouts",
    doc: include_str!("../../rules/missing_client_timeout.md"),
    precision: "high",
    check,
};

/// A function every caller runs inside a timeout wrapper (`timeout(d, probe(..))`),
/// directly or through callers that are bounded the same way (`timeout(d, async {
/// check().await })` where `check` calls `probe`): the connections and requests it
/// makes are bounded there (a client it returns would escape the bound; an `async
/// fn` that builds and returns one is rare).
fn bounded_by_callers(project: &Project, node: crate::model::Node, depth: usize) -> bool {
    /// How many calls up the chain the bound is looked for.
    const DEPTH: usize = 4;
    let callers = project.model.calls.callers.get(&node);
    let mut callers = callers.into_iter().flatten().peekable();
    callers.peek().is_some()
        && callers.all(|e| {
            e.timed
                || (depth < DEPTH
                    && e.node != node
                    && bounded_by_callers(project, e.node, depth + 1))
        })
}

/// The function a client is made in, for "one fix, one finding". A Rust function
/// written once per `#[cfg]` variant of its impl (`Forwarder::try_new` for each TLS
/// backend) is one function, known by its owner and name; other code by its context.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum MadeIn<'p> {
    Context(CtxId),
    Named(&'p str, &'p str),
}

impl<'p> MadeIn<'p> {
    fn of(project: &'p Project, file: FileId, ctx: CtxId) -> MadeIn<'p> {
        let x = &project.facts[file].contexts[ctx];
        let rust = project.files[file].language == crate::source::Language::Rust;
        match &x.owner {
            Some(owner) if rust && x.parent.is_none() => MadeIn::Named(owner, &x.name),
            // A free function written once per variant (`#[cfg(wasm)] fn builder()`).
            None if rust && x.parent.is_none() && x.kind == CtxKind::Function => {
                MadeIn::Named("", &x.name)
            }
            _ => MadeIn::Context(ctx),
        }
    }
}

/// Each span with the innermost context of `file` around it and that context's heat.
fn span_contexts(
    project: &Project,
    file: usize,
    spans: &[crate::source::Span],
) -> Vec<(crate::source::Span, usize, Heat)> {
    let contexts = &project.facts[file].contexts;
    spans
        .iter()
        .filter_map(|s| {
            let ctx = contexts
                .iter()
                .enumerate()
                .filter(|(_, x)| x.body.start <= s.start && s.end <= x.body.end)
                .min_by_key(|(_, x)| x.body.end - x.body.start)?
                .0;
            Some((*s, ctx, project.heat(file, ctx)))
        })
        .collect()
}

/// Java: the requests made through a client bean, in the fields it is injected
/// into: a field named by a qualifier takes the bean of that name; an unqualified
/// one the bean named like the field, or the only bean of its type. As (file, span,
/// context, heat).
fn bean_requests(project: &Project, bean: &ClientBean) -> Vec<(usize, Span, usize, Heat)> {
    let mut out = Vec::new();
    for (file, f) in bean_fields(project, bean) {
        // Handed to a project method that sets nothing on it: a request there.
        let handed = f.handed.iter().filter(|h| !handed_timed(project, file, h));
        let mut requests = f.requests.clone();
        requests.extend(handed.map(|h| h.0));
        let found = span_contexts(project, file, &requests);
        out.extend(found.into_iter().map(|(s, ctx, h)| (file, s, ctx, h)));
    }
    out
}

/// Java: a client handed as argument `param` of the call at `call` to project
/// methods that each set what it lacks on it (`stub.withDeadlineAfter(..)`).
fn handed_timed(project: &Project, file: usize, &(call, param): &(Span, u8)) -> bool {
    let Some(&(_, ctx, _)) = span_contexts(project, file, &[call]).first() else {
        return false;
    };
    keepers_timed(project, (file, ctx), call, param)
}

/// Whether the call at `call` in `node` resolves to project functions that each bound
/// the client they take as parameter `param` ([`crate::facts::Keeper::timed`]).
fn keepers_timed(project: &Project, node: crate::model::Node, call: Span, param: u8) -> bool {
    let mut callees = project.keepers_at(node, call, param).peekable();
    callees.peek().is_some()
        && callees.all(|kept| kept.iter().any(|k| k.sender.is_none() && k.timed))
}

/// Java: the fields a client bean is injected into, with their files.
fn bean_fields<'p>(project: &'p Project, bean: &ClientBean) -> Vec<(usize, &'p ClientField)> {
    let others = project
        .each()
        .flat_map(|(_, _, f)| &f.client_beans)
        .filter(|b| b.ty == bean.ty)
        .count();
    project
        .each()
        .flat_map(move |(file, _, facts)| {
            facts
                .client_fields
                .iter()
                .filter(move |f| f.ty == bean.ty)
                .filter(move |f| bean.names.contains(&f.bean) || !f.qualified && others == 1)
                .map(move |f| (file, f))
        })
        .collect()
}

/// Java: a client bean that no field it is injected into sends a request on as it
/// is: each sets what the client lacks on every call (`stub.withDeadlineAfter(..)`),
/// or hands it to project methods that do (`support.call("op", stub, s -> s.get(q))`,
/// whose helper calls `stub.withDeadlineAfter(..)`). Bounded there.
fn bean_bounded_per_call(project: &Project, file: usize, c: &Client) -> bool {
    let Some(bean) = c
        .bean
        .and_then(|i| project.facts[file].client_beans.get(i as usize))
    else {
        return false;
    };
    let fields = bean_fields(project, bean);
    c.requests.is_empty()
        && !fields.is_empty()
        && fields.iter().all(|&(file, f)| {
            f.requests.is_empty()
                && (f.per_call || !f.handed.is_empty())
                && f.handed.iter().all(|h| handed_timed(project, file, h))
        })
}

/// Java: a client a factory method returns, where every project class that takes it
/// from there into a field bounds each of its requests (`request.setConfig(rc)` with
/// timeouts) in the way the client's entry allows.
fn bounded_by_takers(project: &Project, c: &Client) -> bool {
    let Some((from, entry)) = &c.returned_by else {
        return false;
    };
    let mut takers = project
        .each()
        .flat_map(|(_, _, f)| &f.client_sources)
        .filter(|s| &s.from == from)
        .peekable();
    takers.peek().is_some() && takers.all(|s| s.bounded.contains(entry))
}

/// Rust: a client its function hands back (`fn node_conn(..) -> Channel`), where every
/// call of that function the project makes takes it into a local and bounds it there:
/// each request on it sets a per-request `.timeout(..)`, or it goes only to a timeout
/// helper (`time_out_client(channel, d)`), as [`crate::facts::FileFacts::bounded_takes`] says.
fn taken_bounded(project: &Project, file: usize, c: &Client) -> bool {
    // (Made from a local that stays here, it may still be what the function returns:
    // `let ep = Endpoint::from_shared(u)?; let ch = ep.connect().await?; Ok(ch)`.)
    let returns = project.facts[file].returns_of(c.ctx).is_some();
    if !returns || !c.requests.is_empty() {
        return false;
    }
    let callers = project.model.calls.callers.get(&(file, c.ctx));
    let mut callers = callers.into_iter().flatten().peekable();
    callers.peek().is_some()
        && callers.all(|e| project.facts[e.node.0].bounded_takes.contains(&e.span))
}

/// Rust: a client handed whole to a function of the project that keeps it in a field
/// (`PeerClient::new(http, uri)`), in a file that gives every request it starts on a
/// field a per-request `.timeout(..)`: bounded there, as a client made in that file is.
fn kept_timed(project: &Project, file: usize, c: &Client) -> bool {
    c.handed_to
        .is_some_and(|(call, param)| keepers_timed(project, (file, c.ctx), call, param))
}

/// Rust: a client made in a static's initializer whose every request the crate
/// starts on that static (by name, in any of its files) sets a per-request
/// `.timeout(..)` (`CLIENT.get(url).timeout(d)`): bounded there.
fn bounded_on_static(project: &Project, file: usize, c: &Client) -> bool {
    let Some(name) = &c.static_item else {
        return false;
    };
    let krate = project.facts[file].module.first();
    let mut requests = project
        .each()
        .filter(|(_, _, f)| f.module.first() == krate)
        .flat_map(|(_, _, f)| &f.static_requests)
        .filter(|(n, _)| n == name)
        .peekable();
    requests.peek().is_some() && requests.all(|(_, timed)| *timed)
}

/// Rust: hot code that runs inside a route handler's future, in a crate whose server
/// cancels that future after a timeout (`TimeoutLayer`): its requests are bounded
/// there. A task the handler spawns outlives it, and is a root of its own.
fn bounded_by_server(project: &Project, timed: &HashSet<&str>, file: usize, c: &Client) -> bool {
    let ctx = c.ctx;
    if timed.is_empty() || project.heat(file, ctx) != Heat::Hot {
        return false;
    }
    // A task or thread the handler starts after making the client may take it along
    // and outlive the request's deadline.
    let f = &project.facts[file];
    let mut top = ctx;
    while let Some(p) = f.contexts.get(top).and_then(|k| k.parent) {
        top = p;
    }
    let spawned_later = f.contexts.iter().any(|k| {
        let task = !matches!(k.kind, CtxKind::Inline | CtxKind::Function)
            && (k.entry.is_some() || k.submission.is_some() || k.name == "task");
        task && k.head.start > c.span.start && f.inside(k.parent, top)
    });
    if spawned_later {
        return false;
    }
    let root = project.model.heats.path((file, ctx))[0].node;
    let handler = project
        .model
        .heats
        .root_why(root)
        .is_some_and(|w| w.ends_with("route handler"));
    handler
        && project.facts[root.0]
            .module
            .first()
            .is_some_and(|k| timed.contains(&**k))
}

/// Rust: a builder handed to a project function that builds it is a client when that
/// call resolves to such a function (a [`crate::facts::Finisher`]) and the function
/// adds none of the settings that would bound it; then, where it is built.
fn built_by<'p>(
    project: &'p Project,
    file: usize,
    c: &Client,
    by: &crate::facts::BuiltBy,
) -> Option<(usize, &'p crate::facts::Finisher)> {
    let callee = project
        .model
        .calls
        .callees
        .at(&(file, c.ctx), by.call)
        .next()?
        .node;
    let f = project.facts[callee.0]
        .finishers
        .iter()
        .find(|f| f.ctx == callee.1 && f.param == by.arg)?;
    let bounded = f.sets.iter().any(|s| by.bounds.contains(s));
    (!bounded).then_some((callee.0, f))
}

/// For each client of a file, the first one that is the same client: made by the same
/// call (the same message) and stored where the same requests use it (`this.stub =
/// ..newBlockingStub(channel)` in each of a class's constructors): one finding, not
/// one per constructor. A client whose requests are not known is its own first. One
/// made outside an `impl Default` comes first: a library's default is the one its
/// users replace.
fn repeated_creations(clients: &[Client]) -> Vec<usize> {
    let mut first: rustc_hash::FxHashMap<(&str, &[Span]), usize> = Default::default();
    let mut out: Vec<usize> = (0..clients.len()).collect();
    let (own, defaults): (Vec<_>, Vec<_>) =
        clients.iter().enumerate().partition(|(_, c)| !c.in_default);
    for (i, c) in own.into_iter().chain(defaults) {
        if !c.requests.is_empty() {
            out[i] = *first
                .entry((c.message.as_str(), &c.requests[..]))
                .or_insert(i);
        }
    }
    out
}

/// A client made beside a project interceptor that sets what it lacks on every call
/// (`new GrpcDeadlineInterceptor(timeout)` handed to the channel a stub is built on).
fn made_with_interceptor(project: &Project, c: &crate::facts::Client) -> bool {
    let types = &project.model.types;
    c.made_with.iter().any(|r| {
        types
            .resolve(r)
            .is_some_and(|t| !types.decl(project.facts, t).interceptor_sets.is_empty())
    })
}

fn check(project: &Project, _: &Settings) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    // Crates that give their routes a server-wide request timeout.
    let timed: HashSet<&str> = project
        .each()
        .filter(|(_, _, f)| f.request_timeout)
        .filter_map(|(_, _, f)| f.module.first().map(|k| &**k))
        .collect();
    // By file, function and message: the finding and the context it was made in.
    let mut in_fn: std::collections::HashMap<(FileId, MadeIn, &str), (usize, CtxId)> =
        Default::default();
    let builds = builder_uses(project);
    for (file, _, facts) in project.each() {
        let repeats = repeated_creations(&facts.clients);
        for (i, c) in facts.clients.iter().enumerate() {
            if repeats[i] != i {
                continue;
            }
            let finisher = match &c.built_by {
                Some(by) => match built_by(project, file, c, by) {
                    Some(f) => Some(f),
                    None => continue,
                },
                None => None,
            };
            // A builder its function returns: a client where a caller builds it with
            // none of the settings that bound it.
            let lacking: Vec<(FileId, &BuilderUse)> = match &c.unbuilt {
                Some(bounds) => {
                    let uses = builds.get(&(file, c.ctx)).map_or(&[][..], Vec::as_slice);
                    let lacking: Vec<_> = uses
                        .iter()
                        .filter(|(_, u)| !u.sets.iter().any(|s| bounds.contains(s)))
                        .filter(|&&(f, u)| !bounded_by_callers(project, (f, u.ctx), 0))
                        .copied()
                        .collect();
                    if lacking.is_empty() {
                        continue;
                    }
                    lacking
                }
                None => Vec::new(),
            };
            // A stored client whose every request is made in a function all of whose
            // callers bound it (`timeout(d, consul.services())` around each use).
            let requests_bounded = || {
                !c.requests.is_empty()
                    && span_contexts(project, file, &c.requests)
                        .iter()
                        .all(|&(_, ctx, _)| bounded_by_callers(project, (file, ctx), 0))
            };
            if bounded_by_callers(project, (file, c.ctx), 0)
                || bounded_by_server(project, &timed, file, c)
                || requests_bounded()
                || bounded_by_takers(project, c)
                || bounded_on_static(project, file, c)
                || kept_timed(project, file, c)
                || taken_bounded(project, file, c)
                || made_with_interceptor(project, c)
                || bean_bounded_per_call(project, file, c)
            {
                continue;
            }
            let mut d =
                Diagnostic::new(RULE.id, file, c.span, c.message.clone()).help(c.help.clone());
            if let Some((f, fin)) = finisher {
                d = d.label(f, fin.span, "built here, with no timeout added".to_string());
            }
            for &(f, u) in &lacking {
                d = d.label(
                    f,
                    u.call,
                    "its builder is built here, with no timeout added",
                );
            }
            for (j, other) in facts.clients.iter().enumerate() {
                if j != i && repeats[j] == i {
                    d = d.label(
                        file,
                        other.span,
                        "the same client, made again for the same field",
                    );
                }
            }
            // Shown only where the project's own hot code reaches it (a note with
            // `--pedantic` in code it cannot place):
            // - a connect the operating system ends (minutes, not forever), which
            //   matters where a thread that serves traffic waits for it (audit round
            //   70: none of six acted on);
            // - a library's `impl Default` client, for its users to replace with a
            //   configured one (`Proxy::new(upstreams, ReqwestClient::new(client))`;
            //   audit rounds 66 and 72: none of three acted on), or a Java class's
            //   constructor beside one that takes the client, when nothing in the
            //   project calls it (one the project's own code uses is its client:
            //   gobblin's event hub writer, acted on in audit round 85).
            let called = || project.model.calls.called((file, c.ctx));
            if c.os_bounded || (c.in_default && !facts.binary) || (c.default_ctor && !called()) {
                d.worth = crate::diagnostic::Worth::HotOnly;
            }
            // The request's context sets the level, not the creation's: a client built
            // in `main` or a startup hook serves the requests and jobs that come later,
            // so creation in cold code says nothing. One made in hot code is hot; one
            // that never leaves the cold function that makes it (a CLI subcommand's
            // download) sends its requests there, so it is cold. So is one made in a
            // spawned task that loops for good (a reporter): it lives in that task.
            let in_loop_task = facts
                .contexts
                .get(c.ctx)
                .is_some_and(|x| x.kind == CtxKind::Async && x.dedicated_loop);
            match project.heat(file, c.ctx) {
                // A builder its callers build: where they do (the first hot one, else
                // the first).
                _ if !lacking.is_empty() => {
                    let hot =
                        |(f, u): &&(FileId, &BuilderUse)| project.heat(*f, u.ctx) == Heat::Hot;
                    let &(f, u) = lacking.iter().find(hot).unwrap_or(&lacking[0]);
                    d = d.at(f, u.ctx);
                }
                // A handshake in a server's accept loop stalls the whole server.
                _ if c.serves => d = d.at(file, c.ctx).in_any_context(),
                Heat::Hot => d = d.at(file, c.ctx),
                // Made in a test hook only tests call: a test's client, wherever the
                // requests on what it was stored in run.
                Heat::Cold if project.model.heats.test_hook((file, c.ctx)) => d = d.at(file, c.ctx),
                // Dead or deprecated code (a utility's method nothing calls): judged
                // where it is.
                Heat::Unknown if project.retired(file, c.ctx) => d = d.at(file, c.ctx),
                Heat::Cold if (c.local && !project.looped(file, c.ctx)) || in_loop_task => {
                    d = d.at(file, c.ctx)
                }
                // Rust: a connect the operating system ends, in code that only a thread
                // the project dedicates to a loop reaches (a bridge's reconnect loop on
                // its own thread and runtime): retrying is that thread's job.
                Heat::Cold
                    if c.os_bounded
                        && project.looped(file, c.ctx)
                        && span_contexts(project, file, &c.requests)
                            .iter()
                            .all(|(_, _, h)| *h == Heat::Cold) =>
                {
                    d = d.at(file, c.ctx)
                }
                _ => {
                    // Stored in a field: a request made from hot code is hot; when
                    // every request is made in cold code (a shutdown hook), it is cold.
                    let requests = span_contexts(project, file, &c.requests);
                    let hot = requests.iter().find(|(_, _, h)| *h == Heat::Hot);
                    let bean = c.bean.and_then(|i| facts.client_beans.get(i as usize));
                    if let Some(bean) = bean.filter(|_| requests.is_empty()) {
                        // A bean: its requests are made where it is injected.
                        let injected = bean_requests(project, bean);
                        let cold = injected.iter().all(|r| r.3 == Heat::Cold);
                        if let Some(&(f, span, ctx, _)) = injected.iter().find(|r| r.3 == Heat::Hot)
                        {
                            let name = bean.names.first().map_or("", |n| &**n);
                            let what = format!("a request through the `{name}` bean, in hot code");
                            d = d.at(f, ctx).label(f, span, what);
                        } else if let Some(&(f, _, ctx, _)) = injected.first().filter(|_| cold) {
                            d = d.at(f, ctx);
                        }
                    } else if let Some((span, ctx, _)) = hot {
                        d = d.at(file, *ctx).label(
                            file,
                            *span,
                            "a request through this client, in hot code",
                        );
                    } else if let Some((span, ctx, _)) = requests.first() {
                        // Rust: a library's method whose only caller in the project is a
                        // maintenance binary may serve the crates that depend on it; its
                        // requests say only where the client is hot.
                        // A program's own crate has no such dependents.
                        let java = project.files[file].language == crate::source::Language::Java;
                        let closed = java || facts.program_only;
                        if closed && requests.iter().all(|(_, _, h)| *h == Heat::Cold) {
                            d = d.at(file, *ctx);
                        } else {
                            // Where it is used (revision 2: label the request with no bound).
                            d = d.label(file, *span, "this client is used here");
                        }
                    }
                }
            }
            // One function making a client the same way twice (a TLS and a plain-text
            // branch, a retry loop and a last try): one fix, one finding. (Not a
            // class's field initializers.)
            let in_function = facts
                .contexts
                .get(c.ctx)
                .is_some_and(|x| &*x.name != "<init>");
            if c.requests.is_empty() && in_function {
                let made_in = MadeIn::of(project, file, c.ctx);
                match in_fn.entry((file, made_in, c.message.as_str())) {
                    std::collections::hash_map::Entry::Occupied(e) => {
                        // The first in the source is the finding; the other, a label.
                        let (kept, first_ctx) = *e.get();
                        let kept = &mut out[kept];
                        let mut at = c.span;
                        if at.start < kept.span.start {
                            std::mem::swap(&mut kept.span, &mut at);
                        }
                        let what = match made_in {
                            MadeIn::Named("", name) if first_ctx != c.ctx => {
                                format!("made the same way in another `#[cfg]` variant of `{name}`")
                            }
                            MadeIn::Named(owner, name) if first_ctx != c.ctx => {
                                let short = owner.rsplit("::").next().unwrap_or(owner);
                                format!("made the same way in another `#[cfg]` variant of `{short}::{name}`")
                            }
                            _ => "made the same way again in this function".to_string(),
                        };
                        kept.add_label(file, at, what);
                        continue;
                    }
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert((out.len(), c.ctx));
                    }
                }
            }
            out.push(d);
        }
    }
    out.extend(helper_handshakes(project));
    out
}

/// Rust: the builders functions return unbuilt, by the function (its node): the calls
/// in other files that build them.
fn builder_uses<'p>(
    project: &'p Project,
) -> std::collections::HashMap<crate::model::Node, Vec<(FileId, &'p BuilderUse)>> {
    let mut out: std::collections::HashMap<_, Vec<_>> = Default::default();
    for (file, _, f) in project.each() {
        for u in &f.builder_uses {
            for e in project.model.calls.callees.at(&(file, u.ctx), u.call) {
                out.entry(e.node).or_default().push((file, u));
            }
        }
    }
    out
}

const HELPER_HELP: &str =
    "time the call out (`tokio::time::timeout(Duration::from_secs(10), ..)`), \
     or run it in the task spawned for the connection";

/// `self.tls_accept(stream).await` in an accept loop, where `tls_accept` (or a function
/// it awaits, to any depth, none under a timeout) awaits a catalogued handshake with no
/// timeout: the loop waits for that peer's handshake.
fn helper_handshakes(project: &Project) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let seeds: Vec<crate::model::Node> = project
        .each()
        .flat_map(|(file, _, f)| f.handshake_fns.iter().map(move |&c| (file, c)))
        .collect();
    if seeds.is_empty() {
        return out;
    }
    // Every function that reaches a handshake through untimed calls, with the
    // handshake's function for the label.
    let mut reach: rustc_hash::FxHashMap<crate::model::Node, crate::model::Node> =
        seeds.iter().map(|&n| (n, n)).collect();
    let mut stack = seeds;
    while let Some(n) = stack.pop() {
        let origin = reach[&n];
        for e in project.model.calls.callers.get(&n).into_iter().flatten() {
            if !e.timed && !reach.contains_key(&e.node) {
                reach.insert(e.node, origin);
                stack.push(e.node);
            }
        }
    }
    for (file, _, facts) in project.each() {
        for (ctx, at, what) in &facts.accept_loop_calls {
            let (ctx, at) = (*ctx, *at);
            let edges = project.model.calls.callees.get(&(file, ctx));
            let hit = edges
                .into_iter()
                .flatten()
                .filter(|e| !e.timed && e.span.start >= at.start && e.span.end <= at.end)
                .find_map(|e| reach.get(&e.node).map(|o| (e, *o)));
            let Some((edge, (hf, hc))) = hit else {
                continue;
            };
            let callee = &project.facts[edge.node.0].contexts[edge.node.1];
            let shake = &project.facts[hf].contexts[hc];
            let d = Diagnostic::new(
                RULE.id,
                file,
                at,
                format!(
                    "{what} runs a connection's handshake in the accept loop without a \
                     timeout (through `{}`): a peer that never finishes it stops the server \
                     from accepting anyone else",
                    callee.name
                ),
            )
            .help(HELPER_HELP)
            .at(file, ctx)
            .in_any_context()
            .label(
                hf,
                shake.head,
                format!("`{}` awaits the handshake with no timeout", shake.name),
            );
            out.push(d);
        }
    }
    out
}
