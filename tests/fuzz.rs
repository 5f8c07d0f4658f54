//! A deterministic mutation fuzzer over the real binary: fixture files (Java,
//! Rust) and config files, mutated by byte flips, truncation, line duplication
//! and deletion, bracket insertion and splicing. Every batch must end with exit
//! 0 or 1, valid JSON, every mutant analysed or listed in `errors[]`, no internal
//! error, and the same bytes for `--jobs 1` and `--jobs 2`.
//!
//! CI runs a small fixed budget. Nightly: `POOLGUARD_FUZZ_MUTANTS=200000` mutants
//! per language (`POOLGUARD_FUZZ_SEED` picks another seed, `POOLGUARD_FUZZ_BIN` a
//! release build), e.g.
//! `POOLGUARD_FUZZ_MUTANTS=200000 POOLGUARD_FUZZ_BIN=target/release/poolguard cargo test --release --test fuzz -- --nocapture`.
//! A failing batch is kept under `target/fuzz-failures/` for reproduction.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

/// xorshift64*: tiny, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn binary() -> PathBuf {
    match std::env::var_os("POOLGUARD_FUZZ_BIN") {
        Some(p) => fs::canonicalize(p).expect("POOLGUARD_FUZZ_BIN exists"),
        None => assert_cmd::cargo::cargo_bin("poolguard"),
    }
}

fn seeds(ext: &str) -> Vec<Vec<u8>> {
    fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                collect(&p, ext, out);
            } else if p.extension().is_some_and(|e| e == ext) {
                out.push(p);
            }
        }
    }
    let mut paths = Vec::new();
    collect(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        ext,
        &mut paths,
    );
    paths.sort();
    paths.iter().map(|p| fs::read(p).unwrap()).collect()
}

const BRACKETS: &[u8] = b"{}()[]<>;\"'/*";

/// One mutant of a seed: one to three mutations, each any operator (few, so
/// that many mutants still parse and reach the extractors and rules).
fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut s = seeds[rng.below(seeds.len())].clone();
    for _ in 0..1 + rng.below(3) {
        match rng.below(7) {
            // Byte flip.
            0 if !s.is_empty() => {
                let i = rng.below(s.len());
                s[i] ^= 1 << rng.below(8);
            }
            // Truncation.
            1 => {
                let n = rng.below(s.len() + 1);
                s.truncate(n);
            }
            // Line duplication (2) and deletion (3).
            op @ (2 | 3) => {
                let mut lines: Vec<&[u8]> = s.split(|&b| b == b'\n').collect();
                let i = rng.below(lines.len());
                if op == 2 {
                    lines.insert(i, lines[i]);
                } else if lines.len() > 1 {
                    lines.remove(i);
                }
                s = lines.join(&b'\n');
            }
            // Bracket (or quote, comment) insertion, sometimes a run of them.
            4 | 5 => {
                let b = BRACKETS[rng.below(BRACKETS.len())];
                let i = rng.below(s.len() + 1);
                let n = if rng.below(8) == 0 {
                    1 + rng.below(64)
                } else {
                    1
                };
                s.splice(i..i, std::iter::repeat_n(b, n));
            }
            // Splicing: a prefix of this seed and a suffix of another.
            _ => {
                let other = &seeds[rng.below(seeds.len())];
                let a = rng.below(s.len() + 1);
                let b = rng.below(other.len() + 1);
                s.truncate(a);
                s.extend_from_slice(&other[b..]);
            }
        }
    }
    s
}

fn run(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = Command::new(binary())
        .current_dir(dir)
        .env_remove("POOLGUARD_TIMING")
        .env_remove("POOLGUARD_TEST_PANIC")
        .env("POOLGUARD_NO_CACHE", "1")
        .args(args)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Keep a failing batch for reproduction and fail with `why`.
fn keep(batch: tempfile::TempDir, why: String) -> ! {
    let dest = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-failures");
    fs::create_dir_all(&dest).unwrap();
    let kept = batch.keep();
    let target = dest.join(kept.file_name().unwrap());
    let at = if fs::rename(&kept, &target).is_ok() {
        target
    } else {
        kept
    };
    panic!("{why}\nbatch kept at {}", at.display());
}

/// Mutate and check `total` files of one language in batches; returns how many ran.
fn fuzz_language(ext: &str, seed: u64, total: usize, batch_size: usize) -> usize {
    let seeds = seeds(ext);
    assert!(!seeds.is_empty());
    let mut rng = Rng(seed);
    let mut done = 0;
    while done < total {
        let n = batch_size.min(total - done);
        let batch = tempfile::Builder::new()
            .prefix("poolguard-fuzz-")
            .tempdir()
            .unwrap();
        for i in 0..n {
            let m = mutate(&mut rng, &seeds);
            fs::write(batch.path().join(format!("m{:07}.{ext}", done + i)), m).unwrap();
        }
        let args = |jobs: &'static str| {
            [
                "check",
                ".",
                "--format",
                "json",
                "--include-tests",
                "--jobs",
                jobs,
            ]
        };
        let (code1, out1, err1) = run(batch.path(), &args("1"));
        if !matches!(code1, Some(0 | 1)) {
            keep(batch, format!("exit {code1:?}; stderr:\n{err1}"));
        }
        let doc: Value = match serde_json::from_slice(&out1) {
            Ok(v) => v,
            Err(e) => keep(batch, format!("invalid JSON: {e}")),
        };
        // Every mutant is analysed (even if only to report it) or skipped as generated.
        let seen = doc["summary"]["files"].as_u64().unwrap_or(0)
            + doc["summary"]["skipped_generated"].as_u64().unwrap_or(0);
        if seen != n as u64 {
            keep(
                batch,
                format!("{seen} files analysed of {n}: {}", doc["summary"]),
            );
        }
        let internal: Vec<&Value> = doc["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|e| {
                e["message"]
                    .as_str()
                    .is_none_or(|m| m.contains("internal error"))
            })
            .collect();
        if !internal.is_empty() {
            keep(batch, format!("internal errors: {internal:?}"));
        }
        let (code2, out2, err2) = run(batch.path(), &args("2"));
        if code2 != code1 || out2 != out1 {
            keep(
                batch,
                format!("--jobs 2 differs from --jobs 1 (exit {code2:?}); stderr:\n{err2}"),
            );
        }
        done += n;
    }
    done
}

#[test]
fn fuzz_java() {
    let total = env_usize("POOLGUARD_FUZZ_MUTANTS", 2000);
    let seed = env_usize("POOLGUARD_FUZZ_SEED", 0x5eed_0001) as u64;
    let started = Instant::now();
    let n = fuzz_language("java", seed, total, env_usize("POOLGUARD_FUZZ_BATCH", 500));
    eprintln!("fuzz_java: {n} mutants in {:?}", started.elapsed());
}

#[test]
fn fuzz_rust() {
    let total = env_usize("POOLGUARD_FUZZ_MUTANTS", 2000);
    let seed = env_usize("POOLGUARD_FUZZ_SEED", 0x5eed_0002) as u64;
    let started = Instant::now();
    let n = fuzz_language("rs", seed, total, env_usize("POOLGUARD_FUZZ_BATCH", 500));
    eprintln!("fuzz_rust: {n} mutants in {:?}", started.elapsed());
}

const CONFIG_SEEDS: &[&str] = &[
    "[rules]\nunbounded_join = \"error\"\nunbounded_queue = \"off\"\n\n[settings]\nmax_queue_capacity = 100000\nexclude = [\"generated/**\"]\ninclude_tests = false\nmax_file_bytes = 4194304\n",
    "[[catalog.java.clients]]\nid = \"acme-rpc\"\nname = \"an Acme RPC client\"\nstarts = [\"call:com.acme.rpc.RpcClient.builder\"]\nneeds = [\"deadline\"]\nmissing = \"a deadline\"\ndefault = \"calls wait for the server for as long as it likes\"\nhelp = \"add `.deadline(Duration.ofMillis(300))` to the builder\"\n",
    "[settings]\nexclude = [\"a/**\", \"{b,c}/*.java\", \"[!x]*.rs\"]\n[rules]\nmissing_client_timeout = \"warning\"\n",
];

#[test]
fn fuzz_config() {
    let total = env_usize("POOLGUARD_FUZZ_CONFIGS", 150);
    let seeds: Vec<Vec<u8>> = CONFIG_SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
    let mut rng = Rng(env_usize("POOLGUARD_FUZZ_SEED", 0x5eed_0003) as u64);
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("Q.java"),
        "import java.util.concurrent.*;\nclass Q { ExecutorService q = Executors.newFixedThreadPool(4); }\n",
    )
    .unwrap();
    for i in 0..total {
        let m = mutate(&mut rng, &seeds);
        fs::write(dir.path().join("poolguard.toml"), &m).unwrap();
        let (code, out, err) = run(dir.path(), &["check", ".", "--format", "json"]);
        let ok = match code {
            Some(0 | 1) => serde_json::from_slice::<Value>(&out).is_ok(),
            Some(2) => err.starts_with("poolguard: ") && out.is_empty(),
            _ => false,
        };
        assert!(
            ok && !err.contains("panicked"),
            "config mutant {i} (exit {code:?}):\n{}\nstderr:\n{err}",
            String::from_utf8_lossy(&m)
        );
    }
}
