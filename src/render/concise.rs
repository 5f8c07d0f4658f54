//! `--format concise`: one line a finding, `path:line:col: level[rule] message`.

use crate::report::Report;
use crate::source::ColumnUnit;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let f = &report.files[d.file];
        let p = f.position(d.span.start, ColumnUnit::Chars);
        out.push_str(&format!(
            "{}:{}:{}: {}[{}] {}\n",
            crate::escape::one_line(&f.display),
            p.line,
            p.column,
            d.level.as_str(),
            d.rule,
            crate::escape::one_line(&d.message)
        ));
    }
    out
}
