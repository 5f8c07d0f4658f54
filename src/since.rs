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

/// Settings that would change what `git diff` prints or make git run commands
/// named by the repository's own config: forced off for every call.
const GIT_CONFIG: &[&str] = &[
    "core.quotePath=false",
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "diff.noprefix=false",
    "diff.mnemonicPrefix=false",
    "diff.relative=false",
    "diff.external=",
    "color.ui=false",
];

fn git_bytes(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let mut cmd = Command::new("git");
    cmd.arg("--no-pager").arg("-C").arg(dir);
    for c in GIT_CONFIG {
        cmd.args(["-c", c]);
    }
    let out = cmd
        .args(args)
        .env_remove("GIT_EXTERNAL_DIFF")
        .env_remove("GIT_DIFF_OPTS")
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("--since needs git: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    Ok(out.stdout)
}

#[cfg(unix)]
fn path_from_bytes(b: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(b))
}

#[cfg(not(unix))]
fn path_from_bytes(b: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(b).into_owned())
}

fn canonical(p: PathBuf) -> PathBuf {
    std::fs::canonicalize(&p).unwrap_or(p)
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
    let out = git_bytes(dir, &["rev-parse", "--show-toplevel"]).ok()?;
    let top = out.strip_suffix(b"\n").unwrap_or(&out);
    (!top.is_empty()).then(|| path_from_bytes(top))
}

/// Lines changed since `rev` in the repository containing `path`.
pub fn changes_since(path: &Path, rev: &str) -> Result<Changes, String> {
    let root = git_root(path).ok_or_else(|| {
        format!(
            "--since {rev}: {} is not inside a git repository",
            path.display()
        )
    })?;
    // Diff against the resolved commit id: a revision is never read as an option.
    let commit = git_bytes(
        &root,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| format!("--since {rev}: no such git revision"))?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    if commit.is_empty() || !commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("--since {rev}: no such git revision"));
    }
    let diff = git_bytes(
        &root,
        &[
            "diff",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            "-U0",
            "-M",
            &commit,
            "--",
        ],
    )?;
    let mut changes = parse_diff(&root, &diff);
    let untracked = git_bytes(&root, &["ls-files", "-z", "--others", "--exclude-standard"])?;
    for name in untracked.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        changes
            .files
            .insert(canonical(root.join(path_from_bytes(name))), Lines::All);
    }
    Ok(changes)
}

/// A path from a diff header: `b/name`, or C-quoted `"b/na\tme"` when the name has
/// special bytes; git appends a tab to names that contain a space.
fn header_path(raw: &[u8]) -> Option<Vec<u8>> {
    let name = if raw.first() == Some(&b'"') {
        unquote(raw)?
    } else {
        raw.strip_suffix(b"\t").unwrap_or(raw).to_vec()
    };
    name.strip_prefix(b"b/").map(<[u8]>::to_vec)
}

/// Undo git's C-style quoting (`"a\tb\\c\303\251"`).
fn unquote(raw: &[u8]) -> Option<Vec<u8>> {
    let inner = raw.strip_prefix(b"\"")?;
    let end = {
        // The closing quote: the first one not escaped.
        let mut i = 0;
        loop {
            match inner.get(i)? {
                b'\\' => i += 2,
                b'"' => break i,
                _ => i += 1,
            }
        }
    };
    let body = &inner[..end];
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' {
            out.push(body[i]);
            i += 1;
            continue;
        }
        let c = *body.get(i + 1)?;
        i += 2;
        out.push(match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'0'..=b'7' => {
                let digits = body.get(i - 1..i + 2)?;
                i += 2;
                digits.iter().try_fold(0u8, |n, d| match d {
                    b'0'..=b'7' => Some(n.wrapping_mul(8) + (d - b'0')),
                    _ => None,
                })?
            }
            other => other,
        });
    }
    Some(out)
}

/// The counts of a hunk header `@@ -a,b +c,d @@`: (removed lines, new start, added lines).
fn hunk(header: &[u8]) -> Option<(usize, usize, usize)> {
    let text = std::str::from_utf8(header).ok()?;
    let mut words = text.split(' ');
    let old = words.next()?.strip_prefix('-')?;
    let new = words.next()?.strip_prefix('+')?;
    let count = |r: &str| -> Option<(usize, usize)> {
        let mut parts = r.split(',');
        let start = parts.next()?.parse().ok()?;
        let count = match parts.next() {
            Some(c) => c.parse().ok()?,
            None => 1,
        };
        Some((start, count))
    };
    let (_, removed) = count(old)?;
    let (start, added) = count(new)?;
    Some((removed, start, added))
}

/// Parse `git diff -U0` output: the new side's hunk ranges per file. Hunk bodies
/// are skipped by their counts, so an added line `++ x` is never read as a header.
fn parse_diff(root: &Path, diff: &[u8]) -> Changes {
    let mut changes = Changes::default();
    let mut current: Option<PathBuf> = None;
    let (mut removed_left, mut added_left) = (0usize, 0usize);
    for line in diff.split(|&b| b == b'\n') {
        if removed_left + added_left > 0 {
            match line.first() {
                Some(b'-') => removed_left = removed_left.saturating_sub(1),
                Some(b'+') => added_left = added_left.saturating_sub(1),
                // `\ No newline at end of file`
                _ => {}
            }
            continue;
        }
        if let Some(p) = line.strip_prefix(b"+++ ") {
            current = header_path(p).map(|p| canonical(root.join(path_from_bytes(&p))));
            if let Some(c) = &current {
                changes
                    .files
                    .entry(c.clone())
                    .or_insert_with(|| Lines::Ranges(Vec::new()));
            }
        } else if line.starts_with(b"diff --git ") {
            current = None;
        } else if let Some(h) = line.strip_prefix(b"@@ ") {
            let Some((removed, start, count)) = hunk(h) else {
                continue;
            };
            (removed_left, added_left) = (removed, count);
            let Some(file) = &current else { continue };
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
        let c = parse_diff(Path::new("/r"), diff.as_bytes());
        let p = Path::new("/r/y.rs");
        assert!(c.touches(p, 4, 4));
        assert!(c.touches(p, 5, 9));
        assert!(c.touches(p, 11, 11));
        assert!(!c.touches(p, 6, 10));
        assert!(!c.touches(p, 23, 23));
    }

    #[test]
    fn added_lines_that_look_like_headers() {
        let diff = "diff --git a/x.rs b/x.rs\n--- a/x.rs\n+++ b/x.rs\n@@ -1,0 +2,2 @@\n+++ b/other.rs\n+@@ -1 +90 @@\n@@ -5 +7 @@\n-a\n+b\n";
        let c = parse_diff(Path::new("/r"), diff.as_bytes());
        let p = Path::new("/r/x.rs");
        assert!(c.touches(p, 2, 3));
        assert!(c.touches(p, 7, 7));
        assert!(!c.touches(p, 90, 90));
        assert!(!c.touches(Path::new("/r/other.rs"), 1, 100));
    }

    #[test]
    fn quoted_names() {
        assert_eq!(
            unquote(b"\"b/a\\tb\\\\c\\\"d\\nx\\303\\251.rs\""),
            Some(b"b/a\tb\\c\"d\nx\xc3\xa9.rs".to_vec())
        );
        assert_eq!(
            header_path(b"b/with space.rs\t"),
            Some(b"with space.rs".to_vec())
        );
    }
}
