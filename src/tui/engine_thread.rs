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
    Think {
        id: u64,
        start: Chess,
        moves: Vec<Move>,
        limits: Limits,
    },
    /// Think about a xiangqi game (the xiangqi screen's).
    ThinkXiangqi {
        id: u64,
        start: XqPosition,
        moves: Vec<XqMove>,
        limits: Limits,
    },
    Stop,
    NewGame,
    SetHash(usize),
    SetContempt(i32),
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
    /// Think about the position after `moves` from `start` (the whole game, so
    /// the engine sees repetitions) and return its move (None if it has none).
    fn think(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<Move>;
    /// The same for a xiangqi game, ruled by the WXF rules (the engine's judge).
    fn think_xiangqi(
        &mut self,
        start: &XqPosition,
        moves: &[XqMove],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<XqMove>),
    ) -> Option<XqMove>;
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
        _limits: &Limits,
        _stop: &AtomicBool,
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
        start: Chess,
        moves: Vec<Move>,
        limits: Limits,
    },
    ThinkXiangqi {
        id: u64,
        start: XqPosition,
        moves: Vec<XqMove>,
        limits: Limits,
    },
    Hash(usize),
    Contempt(i32),
    NewGame,
}

/// What the engine thread reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    Info {
        id: u64,
        info: Info,
    },
    Best {
        id: u64,
        mv: Option<Move>,
    },
    /// A xiangqi search's progress and move (the xiangqi screen's).
    XqInfo {
        id: u64,
        info: Info<XqMove>,
    },
    XqBest {
        id: u64,
        mv: Option<XqMove>,
    },
    Error(TtAllocError),
}

/// Runs one search, sending its progress at most ~30 times a second (the UI redraws anyway)
/// and never dropping the last iteration, which the move rests on.
fn report_search<M: Clone>(
    tx: &Sender<Report>,
    info_report: impl Fn(Info<M>) -> Report,
    think: impl FnOnce(&mut dyn FnMut(&Info<M>)) -> Option<M>,
) -> Option<M> {
    let mut last = Instant::now() - Duration::from_secs(1);
    // The newest report held back by the rate limit.
    let mut held: Option<Info<M>> = None;
    let mut on_info = |info: &Info<M>| {
        if last.elapsed() >= Duration::from_millis(30) {
            last = Instant::now();
            held = None;
            let _ = tx.send(info_report(info.clone()));
        } else {
            held = Some(info.clone());
        }
    };
    let mv = think(&mut on_info);
    if let Some(info) = held {
        let _ = tx.send(info_report(info));
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
                        Request::Think {
                            id,
                            start,
                            moves,
                            limits,
                        } => {
                            let mv = report_search(
                                &rep_tx,
                                |info| Report::Info { id, info },
                                |on_info| opp.think(&start, &moves, &limits, &stop2, on_info),
                            );
                            let _ = rep_tx.send(Report::Best { id, mv });
                        }
                        Request::ThinkXiangqi {
                            id,
                            start,
                            moves,
                            limits,
                        } => {
                            let mv = report_search(
                                &rep_tx,
                                |info| Report::XqInfo { id, info },
                                |on_info| {
                                    opp.think_xiangqi(&start, &moves, &limits, &stop2, on_info)
                                },
                            );
                            let _ = rep_tx.send(Report::XqBest { id, mv });
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

    /// Start a search; reports carry `id`.
    pub fn think(&self, id: u64, start: Chess, moves: Vec<Move>, limits: Limits) {
        self.stop.store(false, Ordering::Relaxed);
        self.send(Request::Think {
            id,
            start,
            moves,
            limits,
        });
    }

    /// Start a xiangqi search; reports carry `id`.
    pub fn think_xiangqi(&self, id: u64, start: XqPosition, moves: Vec<XqMove>, limits: Limits) {
        self.stop.store(false, Ordering::Relaxed);
        self.send(Request::ThinkXiangqi {
            id,
            start,
            moves,
            limits,
        });
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

    #[test]
    fn thread_reports_a_legal_move_without_blocking() {
        let e = EngineThread::spawn(Box::new(Shuffler::default()));
        let limits = Limits {
            movetime: Some(Duration::from_millis(40)),
            ..Limits::default()
        };
        e.think(7, Chess::default(), Vec::new(), limits);
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
        let m = best.expect("a move");
        assert!(Chess::default().is_legal(m));
    }

    #[test]
    fn stop_ends_a_long_search() {
        let e = EngineThread::spawn(Box::new(Shuffler::default()));
        e.think(1, Chess::default(), Vec::new(), Limits::default());
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

    #[test]
    fn score_display() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Mate(-3).to_string(), "#-3");
        assert!(Score::Mate(2).cp() > 90_000);
    }
}
