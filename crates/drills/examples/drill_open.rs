//! What the drill screen does before it shows, timed: the built-in puzzles, the puzzles from
//! your games read from PATH (as `from-your-games.toml` in the data directory), the session
//! (progress in memory) and the count of due puzzles per theme its list shows. The median of
//! ROUNDS (default 5) runs.
//!
//! `cargo run --release -p threefold-drills --example drill_open -- PATH [ROUNDS]`

use std::path::Path;
use std::time::Instant;

use threefold_drills::session::with_yours;
use threefold_drills::{Session, load_builtin};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: drill_open PATH [ROUNDS]");
    let rounds: usize = args.next().map_or(5, |r| r.parse().expect("ROUNDS"));
    let mut secs = Vec::new();
    let mut puzzles = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        let s = Session::with(with_yours(load_builtin(), Some(Path::new(&path))), None);
        let due: usize = s.collection.themes.iter().map(|th| s.due_in(&th.id)).sum();
        secs.push(t.elapsed().as_secs_f64());
        puzzles = s.collection.puzzles().count();
        std::hint::black_box(due);
    }
    secs.sort_by(f64::total_cmp);
    println!(
        "{puzzles} puzzles: the drill screen opens in {:.3} s (median of {rounds}; min {:.3}, max {:.3})",
        secs[rounds / 2],
        secs[0],
        secs[rounds - 1]
    );
}
