//! What CI, pre-commit and review bots rely on: `--since` in a git repository,
//! baselines, unused allows, and whole-project context for partial runs.

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

fn findings(dir: &Path, args: &[&str]) -> Vec<(String, u64, String)> {
    let out = poolguard(dir)
        .arg("check")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    let doc = common::assert_valid_json(std::str::from_utf8(&out.stdout).unwrap());
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_string(),
                d["span"]["start"]["line"].as_u64().unwrap(),
                d["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

const CHANNEL: &str = "    let (_tx, _rx) = std::sync::mpsc::channel::<u8>();\n";

fn rust_fn(body: &[&str]) -> String {
    format!("#[get(\"/\")] pub fn f() {{\n{}}}\n", body.concat())
}

#[test]
fn since_reports_only_changed_lines() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    git(d, &["init", "-q", "-b", "main"]);
    write(d, "src/old.rs", &rust_fn(&[CHANNEL]));
    write(d, "src/moved.rs", &rust_fn(&[CHANNEL, "    let _x = 1;\n"]));
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "base"]);

    // A new finding in an existing file, a renamed file with a new finding, an untracked file.
    write(d, "src/old.rs", &rust_fn(&[CHANNEL, CHANNEL]));
    git(d, &["mv", "src/moved.rs", "src/renamed.rs"]);
    write(
        d,
        "src/renamed.rs",
        &rust_fn(&[CHANNEL, "    let _x = 1;\n", CHANNEL]),
    );
    write(d, "src/new.rs", &rust_fn(&[CHANNEL]));

    let all = findings(d, &["."]);
    assert_eq!(all.len(), 5, "{all:?}");
    let since = findings(d, &[".", "--since", "HEAD"]);
    assert_eq!(
        since,
        vec![
            ("src/new.rs".to_string(), 2, "unbounded_queue".to_string()),
            ("src/old.rs".to_string(), 3, "unbounded_queue".to_string()),
            (
                "src/renamed.rs".to_string(),
                4,
                "unbounded_queue".to_string()
            ),
        ]
    );

    poolguard(d)
        .args(["check", ".", "--since", "no-such-ref"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no such git revision"));
}

#[test]
fn since_outside_git_is_a_clear_error() {
    let t = TempDir::new().unwrap();
    write(t.path(), "a.rs", &rust_fn(&[CHANNEL]));
    poolguard(t.path())
        .args(["check", ".", "--since", "main"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("is not inside a git repository"));
}

#[test]
fn baseline_hides_known_findings_by_fingerprint() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    write(d, "src/a.rs", &rust_fn(&[CHANNEL]));
    poolguard(d)
        .args(["check", ".", "--write-baseline", "poolguard-baseline.json"])
        .assert()
        .code(0);
    let text = fs::read_to_string(d.join("poolguard-baseline.json")).unwrap();
    assert!(
        text.contains("\"schema\": \"poolguard-baseline/v1\""),
        "{text}"
    );
    assert!(text.contains("\"path\": \"src/a.rs\""), "{text}");
    assert!(
        !text.contains("\"line\""),
        "baselines never record line numbers: {text}"
    );
    poolguard(d)
        .args(["check", ".", "--baseline", "poolguard-baseline.json"])
        .assert()
        .code(0);

    // Lines added above the known finding do not resurrect it.
    write(
        d,
        "src/a.rs",
        &format!("// header\n\nuse std::fmt;\n{}", rust_fn(&[CHANNEL])),
    );
    poolguard(d)
        .args(["check", ".", "--baseline", "poolguard-baseline.json"])
        .assert()
        .code(0);

    // A new identical finding beside the old one is still reported.
    write(d, "src/a.rs", &rust_fn(&[CHANNEL, CHANNEL]));
    let left = findings(d, &[".", "--baseline", "poolguard-baseline.json"]);
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn unused_allows_are_reported_on_request() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    write(
        d,
        "a.rs",
        "#[get(\"/\")] pub fn f() {\n    // poolguard: allow(unbounded_queue) drained at once\n    let (_tx, _rx) = std::sync::mpsc::channel::<u8>();\n    // poolguard: allow(unbounded_queue) stale\n    let (_a, _b) = std::sync::mpsc::sync_channel::<u8>(4);\n}\n",
    );
    poolguard(d).args(["check", "."]).assert().code(0);
    let out = findings(d, &[".", "--report-unused-allows"]);
    assert_eq!(
        out,
        vec![("a.rs".to_string(), 4, "unused_allow".to_string())]
    );
}

#[test]
fn a_partial_run_still_links_across_the_project() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    git(d, &["init", "-q", "-b", "main"]);
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/incidents/java/incident4_gateway");
    for f in fs::read_dir(&src).unwrap() {
        let f = f.unwrap().path();
        fs::copy(&f, d.join("gw").join(f.file_name().unwrap()))
            .or_else(|_| {
                fs::create_dir_all(d.join("gw"))?;
                fs::copy(&f, d.join("gw").join(f.file_name().unwrap()))
            })
            .unwrap();
    }
    // What pre-commit does: pass the one staged file.
    let out = poolguard(d)
        .args(["check", "gw/AccessLogGlobalFilter.java", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let doc = common::assert_valid_json(std::str::from_utf8(&out.stdout).unwrap());
    let diags = doc["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["rule"], "caller_runs_under_join");
    let label_files: Vec<&str> = diags[0]["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["path"].as_str().unwrap())
        .collect();
    assert!(
        label_files.contains(&"gw/AccessLogExecutorConfig.java"),
        "{label_files:?}"
    );
    assert!(
        label_files.contains(&"gw/AccessLogService.java"),
        "{label_files:?}"
    );
    assert_eq!(doc["summary"]["files"], 1);
    // The other files are context only: a finding there would not be reported.
    let config_only = findings(d, &["gw/AccessLogExecutorConfig.java"]);
    assert!(config_only.is_empty(), "{config_only:?}");
}
