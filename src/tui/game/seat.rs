//! The engine's seat at either game: asking the engine thread to think (one `Effect::Think`
//! with the level's limits and the clocks), stopping it, and reading its reports: the ones
//! of the search the screen waits for, never a stale one of a search stopped or replaced.

use crate::tui::clock::Clock;
use crate::tui::engine_thread::{AnyMove, Effect, GameRecord, Info, Report};
use crate::tui::screen::Requests;

use super::clocks;
use super::players::Named;

/// A search a screen waits for: its id, as the engine thread's reports name it.
pub trait Search {
    fn id(&self) -> u64;
}

/// Ask the engine to think about `game` at `level` (sparring or not), with the game's
/// clocks: the search's id (the next after `ids`, which counts the searches asked).
pub fn think<S: Named>(
    ids: &mut u64,
    level: u8,
    sparring: bool,
    clock: Option<&Clock<S>>,
    game: GameRecord,
    out: &mut Requests,
) -> u64 {
    *ids += 1;
    out.engine(Effect::Think {
        id: *ids,
        game,
        limits: clocks::limits(level, sparring, clock),
    });
    *ids
}

/// Stop the search waited for, if there is one (its move, when it comes, is stale).
pub fn stop<T>(thinking: &mut Option<T>, out: &mut Requests) {
    if thinking.take().is_some() {
        out.engine(Effect::Stop);
    }
}

/// A report of the engine thread as the screen waiting for `T` hears it.
pub enum Heard<T, M> {
    /// Progress of the search waited for (it goes on: the screen keeps it).
    Progress(Info<M>),
    /// The search waited for has finished (it is no longer waited for): its move, if the
    /// game has one and it is of this game.
    Done(T, Option<M>),
    /// The engine failed: the message to show.
    Failed(String),
    /// A report of another search (stopped or replaced): nothing to do.
    Stale,
}

/// Read report `r` for the search waited for in `thinking`, its moves read by `of` (the
/// game's [`AnyMove`] reader).
pub fn hear<T: Search, M: Copy>(
    thinking: &mut Option<T>,
    r: Report,
    of: fn(AnyMove) -> Option<M>,
) -> Heard<T, M> {
    let waited = |id: u64, t: &Option<T>| t.as_ref().is_some_and(|t| t.id() == id);
    match r {
        Report::Info { id, info } if waited(id, thinking) => Heard::Progress(info.of(of)),
        Report::Best { id, mv } if waited(id, thinking) => match thinking.take() {
            Some(t) => Heard::Done(t, mv.and_then(of)),
            None => Heard::Stale,
        },
        Report::Error(e) => Heard::Failed(format!("engine: {e}")),
        Report::Info { .. } | Report::Best { .. } => Heard::Stale,
    }
}
