//! `threefold` command line: thin wrapper over the library.

use std::io::Write;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "threefold",
    version,
    about = "A terminal trainer about repetition of positions in chess"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the engine as a UCI engine on stdin/stdout.
    Uci,
    /// Speed benchmark (default target: the engine search).
    Bench {
        /// What to benchmark.
        #[arg(value_enum, default_value_t = BenchTarget::Search)]
        target: BenchTarget,
        /// Search depth for each bench position.
        #[arg(long, default_value_t = threefold::engine::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = threefold::engine::DEFAULT_HASH_MB)]
        hash: usize,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum BenchTarget {
    /// The engine's search.
    Search,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Uci) => {
            threefold::engine::uci::run(std::io::stdin().lock(), std::io::stdout())?
        }
        Some(Command::Bench {
            target: BenchTarget::Search,
            depth,
            hash,
        }) => {
            let mut out = std::io::stdout().lock();
            threefold::engine::bench::run(depth, hash, &mut out)?;
            out.flush()?;
        }
        None => println!("threefold"),
    }
    Ok(())
}
