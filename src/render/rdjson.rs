//! `--format rdjson`: reviewdog's Diagnostic Format, columns in UTF-8 bytes.

use serde_json::{json, Value};

use super::rule_help_uri;
use crate::report::Report;
use crate::rules::Level;
use crate::source::{ColumnUnit, SourceFile, Span};

pub fn render(report: &Report) -> String {
    let diagnostics: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            let mut message = d.message.clone();
            if !d.help.is_empty() {
                message.push_str(&format!("\nhelp: {}", d.help));
            }
            let related: Vec<Value> = d
                .labels
                .iter()
                .map(|l| json!({"message": l.message, "location": location(&report.files[l.file], l.span)}))
                .collect();
            json!({
                "message": message,
                "location": location(&report.files[d.file], d.span),
                "severity": match d.level { Level::Error => "ERROR", Level::Warning => "WARNING", _ => "INFO" },
                "code": {"value": d.rule, "url": rule_help_uri(d.rule)},
                "related_locations": related,
                "original_output": format!("{}: {}", d.rule, d.message),
            })
        })
        .collect();
    let doc = json!({
        "source": {"name": "poolguard", "url": env!("CARGO_PKG_REPOSITORY")},
        "diagnostics": diagnostics,
    });
    let mut s = serde_json::to_string_pretty(&doc).expect("rdjson serializes");
    s.push('\n');
    s
}

fn location(f: &SourceFile, span: Span) -> Value {
    let start = f.position(span.start, ColumnUnit::Bytes);
    let end = f.position(span.end, ColumnUnit::Bytes);
    json!({
        "path": f.display,
        "range": {
            "start": {"line": start.line, "column": start.column},
            "end": {"line": end.line, "column": end.column},
        },
    })
}
