//! File discovery: a parallel, gitignore-aware walk that picks `.java` and `.rs`
//! files, skips build output, caches (`CACHEDIR.TAG`), hidden folders and (by
//! default) test code, and says what it skipped and why (`--show-files`, notes
//! on explicit paths).
//! Test code is judged by the path relative to the project root, so the same
//! file is skipped whatever the current directory.

use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

use crate::config::Config;
use crate::ignore_files::IgnoreFiles;
use crate::root::ProjectRoot;
use crate::source::Language;

/// Directories never walked into (build output and dependencies).
const SKIPPED_DIRS: &[&str] = &["target", "build", "node_modules"];

/// Build output or dependencies: a `node_modules` anywhere; a `target` or `build`
/// folder unless it sits in a source tree (below a `src` folder), where it is a
/// package or module (`src/main/java/org/acme/build`, `src/build/mod.rs`).
fn is_build_output(rel: &Path) -> bool {
    let Some(name) = rel.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    SKIPPED_DIRS.contains(&name)
        && (name == "node_modules"
            || !rel
                .parent()
                .is_some_and(|p| p.components().any(|c| c.as_os_str() == "src")))
}

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

/// A path the walk left out on purpose.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skipped {
    pub path: PathBuf,
    pub reason: Reason,
    /// Named on the command line (not found by walking a directory).
    pub explicit: bool,
}

/// Why a path is not checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    TestCode,
    /// Found by reading the file (`crate::generated`), so not in `--show-files`.
    Generated,
    Excluded,
    BuildOutput,
    UnsupportedExtension,
    /// A directory tagged as a cache (`CACHEDIR.TAG`), such as poolguard's own.
    Cache,
}

impl Reason {
    pub fn describe(self) -> &'static str {
        match self {
            Reason::TestCode => "test code (`--include-tests` checks it)",
            Reason::Generated => "generated code (`--include-generated` checks it)",
            Reason::Excluded => "matches the config's `exclude`",
            Reason::BuildOutput => "build output or dependencies",
            Reason::UnsupportedExtension => "not a Java or Rust file (`.java`, `.rs`)",
            Reason::Cache => "a cache directory (it holds a `CACHEDIR.TAG`)",
        }
    }
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walked {
    pub files: Vec<Candidate>,
    pub errors: Vec<WalkError>,
    pub skipped: Vec<Skipped>,
}

pub struct WalkOptions<'a> {
    pub config: &'a Config,
    /// The project root: test paths are judged relative to it.
    pub project: &'a ProjectRoot,
    pub include_tests: bool,
    pub force_exclude: bool,
    pub threads: usize,
}

/// Everything under `roots`, sorted and without duplicates.
pub fn discover(roots: &[PathBuf], opts: &WalkOptions) -> Walked {
    let mut w = Walked::default();
    for root in roots {
        match std::fs::metadata(root) {
            Ok(m) if !m.is_file() && !m.is_dir() => {
                w.errors.push(WalkError {
                    path: root.clone(),
                    message: "skipped: not a regular file (a FIFO, socket or device)".into(),
                });
                continue;
            }
            Err(e) => {
                w.errors.push(WalkError {
                    path: root.clone(),
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
            Ok(_) => {}
        }
        let rel = relative(root, opts.project);
        let skip = |reason| Skipped {
            path: root.clone(),
            reason,
            explicit: true,
        };
        if root.is_file() {
            // Explicit files are always checked (pre-commit passes them one by one),
            // unless `--force-exclude` applies the config's excludes to them too.
            if opts.force_exclude && opts.config.is_excluded(root) {
                w.skipped.push(skip(Reason::Excluded));
            } else if !opts.include_tests && is_test_path(&rel) {
                w.skipped.push(skip(Reason::TestCode));
            } else if let Some(language) = Language::from_path(root) {
                w.files.push(Candidate {
                    path: root.clone(),
                    language,
                });
            } else {
                w.skipped.push(skip(Reason::UnsupportedExtension));
            }
            continue;
        }
        if root.is_dir() && !opts.include_tests && is_test_dir(&rel) {
            w.skipped.push(skip(Reason::TestCode));
            continue;
        }
        if root.is_dir() && opts.force_exclude && opts.config.is_excluded(root) {
            w.skipped.push(skip(Reason::Excluded));
            continue;
        }
        walk_dir(root, opts, &mut w);
    }
    w.files.sort();
    w.files.dedup();
    w.errors.sort();
    w.errors.dedup();
    w.skipped.sort();
    w.skipped.dedup();
    w
}

/// `path` relative to the project root when under it, else as given.
fn relative(path: &Path, project: &ProjectRoot) -> PathBuf {
    project.relative(path).unwrap_or_else(|| path.to_path_buf())
}

fn walk_dir(root: &Path, opts: &WalkOptions, w: &mut Walked) {
    let include_tests = opts.include_tests;
    let config = std::sync::Arc::new(opts.config.clone());
    let ignores = std::sync::Arc::new(IgnoreFiles::new(root));
    let outside = std::sync::Arc::new(Mutex::new(Vec::new()));
    let canonical_root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let (ignores2, outside2) = (ignores.clone(), outside.clone());
    // The repository controls `.gitignore`/`.ignore`: `IgnoreFiles` reads them
    // (regular files only), never the `ignore` crate.
    let pruned = std::sync::Arc::new(Mutex::new(Vec::new()));
    let pruned_in = pruned.clone();
    // Paths found under `root` are judged relative to the project root.
    let base = opts.project.relative(root).unwrap_or_default();
    let base_in = base.clone();
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
            // Directories are judged by their path from the project root.
            let rel = is_dir.then(|| base_in.join(under(e.path(), e.depth())));
            let reason = if rel.as_deref().is_some_and(is_build_output) {
                Some(Reason::BuildOutput)
            } else if is_dir && e.path().join("CACHEDIR.TAG").is_file() {
                Some(Reason::Cache)
            } else if config.is_excluded(e.path()) {
                Some(Reason::Excluded)
            } else if !include_tests && rel.as_deref().is_some_and(is_test_dir) {
                Some(Reason::TestCode)
            } else {
                None
            };
            if let Some(reason) = reason {
                if let Ok(mut p) = pruned_in.lock() {
                    p.push(Skipped {
                        path: e.path().to_path_buf(),
                        reason,
                        explicit: false,
                    });
                }
            }
            if reason.is_some() {
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
    let found: Mutex<Vec<Walked>> = Mutex::new(Vec::new());
    let mut builder = Collect {
        base: &base,
        include_tests,
        out: &found,
    };
    walker.visit(&mut builder);
    for part in found.into_inner().unwrap_or_default() {
        w.files.extend(part.files);
        w.errors.extend(part.errors);
        w.skipped.extend(part.skipped);
    }
    let skipped_links = std::mem::take(&mut *outside.lock().unwrap_or_else(|e| e.into_inner()));
    for path in skipped_links {
        // Dangling links and links to non-source files are of no interest.
        if path.is_dir() || Language::from_path(&path).is_some() {
            w.errors.push(WalkError {
                path,
                message: "skipped: symbolic link to a target outside the checked directory".into(),
            });
        }
    }
    let skipped_ignores =
        std::mem::take(&mut *ignores.skipped.lock().unwrap_or_else(|e| e.into_inner()));
    for (path, message) in skipped_ignores {
        w.errors.push(WalkError { path, message });
    }
    w.skipped.extend(std::mem::take(
        &mut *pruned.lock().unwrap_or_else(|e| e.into_inner()),
    ));
}

/// The last `depth` components of a walked path (its part below the walk root).
fn under(path: &Path, depth: usize) -> PathBuf {
    let parts: Vec<_> = path.components().collect();
    parts[parts.len().saturating_sub(depth)..].iter().collect()
}

struct Collect<'a> {
    base: &'a Path,
    include_tests: bool,
    out: &'a Mutex<Vec<Walked>>,
}

impl<'s> ParallelVisitorBuilder<'s> for Collect<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor {
            base: self.base,
            include_tests: self.include_tests,
            found: Walked::default(),
            out: self.out,
        })
    }
}

/// One walker thread's findings, handed over once when the thread finishes.
struct Visitor<'a> {
    base: &'a Path,
    include_tests: bool,
    found: Walked,
    out: &'a Mutex<Vec<Walked>>,
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
                let rel = self.base.join(under(e.path(), e.depth()));
                if self.include_tests || !is_test_path(&rel) {
                    self.found.files.push(Candidate {
                        path: e.path().to_path_buf(),
                        language,
                    });
                } else {
                    self.found.skipped.push(Skipped {
                        path: e.path().to_path_buf(),
                        reason: Reason::TestCode,
                        explicit: false,
                    });
                }
            }
            Err(err) => self.found.errors.push(walk_error(err)),
        }
        WalkState::Continue
    }
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        if let Ok(mut out) = self.out.lock() {
            out.push(std::mem::take(&mut self.found));
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
/// directories of test-support crates (`test-utils`, `mock`, `integration`, ...);
/// also example, demo and benchmark modules (`orders-examples`, `rpc-benchmark`),
/// which serve no traffic.
pub fn is_test_path(path: &Path) -> bool {
    if path.parent().is_some_and(is_test_dir) {
        return true;
    }
    let rust = path.extension().is_some_and(|e| e == "rs");
    if rust && path.parent().is_some_and(is_rust_test_support) {
        return true;
    }
    // A crate's test-support module (`src/test_util.rs`, `pub mod test_util;`): what
    // its users' tests drive it with.
    let stem = path.file_stem().and_then(|n| n.to_str()).unwrap_or("");
    if rust && RUST_TEST_SUPPORT_FILES.contains(&stem) {
        return true;
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with("Test.java") || name.ends_with("Tests.java") || name.ends_with("IT.java")
}

/// Java code that imports a test framework (JUnit, TestNG, Mockito, AssertJ) is test
/// support wherever it lies (a JUnit rule under `src/main` of a `-test` module): served
/// code never does. Read from the imports, before the first type.
pub fn imports_test_framework(text: &str) -> bool {
    const FRAMEWORKS: &[&str] = &[
        "org.junit.",
        "junit.framework.",
        "org.testng.",
        "org.mockito.",
        "org.assertj.",
    ];
    // Only the header: lines up to the first type declaration (comments skipped).
    let comment = |l: &&str| l.starts_with("//") || l.starts_with('*') || l.starts_with("/*");
    text.lines()
        .map(str::trim_start)
        .filter(|l| !comment(l))
        .take_while(|l| {
            !l.contains(" class ") && !l.starts_with("class ") && !l.contains(" interface ")
        })
        .filter_map(|l| l.strip_prefix("import "))
        .map(|l| l.trim_start_matches("static ").trim_start())
        .any(|l| FRAMEWORKS.iter().any(|f| l.starts_with(f)))
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
    "tests-integration",
    "fuzz",
    "tests-fuzz",
];

/// Rust modules that exist only to support tests, by file name.
const RUST_TEST_SUPPORT_FILES: &[&str] = &[
    "test_util",
    "test_utils",
    "testutil",
    "testutils",
    "test_helpers",
    "test_support",
];

fn is_test_dir(dir: &Path) -> bool {
    let parts: Vec<&str> = dir
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    // Module directories (above the first `src`): `demo/demo-crossapp/src/main/java`.
    let modules = parts.iter().take_while(|p| **p != "src");
    parts
        .iter()
        .any(|p| matches!(*p, "tests" | "benches" | "examples") || is_showcase_module(p))
        || parts.windows(2).any(|w| w == ["src", "test"])
        || parts
            .windows(3)
            .any(|w| w[0] == "src" && is_jvm_language(w[2]) && is_test_source_set(w[1]))
        || modules
            .clone()
            .any(|p| is_showcase_root(p) || is_e2e_module(p) || is_test_support_module(p))
}

/// Gradle source sets that hold tests, test fixtures or benchmarks, never served
/// code: `src/testFixtures/java`, `src/integrationTest/java`, `src/androidTest/java`,
/// `src/integration-test/java`, `src/jmh/java`, and Maven's `src/it/java` (`src/main`
/// and custom sets such as `src/generated` are not).
fn is_test_source_set(set: &str) -> bool {
    matches!(set, "jmh" | "it")
        || set.ends_with("-test")
        || set.ends_with("-tests")
        || set
            .strip_prefix("test")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_uppercase))
        || set.ends_with("Test")
        || set.ends_with("Tests")
}

/// The language directory of a JVM source set (`src/<set>/java`).
fn is_jvm_language(dir: &str) -> bool {
    matches!(dir, "java" | "kotlin" | "scala" | "groovy")
}

/// Modules that exist to test others: `titus-testkit`, `helios-testing`,
/// `helios-system-tests`, `store-test-utils`, `sdk-test-common`, `testing-internal`,
/// `sdk-test-server` (an in-memory server that unit tests run against), `it-harness`
/// (what integration tests start and drive the product with), `systests`, `perftests`,
/// `joramtests` (a module named for its tests), `orders-unit-test` and
/// `orders-integration-test` (its tests' scaffolding), a top-level `integration_test`
/// module, and a `tck` (a compatibility kit) (a `-` never appears in a package name;
/// only module directories, above `src`, are asked). Not `-test`: `api-test` and
/// `service-test` modules of testing products serve traffic.
fn is_test_support_module(dir: &str) -> bool {
    const SUFFIXES: &[&str] = &[
        "-testkit",
        "-testing",
        "tests",
        "-test-utils",
        "-test-util",
        "-test-support",
        "-testutils",
        "-test-common",
        "-test-commons",
        "-test-server",
        "-unit-test",
        "-integration-test",
        "_integration_test",
        "-harness",
    ];
    matches!(
        dir,
        "testkit" | "testing" | "tck" | "integration-test" | "integration_test"
    ) || dir.ends_with("-tck")
        || dir.starts_with("testing-")
        || SUFFIXES.iter().any(|s| dir.ends_with(s))
}

/// End-to-end test modules: `test/` at module level, `e2e`, `e2e-v2`, `e2e_test`, and
/// a project's own (`gateway-e2e`, `gateway-e2e-client`: `e2e` as one `-` part).
fn is_e2e_module(dir: &str) -> bool {
    dir == "test" || dir.starts_with("e2e") || dir.split('-').any(|p| p == "e2e")
}

/// A module directory named as a showcase, a load tool or documentation: `demo`,
/// `demo-crossapp`, `example-orders`, `tools/perf`, `docs` and `framework-docs` (the
/// snippets a manual compiles and includes).
fn is_showcase_root(dir: &str) -> bool {
    const KINDS: &[&str] = &["demo", "demos", "example", "sample", "perf"];
    KINDS.contains(&dir)
        || matches!(dir, "docs" | "doc")
        || dir.ends_with("-docs")
        || dir.split_once('-').is_some_and(|(kind, _)| {
            KINDS.contains(&kind) || kind == "examples" || kind == "samples"
        })
}

/// Example, demo, benchmark, integration-test and fuzzing modules: `samples`,
/// `benchmarks`, `microbenchmarks`, `jmh`, `fuzz`, and `foo-examples`, `foo-demo`,
/// `foo-samples`, `foo-benchmark(s)`, `foo-bench`, `foo-jmh`, `foo-it` (a `-` never
/// appears in a Java package, so `com/example/demo` is not one).
fn is_showcase_module(dir: &str) -> bool {
    // Showcases count as the last part of a module's name or in the middle of it
    // (`pay-web-sample-shop`, a demo merchant's app); the others only as the last.
    const SHOWCASES: &[&str] = &["example", "examples", "demo", "demos", "sample", "samples"];
    const KINDS: &[&str] = &[
        "bench",
        "benchmark",
        "benchmarks",
        "microbenchmarks",
        "jmh",
        "it",
    ];
    matches!(
        dir,
        "samples" | "benchmarks" | "microbenchmarks" | "jmh" | "fuzz"
    ) || dir
        .rsplit_once('-')
        .is_some_and(|(_, kind)| KINDS.contains(&kind))
        || dir.contains('-') && dir.split('-').any(|p| SHOWCASES.contains(&p))
}

fn is_rust_test_support(dir: &Path) -> bool {
    dir.components().any(|c| match c {
        Component::Normal(s) => s.to_str().is_some_and(|s| {
            RUST_TEST_SUPPORT.contains(&s)
                || [
                    "-testing",
                    "_testing",
                    "-tests",
                    "_tests",
                    "-test-utils",
                    "_test_utils",
                ]
                .iter()
                .any(|suffix| s.ends_with(suffix))
        }),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_output_dirs() {
        assert!(is_build_output(Path::new("build")));
        assert!(is_build_output(Path::new("svc/target")));
        assert!(is_build_output(Path::new("web/src/ui/node_modules")));
        // Packages and modules named like build output are source.
        assert!(!is_build_output(Path::new(
            "svc/src/main/java/org/acme/build"
        )));
        assert!(!is_build_output(Path::new("crate/src/target")));
        assert!(!is_build_output(Path::new(
            "svc/src/main/java/org/acme/builds"
        )));
    }

    #[test]
    fn test_paths() {
        assert!(is_test_path(Path::new("svc/src/test/java/a/B.java")));
        assert!(is_test_path(Path::new("a/OrderServiceTest.java")));
        assert!(!is_test_path(Path::new(
            "services/api-test/src/main/java/acme/ImportController.java"
        )));
        assert!(is_test_path(Path::new(
            "testing-internal/src/main/java/acme/Cluster.java"
        )));
        assert!(is_test_path(Path::new(
            "testing/junit/src/main/java/acme/Rule.java"
        )));
        assert!(!is_test_path(Path::new(
            "notebook-server/src/main/java/acme/latest/Feed.java"
        )));
        assert!(is_test_path(Path::new("a/OrderServiceIT.java")));
        assert!(is_test_path(Path::new("crate/tests/it.rs")));
        assert!(is_test_path(Path::new("benches/b.rs")));
        assert!(!is_test_path(Path::new("src/main/java/a/Testing.java")));
        assert!(is_test_path(Path::new(
            "core/src/testFixtures/java/a/Mock.java"
        )));
        assert!(is_test_path(Path::new(
            "svc/src/integrationTest/java/a/B.java"
        )));
        assert!(is_test_path(Path::new("bench/src/jmh/java/a/B.java")));
        assert!(!is_test_path(Path::new("svc/src/generated/java/a/B.java")));
        assert!(is_test_path(Path::new(
            "svc/src/integration-test/java/a/ITConfig.java"
        )));
        assert!(is_test_path(Path::new("svc/src/it/java/a/Probe.java")));
        assert!(!is_test_path(Path::new(
            "svc/src/main/java/a/it/Probe.java"
        )));
        assert!(!is_test_path(Path::new("svc/src/testing/java/a/B.java")));
        assert!(!is_test_path(Path::new("src/lib.rs")));
        assert!(is_test_path(Path::new("server/src/test_util.rs")));
        assert!(!is_test_path(Path::new("server/src/util.rs")));
        assert!(is_test_path(Path::new(
            "orders-unit-test/src/main/java/a/AccountStub.java"
        )));
        assert!(!is_test_path(Path::new(
            "orders-test/src/main/java/a/Account.java"
        )));
        assert!(is_test_path(Path::new(
            "integration_test/src/java/a/core/HttpProbe.java"
        )));
        assert!(!is_test_path(Path::new(
            "svc/src/main/java/a/integration_test/Probe.java"
        )));
        assert!(is_test_path(Path::new("app/integration/src/proxy.rs")));
        assert!(is_test_path(Path::new("pool/mock/src/lib.rs")));
        assert!(is_test_path(Path::new(
            "test/e2e-v2/mock-sender/src/main/java/a/Sender.java"
        )));
        assert!(is_test_path(Path::new(
            "crates/e2e_test/src/reliant/tls.rs"
        )));
        assert!(!is_test_path(Path::new(
            "svc/src/main/java/com/acme/e2e/Probe.java"
        )));
        assert!(is_test_path(Path::new(
            "gateway-e2e/gateway-e2e-client/src/main/java/a/AdminClient.java"
        )));
        assert!(!is_test_path(Path::new(
            "gateway-e2ee/src/main/java/a/Cipher.java"
        )));
        assert!(!is_test_path(Path::new(
            "com/acme/integration/Gateway.java"
        )));
        assert!(is_test_path(Path::new(
            "orders-examples/src/main/java/a/Demo.java"
        )));
        assert!(is_test_path(Path::new(
            "rpc-benchmark/src/main/java/a/B.java"
        )));
        assert!(is_test_path(Path::new(
            "pay-web-sample-shop/src/main/java/a/ShopController.java"
        )));
        assert!(!is_test_path(Path::new(
            "metrics-sampler-agent/src/main/java/a/Sampler.java"
        )));
        assert!(is_test_path(Path::new("benchmarks/src/lib.rs")));
        assert!(is_test_path(Path::new(
            "titus-testkit/src/main/java/a/Stub.java"
        )));
        assert!(is_test_path(Path::new(
            "helios-system-tests/src/main/java/a/SystemTestBase.java"
        )));
        assert!(is_test_path(Path::new(
            "sdk-test-server/src/main/java/a/InMemoryService.java"
        )));
        assert!(is_test_path(Path::new(
            "agent/it-harness/src/main/java/a/AgentContainer.java"
        )));
        // Modules named for their tests or a compatibility kit.
        assert!(is_test_path(Path::new(
            "perftests/src/main/java/a/QueueCreator.java"
        )));
        assert!(is_test_path(Path::new(
            "broker-perftests-systests/src/main/java/a/Runner.java"
        )));
        assert!(is_test_path(Path::new("tck/src/main/java/a/Admin.java")));
        assert!(!is_test_path(Path::new(
            "requests/src/main/java/a/RequestController.java"
        )));
        assert!(!is_test_path(Path::new(
            "svc/src/main/java/com/acme/perftests/Probe.java"
        )));
        assert!(!is_test_path(Path::new(
            "harness-pipelines/src/main/java/a/Pipeline.java"
        )));
        assert!(!is_test_path(Path::new(
            "load-test-service/src/main/java/a/Runner.java"
        )));
        assert!(!is_test_path(Path::new(
            "svc/src/main/java/com/acme/testing/Probe.java"
        )));
        assert!(!is_test_path(Path::new(
            "ab-testing-service/src/main/java/a/Experiments.java"
        )));
        assert!(is_test_path(Path::new(
            "sdk-test/sdk-test-common/src/main/java/a/HttpInvoker.java"
        )));
        assert!(!is_test_path(Path::new(
            "sdk-common/src/main/java/a/test/Probe.java"
        )));
        assert!(is_test_path(Path::new(
            "demo/demo-crossapp/client/src/main/java/a/Client.java"
        )));
        assert!(is_test_path(Path::new("example-orders/src/main.rs")));
        // Documentation modules: snippets a manual compiles, never served.
        assert!(is_test_path(Path::new(
            "docs/src/main/java/org/acme/docs/se/ClientSnippets.java"
        )));
        assert!(is_test_path(Path::new(
            "framework-docs/src/main/java/org/acme/docs/Web.java"
        )));
        assert!(!is_test_path(Path::new(
            "svc/src/main/java/org/acme/docs/DocumentController.java"
        )));
        assert!(!is_test_path(Path::new(
            "docs-service/src/main/java/org/acme/Documents.java"
        )));
        assert!(!is_test_path(Path::new(
            "orders/src/main/java/com/acme/demo/Plan.java"
        )));
        assert!(!is_test_path(Path::new(
            "src/main/java/com/acme/demoday/Plan.java"
        )));
        assert!(!is_test_path(Path::new(
            "src/main/java/com/example/demo/OrderController.java"
        )));
        assert!(!is_test_path(Path::new("order-sampler/src/lib.rs")));
        assert!(is_test_path(Path::new("tools/pp-bench/src/report.rs")));
        assert!(is_test_path(Path::new("fuzz/fuzz_targets/parse.rs")));
        assert!(!is_test_path(Path::new("src/benchmark_results.rs")));
        // Load tools, JMH modules and integration-test modules serve no traffic.
        assert!(is_test_path(Path::new(
            "tools/perf/src/main/java/org/acme/perf/Writer.java"
        )));
        assert!(is_test_path(Path::new(
            "microbenchmarks/src/main/java/org/acme/QueueBench.java"
        )));
        assert!(is_test_path(Path::new(
            "store-it/src/main/java/org/acme/LoadGen.java"
        )));
        assert!(!is_test_path(Path::new(
            "store-audit/src/main/java/org/acme/perf/Audit.java"
        )));
    }
}
