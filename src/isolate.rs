//! Phase isolation: a panic while extracting, linking or judging one file, or
//! rendering one finding, is caught and becomes an `errors[]` entry; the run
//! goes on with everything else.
//!
//! Internal test hook (not part of the interface): `POOLGUARD_TEST_PANIC=phase@name`
//! panics in `phase` (`extract`, `link`, `render`, or a rule id) whenever a file
//! whose path ends with `name` takes part in it. The test suite uses it to prove
//! that a panic in each phase is contained.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

thread_local! {
    /// Inside [`catch`]: the panic hook stays quiet and leaves the location here.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static LOCATION: Cell<Option<String>> = const { Cell::new(None) };
}

/// Run `f`; a panic in it becomes `Err` with a short description (message and
/// source location) instead of unwinding further.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let was = CATCHING.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(was));
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        match LOCATION.with(|l| l.take()) {
            Some(at) => format!("{message} at {at}"),
            None => message,
        }
    })
}

/// The `errors[]` message of a caught panic.
pub fn internal_error(what: &str, panic: &str) -> String {
    format!("internal error {what}: {panic} (please report it)")
}

fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CATCHING.with(Cell::get) {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()));
                LOCATION.with(|l| l.set(at));
            } else {
                default(info);
            }
        }));
    });
}

/// The test hook: panic when `phase` runs over a file named by `POOLGUARD_TEST_PANIC`.
pub fn inject<'p>(phase: &str, mut paths: impl Iterator<Item = &'p str>) {
    static TARGET: OnceLock<Option<(String, String)>> = OnceLock::new();
    let target = TARGET.get_or_init(|| {
        let v = std::env::var("POOLGUARD_TEST_PANIC").ok()?;
        let (p, name) = v.split_once('@')?;
        Some((p.to_string(), name.to_string()))
    });
    if let Some((p, name)) = target {
        if p == phase && paths.any(|path| path.ends_with(name.as_str())) {
            panic!("injected panic in {phase} (POOLGUARD_TEST_PANIC)");
        }
    }
}
