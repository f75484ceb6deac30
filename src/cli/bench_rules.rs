//! `threefold bench rules`: how fast the rules core replays games, computing
//! everything `analyze --json` reports (keys, repetition counts and earlier
//! plies, 9.2 and 9.3 claims now and with a move, 9.6 endings, outcome) except
//! the text.
//!
//! The corpus is generated deterministically: shuffling games
//! ([`threefold::rules::shuffle`]) from several start positions, where
//! reversible moves and moves that undo the last move are strongly preferred,
//! so repetitions and claims are frequent.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;
use shakmaty::{Chess, Move};
use threefold::rules::analysis::report_current;
use threefold::rules::shuffle::{Rng, shuffling_game};
use threefold::rules::{EndingKind, Game};

/// The most plies a corpus may have. The corpus is held in memory for the
/// timed rounds (every game's moves, plus `--games` repeated), so `--plies`
/// sets the memory taken; this bound keeps it under 90 MB (88,872 kB peak RSS
/// in `/usr/bin/time -v threefold bench rules --plies 10000000 --rounds 1`)
/// — fifty times the default, far more than a stable median needs.
pub const MAX_PLIES: usize = 10_000_000;

/// Refuses a corpus larger than [`MAX_PLIES`]: the one check of `--plies`.
fn check_plies(plies: usize) -> Result<()> {
    if plies > MAX_PLIES {
        anyhow::bail!(
            "--plies {plies} is too many: at most {MAX_PLIES} (the corpus is held in memory)"
        );
    }
    Ok(())
}

/// Arguments of `threefold bench rules`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchRulesArgs {
    /// Plies in the corpus (at least this many; at most 10,000,000).
    #[arg(long, default_value_t = 200_000)]
    pub plies: usize,
    /// Timed rounds over the corpus; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
    /// Replay these games instead (JSON lines with "fen" and "moves" in UCI,
    /// as in tests/data/reference.jsonl), repeated up to `--plies`.
    #[arg(long)]
    pub games: Option<std::path::PathBuf>,
}

/// Games from a JSON-lines file, repeated until there are `plies` plies.
fn load_games(path: &std::path::Path, plies: usize) -> Result<Vec<(Chess, Vec<Move>)>> {
    let text = threefold::fsio::read_text(path, threefold::fsio::FileKind::InputList)?;
    let mut once = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let where_ = || format!("{}:{}", path.display(), i + 1);
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| anyhow::anyhow!("{}: {e}", where_()))?;
        let fen = v["fen"]
            .as_str()
            .ok_or_else(|| anyhow::anyhow!("{}: no \"fen\"", where_()))?;
        let mut game = Game::from_fen(fen).map_err(|e| anyhow::anyhow!("{}: {e}", where_()))?;
        let start = game.start().clone();
        let mut moves = Vec::new();
        for m in v["moves"].as_array().into_iter().flatten() {
            let uci = m.as_str().unwrap_or("");
            moves.push(
                game.play_uci(uci)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", where_()))?,
            );
        }
        once.push((start, moves));
    }
    let per_round: usize = once.iter().map(|(_, m)| m.len()).sum();
    if per_round == 0 {
        anyhow::bail!("{}: no moves in these games", path.display());
    }
    let mut games = Vec::new();
    let mut total = 0;
    while total < plies {
        games.extend(once.iter().cloned());
        total += per_round;
    }
    Ok(games)
}

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 2 8",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/r7 w - - 40 60",
    "4k3/8/8/8/8/8/4P3/R3K2R w KQ - 90 80",
    "6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 10 30",
];

/// A deterministic corpus of shuffling games of at least `plies` plies.
pub fn corpus(plies: usize) -> Vec<(Chess, Vec<Move>)> {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut games = Vec::new();
    let mut total = 0;
    let mut i = 0;
    while total < plies {
        let start: Chess = STARTS[i % STARTS.len()]
            .parse::<shakmaty::fen::Fen>()
            .expect("valid FEN")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal position");
        i += 1;
        let moves = shuffling_game(&start, &mut rng, 600);
        total += moves.len();
        games.push((start, moves));
    }
    games
}

/// Replay the corpus once, computing every report; returns (plies, checksum).
pub fn replay(corpus: &[(Chess, Vec<Move>)]) -> (usize, u64) {
    let mut plies = 0;
    let mut check = 0u64;
    for (start, moves) in corpus {
        let mut game = Game::from_position(start.clone());
        let r = report_current(&game);
        check = check.wrapping_add(u64::from(r.repetitions));
        for &m in moves {
            game.play(m).expect("corpus moves are legal");
            let r = report_current(&game);
            check = check
                .wrapping_mul(31)
                .wrapping_add(u64::from(r.repetitions))
                .wrapping_add(r.earlier.len() as u64)
                .wrapping_add(r.claim_threefold_moves.len() as u64 * 7)
                .wrapping_add(r.claim_fifty_moves.len() as u64 * 13)
                .wrapping_add(u64::from(r.claim_threefold) + u64::from(r.claim_fifty) * 2)
                .wrapping_add(outcome_tag(r.outcome));
            plies += 1;
        }
    }
    (plies, check)
}

/// A number per automatic outcome for the checksum (the values it had when
/// the kinds were field-less, so checksums stay comparable across versions).
fn outcome_tag(outcome: Option<EndingKind>) -> u64 {
    match outcome {
        None => 0,
        Some(EndingKind::Checkmate { .. }) => 1,
        Some(EndingKind::Stalemate) => 2,
        Some(EndingKind::InsufficientMaterial) => 3,
        Some(EndingKind::FivefoldRepetition) => 4,
        Some(EndingKind::SeventyFiveMoves) => 5,
        Some(_) => 6,
    }
}

pub fn run(args: &BenchRulesArgs, out: &mut dyn Write) -> Result<()> {
    check_plies(args.plies)?;
    let games = match &args.games {
        Some(path) => load_games(path, args.plies)?,
        None => corpus(args.plies),
    };
    let total: usize = games.iter().map(|(_, m)| m.len()).sum();
    writeln!(out, "corpus: {} games, {} plies", games.len(), total)?;
    let mut rates = Vec::new();
    for round in 1..=args.rounds.max(1) {
        let t = Instant::now();
        let (plies, check) = replay(&games);
        let secs = t.elapsed().as_secs_f64();
        let rate = plies as f64 / secs;
        writeln!(
            out,
            "round {round}: {plies} plies in {:.3} s = {:.0} plies/s (checksum {check:016x})",
            secs, rate
        )?;
        rates.push(rate);
    }
    rates.sort_by(|a, b| a.total_cmp(b));
    let median = rates[rates.len() / 2];
    writeln!(
        out,
        "plies per second (median of {}): {:.0}",
        rates.len(),
        median
    )?;
    Ok(())
}
