//! The post-game review: the rules' findings against `analyze` on the reference games, the
//! engine's findings on hand-made games whose answers Stockfish 15.1 confirms with the same
//! history (tools/review_check.py), recorded claims, `threefold review` as a user runs it,
//! and the annotated PGN read back by threefold and by python-chess.

mod pychess;

use std::collections::BTreeMap;
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

use serde_json::Value;
use threefold::review::{self, Budget, FindingKind, Options};
use threefold::rules::Game;
use threefold::rules::analysis::{JsonPly, report_current};
use threefold::rules::claim::{Ground, sorted_uci};
use threefold::rules::pgn::{self, ClaimMark};
use threefold::rules::review::{ClaimFindingKind, GameRecord, review_claims};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/review");

/// A small budget: fast, and the same findings on every machine.
const NODES: u64 = 20_000;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn load(name: &str) -> (pgn::PgnRecord, Game) {
    pgn::read_game_file(std::path::Path::new(&format!("{DATA}/{name}")), 1).expect("test game")
}

fn engine_review(name: &str) -> Vec<(usize, FindingKind, Option<String>)> {
    let (rec, game) = load(name);
    let options = Options {
        budget: Some(Budget::Nodes(NODES)),
        hash_mb: 4,
    };
    let r = review::review(
        &game,
        &GameRecord::from_pgn(&rec),
        &options,
        &AtomicBool::new(false),
        &mut |_, _| {},
    )
    .expect("engine");
    r.findings
        .iter()
        .map(|f| {
            (
                f.ply,
                f.kind,
                f.mv.map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()),
            )
        })
        .collect()
}

/// Every claim chance the review sees is the one `analyze --json` reports at that ply, and
/// every ply where `analyze` reports a claim (the game not over) is a chance of the review.
#[test]
fn claim_chances_agree_with_analyze_on_the_reference_games() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/reference.jsonl"
    ))
    .expect("reference data");
    let mut compared = 0;
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        let mut game = Game::from_fen(r["fen"].as_str().unwrap()).unwrap();
        let mut expected = BTreeMap::new();
        let plies = r["plies"].as_array().unwrap();
        for (ply, want) in plies.iter().enumerate() {
            if ply > 0 {
                game.play_uci(r["moves"][ply - 1].as_str().unwrap())
                    .unwrap();
            }
            // The analyze projection as the CLI prints it.
            let got = serde_json::to_value(JsonPly::new(&game, &report_current(&game))).unwrap();
            assert_eq!(&got, want, "analyze itself agrees with the reference");
            let any = want["claim_threefold"] == true
                || want["claim_fifty"] == true
                || !want["claim_threefold_moves"].as_array().unwrap().is_empty()
                || !want["claim_fifty_moves"].as_array().unwrap().is_empty();
            if any && want["outcome"].is_null() {
                let mut moves: Vec<String> = want["claim_threefold_moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .chain(want["claim_fifty_moves"].as_array().unwrap())
                    .map(|m| m.as_str().unwrap().to_string())
                    .collect();
                moves.sort();
                moves.dedup();
                let now = want["claim_threefold"] == true || want["claim_fifty"] == true;
                expected.insert(ply, (now, moves));
            }
        }
        let review = review_claims(&game, &GameRecord::default());
        let got: BTreeMap<usize, (bool, Vec<String>)> = review
            .chances
            .iter()
            .map(|c| {
                let moves: Vec<_> = c.with_move.iter().map(|&(m, _)| m).collect();
                (c.ply, (c.now.is_some(), sorted_uci(&moves)))
            })
            .collect();
        assert_eq!(got, expected, "{}", r["name"]);
        // No result given: nothing is taken, and the runs hold every chance once.
        let in_runs: usize = review.runs.iter().map(|r| r.chances.len()).sum();
        assert_eq!(in_runs, review.chances.len(), "{}", r["name"]);
        for run in &review.runs {
            for w in run.chances.windows(2) {
                assert_eq!(w[0].ply + 2, w[1].ply, "a run is consecutive turns");
            }
        }
        compared += expected.len();
    }
    assert!(compared > 100, "only {compared} claim plies compared");
}

#[test]
fn a_missed_claim_with_a_move_names_the_move_and_how_long_it_lasted() {
    let (rec, game) = load("lost_with_claim.pgn");
    let r = review_claims(&game, &GameRecord::from_pgn(&rec));
    let black: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.side == shakmaty::Color::Black)
        .collect();
    assert_eq!(black.len(), 1, "{black:?}");
    let f = black[0];
    assert_eq!(f.kind, ClaimFindingKind::MissedClaimWithMove);
    assert_eq!((f.ply, f.until_ply), (7, 9));
    assert_eq!(f.rule, Some("9.2 a"));
    assert!(
        f.text
            .starts_with("4...Kh8 written on the scoresheet would have drawn"),
        "{}",
        f.text
    );
    assert!(f.text.contains("lasted 2 moves"), "{}", f.text);
}

#[test]
fn recorded_claims_are_read_and_judged_with_their_consequences() {
    let text = "[Event \"t\"]\n\n1. Nf3 Nf6 2. Ng1 {[%claim now]} Ng8 3. Nf3 Nf6 4. Ng1 Ng8 \
                {[%claim move]} 1/2-1/2\n";
    let recs = pgn::read_records(text, "mem").unwrap();
    let rec = &recs[0];
    assert_eq!(
        rec.claims
            .iter()
            .map(|c| (c.ply, c.mark))
            .collect::<Vec<_>>(),
        [(3, ClaimMark::Now), (8, ClaimMark::WithMove)]
    );
    let game = pgn::to_game(rec, "mem").unwrap();
    let r = review_claims(&game, &GameRecord::from_pgn(rec));
    let kinds: Vec<_> = r.findings.iter().map(|f| (f.ply, f.kind)).collect();
    assert_eq!(
        kinds,
        [
            (3, ClaimFindingKind::IncorrectClaim),
            (7, ClaimFindingKind::CorrectClaim)
        ]
    );
    assert!(
        r.findings[0]
            .text
            .contains("White gets 2 more minutes (FIDE 9.5)"),
        "{}",
        r.findings[0].text
    );
    // The correct claim took the chance: nothing missed.
    assert!(r.runs.is_empty(), "{:?}", r.runs);
    // A game without clocks (`TimeControl "-"`, as the trainer saves one): FIDE 9.5 adds
    // no time, and the finding says so.
    let text = text.replace("[Event \"t\"]", "[Event \"t\"]\n[TimeControl \"-\"]");
    let rec = &pgn::read_records(&text, "mem").unwrap()[0];
    let game = pgn::to_game(rec, "mem").unwrap();
    let r = review_claims(&game, &GameRecord::from_pgn(rec));
    assert_eq!(r.findings[0].kind, ClaimFindingKind::IncorrectClaim);
    assert!(
        !r.findings[0].text.contains("minutes"),
        "{}",
        r.findings[0].text
    );
    assert!(
        r.findings[0]
            .text
            .contains("The game goes on (FIDE 9.5); without clocks no time is added."),
        "{}",
        r.findings[0].text
    );
    // A claim with a move needs a move before it.
    let e = pgn::read_records("{[%claim move]} 1. e4 *", "mem").unwrap_err();
    assert_eq!(e.line, Some(1));
}

/// A claim that names its rule (`[%claim move 9.3]`) is judged under that rule only:
/// the threefold repetition it would also have had does not make it correct. An
/// unknown rule is not a claim command.
#[test]
fn a_recorded_claim_is_judged_under_the_rule_it_names() {
    let game_with = |cmd: &str| {
        format!("[Event \"t\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 {{{cmd}}} *\n")
    };
    let judged = |cmd: &str| {
        let recs = pgn::read_records(&game_with(cmd), "mem").unwrap();
        let game = pgn::to_game(&recs[0], "mem").unwrap();
        let r = review_claims(&game, &GameRecord::from_pgn(&recs[0]));
        (recs[0].claims.clone(), r.findings)
    };
    let (claims, f) = judged("[%claim move 9.2]");
    assert_eq!(claims[0].ground, Some(Ground::Threefold));
    assert_eq!(f[0].kind, ClaimFindingKind::CorrectClaim);
    let (claims, f) = judged("[%claim move 9.3]");
    assert_eq!(claims[0].ground, Some(Ground::FiftyMoves));
    let wrong = f
        .iter()
        .find(|f| f.kind == ClaimFindingKind::IncorrectClaim)
        .unwrap_or_else(|| panic!("{f:?}"));
    assert_eq!(wrong.rule, Some("9.3 a"), "{wrong:?}");
    assert!(
        wrong.text.contains("9.2"),
        "the other rule would have held: {}",
        wrong.text
    );
    // And the threefold claim it could have made is a chance missed.
    assert!(
        f.iter()
            .any(|f| f.kind == ClaimFindingKind::MissedClaimWithMove),
        "{f:?}"
    );
    let (claims, f) = judged("[%claim move]");
    assert_eq!(claims[0].ground, None);
    assert_eq!(f[0].kind, ClaimFindingKind::CorrectClaim);
    let (claims, _) = judged("[%claim move 9.4]");
    assert!(claims.is_empty(), "{claims:?}");
    // Written back as read.
    assert_eq!(
        pgn::claim_comment(ClaimMark::WithMove, Some(Ground::FiftyMoves)),
        "[%claim move 9.3]"
    );
}

#[test]
fn engine_finds_a_lost_game_where_the_claim_was_available() {
    let f = engine_review("lost_with_claim.pgn");
    assert!(
        f.contains(&(7, FindingKind::ClaimWorthTaking, Some("g8h8".into()))),
        "{f:?}"
    );
    assert!(
        f.contains(&(6, FindingKind::AllowedClaim, Some("b1a1".into()))),
        "{f:?}"
    );
}

#[test]
fn engine_finds_a_won_game_drawn_by_allowing_a_third_occurrence() {
    let f = engine_review("won_drawn_by_claim.pgn");
    assert!(
        f.contains(&(6, FindingKind::AllowedClaim, Some("a2a1".into()))),
        "{f:?}"
    );
    assert!(
        !f.iter().any(|x| x.1 == FindingKind::ClaimWorthTaking),
        "{f:?}"
    );
}

#[test]
fn engine_finds_a_missed_perpetual() {
    let f = engine_review("missed_perpetual.pgn");
    assert_eq!(f, [(6, FindingKind::MissedPerpetual, Some("e8h5".into()))]);
}

#[test]
fn engine_finds_a_won_game_drawn_by_making_the_fifth_occurrence() {
    let f = engine_review("allowed_fivefold.pgn");
    assert!(
        f.contains(&(15, FindingKind::AllowedFivefold, Some("a1a2".into()))),
        "{f:?}"
    );
}

#[test]
fn engine_finds_a_winning_side_walking_into_a_perpetual_check() {
    let f = engine_review("walked_into_repetition.pgn");
    assert!(
        f.contains(&(0, FindingKind::WalkedIntoRepetition, Some("d8d2".into()))),
        "{f:?}"
    );
    // The perpetual itself was White's to give, not a chance White missed.
    assert!(
        !f.iter().any(|x| matches!(
            x.1,
            FindingKind::MissedPerpetual | FindingKind::MissedRepetition
        )),
        "{f:?}"
    );
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

#[test]
fn cli_json_has_one_object_per_finding_with_the_fields() {
    let file = format!("{DATA}/missed_perpetual.pgn");
    let out = run(&["review", "--pgn", &file, "--json", "--nodes", "20000"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    for k in [
        "ply",
        "side",
        "kind",
        "move",
        "eval_before",
        "eval_after",
        "text",
    ] {
        assert!(r.get(k).is_some(), "{k} in {r}");
    }
    assert_eq!(r["kind"], "missed-perpetual");
    assert_eq!(r["side"], "white");
    assert_eq!(r["move"], "e8h5");
    assert!(r["eval_after"].as_i64().unwrap() <= -150, "{r}");
    assert!(r["eval_before"].as_i64().unwrap().abs() <= 50, "{r}");
}

#[test]
fn cli_errors_are_one_line_with_file_and_line() {
    let out = run(&[
        "review",
        "--pgn",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/illegal.pgn"),
        "--no-engine",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("illegal.pgn:"),
        "{err}"
    );
    let out = run(&["review", "--pgn", "/nonexistent.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn annotated_pgn_round_trips_through_threefold_and_python_chess() {
    let dir = std::env::temp_dir().join(format!("threefold-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.pgn");
    let mut all = String::new();
    for name in [
        "lost_with_claim.pgn",
        "won_drawn_by_claim.pgn",
        "missed_perpetual.pgn",
    ] {
        all.push_str(&std::fs::read_to_string(format!("{DATA}/{name}")).unwrap());
        all.push('\n');
    }
    std::fs::write(&input, &all).unwrap();
    let out_path = dir.join("out.pgn");
    let out = run(&[
        "review",
        "--pgn",
        input.to_str().unwrap(),
        "--all",
        "--nodes",
        "20000",
        "--annotate",
        out_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let annotated = std::fs::read_to_string(&out_path).unwrap();
    // Long comments are wrapped: compare with the line breaks as spaces.
    let flat = annotated.replace('\n', " ");
    assert!(
        flat.contains("{×3: same as the start position, 2...Kh8}"),
        "{annotated}"
    );
    assert!(flat.contains("4. Qb5 $2"), "{annotated}");
    assert!(flat.contains("[%claim move]"), "{annotated}");

    // threefold's reader: the same games, moves and recorded claims.
    let before = pgn::read_records(&all, "in").unwrap();
    let after = pgn::read_records(&annotated, "out").unwrap();
    assert_eq!(before.len(), after.len());
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(b.sans, a.sans);
        assert_eq!(b.result, a.result);
        assert_eq!(
            b.claims.iter().map(|c| (c.ply, c.mark)).collect::<Vec<_>>(),
            a.claims.iter().map(|c| (c.ply, c.mark)).collect::<Vec<_>>()
        );
        assert_eq!(b.tag("FEN"), a.tag("FEN"));
    }

    // python-chess: the same main lines, results and the comments.
    if !pychess::available("chess.pgn") {
        return;
    }
    let script = r#"
import sys, json, chess.pgn
out = []
with open(sys.argv[1], encoding="utf-8") as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        if g.errors:
            raise SystemExit("errors: %r" % g.errors)
        board = g.board()
        ucis = [m.uci() for m in g.mainline_moves()]
        comments = [" ".join(n.comment.split()) for n in g.mainline()]
        nags = [sorted(n.nags) for n in g.mainline()]
        out.append({"result": g.headers["Result"], "moves": ucis, "comments": comments, "nags": nags})
print(json.dumps(out))
"#;
    let py = Command::new("python3")
        .args(["-c", script, out_path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    let games: Vec<Value> = serde_json::from_slice(&py.stdout).unwrap();
    assert_eq!(games.len(), 3);
    for (g, b) in games.iter().zip(&before) {
        let game = pgn::to_game(b, "in").unwrap();
        let ucis: Vec<Value> = game.uci_moves().into_iter().map(Value::from).collect();
        assert_eq!(g["moves"].as_array().unwrap(), &ucis);
        assert_eq!(g["result"], b.result.clone().unwrap());
    }
    let perpetual = &games[2];
    assert!(
        perpetual["comments"][6]
            .as_str()
            .unwrap()
            .contains("perpetual check"),
        "{perpetual}"
    );
    assert_eq!(perpetual["nags"][6], serde_json::json!([2]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--annotate` onto the file being reviewed is refused before anything is written (it
/// replaced a file of two games with one).
#[test]
fn annotating_over_the_input_is_refused_and_the_input_kept() {
    let dir = std::env::temp_dir().join(format!("threefold-review-self-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("two.pgn");
    let two = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
    std::fs::write(&input, two).unwrap();
    // The same file by another spelling of its path.
    let same = dir.join(".").join("two.pgn");
    let out = run(&[
        "review",
        "--pgn",
        input.to_str().unwrap(),
        "--no-engine",
        "--annotate",
        same.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("that is the file being reviewed"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(&input).unwrap(), two);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A claim with a move missed where the position after it had already stood three times:
/// the move would have made its fourth occurrence, and the text says so.
#[test]
fn a_missed_claim_counts_the_occurrence_the_move_would_make() {
    let text =
        "[Event \"t\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nc3 Nc6 6. Nb1 Nb8 *\n";
    let recs = pgn::read_records(text, "mem").unwrap();
    let game = pgn::to_game(&recs[0], "mem").unwrap();
    let r = review_claims(&game, &GameRecord::from_pgn(&recs[0]));
    let f = r
        .findings
        .iter()
        .find(|f| f.text.starts_with("6...Nb8 written on the scoresheet"))
        .unwrap_or_else(|| panic!("{:?}", r.findings));
    assert!(
        f.text.contains("had stood three times before"),
        "{}",
        f.text
    );
    assert!(
        f.text.contains("appeared for the fourth time"),
        "{}",
        f.text
    );
    assert_eq!(threefold::rules::claim::ordinal(21), "21st");
    assert_eq!(threefold::rules::claim::ordinal(12), "12th");
    assert_eq!(threefold::rules::claim::ordinal(103), "103rd");
}

/// `review --all` reviews game by game as it reads them: a game's report is out before the
/// next game is read, so a bad game later in the file comes after the reports of the games
/// before it (the whole file used to be read, and held, before the first game was reviewed).
/// The bad game is skipped, and the command ends with exit 1 and the count (it used to end
/// at the bad game with exit 2).
#[test]
fn review_all_reports_each_game_before_reading_the_next() {
    let dir = std::env::temp_dir().join(format!("threefold-review-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.pgn");
    let games = "[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n\n1. d4 d5 *\n\n\
                 [White \"C\"]\n\n1. e4 e5 2. Ke3 *\n";
    std::fs::write(&input, games).unwrap();
    let out = run(&[
        "review",
        "--pgn",
        input.to_str().unwrap(),
        "--all",
        "--no-engine",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("Game 1: A - ?, * (2 plies)"), "{stdout}");
    assert!(stdout.contains("Game 2: B - ?, * (2 plies)"), "{stdout}");
    assert!(!stdout.contains("Game 3"), "{stdout}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.contains("games.pgn:11: game 3 (from line 9) skipped: illegal move 'Ke3' (ply 3)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A knight shuffle: Black could have claimed with 4...Ng8, White at move 5.
const SHUFFLE: &str = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *";

/// A game the trainer saved with a sparring engine on Black (`[Sparring "Black"]`): Black
/// never claims, so `threefold review` lists no missed claim of Black's, counts none, and
/// `--drills` makes no puzzle of one; White's missed claim is listed. Without the tag
/// Black's is listed too.
#[test]
fn review_lists_no_missed_claim_of_a_sparring_engine() {
    let dir = std::env::temp_dir().join(format!("threefold-review-spar-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (tag, black_listed) in [("[Sparring \"Black\"]\n", false), ("", true)] {
        let input = dir.join("game.pgn");
        std::fs::write(&input, format!("[White \"A\"]\n{tag}\n{SHUFFLE}\n")).unwrap();
        let puzzles = dir.join(format!("puzzles-{black_listed}"));
        let out = run(&[
            "review",
            "--pgn",
            input.to_str().unwrap(),
            "--no-engine",
            "--drills",
            "--drills-dir",
            puzzles.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("White missed-claim"), "{stdout}");
        assert!(stdout.contains("White: 1 missed claim chance"), "{stdout}");
        assert_eq!(
            stdout.contains("Black missed-claim"),
            black_listed,
            "{stdout}"
        );
        assert_eq!(
            stdout.contains("Black: 1 missed claim"),
            black_listed,
            "{stdout}"
        );
        let file = puzzles.join(threefold::drills::from_games::FILE_NAME);
        let written = std::fs::read_to_string(file).unwrap_or_default();
        assert!(written.contains("White to move"), "{written}");
        assert_eq!(written.contains("Black to move"), black_listed, "{written}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bad game in the middle of a file is named (its number and line) and skipped, and the
/// games after it are reviewed; with `--drills` the puzzles of the good games are written;
/// the command ends with exit 1 and the count. (It used to stop at the bad game with exit 2,
/// game 4 never read and no puzzle written.)
#[test]
fn review_all_skips_a_bad_game_and_reviews_the_rest() {
    let dir = std::env::temp_dir().join(format!("threefold-review-skip-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.pgn");
    let games = format!(
        "[White \"A\"]\n\n1. d4 d5 *\n\n[White \"B\"]\n\n{SHUFFLE}\n\n\
         [White \"C\"]\n\n1. e4 Zz9 2. Nf3 *\n\n[White \"D\"]\n\n{SHUFFLE}\n"
    );
    std::fs::write(&input, games).unwrap();
    let puzzles = dir.join("puzzles");
    let out = run(&[
        "review",
        "--pgn",
        input.to_str().unwrap(),
        "--all",
        "--no-engine",
        "--drills",
        "--drills-dir",
        puzzles.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Game ")).collect();
    assert_eq!(
        games,
        [
            "Game 1: A - ?, * (2 plies)",
            "Game 2: B - ?, * (9 plies)",
            "Game 4: D - ?, * (9 plies)"
        ],
        "{stdout}"
    );
    let file = puzzles.join("from-your-games.toml");
    assert_eq!(
        stdout.lines().last().unwrap(),
        format!(
            "2 puzzles added to {}: drills, theme \"From your games\".",
            file.display()
        )
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(
        err,
        [
            format!(
                "{}:11: game 3 (from line 9) skipped: cannot read 'Zz9' as a move",
                input.display()
            ),
            "error: 1 game of 4 skipped (not read: see above)".to_string()
        ]
    );
    let (theme, problems) = threefold::drills::load_file(&file);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(theme.unwrap().puzzles.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file cut off in the middle of a move: its last game is reported as bad, and the games
/// before it are reviewed and written to `--annotate`'s file (nothing was written before).
#[test]
fn review_all_of_a_file_cut_off_keeps_the_games_before_the_cut() {
    let dir = std::env::temp_dir().join(format!("threefold-review-cut-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("cut.pgn");
    let text = format!("[White \"A\"]\n\n{SHUFFLE}\n\n[White \"B\"]\n\n{SHUFFLE}\n");
    let cut = text.rfind("Ng8").unwrap() + 1;
    std::fs::write(&input, &text[..cut]).unwrap();
    let annotated = dir.join("out.pgn");
    let out = run(&[
        "review",
        "--pgn",
        input.to_str().unwrap(),
        "--all",
        "--no-engine",
        "--annotate",
        annotated.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("Game 1: A - ?, * (9 plies)"), "{stdout}");
    assert!(!stdout.contains("Game 2"), "{stdout}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cut.pgn:7: game 2 (from line 5) skipped: cannot read 'N' as a move"),
        "{err}"
    );
    assert!(err.contains("1 game of 2 skipped"), "{err}");
    let recs = pgn::read_records(&std::fs::read_to_string(&annotated).unwrap(), "out").unwrap();
    assert_eq!(recs.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An `--annotate` PATH that cannot be written is refused before any game is searched (it
/// used to be found out after the whole review): nothing is reported, one line names PATH.
#[test]
fn an_unwritable_annotate_path_is_refused_before_the_review() {
    let dir = std::env::temp_dir().join(format!(
        "threefold-review-unwritable-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("no-such-dir").join("out.pgn");
    let out = run(&[
        "review",
        "--pgn",
        &format!("{DATA}/missed_perpetual.pgn"),
        "--nodes",
        "2000",
        "--annotate",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot write") && err.contains("out.pgn"),
        "{err}"
    );
    assert!(err.contains("does not exist"), "{err}");
    // A writable PATH still gets the games, written whole at the end, and no temporary
    // file is left beside it.
    let ok = dir.join("out.pgn");
    let out = run(&[
        "review",
        "--pgn",
        &format!("{DATA}/missed_perpetual.pgn"),
        "--no-engine",
        "--annotate",
        ok.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&ok).unwrap();
    assert_eq!(pgn::read_records(&text, "out").unwrap().len(), 1);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["out.pgn"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finding as `review --json` prints it: (game, ply, until_ply, side, kind, move, rule,
/// text).
type JsonRow = (
    u64,
    u64,
    u64,
    String,
    String,
    Option<String>,
    Option<String>,
    String,
);

/// What identifies a finding across two reviews: (ply, side, kind, move).
type MissedKey = (u64, String, String, Option<String>);

fn json_row(v: &Value) -> JsonRow {
    let s = |k: &str| v[k].as_str().map(str::to_string);
    (
        v["game"].as_u64().unwrap(),
        v["ply"].as_u64().unwrap(),
        v["until_ply"].as_u64().unwrap(),
        s("side").unwrap(),
        s("kind").unwrap(),
        s("move"),
        s("rule"),
        s("text").unwrap(),
    )
}

/// Claims written into the reference games at plies where the rules core sees a chance
/// (the first and the last of each game; a claim without a move there, correct or not, and a claim with the first claim move),
/// each game ending drawn with its claim as a claim ends a game: `review --all --no-engine
/// --json` on the file lists exactly what [`review_claims`] finds in each game read back,
/// the recorded claim is ruled as the rules core says, and every chance before the claim is
/// a missed claim as in the same game without the record: a claim recorded at the end does
/// not take the other side's chance the move before (the claim shows the game went on).
#[test]
fn recorded_claims_replayed_into_the_reference_games_keep_the_missed_claims_before_them() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/reference.jsonl"
    ))
    .expect("reference data");
    // Per game written: the claim's position ply, whether it is correct, and the findings
    // (ply, side, kind, move) before that ply of the same moves reviewed without a record.
    let mut expected: Vec<(usize, bool, Vec<MissedKey>)> = Vec::new();
    let mut pgn_text = String::new();
    let row_key = |r: &JsonRow| (r.1, r.3.clone(), r.4.clone(), r.5.clone());
    let lib_rows = |index: usize, game: &Game, record: &GameRecord| -> Vec<JsonRow> {
        review_claims(game, record)
            .findings
            .iter()
            .map(|f| {
                (
                    index as u64,
                    f.ply as u64,
                    f.until_ply as u64,
                    match f.side {
                        shakmaty::Color::White => "white".to_string(),
                        shakmaty::Color::Black => "black".to_string(),
                    },
                    f.kind.code().to_string(),
                    f.mv.map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()),
                    f.rule.map(str::to_string),
                    f.text.clone(),
                )
            })
            .collect()
    };
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        let fen = r["fen"].as_str().unwrap();
        let moves: Vec<&str> = r["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let mut full = Game::from_fen(fen).unwrap();
        for m in &moves {
            full.play_uci(m).unwrap();
        }
        // The first and the last chance of each game: enough for every kind, fast enough.
        let chances = review_claims(&full, &GameRecord::default()).chances;
        let picked = chances
            .first()
            .into_iter()
            .chain(chances.last().filter(|_| chances.len() > 1))
            .cloned();
        for ch in picked {
            let mut g = Game::from_fen(fen).unwrap();
            for m in &moves[..ch.ply] {
                g.play_uci(m).unwrap();
            }
            let mut variants = vec![(g.clone(), ClaimMark::Now, ch.now.is_some())];
            if let Some(&(m, _)) = ch.with_move.first() {
                let mut gm = g.clone();
                gm.play(m).unwrap();
                variants.push((gm, ClaimMark::WithMove, true));
            }
            for (game, mark, correct) in variants {
                let before: Vec<_> = lib_rows(0, &game, &GameRecord::default())
                    .iter()
                    .filter(|r| r.1 < ch.ply as u64)
                    .map(row_key)
                    .collect();
                let claims = [pgn::RecordedClaim {
                    ply: game.len(),
                    mark,
                    ground: None,
                    line: 0,
                }];
                let written = pgn::write_annotated(
                    &game,
                    &[("Result", "1/2-1/2")],
                    &pgn::claim_notes(&claims),
                );
                pgn_text.push_str(&written);
                pgn_text.push('\n');
                expected.push((ch.ply, correct, before));
            }
        }
    }
    assert!(expected.len() > 100, "only {} games", expected.len());
    let dir = std::env::temp_dir().join(format!("threefold-review-claims-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("claims.pgn");
    std::fs::write(&file, &pgn_text).unwrap();
    let out = run(&[
        "review",
        "--pgn",
        file.to_str().unwrap(),
        "--all",
        "--no-engine",
        "--json",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli: Vec<JsonRow> = json_lines(&out).iter().map(json_row).collect();
    // The library on the games as read back.
    let mut reader = pgn::PgnReader::new(pgn_text.as_bytes(), "claims.pgn");
    let mut lib = Vec::new();
    let mut index = 0;
    while let Some((rec, game)) = reader.next_game().unwrap() {
        index += 1;
        let rows = lib_rows(index, &game, &GameRecord::from_pgn(&rec));
        let (ply, correct, before) = &expected[index - 1];
        let kind = if *correct {
            "correct-claim"
        } else {
            "incorrect-claim"
        };
        assert!(
            rows.iter().any(|r| r.1 == *ply as u64 && r.4 == kind),
            "game {index}: a {kind} at ply {ply} in {rows:?}"
        );
        let got: Vec<_> = rows
            .iter()
            .filter(|r| r.1 < *ply as u64)
            .map(row_key)
            .collect();
        assert_eq!(
            &got, before,
            "game {index}: the missed claims before the claim"
        );
        lib.extend(rows);
    }
    assert_eq!(index, expected.len());
    assert_eq!(cli, lib, "the command line and review_claims");
}
