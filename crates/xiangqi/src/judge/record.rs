//! The paper's `position_history`: a game's positions with the moves that reached them, their
//! statuses computed lazily (or eagerly, for comparison) and the earlier occurrences of every
//! position kept as the moves are pushed.

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::threats::{
    Attack, EntryStatus, Threats, detect_block, get_chases, new_threats, threats_of_side_to_move,
};
use crate::board::{Move, Position};

/// When chase information is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChaseMode {
    /// Only for the entries a ruling looks at, when it looks (the paper's
    /// lazy computation), cached.
    Lazy,
    /// For every entry as soon as its reply is known.
    Eager,
}

/// A hasher for position keys, which are Zobrist keys (random bits) already.
#[derive(Clone, Copy, Debug, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// The occurrences of the positions of a record's first plies: for each ply the previous
/// ply where its position stood within its stretch (no capture or pawn advance since), so
/// the earlier occurrences of any ply are a chain of exactly those plies and their number is
/// stored. Adding a ply is one hash-map insertion, taking it back one restoration: no scan
/// of the game, however long.
#[derive(Clone, Debug, Default)]
struct Occurrences {
    /// `previous[k]`: the latest earlier ply with position `k`'s key, if it is in `k`'s stretch.
    previous: Vec<Option<usize>>,
    /// `count[k]`: how many times position `k` stood before in its stretch.
    count: Vec<usize>,
    /// `stretch[k]`: the ply of the last irreversible move up to `k` (0 without one).
    stretch: Vec<usize>,
    /// The latest ply holding each key, for plies of each parity (the side to move).
    latest: [HashMap<u64, usize, BuildHasherDefault<KeyHasher>>; 2],
    /// `shadowed[k]`: the ply `latest` held for position `k`'s key before `k`, restored when
    /// `k` is popped.
    shadowed: Vec<Option<usize>>,
}

impl Occurrences {
    /// How many plies are indexed (from ply 0).
    fn len(&self) -> usize {
        self.previous.len()
    }

    /// Position `k` (the next ply) with `key`, reached by an irreversible move or not.
    fn push(&mut self, key: u64, irreversible: bool) {
        let k = self.previous.len();
        let stretch = match self.stretch.last() {
            Some(&s) if !irreversible => s,
            _ => k,
        };
        let shadowed = self.latest[k % 2].insert(key, k);
        let previous = shadowed.filter(|&p| p >= stretch);
        self.count.push(previous.map_or(0, |p| self.count[p] + 1));
        self.previous.push(previous);
        self.stretch.push(stretch);
        self.shadowed.push(shadowed);
    }

    /// Forgets the last ply, whose position had `key`.
    fn pop(&mut self, key: u64) {
        let k = self.previous.len() - 1;
        match self.shadowed.pop().expect("a ply to pop") {
            Some(p) => self.latest[k % 2].insert(key, p),
            None => self.latest[k % 2].remove(&key),
        };
        self.previous.pop();
        self.count.pop();
        self.stretch.pop();
    }
}

/// The position history of a game: the paper's `position_history`.
///
/// Entry `k` is the position after `k` moves with the move that reached it.
/// A move's status is computed from the position before it, the position
/// it reached and the opponent's reply, so it is known once the reply is.
#[derive(Clone, Debug)]
pub struct Record {
    mode: ChaseMode,
    pub(super) positions: Vec<Position>,
    /// The earlier occurrences of the positions of the first plies: brought up to a ply when
    /// its occurrences are asked for, taken back with the plies popped. (A search pushes and
    /// pops far more plies than it asks about: it asks only where its keys saw a repetition.)
    occurrences: RefCell<Occurrences>,
    /// Earlier occurrences looked up so far (the work of [`Record::occurrences`], which
    /// `occurrence_lookups` reports): one per occurrence found, never a scan of the game.
    looked_up: Cell<u64>,
    /// `moves[k - 1]` reached position `k`.
    pub(super) moves: Vec<Move>,
    /// `irreversible[k]`: the move that reached position `k` was a capture or
    /// a pawn's advance (the paper's cancel). False for the start.
    irreversible: Vec<bool>,
    /// The side to move at position `k` is in check.
    check: Vec<bool>,
    /// `get_chases` of position `k`: what the side that just moved threatens.
    threats: Vec<OnceCell<Threats>>,
    /// What the side to move at position `k` threatens before it moves.
    before: Vec<OnceCell<Threats>>,
    /// Status of the move that reached position `k`, given the reply `k + 1`.
    status: Vec<OnceCell<EntryStatus>>,
}

impl Record {
    /// A game from `start`, computing chase information lazily.
    pub fn new(start: Position) -> Record {
        Record::with_mode(start, ChaseMode::Lazy)
    }

    pub fn with_mode(start: Position, mode: ChaseMode) -> Record {
        let check = start.in_check();
        let r = Record {
            mode,
            occurrences: RefCell::default(),
            looked_up: Cell::new(0),
            positions: vec![start],
            moves: Vec::new(),
            irreversible: vec![false],
            check: vec![check],
            threats: vec![OnceCell::new()],
            before: vec![OnceCell::new()],
            status: vec![OnceCell::new()],
        };
        if mode == ChaseMode::Eager {
            r.before_at(0);
        }
        r
    }

    /// Number of moves played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The position after `ply` moves.
    pub fn position(&self, ply: usize) -> &Position {
        &self.positions[ply]
    }

    /// The current position.
    pub fn current(&self) -> &Position {
        self.positions.last().expect("never empty")
    }

    /// The move that reached position `ply` (1-based).
    pub fn move_at(&self, ply: usize) -> Move {
        self.moves[ply - 1]
    }

    /// Whether the move that reached position `ply` was irreversible.
    pub fn irreversible(&self, ply: usize) -> bool {
        self.irreversible[ply]
    }

    /// Whether position `ply` has its side to move in check.
    pub fn in_check_at(&self, ply: usize) -> bool {
        self.check[ply]
    }

    /// Plays a move, which must be legal (see [`crate::notation::parse_move`]).
    pub fn push(&mut self, m: Move) {
        let prev = self.current();
        debug_assert!(prev.legal_moves().contains(m), "illegal move {m}");
        let irreversible = prev.is_capture(m) || prev.is_pawn_advance(m);
        let mut next = prev.clone();
        next.make(m);
        let check = next.in_check();
        self.push_made(m, next, irreversible, check);
    }

    /// Plays the legal move `m` whose result the caller has made already (a search): `next`
    /// is the current position after `m`, `irreversible` whether `m` captured or advanced a
    /// pawn, `check` whether `next` has its side to move in check. The same entry as
    /// [`Record::push`] makes, without computing again what the caller knows.
    pub fn push_made(&mut self, m: Move, next: Position, irreversible: bool, check: bool) {
        debug_assert_eq!(
            next.key(),
            self.current().key_after(m),
            "{m} does not reach next"
        );
        self.check.push(check);
        self.positions.push(next);
        self.moves.push(m);
        self.irreversible.push(irreversible);
        self.threats.push(OnceCell::new());
        self.before.push(OnceCell::new());
        self.status.push(OnceCell::new());
        if self.mode == ChaseMode::Eager {
            let n = self.ply();
            if n >= 2 {
                self.status_at(n - 1);
            }
            self.threats_at(n);
            self.before_at(n);
        }
    }

    /// A search's null move: the side to move passes. Recorded as irreversible (a cancel), so
    /// no repetition is judged across it; its move is the king standing still, which no
    /// judged span contains.
    pub fn push_null(&mut self) {
        let prev = self.current();
        let side = prev.side_to_move();
        let king = prev.king(side);
        let next = prev.with_side_flipped();
        let check = next.in_check();
        self.check.push(check);
        self.positions.push(next);
        self.moves.push(Move::new(king, king));
        self.irreversible.push(true);
        self.threats.push(OnceCell::new());
        self.before.push(OnceCell::new());
        self.status.push(OnceCell::new());
    }

    /// Takes back the last move (a search's unmake); the start position stays. The statuses
    /// cached for the earlier entries stay valid: an entry's status depends only on the
    /// positions up to its reply, which are kept, except the last remaining entry's, whose
    /// reply is gone and which is forgotten.
    pub fn pop(&mut self) {
        if self.moves.is_empty() {
            return;
        }
        self.check.pop();
        let gone = self.positions.pop().expect("a move to take back");
        let index = self.occurrences.get_mut();
        if index.len() > self.positions.len() {
            index.pop(gone.key());
        }
        self.moves.pop();
        self.irreversible.pop();
        self.threats.pop();
        self.before.pop();
        self.status.pop();
        // The new last entry's status was computed with the reply just taken back.
        if let Some(s) = self.status.last_mut() {
            s.take();
        }
    }

    /// `get_chases` of position `k`, cached.
    fn threats_at(&self, k: usize) -> &Threats {
        self.threats[k].get_or_init(|| {
            if self.check[k] {
                Threats::default()
            } else {
                get_chases(&self.positions[k])
            }
        })
    }

    /// The side to move's threats at position `k` (before it moves), cached.
    fn before_at(&self, k: usize) -> &Threats {
        self.before[k].get_or_init(|| threats_of_side_to_move(&self.positions[k]))
    }

    /// The status of move `ply` (1-based) given the reply `reply` that
    /// leads to `after`, and `after`'s own threats for explaining.
    pub(super) fn move_status(&self, ply: usize, reply: Move, after: usize) -> EntryStatus {
        let at = &self.positions[ply];
        if self.check[ply] {
            return detect_block(at, &Threats::default(), &[], reply, at, Threats::default);
        }
        // The position after the reply is `after`'s, whether `after` is
        // ply + 1 or (for the last move) the entry after the earlier
        // occurrence of the same position.
        let (new, old) = new_threats(
            self.before_at(ply - 1),
            self.moves[ply - 1],
            self.threats_at(ply),
        );
        detect_block(at, &new, &old, reply, &self.positions[after], || {
            self.threats_at(after).clone()
        })
    }

    /// The status of move `ply` (1-based, `ply < self.ply()`): its reply is known.
    pub fn status_at(&self, ply: usize) -> &EntryStatus {
        assert!(
            (1..self.ply()).contains(&ply),
            "move {ply} has no reply yet"
        );
        self.status[ply].get_or_init(|| self.move_status(ply, self.moves[ply], ply + 1))
    }

    /// What the move that reached position `ply` threatens, before the reply
    /// says whether the threats are answered: (new threats, old ones).
    pub fn threats_made(&self, ply: usize) -> (Threats, Vec<Attack>) {
        if ply == 0 || self.check[ply] {
            return (Threats::default(), Vec::new());
        }
        new_threats(
            self.before_at(ply - 1),
            self.moves[ply - 1],
            self.threats_at(ply),
        )
    }

    /// Earlier plies (most recent first) at which the position of ply `n`
    /// stood, within the stretch since the last irreversible move: the one
    /// list every list of occurrences uses. Each ply it yields is one step
    /// along a chain kept as the moves were pushed, never a scan of the game.
    pub fn occurrences(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.index_to(n);
        let previous = move |k: usize| self.occurrences.borrow().previous[k];
        std::iter::successors(previous(n), move |&k| previous(k))
            .inspect(move |_| self.looked_up.set(self.looked_up.get() + 1))
    }

    /// How many times the position of ply `n` stood before within its stretch: the length of
    /// [`Record::occurrences`], kept as the moves were pushed.
    pub fn occurrence_count(&self, n: usize) -> usize {
        self.index_to(n);
        self.occurrences.borrow().count[n]
    }

    /// Brings the index of occurrences up to ply `n`: the plies pushed since it was last
    /// asked, one insertion each.
    fn index_to(&self, n: usize) {
        let mut index = self.occurrences.borrow_mut();
        for k in index.len()..=n {
            index.push(self.positions[k].key(), self.irreversible[k]);
        }
    }

    /// How many earlier occurrences [`Record::occurrences`] has yielded so far: the work of
    /// looking repetitions up, which grows with the occurrences found and not with the
    /// length of the game (tests read it).
    pub fn occurrence_lookups(&self) -> u64 {
        self.looked_up.get()
    }

    /// All of [`Record::occurrences`], collected.
    pub fn earlier_occurrences(&self, n: usize) -> Vec<usize> {
        self.occurrences(n).collect()
    }
}
