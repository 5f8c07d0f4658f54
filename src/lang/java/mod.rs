//! The Java front end: tree-sitter-java parses the file (error-tolerant), one
//! walk extracts facts. Files with syntax errors are analysed around the error
//! nodes and the first error is reported.

mod annotations;
mod calls;
mod clients;
mod eval;
mod extract;
mod flow;
mod pools;
mod queues;
mod resolve;
mod syntax;
mod types;

use std::cell::RefCell;

use tree_sitter::{Node, Parser, Tree};

use super::{ExtractOptions, Frontend};
use crate::facts::FileFacts;
use crate::source::SourceFile;

pub struct JavaFrontend;

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

fn parse(text: &str) -> Result<Tree, String> {
    PARSER.with(|p| {
        let mut slot = p.borrow_mut();
        if slot.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_java::LANGUAGE.into())
                .map_err(|e| format!("cannot load the Java grammar: {e}"))?;
            *slot = Some(parser);
        }
        let parser = slot.as_mut().expect("parser initialised above");
        parser
            .parse(text, None)
            .ok_or_else(|| "could not parse: the parser gave up".to_string())
    })
}

impl Frontend for JavaFrontend {
    fn extract(&self, file: &SourceFile, opts: &ExtractOptions) -> Result<FileFacts, String> {
        let tree = parse(&file.text)?;
        let root = tree.root_node();
        let src = file.text.as_str();
        let mut x = extract::Extractor::new(root, src, opts.catalog);
        x.walk(root);
        let mut facts = x.facts;
        if root.has_error() {
            if let Some(err) = first_error(root, src) {
                let pos = err.start_position();
                facts.errors.push(format!(
                    "syntax error at line {}, column {}; analysed the rest of the file",
                    pos.row + 1,
                    pos.column + 1
                ));
            }
        }
        Ok(facts)
    }

    fn parse_only(&self, text: &str) -> bool {
        parse(text).is_ok()
    }
}

/// The first error or missing node, skipping the grammar's known false error on
/// annotated varargs (`String @Nullable ... args`), which is valid Java.
fn first_error<'t>(root: Node<'t>, src: &str) -> Option<Node<'t>> {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            if !is_annotated_varargs(n, src) {
                return Some(n);
            }
            continue;
        }
        if n.has_error() {
            let mut cursor = n.walk();
            let children: Vec<Node> = n.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
    }
    None
}

fn is_annotated_varargs(n: Node, src: &str) -> bool {
    let t = syntax::text(n, src);
    n.is_error()
        && n.parent().is_some_and(|p| p.kind() == "formal_parameters")
        && t.contains('@')
        && t.contains("...")
}
