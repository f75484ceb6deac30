//! Side-effect-free rendering: `render(&App, &mut Frame)`. Layout is a pure
//! function of the terminal size, so mouse hit-testing uses the same rects.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use shakmaty::{Color, Position};

use crate::rules::claim;

use super::app::{App, Screen};
use super::board::BoardView;
use super::engines::EnginesPanel;
use super::keys;
use super::theme::Theme;
use crate::rules::color_name;

pub use super::overlay::popup;
pub use super::widgets::{
    Areas, HistoryView, MIN_H, MIN_W, Marks, board_geom, clip, fit_places, history_cells_in,
    layout, position_facts, spark_line,
};

/// Where each ply's cell is in the history panel (after scrolling).
pub fn history_cells(app: &App, area: Rect) -> Vec<(Rect, usize)> {
    history_cells_in(&app.play.game, app.shown_ply(), area)
}

/// Draw the whole screen.
pub fn render(app: &App, f: &mut Frame) {
    let size = f.area();
    let theme = Theme::from_env();
    render_with(app, &theme, size, f.buffer_mut());
}

/// Draw into a buffer with an explicit theme (tests use this too).
pub fn render_with(app: &App, theme: &Theme, size: Rect, buf: &mut Buffer) {
    let Some(areas) = layout(size) else {
        let text = vec![
            Line::from("threefold"),
            Line::from(format!("enlarge to {MIN_W}×{MIN_H}")),
            Line::from(format!("(now {}×{})", size.width, size.height)),
            Line::from(format!("{} quits", keys::key_for(keys::Cmd::Quit))),
        ];
        Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true })
            .render(size, buf);
        return;
    };
    match (app.screen, &app.drills) {
        (Screen::Play, _) => render_play(app, theme, &areas, buf),
        (Screen::Euwe, _) => {
            app.euwe
                .render(app.ascii, app.engines_panel_shown(), theme, size, buf)
        }
        (Screen::Drills, Some(d)) => d.render(app.ascii, theme, size, buf),
        (Screen::Drills, None) => {}
        (Screen::Review, _) => app.review.render(app.ascii, theme, size, buf),
    }
    render_status(app, theme, &areas, buf);
    if let Some(o) = &app.overlay {
        super::overlay::render(app, o, theme, size, buf);
    }
}

fn render_play(app: &App, t: &Theme, a: &Areas, buf: &mut Buffer) {
    let game = &app.play.game;
    // Title or game-over banner.
    let title = match game.termination() {
        Some(term) => {
            let banner = format!(
                " GAME OVER  {}  {} ",
                term.ending.result(),
                term.ending.kind
            );
            let key = keys::key_for(keys::Cmd::Review);
            // The review hint as long as the row allows.
            let room = (a.title.width as usize).saturating_sub(banner.chars().count());
            let hint = [
                format!("  {key} review the game"),
                format!("  {key} review"),
            ]
            .into_iter()
            .find(|h| h.chars().count() <= room)
            .unwrap_or_default();
            Line::from(vec![
                Span::styled(banner, t.banner),
                Span::styled(hint, t.key),
            ])
        }
        None if app.play.loaded.is_some()
            && app.play.players == super::play::Players::TwoHumans =>
        {
            let l = app.play.loaded.as_ref().expect("checked");
            Line::from(vec![
                Span::styled(" threefold ", t.title),
                Span::raw(format!(
                    " {} – {}  {}",
                    l.player(Color::White),
                    l.player(Color::Black),
                    if l.holds(game) {
                        &l.result
                    } else {
                        "(played on)"
                    }
                )),
                Span::styled(
                    format!(
                        "   {} game {}",
                        l.path.file_name().unwrap_or_default().to_string_lossy(),
                        l.index
                    ),
                    t.dim,
                ),
            ])
        }
        None => play_title(app, t, a.title.width as usize),
    };
    Paragraph::new(title).render(a.title, buf);

    // Board.
    let ply = app.shown_ply();
    if let Some(geom) = board_geom(a, app.play.flipped) {
        let targets = app.targets();
        BoardView {
            selected: if app.play.view.is_none() {
                app.play.selected
            } else {
                None
            },
            targets: &targets,
            cursor: Some(app.play.cursor),
            ..BoardView::at_ply(game, ply, geom, t, app.ascii)
        }
        .render(a.board, buf);
    }

    render_players(app, t, a.players, buf);
    render_engine(app, t, a.engine, buf);
    render_claim_button(app, t, a.claim, buf);
    let (history, engines) = history_and_engines(app, a);
    render_history(app, t, history, buf);
    if let Some(area) = engines {
        let (game, shown) = (&app.play.game, app.shown_ply());
        EnginesPanel {
            game,
            ply: shown,
            ascii: app.ascii,
        }
        .render(t, area, buf);
        super::engines::mark_history(game, shown, history, t, app.ascii, buf);
    } else {
        render_same(app, t, a.same, buf);
        render_spark(app, t, a.spark, buf);
    }
}

/// The game screen's move list, and the panel "How engines see it" when it is
/// on: in place of the occurrence panel, taking what it needs from the move
/// list, which keeps at least 2 rows of moves. The panel's title row covers
/// the move list's bottom border.
pub fn history_and_engines(app: &App, a: &Areas) -> (Rect, Option<Rect>) {
    if !app.engines_panel_shown() {
        return (a.history, None);
    }
    let h = a.history;
    let rows = a.spark.bottom().saturating_sub(h.y);
    let panel = EnginesPanel {
        game: &app.play.game,
        ply: app.shown_ply(),
        ascii: app.ascii,
    };
    let panel_h = panel.height(h.width).min(rows.saturating_sub(3));
    let history = Rect::new(h.x, h.y, h.width, rows + 1 - panel_h);
    (
        history,
        Some(Rect::new(h.x, history.bottom() - 1, h.width, panel_h)),
    )
}

fn fmt_clock(d: std::time::Duration) -> String {
    let s = d.as_secs();
    if s < 20 {
        format!("{}:{:02}.{}", s / 60, s % 60, d.subsec_millis() / 100)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

fn render_players(app: &App, t: &Theme, area: Rect, buf: &mut Buffer) {
    let game = &app.play.game;
    let now = std::time::Instant::now();
    // The ply viewed: its side to move, move number, fifty-move count and repetitions.
    let ply = app.shown_ply();
    let pos = game.position_at(ply);
    let turn = pos.turn();
    let names = app
        .play
        .loaded
        .as_ref()
        .filter(|_| app.play.players == super::play::Players::TwoHumans);
    let mut lines = Vec::new();
    for c in [Color::White, Color::Black] {
        let who = if let Some(l) = names {
            let room =
                (area.width as usize).saturating_sub(if app.play.clock.is_some() { 17 } else { 9 });
            clip(&l.player(c), room, app.ascii)
        } else if app.play.players.is_human(c) {
            "You".to_string()
        } else {
            format!("Engine L{}", app.play.level)
        };
        let mark = if turn == c && (app.play.view.is_some() || !game.is_over()) {
            "▶ "
        } else {
            "  "
        };
        let mark = if app.ascii && mark != "  " {
            "> "
        } else {
            mark
        };
        let mut spans = vec![
            Span::raw(mark),
            Span::styled(
                format!("{:<6}", color_name(c)),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!("{who:<12}")),
        ];
        if let Some(left) = app.play.clock_shown(c, now) {
            let style = if left.as_secs() < 20 {
                t.error
            } else {
                Style::new()
            };
            spans.push(Span::styled(format!(" {:>7}", fmt_clock(left)), style));
        }
        lines.push(Line::from(spans));
    }
    let status = if let Some(term) = game.termination().filter(|_| app.play.view.is_none()) {
        Line::from(Span::styled(
            format!("Result {}", term.ending.result()),
            t.banner,
        ))
    } else if app.play.claim_pending.is_some() {
        Line::from(Span::styled(
            if app.play.clock.is_some() {
                "Clocks stopped: make your intended move"
            } else {
                "Claiming: make your intended move"
            },
            t.button,
        ))
    } else {
        let mut s = position_facts(pos, app.marks());
        let b = app.marks().badge(game.occurrences(ply), app.ascii);
        if !b.is_empty() {
            s.push_str(&format!(" · {b}"));
        }
        Line::from(Span::styled(s, t.dim))
    };
    lines.push(status);
    Paragraph::new(lines).render(area, buf);
}

/// The game screen's title: the trainer's name, the players, then the settings in order
/// of use (level, clocks, contempt, hash) as many as fit in `width`; the subtitle
/// "repetition trainer" goes first when room is short.
fn play_title(app: &App, t: &Theme, width: usize) -> Line<'static> {
    let p = &app.play;
    let clocks = p.clock.as_ref().map_or_else(
        || super::play::clock_label(0, 0),
        |c| super::play::clock_label(c.base.as_secs(), c.inc.as_secs()),
    );
    let settings = [
        format!("engine L{}", p.level),
        format!("clocks {clocks}"),
        format!("contempt {}", p.contempt),
        format!("hash {} MiB", p.hash_mb),
    ];
    let blind = p.marks == Marks::Hidden;
    let name = if blind {
        " threefold blind"
    } else {
        " threefold"
    };
    let players = format!("   {}", p.players.describe());
    let used = |sub: &str| name.chars().count() + sub.chars().count() + players.chars().count();
    // The settings that fit after `sub`, as one string.
    let fitting = |sub: &str| {
        let mut rest = String::new();
        for (i, part) in settings.iter().enumerate() {
            let piece = if i == 0 {
                format!("   {part}")
            } else {
                format!(" · {part}")
            };
            if used(sub) + rest.chars().count() + piece.chars().count() > width {
                break;
            }
            rest.push_str(&piece);
        }
        rest
    };
    // The subtitle goes when it would keep a setting out.
    let (with, without) = (fitting(" repetition trainer"), fitting(""));
    let (subtitle, rest) = if with.len() >= without.len() {
        (" repetition trainer", with)
    } else {
        ("", without)
    };
    let mut spans = vec![Span::styled(" threefold", t.title)];
    if blind {
        spans.push(Span::raw(" "));
        spans.push(Span::styled("blind", t.button));
    }
    spans.push(Span::styled(subtitle, t.dim));
    spans.push(Span::raw(players));
    spans.push(Span::styled(rest, t.dim));
    Line::from(spans)
}

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_ASCII: [&str; 4] = ["|", "/", "-", "\\"];

/// The engine's line: while it thinks, the depth, its score and speed, and its principal
/// variation. Blind mode keeps the score and the line back until the game ends: a 0.00 in a
/// shuffle, or a line that repeats, tells of a repetition.
fn render_engine(app: &App, t: &Theme, area: Rect, buf: &mut Buffer) {
    let blind = app.marks() == Marks::Hidden;
    let pv = match &app.play.thinking {
        Some(_) if blind => String::new(),
        Some(th) => th.pv.clone(),
        None if blind => String::new(),
        None => app.play.last_pv.clone(),
    };
    // Short enough for the side panel at 80 columns: the spinner says it is thinking.
    let (state, short, info, side) = match &app.play.thinking {
        Some(th) => {
            let s = if app.ascii {
                SPINNER_ASCII[(app.frame as usize) % 4]
            } else {
                SPINNER[(app.frame as usize) % 10]
            };
            (format!("{s} thinking"), s, th.info.as_ref(), th.side)
        }
        None => (
            "engine idle".to_string(),
            "idle",
            app.play.last_info.as_ref(),
            app.play.last_side,
        ),
    };
    let line1 = match info {
        Some(i) if blind => format!("{short}  depth {}  {} knps", i.depth, i.nps / 1000),
        Some(i) => format!(
            "{short}  depth {}  {}  {} knps",
            i.depth,
            score_label(i.score, side),
            i.nps / 1000
        ),
        None => format!(
            "{state}  L{}  contempt {}  {} MiB",
            app.play.level, app.play.contempt, app.play.hash_mb
        ),
    };
    let pv = if pv.is_empty() {
        pv
    } else {
        format!("pv {pv}")
    };
    Paragraph::new(vec![
        Line::from(Span::styled(line1, t.info)),
        Line::from(Span::styled(pv, t.dim)),
    ])
    .render(area, buf);
}

/// An engine score as the trainer shows it everywhere: from White's side,
/// labelled, as lichess does ("+0.80 (White)", "#-2 (White)": White is
/// mated in 2). A score whose side is unknown says so ("(side to move)").
pub fn score_label(score: crate::engine::Score, side_to_move: Option<Color>) -> String {
    match side_to_move {
        Some(side) => format!("{} (White)", score.for_white(side)),
        None => format!("{score} (side to move)"),
    }
}

/// The Claim draw button, while the game goes on: after its end there is nothing to claim,
/// and the game-over banner and hint line say what can be done.
fn render_claim_button(app: &App, t: &Theme, area: Rect, buf: &mut Buffer) {
    if app.play.game.is_over() {
        return;
    }
    let key = keys::key_for(keys::Cmd::Claim);
    let possible = app.marks() == Marks::Shown && claim::claim_possible(&app.play.game);
    let label = format!("[ {key} Claim draw ]");
    let mut spans = vec![Span::styled(label, t.button)];
    if possible {
        spans.push(Span::styled(" claim possible", t.rep3));
    }
    Paragraph::new(Line::from(spans)).render(area, buf);
}

fn render_history(app: &App, t: &Theme, area: Rect, buf: &mut Buffer) {
    HistoryView {
        game: &app.play.game,
        shown: app.shown_ply(),
        viewing: app.play.view.is_some(),
        highlight: &app.play.highlight,
        chosen: None,
        marks: app.marks(),
        ascii: app.ascii,
        title: match app.marks() {
            Marks::Shown => " Moves (repeated positions marked) ",
            Marks::Hidden => " Moves ",
        },
    }
    .render(t, area, buf);
}

fn render_same(app: &App, t: &Theme, area: Rect, buf: &mut Buffer) {
    if app.marks() == Marks::Hidden {
        let text = format!(
            "Blind mode: count the repetitions yourself ({} claims, {} shows the marks).",
            keys::key_for(keys::Cmd::Claim),
            keys::key_for(keys::Cmd::Blind)
        );
        Paragraph::new(Line::from(Span::styled(text, t.dim)))
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    }
    let game = &app.play.game;
    let ply = app.shown_ply();
    let occ = game.occurrences(ply);
    let earlier = game.earlier(ply);
    let head = if app.play.view.is_some() {
        format!("Viewing {} ", game.place_label(ply))
    } else {
        "Now ".to_string()
    };
    let lines = if earlier.is_empty() {
        fit_places(
            game,
            &format!("{head}— first occurrence of this position"),
            &[],
            "",
            area.width as usize,
            area.height as usize,
        )
    } else {
        let lead = format!(
            "{head}— {} occurrence; earlier: ",
            crate::rules::claim::ordinal(occ)
        );
        let tail = format!(
            "  ({}/{} jump)",
            keys::key_for(keys::Cmd::PrevOccurrence),
            keys::key_for(keys::Cmd::NextOccurrence)
        );
        fit_places(
            game,
            &lead,
            &earlier,
            &tail,
            area.width as usize,
            area.height as usize,
        )
    };
    let style = if occ >= 2 { t.repetition(occ) } else { t.dim };
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| Line::from(Span::styled(l, style)))
        .collect();
    Paragraph::new(lines).render(area, buf);
}

/// The ply under a click on the occurrence sparkline, if any.
pub fn spark_ply(app: &App, area: Rect, x: u16, y: u16) -> Option<usize> {
    if app.marks() == Marks::Hidden || y != area.y + 1 || x < area.x || x >= area.right() {
        return None;
    }
    let upto = app.play.game.len();
    let first = (upto + 1).saturating_sub(area.width as usize);
    let ply = first + (x - area.x) as usize;
    (ply <= upto).then_some(ply)
}

fn render_spark(app: &App, t: &Theme, area: Rect, buf: &mut Buffer) {
    if area.height < 3 || app.marks() == Marks::Hidden {
        return;
    }
    buf.set_string(area.x, area.y, "Occurrences per ply", t.dim);
    let (bars, marks) = spark_line(
        &app.play.game,
        app.play.game.len(),
        app.shown_ply(),
        area.width as usize,
        t,
        app.ascii,
    );
    Paragraph::new(vec![bars, marks]).render(Rect::new(area.x, area.y + 1, area.width, 2), buf);
}

/// The rows of a message `width` columns wide: wrapped at spaces, a word
/// longer than a row cut into pieces, so that every character is shown.
pub fn message_rows(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    let mut row_len = 0;
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        if row_len > 0 && row_len + 1 + word.len() <= width {
            row.push(' ');
            row.extend(&word);
            row_len += 1 + word.len();
            continue;
        }
        if row_len > 0 {
            rows.push(std::mem::take(&mut row));
        }
        while word.len() > width {
            rows.push(word.drain(..width).collect());
        }
        row = word.iter().collect();
        row_len = word.len();
    }
    if row_len > 0 {
        rows.push(row);
    }
    rows
}

/// The message's area: its own two rows above the input line, grown upwards
/// over the panels when the message needs more (at most up to the title),
/// so a long message (several config problems, a long path) is read whole.
pub fn message_area(a: &Areas, rows: usize) -> Rect {
    let bottom = a.message.bottom();
    let most = bottom - a.title.bottom();
    let h = (rows.min(most as usize) as u16).max(a.message.height);
    Rect::new(a.message.x, bottom - h, a.message.width, h)
}

fn render_status(app: &App, t: &Theme, a: &Areas, buf: &mut Buffer) {
    if let Some(msg) = &app.message {
        let rows = message_rows(&msg.text, a.message.width as usize);
        let area = message_area(a, rows.len());
        let style = if msg.is_error() { t.error } else { t.info };
        ratatui::widgets::Clear.render(area, buf);
        Paragraph::new(
            rows.into_iter()
                .map(|r| Line::from(Span::styled(r, style)))
                .collect::<Vec<_>>(),
        )
        .render(area, buf);
    }
    if let Some(input) = &app.input {
        let prompt = format!("{}: ", input.kind.prompt());
        let room = (a.input.width as usize).saturating_sub(prompt.chars().count());
        let (before, at, after) = input.line.window(room);
        // The cursor: the character under it reversed, or a block at the end.
        let cursor = match at {
            Some(c) => Span::styled(c.to_string(), Style::new().add_modifier(Modifier::REVERSED)),
            None => Span::styled(if app.ascii { "_" } else { "█" }, t.dim),
        };
        let line = Line::from(vec![
            Span::styled(prompt, t.key),
            Span::raw(before),
            cursor,
            Span::raw(after),
        ]);
        Paragraph::new(line).render(a.input, buf);
    } else if app.screen == Screen::Play {
        use keys::{Cmd, key_for};
        let hint = if app.play.game.is_over() {
            format!(
                "{} new game · {} take back · {} review the game · {} drills",
                key_for(Cmd::NewGame),
                key_for(Cmd::Takeback),
                key_for(Cmd::Review),
                key_for(Cmd::Drills)
            )
        } else {
            format!(
                "{} type a move · {} claim · click a piece, then its target · {} drills",
                key_for(Cmd::TypeMove),
                key_for(Cmd::Claim),
                key_for(Cmd::Drills)
            )
        };
        Paragraph::new(Line::from(Span::styled(hint, t.dim))).render(a.input, buf);
    }
    let mut spans = Vec::new();
    // Only what works now: claims while the game goes on, scrolling a ruling that scrolls.
    let enabled = |cmd| match (cmd, &app.overlay) {
        (keys::Cmd::Claim, None) => !app.play.game.is_over(),
        (
            keys::Cmd::ScrollDown | keys::Cmd::PageDown,
            Some(super::overlay::Overlay::Verdict { text, .. }),
        ) => super::overlay::verdict_layout(text, app.size).max_scroll() > 0,
        (
            keys::Cmd::ScrollDown | keys::Cmd::PageDown | keys::Cmd::ScrollUp | keys::Cmd::PageUp,
            None,
        ) if app.screen == Screen::Drills => app
            .drills
            .as_ref()
            .is_none_or(|d| d.can_page(cmd, app.size, app.ascii)),
        _ => true,
    };
    for (k, h) in keys::key_bar(app.ctx(), a.status.width as usize, enabled) {
        spans.push(Span::styled(format!(" {k}"), t.key));
        spans.push(Span::raw(format!(" {h} ")));
    }
    Paragraph::new(Line::from(spans)).render(a.status, buf);
}
