//! The review of xiangqi games: every repetition of a game read from PGN, each ruled by the
//! WXF judge ([`threefold_xiangqi::judge`]), and the totals of a collection
//! ([`XiangqiTotals`]).
//!
//! A game is read by the xiangqi crate's PGN reader ([`threefold_xiangqi::pgn::read`]: SAN,
//! UCCI `h2e2`, ICCS `H2-E2` or WXF moves, with or without `[Variant "xiangqi"]`), replayed
//! into a judge [`Record`], and read ply by ply:
//!
//! - a **repetition** is a run of consecutive plies whose positions each stood before since
//!   the last capture or pawn advance (the judge's [`Record::occurrence_count`]);
//! - a repetition is **ruled** at its first ply whose position has stood often enough
//!   before ([`XqOptions::rule_at`]: the third occurrence, as `threefold xiangqi judge`
//!   and Fairy-Stockfish rule, or the first repetition), by [`Record::judge_at`], the call
//!   every ruling in threefold makes: so the game's first ruling is the one
//!   `threefold xiangqi judge` and the trainer give ([`JudgedGame`]'s standing ruling).
//!   Its kind ([`RulingKind`]: perpetual check, perpetual chase, mutual check or chase,
//!   idle) and the side it goes against are the judge's;
//! - a ruling **ended the game** when its repetition is the game's last, the game ended in
//!   it (its last ply is the game's last), and the result agrees with the ruling (a draw
//!   `1/2-1/2`, a loss the winner's `1-0` / `0-1`).
//!
//! A game that ends with the side to move without a legal move ends by checkmate or
//! stalemate ([`Ending`]); both lose in xiangqi.
//!
//! # The players' findings ([`XqFinding`])
//!
//! What the players did about the repetitions, each answered by the arbiter
//! ([`threefold_xiangqi::arbiter::call`]) or the judge, never ruled here:
//!
//! - a **missed call**: the side to move could have called the arbiter — the opponent's
//!   repetition is forbidden, so the call is right and the opponent must vary or lose — and
//!   made no call then (the first such moment of each repetition, for each side, unless the
//!   side called earlier in it; before the game's ruling, which ends the game);
//! - a **wrong call** (and a right one, listed too): each call made in the game
//!   ([`XqCall`]: the trainer's screen records them; PGN holds none), answered as the arbiter
//!   answered it then;
//! - a **forbidden move**: a move that brought a position back and made the mover's own
//!   repetition the forbidden one (the judge's word on the repetition so far, at the first
//!   repetition: the mover loses), the first of each repetition for each side, with the
//!   moves that would have broken it (every legal move after which the judge does not rule
//!   the mover lost).
//!
//! With the engine ([`engine_pass`]) the review reads which of them **mattered**: the
//! position before the forbidden move is searched once (with the game's history, its judge
//! on: the engine's score is the best move that does not repeat forbidden). A forbidden move
//! mattered when the mover had a way out not lost ([`WINNING_CP`]); a missed call mattered
//! when the offender, made to vary, was lost, and the caller did not win the game.
//!
//! [`JudgedGame`]: threefold_xiangqi::judge::JudgedGame

use std::collections::BTreeMap;
use std::io::{self, Write};

use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use threefold_engine::{Engine, Request, Score, TtAllocError};
use threefold_xiangqi::arbiter::{self, Call, Verdict};
use threefold_xiangqi::judge::{Ending, JudgedGame, Record, RuleAt, Ruling, RulingKind};
use threefold_xiangqi::notation::wxf;
use threefold_xiangqi::pgn::{self, Outcome as PgnOutcome, PgnReason};
use threefold_xiangqi::{Color, Move, Position};

use super::Budget;
use super::params::WINNING_CP;

/// How games are judged: the options of `threefold xiangqi judge`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XqOptions {
    /// The occurrence of a position a repetition is ruled at: the third (the default) or the
    /// first repetition, as `xiangqi judge --ntimes`.
    pub rule_at: RuleAt,
}

impl Default for XqOptions {
    fn default() -> Self {
        XqOptions {
            rule_at: RuleAt::ThirdOccurrence,
        }
    }
}

/// A game that could not be reviewed: where (file, line of the file, game number, the
/// game's first line) and why (the PGN reader's [`PgnReason`]: one variant per cause).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: game {game} (from line {first_line}): {reason}")]
pub struct XqReviewError {
    pub file: String,
    /// The line of the file the problem is on.
    pub line: usize,
    /// The game's number in the file.
    pub game: usize,
    /// The line of the game's first byte.
    pub first_line: usize,
    /// Boxed: a review's `Result` stays small.
    pub reason: Box<PgnReason>,
}

/// A run of plies whose positions each stood before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqRepetition {
    /// The first ply of the run (its position stood before).
    pub first_ply: usize,
    /// The last ply of the run.
    pub last_ply: usize,
    /// The earliest ply at which the run's first position stood.
    pub first_seen: usize,
    /// The most times one position of the run stood (2: once repeated, 3: a third
    /// occurrence...).
    pub most: usize,
}

/// A repetition ruled by the judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqRuling {
    /// The judge's ruling, at the ply it was made (its `ply`), for the side to move there.
    pub ruling: Ruling,
    pub kind: RulingKind,
    /// Which of the game's repetitions ([`XqReview::repetitions`]) it rules.
    pub repetition: usize,
    /// The game ended in this repetition with the result the ruling gives.
    pub ended_game: bool,
}

impl XqRuling {
    /// The side the ruling goes against (`None`: a draw).
    pub fn against(&self) -> Option<Color> {
        self.ruling.loser()
    }
}

/// The review of one xiangqi game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqReview {
    /// The tags other than `Variant`, `SetUp`, `FEN` and `Result`, as read.
    pub tags: Vec<(String, String)>,
    /// The result, from the movetext's end or the Result tag.
    pub result: PgnOutcome,
    /// The side to move at the start.
    pub first_to_move: Color,
    /// The moves, `moves[p - 1]` reaching ply `p`.
    pub moves: Vec<Move>,
    /// The WXF notation of the moves the findings name, by ply (written only for those:
    /// WXF is read against the position, so it costs a legal-move generation).
    wxf: BTreeMap<usize, String>,
    pub repetitions: Vec<XqRepetition>,
    pub rulings: Vec<XqRuling>,
    /// The side to move at the end has no legal move.
    pub ending: Option<Ending>,
    /// What the players did about the repetitions, by ply ([`XqFinding`]).
    pub findings: Vec<XqFinding>,
}

/// A call to the arbiter made in a game: after ply `ply`, by `caller`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XqCall {
    pub ply: usize,
    pub caller: Color,
    pub call: Call,
}

/// What a player's finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum XqFindingKind {
    /// The side to move could have called the arbiter on the opponent's forbidden
    /// repetition and did not.
    MissedCall,
    /// A call the arbiter answered as wrong (why: the verdict).
    WrongCall(Verdict),
    /// A call the arbiter answered as right.
    RightCall,
    /// A move that made the mover's own repetition forbidden.
    ForbiddenMove,
}

impl XqFindingKind {
    /// The name in the JSON output and on the review screen: `missed-call`, `wrong-call`,
    /// `right-call`, `forbidden-move`.
    pub fn code(self) -> &'static str {
        match self {
            XqFindingKind::MissedCall => "missed-call",
            XqFindingKind::WrongCall(_) => "wrong-call",
            XqFindingKind::RightCall => "right-call",
            XqFindingKind::ForbiddenMove => "forbidden-move",
        }
    }

    /// Whether a finding of this kind is a player's mistake (a drill can be made of it).
    pub fn is_mistake(self) -> bool {
        !matches!(self, XqFindingKind::RightCall)
    }
}

/// One finding about the players (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqFinding {
    pub kind: XqFindingKind,
    /// The ply of the position the finding is about: the side concerned is to move there
    /// (a forbidden move: the position it was played from).
    pub ply: usize,
    /// The side concerned: the caller (or who could have called), the mover.
    pub side: Color,
    /// The forbidden move played.
    pub mv: Option<Move>,
    /// The call made (a call), or the call that was right (a missed call).
    pub call: Option<Call>,
    /// A forbidden move: the moves that would have broken the repetition, sorted by UCCI.
    pub breaks: Vec<Move>,
    /// Which of the game's repetitions it is about, if one.
    pub repetition: Option<usize>,
    /// The engine's score of the position before the offending move, from `side`'s view
    /// ([`engine_pass`]; `None` without the engine).
    pub eval: Option<Score>,
    /// By the engine's score: the finding cost (or would have won) a game.
    pub mattered: bool,
    /// In words.
    pub text: String,
}

/// Reviews one xiangqi game given as the PGN text of that game alone. `first_line` is the
/// line of the game's first byte in `file`, so an error names the file's line; `game` is its
/// number in the file.
pub fn review_game(
    text: &str,
    file: &str,
    first_line: usize,
    game: usize,
    opts: &XqOptions,
) -> Result<XqReview, XqReviewError> {
    let g = pgn::read(text).map_err(|e| XqReviewError {
        file: file.to_string(),
        line: first_line + e.line.max(1) - 1,
        game,
        first_line,
        reason: Box::new(e.reason),
    })?;
    Ok(review_pgn_game(&g, opts))
}

/// Reviews a game the xiangqi PGN reader has read (no calls: PGN records none).
pub fn review_pgn_game(g: &pgn::PgnGame, opts: &XqOptions) -> XqReview {
    review_with_calls(g, &[], opts)
}

/// Reviews a game and the calls to the arbiter made in it (the trainer's screen records
/// them): the repetitions, their rulings and the players' findings ([`XqFinding`]). The
/// one review of a xiangqi game: `threefold review --xiangqi` and the trainer's review
/// screen both call it.
pub fn review_with_calls(g: &pgn::PgnGame, calls: &[XqCall], opts: &XqOptions) -> XqReview {
    let at = opts.rule_at;
    // The game judged as it is played: the arbiter answers a call on the game as it stood.
    let mut game = JudgedGame::new(g.start.clone(), at);
    let mut repetitions: Vec<XqRepetition> = Vec::new();
    let mut rulings: Vec<XqRuling> = Vec::new();
    let mut findings: Vec<XqFinding> = Vec::new();
    let mut run_open = false;
    for (i, &m) in g.moves.iter().enumerate() {
        let ply = i + 1;
        // Over before this move (a ruling stands from an earlier ply): nothing is found.
        let live = game.standing().is_none();
        game.push(m);
        let record = game.record();
        let count = record.occurrence_count(ply);
        if count == 0 {
            run_open = false;
        } else {
            if !run_open {
                run_open = true;
                repetitions.push(XqRepetition {
                    first_ply: ply,
                    last_ply: ply,
                    first_seen: record.occurrences(ply).last().unwrap_or(ply),
                    most: 0,
                });
            }
            let index = repetitions.len() - 1;
            let rep = &mut repetitions[index];
            rep.last_ply = ply;
            rep.most = rep.most.max(count + 1);
            // The first ply of the run at which the judge rules: a repetition is ruled once.
            if count >= at.ntimes() && rulings.last().is_none_or(|r| r.repetition != index) {
                let ruling = record.judge_at(ply, at);
                if let Some(kind) = ruling.kind() {
                    rulings.push(XqRuling {
                        ruling,
                        kind,
                        repetition: index,
                        ended_game: false,
                    });
                }
            }
            if live {
                forbidden_move(&mut game, ply, index, &mut findings);
                missed_call(&game, ply, index, calls, &mut findings);
            }
        }
        calls_at(
            &game,
            ply,
            run_open.then(|| repetitions.len() - 1),
            calls,
            &mut findings,
        );
    }
    let record = game.record();
    let plies = record.ply();
    // The last repetition ended the game if the game ended in it with the ruling's result.
    if let (Some(last), Some(rep)) = (rulings.last_mut(), repetitions.last())
        && last.repetition == repetitions.len() - 1
        && rep.last_ply == plies
    {
        last.ended_game = match last.against() {
            None => g.result == PgnOutcome::Draw,
            Some(Color::Red) => g.result == PgnOutcome::BlackWins,
            Some(Color::Black) => g.result == PgnOutcome::RedWins,
        };
    }
    let named = repetitions
        .iter()
        .flat_map(|r| [r.first_ply, r.last_ply])
        .chain(rulings.iter().map(|r| r.ruling.ply))
        .chain(findings.iter().map(|f| match f.kind {
            XqFindingKind::ForbiddenMove => f.ply + 1,
            _ => f.ply,
        }));
    let wxf = named
        .filter(|&p| p >= 1)
        .map(|p| (p, wxf(record.position(p - 1), record.move_at(p))))
        .collect();
    findings.sort_by_key(|f| f.ply);
    let mut review = XqReview {
        tags: g.tags.clone(),
        result: g.result,
        first_to_move: g.start.side_to_move(),
        moves: g.moves.clone(),
        wxf,
        repetitions,
        rulings,
        ending: Ending::of(record.current()),
        findings,
    };
    for i in 0..review.findings.len() {
        if let Some(text) = review.finding_text(&review.findings[i], record) {
            review.findings[i].text = text;
        }
    }
    review
}

/// The judge's word on the repetition so far (at its first repetition) after ply `ply`.
fn so_far(record: &Record, ply: usize) -> Ruling {
    record.judge_at(ply, RuleAt::FirstRepetition)
}

/// Ply `ply` (just played) brought a position back: if the judge's word on the repetition
/// so far rules its mover lost, and it is the mover's first such move in repetition
/// `index`, a forbidden-move finding with the moves that would have broken it (each tried
/// on the game taken back one ply).
fn forbidden_move(game: &mut JudgedGame, ply: usize, index: usize, out: &mut Vec<XqFinding>) {
    let record = game.record();
    let mover = record.position(ply - 1).side_to_move();
    if so_far(record, ply).loser() != Some(mover)
        || out.iter().any(|f| {
            f.kind == XqFindingKind::ForbiddenMove && f.side == mover && f.repetition == Some(index)
        })
    {
        return;
    }
    let played = record.move_at(ply);
    game.pop();
    // The judge's one list of the moves forbidden now (the trainer's board marks the same).
    let before = game.record();
    let (mut breaks, _) = before.allowed_and_forbidden(RuleAt::FirstRepetition);
    game.push(played);
    breaks.sort_by_key(|m| m.ucci());
    out.push(XqFinding {
        kind: XqFindingKind::ForbiddenMove,
        ply: ply - 1,
        side: mover,
        mv: Some(played),
        call: None,
        breaks,
        repetition: Some(index),
        eval: None,
        mattered: false,
        text: String::new(),
    });
}

/// After ply `ply` (a position that stood before, no ruling yet): the side to move could
/// call the opponent's repetition forbidden and be right. A missed call if it is the
/// first such moment of repetition `index` for that side and the side made no call in it.
fn missed_call(
    game: &JudgedGame,
    ply: usize,
    index: usize,
    calls: &[XqCall],
    out: &mut Vec<XqFinding>,
) {
    if game.standing().is_some() {
        return;
    }
    let caller = game.record().current().side_to_move();
    let seen = out.iter().any(|f| {
        f.side == caller
            && f.repetition == Some(index)
            && matches!(
                f.kind,
                XqFindingKind::MissedCall | XqFindingKind::RightCall | XqFindingKind::WrongCall(_)
            )
    });
    if seen || calls.iter().any(|c| c.ply == ply && c.caller == caller) {
        return;
    }
    if arbiter::call(game, caller, Call::Forbidden).is_right() {
        out.push(XqFinding {
            kind: XqFindingKind::MissedCall,
            ply,
            side: caller,
            mv: None,
            call: Some(Call::Forbidden),
            breaks: Vec::new(),
            repetition: Some(index),
            eval: None,
            mattered: false,
            text: String::new(),
        });
    }
}

/// The calls made after ply `ply`, each answered by the arbiter on the game as it stood
/// (a call repeated at the same ply is listed once).
fn calls_at(
    game: &JudgedGame,
    ply: usize,
    repetition: Option<usize>,
    calls: &[XqCall],
    out: &mut Vec<XqFinding>,
) {
    let mut made: Vec<&XqCall> = calls.iter().filter(|c| c.ply == ply).collect();
    made.dedup();
    for c in made {
        let answer = arbiter::call(game, c.caller, c.call);
        let kind = if answer.is_right() {
            XqFindingKind::RightCall
        } else {
            XqFindingKind::WrongCall(answer.verdict())
        };
        out.push(XqFinding {
            kind,
            ply,
            side: c.caller,
            mv: None,
            call: Some(c.call),
            breaks: Vec::new(),
            repetition,
            eval: None,
            mattered: false,
            text: format!(
                "{}: {}",
                answer.headline(),
                answer.explanation().lines().next().unwrap_or_default()
            ),
        });
    }
}

/// The engine's part of a xiangqi review: the position before each forbidden move (and
/// before the move a missed call is about) searched once with `budget`, with the game's
/// history; each finding gets its score and whether it mattered (see the module docs).
/// `start` is the game's start position. `progress` is called with (positions searched,
/// positions to search); setting `stop` ends the pass early (findings left unsearched keep
/// no score).
pub fn engine_pass(
    review: &mut XqReview,
    start: &Position,
    budget: Budget,
    hash_mb: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(), TtAllocError> {
    // The plies to search: the position before the offending move, with its side to move.
    let before = |f: &XqFinding| match f.kind {
        XqFindingKind::ForbiddenMove => Some(f.ply),
        XqFindingKind::MissedCall => f.ply.checked_sub(1),
        _ => None,
    };
    let mut plies: Vec<usize> = review.findings.iter().filter_map(before).collect();
    plies.sort_unstable();
    plies.dedup();
    let total = plies.len();
    if total == 0 {
        progress(0, 0);
        return Ok(());
    }
    let mut engine = Engine::new(hash_mb)?;
    engine.new_game();
    let limits = budget.limits();
    let mut scores = BTreeMap::new();
    for (done, &p) in plies.iter().enumerate() {
        progress(done, total);
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let r = engine.search(
            &Request::new(start, &review.moves[..p], &limits, stop),
            &mut (),
            &mut |_| {},
        );
        if stop.load(Ordering::Relaxed) {
            break;
        }
        scores.insert(p, r.score);
    }
    progress(scores.len(), total);
    let caller_won = |c: Color| match c {
        Color::Red => review.result == PgnOutcome::RedWins,
        Color::Black => review.result == PgnOutcome::BlackWins,
    };
    let mut findings = std::mem::take(&mut review.findings);
    for f in &mut findings {
        let Some(score) = before(f).and_then(|p| scores.get(&p)) else {
            continue;
        };
        match f.kind {
            // The score is the mover's: its best move that does not repeat forbidden.
            XqFindingKind::ForbiddenMove => {
                f.eval = Some(*score);
                f.mattered = !f.breaks.is_empty() && score.cp() > -WINNING_CP;
            }
            // The score is the offender's, made to vary; the caller's view is its negation.
            XqFindingKind::MissedCall => {
                f.eval = Some(super::negate(*score));
                f.mattered = score.cp() <= -WINNING_CP && !caller_won(f.side);
            }
            _ => {}
        }
    }
    let record = review.record(start);
    for f in &mut findings {
        if let Some(text) = review.finding_text(f, &record) {
            f.text = text;
        }
    }
    review.findings = findings;
    Ok(())
}

/// One line of the JSON output: a repetition or a ruling.
#[derive(Serialize)]
struct JsonFinding {
    game: usize,
    /// `repetition`, or the ruling's kind (`perpetual-check`, `perpetual-chase`,
    /// `mutual-check`, `mutual-chase`, `idle`).
    kind: &'static str,
    ply: usize,
    until_ply: usize,
    /// The side to move at `ply` (a ruling's `result` is stated for it).
    side: &'static str,
    /// The move that reached `ply`, in UCCI.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// A ruling's result for `side`: `win`, `loss`, `draw`.
    result: Option<&'static str>,
    /// The side a ruling goes against (null for a draw).
    against: Option<&'static str>,
    red: Option<&'static str>,
    black: Option<&'static str>,
    /// The repetition's most occurrences of one position.
    occurrences: Option<usize>,
    ended_game: Option<bool>,
    text: String,
    explanation: Option<String>,
    /// A repetition's players' findings ([`XqFinding`]), in its own object so that a game's
    /// lines stay one per repetition and ruling.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    players: Vec<JsonPlayerFinding>,
}

/// A player's finding in the JSON output.
#[derive(Serialize)]
struct JsonPlayerFinding {
    /// `missed-call`, `wrong-call`, `right-call`, `forbidden-move`.
    kind: &'static str,
    /// The position it is about (its side to move).
    ply: usize,
    side: &'static str,
    /// The forbidden move, in UCCI.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// The call made or missed: `forbidden`, `draw`.
    call: Option<&'static str>,
    /// The moves that would have broken a forbidden repetition, in UCCI.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    breaks: Vec<String>,
    /// The engine's score from `side`'s view, in centipawns (null without the engine).
    eval_cp: Option<i32>,
    mattered: bool,
    text: String,
}

impl JsonPlayerFinding {
    fn of(f: &XqFinding) -> JsonPlayerFinding {
        JsonPlayerFinding {
            kind: f.kind.code(),
            ply: f.ply,
            side: f.side.name(),
            mv: f.mv.map(|m| m.ucci()),
            call: f.call.map(|c| match c {
                Call::Forbidden => "forbidden",
                Call::Draw => "draw",
            }),
            breaks: f.breaks.iter().map(|m| m.ucci()).collect(),
            eval_cp: f.eval.map(Score::cp),
            mattered: f.mattered,
            text: f.text.clone(),
        }
    }
}

impl XqReview {
    /// The game's record from `start` (the start position it was reviewed from).
    pub fn record(&self, start: &Position) -> Record {
        let mut record = Record::new(start.clone());
        for &m in &self.moves {
            record.push(m);
        }
        record
    }

    /// The side to move after `ply` plies (the side a finding at `ply` is about).
    pub fn side_to_move_at(&self, ply: usize) -> Color {
        self.side_at(ply)
    }

    /// A finding in words (a call's words are the arbiter's, written when it was answered:
    /// `None`).
    fn finding_text(&self, f: &XqFinding, record: &Record) -> Option<String> {
        let side = f.side.title();
        let other = f.side.other().title();
        let eval = f.eval.map(super::eval_text);
        match f.kind {
            XqFindingKind::ForbiddenMove => {
                let ruling = so_far(record, f.ply + 1);
                let kind = ruling
                    .kind()
                    .map_or("a forbidden repetition", RulingKind::name);
                let pos = record.position(f.ply);
                let breaks = if f.breaks.is_empty() {
                    "no move would have broken it".to_string()
                } else {
                    let shown: Vec<String> =
                        f.breaks.iter().take(12).map(|&m| wxf(pos, m)).collect();
                    let more = f.breaks.len().saturating_sub(shown.len());
                    format!(
                        "{} of {} legal moves would have broken it: {}{}",
                        f.breaks.len(),
                        pos.legal_moves().as_slice().len(),
                        shown.join(", "),
                        if more > 0 {
                            format!(" and {more} more")
                        } else {
                            String::new()
                        }
                    )
                };
                let engine = match (eval, f.mattered) {
                    (None, _) => String::new(),
                    (Some(e), true) => format!(
                        " The engine scores {side}'s best way out {e}: the repetition threw away a game that was not lost."
                    ),
                    (Some(e), false) => {
                        format!(" The engine scores {side}'s best way out {e}: it did not matter.")
                    }
                };
                Some(format!(
                    "{} brought the position back and made {side}'s own repetition the forbidden one ({kind}: {}); {breaks}.{engine}",
                    self.ply_label(f.ply + 1),
                    ruling.headline()
                ))
            }
            XqFindingKind::MissedCall => {
                let ruling = so_far(record, f.ply);
                let kind = ruling
                    .kind()
                    .map_or("a forbidden repetition", RulingKind::name);
                let engine = match (eval, f.mattered) {
                    (None, _) => String::new(),
                    (Some(e), true) => format!(
                        " Made to vary, {other} was lost ({side}'s view: {e}), and the game ended {}: the call was worth a game.",
                        self.result.pgn()
                    ),
                    (Some(e), false) => {
                        format!(" Made to vary, {other} was not lost ({side}'s view: {e}).")
                    }
                };
                Some(format!(
                    "After {}, {side} could have called the arbiter: {other}'s repetition is forbidden ({kind}), so {other} would have had to vary or lose.{engine}",
                    self.ply_label(f.ply)
                ))
            }
            XqFindingKind::WrongCall(_) | XqFindingKind::RightCall => None,
        }
    }

    /// The number of moves played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The side to move after `ply` plies.
    fn side_at(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.first_to_move
        } else {
            self.first_to_move.other()
        }
    }

    /// "12." or "12...": the move number and side to move of the position after `ply`.
    pub fn place(&self, ply: usize) -> String {
        let n = (ply + usize::from(self.first_to_move == Color::Black)) / 2 + 1;
        match self.side_at(ply) {
            Color::Red => format!("{n}."),
            Color::Black => format!("{n}..."),
        }
    }

    /// "ply 23 (12. C2=5)": a ply and the move that reached it, numbered as a scoresheet
    /// numbers it.
    fn ply_label(&self, ply: usize) -> String {
        match self.wxf.get(&ply) {
            None => format!("ply {ply}"),
            Some(w) => {
                let n = (ply - 1 + usize::from(self.first_to_move == Color::Black)) / 2 + 1;
                let dots = match self.side_at(ply - 1) {
                    Color::Red => ".",
                    Color::Black => "...",
                };
                format!("ply {ply} ({n}{dots} {w})")
            }
        }
    }

    fn repetition_text(&self, r: &XqRepetition) -> String {
        let span = if r.last_ply > r.first_ply {
            format!(
                "; positions kept recurring through {}",
                self.ply_label(r.last_ply)
            )
        } else {
            String::new()
        };
        format!(
            "the position after {} stood before, first after {}{span}; at most {} times",
            self.ply_label(r.first_ply),
            if r.first_seen == 0 {
                "the start".to_string()
            } else {
                format!("ply {}", r.first_seen)
            },
            r.most
        )
    }

    /// The ruling in one line: the judge's headline and verdict ("Black wins, Red loses:
    /// Perpetual chase outranks idle moves."), and whether the game ended so.
    fn ruling_text(&self, r: &XqRuling) -> String {
        let explanation = r.ruling.explanation();
        let verdict = explanation.lines().last().unwrap_or_default();
        let ended = if r.ended_game {
            format!("; the game ended so ({})", self.result.pgn())
        } else {
            format!("; the game went on ({})", self.result.pgn())
        };
        format!(
            "{} ({}): {}{ended}",
            r.ruling.headline(),
            r.kind.name(),
            verdict.trim_end_matches('.')
        )
    }

    /// The findings in order: each repetition, its ruling after it.
    fn findings(&self) -> impl Iterator<Item = (&XqRepetition, Option<&XqRuling>)> {
        self.repetitions
            .iter()
            .enumerate()
            .map(|(i, rep)| (rep, self.rulings.iter().find(|r| r.repetition == i)))
    }

    /// The game's report, as `threefold review` writes a chess game's: a heading, then one
    /// line per finding (place, side, kind, text), each ruling with the players' moves as
    /// the judge sums them up.
    pub fn write_report(&self, out: &mut dyn Write, game: usize) -> io::Result<()> {
        writeln!(
            out,
            "Game {game}: {} - {}, {} ({} plies, xiangqi)",
            self.tag("White").unwrap_or("?"),
            self.tag("Black").unwrap_or("?"),
            self.result.pgn(),
            self.plies()
        )?;
        if self.repetitions.is_empty() {
            writeln!(out, "  no repetitions")?;
        }
        for (index, (rep, ruling)) in self.findings().enumerate() {
            writeln!(
                out,
                "  {:<9} {:<5} {:<22} {}",
                self.place(rep.first_ply),
                self.side_at(rep.first_ply).title(),
                "repetition",
                self.repetition_text(rep)
            )?;
            if let Some(r) = ruling {
                writeln!(
                    out,
                    "  {:<9} {:<5} {:<22} {}",
                    self.place(r.ruling.ply),
                    r.ruling.side.title(),
                    r.kind.code(),
                    self.ruling_text(r)
                )?;
                for side in [&r.ruling.red, &r.ruling.black] {
                    writeln!(out, "  {:<9} {:<5} {:<22}   {}", "", "", "", side.summary())?;
                }
            }
            for f in self.findings.iter().filter(|f| f.repetition == Some(index)) {
                self.write_finding(out, f)?;
            }
        }
        for f in self.findings.iter().filter(|f| f.repetition.is_none()) {
            self.write_finding(out, f)?;
        }
        if let Some(e) = self.ending {
            writeln!(
                out,
                "  {:<9} {:<5} {:<22} {} has no legal move: {}, and in xiangqi a player who cannot move loses",
                self.place(self.plies()),
                self.side_at(self.plies()).title(),
                e.name(),
                self.side_at(self.plies()).title(),
                e.name()
            )?;
        }
        writeln!(out)
    }

    /// A player's finding as a line of the report.
    fn write_finding(&self, out: &mut dyn Write, f: &XqFinding) -> io::Result<()> {
        let mark = if f.mattered { " (mattered)" } else { "" };
        writeln!(
            out,
            "  {:<9} {:<5} {:<22} {}",
            self.place(f.ply),
            f.side.title(),
            format!("{}{mark}", f.kind.code()),
            f.text
        )
    }

    /// One JSON object per finding, a line each: `game`, `kind` (`repetition` or the
    /// ruling's kind), `ply`, `until_ply`, `side` (to move at `ply`), `move` (UCCI, the move
    /// that reached `ply`), for a ruling `result` (for `side`), `against`, `red` and `black`
    /// (the levels: `check`, `chase`, `idle`), `ended_game` and `explanation` (the judge's
    /// words), for a repetition `occurrences` (the most of one position), and `text`.
    pub fn write_json(&self, out: &mut dyn Write, game: usize) -> io::Result<()> {
        let mv = |ply: usize| {
            ply.checked_sub(1)
                .and_then(|i| self.moves.get(i))
                .map(|m| m.ucci())
        };
        let mut line = |f: &JsonFinding| -> io::Result<()> {
            serde_json::to_writer(&mut *out, f)?;
            writeln!(out)
        };
        for (index, (rep, ruling)) in self.findings().enumerate() {
            line(&JsonFinding {
                game,
                kind: "repetition",
                ply: rep.first_ply,
                until_ply: rep.last_ply,
                side: self.side_at(rep.first_ply).name(),
                mv: mv(rep.first_ply),
                result: None,
                against: None,
                red: None,
                black: None,
                occurrences: Some(rep.most),
                ended_game: None,
                text: self.repetition_text(rep),
                explanation: None,
                players: self
                    .findings
                    .iter()
                    .filter(|f| f.repetition == Some(index))
                    .map(JsonPlayerFinding::of)
                    .collect(),
            })?;
            if let Some(r) = ruling {
                let level = |s: &threefold_xiangqi::judge::SideReport| s.level.map(|l| l.name());
                line(&JsonFinding {
                    game,
                    kind: r.kind.code(),
                    ply: r.ruling.ply,
                    until_ply: r.ruling.ply,
                    side: r.ruling.side.name(),
                    mv: mv(r.ruling.ply),
                    result: Some(r.ruling.outcome.name()),
                    against: r.against().map(Color::name),
                    red: level(&r.ruling.red),
                    black: level(&r.ruling.black),
                    occurrences: None,
                    ended_game: Some(r.ended_game),
                    text: self.ruling_text(r),
                    explanation: Some(r.ruling.explanation()),
                    players: Vec::new(),
                })?;
            }
        }
        // A call made outside any repetition: its own line.
        for f in self.findings.iter().filter(|f| f.repetition.is_none()) {
            serde_json::to_writer(
                &mut *out,
                &serde_json::json!({
                    "game": game,
                    "kind": f.kind.code(),
                    "ply": f.ply,
                    "side": f.side.name(),
                    "finding": JsonPlayerFinding::of(f),
                }),
            )?;
            writeln!(out)?;
        }
        Ok(())
    }
}

/// Counts per ruling kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulingCounts {
    pub perpetual_check: u64,
    pub perpetual_chase: u64,
    pub mutual_check: u64,
    pub mutual_chase: u64,
    pub idle: u64,
}

impl RulingCounts {
    fn slot(&mut self, kind: RulingKind) -> &mut u64 {
        match kind {
            RulingKind::PerpetualCheck => &mut self.perpetual_check,
            RulingKind::PerpetualChase => &mut self.perpetual_chase,
            RulingKind::MutualCheck => &mut self.mutual_check,
            RulingKind::MutualChase => &mut self.mutual_chase,
            RulingKind::Idle => &mut self.idle,
        }
    }

    /// The count of `kind`.
    pub fn get(&self, kind: RulingKind) -> u64 {
        match kind {
            RulingKind::PerpetualCheck => self.perpetual_check,
            RulingKind::PerpetualChase => self.perpetual_chase,
            RulingKind::MutualCheck => self.mutual_check,
            RulingKind::MutualChase => self.mutual_chase,
            RulingKind::Idle => self.idle,
        }
    }

    /// All kinds together.
    pub fn total(&self) -> u64 {
        RulingKind::ALL.iter().map(|&k| self.get(k)).sum()
    }

    fn merge(&mut self, other: &RulingCounts) {
        for k in RulingKind::ALL {
            *self.slot(k) += other.get(k);
        }
    }
}

/// The totals of the games with one result.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultTotals {
    pub games: u64,
    pub plies: u64,
    pub repetitions: u64,
    pub rulings: RulingCounts,
    /// The rulings that ended their game.
    pub ended: RulingCounts,
}

impl ResultTotals {
    fn merge(&mut self, o: &ResultTotals) {
        self.games += o.games;
        self.plies += o.plies;
        self.repetitions += o.repetitions;
        self.rulings.merge(&o.rulings);
        self.ended.merge(&o.ended);
    }
}

/// The totals of many xiangqi games: exact sums, so the totals of the parts of a collection
/// merged ([`XiangqiTotals::merge`]) are the totals of the whole.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct XiangqiTotals {
    /// Games reviewed.
    pub games: u64,
    /// Games that could not be read, skipped.
    pub skipped: u64,
    pub plies: u64,
    /// Repetitions (runs of plies whose positions stood before).
    pub repetitions: u64,
    /// Games with at least one repetition.
    pub games_with_repetition: u64,
    /// Repetitions ruled, by kind.
    pub rulings: RulingCounts,
    /// Of those, the ones that ended their game (the result agrees).
    pub ended: RulingCounts,
    /// Rulings (perpetual check or chase) against Red, and against Black.
    pub against_red: u64,
    pub against_black: u64,
    /// Games ending with the side to move without a legal move.
    pub checkmates: u64,
    pub stalemates: u64,
    /// The same by result: `1-0`, `0-1`, `1/2-1/2`, `*` (unknown).
    pub by_result: BTreeMap<String, ResultTotals>,
}

impl XiangqiTotals {
    /// Adds a reviewed game.
    pub fn add(&mut self, r: &XqReview) {
        let mut part = ResultTotals {
            games: 1,
            plies: r.plies() as u64,
            repetitions: r.repetitions.len() as u64,
            ..ResultTotals::default()
        };
        for ruling in &r.rulings {
            *part.rulings.slot(ruling.kind) += 1;
            if ruling.ended_game {
                *part.ended.slot(ruling.kind) += 1;
            }
            match ruling.against() {
                Some(Color::Red) => self.against_red += 1,
                Some(Color::Black) => self.against_black += 1,
                None => {}
            }
        }
        self.games += 1;
        self.plies += part.plies;
        self.repetitions += part.repetitions;
        self.games_with_repetition += u64::from(!r.repetitions.is_empty());
        self.rulings.merge(&part.rulings);
        self.ended.merge(&part.ended);
        match r.ending {
            Some(Ending::Checkmate) => self.checkmates += 1,
            Some(Ending::Stalemate) => self.stalemates += 1,
            None => {}
        }
        self.by_result
            .entry(r.result.pgn().to_string())
            .or_default()
            .merge(&part);
    }

    /// Counts a game that could not be read.
    pub fn add_skipped(&mut self) {
        self.skipped += 1;
    }

    /// Adds the totals of another part of the collection.
    pub fn merge(&mut self, o: &XiangqiTotals) {
        self.games += o.games;
        self.skipped += o.skipped;
        self.plies += o.plies;
        self.repetitions += o.repetitions;
        self.games_with_repetition += o.games_with_repetition;
        self.rulings.merge(&o.rulings);
        self.ended.merge(&o.ended);
        self.against_red += o.against_red;
        self.against_black += o.against_black;
        self.checkmates += o.checkmates;
        self.stalemates += o.stalemates;
        for (k, v) in &o.by_result {
            self.by_result.entry(k.clone()).or_default().merge(v);
        }
    }

    /// The totals in words, a few lines.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let pct = |n: u64, of: u64| {
            if of == 0 {
                String::new()
            } else {
                format!(" ({:.1}%)", n as f64 * 100.0 / of as f64)
            }
        };
        writeln!(
            out,
            "xiangqi: {} games ({} skipped), {} plies",
            self.games, self.skipped, self.plies
        )?;
        writeln!(
            out,
            "  repetitions: {} in {} games{}",
            self.repetitions,
            self.games_with_repetition,
            pct(self.games_with_repetition, self.games)
        )?;
        writeln!(
            out,
            "  rulings: {}, of which {} ended the game; against Red {}, against Black {}",
            self.rulings.total(),
            self.ended.total(),
            self.against_red,
            self.against_black
        )?;
        for k in RulingKind::ALL {
            writeln!(
                out,
                "    {:<16} {:>7}  ended the game {:>7}",
                k.name(),
                self.rulings.get(k),
                self.ended.get(k)
            )?;
        }
        writeln!(
            out,
            "  no legal move at the end: checkmate {}, stalemate {}",
            self.checkmates, self.stalemates
        )?;
        writeln!(out, "  by result:")?;
        for (result, t) in &self.by_result {
            let kinds: Vec<String> = RulingKind::ALL
                .iter()
                .filter(|&&k| t.rulings.get(k) > 0)
                .map(|&k| {
                    format!(
                        "{} {} ({} ended)",
                        k.name(),
                        t.rulings.get(k),
                        t.ended.get(k)
                    )
                })
                .collect();
            writeln!(
                out,
                "    {:<8} {:>7} games{}, {} plies, {} repetitions, rulings: {}",
                result,
                t.games,
                pct(t.games, self.games),
                t.plies,
                t.repetitions,
                if kinds.is_empty() {
                    "none".to_string()
                } else {
                    kinds.join(", ")
                }
            )?;
        }
        Ok(())
    }
}
