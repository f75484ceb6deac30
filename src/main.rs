//! The `threefold` binary: the trainer (TUI) and its subcommands.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// A terminal trainer about repetition of positions in chess.
#[derive(Parser, Debug)]
#[command(name = "threefold", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Draw the board with ASCII letters instead of Unicode pieces.
    #[arg(long)]
    ascii: bool,
    /// Start from this position (FEN).
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// Open the first game of this PGN file.
    #[arg(long, value_name = "FILE")]
    pgn: Option<std::path::PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// What the rules say about every ply of a game: repetitions, claims, endings.
    Analyze(cli::analyze::AnalyzeArgs),
    /// Euwe's Thue–Morse knight sequence under the former German rule and FIDE's.
    Euwe(cli::euwe::EuweArgs),
    /// Benchmarks: the engine's search (default) or the rules core.
    Bench(BenchArgs),
}

#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// What to benchmark.
    #[arg(value_enum, default_value_t = BenchTarget::Search)]
    target: BenchTarget,
    #[command(flatten)]
    rules: cli::bench_rules::BenchRulesArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum BenchTarget {
    /// The engine's search over the positions in assets/.
    Search,
    /// The rules core replaying shuffling games.
    Rules,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = match cli.command {
        Some(Command::Analyze(args)) => cli::analyze::run(&args, &mut out),
        Some(Command::Euwe(args)) => cli::euwe::run(&args, &mut out),
        Some(Command::Bench(args)) => match args.target {
            BenchTarget::Rules => cli::bench_rules::run(&args.rules, &mut out),
            BenchTarget::Search => Err(anyhow::anyhow!("the engine is not built yet")),
        },
        None => threefold::tui::run(threefold::tui::Options {
            ascii: cli.ascii,
            fen: cli.fen,
            pgn: cli.pgn,
        }),
    };
    let _ = out.flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let msg = format!("{e:#}").replace('\n', " ");
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
