//! `--statistics`: how many findings each rule has at each level.

use std::collections::BTreeMap;

use super::Format;
use crate::report::Report;

pub fn render(report: &Report, format: Format) -> String {
    let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for d in &report.diagnostics {
        *counts.entry((d.rule, d.level.as_str())).or_insert(0) += 1;
    }
    if format == Format::Json {
        let rows: Vec<serde_json::Value> = counts
            .iter()
            .map(|((rule, level), n)| serde_json::json!({"rule": rule, "level": level, "count": n}))
            .collect();
        let doc = serde_json::json!({
            "schema": "poolguard/v1",
            "version": env!("CARGO_PKG_VERSION"),
            "statistics": rows,
        });
        return format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).expect("serializes")
        );
    }
    let mut out = String::new();
    for ((rule, level), n) in &counts {
        out.push_str(&format!("{n:>6}  {rule:<24} {level}\n"));
    }
    out.push_str(&format!(
        "{:>6}  total in {} file{}\n",
        report.diagnostics.len(),
        report.files_checked,
        super::human::plural(report.files_checked)
    ));
    out
}
