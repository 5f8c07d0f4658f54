//! The command line (`clap`): `check`, `rules`, `explain`, `clean`.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::config::Config;
use crate::engine::{self, CheckOptions};
use crate::output;
use crate::render::{self, Color, Format};
use crate::rules::{Level, RULES};

/// Exit codes of `cli.md`.
pub const EXIT_CLEAN: i32 = 0;
pub const EXIT_FINDINGS: i32 = 1;
pub const EXIT_ERROR: i32 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "poolguard",
    version,
    about = "Finds the thread-pool and timeout anti-patterns that turn one slow dependency into an outage (Java, Rust)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check files and directories (default: the current directory).
    Check(CheckArgs),
    /// List the rules: id, default level, languages, summary.
    Rules {
        /// `text` (a table) or `json` (schema `poolguard/v1`).
        #[arg(long, value_enum, default_value = "text")]
        format: RulesFormat,
    },
    /// Show a rule's documentation.
    Explain {
        /// Rule id, e.g. `unbounded_join`.
        rule: String,
    },
    /// Delete the cache of the project at PATH (default: the current directory).
    Clean {
        /// A file or directory of the project.
        path: Option<PathBuf>,
        /// Config file (default: `poolguard.toml` or `.poolguard.toml` found upward from PATH).
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        /// The cache directory, if not the default.
        #[arg(long, value_name = "DIR")]
        cache_dir: Option<PathBuf>,
    },
    /// Internal: print what poolguard knows about a project.
    #[command(hide = true, subcommand)]
    Debug(DebugCommand),
}

#[derive(Debug, Subcommand)]
pub enum DebugCommand {
    /// The project model: types, contexts with their heat, call edges, pools,
    /// submissions and waits (the front ends' contract; fixtures snapshot it).
    Model {
        /// Files or directories (default: the current directory).
        paths: Vec<PathBuf>,
        /// Also read test code.
        #[arg(long)]
        include_tests: bool,
    },
}

/// `rules --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Text,
    Json,
}

/// `--fail-level`: the lowest level that makes the exit code 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailLevel {
    Error,
    Warning,
}

impl FailLevel {
    fn level(self) -> Level {
        match self {
            FailLevel::Error => Level::Error,
            FailLevel::Warning => Level::Warning,
        }
    }
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files or directories to check.
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Write the report to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Config file (default: `poolguard.toml` or `.poolguard.toml` found upward from the first path).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Run only these rules (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "RULE,..")]
    pub select: Option<Vec<String>>,
    /// Never run these rules (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "RULE,..")]
    pub ignore: Vec<String>,
    /// Also check test code.
    #[arg(long)]
    pub include_tests: bool,
    /// Also report findings in cold code (startup, shutdown, `main`, dedicated threads) as notes.
    #[arg(long)]
    pub pedantic: bool,
    /// Also check generated code (`@generated`, `DO NOT EDIT`, `@Generated`, `generated-sources/`).
    #[arg(long)]
    pub include_generated: bool,
    /// Apply the config's `exclude` globs to explicitly passed files too.
    #[arg(long)]
    pub force_exclude: bool,
    /// Exit 0 even when there are findings.
    #[arg(long)]
    pub exit_zero: bool,
    /// The lowest level that makes the exit code 1.
    #[arg(long, value_enum, default_value = "warning")]
    pub fail_level: FailLevel,
    /// Print the resolved settings (config file, project root, rule levels) and exit.
    #[arg(long)]
    pub show_settings: bool,
    /// Print the files that would be checked, and what is skipped and why, and exit.
    #[arg(long)]
    pub show_files: bool,
    /// Colour in human output: `auto` honours NO_COLOR and whether stdout is a terminal.
    #[arg(long, value_enum, default_value = "auto")]
    pub color: Color,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Print counts per rule and level instead of findings.
    #[arg(long)]
    pub statistics: bool,
    /// Report only findings on lines added or modified since git REF (working tree included).
    #[arg(long, value_name = "REF")]
    pub since: Option<String>,
    /// Hide the findings recorded in this baseline file.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record the current findings in this baseline file (and exit 0).
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
    /// Report allow comments and annotations that suppress nothing.
    #[arg(long)]
    pub report_unused_allows: bool,
    /// Neither read nor write the cache of per-file records (also `POOLGUARD_NO_CACHE=1`).
    #[arg(long)]
    pub no_cache: bool,
    /// Cache directory (default: `.poolguard_cache` in the project root; also
    /// `POOLGUARD_CACHE_DIR`, or `cache-dir` in the config's `[settings]`).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

/// Where the cache is: `--no-cache` or `POOLGUARD_NO_CACHE` turn it off; else
/// `--cache-dir`, `POOLGUARD_CACHE_DIR`, the config's `cache-dir`, the default.
fn cache_location(
    no_cache: bool,
    cache_dir: Option<&std::path::Path>,
    config: &Config,
) -> crate::cache::Location {
    use crate::cache::Location;
    let env = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    let off = env("POOLGUARD_NO_CACHE").is_some_and(|v| v != "0" && v != "false");
    if no_cache || off {
        return Location::Off;
    }
    let dir = cache_dir
        .map(std::path::Path::to_path_buf)
        .or_else(|| env("POOLGUARD_CACHE_DIR").map(PathBuf::from));
    match (dir, &config.cache_dir) {
        (Some(d), _) => Location::Dir(crate::paths::absolute(&d)),
        (None, Some(d)) => Location::Dir(d.clone()),
        (None, None) => Location::Default,
    }
}

/// `poolguard clean`: the cache directory `check` would use for `path`, deleted.
fn clean(
    path: Option<PathBuf>,
    config: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
) -> Result<i32, String> {
    let path = path.unwrap_or_else(|| PathBuf::from("."));
    let config = match config.or_else(|| Config::discover(&path)) {
        Some(p) => Config::load(&p)?,
        None => Config::default(),
    };
    let location = cache_location(false, cache_dir.as_deref(), &config);
    let root = crate::root::ProjectRoot::find(&config, std::slice::from_ref(&path));
    let Some(dir) = location.dir(&root.dir) else {
        return Ok(EXIT_CLEAN);
    };
    match crate::cache::clean(&dir) {
        Ok(true) => output::note(&format!(
            "poolguard: removed the cache in {}",
            dir.display()
        )),
        Ok(false) => output::note(&format!("poolguard: no cache in {}", dir.display())),
        Err(e) => return Err(format!("{}: cannot remove the cache: {e}", dir.display())),
    }
    Ok(EXIT_CLEAN)
}

/// Run the command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Rules { format } => {
            match format {
                RulesFormat::Text => output::stdout(&rules_table()),
                RulesFormat::Json => output::stdout(&rules_json()),
            }
            EXIT_CLEAN
        }
        Command::Explain { rule } => match crate::rules::find(&rule) {
            Some(r) => {
                output::stdout(r.doc);
                EXIT_CLEAN
            }
            None => {
                output::note(&format!(
                    "poolguard: {}",
                    crate::rules::unknown_rule_message(&rule)
                ));
                EXIT_ERROR
            }
        },
        Command::Debug(DebugCommand::Model {
            paths,
            include_tests,
        }) => {
            let paths = if paths.is_empty() {
                vec![PathBuf::from(".")]
            } else {
                paths
            };
            let config = match Config::discover(&paths[0]) {
                Some(path) => Config::load(&path),
                None => Ok(Config::default()),
            };
            let opts = config.map(|config| CheckOptions {
                include_tests,
                dump_model: true,
                ..CheckOptions::new(paths, config)
            });
            match opts.and_then(|o| engine::check(&o)) {
                Ok(report) => {
                    output::stdout(&report.model_dump.unwrap_or_default());
                    EXIT_CLEAN
                }
                Err(message) => {
                    output::note(&format!("poolguard: {message}"));
                    EXIT_ERROR
                }
            }
        }
        Command::Check(args) => match check(args) {
            Ok(code) => code,
            Err(message) => {
                output::note(&format!("poolguard: {message}"));
                EXIT_ERROR
            }
        },
        Command::Clean {
            path,
            config,
            cache_dir,
        } => match clean(path, config, cache_dir) {
            Ok(code) => code,
            Err(message) => {
                output::note(&format!("poolguard: {message}"));
                EXIT_ERROR
            }
        },
    }
}

fn rules_table() -> String {
    let mut out = format!(
        "{:<26} {:<8} {:<11} {}\n",
        "rule", "default", "languages", "summary"
    );
    for r in RULES {
        out.push_str(&format!(
            "{:<26} {:<8} {:<11} {}\n",
            r.id,
            r.default_level.as_str(),
            r.languages,
            r.summary
        ));
    }
    out
}

/// `rules --format json`: the registry as data.
fn rules_json() -> String {
    let rules: Vec<serde_json::Value> = RULES
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.id,
                "default_level": r.default_level.as_str(),
                "languages": r.languages.split(", ").collect::<Vec<_>>(),
                "summary": r.summary,
                "precision": r.precision,
                "help_uri": render::rule_help_uri(r.id),
                "meta": r.is_meta(),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "schema": "poolguard/v1",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).expect("rules serialize")
    )
}

/// Rule ids from `--select`/`--ignore`: empty names (`a,`) dropped, unknown ones rejected.
fn rule_list(option: &str, names: &[String]) -> Result<Vec<String>, String> {
    let names: Vec<String> = names
        .iter()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect();
    for name in &names {
        if crate::rules::find(name).is_none() {
            return Err(format!(
                "{option}: {}",
                crate::rules::unknown_rule_message(name)
            ));
        }
    }
    Ok(names)
}

fn check(args: CheckArgs) -> Result<i32, String> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let select = match &args.select {
        Some(names) => {
            let list = rule_list("--select", names)?;
            if list.is_empty() {
                return Err("--select: names no rule".into());
            }
            Some(list)
        }
        None => None,
    };
    let ignore = rule_list("--ignore", &args.ignore)?;
    let config = match &args.config {
        Some(path) => Config::load(path)?,
        None => match Config::discover(&paths[0]) {
            Some(path) => Config::load(&path)?,
            None => Config::default(),
        },
    };
    let opts = CheckOptions {
        include_tests: args.include_tests,
        pedantic: args.pedantic,
        include_generated: args.include_generated,
        force_exclude: args.force_exclude,
        jobs: args.jobs.unwrap_or(0),
        select,
        ignore,
        since: args.since.clone(),
        baseline: args.baseline.clone(),
        write_baseline: args.write_baseline.clone(),
        report_unused_allows: args.report_unused_allows,
        cache: cache_location(args.no_cache, args.cache_dir.as_deref(), &config),
        ..CheckOptions::new(paths, config)
    };
    if args.show_settings {
        output::stdout(&crate::show::settings(&opts));
        return Ok(EXIT_CLEAN);
    }
    if args.show_files {
        let plan = engine::plan(&opts)?;
        let (list, totals) = crate::show::files(&plan);
        output::stdout(&list);
        output::note(totals.trim_end());
        return Ok(EXIT_CLEAN);
    }
    let mut report = engine::check(&opts)?;
    for s in report.skipped.iter().filter(|s| s.explicit) {
        output::note(&format!(
            "poolguard: note: skipped {}: {}",
            crate::escape::one_line(&report.root.display(&s.path)),
            s.reason.describe()
        ));
    }
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            args.output.is_none()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    let text = if args.statistics {
        render::render_statistics(&report, args.format)
    } else {
        render::render_isolated(&mut report, args.format, color)
    };
    for e in &report.errors {
        output::note(&format!(
            "poolguard: {}: {}",
            crate::escape::one_line(&e.path),
            e.message
        ));
    }
    match &args.output {
        Some(path) => {
            output::write_atomic(path, text.as_bytes())
                .map_err(|e| format!("{}: cannot write report: {e}", path.display()))?;
            output::note(render::summary(&report).trim_end());
        }
        // A closed pipe (`poolguard check | head`) is not an error of ours.
        None => output::stdout(&text),
    }
    let failed = report.has_findings(args.fail_level.level());
    let code = if failed && !args.exit_zero && args.write_baseline.is_none() {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    };
    // The process exits next: freeing every file's facts one by one is wasted time.
    std::mem::forget(report);
    Ok(code)
}
