//! Positions for tuning the evaluation: threefold's engine plays itself from random openings
//! at a fixed number of nodes per move, and every quiet position of every game is written
//! with the game's result. See `tools/TUNING.md`.
//!
//! `cargo run --release --example tune_data -- --games 10000 --nodes 4000 --seed 1 > games.txt`
//!
//! Output, one position per line: `FEN;result` with the result from White's view (1, 0.5, 0).
//! A position is kept when it is 16 plies or more into the game, the side to move is not in
//! check and has no capture that wins material by static exchange, nor a promotion: the
//! evaluation should be fitted to positions it can judge without a search.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Color, EnPassantMode, Move, MoveList, Position, fen::Fen};
use threefold::engine::chess::movepick::{gen_captures, see};
use threefold::engine::tt::splitmix64;
use threefold::engine::{Engine, Limits, Request, Score};
use threefold::rules::Game;

const RANDOM_PLIES: usize = 8;
const FIRST_KEPT_PLY: usize = 16;
const MAX_PLIES: usize = 300;
/// Adjudicated as won when both sides see at least this for `WIN_PLIES` plies in a row.
const WIN_CP: i32 = 1200;
const WIN_PLIES: usize = 6;

/// Self-play positions with results for tuning (see tools/TUNING.md).
#[derive(clap::Parser)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Nodes per move.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    /// Seed of the random opening moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn quiet(pos: &shakmaty::Chess) -> bool {
    if pos.is_check() {
        return false;
    }
    let mut caps = MoveList::new();
    gen_captures(pos, &mut caps);
    caps.iter().all(|m| !m.is_promotion() && see(pos, m) <= 0)
}

fn main() {
    let Args {
        games,
        nodes,
        mut seed,
    } = clap::Parser::parse();
    let mut engine = Engine::new(16).expect("16 MB table");
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let (mut kept, mut results) = (0u64, [0u64; 3]);
    for g in 0..games {
        engine.new_game();
        let mut game = Game::new();
        let mut moves: Vec<Move> = Vec::new();
        let mut fens: Vec<String> = Vec::new();
        let mut streak: (i32, usize) = (0, 0);
        // Result from White's view, in half points.
        let result: u8 = loop {
            if let Some(end) = game.automatic_ending() {
                break match end.winner() {
                    Some(Color::Black) => 0,
                    Some(Color::White) => 2,
                    None => 1,
                };
            }
            let ply = moves.len();
            if ply >= MAX_PLIES || game.occurrences(ply) >= 3 || game.position().halfmoves() >= 100
            {
                break 1;
            }
            let pos = game.position().clone();
            let m = if ply < RANDOM_PLIES {
                let legal = pos.legal_moves();
                legal[(splitmix64(&mut seed) % legal.len() as u64) as usize]
            } else {
                if ply >= FIRST_KEPT_PLY && quiet(&pos) {
                    fens.push(Fen::from_position(&pos, EnPassantMode::Legal).to_string());
                }
                let r = engine.search(
                    &Request::new(&Chess::default(), &moves, &limits, &stop),
                    &mut (),
                    &mut |_| {},
                );
                // The score from White's view; a long winning streak ends the game.
                let cp = match r.score {
                    Score::Cp(c) => c,
                    Score::Mate(n) if n > 0 => 30_000,
                    Score::Mate(_) => -30_000,
                };
                let white_cp = if pos.turn().is_white() { cp } else { -cp };
                let side = white_cp.signum();
                if white_cp.abs() >= WIN_CP && side == streak.0 {
                    streak.1 += 1;
                } else {
                    streak = (side, usize::from(white_cp.abs() >= WIN_CP));
                }
                if streak.1 >= WIN_PLIES {
                    break if streak.0 > 0 { 2 } else { 0 };
                }
                r.best.expect("a move: the game is not over")
            };
            game.play(m).expect("legal move");
            moves.push(m);
        };
        results[usize::from(result)] += 1;
        let text = ["0", "0.5", "1"][usize::from(result)];
        for fen in &fens {
            writeln!(out, "{fen};{text}").expect("write");
        }
        kept += fens.len() as u64;
        if (g + 1) % 100 == 0 {
            eprintln!(
                "{} games, {kept} positions; white won {}, drawn {}, black won {}",
                g + 1,
                results[2],
                results[1],
                results[0]
            );
        }
    }
}
