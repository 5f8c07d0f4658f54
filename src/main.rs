use clap::Parser;

/// mimalloc: the per-file phase allocates from two threads at once, and glibc's
/// allocator made that the slowest part of it (measured with `cargo bench`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's options for a run that holds every file's facts at once: give freed
/// pages back at once (`purge_delay` 0) and commit arena memory as it is used
/// (`arena_eager_commit` 0). Peak RSS on the 10,000-file benchmark: 355 -> 286 MB.
/// Numbers are mimalloc v3's `mi_option_e` (its header; the crate names only v2's).
fn tune_allocator() {
    const ARENA_EAGER_COMMIT: std::ffi::c_int = 4;
    const PURGE_DELAY: std::ffi::c_int = 15;
    // SAFETY: plain option setters of the linked allocator, called before any thread starts.
    unsafe {
        libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0);
        libmimalloc_sys::mi_option_set(PURGE_DELAY, 0);
    }
}

fn main() {
    tune_allocator();
    let cli = poolguard::cli::Cli::parse();
    std::process::exit(poolguard::cli::run(cli));
}
