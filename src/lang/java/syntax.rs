//! Small helpers over tree-sitter-java nodes.

use std::collections::HashMap;
use std::sync::OnceLock;

use tree_sitter::Node;

use crate::source::Span;

pub fn text<'s>(node: Node, src: &'s [u8]) -> &'s str {
    // The source is a `String`: skip re-validating UTF-8 when the slice is on char
    // boundaries (tree-sitter tokens always are).
    let bytes = &src[node.start_byte().min(src.len())..node.end_byte().min(src.len())];
    std::str::from_utf8(bytes).unwrap_or("")
}

/// Field ids of the Java grammar by name, looked up once (tree-sitter's own lookup
/// compares names one by one on every call).
fn field_id(name: &str) -> Option<u16> {
    static IDS: OnceLock<HashMap<String, u16>> = OnceLock::new();
    IDS.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
        (1..=lang.field_count() as u16)
            .filter_map(|i| lang.field_name_for_id(i).map(|n| (n.to_string(), i)))
            .collect()
    })
    .get(name)
    .copied()
}

pub fn span(node: Node) -> Span {
    Span::new(node.start_byte(), node.end_byte())
}

pub trait NodeExt<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>>;
}

impl<'t> NodeExt<'t> for Node<'t> {
    fn field(&self, name: &str) -> Option<Node<'t>> {
        self.child_by_field_id(field_id(name)?)
    }
}

/// A type as written, without type arguments or annotations:
/// `LinkedBlockingQueue<Runnable>` -> `LinkedBlockingQueue`.
pub fn type_name(node: Node, src: &[u8]) -> String {
    match node.kind() {
        "generic_type" => node
            .named_child(0)
            .map(|n| type_name(n, src))
            .unwrap_or_default(),
        "scoped_type_identifier" => {
            let mut parts = Vec::new();
            let mut cursor = node.walk();
            for c in node.named_children(&mut cursor) {
                match c.kind() {
                    "type_identifier" | "scoped_type_identifier" | "generic_type" => {
                        parts.push(type_name(c, src))
                    }
                    _ => {}
                }
            }
            parts.join(".")
        }
        _ => text(node, src)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect(),
    }
}

/// Source text for a message: whitespace collapsed, long argument lists elided.
pub fn short(code: &str) -> String {
    let collapsed = code.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= 60 {
        return collapsed;
    }
    match collapsed.find('(') {
        Some(i) if i < 56 => format!("{}(..)", &collapsed[..i]),
        _ => format!("{}..", collapsed.chars().take(57).collect::<String>()),
    }
}

/// The string value of a string literal node (quotes removed, no escapes processed).
pub fn string_value(node: Node, src: &[u8]) -> String {
    let t = text(node, src);
    t.trim_start_matches("\"\"\"")
        .trim_end_matches("\"\"\"")
        .trim_matches('"')
        .to_string()
}
