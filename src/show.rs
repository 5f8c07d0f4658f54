//! `check --show-settings` and `check --show-files`: what a run would use and
//! read, without analysing anything.

use crate::engine::{effective_levels, CheckOptions, Plan};
use crate::root::ProjectRoot;
use crate::rules::RULES;

/// The resolved configuration: its file, the project root, every rule's level
/// and the settings.
pub fn settings(opts: &CheckOptions) -> String {
    let c = &opts.config;
    let root = ProjectRoot::find(c, &opts.paths);
    let mut out = String::new();
    let config = match &c.path {
        Some(p) => crate::paths::absolute(p).display().to_string(),
        None => "none (built-in defaults)".into(),
    };
    out.push_str(&format!("config file: {config}\n"));
    out.push_str(&format!(
        "project root: {} ({})\n",
        root.dir.display(),
        root.kind.describe()
    ));
    match opts.cache.dir(&root.dir) {
        Some(dir) => out.push_str(&format!("cache dir: {}\n", dir.display())),
        None => out.push_str("cache dir: none (--no-cache)\n"),
    }
    out.push_str("rules:\n");
    for (rule, (id, level)) in RULES.iter().zip(effective_levels(opts)) {
        let origin = if opts.ignore.iter().any(|s| s == id)
            || opts
                .select
                .as_ref()
                .is_some_and(|s| s.iter().any(|x| x == id))
        {
            "command line"
        } else if opts.select.is_some() && !rule.is_meta() {
            "command line (not selected)"
        } else if id == crate::suppress::UNUSED_ALLOW && opts.report_unused_allows {
            "command line"
        } else if c.levels.contains_key(id) {
            "config"
        } else {
            "default"
        };
        out.push_str(&format!("  {id:<24} {:<8} {origin}\n", level.as_str()));
    }
    for p in &c.per_file {
        let levels: Vec<String> = p
            .levels
            .iter()
            .map(|(r, l)| format!("{r} = {}", l.as_str()))
            .collect();
        out.push_str(&format!(
            "per-file {}: {}\n",
            quoted(&p.paths),
            levels.join(", ")
        ));
    }
    out.push_str("settings:\n");
    out.push_str(&format!(
        "  max_queue_capacity = {}\n",
        c.max_queue_capacity
    ));
    out.push_str(&format!("  max_file_bytes = {}\n", c.max_file_bytes));
    out.push_str(&format!(
        "  include_tests = {}\n",
        opts.include_tests || c.include_tests
    ));
    out.push_str(&format!("  pedantic = {}\n", opts.pedantic || c.pedantic));
    out.push_str(&format!(
        "  include_generated = {}\n",
        opts.include_generated || c.include_generated
    ));
    out.push_str(&format!("  exclude = {}\n", quoted(&c.exclude_patterns)));
    out.push_str(&format!("  force_exclude = {}\n", opts.force_exclude));
    out
}

fn quoted(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| format!("{s:?}")).collect();
    format!("[{}]", inner.join(", "))
}

/// The files a run would check, one a line, then what it skips and why; and a
/// closing line with the totals (for stderr).
pub fn files(plan: &Plan) -> (String, String) {
    let mut checked: Vec<String> = plan
        .requested()
        .map(|c| plan.root.display(&c.path))
        .collect();
    checked.sort();
    let mut out = String::new();
    for path in &checked {
        out.push_str(&format!("check  {path}\n"));
    }
    let mut skipped: Vec<(String, &str)> = plan
        .skipped
        .iter()
        .map(|s| (plan.root.display(&s.path), s.reason.describe()))
        .collect();
    skipped.sort();
    for (path, why) in &skipped {
        out.push_str(&format!("skip   {path}: {why}\n"));
    }
    let totals = format!(
        "poolguard: {} file{} to check, {} path{} skipped (hidden and git-ignored paths are not listed)\n",
        checked.len(),
        if checked.len() == 1 { "" } else { "s" },
        skipped.len(),
        if skipped.len() == 1 { "" } else { "s" },
    );
    (out, totals)
}
