//! Java types as far as one file can tell: declared types resolved through
//! imports, and what an expression is known to hold (a future from a given
//! submission, a pool, a bounded future).

use rustc_hash::FxHashMap as HashMap;

use super::tree::Node;

use super::resolve::Names;
use super::syntax::{type_name, NodeExt};
use crate::catalog::Indexed;
use crate::facts::PoolKey;

/// A type as declared: its fully-qualified name when known, and type arguments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JType {
    /// Fully-qualified name when resolved (catalog types and this file's own types).
    pub fq: Option<String>,
    /// The simple name as written (`OrderService`), for linking across files.
    pub simple: String,
    pub args: Vec<JType>,
}

impl JType {
    pub fn known(fq: &str) -> JType {
        JType {
            fq: Some(fq.to_string()),
            simple: fq.rsplit('.').next().unwrap_or(fq).to_string(),
            args: Vec::new(),
        }
    }

    /// Parse a type node; `None` for primitives, arrays and `var`.
    pub fn from_node(node: Node, src: &str, names: &Names, catalog: &Indexed) -> Option<JType> {
        match node.kind_name() {
            "type_identifier" | "scoped_type_identifier" | "generic_type" => {}
            "annotated_type" => {
                let mut c = node.walk();
                let last = node.named_children(&mut c).last()?;
                return JType::from_node(last, src, names, catalog);
            }
            "wildcard" => {
                let mut c = node.walk();
                let bound = node
                    .named_children(&mut c)
                    .filter(|n| {
                        n.kind_name() != "annotation" && n.kind_name() != "marker_annotation"
                    })
                    .last()?;
                return JType::from_node(bound, src, names, catalog);
            }
            _ => return None,
        }
        let written = type_name(node, src);
        if written == "var" {
            return None;
        }
        let fq = names.resolve_type(&written, &|fq| catalog.knows(fq));
        let mut args = Vec::new();
        if node.kind_name() == "generic_type" {
            let mut c = node.walk();
            for ta in node.named_children(&mut c) {
                if ta.kind_name() == "type_arguments" {
                    let mut c2 = ta.walk();
                    for arg in ta.named_children(&mut c2) {
                        args.push(JType::from_node(arg, src, names, catalog).unwrap_or_default());
                    }
                }
            }
        }
        Some(JType {
            fq,
            simple: written.rsplit('.').next().unwrap_or(&written).to_string(),
            args,
        })
    }

    pub fn fq(&self) -> Option<&str> {
        self.fq.as_deref()
    }

    pub fn element(&self) -> Option<&JType> {
        self.args.first()
    }
}

/// A reference to a pool as the code names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolRef {
    pub key: PoolKey,
    pub name: String,
    /// The receiver is known to be an executor (by declared type or definition).
    /// Unconfirmed references count only if linking finds a pool with that key.
    pub confirmed: bool,
}

/// What an expression is known to hold.
#[derive(Debug, Clone, Default)]
pub struct Value {
    pub ty: Option<JType>,
    /// A future bounded by `orTimeout`/`completeOnTimeout`.
    pub bounded: bool,
    /// Known complete (waited already, `isDone()` guard, inside a continuation).
    pub complete: bool,
    /// Submissions whose result this is.
    pub origin: Vec<usize>,
    pub pool: Option<PoolRef>,
    /// The variable at the root of the expression (`f` in `f.thenApply(..)`).
    pub root: Option<String>,
    /// For `allOf(a, b)`: the variables it waits for.
    pub members: Vec<String>,
    /// A queue created without a bound (`put` on it never blocks).
    pub unbounded_queue: bool,
    /// The project call (index in the file's calls) whose result this is: a wait on
    /// it waits for a wrapper's or pool class's task.
    pub call: Option<usize>,
    /// For `allOf(a.f(), b.g())` over project calls and bounded futures only: those
    /// calls. The wait on it is bounded once every one returns an I/O promise.
    pub promise_calls: Vec<usize>,
    /// A local holding a lambda (`Callable<T> load = () -> ..;`): its context, which
    /// becomes a pool task where the local is submitted.
    pub lambda: Option<crate::facts::CtxId>,
}

impl Value {
    pub fn of(ty: Option<JType>) -> Value {
        Value {
            ty,
            ..Value::default()
        }
    }

    pub fn fq(&self) -> Option<&str> {
        self.ty.as_ref().and_then(|t| t.fq())
    }
}

/// A variable in scope.
#[derive(Debug, Clone)]
pub struct Var {
    pub value: Value,
}

/// Nested scopes of locals, parameters and lambda parameters.
#[derive(Debug, Default)]
pub struct Scopes {
    stack: Vec<HashMap<String, Var>>,
}

impl Scopes {
    pub fn push(&mut self) {
        self.stack.push(HashMap::default());
    }

    pub fn pop(&mut self) {
        self.stack.pop();
    }

    /// How many scopes are open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    pub fn declare(&mut self, name: &str, value: Value) {
        if let Some(top) = self.stack.last_mut() {
            top.insert(name.to_string(), Var { value });
        }
    }

    pub fn get(&self, name: &str) -> Option<&Var> {
        self.stack.iter().rev().find_map(|s| s.get(name))
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Var> {
        self.stack.iter_mut().rev().find_map(|s| s.get_mut(name))
    }
}
