//! Method calls: submissions to pools, waits, the calls rules follow, and what
//! an expression holds (its type, the submissions it comes from, its bound).

use super::tree::Node;

use super::extract::Extractor;
use super::syntax::{self, branches, short, type_name, NodeExt};
use super::types::{JType, PoolRef, Value};
use crate::catalog::SubmitEntry;
use crate::facts::{
    Call, CallExtra, CtxKind, Entry, Heat, Submission, Wait, WaitKind, COMMON_POOL,
};
use crate::source::Span;

/// Views of a collection whose elements are the collection's (complete futures stay
/// complete in `futures.stream()`).
const VIEWS: &[&str] = &["stream", "parallelStream", "values", "iterator", "toArray"];

/// Static views of an array or of their arguments (`Arrays.stream(futures)`).
const STATIC_VIEWS: &[&str] = &[
    "java.util.Arrays.stream",
    "java.util.Arrays.asList",
    "java.util.stream.Stream.of",
    "java.util.List.of",
];

/// Stream and collection operators whose lambda receives one element.
const ELEMENT_LAMBDAS: &[&str] = &[
    "forEach",
    "map",
    "filter",
    "peek",
    "anyMatch",
    "allMatch",
    "noneMatch",
    "flatMap",
    "mapToInt",
    "mapToLong",
    "mapToDouble",
    "forEachOrdered",
    "removeIf",
];

impl<'a> Extractor<'a> {
    /// Whether a lambda given to method `name` is called back for each item of a
    /// stream (the catalog's `reactive.subscribers`).
    fn subscriber(&self, name: &str) -> bool {
        self.catalog
            .data
            .reactive
            .subscribers
            .iter()
            .any(|s| s == name)
    }

    pub(super) fn invocation(&mut self, node: Node<'a>) {
        let Some(name_node) = node.field("name") else {
            return self.children(node);
        };
        let name = self.text(name_node).to_string();
        let object = node.field("object");
        let args: Vec<Node> = node
            .field("arguments")
            .map(super::syntax::arguments)
            .unwrap_or_default();
        let static_class = object.and_then(|o| self.static_class(o));
        // `Preconditions.checkState(f.isDone());`: past it, `f` is complete.
        if self.catalog.data.futures.done_asserts.contains(&name)
            && node
                .parent()
                .is_some_and(|p| p.kind_name() == "expression_statement")
        {
            if let Some(&first) = args.first() {
                for done in self.done_checks(first).0 {
                    self.mark_complete(&done);
                }
            }
        }
        if name == "exit"
            && static_class.is_some()
            && object.is_some_and(|o| matches!(self.text(o), "System" | "java.lang.System"))
        {
            self.ends_program();
        }
        // A `subscribeOn` here or later in the chain moves the chain off the event loop.
        let above = self.off_loop_above;
        let here = self.catalog.data.reactive.off_loop.contains(&name);
        if let Some(o) = object {
            self.off_loop_above = above || here;
            // `f(..).join()`: the receiver's result is waited for right here.
            let waits = self
                .catalog
                .waits_named(&name)
                .any(|w| w.kind == crate::catalog::WaitCatalogKind::Result);
            // `.get(2, SECONDS)`: a wait the catalog lists only without arguments.
            let timed = waits
                && !self
                    .catalog
                    .waits_named(&name)
                    .any(|w| w.args.contains(&args.len()));
            let saved = self
                .outer_call
                .replace((o.id(), waits.then(|| self.call_span(node))));
            let saved_timed = std::mem::replace(&mut self.outer_call_timed, timed);
            // `return a(..).b(..)`: `a(..)`'s result is returned too (`Call::returned`).
            let returned = self.returned_call;
            if returned == Some(node.id()) {
                self.returned_call = Some(o.id());
            }
            self.walk(o);
            self.returned_call = returned;
            self.outer_call = saved;
            self.outer_call_timed = saved_timed;
        }
        self.off_loop_above = above;
        let recv = match (object, &static_class) {
            (Some(o), None) => self.value_of(o),
            _ => Value::default(),
        };
        // Static factories that create queues: `Executors.newFixedThreadPool(..)`.
        let factory = self.static_call(static_class.as_deref(), object, &name);
        if let Some(f) = &factory {
            self.queue_factory(node, f);
            self.clients_at(node, "call", f);
        } else if let (Some(o), Some(t)) = (object, recv.fq().map(str::to_string)) {
            self.clients_at(node, "method", &format!("{t}.{name}"));
            if matches!(o.kind_name(), "identifier" | "field_access") {
                self.clients_at(node, "type", &t);
            }
        }
        // `scheduler.setPoolSize(3)` on a Spring scheduler: its thread count.
        let spring = &self.catalog.data.spring;
        if spring.scheduler_size.contains(&name)
            && recv
                .fq()
                .is_some_and(|t| spring.schedulers.iter().any(|s| s == t))
        {
            let n = args.first().and_then(|a| self.eval(*a));
            let n = n.and_then(|n| u32::try_from(n).ok());
            self.facts.scheduler_threads.push(n);
        }
        let submission = self.submission(node, &name, &recv, static_class.as_deref(), &args);
        let element = recv.ty.as_ref().and_then(|t| t.element()).cloned();
        let hint = (ELEMENT_LAMBDAS.contains(&name.as_str())
            && (element.is_some() || recv.complete))
            .then(|| Value {
                ty: element,
                complete: recv.complete,
                origin: recv.origin.clone(),
                ..Value::default()
            });
        let completes = self.continuation_completes(&name, &recv);
        // A call of a project method: its lambda arguments may become pool tasks there.
        let project_call = submission.is_none()
            && match object {
                None => true,
                Some(o) if matches!(self.text(o), "this" | "super") => true,
                // `TenantRunner.run(() -> ..)`: a static method of a project class.
                Some(_)
                    if static_class
                        .as_deref()
                        .is_some_and(|c| !self.catalog.knows(c)) =>
                {
                    true
                }
                Some(_) => recv
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.fq().is_none_or(|fq| !self.catalog.knows(fq))),
            };
        let mut lambda_args = Vec::new();
        // `pool.schedule(virtual ? state::trigger : () -> run(rule), ..)`: each branch
        // of a conditional task argument is the task.
        let is_task = |i| submission.as_ref().is_some_and(|(_, t)| t.contains(&i));
        let arg_branches = args.iter().enumerate().flat_map(|(i, a)| {
            let each = match is_task(i) {
                true => branches(*a),
                false => syntax::Branches::One(Some(*a)),
            };
            each.map(move |b| (i, b))
        });
        for (i, arg) in arg_branches {
            let arg = &arg;
            let task = submission.as_ref().filter(|(_, tasks)| tasks.contains(&i));
            // `pool.submit((Callable<Void>) () -> { .. })`: the cast picks the overload;
            // the lambda is the task.
            let unwrapped = task
                .map(|_| syntax::uncast(*arg))
                .filter(|a| a.kind_name() == "lambda_expression");
            let arg = &unwrapped.unwrap_or(*arg);
            if let (Some((idx, _)), "identifier") = (task, arg.kind_name()) {
                // `pool.submit(task)` with `task` this method's parameter: a wrapper.
                let p = self.text(*arg);
                let shadowed = self
                    .scopes
                    .get(p)
                    .is_some_and(|v| v.value.root.as_deref() != Some(p));
                if !shadowed {
                    self.facts.submissions[*idx].task_param =
                        self.frame.params.iter().position(|x| x == p);
                }
                // `Callable<T> load = () -> ..; pool.submit(load)`: the lambda is the task.
                if let Some(id) = self.lookup(p).and_then(|v| v.lambda) {
                    let pool = self.facts.submissions[*idx].pool.clone();
                    if let Some(c) = self.facts.contexts.get_mut(id) {
                        c.kind = CtxKind::PoolTask(pool);
                        c.submission = Some(*idx);
                    }
                    self.facts.submissions[*idx].task = Some(id);
                }
            }
            // `delegate.execute(new TraceRunnable(command, tracing))`: a decorator around
            // this method's task parameter makes it a wrapper too.
            if let (Some((idx, _)), "object_creation_expression") = (task, arg.kind_name()) {
                if self.facts.submissions[*idx].task_param.is_none() {
                    self.facts.submissions[*idx].task_param = self.decorated_param(*arg);
                }
            }
            // `pool.submit(fetcher)`, `pool.execute(new Flush(batch))`: an object of a
            // project class whose `run()`/`call()` is the task.
            if let Some((idx, _)) = task {
                if let Some(t) = self.task_object_type(*arg) {
                    self.facts.submissions[*idx].task_type = Some(t);
                }
            }
            // `scheduler.scheduleAtFixedRate(getRunnable(monitor), ..)`: the body a method
            // of this class returns is the task.
            if let (Some((idx, _)), "method_invocation") = (task, arg.kind_name()) {
                let own = arg.field("object").is_none_or(|o| self.text(o) == "this");
                if let Some(m) = arg.field("name").filter(|_| own) {
                    self.facts.submissions[*idx].task_factory = Some(self.text(m).to_string());
                }
            }
            if let (Some((idx, _)), true) = (task, self.is_task_list(*arg)) {
                // `pool.invokeAll(List.of(() -> a(), () -> b()))`: each lambda is a task.
                self.task_list(*arg, *idx);
                continue;
            }
            match (arg.kind_name(), task) {
                ("lambda_expression", Some((idx, _))) => {
                    // `pool.execute(() -> { MDC.setContextMap(m); task.run(); })`: a
                    // lambda that runs this method's parameter makes it a wrapper too.
                    if self.facts.submissions[*idx].task_param.is_none() {
                        self.facts.submissions[*idx].task_param = self.forwarded_param(*arg);
                    }
                    // `allOf(a, b).thenApplyAsync(..)`: a task that runs once they completed.
                    self.scopes.push();
                    self.declare_complete(&completes);
                    let pool = self.facts.submissions[*idx].pool.clone();
                    let id = self.lambda(*arg, CtxKind::PoolTask(pool), None, Some(*idx));
                    self.facts.submissions[*idx].task = id;
                    self.scopes.pop();
                }
                ("method_reference", Some((idx, _))) => {
                    let target = self.text(*arg);
                    let (on, method) = target.rsplit_once("::").unwrap_or(("", target));
                    let own = self
                        .classes
                        .last()
                        .map(|c| c.fq.rsplit('.').next().unwrap_or("").to_string());
                    if on.trim() == "this" || Some(on.trim().to_string()) == own {
                        self.facts.submissions[*idx].task_method = Some(method.trim().to_string());
                    }
                }
                ("object_creation_expression", Some((idx, _))) => {
                    let pool = self.facts.submissions[*idx].pool.clone();
                    self.anonymous_or_children(*arg, Some((CtxKind::PoolTask(pool), *idx)));
                }
                // `f.addListener(new Runnable() { public void run() { f.get(); } }, ex)`:
                // an anonymous listener runs once `f` completed, as a lambda would.
                ("object_creation_expression", None)
                    if !completes.is_empty() && super::queues::has_class_body(*arg) =>
                {
                    self.scopes.push();
                    self.declare_complete(&completes);
                    self.walk(*arg);
                    self.scopes.pop();
                }
                ("lambda_expression", None) if !completes.is_empty() || hint.is_some() => {
                    self.scopes.push();
                    self.declare_complete(&completes);
                    self.lambda(*arg, CtxKind::Inline, hint.clone(), None);
                    self.scopes.pop();
                }
                ("method_reference", None) => self.method_reference_with(*arg, hint.as_ref()),
                ("lambda_expression", None) => {
                    // `feed.observe().subscribe(msg -> handle(msg))`: the callback runs for
                    // every item the stream emits, on the emitting thread, not where the
                    // subscription is made: an entry point of its own, like a listener.
                    // Hot, but paced: the project cannot tell a message feed from a
                    // registry watch, so what it queues is not counted as growing with
                    // requests.
                    let subscribed = object.is_some() && self.subscriber(&name);
                    let kind = match self.lambda_kind_in_call(node) {
                        CtxKind::Inline if subscribed => CtxKind::Thread,
                        k => k,
                    };
                    let entry = subscribed && kind == CtxKind::Thread;
                    let saved = std::mem::replace(&mut self.off_loop_above, false);
                    self.force_lambda_ctx = subscribed || project_call && kind == CtxKind::Inline;
                    if let Some(id) = self.lambda(*arg, kind, None, None) {
                        if entry {
                            self.facts.contexts[id].entry = Some(Box::new(Entry {
                                heat: Heat::Hot,
                                why: format!("`{name}` callback"),
                                paced: true,
                                yields: false,
                                job: false,
                                sized_job: false,
                                per_event: false,
                            }));
                        }
                        if project_call {
                            lambda_args.push((i, id));
                        }
                    }
                    self.force_lambda_ctx = false;
                    self.off_loop_above = saved;
                }
                _ => {
                    let saved = std::mem::replace(&mut self.off_loop_above, false);
                    let before = self.facts.contexts.len();
                    self.walk(*arg);
                    self.off_loop_above = saved;
                    // `asyncService.submit(new KeyCallable<>(key) { Boolean execute() {..} })`:
                    // an anonymous object's methods run where the callee runs it, on a
                    // pool if it hands that parameter to one (as a lambda's body would).
                    let body = (project_call && arg.kind_name() == "object_creation_expression")
                        .then(|| syntax::anonymous_body(*arg))
                        .flatten();
                    let made = before..self.facts.contexts.len();
                    let ctxs = &self.facts.contexts;
                    // The anonymous class's own context; its methods are below it.
                    let class = body.and_then(|body| {
                        made.clone().find(|&c| {
                            &*ctxs[c].name == "<init>" && ctxs[c].body == syntax::span(body)
                        })
                    });
                    if let Some(class) = class {
                        let methods = made.filter(|&c| {
                            ctxs[c].kind == CtxKind::Function && ctxs[c].parent == Some(class)
                        });
                        lambda_args.extend(methods.map(|c| (i, c)));
                    }
                }
            }
        }
        let waits_before = self.facts.waits.len();
        self.wait(node, &name, object, &recv, args.len());
        if let Some(f) = &factory {
            self.static_wait(node, f, &args);
        }
        // `pool.invokeAll(tasks)`: the submission is also the wait.
        if let (Some((idx, _)), true) = (&submission, self.facts.waits.len() > waits_before) {
            self.facts.submissions[*idx]
                .waited
                .get_or_insert(waits_before);
        }
        self.settles(&name, &recv, args.len());
        self.track_collection(&name, object, &args);
        self.track_release(&name, object);
        self.queue_send(node, &name, object, &recv);
        let (call_idx, lambdas) = (self.facts.calls.len(), lambda_args.clone());
        self.record_call(node, &name, object, &recv, lambda_args, &args);
        if object.is_none_or(|o| self.text(o) == "this") && !args.is_empty() {
            self.helper_waits(&name, &args);
            self.helper_completes(&name, &args);
        }
        // `executeJob(() -> { ..; latch.countDown(); })`: a later `latch.await()` waits
        // for this call's task, as `f.get()` would on the future it returned.
        if self.facts.calls.len() > call_idx && !self.released_in.is_empty() {
            let released: Vec<String> = self
                .released_in
                .iter()
                .filter(|(_, l)| lambdas.iter().any(|(_, id)| id == l))
                .map(|(v, _)| v.clone())
                .collect();
            for var in released {
                self.frame.release_calls.insert(var, call_idx);
            }
        }
    }

    /// Declares these variables complete in the current scope.
    fn declare_complete(&mut self, names: &[String]) {
        for c in names {
            let mut v = self.lookup(c).unwrap_or_default();
            v.complete = true;
            self.scopes.declare(c, v);
        }
    }

    /// `List.of(..)` / `Arrays.asList(..)` holding task lambdas.
    fn is_task_list(&self, arg: Node) -> bool {
        arg.kind_name() == "method_invocation"
            && arg.field("name").is_some_and(|n| {
                matches!(self.text(n), "of" | "asList" | "singletonList" | "copyOf")
            })
    }

    fn task_list(&mut self, list: Node<'a>, sub: usize) {
        if let Some(o) = list.field("object") {
            self.walk(o);
        }
        let Some(args) = list.field("arguments") else {
            return;
        };
        let mut c = args.walk();
        let items: Vec<Node> = args.named_children(&mut c).collect();
        let pool = self.facts.submissions[sub].pool.clone();
        for item in items {
            if item.kind_name() == "lambda_expression" {
                let id = self.lambda(item, CtxKind::PoolTask(pool.clone()), None, Some(sub));
                if let (None, Some(id)) = (self.facts.submissions[sub].task, id) {
                    self.facts.submissions[sub].task = Some(id);
                }
            } else {
                self.walk(item);
            }
        }
    }

    /// `Type::method` passed as a function: `futures.stream().map(CompletableFuture::join)`.
    pub(super) fn method_reference(&mut self, node: Node) {
        self.method_reference_with(node, None);
    }

    fn method_reference_with(&mut self, node: Node, element: Option<&Value>) {
        let t = self.text(node);
        let Some((on, method)) = t.rsplit_once("::") else {
            return;
        };
        self.facts.method_refs.push(method.trim().into());
        let own = self.own_method_reference(node, on.trim(), method.trim());
        // `route().GET("/x", this::list)`: the referenced method is a registered handler.
        if let Some(i) = own {
            let registrar = node
                .parent()
                .filter(|a| a.kind_name() == "argument_list")
                .and_then(|a| a.parent())
                .filter(|c| c.kind_name() == "method_invocation");
            if let Some(why) = registrar.and_then(|c| self.registered_as(c)) {
                let call = self.facts.calls[i].clone();
                self.facts.handlers.push((call, why));
            }
        }
        let fq = self
            .names
            .resolve_type(on.trim(), &|fq| self.catalog.knows(fq));
        let Some(entry) = self.catalog.waits_named(method.trim()).find(|w| {
            w.args.contains(&0)
                && self.catalog.matches(&w.on, fq.as_deref())
                && !w.on.iter().any(|o| o == "*")
        }) else {
            return;
        };
        let timed = element.is_some_and(|e| e.complete || e.bounded);
        let help = entry.help.replace("{recv}", "future");
        let idx = self.push_wait(
            node_span(node),
            format!("`{}`", short(t)),
            &entry.kind,
            timed,
            None,
            help,
        );
        self.mark_forkjoin(idx, fq.as_deref());
    }

    /// Mark wait `idx` a `ForkJoinTask`'s when the receiver's type `fq` is one.
    fn mark_forkjoin(&mut self, idx: usize, fq: Option<&str>) {
        self.facts.waits[idx].forkjoin = fq.is_some_and(|t| self.catalog.in_group("forkjoin", t));
    }

    /// The overload of the class's method `name` an unqualified call picks by its
    /// arguments' types: the one declaration whose parameter types equal every known
    /// argument type (`validate(topic)` with a `Topic` local: `validate(Topic)`, not
    /// `validate(List<Topic>)`). `None` when the types cannot tell.
    fn overload(&self, node: Node, name: &str) -> Option<u32> {
        let declared = self.classes.last()?.overloads.get(name)?;
        let args = node.field("arguments")?;
        let count = super::syntax::arguments(args).len();
        if declared.iter().filter(|o| o.written.len() == count).count() < 2 {
            return None;
        }
        let mut c = args.walk();
        let types: Vec<Option<String>> = args
            .named_children(&mut c)
            .filter(|n| !n.is_extra())
            .map(|a| {
                let ty = self.value_of(a).ty.map(|t| t.simple);
                ty.or_else(|| self.conversion_type(a).map(str::to_string))
            })
            .collect();
        if types.iter().all(Option::is_none) {
            return None;
        }
        let mut matching = declared.iter().filter(|o| {
            o.written.len() == types.len()
                && o.written
                    .iter()
                    .zip(&types)
                    // `ByteArrayInputStream` for `InputStream`, `ArrayList` for `List`:
                    // the JDK names a subtype after what it implements (but a
                    // `MultipartFile` is no `File`: a JDK value class takes only itself).
                    .all(|(p, a)| {
                        a.as_ref().is_none_or(|a| {
                            a.ends_with(p.as_str())
                                && (a == p || !crate::model::calls::jdk_value_name(p))
                        })
                    })
        });
        match (matching.next(), matching.next()) {
            (Some(o), None) => Some(o.at),
            _ => None,
        }
    }

    /// `keys.forEach(this::listen)`: the reference calls the class's own method where
    /// it is passed (any arity), so heat reaches `listen` as through a call.
    fn own_method_reference(&mut self, node: Node, on: &str, method: &str) -> Option<usize> {
        let own = self
            .classes
            .last()
            .is_some_and(|c| c.fq.rsplit('.').next() == Some(on));
        if !(on == "this" || own) || method == "new" || !self.names.declares_method(method) {
            return None;
        }
        let call = self.plain_call(node_span(node), method);
        self.facts.calls.push(call);
        Some(self.facts.calls.len() - 1)
    }

    /// A call of `method` here with nothing known of its receiver or arguments.
    fn plain_call(&self, span: Span, method: &str) -> Call {
        Call {
            span,
            ctx: self.current_ctx(),
            method: method.into(),
            receiver_type: None,
            callee_owner: None,
            returned: false,
            target: None,
            in_loop: self.frame.loops > 0,
            submit_like: false,
            extra: None,
            args: None,
            literals: 0,
            timed: false,
            once: self.frame.once > 0,
            detached: false,
        }
    }

    /// `new Retriever(..)` of a project class: a call of its constructors, which run
    /// where the object is made.
    pub(super) fn record_creation(
        &mut self,
        node: Node,
        target: std::sync::Arc<crate::facts::TypeRef>,
    ) {
        let args: Vec<Node> = node.field("arguments").map_or_else(Vec::new, |a| {
            let mut c = a.walk();
            a.named_children(&mut c).collect()
        });
        // `new Retriever(..)` up to the arguments, not an anonymous class's body.
        let end = node.field("arguments").unwrap_or(node).end_byte();
        let call = Call {
            target: Some(target),
            args: u8::try_from(args.len()).ok(),
            literals: self.arg_kinds(&args),
            ..self.plain_call(Span::new(node.start_byte(), end), "<init>")
        };
        self.facts.calls.push(call);
    }

    /// A static call's fully-qualified name: `Executors.newFixedThreadPool` on a class
    /// (`static_class` of the receiver), or an unqualified call through a static import.
    pub(super) fn static_call(
        &self,
        static_class: Option<&str>,
        object: Option<Node>,
        name: &str,
    ) -> Option<String> {
        match (static_class, object) {
            (Some(c), _) => Some(format!("{c}.{name}")),
            (None, None) => self
                .names
                .resolve_static(name, &|fq| self.catalog.knows(fq)),
            _ => None,
        }
    }

    /// The fully-qualified class when a call's receiver names a type (`Executors`,
    /// `CompletableFuture`, `java.util.concurrent.Executors`), not a value.
    pub(super) fn static_class(&self, object: Node) -> Option<String> {
        if !matches!(
            object.kind_name(),
            "identifier" | "field_access" | "scoped_identifier"
        ) {
            return None;
        }
        // Cheap tests on the text first: most receivers are variables.
        let raw = self.text(object);
        let last = raw.rsplit('.').next().unwrap_or("").trim();
        if !last.starts_with(|c: char| c.is_ascii_uppercase())
            || last.len() > 1
                && last
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
        {
            // `pool.submit(..)` names a variable; `POOL.submit(..)` a constant. A lone
            // capital (`R.get(..)`) is a class unless a variable of that name is in scope.
            return None;
        }
        let written = type_name(object, self.src);
        if written.starts_with("this.") {
            return None;
        }
        let first = written.split('.').next().unwrap_or("");
        if self.scopes.get(first).is_some() || self.field(first).is_some() {
            return None;
        }
        self.names
            .resolve_type(&written, &|fq| self.catalog.knows(fq))
            .or_else(|| (!written.contains('.')).then(|| self.qualify(&written)))
    }

    /// Whether a class's fully-qualified name shares this file's top two package
    /// segments (`com.acme.*`): the project's own, not a library's (`ResponseEntity
    /// .status(..).body(..)` builds nothing the project declares; recording such
    /// chains cost the benchmark 10 MB of peak memory).
    pub(super) fn own_code(&self, fq: &str) -> bool {
        fn top(s: &str) -> (Option<&str>, Option<&str>) {
            let mut parts = s.splitn(3, '.');
            (parts.next(), parts.next())
        }
        self.package.is_empty() || top(fq) == top(&self.package)
    }

    /// A simple class name in this file's package.
    pub(super) fn qualify(&self, simple: &str) -> String {
        if self.package.is_empty() {
            simple.to_string()
        } else {
            format!("{}.{simple}", self.package)
        }
    }

    /// Record a submission if this call hands a task to a pool; returns its index
    /// and which arguments are tasks.
    fn submission(
        &mut self,
        node: Node,
        name: &str,
        recv: &Value,
        static_class: Option<&str>,
        args: &[Node],
    ) -> Option<(usize, Vec<usize>)> {
        if !self.catalog.is_submit_method(name) {
            return None;
        }
        // An untyped receiver may still name a pool: an inherited field or a static
        // constant of another class (`Pools.IO`); linking decides (unconfirmed).
        let guessed;
        let recv = match (&recv.pool, &recv.ty, node.field("object")) {
            (None, None, Some(o)) if matches!(o.kind_name(), "identifier" | "field_access") => {
                guessed = Value {
                    pool: self.pool_ref_of(o),
                    ..recv.clone()
                };
                &guessed
            }
            _ => recv,
        };
        let entry: &SubmitEntry = self.catalog.data.submits.iter().find(|e| {
            e.methods.iter().any(|m| m == name)
                && match (&e.r#static, static_class) {
                    (Some(s), Some(c)) => s == c,
                    (None, None) => {
                        let executor = e.on.iter().any(|o| o == "@executor");
                        self.catalog.matches(&e.on, recv.fq())
                            || (recv.pool.is_some() && recv.ty.is_none() && executor)
                            // A field this class assigns a pool to, whatever its declared type.
                            || (recv.pool.as_ref().is_some_and(|p| p.confirmed) && executor)
                    }
                    _ => false,
                }
        })?;
        let (pool, task_args): (PoolRef, Vec<usize>) = match entry.executor_after {
            Some(n) if args.len() > n => {
                let last = *args.last()?;
                let pool = self.pool_ref_of(last)?;
                (pool, (0..args.len() - 1).collect())
            }
            // A library's own pool (Hutool's `ThreadUtil.execute(task)`).
            _ if entry.pool.is_some() => {
                let key = entry.pool.clone().unwrap_or_default();
                let name = entry.pool_name.clone().unwrap_or_else(|| key.clone());
                let pool = PoolRef {
                    key,
                    name,
                    confirmed: true,
                };
                (pool, (0..args.len()).collect())
            }
            Some(_) => (
                PoolRef {
                    key: COMMON_POOL.into(),
                    name: "ForkJoinPool.commonPool()".into(),
                    confirmed: true,
                },
                (0..args.len()).collect(),
            ),
            None => (self.receiver_pool(node, recv)?, (0..args.len()).collect()),
        };
        // `pageFile.tx().execute(tx -> ..)` on a receiver not known to be a pool: a
        // task takes no argument (`Runnable.run()`, `Callable.call()`), so a callback
        // that takes one is handed to something else.
        if !pool.confirmed && args.iter().any(|a| syntax::takes_arguments(*a)) {
            return None;
        }
        let idx = self.facts.submissions.len();
        let span = self.call_span(node);
        self.facts.submissions.push(Submission {
            span,
            what: short_call(&self.src[span.start..span.end]),
            pool: pool.key,
            pool_name: pool.name,
            confirmed: pool.confirmed,
            ctx: self.current_ctx(),
            task: None,
            task_method: None,
            waited: None,
            waited_at: None,
            install: false,
            task_param: None,
            guarded: self.admits_one(node) || self.replaces_pending(node),
            detached: syntax::detached_statement(node, self.src),
            returned: self.returned_call == Some(node.id()),
            task_type: None,
            task_factory: None,
            forkjoin: recv
                .fq()
                .is_some_and(|fq| self.catalog.in_group("forkjoin_pool", fq)),
            parallel_stream: args.iter().any(|a| {
                a.kind_name() == "lambda_expression" && {
                    let body = self.text(*a);
                    body.contains(".parallelStream()") || body.contains(".parallel()")
                }
            }),
        });
        self.submission_at
            .insert((node.start_byte(), node.end_byte()), idx);
        // `pool.submit(futureTask)`: a later `futureTask.get()` waits for this task.
        let catalog = self.catalog;
        for a in args.iter().filter(|a| a.kind_name() == "identifier") {
            let Some(v) = self.scopes.get_mut(self.text(*a)) else {
                continue;
            };
            let future = v
                .value
                .fq()
                .is_some_and(|fq| catalog.in_group("future", fq));
            if future && !v.value.origin.contains(&idx) {
                v.value.origin.push(idx);
            }
        }
        Some((idx, task_args))
    }

    /// The pool a receiver expression names.
    fn receiver_pool(&self, node: Node, recv: &Value) -> Option<PoolRef> {
        if let Some(p) = &recv.pool {
            return Some(p.clone());
        }
        self.pool_ref_of(node.field("object")?)
    }

    /// The pool an expression names: a variable or field holding one, a static field
    /// of a class (`Pools.IO`), or a parameter typed as an executor.
    pub(super) fn pool_ref_of(&self, expr: Node) -> Option<PoolRef> {
        let value = self.value_of(expr);
        if let Some(p) = value.pool {
            return Some(p);
        }
        let typed = value
            .fq()
            .is_some_and(|fq| self.catalog.in_group("executor", fq));
        match expr.kind_name() {
            "identifier" => {
                let name = self.text(expr);
                if self.scopes.get(name).is_some() {
                    return typed.then(|| self.local_pool_ref(name, true));
                }
                if self.field(name).is_some() {
                    return Some(self.field_pool_ref(name, typed));
                }
                // A field inherited from a superclass (maybe in another file): linking
                // finds the pool, or the submission does not count.
                let inherits = self.classes.last().is_some_and(|c| !c.supers.is_empty());
                inherits.then(|| self.field_pool_ref(name, false))
            }
            "field_access" => {
                let obj = expr.field("object")?;
                let field = self.text(expr.field("field")?);
                if self.text(obj) == "this" {
                    return Some(self.field_pool_ref(field, typed));
                }
                self.static_field_pool(obj, field, typed)
            }
            _ => None,
        }
    }

    /// `Pools.IO`: a static field of a class, resolved through this file's imports.
    fn static_field_pool(&self, obj: Node, field: &str, confirmed: bool) -> Option<PoolRef> {
        let class = self.static_class(obj).or_else(|| {
            let t = self.text(obj);
            t.starts_with(|c: char| c.is_ascii_uppercase())
                .then(|| self.qualify(t))
        })?;
        Some(PoolRef {
            key: format!("field:{class}.{field}"),
            name: format!("{}.{field}", class.rsplit('.').next().unwrap_or(&class)),
            confirmed,
        })
    }

    /// What an expression holds, as far as this file shows.
    pub(super) fn value_of(&self, node: Node) -> Value {
        match node.kind_name() {
            "identifier" => self.lookup(self.text(node)).unwrap_or_default(),
            "field_access" => {
                let (Some(obj), Some(field)) = (node.field("object"), node.field("field")) else {
                    return Value::default();
                };
                if self.text(obj) == "this" {
                    return self.lookup(self.text(field)).unwrap_or_default();
                }
                Value::default()
            }
            "parenthesized_expression" => node
                .named_child(0)
                .map(|c| self.value_of(c))
                .unwrap_or_default(),
            "cast_expression" => {
                let mut v = node
                    .field("value")
                    .map(|c| self.value_of(c))
                    .unwrap_or_default();
                v.ty = node.field("type").and_then(|t| self.jtype(t)).or(v.ty);
                v
            }
            "object_creation_expression" => {
                Value::of(node.field("type").and_then(|t| self.jtype(t)))
            }
            "ternary_expression" => node
                .field("consequence")
                .map(|c| self.value_of(c))
                .unwrap_or_default(),
            "method_invocation" => self.call_value(node),
            _ => Value::default(),
        }
    }

    /// The submission an expression lambda's body is (`id -> pool.submit(..)`).
    fn lambda_submission(&self, arg: Node) -> Option<usize> {
        let body = arg
            .field("body")
            .filter(|_| arg.kind_name() == "lambda_expression")?;
        self.submission_at
            .get(&(body.start_byte(), body.end_byte()))
            .copied()
    }

    fn call_value(&self, node: Node) -> Value {
        let Some(name) = node.field("name").map(|n| self.text(n)) else {
            return Value::default();
        };
        let object = node.field("object");
        let args: Vec<Node> = node
            .field("arguments")
            .map(super::syntax::arguments)
            .unwrap_or_default();
        let futures = &self.catalog.data.futures;
        // `allOf(a, b)` after `import static ..CompletableFuture.allOf;`: the class's.
        let imported = || {
            let fq = self
                .names
                .resolve_static(name, &|fq| self.catalog.knows(fq))?;
            fq.rsplit_once('.').map(|(class, _)| class.to_string())
        };
        let class = match object {
            Some(o) => self.static_class(o),
            None => imported(),
        };
        let mut v = match class {
            Some(class) => {
                // A project helper that bounds a future it is given, as `orTimeout` does
                // (`Futures.orTimeout(f, 3, SECONDS)`): the result is that future, bounded.
                let helper = !self.catalog.knows(&class)
                    && futures.bounding.iter().any(|b| b == name)
                    && args.len() > 1;
                if let Some(mut f) = args
                    .first()
                    .filter(|_| helper)
                    .map(|a| self.value_of(*a))
                    .filter(|f| f.ty.is_some())
                {
                    f.bounded = true;
                    return f;
                }
                let mut v = Value::default();
                let full = format!("{class}.{name}");
                if futures.all_of.contains(&full) {
                    v.complete = true;
                    v.bounded = !args.is_empty();
                    let mut calls = Some(Vec::new());
                    for a in &args {
                        let av = self.value_of(*a);
                        v.complete &= av.complete;
                        let bounded = av.bounded || self.bounded_type(&av);
                        v.bounded &= bounded;
                        match (bounded || av.complete, av.call, &mut calls) {
                            (true, _, _) => {}
                            (false, Some(c), Some(list)) if av.origin.is_empty() => list.push(c),
                            _ => calls = None,
                        }
                        v.origin.extend(av.origin);
                        if let Some(r) = av.root {
                            v.members.push(r);
                        }
                    }
                    v.complete &= !args.is_empty();
                    v.promise_calls = calls.unwrap_or_default();
                }
                // `Arrays.stream(done)`: a view of complete futures.
                if STATIC_VIEWS.contains(&full.as_str()) {
                    v.complete =
                        !args.is_empty() && args.iter().all(|a| self.value_of(*a).complete);
                }
                v.ty = self.catalog.data.returns.iter().find_map(|r| {
                    (r.r#static.as_deref() == Some(class.as_str())
                        && r.methods.iter().any(|m| m == name))
                    .then(|| r.r#type.as_deref().map(JType::known))
                    .flatten()
                });
                // `Pools.getInstance()`: a project singleton is an instance of its class.
                let singleton = matches!(name, "getInstance" | "instance" | "getDefault");
                if v.ty.is_none() && singleton && !self.catalog.knows(&class) {
                    let written = object.map(|o| super::syntax::type_name(o, self.src));
                    v.ty = written.map(|w| JType {
                        fq: None,
                        simple: w.into_owned(),
                        args: Vec::new(),
                    });
                }
                v
            }
            None => {
                // A method of this class: its declared return type.
                let own = match object {
                    None => true,
                    Some(o) => self.text(o) == "this",
                };
                if own {
                    // `getExecutor()`: the field it returns, pool and all.
                    if let Some(field) = self.getter_field(name) {
                        if let Some(v) = self.lookup(&field) {
                            return v;
                        }
                    }
                    // `f = executeJob(task)`: a wait on `f` waits on this call's result.
                    let ty = self.own_method_type(name);
                    // Only a method declared to return a supertype of
                    // `CompletableFuture` (or a type variable) can return a local one.
                    let promise = ty.as_ref().is_some_and(|t| {
                        matches!(
                            t.simple.as_str(),
                            "CompletableFuture" | "Future" | "CompletionStage" | "Object"
                        ) || (t.fq.is_none() && t.simple.chars().all(|c| c.is_ascii_uppercase()))
                    });
                    let mut v = Value::of(ty);
                    v.call = self
                        .call_at
                        .get(&(node.start_byte(), node.end_byte()))
                        .copied();
                    // A promise an I/O callback completes (every method of that name
                    // returns one): the client's timeouts bound it.
                    v.bounded |= promise && self.callback_promise(name);
                    return v;
                }
                let recv = object.map(|o| self.value_of(o)).unwrap_or_default();
                let mut v = recv.clone();
                v.pool = None;
                v.unbounded_queue = false;
                // `ids.stream().map(id -> CompletableFuture.runAsync(.., pool))`: a stream of
                // the futures its lambda submits (and `toArray` of it, an array of them).
                if name == "map" {
                    v.origin
                        .extend(args.iter().filter_map(|a| self.lambda_submission(*a)));
                }
                // `registry.getExecutor()` on a project class: the pool its getter returns
                // (a JDK type such as `ThreadLocal` is no project class).
                let project = recv.ty.as_ref().filter(|t| {
                    t.fq()
                        .is_none_or(|fq| !self.catalog.knows(fq) && !fq.starts_with("java."))
                });
                if let (Some(t), true) = (project, args.is_empty()) {
                    v.pool = Some(super::types::PoolRef {
                        key: format!("getter:{}.{name}", t.simple),
                        name: name.to_string(),
                        confirmed: false,
                    });
                }
                // `f.whenComplete(..)` on a project call's future completes after it:
                // waiting on it waits on that call.
                v.call = self
                    .call_at
                    .get(&(node.start_byte(), node.end_byte()))
                    .copied()
                    .or_else(|| {
                        let continues = || futures.continuations.iter().any(|c| c == name);
                        recv.call.filter(|_| continues())
                    });
                let returned = self.returned_type(&recv, name);
                v.complete |= returned.as_ref().is_some_and(|(_, c)| *c);
                v.ty = returned.map(|(t, _)| t);
                // `dynamo.updateItem(req)`: a future the client's I/O timeouts bound.
                if recv.fq().is_some_and(|fq| self.catalog.io_client(fq)) {
                    v.ty = Some(JType::known("java.util.concurrent.CompletableFuture"));
                    v.bounded = true;
                }
                if name == "toArray" {
                    v.ty = recv.ty.clone();
                }
                v.bounded |= futures.bounding.iter().any(|b| b == name);
                if v.ty.is_none() && name != "toArray" && v.pool.is_none() {
                    // A submission to a pool known only by name (`Pools.IO.submit(..)`): a future.
                    return match self
                        .submission_at
                        .get(&(node.start_byte(), node.end_byte()))
                    {
                        Some(&idx) => Value {
                            ty: Some(JType::known("java.util.concurrent.Future")),
                            origin: vec![idx],
                            ..Value::default()
                        },
                        // `futures.stream()` of complete futures (types unknown).
                        // (`futures.values().toArray(..)` is still a view of `futures`.)
                        // (A stream `map` to submissions: those futures.)
                        None => Value {
                            call: v.call,
                            complete: recv.complete && VIEWS.contains(&name),
                            root: recv.root.clone().filter(|_| VIEWS.contains(&name)),
                            origin: if name == "map" { v.origin } else { Vec::new() },
                            ..Value::default()
                        },
                    };
                }
                v
            }
        };
        if let Some(&idx) = self
            .submission_at
            .get(&(node.start_byte(), node.end_byte()))
        {
            v.origin = vec![idx];
            v.root = None;
        }
        v
    }

    /// The type a method returns on a receiver, from the catalog.
    fn returned_type(&self, recv: &Value, method: &str) -> Option<(JType, bool)> {
        if !self.catalog.is_return_method(method) {
            return None;
        }
        // `on = ["*"]`: a method name only one library uses, on a receiver of any
        // type (`..retrieve().bodyToMono(T.class)` down a chain of untyped specs).
        // Not on a type of the project's own, which may use the name for anything.
        let fq = recv.fq();
        if fq.is_none() && !self.catalog.is_any_receiver_return(method) {
            return None;
        }
        let foreign = recv
            .ty
            .as_ref()
            .is_none_or(|t| t.fq().is_some_and(|f| self.catalog.knows(f)));
        let entry = self.catalog.data.returns.iter().find(|r| {
            r.r#static.is_none()
                && r.methods.iter().any(|m| m == method)
                && self.catalog.matches(&r.on, fq)
                && (foreign || !r.on.iter().any(|o| o == "*"))
        })?;
        let element = match &entry.element_type {
            Some(e) => Some(JType::known(e)),
            None => recv
                .ty
                .as_ref()
                .and_then(|t| t.args.get(entry.element_arg))
                .cloned(),
        };
        let ty = match (&entry.r#type, entry.element || entry.element_type.is_some()) {
            (Some(t), true) => JType {
                args: element.into_iter().collect(),
                ..JType::known(t)
            },
            (Some(t), false) => JType::known(t),
            (None, true) => element?,
            (None, false) => return None,
        };
        Some((ty, entry.complete))
    }

    /// Inside the lambdas of `f.thenApply(..)` or `allOf(a, b).thenApply(..)`, these are complete.
    fn continuation_completes(&self, name: &str, recv: &Value) -> Vec<String> {
        let futures = &self.catalog.data.futures;
        let combined =
            !recv.members.is_empty() && futures.combined_continuations.iter().any(|c| c == name);
        if !combined && !futures.continuations.iter().any(|c| c == name) {
            return Vec::new();
        }
        let mut out = recv.members.clone();
        out.extend(recv.root.clone());
        out
    }

    /// `Futures.getUnchecked(f)`, `Uninterruptibles.getUninterruptibly(f)`: a static
    /// helper (a catalog wait with `call`, whose `args` count the future too) waits on
    /// its first argument as that future's `get()` would, timed when the catalog does
    /// not list its argument count.
    fn static_wait(&mut self, node: Node<'a>, call: &str, args: &[Node<'a>]) {
        let (Some(entry), Some(&future)) = (self.catalog.waits_named(call).next(), args.first())
        else {
            return;
        };
        let untimed = entry.args.contains(&args.len());
        let help = entry.help.replace("{recv}", &short(self.text(future)));
        let recv = self.value_of(future);
        let before = self.facts.waits.len();
        self.wait(
            node,
            "get",
            Some(future),
            &recv,
            if untimed { 0 } else { 2 },
        );
        // Named as written (`Futures.getUnchecked(f)`), not as the `f.get()` it stands for.
        let what = format!("`{}`", short(self.text(node)));
        if let Some(w) = self.facts.waits.get_mut(before) {
            w.help = help;
            w.what = what;
        }
    }

    /// A wait on this call's receiver. Untimed waits are what `unbounded_join`
    /// reports; timed ones are recorded too (a submission whose result is waited
    /// for at all matters to `caller_runs_under_join`).
    fn wait(&mut self, node: Node, name: &str, object: Option<Node>, recv: &Value, nargs: usize) {
        // `ev.getResultFuture().get()`, `store.results(id).block()`: the result of a
        // project call, whose type only the callee's declaration (maybe in another file)
        // says. Recorded as a future's (a `Mono`'s) wait that counts once the project
        // model finds every target returns a future (a publisher): code that compiles
        // calls `get`/`join` only on the one and `block` only on the other.
        // The publisher type whose wait this is, when only publishers have it
        // (`block()` is a `Mono`'s, `blockingGet()` an RxJava `Single`'s).
        let catalog = self.catalog;
        let publisher = catalog.waits_named(name).find_map(|w| {
            w.on.iter()
                .find(|o| catalog.in_group("publisher", o))
                .map(String::as_str)
        });
        // `rpcFuture.get()` on a variable of a project class: a future's wait once the
        // project model finds the class implements one (`FileFacts::member_waits`).
        let member = recv
            .ty
            .as_ref()
            .is_some_and(|t| self.may_be_project_class(t))
            && object.is_some()
            && nargs == 0
            && matches!(name, "get" | "join");
        // `ackLatch.await()` on a variable of a project class: a JDK class's wait
        // (catalog group `subclassed`) once the project model finds the class extends
        // that JDK class and does not declare the method itself.
        // The wait entries of this name on such JDK classes, with the class.
        let jdk_waits = || {
            catalog.waits_named(name).filter_map(|w| {
                w.on.iter()
                    .find(|o| catalog.in_group("subclassed", o))
                    .map(|o| (w, o.as_str()))
            })
        };
        let subclassed = (!member
            && nargs == 0
            && match object {
                Some(_) => recv
                    .ty
                    .as_ref()
                    .is_some_and(|t| self.may_be_project_class(t)),
                // `join()` in a class's own method: on this object, of its class.
                None => !self.classes.is_empty(),
            })
        .then(|| jdk_waits().next().map(|(_, o)| o))
        .flatten();
        let member = member || subclassed.is_some();
        let by_call = (member
            || (recv.fq().is_none() && recv.call.is_some() && object.is_some() && nargs == 0))
            && (matches!(name, "get" | "join") || publisher.is_some() || subclassed.is_some());
        let fq = match (by_call, publisher.or(subclassed)) {
            (true, Some(p)) => Some(p),
            (true, None) => Some("java.util.concurrent.CompletableFuture"),
            (false, _) => recv.fq(),
        };
        let applies = |w: &&crate::catalog::WaitEntry| {
            w.method.is_some()
                && match object {
                    None if subclassed.is_none() => w.on.iter().any(|o| o == "*"),
                    _ => self.catalog.matches(&w.on, fq),
                }
        };
        let Some(entry) = self.catalog.waits_named(name).find(applies) else {
            return;
        };
        let untimed = self
            .catalog
            .waits_named(name)
            .filter(applies)
            .any(|w| w.args.contains(&nargs));
        if entry.request_path && self.frame.loops > 0 {
            return; // a dedicated consumer loop
        }
        if entry.known_pool && recv.pool.is_none() {
            return;
        }
        // A blocking API's own wait, unless it waits for what it just submitted
        // (`String get(String key) { return pool.submit(..).get(); }`).
        let own_api = self.in_blocking_api() && recv.origin.is_empty();
        // A project class's `join()` may be a `Thread` subclass's: that entry's
        // teardown methods (`close`, `stop`) are exempt too.
        let exempt =
            |w: &crate::catalog::WaitEntry| w.exempt_in.iter().any(|m| m == &self.frame.method);
        let thread_exempt = member && jdk_waits().any(|(w, _)| exempt(w));
        // (A wait on a known type only: `supplier.get()` on a project interface is none.)
        if own_api && untimed && !by_call && self.frame.params.is_empty() {
            // The class's own untimed `get()`: its callers wait (`FileFacts::member_waits`).
            let m = self.frame.method.as_str();
            let decl = self.classes.last().and_then(|c| c.decl);
            // A limiter's `acquire()` around a permit (`Semaphore.acquire()`), and a
            // fan-out's `await()` around a latch, as well.
            let latch = entry.kind == crate::catalog::WaitCatalogKind::Synchronizer;
            let api = matches!(m, "get" | "join")
                || (m == "acquire" && entry.permit)
                || (m == "await" && latch && !entry.permit);
            if let (true, Some(d)) = (api, decl) {
                let api = &mut self.facts.types[d].blocking_api;
                if !api.iter().any(|x| &**x == m) {
                    api.push(m.into());
                }
            }
        }
        if exempt(entry)
            || thread_exempt
            || object.is_some_and(|o| self.drained_before(node, o, &entry.drained_by))
            || own_api
            || object.is_some_and(|o| self.single_flight(o))
            || name == "join" && object.is_some_and(|o| self.interrupted_before(node, o))
        {
            return;
        }
        let never_full = fq.is_some_and(|t| self.catalog.in_group("never_full", t));
        if entry.bounded_only && (recv.unbounded_queue || never_full) {
            return; // `put` on an unbounded queue never blocks
        }
        let (kind, help) = (entry.kind, entry.help.clone());
        let recv_text = match object {
            Some(o) => short(self.text(o)),
            None if subclassed.is_some() => "this".into(),
            None => String::new(),
        };
        if fq == Some("java.util.concurrent.Semaphore") && self.used_as_lock(node, &recv_text) {
            return;
        }
        let span = self.wait_span(node);
        let written = self.src[span.start..span.end].to_string();
        let from_name = object.is_some() && written.starts_with(name);
        let what = if written.chars().count() <= 60 && !written.contains('\n') && !from_name {
            format!("`{written}`")
        } else {
            format!("`{recv_text}.{name}()`")
        };
        let on_future = fq.is_some_and(|t| self.catalog.in_group("future", t));
        let timed = !untimed
            || recv.bounded
            || recv.complete
            || self.bounded_type(recv)
            || self.frame.timeout_branch > 0
            || self.io_promise(node, object)
            || self.in_timed_twin(node)
            || self.done_at_callers(node, object)
            || (on_future && nargs == 0 && self.runs_on_completion());
        // A latch its tasks count down waits for them (the submission is waited, for
        // `caller_runs_under_join`), but it stays a synchronizer wait for `unbounded_join`.
        let on_result = kind != crate::catalog::WaitCatalogKind::Synchronizer;
        let idx = self.push_wait(
            span,
            what,
            &kind,
            timed || by_call,
            recv.origin.first().copied().filter(|_| on_result),
            help.replace("{recv}", &recv_text),
        );
        self.facts.waits[idx].by_call = by_call && !timed;
        if timed && on_result {
            self.facts.waits[idx].cancels = self.cancelled_here(object);
        }
        if !on_result && !timed {
            self.facts.waits[idx].counted_by = self.counting_tasks(object, recv);
        }
        if member && !timed {
            self.member_wait = Some((node.id(), span));
        }
        self.facts.waits[idx].consumer = entry.request_path;
        self.facts.waits[idx].permit = entry.permit;
        self.mark_forkjoin(idx, fq);
        self.facts.waits[idx].until = entry.until.as_deref().map(Into::into);
        let monitor = name == "wait" || fq == Some("java.util.concurrent.locks.Condition");
        // `while (startTime == 0) started.await();` where the class's own worker
        // counts `started` down: a start-up handshake, over once the worker runs.
        let latch = fq == Some("java.util.concurrent.CountDownLatch");
        let count_down = format!("{recv_text}.countDown()");
        let signals: &[&str] = if monitor {
            &["notifyAll()", "notify()", "signalAll()", "signal()"]
        } else if latch {
            &[count_down.as_str()]
        } else {
            &[]
        };
        self.facts.waits[idx].handshake = untimed && self.handshake(node, signals);
        if let (true, true, Some(c)) = (on_result, recv.origin.is_empty(), recv.call) {
            self.facts.call_waits.push((c, span));
        }
        // Where the future can come from, for the project model to find pool work in.
        let publisher = fq.is_some_and(|t| self.catalog.in_group("publisher", t));
        let future = on_future || publisher;
        // (Not a project class's own wait: that future is the project's.)
        if let (true, false, true, Some(o)) =
            (future && !member, timed, recv.origin.is_empty(), object)
        {
            let sources =
                super::queues::enclosing_body(node).and_then(|body| self.future_sources(o, body));
            if let Some(calls) = sources {
                self.facts.wait_sources.push((span, calls.into()));
            }
        }
        if let (true, false, Some(o)) = (publisher, timed, object) {
            if let Some(calls) = self.reactive_chain(o) {
                self.facts.chain_waits.push((span, calls.into()));
            }
        }
        // `allOf(a.f(), b.g()).join()`: bounded once every call returns an I/O promise.
        if on_result && !timed && recv.call.is_none() {
            for &c in &recv.promise_calls {
                self.facts.call_waits.push((c, span));
            }
        }
        if let (false, true) = (on_result, recv.origin.is_empty()) {
            if let Some(&c) = self.frame.release_calls.get(&recv_text) {
                self.facts.call_waits.push((c, span));
            }
        }
        for &o in &recv.origin {
            self.facts.submissions[o].waited.get_or_insert(idx);
        }
        // A future waited for is complete from here on (and so are `allOf`'s members).
        let is_future = fq.is_some_and(|t| {
            self.catalog.in_group("future", t) || self.catalog.in_group("forkjoin", t)
        });
        if let (true, Some(r)) = (is_future, &recv.root) {
            let r = r.clone();
            self.mark_complete(&r);
        }
        for m in recv.members.clone() {
            self.mark_complete(&m);
        }
    }

    /// A wait on a parameter of a private method that every caller in this file calls
    /// with a future it has proven done: `optionallyGet(info)` in
    /// `if (resultAvailable(info)) { .. }`, where `optionallyGet` returns `f.join()`.
    fn done_at_callers(&self, node: Node, object: Option<Node>) -> bool {
        let Some(var) = object.filter(|o| o.kind_name() == "identifier") else {
            return false;
        };
        let var = self.text(var);
        let Some(m) = syntax::enclosing_method(node) else {
            return false;
        };
        let private = self.modifiers(m).contains(&"private");
        let params = syntax::formal_params(m);
        let index = params
            .iter()
            .position(|p| p.field("name").is_some_and(|n| self.text(n) == var));
        let (true, Some(index), Some(name)) = (private, index, m.field("name")) else {
            return false;
        };
        let name = self.text(name);
        let mut calls = Vec::new();
        let mut stack = vec![self.root];
        while let Some(d) = stack.pop() {
            if d.kind_name() == "method_invocation"
                && d.field("name").is_some_and(|n| self.text(n) == name)
                && d.field("object").is_none_or(|o| o.kind_name() == "this")
            {
                calls.push(d);
            }
            let mut c = d.walk();
            stack.extend(d.named_children(&mut c));
        }
        !calls.is_empty()
            && calls.iter().all(|c| {
                let given = syntax::call_args(*c);
                given.len() == params.len()
                    && given[index].kind_name() == "identifier"
                    && self.proven_done_at(*c, self.text(given[index]))
            })
    }

    /// Whether the enclosing method implements a blocking API itself (`V get()`
    /// delegating to `inner.get()`, a latch's `await()`): its waits are the API. It
    /// must take the API's parameters: as many as the untimed form the catalog lists
    /// (`get()`, `put(e)`), or a time bound (`get(long, TimeUnit)`, `block(Duration)`);
    /// a key-value store's `get(key)` doing `kv.get(key).get()` implements no future.
    fn in_blocking_api(&self) -> bool {
        let m = self.frame.method.as_str();
        if m.ends_with("Interruptibly") {
            return true;
        }
        let futures = &self.catalog.data.futures;
        if !futures.blocking_apis.iter().any(|api| m == api) {
            return false;
        }
        let params = &self.frame.params;
        let typed = |i: usize, names: &[&str]| {
            params
                .get(i)
                .and_then(|p| self.lookup(p))
                .and_then(|v| v.ty)
                .is_some_and(|t| names.contains(&t.simple.as_str()))
        };
        let bound = match params.len() {
            1 => typed(0, &["Duration"]),
            2 => typed(1, &["TimeUnit"]),
            _ => false,
        };
        bound
            || self
                .catalog
                .waits_named(m)
                .any(|w| w.args.contains(&params.len()))
    }

    /// A future (or an array or collection of them) of a type that carries its own
    /// deadline (catalog `futures.bounded_types`).
    pub(super) fn bounded_type(&self, v: &Value) -> bool {
        v.ty.as_ref().is_some_and(|t| {
            self.bounded_future(t) || t.element().is_some_and(|e| self.bounded_future(e))
        })
    }

    /// A future type in catalog `futures.bounded_types`.
    pub(super) fn bounded_future(&self, t: &JType) -> bool {
        let bounded = &self.catalog.data.futures.bounded_types;
        t.fq().is_some_and(|fq| bounded.iter().any(|b| b == fq))
    }

    /// A binary semaphore (`new Semaphore(1)` in its class) that the method acquires and
    /// gives back in a `finally` (`sem.acquire(); try { .. } finally { sem.release(); }`):
    /// a mutex around its own work, like `synchronized`, not a wait for another thread's.
    /// A semaphore of more permits is a bulkhead: its waits stay reported.
    fn used_as_lock(&self, node: Node, recv: &str) -> bool {
        let name = recv.strip_prefix("this.").unwrap_or(recv);
        let binary = super::queues::enclosing_class_body(node).is_some_and(|class| {
            let text = self.text(class);
            [" = new Semaphore(1)", " = new Semaphore(1, "]
                .iter()
                .any(|init| text.contains(&format!("{name}{init}")))
        });
        let release = format!("{recv}.release(");
        binary
            && super::queues::enclosing_body(node).is_some_and(|body| {
                super::syntax::any_node(body, |n| {
                    n.kind_name() == "finally_clause" && self.text(n).contains(&release)
                })
            })
    }

    /// A reactive source made of calls on other objects (`client.search(..).map(..)`,
    /// or a local given such a chain in each branch), with no scheduler hop: those
    /// calls, for the project model to check (`FileFacts::chain_waits`).
    fn reactive_chain(&self, object: Node) -> Option<Vec<u32>> {
        let body = super::queues::enclosing_body(object)?;
        let mut calls = Some(Vec::new());
        self.promise_expr(object, body, &mut Vec::new(), &mut calls)
            .then_some(calls)
            .flatten()
            .filter(|c| !c.is_empty())
    }

    /// A local promise this method creates and hands to I/O callbacks that complete it
    /// (`f = new CompletableFuture<>(); req.onSuccess(r -> f.complete(r)); f.get();`),
    /// or to a call together with a timeout (`sendAsync(req, timeoutMs, f)`): the
    /// client's timeouts bound the wait.
    fn io_promise(&self, node: Node, object: Option<Node>) -> bool {
        let Some(var) = object.filter(|o| o.kind_name() == "identifier") else {
            return false;
        };
        super::queues::enclosing_body(node).is_some_and(|body| {
            let var = self.text(var);
            self.completed_by_callback(var, body) || self.handed_with_deadline(var, body)
        })
    }

    /// Whether a method signals inside a lambda or class body of its own (a task it
    /// starts signals when that work is done, later).
    fn signals_later(&self, method: Node, signals: &[&str]) -> bool {
        let Some(body) = method.field("body") else {
            return false;
        };
        super::syntax::any_node(body, |n| {
            matches!(n.kind_name(), "lambda_expression" | "class_body")
                && signals.iter().any(|s| self.text(n).contains(s))
        })
    }

    /// `while (!flushed) lock.wait();` (or `cond.await()`) in a class that also calls
    /// `notifyAll()`/`signalAll()` (one of `signals`): the component's threads hand
    /// work to each other.
    fn handshake(&self, node: Node, signals: &[&str]) -> bool {
        if signals.is_empty() {
            return false;
        }
        let Some(class) = super::queues::enclosing_class_body(node) else {
            return false;
        };
        // Signalled only by the class's constructors (`finally { inited = true;
        // condition.signalAll(); }`): a wait for the object's own construction on another
        // thread, over once it is built.
        // Or only by a start-up hook's own statements (`start() { load(); initialized
        // .countDown(); }`, not a task it hands on): a wait for the component's start.
        let mut c = class.walk();
        let members: Vec<Node> = class.named_children(&mut c).collect();
        let signalled = |n: &Node| signals.iter().any(|s| self.text(*n).contains(s));
        let startup = |m: &Node| {
            m.kind_name() == "constructor_declaration"
                || (m.kind_name() == "method_declaration"
                    && (m.field("name").is_some_and(|n| {
                        matches!(
                            self.text(n),
                            "start" | "init" | "initialize" | "afterPropertiesSet"
                        )
                    }) || self.modifiers(*m).contains(&"@PostConstruct"))
                    && !self.signals_later(*m, signals))
        };
        if self.signalled_after_handoff(node, signals) {
            return true;
        }
        let in_constructor = members.iter().any(|m| startup(m) && signalled(m));
        let elsewhere = members.iter().any(|m| !startup(m) && signalled(m));
        if in_constructor && !elsewhere {
            return true;
        }
        let in_while = {
            let mut n = node;
            let mut found = false;
            while let Some(p) = n.parent() {
                if matches!(p.kind_name(), "while_statement" | "do_statement") {
                    // `while (buffer.isFull()) notFull.await();`: a producer waiting for
                    // space blocks its caller for as long as the consumers lag, as
                    // `BlockingQueue.put` does.
                    // (A name that ends with "full": `isFull()`, `queueFull`, not
                    // `fullyLoaded`.)
                    let full = p.field("condition").is_some_and(|c| {
                        self.text(c)
                            .split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '_')
                            .map(str::to_ascii_lowercase)
                            .any(|w| w.ends_with("full") || w == "remainingcapacity")
                    });
                    if full {
                        return false;
                    }
                    found = true;
                    break;
                }
                if matches!(
                    p.kind_name(),
                    "method_declaration"
                        | "lambda_expression"
                        | "class_body"
                        | "constructor_declaration"
                ) {
                    break;
                }
                n = p;
            }
            found
        };
        if !in_while {
            return false;
        }
        let text = self.text(class);
        signals.iter().any(|s| text.contains(s))
    }

    /// A wait in a task (a lambda or an anonymous class) whose enclosing method, after
    /// handing the task on, signals as a statement of its own body (`pool.submit(() ->
    /// { ..; latch.await(); .. }); latch.countDown();`): the task waits for its
    /// submitter's next statements (a publish handshake), not for other work.
    fn signalled_after_handoff(&self, wait: Node, signals: &[&str]) -> bool {
        let mut n = wait;
        let task = loop {
            let Some(p) = n.parent() else { return false };
            match p.kind_name() {
                "lambda_expression" => break p,
                "class_body" => match p.parent() {
                    Some(c) if c.kind_name() == "object_creation_expression" => break c,
                    _ => return false,
                },
                _ => n = p,
            }
        };
        let Some(body) = super::queues::enclosing_body(task) else {
            return false;
        };
        syntax::named_children(body).into_iter().any(|st| {
            st.start_byte() > task.end_byte()
                && st.kind_name() == "expression_statement"
                && signals
                    .iter()
                    .any(|s| self.text(st).strip_suffix(';') == Some(*s))
        })
    }

    /// `worker.interrupt(); .. worker.join();`: the method stops the thread before it
    /// waits for it to end (a teardown), not for work to finish.
    fn interrupted_before(&self, wait: Node, thread: Node) -> bool {
        self.called_before(wait, thread, |_, name| name == "interrupt")
    }

    /// Whether the method around `wait` calls, before it, a method on the same receiver
    /// (`((Thread) worker)` is `worker`) that `pick` accepts (given the call and its name).
    fn called_before(&self, wait: Node, recv: Node, pick: impl Fn(Node, &str) -> bool) -> bool {
        let recv = self.text(syntax::uncast(recv));
        super::queues::enclosing_body(wait).is_some_and(|body| {
            syntax::any_node(body, |n| {
                n.end_byte() <= wait.start_byte()
                    && n.kind_name() == "method_invocation"
                    && n.field("object")
                        .is_some_and(|o| self.text(syntax::uncast(o)) == recv)
                    && n.field("name").is_some_and(|m| pick(n, self.text(m)))
            })
        })
    }

    /// `p.getInputStream()` (one of `streams`, called on `recv`) read on this thread
    /// before the wait: wrapped in a JDK reader or read by a call. A stream handed to a
    /// project object (`new OutputPump(p.getInputStream(), out).start()`) is read by it.
    fn drained_before(&self, wait: Node, recv: Node, streams: &[String]) -> bool {
        if streams.is_empty() {
            return false;
        }
        let handed_on = |call: Node| {
            let creation = call
                .parent()
                .filter(|a| a.kind_name() == "argument_list")
                .and_then(|a| a.parent())
                .filter(|c| c.kind_name() == "object_creation_expression");
            creation.is_some_and(|c| {
                let ty = c.field("type").and_then(|t| self.jtype(t));
                ty.as_ref()
                    .and_then(|t| t.fq())
                    .is_none_or(|fq| !fq.starts_with("java."))
            })
        };
        // A local read where the wait is too, not only on some branch of an `if` the
        // wait is outside (`if (interactive) { reader = .. }` then `waitFor()`).
        let on_path = |read: Node| {
            let mut cur = read;
            while let Some(p) = cur.parent() {
                if p.kind_name() == "if_statement" || p.kind_name() == "ternary_expression" {
                    return p.start_byte() <= wait.start_byte() && wait.end_byte() <= p.end_byte();
                }
                cur = p;
            }
            true
        };
        // `InputStream out = p.getInputStream();`: read through the local before the wait.
        let read = |call: Node| {
            let top = syntax::outermost(call, &["parenthesized_expression", "cast_expression"]);
            let local = top
                .parent()
                .filter(|d| d.kind_name() == "variable_declarator")
                .and_then(|d| d.field("name"));
            // Read where it is taken (`log(p.getInputStream())`, also under an `if`).
            let Some(local) = local.map(|l| self.text(l)) else {
                return true;
            };
            super::queues::enclosing_body(wait).is_some_and(|body| {
                syntax::any_node(body, |n| {
                    n.kind_name() == "identifier"
                        && n.start_byte() > top.end_byte()
                        && n.end_byte() <= wait.start_byte()
                        && self.text(n) == local
                        && on_path(n)
                })
            })
        };
        self.called_before(wait, recv, |call, name| {
            streams.iter().any(|s| s == name) && !handed_on(call) && read(call)
        })
    }

    /// `ongoing = inFlight.putIfAbsent(key, mine)` (or `ref.getAndAccumulate(mine, ..)`,
    /// `getAndSet(mine)`, `compareAndExchange(null, mine)`) with `mine = new
    /// CompletableFuture<>()` (or a `FutureTask`) that this method completes (or runs): a
    /// caller that loses the race waits for the winner doing the same work it would do
    /// itself (a single flight), on no pool.
    fn single_flight(&self, future: Node) -> bool {
        const INSTALLS: [&str; 4] = [
            "putIfAbsent",
            "getAndAccumulate",
            "getAndSet",
            "compareAndExchange",
        ];
        let Some(put) = (future.kind_name() == "identifier")
            .then(|| self.local_initializer(future))
            .flatten()
            .filter(|p| p.kind_name() == "method_invocation")
            .filter(|p| {
                p.field("name")
                    .is_some_and(|n| INSTALLS.contains(&self.text(n)))
            })
        else {
            return false;
        };
        let fresh = |m: &Node| {
            m.kind_name() == "identifier"
                && self.local_initializer(*m).is_some_and(|v| {
                    v.kind_name() == "object_creation_expression"
                        && v.field("type").is_some_and(|t| {
                            matches!(&*type_name(t, self.src), "CompletableFuture" | "FutureTask")
                        })
                })
        };
        let Some(mine) = put
            .field("arguments")
            .map(syntax::arguments)
            .and_then(|a| a.into_iter().find(fresh))
        else {
            return false;
        };
        let name = self.text(mine);
        super::queues::enclosing_body(future).is_some_and(|body| {
            syntax::any_node(body, |n| {
                n.kind_name() == "method_invocation"
                    && ["complete", "completeExceptionally", "run"]
                        .iter()
                        .any(|m| self.is_call_on(n, name, m))
            })
        })
    }

    pub(super) fn push_wait(
        &mut self,
        span: Span,
        what: String,
        kind: &crate::catalog::WaitCatalogKind,
        timed: bool,
        submission: Option<usize>,
        help: String,
    ) -> usize {
        let idx = self.facts.waits.len();
        self.facts.waits.push(Wait {
            span,
            ctx: self.current_ctx(),
            what,
            kind: WaitKind::from(*kind),
            timed,
            submission,
            help,
            needs_worker: false,
            consumer: false,
            reply: false,
            actor: false,
            handshake: false,
            holds: 0,
            permit: false,
            by_call: false,
            counted_by: None,
            cancels: false,
            forkjoin: false,
            until: None,
        });
        idx
    }

    /// Whether the method also cancels the future `object` names (`f.cancel(true)`, in
    /// the handler of the timed wait's `TimeoutException`).
    fn cancelled_here(&self, object: Option<Node>) -> bool {
        let Some(node) = object.filter(|o| o.kind_name() == "identifier") else {
            return false;
        };
        let var = self.text(node);
        super::queues::enclosing_body(node).is_some_and(|body| {
            super::syntax::any_node(body, |n| {
                n.kind_name() == "method_invocation"
                    && n.field("name").is_some_and(|m| self.text(m) == "cancel")
                    && n.field("object").is_some_and(|o| self.text(o) == var)
            })
        })
    }

    /// The submission whose tasks count down the latch `object` (tracked through its
    /// task bodies), or that hands it to each task (`submit(new FetchTask(id, latch))`).
    fn counting_tasks(&self, object: Option<Node>, recv: &Value) -> Option<usize> {
        if let Some(&s) = recv.origin.first() {
            return Some(s);
        }
        let object = object.filter(|o| o.kind_name() == "identifier")?;
        let var = self.text(object);
        let ctx = self.current_ctx();
        let words = |t: &'a str| {
            t.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '$')
                .filter(|w| !w.is_empty())
        };
        // The task may be a local built with the latch (`Runnable r = wrap(() ->
        // select(latch, c)); pool.submit(r)`).
        let body = super::queues::enclosing_body(object);
        let holds = |w: &str| {
            body.and_then(|b| self.local_declarator(b, w, true))
                .and_then(|d| d.field("value"))
                .is_some_and(|v| words(self.text(v)).any(|x| x == var))
        };
        self.facts.submissions.iter().position(|s| {
            s.ctx == ctx && {
                let text = &self.src[s.span.start..s.span.end];
                words(text).any(|w| w == var) || words(text).any(|w| w != var && holds(w))
            }
        })
    }

    /// `latch.countDown()` in a task body (catalog `release_methods`): a later
    /// `latch.await(..)` in the submitting method waits for that task, as a `get()`
    /// on its future would.
    fn track_release(&mut self, name: &str, object: Option<Node>) {
        if !self.catalog.data.release_methods.iter().any(|m| m == name) {
            return;
        }
        let Some(obj) = object.filter(|o| o.kind_name() == "identifier") else {
            return;
        };
        // The task this code runs as: the nearest enclosing context handed to a pool.
        let task = self.ctx.iter().rev().find_map(|&c| {
            let ctx = &self.facts.contexts[c];
            ctx.submission
                .filter(|_| ctx.kind != crate::facts::CtxKind::Function)
        });
        let var = self.text(obj).to_string();
        let Some(sub) = task else {
            // In a lambda a project call receives: that call may submit it.
            if let Some(&lambda) = self.ctx.last() {
                if self.facts.contexts[lambda].kind == crate::facts::CtxKind::Inline {
                    self.released_in.push((var, lambda));
                }
            }
            return;
        };
        if let Some(v) = self.scopes.get_mut(&var) {
            if !v.value.origin.contains(&sub) {
                v.value.origin.push(sub);
            }
        }
    }

    /// `return allAsList(futures)` or `return f;`: the futures of submissions this
    /// method collected or kept in a local are its result, as `return pool.submit(..)`
    /// is (`Submission::returned`): a caller that waits on it waits for those tasks.
    pub(super) fn returned_futures(&mut self, ret: Node) {
        let Some(e) = ret.named_child(0) else {
            return;
        };
        let combined = e.kind_name() == "method_invocation"
            && e.field("name").is_some_and(|n| {
                let n = self.text(n);
                let all_of = &self.catalog.data.futures.all_of;
                all_of.iter().any(|a| a.rsplit('.').next() == Some(n))
            });
        if !(combined || e.kind_name() == "identifier") {
            return;
        }
        for i in self.value_of(e).origin {
            if let Some(s) = self.facts.submissions.get_mut(i) {
                s.returned = true;
            }
        }
    }

    /// `futures.add(supplyAsync(..))`: the collection now holds those submissions.
    fn track_collection(&mut self, name: &str, object: Option<Node>, args: &[Node]) {
        if name != "add" || args.len() != 1 {
            return;
        }
        let Some(obj) = object.filter(|o| o.kind_name() == "identifier") else {
            return;
        };
        let origin = self.value_of(args[0]).origin;
        if origin.is_empty() {
            return;
        }
        let var = self.text(obj).to_string();
        if let Some(v) = self.scopes.get_mut(&var) {
            v.value.origin.extend(origin);
        }
    }

    /// Calls the project model follows: unqualified and `this.` calls (the caller's
    /// class, its supertypes and outer classes), and calls on a receiver typed with a
    /// project type (a field, local or parameter) or naming one (`Type.m()`).
    fn record_call(
        &mut self,
        node: Node,
        name: &str,
        object: Option<Node>,
        recv: &Value,
        lambda_args: Vec<(usize, crate::facts::CtxId)>,
        args: &[Node],
    ) {
        let project_type = |t: &JType| t.fq().is_none_or(|fq| !self.catalog.knows(fq));
        // `queryAsync(..)` after `import static a.b.AsyncQuery.queryAsync;`: a project
        // class's static method.
        let imported = object
            .is_none()
            .then(|| self.names.static_import_class(name))
            .flatten()
            .filter(|c| !self.catalog.knows(c))
            .map(|c| JType {
                fq: Some(c.to_string()),
                simple: c.rsplit('.').next().unwrap_or(c).to_string(),
                args: Vec::new(),
            });
        // `Runner.super.createTest()` in class `Runner`: the superclass's method, as
        // `super.createTest()` (an interface's name before `.super` is that interface).
        let own_super = object.is_some_and(|o| {
            let own_class = o.kind_name() == "identifier"
                && self
                    .classes
                    .last()
                    .is_some_and(|c| c.fq.rsplit('.').next() == Some(self.text(o)));
            own_class && {
                let mut c = node.walk();
                let qualified = node
                    .named_children(&mut c)
                    .any(|n| n.kind_name() == "super" && n != o);
                qualified
            }
        });
        let super_call = own_super || object.is_some_and(|o| o.kind_name() == "super");
        // `Registry.me().lookup(..)`: a call on a project call's result, whose declared
        // return type the project model looks the method up in.
        let mut chained = None;
        // `context.webSocket.handleFrame(..)`: a field of another project class's object.
        let mut member = None;
        // `server.getThreadPool().submit(..)`: an instance getter's result, typed by the
        // model only when no source declares the getter (Lombok's `@Getter`).
        let mut generated = None;
        // `factory.plugin().track(..)`: an instance method's result, typed by the model
        // only by the objects that method makes (`return new ExpressPlugin(..)`).
        let mut made = None;
        // The receiver is an injected field: its bean name.
        let mut bean = None;
        let (receiver_type, target) = match object {
            None => (None, imported.as_ref().map(|t| self.type_ref(t))),
            Some(o) if self.text(o) == "this" => (None, None),
            Some(_) if super_call => (None, None),
            Some(o) => {
                member = recv.ty.is_none().then(|| self.member_field(o)).flatten();
                let ty = match &recv.ty {
                    Some(t) if project_type(t) => t.clone(),
                    Some(_) => return,
                    None if member.is_some() => JType::default(),
                    None => match self.static_class(o) {
                        Some(c) if !self.catalog.knows(&c) => JType {
                            fq: None,
                            simple: super::syntax::type_name(o, self.src).into_owned(),
                            args: Vec::new(),
                        },
                        Some(_) => return,
                        None => {
                            // Only a static accessor's result (`Registry.me()`): one
                            // instance, of the type it declares. An instance getter's
                            // result may be any implementation (measured: wrong edges).
                            let accessor = o
                                .field("object")
                                .and_then(|x| self.static_class(x))
                                .is_some_and(|c| !self.catalog.knows(&c) && self.own_code(&c));
                            let named = o.field("name").is_some_and(|n| {
                                crate::facts::getter_field(self.text(n)).is_some()
                            });
                            // (Not a future's continuation: `getDone().thenRun(..)`
                            // keeps waiting on the getter's own call.)
                            let continues = || {
                                let futures = &self.catalog.data.futures;
                                futures.continuations.iter().any(|c| c == name)
                            };
                            let getter = named
                                && !continues()
                                && recv
                                    .pool
                                    .as_ref()
                                    .is_some_and(|p| p.key.starts_with("getter:"));
                            // `getRegistry().images(..)`: this class's own (or an
                            // inherited) getter, whose declared type the model reads.
                            let own = o.kind_name() == "method_invocation"
                                && o.field("object").is_none_or(|x| self.text(x) == "this")
                                && named
                                && o.field("arguments")
                                    .is_some_and(|a| a.named_child_count() == 0);
                            // Typed by the declared return type (not by a field's name).
                            let declared = accessor || (own && !getter);
                            let found = self.call_at.get(&(o.start_byte(), o.end_byte()));
                            let Some(&from) = found else {
                                return;
                            };
                            if declared {
                                chained = Some(from);
                            } else if getter {
                                generated = Some(from);
                            } else if o.kind_name() == "method_invocation"
                                && !continues()
                                && o.field("object").is_some_and(|x| {
                                    matches!(x.kind_name(), "identifier" | "field_access")
                                })
                                && !accessor_like(name, args.len())
                                && !JDK_CHAINED.contains(&name)
                            {
                                // (Only on an object's call, `factory.plugin()`: a longer
                                // chain is a builder's. Not an entity's getter or setter,
                                // `orders.byId(id).getTotal()`, nor a JDK value's method,
                                // `repo.findById(id).orElseThrow()`: a factory's product
                                // does work, and recording every chain costs memory.)
                                made = Some(from);
                            } else {
                                return;
                            }
                            JType::default()
                        }
                    },
                };
                if chained.is_some() || member.is_some() || generated.is_some() || made.is_some() {
                    (
                        None,
                        Some(std::sync::Arc::new(crate::facts::TypeRef::default())),
                    )
                } else {
                    // `@Async` methods are matched by the receiver's simple class name.
                    let simple = self.is_field_ref(o).then(|| ty.simple.clone());
                    if simple.is_some() {
                        let t = self.text(o);
                        bean = self
                            .field(t.strip_prefix("this.").unwrap_or(t))
                            .and_then(|f| f.bean.clone());
                    }
                    (simple, Some(self.type_ref(&ty)))
                }
            }
        };
        // An unqualified call can only reach a method of this file, or one inherited
        // through a supertype (of this class or an enclosing one).
        let inherits = self.classes.iter().any(|c| !c.supers.is_empty());
        if object.is_none() && !self.names.declares_method(name) && !inherits && imported.is_none()
        {
            return;
        }
        // `service.load(..).join()`: the result is waited for right here.
        let waited = object
            .and(self.outer_call)
            .filter(|&(id, _)| id == node.id())
            .and_then(|(_, wait)| wait);
        if let Some(t) = target.clone().or_else(|| self.own_type()) {
            self.pool_args(node, &t, name);
        }
        let overload = (target.is_none() && receiver_type.is_none())
            .then(|| self.overload(node, name))
            .flatten();
        // The receiver's holder: a getter's result, or a field of this class (for
        // calls named like a submission, which a wrapper's method is).
        let holder = match object {
            _ if super_call || !self.catalog.is_submit_method(name) => None,
            Some(_)
                if recv
                    .pool
                    .as_ref()
                    .is_some_and(|p| p.key.starts_with("getter:")) =>
            {
                recv.pool.as_ref().map(|p| p.key.clone())
            }
            Some(o) if self.is_field_ref(o) => {
                let t = self.text(o);
                Some(self.field_key(t.strip_prefix("this.").unwrap_or(t)))
            }
            _ => None,
        };
        if let Some(h) = holder {
            let at = u32::try_from(self.facts.calls.len()).unwrap_or(u32::MAX);
            self.facts.call_holders.push((at, h.into()));
        }
        // Side tables of this call, by its index.
        let at = u32::try_from(self.facts.calls.len()).unwrap_or(u32::MAX);
        if let Some((_, span)) = self.member_wait.take().filter(|(id, _)| *id == node.id()) {
            self.facts.member_waits.push((at, span));
        }
        let member_typed = member.is_some();
        if let Some(bean) = bean {
            self.facts.bean_receivers.push((at, bean));
        }
        if let Some((owner, field)) = member {
            let field = field.into_boxed_str();
            self.facts.member_receivers.push((at, owner, field));
        }
        if let Some(from) = chained {
            let from = u32::try_from(from).unwrap_or(u32::MAX);
            self.facts.receivers.push((at, from));
        }
        if let Some(from) = generated {
            let from = u32::try_from(from).unwrap_or(u32::MAX);
            self.facts.getter_receivers.push((at, from));
        }
        if let Some(from) = made {
            let from = u32::try_from(from).unwrap_or(u32::MAX);
            self.facts.factory_receivers.push((at, from));
        }
        let typed = target.is_some() || chained.is_some() || generated.is_some() || made.is_some();
        if (typed || member_typed) && !args.is_empty() {
            self.note_arg_types(at, args);
        }
        self.call_at
            .insert((node.start_byte(), node.end_byte()), self.facts.calls.len());
        self.facts.calls.push(Call {
            span: self.call_span(node),
            ctx: self.current_ctx(),
            method: name.into(),
            receiver_type: receiver_type.map(String::into_boxed_str),
            // `super.m()`: the superclass's method, never this class's override.
            callee_owner: super_call.then(|| crate::facts::SUPER_CALL.into()),
            returned: self.returned_call == Some(node.id()),
            target,
            in_loop: self.frame.loops > 0,
            submit_like: self.catalog.is_submit_method(name),
            args: node
                .field("arguments")
                .and_then(|_| u8::try_from(args.len()).ok()),
            literals: self.arg_kinds(args),
            timed: false,
            once: self.frame.once > 0,
            // A submission's call: the submission's check, not a second walk.
            detached: match self
                .submission_at
                .get(&(node.start_byte(), node.end_byte()))
            {
                Some(&i) => self.facts.submissions[i].detached,
                None => syntax::detached_statement(node, self.src),
            },
            extra: (waited.is_some() || !lambda_args.is_empty() || overload.is_some()).then(|| {
                Box::new(CallExtra {
                    waited,
                    waited_timed: waited.is_some() && self.outer_call_timed,
                    lambda_args: lambda_args.into(),
                    module: None,
                    overload,
                })
            }),
        });
    }

    /// The declared types of a typed call's arguments that are names of project types
    /// (`items.getItem(id)`, `id` a `NodeId`): the model picks the overloads they fit.
    fn note_arg_types(&mut self, at: u32, args: &[Node]) {
        let named = |a: &Node| matches!(a.kind_name(), "identifier" | "field_access");
        if !args.iter().any(named) {
            return;
        }
        let mut any = false;
        let types: Box<[_]> = args
            .iter()
            .map(|&a| {
                let ty = named(&a).then(|| self.value_of(a).ty).flatten()?;
                let r = self.may_be_project_class(&ty).then(|| self.type_ref(&ty));
                any |= r.is_some();
                r
            })
            .collect();
        if any {
            self.facts.arg_types.push((at, types));
        }
    }

    /// Pools passed as arguments of a call to a project class's constructor or method.
    pub(super) fn pool_args(
        &mut self,
        node: Node,
        target: &std::sync::Arc<crate::facts::TypeRef>,
        method: &str,
    ) {
        let Some(args) = node.field("arguments") else {
            return;
        };
        // (Asked only once a pool is passed: `parent()` walks down from the root.)
        let mut holder: Option<Option<Box<str>>> = None;
        let mut c = args.walk();
        let args: Vec<Node> = args.named_children(&mut c).collect();
        for (index, a) in args.into_iter().enumerate() {
            // `new TaskRunner(Executors.newScheduledThreadPool(n), ..)`: a pool made for
            // the call, known by where it is passed (the wrapper's field holds it).
            let made = matches!(
                a.kind_name(),
                "method_invocation" | "object_creation_expression"
            )
            .then(|| self.creation_in(a))
            .flatten();
            if let Some(creation) = made {
                let holder = holder
                    .get_or_insert_with(|| self.instance_holder(node, method))
                    .clone();
                let class = target.candidates.first().map_or("?", String::as_str);
                let simple = class.rsplit('.').next().unwrap_or(class);
                let key = format!(
                    "arg:{}@{}:{simple}.{method}#{index}",
                    self.class_fq(),
                    creation.start_byte()
                );
                let name = self
                    .stored_as(node)
                    .map_or_else(|| simple.to_string(), |(n, _)| n);
                let scope = super::queues::enclosing_body(node).unwrap_or(node);
                self.record_pool(key.clone(), &name, creation, None, scope, Vec::new());
                self.facts.pool_args.push(crate::facts::PoolArg {
                    target: target.clone(),
                    method: method.into(),
                    index,
                    pool: key,
                    holder,
                });
                continue;
            }
            if !matches!(a.kind_name(), "identifier" | "field_access") {
                continue;
            }
            if let Some(p) = self.value_of(a).pool.filter(|p| p.confirmed) {
                let holder = holder
                    .get_or_insert_with(|| self.instance_holder(node, method))
                    .clone();
                self.facts.pool_args.push(crate::facts::PoolArg {
                    target: target.clone(),
                    method: method.into(),
                    index,
                    pool: p.key,
                    holder,
                });
            }
        }
    }

    /// For a constructor call: the field its object is stored in.
    fn instance_holder(&self, node: Node, method: &str) -> Option<Box<str>> {
        (method == "<init>")
            .then(|| self.holding_field(node))
            .flatten()
            .map(Into::into)
    }

    /// The field of this class a new object is stored in (`runner = new T(..)`,
    /// `this.runner = ..`, `private final T runner = new T(..)`), as its key.
    fn holding_field(&self, node: Node) -> Option<String> {
        match self.stored_as(node)? {
            (name, true) => Some(self.field_key(&name)),
            _ => None,
        }
    }

    /// The variable or field a call's result is stored in (`runner = new T(..)`,
    /// `T runner = new T(..)`), and whether it is a field of this class.
    fn stored_as(&self, node: Node) -> Option<(String, bool)> {
        let parent = node.parent()?;
        let (target, field) = match parent.kind_name() {
            "variable_declarator" => {
                let field = parent
                    .parent()
                    .is_some_and(|d| d.kind_name() == "field_declaration");
                (parent.field("name")?, field)
            }
            "assignment_expression" => {
                let left = parent.field("left")?;
                (left, self.is_field_ref(left))
            }
            _ => return None,
        };
        let t = self.text(target);
        Some((t.strip_prefix("this.").unwrap_or(t).to_string(), field))
    }

    /// `name` or `this.name` where `name` is a field (not shadowed by a local).
    pub(super) fn is_field_ref(&self, o: Node) -> bool {
        let t = self.text(o);
        let name = t.strip_prefix("this.").unwrap_or(t);
        let plain = o.kind_name() == "identifier"
            || (o.kind_name() == "field_access" && t.starts_with("this."));
        plain
            && (t.starts_with("this.") || self.scopes.get(name).is_none())
            && self.field(name).is_some()
    }

    /// A wait's primary span: like [`Self::call_span`], but from the method name when
    /// the receiver is itself a call (`supplyAsync(..).join()` -> `join()`), so the
    /// wait and the submission it waits for are two separate spans.
    pub(super) fn wait_span(&self, node: Node) -> Span {
        let s = self.call_span(node);
        match (node.field("object"), node.field("name")) {
            (Some(o), Some(n))
                if matches!(
                    o.kind_name(),
                    "method_invocation" | "object_creation_expression"
                ) =>
            {
                Span::new(n.start_byte(), s.end.max(n.end_byte()))
            }
            _ => s,
        }
    }

    /// The parameter of this method a lambda runs (`task.run()`, `task.call()`), if
    /// any: not one a nested lambda or class runs later.
    /// The task parameter (a `Runnable`, `Callable` or `Supplier`) that `new
    /// T(.., task, ..)` decorates.
    fn decorated_param(&self, creation: Node) -> Option<usize> {
        let args = creation.field("arguments")?;
        let mut c = args.walk();
        let found = args
            .named_children(&mut c)
            .filter(|a| a.kind_name() == "identifier")
            .find_map(|a| {
                let name = self.text(a);
                let i = self.frame.params.iter().position(|p| p == name)?;
                task_type(&self.lookup(name)?.ty?).then_some(i)
            });
        found
    }

    fn forwarded_param(&self, lambda: Node) -> Option<usize> {
        super::syntax::own_invocations(lambda.field("body")?)
            .into_iter()
            .find_map(|n| {
                let runs = n
                    .field("name")
                    .is_some_and(|m| matches!(self.text(m), "run" | "call" | "get"));
                let param = n
                    .field("object")
                    .filter(|o| o.kind_name() == "identifier")
                    .and_then(|o| self.frame.params.iter().position(|p| p == self.text(o)));
                // A task, not a JDK value read in it (`rateLimiter.get()` on an
                // `AtomicReference` parameter).
                let task_typed = |i: usize| {
                    let ty = self.lookup(&self.frame.params[i]).and_then(|v| v.ty);
                    ty.is_none_or(|t| {
                        task_type(&t) || t.fq().is_none_or(|fq| !fq.starts_with("java."))
                    })
                };
                param.filter(|&i| runs && task_typed(i))
            })
    }

    /// A call's primary span: from the receiver (when on the method name's line)
    /// to the end of the call (or of the name, when the arguments run over lines).
    pub(super) fn call_span(&self, node: Node) -> Span {
        let Some(name) = node.field("name") else {
            return node_span(node);
        };
        let row = name.start_position().row;
        let start = match node.field("object") {
            Some(o) if o.start_position().row == row => o.start_byte(),
            _ => name.start_byte(),
        };
        let end = if node.end_position().row == row {
            node.end_byte()
        } else {
            name.end_byte()
        };
        Span::new(start, end)
    }
}

fn node_span(n: Node) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

/// A call as written, with long arguments elided: `CompletableFuture.supplyAsync(..)`.
pub fn short_call(code: &str) -> String {
    let s = super::syntax::collapse(code);
    match s.find('(') {
        Some(i) if s.chars().count() > 48 => format!("{}(..)", &s[..i]),
        _ => s,
    }
}

impl Extractor<'_> {
    /// The project type of a task object argument: a typed variable or field, or a
    /// `new Type(..)` without a class body.
    fn task_object_type(&self, arg: Node) -> Option<std::sync::Arc<crate::facts::TypeRef>> {
        let ty = match arg.kind_name() {
            "identifier" | "field_access" => self.value_of(arg).ty?,
            "object_creation_expression" => {
                let has_body = {
                    let mut c = arg.walk();
                    let found = arg
                        .named_children(&mut c)
                        .any(|n| n.kind_name() == "class_body");
                    found
                };
                if has_body {
                    return None;
                }
                self.jtype(arg.field("type")?)?
            }
            _ => return None,
        };
        if ty.fq().is_some_and(|fq| self.catalog.knows(fq)) {
            return None;
        }
        Some(self.type_ref(&ty))
    }
}

/// The kinds of an argument list's literal arguments ([`crate::facts::Call::literals`]).
impl Extractor<'_> {
    /// `context.webSocket` where `context` is a variable or field of a project class:
    /// that class (as a call target) and the field's name.
    fn member_field(&self, o: Node) -> Option<(std::sync::Arc<crate::facts::TypeRef>, String)> {
        // `assetService.find(..)` on a field a project superclass declares (maybe in
        // another file): this class's field of that name, through its supertypes.
        if o.kind_name() == "identifier" {
            let name = self.text(o);
            let inherited = self.scopes.get(name).is_none()
                && self.field(name).is_none()
                && name.starts_with(|c: char| c.is_ascii_lowercase())
                && self.classes.last().is_some_and(|c| !c.supers.is_empty());
            return inherited
                .then(|| self.own_type())
                .flatten()
                .map(|t| (t, name.to_string()));
        }
        if o.kind_name() != "field_access" {
            return None;
        }
        let (object, field) = (o.field("object")?, o.field("field")?);
        if !matches!(object.kind_name(), "identifier" | "field_access")
            || self.text(object) == "this"
        {
            return None;
        }
        let ty = self.value_of(object).ty?;
        (self.may_be_project_class(&ty) && ty.fq().is_none_or(|fq| self.own_code(fq)))
            .then(|| (self.type_ref(&ty), self.text(field).to_string()))
    }

    /// The type a JDK conversion call returns (`Long.valueOf(n)`: `Long`,
    /// `String.format(..)`: `String`), which types an overload's argument.
    fn conversion_type(&self, a: Node) -> Option<&'static str> {
        if a.kind_name() != "method_invocation" {
            return None;
        }
        let class = self.text(a.field("object")?);
        let name = self.text(a.field("name")?);
        let number = name == "valueOf" || name.starts_with("parse");
        match class {
            "Long" if number => Some("Long"),
            "Integer" if number => Some("Integer"),
            "Double" if number => Some("Double"),
            "String" if matches!(name, "valueOf" | "format" | "join") => Some("String"),
            _ => None,
        }
    }

    /// `file.getBytes()`, `out.toByteArray()`, `in.readAllBytes()`, `new byte[n]`: an
    /// argument that is a `byte[]` ([`crate::facts::ArgKind::Bytes`]).
    fn byte_array(&self, a: Node) -> bool {
        match a.kind_name() {
            "method_invocation" => {
                let no_args = a
                    .field("arguments")
                    .is_some_and(|x| x.named_child_count() == 0);
                no_args
                    && a.field("name").is_some_and(|n| {
                        matches!(self.text(n), "getBytes" | "toByteArray" | "readAllBytes")
                    })
            }
            "array_creation_expression" => a.field("type").is_some_and(|t| self.text(t) == "byte"),
            _ => false,
        }
    }

    /// The kinds of a call's arguments that are literals or variables of a declared
    /// class type (`serviceEntry` of type `String` cannot be a `List` parameter).
    fn arg_kinds(&self, args: &[Node]) -> u32 {
        use crate::facts::ArgKind;
        let mut bits = literal_kinds(args);
        for (i, a) in args.iter().take(8).enumerate() {
            if let Some(t) = self.conversion_type(*a) {
                let kind = if t == "String" {
                    ArgKind::Text
                } else {
                    ArgKind::Number
                };
                ArgKind::set(&mut bits, i, kind);
                continue;
            }
            if self.byte_array(*a) {
                ArgKind::set(&mut bits, i, ArgKind::Bytes);
                continue;
            }
            if a.kind_name() != "identifier" {
                continue;
            }
            let Some(t) = self.lookup(self.text(*a)).and_then(|v| v.ty) else {
                continue;
            };
            let kind = match t.simple.rsplit('.').next().unwrap_or_default() {
                "String" => ArgKind::Text,
                "Boolean" => ArgKind::Bool,
                "Integer" | "Long" | "Short" | "Byte" | "Double" | "Float" => ArgKind::Number,
                // What converts to many parameter types, and type variables (`T`).
                "Object" | "CharSequence" | "Serializable" | "Comparable" | "Number" => continue,
                s if s.len() <= 2 || s.chars().all(|c| c.is_ascii_uppercase()) => continue,
                _ => ArgKind::Object,
            };
            ArgKind::set(&mut bits, i, kind);
        }
        bits
    }
}

fn literal_kinds(args: &[Node]) -> u32 {
    use crate::facts::ArgKind;
    let mut bits = 0;
    for (i, a) in args.iter().take(8).enumerate() {
        let kind = match a.kind_name() {
            "true" | "false" => ArgKind::Bool,
            "decimal_integer_literal"
            | "hex_integer_literal"
            | "octal_integer_literal"
            | "binary_integer_literal"
            | "decimal_floating_point_literal"
            | "hex_floating_point_literal" => ArgKind::Number,
            "string_literal" | "text_block" => ArgKind::Text,
            _ => continue,
        };
        ArgKind::set(&mut bits, i, kind);
    }
    bits
}

/// A JDK task type: what a wrapper runs or decorates.
fn task_type(t: &JType) -> bool {
    matches!(t.simple.as_str(), "Runnable" | "Callable" | "Supplier")
}

/// Methods of the JDK's values and builders that chains end in (`Optional`, `Stream`,
/// `String`, `java.time`, a builder's `build`, `ResponseEntity`'s `body`): not a
/// project factory's product's work.
const JDK_CHAINED: &[&str] = &[
    "build",
    "body",
    "orElse",
    "orElseGet",
    "orElseThrow",
    "ifPresent",
    "isPresent",
    "map",
    "filter",
    "flatMap",
    "stream",
    "collect",
    "forEach",
    "reversed",
    "thenComparing",
    "orTimeout",
    "append",
    "toString",
    "equals",
    "hashCode",
    "length",
    "size",
    "isEmpty",
    "trim",
    "split",
    "substring",
    "contains",
    "startsWith",
    "endsWith",
    "toLowerCase",
    "toUpperCase",
    "minus",
    "plus",
    "isBefore",
    "isAfter",
    "id",
    "name",
    "ok",
    "status",
    "thenApply",
    "thenAccept",
    "thenCompose",
    "join",
    "get",
    "values",
    "keySet",
    "entrySet",
];

/// A getter's or a setter's name and arity: `getTotal()`, `isPaid()`, `setTotal(t)`.
fn accessor_like(name: &str, args: usize) -> bool {
    let named = |prefix: &str| {
        name.strip_prefix(prefix)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    (args == 0 && (named("get") || named("is"))) || (args == 1 && named("set"))
}
