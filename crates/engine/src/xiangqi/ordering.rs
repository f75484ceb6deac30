//! Xiangqi's move ordering: the staged picker of a full-width node ([`XiangqiPicker`]) and the
//! quiescence search's list ([`XiangqiQList`]), by MVV-LVA for captures (a capture of a piece
//! worth less than its capturer is "losing" when the point it lands on is attacked: a cannon's
//! capture needs a screen, so chess's static exchange evaluation does not apply), killers and
//! the butterfly history for quiet moves. The history and killers' arithmetic is the search's,
//! for both games ([`crate::search::ordering`]).
//!
//! The picker generates pseudo-legal moves and tests a move's legality only when it hands the
//! move out ([`Legality`]): the moves a cutoff leaves unsearched are never tested, and of those
//! searched only the few that may expose the king (a pinned piece, a king move, every move in
//! check) are made on a copy to know.

use arrayvec::ArrayVec;
use threefold_xiangqi::{Kind, Legality, Move, Position, Square};

use super::eval::piece_value;
use crate::game::Game;
use crate::search::ordering::{KILLER_SCORE, Picked, Picker};

/// Points of the board.
pub(crate) const POINTS: usize = 90;

/// Butterfly history table: `[side][from][to]`, points numbered rank × 9 + file.
pub type XiangqiHistory = [[[i32; POINTS]; POINTS]; 2];

/// The kind on `sq` (which must hold a piece).
#[inline]
pub(crate) fn kind_at(pos: &Position, sq: Square) -> Kind {
    pos.piece_at(sq).map_or(Kind::King, |p| p.kind)
}

/// Order of the attackers for MVV-LVA: the cheaper the better.
#[inline]
fn attacker_rank(k: Kind) -> i32 {
    match k {
        Kind::Pawn => 0,
        Kind::Advisor => 1,
        Kind::Elephant => 2,
        Kind::Horse => 3,
        Kind::Cannon => 4,
        Kind::Rook => 5,
        Kind::King => 6,
    }
}

/// MVV-LVA key of a capture: the victim's value, then the cheapest attacker first.
#[inline]
pub(crate) fn mvv_lva(pos: &Position, m: Move) -> i32 {
    piece_value(kind_at(pos, m.to())) * 8 - attacker_rank(kind_at(pos, m.from()))
}

/// Whether the capture `m` may lose material: the victim is worth less than the capturer and
/// the point it lands on is attacked ([`Position::lands_attacked`]).
#[inline]
pub(crate) fn losing_capture(pos: &Position, m: Move) -> bool {
    piece_value(kind_at(pos, m.to())) < piece_value(kind_at(pos, m.from())) && pos.lands_attacked(m)
}

/// History index of a point.
#[inline]
pub(crate) fn point(sq: Square) -> usize {
    sq.index()
}

/// One step of selection sort: moves the entry with the highest `score` from `from` on to
/// `from` (the first of the highest on a tie); false when nothing is left.
#[inline]
fn select_best<T>(list: &mut [T], from: usize, score: impl Fn(&T) -> i32) -> bool {
    if from >= list.len() {
        return false;
    }
    let mut best = from;
    for j in from + 1..list.len() {
        if score(&list[j]) > score(&list[best]) {
            best = j;
        }
    }
    list.swap(from, best);
    true
}

/// Ordering bands of the picker's one list (scores are kept within them).
const GOOD_CAPTURE: i32 = 1 << 28;
const BAD_CAPTURE: i32 = -(1 << 28);

/// The staged picker of a xiangqi node: the TT move before any generation; then every
/// pseudo-legal move at once in one list, ordered winning captures (MVV-LVA), killers, the
/// counter move to the previous move, quiet moves by history, losing captures, handed out by
/// selection. Legality is tested as a move is handed out ([`Legality`]: only a move that may
/// expose the king is made on a copy of the position), so the moves a cutoff leaves
/// unsearched are never tested.
pub struct XiangqiPicker<'p> {
    pos: &'p Position,
    tt: Option<Move>,
    killers: [u16; 2],
    /// The counter move to the previous move (packed, 0: none): tried after the killers.
    counter: u16,
    generated: bool,
    moves: ArrayVec<(Move, i32, bool), 128>,
    next: usize,
    skip_quiets: bool,
    /// The position's legality test, found with the list.
    legality: Option<Legality>,
    /// A copy of the position to make risky moves on, made at the first one.
    scratch: Option<Position>,
}

impl Picker<Position> for XiangqiPicker<'_> {
    fn next(&mut self, history: &XiangqiHistory) -> Option<Picked<Move>> {
        if !self.generated {
            self.generated = true;
            if let Some(m) = self.tt {
                return Some(Picked {
                    m,
                    score: i32::MAX,
                    losing: false,
                });
            }
        }
        if self.next == 0 && self.moves.is_empty() {
            self.fill(history);
        }
        loop {
            if !select_best(&mut self.moves, self.next, |e| e.1) {
                return None;
            }
            let (m, score, quiet) = self.moves[self.next];
            self.next += 1;
            if Some(m) == self.tt || (quiet && self.skip_quiets) || !self.legal(m) {
                continue;
            }
            // A losing capture's score is `BAD_CAPTURE` plus its MVV-LVA key: below 0.
            let losing = !quiet && score < 0;
            let score = if quiet {
                score
            } else if losing {
                0
            } else {
                score - GOOD_CAPTURE
            };
            return Some(Picked { m, score, losing });
        }
    }

    fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }
}

impl<'p> XiangqiPicker<'p> {
    /// The picker of `pos`, with the (legal) TT move and the ply's killers.
    #[inline(always)]
    pub fn new(
        pos: &'p Position,
        tt: Option<Move>,
        killers: [u16; 2],
        counter: u16,
    ) -> XiangqiPicker<'p> {
        XiangqiPicker {
            pos,
            tt,
            killers,
            counter,
            generated: false,
            moves: ArrayVec::new(),
            next: 0,
            skip_quiets: false,
            legality: None,
            scratch: None,
        }
    }

    /// Whether the pseudo-legal `m` is legal (made on the scratch copy only if risky).
    #[inline]
    fn legal(&mut self, m: Move) -> bool {
        let legality = self.legality.expect("found with the list");
        !legality.risky(m)
            || self
                .scratch
                .get_or_insert_with(|| self.pos.clone())
                .keeps_king_safe(m)
    }

    fn fill(&mut self, history: &XiangqiHistory) {
        let pos = self.pos;
        let s = pos.side_to_move() as usize;
        self.legality = Some(pos.legality());
        let list = pos.pseudo_moves();
        for &m in list.as_slice() {
            let entry = if pos.is_capture(m) {
                let key = mvv_lva(pos, m);
                if losing_capture(pos, m) {
                    (m, BAD_CAPTURE + key, false)
                } else {
                    (m, GOOD_CAPTURE + key, false)
                }
            } else {
                let p = Position::pack(m);
                let score = if p == self.killers[0] || p == self.killers[1] {
                    KILLER_SCORE
                } else if p == self.counter {
                    KILLER_SCORE - 1
                } else {
                    history[s][point(m.from())][point(m.to())]
                };
                (m, score, true)
            };
            self.moves.push(entry);
        }
    }
}

/// The quiescence search's list: moves with their MVV-LVA keys, handed out best first.
pub struct XiangqiQList {
    moves: ArrayVec<(Move, i32), 128>,
    next: usize,
}

impl XiangqiQList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> XiangqiQList {
        XiangqiQList {
            moves: ArrayVec::new(),
            next: 0,
        }
    }

    /// Fills the list with every legal move of `pos` (in check) or its legal captures.
    pub fn fill(&mut self, pos: &Position, in_check: bool) {
        let moves = if in_check {
            pos.legal_moves()
        } else {
            pos.legal_captures()
        };
        for &m in moves.as_slice() {
            let key = if pos.is_capture(m) {
                mvv_lva(pos, m)
            } else {
                -1
            };
            self.moves.push((m, key));
        }
    }

    /// The next move, best first.
    #[inline(always)]
    pub fn next_best(&mut self) -> Option<Move> {
        if !select_best(&mut self.moves, self.next, |e| e.1) {
            return None;
        }
        self.next += 1;
        Some(self.moves[self.next - 1].0)
    }
}

impl Default for XiangqiQList {
    fn default() -> XiangqiQList {
        XiangqiQList::new()
    }
}
