//! Agreement with python-chess 1.11 on every field of `analyze --json`, on
//! every ply of the generated reference games (`tools/gen_reference.py`
//! produced `tests/data/reference.jsonl`; no Python is needed here).

use serde_json::Value;
use threefold::rules::Game;
use threefold::rules::analysis::{JsonPly, report_current};

const FIELDS: [&str; 12] = [
    "ply",
    "move",
    "fen",
    "repetitions",
    "earlier",
    "claim_threefold",
    "claim_threefold_moves",
    "claim_fifty",
    "claim_fifty_moves",
    "fivefold",
    "seventy_five",
    "outcome",
];

#[test]
fn every_field_of_every_ply_agrees_with_python_chess() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/reference.jsonl"
    ))
    .expect("reference data is committed");
    let mut games = 0;
    let mut plies = 0;
    let mut fields = 0;
    let mut mismatches = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        let game_ref: Value = serde_json::from_str(line).expect("valid JSON line");
        let name = game_ref["name"].as_str().unwrap_or("?").to_string();
        let fen = game_ref["fen"].as_str().expect("fen");
        let moves: Vec<&str> = game_ref["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m.as_str().expect("uci"))
            .collect();
        let expected = game_ref["plies"].as_array().expect("plies");
        assert_eq!(
            expected.len(),
            moves.len() + 1,
            "{name}: one ply object per position"
        );
        let mut game = Game::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (ply, want) in expected.iter().enumerate() {
            if ply > 0 {
                game.play_uci(moves[ply - 1])
                    .unwrap_or_else(|e| panic!("line {}: {name}: ply {ply}: {e}", line_no + 1));
            }
            let got = serde_json::to_value(JsonPly::new(&game, &report_current(&game))).unwrap();
            for field in FIELDS {
                fields += 1;
                if got[field] != want[field] {
                    mismatches.push(format!(
                        "line {} {name} ply {ply} {field}: threefold {} python-chess {}",
                        line_no + 1,
                        got[field],
                        want[field]
                    ));
                }
            }
            plies += 1;
        }
        // A game stops at its first ending, as analyze refuses moves after
        // fivefold / seventy-five.
        let last = expected.last().unwrap();
        if !last["outcome"].is_null() {
            assert!(game.is_over(), "{name}: ended");
        }
        games += 1;
    }
    assert!(games >= 300, "at least 300 reference games, got {games}");
    assert!(
        mismatches.is_empty(),
        "{} of {fields} fields differ over {plies} plies of {games} games; first ones:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!("{games} games, {plies} plies, {fields} fields: all agree");
}
