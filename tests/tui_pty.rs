//! End-to-end: the real binary in a pseudo-terminal, its screen parsed by
//! vt100, driven by keystrokes as a person would.

mod common;

use common::{Session, temp_home};

const TWO_HUMANS: &str = "human = \"both\"\n";

#[test]
fn play_to_threefold_see_badges_claim_and_verdict() {
    let mut s = Session::spawn("claim", Some(TWO_HUMANS), &[], 120, 40);
    s.wait_for("Claim draw");
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        s.typed(m);
    }
    s.wait_for("Ng8 ×3");
    assert!(s.screen().contains("Ng8 ×2"));
    assert!(s.screen().contains("claim possible"));
    s.send("c");
    s.wait_for("[1] Claim now");
    s.send("1");
    s.wait_for("Claim correct: draw");
    s.send("\r");
    s.wait_for("GAME OVER");
    assert!(s.screen().contains("1/2-1/2"));
    s.quit_and_check_restored();
}

#[test]
fn a_wrong_claim_is_explained_and_play_goes_on() {
    let mut s = Session::spawn("wrong", Some(TWO_HUMANS), &[], 120, 40);
    s.wait_for("Claim draw");
    for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
        s.typed(m);
    }
    s.wait_for("Ng8 ×2");
    s.send("c");
    s.wait_for("[1] Claim now");
    s.send("1");
    s.wait_for("Claim incorrect");
    assert!(s.screen().contains("twice"), "{}", s.screen());
    s.send("\r");
    s.typed("e4");
    s.wait_for("3. e4");
    // A game in progress is kept on quit (no question asked).
    s.quit_and_check_restored();
}

#[test]
fn euwe_stepper() {
    let mut s = Session::spawn("euwe", None, &[], 200, 50);
    s.wait_for("Claim draw");
    s.send("e");
    s.wait_for("Euwe's sequence");
    s.send("5");
    s.wait_for("fivefold repetition at ply 16");
    assert!(
        s.screen()
            .contains("no sequence of moves played three times in succession")
    );
    s.send("G");
    s.wait_for("Ply 128 / 128");
    s.send("\x1b");
    s.wait_for("Claim draw");
    s.quit_and_check_restored();
}

#[test]
fn the_engine_replies_on_its_own_thread() {
    let mut s = Session::spawn("engine", None, &["--ascii"], 100, 30);
    s.wait_for("Claim draw");
    s.typed("e4");
    // Ply 2 is the engine's reply.
    s.wait_for("Ply 2 ");
    s.send("u");
    s.wait_for("Took back 2 plies");
    s.quit_and_check_restored();
}

#[test]
fn malformed_config_names_the_line_and_uses_defaults() {
    let s = Session::spawn(
        "badcfg",
        Some("level = 3\nhash_mb = \"big\"\n"),
        &[],
        120,
        40,
    );
    s.wait_for("line 2");
    let text = s.screen().replace('\n', " ");
    assert!(text.contains("using the defaults"), "{text}");
    s.quit_and_check_restored();
}

#[test]
fn start_from_fen_and_too_small_terminal() {
    let s = Session::spawn(
        "fen",
        Some(TWO_HUMANS),
        &["--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"],
        50,
        15,
    );
    s.wait_for("enlarge to 64×20");
    s.quit_and_check_restored();
}

#[test]
fn a_game_in_progress_is_offered_on_the_next_start() {
    let home = temp_home("resume");
    let mut s = Session::spawn_in(home.clone(), Some(TWO_HUMANS), &[], &[], 120, 40);
    s.wait_for("Claim draw");
    s.typed("d4");
    s.typed("d5");
    s.wait_for("1. d4");
    s.send("q");
    assert!(s.wait_exit().success());
    let mut s = Session::spawn_in(home, None, &[], &[], 120, 40);
    s.wait_for("Resume it?");
    s.send("y");
    s.wait_for("Resumed the game in progress");
    assert!(s.screen().contains("1. d4"), "{}", s.screen());
    s.quit_and_check_restored();
}

#[test]
fn a_panic_restores_the_terminal_first() {
    let mut s = Session::spawn_in(
        temp_home("panic"),
        None,
        &[],
        &[("THREEFOLD_TEST_PANIC", "1")],
        120,
        40,
    );
    let status = s.wait_exit();
    assert!(!status.success());
    s.assert_restored();
    let text = s.screen();
    assert!(text.contains("test panic requested"), "{text}");
}

/// An SGR mouse click (press and release) at a 0-based cell.
fn click(s: &mut Session, x: u16, y: u16) {
    s.send(&format!(
        "\x1b[<0;{};{}M\x1b[<0;{};{}m",
        x + 1,
        y + 1,
        x + 1,
        y + 1
    ));
}

#[test]
fn mouse_moves_and_the_claim_button() {
    use ratatui::layout::Rect;
    use shakmaty::Square;
    use threefold::tui::render;
    let mut s = Session::spawn("mouse", Some(TWO_HUMANS), &[], 120, 40);
    s.wait_for("Claim draw");
    let areas = render::layout(Rect::new(0, 0, 120, 40)).unwrap();
    let g = render::board_geom(&areas, false).unwrap();
    let at = |sq: Square| {
        let r = g.rect(sq);
        (r.x + 1, r.y + 1)
    };
    let (x, y) = at(Square::G1);
    click(&mut s, x, y);
    let (x, y) = at(Square::F3);
    click(&mut s, x, y);
    s.wait_for("1. Nf3");
    click(&mut s, areas.claim.x + 3, areas.claim.y);
    s.wait_for("[1] Claim now");
    s.send("\x1b");
    s.send("?");
    s.wait_for("Help (? or Esc to close)");
    s.send("\x1b");
    s.quit_and_check_restored();
}
