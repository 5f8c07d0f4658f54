//! `--statistics`: how many findings each rule has.

use std::collections::BTreeMap;

use super::Format;
use crate::engine::Report;

pub fn render(report: &Report, format: Format) -> String {
    let mut counts: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
    for d in &report.diagnostics {
        let e = counts.entry(d.rule).or_insert((0, d.level.as_str()));
        e.0 += 1;
    }
    if format == Format::Json {
        let rows: Vec<serde_json::Value> = counts
            .iter()
            .map(|(rule, (n, level))| serde_json::json!({"rule": rule, "level": level, "count": n}))
            .collect();
        let doc = serde_json::json!({"schema": "poolguard/v1", "statistics": rows});
        return format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).expect("serializes")
        );
    }
    let mut out = String::new();
    for (rule, (n, level)) in &counts {
        out.push_str(&format!("{n:>6}  {rule:<24} {level}\n"));
    }
    out.push_str(&format!(
        "{:>6}  total in {} files\n",
        report.diagnostics.len(),
        report.files_checked
    ));
    out
}
