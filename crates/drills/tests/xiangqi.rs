//! The xiangqi ruling drills: every puzzle of `puzzles/xiangqi-*.toml` loads and its stated
//! answer is the WXF judge's; the set covers every question kind and theme; bad input
//! (a malformed FEN, an illegal move, an unknown question) is one line naming file and
//! line; the answers a player types are read and judged.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use threefold_drills::xiangqi::{
    ChaseStatus, Protection, Verdict, XiangqiAnswer, XiangqiQuestion, check, judge_answer,
    load_str, parse_answer, solve,
};
use threefold_drills::{load_builtin, load_dir};
use threefold_xiangqi::Color;

fn puzzles_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles")
}

#[test]
fn every_xiangqi_puzzle_agrees_with_the_judge() {
    let coll = load_dir(&puzzles_dir());
    let problems: Vec<String> = coll.problems.iter().map(|p| p.to_string()).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let mut wrong = Vec::new();
    for p in coll.xiangqi_puzzles() {
        if let Err(m) = check(p) {
            wrong.push(m.to_string());
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(coll.xiangqi_puzzles().count() >= 40);
}

#[test]
fn the_built_in_set_holds_the_xiangqi_files_and_keeps_them_from_the_chess_themes() {
    let dir = load_dir(&puzzles_dir());
    let built = load_builtin();
    assert!(built.problems.is_empty(), "{:?}", built.problems);
    let ids = |c: &threefold_drills::Collection| -> Vec<String> {
        c.xiangqi.iter().map(|t| t.id.clone()).collect()
    };
    assert_eq!(ids(&built), ids(&dir));
    assert!(built.xiangqi.len() >= 6);
    assert!(built.themes.iter().all(|t| !t.id.starts_with("xiangqi")));
    assert!(
        built
            .puzzles()
            .all(|p| built.xiangqi_puzzle(&p.id).is_none())
    );
}

#[test]
fn every_question_kind_and_verdict_is_drilled() {
    let coll = load_builtin();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut verdicts = Vec::new();
    let mut chases = (0, 0, 0);
    let mut protections = (0, 0);
    for p in coll.xiangqi_puzzles() {
        *kinds.entry(p.question.code()).or_default() += 1;
        match &p.question {
            XiangqiQuestion::Ruling { stated } => verdicts.push(*stated),
            XiangqiQuestion::Chase { stated, .. } => match stated {
                ChaseStatus::None => chases.0 += 1,
                ChaseStatus::Check => chases.1 += 1,
                ChaseStatus::Chases(_) => chases.2 += 1,
            },
            XiangqiQuestion::Protected { stated, .. } => {
                if *stated {
                    protections.0 += 1
                } else {
                    protections.1 += 1
                }
            }
            XiangqiQuestion::Break { .. } => {}
        }
    }
    for k in XiangqiQuestion::CODES {
        assert!(kinds.get(k).copied().unwrap_or(0) >= 3, "{k}: {kinds:?}");
    }
    assert!(verdicts.contains(&Verdict::Draw));
    assert!(verdicts.contains(&Verdict::Loses(Color::Red)));
    assert!(chases.0 > 0 && chases.1 > 0 && chases.2 > 0, "{chases:?}");
    assert!(protections.0 > 0 && protections.1 > 0, "{protections:?}");
}

/// One puzzle file's worth of text around one puzzle's keys.
fn file(puzzle: &str) -> String {
    format!(
        "game = \"xiangqi\"\nname = \"t\"\n\n[[puzzle]]\nid = \"x\"\ntitle = \"t\"\n{puzzle}explanation = \"e\"\n"
    )
}

fn problems(text: &str) -> Vec<String> {
    let (_, ps) = load_str(Path::new("bad.toml"), text);
    ps.iter().map(|p| p.to_string()).collect()
}

#[test]
fn a_malformed_fen_is_one_line_naming_file_and_line() {
    let p = problems(&file(
        "start = \"4k4/9/9 w\"\nmoves = \"\"\nask = \"ruling\"\nanswer = \"draw\"\n",
    ));
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with("bad.toml:7: puzzle 'x': 'start': bad FEN"),
        "{p:?}"
    );
}

#[test]
fn an_illegal_move_names_its_line_and_number() {
    let p = problems(&file(
        "start = \"standard\"\nmoves = \"\"\"\nC2=5 h7e7\nR1+9\n\"\"\"\nask = \"ruling\"\nanswer = \"draw\"\n",
    ));
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with("bad.toml:10: puzzle 'x': move 3 ('R1+9'): illegal move"),
        "{p:?}"
    );
}

#[test]
fn an_unknown_ask_names_the_kinds() {
    let p = problems(&file(
        "moves = \"C2=5\"\nask = \"claim\"\nanswer = \"none\"\n",
    ));
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(
        p[0],
        "bad.toml:8: puzzle 'x': unknown ask = \"claim\" (a xiangqi puzzle asks one of: ruling, chase, protected, break)"
    );
}

#[test]
fn question_keys_are_checked_against_the_game() {
    // `at` past the last move with a reply; a capture that is not there; a piece name.
    let p = problems(&file(
        "moves = \"C2=5 h9g7\"\nask = \"chase\"\nat = 2\nanswer = \"none\"\n",
    ));
    assert!(
        p.len() == 1
            && p[0].contains("'at' must be the number of a move that has a reply (1 to 1)"),
        "{p:?}"
    );
    let p = problems(&file(
        "ask = \"protected\"\nattack = \"h2h7\"\nanswer = \"yes\"\n",
    ));
    assert!(
        p.len() == 1 && p[0].contains("cannot legally take"),
        "{p:?}"
    );
    let p = problems(&file(
        "moves = \"h2e2 h9g7\"\nask = \"chase\"\nat = 1\nanswer = [\"dragon e7\"]\n",
    ));
    assert!(p.len() == 1 && p[0].contains("'dragon e7'"), "{p:?}");
    let p = problems(&file(
        "start = \"5k3/7R1/9/9/9/9/9/9/9/4K4 w\"\nmoves = \"R2+1\"\nask = \"protected\"\nattack = \"h9f9\"\nanswer = \"no\"\n",
    ));
    assert!(p.len() == 1 && p[0].contains("a king is checked"), "{p:?}");
}

#[test]
fn a_wrong_answer_is_reported_with_both_answers() {
    let text = file(
        "start = \"5k3/7R1/9/9/9/9/9/9/9/4K4 w\"\nmoves = \"R2+1 K6+1 R2-1 K6-1 R2+1 K6+1 R2-1 K6-1\"\nask = \"ruling\"\nanswer = \"black-loses\"\n",
    );
    let (theme, ps) = load_str(Path::new("bad.toml"), &text);
    assert!(ps.is_empty(), "{ps:?}");
    let p = &theme.unwrap().puzzles[0];
    let m = check(p).unwrap_err().to_string();
    assert_eq!(
        m,
        "bad.toml:10: puzzle 'x': the file says Black loses, Red wins, but the judge computes Red loses, Black wins"
    );
}

#[test]
fn a_ruling_needs_a_completed_repetition() {
    let text = file(
        "start = \"5k3/7R1/9/9/9/9/9/9/9/4K4 w\"\nmoves = \"h8h9 f9f8 h9h8 f8f9\"\nask = \"ruling\"\nanswer = \"red-loses\"\n",
    );
    let (theme, ps) = load_str(Path::new("t.toml"), &text);
    assert!(ps.is_empty(), "{ps:?}");
    let m = check(&theme.unwrap().puzzles[0]).unwrap_err().to_string();
    assert!(m.contains("no answer: no ruling"), "{m}");
}

#[test]
fn typed_answers_are_read_and_judged() {
    let coll = load_builtin();
    let p = coll.xiangqi_puzzle("xq-chase-rook-cannon-move").unwrap();
    let right = parse_answer(p, "Cannon i7").unwrap();
    assert!(judge_answer(p, &right).correct);
    assert!(!judge_answer(p, &parse_answer(p, "none").unwrap()).correct);
    assert!(parse_answer(p, "horsey").is_err());

    let p = coll.xiangqi_puzzle("xq-check-rook-swing").unwrap();
    assert!(judge_answer(p, &parse_answer(p, "black wins").unwrap()).correct);
    assert!(!judge_answer(p, &parse_answer(p, "draw").unwrap()).correct);

    let p = coll.xiangqi_puzzle("xq-prot-rook-behind").unwrap();
    let sol = solve(p).unwrap();
    assert_eq!(sol.answer, XiangqiAnswer::Protected(false));
    assert_eq!(sol.protection, Some(Protection::None));
    let p = coll.xiangqi_puzzle("xq-prot-worth-more").unwrap();
    assert!(matches!(
        solve(p).unwrap().protection,
        Some(Protection::WorthMore { .. })
    ));

    // Every puzzle's computed answer, written as a player would, reads back as itself.
    for p in coll.xiangqi_puzzles() {
        let sol = solve(p).unwrap();
        let typed = parse_answer(p, &sol.answer.code()).unwrap();
        assert_eq!(typed, sol.answer, "{}", p.id);
        assert!(!p.prompt().is_empty());
    }
}

/// The example in `puzzles/README.md` is a puzzle the judge agrees with.
#[test]
fn the_readme_example_loads_and_is_right() {
    let readme = std::fs::read_to_string(puzzles_dir().join("README.md")).unwrap();
    let from = readme
        .find("```toml\ngame = \"xiangqi\"")
        .expect("the xiangqi example");
    let block = &readme[from + "```toml\n".len()..];
    let block = &block[..block.find("```").unwrap()];
    let (theme, ps) = load_str(Path::new("README.md"), block);
    assert!(ps.is_empty(), "{ps:?}");
    let theme = theme.unwrap();
    assert_eq!(theme.puzzles.len(), 1);
    check(&theme.puzzles[0]).unwrap();
}
