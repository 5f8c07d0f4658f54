//! "Did you mean": the known name closest to a misspelt one, by edit distance
//! after folding case and `-` to `_` (`unbounded-queue`, `unbounded_queu` ->
//! `unbounded_queue`).

/// The closest of `known` to `name`, if it is close enough to be a typo.
pub fn closest<'k>(name: &str, known: impl IntoIterator<Item = &'k str>) -> Option<&'k str> {
    let folded = fold(name);
    known
        .into_iter()
        .map(|k| (distance(&folded, k), k))
        .filter(|&(d, k)| d <= (k.chars().count() / 3).max(2))
        .min()
        .map(|(_, k)| k)
}

/// `; did you mean `x`?` or nothing.
pub fn hint<'k>(name: &str, known: impl IntoIterator<Item = &'k str>) -> String {
    closest(name, known)
        .map(|k| format!("; did you mean `{k}`?"))
        .unwrap_or_default()
}

fn fold(name: &str) -> String {
    name.trim().to_lowercase().replace('-', "_")
}

/// Levenshtein distance in Unicode scalar values.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: [&str; 3] = [
        "unbounded_queue",
        "unbounded_join",
        "caller_runs_under_join",
    ];

    #[test]
    fn typos_and_separators() {
        assert_eq!(closest("unbounded_queu", KNOWN), Some("unbounded_queue"));
        assert_eq!(closest("unbounded-queue", KNOWN), Some("unbounded_queue"));
        assert_eq!(closest("Unbounded-Join", KNOWN), Some("unbounded_join"));
        assert_eq!(closest("bogus_rule", KNOWN), None);
        assert_eq!(hint("all", KNOWN), "");
    }
}
