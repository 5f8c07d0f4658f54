//! Judging a network client's configuration against its catalog entry
//! (`missing_client_timeout`), shared by the front ends: they collect the calls
//! made on the client, its builder and the variable that holds it; this decides.

use crate::catalog::ClientEntry;

/// A call observed on a client, its builder, or the variable holding it.
pub struct Observed<A> {
    pub method: String,
    /// The first argument, for `m=id` needs (a nested configuration object).
    pub first_arg: Option<A>,
    /// The first argument as written, for `forbid` (`timeout(None)`).
    pub first_arg_text: String,
}

/// What the observed calls leave out of the entry's needs, or `None` when the
/// client is bounded. `nested(id, arg)` judges an argument that must itself be a
/// configured `id`: `None` when it is (or cannot be seen), else what it lacks.
pub fn missing<A>(
    entry: &ClientEntry,
    calls: &[Observed<A>],
    nested: &mut dyn FnMut(&str, &A) -> Option<String>,
) -> Option<String> {
    if entry.fixed {
        return Some(entry.missing.clone());
    }
    let forbidden = calls.iter().any(|c| {
        let written = format!("{}({})", c.method, c.first_arg_text.replace(' ', ""));
        entry.forbid.iter().any(|f| f.replace(' ', "") == written)
    });
    if forbidden {
        return Some(entry.missing.clone());
    }
    let mut unmet = Vec::new();
    let mut partial = false;
    for need in &entry.needs {
        let mut lacking = None;
        let met = need.split('|').any(|alt| {
            // `put("mail.smtp.timeout")`: that key set; `put(*)`: a key not written as
            // a literal (nor one of the entry's `standard_keys`), which may be it.
            if let Some((method, key)) =
                alt.trim().strip_suffix(')').and_then(|a| a.split_once('('))
            {
                return calls
                    .iter()
                    .filter(|c| c.method == method)
                    .any(|c| keyed(entry, key, c.first_arg_text.trim()));
            }
            let (method, id) = match alt.split_once('=') {
                Some((m, id)) => (m.trim(), Some(id.trim())),
                None => (alt.trim(), None),
            };
            calls
                .iter()
                .filter(|c| c.method == method)
                .any(|c| match (id, &c.first_arg) {
                    (Some(id), Some(arg)) => match nested(id, arg) {
                        None => true,
                        Some(what) => {
                            lacking = Some(what);
                            false
                        }
                    },
                    _ => true,
                })
        });
        if met {
            partial = true;
        } else {
            partial |= lacking.is_some();
            let what = lacking.unwrap_or_else(|| describe(need));
            // Two needs one nested setting fails say the same thing once.
            if !unmet.contains(&what) {
                unmet.push(what);
            }
        }
    }
    match (unmet.is_empty(), partial) {
        (true, _) => None,
        (false, false) => Some(entry.missing.clone()),
        (false, true) => Some(join_lacks(&unmet)),
    }
}

/// Whether a call's first argument, as written, sets `key` (`"mail.smtp.timeout"`)
/// or, for `*`, may: it is no string literal and no standard key of the entry.
fn keyed(entry: &ClientEntry, key: &str, written: &str) -> bool {
    if key == "*" {
        // One string literal (`"mail." + protocol + ".timeout"` is none).
        let literal = written.len() >= 2
            && written.starts_with('"')
            && written.ends_with('"')
            && !written[1..written.len() - 1].contains('"');
        let standard = entry
            .standard_keys
            .iter()
            .any(|k| written.starts_with(k.as_str()));
        return !written.is_empty() && !literal && !standard;
    }
    written == key
}

/// "a connect timeout on its `RequestConfig`" and "a socket timeout on its
/// `RequestConfig`" -> "a connect timeout and a socket timeout on its `RequestConfig`".
fn join_lacks(unmet: &[String]) -> String {
    let parts: Vec<Option<(&str, &str)>> = unmet
        .iter()
        .map(|u| u.find(" on its ").map(|i| u.split_at(i)))
        .collect();
    let shared = parts.first().copied().flatten().map(|(_, on)| on);
    match shared {
        Some(on) if unmet.len() > 1 && parts.iter().all(|p| p.is_some_and(|(_, o)| o == on)) => {
            let heads: Vec<&str> = parts.iter().flatten().map(|(h, _)| *h).collect();
            format!("{}{on}", heads.join(" and "))
        }
        _ => unmet.join(" and "),
    }
}

/// A need as the user would write it: `setReadTimeout|readTimeout` ->
/// "`setReadTimeout(..)` (or `readTimeout(..)`)".
pub fn describe(need: &str) -> String {
    // (Not a setting of another value it is handed to: `spring-request-factory.setReadTimeout`.)
    let mut alts = need
        .split('|')
        .filter(|a| !a.ends_with("(*)"))
        .filter(|a| a.contains('(') || !a.split('=').next().unwrap_or(a).contains('.'))
        .map(|a| a.split('=').next().unwrap_or(a).trim());
    let first = alts.next().unwrap_or("");
    // A key (`setProperty("mail.smtp.timeout")`): the first way to set it says it.
    if first.ends_with(')') {
        return format!("`{first}`");
    }
    let rest: Vec<String> = alts.map(|a| format!("`{a}(..)`")).collect();
    if rest.is_empty() {
        format!("`{first}(..)`")
    } else {
        format!("`{first}(..)` (or {})", rest.join(", "))
    }
}

/// The message of a finding: "`<call>` creates <name> without <missing>: <default>".
pub fn message(what: &str, entry: &ClientEntry, missing: &str) -> String {
    let default = match &entry.default_one {
        Some(one) if missing != entry.missing => one,
        _ => &entry.default,
    };
    format!("{what} creates {} without {missing}: {default}", entry.name)
}
