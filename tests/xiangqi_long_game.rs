//! A long xiangqi game on the trainer's screen (issue 36): loading it and redrawing it cost
//! the rows in sight and the occurrences the judge finds, not the length of the game. The
//! move list used to make a row for every ply at every redraw, each counting its position's
//! occurrences by a scan back over the game: quadratic, 55 s a keypress at 200,000 plies.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use threefold::tui::config::Config;
use threefold::tui::prompt::InputKind;
use threefold::tui::screen::Requests;
use threefold::tui::theme::Theme;
use threefold::tui::xiangqi::XiangqiScreen;
use threefold::xiangqi::board::{Move, Position};
use threefold::xiangqi::pgn::PgnGame;

/// `plies` moves of both sides' horses going out and back: every position stands about
/// `plies / 4` times, and the game is ruled (a draw) at the third occurrence, ply 8.
fn shuffle(plies: usize) -> Vec<Move> {
    let cycle: Vec<Move> = [("b0", "c2"), ("b9", "c7"), ("c2", "b0"), ("c7", "b9")]
        .iter()
        .map(|(a, b)| Move::new(a.parse().expect("a point"), b.parse().expect("a point")))
        .collect();
    cycle.iter().copied().cycle().take(plies).collect()
}

/// The screen with `moves` loaded from a PGN file, as the trainer opens one.
fn loaded(moves: Vec<Move>) -> XiangqiScreen {
    let path = std::env::temp_dir().join(format!("threefold-long-{}.pgn", std::process::id()));
    let mut game = PgnGame::new(Position::start());
    game.moves = moves;
    std::fs::write(&path, game.write()).expect("written");
    let mut screen = XiangqiScreen::new(&Config::default());
    let mut out = Requests::default();
    screen.submit(InputKind::LoadPgn, &path.display().to_string(), &mut out);
    std::fs::remove_file(&path).expect("removed");
    screen
}

fn redraw(screen: &XiangqiScreen) {
    let area = Rect::new(0, 0, 80, 24);
    let mut buf = Buffer::empty(area);
    screen.render(false, &Theme::plain(), area, &mut buf);
}

#[test]
fn a_redraw_makes_the_rows_in_sight_and_looks_up_few_occurrences() {
    let plies = 3_000;
    let mut screen = loaded(shuffle(plies));
    assert_eq!(screen.record().ply(), plies);
    assert_eq!(screen.game.standing().map(|r| r.ply), Some(8));
    // The live position, then the middle of the game (stepping back through it), then its
    // start: each redraw makes at most a screenful of rows.
    for view in [None, Some(plies / 2), Some(0)] {
        screen.view = view;
        let (rows, lookups) = (screen.rows_made(), screen.record().occurrence_lookups());
        redraw(&screen);
        redraw(&screen);
        let made = screen.rows_made() - rows;
        assert!(
            (1..=2 * 24).contains(&made),
            "view {view:?}: two redraws made {made} rows of a {plies}-ply game"
        );
        let looked_up = screen.record().occurrence_lookups() - lookups;
        assert!(
            looked_up <= 2 * 8,
            "view {view:?}: two redraws looked up {looked_up} occurrences"
        );
    }
    // The rows in sight still count each position's occurrences: the last position is the
    // start position, which stood after every fourth ply, 751 times in all.
    let area = Rect::new(0, 0, 80, 24);
    let mut buf = Buffer::empty(area);
    screen.view = None;
    screen.render(true, &Theme::plain(), area, &mut buf);
    let text: String = (0..24)
        .map(|y| {
            (0..80)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
                + "\n"
        })
        .collect();
    assert!(text.contains("1500...") && text.contains("x751"), "{text}");
}
