//! `--format sarif`: SARIF 2.1.0 as GitHub code scanning accepts it. Columns are
//! UTF-16 code units (`columnKind`), URIs relative to `%SRCROOT%`, the project root.

use serde_json::{json, Value};

use super::rule_help_uri;
use crate::report::Report;
use crate::rules::{Level, Rule, RULES};
use crate::source::{ColumnUnit, SourceFile, Span};

pub fn render(report: &Report) -> String {
    let rules: Vec<Value> = RULES.iter().map(rule).collect();
    let results: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            let index = RULES.iter().position(|r| r.id == d.rule).unwrap_or(0);
            let related: Vec<Value> = d
                .labels
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    json!({
                        "id": i,
                        "physicalLocation": physical(&report.files[l.file], l.span),
                        "message": {"text": l.message},
                    })
                })
                .collect();
            let mut text = d.message.clone();
            if !d.help.is_empty() {
                text.push_str(&format!("\nhelp: {}", d.help));
            }
            let mut result = json!({
                "ruleId": d.rule,
                "ruleIndex": index,
                "level": level(d.level),
                "message": {"text": text},
                "locations": [{"physicalLocation": physical(&report.files[d.file], d.span)}],
                "relatedLocations": related,
                "partialFingerprints": {"primaryLocationLineHash": d.fingerprint},
            });
            if let Some(c) = &d.context {
                let via: Vec<Value> = c
                    .via
                    .iter()
                    .map(|v| {
                        let f = &report.files[v.file];
                        json!({"path": f.display, "line": f.line_number(v.span.start), "what": v.what})
                    })
                    .collect();
                result["properties"] = json!({"context": {"kind": c.heat.as_str(), "via": via}});
            }
            result
        })
        .collect();
    let notifications: Vec<Value> = report
        .errors
        .iter()
        .map(|e| {
            json!({
                "level": "warning",
                "message": {"text": e.message},
                "locations": [{"physicalLocation": {"artifactLocation": artifact(&e.path)}}],
            })
        })
        .collect();
    let root = file_uri(&report.root.dir_string(), true);
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "poolguard",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules,
            }},
            "columnKind": "utf16CodeUnits",
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root}},
            "results": results,
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
            }],
        }],
    });
    let mut s = serde_json::to_string_pretty(&doc).expect("SARIF serializes");
    s.push('\n');
    s
}

fn rule(r: &Rule) -> Value {
    json!({
        "id": r.id,
        "name": pascal(r.id),
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": what_it_does(r.doc)},
        "help": {"text": r.doc, "markdown": r.doc},
        "helpUri": rule_help_uri(r.id),
        "defaultConfiguration": {"level": level(r.default_level)},
        "properties": {
            "tags": if r.is_meta() {
                json!(["suppressions"])
            } else {
                json!(["concurrency", "reliability", "timeouts"])
            },
            "precision": r.precision,
            "problem.severity": match r.default_level {
                Level::Off => "recommendation",
                l => level(l),
            },
        },
    })
}

fn level(l: Level) -> &'static str {
    match l {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
        Level::Off => "none",
    }
}

/// A rule doc's whole "What it does" section as plain text: each paragraph and
/// list item on one line (a first paragraph alone may end in "such as:");
/// tables are left to `help.markdown`.
fn what_it_does(doc: &str) -> String {
    let after = doc.split("### What it does").nth(1).unwrap_or(doc);
    let section = after.split("\n### ").next().unwrap_or("");
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in section.lines().map(str::trim) {
        if line.starts_with('|') {
            continue;
        }
        let starts_item = line.starts_with("- ") || line.starts_with("* ");
        if line.is_empty() || starts_item {
            if !current.is_empty() {
                lines.push(std::mem::take(&mut current));
            }
            if line.is_empty() {
                continue;
            }
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(&line.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines.join("\n")
}

fn pascal(id: &str) -> String {
    id.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

fn physical(f: &SourceFile, span: Span) -> Value {
    let start = f.position(span.start, ColumnUnit::Utf16);
    let end = f.position(span.end, ColumnUnit::Utf16);
    json!({
        "artifactLocation": artifact(&f.display),
        "region": {
            "startLine": start.line,
            "startColumn": start.column,
            "endLine": end.line,
            "endColumn": end.column,
        },
    })
}

fn artifact(path: &str) -> Value {
    if path.starts_with('/') {
        json!({"uri": file_uri(path, false)})
    } else {
        json!({"uri": encode(path), "uriBaseId": "%SRCROOT%"})
    }
}

fn file_uri(path: &str, dir: bool) -> String {
    let mut uri = format!("file://{}", encode(path));
    if dir && !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// Percent-encode what a URI path may not hold.
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b'+'
            | b'@'
            | b':' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn full_description_is_the_whole_section() {
        for r in crate::rules::RULES {
            let text = super::what_it_does(r.doc);
            assert!(!text.ends_with(':'), "{}: {text}", r.id);
            assert!(!text.contains("###"), "{}: {text}", r.id);
            assert!(
                text.ends_with('.') || text.ends_with(')'),
                "{}: {text}",
                r.id
            );
        }
    }
}
