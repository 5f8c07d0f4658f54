//! Each rule against its fixtures: positives must be flagged at the marked lines,
//! look-alikes must not, and the rendered output must match the snapshots.

mod common;

#[test]
fn unbounded_queue() {
    common::check_rule_fixtures("unbounded_queue");
}

#[test]
fn unbounded_join() {
    common::check_rule_fixtures("unbounded_join");
}

#[test]
fn caller_runs_under_join() {
    common::check_rule_fixtures("caller_runs_under_join");
}

#[test]
fn nested_pool_submission() {
    common::check_rule_fixtures("nested_pool_submission");
}

/// The incidents of `shared/spec/incidents.md`, all rules together: each finding
/// at its marked line, with the precedence of one finding per span.
#[test]
fn incidents() {
    common::check_fixture_dir("incidents", None);
}

#[test]
fn missing_client_timeout() {
    common::check_rule_fixtures("missing_client_timeout");
}

#[test]
fn invalid_allow() {
    common::check_rule_fixtures("invalid_allow");
}
