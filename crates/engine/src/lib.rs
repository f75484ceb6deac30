//! The engine of both games, chess and xiangqi: one alpha-beta searcher that sees the whole
//! game.
//!
//! # The parts
//!
//! - The generic part, written once for both games: the search ([`search`], its tuning
//!   constants in [`search::params`]) with its move-ordering tables (the history and killers'
//!   arithmetic, [`search::ordering`]) and the key history of the game and the line
//!   ([`search::keys`]: the list of keys of John Stanback's Zarkov, as the chessprogramming
//!   wiki's page "Repetitions", <https://www.chessprogramming.org/Repetitions>, quotes it);
//!   what a game must give the search ([`game`], the trait [`game::Game`]); the transposition table in the style
//!   of Chris Moreton's Rival ([`tt`], after Rival's documentation,
//!   "Transposition/Refutation Tables",
//!   <https://www.redhotpawn.com/rival/programming/transref.php>); values and scores
//!   ([`score`]); the cache of static evaluations by key ([`evalcache`]); time control
//!   ([`time`]); the strength levels, a search size and an evaluation noise each, measured
//!   against Stockfish ([`level`]); the shadow score
//!   ([`shadow`], below); what measurements see of a search ([`probe`]); the UCI front end
//!   ([`uci`]); the fitter both games' tuners share ([`tune`]).
//! - One folder per game, each with its move generation glue (the [`game::Game`]
//!   implementation), its move ordering, its evaluation and its repetition rules: [`chess`]
//!   (the picker [`chess::movepick`], checks and legality without playing a move
//!   [`chess::moves`], the evaluation [`chess::eval`], the detectors of the wiki's page
//!   [`chess::repetition`] — Zarkov's by default, Belle's, Rookie's or Axon's by the UCI
//!   option `Repetition` — and the opening book [`chess::book`]) and [`xiangqi`] (the
//!   picker [`xiangqi::ordering`], the evaluation [`xiangqi::eval`], and the WXF judge in the
//!   search).
//! - Sparring ([`sparring`]): after the search, a choice among moves close to the best that
//!   steers toward repetitions, for a player to practise claims against (off by default).
//!
//! [`Engine::search`] is the one entry for both games: it receives the game's start position
//! and every move played since ([`Request`]), so repetitions that began before the root are
//! visible to the search.
//!
//! The measurements (the speed benchmark, the repetition suite, the detectors' audit,
//! hash-table pollution) are in the `threefold-lab` crate, above this one. What they need to
//! see of a search they get through a [`probe::Probe`] given to [`Engine::search`]: the
//! search is generic over the probe and calls it only behind `if P::ACTIVE`, a constant, so
//! the search a game uses (probe `()`) is compiled without any of it: no counter and no
//! instrumentation branch at its nodes.
//!
//! A score that rests on a repetition draw found in the search is stored in the table like
//! any other, so another path to the same position may reuse it although the repetition is
//! not on that path (the graph history interaction). H.G. Muller's post on the Winboard forum
//! about hash-table pollution by repetition draws proposes a "shadow score" that keeps such
//! scores apart (<http://www.open-aurec.com/wbforum/viewtopic.php?f=4&t=3863>): [`shadow`],
//! switched on by the UCI option `ShadowScore` (off by default).
//!
//! The engine depends on shakmaty, on the xiangqi crate (`threefold-xiangqi`: its board, moves
//! and judge), on the rules core (`threefold-rules`) for the position key
//! ([`threefold_rules::key`]: the same key the arbiter counts repetitions with) and its strict
//! FEN reader ([`threefold_rules::fen`]); never on the UI.

pub mod chess;
pub mod evalcache;
pub mod game;
pub mod level;
pub mod probe;
pub mod score;
pub mod search;
pub mod shadow;
pub mod sparring;
pub mod time;
pub mod tt;
pub mod tune;
pub mod uci;
pub mod xiangqi;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move};

pub use score::Score;
pub use tt::TtAllocError;

use chess::repetition::Method;
use game::Game;
use probe::Probe;
use score::{MATE, MATE_BOUND, MAX_DEPTH};
use search::Searcher;
use shadow::{Frame, ShadowScore, StorePolicy};
use tt::Tt;

/// Search limits, as in UCI `go`. All `None` / `false` = search until `stop`... or the maximum
/// depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    /// Centipawns of pseudo-random noise added to every static evaluation, uniform in
    /// `-noise..=noise` ([`level::noise`]): the weak levels' handicap ([`level`]). 0: none.
    pub noise: u32,
    /// Sparring ([`sparring`]): prefer a move close to the best that returns to a position
    /// that stood before, or offers the return (UCI option `Sparring`, the trainer's setting).
    pub sparring: bool,
}

/// Progress report after an iteration (moves of chess by default, or of xiangqi).
#[derive(Clone, Debug)]
pub struct SearchInfo<M = Move> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

/// Final result of a search (of chess by default, or of xiangqi).
#[derive(Clone, Debug)]
pub struct SearchResult<M = Move> {
    /// Best move (`None` only when the root has no legal move).
    pub best: Option<M>,
    /// Expected reply (second PV move), if known.
    pub ponder: Option<M>,
    pub score: Score,
    /// Last completed depth.
    pub depth: u32,
    pub nodes: u64,
}

/// What [`Engine::search`] searches: a game of `G` (chess or xiangqi), its start and the moves
/// played since, the limits, the flag that stops the search, and while pondering the flag
/// that holds the deadlines back until `ponderhit`.
pub struct Request<'a, G: Game> {
    pub start: &'a G,
    pub moves: &'a [G::Move],
    pub limits: &'a Limits,
    pub stop: &'a AtomicBool,
    /// UCI `go ponder`: true until `ponderhit` ([`Engine::search`]). `None`: no pondering.
    pub pondering: Option<&'a AtomicBool>,
}

impl<G: Game> Clone for Request<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Request<'_, G> {}

impl<'a, G: Game> Request<'a, G> {
    /// The game `start` + `moves` under `limits`, stopped by `stop`; no pondering.
    pub fn new(
        start: &'a G,
        moves: &'a [G::Move],
        limits: &'a Limits,
        stop: &'a AtomicBool,
    ) -> Request<'a, G> {
        Request {
            start,
            moves,
            limits,
            stop,
            pondering: None,
        }
    }

    /// The same search, pondering while `flag` is true (`None`: not pondering).
    pub fn pondering(self, flag: Option<&'a AtomicBool>) -> Request<'a, G> {
        Request {
            pondering: flag,
            ..self
        }
    }
}

/// The engine's state of each game ([`Game::State`]): the record of the game, the history
/// table, caches, and chess's repetition detectors.
pub struct States {
    pub chess: chess::ChessState,
    pub xiangqi: xiangqi::XiangqiState,
}

impl States {
    /// Fresh states of both games.
    pub fn new() -> States {
        States {
            chess: chess::ChessState::new(),
            xiangqi: xiangqi::XiangqiState::new(),
        }
    }
}

impl Default for States {
    fn default() -> States {
        States::new()
    }
}

/// The engine: transposition table, each game's state (record, history tables, evaluation
/// cache: [`States`]) and options. `Send`. It plays chess and xiangqi with the one search,
/// generic over [`game::Game`], through the one entry [`Engine::search`].
pub struct Engine {
    tt: Tt,
    contempt: i32,
    states: States,
    upcoming: bool,
    /// What the table stores where a score rests on a repetition ([`shadow`]).
    store_policy: StorePolicy,
    /// The seed of the evaluation noise ([`Limits::noise`]): new with each game.
    noise_seed: u64,
    /// What the last search's sparring choice gave up ([`Engine::sparred`]).
    sparred: Option<sparring::Sparred>,
}

/// Default `Hash` in MB.
pub const DEFAULT_HASH_MB: usize = 16;

impl Engine {
    /// An engine with a `hash_mb` MB transposition table.
    pub fn new(hash_mb: usize) -> Result<Engine, TtAllocError> {
        Ok(Engine {
            tt: Tt::new(hash_mb)?,
            contempt: 0,
            states: States::new(),
            upcoming: false,
            store_policy: StorePolicy::Real,
            noise_seed: fresh_seed(),
            sparred: None,
        })
    }

    /// Sets the seed of the evaluation noise ([`Limits::noise`]) until the next
    /// [`Engine::new_game`] (tests: the same seed, the same games).
    pub fn set_noise_seed(&mut self, seed: u64) {
        self.noise_seed = seed;
    }

    /// Resizes the table (its content is lost). The old table is freed before the new one
    /// is made, so the two never take memory together; a size that cannot be had (see
    /// [`tt::check_fits`]) is refused, and the engine then keeps a table of the old size
    /// (the old one itself when the request could never fit), or 1 MB if even that fails.
    pub fn set_hash(&mut self, hash_mb: usize) -> Result<(), TtAllocError> {
        let mapping = self.tt.mapping();
        let old_mb = self.hash_mb();
        // Refused while the old table is still there when freeing it could not make room.
        let reclaimable = self.tt.bytes() as u64;
        tt::check_fits(hash_mb, tt::available_bytes().map(|a| a + reclaimable))?;
        self.tt = Tt::with_entries(1, mapping);
        match Tt::with_mapping(hash_mb, mapping) {
            Ok(t) => {
                self.tt = t;
                Ok(())
            }
            Err(e) => {
                if let Ok(t) =
                    Tt::with_mapping(old_mb, mapping).or_else(|_| Tt::with_mapping(1, mapping))
                {
                    self.tt = t;
                }
                Err(e)
            }
        }
    }

    /// The table's size in MB.
    pub fn hash_mb(&self) -> usize {
        self.tt.mb()
    }

    /// Uses Rival's biased index mapping instead of the multiply (for measurements).
    pub fn set_index_mapping(&mut self, mapping: tt::IndexMapping) {
        let mb = self.hash_mb();
        self.tt = Tt::with_entries(1, mapping);
        self.tt = Tt::with_mapping(mb, mapping)
            .or_else(|_| Tt::with_mapping(1, mapping))
            .unwrap_or_else(|_| Tt::with_entries(1, mapping));
    }

    /// Contempt in centipawns: a draw is worth `-cp` to the engine (the side to move at the
    /// root). Positive = avoid draws.
    pub fn set_contempt(&mut self, cp: i32) {
        self.contempt = cp.clamp(-1000, 1000);
    }

    /// UCI `ShadowScore`: store Muller's shadow score where a score rests on a repetition
    /// drawn inside the search ([`shadow`]).
    pub fn set_shadow_score(&mut self, mode: ShadowScore) {
        self.store_policy = match mode {
            ShadowScore::Off => StorePolicy::Real,
            ShadowScore::On => StorePolicy::Shadow,
        };
    }

    /// The `ShadowScore` setting.
    pub fn shadow_score(&self) -> ShadowScore {
        match self.store_policy {
            StorePolicy::Shadow => ShadowScore::On,
            _ => ShadowScore::Off,
        }
    }

    /// What the table stores for path-dependent scores (measurements: `bench pollution` uses
    /// [`StorePolicy::Independent`] as the search that cannot be polluted).
    pub fn set_store_policy(&mut self, policy: StorePolicy) {
        self.store_policy = policy;
    }

    /// Current contempt.
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// The repetition detector of the search (UCI `Repetition`, see [`chess::repetition`]).
    pub fn set_repetition(&mut self, method: Method) {
        self.states.chess.keys.set_method(&mut self.tt, method);
    }

    /// The repetition detector in use.
    pub fn repetition(&self) -> Method {
        self.states.chess.keys.method()
    }

    /// Stockfish's upcoming-repetition draw score (UCI `UpcomingRepetition`).
    pub fn set_upcoming_repetition(&mut self, on: bool) {
        self.upcoming = on;
    }

    /// Whether the upcoming-repetition draw score is on.
    pub fn upcoming_repetition(&self) -> bool {
        self.upcoming
    }

    /// Belle's shared-slot losses in the searches so far (positions its table could not
    /// mark: [`chess::repetition::belle`]).
    pub fn belle_shared_slot_losses(&self) -> u64 {
        self.states.chess.keys.belle_shared_slot_losses()
    }

    /// Clears the transposition table and the history tables, and draws a new seed for the
    /// evaluation noise, so the weak levels play another game.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.noise_seed = fresh_seed();
        <Chess as Game>::clear_history(&mut self.states.chess);
        <threefold_xiangqi::Position as Game>::clear_history(&mut self.states.xiangqi);
    }

    /// UCI `Judge` (xiangqi): rule repetitions by the WXF rules in the search (on by
    /// default); off, every repetition is a draw, as in chess (a baseline to measure).
    pub fn set_judge(&mut self, on: bool) {
        self.states.xiangqi.set_judge(on);
    }

    /// Whether the xiangqi search rules repetitions by the WXF rules.
    pub fn judge(&self) -> bool {
        self.states.xiangqi.judge()
    }

    /// Searches the game of `request` (chess or xiangqi: its start and every move played
    /// since, whose repetitions the search sees), watched by `probe` (`&mut ()` for a game:
    /// then no probe code is compiled in; the measurements of `threefold-lab` and the tests
    /// pass theirs, [`probe`], which changes nothing the search does). Moves that are illegal
    /// end the game record there (the search starts from the position before the first
    /// illegal move). `on_info` hears of every completed iteration.
    ///
    /// Pondering ([`Request::pondering`], UCI `go ponder`): while the flag is true the search
    /// runs on the opponent's time with no deadline, and when it goes false (`ponderhit`: the
    /// opponent played the expected move) the deadlines of the limits start counting from
    /// then, the work done so far kept. A search that ends while still pondering (its depth
    /// reached, a mate found) returns; the caller holds its answer back until `ponderhit` or
    /// `stop`, as UCI requires.
    pub fn search<G: Game, P: Probe<G>>(
        &mut self,
        request: &Request<'_, G>,
        probe: &mut P,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let Request {
            start,
            moves,
            limits,
            stop,
            pondering,
        } = *request;
        let t0 = Instant::now();
        let state = G::state(&mut self.states);
        // The game record: keys of every position, with the irreversible moves marked.
        let pos = G::record_game(state, start, moves);
        G::mark_game(state, &mut self.tt);
        self.tt.new_search();
        // Age the history heuristic.
        G::age_history(state);

        let first = pos.first_legal_move();
        let turn = if pos.first_player_to_move() {
            shakmaty::Color::White
        } else {
            shakmaty::Color::Black
        };
        let budget = time::budget(limits, turn, G::MOVE_HORIZON);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let root_key = pos.key();

        let mut result = SearchResult {
            best: first,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        };
        if first.is_none() {
            result.score = if pos.in_check() || G::STALEMATE_LOSES {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            return result;
        }

        let mut s = Searcher::new(
            probe,
            &mut self.tt,
            state,
            self.contempt,
            stop,
            budget.hard,
            limits.nodes,
        );
        s.start = t0;
        s.noise = limits.noise;
        s.noise_seed = self.noise_seed;
        if let Some(p) = pondering {
            s.pondering = Some(p);
            s.pending_hard = budget.hard;
            s.hard = None;
            s.poll_ponderhit();
        }
        s.upcoming = self.upcoming;
        s.shadow = Frame::new(self.store_policy, P::SHADOW);
        let mut prev = 0;
        // Iterations in a row whose best move stayed, and the score's last fall
        // ([`time::soft_scale`]).
        let mut stable = 0u32;
        let mut drop = 0;
        for depth in 1..=max_depth {
            let v = s.aspiration(&pos, root_key, depth as i32, prev);
            if s.stopped {
                // A partial iteration still counts if a root move beat the window.
                if let Some((m, v)) = s.iter_best
                    && depth > 1
                {
                    if result.best != Some(m) {
                        result.ponder = None;
                    }
                    result.best = Some(m);
                    result.score = Score::from_value(v);
                }
                break;
            }
            if depth > 1 {
                drop = prev - v;
            }
            prev = v;
            let pv = s.root_pv().to_vec();
            if let Some(&m) = pv.first() {
                stable = if result.best == Some(m) {
                    stable + 1
                } else {
                    0
                };
                result.best = Some(m);
                result.ponder = pv.get(1).copied();
            } else if let Some((m, _)) = s.iter_best {
                result.best = Some(m);
            }
            result.score = Score::from_value(v);
            result.depth = depth;
            let time = t0.elapsed();
            let info = SearchInfo {
                depth,
                seldepth: s.seldepth,
                score: result.score,
                nodes: s.nodes,
                nps: nps(s.nodes, time),
                time,
                hashfull: s.tt.hashfull(),
                pv,
            };
            on_info(&info);
            s.poll_ponderhit();
            if !s.is_pondering()
                && let Some(soft) = budget.soft
                && s.start.elapsed()
                    >= if G::SCALED_SOFT_LIMIT {
                        soft.mul_f64(time::soft_scale(stable, drop))
                    } else {
                        soft
                    }
            {
                break;
            }
            // A forced mate found well within the depth: deeper search changes nothing.
            if v.abs() >= MATE_BOUND
                && (MATE - v.abs()) < depth as i32
                && limits.depth.is_none()
                && !limits.infinite
            {
                break;
            }
        }
        result.nodes = s.nodes;
        if limits.sparring {
            return sparring::spar(self, request, result, on_info);
        }
        result
    }
}

/// A seed that differs from run to run: the clock's nanoseconds mixed with a counter.
fn fresh_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    level::mix(nanos ^ level::mix(COUNTER.fetch_add(1, Ordering::Relaxed)))
}

/// Nodes per second.
pub fn nps(nodes: u64, t: Duration) -> u64 {
    let us = t.as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / us
}

#[cfg(test)]
mod test_positions;
#[cfg(test)]
mod tests;
