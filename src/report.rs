//! What a run produces: findings, files, errors; and one file's per-file result.

use crate::diagnostic::Diagnostic;
use crate::diagnostic::Level;
use crate::facts::FileFacts;
use crate::root::ProjectRoot;
use crate::source::SourceFile;
use crate::walk::Skipped;

/// A file that could not be (fully) read or analysed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileError {
    pub path: String,
    pub message: String,
}

/// The outcome of a run.
#[derive(Debug)]
pub struct Report {
    pub files: Vec<SourceFile>,
    pub diagnostics: Vec<Diagnostic>,
    pub errors: Vec<FileError>,
    /// Files analysed (read and parsed, even partially).
    pub files_checked: usize,
    pub elapsed_ms: u128,
    /// What every path in the report is relative to.
    pub root: ProjectRoot,
    /// Paths under the requested ones that were skipped on purpose, and why.
    pub skipped: Vec<Skipped>,
    /// The facts of every file, by [`crate::source::FileId`] (kept so that a caller
    /// that is about to exit can skip freeing them).
    pub facts: Vec<FileFacts>,
    /// `debug model`'s output, when asked for.
    pub model_dump: Option<String>,
    /// Requested files skipped as generated code.
    pub skipped_generated: usize,
}

impl Report {
    /// Exit status per `cli.md`: 1 when any finding is at `fail_level` or above.
    pub fn has_findings(&self, fail_level: Level) -> bool {
        self.diagnostics.iter().any(|d| d.level >= fail_level)
    }
}

/// One file after the per-file phase.
pub(crate) struct Analysed {
    /// Boxed: the run holds every file's `Analysed` while it gathers them, and a
    /// `FileFacts` inline made that vector as large again as the facts' own records.
    pub(crate) file: Option<Box<(SourceFile, FileFacts)>>,
    pub(crate) errors: Vec<FileError>,
    /// Skipped as generated code.
    pub(crate) generated: bool,
    /// Skipped as test code found by reading it (a JUnit rule under `src/main`).
    pub(crate) test_code: bool,
}

impl Analysed {
    /// A file that could not be analysed, with why.
    pub(crate) fn failed(path: &str, message: String) -> Analysed {
        Analysed {
            generated: false,
            test_code: false,
            file: None,
            errors: vec![FileError {
                path: path.to_string(),
                message,
            }],
        }
    }
}
