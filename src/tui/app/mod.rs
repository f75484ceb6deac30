//! App state, the [`Action`] enum, and `update`. No terminal I/O here: the run
//! loop turns terminal events and engine reports into actions, and carries out
//! the [`Effect`]s the app asks for (engine requests); `quit` ends the loop.
//!
//! The App routes: keys go to the input line, else the overlay on top (the
//! App's own — help, the quit questions — or the game screen's), else the
//! screen shown. Each screen owns its state, keys, drawing and hit-testing
//! ([`Component`], the one screen contract) and answers with [`Request`]s,
//! which the App carries out in one place ([`App::carry_out`]): the message
//! line, the input line, engine requests, saving settings, switching screens.
//!
//! The router's own parts are its children: [`render`] (the frame around the
//! screen shown: title, message and status rows; then the screen draws itself)
//! and [`overlay`] (help and the questions on quitting, over any screen). The
//! screens (play, Euwe, drills, review) use only the leaf modules (board widget,
//! key table, line editor, prompt, theme, config, widgets) and never each other
//! or the App: `tests/layers.rs` checks it.

pub mod overlay;
pub mod render;
mod review_route;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

use crate::drills::GameKind;
use crate::rules::Game;

use super::chess::Play;
use super::chess::drill::DrillState;
use super::chess::euwe::EuweState;
use super::chess::review::ReviewScreen;
use super::config::{Config, Setting};
use super::engine_thread::Report;
use super::game::KeptGame;
use super::game::kept::{self, Keep, SavedGame};
use super::game::scenario::{self, Chosen};
use super::keys::{self, Cmd, Ctx};
use super::screen::{Component, Env, Request, Requests};
use super::widgets::Marks;
use super::xiangqi::XiangqiScreen;
use super::xiangqi::drill::XqDrillScreen;
use super::xiangqi::review::XqReviewScreen;

pub use super::engine_thread::Effect;
pub use super::prompt::InputKind;
pub use super::screen::{Input, Screen};
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

/// Every screen (time passes for each, in this order).
const SCREENS: [Screen; 7] = [
    Screen::Euwe,
    Screen::Play,
    Screen::Xiangqi,
    Screen::Review,
    Screen::XqReview,
    Screen::Drills,
    Screen::XqDrills,
];

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
    /// The game screen that last asked the engine thread something: the one an engine error
    /// (a request that failed) is reported to.
    pub engine_asked_by: Screen,
    pub quit: bool,
    /// The puzzles from your games (`from-your-games.toml` in the data directory; `None` in
    /// tests unless they give one): the review screen adds to it, the drill screen reads it.
    pub drills_file: Option<PathBuf>,
    /// The games (chess's, xiangqi's) the player agreed to quit losing because they
    /// could not be kept (so nothing more is said about them on the way out).
    pub loss_accepted: Vec<GameKind>,
    /// The kept game found at start of the game whose screen is not shown (and whether a
    /// game was given on the command line): offered when its screen is shown, not over the
    /// other game's, where a key meant for that game would answer it.
    pub kept_waiting: Option<(Box<SavedGame>, bool)>,
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
            engine_asked_by: Screen::Play,
            quit: false,
            drills_file: None,
            loss_accepted: Vec::new(),
            kept_waiting: None,
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
            Action::Engine(r) if self.report_screen(&r) == Screen::Xiangqi => {
                self.with_xiangqi(|x, env, out| x.on_report(r, env.ascii, out))
            }
            Action::Engine(r) => self.with_play(|p, _, out| p.on_report(r, out)),
        }
        self.play.note_clocks();
        self.tell_scenario();
        // A message belongs to the screen it was given on.
        if self.screen != screen && self.message == message {
            self.message = None;
        }
    }

    /// The game screen an engine report goes to: a search's to the screen whose search it is
    /// (by its moves, else by its id), an error to the game screen that last asked the engine
    /// something ([`App::engine_asked_by`]), whose request failed.
    pub(crate) fn report_screen(&self, r: &Report) -> Screen {
        let xiangqi = match (r.is_xiangqi(), r.id()) {
            (Some(x), _) => x,
            (None, Some(id)) => self.xiangqi.thinking.as_ref().map(|t| t.id) == Some(id),
            (None, None) => self.engine_asked_by == Screen::Xiangqi,
        };
        if xiangqi {
            Screen::Xiangqi
        } else {
            Screen::Play
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

    /// Time passes for every screen there is (the games' clocks run while another screen
    /// is shown; each screen knows whether it is shown).
    fn on_tick(&mut self, now: Instant) {
        self.frame = self.frame.wrapping_add(1);
        for id in SCREENS {
            self.with_screen(id, |c, env, out| c.tick(now, env, out));
        }
    }

    /// The screen `id`, if it is open.
    pub fn component(&self, id: Screen) -> Option<&dyn Component> {
        match id {
            Screen::Play => Some(&self.play),
            Screen::Euwe => Some(&*self.euwe),
            Screen::Drills => self.drills.as_deref().map(|d| d as &dyn Component),
            Screen::Review => Some(&self.review),
            Screen::Xiangqi => Some(&*self.xiangqi),
            Screen::XqDrills => self.xq_drills.as_deref().map(|d| d as &dyn Component),
            Screen::XqReview => Some(&self.xq_review),
        }
    }

    fn component_mut(&mut self, id: Screen) -> Option<&mut dyn Component> {
        match id {
            Screen::Play => Some(&mut self.play),
            Screen::Euwe => Some(&mut *self.euwe),
            Screen::Drills => self.drills.as_deref_mut().map(|d| d as &mut dyn Component),
            Screen::Review => Some(&mut self.review),
            Screen::Xiangqi => Some(&mut *self.xiangqi),
            Screen::XqDrills => self
                .xq_drills
                .as_deref_mut()
                .map(|d| d as &mut dyn Component),
            Screen::XqReview => Some(&mut self.xq_review),
        }
    }

    /// What the screen `id` is told of the terminal and the App's switches.
    pub fn env(&self, id: Screen) -> Env {
        Env {
            size: self.size,
            ascii: self.ascii,
            engines_panel: self.engines_panel,
            frame: self.frame,
            shown: self.screen == id,
        }
    }

    /// Let the screen `id` handle something, then carry out its requests.
    pub(crate) fn with_screen(
        &mut self,
        id: Screen,
        f: impl FnOnce(&mut dyn Component, &Env, &mut Requests),
    ) {
        let env = self.env(id);
        let mut out = Requests::default();
        let Some(c) = self.component_mut(id) else {
            return;
        };
        f(c, &env, &mut out);
        let note = c.take_note();
        self.carry_out(id, out);
        if let Some(n) = note {
            self.error(n);
        }
    }

    /// Let the game screen handle something, then carry out its requests in order.
    pub(crate) fn with_play<T>(
        &mut self,
        f: impl FnOnce(&mut Play, &Env, &mut Requests) -> T,
    ) -> T {
        let env = self.env(Screen::Play);
        let mut out = Requests::default();
        let result = f(&mut self.play, &env, &mut out);
        self.carry_out(Screen::Play, out);
        result
    }

    /// Let the xiangqi screen handle something, then carry out its requests in order.
    pub(crate) fn with_xiangqi<T>(
        &mut self,
        f: impl FnOnce(&mut XiangqiScreen, &Env, &mut Requests) -> T,
    ) -> T {
        let env = self.env(Screen::Xiangqi);
        let mut out = Requests::default();
        let result = f(&mut self.xiangqi, &env, &mut out);
        self.carry_out(Screen::Xiangqi, out);
        result
    }

    /// Carry out the requests of the screen `from`, in order: the one place a screen's
    /// requests are carried out.
    fn carry_out(&mut self, from: Screen, out: Requests) {
        for r in out {
            match r {
                Request::Info(t) => self.info(t),
                Request::Error(t) => self.error(t),
                Request::Clear => self.message = None,
                Request::Engine(e) => {
                    if matches!(from, Screen::Play | Screen::Xiangqi) {
                        self.engine_asked_by = from;
                    }
                    self.effects.push(e);
                }
                Request::Type(kind, text) => {
                    let env = self.env(from);
                    let prompt = self
                        .component(from)
                        .map_or(kind.prompt(), |c| c.prompt(kind, &env));
                    self.input = Some(Input::new(kind, from, prompt, &text));
                }
                Request::SaveSettings(keys) => {
                    let mut cfg = self.play.config.clone();
                    if let Some(c) = self.component(from) {
                        c.settings(&mut cfg);
                    }
                    self.play.config = cfg;
                    self.save_settings(keys);
                }
                Request::Review => self.open_review(),
                Request::Leave => self.leave(from),
                Request::ViewPly(ply) => self.view_reviewed_ply(from, ply),
                Request::PuzzlesAdded(summary) => {
                    // The game's drill screen reloads its puzzles next time it opens.
                    if from == Screen::XqReview {
                        self.xq_drills = None;
                    } else {
                        self.drills = None;
                    }
                    self.info(summary);
                }
                Request::PlayScenario(chosen) => self.play_scenario(chosen),
            }
        }
    }

    /// Play a scenario from a real game on its game's screen (which asks first if that
    /// would lose its game in progress): the one path for both games.
    fn play_scenario(&mut self, chosen: Chosen) {
        self.input = None;
        self.overlay = None;
        self.message = None;
        match chosen.0.game_kind {
            GameKind::Chess => {
                self.screen = Screen::Play;
                self.with_play(|p, _, out| p.play_scenario(chosen, out));
            }
            GameKind::Xiangqi => {
                self.screen = Screen::Xiangqi;
                self.with_xiangqi(|x, _, out| x.play_scenario(chosen, out));
            }
        }
    }

    /// A scenario's game that ended or was left on the screen shown: the real game's
    /// story, after what the screen said (once; [`scenario::story`]).
    fn tell_scenario(&mut self) {
        let out = match self.screen {
            Screen::Play => {
                let over = self.play.game.is_over();
                scenario::story(&mut self.play.scenario, over)
            }
            Screen::Xiangqi => {
                let over = self.xiangqi.is_over();
                scenario::story(&mut self.xiangqi.scenario, over)
            }
            _ => Requests::none(),
        };
        for r in out {
            if let Request::Info(story) = r {
                let text = match &self.message {
                    Some(m) => format!("{} {story}", m.text),
                    None => story,
                };
                self.info(text);
            }
        }
    }

    /// Close the screen `from`: back to the game screen it was opened from.
    fn leave(&mut self, from: Screen) {
        if self.screen != from {
            return;
        }
        match from {
            Screen::Play => {}
            Screen::Review | Screen::XqReview => self.close_review(from),
            Screen::XqDrills => {
                self.screen = Screen::Xiangqi;
                self.message = None;
                self.maybe_engine();
            }
            Screen::Xiangqi => {
                self.screen = Screen::Play;
                self.message = None;
                self.offer_waiting_kept_game(GameKind::Chess);
                self.maybe_engine();
            }
            Screen::Euwe | Screen::Drills => {
                self.screen = Screen::Play;
                self.message = None;
                self.maybe_engine();
            }
        }
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
        self.screen_ctx()
    }

    /// The key-table context of the screen that has the keys (its panel's, if one is up).
    pub fn screen_ctx(&self) -> Ctx {
        self.component(self.keys_owner())
            .map_or(Ctx::Global, |c| c.ctx())
    }

    /// The screen that has the keys: the one shown, unless a game screen asks a question
    /// over it (saving a game on quitting asks about overwriting a file).
    pub fn keys_owner(&self) -> Screen {
        SCREENS
            .into_iter()
            .find(|&id| id != self.screen && self.component(id).is_some_and(|c| c.asks()))
            .unwrap_or(self.screen)
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
        let mut taken = false;
        self.with_screen(self.keys_owner(), |c, env, out| taken = c.key(&k, env, out));
        if taken {
            return;
        }
        if let Some(cmd) = keys::lookup(self.ctx(), &k) {
            self.run(cmd);
        }
    }

    /// Carry out a command from the key table (also used by mouse clicks):
    /// the App's own commands here (help, quitting, going to another screen), the
    /// rest to the screen shown, which ignores those not its own.
    pub fn run(&mut self, cmd: Cmd) {
        match cmd {
            // The help opens at the section of the screen shown.
            Cmd::Help => {
                let scroll = overlay::help_start(self, self.size);
                self.overlay = Some(Overlay::Help { scroll });
            }
            // The judge's glossary is a section of the help.
            Cmd::Glossary => {
                let scroll = overlay::help_scroll_to(self, self.size, overlay::GLOSSARY_TITLE);
                self.overlay = Some(Overlay::Help { scroll });
            }
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
            Cmd::Review => self.open_review(),
            Cmd::Xiangqi if self.screen != Screen::Xiangqi => self.open_xiangqi(),
            cmd => self.screen_command(cmd),
        }
    }

    /// A command for the screen shown, and what comes of its requests.
    fn screen_command(&mut self, cmd: Cmd) {
        self.with_screen(self.keys_owner(), |c, env, out| c.command(cmd, env, out));
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
        for game in [GameKind::Chess, GameKind::Xiangqi] {
            if self.loss_accepted.contains(&game) {
                continue;
            }
            let g = self.kept_game(game);
            if g.game_in_progress() && !g.can_keep() {
                return Some(Question::Quit { game });
            }
            if g.finished_unsaved() {
                return Some(Question::QuitFinished { game });
            }
            if let Err(e) = g.keep_game() {
                return Some(Question::QuitUnkept {
                    game,
                    reason: e.to_string(),
                    saved_as: g.saved_file(),
                });
            }
        }
        None
    }

    /// The game screen of `game`, as quitting sees it.
    fn kept_game(&mut self, game: GameKind) -> &mut dyn KeptGame {
        match game {
            GameKind::Chess => &mut self.play,
            GameKind::Xiangqi => &mut *self.xiangqi,
        }
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

    fn on_input_key(&mut self, k: KeyEvent) {
        let Some(input) = &mut self.input else { return };
        match keys::lookup(Ctx::Input, &k) {
            Some(Cmd::Close) => {
                let (kind, owner) = (input.kind, input.owner);
                self.input = None;
                self.with_screen(owner, |c, env, out| c.input_closed(kind, env, out));
            }
            Some(Cmd::Edit(e)) => input.line.edit(e),
            Some(Cmd::Submit) => {
                let input = self.input.take().expect("checked");
                let text = input.text().trim().to_string();
                self.with_screen(input.owner, |c, env, out| {
                    c.submit(input.kind, &text, env, out)
                });
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

    /// The mouse: the App's overlay first (help scrolls, a click closes it; a question
    /// waits for its answer), else the screen that has the keys.
    fn on_mouse(&mut self, m: MouseEvent) {
        let (x, y) = (m.column, m.row);
        let up = match m.kind {
            MouseEventKind::Down(MouseButton::Left) => None,
            MouseEventKind::ScrollUp => Some(true),
            MouseEventKind::ScrollDown => Some(false),
            _ => return,
        };
        if let Some(o) = self.overlay.clone() {
            match (up, o) {
                (Some(up), o @ Overlay::Help { .. }) => {
                    let cmd = if up { Cmd::ScrollUp } else { Cmd::ScrollDown };
                    self.overlay_command(o, cmd);
                }
                // Help has no buttons: a click closes it.
                (None, Overlay::Help { .. }) => self.overlay = None,
                _ => {}
            }
            return;
        }
        self.with_screen(self.keys_owner(), |c, env, out| match up {
            Some(up) => c.wheel(up, x, y, env, out),
            None => c.click(x, y, env, out),
        });
    }
}

/// Routing to the drill screen (which owns its state, keys, drawing and
/// hit-testing): open it.
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
        self.with_screen(Screen::Drills, |_, _, out| out.extend(greeting));
    }
}

/// Routing to the xiangqi screen (which owns its state, keys, drawing and hit-testing):
/// offer its kept game, open it and its drills.
impl App {
    /// At start: offer the games kept by the last run, both by one path ([`kept::load`],
    /// the same question). `from_command_line`: a game was given (`--fen`, `--pgn`) to the
    /// screen the trainer opens on, so its kept game is offered to be replaced.
    /// `on_xiangqi`: the trainer opens on the xiangqi screen. The other screen's game waits
    /// until its screen is shown (each screen offers its own game only). A file that cannot
    /// be read is named; none is lost: one that is not a regular file stays where it is, one
    /// that is not a kept game is moved aside, and neither is deleted on the way out.
    pub fn offer_kept_games(&mut self, from_command_line: bool, on_xiangqi: bool) {
        let mut problems = Vec::new();
        for game in [GameKind::Chess, GameKind::Xiangqi] {
            let shown = (game == GameKind::Xiangqi) == on_xiangqi;
            let found = match game {
                GameKind::Chess => self.play.resume_path.as_deref().map(kept::load::<Play>),
                GameKind::Xiangqi => {
                    (self.xiangqi.kept_path.as_deref()).map(kept::load::<XiangqiScreen>)
                }
            };
            match found {
                Some(Ok(Some(saved))) => {
                    self.set_unanswered(game, true);
                    let offer = (Box::new(saved), from_command_line && shown);
                    if shown {
                        self.offer_kept_game(offer);
                    } else {
                        self.kept_waiting = Some(offer);
                    }
                }
                Some(Err(e)) => {
                    // A file that could not be read at all (a device, a FIFO) stays where
                    // it is: never deleted, set aside before a game is kept in its place.
                    if matches!(e, kept::SavedGameError::Read(_)) {
                        self.set_unanswered(game, true);
                    }
                    problems.push(e.to_string());
                }
                _ => {}
            }
        }
        if on_xiangqi {
            self.open_xiangqi();
        }
        // Said on the screen shown (opening it clears the message line).
        for p in problems {
            self.add_error(p);
        }
    }

    /// Whether the kept file of `game` holds a game the player has not answered for.
    fn set_unanswered(&mut self, game: GameKind, unanswered: bool) {
        match game {
            GameKind::Chess => *self.play.unanswered() = unanswered,
            GameKind::Xiangqi => *self.xiangqi.unanswered() = unanswered,
        }
    }

    /// Ask about the kept game on its screen (resume it? replace it with the game given?).
    fn offer_kept_game(&mut self, (saved, given): (Box<SavedGame>, bool)) {
        match saved.game {
            GameKind::Chess => self.play.offer_saved_game(*saved, given),
            GameKind::Xiangqi => self.xiangqi.offer_kept(*saved, given),
        }
    }

    /// The screen of `game` is shown: its kept game waiting for it is offered.
    fn offer_waiting_kept_game(&mut self, game: GameKind) {
        if let Some(offer) = self.kept_waiting.take_if(|(s, _)| s.game == game) {
            self.offer_kept_game(offer);
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
        self.offer_waiting_kept_game(GameKind::Xiangqi);
        self.with_xiangqi(|x, _, out| x.maybe_engine(out));
    }

    /// Open the xiangqi drills (loading the puzzles and progress; the chess drill screen's
    /// session is closed, so one session writes the progress file).
    pub fn open_xq_drills(&mut self) {
        self.with_xiangqi(|x, _, out| x.stop_engine(out));
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
        self.with_screen(Screen::XqDrills, |_, _, _| {});
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
                    // Saved instead: its screen asks the questions of saving, over the
                    // screen shown.
                    (
                        Question::QuitUnkept { game, .. } | Question::QuitFinished { game },
                        false,
                    ) => {
                        let mut out = Requests::default();
                        self.kept_game(game).ask_file_name(&mut out);
                        let screen = match game {
                            GameKind::Chess => Screen::Play,
                            GameKind::Xiangqi => Screen::Xiangqi,
                        };
                        self.carry_out(screen, out);
                    }
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

/// Routing to the game screen (which owns its state, keys, overlays, drawing
/// and hit-testing): start, replace or load its game, ask or stop its engine.
impl App {
    /// Start: ask the engine to move if it is its turn.
    pub fn start(&mut self) {
        if self.screen == Screen::Xiangqi {
            return self.with_xiangqi(|x, _, out| x.maybe_engine(out));
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

    /// Ask the engine to move if a game screen is shown and it is the engine's turn.
    pub(crate) fn maybe_engine(&mut self) {
        match self.screen {
            Screen::Play => self.with_play(|p, _, out| p.maybe_engine(out)),
            Screen::Xiangqi => self.with_xiangqi(|x, _, out| x.maybe_engine(out)),
            _ => {}
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
        self.component(self.screen)
            .map_or(Marks::Shown, |c| c.marks())
    }

    /// Whether the panel "How engines see it" is drawn: switched on, and the marks shown
    /// (the rules core's occurrence count is an answer blind mode keeps back).
    pub fn engines_panel_shown(&self) -> bool {
        self.engines_panel && self.marks() == Marks::Shown
    }
}
