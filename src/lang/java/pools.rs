//! Pool definitions and identities: fields, constructor assignments, locals and
//! Spring `@Bean` methods, with their rejection policy and whether they are bounded.

use super::tree::Node;

use super::extract::Extractor;
use super::queues::{enclosing_body, Stored};
use super::syntax::{span, NodeExt};
use super::types::{JType, PoolRef};
use crate::facts::{Bound, Pool};
use crate::source::Span;

impl<'a> Extractor<'a> {
    pub(super) fn class_fq(&self) -> String {
        self.classes
            .last()
            .map(|c| c.fq.clone())
            .unwrap_or_default()
    }

    /// The key of a field of the current class: `field:<class>.<name>`.
    pub(super) fn field_key(&self, name: &str) -> String {
        format!("field:{}.{name}", self.class_fq())
    }

    /// The executor a catalog decorator call wraps (its first argument).
    fn decorated<'t>(&self, node: Node<'t>) -> Option<Node<'t>> {
        if node.kind_name() != "method_invocation"
            || self.catalog.data.executor_decorators.is_empty()
        {
            return None;
        }
        let name = self.text(node.field("name")?);
        let object = node.field("object");
        let class = object.and_then(|o| self.static_class(o));
        let full = self.static_call(class.as_deref(), object, name)?;
        if !self.catalog.data.executor_decorators.contains(&full) {
            return None;
        }
        let args = node.field("arguments")?;
        let mut c = args.walk();
        let first = args.named_children(&mut c).find(|a| !a.is_extra());
        first
    }

    /// The arguments of `new W(..)` for a class that submits to the executor it is
    /// made with (`executor_wrapper`: `ExecutorCompletionService`, `AsyncEventBus`).
    pub(super) fn wrapper_args<'t>(&self, node: Node<'t>) -> Option<Node<'t>> {
        if node.kind_name() != "object_creation_expression" {
            return None;
        }
        let fq = node.field("type").and_then(|t| self.jtype(t))?.fq?;
        self.catalog
            .in_group("executor_wrapper", &fq)
            .then(|| node.field("arguments"))
            .flatten()
    }

    pub(super) fn field_pool_ref(&self, name: &str, confirmed: bool) -> PoolRef {
        let known = self.field(name).and_then(|f| f.pool.clone());
        known.unwrap_or_else(|| PoolRef {
            key: self.field_key(name),
            name: name.to_string(),
            confirmed,
        })
    }

    pub(super) fn local_pool_ref(&self, name: &str, confirmed: bool) -> PoolRef {
        let method_at = self
            .ctx
            .iter()
            .rev()
            .map(|&c| &self.facts.contexts[c])
            .find(|c| c.name != "lambda" && c.name != "task")
            .map(|c| c.body.start)
            .unwrap_or(0);
        PoolRef {
            key: format!(
                "local:{}.{}@{method_at}:{name}",
                self.class_fq(),
                self.frame.method
            ),
            name: name.to_string(),
            confirmed,
        }
    }

    /// A method's executor-typed parameters: the pool each one names is the one the
    /// project's calls pass there (`helper(callerRunsPool, ..)`, linked through
    /// `param:<class>.<method>#<i>` when every call passes the same pool).
    pub(super) fn pool_params(&mut self, formal: &[Node]) {
        for (i, &p) in formal.iter().enumerate() {
            let ty = p.field("type").and_then(|t| self.jtype(t));
            let Some(name) = p.field("name").map(|n| self.text(n).to_string()) else {
                continue;
            };
            if !self.is_executor(ty.as_ref()) {
                continue;
            }
            let local = self.local_pool_ref(&name, true);
            let param = format!("param:{}.{}#{i}", self.class_fq(), self.frame.method);
            self.facts.pool_aliases.push((local.key, param));
        }
    }

    fn is_executor(&self, ty: Option<&JType>) -> bool {
        ty.and_then(|t| t.fq())
            .is_some_and(|fq| self.catalog.in_group("executor", fq))
    }

    /// The pool creation an expression evaluates to: itself, or the one a map's
    /// `computeIfAbsent(key, k -> new ThreadPoolExecutor(..))` makes on a miss (a
    /// registry of named pools: each key's pool is made there once).
    pub(super) fn creation_in<'t>(&self, node: Node<'t>) -> Option<Node<'t>> {
        if self.is_pool_creation(node) {
            return Some(node);
        }
        // `MoreExecutors.listeningDecorator(Executors.newFixedThreadPool(8))`: the
        // decorator submits to the pool it wraps.
        if let Some(inner) = self.decorated(node) {
            return self.creation_in(inner);
        }
        // `new AsyncEventBus("events", Executors.newSingleThreadExecutor())`: a wrapper
        // submits to the pool it is made with.
        if let Some(args) = self.wrapper_args(node) {
            let mut c = args.walk();
            let found = args
                .named_children(&mut c)
                .find_map(|a| self.creation_in(a));
            return found;
        }
        let computes = node.kind_name() == "method_invocation"
            && node
                .field("name")
                .is_some_and(|n| matches!(self.text(n), "computeIfAbsent" | "compute"));
        if !computes {
            return None;
        }
        let args = node.field("arguments")?;
        let mut c = args.walk();
        let lambda = args
            .named_children(&mut c)
            .filter(|a| !a.is_extra())
            .last()
            .filter(|a| a.kind_name() == "lambda_expression")?;
        let body = lambda.field("body")?;
        let body = if body.kind_name() == "block" {
            let mut c = body.walk();
            let stmts: Vec<Node> = body
                .named_children(&mut c)
                .filter(|s| !s.is_extra())
                .collect();
            match stmts[..] {
                [only] if only.kind_name() == "return_statement" => only.named_child(0)?,
                _ => return None,
            }
        } else {
            body
        };
        self.is_pool_creation(body).then_some(body)
    }

    /// Whether an expression creates a thread pool (`new ThreadPoolExecutor(..)`, `Executors.newX(..)`).
    pub(super) fn is_pool_creation(&self, node: Node) -> bool {
        match node.kind_name() {
            "object_creation_expression" => {
                let ty = node.field("type").and_then(|t| self.jtype(t));
                if ty
                    .as_ref()
                    .and_then(|t| t.fq())
                    .is_some_and(|fq| self.catalog.is_pool_new(fq))
                {
                    return true;
                }
                // A project pool class given a caller-runs handler: `new NamedPool(.., new CallerRunsPolicy())`.
                let project = ty.is_some_and(|t| t.fq().is_none_or(|fq| !self.catalog.knows(fq)));
                // `ThreadPoolTaskExecutor e = new TracingTaskExecutor();`: a subclass.
                if project && self.pool_subclass_as(node).is_some() {
                    return true;
                }
                project
                    && node.field("arguments").is_some_and(|a| {
                        let mut c = a.walk();
                        let found = a.named_children(&mut c).any(|x| {
                            x.kind_name() == "object_creation_expression" && self.is_caller_runs(x)
                        });
                        found
                    })
            }
            "method_invocation" => {
                let (Some(obj), Some(name)) = (node.field("object"), node.field("name")) else {
                    return false;
                };
                self.static_class(obj).is_some_and(|c| {
                    self.catalog
                        .is_pool_call(&format!("{c}.{}", self.text(name)))
                })
            }
            _ => false,
        }
    }

    /// A field's pool identity; records the pool when the initializer creates one.
    pub(super) fn field_pool(
        &mut self,
        name: &str,
        ty: Option<&JType>,
        value: Option<Node>,
        decl: Node,
        qualifier: Option<&str>,
    ) -> Option<PoolRef> {
        let key = self.field_key(name);
        if let Some(v) = value.and_then(|v| self.creation_in(v)) {
            let scope = decl.parent().and_then(|d| d.parent()).unwrap_or(decl);
            self.record_pool(key.clone(), name, v, Some(name), scope, Vec::new());
            return Some(PoolRef {
                key,
                name: name.to_string(),
                confirmed: true,
            });
        }
        let typed = self.is_executor(ty);
        if let (true, Some(v)) = (typed, value) {
            self.factory_use(&key, name, v);
        }
        if let Some(q) = qualifier {
            self.facts
                .pool_aliases
                .push((key.clone(), format!("bean:{q}")));
        } else if typed && value.is_none() {
            // Injected by type; Spring falls back to the bean named like the field.
            self.facts
                .pool_aliases
                .push((key.clone(), format!("bean:{name}")));
            // Guice and Dagger bind by type: the project's one provider of it.
            if let (Some(t), false) = (ty, named(&self.annotations(decl))) {
                self.facts
                    .pool_aliases
                    .push((key.clone(), format!("provided:{}", t.simple)));
            }
        }
        typed.then(|| PoolRef {
            key,
            name: name.to_string(),
            confirmed: true,
        })
    }

    /// Pools assigned to fields in constructors and initializer blocks, and fields
    /// injected through qualified constructor parameters.
    pub(super) fn constructor_pools(&mut self, members: &[Node]) {
        self.pool_subclass(members);
        for m in members {
            // `static { POOL = new ThreadPoolExecutor(..); }` assigns a static field.
            let body = match m.kind_name() {
                "block" => Some(*m),
                "static_initializer" => m.named_child(0).filter(|b| b.kind_name() == "block"),
                "constructor_declaration" | "method_declaration" => m.field("body"),
                _ => continue,
            };
            let Some(body) = body else { continue };
            let at = self.field_assignments(body);
            if at.is_empty() {
                continue; // most bodies: nothing to look at
            }
            // Methods (`init()`, `setup()`) assign pools they create; only constructors
            // are injection points for beans. Both take pools from their callers.
            let params = self.qualified_params(*m);
            let method = match m.kind_name() {
                "method_declaration" => m.field("name").map_or("", |n| self.text(n)),
                _ => "<init>",
            };
            let injected = m.kind_name() == "constructor_declaration";
            // The assignments at those `=` signs (last first), found in the tree
            // without walking the body.
            for &i in at.iter().rev() {
                let assign = body
                    .descendant_for_byte_range(i, i + 1)
                    .and_then(|n| n.parent())
                    .filter(|n| n.kind_name() == "assignment_expression");
                if let Some(n) = assign {
                    self.constructor_assignment(n, body, &params, method, injected);
                }
            }
        }
    }

    /// The byte offsets of each `name =` (not `==`) in the body's text for a field
    /// `name` of the class: a scan of bytes, which spares walking the trees of the
    /// bodies (nearly all assign no field).
    fn field_assignments(&self, body: Node) -> Vec<usize> {
        let base = body.start_byte();
        let text = self.text(body).as_bytes();
        memchr::memchr_iter(b'=', text)
            .filter(|&i| {
                if i == 0 {
                    return false;
                }
                let (prev, next) = (text[i - 1], text.get(i + 1).copied().unwrap_or(b' '));
                if text[i] != b'=' || next == b'=' || b"=!<>+-*/%&|^".contains(&prev) {
                    return false;
                }
                let name = crate::lang::name_before(text, i, b"$");
                !name.is_empty()
                    && std::str::from_utf8(name).is_ok_and(|name| self.field(name).is_some())
            })
            .map(|i| base + i)
            .collect()
    }

    /// `class NamedPool extends ThreadPoolExecutor { NamedPool() { super(.., policy); } }`:
    /// the class is a pool (`class:<fq>`), with the bound and policy its `super(..)` passes.
    fn pool_subclass(&mut self, members: &[Node]) {
        let Some(class) = self.classes.last() else {
            return;
        };
        let Some(base) = class
            .supers
            .iter()
            .find(|s| self.catalog.is_pool_new(s))
            .cloned()
        else {
            return;
        };
        let key = format!("class:{}", class.fq);
        let name = class.fq.rsplit('.').next().unwrap_or(&class.fq).to_string();
        let mut found = None;
        for m in members
            .iter()
            .filter(|m| m.kind_name() == "constructor_declaration")
        {
            let Some(body) = m.field("body") else {
                continue;
            };
            let mut c = body.walk();
            let call = body
                .named_children(&mut c)
                .find(|n| n.kind_name() == "explicit_constructor_invocation");
            if let Some(call) = call {
                found = Some(call);
                let args = call.field("arguments");
                let runs = args.is_some_and(|a| {
                    let mut c2 = a.walk();
                    let hit = a.named_children(&mut c2).any(|x| self.is_caller_runs(x));
                    hit
                });
                if runs {
                    break;
                }
            }
        }
        let Some(call) = found else { return };
        let args: Vec<Node> = call
            .field("arguments")
            .map(|a| {
                let mut c = a.walk();
                let v: Vec<Node> = a.named_children(&mut c).collect();
                v
            })
            .unwrap_or_default();
        let caller_runs = args
            .iter()
            .find(|a| self.is_caller_runs(**a))
            .map(|a| span(*a));
        let queue_arg = self
            .catalog
            .data
            .pools
            .iter()
            .find(|p| p.new.as_deref() == Some(base.as_str()))
            .and_then(|p| p.queue_arg);
        let bounded = queue_arg
            .and_then(|i| args.get(i))
            .is_some_and(|q| self.bounded_queue_arg(*q));
        let head = call.child(0).unwrap_or(call);
        self.facts.pools.push(Pool {
            key,
            aliases: Vec::new(),
            name,
            span: span(head),
            caller_runs,
            handler: None,
            bounded,
            elastic: false,
            scoped: false,
            per_call: false,
            single: false,
        });
    }

    /// `new ThreadPoolExecutor(.., new LoggingCallerRuns())`: a rejection handler of a
    /// project class, which the project model checks for running the task.
    fn project_handler(
        &self,
        creation: Node,
    ) -> Option<(std::sync::Arc<crate::facts::TypeRef>, Span)> {
        let args = creation.field("arguments")?;
        let mut c = args.walk();
        let found = args.named_children(&mut c).find_map(|a| {
            if a.kind_name() != "object_creation_expression"
                || a.named_child(2)
                    .is_some_and(|b| b.kind_name() == "class_body")
            {
                return None;
            }
            let ty = a.field("type").and_then(|t| self.jtype(t))?;
            if ty.fq().is_some_and(|fq| self.catalog.knows(fq)) {
                return None;
            }
            Some((self.type_ref(&ty), span(a)))
        });
        found
    }

    /// A class whose `rejectedExecution` runs the rejected task: a caller-runs handler.
    pub(super) fn handler_class(&mut self, class: Node) {
        let text = self.text(class);
        if text.contains("rejectedExecution") && self.runs_rejected_task(class) {
            let fq = self.class_fq();
            self.facts.caller_runs_handlers.push(fq);
        }
    }

    /// Constructor parameters: name, qualifier, declared type.
    fn qualified_params(&self, ctor: Node) -> Vec<(String, Option<String>, Option<JType>)> {
        let Some(params) = ctor.field("parameters") else {
            return Vec::new();
        };
        let mut c = params.walk();
        let ps: Vec<Node> = params.named_children(&mut c).collect();
        ps.into_iter()
            .filter(|p| p.kind_name() == "formal_parameter")
            .filter_map(|p| {
                let name = self.text(p.field("name")?).to_string();
                let ty = p.field("type").and_then(|t| self.jtype(t));
                Some((name, self.qualifier(p), ty))
            })
            .collect()
    }

    fn constructor_assignment(
        &mut self,
        assign: Node,
        body: Node,
        params: &[(String, Option<String>, Option<JType>)],
        method: &str,
        injected: bool,
    ) {
        let (Some(left), Some(right)) = (assign.field("left"), assign.field("right")) else {
            return;
        };
        let field = self.text(left).trim_start_matches("this.").to_string();
        if self.field(&field).is_none() {
            return;
        }
        // `this.pending = new LinkedBlockingQueue<>()`, or `this(service, new
        // LinkedBlockingQueue<>())` from a sibling constructor for the parameter stored
        // here: `put` on it never blocks.
        let param = params.iter().position(|(n, _, _)| n == self.text(right));
        // (Only for a field of a queue type: no walk of the constructors for the rest.)
        let queue_field = self
            .field(&field)
            .and_then(|f| f.ty.as_ref())
            .is_some_and(|t| t.simple.ends_with("Queue") || t.simple.ends_with("Deque"));
        let delegated = |i: &usize| {
            method == "<init>"
                && queue_field
                && self.delegated_unbounded_queue(assign, *i, params.len())
        };
        // (A `ScheduledThreadPoolExecutor` is an unbounded queue too, and a pool first.)
        let queue = !self.is_pool_creation(right) && self.creates_unbounded_queue(right);
        if queue || param.filter(delegated).is_some() {
            if let Some(info) = self
                .classes
                .last_mut()
                .and_then(|c| c.fields.get_mut(&field))
            {
                info.unbounded_queue = true;
            }
            return;
        }
        let key = self.field_key(&field);
        // `ThreadPoolExecutor tp = new ThreadPoolExecutor(..); .. pool = tp;`: the local's pool.
        // (Not for a parameter, most assignments: no walk of the body for them.)
        let created = self.creation_in(right).or_else(|| {
            let local =
                (right.kind_name() == "identifier" && param.is_none()).then(|| self.text(right));
            local.and_then(|v| self.local_creation(body, v))
        });
        let confirmed = if let Some(created) = created {
            let scope = super::queues::enclosing_class_body(assign).unwrap_or(body);
            self.record_pool(
                key.clone(),
                &field,
                created,
                Some(&field),
                scope,
                Vec::new(),
            );
            true
        } else if let Some((i, (pname, qualifier, ty))) = params
            .iter()
            .enumerate()
            .find(|(_, (n, _, _))| n == self.text(right))
        {
            if !self.is_executor(ty.as_ref()) && !injected {
                return;
            }
            if injected {
                let bean = qualifier.clone().unwrap_or_else(|| pname.clone());
                self.facts
                    .pool_aliases
                    .push((key.clone(), format!("bean:{bean}")));
            }
            let param = format!("param:{}.{method}#{i}", self.class_fq());
            self.facts.pool_aliases.push((key.clone(), param));
            self.is_executor(ty.as_ref())
        } else if right.kind_name() == "method_invocation"
            && self.is_executor(self.field(&field).and_then(|f| f.ty.as_ref()))
        {
            self.factory_use(&key, &field, right);
            true
        } else {
            return;
        };
        if let Some(info) = self
            .classes
            .last_mut()
            .and_then(|c| c.fields.get_mut(&field))
        {
            if info.pool.is_none() || confirmed {
                info.pool = Some(PoolRef {
                    key,
                    name: field,
                    confirmed,
                });
            }
        }
    }

    /// Whether a constructor of the class around `at` delegates with `this(..)` of
    /// `arity` arguments whose argument `index` creates an unbounded queue.
    fn delegated_unbounded_queue(&self, at: Node, index: usize, arity: usize) -> bool {
        let Some(body) = super::queues::enclosing_class_body(at) else {
            return false;
        };
        let mut c = body.walk();
        let ctors: Vec<Node> = body
            .named_children(&mut c)
            .filter(|m| m.kind_name() == "constructor_declaration")
            .collect();
        ctors.iter().any(|m| {
            let Some(b) = m.field("body") else {
                return false;
            };
            let mut c = b.walk();
            let call = b
                .named_children(&mut c)
                .find(|n| n.kind_name() == "explicit_constructor_invocation");
            let Some(args) = call
                .filter(|n| n.child(0).is_some_and(|k| k.kind_name() == "this"))
                .and_then(|n| n.field("arguments"))
            else {
                return false;
            };
            let mut c = args.walk();
            let args: Vec<Node> = args
                .named_children(&mut c)
                .filter(|n| !n.is_extra())
                .collect();
            args.len() == arity && self.creates_unbounded_queue(args[index])
        })
    }

    /// `pool = Pools.newPool(.., new CallerRunsPolicy())`: a field or local set from a
    /// call of a project method, which the project model matches to a pool factory.
    pub(super) fn factory_use(&mut self, key: &str, name: &str, value: Node) {
        if value.kind_name() != "method_invocation" {
            return;
        }
        let Some(method) = value.field("name").map(|n| self.text(n).to_string()) else {
            return;
        };
        let target = match value.field("object") {
            None => self.own_type(),
            Some(o) if self.text(o) == "this" => self.own_type(),
            Some(o) => match self.static_class(o) {
                Some(c) if !self.catalog.knows(&c) => Some(self.type_ref(&JType {
                    fq: None,
                    simple: super::syntax::type_name(o, self.src).into_owned(),
                    args: Vec::new(),
                })),
                _ => None,
            },
        };
        let Some(target) = target else { return };
        let args: Vec<Node> = value.field("arguments").map_or_else(Vec::new, |a| {
            let mut c = a.walk();
            a.named_children(&mut c).filter(|n| !n.is_extra()).collect()
        });
        let caller_runs_args = args
            .iter()
            .enumerate()
            .filter(|(_, a)| self.is_caller_runs(**a))
            .map(|(i, a)| (i, span(*a)))
            .collect();
        let head = value
            .field("name")
            .map_or(value.end_byte(), |n| n.end_byte());
        self.facts.factory_uses.push(crate::facts::FactoryUse {
            key: key.to_string(),
            name: name.to_string(),
            span: Span::new(value.start_byte(), head),
            target,
            method: method.into(),
            arity: args.len(),
            caller_runs_args,
        });
    }

    /// The current class, as a call target.
    pub(super) fn own_type(&self) -> Option<std::sync::Arc<crate::facts::TypeRef>> {
        let c = self.classes.last()?;
        Some(self.type_ref(&JType {
            fq: Some(c.fq.clone()),
            simple: c.fq.rsplit('.').next().unwrap_or_default().to_string(),
            args: Vec::new(),
        }))
    }

    /// A method declared to return an executor whose one `return` gives a pool it
    /// creates (directly or through a local): a factory. Its rejection policy is its
    /// own, or the `RejectedExecutionHandler` parameter it installs.
    pub(super) fn pool_factory(&mut self, method: Node, name: &str, ty: Option<&JType>) {
        if !self.is_executor(ty) {
            return;
        }
        let Some(body) = method.field("body") else {
            return;
        };
        let mut returns = Vec::new();
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            match n.kind_name() {
                "lambda_expression" | "class_body" => continue,
                "return_statement" => {
                    returns.push(n);
                    continue;
                }
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        let [ret] = returns[..] else { return };
        let Some(value) = ret.named_child(0) else {
            return;
        };
        let (creation, var) = if self.is_pool_creation(value) {
            (value, None)
        } else if value.kind_name() == "method_invocation" {
            // `return newPool(n, prefix)`: it delegates to a factory the project
            // model may know (an overload, another class's factory).
            let arity = formal_parameters(method).len();
            let key = format!(
                "{}{}.{name}/{arity}",
                crate::facts::DELEGATE,
                self.class_fq()
            );
            self.factory_use(&key, name, value);
            return;
        } else if value.kind_name() == "identifier" {
            let var = self.text(value);
            let Some(created) = self.local_creation(body, var) else {
                return;
            };
            (created, Some(var))
        } else {
            return;
        };
        let params: Vec<(String, Option<JType>)> = formal_parameters(method)
            .into_iter()
            .map(|p| {
                let n = p.field("name").map_or("", |n| self.text(n)).to_string();
                (n, p.field("type").and_then(|t| self.jtype(t)))
            })
            .collect();
        let handler_param = |n: Node| {
            (n.kind_name() == "identifier")
                .then(|| self.text(n))
                .and_then(|t| {
                    params.iter().position(|(p, ty)| {
                        p == t
                            && ty
                                .as_ref()
                                .is_some_and(|ty| ty.simple.ends_with("RejectedExecutionHandler"))
                    })
                })
        };
        let mut policy_param = creation.field("arguments").and_then(|a| {
            let mut c = a.walk();
            let found = a.named_children(&mut c).find_map(handler_param);
            found
        });
        if let (None, Some(var)) = (policy_param, var) {
            let setters = &self.catalog.data.policies.setters;
            let mut stack = vec![body];
            while let Some(n) = stack.pop() {
                if n.kind_name() == "method_invocation"
                    && setters.iter().any(|s| self.is_call_on(n, var, s))
                {
                    let arg = n
                        .field("arguments")
                        .and_then(|a| super::syntax::argument(a, 0));
                    if let Some(i) = arg.and_then(handler_param) {
                        policy_param = Some(i);
                        break;
                    }
                }
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
        }
        let caller_runs = self.caller_runs(creation, var, body).is_some();
        let bounded = self.pool_bounded(creation);
        self.facts.pool_factories.push(crate::facts::PoolFactory {
            method: format!("{}.{name}", self.class_fq()),
            arity: params.len(),
            caller_runs,
            policy_param,
            bounded,
            single: self.pool_single(creation),
        });
    }

    /// The pool creation a local of this body is initialized with.
    fn local_creation<'t>(&self, body: Node<'t>, var: &str) -> Option<Node<'t>> {
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if n.kind_name() == "variable_declarator"
                && n.field("name").is_some_and(|x| self.text(x) == var)
            {
                return n.field("value").and_then(|v| self.creation_in(v));
            }
            if matches!(n.kind_name(), "lambda_expression" | "class_body") {
                continue;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        None
    }

    /// A local initialized with a new pool.
    pub(super) fn local_pool(&mut self, name: &str, declarator: Node) -> Option<PoolRef> {
        let value = declarator
            .field("value")
            .and_then(|v| self.creation_in(v))?;
        let r = self.local_pool_ref(name, true);
        let scope = enclosing_body(declarator).unwrap_or(declarator);
        self.record_pool(r.key.clone(), name, value, Some(name), scope, Vec::new());
        // `try (var pool = ..)` or `pool.shutdown()` in the same method: a per-call pool.
        let resource = declarator.kind_name() == "resource"
            || declarator
                .parent()
                .is_some_and(|p| p.kind_name() == "resource");
        let mut stack = vec![scope];
        let mut shut = resource;
        while let Some(n) = stack.pop().filter(|_| !shut) {
            shut = n.kind_name() == "method_invocation"
                && ["shutdown", "shutdownNow", "close"]
                    .iter()
                    .any(|m| self.is_call_on(n, name, m));
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        let fixed = !shut && self.fixed_submissions(scope, name, declarator);
        if let Some(p) = self.facts.pools.last_mut() {
            p.scoped = shut;
            p.per_call = fixed;
        }
        Some(r)
    }

    /// A local pool used only as the receiver of submissions, none in a loop or a
    /// lambda, and of lifecycle calls: it never leaves the method and holds at most
    /// the few tasks this call gives it (a drain task per `stop()`), not a backlog.
    fn fixed_submissions(&self, scope: Node, name: &str, declarator: Node) -> bool {
        const LIFECYCLE: [&str; 5] = [
            "shutdown",
            "shutdownNow",
            "awaitTermination",
            "isShutdown",
            "isTerminated",
        ];
        let own = declarator.field("name").map(|n| n.id());
        let mut submitted = false;
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            if n.kind_name() == "identifier" && self.text(n) == name && Some(n.id()) != own {
                let call = n
                    .parent()
                    .filter(|p| p.kind_name() == "method_invocation")
                    .filter(|p| p.field("object").is_some_and(|o| o.id() == n.id()));
                let Some(method) = call.and_then(|c| c.field("name")).map(|m| self.text(m)) else {
                    return false;
                };
                if self.catalog.is_submit_method(method) {
                    if repeated_within(n, scope) {
                        return false;
                    }
                    submitted = true;
                } else if !LIFECYCLE.contains(&method) {
                    return false;
                }
                continue;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        submitted
    }

    /// The type a by-type provider method (`@Provides ExecutorService pool()`, not
    /// qualified with `@Named`) binds, by simple name.
    fn provided_type(&self, method: Node) -> Option<String> {
        let providers = &self.catalog.data.spring.providers;
        let anns = self.annotations(method);
        if !anns.iter().any(|a| providers.contains(&a.name)) || named(&anns) {
            return None;
        }
        let ty = method.field("type").and_then(|t| self.jtype(t))?;
        Some(ty.simple.clone())
    }

    /// An `@Bean` method that builds a pool: the pool is known by its bean names.
    pub(super) fn bean_pool(&mut self, method: Node, method_name: &str) {
        let Some(names) = self.bean_names(method, method_name) else {
            return;
        };
        let Some(body) = method.field("body") else {
            return;
        };
        let mut creation = None;
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if self.is_pool_creation(n) {
                creation = Some(n);
                break;
            }
            if n.kind_name() == "lambda_expression" || n.kind_name() == "class_body" {
                continue;
            }
            let mut c = n.walk();
            let mut kids: Vec<Node> = n.named_children(&mut c).collect();
            kids.reverse();
            stack.extend(kids);
        }
        let Some(creation) = creation else { return };
        let var = match self.stored_in(creation) {
            Some(Stored::Var(v, _)) => Some(v),
            _ => None,
        };
        let mut aliases: Vec<String> = names.iter().skip(1).map(|n| format!("bean:{n}")).collect();
        if let Some(t) = self.provided_type(method) {
            aliases.push(format!("provided:{t}"));
        }
        self.record_pool(
            format!("bean:{}", names[0]),
            crate::facts::bean_display(&names[0]),
            creation,
            var.as_deref(),
            body,
            aliases,
        );
    }

    pub(super) fn record_pool(
        &mut self,
        key: String,
        name: &str,
        creation: Node,
        var: Option<&str>,
        scope: Node,
        aliases: Vec<String>,
    ) {
        let caller_runs = self.caller_runs(creation, var, scope);
        let handler = caller_runs
            .is_none()
            .then(|| self.project_handler(creation))
            .flatten();
        let bounded = self.pool_bounded(creation);
        // Label just `new ThreadPoolExecutor` / `Executors.newFixedThreadPool`, not the arguments.
        let head = creation
            .field("type")
            .or_else(|| creation.field("name"))
            .map_or(creation.end_byte(), |n| n.end_byte());
        self.facts.pools.push(Pool {
            key,
            aliases,
            name: name.to_string(),
            span: Span::new(creation.start_byte(), head),
            caller_runs,
            handler,
            bounded,
            elastic: self.pool_entry(creation).is_some_and(|p| p.elastic),
            scoped: false,
            per_call: false,
            single: self.pool_single(creation),
        });
    }

    /// Where `CallerRunsPolicy` is installed on a pool: a constructor argument, or a
    /// setter called on the variable that holds it.
    fn caller_runs(&self, creation: Node, var: Option<&str>, scope: Node) -> Option<Span> {
        if let Some(args) = creation.field("arguments") {
            let mut c = args.walk();
            let found = args
                .named_children(&mut c)
                .find(|a| self.is_caller_runs(*a));
            if let Some(a) = found {
                return Some(span(a));
            }
        }
        let var = var?;
        let setters = &self.catalog.data.policies.setters;
        let scope_text = super::syntax::text(scope, self.src);
        if !setters.iter().any(|s| scope_text.contains(s.as_str())) {
            return None;
        }
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            if n.kind_name() == "method_invocation"
                && setters.iter().any(|s| self.is_call_on(n, var, s))
            {
                let arg = n
                    .field("arguments")
                    .and_then(|a| super::syntax::argument(a, 0));
                if arg.is_some_and(|a| self.is_caller_runs(a)) {
                    return Some(span(n));
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        None
    }

    /// Whether a rejection handler runs the task on the caller: `new CallerRunsPolicy()`,
    /// a field or constant holding one, or a lambda or anonymous handler whose body
    /// calls `run()` on the rejected task.
    pub(super) fn is_caller_runs(&self, expr: Node) -> bool {
        match expr.kind_name() {
            "object_creation_expression" => {
                let named = expr
                    .field("type")
                    .and_then(|t| self.jtype(t))
                    .and_then(|t| t.fq)
                    .is_some_and(|fq| self.catalog.data.policies.caller_runs.contains(&fq));
                named || self.runs_rejected_task(expr)
            }
            "lambda_expression" => self.runs_rejected_task(expr),
            "identifier" => self
                .classes
                .iter()
                .rev()
                .any(|c| c.caller_runs_fields.contains(self.text(expr))),
            "field_access" => {
                let this = expr.field("object").is_some_and(|o| self.text(o) == "this");
                let f = expr.field("field").map(|f| self.text(f)).unwrap_or("");
                this && self
                    .classes
                    .last()
                    .is_some_and(|c| c.caller_runs_fields.contains(f))
            }
            _ => false,
        }
    }

    /// A handler body (lambda or anonymous class) that calls `<task>.run()`, where
    /// `<task>` is its first parameter: the caller runs the rejected task.
    fn runs_rejected_task(&self, handler: Node) -> bool {
        let params = match handler.kind_name() {
            "lambda_expression" => handler.field("parameters"),
            _ => {
                let Some(body) = handler
                    .child_by_field_name("body")
                    .or_else(|| super::syntax::anonymous_body(handler))
                else {
                    return false;
                };
                let mut c = body.walk();
                let method = body.named_children(&mut c).find(|m| {
                    m.kind_name() == "method_declaration"
                        && m.field("name")
                            .is_some_and(|n| self.text(n) == "rejectedExecution")
                });
                method.and_then(|m| m.field("parameters"))
            }
        };
        let Some(params) = params else { return false };
        let first = match params.kind_name() {
            "identifier" => Some(self.text(params)),
            _ => {
                let mut c = params.walk();
                let p = params.named_children(&mut c).next();
                p.map(|p| p.field("name").map_or(self.text(p), |n| self.text(n)))
            }
        };
        let Some(task) = first else { return false };
        let text = self.text(handler);
        text.contains(&format!("{task}.run()"))
    }

    /// The catalog's entry for a pool's creation.
    fn pool_entry(&self, creation: Node) -> Option<&crate::catalog::PoolEntry> {
        let name = match creation.kind_name() {
            "object_creation_expression" => creation
                .field("type")
                .and_then(|t| self.jtype(t))
                .and_then(|t| t.fq),
            "method_invocation" => {
                let class = creation.field("object").and_then(|o| self.static_class(o));
                let m = creation.field("name").map(|n| self.text(n));
                class.zip(m).map(|(c, m)| format!("{c}.{m}"))
            }
            _ => None,
        }?;
        self.catalog.data.pools.iter().find(|p| {
            p.new.as_deref() == Some(name.as_str()) || p.call.as_deref() == Some(name.as_str())
        })
    }

    /// Whether one thread runs every task of this pool.
    fn pool_single(&self, creation: Node) -> bool {
        let Some(entry) = self.pool_entry(creation) else {
            return false;
        };
        let threads = || {
            let args = creation.field("arguments")?;
            self.eval(super::syntax::argument(args, entry.threads_arg?)?)
        };
        entry.single || threads() == Some(1)
    }

    /// Whether a pool's work queue is bounded (so that its rejection policy ever runs).
    pub(super) fn pool_bounded(&self, creation: Node) -> bool {
        let Some(fq) = creation
            .field("type")
            .and_then(|t| self.jtype(t))
            .and_then(|t| t.fq)
        else {
            return false;
        };
        if let Some(entry) = self.catalog.queue_new(&fq) {
            if let Some(setter) = &entry.capacity_setter {
                let bound = self.setter_bound(creation, setter, None, &entry.initializers);
                return match bound.map(|b| b.bound) {
                    Some(Bound::Capacity(n)) => n < i32::MAX as u64,
                    Some(Bound::Unknown) => true,
                    _ => false,
                };
            }
        }
        let queue_arg = self
            .catalog
            .data
            .pools
            .iter()
            .find(|p| p.new.as_deref() == Some(fq.as_str()))
            .and_then(|p| p.queue_arg);
        let Some(q) =
            queue_arg.and_then(|i| super::syntax::argument(creation.field("arguments")?, i))
        else {
            return false;
        };
        self.bounded_queue_arg(q)
    }

    /// Whether a work-queue argument (`new ArrayBlockingQueue<>(100)`) is bounded.
    fn bounded_queue_arg(&self, q: Node) -> bool {
        if q.kind_name() != "object_creation_expression" {
            return false;
        }
        let queue_fq = q
            .field("type")
            .and_then(|t| self.jtype(t))
            .and_then(|t| t.fq)
            .unwrap_or_default();
        if queue_fq.ends_with(".SynchronousQueue") {
            return true;
        }
        match self.catalog.queue_new(&queue_fq) {
            Some(e) => e.capacity_arg.is_some_and(|i| {
                q.field("arguments")
                    .and_then(|a| super::syntax::argument(a, i))
                    .is_some_and(
                        |a| !matches!(self.capacity(a), Bound::Capacity(n) if n >= i32::MAX as u64),
                    )
            }),
            None => false,
        }
    }
}

/// Whether `node` runs more than once per run of `scope`: inside a loop, a lambda or
/// a class body between them.
fn repeated_within(node: Node, scope: Node) -> bool {
    let mut cur = node.parent();
    while let Some(n) = cur.filter(|n| n.id() != scope.id()) {
        if super::syntax::REPEATING.contains(&n.kind_name()) {
            return true;
        }
        cur = n.parent();
    }
    false
}

/// A method's formal parameters (a varargs one included), in order.
fn formal_parameters(method: Node) -> Vec<Node> {
    method.field("parameters").map_or_else(Vec::new, |ps| {
        let mut c = ps.walk();
        ps.named_children(&mut c)
            .filter(|p| matches!(p.kind_name(), "formal_parameter" | "spread_parameter"))
            .collect()
    })
}

/// Qualified with `@Named("..")` (javax, jakarta, Guice): bound by name, not by type.
fn named(anns: &[super::annotations::Annotation]) -> bool {
    anns.iter()
        .any(|a| a.name.rsplit('.').next() == Some("Named"))
}
