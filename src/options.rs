//! What a run checks and how: the options the CLI and the library set.

use std::path::PathBuf;

use crate::config::Config;

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
    /// Where per-file records are cached between runs.
    pub cache: crate::cache::Location,
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
            cache: crate::cache::Location::Off,
        }
    }
}
