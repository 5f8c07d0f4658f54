//! What is known complete or bounded as control flows: `isDone()` guards,
//! branches on a timeout value, and futures already waited for.

use super::tree::Node;

use super::extract::Extractor;
use super::syntax::{any_node, NodeExt};
use crate::source::Span;

/// The value of a `static final` field that switches code off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Off {
    Null,
    False,
}

impl<'a> Extractor<'a> {
    /// The value of a condition that a constant decides: `MIRROR_URL != null` or
    /// `DEBUG` for a `static final` field initialised to `null` or `false` (in this
    /// class or an enclosing one, not hidden by a local), also negated or in
    /// parentheses. `None` when it depends on anything else.
    pub(super) fn constant_truth(&self, cond: Node) -> Option<bool> {
        let switch = |n: Node| -> Option<Off> {
            let name = match n.kind_name() {
                "identifier" => self.text(n),
                "field_access" => {
                    let object = self.text(n.field("object")?);
                    let own = object == "this"
                        || self
                            .classes
                            .iter()
                            .any(|c| c.fq.rsplit(['.', '$']).next() == Some(object));
                    if !own {
                        return None;
                    }
                    self.text(n.field("field")?)
                }
                _ => return None,
            };
            if self.scopes.get(name).is_some() {
                return None;
            }
            self.field(name)?.off
        };
        match cond.kind_name() {
            "parenthesized_expression" => self.constant_truth(cond.named_child(0)?),
            "unary_expression" if self.text(cond.field("operator")?) == "!" => {
                self.constant_truth(cond.field("operand")?).map(|t| !t)
            }
            "binary_expression" => {
                let op = self.text(cond.field("operator")?);
                let (l, r) = (cond.field("left")?, cond.field("right")?);
                // `X != null` or `null != X`.
                let (side, other) = if l.kind_name() == "null_literal" {
                    (r, l)
                } else {
                    (l, r)
                };
                if other.kind_name() != "null_literal" || switch(side)? != Off::Null {
                    return None;
                }
                match op {
                    "==" => Some(true),
                    "!=" => Some(false),
                    _ => None,
                }
            }
            _ => (switch(cond)? == Off::False).then_some(false),
        }
    }

    /// `if (f.isDone()) { f.join(); }` and `f.isDone() ? f.join() : x`.
    pub(super) fn guarded(&mut self, node: Node<'a>) {
        let Some(cond) = node.field("condition") else {
            return self.children(node);
        };
        // A branch a constant switches off never runs: only the other is walked.
        if node.kind_name() == "if_statement" {
            if let Some(truth) = self.constant_truth(cond) {
                let live = if truth { "consequence" } else { "alternative" };
                if let Some(branch) = node.field(live) {
                    self.scopes.push();
                    self.walk(branch);
                    self.scopes.pop();
                }
                return;
            }
        }
        self.walk(cond);
        let (done, not_done) = self.done_checks(cond);
        // Whether the branches are a timed and an untimed twin (`timed_twin`) is
        // asked only of the rare untimed wait inside one (`in_timed_twin`).
        let on_timeout = self.mentions_timeout(cond);
        self.frame.timeout_branch += usize::from(on_timeout);
        let lazy = node
            .field("consequence")
            .map_or(Lazy::No, |then| self.lazy_init(cond, then));
        if let Some(then) = node.field("consequence") {
            self.frame.once += usize::from(lazy == Lazy::Then);
            self.scopes.push();
            for name in &done {
                self.mark_complete_local(name);
            }
            let start = self.completed_log.len();
            self.walk(then);
            // `if (!f.isDone()) return ..;`: afterwards `f` is complete, and so after
            // `if (!f.isDone()) { f.run(); }`, which completes it on this thread.
            let leaves = exits(then);
            let after: Vec<String> = not_done
                .iter()
                .filter(|n| leaves || self.completed_log[start..].iter().any(|(c, _)| c == *n))
                .cloned()
                .collect();
            self.scopes.pop();
            self.frame.once -= usize::from(lazy == Lazy::Then);
            for name in &after {
                self.mark_complete(name);
            }
        }
        if let Some(alt) = node.field("alternative") {
            self.scopes.push();
            for name in &not_done {
                self.mark_complete_local(name);
            }
            self.walk(alt);
            self.scopes.pop();
        }
        self.frame.timeout_branch -= usize::from(on_timeout);
        // `if (found != null) return found;`: the rest of the block creates it, once
        // (the enclosing block restores the count).
        self.frame.once += usize::from(lazy == Lazy::Rest);
    }

    /// A lazy initialization: `if (region == null) { region = create(); }` on a field,
    /// or on a local holding a lookup by constants (`cache.getRegion(CONFIG)`), whose
    /// branch runs once (`Lazy::Then`); `if (found != null) return found;` on the same,
    /// after which the rest of the block runs once (`Lazy::Rest`). A lookup by a
    /// parameter (`cache.get(key)`) is a cache miss, which recurs.
    fn lazy_init(&self, cond: Node, then: Node) -> Lazy {
        let cond = super::syntax::unparen(cond);
        let op = cond.field("operator").map_or("", |o| self.text(o));
        if cond.kind_name() != "binary_expression" || !matches!(op, "==" | "!=") {
            return Lazy::No;
        }
        let (Some(l), Some(r)) = (cond.field("left"), cond.field("right")) else {
            return Lazy::No;
        };
        let mut held = match (l.kind_name(), r.kind_name()) {
            (_, "null_literal") => l,
            ("null_literal", _) => r,
            _ => return Lazy::No,
        };
        // Double-checked locking reads the field into a local as it tests it:
        // `if ((pool = common) == null)` tests `common`.
        let inner = super::syntax::unparen(held);
        if inner.kind_name() == "assignment_expression" {
            match inner.field("right") {
                Some(right) => held = super::syntax::unparen(right),
                None => return Lazy::No,
            }
        }
        let name = self.text(held).trim_start_matches("this.");
        // The shape first, then (rarely asked) what the tested value holds.
        let lazy = match op {
            // The branch sets what it tested.
            "==" if any_node(then, |n| {
                n.kind_name() == "assignment_expression"
                    && n.field("left")
                        .is_some_and(|x| self.text(x).trim_start_matches("this.") == name)
            }) =>
            {
                Lazy::Then
            }
            "!=" if exits(then) => Lazy::Rest,
            _ => return Lazy::No,
        };
        if self.held_once(held) {
            lazy
        } else {
            Lazy::No
        }
    }

    /// A field (`region`, `this.region`), or a local whose initializer is a lookup by
    /// constants only (`cache.getRegion(CONFIG_REGION)`, `registry.get()`).
    fn held_once(&self, held: Node) -> bool {
        match held.kind_name() {
            "field_access" => held
                .field("object")
                .is_some_and(|o| o.kind_name() == "this"),
            "identifier" => {
                let name = self.text(held);
                // The local's declarator: `Some(initializer)`; `None` for a field.
                let local = super::queues::enclosing_body(held)
                    .and_then(|body| self.local_declarator(body, name, false))
                    .map(|d| d.field("value"));
                match local {
                    Some(Some(value)) => self.constant_lookup(value),
                    Some(None) => false,
                    None => self.field(name).is_some(),
                }
            }
            _ => false,
        }
    }

    /// A method call whose arguments are all constants: literals, `UPPER_CASE` names
    /// (also cast: `(DistributedRegion) cache.getRegion(ROOT, true)`).
    fn constant_lookup(&self, value: Node) -> bool {
        let value = super::syntax::uncast(value);
        if value.kind_name() != "method_invocation" {
            return false;
        }
        let Some(args) = value.field("arguments") else {
            return false;
        };
        let mut c = args.walk();
        let constants = args.named_children(&mut c).all(|a| {
            let name = match a.kind_name() {
                "identifier" => self.text(a),
                "field_access" => a.field("field").map_or("", |f| self.text(f)),
                "true" | "false" => return true,
                k => return k.ends_with("literal") && k != "null_literal",
            };
            !name.is_empty()
                && name
                    .chars()
                    .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '_')
        });
        constants
    }

    /// `f.isDone() && f.get()` and `!f.isDone() || f.get()`: the right side runs only
    /// when the left proves `f` done.
    pub(super) fn short_circuit(&mut self, node: Node<'a>) {
        let op = node.field("operator").map_or("", |o| self.text(o));
        let (Some(left), Some(right), true) = (
            node.field("left"),
            node.field("right"),
            op == "&&" || op == "||",
        ) else {
            return self.children(node);
        };
        self.walk(left);
        let (done, not_done) = self.done_checks(left);
        let proven = if op == "&&" { done } else { not_done };
        self.scopes.push();
        for name in &proven {
            self.mark_complete_local(name);
        }
        self.walk(right);
        self.scopes.pop();
    }

    /// `while (!f.isDone()) Thread.sleep(100);`: polling until a future is done is an
    /// untimed wait on it. Only the bare condition counts: one that also tests a
    /// deadline or a flag bounds the loop. Returns the polled variable.
    pub(super) fn poll_wait(&mut self, node: Node) -> Option<String> {
        let (cond, body) = (node.field("condition")?, node.field("body")?);
        let (_, not_done) = self.done_checks(cond);
        let [name] = not_done.as_slice() else {
            return None;
        };
        let bare: String = self
            .text(cond)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let bare = bare
            .strip_prefix('(')
            .and_then(|b| b.strip_suffix(')'))
            .unwrap_or(&bare);
        let checks = &self.catalog.data.futures.done_checks;
        let check = checks.iter().find(|c| bare == format!("!{name}.{c}()"))?;
        // `Thread.sleep`, a `sleepQuietly` helper, `LockSupport.parkNanos`, a spin.
        let pauses = ["sleep", "Sleep", "park", "onSpinWait"];
        if !pauses.iter().any(|p| self.text(body).contains(p)) {
            return None; // a loop doing work while it waits, not a poll
        }
        let what = format!("`while (!{name}.{check}())`");
        let v = self.lookup(name).unwrap_or_default();
        if v.complete || v.bounded || self.bounded_type(&v) {
            return None;
        }
        let idx = self.push_wait(
            super::syntax::span(cond),
            what,
            &crate::catalog::WaitCatalogKind::Result,
            false,
            v.origin.first().copied(),
            format!("poll with a deadline, or wait with `{name}.get(timeout, unit)` and handle the timeout"),
        );
        for &o in &v.origin {
            self.facts.submissions[o].waited.get_or_insert(idx);
        }
        Some(name.clone())
    }

    /// Whether code at `node` runs only when a guard lets one caller through: inside
    /// `if (busy.compareAndSet(false, true)) { .. }`, or after `if (!lock.tryLock())
    /// return;` in an enclosing block (catalog `guard_methods`), or past an admission
    /// check that leaves (`if (queue.size() >= max) throw ..;`, also inside a
    /// `synchronized` block before it).
    pub(super) fn admits_one(&self, node: Node) -> bool {
        let mut child = node;
        while let Some(parent) = child.parent() {
            match parent.kind_name() {
                "if_statement" => {
                    let in_then = parent.field("consequence") == Some(child);
                    if in_then
                        && parent
                            .field("condition")
                            .is_some_and(|c| self.calls_guard(c))
                    {
                        return true;
                    }
                }
                "block" | "constructor_body" => {
                    let mut prev = child.prev_named_sibling();
                    while let Some(p) = prev {
                        if self.exits_unless_admitted(p) {
                            return true;
                        }
                        // `synchronized (queue) { if (queue.size() >= max) throw ..; .. }`
                        let locked = (p.kind_name() == "synchronized_statement")
                            .then(|| p.field("body"))
                            .flatten();
                        if let Some(body) = locked {
                            let mut c = body.walk();
                            let stmts: Vec<Node> = body.named_children(&mut c).collect();
                            if stmts.iter().any(|s| self.exits_unless_admitted(*s)) {
                                return true;
                            }
                        }
                        prev = p.prev_named_sibling();
                    }
                }
                "method_declaration"
                | "constructor_declaration"
                | "lambda_expression"
                | "class_body" => return false,
                _ => {}
            }
            child = parent;
        }
        false
    }

    /// A field of this class declared as a set (`Set<Long> scheduled`, a `KeySetView`).
    fn set_field(&self, o: Node) -> bool {
        let t = self.text(o);
        let name = t.strip_prefix("this.").unwrap_or(t);
        self.is_field_ref(o)
            && self
                .field(name)
                .and_then(|f| f.ty.as_ref())
                .is_some_and(|ty| ty.simple.ends_with("Set") || ty.simple.ends_with("SetView"))
    }

    /// Whether this class's method `name` is `return <guard call>;`.
    fn returns_guard(&self, name: &str, depth: usize) -> bool {
        let found = self.own_methods(name).into_iter().next();
        let Some(block) = found.and_then(|m| m.field("body")) else {
            return false;
        };
        let mut c = block.walk();
        let stmts: Vec<Node> = block.named_children(&mut c).collect();
        match stmts.as_slice() {
            [ret] if ret.kind_name() == "return_statement" => ret
                .named_child(0)
                .is_some_and(|e| self.calls_guard_in(e, depth + 1)),
            _ => false,
        }
    }

    /// `next.cancel(false); next = scheduler.schedule(..);`: the task replaces the one
    /// the method cancelled first, so one is pending at a time.
    pub(super) fn replaces_pending(&self, call: Node) -> bool {
        let Some(assign) = call
            .parent()
            .filter(|p| p.kind_name() == "assignment_expression" && p.field("right") == Some(call))
        else {
            return false;
        };
        let Some(target) = assign.field("left").map(|l| self.text(l)) else {
            return false;
        };
        let target = target.strip_prefix("this.").unwrap_or(target);
        let mut body = assign;
        while let Some(p) = body.parent() {
            body = p;
            if matches!(p.kind_name(), "method_declaration" | "lambda_expression") {
                break;
            }
        }
        let before = &self.src[body.start_byte()..assign.start_byte()];
        before.contains(&format!("{target}.cancel("))
    }

    /// `if (<guard or capacity check>) return;` (or `throw`).
    fn exits_unless_admitted(&self, stmt: Node) -> bool {
        stmt.kind_name() == "if_statement"
            && stmt.field("consequence").is_some_and(exits)
            && stmt
                .field("condition")
                .is_some_and(|c| self.calls_guard(c) || self.capacity_check(c))
    }

    /// A comparison `>`/`>=` of a count (`queue.size()`, `pending.incrementAndGet()`,
    /// or a local assigned one) against a limit.
    fn capacity_check(&self, cond: Node) -> bool {
        const COUNTS: [&str; 5] = ["size", "incrementAndGet", "getAndIncrement", "get", "sum"];
        let counts = |n: Node| {
            any_node(n, |x| {
                x.kind_name() == "method_invocation"
                    && x.field("name")
                        .is_some_and(|m| COUNTS.contains(&self.text(m)))
            })
        };
        any_node(cond, |n| {
            let op = n.field("operator").map(|o| self.text(o)).unwrap_or("");
            let left = n
                .field("left")
                .filter(|_| n.kind_name() == "binary_expression");
            matches!(op, ">" | ">=")
                && left.is_some_and(|left| {
                    counts(left)
                        || (left.kind_name() == "identifier"
                            && self.local_initializer(left).is_some_and(counts))
                })
        })
    }

    /// Whether an expression calls a guard method (`compareAndSet`, `tryLock`), adds to
    /// a set field (`scheduled.add(id)`: once per key), or calls a method of this class
    /// that returns such a call (`if (markScheduled(id)) pool.submit(..)`).
    fn calls_guard(&self, cond: Node) -> bool {
        self.calls_guard_in(cond, 0)
    }

    fn calls_guard_in(&self, cond: Node, depth: usize) -> bool {
        let guards = &self.catalog.data.guard_methods;
        any_node(cond, |n| {
            // `running.getAndIncrement() < max`: a counter admits at most `max` at once.
            if n.kind_name() == "binary_expression" {
                let below = n
                    .child_by_field_name("operator")
                    .is_some_and(|o| matches!(o.kind(), "<" | "<="));
                let counted = n.field("left").is_some_and(|l| {
                    l.kind_name() == "method_invocation"
                        && l.field("name").is_some_and(|m| {
                            matches!(self.text(m), "getAndIncrement" | "incrementAndGet")
                        })
                });
                return below && counted;
            }
            if n.kind_name() != "method_invocation" {
                return false;
            }
            let name = n.field("name").map(|m| self.text(m)).unwrap_or("");
            let object = n.field("object");
            guards.iter().any(|g| g == name)
                || (name == "add" && object.is_some_and(|o| self.set_field(o)))
                || (object.is_none() && depth < 2 && self.returns_guard(name, depth))
        })
    }

    /// Whether `node` (a wait) sits in a branch of an `if` or `?:` of its method
    /// whose branches are a timed and an untimed twin of one wait (`timed_twin`).
    pub(super) fn in_timed_twin(&self, node: Node) -> bool {
        let mut child = node;
        while let Some(p) = child.parent() {
            match p.kind_name() {
                "method_declaration"
                | "constructor_declaration"
                | "class_body"
                | "interface_body"
                | "enum_body"
                | "record_declaration"
                | "program" => return false,
                "if_statement" | "ternary_expression"
                    if p.field("condition").is_none_or(|c| c.id() != child.id())
                        && self.timed_twin(p) =>
                {
                    return true
                }
                _ => {}
            }
            child = p;
        }
        false
    }

    /// `if (millis != null) lock.wait(millis); else lock.wait();`: a branch between
    /// the timed and untimed form of one wait is the caller's choice of bound (an
    /// API's untimed overload), not a missing one.
    fn timed_twin(&self, node: Node) -> bool {
        let (Some(then), Some(alt), Some(cond)) = (
            node.field("consequence"),
            node.field("alternative"),
            node.field("condition"),
        ) else {
            return false;
        };
        // The condition tests the bound the timed form is given (`if (millis != null)
        // wait(millis)`): a constant bound in one branch (`if (fast) get(50, ..)`) is
        // not the caller's choice.
        let idents = |n: Node| {
            let mut out: Vec<&str> = Vec::new();
            let mut stack = vec![n];
            while let Some(x) = stack.pop() {
                if x.kind_name() == "identifier" {
                    out.push(self.text(x));
                }
                let mut c = x.walk();
                stack.extend(x.named_children(&mut c));
            }
            out
        };
        let tested = idents(cond);
        let waits = |branch: Node| {
            let mut out: Vec<(&str, bool, bool)> = Vec::new();
            let mut stack = vec![branch];
            while let Some(n) = stack.pop() {
                if matches!(n.kind_name(), "lambda_expression" | "class_body") {
                    continue;
                }
                if n.kind_name() == "method_invocation" {
                    let name = n.field("name").map_or("", |m| self.text(m));
                    if self.catalog.waits_named(name).next().is_some() {
                        let args = n.field("arguments");
                        let timed = args.is_some_and(|a| a.named_child_count() > 0);
                        let bound_tested =
                            args.is_some_and(|a| idents(a).iter().any(|i| tested.contains(i)));
                        out.push((name, timed, bound_tested));
                    }
                }
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
            out
        };
        let (a, b) = (waits(then), waits(alt));
        let twin = |x: &[(&str, bool, bool)], y: &[(&str, bool, bool)]| {
            x.iter().any(|&(n, timed, tested)| {
                timed && tested && y.iter().any(|&(m, t, _)| n == m && !t)
            })
        };
        twin(&a, &b) || twin(&b, &a)
    }

    /// A loop that runs until the program stops it: no condition, `true`, a flag
    /// (`running`, `!closed`, `this.running`) or a lifecycle check
    /// (`!Thread.currentThread().isInterrupted()`, `isRunning()`).
    pub(super) fn forever(&self, node: Node) -> bool {
        match node.field("condition") {
            Some(cond) => self.lifecycle_test(cond),
            None => node.kind_name() == "for_statement",
        }
    }

    /// Whether a loop condition only tests the component's lifecycle (`true`,
    /// `running`, `!isStopped()`, `state == STARTED`), so the loop runs until stopped.
    fn lifecycle_test(&self, cond: Node) -> bool {
        let mut cond = super::syntax::unparen(cond);
        if cond.kind_name() == "parenthesized_expression" {
            return false; // `()`
        }
        if cond.kind_name() == "unary_expression"
            && cond.field("operator").is_some_and(|o| self.text(o) == "!")
        {
            match cond.field("operand") {
                Some(c) => cond = c,
                None => return false,
            }
        }
        let lifecycle = |n: Node| crate::lang::names_lifecycle(self.text(n));
        match cond.kind_name() {
            "true" => true,
            "binary_expression" => {
                let op = cond.field("operator").map_or("", |o| self.text(o));
                let sides = [cond.field("left"), cond.field("right")];
                match op {
                    // `state.get() == State.STARTED`
                    "==" | "!=" => sides.into_iter().flatten().any(lifecycle),
                    // `!pool.isShutdown() && !pool.isTerminated()`: every part a lifecycle test
                    "&&" | "||" => sides
                        .into_iter()
                        .all(|s| s.is_some_and(|s| self.lifecycle_test(s))),
                    _ => false,
                }
            }
            "identifier" => lifecycle(cond),
            "field_access" => cond.field("field").is_some_and(lifecycle),
            // `isRunning()`, `running.get()`, `state.isStarted()`
            "method_invocation" => {
                cond.field("name").is_some_and(lifecycle)
                    || cond.field("object").is_some_and(|o| {
                        matches!(o.kind_name(), "identifier" | "field_access") && lifecycle(o)
                    })
            }
            _ => false,
        }
    }

    /// Whether a condition tests a timeout or deadline value.
    fn mentions_timeout(&self, cond: Node) -> bool {
        let words = &self.catalog.data.futures.timeout_words;
        let text = self.text(cond).as_bytes();
        words.iter().any(|w| {
            text.windows(w.len())
                .any(|win| win.eq_ignore_ascii_case(w.as_bytes()))
        })
    }

    /// Whether a variable is declared as a blocking queue.
    fn blocking_queue(&self, name: &str) -> bool {
        let v = self.lookup(name).unwrap_or_default();
        let fq = v.ty.as_ref().and_then(|t| t.fq());
        fq.is_some_and(|t| self.catalog.in_group("blocking_queue", t))
    }

    /// Variables a condition proves done (`f.isDone()`, `!q.isEmpty()`) or not done
    /// (`!f.isDone()`, `q.isEmpty()`).
    pub(super) fn done_checks(&self, cond: Node) -> (Vec<String>, Vec<String>) {
        self.done_checks_in(cond, true)
    }

    /// `done_checks`, following a boolean helper of this class (`resultAvailable(f)`)
    /// when `helpers` is set.
    fn done_checks_in(&self, cond: Node, helpers: bool) -> (Vec<String>, Vec<String>) {
        let checks = &self.catalog.data.futures.done_checks;
        let empty = &self.catalog.data.futures.empty_checks;
        let mut done = Vec::new();
        let mut not_done = Vec::new();
        let mut stack = vec![(cond, false)];
        while let Some((n, negated)) = stack.pop() {
            match n.kind_name() {
                "parenthesized_expression" => {
                    if let Some(c) = n.named_child(0) {
                        stack.push((c, negated));
                    }
                }
                "unary_expression" if n.field("operator").is_some_and(|o| self.text(o) == "!") => {
                    if let Some(c) = n.field("operand") {
                        stack.push((c, !negated));
                    }
                }
                "binary_expression"
                    if n.field("operator").is_some_and(|o| self.text(o) == "&&") && !negated =>
                {
                    stack.extend(n.field("left").map(|c| (c, false)));
                    stack.extend(n.field("right").map(|c| (c, false)));
                }
                "method_invocation" => {
                    let method = n.field("name").map_or("", |m| self.text(m));
                    let is_check = checks.iter().any(|c| c == method);
                    // `!q.isEmpty()` proves `q` holds an element, as `f.isDone()` does `f`.
                    let is_empty = empty.iter().any(|c| c == method);
                    if let (true, Some(obj)) = (is_check || is_empty, n.field("object")) {
                        let name = self.text(obj).trim_start_matches("this.").to_string();
                        // Only a blocking queue: an empty list of futures proves nothing
                        // of the futures it holds.
                        if is_empty && !self.blocking_queue(&name) {
                            continue;
                        }
                        if negated != is_empty {
                            not_done.push(name)
                        } else {
                            done.push(name)
                        }
                    } else if helpers && !negated && !is_check && !is_empty {
                        done.extend(self.helper_done(n));
                    }
                }
                _ => {}
            }
        }
        (done, not_done)
    }

    /// The arguments a boolean helper of this class proves done when it returns
    /// true: `resultAvailable(f)` whose body is `return f != null && f.isDone();` or
    /// `if (f.isDone() && !f.isCancelled()) { return true; } return false;`.
    fn helper_done(&self, call: Node) -> Vec<String> {
        let own = call.field("object").is_none_or(|o| o.kind_name() == "this");
        let Some(name) = call.field("name").filter(|_| own) else {
            return Vec::new();
        };
        let name = self.text(name);
        if !self.names.declares_method(name) {
            return Vec::new();
        }
        let given = super::syntax::call_args(call);
        if !given.iter().any(|a| a.kind_name() == "identifier") {
            return Vec::new();
        }
        let methods = self.own_methods(name);
        let [m] = methods.as_slice() else {
            return Vec::new();
        };
        let boolean = m
            .field("type")
            .is_some_and(|t| t.kind_name() == "boolean_type");
        let params = super::syntax::formal_params(*m);
        let Some(body) = m
            .field("body")
            .filter(|_| boolean && params.len() == given.len())
        else {
            return Vec::new();
        };
        let returns = returns_of(body);
        params
            .iter()
            .zip(&given)
            .filter(|(p, a)| {
                a.kind_name() == "identifier"
                    && p.field("name")
                        .is_some_and(|p| self.returns_done(&returns, self.text(p)))
            })
            .map(|(_, a)| self.text(*a).to_string())
            .collect()
    }

    /// Whether every `return` of a boolean method that may return true proves `param`
    /// done: its expression does, or, for `return true;`, an `if` around it.
    fn returns_done(&self, returns: &[Node], param: &str) -> bool {
        let proves = |cond: Node| {
            self.done_checks_in(cond, false)
                .0
                .iter()
                .any(|d| d == param)
        };
        let mut any = false;
        for r in returns {
            let Some(e) = r.named_child(0) else {
                return false;
            };
            let proven = match e.kind_name() {
                "false" => continue,
                "true" => guards(*r).into_iter().any(proves),
                _ => proves(e),
            };
            if !proven {
                return false;
            }
            any = true;
        }
        any
    }

    /// Whether the code at `at` runs only once `var` is proven done by a guard around
    /// it in its method: `if (cond) { .. }`, `cond ? .. : ..`, `cond && ..`.
    pub(super) fn proven_done_at(&self, at: Node, var: &str) -> bool {
        guards(at)
            .into_iter()
            .any(|cond| self.done_checks(cond).0.iter().any(|d| d == var))
    }

    /// `task.run()` runs a `FutureTask` to its end on this thread, and after
    /// `f.cancel(..)` the future is settled whatever it returned: a later `get()` on
    /// it does not wait.
    pub(super) fn settles(&mut self, name: &str, recv: &super::types::Value, arity: usize) {
        let settling = matches!((name, arity), ("run", 0) | ("cancel", 1));
        let future = recv
            .ty
            .as_ref()
            .and_then(|t| t.fq())
            .is_some_and(|t| self.catalog.in_group("future", t));
        if let (true, true, Some(root)) = (settling, future, &recv.root) {
            let root = root.clone();
            self.mark_complete(&root);
        }
    }

    /// Mark a variable complete for the rest of its scope (a wait on it returned).
    pub(super) fn mark_complete(&mut self, name: &str) {
        // Shadow it in the innermost scope: known complete until this block ends
        // (a wait in one `if` branch says nothing about the other).
        self.mark_complete_local(name.trim_start_matches("this."));
    }

    /// Mark a variable complete in the innermost scope only (a guarded branch).
    fn mark_complete_local(&mut self, name: &str) {
        let mut value = self.lookup(name).unwrap_or_default();
        value.complete = true;
        self.scopes.declare(name, value);
        self.completed_log
            .push((name.to_string(), self.scopes.depth()));
    }

    /// `try { if (f.get(4, SECONDS) == null) continue; } catch (TimeoutException e) {
    /// ..; continue; }`: when every catch leaves, what the try block's own statements
    /// waited for is complete after it too.
    pub(super) fn try_statement(&mut self, node: Node<'a>) {
        let body = node.field("body");
        let start = self.completed_log.len();
        let depth = self.scopes.depth() + 1;
        if let Some(b) = body {
            self.walk(b);
        }
        let waited: Vec<String> = self.completed_log[start..]
            .iter()
            .filter(|(_, d)| *d == depth)
            .map(|(n, _)| n.clone())
            .collect();
        let mut c = node.walk();
        let rest: Vec<Node> = node
            .named_children(&mut c)
            .filter(|n| Some(*n) != body)
            .collect();
        for n in &rest {
            self.walk(*n);
        }
        // A catch of what only a completed (or interrupted) wait throws does not undo it:
        // `try { allOf(a, b).get(); } catch (ExecutionException e) { log(e); }`.
        let catches_leave = rest
            .iter()
            .filter(|n| n.kind_name() == "catch_clause")
            .all(|cc| cc.field("body").is_some_and(leaves) || self.catches_only_completion(*cc));
        if catches_leave {
            for name in waited {
                self.mark_complete(&name);
            }
        }
    }
}

impl<'a> Extractor<'a> {
    /// Whether a catch clause catches only exceptions a wait throws once the future
    /// completed (or the thread was interrupted), not `TimeoutException`.
    fn catches_only_completion(&self, clause: Node) -> bool {
        let mut c = clause.walk();
        let param = clause
            .named_children(&mut c)
            .find(|n| n.kind_name() == "catch_formal_parameter");
        let mut c2 = clause.walk();
        let types = param.and_then(|p| {
            p.named_children(&mut c2)
                .find(|n| n.kind_name() == "catch_type")
        });
        let Some(types) = types else {
            return false;
        };
        let mut c = types.walk();
        let names: Vec<&str> = types
            .named_children(&mut c)
            .map(|t| self.text(t).rsplit('.').next().unwrap_or(""))
            .collect();
        !names.is_empty()
            && names.iter().all(|n| {
                matches!(
                    *n,
                    "ExecutionException"
                        | "InterruptedException"
                        | "CompletionException"
                        | "CancellationException"
                )
            })
    }

    /// `awaitAllOf(a, b);` calling this class's `void awaitAllOf(CompletableFuture<?>..
    /// fs) { allOf(fs).join(); }`: the futures given are complete after the call, as
    /// after a wait on them here.
    pub(super) fn helper_completes(&mut self, name: &str, args: &[Node<'a>]) {
        let futures: Vec<(usize, String)> = args
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                let v = self.value_of(*a);
                let ty = v.ty.as_ref()?;
                let future =
                    |t: Option<&str>| t.is_some_and(|t| self.catalog.in_group("future", t));
                (future(ty.fq()) || future(ty.element().and_then(|e| e.fq())))
                    .then_some((i, v.root?))
            })
            .collect();
        if futures.is_empty() {
            return;
        }
        let Some(done) = self
            .own_methods(name)
            .into_iter()
            .find_map(|m| self.waited_params(m, args.len()))
        else {
            return;
        };
        for (i, root) in futures {
            if done.iter().any(|&(p, rest)| p == i || rest && i >= p) {
                self.mark_complete(&root);
            }
        }
    }

    /// `checkReply(version, submitted)` calling this class's `boolean checkReply(long v,
    /// Future<Reply> f) { .. f.get(3, SECONDS) .. }`: the submissions whose future is
    /// given are waited for there (timed or not), as if here: a `CallerRunsPolicy`
    /// pool runs the task on this thread before that wait starts.
    pub(super) fn helper_waits(&mut self, name: &str, args: &[Node<'a>]) {
        let given: Vec<(usize, Vec<usize>)> = args
            .iter()
            .enumerate()
            .filter(|(_, a)| a.kind_name() == "identifier")
            .filter_map(|(i, a)| {
                let origin = self.lookup(self.text(*a))?.origin;
                (!origin.is_empty()).then_some((i, origin))
            })
            .collect();
        if given.is_empty() {
            return;
        }
        let methods = self.own_methods(name);
        let [method] = methods[..] else {
            return; // overloads: which one runs is not guessed
        };
        let waits = self.param_waits(method, args.len());
        for w in waits.iter().filter(|w| w.direct && !w.rest) {
            for (_, origin) in given.iter().filter(|(a, _)| *a == w.index) {
                for &o in origin {
                    let s = &mut self.facts.submissions[o];
                    if s.waited.is_none() {
                        s.waited_at.get_or_insert(w.span);
                    }
                }
            }
        }
    }

    /// The parameters a method waits for with an untimed `join()`/`get()`, directly or
    /// through `allOf(..)`: `(index, whether it is the varargs parameter)`.
    fn waited_params(&self, method: Node, arity: usize) -> Option<Vec<(usize, bool)>> {
        let found: Vec<(usize, bool)> = self
            .param_waits(method, arity)
            .into_iter()
            .filter(|w| w.untimed)
            .map(|w| (w.index, w.rest))
            .collect();
        (!found.is_empty()).then_some(found)
    }

    /// The `join()`/`get(..)` waits of a method (called with `arity` arguments) on its
    /// parameters: on one directly, or, untimed, on the members of `allOf(a, b)`.
    fn param_waits(&self, method: Node, arity: usize) -> Vec<ParamWait> {
        let mut found = Vec::new();
        let Some(params) = method.field("parameters") else {
            return found;
        };
        let mut c = params.walk();
        let ps: Vec<(&str, bool)> = params
            .named_children(&mut c)
            .filter_map(|p| match p.kind_name() {
                "formal_parameter" => p.field("name").map(|n| (self.text(n), false)),
                "spread_parameter" => {
                    let mut c2 = p.walk();
                    let last = p.named_children(&mut c2).last();
                    last.map(|n| (self.text(n), true))
                }
                _ => None,
            })
            .collect();
        let varargs = ps.last().is_some_and(|p| p.1);
        if ps.len() != arity && !(varargs && arity + 1 >= ps.len()) {
            return found;
        }
        let Some(body) = method.field("body") else {
            return found;
        };
        let index = |n: Node| {
            (n.kind_name() == "identifier")
                .then(|| ps.iter().position(|p| p.0 == self.text(n)))
                .flatten()
        };
        for n in super::syntax::own_invocations(body) {
            let wait = n
                .field("name")
                .is_some_and(|m| matches!(self.text(m), "join" | "get"));
            let (true, Some(o)) = (wait, n.field("object")) else {
                continue;
            };
            let untimed = n
                .field("arguments")
                .is_some_and(|a| a.named_child_count() == 0);
            let span = self.wait_span(n);
            let wait_on = |index: usize, direct| ParamWait {
                index,
                rest: ps[index].1,
                untimed,
                direct,
                span,
            };
            found.extend(index(o).map(|i| wait_on(i, true)));
            let all_of = o.kind_name() == "method_invocation"
                && o.field("name").is_some_and(|m| self.text(m) == "allOf");
            if let (true, true, Some(a)) = (untimed, all_of, o.field("arguments")) {
                let mut c = a.walk();
                let members: Vec<usize> = a.named_children(&mut c).filter_map(index).collect();
                found.extend(members.into_iter().map(|i| wait_on(i, false)));
            }
        }
        found
    }
}

/// A wait in a method's body on one of its parameters ([`Extractor::param_waits`]).
struct ParamWait {
    index: usize,
    /// The parameter is the varargs one.
    rest: bool,
    untimed: bool,
    /// On the parameter itself, not on an `allOf(..)` of it.
    direct: bool,
    span: Span,
}

/// Whether a statement always leaves the enclosing block or loop iteration.
fn leaves(stmt: Node) -> bool {
    ends_with(
        stmt,
        &[
            "return_statement",
            "throw_statement",
            "continue_statement",
            "break_statement",
        ],
    )
}

/// Whether a statement always leaves the enclosing block (`return`, `throw`).
/// Whether an `if` is a lazy initialization, and what of it runs once.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lazy {
    No,
    Then,
    Rest,
}

fn exits(stmt: Node) -> bool {
    ends_with(stmt, &["return_statement", "throw_statement"])
}

/// Whether a statement is, or a block ends with, one of these kinds.
fn ends_with(stmt: Node, kinds: &[&str]) -> bool {
    match stmt.kind_name() {
        "block" => {
            let mut c = stmt.walk();
            let last = stmt.named_children(&mut c).last();
            last.is_some_and(|s| ends_with(s, kinds))
        }
        k => kinds.contains(&k),
    }
}

/// Every value `var` is given in `block` (its initializer and assignments, outside
/// lambdas and inner classes), when each is a method call; none otherwise.
fn assigned_calls<'t>(var: &str, block: Node<'t>, src: &str) -> Vec<Node<'t>> {
    let mut found = Vec::new();
    let mut stack = vec![block];
    while let Some(n) = stack.pop() {
        let value = match n.kind_name() {
            "variable_declarator"
                if n.field("name")
                    .is_some_and(|x| super::syntax::text(x, src) == var) =>
            {
                match n.field("value") {
                    Some(v) => Some(v),
                    None => continue, // `final Single<T> result;`, assigned below
                }
            }
            "assignment_expression"
                if n.field("left")
                    .is_some_and(|l| super::syntax::text(l, src) == var) =>
            {
                n.field("right")
            }
            "lambda_expression" | "class_body" => continue,
            _ => {
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
                continue;
            }
        };
        match value.filter(|v| v.kind_name() == "method_invocation") {
            Some(v) => found.push(v),
            None => return Vec::new(),
        }
    }
    found
}

/// What a reactive operator (RxJava, Reactor) does to the source's bound.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PublisherStep {
    /// Runs on the thread the source signals on (`map`, `doOnError`), or completes at
    /// once (`Single.just(v)`, `Mono.fromCallable(f)` run by the subscriber).
    Inline,
    /// `timeout(..)`: fails the source at a deadline.
    Bounded,
    /// `subscribeOn`/`observeOn`/`publishOn`, or a source whose work is elsewhere
    /// (`Single.fromFuture(f)`, `Mono.defer(..)`): unknown, maybe pool work.
    Hop,
}

/// Operators whose lambdas return the publisher that follows.
const FLAT_MAPS: [&str; 8] = [
    "flatMap",
    "concatMap",
    "switchMap",
    "flatMapMany",
    "flatMapSingle",
    "flatMapMaybe",
    "flatMapCompletable",
    "flatMapObservable",
];

/// `name` called on `object` (its text), as a reactive operator or source factory.
fn publisher_step(name: &str, object: Option<&str>) -> Option<PublisherStep> {
    let object = object?; // (an own method, `retry(3, ..)`, is no operator)
    const TYPES: [&str; 7] = [
        "Single",
        "Maybe",
        "Completable",
        "Observable",
        "Flowable",
        "Mono",
        "Flux",
    ];
    if TYPES.contains(&object) {
        let inline = matches!(
            name,
            "just"
                | "justOrEmpty"
                | "empty"
                | "error"
                | "complete"
                | "fromCallable"
                | "fromSupplier"
                | "fromRunnable"
                | "fromAction"
        );
        return Some(if inline {
            PublisherStep::Inline
        } else {
            PublisherStep::Hop
        });
    }
    match name {
        "timeout" => Some(PublisherStep::Bounded),
        "subscribeOn" | "observeOn" | "publishOn" | "delay" | "delaySubscription" | "retry"
        | "retryWhen" | "repeat" | "repeatWhen" => Some(PublisherStep::Hop),
        "map" | "filter" | "cast" | "doOnSuccess" | "doOnError" | "doOnNext" | "doOnComplete"
        | "doOnSubscribe" | "doOnTerminate" | "doFinally" | "doAfterTerminate" | "doOnEach"
        | "onErrorReturn" | "onErrorReturnItem" | "onErrorResumeNext" | "onErrorResume"
        | "onErrorMap" | "onErrorComplete" | "defaultIfEmpty" | "ignoreElement"
        | "ignoreElements" | "toSingle" | "toMaybe" | "toCompletable" | "toObservable"
        | "toFlowable" | "collectList" | "toList" | "firstOrError" | "singleOrError"
        | "lastOrError" | "thenReturn" | "hasElement" | "hasElements" => {
            Some(PublisherStep::Inline)
        }
        n if FLAT_MAPS.contains(&n) => Some(PublisherStep::Inline),
        _ => None,
    }
}

/// Continuations that keep a promise's bound (`executeCommand(r).thenApply(parse)`).
const CONTINUATIONS: [&str; 9] = [
    "toCompletableFuture",
    "thenApply",
    "thenCompose",
    "thenAccept",
    "thenRun",
    "handle",
    "whenComplete",
    "exceptionally",
    "thenCombine",
];

/// The words that name an I/O callback type (`FutureCallback`, `ChannelFutureListener`,
/// `StreamObserver`, `CompletionHandler`).
const CALLBACK_WORDS: [&str; 4] = ["Callback", "Listener", "Observer", "Handler"];

/// Methods that register a lambda to run when asynchronous I/O ends (Vert.x and
/// Netty futures and streams): a promise completed there waits for that I/O.
const IO_CALLBACKS: [&str; 8] = [
    "onSuccess",
    "onFailure",
    "onComplete",
    "handler",
    "bodyHandler",
    "endHandler",
    "exceptionHandler",
    "addListener",
];

/// Whether a lambda is the argument of an [`IO_CALLBACKS`] call.
fn io_callback_argument(lambda: Node, src: &str) -> bool {
    lambda
        .parent()
        .filter(|p| p.kind_name() == "argument_list")
        .and_then(|args| args.parent())
        .filter(|call| call.kind_name() == "method_invocation")
        .and_then(|call| call.field("name"))
        .is_some_and(|name| IO_CALLBACKS.contains(&&src[name.start_byte()..name.end_byte()]))
}

impl Extractor<'_> {
    /// Whether the method `name` of this class returns a promise that an I/O callback
    /// completes (`f = new CompletableFuture<>(); client.execute(req, new
    /// FutureCallback<>() { .. f.complete(v) .. }); return f;`), directly or through
    /// this class's methods and continuations. Waiting for it waits for that I/O, which
    /// the client's own timeouts bound (`missing_client_timeout` judges the client).
    pub(super) fn callback_promise(&self, name: &str) -> bool {
        self.promise_method(name, &mut Vec::new(), &mut None)
    }

    /// A method declared to return a future whose every `return` is such a promise,
    /// directly, through this class's methods, or as the result of a call on another
    /// object (`return client.setRules(..);`): those calls, by index into the file's
    /// calls, for the project model to check (`FileFacts::promise_methods`).
    pub(super) fn promise_summary(&self, method: Node) -> Option<Vec<u32>> {
        let block = method.field("body")?;
        let returns = returns_of(block);
        if returns.is_empty() {
            return None;
        }
        let mut foreign = Some(Vec::new());
        let all = returns.iter().all(|r| {
            r.named_child(0)
                .is_some_and(|e| self.promise_expr(e, block, &mut Vec::new(), &mut foreign))
        });
        all.then_some(foreign).flatten()
    }

    /// `visiting`: the methods being checked up the chain, assumed to return such a
    /// promise (overloads that delegate to each other). `foreign`: where to list
    /// returned calls on other objects (none: such a call is no promise).
    fn promise_method(
        &self,
        name: &str,
        visiting: &mut Vec<String>,
        foreign: &mut Option<Vec<u32>>,
    ) -> bool {
        if visiting.iter().any(|v| v == name) {
            return true;
        }
        if visiting.len() > 4 {
            return false;
        }
        visiting.push(name.to_string());
        let methods = self.own_methods(name);
        let all = !methods.is_empty()
            && methods.iter().all(|m| {
                let Some(block) = m.field("body") else {
                    return false;
                };
                let returns = returns_of(block);
                !returns.is_empty()
                    && returns.iter().all(|r| {
                        r.named_child(0)
                            .is_some_and(|e| self.promise_expr(e, block, visiting, foreign))
                    })
            });
        visiting.pop();
        all
    }

    pub(super) fn promise_expr(
        &self,
        mut e: Node,
        block: Node,
        visiting: &mut Vec<String>,
        foreign: &mut Option<Vec<u32>>,
    ) -> bool {
        loop {
            match e.kind_name() {
                "parenthesized_expression" => match e.named_child(0) {
                    Some(inner) => e = inner,
                    None => return false,
                },
                "method_invocation" => {
                    let name = e.field("name").map(|n| self.text(n)).unwrap_or("");
                    // Its own timer fails it (Guava `Futures.withTimeout(f, ..)`,
                    // `fluent.withTimeout(..)`, `orTimeout(..)`): bounded, whatever `f` is.
                    if matches!(name, "withTimeout" | "orTimeout" | "completeOnTimeout") {
                        return true;
                    }
                    // A reactive source: its operators run where it signals; a timeout
                    // bounds it, a scheduler hop makes it pool work.
                    match publisher_step(name, e.field("object").map(|o| self.text(o))) {
                        Some(PublisherStep::Bounded) => return true,
                        Some(PublisherStep::Hop) => return false,
                        Some(PublisherStep::Inline) => {
                            if FLAT_MAPS.contains(&name)
                                && !self.lambda_args_promise(e, visiting, foreign)
                            {
                                return false;
                            }
                            if let Some(o) = e.field("object") {
                                e = o;
                                continue;
                            }
                            return false;
                        }
                        None => {}
                    }
                    // Guava `Futures.transform(f, fn, executor)`: `f`, then a function.
                    let guava = e.field("object").is_some_and(|o| {
                        matches!(
                            self.text(o),
                            "Futures" | "com.google.common.util.concurrent.Futures"
                        )
                    });
                    if guava && matches!(name, "transform" | "catching") {
                        match e
                            .field("arguments")
                            .and_then(|a| super::syntax::argument(a, 0))
                        {
                            Some(f) => {
                                e = f;
                                continue;
                            }
                            None => return false,
                        }
                    }
                    match e.field("object") {
                        Some(o) if CONTINUATIONS.contains(&name) => e = o,
                        // Complete already: nothing to wait for.
                        Some(o)
                            if self.text(o) == "CompletableFuture"
                                && matches!(
                                    name,
                                    "completedFuture" | "failedFuture" | "completedStage"
                                ) =>
                        {
                            return true
                        }
                        // `load(k).exceptionallyCompose(e -> load(k))`: a promise when the
                        // receiver and the future the lambda returns are.
                        Some(o) if name == "exceptionallyCompose" => {
                            let arg = e
                                .field("arguments")
                                .and_then(|a| super::syntax::argument(a, 0));
                            let lambda = arg.filter(|l| l.kind_name() == "lambda_expression");
                            let body = lambda
                                .and_then(|l| l.field("body"))
                                .filter(|b| b.kind_name() != "block");
                            return match (lambda, body) {
                                (Some(_), Some(b)) => {
                                    self.promise_expr(b, block, visiting, foreign)
                                        && self.promise_expr(o, block, visiting, foreign)
                                }
                                (Some(_), None) => false,
                                // A handler a method builds (`retryOn(Conflict.class, ..)`):
                                // what it composes is unknown, so no I/O promise, but no
                                // pool work the project shows either (`library_waits`).
                                (None, _) => match foreign.as_mut() {
                                    Some(list) => {
                                        list.push(crate::model::calls::LIBRARY_CALL);
                                        self.promise_expr(o, block, visiting, foreign)
                                    }
                                    None => false,
                                },
                            };
                        }
                        // `allOf(a.f(), b.g())`: a promise when every argument is one.
                        Some(o) if self.text(o) == "CompletableFuture" && name == "allOf" => {
                            let Some(args) = e.field("arguments") else {
                                return false;
                            };
                            let mut c = args.walk();
                            let args: Vec<Node> = args.named_children(&mut c).collect();
                            return !args.is_empty()
                                && args
                                    .into_iter()
                                    .all(|a| self.promise_expr(a, block, visiting, foreign));
                        }
                        // A call on an async I/O client: its timeouts bound the future.
                        Some(o) if self.io_client_value(o) => return true,
                        // A chain from a client that waits forever unless configured.
                        Some(_) if self.unbounded_client_chain(e) => return false,
                        Some(o) if self.text(o) != "this" => return self.foreign(e, foreign),
                        // `return known(v);`, a method of another class imported
                        // statically: the project model checks it, as a call on an object.
                        None if self.own_methods(name).is_empty() => {
                            return self.foreign(e, foreign)
                        }
                        // `retry(3, () -> load(id))`: the lambdas it is handed must
                        // give promises too (a helper may return what they return).
                        _ => {
                            return self.lambda_args_promise(e, visiting, foreign)
                                && self.promise_method(name, visiting, foreign)
                        }
                    }
                }
                "identifier" => {
                    let var = self.text(e);
                    // `f = findAll(..); return transform(f, ..)`: what `f` was given once,
                    // or in each branch (`result = cond ? .. : ..` as `if`/`else`).
                    // (`r = r.map(..)` says nothing new about `r`: its other values decide.)
                    let key = format!("={var}");
                    if visiting.contains(&key) {
                        return true;
                    }
                    let inits = assigned_calls(var, block, self.src);
                    if !inits.is_empty() {
                        visiting.push(key);
                        let all = inits
                            .into_iter()
                            .all(|i| self.promise_expr(i, block, visiting, foreign));
                        visiting.pop();
                        return all;
                    }
                    return self.completed_by_callback(var, block);
                }
                _ => return false,
            }
        }
    }

    /// A variable or field whose type is an async I/O client (`futures.io_clients`).
    /// Only names are typed here: typing a call would check promises again.
    fn io_client_value(&self, object: Node) -> bool {
        matches!(object.kind_name(), "identifier" | "field_access")
            && self
                .value_of(object)
                .fq()
                .is_some_and(|fq| self.catalog.io_client(fq))
    }

    /// A call chain that starts from a variable or field of a client type whose calls
    /// wait forever unless configured (`partner.get().uri(..)` on a `WebClient`).
    fn unbounded_client_chain(&self, mut call: Node) -> bool {
        while call.kind_name() == "method_invocation" {
            match call.field("object") {
                Some(o) => call = o,
                None => return false,
            }
        }
        matches!(call.kind_name(), "identifier" | "field_access")
            && self
                .value_of(call)
                .fq()
                .is_some_and(|fq| self.catalog.unbounded_io_client(fq))
    }

    /// Whether every lambda handed to call `e` with an expression body returns a promise
    /// (a block-bodied one proves nothing: false).
    fn lambda_args_promise(
        &self,
        e: Node,
        visiting: &mut Vec<String>,
        foreign: &mut Option<Vec<u32>>,
    ) -> bool {
        let Some(args) = e.field("arguments") else {
            return true;
        };
        let mut c = args.walk();
        let lambdas: Vec<Node> = args
            .named_children(&mut c)
            .filter(|a| a.kind_name() == "lambda_expression")
            .collect();
        lambdas.into_iter().all(|l| {
            l.field("body").is_some_and(|b| {
                b.kind_name() != "block" && self.promise_expr(b, b, visiting, foreign)
            })
        })
    }

    /// The calls a future in `expr` can come from (`FileFacts::wait_sources`,
    /// `return_sources`): every call written there, lambdas included, and in the values
    /// its locals were given (`f = store.load(id); f.join()`), by index into the file's
    /// calls. `None` when it may be a future the project completes or keeps itself: a
    /// submission there, a new promise, a future-typed field or parameter, a method
    /// reference to another object's method (no call the model can follow).
    pub(super) fn future_sources(&self, expr: Node, body: Node) -> Option<Vec<u32>> {
        let waitable = |v: &super::types::Value| v.fq().is_some_and(|fq| self.catalog.waitable(fq));
        // A collection the project fills (`pending.get(id)`, a map's entry, an
        // `Optional`): what it holds the project put there, from code this expression
        // does not show.
        let holder = |v: &super::types::Value| {
            v.fq().is_some_and(|fq| {
                self.catalog.in_group("collection", fq)
                    || self.catalog.in_group("holder", fq)
                    || fq.starts_with("java.util.") && fq.ends_with("Map")
            })
        };
        let mut out = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        let mut stack = vec![expr];
        let mut budget = 5_000usize;
        while let Some(n) = stack.pop() {
            budget = budget.checked_sub(1)?;
            let key = (n.start_byte(), n.end_byte());
            match n.kind_name() {
                "method_invocation" => {
                    let name = n.field("name").map_or("", |x| self.text(x));
                    // A submission whatever the receiver (`supplyAsync(task, executorOf(n))`,
                    // `thenApplyAsync(f, pool)`), or a scheduler hop (`subscribeOn(io())`).
                    let hop = matches!(publisher_step(name, Some("")), Some(PublisherStep::Hop));
                    if self.submission_at.contains_key(&key)
                        || self.catalog.is_submit_method(name)
                        || hop
                        || self.promise_factory(n, name)
                        || self.unbounded_client_chain(n)
                        || self.catalog_future(n, name)
                    {
                        return None;
                    }
                    if let Some(&c) = self.call_at.get(&key) {
                        out.push(u32::try_from(c).ok()?);
                    }
                    stack.extend(n.field("object"));
                    stack.extend(n.field("arguments"));
                }
                "object_creation_expression" => {
                    let ty = n.field("type").and_then(|t| self.jtype(t));
                    if waitable(&super::types::Value::of(ty)) || n.field("body").is_some() {
                        return None;
                    }
                    stack.extend(n.field("arguments"));
                }
                "method_reference" => {
                    let at = Span::new(n.start_byte(), n.end_byte());
                    match self.facts.calls.iter().rposition(|c| c.span == at) {
                        Some(own) => out.push(u32::try_from(own).ok()?),
                        // `Long::parseLong`, `String::valueOf`: a library's method.
                        None if !self.project_reference(n) => {}
                        None => return None,
                    }
                }
                "identifier" => {
                    let var = self.text(n);
                    if seen.contains(&var) {
                        continue;
                    }
                    seen.push(var);
                    let inits = assigned_calls(var, body, self.src);
                    if !inits.is_empty() {
                        stack.extend(inits);
                    } else {
                        let v = self.value_of(n);
                        if waitable(&v) || holder(&v) || self.declares_future(var, body) {
                            return None;
                        }
                    }
                }
                "field_access" => {
                    let v = self.value_of(n);
                    if waitable(&v) || holder(&v) {
                        return None;
                    }
                    stack.extend(n.field("object"));
                }
                _ => {
                    let mut c = n.walk();
                    stack.extend(n.named_children(&mut c));
                }
            }
        }
        Some(out)
    }

    /// What a method declared to return a future returns can come from: the sources of
    /// every `return` (`FileFacts::return_sources`); none for an abstract method.
    pub(super) fn returned_sources(&self, method: Node) -> Option<Vec<u32>> {
        let block = method.field("body")?;
        let mut out = Vec::new();
        for r in returns_of(block) {
            out.extend(self.future_sources(r.named_child(0)?, block)?);
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// Whether a method reference may name a project class's method: its receiver is a
    /// variable of a type that may be the project's, or such a type (`store::load`,
    /// `Decoder::decode`; not `Long::parseLong`).
    fn project_reference(&self, reference: Node) -> bool {
        let Some(on) = reference.named_child(0) else {
            return true;
        };
        let text = self.text(on);
        let ty = if text.starts_with(char::is_lowercase) {
            self.value_of(on).ty
        } else {
            let fq = self.names.resolve_type(text, &|fq| self.catalog.knows(fq));
            Some(super::types::JType {
                fq,
                simple: text.rsplit('.').next().unwrap_or(text).to_string(),
                args: Vec::new(),
            })
        };
        ty.is_none_or(|t| self.may_be_project_class(&t))
    }

    /// Whether `var` is a local or parameter of the code `body` belongs to whose declared
    /// type names a future or publisher (`Future<T>`, `CompletableFuture<?>[]`,
    /// `List<Future<T>>`, `CompletableFuture<?>... futures`).
    fn declares_future(&self, var: &str, body: Node) -> bool {
        let scope = body.parent().unwrap_or(body);
        any_node(scope, |n| {
            let name = match n.kind_name() {
                "local_variable_declaration" => n.field("declarator").and_then(|d| d.field("name")),
                "formal_parameter" | "catch_formal_parameter" => n.field("name"),
                "spread_parameter" => n
                    .named_children(&mut n.walk())
                    .find(|c| c.kind_name() == "variable_declarator")
                    .and_then(|d| d.field("name")),
                _ => return false,
            };
            name.is_some_and(|x| self.text(x) == var) && self.names_future(n)
        })
    }

    /// Whether a declaration's type (the first type below it) names a future or publisher.
    fn names_future(&self, decl: Node) -> bool {
        let ty = decl.field("type").or_else(|| {
            decl.named_children(&mut decl.walk())
                .find(|c| c.kind_name().ends_with("type") || c.kind_name() == "type_identifier")
        });
        let Some(ty) = ty else { return false };
        self.text(ty)
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .filter(|w| w.starts_with(char::is_uppercase))
            .filter_map(|w| self.names.resolve_type(w, &|fq| self.catalog.knows(fq)))
            .any(|fq| self.catalog.waitable(&fq))
    }

    /// A library call the catalog types as a future nothing bounds (`[[returns]]`:
    /// `upload.completionFuture()`).
    fn catalog_future(&self, call: Node, name: &str) -> bool {
        if !self.catalog.is_return_method(name) {
            return false;
        }
        let on = call.field("object").map(|o| self.value_of(o));
        self.catalog
            .library_future(on.as_ref().and_then(|v| v.fq()), name)
    }

    /// `SettableFuture.create()`: a static factory of a future class that makes a
    /// promise for the project to complete (not `allOf`, `completedFuture`, ..).
    fn promise_factory(&self, call: Node, name: &str) -> bool {
        let Some(on) = call
            .field("object")
            .filter(|o| o.kind_name() == "identifier")
        else {
            return false;
        };
        let text = self.text(on);
        if !text.starts_with(char::is_uppercase) || self.lookup(text).is_some() {
            return false;
        }
        const COMBINATORS: [&str; 6] = [
            "allOf",
            "anyOf",
            "completedFuture",
            "completedStage",
            "failedFuture",
            "failedStage",
        ];
        !COMBINATORS.contains(&name)
            && self
                .names
                .resolve_type(text, &|fq| self.catalog.knows(fq))
                .is_some_and(|fq| self.catalog.in_group("future", &fq))
    }

    /// A returned call on another object: listed for the project model to check
    /// (none when no list is kept, or the call was not recorded: no promise).
    fn foreign(&self, call: Node, foreign: &mut Option<Vec<u32>>) -> bool {
        let key = (call.start_byte(), call.end_byte());
        if self.submission_at.contains_key(&key) {
            return false; // a task handed to a pool: its future is pool work
        }
        let at = self.call_at.get(&key).and_then(|&c| u32::try_from(c).ok());
        match (foreign.as_mut(), at) {
            (Some(list), Some(c)) => {
                list.push(c);
                true
            }
            // Not recorded: a call on a library type (`client.sendAsync(..)`).
            (Some(list), None) => {
                list.push(crate::model::calls::LIBRARY_CALL);
                true
            }
            _ => false,
        }
    }

    /// `v = new CompletableFuture<>()` in `block`, completed inside an anonymous
    /// callback class handed to a call there, or a lambda handed to an I/O callback
    /// registration (`request.onSuccess(r -> .. v.complete(b))`, [`IO_CALLBACKS`]), or
    /// right there (`v.completeExceptionally(new IllegalArgumentException(..)); return
    /// v;`: complete already), and nowhere else (another lambda or a `Runnable` may be
    /// pool work).
    pub(super) fn completed_by_callback(&self, var: &str, block: Node) -> bool {
        let mut created = false;
        let mut completed = false;
        let mut elsewhere = false;
        // Guava's `SettableFuture` completes by `set`/`setException`.
        let completes = [
            format!("{var}.complete("),
            format!("{var}.completeExceptionally("),
            format!("{var}.set("),
            format!("{var}.setException("),
        ];
        let mut stack = vec![block];
        while let Some(n) = stack.pop() {
            match n.kind_name() {
                "variable_declarator" => {
                    let named = n.field("name").is_some_and(|x| self.text(x) == var);
                    let promise = n.field("value").is_some_and(|v| match v.kind_name() {
                        "object_creation_expression" => v
                            .field("type")
                            .is_some_and(|t| self.text(t).starts_with("CompletableFuture")),
                        "method_invocation" => {
                            let t = self.text(v);
                            t.starts_with("SettableFuture.create(")
                                || t.starts_with("SettableApiFuture.create(")
                        }
                        _ => false,
                    });
                    created |= named && promise;
                }
                "object_creation_expression" => {
                    let callback = n.field("type").is_some_and(|t| {
                        let ty = self.text(t);
                        let ty = ty.split('<').next().unwrap_or(ty);
                        CALLBACK_WORDS.iter().any(|w| ty.ends_with(w))
                    });
                    // Handed to a call, or held in a local first (`FutureCallback<R> onReply
                    // = new FutureCallback<>() {..}; client.execute(req, onReply);`).
                    let argument = n.parent().is_some_and(|p| {
                        matches!(p.kind_name(), "argument_list" | "variable_declarator")
                    });
                    let text = self.text(n);
                    if completes.iter().any(|c| text.contains(c.as_str())) {
                        if callback && argument {
                            completed = true;
                        } else {
                            elsewhere = true;
                        }
                    }
                    continue; // an anonymous class's own statements run elsewhere
                }
                "lambda_expression" => {
                    let text = self.text(n);
                    if completes.iter().any(|c| text.contains(c.as_str())) {
                        if io_callback_argument(n, self.src) {
                            completed = true;
                        } else {
                            elsewhere = true;
                        }
                    }
                    continue;
                }
                "method_invocation" => {
                    let on_var = n.field("object").is_some_and(|o| self.text(o) == var);
                    let name = n.field("name").map(|x| self.text(x)).unwrap_or("");
                    completed |= on_var
                        && matches!(
                            name,
                            "complete" | "completeExceptionally" | "set" | "setException"
                        );
                }
                // Handed to another method (`startJob(job, v)`): it may complete it anywhere.
                "identifier" if self.text(n) == var => {
                    elsewhere |= n.parent().is_some_and(|p| p.kind_name() == "argument_list");
                }
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        created && completed && !elsewhere
    }

    /// `ResultFuture r = new ResultFuture(addr); client.sendAsync(addr, req,
    /// responseTimeout, r); return r.get();`: a future made in `block` and handed to a
    /// call together with a timeout, which completes it by that deadline.
    pub(super) fn handed_with_deadline(&self, var: &str, block: Node) -> bool {
        let mut created = false;
        let mut handed = false;
        let mut stack = vec![block];
        while let Some(n) = stack.pop() {
            match n.kind_name() {
                "variable_declarator" => {
                    created |= n.field("name").is_some_and(|x| self.text(x) == var)
                        && n.field("value")
                            .is_some_and(|v| v.kind_name() == "object_creation_expression");
                }
                "argument_list" => {
                    let mut c = n.walk();
                    let args: Vec<Node> = n.named_children(&mut c).collect();
                    let passes = args
                        .iter()
                        .any(|a| a.kind_name() == "identifier" && self.text(*a) == var);
                    handed |= passes
                        && args.iter().any(|a| {
                            matches!(a.kind_name(), "identifier" | "field_access")
                                && self.mentions_timeout(*a)
                        });
                }
                "lambda_expression" | "class_body" => continue,
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        created && handed
    }
}

/// The conditions that must hold for `at` to run, within its method: those of the
/// `if`s and ternaries whose taken branch holds it, and the left sides of `&&`s whose
/// right side does.
fn guards(at: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut child = at;
    while let Some(p) = child.parent() {
        match p.kind_name() {
            "method_declaration"
            | "constructor_declaration"
            | "lambda_expression"
            | "class_body" => break,
            "if_statement" | "ternary_expression"
                if p.field("consequence").is_some_and(|c| c.id() == child.id()) =>
            {
                out.extend(p.field("condition"));
            }
            "binary_expression"
                if p.field("right").is_some_and(|r| r.id() == child.id())
                    && p.field("operator").is_some_and(|o| o.kind_name() == "&&") =>
            {
                out.extend(p.field("left"));
            }
            _ => {}
        }
        child = p;
    }
    out
}

/// The `return` statements of a method body, not those of lambdas or classes in it.
pub(super) fn returns_of(block: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut stack = vec![block];
    while let Some(n) = stack.pop() {
        match n.kind_name() {
            "return_statement" => out.push(n),
            "lambda_expression" | "class_body" => continue,
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

impl<'a> Extractor<'a> {
    /// Whether the current method is a private method of this class called only from
    /// lambdas a future runs once it completes (`f.whenCompleteAsync((r, t) ->
    /// sendResponse(ctx, request), loop)`): what it waits on has completed.
    pub(super) fn runs_on_completion(&self) -> bool {
        let methods = self.own_methods(&self.frame.method);
        let private = !methods.is_empty()
            && methods
                .iter()
                .all(|m| self.modifiers(*m).contains(&"private"));
        let (true, Some(body)) = (private, self.class_body()) else {
            return false;
        };
        let calls = self.own_calls(body, &self.frame.method);
        !calls.is_empty() && calls.iter().all(|&n| self.in_completion_callback(n, body))
    }

    /// Whether `n` lies in a lambda handed to a future's completion callback
    /// (`whenComplete`, `thenAccept`, `handle`, .. and their `Async` forms).
    fn in_completion_callback(&self, n: Node, stop: Node) -> bool {
        let mut cur = n;
        while let Some(p) = cur.parent() {
            if p.id() == stop.id() {
                return false;
            }
            if cur.kind_name() == "lambda_expression" && p.kind_name() == "argument_list" {
                let registered = p.parent().is_some_and(|call| {
                    call.kind_name() == "method_invocation"
                        && call.field("name").is_some_and(|m| {
                            let m = self.text(m);
                            let m = m.strip_suffix("Async").unwrap_or(m);
                            matches!(
                                m,
                                "whenComplete" | "thenAccept" | "thenRun" | "handle" | "thenApply"
                            )
                        })
                });
                if registered {
                    return true;
                }
            }
            cur = p;
        }
        false
    }

    /// The current class's body.
    fn class_body(&self) -> Option<Node<'a>> {
        let (start, end) = self.classes.last()?.body?;
        self.root.descendant_for_byte_range(start, end)
    }

    /// The declarations of this class's methods named `name` (overloads included).
    pub(super) fn own_methods(&self, name: &str) -> Vec<Node<'a>> {
        self.class_body()
            .map_or_else(Vec::new, |body| self.methods_named(body, name))
    }

    /// The calls in a class body of its own method `name` (unqualified or on `this`).
    pub(super) fn own_calls<'t>(&self, class: Node<'t>, name: &str) -> Vec<Node<'t>>
    where
        'a: 't,
    {
        let mut out = Vec::new();
        self.each_below(class, |n| {
            let own_call = n.kind_name() == "method_invocation"
                && n.field("name").is_some_and(|m| self.text(m) == name)
                && n.field("object").is_none_or(|o| self.text(o) == "this");
            if own_call {
                out.push(n);
            }
            true
        });
        out
    }

    /// The declarations of methods named `name` in a class body (overloads included).
    pub(super) fn methods_named<'t>(&self, body: Node<'t>, name: &str) -> Vec<Node<'t>> {
        let mut c = body.walk();
        body.named_children(&mut c)
            .filter(|m| m.kind_name() == "method_declaration")
            .filter(|m| m.field("name").is_some_and(|n| self.text(n) == name))
            .collect()
    }
}
