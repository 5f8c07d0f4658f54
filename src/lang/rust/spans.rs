//! Cheap spans of syn nodes. `Spanned::span()` prints a node back to tokens to
//! find its ends, which costs as much as the node is large; these walk to the
//! first and last token instead.

use std::cell::RefCell;

use proc_macro2::Span as PmSpan;
use rustc_hash::FxHashMap;
use syn::spanned::Spanned;
use syn::Expr;

use crate::source::Span;

/// Byte offsets of a span. `Span::byte_range` maps proc-macro2's character
/// offsets to bytes through an ordered map per file; line and column, resolved by
/// a binary search, give the same offsets directly on ASCII lines.
fn bytes(s: PmSpan) -> std::ops::Range<usize> {
    LINES.with(|l| {
        let l = l.borrow();
        match (l.offset(s.start()), l.offset(s.end())) {
            (Some(a), Some(b)) => a..b,
            _ => s.byte_range(),
        }
    })
}

/// Where each line of the file being analysed starts, and whether it is ASCII.
#[derive(Default)]
struct Lines {
    starts: Vec<(usize, bool)>,
}

impl Lines {
    fn offset(&self, at: proc_macro2::LineColumn) -> Option<usize> {
        let &(start, ascii) = self.starts.get(at.line.checked_sub(1)?)?;
        ascii.then_some(start + at.column)
    }
}

/// Index the lines of the file about to be parsed (call before `syn::parse_file`).
pub fn set_text(text: &str) {
    LINES.with(|l| {
        let mut l = l.borrow_mut();
        l.starts.clear();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            l.starts.push((start, line.is_ascii()));
            start += line.len();
        }
        if text.is_empty() || text.ends_with('\n') {
            l.starts.push((start, true));
        }
    });
}

thread_local! {
    static LINES: RefCell<Lines> = RefCell::new(Lines::default());
    /// `first` of chain nodes by address: a chain of n calls asks for the first
    /// token of each link, which would otherwise cost n² steps.
    static FIRST: RefCell<FxHashMap<usize, PmSpan>> = RefCell::new(FxHashMap::default());
    /// How deep in syntax trees parsed from a macro's tokens the walk is: they are
    /// dropped once walked, and a later one may be allocated at the same addresses, so
    /// their first tokens are not cached.
    static TEMPORARY: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Run `f` over a syntax tree parsed from a macro's tokens (freed afterwards): the
/// first tokens it asks for are not cached by address.
pub fn in_temporary_tree<R>(f: impl FnOnce() -> R) -> R {
    TEMPORARY.with(|t| t.set(t.get() + 1));
    let out = f();
    TEMPORARY.with(|t| t.set(t.get() - 1));
    out
}

/// Forget the cached first tokens (the AST they point into is gone).
pub fn reset() {
    FIRST.with(|c| c.borrow_mut().clear());
    LINES.with(|l| l.borrow_mut().starts.clear());
}

/// The first token of an expression.
pub fn first(e: &Expr) -> PmSpan {
    let inner = match e {
        Expr::MethodCall(m) => &*m.receiver,
        Expr::Call(c) => &*c.func,
        Expr::Field(f) => &*f.base,
        Expr::Await(a) => &*a.base,
        Expr::Try(t) => &*t.expr,
        Expr::Index(i) => &*i.expr,
        Expr::Cast(c) => &*c.expr,
        Expr::Binary(b) => &*b.left,
        Expr::Range(r) => match &r.start {
            Some(s) => &**s,
            None => return r.limits.span(),
        },
        _ => return first_leaf(e),
    };
    let key = e as *const Expr as usize;
    if let Some(s) = FIRST.with(|c| c.borrow().get(&key).copied()) {
        return s;
    }
    let s = first(inner);
    if TEMPORARY.with(|t| t.get()) == 0 {
        FIRST.with(|c| c.borrow_mut().insert(key, s));
    }
    s
}

fn first_leaf(e: &Expr) -> PmSpan {
    match e {
        Expr::Paren(p) => p.paren_token.span.open(),
        Expr::Reference(r) => r.and_token.span,
        Expr::Path(p) => match (&p.qself, &p.path.leading_colon) {
            (Some(q), _) => q.lt_token.span,
            (None, Some(c)) => c.spans[0],
            (None, None) => p
                .path
                .segments
                .first()
                .map_or_else(|| e.span(), |s| s.ident.span()),
        },
        Expr::Lit(l) => l.lit.span(),
        Expr::Block(b) if b.attrs.is_empty() && b.label.is_none() => {
            b.block.brace_token.span.open()
        }
        Expr::Async(a) if a.attrs.is_empty() => a.async_token.span,
        _ => e.span(),
    }
}

/// The last token of an expression.
pub fn last(e: &Expr) -> PmSpan {
    match e {
        Expr::MethodCall(m) => m.paren_token.span.close(),
        Expr::Call(c) => c.paren_token.span.close(),
        Expr::Await(a) => a.await_token.span,
        Expr::Try(t) => t.question_token.span,
        Expr::Field(f) => match &f.member {
            syn::Member::Named(i) => i.span(),
            syn::Member::Unnamed(i) => i.span,
        },
        Expr::Paren(p) => p.paren_token.span.close(),
        Expr::Index(i) => i.bracket_token.span.close(),
        Expr::Reference(r) => last(&r.expr),
        Expr::Unary(u) => last(&u.expr),
        Expr::Binary(b) => last(&b.right),
        Expr::Cast(c) => c.ty.span(),
        Expr::Path(p)
            if p.path
                .segments
                .last()
                .is_some_and(|s| s.arguments.is_none()) =>
        {
            p.path
                .segments
                .last()
                .map_or_else(|| e.span(), |s| s.ident.span())
        }
        Expr::Lit(l) => l.lit.span(),
        Expr::Block(b) => b.block.brace_token.span.close(),
        Expr::Async(a) => a.block.brace_token.span.close(),
        Expr::Closure(c) => last(&c.body),
        _ => e.span(),
    }
}

/// The byte span of an expression.
pub fn expr(e: &Expr) -> Span {
    Span::new(bytes(first(e)).start, bytes(last(e)).end)
}

/// Whether an expression ends on the line it starts on.
pub fn one_line(e: &Expr) -> bool {
    first(e).start().line == last(e).end().line
}

/// The byte span of a block, braces included.
pub fn block(b: &syn::Block) -> Span {
    let r = bytes(b.brace_token.span.join());
    Span::new(r.start, r.end)
}

/// The byte span of a function call.
pub fn call(c: &syn::ExprCall) -> Span {
    Span::new(
        bytes(first(&c.func)).start,
        bytes(c.paren_token.span.close()).end,
    )
}

/// The byte span of a method call.
pub fn method_call(m: &syn::ExprMethodCall) -> Span {
    Span::new(
        bytes(first(&m.receiver)).start,
        bytes(m.paren_token.span.close()).end,
    )
}

/// A `proc_macro2` span as a byte range of the file.
pub fn span(s: PmSpan) -> Span {
    let r = s.byte_range();
    Span::new(r.start, r.end)
}

/// The 1-based line a span starts on.
pub fn line(s: PmSpan) -> usize {
    s.start().line
}
