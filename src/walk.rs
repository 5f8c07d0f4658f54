//! File discovery: a parallel, gitignore-aware walk that picks `.java` and `.rs`
//! files, skips build output, hidden folders and (by default) test code.

use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

use crate::config::Config;
use crate::ignore_files::IgnoreFiles;
use crate::source::Language;

/// Directories never walked into (build output and dependencies).
const SKIPPED_DIRS: &[&str] = &["target", "build", "node_modules"];

/// A file to check.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub path: PathBuf,
    pub language: Language,
}

/// A path that could not be walked.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct WalkError {
    pub path: PathBuf,
    pub message: String,
}

pub struct WalkOptions<'a> {
    pub config: &'a Config,
    pub include_tests: bool,
    pub force_exclude: bool,
    pub threads: usize,
}

/// Everything under `roots`, sorted and without duplicates.
pub fn discover(roots: &[PathBuf], opts: &WalkOptions) -> (Vec<Candidate>, Vec<WalkError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for root in roots {
        match std::fs::metadata(root) {
            Ok(m) if !m.is_file() && !m.is_dir() => {
                errors.push(WalkError {
                    path: root.clone(),
                    message: "skipped: not a regular file (a FIFO, socket or device)".into(),
                });
                continue;
            }
            Err(e) => {
                errors.push(WalkError {
                    path: root.clone(),
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
            Ok(_) => {}
        }
        if root.is_file() {
            // Explicit files are always checked (pre-commit passes them one by one),
            // unless `--force-exclude` applies the config's excludes to them too.
            let excluded = opts.force_exclude && opts.config.is_excluded(root);
            let test = !opts.include_tests && is_test_path(root);
            if let Some(language) = Language::from_path(root).filter(|_| !excluded && !test) {
                files.push(Candidate {
                    path: root.clone(),
                    language,
                });
            }
            continue;
        }
        walk_dir(root, opts, &mut files, &mut errors);
    }
    files.sort();
    files.dedup();
    errors.sort();
    errors.dedup();
    (files, errors)
}

fn walk_dir(
    root: &Path,
    opts: &WalkOptions,
    files: &mut Vec<Candidate>,
    errors: &mut Vec<WalkError>,
) {
    let include_tests = opts.include_tests;
    let config = std::sync::Arc::new(opts.config.clone());
    let root_buf = root.to_path_buf();
    let ignores = std::sync::Arc::new(IgnoreFiles::new(root));
    let outside = std::sync::Arc::new(Mutex::new(Vec::new()));
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let (ignores2, outside2) = (ignores.clone(), outside.clone());
    // The repository controls `.gitignore`/`.ignore`: `IgnoreFiles` reads them
    // (regular files only), never the `ignore` crate.
    let walker = WalkBuilder::new(root)
        .hidden(true)
        .follow_links(true)
        .require_git(false)
        .git_ignore(false)
        .git_exclude(false)
        .ignore(false)
        .threads(opts.threads.max(1))
        .filter_entry(move |e| {
            if e.depth() == 0 {
                return true;
            }
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            let name = e.file_name().to_string_lossy();
            if is_dir && SKIPPED_DIRS.contains(&name.as_ref()) {
                return false;
            }
            if config.is_excluded(e.path()) {
                return false;
            }
            let rel = e.path().strip_prefix(&root_buf).unwrap_or(e.path());
            if !include_tests && is_dir && is_test_dir(rel) {
                return false;
            }
            if ignores2.ignored(e.path(), is_dir) {
                return false;
            }
            // A symlink may point anywhere (`/proc`, a secret): follow it only
            // when its target stays inside the walked directory.
            if e.path_is_symlink() {
                let inside =
                    std::fs::canonicalize(e.path()).is_ok_and(|t| t.starts_with(&canonical_root));
                if !inside {
                    if let Ok(mut o) = outside2.lock() {
                        o.push(e.path().to_path_buf());
                    }
                    return false;
                }
            }
            true
        })
        .build_parallel();
    let found: Mutex<Vec<(Vec<Candidate>, Vec<WalkError>)>> = Mutex::new(Vec::new());
    let mut builder = Collect {
        root,
        include_tests,
        out: &found,
    };
    walker.visit(&mut builder);
    for (f, e) in found.into_inner().unwrap_or_default() {
        files.extend(f);
        errors.extend(e);
    }
    let skipped_links = std::mem::take(&mut *outside.lock().unwrap_or_else(|e| e.into_inner()));
    for path in skipped_links {
        // Dangling links and links to non-source files are of no interest.
        if path.is_dir() || Language::from_path(&path).is_some() {
            errors.push(WalkError {
                path,
                message: "skipped: symbolic link to a target outside the checked directory".into(),
            });
        }
    }
    let skipped_ignores =
        std::mem::take(&mut *ignores.skipped.lock().unwrap_or_else(|e| e.into_inner()));
    for (path, message) in skipped_ignores {
        errors.push(WalkError { path, message });
    }
}

struct Collect<'a> {
    root: &'a Path,
    include_tests: bool,
    out: &'a Mutex<Vec<(Vec<Candidate>, Vec<WalkError>)>>,
}

impl<'s> ParallelVisitorBuilder<'s> for Collect<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor {
            root: self.root,
            include_tests: self.include_tests,
            files: Vec::new(),
            errors: Vec::new(),
            out: self.out,
        })
    }
}

/// One walker thread's findings, handed over once when the thread finishes.
struct Visitor<'a> {
    root: &'a Path,
    include_tests: bool,
    files: Vec<Candidate>,
    errors: Vec<WalkError>,
    out: &'a Mutex<Vec<(Vec<Candidate>, Vec<WalkError>)>>,
}

impl ParallelVisitor for Visitor<'_> {
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        match entry {
            Ok(e) => {
                if !e.file_type().is_some_and(|t| t.is_file()) {
                    return WalkState::Continue;
                }
                let Some(language) = Language::from_path(e.path()) else {
                    return WalkState::Continue;
                };
                let rel = e.path().strip_prefix(self.root).unwrap_or(e.path());
                if self.include_tests || !is_test_path(rel) {
                    self.files.push(Candidate {
                        path: e.path().to_path_buf(),
                        language,
                    });
                }
            }
            Err(err) => self.errors.push(walk_error(err)),
        }
        WalkState::Continue
    }
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        if let Ok(mut out) = self.out.lock() {
            out.push((
                std::mem::take(&mut self.files),
                std::mem::take(&mut self.errors),
            ));
        }
    }
}

fn walk_error(err: ignore::Error) -> WalkError {
    fn inner(err: &ignore::Error) -> (Option<PathBuf>, String) {
        match err {
            ignore::Error::WithPath { path, err } => (Some(path.clone()), inner(err).1),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                inner(err)
            }
            ignore::Error::Loop { child, ancestor } => (
                Some(child.clone()),
                format!(
                    "symlink loop: {} points back to {}",
                    child.display(),
                    ancestor.display()
                ),
            ),
            other => (None, format!("cannot read: {other}")),
        }
    }
    let (path, message) = inner(&err);
    WalkError {
        path: path.unwrap_or_default(),
        message,
    }
}

/// Test code by path, as `rules.md` defines it: Java `src/test/**`, `*Test.java`,
/// `*Tests.java`, `*IT.java`; Rust `tests/`, `benches/`, `examples/`, and the
/// directories of test-support crates (`test-utils`, `mock`, `integration`, ...).
pub fn is_test_path(path: &Path) -> bool {
    if path.parent().is_some_and(is_test_dir) {
        return true;
    }
    let rust = path.extension().is_some_and(|e| e == "rs");
    if rust && path.parent().is_some_and(is_rust_test_support) {
        return true;
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with("Test.java") || name.ends_with("Tests.java") || name.ends_with("IT.java")
}

/// Rust crates that exist only to support tests (`crates/foo-test-utils`,
/// `app/integration`, `pool/mock`): their directory names.
const RUST_TEST_SUPPORT: &[&str] = &[
    "test",
    "testing",
    "test-util",
    "test-utils",
    "test_util",
    "test_utils",
    "test-support",
    "test_support",
    "testutil",
    "testutils",
    "mock",
    "mocks",
    "integration",
    "integration-tests",
];

fn is_test_dir(dir: &Path) -> bool {
    let parts: Vec<&str> = dir
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    parts
        .iter()
        .any(|p| matches!(*p, "tests" | "benches" | "examples"))
        || parts.windows(2).any(|w| w == ["src", "test"])
}

fn is_rust_test_support(dir: &Path) -> bool {
    dir.components().any(|c| match c {
        Component::Normal(s) => s.to_str().is_some_and(|s| RUST_TEST_SUPPORT.contains(&s)),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths() {
        assert!(is_test_path(Path::new("svc/src/test/java/a/B.java")));
        assert!(is_test_path(Path::new("a/OrderServiceTest.java")));
        assert!(is_test_path(Path::new("a/OrderServiceIT.java")));
        assert!(is_test_path(Path::new("crate/tests/it.rs")));
        assert!(is_test_path(Path::new("benches/b.rs")));
        assert!(!is_test_path(Path::new("src/main/java/a/Testing.java")));
        assert!(!is_test_path(Path::new("src/lib.rs")));
        assert!(is_test_path(Path::new("app/integration/src/proxy.rs")));
        assert!(is_test_path(Path::new("pool/mock/src/lib.rs")));
        assert!(!is_test_path(Path::new(
            "com/acme/integration/Gateway.java"
        )));
    }
}
