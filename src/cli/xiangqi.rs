//! `threefold xiangqi`: perft, the WXF repetition judge, a per-ply analysis,
//! and benchmarks.

use std::io::Write;
use std::time::Instant;

use anyhow::{Result, anyhow};
use clap::Subcommand;
use threefold::xiangqi::{Position, START_FEN};

/// Arguments of `threefold xiangqi`.
#[derive(clap::Args, Debug)]
pub struct XiangqiArgs {
    #[command(subcommand)]
    pub command: XiangqiCommand,
}

#[derive(Subcommand, Debug)]
pub enum XiangqiCommand {
    /// Count legal move paths (the last line is the count).
    Perft(PerftArgs),
}

/// Arguments of `threefold xiangqi perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Position (WXF/UCCI FEN; default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Also print the count after each first move (UCCI).
    #[arg(long)]
    pub divide: bool,
}

/// Run `threefold xiangqi ...`.
pub fn run(args: &XiangqiArgs, out: &mut dyn Write) -> Result<()> {
    match &args.command {
        XiangqiCommand::Perft(a) => perft(a, out),
    }
}

fn perft(args: &PerftArgs, out: &mut dyn Write) -> Result<()> {
    let mut pos = Position::from_fen(&args.fen).map_err(|e| anyhow!("{e}"))?;
    let start = Instant::now();
    let total = if args.divide {
        let rows = pos.perft_divide(args.depth);
        for (m, n) in &rows {
            writeln!(out, "{m}: {n}")?;
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        pos.perft(args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {}: {total} paths in {secs:.3} s ({:.1}M leaves/s)",
        args.depth,
        total as f64 / secs.max(1e-9) / 1e6
    );
    writeln!(out, "{total}")?;
    Ok(())
}
