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
//! - **(a) polluted probes** (counted by a probe on the search, [`Pollution`]): table cutoffs
//!   that returned a value resting on a repetition draw while the repeated position it rests
//!   on is not on the current path (game or search line);
//! - **(b) changes**: searches whose best move or score differs from the reference's. Some of
//!   these are not pollution at all: a table with other entries searches another tree (the
//!   reference stores less), so (b) is an upper bound and (a) the direct measure.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use shakmaty::{Chess, Move, Position};

use crate::suite::entries;
use threefold_engine::probe::{Probe, Store};
use threefold_engine::search::keys::KeyHistory;
use threefold_engine::shadow::{StorePolicy, stored_bound};
use threefold_engine::{Engine, Limits, Request, SearchResult, TtAllocError};

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

/// The probe of `bench pollution` ([`threefold_engine::probe`]): which stored values rest on
/// a repetition draw, and how often one is read back on a path that does not hold the
/// repeated position. It asks for the shadow bookkeeping ([`Probe::SHADOW`]) so that the
/// plain search, too, knows which of its values rest on the path. Kept from search to search
/// of a game, as the table is.
#[derive(Clone, Debug, Default)]
pub struct Pollution {
    /// Key of a stored position whose stored value rests on a repetition → key of the
    /// repeated position it depends on.
    pub derived: HashMap<u64, u64>,
    /// Table cutoffs that returned such a value on a path without that position.
    pub polluted_probes: u64,
    /// Table cutoffs that returned such a value on a path that holds it.
    pub same_path_probes: u64,
}

impl Probe<Chess> for Pollution {
    const ACTIVE: bool = true;
    const SHADOW: bool = true;

    /// The stored value rests on a repetition of the position at `range.rep_ply` when the
    /// real score depends on the path above and what was stored is that real score, not a
    /// shadow bound (judged by what was stored, not by the policy, so a broken policy shows).
    fn stored(&mut self, s: &Store, keys: &KeyHistory) {
        let shadow = stored_bound(s.real.0, s.real.1, s.range);
        let derived = s.range.depends_above(s.ply) && s.stored == s.real && shadow != Some(s.real);
        if !s.written {
            return;
        }
        match derived.then(|| keys.key_at_ply(s.range.rep_ply)).flatten() {
            Some(dep) => {
                self.derived.insert(s.key, dep);
            }
            None => {
                self.derived.remove(&s.key);
            }
        }
    }

    fn cutoff(&mut self, key: u64, keys: &KeyHistory) {
        if let Some(&dep) = self.derived.get(&key) {
            if keys.on_path(dep) {
                self.same_path_probes += 1;
            } else {
                self.polluted_probes += 1;
            }
        }
    }
}

/// A search of `start` + `moves` to `depth`, watched by `probe`.
fn search<P: Probe<Chess>>(
    e: &mut Engine,
    probe: &mut P,
    start: &shakmaty::Chess,
    moves: &[Move],
    depth: u32,
) -> SearchResult {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    e.search(
        &Request::new(start, moves, &limits, &stop),
        probe,
        &mut |_| {},
    )
}

/// Runs the pollution bench; one line per game, the counts of both modes on the last line.
/// `done(n)` is called as plies are played, `plies` in all per game (a game that ends early
/// reports the plies it did not play with its last), [`entries`] games: the caller's progress
/// line.
pub fn run(
    depth: u32,
    plies: usize,
    hash_mb: usize,
    out: &mut dyn Write,
    done: &mut dyn FnMut(u64),
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
        let mut probes = [Pollution::default(), Pollution::default()];
        let mut moves = e.moves.clone();
        let mut pos = e.root();
        let mut game = [Counts::default(); 2];
        let mut played = 0;
        for _ in 0..plies {
            if pos.is_game_over() {
                break;
            }
            let want = search(&mut reference, &mut (), &e.start, &moves, depth);
            for (i, eng) in [&mut plain, &mut shadow].into_iter().enumerate() {
                let got = search(eng, &mut probes[i], &e.start, &moves, depth);
                game[i].nodes += got.nodes;
                game[i].move_changes += u64::from(got.best != want.best);
                game[i].score_changes += u64::from(got.score != want.score);
            }
            r.searches += 1;
            played += 1;
            done(1);
            let Some(m) = want.best else { break };
            pos.play_unchecked(m);
            moves.push(m);
        }
        done((plies - played) as u64);
        for (g, p) in game.iter_mut().zip(&probes) {
            g.polluted_probes = p.polluted_probes;
            g.same_path_probes = p.same_path_probes;
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

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess};
    use threefold_engine::shadow::ShadowScore;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn moves(start: &Chess, ucis: &[&str]) -> Vec<Move> {
        let mut p = start.clone();
        ucis.iter()
            .map(|u| {
                let m = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
                p.play_unchecked(m);
                m
            })
            .collect()
    }

    /// Plays `plies` plies of the game `start` + `ucis` with the engine's own moves, table
    /// kept, and returns the polluted probes the probe counted.
    fn polluted_probes(e: &mut Engine, start: &Chess, ucis: &[&str], plies: usize) -> u64 {
        let mut ms = moves(start, ucis);
        e.new_game();
        let mut probe = Pollution::default();
        for _ in 0..plies {
            let Some(m) = search(e, &mut probe, start, &ms, 7).best else {
                break;
            };
            ms.push(m);
        }
        probe.polluted_probes
    }

    #[test]
    fn shadow_score_keeps_repetition_draws_off_other_paths() {
        // A rook-and-bishop-up endgame after a shuffle (repetition suite, "forced"): searches
        // from move to move find repetitions in their trees. The plain table hands their
        // draws to paths without the repeated position; with the shadow score no such value
        // is stored.
        let start = pos("2k5/p2p4/8/8/P5KP/8/5RR1/b6r w - - 2 2");
        let hist = ["g4g3", "c8b7", "g3g4", "b7c8", "g4g3", "c8b7"];
        let mut plain = Engine::new(4).unwrap();
        let n_plain = polluted_probes(&mut plain, &start, &hist, 8);
        assert!(n_plain > 0, "the plain search shows no pollution to remove");
        let mut shadow = Engine::new(4).unwrap();
        shadow.set_shadow_score(ShadowScore::On);
        assert_eq!(shadow.shadow_score(), ShadowScore::On);
        assert_eq!(polluted_probes(&mut shadow, &start, &hist, 8), 0);
    }
}
