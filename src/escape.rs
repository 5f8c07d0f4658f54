//! How file names are shown: names are bytes on Unix, output is UTF-8 text.
//! Invalid UTF-8 bytes are written `\xNN` (two names never print the same), and
//! line-oriented formats escape line breaks so one finding stays one line.

use std::ffi::OsStr;

/// A file name (or path component) as text: valid UTF-8 unchanged, each invalid
/// byte as `\xNN`.
pub fn os_str(s: &OsStr) -> String {
    if let Some(t) = s.to_str() {
        return t.to_string();
    }
    escape_bytes(s.as_encoded_bytes())
}

fn escape_bytes(mut b: &[u8]) -> String {
    let mut out = String::new();
    while !b.is_empty() {
        match std::str::from_utf8(b) {
            Ok(t) => {
                out.push_str(t);
                break;
            }
            Err(e) => {
                let (good, rest) = b.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                let bad = e.error_len().unwrap_or(rest.len());
                for byte in &rest[..bad] {
                    out.push_str(&format!("\\x{byte:02x}"));
                }
                b = &rest[bad..];
            }
        }
    }
    out
}

/// Text for a line-oriented format: CR, LF and other control characters as
/// `\r`, `\n`, `\u{..}`, so a name or message never splits its line.
pub fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(
        s.chars()
            .map(|c| match c {
                '\n' => "\\n".to_string(),
                '\r' => "\\r".to_string(),
                '\t' => "\\t".to_string(),
                c if c.is_control() => c.escape_unicode().to_string(),
                c => c.to_string(),
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_bytes_stay_distinct() {
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            assert_eq!(os_str(OsStr::from_bytes(b"a\xff.java")), "a\\xff.java");
            assert_eq!(os_str(OsStr::from_bytes(b"a\xfe.java")), "a\\xfe.java");
            assert_eq!(os_str(OsStr::from_bytes(b"\xc3\xa9\xc3")), "é\\xc3");
        }
        assert_eq!(os_str(OsStr::new("é.rs")), "é.rs");
        assert_eq!(one_line("a\nb\tc.rs"), "a\\nb\\tc.rs");
    }
}
