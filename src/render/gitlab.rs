//! `--format gitlab`: a GitLab Code Quality report (a JSON array).

use serde_json::{json, Value};

use crate::report::Report;
use crate::rules::Level;

pub fn render(report: &Report) -> String {
    let issues: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            let f = &report.files[d.file];
            json!({
                "description": d.message,
                "check_name": d.rule,
                "fingerprint": d.fingerprint,
                "severity": match d.level { Level::Error => "critical", Level::Warning => "major", _ => "info" },
                "location": {"path": f.display, "lines": {"begin": f.line_number(d.span.start)}},
            })
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&issues).expect("report serializes");
    s.push('\n');
    s
}
