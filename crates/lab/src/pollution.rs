//! `threefold bench pollution`: how often a repetition draw stored in the table reaches a
//! path it does not belong to, for the plain search and for Muller's shadow score
//! ([`threefold_engine::shadow`]).
//!
//! Each position of the repetition suite ([`crate::suite`]) starts a game with its history.
//! Three engines play it on together, each keeping its table from move to move as in a real
//! game: the plain search ([`StorePolicy::Real`]), the shadow score
//! ([`StorePolicy::Shadow`]) and a reference that cannot be polluted
//! ([`StorePolicy::Independent`]: it never stores a value that rests on the path). At every
//! ply all three search the same game to the same depth; the reference's move is played.
//!
//! Two counts per mode:
//! - **(a) polluted probes** (instrumented, [`threefold_engine::shadow::Pollution`]): table cutoffs that
//!   returned a value resting on a repetition draw while the repeated position it rests on
//!   is not on the current path (game or search line);
//! - **(b) changes**: searches whose best move or score differs from the reference's. Some of
//!   these are not pollution at all: a table with other entries searches another tree (the
//!   reference stores less), so (b) is an upper bound and (a) the direct measure.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use shakmaty::{Move, Position};

use crate::suite::entries;
use threefold_engine::shadow::StorePolicy;
use threefold_engine::{Engine, Limits, SearchResult, TtAllocError};

/// Plies played from each suite position.
pub const DEFAULT_PLIES: usize = 12;
/// Search depth of each move.
pub const DEFAULT_DEPTH: u32 = 8;

/// Counts of one mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// (a) Table cutoffs that returned a repetition-derived value on another path.
    pub polluted_probes: u64,
    /// Such cutoffs on a path that holds the repeated position (not pollution).
    pub same_path_probes: u64,
    /// (b) Searches whose best move differs from the reference's.
    pub move_changes: u64,
    /// (b) Searches whose score differs from the reference's.
    pub score_changes: u64,
    /// Nodes searched.
    pub nodes: u64,
}

/// Totals of `bench pollution`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PollutionResult {
    pub games: usize,
    pub searches: u64,
    pub plain: Counts,
    pub shadow: Counts,
}

fn search(e: &mut Engine, start: &shakmaty::Chess, moves: &[Move], depth: u32) -> SearchResult {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    e.search(start, moves, &limits, &stop, &mut |_| {})
}

/// Runs the pollution bench; one line per game, the counts of both modes on the last line.
pub fn run(
    depth: u32,
    plies: usize,
    hash_mb: usize,
    out: &mut dyn Write,
) -> Result<PollutionResult, TtAllocError> {
    let mut plain = Engine::new(hash_mb)?;
    let mut shadow = Engine::new(hash_mb)?;
    let mut reference = Engine::new(hash_mb)?;
    shadow.set_store_policy(StorePolicy::Shadow);
    reference.set_store_policy(StorePolicy::Independent);
    let mut r = PollutionResult::default();
    let t0 = Instant::now();
    for e in entries() {
        plain.new_game();
        shadow.new_game();
        reference.new_game();
        plain.instrument(true);
        shadow.instrument(true);
        let mut moves = e.moves.clone();
        let mut pos = e.root();
        let mut game = [Counts::default(); 2];
        for _ in 0..plies {
            if pos.is_game_over() {
                break;
            }
            let want = search(&mut reference, &e.start, &moves, depth);
            for (i, eng) in [&mut plain, &mut shadow].into_iter().enumerate() {
                let got = search(eng, &e.start, &moves, depth);
                game[i].nodes += got.nodes;
                game[i].move_changes += u64::from(got.best != want.best);
                game[i].score_changes += u64::from(got.score != want.score);
            }
            r.searches += 1;
            let Some(m) = want.best else { break };
            pos.play_unchecked(m);
            moves.push(m);
        }
        for (i, eng) in [&plain, &shadow].into_iter().enumerate() {
            let p = eng.pollution().cloned().unwrap_or_default();
            game[i].polluted_probes = p.polluted_probes;
            game[i].same_path_probes = p.same_path_probes;
        }
        let _ = writeln!(
            out,
            "{:<8} plain: polluted probes {:>5}, move/score changes {:>2}/{:>2}   shadow: polluted probes {:>5}, move/score changes {:>2}/{:>2}",
            e.id,
            game[0].polluted_probes,
            game[0].move_changes,
            game[0].score_changes,
            game[1].polluted_probes,
            game[1].move_changes,
            game[1].score_changes,
        );
        r.games += 1;
        for (total, g) in [(&mut r.plain, game[0]), (&mut r.shadow, game[1])] {
            total.polluted_probes += g.polluted_probes;
            total.same_path_probes += g.same_path_probes;
            total.move_changes += g.move_changes;
            total.score_changes += g.score_changes;
            total.nodes += g.nodes;
        }
    }
    let c = |c: &Counts| {
        format!(
            "(a) polluted probes {} (same-path {}), (b) best-move changes {}, score changes {}, {} nodes",
            c.polluted_probes, c.same_path_probes, c.move_changes, c.score_changes, c.nodes
        )
    };
    let _ = writeln!(
        out,
        "pollution: {} games, {} searches, depth {depth}, hash {hash_mb} MB, {:.1} s: plain {}; shadow {}",
        r.games,
        r.searches,
        t0.elapsed().as_secs_f64(),
        c(&r.plain),
        c(&r.shadow)
    );
    Ok(r)
}
