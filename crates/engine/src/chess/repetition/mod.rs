//! Five ways to detect a repetition, side by side: the four of the chessprogramming wiki's
//! page "Repetitions" (<https://www.chessprogramming.org/Repetitions>) and the upcoming
//! repetition of its reference 15.
//!
//! | detector | data | answers | fails |
//! |---|---|---|---|
//! | [`Zarkov`] ([`crate::search::keys`]) | list of keys | earlier occurrences, exact | never (walks the stretch) |
//! | [`Belle`] ([`belle`]) | an open flag in the transposition table | "open entry found" | misses a position whose slot another open position holds |
//! | [`Rookie`] ([`rookie`]) | 2^14 one-byte counters + the list of keys | counter hit, then a verified count | never (false hits cost a back-trace) |
//! | [`Axon`] ([`axon`]) | origin and target squares of the moves, no keys | "every chain closed" | triangulation (false), pieces exchanging squares (missed) |
//! | [`Upcoming`] ([`cuckoo`]) | list of keys + a cuckoo table of move differences | a move back into the stretch | never, up to key collisions |
//!
//! Each detector follows the game and the search line, a position at a time
//! ([`Detector::push`] when a move is made, [`Detector::pop`] when it is taken back), and
//! answers for the last position from its own data only: none of them asks the rules core.
//! A move is *irreversible* — it ends the stretch in which a position can recur, and Axon's
//! backward scan — when it is a capture, a pawn move, castling, or a move that removes a
//! castling right; shakmaty's [`Position::is_irreversible`] is that test, used by every
//! detector and by the rules core. (It also marks a move played where an en passant capture
//! was legal: that position cannot recur anyway, since its key holds the capture right, and
//! Axon would otherwise take the position after declining the capture and shuffling back for
//! the one before.) The game's start position ends the stretch too. The position key is the
//! rules core's ([`threefold_rules::key`]).
//!
//! The search does not use the trait: [`Tracker`] holds Zarkov's key list (which the
//! cuckoo scan and Rookie's back-trace read as well) and the data of the chosen
//! [`Method`], and dispatches on the method with a `match` (no call through a vtable in the
//! search's inner loop). Each answer also goes to the search's [`Probe`]
//! ([`crate::probe::Answer`]): the audit and Rookie's hit counts of `threefold-lab` read it
//! there; in the plain search the probe is `()` and nothing of it is compiled.

pub mod axon;
pub mod belle;
pub mod cuckoo;
pub mod report;
pub mod rookie;

use std::fmt;
use std::str::FromStr;

use shakmaty::{Chess, Move, Position, Square};

use crate::probe::{Answer, Probe};
use crate::search::keys::{KeyHistory, Repetition};
use crate::tt::{IndexMapping, OpenSlot, Tt, TtAllocError};
use threefold_rules::key::{play_keyed, position_key};

/// One position entered: its key, and the move that reached it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The position's key ([`threefold_rules::key`]).
    pub key: u64,
    /// Origin and target square of the move (`None`: the start position or a null move).
    pub squares: Option<(Square, Square)>,
    /// The move was irreversible (always true for the start position and a null move).
    pub irreversible: bool,
}

impl Step {
    /// The start position of a game.
    pub fn start(key: u64) -> Step {
        Step {
            key,
            squares: None,
            irreversible: true,
        }
    }

    /// The position reached by `m` from `pos`, whose key is `key`.
    #[inline(always)]
    pub fn by_move(pos: &Chess, m: &Move, key: u64) -> Step {
        Step {
            key,
            squares: m.from().map(|f| (f, m.to())),
            irreversible: pos.is_irreversible(*m),
        }
    }
}

/// Walks a game: `f` gets the start position's step, then each move's, stopping before the
/// first illegal move. Returns the last position.
pub fn replay(start: &Chess, moves: &[Move], mut f: impl FnMut(Step)) -> Chess {
    let mut pos = start.clone();
    let mut key = position_key(&pos);
    f(Step::start(key));
    for m in moves {
        if !pos.is_legal(*m) {
            break;
        }
        let before = pos.clone();
        key = play_keyed(&mut pos, key, *m);
        f(Step::by_move(&before, m, key));
    }
    pos
}

impl KeyHistory {
    /// Records a chess game: `start`, then the position after each move, stopping before the
    /// first illegal move; the last position becomes the root. Returns that position.
    pub fn record_game(&mut self, start: &Chess, moves: &[Move]) -> Chess {
        self.clear();
        let pos = replay(start, moves, |s| self.push(s.key, s.irreversible));
        self.set_root();
        pos
    }
}

/// A repetition detector that follows a game and a line position by position.
pub trait Detector {
    /// What it says about the last position.
    type Answer: Copy + fmt::Debug;
    /// Its name (`zarkov`, `belle`, ...).
    const NAME: &'static str;
    /// Forgets everything.
    fn clear(&mut self);
    /// Enters a position.
    fn push(&mut self, step: Step);
    /// Leaves the last position entered.
    fn pop(&mut self);
    /// The answer for the last position entered, which is `pos`.
    fn answer(&self, pos: &Chess) -> Self::Answer;
}

/// Zarkov's list of keys ([`crate::search::keys`]): how many times the position occurred before,
/// back to the last irreversible move.
#[derive(Clone, Debug, Default)]
pub struct Zarkov(pub KeyHistory);

impl Detector for Zarkov {
    type Answer = u32;
    const NAME: &'static str = "zarkov";
    fn clear(&mut self) {
        self.0.clear();
    }
    fn push(&mut self, step: Step) {
        self.0.push(step.key, step.irreversible);
    }
    fn pop(&mut self) {
        self.0.pop();
    }
    fn answer(&self, _: &Chess) -> u32 {
        self.0.occurrences().saturating_sub(1)
    }
}

/// Belle's open flags in a Rival table of its own ([`belle`]).
pub struct Belle {
    /// The table that holds the flags.
    pub tt: Tt,
    /// The marks of the positions entered.
    pub marks: belle::Marks,
}

impl Belle {
    /// With a table of `entries` slots (few slots show the shared-slot losses).
    pub fn with_entries(entries: usize) -> Belle {
        Belle {
            tt: Tt::with_entries(entries, IndexMapping::Multiply),
            marks: belle::Marks::new(),
        }
    }

    /// With a table of `slots` slots a user asked for (`threefold detectors --belle-slots`):
    /// refused as a `Hash` of that size would be ([`crate::tt::check_slots`]), and backed by
    /// memory only where a position is marked ([`Tt::lazy_with_entries`]).
    pub fn with_slots(slots: u64) -> Result<Belle, TtAllocError> {
        Ok(Belle {
            tt: Tt::lazy_with_entries(slots, IndexMapping::Multiply)?,
            marks: belle::Marks::new(),
        })
    }
}

/// Belle's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BelleAnswer {
    /// An open entry was found: a repetition.
    pub found: bool,
    /// What the table said ([`OpenSlot::Shared`]: a shared-slot loss).
    pub slot: Option<OpenSlot>,
}

impl Detector for Belle {
    type Answer = BelleAnswer;
    const NAME: &'static str = "belle";
    fn clear(&mut self) {
        self.marks.clear(&mut self.tt);
    }
    fn push(&mut self, step: Step) {
        self.marks.push(&mut self.tt, step.key);
    }
    fn pop(&mut self) {
        self.marks.pop(&mut self.tt);
    }
    fn answer(&self, _: &Chess) -> BelleAnswer {
        BelleAnswer {
            found: self.marks.found(),
            slot: self.marks.last(),
        }
    }
}

/// Rookie's counters with the verifying back-trace over a list of keys ([`rookie`]).
#[derive(Clone, Debug, Default)]
pub struct Rookie {
    pub counters: rookie::Counters,
    pub keys: KeyHistory,
}

/// Rookie's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RookieAnswer {
    /// The counter was non-zero before the position was entered.
    pub hit: bool,
    /// Earlier occurrences the back-trace verified (0 without a hit; 2 = two or more).
    pub verified: u32,
}

impl Detector for Rookie {
    type Answer = RookieAnswer;
    const NAME: &'static str = "rookie";
    fn clear(&mut self) {
        self.counters.clear();
        self.keys.clear();
    }
    fn push(&mut self, step: Step) {
        self.counters.push(step.key);
        self.keys.push(step.key, step.irreversible);
    }
    fn pop(&mut self) {
        self.counters.pop();
        self.keys.pop();
    }
    fn answer(&self, _: &Chess) -> RookieAnswer {
        let hit = self.counters.hit();
        RookieAnswer {
            hit,
            verified: if hit { self.keys.back_trace().0 } else { 0 },
        }
    }
}

/// Axon's move chains ([`axon`]).
#[derive(Clone, Debug, Default)]
pub struct Axon(pub axon::Moves);

impl Detector for Axon {
    type Answer = axon::Scan;
    const NAME: &'static str = "axon";
    fn clear(&mut self) {
        self.0.clear();
    }
    fn push(&mut self, step: Step) {
        self.0.push(step.squares, step.irreversible);
    }
    fn pop(&mut self) {
        self.0.pop();
    }
    fn answer(&self, _: &Chess) -> axon::Scan {
        self.0.scan(usize::MAX)
    }
}

/// The upcoming repetition with cuckoo tables ([`cuckoo`]): a move of the side to move back
/// to any earlier position of the stretch.
#[derive(Clone, Debug, Default)]
pub struct Upcoming(pub KeyHistory);

impl Detector for Upcoming {
    type Answer = Option<cuckoo::Cycle>;
    const NAME: &'static str = "cuckoo";
    fn clear(&mut self) {
        self.0.clear();
    }
    fn push(&mut self, step: Step) {
        self.0.push(step.key, step.irreversible);
    }
    fn pop(&mut self) {
        self.0.pop();
    }
    fn answer(&self, pos: &Chess) -> Option<cuckoo::Cycle> {
        cuckoo::find(&self.0, pos.board(), pos.turn(), |_, _| true)
    }
}

/// The detector the search uses (UCI option `Repetition`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Zarkov's list of keys (the default).
    #[default]
    Zarkov,
    /// Belle's open flags in the transposition table.
    Belle,
    /// Rookie's 2^14 counters with a verifying back-trace.
    Rookie,
    /// Axon's move chains.
    Axon,
}

impl Method {
    /// Every method, default first.
    pub const ALL: [Method; 4] = [Method::Zarkov, Method::Belle, Method::Rookie, Method::Axon];

    /// The name used by UCI and the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Zarkov => "zarkov",
            Method::Belle => "belle",
            Method::Rookie => "rookie",
            Method::Axon => "axon",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a method.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown repetition detector '{0}' (zarkov, belle, rookie or axon)")]
pub struct UnknownMethod(pub String);

impl FromStr for Method {
    type Err = UnknownMethod;
    fn from_str(s: &str) -> Result<Method, UnknownMethod> {
        Method::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownMethod(s.to_string()))
    }
}

/// The repetition detection of the search: Zarkov's list of keys, always kept (the default
/// method, the cuckoo scan's data and Rookie's back-trace), and the data of the chosen
/// method. What it answers at each node goes to the search's [`Probe`] as well, for the
/// measurements (`threefold-lab`); the plain search's probe compiles to nothing.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    keys: KeyHistory,
    method: Method,
    belle: belle::Marks,
    rookie: rookie::Counters,
    axon: axon::Moves,
}

impl Tracker {
    /// Zarkov's method.
    pub fn new() -> Tracker {
        Tracker {
            keys: KeyHistory::new(),
            ..Tracker::default()
        }
    }

    /// The method in use.
    pub fn method(&self) -> Method {
        self.method
    }

    /// Changes the method (takes effect with the next game record).
    pub fn set_method(&mut self, tt: &mut Tt, method: Method) {
        self.forget(tt);
        self.method = method;
    }

    /// Belle: positions that could not be marked since the tracker was made (another open
    /// position held the slot: [`belle::Marks::shared_slot_losses`]).
    pub fn belle_shared_slot_losses(&self) -> u64 {
        self.belle.shared_slot_losses
    }

    /// Zarkov's list of keys.
    pub fn keys(&self) -> &KeyHistory {
        &self.keys
    }

    fn forget(&mut self, tt: &mut Tt) {
        self.belle.clear(tt);
        self.rookie.clear();
        self.axon.clear();
        self.keys.clear();
    }

    /// Records a game (see [`KeyHistory::record_game`]); its last position becomes the root.
    /// Belle's marks are made apart, in the search's table, by [`Tracker::mark_game`].
    pub fn record_game(&mut self, start: &Chess, moves: &[Move]) -> Chess {
        self.rookie.clear();
        self.axon.clear();
        self.keys.clear();
        let pos = replay(start, moves, |s| self.push_step(s));
        self.keys.set_root();
        pos
    }

    /// Belle: marks the recorded game's positions in `tt` (the marks of the last game taken
    /// back first), after [`Tracker::record_game`].
    pub fn mark_game(&mut self, tt: &mut Tt) {
        self.belle.clear(tt);
        if self.method == Method::Belle {
            for i in 0..self.keys.len() {
                self.belle.push(tt, self.keys.key_at(i));
            }
        }
    }

    #[inline(always)]
    fn push_step(&mut self, s: Step) {
        self.keys.push(s.key, s.irreversible);
        match self.method {
            Method::Zarkov | Method::Belle => {}
            Method::Rookie => self.rookie.push(s.key),
            Method::Axon => self.axon.push(s.squares, s.irreversible),
        }
    }

    /// Enters the position `key`, reached by the legal move `m` from `pos` (Belle's mark
    /// apart: [`Tracker::mark`]).
    #[inline(always)]
    pub fn push(&mut self, pos: &Chess, m: &Move, key: u64) {
        self.push_step(Step::by_move(pos, m, key));
    }

    /// Enters the position after a null move: irreversible for every method that knows
    /// irreversible moves (Belle does not).
    #[inline(always)]
    pub fn push_null_move(&mut self, key: u64) {
        self.push_step(Step::start(key));
    }

    /// Leaves the last position (Belle's mark apart: [`Tracker::unmark`]).
    #[inline(always)]
    pub fn pop(&mut self) {
        self.keys.pop();
        match self.method {
            Method::Zarkov | Method::Belle => {}
            Method::Rookie => self.rookie.pop(),
            Method::Axon => self.axon.pop(),
        }
    }

    /// Belle: marks the position `key` just entered as open in `tt`.
    #[inline(always)]
    pub fn mark(&mut self, tt: &mut Tt, key: u64) {
        if self.method == Method::Belle {
            self.belle.push(tt, key);
        }
    }

    /// Belle: takes the last position's mark back.
    #[inline(always)]
    pub fn unmark(&mut self, tt: &mut Tt) {
        if self.method == Method::Belle {
            self.belle.pop(tt);
        }
    }

    /// Is the last position a draw by repetition for the search? Zarkov and Rookie count
    /// (a third occurrence, or a second one more than two plies beyond the root); Belle and
    /// Axon have no count: any repetition they see is a draw. `probe` is told the method's
    /// raw answer ([`Answer`]); with the plain search's probe, `()`, that costs nothing.
    #[inline(always)]
    pub fn repetition<P: Probe<Chess>>(&self, probe: &mut P) -> Repetition {
        match self.method {
            Method::Zarkov => {
                let r = self.keys.repetition();
                if P::ACTIVE {
                    probe.repetition(&self.keys, Answer::Zarkov(r));
                }
                r
            }
            Method::Rookie => {
                if !self.rookie.hit() {
                    if P::ACTIVE {
                        probe.repetition(&self.keys, Answer::Rookie(None));
                    }
                    return Repetition::None;
                }
                let (earlier, r) = self.keys.back_trace();
                if P::ACTIVE {
                    probe.repetition(&self.keys, Answer::Rookie(Some((earlier, r))));
                }
                r
            }
            Method::Belle => {
                let seen = self.belle.found();
                if P::ACTIVE {
                    probe.repetition(&self.keys, Answer::Belle(seen));
                }
                Self::draw_if(seen)
            }
            Method::Axon => {
                let seen = self.axon.repetition();
                if P::ACTIVE {
                    probe.repetition(&self.keys, Answer::Axon(seen));
                }
                Self::draw_if(seen)
            }
        }
    }

    /// A method without a count: whatever it sees is a draw.
    #[inline(always)]
    fn draw_if(seen: bool) -> Repetition {
        if seen {
            Repetition::Draw
        } else {
            Repetition::None
        }
    }

    /// Stockfish's upcoming-repetition test for the last position, `pos`, at `ply` plies
    /// from the root: the side to move has a move to a position of the stretch that the
    /// search would score a draw (by Zarkov's rule: a position that occurred twice already,
    /// or any earlier position once the move lands more than two plies beyond the root).
    #[inline(always)]
    pub fn upcoming(&self, pos: &Chess, ply: usize) -> bool {
        cuckoo::find(&self.keys, pos.board(), pos.turn(), |index, _| {
            ply >= 2 || self.keys.occurred_before(index)
        })
        .is_some()
    }
}
