//! The review screen: opened by its key and from the end of a game, its list (claim findings
//! at once, the engine's after its progress), a jump to a finding with its explanation, the
//! claims the trainer records saved, read back and reviewed; at 80×24 with a tiny budget.

use std::time::{Duration, Instant};

use crossterm::event::KeyCode;

use crate::review::{Budget, FindingKind, Options};
use crate::rules::Game;
use crate::rules::pgn::ClaimMark;
use crate::rules::review::ClaimFindingKind;

use super::app::{Action, App, Screen};
use super::chess::review::{EngineStatus, list_rows, review_layout};
use super::tests::{app, click, find, key, keys, screen, shuffle, typed};
use super::theme::Theme;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/review");

/// An app at 80×24 whose reviews search a few hundred nodes per position.
fn small_app() -> App {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.review.options = Options {
        budget: Some(Budget::Nodes(300)),
        hash_mb: 1,
    };
    a
}

fn show(a: &App) -> String {
    screen(a, &Theme::plain(), 80, 24).0
}

/// Tick until the review's engine part is done.
fn finish(a: &mut App) {
    let t0 = Instant::now();
    while a.review.state.as_ref().is_some_and(|s| s.running()) {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "the review never ended"
        );
        std::thread::sleep(Duration::from_millis(5));
        a.update(Action::Tick(Instant::now()));
    }
}

fn kinds(a: &App) -> Vec<(usize, FindingKind)> {
    a.review
        .state
        .as_ref()
        .unwrap()
        .findings
        .iter()
        .map(|f| (f.ply, f.kind))
        .collect()
}

#[test]
fn the_review_lists_claim_findings_at_once_then_the_engines_and_jumps_to_one() {
    let mut a = small_app();
    // The knights out and back twice, and out again: White could claim at ply 8 (the start
    // position a third time) and did not; Black could have claimed with 4...Ng8.
    shuffle(&mut a, 8);
    typed(&mut a, "Nf3");
    keys(&mut a, "v");
    assert_eq!(a.screen, Screen::Review);
    let s = show(&a);
    assert!(s.contains("Post-game review: 9 plies"), "{s}");
    // At once: the claim findings and the engine's progress.
    assert!(s.contains("5.    White missed claim (9.2 b)"), "{s}");
    assert!(s.contains("Engine: "), "{s}");
    assert!(
        matches!(
            a.review.state.as_ref().unwrap().engine,
            EngineStatus::Running { .. } | EngineStatus::Done { .. }
        ) || s.contains("positions"),
        "{s}"
    );
    // The game is in progress: Black's chance is open now, so it is not shown.
    assert!(
        s.contains("In progress: the position now is left out"),
        "{s}"
    );
    assert!(
        !kinds(&a).iter().any(|&(p, _)| p == 7 || p == 9),
        "{:?}",
        kinds(&a)
    );
    finish(&mut a);
    let s = show(&a);
    assert!(s.contains("positions searched in"), "{s}");
    // The finding selected is on the board, explained.
    let st = a.review.state.as_ref().unwrap();
    let f = st.selected_finding().unwrap().clone();
    assert_eq!(st.ply, f.ply);
    assert!(s.contains("White could have claimed a"), "{s}");
    assert!(s.contains("Board: after 4...Ng8"), "{s}");
    // Stepping the board, then back to the game at that ply.
    keys(&mut a, ",");
    assert_eq!(a.review.state.as_ref().unwrap().ply, 7);
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.screen, Screen::Play);
    assert_eq!(a.play.view, Some(7));
    // Reopened on the same game: the finished review is kept.
    keys(&mut a, "v");
    assert!(!a.review.state.as_ref().unwrap().running());
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.screen, Screen::Play);
}

#[test]
fn claims_made_in_the_trainer_are_saved_read_back_and_reviewed() {
    let dir = std::env::temp_dir().join(format!("threefold-review-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("claims.pgn");
    let mut a = small_app();
    // An incorrect claim at ply 4 (the start position stands twice), then a correct one
    // with the intended move 4...Ng8 (9.2 a).
    shuffle(&mut a, 4);
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Esc);
    shuffle(&mut a, 3);
    keys(&mut a, "c2");
    keys(&mut a, "Ng8");
    key(&mut a, KeyCode::Enter);
    assert!(a.play.game.is_over());
    let marks = |a: &App| {
        a.play
            .record
            .claims
            .iter()
            .map(|c| (c.ply, c.mark))
            .collect::<Vec<_>>()
    };
    assert_eq!(marks(&a), [(4, ClaimMark::Now), (8, ClaimMark::WithMove)]);
    key(&mut a, KeyCode::Esc);
    keys(&mut a, "s");
    a.input.as_mut().unwrap().line = super::line_edit::LineEdit::new(&path.display().to_string());
    key(&mut a, KeyCode::Enter);
    let text = std::fs::read_to_string(&path).unwrap().replace('\n', " ");
    assert!(text.contains("2. Ng1 Ng8 {[%claim now 9.2]}"), "{text}");
    assert!(text.contains("4. Ng1 Ng8 {[%claim move 9.2]}"), "{text}");

    let mut b = small_app();
    keys(&mut b, "o");
    b.input.as_mut().unwrap().line = super::line_edit::LineEdit::new(&path.display().to_string());
    key(&mut b, KeyCode::Enter);
    assert_eq!(marks(&b), marks(&a));
    keys(&mut b, "v");
    finish(&mut b);
    let found = kinds(&b);
    assert!(
        found.contains(&(4, FindingKind::Claim(ClaimFindingKind::IncorrectClaim))),
        "{found:?}"
    );
    assert!(
        found.contains(&(7, FindingKind::Claim(ClaimFindingKind::CorrectClaim))),
        "{found:?}"
    );
    let s = show(&b);
    assert!(s.contains("1/2-1/2"), "{s}");
    assert!(s.contains("2 claims recorded"), "{s}");
    // The incorrect claim, chosen with a click: its FIDE 9.5 consequence is shown.
    let la = review_layout(b.size, b.review.state.as_ref().unwrap().findings.len()).unwrap();
    let st = b.review.state.as_ref().unwrap();
    let i = st
        .findings
        .iter()
        .position(|f| f.kind == FindingKind::Claim(ClaimFindingKind::IncorrectClaim))
        .unwrap();
    let (r, _) = list_rows(&la, st.findings.len(), st.scroll)
        .into_iter()
        .find(|&(_, j)| j == i)
        .expect("on the list");
    click(&mut b, r.x + 2, r.y);
    assert_eq!(b.review.state.as_ref().unwrap().selected, i);
    assert_eq!(b.review.state.as_ref().unwrap().ply, 4);
    let s = show(&b);
    assert!(s.contains("incorrect claim"), "{s}");
    assert!(s.contains("(FIDE 9.5)"), "{s}");
    // Judged under the rule it was made under, as the ruling in the game was.
    assert!(s.contains("White incorrect claim (9.2 b)"), "{s}");
    assert!(s.contains("(FIDE 9.2 b)"), "{s}");
    assert!(!s.contains("9.3"), "{s}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_loaded_from_pgn_is_reviewed_and_offered_at_its_end() {
    let mut a = small_app();
    a.load_pgn(std::path::Path::new(&format!("{DATA}/lost_with_claim.pgn")));
    assert!(a.play.game.is_over());
    // The end of the game offers the review.
    let s = show(&a);
    assert!(
        s.contains("GAME OVER") && s.contains("v review the game"),
        "{s}"
    );
    keys(&mut a, "v");
    finish(&mut a);
    let s = show(&a);
    assert!(s.contains("Post-game review: 11 plies, 1-0"), "{s}");
    assert!(
        s.contains("4...  Black missed claim with move (9.2 a)"),
        "{s}"
    );
}

/// Four knight dances to a third occurrence, each cut off by a pair of pawn moves; returns
/// the dance, to play a fifth.
fn knight_dances(a: &mut App) -> [&'static str; 8] {
    let dance = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    for pawns in [["e4", "e5"], ["d4", "d5"], ["c4", "c5"], ["b3", "b6"]] {
        for m in dance.iter().chain(&pawns) {
            typed(a, m);
        }
    }
    dance
}

/// The list's heading is whole at 80×24: "Findings: 1 of 2  (Up/Down select, click on" was
/// cut (seen under tmux); where the whole keys' words do not fit, shorter ones do.
#[test]
fn the_findings_heading_is_whole_at_80x24() {
    let mut a = small_app();
    a.review.options.budget = None;
    shuffle(&mut a, 8);
    typed(&mut a, "e4");
    keys(&mut a, "v");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    let line = s
        .lines()
        .find(|l| l.contains("Findings: 1 of 2"))
        .unwrap_or_default();
    assert!(line.trim_end().ends_with(')'), "{s}");
    assert!(line.contains("(Up/Down"), "{s}");
}

#[test]
fn the_list_scrolls_at_80x24_with_keys_and_the_wheel() {
    let mut a = small_app();
    // Five knight dances, each to a third occurrence (Black could claim with 4...Ng8, White
    // at once after it), cut off by pawn moves: two findings per dance.
    for m in knight_dances(&mut a) {
        typed(&mut a, m);
    }
    keys(&mut a, "v");
    let n = a.review.state.as_ref().unwrap().findings.len();
    let rows = review_layout(a.size, a.review.state.as_ref().unwrap().findings.len())
        .unwrap()
        .list
        .height as usize;
    assert!(
        n > rows,
        "{n} findings fit in {rows} rows: nothing to scroll"
    );
    // To the last finding: the list scrolls to keep it in view.
    keys(&mut a, "G");
    let st = a.review.state.as_ref().unwrap();
    assert_eq!(st.selected, n - 1);
    assert!(st.scroll > 0);
    let label = st.findings[n - 1].place(&st.game).to_string();
    let (s, buf) = screen(&a, &Theme::plain(), 80, 24);
    let (_, y) = find(&buf, "▶").expect("a row is selected");
    let row = s.lines().nth(y as usize).unwrap();
    assert!(row.contains(&format!("▶{label}")), "{label} in {s}");
    // The wheel steps through the findings too; Home goes back to the top.
    a.update(Action::Mouse(crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::ScrollUp,
        column: 60,
        row: 8,
        modifiers: crossterm::event::KeyModifiers::NONE,
    }));
    assert_eq!(a.review.state.as_ref().unwrap().selected, n - 2);
    keys(&mut a, "g");
    let st = a.review.state.as_ref().unwrap();
    assert_eq!((st.selected, st.scroll), (0, 0));
    finish(&mut a);
}

#[test]
fn closing_the_screen_or_quitting_stops_the_engine() {
    let mut a = small_app();
    a.review.options.budget = Some(Budget::Movetime(Duration::from_secs(30)));
    a.new_game(Game::from_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1").unwrap());
    shuffle_queen(&mut a);
    keys(&mut a, "v");
    assert!(a.review.state.as_ref().unwrap().running());
    let t0 = Instant::now();
    key(&mut a, KeyCode::Esc);
    assert!(a.review.state.is_none(), "the unfinished review is dropped");
    assert!(t0.elapsed() < Duration::from_secs(10));
    keys(&mut a, "v");
    assert!(a.review.state.as_ref().unwrap().running());
    keys(&mut a, "qy");
    assert!(a.quit);
    assert!(a.review.state.is_none());
}

fn shuffle_queen(a: &mut App) {
    for m in ["Qa2", "Kd8", "Qa1", "Ke8"] {
        typed(a, m);
    }
}

#[test]
fn the_review_key_is_in_the_help_and_an_empty_game_has_nothing_to_review() {
    let mut a = small_app();
    keys(&mut a, "v");
    assert_eq!(a.screen, Screen::Play);
    assert!(a.message.as_ref().unwrap().is_error());
    let help = {
        keys(&mut a, "?");
        super::tests::help_over_pages(&mut a, 80, 24)
    };
    super::tests::assert_help_lists(&help, |c| c == super::keys::Ctx::Review);
    assert!(help.contains("v review this game"), "{help}");
}

/// Every finding's whole explanation can be read at 80×24 and at the smallest size: a long
/// one shows a hint on its last row and scrolls (Space) until its last word is on screen.
#[test]
fn a_long_explanation_scrolls_at_80x24() {
    let mut a = small_app();
    knight_dances(&mut a);
    // Incorrect claims (their rulings are the longest texts), then the review.
    shuffle(&mut a, 4);
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Esc);
    shuffle(&mut a, 2);
    keys(&mut a, "c2");
    keys(&mut a, "Nf3");
    key(&mut a, KeyCode::Enter);
    key(&mut a, KeyCode::Esc);
    keys(&mut a, "v");
    let n = a.review.state.as_ref().unwrap().findings.len();
    assert!(n > 2, "{n} findings");
    let mut scrolled = 0;
    for (w, h) in [(80, 24), (super::widgets::MIN_W, super::widgets::MIN_H)] {
        a.update(Action::Resize(w, h));
        for i in 0..n {
            keys(&mut a, &format!("g{}", "j".repeat(i)));
            let text = a.review.state.as_ref().unwrap().findings[i].text.clone();
            let mut seen = String::new();
            for page in 0.. {
                assert!(page < 40, "finding {i} never reaches its end");
                let (_, buf) = screen(&a, &Theme::plain(), w, h);
                let d = review_layout(a.size, n).unwrap().detail;
                let rows: Vec<String> = (d.y..d.bottom())
                    .map(|y| (d.x..d.right()).map(|x| buf[(x, y)].symbol()).collect())
                    .collect();
                let rows = rows.join(" ");
                seen.push_str(&rows);
                seen.push(' ');
                if !rows.contains("… more") {
                    break;
                }
                scrolled += 1;
                keys(&mut a, " ");
            }
            for word in text.split_whitespace() {
                assert!(
                    seen.contains(word),
                    "{w}×{h}, finding {i}: {word:?} never shown in {seen}"
                );
            }
        }
    }
    let d = review_layout(a.size, n).unwrap().detail;
    let longest = a
        .review
        .state
        .as_ref()
        .unwrap()
        .findings
        .iter()
        .map(|f| f.text.len())
        .max();
    assert!(
        scrolled > 0,
        "no explanation was long enough to scroll: {n} findings, detail {d:?}, longest {longest:?}"
    );
}

/// A claim made in the position now was ruled when it was made: a review of the game
/// in progress lists it (the ruling is no answer given early).
#[test]
fn a_claim_made_now_is_reviewed_while_the_game_goes_on() {
    let mut a = small_app();
    shuffle(&mut a, 4);
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Enter);
    keys(&mut a, "v");
    assert_eq!(
        kinds(&a),
        vec![(4, FindingKind::Claim(ClaimFindingKind::IncorrectClaim))]
    );
    let s = show(&a);
    assert!(!s.contains("Nothing to report"), "{s}");
}

/// The review of a knight shuffle (claim findings only) whose puzzles go to a fresh file
/// under the temp dir: the app, that directory and the file's path.
fn reviewing_a_shuffle_with_a_drills_file(
    name: &str,
) -> (App, std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("threefold-review-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join(crate::drills::from_games::FILE_NAME);
    let mut a = small_app();
    a.review.options.budget = None;
    a.drills_file = Some(path.clone());
    shuffle(&mut a, 8);
    typed(&mut a, "Nf3");
    keys(&mut a, "v");
    (a, dir, path)
}

/// The review screen's key adds the finding selected as a drill puzzle of "From your games"
/// (in the file the app names: a temp file here, never the data directory), says where, and
/// says so when it is already there; the drill screen then lists the theme.
#[test]
fn a_missed_claim_becomes_a_drill_puzzle_with_one_key() {
    let (mut a, dir, path) = reviewing_a_shuffle_with_a_drills_file("puzzle");
    let s = show(&a);
    assert!(s.contains("p puzzle"), "the key bar hints the key: {s}");
    let f = a
        .review
        .state
        .as_ref()
        .unwrap()
        .selected_finding()
        .unwrap()
        .clone();
    assert_eq!(
        (f.ply, f.kind),
        (8, FindingKind::Claim(ClaimFindingKind::MissedClaim))
    );
    keys(&mut a, "p");
    let m = a.message.clone().unwrap();
    assert!(!m.is_error(), "{}", m.text);
    assert_eq!(
        m.text,
        format!(
            "1 puzzle added to {}: drills, theme \"From your games\".",
            path.display()
        )
    );
    let (theme, problems) = crate::drills::load_file(&path);
    assert!(problems.is_empty(), "{problems:?}");
    let p = &theme.unwrap().puzzles[0];
    assert_eq!(p.game().len(), 8);
    assert_eq!(
        p.answer,
        crate::drills::Answer::Claim(crate::drills::ClaimRule::Threefold)
    );
    keys(&mut a, "p");
    assert_eq!(
        a.message.as_ref().unwrap().text,
        format!("This puzzle is already in {}.", path.display())
    );
    // The drill screen, opened with that file beside the built-in puzzles, lists the theme.
    let coll = crate::drills::session::with_yours(crate::drills::load_builtin(), Some(&path));
    a.drills = Some(Box::new(super::chess::drill::DrillState::new(
        crate::drills::Session::with(
            coll,
            Some(crate::drills::ProgressStore::at(dir.join("progress.toml"))),
        ),
    )));
    key(&mut a, KeyCode::Esc);
    a.open_drills();
    let s = screen(&a, &Theme::plain(), 120, 40).0;
    assert!(s.contains("From your games"), "{s}");
}

/// A finding that is not a missed or incorrect claim is refused with the library's reason,
/// and nothing is written.
#[test]
fn an_engine_finding_is_not_made_a_puzzle() {
    let (mut a, _dir, path) = reviewing_a_shuffle_with_a_drills_file("nopuzzle");
    let s = a.review.state.as_mut().unwrap();
    s.findings[0].kind = FindingKind::ClaimWorthTaking;
    keys(&mut a, "p");
    let m = a.message.clone().unwrap();
    assert!(m.is_error(), "{}", m.text);
    assert_eq!(
        m.text,
        "The puzzle was not added: only a missed or an incorrect claim becomes a puzzle \
         (this is a claim-worth-taking finding)."
    );
    assert!(!path.exists());
}

/// A puzzle added drops the drill screen's state, so that it reloads its puzzles (the one
/// just added among them) next time it opens; a puzzle already in the file leaves it alone.
#[test]
fn a_puzzle_added_makes_the_drill_screen_reload() {
    let (mut a, _dir, _path) = reviewing_a_shuffle_with_a_drills_file("reload");
    let drills = || {
        Some(Box::new(super::chess::drill::DrillState::new(
            crate::drills::Session::with(crate::drills::load_builtin(), None),
        )))
    };
    a.drills = drills();
    keys(&mut a, "p");
    assert!(a.drills.is_none(), "the drill screen reloads");
    a.drills = drills();
    keys(&mut a, "p");
    assert!(a.drills.is_some(), "nothing new to reload");
}

/// A drills file that does not parse is not added to: the review screen's key says so with
/// the file and its line, writes nothing, and the drill screen keeps its state (it used to
/// append the puzzle, say "1 puzzle added", and the drill screen showed the TOML error).
#[test]
fn a_drills_file_that_does_not_parse_is_refused_on_the_screen() {
    let (mut a, dir, path) = reviewing_a_shuffle_with_a_drills_file("unparsed");
    std::fs::create_dir_all(&dir).unwrap();
    let broken = "name = \"From your games\"\n\n[[puzzle]\nid = \"mine\"\n";
    std::fs::write(&path, broken).unwrap();
    a.drills = Some(Box::new(super::chess::drill::DrillState::new(
        crate::drills::Session::with(crate::drills::load_builtin(), None),
    )));
    keys(&mut a, "p");
    let m = a.message.clone().unwrap();
    assert!(m.is_error(), "{}", m.text);
    assert!(
        m.text.starts_with(&format!(
            "The puzzle was not added: {}:3: not valid TOML",
            path.display()
        )),
        "{}",
        m.text
    );
    assert!(!m.text.contains("added to"), "{}", m.text);
    let s = screen(&a, &Theme::plain(), 200, 24).0;
    assert!(s.contains("The puzzle was not added:"), "{s}");
    assert!(a.drills.is_some(), "nothing new to reload");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text of the review's only finding, of the game on the chess screen.
fn only_finding(a: &mut App) -> (usize, FindingKind, String) {
    keys(a, "v");
    assert_eq!(a.screen, Screen::Review, "{:?}", a.message);
    let s = a.review.state.as_ref().unwrap();
    assert_eq!(s.findings.len(), 1, "{:?}", s.findings);
    let f = &s.findings[0];
    (f.ply, f.kind, f.text.clone())
}

/// A wrong claim before any move is reviewed (a claim is an event worth reviewing), and the
/// ruling's FIDE 9.5 words follow the game's clocks: none here, so no minutes.
#[test]
fn a_claim_before_any_move_is_reviewed_with_the_words_of_a_game_without_clocks() {
    let incorrect = FindingKind::Claim(ClaimFindingKind::IncorrectClaim);
    let mut a = small_app();
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Enter);
    let (ply, kind, text) = only_finding(&mut a);
    assert_eq!((ply, kind), (0, incorrect));
    assert!(text.contains("without clocks no time is added"), "{text}");
    assert!(!text.contains("more minutes"), "{text}");
}

/// Clocks chosen before the first move: the review's ruling gives FIDE 9.5's two minutes.
#[test]
fn clocks_chosen_before_the_first_move_give_the_reviews_ruling_its_minutes() {
    let incorrect = FindingKind::Claim(ClaimFindingKind::IncorrectClaim);
    let mut a = small_app();
    keys(&mut a, "t");
    assert!(a.play.clock.is_some());
    shuffle(&mut a, 4);
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Enter);
    let (ply, kind, text) = only_finding(&mut a);
    assert_eq!((ply, kind), (4, incorrect));
    assert!(text.contains("2 more minutes (FIDE 9.5)"), "{text}");
    assert!(!text.contains("without clocks"), "{text}");
}

/// A sparring game saved and opened again: its file names the sparring side
/// (`[Sparring "Black"]`), and the review of the reopened game lists none of that side's
/// missed claims, as the live review does not (the player's are listed). Without sparring
/// the file names no side and the engine's missed claims are listed.
#[test]
fn a_saved_sparring_game_reviewed_again_lists_no_missed_claim_of_the_engine() {
    use super::chess::Players;
    let dir = std::env::temp_dir().join(format!("threefold-spar-saved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for sparring in [true, false] {
        let mut a = small_app();
        shuffle(&mut a, 8);
        typed(&mut a, "Nf3");
        typed(&mut a, "e5");
        a.play.config.human = Players::HumanWhite;
        a.play.config.sparring = sparring;
        let text = a.play.pgn_text();
        assert_eq!(text.contains("[Sparring \"Black\"]"), sparring, "{text}");
        let path = dir.join(format!("spar-{sparring}.pgn"));
        std::fs::write(&path, &text).unwrap();
        let mut b = small_app();
        b.review.options.budget = None;
        b.load_pgn(&path);
        assert_eq!(b.play.game.len(), 10);
        keys(&mut b, "v");
        let s = b.review.state.as_ref().unwrap();
        let missed: Vec<_> = s
            .findings
            .iter()
            .filter(|f| f.kind.is_missed_claim())
            .map(|f| (f.ply, f.side))
            .collect();
        assert!(missed.contains(&(8, shakmaty::Color::White)), "{missed:?}");
        assert_eq!(
            missed
                .iter()
                .any(|&(_, side)| side == shakmaty::Color::Black),
            !sparring,
            "sparring {sparring}: {missed:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The sparring engine never claims (by design): its side's missed claims are no mistakes
/// and are not listed; the player's are. Without sparring the engine's are listed.
#[test]
fn a_sparring_engines_missed_claims_are_not_its_mistakes() {
    use super::chess::Players;
    let missed = |a: &App| -> Vec<(usize, shakmaty::Color)> {
        let s = a.review.state.as_ref().unwrap();
        s.findings
            .iter()
            .filter(|f| f.kind.is_missed_claim())
            .map(|f| (f.ply, f.side))
            .collect()
    };
    for sparring in [true, false] {
        let mut a = small_app();
        a.review.options.budget = None;
        // The knights out and back twice and out again: Black could have claimed with
        // 4...Ng8 (ply 7) and 5...Nf6 (ply 9), White at once after 4...Ng8 (ply 8); then
        // 5...e5 ends Black's chance.
        shuffle(&mut a, 8);
        typed(&mut a, "Nf3");
        typed(&mut a, "e5");
        a.play.config.human = Players::HumanWhite;
        a.play.config.sparring = sparring;
        keys(&mut a, "v");
        let got = missed(&a);
        assert!(got.contains(&(8, shakmaty::Color::White)), "{got:?}");
        assert_eq!(
            got.iter().any(|&(_, side)| side == shakmaty::Color::Black),
            !sparring,
            "sparring {sparring}: {got:?}"
        );
    }
}
