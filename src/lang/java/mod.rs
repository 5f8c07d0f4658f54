//! The Java front end: tree-sitter-java parses the file (error-tolerant), one
//! walk extracts facts. Files with syntax errors are analysed around the error
//! nodes and the first error is reported.

mod annotations;
mod calls;
mod class_index;
mod clients;
mod eval;
mod extract;
mod flow;
mod pools;
mod queues;
mod resolve;
mod syntax;
mod tree;
mod types;

use std::cell::RefCell;

use tree_sitter::{Parser, Tree};

use tree::Node;

use super::{ExtractOptions, Frontend};
use crate::facts::FileFacts;
use crate::source::SourceFile;
use syntax::NodeExt;

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

/// A task that calls a method of its own class that loops until stopped
/// (`pool.submit(() -> pollLoop(consumer))`, or an anonymous `Callable` whose `call()`
/// runs it) is a dedicated loop too.
fn dedicated_tasks(facts: &mut FileFacts) {
    use crate::facts::CtxKind;
    let looping: Vec<(&str, Option<&str>)> = facts
        .contexts
        .iter()
        .filter(|c| c.kind == CtxKind::Function && c.dedicated_loop)
        .map(|c| (c.name.rsplit('.').next().unwrap_or(""), c.owner.as_deref()))
        .collect();
    if looping.is_empty() {
        return;
    }
    let task_of = |ctx: usize| {
        let c = facts.contexts.get(ctx)?;
        if matches!(c.kind, CtxKind::PoolTask(_)) {
            return Some(ctx);
        }
        // A method of an anonymous task class (`call()`, `run()`).
        let p = c.parent?;
        matches!(facts.contexts.get(p)?.kind, CtxKind::PoolTask(_)).then_some(p)
    };
    let mut tasks: Vec<usize> = Vec::new();
    // Unqualified or `this.` calls only (no receiver of another type).
    for call in facts.calls.iter().filter(|c| c.target.is_none()) {
        let Some(t) = task_of(call.ctx) else { continue };
        let owner = facts.contexts[t].owner.as_deref();
        // The method's class is the task's, or encloses it (an anonymous task class).
        let encloses = |o: Option<&str>| match (o, owner) {
            (Some(o), Some(w)) => w
                .strip_prefix(o)
                .is_some_and(|r| r.is_empty() || r.starts_with('.')),
            (None, None) => true,
            _ => false,
        };
        if looping
            .iter()
            .any(|(m, o)| *m == &*call.method && encloses(*o))
        {
            tasks.push(t);
        }
    }
    for t in tasks {
        facts.contexts[t].dedicated_loop = true;
    }
}

impl Frontend for JavaFrontend {
    fn extract(&self, file: &SourceFile, opts: &ExtractOptions) -> Result<FileFacts, String> {
        let src = file.text.as_str();
        let tree = parse(src)?;
        let arena = tree::Arena::new(&tree, src);
        drop(tree);
        let root = arena.root();
        let mut x = extract::Extractor::new(root, src, opts.catalog);
        x.module_entry = module_entry(&file.path, opts.catalog);
        x.facts.binary = x.module_entry.is_some();
        x.walk(root);
        // Calls outside any class (a class header the parser could not read) belong
        // to a context of their own: every call, wait and submission names one.
        if x.facts.contexts.is_empty() {
            x.push_ctx(crate::facts::CtxKind::Function, "<file>".into(), root, root);
        }
        let mut facts = x.facts;
        facts.returns.sort_unstable_by_key(|(c, _)| *c);
        facts.ret_types.sort_unstable_by_key(|(c, _)| *c);
        facts.param_types.sort_unstable_by_key(|(c, _)| *c);
        facts.arg_types.sort_unstable_by_key(|(c, _)| *c);
        dedicated_tasks(&mut facts);
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

/// The catalog's entry point with `module_words` whose words name the file's module:
/// the directory its last `src/` is in (`titus-cli/src/main/java/..`), split at `-`,
/// `_` and `.`.
fn module_entry(path: &std::path::Path, catalog: &crate::catalog::Indexed) -> Option<usize> {
    let dirs: Vec<&str> = path
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    let src = dirs.iter().rposition(|c| *c == "src")?;
    let module = dirs.get(src.checked_sub(1)?)?;
    catalog.data.entry_points.iter().position(|e| {
        module
            .split(['-', '_', '.'])
            .any(|w| e.module_words.iter().any(|m| w.eq_ignore_ascii_case(m)))
    })
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
        && n.parent()
            .is_some_and(|p| p.kind_name() == "formal_parameters")
        && t.contains('@')
        && t.contains("...")
}
