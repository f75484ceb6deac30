//! Claims in the trainer at 80×24: the dialog by rule and what it offers, the
//! ruling of each kind of claim, the clocks stopped while a claim is made and
//! ruled (FIDE 6.12), the "claim possible" hint for both rules, the key bar.

use super::app::render::layout;
use super::app::{Action, App};
use super::chess::{ClaimOption, Clock, Overlay, Players, claim_layout, verdict_layout};
use super::keys::{Cmd, Ctx};
use super::tests::{
    KNIGHTS, app, click, click_square, engine_answers, engines_after, key, keys, screen, shuffle,
    typed,
};
use super::theme::Theme;
use super::widgets::{MIN_H, MIN_W};
use crate::rules::{EndingKind, Game};
use crossterm::event::KeyCode;
use ratatui::layout::Rect;
use shakmaty::Square;
use std::time::{Duration, Instant};

/// The text inside `r` of the screen, row by row, trimmed.
fn inside(s: &str, r: Rect) -> Vec<String> {
    s.lines()
        .skip(r.y as usize + 1)
        .take(r.height.saturating_sub(2) as usize)
        .map(|l| {
            let row: String = l
                .chars()
                .skip(r.x as usize + 1)
                .take(r.width.saturating_sub(2) as usize)
                .collect();
            row.trim().to_string()
        })
        .collect()
}

/// The words of a text, for comparing wrapped and unwrapped text.
fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An app at 80×24 on a game from `fen` (two humans).
fn from_fen(fen: &str) -> App {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.new_game(Game::from_fen(fen).unwrap());
    a
}

/// The claim dialog's text at the app's size.
fn dialog(a: &App) -> Vec<String> {
    let (s, _) = screen(a, &Theme::plain(), a.size.width, a.size.height);
    inside(&s, claim_layout(&a.play, a.size).popup)
}

/// The intended move, written on the line the claim opened.
fn write(a: &mut App, mv: &str) {
    assert!(a.input.is_some(), "no line open for the intended move");
    keys(a, mv);
    key(a, KeyCode::Enter);
}

const ROOK: &str = "4k3/8/8/8/8/8/4P3/R3K3 w Q - ";

/// Every option is offered at every count, so that an incorrect fifty-move claim can be
/// practised as an incorrect threefold claim can; blind mode keeps the count back.
#[test]
fn the_dialog_offers_every_option_at_every_count() {
    let labels = [
        "[1] threefold now (9.2 b)",
        "[2] threefold with a move (9.2 a)",
        "[3] fifty moves now (9.3 b)",
        "[4] fifty moves with a move (9.3 a)",
    ];
    for count in [0, 98, 99, 100, 120] {
        let mut a = from_fen(&format!("{ROOK}{count} 80"));
        keys(&mut a, "c");
        assert_eq!(a.play.overlay, Some(Overlay::Claim));
        let d = dialog(&a);
        let text = d.join("\n");
        for label in labels {
            assert!(text.contains(label), "{label} at {count}:\n{text}");
        }
        // Each option offered is explained; so is what an incorrect claim costs.
        assert!(text.contains("the position on the board stands for the 3rd time"));
        assert!(
            words(&text).contains(
                "An incorrect claim (FIDE 9.5): the game goes on and an intended move is played; without clocks no time is added."
            ),
            "{text}"
        );
        assert!(
            text.contains(&format!("50-move count {count}/100")),
            "{text}"
        );
        // The key bar lists every option, from the table.
        let (s, _) = screen(&a, &Theme::plain(), 80, 24);
        let bar = s.lines().last().unwrap();
        assert!(
            bar.contains("1 threefold") && bar.contains("Esc cancel"),
            "{bar}"
        );
        assert!(bar.contains("3 fifty "), "{bar}");
        assert!(bar.contains("4 fifty+move"), "{bar}");
        // Every option is a button laid out by the one layout function.
        assert_eq!(claim_layout(&a.play, a.size).buttons.len(), 4);
        // A fifty-move claim now: correct from 100/100, else incorrect and the game goes on.
        keys(&mut a, "3");
        let Some(Overlay::Verdict { correct, text, .. }) = &a.play.overlay else {
            panic!("no ruling at {count}: {:?}", a.play.overlay)
        };
        assert_eq!(*correct, count >= 100, "{count}: {text}");
        assert_eq!(a.play.game.is_over(), count >= 100);
        if count < 100 {
            assert!(text.contains("the count must reach 100/100"), "{text}");
        }
    }
    // Blind mode: the dialog does not give the count (the player counts from the move list).
    let mut a = from_fen(&format!("{ROOK}99 80"));
    keys(&mut a, "B");
    keys(&mut a, "c");
    assert_eq!(a.play.overlay, Some(Overlay::Claim));
    let text = dialog(&a).join("\n");
    assert!(!text.contains("50-move count 99"), "{text}");
    assert!(!text.contains("99"), "{text}");
}

/// Noticing a repetition is the player's job: the dialog reads the same
/// whether or not a threefold claim would be correct.
#[test]
fn the_dialog_does_not_tell_whether_a_threefold_claim_is_correct() {
    let mut third = app();
    third.update(Action::Resize(80, 24));
    shuffle(&mut third, 8);
    let mut first = app();
    first.update(Action::Resize(80, 24));
    for m in ["Nc3", "Nc6", "Nf3", "Nf6", "Ng1", "Ng8", "Nb1", "Nb8"] {
        typed(&mut first, m);
    }
    assert_eq!(third.play.game.current().occurrence, 3);
    assert_eq!(first.play.game.current().occurrence, 2);
    keys(&mut third, "c");
    keys(&mut first, "c");
    assert_eq!(dialog(&third), dialog(&first));
}

#[test]
fn keys_and_clicks_choose_each_option() {
    // 1: threefold now.
    let mut a = app();
    shuffle(&mut a, 8);
    keys(&mut a, "c1");
    assert_eq!(
        a.play.game.termination().unwrap().ending.kind,
        EndingKind::ThreefoldClaim
    );
    // 2: threefold with a move, clicked.
    let mut a = app();
    shuffle(&mut a, 7);
    keys(&mut a, "c");
    let (r, cmd) = claim_layout(&a.play, a.size).buttons[1];
    assert_eq!(cmd, Cmd::ClaimAs(ClaimOption::THREEFOLD_WITH_MOVE));
    click(&mut a, r.x + 3, r.y + 1);
    assert!(a.input.is_some());
    keys(&mut a, "Ng8");
    key(&mut a, KeyCode::Enter);
    assert!(a.play.game.is_over());
    // 3 and 4: fifty moves now, with a move.
    let mut a = from_fen(&format!("{ROOK}100 80"));
    keys(&mut a, "c3");
    assert_eq!(
        a.play.game.termination().unwrap().ending.kind,
        EndingKind::FiftyMoveClaim
    );
    let mut a = from_fen(&format!("{ROOK}99 80"));
    keys(&mut a, "c4");
    write(&mut a, "Ra2");
    let Some(Overlay::Verdict { correct, text, .. }) = &a.play.overlay else {
        panic!("{:?}", a.play.overlay)
    };
    assert!(correct, "{text}");
    assert!(text.contains("After 80.Ra2 the 50-move count would be 100/100."));
    // Esc cancels: no claim, nothing played.
    let mut a = app();
    shuffle(&mut a, 4);
    keys(&mut a, "c");
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.play.overlay, None);
    assert_eq!(a.play.game.len(), 4);
}

/// A ruling on screen at `w`×`h`, read page by page with the table's keys.
fn ruling_on_screen(a: &mut App, w: u16, h: u16) -> String {
    a.update(Action::Resize(w, h));
    let mut rows: Vec<String> = Vec::new();
    loop {
        let Some(Overlay::Verdict { text, scroll, .. }) = a.play.overlay.clone() else {
            panic!("no ruling: {:?}", a.play.overlay)
        };
        let (s, _) = screen(a, &Theme::plain(), w, h);
        let l = verdict_layout(&text, a.size);
        for (i, r) in inside(&s, l.popup).into_iter().enumerate() {
            if rows.len() <= scroll + i {
                rows.resize(scroll + i + 1, String::new());
            }
            rows[scroll + i] = r;
        }
        key(a, KeyCode::PageDown);
        if matches!(&a.play.overlay, Some(Overlay::Verdict { scroll: s, .. }) if *s == scroll) {
            break;
        }
    }
    words(&rows.join(" "))
}

/// Every kind of claim, correct and incorrect: the whole ruling is on screen
/// at 80×24 and at the smallest size, its lines said once.
#[test]
fn each_ruling_fits_80x24() {
    type Setup = (
        &'static str,
        Option<&'static str>,
        &'static str,
        Option<&'static str>,
    );
    let cases: [Setup; 8] = [
        // (moves, fen, dialog keys, intended move)
        ("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", None, "c1", None),
        ("Nf3 Nf6 Ng1 Ng8", None, "c1", None),
        ("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", None, "c2", Some("Ng8")),
        ("Nf3 Nf6 Ng1", None, "c2", Some("e6")),
        ("", Some("4k3/8/8/8/8/8/4P3/R3K3 w Q - 100 80"), "c3", None),
        ("", Some("4k3/8/8/8/8/8/4P3/R3K3 w Q - 100 80"), "c1", None),
        (
            "",
            Some("4k3/8/8/8/8/8/4P3/R3K3 w Q - 99 80"),
            "c4",
            Some("Kd1"),
        ),
        (
            "",
            Some("4k3/8/8/8/8/8/4P3/R3K3 w Q - 99 80"),
            "c4",
            Some("e4"),
        ),
    ];
    for (moves, fen, dialog_keys, intended) in cases {
        for (w, h) in [(80, 24), (MIN_W, MIN_H)] {
            let mut a = match fen {
                Some(f) => from_fen(f),
                None => app(),
            };
            a.play.clock = Some(Clock::new(Duration::from_secs(300), Duration::ZERO));
            for m in moves.split_whitespace() {
                typed(&mut a, m);
            }
            keys(&mut a, dialog_keys);
            if let Some(m) = intended {
                write(&mut a, m);
            }
            let Some(Overlay::Verdict { text, .. }) = a.play.overlay.clone() else {
                panic!("{moves} {dialog_keys}: {:?}", a.play.overlay)
            };
            let shown = ruling_on_screen(&mut a, w, h);
            assert!(
                shown.contains(&words(&text)),
                "{w}×{h}: the ruling is cut:\n{text}\n---\n{shown}"
            );
            let lines: Vec<&str> = text.lines().collect();
            for (i, l) in lines.iter().enumerate() {
                assert!(!lines[i + 1..].contains(l), "said twice: {l}\n{text}");
                assert!(l.chars().count() <= 2 * 72, "a long line: {l}");
            }
            assert_eq!(
                text.matches("(FIDE 9.5)").count(),
                usize::from(!text.contains("Correct claim")),
                "{text}"
            );
            // The key bar keeps the close key.
            let (s, _) = screen(&a, &Theme::plain(), w, h);
            assert!(s.lines().last().unwrap().contains("Enter close"), "{s}");
        }
    }
}

/// A ruling longer than the screen scrolls and pages with the table's keys.
#[test]
fn a_long_ruling_scrolls() {
    let mut a = app();
    let text: Vec<String> = (1..=30)
        .map(|i| format!("Line {i} of a long ruling, wrapped as any other."))
        .collect();
    a.play.overlay = Some(Overlay::Verdict {
        correct: false,
        text: text.join("\n"),
        scroll: 0,
    });
    let shown = ruling_on_screen(&mut a, 80, 24);
    for l in &text {
        assert!(shown.contains(l.as_str()), "{l} missing: {shown}");
    }
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("lines "), "{s}");
    key(&mut a, KeyCode::Home);
    key(&mut a, KeyCode::Char('k'));
    key(&mut a, KeyCode::Char('j'));
    assert!(matches!(
        a.play.overlay,
        Some(Overlay::Verdict { scroll: 1.., .. })
    ));
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.overlay, None);
}

/// FIDE 6.12: the clocks stop while a claim is made and ruled, and start
/// again when the ruling is closed or the claim is not made.
#[test]
fn the_clocks_stop_while_a_claim_is_made_and_ruled() {
    let mut a = app();
    keys(&mut a, "t");
    shuffle(&mut a, 2);
    let white = |a: &App, at| {
        a.play
            .clock
            .as_ref()
            .unwrap()
            .remaining(shakmaty::Color::White, at)
    };
    let later = Instant::now() + Duration::from_secs(3600);
    // The dialog: time passes, the clock does not move and no flag falls.
    keys(&mut a, "c");
    let at_open = white(&a, Instant::now());
    a.update(Action::Tick(later));
    assert_eq!(white(&a, later), at_open);
    assert!(!a.play.game.is_over());
    // Cancelled: the clock runs again.
    key(&mut a, KeyCode::Esc);
    assert!(white(&a, later) < at_open);
    // A claim with a move: stopped while the move is written and the ruling shown.
    keys(&mut a, "c2");
    a.update(Action::Tick(later));
    let before = a.play.clock.clone().unwrap();
    write(&mut a, "Ng1");
    assert!(matches!(
        a.play.overlay,
        Some(Overlay::Verdict { correct: false, .. })
    ));
    a.update(Action::Tick(later));
    assert!(!a.play.game.is_over(), "no flag falls during the ruling");
    let c = a.play.clock.clone().unwrap();
    assert_eq!(c.running, None);
    assert_eq!(
        c.left[0],
        before.left[0] + c.inc,
        "White's time stood still (but for the increment of the move played)"
    );
    assert_eq!(
        c.left[1],
        before.left[1] + Duration::from_secs(120),
        "Black gets 2 more minutes (FIDE 9.5)"
    );
    // Closed: Black's clock (Black to move) runs; an hour later its flag falls.
    key(&mut a, KeyCode::Enter);
    assert_eq!(
        a.play.clock.as_ref().unwrap().running.map(|r| r.0),
        Some(shakmaty::Color::Black)
    );
    a.update(Action::Tick(later));
    assert!(a.play.game.is_over(), "the clock ran again");
}

/// Withdrawing a claim that waits for its move restarts the clocks too.
#[test]
fn withdrawing_a_claim_restarts_the_clocks() {
    let mut a = app();
    keys(&mut a, "t");
    shuffle(&mut a, 2);
    keys(&mut a, "c2");
    key(&mut a, KeyCode::Esc); // the input line
    assert!(a.play.clock.as_ref().unwrap().running.is_none());
    key(&mut a, KeyCode::Esc); // the claim
    assert_eq!(a.play.claim_pending, None);
    assert!(a.play.clock.as_ref().unwrap().running.is_some());
}

/// "claim possible" covers the fifty-move rule: at 99/100 any move that is
/// neither a capture nor a pawn move makes a 9.3 (a) claim.
#[test]
fn claim_possible_covers_the_fifty_move_rule() {
    for (count, possible) in [(98, false), (99, true), (100, true)] {
        let a = from_fen(&format!("8/8/4k3/8/8/3K4/5R2/8 w - - {count} 80"));
        let (s, _) = screen(&a, &Theme::plain(), 80, 24);
        assert_eq!(s.contains("claim possible"), possible, "{count}:\n{s}");
    }
}

/// The key bar: the table's hints in priority order, `?` and `q` always
/// there, at 80×24 and at the smallest size.
#[test]
fn the_key_bar_keeps_help_and_quit() {
    for (w, h) in [(80, 24), (MIN_W, MIN_H)] {
        let mut a = app();
        a.update(Action::Resize(w, h));
        let (s, _) = screen(&a, &Theme::plain(), w, h);
        let bar = s.lines().last().unwrap().to_string();
        assert!(bar.contains("? help") && bar.contains("q quit"), "{bar}");
        assert!(bar.contains("c claim"), "{bar}");
        assert!(bar.find("c claim") < bar.find("? help"), "{bar}");
        for (k, hint) in super::keys::key_bar(Ctx::Play, w as usize, |_| true) {
            assert!(bar.contains(&format!("{k} {hint}")), "{bar}");
        }
        assert!(bar.chars().count() <= w as usize);
        // Wider, more hints come back in table order.
        let wide = super::keys::key_bar(Ctx::Play, 200, |_| true);
        assert_eq!(wide, super::keys::hints(Ctx::Play));
    }
}

/// Quitting, a signal or a panic keeps the claims made and the clocks with the
/// moves: the resumed game has both, the side to move's clock runs, and the
/// engine thinks with the time that was left.
#[test]
fn a_kept_game_keeps_its_claims_and_clocks() {
    use super::app::Effect;
    use super::chess::{Players, load_saved};
    let dir = std::env::temp_dir().join(format!("threefold-keepall-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game-in-progress.json");
    let mut a = app();
    a.play.resume_path = Some(path.clone());
    keys(&mut a, "t");
    shuffle(&mut a, 4);
    keys(&mut a, "c1"); // an incorrect claim now: Black gets 2 minutes (FIDE 9.5)
    key(&mut a, KeyCode::Enter);
    keys(&mut a, "c2"); // an incorrect claim with a move
    write(&mut a, "Nf3");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.record.claims.len(), 2);
    let left = a.play.clock.clone().unwrap().left;
    assert!(left[1] > left[0] + Duration::from_secs(100), "{left:?}");
    keys(&mut a, "q");
    let saved = load_saved(&path).unwrap().expect("the game was kept");
    assert_eq!(saved.moves.len(), 5);
    assert_eq!(saved.claims.len(), 2);

    let mut b = app();
    b.play.resume_path = Some(path.clone());
    let mut engine_black = saved.clone();
    engine_black.human = Players::HumanWhite;
    b.with_play(|p, _, out| crate::tui::game::kept::Keep::resume(p, &engine_black, out));
    assert_eq!(b.play.game.uci_moves(), a.play.game.uci_moves());
    assert_eq!(b.play.record.claims, a.play.record.claims);
    let c = b.play.clock.clone().unwrap();
    for side in 0..2 {
        let diff = left[side].abs_diff(c.left[side]);
        assert!(
            diff < Duration::from_millis(2),
            "{side}: {left:?} {:?}",
            c.left
        );
    }
    assert_eq!(c.running.map(|r| r.0), Some(shakmaty::Color::Black));
    let Some(Effect::Think { limits, .. }) = b.effects.pop() else {
        panic!("the engine (Black) did not think")
    };
    assert_eq!(limits.btime.map(|t| t.as_secs()), Some(c.left[1].as_secs()));
    // The claims are reviewed and saved with the game as before.
    assert!(
        b.play.pgn_text().contains("{[%claim now 9.2]}"),
        "{}",
        b.play.pgn_text()
    );
    assert!(
        b.play.pgn_text().contains("{[%claim move 9.2]}"),
        "{}",
        b.play.pgn_text()
    );

    // A file kept before claims and clocks were: still resumed.
    let old = r#"{"start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":["e2e4"],"human":"both"}"#;
    std::fs::write(&path, old).unwrap();
    let s = load_saved(&path).unwrap().unwrap();
    assert!(s.claims.is_empty() && s.clocks.is_none());
    // A claim that cannot be: the file is set aside with one line saying why.
    let bad = old.replace('}', r#","claims":[{"ply":1,"mark":"later"}]}"#);
    std::fs::write(&path, bad).unwrap();
    let e = load_saved(&path).unwrap_err();
    assert!(e.to_string().contains("a claim is marked 'later'"), "{e}");
    let bad = old.replace('}', r#","claims":[{"ply":9,"mark":"now"}]}"#);
    std::fs::write(&path, bad).unwrap();
    let e = load_saved(&path).unwrap_err();
    assert!(
        e.to_string().contains("at ply 9 of a game of 1 plies"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The clocks key changes the clocks of new games; a game in progress with clocks keeps
/// its own (and the minutes FIDE 9.5 gave). Without clocks, they start at once.
#[test]
fn the_clocks_key_never_resets_a_game_in_progress() {
    let mut a = app();
    keys(&mut a, "t"); // 5+3 for this game, not yet begun
    shuffle(&mut a, 4);
    keys(&mut a, "c1"); // incorrect: Black gets 2 minutes
    key(&mut a, KeyCode::Enter);
    let before = a.play.clock.clone().unwrap().left;
    keys(&mut a, "t");
    let m = a.message.clone().unwrap().text;
    assert!(m.contains("Clocks 3+2 from the next game"), "{m}");
    assert_eq!(a.play.clock.clone().unwrap().left, before);
    assert_eq!(a.play.clock_setting(), (180, 2));
    keys(&mut a, "n");
    if a.play.overlay.is_some() {
        keys(&mut a, "y");
    }
    assert!(a.play.game.is_empty());
    let c = a.play.clock.clone().unwrap();
    assert_eq!(
        (c.base, c.inc),
        (Duration::from_secs(180), Duration::from_secs(2))
    );
    // The same rule for a game under way without clocks: they come with the next game.
    let mut a = app();
    shuffle(&mut a, 3);
    keys(&mut a, "t");
    assert_eq!(a.play.clock, None);
    let m = a.message.clone().unwrap().text;
    assert!(m.contains("Clocks 5+3 from the next game"), "{m}");
}

/// Taking back a flag fall takes back the time that ran out, and the clocks run.
#[test]
fn taking_back_a_flag_fall_restores_the_clock() {
    let mut a = app();
    a.play.clock = Some(Clock::new(Duration::from_secs(60), Duration::ZERO));
    shuffle(&mut a, 2);
    let later = Instant::now() + Duration::from_secs(61);
    a.update(super::app::Action::Tick(later));
    let t = a.play.game.termination().expect("White's flag fell");
    assert!(
        matches!(t.ending.kind, EndingKind::LostOnTime { .. }),
        "{t:?}"
    );
    keys(&mut a, "u");
    assert_eq!(a.play.game.len(), 1);
    assert!(!a.play.game.is_over());
    let c = a.play.clock.clone().unwrap();
    assert!(c.left[0] > Duration::from_secs(50), "{:?}", c.left);
    assert_eq!(c.running.map(|r| r.0), Some(shakmaty::Color::Black));
    let soon = Instant::now() + Duration::from_secs(1);
    a.update(super::app::Action::Tick(soon));
    assert!(!a.play.game.is_over(), "no flag falls again at once");
}

/// FIDE 9.5 without clocks: the dialog and the ruling say that the game goes on and an
/// intended move is played, and name no minutes (there is no clock to add them to); with
/// clocks both name them.
#[test]
fn an_incorrect_claim_without_clocks_adds_no_time() {
    let mut a = from_fen(&format!("{ROOK}0 80"));
    assert!(a.play.clock.is_none());
    keys(&mut a, "c");
    let text = words(&dialog(&a).join(" "));
    assert!(!text.contains("minutes"), "{text}");
    assert!(text.contains("without clocks no time is added"), "{text}");
    keys(&mut a, "1");
    let Some(Overlay::Verdict {
        correct: false,
        text,
        ..
    }) = &a.play.overlay
    else {
        panic!("{:?}", a.play.overlay)
    };
    assert!(!text.contains("minutes"), "{text}");
    assert!(
        text.contains("The game goes on (FIDE 9.5); without clocks no time is added."),
        "{text}"
    );
    let message = &a.message.as_ref().unwrap().text;
    assert!(!message.contains("minutes"), "{message}");

    // The same claim with clocks: two minutes for the opponent, in the dialog and the ruling.
    let mut a = from_fen(&format!("{ROOK}0 80"));
    keys(&mut a, "t");
    a.new_game(a.play.game.clone());
    assert!(a.play.clock.is_some());
    keys(&mut a, "c");
    let text = words(&dialog(&a).join(" "));
    assert!(
        text.contains("Black gets 2 more minutes (FIDE 9.5)"),
        "{text}"
    );
    keys(&mut a, "1");
    let Some(Overlay::Verdict { text, .. }) = &a.play.overlay else {
        panic!("{:?}", a.play.overlay)
    };
    assert!(
        text.contains("Black gets 2 more minutes (FIDE 9.5)"),
        "{text}"
    );
}

/// After the game's end there is nothing to claim: the button goes, and a click where it
/// stood opens nothing.
#[test]
fn the_claim_button_goes_when_the_game_ends() {
    let mut a = from_fen(&format!("{ROOK}100 80"));
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("Claim draw"), "{s}");
    keys(&mut a, "c3");
    assert!(a.play.game.is_over());
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.overlay, None);
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(!s.contains("Claim draw"), "{s}");
    let at = super::app::render::layout(a.size).unwrap().claim;
    a.message = None;
    click(&mut a, at.x + 2, at.y);
    assert_eq!(a.play.overlay, None);
    assert_eq!(a.message, None, "a click on the empty place says nothing");
}

#[test]
fn threefold_claim_now_is_correct() {
    let mut a = app();
    shuffle(&mut a, 8);
    assert_eq!(a.play.game.occurrences(4), 2);
    assert_eq!(a.play.game.occurrences(8), 3);
    keys(&mut a, "c");
    assert_eq!(a.play.overlay, Some(Overlay::Claim));
    keys(&mut a, "1");
    match &a.play.overlay {
        Some(Overlay::Verdict { correct, text, .. }) => {
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
        Some(Overlay::Verdict { correct, text, .. }) => {
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
    let Some(Overlay::Verdict { correct, text, .. }) = &a.play.overlay else {
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
    assert_eq!(a.play.overlay, Some(Overlay::Claim));
}

#[test]
fn a_sparring_engine_never_claims_and_asks_its_search_to_spar() {
    use super::engine_thread::Effect;
    // As the_engine_claims_with_its_intended_move_when_it_repeats_for_the_third_time, but
    // sparring: ...Ng8 is played and the claim is left to the player.
    let mut a = app();
    for m in KNIGHTS.iter().take(7) {
        typed(&mut a, m);
    }
    a.play.config.human = Players::HumanWhite;
    a.play.config.sparring = true;
    a.start();
    assert!(
        a.effects
            .iter()
            .any(|e| matches!(e, Effect::Think { limits, .. } if limits.sparring)),
        "the think request carries sparring"
    );
    engine_answers(&mut a, -10, "Ng8");
    assert!(!a.play.game.is_over(), "the sparring engine does not claim");
    assert_eq!(a.play.game.len(), 8);
    assert!(
        crate::rules::claim::threefold_now(&a.play.game),
        "the claim is White's"
    );
}

#[test]
fn the_players_menu_turns_sparring_on_and_off() {
    let mut a = app();
    assert!(!a.play.config.sparring);
    keys(&mut a, "p");
    let (s, _) = screen(&a, &Theme::colored(), 80, 24);
    assert!(s.contains("sparring off"), "{s}");
    keys(&mut a, "s");
    assert!(a.play.config.sparring);
    let (s, _) = screen(&a, &Theme::colored(), 80, 24);
    assert!(s.contains("sparring on"), "{s}");
    keys(&mut a, "s");
    assert!(!a.play.config.sparring);
}

/// After an incorrect claim with a move at 80×24 the ruling stands beside the board, which
/// shows the move played (it was hidden under the popup until it closed).
#[test]
fn the_ruling_of_a_claim_with_a_move_leaves_the_board_and_the_move_in_view() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    shuffle(&mut a, 2);
    // 2.Ng1 with a claim: the start position only a second time, so the claim is wrong and
    // 2.Ng1 is played.
    keys(&mut a, "c2");
    keys(&mut a, "Ng1");
    key(&mut a, KeyCode::Enter);
    let Some(Overlay::Verdict { text, correct, .. }) = a.play.overlay.clone() else {
        panic!("no ruling: {:?}", a.play.overlay)
    };
    assert!(!correct, "{text}");
    assert_eq!(a.play.game.len(), 3, "the intended move is played");
    let areas = layout(a.size).unwrap();
    let popup = verdict_layout(&text, a.size).popup;
    assert!(
        popup.intersection(areas.board).is_empty(),
        "{popup:?} covers the board {:?}",
        areas.board
    );
    let (_, buf) = screen(&a, &Theme::plain(), 80, 24);
    let g = super::app::render::board_geom(&areas, a.play.flipped).unwrap();
    let g1 = g.rect(shakmaty::Square::G1);
    let row: String = (g1.x..g1.right())
        .map(|x| buf[(x, g1.y + (g1.height - 1) / 2)].symbol().to_string())
        .collect();
    assert!(row.contains('♘'), "the knight back on g1: {row:?}");
}
