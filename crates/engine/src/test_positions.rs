//! Positions for the engine's move tests: pins, checks, en passant (legal and pinned),
//! castling, promotions, and every position one and two plies further (a third of the second
//! plies): several thousand in all.

use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

const FENS: [&str; 12] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/6P1/4P3/8 b - - 0 1",
    "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1",
    "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",
    "4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1",
    "2r3k1/1P6/8/8/8/8/8/K7 w - - 0 1",
    "r3k2r/8/8/8/3q4/8/8/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "3k4/8/8/2b5/8/4N3/3K4/6q1 w - - 0 1",
];

/// The test positions.
pub fn positions() -> Vec<Chess> {
    let mut out: Vec<Chess> = FENS
        .iter()
        .map(|f| {
            f.parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap()
        })
        .collect();
    let mut more = Vec::new();
    for p in &out {
        for m in p.legal_moves() {
            let mut c = p.clone();
            c.play_unchecked(m);
            for m2 in c.legal_moves().iter().step_by(3) {
                let mut c2 = c.clone();
                c2.play_unchecked(*m2);
                more.push(c2);
            }
            more.push(c);
        }
    }
    out.extend(more);
    out
}
