//! Drills: puzzles about repetition, claims and endings, read from
//! human-editable TOML files (one file per theme, in `puzzles/`), with every
//! stated answer checked against the rules core, a judge for the drill
//! screen, and per-theme progress.
//!
//! # The puzzle format
//!
//! ```toml
//! name = "Threefold: the basics"          # the theme's display name
//! description = "Counting positions, not moves."
//!
//! [[puzzle]]
//! id = "basics-knights-out-and-back"     # unique over all files
//! title = "Knights out and back"
//! start = "standard"                     # or a FEN
//! moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
//! ask = "claim"                          # see below
//! answer = "threefold"
//! explanation = "The start position stood ... (FIDE 9.2 b)."
//! tags = ["threefold", "9.2b"]
//! difficulty = 1                         # 1 to 5
//! source = "..."                         # optional: where a real game comes from
//! prompt = "..."                         # optional: wording of the question
//! ```
//!
//! | `ask`         | extra keys             | `answer`                                              |
//! |---------------|------------------------|-------------------------------------------------------|
//! | `claim`       |                        | `"none"`, `"threefold"`, `"fifty"`, `"both"`          |
//! | `intended`    | `move = "Nf3"`         | `"none"`, `"threefold"`, `"fifty"`, `"both"`          |
//! | `claim-moves` |                        | `["Nf3", "Ng1"]` (all moves allowing a 9.2 a claim)   |
//! | `count`       | `at = "4...Ng8"` (opt) | `{ count = 3, after = ["start", "2...Ng8", "4...Ng8"] }` |
//! | `same`        | `first`, `second`      | `"yes"` / `"no"`                                      |
//! | `ending`      |                        | `"no"`, `"checkmate"`, `"stalemate"`, `"insufficient"`, `"fivefold"`, `"seventy-five"` |
//!
//! Positions are named "start" or by scoresheet label without check marks
//! ("12.Nf3", "12...Nf6"), or by ply number (0 = start).
//!
//! Xiangqi ruling drills live in files with `game = "xiangqi"`: their own types, loader
//! and answers from the WXF judge, in [`xiangqi`], collected in [`Collection::xiangqi`]
//! apart from the chess themes.
//!
//! The modules: [`types`] (a puzzle, its question and answer, a theme), [`load`] (puzzle
//! files read with spans, so every problem names its file and line), [`builtin`] (the files
//! of `puzzles/` built into the binary), [`check`](mod@check) (answers computed by the rules core: a
//! file's stated answer checked, a player's answer judged), [`from_games`] (puzzles from your
//! own games' review), [`progress`] (score, streak and the Leitner schedule, kept in the data
//! directory), [`session`] (what the drill screen holds and which puzzle comes next),
//! [`shown`] (what the drill screens show of a position before the answer: a FEN without
//! move counters, the last capture or pawn move), [`motif`] (a puzzle's motif: the per-theme
//! limit and the draw's rule), [`scenario`] (real games a few moves before a repetition:
//! format, loader, checks) and [`xiangqi`] (the xiangqi ruling drills).
//!
//! # For the drill screen
//!
//! ```no_run
//! use threefold_drills::{Pick, Session, parse_answer};
//!
//! let mut s = Session::open(); // built-in puzzles + progress in the data dir
//! for note in s.messages.drain(..) { eprintln!("{note}"); } // e.g. corrupt progress moved aside
//! let theme = &s.collection.themes[0];
//! let (tid, tname) = (theme.id.clone(), theme.name.clone());
//! let score = s.progress.theme(&tid); // attempts, correct, streak, best_streak, solved
//! let p = s.next(&Pick::Theme(tid.clone())).unwrap().clone(); // the session picks
//! let game = p.game(); // the rules core's Game: board, move list, ply labels
//! println!("{tname} ({} correct, streak {}): {}", score.correct, score.streak, p.prompt());
//! let answer = parse_answer(&p, "threefold").unwrap(); // or build an Answer directly
//! let fb = s.answer(&p.id, &answer).unwrap(); // judged, recorded, saved
//! println!("{} {} {:?}", fb.correct, fb.explanation, fb.plies_to_highlight);
//! # let _ = game;
//! ```

pub mod builtin;
pub mod check;
pub mod from_games;
pub mod load;
pub mod motif;
pub mod progress;
pub mod scenario;
pub mod session;
pub mod shown;
pub mod types;
pub mod xiangqi;

use std::path::Path;

pub use builtin::load_builtin;
pub use check::{
    AnswerError, Checker, Feedback, Mismatch, Solution, SolveError, UnshownMove, check,
    check_moves_named, judge, parse_answer, solve,
};
pub use load::{GameKind, add_file, load_dir, load_file, load_str, load_texts};
pub use progress::{Progress, ProgressError, ProgressStore, ThemeProgress};
pub use session::{Pick, Session};
pub use types::{
    Answer, ClaimRule, Collection, EndingRule, Origin, PlyRef, PlySet, Problem, Puzzle, Question,
    Start, Theme,
};

/// `threefold drills --check PATH`: load every puzzle file of directory `dir` (or the one
/// file `dir` names, e.g. `from-your-games.toml` in the data directory) and check every
/// stated answer against the rules core, and every move an explanation names against the
/// moves shown ([`check_moves_named`]). Returns the lines to print
/// (one per problem, "file:line: what is wrong"; or one summary line when
/// all is well) and whether all is well.
pub fn cli_check(dir: &Path) -> (Vec<String>, bool) {
    // Anything there but a directory is read as a file, so that a FIFO or a device is
    // named as what it is (by the one file reader) rather than as "not a directory".
    let coll = if dir.is_dir() || !dir.exists() {
        load_dir(dir)
    } else {
        let mut c = Collection::default();
        add_file(&mut c, dir);
        c
    };
    check_collection(&coll, &dir.display().to_string())
}

/// [`cli_check`] of `puzzles` and, when there is one, the scenario directory `scenarios`
/// beside it (`threefold drills --check` in the source tree): one collection, so that ids
/// are unique over both.
pub fn cli_check_dirs(puzzles: &Path, scenarios: &Path) -> (Vec<String>, bool) {
    let coll = if scenarios.is_dir() {
        load::load_dirs(&[puzzles, scenarios])
    } else {
        load_dir(puzzles)
    };
    check_collection(&coll, &puzzles.display().to_string())
}

/// [`cli_check`] of the puzzles built into the binary (`threefold drills --check` where
/// there is no `puzzles/` directory).
pub fn cli_check_builtin() -> (Vec<String>, bool) {
    check_collection(&load_builtin(), "the built-in puzzles")
}

fn check_collection(coll: &Collection, name: &str) -> (Vec<String>, bool) {
    let mut lines: Vec<String> = coll.problems.iter().map(|p| p.to_string()).collect();
    let mut n = 0;
    for p in coll.puzzles() {
        n += 1;
        if let Err(m) = check(p) {
            lines.push(m.to_string());
        }
        if let Err(m) = check_moves_named(p) {
            lines.push(m.to_string());
        }
    }
    let mut nx = 0;
    for p in coll.xiangqi_puzzles() {
        nx += 1;
        if let Err(m) = xiangqi::check(p) {
            lines.push(m.to_string());
        }
    }
    for sc in &coll.scenarios {
        lines.extend(scenario::check(sc));
    }
    // The motif limit, chess theme by theme ([`motif`]); not on "From your games", whose
    // puzzles are the review's findings, several from one game.
    for t in &coll.themes {
        if t.id != from_games::THEME_ID {
            lines.extend(motif::check_theme(
                &t.file,
                t.puzzles.iter().map(|p| (p.id.as_str(), p.motif())),
            ));
        }
    }
    if lines.is_empty() {
        let s = |k: usize| if k == 1 { "" } else { "s" };
        let mut parts = Vec::new();
        // A file or directory of xiangqi puzzles only is summed up without "0 puzzles".
        if !coll.themes.is_empty() || (coll.xiangqi.is_empty() && coll.scenarios.is_empty()) {
            parts.push(format!(
                "{n} puzzle{} in {} theme{}; every stated answer agrees with the rules core \
                 and every move an explanation names is shown",
                s(n),
                coll.themes.len(),
                s(coll.themes.len()),
            ));
        }
        if !coll.xiangqi.is_empty() {
            parts.push(format!(
                "{nx} xiangqi puzzle{} in {} theme{}, every answer the WXF judge's",
                s(nx),
                coll.xiangqi.len(),
                s(coll.xiangqi.len()),
            ));
        }
        if !coll.scenarios.is_empty() {
            let k = coll.scenarios.len();
            parts.push(format!(
                "{k} scenario{}, each repetition where it says",
                s(k)
            ));
        }
        let summary = format!("{name}: {}", parts.join("; "));
        (vec![summary], true)
    } else {
        (lines, false)
    }
}
