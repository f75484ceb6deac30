//! Files the trainer reads and the games it keeps, in both games: a file that is not a
//! regular file (an endless device, a FIFO with no writer, a directory) or is larger than
//! its kind may be is refused with one line and the game on the board is kept; quitting
//! asks before a game that cannot be kept is lost, chess's and xiangqi's alike; at start
//! each screen offers its own kept game only. Screens are read at 80×24 with TestBackend.

use std::path::{Path, PathBuf};

use crossterm::event::KeyCode;

use super::app::{Action, App, InputKind, Overlay, Question, Screen};
use super::chess::{Overlay as PlayOverlay, Players, Question as PlayQuestion, SavedGame};
use super::tests::{app, key, keys, screen, typed};
use super::theme::Theme;
use crate::drills::GameKind;
use crate::fsio::FileKind;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("threefold-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A kept game of two humans: 1. e4 e5.
pub(super) fn kept_e4_e5() -> SavedGame {
    SavedGame {
        game: crate::drills::GameKind::Chess,
        level: None,
        start_fen: crate::rules::Game::new().start_fen(),
        moves: vec!["e2e4".into(), "e7e5".into()],
        human: Players::TwoHumans,
        claims: Vec::new(),
        clocks: None,
    }
}

/// A FIFO at `path` (no writer will ever come: opening it to read would block for good).
#[cfg(unix)]
fn fifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// A link at `path` to the endless device `/dev/zero`.
#[cfg(unix)]
fn zero_link(path: &Path) {
    std::os::unix::fs::symlink("/dev/zero", path).unwrap();
}

/// The chess screen at 80×24, two humans, with 1. e4 e5 played.
fn chess_game() -> App {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    typed(&mut a, "e4");
    typed(&mut a, "e5");
    a
}

/// The xiangqi screen at 80×24, two humans, with two moves played.
fn xiangqi_game() -> App {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "X");
    assert_eq!(a.screen, Screen::Xiangqi);
    if a.xiangqi.players != Players::TwoHumans {
        keys(&mut a, "p3");
    }
    for m in ["h2e2", "h9g7"] {
        key(&mut a, KeyCode::Char('i'));
        keys(&mut a, m);
        key(&mut a, KeyCode::Enter);
    }
    assert_eq!(a.xiangqi.record().ply(), 2, "{:?}", a.message);
    a
}

/// The plies of the game on the screen shown.
fn plies(a: &App) -> usize {
    match a.screen {
        Screen::Xiangqi => a.xiangqi.record().ply(),
        _ => a.play.game.len(),
    }
}

/// `o`, then `path` typed at the prompt (replacing what it holds).
fn open(a: &mut App, path: &Path) {
    keys(a, "o");
    // A game in progress is asked about first, in both games.
    if a.ctx() == super::keys::Ctx::Question {
        keys(a, "y");
    }
    a.input.as_mut().expect("the open prompt").line = super::line_edit::LineEdit::new("");
    keys(a, &path.display().to_string());
    key(a, KeyCode::Enter);
}

/// `o` on each file that is not a regular file, and on one over the limit, refuses it at
/// once (a FIFO would block, `/dev/zero` would fill memory) with one line naming the file
/// and the cause; the game on the board is kept. The same in both games.
#[cfg(unix)]
#[test]
fn opening_a_file_that_is_not_a_regular_file_is_refused_in_both_games() {
    let dir = temp("open");
    let pipe = dir.join("pipe.pgn");
    fifo(&pipe);
    let zero = dir.join("zero.pgn");
    zero_link(&zero);
    let sub = dir.join("folder.pgn");
    std::fs::create_dir(&sub).unwrap();
    let bad: [(&Path, &str); 4] = [
        (Path::new("/dev/zero"), "a device, not a regular file"),
        (&zero, "a device, not a regular file"),
        (&pipe, "a FIFO, not a regular file"),
        (&sub, "a directory, not a regular file"),
    ];
    for (name, mut a) in [("chess", chess_game()), ("xiangqi", xiangqi_game())] {
        for (path, why) in bad {
            open(&mut a, path);
            let m = a.message.clone().expect("a message");
            assert!(m.is_error(), "{name} {}: {m:?}", path.display());
            assert!(m.text.contains(why), "{name}: {}", m.text);
            assert!(m.text.contains(&path.display().to_string()), "{}", m.text);
            // One line, said once.
            assert_eq!(m.text.matches(why).count(), 1, "{}", m.text);
            // On screen (the words may wrap).
            let (s, _) = screen(&a, &Theme::plain(), 80, 24);
            let words = s.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(words.contains(why), "{name}: {s}");
            key(&mut a, KeyCode::Esc);
            assert_eq!(plies(&a), 2, "{name}: the game is kept");
        }
    }
    // A xiangqi game file larger than a game may be (a sparse file: no disk used).
    let big = dir.join("big.pgn");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(FileKind::PgnGame.limit() + 1).unwrap();
    let mut a = xiangqi_game();
    open(&mut a, &big);
    let m = a.message.clone().unwrap();
    assert!(
        m.is_error() && m.text.contains("more than a PGN game may hold (64 MiB)"),
        "{m:?}"
    );
    key(&mut a, KeyCode::Esc);
    assert_eq!(plies(&a), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The trainer's own files as links to `/dev/zero` or FIFOs: each is refused at once with
/// a line naming it; nothing is deleted, and the kept chess game's file stays where it is
/// after quitting with no game to keep (it once was removed).
#[cfg(unix)]
#[test]
fn the_trainers_own_files_are_read_within_bounds_and_never_deleted_unread() {
    let dir = temp("own");
    // config.toml: the defaults, said why.
    let cfg = dir.join("config.toml");
    zero_link(&cfg);
    let (c, msg) = super::config::load_or_create(&cfg);
    assert_eq!(c, super::config::Config::default());
    let msg = msg.expect("a message");
    assert!(
        msg.contains("config.toml: a device, not a regular file"),
        "{msg}"
    );
    // progress.toml: a fresh start, the file left as it is.
    let progress = dir.join("progress.toml");
    fifo(&progress);
    let loaded = crate::drills::ProgressStore::at(progress.clone()).load();
    let w = loaded.warning.expect("a warning");
    assert!(w.contains("a FIFO, not a regular file"), "{w}");
    assert!(std::fs::symlink_metadata(&progress).is_ok());
    // from-your-games.toml: nothing added, said why.
    let mine = dir.join("from-your-games.toml");
    zero_link(&mine);
    let e = crate::drills::from_games::add_puzzles(&mine, &[]).unwrap_err();
    assert!(
        e.to_string().contains("a device, not a regular file"),
        "{e}"
    );
    // The kept chess game: named at start, left in place, not deleted on the way out.
    let kept = dir.join("game-in-progress.json");
    zero_link(&kept);
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.play.resume_path = Some(kept.clone());
    a.offer_kept_games(false, false);
    let m = a.message.clone().expect("a message");
    assert!(
        m.is_error() && m.text.contains("a device, not a regular file"),
        "{m:?}"
    );
    keys(&mut a, "q");
    assert!(a.quit);
    a.play.keep_game_in_progress().unwrap();
    assert!(std::fs::symlink_metadata(&kept).is_ok(), "the link stays");
    // The kept xiangqi game: the same (one path for both games), even with a game in
    // progress to keep: the link is set aside, never written through nor deleted.
    let xq = dir.join("xiangqi-in-progress.json");
    zero_link(&xq);
    let mut a = app();
    a.xiangqi.kept_path = Some(xq.clone());
    a.offer_kept_games(false, false);
    let m = a.message.clone().expect("a message");
    assert!(
        m.is_error() && m.text.contains("a device, not a regular file"),
        "{m:?}"
    );
    keys(&mut a, "X");
    typed(&mut a, "h2e2");
    a.xiangqi.keep_in_progress().unwrap();
    assert!(std::fs::symlink_metadata(&xq).unwrap().is_file(), "kept");
    let aside = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("xiangqi-in-progress.json.older")
        });
    assert!(aside, "the link set aside");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where the data directory should be, a file: nothing can be kept there.
fn blocked_dir(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp(name);
    let blocked = dir.join("data");
    std::fs::write(&blocked, "not a directory").unwrap();
    (dir, blocked)
}

/// Quitting with a game in progress that cannot be kept asks first, in both games, one
/// game at a time (chess first); no opens that game's save prompt; yes to each quits.
/// With nowhere at all to keep a game, quitting asks too.
#[test]
fn quitting_asks_before_losing_a_game_that_cannot_be_kept_in_both_games() {
    let (dir, blocked) = blocked_dir("quit");
    let unkept = |a: &App, game: GameKind| match &a.overlay {
        Some(Overlay::Ask(Question::QuitUnkept { game: g, .. })) => *g == game,
        _ => false,
    };
    let setup = |a: &mut App| {
        a.play.resume_path = Some(blocked.join("game-in-progress.json"));
        a.xiangqi.kept_path = Some(blocked.join("xiangqi-in-progress.pgn"));
    };
    // The xiangqi game alone: asked, named, whole at 80×24.
    let mut a = xiangqi_game();
    setup(&mut a);
    keys(&mut a, "q");
    assert!(!a.quit);
    assert!(unkept(&a, GameKind::Xiangqi), "{:?}", a.overlay);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(
        s.contains("The xiangqi game in progress cannot be kept"),
        "{s}"
    );
    assert!(s.contains("Quit and lose it?"), "{s}");
    // The reason names the file that could not be written.
    match &a.overlay {
        Some(Overlay::Ask(Question::QuitUnkept { reason, .. })) => assert!(
            reason.starts_with("cannot write ") && reason.contains("xiangqi-in-progress.pgn"),
            "{reason}"
        ),
        other => panic!("{other:?}"),
    }
    // No: the xiangqi save prompt.
    keys(&mut a, "n");
    assert!(!a.quit);
    assert_eq!(a.input.as_ref().map(|i| i.kind), Some(InputKind::SavePgn));
    key(&mut a, KeyCode::Esc);
    // Saved elsewhere: the question says where it is.
    let saved = dir.join("saved.pgn");
    keys(&mut a, "s");
    a.input.as_mut().unwrap().line = super::line_edit::LineEdit::new("");
    keys(&mut a, &saved.display().to_string());
    key(&mut a, KeyCode::Enter);
    assert!(saved.exists(), "{:?}", a.message);
    keys(&mut a, "q");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("It is saved as PGN in"), "{s}");
    keys(&mut a, "y");
    assert!(a.quit);
    assert_eq!(a.loss_accepted, [GameKind::Xiangqi]);
    // Both games: chess is asked first, then xiangqi; yes to both quits.
    let mut a = xiangqi_game();
    setup(&mut a);
    keys(&mut a, "X");
    typed(&mut a, "e4");
    keys(&mut a, "q");
    assert!(unkept(&a, GameKind::Chess), "{:?}", a.overlay);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("The game in progress cannot be kept"), "{s}");
    keys(&mut a, "y");
    assert!(!a.quit);
    assert!(unkept(&a, GameKind::Xiangqi), "{:?}", a.overlay);
    keys(&mut a, "y");
    assert!(a.quit);
    assert_eq!(a.loss_accepted, [GameKind::Chess, GameKind::Xiangqi]);
    // Nowhere to keep the xiangqi game at all: asked too.
    let mut a = xiangqi_game();
    a.play.resume_path = Some(dir.join("game-in-progress.json"));
    assert_eq!(a.xiangqi.kept_path, None);
    keys(&mut a, "q");
    assert_eq!(
        a.overlay,
        Some(Overlay::Ask(Question::Quit {
            game: GameKind::Xiangqi
        }))
    );
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(
        s.contains("Quit? The xiangqi game in progress will be lost."),
        "{s}"
    );
    // Keepable games: no question.
    let mut a = xiangqi_game();
    a.play.resume_path = Some(dir.join("game-in-progress.json"));
    a.xiangqi.kept_path = Some(dir.join("xiangqi-in-progress.pgn"));
    keys(&mut a, "q");
    assert!(a.quit);
    assert!(dir.join("xiangqi-in-progress.pgn").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `threefold xiangqi` (the trainer opened on the xiangqi screen) does not ask about the
/// kept chess game there, where a key meant for the xiangqi game would answer it (`n`
/// deleted it): the chess screen asks when it is shown, naming the game.
#[test]
fn starting_on_the_xiangqi_screen_offers_only_its_own_game() {
    let dir = temp("start");
    let chess = dir.join("game-in-progress.json");
    std::fs::write(&chess, serde_json::to_string(&kept_e4_e5()).unwrap()).unwrap();
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.play.resume_path = Some(chess.clone());
    a.offer_kept_games(false, true);
    assert_eq!(a.screen, Screen::Xiangqi);
    assert_eq!(a.play.overlay, None);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(!s.contains("was kept"), "{s}");
    // Keys of the xiangqi screen are the xiangqi screen's: the chess game stays.
    keys(&mut a, "n");
    assert!(chess.exists());
    // Quitting from the xiangqi screen leaves the chess game unanswered, on disk.
    a.play.keep_game_in_progress().unwrap();
    assert!(chess.exists());
    // The chess screen asks, naming the game.
    keys(&mut a, "X");
    assert_eq!(a.screen, Screen::Play);
    assert!(matches!(
        a.play.overlay,
        Some(PlayOverlay::Ask(PlayQuestion::Kept(_)))
    ));
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(
        s.contains("A chess game in progress was kept (2 plies)"),
        "{s}"
    );
    keys(&mut a, "y");
    assert_eq!(a.play.game.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A xiangqi game opened with `o` whose start position no game can reach (a red pawn
/// behind its start row) is opened, and the warning is said, as for a FEN typed (`F`).
#[test]
fn a_xiangqi_file_from_an_unreachable_position_is_opened_with_the_warning() {
    let dir = temp("unreachable");
    let path = dir.join("pawn.pgn");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/1C5C1/P8/RNBAKABNR w - - 0 1";
    std::fs::write(
        &path,
        format!("[Variant \"xiangqi\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n*\n"),
    )
    .unwrap();
    let mut a = xiangqi_game();
    keys(&mut a, "n");
    keys(&mut a, "y");
    open(&mut a, &path);
    let m = a.message.clone().expect("a message");
    assert!(!m.is_error(), "{m:?}");
    assert!(m.text.starts_with("Opened"), "{m:?}");
    let w = crate::xiangqi::Position::from_fen(fen)
        .unwrap()
        .unreachable_warning()
        .expect("a warning");
    assert!(m.text.contains(&w), "{m:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
