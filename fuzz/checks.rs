//! What each fuzz target checks, in one place: the fuzz targets (`fuzz_targets/*.rs`) call
//! these functions, and `tests/fuzz_corpus.rs` replays the committed corpus
//! (`fuzz/corpus/<target>/`) and every crash found so far through them in `cargo test`.
//! Each function takes any bytes and panics only on a bug.

#![allow(dead_code)]

use threefold::drills;
use threefold::engine::uci::{Options, run_with};
use threefold::rules::Game;
use threefold::rules::pgn::{self, PgnReader, to_game};
use threefold::tui::config;

/// FEN text: the strict reader, and a game set up from it, never panic; a FEN it accepts
/// is written back as one it reads to the same position.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(game) = Game::from_fen(&text) {
        let again = Game::from_fen(&game.start_fen()).expect("a written FEN reads back");
        assert_eq!(again.start_fen(), game.start_fen());
        let _ = game.legal_moves().len();
    }
}

/// Xiangqi FEN text (`threefold xiangqi --fen`, and the xiangqi engine's `position fen`):
/// the reader never panics; a FEN it accepts is written back as one it reads to the same
/// position and key; every legal move made and unmade leaves the position as it was, its
/// key kept up to date incrementally.
pub fn xiangqi_fen(data: &[u8]) {
    use threefold::xiangqi::Position;
    let text = String::from_utf8_lossy(data);
    let Ok(mut pos) = Position::from_fen(&text) else {
        return;
    };
    let fen = pos.fen();
    let again = Position::from_fen(&fen).expect("a written xiangqi FEN reads back");
    assert_eq!(again.fen(), fen);
    assert_eq!(again.key(), pos.key());
    let _ = pos.in_check();
    let _ = pos.unreachable_warning();
    for &m in pos.legal_moves().as_slice() {
        let undo = pos.make(m);
        assert_eq!(pos.key(), pos.compute_key(), "key after {}", m.ucci());
        pos.unmake(m, undo);
        assert_eq!(pos.fen(), fen, "after {} made and unmade", m.ucci());
    }
    assert_eq!(pos.key(), pos.compute_key());
}

/// A saved xiangqi game (`xiangqi::pgn::read`): no panic; an error names a line of the
/// text; a game read is written back, and what is written reads back as the same game.
pub fn xiangqi_pgn(data: &[u8]) {
    use threefold::xiangqi::pgn;
    let text = String::from_utf8_lossy(data);
    match pgn::read(&text) {
        Err(e) => assert!(e.line >= 1 && e.line <= text.lines().count().max(1), "{e}"),
        Ok(game) => {
            let written = game.write();
            let again = pgn::read(&written).expect("a written xiangqi game reads back");
            assert_eq!(again.start.fen(), game.start.fen());
            assert_eq!(again.moves, game.moves);
            assert_eq!(again.result, game.result);
        }
    }
}

/// Move lists as typed: SAN movetext (`analyze --san`, puzzle files) and UCI / SAN tokens
/// one by one (`analyze --moves`, the trainer's input line), played into a game.
pub fn moves(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(moves) = pgn::move_list(&text) {
        let mut g = Game::new();
        for m in moves {
            assert!(m.line >= 1);
            if g.play_san(&m.san).is_err() {
                break;
            }
        }
    }
    let mut g = Game::new();
    for tok in text.split_whitespace() {
        let _ = g.parse_uci(tok);
        let _ = g.play_text(tok);
    }
    while g.undo().is_some() {}
}

/// PGN bytes: every game read and replayed; every error names a line inside the input.
pub fn pgn(data: &[u8]) {
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    let mut r = PgnReader::new(data, "fuzz.pgn");
    loop {
        match r.next_record() {
            Ok(Some(rec)) => {
                assert_eq!(rec.sans.len(), rec.lines.len());
                assert!(rec.lines.iter().all(|&l| l >= 1 && l <= lines));
                if let Err(e) = to_game(&rec, "fuzz.pgn") {
                    assert!(e.line.is_some_and(|l| l >= 1 && l <= lines), "{e}");
                }
            }
            Ok(None) => break,
            Err(e) => {
                assert!(e.line.is_some_and(|l| l >= 1 && l <= lines), "{e}");
                break;
            }
        }
    }
}

/// UCI command streams through the real loop, in-process, with every search capped at 500
/// nodes and Hash at 64 MB: no panic, no hang; the loop always ends.
pub fn uci(data: &[u8]) {
    let options = Options {
        max_nodes: Some(500),
        max_hash_mb: 64,
        hash_mb: 1,
    };
    run_with(data, std::io::sink(), &options).expect("the loop ends cleanly");
}

/// UCI command streams in xiangqi mode: the loop of [`uci`] (searches capped at 500 nodes,
/// Hash at 64 MB) told `setoption name UCI_Variant value xiangqi` first, then fed the input's
/// lines, so xiangqi FENs, UCCI moves and the WXF judge in the search get the fuzzer's
/// attention (in chess mode they are one unlikely line away). No panic, no hang; the loop
/// always ends.
pub fn uci_xiangqi(data: &[u8]) {
    let mut input = b"setoption name UCI_Variant value xiangqi\n".to_vec();
    input.extend_from_slice(data);
    uci(&input);
}

/// Puzzle files (crates/drills/src/load.rs, and crates/drills/src/xiangqi/load.rs for
/// `game = "xiangqi"`): any text loads into puzzles and problems, and every loaded puzzle can
/// be checked and solved.
pub fn puzzle_toml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (theme, problems) = drills::load_str(std::path::Path::new("fuzz.toml"), text);
    for p in &problems {
        let _ = p.to_string();
    }
    if let Some(theme) = theme {
        for p in &theme.puzzles {
            let _ = drills::check(p);
            let _ = drills::solve(p);
        }
    }
    // The same text as a xiangqi puzzle file (`game = "xiangqi"`): loaded, every answer
    // computed by the WXF judge and checked, every prompt and answer written.
    let (theme, problems) = drills::xiangqi::load_str(std::path::Path::new("fuzz.toml"), text);
    for p in &problems {
        let _ = p.to_string();
    }
    if let Some(theme) = theme {
        for p in &theme.puzzles {
            let _ = p.prompt();
            let _ = drills::xiangqi::check(p);
            if let Ok(sol) = drills::xiangqi::solve(p) {
                let _ = drills::xiangqi::parse_answer(p, &sol.answer.code());
            }
        }
    }
}

/// The trainer's config.toml (`tui::config::parse`): any text gives settings and at most a
/// message, never a panic.
pub fn config_toml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (_config, _message) = config::parse(text, "config.toml");
}

/// The database scan's cutting and quick reading (`threefold_review::scan`) against the strict
/// reader: the pieces put together are the input, each starting on the line it says; a game
/// the quick reading reads is the one game the strict reader reads in its piece, with the same
/// length, tags and result and no finding; and an input the strict reader reads whole without
/// an error is read piece by piece into the same games.
pub fn review_scan(data: &[u8]) {
    use threefold::review::scan::quick::{self, Quick};
    use threefold::review::scan::split::Splitter;
    use threefold::rules::review::{GameRecord, recorded_result, review_claims};

    let mut splitter = Splitter::new(data, 64);
    let mut pieces: Vec<(Vec<u8>, usize)> = Vec::new();
    while let Some(b) = splitter.next_batch().expect("reading a slice") {
        for s in &b.spans {
            assert!(!s.too_long);
            pieces.push((b.bytes[s.range.clone()].to_vec(), s.line));
        }
    }
    let joined: Vec<u8> = pieces.iter().flat_map(|(p, _)| p.iter().copied()).collect();
    assert_eq!(joined, data, "the pieces are the input");
    let mut line = 1;
    let mut by_pieces: Vec<(Vec<String>, Option<String>)> = Vec::new();
    let mut piece_error = false;
    for (piece, at) in &pieces {
        assert_eq!(*at, line, "a piece starts on its line");
        line += piece.iter().filter(|&&b| b == b'\n').count();
        let mut r = PgnReader::starting_at_line(&piece[..], "fuzz.pgn", *at);
        let mut read = Vec::new();
        loop {
            match r.next_game() {
                Ok(Some((rec, game))) => read.push((rec, game)),
                Ok(None) => break,
                Err(_) => {
                    piece_error = true;
                    if r.skip_bad_game().ok().flatten().is_none() {
                        break;
                    }
                }
            }
        }
        if let Quick::Plain(g) = quick::read(piece) {
            assert_eq!(read.len(), 1, "a plain piece is one game");
            let (rec, game) = &read[0];
            assert_eq!(game.len(), g.plies);
            assert_eq!(rec.tag("White"), g.tags.white.as_deref());
            assert_eq!(rec.tag("Black"), g.tags.black.as_deref());
            let record = GameRecord::from_pgn(rec);
            assert_eq!(
                record.result,
                recorded_result(g.result, g.tags.result.as_deref())
            );
            assert!(
                review_claims(game, &record).findings.is_empty(),
                "a plain game has no finding"
            );
        }
        by_pieces.extend(read.into_iter().map(|(rec, _)| (rec.sans, rec.result)));
    }
    let mut whole = PgnReader::new(data, "fuzz.pgn");
    let mut games = Vec::new();
    loop {
        match whole.next_game() {
            Ok(Some((rec, _))) => games.push((rec.sans, rec.result)),
            Ok(None) => break,
            Err(_) => return,
        }
    }
    assert!(!piece_error, "a piece fails where the whole input reads");
    assert_eq!(by_pieces, games, "the same games, piece by piece");
}
