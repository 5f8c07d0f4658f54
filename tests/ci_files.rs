//! The YAML users copy or run: every YAML block of the README, the pre-commit
//! hook, the GitHub Action and the workflows parse, and say what they must
//! (permissions, history for `--since`, installs without compiling).

use std::fs;
use std::path::Path;

use serde_yaml::Value;

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn parse(what: &str, text: &str) -> Value {
    serde_yaml::from_str(text).unwrap_or_else(|e| panic!("{what} is not valid YAML: {e}\n{text}"))
}

fn file(rel: &str) -> Value {
    parse(rel, &fs::read_to_string(here().join(rel)).unwrap())
}

/// The ```yaml blocks of the README, in order.
fn readme_blocks() -> Vec<String> {
    let readme = fs::read_to_string(here().join("README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in readme.lines() {
        match &mut current {
            None if line.trim_start() == "```yaml" => current = Some(String::new()),
            Some(block) if line.trim_start() == "```" => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}

#[test]
fn readme_snippets_are_complete_valid_yaml() {
    let blocks = readme_blocks();
    assert!(blocks.len() >= 7, "{}", blocks.len());
    for block in &blocks {
        let doc = parse("a README snippet", block);
        assert!(doc.is_mapping(), "a snippet is a whole file: {block}");
        assert!(
            !block.contains("cargo install"),
            "CI installs the wheel, it does not compile: {block}"
        );
        if block.contains("--since") || block.contains("since: true") {
            assert!(
                block.contains("fetch-depth: 0") || block.contains("GIT_DEPTH: \"0\""),
                "--since needs the base branch's history: {block}"
            );
        }
        if doc.get("jobs").is_some() {
            let permissions = doc.get("permissions").expect("a workflow sets permissions");
            assert_eq!(permissions["contents"], Value::from("read"), "{block}");
            if block.contains("upload-sarif") || block.contains("poolguard/poolguard@") {
                assert_eq!(
                    permissions["security-events"],
                    Value::from("write"),
                    "{block}"
                );
            }
            if block.contains("setup-python") {
                assert!(block.contains("cache: pip"), "cache pip downloads: {block}");
            }
        }
    }
}

#[test]
fn pre_commit_hook_is_a_python_package() {
    let hooks = file(".pre-commit-hooks.yaml");
    let hook = &hooks[0];
    assert_eq!(hook["id"], Value::from("poolguard"));
    assert_eq!(hook["language"], Value::from("python"));
    assert_eq!(
        hook["entry"],
        Value::from("poolguard check --format concise --force-exclude")
    );
    assert_eq!(hook["require_serial"], Value::from(true));
    let pyproject = fs::read_to_string(here().join("pyproject.toml")).unwrap();
    assert!(pyproject.contains("bindings = \"bin\""), "{pyproject}");
}

#[test]
fn action_installs_runs_and_uploads() {
    let action = file("action.yml");
    assert_eq!(action["runs"]["using"], Value::from("composite"));
    for input in ["version", "args", "since", "fail-level", "upload-sarif"] {
        assert!(action["inputs"].get(input).is_some(), "input {input}");
    }
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
    assert!(uses
        .iter()
        .any(|u| u.starts_with("github/codeql-action/upload-sarif@")));
    let script: String = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(script.contains("pip install"), "{script}");
    assert!(script.contains("--since \"origin/$BASE_REF\""), "{script}");
    assert!(script.contains("--format sarif"), "{script}");
}

#[test]
fn release_builds_wheels_binaries_and_an_image() {
    let release = file(".github/workflows/release.yml");
    let jobs = &release["jobs"];
    for job in ["wheels", "sdist", "binaries", "image", "publish"] {
        assert!(jobs.get(job).is_some(), "job {job}");
    }
    let targets: Vec<&str> = jobs["binaries"]["strategy"]["matrix"]["include"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|t| t["target"].as_str().unwrap())
        .collect();
    for want in ["x86_64-unknown-linux-musl", "apple-darwin", "windows"] {
        assert!(
            targets.iter().any(|t| t.contains(want)),
            "{want}: {targets:?}"
        );
    }
    assert_eq!(release["permissions"]["contents"], Value::from("read"));
    assert_eq!(
        jobs["publish"]["permissions"]["id-token"],
        Value::from("write"),
        "PyPI trusted publishing"
    );
}
