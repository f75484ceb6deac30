//! Threats: the paper's `gen_captures`, `is_protected` / `get_defenders`, `get_chases` and
//! `detect_block` — what a move threatens, which threats are chases, and why the others are
//! not (the status of one history entry).

use crate::board::{Kind, Move, Position, Square};

/// What a move (more exactly: the position it reached, with the reply) was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Idle,
    Chase,
    Check,
}

impl Status {
    /// The paper's bit flags: Idle = 1, Chase = 2, Check = 4.
    pub fn flag(self) -> u8 {
        match self {
            Status::Idle => 1,
            Status::Chase => 2,
            Status::Check => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Chase => "chase",
            Status::Check => "check",
        }
    }
}

/// A capture one side could make: attacker and victim with their points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attack {
    pub attacker: Square,
    pub attacker_kind: Kind,
    pub victim: Square,
    pub victim_kind: Kind,
}

impl Attack {
    fn capture(&self) -> Move {
        Move::new(self.attacker, self.victim)
    }
}

/// Why an attack is no threat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Harmless {
    /// A defender could recapture (and the victim is not worth more).
    Protected { by: Square, kind: Kind },
    /// Like pieces that can take each other: an offer to exchange.
    Exchange,
    /// A pawn on its own side of the river cannot be chased.
    UncrossedPawn,
    /// Kings and pawns never chase.
    KingOrPawn,
}

/// The captures a side threatens after its move, and its attacks that are
/// no threats (with the reason).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    pub threats: Vec<Attack>,
    pub harmless: Vec<(Attack, Harmless)>,
}

/// Why a threat was not a chase: the reply did not answer it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// The reply gave check instead.
    CounterCheck,
    /// The reply threatened captures of its own instead.
    CounterAttack(Vec<Attack>),
    /// The reply left the piece to be taken: a sacrifice.
    Sacrifice,
}

/// The status of one history entry with everything a ruling explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryStatus {
    pub status: Status,
    /// Pieces giving check (for `Check`).
    pub checkers: Vec<Square>,
    /// Answered threats: the chases (victim points as they were before the reply).
    pub chased: Vec<Attack>,
    /// Threats the reply did not answer, and why.
    pub unanswered: Vec<(Attack, Unanswered)>,
    /// Threats the mover already had before this move (not made by it).
    pub old: Vec<Attack>,
    /// Attacks that were no threats, and why.
    pub harmless: Vec<(Attack, Harmless)>,
}

/// The value the paper's `is_protected` compares: a victim worth more than
/// its attacker is chased even if protected.
pub fn value(kind: Kind) -> u8 {
    match kind {
        Kind::Pawn => 1,
        Kind::Advisor | Kind::Elephant => 2,
        Kind::Horse | Kind::Cannon => 4,
        Kind::Rook => 9,
        Kind::King => 100,
    }
}

fn kind_at(pos: &Position, sq: Square) -> Kind {
    pos.piece_at(sq).expect("a piece").kind
}

/// The paper's `gen_captures`: pseudo-legal captures of the side to move by
/// horses, rooks, cannons, advisors and elephants (kings and pawns do not chase).
pub fn gen_captures(pos: &Position) -> Vec<Move> {
    let mut list = crate::movegen::MoveList::new();
    pos.gen_pseudo(&mut list);
    list.as_slice()
        .iter()
        .copied()
        .filter(|&m| {
            pos.is_capture(m) && !matches!(kind_at(pos, m.from()), Kind::King | Kind::Pawn)
        })
        .collect()
}

/// Whether the capture `cap` (legal for the side to move) is an exchange:
/// the victim is of the attacker's kind and could legally take it back
/// where it stands. If it could not (a pinned victim), it is a chase.
pub fn is_exchange(pos: &Position, cap: Move) -> bool {
    kind_at(pos, cap.from()) == kind_at(pos, cap.to())
        && pos
            .with_side_flipped()
            .is_legal(Move::new(cap.to(), cap.from()))
}

/// Whether a rook or cannon on `from` reaches `to` along its line in `pos`
/// (nothing between for a rook, exactly one screen for a cannon).
fn slider_reaches(pos: &Position, from: Square, to: Square, kind: Kind) -> bool {
    let (ff, fr, tf, tr) = (from.file(), from.rank(), to.file(), to.rank());
    let between = if ff == tf {
        let (lo, hi) = (fr.min(tr), fr.max(tr));
        (lo + 1..hi)
            .filter(|&r| {
                pos.piece_at(Square::new(ff, r).expect("on board"))
                    .is_some()
            })
            .count()
    } else if fr == tr {
        let (lo, hi) = (ff.min(tf), ff.max(tf));
        (lo + 1..hi)
            .filter(|&f| {
                pos.piece_at(Square::new(f, fr).expect("on board"))
                    .is_some()
            })
            .count()
    } else {
        return false;
    };
    match kind {
        Kind::Rook => between == 0,
        Kind::Cannon => between == 1,
        _ => true,
    }
}

/// The paper's `get_defenders`: the victim's side's legal recaptures after
/// the capture `cap` (legal for the side to move in `pre`). Rooks and
/// cannons count only if they also reach the point along the line as it
/// was before the capture.
pub fn get_defenders(pre: &Position, cap: Move) -> Vec<Move> {
    let mut post = pre.clone();
    post.make(cap);
    post.legal_moves()
        .as_slice()
        .iter()
        .copied()
        .filter(|d| d.to() == cap.to())
        .filter(|d| {
            let kind = kind_at(&post, d.from());
            !matches!(kind, Kind::Rook | Kind::Cannon)
                || slider_reaches(pre, d.from(), cap.to(), kind)
        })
        .collect()
}

/// The paper's `is_protected`: the defender that protects the victim of
/// `cap`, or `None` — also when the victim is worth more than the attacker.
pub fn is_protected(pos: &Position, cap: Move) -> Option<Move> {
    if value(kind_at(pos, cap.to())) > value(kind_at(pos, cap.from())) {
        return None;
    }
    get_defenders(pos, cap).first().copied()
}

/// Why a piece that seems to protect a victim does not ([`false_protectors`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FalseProtection {
    /// Its recapture would be illegal: it is pinned to its king, or it would leave the kings
    /// facing each other.
    IllegalRecapture,
    /// A rook or cannon that reaches the point only because the capture changed its line
    /// (the attacker left it, or became its screen).
    LineOpenedByCapture,
}

impl FalseProtection {
    /// Why, in words, after "does not protect:".
    pub fn reason(self) -> &'static str {
        match self {
            FalseProtection::IllegalRecapture => {
                "its recapture would be illegal (pinned to its king, or the kings would face)"
            }
            FalseProtection::LineOpenedByCapture => {
                "it reaches the point only along a line the capture changed"
            }
        }
    }
}

/// The protections that are not real (the WXF manual's diagrams 39–41): the pieces of the
/// victim's side that could recapture on the victim's point after `cap` (legal for the side to
/// move in `pre`) as far as their moves go, but that [`get_defenders`] does not count, and
/// why. The one place the screen's "not a real protection" marks come from, so they cannot
/// disagree with the judge's [`is_protected`].
pub fn false_protectors(pre: &Position, cap: Move) -> Vec<(Square, FalseProtection)> {
    let real = get_defenders(pre, cap);
    let mut post = pre.clone();
    post.make(cap);
    post.pseudo_moves()
        .as_slice()
        .iter()
        .copied()
        .filter(|d| d.to() == cap.to() && !real.contains(d))
        .map(|d| {
            let why = if post.is_legal(d) {
                FalseProtection::LineOpenedByCapture
            } else {
                FalseProtection::IllegalRecapture
            };
            (d.from(), why)
        })
        .collect()
}

/// Whether a capture (already known to be possible) is a threat, or why not.
fn assess(pos: &Position, cap: Move) -> Result<(), Harmless> {
    let victim = pos.piece_at(cap.to()).expect("a victim");
    if victim.kind == Kind::Pawn && !cap.to().across_river(victim.color) {
        return Err(Harmless::UncrossedPawn);
    }
    if is_exchange(pos, cap) {
        return Err(Harmless::Exchange);
    }
    match is_protected(pos, cap) {
        Some(d) => Err(Harmless::Protected {
            by: d.from(),
            kind: kind_at(pos, d.from()),
        }),
        None => Ok(()),
    }
}

/// Whether the side to move could make the capture `cap`: legally, or —
/// when it is in check — at least pseudo-legally (a threat the check merely
/// postpones is still there).
fn can_capture(pos: &Position, cap: Move) -> bool {
    if pos.in_check() {
        pos.pseudo_contains(cap)
    } else {
        pos.is_legal(cap)
    }
}

/// The free captures the side to move has in `pos` (its threats), and its
/// attacks that are no threats, with the reason.
pub fn threats_of_side_to_move(pos: &Position) -> Threats {
    let mut out = Threats::default();
    let mut list = crate::movegen::MoveList::new();
    pos.gen_pseudo(&mut list);
    for &cap in list.as_slice() {
        let by = kind_at(pos, cap.from());
        if pos.is_capture(cap) && matches!(by, Kind::King | Kind::Pawn) && can_capture(pos, cap) {
            let attack = Attack {
                attacker: cap.from(),
                attacker_kind: by,
                victim: cap.to(),
                victim_kind: kind_at(pos, cap.to()),
            };
            out.harmless.push((attack, Harmless::KingOrPawn));
        }
    }
    for cap in gen_captures(pos) {
        if !can_capture(pos, cap) {
            continue;
        }
        let attack = Attack {
            attacker: cap.from(),
            attacker_kind: kind_at(pos, cap.from()),
            victim: cap.to(),
            victim_kind: kind_at(pos, cap.to()),
        };
        match assess(pos, cap) {
            Ok(()) => out.threats.push(attack),
            Err(why) => out.harmless.push((attack, why)),
        }
    }
    out
}

/// The paper's `get_chases`: in `pos`, what does the side that just moved
/// threaten? (Its legal captures, not exchanges, not of uncrossed pawns, of
/// unprotected or more valuable victims.) Empty if the side to move is in
/// check: a check carries no chase.
pub fn get_chases(pos: &Position) -> Threats {
    if pos.in_check() {
        return Threats::default();
    }
    threats_of_side_to_move(&pos.with_side_flipped())
}

/// Splits the threats a move leaves (`after`, from [`get_chases`]) into
/// those it created and those the mover already had before it (`before`,
/// from [`threats_of_side_to_move`] of the position it was played in),
/// following the moved piece. A threat that existed before the move — a
/// piece that walked into an attack, an attacker that slides along its line
/// and keeps attacking (WXF diagram 106), a rook that does not move
/// (diagrams 39–41) — is not made by this move.
pub fn new_threats(before: &Threats, m: Move, after: &Threats) -> (Threats, Vec<Attack>) {
    let carried: Vec<Attack> = before
        .threats
        .iter()
        .map(|t| {
            let mut t = *t;
            if t.attacker == m.from() {
                t.attacker = m.to();
            }
            t
        })
        .collect();
    let (old, new): (Vec<Attack>, Vec<Attack>) =
        after.threats.iter().partition(|t| carried.contains(t));
    (
        Threats {
            threats: new,
            harmless: after.harmless.clone(),
        },
        old,
    )
}

/// Whether `attack` (updated to where the victim now stands) is still a
/// threat in `after`, where the attacker's side is to move.
fn still_threat(after: &Position, attack: &Attack) -> bool {
    let cap = attack.capture();
    let attacker_ok = after
        .piece_at(attack.attacker)
        .is_some_and(|p| p.kind == attack.attacker_kind && p.color == after.side_to_move());
    if !attacker_ok {
        return false;
    }
    // After a checking reply: is the capture still there at all?
    can_capture(after, cap) && assess(after, cap).is_ok()
}

/// The paper's `detect_block`: given the position a move reached (`at`), the
/// threats it made there, the reply and the position after the reply, the
/// move's status. `counter` gives the reply's own threats (for explaining an
/// unanswered threat); it is only called when needed.
pub fn detect_block(
    at: &Position,
    threats: &Threats,
    old: &[Attack],
    reply: Move,
    after: &Position,
    counter: impl FnOnce() -> Threats,
) -> EntryStatus {
    if at.in_check() {
        return EntryStatus {
            status: Status::Check,
            checkers: at.checkers(),
            chased: Vec::new(),
            unanswered: Vec::new(),
            old: Vec::new(),
            harmless: Vec::new(),
        };
    }
    let mut chased = Vec::new();
    let mut unanswered = Vec::new();
    let mut counter = Some(counter);
    let mut counter_threats: Option<Threats> = None;
    for t in &threats.threats {
        let mut moved = *t;
        if reply.from() == t.victim {
            moved.victim = reply.to();
        }
        if still_threat(after, &moved) {
            let why = if after.in_check() {
                Unanswered::CounterCheck
            } else {
                let c =
                    counter_threats.get_or_insert_with(|| (counter.take().expect("called once"))());
                if c.threats.is_empty() {
                    Unanswered::Sacrifice
                } else {
                    Unanswered::CounterAttack(c.threats.clone())
                }
            };
            unanswered.push((*t, why));
        } else {
            chased.push(*t);
        }
    }
    EntryStatus {
        status: if chased.is_empty() {
            Status::Idle
        } else {
            Status::Chase
        },
        checkers: Vec::new(),
        chased,
        unanswered,
        old: old.to_vec(),
        harmless: threats.harmless.clone(),
    }
}

#[cfg(test)]
mod false_protection_tests {
    use super::*;

    /// The black horse on e8 seems to protect the cannon on f6, but it is pinned to its king
    /// by the rook on e1: taking back would expose the king. Not a protection.
    #[test]
    fn a_pinned_defender_does_not_protect() {
        let pos = Position::from_fen("4k4/4n4/9/5c3/9/9/9/9/4RR3/3K5 w").expect("legal");
        let cap = Move::new("f1".parse().unwrap(), "f6".parse().unwrap());
        assert_eq!(is_protected(&pos, cap), None);
        assert_eq!(
            false_protectors(&pos, cap),
            vec![("e8".parse().unwrap(), FalseProtection::IllegalRecapture)]
        );
        // Without the pin the horse protects, and nothing is false.
        let free = Position::from_fen("3k5/4n4/9/5c3/9/9/9/9/4RR3/4K4 w").expect("legal");
        assert!(is_protected(&free, cap).is_some());
        assert!(false_protectors(&free, cap).is_empty());
    }
}
