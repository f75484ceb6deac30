//! The chess game as a whole: new game and quit ask only when a game would be lost, a FEN or PGN asks before replacing it, saving and loading PGN, the kept game, the settings written back, the clocks and flag fall.

use crossterm::event::KeyCode;

use crate::drills::GameKind;
use crate::rules::Game;

use super::app::{Action, App, Overlay, Question};
use super::chess::Players;
use super::chess::{Overlay as PlayOverlay, Question as PlayQuestion};
use super::config::Config;
use super::tests::{app, key, keys, render_header, screen, shuffle, typed};
use super::theme::Theme;

#[test]
fn quit_and_new_game_confirm_only_when_a_game_would_be_lost() {
    let mut a = app();
    keys(&mut a, "q");
    assert!(a.quit);
    let mut a = app();
    typed(&mut a, "e4");
    keys(&mut a, "q");
    assert_eq!(
        a.overlay,
        Some(Overlay::Ask(Question::Quit {
            game: GameKind::Chess
        }))
    );
    keys(&mut a, "n");
    assert!(!a.quit);
    keys(&mut a, "n");
    assert_eq!(
        a.play.overlay,
        Some(PlayOverlay::Ask(PlayQuestion::NewGame))
    );
    keys(&mut a, "y");
    assert_eq!(a.play.game.len(), 0);
    // With a place to keep it, quitting keeps the game: no question.
    let dir = std::env::temp_dir().join(format!("threefold-resume-{}", std::process::id()));
    let mut a = app();
    a.play.resume_path = Some(dir.join("g.json"));
    typed(&mut a, "e4");
    keys(&mut a, "q");
    assert!(a.quit);
    let text = std::fs::read_to_string(dir.join("g.json")).unwrap();
    assert!(text.contains("e2e4"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flag_fall_ends_the_game() {
    let mut a = app();
    a.play.clock = Some(super::chess::Clock::new(
        std::time::Duration::from_millis(50),
        std::time::Duration::ZERO,
    ));
    typed(&mut a, "e4");
    let later = std::time::Instant::now() + std::time::Duration::from_secs(1);
    a.update(Action::Tick(later));
    let t = a.play.game.termination().expect("flag fell");
    assert_eq!(t.ending.result(), "1-0");
    assert!(t.ending.explanation.contains("Black's flag fell"));
    let (s, _) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("GAME OVER"));
}

#[test]
fn flag_fall_against_a_lone_king_is_a_draw() {
    let cfg = Config {
        human: Players::TwoHumans,
        ..Config::default()
    };
    let mut a = App::new(
        &cfg,
        Game::from_fen("4k3/8/8/8/8/8/8/QK6 b - - 0 1").unwrap(),
    );
    a.update(Action::Resize(120, 40));
    a.play.clock = Some(super::chess::Clock::new(
        std::time::Duration::from_millis(50),
        std::time::Duration::ZERO,
    ));
    typed(&mut a, "Kd7");
    let later = std::time::Instant::now() + std::time::Duration::from_secs(1);
    a.update(Action::Tick(later));
    let t = a.play.game.termination().expect("flag fell");
    assert_eq!(t.ending.result(), "1/2-1/2", "{}", t.ending.explanation);
    assert!(t.ending.explanation.contains("cannot checkmate"));
}

#[test]
fn save_and_load_pgn() {
    let dir = std::env::temp_dir().join(format!("threefold-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.pgn");
    let mut a = app();
    shuffle(&mut a, 8);
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Esc);
    keys(&mut a, "s");
    let input = a.input.as_mut().unwrap();
    input.line = super::line_edit::LineEdit::new(&path.display().to_string());
    key(&mut a, KeyCode::Enter);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
    assert!(text.contains("[Termination "), "{text}");
    let mut b = app();
    b.load_pgn(&path);
    assert_eq!(b.play.game.len(), 8);
    assert_eq!(b.play.config.human, Players::TwoHumans);
    // A missing file gives a message and changes nothing.
    b.load_pgn(&dir.join("missing.pgn"));
    assert!(b.message.as_ref().unwrap().is_error());
    assert_eq!(b.play.game.len(), 8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn clock_arithmetic_saturates() {
    use std::time::{Duration, Instant};
    let mut c = super::chess::Clock::new(Duration::MAX, Duration::MAX);
    let now = Instant::now();
    c.moved(shakmaty::Color::White, now);
    assert_eq!(c.left[0], Duration::MAX);
}

#[test]
fn fen_and_pgn_ask_before_replacing_a_game_in_progress() {
    for (k, q) in [
        ('F', PlayQuestion::AbandonForFen),
        ('o', PlayQuestion::AbandonForPgn),
    ] {
        let mut a = app();
        a.update(Action::Resize(80, 24));
        typed(&mut a, "e4");
        keys(&mut a, &k.to_string());
        assert_eq!(a.play.overlay, Some(PlayOverlay::Ask(q.clone())), "{k}");
        assert!(a.input.is_none(), "{k}: no prompt before the answer");
        let (s, _) = screen(&a, &Theme::plain(), 80, 24);
        assert!(s.contains("Abandon the game in progress to"), "{s}");
        // Issue 39 (reviewer item 10): the keys in the question's own words.
        assert!(
            s.contains("y abandon the game · n keep playing · Esc keep playing"),
            "{s}"
        );
        keys(&mut a, "n");
        assert_eq!((a.play.overlay.clone(), a.input.is_none()), (None, true));
        assert_eq!(a.play.game.len(), 1);
        keys(&mut a, &k.to_string());
        keys(&mut a, "y");
        assert!(a.input.is_some(), "{k}: yes opens the prompt");
        key(&mut a, KeyCode::Esc);
        assert_eq!(
            a.play.game.len(),
            1,
            "{k}: cancelling the prompt keeps the game"
        );
        // No game in progress: the prompt at once.
        let mut b = app();
        keys(&mut b, &k.to_string());
        assert!(b.play.overlay.is_none() && b.input.is_some(), "{k}");
    }
}

#[test]
fn starting_with_a_position_while_a_game_is_kept_asks_first() {
    use super::chess::SavedGame;
    let dir = std::env::temp_dir().join(format!("threefold-kept-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game-in-progress.json");
    let saved = SavedGame {
        game: crate::drills::GameKind::Chess,
        level: None,
        start_fen: Game::new().start_fen(),
        moves: vec!["e2e4".into(), "e7e5".into(), "g1f3".into()],
        human: Players::TwoHumans,
        claims: Vec::new(),
        clocks: None,
    };
    let write = || std::fs::write(&path, serde_json::to_string(&saved).unwrap()).unwrap();
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let start = || {
        let mut a = app();
        a.update(Action::Resize(80, 24));
        a.new_game(Game::from_fen(fen).unwrap());
        a.play.resume_path = Some(path.clone());
        a.play.offer_saved_game(saved.clone(), true);
        a
    };
    // No: the kept game is resumed instead.
    write();
    let mut a = start();
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(
        s.contains("A chess game in progress was kept (3 plies)"),
        "{s}"
    );
    assert!(s.contains("delete the kept"), "{s}");
    keys(&mut a, "n");
    assert_eq!(a.play.game.len(), 3);
    // Yes: the new position is played and the kept game deleted.
    write();
    let mut a = start();
    keys(&mut a, "y");
    assert_eq!(a.play.game.start_fen(), fen);
    assert!(!path.exists());
    // Later: both are kept; the old one is set aside, never overwritten.
    write();
    let mut a = start();
    key(&mut a, KeyCode::Esc);
    typed(&mut a, "Kf1");
    keys(&mut a, "q");
    let aside: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".older-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    let older: SavedGame =
        serde_json::from_str(&std::fs::read_to_string(&aside[0]).unwrap()).unwrap();
    assert_eq!(older, saved);
    let now: SavedGame = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(now.start_fen, fen);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn settings_changed_in_the_trainer_are_saved_keeping_the_users_file() {
    let dir = std::env::temp_dir().join(format!("threefold-settings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.toml");
    let text = "# mine\nlevel = 3 # medium\nhuman = \"both\"\nclock_base_secs = 300\nclock_inc_secs = 3\nshiny = 1\n";
    std::fs::write(&path, text).unwrap();
    let (cfg, msg) = super::config::load_or_create(&path);
    assert!(msg.unwrap().contains("shiny"), "unknown keys are reported");
    let mut a = App::new(&cfg, Game::new());
    a.config_path = Some(path.clone());
    a.update(Action::Resize(80, 24));
    // The clock preset matches the config: t goes on from 5+3 to 3+2.
    assert!(render_header(&a).contains("clocks 5+3"));
    keys(&mut a, "t");
    assert!(a.message.as_ref().unwrap().text.contains("Clocks 3+2"));
    keys(&mut a, "+");
    keys(&mut a, "p1");
    keys(&mut a, "x");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        saved,
        "# mine\nlevel = 4 # medium\nhuman = \"white\"\nclock_base_secs = 180\nclock_inc_secs = 2\nshiny = 1\ncontempt = 25\n"
    );
    // Blind mode is a setting too: B writes it, B again writes it back.
    keys(&mut a, "B");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.ends_with("contempt = 25\nblind = true\n"), "{saved}");
    keys(&mut a, "B");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.ends_with("contempt = 25\nblind = false\n"), "{saved}");
    // A file that does not parse is left alone, and the status line says so.
    let broken = "level = = 4\n# mine\n";
    std::fs::write(&path, broken).unwrap();
    keys(&mut a, "-");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken);
    let m = a.message.clone().unwrap();
    assert!(m.is_error());
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    // The level's message (its Elo and search) then why the file was not written.
    let level = crate::tui::config::level_message(3, true);
    let joined: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains(&format!("{level} For this run only: config.toml line 1")),
        "{s}"
    );
    assert!(
        s.contains("is not valid TOML; the file was left as it is."),
        "{s}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The question asked when the game cannot be kept is read whole at 80×24,
/// however long the path in its reason: the popup grows with its text.
#[test]
fn the_unkept_game_question_is_shown_whole_at_80x24() {
    let mut a = app();
    let dir = "/home/someone/a/rather/deeply/nested/place/for/the/data/of/threefold";
    a.overlay = Some(Overlay::Ask(Question::QuitUnkept {
        game: GameKind::Chess,
        reason: format!("cannot write {dir}/game-in-progress.json: Not a directory (os error 20)"),
        saved_as: Some(std::path::PathBuf::from(format!(
            "{dir}/saved/game-2026.pgn"
        ))),
    }));
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    for words in [
        "cannot be kept",
        "Not a directory",
        "Quit? (no: save it again)",
    ] {
        assert!(s.contains(words), "{words}: {s}");
    }
    let hint = super::keys::hint_line(super::keys::Ctx::Question);
    assert!(s.contains(hint.trim()), "{hint}: {s}");
}
