//! Post-game review: the claims a player missed or made wrongly (the rules' part,
//! [`threefold_rules::review`]) and, with the engine, which of them mattered and which
//! repetitions won or lost a game.
//!
//! # What the engine adds
//!
//! Every position of the game is searched once, with the game's history ([`Engine::search`]
//! takes the start position and the moves, so the engine sees the repetitions of the game:
//! a position reached for the third time is a draw to it, and so is a repetition inside its
//! search). From the evaluation `e(p)` of each ply (the side to move's view) the review reads:
//!
//! - **claim worth taking**: a missed claim chance (a [`ChanceRun`]) where the side that
//!   could claim stood at or below `-WINNING`: the draw was better than playing on;
//! - **allowed claim / allowed fivefold**: a side at or above `+WINNING` made the move after
//!   which the opponent could claim (or the fifth occurrence ended the game);
//! - **missed repetition**: the side to move had a line that repeats (the engine's
//!   principal variation reaches a position of the game again; "perpetual check" when each
//!   of its own moves in it gives check) worth at least `-DRAWISH`, and played a move worth
//!   at most `-WINNING`: the repetition's score against the played move's score;
//! - **walked into a repetition**: a side at or above `+WINNING` played a move after which
//!   the opponent's best line repeats and the score is within `DRAWISH` of a draw.
//!
//! [`ChanceRun`]: threefold_rules::review::ChanceRun
//!
//! The thresholds are in [`params`]. The played move's score is the negated evaluation of
//! the next ply, so a game of `n` plies costs `n + 1` searches.
//!
//! The modules: [`scan`] reads whole databases (plain or zstd-compressed PGN, a file or
//! standard input) on every core in bounded memory, for `review --all`; [`summary`] counts
//! the statistics of a scan (`review --summary`); [`xiangqi`] reviews xiangqi games through
//! the WXF judge; [`params`] holds the engine pass's thresholds.
//!
//! This module sits above the rules core and the engine; neither imports it.

pub mod params;
pub mod scan;
pub mod summary;
pub mod xiangqi;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use shakmaty::{Color, Move, Position, Role};

use threefold_engine::{Engine, Limits, Request, Score, TtAllocError};
use threefold_rules::Game;
use threefold_rules::ending::EndingKind;
use threefold_rules::notation::{MoveNumber, color_name};
use threefold_rules::review::{
    ClaimFinding, ClaimFindingKind, ClaimReview, GameRecord, move_label, review_claims,
};

/// The search budget per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A node count: the same findings on any machine.
    Nodes(u64),
    /// A time per position.
    Movetime(Duration),
}

impl Budget {
    fn limits(self) -> Limits {
        match self {
            Budget::Nodes(n) => Limits {
                nodes: Some(n.max(1)),
                ..Limits::default()
            },
            // The engine keeps back a margin of `movetime` for a GUI's overhead; here the
            // search runs in-process, so the whole time is given to it.
            Budget::Movetime(t) => Limits {
                movetime: Some(
                    t.max(Duration::from_millis(1)) + threefold_engine::time::MOVE_OVERHEAD,
                ),
                ..Limits::default()
            },
        }
    }
}

/// The default budget: [`params::DEFAULT_NODES`] nodes per position.
pub const DEFAULT_BUDGET: Budget = Budget::Nodes(params::DEFAULT_NODES);

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// From the rules alone.
    Claim(ClaimFindingKind),
    /// A missed claim by a side that was losing: the draw was worth taking.
    ClaimWorthTaking,
    /// A winning side's move let the opponent claim a draw.
    AllowedClaim,
    /// A winning side's move made a position appear for the fifth time (FIDE 9.6.1).
    AllowedFivefold,
    /// A perpetual check that would have saved a lost game was not given.
    MissedPerpetual,
    /// A forced repetition (not all checks) that would have saved a lost game.
    MissedRepetition,
    /// A winning side played into the opponent's forced repetition.
    WalkedIntoRepetition,
}

impl FindingKind {
    /// The name in `review --json`.
    pub fn code(self) -> &'static str {
        match self {
            FindingKind::Claim(k) => k.code(),
            FindingKind::ClaimWorthTaking => "claim-worth-taking",
            FindingKind::AllowedClaim => "allowed-claim",
            FindingKind::AllowedFivefold => "allowed-fivefold",
            FindingKind::MissedPerpetual => "missed-perpetual",
            FindingKind::MissedRepetition => "missed-repetition",
            FindingKind::WalkedIntoRepetition => "walked-into-repetition",
        }
    }

    /// The NAG that fits the move a finding is about, if one does: `$2` (?) for a move that
    /// threw away a win or a draw, `$6` (?!) for a claim not made.
    pub fn nag(self) -> Option<u8> {
        match self {
            FindingKind::AllowedClaim
            | FindingKind::AllowedFivefold
            | FindingKind::MissedPerpetual
            | FindingKind::MissedRepetition
            | FindingKind::WalkedIntoRepetition => Some(2),
            FindingKind::ClaimWorthTaking => Some(6),
            FindingKind::Claim(_) => None,
        }
    }

    /// Whether the finding is a claim its side did not make (missed, with a move or not, or
    /// worth taking): no mistake of a player who never claims, as a sparring engine.
    pub fn is_missed_claim(self) -> bool {
        matches!(
            self,
            FindingKind::Claim(
                ClaimFindingKind::MissedClaim | ClaimFindingKind::MissedClaimWithMove
            ) | FindingKind::ClaimWorthTaking
        )
    }
}

/// One finding of the review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    /// The ply of the position the finding is about (its side is to move there).
    pub ply: usize,
    /// The last ply a chance lasted (`== ply` for most findings).
    pub until_ply: usize,
    pub side: Color,
    /// The move concerned: the claim move, the played move, or the better move.
    pub mv: Option<Move>,
    /// The evaluation before the move (best play), from White's view.
    pub eval_before: Option<Score>,
    /// The evaluation after the move played, from White's view.
    pub eval_after: Option<Score>,
    /// The rule ("9.2 b", ...), for claim findings.
    pub rule: Option<&'static str>,
    pub text: String,
}

/// The review of one game.
#[derive(Clone, Debug, Default)]
pub struct Review {
    /// The rules' part.
    pub claims: ClaimReview,
    /// The evaluation of every ply from White's view (`None` without the engine).
    pub evals: Vec<Option<Score>>,
    /// Every finding, by ply.
    pub findings: Vec<Finding>,
}

/// How to review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// `None`: the rules' part only.
    pub budget: Option<Budget>,
    pub hash_mb: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            budget: Some(DEFAULT_BUDGET),
            hash_mb: threefold_engine::DEFAULT_HASH_MB,
        }
    }
}

/// Review a game: the rules' findings, and with a budget the engine's. `progress` is called
/// with (positions searched, positions to search) before each search and at the end;
/// setting `stop` ends the review early (the positions left unsearched have no evaluation).
pub fn review(
    game: &Game,
    record: &GameRecord,
    options: &Options,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, TtAllocError> {
    let claims = review_claims(game, record);
    let mut findings: Vec<Finding> = claims.findings.iter().map(Finding::from).collect();
    let mut evals = vec![None; game.len() + 1];
    if let Some(budget) = options.budget {
        let mut engine = Engine::new(options.hash_mb)?;
        let searched = search_all(game, &mut engine, budget, stop, progress);
        evals = searched
            .iter()
            .map(|s| s.as_ref().map(|s| s.white))
            .collect();
        findings.extend(engine_findings(game, record, &claims, &searched));
        findings.sort_by_key(|f| f.ply);
    }
    Ok(Review {
        claims,
        evals,
        findings,
    })
}

impl From<&ClaimFinding> for Finding {
    /// A claim finding of the rules' review, without evaluations.
    fn from(f: &ClaimFinding) -> Finding {
        Finding {
            kind: FindingKind::Claim(f.kind),
            ply: f.ply,
            until_ply: f.until_ply,
            side: f.side,
            mv: f.mv,
            eval_before: None,
            eval_after: None,
            rule: f.rule,
            text: f.text.clone(),
        }
    }
}

impl Finding {
    /// "38...": the move number and side to move of the position the finding is about.
    pub fn place(&self, game: &Game) -> MoveNumber {
        let pos = game.position_at(self.ply);
        MoveNumber {
            number: pos.fullmoves().get(),
            side: pos.turn(),
        }
    }
}

/// The engine's view of one ply.
#[derive(Clone, Debug)]
struct Searched {
    /// From the side to move's view.
    score: Score,
    /// From White's view.
    white: Score,
    /// The principal variation (empty at a game's end).
    pv: Vec<Move>,
}

fn negate(s: Score) -> Score {
    match s {
        Score::Cp(c) => Score::Cp(-c),
        Score::Mate(m) => Score::Mate(-m),
    }
}

fn white_view(s: Score, turn: Color) -> Score {
    if turn == Color::White { s } else { negate(s) }
}

fn search_all(
    game: &Game,
    engine: &mut Engine,
    budget: Budget,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Option<Searched>> {
    let moves: Vec<Move> = game.moves().collect();
    let limits = budget.limits();
    let total = moves.len() + 1;
    let mut out = Vec::with_capacity(total);
    let mut g = Game::from_position(game.start().clone());
    engine.new_game();
    for ply in 0..total {
        if ply > 0 && g.play_past_end(moves[ply - 1]).is_err() {
            break;
        }
        progress(ply, total);
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            out.push(None);
            continue;
        }
        let turn = g.position().turn();
        // A position the rules have ended has its value without a search.
        let ended = g
            .termination()
            .filter(|t| t.ply == ply)
            .map(|t| t.ending.kind);
        let searched = match ended {
            // Mated: from White's view, mated White or mated Black.
            Some(EndingKind::Checkmate { .. }) => Searched {
                score: Score::Mate(0),
                white: match turn {
                    Color::White => Score::Mate(0),
                    Color::Black => Score::Cp(100_000),
                },
                pv: Vec::new(),
            },
            Some(_) => Searched {
                score: Score::Cp(0),
                white: Score::Cp(0),
                pv: Vec::new(),
            },
            None => {
                let mut pv = Vec::new();
                let r = engine.search(
                    &Request::new(game.start(), &moves[..ply], &limits, stop),
                    &mut (),
                    &mut |info| pv = info.pv.clone(),
                );
                if pv.first() != r.best.as_ref() {
                    pv = r.best.into_iter().collect();
                }
                Searched {
                    score: r.score,
                    white: white_view(r.score, turn),
                    pv,
                }
            }
        };
        out.push(Some(searched));
    }
    progress(total, total);
    out.resize(total, None);
    out
}

/// Centipawns from `side`'s view (mates far from zero).
fn cp_for(s: &Searched, turn: Color, side: Color) -> i32 {
    if turn == side {
        s.score.cp()
    } else {
        -s.score.cp()
    }
}

/// "+3.2", "−5.1", "mate in 3", "mated in 2": an evaluation from one side's view.
pub fn eval_text(cp_or_mate: Score) -> String {
    match cp_or_mate {
        Score::Mate(m) if m > 0 => format!("mate in {m}"),
        Score::Mate(0) => "mated".to_string(),
        Score::Mate(m) => format!("mated in {}", -m),
        Score::Cp(0) => "0.0".to_string(),
        Score::Cp(c) => format!("{:+.1}", f64::from(c) / 100.0).replace('-', "\u{2212}"),
    }
}

fn side_view(s: &Searched, turn: Color, side: Color) -> Score {
    if turn == side {
        s.score
    } else {
        negate(s.score)
    }
}

/// "a rook down" and the like, from the material on the board; `None` when `side` is not
/// behind in material.
fn material_phrase(pos: &shakmaty::Chess, side: Color) -> Option<String> {
    let worth = |c: Color| -> i32 {
        let b = pos.board();
        [
            (Role::Pawn, 1),
            (Role::Knight, 3),
            (Role::Bishop, 3),
            (Role::Rook, 5),
            (Role::Queen, 9),
        ]
        .iter()
        .map(|&(r, v)| v * (b.by_role(r) & b.by_color(c)).count() as i32)
        .sum()
    };
    let down = worth(!side) - worth(side);
    let what = match down {
        d if d <= 0 => return None,
        1 => "a pawn".to_string(),
        2 => "two pawns".to_string(),
        3 => "a piece".to_string(),
        5 => "a rook".to_string(),
        9 => "a queen".to_string(),
        d => format!("{d} points of material"),
    };
    Some(format!("{what} down"))
}

/// "Black, a rook down (−5.1)" / "White (+3.2)".
fn who(game: &Game, ply: usize, side: Color, eval: Score) -> String {
    match material_phrase(game.position_at(ply), side) {
        Some(m) => format!("{}, {m} ({})", color_name(side), eval_text(eval)),
        None => format!("{} ({})", color_name(side), eval_text(eval)),
    }
}

/// The move number of the position at `ply` ("38" for either side).
fn number_at(game: &Game, ply: usize) -> u32 {
    game.position_at(ply).fullmoves().get()
}

/// How the game ended for `side`: "lost at move 61", "drew", "won at move 70", or "".
fn outcome_for(game: &Game, record: &GameRecord, side: Color) -> Option<String> {
    let winner = match game.termination() {
        Some(t) => Some(t.ending.winner()),
        None => match record.result.as_deref() {
            Some("1-0") => Some(Some(Color::White)),
            Some("0-1") => Some(Some(Color::Black)),
            Some("1/2-1/2") => Some(None),
            _ => None,
        },
    }?;
    let last = if game.is_empty() {
        number_at(game, 0)
    } else {
        game.move_number(game.len()).number
    };
    Some(match winner {
        Some(w) if w == side => format!("won at move {last}"),
        Some(_) => format!("lost at move {last}"),
        None => format!("drew at move {last}"),
    })
}

/// Where a line repeats: plays `pv` from the position at `ply` on a copy of the game and
/// returns the index in `pv` of the first move after which a position stands for at least
/// the second time, and whether every move of `side` up to it gave check.
fn line_repeats(game: &Game, ply: usize, pv: &[Move], side: Color) -> Option<(usize, bool)> {
    let mut g = Game::from_position(game.start().clone());
    for m in game.moves().take(ply) {
        g.play_past_end(m).ok()?;
    }
    let mut all_checks = true;
    for (i, &m) in pv.iter().enumerate() {
        let mover = g.position().turn();
        g.play_past_end(m).ok()?;
        if mover == side && !g.position().is_check() {
            all_checks = false;
        }
        if g.current().occurrence >= 2 {
            return Some((i, all_checks));
        }
    }
    None
}

fn engine_findings(
    game: &Game,
    record: &GameRecord,
    claims: &ClaimReview,
    searched: &[Option<Searched>],
) -> Vec<Finding> {
    use params::{DRAWISH_CP, WINNING_CP};
    let mut out = Vec::new();
    let turn = |p: usize| game.position_at(p).turn();
    let at = |p: usize| searched.get(p).and_then(|s| s.as_ref());
    let white = |p: usize| at(p).map(|s| s.white);

    // Missed claims by a losing side. Playing on is judged by the move played: the
    // evaluation before it counts a claim move as the draw it is.
    for run in &claims.runs {
        let p = run.first();
        let Some(s) = at(p + 1) else { continue };
        if cp_for(s, turn(p + 1), run.side) > -WINNING_CP {
            continue;
        }
        let eval = side_view(s, turn(p + 1), run.side);
        let outcome =
            outcome_for(game, record, run.side).unwrap_or_else(|| "played on".to_string());
        out.push(Finding {
            kind: FindingKind::ClaimWorthTaking,
            ply: p,
            until_ply: run.last(),
            side: run.side,
            mv: run.chances[0].played,
            eval_before: white(p),
            eval_after: white(p + 1),
            rule: None,
            text: format!(
                "{}, could have claimed a draw at move {} and {outcome}.",
                who(game, p, run.side, eval),
                number_at(game, p)
            ),
        });
    }

    // A winning side's move that let the opponent claim, or made the fifth occurrence.
    // Plies where the opponent of the side that just moved could claim: a repetition walked
    // into there is an allowed claim, not a repetition to find.
    let mut allowed: std::collections::BTreeSet<usize> =
        claims.chances.iter().map(|c| c.ply).collect();
    for (i, ch) in claims.chances.iter().enumerate() {
        let q = ch.ply;
        let continues = claims.chances[..i]
            .iter()
            .rev()
            .take(2)
            .any(|prev| prev.side == ch.side && prev.ply + 2 == q);
        if q == 0 || continues {
            continue;
        }
        let mover = !ch.side;
        let Some(s) = at(q - 1) else { continue };
        if cp_for(s, turn(q - 1), mover) < WINNING_CP {
            continue;
        }
        let Some(m) = game.record(q).mv else { continue };
        allowed.insert(q);
        let how = match ch.now {
            Some(_) => format!(
                "after it {} could claim a draw at once",
                color_name(ch.side)
            ),
            None => format!(
                "after it {} could claim a draw by writing {}",
                color_name(ch.side),
                move_label(game, q, ch.with_move[0].0)
            ),
        };
        out.push(Finding {
            kind: FindingKind::AllowedClaim,
            ply: q - 1,
            until_ply: q - 1,
            side: mover,
            mv: Some(m),
            eval_before: white(q - 1),
            eval_after: white(q),
            rule: None,
            text: format!(
                "{} played {}: {how}. The draw was {}'s to take{}.",
                who(game, q - 1, mover, side_view(s, turn(q - 1), mover)),
                game.ply_label(q),
                color_name(ch.side),
                if ch.taken { ", and it was taken" } else { "" }
            ),
        });
    }
    if let Some(t) = game.termination()
        && t.ending.kind == EndingKind::FivefoldRepetition
        && t.ply >= 1
        && let Some(s) = at(t.ply - 1)
    {
        let q = t.ply;
        let mover = turn(q - 1);
        if cp_for(s, turn(q - 1), mover) >= WINNING_CP {
            allowed.insert(q);
            out.push(Finding {
                kind: FindingKind::AllowedFivefold,
                ply: q - 1,
                until_ply: q - 1,
                side: mover,
                mv: game.record(q).mv,
                eval_before: white(q - 1),
                eval_after: Some(Score::Cp(0)),
                rule: None,
                text: format!(
                    "{} played {}, the fifth occurrence of the position: the game is drawn (FIDE 9.6.1).",
                    who(game, q - 1, mover, side_view(s, turn(q - 1), mover)),
                    game.ply_label(q)
                ),
            });
        }
    }

    // Repetitions missed by a losing side, and walked into by a winning one.
    for p in 0..game.len() {
        let (Some(before), Some(after)) = (at(p), at(p + 1)) else {
            continue;
        };
        let side = turn(p);
        let best = cp_for(before, side, side);
        let played = cp_for(after, turn(p + 1), side);
        let played_move = game.record(p + 1).mv;
        if best >= -DRAWISH_CP
            && played <= -WINNING_CP
            && before.pv.first().copied() != played_move
            && let Some((_, checks)) = line_repeats(game, p, &before.pv, side)
        {
            let better = before.pv[0];
            let (kind, what) = if checks {
                (FindingKind::MissedPerpetual, "a perpetual check")
            } else {
                (FindingKind::MissedRepetition, "a forced repetition")
            };
            out.push(Finding {
                kind,
                ply: p,
                until_ply: p,
                side,
                mv: Some(better),
                eval_before: Some(before.white),
                eval_after: Some(after.white),
                rule: None,
                text: format!(
                    "{} had {what} starting with {} ({}), but played {} ({}){}.",
                    color_name(side),
                    move_label(game, p, better),
                    eval_text(side_view(before, side, side)),
                    game.ply_label(p + 1),
                    eval_text(side_view(after, turn(p + 1), side)),
                    outcome_for(game, record, side)
                        .map(|o| format!(" and {o}"))
                        .unwrap_or_default()
                ),
            });
        }
        if best >= WINNING_CP
            && played.abs() <= DRAWISH_CP
            && !allowed.contains(&(p + 1))
            && let Some((_, checks)) = line_repeats(game, p + 1, &after.pv, !side)
        {
            let what = if checks {
                "a perpetual check"
            } else {
                "a forced repetition"
            };
            out.push(Finding {
                kind: FindingKind::WalkedIntoRepetition,
                ply: p,
                until_ply: p,
                side,
                mv: played_move,
                eval_before: Some(before.white),
                eval_after: Some(after.white),
                rule: None,
                text: format!(
                    "{} played {}, which allows {what} by {} ({}): the better move was {}.",
                    who(game, p, side, side_view(before, side, side)),
                    game.ply_label(p + 1),
                    color_name(!side),
                    eval_text(side_view(after, turn(p + 1), side)),
                    before
                        .pv
                        .first()
                        .map_or("?".to_string(), |&m| move_label(game, p, m))
                ),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::Budget;
    use threefold_engine::game::Game;
    use threefold_engine::time::budget;

    /// `review --movetime MS` searches MS milliseconds: the engine's margin for a GUI is
    /// given back, as the search runs in-process (10 ms had been 1 ms, 30 ms too).
    #[test]
    fn movetime_is_the_time_searched() {
        for ms in [1, 10, 30, 100] {
            let t = Duration::from_millis(ms);
            let b = budget(
                &Budget::Movetime(t).limits(),
                shakmaty::Color::White,
                <shakmaty::Chess as Game>::MOVE_HORIZON,
            );
            assert_eq!((b.soft, b.hard), (Some(t), Some(t)), "{ms} ms");
        }
    }
}
