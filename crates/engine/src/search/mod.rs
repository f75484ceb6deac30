//! Alpha-beta search. The numbers below (depths, margins, reductions) are the tuning
//! constants of [`params`].
//!
//! Its shape follows Stockfish's search and the clean engines derived from that layout
//! (Carp, Simbelmyne): `Searcher::negamax` is generic over `const PV: bool`, so the PV and
//! non-PV nodes are compiled apart (the root is the PV node at ply 0); the null-window
//! searches of the late moves and the null move go through one helper,
//! `Searcher::zero_window`; what the search keeps per ply of the line (killers, static
//! evaluation, PV line) is one `StackEntry` per ply; and the steps of a node are numbered in
//! comments (Step 1. to Step 19. in `negamax`, Step 1. to Step 7. in `quiescence`).
//!
//! It is written once for both games: `Searcher` is generic over [`Game`] (chess, xiangqi:
//! [`super::game`], [`crate::chess`], [`crate::xiangqi`]) and monomorphised, so each game's moves, keys, ordering and evaluation are
//! inlined into its own compiled copy and the chess search runs the same instructions as
//! before it became generic (`threefold bench` counts the same nodes). What a game decides is
//! asked of the trait: a repetition's verdict (chess: a draw; xiangqi: the WXF judge's ruling,
//! scored as a mate when it is a win or a loss, and kept out of the table where it rests on
//! the path above: `StackEntry::ruled_since`), whether stalemate loses, the game's other draws.
//!
//! - Iterative deepening; from depth 5 each iteration starts with an aspiration window of
//!   ±20 cp around the previous score, widened (doubling) on a fail high / fail low.
//! - Principal variation search (PVS): the first move with the full window, the others with a
//!   null window, re-searched on a fail high.
//! - Transposition table (see [`super::tt`]): cutoffs at non-PV nodes; the TT move is decoded,
//!   checked for legality and searched *before* the moves are generated (a cutoff by it saves
//!   the generation and ordering); the child's slot is prefetched as soon as its key is
//!   known, before the move is made. The quiescence search neither probes nor stores: measured
//!   on `threefold bench` (depth 12), probing there cost 13% more time for 1% fewer nodes, as
//!   nearly every quiescence probe is a cache miss, and its entries only crowd out deeper ones.
//!   Static evaluations are cached separately, in both games ([`crate::evalcache`]).
//! - Repetitions (see [`crate::chess::repetition`]): by default Zarkov's scan ([`keys`]) at
//!   every node, quiescence included (UCI `Repetition` picks Belle's, Rookie's or Axon's);
//!   with `UpcomingRepetition`, a node below the root whose side to move can go back to a
//!   position scored a draw has alpha raised to the draw score, as Stockfish does;
//!   also the fifty-move rule and insufficient material. Draws score `-contempt` for the side
//!   that moves at the root, `+contempt` for the other side.
//! - Shadow score (UCI `ShadowScore`, off by default; see [`super::shadow`]): next to each
//!   value the nodes back up H.G. Muller's shadow range and the ply of the repetition the
//!   value depends on, and the table gets the shadow bound where the value rests on the path.
//!   Off, none of it runs.
//! - Measurements watch the search through a [`Probe`] ([`super::probe`]), which the searcher
//!   is generic over: every call to it stands behind `if P::ACTIVE`, a constant, so the plain
//!   search (probe `()`) carries no instrumentation branch.
//! - Quiescence search: captures with SEE >= 0 and queen promotions, stand pat, delta pruning;
//!   all evasions when in check.
//! - Move ordering: the history and killers' arithmetic in [`ordering`], each game's picker in
//!   its folder ([`crate::chess::movepick`], [`crate::xiangqi::ordering`]): TT move, MVV-LVA/SEE captures, killers, history.
//!   Where the game asks for it ([`Game::COUNTER_MOVES`]: xiangqi), the counter move too: for
//!   each move, the quiet move that last cut off right after it (Jos Uiterwijk's
//!   countermove heuristic; chessprogramming wiki, "Countermove Heuristic",
//!   <https://www.chessprogramming.org/Countermove_Heuristic>), tried after the killers.
//! - Null-move pruning (R = 3 + depth/4, not in check, with non-pawn material, static eval at
//!   least beta), reverse futility pruning at depth 6 and below; at depth 3 and below
//!   (non-PV), futility pruning of quiet moves that give no check, and late-move pruning: once
//!   `(4 + 3 depth²)` moves (half as many when not improving) have been handed out, the
//!   remaining quiet moves, checks included, are skipped without being generated. Whether a
//!   move gives check is known before it is made ([`crate::chess::moves::gives_check`]), so a pruned
//!   move is never played.
//! - Late-move reductions for quiet moves (logarithmic table, less in PV nodes and for moves
//!   with good history, more when the position is not *improving*: its static evaluation is
//!   no better than two plies before, at the same side's previous move). Late-move pruning
//!   stops at half as many moves when not improving; reverse futility pruning uses a margin
//!   one depth smaller when improving.
//! - Internal iterative reduction: below the root, a node of depth 4 or more without a usable
//!   TT move (no entry, an entry without a move, or a move that is not legal here: a key
//!   collision) is searched one ply shallower.
//! - Captures that lose material by static exchange are not searched at non-PV nodes of depth
//!   3 and below (unless they give check); chess only (`Game::PRUNE_LOSING_CAPTURES`).
//! - Check extension: a move that gives check is searched one ply deeper.
//! - Mate-distance scoring: mate at ply `p` is `MATE - p`; mate-distance pruning.

pub mod keys;
pub mod ordering;
pub mod params;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;

use super::game::{Game, Verdict};
use super::probe::{Probe, Store};
use super::score::{INF, MATE, MATE_BOUND, MAX_PLY};
use super::shadow::{Accumulator, Frame, StorePolicy};
use super::tt::{Bound, Tt};
use ordering::{Picked, Picker};
use params::*;

/// The clock is read every this many nodes (`Searcher::check_limits`).
pub const CLOCK_CHECK_NODES: u64 = 128;

/// The static evaluation of a node in check (none).
const NO_EVAL: i32 = -INF;

/// A node's value rests on no ruling ([`StackEntry::ruled_since`]).
const NOT_RULED: i32 = i32::MAX;

/// What the search keeps for each ply of the current line (Stockfish's `Stack`): indexed by
/// the ply, so a node reads its ancestors' entries (the static evaluation two plies up) and
/// its child's (the child's principal variation).
struct StackEntry<M> {
    /// The two killer moves of this ply (packed, 0: none).
    killers: [u16; 2],
    /// The move being searched at this ply (packed; 0: a null move, or none yet): the
    /// child's previous move, whose counter move it tries ([`Game::COUNTER_MOVES`]).
    moved: u16,
    /// The node's static evaluation (`NO_EVAL` in check).
    static_eval: i32,
    /// The node's principal variation: its best move and the child's line after it.
    pv: Vec<M>,
    /// Games with rulings ([`Game::RULINGS`]): the earliest ply (from the root, negative in
    /// the game before it) whose position a repetition ruling found below this node counts
    /// from, [`NOT_RULED`] if none: the node's value rests on the path from there. A node
    /// whose value rests on a position above it is not stored in the table.
    ruled_since: i32,
}

/// Search state of one `Engine::search` call of the game `G`, watched by the probe `P`
/// ([`super::probe`]).
pub struct Searcher<'a, G: Game, P: Probe<G>> {
    pub tt: &'a mut Tt,
    /// The game's state: its record (repetitions), history table, caches.
    pub st: &'a mut G::State,
    /// Stockfish's upcoming-repetition draw score (UCI `UpcomingRepetition`).
    pub upcoming: bool,
    pub contempt: i32,
    pub stop: &'a AtomicBool,
    /// When the clock of the deadline started: the search's start, or the `ponderhit`.
    pub start: Instant,
    pub hard: Option<Duration>,
    /// While pondering ([`super::Engine::search`] with [`super::Request::pondering`]): the flag that is true until
    /// `ponderhit`. No deadline applies until then; [`Searcher::poll_ponderhit`] then starts
    /// the clock with [`Searcher::pending_hard`] as the deadline.
    pub pondering: Option<&'a AtomicBool>,
    /// The hard deadline that starts at `ponderhit`.
    pub pending_hard: Option<Duration>,
    pub max_nodes: Option<u64>,
    /// Evaluation noise in centipawns ([`super::Limits::noise`]) and its seed.
    pub noise: u32,
    pub noise_seed: u64,
    pub nodes: u64,
    pub seldepth: u32,
    pub stopped: bool,
    /// One entry per ply of the current line, the root's first.
    stack: Vec<StackEntry<G::Move>>,
    lmr: Vec<[u8; 64]>,
    /// Counter moves by the packed previous move ([`Game::COUNTER_MOVES`]; empty otherwise):
    /// the quiet move that last cut off right after it. Kept for one search.
    counters: Vec<u16>,
    /// Best move of the root found so far in the current iteration (with its score).
    pub iter_best: Option<(G::Move, i32)>,
    /// Muller's shadow score ([`super::shadow`]); idle (`track` false) in a plain search.
    pub shadow: Frame,
    /// What watches the search (`()`: nothing).
    probe: &'a mut P,
}

impl<'a, G: Game, P: Probe<G>> Searcher<'a, G, P> {
    /// New searcher, watched by `probe`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        probe: &'a mut P,
        tt: &'a mut Tt,
        st: &'a mut G::State,
        contempt: i32,
        stop: &'a AtomicBool,
        hard: Option<Duration>,
        max_nodes: Option<u64>,
    ) -> Searcher<'a, G, P> {
        let mut lmr = vec![[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as u8;
            }
        }
        Searcher {
            tt,
            st,
            upcoming: false,
            contempt,
            stop,
            start: Instant::now(),
            hard,
            pondering: None,
            pending_hard: None,
            max_nodes,
            noise: 0,
            noise_seed: 0,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            stack: (0..=MAX_PLY)
                .map(|_| StackEntry {
                    killers: [0; 2],
                    moved: 0,
                    static_eval: NO_EVAL,
                    pv: Vec::with_capacity(MAX_PLY),
                    ruled_since: NOT_RULED,
                })
                .collect(),
            lmr,
            counters: if G::COUNTER_MOVES {
                vec![0; 1 << 16]
            } else {
                Vec::new()
            },
            iter_best: None,
            shadow: Frame::new(StorePolicy::Real, P::SHADOW),
            probe,
        }
    }

    /// The static evaluation of `pos` (key `key`), with the level's noise if it has one
    /// ([`super::level`]).
    #[inline(always)]
    fn evaluate(&mut self, pos: &G, key: u64) -> i32 {
        let v = G::evaluate(self.st, pos, key);
        if self.noise == 0 {
            v
        } else {
            v + super::level::noise(key, self.noise_seed, self.noise)
        }
    }

    /// Enters `child`, reached by the legal move `m` from `pos`; its key is `key`.
    #[inline(always)]
    fn push(&mut self, pos: &G, m: G::Move, child: &G, key: u64) {
        G::push(self.st, pos, m, child, key);
        G::mark(self.st, self.tt, key);
        if P::ACTIVE {
            self.probe.enter(child, Some(&m));
        }
    }

    /// Enters `child`, reached by a null move; its key is `key`.
    #[inline(always)]
    fn push_null_move(&mut self, child: &G, key: u64) {
        G::push_null_move(self.st, child, key);
        G::mark(self.st, self.tt, key);
        if P::ACTIVE {
            self.probe.enter(child, None);
        }
    }

    /// Leaves the last position entered.
    #[inline(always)]
    fn pop(&mut self) {
        G::pop(self.st);
        G::unmark(self.st, self.tt);
        if P::ACTIVE {
            self.probe.leave();
        }
    }

    /// The principal variation of the last completed search at the root.
    pub fn root_pv(&self) -> &[G::Move] {
        &self.stack[0].pv
    }

    /// Games with rulings: the value just found at `ply` rests on a ruling counted from
    /// `since` (see [`StackEntry::ruled_since`]).
    #[inline(always)]
    fn ruled(&mut self, ply: usize, since: i32) {
        if G::RULINGS {
            let r = &mut self.stack[ply].ruled_since;
            *r = (*r).min(since);
        }
    }

    /// Games with rulings: what the child at `ply + 1` rested on, the parent's too.
    #[inline(always)]
    fn inherit_ruling(&mut self, ply: usize) {
        if G::RULINGS {
            let since = self.stack[ply + 1].ruled_since;
            self.ruled(ply, since);
        }
    }

    /// Games with rulings: whether the value of the node at `ply` rests on a ruling counted
    /// from a position above it (then the table must not keep it).
    #[inline(always)]
    fn rests_on_path(&self, ply: usize) -> bool {
        G::RULINGS && self.stack[ply].ruled_since < ply as i32
    }

    /// Scores the verdict of the repetition rule at `ply` (`None`: no repetition counted).
    #[inline(always)]
    fn verdict(&mut self, ply: usize, beta: i32) -> Option<i32> {
        let draw = self.draw_score(ply);
        match G::repetition(self.st, self.probe, ply, draw, beta) {
            Verdict::None => None,
            Verdict::Draw => {
                if self.shadow.track {
                    self.shadow.repetition(ply, G::keys(self.st));
                }
                Some(draw)
            }
            Verdict::Loss { since } => {
                self.ruled(ply, since);
                Some(-MATE + ply as i32)
            }
            Verdict::Win { since } => {
                self.ruled(ply, since);
                Some(MATE - ply as i32)
            }
        }
    }

    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        // Even plies: the engine (root side) is to move; a draw is worth -contempt to it.
        if ply.is_multiple_of(2) {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// Ends the search on `stop`, at the hard deadline or at the node limit. The stop flag is
    /// read at every node (a relaxed load of a line no one writes during the search: nothing
    /// next to a node's work), so `stop` is answered within one node however slow nodes are;
    /// the clock is read every [`CLOCK_CHECK_NODES`] nodes (about 0.1 ms at a million nodes
    /// per second). Once every 1024 nodes for both, `stop` took up to 1.2 s when page faults
    /// had made nodes a thousand times slower.
    #[inline]
    fn check_limits(&mut self) {
        if self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(CLOCK_CHECK_NODES) {
            self.poll_ponderhit();
            if let Some(h) = self.hard
                && self.start.elapsed() >= h
            {
                self.stopped = true;
            }
        }
        if let Some(n) = self.max_nodes
            && self.nodes >= n
        {
            self.stopped = true;
        }
    }

    /// Whether the search is still pondering (no deadline counts yet).
    pub fn is_pondering(&self) -> bool {
        self.pondering.is_some()
    }

    /// Ends pondering when its flag has gone false (`ponderhit`): the deadline's clock
    /// starts now.
    pub fn poll_ponderhit(&mut self) {
        if let Some(p) = self.pondering
            && !p.load(Ordering::Relaxed)
        {
            self.pondering = None;
            self.start = Instant::now();
            self.hard = self.pending_hard;
        }
    }

    /// One iteration with an aspiration window around `prev`.
    pub fn aspiration(&mut self, root: &G, key: u64, depth: i32, prev: i32) -> i32 {
        self.iter_best = None;
        if depth < ASPIRATION_MIN_DEPTH || prev.abs() >= MATE_BOUND {
            return self.negamax::<true>(root, key, depth, -INF, INF, 0, root.in_check());
        }
        let mut delta = ASPIRATION_WINDOW;
        let mut alpha = (prev - delta).max(-INF);
        let mut beta = (prev + delta).min(INF);
        loop {
            let v = self.negamax::<true>(root, key, depth, alpha, beta, 0, root.in_check());
            if self.stopped {
                return v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INF);
            } else if v >= beta {
                beta = (v + delta).min(INF);
            } else {
                return v;
            }
            delta += delta;
            if delta > ASPIRATION_MAX_WINDOW {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// The value of `pos` (key `key`, `ply` plies below the root, `in_check` whether its side
    /// to move is in check) searched `depth` plies deep within the window `(alpha, beta)`.
    /// `PV`: a node of the principal variation, searched with an open window (the root and
    /// the first child of a PV node, and a late move re-searched there); else a non-PV node,
    /// searched with a null window (`beta = alpha + 1`, see [`Searcher::zero_window`]), where
    /// the table cuts off and the pruning runs. A constant as Stockfish's node type is a
    /// template argument: each kind of node is compiled with only its own code. The root is
    /// the PV node at ply 0.
    #[allow(clippy::too_many_arguments)]
    fn negamax<const PV: bool>(
        &mut self,
        pos: &G,
        key: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        // The root is a PV node: a non-PV node is never at ply 0.
        let root = PV && ply == 0;

        // Step 1. Enter the node: the horizon hands over to the quiescence search (not in
        // check: a node in check searches its evasions a ply deeper); count the node, stop at
        // the limits.
        self.stack[ply].pv.clear();
        if G::RULINGS {
            self.stack[ply].ruled_since = NOT_RULED;
        }
        if depth <= 0 && !in_check {
            return self.quiescence(pos, key, alpha, beta, ply, false);
        }
        depth = depth.max(1);
        if self.shadow.track {
            self.shadow.enter(ply);
        }
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }

        if !root {
            // Step 2. Repetitions (a draw in chess; in xiangqi the judge's ruling), the
            // game's other draws (chess: fifty-move rule, insufficient material) and the
            // maximum ply.
            if let Some(v) = self.verdict(ply, beta) {
                return v;
            }
            if pos.rule_draw(in_check) {
                return self.draw_score(ply);
            }
            if ply >= MAX_PLY - 1 {
                return self.evaluate(pos, key);
            }
            // Step 3. Mate-distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            // Step 4. Upcoming repetition: a move back to a position the search scores a draw
            // makes this node worth at least a draw.
            if self.upcoming && alpha < self.draw_score(ply) && G::upcoming(self.st, pos, ply) {
                alpha = self.draw_score(ply);
                if alpha >= beta {
                    return alpha;
                }
            }
        }

        // Step 5. Transposition table lookup: its move and static evaluation; a cutoff at
        // non-PV nodes.
        let mut tt_move = 0u16;
        let mut static_eval = None;
        if let Some(e) = self.tt.probe(key, ply as u32) {
            tt_move = e.mv;
            static_eval = Some(e.eval);
            if !PV && e.depth as i32 >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if cut {
                    if P::ACTIVE {
                        self.probe.cutoff(key, G::keys(self.st));
                    }
                    return e.value;
                }
            }
        }
        // Step 6. Static evaluation (the table's, else the cache's), none in check.
        let eval = if in_check {
            NO_EVAL
        } else {
            static_eval.unwrap_or_else(|| self.evaluate(pos, key))
        };
        self.stack[ply].static_eval = eval;
        // Improving: the static evaluation is better than at our previous move. Late moves
        // are reduced and pruned more where it is not; reverse futility pruning cuts with a
        // smaller margin where it is.
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NO_EVAL
            && eval > self.stack[ply - 2].static_eval;

        if !PV && !in_check {
            // Step 7. Reverse futility pruning.
            if depth <= RFP_MAX_DEPTH
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && eval.abs() < MATE_BOUND
            {
                return eval;
            }
            // Step 8. Null-move pruning: the null window just below beta, a reduced depth
            // (not where the side to move has only pawns, advisors and elephants: zugzwang).
            if depth >= NULL_MOVE_MIN_DEPTH
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && let Some(null_pos) = pos.null_move()
            {
                let r = NULL_MOVE_BASE_REDUCTION
                    + depth / NULL_MOVE_DEPTH_DIVISOR
                    + ((eval - beta) / NULL_MOVE_EVAL_DIVISOR).min(NULL_MOVE_EVAL_MAX);
                let nkey = null_pos.key();
                self.stack[ply].moved = 0;
                self.push_null_move(&null_pos, nkey);
                let v = self.zero_window(&null_pos, nkey, depth - 1 - r, beta - 1, ply + 1, false);
                self.pop();
                if self.stopped {
                    return 0;
                }
                self.inherit_ruling(ply);
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // Step 9. The table's move, and internal iterative reduction without one. The TT move
        // is tried before the moves are generated: when it cuts off, the node never pays for
        // move generation and ordering (see `movepick`).
        let tt_m = pos.decode(tt_move, in_check);
        // Internal iterative reduction: a node without a TT move at a good depth was not
        // searched before (or its entry was lost); search it a ply shallower.
        if tt_m.is_none() && depth >= IIR_MIN_DEPTH && !root {
            depth -= 1;
        }

        // Step 10. The move loop: the picker hands out the TT move, captures, killers and
        // quiet moves by history (`movepick`), generating each kind only when it is reached.
        let counter = self.counter_move(ply);
        let mut picker = pos.picker(tt_m, self.stack[ply].killers, counter);
        let s = pos.side();
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move: Option<G::Move> = None;
        let mut shadow = Accumulator::new(ply);
        let mut quiets_tried: ArrayVec<G::Move, 64> = ArrayVec::new();
        let mut count = 0;
        let futile = !PV
            && !in_check
            && depth <= FUTILITY_MAX_DEPTH
            && eval + FUTILITY_MARGIN * depth <= alpha;
        let lmp_limit = (LMP_BASE + LMP_FACTOR * depth as usize * depth as usize)
            / if improving { 1 } else { 2 };

        while let Some(Picked { m, score, losing }) = picker.next(G::history(self.st)) {
            let quiet = pos.is_quiet(m);
            count += 1;
            // Step 11. Pruning at shallow depth (non-PV nodes, not in check, once a move
            // searched scores better than being mated).
            let prunable = !PV && !in_check && best > -MATE_BOUND;
            // Late-move pruning: at shallow non-PV nodes, once `lmp_limit` moves of any kind
            // have been handed out, the remaining quiet moves, checks included, are neither
            // searched nor (if not generated yet) generated.
            if quiet && prunable && depth <= LMP_MAX_DEPTH && count > lmp_limit {
                picker.skip_quiets();
                continue;
            }
            let gives_check = pos.gives_check(m);
            // Futility pruning: a quiet move cannot lift a hopeless static evaluation to alpha.
            // And at shallow depth a capture that loses material by static exchange is not
            // tried (in the games that prune them, `Game::PRUNE_LOSING_CAPTURES`).
            if prunable
                && !gives_check
                && ((quiet && futile)
                    || (losing && G::PRUNE_LOSING_CAPTURES && depth <= SEE_PRUNING_MAX_DEPTH))
            {
                continue;
            }

            // Step 12. Extension: a checking move is searched a ply deeper.
            let ext = if gives_check && ply < CHECK_EXTENSION_MAX_PLY {
                1
            } else {
                0
            };
            let new_depth = depth - 1 + ext;
            // Step 13. Make the move. The child's TT slot is fetched while the move is made (a
            // quiescence child does not probe the table).
            let early_key = pos.key_after(key, m);
            let probes = new_depth > 0 || gives_check;
            if probes && let Some(k) = early_key {
                self.tt.prefetch(k);
            }
            let mut child = pos.clone();
            child.apply(m);
            let ckey = early_key.unwrap_or_else(|| child.key());
            if probes && early_key.is_none() {
                self.tt.prefetch(ckey);
            }
            self.stack[ply].moved = G::pack(m);
            self.push(pos, m, &child, ckey);

            // Step 14. Principal variation search: the first move with the node's window (as a
            // node of its kind), the others with a null window, reduced if late and quiet
            // (step 15); a fail high re-searched at full depth, then, at a PV node, with the
            // full window as a PV node.
            let v = if count == 1 {
                -self.negamax::<PV>(&child, ckey, new_depth, -beta, -alpha, ply + 1, gives_check)
            } else {
                // Step 15. Late-move reduction.
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH
                    && quiet
                    && !in_check
                    && !gives_check
                    && count > LMR_FULL_MOVES
                {
                    r = self.lmr[(depth as usize).min(63)][count.min(63)] as i32;
                    if PV {
                        r -= 1;
                    }
                    if score > LMR_GOOD_HISTORY {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    r = r.min(new_depth - 1).max(0);
                }
                let mut v =
                    self.zero_window(&child, ckey, new_depth - r, alpha, ply + 1, gives_check);
                if v > alpha && r > 0 {
                    v = self.zero_window(&child, ckey, new_depth, alpha, ply + 1, gives_check);
                }
                if PV && v > alpha && v < beta {
                    v = -self.negamax::<true>(
                        &child,
                        ckey,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        gives_check,
                    );
                }
                v
            };
            // Step 16. Undo the move.
            self.pop();
            if self.stopped {
                return 0;
            }
            self.inherit_ruling(ply);
            if self.shadow.track {
                shadow.add(v, self.shadow.ranges[ply + 1]);
                self.shadow.tentative[ply] = shadow.pessimistic();
            }

            // Step 17. A new best move: the PV line; at beta, a cutoff that updates the killers
            // and history of a quiet move.
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    alpha = v;
                    // Collect the PV.
                    let (head, tail) = self.stack.split_at_mut(ply + 1);
                    let line = &mut head[ply].pv;
                    line.clear();
                    line.push(m);
                    line.extend_from_slice(&tail[0].pv);
                    if root {
                        self.iter_best = Some((m, v));
                    }
                    if v >= beta {
                        if quiet {
                            self.update_quiet_stats(s, ply, m, depth, &quiets_tried);
                        }
                        shadow.cutoff();
                        break;
                    }
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push(m);
            }
        }
        // Step 18. No legal move: checkmate, or stalemate (a draw in chess, lost in
        // xiangqi).
        if count == 0 {
            return if in_check || G::STALEMATE_LOSES {
                -MATE + ply as i32
            } else {
                self.draw_score(ply)
            };
        }

        // Step 19. Store the value in the table: a lower bound at a cutoff, exact if it raised
        // alpha, else an upper bound (with the shadow score on, the bound it computes). A
        // value that rests on a ruling counted from a position above this node is not
        // stored: another path here may not repeat (see `crate::game::xiangqi`).
        if self.rests_on_path(ply) {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = best_move.map_or(0, |m| G::pack(m));
        let ev = if in_check { 0 } else { eval };
        if self.shadow.track {
            // Where the real score rests on the path above, the shadow score is stored.
            let range = shadow.finish();
            self.shadow.ranges[ply] = range;
            let (value, b) = self
                .shadow
                .to_store(ply, best, bound, range)
                .unwrap_or((-INF, Bound::Lower));
            self.tt
                .store(key, ply as u32, mv, value, ev, depth as u32, b);
            if P::ACTIVE {
                let written = self.tt.peek(key, ply as u32).is_some_and(|e| {
                    e.value == value && e.bound == b && e.depth == (depth as u32).min(255)
                });
                let store = Store {
                    key,
                    ply,
                    real: (best, bound),
                    stored: (value, b),
                    range,
                    written,
                };
                self.probe.stored(&store, G::keys(self.st));
            }
            return best;
        }
        self.tt
            .store(key, ply as u32, mv, best, ev, depth as u32, bound);
        best
    }

    /// Searches `child` (at `ply`, `in_check` its own) with the null window `(alpha, alpha +
    /// 1)` of its parent, as a non-PV node, and returns its value from the parent's side: more
    /// than `alpha` (a fail high) or at most `alpha`. The null-move search and the late moves
    /// of principal variation search ask only this.
    #[inline(always)]
    fn zero_window(
        &mut self,
        child: &G,
        key: u64,
        depth: i32,
        alpha: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        -self.negamax::<false>(child, key, depth, -alpha - 1, -alpha, ply, in_check)
    }

    /// Where `counters` keeps the counter move to the move that led to the node at `ply`: the
    /// packed previous move; none at the root, after a null move, or where the game keeps no
    /// counter moves.
    #[inline(always)]
    fn counter_slot(&self, ply: usize) -> Option<usize> {
        if !G::COUNTER_MOVES || ply == 0 {
            return None;
        }
        match self.stack[ply - 1].moved {
            0 => None,
            prev => Some(prev as usize),
        }
    }

    /// The counter move to the move that led to the node at `ply` (0: none).
    #[inline(always)]
    fn counter_move(&self, ply: usize) -> u16 {
        self.counter_slot(ply).map_or(0, |i| self.counters[i])
    }

    fn update_quiet_stats(
        &mut self,
        s: usize,
        ply: usize,
        m: G::Move,
        depth: i32,
        tried: &[G::Move],
    ) {
        let pm = G::pack(m);
        let k = &mut self.stack[ply].killers;
        if k[0] != pm {
            k[1] = k[0];
            k[0] = pm;
        }
        if let Some(i) = self.counter_slot(ply) {
            self.counters[i] = pm;
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        let history = G::history_mut(self.st);
        G::update_history(history, s, m, bonus);
        for &q in tried {
            G::update_history(history, s, q, -bonus);
        }
    }

    fn quiescence(
        &mut self,
        pos: &G,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        // Step 1. Enter the node: count it, stop at the limits.
        self.stack[ply].pv.clear();
        if G::RULINGS {
            self.stack[ply].ruled_since = NOT_RULED;
        }
        if self.shadow.track {
            self.shadow.enter(ply);
        }
        self.nodes += 1;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if ply as u32 > self.seldepth {
            self.seldepth = ply as u32;
        }
        // Step 2. A repetition (the fifty-move rule and insufficient material wait for the
        // main search), and the maximum ply.
        if let Some(v) = self.verdict(ply, beta) {
            return v;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, key) };
        }

        // Step 3. Stand pat: the static evaluation is a lower bound of a node not in check
        // (a quiet move is assumed at least as good); in check, every evasion is searched.
        let mut best;
        let stand_pat;
        if in_check {
            best = -INF;
            stand_pat = -INF;
        } else {
            stand_pat = self.evaluate(pos, key);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }

        let mut shadow = Accumulator::new(ply);
        shadow.add_exact(stand_pat);
        // Step 4. The moves: all evasions in check (none: mate, after the loop), else the
        // captures (chess: and queen promotions), by MVV-LVA.
        let mut list = G::qlist();
        pos.fill_qlist(&mut list, in_check);
        let mut any = false;
        while let Some(m) = G::next_q(&mut list) {
            any = true;
            // Step 5. Delta pruning and losing captures (not in check).
            if !in_check && pos.q_skip(m, stand_pat, alpha) {
                continue;
            }
            // Step 6. Make the move, search it, undo it.
            let mut child = pos.clone();
            let ckey = child.apply_keyed(key, m);
            self.push(pos, m, &child, ckey);
            let v = -self.quiescence(&child, ckey, -beta, -alpha, ply + 1, child.in_check());
            self.pop();
            if self.stopped {
                return 0;
            }
            self.inherit_ruling(ply);
            if self.shadow.track {
                shadow.add(v, self.shadow.ranges[ply + 1]);
                self.shadow.tentative[ply] = shadow.pessimistic();
            }
            // Step 7. A new best move; a cutoff at beta.
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        shadow.cutoff();
                        break;
                    }
                }
            }
        }
        if in_check && !any {
            // Checkmate: no evasion.
            return -MATE + ply as i32;
        }
        if self.shadow.track {
            self.shadow.ranges[ply] = shadow.finish();
        }
        best
    }
}
