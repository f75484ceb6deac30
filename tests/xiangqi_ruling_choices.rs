//! Positions with game history where the WXF ruling decides the right move
//! (issue 24): `tests/data/xiangqi/ruling_choices.toml`, the file's header
//! describes the fields.
//!
//! The test proves what every entry claims about the rules: the game and
//! the moves are legal, the game so far is not yet a repetition (one more
//! move decides), and the line it names ends in a repetition that
//! [`Record::judge`] at the first repetition (`ntimes` 1, as the search of
//! Tan and Watkinson Medina's engine rules) rules as recorded, with each
//! side's level — and the ruling is the one the entry's kind is about: the
//! side that repeats a forbidden cycle loses, the side that keeps up a
//! permitted one wins or holds.

use threefold::xiangqi::judge::{Outcome, Record};
use threefold::xiangqi::notation::parse_ucci;
use threefold::xiangqi::{Color, Position, RuleAt};

/// A line of play after the game, ending in a repetition, with the ruling.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    /// UCCI moves; the first is one of the entry's `good` (or `bad`) moves.
    moves: String,
    /// `Record::judge(1)` at the end, for the side to move then.
    ruling: String,
    red: String,
    black: String,
    /// Fairy-Stockfish's ruling (pyffish) once the cycle has run once more.
    fsf: String,
    /// Why Fairy-Stockfish rules otherwise, exactly when it does.
    fsf_differs: Option<String>,
}

/// One entry of `ruling_choices.toml`.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Choice {
    name: String,
    kind: String,
    fen: String,
    moves: String,
    good: Vec<String>,
    bad: Vec<String>,
    bad_line: Option<Line>,
    good_line: Option<Line>,
    why: String,
    /// Fairy-Stockfish 11.1's move at `go depth 12` (UCCI ranks).
    fsf_move: String,
}

#[derive(serde::Deserialize)]
struct Choices {
    choice: Vec<Choice>,
}

const KINDS: [&str; 5] = [
    "stop-check",
    "stop-chase",
    "keep-threat",
    "chase-on",
    "take-draw",
];

fn choices() -> Vec<Choice> {
    toml::from_str::<Choices>(include_str!("data/xiangqi/ruling_choices.toml"))
        .expect("ruling_choices.toml parses")
        .choice
}

/// Replays UCCI moves from `record`'s current position.
fn play(record: &mut Record, moves: &str, what: &str) -> Result<(), String> {
    for (i, t) in moves.split_whitespace().enumerate() {
        let m =
            parse_ucci(record.current(), t).map_err(|e| format!("{what} ply {}: {e}", i + 1))?;
        record.push(m);
    }
    Ok(())
}

/// What the mover of a line's first move may get, by kind, and its own
/// level over the cycle (`None`: any): a perpetual check or chase that
/// loses; a permitted (idle) threat that wins or holds; a chase that wins
/// or holds because the opponent checks or chases back; behind, a draw.
fn mover_expectation(kind: &str) -> (&'static [&'static str], Option<&'static str>) {
    match kind {
        "stop-check" => (&["loss"], Some("check")),
        "stop-chase" => (&["loss"], Some("chase")),
        "keep-threat" => (&["win", "draw"], Some("idle")),
        "chase-on" => (&["win", "draw"], Some("chase")),
        _ => (&["draw"], None),
    }
}

fn flip(result: &str) -> &str {
    match result {
        "win" => "loss",
        "loss" => "win",
        other => other,
    }
}

/// What is wrong with one line, if anything.
fn check_line(game: &Record, line: &Line, kind: &str, label: &str) -> Result<(), String> {
    let mover = game.current().side_to_move();
    let mut r = game.clone();
    play(&mut r, &line.moves, label)?;
    if r.earlier_occurrences(r.ply()).is_empty() {
        return Err(format!("{label} does not end in a repetition"));
    }
    let got = r.judge(RuleAt::FirstRepetition);
    let mut wrong = Vec::new();
    if got.outcome.name() != line.ruling {
        wrong.push(format!(
            "{label} ruled {}, recorded {}",
            got.outcome.name(),
            line.ruling
        ));
    }
    for (side, expected, report) in [
        ("red", &line.red, &got.red),
        ("black", &line.black, &got.black),
    ] {
        let level = report.level.map_or("none", |l| l.name());
        if level != expected {
            wrong.push(format!("{label}: {side} is {level}, recorded {expected}"));
        }
    }
    let mover_moves_last = line.moves.split_whitespace().count() % 2 == 1;
    let for_mover = if mover_moves_last {
        flip(&line.ruling)
    } else {
        line.ruling.as_str()
    };
    let (results, level) = mover_expectation(kind);
    if !results.contains(&for_mover) {
        wrong.push(format!(
            "a {kind} entry's {label} gives its first mover a {for_mover}"
        ));
    }
    let mover_level = if mover == Color::Red {
        &line.red
    } else {
        &line.black
    };
    if level.is_some_and(|l| l != mover_level) {
        wrong.push(format!(
            "a {kind} entry's first mover is {mover_level} over the cycle"
        ));
    }
    if !matches!(line.fsf.as_str(), "win" | "loss" | "draw" | "undecided") {
        wrong.push(format!("{label}: fsf '{}'", line.fsf));
    }
    if (line.fsf != line.ruling) != line.fsf_differs.is_some() {
        wrong.push(format!(
            "{label}: fsf_differs must say why exactly when Fairy-Stockfish rules otherwise"
        ));
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\n{}", wrong.join("; "), got.explanation()))
    }
}

/// What is wrong with one entry, if anything.
fn check_choice(c: &Choice) -> Result<(), String> {
    if !KINDS.contains(&c.kind.as_str()) {
        return Err(format!("kind '{}' is none of {KINDS:?}", c.kind));
    }
    if c.why.trim().len() < 80 {
        return Err("every entry needs its reasoning in `why`".into());
    }
    let start = Position::from_fen(&c.fen).map_err(|e| format!("bad FEN: {e}"))?;
    let mut game = Record::new(start);
    play(&mut game, &c.moves, "moves")?;
    if game.current().has_no_moves() {
        return Err("the game is over before the choice".into());
    }
    if game.judge(RuleAt::FirstRepetition).outcome != Outcome::Undecided {
        return Err("the game is already a repetition: the choice must decide it".into());
    }
    if c.good.is_empty() || c.bad.is_empty() {
        return Err("an entry needs good and bad moves".into());
    }
    for (i, m) in c.good.iter().chain(&c.bad).enumerate() {
        parse_ucci(game.current(), m).map_err(|e| format!("good/bad: {e}"))?;
        if c.good.iter().chain(&c.bad).skip(i + 1).any(|n| n == m) {
            return Err(format!("{m} is listed twice among good and bad"));
        }
    }
    parse_ucci(game.current(), &c.fsf_move).map_err(|e| format!("fsf_move: {e}"))?;
    let stop = c.kind.starts_with("stop-");
    let (needed, first_in) = if stop {
        (&c.bad_line, &c.bad)
    } else {
        (&c.good_line, &c.good)
    };
    let Some(line) = needed else {
        return Err(format!(
            "a {} entry needs its {}",
            c.kind,
            if stop { "bad_line" } else { "good_line" }
        ));
    };
    let first = line.moves.split_whitespace().next().unwrap_or_default();
    if !first_in.iter().any(|m| m == first) {
        return Err(format!(
            "the line starts with {first}, not one of {first_in:?}"
        ));
    }
    check_line(
        &game,
        line,
        &c.kind,
        if stop { "bad_line" } else { "good_line" },
    )?;
    // A line the kind is not about (a deviation that repeats too) is still
    // checked when given.
    let other = if stop { &c.good_line } else { &c.bad_line };
    if let Some(other) = other {
        let mut r = game.clone();
        play(&mut r, &other.moves, "other line")?;
        if r.earlier_occurrences(r.ply()).is_empty() {
            return Err("the other line does not end in a repetition".into());
        }
        let got = r.judge(RuleAt::FirstRepetition).outcome.name();
        if got != other.ruling {
            return Err(format!(
                "the other line ruled {got}, recorded {}",
                other.ruling
            ));
        }
    }
    Ok(())
}

/// Every entry: legal, undecided until the choice, and its line ruled as
/// recorded. Every failing entry is listed by name.
#[test]
fn ruling_choices_rule_as_reasoned() {
    let all = choices();
    let failures: Vec<String> = all
        .iter()
        .filter_map(|c| check_choice(c).err().map(|e| format!("'{}': {e}", c.name)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} entries failed:\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n\n")
    );
    let mut names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), all.len(), "names must be unique");
    assert!(all.len() >= 20, "{} entries", all.len());
    for kind in KINDS {
        let n = all.iter().filter(|c| c.kind == kind).count();
        assert!(n >= 3, "{n} entries of kind {kind}");
    }
}

/// The checker rejects what it should.
#[test]
fn choice_checker_rejects_bad_entries() {
    // Figure 2: the rook has chased the cannon from i3 to h3; chasing on loses.
    let good = || {
        Choice {
        name: "fig2".into(),
        kind: "stop-chase".into(),
        fen: "4k4/9/8c/9/9/9/8R/9/9/3K5 b - - 0 1".into(),
        moves: "i7h7 i3h3 h7i7".into(),
        good: vec!["h3h9".into()],
        bad: vec!["h3i3".into()],
        bad_line: Some(Line {
            moves: "h3i3".into(),
            ruling: "win".into(),
            red: "chase".into(),
            black: "idle".into(),
            fsf: "win".into(),
            fsf_differs: None,
        }),
        good_line: None,
        why: "Figure 2 of Tan and Watkinson Medina: the rook attacks the unprotected cannon on every move; a third attack repeats the start and loses.".into(),
        fsf_move: "h3h9".into(),
    }
    };
    assert_eq!(check_choice(&good()), Ok(()));
    let line = |moves: &str, ruling: &str| {
        Some(Line {
            moves: moves.into(),
            ruling: ruling.into(),
            ..good().bad_line.unwrap()
        })
    };
    let cases: Vec<(Choice, &str)> = vec![
        (
            Choice {
                bad: vec!["h3h9".into()],
                ..good()
            },
            "listed twice",
        ),
        (
            Choice {
                good: vec!["h3i4".into()],
                ..good()
            },
            "good/bad",
        ),
        (
            Choice {
                moves: "i7h7 i3h3 h7i7 h3i3".into(),
                ..good()
            },
            "already a repetition",
        ),
        (
            Choice {
                bad_line: line("h3i3 e9f9", "win"),
                ..good()
            },
            "does not end in a repetition",
        ),
        (
            Choice {
                bad_line: line("h3i3", "draw"),
                ..good()
            },
            "ruled win, recorded draw",
        ),
        (
            Choice {
                kind: "take-draw".into(),
                ..good()
            },
            "needs its good_line",
        ),
        (
            Choice {
                kind: "chase-on".into(),
                good: vec!["h3i3".into()],
                bad: vec!["h3h9".into()],
                good_line: line("h3i3", "win"),
                ..good()
            },
            "gives its first mover a loss",
        ),
        (
            Choice {
                kind: "stop-check".into(),
                ..good()
            },
            "first mover is chase",
        ),
        (
            Choice {
                bad_line: Some(Line {
                    fsf: "draw".into(),
                    ..good().bad_line.unwrap()
                }),
                ..good()
            },
            "fsf_differs",
        ),
    ];
    for (bad, says) in cases {
        let err = check_choice(&bad).unwrap_err();
        assert!(err.contains(says), "expected '{says}' in: {err}");
    }
}

/// Nodes the engine searches each entry with (a fixed count: the same choice every run).
const ENGINE_NODES: u64 = 100_000;

/// The engine's move and score for an entry's game, with the judge on or off.
fn engine_choice(c: &Choice, judge: bool) -> (String, String) {
    use std::sync::atomic::AtomicBool;
    use threefold::engine::{Engine, Limits, Request, Score};
    let start = Position::from_fen(&c.fen).expect("a legal FEN");
    let mut record = Record::new(start.clone());
    play(&mut record, &c.moves, "moves").expect("legal moves");
    let line: Vec<_> = (1..=record.ply()).map(|p| record.move_at(p)).collect();
    let mut engine = Engine::new(16).expect("a 16 MB table");
    engine.set_judge(judge);
    let limits = Limits {
        nodes: Some(ENGINE_NODES),
        ..Limits::default()
    };
    let r = engine.search(
        &Request::new(&start, &line, &limits, &AtomicBool::new(false)),
        &mut (),
        &mut |_| {},
    );
    let score = match r.score {
        Score::Cp(cp) => format!("{cp:+} cp"),
        Score::Mate(n) if n > 0 => format!("wins in {n}"),
        Score::Mate(n) => format!("loses in {}", -n),
    };
    (r.best.expect("a legal move").ucci(), score)
}

/// The engine at a fixed node count, with the judge on (the default) and off: with the judge
/// it plays a right move in every entry. Run with `--nocapture` for the README's table (the
/// choice without the judge is printed, not asserted: where the ruling is a draw or the
/// history gives the engine a better move anyway, it may be right too).
#[test]
fn the_engine_with_the_judge_plays_a_right_move() {
    let mut wrong = Vec::new();
    println!("| position | kind | right | judge on | judge off |");
    println!("|---|---|---|---|---|");
    for c in choices() {
        let (on, on_score) = engine_choice(&c, true);
        let (off, off_score) = engine_choice(&c, false);
        let mark = |m: &str| {
            if c.good.iter().any(|g| g == m) {
                "right"
            } else if c.bad.iter().any(|b| b == m) {
                "wrong"
            } else {
                "other"
            }
        };
        println!(
            "| {} | {} | {} | {on} {} ({on_score}) | {off} {} ({off_score}) |",
            c.name,
            c.kind,
            c.good.join(", "),
            mark(&on),
            mark(&off)
        );
        if !c.good.contains(&on) {
            wrong.push(format!("{}: {on} ({on_score})", c.name));
        }
    }
    assert!(wrong.is_empty(), "the engine chose wrong: {wrong:#?}");
}
