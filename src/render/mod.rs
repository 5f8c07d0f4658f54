//! Output formats: one file per format, all reading the same sorted [`Report`].

use crate::report::Report;

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

/// [`render`], with each finding isolated: a finding whose rendering panics is
/// dropped with an `errors[]` entry naming its file and rule, and the rest render.
pub fn render_isolated(report: &mut Report, format: Format, color: bool) -> String {
    let attempt = |r: &Report| {
        crate::isolate::catch(|| {
            for d in &r.diagnostics {
                let path = r.files.get(d.file).map_or("", |f| f.display.as_str());
                crate::isolate::inject("render", std::iter::once(path));
            }
            render(r, format, color)
        })
    };
    if let Ok(text) = attempt(report) {
        return text;
    }
    let all = std::mem::take(&mut report.diagnostics);
    let mut kept = Vec::new();
    for d in all {
        report.diagnostics = vec![d];
        let failed = attempt(report).err();
        let Some(d) = report.diagnostics.pop() else {
            continue;
        };
        match failed {
            Some(panic) => report.errors.push(crate::report::FileError {
                path: report
                    .files
                    .get(d.file)
                    .map_or(String::new(), |f| f.display.clone()),
                message: crate::isolate::internal_error(
                    &format!("while rendering a `{}` finding", d.rule),
                    &panic,
                ),
            }),
            None => kept.push(d),
        }
    }
    report.diagnostics = kept;
    report.errors.sort();
    attempt(report).unwrap_or_else(|panic| {
        crate::output::note(&crate::isolate::internal_error(
            "while rendering the report",
            &panic,
        ));
        String::new()
    })
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
