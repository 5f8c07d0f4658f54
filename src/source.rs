//! Source files, byte spans and the conversions every output format needs.
//!
//! The engine keeps byte offsets; each format converts to its own column unit
//! (Unicode scalar values for human/JSON, UTF-16 code units for SARIF, UTF-8
//! bytes for rdjson).

use std::path::PathBuf;

/// Index of a file in the sorted file table of one run.
pub type FileId = usize;

/// A half-open byte range `start..end` in one file.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub fn contains(&self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }
}

/// A span in a given file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    pub file: FileId,
    pub span: Span,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Java,
    Rust,
}

impl Language {
    pub fn from_path(path: &std::path::Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "java" => Some(Language::Java),
            "rs" => Some(Language::Rust),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Language::Java => "java",
            Language::Rust => "rust",
        }
    }
}

/// One source file's text with a line index.
#[derive(Debug)]
pub struct SourceFile {
    /// Path as given to the walker (used to read the file).
    pub path: PathBuf,
    /// Path as shown to users: relative to the project root when under it, `/` separators.
    pub display: String,
    pub language: Language,
    /// The text; emptied after analysis for files no finding refers to (see
    /// [`SourceFile::release_text`] / [`SourceFile::reload_text`]).
    pub text: String,
    line_starts: Vec<u32>,
    /// Hash of the analysed text: a reload must give the same text.
    digest: u64,
}

/// A 1-based line and column in a chosen unit, plus the byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
    pub offset: usize,
}

/// The unit a format counts columns in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnUnit {
    Chars,
    Utf16,
    Bytes,
}

impl SourceFile {
    pub fn new(path: PathBuf, display: String, language: Language, text: String) -> SourceFile {
        let line_starts = line_starts(&text);
        let digest = xxhash_rust::xxh3::xxh3_64(text.as_bytes());
        SourceFile {
            path,
            display,
            language,
            text,
            line_starts,
            digest,
        }
    }

    /// A file as the record cache restores it: line index and digest, no text.
    pub fn from_index(
        path: PathBuf,
        display: String,
        language: Language,
        line_starts: Vec<u32>,
        digest: u64,
    ) -> SourceFile {
        SourceFile {
            path,
            display,
            language,
            text: String::new(),
            line_starts,
            digest,
        }
    }

    /// The line index and digest, which the record cache keeps.
    pub fn index(&self) -> (&[u32], u64) {
        (&self.line_starts, self.digest)
    }

    /// Byte offset where each line starts.
    pub fn line_start(&self, index: usize) -> Option<usize> {
        self.line_starts.get(index).map(|&s| s as usize)
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 0-based line index of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        let offset = u32::try_from(offset).unwrap_or(u32::MAX);
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// Free the text (the line index stays): most files have no finding to show.
    pub fn release_text(&mut self) {
        self.text = String::new();
    }

    /// Free the line index too (a file with no suppression comment needs it only to
    /// show a finding): [`SourceFile::reload_text`] rebuilds it.
    pub fn release_lines(&mut self) {
        self.line_starts = Vec::new();
    }

    /// Read the text back for rendering. `Err` when the file changed (or went
    /// away) since it was analysed: its positions no longer fit, and the text
    /// stays empty.
    pub fn reload_text(&mut self) -> Result<(), String> {
        if !self.text.is_empty() {
            return Ok(());
        }
        let text = std::fs::read(&self.path).map_err(|e| format!("cannot read again: {e}"))?;
        if xxhash_rust::xxh3::xxh3_64(&text) != self.digest {
            return Err("changed while being checked; its findings are not shown".into());
        }
        self.text =
            String::from_utf8(text).map_err(|_| "changed while being checked".to_string())?;
        if self.line_starts.is_empty() {
            self.line_starts = line_starts(&self.text);
        }
        Ok(())
    }

    /// 1-based line number of a byte offset.
    pub fn line_number(&self, offset: usize) -> usize {
        self.line_index(offset) + 1
    }

    /// The text of a 1-based line, without its line ending.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_start(line - 1).unwrap_or(0).min(self.text.len());
        let end = self
            .line_start(line)
            .unwrap_or(self.text.len())
            .min(self.text.len());
        self.text
            .get(start..end.max(start))
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }

    /// Position of a byte offset, with the column counted in `unit` (1-based).
    pub fn position(&self, offset: usize, unit: ColumnUnit) -> Position {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line = self.line_index(offset);
        let start = self.floor_char_boundary(self.line_start(line).unwrap_or(0).min(offset));
        let prefix = &self.text[start..offset];
        let column = match unit {
            ColumnUnit::Chars => prefix.chars().count(),
            ColumnUnit::Utf16 => prefix.encode_utf16().count(),
            ColumnUnit::Bytes => prefix.len(),
        } + 1;
        Position {
            line: line + 1,
            column,
            offset,
        }
    }

    pub fn slice(&self, span: Span) -> &str {
        let start = self.floor_char_boundary(span.start.min(self.text.len()));
        let end = self.floor_char_boundary(span.end.min(self.text.len()));
        &self.text[start..end.max(start)]
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

/// Where each line starts: `\n`, `\r\n` and a lone `\r` each end a line. No spare
/// capacity: the indexes of the files with suppressions are kept for the whole run.
fn line_starts(text: &str) -> Vec<u32> {
    let bytes = text.as_bytes();
    let mut starts: Vec<u32> = std::iter::once(0)
        .chain(memchr::memchr2_iter(b'\n', b'\r', bytes).filter_map(|i| {
            let ends = bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n');
            ends.then_some(i as u32 + 1)
        }))
        .collect();
    starts.shrink_to_fit();
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_per_unit() {
        let text = "a\n// 日本 😀 x\n".to_string();
        let f = SourceFile::new("t.rs".into(), "t.rs".into(), Language::Rust, text);
        let x = f.text.find('x').unwrap();
        assert_eq!(f.position(x, ColumnUnit::Chars).column, 9);
        assert_eq!(f.position(x, ColumnUnit::Utf16).column, 10);
        assert_eq!(f.position(x, ColumnUnit::Bytes).column, 16);
        assert_eq!(f.position(x, ColumnUnit::Bytes).line, 2);
    }

    #[test]
    fn a_file_changed_since_analysis_is_not_reloaded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.rs");
        std::fs::write(&path, "fn a() {}\n").unwrap();
        let mut f = SourceFile::new(
            path.clone(),
            "a.rs".into(),
            Language::Rust,
            "fn a() {}\n".into(),
        );
        f.release_text();
        assert!(f.reload_text().is_ok());
        assert_eq!(f.text, "fn a() {}\n");
        f.release_text();
        std::fs::write(&path, "// é\nfn a() {}\n").unwrap();
        assert!(f.reload_text().unwrap_err().contains("changed"));
        assert_eq!(f.text, "");
        // Positions of a file without text are still safe to ask for.
        assert_eq!(f.position(5, ColumnUnit::Chars).line, 1);
    }

    #[test]
    fn every_line_ending_ends_a_line() {
        let f = SourceFile::new(
            "t.rs".into(),
            "t.rs".into(),
            Language::Rust,
            "a\rb\r\nc\nd".into(),
        );
        assert_eq!(f.line_count(), 4);
        assert_eq!(f.line_text(1), "a");
        assert_eq!(f.line_text(2), "b");
        assert_eq!(
            f.position(f.text.find('d').unwrap(), ColumnUnit::Chars)
                .line,
            4
        );
    }
}
