//! The xiangqi review (`threefold_review::xiangqi`): games of the judge's reference cases
//! (tests/data/xiangqi) written as PGN with a Variant tag and in UCCI coordinates without
//! it, their repetitions and rulings, errors that name the file's line, and totals that
//! merge exactly.

mod xq_split;

use threefold_review::xiangqi::{XiangqiTotals, XqOptions, XqReview, XqReviewError, review_game};
use threefold_xiangqi::judge::{Ending, JudgedGame, Record, RulingKind};
use threefold_xiangqi::notation::{chinese, parse_move};
use threefold_xiangqi::pgn::{Outcome, PgnGame, PgnReason};
use threefold_xiangqi::{Color, Position, RuleAt};

const OWN_CASES: &str = include_str!("../../../tests/data/xiangqi/own_cases.toml");
const FSF_CASES: &str = include_str!("../../../tests/data/xiangqi/fsf_chase_cases.jsonl");

/// (name, fen, moves in UCCI, ntimes) of every case of the judge's references.
fn cases() -> Vec<(String, String, String, usize)> {
    let doc: toml::Table = toml::from_str(OWN_CASES).expect("own_cases.toml");
    let mut out: Vec<(String, String, String, usize)> = doc["case"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["fen"].as_str().unwrap().to_string(),
                c["moves"].as_str().unwrap().to_string(),
                c.get("ntimes").and_then(|n| n.as_integer()).unwrap_or(2) as usize,
            )
        })
        .collect();
    for l in FSF_CASES.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let moves: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        out.push((
            v["id"].as_str().unwrap().to_string(),
            v["fen"].as_str().unwrap().to_string(),
            moves.join(" "),
            2,
        ));
    }
    out
}

fn case(name: &str) -> (String, String, usize) {
    let (_, fen, moves, n) = cases()
        .into_iter()
        .find(|c| c.0 == name)
        .unwrap_or_else(|| panic!("no case {name}"));
    (fen, moves, n)
}

/// The game from `fen` with `moves` (UCCI), as the xiangqi PGN writer writes it: tags, the
/// Variant tag, SAN moves.
fn pgn_with_variant(fen: &str, moves: &str, result: Outcome) -> String {
    let start = Position::from_fen(fen).unwrap();
    let mut g = PgnGame::new(start.clone());
    let mut pos = start;
    for t in moves.split_whitespace() {
        let m = parse_move(&pos, t).unwrap();
        pos.make(m);
        g.moves.push(m);
    }
    g.result = result;
    g.tags.push(("White".into(), "Red player".into()));
    g.tags.push(("Black".into(), "Black player".into()));
    let text = g.write();
    assert!(text.contains("[Variant \"xiangqi\"]"), "{text}");
    text
}

/// The same game as the public master collections write them: no Variant tag, the moves in
/// UCCI coordinates with move numbers.
fn pgn_ucci(fen: &str, moves: &str, result: &str) -> String {
    pgn_written(fen, moves, result, |_, m| m.ucci())
}

/// The same game without a Variant tag, each move written by `write` from its position.
fn pgn_written(
    fen: &str,
    moves: &str,
    result: &str,
    write: impl Fn(&Position, threefold_xiangqi::Move) -> String,
) -> String {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut text = format!(
        "[Event \"test\"]\n[White \"Red player\"]\n[Black \"Black player\"]\n[Result \"{result}\"]\n"
    );
    if fen != threefold_xiangqi::START_FEN {
        text += &format!("[FEN \"{fen}\"]\n");
    }
    text.push('\n');
    let black_first = fen.split_whitespace().nth(1) == Some("b");
    for (i, m) in moves.split_whitespace().enumerate() {
        let p = i + usize::from(black_first);
        if p % 2 == 0 {
            text += &format!("{}. ", p / 2 + 1);
        } else if i == 0 {
            text += &format!("{}... ", p / 2 + 1);
        }
        let m = parse_move(&pos, m).unwrap();
        text += &write(&pos, m);
        pos.make(m);
        text.push(if i % 8 == 7 { '\n' } else { ' ' });
    }
    text + result + "\n"
}

fn review(text: &str, ntimes: usize) -> XqReview {
    let rule_at = RuleAt::from_ntimes(ntimes).expect("ntimes 1 or 2");
    review_game(text, "mem.pgn", 1, 1, &XqOptions { rule_at })
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Every way of writing a game gives the same review: SAN with the Variant tag, and without
/// it UCCI (`h2e2`), ICCS (`H2-E2`) and Chinese (`炮二平五`) as collections write them.
fn both(name: &str, result: Outcome) -> XqReview {
    let (fen, moves, n) = case(name);
    let a = review(&pgn_with_variant(&fen, &moves, result), n);
    let iccs = |_: &Position, m: threefold_xiangqi::Move| {
        let u = m.ucci().to_uppercase();
        format!("{}-{}", &u[..2], &u[2..])
    };
    for text in [
        pgn_ucci(&fen, &moves, result.pgn()),
        pgn_written(&fen, &moves, result.pgn(), iccs),
        pgn_written(&fen, &moves, result.pgn(), chinese),
    ] {
        let b = review(&text, n);
        assert_eq!(
            (&a.moves, &a.repetitions, &a.rulings, a.result),
            (&b.moves, &b.repetitions, &b.rulings, b.result),
            "{name}\n{text}"
        );
    }
    a
}

/// Broken to see it fail: `RulingKind::PerpetualCheck` mapped to `PerpetualChase` in
/// `Ruling::kind` (crates/xiangqi/src/judge/ruling.rs).
#[test]
fn a_perpetual_check_is_ruled_against_the_checker_and_ends_the_game() {
    // Figure 1's cycle twice: Red's rook checks on every move, judged at the third
    // occurrence; Red loses, and the game was scored so.
    let r = both("fig1 perpetual check, n=2", Outcome::BlackWins);
    assert_eq!(r.plies(), 8);
    assert_eq!(r.repetitions.len(), 1);
    assert_eq!(
        (r.repetitions[0].first_ply, r.repetitions[0].last_ply),
        (4, 8)
    );
    assert_eq!(r.repetitions[0].first_seen, 0);
    assert_eq!(r.repetitions[0].most, 3);
    assert_eq!(r.rulings.len(), 1);
    let ruling = &r.rulings[0];
    assert_eq!(ruling.kind, RulingKind::PerpetualCheck);
    assert_eq!(ruling.ruling.ply, 8);
    assert_eq!(ruling.against(), Some(Color::Red));
    assert!(ruling.ended_game);
    let mut out = Vec::new();
    r.write_report(&mut out, 7).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.starts_with("Game 7: Red player - Black player, 0-1 (8 plies, xiangqi)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "perpetual-check        Black wins, Red loses (perpetual check): Perpetual check \
             outranks idle moves: Black wins, Red loses; the game ended so (0-1)"
        ),
        "{text}"
    );
    assert!(text.contains("Red checks on every move"), "{text}");
}

/// Broken to see it fail: `ended_game` set when the result is a draw for a loss
/// (`PgnOutcome::Draw` in the `Some(Color::Red)` arm); then without `&& rep.last_ply == plies`
/// (the game going on after the repetition).
#[test]
fn a_perpetual_chase_is_ruled_and_a_result_that_disagrees_did_not_end_the_game() {
    let r = both("fig2 perpetual chase, n=2", Outcome::BlackWins);
    assert_eq!(r.rulings.len(), 1);
    assert_eq!(r.rulings[0].kind, RulingKind::PerpetualChase);
    assert_eq!(r.rulings[0].against(), Some(Color::Red));
    assert!(r.rulings[0].ended_game);
    // Scored a draw, or not scored: the ruling did not end the game.
    for result in [Outcome::Draw, Outcome::Unknown, Outcome::RedWins] {
        let r = both("fig2 perpetual chase, n=2", result);
        assert_eq!(r.rulings[0].kind, RulingKind::PerpetualChase);
        assert!(!r.rulings[0].ended_game, "{result:?}");
    }
    // Play that goes on after the repetition (the red king steps up to a new position):
    // the game did not end in it.
    let (fen, moves, n) = case("fig2 perpetual chase, n=2");
    let longer = format!("{moves} d0d1");
    let r = review(&pgn_ucci(&fen, &longer, "0-1"), n);
    assert_eq!(r.rulings.len(), 1);
    assert!(!r.rulings[0].ended_game);
}

/// Broken to see it fail: `Ruling::kind`'s mutual arms swapped with `Idle`
/// (`(Level::Check, true) => RulingKind::Idle`).
#[test]
fn mutual_and_idle_repetitions_are_draws_of_their_kind() {
    let r = both("mutual perpetual check", Outcome::Draw);
    assert_eq!(r.rulings.len(), 1);
    assert_eq!(r.rulings[0].kind, RulingKind::MutualCheck);
    assert_eq!(r.rulings[0].against(), None);
    assert!(r.rulings[0].ended_game);
    let r = both("mutual perpetual chase", Outcome::Draw);
    assert_eq!(r.rulings[0].kind, RulingKind::MutualChase);
    let r = both("fig2 protected victim: draw", Outcome::Draw);
    assert_eq!(r.rulings[0].kind, RulingKind::Idle);
    assert!(r.rulings[0].ended_game);
}

/// Broken to see it fail: `if count == 0` made `if count <= 1` in `review_pgn_game`.
#[test]
fn a_game_without_repetition_has_no_findings() {
    let moves = "h2e2 h9g7 h0g2 i9h9 i0h0 b7b3 c3c4 h7h3 b0c2 c6c5 e2e6 g6g5";
    let r = review(&pgn_ucci(threefold_xiangqi::START_FEN, moves, "*"), 2);
    assert_eq!(r.plies(), 12);
    assert!(r.repetitions.is_empty() && r.rulings.is_empty());
    assert_eq!(r.ending, None);
    let mut json = Vec::new();
    r.write_json(&mut json, 1).unwrap();
    assert!(json.is_empty());
    let mut out = Vec::new();
    r.write_report(&mut out, 1).unwrap();
    assert!(
        String::from_utf8(out)
            .unwrap()
            .contains("\n  no repetitions\n")
    );
    // A repetition that is never ruled: one finding, no ruling.
    let r = review(
        &pgn_ucci(threefold_xiangqi::START_FEN, "h2e2 h9g7 e2h2 g7h9", "*"),
        2,
    );
    assert_eq!(r.repetitions.len(), 1);
    assert_eq!((r.repetitions[0].first_ply, r.repetitions[0].most), (4, 2));
    assert!(r.rulings.is_empty());
}

/// Every reference case: the review's first ruling is the game's standing ruling as
/// `threefold xiangqi judge` and the trainer give it (`JudgedGame`), and a case ruled
/// undecided has none. Broken to see it fail: the ruling taken at `count > ntimes` instead
/// of `count >= ntimes`.
#[test]
fn the_first_ruling_is_the_one_xiangqi_judge_gives() {
    let mut ruled = 0;
    for (name, fen, moves, n) in cases() {
        let text = pgn_ucci(&fen, &moves, "*");
        let r = review(&text, n);
        let mut record = Record::new(Position::from_fen(&fen).unwrap());
        for t in moves.split_whitespace() {
            let m = parse_move(record.current(), t).unwrap();
            record.push(m);
        }
        let standing = JudgedGame::of(&record, RuleAt::from_ntimes(n).unwrap())
            .standing()
            .cloned();
        let standing = standing.filter(|s| s.ending.is_none());
        assert_eq!(
            r.rulings.first().map(|x| &x.ruling),
            standing.as_ref(),
            "{name}"
        );
        ruled += usize::from(standing.is_some());
    }
    assert!(ruled > 80, "{ruled}");
}

/// The JSON lines: one object per finding, the ruling's fields from the judge.
/// Broken to see it fail: the ruling's `against` written as the other side
/// (`r.against().map(|c| c.other().name())`).
#[test]
fn json_has_one_object_per_finding() {
    let r = both("fig2 perpetual chase, n=2", Outcome::BlackWins);
    let mut out = Vec::new();
    r.write_json(&mut out, 3).unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["kind"], "repetition");
    assert_eq!(lines[0]["game"], 3);
    assert_eq!(lines[0]["occurrences"], 3);
    assert_eq!(lines[1]["kind"], "perpetual-chase");
    assert_eq!(lines[1]["ply"], 8);
    assert_eq!(lines[1]["side"], "red");
    assert_eq!(lines[1]["result"], "loss");
    assert_eq!(lines[1]["against"], "red");
    assert_eq!(lines[1]["red"], "chase");
    assert_eq!(lines[1]["black"], "idle");
    assert_eq!(lines[1]["ended_game"], true);
    assert_eq!(lines[1]["move"], "h7i7");
}

/// A collection of the cases, one after another in a file, as the scan hands them over.
fn collection() -> String {
    let mut text = String::new();
    let results = [
        Outcome::BlackWins,
        Outcome::Draw,
        Outcome::RedWins,
        Outcome::Unknown,
    ];
    for (i, (_, fen, moves, _)) in cases().into_iter().enumerate() {
        let result = results[i % results.len()];
        if i % 2 == 0 {
            text += &pgn_ucci(&fen, &moves, result.pgn());
        } else {
            text += &pgn_with_variant(&fen, &moves, result);
        }
        text.push('\n');
    }
    text
}

fn totals_of(games: &[(usize, &str)], first_game: usize) -> XiangqiTotals {
    let mut t = XiangqiTotals::default();
    for (i, &(line, text)) in games.iter().enumerate() {
        match review_game(text, "c.pgn", line, first_game + i, &XqOptions::default()) {
            Ok(r) => t.add(&r),
            Err(_) => t.add_skipped(),
        }
    }
    t
}

/// Broken to see it fail: `merge` without `self.against_red += o.against_red`, then
/// without the `by_result` loop.
#[test]
fn totals_of_parts_merge_into_the_totals_of_the_whole() {
    let mut text = collection();
    // One bad game in the middle: counted as skipped.
    text += "[Event \"bad\"]\n\n1. h2e2 h9g7 2. z9z9 *\n\n";
    text += &pgn_ucci(threefold_xiangqi::START_FEN, "h2e2 h9g7", "*");
    let games = xq_split::split_games(&text);
    assert_eq!(games.len(), cases().len() + 2);
    let whole = totals_of(&games, 1);
    assert_eq!(whole.games as usize, cases().len() + 1);
    assert_eq!(whole.skipped, 1);
    assert!(whole.rulings.perpetual_check > 0 && whole.rulings.perpetual_chase > 0);
    assert!(whole.rulings.mutual_check > 0 && whole.rulings.idle > 0);
    assert!(whole.against_red > 0 && whole.against_black > 0);
    assert!(whole.ended.perpetual_chase > 0);
    assert_eq!(whole.by_result.len(), 4);
    for parts in [2, 3, 7] {
        let size = games.len().div_ceil(parts);
        let mut merged = XiangqiTotals::default();
        for (k, chunk) in games.chunks(size).enumerate() {
            let part = totals_of(chunk, 1 + k * size);
            // Each part goes through its JSON form, as `review merge` reads it.
            let json = serde_json::to_string(&part).unwrap();
            let back: XiangqiTotals = serde_json::from_str(&json).unwrap();
            assert_eq!(back, part);
            merged.merge(&back);
        }
        assert_eq!(merged, whole, "{parts} parts");
    }
    let mut out = Vec::new();
    whole.write_text(&mut out).unwrap();
    let words = String::from_utf8(out).unwrap();
    assert!(words.starts_with(&format!(
        "xiangqi: {} games (1 skipped), {} plies\n",
        whole.games, whole.plies
    )));
    assert!(words.contains("perpetual chase"), "{words}");
}

/// Broken to see it fail: `line: first_line + e.line.max(1) - 1` made `line: e.line`.
#[test]
fn errors_name_the_line_of_the_file_and_the_game() {
    let good = pgn_ucci(threefold_xiangqi::START_FEN, "h2e2 h9g7", "*");
    let bad = "[Event \"bad\"]\n[Result \"*\"]\n\n1. h2e2 h9g7\n2. h0g2 i9h9\n3. e2e9 *\n";
    let text = format!("{good}\n{bad}");
    let games = xq_split::split_games(&text);
    assert_eq!(games.len(), 2);
    let (first_line, game) = games[1];
    assert_eq!(first_line, good.lines().count() + 2);
    let e: XqReviewError =
        review_game(game, "coll.pgn", first_line, 2, &XqOptions::default()).unwrap_err();
    // The bad move is on the game's 6th line.
    assert_eq!(e.line, first_line + 5);
    assert_eq!(e.game, 2);
    assert!(matches!(*e.reason, PgnReason::Move { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "coll.pgn:{}: game 2 (from line {first_line}): move 3.: illegal move e2e9: {}",
            first_line + 5,
            match &*e.reason {
                PgnReason::Move { why, .. } => why.to_string().replace("illegal move e2e9: ", ""),
                _ => unreachable!(),
            }
        )
    );
    // A chess game handed over as xiangqi: the Variant tag is named, with its line.
    let chess = "[Event \"x\"]\n[Variant \"chess\"]\n\n1. e4 e5 *\n";
    let e = review_game(chess, "coll.pgn", 40, 9, &XqOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "coll.pgn:41: game 9 (from line 40): the game is chess, not xiangqi (tag Variant)"
    );
}

/// 200 games of Fairy-Stockfish self-play (tools/gen_xq_collection.py, the README's
/// collection), written as the master collections are: UCCI moves, no Variant tag. Each
/// game's Termination tag is how pyffish ended it.
const SELFPLAY: &str = include_str!("../../../tests/data/xiangqi/fsf_selfplay.pgn");

/// The self-play games Fairy-Stockfish ended by a repetition that threefold's judge rules
/// otherwise. Game 171: Fairy-Stockfish draws; the judge has Black's king and advisor moves
/// chase the red advisor on d2 (by the horse on e4), which Red's advisor leaves unprotected
/// every other move, and rules Black's perpetual chase: the result (a draw) disagrees, so
/// the ruling did not end the game.
const SELFPLAY_DISAGREE: &[usize] = &[171];

/// Every game reads; the review's endings are pyffish's: checkmate and stalemate where it
/// found no legal move, a ruling ending the game at its last ply where it ended a repetition
/// (but for [`SELFPLAY_DISAGREE`]), none where it ended by the fifty-move rule or the move
/// limit. The totals are the README's. Broken to see it fail: `ending: None` in
/// `review_pgn_game`; then `ended_game` always false.
#[test]
fn fairy_stockfish_self_play_ends_as_the_review_says() {
    let games = xq_split::split_games(SELFPLAY);
    assert_eq!(games.len(), 200);
    let mut totals = XiangqiTotals::default();
    for (i, &(line, text)) in games.iter().enumerate() {
        let n = i + 1;
        let r = review_game(text, "fsf_selfplay.pgn", line, n, &XqOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        totals.add(&r);
        let last = r.rulings.last().filter(|x| x.ruling.ply == r.plies());
        match r.tag("Termination").expect("a Termination tag") {
            "checkmate" => assert_eq!(r.ending, Some(Ending::Checkmate), "game {n}"),
            "stalemate" => assert_eq!(r.ending, Some(Ending::Stalemate), "game {n}"),
            "repetition" => {
                let last = last.unwrap_or_else(|| panic!("game {n}: no ruling at the end"));
                assert_eq!(last.ended_game, !SELFPLAY_DISAGREE.contains(&n), "game {n}");
            }
            other => assert!(last.is_none(), "game {n} ({other})"),
        }
    }
    assert_eq!(
        (totals.games, totals.plies, totals.repetitions),
        (200, 29475, 228)
    );
    assert_eq!((totals.rulings.total(), totals.ended.total()), (14, 13));
    assert_eq!(
        (totals.rulings.idle, totals.rulings.perpetual_chase),
        (11, 3)
    );
    assert_eq!((totals.checkmates, totals.stalemates), (133, 31));
}

// The players' findings: what the players did about the repetitions (missed and wrong calls
// to the arbiter, the moves that made one's own repetition forbidden), each answered by the
// arbiter or the judge; with the engine, the ones that mattered.

use std::sync::atomic::AtomicBool;
use threefold_review::Budget;
use threefold_review::xiangqi::{
    XqCall, XqFindingKind, engine_pass, review_pgn_game, review_with_calls,
};
use threefold_xiangqi::arbiter::{Call, Verdict};

/// The game of case `name` as the PGN reader reads it.
fn pgn_game(name: &str, result: Outcome) -> PgnGame {
    let (fen, moves, _) = case(name);
    threefold_xiangqi::pgn::read(&pgn_with_variant(&fen, &moves, result)).unwrap()
}

fn kinds(r: &XqReview) -> Vec<(XqFindingKind, usize, Color)> {
    r.findings.iter().map(|f| (f.kind, f.ply, f.side)).collect()
}

/// Figure 1's perpetual check: Red's fifth move (h8h9, ply 5) brings the position back and
/// makes Red's own repetition the forbidden one; every other rook or king move would have
/// broken it. Black could have called the arbiter after it (the first moment: ply 5) and did
/// not. Broken to see it fail: `so_far(record, ply).loser() != Some(mover)` made
/// `== Some(mover)` in `forbidden_move`; then `if arbiter::call(..).is_right()` made
/// `if !...` in `missed_call`.
#[test]
fn a_perpetual_check_has_a_forbidden_move_and_a_missed_call() {
    let g = pgn_game("fig1 perpetual check, n=2", Outcome::BlackWins);
    let r = review_pgn_game(&g, &XqOptions::default());
    assert_eq!(
        kinds(&r),
        [
            (XqFindingKind::ForbiddenMove, 4, Color::Red),
            (XqFindingKind::MissedCall, 5, Color::Black),
        ]
    );
    let forbidden = &r.findings[0];
    let h8h9 = parse_move(&g.start, "h8h9").unwrap();
    assert_eq!(forbidden.mv, Some(h8h9));
    assert_eq!(forbidden.repetition, Some(0));
    // The position before ply 5 is the start: every legal move but the repeating check.
    let legal = g.start.legal_moves().as_slice().len();
    assert_eq!(forbidden.breaks.len(), legal - 1, "{:?}", forbidden.breaks);
    assert!(!forbidden.breaks.contains(&h8h9));
    assert!(
        forbidden.text.contains("perpetual check"),
        "{}",
        forbidden.text
    );
    assert!(
        r.findings[1]
            .text
            .contains("Black could have called the arbiter")
    );
    // The report and the JSON carry them.
    let mut out = Vec::new();
    r.write_report(&mut out, 1).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("forbidden-move"), "{text}");
    assert!(text.contains("missed-call"), "{text}");
    let mut json = Vec::new();
    r.write_json(&mut json, 1).unwrap();
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8(json).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(first["players"][0]["kind"], "forbidden-move");
    assert_eq!(first["players"][0]["move"], "h8h9");
    assert_eq!(first["players"][1]["kind"], "missed-call");
}

/// Figure 2's perpetual chase, the same findings: Red's rook chasing the unprotected cannon.
/// Broken to see it fail: the first-per-repetition test in `forbidden_move` removed
/// (`|| out.iter().any(..)`): Red's moves 7 and 9... were listed again.
#[test]
fn a_perpetual_chase_has_one_forbidden_move_and_one_missed_call() {
    let g = pgn_game("fig2 perpetual chase, n=2", Outcome::BlackWins);
    let r = review_pgn_game(&g, &XqOptions::default());
    assert_eq!(
        kinds(&r),
        [
            (XqFindingKind::ForbiddenMove, 4, Color::Red),
            (XqFindingKind::MissedCall, 5, Color::Black),
        ]
    );
    assert!(
        r.findings[0].text.contains("perpetual chase"),
        "{}",
        r.findings[0].text
    );
    // A game without repetition, and an idle repetition: nothing forbidden, nothing to call.
    let r = review(
        &pgn_ucci(threefold_xiangqi::START_FEN, "h2e2 h9g7 e2h2 g7h9", "*"),
        2,
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
}

/// Calls made in the game, answered as the arbiter answered them: Red calling Black's
/// repetition forbidden while Red is the one checking is wrong (the caller offends), a draw
/// call is wrong too (Red's repetition is forbidden), and Black's call is right, so it is
/// no missed call. Broken to see it fail: `XqFindingKind::RightCall` and `WrongCall` swapped
/// in `calls_at`; then `|| calls.iter().any(..)` removed from `missed_call`.
#[test]
fn calls_made_are_judged_and_a_call_made_is_not_missed() {
    let g = pgn_game("fig1 perpetual check, n=2", Outcome::BlackWins);
    let calls = [
        XqCall {
            ply: 4,
            caller: Color::Red,
            call: Call::Forbidden,
        },
        XqCall {
            ply: 5,
            caller: Color::Black,
            call: Call::Draw,
        },
        XqCall {
            ply: 5,
            caller: Color::Black,
            call: Call::Forbidden,
        },
    ];
    let r = review_with_calls(&g, &calls, &XqOptions::default());
    assert_eq!(
        kinds(&r),
        [
            (
                XqFindingKind::WrongCall(Verdict::CallerOffends),
                4,
                Color::Red
            ),
            (XqFindingKind::ForbiddenMove, 4, Color::Red),
            (
                XqFindingKind::WrongCall(Verdict::NotADraw {
                    offender: Color::Red
                }),
                5,
                Color::Black
            ),
            (XqFindingKind::RightCall, 5, Color::Black),
        ]
    );
    assert!(
        r.findings[0].text.starts_with("Wrong call"),
        "{}",
        r.findings[0].text
    );
    // A call where nothing repeats: wrong, about no repetition.
    let r = review_with_calls(
        &g,
        &[XqCall {
            ply: 1,
            caller: Color::Black,
            call: Call::Draw,
        }],
        &XqOptions::default(),
    );
    assert_eq!(
        r.findings[0].kind,
        XqFindingKind::WrongCall(Verdict::NoRepetition)
    );
    assert_eq!(r.findings[0].repetition, None);
}

/// With the engine: Red, a rook up, threw away a won game by checking perpetually (the
/// forbidden move mattered); Black's missed call did not (made to vary, Red still wins).
/// Broken to see it fail: `score.cp() > -WINNING_CP` made `<` in `engine_pass`.
#[test]
fn the_engine_tells_the_findings_that_mattered() {
    let g = pgn_game("fig1 perpetual check, n=2", Outcome::BlackWins);
    let mut r = review_pgn_game(&g, &XqOptions::default());
    let mut calls = Vec::new();
    engine_pass(
        &mut r,
        &g.start,
        Budget::Nodes(20_000),
        16,
        &AtomicBool::new(false),
        &mut |d, t| calls.push((d, t)),
    )
    .unwrap();
    // One search: the position before ply 5 is both findings' (Red to move).
    assert_eq!(calls.last(), Some(&(1, 1)));
    let forbidden = &r.findings[0];
    assert!(forbidden.eval.unwrap().cp() > 300, "{:?}", forbidden.eval);
    assert!(forbidden.mattered);
    assert!(
        forbidden.text.contains("threw away a game"),
        "{}",
        forbidden.text
    );
    let missed = &r.findings[1];
    assert!(missed.eval.unwrap().cp() < -300, "{:?}", missed.eval);
    assert!(!missed.mattered);
}
