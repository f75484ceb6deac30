//! Key/mouse handling on App state, and TestBackend rendering of each screen.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use shakmaty::{Position, Role, Square};

use crate::drills::GameKind;
use crate::rules::{EndingKind, Game};

use super::app::render::{self, layout, render_with};
use super::app::{Action, App, Effect, Overlay, Question, Screen};
use super::chess::Players;
use super::chess::{Overlay as PlayOverlay, Question as PlayQuestion};
use super::config::Config;
use super::engine_thread::Report;
use super::theme::Theme;

pub(super) fn app() -> App {
    let cfg = Config {
        human: Players::TwoHumans,
        book: false,
        ..Config::default()
    };
    let mut a = App::new(&cfg, Game::new());
    a.update(Action::Resize(120, 40));
    a
}

/// The default settings without the opening book, for tests of the engine's search from the
/// start position.
pub(super) fn no_book() -> Config {
    Config {
        book: false,
        ..Config::default()
    }
}

/// The opening book: the engine answers 1.e4 at once from a line of the book, names the
/// opening, and varies between games; a game from another position, or with the book off,
/// is searched.
#[test]
fn the_engine_opens_from_its_book_and_varies() {
    use crate::engine::chess::book::Book;
    let mut replies = std::collections::BTreeSet::new();
    for seed in 1..40 {
        let mut a = App::new(&Config::default(), Game::new());
        a.play.rng = crate::rules::shuffle::Rng::new(seed);
        typed(&mut a, "e4");
        assert_eq!(a.play.game.len(), 2, "answered at once");
        assert!(a.play.thinking.is_none());
        assert!(!a.effects.iter().any(|e| matches!(e, Effect::Think { .. })));
        let reply = a.play.game.san_plus(2).unwrap().to_string();
        let m = &a.message.as_ref().unwrap().text;
        assert!(m.starts_with("Book: "), "{m}");
        let played: Vec<shakmaty::Move> = a.play.game.moves().collect();
        assert!(
            Book::builtin()
                .lines()
                .iter()
                .any(|l| l.moves.starts_with(&played) && m.contains(&l.name)),
            "{reply}: {m}"
        );
        replies.insert(reply);
    }
    assert!(replies.len() >= 3, "{replies:?}");
    // Off the book (1.h4): searched.
    let mut a = App::new(&Config::default(), Game::new());
    typed(&mut a, "h4");
    assert!(a.play.thinking.is_some());
    // From a FEN: searched.
    let mut a = App::new(&Config::default(), Game::new());
    a.new_game(Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap());
    typed(&mut a, "e4");
    assert!(a.play.thinking.is_some());
    // The book off: searched.
    let mut a = App::new(&no_book(), Game::new());
    typed(&mut a, "e4");
    assert!(a.play.thinking.is_some());
}

pub(super) fn key(a: &mut App, code: KeyCode) {
    a.update(Action::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

pub(super) fn keys(a: &mut App, s: &str) {
    for c in s.chars() {
        key(a, KeyCode::Char(c));
    }
}

pub(super) fn typed(a: &mut App, mv: &str) {
    key(a, KeyCode::Char('i'));
    keys(a, mv);
    key(a, KeyCode::Enter);
}

pub(super) fn click(a: &mut App, x: u16, y: u16) {
    a.update(Action::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    }));
}

fn click_square(a: &mut App, sq: Square) {
    let areas = layout(a.size).unwrap();
    let g = render::board_geom(&areas, a.play.flipped).unwrap();
    let r = g.rect(sq);
    click(a, r.x + 1, r.y);
}

/// Knights out and back twice: the start position stands a third time at ply 8.
pub(super) fn shuffle(a: &mut App, plies: usize) {
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
        .iter()
        .take(plies)
    {
        typed(a, m);
    }
}

pub(super) fn screen(a: &App, theme: &Theme, w: u16, h: u16) -> (String, ratatui::buffer::Buffer) {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render_with(a, theme, f.area(), f.buffer_mut()))
        .unwrap();
    let buf = t.backend().buffer().clone();
    let mut s = String::new();
    for y in 0..h {
        for x in 0..w {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    (s, buf)
}

pub(super) fn find(buf: &ratatui::buffer::Buffer, text: &str) -> Option<(u16, u16)> {
    for y in 0..buf.area.height {
        let row: Vec<&str> = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        let line: String = row.concat();
        if let Some(i) = line.find(text) {
            // Byte index to column (symbols may be multi-byte).
            let mut bytes = 0;
            for (x, s) in row.iter().enumerate() {
                if bytes == i {
                    return Some((x as u16, y));
                }
                bytes += s.len();
            }
        }
    }
    None
}

#[test]
fn typed_moves_san_and_uci() {
    let mut a = app();
    typed(&mut a, "e4");
    typed(&mut a, "e7e5");
    assert_eq!(a.play.game.len(), 2);
    assert!(a.input.is_none());
}

#[test]
fn illegal_and_ambiguous_typed_moves_change_nothing_but_the_message() {
    let mut a = app();
    typed(&mut a, "Ke2");
    assert_eq!(a.play.game.len(), 0);
    let m = a.message.clone().unwrap();
    assert!(m.is_error());
    let msg = m.text;
    assert_eq!(
        msg, "Ke2: the king on e1 cannot go to e2 (your own pawn stands there)",
        "the reason, in one line"
    );
    assert!(!msg.contains('\n'));
    key(&mut a, KeyCode::Esc);
    let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    a.new_game(Game::from_fen(fen).unwrap());
    typed(&mut a, "Nd2");
    assert_eq!(a.play.game.len(), 0);
    let msg = a.message.clone().unwrap().text;
    assert!(msg.contains("ambiguous: the knights on b1 and f1"), "{msg}");
    // The typed text stays for correction.
    assert_eq!(a.input.as_ref().unwrap().text(), "Nd2");
    key(&mut a, KeyCode::Backspace);
    key(&mut a, KeyCode::Backspace);
    keys(&mut a, "bd2");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.game.len(), 1);
}

#[test]
fn cursor_moves_with_arrows_and_hjkl() {
    let mut a = app();
    assert_eq!(a.play.cursor, Square::E2);
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.selected, Some(Square::E2));
    assert_eq!(a.play.targets().len(), 2);
    key(&mut a, KeyCode::Up);
    keys(&mut a, "k");
    keys(&mut a, " ");
    assert_eq!(a.play.game.len(), 1);
    assert_eq!(
        a.play
            .game
            .position()
            .board()
            .piece_at(Square::E4)
            .unwrap()
            .role,
        Role::Pawn
    );
    // Flipped: up moves towards White's side.
    keys(&mut a, "f");
    let before = a.play.cursor;
    keys(&mut a, "k");
    assert_eq!(u8::from(a.play.cursor.rank()) + 1, u8::from(before.rank()));
    keys(&mut a, "hl");
    assert_eq!(a.play.cursor.file(), before.file());
}

#[test]
fn mouse_select_then_target() {
    let mut a = app();
    click_square(&mut a, Square::G1);
    assert_eq!(a.play.selected, Some(Square::G1));
    click_square(&mut a, Square::F3);
    assert_eq!(a.play.game.len(), 1);
    // Flipped board, same clicks land on the right squares.
    a.play.flipped = true;
    click_square(&mut a, Square::B8);
    click_square(&mut a, Square::C6);
    assert_eq!(a.play.game.len(), 2);
    assert_eq!(a.play.game.ply_label(2), "1...Nc6");
}

#[test]
fn promotion_asks_which_piece() {
    let mut a = app();
    a.new_game(Game::from_fen("8/P7/8/8/8/8/8/k6K w - - 0 1").unwrap());
    click_square(&mut a, Square::A7);
    click_square(&mut a, Square::A8);
    assert!(matches!(a.play.overlay, Some(PlayOverlay::Promotion(_))));
    assert_eq!(a.play.game.len(), 0);
    keys(&mut a, "n");
    assert_eq!(a.play.game.len(), 1);
    assert_eq!(
        a.play
            .game
            .position()
            .board()
            .piece_at(Square::A8)
            .unwrap()
            .role,
        Role::Knight
    );
}

#[test]
fn promotion_by_click() {
    let mut a = app();
    a.new_game(Game::from_fen("8/P7/8/8/8/8/8/k6K w - - 0 1").unwrap());
    click_square(&mut a, Square::A7);
    click_square(&mut a, Square::A8);
    let (r, cmd) = super::chess::promotion_layout(a.size).1[1];
    assert_eq!(cmd, super::keys::Cmd::Promote(Role::Rook));
    click(&mut a, r.x + 1, r.y);
    assert_eq!(
        a.play
            .game
            .position()
            .board()
            .piece_at(Square::A8)
            .unwrap()
            .role,
        Role::Rook
    );
}

#[test]
fn threefold_claim_now_is_correct() {
    let mut a = app();
    shuffle(&mut a, 8);
    assert_eq!(a.play.game.occurrences(4), 2);
    assert_eq!(a.play.game.occurrences(8), 3);
    keys(&mut a, "c");
    assert_eq!(a.play.overlay, Some(PlayOverlay::Claim));
    keys(&mut a, "1");
    match &a.play.overlay {
        Some(PlayOverlay::Verdict { correct, text, .. }) => {
            assert!(correct);
            assert!(text.contains("9.2"), "{text}");
        }
        o => panic!("{o:?}"),
    }
    let t = a.play.game.termination().unwrap();
    assert_eq!(t.ending.kind, EndingKind::ThreefoldClaim);
    assert_eq!(a.play.highlight, vec![0, 4, 8]);
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.play.overlay, None);
}

#[test]
fn wrong_claim_explains_and_the_game_goes_on() {
    let mut a = app();
    shuffle(&mut a, 4);
    keys(&mut a, "c1");
    match &a.play.overlay {
        Some(PlayOverlay::Verdict { correct, text, .. }) => {
            assert!(!correct);
            assert!(text.contains("stands for the second time"), "{text}");
        }
        o => panic!("{o:?}"),
    }
    assert!(!a.play.game.is_over());
    assert_eq!(a.play.game.len(), 4);
}

#[test]
fn claim_with_intended_move_typed_and_on_the_board() {
    let mut a = app();
    shuffle(&mut a, 7);
    keys(&mut a, "c2");
    assert!(a.play.claim_pending.is_some());
    keys(&mut a, "Ng8");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.game.len(), 8);
    assert_eq!(
        a.play.game.termination().unwrap().ending.kind,
        EndingKind::ThreefoldClaim
    );

    // The intended move made with the mouse; wrong claim with clocks: move played, +2 min.
    let mut a = app();
    keys(&mut a, "t");
    shuffle(&mut a, 2);
    keys(&mut a, "c2");
    key(&mut a, KeyCode::Esc);
    assert!(a.play.claim_pending.is_some());
    let black_before = a.play.clock.as_ref().unwrap().left[1];
    click_square(&mut a, Square::F3);
    click_square(&mut a, Square::G1);
    assert_eq!(a.play.game.len(), 3);
    assert!(!a.play.game.is_over());
    let Some(PlayOverlay::Verdict { correct, text, .. }) = &a.play.overlay else {
        panic!()
    };
    assert!(!correct);
    assert!(text.contains("9.5"), "{text}");
    assert!(text.contains("Black gets 2 more minutes"), "{text}");
    assert!(
        a.play.clock.as_ref().unwrap().left[1]
            >= black_before + std::time::Duration::from_secs(119)
    );
}

#[test]
fn engine_gets_the_whole_game_and_takeback_returns_to_the_human() {
    // Without the book: the engine's first reply is searched.
    let cfg = Config {
        book: false,
        ..Config::default()
    };
    let mut a = App::new(&cfg, Game::new());
    assert_eq!(a.play.config.human, Players::HumanWhite);
    a.start();
    assert!(a.effects.is_empty());
    typed(&mut a, "e4");
    let Some(Effect::Think {
        id,
        game: super::engine_thread::GameRecord::Chess { moves, .. },
        ..
    }) = a.effects.pop()
    else {
        panic!("no search")
    };
    assert_eq!(moves.len(), 1);
    assert!(a.play.thinking.is_some());
    // The human cannot move for the engine.
    typed(&mut a, "d4");
    assert_eq!(a.play.game.len(), 1);
    key(&mut a, KeyCode::Esc);
    let e5 = a.play.game.parse_move("e5").unwrap();
    // A stale report is ignored.
    a.update(Action::Engine(Report::Best {
        id: id + 99,
        mv: Some(e5.into()),
    }));
    assert_eq!(a.play.game.len(), 1);
    a.update(Action::Engine(Report::Best {
        id,
        mv: Some(e5.into()),
    }));
    assert_eq!(a.play.game.len(), 2);
    keys(&mut a, "u");
    assert_eq!(a.play.game.len(), 0);
}

/// The engine's search: an info line with `score` (its own point of view), then `mv`.
pub(super) fn engine_answers(a: &mut App, score: i32, mv: &str) {
    let id = a.play.thinking.as_ref().expect("the engine is thinking").id;
    let m = a.play.game.parse_move(mv).unwrap();
    a.update(Action::Engine(Report::Info {
        id,
        info: super::engine_thread::Info {
            depth: 5,
            score: super::engine_thread::Score::Cp(score),
            nodes: 100,
            nps: 1000,
            pv: vec![m.into()],
        },
    }));
    a.update(Action::Engine(Report::Best {
        id,
        mv: Some(m.into()),
    }));
}

const KNIGHTS: [&str; 9] = [
    "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3",
];

/// A game between humans up to `plies`, then engine against engine.
fn engines_after(plies: usize, contempt: i32) -> App {
    let mut a = app();
    for m in KNIGHTS.iter().take(plies) {
        typed(&mut a, m);
    }
    a.play.config.human = Players::Engines;
    a.play.config.contempt = contempt;
    a.start();
    a
}

#[test]
fn the_engine_claims_after_its_search_from_its_own_score_with_either_colour() {
    // White to move in the start position, standing for the third time.
    // Black's last report said Black is lost: that is no reason for White to claim.
    let mut a = engines_after(8, 0);
    a.play.last = Some(super::chess::LastSearch {
        info: super::engine_thread::Info {
            depth: 5,
            score: super::engine_thread::Score::Cp(-300),
            nodes: 1,
            nps: 1,
            pv: Vec::new(),
        },
        pv: String::new(),
        side: None,
    });
    assert!(!a.play.game.is_over(), "no claim before the search");
    assert!(a.play.thinking.is_some());
    engine_answers(&mut a, 300, "Nf3");
    assert!(
        !a.play.game.is_over(),
        "White is better by its own score: it plays on"
    );
    assert_eq!(a.play.game.len(), 9);
    // Black to move after 5.Nf3, standing for the third time; Black thinks it
    // is worse: it claims (9.2 b).
    engine_answers(&mut a, -40, "Nf6");
    let t = a.play.game.termination().expect("Black claimed");
    assert_eq!(t.ending.kind, EndingKind::ThreefoldClaim);
    assert_eq!(a.play.game.len(), 9, "a claim now plays no move");
    // The same for White.
    let mut a = engines_after(8, 0);
    engine_answers(&mut a, -40, "Nf3");
    assert_eq!(
        a.play
            .game
            .termination()
            .expect("White claimed")
            .ending
            .kind,
        EndingKind::ThreefoldClaim
    );
    // With contempt 50, -40 is still better than a draw: play on.
    let mut a = engines_after(8, 50);
    engine_answers(&mut a, -40, "Nf3");
    assert!(!a.play.game.is_over());
}

#[test]
fn the_engine_claims_with_its_intended_move_when_it_repeats_for_the_third_time() {
    // Black to move; ...Ng8 would bring the start position a third time (9.2 a).
    let mut a = engines_after(7, 0);
    engine_answers(&mut a, 0, "Ng8");
    let t = a
        .play
        .game
        .termination()
        .expect("Black claimed with its move");
    assert_eq!(t.ending.kind, EndingKind::ThreefoldClaim);
    assert_eq!(
        a.play.game.len(),
        8,
        "the intended move is written, as 9.2 (a) says"
    );
    // Better by its own score: it plays the move and claims nothing.
    let mut a = engines_after(7, 0);
    engine_answers(&mut a, 120, "Ng8");
    assert!(!a.play.game.is_over());
    assert_eq!(a.play.game.len(), 8);
    // A human opponent: the engine (Black) claims the same way.
    let mut a = app();
    for m in KNIGHTS.iter().take(7) {
        typed(&mut a, m);
    }
    a.play.config.human = Players::HumanWhite;
    a.start();
    engine_answers(&mut a, -10, "Ng8");
    assert!(a.play.game.is_over());
}

#[test]
fn history_stepping_and_occurrence_jumps() {
    let mut a = app();
    shuffle(&mut a, 8);
    keys(&mut a, ",");
    assert_eq!(a.play.view, Some(7));
    key(&mut a, KeyCode::End);
    assert_eq!(a.play.view, None);
    keys(&mut a, "r");
    assert_eq!(a.play.view, Some(4));
    keys(&mut a, "r");
    assert_eq!(a.play.view, Some(0));
    keys(&mut a, "R");
    assert_eq!(a.play.view, Some(4));
    // Mouse wheel and clicking a move in the list.
    a.update(Action::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: 0,
        row: 0,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(a.play.view, Some(3));
    let areas = layout(a.size).unwrap();
    let (r, ply) = super::chess::history_cells(&a.play, areas.history)
        .into_iter()
        .find(|c| c.1 == 5)
        .unwrap();
    click(&mut a, r.x, r.y);
    assert_eq!(a.play.view, Some(ply));
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.play.view, None);
}

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
fn euwe_stepper_keys() {
    let mut a = app();
    keys(&mut a, "e");
    assert_eq!(a.screen, Screen::Euwe);
    keys(&mut a, "5");
    assert_eq!(a.euwe.ply, 16);
    keys(&mut a, "hl");
    keys(&mut a, "a");
    assert!(a.euwe.autoplay);
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.screen, Screen::Play);
}

// ---- rendering ----

#[test]
fn main_screen_renders_board_history_button_and_hints() {
    let mut a = app();
    shuffle(&mut a, 8);
    let (s, buf) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("Claim draw"), "{s}");
    assert!(s.contains("claim possible"));
    assert!(s.contains(" c claim "), "{s}");
    assert!(s.contains("♞"));
    assert!(s.contains("Ng8 ×2"), "{s}");
    assert!(s.contains("Ng8 ×3"), "{s}");
    // Badges in their colours: 2nd and 3rd occurrence differ.
    let t = Theme::colored();
    let (x2, y2) = find(&buf, "Ng8 ×2").unwrap();
    let (x3, y3) = find(&buf, "Ng8 ×3").unwrap();
    assert_eq!(buf[(x2, y2)].bg, t.rep2.bg.unwrap());
    assert_ne!(buf[(x3, y3)].bg, buf[(x2, y2)].bg);
    assert!(
        s.contains("third occurrence; earlier: the start position"),
        "{s}"
    );
    // Rank labels: White at the bottom.
    let (_, y8) = find(&buf, "8 ").unwrap();
    let (_, ya) = find(&buf, "a       b").unwrap();
    assert!(y8 < ya);
}

#[test]
fn no_color_keeps_marks_as_text() {
    let mut a = app();
    shuffle(&mut a, 8);
    let (s, buf) = screen(&a, &Theme::plain(), 120, 40);
    assert!(s.contains("Ng8 ×3"));
    for y in 0..40 {
        for x in 0..120 {
            assert_eq!(buf[(x, y)].bg, ratatui::style::Color::Reset);
        }
    }
    // White pieces outlined, black solid.
    assert!(s.contains("♘") && s.contains("♞"));
}

#[test]
fn flipped_board_has_black_at_the_bottom() {
    let mut a = app();
    keys(&mut a, "f");
    let (_, buf) = screen(&a, &Theme::colored(), 120, 40);
    let (_, y1) = find(&buf, "1 ").unwrap();
    let (_, yh) = find(&buf, "h       g").unwrap();
    assert!(y1 < yh);
}

#[test]
fn too_small_terminal_asks_to_enlarge() {
    let a = app();
    let (s, _) = screen(&a, &Theme::colored(), 50, 12);
    assert!(s.contains("enlarge to 64×20"), "{s}");
    // Every size renders without panicking.
    for (w, h) in [(1, 1), (63, 19), (64, 20), (80, 24), (200, 60)] {
        let _ = screen(&a, &Theme::colored(), w, h);
    }
}

#[test]
fn claim_dialog_and_verdicts_render() {
    let mut a = app();
    shuffle(&mut a, 8);
    keys(&mut a, "c");
    let (s, _) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("Claim a draw"));
    assert!(s.contains("[1] threefold now (9.2 b)"));
    assert!(s.contains("[2] threefold with a move (9.2 a)"));
    // Clicking option 1.
    let (r, _) = super::chess::claim_layout(&a.play, a.size).buttons[0];
    click(&mut a, r.x + 2, r.y);
    let (s, _) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("Claim correct: draw"), "{s}");
    assert!(s.contains("GAME OVER"));
    assert!(s.contains("1/2-1/2"));

    let mut a = app();
    shuffle(&mut a, 4);
    keys(&mut a, "c1");
    let (s, _) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("Claim incorrect"), "{s}");
}

#[test]
fn claim_button_is_clickable() {
    let mut a = app();
    let areas = layout(a.size).unwrap();
    click(&mut a, areas.claim.x + 2, areas.claim.y);
    assert_eq!(a.play.overlay, Some(PlayOverlay::Claim));
}

#[test]
fn fivefold_ends_with_a_banner() {
    let mut a = app();
    shuffle(&mut a, 8);
    shuffle(&mut a, 8);
    assert_eq!(
        a.play.game.termination().unwrap().ending.kind,
        EndingKind::FivefoldRepetition
    );
    let (s, _) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("GAME OVER"), "{s}");
    assert!(s.contains("fivefold repetition (FIDE 9.6.1)"));
    assert!(s.contains("×5"));
}

#[test]
fn help_overlay_is_generated_from_the_key_table() {
    let mut a = app();
    keys(&mut a, "?");
    // The drill screen's own help lists the drill bindings (drill_tests).
    let help = help_over_pages(&mut a, 120, 40);
    assert_help_lists(&help, on_the_game_screens_help);
}

/// Whether the help on the chess game screen lists a context's keys: every context but the
/// drill screens' and the xiangqi screens' (their own helps list those; drill_tests,
/// xiangqi_tests).
fn on_the_game_screens_help(c: super::keys::Ctx) -> bool {
    use super::keys::Ctx;
    !matches!(
        c,
        Ctx::DrillThemes
            | Ctx::DrillAnswer
            | Ctx::DrillFeedback
            | Ctx::Xiangqi
            | Ctx::XqCall
            | Ctx::XqDrillThemes
            | Ctx::XqDrillAnswer
            | Ctx::XqDrillFeedback
    )
}

/// The help overlay at `w`×`h`, read page by page with the table's page key:
/// each row between the popup's borders, placed at the scroll it was shown
/// at, joined with single spaces (so wrapped help texts read as one).
pub(super) fn help_over_pages(a: &mut App, w: u16, h: u16) -> String {
    use super::keys::{BINDINGS, Cmd, Ctx, Key};
    use std::collections::BTreeMap;
    let page_down = match BINDINGS
        .iter()
        .find(|b| b.ctx == Ctx::Help && b.cmd == Cmd::PageDown)
        .expect("the help has a page key")
        .keys[0]
    {
        Key::Char(c) => KeyCode::Char(c),
        Key::Code(c) => c,
        Key::Ctrl(_) => unreachable!(),
    };
    a.update(Action::Resize(w, h));
    let mut rows = BTreeMap::new();
    loop {
        let Some(Overlay::Help { scroll }) = a.overlay else {
            panic!("help is not shown: {:?}", a.overlay)
        };
        let (s, _) = screen(a, &Theme::plain(), w, h);
        let lines: Vec<&str> = s.lines().collect();
        let top = lines.iter().position(|l| l.contains(" Help (")).unwrap();
        // The popup's columns: between its top corners.
        let corners: Vec<usize> = lines[top]
            .chars()
            .enumerate()
            .filter(|&(_, c)| c == '┌' || c == '┐')
            .map(|(i, _)| i)
            .collect();
        let (left, right) = (corners[0], corners[corners.len() - 1]);
        for (i, l) in lines[top + 1..].iter().enumerate() {
            let inside: String = l.chars().skip(left + 1).take(right - left - 1).collect();
            if l.chars().nth(left) == Some('└') {
                break;
            }
            rows.insert(scroll + i, inside.trim().to_string());
        }
        key(a, page_down);
        if a.overlay == Some(Overlay::Help { scroll }) {
            break;
        }
    }
    let text: Vec<String> = rows.into_values().collect();
    text.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Assert every binding of the contexts `shown` appears in the help, its
/// keys followed by its whole help text.
pub(super) fn assert_help_lists(help: &str, shown: impl Fn(super::keys::Ctx) -> bool) {
    for b in super::keys::BINDINGS.iter().filter(|b| shown(b.ctx)) {
        let row = format!("{} {}", b.keys_label(), super::keys::help_text(b));
        let row = row.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains(&row), "help lacks {row:?} in {help}");
    }
}

/// Every mark the screens draw is in the help's legend, each with one meaning; the `*`
/// that `r` draws in the move list is the legend's.
#[test]
fn the_help_has_a_legend_of_every_mark() {
    let mut a = app();
    shuffle(&mut a, 8);
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Enter);
    assert!(a.play.game.is_over());
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("*Ng8"), "{s}");
    keys(&mut a, "?");
    let help = help_over_pages(&mut a, 80, 24);
    for row in [
        "Marks",
        "×2 ×3 the position after this ply stands for the 2nd, 3rd … time",
        "* a ply the ruling names: the occurrences of a repetition, the ply of an ending",
        "| xiangqi: a ply of the repetition the ruling judges",
        "✗ a repetition detector errs at this ply (How engines see it)",
        "[ ] a ply chosen in a drill's answer",
        "★ a drill's difficulty",
        "▶ the player to move; in a list, the row selected",
    ] {
        assert!(help.contains(row), "help lacks {row:?} in {help}");
    }
    // In ASCII the marks are letters and signs, and still one meaning each.
    let legend = super::theme::legend(true);
    let marks: Vec<&str> = legend.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        marks,
        ["x2 x3", "*", "|", "check chase idle", "?", "[ ]", "+", ">"]
    );
}

#[test]
fn help_fits_80x24_over_its_pages() {
    let mut a = app();
    keys(&mut a, "?");
    let help = help_over_pages(&mut a, 80, 24);
    // Every binding but the drill screen's (drill_tests checks those).
    assert_help_lists(&help, on_the_game_screens_help);
    assert!(help.contains("Mouse: click a piece"), "{help}");
    // The smallest terminal the trainer runs in, too.
    keys(&mut a, "g");
    let help = help_over_pages(&mut a, 64, 20);
    assert_help_lists(&help, on_the_game_screens_help);
}

#[test]
fn help_scrolls_and_stops_at_its_ends() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "?");
    key(&mut a, KeyCode::Up);
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: 0 }));
    key(&mut a, KeyCode::Down);
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: 1 }));
    key(&mut a, KeyCode::End);
    let Some(Overlay::Help { scroll: end }) = a.overlay else {
        panic!()
    };
    assert!(end > 1);
    key(&mut a, KeyCode::Down);
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: end }));
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("wheel steps through the history"), "{s}");
    a.update(Action::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: 10,
        row: 10,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: end - 1 }));
    key(&mut a, KeyCode::Home);
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: 0 }));
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.overlay, None);
}

#[test]
fn euwe_screen_shows_both_rules() {
    let mut a = app();
    keys(&mut a, "e");
    keys(&mut a, "5");
    let (s, _) = screen(&a, &Theme::colored(), 200, 50);
    assert!(s.contains("Thue–Morse is cube-free"), "{s}");
    assert!(
        s.contains("Longest played twice: 4 plies, plies 5–12"),
        "{s}"
    );
    assert!(s.contains("fivefold at ply 16: game over"), "{s}");
    assert!(s.contains("Thue–Morse: 0 1 1 0"), "{s}");
    assert!(s.contains("×5"));
    // The autoplay line whole at 80×24.
    let (s, _) = screen(&a, &Theme::colored(), 80, 24);
    assert!(s.contains("Occurrences · autoplay off (400 ms)"), "{s}");
}

#[test]
fn ascii_board() {
    let mut a = app();
    a.ascii = true;
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    let rank8 = s
        .lines()
        .find(|l| l.starts_with(" 8") || l.starts_with("8"))
        .unwrap();
    let letters: String = rank8
        .chars()
        .take(36)
        .filter(|c| c.is_ascii_alphabetic())
        .collect();
    assert!(letters.starts_with("rnbqkbnr"), "{s}");
    let _ = Rect::default();
}

#[test]
fn sparkline_click_views_that_ply() {
    let mut a = app();
    shuffle(&mut a, 6);
    let areas = layout(a.size).unwrap();
    click(&mut a, areas.spark.x + 4, areas.spark.y + 1);
    assert_eq!(a.play.view, Some(4));
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
fn hash_and_contempt_reach_the_engine() {
    let mut a = app();
    keys(&mut a, "Hx");
    assert!(a.effects.contains(&Effect::SetHash(64)));
    assert!(a.effects.contains(&Effect::SetContempt(25)));
}

#[test]
fn fen_in_app() {
    let mut a = app();
    keys(&mut a, "F");
    a.input.as_mut().unwrap().line =
        super::line_edit::LineEdit::new("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.game.start_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    keys(&mut a, "F");
    a.input.as_mut().unwrap().line = super::line_edit::LineEdit::new("nonsense");
    key(&mut a, KeyCode::Enter);
    assert!(a.message.as_ref().unwrap().is_error());
    assert_eq!(a.play.game.start_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

#[test]
fn engine_pv_is_shown_in_san_with_a_spinner() {
    let mut a = App::new(&no_book(), Game::new());
    typed(&mut a, "e4");
    let Some(Effect::Think { id, .. }) = a.effects.pop() else {
        panic!()
    };
    let pv: Vec<_> = ["e7e5", "g1f3"]
        .iter()
        .map(|u| u.parse::<shakmaty::uci::UciMove>().unwrap())
        .collect();
    let mut pos = a.play.game.position().clone();
    let mut moves = Vec::new();
    for u in pv {
        let m = u.to_move(&pos).unwrap();
        pos.play_unchecked(m);
        moves.push(m);
    }
    a.update(Action::Engine(Report::Info {
        id,
        info: super::engine_thread::Info {
            depth: 7,
            score: super::engine_thread::Score::Cp(-31),
            nodes: 1000,
            nps: 250_000,
            pv: moves.into_iter().map(Into::into).collect(),
        },
    }));
    let (s, _) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("pv 1...e5 2.Nf3"), "{s}");
    // Black's search says -0.31 for Black: +0.31 from White's side.
    // The spinner says it is thinking (the word would not fit at 80 columns).
    assert!(s.contains("⠋  depth 7  +0.31 (White)  250 knps"), "{s}");
    // Blind mode keeps the score and the line back (a 0.00 in a shuffle tells of a
    // repetition): the depth and speed stay, as the spinner does.
    a.play.config.blind = true;
    let (s, _) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("⠋  depth 7  250 knps"), "{s}");
    assert!(!s.contains("+0.31"), "{s}");
    assert!(!s.contains("pv "), "{s}");
    assert!(!s.contains("e5"), "{s}");
}

#[test]
fn castling_by_clicking_the_kings_square_or_the_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut a = app();
    a.new_game(Game::from_fen(fen).unwrap());
    click_square(&mut a, Square::E1);
    assert!(a.play.targets().contains(&Square::G1));
    assert!(a.play.targets().contains(&Square::C1));
    click_square(&mut a, Square::G1);
    assert_eq!(a.play.game.ply_label(1), "1.O-O");
    click_square(&mut a, Square::E8);
    click_square(&mut a, Square::A8);
    assert_eq!(a.play.game.ply_label(2), "1...O-O-O");
}

#[test]
fn a_new_game_forgets_the_last_engine_report() {
    let mut a = app();
    a.play.last = Some(super::chess::LastSearch {
        info: super::engine_thread::Info {
            depth: 1,
            score: super::engine_thread::Score::Cp(0),
            nodes: 1,
            nps: 1,
            pv: Vec::new(),
        },
        pv: "1...e5 2.Nf3".to_string(),
        side: None,
    });
    a.new_game(Game::new());
    assert!(a.play.last_pv().is_empty());
    assert!(a.play.last_info().is_none());
}

/// Choosing two humans forgets the engine's last search whole: its score, its line and
/// the side it was from (one `Option`, so no part can stay behind).
#[test]
fn two_humans_forget_the_whole_last_search() {
    let mut a = app();
    a.play.config.human = Players::HumanWhite;
    a.play.last = Some(super::chess::LastSearch {
        info: super::engine_thread::Info {
            depth: 3,
            score: super::engine_thread::Score::Cp(40),
            nodes: 1,
            nps: 1,
            pv: Vec::new(),
        },
        pv: "1.e4 e5".to_string(),
        side: Some(shakmaty::Color::White),
    });
    keys(&mut a, "p3");
    assert_eq!(a.play.config.human, Players::TwoHumans);
    assert!(a.play.last.is_none());
}

/// A question about the game can be up over another screen (saving on quitting asks
/// about overwriting a file); closing it there leaves the engine alone, as the game
/// screen is not shown.
#[test]
fn a_game_question_closed_over_another_screen_leaves_the_engine_alone() {
    let mut a = app();
    a.play.config.human = Players::HumanWhite;
    typed(&mut a, "e4");
    assert!(a.play.thinking.is_some(), "the engine has the move");
    keys(&mut a, "e");
    assert_eq!(a.screen, Screen::Euwe);
    assert!(a.play.thinking.is_none());
    a.effects.clear();
    a.play.overlay = Some(PlayOverlay::Ask(PlayQuestion::Overwrite(
        std::path::PathBuf::from("game.pgn"),
    )));
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.play.overlay, None);
    assert!(a.play.thinking.is_none());
    assert!(!a.effects.iter().any(|e| matches!(e, Effect::Think { .. })));
}

/// Every screen and overlay at 80×24, the default terminal: its content and
/// its key hints are there, and clicking a dialog's button (laid out by the
/// same function that draws it) runs the button's command.
#[test]
fn every_screen_and_overlay_works_at_80x24() {
    let show = |a: &App| screen(a, &Theme::plain(), 80, 24).0;
    let mut a = app();
    a.update(Action::Resize(80, 24));
    shuffle(&mut a, 8);
    let s = show(&a);
    assert!(s.contains("Claim draw"), "{s}");
    assert!(s.contains("c claim"), "{s}");
    // Help: game, Euwe and global keys, closed by its own keys.
    keys(&mut a, "?");
    let s = show(&a);
    assert!(s.contains("Help (") && s.contains("claim a draw"), "{s}");
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.overlay, None);
    // The claim dialog, answered with a click on its first button.
    keys(&mut a, "c");
    let s = show(&a);
    assert!(
        s.contains("[1] threefold now") && s.contains("[2] threefold with"),
        "{s}"
    );
    assert!(s.contains("Esc cancel"), "{s}");
    let (r, cmd) = super::chess::claim_layout(&a.play, a.size).buttons[0];
    assert_eq!(
        cmd,
        super::keys::Cmd::ClaimAs(super::chess::ClaimOption::THREEFOLD_NOW)
    );
    click(&mut a, r.x + 1, r.y);
    let s = show(&a);
    assert!(s.contains("Claim correct: draw"), "{s}");
    assert!(s.contains("Enter close"), "{s}");
    key(&mut a, KeyCode::Enter);
    // A question: its keys are shown; Esc leaves things as they are.
    let mut a = app();
    a.update(Action::Resize(80, 24));
    typed(&mut a, "e4");
    keys(&mut a, "n");
    let s = show(&a);
    assert!(s.contains("start a new one?"), "{s}");
    assert!(
        s.contains("y yes") && s.contains("n no") && s.contains("Esc later"),
        "{s}"
    );
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.play.game.len(), 1);
    // Promotion, chosen by a click.
    a.new_game(Game::from_fen("8/P7/8/8/8/8/8/k6K w - - 0 1").unwrap());
    click_square(&mut a, Square::A7);
    click_square(&mut a, Square::A8);
    let s = show(&a);
    assert!(s.contains("q Queen") && s.contains("n Knight"), "{s}");
    let (r, _) = super::chess::promotion_layout(a.size).1[3];
    click(&mut a, r.x + 1, r.y);
    assert_eq!(
        a.play
            .game
            .position()
            .board()
            .piece_at(Square::A8)
            .unwrap()
            .role,
        Role::Knight
    );
    // The input line shows its keys from the table.
    keys(&mut a, "i");
    let s = show(&a);
    assert!(
        s.contains("Enter submit") && s.contains("Esc cancel"),
        "{s}"
    );
    key(&mut a, KeyCode::Esc);
    // Euwe.
    keys(&mut a, "e5");
    let s = show(&a);
    assert!(
        s.contains("Former German rule") && s.contains("FIDE"),
        "{s}"
    );
    assert!(s.contains("5 fivefold"), "{s}");
}

#[test]
fn clock_arithmetic_saturates() {
    use std::time::{Duration, Instant};
    let mut c = super::chess::Clock::new(Duration::MAX, Duration::MAX);
    let now = Instant::now();
    c.moved(shakmaty::Color::White, now);
    assert_eq!(c.left[0], Duration::MAX);
}

/// The Euwe screen at 80×24 and at the smallest size accepted: at the start,
/// at the first 9.2 claim, at the fivefold repetition and late in the
/// sequence, the panel's rows are all there, none cut at the right edge.
#[test]
fn euwe_screen_fits_80x24_and_the_minimum_size() {
    use super::euwe::layout as euwe_layout;
    for (w, h) in [(80, 24), (super::widgets::MIN_W, super::widgets::MIN_H)] {
        let mut a = app();
        a.update(Action::Resize(w, h));
        keys(&mut a, "e");
        let panel = euwe_layout(a.size).unwrap().panel;
        let show = |a: &App| screen(a, &Theme::plain(), w, h);
        let fits = |buf: &ratatui::buffer::Buffer, text: &str| {
            let (x, _) = find(buf, text).unwrap_or_else(|| panic!("{w}×{h}: {text:?} missing"));
            assert!(
                x + text.chars().count() as u16 <= panel.right(),
                "{w}×{h}: {text:?} cut"
            );
        };
        // Ply 0.
        let (s, buf) = show(&a);
        assert!(s.contains("Ply 0/128"), "{s}");
        fits(&buf, "No sequence of moves played twice in");
        fits(&buf, "Former German rule");
        fits(&buf, "9.6.1 fivefold ends it at ply 16 (16 to go)");
        fits(&buf, "Thue–Morse t(k): 0 1 1 0 1 0 0 1 …");
        // The first claim: 9.2 (b) at ply 8 (4...Ng8, the third time).
        keys(&mut a, &".".repeat(8));
        let (s, buf) = show(&a);
        assert!(s.contains("Ply 8/128"), "{s}");
        fits(&buf, "×3 here three times; before:");
        fits(&buf, "9.2 claim possible since ply 8 (4...Ng8)");
        // The fivefold repetition.
        keys(&mut a, "5");
        let (s, buf) = show(&a);
        assert!(s.contains("Ply 16/128"), "{s}");
        fits(&buf, "Longest played twice: 4 plies, plies");
        fits(&buf, "5–12); 7.Nc3 did not start a third time");
        fits(&buf, "9.6.1 fivefold at ply 16: game over, drawn");
        // Late: ply 120, the start position for the 31st time, summarised.
        keys(&mut a, &".".repeat(104));
        let (s, buf) = show(&a);
        assert!(s.contains("Ply 120/128"), "{s}");
        fits(&buf, "×31 here 31 times; before: the start");
        assert!(s.contains("more …"), "{s}");
        fits(&buf, "position, … 28 more …, after 58...Ng8");
        assert!(s.contains("Longest played twice: 32 plies"), "{s}");
        // The facts of the ply before the remark on the whole sequence, which
        // has room at 80×24 but not at the smallest size.
        fits(&buf, "FIDE (same position, any order)");
        fits(&buf, "Block: ");
        if w == 80 {
            fits(&buf, "Thue–Morse is cube-free (no XXX): no");
            fits(&buf, "sequence comes a third time in succession.");
        }
        fits(&buf, "Ply 120/128: 60...Nb8, block t(29) = 0");
        assert!(s.contains("Occurrences · autoplay off (400 ms)"), "{s}");
    }
}

/// A click on the Euwe screen's sparkline (laid out by the function that
/// draws it) shows that ply; the wheel steps.
#[test]
fn euwe_sparkline_click_and_wheel() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "e5");
    let spark = super::euwe::layout(a.size).unwrap().spark;
    // The bars end at the ply shown (16) in the last column that holds one.
    click(&mut a, spark.x + 4, spark.y + 1);
    assert_eq!(a.euwe.ply, 4);
    click(&mut a, spark.x + 10, spark.y);
    assert_eq!(a.euwe.ply, 4, "the label row is not a bar");
    a.update(Action::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: 0,
        row: 0,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(a.euwe.ply, 5);
    assert_eq!(a.euwe.shown().1, 5);
}

/// Long occurrence lists are summarised to the space given: the first
/// places, "… N more …", the last place; short ones are written out.
#[test]
fn occurrence_lists_fit_their_width_and_lines() {
    let e = super::euwe::EuweState::new();
    let game = &e.game;
    let plies: Vec<usize> = (0..=128).step_by(4).collect();
    assert_eq!(plies.len(), 33);
    let lines = super::widgets::fit_places(game, "×33 here; before: ", &plies, "", 43, 2);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines.iter().all(|l| l.chars().count() <= 43), "{lines:?}");
    let text = lines.join(" ");
    assert!(
        text.starts_with("×33 here; before: the start position,"),
        "{text}"
    );
    assert!(text.ends_with("after 64...Ng8"), "{text}");
    let shown = text.matches("after ").count() + 1;
    assert!(text.contains(&format!("… {} more …", 33 - shown)), "{text}");
    // Room enough: every place, as the rulings write them.
    let all = super::widgets::fit_places(game, "", &plies[..3], "", 80, 2);
    assert_eq!(all, ["the start position, after 2...Nb8 and after 4...Ng8"]);
}

/// The play screen's occurrence line at 80×24: a fourth occurrence's places
/// and the jump keys fit its two lines.
#[test]
fn play_screen_occurrence_line_fits_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    shuffle(&mut a, 8);
    for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
        typed(&mut a, m);
    }
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    let same = layout(a.size).unwrap().same;
    let rows: Vec<&str> = s.lines().skip(same.y as usize).take(2).collect();
    let text: String = rows
        .iter()
        .map(|r| {
            r.chars()
                .skip(same.x as usize)
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("fourth occurrence; earlier:"), "{s}");
    assert!(
        text.contains("more …") && text.contains("after 4...Ng8"),
        "{s}"
    );
    assert!(text.contains("(r/R jump)"), "{s}");
}

/// `r` and `R` say which occurrence they jumped to in plain words, the start
/// position too, read whole on the message rows at 80×24.
#[test]
fn occurrence_jumps_say_where_in_plain_words() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    shuffle(&mut a, 8);
    keys(&mut a, "r");
    let msg = a.message.clone().unwrap().text;
    assert_eq!(msg, "Occurrence 2 of 3 of this position: after 2...Ng8.");
    keys(&mut a, "r");
    let msg = a.message.clone().unwrap().text;
    assert_eq!(
        msg,
        "Occurrence 1 of 3 of this position: the start position."
    );
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains(&msg), "{s}");
    keys(&mut a, "R");
    assert_eq!(
        a.message.clone().unwrap().text,
        "Occurrence 2 of 3 of this position: after 2...Ng8."
    );
}

/// A long ruling on the message rows is read whole at 80×24, its FIDE
/// article at the end included.
#[test]
fn a_dead_position_ruling_is_read_whole_at_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.new_game(Game::from_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1").unwrap());
    typed(&mut a, "Kxd2");
    let msg = a.message.clone().unwrap().text;
    assert!(msg.ends_with("a dead position (FIDE 5.2.2)."), "{msg}");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(&msg), "{s}");
}

fn ctrl(a: &mut App, c: char) {
    a.update(Action::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::CONTROL,
    )));
}

#[test]
fn prompts_edit_like_a_shell_line() {
    let mut a = app();
    // A typed move: fix a typo in the middle with the cursor keys.
    key(&mut a, KeyCode::Char('i'));
    keys(&mut a, "Nf4");
    key(&mut a, KeyCode::Left);
    key(&mut a, KeyCode::Backspace);
    keys(&mut a, "f");
    key(&mut a, KeyCode::End);
    key(&mut a, KeyCode::Backspace);
    keys(&mut a, "3");
    assert_eq!(a.input.as_ref().unwrap().text(), "Nf3");
    ctrl(&mut a, 'a');
    key(&mut a, KeyCode::Delete);
    keys(&mut a, "N");
    ctrl(&mut a, 'e');
    keys(&mut a, " x");
    ctrl(&mut a, 'w');
    assert_eq!(a.input.as_ref().unwrap().text(), "Nf3 ");
    key(&mut a, KeyCode::Home);
    key(&mut a, KeyCode::Right);
    ctrl(&mut a, 'u');
    assert_eq!(a.input.as_ref().unwrap().text(), "f3 ");
    ctrl(&mut a, 'u');
    ctrl(&mut a, 'k');
    assert_eq!(a.input.as_ref().unwrap().text(), "");
    keys(&mut a, "Nf3");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.game.len(), 1);
    assert!(a.input.is_none());
}

#[test]
fn an_invalid_fen_stays_on_the_prompt_for_correction() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "F");
    ctrl(&mut a, 'u');
    keys(&mut a, "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1");
    key(&mut a, KeyCode::Enter);
    let m = a.message.clone().unwrap();
    assert!(m.is_error(), "{m:?}");
    assert_eq!(
        a.input.as_ref().map(|i| i.text()),
        Some("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"),
        "the FEN is kept"
    );
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("FEN: 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"), "{s}");
    // Correct it where it is wrong: remove the Q of the castling rights.
    for _ in 0..6 {
        key(&mut a, KeyCode::Left);
    }
    key(&mut a, KeyCode::Backspace);
    key(&mut a, KeyCode::Enter);
    assert!(a.input.is_none());
    assert_eq!(a.play.game.start_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

#[test]
fn the_prompt_shows_the_cursor_where_it_is_at_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    key(&mut a, KeyCode::Char('i'));
    keys(&mut a, "Nbd2");
    key(&mut a, KeyCode::Left);
    key(&mut a, KeyCode::Left);
    let (s, buf) = screen(&a, &Theme::plain(), 80, 24);
    let (x, y) = find(&buf, "Move (SAN or UCI): Nbd2").unwrap_or_else(|| panic!("{s}"));
    let under = &buf[(x + "Move (SAN or UCI): Nb".len() as u16, y)];
    assert_eq!(under.symbol(), "d");
    assert!(
        under.modifier.contains(ratatui::style::Modifier::REVERSED),
        "the cursor is on the d"
    );
    // A long line scrolls so the cursor stays on screen.
    key(&mut a, KeyCode::End);
    keys(&mut a, &"x".repeat(100));
    keys(&mut a, "END");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("xxEND█"), "{s}");
}

fn thinks(a: &App) -> usize {
    a.effects
        .iter()
        .filter(|e| matches!(e, Effect::Think { .. }))
        .count()
}

#[test]
fn players_come_from_a_menu_and_no_engine_moves_in_between() {
    use super::chess::Players as P;
    for from in P::ALL {
        for (i, to) in P::ALL.into_iter().enumerate() {
            let mut a = app();
            a.play.config.human = from;
            typed_as(&mut a, "e4");
            a.effects.clear();
            keys(&mut a, "p");
            assert_eq!(
                a.play.overlay,
                Some(PlayOverlay::Players {
                    selected: P::ALL.iter().position(|&p| p == from).unwrap()
                })
            );
            // Walking the highlight over every row changes nothing.
            for _ in 0..4 {
                key(&mut a, KeyCode::Down);
            }
            key(&mut a, KeyCode::Up);
            assert_eq!(a.play.config.human, from);
            assert_eq!(thinks(&a), 0, "highlighting starts no search");
            keys(&mut a, &(i + 1).to_string());
            assert_eq!(a.play.overlay, None);
            assert_eq!(a.play.config.human, to, "{from:?} -> {to:?}");
            assert_eq!(
                a.play.game.len(),
                1,
                "{from:?} -> {to:?}: no move was played"
            );
            let engine_to_move = !to.is_human(shakmaty::Color::Black);
            let searches = thinks(&a);
            if from == to {
                assert_eq!(searches, 0, "{from:?} unchanged");
            } else {
                assert_eq!(
                    searches,
                    usize::from(engine_to_move),
                    "{from:?} -> {to:?}: a search only for the engine to move"
                );
            }
        }
    }
}

/// Play a move as whoever is to move (the players may include the engine).
fn typed_as(a: &mut App, mv: &str) {
    let m = a.play.game.parse_move(mv).unwrap();
    a.play.game.play(m).unwrap();
}

#[test]
fn the_players_menu_fits_80x24_and_answers_clicks_and_enter() {
    use super::chess::Players as P;
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "p");
    let (s, buf) = screen(&a, &Theme::plain(), 80, 24);
    for text in [
        "Who plays?",
        "[1] You (White) vs engine",
        "[2] Engine vs you (Black)",
        "[3] Two humans  (now)",
        "[4] Engine vs engine",
        "│ 1 White · 2 Black · 3 humans · 4 engines · Esc cancel",
    ] {
        assert!(s.contains(text), "{text}\n{s}");
    }
    // Enter takes the highlighted row: the current players at first.
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.config.human, P::Engines);
    assert_eq!(thinks(&a), 1);
    // A click on a row chooses it, on the layout it is drawn with.
    keys(&mut a, "p");
    let (_, buf2) = screen(&a, &Theme::plain(), 80, 24);
    let (x, y) = find(&buf2, "[2] Engine vs you").unwrap();
    let _ = buf;
    click(&mut a, x + 3, y);
    assert_eq!(a.play.config.human, P::HumanBlack);
    assert!(a.play.flipped);
    assert_eq!(a.play.overlay, None);
    // Esc keeps the players; a click outside closes the menu too.
    keys(&mut a, "p");
    key(&mut a, KeyCode::Esc);
    keys(&mut a, "p");
    click(&mut a, 0, 0);
    assert_eq!(a.play.overlay, None);
    assert_eq!(a.play.config.human, P::HumanBlack);
}

#[test]
fn typed_moves_are_read_leniently_and_refusals_say_why_on_screen() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    for m in ["e2-e4", "e7e5", "nf3", "Nc6", "Bc4", "bc5", "0-0"] {
        typed(&mut a, m);
        assert!(a.input.is_none(), "{m}: {:?}", a.message);
    }
    assert_eq!(a.play.game.len(), 7);
    assert_eq!(a.play.game.ply_label(7), "4.O-O");
    // Pinned: the knight on c6 after Bb5 (White's bishop pins it to the king on e8).
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.new_game(Game::from_fen("4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1").unwrap());
    typed(&mut a, "ne5");
    let msg = a.message.clone().unwrap();
    assert!(msg.is_error());
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(
        s.contains("ne5: the knight on c6 is pinned: moving it would expose the king to"),
        "{s}"
    );
    assert_eq!(
        a.input.as_ref().unwrap().text(),
        "ne5",
        "kept for correction"
    );
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
        assert!(s.contains("y yes · n no · Esc later"), "{s}");
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
fn the_engine_score_is_shown_from_whites_side_with_a_label_at_80x24() {
    use super::engine_thread::{Info, Score};
    let info = |cp| Info {
        depth: 5,
        score: Score::Cp(cp),
        nodes: 1,
        nps: 1000,
        pv: Vec::new(),
    };
    // The engine plays White: +0.80 for the side to move is +0.80 for White.
    let mut a = App::new(
        &Config {
            human: Players::HumanBlack,
            book: false,
            ..Config::default()
        },
        Game::new(),
    );
    a.update(Action::Resize(80, 24));
    a.start();
    let Some(Effect::Think { id, .. }) = a.effects.pop() else {
        panic!()
    };
    a.update(Action::Engine(Report::Info { id, info: info(80) }));
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("+0.80 (White)"), "{s}");
    // The engine plays Black: +0.80 for Black is -0.80 for White, while it
    // thinks and after it has moved.
    let mut a = app();
    a.play.config.human = Players::HumanWhite;
    a.update(Action::Resize(80, 24));
    typed(&mut a, "e4");
    let Some(Effect::Think { id, .. }) = a.effects.pop() else {
        panic!()
    };
    a.update(Action::Engine(Report::Info { id, info: info(80) }));
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("-0.80 (White)"), "{s}");
    let e5 = a.play.game.parse_move("e5").unwrap();
    a.update(Action::Engine(Report::Best {
        id,
        mv: Some(e5.into()),
    }));
    assert_eq!(a.play.game.len(), 2);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("idle  depth 5  -0.80 (White)"), "{s}");
    assert_eq!(
        super::widgets::score_label(Score::Mate(2), Some(shakmaty::Color::Black)),
        "#-2 (White)"
    );
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

fn render_header(a: &App) -> String {
    let (s, _) = screen(a, &Theme::plain(), 120, 40);
    s.lines().next().unwrap_or_default().to_string()
}

/// A FEN refused in the trainer: the reason in full on the message rows at 80×24 (the
/// FEN itself stays on the input line to be corrected), and the prompt says how to clear it.
#[test]
fn a_refused_fen_is_explained_whole_at_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "F");
    let m = a.message.clone().unwrap().text;
    assert!(m.contains("Ctrl-u clears the line"), "{m}");
    a.update(Action::Key(KeyEvent::new(
        KeyCode::Char('u'),
        KeyModifiers::CONTROL,
    )));
    keys(&mut a, "garbage");
    key(&mut a, KeyCode::Enter);
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    let rows: Vec<&str> = s.lines().collect();
    let msg = format!("{} {}", rows[20].trim(), rows[21].trim());
    assert!(
        msg.contains("Invalid FEN: 1 field where a FEN has 4 to 6: board, side to move"),
        "{s}"
    );
    assert!(msg.ends_with("(correct it below)"), "{msg}");
    assert!(rows[22].contains("FEN: garbage"), "{s}");
}

/// At 80×24 the title keeps the players and as many settings as fit, whole, and the
/// engine line keeps the contempt; at 120 columns the title has them all.
#[test]
fn the_title_and_engine_lines_fit_80_columns_with_the_contempt() {
    let mut a = App::new(&no_book(), Game::new());
    a.update(Action::Resize(80, 24));
    keys(&mut a, "x"); // contempt 25
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    let title = s.lines().next().unwrap();
    // The subtitle gives way to the settings: the contempt is seen at 80 columns.
    let l3 = crate::tui::config::level_tag(3);
    assert_eq!(
        title.trim_end(),
        " threefold   You (White) vs engine   engine L3 · clocks off · contempt 25"
    );
    assert!(
        s.contains(&format!("engine idle  {l3}  contempt 25  16 MiB")),
        "{s}"
    );
    let wide = render_header(&a);
    assert!(
        wide.contains(
            "threefold repetition trainer   You (White) vs engine   engine L3 · clocks off · \
             contempt 25 · hash 16 MiB"
        ),
        "{wide}"
    );
    // Blind mode: the word stays, and the contempt.
    keys(&mut a, "B");
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    let title = s.lines().next().unwrap();
    assert!(title.starts_with(" threefold blind   You"), "{title}");
    assert!(title.contains("· contempt 25"), "{title}");
    // Two humans: every setting, whole.
    keys(&mut a, "Bp3");
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    let title = s.lines().next().unwrap();
    assert!(
        title.trim_end().ends_with("contempt 25 · hash 16 MiB"),
        "{title}"
    );
}

/// A game that ended: at 80×24 the banner is whole with the review key, and the hint
/// line offers what can be done now instead of moves and claims.
#[test]
fn a_finished_game_says_what_can_be_done_at_80x24() {
    use super::chess::Clock;
    use std::time::{Duration, Instant};
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.play.clock = Some(Clock::new(Duration::from_secs(60), Duration::ZERO));
    shuffle(&mut a, 2);
    a.update(Action::Tick(Instant::now() + Duration::from_secs(61)));
    assert!(a.play.game.is_over());
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    let title = s.lines().next().unwrap().trim_end();
    assert!(title.contains("White's flag fell"), "{title}");
    assert!(title.ends_with("v review"), "{title}");
    assert!(
        s.contains("n new game · u take back · v review the game · d drills"),
        "{s}"
    );
    assert!(!s.contains("type a move"), "{s}");
}

/// Nothing stale stays on screen: leaving the history view says where the board is,
/// and the engine's last line goes when no engine plays any more.
#[test]
fn no_stale_lines_after_the_view_or_the_players_change() {
    let mut a = App::new(&no_book(), Game::new());
    a.update(Action::Resize(80, 24));
    typed(&mut a, "e4");
    let Some(Effect::Think { id, .. }) = a.effects.pop() else {
        panic!("the engine did not think")
    };
    let e5 = a.play.game.parse_move("e5").unwrap();
    a.update(Action::Engine(Report::Info {
        id,
        info: super::engine_thread::Info {
            depth: 3,
            score: super::engine_thread::Score::Cp(10),
            nodes: 1,
            nps: 1000,
            pv: vec![e5.into()],
        },
    }));
    a.update(Action::Engine(Report::Best {
        id,
        mv: Some(e5.into()),
    }));
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    assert!(s.contains("pv 1...e5"), "{s}");
    keys(&mut a, ",");
    assert!(screen(&a, &Theme::plain(), 80, 24).0.contains("Viewing"));
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.play.view, None);
    assert_eq!(a.message.clone().unwrap().text, "Back to the position now.");
    keys(&mut a, "p3");
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    assert!(!s.contains("pv 1...e5"), "{s}");
    assert!(!s.contains("depth 3"), "{s}");
}

/// Problems found at start (several config lines with long paths, the
/// engine's memory) are read whole at 80×24: the message grows upwards
/// over the panels instead of being cut after two rows (issue 27, item 16).
#[test]
fn a_long_message_is_shown_whole_at_80x24() {
    let mut a = app();
    let file = "/home/someone/.config/threefold/config.toml";
    a.error(format!(
        "{file} line 2: level = 9: out of range (allowed: 0 to 5); using the default 2"
    ));
    a.add_error(format!(
        "{file} line 3: contempt = 9999: out of range (allowed: -100 to 100); using the default 0"
    ));
    a.add_error(format!(
        "{file} line 4: clock_base_secs = -1: out of range (allowed: 1 to 36000); using the default 300"
    ));
    a.add_error(
        super::hash_fallback_message(
            60000,
            16,
            Some("a 60000 MB transposition table does not fit: 20000 MB of memory is available"),
        )
        .unwrap(),
    );
    let text = a.message.clone().unwrap().text;
    assert!(
        text.len() > 4 * 80,
        "a message longer than two rows: {}",
        text.len()
    );
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat(&s).contains(&flat(&text)), "{s}");
    // The title and the key bar stay.
    assert!(s.lines().last().unwrap().contains("help"), "{s}");
}

#[test]
fn message_rows_wrap_at_spaces_and_cut_only_words_too_long() {
    use super::app::render::message_rows;
    assert_eq!(message_rows("ab cd ef", 5), ["ab cd", "ef"]);
    assert_eq!(message_rows("abcdefgh ij", 3), ["abc", "def", "gh", "ij"]);
    assert_eq!(message_rows("  ", 10), Vec::<String>::new());
    let long = "x".repeat(1000);
    let rows = message_rows(&long, 80);
    assert_eq!(rows.concat(), long, "every character is kept");
}

/// `hash_mb` more than the machine can give falls back to the default size,
/// not to 1 MiB, and the message names the problem and the size used.
#[test]
fn an_unaffordable_hash_falls_back_to_the_default_with_the_reason() {
    use super::engine_thread::{choose_hash, hash_fallbacks};
    let default = super::config::Config::default().hash_mb;
    let chosen = choose_hash(60000, &hash_fallbacks(), |mb| {
        if mb > 1000 {
            Err(format!("a {mb} MB transposition table does not fit"))
        } else {
            Ok(Box::new(super::engine_thread::Shuffler::default()))
        }
    });
    assert_eq!(chosen.hash_mb, default);
    let m = super::hash_fallback_message(60000, chosen.hash_mb, chosen.refused.as_deref()).unwrap();
    assert_eq!(
        m,
        format!(
            "hash_mb = 60000: a 60000 MB transposition table does not fit; \
             the engine uses {default} MiB (the default)"
        )
    );
    assert_eq!(super::hash_fallback_message(64, 64, None), None);
}

/// A paste of 10,000 characters submitted as a move is refused by its length,
/// not quoted back (the message would fill the screen); the line stays.
#[test]
fn a_pasted_line_too_long_for_a_move_is_refused_by_its_length() {
    let mut a = app();
    let long = "a".repeat(10_000);
    typed(&mut a, &long);
    let m = a.message.clone().unwrap();
    assert!(m.is_error());
    assert!(m.text.len() < 120, "{}", m.text);
    assert!(m.text.contains("10000 characters"), "{}", m.text);
    assert_eq!(a.input.as_ref().map(|i| i.line.text().len()), Some(10_000));
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("Not a move: 10000 characters"), "{s}");
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

/// With the engines' panel open (`E`) at 80×24 the Euwe panel keeps the
/// facts of the ply shown — its block, the FIDE heading, the occurrences and
/// both FIDE lines — whole; the remarks give way first. Counts of plies say
/// "plies" (Nf3 Nf6 Ng1 Ng8 is 4 plies, not "4 moves").
#[test]
fn euwe_with_the_engines_panel_keeps_fide_and_the_block_at_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "eE");
    let panel = super::euwe::layout(a.size).unwrap().panel;
    let fits = |buf: &ratatui::buffer::Buffer, text: &str| {
        let (x, _) = find(buf, text).unwrap_or_else(|| panic!("{text:?} missing"));
        assert!(
            x + text.chars().count() as u16 <= panel.right(),
            "{text:?} cut"
        );
    };
    let late = ".".repeat(97);
    // The blocks in SAN, as every other move of the panel.
    for (step, block) in [
        ("", "Blocks: 0 = Nc3 Nc6 Nb1 Nb8, 1 = Nf3 Nf6"),
        (".", "Block: Nc3 Nc6 Nb1 Nb8"),
        ("5", "Block: Nc3 Nc6 Nb1 Nb8"),
        (".......", "Block: Nc3 Nc6 Nb1 Nb8"),
        (&late, "Block: Nc3 Nc6 Nb1 Nb8"),
    ] {
        keys(&mut a, step);
        let (s, buf) = screen(&a, &Theme::plain(), 80, 24);
        assert!(s.contains("How engines see it"), "{s}");
        fits(&buf, block);
        fits(&buf, "Thue–Morse");
        fits(&buf, "Former German rule (3 times in succession)");
        fits(&buf, "FIDE (same position, any order)");
        fits(&buf, "9.2 claim");
        fits(&buf, "9.6.1 fivefold");
        assert!(!s.contains(" moves,"), "{s}");
    }
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("Ply 120/128"), "{s}");
    assert!(s.contains("Longest played twice: 32 plies, plies"), "{s}");
}
