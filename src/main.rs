use clap::Parser;

/// mimalloc: the per-file phase allocates from two threads at once, and glibc's
/// allocator made that the slowest part of it (measured with `cargo bench`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

unsafe extern "C" {
    fn mi_option_set(option: std::os::raw::c_int, value: std::os::raw::c_long);
    fn mi_malloc(size: usize) -> *mut std::ffi::c_void;
    fn mi_calloc(count: usize, size: usize) -> *mut std::ffi::c_void;
    fn mi_realloc(p: *mut std::ffi::c_void, size: usize) -> *mut std::ffi::c_void;
    fn mi_free(p: *mut std::ffi::c_void);
}

/// `mi_option_purge_delay` in the `mimalloc.h` of mimalloc 3 (what libmimalloc-sys
/// 0.1.49, pinned in Cargo.lock, builds).
const MI_OPTION_PURGE_DELAY: std::os::raw::c_int = 15;

/// mimalloc 3 keeps freed pages for a second before it gives them back; parsing
/// frees a tree per file, so a run held about 320 MB on the 10,000-file
/// benchmark. After 20 ms it peaked at 292-297 MB with no CPU cost measurable
/// against 50 ms (297-314 MB in the same run; 0 ms: 265 MB, 15 % more CPU); on a
/// slower day 20 ms peaked at 303-308 MB and 10 ms at 297-303 MB, CPU within the
/// runs' noise (2026-12-02). `MIMALLOC_PURGE_DELAY` in the environment still wins.
const PURGE_DELAY_MS: std::os::raw::c_long = 10;

/// `mi_option_arena_eager_commit` in the same `mimalloc.h`: 0 commits an arena's
/// memory as it is used, not all at once. On the benchmark corpus it peaked at
/// 281.7-281.8 MB against 300.5-301.5 MB, CPU the same (2026-12-02, four runs).
const MI_OPTION_ARENA_EAGER_COMMIT: std::os::raw::c_int = 4;

/// Set before the first allocation makes the first arena: Rust's runtime allocates
/// before `main`, so this runs among the program's static initialisers (Linux).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static EARLY_OPTIONS: extern "C" fn() = early_options;

#[cfg(target_os = "linux")]
extern "C" fn early_options() {
    if std::env::var_os("MIMALLOC_ARENA_EAGER_COMMIT").is_none() {
        // SAFETY: sets a mimalloc option; any value is valid, and it only decides how
        // arenas made from now on commit their memory.
        unsafe { mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) };
    }
}

fn main() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets a mimalloc option; any value is valid, and no allocation
        // depends on it.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    }

    // SAFETY: mimalloc's four functions are one allocator family, never return
    // null for a non-zero size and align as malloc does; this runs before any
    // other tree-sitter call, on the only thread there is.
    unsafe {
        tree_sitter::set_allocator(Some(tree_sitter::Allocator {
            malloc: mi_malloc,
            calloc: mi_calloc,
            realloc: mi_realloc,
            free: mi_free,
        }))
    };
    let cli = poolguard::cli::Cli::parse();
    std::process::exit(poolguard::cli::run(cli));
}
