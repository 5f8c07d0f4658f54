//! The record cache through the real binary: never wrong (a finding that depends
//! on another file follows that file's changes), the same bytes with and
//! without it, and never a failure (corrupt, unwritable, concurrent).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use tempfile::TempDir;

fn poolguard(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("poolguard").unwrap();
    c.current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("POOLGUARD_TIMING")
        .env_remove("POOLGUARD_NO_CACHE")
        .env_remove("POOLGUARD_CACHE_DIR")
        .env_remove("POOLGUARD_TEST_PANIC");
    c
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

/// `poolguard check ARGS` in `dir`; exit 0 or 1.
fn check(dir: &Path, args: &[&str]) -> Output {
    let out = poolguard(dir).arg("check").args(args).output().unwrap();
    let code = out.status.code();
    assert!(matches!(code, Some(0 | 1)), "{args:?}: {out:?}");
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// `(hits, misses)` of a run, from `POOLGUARD_TIMING=1`.
fn cache_use(dir: &Path, args: &[&str]) -> (usize, usize) {
    let out = poolguard(dir)
        .env("POOLGUARD_TIMING", "1")
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    let err = stderr(&out);
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("poolguard: timing: cache "))
        .unwrap_or_else(|| panic!("no cache timing line: {err}"));
    let n: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(2)
        .map(|s| s.parse().unwrap())
        .collect();
    (n[0], n[1])
}

const BASE: &str = "com/travel/quotes/AbstractQuoteProvider.java";
const PROVIDER: &str = "com/travel/quotes/HotelQuoteProvider.java";
const CALLER_RUNS: &str = "new ThreadPoolExecutor.CallerRunsPolicy());";
/// The same length as [`CALLER_RUNS`]: size and line index stay as they were.
const ABORT: &str = "new ThreadPoolExecutor.AbortPolicy());     ";

/// A project whose finding in [`PROVIDER`] depends on the pool declared in [`BASE`].
fn project() -> TempDir {
    let t = TempDir::new().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/model/java/superclass_pool");
    copy_dir(&src, t.path());
    write(t.path(), "poolguard.toml", "");
    assert!(fs::read_to_string(t.path().join(BASE))
        .unwrap()
        .contains(CALLER_RUNS));
    t
}

fn copy_dir(from: &Path, to: &Path) {
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            fs::create_dir_all(&target).unwrap();
            copy_dir(&e.path(), &target);
        } else {
            fs::copy(e.path(), target).unwrap();
        }
    }
}

fn rules_in(json: &str) -> Vec<String> {
    let doc: serde_json::Value = serde_json::from_str(json).unwrap();
    doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["path"].as_str().unwrap(),
                d["rule"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn a_change_in_another_file_changes_the_finding() {
    let t = project();
    let d = t.path();
    let json = ["--format", "json"];
    let first = stdout(&check(d, &json));
    assert!(
        rules_in(&first).contains(&format!("{PROVIDER} caller_runs_under_join")),
        "{first}"
    );
    assert!(d.join(".poolguard_cache/records.pack").is_file());

    // The pool no longer runs tasks on the caller: the provider's finding changes.
    let base = fs::read_to_string(d.join(BASE)).unwrap();
    fs::write(d.join(BASE), base.replace(CALLER_RUNS, ABORT)).unwrap();
    let one = [PROVIDER, "--format", "json"];
    let warm = stdout(&check(d, &one));
    let fresh = stdout(&check(d, &[&one[..], &["--no-cache"]].concat()));
    assert_eq!(warm, fresh);
    let provider_rules = rules_in(&warm);
    assert!(
        !provider_rules.contains(&format!("{PROVIDER} caller_runs_under_join")),
        "{warm}"
    );
    assert_ne!(rules_in(&first), provider_rules);
    // The unchanged files came from the cache, the changed one did not.
    assert_eq!(cache_use(d, &one), (4, 0));
    fs::write(d.join(BASE), base).unwrap();
    assert_eq!(cache_use(d, &one), (3, 1));
    assert_eq!(stdout(&check(d, &one)), {
        let out = stdout(&check(d, &[&one[..], &["--no-cache"]].concat()));
        assert!(rules_in(&out).contains(&format!("{PROVIDER} caller_runs_under_join")));
        out
    });
}

/// A project with findings of every rule in both languages.
fn rich_project() -> TempDir {
    let t = TempDir::new().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for dir in [
        "caller_runs_under_join",
        "unbounded_join",
        "incidents",
        "invalid_allow",
    ] {
        fs::create_dir_all(t.path().join(dir)).unwrap();
        copy_dir(&fixtures.join(dir), &t.path().join(dir));
    }
    write(t.path(), "poolguard.toml", "");
    t
}

#[test]
fn every_format_is_the_same_with_and_without_the_cache() {
    let t = rich_project();
    let d = t.path();
    let formats: Vec<Vec<&str>> = [
        "human", "concise", "json", "sarif", "github", "rdjson", "gitlab",
    ]
    .iter()
    .map(|f| vec!["--format", f, "--color", "never", "--report-unused-allows"])
    .chain([vec!["--statistics", "--format", "json"]])
    .collect();
    let reference: Vec<Vec<u8>> = formats
        .iter()
        .map(|args| check(d, &[&args[..], &["--no-cache"]].concat()).stdout)
        .collect();
    assert!(!d.join(".poolguard_cache").exists());
    let (_, misses) = cache_use(d, &["--format", "json"]);
    assert!(misses > 50, "{misses}");
    for jobs in ["1", "3"] {
        assert_eq!(
            cache_use(d, &["--format", "json", "--jobs", jobs]),
            (misses, 0)
        );
        for (args, want) in formats.iter().zip(&reference) {
            let got = check(d, &[&args[..], &["--jobs", jobs]].concat()).stdout;
            assert!(
                got == *want,
                "{args:?} --jobs {jobs} differs with the cache"
            );
        }
    }
    // One file passed, as pre-commit does.
    let one = [
        "caller_runs_under_join/java/CheckoutService.java",
        "--format",
        "json",
    ];
    assert_eq!(
        stdout(&check(d, &one)),
        stdout(&check(d, &[&one[..], &["--no-cache"]].concat()))
    );
}

#[test]
fn a_damaged_cache_is_rebuilt_silently() {
    let t = project();
    let d = t.path();
    let json = ["--format", "json"];
    let want = check(d, &[&json[..], &["--no-cache"]].concat());
    check(d, &json);
    let pack = d.join(".poolguard_cache/records.pack");
    let good = fs::read(&pack).unwrap();
    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x40;
    let damaged: Vec<Vec<u8>> = vec![
        Vec::new(),
        b"PGCACHE\n".to_vec(),
        good[..good.len() / 2].to_vec(),
        flipped,
        (0..good.len()).map(|i| (i * 7919 % 251) as u8).collect(),
    ];
    for bytes in damaged {
        fs::write(&pack, &bytes).unwrap();
        let got = check(d, &json);
        assert_eq!(got.stdout, want.stdout);
        assert_eq!(got.status.code(), want.status.code());
        assert_eq!(stderr(&got), stderr(&want));
        // Rebuilt: the next run takes everything from it.
        assert_eq!(cache_use(d, &json), (4, 0));
    }
    // Something that is not a file where the pack goes.
    fs::remove_file(&pack).unwrap();
    fs::create_dir(&pack).unwrap();
    let got = check(d, &json);
    assert_eq!(got.stdout, want.stdout);
}

#[test]
fn no_cache_writes_nothing() {
    let t = project();
    let d = t.path();
    check(d, &["--no-cache"]);
    let out = poolguard(d)
        .env("POOLGUARD_NO_CACHE", "1")
        .args(["check", "--format", "json"])
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)));
    assert!(!d.join(".poolguard_cache").exists());
    // An existing cache is neither read nor written.
    check(d, &[]);
    let pack = d.join(".poolguard_cache/records.pack");
    let before = fs::read(&pack).unwrap();
    write(d, "com/travel/Extra.java", "class Extra {}\n");
    check(d, &["--no-cache"]);
    assert_eq!(fs::read(&pack).unwrap(), before);
}

#[test]
fn an_unwritable_cache_directory_costs_one_note() {
    let t = project();
    let d = t.path();
    let json = ["--format", "json"];
    let want = check(d, &[&json[..], &["--no-cache"]].concat());
    write(d, "blocker", "a file where a directory should be\n");
    let dir = d.join("blocker/cache");
    let got = poolguard(d)
        .env("POOLGUARD_CACHE_DIR", &dir)
        .arg("check")
        .args(json)
        .output()
        .unwrap();
    assert_eq!(got.status.code(), want.status.code());
    assert_eq!(got.stdout, want.stdout);
    let err = stderr(&got);
    assert_eq!(err.matches("cannot write the cache").count(), 1, "{err}");
    // A read-only directory (root may write anyway).
    let ro = d.join("ro");
    fs::create_dir(&ro).unwrap();
    let mut perms = fs::metadata(&ro).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o555);
    fs::set_permissions(&ro, perms).unwrap();
    let got = check(d, &[&json[..], &["--cache-dir", "ro/cache"]].concat());
    assert_eq!(got.stdout, want.stdout);
    assert!(stderr(&got).matches("cannot write the cache").count() <= 1);
}

const SNEAKY: &str = "class Sneaky { java.util.concurrent.BlockingQueue<Runnable> q = new java.util.concurrent.LinkedBlockingQueue<>(); }\n";

#[test]
fn where_the_cache_lives_and_clean() {
    let t = project();
    let d = t.path();
    check(d, &[]);
    let default = d.join(".poolguard_cache");
    assert_eq!(
        fs::read_to_string(default.join(".gitignore")).unwrap(),
        "*\n"
    );
    assert!(fs::read_to_string(default.join("CACHEDIR.TAG"))
        .unwrap()
        .starts_with("Signature: 8a477f597d28d172789f06886806bc55"));
    // Never walked: a source file in it is not checked.
    write(d, ".poolguard_cache/Sneaky.java", SNEAKY);
    let files = shown_files(d);
    assert!(!files.contains("Sneaky"), "{files}");
    fs::remove_file(default.join("Sneaky.java")).unwrap();

    let settings = |extra: &[&str], env: Option<&Path>| {
        let mut c = poolguard(d);
        if let Some(e) = env {
            c.env("POOLGUARD_CACHE_DIR", e);
        }
        let out = c
            .args(["check", "--show-settings"])
            .args(extra)
            .output()
            .unwrap();
        stdout(&out)
    };
    let line = |p: &Path| format!("cache dir: {}\n", p.display());
    let shown = settings(&[], None);
    assert!(
        shown.contains(&line(&default))
            || shown.contains(&line(
                &fs::canonicalize(d).unwrap().join(".poolguard_cache")
            )),
        "{shown}"
    );
    assert!(settings(&["--no-cache"], None).contains("cache dir: none (--no-cache)\n"));
    let elsewhere = TempDir::new().unwrap();
    let env_dir = elsewhere.path().join("env");
    assert!(settings(&[], Some(&env_dir)).contains(&line(&env_dir)));
    let flag_dir = elsewhere.path().join("flag");
    let flag = flag_dir.to_str().unwrap();
    assert!(settings(&["--cache-dir", flag], Some(&env_dir)).contains(&line(&flag_dir)));
    check(d, &["--cache-dir", flag]);
    assert!(flag_dir.join("records.pack").is_file());

    // The config's `cache-dir`, relative to the config file; never walked even
    // when it is not hidden.
    write(
        d,
        "poolguard.toml",
        "[settings]\ncache-dir = \"caches/pg\"\n",
    );
    let configured: PathBuf = d.join("caches/pg");
    check(d, &[]);
    assert!(configured.join("records.pack").is_file());
    write(d, "caches/pg/Sneaky.java", SNEAKY);
    let files = shown_files(d);
    assert!(!files.contains("Sneaky"), "{files}");
    assert!(
        files.contains("skip   caches/pg: a cache directory (it holds a `CACHEDIR.TAG`)\n"),
        "{files}"
    );
    fs::remove_file(configured.join("Sneaky.java")).unwrap();

    // `clean` removes what `check` wrote, and only that.
    write(d, "caches/pg/keep.txt", "not ours\n");
    let out = poolguard(d).args(["clean"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!configured.join("records.pack").exists());
    assert!(configured.join("keep.txt").exists());
    write(d, "poolguard.toml", "");
    poolguard(d).arg("clean").assert().code(0);
    assert!(!default.exists());
    poolguard(d).arg("clean").assert().code(0);
}

#[test]
fn concurrent_runs_leave_a_valid_cache() {
    let t = project();
    let d = t.path();
    let json = ["--format", "json"];
    let want = check(d, &[&json[..], &["--no-cache"]].concat()).stdout;
    let runs: Vec<_> = (0..4)
        .map(|_| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("poolguard"))
                .current_dir(d)
                .env_remove("POOLGUARD_NO_CACHE")
                .env_remove("POOLGUARD_CACHE_DIR")
                .env_remove("POOLGUARD_TIMING")
                .args(["check", "--format", "json"])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for r in runs {
        assert_eq!(r.wait_with_output().unwrap().stdout, want);
    }
    assert_eq!(cache_use(d, &json), (4, 0));
    let leftovers: Vec<_> = fs::read_dir(d.join(".poolguard_cache"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// What `check --show-files` lists from `d`.
fn shown_files(d: &Path) -> String {
    stdout(
        &poolguard(d)
            .args(["check", "--show-files"])
            .output()
            .unwrap(),
    )
}
