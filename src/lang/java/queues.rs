//! Queue and executor creations for `unbounded_queue`: `new T(..)` of a catalogued
//! class, static factories, and Spring's setter-bounded executors.

use super::tree::Node;

use super::extract::Extractor;
use super::syntax::{short, span, NodeExt};
use super::types::Value;
use crate::catalog::QueueEntry;
use crate::facts::{Bound, Queue};
use crate::source::Span;

/// What a capacity setter says of the object it bounds (see `setter_bound`).
pub(super) struct SetterBound {
    pub bound: Bound,
    /// A label: the setter call, or the size setters when there is none.
    pub related: Option<(Span, String)>,
    /// The capacity is set after the queue was made (`initialize()` first).
    pub late: bool,
}

impl SetterBound {
    fn unbounded(related: Option<(Span, String)>) -> SetterBound {
        SetterBound {
            bound: Bound::Unbounded,
            related,
            late: false,
        }
    }
}

impl<'a> Extractor<'a> {
    /// `ThreadPoolTaskExecutor executor = new TracingTaskExecutor();`: a class the
    /// catalog does not know, made into a local declared as a catalogued executor, is
    /// taken for that executor (a subclass that decorates its tasks). Its declared type.
    pub(super) fn pool_subclass_as(&self, node: Node) -> Option<String> {
        let decl = node
            .parent()
            .filter(|d| d.kind_name() == "variable_declarator")?
            .parent()
            .filter(|d| d.kind_name() == "local_variable_declaration")?;
        let declared = decl.field("type").and_then(|t| self.jtype(t))?.fq?;
        self.catalog.is_pool_new(&declared).then_some(declared)
    }

    /// `new T(..)` of a catalogued queue or executor; `subclass`: a project subclass of
    /// one (`pool_subclass_as`), whose own constructor may bound what it does not show.
    pub(super) fn queue_creation(&mut self, node: Node<'a>, fq: &str, subclass: bool) {
        let Some(entry) = self.catalog.queue_new(fq) else {
            return;
        };
        if self.feeds_fixed_threads(node) {
            return;
        }
        if has_class_body(node) && !only_hooks(node, self.src) {
            // An anonymous subclass may override anything (`offer` to refuse work).
            return;
        }
        let args = node.field("arguments");
        let (bound, related, late) = if let Some(setter) = &entry.capacity_setter {
            let sizes = entry.size_setters.as_ref();
            match self.setter_bound(node, setter, sizes, &entry.initializers) {
                Some(r) => (r.bound, r.related, r.late),
                None => return,
            }
        } else {
            match self.arg_bound(entry, args) {
                Bound::Unknown => {
                    let (bound, related) = self.unbounded_fallback(entry, args);
                    (bound, related, false)
                }
                b => (b, None, false),
            }
        };
        let threads = entry.grows == crate::catalog::Grows::Threads;
        let bound = match bound {
            // `new ThreadPoolExecutor(0, Integer.MAX_VALUE, .., new SynchronousQueue<>())`:
            // threads grow past the core size only while the work queue refuses work
            // (a `SynchronousQueue`, a full bounded queue); an unbounded queue never does.
            Bound::Capacity(n) if threads && n >= i32::MAX as u64 && self.pool_bounded(node) => {
                Bound::Unbounded
            }
            _ if threads => return,
            Bound::Unbounded if subclass => Bound::Unknown,
            b => b,
        };
        let executor = self.catalog.is_pool_new(fq);
        if !executor
            && (self.local_collection(node)
                || self.result_bag(node)
                || self.collection_field(node)
                || self.size_guarded(node))
        {
            return;
        }
        self.push_queue(node, entry, bound, related, executor, late);
    }

    /// A queue no other thread can reach: made into a local variable (or straight into
    /// an argument of this class's own method) that is only called, iterated and
    /// compared, and handed only to own methods that do the same with it (a work list
    /// for a recursive walk). Stored, returned, captured by a lambda or an anonymous
    /// class, or passed to any other call: it may be shared.
    fn local_collection(&self, creation: Node<'a>) -> bool {
        let Some(parent) = creation.parent() else {
            return false;
        };
        let (var, body) = match parent.kind_name() {
            "variable_declarator" => {
                let in_method = parent
                    .parent()
                    .is_some_and(|d| d.kind_name() == "local_variable_declaration");
                match (parent.field("name"), in_method, enclosing_body(parent)) {
                    (Some(n), true, Some(body)) => (self.text(n), body),
                    _ => return false,
                }
            }
            "assignment_expression" => {
                let Some(left) = parent
                    .field("left")
                    .filter(|l| l.kind_name() == "identifier")
                else {
                    return false;
                };
                let Some(body) = enclosing_body(parent) else {
                    return false;
                };
                // A local (or parameter) in scope here, not a field.
                let var = self.text(left);
                if self.scopes.get(var).is_none() {
                    return false;
                }
                (var, body)
            }
            "argument_list" => {
                let Some(call) = parent.parent() else {
                    return false;
                };
                let Some(index) = argument_index(parent, creation) else {
                    return false;
                };
                return self.own_param_local(call, index, &mut Vec::new());
            }
            _ => return false,
        };
        self.uses_stay_local(var, body, &mut Vec::new())
    }

    /// A local queue that gathers results, not work: nothing in its method takes from
    /// it (`take`, `poll`, `drainTo`, ..), and the method reads it whole (`new
    /// ArrayList<>(results)`, `addAll(results)`, `results.stream()`, a for-each) after
    /// its tasks (handed it or capturing it) add to it: a thread-safe list as big as
    /// the result.
    fn result_bag(&self, creation: Node<'a>) -> bool {
        let Some(decl) = creation
            .parent()
            .filter(|p| p.kind_name() == "variable_declarator")
            .filter(|p| {
                p.parent()
                    .is_some_and(|d| d.kind_name() == "local_variable_declaration")
            })
        else {
            return false;
        };
        let (Some(name), Some(body)) = (decl.field("name"), enclosing_body(decl)) else {
            return false;
        };
        self.read_whole_only(self.text(name), body, name, false)
    }

    /// A private field queue its class only adds to and reads whole
    /// (`tableQueue.offer(p)`, `tableQueue.stream()`, `removeIf(..)`): a concurrent
    /// collection, not a work queue; nothing takes its items off to work on them.
    fn collection_field(&self, creation: Node<'a>) -> bool {
        let Some(decl) = creation
            .parent()
            .filter(|p| p.kind_name() == "variable_declarator")
        else {
            return false;
        };
        let field = decl
            .parent()
            .filter(|d| d.kind_name() == "field_declaration");
        let (Some(field), Some(name)) = (field, decl.field("name")) else {
            return false;
        };
        if !self.modifiers(field).contains(&"private") {
            return false;
        }
        let Some(class) = enclosing_class_body(field) else {
            return false;
        };
        self.read_whole_only(self.text(name), class, name, true)
    }

    /// A private field queue its class bounds by hand: every add waits or gives up
    /// while `queue.size()` is at a limit (`while (results.size() >= max) sleep(..);`
    /// before `results.put(..)`, or the add inside `if (queue.size() < max)`), and the
    /// queue never leaves the class.
    fn size_guarded(&self, creation: Node<'a>) -> bool {
        let Some(parent) = creation.parent() else {
            return false;
        };
        let name = match parent.kind_name() {
            "variable_declarator" => parent.field("name"),
            "assignment_expression" => parent.field("left").and_then(|l| match l.kind_name() {
                "identifier" => Some(l),
                "field_access" => l.field("field"),
                _ => None,
            }),
            _ => None,
        };
        let Some(name) = name else {
            return false;
        };
        let var = self.text(name);
        if parent.kind_name() == "assignment_expression" && self.scopes.get(var).is_some() {
            return false; // a local, not the field
        }
        let Some(class) = enclosing_class_body(parent) else {
            return false;
        };
        let mut c = class.walk();
        let private = class.named_children(&mut c).any(|f| {
            f.kind_name() == "field_declaration"
                && self.modifiers(f).contains(&"private")
                && super::syntax::any_node(f, |d| {
                    d.kind_name() == "variable_declarator"
                        && d.field("name").is_some_and(|n| self.text(n) == var)
                })
        });
        if !private {
            return false;
        }
        const ADDS: &[&str] = &[
            "add",
            "offer",
            "put",
            "addLast",
            "offerLast",
            "putLast",
            "addAll",
        ];
        let mut adds = 0;
        for n in self.named_identifiers(class, var) {
            let n = field_use(n);
            let Some(p) = n.parent() else { continue };
            match p.kind_name() {
                "method_invocation" if p.field("object") == Some(n) => {
                    let m = p.field("name").map_or("", |m| self.text(m));
                    if ADDS.contains(&m) {
                        if !self.size_checked_before(p, var) {
                            return false;
                        }
                        adds += 1;
                    }
                }
                "variable_declarator" if p.field("name") == Some(n) => {}
                "assignment_expression" if p.field("left") == Some(n) => {}
                _ => return false,
            }
        }
        adds > 0
    }

    /// Whether `add` runs only while `var.size()` is under a limit: inside an `if` or
    /// `while` testing it, or after a `while` waiting on it or an `if` on it that leaves
    /// (`return`, `throw`, `break`, `continue`).
    fn size_checked_before(&self, add: Node, var: &str) -> bool {
        let sized = |cond: Node| {
            super::syntax::any_node(cond, |b| {
                b.kind_name() == "binary_expression"
                    && b.field("operator")
                        .is_some_and(|o| matches!(self.text(o), "<" | "<=" | ">" | ">="))
                    && [b.field("left"), b.field("right")]
                        .into_iter()
                        .flatten()
                        .any(|side| {
                            side.kind_name() == "method_invocation"
                                && side.field("name").is_some_and(|m| self.text(m) == "size")
                                && side.field("object").is_some_and(|o| {
                                    let o = self.text(o);
                                    o == var || o.strip_prefix("this.") == Some(var)
                                })
                        })
            })
        };
        let leaves = |stmt: Node| {
            let last = if stmt.kind_name() == "block" {
                let mut c = stmt.walk();
                let last = stmt.named_children(&mut c).last();
                last
            } else {
                Some(stmt)
            };
            last.is_some_and(|l| {
                matches!(
                    l.kind_name(),
                    "return_statement"
                        | "throw_statement"
                        | "break_statement"
                        | "continue_statement"
                )
            })
        };
        let mut n = add;
        while let Some(p) = n.parent() {
            if matches!(
                p.kind_name(),
                "method_declaration"
                    | "constructor_declaration"
                    | "lambda_expression"
                    | "class_body"
            ) {
                return false;
            }
            if matches!(
                p.kind_name(),
                "if_statement" | "while_statement" | "ternary_expression"
            ) {
                if let Some(cond) = p.field("condition").filter(|c| *c != n) {
                    if sized(cond) {
                        return true;
                    }
                }
            }
            let mut prev = n.prev_named_sibling();
            while let Some(s) = prev {
                let cond = s.field("condition").filter(|c| sized(*c));
                match (s.kind_name(), cond) {
                    ("while_statement", Some(_)) => return true,
                    ("if_statement", Some(_)) if s.field("consequence").is_some_and(leaves) => {
                        return true
                    }
                    _ => {}
                }
                prev = s.prev_named_sibling();
            }
            n = p;
        }
        false
    }

    /// Whether `var` in `scope` is only added to and read whole: never taken from
    /// (`take`, `poll`, `drainTo`, ..), returned, or (when `strict`, for a field) handed
    /// to a call other than a copy; and read whole at least once.
    fn read_whole_only(&self, var: &str, scope: Node<'a>, name: Node<'a>, strict: bool) -> bool {
        const TAKES: &[&str] = &[
            "take",
            "poll",
            "remove",
            "drainTo",
            "peek",
            "element",
            "pollFirst",
            "pollLast",
            "takeFirst",
            "takeLast",
            "removeFirst",
            "removeLast",
            "clear",
        ];
        const WHOLE: &[&str] = &["stream", "toArray", "forEach", "iterator", "parallelStream"];
        let mut read_whole = false;
        for n in self.named_identifiers(scope, var) {
            if n.id() != name.id() {
                let n = field_use(n);
                let Some(p) = n.parent() else { continue };
                match p.kind_name() {
                    "method_invocation" if p.field("object").is_some_and(|o| o.id() == n.id()) => {
                        let m = p.field("name").map_or("", |m| self.text(m));
                        if TAKES.contains(&m) {
                            return false;
                        }
                        read_whole |= WHOLE.contains(&m);
                    }
                    "enhanced_for_statement" => read_whole = true,
                    // `new ArrayList<>(results)`, `out.addAll(results)`.
                    "argument_list" => {
                        let copied = p.parent().is_some_and(|c| {
                            c.kind_name() == "object_creation_expression"
                                && p.named_child_count() == 1
                                && c.field("type").is_some_and(|t| {
                                    let t = self.text(t);
                                    ["List", "Set", "Deque"].iter().any(|k| t.contains(k))
                                })
                                || c.kind_name() == "method_invocation"
                                    && c.field("name").is_some_and(|m| self.text(m) == "addAll")
                        });
                        if strict && !copied {
                            return false;
                        }
                        read_whole |= copied;
                    }
                    "return_statement" => return false,
                    "assignment_expression" | "variable_declarator" if strict => return false,
                    _ => {}
                }
            }
        }
        read_whole
    }

    /// Whether every use of `var` in `body` keeps it on this thread (see
    /// [`Self::local_collection`]); `visiting` holds the own methods already followed.
    fn uses_stay_local(&self, var: &str, body: Node<'a>, visiting: &mut Vec<usize>) -> bool {
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            match n.kind_name() {
                // A lambda or an anonymous class may run on another thread.
                "lambda_expression" | "class_body" => {
                    if self.text(n).contains(var) {
                        return false;
                    }
                    continue;
                }
                "identifier" if self.text(n) == var && !self.use_stays_local(n, visiting) => {
                    return false;
                }
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        true
    }

    fn use_stays_local(&self, id: Node<'a>, visiting: &mut Vec<usize>) -> bool {
        let Some(p) = id.parent() else {
            return false;
        };
        match p.kind_name() {
            // `q.add(x)`, `q.poll()`: a call on it.
            "method_invocation" => p.field("object").is_some_and(|o| o.id() == id.id()),
            // `for (Long id : q)`, `q != null`, `!q.isEmpty()` (the call is the parent).
            "enhanced_for_statement" => p.field("value").is_some_and(|v| v.id() == id.id()),
            "binary_expression" => true,
            // `isNull(q) ? a : q`: the value goes where the expression goes.
            "ternary_expression" if p.field("condition").is_none_or(|c| c.id() != id.id()) => {
                self.use_stays_local(p, visiting)
            }
            "parenthesized_expression" => self.use_stays_local(p, visiting),
            // `nodes.forEach(next::add)`: called right there, on this thread.
            "method_reference" => p
                .parent()
                .filter(|l| l.kind_name() == "argument_list")
                .and_then(|l| l.parent())
                .and_then(|call| call.field("name"))
                .is_some_and(|n| self.text(n) == "forEach"),
            // Its own declaration, or `q = new LinkedBlockingDeque<>()` again.
            "variable_declarator" => p.field("name").is_some_and(|n| n.id() == id.id()),
            "assignment_expression" => p.field("left").is_some_and(|l| l.id() == id.id()),
            "argument_list" => {
                let (Some(call), Some(index)) = (p.parent(), argument_index(p, id)) else {
                    return false;
                };
                null_or_empty_check(call, self.src) || self.own_param_local(call, index, visiting)
            }
            _ => false,
        }
    }

    /// Whether `call` is a call of this class's own method (unqualified or on `this`)
    /// whose parameter `index` stays on this thread in every overload.
    fn own_param_local(&self, call: Node<'a>, index: usize, visiting: &mut Vec<usize>) -> bool {
        if call.kind_name() != "method_invocation" {
            return false;
        }
        if call.field("object").is_some_and(|o| self.text(o) != "this") {
            return false;
        }
        let Some(name) = call.field("name").map(|n| self.text(n)) else {
            return false;
        };
        let methods = self.own_methods(name);
        if methods.is_empty() || visiting.len() > 4 {
            return false;
        }
        methods.iter().all(|m| {
            if visiting.contains(&m.id()) {
                return true;
            }
            let param = super::syntax::formal_params(*m)
                .get(index)
                .and_then(|p| p.field("name"));
            let (Some(param), Some(body)) = (param, m.field("body")) else {
                return false;
            };
            visiting.push(m.id());
            let local = self.uses_stay_local(self.text(param), body, visiting);
            visiting.pop();
            local
        })
    }

    /// An executor passed straight to a constructor that takes a fixed number of
    /// threads from it (`new NioServerSocketChannelFactory(boss, workers)`).
    fn feeds_fixed_threads(&self, node: Node) -> bool {
        let users = &self.catalog.data.fixed_thread_users;
        if !self.names_fixed_thread_users {
            return false;
        }
        let is_user = |c: Node| {
            c.kind_name() == "object_creation_expression"
                && c.field("type")
                    .and_then(|t| self.jtype(t))
                    .and_then(|t| t.fq)
                    .is_some_and(|fq| users.contains(&fq))
        };
        let direct = node
            .parent()
            .filter(|p| p.kind_name() == "argument_list")
            .and_then(|p| p.parent());
        if direct.is_some_and(is_user) {
            return true;
        }
        // `ExecutorService boss = ..; new NioServerSocketChannelFactory(boss, ..)`.
        let Some(Stored::Var(var, scope)) = self.stored_in(node) else {
            return false;
        };
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            if is_user(n) {
                let passes = n.field("arguments").is_some_and(|a| {
                    let mut c = a.walk();
                    let found = a.named_children(&mut c).any(|x| self.text(x) == var);
                    found
                });
                if passes {
                    return true;
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        false
    }

    /// Whether an expression creates a queue with no bound (`new LinkedBlockingQueue<>()`).
    pub(super) fn creates_unbounded_queue(&self, node: Node) -> bool {
        if node.kind_name() != "object_creation_expression" {
            return false;
        }
        let Some(fq) = node
            .field("type")
            .and_then(|t| self.jtype(t))
            .and_then(|t| t.fq)
        else {
            return false;
        };
        self.catalog
            .queue_new(&fq)
            .filter(|e| e.capacity_setter.is_none())
            .is_some_and(|e| self.arg_bound(e, node.field("arguments")) == Bound::Unbounded)
    }

    /// `new ThreadPoolExecutor(0, workers, .., unboundedQueue)`: a pool starts threads past
    /// its core size only when its queue refuses a task, so with this queue the maximum
    /// never applies. A label at the core size when the two differ as written.
    fn core_only(&self, creation: Node) -> Option<(Span, String)> {
        let ty = creation.field("type").and_then(|t| self.jtype(t))?;
        if ty.fq.as_deref() != Some("java.util.concurrent.ThreadPoolExecutor") {
            return None;
        }
        let args = creation.field("arguments")?;
        let mut c = args.walk();
        let mut it = args.named_children(&mut c);
        let (core, max) = (it.next()?, it.next()?);
        self.core_only_label(core, max)
    }

    /// The label at a pool's core size `core` when its maximum `max` differs as
    /// written (`core_only`; a Spring executor's `setCorePoolSize`/`setMaxPoolSize`).
    fn core_only_label(&self, core: Node, max: Node) -> Option<(Span, String)> {
        let (core_text, max_text) = (self.text(core), self.text(max));
        let size = self.eval(core);
        match (size, self.eval(max)) {
            (Some(a), Some(b)) if a >= b => return None,
            _ if core_text == max_text => return None,
            _ => {}
        }
        // Two getters on one chain shorten alike (`props.get(..)`): their last calls.
        let (mut core_shown, mut max_shown) = (short(core_text), short(max_text));
        if core_shown == max_shown {
            let last = |t: &str| {
                let tail = t.rsplit('.').next().unwrap_or(t);
                (tail.matches('(').count() == tail.matches(')').count()).then(|| short(tail))
            };
            if let (Some(c), Some(m)) = (last(core_text), last(max_text)) {
                (core_shown, max_shown) = (c, m);
            }
        }
        // A constant's name says more than its value.
        let literal = size.filter(|_| core.kind_name() == "decimal_integer_literal");
        let threads = match literal {
            Some(0) => "one thread".to_string(),
            Some(1) => "1 thread".to_string(),
            Some(n) => format!("{n} threads"),
            None => format!("`{core_shown}` threads"),
        };
        Some((
            span(core),
            format!(
                "with an unbounded queue this pool never runs more than {threads}: it starts \
                 threads past its core size only when the queue is full, so the maximum \
                 (`{max_shown}`) never applies"
            ),
        ))
    }

    /// A static factory call (`Executors.newFixedThreadPool(..)`) by fully-qualified name.
    pub(super) fn queue_factory(&mut self, node: Node, fq: &str) {
        let Some(entry) = self.catalog.queue_call(fq) else {
            return;
        };
        if self.feeds_fixed_threads(node) {
            return;
        }
        let executor = self.catalog.is_pool_call(fq);
        if executor && self.sized_to_its_tasks(node) {
            return;
        }
        let bound = self.arg_bound(entry, node.field("arguments"));
        self.push_queue(node, entry, bound, None, executor, false);
    }

    fn push_queue(
        &mut self,
        node: Node,
        entry: &QueueEntry,
        bound: Bound,
        related: Option<(Span, String)>,
        executor: bool,
        late: bool,
    ) {
        let bound = match bound {
            Bound::Unbounded if entry.grows == crate::catalog::Grows::Threads => {
                Bound::UnboundedThreads
            }
            b => b,
        };
        let stored = self.stored_in(node);
        // `queue = new LinkedBlockingQueue<>()`, then `new ThreadPoolExecutor(.., queue)`
        // in the same class or method: the queue is that pool's.
        let creation = node
            .parent()
            .filter(|p| p.kind_name() == "argument_list")
            .and_then(|p| p.parent())
            .or_else(|| match &stored {
                Some(Stored::Var(var, scope)) => self.pool_given(var, *scope),
                _ => None,
            });
        let executor = executor || creation.is_some_and(|c| self.is_pool_creation(c));
        let related = match creation {
            Some(c) if related.is_none() && bound == Bound::Unbounded => self.core_only(c),
            _ => related,
        };
        let (keys, batched) = match stored {
            Some(Stored::Var(var, _)) if self.field(&var).is_some() => (
                vec![self.field_key(&var)],
                !executor && self.drained_whole(node, &var),
            ),
            Some(Stored::Var(var, _)) => (vec![format!("local:{var}")], false),
            _ => (Vec::new(), false),
        };
        self.facts.queues.push(Queue {
            span: span(node),
            what: format!("`{}`", short(self.text(node))),
            bound,
            why: match late {
                true => "gets its capacity only after the queue was made with the default".into(),
                false => entry.why.clone(),
            },
            help: match late {
                true => "set the capacity before `initialize()`, which makes the queue".into(),
                false => entry.help.clone(),
            },
            related,
            ctx: self.ctx.last().copied(),
            argument_of: creation.map(|c| c.start_byte()),
            executor,
            keys,
            item: None,
            timers: entry.grows == crate::catalog::Grows::Timers
                || (!executor && self.in_timer_class()),
            configured: bound == Bound::Unbounded && self.beside_bounded_form(node),
            reply: false,
            handed_to: (!executor).then(|| self.handed_to(node)).flatten(),
            kept_by: Vec::new(),
            free_list: false,
            batched,
        });
    }

    /// A field queue its class empties whole (`queue.drainTo(batch)`, no limit): a
    /// hand-off buffer whose consumer takes everything there is on each pass.
    fn drained_whole(&self, creation: Node, var: &str) -> bool {
        let Some(class) = enclosing_class_body(creation) else {
            return false;
        };
        self.named_identifiers(class, var).into_iter().any(|n| {
            let n = field_use(n);
            n.parent().is_some_and(|p| {
                p.kind_name() == "method_invocation"
                    && p.field("object").is_some_and(|o| o.id() == n.id())
                    && p.field("name").is_some_and(|m| self.text(m) == "drainTo")
                    && super::syntax::call_args(p).len() == 1
            })
        })
    }

    /// `Executors.newFixedThreadPool(groups.size())`, then one task per item (`for (G g :
    /// groups) pool.execute(..)`, or `for (int i = 0; i < n; i++)` for a pool of `n`),
    /// and no other submission to the pool: every task has a thread of its own, so the
    /// queue never holds one.
    fn sized_to_its_tasks(&self, node: Node) -> bool {
        let args = node
            .field("arguments")
            .map(super::syntax::named_children)
            .unwrap_or_default();
        let [size] = args[..] else {
            return false;
        };
        let size = self.text(size);
        let items = size
            .strip_suffix(".size()")
            .or_else(|| size.strip_suffix(".length"));
        let (Some(Stored::Var(var, scope)), Some(body)) =
            (self.stored_in(node), enclosing_body(node))
        else {
            return false;
        };
        // The loops of the creating method that run once per task.
        let per_task = |n: Node| match n.kind_name() {
            "enhanced_for_statement" => {
                items.is_some() && n.field("value").map(|v| self.text(v)) == items
            }
            "for_statement" => self.counted_bound(n).is_some_and(|b| self.text(b) == size),
            _ => false,
        };
        let mut loops = Vec::new();
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if per_task(n) {
                loops.push(n);
                continue;
            }
            stack.extend(super::syntax::named_children(n));
        }
        if loops.is_empty() {
            return false;
        }
        // Every submission to the pool, wherever its variable is seen, is in one (and
        // in no loop nested in it: that would be several tasks per item).
        let inside = |n: Node| {
            let mut cur = n.parent();
            while let Some(p) = cur {
                if matches!(
                    p.kind_name(),
                    "for_statement" | "enhanced_for_statement" | "while_statement" | "do_statement"
                ) {
                    return loops.iter().any(|l| l.id() == p.id());
                }
                cur = p.parent();
            }
            false
        };
        let mut submits = 0;
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            let submit = n.kind_name() == "method_invocation"
                && n.field("object")
                    .is_some_and(|o| self.text(o).trim_start_matches("this.") == var)
                && n.field("name")
                    .is_some_and(|m| self.catalog.is_submit_method(self.text(m)));
            if submit {
                if !inside(n) {
                    return false;
                }
                submits += 1;
            }
            // Handed on or returned, it may take other work elsewhere.
            let escapes = matches!(n.kind_name(), "identifier" | "field_access")
                && self.text(n).trim_start_matches("this.") == var
                && n.parent()
                    .is_some_and(|p| matches!(p.kind_name(), "argument_list" | "return_statement"));
            if escapes {
                return false;
            }
            stack.extend(super::syntax::named_children(n));
        }
        submits > 0
    }

    /// The one pool creation in `scope` given the variable `var` as an argument.
    fn pool_given<'t>(&self, var: &str, scope: Node<'t>) -> Option<Node<'t>>
    where
        'a: 't,
    {
        // Most queues are no pool's: a text search spares them the walk.
        let text = self.text(scope);
        if !["Executor", "Pool", "Policy"]
            .iter()
            .any(|w| text.contains(w))
        {
            return None;
        }
        let mut found = None;
        let mut twice = false;
        self.each_below(scope, |n| {
            if n.kind_name() == "object_creation_expression" && self.is_pool_creation(n) {
                let names_var = n.field("arguments").is_some_and(|a| {
                    super::syntax::named_children(a)
                        .iter()
                        .any(|x| self.text(*x).trim_start_matches("this.") == var)
                });
                if names_var {
                    twice |= found.is_some();
                    found = Some(n);
                }
            }
            !twice
        });
        found.filter(|_| !twice)
    }

    /// `graph.build(roots, new LinkedBlockingDeque<>(), ..)`: the call (its span) and
    /// argument index a queue is made straight into, when the call is another
    /// object's method (this class's own are followed by `local_collection`).
    fn handed_to(&self, node: Node) -> Option<(Span, u8)> {
        let list = node.parent().filter(|p| p.kind_name() == "argument_list")?;
        let call = list
            .parent()
            .filter(|c| c.kind_name() == "method_invocation")?;
        call.field("object").filter(|o| self.text(*o) != "this")?;
        let index = u8::try_from(argument_index(list, node)?).ok()?;
        Some((self.call_span(call), index))
    }

    /// The queue-typed parameters (`Deque<Node> pending`) a method only uses on its
    /// own thread: called, iterated, compared, handed to its class's methods that do
    /// the same (`Context::local_params`).
    pub(super) fn local_queue_params(&self, params: &[Node<'a>], body: Node<'a>) -> u16 {
        let mut bits = 0u16;
        for (i, p) in params.iter().enumerate().take(16) {
            let queue_type = p.field("type").is_some_and(|t| {
                let simple = super::syntax::type_name(t, self.src);
                simple.ends_with("Queue") || simple.ends_with("Deque")
            });
            let local = queue_type
                && p.field("name")
                    .is_some_and(|n| self.uses_stay_local(self.text(n), body, &mut Vec::new()));
            if local {
                bits |= 1 << i;
            }
        }
        bits
    }

    /// Whether the enclosing class is a timer (`HashedWheelTimer implements Timer`, a
    /// `TimingWheel`): its queues hold pending timeouts, each leaving when its deadline
    /// passes, as a `DelayQueue`'s do: no backlog of work waiting for a worker.
    fn in_timer_class(&self) -> bool {
        let Some(class) = self.classes.last() else {
            return false;
        };
        fn simple(n: &str) -> &str {
            n.rsplit(['.', '$']).next().unwrap_or(n)
        }
        let name = simple(&class.fq);
        name.ends_with("Timer")
            || name.contains("Wheel")
            || class.supers.iter().any(|s| simple(s) == "Timer")
    }

    /// `size < 0 ? new LinkedBlockingQueue<>() : new LinkedBlockingQueue<>(size)` (or
    /// the same as `if`/`else` branches): the other branch makes the same type, or
    /// another queue, with a capacity, so the unbounded form is the caller's
    /// configured choice.
    fn beside_bounded_form(&self, node: Node) -> bool {
        let type_text = |n: Node| n.field("type").map(|t| self.text(t));
        let Some(own) = type_text(node) else {
            return false;
        };
        let mut cur = node;
        while let Some(p) = cur.parent() {
            let branches = match p.kind_name() {
                "parenthesized_expression" | "expression_statement" | "block" => {
                    cur = p;
                    continue;
                }
                "assignment_expression" if p.field("right") == Some(cur) => {
                    cur = p;
                    continue;
                }
                "ternary_expression" | "if_statement" => {
                    [p.field("consequence"), p.field("alternative")]
                }
                _ => return false,
            };
            let Some(other) = branches.into_iter().flatten().find(|b| b.id() != cur.id()) else {
                return false;
            };
            return super::syntax::any_node(other, |n| {
                if n.kind_name() != "object_creation_expression" {
                    return false;
                }
                let args = n.field("arguments");
                if type_text(n) == Some(own) {
                    return args.is_some_and(|a| super::syntax::arguments(a).len() == 1);
                }
                // Another queue type given a capacity (`queueSize > 0 ?
                // new ArrayBlockingQueue<>(queueSize) : new LinkedBlockingQueue<>()`).
                n.field("type")
                    .and_then(|t| self.jtype(t))
                    .and_then(|t| t.fq)
                    .and_then(|fq| self.catalog.queue_new(&fq))
                    .is_some_and(|entry| {
                        entry.capacity_setter.is_none()
                            && self.arg_bound(entry, args) != Bound::Unbounded
                    })
            });
        }
        false
    }

    fn arg_bound(&self, entry: &QueueEntry, args: Option<Node>) -> Bound {
        capacity_node(entry, args).map_or(Bound::Unbounded, |arg| self.capacity(arg))
    }

    /// A capacity that falls back to `Integer.MAX_VALUE` when unset
    /// (`size > 0 ? size : Integer.MAX_VALUE`, inline or assigned earlier in the
    /// method to the local or field passed): unbounded unless configured.
    fn unbounded_fallback(
        &self,
        entry: &QueueEntry,
        args: Option<Node>,
    ) -> (Bound, Option<(Span, String)>) {
        let Some(arg) = capacity_node(entry, args) else {
            return (Bound::Unknown, None);
        };
        let expr = super::syntax::unparen(match arg.kind_name() {
            "identifier" | "field_access" => self.assigned_before(arg).unwrap_or(arg),
            _ => arg,
        });
        let max = |b: Option<Node>| {
            b.and_then(|b| self.eval(b))
                .is_some_and(|v| v >= i32::MAX as u64)
        };
        if expr.kind_name() == "ternary_expression"
            && (max(expr.field("consequence")) || max(expr.field("alternative")))
        {
            let label =
                "the capacity falls back to `Integer.MAX_VALUE` here: unbounded unless configured";
            return (Bound::Unbounded, Some((span(expr), label.to_string())));
        }
        (Bound::Unknown, None)
    }

    /// The value last assigned, earlier in its method, to the local or field a
    /// name (`size`, `this.size`) reads.
    fn assigned_before<'t>(&self, name: Node<'t>) -> Option<Node<'t>> {
        let bare = |n: Node| self.text(n).trim_start_matches("this.").to_string();
        let want = bare(name);
        let body = enclosing_body(name)?;
        let mut found: Option<Node<'t>> = None;
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.start_byte() >= name.start_byte() {
                continue;
            }
            let value = match n.kind_name() {
                "assignment_expression" => n
                    .field("left")
                    .filter(|l| bare(*l) == want)
                    .and_then(|_| n.field("right")),
                "variable_declarator" => n
                    .field("name")
                    .filter(|v| self.text(*v) == want)
                    .and_then(|_| n.field("value")),
                _ => None,
            };
            if let Some(v) = value {
                if found.is_none_or(|f| f.start_byte() < v.start_byte()) {
                    found = Some(v);
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        found
    }

    pub(super) fn capacity(&self, arg: Node) -> Bound {
        self.eval(arg).map_or(Bound::Unknown, Bound::Capacity)
    }

    /// For objects bounded by a setter (Spring's `setQueueCapacity`): find the
    /// variable the object is stored in and its setter call in the same method
    /// (local) or class (field), and whether it is set too late (after one of
    /// `initializers` in the same method). `None` when the object escapes to code we
    /// cannot see.
    pub(super) fn setter_bound(
        &self,
        creation: Node,
        setter: &str,
        sizes: Option<&[String; 2]>,
        initializers: &[String],
    ) -> Option<SetterBound> {
        let (var, scope) = match self.stored_in(creation)? {
            Stored::Var(var, scope) => (var, scope),
            Stored::Returned => return Some(SetterBound::unbounded(None)),
        };
        // Named once (its declaration): no setter, no escape.
        if super::syntax::text(scope, self.src)
            .matches(var.as_str())
            .count()
            <= 1
        {
            return Some(SetterBound::unbounded(None));
        }
        let mut found = None;
        // The first argument of each size setter called on it (core, maximum).
        let mut size: [Option<Node>; 2] = [None, None];
        // Where it is initialized: (the body around the call, its start). Statement
        // order means something only within one method, lambda or initializer.
        let mut initialized: Vec<(Option<usize>, usize)> = Vec::new();
        let method_of = |n: Node| enclosing_body(n).map(|b| b.start_byte());
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            if n.kind_name() == "method_invocation" {
                let first = || {
                    n.field("arguments")
                        .and_then(|a| super::syntax::argument(a, 0))
                };
                if self.is_call_on(n, &var, setter) {
                    found = Some((n, first()));
                }
                if initializers.iter().any(|i| self.is_call_on(n, &var, i)) {
                    initialized.push((method_of(n), n.start_byte()));
                }
                for (i, name) in sizes.into_iter().flatten().enumerate() {
                    if self.is_call_on(n, &var, name) {
                        size[i] = first();
                    }
                }
            }
            if n.kind_name() == "argument_list" {
                let mut c = n.walk();
                if n.named_children(&mut c).any(|a| self.text(a) == var) {
                    return None;
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        match found {
            None => {
                let label = match size {
                    [Some(core), Some(max)] => self.core_only_label(core, max),
                    _ => None,
                };
                Some(SetterBound::unbounded(label))
            }
            // `executor.initialize(); executor.setQueueCapacity(1000);`: the queue was
            // made with the default capacity before the setter ran.
            Some((call, _))
                if initialized.iter().any(|&(m, at)| {
                    m.is_some() && m == method_of(call) && at < call.start_byte()
                }) =>
            {
                let why = "set only after `initialize()` made the queue: it has no effect";
                let related = Some((span(call), why.to_string()));
                Some(SetterBound {
                    late: true,
                    ..SetterBound::unbounded(related)
                })
            }
            Some((call, arg)) => {
                let bound = arg.map(|a| self.capacity(a)).unwrap_or(Bound::Unknown);
                let related = Some((span(call), "capacity set here".to_string()));
                Some(SetterBound {
                    bound,
                    related,
                    late: false,
                })
            }
        }
    }

    /// `queue.offer(x)` / `this.queue.put(x)`: an item into the queue held there.
    pub(super) fn queue_send(
        &mut self,
        call: Node,
        name: &str,
        object: Option<Node>,
        recv: &Value,
    ) {
        let puts = &self.catalog.data.queue_puts;
        let Some(o) = object.filter(|_| puts.iter().any(|p| p == name)) else {
            return;
        };
        let t = self.text(o);
        let var = t.strip_prefix("this.").unwrap_or(t);
        if !matches!(o.kind_name(), "identifier" | "field_access") || var.contains('.') {
            return;
        }
        // `list.add(x)`: a receiver of a known type that is no queue puts into no queue.
        if let Some(fq) = recv.ty.as_ref().and_then(|t| t.fq()) {
            let queue = self.catalog.in_group("blocking_queue", fq)
                || fq.ends_with("Queue")
                || fq.ends_with("Deque");
            if !queue {
                return;
            }
        }
        let key = if self.is_field_ref(o) {
            self.field_key(var)
        } else {
            format!("local:{var}")
        };
        if self.fills_free_list(call, &key) {
            return;
        }
        self.facts.queue_sends.push(crate::facts::QueueSend {
            key,
            span: span(call),
            ctx: self.current_ctx(),
            guarded: self.admits_one(call)
                || self.waits_for_item(call)
                || self.drained_in_place(call, var)
                || self.deduplicated(call, var),
        });
    }

    /// `for (int i = 0; i < max; i++) slots.add(i);` where the queue is made (or, for a
    /// field's queue made in its declaration, in a constructor): marks that queue a
    /// free list of that many items, whose puts are no producers.
    fn fills_free_list(&mut self, call: Node, key: &str) -> bool {
        if !self.counted_fill(call) {
            return false;
        }
        let ctx = self.ctx.last().copied();
        let constructor = enclosing_body(call)
            .and_then(|b| b.parent())
            .is_some_and(|d| d.kind_name() == "constructor_declaration");
        let contexts = &self.facts.contexts;
        let made_here = self.facts.queues.iter_mut().rev().find(|q| {
            let declared = q
                .ctx
                .is_none_or(|c| contexts.get(c).is_some_and(|c| &*c.name == "<init>"));
            q.keys.iter().any(|k| k == key)
                && ((q.ctx.is_some() && q.ctx == ctx)
                    || (constructor && declared && key.starts_with("field:")))
        });
        made_here.map(|q| q.free_list = true).is_some()
    }

    /// Whether a put is the whole body of a counted `for` loop (`for (int i = 0; i <
    /// max; i++) slots.add(i);`): it puts a fixed number of items.
    fn counted_fill(&self, call: Node) -> bool {
        let Some(stmt) = statement_of(call) else {
            return false;
        };
        let mut up = stmt.parent();
        if let Some(b) = up.filter(|b| b.kind_name() == "block") {
            if b.named_child_count() != 1 {
                return false;
            }
            up = b.parent();
        }
        up.filter(|f| f.kind_name() == "for_statement")
            .is_some_and(|f| f.field("init").is_some() && self.counted_bound(f).is_some())
    }

    /// The bound of a counted `for` loop's condition: `n` in `i < n` or `i <= n`.
    fn counted_bound<'t>(&self, f: Node<'t>) -> Option<Node<'t>> {
        let c = f
            .field("condition")
            .filter(|c| c.kind_name() == "binary_expression")?;
        c.child_by_field_name("operator")
            .is_some_and(|o| matches!(self.text(o), "<" | "<="))
            .then(|| c.child_by_field_name("right"))
            .flatten()
    }

    /// An item put only when the queue does not hold it yet: just after
    /// `queue.removeIf(..)` or `queue.remove(x)` in the same block, or inside `if
    /// (!queue.contains(x))` or `if (queue.stream().noneMatch(..))`. The queue holds
    /// each key once, as many as there are keys (feeds, jobs), whatever the traffic.
    fn deduplicated(&self, call: Node, var: &str) -> bool {
        let on_var = |n: Node, methods: &[&str]| {
            n.kind_name() == "method_invocation"
                && methods.iter().any(|m| self.is_call_on(n, var, m))
        };
        let stmt = statement_of(call);
        let removed_before = stmt
            .and_then(|s| s.prev_named_sibling())
            .filter(|p| p.kind_name() == "expression_statement")
            .and_then(|p| p.named_child(0))
            .is_some_and(|c| on_var(c, &["removeIf", "remove"]));
        if removed_before {
            return true;
        }
        let mut cur = call.parent();
        while let Some(n) = cur {
            match n.kind_name() {
                "if_statement" => {
                    let checks = n.field("condition").is_some_and(|c| {
                        super::syntax::any_node(c, |x| {
                            on_var(x, &["contains"])
                                || (x.kind_name() == "method_invocation"
                                    && x.field("name").is_some_and(|m| self.text(m) == "noneMatch")
                                    && x.field("object").is_some_and(|o| on_var(o, &["stream"])))
                        })
                    });
                    if checks {
                        return true;
                    }
                }
                "method_declaration" | "lambda_expression" | "class_body" => return false,
                _ => {}
            }
            cur = n.parent();
        }
        false
    }

    /// `queue.add(event); drain();` where `drain` (an own method, or one it calls)
    /// polls that queue on the producer's thread: a serialising hand-off (the
    /// work-in-progress drain loop), not a backlog for another thread.
    fn drained_in_place(&self, call: Node, var: &str) -> bool {
        let Some(stmt) = statement_of(call) else {
            return false;
        };
        let mut next = stmt.next_named_sibling();
        while let Some(s) = next {
            let own = s
                .named_child(0)
                .filter(|c| c.kind_name() == "method_invocation")
                .filter(|c| c.field("object").is_none_or(|o| self.text(o) == "this"))
                .and_then(|c| c.field("name"));
            if let Some(name) = own {
                let mut seen = Vec::new();
                if self.own_method_polls(stmt, self.text(name), var, &mut seen) {
                    return true;
                }
            }
            next = s.next_named_sibling();
        }
        false
    }

    /// Whether the own method `name` (declared in a class around `at`) polls `var`
    /// on its caller's thread, itself or through own methods it calls (8 at most).
    fn own_method_polls(
        &self,
        at: Node,
        name: &'a str,
        var: &str,
        seen: &mut Vec<&'a str>,
    ) -> bool {
        if seen.len() >= 8 || seen.contains(&name) {
            return false;
        }
        seen.push(name);
        let mut body = enclosing_class_body(at);
        while let Some(class) = body {
            let method = self.methods_named(class, name).into_iter().next();
            if let Some(block) = method.and_then(|m| m.field("body")) {
                let mut calls = Vec::new();
                for inv in super::syntax::own_invocations(block) {
                    let object = inv.field("object").map(|o| self.text(o));
                    let Some(m) = inv.field("name").map(|n| self.text(n)) else {
                        continue;
                    };
                    let on_var =
                        object.is_some_and(|o| o == var || o.strip_prefix("this.") == Some(var));
                    let takes = matches!(m, "poll" | "pollFirst" | "pollLast" | "drainTo")
                        || m == "remove"
                            && inv
                                .field("arguments")
                                .is_some_and(|a| a.named_child_count() == 0);
                    if on_var && takes {
                        return true;
                    }
                    if object.is_none_or(|o| o == "this") {
                        calls.push(m);
                    }
                }
                return calls
                    .into_iter()
                    .any(|m| self.own_method_polls(block, m, var, seen));
            }
            body = enclosing_class_body(class);
        }
        false
    }

    /// `queue.put(token); token.waitForCompletion();`: the producer waits for the item
    /// it put, so each caller has at most one queued.
    fn waits_for_item(&self, call: Node) -> bool {
        let Some(item) = call
            .field("arguments")
            .and_then(|a| super::syntax::argument(a, 0))
            .filter(|a| a.kind_name() == "identifier")
        else {
            return false;
        };
        let item = self.text(item);
        let Some(stmt) = statement_of(call) else {
            return false;
        };
        let waits = |n: Node| {
            n.kind_name() == "method_invocation"
                && n.field("object").is_some_and(|o| self.text(o) == item)
                && n.field("name").is_some_and(|m| {
                    let m = self.text(m);
                    m.starts_with("wait") || m.starts_with("await") || m == "get" || m == "join"
                })
        };
        let mut next = stmt.next_named_sibling();
        while let Some(s) = next {
            if super::syntax::any_node(s, waits) {
                return true;
            }
            next = s.next_named_sibling();
        }
        false
    }

    /// `var.method(..)` or `this.var.method(..)`.
    pub(super) fn is_call_on(&self, call: Node, var: &str, method: &str) -> bool {
        let on_var = call.field("object").is_some_and(|o| {
            let t = self.text(o);
            t == var || t.strip_prefix("this.") == Some(var)
        });
        on_var && call.field("name").is_some_and(|m| self.text(m) == method)
    }

    /// Where a created object is stored: a variable and the code that can configure it.
    pub(super) fn stored_in<'t>(&self, creation: Node<'t>) -> Option<Stored<'t>> {
        let parent = creation.parent()?;
        match parent.kind_name() {
            "variable_declarator" => {
                let var = self.text(parent.field("name")?).to_string();
                let decl = parent.parent()?;
                let scope = if decl.kind_name() == "field_declaration" {
                    decl.parent()?
                } else {
                    enclosing_body(decl)?
                };
                Some(Stored::Var(var, scope))
            }
            "assignment_expression" => {
                let left = parent.field("left")?;
                let var = self.text(left).trim_start_matches("this.").to_string();
                Some(Stored::Var(var, enclosing_class_body(parent)?))
            }
            "return_statement" | "lambda_expression" => Some(Stored::Returned),
            _ => None,
        }
    }
}

pub(super) enum Stored<'t> {
    /// Assigned to this variable; configured within this node.
    Var(String, Node<'t>),
    /// Returned straight away: nothing can configure it afterwards.
    Returned,
}

/// The use an identifier names: `this.queue` for the `queue` in it, else itself.
fn field_use(n: Node) -> Node {
    n.parent()
        .filter(|p| p.kind_name() == "field_access" && p.field("field") == Some(n))
        .unwrap_or(n)
}

/// `Objects.isNull(q)`, `CollUtil.isNotEmpty(q)`: a static check that keeps nothing.
fn null_or_empty_check(call: Node, src: &str) -> bool {
    let static_call = call
        .field("object")
        .is_none_or(|o| o.kind_name() == "identifier" || o.kind_name() == "field_access");
    let name = call.field("name").map(|n| super::syntax::text(n, src));
    static_call && matches!(name, Some("isNull" | "nonNull" | "isEmpty" | "isNotEmpty"))
}

/// The position of `arg` among the arguments of `list`.
fn argument_index(list: Node, arg: Node) -> Option<usize> {
    super::syntax::arguments(list)
        .iter()
        .position(|a| a.id() == arg.id())
}

/// Executor hooks an anonymous subclass may override without changing what its
/// queue holds (`afterExecute` to log failures).
const HOOKS: [&str; 5] = [
    "afterExecute",
    "beforeExecute",
    "terminated",
    "toString",
    "finalize",
];

/// Whether a creation's anonymous class body declares only executor hooks.
fn only_hooks(creation: Node, src: &str) -> bool {
    let Some(body) = super::syntax::anonymous_body(creation) else {
        return false;
    };
    let mut c2 = body.walk();
    let all = body.named_children(&mut c2).all(|m| match m.kind_name() {
        "method_declaration" => m
            .field("name")
            .is_some_and(|n| HOOKS.contains(&super::syntax::text(n, src))),
        "line_comment" | "block_comment" => true,
        _ => false,
    });
    all
}

pub(super) fn has_class_body(node: Node) -> bool {
    super::syntax::anonymous_body(node).is_some()
}

/// The statement a call is the whole of (`queue.add(x);`).
fn statement_of(call: Node) -> Option<Node> {
    call.parent()
        .filter(|p| p.kind_name() == "expression_statement")
}

/// The capacity argument of a queue's constructor or factory call, if it has one.
fn capacity_node<'t>(entry: &QueueEntry, args: Option<Node<'t>>) -> Option<Node<'t>> {
    entry
        .capacity_arg
        .and_then(|i| args.and_then(|a| super::syntax::argument(a, i)))
}

/// The body of the method, constructor, lambda or initializer around a node.
pub(super) fn enclosing_body(n: Node) -> Option<Node> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        match p.kind_name() {
            "method_declaration" | "constructor_declaration" | "lambda_expression" => {
                return p.field("body")
            }
            // An instance initializer (`{ .. }`) or a static one (`static { .. }`).
            "block"
                if p.parent().is_some_and(|g| {
                    matches!(g.kind_name(), "class_body" | "static_initializer")
                }) =>
            {
                return Some(p)
            }
            _ => cur = p.parent(),
        }
    }
    None
}

pub(super) fn enclosing_class_body(n: Node) -> Option<Node> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        if p.kind_name() == "class_body" {
            return Some(p);
        }
        cur = p.parent();
    }
    None
}
