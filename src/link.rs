//! Cross-file linking: runs once, after the parallel per-file phase, and gives
//! rules one view of the whole scan.

use crate::facts::FileFacts;
use crate::source::{FileId, SourceFile};

/// All files of a run with their facts, indexed by [`FileId`].
pub struct Project<'a> {
    pub files: &'a [SourceFile],
    pub facts: &'a [FileFacts],
}

impl<'a> Project<'a> {
    pub fn new(files: &'a [SourceFile], facts: &'a [FileFacts]) -> Project<'a> {
        Project { files, facts }
    }

    /// Every file with its facts.
    pub fn each(&self) -> impl Iterator<Item = (FileId, &'a SourceFile, &'a FileFacts)> {
        self.files
            .iter()
            .zip(self.facts)
            .enumerate()
            .map(|(i, (s, f))| (i, s, f))
    }
}
