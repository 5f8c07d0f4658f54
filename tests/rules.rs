//! Each rule against its fixtures: positives must be flagged at the marked lines,
//! look-alikes must not, and the rendered output must match the snapshots.

mod common;

#[test]
fn unbounded_queue() {
    common::check_rule_fixtures("unbounded_queue");
}
