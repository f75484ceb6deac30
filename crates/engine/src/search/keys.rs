//! The key history of the search, for both games: the list of keys of the game and the search
//! line, with Zarkov's repetition scan. Chess's detectors ([`crate::chess::repetition`]) use it
//! as their default and as the data of the cuckoo scan and Rookie's back-trace; xiangqi's
//! judge ([`crate::xiangqi`]) asks it where a repetition is before it rules.
//!
//! Repetition detection with a list of keys, as in John Stanback's Zarkov: his post "Draw by
//! Repetition Code" (rec.games.chess.computer, 31 December 1996), quoted in the section "List
//! of Keys" of the chessprogramming wiki's page "Repetitions"
//! (<https://www.chessprogramming.org/Repetitions>).
//!
//! The list holds the Zobrist key of every position of the game (from the start position
//! given to the engine, through every move the GUI sent) and of the current search line,
//! together with, for each entry, the index of the position that followed the last
//! irreversible move (a capture, a pawn move, a move that loses castling rights, or one that
//! cedes an en passant capture: shakmaty's `Position::is_irreversible`; in xiangqi a capture or
//! a pawn's advance). Positions before that point can never occur again.
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
//! The null move of the search is recorded as irreversible ([`KeyHistory::push_null_move`]):
//! no repetition spans it.
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

/// Where a repetition draw comes from ([`KeyHistory::draw_origin`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawOrigin {
    /// The position stood twice in the game already: a draw whatever the path.
    Game,
    /// A repetition that needs the search path: the plies of the earliest and the nearest
    /// earlier occurrence, from the root (negative: in the game before the root).
    Tree { earliest: i32, nearest: i32 },
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

    /// The key of the last pushed position.
    pub fn last_key(&self) -> Option<u64> {
        self.keys.last().copied()
    }

    /// True when no position is stored.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Appends the position after a null move of the search. It is recorded as irreversible:
    /// no repetition spans a null move (the side to move changed without a move, so the
    /// positions before it are not the same game).
    #[inline(always)]
    pub fn push_null_move(&mut self, key: u64) {
        self.push(key, true);
    }

    /// Zarkov's test for the last pushed position.
    #[inline(always)]
    pub fn repetition(&self) -> Repetition {
        match self.scan_bounds() {
            Some((cur, reset)) => self.scan(cur, reset),
            None => Repetition::None,
        }
    }

    /// How many times the last pushed position has occurred, itself included, as far as the
    /// scan can see: back to the position after the last irreversible move. 0 when empty.
    /// The search only asks [`KeyHistory::repetition`]; this count is for tests and tools.
    pub fn occurrences(&self) -> u32 {
        match self.scan_bounds() {
            Some((cur, reset)) => 1 + self.count_back(cur, reset, u32::MAX),
            None => u32::from(!self.keys.is_empty()),
        }
    }

    /// Where the repetition draw of the last pushed position comes from, for the shadow score
    /// ([`crate::shadow`]); `None` when [`KeyHistory::repetition`] finds no draw (this never
    /// decides *whether* a repetition counts: that is Zarkov's rule above, asked first).
    ///
    /// [`DrawOrigin::Game`] when at least two earlier occurrences lie in the game itself (at or
    /// before the root): a draw on every path through the search. Otherwise
    /// [`DrawOrigin::Tree`], with the plies (from the root, negative before it) of the earliest
    /// and of the nearest earlier occurrence.
    pub fn draw_origin(&self) -> Option<DrawOrigin> {
        if self.repetition() != Repetition::Draw {
            return None;
        }
        let (cur, reset) = self.scan_bounds()?;
        let key = self.keys[cur];
        let (mut in_game, mut earliest, mut nearest) = (0, None, None);
        let mut i = cur - 2;
        loop {
            if self.keys[i] == key {
                in_game += u32::from(i <= self.root);
                earliest = Some(i);
                nearest = nearest.or(Some(i));
            }
            if i < reset + 2 {
                break;
            }
            i -= 2;
        }
        let ply = |i: usize| i as i32 - self.root as i32;
        Some(if in_game >= 2 {
            DrawOrigin::Game
        } else {
            DrawOrigin::Tree {
                earliest: ply(earliest?),
                nearest: ply(nearest?),
            }
        })
    }

    /// The key `ply` plies from the root (negative: before it), if stored.
    pub fn key_at_ply(&self, ply: i32) -> Option<u64> {
        let i = usize::try_from(self.root as i64 + i64::from(ply)).ok()?;
        self.keys.get(i).copied()
    }

    /// Whether `key` stands anywhere on the current line: the game and the search path.
    pub fn on_path(&self, key: u64) -> bool {
        self.keys.contains(&key)
    }

    /// The last entry and the first one after the last irreversible move, when the scan has
    /// anything to compare: a position cannot recur in fewer than 4 plies.
    #[inline(always)]
    fn scan_bounds(&self) -> Option<(usize, usize)> {
        let cur = self.keys.len().wrapping_sub(1);
        let reset = *self.reset.get(cur)? as usize;
        (cur >= reset + 4).then_some((cur, reset))
    }

    #[inline(never)]
    fn scan(&self, cur: usize, reset: usize) -> Repetition {
        self.rule(cur, self.count_back(cur, reset, 2))
    }

    /// Zarkov's rule on the count of earlier occurrences of entry `cur`.
    #[inline(always)]
    fn rule(&self, cur: usize, earlier: u32) -> Repetition {
        match earlier {
            2 => Repetition::Draw,
            1 if cur > self.root + 2 => Repetition::Draw,
            _ => Repetition::None,
        }
    }

    /// The scan of [`KeyHistory::repetition`], also returning how many earlier occurrences
    /// it found (0, 1, or 2 = two or more). Rookie's verifying back-trace
    /// ([`crate::chess::repetition::rookie`]) is this scan.
    #[inline]
    pub fn back_trace(&self) -> (u32, Repetition) {
        match self.scan_bounds() {
            Some((cur, reset)) => {
                let earlier = self.count_back(cur, reset, 2);
                (earlier, self.rule(cur, earlier))
            }
            None => (0, Repetition::None),
        }
    }

    /// Index of the root position of the search.
    pub fn root(&self) -> usize {
        self.root
    }

    /// The key of entry `i` (0 = the game's start position).
    #[inline(always)]
    pub fn key_at(&self, i: usize) -> u64 {
        self.keys[i]
    }

    /// Index of the first entry of the last entry's reversible stretch: the position after
    /// the last irreversible move (or null move), or the start position. 0 when empty.
    #[inline(always)]
    pub fn stretch_start(&self) -> usize {
        self.reset.last().map_or(0, |&r| r as usize)
    }

    /// Whether the position of entry `i` occurred before it in its reversible stretch.
    pub fn occurred_before(&self, i: usize) -> bool {
        let reset = self.reset[i] as usize;
        i >= reset + 4 && self.count_back(i, reset, 1) == 1
    }

    /// Earlier entries with the key of entry `cur` and the same side to move (`cur-2, cur-4,
    /// ...`, down to `reset`), counting up to `enough`.
    #[inline(always)]
    fn count_back(&self, cur: usize, reset: usize, enough: u32) -> u32 {
        let key = self.keys[cur];
        let mut count = 0;
        let mut i = cur - 2;
        loop {
            if self.keys[i] == key {
                count += 1;
                if count == enough {
                    break;
                }
            }
            if i < reset + 2 {
                break;
            }
            i -= 2;
        }
        count
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
        // Key 1 stands at 0 and 4, then an irreversible move leads to 6; at 10 key 1 stands
        // again, with the same side to move. The scan stops at 6: 0 and 4 are not seen.
        let mut h = KeyHistory::new();
        for k in [1, 2, 3, 4, 1, 2] {
            h.push(k, false);
        }
        h.push(7, true);
        h.set_root();
        for k in [8, 9, 10] {
            h.push(k, false);
        }
        h.push(1, false);
        assert_eq!(h.occurrences(), 1);
        assert_eq!(h.repetition(), Repetition::None);
        // The position right after the irreversible move is the first one the scan sees.
        h.pop();
        h.push(7, false);
        assert_eq!(h.occurrences(), 2);
        assert_eq!(
            h.repetition(),
            Repetition::Draw,
            "a repetition inside the search"
        );
    }

    #[test]
    fn no_repetition_spans_a_null_move() {
        // Key 1 at 0 and 4; a null move at 5; key 1 again at 10 (same parity): not seen.
        let mut h = KeyHistory::new();
        for k in [1, 2, 3, 4, 1] {
            h.push(k, false);
        }
        h.set_root();
        h.push_null_move(5);
        for k in [6, 7, 8, 9] {
            h.push(k, false);
        }
        h.push(1, false);
        assert_eq!(h.occurrences(), 1);
        assert_eq!(h.repetition(), Repetition::None);
        // Undoing the null move (and the line after it) brings the game's count back.
        for _ in 0..6 {
            h.pop();
        }
        assert_eq!(h.occurrences(), 2);
    }

    #[test]
    fn draw_origin_tells_game_draws_from_path_draws() {
        // A at 0 and 4 (both in the game), root at 6, A again at 8: the game's double.
        let keys = [1, 2, 3, 4, 1, 2, 3, 4, 1];
        assert_eq!(hist(&keys, 6).draw_origin(), Some(DrawOrigin::Game));
        // Root at 3: A at 0 (game) and 4 (tree), then 8: the path's.
        assert_eq!(
            hist(&keys, 3).draw_origin(),
            Some(DrawOrigin::Tree {
                earliest: -3,
                nearest: 1
            })
        );
        // A two-fold inside the tree.
        let keys = [9, 1, 2, 3, 4, 1];
        assert_eq!(
            hist(&keys, 0).draw_origin(),
            Some(DrawOrigin::Tree {
                earliest: 1,
                nearest: 1
            })
        );
        // No draw, no origin (the two-fold before the root, reached at ply 1).
        assert_eq!(hist(&[1, 2, 3, 4, 1], 3).draw_origin(), None);
        let h = hist(&[1, 2, 3, 4, 1], 3);
        assert_eq!(h.key_at_ply(-3), Some(1));
        assert_eq!(h.key_at_ply(2), None);
        assert!(h.on_path(4) && !h.on_path(5));
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
