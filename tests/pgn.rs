//! PGN: reading the main line with line numbers, and writing a game back.

use threefold::rules::claim::{Claim, Clocks, judge};
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
    let v = judge(&mut g, Claim::WithMove(m), Clocks::On).unwrap();
    assert!(v.correct(), "{}", v.explanation());
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
    // The standard's value in the tag; the ruling in words in the comment before the result.
    assert!(text.contains("[Termination \"normal\"]"), "{text}");
    assert!(text.trim_end().ends_with("} 1/2-1/2"), "{text}");
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
        assert!(e.reason.to_string().contains(message), "{name}: {e}");
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
        move_list("e4\n\ne5 blah").map_err(|(line, reason)| (line, reason.to_string())),
        Err((3, "cannot read 'blah' as a move".to_string()))
    );
    let mut g = Game::new();
    for m in ["d4", "d5", "Nc3", "Nc6", "Bf4", "Bf5", "Qd2", "Qd7"] {
        g.play_san(m).unwrap();
    }
    assert!(g.play_san("0-0-0").is_ok(), "typed castling with zeros");
    assert!(g.play_san("Q@e4").is_err());
}

/// The `Termination` tag takes the PGN standard's values (Edwards 1994, 9.8.1) only.
#[test]
fn termination_tags_are_the_standards_values() {
    use threefold::rules::ending::flag_fall;
    use threefold::rules::pgn::termination_tag;
    let standard = [
        "abandoned",
        "adjudication",
        "death",
        "emergency",
        "normal",
        "rules infraction",
        "time forfeit",
        "unterminated",
    ];
    let termination = |text: &str| {
        let recs = read_records(text, "mem").unwrap();
        recs[0].tag("Termination").map(str::to_string)
    };
    // A game in progress.
    let mut g = Game::new();
    g.play_san("e4").unwrap();
    let text = write(&g, &[]);
    assert_eq!(
        termination(&text).as_deref(),
        Some("unterminated"),
        "{text}"
    );
    assert!(text.contains("[Result \"*\"]"));
    // Ended by the rules (fool's mate) and on time.
    for m in ["f5", "Nc3", "g5", "Qh5#"] {
        g.play_san(m).unwrap();
    }
    assert_eq!(termination(&write(&g, &[])).as_deref(), Some("normal"));
    let mut g = Game::new();
    g.play_san("e4").unwrap();
    let ending = flag_fall(&g, shakmaty::Color::Black);
    g.end_externally(ending);
    let text = write(&g, &[]);
    assert_eq!(
        termination(&text).as_deref(),
        Some("time forfeit"),
        "{text}"
    );
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    // A game read with its result (a resignation) keeps its own tag.
    let text = write(
        &Game::new(),
        &[("Result", "0-1"), ("Termination", "normal")],
    );
    assert_eq!(termination(&text).as_deref(), Some("normal"), "{text}");
    for kind in [
        EndingKind::Checkmate {
            winner: shakmaty::Color::White,
        },
        EndingKind::Stalemate,
        EndingKind::InsufficientMaterial,
        EndingKind::FivefoldRepetition,
        EndingKind::SeventyFiveMoves,
        EndingKind::ThreefoldClaim,
        EndingKind::FiftyMoveClaim,
        EndingKind::LostOnTime {
            flagged: shakmaty::Color::White,
        },
        EndingKind::FlagFallDraw {
            flagged: shakmaty::Color::Black,
        },
    ] {
        assert!(standard.contains(&termination_tag(kind)), "{kind:?}");
    }
}

#[test]
fn dates_are_the_calendars() {
    use threefold::rules::pgn::UtcMinute;
    let at = |secs: u64| {
        let t = UtcMinute::from_unix(secs);
        (t.pgn_date(), t.hour, t.minute)
    };
    assert_eq!(at(0), ("1970.01.01".to_string(), 0, 0));
    // 2000 is a leap year (divisible by 400), 2100 is not.
    assert_eq!(at(951_782_400), ("2000.02.29".to_string(), 0, 0));
    assert_eq!(at(951_868_799), ("2000.02.29".to_string(), 23, 59));
    assert_eq!(at(4_107_542_400), ("2100.03.01".to_string(), 0, 0));
    assert_eq!(at(1_000_000_000), ("2001.09.09".to_string(), 1, 46));
    assert_eq!(at(1_767_225_599), ("2025.12.31".to_string(), 23, 59));
}

#[test]
fn a_files_games_are_listed_with_players_and_results() {
    use threefold::rules::pgn::list_games;
    let (games, problem) = list_games(std::path::Path::new("tests/data/pgn/lines.pgn"), 100);
    assert!(problem.is_none(), "{problem:?}");
    assert_eq!(games.len(), 3);
    assert_eq!(games[1].index, 2);
    assert_eq!(games[1].event, "Two");
    assert_eq!(games[1].white, "?");
    assert_eq!(games[1].plies, 6);
    // The result token of the movetext counts (the third game's tag says "*").
    assert_eq!(games[2].result, "1-0");
    let (games, _) = list_games(std::path::Path::new("tests/data/pgn/lines.pgn"), 2);
    assert_eq!(games.len(), 2, "at most max games");
    // A game that cannot be read ends the list, with the games before it.
    let path = std::env::temp_dir().join(format!("threefold-list-{}.pgn", std::process::id()));
    std::fs::write(&path, "[White \"A\"]\n\n1. e4 *\n\n1. d4 hello *\n").unwrap();
    let (games, problem) = list_games(&path, 9);
    let _ = std::fs::remove_file(&path);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].white, "A");
    let problem = problem.unwrap();
    assert_eq!(problem.line, Some(5), "{problem}");
    let (games, problem) = list_games(std::path::Path::new("tests/data/pgn/none.pgn"), 9);
    assert!(games.is_empty());
    assert!(problem.unwrap().to_string().contains("cannot read file"));
}

/// A reader that gives `text`, then fails: reading past `text` is an error.
struct Poisoned {
    text: std::io::Cursor<Vec<u8>>,
}

impl std::io::Read for Poisoned {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match std::io::Read::read(&mut self.text, buf)? {
            0 => Err(std::io::Error::other("read past the point the test allows")),
            n => Ok(n),
        }
    }
}

/// `next_game` streams: a game is read, played and returned before anything after it (but
/// the first token of the next game) is read, so `review --all` holds one game at a time.
#[test]
fn games_are_read_and_played_one_at_a_time() {
    use std::io::BufReader;
    use threefold::rules::pgn::PgnReader;
    let text = "[Event \"1\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"2\"]\n\n1. d4";
    let poisoned = Poisoned {
        text: std::io::Cursor::new(text.as_bytes().to_vec()),
    };
    let mut reader = PgnReader::new(BufReader::with_capacity(16, poisoned), "mem");
    let (rec, game) = reader.next_game().unwrap().expect("game 1");
    assert_eq!(rec.tag("Event"), Some("1"));
    assert_eq!(game.uci_moves(), ["e2e4", "e7e5", "g1f3"]);
    let e = reader.next_game().unwrap_err();
    assert!(e.reason.to_string().contains("read past the point"), "{e}");
}

/// A game's first error is the one reported: an illegal move before the move limit is the
/// illegal move, not "more than 100000 moves" (the file reader used to count the moves
/// before it played any).
#[test]
fn the_first_error_of_a_game_is_the_one_reported() {
    use threefold::rules::pgn::{MAX_PLIES, PgnReader};
    let mut text = String::from("1. e4 e5 2. Ke3\n");
    for _ in 0..=MAX_PLIES / 4 {
        text.push_str("Nf3 Nf6 Ng1 Ng8\n");
    }
    let mut reader = PgnReader::new(text.as_bytes(), "long.pgn");
    let e = reader.next_game().unwrap_err();
    assert_eq!(e.line, Some(1), "{e}");
    assert!(
        e.reason
            .to_string()
            .starts_with("illegal move 'Ke3' (ply 3)"),
        "{e}"
    );
    // The limit itself is still an error, on the line of the move past it.
    let mut text = String::new();
    for _ in 0..=MAX_PLIES / 4 {
        text.push_str("Nf3 Nf6 Ng1 Ng8\n");
    }
    let e = read_records(&text, "long.pgn").unwrap_err();
    assert_eq!(e.line, Some(MAX_PLIES / 4 + 1), "{e}");
    assert!(
        e.reason.to_string().contains("more than 100000 moves"),
        "{e}"
    );
}

/// Variations nest at most MAX_VARIATION_DEPTH deep: a file of unclosed '(' is refused at
/// the first one too deep, with its line, in a game and in a move list alike.
#[test]
fn variation_nesting_is_bounded_with_the_line_of_the_deepest() {
    use threefold::rules::pgn::{MAX_VARIATION_DEPTH, move_list};
    let deep = |n: usize| {
        let mut t = String::from("1. e4 e5\n");
        for _ in 0..n {
            t.push_str("( 1... c5\n");
        }
        for _ in 0..n {
            t.push(')');
        }
        t.push_str(" *\n");
        t
    };
    let recs = read_records(&deep(MAX_VARIATION_DEPTH), "deep.pgn").unwrap();
    assert_eq!(recs[0].sans, ["e4", "e5"]);
    let e = read_records(&deep(MAX_VARIATION_DEPTH + 1), "deep.pgn").unwrap_err();
    assert_eq!(e.line, Some(MAX_VARIATION_DEPTH + 2), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "deep.pgn:{}: this '(' opens a variation more than {MAX_VARIATION_DEPTH} deep \
             (the outermost one still open is on line 2)",
            MAX_VARIATION_DEPTH + 2
        )
    );
    // Unclosed, as the hostile file had them: the same error, not a growing stack.
    let unclosed = "1. e4 ".to_string() + &"(".repeat(100_000);
    let e = read_records(&unclosed, "open.pgn").unwrap_err();
    assert!(e.reason.to_string().contains("more than 100 deep"), "{e}");
    let (line, msg) = move_list(&deep(MAX_VARIATION_DEPTH + 1)).unwrap_err();
    assert_eq!(line, MAX_VARIATION_DEPTH + 2);
    assert!(msg.to_string().contains("more than 100 deep"), "{msg}");
}

/// A move list read as written keeps each move as the user typed it (for the lenient
/// reader to read and to name), skipping numbers, comments, variations and the result.
#[test]
fn move_lists_as_written_keep_the_moves_as_typed() {
    use threefold::rules::pgn::move_list_as_written;
    let moves: Vec<String> = move_list_as_written("1. e4 e5 2. nf3 {c} (2. f4) Ng8-f6!? 3. g1h3 *")
        .unwrap()
        .into_iter()
        .map(|m| m.san)
        .collect();
    assert_eq!(moves, ["e4", "e5", "nf3", "Ng8-f6", "g1h3"]);
}

/// A game with `[Variant "xiangqi"]` read as chess is refused as a xiangqi game, naming the
/// game, the tag's line and where it is read, whatever its moves (its first move was the
/// error: "cannot read 'C2.' as a move"); both readers (records and replayed games) say it.
#[test]
fn a_xiangqi_game_read_as_chess_is_named_as_such() {
    use threefold::rules::pgn::{PgnReader, PgnReason};
    let text = "[Event \"chess\"]\n\n1. e4 e5 *\n\n[Event \"x\"]\n[Variant \"xiangqi\"]\n\n\
                1. C2.5 C8.5 2. Cbe3 *\n";
    let e = read_records(text, "xq.pgn").unwrap_err();
    assert!(
        matches!(e.reason, PgnReason::Xiangqi { game: 2, .. }),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "xq.pgn:6: game 2 is a xiangqi game ([Variant \"xiangqi\"]), not chess: open it on \
         the trainer's xiangqi screen (threefold xiangqi, then o)"
    );
    let mut r = PgnReader::new(text.as_bytes(), "xq.pgn");
    assert!(r.next_game().unwrap().is_some());
    assert_eq!(r.next_game().unwrap_err().to_string(), e.to_string());
    // Moves a chess reader reads (UCCI coordinates) and a FEN tag: the same, from the
    // reader the commands and the trainer use.
    let text = "[Variant \"Xiangqi\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/\
                RNBAKABNR w - - 0 1\"]\n\n1. h2e2 h7e7 *\n";
    let e = PgnReader::new(text.as_bytes(), "xq2.pgn")
        .next_game()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "xq2.pgn:1: game 1 is a xiangqi game ([Variant \"Xiangqi\"]), not chess: open it on \
         the trainer's xiangqi screen (threefold xiangqi, then o)"
    );
}
