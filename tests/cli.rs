//! The command line as users and CI see it: exit codes, config errors,
//! suppressions, test-code skipping, determinism and bad input.

mod common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

fn poolguard() -> Command {
    let mut c = Command::cargo_bin("poolguard").unwrap();
    // No record cache: tests on the repository's fixtures must not write one here.
    c.env_remove("NO_COLOR")
        .env_remove("POOLGUARD_TIMING")
        .env("POOLGUARD_NO_CACHE", "1");
    c
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

const UNBOUNDED_RS: &str =
    "#[get(\"/\")] pub fn f() { let (_tx, _rx) = std::sync::mpsc::channel::<u8>(); }\n";
const BOUNDED_RS: &str =
    "#[get(\"/\")] pub fn f() { let (_tx, _rx) = std::sync::mpsc::sync_channel::<u8>(8); }\n";
/// An unbounded pool a request handler fills (hot: reported by default).
const UNBOUNDED_JAVA: &str = "import java.util.concurrent.*;\nclass Q { ExecutorService q = Executors.newFixedThreadPool(4); @org.springframework.web.bind.annotation.GetMapping(\"/\") void f(java.util.List<Runnable> rs) { for (Runnable r : rs) q.execute(r); } }\n";

/// stdout as a `poolguard/v1` document, validated against the schema.
/// Run `poolguard ARGS PATH`, expect exit `code`, return stdout.
fn stdout_of(args: &[&str], path: impl AsRef<std::ffi::OsStr>, code: i32) -> Vec<u8> {
    poolguard()
        .args(args)
        .arg(path)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone()
}

fn json(out: &[u8]) -> serde_json::Value {
    common::assert_valid_json(std::str::from_utf8(out).expect("stdout is UTF-8"))
}

#[test]
fn exit_codes() {
    let t = TempDir::new().unwrap();
    write(t.path(), "clean/a.rs", BOUNDED_RS);
    write(t.path(), "dirty/a.rs", UNBOUNDED_RS);
    poolguard()
        .arg("check")
        .arg(t.path().join("clean"))
        .assert()
        .code(0);
    poolguard()
        .arg("check")
        .arg(t.path().join("dirty"))
        .assert()
        .code(1);
    poolguard()
        .args(["check", "--exit-zero"])
        .arg(t.path().join("dirty"))
        .assert()
        .code(0);
    poolguard()
        .arg("check")
        .arg(t.path().join("missing"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no such file or directory"));
    poolguard()
        .args(["check", "--select", "no_such_rule"])
        .arg(t.path().join("clean"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown rule `no_such_rule`"));
    poolguard()
        .args(["check", "--format", "xml"])
        .assert()
        .code(2);
}

#[test]
fn config_levels_settings_and_errors() {
    let t = TempDir::new().unwrap();
    write(t.path(), "src/a.rs", UNBOUNDED_RS);
    write(
        t.path(),
        "poolguard.toml",
        "[rules]\nunbounded_queue = \"off\"\n",
    );
    poolguard()
        .arg("check")
        .arg(t.path().join("src"))
        .assert()
        .code(0);

    write(
        t.path(),
        "poolguard.toml",
        "[rules]\nunbounded_queue = \"error\"\n",
    );
    let out = stdout_of(&["check", "--format", "json"], t.path(), 1);
    assert_eq!(json(&out)["diagnostics"][0]["level"], "error");

    write(
        t.path(),
        "poolguard.toml",
        "[settings]\nexclude = [\"src/**\"]\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(0);

    config_error(
        t.path(),
        "[rules]\nunbounded_queue = \"warning\"\nbogus_rule = \"off\"\n",
        &[
            "poolguard.toml:3: unknown rule `bogus_rule`",
            "known rules: ",
        ],
    );
    config_error(
        t.path(),
        "[settings]\n\nmax_capacity = 10\n",
        &["poolguard.toml:3:", "max_capacity"],
    );
    config_error(
        t.path(),
        "[rules]\nunbounded_queue = \"loud\"\n",
        &["allowed: \"error\", \"warning\", \"off\""],
    );
}

/// Write `toml` as the config of `dir`, and expect exit 2 with each of `messages` on stderr.
fn config_error(dir: &Path, toml: &str, messages: &[&str]) {
    write(dir, "poolguard.toml", toml);
    let out = poolguard()
        .arg("check")
        .arg(dir)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let stderr = String::from_utf8_lossy(&out);
    for m in messages {
        assert!(stderr.contains(m), "expected `{m}` in: {stderr}");
    }
}

#[test]
fn config_max_queue_capacity_and_explicit_config() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "a.rs",
        "#[get(\"/\")] pub fn f() { let _c = crossbeam_channel::bounded::<u8>(5000); }\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(0);
    write(
        t.path(),
        "strict.toml",
        "[settings]\nmax_queue_capacity = 1000\n",
    );
    poolguard()
        .arg("check")
        .arg("--config")
        .arg(t.path().join("strict.toml"))
        .arg(t.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("capacity 5000"));
}

/// Macros skipped and crates that are not the project's own are catalog data too: a
/// team's logging macro hides what it formats; an in-house crate's `spawn` is no call
/// of the project's `spawn`.
#[test]
fn rust_macro_and_crate_lists_from_config() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "a.rs",
        "#[get(\"/\")] pub fn f() { audit_log!(std::sync::mpsc::channel::<u8>()); }\n",
    );
    let count = |config: &str| {
        write(t.path(), "poolguard.toml", config);
        let out = stdout_of(&["check", "--format", "json", "--exit-zero"], t.path(), 0);
        json(&out)["summary"]["diagnostics"].as_u64().unwrap()
    };
    assert_eq!(count(""), 1);
    assert_eq!(
        count("[catalog.rust]\nskipped_macros = [\"audit_log\"]\n"),
        0
    );
}

#[test]
fn catalog_extension_from_config() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "a.rs",
        "use acme_chan::unbounded;\n#[get(\"/\")] pub fn f() { let _c = unbounded::<u8>(); }\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(0);
    write(
        t.path(),
        "poolguard.toml",
        "[[catalog.rust.queues]]\ncall = \"acme_chan::unbounded\"\nhelp = \"use `acme_chan::bounded(n)`\"\n",
    );
    poolguard()
        .arg("check")
        .arg(t.path())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("use `acme_chan::bounded(n)`"));
}

#[test]
fn select_and_ignore() {
    let t = TempDir::new().unwrap();
    write(t.path(), "a.rs", UNBOUNDED_RS);
    poolguard()
        .args(["check", "--ignore", "unbounded_queue"])
        .arg(t.path())
        .assert()
        .code(0);
    poolguard()
        .args(["check", "--select", "unbounded_queue"])
        .arg(t.path())
        .assert()
        .code(1);
}

#[test]
fn suppressions() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "a.rs",
        "#[get(\"/\")] pub fn f() {\n    // poolguard: allow(unbounded_queue) drained at once\n    let (_tx, _rx) = std::sync::mpsc::channel::<u8>();\n    let (_a, _b) = std::sync::mpsc::channel::<u8>(); // poolguard: allow(unbounded_queue)\n}\n",
    );
    write(
        t.path(),
        "B.java",
        "import java.util.concurrent.*;\n@SuppressWarnings({\"rawtypes\", \"poolguard:unbounded_queue\"})\nclass B { ExecutorService q = Executors.newFixedThreadPool(4); @org.springframework.web.bind.annotation.GetMapping(\"/\") void f(java.util.List<Runnable> rs) { for (Runnable r : rs) q.execute(r); } }\n",
    );
    write(
        t.path(),
        "C.java",
        "// poolguard: allow-file(unbounded_queue)\nimport java.util.concurrent.*;\nclass C { ExecutorService q = Executors.newFixedThreadPool(4); @org.springframework.web.bind.annotation.GetMapping(\"/\") void f(java.util.List<Runnable> rs) { for (Runnable r : rs) q.execute(r); } }\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(0);
    // An allow for another rule does not hide this one.
    write(
        t.path(),
        "d.rs",
        "#[get(\"/\")] pub fn f() {\n    // poolguard: allow(unbounded_join)\n    let (_tx, _rx) = std::sync::mpsc::channel::<u8>();\n}\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(1);
}

#[test]
fn test_code_is_skipped_unless_asked() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "svc/src/test/java/com/acme/Helper.java",
        UNBOUNDED_JAVA,
    );
    write(
        t.path(),
        "svc/src/main/java/com/acme/OrderServiceTest.java",
        UNBOUNDED_JAVA,
    );
    write(
        t.path(),
        "svc/src/main/java/com/acme/OrderServiceIT.java",
        UNBOUNDED_JAVA,
    );
    write(t.path(), "crate/tests/it.rs", UNBOUNDED_RS);
    write(t.path(), "crate/benches/b.rs", UNBOUNDED_RS);
    write(t.path(), "crate/examples/e.rs", UNBOUNDED_RS);
    write(
        t.path(),
        "crate/src/lib.rs",
        "#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() { let _c = std::sync::mpsc::channel::<u8>(); }\n}\n#[tokio::test]\nasync fn t2() { let _c = std::sync::mpsc::channel::<u8>(); }\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(0);
    let out = stdout_of(
        &["check", "--include-tests", "--format", "json"],
        t.path(),
        1,
    );
    // The two channels in test functions are filled by nothing: not reported.
    assert_eq!(json(&out)["summary"]["diagnostics"], 6);
}

#[test]
fn ignore_files_hidden_and_build_dirs_are_skipped() {
    let t = TempDir::new().unwrap();
    write(t.path(), ".gitignore", "gen-out/\n");
    write(t.path(), "gen-out/a.rs", UNBOUNDED_RS);
    write(t.path(), ".hidden/a.rs", UNBOUNDED_RS);
    write(t.path(), "target/a.rs", UNBOUNDED_RS);
    write(t.path(), "build/A.java", UNBOUNDED_JAVA);
    write(t.path(), "node_modules/x/a.rs", UNBOUNDED_RS);
    write(t.path(), "src/ok.rs", BOUNDED_RS);
    poolguard().arg("check").arg(t.path()).assert().code(0);
    // An explicit file is always checked.
    poolguard()
        .arg("check")
        .arg(t.path().join("gen-out/a.rs"))
        .assert()
        .code(1);
    // ... unless --force-exclude applies the config's excludes to it.
    write(
        t.path(),
        "poolguard.toml",
        "[settings]\nexclude = [\"gen-out/**\"]\n",
    );
    poolguard()
        .args(["check", "--force-exclude"])
        .arg(t.path().join("gen-out/a.rs"))
        .assert()
        .code(0);
}

#[test]
fn packages_named_build_are_source() {
    let t = TempDir::new().unwrap();
    // Gradle output beside the sources: skipped.
    write(t.path(), "svc/build/generated/A.java", UNBOUNDED_JAVA);
    poolguard().arg("check").arg(t.path()).assert().code(0);
    // A package named `build` in the sources: checked.
    write(
        t.path(),
        "svc/src/main/java/org/acme/build/Q.java",
        UNBOUNDED_JAVA,
    );
    let out = stdout_of(&["check", "--format", "json"], t.path(), 1);
    let paths: Vec<_> = json(&out)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(paths, ["svc/src/main/java/org/acme/build/Q.java"]);
}

#[test]
fn cold_notes_name_the_cold_root() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "Cargo.toml",
        "[package]\nname = \"warmer\"\nversion = \"0.1.0\"\n",
    );
    write(
        t.path(),
        "src/main.rs",
        "fn main() {\n    start();\n}\n\nfn start() {\n    warm();\n}\n\nfn warm() {\n    let _ = std::net::TcpStream::connect(\"cache.internal:6379\");\n}\n",
    );
    let out = stdout_of(&["check", "--pedantic", "--format", "json"], t.path(), 0);
    let doc = json(&out);
    let d = &doc["diagnostics"][0];
    assert_eq!(d["context"]["kind"], "cold");
    let via: Vec<_> = d["context"]["via"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["what"].as_str().unwrap().to_string())
        .collect();
    // Not "entry point `warm`": the path from `main` through its cold callers.
    assert_eq!(via, ["`main`", "calls `start`", "calls `warm`"]);
}

#[test]
fn output_is_identical_across_thread_counts() {
    let run = |jobs: &str| {
        poolguard()
            .args(["check", "fixtures", "--format", "json", "--jobs", jobs])
            .assert()
            .get_output()
            .stdout
            .clone()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("2"));
    assert!(json(&one)["summary"]["diagnostics"].as_u64().unwrap() > 10);
}

#[test]
fn bad_input_never_stops_the_run() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    write(d, "good.rs", UNBOUNDED_RS);
    write(d, "broken.rs", "fn main( { let x = ; }\n");
    write(
        d,
        "Broken.java",
        "import java.util.concurrent.*;\nclass Broken { void m() { int x = ; }\n  ExecutorService q = Executors.newFixedThreadPool(4);\n  @org.springframework.web.bind.annotation.GetMapping(\"/\") void f(java.util.List<Runnable> rs) { for (Runnable r : rs) q.execute(r); }\n}\n",
    );
    write(
        d,
        "Varargs.java",
        "class V { void f(String @Nullable ... args) { } }\n",
    );
    fs::write(d.join("latin1.rs"), b"// caf\xe9\nfn main() {}\n").unwrap();
    let deep = format!(
        "fn main() {{ let _x = {}1{}; }}\n",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    write(d, "deep.rs", &deep);
    let deep_java = format!(
        "class Deep {{ int x = {}1{}; }}\n",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    write(d, "Deep.java", &deep_java);
    let huge = "pub fn f() { let _ = 1; }\n".repeat(2_000_000); // 52 MB
    write(d, "huge.rs", &huge);
    std::os::unix::fs::symlink(d, d.join("loop")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/x.rs", d.join("dangling.rs")).unwrap();

    let assert = poolguard()
        .args(["check", "--format", "json"])
        .arg(d)
        .assert()
        .code(1);
    let out = assert.get_output();
    let doc = json(&out.stdout);
    let errors: Vec<(String, String)> = doc["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                Path::new(e["path"].as_str().unwrap())
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                e["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let has = |file: &str, text: &str| errors.iter().any(|(f, m)| f == file && m.contains(text));
    assert!(has("broken.rs", "could not parse"), "{errors:?}");
    assert!(has("Broken.java", "syntax error at line 2"), "{errors:?}");
    assert!(has("latin1.rs", "not valid UTF-8"), "{errors:?}");
    assert!(has("huge.rs", "max_file_bytes"), "{errors:?}");
    assert!(has("loop", "symlink loop"), "{errors:?}");
    assert!(has("dangling.rs", "cannot read"), "{errors:?}");
    assert!(
        !errors.iter().any(|(f, _)| f == "Varargs.java"),
        "{errors:?}"
    );
    // Nesting beyond the budget (1,000 levels) is skipped with a reason, fast.
    assert!(has("deep.rs", "skipped: nesting deeper than"), "{errors:?}");
    assert!(
        has("Deep.java", "skipped: nesting deeper than"),
        "{errors:?}"
    );
    // The other files were still checked: good.rs, and Broken.java around its error.
    let paths: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert!(paths.iter().any(|p| p.ends_with("good.rs")));
    assert!(paths.iter().any(|p| p.ends_with("Broken.java")));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("latin1.rs: not valid UTF-8"), "{stderr}");
}

#[test]
fn json_document_shape() {
    let out = poolguard()
        .args([
            "check",
            "fixtures/unbounded_queue/rust/glob_import.rs",
            "--format",
            "json",
        ])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let doc = json(&out);
    assert_eq!(doc["schema"], "poolguard/v1");
    assert_eq!(doc["version"], env!("CARGO_PKG_VERSION"));
    let d = &doc["diagnostics"][0];
    assert_eq!(d["rule"], "unbounded_queue");
    assert_eq!(d["language"], "rust");
    assert_eq!(d["path"], "fixtures/unbounded_queue/rust/glob_import.rs");
    assert_eq!(d["span"]["start"]["line"], 7);
    assert_eq!(d["span"]["start"]["column"], 20);
    assert_eq!(d["fingerprint"].as_str().unwrap().len(), 16);
    assert_eq!(doc["summary"]["files"], 1);
    assert_eq!(doc["summary"]["elapsed_ms"], 0);
}

#[test]
fn fingerprint_survives_lines_added_above() {
    let t = TempDir::new().unwrap();
    let fp = |dir: &Path| {
        let out = poolguard()
            .args(["check", "--format", "json"])
            .arg(dir)
            .assert()
            .get_output()
            .stdout
            .clone();
        json(&out)["diagnostics"][0]["fingerprint"].clone()
    };
    write(t.path(), "a.rs", UNBOUNDED_RS);
    let before = fp(t.path());
    write(
        t.path(),
        "a.rs",
        &format!("// a new header\n\nuse std::fmt;\n{UNBOUNDED_RS}"),
    );
    assert_eq!(before, fp(t.path()));
}

#[test]
fn colour_statistics_output_and_formats() {
    let run = |args: &[&str]| {
        let out = poolguard()
            .arg("check")
            .arg("fixtures/unbounded_queue")
            .args(args)
            .assert()
            .code(1)
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    assert!(run(&["--color", "always"]).contains("\u{1b}["));
    assert!(!run(&["--color", "never"]).contains("\u{1b}["));
    assert!(!run(&[]).contains("\u{1b}[")); // not a terminal
    let stats = run(&["--statistics"]);
    assert!(stats.contains("unbounded_queue"), "{stats}");
    let concise = run(&["--format", "concise"]);
    assert!(concise.lines().any(|l| l.starts_with(
        "fixtures/unbounded_queue/rust/glob_import.rs:7:20: warning[unbounded_queue] "
    )));
    let t = TempDir::new().unwrap();
    let file = t.path().join("report.json");
    poolguard()
        .args([
            "check",
            "fixtures/unbounded_queue",
            "--format",
            "json",
            "--output",
        ])
        .arg(&file)
        .assert()
        .code(1)
        .stdout("");
    assert!(fs::read_to_string(file).unwrap().contains("poolguard/v1"));
}

#[test]
fn rules_and_explain() {
    poolguard()
        .arg("rules")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("unbounded_queue"));
    poolguard()
        .args(["explain", "unbounded_queue"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("### Why is this bad?"));
    poolguard().args(["explain", "nope"]).assert().code(2);
    poolguard()
        .arg("--version")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")));
}

/// Test code: `check` finds nothing in `dir`, `check --include-tests` finds it.
fn assert_test_code(dir: &std::path::Path) {
    poolguard().arg("check").arg(dir).assert().code(0);
    poolguard()
        .args(["check", "--include-tests"])
        .arg(dir)
        .assert()
        .code(1);
}

#[test]
fn out_of_line_test_modules_are_test_code() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "src/lib.rs",
        "#[cfg(test)]\nmod tests;\nmod server;\n",
    );
    write(t.path(), "src/tests.rs", UNBOUNDED_RS);
    write(t.path(), "src/server.rs", "#[cfg(test)]\nmod helpers;\n");
    write(t.path(), "src/server/helpers.rs", UNBOUNDED_RS);
    // `#[path = "./unit/.."]` names the file, from the declaring file's directory.
    write(
        t.path(),
        "src/web/mod.rs",
        "#[cfg(test)]\n#[path = \"./unit/web_tests.rs\"]\nmod web_tests;\n",
    );
    write(t.path(), "src/web/unit/web_tests.rs", UNBOUNDED_RS);
    write(
        t.path(),
        "src/lib.rs",
        "#[cfg(test)]\nmod tests;\nmod server;\nmod web;\n",
    );
    assert_test_code(t.path());
    // The same `#[path]` module compiled in every build is product code.
    write(
        t.path(),
        "src/web/mod.rs",
        "#[path = \"./unit/web_tests.rs\"]\nmod web_tests;\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(1);
}

/// A JUnit rule under `src/main` of a test-support module is test code by its imports.
#[test]
fn java_importing_a_test_framework_is_test_code() {
    let t = TempDir::new().unwrap();
    let rule = "package com.acme.it;\n\nimport org.apache.http.impl.client.CloseableHttpClient;\nimport org.apache.http.impl.client.HttpClients;\nimport org.junit.rules.ExternalResource;\n\npublic class RestClientRule extends ExternalResource {\n  private CloseableHttpClient http;\n  @Override\n  protected void before() { http = HttpClients.createDefault(); }\n}\n";
    write(
        t.path(),
        "harness/src/main/java/com/acme/it/RestClientRule.java",
        rule,
    );
    assert_test_code(t.path());
    // Naming JUnit only in a string is no import.
    let served = rule
        .replace("import org.junit.rules.ExternalResource;\n", "")
        .replace(" extends ExternalResource", "")
        .replace(
            "public class",
            "// org.junit.rules in a comment\npublic class",
        );
    write(
        t.path(),
        "harness/src/main/java/com/acme/it/RestClientRule.java",
        &served,
    );
    poolguard().arg("check").arg(t.path()).assert().code(1);
}

#[test]
fn client_added_in_config_is_checked() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "src/Quotes.java",
        "import com.acme.rpc.RpcClient;\nclass Quotes { @org.springframework.web.bind.annotation.GetMapping(\"/\") void f() {\n  RpcClient bare = RpcClient.builder().host(\"quotes\").build();\n  RpcClient timed = RpcClient.builder().host(\"quotes\").deadline(300).build();\n} }\n",
    );
    write(
        t.path(),
        "src/quotes.rs",
        "use acme_rpc::Client;\npub fn clients() {\n    let _bare = Client::builder().host(\"quotes\").build();\n    let _timed = Client::builder().deadline(300).build();\n}\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(0);
    write(
        t.path(),
        "poolguard.toml",
        r#"[[catalog.java.clients]]
id = "acme-rpc"
name = "an Acme RPC client"
starts = ["call:com.acme.rpc.RpcClient.builder"]
needs = ["deadline"]
missing = "a deadline"
default = "calls wait for the server for as long as it likes"
help = "add `.deadline(300)` to the builder"

[[catalog.rust.clients]]
id = "acme-rpc"
name = "an Acme RPC client"
starts = ["call:acme_rpc::Client::builder"]
needs = ["deadline"]
missing = "a deadline"
default = "calls wait for the server for as long as it likes"
help = "add `.deadline(300)` to the builder"
"#,
    );
    let out = stdout_of(&["check", "--format", "json"], t.path(), 1);
    let doc = json(&out);
    let lines: Vec<(String, u64)> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string(),
                d["span"]["start"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        vec![("Quotes.java".to_string(), 3), ("quotes.rs".to_string(), 3)]
    );
    assert!(doc["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("without a deadline"));
}

/// Revision 2: generated code is skipped (and counted) unless `--include-generated`.
#[test]
fn generated_code_is_skipped() {
    let t = TempDir::new().unwrap();
    let header = "// Code generated by protoc-gen-acme. DO NOT EDIT.\n";
    write(
        t.path(),
        "src/Gen.java",
        &format!("{header}{UNBOUNDED_JAVA}"),
    );
    write(t.path(), "src/Own.java", UNBOUNDED_JAVA);
    write(
        t.path(),
        "target-gen/generated-sources/Q.java",
        UNBOUNDED_JAVA,
    );
    // OpenAPI Generator writes the annotation out in full, after the imports.
    let api = UNBOUNDED_JAVA.replace(
        "class Q",
        "@javax.annotation.Generated(value = \"org.openapitools.codegen\")\nclass Q",
    );
    write(t.path(), "src/invoker/ApiClient.java", &api);
    let out = stdout_of(&["check", "--format", "json"], t.path(), 1);
    let doc = json(&out);
    assert_eq!(doc["summary"]["diagnostics"], 1);
    assert_eq!(doc["summary"]["skipped_generated"], 3);
    let out = stdout_of(
        &["check", "--format", "json", "--include-generated"],
        t.path(),
        1,
    );
    assert_eq!(json(&out)["summary"]["diagnostics"], 4);
}

/// The findings of a JSON run over `dir` (never failing on findings).
fn diagnostics(dir: &Path, extra: &[&str]) -> Vec<serde_json::Value> {
    let out = poolguard()
        .args(["check", "--format", "json", "--exit-zero"])
        .args(extra)
        .arg(dir)
        .output()
        .unwrap();
    json(&out.stdout)["diagnostics"].as_array().unwrap().clone()
}

/// Each finding's rule and level, in output order.
fn rules_and_levels(dir: &Path, extra: &[&str]) -> Vec<(String, String)> {
    diagnostics(dir, extra)
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["level"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Rust reports unknown-context findings only with `--pedantic` too, except clients
/// without timeouts (its catalog's `unknown_reported`); a config can ask for all.
#[test]
fn rust_unknown_context_keeps_clients() {
    let t = TempDir::new().unwrap();
    let rust = r#"pub async fn settle(h: tokio::runtime::Handle) -> u8 {
    tokio::task::block_in_place(|| h.block_on(async { 1 }))
}

pub async fn fetch(url: &str) -> Result<String, reqwest::Error> {
    reqwest::Client::new().get(url).send().await?.text().await
}
"#;
    write(t.path(), "src/lib.rs", rust);
    let run = |extra: &[&str]| rules_and_levels(t.path(), extra);
    let client = ("missing_client_timeout".to_string(), "warning".to_string());
    let wait = |level: &str| ("caller_runs_under_join".to_string(), level.to_string());
    assert_eq!(run(&[]), vec![client.clone()]);
    assert_eq!(run(&["--pedantic"]), vec![wait("note"), client.clone()]);
    write(
        t.path(),
        "poolguard.toml",
        "[catalog.rust]\nunknown_context = \"warning\"\n",
    );
    assert_eq!(run(&[]), vec![wait("warning"), client]);
}

/// Java does the same since session 39: in code of unknown context a client without a
/// timeout is a warning, a wait only a note with `--pedantic`.
#[test]
fn java_unknown_context_keeps_clients() {
    let t = TempDir::new().unwrap();
    let java = r#"package com.acme.sdk;
import java.util.concurrent.Future;
import org.springframework.web.client.RestTemplate;
public class BillingSdk {
    private Future<String> token;
    public String token() throws Exception { return token.get(); }
    public String invoice(String id) {
        return new RestTemplate().getForObject("https://billing/" + id, String.class);
    }
}
"#;
    write(t.path(), "src/BillingSdk.java", java);
    let run = |extra: &[&str]| rules_and_levels(t.path(), extra);
    let client = ("missing_client_timeout".to_string(), "warning".to_string());
    let wait = ("unbounded_join".to_string(), "note".to_string());
    assert_eq!(run(&[]), vec![client.clone()]);
    assert_eq!(run(&["--pedantic"]), vec![wait, client]);
}

/// Rust: `tokio::time::timeout(d, async move { rx.await })` bounds the awaits inside
/// the block (as `timeout(d, rx)` does); the same await with no timeout around it is
/// reported (a reply from a task: a note, with `--pedantic`).
#[test]
fn timeout_around_an_async_block_bounds_its_awaits() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "Cargo.toml",
        "[package]\nname = \"quotes\"\nversion = \"0.1.0\"\n",
    );
    let rust = r#"use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

pub struct Quotes {
    pricer: mpsc::Sender<oneshot::Sender<u64>>,
}

impl Quotes {
    pub async fn bounded(&self) -> u64 {
        let (reply, rx) = oneshot::channel();
        let _ = self.pricer.send(reply).await;
        tokio::time::timeout(Duration::from_secs(2), async move { rx.await.unwrap_or(0) })
            .await
            .unwrap_or(0)
    }

    pub async fn unbounded(&self) -> u64 {
        let (reply, rx) = oneshot::channel();
        let _ = self.pricer.send(reply).await;
        rx.await.unwrap_or(0)
    }
}
"#;
    write(t.path(), "src/lib.rs", rust);
    let lines: Vec<u64> = diagnostics(t.path(), &["--pedantic"])
        .iter()
        .map(|d| d["span"]["start"]["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, vec![20]);
}

/// A scheduler's queue cannot be bounded: one that only holds the periodic task its
/// constructor schedules is not reported, not even as a `--pedantic` note; schedulers
/// fed per request are (a `static {}` block's and a constructor's), and one given
/// immediate work by code of unknown context is a `--pedantic` note.
#[test]
fn fixed_schedulers_stay_silent_with_pedantic() {
    let t = TempDir::new().unwrap();
    let java = fs::read_to_string("fixtures/unbounded_queue/java/QuoteLookups.java").unwrap();
    write(t.path(), "src/QuoteLookups.java", &java);
    let lines = |extra: &[&str]| {
        diagnostics(t.path(), extra)
            .iter()
            .map(|d| d["span"]["start"]["line"].as_u64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&[]), vec![26, 36]);
    assert_eq!(lines(&["--pedantic"]), vec![26, 31, 36]);
}

/// Revision 2: a wait in cold code is not reported, unless `--pedantic` (as a note,
/// which does not fail the build); in hot code it is an error, in unknown code a warning.
#[test]
fn levels_follow_the_execution_context() {
    let t = TempDir::new().unwrap();
    let java = r#"package com.acme;
import java.util.concurrent.Future;
import javax.annotation.PostConstruct;
import org.springframework.web.bind.annotation.GetMapping;
public class Warmup {
    private Future<String> ready;
    @PostConstruct
    public void warm() throws Exception { ready.get(); }
    @GetMapping("/x")
    public String x() throws Exception { ready.get(); return "x"; }
    public void other() throws Exception { ready.get(); }
}
"#;
    write(t.path(), "src/Warmup.java", java);
    let run = |extra: &[&str]| {
        diagnostics(t.path(), extra)
            .iter()
            .map(|d| {
                (
                    d["span"]["start"]["line"].as_u64().unwrap(),
                    d["level"].as_str().unwrap().to_string(),
                    d["context"]["kind"].as_str().unwrap().to_string(),
                )
            })
            .collect::<Vec<_>>()
    };
    // Java reports unknown-context findings only with `--pedantic` (its catalog's
    // `unknown_context`); a config can ask for them as warnings.
    assert_eq!(run(&[]), vec![(10, "error".to_string(), "hot".to_string())]);
    let pedantic = run(&["--pedantic"]);
    assert_eq!(
        pedantic,
        vec![
            (8, "note".to_string(), "cold".to_string()),
            (10, "error".to_string(), "hot".to_string()),
            (11, "note".to_string(), "unknown".to_string())
        ]
    );
    write(
        t.path(),
        "poolguard.toml",
        "[catalog.java]\nunknown_context = \"warning\"\n",
    );
    assert_eq!(
        run(&[]),
        vec![
            (10, "error".to_string(), "hot".to_string()),
            (11, "warning".to_string(), "unknown".to_string())
        ]
    );
    fs::remove_file(t.path().join("poolguard.toml")).unwrap();
    // A note alone does not fail the build.
    write(
        t.path(),
        "src/Warmup.java",
        &java
            .replace("public void other() throws Exception { ready.get(); }", "")
            .replace(
                "public String x() throws Exception { ready.get(); return \"x\"; }",
                "",
            ),
    );
    poolguard()
        .args(["check", "--pedantic"])
        .arg(t.path())
        .assert()
        .code(0);
}

/// Entry points are catalog data: a team teaches poolguard its in-house RPC framework
/// from the config, and a wait in its handlers becomes hot (an error). Catalog values
/// are typed: an unknown `heat` or wait `kind` is a config error.
#[test]
fn entry_points_from_config_and_typed_catalog() {
    let t = TempDir::new().unwrap();
    let java = r#"package com.acme;
import java.util.concurrent.Future;
import com.acme.rpc.RpcService;
@RpcService
public class Quotes {
    private Future<String> ready;
    public String quote() throws Exception { ready.get(); return "q"; }
}
"#;
    write(t.path(), "src/Quotes.java", java);
    let level = |config: &str| {
        write(t.path(), "poolguard.toml", config);
        let out = poolguard()
            .args(["check", "--format", "json", "--exit-zero"])
            .arg(t.path())
            .output()
            .unwrap();
        json(&out.stdout)["diagnostics"][0]["level"]
            .as_str()
            .unwrap_or("none")
            .to_string()
    };
    // Unknown context: reported only with `--pedantic` by default.
    assert_eq!(level(""), "none");
    let rpc = "[[catalog.java.entry_points]]\nheat = \"hot\"\nwhy = \"Acme RPC handler\"\nclass_annotations = [\"com.acme.rpc.RpcService\"]\n";
    assert_eq!(level(rpc), "error");
    write(
        t.path(),
        "poolguard.toml",
        "[[catalog.java.entry_points]]\nheat = \"lukewarm\"\nwhy = \"x\"\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(2);
    write(
        t.path(),
        "poolguard.toml",
        "[[catalog.rust.waits]]\ncall = \"acme::wait\"\nkind = \"sometimes\"\nhelp = \"x\"\n",
    );
    poolguard().arg("check").arg(t.path()).assert().code(2);
}

/// stdout and stderr of `poolguard check ARGS`, expecting `code`.
fn outputs(args: &[&str], dir: &Path, code: i32) -> (String, String) {
    let out = poolguard()
        .arg("check")
        .args(args)
        .arg(dir)
        .assert()
        .code(code)
        .get_output()
        .clone();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn invalid_allows_are_reported_with_a_suggestion() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "a.rs",
        "#[get(\"/\")] pub fn f() {\n    // poolguard: allow(unbounded_queu)\n    let (_tx, _rx) = std::sync::mpsc::channel::<u8>();\n    // poolguard: allow(unbounded-queue, bogus_rule)\n    let (_a, _b) = std::sync::mpsc::channel::<u8>();\n    // poolguard: allow(all)\n    let (_c, _d) = std::sync::mpsc::channel::<u8>();\n}\n",
    );
    write(
        t.path(),
        "B.java",
        "import java.util.concurrent.*;\n@SuppressWarnings(\"poolguard\")\nclass B { ExecutorService q = Executors.newFixedThreadPool(4); @org.springframework.web.bind.annotation.GetMapping(\"/\") void f(java.util.List<Runnable> rs) { for (Runnable r : rs) q.execute(r); } }\n",
    );
    let (out, _) = outputs(&["--format", "concise"], t.path(), 1);
    let lines: Vec<&str> = out.lines().collect();
    let has = |prefix: &str, text: &str| {
        lines
            .iter()
            .any(|l| l.starts_with(prefix) && l.contains(text))
    };
    assert!(
        has(
            "a.rs:2:5: warning[invalid_allow]",
            "did you mean `unbounded_queue`?"
        ),
        "{out}"
    );
    assert!(
        has(
            "a.rs:4:5: warning[invalid_allow]",
            "`unbounded-queue` is not a poolguard rule; did you mean `unbounded_queue`?"
        ),
        "{out}"
    );
    assert!(
        has(
            "a.rs:4:5: warning[invalid_allow]",
            "`bogus_rule` is not a poolguard rule"
        ),
        "{out}"
    );
    assert!(
        has("a.rs:6:5: warning[invalid_allow]", "catch-all"),
        "{out}"
    );
    assert!(
        has("B.java:2:1: warning[invalid_allow]", "names no rule"),
        "{out}"
    );
    // Invalid allows suppress nothing: every finding is still there.
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("[unbounded_queue]"))
            .count(),
        4,
        "{out}"
    );
    // Off like any rule; `--select` of another rule leaves it on.
    let (out, _) = outputs(
        &["--format", "concise", "--ignore", "invalid_allow"],
        t.path(),
        1,
    );
    assert!(!out.contains("invalid_allow"), "{out}");
    let (out, _) = outputs(
        &["--format", "concise", "--select", "unbounded_join"],
        t.path(),
        1,
    );
    assert_eq!(out.lines().count(), 5, "{out}");
    let (out, _) = outputs(
        &["--format", "concise", "--report-unused-allows"],
        t.path(),
        1,
    );
    assert!(!out.contains("unused_allow"), "{out}");
    // The meta-rules are in the registry, in every listing.
    poolguard().arg("rules").assert().code(0).stdout(
        predicate::str::contains("invalid_allow").and(predicate::str::contains("unused_allow")),
    );
    poolguard()
        .args(["explain", "invalid_allow"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("### What it does"));
}

#[test]
fn rules_as_json() {
    let out = poolguard()
        .args(["rules", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let doc = json(&out);
    let ids: Vec<&str> = doc["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), poolguard::rules::RULES.len());
    assert!(ids.contains(&"invalid_allow"), "{ids:?}");
    assert_eq!(
        doc["rules"][0]["languages"],
        serde_json::json!(["java", "rust"])
    );
}

/// Source files (`.java`, `.rs`) under `dir`, for totals that follow the fixtures.
fn walkdir_count(dir: &Path) -> usize {
    let mut n = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "java" || x == "rs") {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn statistics_count_each_rule_at_each_level() {
    let dir = Path::new("fixtures/nested_pool_submission");
    let (text, _) = outputs(
        &["--statistics", "--select", "nested_pool_submission"],
        dir,
        1,
    );
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0][1..], ["nested_pool_submission", "error"], "{text}");
    assert_eq!(
        rows[1][1..],
        ["nested_pool_submission", "warning"],
        "{text}"
    );
    let (errors, warnings): (u64, u64) = (rows[0][0].parse().unwrap(), rows[1][0].parse().unwrap());
    assert!(errors > 0 && warnings > 0, "{text}");
    let files = walkdir_count(dir);
    assert!(
        text.ends_with(&format!("{}  total in {files} files\n", errors + warnings)),
        "{text}"
    );
    let (js, _) = outputs(
        &[
            "--statistics",
            "--select",
            "nested_pool_submission",
            "--format",
            "json",
        ],
        dir,
        1,
    );
    let doc = json(js.as_bytes());
    assert_eq!(doc["statistics"][0]["count"], errors);
    assert_eq!(doc["statistics"][1]["level"], "warning");
}

#[test]
fn fail_level() {
    let t = TempDir::new().unwrap();
    write(t.path(), "a.rs", UNBOUNDED_RS); // a warning
    outputs(&[], t.path(), 1);
    outputs(&["--fail-level", "warning"], t.path(), 1);
    let (out, _) = outputs(&["--fail-level", "error"], t.path(), 0);
    assert!(
        out.contains("1 finding (0 errors, 1 warning) in 1 file\n"),
        "{out}"
    );
    write(
        t.path(),
        "poolguard.toml",
        "[rules]\nunbounded_queue = \"error\"\n",
    );
    outputs(&["--fail-level", "error"], t.path(), 1);
    outputs(&["--fail-level", "note"], t.path(), 2);
}

#[test]
fn skipped_explicit_paths_are_explained() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    write(d, "svc/src/test/java/FooTest.java", UNBOUNDED_JAVA);
    write(d, "svc/src/main/java/BarTest.java", UNBOUNDED_JAVA);
    write(d, "notes.txt", "not code\n");
    write(d, "gen/a.rs", UNBOUNDED_RS);
    write(d, "poolguard.toml", "[settings]\nexclude = [\"gen/**\"]\n");
    let run = |args: &[&str]| {
        let out = poolguard()
            .current_dir(d)
            .arg("check")
            .args(args)
            .assert()
            .code(0)
            .get_output()
            .clone();
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (out, err) = run(&[
        "svc/src/test/java/FooTest.java",
        "svc/src/main/java/BarTest.java",
        "notes.txt",
    ]);
    assert!(out.contains("no findings in 0 files"), "{out}");
    assert!(
        err.contains(
            "note: skipped svc/src/test/java/FooTest.java: test code (`--include-tests` checks it)"
        ),
        "{err}"
    );
    assert!(
        err.contains("note: skipped svc/src/main/java/BarTest.java: test code"),
        "{err}"
    );
    assert!(
        err.contains("note: skipped notes.txt: not a Java or Rust file"),
        "{err}"
    );
    let (_, err) = run(&["--force-exclude", "gen/a.rs"]);
    assert!(
        err.contains("note: skipped gen/a.rs: matches the config's `exclude`"),
        "{err}"
    );
    write(
        d,
        "svc/src/main/java/Stub.java",
        &format!("// Code generated by protoc. DO NOT EDIT.\n{UNBOUNDED_JAVA}"),
    );
    let (out, err) = run(&["svc/src/main/java/Stub.java"]);
    assert!(
        err.contains("note: skipped svc/src/main/java/Stub.java: generated code (`--include-generated` checks it)"),
        "{err}"
    );
    assert!(out.contains("1 generated file skipped"), "{out}");
    // The same file is test code from any folder.
    poolguard()
        .current_dir(d.join("svc/src/test"))
        .args(["check", "java/FooTest.java"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "note: skipped svc/src/test/java/FooTest.java: test code",
        ));
    poolguard()
        .current_dir(d.join("svc/src/test"))
        .args(["check", "."])
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "note: skipped svc/src/test: test code",
        ));
}

#[test]
fn output_file_still_prints_the_summary() {
    let t = TempDir::new().unwrap();
    write(t.path(), "a.rs", UNBOUNDED_RS);
    let report = t.path().join("out.sarif");
    poolguard()
        .args(["check", "--format", "sarif", "--output"])
        .arg(&report)
        .arg(t.path().join("a.rs"))
        .assert()
        .code(1)
        .stdout("")
        .stderr("poolguard: 1 finding (0 errors, 1 warning) in 1 file\n");
    assert!(fs::read_to_string(&report)
        .unwrap()
        .contains("\"ruleId\": \"unbounded_queue\""));
}

#[test]
fn show_settings_and_show_files() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    write(d, "poolguard.toml", "[rules]\nunbounded_join = \"warning\"\n[settings]\nexclude = [\"gen/**\"]\n[[per-file]]\npaths = [\"legacy/**\"]\nrules = { unbounded_queue = \"off\" }\n");
    write(d, "src/a.rs", UNBOUNDED_RS);
    write(d, "gen/b.rs", UNBOUNDED_RS);
    write(d, "tests/it.rs", UNBOUNDED_RS);
    write(d, "target/x.rs", UNBOUNDED_RS);
    write(d, "README.md", "# x\n");
    let out = poolguard()
        .current_dir(d.join("src"))
        .args([
            "check",
            "--show-settings",
            "--ignore",
            "missing_client_timeout",
        ])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let real = fs::canonicalize(d).unwrap();
    assert!(
        out.contains(&format!("config file: {}/poolguard.toml\n", d.display()))
            || out.contains(&format!("config file: {}/poolguard.toml\n", real.display())),
        "{out}"
    );
    assert!(
        out.contains("project root: ") && out.contains("(the config file's directory)"),
        "{out}"
    );
    assert!(
        out.contains("  unbounded_join           warning  config\n"),
        "{out}"
    );
    assert!(
        out.contains("  unbounded_queue          warning  default\n"),
        "{out}"
    );
    assert!(
        out.contains("  missing_client_timeout   off      command line\n"),
        "{out}"
    );
    assert!(
        out.contains("  unused_allow             off      default\n"),
        "{out}"
    );
    assert!(
        out.contains("per-file [\"legacy/**\"]: unbounded_queue = off\n"),
        "{out}"
    );
    assert!(out.contains("  exclude = [\"gen/**\"]\n"), "{out}");

    let assert = poolguard()
        .current_dir(d)
        .args(["check", "--show-files"])
        .assert()
        .code(0);
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert_eq!(
        out,
        "check  src/a.rs\nskip   gen/b.rs: matches the config's `exclude`\nskip   target: build output or dependencies\nskip   tests: test code (`--include-tests` checks it)\n"
    );
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(err.contains("1 file to check, 3 paths skipped"), "{err}");
}

#[test]
fn per_file_rule_levels() {
    let t = TempDir::new().unwrap();
    let d = t.path();
    write(d, "legacy/a.rs", UNBOUNDED_RS);
    write(d, "core/b.rs", UNBOUNDED_RS);
    write(d, "poolguard.toml", "[[per-file]]\npaths = [\"legacy/**\"]\nrules = { unbounded_queue = \"off\" }\n\n[[per-file]]\npaths = [\"core/**\"]\nrules = { unbounded_queue = \"error\" }\n");
    let (out, _) = outputs(&["--format", "concise"], d, 1);
    assert_eq!(out, "core/b.rs:1:43: error[unbounded_queue] `std::sync::mpsc::channel()` is unbounded (there is no capacity to set); under overload, work waits in it instead of being rejected\n");
    // Off for the whole run, on for some files.
    write(d, "poolguard.toml", "[rules]\nunbounded_queue = \"off\"\n[[per-file]]\npaths = [\"core/*.rs\"]\nrules = { unbounded_queue = \"warning\" }\n");
    let (out, _) = outputs(&["--format", "concise"], d, 1);
    assert!(
        out.starts_with("core/b.rs:1:43: warning[unbounded_queue]"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 1, "{out}");
    // The command line still wins.
    outputs(&["--ignore", "unbounded_queue"], d, 0);
    config_error(
        d,
        "[[per-file]]\npaths = [\"x/**\"]\nrules = { unbounded-queue = \"off\" }\n",
        &["poolguard.toml:3: unknown rule `unbounded-queue`; did you mean `unbounded_queue`?"],
    );
    config_error(
        d,
        "[[per-file]]\npaths = [\"x/**\"]\nlevels = {}\n",
        &["poolguard.toml:3:", "levels"],
    );
}

#[test]
fn rule_names_on_the_command_line() {
    let t = TempDir::new().unwrap();
    write(t.path(), "a.rs", UNBOUNDED_RS);
    outputs(&["--select", "unbounded_queue,"], t.path(), 1);
    outputs(&["--select", "unbounded_join,"], t.path(), 0);
    outputs(&["--ignore", ",unbounded_queue,"], t.path(), 0);
    let (_, err) = outputs(&["--select", "unbounded-join"], t.path(), 2);
    assert!(
        err.contains("--select: unknown rule `unbounded-join`; did you mean `unbounded_join`?"),
        "{err}"
    );
    let (_, err) = outputs(&["--ignore", "unbounded_queu"], t.path(), 2);
    assert!(err.contains("did you mean `unbounded_queue`?"), "{err}");
    let (_, err) = outputs(&["--select", ","], t.path(), 2);
    assert!(err.contains("--select: names no rule"), "{err}");
    poolguard()
        .args(["explain", "unbounded-join"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean `unbounded_join`?"));
}

#[test]
fn notes_are_counted_apart_and_never_fail() {
    let run = |args: &[&str]| {
        poolguard()
            .args(["check", "fixtures/model", "--format", "json"])
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["--pedantic"]);
    let doc = json(&out.stdout);
    let notes: Vec<&serde_json::Value> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["level"] == "note")
        .collect();
    assert!(!notes.is_empty());
    let human = poolguard()
        .args(["check", "fixtures/model", "--pedantic"])
        .output()
        .unwrap();
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(
        text.contains(&format!(
            "; {} note{} in cold code (--pedantic)",
            notes.len(),
            if notes.len() == 1 { "" } else { "s" }
        )),
        "{text}"
    );
}

/// The README's rule table cannot drift from the registry: every rule, in registry
/// order (the precedence order), with its default level and documentation link.
#[test]
fn readme_rule_table_matches_the_registry() {
    let readme = fs::read_to_string("README.md").unwrap();
    let out = poolguard()
        .args(["rules", "--format", "json"])
        .output()
        .unwrap();
    let rules = json(&out.stdout)["rules"].as_array().unwrap().clone();
    let mut last = 0;
    for r in &rules {
        let id = r["id"].as_str().unwrap();
        let level = r["default_level"].as_str().unwrap();
        let row = format!("| [`{id}`](rules/{id}.md) | {level} |");
        let at = readme
            .find(&row)
            .unwrap_or_else(|| panic!("README rule table lacks `{row}`"));
        assert!(at > last, "README lists `{id}` out of registry order");
        last = at;
        assert!(
            Path::new(&format!("rules/{id}.md")).exists(),
            "rules/{id}.md is missing"
        );
    }
}

/// A client a binary's function returns, whose users the run cannot see, is cold like
/// the program: a note with `--pedantic`, whose context names why.
#[test]
fn a_binary_client_is_cold_and_says_why() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "Cargo.toml",
        "[package]\nname = \"tools\"\nversion = \"0.1.0\"\n",
    );
    write(
        t.path(),
        "src/bin/probe.rs",
        "pub fn client() -> reqwest::Client {\n    reqwest::ClientBuilder::new().build().unwrap()\n}\n\nfn main() {\n    let _c = client();\n}\n",
    );
    assert!(diagnostics(t.path(), &[]).is_empty());
    let notes = diagnostics(t.path(), &["--pedantic"]);
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["level"], "note");
    assert_eq!(notes[0]["context"]["kind"], "cold");
    assert_eq!(
        notes[0]["context"]["via"][0]["what"],
        "a program that serves no traffic"
    );
}
