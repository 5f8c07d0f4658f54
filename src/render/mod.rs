//! Output formats: one file per format, all reading the same sorted [`Report`].

use crate::engine::Report;

mod concise;
mod human;
mod json;
mod statistics;

pub use human::Color;

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Concise,
    Json,
}

/// Render a report in a format. `color` applies to `human` only.
pub fn render(report: &Report, format: Format, color: bool) -> String {
    match format {
        Format::Human => human::render(report, color),
        Format::Concise => concise::render(report),
        Format::Json => json::render(report),
    }
}

/// `--statistics`: counts per rule.
pub fn render_statistics(report: &Report, format: Format) -> String {
    statistics::render(report, format)
}
