//! A finding: rule, level, primary span, labels, help, fingerprint.

use crate::facts::{CtxId, Heat, Item};
use crate::source::{FileId, SourceFile, Span};

/// How seriously a finding is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Off,
    /// Findings in cold code, reported only with `--pedantic`; never fail a build.
    Note,
    Warning,
    Error,
}

impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        match s {
            "error" => Some(Level::Error),
            "warning" => Some(Level::Warning),
            "off" => Some(Level::Off),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
            Level::Off => "off",
        }
    }
}

/// Where the code of a finding runs, and how hot code is reached (entry first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecContext {
    pub heat: Heat,
    pub via: Vec<ViaStep>,
}

/// One step of the path from an entry point to the finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViaStep {
    pub file: FileId,
    pub span: Span,
    /// "`@PostMapping` Spring MVC handler `RefundController.refund`", "calls `Ledger.post`".
    pub what: String,
}

/// A secondary location that explains a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub file: FileId,
    pub span: Span,
    pub message: String,
}

/// One finding of one rule.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    pub rule: &'static str,
    pub level: Level,
    pub file: FileId,
    pub span: Span,
    pub message: String,
    pub labels: Vec<Label>,
    pub help: String,
    /// Filled in by [`assign_fingerprints`].
    pub fingerprint: String,
    /// The code the finding is about (a wait's or submission's context): its heat
    /// sets the level (revision 2). `None`: the rule's level applies as is.
    pub site: Option<(FileId, CtxId)>,
    /// Filled in from `site` by the engine.
    pub context: Option<ExecContext>,
    /// The hazard does not depend on where the code runs (a pool that deadlocks on
    /// itself hangs startup as surely as a request): the context is reported, but
    /// does not lower or drop the finding.
    pub any_context: bool,
    /// Hot code that only a lazy initialization reaches (`Heats::first_use`) runs once:
    /// for this finding it is as good as unknown (a wait there), not hot.
    pub once_is_unknown: bool,
    /// Where the finding is worth a reviewer's time (most: wherever its context puts it).
    pub worth: Worth,
}

/// Where a finding is worth a reviewer's time, beyond what its context decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Worth {
    /// As its context decides (hot: the rule's level; unknown: a warning at most).
    #[default]
    AsContext,
    /// Only in hot code (a `block_in_place` around local synchronous work): in unknown
    /// code it is a note with `--pedantic`.
    HotOnly,
    /// Nowhere measured (a `block_in_place` around an embedded database's query): a note
    /// with `--pedantic`, whatever the context.
    PedanticOnly,
}

impl Diagnostic {
    pub fn new(rule: &'static str, file: FileId, span: Span, message: String) -> Diagnostic {
        Diagnostic {
            rule,
            level: Level::Error,
            file,
            span,
            message,
            labels: Vec::new(),
            help: String::new(),
            fingerprint: String::new(),
            site: None,
            context: None,
            any_context: false,
            once_is_unknown: false,
            worth: Worth::AsContext,
        }
    }

    /// The code whose execution context decides this finding's level.
    pub fn at(mut self, file: FileId, ctx: CtxId) -> Diagnostic {
        self.site = Some((file, ctx));
        self
    }

    /// See [`Diagnostic::once_is_unknown`].
    pub fn once_unknown(mut self) -> Diagnostic {
        self.once_is_unknown = true;
        self
    }

    /// See [`Diagnostic::any_context`].
    pub fn in_any_context(mut self) -> Diagnostic {
        self.any_context = true;
        self
    }

    pub fn label(mut self, file: FileId, span: Span, message: impl Into<String>) -> Diagnostic {
        self.add_label(file, span, message);
        self
    }

    /// [`Diagnostic::label`] on a finding already built.
    pub fn add_label(&mut self, file: FileId, span: Span, message: impl Into<String>) {
        self.labels.push(Label {
            file,
            span,
            message: message.into(),
        });
    }

    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = help.into();
        self
    }
}

/// Sort diagnostics by path, line, column, rule (byte offset order equals line/column order).
pub fn sort(diags: &mut [Diagnostic], files: &[SourceFile]) {
    diags.sort_by(|a, b| {
        (
            &files[a.file].display,
            a.span.start,
            a.rule,
            a.span.end,
            &a.message,
        )
            .cmp(&(
                &files[b.file].display,
                b.span.start,
                b.rule,
                b.span.end,
                &b.message,
            ))
    });
}

/// Give each (sorted) diagnostic a fingerprint that survives lines added above:
/// a hash of the rule, the path, the normalized text of the primary span, the
/// enclosing item's name, and the rank among otherwise identical findings.
pub fn assign_fingerprints<'i>(
    diags: &mut [Diagnostic],
    files: &[SourceFile],
    items: &dyn Fn(FileId) -> &'i [Item],
) {
    let mut seen: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
    for d in diags.iter_mut() {
        let file = &files[d.file];
        let text: String = file
            .slice(d.span)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let item = enclosing_item(items(d.file), d.span).unwrap_or("");
        let key = format!("{}\u{0}{}\u{0}{}\u{0}{}", d.rule, file.display, item, text);
        let base = xxhash_rust::xxh3::xxh3_64(key.as_bytes());
        let rank = seen.entry(base).or_insert(0);
        let hash = xxhash_rust::xxh3::xxh3_64(format!("{base:016x}/{rank}").as_bytes());
        *rank += 1;
        d.fingerprint = format!("{hash:016x}");
    }
}

fn enclosing_item(items: &[Item], span: Span) -> Option<&str> {
    items
        .iter()
        .filter(|i| i.span.contains(span))
        .min_by_key(|i| i.span.end - i.span.start)
        .map(|i| &*i.name)
}
