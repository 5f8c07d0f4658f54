//! Budgets checked before parsing: a cheap byte scan that refuses files whose
//! nesting or chaining would make the parsers and the extractors recurse or
//! loop without bound (40,000 nested `class A {`, 85,000 nested generics, a
//! method chain of 10,000 calls). Real code stays far below the limits.
//!
//! The scan skips comments, strings and character literals, so brackets there
//! do not count. It is approximate on purpose: it only has to be right about
//! code a parser would also see as deeply nested.

use crate::source::Language;

/// Deepest nesting of `(`, `[`, `{` accepted.
pub const MAX_NESTING: usize = 1_000;
/// Deepest nesting of `<` in one statement accepted (generic arguments).
pub const MAX_GENERICS: usize = 1_000;
/// Most `.`, `->` and binary operators in one expression accepted (method
/// chains, curried lambdas, `1 + 1 + ..`).
pub const MAX_CHAIN: usize = 1_000;
/// The extractors' cost of chains grows with the square of their length: the
/// sum over every `.`/`->` of its position in its chain is bounded too.
pub const MAX_CHAIN_WORK: usize = 3_000_000;
/// Parsers and extractors spend per bracket in proportion to its depth: the sum
/// of the depths of every bracket is bounded too (many deep nests in one file).
pub const MAX_NESTING_WORK: usize = 20_000_000;

/// Why a file is over budget, as the tail of a `skipped: ..` message.
pub fn check(text: &str, language: Language) -> Option<String> {
    let b = text.as_bytes();
    let rust = language == Language::Rust;
    let mut depth = 0usize;
    // Per open bracket level: chained `.`/`->` and open `<` since the level's
    // last `;` or `,` (chains) or `;` (generics).
    let mut chain = vec![0usize];
    let mut angle = vec![0usize];
    let mut work = 0usize;
    let mut work_nesting = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        // Letters, digits and spaces change no counter: skip them without the
        // limit checks below (they pass again at the next byte that counts).
        if !(SPECIAL[c as usize] || rust && c == b'r') {
            i += 1;
            continue;
        }
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = memchr(b, i, b'\n');
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = skip_block_comment(b, i, rust);
                continue;
            }
            b'"' => {
                i = skip_quoted(b, i, b'"');
                continue;
            }
            b'r' if rust && is_raw_string(b, i) => {
                i = skip_raw_string(b, i);
                continue;
            }
            b'\'' => {
                // Java: always a char literal. Rust: a char literal, or a lifetime.
                let literal = !rust || b.get(i + 1) == Some(&b'\\') || char_then_quote(b, i + 1);
                if literal {
                    i = skip_quoted(b, i, b'\'');
                    continue;
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                work_nesting += depth;
                if depth > MAX_NESTING {
                    return Some(format!(
                        "nesting deeper than {MAX_NESTING} levels (brackets and braces)"
                    ));
                }
                chain.push(0);
                angle.push(0);
            }
            b')' | b']' | b'}' => {
                if depth > 0 {
                    depth -= 1;
                    chain.pop();
                    angle.pop();
                }
                // After a block a new statement starts (`if a < b { .. } if ..`).
                if c == b'}' {
                    chain[depth] = 0;
                    angle[depth] = 0;
                }
            }
            b';' => {
                chain[depth] = 0;
                angle[depth] = 0;
            }
            b',' => chain[depth] = 0,
            b'.' => {
                let digit = |j: Option<&u8>| j.is_some_and(u8::is_ascii_digit);
                let before = i.checked_sub(1).and_then(|j| b.get(j));
                let range = b.get(i + 1) == Some(&b'.') || before == Some(&b'.');
                let number = digit(b.get(i + 1)) || digit(before);
                if !range && !number {
                    chain[depth] += 1;
                    work += chain[depth];
                }
            }
            b'-' if b.get(i + 1) == Some(&b'>') => {
                chain[depth] += 1;
                work += chain[depth];
                i += 2;
                continue;
            }
            b'=' if b.get(i + 1) == Some(&b'>') => {
                i += 2;
                continue;
            }
            // Binary operators nest like a chain (`1 + 1 + 1 ..` is a deep tree).
            b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' => {
                chain[depth] += 1;
                work += chain[depth];
                // `&&`, `||`, `+=`: one operator.
                if matches!(b.get(i + 1), Some(b'&' | b'|' | b'=' | b'+' | b'-')) {
                    i += 1;
                }
            }
            b'<' => {
                angle[depth] += 1;
                work_nesting += angle[depth];
            }
            b'>' => angle[depth] = angle[depth].saturating_sub(1),
            _ => {}
        }
        if chain[depth] > MAX_CHAIN {
            return Some(format!(
                "a chain of more than {MAX_CHAIN} calls, lambdas or operators in one expression"
            ));
        }
        if work_nesting > MAX_NESTING_WORK {
            return Some(format!(
                "too much deep nesting in total (over {MAX_NESTING_WORK} steps to analyse)"
            ));
        }
        if work > MAX_CHAIN_WORK {
            return Some(format!(
                "chained calls and lambdas too long in total (over {MAX_CHAIN_WORK} steps to analyse)"
            ));
        }
        if angle[depth] > MAX_GENERICS {
            return Some(format!(
                "generic arguments nested deeper than {MAX_GENERICS} levels"
            ));
        }
        i += 1;
    }
    None
}

/// The bytes the scan acts on (`r` only in Rust, where it may start a raw string).
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let bytes = b"/\"'([{)]};,.-=+*%&|^<>";
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
};

fn memchr(b: &[u8], from: usize, needle: u8) -> usize {
    b[from..]
        .iter()
        .position(|&c| c == needle)
        .map_or(b.len(), |p| from + p)
}

/// Past a `/* .. */` comment (nested in Rust).
fn skip_block_comment(b: &[u8], mut i: usize, nests: bool) -> usize {
    let mut level = 0usize;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            if level == 0 || nests {
                level += 1;
            }
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            level -= 1;
            i += 2;
            if level == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// Past a quoted literal starting at `i` (backslash escapes).
fn skip_quoted(b: &[u8], mut i: usize, quote: u8) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// `'x'`: one (possibly multi-byte) character, then a quote.
fn char_then_quote(b: &[u8], i: usize) -> bool {
    let Some(&first) = b.get(i) else {
        return false;
    };
    let len = match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    b.get(i + len) == Some(&b'\'')
}

/// `r"`, `r#"`, `br"`: a raw string (not an identifier ending in `r`).
fn is_raw_string(b: &[u8], i: usize) -> bool {
    let ident_before = i > 0 && {
        let p = b[i - 1];
        (p.is_ascii_alphanumeric() || p == b'_') && !(p == b'b' && (i < 2 || !is_ident(b[i - 2])))
    };
    if ident_before {
        return false;
    }
    let mut j = i + 1;
    while b.get(j) == Some(&b'#') {
        j += 1;
    }
    b.get(j) == Some(&b'"')
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn skip_raw_string(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    let mut hashes = 0;
    while b.get(j) == Some(&b'#') {
        hashes += 1;
        j += 1;
    }
    j += 1;
    while j < b.len() {
        if b[j] == b'"'
            && b[j + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == b'#')
                .count()
                == hashes
        {
            return j + 1 + hashes;
        }
        j += 1;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_code_is_within_budget() {
        let java = "class A { void m() { int[] x = {1, 2}; s.a().b(); String t = \"(((\"; char c = '{'; } /* {{{ */ }";
        assert_eq!(check(java, Language::Java), None);
        let rust = "fn f<'a>(x: &'a str) -> Vec<Option<u8>> { let s = r#\"{{{\"#; let c = '{'; a.b().c(); }";
        assert_eq!(check(rust, Language::Rust), None);
        let table: String = format!("static T: [f64; 5000] = [{}];", "1.5, ".repeat(5000));
        assert_eq!(check(&table, Language::Rust), None);
        let arms: String = format!(
            "fn f() {{ match x {{ {} }} }}",
            "A => self.a(),\n".repeat(5000)
        );
        assert_eq!(check(&arms, Language::Rust), None);
        let ifs = format!("fn f() {{ {} }}", "if a < b + c {}\n".repeat(3000));
        assert_eq!(check(&ifs, Language::Rust), None);
        let strings = "\"{\"".repeat(5000);
        assert_eq!(check(&strings, Language::Java), None);
    }

    #[test]
    fn pathological_shapes_are_over_budget() {
        assert!(check(&"class A {".repeat(2000), Language::Java).is_some());
        assert!(check(&"mod a {".repeat(2000), Language::Rust).is_some());
        let generics = format!("type T = {}B{};", "A<".repeat(2000), ">".repeat(2000));
        assert!(check(&generics, Language::Rust).is_some());
        let chain = format!("fn f() {{ y{}; }}", ".a(1, 2)".repeat(3000));
        assert!(check(&chain, Language::Rust).is_some());
        let lambdas = format!("class C {{ Runnable r = {}null; }}", "() -> ".repeat(3000));
        assert!(check(&lambdas, Language::Java).is_some());
        let chains = format!(
            "fn f() {{ {} }}",
            format!("y{};\n", ".a()".repeat(900)).repeat(10)
        );
        assert!(check(&chains, Language::Rust).is_some());
        let plus = format!("class C {{ int x = 1{}; }}", " + 1".repeat(3000));
        assert!(check(&plus, Language::Java).is_some());
        let nests = format!("fn f() {}{}\n", "{".repeat(900), "}".repeat(900)).repeat(100);
        assert!(check(&nests, Language::Rust).is_some());
    }
}
