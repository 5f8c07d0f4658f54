//! Path arithmetic shared by project-root discovery and config loading.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute against the current directory, with `.` and `..`
/// removed lexically (`check ..` from a subfolder names the parent itself).
pub fn absolute(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
