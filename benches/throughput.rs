//! Throughput benchmark: `cargo bench --bench throughput`.
//!
//! 1. Generates a synthetic corpus of realistic service code (default 5,000 Java +
//!    5,000 Rust files, 150-400 lines each) into `target/bench-corpus/`, unless a
//!    corpus of the same generator version and size is already there.
//! 2. Parse-only baseline, in process: read and parse every file with the front
//!    ends' `parse_only`, on a rayon pool of `available_parallelism()` threads.
//! 3. Full check: the real `poolguard check <corpus> --format json` as a child
//!    process; wall time, and peak RSS from `wait4`'s rusage.
//!
//! Each measurement is the best of 3 runs. The report prints files/s and MB/s for
//! both, their ratio, peak RSS, findings and parse errors, and whether the targets
//! (check throughput >= 60 % of parse-only, peak RSS < 300 MB) are met.
//!
//! Environment:
//! - `POOLGUARD_BENCH_FILES=N`: corpus size (default 10,000; a size other than the
//!   default goes to `target/bench-corpus-N/`, so a quick run keeps the big corpus).
//! - `POOLGUARD_BENCH_RUNS=N`: runs per measurement (default 3).
//! - `POOLGUARD_BENCH_COMPARE=/path/to/poolguard`: also time another poolguard
//!   binary (e.g. a build of an older commit) on the same corpus, for before/after.
//! - `POOLGUARD_BENCH_BY_LANGUAGE=1`: also measure Java and Rust separately.
//! - `POOLGUARD_BENCH_STRICT=1`: exit non-zero when a target is missed or a
//!   generated file does not parse.
//! - `POOLGUARD_BENCH_WARM=1`: instead, time one-file runs (`check <file>` from the
//!   corpus root, the whole corpus as context, as pre-commit runs) against a full
//!   run: without the record cache, with a cold cache (the run writes it), warm
//!   after the file changed, and warm with nothing changed (target: warm <= 10 %
//!   of the full run).
//!
//! - `POOLGUARD_BENCH_TREE=/path/to/repo`: instead of the corpus, a real tree; the
//!   parse-only baseline reads the files `poolguard check --show-files` checks.
//!
//! The corpus root holds an empty `poolguard.toml`: it is its own project. Runs
//! other than the warm ones set `POOLGUARD_NO_CACHE=1`.
//!
//! Without `--bench` (e.g. `cargo test --benches`) it runs a 200-file smoke test once.

mod corpus;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use poolguard::source::Language;
use rayon::prelude::*;

const DEFAULT_FILES: usize = 10_000;
const SMOKE_FILES: usize = 200;
const DEFAULT_RUNS: usize = 3;
/// Parser threads get a big stack: deeply nested expressions recurse deeply.
const PARSE_STACK: usize = 256 << 20;
/// Targets from the issue.
const MIN_RATIO: f64 = 0.60;
const MAX_RSS_MB: f64 = 300.0;

fn main() {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let files_wanted = env_usize("POOLGUARD_BENCH_FILES").unwrap_or(if bench_mode {
        DEFAULT_FILES
    } else {
        SMOKE_FILES
    });
    let runs = env_usize("POOLGUARD_BENCH_RUNS")
        .unwrap_or(if bench_mode { DEFAULT_RUNS } else { 1 })
        .max(1);
    let strict = std::env::var_os("POOLGUARD_BENCH_STRICT").is_some_and(|v| v == "1");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());

    let bin = PathBuf::from(env!("CARGO_BIN_EXE_poolguard"));
    let tree = std::env::var_os("POOLGUARD_BENCH_TREE").map(PathBuf::from);
    let (root, files) = match tree {
        Some(root) => {
            let files = checked_files(&bin, &root);
            (root, files)
        }
        None => {
            let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
            let root = if files_wanted == DEFAULT_FILES {
                target.join("bench-corpus")
            } else {
                target.join(format!("bench-corpus-{files_wanted}"))
            };
            ensure_corpus(&root, files_wanted);
            let marker = root.join("poolguard.toml");
            if !marker.exists() {
                std::fs::write(&marker, "# The bench corpus is a project of its own.\n")
                    .expect("write the corpus config");
            }
            let files = list_sources(&root);
            assert_eq!(
                files.len(),
                files_wanted,
                "corpus at {} has {} source files, expected {files_wanted}",
                root.display(),
                files.len()
            );
            (root, files)
        }
    };
    let bytes: u64 = files
        .iter()
        .map(|(p, _)| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    let java = files.iter().filter(|f| f.1 == Language::Java).count();
    println!(
        "corpus: {} ({} files: {java} Java, {} Rust; {:.1} MB)",
        root.display(),
        files.len(),
        files.len() - java,
        mb(bytes)
    );
    println!(
        "threads: {threads}; best of {runs} run(s) each; load average before: {}\n",
        load_average()
    );

    if std::env::var_os("POOLGUARD_BENCH_WARM").is_some_and(|v| v == "1") {
        warm_runs(&bin, &root, &files, runs);
        return;
    }

    // Parse-only baseline.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(PARSE_STACK)
        .thread_name(|i| format!("parse-{i}"))
        .build()
        .expect("parser thread pool");
    let mut parse = Best::default();
    let mut parse_failures = Vec::new();
    for run in 1..=runs {
        let (t, failed) = parse_only(&pool, &files);
        println!(
            "  parse-only run {run}: {:.3} s wall, {:.3} s CPU",
            t.wall.as_secs_f64(),
            t.cpu.as_secs_f64()
        );
        parse.add(t);
        parse_failures = failed;
    }

    // Full check, this build.
    let check = measure_check("check", &bin, &root, runs);

    // Optional: another binary on the same corpus.
    let compare = std::env::var_os("POOLGUARD_BENCH_COMPARE")
        .map(PathBuf::from)
        .map(|other| measure_check("compare", &other, &root, runs));

    // Report.
    let nfiles = files.len() as f64;
    let size = mb(bytes);
    let ratio = parse.wall.as_secs_f64() / check.time.wall.as_secs_f64();
    let cpu_ratio = parse.cpu.as_secs_f64() / check.time.cpu.as_secs_f64();
    println!();
    println!(
        "| {:<20} | {:>6} | {:>8} | {:>6} | {:>8} | {:>11} | {:>8} | {:>6} |",
        "measurement", "wall s", "files/s", "MB/s", "CPU s", "peak RSS MB", "findings", "errors"
    );
    println!(
        "|{:-<22}|{:->7}:|{:->9}:|{:->7}:|{:->9}:|{:->12}:|{:->9}:|{:->7}:|",
        "", "", "", "", "", "", "", ""
    );
    let row = |label: &str, t: &Best, rss: &str, findings: &str, errors: usize| {
        let w = t.wall.as_secs_f64();
        println!(
            "| {label:<20} | {w:>6.3} | {:>8.0} | {:>6.2} | {:>8.3} | {rss:>11} | {findings:>8} | {errors:>6} |",
            nfiles / w,
            size / w,
            t.cpu.as_secs_f64(),
        );
    };
    row(
        "parse-only (in-proc)",
        &parse,
        "-",
        "-",
        parse_failures.len(),
    );
    let check_row = |label: &str, m: &CheckRun| {
        row(
            label,
            &m.time,
            &format!("{:.1}", m.peak_rss_mb),
            &m.findings.to_string(),
            m.errors.len(),
        )
    };
    check_row("poolguard check", &check);
    if let Some(c) = &compare {
        check_row("compare binary", c);
    }
    println!();
    println!(
        "files {}  |  {size:.1} MB  |  {} lines",
        files.len(),
        count_lines(&files)
    );
    println!(
        "check / parse-only throughput: {:.1} % wall (target >= {:.0} %: {}); {:.1} % by CPU time",
        ratio * 100.0,
        MIN_RATIO * 100.0,
        verdict(ratio >= MIN_RATIO),
        cpu_ratio * 100.0
    );
    println!(
        "check peak RSS: {:.1} MB  (target < {:.0} MB: {})",
        check.peak_rss_mb,
        MAX_RSS_MB,
        verdict(check.peak_rss_mb < MAX_RSS_MB)
    );
    if !check.by_rule.is_empty() {
        let rules: Vec<String> = check
            .by_rule
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        println!("findings by rule: {}", rules.join(", "));
    }
    let files_with_findings = check.files_with_findings;
    println!(
        "files with findings: {files_with_findings} ({:.1} %)",
        100.0 * files_with_findings as f64 / nfiles
    );
    if let Some(c) = &compare {
        let (a, b) = (check.time.wall.as_secs_f64(), c.time.wall.as_secs_f64());
        println!(
            "this build vs compare binary: {:.0} vs {:.0} files/s, {:.2} vs {:.2} MB/s ({:+.1} % wall, {:+.1} % CPU), peak RSS {:.1} vs {:.1} MB",
            nfiles / a,
            nfiles / b,
            size / a,
            size / b,
            (b / a - 1.0) * 100.0,
            (c.time.cpu.as_secs_f64() / check.time.cpu.as_secs_f64() - 1.0) * 100.0,
            check.peak_rss_mb,
            c.peak_rss_mb
        );
    }

    println!("load average after: {}", load_average());

    if std::env::var_os("POOLGUARD_BENCH_BY_LANGUAGE").is_some_and(|v| v == "1") {
        by_language(&pool, &bin, &root, &files, runs);
    }

    let mut ok = ratio >= MIN_RATIO && check.peak_rss_mb < MAX_RSS_MB;
    if check.files_checked != files.len() {
        ok = false;
        println!(
            "\nWARNING: poolguard checked {} files, the corpus has {}",
            check.files_checked,
            files.len()
        );
    }
    if !parse_failures.is_empty() {
        ok = false;
        println!(
            "\nWARNING: {} generated files failed parse_only, e.g.:",
            parse_failures.len()
        );
        for p in parse_failures.iter().take(5) {
            println!("  {}", p.display());
        }
    }
    if !check.errors.is_empty() {
        ok = false;
        println!(
            "\nWARNING: poolguard reported {} errors on generated files, e.g.:",
            check.errors.len()
        );
        for e in check.errors.iter().take(5) {
            println!("  {e}");
        }
    }
    if strict && !ok {
        std::process::exit(1);
    }
}

/// The 1/5/15-minute load averages: other work on the machine skews the numbers.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".to_string())
}

/// Parse-only and check per language (`<corpus>/java`, `<corpus>/rust`).
fn by_language(
    pool: &rayon::ThreadPool,
    bin: &Path,
    root: &Path,
    files: &[(PathBuf, Language)],
    runs: usize,
) {
    println!("\nper language (best of {runs}):");
    for (lang, dir) in [(Language::Java, "java"), (Language::Rust, "rust")] {
        let subset: Vec<(PathBuf, Language)> =
            files.iter().filter(|f| f.1 == lang).cloned().collect();
        let bytes: u64 = subset
            .iter()
            .map(|(p, _)| std::fs::metadata(p).map_or(0, |m| m.len()))
            .sum();
        let mut parse = Best::default();
        for _ in 0..runs {
            parse.add(parse_only(pool, &subset).0);
        }
        let check = measure_check(&format!("check {dir}"), bin, &root.join(dir), runs);
        let n = subset.len() as f64;
        let (pw, cw) = (parse.wall.as_secs_f64(), check.time.wall.as_secs_f64());
        println!(
            "  {}: {} files, {:.1} MB | parse-only {pw:.3} s, {:.0} files/s, {:.1} MB/s, {:.3} s CPU | check {cw:.3} s, {:.0} files/s, {:.1} MB/s, {:.3} s CPU | ratio {:.1} % wall, {:.1} % CPU | peak RSS {:.1} MB",
            lang.name(),
            subset.len(),
            mb(bytes),
            n / pw,
            mb(bytes) / pw,
            parse.cpu.as_secs_f64(),
            n / cw,
            mb(bytes) / cw,
            check.time.cpu.as_secs_f64(),
            100.0 * pw / cw,
            100.0 * parse.cpu.as_secs_f64() / check.time.cpu.as_secs_f64(),
            check.peak_rss_mb
        );
    }
}

fn env_usize(name: &str) -> Option<usize> {
    let v = std::env::var(name).ok()?;
    let n = v
        .replace('_', "")
        .parse()
        .unwrap_or_else(|_| panic!("{name}={v} is not a number"));
    Some(n)
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "MISSED"
    }
}

/// Generate the corpus unless `root` already holds one of this generator and size.
fn ensure_corpus(root: &Path, total: usize) {
    let stamp = std::fs::read_to_string(root.join(corpus::STAMP)).unwrap_or_default();
    if stamp == corpus::stamp(total) && list_sources(root).len() == total {
        return;
    }
    let start = Instant::now();
    let g = corpus::generate(root, total).expect("write the corpus");
    println!(
        "generated {} files ({:.1} MB, {} lines, {}-{} lines per file) in {:.2} s",
        g.files,
        mb(g.bytes),
        g.total_lines,
        g.min_lines,
        g.max_lines,
        start.elapsed().as_secs_f64()
    );
}

/// Every `.java` and `.rs` file under `root`, sorted.
fn list_sources(root: &Path) -> Vec<(PathBuf, Language)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                Ok(t) if t.is_file() => {
                    if let Some(lang) = Language::from_path(&path) {
                        out.push((path, lang));
                    }
                }
                _ => {}
            }
        }
    }
    out.sort();
    out
}

fn count_lines(files: &[(PathBuf, Language)]) -> usize {
    files
        .par_iter()
        .map(|(p, _)| std::fs::read(p).map_or(0, |b| b.iter().filter(|c| **c == b'\n').count()))
        .sum()
}

/// Wall and CPU (user + system) time of one run.
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Duration,
}

/// The best (smallest) wall and CPU times over several runs, each taken separately:
/// CPU time is far less disturbed by other work on the machine than wall time.
struct Best {
    wall: Duration,
    cpu: Duration,
}

impl Default for Best {
    fn default() -> Self {
        Best {
            wall: Duration::MAX,
            cpu: Duration::MAX,
        }
    }
}

impl Best {
    fn add(&mut self, t: Timing) {
        self.wall = self.wall.min(t.wall);
        self.cpu = self.cpu.min(t.cpu);
    }
}

fn cpu_of(usage: &libc::rusage) -> Duration {
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn self_cpu() -> Duration {
    // SAFETY: rusage is plain data; getrusage fills it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    assert_eq!(r, 0, "getrusage failed");
    cpu_of(&usage)
}

/// The files `poolguard check --show-files` checks in a real tree (tests and
/// generated code excluded), so parse-only reads the same files.
fn checked_files(bin: &Path, root: &Path) -> Vec<(PathBuf, Language)> {
    let out = Command::new(bin)
        .arg("check")
        .arg(root)
        .arg("--show-files")
        .stderr(Stdio::null())
        .output()
        .expect("run poolguard --show-files");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("check  "))
        .filter_map(|p| {
            let lang = match Path::new(p).extension()?.to_str()? {
                "java" => Language::Java,
                "rs" => Language::Rust,
                _ => return None,
            };
            Some((root.join(p), lang))
        })
        .collect()
}

/// Read and parse every file; returns the times and the files that failed.
fn parse_only(pool: &rayon::ThreadPool, files: &[(PathBuf, Language)]) -> (Timing, Vec<PathBuf>) {
    let cpu0 = self_cpu();
    let start = Instant::now();
    let failed: Vec<PathBuf> = pool.install(|| {
        files
            .par_iter()
            .filter_map(|(path, lang)| {
                let text = std::fs::read_to_string(path)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                let ok = poolguard::lang::frontend(*lang).parse_only(&text);
                (!ok).then(|| path.clone())
            })
            .collect()
    });
    let wall = start.elapsed();
    let cpu = self_cpu() - cpu0;
    (Timing { wall, cpu }, failed)
}

struct CheckRun {
    time: Best,
    /// `summary.files` of the report: how many files poolguard checked.
    files_checked: usize,
    peak_rss_mb: f64,
    findings: usize,
    files_with_findings: usize,
    by_rule: Vec<(String, usize)>,
    errors: Vec<String>,
}

/// One-file runs with the whole corpus as context, with and without the cache.
fn warm_runs(bin: &Path, root: &Path, files: &[(PathBuf, Language)], runs: usize) {
    let cache = root.join(".poolguard_cache");
    let one = &files
        .iter()
        .find(|f| f.1 == Language::Java)
        .expect("a Java file")
        .0;
    let rel = one
        .strip_prefix(root)
        .expect("under the corpus")
        .to_path_buf();
    let original = std::fs::read(one).expect("read the file");
    let mut edits = 0;
    let mut edit = || {
        edits += 1;
        let mut text = original.clone();
        text.extend_from_slice(format!("// edit {edits}\n").as_bytes());
        std::fs::write(one, text).expect("edit the file");
    };
    let check = |label: &str, path: &Path, cached: bool, before: &mut dyn FnMut()| {
        let args = [path.as_os_str(), "--format".as_ref(), "json".as_ref()];
        measure(label, bin, root, &args, cached, runs, before)
    };
    println!("one file: {}", rel.display());
    let full = check("full, no cache", Path::new("."), false, &mut || {});
    let plain = check("one file, no cache", &rel, false, &mut || {});
    let cold = check("one file, cold", &rel, true, &mut || {
        let _ = std::fs::remove_dir_all(&cache);
    });
    let warm = check("one file, warm", &rel, true, &mut edit);
    let same = check("one file, unchanged", &rel, true, &mut || {});
    // Where the warm run's time goes.
    edit();
    let out = Command::new(bin)
        .current_dir(root)
        .arg("check")
        .arg(&rel)
        .args(["--format", "json"])
        .env("POOLGUARD_TIMING", "1")
        .env_remove("POOLGUARD_NO_CACHE")
        .stdout(Stdio::null())
        .output()
        .expect("run poolguard");
    std::fs::write(one, &original).expect("restore the file");
    println!("\nstages of a warm one-file run:");
    for line in String::from_utf8_lossy(&out.stderr).lines() {
        println!("  {line}");
    }
    let n = files.len() as f64;
    let base = full.time.wall.as_secs_f64();
    println!("\n| run | wall | files/s | CPU | peak RSS | of the full run |");
    println!("| --- | --: | --: | --: | --: | --: |");
    for (label, m) in [
        ("full run, `--no-cache`", &full),
        ("one file, `--no-cache`", &plain),
        ("one file, cold cache (writes it)", &cold),
        ("one file, warm cache, file changed", &warm),
        ("one file, warm cache, unchanged", &same),
    ] {
        let w = m.time.wall.as_secs_f64();
        println!(
            "| {label} | {w:.2} s | {:.0} | {:.2} s | {:.0} MB | {:.1} % |",
            n / w,
            m.time.cpu.as_secs_f64(),
            m.peak_rss_mb,
            100.0 * w / base
        );
    }
    let ratio = warm.time.wall.as_secs_f64() / base;
    println!(
        "\nfiles/s: the project's {} files over wall time (each run analyses all of them)",
        files.len()
    );
    println!(
        "warm one-file run / full run: {:.1} % (target <= 10 %: {})",
        100.0 * ratio,
        verdict(ratio <= 0.10)
    );
}

/// Run `bin check <root> --format json --output <tmp>` `runs` times, without the cache.
fn measure_check(label: &str, bin: &Path, root: &Path, runs: usize) -> CheckRun {
    let args = [root.as_os_str(), "--format".as_ref(), "json".as_ref()];
    let here = Path::new(".");
    measure(label, bin, here, &args, false, runs, &mut || {})
}

/// Run `bin check ARGS --output <tmp>` in `dir` `runs` times, calling `before`
/// before each; with the record cache or without (`POOLGUARD_NO_CACHE=1`, which
/// older builds ignore).
fn measure(
    label: &str,
    bin: &Path,
    dir: &Path,
    args: &[&std::ffi::OsStr],
    cached: bool,
    runs: usize,
    before: &mut dyn FnMut(),
) -> CheckRun {
    let tmp = tempfile::tempdir().expect("temp dir");
    let report = tmp.path().join("report.json");
    let stderr = tmp.path().join("stderr.txt");
    let mut time = Best::default();
    let mut peak_kib = 0;
    for run in 1..=runs {
        before();
        let mut command = Command::new(bin);
        command
            .current_dir(dir)
            .arg("check")
            .args(args)
            .arg("--output")
            .arg(&report)
            .env_remove("POOLGUARD_TIMING")
            .env_remove("POOLGUARD_CACHE_DIR");
        if cached {
            command.env_remove("POOLGUARD_NO_CACHE");
        } else {
            command.env("POOLGUARD_NO_CACHE", "1");
        }
        let start = Instant::now();
        // Reaped below by `wait4` (for its rusage), not by `Child::wait`.
        #[allow(clippy::zombie_processes)]
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(File::create(&stderr).expect("stderr file"))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
        let (status, maxrss_kib, cpu) = wait_with_rusage(child.id());
        let elapsed = start.elapsed();
        // 0: clean, 1: findings; anything else is a failure of the run.
        if status != 0 && status != 1 {
            let err = std::fs::read_to_string(&stderr).unwrap_or_default();
            panic!(
                "{} exited with {status}:\n{}",
                bin.display(),
                err.lines().take(20).collect::<Vec<_>>().join("\n")
            );
        }
        println!(
            "  {label} run {run}: {:.3} s wall, {:.3} s CPU, peak RSS {:.1} MB",
            elapsed.as_secs_f64(),
            cpu.as_secs_f64(),
            maxrss_kib as f64 * 1024.0 / 1e6
        );
        time.add(Timing { wall: elapsed, cpu });
        peak_kib = peak_kib.max(maxrss_kib);
    }

    let text = std::fs::read_to_string(&report).expect("the JSON report");
    let doc: serde_json::Value = serde_json::from_str(&text).expect("the report is JSON");
    let diags = doc["diagnostics"].as_array().cloned().unwrap_or_default();
    let mut by_rule = std::collections::BTreeMap::<String, usize>::new();
    let mut paths = std::collections::HashSet::new();
    for d in &diags {
        *by_rule
            .entry(d["rule"].as_str().unwrap_or("?").to_string())
            .or_default() += 1;
        paths.insert(d["path"].as_str().unwrap_or("").to_string());
    }
    let errors = doc["errors"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    format!(
                        "{}: {}",
                        e["path"].as_str().unwrap_or("?"),
                        e["message"].as_str().unwrap_or("?")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    CheckRun {
        time,
        files_checked: doc["summary"]["files"].as_u64().unwrap_or(0) as usize,
        // ru_maxrss is in KiB on Linux.
        peak_rss_mb: peak_kib as f64 * 1024.0 / 1e6,
        findings: diags.len(),
        files_with_findings: paths.len(),
        by_rule: by_rule.into_iter().collect(),
        errors,
    }
}

/// Reap `pid` with `wait4`: its exit code, peak resident set size (KiB) and CPU time.
fn wait_with_rusage(pid: u32) -> (i32, i64, Duration) {
    let pid = pid as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = loop {
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            continue;
        }
        break r;
    };
    assert_eq!(r, pid, "wait4 failed: {}", std::io::Error::last_os_error());
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    (code, usage.ru_maxrss, cpu_of(&usage))
}
