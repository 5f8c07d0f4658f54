//! The project root: the directory every reported path, fingerprint and baseline
//! entry is relative to, whatever the current directory. It is the config file's
//! directory, else the git work tree of the first path, else the common ancestor
//! of the paths (a file's ancestor is its directory).

use std::path::{Component, Path, PathBuf};

use crate::config::Config;
use crate::paths::absolute;

/// Why a directory is the project root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootKind {
    /// The directory of the config file.
    Config,
    /// The top of the git work tree.
    Git,
    /// The common ancestor of the paths given.
    Arguments,
}

impl RootKind {
    pub fn describe(self) -> &'static str {
        match self {
            RootKind::Config => "the config file's directory",
            RootKind::Git => "the git work tree",
            RootKind::Arguments => "the common ancestor of the paths checked",
        }
    }
}

/// The resolved project root.
#[derive(Debug, Clone)]
pub struct ProjectRoot {
    /// Absolute, without `.` or `..` components.
    pub dir: PathBuf,
    /// `dir` with symlinks resolved (paths are matched against both).
    canonical: PathBuf,
    pub kind: RootKind,
}

impl ProjectRoot {
    /// The root of a run over `paths` with `config`.
    pub fn find(config: &Config, paths: &[PathBuf]) -> ProjectRoot {
        if config.path.is_some() {
            return ProjectRoot::new(config.root.clone(), RootKind::Config);
        }
        if let Some(git) = paths.first().and_then(|p| crate::since::git_root(p)) {
            return ProjectRoot::new(git, RootKind::Git);
        }
        ProjectRoot::new(common_ancestor(paths), RootKind::Arguments)
    }

    pub fn new(dir: PathBuf, kind: RootKind) -> ProjectRoot {
        let dir = absolute(&dir);
        let canonical = std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
        ProjectRoot {
            dir,
            canonical,
            kind,
        }
    }

    /// Whether the root is a project (config or git) whose other files give context.
    pub fn is_project(&self) -> bool {
        self.kind != RootKind::Arguments
    }

    /// `path` relative to the root, if it is under it: lexically, else with
    /// symlinks resolved on both sides.
    pub fn relative(&self, path: &Path) -> Option<PathBuf> {
        let abs = absolute(path);
        if let Ok(rel) = abs.strip_prefix(&self.dir) {
            return Some(rel.to_path_buf());
        }
        let real = std::fs::canonicalize(path).ok()?;
        real.strip_prefix(&self.canonical)
            .ok()
            .map(Path::to_path_buf)
    }

    /// A path as reported: relative to the root with `/` separators and no
    /// leading `./`; a path outside the root stays absolute.
    pub fn display(&self, path: &Path) -> String {
        match self.relative(path) {
            Some(rel) => slashed(&rel),
            None => slashed(&absolute(path)),
        }
    }

    /// The root directory with `/` separators.
    pub fn dir_string(&self) -> String {
        slashed(&self.dir)
    }
}

/// The deepest directory containing every path (a file counts as its directory).
fn common_ancestor(paths: &[PathBuf]) -> PathBuf {
    let dirs: Vec<PathBuf> = paths
        .iter()
        .map(|p| {
            let abs = absolute(p);
            if abs.is_dir() {
                abs
            } else {
                abs.parent().map(Path::to_path_buf).unwrap_or(abs)
            }
        })
        .collect();
    let Some(first) = dirs.first() else {
        return absolute(Path::new("."));
    };
    let mut common = first.clone();
    for d in &dirs[1..] {
        while !d.starts_with(&common) {
            if !common.pop() {
                break;
            }
        }
    }
    common
}

/// Path components joined with `/`.
fn slashed(path: &Path) -> String {
    let mut out = String::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::RootDir => out.push('/'),
            Component::Prefix(p) => out.push_str(&crate::escape::os_str(p.as_os_str())),
            other => {
                if !out.is_empty() && !out.ends_with('/') {
                    out.push('/');
                }
                out.push_str(&crate::escape::os_str(other.as_os_str()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_to_root_whatever_the_form() {
        let root = ProjectRoot::new(PathBuf::from("/p/repo"), RootKind::Git);
        assert_eq!(root.display(Path::new("/p/repo/src/a.rs")), "src/a.rs");
        assert_eq!(root.display(Path::new("/p/repo/src/../b/./a.rs")), "b/a.rs");
        assert_eq!(
            root.display(Path::new("/elsewhere/a.rs")),
            "/elsewhere/a.rs"
        );
        assert_eq!(root.dir_string(), "/p/repo");
    }

    #[test]
    fn common_ancestor_of_files_and_dirs() {
        let a = common_ancestor(&[PathBuf::from("/x/y/a.rs"), PathBuf::from("/x/z/b.rs")]);
        assert_eq!(a, PathBuf::from("/x"));
        let one = common_ancestor(&[PathBuf::from("/x/y/a.rs")]);
        assert_eq!(one, PathBuf::from("/x/y"));
    }
}
