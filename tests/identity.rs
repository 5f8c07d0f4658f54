//! One identity per finding: paths in every format, fingerprints and baselines
//! are relative to the project root (config directory, else git work tree, else
//! the arguments' common ancestor), whatever folder poolguard runs from.

mod common;

use std::fs;
use std::path::Path;

use common::{git, poolguard_in as poolguard};
use tempfile::TempDir;

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

/// stdout of `poolguard check ARGS` run in `dir` (exit 0 or 1).
fn stdout(dir: &Path, args: &[&str]) -> String {
    let out = poolguard(dir).arg("check").args(args).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

const QUEUE_JAVA: &str = "package com.acme;\nimport java.util.concurrent.*;\nclass Q {\n  ExecutorService q = Executors.newFixedThreadPool(4);\n  @org.springframework.web.bind.annotation.GetMapping(\"/\") void f(java.util.List<Runnable> rs) { for (Runnable r : rs) q.execute(r); }\n}\n";
const CHANNEL_RS: &str =
    "#[get(\"/\")] pub fn f() {\n    let (_tx, _rx) = std::sync::mpsc::channel::<u8>();\n}\n";

/// `t/repo` (a git repository) with a Java service and a Rust crate.
fn repo() -> TempDir {
    let t = TempDir::new().unwrap();
    let repo = t.path().join("repo");
    write(&repo, "svc/src/main/java/com/acme/Q.java", QUEUE_JAVA);
    write(&repo, "engine/src/lib.rs", CHANNEL_RS);
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "base"]);
    t
}

/// The same tree checked from its root, a subfolder and the parent directory.
fn from_three_places(t: &TempDir, format: &str) -> [String; 3] {
    let repo = t.path().join("repo");
    [
        stdout(&repo, &[".", "--format", format]),
        stdout(&repo.join("svc"), &["..", "--format", format]),
        stdout(t.path(), &["repo", "--format", format]),
    ]
}

#[test]
fn every_format_is_the_same_from_any_folder() {
    let t = repo();
    for format in [
        "json", "concise", "github", "sarif", "rdjson", "gitlab", "human",
    ] {
        let [root, sub, parent] = from_three_places(&t, format);
        assert_eq!(root, sub, "{format}: root vs subfolder");
        assert_eq!(root, parent, "{format}: root vs parent");
    }
    let [json, ..] = from_three_places(&t, "json");
    let doc = common::assert_valid_json(&json);
    let paths: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        ["engine/src/lib.rs", "svc/src/main/java/com/acme/Q.java"]
    );
    let [sarif, ..] = from_three_places(&t, "sarif");
    let sarif: serde_json::Value = serde_json::from_str(&sarif).unwrap();
    let base = sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    let real = fs::canonicalize(t.path().join("repo")).unwrap();
    assert_eq!(base, format!("file://{}/", real.display()));
}

#[test]
fn a_staged_file_has_the_fingerprint_of_the_full_run() {
    let t = repo();
    let repo = t.path().join("repo");
    let fingerprint = |dir: &Path, args: &[&str]| {
        let doc = common::assert_valid_json(&stdout(dir, &[args, &["--format", "json"]].concat()));
        (
            doc["diagnostics"][0]["path"].as_str().unwrap().to_string(),
            doc["diagnostics"][0]["fingerprint"]
                .as_str()
                .unwrap()
                .to_string(),
        )
    };
    let full = fingerprint(&repo, &["svc"]);
    assert_eq!(full.0, "svc/src/main/java/com/acme/Q.java");
    let java = repo.join("svc/src/main/java/com/acme");
    assert_eq!(full, fingerprint(&java, &["Q.java"]));
    assert_eq!(
        full,
        fingerprint(&repo.join("svc"), &["src/main/java/com/acme/Q.java"])
    );
    assert_eq!(
        full,
        fingerprint(t.path(), &["repo/svc/src/main/java/com/acme/Q.java"])
    );
}

#[test]
fn a_baseline_works_from_any_folder() {
    let t = repo();
    let repo = t.path().join("repo");
    let sub = repo.join("svc");
    poolguard(&repo)
        .args(["check", ".", "--write-baseline", "baseline.json"])
        .assert()
        .code(0);
    poolguard(&sub)
        .args(["check", "..", "--write-baseline", "../from-sub.json"])
        .assert()
        .code(0);
    poolguard(t.path())
        .args(["check", "repo", "--write-baseline", "from-parent.json"])
        .assert()
        .code(0);
    let written = fs::read_to_string(repo.join("baseline.json")).unwrap();
    assert!(
        written.contains("\"path\": \"svc/src/main/java/com/acme/Q.java\""),
        "{written}"
    );
    assert_eq!(
        written,
        fs::read_to_string(repo.join("from-sub.json")).unwrap()
    );
    assert_eq!(
        written,
        fs::read_to_string(t.path().join("from-parent.json")).unwrap()
    );
    poolguard(&repo)
        .args(["check", ".", "--baseline", "baseline.json"])
        .assert()
        .code(0);
    poolguard(&sub)
        .args(["check", "..", "--baseline", "../baseline.json"])
        .assert()
        .code(0);
    poolguard(&sub)
        .args(["check", ".", "--baseline", "../baseline.json"])
        .assert()
        .code(0);
    poolguard(t.path())
        .args(["check", "repo", "--baseline", "repo/baseline.json"])
        .assert()
        .code(0);
    // A new finding is still reported, wherever the run starts.
    write(&repo, "engine/src/extra.rs", CHANNEL_RS);
    poolguard(&sub)
        .args(["check", "..", "--baseline", "../baseline.json"])
        .assert()
        .code(1);
}

#[test]
fn since_works_from_any_folder() {
    let t = repo();
    let repo = t.path().join("repo");
    write(
        &repo,
        "engine/src/lib.rs",
        &format!(
            "{CHANNEL_RS}#[get(\"/\")] pub fn g() {{\n    let (_a, _b) = std::sync::mpsc::channel::<u8>();\n}}\n"
        ),
    );
    let expected = "engine/src/lib.rs:5:20: warning[unbounded_queue]";
    for (dir, arg) in [
        (repo.clone(), "."),
        (repo.join("svc"), ".."),
        (repo.join("engine/src"), "../.."),
        (t.path().to_path_buf(), "repo"),
    ] {
        let out = stdout(&dir, &[arg, "--since", "HEAD", "--format", "concise"]);
        assert_eq!(out.lines().count(), 1, "from {}: {out}", dir.display());
        assert!(out.starts_with(expected), "from {}: {out}", dir.display());
    }
    // From a subfolder, `.` limits the report to it, with root-relative paths.
    let out = stdout(
        &repo.join("engine"),
        &[".", "--since", "HEAD", "--format", "concise"],
    );
    assert!(out.starts_with(expected), "{out}");
    assert_eq!(
        stdout(
            &repo.join("svc"),
            &[".", "--since", "HEAD", "--format", "concise"]
        ),
        ""
    );
}

#[test]
fn the_config_directory_is_the_root_without_git() {
    let t = TempDir::new().unwrap();
    let project = t.path().join("project");
    write(
        &project,
        "poolguard.toml",
        "[rules]\nunbounded_queue = \"error\"\n",
    );
    write(&project, "a/src/lib.rs", CHANNEL_RS);
    write(&project, "b/B.java", QUEUE_JAVA);
    let expected = "a/src/lib.rs:2:22: error[unbounded_queue]";
    for (dir, arg) in [
        (project.clone(), "."),
        (project.join("a/src"), "../.."),
        (t.path().to_path_buf(), "project"),
    ] {
        let out = stdout(&dir, &[arg, "--format", "concise"]);
        assert!(out.starts_with(expected), "from {}: {out}", dir.display());
    }
    // A file passed alone still reports under the config's root.
    let out = stdout(&project.join("a"), &["src/lib.rs", "--format", "concise"]);
    assert!(out.starts_with(expected), "{out}");
}

#[test]
fn the_common_ancestor_is_the_root_without_config_or_git() {
    let t = TempDir::new().unwrap();
    write(t.path(), "x/one/a.rs", CHANNEL_RS);
    write(t.path(), "x/two/b.rs", CHANNEL_RS);
    let from_x = stdout(&t.path().join("x"), &["one", "two", "--format", "concise"]);
    let from_one = stdout(
        &t.path().join("x/one"),
        &[".", "../two", "--format", "concise"],
    );
    let from_top = stdout(t.path(), &["x/one", "x/two", "--format", "concise"]);
    assert!(from_x.starts_with("one/a.rs:2:22:"), "{from_x}");
    assert!(from_x.contains("\ntwo/b.rs:2:22:"), "{from_x}");
    assert_eq!(from_x, from_one);
    assert_eq!(from_x, from_top);
}
