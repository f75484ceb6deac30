//! Upcoming repetitions: does the side to move have a move that returns to a position of the
//! current reversible stretch? Marcel van Kervinck's idea ("Upcoming repetition detection",
//! OpenChess forum, 6 April 2013, reference 15 of the chessprogramming wiki's page
//! "Repetitions", <https://www.chessprogramming.org/Repetitions>), as Stockfish uses it in
//! `Position::upcoming_repetition` (formerly `has_game_cycle`): a node whose side to move can
//! reach a draw by repetition is worth at least a draw.
//!
//! # The idea
//!
//! A reversible move changes the Zobrist key by `Z[piece][from] ^ Z[piece][to] ^ Z[side]`,
//! whatever else stands on the board. So the current position `P` can go back to an earlier
//! position `Q` (same side to move as after a move: an odd number of plies back) in one move
//! exactly when `key(P) ^ key(Q)` is the key difference of some reversible move, that move's
//! path is free, and the piece on its square belongs to the side to move. There are only
//! 3668 such differences (a knight, bishop, rook, queen or king of either colour, between two
//! squares it attacks on an empty board, each pair of squares once): `key(P) ^ key(Q)` is
//! looked up in a table of those, instead of generating and trying every move.
//!
//! # The cuckoo table
//!
//! The 3668 differences live in a cuckoo hash table of 8192 slots with two hash functions,
//! `h1 = bits 0..13` and `h2 = bits 16..29` of the difference: every difference sits in one
//! of its two slots, so a lookup is two probes and never a miss that needs a chain. It is
//! built by insertion with eviction: a new difference takes its `h1` slot; whatever was there
//! moves to its *other* slot, evicting again, until an empty slot is found. (Pagh and
//! Rodler's cuckoo hashing; with a load of 45 % the chain of evictions is short and ends.)
//! Each slot also holds the two squares of the move.
//!
//! # The scan
//!
//! For `i = 3, 5, 7, ...` plies back, within the stretch since the last irreversible move
//! (or null move), the difference with the key `i` plies back is looked up; on a hit, the
//! squares between the move's two squares must be empty, one of them must hold a piece of the
//! side to move and the other be empty. What counts as found is the caller's rule
//! ([`find`] takes it): the command line shows every such move, the search counts one only
//! when reaching the earlier position would be scored a draw (see
//! [`super::Tracker::upcoming`]).
//!
//! A difference that matches by chance (two positions that differ by more but whose keys
//! differ by a move's difference) would be a false answer: one chance in about 2^64 / 3668
//! per comparison.

use std::sync::OnceLock;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Board, Color, Piece, Role, Square, attacks};

use crate::search::keys::KeyHistory;

/// Slots of the table.
const SLOTS: usize = 8192;

/// Number of reversible-move key differences.
pub const MOVES: usize = 3668;

/// The cuckoo table of reversible moves' key differences.
pub struct Table {
    keys: Box<[u64; SLOTS]>,
    /// `from | to << 8` of the move in the slot (0xffff: empty).
    squares: Box<[u16; SLOTS]>,
    /// Differences stored.
    pub len: usize,
}

#[inline(always)]
fn h1(d: u64) -> usize {
    (d & 0x1fff) as usize
}

#[inline(always)]
fn h2(d: u64) -> usize {
    ((d >> 16) & 0x1fff) as usize
}

/// The key difference of a reversible move of `piece` between `a` and `b`.
pub fn move_difference(piece: Piece, a: Square, b: Square) -> u64 {
    Zobrist64::zobrist_for_piece(a, piece).0
        ^ Zobrist64::zobrist_for_piece(b, piece).0
        ^ Zobrist64::zobrist_for_white_turn().0
}

impl Table {
    fn build() -> Table {
        let mut t = Table {
            keys: Box::new([0; SLOTS]),
            squares: Box::new([0xffff; SLOTS]),
            len: 0,
        };
        for color in Color::ALL {
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                let piece = role.of(color);
                for a in Square::ALL {
                    for b in attacks::attacks(a, piece, shakmaty::Bitboard::EMPTY) {
                        if b > a {
                            t.insert(move_difference(piece, a, b), a, b);
                        }
                    }
                }
            }
        }
        t
    }

    fn insert(&mut self, mut d: u64, a: Square, b: Square) {
        let mut sq = a as u16 | (b as u16) << 8;
        let mut i = h1(d);
        loop {
            std::mem::swap(&mut self.keys[i], &mut d);
            std::mem::swap(&mut self.squares[i], &mut sq);
            if sq == 0xffff {
                break;
            }
            i = if i == h1(d) { h2(d) } else { h1(d) };
        }
        self.len += 1;
    }

    /// The squares of the reversible move whose key difference is `d`, if there is one.
    #[inline(always)]
    pub fn lookup(&self, d: u64) -> Option<(Square, Square)> {
        let i = if self.keys[h1(d)] == d {
            h1(d)
        } else if self.keys[h2(d)] == d {
            h2(d)
        } else {
            return None;
        };
        let s = self.squares[i];
        Some((
            Square::new(u32::from(s & 0xff)),
            Square::new(u32::from(s >> 8)),
        ))
    }
}

/// The table, built on first use.
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(Table::build)
}

/// A move back to an earlier position of the stretch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Plies back from the current position to the one the move reaches.
    pub back: usize,
    /// Index of that position in the history.
    pub index: usize,
    /// The move's squares: origin, then target.
    pub from: Square,
    pub to: Square,
}

/// The first move of `turn` on `board` (the position of the history's last entry) that
/// reaches a position of the stretch which `accept(index, plies back)` takes.
#[inline]
pub fn find(
    keys: &KeyHistory,
    board: &Board,
    turn: Color,
    mut accept: impl FnMut(usize, usize) -> bool,
) -> Option<Cycle> {
    let cur = keys.len().checked_sub(1)?;
    let start = keys.stretch_start();
    if cur < start + 3 {
        return None;
    }
    scan(table(), keys, cur, start, board, turn, &mut accept)
}

#[inline(never)]
fn scan(
    t: &Table,
    keys: &KeyHistory,
    cur: usize,
    start: usize,
    board: &Board,
    turn: Color,
    accept: &mut dyn FnMut(usize, usize) -> bool,
) -> Option<Cycle> {
    let key = keys.key_at(cur);
    let occupied = board.occupied();
    let mut back = 3;
    while back <= cur - start {
        let index = cur - back;
        if let Some((a, b)) = t.lookup(key ^ keys.key_at(index))
            && (attacks::between(a, b) & occupied).is_empty()
        {
            let (from, to) = if occupied.contains(a) { (a, b) } else { (b, a) };
            if !occupied.contains(to) && board.color_at(from) == Some(turn) && accept(index, back) {
                return Some(Cycle {
                    back,
                    index,
                    from,
                    to,
                });
            }
        }
        back += 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reversible_move_difference_is_stored_once() {
        let t = table();
        assert_eq!(t.len, MOVES);
        // Each one is found, with its squares, in either direction.
        let p = Role::Knight.of(Color::Black);
        let d = move_difference(p, Square::G8, Square::F6);
        assert_eq!(t.lookup(d), Some((Square::F6, Square::G8)));
        assert_eq!(d, move_difference(p, Square::F6, Square::G8), "symmetric");
        assert_eq!(t.lookup(d ^ 1), None);
        let stored = t.squares.iter().filter(|&&s| s != 0xffff).count();
        assert_eq!(stored, MOVES);
    }
}
