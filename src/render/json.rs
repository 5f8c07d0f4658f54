//! `--format json`: the `poolguard/v1` document of `cli.md`.

use serde::Serialize;

use crate::report::Report;
use crate::source::{ColumnUnit, SourceFile, Span};

#[derive(Serialize)]
struct Doc<'a> {
    schema: &'static str,
    version: &'static str,
    diagnostics: Vec<JDiag<'a>>,
    errors: Vec<JError<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct JDiag<'a> {
    rule: &'a str,
    level: &'a str,
    language: &'a str,
    path: &'a str,
    message: &'a str,
    span: JSpan,
    labels: Vec<JLabel<'a>>,
    help: &'a str,
    fingerprint: &'a str,
    /// Where the code runs (revision 2); absent for rules that do not judge context.
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<JContext<'a>>,
}

#[derive(Serialize)]
struct JContext<'a> {
    kind: &'static str,
    via: Vec<JVia<'a>>,
}

#[derive(Serialize)]
struct JVia<'a> {
    path: &'a str,
    line: usize,
    what: &'a str,
}

#[derive(Serialize)]
struct JLabel<'a> {
    message: &'a str,
    span: JSpan,
    path: &'a str,
}

#[derive(Serialize)]
struct JSpan {
    start: JPos,
    end: JPos,
}

#[derive(Serialize)]
struct JPos {
    line: usize,
    column: usize,
    offset: usize,
}

#[derive(Serialize)]
struct JError<'a> {
    path: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct Summary {
    files: usize,
    diagnostics: usize,
    errors: usize,
    elapsed_ms: u128,
    /// Requested files skipped as generated code (revision 2).
    skipped_generated: usize,
}

fn jspan(f: &SourceFile, s: Span) -> JSpan {
    let pos = |o| {
        let p = f.position(o, ColumnUnit::Chars);
        JPos {
            line: p.line,
            column: p.column,
            offset: p.offset,
        }
    };
    JSpan {
        start: pos(s.start),
        end: pos(s.end),
    }
}

pub fn render(report: &Report) -> String {
    let doc = Doc {
        schema: "poolguard/v1",
        version: env!("CARGO_PKG_VERSION"),
        diagnostics: report
            .diagnostics
            .iter()
            .map(|d| {
                let f = &report.files[d.file];
                JDiag {
                    rule: d.rule,
                    level: d.level.as_str(),
                    language: f.language.name(),
                    path: &f.display,
                    message: &d.message,
                    span: jspan(f, d.span),
                    labels: d
                        .labels
                        .iter()
                        .map(|l| JLabel {
                            message: &l.message,
                            span: jspan(&report.files[l.file], l.span),
                            path: &report.files[l.file].display,
                        })
                        .collect(),
                    help: &d.help,
                    fingerprint: &d.fingerprint,
                    context: d.context.as_ref().map(|c| JContext {
                        kind: c.heat.as_str(),
                        via: c
                            .via
                            .iter()
                            .map(|v| JVia {
                                path: &report.files[v.file].display,
                                line: report.files[v.file].line_number(v.span.start),
                                what: &v.what,
                            })
                            .collect(),
                    }),
                }
            })
            .collect(),
        errors: report
            .errors
            .iter()
            .map(|e| JError {
                path: &e.path,
                message: &e.message,
            })
            .collect(),
        summary: Summary {
            files: report.files_checked,
            diagnostics: report.diagnostics.len(),
            errors: report.errors.len(),
            skipped_generated: report.skipped_generated,
            // 0 unless POOLGUARD_TIMING=1: two runs over one tree give identical bytes.
            elapsed_ms: if std::env::var_os("POOLGUARD_TIMING").is_some_and(|v| v == "1") {
                report.elapsed_ms
            } else {
                0
            },
        },
    };
    let mut s = serde_json::to_string_pretty(&doc).expect("the report serializes");
    s.push('\n');
    s
}
