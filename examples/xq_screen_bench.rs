//! Times the xiangqi screen on a long game: loading a `[Variant "xiangqi"]` PGN file of N plies
//! of horse moves (the trainer's `o` key and the resume at start go through the same
//! `XiangqiScreen::resume`) and redrawing the screen into an 80x24 buffer, as a keypress does
//! (issue 36, item 2):
//!
//! ```text
//! cargo run --release --example xq_screen_bench -- [--plies N] [--redraws R] [--kind walk|shuffle] [--write PATH]
//! ```
//!
//! `walk` (the default) never repeats a position: only horses move, never capturing, and a
//! depth-first search over the positions (deterministic) avoids every position already
//! reached, so no repetition is ruled and the judge looks at every ply, the worst case for
//! it. `shuffle` moves the horses out and back, so the judge rules at the third occurrence
//! and the rest of the game is played past the ruling, every position standing thousands of
//! times. Prints the load time, then the median of R redraws (the first one, which computes
//! what the rows show, apart).

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use threefold::tui::config::Config;
use threefold::tui::prompt::InputKind;
use threefold::tui::screen::Requests;
use threefold::tui::theme::Theme;
use threefold::tui::xiangqi::XiangqiScreen;
use threefold::xiangqi::board::{Kind, Move, Position};
use threefold::xiangqi::pgn::PgnGame;

/// The horses' non-capturing moves in `pos`.
fn horse_moves(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .as_slice()
        .iter()
        .copied()
        .filter(|&m| {
            !pos.is_capture(m)
                && pos
                    .piece_at(m.from())
                    .is_some_and(|p| p.kind == Kind::Horse)
        })
        .collect()
}

/// `plies` horse moves that never reach a position twice (a depth-first search, moves tried
/// in a fixed pseudo-random order).
fn walk(plies: usize) -> Vec<Move> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut shuffled = |mut v: Vec<Move>| {
        for i in (1..v.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            v.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        v
    };
    let start = Position::start();
    let mut seen = HashSet::from([start.key()]);
    // The line: each position with the moves still to try from it.
    let mut line: Vec<(Position, Vec<Move>)> = vec![(start.clone(), shuffled(horse_moves(&start)))];
    let mut moves = Vec::new();
    while moves.len() < plies {
        let (pos, todo) = line.last_mut().expect("the start position has horse moves");
        match todo.pop() {
            Some(m) => {
                let mut next = pos.clone();
                next.make(m);
                if seen.insert(next.key()) {
                    let todo = shuffled(horse_moves(&next));
                    line.push((next, todo));
                    moves.push(m);
                }
            }
            None => {
                line.pop();
                moves.pop();
            }
        }
    }
    moves
}

/// `plies` moves of both sides' horses going out and back.
fn shuffle(plies: usize) -> Vec<Move> {
    let cycle: Vec<Move> = [("b0", "c2"), ("b9", "c7"), ("c2", "b0"), ("c7", "b9")]
        .iter()
        .map(|(from, to)| Move::new(from.parse().expect("a point"), to.parse().expect("a point")))
        .collect();
    cycle.iter().copied().cycle().take(plies).collect()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[(v.len() - 1) / 2]
}

fn main() {
    let mut plies = 10_000;
    let mut redraws = 5;
    let mut kind = "walk".to_string();
    let mut write = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--plies" => plies = value().parse().expect("--plies N"),
            "--redraws" => redraws = value().parse().expect("--redraws R"),
            "--kind" => kind = value(),
            "--write" => write = Some(PathBuf::from(value())),
            _ => panic!("unknown argument {a}"),
        }
    }
    let t = Instant::now();
    let moves = match kind.as_str() {
        "walk" => walk(plies),
        "shuffle" => shuffle(plies),
        _ => panic!("--kind walk or shuffle"),
    };
    let mut game = PgnGame::new(Position::start());
    game.moves = moves;
    let text = game.write();
    let keep = write.is_some();
    let path = write.unwrap_or_else(|| {
        std::env::temp_dir().join(format!(
            "xq_screen_bench_{}_{plies}.pgn",
            std::process::id()
        ))
    });
    std::fs::write(&path, &text).expect("write the PGN file");
    eprintln!(
        "{plies} plies ({kind}) written to {} in {:.2} s",
        path.display(),
        t.elapsed().as_secs_f64()
    );

    let mut screen = XiangqiScreen::new(&Config::default());
    let t = Instant::now();
    let mut out = Requests::default();
    screen.submit(InputKind::LoadPgn, &path.display().to_string(), &mut out);
    let load = t.elapsed().as_secs_f64();
    assert!(screen.record().ply() == plies, "the game loads");
    if !keep {
        let _ = std::fs::remove_file(&path);
    }

    let theme = Theme::plain();
    let area = Rect::new(0, 0, 80, 24);
    let draw = || {
        let mut buf = Buffer::empty(area);
        let t = Instant::now();
        screen.render(false, &theme, area, &mut buf);
        t.elapsed().as_secs_f64()
    };
    let first = draw();
    let times: Vec<f64> = (0..redraws.max(1)).map(|_| draw()).collect();
    println!(
        "xiangqi screen, {plies} plies ({kind}): load {load:.3} s, first redraw {:.1} ms, redraw median of {} {:.1} ms",
        first * 1e3,
        times.len(),
        median(times) * 1e3
    );
}
