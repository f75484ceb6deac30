//! Ruling: the paper's `judge_player` and `judge_ntimes` over a [`Record`], the reports a
//! ruling rests on, and its words (headline, explanation, the status of each move).

use std::fmt::Write as _;

use super::record::Record;
use super::rule_at::RuleAt;
use super::threats::{Attack, EntryStatus, Harmless, Status, Unanswered};
use crate::board::{Color, Kind, Move, Position, Square};
use crate::notation::wxf;

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
    /// The occurrence ruled at.
    pub rule_at: RuleAt,
    /// The ply judged (the number of moves played).
    pub ply: usize,
    /// How many times the final position stood before (since the last
    /// irreversible move).
    pub occurrences: usize,
    /// The most recent of those earlier plies, most recent first: at most
    /// `rule_at.ntimes()`, the ones a ruling counts. Not all of them: a ruling per ply
    /// of a long shuffle would carry the whole history each (quadratic).
    pub earlier: Vec<usize>,
    /// The judged span: the moves after ply `.0` up to ply `.1`.
    pub window: Option<(usize, usize)>,
    pub red: SideReport,
    pub black: SideReport,
}

impl Record {
    /// The earlier occurrence from which repetitions are counted, if the position of ply
    /// `n` has occurred often enough before to be ruled `at`.
    fn window_start(&self, n: usize, at: RuleAt) -> Option<usize> {
        self.occurrences(n).nth(at.ntimes() - 1)
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
    /// often enough before to be ruled `at` (once: at the first repetition, twice: at the
    /// third occurrence). Everything that rules a xiangqi game calls this.
    pub fn judge(&self, at: RuleAt) -> Ruling {
        self.judge_at(self.ply(), at)
    }

    /// [`Record::judge`] of the game as it stood after ply `n` (at most [`Record::ply`]): the
    /// same ruling as the record taken back to ply `n` gives, without taking anything back
    /// (the trainer's screen shows the judge's reading of the ply shown).
    pub fn judge_at(&self, n: usize, at: RuleAt) -> Ruling {
        let side = self.positions[n].side_to_move();
        let occurrences = self.occurrence_count(n);
        let earlier: Vec<usize> = self.occurrences(n).take(at.ntimes()).collect();
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
            self.window_start(n, at)
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
                rule_at: at,
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
            rule_at: at,
            ply: n,
            occurrences,
            earlier,
            window: Some((j, n)),
            red,
            black,
        }
    }

    /// Just the outcome of [`Record::judge`].
    pub fn judge_ntimes(&self, at: RuleAt) -> Outcome {
        self.judge(at).outcome
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
        let Some(j) = self.window_start(n, RuleAt::FirstRepetition) else {
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

    /// The move whose reply the judge took for move `ply`'s, where that is not the move
    /// played after it: for the ruling's last move, which had no reply yet, the reply played
    /// when the position stood before (the move after the earlier occurrence the window
    /// starts at: the same position, the same next move in the cycle). `None` for every other
    /// move: its own reply was played.
    pub fn stand_in_reply(&self, ply: usize) -> Option<usize> {
        let (j, n) = self.window?;
        (ply == n).then_some(j + 1)
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
                self.rule_at.ntimes()
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
                wxf: crate::notation::wxf(self.position(ply - 1), m),
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
