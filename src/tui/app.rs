//! App state, the [`Action`] enum, and `update`. No terminal I/O here: the run
//! loop turns terminal events and engine reports into actions, and carries out
//! the [`Effect`]s the app asks for (engine requests, quitting).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use shakmaty::{Chess, Move};

use crate::rules::Game;

use super::config::{Config, Setting};
use super::drill::{DrillState, Reply};
use super::engine_thread::{Limits, Report};
use super::euwe::{self, EuweState};
use super::keys::{self, Cmd, Ctx};
use super::line_edit::LineEdit;
use super::review::{self, ReviewScreen};
use super::widgets::Marks;

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

/// What the app asks the run loop to do.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Think {
        id: u64,
        start: Chess,
        moves: Vec<Move>,
        limits: Limits,
    },
    Stop,
    NewGame,
    SetHash(usize),
    SetContempt(i32),
    Quit,
}

/// Which screen is shown (each screen's state lives in its own field of [`App`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Play,
    Euwe,
    Drills,
    Review,
}

/// What a typed line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    Move,
    ClaimMove,
    Fen,
    LoadPgn,
    SavePgn,
    /// A typed drill answer.
    DrillAnswer,
}

impl InputKind {
    pub fn prompt(self) -> &'static str {
        match self {
            InputKind::Move => "Move (SAN or UCI)",
            InputKind::ClaimMove => "Intended move for the claim",
            InputKind::Fen => "FEN",
            InputKind::LoadPgn => "Load PGN file",
            InputKind::SavePgn => "Save PGN as",
            InputKind::DrillAnswer => "Your answer",
        }
    }
}

/// The line being typed: what it is for, and the line editor holding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub kind: InputKind,
    pub line: LineEdit,
}

impl Input {
    /// A prompt for `kind` holding `text`, the cursor at its end.
    pub fn new(kind: InputKind, text: &str) -> Input {
        Input {
            kind,
            line: LineEdit::new(text),
        }
    }

    /// What has been typed.
    pub fn text(&self) -> &str {
        self.line.text()
    }
}

pub use super::overlay::{Overlay, Question};
use super::play::Play;

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
    pub overlay: Option<Overlay>,
    pub input: Option<Input>,
    pub message: Option<Message>,
    pub size: Rect,
    pub ascii: bool,
    pub frame: u64,
    pub effects: Vec<Effect>,
    pub quit: bool,
    /// Where the game in progress is kept (None: not kept, as in tests).
    pub resume_path: Option<PathBuf>,
    /// The puzzles from your games (`from-your-games.toml` in the data directory; `None` in
    /// tests unless they give one): the review screen adds to it, the drill screen reads it.
    pub drills_file: Option<PathBuf>,
    /// A saved game in progress that was neither resumed nor refused: kept on
    /// disk (set aside if another game has to be saved).
    pub saved_kept: bool,
    /// The player agreed to quit losing a game in progress that could not be
    /// kept (so nothing more is said about it on the way out).
    pub loss_accepted: bool,
    /// The last PGN saved: where, and its text (a game that cannot be kept
    /// but was saved so is not lost; the quit question says where it is).
    pub saved_pgn: Option<(PathBuf, String)>,
    /// The settings as read at start (the trainer's changes are merged in
    /// by [`App::current_config`]).
    pub config: Config,
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
            overlay: None,
            input: None,
            message: None,
            size: Rect::new(0, 0, 120, 40),
            ascii: cfg.ascii,
            frame: 0,
            effects: Vec::new(),
            quit: false,
            resume_path: None,
            drills_file: None,
            saved_kept: false,
            loss_accepted: false,
            saved_pgn: None,
            config: cfg.clone(),
            config_path: None,
            engines_panel: false,
        }
    }

    /// The settings now: as read, with the changes made in the trainer.
    pub fn current_config(&self) -> Config {
        let p = &self.play;
        let (base, inc) = p.clock_setting;
        Config {
            human: p.players,
            level: p.level,
            hash_mb: p.hash_mb,
            contempt: p.contempt,
            clock_base_secs: base,
            clock_inc_secs: inc,
            blind: p.marks == super::render::Marks::Hidden,
            ..self.config.clone()
        }
    }

    /// Save the settings `keys` (just changed) to the config file. When the
    /// file cannot be written or is left alone because it does not parse,
    /// the status line says so after what changed.
    pub(crate) fn save_settings(&mut self, keys: &[Setting]) {
        let Some(path) = self.config_path.clone() else {
            return;
        };
        let cfg = self.current_config();
        if let Err(e) = super::config::save_changes(&path, &cfg, keys) {
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
        let too_small = super::render::layout(self.size).is_none();
        let screen = self.screen;
        let message = self.message.clone();
        match action {
            Action::Key(k) if too_small => self.on_key_too_small(k),
            Action::Mouse(_) if too_small => {}
            Action::Key(k) => self.on_key(k),
            Action::Mouse(m) => self.on_mouse(m),
            Action::Resize(w, h) => self.size = Rect::new(0, 0, w, h),
            Action::Tick(now) => self.on_tick(now),
            Action::Engine(r) => self.on_report(r),
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
        self.play_tick(now);
        self.review.tick(self.size);
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

    /// The key-table context of the screen shown.
    pub fn screen_ctx(&self) -> Ctx {
        match (self.screen, &self.drills) {
            (Screen::Play, _) => Ctx::Play,
            (Screen::Euwe, _) => Ctx::Euwe,
            (Screen::Drills, Some(d)) => d.ctx(),
            (Screen::Drills, None) => Ctx::DrillThemes,
            (Screen::Review, _) => Ctx::Review,
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
            self.overlay_key(o, &k);
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
            Screen::Play => self.play_command(cmd),
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
                let tags = self.pgn_tags();
                let reply = self
                    .review
                    .add_selected_puzzle(self.drills_file.as_deref(), &tags);
                self.review_reply(reply);
            }
            Screen::Review => {
                let reply = self.review.command(cmd, self.size);
                self.review_reply(reply);
            }
        }
    }

    /// Back on the game screen: withdraw a claim, drop a selection, leave a past position.
    fn play_back(&mut self) {
        if self.play.claim_pending.is_some() {
            self.cancel_claim();
            self.info("Claim withdrawn.");
        } else if self.play.selected.is_some() {
            self.play.selected = None;
        } else if self.play.view.is_some() {
            self.play.view = None;
            self.info("Back to the position now.");
        } else {
            self.info(format!("Press {} to quit.", keys::key_for(Cmd::Quit)));
        }
    }

    /// Quit, keeping the game in progress; if it cannot be kept (nowhere to
    /// keep it, or the file cannot be written), ask first: a game is never
    /// lost without the player's word. `q` on the question is a yes.
    fn request_quit(&mut self) {
        match &self.overlay {
            Some(Overlay::Ask(Question::Quit)) => return self.do_quit(),
            Some(Overlay::Ask(Question::QuitUnkept { .. })) => return self.quit_losing_game(),
            _ => {}
        }
        if self.game_in_progress() && self.resume_path.is_none() {
            self.overlay = Some(Overlay::Ask(Question::Quit));
            return;
        }
        match self.keep_game_in_progress() {
            Ok(()) => self.do_quit(),
            Err(e) => {
                let pgn = self.pgn_text();
                let saved_as = self
                    .saved_pgn
                    .as_ref()
                    .filter(|(_, text)| *text == pgn)
                    .map(|(p, _)| p.clone());
                self.overlay = Some(Overlay::Ask(Question::QuitUnkept {
                    reason: e.to_string(),
                    saved_as,
                }));
            }
        }
    }

    /// Yes to quitting without the game in progress kept.
    pub(crate) fn quit_losing_game(&mut self) {
        self.loss_accepted = true;
        self.do_quit();
    }

    /// Quit (the game in progress was kept, or the player agreed to lose it;
    /// the run loop keeps it once more on the way out, as for a signal).
    pub(crate) fn do_quit(&mut self) {
        self.stop_engine();
        self.review.cancel();
        self.quit = true;
        self.effects.push(Effect::Quit);
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
                if kind == InputKind::ClaimMove {
                    self.info(format!(
                        "Make your intended move on the board, or {} to withdraw the claim.",
                        keys::key_for(Cmd::Back)
                    ));
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
            _ => self.play_submit(input.kind, text),
        }
    }

    fn on_mouse(&mut self, m: MouseEvent) {
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {}
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown
                if matches!(
                    self.overlay,
                    Some(Overlay::Help { .. } | Overlay::Verdict { .. } | Overlay::PickGame(_))
                ) =>
            {
                let cmd = if m.kind == MouseEventKind::ScrollUp {
                    Cmd::ScrollUp
                } else {
                    Cmd::ScrollDown
                };
                if let Some(o) = self.overlay.clone() {
                    self.overlay_command(o, cmd);
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
            MouseEventKind::ScrollUp if self.screen == Screen::Review => {
                return self.screen_command(Cmd::Up);
            }
            MouseEventKind::ScrollDown if self.screen == Screen::Review => {
                return self.screen_command(Cmd::Down);
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
        if let Some(o) = self.overlay.clone() {
            self.overlay_click(o, x, y);
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
        if self.screen == Screen::Play {
            self.play_click(x, y);
        }
        if self.screen == Screen::Review {
            self.review.click(self.size, x, y);
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
        self.screen = Screen::Drills;
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
    fn with_drills(&mut self, f: impl FnOnce(&mut DrillState) -> Reply) {
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
            Reply::Nothing => {}
            Reply::Clear => self.message = None,
            Reply::Info(t) => self.info(t),
            Reply::Error(t) => self.error(t),
            Reply::Type { text, error } => {
                self.open_input(InputKind::DrillAnswer, &text);
                if let Some(e) = error {
                    self.error(e);
                }
            }
            Reply::Leave => {
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

/// What the screen shown may reveal, and so whether the panel that could reveal it shows.
impl App {
    /// What the screen shown may reveal: the one place that decides. Play
    /// hides the marks in blind mode until the game is over, a drill until
    /// its answer is given.
    pub fn marks(&self) -> Marks {
        match (self.screen, &self.drills) {
            (Screen::Play, _) if self.play.game.is_over() => Marks::Shown,
            (Screen::Play, _) => self.play.marks,
            (Screen::Drills, Some(d)) => d.marks(),
            (Screen::Euwe | Screen::Drills | Screen::Review, _) => Marks::Shown,
        }
    }

    /// Whether the panel "How engines see it" is drawn: switched on, and the marks shown
    /// (the rules core's occurrence count is an answer blind mode keeps back).
    pub fn engines_panel_shown(&self) -> bool {
        self.engines_panel && self.marks() == Marks::Shown
    }
}
