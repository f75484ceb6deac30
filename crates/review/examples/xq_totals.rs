//! The xiangqi review's totals of a PGN file (until `threefold review --all --xiangqi
//! --summary` prints them): `cargo run --release -p threefold-review --example xq_totals --
//! FILE [--ntimes N] [--report]`. Games that cannot be read are named on stderr and skipped.

#[path = "../tests/xq_split/mod.rs"]
mod xq_split;

use std::io::Write;

use threefold_review::xiangqi::{XiangqiTotals, XqOptions, review_game};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: xq_totals FILE [--ntimes N] [--report]");
        std::process::exit(2);
    };
    let mut opts = XqOptions::default();
    if let Some(i) = args.iter().position(|a| a == "--ntimes") {
        opts.ntimes = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(2);
    }
    let report = args.iter().any(|a| a == "--report");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let started = std::time::Instant::now();
    let mut totals = XiangqiTotals::default();
    let mut out = std::io::stdout().lock();
    for (i, (line, game)) in xq_split::split_games(&text).into_iter().enumerate() {
        match review_game(game, path, line, i + 1, &opts) {
            Ok(r) => {
                if report {
                    r.write_report(&mut out, i + 1).expect("stdout");
                }
                totals.add(&r);
            }
            Err(e) => {
                eprintln!("{e}");
                totals.add_skipped();
            }
        }
    }
    totals.write_text(&mut out).expect("stdout");
    let secs = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "({:.2} MB in {secs:.3} s: {:.1} MB/s, {:.0} games/s)",
        text.len() as f64 / 1e6,
        text.len() as f64 / 1e6 / secs,
        (totals.games + totals.skipped) as f64 / secs
    )
    .expect("stdout");
}
