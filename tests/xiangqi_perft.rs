//! Move generation against Fairy-Stockfish's perft counts
//! (`tests/data/xiangqi/perft.jsonl`, see its README).

use threefold::xiangqi::Position;

fn cases() -> Vec<(String, Vec<(u32, u64)>)> {
    let text = include_str!("data/xiangqi/perft.jsonl");
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let fen = v["fen"].as_str().unwrap().to_string();
            let mut counts: Vec<(u32, u64)> = v["perft"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(d, n)| (d.parse().unwrap(), n.as_u64().unwrap()))
                .collect();
            counts.sort();
            (fen, counts)
        })
        .collect()
}

/// Every position, every depth up to 3 (a few seconds in the dev profile).
#[test]
fn perft_matches_fairy_stockfish_to_depth_3() {
    for (fen, counts) in cases() {
        let mut pos = Position::from_fen(&fen).unwrap();
        for &(depth, expected) in counts.iter().filter(|(d, _)| *d <= 3) {
            assert_eq!(pos.perft(depth).unwrap(), expected, "{fen} depth {depth}");
        }
        assert_eq!(
            pos.fen(),
            Position::from_fen(&fen).unwrap().fen(),
            "perft restores the position"
        );
    }
}

/// The depths above 3 (the start position at depth 4: 3,290,240 paths).
/// Slow in the dev profile; `cargo test --release -- --ignored` runs it.
#[test]
#[ignore]
fn perft_matches_fairy_stockfish_deep() {
    for (fen, counts) in cases() {
        let mut pos = Position::from_fen(&fen).unwrap();
        for &(depth, expected) in counts.iter().filter(|(d, _)| *d > 3) {
            assert_eq!(pos.perft(depth).unwrap(), expected, "{fen} depth {depth}");
        }
    }
}

fn random_cases() -> Vec<(String, u32, u64)> {
    include_str!("data/xiangqi/perft_random.jsonl")
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["fen"].as_str().unwrap().to_string(),
                v["depth"].as_u64().unwrap() as u32,
                v["nodes"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Positions from random playouts, counted by Fairy-Stockfish (depth 3).
#[test]
fn perft_matches_fairy_stockfish_on_random_positions() {
    for (fen, depth, nodes) in random_cases().into_iter().filter(|c| c.1 <= 3) {
        let mut pos = Position::from_fen(&fen).unwrap();
        assert_eq!(pos.perft(depth).unwrap(), nodes, "{fen} depth {depth}");
    }
}

/// The random positions counted at depth 4 (`cargo test --release -- --ignored`).
#[test]
#[ignore]
fn perft_matches_fairy_stockfish_on_random_positions_deep() {
    for (fen, depth, nodes) in random_cases().into_iter().filter(|c| c.1 > 3) {
        let mut pos = Position::from_fen(&fen).unwrap();
        assert_eq!(pos.perft(depth).unwrap(), nodes, "{fen} depth {depth}");
    }
}

/// The incremental key equals the key computed from scratch, and FEN
/// round-trips, along random playouts.
#[test]
fn incremental_key_and_fen_round_trip() {
    let mut seed = 0x1234_5678_9abc_def1u64;
    for (fen, _, _) in random_cases().into_iter().take(40) {
        let mut pos = Position::from_fen(&fen).unwrap();
        for _ in 0..80 {
            assert_eq!(pos.key(), pos.compute_key(), "{}", pos.fen());
            assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = legal.as_slice()[(seed % legal.len() as u64) as usize];
            let before = pos.clone();
            let u = pos.make(m);
            let mut back = pos.clone();
            back.unmake(m, u);
            assert_eq!(back, before);
        }
    }
}

/// The FEN reader takes the UCCI form with or without its four trailing fields, and
/// names a seventh field as an error (it was ignored).
#[test]
fn a_fen_with_a_field_too_many_is_refused() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    assert!(Position::from_fen(start).is_ok());
    assert!(Position::from_fen(&format!("{start} - - 0 1")).is_ok());
    let e = Position::from_fen(&format!("{start} - - 0 1 extra")).unwrap_err();
    assert!(
        e.to_string().contains("'extra' is one field too many"),
        "{e}"
    );
}
