//! Repetition of *moves*, after Vladan Vučković and Đorđe Vidanović, "A New Approach to Draw
//! Detection by Move Repetition in Computer Chess Programming" (2004,
//! <https://arxiv.org/abs/cs/0406038>), as implemented in their program Axon and given in
//! pseudo C in the chessprogramming wiki's page "Repetitions"
//! (<https://www.chessprogramming.org/Repetitions>, section "Repetition of Moves").
//!
//! The detector keeps nothing but the moves of the game and of the search line: origin and
//! target square, and whether the move was irreversible. No keys. To answer, it walks the
//! list backwards from the last move while the moves are reversible, with a *chain list* of
//! 24 slots (one per piece that can make reversible moves):
//!
//! - a move whose target square is the origin of a chain is merged into it: the chain now
//!   starts at the move's origin ("concatenating");
//! - if the move's origin is also that chain's target, the chain is *closed* (the piece is
//!   back where it started) and its slot emptied;
//! - otherwise the move opens a new chain in the first empty slot;
//! - when the number of open chains falls back to zero, every piece that moved has returned:
//!   a repetition.
//!
//! The algorithm is kept literally, failures included (the detector exists to show them):
//! - **Triangulation** (a false repetition): a king going round a triangle in three moves
//!   while the other side moves back and forth in two closes every chain after five plies,
//!   but then the other side is to move: not the same position.
//! - **Pieces of one kind that exchange squares** (a missed repetition): rooks on a1 and b1
//!   playing a1-a2, b1-a1, a2-b2, b2-b1 restore the position, but the chains a1→b1 and
//!   b1→a1 never close.
//! - More than 24 moving pieces would overflow the chain list: the scan then gives up (no
//!   repetition), as the pseudo code does.
//!
//! A move is irreversible under the same test as for every detector
//! ([`shakmaty::Position::is_irreversible`], see [`super`]). The scan starts only when the
//! last four moves are reversible (no cycle is shorter), which the detector knows from a
//! run length it keeps per move: as cheap a gate as Zarkov's.

use shakmaty::Square;

/// Slots in the chain list.
pub const CHAINS: usize = 24;

/// An empty chain slot's squares (no square has this index).
const EMPTY: u8 = 0xff;

/// One move of the list: origin and target square, and how many reversible moves end here
/// (0 for an irreversible move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    from: u8,
    to: u8,
    run: u32,
}

/// What a scan found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    /// Every chain closed after this many plies back: the detector's repetition.
    pub closed_after: Option<usize>,
    /// Reversible plies looked at.
    pub plies: usize,
}

/// The move list of the game and the search line.
#[derive(Clone, Debug, Default)]
pub struct Moves {
    list: Vec<Entry>,
}

impl Moves {
    /// An empty list.
    pub fn new() -> Moves {
        Moves {
            list: Vec::with_capacity(1024),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.list.clear();
    }

    /// Appends a move (`None`: the null move of the search, or the start of the game, which
    /// count as irreversible).
    #[inline(always)]
    pub fn push(&mut self, squares: Option<(Square, Square)>, irreversible: bool) {
        let (from, to) = squares.map_or((EMPTY, EMPTY), |(f, t)| (f as u8, t as u8));
        let run = match (irreversible || squares.is_none(), self.list.last()) {
            (true, _) => 0,
            (false, Some(e)) => e.run + 1,
            (false, None) => 1,
        };
        self.list.push(Entry { from, to, run });
    }

    /// Removes the last move.
    #[inline(always)]
    pub fn pop(&mut self) {
        self.list.pop();
    }

    /// The detector's answer for the position after the last move.
    #[inline(always)]
    pub fn repetition(&self) -> bool {
        match self.list.last() {
            Some(e) if e.run >= 4 => self.scan(usize::MAX).closed_after.is_some(),
            _ => false,
        }
    }

    /// The algorithm of the paper: scans back at most `limit` reversible moves and stops at
    /// the first moment every chain is closed.
    #[inline(never)]
    pub fn scan(&self, limit: usize) -> Scan {
        let mut chains = [(EMPTY, EMPTY); CHAINS];
        let mut open = 0usize;
        let mut plies = 0;
        'moves: for m in self.list.iter().rev() {
            if m.run == 0 || plies == limit {
                break;
            }
            plies += 1;
            for c in chains.iter_mut() {
                if m.to == c.0 {
                    if m.from == c.1 {
                        open -= 1;
                        if open == 0 {
                            return Scan {
                                closed_after: Some(plies),
                                plies,
                            };
                        }
                        *c = (EMPTY, EMPTY);
                        continue 'moves;
                    }
                    c.0 = m.from;
                    continue 'moves;
                }
            }
            match chains.iter_mut().find(|c| c.0 == EMPTY) {
                Some(c) => {
                    *c = (m.from, m.to);
                    open += 1;
                }
                // The chain list is full: the pseudo code gives up.
                None => break,
            }
        }
        Scan {
            closed_after: None,
            plies,
        }
    }

    /// The chains still open after scanning back `plies` reversible moves (for explaining a
    /// missed repetition): `(origin, target)` of each.
    pub fn open_chains(&self, plies: usize) -> Vec<(Square, Square)> {
        let mut chains: Vec<(u8, u8)> = Vec::new();
        for m in self.list.iter().rev().take(plies) {
            if m.run == 0 {
                break;
            }
            match chains.iter().position(|c| c.0 == m.to) {
                Some(i) if chains[i].1 == m.from => {
                    chains.remove(i);
                }
                Some(i) => chains[i].0 = m.from,
                None => chains.push((m.from, m.to)),
            }
        }
        chains
            .into_iter()
            .map(|(f, t)| (Square::new(u32::from(f)), Square::new(u32::from(t))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Square::*;

    fn moves(list: &[(Square, Square)]) -> Moves {
        let mut m = Moves::new();
        m.push(None, true);
        for &s in list {
            m.push(Some(s), false);
        }
        m
    }

    #[test]
    fn knights_back_and_forth_close_after_four_plies() {
        let m = moves(&[(G1, F3), (G8, F6), (F3, G1), (F6, G8)]);
        assert_eq!(m.scan(usize::MAX).closed_after, Some(4));
        assert!(m.repetition());
        let m = moves(&[(G1, F3), (G8, F6), (F3, G1)]);
        assert!(!m.repetition());
    }

    #[test]
    fn an_irreversible_move_ends_the_scan() {
        let mut m = moves(&[(G1, F3), (G8, F6)]);
        m.push(Some((E2, E4)), true);
        for s in [(F3, G1), (F6, G8)] {
            m.push(Some(s), false);
        }
        // The knights are back on g1 and g8, but the moves that closed their chains
        // (G1-F3, G8-F6) came before the pawn move: no repetition (nor is it one).
        assert_eq!(m.scan(usize::MAX).closed_after, None);
        assert!(!m.repetition());
        // Shuffling after the pawn move closes the chains again.
        for s in [(G1, F3), (G8, F6)] {
            m.push(Some(s), false);
        }
        assert!(m.repetition());
    }

    #[test]
    fn a_full_chain_list_gives_up() {
        let mut list = Vec::new();
        // 25 distinct chains (never closing) fill the 24 slots.
        for i in 0..25u32 {
            list.push((Square::new(i), Square::new(i + 32)));
        }
        let m = moves(&list);
        assert_eq!(m.scan(usize::MAX).plies, 25);
        assert_eq!(m.open_chains(25).len(), 25);
    }
}
