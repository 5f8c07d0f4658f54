//! `unbounded_queue`: a queue, channel or executor with no bound (or a bound too
//! large to matter) turns overload into unbounded latency and memory.

use std::collections::HashMap;

use super::{Level, Rule, Settings};
use crate::diagnostic::Diagnostic;
use crate::facts::{Bound, CtxId, Heat};
use crate::link::{Project, Sub};
use crate::source::{FileId, Span};

pub const RULE: Rule = Rule {
    id: "unbounded_queue",
    default_level: Level::Warning,
    languages: "java, rust",
    summary: "queue, channel or executor whose backlog can grow without bound",
    doc: include_str!("../../rules/unbounded_queue.md"),
    // Measured: 13-17 % of findings acted on in audit rounds 19-23.
    precision: "low",
    check,
};

/// Revision 2: an executor's queue is reported when hot code fills it, or when its
/// producers cannot all be seen; it is left alone when every producer is cold and
/// the number of items is fixed (periodic tasks scheduled at startup, the one
/// long-lived task of a single-thread executor).
enum Producers<'s> {
    /// Some producer runs hot: the first one, for a label.
    Hot(&'s Sub),
    Fixed,
    Unknown,
}

/// A scheduler's queue (`timers`) holds timers whose number is set by what schedules
/// them, and no API bounds it: only immediate work (`execute`, `submit`) from hot code
/// makes it a backlog.
fn producers<'s>(
    project: &Project,
    key: &str,
    subs: &HashMap<String, Vec<&'s Sub>>,
    single: bool,
    timers: bool,
    fixed: bool,
    threads: bool,
) -> Producers<'s> {
    // A bean with no producer the project can see is filled by code it cannot see.
    let unknown = if timers {
        Producers::Fixed
    } else {
        Producers::Unknown
    };
    let Some(list) = subs.get(project.canonical(key)) else {
        return unknown;
    };
    // A wrapper (`lock.acquireLock(..)` that does `scheduler.schedule(expiry, lease)`)
    // schedules what its own submission does.
    let delayed = |s: &Sub| {
        called(&s.what).starts_with("schedule")
            || s.via_wrapper.is_some_and(|(f, at)| {
                project.facts[f]
                    .submissions
                    .iter()
                    .any(|x| x.span == at && called(&x.what).starts_with("schedule"))
            })
    };
    // `if (busy.compareAndSet(false, true)) pool.execute(..)`: one pending at a time.
    let guarded = |s: &Sub| s.guarded;
    // A child its own tasks submit (a fan-out inside a task of this pool) comes at
    // the rate the pool runs tasks, not per request: `nested_pool_submission`'s.
    let own_child = |s: &Sub| {
        let execs = project.executions(s.file, s.ctx);
        super::nested_in(project, s, &execs).is_some()
    };
    // Hot code reached only from pool tasks or schedules fills at their pace, not
    // per request: it is no backlog that grows with load.
    let per_request = |s: &Sub| project.per_request(s.file, s.ctx);
    let paced = |s: &Sub| project.heat(s.file, s.ctx) == Heat::Hot && !per_request(s);
    // One task per request whose handle is dropped: nothing waits behind it.
    // Reviewers acted on none of 15 such fills (mail, SMS, exports, notifiers; audit
    // rounds 97-100): the fix they wanted was the task's own timeout.
    // (Not for a pool that starts a thread per waiting task: each one still holds a
    // thread.)
    let dropped = |s: &Sub| !threads && s.detached && per_request(s) && request_entry(project, s);
    if let Some(hot) = list.iter().find(|s| {
        let paced_or_bounded = timers && delayed(s)
            || guarded(s)
            || resubmits_itself(project, s, key)
            || own_child(s)
            || self_limiting(project, s)
            // A loop per request on a fixed number of threads: past the threads, the
            // loops wait in the queue for good (a WebSocket endpoint's pollers).
            || (dedicated_task(project, s) && !fixed);
        per_request(s) && !paced_or_bounded && !dropped(s)
    }) {
        return Producers::Hot(hot);
    }
    // Timers only: their number is set by what schedules them. Immediate work
    // (`scheduledPool.submit(..)` in a public method) is judged as any pool's.
    if timers && list.iter().all(|s| delayed(s)) {
        return Producers::Fixed;
    }
    let periodic = |s: &Sub| {
        matches!(
            called(&s.what),
            "scheduleAtFixedRate" | "scheduleWithFixedDelay"
        )
    };
    // A single-thread executor with one place that feeds it besides cold code (its
    // shutdown hook, a startup task): that place's one job, not a backlog.
    let cold = |s: &Sub| project.heat(s.file, s.ctx) == Heat::Cold;
    let one_feeder = single
        && list
            .iter()
            .filter(|s| !cold(s) && !guarded(s) && !own_constructor(project, s))
            .count()
            <= 1;
    let fixed = list.iter().all(|s| {
        (timers && delayed(s))
            || cold(s)
            || paced(s)
            || periodic(s)
            || guarded(s)
            || own_constructor(project, s)
            || one_feeder
            || long_lived(project, s)
            || dedicated_task(project, s)
            || resubmits_itself(project, s, key)
            || self_limiting(project, s)
            || dropped(s)
    });
    if fixed {
        Producers::Fixed
    } else {
        Producers::Unknown
    }
}

/// Whether the entry point a hot submission's path starts from serves requests a
/// client waits on (a Spring MVC handler, a JFinal action), not a message or event
/// feed (a Kafka listener, a logging appender, an event loop): a request's dropped
/// side task leaves nothing waiting, but a feed that hands each message off this way
/// has given up its backpressure.
fn request_entry(project: &Project, s: &Sub) -> bool {
    let heats = &project.model.heats;
    let root = heats.path((s.file, s.ctx))[0].node;
    let c = &project.facts[root.0].contexts[root.1];
    match &c.entry {
        Some(e) => e.heat == Heat::Hot && !e.paced && !e.per_event,
        // A method whose entry is inherited or mapped (a JFinal action, a route the
        // code registers), not a task or an event loop's handler.
        None => {
            c.kind == crate::facts::CtxKind::Function
                && heats.root_why(root).is_some()
                && !heats.event_root(root)
        }
    }
}

/// The method a submission's text calls (`schedule` in `scheduledPool.schedule(..)`),
/// not its receiver's name (`scheduledPool.execute(..)` is immediate work).
fn called(what: &str) -> &str {
    let head = what.split('(').next().unwrap_or(what);
    head.rsplit(['.', ':']).next().unwrap_or(head)
}

/// A producer that waits, with no time bound, for what it submitted (`invokeAll`,
/// `pool.submit(..).get()`, `install`): it adds no item while its last one is queued,
/// so the backlog is at most one item per caller thread. The wait itself is
/// `unbounded_join`'s finding. (A timed wait leaves its item queued when it gives up,
/// unless it cancels it: `f.get(30, SECONDS)`, then `f.cancel(true)`.)
fn self_limiting(project: &Project, s: &Sub) -> bool {
    let holds_item = |at: Span| {
        let waits = &project.facts[s.file].waits;
        waits
            .iter()
            .any(|w| w.span == at && (!w.timed || w.cancels))
    };
    s.install
        || match s.wrapper_wait_timed {
            Some(timed) => !timed,
            None => s.waited.is_some_and(holds_item),
        }
        || returned_and_waited(project, s)
}

/// A submission whose future its method returns (`return pool.submit(..)`, `return
/// allOf(futures)` over what it submitted), where every caller of the method waits on
/// the call's result with no time bound (`runAll(actions).get()`): it waits as a
/// submitter that calls `get()` itself does.
fn returned_and_waited(project: &Project, s: &Sub) -> bool {
    let f = &project.facts[s.file];
    if !s.index.is_some_and(|i| f.submissions[i].returned) {
        return false;
    }
    let callers = project.model.calls.callers.get(&(s.file, s.ctx));
    let mut callers = callers.into_iter().flatten().peekable();
    callers.peek().is_some()
        && callers.all(|e| {
            let cf = &project.facts[e.node.0];
            let untimed = |at: Span| cf.waits.iter().any(|w| w.span == at && !w.timed);
            let call = cf
                .calls
                .iter()
                .enumerate()
                .find(|(_, c)| c.span == e.span && c.ctx == e.node.1);
            call.is_some_and(|(ci, c)| match c.waited() {
                Some(_) => !c.waited_timed(),
                None => cf
                    .call_waits
                    .iter()
                    .find(|(x, _)| *x == ci)
                    .is_some_and(|&(_, at)| untimed(at)),
            })
        })
}

/// A task of this pool that submits its own successor to it (`pool.execute(this)`
/// at the end of a polling task): the chain holds one item at a time, so it is no
/// per-request producer, whatever made the first task hot.
fn resubmits_itself(project: &Project, s: &Sub, key: &str) -> bool {
    let f = &project.facts[s.file];
    let mut ctx = Some(s.ctx);
    while let Some(c) = ctx.and_then(|c| f.contexts.get(c)) {
        if let crate::facts::CtxKind::PoolTask(k) = &c.kind {
            if project.canonical(k) == project.canonical(key) {
                return true;
            }
        }
        ctx = c.parent;
    }
    // A task class's `run()` (submitted as `pool.execute(task)`) that submits again.
    let tasks = project.model.calls.tasks.get(&(s.file, s.ctx));
    tasks.into_iter().flatten().any(|&(tf, ti)| {
        let pool = &project.facts[tf].submissions[ti].pool;
        project.canonical(pool) == project.canonical(key)
    })
}

/// A constructor's submission to a pool the same object creates (a field of its
/// class): one item per pool, however often the class is instantiated.
fn own_constructor(project: &Project, s: &Sub) -> bool {
    let Some(c) = project.facts[s.file].contexts.get(s.ctx) else {
        return false;
    };
    let Some(owner) = c.owner.as_deref() else {
        return false;
    };
    c.name == "<init>"
        && s.pool
            .strip_prefix("field:")
            .and_then(|rest| rest.strip_prefix(owner))
            .is_some_and(|field| field.starts_with('.') && !field[1..].contains('.'))
}

/// A task that runs an open-ended loop (`while (running) { .. }`) is a long-lived
/// worker the pool hosts, not an item of work waiting in its queue.
fn long_lived(project: &Project, s: &Sub) -> bool {
    task_runs(project, s, |c| c.worker_loop)
}

/// A task that loops until stopped (`while (!stopped) { .. }`): it holds a pool
/// thread for good, one per consumer it starts, so its submissions are no backlog of
/// work, even from request code.
fn dedicated_task(project: &Project, s: &Sub) -> bool {
    task_runs(project, s, |c| c.dedicated_loop)
}

/// Whether the submitted task, or a function it calls, is a context `loops` accepts:
/// its lambda, a function the lambda calls (`() -> consumer.start(running)`), a task
/// object's `run()` (the edge the submission adds to it), or the method it names
/// (`pool.submit(this::pollLoop)`).
fn task_runs(project: &Project, s: &Sub, loops: fn(&crate::facts::Context) -> bool) -> bool {
    let Some(i) = s.index else {
        return false;
    };
    let f = &project.facts[s.file];
    let sub = &f.submissions[i];
    let graph = &project.model.calls;
    let at = |n: &crate::model::Node| &project.facts[n.0].contexts[n.1];
    if let Some(t) = sub.task {
        let calls_loop = || {
            let callees = graph.callees.get(&(s.file, t));
            callees.into_iter().flatten().any(|e| loops(at(&e.node)))
        };
        if f.contexts.get(t).is_some_and(loops) || calls_loop() {
            return true;
        }
    }
    let object = graph
        .callees
        .at(&(s.file, s.ctx), sub.span)
        .any(|e| graph.tasks.contains_key(&e.node) && loops(at(&e.node)));
    if object {
        return true;
    }
    let Some(method) = &sub.task_method else {
        return false;
    };
    // A submission outside every context (a field initialiser of a file whose class
    // did not parse) has no owner to look the method up in.
    let Some(owner) = f.contexts.get(s.ctx).map(|c| &c.owner) else {
        return false;
    };
    let named = |c: &crate::facts::Context| c.name.rsplit('.').next() == Some(&**method);
    f.contexts
        .iter()
        .any(|c| loops(c) && named(c) && c.owner == *owner)
}

/// Who fills a queue, as far as the project can tell.
enum Filled {
    /// Hot code: the context to judge, and the put or submission to label.
    Hot {
        site: (FileId, CtxId),
        put: Option<(FileId, Span)>,
    },
    /// Producers the project cannot see (a bean, an escaping executor): reported.
    Unknown,
    /// Cold, fixed or not visible for a plain queue: a note with `--pedantic` (none
    /// for a scheduler's queue, which cannot be bounded).
    Quiet,
    /// A scheduler whose pool was not recorded: nothing fills it here.
    Nothing,
}

/// A queue made straight into another object's method call (`graph.build(roots,
/// new LinkedBlockingDeque<>())`) that every method the call reaches keeps on its own
/// thread: a work list, no queue between threads.
fn work_list(project: &Project, file: FileId, q: &crate::facts::Queue) -> bool {
    let (Some((at, index)), Some(ctx)) = (q.handed_to, q.ctx) else {
        return false;
    };
    let Some(bit) = 1u16.checked_shl(u32::from(index)) else {
        return false;
    };
    let mut targets = project.model.calls.callees.at(&(file, ctx), at).peekable();
    targets.peek().is_some()
        && targets.all(|e| project.facts[e.node.0].contexts[e.node.1].local_params & bit != 0)
}

type Sends<'s> = HashMap<&'s str, Vec<(FileId, &'s crate::facts::QueueSend)>>;

/// Rust: the fields project functions keep the channel's sender in, when it is handed
/// to them whole (`Store::new(tx)` with `Self { sender }`): sends on those fields fill it.
fn kept_keys<'p>(project: &'p Project, file: FileId, q: &crate::facts::Queue) -> Vec<&'p str> {
    let Some(ctx) = q.ctx else {
        return Vec::new();
    };
    q.kept_by
        .iter()
        .flat_map(|&(call, param)| project.keepers_at((file, ctx), call, param))
        .flatten()
        .filter_map(|k| k.sender.as_deref())
        .collect()
}

fn filled(
    project: &Project,
    file: FileId,
    q: &crate::facts::Queue,
    pool: Option<&crate::facts::Pool>,
    subs: &HashMap<String, Vec<&Sub>>,
    sends: &Sends,
) -> Filled {
    let Some(pool) = pool else {
        // A scheduler whose pool was not recorded: nothing fills it here. A plain
        // queue of timers (`DelayQueue`) holds deadlines, no backlog of work.
        if q.timers {
            return if q.executor {
                Filled::Nothing
            } else {
                Filled::Quiet
            };
        }
        if q.executor {
            return Filled::Unknown;
        }
        // A queue or channel that is no executor's: filled per request when hot code
        // puts into it (through the variable or field that holds it) or creates it;
        // otherwise which code fills it is not guessed.
        // A send on a field of a struct the sender's file could not name (`?`) fills
        // a queue held in a field of that name in the same crate only.
        let unnamed: Vec<String> = q
            .keys
            .iter()
            .filter_map(|k| k.strip_prefix("field:")?.rsplit_once('.'))
            .map(|(_, f)| format!("field:?.{f}"))
            .collect();
        let crate_of = |f: FileId| project.facts[f].module.first();
        let item = q.item.as_deref().map(crate::facts::item_key);
        let kept = kept_keys(project, file, q);
        let puts: Vec<&(FileId, &crate::facts::QueueSend)> = q
            .keys
            .iter()
            .chain(&item)
            .map(String::as_str)
            .chain(kept)
            .filter_map(|k| sends.get(k))
            .flatten()
            .filter(|(f, s)| !s.key.starts_with("local:") || *f == file)
            .chain(
                unnamed
                    .iter()
                    .filter_map(|k| sends.get(k.as_str()))
                    .flatten()
                    .filter(|(f, _)| crate_of(*f) == crate_of(file)),
            )
            .collect();
        // Every put is admitted one by one (Rust: it carries its caller's reply sender,
        // a request/reply command channel; Java: past an admission check): the queue
        // holds at most one item per caller, wherever it is made.
        if !puts.is_empty() && puts.iter().all(|(_, s)| s.guarded) {
            return Filled::Quiet;
        }
        // Puts only outside the code that makes it (not in a task or thread that code
        // starts, which runs once per making).
        let here = &project.facts[file];
        let put_elsewhere = !puts.is_empty()
            && puts.iter().all(|(f, s)| {
                *f != file || q.ctx.is_none_or(|made| !here.inside(Some(s.ctx), made))
            });
        let hot_put = puts
            .into_iter()
            .filter(|(_, s)| !s.guarded)
            .find(|(f, s)| project.per_request(*f, s.ctx));
        if let Some((f, s)) = hot_put {
            return Filled::Hot {
                site: (*f, s.ctx),
                put: Some((*f, s.span)),
            };
        }
        // Where it is made says how it is filled when nothing puts into it here (it is
        // returned, or handed on), or when the code that makes it puts into it too (a
        // thread it starts per request): made once, on first use, it may still be
        // filled per request. Put into only elsewhere, its puts say it: a command
        // channel opened per request but fed by a controller's loop is not filled by
        // requests.
        let made_hot = |c: CtxId| !put_elsewhere && project.model.heats.per_request((file, c));
        return match q.ctx.filter(|&c| made_hot(c)) {
            Some(c) => Filled::Hot {
                site: (file, c),
                put: None,
            },
            None => Filled::Quiet,
        };
    };
    // A pool a method makes for its own tasks (and shuts down, or gives only a few):
    // it holds only them.
    if pool.scoped || pool.per_call {
        return Filled::Quiet;
    }
    let single = q.what.contains("Single");
    // (A shared pool, a field's or a static's: not one a method makes for its loops.)
    let shared = q.ctx.is_none_or(|c| {
        project.facts[file]
            .contexts
            .get(c)
            .is_some_and(|x| &*x.name == "<init>")
    });
    let fixed = (single || q.what.contains("FixedThreadPool")) && shared;
    let threads = q.bound == Bound::UnboundedThreads;
    match producers(project, &pool.key, subs, single, q.timers, fixed, threads) {
        Producers::Fixed => Filled::Quiet,
        Producers::Hot(s) => Filled::Hot {
            site: (s.file, s.ctx),
            put: Some((s.file, s.span)),
        },
        Producers::Unknown => Filled::Unknown,
    }
}

/// A pool a factory method (`factory`) makes and returns: the fields and locals its
/// calls are kept in are filled by their own producers (`work = Pools.create(4)` in a
/// controller). `None` when they do not decide it.
fn factory_filled(
    project: &Project,
    factory: (FileId, CtxId),
    q: &crate::facts::Queue,
    subs: &HashMap<String, Vec<&Sub>>,
) -> Option<Filled> {
    let users = project.factory_users(factory.0, factory.1);
    if users.is_empty() {
        return None;
    }
    let single = q.what.contains("Single");
    let threads = q.bound == Bound::UnboundedThreads;
    let found: Vec<_> = users
        .iter()
        .map(|key| producers(project, key, subs, single, q.timers, false, threads))
        .collect();
    if let Some(Producers::Hot(s)) = found.iter().find(|p| matches!(p, Producers::Hot(_))) {
        return Some(Filled::Hot {
            site: (s.file, s.ctx),
            put: Some((s.file, s.span)),
        });
    }
    // Every call of the factory keeps its pool where the project follows it (one user
    // per call): when none is filled per request, it holds a fixed set.
    let calls = project
        .model
        .calls
        .callers
        .get(&factory)
        .map_or(0, <[_]>::len);
    let fixed = found.iter().all(|p| matches!(p, Producers::Fixed));
    (users.len() == calls && fixed).then_some(Filled::Quiet)
}

fn check(project: &Project, settings: &Settings) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut subs: HashMap<String, Vec<&Sub>> = HashMap::new();
    for s in project.submissions() {
        subs.entry(project.canonical(&s.pool).to_string())
            .or_default()
            .push(s);
    }
    // Items put into queues and sent on channels, by the key the queue is known by.
    let mut sends: Sends = HashMap::new();
    // Sends by item type fill the one channel of the project that carries it.
    let mut items: HashMap<&str, usize> = HashMap::new();
    for (_, _, facts) in project.each() {
        for i in facts.queues.iter().filter_map(|q| q.item.as_deref()) {
            *items.entry(i).or_default() += 1;
        }
    }
    for (file, _, facts) in project.each() {
        for s in &facts.queue_sends {
            if let Some(item) = s.key.strip_prefix("item:") {
                if items.get(item) != Some(&1) {
                    continue;
                }
            }
            sends.entry(s.key.as_str()).or_default().push((file, s));
        }
    }
    for (file, _, facts) in project.each() {
        // Executors created by a factory: the pool and its queue start at one place.
        // An `@Bean` method's pool is also its local variable's: the bean is what
        // others inject and fill; so is a field's that a local was assigned to
        // (`tp = new ThreadPoolExecutor(..); pool = tp;`).
        let rank = |p: &crate::facts::Pool| {
            let k = &p.key;
            u8::from(!k.starts_with("bean:")) + u8::from(k.starts_with("local:"))
        };
        let mut pools: HashMap<usize, &crate::facts::Pool> = HashMap::new();
        for p in &facts.pools {
            let slot = pools.entry(p.span.start).or_insert(p);
            if rank(p) <= rank(slot) {
                *slot = p;
            }
        }
        for q in &facts.queues {
            let message = match q.bound {
                Bound::Unbounded => format!(
                    "{} {}; under overload, work waits in it instead of being rejected",
                    q.what, q.why
                ),
                Bound::UnboundedThreads => format!(
                    "{} {}; under overload it starts a thread for every waiting task",
                    q.what, q.why
                ),
                Bound::Capacity(n) if n > settings.max_queue_capacity => format!(
                    "{} has capacity {n}, above `max_queue_capacity` ({}): as good as unbounded",
                    q.what, settings.max_queue_capacity
                ),
                Bound::Capacity(_) | Bound::Unknown => continue,
            };
            let mut d = Diagnostic::new(RULE.id, file, q.span, message).help(q.help.clone());
            if let Some((span, msg)) = &q.related {
                d = d.label(file, *span, msg.clone());
            }
            // The pool this queue belongs to: made by a factory at the same place, or
            // given as the work queue of `new ThreadPoolExecutor(.., queue, ..)`.
            let pool = pools
                .get(&q.span.start)
                .or_else(|| q.argument_of.and_then(|start| pools.get(&start)))
                .copied();
            // `None => unbounded_channel()` beside `Some(n) => channel(n)`: the bound is
            // the user's setting; the code offers both on purpose.
            // A per-call reply channel carries one value and dies with the call.
            // A free list holds the items it was filled with where it was made.
            // A buffer its consumer empties whole on each pass hands work over in
            // batches (a note).
            if q.configured || q.reply || q.free_list || q.batched {
                if settings.pedantic {
                    d.level = Level::Note;
                    out.push(d);
                }
                continue;
            }
            if work_list(project, file, q) {
                continue;
            }
            let mut fill = filled(project, file, q, pool, &subs, &sends);
            if let (Filled::Unknown | Filled::Quiet, Some(c)) = (&fill, q.ctx) {
                fill = factory_filled(project, (file, c), q, &subs).unwrap_or(fill);
            }
            match fill {
                Filled::Hot { site, put } => {
                    if let Some((f, span)) = put {
                        d = d.label(
                            f,
                            span,
                            "filled from code that runs per request or event here",
                        );
                    }
                    d = d.at(site.0, site.1);
                }
                Filled::Unknown => {}
                // A scheduler's queue cannot be bounded: when no hot code fills it
                // there is nothing to change, not even for --pedantic.
                Filled::Quiet if q.timers && q.executor => continue,
                Filled::Quiet if settings.pedantic => d.level = Level::Note,
                Filled::Quiet | Filled::Nothing => continue,
            }
            out.push(d);
        }
    }
    out
}
