//! Path arithmetic shared by project-root discovery and config loading.

use std::path::{Component, Path, PathBuf};

/// `path` made absolute against the current directory, with `.` and `..`
/// removed lexically (`check ..` from a subfolder names the parent itself).
pub fn absolute(path: &Path) -> PathBuf {
    // The working directory, read once: the program never changes it, and
    // `std::path::absolute` asks the kernel (`getcwd`) on every relative path.
    static CWD: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let abs = match CWD.get_or_init(|| std::env::current_dir().ok()) {
        Some(cwd) if path.is_relative() && !path.as_os_str().is_empty() => cwd.join(path),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    };
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
