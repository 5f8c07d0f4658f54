//! `--format github`: GitHub Actions workflow commands, one annotation a finding,
//! then a summary line (GitHub shows only 10 annotations per level per step).

use crate::report::Report;
use crate::rules::Level;
use crate::source::ColumnUnit;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let f = &report.files[d.file];
        let start = f.position(d.span.start, ColumnUnit::Chars);
        let end = f.position(d.span.end, ColumnUnit::Chars);
        let command = match d.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note | Level::Off => "notice",
        };
        let mut message = d.message.clone();
        if !d.help.is_empty() {
            message.push_str(&format!("\nhelp: {}", d.help));
        }
        out.push_str(&format!(
            "::{command} file={},line={},endLine={},col={},endColumn={},title={}::{}\n",
            property(&f.display),
            start.line,
            end.line,
            start.column,
            end.column,
            property(&format!("poolguard({})", d.rule)),
            data(&message)
        ));
    }
    out.push_str(&super::human::summary(report));
    out
}

/// Escape a workflow command's message.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a workflow command's property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes() {
        assert_eq!(super::data("50% a\nb"), "50%25 a%0Ab");
        assert_eq!(super::property("a:b,c"), "a%3Ab%2Cc");
    }
}
