//! What a run analyses and what it reports. A run on a few files (pre-commit) or
//! with `--since` still analyses the whole project, so that cross-file links
//! (Spring executor beans, pools in other classes) resolve; it reports only on
//! the requested files, the changed lines, and what no baseline already records.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::baseline::Baseline;
use crate::diagnostic::Diagnostic;
use crate::options::CheckOptions;
use crate::root::ProjectRoot;
use crate::since::{self, Changes};
use crate::source::SourceFile;

pub struct Scope {
    /// Where to walk: the requested paths, plus the project root when context is needed.
    pub roots: Vec<PathBuf>,
    /// Canonical requested paths, when reporting is limited to them (a set: a
    /// pre-commit run may pass thousands of files).
    requested: Option<HashSet<PathBuf>>,
    changes: Option<Changes>,
    baseline: Option<Baseline>,
}

impl Scope {
    pub fn new(opts: &CheckOptions, root: &ProjectRoot) -> Result<Scope, String> {
        let changes = match &opts.since {
            Some(rev) => Some(since::changes_since(&opts.paths[0], rev)?),
            None => None,
        };
        let baseline = opts.baseline.as_deref().map(Baseline::load).transpose()?;
        let partial = changes.is_some() || opts.paths.iter().any(|p| p.is_file());
        // The project (config directory or git work tree) gives context; a root
        // that is only the arguments' common ancestor has nothing more to add.
        let project = (partial && root.is_project()).then(|| root.dir.clone());
        let mut roots = opts.paths.clone();
        let requested = match project {
            Some(root) if !opts.paths.iter().all(|p| canonical(p) == canonical(&root)) => {
                roots.insert(0, root);
                Some(
                    opts.paths
                        .iter()
                        .map(|p| canonical(p))
                        .collect::<HashSet<_>>(),
                )
            }
            _ => None,
        };
        Ok(Scope {
            roots,
            requested,
            changes,
            baseline,
        })
    }

    /// Whether a file is one the user asked about (not only context).
    pub fn requested(&self, path: &Path) -> bool {
        self.requested.is_none() || self.requested_canonical(&canonical(path))
    }

    /// [`Scope::requested`] of a path already made [`canonical`].
    pub fn requested_canonical(&self, canonical: &Path) -> bool {
        match &self.requested {
            None => true,
            // The file itself or a directory above it was asked for.
            Some(paths) => canonical.ancestors().any(|a| paths.contains(a)),
        }
    }

    /// Whether a finding in a requested file is reported: on changed lines (with
    /// `--since`) and not in the baseline.
    pub fn reports(&self, d: &Diagnostic, files: &[SourceFile]) -> bool {
        let f = &files[d.file];
        if let Some(changes) = &self.changes {
            let first = f.line_number(d.span.start);
            let last = f.line_number(d.span.end.saturating_sub(1).max(d.span.start));
            if !changes.touches(&f.path, first, last) {
                return false;
            }
        }
        !self.baseline.as_ref().is_some_and(|b| b.contains(d, files))
    }
}

/// [`canonical`] of many paths, each directory resolved once: a file that is not
/// a symbolic link is its resolved directory joined with its name, and so is a
/// directory (one `lstat` each instead of a `readlink` per component).
pub fn canonical_many<'a>(paths: impl Iterator<Item = &'a Path>) -> Vec<PathBuf> {
    let mut dirs: HashMap<PathBuf, Option<PathBuf>> = HashMap::new();
    paths
        .map(|p| match (p.parent(), p.file_name()) {
            (Some(dir), Some(name)) if !is_link(p) => match canonical_dir(dir, &mut dirs) {
                Some(d) => d.join(name),
                None => canonical(p),
            },
            _ => canonical(p),
        })
        .collect()
}

/// Whether `p` is a symbolic link (or cannot be examined).
fn is_link(p: &Path) -> bool {
    std::fs::symlink_metadata(p).map_or(true, |m| m.file_type().is_symlink())
}

/// The resolved form of directory `dir`, through its parent's when `dir` is no link.
fn canonical_dir(dir: &Path, known: &mut HashMap<PathBuf, Option<PathBuf>>) -> Option<PathBuf> {
    if let Some(found) = known.get(dir) {
        return found.clone();
    }
    let resolved = match (dir.parent(), dir.file_name()) {
        (Some(parent), Some(name)) if !parent.as_os_str().is_empty() && !is_link(dir) => {
            canonical_dir(parent, known).map(|p| p.join(name))
        }
        _ => std::fs::canonicalize(dir).ok(),
    };
    known.insert(dir.to_path_buf(), resolved.clone());
    resolved
}

pub fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p)
        .unwrap_or_else(|_| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
}
