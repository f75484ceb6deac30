use super::*;

/// The reason of the first error reading `text` as games, each replayed.
fn why(text: &str) -> (Option<usize>, PgnReason) {
    let mut reader = PgnReader::new(text.as_bytes(), "t.pgn");
    loop {
        match reader.next_game() {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("no error in {text:?}"),
            Err(e) => return (e.line, e.reason),
        }
    }
}

/// What a scan that skips bad games reads of `text`: for each game, its first move
/// ("" if none) or, for a bad one, "bad N from line L: error line".
fn scan(text: &str) -> Vec<String> {
    let mut reader = PgnReader::new(text.as_bytes(), "t.pgn");
    let mut out = Vec::new();
    loop {
        match reader.next_game() {
            Ok(Some((rec, _))) => {
                out.push(rec.sans.first().cloned().unwrap_or_default());
                assert_eq!(reader.games_read() + reader.games_skipped(), out.len());
            }
            Ok(None) => return out,
            Err(e) => {
                let bad = reader.skip_bad_game().unwrap().expect("a game to skip");
                assert_eq!(bad.game, out.len() + 1);
                out.push(format!(
                    "bad {} from line {}: {}",
                    bad.game,
                    bad.line,
                    e.line.unwrap()
                ));
            }
        }
    }
}

/// A scan goes on past a bad game, wherever its mistake is: the bad game is named with
/// its first line, and the next game is read from its start (its tags, or its moves
/// after a blank line in a file of games without tags). Without skipping, the error
/// still ends the reading.
#[test]
fn a_bad_game_is_skipped_to_the_start_of_the_next() {
    let good = "[White \"a\"]\n\n1. d4 *\n";
    // A move that is not one, an illegal move, in the movetext.
    for bad in ["1. e4 Zz9 2. Nf3 *", "1. e4 e5\n2. Ke3 Nc6\n3. Nf3 *"] {
        let text = format!("{good}\n[White \"b\"]\n[Black \"c\"]\n\n{bad}\n\n{good}");
        let got = scan(&text);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0], "d4");
        assert!(got[1].starts_with("bad 2 from line 5: "), "{got:?}");
        assert_eq!(got[2], "d4");
    }
    // A malformed tag: the rest of the tag section and the movetext are the bad game's.
    let text = format!("[White \"b\"\n[Black \"c\"]\n\n1. e4 e5 *\n\n{good}");
    assert_eq!(scan(&text), ["bad 1 from line 1: 1", "d4"]);
    // A comment over a blank line after the mistake is still the bad game's.
    let text = format!("1. e4 Zz9 {{a\n\n[b]}} 2. Nf3\n\n{good}");
    assert_eq!(scan(&text), ["bad 1 from line 1: 1", "d4"]);
    // Games without tags: the next one starts after the blank line.
    let text = "1. e4 *\n\n1. e4 e5 Ke3\n2. Nf3 *\n\n1. c4 *\n";
    assert_eq!(scan(text), ["e4", "bad 2 from line 3: 3", "c4"]);
    // A variation still open at the blank line: the token after it is the next game's.
    let text = "1. e4 (1. d4\n\n[White \"x\"]\n1. c4 *\n";
    assert_eq!(scan(text), ["bad 1 from line 1: 1", "c4"]);
    // A file cut off in the middle of a move or a comment: the last game is bad.
    let text = format!("{good}\n[White \"b\"]\n\n1. e4 e5 2. N");
    assert_eq!(scan(&text), ["d4", "bad 2 from line 5: 7"]);
    let text = format!("{good}\n1. e4 {{cut");
    assert_eq!(scan(&text), ["d4", "bad 2 from line 5: 5"]);
    // Without skipping, the error ends the reading, as before.
    let mut reader = PgnReader::new("1. Zz9 *\n\n1. e4 *\n".as_bytes(), "t.pgn");
    assert!(reader.next_game().is_err());
    assert!(reader.next_game().unwrap().is_none());
    // Nothing to skip without an error.
    let mut reader = PgnReader::new("1. e4 *\n".as_bytes(), "t.pgn");
    assert!(reader.skip_bad_game().unwrap().is_none());
}

/// Each mistake in PGN text is its own variant, with its facts; the message is built
/// from them.
#[test]
fn each_mistake_is_its_own_variant() {
    assert!(matches!(
        why("1. e4 {open\n"),
        (Some(1), PgnReason::UnclosedComment)
    ));
    assert!(matches!(
        why("1. e4 & *"),
        (_, PgnReason::UnexpectedByte { byte: b'&' })
    ));
    let (_, r) = why("[White\"x\"]\n*");
    assert!(
        matches!(&r, PgnReason::MalformedTag(TagProblem::NoSpace { name }) if name == "White"),
        "{r}"
    );
    assert_eq!(
        r.to_string(),
        "malformed tag: expected a space after the name 'White'"
    );
    assert!(matches!(why("1. e4 $x *"), (_, PgnReason::BadNag { .. })));
    assert!(matches!(why("1. e4 -- *"), (_, PgnReason::NullMove { .. })));
    assert!(matches!(
        why("[White \"a\"]\n[White \"b\"]\n*"),
        (Some(2), PgnReason::TagTwice { first: 1, .. })
    ));
    assert!(matches!(
        why("1. e4 ) *"),
        (_, PgnReason::UnopenedVariation)
    ));
    assert!(matches!(
        why("1. e4 (1. d4 1-0) *"),
        (_, PgnReason::ResultInVariation { result: "1-0" })
    ));
    assert!(matches!(
        why("1. e4 * e5"),
        (_, PgnReason::AfterResult { ref result, .. }) if result == "*"
    ));
    assert!(matches!(
        why("[Variant \"atomic\"]\n*"),
        (Some(1), PgnReason::Variant { .. })
    ));
    assert!(matches!(
        why("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n*"),
        (Some(1), PgnReason::Fen(_))
    ));
    let (line, r) = why("1. e4 e5\n2. Ke3 *");
    assert_eq!(line, Some(2));
    match &r {
        PgnReason::IllegalMove { text, ply: 3, fen } => {
            assert_eq!(text, "Ke3");
            assert_eq!(
                fen.to_string(),
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
            );
        }
        other => panic!("{other}"),
    }
    let (line, r) = move_list("e4\n(d4 (c4").unwrap_err();
    assert_eq!(line, 2);
    assert!(matches!(r, PgnReason::VariationOpen));
    assert!(matches!(
        move_list("[White \"x\"] e4").unwrap_err(),
        (1, PgnReason::TagInList)
    ));
}
