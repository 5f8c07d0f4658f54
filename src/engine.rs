//! One run: walk -> parse and extract (parallel, per file) -> link -> rules ->
//! suppressions -> sorted report.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use crate::baseline;
use crate::catalog::Catalog;
use crate::config::Config;
use crate::diagnostic::{self, Diagnostic};
use crate::facts::{CtxKind, FileFacts, Heat};
use crate::lang::{frontend, ExtractOptions};
use crate::link::Project;
use crate::root::ProjectRoot;
use crate::rules::{Level, Rule, Settings, RULES};
use crate::scope::Scope;
use crate::source::{Language, SourceFile};
use crate::suppress;
use crate::walk::{self, Candidate, Skipped, WalkOptions};

/// Stack size of parser threads: deeply nested expressions recurse in the parser
/// and visitor; a large (lazily committed) stack turns a crash into a slow file.
pub const PARSER_STACK_BYTES: usize = 512 * 1024 * 1024;

/// What to check and how.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    pub paths: Vec<PathBuf>,
    pub config: Config,
    pub include_tests: bool,
    /// `--pedantic`: also report findings in cold code, as notes.
    pub pedantic: bool,
    /// `--include-generated`: also check generated code.
    pub include_generated: bool,
    pub force_exclude: bool,
    /// Worker threads; 0 means all cores.
    pub jobs: usize,
    /// `--select`: only these rules (at their configured or default level).
    pub select: Option<Vec<String>>,
    /// `--ignore`: never these rules.
    pub ignore: Vec<String>,
    /// `--since REF`: report only findings on lines changed since this git revision.
    pub since: Option<String>,
    /// `--baseline FILE`: hide the findings recorded there.
    pub baseline: Option<PathBuf>,
    /// `--write-baseline FILE`: record the findings there.
    pub write_baseline: Option<PathBuf>,
    /// `--report-unused-allows`: report allow comments that suppress nothing.
    pub report_unused_allows: bool,
    /// `debug model`: render the project model into [`Report::model_dump`].
    pub dump_model: bool,
}

impl CheckOptions {
    /// Check `paths` with `config` and every other option at its default.
    pub fn new(paths: Vec<PathBuf>, config: Config) -> CheckOptions {
        CheckOptions {
            paths,
            config,
            include_tests: false,
            pedantic: false,
            include_generated: false,
            force_exclude: false,
            jobs: 0,
            select: None,
            ignore: Vec::new(),
            since: None,
            baseline: None,
            write_baseline: None,
            report_unused_allows: false,
            dump_model: false,
        }
    }
}

/// A file that could not be (fully) read or analysed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FileError {
    pub path: String,
    pub message: String,
}

/// The outcome of a run.
#[derive(Debug)]
pub struct Report {
    pub files: Vec<SourceFile>,
    pub diagnostics: Vec<Diagnostic>,
    pub errors: Vec<FileError>,
    /// Files analysed (read and parsed, even partially).
    pub files_checked: usize,
    pub elapsed_ms: u128,
    /// What every path in the report is relative to.
    pub root: ProjectRoot,
    /// Paths under the requested ones that were skipped on purpose, and why.
    pub skipped: Vec<Skipped>,
    /// The facts of every file, by [`crate::source::FileId`] (kept so that a caller
    /// that is about to exit can skip freeing them).
    pub facts: Vec<FileFacts>,
    /// `debug model`'s output, when asked for.
    pub model_dump: Option<String>,
    /// Requested files skipped as generated code.
    pub skipped_generated: usize,
}

impl Report {
    /// Exit status per `cli.md`: 1 when any finding is at `fail_level` or above.
    pub fn has_findings(&self, fail_level: Level) -> bool {
        self.diagnostics.iter().any(|d| d.level >= fail_level)
    }
}

/// The level each rule runs at after config, `--select` and `--ignore`.
pub fn effective_levels(opts: &CheckOptions) -> Vec<(&'static str, Level)> {
    RULES
        .iter()
        .map(|r| {
            let configured = opts.config.levels.get(r.id).copied();
            let mut level = configured.unwrap_or(r.default_level);
            if r.id == suppress::UNUSED_ALLOW && opts.report_unused_allows && level == Level::Off {
                level = Level::Warning;
            }
            if let Some(sel) = &opts.select {
                if sel.iter().any(|s| s == r.id) {
                    if level == Level::Off {
                        level = r.default_level.max(Level::Warning);
                    }
                } else if !r.is_meta() {
                    level = Level::Off;
                }
            }
            if opts.ignore.iter().any(|s| s == r.id) {
                level = Level::Off;
            }
            (r.id, level)
        })
        .collect()
}

/// Whether `--select` or `--ignore` turns a rule off (the config cannot turn it back on).
fn off_by_command_line(opts: &CheckOptions, rule: &Rule) -> bool {
    opts.ignore.iter().any(|s| s == rule.id)
        || opts
            .select
            .as_ref()
            .is_some_and(|sel| !rule.is_meta() && !sel.iter().any(|s| s == rule.id))
}

/// The level of `rule` in one file: its run-wide level unless a `[[per-file]]`
/// table of the config sets another.
fn level_in(opts: &CheckOptions, rule: &Rule, global: Level, path: &Path) -> Level {
    if off_by_command_line(opts, rule) {
        return Level::Off;
    }
    opts.config.per_file_level(rule.id, path).unwrap_or(global)
}

/// Whether `rule` reports anywhere in this run.
fn runs(opts: &CheckOptions, rule: &Rule, global: Level) -> bool {
    global != Level::Off
        || (!off_by_command_line(opts, rule) && opts.config.per_file_enables(rule.id))
}

/// What a run will read: the project root, the scope and the walked files.
pub struct Plan {
    pub root: ProjectRoot,
    pub scope: Scope,
    /// Every file to analyse (requested or context), without duplicates.
    pub candidates: Vec<Candidate>,
    pub walk_errors: Vec<walk::WalkError>,
    /// Paths skipped on purpose under the requested paths.
    pub skipped: Vec<Skipped>,
    pub jobs: usize,
}

impl Plan {
    /// The files the user asked about (not only context).
    pub fn requested(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates
            .iter()
            .filter(|c| self.scope.requested(&c.path))
    }
}

/// Resolve the root and walk, without analysing anything (`--show-files` stops here).
pub fn plan(opts: &CheckOptions) -> Result<Plan, String> {
    for p in &opts.paths {
        if std::fs::symlink_metadata(p).is_err() {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    let jobs = if opts.jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.jobs
    };
    let include_tests = opts.include_tests || opts.config.include_tests;
    let root = ProjectRoot::find(&opts.config, &opts.paths);
    let scope = Scope::new(opts, &root)?;
    let walked = walk::discover(
        &scope.roots,
        &WalkOptions {
            config: &opts.config,
            project: &root,
            include_tests,
            force_exclude: opts.force_exclude,
            threads: jobs,
        },
    );
    // The project root and the requested paths may name the same file twice.
    let mut seen_paths = std::collections::HashSet::new();
    let candidates: Vec<_> = walked
        .files
        .into_iter()
        .filter(|c| seen_paths.insert(crate::scope::canonical(&c.path)))
        .collect();
    // A path named on the command line may also be met by the walk: keep the
    // explicit entry, which gets a note.
    let mut skipped = walked.skipped;
    skipped.sort_by_key(|s| !s.explicit);
    let mut seen_skips = std::collections::HashSet::new();
    skipped.retain(|s| {
        scope.requested(&s.path) && seen_skips.insert(crate::scope::canonical(&s.path))
    });
    skipped.sort();
    Ok(Plan {
        root,
        scope,
        candidates,
        walk_errors: walked.errors,
        skipped,
        jobs,
    })
}

/// Check `opts.paths`. `Err` only for problems that stop the whole run.
pub fn check(opts: &CheckOptions) -> Result<Report, String> {
    let started = Instant::now();
    let catalog = Catalog::load(&opts.config.catalog)?;
    let Plan {
        root,
        scope,
        candidates,
        walk_errors,
        skipped,
        jobs,
    } = plan(opts)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(PARSER_STACK_BYTES)
        .thread_name(|i| format!("poolguard-{i}"))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let include_tests = opts.include_tests || opts.config.include_tests;
    let include_generated = opts.include_generated || opts.config.include_generated;
    let max_bytes = opts.config.max_file_bytes;
    let analysed: Vec<Analysed> = pool.install(|| {
        candidates
            .par_iter()
            // Small work units: files differ a lot in cost (Java vs Rust, size), and
            // rayon's lazy splitting otherwise leaves one thread idle at the end.
            .with_max_len(8)
            .map(|c| {
                analyse(
                    &c.path,
                    c.language,
                    &catalog,
                    include_tests,
                    include_generated,
                    max_bytes,
                    &root,
                )
            })
            .collect()
    });

    let mut files: Vec<SourceFile> = Vec::new();
    let mut facts = Vec::new();
    // Problems in files analysed only for context are not the user's question.
    let mut errors: Vec<FileError> = walk_errors
        .into_iter()
        .filter(|e| scope.requested(&e.path))
        .map(|e| FileError {
            path: root.display(&e.path),
            message: e.message,
        })
        .collect();
    let mut skipped_generated = 0;
    let mut skipped = skipped;
    let explicit: Vec<_> = opts
        .paths
        .iter()
        .map(|p| crate::scope::canonical(p))
        .collect();
    for (a, c) in analysed.into_iter().zip(&candidates) {
        if scope.requested(&c.path) {
            errors.extend(a.errors);
            skipped_generated += usize::from(a.generated);
            if a.generated {
                skipped.push(Skipped {
                    path: c.path.clone(),
                    reason: walk::Reason::Generated,
                    explicit: explicit.contains(&crate::scope::canonical(&c.path)),
                });
            }
        }
        if let Some((source, f)) = a.file {
            files.push(source);
            facts.push(f);
        }
    }
    skipped.sort();
    if !include_tests {
        drop_test_module_files(&files, &mut facts);
    }
    let files_checked = candidates
        .iter()
        .filter(|c| scope.requested(&c.path))
        .count()
        - skipped_generated;

    let levels = effective_levels(opts);
    let settings = Settings {
        max_queue_capacity: opts.config.max_queue_capacity,
    };
    let timing = std::env::var_os("POOLGUARD_TIMING").is_some_and(|v| v == "1");
    let linked_at = Instant::now();
    let project = Project::new(
        &files,
        &facts,
        &catalog.lang(Language::Java).data.spring.default_async_bean,
        &catalog.lang(Language::Java).data.entry_points,
    );
    if timing {
        let count = |f: fn(&FileFacts) -> usize| facts.iter().map(f).sum::<usize>();
        eprintln!(
            "poolguard: timing: walk, parse and extract {} ms; model and link {} ms; \
             {} contexts, {} calls, {} types, {} items, {} submissions, {} waits",
            (linked_at - started).as_millis(),
            linked_at.elapsed().as_millis(),
            count(|f| f.contexts.len()),
            count(|f| f.calls.len()),
            count(|f| f.types.len()),
            count(|f| f.items.len()),
            count(|f| f.submissions.len()),
            count(|f| f.waits.len()),
        );
    }
    let rules_at = Instant::now();
    let mut diagnostics: Vec<Diagnostic> = RULES
        .iter()
        .zip(&levels)
        .filter(|(rule, (_, level))| !rule.is_meta() && runs(opts, rule, *level))
        .flat_map(|(rule, (_, level))| {
            let found = (rule.check)(&project, &settings);
            found.into_iter().filter_map(|mut d| {
                let level = level_in(opts, rule, *level, &files[d.file].path);
                // A rule may soften one finding (a risk rather than a defect).
                d.level = level.min(d.level);
                (level != Level::Off).then_some(d)
            })
        })
        .collect();
    if timing {
        eprintln!(
            "poolguard: timing: rules {} ms",
            rules_at.elapsed().as_millis()
        );
    }
    let model_dump = opts.dump_model.then(|| crate::model::dump::dump(&project));
    let pedantic = opts.pedantic || opts.config.pedantic;
    diagnostics.retain_mut(|d| judge_context(&project, d, pedantic));
    // One site, one finding: RULES is in precedence order, so keep the first.
    let mut seen = std::collections::HashSet::new();
    diagnostics.retain(|d| seen.insert((d.file, d.span)));
    // A finding whose site is a label of a finding of an earlier rule is part of it
    // (the wait on a submission `caller_runs_under_join` reports is not also `unbounded_join`'s).
    let rank = |id: &str| RULES.iter().position(|r| r.id == id).unwrap_or(usize::MAX);
    let mut absorbed: std::collections::HashMap<(usize, crate::source::Span), usize> =
        std::collections::HashMap::new();
    for d in &diagnostics {
        for l in &d.labels {
            let r = absorbed.entry((l.file, l.span)).or_insert(usize::MAX);
            *r = (*r).min(rank(d.rule));
        }
    }
    diagnostics.retain(|d| {
        d.rule != "unbounded_join"
            || absorbed
                .get(&(d.file, d.span))
                .is_none_or(|&by| by >= rank(d.rule))
    });
    let meta = |id: &str| {
        RULES
            .iter()
            .zip(&levels)
            .find(|(r, _)| r.id == id)
            .map(|(r, (_, l))| (r, *l))
            .expect("meta-rules are registered")
    };
    let mut used = vec![Vec::new(); facts.len()];
    diagnostics.retain(|d| {
        let hit = facts[d.file]
            .suppressions
            .iter()
            .position(|s| suppress::covers(s, d, &files[d.file]));
        if let Some(i) = hit {
            used[d.file].push(i);
        }
        hit.is_none()
    });
    let (invalid_rule, invalid_level) = meta(suppress::INVALID_ALLOW);
    if runs(opts, invalid_rule, invalid_level) {
        for (file, f) in facts.iter().enumerate() {
            let level = level_in(opts, invalid_rule, invalid_level, &files[file].path);
            if level == Level::Off {
                continue;
            }
            for s in f.suppressions.iter().filter(|s| suppress::is_invalid(s)) {
                diagnostics.extend(suppress::invalid(s, file).into_iter().map(|mut d| {
                    d.level = level;
                    d
                }));
            }
        }
    }
    for d in &diagnostics {
        files[d.file].reload_text();
        for l in &d.labels {
            files[l.file].reload_text();
        }
    }
    diagnostic::sort(&mut diagnostics, &files);
    diagnostic::assign_fingerprints(&mut diagnostics, &files, &|f| &facts[f].items);
    diagnostics.retain(|d| scope.requested(&files[d.file].path));
    if let Some(path) = &opts.write_baseline {
        let n = baseline::write(path, &diagnostics, &files)?;
        eprintln!(
            "poolguard: wrote {n} finding{} to baseline {}",
            if n == 1 { "" } else { "s" },
            path.display()
        );
    }
    diagnostics.retain(|d| scope.reports(d, &files));
    let (unused_rule, unused_level) = meta(suppress::UNUSED_ALLOW);
    if runs(opts, unused_rule, unused_level) {
        let mut unused = Vec::new();
        for (file, f) in facts.iter().enumerate() {
            let path = &files[file].path;
            let level = level_in(opts, unused_rule, unused_level, path);
            if f.suppressions.is_empty() || level == Level::Off || !scope.requested(path) {
                continue;
            }
            // Rules that could have produced a finding here, so an allow for them is judged.
            let enabled: Vec<&str> = RULES
                .iter()
                .zip(&levels)
                .filter(|(r, (_, l))| !r.is_meta() && level_in(opts, r, *l, path) != Level::Off)
                .map(|(r, _)| r.id)
                .collect();
            files[file].reload_text();
            for (i, s) in f.suppressions.iter().enumerate() {
                let judged = s.rules.iter().any(|r| enabled.contains(&r.as_str()));
                if !used[file].contains(&i) && judged {
                    let mut d = suppress::unused(s, file, &files[file]);
                    d.level = level;
                    unused.push(d);
                }
            }
        }
        diagnostic::sort(&mut unused, &files);
        diagnostic::assign_fingerprints(&mut unused, &files, &|f| &facts[f].items);
        diagnostics.extend(unused);
        diagnostic::sort(&mut diagnostics, &files);
    }
    errors.sort();
    Ok(Report {
        files,
        diagnostics,
        errors,
        files_checked,
        elapsed_ms: started.elapsed().as_millis(),
        root,
        skipped,
        facts,
        model_dump,
        skipped_generated,
    })
}

/// Revision 2: a finding's level follows where its code runs. Hot: the rule's
/// level; unknown: `warning` at most; cold: dropped, or a note with `--pedantic`.
/// Hot code reached from an entry point gets a label saying how.
fn judge_context(project: &Project, d: &mut Diagnostic, pedantic: bool) -> bool {
    let Some((file, ctx)) = d.site else {
        return true;
    };
    let context = project.exec_context(file, ctx);
    match context.heat {
        Heat::Hot => {}
        Heat::Unknown => d.level = d.level.min(Level::Warning),
        Heat::Cold if pedantic => d.level = Level::Note,
        Heat::Cold => return false,
    }
    let entry = context
        .via
        .first()
        .filter(|_| context.heat != Heat::Unknown);
    if let Some(first) = entry {
        let root = project.model.heats.path((file, ctx))[0].node;
        let why = project.model.heats.root_why(root).unwrap_or("entry point");
        // Task and event-loop bodies are labelled by the rules themselves.
        let named = matches!(
            project.facts[root.0].contexts[root.1].kind,
            CtxKind::Function | CtxKind::Async
        );
        if named
            && !d
                .labels
                .iter()
                .any(|l| l.file == first.file && l.span == first.span)
        {
            let name = project.display_name(file, ctx);
            let message = if context.via.len() == 1 {
                format!("`{name}` is a {why}")
            } else {
                format!(
                    "`{name}` is reached from {why} `{}`",
                    project.display_name(root.0, root.1)
                )
            };
            d.labels.push(crate::diagnostic::Label {
                file: first.file,
                span: first.span,
                message,
            });
            for step in context.via.iter().skip(1).take(3) {
                d.labels.push(crate::diagnostic::Label {
                    file: step.file,
                    span: step.span,
                    message: step.what.clone(),
                });
            }
        }
    }
    d.context = Some(context);
    true
}

/// Files that are out-of-line test modules (`#[cfg(test)] mod tests;` in their
/// parent) are test code: their facts are dropped so nothing in them is reported.
fn drop_test_module_files(files: &[SourceFile], facts: &mut [FileFacts]) {
    let mut test_dirs: Vec<PathBuf> = Vec::new();
    for (f, x) in files.iter().zip(facts.iter()) {
        if x.test_modules.is_empty() {
            continue;
        }
        let parent = f.path.parent().unwrap_or(Path::new(""));
        let stem = f.path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let dir = if matches!(stem, "mod" | "lib" | "main") {
            parent.to_path_buf()
        } else {
            parent.join(stem)
        };
        test_dirs.extend(x.test_modules.iter().map(|m| dir.join(m)));
    }
    if test_dirs.is_empty() {
        return;
    }
    for (f, x) in files.iter().zip(facts.iter_mut()) {
        let is_test = test_dirs
            .iter()
            .any(|m| f.path == m.with_extension("rs") || f.path.starts_with(m));
        if is_test {
            *x = FileFacts::default();
        }
    }
}

/// One file after the per-file phase.
struct Analysed {
    file: Option<(SourceFile, FileFacts)>,
    errors: Vec<FileError>,
    /// Skipped as generated code.
    generated: bool,
}

fn analyse(
    path: &Path,
    language: Language,
    catalog: &Catalog,
    include_tests: bool,
    include_generated: bool,
    max_bytes: u64,
    root: &ProjectRoot,
) -> Analysed {
    let display = root.display(path);
    let fail = |message: String| Analysed {
        generated: false,
        file: None,
        errors: vec![FileError {
            path: display.clone(),
            message,
        }],
    };
    match std::fs::metadata(path) {
        Ok(m) if m.len() > max_bytes => {
            return fail(format!(
                "skipped: {} bytes is over the {max_bytes}-byte limit (`max_file_bytes`)",
                m.len()
            ))
        }
        Ok(_) => {}
        Err(e) => return fail(format!("cannot read: {e}")),
    }
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return fail(format!("cannot read: {e}")),
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            return fail(format!(
                "not valid UTF-8 (invalid byte at offset {}); skipped",
                e.utf8_error().valid_up_to()
            ))
        }
    };
    // Judged on the root-relative path: the same file is generated from any folder.
    let rel = root.relative(path).unwrap_or_else(|| path.to_path_buf());
    if !include_generated && crate::generated::is_generated(&rel, &text) {
        return Analysed {
            file: None,
            errors: Vec::new(),
            generated: true,
        };
    }
    let source = SourceFile::new(path.to_path_buf(), display.clone(), language, text);
    let opts = ExtractOptions {
        catalog: catalog.lang(language),
        include_tests,
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        frontend(language).extract(&source, &opts)
    }));
    match result {
        Ok(Ok(mut facts)) => {
            if source.text.contains("poolguard:") {
                facts.suppressions.extend(suppress::comments(&source));
            }
            // Facts and the line index are all the rest of the run needs; the few
            // files a finding shows are read again for rendering.
            let mut source = source;
            source.release_text();
            let errors = std::mem::take(&mut facts.errors)
                .into_iter()
                .map(|message| FileError {
                    path: display.clone(),
                    message,
                })
                .collect();
            Analysed {
                file: Some((source, facts)),
                errors,
                generated: false,
            }
        }
        Ok(Err(message)) => fail(message),
        Err(_) => fail("internal error while analysing this file (please report it)".into()),
    }
}
