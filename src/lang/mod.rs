//! Language front ends: each parses one file and lowers it to [`FileFacts`].
//!
//! Adding a language is adding a [`Frontend`]; nothing downstream of the facts
//! knows which language a fact came from.

use crate::catalog::Indexed;
use crate::facts::FileFacts;
use crate::source::{Language, SourceFile};

pub mod clients;
pub mod java;
pub mod rust;

/// Whether a loop condition is named for the component's lifecycle (`running`,
/// `!stopped`, `isAlive()`, `shutdown`), not for the work (`more`, `i < n`): a loop
/// that runs until the component stops.
pub fn names_lifecycle(condition: &str) -> bool {
    const LIFECYCLE: [&str; 10] = [
        "run",
        "active",
        "alive",
        "close",
        "stop",
        "shut",
        "start",
        "live",
        "interrupt",
        "terminat",
    ];
    let t = condition.to_ascii_lowercase();
    LIFECYCLE.iter().any(|w| t.contains(w))
}

/// The identifier that ends right before byte `at` of `text`, blanks between allowed
/// (`queue` in `queue =`, `CLIENT` in `CLIENT .get(..)`): for byte scans that spare
/// walking a tree. `extra`: bytes an identifier holds besides ASCII letters, digits
/// and `_` (Java's `$`).
pub fn name_before<'t>(text: &'t [u8], at: usize, extra: &[u8]) -> &'t [u8] {
    let end = text[..at]
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |e| e + 1);
    let start = text[..end]
        .iter()
        .rposition(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || extra.contains(&b)))
        .map_or(0, |s| s + 1);
    &text[start..end]
}

/// What a front end needs besides the file.
pub struct ExtractOptions<'a> {
    pub catalog: &'a Indexed,
    /// Also analyse test items (`#[cfg(test)]`, `#[test]`).
    pub include_tests: bool,
}

/// A language adapter: source text in, facts out.
pub trait Frontend: Sync {
    /// Parse and extract. `Err` means nothing could be analysed (the message says why);
    /// partial problems go to `FileFacts::errors`.
    fn extract(&self, file: &SourceFile, opts: &ExtractOptions) -> Result<FileFacts, String>;

    /// Parse only, for the benchmark baseline. Returns whether the parse succeeded.
    fn parse_only(&self, text: &str) -> bool;
}

/// The front end for a language.
pub fn frontend(language: Language) -> &'static dyn Frontend {
    match language {
        Language::Java => &java::JavaFrontend,
        Language::Rust => &rust::RustFrontend,
    }
}
