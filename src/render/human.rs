//! `--format human`: codespan-style diagnostics with source snippets.

use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel, Severity};
use codespan_reporting::files::{Error, Files};
use codespan_reporting::term::{self, termcolor};

use crate::report::Report;
use crate::rules::Level;
use crate::source::SourceFile;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

struct Db<'a>(&'a [SourceFile]);

impl<'a> Files<'a> for Db<'a> {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.0.get(id).ok_or(Error::FileMissing)?.display)
    }

    fn source(&'a self, id: usize) -> Result<&'a str, Error> {
        Ok(&self.0.get(id).ok_or(Error::FileMissing)?.text)
    }

    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, Error> {
        Ok(self
            .0
            .get(id)
            .ok_or(Error::FileMissing)?
            .line_index(byte_index))
    }

    fn line_range(&'a self, id: usize, line_index: usize) -> Result<Range<usize>, Error> {
        let f = self.0.get(id).ok_or(Error::FileMissing)?;
        let start = f.line_start(line_index).ok_or(Error::LineTooLarge {
            given: line_index,
            max: f.line_count().saturating_sub(1),
        })?;
        let end = f.line_start(line_index + 1).unwrap_or(f.text.len());
        Ok(start..end)
    }
}

pub fn render(report: &Report, color: bool) -> String {
    let db = Db(&report.files);
    let config = term::Config::default();
    let mut buf = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    for d in &report.diagnostics {
        let severity = match d.level {
            Level::Error => Severity::Error,
            Level::Note | Level::Off => Severity::Note,
            Level::Warning => Severity::Warning,
        };
        let mut labels = vec![CsLabel::primary(d.file, d.span.start..d.span.end)];
        labels.extend(d.labels.iter().map(|l| {
            CsLabel::secondary(l.file, l.span.start..l.span.end).with_message(&l.message)
        }));
        let mut cs = CsDiagnostic::new(severity)
            .with_code(d.rule)
            .with_message(&d.message)
            .with_labels(labels);
        if !d.help.is_empty() {
            cs = cs.with_notes(vec![format!("help: {}", d.help)]);
        }
        // Rendering only fails for spans outside their file, which the engine never makes.
        let _ = term::emit_to_write_style(&mut buf, &config, &db, &cs);
    }
    // File errors go to stderr (and JSON `errors[]`), not into the findings.
    let mut out = String::from_utf8_lossy(buf.as_slice()).into_owned();
    out.push_str(&summary(report));
    out
}

/// The closing line: counts by level, files and errors.
pub fn summary(report: &Report) -> String {
    let errors = report
        .diagnostics
        .iter()
        .filter(|d| d.level == Level::Error)
        .count();
    let notes = report
        .diagnostics
        .iter()
        .filter(|d| d.level == Level::Note)
        .count();
    let warnings = report.diagnostics.len() - errors - notes;
    let files = report.files_checked;
    let mut s = if report.diagnostics.is_empty() {
        format!("poolguard: no findings in {files} file{}", plural(files))
    } else {
        format!(
            "poolguard: {} finding{} ({errors} error{}, {warnings} warning{}) in {files} file{}",
            report.diagnostics.len(),
            plural(report.diagnostics.len()),
            plural(errors),
            plural(warnings),
            plural(files)
        )
    };
    if notes > 0 {
        s.push_str(&format!(
            "; {notes} note{} in cold code (--pedantic)",
            plural(notes)
        ));
    }
    if report.skipped_generated > 0 {
        s.push_str(&format!(
            "; {} generated file{} skipped (--include-generated)",
            report.skipped_generated,
            plural(report.skipped_generated)
        ));
    }
    if !report.errors.is_empty() {
        s.push_str(&format!(
            "; {} file{} could not be fully analysed",
            report.errors.len(),
            plural(report.errors.len())
        ));
    }
    s.push('\n');
    s
}

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
