//! The WXF repetition judge, as built by Daniel Tan and Neftali Watkinson
//! Medina, "Complete Implementation of WXF Chinese Chess Rules" (2024,
//! <https://arxiv.org/abs/2412.17334>), the first algorithm to rule all 110
//! example diagrams of the WXF manual correctly.
//!
//! In xiangqi a repetition is a ruling, not a claim: perpetual check loses,
//! perpetually chasing one unprotected piece loses, equal violations draw,
//! everything else ("idle") draws. The paper's parts, and where they live:
//!
//! - **History entries** ([`Record`]): for every position its hash, the move
//!   that reached it, whether that move was irreversible (a capture or a
//!   pawn's step forward: the paper's *cancel*), whether the side to move is
//!   in check, and the set of chased pieces.
//! - [`gen_captures`]: the captures of the side to move by horses, rooks,
//!   cannons, advisors and elephants (never kings or pawns: they do not chase).
//! - [`is_protected`] / [`get_defenders`]: a victim is protected if a defender
//!   can legally recapture, unless it is worth more than its attacker. A rook
//!   or cannon defends only along the line as it is *before* the capture
//!   (the attacker still on its point) and only if the recapture is legal
//!   after it: so a rook "behind" the attacker, a cannon whose line runs
//!   through the attacker's point, or a cannon using the attacker as its
//!   screen is no protection (WXF diagrams 39–41, which Pikafish and Felicity
//!   get wrong).
//! - [`get_chases`]: after a move, the captures the mover now threatens:
//!   legal, not an exchange of like pieces, not of a pawn that has not crossed
//!   the river, and of an unprotected (or more valuable) victim.
//! - [`detect_block`]: a threat is a *chase* only if the opponent's reply
//!   answers it: the victim escapes, the line is blocked, or the victim is
//!   now protected (the chased piece is followed when it moves). A reply that
//!   ignores the threat — a counter-attack, a check, a sacrifice — makes it no
//!   chase (WXF diagram 10). A move that gives check is a *check*; chase
//!   information is not computed for checks, captures and pawn advances.
//! - `judge_player` (a step of [`Record::judge`]): over a repetition, a
//!   player's statuses are OR-ed; all checks is perpetual check; all chases
//!   with a non-empty intersection of chased pieces (carried along as the
//!   victims move) is perpetual chase;
//!   anything else — alternating check and chase, chasing different pieces,
//!   one idle move — is idle. Violation levels: check > chase > idle.
//! - [`Record::judge`] (the paper's `judge_ntimes`): compare both players'
//!   levels; equal draws, the higher loses. Before any repetition it asks
//!   whether the side to move can move at all: checkmate and stalemate both
//!   lose in xiangqi ([`Ending`]), and a game that is over is not judged
//!   for repetitions. [`Record::judge_prune`]: the
//!   search's shortcut (a side whose own level is idle cannot lose, so if a
//!   draw already reaches beta the opponent need not be judged).
//! - Lazy chase computation: statuses are computed only for the entries a
//!   ruling needs, when it needs them, and cached ([`ChaseMode::Lazy`]); the
//!   eager mode computes every entry as moves arrive (for comparison in
//!   `threefold xiangqi bench`).
//!
//! # Where this follows the paper's intent rather than its pseudo-code
//!
//! - The status of a move depends on the opponent's reply, which the last
//!   move of a game does not have yet. The paper's `judge_player` therefore
//!   starts at the entry two plies back and ends at the earlier occurrence,
//!   whose move stands for the last one. Here a move's status is a function
//!   of the position it reached and the reply, so the earlier occurrence's
//!   entry stands for the last move (the same positions, the same next move
//!   in the cycle), and the start position of a game has an entry too.
//! - `ntimes` counts earlier occurrences of the *final* position, and both
//!   players are judged over the moves since the `ntimes`-th of them: 1 rules
//!   at the first repetition (the paper's engine), 2 at the third occurrence
//!   (Fairy-Stockfish's rulings). The paper also asks that the other
//!   player's last position repeat `ntimes`, which delays some rulings by a
//!   ply (at the third occurrence of a cycle that starts the game it never
//!   comes) — a detail of a search function, not of the rules.
//! - A move chases only with threats it *made*: a free capture the mover
//!   already had before the move (the same attacker on the same piece) is
//!   not counted again ([`new_threats`]). The paper's `get_chases` takes all
//!   of them; the WXF explanations rule by what the move changed (diagram
//!   106: the rook keeps attacking along its file, "the attack does not
//!   change"; diagrams 39–41: "the rook does not move"), and without this a
//!   piece retreating from an attack would "chase" an enemy piece that had
//!   walked into one of its other attackers (Fairy-Stockfish's case
//!   fsf-25, which this rule rules as Fairy-Stockfish does).
//! - A rook attacking a *protected* horse or cannon does not chase it: the
//!   paper's `is_protected` discards a protection only when the victim is
//!   worth more than its attacker (horse and cannon attacking a rook,
//!   advisors and elephants attacking anything bigger), and the WXF rules
//!   say so outright ("a rook can perpetually chase a protected cannon; if
//!   the cannon is protected in one move and not in another, this chase is
//!   still allowed", diagrams 29–31). Fairy-Stockfish rules the same. The
//!   hand-built cases `rook chases a protected horse` and `rook chases a
//!   cannon protected on one point` show it.
//! - The pseudo-code's `detect_block` does not say how a reply that gives
//!   check is treated. A check is the strongest counter-attack, so a threat
//!   counts as answered after a checking reply only if the capture became
//!   impossible (pseudo-legally) or the victim protected — not merely because
//!   the attacker must now meet the check.

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{BuildHasherDefault, Hasher};

use super::board::{Color, Kind, Move, Position, Square};
use super::notation::wxf;

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

/// A player's violation over a repetition: perpetual check > perpetual
/// chase > idle. (No repetition is `None`: undecided.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Idle = 0,
    Chase = 1,
    Check = 2,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Idle => "idle",
            Level::Chase => "chase",
            Level::Check => "check",
        }
    }
}

/// A ruling for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Undecided,
    Win,
    Loss,
    Draw,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Undecided => "undecided",
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
        }
    }
}

/// How a game ended without a repetition: the side to move has no legal
/// move. Both lose in xiangqi (WXF: a player who cannot move loses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// In check with no legal move.
    Checkmate,
    /// Not in check, with no legal move (a loss, unlike chess).
    Stalemate,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
        }
    }

    /// The ending of `pos`, if its side to move has no legal move.
    pub fn of(pos: &Position) -> Option<Ending> {
        if !pos.has_no_moves() {
            None
        } else if pos.in_check() {
            Some(Ending::Checkmate)
        } else {
            Some(Ending::Stalemate)
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
    let mut list = super::movegen::MoveList::new();
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
    let mut list = super::movegen::MoveList::new();
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
    positions: Vec<Position>,
    /// The earlier occurrences of the positions of the first plies: brought up to a ply when
    /// its occurrences are asked for, taken back with the plies popped. (A search pushes and
    /// pops far more plies than it asks about: it asks only where its keys saw a repetition.)
    occurrences: RefCell<Occurrences>,
    /// Earlier occurrences looked up so far (the work of [`Record::occurrences`], which
    /// `occurrence_lookups` reports): one per occurrence found, never a scan of the game.
    looked_up: Cell<u64>,
    /// `moves[k - 1]` reached position `k`.
    moves: Vec<Move>,
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

/// One player's moves over a repetition and what they add up to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideReport {
    pub color: Color,
    /// `None`: no repetition (undecided).
    pub level: Option<Level>,
    /// The perpetually chased pieces, as (point in the final position, kind).
    pub chased: Vec<(Square, Kind)>,
    /// This player's moves in the judged cycle(s) with their statuses.
    pub moves: Vec<MoveReport>,
    /// The OR of the statuses' flags.
    pub flags: u8,
}

/// One move of a repetition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    pub ply: usize,
    pub mv: Move,
    pub wxf: String,
    pub status: EntryStatus,
}

/// A ruling with everything it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    pub outcome: Outcome,
    /// The side to move has no legal move: the game is over, lost for it
    /// (`outcome` is [`Outcome::Loss`]), whatever the repetitions.
    pub ending: Option<Ending>,
    /// The side to move, for whom `outcome` is stated.
    pub side: Color,
    pub ntimes: usize,
    /// The ply judged (the number of moves played).
    pub ply: usize,
    /// How many times the final position stood before (since the last
    /// irreversible move).
    pub occurrences: usize,
    /// The most recent of those earlier plies, most recent first: at most
    /// `ntimes`, the ones a ruling counts. Not all of them: a ruling per ply
    /// of a long shuffle would carry the whole history each (quadratic).
    pub earlier: Vec<usize>,
    /// The judged span: the moves after ply `.0` up to ply `.1`.
    pub window: Option<(usize, usize)>,
    pub red: SideReport,
    pub black: SideReport,
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

    /// Plays a move, which must be legal (see [`super::notation::parse_move`]).
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
    fn move_status(&self, ply: usize, reply: Move, after: usize) -> EntryStatus {
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

    /// The earlier occurrence from which `ntimes` repetitions are counted,
    /// if the position of ply `n` has occurred `ntimes` times before.
    fn window_start(&self, n: usize, ntimes: usize) -> Option<usize> {
        self.occurrences(n).nth(ntimes.max(1) - 1)
    }

    /// The statuses of one player's moves in the span after `j` up to ply `n`:
    /// the side that made the move `n` (`last_mover`) or the side to move.
    fn player_moves(&self, n: usize, j: usize, last_mover: bool) -> Vec<MoveReport> {
        let first = if last_mover { j + 2 } else { j + 1 };
        (first..=n)
            .step_by(2)
            .map(|ply| {
                let status = if ply < n {
                    self.status_at(ply).clone()
                } else {
                    // The last move's reply is the cycle's next move: the
                    // one played after the earlier occurrence `j` of this
                    // same position.
                    self.move_status(ply, self.moves[j], j + 1)
                };
                let mv = self.moves[ply - 1];
                MoveReport {
                    ply,
                    mv,
                    wxf: wxf(&self.positions[ply - 1], mv),
                    status,
                }
            })
            .collect()
    }

    /// The paper's `judge_player`: a player's statuses over the repetition
    /// OR-ed; the chased sets intersected, each carried through the
    /// opponent's reply (a chased piece that moved is followed).
    fn judge_player(&self, color: Color, n: usize, j: usize, moves: Vec<MoveReport>) -> SideReport {
        let reply_after = |ply: usize| {
            if ply < n {
                self.moves[ply]
            } else {
                self.moves[j]
            }
        };
        let mut flags = 0u8;
        let mut chased: Option<Vec<(Square, Kind)>> = None;
        for (i, m) in moves.iter().enumerate() {
            flags |= m.status.status.flag();
            if flags != Status::Chase.flag() {
                continue;
            }
            let here: Vec<(Square, Kind)> = m
                .status
                .chased
                .iter()
                .map(|a| (a.victim, a.victim_kind))
                .collect();
            let next = match chased.take() {
                None => here,
                Some(prev) => {
                    let reply = reply_after(moves[i - 1].ply);
                    let mut set: Vec<(Square, Kind)> = Vec::new();
                    for (s, k) in prev {
                        let s = if s == reply.from() { reply.to() } else { s };
                        if here.contains(&(s, k)) && !set.contains(&(s, k)) {
                            set.push((s, k));
                        }
                    }
                    set
                }
            };
            if next.is_empty() {
                flags |= Status::Idle.flag();
            }
            chased = Some(next);
        }
        let level = if flags == Status::Check.flag() {
            Level::Check
        } else if flags == Status::Chase.flag() {
            Level::Chase
        } else {
            Level::Idle
        };
        let mut chased = if level == Level::Chase {
            chased.unwrap_or_default()
        } else {
            Vec::new()
        };
        // Follow the chased pieces to the final position.
        if let Some(last) = moves.last() {
            for ply in last.ply..n {
                let m = self.moves[ply];
                for v in &mut chased {
                    if v.0 == m.from() {
                        v.0 = m.to();
                    }
                }
            }
        }
        SideReport {
            color,
            level: Some(level),
            chased,
            moves,
            flags,
        }
    }

    /// The ruling for the side to move: first whether it has a legal move
    /// at all (checkmate and stalemate both lose: [`Ending`]), then the
    /// paper's `judge_ntimes` once the current position has occurred
    /// `ntimes` times before (1: at the first repetition, 2: at the third
    /// occurrence). Everything that rules a xiangqi game calls this.
    pub fn judge(&self, ntimes: usize) -> Ruling {
        self.judge_at(self.ply(), ntimes)
    }

    /// [`Record::judge`] of the game as it stood after ply `n` (at most [`Record::ply`]): the
    /// same ruling as the record taken back to ply `n` gives, without taking anything back
    /// (the trainer's screen shows the judge's reading of the ply shown).
    pub fn judge_at(&self, n: usize, ntimes: usize) -> Ruling {
        let side = self.positions[n].side_to_move();
        let occurrences = self.occurrence_count(n);
        let earlier: Vec<usize> = self.occurrences(n).take(ntimes.max(1)).collect();
        let empty = |color| SideReport {
            color,
            level: None,
            chased: Vec::new(),
            moves: Vec::new(),
            flags: 0,
        };
        let ending = Ending::of(&self.positions[n]);
        let window = if ending.is_some() {
            None
        } else {
            self.window_start(n, ntimes)
        };
        let Some(j) = window else {
            return Ruling {
                outcome: if ending.is_some() {
                    Outcome::Loss
                } else {
                    Outcome::Undecided
                },
                ending,
                side,
                ntimes,
                ply: n,
                occurrences,
                earlier,
                window: None,
                red: empty(Color::Red),
                black: empty(Color::Black),
            };
        };
        let them = self.judge_player(side.other(), n, j, self.player_moves(n, j, true));
        let us = self.judge_player(side, n, j, self.player_moves(n, j, false));
        let outcome = compare(us.level, them.level);
        let (red, black) = match side {
            Color::Red => (us, them),
            Color::Black => (them, us),
        };
        Ruling {
            outcome,
            ending: None,
            side,
            ntimes,
            ply: n,
            occurrences,
            earlier,
            window: Some((j, n)),
            red,
            black,
        }
    }

    /// Just the outcome of [`Record::judge`].
    pub fn judge_ntimes(&self, ntimes: usize) -> Outcome {
        self.judge(ntimes).outcome
    }

    /// The paper's `judge_prune` for a search at the first repetition: if
    /// the side to move's own level is idle it cannot lose, so when a draw
    /// already reaches `beta` the opponent's moves need not be judged. A
    /// side with no legal move has lost, as in [`Record::judge`].
    pub fn judge_prune(&self, draw_score: i32, beta: i32) -> Outcome {
        if Ending::of(self.current()).is_some() {
            return Outcome::Loss;
        }
        let n = self.ply();
        let Some(j) = self.window_start(n, 1) else {
            return Outcome::Undecided;
        };
        let side = self.current().side_to_move();
        let us = self.judge_player(side, n, j, self.player_moves(n, j, false));
        if us.level == Some(Level::Idle) && draw_score >= beta {
            return Outcome::Draw;
        }
        let them = self.judge_player(side.other(), n, j, self.player_moves(n, j, true));
        compare(us.level, them.level)
    }
}

/// `judge_ntimes`'s comparison, for the side to move.
fn compare(us: Option<Level>, them: Option<Level>) -> Outcome {
    match (us, them) {
        (Some(us), Some(them)) if us == them => Outcome::Draw,
        (Some(us), Some(them)) if us > them => Outcome::Loss,
        (Some(_), Some(_)) => Outcome::Win,
        _ => Outcome::Undecided,
    }
}

fn piece_name(color: Color, kind: Kind) -> String {
    format!("{} {}", color.name(), kind.name())
}

fn describe(pos_color: Color, a: &Attack) -> String {
    format!(
        "the {} on {} (by the {} on {})",
        piece_name(pos_color.other(), a.victim_kind),
        a.victim,
        a.attacker_kind.name(),
        a.attacker
    )
}

impl MoveReport {
    /// One phrase: what this move was and why.
    pub fn explain(&self, mover: Color) -> String {
        let st = &self.status;
        let mut s = self.wxf.clone();
        match st.status {
            Status::Check => {
                let by: Vec<String> = st.checkers.iter().map(|c| c.to_string()).collect();
                let _ = write!(s, " checks (from {})", by.join(", "));
            }
            Status::Chase => {
                let v: Vec<String> = st.chased.iter().map(|a| describe(mover, a)).collect();
                let _ = write!(s, " chases {}", v.join(" and "));
            }
            Status::Idle => s.push_str(" is idle"),
        }
        let mut notes = Vec::new();
        for (a, why) in &st.unanswered {
            let reason = match why {
                Unanswered::CounterCheck => "the reply checks instead".to_string(),
                Unanswered::CounterAttack(c) => {
                    let v: Vec<String> = c
                        .iter()
                        .map(|x| format!("{} {}", x.victim_kind.name(), x.victim))
                        .collect();
                    format!("the reply counter-attacks ({})", v.join(", "))
                }
                Unanswered::Sacrifice => "the reply leaves it en prise (a sacrifice)".into(),
            };
            notes.push(format!(
                "threatens {} but {reason}, so it is no chase",
                describe(mover, a)
            ));
        }
        for a in &st.old {
            notes.push(format!(
                "still threatens {} as before this move, which did not make the threat",
                describe(mover, a)
            ));
        }
        for (a, why) in &st.harmless {
            let reason = match why {
                Harmless::Protected { by, kind } => {
                    format!("protected by the {} on {by}", kind.name())
                }
                Harmless::Exchange => "an offer to exchange".into(),
                Harmless::UncrossedPawn => {
                    "a pawn that has not crossed the river cannot be chased".into()
                }
                Harmless::KingOrPawn => format!("a {} never chases", a.attacker_kind.name()),
            };
            notes.push(format!("attacks {}: {reason}", describe(mover, a)));
        }
        if !notes.is_empty() {
            let _ = write!(s, " ({})", notes.join("; "));
        }
        s
    }
}

impl SideReport {
    /// A sentence on this player's moves over the repetition.
    pub fn summary(&self) -> String {
        let who = self.color.title();
        let list: Vec<String> = self.moves.iter().map(|m| m.wxf.clone()).collect();
        let list = list.join(", ");
        match self.level {
            None => format!("{who}: no repetition."),
            Some(Level::Check) => format!("{who} checks on every move: {list} — perpetual check."),
            Some(Level::Chase) => {
                let v: Vec<String> = self
                    .chased
                    .iter()
                    .map(|(s, k)| {
                        format!("the {} (now on {s})", piece_name(self.color.other(), *k))
                    })
                    .collect();
                format!(
                    "{who} chases {} on every move: {list} — perpetual chase.",
                    v.join(" and ")
                )
            }
            Some(Level::Idle) => {
                let why = if self.flags & Status::Check.flag() != 0
                    && self.flags & Status::Chase.flag() != 0
                {
                    "checks and chases alternate"
                } else if self.flags & Status::Check.flag() != 0 {
                    "not every move checks"
                } else if self.flags == Status::Chase.flag() | Status::Idle.flag()
                    && self.moves.iter().all(|m| m.status.status == Status::Chase)
                {
                    "the moves chase different pieces"
                } else if self.flags & Status::Chase.flag() != 0 {
                    "not every move chases"
                } else {
                    "no move checks or chases"
                };
                format!("{who}'s moves {list} are idle: {why}.")
            }
        }
    }
}

/// Who won and who lost, in the words every ruling text uses.
fn winner_and_loser(loser: Color) -> String {
    format!("{} wins, {} loses", loser.other().title(), loser.title())
}

/// What a repetition was ruled, by the two players' levels ([`Ruling::kind`]): the worse
/// violation when one outranks the other (its maker loses), or the draw of equal levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RulingKind {
    /// One side checks on every move, the other does not: the checking side loses.
    PerpetualCheck,
    /// One side chases on every move, the other's moves are idle: the chasing side loses.
    PerpetualChase,
    /// Both sides check perpetually: a draw.
    MutualCheck,
    /// Both sides chase perpetually: a draw.
    MutualChase,
    /// Neither side checks or chases perpetually: a draw.
    Idle,
}

impl RulingKind {
    /// Every kind, in the order of the violations' rank.
    pub const ALL: [RulingKind; 5] = [
        RulingKind::PerpetualCheck,
        RulingKind::PerpetualChase,
        RulingKind::MutualCheck,
        RulingKind::MutualChase,
        RulingKind::Idle,
    ];

    /// The kind in words: "perpetual check", "mutual chase", "idle".
    pub fn name(self) -> &'static str {
        match self {
            RulingKind::PerpetualCheck => "perpetual check",
            RulingKind::PerpetualChase => "perpetual chase",
            RulingKind::MutualCheck => "mutual check",
            RulingKind::MutualChase => "mutual chase",
            RulingKind::Idle => "idle",
        }
    }

    /// The kind as a code: `perpetual-check`, `mutual-chase`, `idle`.
    pub fn code(self) -> &'static str {
        match self {
            RulingKind::PerpetualCheck => "perpetual-check",
            RulingKind::PerpetualChase => "perpetual-chase",
            RulingKind::MutualCheck => "mutual-check",
            RulingKind::MutualChase => "mutual-chase",
            RulingKind::Idle => "idle",
        }
    }
}

impl Ruling {
    /// The kind of a repetition ruled: `None` while undecided or when the side to move has
    /// no legal move (an [`Ending`], not a repetition).
    pub fn kind(&self) -> Option<RulingKind> {
        if self.ending.is_some() {
            return None;
        }
        let (red, black) = (self.red.level?, self.black.level?);
        Some(match (red.max(black), red == black) {
            (Level::Check, false) => RulingKind::PerpetualCheck,
            (Level::Chase, false) => RulingKind::PerpetualChase,
            (Level::Check, true) => RulingKind::MutualCheck,
            (Level::Chase, true) => RulingKind::MutualChase,
            (Level::Idle, _) => RulingKind::Idle,
        })
    }

    /// The side the ruling goes against: the loser of a win or loss, `None` for a draw or
    /// while undecided.
    pub fn loser(&self) -> Option<Color> {
        match self.outcome {
            Outcome::Loss => Some(self.side),
            Outcome::Win => Some(self.side.other()),
            Outcome::Draw | Outcome::Undecided => None,
        }
    }
}

impl Ruling {
    /// The first line of a ruling: whose win or loss ("Black wins, Red
    /// loses"), a draw, or no ruling yet, never a bare `win` that leaves the
    /// reader to work out for whom.
    pub fn headline(&self) -> String {
        let head = match self.outcome {
            Outcome::Undecided => format!("Undecided ({} to move)", self.side.title()),
            Outcome::Draw => "Draw".to_string(),
            Outcome::Win => winner_and_loser(self.side.other()),
            Outcome::Loss => winner_and_loser(self.side),
        };
        // A side with no legal move has lost: say how.
        match self.ending {
            Some(e) => format!("{head} by {}", e.name()),
            None => head,
        }
    }

    /// The ruling in words: which side, which plies, what kind, which pieces,
    /// and why threats were no chases.
    pub fn explanation(&self) -> String {
        let mut s = String::new();
        let side = self.side.title();
        if let Some(ending) = self.ending {
            let _ = write!(
                s,
                "{side} (to move) has no legal move after ply {}{}: {}, and in xiangqi a player who cannot move loses (WXF), so {side} loses.",
                self.ply,
                if ending == Ending::Checkmate {
                    " and is in check"
                } else {
                    ", not in check"
                },
                ending.name()
            );
            return s;
        }
        let Some((j, n)) = self.window else {
            let _ = write!(
                s,
                "Undecided: the position after ply {} ({side} to move) has occurred {} time{} before{}; a ruling needs {}.",
                self.ply,
                self.occurrences,
                if self.occurrences == 1 { "" } else { "s" },
                if self.earlier.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (after ply {})",
                        self.earlier
                            .iter()
                            .map(|p| p.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                },
                self.ntimes.max(1)
            );
            return s;
        };
        let mut occ: Vec<usize> = self.earlier.iter().copied().filter(|&p| p >= j).collect();
        occ.reverse();
        let occ: Vec<String> = occ.iter().map(|p| p.to_string()).collect();
        let _ = writeln!(
            s,
            "The position after ply {n} ({side} to move) also stood after {} {}; judged over plies {}–{n}.",
            if occ.len() == 1 { "ply" } else { "plies" },
            match occ.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => occ.concat(),
            },
            j + 1
        );
        for r in [&self.red, &self.black] {
            let _ = writeln!(s, "{}", r.summary());
            for m in &r.moves {
                let _ = writeln!(s, "  ply {}: {}", m.ply, m.explain(r.color));
            }
        }
        let (red, black) = (
            self.red.level.expect("judged"),
            self.black.level.expect("judged"),
        );
        let verdict = if red == black {
            match red {
                Level::Check => "Both sides check perpetually: draw.".to_string(),
                Level::Chase => "Both sides chase perpetually: draw.".to_string(),
                Level::Idle => "Neither side checks or chases perpetually: draw.".to_string(),
            }
        } else {
            let (loser, worse, better) = if red > black {
                (Color::Red, red, black)
            } else {
                (Color::Black, black, red)
            };
            format!(
                "Perpetual {} outranks {}: {}.",
                worse.name(),
                match better {
                    Level::Idle => "idle moves".to_string(),
                    l => format!("perpetual {}", l.name()),
                },
                winner_and_loser(loser)
            )
        };
        s.push_str(&verdict);
        s
    }
}

/// What a move of the game was, as far as the game so far tells: the one status a move list
/// shows (`threefold xiangqi analyze`, the trainer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveNote {
    /// A capture or a pawn advance: it cancels the repetition count.
    Cancel { capture: bool },
    /// A reversible move whose reply is known: its status (check, chase of which piece by
    /// which, idle) with everything it rests on.
    Judged(MoveReport),
    /// The last move, giving check.
    Check,
    /// The last move, threatening these captures: a chase if the reply answers them.
    Threat(Vec<Attack>),
    /// The last move, threatening nothing new.
    Quiet,
}

impl MoveNote {
    /// The status's one word: `cancel`, `check`, `chase`, `idle`, `threat`.
    pub fn name(&self) -> &'static str {
        match self {
            MoveNote::Cancel { .. } => "cancel",
            MoveNote::Judged(r) => r.status.status.name(),
            MoveNote::Check => "check",
            MoveNote::Threat(_) => "threat",
            MoveNote::Quiet => "idle",
        }
    }

    /// The detail in words, without the move itself: "chases the black rook on a7 (by the
    /// cannon on a2)", "pawn advance", "threatens rook b7 (a chase if the reply answers it)".
    pub fn detail(&self, mover: Color) -> String {
        match self {
            MoveNote::Cancel { capture: true } => "capture".into(),
            MoveNote::Cancel { capture: false } => "pawn advance".into(),
            MoveNote::Judged(r) => {
                let text = r.explain(mover);
                text.split_once(' ')
                    .map_or(text.clone(), |(_, rest)| rest.to_string())
            }
            MoveNote::Check => "checks".into(),
            MoveNote::Threat(threats) => {
                let v: Vec<String> = threats
                    .iter()
                    .map(|a| format!("{} {}", a.victim_kind.name(), a.victim))
                    .collect();
                format!(
                    "threatens {} (a chase if the reply answers it)",
                    v.join(", ")
                )
            }
            MoveNote::Quiet => "threatens nothing new".into(),
        }
    }
}

impl Record {
    /// The note of the move that reached position `ply` (1-based), as far as the game so far
    /// tells: a cancel; its judged status once its reply is known; for the last move, its
    /// check or the threats it made.
    pub fn move_note(&self, ply: usize) -> MoveNote {
        let m = self.move_at(ply);
        if self.irreversible(ply) {
            return MoveNote::Cancel {
                capture: self.position(ply - 1).is_capture(m),
            };
        }
        if ply < self.ply() {
            return MoveNote::Judged(MoveReport {
                ply,
                mv: m,
                wxf: super::notation::wxf(self.position(ply - 1), m),
                status: self.status_at(ply).clone(),
            });
        }
        if self.in_check_at(ply) {
            return MoveNote::Check;
        }
        let (new, _) = self.threats_made(ply);
        if new.threats.is_empty() {
            MoveNote::Quiet
        } else {
            MoveNote::Threat(new.threats)
        }
    }
}

/// A game judged as it is played. A ruling ends the game as a chess ending does (threefold's
/// `Game::play_past_end` keeps the first ending): the first ply at which [`Record::judge`]
/// rules — a repetition ruled, or a side left without a legal move — stands, and moves made
/// after it are played past it, which changes nothing. `threefold xiangqi judge` and
/// `analyze`, the trainer and the drills read a game's ruling from here, so a perpetual
/// chase ruled at ply 14 with `--ntimes 1` is not "undecided" one ply later.
#[derive(Clone, Debug)]
pub struct JudgedGame {
    record: Record,
    ntimes: usize,
    /// The first ruling made (never [`Outcome::Undecided`]).
    standing: Option<Ruling>,
}

impl JudgedGame {
    /// A game from `start`, ruled at the first repetition (`ntimes` 1) or at the third
    /// occurrence (2); a start position without a legal move is ruled at once.
    pub fn new(start: Position, ntimes: usize) -> JudgedGame {
        let record = Record::new(start);
        let mut game = JudgedGame {
            record,
            ntimes,
            standing: None,
        };
        game.rule();
        game
    }

    /// `record`'s game judged ply by ply from its start.
    pub fn of(record: &Record, ntimes: usize) -> JudgedGame {
        let mut game = JudgedGame::new(record.position(0).clone(), ntimes);
        for ply in 1..=record.ply() {
            game.push(record.move_at(ply));
        }
        game
    }

    /// Judges the current position if nothing stands yet.
    fn rule(&mut self) {
        if self.standing.is_none() {
            let r = self.record.judge(self.ntimes);
            if r.outcome != Outcome::Undecided {
                self.standing = Some(r);
            }
        }
    }

    /// Plays a legal move (after a ruling too: it is then played past the ruling).
    pub fn push(&mut self, m: Move) {
        self.record.push(m);
        self.rule();
    }

    /// Takes back the last move; a ruling made at the ply taken back goes with it.
    pub fn pop(&mut self) {
        self.record.pop();
        if self
            .standing
            .as_ref()
            .is_some_and(|r| r.ply > self.record.ply())
        {
            self.standing = None;
        }
    }

    /// The moves played, with their statuses.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The occurrence a ruling needs (1: first repetition, 2: third occurrence).
    pub fn ntimes(&self) -> usize {
        self.ntimes
    }

    /// The ruling that stands, if one was made.
    pub fn standing(&self) -> Option<&Ruling> {
        self.standing.as_ref()
    }

    /// The game's ruling: the one that stands, or else the judge's word on the current
    /// position (undecided).
    pub fn ruling(&self) -> Ruling {
        self.standing
            .clone()
            .unwrap_or_else(|| self.record.judge(self.ntimes))
    }

    /// How many moves were played after the ruling that stands (0 without one).
    pub fn played_past(&self) -> usize {
        self.standing
            .as_ref()
            .map_or(0, |r| self.record.ply() - r.ply)
    }

    /// One sentence when moves went on past the ruling: which plies, and that the ruling
    /// stands.
    pub fn past_note(&self) -> Option<String> {
        let r = self.standing.as_ref()?;
        let n = self.record.ply();
        (n > r.ply).then(|| {
            let plies = if n == r.ply + 1 {
                format!("ply {n} was")
            } else {
                format!("plies {}–{n} were", r.ply + 1)
            };
            format!(
                "The ruling was made after ply {} and stands: {plies} played past it.",
                r.ply
            )
        })
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
