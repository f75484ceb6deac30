//! Start positions shared by the integration tests that replay shuffling games.

#![allow(dead_code)]

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Start positions: castling rights to keep or lose, pawns to push (en passant), endgames,
/// and positions just after a double push whose en passant capture is legal or pinned.
pub const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppbqppp/2np1n2/4p3/4P3/2NP1N2/PPPBQPPP/R3K2R w KQkq - 2 8",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
    "r3k3/8/2n5/8/4B3/8/3N4/4K2R w Kq - 0 30",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/r7 w - - 40 60",
    "4k3/8/8/8/8/8/4P3/R3K2R w KQ - 90 80",
    // En passant pinned along a file, a diagonal and a rank (pseudo-legal only)...
    "1n2k3/8/8/8/3Pp3/8/8/1N2R1K1 b - d3 0 1",
    "kn6/8/8/8/3Pp3/8/5P2/1N4KB b - d3 0 1",
    "1n6/8/8/8/k2Pp2R/8/6K1/6N1 b - d3 0 1",
    // ... and legal.
    "1n2k3/8/8/8/3Pp3/8/8/RN4K1 b - d3 0 1",
    "1n2k3/8/8/8/2pPp3/8/8/1N2R1K1 b - d3 0 1",
    // Pawns facing each other on many files: double pushes next to enemy pawns.
    "r3k2r/8/8/8/1p1p1p1p/8/P1P1P1P1/R3K2R w KQkq - 0 1",
];

pub fn start(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}
