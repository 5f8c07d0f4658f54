//! The catalog's schema: the tables of `rules/<language>.toml`, as serde reads them.

use std::collections::BTreeMap;

use serde::Deserialize;

/// A queue, channel or executor whose creation sets (or fails to set) a bound.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueEntry {
    /// Java: a class created with `new` (fully qualified).
    #[serde(default)]
    pub new: Option<String>,
    /// A function or static factory: `java.util.concurrent.Executors.newFixedThreadPool`,
    /// `std::sync::mpsc::channel`.
    #[serde(default)]
    pub call: Option<String>,
    /// Index of the argument that bounds it; with no such argument it is unbounded.
    #[serde(default)]
    pub capacity_arg: Option<usize>,
    /// A setter that bounds the object after construction (`setQueueCapacity`).
    #[serde(default)]
    pub capacity_setter: Option<String>,
    /// Calls that build the queue from the settings made so far (`initialize`): a
    /// capacity set after one, in the same method, comes too late.
    #[serde(default)]
    pub initializers: Vec<String>,
    /// The setters of its core and maximum thread counts (`setCorePoolSize`,
    /// `setMaxPoolSize`): with no capacity set, the maximum never applies.
    #[serde(default)]
    pub size_setters: Option<[String; 2]>,
    /// What grows without bound: `queue` (default) or `threads`.
    #[serde(default)]
    pub grows: Grows,
    /// Why it is unbounded, completing "`<call>` ...".
    #[serde(default = "default_why")]
    pub why: String,
    /// The fix, shown as `help`.
    pub help: String,
}

fn default_why() -> String {
    "has no capacity bound".into()
}

/// What an unbounded queue entry lets grow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grows {
    #[default]
    Queue,
    Threads,
    /// A scheduler's delay queue: it holds timers, and no API bounds it.
    Timers,
}

/// What kind of blocking a catalogued wait is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaitCatalogKind {
    /// Waiting for a future, join handle or result channel.
    #[default]
    Result,
    /// Waiting on a synchronizer another thread must release.
    Synchronizer,
    /// Blocks a thread until a future completes (`futures::executor::block_on`).
    BlockOn,
    /// Runs blocking work on the calling runtime thread (`block_in_place`).
    CallerRuns,
}

/// Where a submission's task runs (Rust).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunsOn {
    /// On the pool.
    #[default]
    Pool,
    /// On the pool while the caller waits (`install`).
    Install,
    /// A runtime task.
    Async,
    /// A dedicated thread.
    Thread,
    /// Inline; what it spawns is joined by the scope.
    Scope,
}

/// A call that blocks the calling thread.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaitEntry {
    /// Receiver types (`@group`, fully-qualified names, `*` for any).
    #[serde(default)]
    pub on: Vec<String>,
    #[serde(default)]
    pub method: Option<String>,
    /// A free function instead of a method (Rust: `futures::executor::block_on`).
    #[serde(default)]
    pub call: Option<String>,
    /// Argument counts that wait with no time bound.
    #[serde(default)]
    pub args: Vec<usize>,
    /// `result` (default), `synchronizer`, `block_on` (runs a future to completion on
    /// this thread), `caller_runs` (blocks the calling runtime thread).
    #[serde(default)]
    pub kind: WaitCatalogKind,
    /// Only a wait outside a dedicated consumer loop counts.
    #[serde(default)]
    pub request_path: bool,
    /// Methods or functions where this wait is fine (`main`, shutdown paths).
    #[serde(default)]
    pub exempt_in: Vec<String>,
    /// Blocks only when the queue is bounded (`put`): skipped on a known-unbounded queue.
    #[serde(default)]
    pub bounded_only: bool,
    /// A permit of a throttle (`Semaphore.acquire()`): waiting is admission control;
    /// in a pool's own tasks it paces the pool by design.
    #[serde(default)]
    pub permit: bool,
    /// Runs its closure argument on the calling thread after taking that thread off
    /// the async runtime (`block_in_place`): the closure is not async code.
    #[serde(default)]
    pub section: bool,
    /// What a synchronizer wait lasts until, for its message, when not another
    /// thread's release (`Process.waitFor()`: "the child process exits").
    #[serde(default)]
    pub until: Option<String>,
    /// Java: the receiver's methods whose stream, read on this thread before the wait,
    /// ends it (`p.getInputStream()` read to its end: the process has exited by then).
    /// A stream handed to a project object (a pump thread) is read elsewhere.
    #[serde(default)]
    pub drained_by: Vec<String>,
    /// Rust: a child process's wait counts only when the program it runs (the literal
    /// `Command::new` names, by file name) is one of these (`@group`s allowed): one
    /// that talks to a remote. A local tool (`ip route add`) exits when the kernel is
    /// done, and a program named by a variable is unknown: neither is reported.
    #[serde(default)]
    pub programs: Vec<String>,
    /// Java: counts only when the receiver's pool is known (a completion service made
    /// here over a pool): one a project call returns may bound its own tasks.
    #[serde(default)]
    pub known_pool: bool,
    pub help: String,
}

/// What a call returns, for typing receivers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReturnEntry {
    #[serde(default)]
    pub on: Vec<String>,
    /// Java: a class whose static methods these are.
    #[serde(default)]
    pub r#static: Option<String>,
    /// Rust: free functions (canonical paths).
    #[serde(default)]
    pub call: Vec<String>,
    #[serde(default)]
    pub methods: Vec<String>,
    /// The returned type; `self` keeps the receiver's type (builders).
    #[serde(default)]
    pub r#type: Option<String>,
    /// The result is (or wraps) the receiver's first type argument (the one at
    /// `element_arg`, when given: `Map.Entry<K, V>.getValue()` is argument 1).
    #[serde(default)]
    pub element: bool,
    #[serde(default)]
    pub element_arg: usize,
    /// Rust: the returned tuple's element that has `type` (`(tx, rx)` -> 1).
    #[serde(default)]
    pub tuple_index: Option<usize>,
    /// Java: the element type of the returned collection (`invokeAll` -> `Future`).
    #[serde(default)]
    pub element_type: Option<String>,
    /// The result is already complete (`invokeAll`'s futures are all done).
    #[serde(default)]
    pub complete: bool,
}

/// A call that hands a task to a pool or thread.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitEntry {
    #[serde(default)]
    pub on: Vec<String>,
    #[serde(default)]
    pub r#static: Option<String>,
    #[serde(default)]
    pub call: Vec<String>,
    #[serde(default)]
    pub methods: Vec<String>,
    /// Java: the executor is the last argument when there are more than this many.
    #[serde(default)]
    pub executor_after: Option<usize>,
    /// The pool every call of this entry submits to (`rayon-global`, `tokio-blocking`;
    /// Java: a library's own pool, `hutool-global`).
    #[serde(default)]
    pub pool: Option<String>,
    /// How messages name that pool.
    #[serde(default)]
    pub pool_name: Option<String>,
    /// Rust: where the task runs: `pool` (default), `install` (on the pool while the
    /// caller waits), `async` (a runtime task), `thread` (a dedicated thread), `scope`
    /// (inline; what it spawns is joined by the scope).
    #[serde(default)]
    pub runs: RunsOn,
    /// Rust: the type of the closure's first parameter (`rayon::scope(|s| ..)`).
    #[serde(default)]
    pub param_type: Option<String>,
}

/// Creating a thread pool.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolEntry {
    #[serde(default)]
    pub new: Option<String>,
    #[serde(default)]
    pub call: Option<String>,
    #[serde(default)]
    pub queue_arg: Option<usize>,
    /// Every task gets a thread of its own (`newCachedThreadPool`, virtual threads):
    /// a task waiting for a child on the same pool cannot starve it.
    #[serde(default)]
    pub elastic: bool,
    /// One thread runs every task (`newSingleThreadExecutor`).
    #[serde(default)]
    pub single: bool,
    /// The argument that gives the (maximum) thread count: `1` makes a single thread.
    #[serde(default)]
    pub threads_arg: Option<usize>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FutureRules {
    #[serde(default)]
    pub bounding: Vec<String>,
    #[serde(default)]
    pub continuations: Vec<String>,
    /// Methods of a combination of futures (`Futures.whenAllComplete(a, b).call(..)`)
    /// whose lambdas run once all of them completed: continuations of an `all_of`
    /// result only (the names are too common to trust on other receivers).
    #[serde(default)]
    pub combined_continuations: Vec<String>,
    #[serde(default)]
    pub all_of: Vec<String>,
    #[serde(default)]
    pub done_checks: Vec<String>,
    /// Assertions that throw unless their first argument holds
    /// (`Preconditions.checkState(f.isDone())`): past one on a done check, the
    /// future is complete for the rest of the block.
    #[serde(default)]
    pub done_asserts: Vec<String>,
    /// A guard that proves a queue holds an element when negated:
    /// `if (!q.isEmpty()) { q.take(); }` takes what is there.
    #[serde(default)]
    pub empty_checks: Vec<String>,
    /// A method with one of these names implements a blocking API: the waits in
    /// it are its own implementation (`get()` delegating to `inner.get()`).
    #[serde(default)]
    pub blocking_apis: Vec<String>,
    /// Words (lowercase) naming a timeout value in a condition.
    #[serde(default)]
    pub timeout_words: Vec<String>,
    /// Future types that complete (exceptionally) on their own deadline: a client's
    /// invocation future with a call timeout. Waits on them, or on `allOf` of them,
    /// are bounded.
    #[serde(default)]
    pub bounded_types: Vec<String>,
    /// Client types whose calls return futures that the client's own I/O timeouts
    /// bound (an AWS SDK async client, Lettuce async commands): waiting on them waits
    /// for I/O, which `missing_client_timeout` judges. `*` matches any run of characters.
    #[serde(default)]
    pub io_clients: Vec<String>,
    /// Client types whose calls wait forever unless configured (Spring `WebClient`):
    /// a wait on a chain made from one is unbounded, even with no pool work in it.
    #[serde(default)]
    pub unbounded_io_clients: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policies {
    #[serde(default)]
    pub caller_runs: Vec<String>,
    #[serde(default)]
    pub setters: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventLoopEntry {
    pub framework: String,
    /// Handler types: their `methods` run on the event loop.
    #[serde(default)]
    pub types: Vec<String>,
    #[serde(default)]
    pub methods: Vec<String>,
    /// Of `methods`, those that run once per connection (`channelInactive`), not per
    /// message: hot, but paced (what they queue does not grow with load).
    #[serde(default)]
    pub connection_events: Vec<String>,
    /// Methods that register a lambda or a method reference to run on the event loop
    /// (`router.get(..).handler(ctx -> ..)`, `route().GET("/x", this::list)`)...
    #[serde(default)]
    pub registrars: Vec<String>,
    /// ... when called on a chain rooted at a value of one of these types.
    #[serde(default)]
    pub registrar_types: Vec<String>,
}

/// Whether an entry point starts hot or cold code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryHeat {
    Hot,
    Cold,
}

/// An entry point (revision 2 of the spec): methods where code starts to run per
/// request, message or event (`hot`), or where waiting pins nothing that serves
/// traffic (`cold`: `main`, startup hooks, shutdown paths). Every non-empty
/// criterion must hold; with only `methods`, any method of that name matches.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryPoint {
    pub heat: EntryHeat,
    /// Completes "reached from ..": "`@PostMapping` handler".
    pub why: String,
    /// Annotations (Java, fully qualified) or attributes (Rust, last segment) on the method.
    #[serde(default)]
    pub method_annotations: Vec<String>,
    /// Annotations on the class: with no `methods`, every public method matches.
    #[serde(default)]
    pub class_annotations: Vec<String>,
    /// Direct supertypes (fully qualified; Rust: the implemented trait's last segment).
    #[serde(default)]
    pub supertypes: Vec<String>,
    /// Supertypes whose dotted name ends with one of these: `ImplBase` for generated
    /// gRPC bases, `.Iface` for the interface Thrift nests in a service
    /// (`Metastore.Iface`, also imported as `Iface`; not `SegmentStepIface`).
    #[serde(default)]
    pub supertype_suffixes: Vec<String>,
    /// Method names; empty: every public method of a matching class.
    #[serde(default)]
    pub methods: Vec<String>,
    /// Method names this entry never matches: a service class's lifecycle methods
    /// (`close()` from `AutoCloseable`), which are no requests.
    #[serde(default)]
    pub except_methods: Vec<String>,
    /// Rust: functions passed by name to these calls are handlers (`get(list_orders)`).
    #[serde(default)]
    pub registrars: Vec<String>,
    /// Rust: files under these path segments are binaries (`src/bin`, `xtask`, `build.rs`).
    #[serde(default)]
    pub paths: Vec<String>,
    /// Java: files of a module (a directory above `src/`) whose name has one of these
    /// words (`titus-cli`, `admin_cli`): every method of them is such an entry.
    #[serde(default)]
    pub module_words: Vec<String>,
    /// Rust: methods of a trait impl taking a parameter of one of these types (canonical
    /// paths: `tonic::Request`): the service traits code generators write.
    #[serde(default)]
    pub param_types: Vec<String>,
    /// Rust: methods of a trait impl returning one of these types (canonical paths:
    /// `jsonrpsee::core::RpcResult`): the server traits RPC macros generate.
    #[serde(default)]
    pub return_types: Vec<String>,
    /// Hot, but run on a schedule (`@Scheduled`, a Quartz job): its work does not
    /// grow with requests (`unbounded_queue` does not count it as a per-request producer).
    #[serde(default)]
    pub paced: bool,
    /// A scheduled job's run, on a thread of the job's scheduler: an untimed wait there
    /// holds back the job's next run, not requests (`unbounded_join` reports it only
    /// with `--pedantic`).
    #[serde(default)]
    pub job: bool,
    /// A job (as `job`) when the project sizes its scheduler to these methods: the
    /// scheduler threads it sets (`setPoolSize(4)` on a `[spring] schedulers` type, a
    /// literal) are at least as many as the methods this entry matches. Spring's
    /// default scheduler has one thread, which every `@Scheduled` method shares.
    #[serde(default)]
    pub job_when_sized: bool,
    /// Hot for every message or event it is handed (a Kafka listener, a logging
    /// appender), not for a request a client waits on: handing each one to a pool's
    /// queue and dropping the handle gives up the backpressure the feed had
    /// (`unbounded_queue` reports such fills; one a request handler drops is a note).
    #[serde(default)]
    pub per_event: bool,
    /// Rust, with `registrars`: only in a method chain that starts at a call or a
    /// macro of one of these crates (`warp::path!(..).and_then(handler)`), where a
    /// method as common as `and_then` registers a handler.
    #[serde(default)]
    pub chain_roots: Vec<String>,
    /// With `registrars`: a closure given to the registrar is a handler too (the
    /// functions it calls), without a route string (`service_fn(|req| serve(req))`).
    #[serde(default)]
    pub closures: bool,
    /// Rust: `methods` name methods of any impl too, not only free functions
    /// (`RpcServer::shutdown`).
    #[serde(default)]
    pub in_impls: bool,
    /// Cold by name only (`close`, `destroy`): a method hot code calls is hot.
    #[serde(default)]
    pub yields: bool,
    /// Java: only methods declared with no parameters (a lifecycle `stop()`, not a
    /// domain operation `stop(jobId)`).
    #[serde(default)]
    pub no_params: bool,
    /// Java: only methods annotated `@Override` (a service interface's methods, not the
    /// implementing class's own `start()`).
    #[serde(default)]
    pub overrides: bool,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reactive {
    /// Operators that move the whole chain's work off the event loop (`subscribeOn`).
    #[serde(default)]
    pub off_loop: Vec<String>,
    /// Operators that move the operators after them off the event loop (`publishOn`).
    #[serde(default)]
    pub off_loop_after: Vec<String>,
    /// Methods whose lambda argument is called back for every item a stream emits
    /// (`observable.subscribe(msg -> ..)`): an entry point, hot per item.
    #[serde(default)]
    pub subscribers: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spring {
    #[serde(default)]
    pub bean: String,
    #[serde(default)]
    pub r#async: String,
    #[serde(default)]
    pub qualifiers: Vec<String>,
    /// Annotations that inject a field (`@Autowired`, `@Inject`, `@Resource`): when
    /// several beans have the field's type, the one named as the field is injected.
    #[serde(default)]
    pub injects: Vec<String>,
    /// Annotations on an application's main class (`@SpringBootApplication`): a project
    /// that has one is an application, whose code only its own calls reach.
    #[serde(default)]
    pub applications: Vec<String>,
    #[serde(default)]
    pub default_async_bean: String,
    /// Provider methods that bind by type (Guice's and Dagger's `@Provides`): a pool
    /// one of them returns is the pool injected wherever that type is, when it is the
    /// project's only provider of the type.
    #[serde(default)]
    pub providers: Vec<String>,
    /// Scheduler types whose thread count a project sets (`ThreadPoolTaskScheduler`).
    #[serde(default)]
    pub schedulers: Vec<String>,
    /// Their setters of the thread count (`setPoolSize`).
    #[serde(default)]
    pub scheduler_size: Vec<String>,
}

/// Rust: awaiting these types blocks the task until another task finishes.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Awaits {
    #[serde(default)]
    pub types: Vec<String>,
    /// Wrappers that bound an await: `tokio::time::timeout(d, fut)`.
    #[serde(default)]
    pub timeout_calls: Vec<String>,
    /// Methods that bound an await: `fut.timeout(d)`.
    #[serde(default)]
    pub timeout_methods: Vec<String>,
    /// Words (lowercase) naming a signal rather than a result (`shutdown_rx.await`).
    #[serde(default)]
    pub signal_words: Vec<String>,
    pub help: Option<String>,
}

/// Rust: wrappers that are transparent for typing (`Arc<T>`, `x.lock().unwrap()`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transparent {
    #[serde(default)]
    pub types: Vec<String>,
    #[serde(default)]
    pub methods: Vec<String>,
}

/// A network client: where it is created and what bounds it (`missing_client_timeout`).
/// The schema is documented in `rules/java.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientEntry {
    pub id: String,
    pub name: String,
    pub starts: Vec<String>,
    #[serde(default)]
    pub needs: Vec<String>,
    #[serde(default)]
    pub fixed: bool,
    #[serde(default)]
    pub min_args: usize,
    /// Only calls with at most this many arguments are starts (`HttpUtil.get(url)`,
    /// not `HttpUtil.get(url, timeout)`).
    #[serde(default)]
    pub max_args: Option<usize>,
    /// Java: the timeout argument of the overloads past `max_args`: one given as a
    /// literal `-1` or `0` (no timeout) keeps the call a start
    /// (`HttpUtil.downloadFileFromUrl(url, dest, -1, progress)`).
    #[serde(default)]
    pub untimed_arg: Option<usize>,
    /// Java: the need that bounds only reads (`setReadTimeout`), and the calls that read
    /// (`reads`): a connection its method only connects (a port or TLS probe that sets
    /// its connect timeout and calls none of `reads`) needs no read timeout.
    #[serde(default)]
    pub read_need: Option<String>,
    #[serde(default)]
    pub reads: Vec<String>,
    /// Java: the argument naming the host a connect goes to (`new Socket(host, port)`,
    /// `s.connect(new InetSocketAddress(host, port))`): a loopback host answers or
    /// refuses at once, so such a connect is no finding.
    #[serde(default)]
    pub loopback_arg: Option<usize>,
    /// Java: the argument naming the URL a download reads: a classpath resource
    /// (`getResource(..)`, `toURI().toURL()`, a `file:` or `jar:` literal) is read
    /// from disk, so such a download is no finding.
    #[serde(default)]
    pub url_arg: Option<usize>,
    /// Java: `url_arg` must be known to be a `java.net.URL` (made there, `toURL()`,
    /// or a local, parameter or field declared so): the method has overloads of the
    /// same arity for a file or a stream (`JWKSet.load(File)`).
    #[serde(default)]
    pub url_typed: bool,
    #[serde(default)]
    pub config_arg: Option<String>,
    #[serde(default)]
    pub sent_by: Vec<String>,
    #[serde(default)]
    pub ends: Option<String>,
    #[serde(default)]
    pub internal: bool,
    #[serde(default)]
    pub forbid: Vec<String>,
    /// Keys a `m(*)` need does not count (written as they start): a library's own
    /// constants for settings that are no timeout (`Context.PROVIDER_URL`).
    #[serde(default)]
    pub standard_keys: Vec<String>,
    #[serde(default)]
    pub wrapped_by: Vec<String>,
    /// Rust: connector types that carry timeouts (`hyper_timeout::TimeoutConnector`):
    /// a client built on one (`.build(connector)`) is bounded by them.
    #[serde(default)]
    pub connectors: Vec<String>,
    /// Java: `m=id`: handing the client to `x.m(client)` where `x` is a configured `id`
    /// value, or to a constructor that starts an `id` value configured there (`new
    /// HttpComponentsClientHttpRequestFactory(client)` with timeouts set): that value's
    /// timeouts bound its requests.
    #[serde(default)]
    pub handed_to: Vec<String>,
    /// Java: only when the created value is cast to (or declared as) this type, or
    /// one of the `|`-separated types.
    #[serde(default)]
    pub cast: Option<String>,
    /// Reported only when some of `needs` is met: a value that may not talk to a
    /// network at all (a `URLConnection` to a `file:` or `jar:` URL) shows that it
    /// does by the one timeout it sets.
    #[serde(default)]
    pub when_partly_set: bool,
    /// With `when_partly_set`: calls that show the value talks to a network even with
    /// none of `needs` met (`setRequestProperty` on a `URLConnection`: request headers
    /// mean HTTP).
    #[serde(default)]
    pub remote_by: Vec<String>,
    /// With `when_partly_set`: what its receiver may be made by from text in its class
    /// (`new:java.net.URL` for `new URL(url).openConnection()`, or `url` assigned that;
    /// `.toURL()` of one is the same): a URL built from a value (a request's, a
    /// callback's) names a server; one from a literal or a `File` may not.
    #[serde(default)]
    pub remote_from: Vec<String>,
    /// Java: an interceptor type (`io.grpc.ClientInterceptor`): a project class of it
    /// that calls one of `needs`, made in the method that makes the client (handed to
    /// its channel), sets that on every call.
    #[serde(default)]
    pub interceptor: Option<String>,
    /// Java: a command handed to a project method may be configured there
    /// (`setCredentials(pull, params)`): bounded when that method, found in the same
    /// file, names one of `needs`; unknown (no finding) when it is not in the file.
    #[serde(default)]
    pub helpers_configure: bool,
    /// Java: the method that turns the builder a start makes into the client
    /// (`build`): a builder handed unbuilt to a project constructor or method is
    /// configured there; no finding unless that code, found in the same file, names
    /// none of `needs`.
    #[serde(default)]
    pub built_by: Option<String>,
    /// Java: `m=id` calls that bound each request instead (`request.setConfig(rc)`
    /// with a configured `RequestConfig`): one in the client's class bounds it.
    #[serde(default)]
    pub per_request: Vec<String>,
    /// Java: the types of the client it makes (fully qualified, or a pattern with one
    /// `*`), besides those its `new:` starts name: an `@Bean` method of such a type is
    /// a client bean, and its requests are made where it is injected (see
    /// `Indexed::bean_client_type`).
    #[serde(default)]
    pub makes: Vec<String>,
    /// The call sends the request itself (`reqwest::get(url)`): the client lives only
    /// for it, so its request runs where the call is made.
    #[serde(default)]
    pub one_shot: bool,
    /// A connect the operating system ends (a dead host costs its connect timeout,
    /// minutes, not forever): on a thread dedicated to a retry loop, waiting is the
    /// thread's job.
    #[serde(default)]
    pub os_bounded: bool,
    /// `<type fq>.<method>`: a client made in that method of a class extending the
    /// type keeps the type's contract (`SocketFactory.createSocket(host, port)`
    /// connects as the JDK's does; callers wanting a timeout use `createSocket()`
    /// and `connect(addr, timeout)`): not reported.
    #[serde(default)]
    pub contract_of: Vec<String>,
    pub missing: String,
    pub default: String,
    /// What `default` says when only some needs are unmet and it speaks of all
    /// (`each defaults to 0` -> `it defaults to 0`).
    #[serde(default)]
    pub default_one: Option<String>,
    pub help: String,
}

impl ClientEntry {
    /// Java: a request can be bounded one by one with a configuration object
    /// (`per_request` holds an `m=id` call: `request.setConfig(rc)`).
    pub fn configured_per_request(&self) -> bool {
        self.per_request.iter().any(|p| p.contains('='))
    }
}

impl EntryPoint {
    /// Whether a supertype, as written or fully qualified, has one of the entry's
    /// `supertype_suffixes` (`CacheMXBean`; `.Iface` matches `Metastore.Iface` and an
    /// imported `Iface`).
    pub fn suffix_names(&self, supertype: &str) -> bool {
        let simple = supertype.rsplit(['.', '$']).next().unwrap_or(supertype);
        self.supertype_suffixes
            .iter()
            .any(|x| supertype.ends_with(x.as_str()) || x.strip_prefix('.') == Some(simple))
    }
}

/// How a language reports findings whose code runs in an unknown context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnknownContext {
    /// At `warning` at most (revision 2's default).
    Warning,
    /// Like cold code: a note with `--pedantic`, else not reported.
    Pedantic,
}

/// Server-side handshakes (`LangCatalog::handshakes`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Handshakes {
    #[serde(default)]
    pub functions: Vec<String>,
    #[serde(default)]
    pub methods: Vec<String>,
    #[serde(default)]
    pub acceptor_words: Vec<String>,
    /// Crates whose acceptors handshake in `accept`: a receiver of a known type from
    /// elsewhere (the project's own `TlsAcceptor` that handshakes lazily) is not one.
    #[serde(default)]
    pub acceptor_crates: Vec<String>,
    #[serde(default)]
    pub help: String,
}

/// One language's catalog.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LangCatalog {
    /// How findings in code of unknown context (reached from no entry point, not
    /// cold) are reported: `warning` (the default) or only with `--pedantic`.
    #[serde(default)]
    pub unknown_context: Option<UnknownContext>,
    /// Rules whose unknown-context findings stay warnings when `unknown_context` is
    /// `pedantic` (the ones reviewers act on there).
    #[serde(default)]
    pub unknown_reported: Vec<String>,
    #[serde(default)]
    pub queues: Vec<QueueEntry>,
    #[serde(default)]
    pub groups: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub waits: Vec<WaitEntry>,
    #[serde(default)]
    pub futures: FutureRules,
    #[serde(default)]
    pub returns: Vec<ReturnEntry>,
    #[serde(default)]
    pub submits: Vec<SubmitEntry>,
    #[serde(default)]
    pub pools: Vec<PoolEntry>,
    #[serde(default)]
    pub policies: Policies,
    #[serde(default)]
    pub event_loops: Vec<EventLoopEntry>,
    #[serde(default)]
    pub entry_points: Vec<EntryPoint>,
    #[serde(default)]
    pub reactive: Reactive,
    #[serde(default)]
    pub spring: Spring,
    #[serde(default)]
    pub awaits: Awaits,
    #[serde(default)]
    pub transparent: Transparent,
    #[serde(default)]
    pub clients: Vec<ClientEntry>,
    /// Java: constructors that take a fixed number of threads from an executor passed
    /// to them (Netty 3 channel factories): such an executor's bound does not matter.
    #[serde(default)]
    pub fixed_thread_users: Vec<String>,
    /// Java: static methods that wrap the executor given as their first argument
    /// (`MoreExecutors.listeningDecorator(pool)`): their pool is that argument's.
    #[serde(default)]
    pub executor_decorators: Vec<String>,
    /// Rust: traits whose `call` is a transport layer (tower `Service`): a client
    /// created there gets its timeouts from the stack it is composed into.
    #[serde(default)]
    pub layer_traits: Vec<String>,
    /// Rust: connection-pool manager traits (bb8, r2d2 `ManageConnection`) whose
    /// `connect` the pool runs under its checkout timeout (30 s by default): a client
    /// created there is bounded by the pool.
    #[serde(default)]
    pub pool_managers: Vec<String>,
    /// Rust: words in a static's name that make an untyped `NAME.spawn(..)` a rayon
    /// pool's (`INDEX_POOL`); other statics (a runtime, a connection) are not guessed.
    #[serde(default)]
    pub pool_name_hints: Vec<String>,
    /// Rust: prefixes of methods that register a callback for later (`set_consumer`,
    /// `on_close`): a boxed closure handed to one is kept, not run in the caller.
    #[serde(default)]
    pub callback_registrations: Vec<String>,
    /// Rust: methods that take a connector (`Endpoint::connect_with_connector(..)`):
    /// a connection made inside it gets the endpoint's connect timeout.
    #[serde(default)]
    pub connector_methods: Vec<String>,
    /// Java: role annotations (`RequiresRoles`, `PreAuthorize`): a handler whose every
    /// role named there is an administrator's serves an admin console, not traffic.
    #[serde(default)]
    pub admin_role_annotations: Vec<String>,
    /// Java: annotations of test hooks (`VisibleForTesting`, by simple name: Guava's,
    /// AndroidX's, a project's own): a method no code of the project calls is run only
    /// by tests, so it is cold, and what it makes exists only in tests.
    #[serde(default)]
    pub test_hook_annotations: Vec<String>,
    /// Rust: calls that make a server-wide request timeout (tower-http's
    /// `TimeoutLayer::new(..)`): a crate that builds one cancels its route handlers'
    /// futures when it fires, and with them the requests they await.
    #[serde(default)]
    pub request_timeouts: Vec<String>,
    /// Rust: methods of a middleware's `next` parameter that run the rest of the
    /// request (`next.run(req)` in axum, `next.call(req)` in actix-web): a crate whose
    /// middleware awaits one under a timeout wrapper has a server-wide request timeout.
    #[serde(default)]
    pub middleware_next: Vec<String>,
    /// Methods that put an item into a queue or channel (`offer`, `send`): where a
    /// queue is filled, for `unbounded_queue`'s producers.
    #[serde(default)]
    pub queue_puts: Vec<String>,
    /// Rust: macros whose bodies hold no code worth analysing (formatting, logging).
    #[serde(default)]
    pub skipped_macros: Vec<String>,
    /// Rust: crates that are not the project's own modules (`std`, `tokio`): a call
    /// `tokio::spawn(..)` is never a call of a project function named `spawn`.
    #[serde(default)]
    pub external_crates: Vec<String>,
    /// Rust: crates a facade re-exports under its own path (`rayon_core` is
    /// `rayon`, `futures_executor` is `futures::executor`): their paths are read as
    /// the facade's, so the catalog names each API once.
    #[serde(default)]
    pub crate_paths: BTreeMap<String, String>,
    /// Rust: desktop GUI frameworks (`tauri`, `eframe`): a crate that depends on one is
    /// an application one user runs, serving no traffic, so its code is cold.
    #[serde(default)]
    pub desktop_crates: Vec<String>,
    /// Rust: handshakes a server performs on each accepted connection: functions
    /// (`accept_async`, by last path segment) and one-argument methods of acceptors
    /// (`accept` on a receiver whose type or name holds one of `acceptor_words`).
    /// Awaited without a timeout in the accept loop itself, one stalled peer stops it.
    #[serde(default)]
    pub handshakes: Handshakes,
    /// Rust: embedded databases (`rusqlite`, `sled`): a file that uses one wraps its
    /// calls in `block_in_place` as tokio advises for local synchronous work.
    #[serde(default)]
    pub local_store_crates: Vec<String>,
    /// Methods whose success admits one caller at a time (`compareAndSet`, `tryLock`):
    /// work submitted only past such a guard cannot pile up in a queue.
    #[serde(default)]
    pub guard_methods: Vec<String>,
    /// Java: methods by which a task releases a synchronizer its submitter waits on
    /// (`latch.countDown()`): that wait waits for the task.
    #[serde(default)]
    pub release_methods: Vec<String>,
}

impl LangCatalog {
    pub(super) fn extend(&mut self, other: LangCatalog) {
        if other.unknown_context.is_some() {
            self.unknown_context = other.unknown_context;
        }
        self.unknown_reported.extend(other.unknown_reported);
        self.queues.extend(other.queues);
        for (k, v) in other.groups {
            self.groups.entry(k).or_default().extend(v);
        }
        self.waits.extend(other.waits);
        self.returns.extend(other.returns);
        self.submits.extend(other.submits);
        self.pools.extend(other.pools);
        self.event_loops.extend(other.event_loops);
        self.entry_points.extend(other.entry_points);
        self.policies.caller_runs.extend(other.policies.caller_runs);
        self.policies.setters.extend(other.policies.setters);
        self.awaits.types.extend(other.awaits.types);
        self.awaits.timeout_calls.extend(other.awaits.timeout_calls);
        self.awaits
            .timeout_methods
            .extend(other.awaits.timeout_methods);
        self.awaits.signal_words.extend(other.awaits.signal_words);
        let (f, o) = (&mut self.futures, other.futures);
        f.bounding.extend(o.bounding);
        f.continuations.extend(o.continuations);
        f.combined_continuations.extend(o.combined_continuations);
        f.all_of.extend(o.all_of);
        f.done_checks.extend(o.done_checks);
        f.done_asserts.extend(o.done_asserts);
        f.empty_checks.extend(o.empty_checks);
        f.blocking_apis.extend(o.blocking_apis);
        f.timeout_words.extend(o.timeout_words);
        f.bounded_types.extend(o.bounded_types);
        f.io_clients.extend(o.io_clients);
        f.unbounded_io_clients.extend(o.unbounded_io_clients);
        self.reactive.off_loop.extend(other.reactive.off_loop);
        self.reactive
            .off_loop_after
            .extend(other.reactive.off_loop_after);
        self.reactive.subscribers.extend(other.reactive.subscribers);
        self.transparent.types.extend(other.transparent.types);
        self.transparent.methods.extend(other.transparent.methods);
        self.spring.qualifiers.extend(other.spring.qualifiers);
        self.spring.injects.extend(other.spring.injects);
        self.spring.applications.extend(other.spring.applications);
        self.spring.schedulers.extend(other.spring.schedulers);
        self.spring
            .scheduler_size
            .extend(other.spring.scheduler_size);
        self.clients.extend(other.clients);
        self.fixed_thread_users.extend(other.fixed_thread_users);
        self.executor_decorators.extend(other.executor_decorators);
        self.layer_traits.extend(other.layer_traits);
        self.pool_managers.extend(other.pool_managers);
        let (h, o) = (&mut self.handshakes, other.handshakes);
        h.functions.extend(o.functions);
        h.methods.extend(o.methods);
        h.acceptor_words.extend(o.acceptor_words);
        h.acceptor_crates.extend(o.acceptor_crates);
        if !o.help.is_empty() {
            h.help = o.help;
        }
        self.connector_methods.extend(other.connector_methods);
        self.request_timeouts.extend(other.request_timeouts);
        self.middleware_next.extend(other.middleware_next);
        self.admin_role_annotations
            .extend(other.admin_role_annotations);
        self.test_hook_annotations
            .extend(other.test_hook_annotations);
        self.pool_name_hints.extend(other.pool_name_hints);
        self.callback_registrations
            .extend(other.callback_registrations);
        self.queue_puts.extend(other.queue_puts);
        self.skipped_macros.extend(other.skipped_macros);
        self.external_crates.extend(other.external_crates);
        self.crate_paths.extend(other.crate_paths);
        self.desktop_crates.extend(other.desktop_crates);
        self.local_store_crates.extend(other.local_store_crates);
        self.guard_methods.extend(other.guard_methods);
        self.release_methods.extend(other.release_methods);
    }
}
