//! Sparring: an opponent that steers toward repetitions without playing badly, so that a
//! player meets repetitions at the board and practises claiming them (issue 39).
//!
//! It is switched on per search by [`Limits::sparring`] (the trainer's setting, UCI option
//! `Sparring`) and runs *after* the normal search, which it never changes: with sparring off
//! nothing here runs, and `threefold bench` counts the same nodes. Written once for both
//! games over [`Game`]; what differs (a repetition is a draw in chess, a ruling in xiangqi)
//! is the game's own [`Game::repetition`].
//!
//! # What it does
//!
//! Unless the search found a forced mate (for either side: a mate is played, or met, as
//! usual), the root moves are sorted by what they do for a repetition ([`Pull`]):
//!
//! 1. a move that returns to a position that has stood before in the game (since the last
//!    irreversible move), the position that stood most often first: once a repetition is
//!    under way the engine keeps repeating, toward the third occurrence — but never to a
//!    fifth ([`SPARRING_MAX_OCCURRENCE`]): chess's fivefold repetition ends the game as a
//!    draw without a claim, which would take the claim from the player;
//! 2. else a move after which the opponent has a move that returns to such a position (it
//!    offers the repetition: a knight back to its square, a check the king must step out of);
//! 3. else nothing.
//!
//! The best few of these ([`SPARRING_MAX_CANDIDATES`], those that pull more than the
//! search's own best move) are *verified* by the search: each position after such a move is
//! searched one ply less deep than the root's last completed iteration, under the same node
//! budget and evaluation noise, and the first whose score is within [`margin`] of the best
//! move's is played instead. If none is, the best move stands. Its verified score and line
//! are reported to `on_info` as the search's last iteration, so what a screen shows matches
//! the move played. Verification costs at most as many nodes again per move verified (the
//! level's node budget, or the root search's own node count).
//!
//! # Not playing badly
//!
//! A sparring move is one the search scores close to its best: within
//! [`SPARRING_MARGIN_CP`] (40 cp); while the engine is winning, within a quarter of its
//! advantage ([`SPARRING_MARGIN_SHARE`]) when that is more, but never more than
//! [`SPARRING_MARGIN_MAX_CP`] (a pawn and a half). So, by its own search, it keeps at
//! least three quarters of an advantage, never gives up more than a pawn and a half, and
//! never passes over a mate it has found. Sparring acts while winning too, because a repetition offered by the
//! stronger side is exactly the chance a losing player must learn to notice and claim.
//!
//! The verification searches the position after the move as a game of its own, with no
//! earlier position to repeat: the score is the position's as play goes on, not the draw the
//! opponent could claim there. That claim is the player's to make (or miss: the review shows
//! it after), not something the engine counts on or avoids; so the engine, winning, will
//! walk into a position where the player can claim a draw, and that is the point of
//! sparring. Measured (`threefold sparring`, the lab's sparring measurement): at level 3
//! against level 2, sparring chose about one move in fourteen instead of the best, giving
//! up about 50 cp by its own search on average in chess and 30 in xiangqi; by
//! Fairy-Stockfish the chess moves it chose lose about as much as the engine's other moves
//! (`docs/measurements.md`, `tools/sparring_loss.py`).
//!
//! The engine never claims a draw itself in sparring: claiming is the player's task (or the
//! player misses it, and the review shows it). The engine returns moves only; the trainer's
//! screens leave out their engine's draw claims when sparring is on.
//!
//! # Xiangqi: forbidden perpetuals, both ways
//!
//! A repetition in xiangqi is ruled by the WXF judge ([`Game::repetition`] with the judge in
//! the search): a move back to a position that stood before may complete the mover's own
//! perpetual check or chase, which the judge rules a loss for the mover.
//!
//! - **The engine's own forbidden perpetual.** The normal search never plays on into one (it
//!   scores it lost). In sparring, in some games — [`SPARRING_OFFEND_PERCENT`] percent of
//!   them, decided by the game's seed ([`crate::Engine::set_noise_seed`], new with every
//!   [`crate::Engine::new_game`], so reproducible) — a move that completes its own forbidden
//!   perpetual is a candidate like any other repeating move: if its verified score (the
//!   score of the position after it, the perpetual not yet ruled) is within the margin, the
//!   engine plays it, and keeps playing it, so the player must call the arbiter to win. In
//!   the other games such a move is never played.
//! - **The player's forbidden perpetual.** What is correct follows from the judge's ruling:
//!   when the player's moves in the cycle are a perpetual check or chase and the engine's are
//!   of a lesser kind (idle, or a chase against a check), the judge rules the repetition a
//!   loss for the player. The correct answer is then to *keep the cycle going* with moves
//!   that are themselves not forbidden, so that the position recurs and the player's
//!   perpetual is the one ruled; breaking off throws a won ruling away (and so does
//!   answering with a perpetual of one's own of the same kind, which the judge rules a
//!   draw). The normal search already does this — it scores the player's forbidden
//!   repetition as a win for the engine, a mate score — and sparring leaves a mate score's
//!   move as it is: the engine stays in the cycle and, as in any game, calls the arbiter
//!   when the rules favour it.

use std::sync::atomic::Ordering;

use crate::game::{Game, Verdict};
use crate::level;
use crate::score::INF;
use crate::search::ordering::Picker;
use crate::search::params::{
    SPARRING_MARGIN_CP, SPARRING_MARGIN_MAX_CP, SPARRING_MARGIN_SHARE, SPARRING_MAX_CANDIDATES,
    SPARRING_MAX_OCCURRENCE, SPARRING_OFFEND_PERCENT,
};
use crate::{Engine, Limits, Request, Score, SearchInfo, SearchResult};

/// What a root move does for a repetition, least first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pull {
    /// Nothing.
    None,
    /// The opponent can then return to a position that stood before.
    Offers,
    /// It returns to a position that stood before: the number of times it will then have
    /// stood, itself included (2 or more).
    Returns(u32),
}

/// A root move with what it does for a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate<M> {
    pub m: M,
    pub pull: Pull,
    /// Xiangqi: it completes the mover's own perpetual check or chase, which the judge rules
    /// a loss for the mover (never in chess).
    pub forbidden: bool,
}

/// A sparring choice that replaced the search's best move: the two scores (centipawns
/// from the engine's point of view, [`Score::cp`]), the best move's by the search and the
/// played move's as verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sparred {
    pub best: Score,
    pub played: Score,
}

impl Sparred {
    /// What the choice gave up, centipawns by the engine's own search (0 or more).
    pub fn given_up(self) -> i32 {
        (self.best.cp() - self.played.cp()).max(0)
    }
}

impl Engine {
    /// Whether the last search's sparring choice replaced its best move, and at what cost
    /// (`None`: sparring was off or kept the best move). For measurements.
    pub fn sparred(&self) -> Option<Sparred> {
        self.sparred
    }

    /// Whether, in this game, the sparring engine plays on into its own forbidden perpetual
    /// in xiangqi (drawn from the game's seed: [`SPARRING_OFFEND_PERCENT`] of games).
    pub fn sparring_offends(&self) -> bool {
        level::mix(self.noise_seed ^ 0x5350_4152_5249_4e47) % 100 < SPARRING_OFFEND_PERCENT
    }
}

/// Every legal move of `pos`, in the picker's order (the best-looking first).
fn legal_moves<G: Game>(state: &G::State, pos: &G) -> Vec<G::Move> {
    let mut picker = pos.picker(None, [0; 2], 0);
    let history = G::history(state);
    let mut moves = Vec::new();
    while let Some(p) = picker.next(history) {
        moves.push(p.m);
    }
    moves
}

/// What the legal move `m` of `pos` does for a repetition, `state` holding the game up to
/// `pos` (its last position).
fn candidate<G: Game>(state: &mut G::State, pos: &G, m: G::Move) -> Candidate<G::Move> {
    let mut child = pos.clone();
    let key = child.apply_keyed(pos.key(), m);
    G::push(state, pos, m, &child, key);
    let stood = G::keys(state).occurrences();
    let mut forbidden = false;
    let pull = if stood >= 2 {
        // The opponent is to move: the judge's "win" for it is the mover's forbidden
        // perpetual.
        forbidden = G::RULINGS
            && matches!(
                G::repetition(state, &mut (), 1, 0, INF),
                Verdict::Win { .. }
            );
        Pull::Returns(stood)
    } else {
        let offers = legal_moves(state, &child).into_iter().any(|r| {
            let mut next = child.clone();
            let k = next.apply_keyed(key, r);
            G::push(state, &child, r, &next, k);
            let back = G::keys(state).occurrences() >= 2;
            G::pop(state);
            back
        });
        if offers { Pull::Offers } else { Pull::None }
    };
    G::pop(state);
    Candidate { m, pull, forbidden }
}

/// The root moves of the game `start` + `moves` with what each does for a repetition, in
/// the picker's order; forbidden perpetuals only if `offends`. (The sparring choice's first
/// step, public for tests and measurements.)
pub fn candidates<G: Game>(
    engine: &mut Engine,
    start: &G,
    moves: &[G::Move],
    offends: bool,
) -> Vec<Candidate<G::Move>> {
    root_candidates(engine, start, moves, offends).1
}

/// The root position of the game `start` + `moves` and its [`candidates`].
fn root_candidates<G: Game>(
    engine: &mut Engine,
    start: &G,
    moves: &[G::Move],
    offends: bool,
) -> (G, Vec<Candidate<G::Move>>) {
    let state = G::state(&mut engine.states);
    let pos = G::record_game(state, start, moves);
    let all = legal_moves(state, &pos)
        .into_iter()
        .map(|m| candidate(state, &pos, m))
        .filter(|c| offends || !c.forbidden)
        .collect();
    (pos, all)
}

/// How much worse than the best move's score (centipawns, the engine's view) a move that
/// serves a repetition may be: [`SPARRING_MARGIN_CP`], or while winning
/// [`SPARRING_MARGIN_SHARE`] percent of the advantage when that is more, but never more
/// than [`SPARRING_MARGIN_MAX_CP`].
pub fn margin(best_cp: i32) -> i32 {
    SPARRING_MARGIN_CP
        .max((best_cp.saturating_mul(SPARRING_MARGIN_SHARE) / 100).min(SPARRING_MARGIN_MAX_CP))
}

/// The sparring choice after the normal search's `result` of `request` (see the module
/// docs): `result` itself, or a move that serves a repetition with its verified score.
pub(crate) fn spar<G: Game>(
    engine: &mut Engine,
    request: &Request<'_, G>,
    result: SearchResult<G::Move>,
    on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
) -> SearchResult<G::Move> {
    engine.sparred = None;
    let Some(best) = result.best else {
        return result;
    };
    // A forced mate is played, for either side: a mate found is no place to spar.
    if matches!(result.score, Score::Mate(_)) || request.stop.load(Ordering::Relaxed) {
        return result;
    }
    let best_cp = result.score.cp();
    let offends = engine.sparring_offends();
    let (root, all) = root_candidates(engine, request.start, request.moves, offends);
    let best_pull = all
        .iter()
        .find(|c| c.m == best)
        .map_or(Pull::None, |c| c.pull);
    let mut pulling: Vec<Candidate<G::Move>> = all
        .into_iter()
        .filter(|c| c.pull > best_pull && c.pull <= Pull::Returns(SPARRING_MAX_OCCURRENCE))
        .collect();
    // Stable: among equal pulls the picker's order (the table's and history's best first).
    pulling.sort_by_key(|c| std::cmp::Reverse(c.pull));
    pulling.truncate(SPARRING_MAX_CANDIDATES);
    let limits = Limits {
        depth: Some(result.depth.saturating_sub(1).max(1)),
        nodes: Some(request.limits.nodes.unwrap_or(result.nodes).max(1)),
        noise: request.limits.noise,
        ..Limits::default()
    };
    let mut nodes = result.nodes;
    for c in pulling {
        if request.stop.load(Ordering::Relaxed) {
            break;
        }
        // The position after the move, searched as a game of its own: as if play went on,
        // with no earlier position to repeat (see the module docs).
        let mut child = root.clone();
        child.apply(c.m);
        let verify = Request::new(&child, &[], &limits, request.stop);
        let r = engine.search(&verify, &mut (), &mut |_| {});
        nodes += r.nodes;
        let score = r.score.negate();
        if score.cp() >= best_cp - margin(best_cp) {
            let pv: Vec<G::Move> = std::iter::once(c.m).chain(r.best).collect();
            on_info(&SearchInfo {
                depth: result.depth,
                seldepth: result.depth,
                score,
                nodes,
                nps: 0,
                time: std::time::Duration::ZERO,
                hashfull: 0,
                pv,
            });
            engine.sparred = Some(Sparred {
                best: result.score,
                played: score,
            });
            return SearchResult {
                best: Some(c.m),
                ponder: r.best,
                score,
                depth: result.depth,
                nodes,
            };
        }
    }
    SearchResult { nodes, ..result }
}
