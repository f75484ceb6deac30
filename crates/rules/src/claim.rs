//! Draw claims by the player to move: FIDE 9.2 (threefold repetition) and 9.3
//! (fifty moves), judged with an explanation, and FIDE 9.5's consequences of
//! an incorrect claim.
//!
//! - 9.2 (b): the current position has appeared at least three times.
//! - 9.2 (a): the player writes an intended move on the scoresheet; the claim is
//!   correct when that move would make a position appear for at least the third
//!   time. Only a reversible move can do that: after an irreversible one the
//!   position is new (see [`super::game`]).
//! - 9.3 (b): the last 50 moves by each player (100 plies) had no capture and
//!   no pawn move. 9.3 (a): the intended move is neither a capture nor a pawn
//!   move and completes those 50 moves (the halfmove clock is at least 99).
//! - 9.5: a claim with an intended move obliges the player to play it, whether
//!   the claim is correct or not. Here the move is played in both cases: on a
//!   correct claim the position it makes is the one the ruling is about, and
//!   it is the last move of the record. An incorrect claim changes nothing
//!   else on the board; the arbiter adds two minutes to the opponent's time
//!   ([`time_after_incorrect_claim`]: the caller owns the clock).

use std::time::Duration;

use shakmaty::{CastlingMode, CastlingSide, Chess, Color, Move, Position, Role};

use super::ending::{Ending, EndingKind, list_places};
use super::game::{Game, PlayError};
use super::key::reversible_key_after;
use super::notation::{color_name, move_label};

/// What the player claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// A draw in the current position (9.2 b, 9.3 b).
    Now,
    /// A draw with the intended move written down (9.2 a, 9.3 a).
    WithMove(Move),
}

/// The rule a correct claim rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// FIDE 9.2: threefold repetition.
    Threefold,
    /// FIDE 9.3: fifty moves without capture or pawn move.
    FiftyMoves,
}

impl Ground {
    /// The article a claim under this rule rests on: "9.2 a" with an intended
    /// move, "9.2 b" without.
    pub fn article(self, with_move: bool) -> &'static str {
        match (self, with_move) {
            (Ground::Threefold, false) => "9.2 b",
            (Ground::Threefold, true) => "9.2 a",
            (Ground::FiftyMoves, false) => "9.3 b",
            (Ground::FiftyMoves, true) => "9.3 a",
        }
    }

    /// The article's number, as `[%claim ...]` records the rule: "9.2" or "9.3".
    pub fn code(self) -> &'static str {
        match self {
            Ground::Threefold => "9.2",
            Ground::FiftyMoves => "9.3",
        }
    }

    /// The rule whose [`Ground::code`] is `code`.
    pub fn from_code(code: &str) -> Option<Ground> {
        [Ground::Threefold, Ground::FiftyMoves]
            .into_iter()
            .find(|g| g.code() == code)
    }

    /// "threefold repetition", "the fifty-move rule".
    pub fn name(self) -> &'static str {
        match self {
            Ground::Threefold => "threefold repetition",
            Ground::FiftyMoves => "the fifty-move rule",
        }
    }
}

/// The arbiter's ruling on a claim: its facts, the ruling and its consequence, each a
/// sentence said once; [`Verdict::explanation`] writes them as lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The rule a correct claim rests on (the game is then drawn); `None`
    /// for an incorrect claim.
    pub ground: Option<Ground>,
    /// The facts, one sentence each: the claim; the position and its occurrences; the
    /// 50-move count (both *after* the intended move, FIDE 9.2 a / 9.3 a). Moves are
    /// named as on a scoresheet ("40...Kf7").
    pub facts: Vec<String>,
    /// The ruling: "Correct claim: ..." or "Incorrect claim: ...".
    pub ruling: String,
    /// For an incorrect claim, the other rule when a claim under it would have been
    /// correct.
    pub other_rule: Option<String>,
    /// For an incorrect claim, FIDE 9.5's consequence: the intended move is played, the
    /// game goes on, the opponent's bonus time. A correct claim has none (the game is
    /// drawn, as the ruling says).
    pub consequence: Option<String>,
    /// The plies the explanation refers to (e.g. the occurrences of the position).
    pub plies: Vec<usize>,
    /// The intended move, played as 9.5 requires (with `Claim::WithMove`).
    pub played: Option<Move>,
}

impl Verdict {
    /// Whether the claim was correct (the game is then drawn).
    pub fn correct(&self) -> bool {
        self.ground.is_some()
    }

    /// The ruling's lines, in order: the facts, the ruling, the other rule, the
    /// consequence.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        self.facts
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(self.ruling.as_str()))
            .chain(self.other_rule.as_deref())
            .chain(self.consequence.as_deref())
    }

    /// The ruling as short lines (separated by `\n`): [`Verdict::lines`].
    pub fn explanation(&self) -> String {
        self.lines().collect::<Vec<_>>().join("\n")
    }

    /// The ruling without its facts: the ruling and the consequence, as one paragraph
    /// (for a short message).
    pub fn conclusion(&self) -> String {
        match &self.consequence {
            Some(consequence) => format!("{} {consequence}", self.ruling),
            None => self.ruling.clone(),
        }
    }

    /// The ruling as one paragraph (for a PGN comment or a one-line message).
    pub fn paragraph(&self) -> String {
        self.lines().collect::<Vec<_>>().join(" ")
    }
}

fn has_moves(game: &Game) -> bool {
    !game.legal_moves().is_empty()
}

/// 9.2 (b): the current position has appeared at least three times (and the
/// player to move has a move; a mated or stalemated player has nothing to claim).
pub fn threefold_now(game: &Game) -> bool {
    game.current().occurrence >= 3 && has_moves(game)
}

/// 9.2 (a): the legal moves that would make a position appear for at least the
/// third time, in move-generation order.
pub fn threefold_moves(game: &Game) -> Vec<Move> {
    if game.nothing_repeated() {
        return Vec::new();
    }
    let pos = game.position();
    let key = game.current().key;
    let mut moves = Vec::new();
    for &m in game.legal_moves() {
        if !pos.is_irreversible(m) && game.appeared_twice(reversible_key_after(pos, key, m)) {
            moves.push(m);
        }
    }
    moves
}

/// 9.3 (b): at least 50 moves by each player without capture or pawn move.
pub fn fifty_now(game: &Game) -> bool {
    game.position().halfmoves() >= FIFTY_MOVE_COUNT && has_moves(game)
}

/// The 50-move count (in half-moves) at which FIDE 9.3 lets the player to
/// move claim: 50 moves by each player without a capture or a pawn move.
pub const FIFTY_MOVE_COUNT: u32 = 100;

/// True for a move that resets the fifty-move count (a capture or a pawn move).
pub fn is_zeroing(m: Move) -> bool {
    m.is_capture() || m.role() == Role::Pawn
}

/// 9.3 (a): with the halfmove clock at 99 or more, the legal moves that are
/// neither captures nor pawn moves; otherwise none.
pub fn fifty_moves(game: &Game) -> Vec<Move> {
    let pos = game.position();
    if pos.halfmoves() + 1 < FIFTY_MOVE_COUNT {
        return Vec::new();
    }
    game.legal_moves()
        .iter()
        .copied()
        .filter(|&m| !is_zeroing(m))
        .collect()
}

/// Whether a claim may be possible at some ply of `game`: every claim needs a position
/// that has already appeared twice ([`threefold_now`] a third occurrence, [`threefold_moves`]
/// a position of the stretch seen twice) or a fifty-move count of at least
/// `FIFTY_MOVE_COUNT - 1` ([`fifty_now`], [`fifty_moves`]). When neither is found, no ply
/// of the game has a claim, and a review need not replay it to look.
pub fn claims_possible_in(game: &Game) -> bool {
    (0..=game.len()).any(|ply| {
        game.record(ply).occurrence >= 2
            || game.position_at(ply).halfmoves() + 1 >= FIFTY_MOVE_COUNT
    })
}

/// Whether the player to move can claim a draw now or with some move: FIDE
/// 9.2 b or 9.3 b now, or 9.2 a or 9.3 a with some legal move (at 99/100 any
/// move that is neither a capture nor a pawn move). The trainer's "claim
/// possible" hint.
pub fn claim_possible(game: &Game) -> bool {
    !game.is_over()
        && (threefold_now(game)
            || fifty_now(game)
            || !fifty_moves(game).is_empty()
            || !threefold_moves(game).is_empty())
}

/// Sorted UCI strings of moves (as `analyze --json` prints them).
pub fn sorted_uci(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    v.sort_unstable();
    v
}

/// What the claim is about: the position it names (the current one, or the one
/// after the intended move) and both rules' facts about it.
struct Facts {
    /// The intended move as written on a scoresheet ("40...Kf7"), if any.
    label: Option<String>,
    /// "The position after 40...Kf7" / "The start position".
    position: String,
    /// Occurrences of that position, itself included.
    occurrence: u32,
    /// The plies where it stood before.
    earlier: Vec<usize>,
    /// Why the intended move makes a new position ("is a capture", "is a pawn
    /// move", "gives up White's castling rights"), when it is irreversible for
    /// a reason a player sees.
    new_because: Option<String>,
    /// Whether the intended move is a capture or a pawn move.
    zeroing: bool,
    /// The 50-move count (in half-moves) in that position.
    count: u32,
    /// Whether each rule holds.
    threefold: bool,
    fifty: bool,
}

impl Facts {
    fn holds(&self, g: Ground) -> bool {
        match g {
            Ground::Threefold => self.threefold,
            Ground::FiftyMoves => self.fifty,
        }
    }
}

/// "The position after 12.Nf3" / "The start position".
fn position_name(game: &Game, ply: usize) -> String {
    if ply == 0 {
        "The start position".to_string()
    } else {
        format!("The position {}", game.place_label(ply))
    }
}

/// "1 half-move", "2 half-moves".
pub fn half_moves(n: u32) -> String {
    format!("{n} half-move{}", if n == 1 { "" } else { "s" })
}

/// Why the legal move `m` makes a position that cannot have stood before, as a
/// player sees it: "is a capture", "is a pawn move", "gives up White's
/// castling rights". `None` for a reversible move, and for a move that is
/// irreversible only because it forgoes an en passant capture (the position
/// after it is new all the same: the pawn's double step was the move before).
fn new_because(pos: &Chess, m: Move) -> Option<String> {
    if m.is_capture() {
        return Some("is a capture".to_string());
    }
    if m.role() == Role::Pawn {
        return Some("is a pawn move".to_string());
    }
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let lost = |side: CastlingSide| pos.castles().has(us, side) && !after.castles().has(us, side);
    let side = color_name(us);
    match (lost(CastlingSide::KingSide), lost(CastlingSide::QueenSide)) {
        (true, true) => Some(format!("gives up {side}'s castling rights")),
        (true, false) => Some(format!("gives up {side}'s right to castle kingside")),
        (false, true) => Some(format!("gives up {side}'s right to castle queenside")),
        (false, false) => None,
    }
}

/// The facts about the current position of `game` (a claim now).
fn facts_now(game: &Game) -> Facts {
    let ply = game.len();
    Facts {
        label: None,
        position: position_name(game, ply),
        occurrence: game.current().occurrence,
        earlier: game.earlier(ply),
        new_because: None,
        zeroing: false,
        count: game.position().halfmoves(),
        threefold: threefold_now(game),
        fifty: fifty_now(game),
    }
}

/// The facts about the position after the legal move `m` (a claim with `m`
/// as the intended move), before it is played.
fn facts_after(game: &Game, m: Move) -> Facts {
    let pos = game.position();
    let label = move_label(pos, m);
    let reversible = !pos.is_irreversible(m);
    let (occurrence, earlier) = if reversible {
        let key = reversible_key_after(pos, game.current().key, m);
        match game.latest_with_key(key) {
            Some(p) => {
                let mut v = game.earlier(p);
                v.push(p);
                (game.occurrences(p) + 1, v)
            }
            None => (1, Vec::new()),
        }
    } else {
        (1, Vec::new())
    };
    let zeroing = is_zeroing(m);
    let count = if zeroing { 0 } else { pos.halfmoves() + 1 };
    Facts {
        position: format!("The position after {label}"),
        label: Some(label),
        occurrence,
        earlier,
        new_because: new_because(pos, m),
        zeroing,
        count,
        threefold: occurrence >= 3,
        fifty: count >= FIFTY_MOVE_COUNT,
    }
}

/// The occurrence line of a ruling: "The position after 40...Kf7 would stand
/// for the third time (before: after 32...Kf7 and after 36...Kf7)." For a
/// capture or a pawn move, `with_count` adds that the 50-move count starts
/// again, so the fifty-move line is not needed.
fn occurrence_line(game: &Game, f: &Facts, with_count: bool) -> String {
    if let (Some(label), Some(why)) = (&f.label, &f.new_because) {
        return if with_count && f.zeroing {
            format!(
                "{label} {why}: the position after it is new and the 50-move count starts again at 0/100."
            )
        } else {
            format!("{label} {why}: the position after it is new.")
        };
    }
    let verb = if f.label.is_some() {
        "would stand"
    } else {
        "stands"
    };
    let before = if f.earlier.is_empty() {
        String::new()
    } else {
        format!(" (before: {})", list_places(game, &f.earlier))
    };
    format!(
        "{} {verb} for the {} time{before}.",
        f.position,
        ordinal(f.occurrence)
    )
}

/// FIDE 9.2 a for one legal intended move `m`, as its ruling says it: "The
/// position after 4...Ng8 would stand for the third time (before: the start
/// position and after 2...Ng8).", with the plies where that position stood.
pub fn occurrence_after(game: &Game, m: Move) -> (String, Vec<usize>) {
    let f = facts_after(game, m);
    (occurrence_line(game, &f, false), f.earlier)
}

/// The 50-move-count line of a ruling: "After 40...Kf7 the 50-move count would
/// be 98/100, 2 half-moves short." / "40...e6 is a pawn move: the 50-move count
/// starts again at 0/100."
fn count_line(f: &Facts) -> String {
    let short = if f.count < 100 {
        format!(", {} short", half_moves(100 - f.count))
    } else {
        String::new()
    };
    match (&f.label, f.zeroing) {
        (Some(label), true) => {
            let why = f
                .new_because
                .as_deref()
                .unwrap_or("is a capture or a pawn move");
            format!("{label} {why}: the 50-move count starts again at 0/100.")
        }
        (Some(label), false) => format!(
            "After {label} the 50-move count would be {}/100{short}.",
            f.count
        ),
        (None, _) => format!("The 50-move count is {}/100{short}.", f.count),
    }
}

/// The first line of a ruling: who claims, under which rule, with which move.
fn claim_line(side: Color, f: &Facts, under: &[Ground]) -> String {
    let with_move = f.label.is_some();
    let with = f
        .label
        .as_ref()
        .map_or(String::new(), |l| format!(" with {l}"));
    let side = color_name(side);
    match under {
        [g] => format!(
            "{side} claims a draw by {}{with} (FIDE {}).",
            g.name(),
            g.article(with_move)
        ),
        _ => format!(
            "{side} claims a draw{with} (FIDE {}, {}).",
            Ground::Threefold.article(with_move),
            Ground::FiftyMoves.article(with_move)
        ),
    }
}

/// Judge a claim by the player to move under either rule, as an arbiter rules
/// on a draw claim that names no article (the engine's claims, the drills, a
/// claim recorded in a PGN). A claim with an intended move plays that move
/// either way (FIDE 9.5); a correct claim ends the game drawn.
///
/// Errors only when the game is already over or the intended move is illegal;
/// then nothing changes.
///
/// `clocks` says whether the game is played with clocks: FIDE 9.5's penalty is time added
/// to the opponent's clock, which a game without clocks does not have.
pub fn judge(game: &mut Game, claim: Claim, clocks: Clocks) -> Result<Verdict, PlayError> {
    rule(
        game,
        claim,
        &[Ground::Threefold, Ground::FiftyMoves],
        clocks,
    )
}

/// Judge a claim made under one rule, as a player claims over the board
/// ("threefold repetition with 40...Kf7, 9.2 a"): only that rule can make it
/// correct. Otherwise as [`judge`].
pub fn judge_under(
    game: &mut Game,
    claim: Claim,
    ground: Ground,
    clocks: Clocks,
) -> Result<Verdict, PlayError> {
    rule(game, claim, &[ground], clocks)
}

fn rule(
    game: &mut Game,
    claim: Claim,
    under: &[Ground],
    clocks: Clocks,
) -> Result<Verdict, PlayError> {
    if let Some(t) = game.termination() {
        return Err(PlayError::GameOver {
            text: match claim {
                Claim::Now => "draw claim".to_string(),
                Claim::WithMove(m) => m.to_uci(CastlingMode::Standard).to_string(),
            },
            ply: game.len() + 1,
            reason: t.ending.kind,
        });
    }
    let played = match claim {
        Claim::Now => None,
        Claim::WithMove(m) if game.legal_moves().contains(&m) => Some(m),
        Claim::WithMove(m) => {
            return Err(game.illegal(m.to_uci(CastlingMode::Standard).to_string()));
        }
    };
    let side = game.position().turn();
    let f = match played {
        None => facts_now(game),
        Some(m) => facts_after(game, m),
    };
    let ground = under.iter().copied().find(|&g| f.holds(g));
    let threefold = under.contains(&Ground::Threefold);
    let fifty = under.contains(&Ground::FiftyMoves);

    let mut facts = vec![claim_line(side, &f, under)];
    if threefold {
        facts.push(occurrence_line(game, &f, fifty));
    }
    if fifty && !(threefold && f.zeroing && f.new_because.is_some()) {
        facts.push(count_line(&f));
    }
    let mut plies = f.earlier.clone();
    if let Some(m) = played {
        game.push_legal(m);
    }
    let ply = game.len();
    let mut other_rule = None;
    let mut consequence = None;
    let ruling = match ground {
        Some(g) => {
            if g == Ground::Threefold {
                plies.push(ply);
            } else {
                plies = vec![ply];
            }
            format!("Correct claim: the game is drawn by {}.", g.name())
        }
        None => {
            plies.push(ply);
            let needed = match under {
                [Ground::Threefold] => "a third occurrence is needed",
                [Ground::FiftyMoves] => "the count must reach 100/100",
                _ => "neither rule applies",
            };
            // The other rule, had the player claimed under it.
            if let [claimed] = under {
                let other = match claimed {
                    Ground::Threefold => Ground::FiftyMoves,
                    Ground::FiftyMoves => Ground::Threefold,
                };
                if f.holds(other) {
                    other_rule = Some(format!(
                        "A claim under FIDE {} ({}) would have been correct.",
                        other.article(played.is_some()),
                        other.name()
                    ));
                }
            }
            let then = match incorrect_claim_bonus(!side, clocks) {
                Some(bonus) => format!("; {bonus}"),
                None => format!(" (FIDE 9.5); {NO_CLOCKS_9_5}"),
            };
            consequence = Some(match (&f.label, game.termination()) {
                (Some(label), Some(t)) => {
                    format!("{label} is played (FIDE 9.5). {}", t.ending.explanation)
                }
                (Some(label), None) => {
                    format!("{label} is played and the game goes on{then}.")
                }
                (None, _) => format!("The game goes on{then}."),
            });
            format!("Incorrect claim: {needed}.")
        }
    };
    let verdict = Verdict {
        ground,
        facts,
        ruling,
        other_rule,
        consequence,
        plies,
        played,
    };
    if let Some(g) = ground {
        // A correct claim is ruled before the intended move is played (the
        // move is only written down), so it draws even if that move would
        // have ended the game otherwise.
        game.end_by_claim(Ending {
            kind: match g {
                Ground::Threefold => EndingKind::ThreefoldClaim,
                Ground::FiftyMoves => EndingKind::FiftyMoveClaim,
            },
            explanation: verdict.paragraph(),
            plies: verdict.plies.clone(),
        });
    }
    Ok(verdict)
}

/// FIDE 9.5: what the arbiter adds to the opponent's remaining time when a
/// claim is found incorrect.
pub const INCORRECT_CLAIM_BONUS: Duration = Duration::from_secs(120);

/// Whether a game is played with clocks. FIDE 9.5 punishes an incorrect claim with time
/// (two minutes more for the opponent); without clocks that part of the rule has nothing to
/// act on, and what is left is that the game goes on and an intended move is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clocks {
    /// The game has clocks (an over-the-board game, a trainer game with clocks).
    On,
    /// The game has none (a trainer game without clocks, a drill).
    Off,
}

/// What FIDE 9.5 leaves of an incorrect claim's penalty in a game without clocks.
pub const NO_CLOCKS_9_5: &str = "without clocks no time is added";

/// FIDE 9.5's penalty for an incorrect claim, "White gets 2 more minutes (FIDE 9.5)", for
/// the claimant's `opponent`; `None` in a game without clocks. The ruling and the claim
/// dialog both say it from here.
pub fn incorrect_claim_bonus(opponent: Color, clocks: Clocks) -> Option<String> {
    match clocks {
        Clocks::On => Some(format!(
            "{} gets {} more minutes (FIDE 9.5)",
            color_name(opponent),
            INCORRECT_CLAIM_BONUS.as_secs() / 60
        )),
        Clocks::Off => None,
    }
}

/// FIDE 9.5: the opponent's remaining time after an incorrect claim, given
/// the time it had: [`INCORRECT_CLAIM_BONUS`] more. Saturates instead of
/// overflowing, so no clock setting can make it panic.
pub fn time_after_incorrect_claim(opponent_left: Duration) -> Duration {
    opponent_left.saturating_add(INCORRECT_CLAIM_BONUS)
}

/// "first", "second", "third", ...
pub fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        5 => "fifth".into(),
        n => {
            let suffix = match (n % 10, n % 100) {
                (_, 11..=13) => "th",
                (1, _) => "st",
                (2, _) => "nd",
                (3, _) => "rd",
                _ => "th",
            };
            format!("{n}{suffix}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shuffle::{Rng, shuffling_game};

    fn game(fen: Option<&str>, san: &str) -> Game {
        let mut g = fen.map_or_else(Game::new, |f| Game::from_fen(f).unwrap());
        for m in san.split_whitespace() {
            g.play_san(m).unwrap();
        }
        g
    }

    fn with(g: &mut Game, san: &str, under: Option<Ground>) -> Verdict {
        let m = g.parse_san(san).unwrap();
        match under {
            None => judge(g, Claim::WithMove(m), Clocks::On),
            Some(r) => judge_under(g, Claim::WithMove(m), r, Clocks::On),
        }
        .unwrap()
    }

    const ROOK: &str = "4k3/8/8/8/8/8/4P3/R3K3 w Q - 98 80";

    #[test]
    fn half_moves_singular_and_plural() {
        assert_eq!(half_moves(1), "1 half-move");
        assert_eq!(half_moves(2), "2 half-moves");
        let v = with(&mut game(Some(ROOK), ""), "Ra2", Some(Ground::FiftyMoves));
        assert!(
            v.explanation()
                .contains("After 80.Ra2 the 50-move count would be 99/100, 1 half-move short."),
            "{}",
            v.explanation()
        );
        let v = judge_under(
            &mut game(Some(ROOK), ""),
            Claim::Now,
            Ground::FiftyMoves,
            Clocks::On,
        )
        .unwrap();
        assert!(
            v.explanation()
                .contains("The 50-move count is 98/100, 2 half-moves short."),
            "{}",
            v.explanation()
        );
    }

    /// 9.3 (a): the count that decides is the one after the intended move.
    #[test]
    fn the_count_after_the_intended_move_decides() {
        let fen = "4k3/8/8/8/8/8/4P3/R3K3 w Q - 99 80";
        let v = with(&mut game(Some(fen), ""), "Ra2", Some(Ground::FiftyMoves));
        assert!(v.correct());
        assert!(
            v.explanation()
                .contains("After 80.Ra2 the 50-move count would be 100/100."),
            "{}",
            v.explanation()
        );
        assert!(!v.explanation().contains("99"), "{}", v.explanation());
    }

    /// The reason a move makes a new position is the move's own: a pawn move,
    /// a capture, castling rights given up.
    #[test]
    fn the_specific_reason_is_named() {
        let v = with(&mut game(None, "Nf3 d5 Nc3 Nf6"), "e3", None);
        assert!(
            v.explanation().contains(
                "3.e3 is a pawn move: the position after it is new and the 50-move count starts again at 0/100."
            ),
            "{}",
            v.explanation()
        );
        let v = with(
            &mut game(None, "Nf3 d5 Nc3 Nf6"),
            "Nxd5",
            Some(Ground::FiftyMoves),
        );
        assert!(
            v.explanation()
                .contains("3.Nxd5 is a capture: the 50-move count starts again at 0/100."),
            "{}",
            v.explanation()
        );
        let v = with(&mut game(Some(ROOK), ""), "Kd1", Some(Ground::Threefold));
        assert!(
            v.explanation().contains(
                "80.Kd1 gives up White's right to castle queenside: the position after it is new."
            ),
            "{}",
            v.explanation()
        );
        for generic in ["a capture or a pawn move", "irreversible"] {
            assert!(!v.explanation().contains(generic), "{}", v.explanation());
        }
    }

    /// 9.2 (a): the occurrences are those of the position after the intended move.
    #[test]
    fn occurrences_after_the_intended_move() {
        let mut g = game(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        let v = with(&mut g, "Ng8", Some(Ground::Threefold));
        assert!(v.correct());
        let lines: Vec<&str> = v.lines().collect();
        assert_eq!(
            lines,
            [
                "Black claims a draw by threefold repetition with 4...Ng8 (FIDE 9.2 a).",
                "The position after 4...Ng8 would stand for the third time (before: the start position and after 2...Ng8).",
                "Correct claim: the game is drawn by threefold repetition.",
            ]
        );
        let mut g = game(None, "Nf3 Nf6 Ng1");
        let v = with(&mut g, "Ng8", Some(Ground::Threefold));
        assert!(!v.correct());
        let lines: Vec<&str> = v.lines().collect();
        assert_eq!(
            lines,
            [
                "Black claims a draw by threefold repetition with 2...Ng8 (FIDE 9.2 a).",
                "The position after 2...Ng8 would stand for the second time (before: the start position).",
                "Incorrect claim: a third occurrence is needed.",
                "2...Ng8 is played and the game goes on; White gets 2 more minutes (FIDE 9.5).",
            ]
        );
        assert_eq!(g.len(), 4, "the intended move is played (FIDE 9.5)");
    }

    /// Without clocks, FIDE 9.5 adds no time: the ruling says what the rule leaves (the game
    /// goes on, the intended move is played) and names no minutes.
    #[test]
    fn without_clocks_an_incorrect_claim_adds_no_time() {
        let mut g = game(None, "Nf3 Nf6 Ng1");
        let now = judge(&mut g, Claim::Now, Clocks::Off).unwrap();
        assert_eq!(
            now.conclusion(),
            "Incorrect claim: neither rule applies. The game goes on (FIDE 9.5); without clocks no time is added."
        );
        let ng8 = g.parse_san("Ng8").unwrap();
        let with = judge(&mut g, Claim::WithMove(ng8), Clocks::Off).unwrap();
        assert!(
            !with.explanation().contains("minutes"),
            "{}",
            with.explanation()
        );
        assert!(
            with.explanation()
                .contains("2...Ng8 is played and the game goes on (FIDE 9.5); without clocks"),
            "{}",
            with.explanation()
        );
        assert_eq!(g.len(), 4, "the intended move is played (FIDE 9.5)");
    }

    /// A verdict keeps its parts apart: the facts, the ruling, the other rule and the
    /// consequence are fields, the explanation their lines in that order, the conclusion
    /// the ruling and the consequence, and a correct claim's ending its paragraph.
    #[test]
    fn a_verdict_keeps_its_facts_ruling_and_consequence_as_fields() {
        let fen = "4k3/8/8/8/8/8/4P3/R3K3 w Q - 100 80";
        let mut g = game(Some(fen), "");
        let v = judge_under(&mut g, Claim::Now, Ground::Threefold, Clocks::On).unwrap();
        assert_eq!(v.facts.len(), 2, "{:?}", v.facts);
        assert!(v.facts[0].starts_with("White claims"), "{:?}", v.facts);
        assert_eq!(v.ruling, "Incorrect claim: a third occurrence is needed.");
        assert_eq!(
            v.other_rule.as_deref(),
            Some("A claim under FIDE 9.3 b (the fifty-move rule) would have been correct.")
        );
        assert_eq!(
            v.consequence.as_deref(),
            Some("The game goes on; Black gets 2 more minutes (FIDE 9.5).")
        );
        assert_eq!(
            v.explanation(),
            format!(
                "{}\n{}\n{}\n{}\n{}",
                v.facts[0],
                v.facts[1],
                v.ruling,
                v.other_rule.as_ref().unwrap(),
                v.consequence.as_ref().unwrap()
            )
        );
        let v = judge_under(&mut g, Claim::Now, Ground::FiftyMoves, Clocks::On).unwrap();
        assert_eq!(
            v.ruling,
            "Correct claim: the game is drawn by the fifty-move rule."
        );
        assert_eq!((&v.other_rule, &v.consequence), (&None, &None));
        assert_eq!(v.conclusion(), v.ruling);
        assert_eq!(g.termination().unwrap().ending.explanation, v.paragraph());
    }

    /// A claim under one rule is ruled by that rule; the ruling says when the
    /// other would have drawn.
    #[test]
    fn a_claim_under_one_rule_is_ruled_by_it() {
        let fen = "4k3/8/8/8/8/8/4P3/R3K3 w Q - 100 80";
        let mut g = game(Some(fen), "");
        let v = judge_under(&mut g, Claim::Now, Ground::Threefold, Clocks::On).unwrap();
        assert!(!v.correct());
        // The short message leaves the facts out.
        assert_eq!(
            v.conclusion(),
            "Incorrect claim: a third occurrence is needed. The game goes on; Black gets 2 more minutes (FIDE 9.5)."
        );
        assert!(
            v.explanation().contains(
                "A claim under FIDE 9.3 b (the fifty-move rule) would have been correct."
            ),
            "{}",
            v.explanation()
        );
        let v = judge_under(&mut g, Claim::Now, Ground::FiftyMoves, Clocks::On).unwrap();
        assert_eq!(v.ground, Some(Ground::FiftyMoves));
        assert!(g.is_over());
    }

    /// The clauses of a ruling: its lines, split at sentence ends, colons,
    /// semicolons and "and".
    fn sentences(v: &Verdict) -> Vec<String> {
        let mut clauses = vec![];
        for line in v.lines() {
            for s in line.trim_end_matches('.').split(". ") {
                for c in s.split([':', ';']).flat_map(|c| c.split(" and ")) {
                    clauses.push(c.trim().to_string());
                }
            }
        }
        clauses
    }

    /// Over every position of a corpus of shuffling games, every kind of claim
    /// (now and with each of several moves, under each rule and both): no
    /// ruling says a clause twice, each line is short, and a claim with a
    /// move never quotes the count before it.
    #[test]
    fn no_ruling_says_a_sentence_twice() {
        let mut rng = Rng::new(13);
        let starts = [
            None,
            Some("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1"),
            Some("4k3/8/8/8/8/8/4P3/R3K3 w Q - 95 80"),
        ];
        let mut rulings = 0;
        for start in starts {
            let start_game = game(start, "");
            for _ in 0..12 {
                let moves = shuffling_game(start_game.position(), &mut rng, 120);
                let mut g = start_game.clone();
                for &m in &moves {
                    let mut claims = vec![Claim::Now];
                    let legal = g.legal_moves();
                    for _ in 0..3 {
                        claims.push(Claim::WithMove(legal[rng.below(legal.len())]));
                    }
                    for claim in claims {
                        for under in [None, Some(Ground::Threefold), Some(Ground::FiftyMoves)] {
                            let mut copy = g.clone();
                            let v = match under {
                                None => judge(&mut copy, claim, Clocks::On),
                                Some(r) => judge_under(&mut copy, claim, r, Clocks::On),
                            }
                            .unwrap();
                            rulings += 1;
                            let s = sentences(&v);
                            for (i, a) in s.iter().enumerate() {
                                assert!(
                                    !s[i + 1..].contains(a),
                                    "{a:?} said twice in\n{}",
                                    v.explanation()
                                );
                            }
                            assert!(v.lines().count() <= 6, "{}", v.explanation());
                            if let (Claim::WithMove(_), false) =
                                (claim, g.position().halfmoves() >= 99)
                            {
                                let before = format!("is {}/100", g.position().halfmoves());
                                assert!(!v.explanation().contains(&before), "{}", v.explanation());
                            }
                        }
                    }
                    if g.play(m).is_err() {
                        break;
                    }
                }
            }
        }
        assert!(rulings > 5_000, "{rulings}");
    }
}
