//! The game screen's drawing and mouse hit-testing, on one layout
//! ([`layout`], a pure function of the terminal size): the title or the
//! game-over banner, the board, the players and clocks, the engine's line,
//! the claim button, the move list, the occurrence panel and sparkline (or
//! "How engines see it").

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use shakmaty::{Color, Position};

use crate::rules::{claim, color_name};

use super::{Env, Play, Players, Requests, clock_label, level_tag, overlay};
use crate::tui::board::BoardView;
use crate::tui::engines::EnginesPanel;
use crate::tui::keys::{self, Cmd};
use crate::tui::theme::Theme;
use crate::tui::widgets::{
    Areas, HistoryView, Marks, board_geom, clip, fit_places, history_cells_in, layout,
    position_facts, score_label, spark_line,
};

impl Play {
    /// Draw the game screen (its regions from [`layout`]).
    pub fn render(&self, env: &Env, t: &Theme, a: &Areas, buf: &mut Buffer) {
        render_play(self, env, t, a, buf);
    }

    /// Draw the game screen's overlay, if one is up.
    pub fn render_overlay(&self, t: &Theme, size: Rect, buf: &mut Buffer) {
        if let Some(o) = &self.overlay {
            overlay::render(self, o, t, size, buf);
        }
    }

    /// The hint on the input line's row while no line is typed: what to do next.
    pub fn hint(&self) -> String {
        if self.game.is_over() {
            format!(
                "{} new game · {} take back · {} review the game · {} drills · {} xiangqi",
                keys::key_for(Cmd::NewGame),
                keys::key_for(Cmd::Takeback),
                keys::key_for(Cmd::Review),
                keys::key_for(Cmd::Drills),
                keys::key_for(Cmd::Xiangqi)
            )
        } else {
            format!(
                "{} type a move · {} claim · click a piece, then its target · {} drills · {} xiangqi",
                keys::key_for(Cmd::TypeMove),
                keys::key_for(Cmd::Claim),
                keys::key_for(Cmd::Drills),
                keys::key_for(Cmd::Xiangqi)
            )
        }
    }

    /// A click on the game screen, hit-tested on the layout it is drawn with.
    pub fn click(&mut self, x: u16, y: u16, env: &Env, out: &mut Requests) {
        let Some(areas) = layout(env.size) else {
            return;
        };
        // After the game's end the button is gone (nothing to claim): its place does nothing.
        if areas.claim.contains((x, y).into()) && !self.game.is_over() {
            self.command(Cmd::Claim, out);
            return;
        }
        if let Some(g) = board_geom(&areas, self.flipped)
            && let Some(sq) = g.square_at(x, y)
        {
            self.select(sq, out);
            return;
        }
        let (history, engines) = history_and_engines(self, env, &areas);
        if engines.is_none()
            && let Some(ply) = spark_ply(self, areas.spark, x, y)
        {
            self.view = (ply < self.game.len()).then_some(ply);
            self.selected = None;
            return;
        }
        for (r, ply) in history_cells(self, history) {
            if r.contains((x, y).into()) {
                self.view = (ply < self.game.len()).then_some(ply);
                self.selected = None;
                return;
            }
        }
    }
}

/// Where each ply's cell is in the history panel (after scrolling).
pub fn history_cells(p: &Play, area: Rect) -> Vec<(Rect, usize)> {
    history_cells_in(&p.game, p.shown_ply(), area)
}

/// Draw the game screen in its regions.
pub(super) fn render_play(p: &Play, env: &Env, t: &Theme, a: &Areas, buf: &mut Buffer) {
    let game = &p.game;
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
        None if p.loaded.is_some() && p.config.human == Players::TwoHumans => {
            let l = p.loaded.as_ref().expect("checked");
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
        None => play_title(p, t, a.title.width as usize),
    };
    Paragraph::new(title).render(a.title, buf);

    // Board.
    let ply = p.shown_ply();
    if let Some(geom) = board_geom(a, p.flipped) {
        let targets = p.targets();
        BoardView {
            selected: if p.view.is_none() { p.selected } else { None },
            targets: &targets,
            cursor: Some(p.cursor),
            ..BoardView::at_ply(game, ply, geom, t, env.ascii)
        }
        .render(a.board, buf);
    }

    render_players(p, env, t, a.players, buf);
    render_engine(p, env, t, a.engine, buf);
    render_claim_button(p, t, a.claim, buf);
    let (history, engines) = history_and_engines(p, env, a);
    render_history(p, env, t, history, buf);
    if let Some(area) = engines {
        let (game, shown) = (&p.game, p.shown_ply());
        EnginesPanel {
            game,
            ply: shown,
            ascii: env.ascii,
        }
        .render(t, area, buf);
        crate::tui::engines::mark_history(game, shown, history, t, env.ascii, buf);
    } else {
        render_same(p, t, a.same, buf);
        render_spark(p, env, t, a.spark, buf);
    }
}

/// The game screen's move list, and the panel "How engines see it" when it is
/// on: in place of the occurrence panel, taking what it needs from the move
/// list, which keeps at least 2 rows of moves. The panel's title row covers
/// the move list's bottom border.
fn history_and_engines(p: &Play, env: &Env, a: &Areas) -> (Rect, Option<Rect>) {
    if !p.engines_panel_shown(env) {
        return (a.history, None);
    }
    let h = a.history;
    let rows = a.spark.bottom().saturating_sub(h.y);
    let panel = EnginesPanel {
        game: &p.game,
        ply: p.shown_ply(),
        ascii: env.ascii,
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

fn render_players(p: &Play, env: &Env, t: &Theme, area: Rect, buf: &mut Buffer) {
    let game = &p.game;
    let now = std::time::Instant::now();
    // The ply viewed: its side to move, move number, fifty-move count and repetitions.
    let ply = p.shown_ply();
    let pos = game.position_at(ply);
    let turn = pos.turn();
    let names = p
        .loaded
        .as_ref()
        .filter(|_| p.config.human == Players::TwoHumans);
    let mut lines = Vec::new();
    for c in [Color::White, Color::Black] {
        let who = if let Some(l) = names {
            let room = (area.width as usize).saturating_sub(if p.clock.is_some() { 17 } else { 9 });
            clip(&l.player(c), room, env.ascii)
        } else if p.config.human.is_human(c) {
            "You".to_string()
        } else {
            format!("Engine {}", level_tag(p.config.level))
        };
        let mark = if turn == c && (p.view.is_some() || !game.is_over()) {
            "▶ "
        } else {
            "  "
        };
        let mark = if env.ascii && mark != "  " {
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
        if let Some(left) = p.clock_shown(c, now) {
            let style = if left.as_secs() < 20 {
                t.error
            } else {
                Style::new()
            };
            spans.push(Span::styled(format!(" {:>7}", fmt_clock(left)), style));
        }
        lines.push(Line::from(spans));
    }
    let status = if let Some(term) = game.termination().filter(|_| p.view.is_none()) {
        Line::from(Span::styled(
            format!("Result {}", term.ending.result()),
            t.banner,
        ))
    } else if p.claim_pending.is_some() {
        Line::from(Span::styled(
            if p.clock.is_some() {
                "Clocks stopped: make your intended move"
            } else {
                "Claiming: make your intended move"
            },
            t.button,
        ))
    } else {
        let mut s = position_facts(pos, p.marks());
        let b = p.marks().badge(game.occurrences(ply), env.ascii);
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
fn play_title(p: &Play, t: &Theme, width: usize) -> Line<'static> {
    let clocks = p.clock.as_ref().map_or_else(
        || clock_label(0, 0),
        |c| clock_label(c.base.as_secs(), c.inc.as_secs()),
    );
    let settings = [
        format!(
            "engine {}",
            crate::tui::game::players::level_words(p.config.human, p.config.level, p.sparring())
        ),
        format!("clocks {clocks}"),
        format!("contempt {}", p.config.contempt),
        format!("hash {} MiB", p.config.hash_mb),
    ];
    let blind = p.config.blind;
    let name = if blind {
        " threefold blind"
    } else {
        " threefold"
    };
    let players = format!(
        "   {}",
        crate::tui::game::players::describe::<shakmaty::Color>(p.config.human)
    );
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
fn render_engine(p: &Play, env: &Env, t: &Theme, area: Rect, buf: &mut Buffer) {
    let blind = p.marks() == Marks::Hidden;
    let pv = match &p.thinking {
        Some(_) if blind => String::new(),
        Some(th) => th.pv.clone(),
        None if blind => String::new(),
        None => p.last_pv().to_string(),
    };
    // Short enough for the side panel at 80 columns: the spinner says it is thinking.
    let (state, short, info, side) = match &p.thinking {
        Some(th) => {
            let s = if env.ascii {
                SPINNER_ASCII[(env.frame as usize) % 4]
            } else {
                SPINNER[(env.frame as usize) % 10]
            };
            (format!("{s} thinking"), s, th.info.as_ref(), th.side)
        }
        None => (
            "engine idle".to_string(),
            "idle",
            p.last_info(),
            p.last.as_ref().and_then(|l| l.side),
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
            "{state}  {}  contempt {}  {} MiB",
            level_tag(p.config.level),
            p.config.contempt,
            p.config.hash_mb
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

/// The Claim draw button, while the game goes on: after its end there is nothing to claim,
/// and the game-over banner and hint line say what can be done.
fn render_claim_button(p: &Play, t: &Theme, area: Rect, buf: &mut Buffer) {
    if p.game.is_over() {
        return;
    }
    let key = keys::key_for(keys::Cmd::Claim);
    let possible = p.marks() == Marks::Shown && claim::claim_possible(&p.game);
    let label = format!("[ {key} Claim draw ]");
    let mut spans = vec![Span::styled(label, t.button)];
    if possible {
        spans.push(Span::styled(" claim possible", t.rep3));
    }
    Paragraph::new(Line::from(spans)).render(area, buf);
}

fn render_history(p: &Play, env: &Env, t: &Theme, area: Rect, buf: &mut Buffer) {
    HistoryView {
        game: &p.game,
        shown: p.shown_ply(),
        viewing: p.view.is_some(),
        highlight: &p.highlight,
        chosen: None,
        marks: p.marks(),
        ascii: env.ascii,
        // The one-line hint for `*` (its legend is in the help's "Marks"): shown once a
        // ruling names plies.
        title: match p.marks() {
            Marks::Shown if !p.highlight.is_empty() => " Moves (* plies the ruling names) ",
            Marks::Shown => " Moves (repeated positions marked) ",
            Marks::Hidden => " Moves ",
        },
    }
    .render(t, area, buf);
}

fn render_same(p: &Play, t: &Theme, area: Rect, buf: &mut Buffer) {
    if p.marks() == Marks::Hidden {
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
    let game = &p.game;
    let ply = p.shown_ply();
    let occ = game.occurrences(ply);
    let earlier = game.earlier(ply);
    let head = if p.view.is_some() {
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
fn spark_ply(p: &Play, area: Rect, x: u16, y: u16) -> Option<usize> {
    if p.marks() == Marks::Hidden || y != area.y + 1 || x < area.x || x >= area.right() {
        return None;
    }
    let upto = p.game.len();
    let first = (upto + 1).saturating_sub(area.width as usize);
    let ply = first + (x - area.x) as usize;
    (ply <= upto).then_some(ply)
}

fn render_spark(p: &Play, env: &Env, t: &Theme, area: Rect, buf: &mut Buffer) {
    if area.height < 3 || p.marks() == Marks::Hidden {
        return;
    }
    buf.set_string(area.x, area.y, "Occurrences per ply", t.dim);
    let (bars, marks) = spark_line(
        &p.game,
        p.game.len(),
        p.shown_ply(),
        area.width as usize,
        t,
        env.ascii,
    );
    Paragraph::new(vec![bars, marks]).render(Rect::new(area.x, area.y + 1, area.width, 2), buf);
}
