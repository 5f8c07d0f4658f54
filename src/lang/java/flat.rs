//! Walks below a node, for the checks that scan a class body again and again (once
//! per queue, client or field it holds).

use super::extract::Extractor;
use super::tree::Node;

impl<'a> Extractor<'a> {
    /// `node` and every named node below it, in the order of a stack walk that pushes
    /// each node's named children (the last child first); `f` returns false to skip
    /// what is below a node.
    pub(super) fn each_below<'t>(&self, node: Node<'t>, mut f: impl FnMut(Node<'t>) -> bool)
    where
        'a: 't,
    {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if f(n) {
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
        }
    }
}
