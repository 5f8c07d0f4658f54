//! `.gitignore` and `.ignore` files, read by poolguard itself rather than by the
//! `ignore` crate: a repository controls them, so only regular files of sane size
//! are read (a FIFO would hang the run, a link to `/dev/zero` exhaust memory).
//! Semantics follow the crate's: the deepest match wins, `.ignore` before
//! `.gitignore`, from the walk root's repository root (or the walk root) down.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// Ignore files larger than this are not read (noted in `errors[]`).
pub const MAX_IGNORE_FILE_BYTES: u64 = 1024 * 1024;

/// In order of precedence within one directory.
const NAMES: [&str; 2] = [".ignore", ".gitignore"];

/// The ignore rules of one walk, loaded per directory on first use.
pub struct IgnoreFiles {
    /// Directories above the walk root whose ignore files apply (outermost first).
    above: Vec<PathBuf>,
    root: PathBuf,
    /// Per directory under the walk root: every ignore file that applies to its
    /// entries, deepest directory first (one lookup per entry, not one per ancestor).
    chains: Mutex<HashMap<PathBuf, Chain>>,
    /// Ignore files that were not read, with why.
    pub skipped: Mutex<Vec<(PathBuf, String)>>,
}

/// The ignore files of one directory, in order of precedence.
type Own = Arc<Vec<Gitignore>>;
/// The ignore files that apply in a directory: its own, then its parent's, ...
type Chain = Arc<Vec<Own>>;

impl IgnoreFiles {
    pub fn new(root: &Path) -> IgnoreFiles {
        let mut above = Vec::new();
        let abs = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
        // Parents up to the repository root, as git (and the `ignore` crate) do.
        if !abs.join(".git").exists() {
            let mut dir = abs.parent();
            while let Some(d) = dir {
                above.push(d.to_path_buf());
                if d.join(".git").exists() {
                    break;
                }
                dir = d.parent();
            }
            if !above.last().is_some_and(|d| d.join(".git").exists()) {
                above.clear();
            }
            above.reverse();
        }
        IgnoreFiles {
            above,
            root: root.to_path_buf(),
            chains: Mutex::new(HashMap::new()),
            skipped: Mutex::new(Vec::new()),
        }
    }

    /// Whether `path` (under the walk root) is ignored.
    pub fn ignored(&self, path: &Path, is_dir: bool) -> bool {
        let Some(dir) = path.parent() else {
            return false;
        };
        for own in self.chain(dir).iter() {
            for gi in own.iter() {
                let m = gi.matched(path, is_dir);
                if m.is_ignore() {
                    return true;
                }
                if m.is_whitelist() {
                    return false;
                }
            }
        }
        false
    }

    /// The ignore files that apply to entries of `dir`, deepest first: below the
    /// walk root its own and its parent's chain; at the root, its own and those
    /// of the directories above it up to the repository root.
    fn chain(&self, dir: &Path) -> Chain {
        if let Some(found) = self.chains.lock().ok().and_then(|c| c.get(dir).cloned()) {
            return found;
        }
        let mut chain: Vec<Own> = Vec::new();
        let own = self.load(dir);
        if !own.is_empty() {
            chain.push(own);
        }
        match dir.parent() {
            Some(parent) if dir != self.root && dir.starts_with(&self.root) => {
                chain.extend(self.chain(parent).iter().cloned());
            }
            _ => {
                for d in self.above.iter().rev() {
                    let own = self.load(d);
                    if !own.is_empty() {
                        chain.push(own);
                    }
                }
            }
        }
        let chain = Arc::new(chain);
        if let Ok(mut c) = self.chains.lock() {
            c.insert(dir.to_path_buf(), chain.clone());
        }
        chain
    }

    /// The ignore files of `dir` itself (read once: `chain` caches the result).
    fn load(&self, dir: &Path) -> Own {
        let mut out = Vec::new();
        // `.git/info/exclude` applies from the repository root, below its ignore files.
        let exclude = dir
            .join(".git")
            .is_dir()
            .then(|| dir.join(".git/info/exclude"));
        for path in NAMES.iter().map(|n| dir.join(n)).chain(exclude) {
            match read_regular(&path) {
                Ok(None) => {}
                Ok(Some(text)) => {
                    let mut b = GitignoreBuilder::new(dir);
                    for line in text.lines() {
                        // A bad glob only loses its own line, as in git.
                        let _ = b.add_line(Some(path.clone()), line);
                    }
                    if let Ok(gi) = b.build() {
                        out.push(gi);
                    }
                }
                Err(why) => {
                    if let Ok(mut s) = self.skipped.lock() {
                        s.push((path, why));
                    }
                }
            }
        }
        Arc::new(out)
    }
}

/// The text of an ignore file: `Ok(None)` when there is none, `Err` when it is
/// not a regular file or too large (then it is not opened at all).
fn read_regular(path: &Path) -> Result<Option<String>, String> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A dangling symlink is no ignore file either.
            return Ok(None);
        }
        Err(e) => return Err(format!("ignore file not read: {e}")),
    };
    if !meta.is_file() {
        return Err("ignore file not read: not a regular file".into());
    }
    if meta.len() > MAX_IGNORE_FILE_BYTES {
        return Err(format!(
            "ignore file not read: {} bytes is over the {MAX_IGNORE_FILE_BYTES}-byte limit",
            meta.len()
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("ignore file not read: {e}"))?;
    // The file may have been swapped since `metadata`: check what was opened.
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err("ignore file not read: not a regular file".into());
    }
    let mut bytes = Vec::new();
    file.take(MAX_IGNORE_FILE_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("ignore file not read: {e}"))?;
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}
