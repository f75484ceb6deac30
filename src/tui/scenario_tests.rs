//! One list of scenarios run against both games' screens (chess's and xiangqi's), at 80×24
//! on a TestBackend: what a player feels must be the same in both games. Each scenario is
//! written once, over [`G`], and run for each game ([`GAMES`]).
//!
//! - every action that would lose the game in progress asks first (new, FEN, open, quit
//!   with an unwritable data directory);
//! - saving over an existing file asks;
//! - `Esc` closes every panel and overlay;
//! - a kept game is offered on start;
//! - in blind mode nothing on screen tells a repetition before the game ends;
//! - every panel beside the move list fits at 80×24 with at least 8 moves still listed.

use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::rules::Game;

use super::app::{Action, App, Screen};
use super::config::{Config, Players};
use super::keys::Ctx;
use super::tests::{key, keys, screen, typed};
use super::theme::Theme;

/// A game of the trainer, as the scenarios drive it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum G {
    Chess,
    Xiangqi,
}

const GAMES: [G; 2] = [G::Chess, G::Xiangqi];

impl G {
    /// The trainer at 80×24 on this game's screen, two humans at the board.
    fn app(self) -> App {
        let cfg = Config {
            human: Players::TwoHumans,
            book: false,
            ..Config::default()
        };
        let mut a = App::new(&cfg, Game::new());
        a.update(Action::Resize(80, 24));
        if self == G::Xiangqi {
            keys(&mut a, "X");
            assert_eq!(a.screen, Screen::Xiangqi);
            a.xiangqi.players = Players::TwoHumans;
        }
        a.effects.clear();
        a
    }

    /// Ten plies of an opening, no position repeated.
    fn moves(self) -> [&'static str; 10] {
        match self {
            G::Chess => [
                "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d4", "exd4",
            ],
            G::Xiangqi => [
                "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5",
            ],
        }
    }

    /// Play the first `n` plies of [`G::moves`].
    fn play(self, a: &mut App, n: usize) {
        for m in &self.moves()[..n] {
            typed(a, m);
        }
        assert_eq!(self.ply(a), n, "{:?}", a.message);
    }

    /// One more ply after [`G::play`]'s four.
    fn play_more(self, a: &mut App) {
        typed(a, self.moves()[4]);
    }

    /// Plies that repeat a position (twice the start, or the chase), the game not over.
    fn repetition(self) -> &'static [&'static str] {
        match self {
            G::Chess => &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
            G::Xiangqi => &[
                "c2a2", "a7b7", "a2b2", "b7a7", "b2a2", "a7b7", "a2b2", "b7a7",
            ],
        }
    }

    /// The position [`G::repetition`] starts from (None: the start position).
    fn repetition_fen(self) -> Option<&'static str> {
        match self {
            G::Chess => None,
            G::Xiangqi => Some("2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w"),
        }
    }

    /// A position to start from.
    fn fen(self) -> &'static str {
        match self {
            G::Chess => "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            G::Xiangqi => "5k3/7R1/9/9/9/9/9/9/9/4K4 w",
        }
    }

    /// What tells a repetition on the screen.
    fn tells(self) -> Vec<&'static str> {
        let mut t = vec!["×", "occurrence", "Occurrences", "appeared", "Repetition"];
        t.extend(match self {
            G::Chess => &["claim possible"][..],
            G::Xiangqi => &["chase", "idle", "Stands for", "How the judge", "perpetual"][..],
        });
        t
    }

    /// Plies played in the game on the board.
    fn ply(self, a: &App) -> usize {
        match self {
            G::Chess => a.play.game.len(),
            G::Xiangqi => a.xiangqi.record().ply(),
        }
    }

    fn is_over(self, a: &App) -> bool {
        match self {
            G::Chess => a.play.game.is_over(),
            G::Xiangqi => a.xiangqi.is_over(),
        }
    }

    /// The screen's own context (no panel up).
    fn base(self) -> Ctx {
        match self {
            G::Chess => Ctx::Play,
            G::Xiangqi => Ctx::Xiangqi,
        }
    }

    /// Whether a panel of the screen or of the App is up.
    fn overlay_up(self, a: &App) -> bool {
        a.overlay.is_some()
            || match self {
                G::Chess => a.play.overlay.is_some(),
                G::Xiangqi => a.xiangqi.overlay.is_some(),
            }
    }

    /// The engine's level.
    fn level(self, a: &App) -> u8 {
        match self {
            G::Chess => a.play.config.level,
            G::Xiangqi => a.xiangqi.level,
        }
    }

    /// Whether blind mode is on.
    fn blind(self, a: &App) -> bool {
        match self {
            G::Chess => a.play.config.blind,
            G::Xiangqi => a.xiangqi.blind,
        }
    }

    /// Who plays the game on the board.
    fn players(self, a: &App) -> Players {
        match self {
            G::Chess => a.play.config.human,
            G::Xiangqi => a.xiangqi.players,
        }
    }

    /// The base time of the clocks of the game on the board (None: no clocks).
    fn clock_base(self, a: &App) -> Option<std::time::Duration> {
        match self {
            G::Chess => a.play.clock.as_ref().map(|c| c.base),
            G::Xiangqi => a.xiangqi.clock.as_ref().map(|c| c.base),
        }
    }

    /// The ply viewed (None: the live position).
    fn view(self, a: &App) -> Option<usize> {
        match self {
            G::Chess => a.play.view,
            G::Xiangqi => a.xiangqi.view,
        }
    }

    /// The engine's reply `m` (in the game's notation) as the engine thread reports it for
    /// search `id`.
    fn best(self, a: &App, id: u64, m: &str) -> super::engine_thread::Report {
        let mv = match self {
            G::Chess => a.play.game.parse_move(m).unwrap().into(),
            G::Xiangqi => crate::xiangqi::notation::parse_move(a.xiangqi.record().current(), m)
                .unwrap()
                .into(),
        };
        super::engine_thread::Report::Best { id, mv: Some(mv) }
    }

    /// Where the game in progress is kept between runs.
    fn keep_at(self, a: &mut App, path: &Path) {
        match self {
            G::Chess => a.play.resume_path = Some(path.to_path_buf()),
            G::Xiangqi => a.xiangqi.kept_path = Some(path.to_path_buf()),
        }
    }

    /// The keys that open a panel beside the move list or over the screen, and a text the
    /// panel shows.
    fn panels(self) -> &'static [(&'static str, &'static str)] {
        match self {
            G::Chess => &[("p", "Who plays"), ("?", "Help ("), ("c", "Claim a draw")],
            G::Xiangqi => &[
                ("p", "Who plays"),
                ("?", "Help ("),
                ("a", "Call the arbiter"),
                ("a1", "Wrong call"),
            ],
        }
    }

    /// The keys of the panels beside the move list (the move list stays in sight).
    fn side_panels(self) -> &'static [&'static str] {
        match self {
            G::Chess => &["E"],
            G::Xiangqi => &["a", "a1", "J"],
        }
    }

    /// The rows (or entries) the move list shows for plies `plies` (0-based), as the
    /// screen writes them.
    fn listed(self, a: &App, plies: std::ops::Range<usize>) -> Vec<String> {
        match self {
            G::Chess => plies.map(|p| format!(" {}", self.moves()[p])).collect(),
            G::Xiangqi => {
                let rec = a.xiangqi.record();
                plies
                    .map(|p| {
                        let ply = p + 1;
                        let n = ply.div_ceil(2);
                        let label = if ply % 2 == 1 {
                            format!("{n}.")
                        } else {
                            format!("{n}...")
                        };
                        let m = crate::xiangqi::notation::wxf(rec.position(p), rec.move_at(ply));
                        format!("{label:<6} {m}")
                    })
                    .collect()
            }
        }
    }

    /// Where the move list and the panels beside it are drawn.
    fn side(self, size: ratatui::layout::Rect) -> ratatui::layout::Rect {
        match self {
            G::Chess => super::widgets::layout(size).unwrap().history,
            G::Xiangqi => super::xiangqi::layout(size).unwrap().side,
        }
    }
}

/// The text drawn in `area`, row by row.
fn region(buf: &ratatui::buffer::Buffer, area: ratatui::layout::Rect) -> String {
    let mut s = String::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

fn ctrl(a: &mut App, c: char) {
    a.update(Action::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::CONTROL,
    )));
}

fn text(a: &App) -> String {
    screen(a, &Theme::colored(), a.size.width, a.size.height).0
}

/// Press `k`; if it opens the input line, type `line` there (the line cleared first).
fn through_line(a: &mut App, k: &str, line: &str) {
    keys(a, k);
    if a.input.is_some() {
        ctrl(a, 'u');
        keys(a, line);
        key(a, KeyCode::Enter);
    }
}

/// Asked before the game in progress is lost: the question is up and the game still on the
/// board; `Esc` leaves it so.
fn assert_asked(g: G, a: &mut App, plies: usize, words: &str, what: &str) {
    assert_eq!(
        g.ply(a),
        plies,
        "{g:?}: {what} lost the game ({:?})",
        a.message
    );
    assert_eq!(a.ctx(), Ctx::Question, "{g:?}: {what} asked nothing");
    let s = text(a);
    assert!(s.contains(words), "{g:?}: {what}: {words:?} not asked\n{s}");
    key(a, KeyCode::Esc);
    assert_eq!(g.ply(a), plies, "{g:?}: later lost the game");
    assert!(!g.overlay_up(a), "{g:?}: the question stayed");
}

/// The status line's text ("" when none).
fn message(a: &App) -> String {
    a.message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("threefold-scenario-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_new_game_does_not_lose_the_game_in_progress_to_one_key() {
    for g in GAMES {
        let mut a = g.app();
        g.play(&mut a, 4);
        keys(&mut a, "n");
        assert_asked(g, &mut a, 4, "Abandon the game in progress", "n");
        // Yes: a new game.
        keys(&mut a, "n");
        keys(&mut a, "y");
        assert_eq!(g.ply(&a), 0, "{g:?}: {:?}", a.message);
        assert!(!g.overlay_up(&a), "{g:?}");
    }
}

#[test]
fn starting_from_a_fen_asks_before_losing_the_game() {
    for g in GAMES {
        let mut a = g.app();
        g.play(&mut a, 4);
        through_line(&mut a, "F", g.fen());
        assert_asked(g, &mut a, 4, "Abandon the game in progress", "F");
        // Yes: the game from the FEN.
        through_line(&mut a, "F", g.fen());
        through_line(&mut a, "y", g.fen());
        assert_eq!(g.ply(&a), 0, "{g:?}: {:?}", a.message);
        assert!(a.input.is_none() && !g.overlay_up(&a), "{g:?}");
    }
}

/// A FEN given on the command line (`--fen`) is read in both games as one typed after `F`
/// is, by the screen's own code ([`super::open_given`]): a good one starts the game, a bad
/// one is the same error line (chess's was the rules core's, read before the trainer), less
/// the prompt's "(correct it below)", in the same words in both games.
#[test]
fn a_fen_given_on_the_command_line_is_read_as_one_typed() {
    for g in GAMES {
        let opts = |fen: &str| super::Options {
            fen: Some(fen.to_string()),
            xiangqi: g == G::Xiangqi,
            ..super::Options::default()
        };
        let a = super::given_app(&Config::default(), &opts(g.fen())).expect("a good FEN");
        let fen = match g {
            G::Chess => a.play.game.start_fen(),
            G::Xiangqi => a.xiangqi.record().position(0).fen(),
        };
        let board = |f: &str| f.split(' ').next().unwrap_or_default().to_string();
        assert_eq!(board(&fen), board(g.fen()), "{g:?}");
        let bad = "rnbqkbnr/pppppppp/8/8 w";
        let e = super::given_app(&Config::default(), &opts(bad))
            .err()
            .expect("a bad FEN");
        let mut typed = g.app();
        through_line(&mut typed, "F", bad);
        let said = typed.message.as_ref().map(|m| m.text.clone()).unwrap();
        let why = match g {
            G::Chess => {
                "2 fields where a FEN has 4 to 6: board, side to move, castling, \
                         en passant, halfmove clock, fullmove number"
            }
            G::Xiangqi => "4 ranks (expected 10)",
        };
        assert_eq!(
            said,
            format!("Invalid FEN: {why} (correct it below)"),
            "{g:?}"
        );
        // The FEN is back on the prompt to be corrected.
        assert_eq!(typed.input.as_ref().map(|i| i.text()), Some(bad), "{g:?}");
        let given = e.to_string();
        assert_eq!(format!("{given} (correct it below)"), said, "{g:?}");
    }
}

#[test]
fn opening_a_file_asks_before_losing_the_game() {
    for g in GAMES {
        let dir = temp_dir(&format!("open-{g:?}"));
        let file = dir.join("g.pgn");
        let mut a = g.app();
        g.play(&mut a, 4);
        through_line(&mut a, "s", &file.display().to_string());
        assert!(file.is_file(), "{g:?}: not saved ({:?})", a.message);
        for m in &g.moves()[4..6] {
            typed(&mut a, m);
        }
        through_line(&mut a, "o", &file.display().to_string());
        assert_asked(g, &mut a, 6, "Abandon the game in progress", "o");
        // No: the game goes on, and the player is told so (game::goes_on).
        keys(&mut a, "on");
        assert_eq!(g.ply(&a), 6, "{g:?}");
        let said = a.message.as_ref().map(|m| m.text.clone());
        assert_eq!(
            said.as_deref(),
            Some("The game in progress goes on."),
            "{g:?}"
        );
        // Yes: the file's game, played by two humans in both games (files::OPENED_PLAYERS).
        match g {
            G::Chess => a.play.config.human = Players::HumanWhite,
            G::Xiangqi => a.xiangqi.players = Players::HumanWhite,
        }
        through_line(&mut a, "o", &file.display().to_string());
        through_line(&mut a, "y", &file.display().to_string());
        assert_eq!(g.ply(&a), 4, "{g:?}: the file's game ({:?})", a.message);
        assert_eq!(g.players(&a), Players::TwoHumans, "{g:?}");
        let said = a
            .message
            .as_ref()
            .map(|m| m.text.clone())
            .unwrap_or_default();
        assert!(said.contains("Players: two humans"), "{g:?}: {said}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A game opened from a file is saved again with the file's own tags (its players, its
/// event), in both games ([`super::game::files::opened_tags`]); xiangqi wrote the trainer's.
#[test]
fn an_opened_game_is_saved_with_the_files_tags() {
    for g in GAMES {
        let dir = temp_dir(&format!("retag-{g:?}"));
        let (file, again) = (dir.join("g.pgn"), dir.join("again.pgn"));
        let mut a = g.app();
        g.play(&mut a, 4);
        through_line(&mut a, "s", &file.display().to_string());
        let text = std::fs::read_to_string(&file).expect("saved");
        let text: String = text
            .lines()
            .map(|l| match l.starts_with("[White ") {
                true => "[White \"Ann Example\"]\n".to_string(),
                false => format!("{l}\n"),
            })
            .collect();
        std::fs::write(&file, text).unwrap();
        let mut b = g.app();
        through_line(&mut b, "o", &file.display().to_string());
        assert_eq!(g.ply(&b), 4, "{g:?}: {:?}", b.message);
        through_line(&mut b, "s", &again.display().to_string());
        let saved = std::fs::read_to_string(&again).expect("saved again");
        assert!(saved.contains("[White \"Ann Example\"]"), "{g:?}\n{saved}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Opening a file in both games: asked first while a game is in progress (before the
/// prompt); the same line once opened, counting moves, not plies; a malformed file is one
/// line naming it and where, its name back at the prompt, the game on the board untouched.
#[test]
fn opening_a_file_says_the_same_in_both_games() {
    for g in GAMES {
        let dir = temp_dir(&format!("opened-{g:?}"));
        let file = dir.join("g.pgn");
        let mut a = g.app();
        g.play(&mut a, 4);
        through_line(&mut a, "s", &file.display().to_string());
        keys(&mut a, "o");
        assert_eq!(a.ctx(), Ctx::Question, "{g:?}: not asked first");
        assert!(a.input.is_none(), "{g:?}: the prompt before the answer");
        keys(&mut a, "y");
        assert!(a.input.is_some(), "{g:?}: yes opens the prompt");
        ctrl(&mut a, 'u');
        keys(&mut a, &file.display().to_string());
        key(&mut a, KeyCode::Enter);
        let m = a.message.clone().expect("a message");
        let opened = format!("Opened {}: 2 moves", file.display());
        assert!(!m.is_error() && m.text.starts_with(&opened), "{g:?}: {m:?}");
        assert_eq!(g.ply(&a), 4, "{g:?}");
        // A malformed file: one line naming it and the line, the game untouched.
        let bad = dir.join("bad.pgn");
        let text = match g {
            G::Chess => "[Event \"x\"]\n\n1. e4 Kxx9 *\n",
            G::Xiangqi => "[Variant \"xiangqi\"]\n\n1. Cxx9 *\n",
        };
        std::fs::write(&bad, text).unwrap();
        g.play_more(&mut a);
        through_line(&mut a, "o", "");
        if a.ctx() == Ctx::Question {
            keys(&mut a, "y");
        }
        ctrl(&mut a, 'u');
        keys(&mut a, &bad.display().to_string());
        key(&mut a, KeyCode::Enter);
        let m = a.message.clone().expect("a message");
        assert!(m.is_error(), "{g:?}: {m:?}");
        assert!(!m.text.contains('\n'), "{g:?}: {m:?}");
        // The same place in both games' words ("F:3: reason", fsio::file_place).
        assert!(m.text.contains("bad.pgn:3: "), "{g:?}: {m:?}");
        let back = a.input.as_ref().map(|i| i.text().to_string());
        assert_eq!(
            back,
            Some(bad.display().to_string()),
            "{g:?}: name not back"
        );
        key(&mut a, KeyCode::Esc);
        assert_eq!(g.ply(&a), 5, "{g:?}: the game was touched");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A game played on the trainer is saved with the same tags in both games, from one
/// function: the site, today's date (not "?"), the players, the time control.
#[test]
fn saved_games_have_the_same_headers_in_both_games() {
    let today = crate::rules::pgn::UtcMinute::now().pgn_date();
    for g in GAMES {
        let dir = temp_dir(&format!("tags-{g:?}"));
        let file = dir.join("g.pgn");
        let mut a = g.app();
        g.play(&mut a, 2);
        through_line(&mut a, "s", &file.display().to_string());
        let text = std::fs::read_to_string(&file).unwrap();
        for tag in [
            "[Site \"threefold\"]".to_string(),
            format!("[Date \"{today}\"]"),
            "[White \"Player\"]".to_string(),
            "[Black \"Player\"]".to_string(),
            "[TimeControl \"-\"]".to_string(),
        ] {
            assert!(text.contains(&tag), "{g:?}: no {tag}\n{text}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn saving_over_a_file_asks() {
    for g in GAMES {
        let dir = temp_dir(&format!("over-{g:?}"));
        let file = dir.join("taken.pgn");
        std::fs::write(&file, "mine").unwrap();
        let mut a = g.app();
        g.play(&mut a, 2);
        through_line(&mut a, "s", &file.display().to_string());
        assert_eq!(
            a.ctx(),
            Ctx::Question,
            "{g:?}: saved over the file silently ({:?})",
            a.message
        );
        assert!(text(&a).contains("overwrite?"), "{g:?}\n{}", text(&a));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
        // No: the name comes back to be changed.
        keys(&mut a, "n");
        assert!(a.input.is_some(), "{g:?}: the name did not come back");
        key(&mut a, KeyCode::Esc);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
        // Yes: written.
        through_line(&mut a, "s", &file.display().to_string());
        keys(&mut a, "y");
        let written = std::fs::read_to_string(&file).unwrap();
        assert!(written.contains("1."), "{g:?}: {written}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn quitting_asks_before_losing_a_game_that_cannot_be_kept() {
    for g in GAMES {
        // Where a game cannot be kept: its "directory" is a file.
        let dir = temp_dir(&format!("quit-{g:?}"));
        let file = dir.join("a-file");
        std::fs::write(&file, "").unwrap();
        let mut a = g.app();
        g.keep_at(&mut a, &file.join("kept.pgn"));
        g.play(&mut a, 2);
        keys(&mut a, "q");
        assert!(!a.quit, "{g:?}: quit losing the game");
        assert_eq!(a.ctx(), Ctx::Question, "{g:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A game played to its end is kept nowhere for the next start: quitting with it in no
/// file asks (found by the reviewer: `q` after a claimed draw or a ruling lost the game);
/// no opens the save prompt, yes quits.
#[test]
fn quitting_asks_before_losing_a_finished_game_no_file_holds() {
    for g in GAMES {
        let dir = temp_dir(&format!("finished-{g:?}"));
        let mut a = g.app();
        g.keep_at(&mut a, &dir.join("kept"));
        let (fen, mate) = match g {
            G::Chess => ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8"),
            G::Xiangqi => ("3k5/9/9/9/9/9/9/9/4R4/4K4 w", "e1d1"),
        };
        through_line(&mut a, "F", fen);
        typed(&mut a, mate);
        assert!(g.is_over(&a), "{g:?}: {:?}", a.message);
        keys(&mut a, "q");
        assert!(!a.quit, "{g:?}: quit losing the finished game");
        assert!(text(&a).contains("saved in no file"), "{g:?}\n{}", text(&a));
        keys(&mut a, "n");
        assert!(
            !a.quit && a.input.is_some(),
            "{g:?}: no did not open the save prompt"
        );
        key(&mut a, KeyCode::Esc);
        keys(&mut a, "q");
        keys(&mut a, "y");
        assert!(a.quit, "{g:?}: yes did not quit");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn esc_closes_every_panel() {
    for g in GAMES {
        let mut a = g.app();
        g.play(&mut a, 2);
        for (k, shows) in g.panels() {
            keys(&mut a, k);
            let s = text(&a);
            assert!(s.contains(shows), "{g:?}: {k} shows no {shows:?}\n{s}");
            key(&mut a, KeyCode::Esc);
            a.message = None;
            assert_eq!(a.ctx(), g.base(), "{g:?}: Esc left {k}'s panel's keys");
            assert!(!g.overlay_up(&a), "{g:?}: Esc left {k}'s panel up");
            let s = text(&a);
            assert!(
                !s.contains(shows),
                "{g:?}: {shows:?} still shown after Esc\n{s}"
            );
        }
    }
}

#[test]
fn a_kept_game_is_offered_on_start() {
    for g in GAMES {
        let dir = temp_dir(&format!("kept-{g:?}"));
        let kept = dir.join("kept");
        let mut a = g.app();
        g.keep_at(&mut a, &kept);
        g.play(&mut a, 4);
        match g {
            G::Chess => a.play.keep_game_in_progress().unwrap(),
            G::Xiangqi => a.xiangqi.keep_in_progress().unwrap(),
        }
        let mut b = App::new(&Config::default(), Game::new());
        b.update(Action::Resize(80, 24));
        g.keep_at(&mut b, &kept);
        b.offer_kept_games(false, g == G::Xiangqi);
        // Offered: resumed, or asked about (yes resumes it).
        if b.ctx() == Ctx::Question {
            keys(&mut b, "y");
        }
        assert_eq!(g.ply(&b), 4, "{g:?}: the kept game was not offered");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A game of `plies` plies (after the keys `first`) with a place to keep it, in a directory
/// of its own (`name`): the trainer, the directory and the kept file.
fn keeping(g: G, name: &str, first: &str, plies: usize) -> (App, PathBuf, PathBuf) {
    let dir = temp_dir(&format!("{name}-{g:?}"));
    let kept = dir.join("kept.json");
    let mut a = g.app();
    g.keep_at(&mut a, &kept);
    keys(&mut a, first);
    g.play(&mut a, plies);
    (a, dir, kept)
}

/// No to resuming the kept game, in both games by one answer ([`super::game::kept::answer`]):
/// the kept file is deleted and the game on the board goes on, the engine playing its move
/// when it has it (chess's engine waited for a key).
#[test]
fn no_to_the_kept_game_deletes_it_and_the_engine_plays_on() {
    for g in GAMES {
        let (mut a, dir, kept) = keeping(g, "refused", "", 4);
        match g {
            G::Chess => a.play.keep_game_in_progress().unwrap(),
            G::Xiangqi => a.xiangqi.keep_in_progress().unwrap(),
        }
        let cfg = Config {
            human: Players::HumanBlack,
            book: false,
            ..Config::default()
        };
        let mut b = App::new(&cfg, Game::new());
        b.update(Action::Resize(80, 24));
        g.keep_at(&mut b, &kept);
        if g == G::Xiangqi {
            b.xiangqi.players = Players::HumanBlack;
        }
        b.offer_kept_games(false, g == G::Xiangqi);
        assert_eq!(b.ctx(), Ctx::Question, "{g:?}");
        b.effects.clear();
        keys(&mut b, "n");
        assert!(!kept.exists(), "{g:?}: the kept game was not deleted");
        assert_eq!(g.ply(&b), 0, "{g:?}");
        assert!(
            asked(&b).is_some(),
            "{g:?}: the engine does not play its move"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The trainer as the next run starts it, with the game kept at `kept`, the game's own
/// screen shown and its kept game offered.
fn next_start(g: G, kept: &Path) -> App {
    let mut b = App::new(&Config::default(), Game::new());
    b.update(Action::Resize(80, 24));
    g.keep_at(&mut b, kept);
    b.offer_kept_games(false, g == G::Xiangqi);
    b
}

/// Quitting keeps the game as it is, and the next start gives the same game back: its moves,
/// who plays it, the engine's level and the time each side had, in both games, after the same
/// question (resume it?).
#[test]
fn a_kept_game_comes_back_with_its_players_level_and_clocks() {
    for g in GAMES {
        let (mut a, dir, kept) = keeping(g, "back", "t++", 5);
        let level = g.level(&a);
        assert_eq!(level, 5, "{g:?}");
        match g {
            G::Chess => a.play.config.human = Players::HumanBlack,
            G::Xiangqi => a.xiangqi.players = Players::HumanBlack,
        }
        keys(&mut a, "q");
        assert!(a.quit, "{g:?}: {:?}", a.overlay);
        let mut b = next_start(g, &kept);
        let s = text(&b);
        assert!(
            s.contains("game in progress was kept (5 plies)"),
            "{g:?}\n{s}"
        );
        assert!(s.contains("Resume it?"), "{g:?}\n{s}");
        keys(&mut b, "y");
        assert_eq!(g.ply(&b), 5, "{g:?}: {:?}", b.message);
        assert_eq!(g.players(&b), Players::HumanBlack, "{g:?}");
        assert_eq!(g.level(&b), level, "{g:?}");
        let five = Some(std::time::Duration::from_secs(300));
        assert_eq!(g.clock_base(&b), five, "{g:?}: the clocks were lost");
        let left = |a: &App| match g {
            G::Chess => a.play.clock.as_ref().unwrap().left,
            G::Xiangqi => a.xiangqi.clock.as_ref().unwrap().left,
        };
        let (was, back) = (left(&a), left(&b));
        for side in 0..2 {
            let d = was[side].abs_diff(back[side]);
            assert!(
                d < std::time::Duration::from_secs(1),
                "{g:?}: {was:?} {back:?}"
            );
        }
        assert_eq!(
            b.message.as_ref().map(|m| m.text.as_str()),
            Some("Resumed the game in progress.")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `Esc` on the question about the kept game decides later, in both games: the kept game
/// stays on disk, and a new game kept on quitting sets it aside, never overwrites it.
#[test]
fn a_kept_game_left_for_later_is_set_aside_not_overwritten() {
    for g in GAMES {
        let (mut a, dir, kept) = keeping(g, "later", "", 4);
        keys(&mut a, "q");
        assert!(a.quit, "{g:?}");
        let was = std::fs::read_to_string(&kept).unwrap();
        let mut b = next_start(g, &kept);
        key(&mut b, KeyCode::Esc);
        assert!(!g.overlay_up(&b) && g.ply(&b) == 0, "{g:?}");
        typed(&mut b, g.moves()[0]);
        keys(&mut b, "q");
        assert!(b.quit, "{g:?}: {:?}", b.overlay);
        let now = std::fs::read_to_string(&kept).unwrap();
        assert_ne!(now, was, "{g:?}: the new game was not kept");
        let older: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(".older-"))
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .collect();
        assert_eq!(older, [was], "{g:?}: the kept game was not set aside");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A game given on the command line (`--pgn`) while a game was kept: the same question in
/// both games (play the given one and delete the kept one?); no resumes the kept game.
#[test]
fn a_game_given_on_the_command_line_asks_about_the_kept_one() {
    for g in GAMES {
        let (mut a, dir, kept) = keeping(g, "given", "", 4);
        keys(&mut a, "q");
        let file = dir.join("given.pgn");
        let (pgn, screen) = match g {
            G::Chess => ("1. e4 e5 *\n", Screen::Play),
            G::Xiangqi => ("[Variant \"xiangqi\"]\n\n1. C2=5 H8+7 *\n", Screen::Xiangqi),
        };
        std::fs::write(&file, pgn).unwrap();
        let mut b = App::new(&Config::default(), Game::new());
        b.update(Action::Resize(80, 24));
        g.keep_at(&mut b, &kept);
        super::open_given(&mut b, screen, None, Some(&file)).expect("opened");
        b.offer_kept_games(true, g == G::Xiangqi);
        assert_eq!(g.ply(&b), 2, "{g:?}: {:?}", b.message);
        let s = text(&b);
        assert!(s.contains("Play the new"), "{g:?}\n{s}");
        // Each key is said in the question's words, in both games.
        assert!(s.contains("n resume the kept one"), "{g:?}\n{s}");
        assert!(s.contains("Esc keep both"), "{g:?}\n{s}");
        let bar = s.lines().last().unwrap_or_default();
        assert!(
            bar.contains("resume the kept one"),
            "{g:?}: the key bar: {bar}"
        );
        keys(&mut b, "n");
        assert_eq!(g.ply(&b), 4, "{g:?}: the kept game was not resumed");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The kept files of earlier versions still resume: chess's JSON without the game's kind
/// and level, xiangqi's PGN (its players read from the names it wrote).
#[test]
fn an_old_kept_file_of_each_game_still_resumes() {
    for g in GAMES {
        let dir = temp_dir(&format!("old-{g:?}"));
        let kept = dir.join("kept");
        let (old, players) = match g {
            G::Chess => (
                r#"{"start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":["e2e4","e7e5","g1f3"],"human":"both"}"#,
                Players::TwoHumans,
            ),
            G::Xiangqi => (
                "[Event \"threefold xiangqi\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
                 [Round \"?\"]\n[White \"Player\"]\n[Black \"threefold level 6\"]\n\
                 [Result \"*\"]\n[Variant \"xiangqi\"]\n\n1. C2=5 H8+7 2. H2+3 *\n",
                Players::HumanWhite,
            ),
        };
        std::fs::write(&kept, old).unwrap();
        let mut b = next_start(g, &kept);
        assert_eq!(b.ctx(), Ctx::Question, "{g:?}: {:?}", b.message);
        keys(&mut b, "y");
        assert_eq!(g.ply(&b), 3, "{g:?}: {:?}", b.message);
        assert_eq!(g.players(&b), players, "{g:?}");
        if g == G::Xiangqi {
            assert_eq!(g.level(&b), 6);
        }
        // Kept again in the one format.
        keys(&mut b, "q");
        assert!(b.quit, "{g:?}");
        let text = std::fs::read_to_string(&kept).unwrap();
        let code = if g == G::Chess { "chess" } else { "xiangqi" };
        assert!(
            text.contains(&format!("\"game\":\"{code}\"")),
            "{g:?}: {text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A kept file that is no kept game of its game (corrupt, or the other game's): one line
/// naming it and where it was moved, nothing deleted, the screen's game as it was.
#[test]
fn a_corrupt_kept_file_is_named_and_set_aside_in_both_games() {
    for g in GAMES {
        let dir = temp_dir(&format!("corrupt-{g:?}"));
        let kept = dir.join("kept.json");
        // The other game's kept game, whole: named as such.
        let other = match g {
            G::Chess => {
                r#"{"game":"xiangqi","start_fen":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w","moves":["h2e2"],"human":"both"}"#
            }
            G::Xiangqi => {
                r#"{"game":"chess","start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":["e2e4"],"human":"both"}"#
            }
        };
        for bad in ["{not json", "[Event \"x\"]\n\n1. e4 *\n", other] {
            std::fs::write(&kept, bad).unwrap();
            let b = next_start(g, &kept);
            let m = b.message.clone().expect("a message");
            assert!(m.is_error(), "{g:?}: {m:?}");
            assert!(!m.text.contains('\n'), "{g:?}: one line: {m:?}");
            assert!(
                m.text.contains("kept.json") && m.text.contains("moved to"),
                "{g:?}: {m:?}"
            );
            assert_eq!(g.ply(&b), 0, "{g:?}");
            if bad == other {
                assert!(m.text.contains("it keeps a "), "{g:?}: {m:?}");
            }
            assert!(!kept.exists(), "{g:?}: not set aside");
            let aside: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .filter_map(Result::ok)
                .collect();
            assert_eq!(aside.len(), 1, "{g:?}");
            let aside = aside[0].path();
            assert_eq!(std::fs::read_to_string(&aside).unwrap(), bad, "{g:?}: lost");
            std::fs::remove_file(aside).unwrap();
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn blind_mode_tells_no_repetition_before_the_game_ends() {
    for g in GAMES {
        let mut a = g.app();
        if let Some(fen) = g.repetition_fen() {
            through_line(&mut a, "F", fen);
        }
        // Blind, with every panel that could tell switched on.
        keys(&mut a, "B");
        keys(&mut a, if g == G::Chess { "E" } else { "J" });
        for m in g.repetition() {
            typed(&mut a, m);
            assert!(!g.is_over(&a), "{g:?}");
            a.message = None;
            let s = text(&a);
            for tell in g.tells() {
                assert!(
                    !s.contains(tell),
                    "{g:?}: {tell:?} shown in blind mode\n{s}"
                );
            }
        }
    }
}

#[test]
fn every_side_panel_fits_at_80x24_with_8_moves_listed() {
    for g in GAMES {
        for k in g.side_panels() {
            let mut a = g.app();
            // Chess: ten plies of an opening; xiangqi: the chase, whose call is long.
            let plies = match g.repetition_fen() {
                None => {
                    g.play(&mut a, 10);
                    10
                }
                Some(fen) => {
                    through_line(&mut a, "F", fen);
                    for m in g.repetition() {
                        typed(&mut a, m);
                    }
                    g.repetition().len()
                }
            };
            keys(&mut a, k);
            a.message = None;
            let (_, buf) = screen(&a, &Theme::colored(), 80, 24);
            let s = region(&buf, g.side(a.size));
            for m in g.listed(&a, plies - 8..plies) {
                assert!(
                    s.contains(&m),
                    "{g:?}: {m:?} not listed with {k}'s panel\n{s}"
                );
            }
        }
    }
}

/// One key table: a command both game screens have is on the same keys in both.
#[test]
fn both_game_screens_use_the_same_keys_for_the_same_things() {
    use super::keys::BINDINGS;
    let mut shared = 0;
    for chess in BINDINGS.iter().filter(|b| b.ctx == Ctx::Play) {
        if let Some(xq) = BINDINGS
            .iter()
            .find(|b| b.ctx == Ctx::Xiangqi && b.cmd == chess.cmd)
        {
            assert_eq!(chess.keys, xq.keys, "{:?} on other keys", chess.cmd);
            shared += 1;
        }
    }
    assert!(shared >= 20, "{shared} commands shared");
}

/// The id of the last search asked of the engine thread.
fn asked(a: &App) -> Option<u64> {
    a.effects.iter().rev().find_map(|e| match e {
        super::engine_thread::Effect::Think { id, .. } => Some(*id),
        _ => None,
    })
}

/// The players menu is one menu in both games: the same popup, the players now marked, a
/// choice by number, the board turned for the human, the engine asked when it has the move,
/// and the same words when nothing changes.
#[test]
fn the_players_menu_is_the_same_in_both_games() {
    for g in GAMES {
        let mut a = g.app();
        keys(&mut a, "p");
        assert_eq!(a.ctx(), Ctx::PlayersMenu, "{g:?}");
        let s = text(&a);
        assert!(
            s.contains("Who plays?") && s.contains("Two humans  (now)"),
            "{g:?}\n{s}"
        );
        keys(&mut a, "2");
        assert_eq!(g.players(&a), Players::HumanBlack, "{g:?}");
        assert_eq!(a.ctx(), g.base(), "{g:?}: the menu stayed");
        assert!(
            asked(&a).is_some(),
            "{g:?}: the engine, to move, was not asked"
        );
        let flipped = match g {
            G::Chess => a.play.flipped,
            G::Xiangqi => a.xiangqi.flipped,
        };
        assert!(flipped, "{g:?}: the human's side is not at the bottom");
        keys(&mut a, "p2");
        let m = message(&a);
        assert!(
            m.ends_with("Engine vs you (Black) (unchanged)"),
            "{g:?}: {m}"
        );
    }
}

/// Sparring turned over in the players menu is said when the players are chosen (not
/// "(unchanged)"), and the game screen's header shows it at 80×24, in both games.
#[test]
fn sparring_chosen_in_the_players_menu_is_said_and_shown_in_the_header() {
    for g in GAMES {
        let mut a = g.app();
        keys(&mut a, "p2");
        for (on, said) in [(true, "sparring on"), (false, "sparring off")] {
            keys(&mut a, "ps2");
            let m = a
                .message
                .as_ref()
                .map(|m| m.text.clone())
                .unwrap_or_default();
            assert_eq!(
                m,
                format!("Players: Engine vs you (Black); {said}"),
                "{g:?}"
            );
            let s = text(&a);
            let header = s.lines().next().unwrap();
            assert_eq!(header.contains("L3 sparring"), on, "{g:?}: {header}");
        }
        keys(&mut a, "p2");
        let m = message(&a);
        assert!(m.ends_with("(unchanged)"), "{g:?}: {m}");
    }
}

/// Picking up a piece clears the status line in both games (a stale line stayed on the
/// xiangqi screen).
#[test]
fn picking_up_a_piece_clears_the_status_line_in_both_games() {
    for g in GAMES {
        let mut a = g.app();
        a.info("A stale line.");
        // The cursor starts on one's own piece: Space picks it up.
        keys(&mut a, " ");
        let picked = match g {
            G::Chess => a.play.selected.is_some(),
            G::Xiangqi => a.xiangqi.selected.is_some(),
        };
        assert!(picked, "{g:?}: nothing picked up");
        assert!(a.message.is_none(), "{g:?}: {:?}", a.message);
    }
}

/// The abandon questions say what each key does in their own words ("Esc later" read as a
/// promise to ask again), in both games at 80×24.
#[test]
fn the_abandon_question_says_what_each_key_does() {
    for g in GAMES {
        let mut a = g.app();
        g.play(&mut a, 4);
        keys(&mut a, "n");
        assert_eq!(a.ctx(), Ctx::Question, "{g:?}");
        let s = text(&a);
        let hint = s.lines().find(|l| l.contains("Esc keep playing"));
        assert!(
            hint.is_some_and(|l| l.contains("y abandon the game · n keep playing")),
            "{g:?}\n{s}"
        );
    }
}

/// The players menu's key hint names the game's sides: "1 White · 2 Black" in chess, "1 Red
/// · 2 Black" in xiangqi.
#[test]
fn the_players_menus_hint_names_the_games_sides() {
    for (g, sides) in [
        (G::Chess, "1 White · 2 Black"),
        (G::Xiangqi, "1 Red · 2 Black"),
    ] {
        let mut a = g.app();
        keys(&mut a, "p");
        let s = text(&a);
        assert!(s.contains(sides), "{g:?}\n{s}");
        assert!(
            g == G::Chess || !s.contains("White"),
            "{g:?}: chess's side named\n{s}"
        );
    }
}

/// A popup's left border shows on every row in both games, also where it falls on the
/// second half of a wide (CJK) xiangqi piece: the players menu and a question, as the
/// terminal gets them (TestBackend draws only what changed, skipping a wide symbol's
/// second column as a terminal does).
#[test]
fn a_popups_left_border_shows_on_every_row_in_both_games() {
    for g in GAMES {
        // The popup's first words, how far right of its border and below its top they are.
        for (setup, words, dx, dy) in [("p", "Who plays?", 2, 0), ("n", "Abandon the", 1, 1)] {
            let mut a = g.app();
            g.play(&mut a, 4);
            keys(&mut a, setup);
            let (s, buf) = screen(&a, &Theme::colored(), 80, 24);
            let (wx, wy) = super::tests::find(&buf, words).expect(words);
            let (x, top) = (wx - dx, wy - dy);
            assert_eq!(buf[(x, top)].symbol(), "┌", "{g:?} {words}\n{s}");
            let mut y = top + 1;
            while buf[(x, y)].symbol() != "└" {
                assert_eq!(
                    buf[(x, y)].symbol(),
                    "│",
                    "{g:?} {words}: no left border on row {y}\n{s}"
                );
                y += 1;
            }
        }
    }
}

/// An engine error goes to the game screen whose request failed, in both games, and is
/// said there.
#[test]
fn an_engine_error_goes_to_the_screen_that_asked_in_both_games() {
    use super::engine_thread::Report;
    for g in GAMES {
        let mut a = g.app();
        keys(&mut a, "p2");
        assert!(asked(&a).is_some(), "{g:?}: the engine was not asked");
        let e = Report::Error(crate::engine::TtAllocError::NotEnoughMemory {
            mb: 4096,
            available_mb: 100,
        });
        let own = match g {
            G::Chess => Screen::Play,
            G::Xiangqi => Screen::Xiangqi,
        };
        assert_eq!(a.report_screen(&e), own, "{g:?}");
        a.update(Action::Engine(e));
        let m = a.message.clone().expect("the error said");
        assert!(
            m.is_error() && m.text.contains("4096 MB"),
            "{g:?}: {}",
            m.text
        );
    }
}

/// Blind mode, the level and the clocks of new games are kept in the config file in both
/// games (an old file, without them, still read), and the next run starts with them.
#[test]
fn settings_are_kept_alike_in_both_games() {
    for g in GAMES {
        let dir =
            std::env::temp_dir().join(format!("threefold-settings-{g:?}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.toml");
        std::fs::write(&path, "# mine\nhuman = \"both\"\nbook = false\n").unwrap();
        let run = |path: &Path| {
            let (cfg, problem) = super::config::load_or_create(path);
            assert!(problem.is_none(), "{g:?}: {problem:?}");
            let mut a = App::new(&cfg, Game::new());
            a.update(Action::Resize(80, 24));
            a.config_path = Some(path.to_path_buf());
            if g == G::Xiangqi {
                keys(&mut a, "X");
            }
            a
        };
        let mut a = run(&path);
        // Level, blind and clocks as they are (the defaults), then changed.
        let was = (g.level(&a), g.blind(&a), g.clock_base(&a));
        assert_eq!(was, (3, false, None), "{g:?}");
        keys(&mut a, "+Bt");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("# mine"), "{g:?}: {text}");
        for kept in ["level = 4", "blind = true", "clock_base_secs = 300"] {
            assert!(text.contains(kept), "{g:?}: {kept} not kept\n{text}");
        }
        let a = run(&path);
        let five = Some(std::time::Duration::from_secs(300));
        assert_eq!(
            (g.level(&a), g.blind(&a), g.clock_base(&a)),
            (4, true, five),
            "{g:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Clocks in both games: the clocks key's choice is this game's while none is under way,
/// and the next game's once one is; a flag that falls ends the game.
#[test]
fn clocks_are_chosen_and_fall_alike_in_both_games() {
    for g in GAMES {
        let mut a = g.app();
        keys(&mut a, "t");
        let five = Some(std::time::Duration::from_secs(300));
        assert_eq!(g.clock_base(&a), five, "{g:?}: {:?}", a.message);
        g.play(&mut a, 2);
        keys(&mut a, "t");
        let m = message(&a);
        assert!(m.contains("Clocks 3+2 from the next game"), "{g:?}: {m}");
        assert_eq!(
            g.clock_base(&a),
            five,
            "{g:?}: the game under way lost its clocks"
        );
        let later = std::time::Instant::now() + std::time::Duration::from_secs(400);
        a.update(Action::Tick(later));
        assert!(g.is_over(&a), "{g:?}: no flag fell");
    }
}

/// Stepping through the history: the same keys step the same plies in both games, and the
/// start of a game with no move is the live position.
#[test]
fn the_history_keys_step_alike_in_both_games() {
    for g in GAMES {
        let mut a = g.app();
        key(&mut a, KeyCode::Home);
        assert_eq!(g.view(&a), None, "{g:?}");
        g.play(&mut a, 4);
        keys(&mut a, ",,");
        assert_eq!(g.view(&a), Some(2), "{g:?}");
        keys(&mut a, ".");
        assert_eq!(g.view(&a), Some(3), "{g:?}");
        keys(&mut a, ".");
        assert_eq!(
            g.view(&a),
            None,
            "{g:?}: past the last ply is the live position"
        );
        key(&mut a, KeyCode::Home);
        assert_eq!(g.view(&a), Some(0), "{g:?}");
        key(&mut a, KeyCode::End);
        assert_eq!(g.view(&a), None, "{g:?}");
    }
}

/// The engine's seat in both games: its answer to a search stopped or replaced is ignored,
/// its answer to the search asked is played, and a takeback returns to your move (the
/// engine's reply with it), said in the same words.
#[test]
fn the_engine_seat_and_takeback_work_alike_in_both_games() {
    for g in GAMES {
        let mut a = g.app();
        keys(&mut a, "p1");
        assert_eq!(g.players(&a), Players::HumanWhite, "{g:?}");
        keys(&mut a, "u");
        let m = message(&a);
        assert_eq!(m, "Nothing to take back.", "{g:?}");
        a.effects.clear();
        typed(&mut a, g.moves()[0]);
        let id = asked(&a).unwrap_or_else(|| panic!("{g:?}: the engine was not asked"));
        let reply = g.moves()[1];
        let stale = g.best(&a, id + 99, reply);
        a.update(Action::Engine(stale));
        assert_eq!(g.ply(&a), 1, "{g:?}: a stale answer was played");
        let best = g.best(&a, id, reply);
        a.update(Action::Engine(best));
        assert_eq!(g.ply(&a), 2, "{g:?}: the answer was not played");
        keys(&mut a, "u");
        assert_eq!(g.ply(&a), 0, "{g:?}");
        let m = message(&a);
        assert_eq!(m, "Took back 2 plies.", "{g:?}");
    }
}

/// Saving in both games: the prompt names where a name alone goes, and the message names
/// the file written.
#[test]
fn saving_says_the_same_in_both_games() {
    for g in GAMES {
        let dir = temp_dir(&format!("save-{g:?}"));
        let file = dir.join("g.pgn");
        let mut a = g.app();
        g.play(&mut a, 2);
        keys(&mut a, "s");
        let m = message(&a);
        assert!(m.starts_with("A name alone is saved in"), "{g:?}: {m}");
        ctrl(&mut a, 'u');
        keys(&mut a, &file.display().to_string());
        key(&mut a, KeyCode::Enter);
        let m = message(&a);
        assert_eq!(m, format!("Saved {}", file.display()), "{g:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Text without its blanks: a wrapped message reads on, a CJK character's second cell
/// does not count.
fn solid(text: &str) -> String {
    text.split_whitespace().collect()
}

/// The screen's text without blanks ([`solid`]).
fn flat(a: &App) -> String {
    solid(&screen(a, &Theme::plain(), 80, 24).0)
}

/// Scenarios from real games (issue 39 item 2), one path for both games: `S` on the drills'
/// theme list lists the game's scenarios by players and year only; choosing one opens the
/// game's screen at the scenario's position (the real moves before it played), the player
/// on its side and the engine sparring; the game in progress is asked about first; the real
/// game's note is told only once the game is left.
#[test]
fn a_scenario_is_chosen_played_and_told_after_in_both_games() {
    let all = crate::drills::load_builtin().scenarios;
    for g in GAMES {
        let kind = match g {
            G::Chess => crate::drills::GameKind::Chess,
            G::Xiangqi => crate::drills::GameKind::Xiangqi,
        };
        let first = all
            .iter()
            .find(|s| s.game_kind == kind)
            .expect("a scenario");
        let mut a = g.app();
        g.play(&mut a, 2);
        keys(&mut a, "dS");
        let list = flat(&a);
        let label = format!("{} - {}, {}", first.first, first.black, first.year());
        assert!(list.contains(&solid(&label)), "{g:?}: {list}");
        for s in all.iter().filter(|s| s.game_kind == kind) {
            for secret in [&s.motif, &s.theme_name, &s.note, &s.source] {
                assert!(
                    !list.contains(&solid(secret)),
                    "{g:?}: the list tells {secret}"
                );
            }
        }
        // The game in progress is asked about first.
        key(&mut a, KeyCode::Enter);
        assert_eq!(
            a.screen,
            if g == G::Chess {
                Screen::Play
            } else {
                Screen::Xiangqi
            }
        );
        assert!(
            flat(&a).contains(&solid("Abandon the game in progress to play a scenario")),
            "{g:?}"
        );
        assert_eq!(g.ply(&a), 2);
        keys(&mut a, "y");
        assert_eq!(
            g.ply(&a),
            first.begin,
            "{g:?}: the real game's moves up to begin"
        );
        let side_black = first.player == "black";
        let players = match g {
            G::Chess => a.play.config.human,
            G::Xiangqi => a.xiangqi.players,
        };
        assert_eq!(
            players,
            if side_black {
                Players::HumanBlack
            } else {
                Players::HumanWhite
            }
        );
        match (g, first.position_at_begin()) {
            (G::Chess, crate::drills::scenario::ScenarioGame::Chess(want)) => {
                assert_eq!(a.play.game.position(), want.position());
                assert!(!a.play.config.sparring, "the setting is left as it was");
            }
            (G::Xiangqi, crate::drills::scenario::ScenarioGame::Xiangqi(want)) => {
                assert_eq!(a.xiangqi.record().current(), want.current());
                assert!(!a.xiangqi.sparring, "the setting is left as it was");
            }
            _ => panic!("{g:?}: the scenario's game"),
        }
        let shown = flat(&a);
        // The note's end (its start may share a row with the players' CJK names).
        let words: Vec<&str> = first.note.split_whitespace().collect();
        let note_end: String = words[words.len() - 6..].concat();
        assert!(
            !shown.contains(&note_end),
            "{g:?}: the note before the game: {shown}"
        );
        // Leaving the scenario's game tells what happened in the real game.
        keys(&mut a, "ny");
        let after = flat(&a);
        assert!(after.contains(&note_end), "{g:?}: no note after: {after}");
        let message = message(&a);
        assert!(message.contains(&first.note), "{g:?}: {message}");
    }
}
