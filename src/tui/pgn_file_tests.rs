//! Saving and opening PGN in the trainer, and the small details of the game screen: the
//! game list, the overwrite question, the header of a viewed ply, ASCII, the status line,
//! the too-small screen. Screens are read at 80×24 with TestBackend.

use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, MouseEvent, MouseEventKind};
use shakmaty::Square;

use super::app::{Action, App, InputKind, Screen};
use super::chess::Players;
use super::chess::pgn_file::pick_layout;
use super::chess::{Overlay, Question};
use super::prompt::default_save_name;
use super::tests::{app, click, key, keys, screen, shuffle, typed};
use super::theme::Theme;
use crate::rules::pgn::{UtcMinute, read_records};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("threefold-pgnfile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn app_80x24() -> App {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a
}

/// Type `text` into the open prompt, replacing what was prefilled, and submit it.
fn answer_prompt(a: &mut App, text: &str) {
    a.input.as_mut().expect("a prompt is open").line = super::line_edit::LineEdit::new("");
    keys(a, text);
    key(a, KeyCode::Enter);
}

/// A file of `n` games (at most 32): game i is "White i" against "Black i", the first i
/// plies of a pawn march that repeats no position.
fn many_games(dir: &Path, n: usize) -> PathBuf {
    let moves: Vec<String> = ["3", "4"]
        .iter()
        .flat_map(|r| {
            "abcdefgh".chars().flat_map(move |f| {
                let b = if *r == "3" { "6" } else { "5" };
                [format!("{f}{r}"), format!("{f}{b}")]
            })
        })
        .collect();
    let mut text = String::new();
    for i in 1..=n {
        let result = ["1-0", "0-1", "1/2-1/2", "*"][i % 4];
        text.push_str(&format!(
            "[Event \"Club {i}\"]\n[Date \"2024.01.{:02}\"]\n[White \"White {i}\"]\n\
             [Black \"Black {i}\"]\n[Result \"{result}\"]\n\n",
            i % 28 + 1
        ));
        for (p, m) in moves.iter().take(i).enumerate() {
            if p % 2 == 0 {
                text.push_str(&format!("{}. ", p / 2 + 1));
            }
            text.push_str(m);
            text.push(' ');
        }
        text.push_str(result);
        text.push_str("\n\n");
    }
    let path = dir.join("many.pgn");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_saved_game_has_date_players_result_and_a_standard_termination() {
    let dir = temp("tags");
    let path = dir.join("g.pgn");
    let mut a = app_80x24();
    typed(&mut a, "e4");
    typed(&mut a, "e5");
    a.play.config.human = Players::HumanWhite;
    a.play.config.name = "Ada".to_string();
    a.play.config.level = 4;
    keys(&mut a, "s");
    answer_prompt(&mut a, &path.display().to_string());
    let text = std::fs::read_to_string(&path).unwrap();
    let recs = read_records(&text, "g.pgn").unwrap();
    let tag = |n: &str| recs[0].tag(n).map(str::to_string);
    assert_eq!(tag("Date"), Some(UtcMinute::now().pgn_date()), "{text}");
    assert_eq!(tag("White").as_deref(), Some("Ada"));
    assert_eq!(tag("Black").as_deref(), Some("threefold level 4"));
    assert_eq!(tag("Result").as_deref(), Some("*"));
    assert_eq!(tag("Termination").as_deref(), Some("unterminated"));
    // Against the engine, it is named with its level; a draw claimed is "normal".
    let mut b = app_80x24();
    shuffle(&mut b, 8);
    keys(&mut b, "c1");
    key(&mut b, KeyCode::Esc);
    b.play.config.human = Players::HumanBlack;
    b.play.config.level = 5;
    let recs = read_records(&b.play.pgn_text(), "mem").unwrap();
    assert_eq!(recs[0].tag("White"), Some("threefold level 5"));
    assert_eq!(recs[0].tag("Black"), Some("Player"), "no name given");
    assert_eq!(recs[0].tag("Result"), Some("1/2-1/2"));
    assert_eq!(recs[0].tag("Termination"), Some("normal"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn save_prefills_a_new_name_and_never_overwrites_silently() {
    let dir = temp("overwrite");
    let now = UtcMinute::from_unix(1_000_000_000);
    assert_eq!(
        default_save_name("game", now, &dir),
        dir.join("game-20010909-0146.pgn")
    );
    std::fs::write(dir.join("game-20010909-0146.pgn"), "x").unwrap();
    assert_eq!(
        default_save_name("game", now, &dir),
        dir.join("game-20010909-0146-2.pgn"),
        "a name that is free"
    );
    let mut a = app_80x24();
    typed(&mut a, "d4");
    keys(&mut a, "s");
    let input = a.input.as_ref().unwrap();
    assert_eq!(input.kind, InputKind::SavePgn);
    assert!(
        input.text().starts_with("game-") && input.text().ends_with(".pgn"),
        "{}",
        input.text()
    );
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("Save PGN as: game-"), "{s}");
    // An existing file: asked first, at 80×24.
    let path = dir.join("kept.pgn");
    std::fs::write(&path, "old").unwrap();
    answer_prompt(&mut a, &path.display().to_string());
    assert_eq!(
        a.play.overlay,
        Some(Overlay::Ask(Question::Overwrite(path.clone())))
    );
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("kept.pgn exists:"), "{s}");
    assert!(s.contains("overwrite?"), "{s}");
    assert!(s.contains("y overwrite"), "{s}");
    // No: nothing written, the name comes back to be changed.
    keys(&mut a, "n");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    assert_eq!(a.input.as_ref().unwrap().text(), path.display().to_string());
    // Yes: written.
    key(&mut a, KeyCode::Enter);
    keys(&mut a, "y");
    assert!(std::fs::read_to_string(&path).unwrap().contains("1. d4"));
    assert!(a.message.as_ref().unwrap().text.starts_with("Saved"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_multi_game_file_opens_a_list_that_scrolls_at_80x24() {
    let dir = temp("pick");
    let path = many_games(&dir, 30);
    let mut a = app_80x24();
    keys(&mut a, "o");
    answer_prompt(&mut a, &path.display().to_string());
    let Some(Overlay::PickGame(pick)) = &a.play.overlay else {
        panic!("no list: {:?}", a.message);
    };
    assert_eq!(pick.games.len(), 30);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("many.pgn: 30 games"), "{s}");
    assert!(s.contains("1. White 1 – Black 1, Club 1 "), "{s}");
    assert!(s.contains("0-1  2024.01.02      1 ply "), "{s}");
    assert!(s.contains("Enter open"), "{s}");
    assert!(!s.contains("White 30"), "{s}");
    // End goes to the last page; the list follows.
    key(&mut a, KeyCode::End);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("30. White 30 – Black 30"), "{s}");
    assert!(s.contains("of 30"), "{s}");
    // Up, up, Enter: game 28.
    keys(&mut a, "kk");
    key(&mut a, KeyCode::Enter);
    assert!(a.play.overlay.is_none());
    assert_eq!(a.play.game.len(), 28, "{:?}", a.message);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    // Players and result read back and shown; the record's result ends the game.
    assert!(s.contains("GAME OVER  1-0"), "{s}");
    assert!(s.contains("Result 1-0"), "{s}");
    assert!(s.contains("White White 28"), "{s}");
    assert!(s.contains("Black Black 28"), "{s}");
    // PgDn, then a click on a row opens that game; the wheel moves the choice.
    // (The loaded game has moves and no ending by the rules: `o` asks first.)
    keys(&mut a, "oy");
    answer_prompt(&mut a, &path.display().to_string());
    key(&mut a, KeyCode::PageDown);
    a.update(Action::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: 0,
        row: 0,
        modifiers: crossterm::event::KeyModifiers::NONE,
    }));
    let Some(Overlay::PickGame(pick)) = &a.play.overlay else {
        panic!("no list");
    };
    let (_, rows) = pick_layout(pick, a.size);
    // The second page is shown, from the game after the first page's last.
    let page = rows[0].1;
    assert!(page >= 10, "{page} rows a page at 80×24");
    assert_eq!(pick.selected, page + 1);
    let (r, i) = rows[2];
    assert_eq!(i, page + 2);
    click(&mut a, r.x + 3, r.y);
    assert_eq!(a.play.game.len(), i + 1);
    assert!(
        a.message
            .as_ref()
            .unwrap()
            .text
            .contains(&format!("game {}", i + 1))
    );
    // Esc opens nothing.
    keys(&mut a, "oy");
    answer_prompt(&mut a, &path.display().to_string());
    key(&mut a, KeyCode::Esc);
    assert!(a.play.overlay.is_none());
    assert_eq!(a.play.game.len(), i + 1);
    // A file that goes bad after two games: those two are listed, and the problem named.
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "1. e4 *\n\n1. d4 *\n\n1. c4 hello *\n").unwrap();
    a.load_pgn(&bad);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("bad.pgn: 2 games"), "{s}");
    assert!(s.contains("bad.pgn:5:"), "{s}");
    assert!(
        s.contains("'hello'") && s.contains("stops before it"),
        "{s}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_loaded_game_saves_its_own_tags_and_its_result_while_unchanged() {
    let dir = temp("resave");
    let path = many_games(&dir, 3);
    let mut a = app_80x24();
    a.load_pgn(&path);
    keys(&mut a, "j");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.game.len(), 2);
    let recs = read_records(&a.play.pgn_text(), "mem").unwrap();
    assert_eq!(recs[0].tag("White"), Some("White 2"));
    assert_eq!(recs[0].tag("Event"), Some("Club 2"));
    assert_eq!(recs[0].tag("Date"), Some("2024.01.03"));
    assert_eq!(recs[0].tag("Result"), Some("1/2-1/2"));
    assert_eq!(recs[0].result.as_deref(), Some("1/2-1/2"));
    // The record ended it: a move is refused until the player chooses to play on.
    typed(&mut a, "e3");
    assert_eq!(a.play.game.len(), 2);
    keys(&mut a, "P");
    // Played on: the file's result no longer holds.
    typed(&mut a, "e3");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("White 2 – Black 2  (played on)"), "{s}");
    let recs = read_records(&a.play.pgn_text(), "mem").unwrap();
    assert_eq!(recs[0].tag("White"), Some("White 2"));
    assert_eq!(recs[0].tag("Result"), Some("*"));
    // A file of one game opens at once.
    let one = dir.join("one.pgn");
    std::fs::write(&one, "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n").unwrap();
    a.load_pgn(&one);
    assert!(a.play.overlay.is_none());
    assert_eq!(a.play.game.len(), 2);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("GAME OVER  1-0"), "{s}");
    assert!(s.contains("White A") && s.contains("Black B"), "{s}");
    // A new game forgets the file.
    a.new_game(crate::rules::Game::new());
    assert!(a.play.loaded.is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_header_follows_the_ply_viewed() {
    let mut a = app_80x24();
    for m in ["e4", "e5", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3"] {
        typed(&mut a, m);
    }
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("Black's move 4"), "{s}");
    assert!(s.contains("50-move count 5/100"), "{s}");
    assert!(s.contains("▶ Black"), "{s}");
    // Back three plies, to the position after 2...Nf6: White to move, counted as there.
    keys(&mut a, ",,,");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("White's move 3"), "{s}");
    assert!(s.contains("50-move count 2/100"), "{s}");
    assert!(s.contains("▶ White"), "{s}");
    keys(&mut a, ".");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("Black's move 3"), "{s}");
    assert!(s.contains("50-move count 3/100"), "{s}");
    // The start position.
    key(&mut a, KeyCode::Home);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("White's move 1"), "{s}");
    assert!(s.contains("50-move count 0/100"), "{s}");
    assert!(s.contains("▶ White"), "{s}");
}

#[test]
fn ascii_draws_the_board_and_cursor_in_ascii() {
    let mut a = app_80x24();
    a.ascii = true;
    keys(&mut a, "i");
    for theme in [Theme::plain(), Theme::colored()] {
        let (_, buf) = screen(&a, &theme, 80, 24);
        let areas = super::app::render::layout(a.size).unwrap();
        let g = super::app::render::board_geom(&areas, false).unwrap();
        let e2 = g.rect(Square::E2);
        assert_eq!(buf[(e2.x, e2.y)].symbol(), "+");
        for y in areas.board.y..areas.board.bottom() {
            for x in areas.board.x..areas.board.right() {
                let c = buf[(x, y)].symbol();
                assert!(c.is_ascii(), "{c:?} at {x},{y}");
            }
        }
        for x in 0..80 {
            let c = buf[(x, areas.input.y)].symbol();
            assert!(c.is_ascii(), "{c:?} in the prompt");
        }
    }
}

#[test]
fn the_message_clears_when_the_screen_changes() {
    let mut a = app_80x24();
    typed(&mut a, "e9");
    key(&mut a, KeyCode::Esc);
    assert!(a.message.as_ref().unwrap().is_error());
    keys(&mut a, "e");
    assert_eq!(a.screen, Screen::Euwe);
    assert_eq!(a.message, None);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(!s.contains("e9"), "{s}");
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.screen, Screen::Play);
    // A message given by the change itself stays.
    a.info("on the game screen");
    keys(&mut a, "d");
    assert_eq!(a.screen, Screen::Drills);
    assert_ne!(
        a.message.as_ref().map(|m| m.text.as_str()),
        Some("on the game screen")
    );
}

#[test]
fn keys_are_inert_behind_the_enlarge_screen() {
    let mut a = app();
    a.update(Action::Resize(50, 15));
    let (s, _) = screen(&a, &Theme::plain(), 50, 15);
    assert!(s.contains("enlarge to 64×20"), "{s}");
    assert!(s.contains("q quits"), "{s}");
    for k in ["i", "e", "n", "?", "o", "c", " "] {
        keys(&mut a, k);
        assert!(a.input.is_none() && a.play.overlay.is_none(), "{k}");
        assert_eq!(a.screen, Screen::Play, "{k}");
    }
    key(&mut a, KeyCode::Enter);
    click(&mut a, 10, 10);
    assert_eq!(a.play.game.len(), 0);
    assert!(a.play.selected.is_none());
    // Resizing works; then keys do again.
    a.update(Action::Resize(80, 24));
    keys(&mut a, "i");
    assert!(a.input.is_some());
    key(&mut a, KeyCode::Esc);
    // Quitting works while too small.
    a.update(Action::Resize(50, 15));
    keys(&mut a, "q");
    assert!(a.quit);
}

#[test]
fn the_clocks_shown_are_the_viewed_plys() {
    use std::time::Duration;
    let mut a = app_80x24();
    keys(&mut a, "t");
    typed(&mut a, "e4");
    // Time passes: White has a minute left, Black half of one.
    let c = a.play.clock.as_mut().unwrap();
    c.left = [Duration::from_secs(60), Duration::from_secs(30)];
    c.running = None;
    typed(&mut a, "e5");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("0:33"), "{s}");
    // After 1. e4: 5 minutes and the increment for White, 5 minutes for Black.
    keys(&mut a, ",");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("5:03") && s.contains("5:00"), "{s}");
    assert!(!s.contains("0:33"), "{s}");
    // Taken back and played again: noted again.
    key(&mut a, KeyCode::End);
    keys(&mut a, "u");
    typed(&mut a, "d5");
    keys(&mut a, ",");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("5:03"), "{s}");
}

/// A game played with clocks is saved with its TimeControl and each player's time after
/// each move (`[%clk]`), beside the claims; the message gives the whole path.
#[test]
fn a_game_with_clocks_is_saved_with_its_times_and_the_whole_path() {
    let dir = temp("clocks");
    let mut a = app_80x24();
    keys(&mut a, "t"); // 5+3
    shuffle(&mut a, 4);
    keys(&mut a, "c1"); // an incorrect claim: Black gets 2 minutes
    key(&mut a, KeyCode::Enter);
    keys(&mut a, "s");
    let m = a.message.as_ref().unwrap().text.clone();
    assert!(m.contains("A name alone is saved in /"), "{m}");
    let path = dir.join("clocks.pgn");
    answer_prompt(&mut a, &path.display().to_string());
    let text = std::fs::read_to_string(&path).unwrap().replace('\n', " ");
    assert!(text.contains("[TimeControl \"300+3\"]"), "{text}");
    // White moved first: after 1.Nf3 about 5:03 (the increment) of White's time.
    assert!(text.contains("1. Nf3 {[%clk 0:05:0"), "{text}");
    assert!(text.contains("Ng8 {[%clk 0:05:0"), "{text}");
    assert!(text.contains("{[%claim now 9.2]}"), "{text}");
    let m = a.message.as_ref().unwrap().text.clone();
    assert_eq!(m, format!("Saved {}", path.display()));
    // Read back: the claim is there; the clock comments are only comments.
    let rec = crate::rules::pgn::read_records(&text, "clocks.pgn")
        .unwrap()
        .remove(0);
    assert_eq!(rec.claims.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A row of the game list names the event when the file does: games of the same players
/// (or of "?" players) can be told apart.
#[test]
fn a_game_row_names_its_event() {
    let g = crate::rules::pgn::GameSummary {
        index: 3,
        white: "?".into(),
        black: "?".into(),
        result: "*".into(),
        date: "????.??.??".into(),
        event: "Club blitz".into(),
        plies: 12,
    };
    let row = super::chess::pgn_file::row_text(&g, 76);
    assert!(row.starts_with("   3. ? – ?, Club blitz "), "{row}");
    assert!(row.chars().count() <= 76, "{row}");
    let none = crate::rules::pgn::GameSummary {
        event: "?".into(),
        ..g
    };
    assert!(super::chess::pgn_file::row_text(&none, 76).starts_with("   3. ? – ?  "));
}

/// `threefold --pgn FILE` with a file of several games while a game in progress is kept:
/// the question about the kept game comes first, and the file's list of games is shown
/// again once it is answered yes or later (no resumes the kept game instead).
#[test]
fn the_list_of_a_command_line_file_waits_behind_the_kept_game_question() {
    let dir = temp("kept-list");
    let path = many_games(&dir, 3);
    let kept = dir.join("game-in-progress.json");
    let saved = super::files_tests::kept_e4_e5();
    let start = || {
        std::fs::write(&kept, serde_json::to_string(&saved).unwrap()).unwrap();
        let mut a = app_80x24();
        a.play.resume_path = Some(kept.clone());
        // As the trainer starts (tui::run): the file first, then the kept game.
        a.load_pgn(&path);
        a.play.offer_saved_game(saved.clone(), true);
        let (s, _) = screen(&a, &Theme::plain(), 80, 24);
        assert!(
            s.contains("A chess game in progress was kept (2 plies)"),
            "{s}"
        );
        a
    };
    let games = |a: &App| match &a.play.overlay {
        Some(Overlay::PickGame(pick)) => pick.games.len(),
        other => panic!("no list of games: {other:?}"),
    };
    // Yes: the kept game is deleted and the list is there to choose from.
    let mut a = start();
    keys(&mut a, "y");
    assert_eq!(games(&a), 3);
    assert!(!kept.exists());
    // Later: both are kept, and the list comes back.
    let mut a = start();
    key(&mut a, KeyCode::Esc);
    assert_eq!(games(&a), 3);
    assert!(kept.exists());
    // No: the kept game is resumed; no list.
    let mut a = start();
    keys(&mut a, "n");
    assert_eq!(a.play.game.len(), 2);
    assert!(a.play.overlay.is_none(), "{:?}", a.play.overlay);
    let _ = std::fs::remove_dir_all(&dir);
}
