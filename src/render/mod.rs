//! Output formats: one file per format, all reading the same sorted [`Report`].

use crate::engine::Report;

mod concise;
mod github;
mod gitlab;
mod human;
mod json;
mod rdjson;
mod sarif;
mod statistics;

pub use human::Color;

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Concise,
    Json,
    Sarif,
    Github,
    Rdjson,
    Gitlab,
}

/// Render a report in a format. `color` applies to `human` only.
pub fn render(report: &Report, format: Format, color: bool) -> String {
    match format {
        Format::Human => human::render(report, color),
        Format::Concise => concise::render(report),
        Format::Json => json::render(report),
        Format::Sarif => sarif::render(report),
        Format::Github => github::render(report),
        Format::Rdjson => rdjson::render(report),
        Format::Gitlab => gitlab::render(report),
    }
}

/// Where a rule's documentation lives online.
pub fn rule_help_uri(rule: &str) -> String {
    format!("{}/blob/main/rules/{rule}.md", env!("CARGO_PKG_REPOSITORY"))
}

/// The closing line: counts by level, files and errors.
pub fn summary(report: &Report) -> String {
    human::summary(report)
}

/// `--statistics`: counts per rule and level.
pub fn render_statistics(report: &Report, format: Format) -> String {
    statistics::render(report, format)
}
