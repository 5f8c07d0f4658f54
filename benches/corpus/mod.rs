//! The synthetic corpus of the throughput benchmark: a tree of Java (Spring) and
//! Rust (axum/tokio/rayon) service code, generated from the templates in
//! `java.rs` and `rust.rs`.
//!
//! Generation is deterministic: a fixed seed drives a small xorshift generator,
//! the file plan (paths, kinds, nouns) is drawn sequentially, then every file is
//! rendered from its own seed, so the tree is byte-identical however many threads
//! write it. A few percent of the files carry a hazard (an unbounded queue, a
//! wait without a timeout, a client without timeouts, a nested submission) so the
//! analyzer has findings to report; the rest is the bounded, timed-out variety.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

mod java;
mod rust;

/// Bump when a template changes: an existing corpus with another version is rewritten.
pub const GENERATOR_VERSION: u32 = 1;
/// The stamp file at the corpus root (not `.java`/`.rs`, so poolguard never reads it).
pub const STAMP: &str = "CORPUS.txt";
const SEED: u64 = 0x706f_6f6c_6775_6172; // "poolguar"

/// Lines per file: each file aims for a length in this range.
pub const MIN_LINES: usize = 150;
pub const MAX_LINES: usize = 400;

/// xorshift64*: small, fast and good enough to vary templates.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // splitmix64 once, so nearby seeds start far apart; never zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 11) % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// An index into `weights`, drawn in proportion to the weights.
    pub fn weighted(&mut self, weights: &[usize]) -> usize {
        let total: usize = weights.iter().sum();
        let mut r = self.below(total);
        for (i, w) in weights.iter().enumerate() {
            if r < *w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }
}

/// Template variables: `$name$` in a template is replaced by the value of `name`.
#[derive(Clone, Default)]
pub struct Vars(Vec<(&'static str, String)>);

impl Vars {
    pub fn set(&mut self, key: &'static str, value: impl Into<String>) -> &mut Vars {
        let value = value.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key, value)),
        }
        self
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Expand `$name$` placeholders; an unknown name is a template bug and panics.
pub fn fill(template: &str, vars: &Vars) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(start) = rest.find('$') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = after
            .find('$')
            .unwrap_or_else(|| panic!("unterminated placeholder in template: {rest:.60}"));
        let key = &after[..end];
        let value = vars
            .get(key)
            .unwrap_or_else(|| panic!("template uses unknown variable `{key}`"));
        out.push_str(value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

pub fn line_count(s: &str) -> usize {
    s.bytes().filter(|b| *b == b'\n').count()
}

/// `Order` -> `order`.
pub fn camel(pascal: &str) -> String {
    let mut c = pascal.chars();
    match c.next() {
        Some(first) => first.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `OrderLine` -> `order_line`.
pub fn snake(pascal: &str) -> String {
    let mut out = String::with_capacity(pascal.len() + 4);
    for (i, ch) in pascal.chars().enumerate() {
        if ch.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(ch.to_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// `OrderLine` -> `order-line`.
pub fn kebab(pascal: &str) -> String {
    snake(pascal).replace('_', "-")
}

/// `orders` -> `Orders`.
pub fn pascal(lower: &str) -> String {
    lower
        .split(['_', '-'])
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(first) => first.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect()
}

/// Business nouns (all take a plain `s` plural).
pub const NOUNS: &[&str] = &[
    "Order",
    "Invoice",
    "Shipment",
    "Payment",
    "Account",
    "Product",
    "Review",
    "Coupon",
    "Ticket",
    "Refund",
    "Customer",
    "Warehouse",
    "Carrier",
    "Parcel",
    "Quote",
    "Subscription",
    "Voucher",
    "Basket",
    "Listing",
    "Settlement",
    "Transfer",
    "Booking",
    "Reservation",
    "Notification",
    "Profile",
    "Session",
    "Merchant",
    "Device",
    "Report",
    "Campaign",
];

enum Plan {
    Java(java::Plan),
    Rust(rust::Plan),
}

/// Summary of a generated tree.
pub struct Generated {
    pub files: usize,
    pub bytes: u64,
    pub min_lines: usize,
    pub max_lines: usize,
    pub total_lines: usize,
}

/// Write `total` files (half Java, half Rust) under `root`, replacing what is there.
pub fn generate(root: &Path, total: usize) -> io::Result<Generated> {
    if root.exists() {
        std::fs::remove_dir_all(root)?;
    }
    std::fs::create_dir_all(root)?;
    let java_files = total / 2;
    let rust_files = total - java_files;

    let mut rng = Rng::new(SEED);
    let mut plans: Vec<(PathBuf, u64, Plan)> = Vec::with_capacity(total);
    let mut taken = HashSet::new();
    for i in 0..java_files {
        let p = java::plan(i, &mut rng, &mut taken);
        plans.push((p.path(), rng.next(), Plan::Java(p)));
    }
    for i in 0..rust_files {
        let p = rust::plan(i, &mut rng, &mut taken);
        plans.push((p.path(), rng.next(), Plan::Rust(p)));
    }

    let dirs: HashSet<PathBuf> = plans
        .iter()
        .filter_map(|(p, _, _)| p.parent().map(Path::to_path_buf))
        .collect();
    for d in &dirs {
        std::fs::create_dir_all(root.join(d))?;
    }

    let stats = plans
        .par_iter()
        .map(|(rel, seed, plan)| -> io::Result<(u64, usize)> {
            let mut rng = Rng::new(*seed);
            let text = match plan {
                Plan::Java(p) => java::render(p, &mut rng),
                Plan::Rust(p) => rust::render(p, &mut rng),
            };
            std::fs::write(root.join(rel), &text)?;
            Ok((text.len() as u64, line_count(&text)))
        })
        .collect::<io::Result<Vec<_>>>()?;

    let generated = Generated {
        files: stats.len(),
        bytes: stats.iter().map(|s| s.0).sum(),
        min_lines: stats.iter().map(|s| s.1).min().unwrap_or(0),
        max_lines: stats.iter().map(|s| s.1).max().unwrap_or(0),
        total_lines: stats.iter().map(|s| s.1).sum(),
    };
    std::fs::write(root.join(STAMP), stamp(total))?;
    Ok(generated)
}

/// The stamp's content for a corpus of `total` files.
pub fn stamp(total: usize) -> String {
    format!(
        "poolguard throughput corpus\ngenerator {GENERATOR_VERSION}\nfiles {total}\nseed {SEED:#x}\n"
    )
}
