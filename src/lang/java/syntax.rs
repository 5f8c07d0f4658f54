//! Small helpers over tree-sitter-java nodes.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::tree::Node;

use crate::source::Span;

pub fn text<'s>(node: Node, src: &'s str) -> &'s str {
    // tree-sitter node boundaries are character boundaries: `get` checks that in O(1).
    src.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// The method invocations under `node` that run with it: not those in nested lambdas
/// or class bodies (they run later, elsewhere). In depth-first order, last child first.
pub fn own_invocations(node: Node) -> Vec<Node> {
    own_nodes(node, "method_invocation")
}

/// The nodes of `kind` under `node` that run with it, as [`own_invocations`].
pub fn own_nodes<'t>(node: Node<'t>, kind: &str) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind_name() {
            "lambda_expression" | "class_body" => continue,
            k if k == kind => out.push(n),
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    out
}

/// Whether `node` or any node below it satisfies `pred` (depth first).
pub fn any_node(node: Node, mut pred: impl FnMut(Node) -> bool) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if pred(n) {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

/// The arguments of an `argument_list`, without the comments between them
/// (`new ThreadPoolExecutor(4, // core` must not shift the queue argument).
pub fn arguments(list: Node) -> Vec<Node> {
    let mut c = list.walk();
    let args = list
        .named_children(&mut c)
        .filter(|a| !a.is_extra())
        .collect();
    args
}

/// The expressions a conditional may yield (`c ? a : (b)` -> `a`, `b`); any other
/// expression is its own single branch (no allocation then).
pub fn branches(node: Node) -> Branches {
    let node = unparen(node);
    if node.kind_name() != "ternary_expression" {
        return Branches::One(Some(node));
    }
    fn collect<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
        let n = unparen(n);
        match (
            n.kind_name(),
            n.field("consequence"),
            n.field("alternative"),
        ) {
            ("ternary_expression", Some(a), Some(b)) => {
                collect(a, out);
                collect(b, out);
            }
            _ => out.push(n),
        }
    }
    let mut all = Vec::new();
    collect(node, &mut all);
    Branches::Many(all.into_iter())
}

/// The branches of [`branches`].
pub enum Branches<'t> {
    One(Option<Node<'t>>),
    Many(std::vec::IntoIter<Node<'t>>),
}

impl<'t> Iterator for Branches<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        match self {
            Branches::One(n) => n.take(),
            Branches::Many(it) => it.next(),
        }
    }
}

/// The expression inside any parentheses (`((x))` -> `x`); empty parentheses stay.
pub fn unparen(mut node: Node) -> Node {
    while node.kind_name() == "parenthesized_expression" {
        match node.named_child(0) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// Argument `i` of an `argument_list` (comments skipped).
pub fn argument(list: Node, i: usize) -> Option<Node> {
    let mut c = list.walk();
    let arg = list.named_children(&mut c).filter(|a| !a.is_extra()).nth(i);
    arg
}

pub fn span(node: Node) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

/// Field ids of the Java grammar by name, looked up once (tree-sitter's own lookup
/// compares names one by one on every call).
pub(super) fn field_id(name: &str) -> Option<u16> {
    const NAMES: [&str; 22] = [
        "name",
        "object",
        "arguments",
        "type",
        "body",
        "value",
        "declarator",
        "left",
        "right",
        "condition",
        "consequence",
        "alternative",
        "parameters",
        "field",
        "operator",
        "operand",
        "superclass",
        "interfaces",
        "key",
        "scope",
        "dimensions",
        "resources",
    ];
    static IDS: OnceLock<Vec<Option<u16>>> = OnceLock::new();
    let ids = IDS.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
        NAMES
            .iter()
            .map(|n| lang.field_id_for_name(n).map(|id| id.get()))
            .collect()
    });
    match NAMES.iter().position(|n| *n == name) {
        Some(i) => ids[i],
        None => {
            let lang: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
            lang.field_id_for_name(name).map(|id| id.get())
        }
    }
}

pub trait NodeExt<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>>;
    /// The node's kind name, from a table built once: tree-sitter's `kind()`
    /// measures and checks a C string on every call.
    fn kind_name(&self) -> &'static str;
}

impl<'t> NodeExt<'t> for Node<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>> {
        self.child_by_field_name(name)
    }

    fn kind_name(&self) -> &'static str {
        static NAMES: OnceLock<Vec<String>> = OnceLock::new();
        let names = NAMES.get_or_init(|| {
            let lang: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
            (0..lang.node_kind_count() as u16)
                .map(|id| lang.node_kind_for_id(id).unwrap_or("").to_string())
                .collect()
        });
        // Every id a parse produces is below the grammar's kind count.
        names
            .get(self.kind_id() as usize)
            .map_or("", String::as_str)
    }
}

/// A type as written, without type arguments or annotations:
/// `LinkedBlockingQueue<Runnable>` -> `LinkedBlockingQueue`.
pub fn type_name<'s>(node: Node, src: &'s str) -> Cow<'s, str> {
    match node.kind_name() {
        "generic_type" => node
            .named_child(0)
            .map(|n| type_name(n, src))
            .unwrap_or_default(),
        "scoped_type_identifier" => {
            let mut parts = Vec::new();
            let mut cursor = node.walk();
            for c in node.named_children(&mut cursor) {
                match c.kind_name() {
                    "type_identifier" | "scoped_type_identifier" | "generic_type" => {
                        parts.push(type_name(c, src))
                    }
                    _ => {}
                }
            }
            Cow::Owned(parts.join("."))
        }
        _ => {
            let t = text(node, src);
            if t.contains(char::is_whitespace) {
                Cow::Owned(t.chars().filter(|c| !c.is_whitespace()).collect())
            } else {
                Cow::Borrowed(t)
            }
        }
    }
}

/// Source text for a message: whitespace collapsed, long argument lists elided.
pub fn short(code: &str) -> String {
    let collapsed = collapse(code);
    if collapsed.chars().count() <= 60 {
        return collapsed;
    }
    // The calls kept, their arguments elided: `new URL(..).openConnection()`.
    let elided = elide_arguments(&collapsed);
    if elided.chars().count() <= 60 {
        return elided;
    }
    match collapsed.find('(') {
        Some(i) if i < 56 => format!("{}(..)", &collapsed[..i]),
        _ => format!("{}..", collapsed.chars().take(57).collect::<String>()),
    }
}

/// Each outermost non-empty argument list written `(..)`; a parenthesis inside a
/// string literal does not count.
fn elide_arguments(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let (mut depth, mut inner) = (0usize, false);
    let (mut quoted, mut escaped) = (false, false);
    for ch in code.chars() {
        let shown = depth == 0;
        if quoted {
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == '"' {
                quoted = false;
            }
        } else if ch == '"' {
            quoted = true;
        } else if ch == '(' {
            depth += 1;
            if depth == 1 {
                out.push('(');
                inner = false;
                continue;
            }
        } else if ch == ')' && depth > 0 {
            depth -= 1;
            if depth == 0 {
                out.push_str(if inner { "..)" } else { ")" });
                continue;
            }
        }
        if shown {
            out.push(ch);
        } else {
            inner = true;
        }
    }
    out
}

/// Code on one line: whitespace runs become one space, and none is left before a
/// chained call's dot (`Executors\n    .newFixedThreadPool(4)` reads
/// `Executors.newFixedThreadPool(4)`).
pub fn collapse(code: &str) -> String {
    code.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" .", ".")
}

/// The string value of a string literal node (quotes removed, no escapes processed).
pub fn string_value(node: Node, src: &str) -> String {
    let t = text(node, src);
    t.trim_start_matches("\"\"\"")
        .trim_end_matches("\"\"\"")
        .trim_matches('"')
        .to_string()
}

/// The node kinds the walker dispatches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Class,
    /// `@interface Audited { .. }`.
    AnnotationType,
    Creation,
    Method,
    Lambda,
    Field,
    Local,
    /// A try-with-resources resource (`try (LeaderLatch l = new LeaderLatch(..))`).
    Resource,
    Block,
    Catch,
    Try,
    ForEach,
    Loop,
    Guard,
    /// `a && b`, `a || b` (and other binary operators): `f.isDone() && f.get()`.
    Logical,
    Invocation,
    MethodRef,
    Assign,
    Return,
    /// Identifiers, literals, punctuation, types, imports and modifiers: nothing
    /// inside to walk.
    Leaf,
    Other,
}

/// A node's [`Kind`], from a table built once from the grammar (no string compares).
pub fn kind(node: Node) -> Kind {
    static TABLE: OnceLock<Vec<Kind>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
        (0..lang.node_kind_count() as u16)
            .map(|id| match lang.node_kind_for_id(id).unwrap_or("") {
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration" => Kind::Class,
                "annotation_type_declaration" => Kind::AnnotationType,
                "object_creation_expression" => Kind::Creation,
                "method_declaration" | "constructor_declaration" => Kind::Method,
                "lambda_expression" => Kind::Lambda,
                "field_declaration" => Kind::Field,
                "local_variable_declaration" => Kind::Local,
                "resource" => Kind::Resource,
                "block" => Kind::Block,
                "catch_clause" => Kind::Catch,
                "try_statement" => Kind::Try,
                "enhanced_for_statement" => Kind::ForEach,
                "for_statement" | "while_statement" | "do_statement" => Kind::Loop,
                "if_statement" | "ternary_expression" => Kind::Guard,
                "binary_expression" => Kind::Logical,
                "method_invocation" => Kind::Invocation,
                "method_reference" => Kind::MethodRef,
                "assignment_expression" => Kind::Assign,
                "return_statement" => Kind::Return,
                // Nothing inside runs: names, types, constants (annotations hold only
                // constants; `Names` reads the imports, `annotations` the modifiers).
                "import_declaration"
                | "package_declaration"
                | "modifiers"
                | "string_literal"
                | "generic_type"
                | "scoped_type_identifier"
                | "array_type"
                | "type_arguments"
                | "type_parameters"
                | "dimensions"
                | "throws"
                | "superclass"
                | "super_interfaces"
                | "extends_interfaces" => Kind::Leaf,
                _ => Kind::Other,
            })
            .collect()
    });
    if node.child_count() == 0 {
        return Kind::Leaf;
    }
    table
        .get(node.kind_id() as usize)
        .copied()
        .unwrap_or(Kind::Other)
}

/// The method declaration a node is written in, unless a lambda or a class body of
/// its own comes first (`return` in a lambda returns from the lambda).
pub(super) fn enclosing_method(n: Node) -> Option<Node> {
    enclosing_member(n, "method_declaration")
}

/// The constructor a node is written in, under the same terms as [`enclosing_method`].
pub(super) fn enclosing_constructor(n: Node) -> Option<Node> {
    enclosing_member(n, "constructor_declaration")
}

fn enclosing_member<'t>(mut n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    while n.kind_name() != kind {
        if matches!(n.kind_name(), "lambda_expression" | "class_body") {
            return None;
        }
        n = n.parent()?;
    }
    Some(n)
}

/// The arguments a call or creation passes (none when it has no argument list).
pub(super) fn call_args(call: Node) -> Vec<Node> {
    call.field("arguments").map(arguments).unwrap_or_default()
}

/// A node's named children, in order.
pub(super) fn named_children(node: Node) -> Vec<Node> {
    let mut c = node.walk();
    let children = node.named_children(&mut c).collect();
    children
}

/// The outermost node around `node` made only of these kinds (`(T) (x)` around `x`
/// for casts and parentheses), or `node` itself. A ternary counts only around one of
/// its branches (`c ? x : y` around `x`), whose value it may be, not its condition.
pub(super) fn outermost<'t>(mut node: Node<'t>, kinds: &[&str]) -> Node<'t> {
    while let Some(p) = node.parent().filter(|p| {
        kinds.contains(&p.kind_name())
            && (p.kind_name() != "ternary_expression" || p.field("condition") != Some(node))
    }) {
        node = p;
    }
    node
}

/// The expression inside casts and parentheses (`(Callable<Void>) () -> { .. }`: the
/// lambda, whose cast only picks the overload).
pub(super) fn uncast(mut node: Node) -> Node {
    while matches!(
        node.kind_name(),
        "cast_expression" | "parenthesized_expression"
    ) {
        match node.field("value").or_else(|| node.named_child(0)) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// The class body of an anonymous class's creation (`new Callable<V>() { .. }`).
pub fn anonymous_body(creation: Node) -> Option<Node> {
    let mut c = creation.walk();
    let body = creation
        .named_children(&mut c)
        .find(|ch| ch.kind_name() == "class_body");
    body
}

/// Whether an argument is a callback that takes arguments: a lambda with
/// parameters, or an anonymous class none of whose methods is parameterless.
pub(super) fn takes_arguments(arg: Node) -> bool {
    let arg = uncast(arg);
    match arg.kind_name() {
        "lambda_expression" => arg
            .field("parameters")
            .is_some_and(|p| p.kind_name() == "identifier" || p.named_child_count() > 0),
        "object_creation_expression" => anonymous_body(arg).is_some_and(|body| {
            let methods: Vec<Node> = named_children(body)
                .into_iter()
                .filter(|m| m.kind_name() == "method_declaration")
                .collect();
            !methods.is_empty() && methods.iter().all(|m| !formal_params(*m).is_empty())
        }),
        _ => false,
    }
}

/// A method declaration's formal parameters, in order.
pub(super) fn formal_params(method: Node) -> Vec<Node> {
    let Some(ps) = method.field("parameters") else {
        return Vec::new();
    };
    let mut c = ps.walk();
    let params = ps
        .named_children(&mut c)
        .filter(|p| p.kind_name() == "formal_parameter")
        .collect();
    params
}

/// Whether `name` at `ident` names a local or a parameter (declared before it in an
/// enclosing block, method, lambda, loop, `catch` or `try` resource) rather than a field
/// of the class: `KerberosRestTemplate rest = ..; rest.delete(uri)` next to a field `rest`.
pub(super) fn names_local(ident: Node, name: &str, src: &str) -> bool {
    let declares = |d: Node| d.field("name").is_some_and(|v| text(v, src) == name);
    let mut child = ident;
    while let Some(a) = child.parent() {
        if a.kind_name() == "class_body" {
            return false;
        }
        if a.kind_name() == "enhanced_for_statement" && declares(a) {
            return true;
        }
        let lambda = a.kind_name() == "lambda_expression";
        let found = named_children(a)
            .into_iter()
            .take_while(|c| c.start_byte() < child.start_byte())
            .any(|c| match c.kind_name() {
                "local_variable_declaration" => named_children(c)
                    .into_iter()
                    .any(|d| d.kind_name() == "variable_declarator" && declares(d)),
                "formal_parameters" | "resource_specification" => named_children(c)
                    .into_iter()
                    .any(|p| declares(p) || named_children(p).into_iter().any(declares)),
                // A lambda's untyped parameters: `(a, b) ->`, `a ->`.
                "inferred_parameters" => {
                    named_children(c).into_iter().any(|q| text(q, src) == name)
                }
                "identifier" => lambda && text(c, src) == name,
                "catch_formal_parameter" | "resource" => declares(c),
                _ => false,
            });
        if found {
            return true;
        }
        child = a;
    }
    false
}

/// Calls by which a task answers whoever waits for it (`result.set(v)`,
/// `deferred.setResult(v)`, `async.resume(v)`, `latch.countDown()`).
const ANSWERS: &[&str] = &[
    "set",
    "setException",
    "complete",
    "completeExceptionally",
    "setResult",
    "setErrorResult",
    "resume",
    "countDown",
    "release",
];

/// A call that is a statement of its own (its result dropped), with no loop or lambda
/// between it and its method, whose arguments answer no one (`pool.execute(() ->
/// result.set(v))` answers the caller of `result`): `pool.execute(task);` runs once per
/// call of the method, and nothing waits for it.
pub(super) fn detached_statement(call: Node, src: &str) -> bool {
    if call
        .parent()
        .is_none_or(|p| p.kind_name() != "expression_statement")
    {
        return false;
    }
    let answers = call.field("arguments").is_some_and(|args| {
        any_node(args, |n| {
            let name = match n.kind_name() {
                "method_invocation" => n.field("name"),
                // `flushed::countDown`
                "method_reference" => n.named_child(n.named_child_count().saturating_sub(1) as u32),
                _ => None,
            };
            name.is_some_and(|m| ANSWERS.contains(&text(m, src)))
        })
    });
    if answers {
        return false;
    }
    let mut cur = call;
    while let Some(p) = cur.parent() {
        match p.kind_name() {
            "method_declaration" | "constructor_declaration" => return true,
            k if REPEATING.contains(&k) || k == "static_initializer" => return false,
            _ => cur = p,
        }
    }
    false
}

/// Nodes whose code may run more than once per run of what encloses them: loops,
/// lambdas, and class bodies (an anonymous class's methods).
pub(super) const REPEATING: &[&str] = &[
    "for_statement",
    "enhanced_for_statement",
    "while_statement",
    "do_statement",
    "lambda_expression",
    "class_body",
];

#[cfg(test)]
mod tests {
    use super::short;

    #[test]
    fn long_code_keeps_its_calls() {
        assert_eq!(
            short(r#"new URL("http://geo.example.com/json?ip=" + ip).openConnection()"#),
            "new URL(..).openConnection()"
        );
        assert_eq!(
            short("HttpClient.newBuilder()\n    .version(HttpClient.Version.HTTP_2).build()"),
            "HttpClient.newBuilder().version(..).build()"
        );
        // A parenthesis in a string is no argument list.
        assert_eq!(
            short(
                r#"HttpRequest.post(base + "/hooks/(team)/" + channelIdentifierForTheAlert).timeout(t)"#
            ),
            "HttpRequest.post(..).timeout(..)"
        );
        // Still too long with every argument elided: cut at the first call.
        assert_eq!(
            short("RestTemplates.defaultBuilder(x).setConnectTimeout(d).setReadTimeout(d).setUriTemplateHandler(h).build()"),
            "RestTemplates.defaultBuilder(..)"
        );
    }
}
