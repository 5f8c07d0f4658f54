//! One pass over a tree-sitter-java tree that records the facts of a file:
//! the walker, its scopes and execution contexts. Calls, pools, queues and
//! annotations are handled in their own modules.

use rustc_hash::FxHashMap as HashMap;

use super::tree::Node;

use super::resolve::Names;
use super::syntax::{span, text, NodeExt};
use super::types::{JType, PoolRef, Scopes, Value};
use crate::catalog::EntryHeat;
use crate::catalog::Indexed;
use crate::facts::Item;
use crate::facts::{Context, CtxId, CtxKind, Entry, FileFacts, Heat, TypeDecl, TypeRef};

/// A field as declared.
#[derive(Debug, Clone, Default)]
pub(super) struct FieldInfo {
    pub ty: Option<JType>,
    pub pool: Option<PoolRef>,
    /// Initialized with an unbounded queue.
    pub unbounded_queue: bool,
    /// A `static final` initialised to `null` or `false`: what a branch guarded by it
    /// never runs (`if (MIRROR_URL != null)`, `if (DEBUG)`).
    pub off: Option<super::flow::Off>,
    /// Injected (`@Autowired`, `@Resource`): the bean name it is injected by.
    pub bean: Option<Box<str>>,
}

/// One of a class's methods declared with the same name and parameter count as another.
#[derive(Default)]
pub(super) struct Overload {
    /// The start of the method's name.
    pub at: u32,
    /// Its parameter types as written (`List<Topic>`), for this file's calls.
    pub written: Vec<String>,
    /// The same, resolved, for the model (see [`crate::facts::FileFacts::param_types`]):
    /// a project or JDK class, not a primitive, an array, varargs or a type variable.
    pub types: crate::facts::SlotTypes,
}

/// What the walker knows about the class it is in.
#[derive(Default)]
pub(super) struct ClassInfo {
    /// The class body's byte range, for summaries of its methods looked up on demand.
    pub body: Option<(usize, usize)>,
    /// Fully-qualified name (`com.acme.Outer.Inner`).
    pub fq: String,
    /// `static final` integer constants with a value known here.
    pub constants: HashMap<String, u64>,
    pub fields: HashMap<String, FieldInfo>,
    /// Declared return types of this class's methods (by name, when unambiguous).
    pub methods: HashMap<String, Option<JType>>,
    /// Getters: methods whose body is `return field;` (`getExecutor()` -> `executor`).
    pub getters: HashMap<String, String>,
    /// The catalog's event-loop entry (its index), when the class is a handler.
    pub event_loop: Option<usize>,
    /// Annotations on the class (resolved names), for entry points.
    pub annotations: Vec<String>,
    /// Direct supertypes (fully qualified when resolvable, else as written).
    pub supers: Vec<String>,
    /// Index of this class's [`TypeDecl`] in the file's facts.
    pub decl: Option<usize>,
    /// Fields and constants initialised with a caller-runs rejection handler.
    pub caller_runs_fields: rustc_hash::FxHashSet<String>,
    /// Methods declared more than once with the same parameter count: per name, each
    /// declaration's name offset and its parameters' simple type names (an
    /// unqualified call whose argument types pick one records which).
    pub overloads: HashMap<String, Vec<Overload>>,
    /// `fq`, shared by the class's contexts.
    pub shared: std::sync::Arc<str>,
    /// Marked `@Deprecated` (or its outer class is), or only deprecated constructors
    /// make it.
    pub deprecated: bool,
}

/// The method (or lambda) being walked.
#[derive(Default, Clone)]
pub(super) struct Frame {
    /// Method name, for local pool keys and `exempt_in`.
    pub method: String,
    /// The method's parameter names, in order (a wrapper's task parameter).
    pub params: Vec<String>,
    /// Depth of loops inside the current method or lambda body.
    pub loops: usize,
    /// Declared return type of the method (for lambdas it returns).
    pub returns: Option<JType>,
    /// Inside a branch on a timeout value (`if (timeout <= 0) return f.get();`):
    /// the caller chose whether to bound the wait.
    pub timeout_branch: usize,
    /// Latches whose release the task of a project call does: variable -> call index.
    pub release_calls: HashMap<String, usize>,
    /// Inside a lazy initialization (`Call::once`).
    pub once: usize,
}

pub struct Extractor<'a> {
    pub(super) src: &'a str,
    pub(super) catalog: &'a Indexed,
    pub(super) names: Names,
    pub(super) package: String,
    /// The file belongs to a module named for a command line (`titus-cli`): the index
    /// of the catalog's entry point with `module_words` it matches.
    pub(super) module_entry: Option<usize>,
    pub(super) classes: Vec<ClassInfo>,
    /// The file's syntax tree.
    pub(super) root: Node<'a>,
    pub(super) scopes: Scopes,
    pub(super) ctx: Vec<CtxId>,
    pub(super) frame: Frame,
    /// Submission index by the byte range of its call.
    pub(super) submission_at: HashMap<(usize, usize), usize>,
    /// `FileFacts::client_beans` index by the start of its `@Bean` method.
    pub(super) bean_at: HashMap<usize, u32>,
    /// Reported requests (index in `facts.clients`) sent through a client made later
    /// in the method (its creation's span), with what to add to that client's message
    /// if it is reported too: then the two are one finding.
    pub(super) sent_before: Vec<(usize, crate::source::Span, String)>,
    /// Calls recorded for project methods, by the span of the call node.
    pub(super) call_at: HashMap<(usize, usize), usize>,
    /// An untimed `get()`/`join()` on a project class's variable, by call node, until
    /// its call is recorded (`FileFacts::member_waits`).
    pub(super) member_wait: Option<(usize, crate::source::Span)>,
    /// Whether this file can name a `fixed_thread_users` class at all.
    pub(super) names_fixed_thread_users: bool,
    /// The file's text names a per-call setting of a client entry (`withDeadlineAfter`):
    /// only then are methods' parameters looked at for it ([`Extractor::param_deadlines`]).
    pub(super) names_per_call_needs: bool,
    /// A call later in the current chain moves the work off the event loop (`subscribeOn`).
    pub(super) off_loop_above: bool,
    /// While a call's receiver is walked: the receiver's node id, and the call's
    /// span when it waits for its result (`service.load(..).join()`); this spares
    /// a `parent()` walk from the root per call.
    pub(super) outer_call: Option<(usize, Option<crate::source::Span>)>,
    /// The wait of `outer_call` passes a time bound.
    pub(super) outer_call_timed: bool,
    /// The next lambda gets a context even if it runs inline (an argument of a project call).
    pub(super) force_lambda_ctx: bool,
    /// Latches counted down in a lambda passed to a project call (a wrapper that may
    /// submit it): (variable, the lambda's context).
    pub(super) released_in: Vec<(String, CtxId)>,
    /// Variables marked complete, with the scope depth they were marked at.
    pub(super) completed_log: Vec<(String, usize)>,
    /// Type references already made in this file, by name and class depth (shared).
    pub(super) type_refs: std::cell::RefCell<HashMap<(String, String), std::sync::Arc<TypeRef>>>,
    /// Class bodies' identifiers and single assignments, indexed on first use
    /// (`class_index`).
    pub(super) class_indexes: std::cell::RefCell<super::class_index::ClassIndexes>,
    /// The node id of the call a `return` statement returns (`Call::returned`).
    pub(super) returned_call: Option<usize>,
    pub facts: FileFacts,
}

impl<'a> Extractor<'a> {
    pub fn new(root: Node<'a>, src: &'a str, catalog: &'a Indexed) -> Extractor<'a> {
        let mut package = String::new();
        let mut c = root.walk();
        for child in root.named_children(&mut c) {
            if child.kind_name() == "package_declaration" {
                let mut c2 = child.walk();
                let name = child
                    .named_children(&mut c2)
                    .find(|n| matches!(n.kind_name(), "scoped_identifier" | "identifier"));
                if let Some(n) = name {
                    package = text(n, src)
                        .chars()
                        .filter(|c| !c.is_whitespace())
                        .collect();
                }
            }
        }
        let names = Names::collect(root, src);
        let names_fixed_thread_users = catalog.data.fixed_thread_users.iter().any(|fq| {
            let simple = fq.rsplit('.').next().unwrap_or(fq);
            names.resolve_type(simple, &|k| catalog.knows(k)).as_deref() == Some(fq.as_str())
        });
        let names_per_call_needs = catalog.per_call_needs().any(|need| src.contains(need));
        Extractor {
            src,
            root,
            catalog,
            names,
            names_fixed_thread_users,
            names_per_call_needs,
            off_loop_above: false,
            outer_call: None,
            outer_call_timed: false,
            force_lambda_ctx: false,
            released_in: Vec::new(),
            completed_log: Vec::new(),
            type_refs: Default::default(),
            package,
            module_entry: None,
            classes: Vec::new(),
            scopes: Scopes::default(),
            ctx: Vec::new(),
            frame: Frame::default(),
            submission_at: HashMap::default(),
            bean_at: HashMap::default(),
            sent_before: Vec::new(),
            call_at: HashMap::default(),
            member_wait: None,
            class_indexes: Default::default(),
            returned_call: None,
            facts: FileFacts::default(),
        }
    }

    pub(super) fn text(&self, n: Node) -> &'a str {
        text(n, self.src)
    }

    /// `System.exit(..)` in a method's own code: the method ends the program (a
    /// command line's stop command, a fatal start-up check). It is cold unless hot
    /// code calls it, as a shutdown hook is.
    pub(super) fn ends_program(&mut self) {
        let id = self.current_ctx();
        let Some(c) = self.facts.contexts.get_mut(id) else {
            return;
        };
        if c.kind == CtxKind::Function && c.entry.is_none() && &*c.name != "<init>" {
            c.entry = Some(Box::new(Entry {
                heat: Heat::Cold,
                why: "a program's exit path (`System.exit`)".into(),
                paced: false,
                yields: true,
                job: false,
                sized_job: false,
                per_event: false,
            }));
        }
    }

    pub(super) fn current_ctx(&self) -> CtxId {
        self.ctx.last().copied().unwrap_or(0)
    }

    pub(super) fn jtype(&self, node: Node) -> Option<JType> {
        JType::from_node(node, self.src, &self.names, self.catalog)
    }

    /// Whether a declared type may name a class of the project: not a primitive, a
    /// catalog type, a `java.*` type or a type variable (`T`).
    pub(super) fn may_be_project_class(&self, t: &JType) -> bool {
        const LANG: [&str; 12] = [
            "String",
            "Object",
            "Integer",
            "Long",
            "Boolean",
            "Double",
            "Float",
            "Short",
            "Byte",
            "Character",
            "Void",
            "Class",
        ];
        let upper = t.simple.chars().next().is_some_and(char::is_uppercase);
        upper
            && t.simple.len() > 1
            && !LANG.contains(&t.simple.as_str())
            && t.fq()
                .is_none_or(|fq| !fq.starts_with("java.") && !self.catalog.knows(fq))
    }

    /// The declared parameter types of a method its class overloads with as many
    /// parameters (see [`FileFacts::param_types`]), as `collect_overloads` found them.
    fn note_param_types(&mut self, node: Node, id: CtxId) {
        let Some(name) = node.field("name") else {
            return;
        };
        let at = u32::try_from(name.start_byte()).unwrap_or(u32::MAX);
        let types = self.classes.last().and_then(|c| {
            let o = c.overloads.get(self.text(name))?;
            o.iter().find(|o| o.at == at).map(|o| o.types.clone())
        });
        if let Some(types) = types {
            self.facts.param_types.push((id, types));
        }
    }

    /// A parameter's declared type for [`Overload::types`].
    fn param_type(&self, p: Node) -> Option<std::sync::Arc<TypeRef>> {
        let t = p
            .field("type")
            .filter(|_| p.kind_name() == "formal_parameter")?;
        if !matches!(
            t.kind_name(),
            "type_identifier" | "scoped_type_identifier" | "generic_type"
        ) {
            return None;
        }
        let ty = self.jtype(t)?;
        // `T`, `K`, `ID`: a type variable.
        let variable = ty.simple.len() <= 2 && ty.simple.chars().all(|c| c.is_ascii_uppercase());
        (!variable && ty.simple.starts_with(char::is_uppercase)).then(|| self.type_ref(&ty))
    }

    pub(super) fn eval(&self, n: Node) -> Option<u64> {
        let empty = HashMap::default();
        let consts = self.classes.last().map(|c| &c.constants).unwrap_or(&empty);
        super::eval::eval(n, self.src, consts)
    }

    pub(super) fn push_ctx(
        &mut self,
        kind: CtxKind,
        name: String,
        head: Node,
        body: Node,
    ) -> CtxId {
        let id = self.facts.contexts.len();
        self.facts.contexts.push(Context {
            kind,
            parent: self.ctx.last().copied(),
            name,
            owner: self.classes.last().map(|c| c.shared.clone()),
            head: span(head),
            body: span(body),
            submission: None,
            entry: None,
            worker_loop: false,
            dedicated_loop: false,
            once: false,
            detached: false,
            arity: None,
            param_kinds: 0,
            local_params: 0,
            is_static: false,
            is_public: false,
            // Inside deprecated code, as its class or the code around it is.
            deprecated: self.classes.last().is_some_and(|c| c.deprecated)
                || self
                    .ctx
                    .last()
                    .is_some_and(|&p| self.facts.contexts[p].deprecated),
            allows_dead: false,
            test_hook: false,
            annotated: false,
        });
        id
    }

    /// A type as candidates for its fully-qualified name in the project.
    pub(super) fn type_ref(&self, t: &JType) -> std::sync::Arc<TypeRef> {
        let inner = self
            .classes
            .last()
            .map(|c| c.fq.clone())
            .unwrap_or_default();
        let key = (t.fq.clone().unwrap_or_else(|| t.simple.clone()), inner);
        if let Some(hit) = self.type_refs.borrow().get(&key) {
            return hit.clone();
        }
        let candidates = match &t.fq {
            Some(fq) => vec![fq.clone()],
            None => {
                let enclosing: Vec<String> = self.classes.iter().map(|c| c.fq.clone()).collect();
                self.names.candidates(&t.simple, &enclosing, &self.package)
            }
        };
        let r = std::sync::Arc::new(TypeRef { candidates });
        self.type_refs.borrow_mut().insert(key, r.clone());
        r
    }

    /// The entry point a method declaration is, per the catalog's `entry_points`.
    fn entry_for(
        &self,
        node: Node,
        name: &str,
        annotations: &[super::annotations::Annotation],
    ) -> Option<Entry> {
        let class = self.classes.last()?;
        let anns: Vec<&str> = annotations.iter().map(|a| a.name.as_str()).collect();
        let mods = self.modifiers(node);
        let public = mods.contains(&"public");
        for (i, e) in self.catalog.data.entry_points.iter().enumerate() {
            if !e.module_words.is_empty() {
                if self.module_entry != Some(i) {
                    continue;
                }
                let mut entry = Entry::new(e.heat.into(), e.why.clone());
                entry.yields = e.yields;
                return Some(entry);
            }
            let ann = anns
                .iter()
                .find(|a| e.method_annotations.iter().any(|m| m == *a));
            if !e.method_annotations.is_empty() && ann.is_none() {
                continue;
            }
            if !e.class_annotations.is_empty()
                && !class
                    .annotations
                    .iter()
                    .any(|a| e.class_annotations.contains(a))
            {
                continue;
            }
            if !e.supertypes.is_empty() && !class.supers.iter().any(|s| e.supertypes.contains(s)) {
                continue;
            }
            if !e.supertype_suffixes.is_empty()
                && !class
                    .supers
                    .iter()
                    .any(|s| e.suffix_names(s.split('<').next().unwrap_or(s)))
            {
                continue;
            }
            // A constructor is an entry only where one lists `<init>`.
            if name == "<init>" && !e.methods.iter().any(|m| m == "<init>") {
                continue;
            }
            if e.methods.is_empty() {
                if ann.is_none() && (!public || mods.contains(&"static")) {
                    continue;
                }
            } else if !e.methods.iter().any(|m| m == name) {
                continue;
            }
            if e.except_methods.iter().any(|m| m == name) {
                continue;
            }
            if name == "main" && !mods.contains(&"static") {
                continue;
            }
            // `@EventListener(ApplicationReadyEvent.class)`: the annotation names the type.
            let named_by_annotation = || {
                annotations
                    .iter()
                    .filter(|a| e.method_annotations.contains(&a.name))
                    .any(|a| self.names_class(a.node, &e.param_types))
            };
            if !e.param_types.is_empty()
                && !self.takes_param_of(node, &e.param_types)
                && !named_by_annotation()
            {
                continue;
            }
            let no_params = || {
                node.field("parameters")
                    .is_some_and(|p| p.named_child_count() == 0)
            };
            if e.no_params && !no_params() {
                continue;
            }
            if e.overrides
                && !anns
                    .iter()
                    .any(|a| matches!(*a, "Override" | "java.lang.Override"))
            {
                continue;
            }
            let why = match ann {
                Some(a) => format!("`@{}` {}", a.rsplit('.').next().unwrap_or(a), e.why),
                None => e.why.clone(),
            };
            let heat = match e.heat {
                EntryHeat::Hot
                    if self.admin_only(annotations)
                        || self.admin_class(node, annotations)
                        || self.admin_route(node, annotations)
                        || self.admin_guarded(node) =>
                {
                    return Some(Entry::new(Heat::Cold, crate::facts::admin_only(&why)))
                }
                h => h.into(),
            };
            return Some(Entry {
                heat,
                why,
                paced: e.paced,
                yields: e.yields,
                job: e.job,
                sized_job: e.job_when_sized,
                per_event: e.per_event,
            });
        }
        None
    }

    /// Whether an annotation's arguments name one of these types (fully qualified) as
    /// a class literal: `@EventListener(ApplicationReadyEvent.class)`.
    fn names_class(&self, annotation: Node, types: &[String]) -> bool {
        super::syntax::any_node(annotation, |n| {
            n.kind_name() == "class_literal"
                && n.named_child(0)
                    .and_then(|t| self.jtype(t))
                    .is_some_and(|t| t.fq().is_some_and(|fq| types.iter().any(|x| x == fq)))
        })
    }

    /// Whether a method declares a parameter of one of these types (fully
    /// qualified): a gRPC service method takes a `StreamObserver`.
    fn takes_param_of(&self, method: Node, types: &[String]) -> bool {
        let Some(params) = method.field("parameters") else {
            return false;
        };
        // The written name first (`Context`, `io.javalin.http.Context`), then the
        // resolved one: most parameters name none of the types.
        fn simple(t: &str) -> &str {
            t.rsplit('.').next().unwrap_or(t)
        }
        let mut c = params.walk();
        let found = params.named_children(&mut c).any(|p| {
            p.field("type")
                .filter(|t| {
                    let written = super::syntax::type_name(*t, self.src);
                    types.iter().any(|x| simple(x) == simple(&written))
                })
                .and_then(|t| self.jtype(t))
                .and_then(|t| t.fq().map(|fq| types.iter().any(|x| x == fq)))
                .unwrap_or(false)
        });
        found
    }

    pub fn walk(&mut self, node: Node<'a>) {
        use super::syntax::Kind as K;
        match super::syntax::kind(node) {
            K::Class => self.class(node, node.field("body"), Vec::new()),
            K::AnnotationType => {
                if let Some(name) = node.field("name") {
                    let fq = self.declared_fq(self.text(name));
                    self.facts.annotation_types.push(fq.into());
                }
                self.children(node);
            }
            K::Creation => self.creation(node),
            K::Method => self.method(node),
            K::Lambda => {
                let kind = self.lambda_kind(node);
                let thread = kind == CtxKind::Thread && self.in_new_thread(node);
                let id = self.lambda(node, kind, None, None);
                if let (true, Some(id)) = (thread, id) {
                    self.facts.contexts[id].entry =
                        Some(Box::new(Entry::new(Heat::Cold, "dedicated thread")));
                }
            }
            K::Field => {
                self.suppress_annotations(node);
                self.children(node);
            }
            K::Local => self.local_declaration(node),
            K::Resource => self.resource(node),
            K::Assign => self.assignment(node),
            K::Block | K::Catch => {
                // A lazy initialization's early return marks the rest of its block.
                let once = self.frame.once;
                self.scopes.push();
                self.children(node);
                self.scopes.pop();
                self.frame.once = once;
            }
            K::Try => self.try_statement(node),
            K::ForEach => self.for_each(node),
            K::Loop => {
                // An open-ended loop (`while (running)`, `for (;;)`) is a consumer loop;
                // a counted `for` is not.
                let open = node.kind_name() != "for_statement" || node.field("condition").is_none();
                let step = usize::from(open);
                if let Some(&c) = self.ctx.last().filter(|_| open) {
                    self.facts.contexts[c].worker_loop = true;
                    if self.forever(node) {
                        self.facts.contexts[c].dedicated_loop = true;
                    }
                }
                let polled = (node.kind_name() == "while_statement")
                    .then(|| self.poll_wait(node))
                    .flatten();
                self.frame.loops += step;
                self.scopes.push();
                self.children(node);
                self.scopes.pop();
                self.frame.loops -= step;
                // After `while (!f.isDone()) sleep(..)`, `f` is done.
                if let Some(name) = polled {
                    self.mark_complete(&name);
                }
            }
            K::Guard => self.guarded(node),
            K::Logical => self.short_circuit(node),
            K::Invocation => self.invocation(node),
            K::MethodRef => self.method_reference(node),
            K::Leaf => {}
            K::Return => {
                // The returned call, and the calls it is chained on (`return a(..).b(..)`).
                let saved = self.returned_call.take();
                self.returned_call = node.named_child(0).map(|e| e.id());
                let first = self.facts.contexts.len();
                self.children(node);
                self.returned_call = saved;
                self.returned_task(node, first);
                self.returned_futures(node);
            }
            K::Other if node.kind_name() == "static_initializer" => self.static_initializer(node),
            K::Other => self.children(node),
        }
    }

    /// `return new Runnable() { .. }` or `return () -> ..` in a method: the body it
    /// returns (its `run()`/`call()`, or the lambda), among the contexts from `first`.
    fn returned_task(&mut self, ret: Node<'a>, first: usize) {
        let Some(e) = ret.named_child(0) else {
            return;
        };
        let Some(&method) = self.ctx.last() else {
            return;
        };
        let body = match e.kind_name() {
            "lambda_expression" => (first..self.facts.contexts.len())
                .find(|&c| self.facts.contexts[c].head.start == e.start_byte()),
            "object_creation_expression" if super::queues::has_class_body(e) => {
                (first..self.facts.contexts.len()).find(|&c| {
                    let ctx = &self.facts.contexts[c];
                    matches!(ctx.name.as_str(), "run" | "call")
                        && ctx
                            .owner
                            .as_deref()
                            .is_some_and(|o| o.ends_with("<anonymous>"))
                })
            }
            _ => None,
        };
        if let Some(body) = body {
            self.facts.returned_tasks.push((method, body));
        }
    }

    /// `static { .. }`: runs once, when the class is first used; cold, as start-up is.
    fn static_initializer(&mut self, node: Node<'a>) {
        let id = self.push_ctx(CtxKind::Function, "<clinit>".into(), node, node);
        self.facts.contexts[id].entry =
            Some(Box::new(Entry::new(Heat::Cold, "static initializer")));
        self.ctx.push(id);
        let saved = std::mem::replace(
            &mut self.frame,
            Frame {
                method: "<clinit>".into(),
                ..Frame::default()
            },
        );
        self.scopes.push();
        self.children(node);
        self.scopes.pop();
        self.frame = saved;
        self.ctx.pop();
    }

    /// `node` and every named node below it, in the order of a stack walk that pushes
    /// each node's named children (the last child first); `f` returns false to skip
    /// what is below a node.
    pub(super) fn each_below<'t>(&self, node: Node<'t>, mut f: impl FnMut(Node<'t>) -> bool)
    where
        'a: 't,
    {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if f(n) {
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
        }
    }

    pub(super) fn children(&mut self, node: Node<'a>) {
        let mut c = node.walk();
        for child in node.children(&mut c) {
            self.walk(child);
        }
    }

    /// The fully-qualified name of a type declared here: nested in the current class,
    /// or in the file's package.
    fn declared_fq(&self, simple: &str) -> String {
        match self.classes.last() {
            Some(outer) => format!("{}.{simple}", outer.fq),
            None if self.package.is_empty() => simple.to_string(),
            None => format!("{}.{simple}", self.package),
        }
    }

    /// A class, interface, enum, record, or anonymous class body.
    pub(super) fn class(&mut self, node: Node<'a>, body: Option<Node<'a>>, supertypes: Vec<JType>) {
        self.suppress_annotations(node);
        let simple = node
            .field("name")
            .map(|n| self.text(n).to_string())
            .unwrap_or_else(|| "<anonymous>".into());
        let fq = self.declared_fq(&simple);
        if node.kind_name() != "object_creation_expression" {
            self.facts.items.push(Item {
                span: span(node),
                name: fq.as_str().into(),
            });
        }
        let mut supers = supertypes;
        // `interface Store extends Reader, Writer`: an unnamed `extends_interfaces` child.
        let extended = (node.kind_name() == "interface_declaration")
            .then(|| {
                let mut c = node.walk();
                let found = node
                    .named_children(&mut c)
                    .find(|n| n.kind_name() == "extends_interfaces");
                found
            })
            .flatten();
        let declared = [node.field("superclass"), node.field("interfaces"), extended];
        for s in declared.into_iter().flatten() {
            {
                let mut stack = vec![s];
                while let Some(n) = stack.pop() {
                    match n.kind_name() {
                        "type_identifier" | "scoped_type_identifier" | "generic_type" => {
                            supers.extend(self.jtype(n));
                        }
                        _ => {
                            let mut c = n.walk();
                            stack.extend(n.named_children(&mut c));
                        }
                    }
                }
            }
        }
        let event_loop = self.catalog.data.event_loops.iter().position(|e| {
            supers
                .iter()
                .any(|t| t.fq().is_some_and(|fq| e.types.iter().any(|x| x == fq)))
        });
        let head = node.field("name").unwrap_or(node);
        let init_ctx = self.push_ctx(
            CtxKind::Function,
            "<init>".into(),
            head,
            body.unwrap_or(node),
        );
        let decl = self.facts.types.len();
        self.facts.types.push(TypeDecl {
            name: fq.clone(),
            supers: supers.iter().map(|t| self.type_ref(t)).collect(),
            outer: self.classes.last().map(|c| c.fq.clone()),
            fields: Vec::new(),
            span: span(head),
            future: supers
                .iter()
                .any(|t| t.fq().is_some_and(|fq| self.catalog.in_group("future", fq)))
                && !body.is_some_and(|b| self.always_done(b)),
            inherited_waits: self.inherited_waits(&supers),
            blocking_api: Vec::new(),
            interface: node.kind_name() == "interface_declaration",
            controller: false,
            admin_root: false,
            interceptor_sets: self.interceptor_sets(&supers, body),
        });
        let annotations = if node.kind_name() == "object_creation_expression" {
            Vec::new()
        } else {
            self.annotations(node)
        };
        self.facts.types[decl].admin_root = super::annotations::operators_root(&annotations);
        let annotations: Vec<String> = annotations.into_iter().map(|a| a.name).collect();
        let deprecated = self.classes.last().is_some_and(|c| c.deprecated)
            || annotations.iter().any(|a| is_deprecated(a))
            || body.is_some_and(|b| self.made_deprecated(b));
        let applications = &self.catalog.data.spring.applications;
        self.facts.application |= annotations.iter().any(|a| applications.contains(a));
        self.facts.types[decl].controller = annotations.iter().any(|a| {
            a == "org.springframework.web.bind.annotation.RestController"
                || a == "org.springframework.stereotype.Controller"
        });
        let super_names = supers
            .iter()
            .map(|t| t.fq.clone().unwrap_or_else(|| t.simple.clone()))
            .collect();
        self.classes.push(ClassInfo {
            body: body.map(|b| (b.start_byte(), b.end_byte())),
            shared: std::sync::Arc::from(fq.as_str()),
            fq,
            event_loop,
            annotations,
            supers: super_names,
            decl: Some(decl),
            deprecated,
            ..ClassInfo::default()
        });
        self.facts.contexts[init_ctx].deprecated |= deprecated;
        if let Some(body) = body {
            self.collect_members(body);
        }
        self.ctx.push(init_ctx);
        let saved = std::mem::take(&mut self.frame);
        self.frame.method = "<init>".into();
        self.scopes.push();
        match body {
            Some(b) => self.children(b),
            None => self.children(node),
        }
        self.scopes.pop();
        self.frame = saved;
        self.ctx.pop();
        self.classes.pop();
    }

    /// A class body whose constructors are all `@Deprecated` (at least one).
    fn made_deprecated(&self, body: Node) -> bool {
        let ctors: Vec<Node> = super::syntax::named_children(body)
            .into_iter()
            .filter(|m| m.kind_name() == "constructor_declaration")
            .collect();
        // (Annotations resolved only where the modifiers name one: most have none.)
        let marked = |c: Node| {
            super::annotations::modifiers_node(c)
                .is_some_and(|m| self.text(m).contains("Deprecated"))
                && self.annotations(c).iter().any(|a| is_deprecated(&a.name))
        };
        !ctors.is_empty() && ctors.into_iter().all(marked)
    }

    /// A class body declaring `isDone() { return true; }`: a future that is complete
    /// when made (a lazy handle, an immediate value), whose `get()` waits for nothing.
    fn always_done(&self, body: Node) -> bool {
        super::syntax::named_children(body).into_iter().any(|m| {
            m.kind_name() == "method_declaration"
                && m.field("name").is_some_and(|n| self.text(n) == "isDone")
                && m.field("parameters")
                    .is_some_and(|p| p.named_child_count() == 0)
                && m.field("body").is_some_and(|b| {
                    matches!(&super::syntax::named_children(b)[..], [r] if r.kind_name() == "return_statement"
                        && r.named_child(0).is_some_and(|e| e.kind_name() == "true"))
                })
        })
    }

    /// Untimed no-argument waits a class inherits from the JDK classes it extends.
    fn inherited_waits(&self, supers: &[JType]) -> Vec<Box<str>> {
        let catalog = self.catalog;
        let bases: Vec<&str> = supers
            .iter()
            .filter_map(|t| t.fq())
            .filter(|fq| catalog.in_group("subclassed", fq))
            .collect();
        if bases.is_empty() {
            return Vec::new();
        }
        let mut out: Vec<Box<str>> = catalog
            .data
            .waits
            .iter()
            .filter(|w| {
                // An entry on a group (`@future`) covers every base in it.
                let on = |o: &String| match o.strip_prefix('@') {
                    Some(g) => bases.iter().any(|b| catalog.in_group(g, b)),
                    None => bases.contains(&o.as_str()),
                };
                w.args.contains(&0) && w.on.iter().any(on)
            })
            .filter_map(|w| w.method.as_deref().map(Box::from))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A `static final` (or interface) field initialised with a string literal that
    /// may name a bean.
    fn string_constant(&mut self, name: &str, value: Option<Node>) {
        let Some(v) = value.filter(|v| v.kind_name() == "string_literal") else {
            return;
        };
        let Some(class) = self.classes.last() else {
            return;
        };
        // Only what can name a bean (`auditPool`, `mail-sender`): not messages, SQL,
        // URLs or property keys, which no annotation resolves.
        let value = self.text(v).trim_matches('"');
        let bean_like = (1..=64).contains(&value.len())
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'$'));
        if !bean_like {
            return;
        }
        let key = format!("{}.{name}", class.fq).into_boxed_str();
        let value = Box::from(value);
        self.facts.string_constants.push((key, value));
    }

    /// Fields, constants and pool definitions of a class body, before its methods are walked.
    fn collect_members(&mut self, body: Node) {
        if let Some(class) = body
            .parent()
            .filter(|c| c.kind_name() == "class_declaration")
        {
            self.handler_class(class);
        }
        let mut cursor = body.walk();
        let members: Vec<Node> = body.named_children(&mut cursor).collect();
        // Rejection handlers held in fields, before any pool that names them.
        for member in members
            .iter()
            .filter(|m| m.kind_name() == "field_declaration")
        {
            let mut c = member.walk();
            for decl in member.children_by_field_name("declarator", &mut c) {
                let runs = decl.field("value").is_some_and(|v| self.is_caller_runs(v));
                if let (true, Some(n)) = (runs, decl.field("name")) {
                    let name = self.text(n).to_string();
                    if let Some(class) = self.classes.last_mut() {
                        class.caller_runs_fields.insert(name);
                    }
                }
            }
        }
        let mut client_fields = Vec::new();
        for member in &members {
            if member.kind_name() == "constant_declaration" {
                // An interface's fields: `String AUDIT_POOL = "auditPool";`.
                let mut c = member.walk();
                for decl in member.children_by_field_name("declarator", &mut c) {
                    if let Some(n) = decl.field("name") {
                        self.string_constant(self.text(n), decl.field("value"));
                    }
                }
                continue;
            }
            if member.kind_name() != "field_declaration" {
                continue;
            }
            let is_const = {
                let mods = self.modifiers(*member);
                mods.contains(&"static") && mods.contains(&"final")
            };
            let ty = member.field("type").and_then(|t| self.jtype(t));
            let anns = self.annotations(*member);
            let qualifier = self.qualifier_in(&anns);
            let injects = &self.catalog.data.spring.injects;
            let injected = qualifier.is_some() || anns.iter().any(|a| injects.contains(&a.name));
            let mut c2 = member.walk();
            let decls: Vec<Node> = member
                .children_by_field_name("declarator", &mut c2)
                .collect();
            for decl in decls {
                let Some(name_node) = decl.field("name") else {
                    continue;
                };
                let name = self.text(name_node).to_string();
                let value = decl.field("value");
                if is_const {
                    if let Some(v) = value.and_then(|v| self.eval(v)) {
                        if let Some(class) = self.classes.last_mut() {
                            class.constants.insert(name.clone(), v);
                        }
                    }
                    self.string_constant(&name, value);
                }
                let off = match value.map(|v| v.kind_name()).filter(|_| is_const) {
                    Some("null_literal") => Some(super::flow::Off::Null),
                    Some("false") => Some(super::flow::Off::False),
                    _ => None,
                };
                if let Some(fq) = ty.as_ref().and_then(|t| t.fq()).filter(|fq| {
                    value.is_none()
                        && (self.catalog.bean_client_type(fq) || self.catalog.taken_client_type(fq))
                }) {
                    let field = crate::facts::ClientField {
                        ty: fq.into(),
                        bean: qualifier.as_deref().unwrap_or(&name).into(),
                        qualified: qualifier.is_some(),
                        requests: Vec::new(),
                        handed: Vec::new(),
                        per_call: false,
                    };
                    client_fields.push((name.clone(), field));
                }
                let pool = self.field_pool(&name, ty.as_ref(), value, decl, qualifier.as_deref());
                if let Some(t) = ty
                    .as_ref()
                    .filter(|t| t.fq().is_none_or(|fq| !self.catalog.knows(fq)))
                {
                    let r = self.type_ref(t);
                    if let Some(d) = self.classes.last().and_then(|c| c.decl) {
                        self.facts.types[d].fields.push((name.clone(), r));
                    }
                }
                let unbounded_queue = value.is_some_and(|v| self.creates_unbounded_queue(v));
                let bean = injected.then(|| qualifier.as_deref().unwrap_or(&name).into());
                if let Some(class) = self.classes.last_mut() {
                    class.fields.insert(
                        name,
                        FieldInfo {
                            ty: ty.clone(),
                            pool,
                            unbounded_queue,
                            off,
                            bean,
                        },
                    );
                }
            }
        }
        if !client_fields.is_empty() {
            self.client_fields(body, client_fields);
        }
        // Methods by name, for overloads.
        let mut named: Vec<(&str, Node)> = Vec::new();
        for m in &members {
            if m.kind_name() != "method_declaration" {
                continue;
            }
            let (Some(name_node), ty) =
                (m.field("name"), m.field("type").and_then(|t| self.jtype(t)))
            else {
                continue;
            };
            named.push((self.text(name_node), name_node));
            let name = self.text(name_node).to_string();
            self.pool_factory(*m, &name, ty.as_ref());
            if let Some(fq) = ty
                .as_ref()
                .and_then(|t| t.fq())
                .filter(|fq| self.catalog.bean_client_type(fq))
            {
                self.client_bean(*m, &name, fq);
            }
            let returned = self.returned_field(*m);
            self.record_getter(&name, returned.as_deref());
            if let Some(class) = self.classes.last_mut() {
                if let Some(field) = returned.filter(|f| class.fields.contains_key(f)) {
                    class.getters.insert(name.clone(), field);
                }
                // Overloads with different return types: unknown.
                let slot = class.methods.entry(name).or_insert_with(|| ty.clone());
                if *slot != ty {
                    *slot = None;
                }
            }
        }
        self.lombok_getters(&members, &named);
        self.collect_overloads(named);
        self.constructor_pools(&members);
    }

    /// Methods of the class declared twice or more with one parameter count
    /// (`validate(List<Topic>)` beside `validate(Topic)`), with their parameter types.
    fn collect_overloads(&mut self, mut named: Vec<(&str, Node)>) {
        named.sort_unstable_by_key(|(n, _)| *n);
        if !named.windows(2).any(|w| w[0].0 == w[1].0) {
            return;
        }
        let mut overloads: HashMap<String, Vec<Overload>> = HashMap::default();
        for group in named.chunk_by(|a, b| a.0 == b.0).filter(|g| g.len() > 1) {
            let with_params: Vec<(Node, Node)> = group
                .iter()
                .filter_map(|(_, name)| Some((*name, name.parent()?.field("parameters")?)))
                .collect();
            // Only overloads that share a parameter count need their types.
            let mut counts: Vec<usize> = with_params
                .iter()
                .map(|(_, p)| p.named_child_count())
                .collect();
            counts.sort_unstable();
            if !counts.windows(2).any(|w| w[0] == w[1]) {
                continue;
            }
            let declared = with_params
                .into_iter()
                .map(|(name, params)| {
                    let mut c = params.walk();
                    let params: Vec<Node> = params.named_children(&mut c).collect();
                    let written = params
                        .iter()
                        .map(|p| match (p.kind_name(), p.field("type")) {
                            ("formal_parameter", Some(t)) => {
                                super::syntax::type_name(t, self.src).into_owned()
                            }
                            _ => String::new(),
                        })
                        .collect();
                    Overload {
                        at: u32::try_from(name.start_byte()).unwrap_or(u32::MAX),
                        written,
                        types: params
                            .iter()
                            .filter(|p| !p.is_extra())
                            .map(|&p| self.param_type(p))
                            .collect(),
                    }
                })
                .collect();
            overloads.insert(group[0].0.to_string(), declared);
        }
        if let Some(class) = self.classes.last_mut() {
            class.overloads = overloads;
        }
    }

    /// A getter returning a field: `getExecutor()` returning a pool field (other
    /// classes' calls reach that pool), `getStoreRunner()` returning a field of a
    /// project type (a wrapper whose constructor took a pool: calls on its result
    /// reach that instance).
    fn record_getter(&mut self, name: &str, returned: Option<&str>) {
        let getter = returned.and_then(|f| {
            let class = self.classes.last()?;
            let fq = class.fields.get(f)?.ty.as_ref()?.fq();
            let pool = fq.is_some_and(|fq| self.catalog.in_group("executor", fq));
            let wrapper = !pool && fq.is_none_or(|fq| !self.catalog.knows(fq));
            let simple = class.fq.rsplit('.').next().unwrap_or(&class.fq);
            (pool || wrapper).then(|| {
                let keys = (
                    format!("field:{}.{f}", class.fq),
                    format!("getter:{simple}.{name}"),
                );
                (pool, keys)
            })
        });
        match getter {
            Some((true, keys)) => self.facts.pool_aliases.push(keys),
            Some((false, (field, getter))) => {
                self.facts.getter_fields.push((getter.into(), field.into()));
            }
            None => {}
        }
    }

    /// Lombok's getters (`@Data`, `@Getter` or `@Value` on the class, `@Getter` on a
    /// field), which no source declares: `getExecutor()` returns the field `executor`
    /// (`isReady()` a `boolean` one), unless the class writes that method itself.
    fn lombok_getters(&mut self, members: &[Node], written: &[(&str, Node)]) {
        if !self.names.imports_from("lombok") {
            return;
        }
        // As resolved, or as written after `import lombok.*;`.
        let lombok =
            |a: &str, names: &[&str]| names.contains(&a.strip_prefix("lombok.").unwrap_or(a));
        let class_wide = self.classes.last().is_some_and(|c| {
            c.annotations
                .iter()
                .any(|a| lombok(a, &["Data", "Getter", "Value"]))
        });
        for m in members
            .iter()
            .filter(|m| m.kind_name() == "field_declaration")
        {
            if self.modifiers(*m).contains(&"static") {
                continue;
            }
            let own = || {
                self.annotations(*m)
                    .iter()
                    .any(|a| lombok(&a.name, &["Getter"]))
            };
            if !class_wide && !own() {
                continue;
            }
            let boolean = m
                .field("type")
                .is_some_and(|t| t.kind_name() == "boolean_type");
            let mut c = m.walk();
            let fields: Vec<String> = m
                .children_by_field_name("declarator", &mut c)
                .filter_map(|d| d.field("name"))
                .map(|n| self.text(n).to_string())
                .collect();
            for field in fields {
                let mut cap = field.chars();
                let Some(first) = cap.next() else {
                    continue;
                };
                let prefix = if boolean { "is" } else { "get" };
                let name = format!("{prefix}{}{}", first.to_uppercase(), cap.as_str());
                if written.iter().any(|(w, _)| *w == name) {
                    continue;
                }
                self.record_getter(&name, Some(&field));
                if let Some(class) = self.classes.last_mut() {
                    let ty = class.fields.get(&field).and_then(|f| f.ty.clone());
                    class.getters.insert(name.clone(), field);
                    class.methods.entry(name).or_insert(ty);
                }
            }
        }
    }

    /// The project classes a method makes when its every `return` is `new T(..)` (or
    /// `null`), at least one of them: a plugin factory's `switch`.
    fn factory_made(&self, method: Node) -> Option<Vec<std::sync::Arc<crate::facts::TypeRef>>> {
        let body = method.field("body")?;
        // (Most methods make nothing: a text scan spares them the walk.)
        if !self.text(body).contains("return new ") {
            return None;
        }
        let mut made: Vec<std::sync::Arc<crate::facts::TypeRef>> = Vec::new();
        for ret in super::syntax::own_nodes(body, "return_statement") {
            let value = ret.named_child(0)?;
            match value.kind_name() {
                "null_literal" => {}
                "object_creation_expression" if super::syntax::anonymous_body(value).is_none() => {
                    let ty = self.jtype(value.field("type")?)?;
                    if !self.may_be_project_class(&ty) {
                        return None;
                    }
                    let r = self.type_ref(&ty);
                    if !made.iter().any(|m| m.candidates == r.candidates) {
                        made.push(r);
                    }
                }
                _ => return None,
            }
        }
        (!made.is_empty()).then_some(made)
    }

    /// The field a method's body is only `return field;` (or `return this.field;`) of.
    fn returned_field(&self, method: Node) -> Option<String> {
        let body = method.field("body")?;
        let mut c = body.walk();
        let stmts: Vec<Node> = body.named_children(&mut c).collect();
        let [ret] = stmts.as_slice() else {
            return None;
        };
        if ret.kind_name() != "return_statement" {
            return None;
        }
        let value = ret.named_child(0)?;
        let text = self.text(value);
        let field = text.strip_prefix("this.").unwrap_or(text);
        (matches!(value.kind_name(), "identifier" | "field_access")
            && field.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| field.to_string())
    }

    /// The field a getter of the current (or an enclosing) class returns.
    pub(super) fn getter_field(&self, method: &str) -> Option<String> {
        self.classes
            .iter()
            .rev()
            .find_map(|c| c.getters.get(method))
            .cloned()
    }

    /// The declared return type of a method of the current (or an enclosing) class.
    pub(super) fn own_method_type(&self, name: &str) -> Option<JType> {
        self.classes
            .iter()
            .rev()
            .find_map(|c| c.methods.get(name))
            .cloned()
            .flatten()
    }

    pub(super) fn modifiers(&self, decl: Node) -> Vec<&'a str> {
        let mut out = Vec::new();
        if let Some(c) = super::annotations::modifiers_node(decl) {
            let mut c2 = c.walk();
            for m in c.children(&mut c2) {
                out.push(self.text(m));
            }
        }
        out
    }

    fn method(&mut self, node: Node<'a>) {
        self.suppress_annotations(node);
        let name = node
            .field("name")
            .map(|n| self.text(n).to_string())
            .unwrap_or_else(|| "<init>".into());
        let class = self
            .classes
            .last()
            .map(|c| c.fq.clone())
            .unwrap_or_default();
        self.facts.items.push(Item {
            span: span(node),
            name: format!("{class}.{name}").into(),
        });
        let event_loop = self
            .classes
            .last()
            .and_then(|c| c.event_loop)
            .map(|i| &self.catalog.data.event_loops[i])
            .filter(|e| e.methods.contains(&name));
        let kind = if event_loop.is_some() {
            CtxKind::EventLoop
        } else {
            CtxKind::Function
        };
        let head = node.field("name").unwrap_or(node);
        let body = node.field("body").unwrap_or(node);
        let id = self.push_ctx(kind, name.clone(), head, body);
        if node.kind_name() == "method_declaration" {
            let annotations = self.annotations(node);
            let entry = self.entry_for(node, &name, &annotations).or_else(|| {
                // A connection's own events (`channelInactive`) run once per connection,
                // not per message: hot, but what they queue does not grow with load.
                event_loop
                    .filter(|e| e.connection_events.contains(&name))
                    .map(|_| Entry {
                        heat: Heat::Hot,
                        why: crate::facts::EVENT_LOOP.into(),
                        paced: true,
                        yields: false,
                        job: false,
                        sized_job: false,
                        per_event: false,
                    })
            });
            self.facts.contexts[id].entry = entry.map(Box::new);
            let hooks = &self.catalog.data.test_hook_annotations;
            self.facts.contexts[id].test_hook = annotations
                .iter()
                .any(|a| hooks.iter().any(|h| a.name.rsplit('.').next() == Some(h)));
            self.facts.contexts[id].deprecated |=
                annotations.iter().any(|a| is_deprecated(&a.name));
            self.facts.contexts[id].annotated = annotations.iter().any(|a| {
                !matches!(
                    a.name.rsplit('.').next(),
                    Some("Override" | "Deprecated" | "SuppressWarnings" | "SafeVarargs")
                )
            });
            self.marks_and_advice(node, id, &annotations);
            self.bean_pool(node, &name);
            if let Some(executor) = self.async_executor(node) {
                self.facts.async_methods.push(crate::facts::AsyncMethod {
                    class: class.rsplit('.').next().unwrap_or(&class).to_string(),
                    method: name.clone(),
                    executor,
                    span: span(head),
                });
            }
        }
        // `new Endpoint()` of a class an entry point lists `<init>` for: a WebSocket
        // endpoint's container makes one per connection.
        let annotated = self
            .classes
            .last()
            .is_some_and(|c| !c.annotations.is_empty());
        if annotated && node.kind_name() == "constructor_declaration" {
            let entry = self.entry_for(node, "<init>", &[]);
            self.facts.contexts[id].entry = entry.map(Box::new);
        }
        let returns = node.field("type").and_then(|t| self.jtype(t));
        // Only static methods': calls are followed on a static accessor's result alone.
        let mods = self.modifiers(node);
        let accessor = node.kind_name() == "method_declaration" && mods.contains(&"static");
        self.facts.contexts[id].is_static = accessor;
        self.facts.contexts[id].is_public =
            node.kind_name() == "method_declaration" && mods.contains(&"public");
        // And an instance getter's (`getRegistry()`), which calls of its class or a
        // subclass make unqualified: `getRegistry().images(..)`.
        let getter = || {
            node.kind_name() == "method_declaration"
                && node
                    .field("parameters")
                    .is_some_and(|p| p.named_child_count() == 0)
                && node
                    .field("name")
                    .is_some_and(|n| crate::facts::getter_field(self.text(n)).is_some())
        };
        if let Some(t) = returns
            .as_ref()
            .filter(|t| (accessor || getter()) && self.may_be_project_class(t))
        {
            let r = self.type_ref(t);
            self.facts.ret_types.push((id, r));
        }
        let project_type = returns
            .as_ref()
            .is_some_and(|t| self.may_be_project_class(t));
        if let Some(made) = project_type.then(|| self.factory_made(node)).flatten() {
            self.facts.factory_types.push((id, made));
        }
        self.note_param_types(node, id);
        self.ctx.push(id);
        let saved = std::mem::replace(
            &mut self.frame,
            Frame {
                method: name,
                returns,
                ..Frame::default()
            },
        );
        self.scopes.push();
        if let Some(params) = node.field("parameters") {
            // The parameters once, for every use below.
            let list = super::syntax::named_children(params);
            let fixed = !list.iter().any(|p| p.kind_name() == "spread_parameter");
            let formal: Vec<Node<'a>> = list
                .iter()
                .copied()
                .filter(|p| p.kind_name() == "formal_parameter")
                .collect();
            self.facts.contexts[id].arity =
                fixed.then(|| u8::try_from(formal.len()).ok()).flatten();
            let mut kinds = 0;
            for (i, p) in formal.iter().enumerate() {
                if let Some(t) = p.field("type") {
                    crate::facts::ArgKind::set(&mut kinds, i, self.param_kind(t));
                }
            }
            self.facts.contexts[id].param_kinds = kinds;
            if let Some(body) = node.field("body") {
                self.facts.contexts[id].local_params = self.local_queue_params(&formal, body);
                self.param_deadlines(&formal, body, id);
            }
            self.pool_params(&formal);
            self.declare_params(&list);
            let names: Vec<String> = list
                .iter()
                .filter_map(|p| p.field("name"))
                .map(|n| self.text(n).to_string())
                .collect();
            self.frame.params = names;
        }
        if let Some(b) = node.field("body") {
            self.children(b);
        }
        // A method declared to return a future that hands back a promise an I/O
        // callback completes (maybe through other classes' methods).
        // (Or a reactive publisher over a library's I/O: `return client.search(..)`.)
        let future = self.frame.returns.as_ref().is_some_and(|t| {
            matches!(
                t.simple.as_str(),
                "CompletableFuture"
                    | "Future"
                    | "CompletionStage"
                    | "ListenableFuture"
                    | "FluentFuture"
            ) || t
                .fq()
                .is_some_and(|fq| self.catalog.in_group("publisher", fq))
        });
        // A method declared to return a future with its own deadline (a Hazelcast
        // `InvocationFuture`) bounds its callers' waits the same way.
        let deadline = self
            .frame
            .returns
            .as_ref()
            .is_some_and(|t| self.bounded_future(t));
        // What a call to it returns, for waits on that call's result in other files.
        let declared = self.frame.returns.as_ref().and_then(|t| t.fq());
        if let Some(fq) = declared.filter(|t| self.catalog.waitable(t)) {
            self.facts.returns.push((id, fq.into()));
            if let Some(calls) = self.returned_sources(node) {
                self.facts.return_sources.push((id, calls.into()));
            }
        }
        if deadline {
            self.facts.promise_methods.push((id, Vec::new().into()));
        } else if let Some(calls) = future.then(|| self.promise_summary(node)).flatten() {
            self.facts.promise_methods.push((id, calls.into()));
        }
        self.scopes.pop();
        self.frame = saved;
        self.ctx.pop();
    }

    /// Declares a method's or lambda's parameters (`params`: the list's children).
    fn declare_params(&mut self, params: &[Node]) {
        for &p in params {
            match p.kind_name() {
                "formal_parameter" | "spread_parameter" => {
                    let ty = p.field("type").and_then(|t| self.jtype(t));
                    let name = p
                        .field("name")
                        .or_else(|| {
                            let mut c2 = p.walk();
                            let last = p.named_children(&mut c2).last();
                            last
                        })
                        .map(|n| self.text(n).to_string());
                    if let Some(name) = name {
                        let mut v = Value::of(ty);
                        v.root = Some(name.clone());
                        self.scopes.declare(&name, v);
                    }
                }
                "identifier" => {
                    let name = self.text(p).to_string();
                    self.scopes.declare(&name, Value::default());
                }
                _ => {}
            }
        }
    }

    /// Whether a lambda is the body of `new Thread(..)`.
    fn in_new_thread(&self, node: Node) -> bool {
        node.parent()
            .filter(|p| p.kind_name() == "argument_list")
            .and_then(|a| a.parent())
            .is_some_and(|c| c.kind_name() == "object_creation_expression")
    }

    /// What literals a parameter of this type takes, for picking among overloads.
    fn param_kind(&self, t: Node) -> crate::facts::ArgKind {
        use crate::facts::ArgKind;
        match t.kind_name() {
            "boolean_type" => ArgKind::Bool,
            "floating_point_type" => ArgKind::Number,
            // `char` takes character literals, which are no number literals here.
            "integral_type" if self.text(t) == "char" => ArgKind::Any,
            "integral_type" => ArgKind::Number,
            "array_type" => match t.field("element") {
                Some(e) if self.text(e) == "byte" => ArgKind::Bytes,
                _ => ArgKind::Object,
            },
            "type_identifier" | "scoped_type_identifier" | "generic_type" => {
                let name = super::syntax::type_name(t, self.src);
                match name.rsplit('.').next().unwrap_or_default() {
                    "Boolean" => ArgKind::Bool,
                    "Integer" | "Long" | "Short" | "Byte" | "Double" | "Float" | "Number" => {
                        ArgKind::Number
                    }
                    "String" => ArgKind::Text,
                    "Object" | "CharSequence" | "Serializable" | "Comparable" => ArgKind::Any,
                    // A type variable (`T`, `V2`) takes anything.
                    s if s.len() <= 2 || s.chars().all(|c| c.is_ascii_uppercase()) => ArgKind::Any,
                    _ => ArgKind::Object,
                }
            }
            _ => ArgKind::Any,
        }
    }

    /// What kind of context a lambda found in ordinary code is: where it runs.
    fn lambda_kind(&self, node: Node) -> CtxKind {
        let Some(args) = node.parent().filter(|p| p.kind_name() == "argument_list") else {
            // A lambda returned from a method declared to return an event-loop handler type.
            let returned = node
                .parent()
                .is_some_and(|p| p.kind_name() == "return_statement");
            let handler = self
                .frame
                .returns
                .as_ref()
                .and_then(|t| t.fq())
                .is_some_and(|fq| {
                    self.catalog
                        .data
                        .event_loops
                        .iter()
                        .any(|e| e.types.iter().any(|t| t == fq))
                });
            return if returned && handler {
                CtxKind::EventLoop
            } else {
                CtxKind::Inline
            };
        };
        let Some(call) = args.parent() else {
            return CtxKind::Inline;
        };
        if call.kind_name() == "object_creation_expression" {
            let is_thread = call
                .field("type")
                .and_then(|t| self.jtype(t))
                .is_some_and(|t| t.fq() == Some("java.lang.Thread"));
            return if is_thread {
                CtxKind::Thread
            } else {
                CtxKind::Inline
            };
        }
        self.lambda_kind_in_call(call)
    }

    /// Where a lambda passed to `call` runs: an event-loop handler registration,
    /// off the loop after `subscribeOn` (anywhere above) or `publishOn` (before it
    /// in the chain), else where the caller runs.
    pub(super) fn lambda_kind_in_call(&self, call: Node) -> CtxKind {
        if self.registered_as(call).is_some() {
            return CtxKind::EventLoop;
        }
        if self.off_loop_above {
            return CtxKind::Thread;
        }
        let reactive = &self.catalog.data.reactive;
        let named = |n: Node, list: &[String]| {
            n.field("name")
                .is_some_and(|m| list.iter().any(|o| o == self.text(m)))
        };
        let mut up = call.field("object");
        while let Some(o) = up.filter(|o| o.kind_name() == "method_invocation") {
            if named(o, &reactive.off_loop) || named(o, &reactive.off_loop_after) {
                return CtxKind::Thread;
            }
            up = o.field("object");
        }
        CtxKind::Inline
    }

    /// `router.get("/x").handler(ctx -> ..)`, `route().GET("/x", this::list)`: the
    /// framework whose handler this call registers, if it registers one.
    pub(super) fn registered_as(&self, call: Node) -> Option<String> {
        let name = call.field("name").map(|n| self.text(n))?;
        let mut entries = self
            .catalog
            .data
            .event_loops
            .iter()
            .filter(|e| e.registrars.iter().any(|r| r == name))
            .peekable();
        entries.peek()?;
        let root = self.registrar_root(call)?;
        entries
            .find(|e| e.registrar_types.contains(&root))
            .map(|e| format!("{} handler", e.framework))
    }

    /// The type a registrar chain is rooted at: a value's (`router.get(..)`), or the
    /// class of a static call that starts it (`RouterFunctions.route()`, `route(..)`
    /// through a static import).
    fn registrar_root(&self, call: Node) -> Option<String> {
        let mut root = call;
        while let Some(o) = root.field("object") {
            if o.kind_name() == "identifier" && root.kind_name() == "method_invocation" {
                if let Some(class) = self.static_class(o) {
                    return Some(class);
                }
            }
            root = o;
        }
        if root.kind_name() == "method_invocation" && root.field("object").is_none() {
            let name = root.field("name").map(|n| self.text(n))?;
            return self.names.static_import_class(name).map(str::to_string);
        }
        self.value_of(root).fq().map(str::to_string)
    }

    /// A lambda body in its own context. `hint` types inferred parameters;
    /// `complete` names variables known complete inside it.
    pub(super) fn lambda(
        &mut self,
        node: Node<'a>,
        kind: CtxKind,
        hint: Option<Value>,
        submission: Option<usize>,
    ) -> Option<CtxId> {
        let body = node.field("body").unwrap_or(node);
        // A lambda that runs where its caller runs needs no context of its own, unless
        // it is passed to a project method that may hand it to a pool (`force`).
        let force = std::mem::take(&mut self.force_lambda_ctx);
        let id = (kind != CtxKind::Inline || submission.is_some() || force).then(|| {
            let id = self.push_ctx(kind, "lambda".into(), node, body);
            self.facts.contexts[id].submission = submission;
            id
        });
        if let Some(id) = id {
            self.ctx.push(id);
        }
        let saved_loops = std::mem::take(&mut self.frame.loops);
        self.scopes.push();
        if let Some(params) = node.field("parameters") {
            match params.kind_name() {
                "identifier" => {
                    let name = self.text(params).to_string();
                    let mut v = hint.clone().unwrap_or_default();
                    v.root = Some(name.clone());
                    self.scopes.declare(&name, v);
                }
                "inferred_parameters" => {
                    let mut c = params.walk();
                    let names: Vec<String> = params
                        .named_children(&mut c)
                        .map(|n| self.text(n).to_string())
                        .collect();
                    for (i, name) in names.iter().enumerate() {
                        let v = if i == 0 {
                            hint.clone().unwrap_or_default()
                        } else {
                            Value::default()
                        };
                        self.scopes.declare(name, v);
                    }
                }
                _ => self.declare_params(&super::syntax::named_children(params)),
            }
        }
        self.walk(body);
        self.scopes.pop();
        self.frame.loops = saved_loops;
        if id.is_some() {
            self.ctx.pop();
        }
        id
    }

    /// `new T(..)`: queues, pools, and anonymous classes (whose methods may be tasks or handlers).
    fn creation(&mut self, node: Node<'a>) {
        let made = node.field("type").and_then(|t| self.jtype(t));
        if let Some(fq) = made.as_ref().and_then(|t| t.fq.as_deref()) {
            self.queue_creation(node, fq, false);
            self.clients_at(node, "new", fq);
        }
        if let Some(declared) = made
            .as_ref()
            .filter(|t| self.may_be_project_class(t))
            .and_then(|_| self.pool_subclass_as(node))
        {
            self.queue_creation(node, &declared, true);
        }
        if let Some(ty) = made {
            if ty.fq().is_none_or(|fq| !self.catalog.knows(fq)) {
                let target = self.type_ref(&ty);
                self.pool_args(node, &target, "<init>");
                // Not the JDK's classes (`new ArrayList<>()`, `new StringBuilder()`) nor
                // exceptions: the project declares neither.
                let jdk = ty.fq().is_some_and(|fq| {
                    ["java.", "javax.", "jakarta."]
                        .iter()
                        .any(|p| fq.starts_with(p))
                });
                let thrown = ty.simple.ends_with("Exception") || ty.simple.ends_with("Error");
                if !jdk && !thrown {
                    self.record_creation(node, target);
                }
            }
        }
        let before = self.facts.contexts.len();
        self.anonymous_or_children(node, None);
        // `new Thread(new Runnable() { public void run() { .. } })`: the body of a
        // dedicated thread, as the same lambda is.
        if self.runnable_of_new_thread(node) {
            let run = self.facts.contexts[before..]
                .iter_mut()
                .find(|c| c.kind == CtxKind::Function && &*c.name == "run" && c.arity == Some(0));
            if let Some(c) = run.filter(|c| c.entry.is_none()) {
                c.entry = Some(Box::new(Entry::new(Heat::Cold, "dedicated thread")));
            }
        }
    }

    /// An anonymous `Runnable` given to `new Thread(..)`.
    fn runnable_of_new_thread(&self, node: Node) -> bool {
        let runnable = super::queues::has_class_body(node)
            && node.field("type").is_some_and(|t| {
                let t = self.text(t);
                t == "Runnable" || t == "java.lang.Runnable"
            });
        runnable
            && self.in_new_thread(node)
            && node
                .parent()
                .and_then(|a| a.parent())
                .and_then(|c| c.field("type"))
                .is_some_and(|t| self.text(t) == "Thread")
    }

    /// Walk a creation; its anonymous class body (if any) runs as `kind` when given.
    pub(super) fn anonymous_or_children(&mut self, node: Node<'a>, task: Option<(CtxKind, usize)>) {
        let mut cursor = node.walk();
        let kids: Vec<Node> = node.children(&mut cursor).collect();
        for c in kids {
            if c.kind_name() != "class_body" {
                self.walk(c);
                continue;
            }
            let supers: Vec<JType> = node
                .field("type")
                .and_then(|t| self.jtype(t))
                .into_iter()
                .collect();
            match &task {
                Some((kind, sub)) => {
                    // Every method of an anonymous Runnable/Callable body runs as the task.
                    let id = self.push_ctx(kind.clone(), "task".into(), node, c);
                    self.facts.contexts[id].submission = Some(*sub);
                    self.ctx.push(id);
                    self.class_body_inline(c);
                    self.ctx.pop();
                }
                None => self.class(node, Some(c), supers),
            }
        }
    }

    /// An anonymous class body walked within the current context (its methods are the task).
    fn class_body_inline(&mut self, body: Node<'a>) {
        let mut cursor = body.walk();
        let members: Vec<Node> = body.named_children(&mut cursor).collect();
        for m in members {
            if m.kind_name() == "method_declaration" {
                self.scopes.push();
                if let Some(p) = m.field("parameters") {
                    self.declare_params(&super::syntax::named_children(p));
                }
                if let Some(b) = m.field("body") {
                    self.children(b);
                }
                self.scopes.pop();
            } else {
                self.walk(m);
            }
        }
    }

    /// `future = pool.submit(..)`: the local now holds what is assigned (its declared
    /// type stays when the value's is unknown), so a later `future.get()` waits for it.
    fn assignment(&mut self, node: Node<'a>) {
        self.children(node);
        let (Some(left), Some(right)) = (node.field("left"), node.field("right")) else {
            return;
        };
        let plain = node.field("operator").is_some_and(|o| self.text(o) == "=");
        if !plain || left.kind_name() != "identifier" {
            return;
        }
        let name = self.text(left);
        let Some(declared) = self.scopes.get(name).map(|v| v.value.ty.clone()) else {
            return; // a field: its pools are resolved per class
        };
        let mut value = self.value_of(right);
        value.ty = value.ty.or(declared);
        if let Some(var) = self.scopes.get_mut(name) {
            var.value = value;
        }
    }

    fn local_declaration(&mut self, node: Node<'a>) {
        self.suppress_annotations(node);
        let declared = node.field("type").and_then(|t| self.jtype(t));
        let mut c = node.walk();
        let decls: Vec<Node> = node.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let Some(name_node) = d.field("name") else {
                continue;
            };
            let name = self.text(name_node).to_string();
            let mut value = match d.field("value") {
                Some(v) => {
                    // A lambda kept in a local gets its own context: it may be submitted later.
                    let lambda = v.kind_name() == "lambda_expression";
                    let before = self.facts.contexts.len();
                    self.force_lambda_ctx = lambda;
                    self.walk(v);
                    self.force_lambda_ctx = false;
                    let mut value = self.value_of(v);
                    if lambda && self.facts.contexts.len() > before {
                        value.lambda = Some(before);
                    }
                    value
                }
                None => Value::default(),
            };
            if declared.is_some() {
                // `CompletionStage s = ringbuffer.addAsync(..)`: declared as an interface,
                // still an invocation future with its own deadline.
                value.bounded |= self.bounded_type(&value);
                value.ty = declared.clone();
            }
            // `InvocationFuture<?>[] fs = ..`: an array of futures with their own deadline.
            let element = node
                .field("type")
                .filter(|t| t.kind_name() == "array_type")
                .and_then(|t| t.field("element"))
                .and_then(|e| self.jtype(e));
            if element.is_some_and(|e| self.bounded_future(&e)) {
                value.bounded = true;
            }
            value.unbounded_queue = d
                .field("value")
                .is_some_and(|v| self.creates_unbounded_queue(v));
            // `new ExecutorCompletionService<>(pool)`: submits to `pool`.
            let wrapped = d.field("value").and_then(|v| self.wrapper_args(v));
            if let Some(arg) = wrapped.and_then(|a| super::syntax::argument(a, 0)) {
                value.pool = self.pool_ref_of(arg);
            }
            if let Some(pool) = self.local_pool(&name, d) {
                value.pool = Some(pool);
            } else if value.pool.is_none()
                && declared
                    .as_ref()
                    .and_then(|t| t.fq())
                    .is_some_and(|fq| self.catalog.in_group("executor", fq))
            {
                let r = self.local_pool_ref(&name, true);
                if let Some(v) = d.field("value") {
                    self.factory_use(&r.key, &name, v);
                }
                value.pool = Some(r);
            }
            // `List<CompletableFuture<Void>> futures = new ArrayList<>();` that nothing
            // in the method fills: `allOf(futures.toArray(..))` waits for nothing.
            if declared.as_ref().is_some_and(|t| self.future_collection(t))
                && d.field("value")
                    .is_some_and(|v| self.never_filled(&name, v, node))
            {
                value.complete = true;
            }
            value.root = Some(name.clone());
            self.scopes.declare(&name, value);
        }
    }

    /// A try-with-resources resource: a local of its declared type for the try's body
    /// (`try (LeaderLatch latch = new LeaderLatch(..)) { latch.await(); }`).
    fn resource(&mut self, node: Node<'a>) {
        let (Some(name), Some(v)) = (node.field("name"), node.field("value")) else {
            self.children(node);
            return;
        };
        self.walk(v);
        let mut value = self.value_of(v);
        if let Some(t) = node.field("type").and_then(|t| self.jtype(t)) {
            value.ty = Some(t);
        }
        let name = self.text(name).to_string();
        value.root = Some(name.clone());
        self.scopes.declare(&name, value);
    }

    /// A collection of futures (`List<CompletableFuture<T>>`).
    fn future_collection(&self, t: &JType) -> bool {
        t.args
            .first()
            .is_some_and(|e| e.fq().is_some_and(|fq| self.catalog.in_group("future", fq)))
    }

    /// A new empty collection (`new ArrayList<>()`) that its method only reads: every
    /// other mention of `name` is `name.toArray(`, `.stream(`, `.isEmpty(` or `.size(`.
    fn never_filled(&self, name: &str, value: Node, declaration: Node) -> bool {
        let empty = value.kind_name() == "object_creation_expression"
            && value
                .field("arguments")
                .is_some_and(|a| a.named_child_count() == 0);
        let Some(body) = empty
            .then(|| super::queues::enclosing_body(declaration))
            .flatten()
        else {
            return false;
        };
        let text = self.text(body);
        let after = declaration.end_byte().saturating_sub(body.start_byte());
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
        text.match_indices(name).all(|(at, _)| {
            let before_ok = !text[..at].chars().next_back().is_some_and(word);
            let rest = &text[at + name.len()..];
            let whole = before_ok && !rest.chars().next().is_some_and(word);
            !whole
                || at < after
                || [".toArray(", ".stream(", ".isEmpty(", ".size("]
                    .iter()
                    .any(|r| rest.starts_with(r))
        })
    }

    /// `for (T x : xs)`: `x` gets `T`, or the element type of `xs`.
    fn for_each(&mut self, node: Node<'a>) {
        self.scopes.push();
        let iterable = node.field("value");
        if let Some(v) = iterable {
            self.walk(v);
        }
        let declared = node.field("type").and_then(|t| self.jtype(t));
        let from = iterable.map(|v| self.value_of(v)).unwrap_or_default();
        let mut value = Value {
            ty: declared.or_else(|| from.ty.as_ref().and_then(|t| t.element().cloned())),
            complete: from.complete,
            origin: from.origin.clone(),
            ..Value::default()
        };
        if let Some(n) = node.field("name") {
            let name = self.text(n).to_string();
            value.root = Some(name.clone());
            self.scopes.declare(&name, value);
        }
        if let Some(b) = node.field("body") {
            self.walk(b);
        }
        self.scopes.pop();
    }

    /// A variable or field by name, as a value.
    pub(super) fn lookup(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.scopes.get(name) {
            return Some(v.value.clone());
        }
        let f = self.field(name)?;
        Some(Value {
            ty: f.ty.clone(),
            pool: f.pool.clone(),
            root: Some(name.to_string()),
            unbounded_queue: f.unbounded_queue,
            ..Value::default()
        })
    }

    /// A field of the current class or an enclosing one.
    pub(super) fn field(&self, name: &str) -> Option<&FieldInfo> {
        self.classes.iter().rev().find_map(|c| c.fields.get(name))
    }
}

/// `@Deprecated`, as resolved or as written.
fn is_deprecated(annotation: &str) -> bool {
    matches!(annotation, "Deprecated" | "java.lang.Deprecated")
}
