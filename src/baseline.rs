//! Baselines: `--write-baseline FILE` records today's findings, `--baseline FILE`
//! hides them later. Keyed on rule + path + fingerprint (never line numbers), so
//! lines added above a known finding do not resurrect it, while a new finding
//! beside an old one is still reported. Paths are relative to the project root,
//! as in every report, so a baseline works from any folder.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;
use crate::source::SourceFile;

const SCHEMA: &str = "poolguard-baseline/v1";

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    schema: String,
    findings: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    path: String,
    rule: String,
    fingerprint: String,
}

/// A loaded baseline.
pub struct Baseline {
    entries: BTreeSet<Entry>,
}

fn entry(d: &Diagnostic, files: &[SourceFile]) -> Entry {
    Entry {
        path: files[d.file].display.clone(),
        rule: d.rule.to_string(),
        fingerprint: d.fingerprint.clone(),
    }
}

impl Baseline {
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read baseline: {e}", path.display()))?;
        let file: File = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a poolguard baseline: {e}", path.display()))?;
        if file.schema != SCHEMA {
            return Err(format!(
                "{}: baseline schema `{}`, expected `{SCHEMA}`",
                path.display(),
                file.schema
            ));
        }
        Ok(Baseline {
            entries: file.findings.into_iter().collect(),
        })
    }

    /// Whether the baseline records this finding.
    pub fn contains(&self, d: &Diagnostic, files: &[SourceFile]) -> bool {
        self.entries.contains(&entry(d, files))
    }
}

/// Write a baseline of these findings: sorted, one finding per line group, diff-friendly.
pub fn write(path: &Path, diags: &[Diagnostic], files: &[SourceFile]) -> Result<usize, String> {
    let findings: BTreeSet<Entry> = diags.iter().map(|d| entry(d, files)).collect();
    let n = findings.len();
    let file = File {
        schema: SCHEMA.into(),
        findings: findings.into_iter().collect(),
    };
    let mut text = serde_json::to_string_pretty(&file).expect("baseline serializes");
    text.push('\n');
    crate::output::write_atomic(path, text.as_bytes())
        .map_err(|e| format!("{}: cannot write baseline: {e}", path.display()))?;
    Ok(n)
}
