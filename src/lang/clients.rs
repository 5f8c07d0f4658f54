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

/// Whether the observed calls meet the entry's needs and avoid its forbidden calls.
/// `nested(id, arg)` judges an argument that must itself be a configured `id`.
pub fn configured<A>(
    entry: &ClientEntry,
    calls: &[Observed<A>],
    nested: &mut dyn FnMut(&str, &A) -> bool,
) -> bool {
    if entry.fixed {
        return false;
    }
    let forbidden = calls.iter().any(|c| {
        let written = format!("{}({})", c.method, c.first_arg_text.replace(' ', ""));
        entry.forbid.iter().any(|f| f.replace(' ', "") == written)
    });
    if forbidden {
        return false;
    }
    entry.needs.iter().all(|need| {
        need.split('|').any(|alt| {
            let (method, id) = match alt.split_once('=') {
                Some((m, id)) => (m.trim(), Some(id.trim())),
                None => (alt.trim(), None),
            };
            calls.iter().any(|c| {
                c.method == method
                    && match (id, &c.first_arg) {
                        (Some(id), Some(arg)) => nested(id, arg),
                        _ => true,
                    }
            })
        })
    })
}

/// The message of a finding: "`<call>` creates <name> without <missing>: <default>".
pub fn message(what: &str, entry: &ClientEntry) -> String {
    format!(
        "{what} creates {} without {}: {}",
        entry.name, entry.missing, entry.default
    )
}
