//! One pass over a tree-sitter-java tree that records the facts of a file.

use std::collections::HashMap;

use tree_sitter::Node;

use super::resolve::Names;
use super::syntax::{short, span, string_value, text, type_name, NodeExt};
use crate::catalog::{Indexed, QueueEntry};
use crate::diagnostic::Item;
use crate::facts::{Bound, FileFacts, Queue, Suppression, SuppressionScope};

/// What the walker knows about the class it is in.
#[derive(Default)]
struct ClassInfo {
    name: String,
    /// `static final` integer constants with a value known here.
    constants: HashMap<String, u64>,
}

pub struct Extractor<'a> {
    src: &'a [u8],
    catalog: &'a Indexed,
    names: Names,
    classes: Vec<ClassInfo>,
    pub facts: FileFacts,
}

impl<'a> Extractor<'a> {
    pub fn new(root: Node, src: &'a [u8], catalog: &'a Indexed) -> Extractor<'a> {
        Extractor {
            src,
            catalog,
            names: Names::collect(root, src),
            classes: Vec::new(),
            facts: FileFacts::default(),
        }
    }

    fn text(&self, n: Node) -> &'a str {
        text(n, self.src)
    }

    fn known(&self) -> impl Fn(&str) -> bool + '_ {
        |fq| self.catalog.knows(fq)
    }

    pub fn walk(&mut self, node: Node) {
        match node.kind() {
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration" => return self.class(node),
            "method_declaration" | "constructor_declaration" => self.method_item(node),
            "field_declaration" | "local_variable_declaration" => self.suppress_annotations(node),
            "object_creation_expression" => self.creation(node),
            "method_invocation" => self.invocation(node),
            _ => {}
        }
        self.children(node);
    }

    fn children(&mut self, node: Node) {
        let mut cursor = node.walk();
        for c in node.children(&mut cursor) {
            self.walk(c);
        }
    }

    fn class(&mut self, node: Node) {
        self.suppress_annotations(node);
        let name = node
            .field("name")
            .map(|n| self.text(n).to_string())
            .unwrap_or_default();
        let qualified = match self.classes.last() {
            Some(outer) => format!("{}.{name}", outer.name),
            None => name.clone(),
        };
        self.facts.items.push(Item {
            span: span(node),
            name: qualified.clone(),
        });
        let mut info = ClassInfo {
            name: qualified,
            ..ClassInfo::default()
        };
        if let Some(body) = node.field("body") {
            self.collect_constants(body, &mut info);
        }
        self.classes.push(info);
        self.children(node);
        self.classes.pop();
    }

    /// Record `static final` integer constants declared directly in a class body.
    fn collect_constants(&self, body: Node, info: &mut ClassInfo) {
        let mut cursor = body.walk();
        for member in body.named_children(&mut cursor) {
            if member.kind() != "field_declaration" {
                continue;
            }
            let mods = self.modifiers(member);
            if !(mods.contains(&"static") && mods.contains(&"final")) {
                continue;
            }
            let mut c2 = member.walk();
            for decl in member.children_by_field_name("declarator", &mut c2) {
                if let (Some(n), Some(v)) = (decl.field("name"), decl.field("value")) {
                    if let Some(value) = self.eval_with(v, &info.constants) {
                        info.constants.insert(self.text(n).to_string(), value);
                    }
                }
            }
        }
    }

    fn modifiers(&self, decl: Node) -> Vec<&'a str> {
        let mut out = Vec::new();
        let mut cursor = decl.walk();
        for c in decl.children(&mut cursor) {
            if c.kind() == "modifiers" {
                let mut c2 = c.walk();
                for m in c.children(&mut c2) {
                    out.push(self.text(m));
                }
            }
        }
        out
    }

    fn method_item(&mut self, node: Node) {
        self.suppress_annotations(node);
        let name = node.field("name").map(|n| self.text(n)).unwrap_or("<init>");
        let class = self.classes.last().map(|c| c.name.as_str()).unwrap_or("");
        self.facts.items.push(Item {
            span: span(node),
            name: format!("{class}.{name}"),
        });
    }

    /// `@SuppressWarnings("poolguard:rule")` on a class, method or field.
    fn suppress_annotations(&mut self, decl: Node) {
        let mut cursor = decl.walk();
        for mods in decl.children(&mut cursor) {
            if mods.kind() != "modifiers" {
                continue;
            }
            let mut c2 = mods.walk();
            for ann in mods.children(&mut c2) {
                if ann.kind() != "annotation" {
                    continue;
                }
                let is_suppress = ann
                    .field("name")
                    .is_some_and(|n| self.text(n).ends_with("SuppressWarnings"));
                let Some(args) = ann.field("arguments").filter(|_| is_suppress) else {
                    continue;
                };
                let mut rules = Vec::new();
                let mut all = false;
                let mut stack = vec![args];
                while let Some(n) = stack.pop() {
                    if n.kind() == "string_literal" {
                        let v = string_value(n, self.src);
                        if v == "poolguard" {
                            all = true;
                        } else if let Some(rule) = v.strip_prefix("poolguard:") {
                            rules.push(rule.to_string());
                        }
                        continue;
                    }
                    let mut c3 = n.walk();
                    stack.extend(n.named_children(&mut c3));
                }
                if all || !rules.is_empty() {
                    self.facts.suppressions.push(Suppression {
                        rules: if all { Vec::new() } else { rules },
                        scope: SuppressionScope::Range(span(decl)),
                        span: span(ann),
                    });
                }
            }
        }
    }

    /// `new T(..)`: a catalogued queue or executor.
    fn creation(&mut self, node: Node) {
        let Some(ty) = node.field("type") else { return };
        let written = type_name(ty, self.src);
        let Some(fq) = self.names.resolve_type(&written, &self.known()) else {
            return;
        };
        let Some(entry) = self.catalog.queue_new(&fq) else {
            return;
        };
        if node.field("body").is_some() {
            // An anonymous subclass may override anything.
            return;
        }
        let args = node.field("arguments");
        let (bound, related) = if let Some(setter) = &entry.capacity_setter {
            match self.setter_bound(node, setter) {
                Some(r) => r,
                None => return,
            }
        } else {
            (self.arg_bound(entry, args), None)
        };
        self.push_queue(node, entry, bound, related);
    }

    /// `Executors.newFixedThreadPool(..)` and statically imported factories.
    fn invocation(&mut self, node: Node) {
        let Some(name) = node.field("name") else {
            return;
        };
        let method = self.text(name);
        let fq = match node.field("object") {
            Some(obj) if matches!(obj.kind(), "identifier" | "field_access") => {
                let written = type_name(obj, self.src);
                if !written
                    .split('.')
                    .next_back()
                    .is_some_and(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
                {
                    return;
                }
                match self.names.resolve_type(&written, &|fq| {
                    self.catalog.knows(&format!("{fq}.{method}"))
                }) {
                    Some(t) => format!("{t}.{method}"),
                    None => return,
                }
            }
            Some(_) => return,
            None => match self.names.resolve_static(method, &self.known()) {
                Some(fq) => fq,
                None => return,
            },
        };
        let Some(entry) = self.catalog.queue_call(&fq) else {
            return;
        };
        let bound = self.arg_bound(entry, node.field("arguments"));
        self.push_queue(node, entry, bound, None);
    }

    fn push_queue(
        &mut self,
        node: Node,
        entry: &QueueEntry,
        bound: Bound,
        related: Option<(crate::source::Span, String)>,
    ) {
        let bound = match bound {
            Bound::Unbounded if entry.grows == "threads" => Bound::UnboundedThreads,
            b => b,
        };
        self.facts.queues.push(Queue {
            span: span(node),
            what: format!("`{}`", short(self.text(node))),
            bound,
            why: entry.why.clone(),
            help: entry.help.clone(),
            related,
        });
    }

    /// The bound given by a constructor or factory argument.
    fn arg_bound(&self, entry: &QueueEntry, args: Option<Node>) -> Bound {
        let Some(i) = entry.capacity_arg else {
            return Bound::Unbounded;
        };
        match args.and_then(|a| a.named_child(i as u32)) {
            None => Bound::Unbounded,
            Some(arg) => self.capacity(arg),
        }
    }

    fn capacity(&self, arg: Node) -> Bound {
        self.eval(arg).map_or(Bound::Unknown, Bound::Capacity)
    }

    /// For objects bounded by a setter (Spring's `setQueueCapacity`): find the
    /// variable the object is stored in and its setter call in the same method
    /// (local) or class (field). `None` when the object escapes to code we cannot see.
    fn setter_bound(
        &self,
        creation: Node,
        setter: &str,
    ) -> Option<(Bound, Option<(crate::source::Span, String)>)> {
        let parent = creation.parent()?;
        let (var, scope) = match parent.kind() {
            "variable_declarator" => {
                let var = self.text(parent.field("name")?);
                let decl = parent.parent()?;
                let scope = if decl.kind() == "field_declaration" {
                    decl.parent()?
                } else {
                    enclosing_body(decl)?
                };
                (var, scope)
            }
            "assignment_expression" => {
                let left = parent.field("left")?;
                let var = self.text(left).trim_start_matches("this.");
                (var, enclosing_class_body(parent)?)
            }
            "return_statement" | "lambda_expression" => return Some((Bound::Unbounded, None)),
            _ => return None,
        };
        let mut found = None;
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            if n.kind() == "method_invocation" {
                let on_var = n.field("object").is_some_and(|o| {
                    let t = self.text(o);
                    t == var || t.strip_prefix("this.") == Some(var)
                });
                let named = n.field("name").is_some_and(|m| self.text(m) == setter);
                if on_var && named {
                    let arg = n.field("arguments").and_then(|a| a.named_child(0));
                    found = Some((n, arg));
                }
            }
            if n.kind() == "argument_list" {
                let mut c = n.walk();
                if n.named_children(&mut c).any(|a| self.text(a) == var) {
                    return None;
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        match found {
            None => Some((Bound::Unbounded, None)),
            Some((call, arg)) => {
                let bound = arg.map(|a| self.capacity(a)).unwrap_or(Bound::Unknown);
                Some((bound, Some((span(call), "capacity set here".to_string()))))
            }
        }
    }

    fn eval(&self, n: Node) -> Option<u64> {
        let empty = HashMap::new();
        let consts = self.classes.last().map(|c| &c.constants).unwrap_or(&empty);
        self.eval_with(n, consts)
    }

    /// Value of a constant integer expression: literals, `Integer.MAX_VALUE`,
    /// same-class constants, and `+ - * <<` of those.
    fn eval_with(&self, n: Node, consts: &HashMap<String, u64>) -> Option<u64> {
        let t = self.text(n);
        match n.kind() {
            "decimal_integer_literal" => {
                t.trim_end_matches(['l', 'L']).replace('_', "").parse().ok()
            }
            "hex_integer_literal" => {
                u64::from_str_radix(&t[2..].trim_end_matches(['l', 'L']).replace('_', ""), 16).ok()
            }
            "field_access" => match t.split_whitespace().collect::<String>().as_str() {
                "Integer.MAX_VALUE" => Some(i32::MAX as u64),
                "Long.MAX_VALUE" => Some(i64::MAX as u64),
                _ => None,
            },
            "identifier" => consts.get(t).copied(),
            "parenthesized_expression" | "cast_expression" => {
                let inner = n
                    .field("value")
                    .or_else(|| n.named_child(n.named_child_count() as u32 - 1))?;
                self.eval_with(inner, consts)
            }
            "binary_expression" => {
                let l = self.eval_with(n.field("left")?, consts)?;
                let r = self.eval_with(n.field("right")?, consts)?;
                match self.text(n.field("operator")?) {
                    "+" => l.checked_add(r),
                    "-" => l.checked_sub(r),
                    "*" => l.checked_mul(r),
                    "<<" => u32::try_from(r).ok().and_then(|r| l.checked_shl(r)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The body of the method, constructor, lambda or initializer around a node.
fn enclosing_body(n: Node) -> Option<Node> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        match p.kind() {
            "method_declaration" | "constructor_declaration" | "lambda_expression" => {
                return p.field("body")
            }
            "block" if p.parent().is_some_and(|g| g.kind() == "class_body") => return Some(p),
            _ => cur = p.parent(),
        }
    }
    None
}

fn enclosing_class_body(n: Node) -> Option<Node> {
    let mut cur = n.parent();
    while let Some(p) = cur {
        if p.kind() == "class_body" {
            return Some(p);
        }
        cur = p.parent();
    }
    None
}
