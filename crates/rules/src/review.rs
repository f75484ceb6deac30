//! Post-game review, the rules' part: every draw claim a player could have made and did not,
//! and every claim recorded in the game, judged again.
//!
//! Nothing here decides a rule. The game is replayed ply by ply and each position is read
//! through [`analysis::report_current`], the projection `threefold analyze` prints and the
//! python-chess reference test checks: a claim chance is a ply where it reports a 9.2 (b) or
//! 9.3 (b) claim, or moves for a 9.2 (a) / 9.3 (a) claim. A claim recorded in the game
//! (`[%claim now]` / `[%claim move]`, see [`super::pgn`]) is judged by [`claim::judge`], the
//! arbiter the trainer uses, and an incorrect one gets FIDE 9.5's consequences from
//! [`claim`] ([`claim::INCORRECT_CLAIM_BONUS`]).
//!
//! [`analysis::report_current`]: crate::analysis::report_current
//!
//! Chances of one side on consecutive turns of that side form one [`ChanceRun`]: "the chance
//! lasted three moves". A chance is *taken* (not missed) when a correct claim is recorded
//! there, or, in a game whose record holds no claim, when the game ended by a claim there or
//! ends drawn at that very ply or with that very move (an unrecorded claim is what ended
//! it). One function, [`review_claims`], decides this for `threefold review` and for the
//! trainer's review screen.
//!
//! The engine's part of the review (was the draw worth taking?) is `threefold_review`, above
//! both the rules and the engine.

use shakmaty::san::San;
use shakmaty::{Color, Move, Position};

use super::analysis::{PlyReport, report_current};
use super::claim::{self, Claim, Clocks, Ground, Verdict};
use super::ending::{list_places, times};
use super::game::Game;
use super::key::key_after;
use super::notation::color_name;
use super::pgn::{ClaimMark, PgnRecord, RecordedClaim};

/// What a game record says beyond its moves: the claims written in it, its result, its
/// clocks and who never claims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Claims recorded in the game (`[%claim ...]` comments), in order.
    pub claims: Vec<RecordedClaim>,
    /// The result ("1-0", "0-1", "1/2-1/2"), when known.
    pub result: Option<String>,
    /// Whether the game was played with clocks (FIDE 9.5's penalty for an incorrect claim
    /// is time): from PGN, off only when the `TimeControl` tag says "-" (no time control,
    /// PGN standard 9.6.1), which the trainer writes for a game without clocks.
    pub clocks: Clocks,
    /// The sides that never claim, a sparring engine's ([`SPARRING_TAG`]): their missed
    /// claims are no mistakes, and a review lists none of them.
    pub never_claims: Vec<Color>,
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord {
            claims: Vec::new(),
            result: None,
            clocks: Clocks::On,
            never_claims: Vec::new(),
        }
    }
}

/// The PGN tag naming the sides a sparring engine played (`[Sparring "Black"]`), which the
/// trainer writes: such an engine leaves every draw claim to its opponent. Its value names
/// the sides by their players' tags, `White` and `Black` (xiangqi's Red is `White`), with a
/// space between them when an engine sparred on both.
pub const SPARRING_TAG: &str = "Sparring";

/// The value of [`SPARRING_TAG`] for a game in which a sparring engine played White
/// (`white`) and/or Black; `None` when it played neither side.
pub fn sparring_value(white: bool, black: bool) -> Option<String> {
    match (white, black) {
        (false, false) => None,
        (true, false) => Some("White".to_string()),
        (false, true) => Some("Black".to_string()),
        (true, true) => Some("White Black".to_string()),
    }
}

/// The sides a [`SPARRING_TAG`] value names (words other than `White` and `Black` name none).
pub fn sparring_sides(value: &str) -> Vec<Color> {
    Color::ALL
        .into_iter()
        .filter(|&c| {
            let name = if c == Color::White { "White" } else { "Black" };
            value
                .split_whitespace()
                .any(|w| w.eq_ignore_ascii_case(name))
        })
        .collect()
}

impl GameRecord {
    /// The claims and result of a game read from PGN (the result token, else the tag), and
    /// the sides that never claim ([`SPARRING_TAG`]).
    pub fn from_pgn(rec: &PgnRecord) -> GameRecord {
        let result = recorded_result(rec.result.as_deref(), rec.tag("Result"));
        GameRecord {
            claims: rec.claims.clone(),
            result,
            clocks: match rec.tag("TimeControl").map(str::trim) {
                Some("-") => Clocks::Off,
                _ => Clocks::On,
            },
            never_claims: rec
                .tag(SPARRING_TAG)
                .map(sparring_sides)
                .unwrap_or_default(),
        }
    }

    /// Whether a claim `side` could have made and did not is its mistake, to list: not for a
    /// side that never claims ([`GameRecord::never_claims`]). The one rule of every review
    /// (`threefold review`, its puzzles, the trainer's review screen).
    pub fn blames_missed_claims(&self, side: Color) -> bool {
        !self.never_claims.contains(&side)
    }
}

/// The result a game's record gives: its movetext's result token, else its `Result` tag;
/// only a decisive result or a draw counts (`*` and anything else: none).
pub fn recorded_result(token: Option<&str>, tag: Option<&str>) -> Option<String> {
    token
        .or(tag)
        .filter(|r| matches!(*r, "1-0" | "0-1" | "1/2-1/2"))
        .map(str::to_string)
}

/// A correct claim available to the side to move at one ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimChance {
    /// The ply of the position (the side to move could claim here).
    pub ply: usize,
    pub side: Color,
    /// A claim without a move: 9.2 (b) if the position appeared three times, else 9.3 (b).
    pub now: Option<Ground>,
    /// Moves that, written on the scoresheet with a claim, would have drawn (9.2 a before
    /// 9.3 a for a move that does both), in move-generation order.
    pub with_move: Vec<(Move, Ground)>,
    /// The move actually played from this position, if any.
    pub played: Option<Move>,
    /// Whether the side took the chance (see the module docs).
    pub taken: bool,
}

impl ClaimChance {
    /// The claim this chance is named by, in its finding and in the review's statistics:
    /// without a move (`None`) when the side could claim at once, else [`Self::claim_move`];
    /// with the rule it rests on.
    pub fn claim(&self) -> (Option<Move>, Ground) {
        match self.now {
            Some(ground) => (None, ground),
            None => {
                let (m, ground) = self.claim_move();
                (Some(m), ground)
            }
        }
    }

    /// The claim move named for a chance with moves: the move played if it was one of
    /// them, else the first. Panics for a chance without claim moves.
    pub fn claim_move(&self) -> (Move, Ground) {
        self.with_move
            .iter()
            .copied()
            .find(|&(m, _)| Some(m) == self.played)
            .unwrap_or(self.with_move[0])
    }
}

/// Missed chances of one side on consecutive turns of that side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChanceRun {
    pub side: Color,
    /// The chances, ply ascending (every second ply).
    pub chances: Vec<ClaimChance>,
}

impl ChanceRun {
    /// The first ply of the run.
    pub fn first(&self) -> usize {
        self.chances[0].ply
    }
    /// The last ply of the run.
    pub fn last(&self) -> usize {
        self.chances[self.chances.len() - 1].ply
    }
}

/// A claim recorded in the game, with the arbiter's ruling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedClaim {
    pub recorded: RecordedClaim,
    /// The player who claimed.
    pub side: Color,
    /// The ply of the position claimed in (before the intended move, for a claim with one).
    pub ply: usize,
    /// The arbiter's ruling ([`claim::judge`]).
    pub verdict: Verdict,
}

/// What a claim finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimFindingKind {
    /// A claim without a move (9.2 b / 9.3 b) was available and not made.
    MissedClaim,
    /// A move written with a claim (9.2 a / 9.3 a) would have drawn, and no claim was made.
    MissedClaimWithMove,
    /// A claim recorded in the game was incorrect (FIDE 9.5).
    IncorrectClaim,
    /// A claim recorded in the game was correct.
    CorrectClaim,
}

impl ClaimFindingKind {
    /// The name in `review --json`.
    pub fn code(self) -> &'static str {
        match self {
            ClaimFindingKind::MissedClaim => "missed-claim",
            ClaimFindingKind::MissedClaimWithMove => "missed-claim-with-move",
            ClaimFindingKind::IncorrectClaim => "incorrect-claim",
            ClaimFindingKind::CorrectClaim => "correct-claim",
        }
    }
}

/// One finding of the rules' review, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimFinding {
    pub kind: ClaimFindingKind,
    /// The ply of the position where the claim could be (or was) made.
    pub ply: usize,
    /// The last ply of the chance (`== ply` for a recorded claim).
    pub until_ply: usize,
    pub side: Color,
    /// The move a claim is written with, where one applies.
    pub mv: Option<Move>,
    /// The rule ("9.2 b", "9.3 a", ...); `None` for an incorrect claim.
    pub rule: Option<&'static str>,
    pub text: String,
}

/// The rules' review of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimReview {
    /// Every ply where the side to move had a correct claim, taken or not.
    pub chances: Vec<ClaimChance>,
    /// The missed chances of the sides blamed for them ([`GameRecord::blames_missed_claims`]),
    /// grouped by side and consecutive turns.
    pub runs: Vec<ChanceRun>,
    /// The claims recorded in the game, judged.
    pub recorded: Vec<JudgedClaim>,
    /// The findings, by ply.
    pub findings: Vec<ClaimFinding>,
}

/// "9.2 b", "9.3 a", ...
pub fn rule_code(ground: Ground, with_move: bool) -> &'static str {
    ground.article(with_move)
}

/// The chance the report of the current position of `game` shows, if any.
fn chance_at(game: &Game, r: &PlyReport) -> Option<ClaimChance> {
    let now = if r.claim_threefold {
        Some(Ground::Threefold)
    } else if r.claim_fifty {
        Some(Ground::FiftyMoves)
    } else {
        None
    };
    let mut with_move: Vec<(Move, Ground)> = r
        .claim_threefold_moves
        .iter()
        .map(|&m| (m, Ground::Threefold))
        .collect();
    for &m in &r.claim_fifty_moves {
        if !r.claim_threefold_moves.contains(&m) {
            with_move.push((m, Ground::FiftyMoves));
        }
    }
    (now.is_some() || !with_move.is_empty()).then(|| ClaimChance {
        ply: r.ply,
        side: game.position().turn(),
        now,
        with_move,
        played: None,
        taken: false,
    })
}

/// Review the claims of `game`: replays it from its start position and reads every ply
/// through the rules core (see the module docs). O(plies) apart from the recorded claims,
/// each of which copies the game once to be judged; a game with no recorded claim where no
/// claim is possible ([`claim::claims_possible_in`]) is not replayed.
pub fn review_claims(game: &Game, record: &GameRecord) -> ClaimReview {
    // Most games of a database never repeat a position: nothing to replay for.
    if record.claims.is_empty() && !claim::claims_possible_in(game) {
        return ClaimReview::default();
    }
    let moves: Vec<Move> = game.moves().collect();
    let mut g = Game::from_position(game.start().clone());
    g.reserve(moves.len());
    let mut out = ClaimReview::default();
    // The chances the game's ending would have taken, if no recorded claim took one.
    let mut ending_would_take = Vec::new();
    // The ply of the first correct recorded claim (of the position it was made in).
    let mut claimed_at = None;
    let claims_at = |ply: usize, mark: ClaimMark| {
        record
            .claims
            .iter()
            .filter(move |c| c.ply == ply && c.mark == mark)
    };
    for ply in 0..=moves.len() {
        if ply > 0 {
            // A recorded game may go on past an ending the rules core sees (a fivefold it
            // did not stop at): keep reviewing the moves as played.
            if g.replay_next(game).is_none() {
                break;
            }
        }
        let mut taken_now = false;
        let mut taken_move = false;
        for &c in claims_at(ply, ClaimMark::Now) {
            if let Some(j) = judge_recorded(&g, c, None, record.clocks) {
                taken_now |= j.verdict.correct();
                out.recorded.push(j);
            }
        }
        if let Some(&m) = moves.get(ply) {
            for &c in claims_at(ply + 1, ClaimMark::WithMove) {
                if let Some(j) = judge_recorded(&g, c, Some(m), record.clocks) {
                    taken_move |= j.verdict.correct();
                    out.recorded.push(j);
                }
            }
        }
        // No claim is left once the rules have ended the game at this ply.
        if g.termination()
            .is_some_and(|t| t.ply == ply && !t.ending.kind.is_claim())
        {
            break;
        }
        // A correct claim recorded at an earlier ply ended the game there: no chance after.
        if claimed_at.is_some_and(|c| ply > c) {
            continue;
        }
        if taken_now || taken_move {
            claimed_at = Some(ply);
        }
        let report = report_current(&g);
        if let Some(mut ch) = chance_at(&g, &report) {
            ch.played = moves.get(ply).copied();
            let last = ply == moves.len();
            let before_last = ply + 1 == moves.len();
            let played_claim_move = ch
                .played
                .is_some_and(|m| ch.with_move.iter().any(|&(w, _)| w == m));
            ch.taken = (taken_now && ch.now.is_some()) || (taken_move && played_claim_move);
            if (last && ch.now.is_some()) || (before_last && played_claim_move) {
                ending_would_take.push(out.chances.len());
            }
            out.chances.push(ch);
        }
    }
    // A game drawn by a claim (or a PGN result of 1/2-1/2) whose record holds no claim was
    // ended by the chance at its last ply or with its last move. A record with claims
    // (the trainer's, a PGN with `[%claim]` comments) says who claimed and where: then
    // only they take chances, and a chance of the other side just before a claim made at
    // the end stays missed (the claim shows the game was still on).
    let ended_by_claim = game
        .termination()
        .is_some_and(|t| t.ending.kind.is_claim() && t.ply == moves.len())
        || record.result.as_deref() == Some("1/2-1/2");
    if ended_by_claim && record.claims.is_empty() {
        for i in ending_would_take {
            out.chances[i].taken = true;
        }
    }
    // Runs of missed chances: the same side on its consecutive turns, of a side blamed for
    // them (a sparring engine's are no mistakes).
    let missed = |c: &&ClaimChance| !c.taken && record.blames_missed_claims(c.side);
    for ch in out.chances.iter().filter(missed) {
        match out.runs.iter_mut().rev().find(|r| r.side == ch.side) {
            Some(run) if run.last() + 2 == ch.ply => run.chances.push(ch.clone()),
            _ => out.runs.push(ChanceRun {
                side: ch.side,
                chances: vec![ch.clone()],
            }),
        }
    }
    out.findings = findings(game, &out);
    out
}

/// Judge a recorded claim in the current position of `g` (`m`: the intended move of a
/// claim with a move). `None` when the game had already ended there.
fn judge_recorded(
    g: &Game,
    c: RecordedClaim,
    m: Option<Move>,
    clocks: Clocks,
) -> Option<JudgedClaim> {
    let mut copy = g.clone();
    let claim = m.map_or(Claim::Now, Claim::WithMove);
    let verdict = match c.ground {
        Some(ground) => claim::judge_under(&mut copy, claim, ground, clocks),
        None => claim::judge(&mut copy, claim, clocks),
    }
    .ok()?;
    Some(JudgedClaim {
        recorded: c,
        side: g.position().turn(),
        ply: g.len(),
        verdict,
    })
}

/// "14...Ng8": a move from the position at `ply` of `game`, with its number.
pub fn move_label(game: &Game, ply: usize, m: Move) -> String {
    super::notation::move_label(game.position_at(ply), m)
}

/// "after 14.Nf3" / "in the start position": where a side to move stood (the review's
/// findings and the titles of the drills made from them say it from here).
pub fn position_label(game: &Game, ply: usize) -> String {
    if ply == 0 {
        "in the start position".to_string()
    } else {
        game.place_label(ply)
    }
}

/// "The chance lasted 3 moves (to move 40).": the length of a run.
fn duration(game: &Game, run: &ChanceRun) -> String {
    match run.chances.len() {
        1 => "The chance lasted one move.".to_string(),
        turns => format!(
            "The chance lasted {turns} moves (to move {}).",
            game.position_at(run.last()).fullmoves()
        ),
    }
}

/// The plies where the position after the reversible move `m` from the position at `ply`
/// stood before, for the text of a 9.2 (a) chance.
fn places_after(game: &Game, ply: usize, m: Move) -> Vec<usize> {
    let key = key_after(game.position_at(ply), game.record(ply).key, m);
    // The stretch of `ply`: its earlier positions with that key.
    let mut out: Vec<usize> = (0..=ply)
        .rev()
        .take_while(|&p| p == ply || !game.record(p + 1).irreversible)
        .filter(|&p| game.record(p).key == key)
        .collect();
    out.reverse();
    out
}

fn findings(game: &Game, review: &ClaimReview) -> Vec<ClaimFinding> {
    let mut out = Vec::new();
    for run in &review.runs {
        let first = &run.chances[0];
        let side = color_name(run.side);
        let at = {
            let l = position_label(game, first.ply);
            let mut c = l.chars();
            c.next()
                .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        };
        let mut sentences = Vec::new();
        let (kind, mv, rule) = if let Some(ground) = first.now {
            let why = match ground {
                Ground::Threefold => {
                    let mut plies = game.earlier(first.ply);
                    plies.push(first.ply);
                    format!(
                        "the position had appeared {} ({})",
                        times(plies.len() as u32),
                        list_places(game, &plies)
                    )
                }
                Ground::FiftyMoves => format!(
                    "{} moves by each player had passed without a capture or a pawn move",
                    game.position_at(first.ply).halfmoves() / 2
                ),
            };
            sentences.push(format!(
                "{at}, {side} could have claimed a draw: {why} (FIDE {}).",
                rule_code(ground, false)
            ));
            (
                ClaimFindingKind::MissedClaim,
                None,
                Some(rule_code(ground, false)),
            )
        } else {
            let (m, ground) = first.claim_move();
            let label = move_label(game, first.ply, m);
            let why = match ground {
                Ground::Threefold => {
                    let plies = places_after(game, first.ply, m);
                    format!(
                        "the position after it had stood {} before ({}), so it would have appeared for the {} time",
                        times(plies.len() as u32),
                        list_places(game, &plies),
                        claim::ordinal(plies.len() as u32 + 1)
                    )
                }
                Ground::FiftyMoves => {
                    "it completes 50 moves by each player without a capture or a pawn move"
                        .to_string()
                }
            };
            let played = if Some(m) == first.played {
                format!(" {side} played it without claiming.")
            } else {
                String::new()
            };
            sentences.push(format!(
                "{label} written on the scoresheet would have drawn: {why} (FIDE {}).{played}",
                rule_code(ground, true)
            ));
            let others: Vec<String> = first
                .with_move
                .iter()
                .filter(|&&(o, _)| o != m)
                .map(|&(o, _)| San::from_move(game.position_at(first.ply), o).to_string())
                .collect();
            if !others.is_empty() && others.len() <= 4 {
                sentences.push(format!(
                    "So would {}.",
                    super::ending::join_and(&others).replace(" and ", " or ")
                ));
            } else if others.len() > 4 {
                sentences.push(format!("So would {} other moves.", others.len()));
            }
            (
                ClaimFindingKind::MissedClaimWithMove,
                Some(m),
                Some(rule_code(ground, true)),
            )
        };
        if first.now.is_some()
            && let Some(&(m, ground)) = first.with_move.first()
        {
            sentences.push(format!(
                "Writing {} with a claim would also have drawn (FIDE {}).",
                move_label(game, first.ply, m),
                rule_code(ground, true)
            ));
        }
        sentences.push(duration(game, run));
        out.push(ClaimFinding {
            kind,
            ply: first.ply,
            until_ply: run.last(),
            side: run.side,
            mv,
            rule,
            text: sentences.join(" "),
        });
    }
    for j in &review.recorded {
        // The ruling names the side, the claim and (when incorrect) the
        // consequence under FIDE 9.5.
        let kind = if j.verdict.correct() {
            ClaimFindingKind::CorrectClaim
        } else {
            ClaimFindingKind::IncorrectClaim
        };
        let text = j.verdict.paragraph();
        out.push(ClaimFinding {
            kind,
            ply: j.ply,
            until_ply: j.ply,
            side: j.side,
            mv: j.verdict.played,
            // The rule that made it correct, else the one it was made under.
            rule: j
                .verdict
                .ground
                .or(j.recorded.ground)
                .map(|g| rule_code(g, j.verdict.played.is_some())),
            text,
        });
    }
    out.sort_by_key(|f| f.ply);
    out
}
