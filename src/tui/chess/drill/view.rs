//! Drawing the drill screen (side-effect free) on its [`Layout`]: the theme
//! list with scores, then the puzzle: board, move list, what a player at
//! the board knows, the question and its answer widget, then the ruling.
//! Before the answer nothing is drawn that gives it away: the move list
//! has no repetition marks ([`Marks::Hidden`](crate::tui::widgets::Marks::Hidden)) and the puzzle's title
//! (which often names the answer) waits for the ruling.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget as _, Wrap};
use shakmaty::Position;

use super::layout::{Layout, PuzzleAreas, ThemeAreas};
use super::puzzle::{PuzzleState, Ruling, Widget};
use super::{DrillState, Score, View};
use crate::drills::Pick;
use crate::drills::types::short_label;
use crate::tui::board::BoardView;
use crate::tui::game::drill_score::{score_texts, streak_text};
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::theme::Theme;
use crate::tui::widgets::{HistoryView, clip, position_facts, wrap};
use crate::visible::visible;

impl DrillState {
    /// Draw the drill screen (the trainer draws the message and status rows).
    pub fn render(&self, ascii: bool, t: &Theme, size: Rect, buf: &mut Buffer) {
        match (self.layout(size), &self.view) {
            (Some(Layout::Themes(a)), _) => render_themes(self, ascii, t, &a, buf),
            (Some(Layout::Puzzle(a)), View::Puzzle(p)) => render_puzzle(self, p, ascii, t, &a, buf),
            _ => {}
        }
    }
}

fn render_themes(d: &DrillState, ascii: bool, t: &Theme, a: &ThemeAreas, buf: &mut Buffer) {
    Paragraph::new(Line::from(vec![
        Span::styled(" threefold ", t.title),
        Span::raw("Drills: repetition, claims and endings (FIDE 9.2, 9.3, 9.5, 9.6)"),
    ]))
    .render(a.title, buf);
    buf.set_stringn(
        a.intro.x,
        a.intro.y,
        format!(
            "Pick a theme: {}/{} and {}, or click. Score is correct/attempts.",
            keys::key_in(Ctx::DrillThemes, Cmd::DrillUp),
            keys::key_in(Ctx::DrillThemes, Cmd::DrillDown),
            keys::key_in(Ctx::DrillThemes, Cmd::DrillPick)
        ),
        a.intro.width as usize,
        t.dim,
    );
    // A theme's row: its score, puzzles solved, and how many are due again (never which).
    // The streak is in the description of the highlighted row, so that at 80 columns the
    // longest theme name ("Claiming with the intended move (9.2 a)") is read whole.
    let themes = &d.session.collection.themes;
    let scores: Vec<Score> = std::iter::once(d.total())
        .chain(themes.iter().map(|th| d.score(&th.id)))
        .collect();
    let texts = score_texts(&scores);
    let score_w = texts.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    for (i, r) in a.rows.iter().enumerate() {
        let name_w = (r.width as usize).saturating_sub(3 + score_w).clamp(12, 44);
        let name = if i == 0 {
            "All themes".to_string()
        } else {
            visible(&themes[i - 1].name).into_owned()
        };
        let score = texts.get(i).map_or("", String::as_str);
        let sel = i == d.row;
        let mark = match (sel, ascii) {
            (false, _) => " ",
            (true, false) => "▶",
            (true, true) => ">",
        };
        let name = clip(&name, name_w, ascii);
        let text = format!("{mark} {name:<name_w$} {score}");
        let style = if sel { t.viewing } else { Style::new() };
        buf.set_stringn(r.x, r.y, text, r.width as usize, style);
    }
    let mut lines = Vec::new();
    if d.row > 0 {
        let th = &d.session.collection.themes[d.row - 1];
        lines.push(Line::from(Span::styled(
            visible(&th.name).into_owned(),
            t.title,
        )));
        lines.push(Line::from(visible(&th.description).into_owned()));
        lines.push(Line::from(format!(
            "{} puzzles. {}",
            th.puzzles.len(),
            streak_text(d.score(&th.id))
        )));
    } else {
        lines.push(Line::from(Span::styled("All themes", t.title)));
        lines.push(Line::from(
            "Puzzles from every theme in turn, unsolved ones first.",
        ));
        lines.push(Line::from(streak_text(d.total())));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        match d.session.store() {
            Some(s) => format!("Progress is kept in {}", s.path().display()),
            None => "Progress is not saved (no data directory).".to_string(),
        },
        t.dim,
    )));
    Paragraph::new(lines)
        .wrap(Wrap { trim: true })
        .render(a.about, buf);
}

fn render_puzzle(
    d: &DrillState,
    p: &PuzzleState,
    ascii: bool,
    t: &Theme,
    a: &PuzzleAreas,
    buf: &mut Buffer,
) {
    let game = p.game();
    let theme = d.session.collection.theme(&p.puzzle.theme);
    let theme_name = visible(theme.map_or(&p.puzzle.theme, |th| &th.name)).into_owned();
    // Under "All themes" the puzzle's theme (which rules answers out: "Endings without a
    // claim") is named only with the ruling.
    let answered = p.ruling.is_some();
    let heading = match (&p.pick, answered) {
        (Pick::All, false) => "Drills: all themes".to_string(),
        (Pick::All, true) => format!("Drills: {theme_name}  (all themes)"),
        (Pick::Theme(_), _) => format!("Drills: {theme_name}"),
    };
    Paragraph::new(Line::from(vec![
        Span::styled(" threefold ", t.title),
        Span::raw(heading),
    ]))
    .render(a.title, buf);
    // Board at the ply under the cursor.
    let ply = p.cursor;
    let pos = game.position_at(ply);
    if let Some(geom) = a.geom {
        let last = game.record(ply).mv.and_then(|m| {
            let mover = game.position_at(ply - 1).turn();
            m.from()
                .map(|f| (f, crate::rules::notation::king_target(&m, mover)))
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
            ascii,
            last_move: last,
            check,
            selected: p.selected,
            targets: &[],
            cursor: None,
        }
        .render(a.board, buf);
    }
    // Header: the puzzle (named once answered: titles and sources often name the
    // answer: "Fischer-Petrosian" is a famous claim), the score, and what a player at the
    // board knows. Under "All themes" the score is the total and the puzzle is not numbered
    // within its theme until the ruling: a theme's size or score would name the theme.
    let stars = if ascii { "+" } else { "★" }.repeat(p.puzzle.difficulty as usize);
    let name = match (&p.ruling, &p.pick) {
        (Some(_), _) => visible(&p.puzzle.title).into_owned(),
        (None, Pick::All) => "A puzzle from any theme".to_string(),
        (None, Pick::Theme(_)) => {
            let (k, n) = theme.map_or((1, 1), |th| {
                let k = th.puzzles.iter().position(|q| q.id == p.puzzle.id);
                (k.map_or(1, |k| k + 1), th.puzzles.len())
            });
            format!("Puzzle {k} of {n}")
        }
    };
    // Under "All themes" the streak is the one over all themes, after the answer too.
    let score = match (&p.pick, answered) {
        (Pick::All, false) => d.total(),
        (Pick::All, true) => {
            let all = d.total();
            Score {
                streak: all.streak,
                best_streak: all.best_streak,
                ..d.score(&p.puzzle.theme)
            }
        }
        _ => d.score(&p.puzzle.theme),
    };
    // The name and, once answered, the source as far as they fit, each cut with "…" (the
    // ruling gives both whole); a source with less than a word's room is left out.
    let width = a.header.width as usize;
    let name = clip(
        &name,
        width.saturating_sub(stars.chars().count() + 1),
        ascii,
    );
    let room = width.saturating_sub(name.chars().count() + stars.chars().count() + 3);
    let source = p
        .puzzle
        .source
        .as_ref()
        .filter(|_| answered && room >= 8)
        .map(|s| format!("  {}", clip(&one_line(s), room, ascii)))
        .unwrap_or_default();
    // The score and the facts, each a run of parts kept whole (never "solved 9/6"), a
    // line broken between parts where the width ends.
    let mut lines = vec![Line::from(vec![
        Span::styled(name, t.title),
        Span::raw(format!(" {stars}")),
        Span::styled(source, t.dim),
    ])];
    let score_parts = [
        format!("score {}/{}", score.correct, score.attempts),
        format!("streak {} (best {})", score.streak, score.best_streak),
        format!("solved {}/{}", score.solved, score.puzzles),
    ];
    lines.extend(
        parts_in_lines(&score_parts, width)
            .into_iter()
            .map(|l| Line::from(Span::styled(l, t.dim))),
    );
    lines.extend(
        wrap(&facts(p, pos, d.marks()).join(" · "), width.max(1))
            .into_iter()
            .map(|l| Line::from(Span::styled(l, t.info))),
    );
    Paragraph::new(lines).render(a.header, buf);
    // The move list.
    let ctx = d.ctx();
    let title = format!(
        " Moves ({}/{} view · {} FEN) ",
        keys::key_in(ctx, Cmd::DrillUp),
        keys::key_in(ctx, Cmd::DrillDown),
        keys::key_in(ctx, Cmd::Fen)
    );
    let chosen = (p.widget() == Widget::Plies).then_some(p.chosen.as_slice());
    HistoryView {
        game,
        shown: p.cursor,
        viewing: p.cursor < game.len() || chosen.is_some(),
        highlight: p.highlighted(),
        chosen,
        marks: d.marks(),
        ascii,
        title: &title,
    }
    .render(t, a.history, buf);
    match &p.ruling {
        None => {
            Paragraph::new(Line::from(Span::styled(
                p.puzzle.prompt(),
                Style::new().add_modifier(Modifier::BOLD),
            )))
            .wrap(Wrap { trim: true })
            .render(a.question, buf);
            render_answer_widget(p, ascii, t, a, buf);
        }
        Some(r) => render_ruling(p, r, ascii, t, a.ruling, buf),
    }
}

/// What a player at the board knows of the position shown, in parts: whose move and its
/// number and, before the answer, the last capture or pawn move (from which the player
/// counts toward fifty moves, as at the board; [`crate::drills::shown::last_reset`]) in
/// place of the count.
fn facts(p: &PuzzleState, pos: &shakmaty::Chess, marks: crate::tui::widgets::Marks) -> Vec<String> {
    let mut parts: Vec<String> = position_facts(pos, marks)
        .split(" · ")
        .map(str::to_string)
        .collect();
    if !p.answered() {
        parts.push(crate::drills::shown::last_reset(p.game(), p.cursor));
    }
    parts
}

/// Parts joined by " · " into lines of at most `width` columns, a line broken only between
/// parts (a part wider than a line is wrapped on its own).
pub(super) fn parts_in_lines(parts: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for part in parts {
        let joined = cur.chars().count() + 3 + part.chars().count();
        if !cur.is_empty() && joined <= width {
            cur.push_str(" · ");
            cur.push_str(part);
            continue;
        }
        if !cur.is_empty() {
            lines.push(std::mem::take(&mut cur));
        }
        let mut rows = wrap(part, width.max(1));
        cur = rows.pop().unwrap_or_default();
        lines.extend(rows);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// How a line of the ruling is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tone {
    Right,
    Wrong,
    Plain,
    Marked,
}

/// Split a paragraph into sentences, one per line ("80.Rf1" and "4...Ng8"
/// have no space after their dots, so they stay whole).
pub(super) fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        cur.push(c);
        if matches!(c, '.' | '?' | '!') && chars.peek() == Some(&' ') {
            let mut ahead = chars.clone();
            ahead.next();
            if ahead.next().is_some_and(|n| n.is_uppercase()) {
                out.push(std::mem::take(&mut cur).trim().to_string());
            }
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Text from a puzzle file on one line (its line breaks and runs of spaces as one space).
fn one_line(text: &str) -> String {
    visible(&text.split_whitespace().collect::<Vec<_>>().join(" ")).into_owned()
}

/// The ruling as short lines, wrapped to `width`: right or wrong with the
/// puzzle's name, the answer given (and the right one), the explanation a
/// sentence a line, and the plies marked in the move list.
pub(super) fn ruling_lines(
    p: &PuzzleState,
    r: &Ruling,
    ascii: bool,
    width: usize,
) -> Vec<(Tone, String)> {
    let game = p.game();
    let fb = &r.feedback;
    let (mark, word, tone) = match (fb.correct, ascii) {
        (true, false) => ("✓", "Right!", Tone::Right),
        (true, true) => ("+", "Right!", Tone::Right),
        (false, false) => ("✗", "Wrong.", Tone::Wrong),
        (false, true) => ("x", "Wrong.", Tone::Wrong),
    };
    let mut paras = vec![
        (tone, format!("{mark} {word}  {}", visible(&p.puzzle.title))),
        (
            Tone::Plain,
            format!("You answered: {}", r.given.describe(game)),
        ),
    ];
    if !fb.correct {
        paras.push((Tone::Plain, format!("The answer: {}", fb.expected)));
    }
    for para in fb.explanation.split('\n') {
        paras.push((Tone::Plain, String::new()));
        paras.extend(
            sentences(&visible(para))
                .into_iter()
                .map(|s| (Tone::Plain, s)),
        );
    }
    // Only what the move list can mark: the ply an intended move would make is not in it.
    let places: Vec<String> = fb
        .plies_to_highlight
        .iter()
        .filter(|&&q| q <= game.len())
        .map(|&q| short_label(game, q))
        .collect();
    if !places.is_empty() {
        paras.push((Tone::Plain, String::new()));
        paras.push((
            Tone::Marked,
            format!("Marked * in the move list: {}", places.join(", ")),
        ));
    }
    if let Some(source) = &p.puzzle.source {
        paras.push((Tone::Plain, String::new()));
        paras.push((Tone::Plain, format!("Source: {}", one_line(source))));
    }
    let mut lines: Vec<(Tone, String)> = Vec::new();
    for (tone, text) in paras {
        // One blank line between paragraphs, none doubled.
        if text.is_empty() {
            if lines.last().is_some_and(|l| !l.1.is_empty()) {
                lines.push((tone, text));
            }
            continue;
        }
        lines.extend(wrap(&text, width).into_iter().map(|l| (tone, l)));
    }
    lines
}

/// The ruling's rows, and how many are shown at once (the last row of a
/// ruling that does not fit says how to see more).
pub(super) fn ruling_page(p: &PuzzleState, r: &Ruling, ascii: bool, area: Rect) -> (usize, usize) {
    let n = ruling_lines(p, r, ascii, area.width as usize).len();
    let h = area.height as usize;
    (n, if n > h { h.saturating_sub(1).max(1) } else { h })
}

fn render_ruling(
    p: &PuzzleState,
    r: &Ruling,
    ascii: bool,
    t: &Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let lines = ruling_lines(p, r, ascii, area.width as usize);
    let (n, page) = ruling_page(p, r, ascii, area);
    let scroll = r.scroll.min(n.saturating_sub(page));
    for (i, (tone, text)) in lines.iter().skip(scroll).take(page).enumerate() {
        let style = match tone {
            Tone::Right => t.claimed,
            Tone::Wrong => t.error.add_modifier(Modifier::BOLD),
            Tone::Plain => Style::new(),
            Tone::Marked => t.info,
        };
        buf.set_stringn(area.x, area.y + i as u16, text, area.width as usize, style);
    }
    if n > page {
        let more = format!(
            "── {}/{}: lines {}–{} of {n} ──",
            keys::key_in(Ctx::DrillFeedback, Cmd::PageDown),
            keys::key_in(Ctx::DrillFeedback, Cmd::PageUp),
            scroll + 1,
            scroll + page
        );
        buf.set_stringn(
            area.x,
            area.y + page as u16,
            more,
            area.width as usize,
            t.dim,
        );
    }
}

fn render_answer_widget(
    p: &PuzzleState,
    ascii: bool,
    t: &Theme,
    a: &PuzzleAreas,
    buf: &mut Buffer,
) {
    let area = a.answer;
    match p.widget() {
        Widget::Choice => {
            let opts = p.options();
            let labels: Vec<&str> = opts.iter().map(|(l, _)| *l).collect();
            crate::tui::widgets::draw_buttons(&labels, &a.buttons, p.option, ascii, t, buf);
            let last_y = a.buttons.last().map_or(area.y, |r| r.y);
            let type_key = keys::key_in(Ctx::DrillAnswer, Cmd::DrillType);
            let choose = if opts.len() == 2 {
                format!(
                    "{}/{}, 1/2 or click",
                    keys::key_in(Ctx::DrillAnswer, Cmd::DrillYes),
                    keys::key_in(Ctx::DrillAnswer, Cmd::DrillNo)
                )
            } else {
                "a digit or click".to_string()
            };
            let full = format!(
                "{choose}; {}/{} and {}; {type_key} to type the answer",
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillPrevOption),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillNextOption),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit),
            );
            let y = last_y + 2;
            if y < area.bottom() {
                // Whole or short, never cut: the short one where the rows left hold less.
                let rows = usize::from(area.bottom() - y);
                let hint = if wrap(&full, usize::from(area.width)).len() <= rows {
                    full
                } else {
                    format!("{choose}; {type_key} to type")
                };
                Paragraph::new(Line::from(Span::styled(hint, t.dim)))
                    .wrap(Wrap { trim: true })
                    .render(Rect::new(area.x, y, area.width, area.bottom() - y), buf);
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
            let head = Line::from(vec![Span::styled("Your moves: ", t.key), Span::raw(given)]);
            let hint = format!(
                "{}: type moves (e.g. Nf3 Ng1), or make them on the board; {} removes the last; {} submits the set.",
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillType),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillRemoveMove),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit)
            );
            head_and_hint(head, hint, t, area, buf);
        }
        Widget::Plies => {
            let places: Vec<String> = p.chosen.iter().map(|&q| short_label(p.game(), q)).collect();
            let n = p.chosen.len();
            let head = format!(
                "Count: {n}  chosen: {}",
                if places.is_empty() {
                    "none yet".to_string()
                } else {
                    places.join(", ")
                }
            );
            let hint = format!(
                "{}/{} through the move list, {} (or click) chooses the position after that ply, [ ] marks the chosen; {} submits. Or {} to type the places.",
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillUp),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillDown),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillToggle),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillType)
            );
            head_and_hint(Line::from(Span::styled(head, t.key)), hint, t, area, buf);
        }
    }
}

/// An answer widget's text: what is given so far, then how to give more.
fn head_and_hint(head: Line, hint: String, t: &Theme, area: Rect, buf: &mut Buffer) {
    Paragraph::new(vec![head, Line::from(Span::styled(hint, t.dim))])
        .wrap(Wrap { trim: true })
        .render(area, buf);
}
