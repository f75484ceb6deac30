//! The fuzz targets' checks (fuzz/checks.rs) over the committed seed corpus
//! (`fuzz/corpus/<target>/`) and every input a fuzz run found to crash or hang
//! (`fuzz/regressions/<target>/`): what the fuzzers found stays fixed without nightly
//! tools. `cargo fuzz` itself runs them for longer (see fuzz/README.md).

#[path = "../fuzz/checks.rs"]
mod checks;

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let mut n = 0;
    for dir in ["fuzz/corpus", "fuzz/regressions"] {
        let Ok(entries) = std::fs::read_dir(Path::new(dir).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            let data = std::fs::read(&p).unwrap();
            if std::panic::catch_unwind(|| check(&data)).is_err() {
                panic!("{target}: {} fails its check", p.display());
            }
            n += 1;
        }
    }
    assert!(n > 0, "no corpus for {target}");
}

#[test]
fn fen() {
    replay("fen", checks::fen);
}

#[test]
fn xiangqi_fen() {
    replay("xiangqi_fen", checks::xiangqi_fen);
}

#[test]
fn xiangqi_pgn() {
    replay("xiangqi_pgn", checks::xiangqi_pgn);
}

#[test]
fn moves() {
    replay("moves", checks::moves);
}

#[test]
fn pgn() {
    replay("pgn", checks::pgn);
}

#[test]
fn uci() {
    replay("uci", checks::uci);
}

#[test]
fn uci_xiangqi() {
    replay("uci_xiangqi", checks::uci_xiangqi);
}

#[test]
fn puzzle_toml() {
    replay("puzzle_toml", checks::puzzle_toml);
}

#[test]
fn config_toml() {
    replay("config_toml", checks::config_toml);
}

#[test]
fn review_scan() {
    replay("review_scan", checks::review_scan);
}
