//! `poolguard.toml` / `.poolguard.toml`: rule levels, settings, catalog extensions.
//!
//! Discovered upward from the first path; every unknown key or rule id is an
//! error that names the file and line, suggests the closest rule id and lists
//! what is allowed. `[[per-file]]` tables set rule levels for files matching globs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use toml::Spanned;

use crate::catalog::CatalogExtensions;
use crate::rules::{Level, RULES};

pub const CONFIG_NAMES: [&str; 2] = ["poolguard.toml", ".poolguard.toml"];

/// Default `max_queue_capacity`: a literal capacity above it is as good as unbounded.
pub const DEFAULT_MAX_QUEUE_CAPACITY: u64 = 100_000;
/// Default `max_file_bytes`: larger files are skipped with an error entry (generated code).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// A config file larger than this is refused.
pub const MAX_CONFIG_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    settings: RawSettings,
    #[serde(default)]
    catalog: CatalogExtensions,
    #[serde(default, rename = "per-file")]
    per_file: Vec<RawPerFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPerFile {
    paths: Vec<Spanned<String>>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// Rule levels for the files matching some globs (`[[per-file]]`).
#[derive(Debug, Clone)]
pub struct PerFile {
    pub paths: Vec<String>,
    globs: GlobSet,
    pub levels: BTreeMap<String, Level>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSettings {
    max_queue_capacity: Option<u64>,
    #[serde(default)]
    exclude: Vec<Spanned<String>>,
    include_tests: Option<bool>,
    max_file_bytes: Option<u64>,
    pedantic: Option<bool>,
    include_generated: Option<bool>,
    #[serde(rename = "cache-dir", alias = "cache_dir")]
    cache_dir: Option<String>,
}

/// The resolved configuration of a run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The config file, if one was found.
    pub path: Option<PathBuf>,
    /// Directory that `exclude` globs are relative to.
    pub root: PathBuf,
    /// Levels set in the file (rules not named keep their default).
    pub levels: BTreeMap<String, Level>,
    pub max_queue_capacity: u64,
    pub exclude: GlobSet,
    /// The `exclude` globs as written.
    pub exclude_patterns: Vec<String>,
    pub include_tests: bool,
    pub max_file_bytes: u64,
    /// Also report findings in cold code, as notes.
    pub pedantic: bool,
    /// Also check generated code.
    pub include_generated: bool,
    /// `cache-dir`, relative to the config file's directory.
    pub cache_dir: Option<PathBuf>,
    pub catalog: CatalogExtensions,
    /// `[[per-file]]` tables, in file order (a later match wins).
    pub per_file: Vec<PerFile>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            path: None,
            root: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            levels: BTreeMap::new(),
            max_queue_capacity: DEFAULT_MAX_QUEUE_CAPACITY,
            exclude: GlobSet::empty(),
            exclude_patterns: Vec::new(),
            include_tests: false,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            pedantic: false,
            include_generated: false,
            cache_dir: None,
            catalog: CatalogExtensions::default(),
            per_file: Vec::new(),
        }
    }
}

impl Config {
    /// Find the config upward from `start` (a file or directory).
    pub fn discover(start: &Path) -> Option<PathBuf> {
        let abs = std::path::absolute(start).ok()?;
        let mut dir = if abs.is_dir() {
            abs
        } else {
            abs.parent()?.to_path_buf()
        };
        loop {
            for name in CONFIG_NAMES {
                let candidate = dir.join(name);
                if candidate.is_file() {
                    return Some(candidate);
                }
            }
            // A repository's config never comes from outside it.
            if dir.join(".git").exists() || !dir.pop() {
                return None;
            }
        }
    }

    /// Read and validate a config file.
    pub fn load(path: &Path) -> Result<Config, String> {
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(format!(
                    "{}: cannot read config: not a regular file",
                    path.display()
                ))
            }
            Ok(m) if m.len() > MAX_CONFIG_BYTES => {
                return Err(format!(
                    "{}: cannot read config: {} bytes is over the {MAX_CONFIG_BYTES}-byte limit",
                    path.display(),
                    m.len()
                ))
            }
            _ => {}
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read config: {e}", path.display()))?;
        Config::parse(path, &text)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Config, String> {
        let at = |offset: usize| format!("{}:{}", path.display(), line_of(text, offset));
        let mut raw: RawConfig = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start)).unwrap_or(1);
            format!(
                "{}:{line}: {}\n  allowed: [rules] <rule> = \"error\"|\"warning\"|\"off\"; [settings] max_queue_capacity, exclude, include_tests, include_generated, max_file_bytes, pedantic, cache-dir; [[per-file]] paths = [\"glob\", ..], rules = {{ <rule> = \"off\" }}; [catalog.java] / [catalog.rust] tables",
                path.display(),
                e.message().trim_end()
            )
        })?;
        let levels = parse_levels(raw.rules, &at)?;
        let mut per_file = Vec::new();
        for table in raw.per_file {
            let mut globs = GlobSetBuilder::new();
            for pat in &table.paths {
                let glob = Glob::new(pat.get_ref())
                    .map_err(|e| format!("{}: bad [[per-file]] glob: {e}", at(pat.span().start)))?;
                globs.add(glob);
            }
            per_file.push(PerFile {
                paths: table.paths.iter().map(|p| p.get_ref().clone()).collect(),
                globs: globs
                    .build()
                    .map_err(|e| format!("{}: {e}", path.display()))?,
                levels: parse_levels(table.rules, &at)?,
            });
        }
        let mut globs = GlobSetBuilder::new();
        for pat in &raw.settings.exclude {
            let glob = Glob::new(pat.get_ref())
                .map_err(|e| format!("{}: bad exclude glob: {e}", at(pat.span().start)))?;
            globs.add(glob);
        }
        let exclude = globs
            .build()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let abs = crate::paths::absolute(path);
        let root = abs
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        crate::catalog::Catalog::load(&raw.catalog)
            .map_err(|e| format!("{}: [catalog]: {e}", path.display()))?;
        let cache_dir = raw.settings.cache_dir.take().map(|d| root.join(d));
        Ok(Config {
            path: Some(path.to_path_buf()),
            root,
            levels,
            max_queue_capacity: raw
                .settings
                .max_queue_capacity
                .unwrap_or(DEFAULT_MAX_QUEUE_CAPACITY),
            exclude,
            exclude_patterns: raw
                .settings
                .exclude
                .iter()
                .map(|p| p.get_ref().clone())
                .collect(),
            include_tests: raw.settings.include_tests.unwrap_or(false),
            max_file_bytes: raw
                .settings
                .max_file_bytes
                .unwrap_or(DEFAULT_MAX_FILE_BYTES),
            pedantic: raw.settings.pedantic.unwrap_or(false),
            include_generated: raw.settings.include_generated.unwrap_or(false),
            cache_dir,
            catalog: raw.catalog,
            per_file,
        })
    }

    /// The level `[[per-file]]` sets for `rule` in the file at `path`, if any
    /// (the last matching table that names the rule wins).
    pub fn per_file_level(&self, rule: &str, path: &Path) -> Option<Level> {
        if self.per_file.is_empty() {
            return None;
        }
        let abs = crate::paths::absolute(path);
        let rel = abs.strip_prefix(&self.root).unwrap_or(&abs);
        self.per_file
            .iter()
            .rev()
            .filter(|p| p.levels.contains_key(rule))
            .find(|p| p.globs.is_match(rel))
            .map(|p| p.levels[rule])
    }

    /// Whether some `[[per-file]]` table turns `rule` on for some files.
    pub fn per_file_enables(&self, rule: &str) -> bool {
        self.per_file
            .iter()
            .any(|p| p.levels.get(rule).is_some_and(|l| *l != Level::Off))
    }

    /// Whether a path matches an `exclude` glob (relative to the config's directory).
    pub fn is_excluded(&self, path: &Path) -> bool {
        if self.exclude.is_empty() {
            return false;
        }
        let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let rel = abs.strip_prefix(&self.root).unwrap_or(&abs);
        self.exclude.is_match(rel) || self.exclude.is_match(path)
    }
}

/// `rule = "level"` pairs, each rule id known and each level valid.
fn parse_levels(
    raw: BTreeMap<Spanned<String>, Spanned<String>>,
    at: &dyn Fn(usize) -> String,
) -> Result<BTreeMap<String, Level>, String> {
    let mut levels = BTreeMap::new();
    for (rule, level) in raw {
        if !RULES.iter().any(|r| r.id == rule.get_ref()) {
            return Err(format!(
                "{}: {}",
                at(rule.span().start),
                crate::rules::unknown_rule_message(rule.get_ref())
            ));
        }
        let lvl = Level::parse(level.get_ref()).ok_or_else(|| {
            format!(
                "{}: level of `{}` is `{}`; allowed: \"error\", \"warning\", \"off\"",
                at(level.span().start),
                rule.get_ref(),
                level.get_ref()
            )
        })?;
        levels.insert(rule.into_inner(), lvl);
    }
    Ok(levels)
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_rule_names_line() {
        let e = Config::parse(Path::new("p.toml"), "[rules]\n\nno_such = \"off\"\n").unwrap_err();
        assert!(e.starts_with("p.toml:3: unknown rule `no_such`"), "{e}");
    }

    #[test]
    fn unknown_key_names_line() {
        let e = Config::parse(Path::new("p.toml"), "[settings]\nmax_queue = 3\n").unwrap_err();
        assert!(e.starts_with("p.toml:2:"), "{e}");
        assert!(e.contains("max_queue"), "{e}");
    }

    #[test]
    fn levels_and_settings() {
        let c = Config::parse(
            Path::new("p.toml"),
            "[rules]\nunbounded_queue = \"off\"\n[settings]\nmax_queue_capacity = 5\nexclude = [\"gen/**\"]\n",
        )
        .unwrap();
        assert_eq!(c.levels["unbounded_queue"], Level::Off);
        assert_eq!(c.max_queue_capacity, 5);
    }

    #[test]
    fn per_file_levels_and_did_you_mean() {
        let c = Config::parse(
            Path::new("/p/poolguard.toml"),
            "[[per-file]]\npaths = [\"legacy/**\"]\nrules = { unbounded_queue = \"off\" }\n",
        )
        .unwrap();
        let level = |p: &str| c.per_file_level("unbounded_queue", Path::new(p));
        assert_eq!(level("/p/legacy/a/B.java"), Some(Level::Off));
        assert_eq!(level("/p/src/B.java"), None);
        let e = Config::parse(
            Path::new("p.toml"),
            "[[per-file]]\npaths = [\"x/**\"]\nrules = { unbounded-queue = \"off\" }\n",
        )
        .unwrap_err();
        assert!(e.contains("did you mean `unbounded_queue`?"), "{e}");
    }
}
