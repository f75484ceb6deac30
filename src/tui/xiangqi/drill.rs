//! The xiangqi drill screen: the xiangqi ruling puzzles of `puzzles/` (themes with
//! `game = "xiangqi"`, [`crate::drills::xiangqi`]) on the xiangqi board.
//!
//! A theme list (or all themes mixed, with "From your xiangqi games" when the xiangqi review
//! added puzzles), then one puzzle at a time, drawn by the session's schedule
//! ([`Session::next_xiangqi`]: the chess drills' Leitner schedule, due puzzles first): the board at the puzzle's
//! last position, the moves that led there (step through them), and the question. Nothing
//! answers it before the player does: no title, no source, no theme in mixed mode, no move
//! status, repetition mark or chase mark on the board — the player counts and reads the
//! position, as at a board. The answer is typed in the words the question names; the
//! feedback (from the WXF judge, [`crate::drills::xiangqi::judge_answer`], recorded in the
//! player's progress) gives the right answer, the judge's reasons, the puzzle's explanation,
//! its title and its source.
//!
//! The screen owns its state, keys (the key table's `XqDrill*` contexts), layout and
//! drawing, and answers the routing [`App`](crate::tui::app::App) with [`Request`]s.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::drills::check::Feedback;
use crate::drills::xiangqi::{
    ChaseStatus, Verdict, XiangqiAnswer, XiangqiPuzzle, XiangqiQuestion, parse_answer,
};
use crate::drills::{GameKind, Pick, Session};
use crate::xiangqi::notation::wxf;

use crate::tui::game::drill_score::{self, Score, score_texts, streak_text};
use crate::tui::game::scenario;
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::prompt::InputKind;
use crate::tui::screen::{Component, Env, Request, Requests};
use crate::tui::theme::Theme;
use crate::tui::widgets::{self, clip};
use crate::tui::xq_board::{XqBoardView, XqGeom};

/// The puzzle being answered.
#[derive(Clone, Debug)]
pub struct Current {
    /// The theme drilled (None: all themes mixed; then the theme is not named before the
    /// answer).
    pub theme: Option<usize>,
    /// What is drilled, for the session's schedule ([`Session::next_xiangqi`]: the Leitner
    /// schedule of the chess drills).
    pub pick: Pick,
    /// The puzzle shown, how many were offered in this drill (it the last), and how many
    /// the pick holds.
    pub id: String,
    pub count: usize,
    pub total: usize,
    /// The ply shown (the puzzle's last position by default).
    pub ply: usize,
    pub feedback: Option<Feedback>,
    /// Rows of the feedback scrolled past.
    pub scroll: usize,
}

/// The xiangqi drill screen's state.
pub struct XqDrillScreen {
    pub session: Session,
    /// The theme highlighted in the list (0: all themes, then each theme).
    pub selected: usize,
    pub current: Option<Current>,
    /// The list of scenarios from real games, when open ([`scenario::List`]).
    pub scenarios: Option<scenario::List>,
}

impl XqDrillScreen {
    pub fn new(session: Session) -> XqDrillScreen {
        XqDrillScreen {
            session,
            selected: 0,
            current: None,
            scenarios: None,
        }
    }

    /// The key-table context: the theme list, a puzzle, or its feedback.
    pub fn ctx(&self) -> Ctx {
        if self.scenarios.is_some() {
            return Ctx::PickScenario;
        }
        match &self.current {
            None => Ctx::XqDrillThemes,
            Some(c) if c.feedback.is_some() => Ctx::XqDrillFeedback,
            Some(_) => Ctx::XqDrillAnswer,
        }
    }

    /// The puzzle shown.
    pub fn puzzle(&self) -> Option<&XiangqiPuzzle> {
        let c = self.current.as_ref()?;
        self.session.collection.xiangqi_puzzle(&c.id)
    }

    /// Messages of the session (a corrupt progress file moved aside, a failed save).
    pub fn take_messages(&mut self) -> Option<String> {
        let m = std::mem::take(&mut self.session.messages);
        (!m.is_empty()).then(|| m.join(" · "))
    }

    fn themes_len(&self) -> usize {
        self.session.xiangqi_themes().len()
    }

    /// A command of the screen's contexts.
    pub fn command(&mut self, cmd: Cmd) -> Requests {
        match (&mut self.current, cmd) {
            (None, Cmd::DrillUp) => self.selected = self.selected.saturating_sub(1),
            (None, Cmd::DrillDown) => self.selected = (self.selected + 1).min(self.themes_len()),
            (None, Cmd::DrillFirst) => self.selected = 0,
            (None, Cmd::DrillLast) => self.selected = self.themes_len(),
            (None, Cmd::DrillPick) => return self.pick(),
            (None, Cmd::Back) => return Request::Leave.into(),
            (Some(_), Cmd::Back) => {
                // Back on the list, the last puzzle's verdict is no news.
                self.current = None;
                self.session.new_round();
                return Request::Clear.into();
            }
            (Some(c), Cmd::DrillUp | Cmd::HistBack) => c.ply = c.ply.saturating_sub(1),
            (Some(c), Cmd::DrillDown | Cmd::HistForward) => c.ply = c.ply.saturating_add(1),
            (Some(c), Cmd::DrillFirst) => c.ply = 0,
            (Some(c), Cmd::DrillLast) => c.ply = usize::MAX,
            (Some(c), Cmd::DrillType) if c.feedback.is_none() => {
                return Request::Type(InputKind::DrillAnswer, String::new()).into();
            }
            (Some(c), Cmd::Fen) => {
                let answered = c.feedback.is_some();
                let ply = c.ply;
                return match self.puzzle() {
                    Some(p) => Request::Info(fen_shown(p, ply, answered)).into(),
                    None => Requests::none(),
                };
            }
            (Some(c), Cmd::PageDown) => c.scroll += 5,
            (Some(c), Cmd::PageUp) => c.scroll = c.scroll.saturating_sub(5),
            (Some(c), Cmd::DrillSkip | Cmd::DrillNext) => {
                let pick = c.pick.clone();
                let Some(id) = self.session.next_xiangqi(&pick).map(|p| p.id.clone()) else {
                    return Request::Error("There is no xiangqi puzzle to drill.".into()).into();
                };
                if let Some(c) = &mut self.current {
                    c.id = id;
                    c.count += 1;
                    c.feedback = None;
                    c.scroll = 0;
                }
                self.clamp_ply(usize::MAX);
                return Request::Clear.into();
            }
            _ => {}
        }
        let ply = self.current.as_ref().map_or(0, |c| c.ply);
        self.clamp_ply(ply);
        Requests::none()
    }

    /// Show ply `ply` of the puzzle, or its last position if the game is shorter.
    fn clamp_ply(&mut self, ply: usize) {
        let last = self.puzzle().map_or(0, |p| p.record().ply());
        if let Some(c) = &mut self.current {
            c.ply = ply.min(last);
        }
    }

    /// Drill the theme highlighted (0: all themes mixed): its puzzles drawn by the
    /// session's schedule, the due ones first.
    fn pick(&mut self) -> Requests {
        let themes = self.session.xiangqi_themes();
        let (theme, pick, total) = if self.selected == 0 {
            let total = themes.iter().map(|t| t.puzzles.len()).sum();
            (None, Pick::All, total)
        } else {
            let t = &themes[self.selected - 1];
            (
                Some(self.selected - 1),
                Pick::Theme(t.id.clone()),
                t.puzzles.len(),
            )
        };
        let Some(id) = self.session.next_xiangqi(&pick).map(|p| p.id.clone()) else {
            return Request::Error("There is no xiangqi puzzle to drill.".into()).into();
        };
        self.current = Some(Current {
            theme,
            pick,
            id,
            count: 1,
            total,
            ply: 0,
            feedback: None,
            scroll: 0,
        });
        self.clamp_ply(usize::MAX);
        Request::Clear.into()
    }

    /// The player's typed answer.
    pub fn typed(&mut self, text: &str) -> Requests {
        let Some(p) = self.puzzle() else {
            return Requests::none();
        };
        match parse_answer(p, text) {
            Ok(a) => self.give(a),
            Err(e) => Request::Error(format!("{e}.")).into(),
        }
    }

    /// Answer with option `i` (0-based) of the buttons ([`options`]): a digit or a click.
    pub fn choose(&mut self, i: usize) -> Requests {
        let Some(p) = self.puzzle() else {
            return Requests::none();
        };
        if self.current.as_ref().is_some_and(|c| c.feedback.is_some()) {
            return Requests::none();
        }
        match options(p).into_iter().nth(i) {
            Some((_, a)) => self.give(a),
            None => Request::Error(format!(
                "No option {}: {} to type the answer.",
                i + 1,
                keys::key_in(Ctx::XqDrillAnswer, Cmd::DrillType)
            ))
            .into(),
        }
    }

    /// Judge an answer (typed or a button), record it, show the feedback.
    fn give(&mut self, answer: XiangqiAnswer) -> Requests {
        let Some(p) = self.puzzle() else {
            return Requests::none();
        };
        if self.current.as_ref().is_some_and(|c| c.feedback.is_some()) {
            return Requests::none();
        }
        let id = p.id.clone();
        let Some(fb) = self.session.answer_xiangqi(&id, &answer) else {
            return Requests::none();
        };
        let verdict = if fb.correct {
            "Right.".to_string()
        } else {
            format!("Not quite: the answer is {}.", fb.expected)
        };
        if let Some(c) = &mut self.current {
            c.feedback = Some(fb);
        }
        Request::Info(verdict).into()
    }
}

/// The answer buttons of a question, as chess's drills have them: (label, answer). A chase
/// of a piece and the moves of a `break` question are typed.
pub fn options(p: &XiangqiPuzzle) -> Vec<(&'static str, XiangqiAnswer)> {
    use crate::xiangqi::Color;
    match p.question {
        XiangqiQuestion::Ruling { .. } => vec![
            (
                "red loses",
                XiangqiAnswer::Ruling(Verdict::Loses(Color::Red)),
            ),
            (
                "black loses",
                XiangqiAnswer::Ruling(Verdict::Loses(Color::Black)),
            ),
            ("draw", XiangqiAnswer::Ruling(Verdict::Draw)),
        ],
        XiangqiQuestion::Protected { .. } => vec![
            ("yes", XiangqiAnswer::Protected(true)),
            ("no", XiangqiAnswer::Protected(false)),
        ],
        XiangqiQuestion::Chase { .. } => vec![
            ("none", XiangqiAnswer::Chase(ChaseStatus::None)),
            ("check", XiangqiAnswer::Chase(ChaseStatus::Check)),
        ],
        XiangqiQuestion::Break { .. } => Vec::new(),
    }
}

/// "FEN after move 4: ..." of ply `ply` of the puzzle: before the answer without its move
/// counters ([`crate::drills::shown::fen_without_counters`], as on the chess drills).
fn fen_shown(p: &XiangqiPuzzle, ply: usize, answered: bool) -> String {
    let rec = p.record();
    let ply = ply.min(rec.ply());
    let full = rec.position(ply).fen();
    let fen = if answered {
        full
    } else {
        crate::drills::shown::fen_without_counters(&full)
    };
    let place = match ply {
        0 => "of the start position".to_string(),
        k => format!("after move {k}"),
    };
    format!("FEN {place}: {fen}")
}

/// The screen's regions: the board on the left, the question (or the theme list) on the
/// right.
struct Areas {
    title: Rect,
    board: Rect,
    side: Rect,
}

fn layout(size: Rect) -> Option<Areas> {
    let a = widgets::layout(size)?;
    let body_h = a.message.y - a.board.y;
    let g = XqGeom::fit(Rect::new(0, 0, 40, body_h), false)?;
    let board = Rect::new(a.board.x, a.board.y, g.width(), body_h);
    // The question and the feedback reach down over the message rows (a message is drawn
    // over them).
    let side = Rect::new(
        board.right() + 1,
        a.board.y,
        size.width.saturating_sub(board.right() + 1),
        a.input.y - a.board.y,
    );
    Some(Areas {
        title: a.title,
        board,
        side,
    })
}

impl XqDrillScreen {
    /// Draw the screen in the trainer's frame.
    pub fn render(&self, ascii: bool, t: &Theme, size: Rect, buf: &mut Buffer) {
        let Some(a) = layout(size) else { return };
        let title = match (&self.current, self.puzzle()) {
            (Some(c), Some(p)) => {
                // The theme only when the player chose it; the title and source wait for the
                // answer.
                let theme = match c.theme {
                    Some(i) => self.session.xiangqi_themes()[i].name.clone(),
                    None => "all themes".into(),
                };
                let done = c
                    .feedback
                    .as_ref()
                    .map_or(String::new(), |_| format!(" · {}", p.title));
                // The count is never cut ("3 of 1"): the theme's name gives way, then the
                // title after the answer.
                let count = format!(" · {} of {}", c.count, c.total);
                let head = "Xiangqi drills: ";
                let room = (a.title.width as usize)
                    .saturating_sub(1 + head.chars().count() + count.chars().count());
                format!("{head}{}{count}{done}", clip(&theme, room, ascii))
            }
            _ => "Xiangqi drills: the WXF repetition rulings".into(),
        };
        Paragraph::new(Line::from(Span::styled(
            clip(&format!(" {title}"), a.title.width as usize, ascii),
            t.title,
        )))
        .render(a.title, buf);
        match (&self.current, self.puzzle()) {
            (Some(c), Some(p)) => self.render_puzzle(c, p, ascii, t, &a, buf),
            _ => self.render_themes(ascii, t, &a, buf),
        }
    }

    /// The scores of the list's rows: all themes, then each theme (as chess's list).
    fn scores(&self) -> Vec<Score> {
        let each: Vec<Score> = self
            .session
            .xiangqi_themes()
            .iter()
            .map(|th| {
                let ids = th.puzzles.iter().map(|p| p.id.as_str());
                drill_score::theme_score(&self.session, &th.id, ids)
            })
            .collect();
        let all = drill_score::all_themes(&self.session, GameKind::Xiangqi, each.iter().copied());
        std::iter::once(all).chain(each).collect()
    }

    fn render_themes(&self, ascii: bool, t: &Theme, a: &Areas, buf: &mut Buffer) {
        let w = (a.board.width + a.side.width) as usize;
        let mut lines = vec![Line::from(Span::styled(
            "Choose a theme (Enter), or all themes mixed. Score is correct/attempts.",
            t.label,
        ))];
        // A theme's row: its name, then its score as on chess's list (never cut).
        let scores = self.scores();
        let texts = score_texts(&scores);
        let score_w = texts.iter().map(|s| s.chars().count()).max().unwrap_or(0);
        let name_w = w.saturating_sub(3 + score_w).max(12);
        for i in 0..=self.themes_len() {
            let (name, desc) = self.theme_row(i);
            let mark = if i == self.selected {
                if ascii { "> " } else { "▶ " }
            } else {
                "  "
            };
            let style = if i == self.selected {
                t.viewing
            } else {
                Style::new()
            };
            let name = clip(&name, name_w, ascii);
            let score = texts.get(i).map_or("", String::as_str);
            lines.push(Line::from(Span::styled(
                clip(&format!("{mark}{name:<name_w$} {score}"), w, ascii),
                style,
            )));
            if i == self.selected {
                for row in widgets::wrap(&desc, w.saturating_sub(4)) {
                    lines.push(Line::from(Span::styled(format!("    {row}"), t.dim)));
                }
                if let Some(&s) = scores.get(i) {
                    lines.push(Line::from(Span::styled(
                        format!(
                            "    {}. {}",
                            widgets::counted(s.puzzles, "puzzle"),
                            streak_text(s)
                        ),
                        t.dim,
                    )));
                }
            }
        }
        let area = Rect::new(a.board.x, a.board.y, w as u16, a.board.height);
        Paragraph::new(lines).render(area, buf);
    }

    fn render_puzzle(
        &self,
        c: &Current,
        p: &XiangqiPuzzle,
        ascii: bool,
        t: &Theme,
        a: &Areas,
        buf: &mut Buffer,
    ) {
        let rec = p.record();
        let ply = c.ply.min(rec.ply());
        if let Some(geom) = XqGeom::fit(a.board, false) {
            XqBoardView::at_ply(rec, ply, geom, t, ascii).render(a.board, buf);
        }
        let w = a.side.width as usize;
        let mut lines: Vec<Line> = Vec::new();
        for row in widgets::wrap(&p.prompt(), w) {
            lines.push(Line::from(Span::styled(row, t.title)));
        }
        // The answer buttons under the question (drawn over the rows kept for them).
        let buttons = self.buttons(a);
        if let (Some(first), Some(last)) = (buttons.first(), buttons.last()) {
            for _ in 0..=(last.y - first.y + 1) {
                lines.push(Line::from(""));
            }
        }
        // The moves, two plies a row, the one shown reversed; no status, no mark.
        let mut moves: Vec<Span> = Vec::new();
        let mut row_lines: Vec<Line> = Vec::new();
        let first = rec.position(0).side_to_move();
        for k in 1..=rec.ply() {
            let number = (k + usize::from(first == crate::xiangqi::Color::Black)).div_ceil(2);
            let red = rec.position(k - 1).side_to_move() == crate::xiangqi::Color::Red;
            let label = if red || k == 1 {
                format!("{number}.{} ", if red { "" } else { ".." })
            } else {
                String::new()
            };
            if red && !moves.is_empty() {
                row_lines.push(Line::from(std::mem::take(&mut moves)));
            }
            moves.push(Span::raw(label));
            let style = if k == ply { t.viewing } else { Style::new() };
            moves.push(Span::styled(
                wxf(rec.position(k - 1), rec.move_at(k)),
                style,
            ));
            moves.push(Span::raw(" "));
        }
        if !moves.is_empty() {
            row_lines.push(Line::from(moves));
        }
        let feedback_rows: Vec<Line> = match &c.feedback {
            None => widgets::wrap(
                &format!(
                    "{}{} type the answer · {}/{} step through the moves · {} skip",
                    if buttons.is_empty() {
                        String::new()
                    } else {
                        format!("1-{} or click: answer · ", buttons.len())
                    },
                    keys::key_in(Ctx::XqDrillAnswer, Cmd::DrillType),
                    keys::key_in(Ctx::XqDrillAnswer, Cmd::HistBack),
                    keys::key_in(Ctx::XqDrillAnswer, Cmd::HistForward),
                    keys::key_in(Ctx::XqDrillAnswer, Cmd::DrillSkip),
                ),
                w,
            )
            .into_iter()
            .map(|r| Line::from(Span::styled(r, t.dim)))
            .collect(),
            Some(fb) => {
                let mut v = vec![Line::from(Span::styled(
                    clip(
                        &if fb.correct {
                            " Right.".to_string()
                        } else {
                            format!(" Not quite: {}.", fb.expected)
                        },
                        w,
                        ascii,
                    ),
                    if fb.correct { t.claimed } else { t.rep3 },
                ))];
                let mut text = fb.explanation.clone();
                if let Some(src) = &p.source {
                    text.push_str(&format!(" Source: {src}."));
                }
                let rows = widgets::wrap(&text, w);
                // Scrolled: the verdict stays, the text moves.
                let skip = c.scroll.min(rows.len().saturating_sub(1));
                v.extend(rows.into_iter().skip(skip).map(Line::from));
                v
            }
        };
        // The question, the feedback under it, the moves with what room is left.
        let room = (a.side.height as usize).saturating_sub(lines.len() + feedback_rows.len() + 1);
        let skip = row_lines.len().saturating_sub(room.max(2));
        lines.push(Line::from(""));
        lines.extend(row_lines.into_iter().skip(skip));
        lines.extend(feedback_rows);
        Paragraph::new(lines).render(a.side, buf);
        let opts = options(p);
        let labels: Vec<&str> = opts.iter().map(|(l, _)| *l).collect();
        widgets::draw_buttons(&labels, &buttons, usize::MAX, ascii, t, buf);
    }

    /// Where the answer buttons of the puzzle shown are (none once answered, or for a
    /// question answered by typing): under the question. The one layout drawing and clicks
    /// use ([`widgets::button_rects`], as on the chess drills).
    fn buttons(&self, a: &Areas) -> Vec<Rect> {
        let (Some(c), Some(p)) = (&self.current, self.puzzle()) else {
            return Vec::new();
        };
        if c.feedback.is_some() {
            return Vec::new();
        }
        let opts = options(p);
        let rows = widgets::wrap(&p.prompt(), a.side.width as usize).len() as u16;
        let area = Rect::new(a.side.x, a.side.y + rows + 1, a.side.width, 2);
        widgets::button_rects(opts.iter().map(|(l, _)| *l), area)
    }

    /// A click: a theme in the list picks it; an answer button answers.
    pub fn click(&mut self, size: Rect, x: u16, y: u16) -> Requests {
        let Some(a) = layout(size) else {
            return Requests::none();
        };
        if let Some(i) = self
            .buttons(&a)
            .iter()
            .position(|r| r.contains((x, y).into()))
        {
            return self.choose(i);
        }
        if self.current.is_none() {
            // Rows as drawn: the header, then a theme a row, the selected one's description
            // under it.
            let w = (a.board.width + a.side.width) as usize;
            let mut row = a.board.y + 1;
            for i in 0..=self.themes_len() {
                if row == y {
                    self.selected = i;
                    return self.pick();
                }
                row += 1;
                if i == self.selected {
                    // The description, then the streak.
                    row += widgets::wrap(&self.theme_row(i).1, w.saturating_sub(4)).len() as u16;
                    row += 1;
                }
            }
        }
        Requests::none()
    }

    /// Row `i` of the theme list: its name and description (0: all themes mixed); how many
    /// puzzles it has is in its score ("solved 0/12").
    fn theme_row(&self, i: usize) -> (String, String) {
        let themes = self.session.xiangqi_themes();
        match i.checked_sub(1).and_then(|k| themes.get(k)) {
            Some(th) => (th.name.clone(), th.description.clone()),
            None => (
                "All xiangqi themes".to_string(),
                "Every theme, mixed: the theme is not named before you answer.".to_string(),
            ),
        }
    }
}

impl Component for XqDrillScreen {
    fn ctx(&self) -> Ctx {
        XqDrillScreen::ctx(self)
    }

    /// A digit answers with that button.
    fn key(&mut self, k: &crossterm::event::KeyEvent, _env: &Env, out: &mut Requests) -> bool {
        if keys::lookup(self.ctx(), k) == Some(Cmd::DrillChoose)
            && let crossterm::event::KeyCode::Char(c) = k.code
            && let Some(n) = c.to_digit(10)
        {
            out.extend(self.choose((n as usize).saturating_sub(1)));
            return true;
        }
        false
    }

    fn command(&mut self, cmd: Cmd, _env: &Env, out: &mut Requests) {
        let all = &self.session.collection.scenarios;
        if scenario::route(&mut self.scenarios, GameKind::Xiangqi, all, cmd, out) {
            return;
        }
        out.extend(XqDrillScreen::command(self, cmd));
    }

    fn submit(&mut self, _kind: InputKind, text: &str, _env: &Env, out: &mut Requests) {
        out.extend(self.typed(text));
    }

    fn click(&mut self, x: u16, y: u16, env: &Env, out: &mut Requests) {
        if self.scenarios.is_some() {
            return;
        }
        out.extend(XqDrillScreen::click(self, env.size, x, y));
    }

    fn render(&self, env: &Env, theme: &Theme, buf: &mut Buffer) {
        XqDrillScreen::render(self, env.ascii, theme, env.size, buf);
    }

    fn render_overlay(&self, env: &Env, theme: &Theme, buf: &mut Buffer) {
        if let Some(l) = &self.scenarios {
            l.render(theme, env.size, buf);
        }
    }

    fn take_note(&mut self) -> Option<String> {
        self.take_messages()
    }
}
