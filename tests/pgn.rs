//! PGN: reading the main line with line numbers, and writing a game back.

use threefold::rules::claim::{Claim, judge};
use threefold::rules::pgn::{read_records, to_game, write};
use threefold::rules::{EndingKind, Game};

const TWO_GAMES: &str = r#"[Event "One"]
[Result "*"]

1. e4 {a comment
over two lines with Nf3 in it} e5 2. Nf3 (2. f4 exf4) Nc6 ; rest of line Bb5
3. O-O 0-0 *

[Event "Two"]
[Result "*"]

1. d4 d5 2. c4 $1 e6
3. Qxh7 *
"#;

#[test]
fn reads_main_lines_and_locates_moves() {
    let recs = read_records(TWO_GAMES, "two.pgn").unwrap();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0].sans, ["e4", "e5", "Nf3", "Nc6", "O-O", "O-O"]);
    assert_eq!(recs[0].lines, [4, 5, 5, 5, 6, 6]);
    assert_eq!(recs[0].tag("Event"), Some("One"));
    assert_eq!(recs[1].first_line, 8);
    assert_eq!(recs[1].lines, [11, 11, 11, 11, 12]);
    let err = to_game(&recs[1], "two.pgn").unwrap_err();
    assert_eq!(err.line, 12);
    assert!(
        err.to_string()
            .starts_with("two.pgn:12: illegal move 'Qxh7' (ply 5)"),
        "{err}"
    );
}

#[test]
fn written_games_read_back_the_same() {
    let mut g = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
    for m in [
        "e1f1", "e8d8", "f1e1", "d8e8", "e1f1", "e8d8", "f1e1", "d8e8", "e1f1", "e8d8",
    ] {
        g.play_uci(m).unwrap();
    }
    let m = g.parse_uci("f1e1").unwrap();
    let v = judge(&mut g, Claim::WithMove(m)).unwrap();
    assert!(v.correct(), "{}", v.explanation);
    let text = write(
        &g,
        &[
            ("White", "Me"),
            ("Black", "You"),
            ("Annotator", "threefold"),
        ],
    );
    assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
    assert!(text.contains("[SetUp \"1\"]"));
    assert!(
        text.contains("[Termination \"threefold repetition claimed (FIDE 9.2)\"]"),
        "{text}"
    );
    assert!(text.contains("[Annotator \"threefold\"]"));
    let recs = read_records(&text, "mem").unwrap();
    let back = to_game(&recs[0], "mem").unwrap();
    assert_eq!(back.uci_moves(), g.uci_moves());
    assert_eq!(back.start_fen(), g.start_fen());
    assert_eq!(
        g.termination().unwrap().ending.kind,
        EndingKind::ThreefoldClaim
    );
}
