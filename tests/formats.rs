//! Machine formats: SARIF against the official 2.1.0 schema and GitHub's needs,
//! each format's column unit on non-ASCII source, and snapshots of every format.

mod common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

fn poolguard() -> Command {
    let mut c = Command::cargo_bin("poolguard").unwrap();
    // No record cache: tests on the repository's fixtures must not write one here.
    c.env_remove("NO_COLOR")
        .env_remove("POOLGUARD_TIMING")
        .env("POOLGUARD_NO_CACHE", "1");
    c
}

fn run(dir: &Path, args: &[&str]) -> String {
    let out = poolguard()
        .current_dir(dir)
        .arg("check")
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn sarif_is_valid_sarif_2_1_0_and_meets_github_needs() {
    let schema: Value = serde_json::from_str(
        &fs::read_to_string(here().join("tests/data/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::draft4::new(&schema).expect("the schema compiles");
    let sarif: Value =
        serde_json::from_str(&run(here(), &["fixtures", "--format", "sarif"])).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let run0 = &sarif["runs"][0];
    assert_eq!(run0["columnKind"], "utf16CodeUnits");
    assert_eq!(
        run0["originalUriBaseIds"]["%SRCROOT%"]["uri"],
        format!("file://{}/", here().display())
    );
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), poolguard::rules::RULES.len());
    for r in rules {
        let full = r["fullDescription"]["text"].as_str().unwrap();
        assert!(!full.ends_with(':'), "cut mid-sentence: {full}");
        assert!(
            r["help"]["text"]
                .as_str()
                .unwrap()
                .contains("### What it does"),
            "{r}"
        );
        assert!(r["help"]["markdown"].as_str().is_some());
        assert!(r["helpUri"].as_str().unwrap().starts_with("https://"));
        assert!(r["properties"]["precision"].as_str().is_some());
    }
    let results = run0["results"].as_array().unwrap();
    assert!(results.len() > 50);
    for res in results {
        let rule = res["ruleId"].as_str().unwrap();
        let index = res["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], rule);
        assert!(res["partialFingerprints"]["primaryLocationLineHash"]
            .as_str()
            .is_some());
        let loc = &res["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert!(uri.starts_with("fixtures/"), "{uri}");
        assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(loc["region"]["startColumn"].as_u64().unwrap() >= 1);
    }
}

/// A finding preceded on its line by CJK text and an emoji in a string.
fn non_ascii_tree() -> TempDir {
    let t = TempDir::new().unwrap();
    fs::write(
        t.path().join("q.rs"),
        "// 注文キュー\n#[get(\"/\")] pub fn f() { let _n = \"🚀\"; let (_tx, _rx) = std::sync::mpsc::channel::<u8>(); }\n",
    )
    .unwrap();
    t
}

#[test]
fn each_format_counts_columns_in_its_own_unit() {
    let t = non_ascii_tree();
    // Before the finding on line 2: `#[get("/")] pub fn f() { let _n = "` (35 chars),
    // the rocket (1 scalar, 2 UTF-16 units, 4 bytes), then `"; let (_tx, _rx) = `
    // (20 chars): 56 scalars, 57 UTF-16 units, 59 bytes. Line 1 is 19 bytes (CJK: 3 each).
    let json = common::assert_valid_json(&run(t.path(), &[".", "--format", "json"]));
    let start = &json["diagnostics"][0]["span"]["start"];
    assert_eq!(
        (start["line"].as_u64(), start["column"].as_u64()),
        (Some(2), Some(57))
    );
    assert_eq!(start["offset"].as_u64(), Some(19 + 59));

    let sarif: Value = serde_json::from_str(&run(t.path(), &[".", "--format", "sarif"])).unwrap();
    let region = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startColumn"].as_u64(), Some(58));

    let rd: Value = serde_json::from_str(&run(t.path(), &[".", "--format", "rdjson"])).unwrap();
    let range = &rd["diagnostics"][0]["location"]["range"];
    assert_eq!(range["start"]["column"].as_u64(), Some(60));
    assert_eq!(range["start"]["line"].as_u64(), Some(2));

    let gh = run(t.path(), &[".", "--format", "github"]);
    assert!(
        gh.starts_with("::warning file=q.rs,line=2,endLine=2,col=57,"),
        "{gh}"
    );

    let concise = run(t.path(), &[".", "--format", "concise"]);
    assert!(
        concise.starts_with("q.rs:2:57: warning[unbounded_queue]"),
        "{concise}"
    );
}

#[test]
fn format_snapshots() {
    let dir = "fixtures/incidents/java/incident4_gateway";
    for format in ["sarif", "github", "rdjson", "gitlab", "concise"] {
        let mut out = run(here(), &[dir, "--format", format]);
        // The SARIF root URI is the absolute current directory: not stable across machines.
        if format == "sarif" {
            let root = format!("file://{}/", here().display());
            out = out.replace(&root, "file:///SRCROOT/");
        }
        insta::with_settings!({
            snapshot_path => "snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("format_{format}"), out);
        });
    }
}
