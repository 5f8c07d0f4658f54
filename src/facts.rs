//! The language-neutral model that front ends lower each file to and rules read.
//!
//! A front end never decides whether something is a finding; it records what
//! the code does (a queue with this bound, a submission to that pool from this
//! context, a wait with no time bound) and the rules judge.

use serde::{Deserialize, Serialize};

use crate::source::Span;

/// Everything one file contributes to a run.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct FileFacts {
    pub queues: Vec<Queue>,
    pub pools: Vec<Pool>,
    pub contexts: Vec<Context>,
    pub submissions: Vec<Submission>,
    pub waits: Vec<Wait>,
    pub calls: Vec<Call>,
    pub async_methods: Vec<AsyncMethod>,
    pub clients: Vec<Client>,
    pub suppressions: Vec<Suppression>,
    /// Pairs of keys that name the same pool (qualifiers, injection by name, a field
    /// assigned from a parameter: `param:<class>.<method>#<index>`).
    pub pool_aliases: Vec<(PoolKey, PoolKey)>,
    /// Java: methods that return a task body they declare (`return new Runnable() {
    /// .. }`, `return () -> ..`): the method's context and the body's.
    pub returned_tasks: Vec<(CtxId, CtxId)>,
    /// Pools passed to project constructors and methods (`new Worker(ioPool)`).
    pub pool_args: Vec<PoolArg>,
    /// Java calls whose receiver is a field of the caller's class (`field:C.f`) or a
    /// getter's result (`getter:C.getF`), as (call, that key), in ascending order: a
    /// wrapper instance's pool is the one its constructor was given.
    #[serde(default)]
    pub call_holders: Vec<(u32, Box<str>)>,
    /// Java getters that return a field of their class, as (`getter:C.getF`,
    /// `field:pkg.C.f`).
    #[serde(default)]
    pub getter_fields: Vec<(Box<str>, Box<str>)>,
    /// Java: untimed `get()`/`join()` calls on a variable of a project class type, as
    /// (the call, by index in `calls`; the wait's span): a wait once the project model
    /// finds the class is a future (`RpcFuture implements Future`, maybe through a
    /// project superclass in another file).
    #[serde(default)]
    pub member_waits: Vec<(u32, Span)>,
    /// Rust: blocking calls on a field of a project struct declared in another file
    /// (`node.state_changed.wait(guard)`), as (wait, by index in `waits`; struct;
    /// field; the catalog wait entry): a wait (recorded timed, `by_call`) once the
    /// project model finds the field is declared of that entry's type
    /// ([`FileFacts::wait_fields`]).
    #[serde(default)]
    pub field_waits: Vec<(u32, Box<str>, Box<str>, u16)>,
    /// Rust: the file's `pub` struct fields of a type some catalog wait is called on
    /// (`pub state_changed: Condvar`), as (struct, field, the wait entries that apply).
    #[serde(default)]
    pub wait_fields: Vec<(Box<str>, Box<str>, Vec<u16>)>,
    /// Rust: blocking calls on what a project function returns, or on one element of
    /// the tuple it returns (`let (out, rx) = Outgoing::new(id); rx.recv()`), as (wait,
    /// by index in `waits`; the call, by index in `calls`; the tuple element or
    /// `u8::MAX`; the catalog wait entry): a wait (recorded timed, `by_call`) once the
    /// project model finds every target declared to return that entry's type
    /// ([`FileFacts::wait_returns`]).
    #[serde(default)]
    pub result_waits: Vec<(u32, u32, u8, u16)>,
    /// Rust: functions declared to return a type some catalog wait is called on
    /// (`-> (Outgoing, Receiver<Notification>)`), as (context, the tuple element or
    /// `u8::MAX`, the wait entries that apply), by context in ascending order.
    #[serde(default)]
    pub wait_returns: Vec<(u32, u8, Vec<u16>)>,
    /// Waits, later in the calling code, on the result of a project call (by index in
    /// `calls`): `f = runner.submit(..); .. f.get()`.
    pub call_waits: Vec<(usize, Span)>,
    /// Java: methods declared to return a future whose every `return` is a promise an
    /// I/O callback completes (`f = new CompletableFuture<>(); client.execute(req, new
    /// FutureCallback<>() { .. f.complete(v) .. }); return f;`), provided the listed
    /// calls (indexes into `calls`, returned as they are: `return api.setRules(..);`)
    /// return one too. Waiting for one waits for I/O its client's timeouts bound.
    #[serde(default)]
    pub promise_methods: Vec<(CtxId, Box<[u32]>)>,
    /// Java: reactive waits (`result.blockingGet()`, by span) on a chain made here with
    /// no scheduler hop (`result = client.search(..)`, `client.count(..).map(..)`), with
    /// the calls it is made of (indexes into `calls`; a library's: `LIBRARY_CALL` once
    /// linked). It waits for library I/O, which that library's timeouts bound, when
    /// every call is a library's or returns such a chain (`Model::library_waits`).
    #[serde(default)]
    pub chain_waits: Vec<(Span, Box<[u32]>)>,
    /// Java: untimed waits on a future no submission of theirs made, with the calls
    /// that future can come from (every call in the waited expression and in the values
    /// of its locals; `LIBRARY_CALL` for a library's once linked). No pool work of the
    /// project's is in it when none of those calls reaches some (`Model::library_waits`).
    #[serde(default)]
    pub wait_sources: Vec<(Span, Box<[u32]>)>,
    /// Java: methods declared to return a future, with the calls what they return can
    /// come from, as for `wait_sources`. Missing when it may be a future the project
    /// completes or keeps itself (a submission's, a new promise, a field's).
    #[serde(default)]
    pub return_sources: Vec<(CtxId, Box<[u32]>)>,
    /// Rust: functions that await a catalogued server handshake with no timeout
    /// (`async fn tls_accept(..) { acceptor.accept(stream).await }`).
    #[serde(default)]
    pub handshake_fns: Vec<CtxId>,
    /// Rust: project calls awaited with no timeout in an accept loop's own code
    /// (`self.tls_accept(stream).await` after `listener.accept().await`), by the span of
    /// the call: a handshake behind one stops the loop (`missing_client_timeout`).
    #[serde(default)]
    pub accept_loop_calls: Vec<(CtxId, Span, Box<str>)>,
    /// Project classes whose `rejectedExecution` runs the rejected task on the caller.
    pub caller_runs_handlers: Vec<String>,
    /// Methods that build and return a new pool (`Pools.newPool(name, handler)`).
    pub pool_factories: Vec<PoolFactory>,
    /// Fields and locals assigned the result of a project method call that may be
    /// one of those factories: each such call makes a pool of its own.
    pub factory_uses: Vec<FactoryUse>,
    /// Items put into a queue or sent on a channel (`queue.offer(x)`, `tx.send(x)`),
    /// by the key the queue is known by.
    pub queue_sends: Vec<QueueSend>,
    /// Rust: functions that run their parameter N inside a blocking section
    /// (`block_in_place(move || f(conn))`): a closure passed there runs off the runtime.
    pub section_params: Vec<(CtxId, usize)>,
    /// Rust: out-of-line modules declared test-only (`#[cfg(test)] mod tests;`), by
    /// name, or by the file a `#[path = "unit/x_tests.rs"]` names (ending in `.rs`,
    /// relative to the declaring file's directory).
    pub test_modules: Vec<String>,
    /// Rust: out-of-line modules compiled only for WebAssembly (`#[cfg(target_family =
    /// "wasm")] mod wasm;`): browser code, with no thread of the process to hold.
    #[serde(default)]
    pub wasm_modules: Vec<String>,
    /// Rust: modules declared inline (`mod handlers { .. }`), by name and the span of
    /// their braces: a path through one (`handlers::run_job`) names a function
    /// declared in it.
    #[serde(default)]
    pub inline_modules: Vec<(Box<str>, Span)>,
    /// Rust: every out-of-line module the file declares (`a/b` for `mod a { mod b; }`);
    /// `None` when it may declare modules it does not show (`#[path]`, a macro) or
    /// was not parsed. A file no parent declares is not compiled.
    #[serde(default)]
    pub modules: Option<Vec<Box<str>>>,
    /// Java: `@Bean` methods of a catalogued client type, configured or not: which
    /// beans an injected client field may receive.
    #[serde(default)]
    pub client_beans: Vec<ClientBean>,
    /// Java: injected client fields and the requests made on them.
    #[serde(default)]
    pub client_fields: Vec<ClientField>,
    /// Java: clients a class takes from a project factory method (`this.client =
    /// HttpClients4.create(p)`), and the client entries whose per-request bounds every
    /// request of the class sets.
    #[serde(default)]
    pub client_sources: Vec<ClientSource>,
    /// Rust: functions that build a client builder they are given
    /// (`fn build_safe_client(b: ClientBuilder) -> Result<Client> { b.redirect(..).build() }`).
    #[serde(default)]
    pub finishers: Vec<Finisher>,
    /// Rust: functions that keep the client they are given in a field of their struct
    /// (`PeerClient::new(http: reqwest::Client) -> Self { Self { client: http, .. } }`).
    #[serde(default)]
    pub keepers: Vec<Keeper>,
    /// Rust: calls whose result a `let` takes and bounds, if it is a client: every
    /// request on it sets a per-request `.timeout(..)`, or it goes only to timeout
    /// helpers (`time_out_client(channel, d)`). A client a function returns is bounded
    /// when every call of that function is one of these.
    #[serde(default)]
    pub bounded_takes: Vec<Span>,
    /// Rust: builders that functions of other files return, built here.
    #[serde(default)]
    pub builder_uses: Vec<BuilderUse>,
    /// Rust: HTTP requests started on a static by name (`CLIENT.get(url)`, or on a
    /// local taken from it), and whether each is given a `.timeout(..)`.
    #[serde(default)]
    pub static_requests: Vec<(Box<str>, bool)>,
    /// Named items (classes, methods, functions) for fingerprints.
    pub items: Vec<Item>,
    /// Functions registered as handlers by name (`get(list_orders)`), with why:
    /// hot entry points once the project resolves them.
    pub handlers: Vec<(Call, String)>,
    /// Types (classes, interfaces, Rust impl targets) the file declares, for the
    /// project's type hierarchy.
    pub types: Vec<TypeDecl>,
    /// The file belongs to a program that serves no traffic (a CLI binary, a build
    /// script, an `xtask`): everything in it is cold.
    pub binary: bool,
    /// Java: the file declares an application's main class (`@SpringBootApplication`):
    /// the project is an application, whose code no caller outside it reaches.
    #[serde(default)]
    pub application: bool,
    /// Java: the method names its method references name (`HttpUtils::sendGet`), a
    /// call the call graph may not resolve.
    #[serde(default)]
    pub method_refs: Vec<Box<str>>,
    /// Calls [`crate::model::calls::prune_calls`] dropped although a project method has
    /// their name (made on a library call's result, `ctx.getBean(..).refresh()`): by
    /// name, for the dead-code search. Filled after the cache, never stored.
    #[serde(skip)]
    pub untyped_calls: Vec<UntypedCall>,
    /// Rust: the file's crate is a tool (a CLI, a cargo subcommand): even its request
    /// handlers (a local preview page, a login callback) serve its user, not traffic.
    #[serde(default)]
    pub tool: bool,
    /// Rust: the file's crate is a program with no library target that no crate
    /// depends on: nothing outside the project calls its functions.
    #[serde(default)]
    pub program_only: bool,
    /// Rust: the file builds a server-wide request timeout (`TimeoutLayer::new(d)`).
    #[serde(default)]
    pub request_timeout: bool,
    /// Java: thread counts the file gives a scheduler (`scheduler.setPoolSize(3)`):
    /// `Some(n)` for a literal, `None` for a count it cannot read.
    #[serde(default)]
    pub scheduler_threads: Vec<Option<u32>>,
    /// Rust: the file uses an embedded database (`local_store_crates`: `rusqlite`,
    /// `sled`): its `block_in_place` calls run local synchronous work.
    #[serde(default)]
    pub local_store: bool,
    /// Rust functions' declared return types, when they name one (`Result<Conn, Error>`
    /// is `Conn`), by context in ascending order: a call's result has that type. A
    /// side table: most contexts have none. Java: methods declared to return a future (or
    /// a `publisher`, a `Mono`).
    #[serde(default)]
    pub returns: Vec<(CtxId, Box<str>)>,
    /// Java: methods' declared return types that may name a project class
    /// (`static EventManager me()`), by context in ascending order: a call made on such
    /// a call's result (`EventManager.me().publish(..)`) is looked up in that class.
    #[serde(default)]
    pub ret_types: Vec<(CtxId, std::sync::Arc<TypeRef>)>,
    /// Calls made on an earlier call's result (Rust `open(..).await?.handle()`, or on a
    /// local bound from it; Java `Registry.get().lookup(..)`), as (call, the call whose
    /// result is the receiver), in ascending order: the callee's declared return type
    /// ([`FileFacts::returns`], Java [`FileFacts::ret_types`]) is the receiver's type.
    #[serde(default)]
    pub receivers: Vec<(u32, u32)>,
    /// Java calls made on an instance getter's result (`server.getThreadPool().submit(..)`),
    /// as (call, the getter's call), in ascending order: when no source declares the
    /// getter (Lombok's), the type of the field it is named for is the receiver's type.
    #[serde(default)]
    pub getter_receivers: Vec<(u32, u32)>,
    /// Java calls made on an instance method's result (`factory.plugin().track(..)`),
    /// as (call, the inner call), in ascending order: when each method it reaches
    /// returns only objects it makes ([`FileFacts::factory_types`]), their classes are
    /// the receiver's types.
    #[serde(default)]
    pub factory_receivers: Vec<(u32, u32)>,
    /// Java: the project classes a method makes in every `return new T(..)` it has (a
    /// plugin factory's `switch`), by context in ascending order.
    #[serde(default)]
    pub factory_types: Vec<(CtxId, Vec<std::sync::Arc<TypeRef>>)>,
    /// Java: the annotation types the file declares (`@interface Audited`), fully
    /// qualified: what a method's annotation or a pointcut resolves to.
    #[serde(default)]
    pub annotation_types: Vec<Box<str>>,
    /// Java: the annotations on methods, other than `java.lang`'s, as (method, the
    /// annotation, its span): the methods an aspect's pointcut selects.
    #[serde(default)]
    pub method_marks: Vec<(CtxId, std::sync::Arc<TypeRef>, Span)>,
    /// Java: an aspect's advice (`@Around("@annotation(Audited)")` in an `@Aspect`), as
    /// (advice method, the annotation its pointcut selects methods by): it runs where
    /// those methods run.
    #[serde(default)]
    pub advice: Vec<(CtxId, std::sync::Arc<TypeRef>)>,
    /// Rust calls made on a field of a project struct declared in another file
    /// (`ctx.core.subscribe(..)`), as (call, struct, field), in ascending order: the
    /// field's declared type ([`FileFacts::struct_fields`]) is the receiver's type.
    #[serde(default)]
    pub field_receivers: Vec<(u32, Box<str>, Box<str>)>,
    /// Java calls made on a field of another project class's object
    /// (`context.webSocket.handleFrame(..)`), as (call, the object's declared type,
    /// field), in ascending order: the field's declared type ([`TypeDecl::fields`],
    /// maybe of a superclass in another file) is the receiver's type.
    #[serde(default)]
    pub member_receivers: Vec<(u32, std::sync::Arc<TypeRef>, Box<str>)>,
    /// Java: calls made on an injected field (`@Resource IOAuth2Service googleDriveService`),
    /// with the bean name it is injected by (its qualifier, else its name), in ascending
    /// order: of several implementations of its type, that bean's is the one called.
    #[serde(default)]
    pub bean_receivers: Vec<(u32, Box<str>)>,
    /// Java: the declared parameter types of methods their class overloads with one
    /// parameter count (`getItem(ItemId)` beside `getItem(Path)`), by context in
    /// ascending order (`None`: a primitive, an array, a type variable).
    #[serde(default)]
    pub param_types: Vec<(CtxId, SlotTypes)>,
    /// Java: the declared types of the arguments that are names (`items.getItem(id)`,
    /// `id` a `NodeId`), for calls on a typed receiver, by call in ascending order: the
    /// model picks the overloads they can be passed to.
    #[serde(default)]
    pub arg_types: Vec<(u32, SlotTypes)>,
    /// Rust: the fields of the file's structs whose declared type is a project type,
    /// as (struct, field, type as written: `client::CoreClient`).
    #[serde(default)]
    pub struct_fields: Vec<(Box<str>, Box<str>, Box<str>)>,
    /// Rust: `type AppData = web::Data<Arc<State>>;` as (alias, the type it names
    /// through transparent wrappers, as written: `State`, `db::Pool`).
    #[serde(default)]
    pub type_aliases: Vec<(Box<str>, Box<str>)>,
    /// Rust: `impl Trait for Type` blocks, as (trait, type) simple names: a call on a
    /// `dyn Trait` may run any of the project's implementations.
    #[serde(default)]
    pub trait_impls: Vec<(String, String)>,
    /// Rust: the traits the file declares (simple names), and its `#[enum_dispatch]`
    /// enums, which dispatch like one (their variants' types are in `trait_impls`).
    /// Only a call on one of these dispatches to implementations: `Default::default()`
    /// is resolved by type inference, not by the project's one `impl Default`.
    #[serde(default)]
    pub traits: Vec<String>,
    /// Rust: the file binds a listening socket (`TcpListener::bind`): its crate serves
    /// connections even without a framework's handlers.
    #[serde(default)]
    pub listens: bool,
    /// Rust: the file reconnects to a feed for good and spawns a task per message
    /// (`loop { .. while let Some(m) = ws.next().await { tokio::spawn(..) } }`): its
    /// crate serves that traffic.
    #[serde(default)]
    pub consumes: bool,
    /// Rust: the file waits for SIGTERM (`signal(SignalKind::terminate())`, a handler
    /// for `SIGTERM`): a program a supervisor runs and stops, not a command.
    #[serde(default)]
    pub handles_sigterm: bool,
    /// Rust: the file's module path with its crate's name first (`["billing", "api",
    /// "refund"]` for `billing/src/api/refund.rs`), set once the crates are known.
    #[serde(skip)]
    pub module: Vec<Box<str>>,
    /// Java `static final String` constants with a literal value, as
    /// (`<class fq>.<NAME>`, value): what `const:` bean names in annotations mean.
    #[serde(default)]
    pub string_constants: Vec<(Box<str>, Box<str>)>,
    /// Problems the front end met but worked around (e.g. tree-sitter error nodes).
    pub errors: Vec<String>,
}

/// The row of a side table sorted by its key (a context or a call) whose key is `key`.
fn row<T, K: Ord>(table: &[T], key: K, of: impl Fn(&T) -> K) -> Option<&T> {
    let i = table.binary_search_by_key(&key, of).ok()?;
    Some(&table[i])
}

impl FileFacts {
    /// Whether context `from` is `ctx` or nested in it (a task, closure or lambda of it).
    pub fn inside(&self, mut from: Option<CtxId>, ctx: CtxId) -> bool {
        while let Some(c) = from {
            if c == ctx {
                return true;
            }
            from = self.contexts.get(c).and_then(|k| k.parent);
        }
        false
    }

    /// Java: the declared return type of method `ctx`, when it may name a project class.
    pub fn ret_type_of(&self, ctx: CtxId) -> Option<&std::sync::Arc<TypeRef>> {
        row(&self.ret_types, ctx, |(c, _)| *c).map(|(_, t)| t)
    }

    /// The declared return type of context `ctx` (see [`FileFacts::returns`]).
    pub fn returns_of(&self, ctx: CtxId) -> Option<&str> {
        row(&self.returns, ctx, |(c, _)| *c).map(|(_, t)| &**t)
    }

    /// The struct and field whose value call `call` is made on (see
    /// [`FileFacts::field_receivers`]).
    pub fn field_receiver_of(&self, call: usize) -> Option<(&str, &str)> {
        row(&self.field_receivers, call as u32, |(c, _, _)| *c).map(|(_, ty, f)| (&**ty, &**f))
    }

    /// Java: the object type and field call `call` is made on (see
    /// [`FileFacts::member_receivers`]).
    pub fn member_receiver_of(&self, call: usize) -> Option<(&TypeRef, &str)> {
        row(&self.member_receivers, call as u32, |(c, _, _)| *c).map(|(_, ty, f)| (&**ty, &**f))
    }

    /// The declared parameter types of an overloaded method (see [`FileFacts::param_types`]).
    pub fn param_types_of(&self, ctx: CtxId) -> Option<&[Option<std::sync::Arc<TypeRef>>]> {
        row(&self.param_types, ctx, |(c, _)| *c).map(|(_, t)| &**t)
    }

    /// The argument types of a call (see [`FileFacts::arg_types`]).
    pub fn arg_types_of(&self, call: usize) -> Option<&[Option<std::sync::Arc<TypeRef>>]> {
        row(&self.arg_types, call as u32, |(c, _)| *c).map(|(_, t)| &**t)
    }

    /// Java: the bean name of the injected field call `call` is made on (see
    /// [`FileFacts::bean_receivers`]).
    pub fn bean_receiver_of(&self, call: usize) -> Option<&str> {
        row(&self.bean_receivers, call as u32, |(c, _)| *c).map(|(_, b)| &**b)
    }

    /// The call whose result call `call` is made on (see [`FileFacts::receivers`]).
    pub fn receiver_of(&self, call: usize) -> Option<usize> {
        row(&self.receivers, call as u32, |(c, _)| *c).map(|&(_, from)| from as usize)
    }

    /// The getter call whose result call `call` is made on (see
    /// [`FileFacts::getter_receivers`]).
    pub fn getter_receiver_of(&self, call: usize) -> Option<usize> {
        row(&self.getter_receivers, call as u32, |(c, _)| *c).map(|&(_, from)| from as usize)
    }

    /// The instance call whose result call `call` is made on (see
    /// [`FileFacts::factory_receivers`]).
    pub fn factory_receiver_of(&self, call: usize) -> Option<usize> {
        row(&self.factory_receivers, call as u32, |(c, _)| *c).map(|&(_, from)| from as usize)
    }

    /// The classes context `ctx` returns new objects of (see [`FileFacts::factory_types`]).
    pub fn factory_of(&self, ctx: CtxId) -> Option<&[std::sync::Arc<TypeRef>]> {
        row(&self.factory_types, ctx, |(c, _)| *c).map(|(_, t)| t.as_slice())
    }

    /// A Rust file of a module named `admin` (its crate's name aside): its routes
    /// serve operators, a few clicks, not traffic.
    pub fn admin_module(&self) -> bool {
        self.module.iter().skip(1).any(|m| &**m == "admin")
    }

    /// Give back the spare capacity extraction left in every list: all files' facts
    /// stay in memory until the rules have run (peak memory, not speed).
    pub fn shrink(&mut self) {
        self.queues.shrink_to_fit();
        self.inline_modules.shrink_to_fit();
        self.pools.shrink_to_fit();
        self.contexts.shrink_to_fit();
        self.submissions.shrink_to_fit();
        self.waits.shrink_to_fit();
        self.calls.shrink_to_fit();
        self.async_methods.shrink_to_fit();
        self.clients.shrink_to_fit();
        self.suppressions.shrink_to_fit();
        self.pool_aliases.shrink_to_fit();
        self.pool_args.shrink_to_fit();
        self.call_holders.shrink_to_fit();
        self.pool_factories.shrink_to_fit();
        self.caller_runs_handlers.shrink_to_fit();
        self.call_waits.shrink_to_fit();
        self.factory_uses.shrink_to_fit();
        self.queue_sends.shrink_to_fit();
        self.section_params.shrink_to_fit();
        self.items.shrink_to_fit();
        self.handlers.shrink_to_fit();
        self.types.shrink_to_fit();
        self.ret_types.shrink_to_fit();
        self.member_waits.shrink_to_fit();
        self.field_waits.shrink_to_fit();
        self.wait_fields.shrink_to_fit();
        self.result_waits.shrink_to_fit();
        self.wait_returns.shrink_to_fit();
        self.member_receivers.shrink_to_fit();
        self.bean_receivers.shrink_to_fit();
        self.receivers.shrink_to_fit();
        self.getter_receivers.shrink_to_fit();
        self.factory_receivers.shrink_to_fit();
        self.factory_types.shrink_to_fit();
    }
}

/// How many items a queue or pool can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bound {
    /// No capacity at all (or `Integer.MAX_VALUE`, Spring's default).
    Unbounded,
    /// Threads are created without bound (`newCachedThreadPool`).
    UnboundedThreads,
    /// A capacity known at analysis time.
    Capacity(u64),
    /// A capacity computed at run time; we cannot judge it.
    Unknown,
}

/// A queue, channel or executor work queue being created.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Queue {
    pub span: Span,
    /// What the user wrote, shortened for messages: `new LinkedBlockingQueue<>()`.
    pub what: String,
    pub bound: Bound,
    /// Why it is unbounded (from the catalog): "has no capacity bound".
    pub why: String,
    /// The catalog's fix for this API.
    pub help: String,
    /// Where the capacity was (or should have been) configured, if elsewhere.
    pub related: Option<(Span, String)>,
    /// Where it is created (`None`: a field initializer or static).
    pub ctx: Option<CtxId>,
    /// The start of the creation it is an argument of (`new ThreadPoolExecutor(.., queue,
    /// ..)`): the pool it is the work queue of, when that is a pool.
    pub argument_of: Option<usize>,
    /// An executor's work queue (the executor itself, or the queue given to one).
    pub executor: bool,
    /// Names its producers use (`local:<at>:<var>` in this file; `field:<Class>.<f>` in
    /// Java; `field:<f>` for a Rust struct field that holds the sender).
    pub keys: Vec<String>,
    /// Rust: the project type of the items it carries, when its constructor names it
    /// (`flume::unbounded::<PrefetchMsg>()`): sends on a sender of that item type
    /// anywhere (`tx: &Sender<PrefetchMsg>`, a parameter) fill it, when no other
    /// channel of the project carries that type (`QueueSend::key` `item:<type>`).
    #[serde(default)]
    pub item: Option<Box<str>>,
    /// A scheduler's delay queue (`ScheduledThreadPoolExecutor`): it holds timers,
    /// and only immediate work submitted from hot code makes it a backlog.
    pub timers: bool,
    /// Rust: created in one branch of a `match`/`if` whose other branch creates the
    /// bounded form (`Some(n) => channel(n), None => unbounded_channel()`): unbounded
    /// by the user's configuration, a choice the code offers on purpose.
    pub configured: bool,
    /// Rust: a per-call channel: made in a function that reads its receiver once there
    /// (not in a loop) and never lets it leave, or whose receiver's one use gathers
    /// every item (`rx.iter().collect()`); it lives for one call. Also a channel
    /// nothing can queue in (its receiver dropped at once) or made for `()` signals.
    pub reply: bool,
    /// Java: made straight into argument `.1` of another object's method call (the
    /// call's span): a work list when every method it reaches keeps that parameter on
    /// its own thread (`Context::local_params`).
    #[serde(default)]
    pub handed_to: Option<(Span, u8)>,
    /// Rust: calls of project functions given the sender whole as argument N
    /// (`Store::new(tx)`): one that keeps it in a field
    /// ([`Keeper::sender`]) names the sends that fill the channel.
    #[serde(default)]
    pub kept_by: Vec<(Span, u8)>,
    /// Java: a free list: the method that makes it fills it in a counted loop (`for
    /// (int i = 0; i < max; i++) slots.add(i);`), so it holds that many items (slots,
    /// buffers), and its later puts return what a take took.
    #[serde(default)]
    pub free_list: bool,
    /// Java: a field queue its class empties whole (`queue.drainTo(batch)`): a
    /// hand-off buffer between producers that never block and a consumer that takes
    /// everything there is on each pass (reviewers acted on none, audit rounds 64-104).
    #[serde(default)]
    pub batched: bool,
}

/// The key a send by item type uses (`item:PrefetchMsg`, see [`Queue::item`]).
pub fn item_key(item: &str) -> String {
    format!("item:{item}")
}

/// A stable name for a pool, the same in every file that refers to it.
///
/// Java: `field:com.acme.Pools#IO`, `bean:accessLogExecutor`, `local:<ctx>:pool`;
/// Rust: `local:<ctx>:pool`, `field:Type#pool`, `rayon-global`.
pub type PoolKey = String;

/// A bean name as users read it: `Pools.AUDIT` for a constant
/// (`const:com.acme.Pools.AUDIT`), else the name itself.
pub fn bean_display(name: &str) -> &str {
    name.strip_prefix("const:").map_or(name, class_and_name)
}

/// `Pools.AUDIT` of `com.acme.Pools.AUDIT`.
pub fn class_and_name(constant: &str) -> &str {
    let cut = constant
        .rmatch_indices('.')
        .nth(1)
        .map_or(0, |(i, _)| i + 1);
    &constant[cut..]
}

/// The JDK's common pool, where `CompletableFuture.*Async` without an executor runs.
/// It compensates blocked workers, so nesting on it is not reported.
pub const COMMON_POOL: &str = "java:common-pool";

/// A thread pool definition.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pool {
    pub key: PoolKey,
    /// Other keys that name the same pool (bean names, qualifiers, method name).
    pub aliases: Vec<PoolKey>,
    /// Name shown to users: `POOL`, `accessLogExecutor`.
    pub name: String,
    pub span: Span,
    /// Where `CallerRunsPolicy` is set on this pool, if it is.
    pub caller_runs: Option<Span>,
    /// A project class given as the rejection handler (`new LoggingCallerRuns()`), and
    /// where: the pool is caller-runs if that class's `rejectedExecution` runs the task.
    #[serde(default)]
    pub handler: Option<(std::sync::Arc<TypeRef>, Span)>,
    pub bounded: bool,
    /// Every task gets a thread of its own (catalog `elastic`).
    #[serde(default)]
    pub elastic: bool,
    /// A pool a method creates for its own work and shuts down before it returns
    /// (a fork/join helper): its queue holds only that call's tasks, and waiting for
    /// them is the same as running them inline.
    pub scoped: bool,
    /// A local pool used only for a few submissions of the method that makes it (none
    /// in a loop or a lambda; it never leaves the method): its queue holds at most
    /// those tasks, whether or not the method shuts it down.
    #[serde(default)]
    pub per_call: bool,
    /// One thread runs every task (`newSingleThreadExecutor()`, `new
    /// ScheduledThreadPoolExecutor(1)`): a thread dedicated to this pool's jobs.
    #[serde(default)]
    pub single: bool,
}

/// The declared types of a method's parameters or a call's arguments, by position
/// (`None` where unknown or not a class).
pub type SlotTypes = Box<[Option<std::sync::Arc<TypeRef>>]>;

/// Index of a [`Context`] within its file.
pub type CtxId = usize;

/// Where a piece of code runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum CtxKind {
    /// A named method or function; `runs` says what calls it.
    Function,
    /// A task body handed to a pool (lambda, closure, anonymous class, method reference).
    PoolTask(PoolKey),
    /// An event-loop or I/O thread (Netty handler, WebFlux/Gateway filter, Vert.x handler).
    EventLoop,
    /// Rust `async fn`, `async` block, or a task on an async runtime.
    Async,
    /// A thread the code created itself (`std::thread::spawn`), or a blocking-pool closure.
    Thread,
    /// A closure or lambda that runs where its enclosing context runs.
    Inline,
    /// A closure stored for later (`Arc::new(move |x| ..)`, `Box::new(..)`): it runs
    /// wherever it is called, which the project does not follow (unknown).
    Deferred,
}

/// Whether code serves traffic (revision 2 of the spec): `Hot` code runs per
/// request, message or event, or on a shared pool; `Cold` code pins nothing that
/// serves traffic (startup, shutdown, `main`, a dedicated thread's loop).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Heat {
    Hot,
    Unknown,
    Cold,
}

impl Heat {
    pub fn as_str(self) -> &'static str {
        match self {
            Heat::Hot => "hot",
            Heat::Unknown => "unknown",
            Heat::Cold => "cold",
        }
    }
}

/// Why an event-loop handler's code is hot, in messages.
pub const EVENT_LOOP: &str = "event-loop handler";

/// The pool key prefix of Rust threads spawned in a loop (a hand-rolled pool's workers).
pub const HAND_ROLLED: &str = "threads@";

/// An entry point the front end recognised on a context: where its heat starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub heat: Heat,
    /// Why, for messages: "`@PostMapping` handler", "`@PostConstruct` startup hook".
    pub why: String,
    /// Hot code that runs at a pace the code sets (a schedule), not per request or
    /// event: what it puts in a queue does not grow with load.
    #[serde(default)]
    pub paced: bool,
    /// Cold by its name alone (`destroy`, `close`): hot code that calls it makes it hot.
    #[serde(default)]
    pub yields: bool,
    /// A scheduled job's run (a Quartz job): a wait there holds back the job's next
    /// run, not requests.
    #[serde(default)]
    pub job: bool,
    /// A `@Scheduled` method: a job (as `job`) when the project gives its scheduler a
    /// thread for each such method (`Model::scheduler_sized`).
    #[serde(default)]
    pub sized_job: bool,
    /// Runs per message or event, not per request (the catalog's `per_event`).
    #[serde(default)]
    pub per_event: bool,
}

/// Why a hot entry point an administrators' route (or role) makes cold is cold.
pub fn admin_only(why: &str) -> String {
    format!("admin-only {why}")
}

impl Entry {
    /// An entry of that heat, for that reason, with no other mark.
    pub fn new(heat: Heat, why: impl Into<String>) -> Entry {
        Entry {
            heat,
            why: why.into(),
            paced: false,
            yields: false,
            job: false,
            sized_job: false,
            per_event: false,
        }
    }
}

/// A reference to a type, as candidates for its fully-qualified name in the order
/// the language's scoping rules try them (explicit import, enclosing classes, own
/// package, on-demand imports). The project picks the first it declares.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TypeRef {
    pub candidates: Vec<String>,
}

/// A type declared in a file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TypeDecl {
    /// Fully-qualified (Java: `com.acme.Outer.Inner`; Rust: the impl type's name).
    pub name: String,
    /// Superclass and interfaces.
    pub supers: Vec<std::sync::Arc<TypeRef>>,
    /// The enclosing class of an inner or anonymous class.
    pub outer: Option<String>,
    /// Field name -> declared type, for calls on fields of other classes' types.
    pub fields: Vec<(String, std::sync::Arc<TypeRef>)>,
    pub span: Span,
    /// Java: it implements or extends a catalog future type itself (`RpcFuture
    /// implements Future<Object>`): its `get()` and `join()` are a future's waits.
    #[serde(default)]
    pub future: bool,
    /// Java: untimed no-argument waits it inherits from a JDK class it extends (catalog
    /// group `subclassed`): `await` for a `CountDownLatch` subclass, `join` for a `Thread`'s.
    #[serde(default)]
    pub inherited_waits: Vec<Box<str>>,
    /// Java: its own no-argument `get()`/`join()` that waits with no time bound inside
    /// (`ClusterFuture.get()` awaiting a latch): a future's wait for its callers.
    #[serde(default)]
    pub blocking_api: Vec<Box<str>>,
    /// Java: an interface (its `get()` may be any implementation's, a no-op's too).
    #[serde(default)]
    pub interface: bool,
    /// Java: a Spring controller (`@RestController`, `@Controller`): the mapping
    /// annotations of the project interfaces it implements map its methods.
    #[serde(default)]
    pub controller: bool,
    /// Java: its own route starts with an operators' segment (`@RequestMapping
    /// ("/admin/article")`): every handler it has, inherited ones too, serves the
    /// back office.
    #[serde(default)]
    pub admin_root: bool,
    /// Java: a client entry's interceptor (`interceptor`: a gRPC `ClientInterceptor`),
    /// with the names of that entry's `needs` its body calls (`withDeadlineAfter`): it
    /// sets them on every call of a client made with it.
    #[serde(default)]
    pub interceptor_sets: Vec<Box<str>>,
}

/// A function, method or task body.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Context {
    pub kind: CtxKind,
    pub parent: Option<CtxId>,
    /// Method or function name (`sendLog`), or a short description of a task body.
    pub name: String,
    /// Java: the enclosing class (fully qualified); Rust: the impl type, if any.
    /// Shared by every context of the class.
    pub owner: Option<std::sync::Arc<str>>,
    /// The span of the signature or head, used as a label.
    pub head: Span,
    pub body: Span,
    /// For tasks: the submission that runs this body.
    pub submission: Option<usize>,
    /// An entry point recognised here (handler, listener, startup hook, `main`).
    /// Boxed: few contexts are entry points.
    pub entry: Option<Box<Entry>>,
    /// The body runs an open-ended loop (`while (running)`, `for (;;)`, `loop`): as a
    /// task, a long-lived worker rather than one item of work.
    pub worker_loop: bool,
    /// The body runs until the program stops it (`while (true)`, `for (;;)`,
    /// `while (running)`, `while (!Thread.currentThread().isInterrupted())`): as a
    /// task, it holds its pool thread for good, a thread dedicated to that job.
    /// Rust: a spawned async block whose body is a `loop`.
    #[serde(default)]
    pub dedicated_loop: bool,
    /// Rust tasks: spawned outside every loop of the function that spawns them (its
    /// start-up work, before an accept loop): not one of the tasks the loop hands out.
    #[serde(default)]
    pub once: bool,
    /// Rust tasks: spawned by a statement that drops the handle (`tokio::spawn(async
    /// move { .. });`): no caller awaits the task.
    #[serde(default)]
    pub detached: bool,
    /// Java methods: how many parameters the method declares (`None` with varargs, and
    /// for other contexts): picks among overloads by the number of arguments.
    pub arity: Option<u8>,
    /// Java methods: the kinds of the first eight parameters' types, four bits each
    /// ([`ArgKind`] as `u32`; 0 when any argument fits).
    #[serde(default)]
    pub param_kinds: u32,
    /// Java methods: the queue-typed parameters (bit per index, the first sixteen) the
    /// method only uses on its own thread, as a work list (`unbounded_queue`).
    #[serde(default)]
    pub local_params: u16,
    /// Java: a `static` method (no override, no framework callback: only callers run it).
    #[serde(default)]
    pub is_static: bool,
    /// Java: a `public` method (what a framework calls on a class it instantiates).
    #[serde(default)]
    pub is_public: bool,
    /// Java: marked `@Deprecated`, or inside code or a class that is (or a class whose
    /// every constructor is): callers are moving off it.
    #[serde(default)]
    pub deprecated: bool,
    /// Rust: marked `#[allow(dead_code)]`: its author says nothing may call it.
    #[serde(default)]
    pub allows_dead: bool,
    /// Java: a method annotated as a test hook (`@VisibleForTesting`: the catalog's
    /// `test_hook_annotations`); with no caller in the project only tests run it.
    #[serde(default)]
    pub test_hook: bool,
    /// Java: a method with an annotation other than `@Override`, `@Deprecated`,
    /// `@SuppressWarnings`, `@SafeVarargs`: a framework may call it by reflection.
    #[serde(default)]
    pub annotated: bool,
}

/// A call the call graph dropped (see [`FileFacts::untyped_calls`]).
#[derive(Debug, Clone, Default)]
pub struct UntypedCall {
    pub method: Box<str>,
    /// How many arguments it passes (Java).
    pub args: Option<u8>,
    /// Its literal arguments' kinds ([`Call::literals`]).
    pub literals: u32,
}

/// What an argument or a parameter type is, for telling overloads of one arity apart:
/// `delete(version, false)` cannot call `delete(SchemaVersion, Project)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum ArgKind {
    Any = 0,
    Bool = 1,
    Number = 2,
    Text = 3,
    /// A parameter of a class type that no literal converts to.
    Object = 4,
    /// A `byte[]`: a parameter of that type, or an argument that is one (`file.getBytes()`,
    /// `out.toByteArray()`, `new byte[n]`, a local declared so).
    Bytes = 5,
}

impl ArgKind {
    fn of(bits: u32, i: usize) -> u32 {
        (bits >> (4 * i)) & 0xf
    }

    /// Whether the literals of a call fit the parameter kinds of a method.
    pub fn fits(literals: u32, params: u32) -> bool {
        (0..8).all(|i| {
            let (a, p) = (Self::of(literals, i), Self::of(params, i));
            a == 0 || p == 0 || a == p
        })
    }

    /// Sets kind `k` at position `i` (the first eight only).
    pub fn set(bits: &mut u32, i: usize, k: ArgKind) {
        if i < 8 {
            *bits |= (k as u32) << (4 * i);
        }
    }
}

/// Work handed to a pool.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Submission {
    pub span: Span,
    /// The call as written, shortened for messages: `CompletableFuture.supplyAsync(..)`.
    pub what: String,
    pub pool: PoolKey,
    /// Name of the pool as written at the call site.
    pub pool_name: String,
    /// Whether the receiver is known to be a pool; unconfirmed submissions count
    /// only when linking finds a pool definition with that key.
    pub confirmed: bool,
    /// The context the submission is made from.
    pub ctx: CtxId,
    /// The context of the task body, when it is inline.
    pub task: Option<CtxId>,
    /// A method of the same class run as the task (method reference or a call in a one-line lambda).
    pub task_method: Option<String>,
    /// The wait on this submission's result within `ctx`, if any.
    pub waited: Option<usize>,
    /// Java: the wait on its result in a helper of the same class its future is
    /// given to (`checkReply(v, future)`), when `ctx` has none.
    #[serde(default)]
    pub waited_at: Option<Span>,
    /// Rust `pool.install(..)`: the caller blocks while the closure runs on the pool.
    pub install: bool,
    /// The task is the enclosing method's parameter N (`pool.submit(task)` in a wrapper):
    /// the model treats calls of that method as submissions to this pool.
    pub task_param: Option<usize>,
    /// Made only when a guard admits it (`if (running.compareAndSet(false, true))`,
    /// or after `if (!lock.tryLock()) return;`): one such task is pending at a time.
    pub guarded: bool,
    /// Java: a statement of its own, outside any loop or lambda (`mailer.execute(() ->
    /// send(msg));`): its handle is dropped, so nothing waits on the task, and it adds
    /// one task per run of its method.
    pub detached: bool,
    /// Java: the method returns this submission's future (`return pool.submit(..)`,
    /// also through continuations `supplyAsync(..).thenApply(..)`): a caller that waits
    /// on the call's result waits for this task.
    #[serde(default)]
    pub returned: bool,
    /// Java: the task is an object of this type (`pool.submit(fetcher)`, `pool.execute(new
    /// Flush(batch))`): its `run()`/`call()` runs as the task.
    #[serde(default)]
    pub task_type: Option<std::sync::Arc<TypeRef>>,
    /// Java: the task is what a method of the same class returns (`pool.execute(
    /// getRunnable(monitor))`): the body that method returns runs as the task.
    pub task_factory: Option<String>,
    /// Java: submitted to a `ForkJoinPool` (its task runs on a fork/join worker).
    #[serde(default)]
    pub forkjoin: bool,
    /// Java: the task is a lambda that runs a parallel stream (`pool.submit(() ->
    /// ids.parallelStream().map(..).collect(..))`): on a fork/join pool, the idiom
    /// that confines the stream's threads to that pool.
    #[serde(default)]
    pub parallel_stream: bool,
}

/// What kind of blocking a wait is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WaitKind {
    /// Waiting for a future, join handle or result channel.
    Result,
    /// Waiting on a synchronizer another thread must release.
    Synchronizer,
    /// Rust: blocks a thread until a future completes (`futures::executor::block_on`).
    BlockOn,
    /// Rust: runs blocking work on the calling runtime thread (`block_in_place`,
    /// `Handle::block_on`); a finding only in async code.
    CallerRuns,
}

impl From<crate::catalog::EntryHeat> for Heat {
    fn from(h: crate::catalog::EntryHeat) -> Heat {
        match h {
            crate::catalog::EntryHeat::Hot => Heat::Hot,
            crate::catalog::EntryHeat::Cold => Heat::Cold,
        }
    }
}

impl From<crate::catalog::WaitCatalogKind> for WaitKind {
    fn from(k: crate::catalog::WaitCatalogKind) -> WaitKind {
        use crate::catalog::WaitCatalogKind as C;
        match k {
            C::Result => WaitKind::Result,
            C::Synchronizer => WaitKind::Synchronizer,
            C::BlockOn => WaitKind::BlockOn,
            C::CallerRuns => WaitKind::CallerRuns,
        }
    }
}

/// A blocking wait.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Wait {
    pub span: Span,
    pub ctx: CtxId,
    /// `f1.join()`, shortened.
    pub what: String,
    pub kind: WaitKind,
    /// Whether the wait has a time bound.
    pub timed: bool,
    /// The submission whose result is awaited, when known.
    pub submission: Option<usize>,
    /// Catalog help for the bounded form.
    pub help: String,
    /// Rust: the wait matters only on a pool worker or runtime thread, or when it
    /// waits for work this function just handed off.
    pub needs_worker: bool,
    /// A consumer-side wait (`take`, `put`): fine in a dedicated consumer loop, also
    /// when every caller of its method calls it from such a loop (a consumer API).
    pub consumer: bool,
    /// Rust: `.await` on a reply another task must send (a oneshot): it pins no
    /// thread, only this task, so it is a warning at most (rules.md).
    pub reply: bool,
    /// The reply's sender was not handed to a call of this function (it went into a
    /// message to an actor, which drops it when it fails): not worth a finding.
    pub actor: bool,
    /// A monitor or condition wait in a `while (cond)` loop whose class also signals
    /// it (`notifyAll()`, `signal()`): a handshake between the component's own
    /// threads (a journal writer and its appenders), not a wait for outside work.
    #[serde(default)]
    pub handshake: bool,
    /// How many waits just before this one (in `waits`) lie in its arguments:
    /// `block_in_place(|| handle.block_on(f))` holds the `block_on`.
    #[serde(default)]
    pub holds: u32,
    /// Java: a throttle's permit (`Semaphore.acquire()`, `permit` in the catalog).
    #[serde(default)]
    pub permit: bool,
    /// Java: an untimed `get()`/`join()`/`block()` on a project call's result of unknown type
    /// (`ev.getResultFuture().get()`), recorded as timed: it counts as untimed once
    /// the project model finds that every target of the call (in `call_waits`) is
    /// declared to return a future or a publisher (`Model::typed_waits`).
    #[serde(default)]
    pub by_call: bool,
    /// Java: a latch the tasks of this submission (of the same context) count down or
    /// are handed: with an untimed wait on their futures there, one wait in two steps.
    #[serde(default)]
    pub counted_by: Option<usize>,
    /// Java: a timed wait on a future the method also cancels (`f.get(30, SECONDS)`,
    /// then `f.cancel(true)` when it times out): the task leaves with its waiter.
    #[serde(default)]
    pub cancels: bool,
    /// Java: a `ForkJoinTask`'s `join()`/`get()`: on a fork/join worker the pool
    /// helps or adds a thread while it waits.
    #[serde(default)]
    pub forkjoin: bool,
    /// What the wait lasts until, when the catalog says (`WaitEntry::until`).
    #[serde(default)]
    pub until: Option<Box<str>>,
}

/// A call to a method that may be linked to another context (same class or another file).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Call {
    pub span: Span,
    pub ctx: CtxId,
    pub method: Box<str>,
    /// Simple name of the receiver's class; `None` for an unqualified call in the same class.
    pub receiver_type: Option<Box<str>>,
    /// The owner of the callee when the call names it (Rust `self.f()`, `Self::f()`,
    /// free `f()` = ""); `None`: the caller's own class.
    pub callee_owner: Option<Box<str>>,
    /// Java: the calling method returns the call's result (`return queryAsync(() -> ..);`,
    /// also with calls chained on it): the future it returns may be that call's.
    #[serde(default)]
    pub returned: bool,
    /// The receiver's type when it names one (a typed field, local or parameter, or
    /// a static call `Type.m()`): the callee is looked up there and in its supertypes.
    /// `None` with `receiver_type == None`: the caller's own class (and its supers, outer classes).
    /// Shared by every call of a file on the same type (one allocation, not one a call).
    pub target: Option<std::sync::Arc<TypeRef>>,
    /// Made inside an open-ended loop (`while (running)`, `for (;;)`).
    pub in_loop: bool,
    /// The method is one the catalog lists as submitting to an executor (`submit`,
    /// `execute`): on a project class that extends a pool, the call is a submission.
    pub submit_like: bool,
    /// Java: how many arguments the call passes (`None` for Rust).
    pub args: Option<u8>,
    /// Java: the kinds of the first eight arguments that are literals, four bits each
    /// ([`ArgKind`] as `u32`; 0 for any other argument): picks among overloads of one arity.
    #[serde(default)]
    pub literals: u32,
    /// Rust: made inside a timeout wrapper's arguments (`timeout(d, check(..))`) or a
    /// connector closure whose endpoint bounds the connect: what the callee waits for
    /// is bounded by the caller.
    pub timed: bool,
    /// Java: made on a lazy initialization's path, which runs once however often its
    /// method does (`if (region == null) { region = create(); }`, or after `if (found
    /// != null) return found;` of a constant lookup).
    #[serde(default)]
    pub once: bool,
    /// Java: a statement of its own outside loops and lambdas whose arguments answer no
    /// one ([`Submission::detached`]): a wrapper's submission made this way is dropped.
    pub detached: bool,
    /// What few calls have ([`CallExtra`]): one pointer for the many that have none.
    #[serde(default)]
    pub extra: Option<Box<CallExtra>>,
}

/// The fields of a [`Call`] that about one call in ten has (on the benchmark corpus:
/// a Rust module path on 10 %, lambdas as arguments on 0.6 %, a wait or an overload on
/// almost none), boxed apart so a call without them is 56 bytes smaller.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CallExtra {
    /// A `.join()`/`.get()` chained straight onto the call's result.
    pub waited: Option<Span>,
    /// That wait passes a time bound (`.get(2, SECONDS)`).
    pub waited_timed: bool,
    /// Lambdas passed as arguments: (argument index, the lambda's context). If the
    /// callee hands that parameter to a pool, the lambda is a task of that pool.
    pub lambda_args: Box<[(usize, CtxId)]>,
    /// Rust: the module the call path or its `use` names (`cli::upgrade` for
    /// `upgrade::init(..)` after `use crate::cli::upgrade`): picks among functions of
    /// the same name in different modules.
    pub module: Option<Box<str>>,
    /// Java: for an unqualified call to a method the class overloads with this many
    /// parameters, the name offset of the one the argument types pick.
    pub overload: Option<u32>,
}

impl Call {
    /// See [`CallExtra::waited`].
    pub fn waited(&self) -> Option<Span> {
        self.extra.as_ref().and_then(|e| e.waited)
    }

    /// See [`CallExtra::waited_timed`].
    pub fn waited_timed(&self) -> bool {
        self.extra.as_ref().is_some_and(|e| e.waited_timed)
    }

    /// See [`CallExtra::lambda_args`].
    pub fn lambda_args(&self) -> &[(usize, CtxId)] {
        self.extra.as_ref().map_or(&[], |e| &e.lambda_args)
    }

    /// See [`CallExtra::module`].
    pub fn module(&self) -> Option<&str> {
        self.extra.as_ref().and_then(|e| e.module.as_deref())
    }

    /// See [`CallExtra::overload`].
    pub fn overload(&self) -> Option<u32> {
        self.extra.as_ref().and_then(|e| e.overload)
    }

    /// The rare fields, to set one (made on first use).
    pub fn extra_mut(&mut self) -> &mut CallExtra {
        self.extra.get_or_insert_with(Box::default)
    }
}

/// The field a getter's name says it returns: `getThreadPool` → `threadPool`,
/// `isReady` → `ready` (not `get`, `getter`, `isolate`).
pub fn getter_field(method: &str) -> Option<String> {
    let rest = method
        .strip_prefix("get")
        .or_else(|| method.strip_prefix("is"))
        .filter(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))?;
    let mut field = rest.to_string();
    field[..1].make_ascii_lowercase();
    Some(field)
}

/// A named item (class, method, function) that encloses code, for fingerprints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Item {
    pub span: Span,
    pub name: Box<str>,
}

/// An item put into a queue or sent on a channel.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct QueueSend {
    /// See [`Queue::keys`].
    pub key: String,
    pub span: Span,
    pub ctx: CtxId,
    /// Java: made only past an admission check (`if (pending.incrementAndGet() > max)
    /// throw ..;`, a guard method), or followed by a wait on the item it put
    /// (`token.waitForCompletion()`): the queue cannot grow past what it admits. Rust: the
    /// item carries a oneshot reply sender: each caller waits for its answer, so it
    /// holds at most one item.
    #[serde(default)]
    pub guarded: bool,
}

/// A pool passed as an argument to a project constructor (`<init>`) or method: the
/// parameter's pool is that pool when every call the project sees passes the same one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PoolArg {
    /// The class whose constructor or method is called.
    pub target: std::sync::Arc<TypeRef>,
    pub method: Box<str>,
    pub index: usize,
    pub pool: PoolKey,
    /// For a constructor: the field of the caller's class the new object is stored in
    /// (`runner = new TaskRunner(pool)`: `field:pkg.Broker.runner`).
    #[serde(default)]
    pub holder: Option<Box<str>>,
}

/// `Call::callee_owner` of a `super.m()` call: the superclass's method, never the
/// caller's own override.
pub const SUPER_CALL: &str = "super";

/// A method whose result is a pool it creates: every call makes a new pool with
/// this bound and, unless a parameter supplies it, this rejection policy.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PoolFactory {
    /// `<class fq>.<method>`.
    pub method: String,
    /// Formal parameters, to tell overloads apart.
    pub arity: usize,
    /// The factory itself installs a caller-runs policy.
    pub caller_runs: bool,
    /// The parameter whose value becomes the rejection handler.
    pub policy_param: Option<usize>,
    pub bounded: bool,
    /// It builds a single-thread pool (`Executors.newSingleThreadScheduledExecutor(..)`).
    #[serde(default)]
    pub single: bool,
}

/// The key prefix of a [`FactoryUse`] that is a factory's own `return` of another
/// factory's call (`return newPool(n, prefix)`): `delegate:<class fq>.<method>/<arity>`.
pub const DELEGATE: &str = "delegate:";

/// `pool = Pools.newPool(.., new CallerRunsPolicy())`: a field or local holding the
/// result of a project method call, with the caller-runs handlers it passes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FactoryUse {
    /// The field or local the result is assigned to.
    pub key: PoolKey,
    pub name: String,
    /// The call.
    pub span: Span,
    /// The class whose method is called.
    pub target: std::sync::Arc<TypeRef>,
    pub method: Box<str>,
    pub arity: usize,
    /// Arguments that are caller-runs handlers: (index, span).
    pub caller_runs_args: Vec<(usize, Span)>,
}

/// A Spring `@Async` method: calling it submits to the named executor bean.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AsyncMethod {
    pub class: String,
    pub method: String,
    pub executor: Option<String>,
    pub span: Span,
}

/// A network client created without the settings that bound it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Client {
    pub span: Span,
    /// Where it is created.
    pub ctx: CtxId,
    /// "`HttpClient.newHttpClient()` creates .. without ..: .."
    pub message: String,
    pub help: String,
    /// Rust: bound to a variable that is only used, in the same function, as the
    /// receiver of its requests (never stored, returned, moved or captured); Java: a
    /// try-with-resources resource (not on a dedicated thread's loop). Its requests
    /// run where it is created.
    pub local: bool,
    /// Java: calls on the field the client is stored in (its requests), wherever in
    /// the class they are made: the request's context sets the level, not the
    /// creation's (a client built in a constructor and used per request is hot).
    #[serde(default)]
    pub requests: Vec<Span>,
    /// Rust: a handshake awaited in a server's accept loop: it stalls the server
    /// whatever reaches the loop, so it is reported in any context.
    #[serde(default)]
    pub serves: bool,
    /// A connect the operating system ends (the catalog's `os_bounded`).
    #[serde(default)]
    pub os_bounded: bool,
    /// Rust: made in `impl Default for T` (`fn default()`): a library's default,
    /// for its users to replace with a configured client.
    #[serde(default)]
    pub in_default: bool,
    /// Java: made in a constructor beside another that takes a client of that type
    /// (`Store(host)` beside `Store(host, CloseableHttpClient)`): a library's
    /// convenience default, unless the project's own code calls that constructor.
    #[serde(default)]
    pub default_ctor: bool,
    /// Java: the client is what an `@Bean` method returns (an index into
    /// [`FileFacts::client_beans`]): its requests are made wherever the bean is
    /// injected ([`FileFacts::client_fields`]).
    #[serde(default)]
    pub bean: Option<u32>,
    /// Java: the client is what a method returns (`Factory.create`, class simple name
    /// and method), with the catalog entry it was judged by: bounded where every
    /// project class that takes it from there bounds its requests one by one.
    #[serde(default)]
    pub returned_by: Option<(Box<str>, Box<str>)>,
    /// Java: for an entry with an `interceptor`, the project classes its method makes
    /// (`new GrpcDeadlineInterceptor(..)`): bounded when one sets what the client lacks
    /// on every call (`TypeDecl::interceptor_sets`).
    #[serde(default)]
    pub made_with: Vec<std::sync::Arc<TypeRef>>,
    /// Rust: the builder is handed to a project function that builds it
    /// (`build_safe_client(Client::builder())`): a client only if that call resolves
    /// to a [`Finisher`] that sets none of the settings it lacks.
    #[serde(default)]
    pub built_by: Option<BuiltBy>,
    /// Rust: a builder its function returns unbuilt (`fn api_builder() ->
    /// reqwest::ClientBuilder`), with the settings any of which would bound it: a
    /// client where a caller in another file builds it with none of them
    /// ([`BuilderUse`]).
    #[serde(default)]
    pub unbuilt: Option<Vec<Box<str>>>,
    /// Rust: made in the initializer of this static (`static CLIENT: Lazy<Client> =
    /// Lazy::new(Client::new)`): bounded when every request the crate starts on it
    /// ([`FileFacts::static_requests`]) sets a per-request timeout.
    #[serde(default)]
    pub static_item: Option<Box<str>>,
    /// Rust: a built client handed whole to a path call (`PeerClient::new(http, ..)`,
    /// the call's span and the argument's index) and used for no request here:
    /// bounded when that call resolves to a [`Keeper`] whose file times every request.
    #[serde(default)]
    pub handed_to: Option<(Span, u8)>,
}

/// Rust: a builder a function of another file returns, built here (`let b =
/// http::api_builder(); b.build()`): the call that returns it and what this code sets.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuilderUse {
    pub ctx: CtxId,
    pub call: Span,
    pub sets: Vec<Box<str>>,
}

/// Where a client builder is handed to be built: the call (its span, in the
/// client's context), which argument, and the settings any of which would bound it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BuiltBy {
    pub call: Span,
    pub arg: u8,
    pub bounds: Vec<Box<str>>,
}

/// A function that builds the client builder it is given as parameter `param`,
/// with the settings it adds on the way (`redirect`, `dns_resolver`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finisher {
    pub ctx: CtxId,
    pub param: u8,
    pub sets: Vec<Box<str>>,
    pub span: Span,
}

/// Rust: a function that keeps the client it is given as parameter `param` in a field
/// of its struct, and whether every request its file starts on a field sets a
/// per-request timeout (`self.client.put(url).timeout(d)`): a client handed to it is
/// bounded there ([`Client::handed_to`]). Java: a method that sets what a per-call
/// client entry needs on its parameter (`stub.withDeadlineAfter(..)`, `timed`), for
/// the client beans fields hand to it ([`ClientField::handed`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Keeper {
    pub ctx: CtxId,
    pub param: u8,
    pub timed: bool,
    pub span: Span,
    /// The parameter is a channel sender (`fn new(sender: UnboundedSender<Cmd>) -> Self
    /// { Self { sender } }`): the key sends on the field use (`field:Store.sender`), for
    /// the channel a caller hands it ([`Queue::kept_by`]). `None` for a client.
    #[serde(default)]
    pub sender: Option<Box<str>>,
}

/// An `@Bean` method whose declared type is a client the catalog knows (`makes`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientBean {
    /// The declared type, fully qualified (`org.springframework.web.client.RestTemplate`).
    pub ty: Box<str>,
    /// Its bean names (`@Bean("a")`, else the method name).
    pub names: Vec<Box<str>>,
}

/// Java: a field of a client type its class never creates a value for (Spring
/// injects it, or a constructor takes it), with the requests made on it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientField {
    /// The declared type, fully qualified.
    pub ty: Box<str>,
    /// The field's name, or its `@Qualifier`/`@Resource(name)` bean name.
    pub bean: Box<str>,
    /// Named by a qualifier: only the bean of that name is injected.
    pub qualified: bool,
    /// Calls on the field that may send a request (`rest.exchange(..)`).
    pub requests: Vec<Span>,
    /// Calls the field is an argument of (the call's span, the argument's index):
    /// `support.call("op", stub, s -> s.get(q))` hands it to a project method.
    #[serde(default)]
    pub handed: Vec<(Span, u8)>,
    /// A call on the field sets what a per-call client entry needs on that call
    /// (`stub.withDeadlineAfter(..).get(q)`).
    #[serde(default)]
    pub per_call: bool,
}

/// Java: a client a class takes from a project method (`Factory.create`, the class's
/// simple name and the method), and the client entries (ids) whose per-request bounds
/// (`setConfig(rc)` with timeouts) the class sets on its requests.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClientSource {
    pub from: Box<str>,
    pub bounded: Vec<Box<str>>,
    pub span: Span,
}

/// A suppression written in the source.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Suppression {
    /// Rule ids; empty means every rule.
    pub rules: Vec<String>,
    pub scope: SuppressionScope,
    /// Where the suppression itself is written (for `--report-unused-allows`).
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SuppressionScope {
    /// Findings whose primary span starts on this 1-based line.
    Line(usize),
    /// The whole file.
    File,
    /// Findings whose primary span lies inside this byte range.
    Range(Span),
}
