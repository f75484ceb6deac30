//! The repetition suite (`assets/repetition_suite.txt`) as a regression test: the positions
//! that both the plain search and the shadow score solve at `bench suite`'s budget must stay
//! solved, here at a small node budget (a regression test, not a speed test; `threefold
//! bench suite` measures the solve rates).

use threefold::engine::Engine;
use threefold::engine::shadow::ShadowScore;
use threefold::lab::suite::{entries, solve};

/// Node budget per position and mode.
const NODES: u64 = 20_000;

/// The positions both modes solved at `NODES` when this test was written
/// (`threefold bench suite --nodes 20000`).
const SOLVED_BY_BOTH: &[&str] = &[
    "perp-01", "perp-02", "perp-03", "perp-04", "thir-01", "thir-02", "thir-03", "thir-04",
    "thir-05", "thir-06", "thir-07", "thir-08", "thir-09", "thir-10", "thir-11", "thir-12",
    "thir-13", "twof-01", "twof-02", "twof-03", "twof-04", "twof-05", "twof-06", "twof-07",
    "twof-08", "forc-01", "forc-02", "forc-03", "forc-04", "forc-05", "forc-06", "forc-07",
];

#[test]
fn both_modes_still_solve_the_positions_they_solved() {
    let all = entries();
    let mut failures = Vec::new();
    for mode in [ShadowScore::Off, ShadowScore::On] {
        let mut engine = Engine::new(4).unwrap();
        engine.set_shadow_score(mode);
        for id in SOLVED_BY_BOTH {
            let e = all
                .iter()
                .find(|e| e.id == *id)
                .unwrap_or_else(|| panic!("{id} not in the suite"));
            let r = solve(&mut engine, e, NODES);
            if !e.solved_by(r.best) {
                failures.push(format!("{id} {mode:?}: {:?} {}", r.best, r.score));
            }
        }
    }
    assert!(SOLVED_BY_BOTH.len() >= 20, "{}", SOLVED_BY_BOTH.len());
    assert!(failures.is_empty(), "{failures:#?}");
}
