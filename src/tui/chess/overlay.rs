//! The game screen's overlays: the draw-claim dialog, the arbiter's ruling,
//! the promotion choice, the players menu, the list of a PGN file's games
//! (in `pgn_file`) and the questions about the game. Each owns its keys (a
//! context of the key table), its layout (one function, used by both
//! rendering and mouse hit-testing) and its rendering. A click on a button
//! runs the button's command: no key events are faked.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};
use shakmaty::{Move, Position, Role};

use crate::rules::claim::incorrect_claim_bonus;
use crate::rules::color_name;

use super::pgn_file::GamePick;
use super::{Env, Play, Request, Requests};
use crate::tui::config::{self, Setting};
use crate::tui::game::Question as SharedQuestion;
use crate::tui::game::players::{self, MenuStep};
use crate::tui::game::{files, kept};
pub use crate::tui::keys::ClaimOption;
use crate::tui::keys::{self, BINDINGS, Cmd, Ctx};
use crate::tui::theme::Theme;
use crate::tui::widgets::{Marks, body_of, max_scroll, popup, question_popup, scrolled, wrap};

/// A yes/no question about the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Abandon the game in progress for a new one?
    NewGame,
    /// Abandon the game in progress to start from a FEN position?
    AbandonForFen,
    /// Abandon the game in progress to load a game from a PGN file?
    AbandonForPgn,
    /// Abandon the game in progress to play this scenario from a real game?
    AbandonForScenario(crate::tui::game::scenario::Chosen),
    /// A game in progress was kept by the last run: resume it? (or replace it with the game
    /// given on the command line?) The question both games ask ([`kept::Offer`]), with the
    /// list of the games the command line's file opened waiting behind it.
    Kept(kept::Offer<GamePick>),
    /// Saving: replace this file?
    Overwrite(std::path::PathBuf),
    /// Resign the game?
    Resign,
    /// Two humans: the player to move offered a draw; does the opponent accept?
    AcceptDraw,
}

/// A modal of the game screen, on top of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// The draw-claim dialog.
    Claim,
    /// The arbiter's ruling (its lines, see [`crate::rules::Verdict`]),
    /// scrolled down by so many rows.
    Verdict {
        correct: bool,
        text: String,
        scroll: usize,
    },
    /// Which piece to promote to.
    Promotion(Vec<Move>),
    Ask(Question),
    /// The players menu, with the highlighted row (an index into [`Players::ALL`]) and the
    /// sparring setting when it opened (to say what changed).
    Players {
        selected: usize,
        sparring_was: bool,
    },
    /// Which game of a PGN file to open.
    PickGame(Box<GamePick>),
}

impl Overlay {
    /// The key-table context of the overlay.
    pub fn ctx(&self) -> Ctx {
        match self {
            Overlay::Claim => Ctx::ClaimDialog,
            Overlay::Verdict { .. } => Ctx::Verdict,
            Overlay::Promotion(_) => Ctx::Promotion,
            Overlay::Ask(_) => Ctx::Question,
            Overlay::Players { .. } => Ctx::PlayersMenu,
            Overlay::PickGame(_) => Ctx::PickGame,
        }
    }
}

/// One row of the claim dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ClaimRow {
    Blank,
    Text(String),
    /// An option's label ("\[1\] threefold now (9.2 b)").
    Label(String),
    /// A line of an option's explanation.
    Explain(String),
}

/// The claim dialog's layout: the popup, its rows (wrapped to its width) and
/// a clickable rect per offered option (its label and explanation rows).
/// Used by rendering and by mouse hit-testing.
pub struct ClaimLayout {
    pub popup: Rect,
    rows: Vec<ClaimRow>,
    pub buttons: Vec<(Rect, Cmd)>,
}

/// Lay out the claim dialog for the game on the board.
pub fn claim_layout(play: &Play, size: Rect) -> ClaimLayout {
    let game = &play.game;
    let clock = game.position().halfmoves();
    let mover = game.position().turn();
    // Every option is offered whatever the position (an incorrect claim, under either rule,
    // is what the trainer lets a player practise), so the dialog never tells whether one
    // would be correct.
    let w = size.width.min(76);
    let text_w = (w as usize).saturating_sub(4);
    let mut rows = Vec::new();
    // The 50-move count is an answer blind mode keeps back: the player counts from the move
    // list, as from a scoresheet.
    let mut head = format!("{} to move", color_name(mover));
    if play.marks() == Marks::Shown {
        head.push_str(&format!(" · 50-move count {clock}/100"));
    }
    if play.clock.is_some() {
        head.push_str(" · clocks stopped (FIDE 6.12)");
    }
    rows.extend(wrap(&head, text_w).into_iter().map(ClaimRow::Text));
    rows.push(ClaimRow::Blank);
    let mut spans = Vec::new();
    for b in BINDINGS.iter().filter(|b| b.ctx == Ctx::ClaimDialog) {
        let Cmd::ClaimAs(_) = b.cmd else { continue };
        let (label, explain) = b.help.split_once(": ").unwrap_or((b.help, ""));
        let first = rows.len();
        rows.push(ClaimRow::Label(format!("[{}] {label}", b.keys[0].label())));
        rows.extend(
            wrap(explain, text_w.saturating_sub(4))
                .into_iter()
                .map(ClaimRow::Explain),
        );
        spans.push((first, rows.len(), b.cmd));
    }
    rows.push(ClaimRow::Blank);
    let cost = match incorrect_claim_bonus(!mover, play.clocks()) {
        Some(bonus) => format!(
            "An incorrect claim: the game goes on, {bonus}, and an intended move is played."
        ),
        None => format!(
            "An incorrect claim (FIDE 9.5): the game goes on and an intended move is played; {}.",
            crate::rules::claim::NO_CLOCKS_9_5
        ),
    };
    rows.extend(wrap(&cost, text_w).into_iter().map(ClaimRow::Text));
    let h = (rows.len() as u16).saturating_add(2).min(size.height);
    let popup = popup(size, w, h);
    let buttons = spans
        .into_iter()
        .filter(|&(first, _, _)| first + 1 < popup.height as usize)
        .map(|(first, end, cmd)| {
            let end = end.min(popup.height as usize - 2);
            (
                Rect::new(
                    popup.x + 2,
                    popup.y + 1 + first as u16,
                    popup.width.saturating_sub(4),
                    (end - first) as u16,
                ),
                cmd,
            )
        })
        .collect();
    ClaimLayout {
        popup,
        rows,
        buttons,
    }
}

/// The ruling's layout: the popup, the scrolled body inside it and every
/// row (the ruling's lines wrapped to the body's width). Used by rendering
/// and by the scroll keys.
pub struct VerdictLayout {
    pub popup: Rect,
    pub body: Rect,
    rows: Vec<String>,
}

impl VerdictLayout {
    /// Rows shown at once.
    pub fn page(&self) -> usize {
        self.body.height as usize
    }

    /// The furthest scroll that still fills the page.
    pub fn max_scroll(&self) -> usize {
        max_scroll(self.rows.len(), self.body)
    }
}

/// Lay out a ruling: each of its lines wrapped, in a popup that leaves the
/// key bar visible.
///
/// Where a centred popup would cover the board (80 columns), the ruling goes in the column
/// beside it, from the top: the board stays in view with the plies it names marked and the
/// intended move an incorrect claim played.
pub fn verdict_layout(text: &str, size: Rect) -> VerdictLayout {
    let centred = size.width.min(76);
    let beside = crate::tui::widgets::layout(size)
        .map(|a| a.board.right())
        .filter(|&right| size.x + (size.width - centred) / 2 < right);
    let (area, w) = match beside {
        Some(right) => (
            Rect::new(
                right,
                size.y,
                size.width - right,
                size.height.saturating_sub(1),
            ),
            size.width - right,
        ),
        None => (
            Rect::new(size.x, size.y, size.width, size.height.saturating_sub(1)),
            centred,
        ),
    };
    let text_w = (w as usize).saturating_sub(4);
    let rows: Vec<String> = text.lines().flat_map(|l| wrap(l, text_w)).collect();
    let h = (rows.len() as u16)
        .saturating_add(2)
        .min(size.height.saturating_sub(2));
    let p = match beside {
        // From the top of the board's column down.
        Some(_) => Rect::new(area.x, area.y + 1, w, h),
        None => popup(area, w, h),
    };
    let body = body_of(p);
    VerdictLayout {
        popup: p,
        body,
        rows,
    }
}

/// The promotion popup's layout: the popup and one button per piece.
pub fn promotion_layout(size: Rect) -> (Rect, Vec<(Rect, Cmd)>) {
    let p = popup(size, 44, 5);
    let buttons = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let x = p.x + 2 + 10 * i as u16;
            (Rect::new(x, p.y + 2, 9, 1), Cmd::Promote(r))
        })
        .collect();
    (p, buttons)
}

/// The clickable buttons of an overlay (the same rects it is drawn with).
pub fn buttons(play: &Play, o: &Overlay, size: Rect) -> Vec<(Rect, Cmd)> {
    match o {
        Overlay::Claim => claim_layout(play, size).buttons,
        Overlay::Promotion(_) => promotion_layout(size).1,
        Overlay::Players { .. } => players::layout(size).1,
        _ => Vec::new(),
    }
}

/// Draw an overlay of the game screen.
pub fn render(play: &Play, o: &Overlay, t: &Theme, size: Rect, buf: &mut Buffer) {
    match o {
        Overlay::Claim => render_claim(play, t, size, buf),
        Overlay::Verdict {
            correct,
            text,
            scroll,
        } => render_verdict(*correct, text, *scroll, t, size, buf),
        Overlay::Promotion(_) => render_promotion(t, size, buf),
        Overlay::Ask(q) => render_question(play, q, t, size, buf),
        Overlay::Players { selected, .. } => players::render::<shakmaty::Color>(
            play.config.human,
            play.config.sparring,
            *selected,
            t,
            size,
            buf,
        ),
        Overlay::PickGame(p) => super::pgn_file::render_pick(p, t, size, buf),
    }
}

fn render_claim(play: &Play, t: &Theme, size: Rect, buf: &mut Buffer) {
    let l = claim_layout(play, size);
    crate::tui::widgets::clear_popup(l.popup, buf);
    Block::bordered()
        .title(" Claim a draw ")
        .title_bottom(
            Line::from(format!(
                " press a number or click · {} cancel ",
                keys::key_in(Ctx::ClaimDialog, Cmd::Close)
            ))
            .right_aligned(),
        )
        .render(l.popup, buf);
    let lines: Vec<Line> = l
        .rows
        .iter()
        .map(|row| match row {
            ClaimRow::Blank => Line::from(""),
            ClaimRow::Text(s) => Line::from(s.as_str()),
            ClaimRow::Label(s) => Line::from(Span::styled(s.as_str(), t.button)),
            ClaimRow::Explain(s) => Line::from(format!("    {s}")),
        })
        .collect();
    Paragraph::new(lines).render(body_of(l.popup), buf);
}

fn render_verdict(
    correct: bool,
    text: &str,
    scroll: usize,
    t: &Theme,
    size: Rect,
    buf: &mut Buffer,
) {
    let l = verdict_layout(text, size);
    let scroll = scroll.min(l.max_scroll());
    crate::tui::widgets::clear_popup(l.popup, buf);
    let (title, style) = if correct {
        (" Claim correct: draw ", t.claimed)
    } else {
        (" Claim incorrect ", t.error)
    };
    let foot = if l.max_scroll() > 0 {
        let last = (scroll + l.page()).min(l.rows.len());
        let lines = format!("lines {}–{last} of {}", scroll + 1, l.rows.len());
        let full = format!(" {lines} · {} ", keys::hint_line(Ctx::Verdict));
        // Beside the board the keys give way (the key bar has them): the count stays.
        if full.chars().count() + 2 <= l.popup.width as usize {
            full
        } else {
            format!(" {lines} ")
        }
    } else {
        format!(
            " {} close · {} review the game ",
            keys::key_in(Ctx::Verdict, Cmd::Close),
            keys::key_in(Ctx::Verdict, Cmd::Review)
        )
    };
    Block::bordered()
        .title(Span::styled(title, style))
        .title_bottom(Line::from(Span::styled(foot, t.dim)).right_aligned())
        .render(l.popup, buf);
    let lines: Vec<Line> = l
        .rows
        .iter()
        .skip(scroll)
        .take(l.page())
        .map(|r| Line::from(r.as_str()))
        .collect();
    Paragraph::new(lines).render(l.body, buf);
}

fn render_promotion(t: &Theme, size: Rect, buf: &mut Buffer) {
    let (p, buttons) = promotion_layout(size);
    crate::tui::widgets::clear_popup(p, buf);
    Block::bordered().title(" Promote to ").render(p, buf);
    for (r, cmd) in buttons {
        let label = BINDINGS
            .iter()
            .find(|b| b.ctx == Ctx::Promotion && b.cmd == cmd)
            .map(|b| format!("{} {}", b.keys[0].label(), b.hint.unwrap_or("")))
            .unwrap_or_default();
        buf.set_stringn(r.x, r.y, label, r.width as usize, t.button);
    }
}

fn render_question(play: &Play, q: &Question, t: &Theme, size: Rect, buf: &mut Buffer) {
    let text = match q {
        Question::NewGame => SharedQuestion::NewGame.text(),
        Question::Resign => format!(
            "{} resigns: the game is lost (FIDE 5.1.2). Resign?",
            crate::rules::color_name(play.resigner())
        ),
        Question::AcceptDraw => format!(
            "{} offers a draw (FIDE 9.1). {}, do you accept?",
            crate::rules::color_name(play.game.position().turn()),
            crate::rules::color_name(!play.game.position().turn())
        ),
        Question::Kept(offer) => offer.text(),
        Question::AbandonForFen => SharedQuestion::AbandonForFen.text(),
        Question::AbandonForPgn => SharedQuestion::AbandonForPgn.text(),
        Question::AbandonForScenario(_) => SharedQuestion::AbandonForScenario.text(),
        Question::Overwrite(p) => SharedQuestion::Overwrite(p.clone()).text(),
    };
    question_popup(text, question_answers(q), t, size, buf);
}

/// What each key of the chess screen's question `q` does, in its words (None: the table's
/// yes / no / later), for its popup and the key bar.
pub(crate) fn question_answers(q: &Question) -> Option<crate::tui::game::Answers> {
    match q {
        Question::NewGame => Some(SharedQuestion::NewGame.answers()),
        Question::AbandonForFen => Some(SharedQuestion::AbandonForFen.answers()),
        Question::AbandonForPgn => Some(SharedQuestion::AbandonForPgn.answers()),
        Question::AbandonForScenario(_) => Some(SharedQuestion::AbandonForScenario.answers()),
        Question::Overwrite(p) => Some(SharedQuestion::Overwrite(p.clone()).answers()),
        Question::Kept(offer) => Some(offer.answers()),
        Question::Resign => Some(crate::tui::game::Answers {
            yes: "resign",
            no: "play on",
            later: "play on",
        }),
        _ => None,
    }
}

impl Play {
    /// A key on an overlay: its command from the overlay's context.
    pub(crate) fn overlay_key(
        &mut self,
        o: Overlay,
        k: &crossterm::event::KeyEvent,
        env: &Env,
        out: &mut Requests,
    ) {
        if let Some(cmd) = keys::lookup(o.ctx(), k) {
            self.overlay_command(o, cmd, env, out);
        }
    }

    /// A click while an overlay is shown: a button runs its command; a click
    /// elsewhere closes a ruling (dialogs wait for an answer).
    pub(crate) fn overlay_click(
        &mut self,
        o: Overlay,
        x: u16,
        y: u16,
        env: &Env,
        out: &mut Requests,
    ) {
        if let Overlay::PickGame(pick) = o {
            self.pick_click(pick, x, y, env.size, out);
        } else if let Some((_, cmd)) = buttons(self, &o, env.size)
            .into_iter()
            .find(|(r, _)| r.contains((x, y).into()))
        {
            self.overlay_command(o, cmd, env, out);
        } else if matches!(o, Overlay::Verdict { .. }) {
            self.overlay_command(o, Cmd::Close, env, out);
        } else if matches!(o, Overlay::Players { .. })
            && players::click(env.size, x, y) == Some(MenuStep::Close)
        {
            self.overlay = None;
        }
    }

    /// Carry out a command of an overlay's context.
    pub(crate) fn overlay_command(&mut self, o: Overlay, cmd: Cmd, env: &Env, out: &mut Requests) {
        match (o, cmd) {
            (Overlay::Claim, Cmd::ClaimAs(option)) => self.claim_option(option, out),
            (Overlay::Claim, Cmd::Close) => self.cancel_claim(),
            (Overlay::Verdict { .. }, Cmd::Close) => self.close_verdict(out),
            (Overlay::Verdict { .. }, Cmd::Review) => {
                self.close_verdict(out);
                out.push(Request::Review);
            }
            (
                Overlay::Verdict {
                    correct,
                    text,
                    scroll,
                },
                cmd,
            ) => {
                let l = verdict_layout(&text, env.size);
                let scroll = scrolled(cmd, scroll, l.page(), l.max_scroll());
                self.overlay = Some(Overlay::Verdict {
                    correct,
                    text,
                    scroll,
                });
            }
            (Overlay::Promotion(moves), Cmd::Promote(role)) => {
                if let Some(m) = moves.iter().find(|m| m.promotion() == Some(role)) {
                    self.overlay = None;
                    self.human_move(*m, out);
                }
            }
            (Overlay::Promotion(_), Cmd::Close) => {
                self.overlay = None;
                self.selected = None;
            }
            (
                Overlay::Players {
                    selected,
                    sparring_was,
                },
                cmd,
            ) => match players::menu_step(selected, cmd) {
                Some(MenuStep::Row(selected)) => {
                    self.overlay = Some(Overlay::Players {
                        selected,
                        sparring_was,
                    })
                }
                Some(MenuStep::Choose(pl)) => {
                    self.overlay = None;
                    self.set_players(pl, sparring_was, out);
                }
                Some(MenuStep::Close) => self.overlay = None,
                Some(MenuStep::ToggleSparring) => {
                    out.info(config::toggle_sparring(&mut self.config.sparring));
                    out.save_settings(&[Setting::Sparring]);
                }
                None => {}
            },
            (Overlay::PickGame(pick), cmd) => self.pick_command(pick, cmd, env.size, out),
            (Overlay::Ask(q), Cmd::Yes | Cmd::No) => {
                self.overlay = None;
                self.answer(q, cmd == Cmd::Yes, out);
            }
            (Overlay::Ask(Question::Kept(offer)), Cmd::Close) => {
                // Decide later: both games are kept, and the file's list comes back.
                let behind = kept::later(self, offer, out);
                self.overlay = behind.map(Overlay::PickGame);
            }
            (Overlay::Ask(_), Cmd::Close) => {
                // Decide later: nothing changes, and the engine plays if it is its turn.
                self.overlay = None;
                if env.shown {
                    self.maybe_engine(out);
                }
            }
            _ => {}
        }
    }

    /// The answer to a question about the game.
    fn answer(&mut self, q: Question, yes: bool, out: &mut Requests) {
        match (q, yes) {
            (Question::NewGame, true) => self.new_game(crate::rules::Game::new(), out),
            (Question::Resign, true) => self.resign(out),
            (Question::AcceptDraw, true) => self.draw_agreed(
                "The draw offer is accepted: the game is drawn by agreement (FIDE 9.1)."
                    .to_string(),
                out,
            ),
            (Question::AcceptDraw, false) => {
                out.info("The draw offer is declined: play on (FIDE 9.1.2.2).")
            }
            (Question::Kept(offer), yes) => {
                let behind = kept::answer(self, offer, yes, out);
                self.overlay = behind.map(Overlay::PickGame);
            }
            (Question::AbandonForFen, true) => self.open_fen_prompt(out),
            (Question::AbandonForPgn, true) => files::open_prompt(out),
            (Question::AbandonForScenario(chosen), true) => self.start_scenario(chosen.0, out),
            (Question::Overwrite(p), true) => self.save_pgn(&p, out),
            (Question::Overwrite(p), false) => files::save_elsewhere(&p, out),
            (
                Question::NewGame
                | Question::AbandonForFen
                | Question::AbandonForPgn
                | Question::AbandonForScenario(_),
                false,
            ) => crate::tui::game::goes_on(out),
            (_, false) => {}
        }
    }
}
