//! Generated shuffling games for the judge's tests.

use threefold_xiangqi::{Move, Position};

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub const STARTS: &[&str] = &[
    "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
    "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
    "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
    "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
    "5k3/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1",
];

/// A move that tends to repeat: the reverse of the mover's own last move (`own_last`) when legal, else
/// a random legal move (captures and pawn advances rarely).
pub fn shuffle_move(rng: &mut Rng, pos: &Position, own_last: Option<Move>) -> Option<Move> {
    let legal = pos.legal_moves();
    let moves = legal.as_slice();
    if moves.is_empty() {
        return None;
    }
    if let Some(own) = own_last {
        let back = Move::new(own.to(), own.from());
        if moves.contains(&back) && rng.below(4) != 0 {
            return Some(back);
        }
    }
    for _ in 0..8 {
        let m = moves[rng.below(moves.len())];
        if !(pos.is_capture(m) || pos.is_pawn_advance(m)) || rng.below(8) == 0 {
            return Some(m);
        }
    }
    Some(moves[rng.below(moves.len())])
}
