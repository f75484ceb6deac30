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
            assert_eq!(pos.perft(depth), expected, "{fen} depth {depth}");
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
            assert_eq!(pos.perft(depth), expected, "{fen} depth {depth}");
        }
    }
}
