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
//!   (Fairy-Stockfish's rulings). The two are the one type [`RuleAt`], which
//!   every caller passes. The paper also asks that the other
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

mod forbidden;
mod game;
mod record;
mod rule_at;
mod ruling;
mod threats;
mod words;

pub use forbidden::Forbidden;
pub use game::JudgedGame;
pub use record::{ChaseMode, Record};
pub use rule_at::{ParseRuleAtError, RuleAt};
pub use ruling::{Ending, Level, MoveNote, MoveReport, Outcome, Ruling, RulingKind, SideReport};
pub use threats::{
    Attack, EntryStatus, FalseProtection, Harmless, Status, Threats, Unanswered, detect_block,
    false_protectors, gen_captures, get_chases, get_defenders, is_exchange, is_protected,
    new_threats, threats_of_side_to_move, value,
};
pub use words::GLOSSARY;
