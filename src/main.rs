use clap::Parser;

fn main() {
    let cli = poolguard::cli::Cli::parse();
    std::process::exit(poolguard::cli::run(cli));
}
