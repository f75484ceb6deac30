//! The drill screen: keys and mouse through the App, TestBackend rendering.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;

use crate::drills::{Answer, ProgressStore, Puzzle, Session, load_builtin, solve};
use crate::rules::Game;
use shakmaty::Position;

use super::{DrillState, Layout, Pick, PuzzleAreas, PuzzleState, View};
use crate::tui::app::{Action, App, Overlay, Screen};
use crate::tui::chess::Players;
use crate::tui::config::Config;
use crate::tui::tests::{click, key, keys};
use crate::tui::theme::Theme;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("threefold-drill-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An app whose drill session keeps its progress in a temp dir.
fn app(name: &str) -> (App, PathBuf) {
    let cfg = Config {
        human: Players::TwoHumans,
        ..Config::default()
    };
    let mut a = App::new(&cfg, Game::new());
    a.update(Action::Resize(120, 40));
    let dir = temp(name);
    let store = ProgressStore::at(dir.join("progress.toml"));
    a.drills = Some(Box::new(DrillState::new(Session::with(
        load_builtin(),
        Some(store),
    ))));
    (a, dir)
}

fn screen(a: &App, theme: &Theme) -> (String, Buffer) {
    crate::tui::tests::screen(a, theme, a.size.width, a.size.height)
}

fn text(a: &App) -> String {
    screen(a, &Theme::colored()).0
}

fn drills(a: &App) -> &DrillState {
    assert_eq!(a.screen, Screen::Drills, "not on the drill screen");
    a.drills.as_deref().expect("drills opened")
}

fn drills_mut(a: &mut App) -> &mut DrillState {
    assert_eq!(a.screen, Screen::Drills, "not on the drill screen");
    a.drills.as_deref_mut().expect("drills opened")
}

fn puzzle(a: &App) -> &PuzzleState {
    match &drills(a).view {
        View::Puzzle(p) => p,
        View::Themes => panic!("no puzzle shown"),
    }
}

/// Open the drill screen and show the first puzzle asking `code`.
fn show(a: &mut App, code: &str) -> Puzzle {
    if a.screen != Screen::Drills {
        keys(a, "d");
    }
    let d = drills_mut(a);
    let p = d
        .session
        .collection
        .puzzles()
        .find(|p| p.question.code() == code)
        .unwrap()
        .clone();
    d.view = View::Puzzle(Box::new(PuzzleState::new(Pick::All, p.clone())));
    p
}

/// The puzzle view's layout (the one drawing and clicks use).
fn areas(a: &App) -> PuzzleAreas {
    match drills(a).layout(a.size) {
        Some(Layout::Puzzle(p)) => p,
        other => panic!("no puzzle layout: {other:?}"),
    }
}

/// The ruling shown: (correct, given).
fn feedback(a: &App) -> crate::drills::Feedback {
    puzzle(a)
        .ruling
        .as_ref()
        .expect("answered")
        .feedback
        .clone()
}

fn right_answer(p: &Puzzle) -> Answer {
    solve(p).unwrap().answer
}

#[test]
fn d_opens_the_theme_list_with_scores_and_esc_goes_back() {
    let (mut a, _dir) = app("list");
    keys(&mut a, "d");
    assert_eq!(a.screen, Screen::Drills);
    let s = text(&a);
    assert!(s.contains("All themes"), "{s}");
    assert!(s.contains("Threefold repetition: the basics"), "{s}");
    assert!(s.contains("score   0/0"), "{s}");
    assert!(
        s.contains(&format!("solved  0/{}", every_puzzle().len())),
        "{s}"
    );
    assert!(s.contains("Enter pick"), "{s}");
    keys(&mut a, "jj");
    assert_eq!(drills(&a).row, 2);
    key(&mut a, KeyCode::Up);
    assert_eq!(drills(&a).row, 1);
    key(&mut a, KeyCode::Enter);
    let theme = drills(&a).session.collection.themes[0].id.clone();
    assert_eq!(puzzle(&a).pick, Pick::Theme(theme.clone()));
    assert_eq!(puzzle(&a).puzzle.theme, theme);
    key(&mut a, KeyCode::Esc);
    assert!(matches!(drills(&a).view, View::Themes));
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.screen, Screen::Play);
    // The drill state is kept for the next visit.
    assert!(a.drills.is_some());
    keys(&mut a, "d");
    assert_eq!(drills(&a).row, 1);
}

#[test]
fn a_theme_is_picked_by_click() {
    let (mut a, _dir) = app("click-theme");
    keys(&mut a, "d");
    let Some(Layout::Themes(t)) = drills(&a).layout(a.size) else {
        panic!("no theme list")
    };
    let r = t.rows[3];
    click(&mut a, r.x + 5, r.y);
    let d = drills(&a);
    assert_eq!(d.row, 3);
    assert_eq!(puzzle(&a).puzzle.theme, d.session.collection.themes[2].id);
}

#[test]
fn a_corrupt_progress_file_is_set_aside_with_a_message_shown_once() {
    let cfg = Config::default();
    let mut a = App::new(&cfg, Game::new());
    a.update(Action::Resize(120, 40));
    let dir = temp("corrupt");
    let path = dir.join("progress.toml");
    std::fs::write(&path, "this is = = not toml [[").unwrap();
    a.drills = Some(Box::new(DrillState::new(Session::with(
        load_builtin(),
        Some(ProgressStore::at(&path)),
    ))));
    keys(&mut a, "d");
    let m = a.message.clone().unwrap();
    assert!(m.is_error());
    let msg = m.text;
    assert!(msg.contains("moved to"), "{msg}");
    assert!(text(&a).contains("was unreadable"));
    // Set aside, not deleted.
    let aside = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| e.file_name().to_string_lossy().contains("corrupt"));
    assert!(aside);
    key(&mut a, KeyCode::Esc);
    keys(&mut a, "d");
    assert!(!a.message.clone().unwrap().text.contains("unreadable"));
}

#[test]
fn claim_question_right_by_digit_then_wrong_by_arrows_and_enter() {
    let (mut a, dir) = app("claim");
    let p = show(&mut a, "claim");
    let s = text(&a);
    assert!(s.contains("[1 none]"), "{s}");
    assert!(s.contains("[2 threefold (9.2)]"), "{s}");
    assert!(s.contains("[4 both]"), "{s}");
    let right = right_answer(&p);
    let opts = puzzle(&a).options();
    let i = opts.iter().position(|o| o.1 == right).unwrap();
    keys(&mut a, &(i + 1).to_string());
    let fb = feedback(&a);
    assert!(fb.correct);
    let s = text(&a);
    assert!(s.contains("✓ Right!"), "{s}");
    assert!(s.contains(&p.explanation[..30]), "{s}");
    assert!(s.contains("score 1/1"), "{s}");
    // Progress was saved.
    let saved = std::fs::read_to_string(dir.join("progress.toml")).unwrap();
    assert!(saved.contains(&p.id), "{saved}");
    // Next puzzle: a different one.
    keys(&mut a, "n");
    assert_ne!(puzzle(&a).puzzle.id, p.id);
    assert!(puzzle(&a).ruling.is_none());
    // A claim question answered wrong with the arrows and Enter.
    let q = show(&mut a, "intended");
    let opts = puzzle(&a).options();
    let wrong = opts.iter().position(|o| o.1 != right_answer(&q)).unwrap();
    for _ in 0..wrong {
        key(&mut a, KeyCode::Right);
    }
    assert_eq!(puzzle(&a).option, wrong);
    key(&mut a, KeyCode::Enter);
    let fb = feedback(&a);
    assert!(!fb.correct);
    let s = text(&a);
    assert!(s.contains("✗ Wrong."), "{s}");
    assert!(s.contains("The answer:"), "{s}");
    assert!(s.contains("n next"), "{s}");
}

#[test]
fn wrong_answers_reset_the_streak_and_keys_after_the_ruling_do_not_answer_again() {
    let (mut a, _dir) = app("streak");
    let p = show(&mut a, "same");
    let right = right_answer(&p);
    let wrong_key = if right == Answer::Same(true) {
        "n"
    } else {
        "y"
    };
    keys(&mut a, wrong_key);
    assert!(!feedback(&a).correct);
    // 'y' after the ruling does nothing; 'n' is the next puzzle.
    keys(&mut a, "y");
    let t = drills(&a).session.progress.theme(&p.theme);
    assert_eq!((t.attempts, t.correct, t.streak), (1, 0, 0));
}

#[test]
fn same_question_yes_no_buttons() {
    let (mut a, _dir) = app("same");
    let p = show(&mut a, "same");
    let s = text(&a);
    assert!(s.contains("[1 yes, the same]"), "{s}");
    assert!(s.contains("[2 no, different]"), "{s}");
    assert!(s.contains("y/n"), "{s}");
    let k = if right_answer(&p) == Answer::Same(true) {
        "y"
    } else {
        "n"
    };
    keys(&mut a, k);
    assert!(feedback(&a).correct);
    // The compared plies are marked in the move list.
    let hl = puzzle(&a).highlighted().to_vec();
    assert!(!hl.is_empty());
    assert!(text(&a).contains("Marked * in the move list"));
}

#[test]
fn ending_question_answered_by_clicking_a_button() {
    let (mut a, _dir) = app("ending");
    let p = show(&mut a, "ending");
    let s = text(&a);
    assert!(s.contains("[6 75 moves (9.6.2)]"), "{s}");
    let right = right_answer(&p);
    let i = puzzle(&a)
        .options()
        .iter()
        .position(|o| o.1 == right)
        .unwrap();
    let r = areas(&a).buttons[i];
    click(&mut a, r.x + 2, r.y);
    assert!(feedback(&a).correct);
}

#[test]
fn count_question_choose_plies_with_space_and_click() {
    let (mut a, _dir) = app("count");
    let p = show(&mut a, "count");
    let s = text(&a);
    assert!(s.contains("Count: 0"), "{s}");
    let Answer::Count(plies) = right_answer(&p) else {
        panic!()
    };
    let plies = plies.as_slice().to_vec();
    // Enter with nothing chosen is refused.
    key(&mut a, KeyCode::Enter);
    assert!(puzzle(&a).ruling.is_none());
    assert!(a.message.clone().unwrap().is_error());
    // Choose all but the first by cursor and Space, the first by a click.
    let len = puzzle(&a).game().len();
    for &ply in plies.iter().skip(1).rev() {
        while puzzle(&a).cursor > ply {
            key(&mut a, KeyCode::Up);
        }
        assert_eq!(puzzle(&a).cursor, ply);
        keys(&mut a, " ");
    }
    // Toggle twice: unchosen again.
    keys(&mut a, "  ");
    assert_eq!(puzzle(&a).chosen.len(), plies.len() - 1);
    assert!(len >= puzzle(&a).cursor);
    let s = text(&a);
    assert!(s.contains(&format!("Count: {}", plies.len() - 1)), "{s}");
    assert!(s.contains('['), "{s}");
    let cell =
        crate::tui::widgets::history_cells_in(puzzle(&a).game(), plies[0], areas(&a).history)
            .into_iter()
            .find(|c| c.1 == plies[0])
            .unwrap()
            .0;
    // Scroll so the first ply is visible, then click it.
    while puzzle(&a).cursor > plies[0] {
        key(&mut a, KeyCode::Up);
    }
    click(&mut a, cell.x + 1, cell.y);
    assert_eq!(puzzle(&a).chosen, plies);
    key(&mut a, KeyCode::Enter);
    let fb = feedback(&a);
    assert!(fb.correct, "{fb:?}");
    assert_eq!(fb.plies_to_highlight, plies);
}

#[test]
fn claim_moves_typed_one_by_one_and_on_the_board() {
    let (mut a, _dir) = app("moves");
    let p = show(&mut a, "claim-moves");
    assert!(text(&a).contains("Your moves: none yet"));
    let Answer::Moves(right) = right_answer(&p) else {
        panic!()
    };
    let game = puzzle(&a).game().clone();
    let sans: Vec<String> = right
        .iter()
        .map(|m| shakmaty::san::San::from_move(game.position(), *m).to_string())
        .collect();
    if sans.is_empty() {
        key(&mut a, KeyCode::Enter);
        assert!(feedback(&a).correct);
        return;
    }
    // A wrong move typed, then removed with Backspace.
    let other = game
        .position()
        .legal_moves()
        .into_iter()
        .find(|m| !right.contains(m))
        .unwrap();
    let other_san = shakmaty::san::San::from_move(game.position(), other).to_string();
    keys(&mut a, "i");
    keys(&mut a, &other_san);
    key(&mut a, KeyCode::Enter);
    assert_eq!(puzzle(&a).moves, vec![other]);
    key(&mut a, KeyCode::Backspace);
    assert!(puzzle(&a).moves.is_empty());
    // An unreadable move keeps the input open with an error.
    keys(&mut a, "iZz9");
    key(&mut a, KeyCode::Enter);
    assert!(a.message.clone().unwrap().is_error());
    assert!(a.input.is_some());
    key(&mut a, KeyCode::Esc);
    // The first right move on the board (from, to), the rest typed together.
    let g = areas(&a).geom.unwrap();
    let m = right[0];
    for sq in [m.from().unwrap(), m.to()] {
        let r = g.rect(sq);
        click(&mut a, r.x + 1, r.y);
    }
    assert_eq!(puzzle(&a).moves, vec![m]);
    if sans.len() > 1 {
        keys(&mut a, "i");
        keys(&mut a, &sans[1..].join(" "));
        key(&mut a, KeyCode::Enter);
    }
    assert!(text(&a).contains("Your moves: {"));
    key(&mut a, KeyCode::Enter);
    let fb = feedback(&a);
    assert!(fb.correct, "{fb:?}");
}

#[test]
fn typed_answers_for_choice_questions() {
    let (mut a, _dir) = app("typed");
    let p = show(&mut a, "intended");
    let word = match right_answer(&p) {
        Answer::Claim(r) => r.code(),
        _ => panic!(),
    };
    keys(&mut a, "i");
    keys(&mut a, "maybe");
    key(&mut a, KeyCode::Enter);
    assert!(a.message.clone().unwrap().text.contains("none, threefold"));
    for _ in 0.."maybe".len() {
        key(&mut a, KeyCode::Backspace);
    }
    keys(&mut a, word);
    key(&mut a, KeyCode::Enter);
    assert!(feedback(&a).correct);
}

#[test]
fn feedback_marks_plies_as_text_without_colour() {
    let (mut a, _dir) = app("nocolor");
    let p = show(&mut a, "claim");
    let right = right_answer(&p);
    let i = puzzle(&a)
        .options()
        .iter()
        .position(|o| o.1 == right)
        .unwrap();
    keys(&mut a, &(i + 1).to_string());
    let hl = puzzle(&a).highlighted().to_vec();
    assert!(!hl.is_empty());
    let (s, buf) = screen(&a, &Theme::plain());
    assert!(s.contains("*start") || s.contains("*Ng8"), "{s}");
    for c in buf.content() {
        assert_eq!(c.fg, ratatui::style::Color::Reset);
    }
}

#[test]
fn help_in_drills_lists_the_drill_keys() {
    let (mut a, _dir) = app("help");
    show(&mut a, "count");
    keys(&mut a, "?");
    // The help opens at the section of the screen shown (issue 39): answering.
    assert!(matches!(a.overlay, Some(Overlay::Help { .. })));
    let s = text(&a);
    assert!(s.contains("Drills: answering"), "{s}");
    use crate::tui::keys::Ctx;
    let help = crate::tui::tests::help_over_pages(&mut a, 80, 24);
    assert!(help.contains("Drills: the ruling"), "{help}");
    crate::tui::tests::assert_help_lists(&help, |c| {
        matches!(
            c,
            Ctx::DrillThemes | Ctx::DrillAnswer | Ctx::DrillFeedback | Ctx::Global | Ctx::Input
        )
    });
    key(&mut a, KeyCode::Esc);
    // Status hints come from the key table for the answering context.
    let s = text(&a);
    assert!(s.contains("Space choose"), "{s}");
    assert!(s.contains("Enter submit"), "{s}");
}

#[test]
fn all_themes_takes_puzzles_from_every_theme_in_turn() {
    let (mut a, _dir) = app("all");
    keys(&mut a, "d");
    key(&mut a, KeyCode::Enter);
    let mut themes = Vec::new();
    for _ in 0..drills(&a).session.collection.themes.len() {
        themes.push(puzzle(&a).puzzle.theme.clone());
        keys(&mut a, "s");
    }
    themes.sort();
    themes.dedup();
    assert_eq!(themes.len(), drills(&a).session.collection.themes.len());
}

#[test]
fn small_terminal_does_not_panic() {
    let (mut a, _dir) = app("small");
    for code in ["claim", "count", "claim-moves", "ending", "same"] {
        show(&mut a, code);
        for (w, h) in [(64, 20), (80, 24), (50, 15), (200, 60)] {
            a.update(Action::Resize(w, h));
            let _ = text(&a);
        }
        a.update(Action::Resize(120, 40));
    }
    key(&mut a, KeyCode::Esc);
    a.update(Action::Resize(64, 20));
    let _ = text(&a);
}

#[test]
fn every_builtin_puzzle_renders_its_widget_and_both_rulings() {
    let (mut a, _dir) = app("every");
    keys(&mut a, "d");
    let all: Vec<Puzzle> = drills(&a).session.collection.puzzles().cloned().collect();
    for p in all {
        let right = right_answer(&p);
        for answer in [right.clone(), Answer::Same(true), Answer::count(vec![0])] {
            let d = drills_mut(&mut a);
            d.view = View::Puzzle(Box::new(PuzzleState::new(Pick::All, p.clone())));
            let _ = text(&a);
            let d = drills_mut(&mut a);
            d.answer(answer.clone());
            let s = text(&a);
            let fb = feedback(&a);
            assert_eq!(fb.correct, answer == right, "{}", p.id);
            assert!(
                s.contains(if fb.correct { "Right!" } else { "Wrong." }),
                "{s}"
            );
        }
    }
}

#[test]
fn skipping_walks_through_a_theme() {
    let (mut a, _dir) = app("skip");
    keys(&mut a, "dj");
    key(&mut a, KeyCode::Enter);
    let n = drills(&a).session.collection.themes[0].puzzles.len();
    let mut ids = Vec::new();
    // Twice as many skips as puzzles: the theme holds five of one motif, which the draw
    // never gives twice in a row (issue 39), so some come back before the last is new.
    for _ in 0..2 * n {
        ids.push(puzzle(&a).puzzle.id.clone());
        keys(&mut a, "s");
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n);
}

#[test]
fn theme_list_keeps_the_scores_visible_in_80_columns() {
    let (mut a, _dir) = app("narrow");
    a.update(Action::Resize(80, 24));
    keys(&mut a, "d");
    let s = text(&a);
    assert!(
        s.contains(&format!("solved  0/{}", every_puzzle().len())),
        "{s}"
    );
    assert!(s.contains("solved  0/8"), "{s}");
}

#[test]
fn the_play_screen_names_the_drills_key() {
    let (a, _dir) = app("playhint");
    let s = text(&a);
    assert!(s.contains("d drills"), "{s}");
    // The status bar still ends with back and quit.
    assert!(s.contains("Esc back"), "{s}");
    assert!(s.contains("q quit"), "{s}");
}

// ---------------------------------------------------------------------------
// Nothing gives the answer away before it is given (issue 13), at 80×24.

/// The drill screen at 80×24 showing `p` (not answered yet).
fn at_80x24(name: &str, p: &Puzzle) -> (App, PathBuf) {
    let (mut a, dir) = app(name);
    a.update(Action::Resize(80, 24));
    keys(&mut a, "d");
    drills_mut(&mut a).view = View::Puzzle(Box::new(PuzzleState::new(Pick::All, p.clone())));
    (a, dir)
}

/// Every puzzle file in puzzles/, loaded from disk (the built-in copies are
/// the same files; the drills tests keep the two equal).
fn every_puzzle() -> Vec<Puzzle> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let coll = crate::drills::load_dir(&dir);
    assert!(coll.problems.is_empty(), "{:?}", coll.problems);
    let all: Vec<Puzzle> = coll.puzzles().cloned().collect();
    assert_eq!(all.len(), load_builtin().puzzles().count());
    all
}

fn by_title(title: &str) -> Puzzle {
    every_puzzle()
        .into_iter()
        .find(|p| p.title == title)
        .unwrap_or_else(|| panic!("no puzzle titled {title}"))
}

/// A repetition mark: "×" and a digit.
fn has_mark(s: &str) -> bool {
    s.contains('×')
        && s.split('×')
            .skip(1)
            .any(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

/// The text of each visible move-list cell with its ply.
fn history_cells(a: &App, buf: &Buffer) -> Vec<(usize, String)> {
    let p = puzzle(a);
    crate::tui::widgets::history_cells_in(p.game(), p.cursor, areas(a).history)
        .into_iter()
        .map(|(r, ply)| {
            let text: String = (r.x..r.right()).map(|x| buf[(x, r.y)].symbol()).collect();
            (ply, text)
        })
        .collect()
}

#[test]
fn every_puzzle_hides_its_marks_until_answered_and_shows_them_with_the_ruling() {
    for p in every_puzzle() {
        let (mut a, _dir) = at_80x24("hide", &p);
        let (s, buf) = screen(&a, &Theme::plain());
        assert!(!has_mark(&s), "{}: a mark before the answer\n{s}", p.id);
        for hint in ["claim possible", "occurrence", "Occurrences", "appeared"] {
            assert!(
                !s.contains(hint),
                "{}: {hint:?} before the answer\n{s}",
                p.id
            );
        }
        // The title often names the answer ("Two reasons at once").
        assert!(
            !s.contains(&p.title),
            "{}: the title before the answer\n{s}",
            p.id
        );
        // No repetition styling either (plain theme: rep2/rep3 underline).
        let h = areas(&a).history;
        for y in h.y + 1..h.bottom().saturating_sub(1) {
            for x in h.x..h.right() {
                let m = buf[(x, y)].modifier;
                assert!(
                    !m.contains(ratatui::style::Modifier::UNDERLINED),
                    "{}: a repetition style at {x},{y}\n{s}",
                    p.id
                );
            }
        }
        // What a player at the board knows is there, but the 50-move count: the player
        // counts from the move list (it answers the fifty-move questions). Under "All
        // themes" neither the theme nor the source is named before the answer.
        assert!(!s.contains("50-move count"), "{}\n{s}", p.id);
        assert!(s.contains("'s move "), "{}\n{s}", p.id);
        let theme = &drills(&a).session.collection.theme(&p.theme).unwrap().name;
        assert!(
            !s.contains(theme.as_str()),
            "{}: the theme before the answer\n{s}",
            p.id
        );
        if let Some(source) = &p.source {
            let start: String = source.chars().take(12).collect();
            assert!(
                !s.contains(&start),
                "{}: the source before the answer\n{s}",
                p.id
            );
        }
        // The ruling reveals the marks of the plies shown, and the title.
        drills_mut(&mut a).answer(right_answer(&p));
        let (s, buf) = screen(&a, &Theme::plain());
        let game = p.game();
        for (ply, text) in history_cells(&a, &buf) {
            let occ = game.occurrences(ply);
            if occ >= 2 {
                assert!(
                    text.contains(&format!("×{occ}")),
                    "{}: ply {ply} shows {text:?}, not ×{occ}\n{s}",
                    p.id
                );
            }
        }
        let start: String = p.title.chars().take(20).collect();
        assert!(
            s.contains(&start),
            "{}: no title after the answer\n{s}",
            p.id
        );
    }
}

#[test]
fn the_issues_cases_king_walk_rooks_swap_and_a_claim() {
    // "The king went for a walk": no ×2 on 3...Ke8 would say "no" at once;
    // nothing is marked before the answer, and after it still no ×2 there.
    let p = by_title("The king went for a walk");
    let (mut a, _dir) = at_80x24("walk", &p);
    let s = text(&a);
    assert!(s.contains("3. Ke1"), "{s}");
    assert!(!has_mark(&s), "{s}");
    keys(&mut a, "n");
    let s = text(&a);
    assert!(s.contains("Right!"), "{s}");
    assert!(s.contains("Ke8 ") && !s.contains("Ke8 ×2"), "{s}");
    // "Two rooks change places": 4...Ke8 ×2 only with the ruling.
    let p = by_title("Two rooks change places");
    let (mut a, _dir) = at_80x24("rooks", &p);
    let s = text(&a);
    assert!(s.contains("4. Rcc1") && !s.contains("Ke8 ×2"), "{s}");
    keys(&mut a, "y");
    assert!(text(&a).contains("Ke8 ×2"), "{}", text(&a));
    // A claim puzzle: Ng8 ×3 only with the ruling.
    let p = by_title("Knights out and back, twice");
    let (mut a, _dir) = at_80x24("knights", &p);
    let s = text(&a);
    assert!(s.contains("4. Ng1") && !s.contains("Ng8 ×3"), "{s}");
    keys(&mut a, "2");
    assert!(feedback(&a).correct);
    assert!(text(&a).contains("Ng8 ×3"), "{}", text(&a));
}

#[test]
fn a_question_of_each_kind_fits_80x24_with_what_the_board_tells() {
    for (title, shows) in [
        (
            "Ninety-nine is not enough",
            &["[1 none]", "[4 both]", "Black's move 80", "Can Black claim"][..],
        ),
        (
            "Claim with the fiftieth move",
            &["Black writes Kd6", "[3 fifty (9.3)]", "Black's move"],
        ),
        (
            "Which move lets Black claim?",
            &["Your moves: none yet", "Which moves let Black"],
        ),
        ("Where did it stand?", &["Count: 0", "How many times"]),
        (
            "The king went for a walk",
            &["[1 yes, the same]", "[2 no, different]", "after 3...Ke8"],
        ),
        (
            "Seventy-five moves",
            &["[6 75 moves (9.6.2)]", "'s move", "Is this game over"],
        ),
    ] {
        let p = by_title(title);
        let (a, _dir) = at_80x24("kinds", &p);
        let s = text(&a);
        for want in shows {
            assert!(s.contains(want), "{title}: {want:?} missing\n{s}");
        }
        // The status row names the keys of answering; the move list the FEN key.
        assert!(s.contains("Enter submit"), "{s}");
        assert!(s.contains("F FEN"), "{s}");
    }
}

#[test]
fn the_fen_is_shown_on_request_as_the_standard_writes_it() {
    // The fifty-move drills quote the FEN: the player can read it.
    let p = by_title("A hundred half-moves");
    let (mut a, _dir) = at_80x24("fen", &p);
    key(&mut a, KeyCode::End);
    keys(&mut a, "F");
    let m = a.message.clone().unwrap().text;
    // Before the answer without its move counters (issue 39: the clock answers the question).
    assert_eq!(m, "FEN after 80...Ke5: 8/8/8/4k3/8/3K4/8/5R2 w - -");
    assert!(text(&a).contains("8/8/8/4k3/8/3K4/8/5R2 w - -"));
    // At the start, after the ruling too.
    keys(&mut a, ",,3F");
    let m = a.message.clone().unwrap().text;
    assert_eq!(
        m,
        "FEN of the start position: 8/8/4k3/8/8/3K4/5R2/8 w - - 98 80"
    );
    // En passant: the square is written after the double step although the
    // pinned pawn cannot take (the FEN must not answer "is it the same?").
    let p = by_title("En passant on paper only");
    let (mut a, _dir) = at_80x24("fen-ep", &p);
    keys(&mut a, ",,,,F");
    assert_eq!(puzzle(&a).cursor, 1);
    let m = a.message.clone().unwrap().text;
    assert!(m.ends_with("4r1k1/8/8/3pP3/8/8/8/4K1N1 w - d6"), "{m}");
}

/// The ruling's rows on screen, read page by page with the paging key until
/// the last, put in their places by the "lines a–b of n" line.
fn read_whole_ruling(a: &mut App) -> String {
    let mut lines: Vec<String> = Vec::new();
    for _ in 0..40 {
        let r = areas(a).ruling;
        let (s, _) = screen(a, &Theme::plain());
        let rows: Vec<String> = s
            .lines()
            .skip(r.y as usize)
            .take(r.height as usize)
            .map(|l| {
                l.chars()
                    .skip(r.x as usize)
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect();
        let Some(more) = rows.iter().position(|l| l.contains("lines ")) else {
            return rows.join("\n");
        };
        let tail = rows[more].split("lines ").nth(1).unwrap();
        let (range, of) = tail.split_once(" of ").unwrap();
        let (from, to) = range.split_once('–').unwrap();
        let (from, to): (usize, usize) = (from.parse().unwrap(), to.parse().unwrap());
        let n: usize = of.trim_end_matches(" ──").trim().parse().unwrap();
        lines.resize(n, String::new());
        for (i, row) in rows[..more].iter().enumerate() {
            lines[from - 1 + i] = row.clone();
        }
        if to == n {
            return lines.join("\n");
        }
        keys(a, " ");
    }
    panic!("the ruling never reached its end");
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_whole_ruling_can_be_read_at_80x24_a_page_at_a_time() {
    let mut paged = 0;
    for p in every_puzzle() {
        let (mut a, _dir) = at_80x24("ruling", &p);
        drills_mut(&mut a).answer(Answer::Same(true));
        let fb = feedback(&a);
        let text = words(&read_whole_ruling(&mut a));
        for para in fb.explanation.split('\n') {
            assert!(
                text.contains(&words(para)),
                "{}: {para:?} not reached in\n{text}",
                p.id
            );
        }
        if !fb.correct {
            assert!(text.contains(&words(&fb.expected)), "{}\n{text}", p.id);
        }
        // Only places the move list can mark are named as marked.
        if let Some(i) = text.find("Marked * in the move list:") {
            assert!(!text[i..].contains("intended move"), "{}\n{text}", p.id);
        }
        // The source, which the header can only begin, is given whole.
        if let Some(src) = &p.source {
            assert!(
                text.contains(&format!("Source: {}", words(src))),
                "{}\n{text}",
                p.id
            );
        }
        if puzzle(&a).ruling.as_ref().unwrap().scroll > 0 {
            paged += 1;
            // Back to the top with the other paging key.
            for _ in 0..10 {
                keys(&mut a, "b");
            }
            assert_eq!(puzzle(&a).ruling.as_ref().unwrap().scroll, 0);
        }
    }
    assert!(paged > 20, "only {paged} rulings needed paging");
}

#[test]
fn the_ruling_is_a_sentence_a_line() {
    let p = by_title("A hundred half-moves");
    let (mut a, _dir) = at_80x24("lines", &p);
    keys(&mut a, "3");
    let s = read_whole_ruling(&mut a);
    // "…make it 100: fifty moves by each player. White, having the move, …"
    let white = s
        .lines()
        .find(|l| l.starts_with("White, having the move"))
        .map(str::to_string);
    assert!(white.is_some(), "{s}");
    assert_eq!(
        super::view::sentences("After 80.Rf1 the count is 99. A claim (FIDE 9.3). Then e.g. this."),
        [
            "After 80.Rf1 the count is 99.",
            "A claim (FIDE 9.3).",
            "Then e.g. this."
        ]
    );
}

#[test]
fn the_mouse_wheel_scrolls_the_ruling_and_steps_the_move_list_elsewhere() {
    let p = by_title("Knights out and back, twice");
    let (mut a, _dir) = at_80x24("wheel", &p);
    keys(&mut a, "2");
    let wheel = |a: &mut App, down: bool, x: u16, y: u16| {
        a.update(Action::Mouse(MouseEvent {
            kind: if down {
                MouseEventKind::ScrollDown
            } else {
                MouseEventKind::ScrollUp
            },
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        }))
    };
    let r = areas(&a).ruling;
    wheel(&mut a, true, r.x + 2, r.y + 2);
    wheel(&mut a, true, r.x + 2, r.y + 2);
    assert_eq!(puzzle(&a).ruling.as_ref().unwrap().scroll, 2);
    wheel(&mut a, false, r.x + 2, r.y + 2);
    assert_eq!(puzzle(&a).ruling.as_ref().unwrap().scroll, 1);
    // Over the move list: a ply back.
    let h = areas(&a).history;
    let len = puzzle(&a).game().len();
    wheel(&mut a, false, h.x + 3, h.y + 2);
    assert_eq!(puzzle(&a).cursor, len - 1);
    assert_eq!(puzzle(&a).ruling.as_ref().unwrap().scroll, 1);
}

#[test]
fn clicks_go_through_the_one_layout_at_80x24() {
    // A button of the answer widget, as drawn.
    let p = by_title("Two rooks change places");
    let (mut a, _dir) = at_80x24("click80", &p);
    let (s, buf) = screen(&a, &Theme::plain());
    let b = areas(&a).buttons[0];
    let drawn: String = (b.x..b.right()).map(|x| buf[(x, b.y)].symbol()).collect();
    assert!(drawn.contains("[1 yes, the same]"), "{drawn:?}\n{s}");
    // A ply of the move list, as drawn: the board shows it.
    let (_, buf) = screen(&a, &Theme::plain());
    let (ply, cell) = history_cells(&a, &buf)
        .into_iter()
        .find(|(_, t)| t.contains("Rca1"))
        .unwrap();
    let (r, _) = crate::tui::widgets::history_cells_in(
        puzzle(&a).game(),
        puzzle(&a).cursor,
        areas(&a).history,
    )
    .into_iter()
    .find(|c| c.1 == ply)
    .unwrap();
    click(&mut a, r.x + 1, r.y);
    assert_eq!(puzzle(&a).cursor, ply, "{cell}");
    click(&mut a, b.x + 2, b.y);
    assert!(feedback(&a).correct);
}

/// A long source is cut with "…" in the header at 80 columns, never mid-air.
#[test]
fn a_long_source_is_clipped_in_the_header() {
    let p = every_puzzle()
        .into_iter()
        .find(|p| p.id == "real-fischer-petrosian-count")
        .unwrap();
    let (mut a, _dir) = at_80x24("source", &p);
    let (s, _) = screen(&a, &Theme::plain());
    let header = s.lines().nth(1).unwrap().trim_end();
    // Not before the answer: a famous game names its claim.
    assert!(!header.contains("Fischer"), "{header}");
    // With the ruling: the title and the source as far as they fit, cut with "…" (the
    // ruling gives them whole); at 120 columns the source shows too.
    drills_mut(&mut a).answer(right_answer(&p));
    let (s, _) = screen(&a, &Theme::plain());
    let header = s.lines().nth(1).unwrap().trim_end();
    assert!(
        header.contains("Fischer-Petrosian 1971: three times, b… ★★★"),
        "{header}"
    );
    a.size = ratatui::layout::Rect::new(0, 0, 160, 40);
    let (s, _) = screen(&a, &Theme::plain());
    let header = s.lines().nth(1).unwrap().trim_end();
    assert!(header.contains("★★★  Fischer-Petrosian, Cand"), "{header}");
}

/// The key bar offers "more" only while the ruling has a next page.
#[test]
fn more_is_offered_only_while_the_ruling_has_a_next_page() {
    let mut checked = 0;
    for p in every_puzzle() {
        let (mut a, _dir) = at_80x24("more", &p);
        drills_mut(&mut a).answer(Answer::Same(true));
        let status = |a: &App| {
            screen(a, &Theme::plain())
                .0
                .lines()
                .last()
                .unwrap()
                .to_string()
        };
        if puzzle(&a).ruling.is_none() {
            continue;
        }
        let pages = (0..20)
            .take_while(|_| {
                let more = status(&a).contains(" more ");
                keys(&mut a, " ");
                more
            })
            .count();
        if pages > 0 {
            checked += 1;
            assert!(!status(&a).contains(" more "), "{}: {}", p.id, status(&a));
            assert!(puzzle(&a).ruling.as_ref().unwrap().scroll > 0, "{}", p.id);
        }
    }
    assert!(checked > 10, "only {checked} rulings paged");
}

/// Home and End (and g/G in the theme list) go to the ends of the drill lists: the themes,
/// and a puzzle's move list before and after the answer.
#[test]
fn home_and_end_go_to_the_ends_of_the_drill_lists() {
    let (mut a, _dir) = app("homeend");
    keys(&mut a, "d");
    let rows = drills(&a).rows();
    assert!(rows > 2);
    key(&mut a, KeyCode::End);
    assert_eq!(drills(&a).row, rows - 1);
    key(&mut a, KeyCode::Home);
    assert_eq!(drills(&a).row, 0);
    keys(&mut a, "G");
    assert_eq!(drills(&a).row, rows - 1);
    keys(&mut a, "g");
    assert_eq!(drills(&a).row, 0);
    // A puzzle's move list: the start, the end, before and after the answer.
    let p = show(&mut a, "count");
    let len = puzzle(&a).game().len();
    assert!(len > 2);
    key(&mut a, KeyCode::Home);
    assert_eq!(puzzle(&a).cursor, 0);
    key(&mut a, KeyCode::End);
    assert_eq!(puzzle(&a).cursor, len);
    drills_mut(&mut a).answer(right_answer(&p));
    assert!(puzzle(&a).ruling.is_some());
    key(&mut a, KeyCode::Home);
    assert_eq!(puzzle(&a).cursor, 0);
    key(&mut a, KeyCode::End);
    assert_eq!(puzzle(&a).cursor, len);
    // The help lists them.
    use crate::tui::keys::{Ctx, help_rows};
    let themes = help_rows(Ctx::DrillThemes);
    assert!(
        themes
            .iter()
            .any(|(k, h)| k.contains("Home") && h == "first theme"),
        "{themes:?}"
    );
    let answer = help_rows(Ctx::DrillAnswer);
    assert!(
        answer
            .iter()
            .any(|(k, h)| k.contains("End") && h == "the end of the move list"),
        "{answer:?}"
    );
}

/// The theme list shows how many puzzles of each theme are due, never which: a puzzle missed
/// today makes its theme "due  1" (and the total), and no title of the theme's puzzles shows.
#[test]
fn the_theme_list_shows_how_many_are_due() {
    let (mut a, _dir) = app("due");
    let d = a.drills.as_mut().unwrap();
    let p = d.session.collection.theme("fifty").unwrap().puzzles[0].clone();
    d.session.today = 20_000;
    d.session.answer(&p.id, &Answer::count(vec![9999]));
    keys(&mut a, "d");
    let s = text(&a);
    let row = |name: &str| {
        s.lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name}: {s}"))
            .to_string()
    };
    assert!(row("All themes").contains("due  1"), "{s}");
    let fifty = &a
        .drills
        .as_ref()
        .unwrap()
        .session
        .collection
        .theme("fifty")
        .unwrap()
        .name;
    assert!(row(fifty).contains("due  1"), "{s}");
    assert!(
        !row("Threefold repetition: the basics").contains("due"),
        "{s}"
    );
    assert!(!s.contains(&p.title), "{s}");
}

/// A theme's name and description from a puzzle file are shown with their
/// control characters escaped (the screen library dropped them unseen).
#[test]
fn file_text_is_shown_with_its_controls_escaped() {
    let (mut a, dir) = app("controls");
    keys(&mut a, "d");
    let d = drills_mut(&mut a);
    d.session.collection.themes[0].name = "Rep\u{1b}[2J".into();
    d.session.collection.themes[0].description = "Bell\u{7} here".into();
    d.row = 1;
    let s = text(&a);
    assert!(s.contains("Rep\\e[2J"), "{s}");
    assert!(s.contains("Bell\\a here"), "{s}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The theme list at 80×24: every theme's name is read whole beside its
/// score, and the highlighted theme's streak is under its description.
#[test]
fn the_theme_list_shows_every_name_whole_at_80x24() {
    let (mut a, _dir) = app("names80");
    keys(&mut a, "d");
    a.update(Action::Resize(80, 24));
    let names: Vec<String> = drills(&a)
        .session
        .collection
        .themes
        .iter()
        .map(|t| t.name.clone())
        .collect();
    let (s, _) = screen(&a, &Theme::plain());
    for n in &names {
        assert!(
            s.lines()
                .any(|l| l.contains(n.as_str()) && l.contains("score")),
            "{n:?} not whole in its row:\n{s}"
        );
    }
    assert!(s.contains("Streak 0 (best 0)."), "{s}");
    key(&mut a, KeyCode::Down);
    let (s, _) = screen(&a, &Theme::plain());
    assert!(s.contains("puzzles. Streak 0 (best 0)."), "{s}");
}

/// Issue 39: under "All themes", 5 right, 1 wrong, 5 right showed "streak 1 (best 1)" in
/// the header and "Streak 2 (best 2)" in the list (the themes' streaks, one or two each).
/// Both now say 5 (best 5), during the puzzle and after its ruling, at 80×24.
#[test]
fn the_all_themes_streak_counts_the_answers_in_a_row() {
    let (mut a, _dir) = app("all-streak");
    a.update(Action::Resize(80, 24));
    keys(&mut a, "d");
    key(&mut a, KeyCode::Enter);
    for (k, right) in [
        true, true, true, true, true, false, true, true, true, true, true,
    ]
    .into_iter()
    .enumerate()
    {
        let p = puzzle(&a).puzzle.clone();
        let answer = if right {
            right_answer(&p)
        } else {
            Answer::count(vec![9999])
        };
        drills_mut(&mut a).answer(answer);
        assert_eq!(feedback(&a).correct, right, "answer {k}");
        if k == 10 {
            let s = text(&a);
            assert!(s.contains("streak 5 (best 5)"), "{s}");
        }
        keys(&mut a, "n");
    }
    let s = text(&a);
    assert!(s.contains("streak 5 (best 5)"), "{s}");
    key(&mut a, KeyCode::Esc);
    let s = text(&a);
    assert!(s.contains("Streak 5 (best 5)."), "{s}");
}

/// Issue 39: no FEN shown before the answer carries move counters (the halfmove clock
/// answers the fifty-move question): every built-in puzzle, at every ply of its move list.
#[test]
fn no_fen_shown_before_the_answer_has_move_counters() {
    let (mut a, _dir) = app("fen-counters");
    keys(&mut a, "d");
    for p in every_puzzle() {
        drills_mut(&mut a).view = View::Puzzle(Box::new(PuzzleState::new(Pick::All, p.clone())));
        for ply in 0..=p.game().len() {
            if let View::Puzzle(q) = &mut drills_mut(&mut a).view {
                q.cursor = ply;
            }
            keys(&mut a, "F");
            let m = a.message.clone().unwrap().text;
            let fen = m.rsplit(": ").next().unwrap();
            assert_eq!(fen.split_whitespace().count(), 4, "{}: {m}", p.id);
            assert!(text(&a).contains(fen), "{}: {m}", p.id);
        }
    }
}

/// The answer buttons' hint is whole at 80×24, or its short form: "a digit or click;
/// Left/Right and Enter; i" was cut before "to type the answer" (the rows below the buttons
/// hold one line).
#[test]
fn the_answer_hint_is_never_cut_at_80x24() {
    for options in [2, 4] {
        let p = every_puzzle()
            .into_iter()
            .find(|p| {
                let q = PuzzleState::new(Pick::All, p.clone());
                q.widget() == super::puzzle::Widget::Choice && q.options().len() == options
            })
            .unwrap();
        let (a, _dir) = at_80x24(&format!("hint-{options}"), &p);
        let s = text(&a);
        assert!(s.contains("to type"), "{options} options:\n{s}");
    }
}

/// The score line is never cut within a number at 80×24 ("solved 9/60" showed "9/6"):
/// its parts go on two rows when one is too narrow.
#[test]
fn the_score_is_whole_at_80x24() {
    let p = by_title("A hundred half-moves");
    let (mut a, _dir) = at_80x24("score-whole", &p);
    let ids: Vec<String> = every_puzzle()
        .iter()
        .filter(|q| q.theme == "identity")
        .take(9)
        .map(|q| q.id.clone())
        .collect();
    let progress = &mut drills_mut(&mut a).session.progress;
    let t = progress.themes.entry("identity".to_string()).or_default();
    t.attempts = 150;
    t.correct = 120;
    t.solved = ids.into_iter().collect();
    progress.all.insert(
        "chess".to_string(),
        crate::drills::progress::Streak {
            streak: 12,
            best_streak: 40,
        },
    );
    let s = text(&a);
    let solved = format!("solved 9/{}", every_puzzle().len());
    for want in ["score 120/150", "streak 12 (best 40)", solved.as_str()] {
        assert!(s.contains(want), "{want}\n{s}");
    }
    // What a player at the board knows, whole too.
    assert!(s.contains("move: 30... (before the moves shown)"), "{s}");
}

/// The theme list's scores are whole at 80×24 however many digits they take ("solved 3/217"
/// was cut): the names give way.
#[test]
fn the_theme_lists_scores_are_whole_at_80x24_with_big_numbers() {
    let (mut a, _dir) = app("list-digits");
    keys(&mut a, "d");
    a.update(Action::Resize(80, 24));
    let ids: Vec<String> = every_puzzle()
        .iter()
        .filter(|q| q.theme == "identity")
        .take(3)
        .map(|q| q.id.clone())
        .collect();
    let progress = &mut drills_mut(&mut a).session.progress;
    let t = progress.themes.entry("identity".to_string()).or_default();
    t.attempts = 1500;
    t.correct = 1200;
    // Due again (long ago): "due  3" ends the row.
    for id in &ids {
        let due = crate::drills::progress::Schedule { level: 0, due: 0 };
        t.schedule.insert(id.clone(), due);
    }
    t.solved = ids.into_iter().collect();
    let (s, _) = screen(&a, &Theme::plain());
    assert!(s.contains("due  3"), "{s}");
    let d = drills(&a);
    let scores: Vec<_> = std::iter::once(d.total())
        .chain(d.session.collection.themes.iter().map(|t| d.score(&t.id)))
        .collect();
    for want in crate::tui::game::drill_score::score_texts(&scores) {
        assert!(s.contains(want.trim_end()), "{want:?} cut:\n{s}");
    }
    assert!(s.contains("score 1200/1500"), "{s}");
    assert!(s.contains(&format!("3/{}", every_puzzle().len())), "{s}");
}
