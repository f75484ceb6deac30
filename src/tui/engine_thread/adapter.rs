//! Adapter from `threefold::engine::Engine` to the TUI's [`Opponent`] trait.

use std::sync::atomic::AtomicBool;

use super::{AnyMove, GameRecord, Info, Limits, Opponent};
use crate::engine::{self, Request, TtAllocError};

pub struct EngineOpponent(engine::Engine);

impl EngineOpponent {
    pub fn new(hash_mb: usize) -> Result<EngineOpponent, TtAllocError> {
        engine::Engine::new(hash_mb).map(EngineOpponent)
    }
}

impl EngineOpponent {
    /// The one search of either game, its reports and move in [`AnyMove`]s.
    fn search<G: engine::game::Game>(
        &mut self,
        start: &G,
        moves: &[G::Move],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Option<AnyMove>
    where
        G::Move: Into<AnyMove>,
    {
        let mut cb = |i: &engine::SearchInfo<G::Move>| {
            on_info(&Info {
                depth: i.depth,
                score: i.score,
                nodes: i.nodes,
                nps: i.nps,
                pv: i.pv.iter().map(|&m| m.into()).collect(),
            })
        };
        let request = Request::new(start, moves, limits, stop);
        self.0
            .search(&request, &mut (), &mut cb)
            .best
            .map(Into::into)
    }
}

impl Opponent for EngineOpponent {
    fn think(
        &mut self,
        game: &GameRecord,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Option<AnyMove> {
        match game {
            GameRecord::Chess { start, moves } => self.search(start, moves, limits, stop, on_info),
            GameRecord::Xiangqi { start, moves } => {
                self.search(start, moves, limits, stop, on_info)
            }
        }
    }

    fn set_hash(&mut self, mb: usize) -> Result<(), TtAllocError> {
        self.0.set_hash(mb)
    }

    fn set_contempt(&mut self, cp: i32) {
        self.0.set_contempt(cp);
    }

    fn new_game(&mut self) {
        self.0.new_game();
    }
}
