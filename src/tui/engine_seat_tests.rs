//! The engine's seat on the chess screen: its book, the whole game sent to it, its line and score shown, takeback, the players menu, hash and contempt, and what a new game or a question does to a search.

use crossterm::event::KeyCode;
use shakmaty::Position;

use crate::rules::Game;

use super::app::{Action, App, Effect, Screen};
use super::chess::Players;
use super::chess::{Overlay as PlayOverlay, Question as PlayQuestion};
use super::config::Config;
use super::engine_thread::Report;
use super::tests::{
    app, click, find, key, keys, no_book, render_header, screen, thinks, typed, typed_as,
};
use super::theme::Theme;

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

#[test]
fn hash_and_contempt_reach_the_engine() {
    let mut a = app();
    keys(&mut a, "Hx");
    assert!(a.effects.contains(&Effect::SetHash(64)));
    assert!(a.effects.contains(&Effect::SetContempt(25)));
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
                    selected: P::ALL.iter().position(|&p| p == from).unwrap(),
                    sparring_was: false,
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
