//! A class body's named nodes, listed in one walk (pre-order, with where each
//! subtree ends), for the checks that scan a class body again and again (once per
//! queue, client or field it holds): stepping through a list costs a fraction of
//! walking the tree with cursors each time.

use tree_sitter::Node;

use super::extract::Extractor;
use super::syntax::NodeExt;

pub(super) struct Flat<'t> {
    nodes: Vec<Node<'t>>,
    /// One past the last node of each node's subtree.
    ends: Vec<u32>,
    /// Each node's start byte (ascending, as pre-order lists them): a node is found by
    /// its start, then its id among the nodes that start there.
    starts: Vec<u32>,
}

impl<'t> Flat<'t> {
    fn new(root: Node<'t>) -> Self {
        let mut flat = Flat {
            nodes: Vec::new(),
            ends: Vec::new(),
            starts: Vec::new(),
        };
        let mut cursor = root.walk();
        // The index of each node on the way down (`u32::MAX` for anonymous ones).
        let mut open: Vec<u32> = Vec::new();
        loop {
            let n = cursor.node();
            if n.is_named() {
                let i = flat.nodes.len() as u32;
                flat.starts.push(n.start_byte() as u32);
                flat.nodes.push(n);
                flat.ends.push(0);
                open.push(i);
            } else {
                open.push(u32::MAX);
            }
            if cursor.goto_first_child() {
                continue;
            }
            // Close this node and every ancestor that has no next sibling.
            loop {
                if let Some(i) = open.pop().filter(|i| *i != u32::MAX) {
                    flat.ends[i as usize] = flat.nodes.len() as u32;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return flat;
                }
            }
        }
    }

    /// The index of `node` in the list.
    fn index(&self, node: Node) -> Option<u32> {
        let start = u32::try_from(node.start_byte()).ok()?;
        let first = self.starts.partition_point(|s| *s < start);
        (first..self.nodes.len())
            .take_while(|i| self.starts[*i] == start)
            .find(|i| self.nodes[*i].id() == node.id())
            .map(|i| i as u32)
    }

    /// Visits `node` and the named nodes below it in the order of a stack walk that
    /// pushes each node's named children (the last child first), skipping the nodes
    /// below any for which `f` returns false.
    fn visit<'s>(&self, node: Node<'s>, mut f: impl FnMut(Node<'s>) -> bool)
    where
        't: 's,
    {
        let Some(start) = self.index(node) else {
            // Not a node of this list (never expected): walk it.
            return walk(node, f);
        };
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            if !f(self.nodes[i as usize]) {
                continue;
            }
            let mut child = i + 1;
            while child < self.ends[i as usize] {
                stack.push(child);
                child = self.ends[child as usize];
            }
        }
    }
}

/// The stack walk [`Flat::visit`] stands in for, on the tree itself.
fn walk<'t>(node: Node<'t>, mut f: impl FnMut(Node<'t>) -> bool) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if f(n) {
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
}

impl<'a> Extractor<'a> {
    /// `node` and every named node below it, in the order of a stack walk that pushes
    /// each node's named children (the last child first); `f` returns false to skip
    /// what is below a node. A class body is listed once, on first use, and stepped
    /// through after that; anything else is walked.
    pub(super) fn each_below<'t>(&self, node: Node<'t>, mut f: impl FnMut(Node<'t>) -> bool)
    where
        'a: 't,
    {
        if node.kind_name() != "class_body" {
            return walk(node, f);
        }
        // (Taken out of the table: `f` may list another class body.)
        let flat = self
            .flats
            .borrow_mut()
            .entry(node.id())
            .or_insert_with(|| std::rc::Rc::new(Flat::new(self.descendant(node))))
            .clone();
        flat.visit(node, &mut f);
    }

    /// The node of this file's tree at `node`'s place (the same node, with the
    /// extractor's lifetime).
    fn descendant(&self, node: Node) -> Node<'a> {
        self.root
            .descendant_for_byte_range(node.start_byte(), node.end_byte())
            .and_then(|mut d| {
                // The outermost node of that range of that kind.
                while d.id() != node.id() {
                    d = d.parent()?;
                }
                Some(d)
            })
            .unwrap_or(self.root)
    }
}
