//! The engine on its own thread. The UI sends requests and reads reports over
//! channels and never blocks on the engine.
//!
//! The UI codes against the small [`Opponent`] trait. threefold's engine
//! (`crate::engine::Engine`) plugs in through its child module `adapter`;
//! [`default_opponent`] is the one place that chooses it. The tests use a
//! trivial, fast opponent (`Shuffler`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[cfg(test)]
use shakmaty::Position;
use shakmaty::{Chess, Move};

use crate::xiangqi::{Move as XqMove, Position as XqPosition};

mod adapter;

use crate::engine::TtAllocError;

pub use crate::engine::{Limits, Score};

/// What a screen asks of the engine (the run loop carries it out on the
/// [`EngineThread`]).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Think about a game of either kind; reports carry `id`.
    Think {
        id: u64,
        game: GameRecord,
        limits: Limits,
    },
    Stop,
    NewGame,
    SetHash(usize),
    SetContempt(i32),
}

/// A game for the engine to think about: its start and every move played since (the whole
/// game, so the engine sees repetitions), of either kind.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameRecord {
    Chess {
        start: Chess,
        moves: Vec<Move>,
    },
    /// Ruled by the WXF rules (the engine's judge).
    Xiangqi {
        start: XqPosition,
        moves: Vec<XqMove>,
    },
}

/// A move of either game, as a search reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyMove {
    Chess(Move),
    Xiangqi(XqMove),
}

impl AnyMove {
    /// The chess move, if it is one.
    pub fn chess(self) -> Option<Move> {
        match self {
            AnyMove::Chess(m) => Some(m),
            AnyMove::Xiangqi(_) => None,
        }
    }

    /// The xiangqi move, if it is one.
    pub fn xiangqi(self) -> Option<XqMove> {
        match self {
            AnyMove::Xiangqi(m) => Some(m),
            AnyMove::Chess(_) => None,
        }
    }
}

impl From<Move> for AnyMove {
    fn from(m: Move) -> AnyMove {
        AnyMove::Chess(m)
    }
}

impl From<XqMove> for AnyMove {
    fn from(m: XqMove) -> AnyMove {
        AnyMove::Xiangqi(m)
    }
}

impl Info<AnyMove> {
    /// The report of one game's search (`game`: [`AnyMove::chess`] or [`AnyMove::xiangqi`];
    /// a move of the other game, which no search of this one reports, is left out).
    pub fn of<M>(self, game: fn(AnyMove) -> Option<M>) -> Info<M> {
        Info {
            depth: self.depth,
            score: self.score,
            nodes: self.nodes,
            nps: self.nps,
            pv: self.pv.into_iter().filter_map(game).collect(),
        }
    }
}

/// Progress of a search (its principal variation in the game's moves: chess by default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M = Move> {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub pv: Vec<M>,
}

/// Something that picks moves: the engine, or a stand-in.
pub trait Opponent: Send {
    /// Think about `game` (the whole game, so the engine sees repetitions) and return its
    /// move (None if it has none).
    fn think(
        &mut self,
        game: &GameRecord,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Option<AnyMove>;
    /// Hash table size in MiB; an error says why the table could not be had.
    fn set_hash(&mut self, _mb: usize) -> Result<(), TtAllocError> {
        Ok(())
    }
    /// Contempt in centipawns.
    fn set_contempt(&mut self, _cp: i32) {}
    /// A new game starts.
    fn new_game(&mut self) {}
}

/// The opponent the trainer plays: the engine with the configured hash
/// size (in MiB), or with the default size ([`super::config::Config`]'s) if
/// that much memory cannot be had, or with 1 MiB if not even that can.
pub fn default_opponent(hash_mb: usize) -> EngineChoice {
    choose_hash(hash_mb, &hash_fallbacks(), |mb| {
        adapter::EngineOpponent::new(mb).map(|e| Box::new(e) as Box<dyn Opponent>)
    })
}

/// The sizes (MiB) tried in turn when the configured one cannot be had:
/// the default, then 1 MiB.
pub fn hash_fallbacks() -> [usize; 2] {
    [super::config::Config::default().hash_mb, 1]
}

/// The opponent made, the hash size it really has, and why the configured
/// size was refused (None: it was not; `E`: the maker's error).
pub struct EngineChoice<E = TtAllocError> {
    pub opponent: Box<dyn Opponent>,
    pub hash_mb: usize,
    pub refused: Option<E>,
}

/// The first of `wanted`, then `fallbacks` in order, that `make` accepts;
/// the reason the wanted size was refused goes with it.
pub(crate) fn choose_hash<E>(
    wanted: usize,
    fallbacks: &[usize],
    mut make: impl FnMut(usize) -> Result<Box<dyn Opponent>, E>,
) -> EngineChoice<E> {
    let mut refused = None;
    for &mb in std::iter::once(&wanted).chain(fallbacks) {
        match make(mb) {
            Ok(opponent) => {
                return EngineChoice {
                    opponent,
                    hash_mb: mb,
                    refused,
                };
            }
            Err(e) => {
                refused.get_or_insert(e);
            }
        }
    }
    panic!("no transposition table can be allocated, not even {fallbacks:?} MiB")
}

/// A trivial opponent for tests: takes material when it can, else a
/// deterministic "random" move; thinks for a short while, reporting fake depths.
#[cfg(test)]
#[derive(Default)]
pub struct Shuffler {
    seed: u64,
}

#[cfg(test)]
impl Opponent for Shuffler {
    fn think(
        &mut self,
        game: &GameRecord,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Option<AnyMove> {
        let mut on_info = |i: &Info<AnyMove>| on_info(i);
        match game {
            GameRecord::Chess { start, moves } => self
                .think_chess(start, moves, limits, stop, &mut |i| on_info(&into_any(i)))
                .map(AnyMove::from),
            GameRecord::Xiangqi { start, moves } => self
                .think_xiangqi(start, moves, &mut |i| on_info(&into_any(i)))
                .map(AnyMove::from),
        }
    }
}

#[cfg(test)]
/// A report in one game's moves as a report of either game.
fn into_any<M: Copy + Into<AnyMove>>(i: &Info<M>) -> Info<AnyMove> {
    Info {
        depth: i.depth,
        score: i.score,
        nodes: i.nodes,
        nps: i.nps,
        pv: i.pv.iter().map(|&m| m.into()).collect(),
    }
}

#[cfg(test)]
impl Shuffler {
    fn think_chess(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<Move> {
        let mut pos = start.clone();
        for &m in moves {
            pos.play_unchecked(m);
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let budget = limits
            .movetime
            .unwrap_or(Duration::from_millis(150))
            .min(Duration::from_secs(2));
        let t0 = Instant::now();
        let mut depth = 0;
        while t0.elapsed() < budget && !stop.load(Ordering::Relaxed) {
            depth += 1;
            on_info(&Info {
                depth,
                score: Score::Cp(0),
                nodes: u64::from(depth) * 1000,
                nps: 100_000,
                pv: vec![legal[0]],
            });
            std::thread::sleep(Duration::from_millis(20));
            if limits.depth.is_some_and(|d| depth >= d) {
                break;
            }
        }
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407 + moves.len() as u64);
        let capture = legal.iter().find(|m| m.is_capture()).copied();
        Some(capture.unwrap_or(legal[(self.seed >> 33) as usize % legal.len()]))
    }

    /// A capture if there is one, else a deterministic "random" legal move, at once.
    fn think_xiangqi(
        &mut self,
        start: &XqPosition,
        moves: &[XqMove],
        on_info: &mut dyn FnMut(&Info<XqMove>),
    ) -> Option<XqMove> {
        let mut pos = start.clone();
        for &m in moves {
            pos.make(m);
        }
        let legal = pos.legal_moves();
        let legal = legal.as_slice();
        if legal.is_empty() {
            return None;
        }
        on_info(&Info {
            depth: 1,
            score: Score::Cp(0),
            nodes: 1,
            nps: 1,
            pv: vec![legal[0]],
        });
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407 + moves.len() as u64);
        let capture = legal.iter().find(|&&m| pos.is_capture(m)).copied();
        Some(capture.unwrap_or(legal[(self.seed >> 33) as usize % legal.len()]))
    }
}

/// A request to the engine thread.
#[allow(clippy::large_enum_variant)]
enum Request {
    Think {
        id: u64,
        game: GameRecord,
        limits: Limits,
    },
    Hash(usize),
    Contempt(i32),
    NewGame,
}

/// What the engine thread reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A search's progress, in its game's moves.
    Info {
        id: u64,
        info: Info<AnyMove>,
    },
    /// A search's move (None: the game has none).
    Best {
        id: u64,
        mv: Option<AnyMove>,
    },
    Error(TtAllocError),
}

impl Report {
    /// Whether the report is of a xiangqi search, as far as its moves tell (`None`: it has
    /// none, or it is an error).
    pub fn is_xiangqi(&self) -> Option<bool> {
        let m = match self {
            Report::Info { info, .. } => info.pv.first().copied(),
            Report::Best { mv, .. } => *mv,
            Report::Error(_) => None,
        };
        m.map(|m| matches!(m, AnyMove::Xiangqi(_)))
    }

    /// The search the report is of (`None`: an error).
    pub fn id(&self) -> Option<u64> {
        match self {
            Report::Info { id, .. } | Report::Best { id, .. } => Some(*id),
            Report::Error(_) => None,
        }
    }
}

/// Runs one search, sending its progress at most ~30 times a second (the UI redraws anyway)
/// and never dropping the last iteration, which the move rests on.
fn report_search(
    tx: &Sender<Report>,
    id: u64,
    think: impl FnOnce(&mut dyn FnMut(&Info<AnyMove>)) -> Option<AnyMove>,
) -> Option<AnyMove> {
    let mut last = Instant::now() - Duration::from_secs(1);
    // The newest report held back by the rate limit.
    let mut held: Option<Info<AnyMove>> = None;
    let mut on_info = |info: &Info<AnyMove>| {
        if last.elapsed() >= Duration::from_millis(30) {
            last = Instant::now();
            held = None;
            let _ = tx.send(Report::Info {
                id,
                info: info.clone(),
            });
        } else {
            held = Some(info.clone());
        }
    };
    let mv = think(&mut on_info);
    if let Some(info) = held {
        let _ = tx.send(Report::Info { id, info });
    }
    mv
}

/// Handle to the engine thread.
pub struct EngineThread {
    tx: Option<Sender<Request>>,
    rx: Receiver<Report>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl EngineThread {
    /// Start the thread around an opponent.
    pub fn spawn(mut opp: Box<dyn Opponent>) -> EngineThread {
        let (tx, req_rx) = mpsc::channel::<Request>();
        let (rep_tx, rx) = mpsc::channel::<Report>();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("engine".to_string())
            .spawn(move || {
                while let Ok(req) = req_rx.recv() {
                    match req {
                        Request::Think { id, game, limits } => {
                            let mv = report_search(&rep_tx, id, |on_info| {
                                opp.think(&game, &limits, &stop2, on_info)
                            });
                            let _ = rep_tx.send(Report::Best { id, mv });
                        }
                        Request::Hash(mb) => {
                            if let Err(e) = opp.set_hash(mb) {
                                let _ = rep_tx.send(Report::Error(e));
                            }
                        }
                        Request::Contempt(cp) => opp.set_contempt(cp),
                        Request::NewGame => opp.new_game(),
                    }
                }
            })
            .expect("spawn the engine thread");
        EngineThread {
            tx: Some(tx),
            rx,
            stop,
            handle: Some(handle),
        }
    }

    /// Start a search of either game; reports carry `id`.
    pub fn think(&self, id: u64, game: GameRecord, limits: Limits) {
        self.stop.store(false, Ordering::Relaxed);
        self.send(Request::Think { id, game, limits });
    }

    /// Ask the current search to stop (its Best report still comes).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn set_hash(&self, mb: usize) {
        self.send(Request::Hash(mb));
    }

    pub fn set_contempt(&self, cp: i32) {
        self.send(Request::Contempt(cp));
    }

    pub fn new_game(&self) {
        self.send(Request::NewGame);
    }

    fn send(&self, r: Request) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(r);
        }
    }

    /// Reports received so far, without blocking.
    pub fn poll(&self) -> Vec<Report> {
        self.rx.try_iter().collect()
    }
}

impl Drop for EngineThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.tx = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chess game at its start.
    fn chess_game() -> GameRecord {
        GameRecord::Chess {
            start: Chess::default(),
            moves: Vec::new(),
        }
    }

    #[test]
    fn thread_reports_a_legal_move_without_blocking() {
        let e = EngineThread::spawn(Box::new(Shuffler::default()));
        let limits = Limits {
            movetime: Some(Duration::from_millis(40)),
            ..Limits::default()
        };
        e.think(7, chess_game(), limits);
        let t0 = Instant::now();
        let mut best = None;
        while t0.elapsed() < Duration::from_secs(5) && best.is_none() {
            for r in e.poll() {
                if let Report::Best { id, mv } = r {
                    assert_eq!(id, 7);
                    best = mv;
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let m = best.and_then(AnyMove::chess).expect("a move");
        assert!(Chess::default().is_legal(m));
    }

    #[test]
    fn stop_ends_a_long_search() {
        let e = EngineThread::spawn(Box::new(Shuffler::default()));
        e.think(1, chess_game(), Limits::default());
        e.stop();
        let t0 = Instant::now();
        loop {
            if e.poll().iter().any(|r| matches!(r, Report::Best { .. })) {
                break;
            }
            assert!(t0.elapsed() < Duration::from_secs(2));
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// One report type for both games: a report tells its game by its moves, or by nothing
    /// when it has none (the app then routes it by its id).
    #[test]
    fn a_report_tells_its_game_by_its_moves() {
        let xq_start = XqPosition::start();
        let h2e2 = crate::xiangqi::notation::parse_ucci(&xq_start, "h2e2").unwrap();
        let e4 = "e2e4"
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&Chess::default())
            .unwrap();
        let best = |mv: Option<AnyMove>| Report::Best { id: 3, mv };
        assert_eq!(best(Some(h2e2.into())).is_xiangqi(), Some(true));
        assert_eq!(best(Some(e4.into())).is_xiangqi(), Some(false));
        assert_eq!(best(None).is_xiangqi(), None);
        let info = Info {
            depth: 1,
            score: Score::Cp(0),
            nodes: 1,
            nps: 1,
            pv: vec![AnyMove::from(h2e2)],
        };
        let r = Report::Info {
            id: 4,
            info: info.clone(),
        };
        assert_eq!((r.is_xiangqi(), r.id()), (Some(true), Some(4)));
        assert_eq!(info.clone().of(AnyMove::xiangqi).pv, vec![h2e2]);
        assert!(info.of(AnyMove::chess).pv.is_empty());
        assert_eq!(best(None).id(), Some(3));
    }

    #[test]
    fn score_display() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Mate(-3).to_string(), "#-3");
        assert!(Score::Mate(2).cp() > 90_000);
    }
}
