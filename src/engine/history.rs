//! Repetition detection with a list of keys, as in John Stanback's Zarkov (seed 000,
//! "Repetitions", section "List of Keys").
//!
//! The list holds the Zobrist key of every position of the game (from the start position
//! given to the engine, through every move the GUI sent) and of the current search line,
//! together with, for each entry, the index of the position that followed the last
//! irreversible move (a capture, a pawn move, a move that loses castling rights, or one that
//! cedes an en passant capture: shakmaty's `Position::is_irreversible`). Positions before that
//! point can never occur again.
//!
//! At every node, quiescence included, [`KeyHistory::repetition`]:
//! - does nothing unless the current ply is at least 4 plies beyond the last irreversible
//!   move (so most nodes pay nothing: "the repetition() function is rarely called");
//! - otherwise compares the current key with the keys of the same side to move (every second
//!   entry: `cur-2, cur-4, ...`) back to the last irreversible move and counts the matches;
//! - a count of 2 means this is the third occurrence: a draw;
//! - a count of 1 is a draw only if the current ply is more than 2 plies beyond the root
//!   (`cur > root + 2`). So a position that occurred once before the root and is reached again
//!   in the first two plies of the search is *not* scored as a draw (the opponent may vary),
//!   while repetitions inside the search tree are cut off at once, which keeps the tree a DAG.
//!
//! The null move of the search is recorded as irreversible: no repetition spans it.
//!
//! The draw value itself (0 adjusted by the `Contempt` option) is applied by the search.

/// What the scan found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// No draw: search on.
    None,
    /// Draw by repetition (third occurrence, or a repetition inside the search).
    Draw,
}

/// Keys of the game and the search line, with the last irreversible move per entry.
#[derive(Clone, Debug, Default)]
pub struct KeyHistory {
    keys: Vec<u64>,
    /// `reset[i]`: index of the first position after the last irreversible move, as seen
    /// from position `i` (positions before it cannot repeat position `i`).
    reset: Vec<u32>,
    /// Index of the root position of the current search.
    root: usize,
}

impl KeyHistory {
    /// An empty history.
    pub fn new() -> KeyHistory {
        KeyHistory {
            keys: Vec::with_capacity(1024),
            reset: Vec::with_capacity(1024),
            root: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.reset.clear();
        self.root = 0;
    }

    /// Appends a position reached by a move (`irreversible`: the move that led here was
    /// irreversible). The first position pushed is the game's start position.
    #[inline(always)]
    pub fn push(&mut self, key: u64, irreversible: bool) {
        let i = self.keys.len() as u32;
        let r = if irreversible || i == 0 {
            i
        } else {
            self.reset[i as usize - 1]
        };
        self.keys.push(key);
        self.reset.push(r);
    }

    /// Removes the last position (unmake).
    #[inline(always)]
    pub fn pop(&mut self) {
        self.keys.pop();
        self.reset.pop();
    }

    /// Marks the current last position as the root of the search.
    pub fn set_root(&mut self) {
        self.root = self.keys.len().saturating_sub(1);
    }

    /// Number of stored positions.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// True when no position is stored.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Zarkov's test for the last pushed position.
    #[inline(always)]
    pub fn repetition(&self) -> Repetition {
        let cur = self.keys.len().wrapping_sub(1);
        let Some(&reset) = self.reset.get(cur) else {
            return Repetition::None;
        };
        let reset = reset as usize;
        if cur < reset + 4 {
            return Repetition::None;
        }
        self.scan(cur, reset)
    }

    #[inline(never)]
    fn scan(&self, cur: usize, reset: usize) -> Repetition {
        let key = self.keys[cur];
        let mut count = 0;
        let mut i = cur - 2;
        loop {
            if self.keys[i] == key {
                count += 1;
                if count == 2 {
                    return Repetition::Draw;
                }
            }
            if i < reset + 2 {
                break;
            }
            i -= 2;
        }
        if count == 1 && cur > self.root + 2 {
            Repetition::Draw
        } else {
            Repetition::None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(keys: &[u64], root: usize) -> KeyHistory {
        let mut h = KeyHistory::new();
        for &k in &keys[..=root] {
            h.push(k, false);
        }
        h.set_root();
        for &k in &keys[root + 1..] {
            h.push(k, false);
        }
        h
    }

    #[test]
    fn third_occurrence_is_a_draw_anywhere() {
        // A B C D A B C D A: the last A is the third occurrence.
        let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1];
        assert_eq!(hist(&keys, 8).repetition(), Repetition::Draw);
    }

    #[test]
    fn twofold_before_root_not_a_draw_in_first_two_plies() {
        // Root at index 3; A occurred at 0, recurs at 4 (ply 1) and at... only once before.
        let keys = [1, 2, 3, 4, 1];
        assert_eq!(hist(&keys, 3).repetition(), Repetition::None);
        let keys = [1, 2, 3, 4, 5, 2];
        // index 5 = root+2 repeats index 1 (before root): still not a draw.
        assert_eq!(hist(&keys, 3).repetition(), Repetition::None);
        // Beyond root + 2 it is.
        let keys = [1, 2, 3, 4, 5, 6, 3];
        assert_eq!(hist(&keys, 3).repetition(), Repetition::Draw);
    }

    #[test]
    fn twofold_inside_search_is_a_draw() {
        let keys = [9, 1, 2, 3, 4, 1];
        assert_eq!(hist(&keys, 0).repetition(), Repetition::Draw);
    }

    #[test]
    fn only_same_side_to_move_compared() {
        // Key 1 at odd distance does not count.
        let keys = [1, 2, 3, 4, 5, 6, 7, 1];
        assert_eq!(hist(&keys, 0).repetition(), Repetition::None);
    }

    #[test]
    fn irreversible_move_cuts_the_scan() {
        let mut h = KeyHistory::new();
        h.push(1, false);
        h.push(2, false);
        h.push(3, true); // capture: positions 0, 1 can no longer repeat
        h.push(4, false);
        h.push(5, false);
        h.push(6, false);
        h.set_root();
        h.push(1, false);
        assert_eq!(h.repetition(), Repetition::None);
        h.pop();
        h.push(3, false);
        h.push(4, false);
        h.push(3, false); // cur = 8, matches 6? no: keys[6]=3 (first push), keys[2]=3
        assert_eq!(h.repetition(), Repetition::Draw);
    }

    #[test]
    fn fewer_than_four_plies_since_reset_no_scan() {
        let mut h = KeyHistory::new();
        h.push(1, false);
        h.push(2, false);
        h.push(1, false);
        h.set_root();
        assert_eq!(h.repetition(), Repetition::None);
    }
}
