//! Benchmarks for `threefold xiangqi bench`: perft speed and the judge's
//! cost per position along long shuffling games.
//!
//! The games are generated here, deterministically: from several start
//! positions, moves that undo the opponent's last move or the mover's own
//! last move are strongly preferred, so positions repeat often and the judge
//! has rulings to make; captures and pawn advances are avoided but not
//! forbidden, so repetitions start and stop.

use std::time::Instant;

use threefold_rules::shuffle::Rng;
use threefold_xiangqi::board::{Move, Position};
use threefold_xiangqi::judge::{ChaseMode, Outcome, Record};
use threefold_xiangqi::movegen::PerftError;

/// Start positions of the shuffling games: the opening and positions with
/// rooks, cannons and horses in contact.
pub const STARTS: &[&str] = &[
    threefold_xiangqi::board::START_FEN,
    "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
    "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
    "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
];

/// Games of `plies_per_game` moves until `total` plies, from [`STARTS`].
pub fn shuffling_games(
    total: usize,
    plies_per_game: usize,
    seed: u64,
) -> Vec<(Position, Vec<Move>)> {
    let mut rng = Rng::new(seed | 1);
    let mut games = Vec::new();
    let mut made = 0;
    let mut g = 0;
    while made < total {
        let start = Position::from_fen(STARTS[g % STARTS.len()]).expect("bench FEN");
        g += 1;
        let mut pos = start.clone();
        let mut moves: Vec<Move> = Vec::new();
        while moves.len() < plies_per_game && made < total {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let n = moves.len();
            // Undo the mover's own last move (two plies back), or repeat
            // the move four plies back: both close a cycle.
            let back = |k: usize| (n >= k).then(|| moves[n - k]);
            let undo_own = back(2).map(|m| Move::new(m.to(), m.from()));
            let cycle = back(4);
            let pick = |m: Option<Move>| m.filter(|m| legal.contains(*m));
            let roll = rng.below(100);
            let chosen = if roll < 40 {
                pick(cycle).or(pick(undo_own))
            } else if roll < 65 {
                pick(undo_own)
            } else {
                None
            };
            let m = chosen.unwrap_or_else(|| {
                // A random move, preferring quiet reversible ones.
                let quiet: Vec<Move> = legal
                    .as_slice()
                    .iter()
                    .copied()
                    .filter(|&m| !pos.is_capture(m) && !pos.is_pawn_advance(m))
                    .collect();
                if !quiet.is_empty() && rng.below(10) != 0 {
                    quiet[rng.below(quiet.len())]
                } else {
                    legal.as_slice()[rng.below(legal.len())]
                }
            });
            pos.make(m);
            moves.push(m);
            made += 1;
        }
        games.push((start, moves));
    }
    games
}

/// What a judge run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeRun {
    /// Positions judged (one per ply).
    pub positions: usize,
    /// Of which were ruled (not undecided).
    pub ruled: usize,
    /// Rulings that were a win or loss for the side to move.
    pub decisive: usize,
}

/// Replays the games, judging every position (`ntimes` earlier occurrences).
/// Returns the counts and the seconds taken.
pub fn judge_games(
    games: &[(Position, Vec<Move>)],
    mode: ChaseMode,
    ntimes: usize,
) -> (JudgeRun, f64) {
    let mut run = JudgeRun::default();
    let t = Instant::now();
    for (start, moves) in games {
        let mut record = Record::with_mode(start.clone(), mode);
        for &m in moves {
            record.push(m);
            let outcome = record.judge_ntimes(ntimes);
            run.positions += 1;
            if outcome != Outcome::Undecided {
                run.ruled += 1;
                if matches!(outcome, Outcome::Win | Outcome::Loss) {
                    run.decisive += 1;
                }
            }
        }
    }
    (run, t.elapsed().as_secs_f64())
}

/// Perft of the start position at `depth`: (leaves, seconds).
pub fn perft_start(depth: u32) -> Result<(u64, f64), PerftError> {
    let mut pos = Position::start();
    let t = Instant::now();
    let n = pos.perft(depth)?;
    Ok((n, t.elapsed().as_secs_f64()))
}

/// The median of some numbers (the lower middle for an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[(v.len() - 1) / 2]
}
