use clap::Parser;

/// mimalloc: the per-file phase allocates from two threads at once, and glibc's
/// allocator made that the slowest part of it (measured with `cargo bench`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = poolguard::cli::Cli::parse();
    std::process::exit(poolguard::cli::run(cli));
}
