//! Bad input, hostile repositories and broken pipes, through the real binary:
//! nothing crashes poolguard, hangs it, or makes it report less than it found.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command as Std, Output, Stdio};

use common::{git, poolguard_in as poolguard};
use serde_json::Value;
use tempfile::TempDir;

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

/// Run `check --format json` and return the exit code and the document.
fn check_json(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, Value) {
    let mut c = poolguard(dir);
    c.arg("check").args(args).args(["--format", "json"]);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(code == 0 || code == 1, "exit {code}: {out:?}");
    let doc = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    (code, doc)
}

fn rules_found(doc: &Value) -> Vec<(String, String)> {
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn errors(doc: &Value) -> Vec<(String, String)> {
    doc["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["path"].as_str().unwrap().to_string(),
                e["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// An unbounded pool a request handler fills (hot: reported by default).
const UNBOUNDED_JAVA: &str = "import java.util.concurrent.*;\nclass Q { ExecutorService q = Executors.newFixedThreadPool(4); @org.springframework.web.bind.annotation.GetMapping(\"/\") void f(java.util.List<Runnable> rs) { for (Runnable r : rs) q.execute(r); } }\n";
const UNBOUNDED_RS: &str =
    "#[get(\"/\")] pub fn f() { let (_tx, _rx) = std::sync::mpsc::channel::<u8>(); }\n";

// ---- 1. phase isolation ----------------------------------------------------

#[test]
fn top_level_code_outside_any_class_or_function_is_no_crash() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "A.java",
        "import java.util.concurrent.CompletableFuture;\nreturn CompletableFuture.supplyAsync();\n",
    );
    write(
        t.path(),
        "a.rs",
        "use std::sync::{mpsc, LazyLock};\nstatic X: LazyLock<u8> = LazyLock::new(|| { let (_t, rx) = mpsc::channel::<u8>(); rx.recv().unwrap() });\n",
    );
    // A client made only in a static's initializer: no function, so the file's own
    // context (the rule indexed a context that did not exist).
    write(
        t.path(),
        "b.rs",
        "static M: std::sync::LazyLock<reqwest::Client> = std::sync::LazyLock::new(|| { reqwest::Client::new() });\n",
    );
    write(t.path(), "Q.java", UNBOUNDED_JAVA);
    let (_, doc) = check_json(t.path(), &["."], &[]);
    assert_eq!(errors(&doc), Vec::<(String, String)>::new());
    assert!(rules_found(&doc).contains(&("Q.java".into(), "unbounded_queue".into())));
    assert!(rules_found(&doc).contains(&("b.rs".into(), "missing_client_timeout".into())));
}

/// A class header the parser cannot read leaves the pool's field and its submission
/// outside every context: the rules must not index the file's contexts with them
/// (found by the nightly fuzz run: `unbounded_queue` panicked on `public cla/ss`).
#[test]
fn a_submission_outside_every_context_is_no_crash() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "B.java",
        "import java.util.concurrent.*;\n\npublic cla/ss Broker {\n    private final ExecutorService flusher = Executors.newFixedThreadPool(2);\n\n    public void stop() {\n        Future<?> done = flusher.submit(this::flush);\n        try { done.get(); } catch (Exception e) { }\n    }\n\n    private void flush() { }\n}\n",
    );
    let (_, doc) = check_json(t.path(), &[".", "--pedantic"], &[]);
    let errs = errors(&doc);
    assert!(
        errs.iter().all(|(_, m)| !m.contains("internal error")),
        "{errs:?}"
    );
}

/// A class header the parser cannot read (`Exec{{{{..utorService`, from the fuzz run)
/// left a file with calls but no context; the dead-code pass of a project that serves
/// traffic indexed that file's contexts with a caller of another file's constructor.
/// Every Java file with calls has a context now. The input is the `consumer_loops`
/// model fixture with the fuzz run's one mangled field type.
#[test]
fn calls_in_a_file_whose_class_header_is_broken_have_a_context() {
    let t = TempDir::new().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/model/java/consumer_loops/src/main/java/com/acme/feeds");
    for name in [
        "ConsumerRegistry.java",
        "ReplayTask.java",
        "FeedServlet.java",
    ] {
        let text = std::fs::read_to_string(fixture.join(name)).unwrap();
        let text = text.replace(
            "ExecutorService replays",
            "Exec{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{utorService replays",
        );
        write(t.path(), name, &text);
    }
    let (_, doc) = check_json(t.path(), &[".", "--pedantic"], &[]);
    let errs = errors(&doc);
    assert!(
        errs.iter().all(|(_, m)| !m.contains("internal error")),
        "{errs:?}"
    );
}

#[test]
fn a_panic_in_any_phase_is_an_error_entry_and_the_run_completes() {
    let t = TempDir::new().unwrap();
    write(t.path(), "Good.java", UNBOUNDED_JAVA);
    write(t.path(), "Bad.java", UNBOUNDED_JAVA);
    write(t.path(), "good.rs", UNBOUNDED_RS);
    for (phase, what) in [
        ("unbounded_queue", "in rule `unbounded_queue`"),
        ("link", "while linking"),
        ("extract", "while analysing"),
        ("render", "while rendering a `unbounded_queue` finding"),
    ] {
        let target = format!("{phase}@Bad.java");
        let (code, doc) = check_json(t.path(), &["."], &[("POOLGUARD_TEST_PANIC", &target)]);
        assert_eq!(code, 1, "{phase}");
        let found = rules_found(&doc);
        assert!(
            found.contains(&("Good.java".into(), "unbounded_queue".into())),
            "{phase}: {doc}"
        );
        assert!(
            found.contains(&("good.rs".into(), "unbounded_queue".into())),
            "{phase}: {doc}"
        );
        assert!(
            !found.iter().any(|(p, _)| p == "Bad.java"),
            "{phase}: {doc}"
        );
        let errs = errors(&doc);
        assert_eq!(errs.len(), 1, "{phase}: {errs:?}");
        assert_eq!(errs[0].0, "Bad.java", "{phase}");
        assert!(errs[0].1.contains(what), "{phase}: {}", errs[0].1);
        assert!(
            errs[0].1.contains("internal error"),
            "{phase}: {}",
            errs[0].1
        );
        assert_eq!(doc["summary"]["errors"], 1);
        // The human format survives it too (and names the problem on stderr).
        let out = poolguard(t.path())
            .args(["check", "."])
            .env("POOLGUARD_TEST_PANIC", &target)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{phase}: {out:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("Bad.java: internal error"));
    }
}

// ---- 2. broken pipes and --output --------------------------------------------

/// Run poolguard with stdout (and optionally stderr) connected to pipes whose
/// reading end is already closed.
fn with_closed_pipes(dir: &Path, args: &[&str], close_stderr: bool) -> Output {
    let (r, w) = std::io::pipe().unwrap();
    drop(r);
    let mut c = Std::new(assert_cmd::cargo::cargo_bin("poolguard"));
    c.current_dir(dir)
        .args(args)
        .env("POOLGUARD_NO_CACHE", "1")
        .stdout(w)
        .stdin(Stdio::null());
    if close_stderr {
        let (r2, w2) = std::io::pipe().unwrap();
        drop(r2);
        c.stderr(w2);
    } else {
        c.stderr(Stdio::piped());
    }
    c.output().unwrap()
}

#[test]
fn a_closed_stdout_or_stderr_ends_the_run_quietly() {
    let t = TempDir::new().unwrap();
    write(t.path(), "Q.java", UNBOUNDED_JAVA);
    write(t.path(), "Broken.java", "class {{{ \u{0}");
    for args in [
        vec!["rules"],
        vec!["explain", "unbounded_join"],
        vec!["explain", "no_such_rule"],
        vec!["check", "."],
        vec!["check", ".", "--format", "json"],
        vec!["--help"],
    ] {
        for close_stderr in [false, true] {
            let out = with_closed_pipes(t.path(), &args, close_stderr);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
            assert!(
                matches!(out.status.code(), Some(0..=2)),
                "{args:?} (stderr closed: {close_stderr}): {out:?}"
            );
        }
    }
}

#[test]
fn output_is_written_whole_even_when_stderr_is_closed() {
    let t = TempDir::new().unwrap();
    write(t.path(), "src/Q.java", UNBOUNDED_JAVA);
    write(t.path(), "src/Broken.java", "class {{{ \u{0}");
    for _ in 0..3 {
        let out = with_closed_pipes(
            t.path(),
            &["check", "src", "--format", "sarif", "--output", "rep.sarif"],
            true,
        );
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let sarif: Value = serde_json::from_slice(&fs::read(t.path().join("rep.sarif")).unwrap())
            .expect("a whole SARIF file");
        assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 1);
        fs::remove_file(t.path().join("rep.sarif")).unwrap();
    }
    // Replacing an existing report leaves no temporary file behind.
    fs::write(t.path().join("rep.json"), "old").unwrap();
    let out = poolguard(t.path())
        .args(["check", "src", "--format", "json", "--output", "rep.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let names: Vec<String> = fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let rep: Value = serde_json::from_slice(&fs::read(t.path().join("rep.json")).unwrap()).unwrap();
    assert_eq!(rep["summary"]["diagnostics"], 1);
}

// ---- 3. --since plumbing -----------------------------------------------------

const CHANNEL: &str = "    let (_tx, _rx) = std::sync::mpsc::channel::<u8>();\n";

fn filler(n: usize) -> String {
    (0..n).map(|i| format!("    let _x{i} = {i};\n")).collect()
}

fn paths_found(dir: &Path, args: &[&str]) -> Vec<String> {
    let (_, doc) = check_json(dir, args, &[]);
    rules_found(&doc).into_iter().map(|(p, _)| p).collect()
}

#[test]
fn since_survives_user_diff_config_odd_names_and_header_like_lines() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    git(d, &["init", "-q", "-b", "main"]);
    let odd = [
        "sp ace.rs",
        "ta\tb.rs",
        "quo\"te.rs",
        "back\\slash.rs",
        "new\nline.rs",
        "é.rs",
    ];
    for name in odd {
        write(d, name, &format!("pub fn f() {{\n{}}}\n", filler(1)));
    }
    write(d, "plus.rs", &format!("pub fn f() {{\n{}}}\n", filler(10)));
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "base"]);
    for name in odd {
        write(
            d,
            name,
            &format!("#[get(\"/\")] pub fn f() {{\n{}{CHANNEL}}}\n", filler(1)),
        );
        write(
            d,
            &format!("u-{name}"),
            &format!("#[get(\"/\")] pub fn f() {{\n{CHANNEL}}}\n"),
        );
    }
    // An added line `++ b/elsewhere` shows as `+++ b/elsewhere` in the diff; the
    // next hunk still belongs to plus.rs.
    write(
        d,
        "plus.rs",
        &format!(
            "#[get(\"/\")] pub fn f() {{\n    let _s = \"\n++ b/elsewhere.rs\n\";\n{}{CHANNEL}}}\n",
            filler(10)
        ),
    );
    // The user's (or the repository's) git config changes diff headers, and names
    // a file-system monitor command.
    git(d, &["config", "diff.noprefix", "true"]);
    git(d, &["config", "diff.mnemonicPrefix", "true"]);
    git(d, &["config", "diff.dstPrefix", "x/"]);
    git(d, &["config", "diff.relative", "true"]);
    let marker = d.join("fsmonitor-ran");
    git(
        d,
        &[
            "config",
            "core.fsmonitor",
            &format!("touch '{}'; false", marker.display()),
        ],
    );
    let mut found = paths_found(d, &[".", "--since", "HEAD"]);
    found.sort();
    let mut expected: Vec<String> = odd
        .iter()
        .flat_map(|n| [n.to_string(), format!("u-{n}")])
        .chain(["plus.rs".to_string()])
        .collect();
    expected.sort();
    assert_eq!(found, expected);
    assert!(!marker.exists(), "core.fsmonitor ran");
}

// ---- 4. repository-controlled reads -------------------------------------------

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// Run with a deadline: a hang is a failure, not a stuck test suite.
fn check_json_quickly(dir: &Path, args: &[&str]) -> (i32, Value) {
    let out = poolguard(dir)
        .arg("check")
        .args(args)
        .args(["--format", "json"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(code == 0 || code == 1, "exit {code}: {out:?}");
    (
        code,
        serde_json::from_slice(&out.stdout).expect("stdout is JSON"),
    )
}

#[test]
fn ignore_files_that_are_fifos_or_devices_are_not_read() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    write(d, "a/Q.java", UNBOUNDED_JAVA);
    write(d, "a/gen/G.java", UNBOUNDED_JAVA);
    write(d, "a/.gitignore", "gen/\n");
    write(d, "b/Q.java", UNBOUNDED_JAVA);
    write(d, "c/Q.java", UNBOUNDED_JAVA);
    mkfifo(&d.join("b/.gitignore"));
    std::os::unix::fs::symlink("/dev/zero", d.join("c/.ignore")).unwrap();
    let (code, doc) = check_json_quickly(d, &["."]);
    assert_eq!(code, 1);
    let mut found: Vec<String> = rules_found(&doc).into_iter().map(|(p, _)| p).collect();
    found.sort();
    assert_eq!(found, ["a/Q.java", "b/Q.java", "c/Q.java"]);
    let errs = errors(&doc);
    assert!(
        errs.iter()
            .any(|(p, m)| p == "b/.gitignore" && m.contains("not a regular file")),
        "{errs:?}"
    );
    assert!(
        errs.iter()
            .any(|(p, m)| p == "c/.ignore" && m.contains("not a regular file")),
        "{errs:?}"
    );
}

#[test]
fn symlinks_out_of_the_tree_are_skipped_and_reported() {
    let outside = TempDir::new().unwrap();
    write(outside.path(), "Secret.java", UNBOUNDED_JAVA);
    write(outside.path(), "lib/S.java", UNBOUNDED_JAVA);
    let t = TempDir::new().unwrap();
    let d = t.path();
    write(d, "src/Q.java", UNBOUNDED_JAVA);
    write(d, "src/inner/I.java", UNBOUNDED_JAVA);
    std::os::unix::fs::symlink(outside.path().join("Secret.java"), d.join("src/Leak.java"))
        .unwrap();
    std::os::unix::fs::symlink(outside.path().join("lib"), d.join("src/lib")).unwrap();
    std::os::unix::fs::symlink("/proc", d.join("src/p")).unwrap();
    // A link that stays inside is followed as before.
    std::os::unix::fs::symlink("inner", d.join("src/alias")).unwrap();
    let (_, doc) = check_json_quickly(d, &["."]);
    let found: Vec<String> = rules_found(&doc).into_iter().map(|(p, _)| p).collect();
    assert!(
        !found
            .iter()
            .any(|p| p.contains("Leak") || p.contains("lib/")),
        "{found:?}"
    );
    assert!(found.contains(&"src/Q.java".to_string()), "{found:?}");
    assert!(!doc.to_string().contains("LinkedBlockingQueue<>(); }\\n\""));
    let errs = errors(&doc);
    for skipped in ["src/Leak.java", "src/lib", "src/p"] {
        assert!(
            errs.iter()
                .any(|(p, m)| p == skipped && m.contains("outside the checked directory")),
            "{skipped}: {errs:?}"
        );
    }
    assert!(doc["summary"]["files"].as_u64().unwrap() < 10, "{doc}");
}

#[test]
fn a_fifo_or_device_argument_is_an_error_entry() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    write(d, "Q.java", UNBOUNDED_JAVA);
    mkfifo(&d.join("F.java"));
    std::os::unix::fs::symlink("/dev/null", d.join("N.java")).unwrap();
    let (code, doc) = check_json_quickly(d, &["Q.java", "F.java", "N.java"]);
    assert_eq!(code, 1);
    let errs = errors(&doc);
    for p in ["F.java", "N.java"] {
        assert!(
            errs.iter()
                .any(|(e, m)| e == p && m.contains("not a regular file")),
            "{p}: {errs:?}"
        );
    }
    // A FIFO inside a walked directory is never opened either.
    let (_, doc) = check_json_quickly(d, &["."]);
    assert_eq!(rules_found(&doc).len(), 1, "{doc}");
}

#[test]
fn config_discovery_stops_at_the_repository_root() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    // A config above the repository turns every rule off; it must not apply.
    write(d, "poolguard.toml", "[rules]\nunbounded_queue = \"off\"\n");
    let repo = d.join("repo");
    write(&repo, "src/Q.java", UNBOUNDED_JAVA);
    git(&repo, &["init", "-q", "-b", "main"]);
    let (code, doc) = check_json_quickly(&repo, &["src"]);
    assert_eq!(code, 1, "{doc}");
    // Outside any repository, discovery still climbs.
    let plain = d.join("plain");
    write(&plain, "src/Q.java", UNBOUNDED_JAVA);
    let (code, _) = check_json_quickly(&plain, &["src"]);
    assert_eq!(code, 0);
}

// ---- 5. positions ----------------------------------------------------------------

fn first_position(dir: &Path, file: &str) -> (u64, u64, u64) {
    let (_, doc) = check_json(dir, &[file], &[]);
    let d = &doc["diagnostics"][0];
    let s = &d["span"]["start"];
    (
        s["line"].as_u64().unwrap(),
        s["column"].as_u64().unwrap(),
        s["offset"].as_u64().unwrap(),
    )
}

#[test]
fn shebang_bom_and_lone_cr_keep_positions() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    let body = format!("#[get(\"/\")] pub fn f() {{\n{CHANNEL}}}\n");
    write(d, "plain.rs", &format!("\n{body}"));
    write(
        d,
        "shebang.rs",
        &format!("#!/usr/bin/env run-cargo-script\n{body}"),
    );
    write(d, "bom.rs", &format!("\u{feff}\n{body}"));
    let plain = first_position(d, "plain.rs");
    assert_eq!((plain.0, plain.1), (3, 22));
    let shebang = first_position(d, "shebang.rs");
    assert_eq!((shebang.0, shebang.1), (3, 22));
    assert_eq!(
        shebang.2,
        plain.2 + "#!/usr/bin/env run-cargo-script".len() as u64
    );
    let bom = first_position(d, "bom.rs");
    assert_eq!((bom.0, bom.1, bom.2), (3, 22, plain.2 + 3));
    // `#![..]` is an inner attribute, not a shebang.
    write(d, "attr.rs", &format!("#![allow(dead_code)]\n{body}"));
    assert_eq!(first_position(d, "attr.rs").0, 3);
    // Lone CR line endings (old Mac) count lines like LF.
    write(d, "Lf.java", UNBOUNDED_JAVA);
    write(d, "Cr.java", &UNBOUNDED_JAVA.replace('\n', "\r"));
    let lf = first_position(d, "Lf.java");
    assert_eq!(lf.0, 2);
    assert_eq!(first_position(d, "Cr.java"), lf);
}

// ---- 6. budgets ------------------------------------------------------------------

#[test]
fn pathological_inputs_are_reported_quickly() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    let shapes = [
        ("Classes.java", "class A {".repeat(40_000)),
        (
            "Chain.java",
            format!("class C {{ void m() {{ y{}; }} }}\n", ".a()".repeat(10_000)),
        ),
        (
            "chain.rs",
            format!("fn f() {{ y{}; }}\n", ".a()".repeat(10_000)),
        ),
        (
            "Generics.java",
            format!(
                "class C {{ {}B{} x; }}\n",
                "A<".repeat(85_000),
                ">".repeat(85_000)
            ),
        ),
        (
            "generics.rs",
            format!("type T = {}B{};\n", "A<".repeat(85_000), ">".repeat(85_000)),
        ),
        ("mods.rs", "mod a {".repeat(100_000)),
        (
            "Lambdas.java",
            format!(
                "class C {{ Runnable r = {}null; }}\n",
                "() -> ".repeat(20_000)
            ),
        ),
        (
            "BlockLambdas.java",
            format!(
                "class C {{ Runnable r = {}{}; }}\n",
                "() -> {".repeat(20_000),
                "}".repeat(20_000)
            ),
        ),
        (
            "closures.rs",
            format!(
                "fn f() {{ let r = {}{}; }}\n",
                "|| {".repeat(20_000),
                "}".repeat(20_000)
            ),
        ),
        (
            "Plus.java",
            format!("class C {{ int x = 1{}; }}\n", " + 1".repeat(100_000)),
        ),
        (
            "Many.java",
            format!(
                "class C {{ {} }}\n",
                format!("int x = {}1{};\n", "(".repeat(900), ")".repeat(900)).repeat(100)
            ),
        ),
    ];
    for (name, text) in &shapes {
        write(d, name, text);
    }
    write(d, "Q.java", UNBOUNDED_JAVA);
    let started = std::time::Instant::now();
    let out = poolguard(d)
        .args(["check", ".", "--format", "json"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        rules_found(&doc),
        [("Q.java".to_string(), "unbounded_queue".to_string())]
    );
    let errs = errors(&doc);
    for (name, _) in &shapes {
        assert!(
            errs.iter()
                .any(|(p, m)| p == name && m.starts_with("skipped: ")),
            "{name}: {errs:?}"
        );
    }
}

// ---- 7. scale and limits ---------------------------------------------------------

#[test]
fn many_explicit_files_cost_about_one_project() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    git(d, &["init", "-q", "-b", "main"]);
    let n = 3000;
    for i in 0..n {
        write(d, &format!("src/m{}/F{i}.java", i % 50), UNBOUNDED_JAVA);
    }
    let args: Vec<String> = (0..n / 2)
        .map(|i| format!("src/m{}/F{i}.java", i % 50))
        .collect();
    let started = std::time::Instant::now();
    let out = poolguard(d)
        .arg("check")
        .args(&args)
        .args(["--format", "json", "--jobs", "2"])
        .output()
        .unwrap();
    let explicit = started.elapsed();
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["files"], n / 2);
    assert_eq!(doc["summary"]["diagnostics"], n / 2);
    let started = std::time::Instant::now();
    poolguard(d)
        .args(["check", ".", "--format", "json", "--jobs", "2"])
        .output()
        .unwrap();
    let whole = started.elapsed();
    assert!(
        explicit < whole * 3 + std::time::Duration::from_secs(2),
        "{n} files: explicit {explicit:?}, whole project {whole:?}"
    );
}

#[test]
fn jobs_are_capped() {
    let t = TempDir::new().unwrap();
    write(t.path(), "Q.java", UNBOUNDED_JAVA);
    let out = poolguard(t.path())
        .args(["check", ".", "--jobs", "100000", "--format", "concise"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--jobs 100000 capped at"));
}

#[test]
fn odd_file_names_stay_distinct_and_on_one_line() {
    use std::os::unix::ffi::OsStrExt;
    let t = TempDir::new().unwrap();
    let d = t.path();
    for name in [&b"a\xff.java"[..], b"a\xfe.java", b"new\nline.java"] {
        fs::write(d.join(std::ffi::OsStr::from_bytes(name)), UNBOUNDED_JAVA).unwrap();
    }
    let (_, doc) = check_json(d, &["."], &[]);
    let mut paths: Vec<String> = rules_found(&doc).into_iter().map(|(p, _)| p).collect();
    paths.sort();
    assert_eq!(paths, ["a\\xfe.java", "a\\xff.java", "new\nline.java"]);
    let out = poolguard(d)
        .args(["check", ".", "--format", "concise"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.contains("new\\nline.java:2:"), "{text}");
}

#[test]
fn java_int_arithmetic_overflows_like_java() {
    let t = TempDir::new().unwrap();
    let q = |cap: &str| {
        format!("import java.util.concurrent.*;\nclass Q {{ ExecutorService q = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>({cap})); @org.springframework.web.bind.annotation.GetMapping(\"/\") void f(java.util.List<Runnable> rs) {{ for (Runnable r : rs) q.execute(r); }} }}\n")
    };
    write(t.path(), "Wraps.java", &q("1 << 33")); // 2 in Java
    write(t.path(), "Large.java", &q("1 << 20"));
    let (_, doc) = check_json(t.path(), &["."], &[]);
    let paths: Vec<String> = rules_found(&doc).into_iter().map(|(p, _)| p).collect();
    assert_eq!(paths, ["Large.java"]);
}
