//! The project model's capabilities, one fixture project each under
//! `fixtures/model/{java,rust}/<capability>/`: findings at the `// expect:` markers
//! (across files), the rendered findings, and the model dump (types, contexts with
//! their heat, call edges, pools, submissions, waits) as snapshots.

mod common;

use std::path::Path;

fn projects() -> Vec<String> {
    let mut out = Vec::new();
    for lang in ["java", "rust"] {
        let dir = Path::new("fixtures/model").join(lang);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        out.extend(names.into_iter().map(|n| format!("{lang}/{n}")));
    }
    out
}

#[test]
fn model_fixtures() {
    for project in projects() {
        let dir = format!("fixtures/model/{project}");
        let report = common::run(&[&dir], None);
        assert!(report.errors.is_empty(), "{project}: {:?}", report.errors);
        let want = common::expected(&dir, None);
        let got = common::found(&report);
        assert_eq!(want, got, "{project}: expected (left) and found (right)");
        let name = project.replace('/', "-");
        insta::with_settings!({
            snapshot_path => "../fixtures/model/snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("{name}@human"), common::human(&report));
        });
        let dump = common::model_dump(&dir);
        insta::with_settings!({
            snapshot_path => "../fixtures/model/snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("{name}@model"), dump);
        });
    }
}
