//! Adapter from `threefold::engine::Engine` to the TUI's [`Opponent`] trait.

use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Move};

use super::{Info, Limits, Opponent};
use crate::engine::{self, Request, TtAllocError};

pub struct EngineOpponent(engine::Engine);

impl EngineOpponent {
    pub fn new(hash_mb: usize) -> Result<EngineOpponent, TtAllocError> {
        engine::Engine::new(hash_mb).map(EngineOpponent)
    }
}

impl Opponent for EngineOpponent {
    fn think(
        &mut self,
        start: &Chess,
        moves: &[Move],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<Move> {
        let mut cb = |i: &engine::SearchInfo| {
            on_info(&Info {
                depth: i.depth,
                score: i.score,
                nodes: i.nodes,
                nps: i.nps,
                pv: i.pv.clone(),
            })
        };
        self.0.search(&Request::new(start, moves, limits, stop), &mut (), &mut cb).best
    }

    fn think_xiangqi(
        &mut self,
        start: &crate::xiangqi::Position,
        moves: &[crate::xiangqi::Move],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<crate::xiangqi::Move>),
    ) -> Option<crate::xiangqi::Move> {
        let mut cb = |i: &engine::SearchInfo<crate::xiangqi::Move>| {
            on_info(&Info {
                depth: i.depth,
                score: i.score,
                nodes: i.nodes,
                nps: i.nps,
                pv: i.pv.clone(),
            })
        };
        self.0
            .search(&Request::new(start, moves, limits, stop), &mut (), &mut cb)
            .best
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
