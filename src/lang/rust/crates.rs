//! Crates as programs: a crate that is only a binary (`src/main.rs`, no `src/lib.rs`)
//! and declares no request entry point (no route handler, service, listener) is a
//! tool (a CLI, a load generator, a dev server runner): it serves no traffic, so its
//! code is cold, like `src/bin/` (rules.md, revision 2).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::facts::{FileFacts, Heat};
use crate::source::{Language, SourceFile};

/// Mark every file of a tool crate as a binary's.
pub fn mark_tool_crates(files: &[SourceFile], facts: &mut [FileFacts]) {
    let mut roots: HashMap<PathBuf, Option<PathBuf>> = HashMap::new();
    let mut crates: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        if f.language != Language::Rust {
            continue;
        }
        if let Some(root) = f.path.parent().and_then(|d| crate_root(d, &mut roots)) {
            crates.entry(root).or_default().push(i);
        }
    }
    for (root, members) in crates {
        let tool = root.join("src/main.rs").is_file() && !root.join("src/lib.rs").exists();
        // A handler registered by name counts when the crate defines that function
        // (`client.get(url)` names no handler).
        let functions: std::collections::HashSet<&str> = members
            .iter()
            .flat_map(|&i| facts[i].contexts.iter().map(|c| c.name.as_str()))
            .collect();
        let serves = members.iter().any(|&i| {
            facts[i]
                .handlers
                .iter()
                .any(|(h, _)| functions.contains(&*h.method))
                || facts[i]
                    .contexts
                    .iter()
                    .any(|c| c.entry.as_ref().is_some_and(|e| e.heat == Heat::Hot))
        });
        if tool && !serves {
            for i in members {
                facts[i].binary = true;
            }
        }
    }
}

/// The nearest directory at or above `dir` holding a `Cargo.toml` (memoized).
fn crate_root(dir: &Path, roots: &mut HashMap<PathBuf, Option<PathBuf>>) -> Option<PathBuf> {
    if let Some(hit) = roots.get(dir) {
        return hit.clone();
    }
    let found = if dir.join("Cargo.toml").is_file() {
        Some(dir.to_path_buf())
    } else {
        dir.parent().and_then(|p| crate_root(p, roots))
    };
    roots.insert(dir.to_path_buf(), found.clone());
    found
}
