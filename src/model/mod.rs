//! The project model, built once after the per-file phase: the type hierarchy,
//! the call graph across files, and the execution context (hot, cold, unknown) of
//! every method and task body. Rules read it through [`crate::link::Project`].

pub mod calls;
pub mod dump;
pub mod heat;
pub mod types;

use crate::facts::FileFacts;
use crate::source::SourceFile;

pub use calls::{CallGraph, Edge, Node};
pub use heat::{Heats, Step};
pub use types::Types;

/// Types, calls and heats of one run.
#[derive(Debug, Default)]
pub struct Model {
    pub types: Types,
    pub calls: CallGraph,
    pub heats: Heats,
}

impl Model {
    pub fn new(files: &[SourceFile], facts: &[FileFacts]) -> Model {
        let types = Types::new(facts);
        let calls = CallGraph::new(files, facts, &types);
        let heats = Heats::new(facts, &calls);
        Model {
            types,
            calls,
            heats,
        }
    }
}
