//! App state, the [`Action`] enum, and `update`. No terminal I/O here: the run
//! loop turns terminal events and engine reports into actions, and carries out
//! the [`Effect`]s the app asks for (engine requests); `quit` ends the loop.
//!
//! The App routes: keys go to the input line, else the overlay on top (the
//! App's own — help, the quit questions — or the game screen's), else the
//! screen shown. Each screen owns its state, keys, drawing and hit-testing
//! and answers with its reply type ([`play::Reply`], [`drill::Reply`]), which
//! the App carries out: the message line, the input line, engine requests,
//! saving settings, switching screens.
//!
//! The router's own parts are its children: [`render`] (the frame around the
//! screen shown: title, message and status rows; then the screen draws itself)
//! and [`overlay`] (help and the questions on quitting, over any screen). The
//! screens (play, Euwe, drills, review) use only the leaf modules (board widget,
//! key table, line editor, prompt, theme, config, widgets) and never each other
//! or the App: `tests/layers.rs` checks it.

pub mod overlay;
pub mod render;
mod xq_review_route;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use crate::drills::GameKind;
use crate::rules::Game;

use super::config::{Config, Setting};
use super::drill::{self, DrillState};
use super::engine_thread::Report;
use super::euwe::{self, EuweState};
use super::keys::{self, Cmd, Ctx};
use super::play::{self, Env, Play, Replies, Reply};
use super::review::{self, ReviewScreen};
use super::widgets::Marks;
use super::xiangqi::{self, XiangqiScreen};
use super::xq_drill::{self, XqDrillScreen};
use super::xq_review::{self, XqReviewScreen};

pub use super::engine_thread::Effect;
pub use super::prompt::{Input, InputKind};
pub use overlay::{Overlay, Question};

/// Everything that can happen to the app.
#[derive(Clone, Debug)]
pub enum Action {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Time passes (clocks, spinner, autoplay).
    Tick(Instant),
    Engine(Report),
}

/// Which screen is shown (each screen's state lives in its own field of [`App`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Play,
    Euwe,
    Drills,
    Review,
    Xiangqi,
    /// The xiangqi drills.
    XqDrills,
    /// The xiangqi review ([`crate::tui::xq_review`]).
    XqReview,
}

/// Whether a message reports a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Info,
    Error,
}

/// The line under the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub tone: Tone,
    pub text: String,
}

impl Message {
    pub fn is_error(&self) -> bool {
        self.tone == Tone::Error
    }
}

/// The trainer: routes actions to the screen shown (or the overlay or input
/// line on top of it) and collects the effects for the run loop.
pub struct App {
    /// Which screen is shown; each screen's state is its own field.
    pub screen: Screen,
    pub play: Play,
    pub euwe: Box<EuweState>,
    /// The drill screen's state (None: not opened yet).
    pub drills: Option<Box<DrillState>>,
    /// The review screen's state and options.
    pub review: ReviewScreen,
    /// The xiangqi screen's game and settings (kept while the chess screen is shown).
    pub xiangqi: Box<XiangqiScreen>,
    /// The xiangqi drill screen's state (None: not opened, or the chess drills were since:
    /// one drill session at a time keeps one progress file right).
    pub xq_drills: Option<Box<XqDrillScreen>>,
    /// The xiangqi review screen's state and options.
    pub xq_review: XqReviewScreen,
    pub overlay: Option<Overlay>,
    pub input: Option<Input>,
    pub message: Option<Message>,
    pub size: Rect,
    pub ascii: bool,
    pub frame: u64,
    pub effects: Vec<Effect>,
    pub quit: bool,
    /// The puzzles from your games (`from-your-games.toml` in the data directory; `None` in
    /// tests unless they give one): the review screen adds to it, the drill screen reads it.
    pub drills_file: Option<PathBuf>,
    /// The games (chess's, xiangqi's) the player agreed to quit losing because they
    /// could not be kept (so nothing more is said about them on the way out).
    pub loss_accepted: Vec<GameKind>,
    /// The kept chess game found at start while the trainer opened on the xiangqi screen
    /// (and whether a game was given on the command line): offered when the chess screen
    /// is shown, not on the xiangqi screen.
    pub kept_chess_game: Option<(Box<play::SavedGame>, bool)>,
    /// Where changed settings are saved (None: not saved, as in tests).
    pub config_path: Option<PathBuf>,
    /// The panel "How engines see it" is shown (game screen, Euwe stepper).
    pub engines_panel: bool,
}

impl App {
    pub fn new(cfg: &Config, game: Game) -> App {
        App {
            screen: Screen::Play,
            play: Play::new(cfg, game),
            euwe: Box::new(EuweState::with_delay(Duration::from_millis(
                cfg.euwe_delay_ms.max(30),
            ))),
            drills: None,
            review: ReviewScreen::default(),
            xiangqi: Box::new(XiangqiScreen::new(cfg)),
            xq_drills: None,
            xq_review: XqReviewScreen::default(),
            overlay: None,
            input: None,
            message: None,
            size: Rect::new(0, 0, 120, 40),
            ascii: cfg.ascii,
            frame: 0,
            effects: Vec::new(),
            quit: false,
            drills_file: None,
            loss_accepted: Vec::new(),
            kept_chess_game: None,
            config_path: None,
            engines_panel: false,
        }
    }

    /// Save the settings `keys` (just changed) to the config file. When the
    /// file cannot be written or is left alone because it does not parse,
    /// the status line says so after what changed.
    pub(crate) fn save_settings(&mut self, keys: &[Setting]) {
        let Some(path) = self.config_path.clone() else {
            return;
        };
        if let Err(e) = super::config::save_changes(&path, &self.play.config, keys) {
            let done = self.message.take().map_or(String::new(), |m| m.text);
            let done = done.trim_end_matches('.');
            self.error(if done.is_empty() {
                format!("Settings for this run only: {e}.")
            } else {
                format!("{done}. For this run only: {e}.")
            });
        }
    }

    pub(crate) fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            tone: Tone::Info,
            text: text.into(),
        });
    }

    /// An error beside the one shown, if one is (problems found at start:
    /// the saved game's, the config's, the engine's memory): both are read.
    pub(crate) fn add_error(&mut self, text: impl Into<String>) {
        let text = text.into();
        match self.message.take() {
            Some(m) if m.is_error() => self.error(format!("{} · {text}", m.text)),
            _ => self.error(text),
        }
    }

    pub(crate) fn error(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            tone: Tone::Error,
            text: text.into(),
        });
    }

    /// Handle one action.
    pub fn update(&mut self, action: Action) {
        // Behind the "enlarge the terminal" screen only quitting (and resizing) works.
        let too_small = super::widgets::layout(self.size).is_none();
        let screen = self.screen;
        let message = self.message.clone();
        match action {
            Action::Key(k) if too_small => self.on_key_too_small(k),
            Action::Mouse(_) if too_small => {}
            Action::Key(k) => self.on_key(k),
            Action::Mouse(m) => self.on_mouse(m),
            Action::Resize(w, h) => self.size = Rect::new(0, 0, w, h),
            Action::Tick(now) => self.on_tick(now),
            Action::Engine(r @ (Report::XqInfo { .. } | Report::XqBest { .. })) => {
                self.with_xiangqi(|x, out| x.on_report(r, out))
            }
            Action::Engine(r) => self.with_play(|p, _, out| p.on_report(r, out)),
        }
        self.play.note_clocks();
        // A message belongs to the screen it was given on.
        if self.screen != screen && self.message == message {
            self.message = None;
        }
    }

    /// A key while the terminal is too small to show anything: only quit.
    fn on_key_too_small(&mut self, k: KeyEvent) {
        if k.kind != crossterm::event::KeyEventKind::Release
            && keys::lookup(Ctx::Global, &k) == Some(Cmd::Quit)
        {
            self.request_quit();
        }
    }

    fn on_tick(&mut self, now: Instant) {
        self.frame = self.frame.wrapping_add(1);
        if self.screen == Screen::Euwe {
            self.euwe.tick(now);
        }
        self.with_play(|p, _, out| p.tick(now, out));
        self.with_xiangqi(|x, out| x.tick(now, out));
        self.review.tick(self.size);
        self.xq_review.tick(self.size);
    }

    /// The key-table context that has the keys now: the input line, an
    /// overlay, or the screen.
    pub fn ctx(&self) -> Ctx {
        if self.input.is_some() {
            return Ctx::Input;
        }
        if let Some(o) = &self.overlay {
            return o.ctx();
        }
        if let Some(o) = &self.play.overlay {
            return o.ctx();
        }
        self.screen_ctx()
    }

    /// The key-table context of the screen shown.
    pub fn screen_ctx(&self) -> Ctx {
        match (self.screen, &self.drills) {
            (Screen::Play, _) => Ctx::Play,
            (Screen::Euwe, _) => Ctx::Euwe,
            (Screen::Drills, Some(d)) => d.ctx(),
            (Screen::Drills, None) => Ctx::DrillThemes,
            (Screen::Review, _) => Ctx::Review,
            (Screen::XqReview, _) => xq_review::CTX,
            (Screen::XqDrills, _) => self
                .xq_drills
                .as_ref()
                .map_or(Ctx::XqDrillThemes, |d| d.ctx()),
            (Screen::Xiangqi, _) if self.xiangqi.calling => Ctx::XqCall,
            (Screen::Xiangqi, _) if self.xiangqi.choosing.is_some() => Ctx::PlayersMenu,
            (Screen::Xiangqi, _) => Ctx::Xiangqi,
        }
    }

    fn on_key(&mut self, k: KeyEvent) {
        if k.kind == crossterm::event::KeyEventKind::Release {
            return;
        }
        if k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('c') {
            self.request_quit();
            return;
        }
        if self.input.is_some() {
            self.on_input_key(k);
            return;
        }
        if let Some(o) = self.overlay.clone() {
            if let Some(cmd) = keys::lookup(o.ctx(), &k) {
                self.overlay_command(o, cmd);
            }
            return;
        }
        if let Some(o) = self.play.overlay.clone() {
            self.with_play(|p, env, out| p.overlay_key(o, &k, env, out));
            return;
        }
        let Some(cmd) = keys::lookup(self.ctx(), &k) else {
            return;
        };
        if cmd == Cmd::DrillChoose
            && let KeyCode::Char(c) = k.code
            && let Some(n) = c.to_digit(10)
        {
            self.with_drills(|d| d.choose(n as usize - 1));
            return;
        }
        self.run(cmd);
    }

    /// Carry out a command from the key table (also used by mouse clicks):
    /// the App's own commands here, the rest to the screen shown. Every command
    /// is named (no catch-all), so a new one has to be given a place.
    pub fn run(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Help => self.overlay = Some(Overlay::Help { scroll: 0 }),
            Cmd::Quit => self.request_quit(),
            Cmd::Euwe => {
                self.stop_engine();
                self.euwe.restart();
                self.screen = Screen::Euwe;
            }
            Cmd::Drills if self.screen == Screen::Xiangqi => self.open_xq_drills(),
            Cmd::Drills => self.open_drills(),
            Cmd::EnginesPanel => {
                self.engines_panel = !self.engines_panel;
                if self.engines_panel && !self.engines_panel_shown() {
                    self.info(format!(
                        "How engines see it waits for the end of the game in blind mode ({} \
                         shows the marks).",
                        keys::key_for(Cmd::Blind)
                    ));
                }
            }
            Cmd::Review if self.screen == Screen::Xiangqi => self.open_xq_review(),
            Cmd::Review => self.open_review(),
            Cmd::Xiangqi if self.screen != Screen::Xiangqi => self.open_xiangqi(),
            // The xiangqi screen's choice of a call is its own (not an App overlay).
            Cmd::Close | Cmd::ChoosePlayers(_) if self.screen == Screen::Xiangqi => {
                self.screen_command(cmd)
            }
            // Overlay and input-line commands arrive through their own contexts.
            Cmd::Close
            | Cmd::ClaimAs(_)
            | Cmd::Promote(_)
            | Cmd::ChoosePlayers(_)
            | Cmd::Yes
            | Cmd::No
            | Cmd::Submit
            | Cmd::Edit(_) => {}
            // The screens' own commands (a screen ignores those not its own).
            Cmd::Up
            | Cmd::Down
            | Cmd::Left
            | Cmd::Right
            | Cmd::Select
            | Cmd::TypeMove
            | Cmd::Claim
            | Cmd::OfferDraw
            | Cmd::Resign
            | Cmd::PlayOn
            | Cmd::Takeback
            | Cmd::NewGame
            | Cmd::Flip
            | Cmd::HistBack
            | Cmd::HistForward
            | Cmd::HistStart
            | Cmd::HistEnd
            | Cmd::PrevOccurrence
            | Cmd::NextOccurrence
            | Cmd::Players
            | Cmd::Stronger
            | Cmd::Weaker
            | Cmd::Clocks
            | Cmd::Hash
            | Cmd::Contempt
            | Cmd::Blind
            | Cmd::Save
            | Cmd::Load
            | Cmd::Fen
            | Cmd::Xiangqi
            | Cmd::RuleAt
            | Cmd::CallArbiter
            | Cmd::CallAs(_)
            | Cmd::JudgePanel
            | Cmd::Notation
            | Cmd::EuweNext
            | Cmd::EuwePrev
            | Cmd::EuweJumpStart
            | Cmd::EuweJumpEnd
            | Cmd::EuweJumpFivefold
            | Cmd::EuweAutoplay
            | Cmd::EuweFaster
            | Cmd::EuweSlower
            | Cmd::AddPuzzle
            | Cmd::DrillUp
            | Cmd::DrillDown
            | Cmd::DrillFirst
            | Cmd::DrillLast
            | Cmd::DrillPick
            | Cmd::DrillChoose
            | Cmd::DrillPrevOption
            | Cmd::DrillNextOption
            | Cmd::DrillSubmit
            | Cmd::DrillYes
            | Cmd::DrillNo
            | Cmd::DrillType
            | Cmd::DrillToggle
            | Cmd::DrillRemoveMove
            | Cmd::DrillSkip
            | Cmd::DrillNext
            | Cmd::Back
            | Cmd::ScrollUp
            | Cmd::ScrollDown
            | Cmd::PageUp
            | Cmd::PageDown
            | Cmd::ScrollTop
            | Cmd::ScrollBottom => self.screen_command(cmd),
        }
    }

    /// A command for the screen shown, and what comes of its reply.
    fn screen_command(&mut self, cmd: Cmd) {
        match self.screen {
            Screen::Play if cmd == Cmd::Back => self.play_back(),
            Screen::Play => self.with_play(|p, _, out| p.command(cmd, out)),
            Screen::Euwe => match self.euwe.command(cmd) {
                euwe::Reply::Nothing => {}
                euwe::Reply::Leave => {
                    self.screen = Screen::Play;
                    self.maybe_engine();
                }
            },
            Screen::Drills if cmd == Cmd::Back => self.with_drills(|d| d.back()),
            Screen::Drills => {
                let (size, ascii) = (self.size, self.ascii);
                self.with_drills(|d| d.command(cmd, size, ascii));
            }
            Screen::Review if cmd == Cmd::AddPuzzle => {
                let tags = self.play.pgn_tags();
                let reply = self
                    .review
                    .add_selected_puzzle(self.drills_file.as_deref(), &tags);
                self.review_reply(reply);
            }
            Screen::Review => {
                let reply = self.review.command(cmd, self.size);
                self.review_reply(reply);
            }
            Screen::Xiangqi => self.with_xiangqi(|x, out| x.command(cmd, out)),
            Screen::XqDrills => self.with_xq_drills(|d| d.command(cmd)),
            Screen::XqReview => self.xq_review_command(cmd),
        }
    }

    /// Back on the game screen: the screen's own step back.
    fn play_back(&mut self) {
        self.with_play(|p, _, out| p.back(out));
    }

    /// Quit, keeping the games in progress (chess's and xiangqi's); if one cannot be kept
    /// (nowhere to keep it, or the file cannot be written), ask first, one game at a time:
    /// a game is never lost without the player's word. `q` on the question is a yes.
    fn request_quit(&mut self) {
        if let Some(Overlay::Ask(q)) = &self.overlay {
            return self.quit_losing_game(q.game());
        }
        match self.unkept_question() {
            Some(q) => {
                // The question takes the place of the game screen's overlay, if one is up.
                self.play.overlay = None;
                self.overlay = Some(Overlay::Ask(q));
            }
            None => self.do_quit(),
        }
    }

    /// Keep each game in progress; the question to ask about the first that cannot be
    /// kept and whose loss the player has not accepted yet, if any.
    fn unkept_question(&mut self) -> Option<Question> {
        if !self.loss_accepted.contains(&GameKind::Chess) {
            let game = GameKind::Chess;
            if self.play.game_in_progress() && self.play.resume_path.is_none() {
                return Some(Question::Quit { game });
            }
            if let Err(e) = self.play.keep_game_in_progress() {
                let pgn = self.play.pgn_text();
                let saved_as = self
                    .play
                    .saved_pgn
                    .as_ref()
                    .filter(|(_, text)| *text == pgn)
                    .map(|(p, _)| p.clone());
                return Some(Question::QuitUnkept {
                    game,
                    reason: e.to_string(),
                    saved_as,
                });
            }
        }
        if !self.loss_accepted.contains(&GameKind::Xiangqi) && self.xiangqi.in_progress() {
            let game = GameKind::Xiangqi;
            if self.xiangqi.kept_path.is_none() {
                return Some(Question::Quit { game });
            }
            if let Err(e) = self.xiangqi.keep_in_progress() {
                return Some(Question::QuitUnkept {
                    game,
                    reason: e.to_string(),
                    saved_as: self.xiangqi.saved_as(),
                });
            }
        }
        None
    }

    /// Yes to quitting without `game` kept: on to the other game's question, if it has
    /// one, else quit.
    pub(crate) fn quit_losing_game(&mut self, game: GameKind) {
        self.overlay = None;
        self.loss_accepted.push(game);
        self.request_quit();
    }

    /// Quit (the game in progress was kept, or the player agreed to lose it;
    /// the run loop keeps it once more on the way out, as for a signal).
    pub(crate) fn do_quit(&mut self) {
        self.stop_engine();
        self.review.cancel();
        self.xq_review.cancel();
        self.quit = true;
    }

    pub(crate) fn open_input(&mut self, kind: InputKind, text: &str) {
        self.input = Some(Input::new(kind, text));
    }

    fn on_input_key(&mut self, k: KeyEvent) {
        let Some(input) = &mut self.input else { return };
        match keys::lookup(Ctx::Input, &k) {
            Some(Cmd::Close) => {
                let kind = input.kind;
                self.input = None;
                if !matches!(
                    kind,
                    InputKind::DrillAnswer
                        | InputKind::XiangqiMove
                        | InputKind::XiangqiFen
                        | InputKind::XiangqiSave
                        | InputKind::XiangqiLoad
                        | InputKind::XqDrillAnswer
                ) {
                    self.with_play(|p, _, out| p.input_closed(kind, out));
                }
            }
            Some(Cmd::Edit(e)) => input.line.edit(e),
            Some(Cmd::Submit) => {
                let input = self.input.take().expect("checked");
                self.submit(input);
            }
            _ => {
                if let KeyCode::Char(c) = k.code
                    && !k.modifiers.contains(KeyModifiers::CONTROL)
                {
                    input.line.insert(c);
                }
            }
        }
    }

    fn submit(&mut self, input: Input) {
        let text = input.text().trim().to_string();
        match input.kind {
            InputKind::DrillAnswer => self.with_drills(|d| d.typed(&text)),
            InputKind::XqDrillAnswer => self.with_xq_drills(|d| d.typed(&text)),
            InputKind::XiangqiMove
            | InputKind::XiangqiFen
            | InputKind::XiangqiSave
            | InputKind::XiangqiLoad => {
                self.with_xiangqi(|x, out| x.submit(input.kind, &text, out))
            }
            kind => self.with_play(|p, _, out| p.submit(kind, text, out)),
        }
    }

    fn on_mouse(&mut self, m: MouseEvent) {
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {}
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown
                if matches!(self.overlay, Some(Overlay::Help { .. }))
                    || matches!(
                        self.play.overlay,
                        Some(play::Overlay::Verdict { .. } | play::Overlay::PickGame(_))
                    ) =>
            {
                let cmd = if m.kind == MouseEventKind::ScrollUp {
                    Cmd::ScrollUp
                } else {
                    Cmd::ScrollDown
                };
                if let Some(o) = self.overlay.clone() {
                    self.overlay_command(o, cmd);
                } else if let Some(o) = self.play.overlay.clone() {
                    self.with_play(|p, env, out| p.overlay_command(o, cmd, env, out));
                }
                return;
            }
            MouseEventKind::ScrollUp if self.screen == Screen::Play => {
                return self.run(Cmd::HistBack);
            }
            MouseEventKind::ScrollDown if self.screen == Screen::Play => {
                return self.run(Cmd::HistForward);
            }
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown
                if self.screen == Screen::Drills =>
            {
                let (size, ascii, up) = (self.size, self.ascii, m.kind == MouseEventKind::ScrollUp);
                return self.with_drills(|d| d.wheel(size, ascii, up, m.column, m.row));
            }
            MouseEventKind::ScrollUp if self.screen == Screen::XqReview => {
                return self.screen_command(Cmd::Up);
            }
            MouseEventKind::ScrollDown if self.screen == Screen::XqReview => {
                return self.screen_command(Cmd::Down);
            }
            MouseEventKind::ScrollUp if self.screen == Screen::Review => {
                return self.screen_command(Cmd::Up);
            }
            MouseEventKind::ScrollDown if self.screen == Screen::Review => {
                return self.screen_command(Cmd::Down);
            }
            MouseEventKind::ScrollUp if self.screen == Screen::Xiangqi => {
                return self.run(Cmd::HistBack);
            }
            MouseEventKind::ScrollDown if self.screen == Screen::Xiangqi => {
                return self.run(Cmd::HistForward);
            }
            MouseEventKind::ScrollUp if self.screen == Screen::Euwe => {
                return self.run(Cmd::EuwePrev);
            }
            MouseEventKind::ScrollDown if self.screen == Screen::Euwe => {
                return self.run(Cmd::EuweNext);
            }
            _ => return,
        }
        let (x, y) = (m.column, m.row);
        if let Some(o) = self.overlay.take() {
            // Help has no buttons: a click closes it; questions wait for an answer.
            if !matches!(o, Overlay::Help { .. }) {
                self.overlay = Some(o);
            }
            return;
        }
        if let Some(o) = self.play.overlay.clone() {
            self.with_play(|p, env, out| p.overlay_click(o, x, y, env, out));
            return;
        }
        if self.screen == Screen::Drills {
            let size = self.size;
            self.with_drills(|d| d.click(size, x, y));
            return;
        }
        if self.screen == Screen::Euwe {
            self.euwe.click(self.size, x, y);
            return;
        }
        if self.screen == Screen::Xiangqi {
            let size = self.size;
            self.with_xiangqi(|s, out| s.click(size, x, y, out));
            return;
        }
        if self.screen == Screen::XqDrills {
            let size = self.size;
            self.with_xq_drills(|d| d.click(size, x, y));
            return;
        }
        if self.screen == Screen::Play {
            self.with_play(|p, env, out| p.click(x, y, env, out));
        }
        if self.screen == Screen::Review {
            self.review.click(self.size, x, y);
        }
        if self.screen == Screen::XqReview {
            self.xq_review.click(self.size, x, y);
        }
    }
}

/// Routing to the drill screen (which owns its state, keys, drawing and
/// hit-testing): open it, hand it a key, click or line, carry out its reply.
impl App {
    /// Open the drill screen (loading the puzzles and progress the first time).
    pub fn open_drills(&mut self) {
        self.stop_engine();
        self.input = None;
        self.play.selected = None;
        self.overlay = None;
        self.play.overlay = None;
        self.screen = Screen::Drills;
        self.xq_drills = None;
        let d = self.drills.get_or_insert_with(|| {
            Box::new(DrillState::new(crate::drills::Session::open_with(
                self.drills_file.as_deref(),
            )))
        });
        let greeting = d.greeting();
        self.with_drills(|_| greeting);
    }

    /// Let the drill screen handle something, then carry out its reply and
    /// show the session's messages (a failed save, a corrupt progress file).
    fn with_drills(&mut self, f: impl FnOnce(&mut DrillState) -> drill::Reply) {
        let Some(d) = self
            .drills
            .as_deref_mut()
            .filter(|_| self.screen == Screen::Drills)
        else {
            return;
        };
        let reply = f(d);
        let note = d.take_messages();
        match reply {
            drill::Reply::Nothing => {}
            drill::Reply::Clear => self.message = None,
            drill::Reply::Info(t) => self.info(t),
            drill::Reply::Error(t) => self.error(t),
            drill::Reply::Type { text, error } => {
                self.open_input(InputKind::DrillAnswer, &text);
                if let Some(e) = error {
                    self.error(e);
                }
            }
            drill::Reply::Leave => {
                self.screen = Screen::Play;
                self.message = None;
                self.maybe_engine();
            }
        }
        if let Some(n) = note {
            self.error(n);
        }
    }
}

/// Routing to the xiangqi screen (which owns its state, keys, drawing and hit-testing):
/// open it, hand it a key, click, line or engine report, carry out its replies.
impl App {
    /// At start: offer the games kept by the last run (the chess game's question, the
    /// xiangqi game resumed). `from_command_line`: a game was given (`--fen`, `--pgn`), so
    /// the kept chess game is offered to be replaced. `on_xiangqi`: the trainer opens on
    /// the xiangqi screen, so the chess game's question waits until the chess screen is
    /// shown (each screen offers its own game only). A file that cannot be read is named;
    /// none is lost: one that is not a regular file stays where it is (chess) or is moved
    /// aside (xiangqi), and neither is deleted on the way out.
    pub fn offer_kept_games(&mut self, from_command_line: bool, on_xiangqi: bool) {
        if let Some(p) = self.play.resume_path.clone() {
            match play::load_saved(&p) {
                Ok(Some(saved)) if on_xiangqi => {
                    self.play.saved_kept = true;
                    self.kept_chess_game = Some((Box::new(saved), from_command_line));
                }
                Ok(Some(saved)) => self.play.offer_saved_game(saved, from_command_line),
                Ok(None) => {}
                Err(e) => {
                    // A file that could not be read at all (a device, a FIFO) stays where
                    // it is: never deleted, set aside before a game is kept in its place.
                    self.play.saved_kept |= matches!(e, play::SavedGameError::Read(_));
                    self.error(e.to_string());
                }
            }
        }
        if let Some(p) = self.xiangqi.kept_path.clone()
            && let Err(e) = self.xiangqi.resume(&p)
        {
            let aside = crate::rules::fsio::aside_name(&p, "unreadable");
            let moved = std::fs::rename(&p, &aside).map_or(String::new(), |()| {
                format!("; moved aside to {}", aside.display())
            });
            self.add_error(format!(
                "The xiangqi game in progress was not resumed: {e}{moved}"
            ));
        }
        if on_xiangqi {
            self.open_xiangqi();
        }
    }

    /// The chess screen is shown again: the kept chess game waiting for it is offered.
    fn offer_waiting_chess_game(&mut self) {
        if let Some((saved, from_command_line)) = self.kept_chess_game.take() {
            self.play.offer_saved_game(*saved, from_command_line);
        }
    }

    /// Open the xiangqi screen (its game kept from the last time; the chess game is kept).
    pub fn open_xiangqi(&mut self) {
        self.stop_engine();
        self.input = None;
        self.overlay = None;
        self.play.selected = None;
        self.screen = Screen::Xiangqi;
        self.message = None;
        self.with_xiangqi(|x, out| x.maybe_engine(out));
    }

    /// Open the xiangqi drills (loading the puzzles and progress; the chess drill screen's
    /// session is closed, so one session writes the progress file).
    pub fn open_xq_drills(&mut self) {
        self.with_xiangqi(|x, out| x.stop_engine(out));
        self.input = None;
        self.drills = None;
        self.screen = Screen::XqDrills;
        self.message = None;
        let file = self.drills_file.clone();
        self.xq_drills.get_or_insert_with(|| {
            Box::new(XqDrillScreen::new(crate::drills::Session::open_with(
                file.as_deref(),
            )))
        });
        self.with_xq_drills(|_| xq_drill::Reply::Nothing);
    }

    /// Let the xiangqi drill screen handle something, then carry out its reply.
    fn with_xq_drills(&mut self, f: impl FnOnce(&mut XqDrillScreen) -> xq_drill::Reply) {
        let Some(d) = self
            .xq_drills
            .as_deref_mut()
            .filter(|_| self.screen == Screen::XqDrills)
        else {
            return;
        };
        let reply = f(d);
        let note = d.take_messages();
        match reply {
            xq_drill::Reply::Nothing => {}
            xq_drill::Reply::Info(t) if t.is_empty() => self.message = None,
            xq_drill::Reply::Info(t) => self.info(t),
            xq_drill::Reply::Error(t) => self.error(t),
            xq_drill::Reply::Type(text) => self.open_input(InputKind::XqDrillAnswer, &text),
            xq_drill::Reply::Leave => {
                self.screen = Screen::Xiangqi;
                self.message = None;
                self.with_xiangqi(|x, out| x.maybe_engine(out));
            }
        }
        if let Some(n) = note {
            self.error(n);
        }
    }

    /// Let the xiangqi screen handle something, then carry out its replies in order.
    fn with_xiangqi(&mut self, f: impl FnOnce(&mut XiangqiScreen, &mut xiangqi::Replies)) {
        let mut out = xiangqi::Replies::default();
        f(&mut self.xiangqi, &mut out);
        for reply in out {
            match reply {
                xiangqi::Reply::Clear => self.message = None,
                xiangqi::Reply::Info(t) => self.info(t),
                xiangqi::Reply::Error(t) => self.error(t),
                xiangqi::Reply::Type(kind, text) => self.open_input(kind, &text),
                xiangqi::Reply::Engine(e) => self.effects.push(e),
                xiangqi::Reply::SaveSettings(keys) => {
                    self.xiangqi.settings(&mut self.play.config);
                    self.save_settings(keys);
                }
                xiangqi::Reply::Leave => {
                    self.screen = Screen::Play;
                    self.message = None;
                    self.offer_waiting_chess_game();
                    self.maybe_engine();
                }
            }
        }
    }
}

/// The App's own overlays: help and the questions on quitting.
impl App {
    /// Carry out a command of an App overlay's context.
    fn overlay_command(&mut self, o: Overlay, cmd: Cmd) {
        match (o, cmd) {
            (Overlay::Ask(q), Cmd::Yes | Cmd::No) => {
                self.overlay = None;
                match (q, cmd == Cmd::Yes) {
                    (q, true) => self.quit_losing_game(q.game()),
                    (Question::QuitUnkept { game, .. }, false) => match game {
                        GameKind::Chess => self.with_play(|p, _, out| p.ask_save_name(out)),
                        GameKind::Xiangqi => self.with_xiangqi(|x, out| x.ask_save_name(out)),
                    },
                    (Question::Quit { .. }, false) => {}
                }
            }
            (Overlay::Help { scroll }, cmd) if cmd != Cmd::Close => {
                let l = overlay::help_layout(self, self.size);
                self.overlay = Some(Overlay::Help {
                    scroll: super::widgets::scrolled(cmd, scroll, l.page(), l.max_scroll()),
                });
            }
            (Overlay::Ask(_), Cmd::Close) => {
                // Decide later: nothing changes, and the engine plays if it is its turn.
                self.overlay = None;
                self.maybe_engine();
            }
            (_, Cmd::Close) => self.overlay = None,
            _ => {}
        }
    }
}

/// Routing to the review screen (which owns its state, keys, drawing and hit-testing):
/// open it on the game on the board, close it, carry out its reply.
impl App {
    /// Open the review of the game on the board (`v`, or from the end of a game).
    pub fn open_review(&mut self) {
        if self.play.game.is_empty() {
            self.error("There is no move to review yet.");
            return;
        }
        // Blind mode: a missed claim of an earlier ply tells how often a position has stood,
        // and the position can come back, so the review waits for the end of the game, as
        // the marks and "How engines see it" do.
        if self.marks() == Marks::Hidden {
            self.error(format!(
                "The review waits for the end of the game in blind mode ({} shows the marks).",
                keys::key_for(Cmd::Blind)
            ));
            return;
        }
        self.stop_engine();
        self.overlay = None;
        self.input = None;
        self.play.selected = None;
        let p = &self.play;
        self.review.open(&p.game, &p.record, p.flipped, self.size);
        self.screen = Screen::Review;
        self.message = None;
    }

    /// Close the review screen (the engine's part stops if it is still running).
    pub fn close_review(&mut self) {
        self.review.cancel();
        self.screen = Screen::Play;
        self.message = None;
        self.maybe_engine();
    }

    fn review_reply(&mut self, reply: review::Reply) {
        match reply {
            review::Reply::Nothing => {}
            review::Reply::Info(t) => self.info(t),
            review::Reply::Error(t) => self.error(t),
            review::Reply::Leave => self.close_review(),
            review::Reply::ViewPly(ply) => {
                let same = self.review.is_of(&self.play.game, &self.play.record);
                self.close_review();
                if same {
                    self.play.view = (ply < self.play.game.len()).then_some(ply);
                    let at = if ply == 0 {
                        "at the start position".to_string()
                    } else {
                        self.play.game.place_label(ply)
                    };
                    self.info(format!(
                        "Viewing the game {at} ({} goes back to the live position).",
                        keys::key_in(Ctx::Play, Cmd::HistEnd)
                    ));
                }
            }
            review::Reply::PuzzlesAdded(summary) => {
                // The drill screen reloads its puzzles next time it opens.
                self.drills = None;
                self.info(summary);
            }
        }
    }
}

/// Routing to the game screen (which owns its state, keys, overlays, drawing
/// and hit-testing): hand it what happened, carry out its replies.
impl App {
    /// What the game screen is told of the terminal and the App's switches.
    pub fn play_env(&self) -> Env {
        Env {
            size: self.size,
            ascii: self.ascii,
            engines_panel: self.engines_panel,
            frame: self.frame,
            shown: self.screen == Screen::Play,
        }
    }

    /// Let the game screen handle something, then carry out its replies in order.
    pub(crate) fn with_play<T>(&mut self, f: impl FnOnce(&mut Play, &Env, &mut Replies) -> T) -> T {
        let env = self.play_env();
        let mut out = Replies::default();
        let result = f(&mut self.play, &env, &mut out);
        for reply in out {
            match reply {
                Reply::Info(t) => self.info(t),
                Reply::Error(t) => self.error(t),
                Reply::Clear => self.message = None,
                Reply::Engine(e) => self.effects.push(e),
                Reply::Type(kind, text) => self.open_input(kind, &text),
                Reply::SaveSettings(keys) => self.save_settings(keys),
                Reply::Review => self.open_review(),
            }
        }
        result
    }

    /// Start: ask the engine to move if it is its turn.
    pub fn start(&mut self) {
        if self.screen == Screen::Xiangqi {
            return self.with_xiangqi(|x, out| x.maybe_engine(out));
        }
        self.with_play(|p, _, out| p.start(out));
    }

    /// Replace the game.
    pub fn new_game(&mut self, game: Game) {
        self.with_play(|p, _, out| p.new_game(game, out));
    }

    /// Open a PGN file: its game, or the list of its games to choose from.
    pub fn load_pgn(&mut self, path: &std::path::Path) {
        self.with_play(|p, _, out| p.load_pgn(path, out));
    }

    /// Ask the engine to move if the game screen is shown and it is the engine's turn.
    pub(crate) fn maybe_engine(&mut self) {
        if self.screen == Screen::Play {
            self.with_play(|p, _, out| p.maybe_engine(out));
        }
    }

    /// Stop the engine's search for the game, if one runs.
    pub(crate) fn stop_engine(&mut self) {
        self.with_play(|p, _, out| p.stop_engine(out));
    }
}

/// What the screen shown may reveal, and so whether the panel that could reveal it shows.
impl App {
    /// What the screen shown may reveal: the one place that decides. Play
    /// hides the marks in blind mode until the game is over, a drill until
    /// its answer is given.
    pub fn marks(&self) -> Marks {
        match (self.screen, &self.drills) {
            (Screen::Play, _) => self.play.marks(),
            (Screen::Drills, Some(d)) => d.marks(),
            (
                Screen::Euwe
                | Screen::Drills
                | Screen::Review
                | Screen::Xiangqi
                | Screen::XqDrills
                | Screen::XqReview,
                _,
            ) => Marks::Shown,
        }
    }

    /// Whether the panel "How engines see it" is drawn: switched on, and the marks shown
    /// (the rules core's occurrence count is an answer blind mode keeps back).
    pub fn engines_panel_shown(&self) -> bool {
        self.engines_panel && self.marks() == Marks::Shown
    }
}
