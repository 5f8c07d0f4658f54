//! Shared helpers: run poolguard through the library entry and compare findings
//! with the `// expect: rule` markers written in the fixtures.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use poolguard::config::Config;
use poolguard::render::{self, Format};
use poolguard::{CheckOptions, Report};

/// Options as the binary builds them: the config discovered upward from the first
/// path (the repository's `poolguard.toml` makes its root the project root, with or
/// without git).
pub fn options(paths: &[&str], select: Option<&str>) -> CheckOptions {
    let config = Config::discover(Path::new(paths[0]))
        .map(|p| Config::load(&p).expect("the config loads"))
        .unwrap_or_default();
    CheckOptions {
        jobs: 2,
        select: select.map(|s| vec![s.to_string()]),
        ..CheckOptions::new(paths.iter().map(PathBuf::from).collect(), config)
    }
}

pub fn run(paths: &[&str], select: Option<&str>) -> Report {
    poolguard::check(&options(paths, select)).expect("check runs")
}

pub fn human(report: &Report) -> String {
    render::render(report, Format::Human, false)
}

pub fn json(report: &Report) -> String {
    let text = render::render(report, Format::Json, false);
    assert_valid_json(&text);
    text
}

/// Parse a poolguard JSON document and check it against `schemas/poolguard-v1.schema.json`,
/// then against the one kind of document it is (so errors name the bad field).
pub fn assert_valid_json(text: &str) -> serde_json::Value {
    static VALIDATORS: OnceLock<Vec<(&str, jsonschema::Validator)>> = OnceLock::new();
    let validators = VALIDATORS.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/poolguard-v1.schema.json");
        let schema: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let compile = |s: &serde_json::Value| {
            jsonschema::draft202012::new(s).expect("the poolguard/v1 schema compiles")
        };
        let mut out = vec![("", compile(&schema))];
        for kind in ["report", "statistics", "rules"] {
            let mut one = schema.clone();
            one.as_object_mut().unwrap().remove("oneOf");
            one["$ref"] = serde_json::json!(format!("#/$defs/{kind}"));
            out.push((kind, compile(&one)));
        }
        out
    });
    let doc: serde_json::Value = serde_json::from_str(text).expect("poolguard prints JSON");
    let kind = ["statistics", "rules"]
        .into_iter()
        .find(|k| doc.get(k).is_some())
        .unwrap_or("report");
    for (name, validator) in validators
        .iter()
        .filter(|(n, _)| n.is_empty() || *n == kind)
    {
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "not poolguard/v1 {name}: {errors:#?}\n{text}"
        );
    }
    doc
}

/// Every `(path, line, rule)` that a `// expect: rule[, rule]` marker names under `dir`.
pub fn expected(dir: &str, rule: Option<&str>) -> BTreeSet<(String, usize, String)> {
    let mut out = BTreeSet::new();
    for path in files(Path::new(dir)) {
        let text = std::fs::read_to_string(&path).unwrap();
        let display = path.to_string_lossy().replace('\\', "/");
        for (i, line) in text.lines().enumerate() {
            let Some(at) = line.find("// expect: ") else {
                continue;
            };
            for r in line[at + "// expect: ".len()..].split(',') {
                let r = r.split_whitespace().next().unwrap_or("").to_string();
                if rule.is_none_or(|want| want == r) {
                    out.insert((display.clone(), i + 1, r));
                }
            }
        }
    }
    out
}

/// Every `(path, line, rule)` the report has, by the primary span's first line.
pub fn found(report: &Report) -> BTreeSet<(String, usize, String)> {
    report
        .diagnostics
        .iter()
        .map(|d| {
            let f = &report.files[d.file];
            (
                f.display.clone(),
                f.line_number(d.span.start),
                d.rule.to_string(),
            )
        })
        .collect()
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(p.extension().and_then(|e| e.to_str()), Some("java" | "rs")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Check a rule's fixtures: markers match findings exactly, and the human and
/// JSON renderings match their snapshots (kept in `fixtures/<rule>/snapshots/`).
pub fn check_rule_fixtures(rule: &str) {
    check_fixture_dir(rule, Some(rule));
}

/// Check `fixtures/<dir>` with one rule selected, or all rules at their defaults.
pub fn check_fixture_dir(name: &str, rule: Option<&str>) {
    let dir = format!("fixtures/{name}");
    let report = run(&[&dir], rule);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let want = expected(&dir, rule);
    let got = found(&report);
    let line = |(p, l, r): &(String, usize, String)| format!("    {p}:{l} {r}\n");
    let missing: String = want.difference(&got).map(line).collect();
    let extra: String = got.difference(&want).map(line).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "fixtures of {name}:\n  expected but not found:\n{missing}  found but not expected:\n{extra}"
    );
    let mut report = report;
    insta::with_settings!({
        snapshot_path => format!("../../fixtures/{name}/snapshots"),
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(format!("{name}@json"), json(&report));
        // One human snapshot per fixture (a file or a project directory under
        // `<lang>/`), from the one run over them all, so a review shows one fixture.
        let fixtures = fixture_entries(&dir);
        if fixtures.is_empty() {
            insta::assert_snapshot!(format!("{name}@human"), human(&report));
        }
        let all = std::mem::take(&mut report.diagnostics);
        for (fixture, prefix) in fixtures {
            report.diagnostics = all
                .iter()
                .filter(|d| report.files[d.file].display.starts_with(&prefix))
                .cloned()
                .collect();
            let text = if report.diagnostics.is_empty() {
                "no findings\n".to_string()
            } else {
                findings_only(&human(&report))
            };
            insta::assert_snapshot!(format!("{fixture}@human"), text);
        }
        report.diagnostics = all;
    });
}

/// The fixtures of a rule directory: each file or directory under `<lang>/`, as a
/// snapshot name (`java-OrderController`, `rust-fleet`) and a path prefix.
fn fixture_entries(dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for lang in ["java", "rust"] {
        let Ok(entries) = std::fs::read_dir(Path::new(dir).join(lang)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for n in names {
            let stem = n.trim_end_matches(".java").trim_end_matches(".rs");
            let prefix = if n.ends_with(".java") || n.ends_with(".rs") {
                format!("{dir}/{lang}/{n}")
            } else {
                format!("{dir}/{lang}/{n}/")
            };
            out.push((format!("{lang}-{stem}"), prefix));
        }
    }
    out
}

/// A human report without its closing summary line (that counts the whole run).
fn findings_only(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    while lines
        .last()
        .is_some_and(|l| l.is_empty() || l.starts_with("poolguard: "))
    {
        lines.pop();
    }
    lines.join("\n") + "\n"
}

/// `poolguard debug model` of a directory, through the library.
pub fn model_dump(dir: &str) -> String {
    let opts = CheckOptions {
        dump_model: true,
        ..options(&[dir], None)
    };
    poolguard::check(&opts)
        .expect("check runs")
        .model_dump
        .expect("a model dump")
}

/// The poolguard binary, run in `dir`, without the environment's colour, timing and
/// test-hook variables, and without the record cache.
pub fn poolguard_in(dir: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("poolguard").unwrap();
    c.current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("POOLGUARD_TIMING")
        .env_remove("POOLGUARD_TEST_PANIC")
        // No record cache (tests/cache.rs tests it): nothing is written into the repository.
        .env("POOLGUARD_NO_CACHE", "1");
    c
}

/// `git` in `dir` with a fixed identity, no signing and no fsmonitor (a test
/// repository may set a hostile one on purpose).
pub fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@e",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.fsmonitor=false",
        ])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
