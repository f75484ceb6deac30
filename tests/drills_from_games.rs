//! Drills from your own games: the review's missed and incorrect claims become puzzles of
//! the theme "From your games", answered by the rules core, kept in one file written
//! atomically, each added once; `threefold review --drills` as a user runs it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use threefold::drills::from_games::{self, FILE_NAME, THEME_ID, THEME_NAME};
use threefold::drills::{self, Answer, ClaimRule, Collection, Question, check, load_file};
use threefold::rules::Game;
use threefold::rules::pgn;
use threefold::rules::review::{ClaimFindingKind, GameRecord, review_claims};

/// A claim made too early (incorrect), a claim with 4...Ng8 missed, a claim now missed.
const GAME: &str = "[Event \"Club\"]\n[White \"Ada\"]\n[Black \"Bob\"]\n[Date \"2024.05.01\"]\n\n\
                    1. Nf3 Nf6 2. Ng1 {[%claim now]} Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 1-0\n";

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("yours", name)
}

fn game() -> (pgn::PgnRecord, Game) {
    let rec = pgn::read_records(GAME, "mem").unwrap().remove(0);
    let game = pgn::to_game(&rec, "mem").unwrap();
    (rec, game)
}

fn add_game(path: &Path) -> from_games::Added {
    let (rec, game) = game();
    let review = review_claims(&game, &GameRecord::from_pgn(&rec));
    let source = from_games::source_from_tags(|n| rec.tag(n));
    let made: Vec<_> = from_games::puzzles_of_review(&game, &review, source.as_deref())
        .into_iter()
        .map(Result::unwrap)
        .collect();
    from_games::add_puzzles(path, &made).unwrap()
}

#[test]
fn each_missed_and_incorrect_claim_becomes_a_puzzle_answered_by_the_rules_core() {
    let dir = temp_dir("made");
    let path = dir.join(FILE_NAME);
    let added = add_game(&path);
    assert_eq!(added.added.len(), 3, "{added:?}");
    let (theme, problems) = load_file(&path);
    assert!(problems.is_empty(), "{problems:?}");
    let theme = theme.unwrap();
    assert_eq!(
        (theme.id.as_str(), theme.name.as_str()),
        (THEME_ID, THEME_NAME)
    );
    let got: Vec<(usize, &str, Answer)> = theme
        .puzzles
        .iter()
        .map(|p| (p.game().len(), p.question.code(), p.answer.clone()))
        .collect();
    let game = theme.puzzles[1].game();
    let ng8 = game.parse_san("Ng8").unwrap();
    assert_eq!(
        got,
        [
            // 2...: Black claimed with nothing to claim.
            (3, "claim", Answer::Claim(ClaimRule::None)),
            // 4...: Black could have written 4...Ng8 and claimed (9.2 a).
            (7, "claim-moves", Answer::moves(vec![ng8])),
            // 5.: White could have claimed at once (9.2 b).
            (8, "claim", Answer::Claim(ClaimRule::Threefold)),
        ]
    );
    for p in &theme.puzzles {
        check(p).unwrap();
        assert_eq!(p.source.as_deref(), Some("Ada – Bob, Club, 2024.05.01"));
        assert!(p.id.starts_with("game-"), "{}", p.id);
    }
    assert!(
        theme.puzzles[2]
            .explanation
            .contains("could have claimed a draw")
    );
    // `drills --check FILE` checks it like the others.
    let (lines, ok) = drills::cli_check(&path);
    assert!(ok, "{lines:?}");
}

#[test]
fn an_incorrect_claim_with_a_move_asks_about_that_move() {
    let text = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 {[%claim move]} Nf6 *\n";
    let rec = pgn::read_records(text, "mem").unwrap().remove(0);
    let game = pgn::to_game(&rec, "mem").unwrap();
    let review = review_claims(&game, &GameRecord::from_pgn(&rec));
    let f = review
        .findings
        .iter()
        .find(|f| f.kind == ClaimFindingKind::IncorrectClaim)
        .expect("an incorrect claim");
    let p = from_games::puzzle_from_finding(&game, f, None).unwrap();
    assert!(
        p.text.contains("ask = \"intended\"\nmove = \"Nf3\"\n"),
        "{}",
        p.text
    );
    assert!(p.text.contains("answer = \"none\""), "{}", p.text);
    assert!(
        p.text.contains("moves = \"1. Nf3 Nf6 2. Ng1 Ng8\""),
        "{}",
        p.text
    );
    // A correct claim is no drill.
    let mut right = f.clone();
    right.kind = ClaimFindingKind::CorrectClaim;
    assert!(matches!(
        from_games::puzzle_from_finding(&game, &right, None),
        Err(from_games::FromGamesError::NotAMistake(_))
    ));
}

/// A wrong claim in the start position: the drill's title says where in plain words, and its
/// explanation (the review's ruling) follows whether the game had clocks (FIDE 9.5's two
/// minutes only with clocks).
#[test]
fn a_claim_at_the_start_makes_a_drill_whose_words_follow_the_clocks() {
    use threefold::rules::claim::Clocks;
    use threefold::rules::pgn::{ClaimMark, RecordedClaim};
    let game = pgn::to_game(
        &pgn::read_records("1. Nf3 *\n", "mem").unwrap().remove(0),
        "mem",
    )
    .unwrap();
    for (clocks, said, not_said) in [
        (
            Clocks::Off,
            "without clocks no time is added",
            "more minutes",
        ),
        (Clocks::On, "Black gets 2 more minutes", "without clocks"),
    ] {
        let record = GameRecord {
            claims: vec![RecordedClaim {
                ply: 0,
                mark: ClaimMark::Now,
                ground: None,
                line: 0,
            }],
            result: None,
            clocks,
            never_claims: Vec::new(),
        };
        let review = review_claims(&game, &record);
        let f = &review.findings[0];
        assert_eq!((f.kind, f.ply), (ClaimFindingKind::IncorrectClaim, 0));
        assert!(
            f.text.contains(said) && !f.text.contains(not_said),
            "{}",
            f.text
        );
        let p = from_games::puzzle_from_finding(&game, f, None).unwrap();
        assert!(
            p.text
                .contains("title = \"White's claim in the start position\"\n"),
            "{}",
            p.text
        );
        assert!(p.text.contains(said), "{}", p.text);
    }
}

#[test]
fn the_same_finding_twice_is_added_once_and_the_file_is_left_alone() {
    let dir = temp_dir("twice");
    let path = dir.join(FILE_NAME);
    add_game(&path);
    let before = std::fs::read(&path).unwrap();
    let again = add_game(&path);
    assert!(again.added.is_empty(), "{again:?}");
    assert_eq!(again.already.len(), 3);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(
        again.summary(),
        format!("All 3 puzzles are already in {}.", path.display())
    );
}

#[test]
fn a_broken_puzzle_in_the_file_is_one_line_and_the_others_still_load() {
    let dir = temp_dir("broken");
    let path = dir.join(FILE_NAME);
    add_game(&path);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\n[[puzzle]]\nid = \"mine\"\ntitle = \"t\"\nmoves = \"1. e4 Ke7 Kxe9\"\nask = \"claim\"\nanswer = \"none\"\nexplanation = \"x\"\n");
    std::fs::write(&path, text).unwrap();
    let mut coll = Collection::default();
    drills::add_file(&mut coll, &path);
    assert_eq!(coll.problems.len(), 1, "{:?}", coll.problems);
    assert!(
        coll.problems[0]
            .to_string()
            .starts_with(&format!("{}:", path.display()))
    );
    assert_eq!(coll.theme(THEME_ID).unwrap().puzzles.len(), 3);
    // Adding more keeps the user's text as it was.
    let again = add_game(&path);
    assert_eq!(again.already.len(), 3);
    assert!(std::fs::read_to_string(&path).unwrap().contains("Kxe9"));
}

#[test]
fn the_drill_screen_lists_the_theme_beside_the_built_in_ones() {
    let dir = temp_dir("beside");
    let path = dir.join(FILE_NAME);
    add_game(&path);
    let coll = drills::session::with_yours(drills::load_builtin(), Some(&path));
    assert!(coll.problems.is_empty(), "{:?}", coll.problems);
    let n = drills::load_builtin().themes.len();
    assert_eq!(coll.themes.len(), n + 1);
    assert_eq!(coll.themes[n].name, THEME_NAME);
    assert_eq!(coll.themes[n].puzzles.len(), 3);
    // No file: the built-in themes only.
    let none = drills::session::with_yours(drills::load_builtin(), Some(&dir.join("none.toml")));
    assert_eq!(none.themes.len(), n);
    assert!(matches!(
        coll.themes[n].puzzles[0].question,
        Question::Claim
    ));
}

#[test]
fn review_drills_adds_the_puzzles_and_says_how_many_and_where() {
    let dir = temp_dir("cli");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, GAME).unwrap();
    let out_dir = dir.join("puzzles");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_threefold"))
            .args(["review", "--no-engine", "--drills", "--drills-dir"])
            .arg(&out_dir)
            .arg("--pgn")
            .arg(&pgn)
            // Never the real data directory.
            .env("HOME", &dir)
            .env("XDG_DATA_HOME", dir.join("data"))
            .output()
            .unwrap()
    };
    let first = run();
    assert!(first.status.success(), "{first:?}");
    let stdout = String::from_utf8(first.stdout).unwrap();
    let file = out_dir.join(FILE_NAME);
    assert_eq!(
        stdout.lines().last().unwrap(),
        format!(
            "3 puzzles added to {}: drills, theme \"From your games\".",
            file.display()
        )
    );
    let second = run();
    let stdout = String::from_utf8(second.stdout).unwrap();
    assert_eq!(
        stdout.lines().last().unwrap(),
        format!("All 3 puzzles are already in {}.", file.display())
    );
    assert!(!dir.join("data").exists());
    let check = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(["drills", "--check"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(check.status.success(), "{check:?}");
}

/// The ids of the puzzles of GAME, as every version has written them (a file written before
/// must be recognised: the same finding is never added twice).
const GAME_IDS: [&str; 3] = [
    "game-1796ee68a095ea28",
    "game-8958d882f27823d7",
    "game-c936743a21ed52b7",
];

/// A scan of many games makes each puzzle once, however often it is found, and none that the
/// file already holds: the collector holds the new puzzles only (it used to hold every
/// finding's puzzle, each with the game's moves, and add them at the end).
#[test]
fn a_scan_makes_each_puzzle_once_and_none_that_the_file_holds() {
    let dir = temp_dir("collect");
    let path = dir.join(FILE_NAME);
    let (rec, game) = game();
    let review = review_claims(&game, &GameRecord::from_pgn(&rec));
    let mut c = from_games::Collector::open(&path).unwrap();
    for _ in 0..3 {
        assert!(c.add_review(&game, &review, None).is_empty());
    }
    assert_eq!(c.pending(), 3);
    let added = c.write().unwrap();
    assert_eq!(added.added, GAME_IDS);
    assert!(added.already.is_empty(), "{added:?}");
    let before = std::fs::read(&path).unwrap();
    let mut c = from_games::Collector::open(&path).unwrap();
    assert!(c.add_review(&game, &review, None).is_empty());
    assert_eq!(c.pending(), 0);
    let again = c.write().unwrap();
    assert_eq!(
        again.summary(),
        format!("All 3 puzzles are already in {}.", path.display())
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// `review --all --drills` over the same game three times adds its three puzzles, and does
/// not count the copies as puzzles already in the file.
#[test]
fn review_drills_of_a_game_found_three_times_adds_its_puzzles_once() {
    let dir = temp_dir("thrice");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, [GAME, GAME, GAME].join("\n")).unwrap();
    let out_dir = dir.join("puzzles");
    let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(["review", "--all", "--no-engine", "--drills", "--drills-dir"])
        .arg(&out_dir)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let file = out_dir.join(FILE_NAME);
    assert_eq!(
        stdout.lines().last().unwrap(),
        format!(
            "3 puzzles added to {}: drills, theme \"From your games\".",
            file.display()
        )
    );
    let (theme, problems) = load_file(&file);
    assert!(problems.is_empty(), "{problems:?}");
    let ids: Vec<String> = theme.unwrap().puzzles.into_iter().map(|p| p.id).collect();
    assert_eq!(ids, GAME_IDS);
}

/// The text of a puzzle file that is not valid TOML (line 3).
const BROKEN: &str = "name = \"From your games\"\n\n[[puzzle]\nid = \"mine\"\n";

/// Puzzles are never added to a file that does not parse: the problem is named with its
/// line, nothing is written, and the file is left as it was (puzzles used to be appended
/// to it and reported as added, never to be seen on the drill screen).
#[test]
fn a_file_that_does_not_parse_is_refused_and_left_alone() {
    let dir = temp_dir("unparsed");
    let path = dir.join(FILE_NAME);
    std::fs::write(&path, BROKEN).unwrap();
    let (rec, game) = game();
    let review = review_claims(&game, &GameRecord::from_pgn(&rec));
    let made: Vec<_> = from_games::puzzles_of_review(&game, &review, None)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let e = from_games::add_puzzles(&path, &made).unwrap_err();
    match &e {
        from_games::FromGamesError::NotAPuzzleFile(p) => assert_eq!(p.line, Some(3), "{e}"),
        other => panic!("{other}"),
    }
    assert!(
        e.to_string()
            .starts_with(&format!("{}:3: not valid TOML", path.display())),
        "{e}"
    );
    assert!(from_games::Collector::open(&path).is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), BROKEN);
}

/// `review --drills` with a puzzle file that does not parse refuses before reviewing
/// anything, in one line naming the file and the line, exit 2, the file untouched.
#[test]
fn review_drills_refuses_a_file_that_does_not_parse() {
    let dir = temp_dir("cli-unparsed");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, GAME).unwrap();
    let out_dir = dir.join("puzzles");
    std::fs::create_dir_all(&out_dir).unwrap();
    let file = out_dir.join(FILE_NAME);
    std::fs::write(&file, BROKEN).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(["review", "--no-engine", "--drills", "--drills-dir"])
        .arg(&out_dir)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains("added"), "{stdout}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("error: {}:3: not valid TOML", file.display())),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), BROKEN);
}
