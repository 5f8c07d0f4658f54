//! Baselines: `--write-baseline FILE` records today's findings, `--baseline FILE`
//! hides them later. Keyed on rule + path + fingerprint (never line numbers), so
//! lines added above a known finding do not resurrect it, while a new finding
//! beside an old one is still reported.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

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
    dir: PathBuf,
    entries: BTreeSet<Entry>,
}

/// A finding's path as a baseline records it: relative to the baseline's directory.
fn key_path(dir: &Path, file: &SourceFile) -> String {
    let abs = std::fs::canonicalize(&file.path)
        .or_else(|_| std::path::absolute(&file.path))
        .unwrap_or_else(|_| file.path.clone());
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    match abs.strip_prefix(&dir) {
        Ok(rel) => rel
            .components()
            .map(|c| crate::escape::os_str(c.as_os_str()))
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => file.display.clone(),
    }
}

fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
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
            dir: dir_of(path),
            entries: file.findings.into_iter().collect(),
        })
    }

    /// Whether the baseline records this finding.
    pub fn contains(&self, d: &Diagnostic, files: &[SourceFile]) -> bool {
        self.entries.contains(&Entry {
            path: key_path(&self.dir, &files[d.file]),
            rule: d.rule.to_string(),
            fingerprint: d.fingerprint.clone(),
        })
    }
}

/// Write a baseline of these findings: sorted, one finding per line group, diff-friendly.
pub fn write(path: &Path, diags: &[Diagnostic], files: &[SourceFile]) -> Result<usize, String> {
    let dir = dir_of(path);
    let findings: BTreeSet<Entry> = diags
        .iter()
        .map(|d| Entry {
            path: key_path(&dir, &files[d.file]),
            rule: d.rule.to_string(),
            fingerprint: d.fingerprint.clone(),
        })
        .collect();
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
