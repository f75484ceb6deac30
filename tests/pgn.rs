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
    assert_eq!(err.line, Some(12));
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

/// The PGN cases of issue 12, as files in tests/data/pgn. Valid files: every game's main
/// line, compared with python-chess's (the `.uci` files, one game per line, written by
/// python-chess 1.11.2). Invalid files: the line and the message of the one error.
#[test]
fn pgn_cases_read_as_python_chess_or_fail_on_their_line() {
    use std::io::BufReader;
    use threefold::rules::pgn::PgnReader;
    let dir = std::path::Path::new("tests/data/pgn");
    let read_all = |name: &str| -> Result<Vec<String>, threefold::rules::pgn::PgnError> {
        let f = std::fs::File::open(dir.join(name)).unwrap();
        let mut r = PgnReader::new(BufReader::new(f), name);
        let mut out = Vec::new();
        while let Some(rec) = r.next_record()? {
            out.push(to_game(&rec, name)?.uci_moves().join(" "));
        }
        Ok(out)
    };
    for name in ["styles.pgn", "long_tag.pgn"] {
        let want = std::fs::read_to_string(dir.join(name.replace(".pgn", ".uci"))).unwrap();
        let want: Vec<&str> = want.lines().collect();
        assert_eq!(read_all(name).unwrap(), want, "{name}");
    }
    for (name, line, message) in [
        (
            "malformed_tag.pgn",
            1,
            "malformed tag: expected ']' after the value of 'Event'",
        ),
        ("hello.pgn", 1, "cannot read 'hello' as a move"),
        ("random_bytes.pgn", 1, "unexpected byte 0xf2"),
        ("dropped_token.pgn", 1, "cannot read 'blah' as a move"),
        ("unterminated_comment.pgn", 4, "comment '{' is not closed"),
        ("after_result.pgn", 4, "after the result '1-0'"),
        (
            "open_variation.pgn",
            4,
            "the variation opened here is not closed before line 7",
        ),
        (
            "duplicate_tag.pgn",
            4,
            "tag 'Event' given twice (first on line 1)",
        ),
        ("null_move.pgn", 1, "'--' is a null move"),
        ("lines.pgn", 18, "illegal move 'Qxf8' (ply 7)"),
    ] {
        let e = read_all(name).expect_err(name);
        assert_eq!(e.line, Some(line), "{name}: {e}");
        assert!(e.message.contains(message), "{name}: {e}");
    }
    // Moves keep their lines through comments, variations and ';' comments.
    let text = std::fs::read_to_string(dir.join("lines.pgn")).unwrap();
    let recs = read_records(&text, "lines.pgn").unwrap();
    assert_eq!(recs[0].sans, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    assert_eq!(recs[0].lines, [4, 5, 5, 6, 7, 7]);
    assert_eq!(
        [recs[0].first_line, recs[1].first_line, recs[2].first_line],
        [1, 9, 14]
    );
    assert_eq!(recs[1].tag_line("Event"), Some(9));
}

#[test]
fn a_game_is_found_by_number_and_missing_games_are_named() {
    use threefold::rules::pgn::read_game_file;
    let p = std::path::Path::new("tests/data/pgn/lines.pgn");
    let (rec, game) = read_game_file(p, 2).unwrap();
    assert_eq!(rec.tag("Event"), Some("Two"));
    assert_eq!(game.len(), 6);
    let e = read_game_file(p, 4).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tests/data/pgn/lines.pgn: there is no game 4: the file holds 3 games"
    );
    let e = read_game_file(std::path::Path::new("tests/data/pgn/none.pgn"), 1).unwrap_err();
    assert_eq!(e.line, None);
    assert!(
        e.to_string()
            .starts_with("tests/data/pgn/none.pgn: cannot read file"),
        "{e}"
    );
    // Only what is needed is read: a game before an unreadable one is still found.
    let e = read_records("1. e4 *\n\nhello", "mem").unwrap_err();
    assert_eq!(e.line, Some(3));
}

#[test]
fn move_lists_take_zero_castling_numbers_and_comments() {
    use threefold::rules::pgn::move_list;
    let sans: Vec<String> = move_list("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 {castles} Nf6 *")
        .unwrap()
        .into_iter()
        .map(|m| m.san)
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6"]);
    assert_eq!(
        move_list("e4\n\ne5 blah"),
        Err((3, "cannot read 'blah' as a move".to_string()))
    );
    let mut g = Game::new();
    for m in ["d4", "d5", "Nc3", "Nc6", "Bf4", "Bf5", "Qd2", "Qd7"] {
        g.play_san(m).unwrap();
    }
    assert!(g.play_san("0-0-0").is_ok(), "typed castling with zeros");
    assert!(g.play_san("Q@e4").is_err());
}
