//! The xiangqi review screen (`v` on the xiangqi screen, the chess review's key): its
//! findings at 80×24 with Chinese pieces and with letters, the calls made on the screen
//! judged, blind mode waiting for the end of the game, and the round trip review → puzzle
//! in `from-your-xiangqi-games.toml` → the xiangqi drills on the Leitner schedule.

use crossterm::event::KeyCode;

use super::app::{App, Screen};
use super::keys::Ctx;
use super::tests::{key, keys};
use super::theme::Theme;
use super::xiangqi_tests::{from_fen, text, typed, xq};

/// Figure 1 of Tan and Watkinson Medina: Red's rook checks on every move; ruled at the
/// third occurrence (ply 8), Red loses.
const CHECK_FEN: &str = "5k3/7R1/9/9/9/9/9/9/9/4K4 w";
const CHECKS: [&str; 8] = [
    "h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9",
];

/// The xiangqi screen at 80×24 with figure 1's game played up to `plies`, the review's
/// engine off unless `engine`.
fn played(plies: usize, engine: bool) -> App {
    let mut a = xq(80, 24);
    if !engine {
        a.xq_review.options.budget = None;
    }
    from_fen(&mut a, CHECK_FEN);
    for m in &CHECKS[..plies] {
        typed(&mut a, m);
    }
    assert_eq!(a.xiangqi.record().ply(), plies, "{:?}", a.message);
    a
}

fn wait_engine(a: &mut App) {
    if let Some(s) = a.xq_review.state.as_mut() {
        s.wait();
    }
    a.update(super::app::Action::Tick(std::time::Instant::now()));
}

/// The review of a perpetual check at 80×24, with Chinese pieces and with letters: the
/// ruling, Red's forbidden move and Black's missed call listed, each row's position on the
/// board, the explanation beside it; `Esc` back to the game. Broken to see it fail:
/// `let xiangqi = self.screen == Screen::Xiangqi` in `App::open_review` made `false` (`v`
/// opened the chess review).
#[test]
fn the_xiangqi_review_at_80x24_with_chinese_pieces_and_with_letters() {
    for ascii in [false, true] {
        let mut a = played(8, true);
        a.ascii = ascii;
        assert!(a.xiangqi.is_over());
        keys(&mut a, "v");
        assert_eq!(a.screen, Screen::XqReview, "{:?}", a.message);
        assert_eq!(a.ctx(), Ctx::Review);
        wait_engine(&mut a);
        let s = text(&a, &Theme::colored(), 80, 24);
        assert!(s.contains("Xiangqi review: 8 plies, 0-1"), "{s}");
        assert!(s.contains("Findings: 1 of 3"), "{s}");
        assert!(s.contains("forbidden move (mattered)"), "{s}");
        assert!(s.contains("missed call"), "{s}");
        assert!(s.contains("ruling: perpetual check"), "{s}");
        assert!(s.contains("Engine: 1 position searched"), "{s}");
        if ascii {
            assert!(s.contains('R') && !s.contains('俥'), "{s}");
        } else {
            assert!(s.contains('俥'), "{s}");
        }
        // The first row: Red's forbidden move, from the position before it (ply 4), its
        // move marked, the moves that would have broken it.
        let st = a.xq_review.state.as_ref().unwrap();
        assert_eq!(st.ply, 4);
        assert!(s.contains("its move marked"), "{s}");
        assert!(s.contains("would have broken it"), "{s}");
        // Every row of the screen fits in 80 columns (the text() helper reads 80 cells).
        assert_eq!(s.lines().count(), 24);
        // The next row: Black's missed call after ply 5.
        key(&mut a, KeyCode::Down);
        let s = text(&a, &Theme::colored(), 80, 24);
        assert!(s.contains("Black could have"), "{s}");
        assert_eq!(a.xq_review.state.as_ref().unwrap().ply, 5);
        key(&mut a, KeyCode::Esc);
        assert_eq!(a.screen, Screen::Xiangqi);
    }
}

/// A call made on the screen is reviewed as the arbiter answered it: Red (to move after
/// ply 4) calling Black's repetition forbidden is wrong, Red is the one checking. Broken to
/// see it fail: `self.calls.push(..)` removed from `XiangqiScreen::player_calls`.
#[test]
fn a_wrong_call_made_on_the_screen_is_reviewed() {
    let mut a = played(4, false);
    keys(&mut a, "a1");
    assert!(
        a.message.as_ref().unwrap().text.starts_with("Wrong call"),
        "{:?}",
        a.message
    );
    for m in &CHECKS[4..] {
        typed(&mut a, m);
    }
    keys(&mut a, "v");
    assert_eq!(a.screen, Screen::XqReview);
    let s = text(&a, &Theme::colored(), 80, 24);
    assert!(s.contains("1 call to the arbiter in the game"), "{s}");
    assert!(s.contains("wrong call"), "{s}");
    let st = a.xq_review.state.as_ref().unwrap();
    let i = st
        .rows
        .iter()
        .position(|&r| {
            matches!(r, super::xiangqi::review::Row::Finding(i)
                if st.review.findings[i].kind.code() == "wrong-call")
        })
        .unwrap();
    for _ in 0..i {
        key(&mut a, KeyCode::Down);
    }
    let s = text(&a, &Theme::colored(), 80, 24);
    assert!(s.contains("Red is wrong"), "{s}");
}

/// Blind mode: the review waits for the end of the game, as chess's does; once the game
/// is over it opens. Broken to see it fail: the `Marks::Hidden` test removed from
/// `App::open_review` (one for both games).
#[test]
fn blind_mode_the_review_waits_for_the_end_of_the_game() {
    let mut a = played(0, false);
    keys(&mut a, "B");
    assert!(a.xiangqi.blind);
    for m in &CHECKS[..6] {
        typed(&mut a, m);
    }
    keys(&mut a, "v");
    assert_eq!(a.screen, Screen::Xiangqi);
    let m = a.message.as_ref().unwrap();
    assert!(
        m.is_error() && m.text.contains("waits for the end of the game"),
        "{m:?}"
    );
    let s = text(&a, &Theme::colored(), 80, 24);
    assert!(
        !s.contains("forbidden move") && !s.contains("missed call"),
        "{s}"
    );
    for m in &CHECKS[6..] {
        typed(&mut a, m);
    }
    keys(&mut a, "v");
    assert_eq!(a.screen, Screen::XqReview);
}

/// The round trip: a finding of the review added as a puzzle (`p`) to
/// `from-your-xiangqi-games.toml` beside the chess file, drawn by the xiangqi drill screen
/// from the theme "From your xiangqi games" by the session's schedule, answered, and the
/// answer kept in the progress. Broken to see it fail: `with_yours` loading the chess file
/// only (the theme never appeared).
#[test]
fn review_puzzle_drill_round_trip() {
    let dir = std::env::temp_dir().join(format!("threefold-xqrt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let chess_file = dir.join(crate::drills::from_games::FILE_NAME);
    let mut a = played(8, false);
    a.drills_file = Some(chess_file.clone());
    keys(&mut a, "v");
    // The ruling is no mistake: refused with a reason.
    let st = a.xq_review.state.as_ref().unwrap();
    assert!(matches!(
        st.rows[0],
        super::xiangqi::review::Row::Finding(_)
    ));
    key(&mut a, KeyCode::End);
    keys(&mut a, "p");
    assert!(a.message.as_ref().unwrap().is_error(), "{:?}", a.message);
    // Black's missed call: a ruling puzzle.
    key(&mut a, KeyCode::Home);
    key(&mut a, KeyCode::Down);
    keys(&mut a, "p");
    let m = a.message.clone().unwrap();
    assert!(!m.is_error(), "{m:?}");
    assert!(m.text.contains("1 puzzle added to"), "{m:?}");
    assert!(m.text.contains("From your xiangqi games"), "{m:?}");
    let file = dir.join(crate::drills::from_games::XIANGQI_FILE_NAME);
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("game = \"xiangqi\""), "{written}");
    assert!(!chess_file.exists());
    // Twice: already there.
    keys(&mut a, "p");
    assert!(a.message.as_ref().unwrap().text.contains("already"));
    // Red's forbidden move too.
    key(&mut a, KeyCode::Home);
    keys(&mut a, "p");
    assert!(!a.message.as_ref().unwrap().is_error(), "{:?}", a.message);
    key(&mut a, KeyCode::Esc);
    // The xiangqi drills, with progress in the test's own file.
    let store = crate::drills::ProgressStore::at(dir.join("progress.toml"));
    let coll = crate::drills::session::with_yours(
        crate::drills::load_builtin(),
        Some(chess_file.as_path()),
    );
    a.xq_drills = Some(Box::new(super::xiangqi::drill::XqDrillScreen::new(
        crate::drills::Session::with(coll, Some(store)),
    )));
    keys(&mut a, "d");
    assert_eq!(a.screen, Screen::XqDrills);
    let d = a.xq_drills.as_ref().unwrap();
    let themes = d.session.xiangqi_themes();
    let mine = themes
        .iter()
        .position(|t| t.id == crate::drills::from_games::XIANGQI_THEME_ID)
        .expect("the theme from your games");
    assert_eq!(
        themes[mine].puzzles.len(),
        1,
        "the same puzzle twice is one"
    );
    for _ in 0..=mine {
        key(&mut a, KeyCode::Down);
    }
    let s = text(&a, &Theme::colored(), 80, 24);
    // The list shows the count as chess's does: in the score and under the description.
    assert!(
        s.contains("From your xiangqi games") && s.contains("1 puzzle. Streak"),
        "{s}"
    );
    key(&mut a, KeyCode::Enter);
    let p = a.xq_drills.as_ref().unwrap().puzzle().unwrap().clone();
    assert_eq!(p.theme, crate::drills::from_games::XIANGQI_THEME_ID);
    let right = crate::drills::xiangqi::solve(&p).unwrap().answer.code();
    assert_eq!(right, "red-loses");
    keys(&mut a, "i");
    keys(&mut a, &right);
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.message.as_ref().unwrap().text, "Right.");
    let progress = &a.xq_drills.as_ref().unwrap().session.progress;
    assert!(progress.is_solved(crate::drills::from_games::XIANGQI_THEME_ID, &p.id));
    assert!(progress.schedule(&p.theme, &p.id).is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The help says what one game has and the other cannot, and why: on the xiangqi screen
/// Euwe's stepper, the detectors panel and claiming; on the chess screen calling the
/// arbiter. Broken to see it fail: the "Not in xiangqi" rows left out of `help_layout`.
#[test]
fn the_help_says_what_does_not_apply_to_each_game() {
    for (xiangqi, title, words) in [
        (true, "Not in xiangqi", "Euwe's Thue–Morse stepper"),
        (false, "Not in chess", "Calling the arbiter"),
    ] {
        let mut a = if xiangqi {
            xq(80, 24)
        } else {
            let mut a = super::tests::app();
            a.update(super::app::Action::Resize(80, 24));
            a
        };
        keys(&mut a, "?");
        assert_eq!(a.ctx(), Ctx::Help);
        key(&mut a, KeyCode::End);
        let mut seen = String::new();
        // Page up from the end until the section is seen (the help scrolls at 80×24).
        for _ in 0..6 {
            seen.push_str(&text(&a, &Theme::colored(), 80, 24));
            if seen.contains(title) {
                break;
            }
            key(&mut a, KeyCode::PageUp);
        }
        assert!(seen.contains(title), "{seen}");
        assert!(seen.contains(words), "{seen}");
    }
}

/// The review screen is one screen over both games, and so are its keys and behaviour: the
/// wheel and a click select a row, `,`/`.` step the board, `Enter` shows the board's ply on
/// the game's screen (the message naming it in the game's notation), and closing the screen
/// while the engine still looks drops the unfinished review. Before, only chess's screen
/// had tests of the wheel, the click and closing. Broken to see it fail (one at a time): the
/// wheel's `Cmd::Down` made `Cmd::Up` in `ReviewScreen`'s `wheel`; `s.select(i, rows)`
/// removed from `ReviewScreen::click`; `self.state = None` removed from
/// `ReviewScreen::cancel`.
#[test]
fn both_review_screens_step_click_view_and_close_alike() {
    use super::app::Action;
    use crate::review::Budget;
    use crossterm::event::{KeyModifiers, MouseEvent, MouseEventKind};
    use std::time::Duration;
    for xiangqi in [false, true] {
        let mut a = if xiangqi {
            played(8, false)
        } else {
            let mut a = super::tests::app();
            a.update(Action::Resize(80, 24));
            a.review.options.budget = None;
            // A knight dance to a third occurrence: Black could claim, then White.
            for m in ["Nf3", "Nf6", "Ng1", "Ng8"].repeat(2) {
                super::tests::typed(&mut a, m);
            }
            super::tests::typed(&mut a, "e4");
            a
        };
        let (game, review) = if xiangqi {
            (Screen::Xiangqi, Screen::XqReview)
        } else {
            (Screen::Play, Screen::Review)
        };
        // (selected, ply, rows, running, list area) of the review shown.
        let at = |a: &App| {
            if xiangqi {
                let s = a.xq_review.state.as_ref().unwrap();
                let l = super::xiangqi::review::xq_review_layout(a.size, s.rows.len()).unwrap();
                (s.selected, s.ply, s.rows.len(), s.running(), l.list)
            } else {
                let s = a.review.state.as_ref().unwrap();
                let l = super::chess::review::review_layout(a.size, s.findings.len()).unwrap();
                (s.selected, s.ply, s.findings.len(), s.running(), l.list)
            }
        };
        keys(&mut a, "v");
        assert_eq!(a.screen, review, "{:?}", a.message);
        let (sel, _, n, _, list) = at(&a);
        assert_eq!(sel, 0);
        assert!(n >= 2, "{n} rows");
        // The wheel down: the next row.
        a.update(Action::Mouse(MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column: list.x + 2,
            row: list.y,
            modifiers: KeyModifiers::NONE,
        }));
        assert_eq!(at(&a).0, 1, "xiangqi {xiangqi}");
        // A click on the first row selects it.
        super::tests::click(&mut a, list.x + 2, list.y);
        let (sel, ply, ..) = at(&a);
        assert_eq!(sel, 0, "xiangqi {xiangqi}");
        // The board steps back a ply and forward again.
        keys(&mut a, ",");
        assert_eq!(at(&a).1, ply.saturating_sub(1));
        keys(&mut a, ".");
        assert_eq!(at(&a).1, ply);
        // Enter: the game's screen, viewing the ply, named.
        key(&mut a, KeyCode::Enter);
        assert_eq!(a.screen, game);
        let view = if xiangqi { a.xiangqi.view } else { a.play.view };
        assert_eq!(view, Some(ply), "xiangqi {xiangqi}");
        let m = a.message.clone().unwrap();
        assert!(
            m.text.starts_with("Viewing the game after ") && m.text.contains("live position"),
            "{m:?}"
        );
        // Closing while the engine looks drops the unfinished review.
        let slow = Some(Budget::Movetime(Duration::from_secs(30)));
        a.review.options.budget = slow;
        a.xq_review.options.budget = slow;
        a.review.state = None;
        a.xq_review.state = None;
        keys(&mut a, "v");
        assert_eq!(a.screen, review);
        assert!(at(&a).3, "the engine looks");
        key(&mut a, KeyCode::Esc);
        assert_eq!(a.screen, game);
        let state = if xiangqi {
            a.xq_review.state.is_some()
        } else {
            a.review.state.is_some()
        };
        assert!(
            !state,
            "xiangqi {xiangqi}: the unfinished review is dropped"
        );
    }
}

/// Each moment of the xiangqi review says why the judge counts its move as it does, in the
/// judge's words (`MoveNote::why`, the line of the judge's panel): the perpetual check's
/// forbidden move is a check, Black's missed call follows a check; the ruling's own
/// explanation goes through the moves; the line is on screen at 80×24 (the explanation
/// scrolled to its end).
#[test]
fn the_reviews_moments_say_why_in_the_judges_words() {
    use crate::tui::game::review::ReviewGame;
    let mut a = played(8, false);
    keys(&mut a, "v");
    let st = a.xq_review.state.as_ref().unwrap();
    let n = st.rows.len();
    assert_eq!(n, 3, "{:?}", st.rows);
    for i in (0..n).filter(|&i| matches!(st.rows[i], super::xiangqi::review::Row::Finding(_))) {
        let paragraphs = st.part.explain(i, &Theme::plain());
        let why = paragraphs
            .iter()
            .find(|(p, _)| p.starts_with("In short: "))
            .unwrap_or_else(|| panic!("row {i}: no why in {paragraphs:?}"));
        assert!(why.0.contains("check"), "row {i}: {}", why.0);
    }
    // On screen: the first row's explanation read to its end.
    let mut seen = String::new();
    for _ in 0..20 {
        let s = text(&a, &Theme::plain(), 80, 24);
        seen.push_str(&s);
        keys(&mut a, " ");
    }
    assert!(seen.contains("In short:"), "{seen}");
}

/// A game in progress at 80×24 in ASCII (`LC_ALL=C`): the header's in-progress line and the
/// "nothing to report" text are whole (the calls' count ran the line past the column, cut
/// with "~"; the text lost its last word).
#[test]
fn the_review_of_a_game_in_progress_is_whole_at_80x24_in_ascii() {
    use super::xiangqi::review::XiangqiReview;
    let mut a = played(2, false);
    a.ascii = true;
    keys(&mut a, "v");
    assert_eq!(a.screen, Screen::XqReview, "{:?}", a.message);
    assert_eq!(a.xq_review.state.as_ref().unwrap().rows.len(), 0);
    let s = text(&a, &Theme::plain(), 80, 24);
    assert!(s.contains(crate::tui::game::review::LEFT_OUT), "{s}");
    // The side column's rows, from the header to the end of the list.
    let areas = super::xiangqi::review::xq_review_layout(a.size, 0).unwrap();
    let side: Vec<String> = s
        .lines()
        .skip(areas.header.y as usize)
        .take((areas.list.bottom() - areas.header.y) as usize)
        .map(|l| l.chars().skip(areas.header.x as usize).collect())
        .collect();
    assert!(side.iter().all(|l| !l.contains('~')), "{side:?}");
    let flat = side
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let empty = <XiangqiReview as crate::tui::game::review::ReviewGame>::EMPTY;
    assert!(flat.contains(empty), "{flat}");
}
