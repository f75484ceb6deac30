//! Euwe's stepper: its keys, both rules shown, its layout at 80×24 and the minimum size, its sparkline, and the engines' panel beside it.

use crossterm::event::{KeyCode, KeyModifiers, MouseEvent, MouseEventKind};

use super::app::{Action, App, Screen};
use super::tests::{app, click, find, key, keys, screen};
use super::theme::Theme;

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

/// The Euwe screen at 80×24 and at the smallest size accepted: at the start,
/// at the first 9.2 claim, at the fivefold repetition and late in the
/// sequence, the panel's rows are all there, none cut at the right edge.
#[test]
fn euwe_screen_fits_80x24_and_the_minimum_size() {
    use super::chess::euwe::layout as euwe_layout;
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
    let spark = super::chess::euwe::layout(a.size).unwrap().spark;
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

/// With the engines' panel open (`E`) at 80×24 the Euwe panel keeps the
/// facts of the ply shown — its block, the FIDE heading, the occurrences and
/// both FIDE lines — whole; the remarks give way first. Counts of plies say
/// "plies" (Nf3 Nf6 Ng1 Ng8 is 4 plies, not "4 moves").
#[test]
fn euwe_with_the_engines_panel_keeps_fide_and_the_block_at_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "eE");
    let panel = super::chess::euwe::layout(a.size).unwrap().panel;
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
