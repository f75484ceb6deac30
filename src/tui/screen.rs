//! The screen contract: what every screen of the trainer is to the App that routes to it
//! ([`Component`]), what the App tells a screen of the terminal ([`Env`]), and the one
//! request type a screen answers with ([`Request`], in order: [`Requests`]), which the App
//! carries out in one place. A leaf: the screens implement the trait and use the request
//! type; the App holds the screens and routes keys, clicks, time and typed lines to the one
//! shown (read against gitui's `Component` and `InternalEvent`).

use std::time::Instant;

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::config::{Config, Setting};
use super::engine_thread::Effect;
use super::keys::{Cmd, Ctx};
use super::line_edit::LineEdit;
use super::prompt::InputKind;
use super::theme::Theme;
use super::widgets::Marks;

/// Which screen is shown (each screen's state lives in its own field of the App).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Play,
    Euwe,
    Drills,
    Review,
    Xiangqi,
    /// The xiangqi drills.
    XqDrills,
    /// The xiangqi review ([`super::xiangqi::review`]).
    XqReview,
}

/// The line being typed: what it is for, the screen that asked for it (it gets the line),
/// its prompt, and the line editor holding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub kind: InputKind,
    /// The screen that asked for the line.
    pub owner: Screen,
    /// The words before the line.
    pub prompt: &'static str,
    pub line: LineEdit,
}

impl Input {
    /// A prompt for `kind` holding `text`, the cursor at its end, asked for by `owner`.
    pub fn new(kind: InputKind, owner: Screen, prompt: &'static str, text: &str) -> Input {
        Input {
            kind,
            owner,
            prompt,
            line: LineEdit::new(text),
        }
    }

    /// What has been typed.
    pub fn text(&self) -> &str {
        self.line.text()
    }
}

/// What a screen asks of the App after handling a key, a click, a typed line, time or an
/// engine report. The one list of what a screen may ask: the App carries each out in one
/// place, whichever screen asked.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Say this on the message line.
    Info(String),
    /// Say this problem on the message line.
    Error(String),
    /// Clear the message line.
    Clear,
    /// Ask this of the engine (the run loop carries it out).
    Engine(Effect),
    /// Open the input line for `kind`, holding this text; the line typed goes back to the
    /// screen that asked.
    Type(InputKind, String),
    /// Save these settings (the screen's, [`Component::settings`]) to the config file.
    SaveSettings(&'static [Setting]),
    /// Open the review of the game on the board.
    Review,
    /// Close this screen: back to the one it was opened from.
    Leave,
    /// Close this screen and show ply `n` of the game it was about, if that game is still
    /// the one on the board.
    ViewPly(usize),
    /// A puzzle was added to the drills file (the message says so): the drill screen
    /// reloads its puzzles next time it opens.
    PuzzlesAdded(String),
    /// Play this scenario from a real game on its game's screen (asking first if that
    /// would lose the game in progress there).
    PlayScenario(Chosen),
}

/// The requests of one step, in the order the App carries them out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requests(Vec<Request>);

impl Requests {
    /// No request.
    pub fn none() -> Requests {
        Requests::default()
    }
    pub fn info(&mut self, text: impl Into<String>) {
        self.0.push(Request::Info(text.into()));
    }
    pub fn error(&mut self, text: impl Into<String>) {
        self.0.push(Request::Error(text.into()));
    }
    pub fn clear(&mut self) {
        self.0.push(Request::Clear);
    }
    pub fn engine(&mut self, e: Effect) {
        self.0.push(Request::Engine(e));
    }
    pub fn type_line(&mut self, kind: InputKind, text: &str) {
        self.0.push(Request::Type(kind, text.to_string()));
    }
    pub fn save_settings(&mut self, keys: &'static [Setting]) {
        self.0.push(Request::SaveSettings(keys));
    }
    pub fn push(&mut self, r: Request) {
        self.0.push(r);
    }
    /// Add the requests of another step after these.
    pub fn extend(&mut self, more: Requests) {
        self.0.extend(more.0);
    }

    /// The last request that set the message line, if one did.
    fn last_message(&self) -> Option<&Request> {
        self.0
            .iter()
            .rev()
            .find(|r| matches!(r, Request::Info(_) | Request::Error(_) | Request::Clear))
    }

    /// Whether these requests leave the message line empty.
    pub fn cleared(&self) -> bool {
        self.last_message() == Some(&Request::Clear)
    }

    /// Whether these requests leave a problem on the message line.
    pub fn shows_error(&self) -> bool {
        matches!(self.last_message(), Some(Request::Error(_)))
    }
}

impl From<Request> for Requests {
    fn from(r: Request) -> Requests {
        Requests(vec![r])
    }
}

impl FromIterator<Request> for Requests {
    fn from_iter<I: IntoIterator<Item = Request>>(iter: I) -> Requests {
        Requests(iter.into_iter().collect())
    }
}

impl IntoIterator for Requests {
    type Item = Request;
    type IntoIter = std::vec::IntoIter<Request>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// What the App tells a screen about the terminal and its own switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    pub size: Rect,
    pub ascii: bool,
    /// The panel "How engines see it" is switched on (it is drawn while the marks are).
    pub engines_panel: bool,
    /// Frames drawn so far (the engine's spinner).
    pub frame: u64,
    /// Whether this screen is the one shown. A game screen's time passes while another
    /// screen is shown (its clocks); its engine then waits.
    pub shown: bool,
}

/// A screen of the trainer, as the App routes to it: its key context, a command from the key
/// table, a typed line, a click or the wheel, time, its drawing and its hint line. Each
/// answers with [`Requests`]; the App carries them out.
pub trait Component {
    /// The key-table context that has the keys (the screen's own panel's, if one is up).
    fn ctx(&self) -> Ctx;

    /// A key before the key table reads it: `true` if the screen took it (a panel that
    /// reads raw keys, a digit choosing an option).
    fn key(&mut self, _k: &KeyEvent, _env: &Env, _out: &mut Requests) -> bool {
        false
    }

    /// A command of the screen's context.
    fn command(&mut self, cmd: Cmd, env: &Env, out: &mut Requests);

    /// The line the screen asked for ([`Request::Type`]) was typed.
    fn submit(&mut self, _kind: InputKind, _text: &str, _env: &Env, _out: &mut Requests) {}

    /// The line the screen asked for was closed without an answer.
    fn input_closed(&mut self, _kind: InputKind, _env: &Env, _out: &mut Requests) {}

    /// The prompt of the line the screen asks for (each game words its own moves), in ASCII
    /// when the terminal shows nothing else (`env.ascii`).
    fn prompt(&self, kind: InputKind, _env: &Env) -> &'static str {
        kind.prompt()
    }

    /// A left click at (`x`, `y`).
    fn click(&mut self, _x: u16, _y: u16, _env: &Env, _out: &mut Requests) {}

    /// The mouse wheel (`up` or down) at (`x`, `y`).
    fn wheel(&mut self, _up: bool, _x: u16, _y: u16, _env: &Env, _out: &mut Requests) {}

    /// Time passes (also while another screen is shown: [`Env::shown`]).
    fn tick(&mut self, _now: Instant, _env: &Env, _out: &mut Requests) {}

    /// Draw the screen (the frame's message, input and status rows are the App's).
    fn render(&self, env: &Env, theme: &Theme, buf: &mut Buffer);

    /// Draw the screen's panel on top of everything, if one is up.
    fn render_overlay(&self, _env: &Env, _theme: &Theme, _buf: &mut Buffer) {}

    /// The hint on the input row while no line is typed.
    fn hint(&self) -> Option<String> {
        None
    }

    /// The words of each key of the screen's question, while one is up (None: the key
    /// table's yes / no / later), for the key bar as for the question's popup.
    fn answers(&self) -> Option<super::keys::Answers> {
        None
    }

    /// The names of the sides of the screen's game, the first to move first, which the key
    /// bar's hints name (None: the key table's words).
    fn sides(&self) -> Option<[&'static str; 2]> {
        None
    }

    /// Whether `cmd` works now (the key bar offers only what does).
    fn enabled(&self, _cmd: Cmd, _env: &Env) -> bool {
        true
    }

    /// Whether the screen asks a question that has the keys even over another screen (a
    /// game screen's question while saving on quitting).
    fn asks(&self) -> bool {
        false
    }

    /// What the screen may reveal of repetitions now (blind mode, an unanswered drill).
    fn marks(&self) -> Marks {
        Marks::Shown
    }

    /// The screen's settings, written into the config before it is saved
    /// ([`Request::SaveSettings`]).
    fn settings(&self, _cfg: &mut Config) {}

    /// Problems the screen met on its own (a progress file that could not be written), once.
    fn take_note(&mut self) -> Option<String> {
        None
    }
}

/// A scenario chosen to be played ([`Request::PlayScenario`]); two are the same if their
/// ids are (ids are unique over all files).
#[derive(Clone, Debug)]
pub struct Chosen(pub Box<crate::drills::scenario::Scenario>);

impl PartialEq for Chosen {
    fn eq(&self, other: &Chosen) -> bool {
        self.0.id == other.0.id
    }
}

impl Eq for Chosen {}
