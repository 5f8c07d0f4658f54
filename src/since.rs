//! `--since REF`: the lines added or modified since a git revision (working tree
//! included, untracked files whole), from `git diff` itself.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Changed lines per file (absolute, canonical paths).
#[derive(Debug, Default)]
pub struct Changes {
    files: HashMap<PathBuf, Lines>,
}

#[derive(Debug)]
enum Lines {
    /// A new (untracked or added) file: every line counts.
    All,
    /// 1-based inclusive ranges of added or modified lines.
    Ranges(Vec<(usize, usize)>),
}

impl Changes {
    /// Whether any line in `first..=last` of `path` changed.
    pub fn touches(&self, path: &Path, first: usize, last: usize) -> bool {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        match self.files.get(&key) {
            None => false,
            Some(Lines::All) => true,
            Some(Lines::Ranges(r)) => r.iter().any(|&(a, b)| a <= last && first <= b),
        }
    }
}

fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "core.quotePath=false"])
        .args(args)
        .output()
        .map_err(|e| format!("--since needs git: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The top of the git work tree containing `path`.
pub fn git_root(path: &Path) -> Option<PathBuf> {
    let dir = if path.is_dir() {
        path
    } else {
        path.parent().unwrap_or(Path::new("."))
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    git(dir, &["rev-parse", "--show-toplevel"])
        .ok()
        .map(|s| PathBuf::from(s.trim()))
}

/// Lines changed since `rev` in the repository containing `path`.
pub fn changes_since(path: &Path, rev: &str) -> Result<Changes, String> {
    let root = git_root(path).ok_or_else(|| {
        format!(
            "--since {rev}: {} is not inside a git repository",
            path.display()
        )
    })?;
    git(
        &root,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| format!("--since {rev}: no such git revision"))?;
    let diff = git(
        &root,
        &[
            "diff",
            "--no-color",
            "--no-ext-diff",
            "-U0",
            "-M",
            rev,
            "--",
        ],
    )?;
    let mut changes = parse_diff(&root, &diff);
    for line in git(&root, &["ls-files", "--others", "--exclude-standard"])?.lines() {
        let p = root.join(line);
        changes
            .files
            .insert(std::fs::canonicalize(&p).unwrap_or(p), Lines::All);
    }
    Ok(changes)
}

/// Parse `git diff -U0` output: the new side's hunk ranges per file.
fn parse_diff(root: &Path, diff: &str) -> Changes {
    let mut changes = Changes::default();
    let mut current: Option<PathBuf> = None;
    for line in diff.lines() {
        if let Some(p) = line.strip_prefix("+++ ") {
            current = p.strip_prefix("b/").map(|p| {
                let abs = root.join(p);
                std::fs::canonicalize(&abs).unwrap_or(abs)
            });
            if let Some(c) = &current {
                changes
                    .files
                    .entry(c.clone())
                    .or_insert_with(|| Lines::Ranges(Vec::new()));
            }
        } else if let (Some(hunk), Some(file)) = (line.strip_prefix("@@ "), &current) {
            // `@@ -a,b +c,d @@`: lines c..c+d-1 of the new file (d defaults to 1).
            let Some(new) = hunk.split_whitespace().find(|w| w.starts_with('+')) else {
                continue;
            };
            let mut parts = new[1..].split(',');
            let start: usize = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
            let count: usize = parts.next().and_then(|s| s.parse().ok()).unwrap_or(1);
            if count == 0 {
                continue;
            }
            if let Some(Lines::Ranges(r)) = changes.files.get_mut(file) {
                r.push((start, start + count - 1));
            }
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks() {
        let diff = "diff --git a/x.rs b/y.rs\nsimilarity index 90%\nrename from x.rs\nrename to y.rs\n--- a/x.rs\n+++ b/y.rs\n@@ -3,0 +4,2 @@ fn\n+a\n+b\n@@ -9 +11 @@\n-c\n+d\n@@ -20,3 +23,0 @@\n";
        let c = parse_diff(Path::new("/r"), diff);
        let p = Path::new("/r/y.rs");
        assert!(c.touches(p, 4, 4));
        assert!(c.touches(p, 5, 9));
        assert!(c.touches(p, 11, 11));
        assert!(!c.touches(p, 6, 10));
        assert!(!c.touches(p, 23, 23));
    }
}
