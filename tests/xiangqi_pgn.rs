//! Xiangqi PGN against pyffish (Fairy-Stockfish's rules as a library): games threefold
//! writes are replayed by pyffish move by move (each SAN must be pyffish's own for exactly one
//! legal move), and games pyffish writes are read by threefold; both must reach the same
//! positions. `tools/xq_pgn_pyffish.py` is pyffish's side. Without pyffish the test is
//! skipped, except in CI (`.ci/run` installs it and sets `THREEFOLD_REQUIRE_PYFFISH`).

use std::process::Command;

use threefold::xiangqi::Position;
use threefold::xiangqi::pgn::{self, Outcome, PgnGame};

fn pyffish() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import pyffish"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("THREEFOLD_REQUIRE_PYFFISH").is_none(),
            "pyffish is required here but `python3 -c 'import pyffish'` fails"
        );
        eprintln!("pyffish not installed: skipped (python3 -m pip install pyffish==0.0.90)");
    }
    ok
}

fn board_side(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// Random legal games (xorshift), captures and checks included, some from a FEN with Black
/// to move.
fn random_games() -> Vec<PgnGame> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let starts = [
        threefold::xiangqi::START_FEN,
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R b - - 0 1",
        "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
    ];
    (0..24)
        .map(|g| {
            let start = Position::from_fen(starts[g % starts.len()]).unwrap();
            let mut game = PgnGame::new(start.clone());
            let mut pos = start;
            for _ in 0..20 + rand(140) {
                let legal = pos.legal_moves();
                let moves = legal.as_slice();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rand(moves.len())];
                pos.make(m);
                game.moves.push(m);
            }
            game.tags
                .push(("Event".into(), format!("threefold random game {g}")));
            game.result = Outcome::Unknown;
            game
        })
        .collect()
}

#[test]
fn pyffish_replays_what_threefold_writes() {
    if !pyffish() {
        return;
    }
    let games = random_games();
    let text: String = games.iter().map(|g| g.write() + "\n").collect();
    let path = std::env::temp_dir().join(format!("threefold-xq-pgn-{}.pgn", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tools/xq_pgn_pyffish.py"
        ))
        .arg("read")
        .arg(&path)
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "pyffish could not replay a game: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let ours: Vec<String> = games
        .iter()
        .map(|g| {
            let mut p = g.start.clone();
            for &m in &g.moves {
                p.make(m);
            }
            board_side(&p.fen())
        })
        .collect();
    assert_eq!(theirs, ours);
}

#[test]
fn threefold_reads_what_pyffish_writes() {
    if !pyffish() {
        return;
    }
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tools/xq_pgn_pyffish.py"
        ))
        .args(["write", "24", "7"])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut n = 0;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let text = v["pgn"].as_str().unwrap();
        let game = pgn::read(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mut p = game.start.clone();
        for &m in &game.moves {
            p.make(m);
        }
        assert_eq!(board_side(&p.fen()), v["fen"].as_str().unwrap(), "{text}");
        // Written again by threefold, the game is the text pyffish wrote, move for move.
        let again = game.write();
        let movetext = |t: &str| -> String {
            t.lines()
                .filter(|l| !l.starts_with('['))
                .collect::<Vec<_>>()
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(movetext(&again), movetext(text));
        n += 1;
    }
    assert_eq!(n, 24);
}
