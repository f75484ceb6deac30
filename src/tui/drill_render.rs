//! Drawing the drill screen (side-effect free, like [`super::render`]): the
//! theme list with scores, then the puzzle view: board, move list with
//! repetition badges, question, answer widget, and the ruling.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget as _, Wrap};
use shakmaty::{Color, Position};

use super::app::App;
use super::board::{BoardView, Geom};
use super::drill::{DrillState, PuzzleState, Score, View, Widget};
use super::keys::{self, Cmd, Ctx};
use super::render::{HistoryView, MIN_H, MIN_W, layout};
use super::theme::Theme;

/// The drill puzzle view's regions (title, message, input and status rows
/// are those of [`layout`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrillAreas {
    pub board: Rect,
    pub header: Rect,
    pub question: Rect,
    pub history: Rect,
    pub answer: Rect,
}

/// Lay out the puzzle view, or None if the terminal is too small.
pub fn drill_layout(size: Rect) -> Option<DrillAreas> {
    if size.width < MIN_W || size.height < MIN_H {
        return None;
    }
    let (x, y, w, h) = (size.x, size.y, size.width, size.height);
    let mid_h = h - 5;
    // A smaller board than the game's: the text needs the room.
    let geom = Geom::fit(Rect::new(0, 0, w / 2, mid_h), false)?;
    let board_w = geom.outer().width + 2;
    let board = Rect::new(x, y + 1, board_w, mid_h);
    let sx = x + board_w + 1;
    let sw = w - board_w - 1;
    let sy = y + 1;
    let header = Rect::new(sx, sy, sw, 3);
    let question = Rect::new(sx, sy + 3, sw, 4);
    let hist_h = (mid_h / 3).max(5);
    let history = Rect::new(sx, sy + 7, sw, hist_h);
    let ans_y = sy + 7 + hist_h;
    let answer = Rect::new(sx, ans_y, sw, (sy + mid_h).saturating_sub(ans_y));
    Some(DrillAreas {
        board,
        header,
        question,
        history,
        answer,
    })
}

/// The board is seen from the side to move in the question.
pub fn drill_flipped(p: &PuzzleState) -> bool {
    p.game().position().turn() == Color::Black
}

pub fn drill_board_geom(a: &DrillAreas, p: &PuzzleState) -> Option<Geom> {
    Geom::fit(a.board, drill_flipped(p))
}

/// The theme list's rows ("all" first), for drawing and clicking.
pub fn drill_theme_rows(size: Rect, n: usize) -> Vec<Rect> {
    (0..n)
        .map(|i| {
            Rect::new(
                size.x + 1,
                size.y + 4 + i as u16,
                size.width.saturating_sub(2),
                1,
            )
        })
        .filter(|r| r.y + 5 < size.bottom())
        .collect()
}

fn button_label(i: usize, label: &str) -> String {
    format!("[{} {label}]", i + 1)
}

/// Where the option buttons of a choice question are (first answer rows).
pub fn drill_option_buttons(p: &PuzzleState, area: Rect, _ascii: bool) -> Vec<Rect> {
    if p.widget() != Widget::Choice {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (mut x, mut y) = (area.x, area.y);
    for (i, (label, _)) in p.options().iter().enumerate() {
        // One cell before each button for the "highlighted" marker.
        let w = button_label(i, label).chars().count() as u16 + 1;
        if x + w > area.right() && x > area.x {
            x = area.x;
            y += 1;
        }
        out.push(Rect::new(x, y, w, 1));
        x += w + 1;
    }
    out
}

pub fn render_drills(app: &App, d: &DrillState, t: &Theme, size: Rect, buf: &mut Buffer) {
    let Some(a) = layout(size) else { return };
    match &d.view {
        View::Themes => {
            Paragraph::new(Line::from(vec![
                Span::styled(" threefold ", t.title),
                Span::raw("Drills: repetition, claims and endings (FIDE 9.2, 9.3, 9.5, 9.6)"),
            ]))
            .render(a.title, buf);
            render_themes(app, d, t, size, buf);
        }
        View::Puzzle(p) => {
            let name = match &p.pick {
                super::drill::Pick::All => "all themes".to_string(),
                super::drill::Pick::Theme(id) => d
                    .session
                    .collection
                    .theme(id)
                    .map_or(id.clone(), |th| th.name.clone()),
            };
            Paragraph::new(Line::from(vec![
                Span::styled(" threefold ", t.title),
                Span::raw(format!("Drills: {name}")),
            ]))
            .render(a.title, buf);
            if let Some(da) = drill_layout(size) {
                render_puzzle(app, d, p, t, &da, buf);
            }
        }
    }
}

fn score_text(s: Score) -> String {
    format!(
        "score {:>3}/{:<3}  streak {:>2} (best {:>2})  solved {:>2}/{:<2}",
        s.correct, s.attempts, s.streak, s.best_streak, s.solved, s.puzzles
    )
}

fn render_themes(app: &App, d: &DrillState, t: &Theme, size: Rect, buf: &mut Buffer) {
    let x = size.x + 2;
    buf.set_string(
        x,
        size.y + 2,
        format!(
            "Pick a theme: {}/{} and {}, or click. Score is correct/attempts.",
            keys::key_in(Ctx::DrillThemes, Cmd::DrillUp),
            keys::key_in(Ctx::DrillThemes, Cmd::DrillDown),
            keys::key_in(Ctx::DrillThemes, Cmd::DrillPick)
        ),
        t.dim,
    );
    let rows = drill_theme_rows(size, d.rows());
    let score_w = score_text(Score::default()).chars().count();
    for (i, r) in rows.iter().enumerate() {
        let name_w = (r.width as usize).saturating_sub(3 + score_w).clamp(12, 44);
        let (name, score) = if i == 0 {
            ("All themes".to_string(), d.total())
        } else {
            let th = &d.session.collection.themes[i - 1];
            (th.name.clone(), d.score(&th.id))
        };
        let sel = i == d.row;
        let mark = match (sel, app.ascii) {
            (false, _) => " ",
            (true, false) => "▶",
            (true, true) => ">",
        };
        let name: String = if name.chars().count() > name_w {
            let cut: String = name.chars().take(name_w - 1).collect();
            format!("{cut}{}", if app.ascii { "~" } else { "…" })
        } else {
            name
        };
        let text = format!("{mark} {name:<name_w$} {}", score_text(score));
        let style = if sel { t.viewing } else { Style::new() };
        let text: String = text.chars().take(r.width as usize).collect();
        buf.set_string(r.x, r.y, text, style);
    }
    let below = rows.last().map_or(size.y + 5, |r| r.y + 2);
    let mut lines = Vec::new();
    if d.row > 0 {
        let th = &d.session.collection.themes[d.row - 1];
        lines.push(Line::from(Span::styled(th.name.clone(), t.title)));
        lines.push(Line::from(th.description.clone()));
        lines.push(Line::from(format!("{} puzzles", th.puzzles.len())));
    } else {
        lines.push(Line::from(Span::styled("All themes", t.title)));
        lines.push(Line::from(
            "Puzzles from every theme in turn, unsolved ones first.",
        ));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        match d.session.store() {
            Some(s) => format!("Progress is kept in {}", s.path().display()),
            None => "Progress is not saved (no data directory).".to_string(),
        },
        t.dim,
    )));
    let area = Rect::new(
        x,
        below,
        size.width.saturating_sub(4),
        size.bottom().saturating_sub(below + 4),
    );
    Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .render(area, buf);
}

fn render_puzzle(
    app: &App,
    d: &DrillState,
    p: &PuzzleState,
    t: &Theme,
    a: &DrillAreas,
    buf: &mut Buffer,
) {
    let game = p.game();
    // Board at the ply under the cursor.
    if let Some(geom) = drill_board_geom(a, p) {
        let ply = p.cursor;
        let pos = game.position_at(ply);
        let last = game.record(ply).mv.and_then(|m| {
            let mover = game.position_at(ply - 1).turn();
            m.from().map(|f| (f, super::play::king_target(&m, mover)))
        });
        let check = if pos.is_check() {
            pos.board().king_of(pos.turn())
        } else {
            None
        };
        BoardView {
            board: pos.board(),
            geom,
            theme: t,
            ascii: app.ascii,
            last_move: last,
            check,
            selected: p.selected,
            targets: &[],
            cursor: None,
        }
        .render(a.board, buf);
    }
    // Header: theme score, puzzle title.
    let (theme_name, score) = match d.session.collection.theme(&p.puzzle.theme) {
        Some(th) => (th.name.clone(), d.score(&th.id)),
        None => (p.puzzle.theme.clone(), Score::default()),
    };
    let stars = if app.ascii { "*" } else { "★" }.repeat(p.puzzle.difficulty as usize);
    Paragraph::new(vec![
        Line::from(Span::styled(
            theme_name,
            Style::new().add_modifier(Modifier::BOLD),
        )),
        Line::from(Span::styled(
            format!(
                "score {}/{} · streak {} (best {}) · solved {}/{}",
                score.correct,
                score.attempts,
                score.streak,
                score.best_streak,
                score.solved,
                score.puzzles
            ),
            t.info,
        )),
        Line::from(vec![
            Span::styled(p.puzzle.title.clone(), t.title),
            Span::raw(format!("  {stars}")),
            Span::styled(
                p.puzzle
                    .source
                    .as_ref()
                    .map(|s| format!("  {s}"))
                    .unwrap_or_default(),
                t.dim,
            ),
        ]),
    ])
    .render(a.header, buf);
    // The question.
    Paragraph::new(Line::from(Span::styled(
        p.prompt.clone(),
        Style::new().add_modifier(Modifier::BOLD),
    )))
    .wrap(Wrap { trim: true })
    .render(a.question, buf);
    // The move list.
    let chosen = (p.widget() == Widget::Plies).then_some(p.chosen.as_slice());
    HistoryView {
        game,
        shown: p.cursor,
        viewing: p.cursor < game.len() || chosen.is_some(),
        highlight: p.highlighted(),
        chosen,
        ascii: app.ascii,
        title: " Moves (↑/↓: view a position) ",
    }
    .render(t, a.history, buf);
    // The answer widget, or the ruling.
    match &p.feedback {
        None => render_answer_widget(app, p, t, a.answer, buf),
        Some((fb, given)) => {
            let (mark, word, style) = match (fb.correct, app.ascii) {
                (true, false) => ("✓", "Right!", t.claimed),
                (true, true) => ("+", "Right!", t.claimed),
                (false, false) => ("✗", "Wrong.", t.error),
                (false, true) => ("x", "Wrong.", t.error),
            };
            let mut lines = vec![Line::from(vec![
                Span::styled(
                    format!(" {mark} {word} "),
                    style.add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!("  You answered: {given}")),
            ])];
            if !fb.correct {
                lines.push(Line::from(format!("The answer: {}", fb.expected)));
            }
            for para in fb.explanation.split('\n') {
                lines.push(Line::from(para.to_string()));
            }
            if !fb.plies_to_highlight.is_empty() {
                let places: Vec<String> = fb
                    .plies_to_highlight
                    .iter()
                    .map(|&q| {
                        // A claim with an intended move names the ply that move makes.
                        if q <= game.len() {
                            crate::drills::types::short_label(game, q)
                        } else {
                            "the intended move".to_string()
                        }
                    })
                    .collect();
                lines.push(Line::from(Span::styled(
                    format!("Marked * in the move list: {}", places.join(", ")),
                    t.info,
                )));
            }
            Paragraph::new(lines)
                .wrap(Wrap { trim: true })
                .render(a.answer, buf);
        }
    }
}

fn render_answer_widget(app: &App, p: &PuzzleState, t: &Theme, area: Rect, buf: &mut Buffer) {
    match p.widget() {
        Widget::Choice => {
            let buttons = drill_option_buttons(p, area, app.ascii);
            let opts = p.options();
            let mut last_y = area.y;
            for (i, (r, (label, _))) in buttons.iter().zip(opts.iter()).enumerate() {
                if r.y >= area.bottom() {
                    break;
                }
                let sel = i == p.option;
                let mark = match (sel, app.ascii) {
                    (false, _) => " ",
                    (true, false) => "▸",
                    (true, true) => ">",
                };
                buf.set_string(r.x, r.y, mark, t.key);
                let style = if sel {
                    t.button.add_modifier(Modifier::UNDERLINED)
                } else {
                    t.button
                };
                buf.set_string(r.x + 1, r.y, button_label(i, label), style);
                last_y = r.y;
            }
            let keys_ = format!(
                "{}/{} and {}; {} to type the answer",
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillPrevOption),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillNextOption),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillType)
            );
            let hint = if opts.len() == 2 {
                format!(
                    "{}/{}, 1/2 or click; {keys_}",
                    keys::key_in(Ctx::DrillAnswer, Cmd::DrillYes),
                    keys::key_in(Ctx::DrillAnswer, Cmd::DrillNo)
                )
            } else {
                format!("a digit or click; {keys_}")
            };
            if last_y + 2 < area.bottom() {
                buf.set_string(area.x, last_y + 2, hint, t.dim);
            }
        }
        Widget::Moves => {
            let given = if p.moves.is_empty() {
                format!(
                    "none yet ({} now answers: no move allows a claim)",
                    keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit)
                )
            } else {
                crate::drills::Answer::Moves(p.moves.clone()).describe(p.game())
            };
            Paragraph::new(vec![
                Line::from(vec![
                    Span::styled("Your moves: ", t.key),
                    Span::raw(given),
                ]),
                Line::from(""),
                Line::from(Span::styled(
                    format!(
                        "{}: type moves (e.g. Nf3 Ng1), or make them on the board; {} removes the last; {} submits the set.",
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillType),
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillRemoveMove),
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit)
                    ),
                    t.dim,
                )),
            ])
            .wrap(Wrap { trim: true })
            .render(area, buf);
        }
        Widget::Plies => {
            let places: Vec<String> = p
                .chosen
                .iter()
                .map(|&q| crate::drills::types::short_label(p.game(), q))
                .collect();
            let n = p.chosen.len();
            let head = format!(
                "Count: {n}  chosen: {}",
                if places.is_empty() {
                    "none yet".to_string()
                } else {
                    places.join(", ")
                }
            );
            Paragraph::new(vec![
                Line::from(Span::styled(head, t.key)),
                Line::from(""),
                Line::from(Span::styled(
                    format!(
                        "{}/{} through the move list, {} (or click) chooses the position after that ply, [ ] marks the chosen; {} submits. Or {} to type the places.",
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillUp),
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillDown),
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillToggle),
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit),
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillType)
                    ),
                    t.dim,
                )),
            ])
            .wrap(Wrap { trim: true })
            .render(area, buf);
        }
    }
}
