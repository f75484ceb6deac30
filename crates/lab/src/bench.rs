//! `threefold bench`: the speed benchmark of the engine.
//!
//! Searches every position of `assets/bench.fens` (compiled into the binary) to a fixed
//! depth, single thread, with a cleared table before each position, and prints the nodes per
//! position, then the total nodes (deterministic for a given build and depth) and the speed on
//! the last line:
//!
//! ```text
//! bench: 26 positions, depth 14, hash 16 MB: 12345678 nodes in 3.456 s, 3572245 nps
//! ```
//!
//! It also prints the bias measurement of the two transposition-table index mappings (see
//! [`threefold_engine::tt`]) for the actual table size.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess, fen::Fen};

use crate::audit::Audit;
use threefold_engine::chess::repetition::Method;
use threefold_engine::shadow::ShadowScore;
use threefold_engine::tt::{IndexMapping, Tt, mapping_bias};
use threefold_engine::{Engine, Limits, Request, TtAllocError, nps};

/// The bench positions.
pub const FENS: &str = include_str!("../../../assets/bench.fens");

/// Default bench depth: about a second and a half on one core, long enough that the speed
/// figure is stable to about 1%.
pub const DEFAULT_DEPTH: u32 = 14;

/// Parsed bench positions.
pub fn positions() -> Vec<Chess> {
    FENS.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok())
                .unwrap_or_else(|| panic!("bad bench FEN: {l}"))
        })
        .collect()
}

/// Totals of a bench run.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    pub positions: usize,
    pub nodes: u64,
    pub time: Duration,
    pub nps: u64,
}

/// How the engine is set up for a bench run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Setup {
    /// The repetition detector.
    pub repetition: Method,
    /// Stockfish's upcoming-repetition draw score.
    pub upcoming: bool,
    /// Count the detector's wrong answers against the exact key scan (slower).
    pub audit: bool,
    /// Muller's shadow score (`--shadow`, UCI `ShadowScore`).
    pub shadow: ShadowScore,
}

/// Runs the bench; `verbose` prints one line per position to `out`, the summary always.
pub fn run(depth: u32, hash_mb: usize, out: &mut dyn Write) -> Result<BenchResult, TtAllocError> {
    run_setup(
        depth,
        hash_mb,
        IndexMapping::Multiply,
        Setup::default(),
        out,
    )
}

/// Runs the bench with a given index mapping and repetition setup. With a detector other
/// than the default, or the audit, a line of the detector's statistics precedes the summary.
pub fn run_setup(
    depth: u32,
    hash_mb: usize,
    mapping: IndexMapping,
    setup: Setup,
    out: &mut dyn Write,
) -> Result<BenchResult, TtAllocError> {
    let mut engine = Engine::new(hash_mb)?;
    engine.set_shadow_score(setup.shadow);
    if mapping != IndexMapping::Multiply {
        engine.set_index_mapping(mapping);
    }
    engine.set_repetition(setup.repetition);
    engine.set_upcoming_repetition(setup.upcoming);
    // Rookie's hits and the audit are counted by a probe ([`crate::audit`]); the other runs
    // time the plain search, which has none.
    let mut audit = Audit::new(setup.audit);
    let watched = setup.audit || setup.repetition == Method::Rookie;
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let ps = positions();
    let mut nodes = 0u64;
    let mut time = Duration::ZERO;
    for (i, p) in ps.iter().enumerate() {
        engine.new_game();
        let t = Instant::now();
        let r = if watched {
            engine.search(
                &Request::new(p, &[], &limits, &stop),
                &mut audit,
                &mut |_| {},
            )
        } else {
            engine.search(&Request::new(p, &[], &limits, &stop), &mut (), &mut |_| {})
        };
        let dt = t.elapsed();
        time += dt;
        nodes += r.nodes;
        let best = r
            .best
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            out,
            "position {:2}: {:>10} nodes {:>8.3} s bestmove {best}",
            i + 1,
            r.nodes,
            dt.as_secs_f64()
        );
    }
    let n = Tt::slots_for_mb(hash_mb);
    for m in [IndexMapping::Multiply, IndexMapping::RivalFold] {
        let slots = n.min(1_398_101);
        let b = mapping_bias(m, slots, 4 * slots as u64, 7);
        let _ = writeln!(
            out,
            "tt index bias {m:?}: {} slots, {} keys: min {} max {} hits/slot, chi2 {:.0} (unbiased ~{}), folded/other mean ratio {:.3}",
            b.slots,
            b.samples,
            b.min,
            b.max,
            b.chi2,
            b.slots - 1,
            b.low_high_ratio
        );
    }
    if setup.repetition != Method::Zarkov || setup.audit || setup.upcoming {
        let st = audit.counts;
        let _ = write!(
            out,
            "repetition {}{}: rookie hits {} (false {}), belle shared-slot losses {}",
            setup.repetition,
            if setup.upcoming { " + upcoming" } else { "" },
            st.rookie_hits,
            st.rookie_false_hits,
            engine.belle_shared_slot_losses()
        );
        if setup.audit {
            let _ = write!(
                out,
                "; audit: {} probes, {} with an earlier occurrence, {} false repetitions, {} missed",
                st.probes, st.exact_repetitions, st.false_repetitions, st.missed_repetitions
            );
        }
        let _ = writeln!(out);
    }
    let result = BenchResult {
        positions: ps.len(),
        nodes,
        time,
        nps: nps(nodes, time),
    };
    let mode = match setup.shadow {
        ShadowScore::Off => "",
        ShadowScore::On => ", shadow score",
    };
    let _ = writeln!(
        out,
        "bench: {} positions, depth {depth}, hash {hash_mb} MB{mode}: {} nodes in {:.3} s, {} nps",
        result.positions,
        result.nodes,
        time.as_secs_f64(),
        result.nps
    );
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_parse_and_are_many() {
        assert!(positions().len() >= 20);
    }

    #[test]
    fn bench_is_deterministic() {
        let mut sink = Vec::new();
        let a = run(2, 1, &mut sink).unwrap();
        let b = run(2, 1, &mut sink).unwrap();
        assert_eq!(a.nodes, b.nodes);
        assert!(
            String::from_utf8(sink)
                .unwrap()
                .lines()
                .last()
                .unwrap()
                .contains(" nps")
        );
    }
}
