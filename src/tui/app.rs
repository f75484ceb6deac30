//! App state, the [`Action`] enum, and `update`. No terminal I/O here: the run
//! loop turns terminal events and engine reports into actions, and carries out
//! the [`Effect`]s the app asks for (engine requests, quitting).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Square};

use crate::rules::claim::{self, Claim};
use crate::rules::{Game, MoveNumber, PlayError, color_name, ending};

use super::config::Config;
use super::drill::{self, DrillState};
use super::engine_thread::{Info, Limits, Report};
use super::euwe::EuweState;
use super::keys::{self, Cmd, Ctx};
use super::render;

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

/// The line being typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub kind: InputKind,
    pub text: String,
}

pub use super::overlay::{Overlay, Question};

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

/// Who moves for a side. In the config and the saved game it is written as
/// the side the human plays: "white", "black", "both" or "none".
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Players {
    #[serde(rename = "white")]
    HumanWhite,
    #[serde(rename = "black")]
    HumanBlack,
    #[serde(rename = "both")]
    TwoHumans,
    #[serde(rename = "none")]
    Engines,
}

impl Players {
    pub fn is_human(self, c: Color) -> bool {
        match self {
            Players::HumanWhite => c == Color::White,
            Players::HumanBlack => c == Color::Black,
            Players::TwoHumans => true,
            Players::Engines => false,
        }
    }
    fn next(self) -> Players {
        match self {
            Players::HumanWhite => Players::HumanBlack,
            Players::HumanBlack => Players::TwoHumans,
            Players::TwoHumans => Players::Engines,
            Players::Engines => Players::HumanWhite,
        }
    }
    pub fn describe(self) -> &'static str {
        match self {
            Players::HumanWhite => "You (White) vs engine",
            Players::HumanBlack => "Engine vs you (Black)",
            Players::TwoHumans => "Two humans",
            Players::Engines => "Engine vs engine",
        }
    }
}

/// Chess clocks: base + increment, flag fall.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub base: Duration,
    pub inc: Duration,
    /// Time left for White and Black when their clock last stopped.
    pub left: [Duration; 2],
    /// Whose clock runs, since when.
    pub running: Option<(Color, Instant)>,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clock {
    pub fn new(base: Duration, inc: Duration) -> Clock {
        Clock {
            base,
            inc,
            left: [base, base],
            running: None,
        }
    }
    pub fn remaining(&self, c: Color, now: Instant) -> Duration {
        let left = self.left[idx(c)];
        match self.running {
            Some((r, since)) if r == c => left.saturating_sub(now.saturating_duration_since(since)),
            _ => left,
        }
    }
    /// `c` completed a move: stop its clock, add the increment, start the other.
    pub fn moved(&mut self, c: Color, now: Instant) {
        let left = self.remaining(c, now);
        self.left[idx(c)] = left + self.inc;
        self.running = Some((!c, now));
    }
    pub fn stop(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            self.left[idx(c)] = self.remaining(c, now);
        }
        self.running = None;
    }
}

/// Clock presets cycled by the clocks key: (base s, inc s).
pub const CLOCK_PRESETS: [(u64, u64); 4] = [(0, 0), (300, 3), (180, 2), (60, 0)];
/// Hash sizes cycled by the hash key (MiB).
pub const HASH_STEPS_MB: [usize; 4] = [16, 64, 256, 1024];
/// Contempt values cycled by the contempt key (centipawns).
pub const CONTEMPT_STEPS_CP: [i32; 5] = [0, 25, 50, 100, -50];

/// A game in progress kept between runs.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedGame {
    pub start_fen: String,
    pub moves: Vec<String>,
    pub human: Players,
}

/// The latest engine report for the running search.
#[derive(Clone, Debug, Default)]
pub struct Thinking {
    pub id: u64,
    pub info: Option<Info>,
    /// The principal variation in SAN, numbered from the searched position.
    pub pv: String,
    pub side: Option<Color>,
}

/// The whole state of the trainer.
pub struct App {
    pub game: Game,
    pub screen: Screen,
    pub overlay: Option<Overlay>,
    pub input: Option<Input>,
    pub size: Rect,
    pub ascii: bool,
    pub flipped: bool,
    pub cursor: Square,
    pub selected: Option<Square>,
    /// The ply shown when stepping through history (None: the live position).
    pub view: Option<usize>,
    /// Plies named by the last verdict or ending (highlighted in the history).
    pub highlight: Vec<usize>,
    pub message: Option<Message>,
    pub players: Players,
    pub level: u8,
    pub hash_mb: usize,
    pub contempt: i32,
    pub clock: Option<Clock>,
    pub clock_preset: usize,
    /// The next move made (typed, cursor or mouse) is the intended move of a claim.
    pub claim_pending: bool,
    pub thinking: Option<Thinking>,
    pub last_info: Option<Info>,
    pub last_pv: String,
    search_id: u64,
    pub frame: u64,
    pub effects: Vec<Effect>,
    pub quit: bool,
    /// Where the game in progress is kept (None: not kept, as in tests).
    pub resume_path: Option<PathBuf>,
    pub euwe_delay: Duration,
    /// The Euwe stepper's state.
    pub euwe: Box<EuweState>,
    /// The drill screen's state (None: not opened yet).
    pub drills: Option<Box<DrillState>>,
    /// A saved game in progress that was neither resumed nor refused: kept on
    /// disk (set aside if another game has to be saved).
    pub saved_kept: bool,
}

/// Engine limits for a strength level (1..=8).
pub fn level_limits(level: u8) -> Limits {
    let ms = |m| Some(Duration::from_millis(m));
    match level {
        1 => Limits {
            depth: Some(1),
            ..Limits::default()
        },
        2 => Limits {
            depth: Some(2),
            nodes: Some(2_000),
            ..Limits::default()
        },
        3 => Limits {
            depth: Some(4),
            movetime: ms(200),
            ..Limits::default()
        },
        4 => Limits {
            movetime: ms(300),
            ..Limits::default()
        },
        5 => Limits {
            movetime: ms(700),
            ..Limits::default()
        },
        6 => Limits {
            movetime: ms(1500),
            ..Limits::default()
        },
        7 => Limits {
            movetime: ms(3000),
            ..Limits::default()
        },
        _ => Limits {
            movetime: ms(8000),
            ..Limits::default()
        },
    }
}

/// "depth 4, 200 ms", "300 ms per move", ...
pub fn describe_limits(l: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("{n} nodes"));
    }
    if let Some(t) = l.movetime {
        parts.push(format!("{} ms per move", t.as_millis()));
    }
    parts.join(", ")
}

/// A one-line reason for a refused move.
pub fn short_reason(e: &PlayError) -> String {
    match e {
        PlayError::Unreadable { text, reason } => format!("'{text}': {reason}"),
        PlayError::Illegal { text, .. } => format!("'{text}' is not a legal move here"),
        PlayError::Ambiguous { text, .. } => {
            format!("'{text}' is ambiguous: add the file or rank of the piece (e.g. Nbd2)")
        }
        PlayError::GameOver { reason, .. } => format!("the game is over ({reason})"),
    }
}

impl App {
    pub fn new(cfg: &Config, game: Game) -> App {
        let clock = (cfg.clock_base_secs > 0).then(|| {
            Clock::new(
                Duration::from_secs(cfg.clock_base_secs),
                Duration::from_secs(cfg.clock_inc_secs),
            )
        });
        let players = cfg.human;
        App {
            game,
            screen: Screen::Play,
            overlay: None,
            input: None,
            size: Rect::new(0, 0, 120, 40),
            ascii: cfg.ascii,
            flipped: players == Players::HumanBlack,
            cursor: Square::E2,
            selected: None,
            view: None,
            highlight: Vec::new(),
            message: None,
            players,
            level: cfg.level.clamp(1, 8),
            hash_mb: cfg.hash_mb,
            contempt: cfg.contempt,
            clock,
            clock_preset: 0,
            claim_pending: false,
            thinking: None,
            last_info: None,
            last_pv: String::new(),
            search_id: 0,
            frame: 0,
            effects: Vec::new(),
            quit: false,
            resume_path: None,
            euwe_delay: Duration::from_millis(cfg.euwe_delay_ms.max(30)),
            euwe: Box::default(),
            drills: None,
            saved_kept: false,
        }
    }

    /// Start: ask the engine to move if it is its turn.
    pub fn start(&mut self) {
        self.maybe_engine();
    }

    /// The ply whose board is shown.
    pub fn shown_ply(&self) -> usize {
        self.view.unwrap_or(self.game.len()).min(self.game.len())
    }

    pub fn is_human_turn(&self) -> bool {
        self.players.is_human(self.game.position().turn()) && !self.game.is_over()
    }

    /// Legal targets of the selected piece.
    pub fn targets(&self) -> Vec<Square> {
        match self.selected {
            Some(from) if self.view.is_none() => self
                .game
                .position()
                .legal_moves()
                .iter()
                .filter(|m| m.from() == Some(from))
                .map(|m| king_target(m, self.game.position().turn()))
                .collect(),
            _ => Vec::new(),
        }
    }

    pub(crate) fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            tone: Tone::Info,
            text: text.into(),
        });
    }

    pub(crate) fn error(&mut self, text: impl Into<String>) {
        self.message = Some(Message {
            tone: Tone::Error,
            text: text.into(),
        });
    }

    /// Handle one action.
    pub fn update(&mut self, action: Action) {
        match action {
            Action::Key(k) => self.on_key(k),
            Action::Mouse(m) => self.on_mouse(m),
            Action::Resize(w, h) => self.size = Rect::new(0, 0, w, h),
            Action::Tick(now) => self.on_tick(now),
            Action::Engine(r) => self.on_report(r),
        }
    }

    fn on_tick(&mut self, now: Instant) {
        self.frame = self.frame.wrapping_add(1);
        if self.screen == Screen::Euwe {
            self.euwe.tick(now, self.euwe_delay);
        }
        if let Some(clock) = &self.clock
            && clock.running.is_some()
            && !self.game.is_over()
        {
            let turn = self.game.position().turn();
            if clock.remaining(turn, now).is_zero() {
                let ending = ending::flag_fall(&self.game, turn);
                self.game.end_externally(ending);
                self.game_ended(now);
            }
        }
    }

    fn on_report(&mut self, r: Report) {
        match r {
            Report::Info { id, info } => {
                if let Some(t) = &mut self.thinking
                    && t.id == id
                {
                    t.pv = pv_san(self.game.position(), &info.pv, 8);
                    t.info = Some(info);
                }
            }
            Report::Best { id, mv } => {
                let Some(t) = self.thinking.take_if(|t| t.id == id) else {
                    return;
                };
                self.last_info = t.info.clone();
                self.last_pv = t.pv.clone();
                if self.game.is_over() || self.players.is_human(self.game.position().turn()) {
                    return;
                }
                let Some(m) = mv else { return };
                if !self.game.position().is_legal(m) {
                    self.error("the engine sent an illegal move; ignored");
                    return;
                }
                self.engine_moves(&t, m);
            }
            Report::Error(e) => self.error(format!("engine: {e}")),
        }
    }

    /// The engine has searched and chosen `m`: it claims a draw when one can
    /// be claimed and its own score of `m` (from its search, from its side's
    /// point of view) is no better than a draw is worth to it after contempt;
    /// otherwise it plays `m`. A claim now (9.2 b, 9.3 b) comes first; else a
    /// claim with `m` as the intended move (9.2 a, 9.3 a).
    fn engine_moves(&mut self, t: &Thinking, m: Move) {
        let score = t.info.as_ref().map(|i| i.score.cp());
        let welcome = score.is_some_and(|s| s <= -self.contempt);
        if welcome && (claim::threefold_now(&self.game) || claim::fifty_now(&self.game)) {
            self.claim(Claim::Now, false);
        } else if welcome
            && (claim::threefold_moves(&self.game).contains(&m)
                || claim::fifty_moves(&self.game).contains(&m))
        {
            self.claim(Claim::WithMove(m), false);
        } else {
            self.play_move(m);
        }
    }

    /// Ask the engine to move if it is its turn. Whether it claims a draw is
    /// decided after the search, from its own score ([`Self::engine_moves`]).
    fn maybe_engine(&mut self) {
        if self.game.is_over() || self.thinking.is_some() || self.screen != Screen::Play {
            return;
        }
        let turn = self.game.position().turn();
        if self.players.is_human(turn) {
            return;
        }
        self.search_id += 1;
        let mut limits = level_limits(self.level);
        if let Some(c) = &self.clock {
            let now = Instant::now();
            limits.wtime = Some(c.remaining(Color::White, now));
            limits.btime = Some(c.remaining(Color::Black, now));
            limits.winc = Some(c.inc);
            limits.binc = Some(c.inc);
            limits.movetime = None;
        }
        self.thinking = Some(Thinking {
            id: self.search_id,
            info: None,
            side: Some(turn),
            pv: String::new(),
        });
        self.effects.push(Effect::Think {
            id: self.search_id,
            start: self.game.start().clone(),
            moves: self.game.moves().collect(),
            limits,
        });
    }

    pub(crate) fn stop_engine(&mut self) {
        if self.thinking.take().is_some() {
            self.effects.push(Effect::Stop);
        }
    }

    /// Play a move on the live game (any player), then let the engine go.
    fn play_move(&mut self, m: Move) {
        let mover = self.game.position().turn();
        if let Err(e) = self.game.play(m) {
            self.error(short_reason(&e));
            return;
        }
        self.after_move(mover);
    }

    fn after_move(&mut self, mover: Color) {
        let now = Instant::now();
        if let Some(c) = &mut self.clock {
            c.moved(mover, now);
        }
        self.selected = None;
        self.view = None;
        self.highlight.clear();
        if self.game.is_over() {
            self.game_ended(now);
        } else {
            let occ = self.game.current().occurrence;
            if occ >= 3 {
                self.info(format!(
                    "This position has now appeared {}: the player to move may claim a draw (press {}).",
                    crate::rules::ending::times(occ),
                    keys::key_for(Cmd::Claim)
                ));
            } else if occ == 2 {
                self.info(format!(
                    "Repetition: this position appeared before ({}).",
                    crate::rules::ending::list_places(
                        &self.game,
                        &self.game.earlier(self.game.len())
                    )
                ));
            } else {
                self.message = None;
            }
        }
        self.maybe_engine();
    }

    fn game_ended(&mut self, now: Instant) {
        if let Some(c) = &mut self.clock {
            c.stop(now);
        }
        self.stop_engine();
        if let Some(t) = self.game.termination() {
            self.highlight = t.ending.plies.clone();
            let text = t.ending.explanation.clone();
            self.info(text);
        }
        if let Some(p) = &self.resume_path {
            let _ = std::fs::remove_file(p);
        }
    }

    /// Judge a claim by the player to move (human or engine).
    pub(crate) fn claim(&mut self, c: Claim, human: bool) {
        let mover = self.game.position().turn();
        let before = self.game.len();
        match claim::judge(&mut self.game, c) {
            Err(e) => self.error(short_reason(&e)),
            Ok(v) => {
                let mut text = if human {
                    v.explanation.clone()
                } else {
                    format!(
                        "The engine ({}) claims a draw. {}",
                        color_name(mover),
                        v.explanation
                    )
                };
                self.highlight = v.plies.clone();
                self.selected = None;
                self.view = None;
                let now = Instant::now();
                if self.game.len() > before
                    && let Some(clock) = &mut self.clock
                {
                    clock.moved(mover, now);
                }
                if !v.correct() {
                    if let Some(m) = v.played {
                        text.push_str(&format!(
                            " The intended move {} is played (FIDE 9.5).",
                            self.game.ply_label(self.game.len())
                        ));
                        let _ = m;
                    }
                    if let Some(clock) = &mut self.clock {
                        let left = &mut clock.left[idx(!mover)];
                        *left = claim::time_after_incorrect_claim(*left);
                        text.push_str(&format!(
                            " {} gets two extra minutes (FIDE 9.5).",
                            color_name(!mover)
                        ));
                    }
                }
                let correct = v.correct();
                if self.game.is_over() {
                    if let Some(c) = &mut self.clock {
                        c.stop(now);
                    }
                    self.stop_engine();
                    if let Some(p) = &self.resume_path {
                        let _ = std::fs::remove_file(p);
                    }
                    if !correct {
                        // The intended move ended the game (e.g. fivefold, mate).
                        if let Some(t) = self.game.termination() {
                            text.push(' ');
                            text.push_str(&t.ending.explanation);
                        }
                    }
                }
                self.message = Some(Message {
                    tone: if correct { Tone::Info } else { Tone::Error },
                    text: text.clone(),
                });
                self.overlay = Some(Overlay::Verdict { correct, text });
                self.maybe_engine();
            }
        }
    }

    /// A move chosen by a human (typed, cursor or mouse).
    pub(crate) fn human_move(&mut self, m: Move) {
        if self.claim_pending {
            self.claim_pending = false;
            self.claim(Claim::WithMove(m), true);
        } else {
            self.play_move(m);
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

    /// The key-table context of the screen shown.
    pub fn screen_ctx(&self) -> Ctx {
        match (self.screen, &self.drills) {
            (Screen::Play, _) => Ctx::Play,
            (Screen::Euwe, _) => Ctx::Euwe,
            (Screen::Drills, Some(d)) => match &d.view {
                drill::View::Themes => Ctx::DrillThemes,
                drill::View::Puzzle(p) if p.feedback.is_some() => Ctx::DrillFeedback,
                drill::View::Puzzle(_) => Ctx::DrillAnswer,
            },
            (Screen::Drills, None) => Ctx::DrillThemes,
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
            && let Some(d) = c.to_digit(10)
        {
            self.drill_choose(d as usize - 1);
            return;
        }
        self.run(cmd);
    }

    /// Carry out a command from the key table (also used by mouse clicks).
    pub fn run(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Help => self.overlay = Some(Overlay::Help),
            Cmd::Quit => self.request_quit(),
            Cmd::Back => self.back(),
            Cmd::Up | Cmd::Down | Cmd::Left | Cmd::Right => self.move_cursor(cmd),
            Cmd::Select => self.select(self.cursor),
            Cmd::TypeMove => self.open_input(InputKind::Move, ""),
            Cmd::Claim => self.open_claim(),
            Cmd::Takeback => self.takeback(),
            Cmd::NewGame => {
                if self.game.is_empty() || self.game.is_over() {
                    self.new_game(Game::new());
                } else {
                    self.overlay = Some(Overlay::Ask(Question::NewGame));
                }
            }
            Cmd::Flip => self.flipped = !self.flipped,
            Cmd::HistBack => {
                let p = self.shown_ply();
                self.view = Some(p.saturating_sub(1));
                self.selected = None;
            }
            Cmd::HistForward => {
                let p = self.shown_ply() + 1;
                self.view = (p < self.game.len()).then_some(p);
            }
            Cmd::HistStart => self.view = Some(0),
            Cmd::HistEnd => self.view = None,
            Cmd::PrevOccurrence | Cmd::NextOccurrence => self.jump_occurrence(cmd),
            Cmd::Players => {
                self.players = self.players.next();
                self.flipped = self.players == Players::HumanBlack;
                self.stop_engine();
                self.info(format!("Players: {}", self.players.describe()));
                self.maybe_engine();
            }
            Cmd::Stronger | Cmd::Weaker => {
                self.level = if cmd == Cmd::Stronger {
                    (self.level + 1).min(8)
                } else {
                    self.level.saturating_sub(1).max(1)
                };
                self.info(format!(
                    "Engine level {}: {}",
                    self.level,
                    describe_limits(&level_limits(self.level))
                ));
            }
            Cmd::Hash => {
                let sizes = HASH_STEPS_MB;
                let i = sizes
                    .iter()
                    .position(|&m| m == self.hash_mb)
                    .map_or(0, |i| (i + 1) % sizes.len());
                self.hash_mb = sizes[i];
                self.effects.push(Effect::SetHash(self.hash_mb));
                self.info(format!("Engine hash {} MiB", self.hash_mb));
            }
            Cmd::Contempt => {
                let values = CONTEMPT_STEPS_CP;
                let i = values
                    .iter()
                    .position(|&c| c == self.contempt)
                    .map_or(0, |i| (i + 1) % values.len());
                self.contempt = values[i];
                self.effects.push(Effect::SetContempt(self.contempt));
                self.info(format!(
                    "Engine contempt {} cp: {}",
                    self.contempt,
                    match self.contempt.signum() {
                        1 => "it avoids draws",
                        -1 => "it welcomes draws",
                        _ => "a draw is worth equality",
                    }
                ));
            }
            Cmd::Clocks => {
                self.clock_preset = (self.clock_preset + 1) % CLOCK_PRESETS.len();
                let (b, i) = CLOCK_PRESETS[self.clock_preset];
                self.clock =
                    (b > 0).then(|| Clock::new(Duration::from_secs(b), Duration::from_secs(i)));
                if let Some(c) = &mut self.clock
                    && !self.game.is_empty()
                    && !self.game.is_over()
                {
                    c.running = Some((self.game.position().turn(), Instant::now()));
                }
                self.info(match self.clock {
                    Some(_) => format!("Clocks {}+{}", b / 60, i),
                    None => "Clocks off".to_string(),
                });
            }
            Cmd::Save => self.open_input(InputKind::SavePgn, "game.pgn"),
            Cmd::Load => self.open_input(InputKind::LoadPgn, ""),
            Cmd::Fen => {
                let fen = self.game.fen_at(self.game.len());
                self.open_input(InputKind::Fen, &fen)
            }
            Cmd::Euwe => {
                self.stop_engine();
                self.euwe = Box::default();
                self.screen = Screen::Euwe;
            }
            Cmd::Drills => self.open_drills(),
            Cmd::DrillUp
            | Cmd::DrillDown
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
            | Cmd::DrillNext => self.drill_command(cmd),
            Cmd::EuweNext
            | Cmd::EuwePrev
            | Cmd::EuweJumpStart
            | Cmd::EuweJumpEnd
            | Cmd::EuweJumpFivefold
            | Cmd::EuweAutoplay
            | Cmd::EuweFaster
            | Cmd::EuweSlower => {
                self.euwe.command(cmd, &mut self.euwe_delay);
            }
            // Overlay and input-line commands arrive through their own contexts.
            Cmd::Close
            | Cmd::ClaimNow
            | Cmd::ClaimWithMove
            | Cmd::Promote(_)
            | Cmd::Yes
            | Cmd::No
            | Cmd::Submit
            | Cmd::Erase => {}
        }
    }

    fn back(&mut self) {
        if self.screen == Screen::Drills
            && let Some(d) = &mut self.drills
        {
            match &mut d.view {
                drill::View::Puzzle(p) if p.selected.is_some() => p.selected = None,
                drill::View::Puzzle(_) => {
                    d.view = drill::View::Themes;
                    d.session.new_round();
                    self.message = None;
                }
                drill::View::Themes => {
                    self.screen = Screen::Play;
                    self.message = None;
                    self.maybe_engine();
                }
            }
        } else if self.screen == Screen::Euwe {
            self.screen = Screen::Play;
            self.maybe_engine();
        } else if self.claim_pending {
            self.claim_pending = false;
            self.info("Claim withdrawn.");
        } else if self.selected.is_some() {
            self.selected = None;
        } else if self.view.is_some() {
            self.view = None;
        } else {
            self.info(format!("Press {} to quit.", keys::key_for(Cmd::Quit)));
        }
    }

    fn request_quit(&mut self) {
        let in_progress = !self.game.is_empty() && !self.game.is_over();
        let asking = self.overlay == Some(Overlay::Ask(Question::Quit));
        if in_progress && self.resume_path.is_none() && !asking {
            self.overlay = Some(Overlay::Ask(Question::Quit));
            return;
        }
        self.do_quit();
    }

    pub(crate) fn do_quit(&mut self) {
        let in_progress = !self.game.is_empty() && !self.game.is_over();
        if let Some(p) = &self.resume_path {
            if in_progress {
                let saved = SavedGame {
                    start_fen: self.game.start_fen(),
                    moves: self.game.uci_moves(),
                    human: self.players,
                };
                if let Ok(text) = serde_json::to_string(&saved) {
                    let _ = crate::fsio::write_app_file(p, text.as_bytes());
                }
            } else {
                let _ = std::fs::remove_file(p);
            }
        }
        self.stop_engine();
        self.quit = true;
        self.effects.push(Effect::Quit);
    }

    /// Replace the game.
    pub fn new_game(&mut self, game: Game) {
        self.stop_engine();
        self.game = game;
        self.view = None;
        self.selected = None;
        self.highlight.clear();
        self.claim_pending = false;
        self.last_info = None;
        self.last_pv.clear();
        let (b, i) = match &self.clock {
            Some(c) => (c.base, c.inc),
            None => (Duration::ZERO, Duration::ZERO),
        };
        if !b.is_zero() {
            self.clock = Some(Clock::new(b, i));
        }
        self.effects.push(Effect::NewGame);
        self.message = self.game.termination().map(|t| Message {
            tone: Tone::Info,
            text: t.ending.explanation.clone(),
        });
        self.maybe_engine();
    }

    fn takeback(&mut self) {
        self.stop_engine();
        self.claim_pending = false;
        let mut n = 0;
        // Back to a position where a human is to move.
        while self.game.undo().is_some() {
            n += 1;
            if self.players.is_human(self.game.position().turn())
                || self.players == Players::Engines
            {
                break;
            }
        }
        self.view = None;
        self.selected = None;
        self.highlight.clear();
        if let Some(c) = &mut self.clock
            && c.running.is_some()
        {
            c.running = Some((self.game.position().turn(), Instant::now()));
        }
        self.info(if n == 0 {
            "Nothing to take back.".to_string()
        } else {
            format!("Took back {n} {}.", if n == 1 { "ply" } else { "plies" })
        });
        if self.players != Players::Engines {
            self.maybe_engine();
        }
    }

    fn jump_occurrence(&mut self, cmd: Cmd) {
        let p = self.shown_ply();
        let same = self.game.same_as(p);
        let target = if cmd == Cmd::PrevOccurrence {
            same.iter().rev().find(|&&q| q < p).copied()
        } else {
            same.iter().find(|&&q| q > p).copied()
        };
        match target {
            Some(q) => {
                self.view = (q < self.game.len()).then_some(q);
                self.info(format!(
                    "Same position {}: occurrence {} of {}.",
                    self.game.place_label(q),
                    same.iter().position(|&x| x == q).unwrap_or(0) + 1,
                    same.len()
                ));
            }
            None => self.info(if same.len() > 1 {
                "No further occurrence in that direction.".to_string()
            } else {
                "This position has not occurred elsewhere.".to_string()
            }),
        }
    }

    pub(crate) fn open_input(&mut self, kind: InputKind, text: &str) {
        self.input = Some(Input {
            kind,
            text: text.to_string(),
        });
    }

    fn open_claim(&mut self) {
        if self.game.is_over() {
            self.error("The game is over; there is nothing to claim.");
            return;
        }
        if !self.is_human_turn() {
            self.error("Only the player to move may claim (FIDE 9.2): wait for your turn.");
            return;
        }
        self.view = None;
        self.overlay = Some(Overlay::Claim);
    }

    fn move_cursor(&mut self, cmd: Cmd) {
        let (mut df, mut dr): (i32, i32) = match cmd {
            Cmd::Up => (0, 1),
            Cmd::Down => (0, -1),
            Cmd::Left => (-1, 0),
            _ => (1, 0),
        };
        if self.flipped {
            df = -df;
            dr = -dr;
        }
        let f = (i32::from(u8::from(self.cursor.file())) + df).clamp(0, 7);
        let r = (i32::from(u8::from(self.cursor.rank())) + dr).clamp(0, 7);
        self.cursor =
            Square::from_coords(shakmaty::File::new(f as u32), shakmaty::Rank::new(r as u32));
    }

    /// Select a piece or put it down on `sq` (cursor Enter/Space or mouse click).
    pub fn select(&mut self, sq: Square) {
        self.cursor = sq;
        if self.view.is_some() {
            self.view = None;
            return;
        }
        if self.game.is_over() {
            self.error(game_over_hint());
            return;
        }
        if !self.is_human_turn() {
            self.error("It is the engine's turn.");
            return;
        }
        let pos = self.game.position();
        let own = pos
            .board()
            .piece_at(sq)
            .is_some_and(|p| p.color == pos.turn());
        match self.selected {
            Some(from) if from != sq => {
                let moves: Vec<Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| {
                        m.from() == Some(from) && (m.to() == sq || king_target(m, pos.turn()) == sq)
                    })
                    .collect();
                match moves.len() {
                    0 if own => self.selected = Some(sq),
                    0 => {
                        self.selected = None;
                        self.error(format!("{}-{} is not a legal move", from, sq));
                    }
                    1 => {
                        self.selected = None;
                        // Castling may come as king-takes-rook: fine either way.
                        self.human_move(moves[0]);
                    }
                    _ => self.overlay = Some(Overlay::Promotion(moves)),
                }
            }
            Some(_) => self.selected = None,
            None if own => self.selected = Some(sq),
            None => {}
        }
    }

    /// Resume a saved game in progress.
    pub(crate) fn resume(&mut self, saved: &SavedGame) {
        self.saved_kept = false;
        match restore(saved) {
            Ok(g) => {
                self.players = saved.human;
                self.flipped = self.players == Players::HumanBlack;
                self.new_game(g);
                self.info("Resumed the game in progress.");
            }
            Err(e) => self.error(format!("cannot resume: {e}")),
        }
    }

    /// The player said no to resuming: the saved game goes.
    pub(crate) fn discard_saved_game(&mut self) {
        self.saved_kept = false;
        if let Some(p) = &self.resume_path {
            let _ = std::fs::remove_file(p);
        }
        self.info("The saved game was deleted.");
    }

    pub(crate) fn claim_with_move(&mut self) {
        self.overlay = None;
        self.claim_pending = true;
        self.open_input(InputKind::ClaimMove, "");
        self.info(format!(
            "Write your intended move: type it, or make it on the board ({} types nothing).",
            keys::key_in(Ctx::Input, Cmd::Close)
        ));
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
            Some(Cmd::Erase) => {
                input.text.pop();
            }
            Some(Cmd::Submit) => {
                let input = self.input.take().expect("checked");
                self.submit(input);
            }
            _ => {
                if let KeyCode::Char(c) = k.code
                    && !k.modifiers.contains(KeyModifiers::CONTROL)
                {
                    input.text.push(c);
                }
            }
        }
    }

    fn submit(&mut self, input: Input) {
        let text = input.text.trim().to_string();
        match input.kind {
            InputKind::Move | InputKind::ClaimMove => {
                if text.is_empty() {
                    return;
                }
                if self.game.is_over() {
                    self.error(game_over_hint());
                    return;
                }
                if !self.is_human_turn() {
                    self.error("It is the engine's turn.");
                    return;
                }
                match self.game.parse_move(&text) {
                    Ok(m) => {
                        if input.kind == InputKind::ClaimMove {
                            self.claim_pending = true;
                        }
                        self.human_move(m);
                    }
                    Err(e) => {
                        self.error(short_reason(&e));
                        // Keep what was typed so it can be corrected.
                        self.input = Some(Input {
                            kind: input.kind,
                            text,
                        });
                    }
                }
            }
            InputKind::Fen => match Game::from_fen(&text) {
                Ok(g) => {
                    self.new_game(g);
                    self.info("Started from the FEN position.");
                }
                Err(e) => self.error(e.to_string()),
            },
            InputKind::LoadPgn => self.load_pgn(&PathBuf::from(text)),
            InputKind::DrillAnswer => self.drill_typed(&text),
            InputKind::SavePgn => {
                let path = PathBuf::from(&text);
                let pgn = self.pgn_text();
                match crate::fsio::write_atomic(&path, pgn.as_bytes()) {
                    Ok(()) => self.info(format!("Saved {}", path.display())),
                    Err(e) => self.error(format!("cannot save {}: {e}", path.display())),
                }
            }
        }
    }

    /// The game as PGN, with Result and Termination tags.
    pub fn pgn_text(&self) -> String {
        let (w, b) = match self.players {
            Players::HumanWhite => ("You", "threefold engine"),
            Players::HumanBlack => ("threefold engine", "You"),
            Players::TwoHumans => ("White", "Black"),
            Players::Engines => ("threefold engine", "threefold engine"),
        };
        crate::rules::pgn::write(
            &self.game,
            &[
                ("Event", "threefold training game"),
                ("Site", "threefold"),
                ("White", w),
                ("Black", b),
            ],
        )
    }

    /// Load the first game of a PGN file (two humans then, to browse it).
    pub fn load_pgn(&mut self, path: &std::path::Path) {
        match crate::rules::pgn::read_game_file(path, 1) {
            Ok((_, g)) => {
                self.players = Players::TwoHumans;
                self.new_game(g);
                self.info(format!(
                    "Loaded {} ({} plies). Players: two humans (p to change).",
                    path.display(),
                    self.game.len()
                ));
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    fn on_mouse(&mut self, m: MouseEvent) {
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {}
            MouseEventKind::ScrollUp if self.screen == Screen::Play => {
                return self.run(Cmd::HistBack);
            }
            MouseEventKind::ScrollDown if self.screen == Screen::Play => {
                return self.run(Cmd::HistForward);
            }
            MouseEventKind::ScrollUp if self.screen == Screen::Drills => {
                return self.drill_command(Cmd::DrillUp);
            }
            MouseEventKind::ScrollDown if self.screen == Screen::Drills => {
                return self.drill_command(Cmd::DrillDown);
            }
            _ => return,
        }
        let (x, y) = (m.column, m.row);
        if let Some(o) = self.overlay.clone() {
            self.overlay_click(o, x, y);
            return;
        }
        if self.screen == Screen::Drills {
            self.drill_click(x, y);
            return;
        }
        if self.screen != Screen::Play {
            return;
        }
        let areas = render::layout(self.size);
        let Some(areas) = areas else { return };
        if areas.claim.contains((x, y).into()) {
            self.run(Cmd::Claim);
            return;
        }
        if let Some(g) = render::board_geom(&areas, self.flipped)
            && let Some(sq) = g.square_at(x, y)
        {
            self.select(sq);
            return;
        }
        if let Some(ply) = render::spark_ply(self, areas.spark, x, y) {
            self.view = (ply < self.game.len()).then_some(ply);
            self.selected = None;
            return;
        }
        for (r, ply) in render::history_cells(self, areas.history) {
            if r.contains((x, y).into()) {
                self.view = (ply < self.game.len()).then_some(ply);
                self.selected = None;
                return;
            }
        }
    }
}

/// "The game is over: n for a new game, u to take back." (keys from the table).
fn game_over_hint() -> String {
    format!(
        "The game is over: {} for a new game, {} to take back.",
        keys::key_for(Cmd::NewGame),
        keys::key_for(Cmd::Takeback)
    )
}

fn restore(saved: &SavedGame) -> Result<Game, String> {
    let mut g = Game::from_fen(&saved.start_fen).map_err(|e| e.to_string())?;
    for m in &saved.moves {
        g.play_uci(m).map_err(|e| e.to_string())?;
    }
    Ok(g)
}

/// A PV in SAN from `pos`: "12.Nf3 Nf6 13.Ng1", stopping at the first illegal move.
pub fn pv_san(pos: &Chess, pv: &[Move], max: usize) -> String {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for (i, &m) in pv.iter().take(max).enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        let number = MoveNumber {
            number: pos.fullmoves().get(),
            side: pos.turn(),
        };
        let san = shakmaty::san::SanPlus::from_move_and_play_unchecked(&mut pos, m);
        if number.side == Color::White || i == 0 {
            out.push(format!("{number}{san}"));
        } else {
            out.push(san.to_string());
        }
    }
    out.join(" ")
}

/// Where a move puts the moving piece on the board: for castling (which
/// shakmaty writes king-takes-rook) the king's square, g1/c1 or g8/c8.
pub fn king_target(m: &Move, turn: Color) -> Square {
    match m.castling_side() {
        Some(side) => side.king_to(turn),
        None => m.to(),
    }
}

/// A move in UCI (for display of engine PVs in ASCII mode and tests).
pub fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}
