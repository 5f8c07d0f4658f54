//! The syntax tree as one array, copied from tree-sitter's tree in one cursor walk.
//!
//! The extractor asks each node for its parent, children and fields many times;
//! tree-sitter answers each by walking the tree again (`parent()` descends from the
//! root), which cost more than the parse. Here each answer is an array index. The
//! node type has tree-sitter's method names and meanings (named and anonymous
//! children, fields, extras, errors), so the front end reads it as it read the tree.

use std::fmt;

use tree_sitter::{Point, Tree};

const NONE: u32 = u32::MAX;

const NAMED: u8 = 1;
const EXTRA: u8 = 2;
const ERROR: u8 = 4;
const MISSING: u8 = 8;
const HAS_ERROR: u8 = 16;

/// One visible node of the tree.
#[derive(Clone, Copy)]
struct Raw {
    kind: u16,
    /// The field this node is in its parent (0 for none).
    field: u16,
    flags: u8,
    start: u32,
    end: u32,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    prev_sibling: u32,
}

/// A file's tree, in pre-order.
pub struct Arena {
    nodes: Vec<Raw>,
    /// The byte offset of each line's start (rows and columns are found from bytes).
    lines: Vec<u32>,
}

/// Arrays kept up to this many nodes go back to their thread for the next file.
const KEEP_NODES: usize = 1 << 18;

thread_local! {
    /// The last dropped arena's arrays, so that each file does not fault in fresh
    /// pages for its own.
    static SPARE: std::cell::Cell<(Vec<Raw>, Vec<u32>)> =
        const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

impl Drop for Arena {
    fn drop(&mut self) {
        if self.nodes.capacity() <= KEEP_NODES {
            let mut nodes = std::mem::take(&mut self.nodes);
            let mut lines = std::mem::take(&mut self.lines);
            nodes.clear();
            lines.clear();
            SPARE.set((nodes, lines));
        }
    }
}

impl Arena {
    /// Copies `tree`'s visible nodes (named and anonymous) in one walk.
    pub fn new(tree: &Tree, src: &str) -> Arena {
        let (mut nodes, mut lines) = SPARE.take();
        lines.push(0);
        lines.extend(
            src.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        // About one node (anonymous ones too) for every 4 bytes of Java source.
        nodes.reserve(tree.root_node().end_byte() / 4 + 16);
        let mut cursor = tree.walk();
        // The open nodes from the root down, each with its last child so far.
        let mut open: Vec<(u32, u32)> = Vec::new();
        loop {
            let n = cursor.node();
            let kind = n.kind_id();
            let i = nodes.len() as u32;
            let (parent, prev) = open.last().copied().unwrap_or((NONE, NONE));
            let flags = [
                (n.is_named(), NAMED),
                (n.is_extra(), EXTRA),
                // tree-sitter's ERROR symbol (`is_error()` asks for the symbol again).
                (kind == u16::MAX, ERROR),
                (n.is_missing(), MISSING),
                (n.has_error(), HAS_ERROR),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .fold(0, |f, (_, bit)| f | bit);
            nodes.push(Raw {
                kind,
                field: cursor.field_id().map_or(0, |f| f.get()),
                flags,
                start: n.start_byte() as u32,
                end: n.end_byte() as u32,
                parent,
                first_child: NONE,
                next_sibling: NONE,
                prev_sibling: prev,
            });
            if let Some(top) = open.last_mut() {
                top.1 = i;
                let p = &mut nodes[parent as usize];
                if prev == NONE {
                    p.first_child = i;
                }
                if prev != NONE {
                    nodes[prev as usize].next_sibling = i;
                }
            }
            if cursor.goto_first_child() {
                open.push((i, NONE));
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return Arena { nodes, lines };
                }
                open.pop();
            }
        }
    }

    fn point(&self, byte: u32) -> Point {
        let row = self.lines.partition_point(|&l| l <= byte).saturating_sub(1);
        Point::new(row, (byte - self.lines[row]) as usize)
    }

    pub fn root(&self) -> Node<'_> {
        Node { arena: self, i: 0 }
    }
}

/// A node of an [`Arena`].
#[derive(Clone, Copy)]
pub struct Node<'t> {
    arena: &'t Arena,
    i: u32,
}

impl PartialEq for Node<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.i == other.i && std::ptr::eq(self.arena, other.arena)
    }
}

impl Eq for Node<'_> {}

impl std::hash::Hash for Node<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.i.hash(state);
    }
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{{Node {} {}..{}}}",
            super::syntax::NodeExt::kind_name(self),
            self.start_byte(),
            self.end_byte()
        )
    }
}

/// Stands in for tree-sitter's cursor in `node.named_children(&mut node.walk())`:
/// stepping through siblings needs no cursor here.
pub struct Cursor;

impl<'t> Node<'t> {
    fn raw(&self) -> &'t Raw {
        &self.arena.nodes[self.i as usize]
    }

    fn at(&self, i: u32) -> Option<Node<'t>> {
        (i != NONE).then_some(Node {
            arena: self.arena,
            i,
        })
    }

    /// The node's place in the file's tree, unique within the file.
    pub fn id(&self) -> usize {
        self.i as usize
    }

    pub fn kind_id(&self) -> u16 {
        self.raw().kind
    }

    pub fn is_named(&self) -> bool {
        self.raw().flags & NAMED != 0
    }

    pub fn is_extra(&self) -> bool {
        self.raw().flags & EXTRA != 0
    }

    pub fn is_error(&self) -> bool {
        self.raw().flags & ERROR != 0
    }

    pub fn is_missing(&self) -> bool {
        self.raw().flags & MISSING != 0
    }

    pub fn has_error(&self) -> bool {
        self.raw().flags & HAS_ERROR != 0
    }

    pub fn start_byte(&self) -> usize {
        self.raw().start as usize
    }

    pub fn end_byte(&self) -> usize {
        self.raw().end as usize
    }

    /// Row and byte column, as tree-sitter counts them.
    pub fn start_position(&self) -> Point {
        self.arena.point(self.raw().start)
    }

    pub fn end_position(&self) -> Point {
        self.arena.point(self.raw().end)
    }

    pub fn parent(&self) -> Option<Node<'t>> {
        self.at(self.raw().parent)
    }

    pub fn walk(&self) -> Cursor {
        Cursor
    }

    /// All children, named and anonymous, extras included.
    pub fn children(&self, _: &mut Cursor) -> Siblings<'t> {
        Siblings {
            next: self.at(self.raw().first_child),
        }
    }

    /// The named children, extras (comments) included.
    pub fn named_children(&self, c: &mut Cursor) -> impl Iterator<Item = Node<'t>> + use<'t> {
        self.children(c).filter(Node::is_named)
    }

    pub fn child_count(&self) -> usize {
        self.children(&mut Cursor).count()
    }

    pub fn named_child_count(&self) -> usize {
        self.named_children(&mut Cursor).count()
    }

    pub fn child(&self, i: u32) -> Option<Node<'t>> {
        self.children(&mut Cursor).nth(i as usize)
    }

    pub fn named_child(&self, i: u32) -> Option<Node<'t>> {
        self.named_children(&mut Cursor).nth(i as usize)
    }

    pub fn kind(&self) -> &'static str {
        super::syntax::NodeExt::kind_name(self)
    }

    /// The first child in field `id`.
    pub fn child_by_field_id(&self, id: u16) -> Option<Node<'t>> {
        self.children(&mut Cursor).find(|c| c.raw().field == id)
    }

    pub fn child_by_field_name(&self, name: &str) -> Option<Node<'t>> {
        self.child_by_field_id(super::syntax::field_id(name)?)
    }

    /// Every child in field `name`.
    pub fn children_by_field_name(
        &self,
        name: &str,
        c: &mut Cursor,
    ) -> impl Iterator<Item = Node<'t>> + use<'t> {
        let id = super::syntax::field_id(name).unwrap_or(u16::MAX);
        self.children(c).filter(move |c| c.raw().field == id)
    }

    pub fn next_sibling(&self) -> Option<Node<'t>> {
        self.at(self.raw().next_sibling)
    }

    pub fn next_named_sibling(&self) -> Option<Node<'t>> {
        let mut n = self.next_sibling();
        while let Some(s) = n.filter(|s| !s.is_named()) {
            n = s.next_sibling();
        }
        n
    }

    pub fn prev_named_sibling(&self) -> Option<Node<'t>> {
        let mut n = self.at(self.raw().prev_sibling);
        while let Some(s) = n.filter(|s| !s.is_named()) {
            n = self.at(s.raw().prev_sibling);
        }
        n
    }

    /// The smallest node at or below this one that spans `start..end`, as
    /// tree-sitter finds it (anonymous nodes included).
    pub fn descendant_for_byte_range(&self, start: usize, end: usize) -> Option<Node<'t>> {
        if start > end {
            return None;
        }
        let mut node = *self;
        'down: loop {
            for child in node.children(&mut Cursor) {
                let (s, e) = (child.start_byte(), child.end_byte());
                if e < end {
                    continue;
                }
                let empty = s == e;
                if if empty { e < start } else { e <= start } {
                    continue;
                }
                if start < s {
                    break;
                }
                node = child;
                continue 'down;
            }
            return Some(node);
        }
    }
}

/// Children of a node in order.
pub struct Siblings<'t> {
    next: Option<Node<'t>>,
}

impl<'t> Iterator for Siblings<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        let n = self.next?;
        self.next = n.next_sibling();
        Some(n)
    }
}
