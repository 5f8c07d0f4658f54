//! One run: walk -> parse and extract (parallel, per file) -> link -> rules ->
//! suppressions -> sorted report.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use crate::baseline;
use crate::cache::{self, Cache};
use crate::catalog::Catalog;
use crate::diagnostic::{self, Diagnostic, Worth};
use crate::facts::{CtxKind, FileFacts, Heat};
use crate::isolate;
use crate::lang::{frontend, ExtractOptions};
use crate::link::Project;
use crate::root::ProjectRoot;
use crate::rules::{Level, Rule, Settings, RULES};
use crate::scope::Scope;
use crate::source::{Language, SourceFile};
use crate::suppress;
use crate::walk::{self, Candidate, Skipped, WalkOptions};

pub use crate::options::CheckOptions;
pub(crate) use crate::report::Analysed;
pub use crate::report::{FileError, Report};

/// Stack size of parser threads: deeply nested expressions recurse in the parser
/// and visitor; a large (lazily committed) stack turns a crash into a slow file.
pub const PARSER_STACK_BYTES: usize = 512 * 1024 * 1024;

/// Most worker threads a run starts, whatever `--jobs` says: each has a large
/// (lazily committed) stack, and more threads than work only cost memory.
pub const MAX_JOBS: usize = 256;

fn max_jobs(cores: usize) -> usize {
    (4 * cores).clamp(1, MAX_JOBS)
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
    /// Whether each candidate is one the user asked about (not only context).
    pub in_scope: Vec<bool>,
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
            .zip(&self.in_scope)
            .filter_map(|(c, &requested)| requested.then_some(c))
    }
}

/// Resolve the root and walk, without analysing anything (`--show-files` stops here).
pub fn plan(opts: &CheckOptions) -> Result<Plan, String> {
    for p in &opts.paths {
        if std::fs::symlink_metadata(p).is_err() {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = match opts.jobs {
        0 => cores,
        n if n > max_jobs(cores) => {
            crate::output::note(&format!(
                "poolguard: --jobs {n} capped at {} (4 threads per core, at most {MAX_JOBS})",
                max_jobs(cores)
            ));
            max_jobs(cores)
        }
        n => n,
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
    let canonical = crate::scope::canonical_many(walked.files.iter().map(|c| c.path.as_path()));
    let mut seen_paths = std::collections::HashSet::new();
    let mut in_scope = Vec::new();
    let candidates: Vec<_> = walked
        .files
        .into_iter()
        .zip(canonical)
        .filter_map(|(c, canonical)| {
            let requested = scope.requested_canonical(&canonical);
            seen_paths.insert(canonical).then(|| {
                in_scope.push(requested);
                c
            })
        })
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
        in_scope,
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
        in_scope,
        walk_errors,
        skipped,
        jobs,
    } = plan(opts)?;
    let walked_at = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(PARSER_STACK_BYTES)
        .thread_name(|i| format!("poolguard-{i}"))
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let include_tests = opts.include_tests || opts.config.include_tests;
    let include_generated = opts.include_generated || opts.config.include_generated;
    let max_bytes = opts.config.max_file_bytes;
    // The test hook must see every file extracted.
    let cache = (std::env::var_os("POOLGUARD_TEST_PANIC").is_none())
        .then(|| opts.cache.dir(&root.dir))
        .flatten()
        .map(|dir| {
            let fingerprint =
                cache::fingerprint(&catalog, include_tests, include_generated, max_bytes);
            Cache::open(dir, fingerprint)
        });
    let (analysed, stored): (Vec<Analysed>, Vec<Option<cache::Stored>>) = pool.install(|| {
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
                    cache.as_ref(),
                )
            })
            .unzip()
    });
    // The next pack is written while the project is linked and judged.
    let saving = cache.map(|c| {
        let hits = stored.iter().flatten().filter(|s| !s.is_new()).count();
        (
            hits,
            c.save(stored.into_iter().flatten().collect(), root.dir.clone()),
        )
    });

    let analysed_at = Instant::now();
    let mut files: Vec<SourceFile> = Vec::with_capacity(analysed.len());
    let mut facts = Vec::with_capacity(analysed.len());
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
    let mut skipped_read_tests = 0;
    let mut skipped = skipped;
    let explicit: Vec<_> = opts
        .paths
        .iter()
        .map(|p| crate::scope::canonical(p))
        .collect();
    // Whether each file (by `FileId`) is one the user asked about.
    let mut requested = Vec::with_capacity(analysed.len());
    for ((a, c), &in_scope) in analysed.into_iter().zip(&candidates).zip(&in_scope) {
        if in_scope {
            errors.extend(a.errors);
            skipped_generated += usize::from(a.generated);
            skipped_read_tests += usize::from(a.test_code);
            if a.generated || a.test_code {
                let reason = if a.generated {
                    walk::Reason::Generated
                } else {
                    walk::Reason::TestCode
                };
                skipped.push(Skipped {
                    path: c.path.clone(),
                    reason,
                    explicit: explicit.contains(&crate::scope::canonical(&c.path)),
                });
            }
        }
        if let Some(file) = a.file {
            let (source, f) = *file;
            files.push(source);
            facts.push(f);
            requested.push(in_scope);
        }
    }
    skipped.sort();
    drop_module_files(&files, &mut facts, include_tests);
    let desktop = &catalog.lang(Language::Rust).data.desktop_crates;
    crate::lang::rust::crates::mark_tool_crates(&files, &mut facts, desktop);
    crate::model::calls::prune_calls(&mut facts);
    let java_entries = &catalog.lang(Language::Java).data.entry_points;
    crate::model::declared_entries_only(&files, &mut facts, java_entries);
    // The model dump shows every file's lines.
    if opts.dump_model {
        for f in &mut files {
            let _ = f.reload_text();
        }
    }
    let files_checked =
        in_scope.iter().filter(|&&r| r).count() - skipped_generated - skipped_read_tests;

    let levels = effective_levels(opts);
    let settings = Settings {
        max_queue_capacity: opts.config.max_queue_capacity,
        pedantic: opts.pedantic || opts.config.pedantic,
    };
    let timing = std::env::var_os("POOLGUARD_TIMING").is_some_and(|v| v == "1");
    let linked_at = Instant::now();
    // Languages whose unknown-context findings are reported only with `--pedantic`,
    // with the rules they still report as warnings there.
    let unknown_pedantic: Vec<(Language, Vec<String>)> = [Language::Java, Language::Rust]
        .into_iter()
        .filter(|&l| {
            catalog.lang(l).data.unknown_context == Some(crate::catalog::UnknownContext::Pedantic)
        })
        .map(|l| (l, catalog.lang(l).data.unknown_reported.clone()))
        .collect();
    // On the worker threads: the call graph resolves files in parallel.
    let judged = pool.install(|| {
        link_and_judge(
            &files,
            &mut facts,
            &catalog.lang(Language::Java).data.spring.default_async_bean,
            &catalog.lang(Language::Java).data.entry_points,
            &unknown_pedantic,
            &levels,
            &settings,
            opts,
            &mut errors,
        )
    });
    if timing {
        let count = |f: fn(&FileFacts) -> usize| facts.iter().map(f).sum::<usize>();
        crate::output::note(&format!(
            "poolguard: timing: walk {} ms; parse and extract {} ms; gather {} ms; model and link {} ms; \
             {} contexts, {} calls, {} types, {} items, {} submissions, {} waits",
            (walked_at - started).as_millis(),
            (analysed_at - walked_at).as_millis(),
            (linked_at - analysed_at).as_millis(),
            judged.link_ms,
            count(|f| f.contexts.len()),
            count(|f| f.calls.len()),
            count(|f| f.types.len()),
            count(|f| f.items.len()),
            count(|f| f.submissions.len()),
            count(|f| f.waits.len()),
        ));
        crate::output::note(&format!("poolguard: timing: rules {} ms", judged.rules_ms));
    }
    if let Some((hits, saving)) = saving {
        let waited = Instant::now();
        let written = match saving.join() {
            Ok(Ok(written)) => written,
            Ok(Err(message)) => {
                crate::output::note(&format!("poolguard: note: {message}"));
                false
            }
            Err(_) => false,
        };
        if timing {
            crate::output::note(&format!(
                "poolguard: timing: cache {hits} hits, {} misses, {}; waited {} ms for the write",
                candidates.len() - hits,
                if written { "written" } else { "not written" },
                waited.elapsed().as_millis()
            ));
        }
    }
    let model_dump = judged.model_dump;
    let mut diagnostics = judged.diagnostics;
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
    // So is a wait whose submission an earlier rule reports at the submission
    // (`caller_runs_under_join` labels the latch the caller awaits; the `get()` on
    // the same task's future after it is the same hazard).
    let submissions: std::collections::HashSet<(usize, crate::source::Span)> = diagnostics
        .iter()
        .filter(|d| matches!(d.rule, "caller_runs_under_join" | "nested_pool_submission"))
        .map(|d| (d.file, d.span))
        .collect();
    diagnostics.retain(|d| {
        d.rule != "unbounded_join"
            || absorbed
                .get(&(d.file, d.span))
                .is_none_or(|&by| by >= rank(d.rule))
                && !d
                    .labels
                    .iter()
                    .any(|l| submissions.contains(&(l.file, l.span)))
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
    // Findings are shown from the text as it was analysed: a file changed since
    // is reported instead, and its findings and labels are dropped.
    let mut changed = std::collections::BTreeMap::new();
    for d in &diagnostics {
        let via = d.context.iter().flat_map(|c| c.via.iter().map(|v| v.file));
        for file in std::iter::once(d.file)
            .chain(d.labels.iter().map(|l| l.file))
            .chain(via)
        {
            if changed.contains_key(&file) {
                continue;
            }
            if let Err(message) = files[file].reload_text() {
                changed.insert(file, message);
            }
        }
    }
    if !changed.is_empty() {
        diagnostics.retain(|d| !changed.contains_key(&d.file));
        for d in &mut diagnostics {
            d.labels.retain(|l| !changed.contains_key(&l.file));
            if let Some(c) = &mut d.context {
                c.via.retain(|v| !changed.contains_key(&v.file));
            }
        }
        for (file, message) in changed {
            if requested[file] {
                errors.push(FileError {
                    path: files[file].display.clone(),
                    message,
                });
            }
        }
    }
    diagnostic::sort(&mut diagnostics, &files);
    diagnostic::assign_fingerprints(&mut diagnostics, &files, &|f| &facts[f].items);
    diagnostics.retain(|d| requested[d.file]);
    if let Some(path) = &opts.write_baseline {
        let n = baseline::write(path, &diagnostics, &files)?;
        crate::output::note(&format!(
            "poolguard: wrote {n} finding{} to baseline {}",
            if n == 1 { "" } else { "s" },
            path.display()
        ));
    }
    diagnostics.retain(|d| scope.reports(d, &files));
    let (unused_rule, unused_level) = meta(suppress::UNUSED_ALLOW);
    if runs(opts, unused_rule, unused_level) {
        let mut unused = Vec::new();
        for (file, f) in facts.iter().enumerate() {
            let path = &files[file].path;
            let level = level_in(opts, unused_rule, unused_level, path);
            if f.suppressions.is_empty() || level == Level::Off || !requested[file] {
                continue;
            }
            // Rules that could have produced a finding here, so an allow for them is judged.
            let enabled: Vec<&str> = RULES
                .iter()
                .zip(&levels)
                .filter(|(r, (_, l))| !r.is_meta() && level_in(opts, r, *l, path) != Level::Off)
                .map(|(r, _)| r.id)
                .collect();
            if files[file].reload_text().is_err() {
                continue;
            }
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

/// What linking and the rules found.
struct Judged {
    diagnostics: Vec<Diagnostic>,
    model_dump: Option<String>,
    link_ms: u128,
    rules_ms: u128,
}

/// Link the project, run the enabled rules and judge each finding's context. A
/// panic while linking or in a rule is traced to the files that cause it (each
/// is linked and judged alone): their facts are dropped with an `errors[]` entry
/// naming file and rule, and the phase runs again without them.
#[allow(clippy::too_many_arguments)]
fn link_and_judge(
    files: &[SourceFile],
    facts: &mut [FileFacts],
    default_async_bean: &str,
    java_entries: &[crate::catalog::EntryPoint],
    unknown_pedantic: &[(Language, Vec<String>)],
    levels: &[(&'static str, Level)],
    settings: &Settings,
    opts: &CheckOptions,
    errors: &mut Vec<FileError>,
) -> Judged {
    let pedantic = opts.pedantic || opts.config.pedantic;
    let dump_model = opts.dump_model;
    let enabled: Vec<(&crate::rules::Rule, Level)> = RULES
        .iter()
        .zip(levels)
        .filter(|(rule, (_, level))| !rule.is_meta() && runs(opts, rule, *level))
        .map(|(rule, (_, level))| (rule, *level))
        .collect();
    type Found = Vec<Result<Vec<Diagnostic>, String>>;
    // `dropped`: files whose model is already dropped (the test hook skips them).
    let judge = |files: &[SourceFile],
                 facts: &[FileFacts],
                 dropped: &[bool],
                 rules: &[(&crate::rules::Rule, Level)],
                 dump: bool|
     -> Result<(Found, Option<String>, u128, u128), String> {
        let live = || {
            files
                .iter()
                .zip(dropped)
                .filter(|(_, d)| !**d)
                .map(|(f, _)| f.display.as_str())
        };
        isolate::catch(|| {
            let linked_at = Instant::now();
            isolate::inject("link", live());
            let project = Project::new(files, facts, default_async_bean, java_entries);
            let link_ms = linked_at.elapsed().as_millis();
            let rules_at = Instant::now();
            let found = rules
                .iter()
                .map(|(rule, level)| {
                    isolate::catch(|| {
                        isolate::inject(rule.id, live());
                        let mut found = (rule.check)(&project, settings);
                        found.retain_mut(|d| {
                            // Per-file settings; a rule may soften one finding (a risk
                            // rather than a defect).
                            let level = level_in(opts, rule, *level, &files[d.file].path);
                            d.level = level.min(d.level);
                            level != Level::Off
                        });
                        found.retain_mut(|d| {
                            let pedantic_only = d.worth == Worth::PedanticOnly;
                            if pedantic_only && !pedantic {
                                return false;
                            }
                            let language = files[d.file].language;
                            let quiet = d.worth == Worth::HotOnly
                                || unknown_pedantic.iter().any(|(l, reported)| {
                                    *l == language && !reported.iter().any(|r| r == rule.id)
                                });
                            let kept = judge_context(&project, d, pedantic, quiet);
                            if pedantic_only {
                                d.level = Level::Note;
                            }
                            kept
                        });
                        found
                    })
                })
                .collect::<Vec<_>>();
            let rules_ms = rules_at.elapsed().as_millis();
            let dump = dump.then(|| crate::dump::dump(&project));
            (found, dump, link_ms, rules_ms)
        })
    };
    let mut dropped = vec![false; files.len()];
    let mut found: Vec<Option<Vec<Diagnostic>>> = vec![None; enabled.len()];
    let mut judged = Judged {
        diagnostics: Vec::new(),
        model_dump: None,
        link_ms: 0,
        rules_ms: 0,
    };
    // Two rounds: the second runs without the files the first traced a panic to.
    for round in 0..2 {
        let pending: Vec<usize> = (0..enabled.len()).filter(|&i| found[i].is_none()).collect();
        if pending.is_empty() && (round > 0 || !dump_model) {
            break;
        }
        let rules: Vec<_> = pending.iter().map(|&i| enabled[i]).collect();
        let failed: Vec<(Option<&'static str>, String)> =
            match judge(files, facts, &dropped, &rules, dump_model && round == 0) {
                Ok((results, dump, link_ms, rules_ms)) => {
                    if round == 0 {
                        (judged.model_dump, judged.link_ms, judged.rules_ms) =
                            (dump, link_ms, rules_ms);
                    }
                    let mut failed = Vec::new();
                    for (&i, r) in pending.iter().zip(results) {
                        match r {
                            Ok(d) => found[i] = Some(d),
                            Err(panic) => failed.push((Some(enabled[i].0.id), panic)),
                        }
                    }
                    failed
                }
                Err(panic) => vec![(None, panic)],
            };
        for (rule, panic) in failed {
            let what = match rule {
                Some(id) => format!("in rule `{id}`"),
                None => "while linking".to_string(),
            };
            let rules_alone: Vec<_> = match rule {
                Some(id) => enabled
                    .iter()
                    .copied()
                    .filter(|(r, _)| r.id == id)
                    .collect(),
                None => Vec::new(),
            };
            let mut traced = false;
            for i in 0..files.len() {
                if dropped[i] {
                    continue;
                }
                let alone = judge(
                    &files[i..=i],
                    &facts[i..=i],
                    &dropped[i..=i],
                    &rules_alone,
                    false,
                );
                let culprit = match alone {
                    Err(p) => Some(p),
                    Ok((r, ..)) => r.into_iter().find_map(Result::err),
                };
                if let Some(p) = culprit {
                    traced = true;
                    errors.push(FileError {
                        path: files[i].display.clone(),
                        message: isolate::internal_error(&format!("{what} on this file"), &p),
                    });
                    drop_model(&mut facts[i]);
                    dropped[i] = true;
                }
            }
            if !traced || round == 1 {
                errors.push(FileError {
                    path: String::new(),
                    message: isolate::internal_error(
                        &format!("{what}; its findings are missing"),
                        &panic,
                    ),
                });
                // Give up on this rule (or, for linking, on every rule still pending).
                for (i, (r, _)) in enabled.iter().enumerate() {
                    if found[i].is_none() && rule.is_none_or(|id| id == r.id) {
                        found[i] = Some(Vec::new());
                    }
                }
            }
        }
    }
    judged.diagnostics = found.into_iter().flatten().flatten().collect();
    judged
}

/// Forget what a file contributes to linking and rules; keep what suppressions,
/// fingerprints and test-module pruning read.
fn drop_model(f: &mut FileFacts) {
    *f = FileFacts {
        suppressions: std::mem::take(&mut f.suppressions),
        test_modules: std::mem::take(&mut f.test_modules),
        wasm_modules: std::mem::take(&mut f.wasm_modules),
        modules: f.modules.take(),
        items: std::mem::take(&mut f.items),
        ..FileFacts::default()
    };
}

/// Revision 2: a finding's level follows where its code runs. Hot: the rule's
/// level; unknown: `warning` at most, or like cold where the language's catalog
/// says `unknown_context = "pedantic"` (`quiet_unknown`); cold: dropped, or a note
/// with `--pedantic`. Hot code reached from an entry point gets a label saying how.
fn judge_context(
    project: &Project,
    d: &mut Diagnostic,
    pedantic: bool,
    quiet_unknown: bool,
) -> bool {
    let Some((file, ctx)) = d.site else {
        // No code to judge (a queue or client whose users the project cannot see):
        // unknown, unless its whole file is a program that serves no traffic.
        let heat = if project.facts[d.file].binary {
            Heat::Cold
        } else {
            Heat::Unknown
        };
        match heat {
            Heat::Cold if !pedantic => return false,
            Heat::Cold => d.level = Level::Note,
            _ if quiet_unknown && !pedantic => return false,
            _ if quiet_unknown => d.level = Level::Note,
            _ => d.level = d.level.min(Level::Warning),
        }
        let via = match heat {
            Heat::Cold => vec![crate::diagnostic::ViaStep {
                file: d.file,
                span: d.span,
                what: "a program that serves no traffic".into(),
            }],
            _ => Vec::new(),
        };
        d.context = Some(crate::diagnostic::ExecContext { heat, via });
        return true;
    };
    let (mut context, root) = project.exec_context(file, ctx);
    // A wait on a lazy initialization's path (`if (region == null) region =
    // create();`) runs once, not per request: where it runs is as good as unknown.
    // (What such code makes, a pool or a client, still serves every later request.)
    if d.once_is_unknown && context.heat != project.steady_heat(file, ctx) {
        context = crate::diagnostic::ExecContext {
            heat: Heat::Unknown,
            via: Vec::new(),
        };
    }
    // Dead or deprecated code: as good as cold.
    let dead = context.heat == Heat::Unknown && project.retired(file, ctx);
    match context.heat {
        _ if d.any_context => {}
        Heat::Hot => {}
        Heat::Unknown if dead && !pedantic => return false,
        Heat::Unknown if dead => d.level = Level::Note,
        Heat::Unknown if quiet_unknown && !pedantic => return false,
        Heat::Unknown if quiet_unknown => d.level = Level::Note,
        Heat::Unknown => d.level = d.level.min(Level::Warning),
        Heat::Cold if pedantic => d.level = Level::Note,
        Heat::Cold => return false,
    }
    let entry = context
        .via
        .first()
        .filter(|_| context.heat != Heat::Unknown);
    if let Some(first) = entry {
        let why = project.model.heats.root_why(root).unwrap_or("entry point");
        let root_facts = &project.facts[root.0];
        let root_ctx = &root_facts.contexts[root.1];
        // Task and event-loop bodies are labelled by the rules themselves (not code an
        // event-loop handler calls); a finding whose rule put no label in the task's
        // file (a semaphore's wait deep in a task's calls) gets the path here.
        let (named, task) = match root_ctx.kind {
            CtxKind::Function | CtxKind::Async => (true, false),
            CtxKind::EventLoop => (context.via.len() > 1, false),
            _ => (d.labels.iter().all(|l| l.file != first.file), true),
        };
        if named
            && !d
                .labels
                .iter()
                .any(|l| l.file == first.file && l.span == first.span)
        {
            let name = project.display_name(file, ctx);
            let uncalled_cold =
                context.heat == Heat::Cold && project.model.heats.root_why(root).is_none();
            let message = if uncalled_cold {
                format!("every caller of `{name}` is cold")
            } else if context.via.len() == 1 {
                let article = if why.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                // A task inside a function (a spawned `async` block) goes by the
                // function's name: the function starts it, it is not the task.
                let spawned_block = root_ctx.kind == CtxKind::Async && root_ctx.parent.is_some();
                if spawned_block && ctx == root.1 && file == root.0 {
                    format!("`{name}` starts {article} {why} here")
                } else {
                    format!("`{name}` is {article} {why}")
                }
            } else {
                format!(
                    "`{name}` is reached from {}",
                    crate::link::root_named(why, &project.display_name(root.0, root.1))
                )
            };
            // A task's whole body would make a long label: its submission stands for it.
            let span = match root_ctx.submission {
                Some(s) if task && first.file == root.0 => root_facts.submissions[s].span,
                _ => first.span,
            };
            d.labels.push(crate::diagnostic::Label {
                file: first.file,
                span,
                message,
            });
            // At most three steps after the entry: on a longer path, the first two
            // and the last (the call into the function that holds the finding).
            let steps = &context.via[1..];
            let last = steps.len().saturating_sub(1);
            let shown = steps
                .iter()
                .enumerate()
                .filter(|&(i, _)| steps.len() <= 3 || i < 2 || i == last);
            for (_, step) in shown {
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
/// parent) are test code, and those of WebAssembly-only modules (`#[cfg(target_family
/// = "wasm")] mod wasm;`) browser code, as such items are within a file: their facts
/// are dropped so nothing in them is reported.
fn drop_module_files(files: &[SourceFile], facts: &mut [FileFacts], include_tests: bool) {
    let mut test_dirs: Vec<PathBuf> = Vec::new();
    for (f, x) in files.iter().zip(facts.iter()) {
        let tests = x.test_modules.iter().filter(|_| !include_tests);
        let (named, tests): (Vec<&String>, Vec<&String>) = tests.partition(|m| m.ends_with(".rs"));
        let parent = f.path.parent().unwrap_or(Path::new(""));
        // `#[path = "./unit/x_tests.rs"]`, from the declaring file's directory.
        test_dirs.extend(named.into_iter().map(|p| {
            let mut out = parent.to_path_buf();
            for c in Path::new(p).components() {
                match c {
                    std::path::Component::CurDir => {}
                    std::path::Component::ParentDir => {
                        out.pop();
                    }
                    c => out.push(c),
                }
            }
            out
        }));
        let mut skipped = tests.into_iter().chain(&x.wasm_modules).peekable();
        if skipped.peek().is_none() {
            continue;
        }
        let stem = f.path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let dir = if matches!(stem, "mod" | "lib" | "main") {
            parent.to_path_buf()
        } else {
            parent.join(stem)
        };
        test_dirs.extend(skipped.map(|m| dir.join(m)));
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

/// Analyse one file, or take what the cache has for its content; with a cache,
/// also the file's record for the next pack.
#[allow(clippy::too_many_arguments)]
fn analyse(
    path: &Path,
    language: Language,
    catalog: &Catalog,
    include_tests: bool,
    include_generated: bool,
    max_bytes: u64,
    root: &ProjectRoot,
    cache: Option<&Cache>,
) -> (Analysed, Option<cache::Stored>) {
    let display = root.display(path);
    let fail = |message: String| (Analysed::failed(&display, message), None);
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return fail("skipped: not a regular file (a FIFO, socket or device)".into())
        }
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
    let key = cache.map(|_| Cache::key(&display, &bytes));
    if let (Some(cache), Some(key)) = (cache, &key) {
        if let Some((hit, stored)) = cache.get(key, path, language) {
            return (hit, Some(stored));
        }
    }
    let (a, cacheable) = analyse_bytes(
        path,
        language,
        catalog,
        include_tests,
        include_generated,
        root,
        display,
        bytes,
    );
    let stored = key.filter(|_| cacheable).and_then(|k| Cache::put(k, &a));
    (a, stored)
}

/// Analyse a file's content. The flag says whether the outcome depends on the
/// content alone (not on a caught panic), so the cache may keep it.
#[allow(clippy::too_many_arguments)]
fn analyse_bytes(
    path: &Path,
    language: Language,
    catalog: &Catalog,
    include_tests: bool,
    include_generated: bool,
    root: &ProjectRoot,
    display: String,
    bytes: Vec<u8>,
) -> (Analysed, bool) {
    let fail = |message: String| (Analysed::failed(&display, message), true);
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
        let a = Analysed {
            file: None,
            errors: Vec::new(),
            generated: true,
            test_code: false,
        };
        return (a, true);
    }
    if !include_tests && language == Language::Java && crate::walk::imports_test_framework(&text) {
        let a = Analysed {
            file: None,
            errors: Vec::new(),
            generated: false,
            test_code: true,
        };
        return (a, true);
    }
    if let Some(why) = crate::budget::check(&text, language) {
        return fail(format!("skipped: {why}"));
    }
    let source = SourceFile::new(path.to_path_buf(), display.clone(), language, text);
    let opts = ExtractOptions {
        catalog: catalog.lang(language),
        include_tests,
    };
    let result = isolate::catch(|| {
        isolate::inject("extract", std::iter::once(display.as_str()));
        frontend(language).extract(&source, &opts)
    });
    match result {
        Ok(Ok(mut facts)) => {
            if source.text.contains("poolguard:") {
                facts.suppressions.extend(suppress::comments(&source));
            }
            facts.shrink();
            // Facts and the line index are all the rest of the run needs; the few
            // files a finding shows are read again for rendering.
            let mut source = source;
            source.release_text();
            if facts.suppressions.is_empty() {
                source.release_lines();
            }
            let errors = std::mem::take(&mut facts.errors)
                .into_iter()
                .map(|message| FileError {
                    path: display.clone(),
                    message,
                })
                .collect();
            let a = Analysed {
                file: Some(Box::new((source, facts))),
                errors,
                generated: false,
                test_code: false,
            };
            (a, true)
        }
        Ok(Err(message)) => fail(message),
        Err(panic) => {
            let (a, _) = fail(isolate::internal_error("while analysing this file", &panic));
            (a, false)
        }
    }
}
