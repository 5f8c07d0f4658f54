//! Suppressions: `// poolguard: allow(rule) reason` (line above or same line),
//! `// poolguard: allow-file(rule)`, and Java `@SuppressWarnings("poolguard:rule")`
//! (recorded by the Java front end as a range).
//!
//! Every id an allow names must be a rule: unknown ids and the catch-all forms
//! (`allow()`, `allow(all)`, `@SuppressWarnings("poolguard")`) suppress nothing
//! and are reported as `invalid_allow`.

use crate::diagnostic::Diagnostic;
use crate::facts::{Suppression, SuppressionScope};
use crate::rules::Level;
use crate::source::FileId;
use crate::source::{SourceFile, Span};

/// Allow comments written in a file.
pub fn comments(file: &SourceFile) -> Vec<Suppression> {
    let mut out = Vec::new();
    let mut pending: Vec<Suppression> = Vec::new();
    for i in 0..file.line_count() {
        let start = file.line_start(i).unwrap_or(0);
        let line_no = i + 1;
        let line = file.line_text(line_no);
        let Some(slash) = line.find("//") else {
            // A code line: comments waiting for "the line below" apply here.
            if !line.trim().is_empty() {
                for mut p in pending.drain(..) {
                    p.scope = SuppressionScope::Line(line_no);
                    out.push(p);
                }
            }
            continue;
        };
        let own_line = line[..slash].trim().is_empty();
        if !own_line {
            for mut p in pending.drain(..) {
                p.scope = SuppressionScope::Line(line_no);
                out.push(p);
            }
        }
        let comment = &line[slash + 2..];
        let Some(at) = comment.find("poolguard:") else {
            continue;
        };
        let directive = comment[at + "poolguard:".len()..].trim_start();
        let offset = start + slash;
        let span = Span::new(offset, start + line.len());
        let (file_wide, rest) = if let Some(r) = directive.strip_prefix("allow-file(") {
            (true, r)
        } else if let Some(r) = directive.strip_prefix("allow(") {
            (false, r)
        } else {
            // `alow(..)`, `allow_file(..)`: a misspelt directive, which suppresses nothing.
            if let Some(word) = misspelt_directive(directive) {
                out.push(Suppression {
                    rules: vec![format!("{MALFORMED}{word}")],
                    scope: SuppressionScope::Line(line_no),
                    span,
                });
            }
            continue;
        };
        let Some(close) = rest.find(')') else {
            out.push(Suppression {
                rules: vec![format!("{MALFORMED}(")],
                scope: SuppressionScope::Line(line_no),
                span,
            });
            continue;
        };
        let rules = rest[..close]
            .split(',')
            .map(|r| r.trim().to_string())
            .filter(|r| !r.is_empty())
            .collect();
        let s = Suppression {
            rules,
            scope: SuppressionScope::Line(line_no),
            span,
        };
        if file_wide {
            out.push(Suppression {
                scope: SuppressionScope::File,
                ..s
            });
        } else if own_line {
            pending.push(s);
        } else {
            out.push(s);
        }
    }
    out
}

/// Marks a directive that is not `allow(..)`/`allow-file(..)` as written (a rule id
/// can never start with it): followed by the misspelt word, or by `(` when the
/// parenthesis is not closed.
const MALFORMED: &str = "\u{0}directive:";

/// The word of `word(..)` when it is close to `allow` or `allow-file`.
fn misspelt_directive(directive: &str) -> Option<&str> {
    let open = directive.find('(')?;
    let word = directive[..open].trim_end();
    let is_word = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    (is_word && crate::suggest::closest(word, ["allow", "allow-file"]).is_some()).then_some(word)
}

/// Whether a suppression covers a diagnostic in the same file.
pub fn covers(s: &Suppression, d: &Diagnostic, file: &SourceFile) -> bool {
    if !s.rules.iter().any(|r| r == d.rule) {
        return false;
    }
    match &s.scope {
        SuppressionScope::File => true,
        SuppressionScope::Range(r) => r.contains(d.span),
        SuppressionScope::Line(line) => {
            let first = file.line_number(d.span.start);
            let last = file.line_number(d.span.end.saturating_sub(1).max(d.span.start));
            (first..=last).contains(line)
        }
    }
}

/// The meta-rule that `--report-unused-allows` reports under.
pub const UNUSED_ALLOW: &str = "unused_allow";
/// The meta-rule for allows naming unknown rules, or none.
pub const INVALID_ALLOW: &str = "invalid_allow";

/// Whether an allow names something other than poolguard rules (or nothing).
pub fn is_invalid(s: &Suppression) -> bool {
    s.rules.is_empty() || s.rules.iter().any(|r| crate::rules::find(r).is_none())
}

/// `invalid_allow` findings for one allow: one per unknown rule id, or one for
/// a catch-all form that names no rule.
pub fn invalid(s: &Suppression, file: FileId) -> Vec<Diagnostic> {
    let finding = |message: String, help: String| {
        let mut d = Diagnostic::new(INVALID_ALLOW, file, s.span, message).help(help);
        d.level = Level::Warning;
        d
    };
    if s.rules.is_empty() {
        return vec![finding(
            "this allow names no rule, so it suppresses nothing".into(),
            "name the rules it accepts, e.g. `allow(unbounded_queue)`; catch-all allows are not supported".into(),
        )];
    }
    if let Some(word) = s.rules.first().and_then(|r| r.strip_prefix(MALFORMED)) {
        return vec![if word == "(" {
            finding(
                "this allow has no closing `)`, so it suppresses nothing".into(),
                "write `allow(rule_id)` or `allow(rule_a, rule_b)`".into(),
            )
        } else {
            let near = crate::suggest::closest(word, ["allow", "allow-file"]).unwrap_or("allow");
            finding(
                format!("`{word}(..)` is not a poolguard directive; did you mean `{near}(..)`?"),
                format!("write `// poolguard: {near}(rule_id)`"),
            )
        }];
    }
    s.rules
        .iter()
        .filter(|r| crate::rules::find(r).is_none())
        .map(|r| {
            let code_rules =
                crate::rules::ids().filter(|id| !crate::rules::META_RULES.contains(id));
            match crate::suggest::closest(r, code_rules) {
                Some(near) => finding(
                    format!("`{r}` is not a poolguard rule; did you mean `{near}`?"),
                    format!("write `{near}`: an allow suppresses only the rules it names exactly"),
                ),
                None if r.eq_ignore_ascii_case("all") => finding(
                    "`all` is not a poolguard rule: catch-all allows suppress nothing".into(),
                    "name the rules it accepts, e.g. `allow(unbounded_queue)`".into(),
                ),
                None => finding(
                    format!("`{r}` is not a poolguard rule, so this allow suppresses nothing"),
                    format!(
                        "name one of: {}",
                        crate::rules::ids()
                            .filter(|id| !crate::rules::META_RULES.contains(id))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ),
            }
        })
        .collect()
}

/// A finding for an allow that suppressed nothing.
pub fn unused(s: &Suppression, file: FileId, source: &SourceFile) -> Diagnostic {
    let written = source.slice(s.span).trim().to_string();
    let mut d = Diagnostic::new(
        UNUSED_ALLOW,
        file,
        s.span,
        format!("`{written}` suppresses nothing"),
    )
    .help("remove it (the finding it was for is gone), or correct its rule id");
    d.level = Level::Warning;
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Language;

    #[test]
    fn line_above_same_line_and_file() {
        let text = "// poolguard: allow-file(unbounded_join)\n\
                    // poolguard: allow(unbounded_queue) reason\n\
                    // another comment\n\
                    let a = 1;\n\
                    let b = 2; // poolguard: allow(nested_pool_submission, unbounded_join)\n";
        let f = SourceFile::new("a.rs".into(), "a.rs".into(), Language::Rust, text.into());
        let s = comments(&f);
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].scope, SuppressionScope::File);
        assert_eq!(s[1].scope, SuppressionScope::Line(4));
        assert_eq!(s[2].scope, SuppressionScope::Line(5));
        assert_eq!(s[2].rules.len(), 2);
    }

    #[test]
    fn misspelt_and_unclosed_directives_are_invalid() {
        let text = "// poolguard: alow(unbounded_queue)\n\
                    let a = 1; // poolguard: allow_file(unbounded_queue)\n\
                    let b = 2; // poolguard: allow(unbounded_queue\n\
                    // poolguard: ignore(x) is prose, and so is poolguard: see the docs\n";
        let f = SourceFile::new("a.rs".into(), "a.rs".into(), Language::Rust, text.into());
        let s = comments(&f);
        assert_eq!(s.len(), 3, "{s:?}");
        let messages: Vec<String> = s
            .iter()
            .inspect(|x| assert!(is_invalid(x)))
            .flat_map(|x| invalid(x, 0))
            .map(|d| d.message)
            .collect();
        assert_eq!(
            messages,
            [
                "`alow(..)` is not a poolguard directive; did you mean `allow(..)`?",
                "`allow_file(..)` is not a poolguard directive; did you mean `allow-file(..)`?",
                "this allow has no closing `)`, so it suppresses nothing",
            ]
        );
    }
}
