//! The game screen as a component: play the engine or a friend, watch
//! repetitions pile up, claim draws. As the drill screen does, it owns
//!
//! - its state ([`Play`], here): the game, the board's view of it, the
//!   settings (one [`Config`]), the clocks (`clock`), the engine's side of
//!   the game, the game kept between runs (`saved`);
//! - its keys (`Play::command` for the key table's `Play` context, in
//!   `update`), typed lines (`Play::submit`), time (`Play::tick`),
//!   claims and their rulings (`claim`) and the engine's side of the game
//!   (`engine`: its requests and `Play::on_report`);
//! - its overlays (`overlay`): the claim dialog, the arbiter's ruling, the
//!   promotion choice, the players menu, the list of a PGN file's games and the
//!   questions about its game (new game, resign, draw offer, abandon for a
//!   FEN or a PGN, resume or replace the kept game, overwrite a PGN file).
//!   The App keeps the overlays that are not the game's: the help (of every
//!   screen) and the questions on quitting (from any screen);
//! - its PGN files (`pgn_file`): saving, loading, the game list;
//! - its drawing and mouse hit-testing (`view`), on one layout.
//!
//! It answers the routing App with [`Reply`]s, in order ([`Replies`]): what
//! to say on the message line, what to ask of the engine, the input line to
//! open, the settings to save, and a switch to the review. What it needs to
//! know of the terminal comes in an [`Env`]. Every ruling comes from the
//! rules core (`crate::rules::claim`, `ending`).
mod claim;
mod engine;
mod overlay;
pub mod pgn_file;
mod saved;
mod update;
mod view;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ratatui::layout::Rect;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Square};

use crate::rules::claim::{Clocks, Ground};
use crate::rules::review::GameRecord;
use crate::rules::{Game, MoveNumber, PlayError};

pub use super::clock::Clock;
use super::clock::idx;
pub use super::config::{
    CLOCK_PRESETS, CONTEMPT_STEPS_CP, HASH_STEPS_MB, KeepError, Players, clock_label,
    level_message, level_tag, step_level,
};
use crate::engine::level::LEVELS;
pub use crate::rules::notation::king_target;
pub use overlay::{
    ClaimLayout, ClaimOption, Overlay, Question, VerdictLayout, claim_layout, players_layout,
    promotion_layout, verdict_layout,
};
pub use saved::{SavedClaim, SavedClocks, SavedGame, SavedGameError, SavedGameReason, load_saved};
pub use view::history_cells;

use super::config::{Config, Setting};
use super::engine_thread::{Effect, Info};
use super::keys::{self, Cmd};
use super::prompt::InputKind;
use super::widgets::Marks;

/// What the play screen asks of the App after handling a key, a click, a
/// typed line, time or an engine report.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Say this on the message line.
    Info(String),
    /// Say this problem on the message line.
    Error(String),
    /// Clear the message line.
    Clear,
    /// Ask this of the engine (the run loop carries it out).
    Engine(Effect),
    /// Open the input line for `kind`, holding this text.
    Type(InputKind, String),
    /// Save these settings (just changed in [`Play::config`]) to the config file.
    SaveSettings(&'static [Setting]),
    /// Open the review of the game.
    Review,
}

/// The replies of one step, in the order the App carries them out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replies(Vec<Reply>);

impl Replies {
    pub fn info(&mut self, text: impl Into<String>) {
        self.0.push(Reply::Info(text.into()));
    }
    pub fn error(&mut self, text: impl Into<String>) {
        self.0.push(Reply::Error(text.into()));
    }
    pub fn clear(&mut self) {
        self.0.push(Reply::Clear);
    }
    pub fn engine(&mut self, e: Effect) {
        self.0.push(Reply::Engine(e));
    }
    pub fn type_line(&mut self, kind: InputKind, text: &str) {
        self.0.push(Reply::Type(kind, text.to_string()));
    }
    pub fn save_settings(&mut self, keys: &'static [Setting]) {
        self.0.push(Reply::SaveSettings(keys));
    }
    pub fn push(&mut self, r: Reply) {
        self.0.push(r);
    }

    /// The last reply that set the message line, if one did.
    fn last_message(&self) -> Option<&Reply> {
        self.0
            .iter()
            .rev()
            .find(|r| matches!(r, Reply::Info(_) | Reply::Error(_) | Reply::Clear))
    }

    /// Whether these replies leave the message line empty.
    pub fn cleared(&self) -> bool {
        self.last_message() == Some(&Reply::Clear)
    }

    /// Whether these replies leave a problem on the message line.
    pub fn shows_error(&self) -> bool {
        matches!(self.last_message(), Some(Reply::Error(_)))
    }
}

impl IntoIterator for Replies {
    type Item = Reply;
    type IntoIter = std::vec::IntoIter<Reply>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// What the App tells the play screen about the terminal and its own switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Env {
    pub size: Rect,
    pub ascii: bool,
    /// The panel "How engines see it" is switched on (it is drawn while the marks are).
    pub engines_panel: bool,
    /// Frames drawn so far (the engine's spinner).
    pub frame: u64,
    /// Whether the game screen is the one shown. Its overlays can be up over
    /// another screen (saving the game on quitting asks about overwriting a
    /// file): the engine then waits.
    pub shown: bool,
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

/// The engine's last finished search, shown while it is idle.
#[derive(Clone, Debug)]
pub struct LastSearch {
    pub info: Info,
    /// The principal variation in SAN, numbered from the searched position.
    pub pv: String,
    /// The side to move in the position searched (the score is from its point of view).
    pub side: Option<Color>,
}

/// The game screen's state: the game, the board's view of it, the players,
/// the clocks and the engine's side of the game.
pub struct Play {
    pub game: Game,
    pub flipped: bool,
    pub cursor: Square,
    pub selected: Option<Square>,
    /// The ply shown when stepping through history (None: the live position).
    pub view: Option<usize>,
    /// Plies named by the last verdict or ending (highlighted in the history).
    pub highlight: Vec<usize>,
    /// The settings (who plays, engine level, hash, contempt, clocks for new
    /// games, blind mode, the book, the player's name): as read from the
    /// config file, with the changes made in the trainer. The one copy: the
    /// App saves from it.
    pub config: Config,
    /// The clocks of the game on the board.
    pub clock: Option<Clock>,
    /// The next move made (typed, cursor or mouse) is the intended move of a
    /// claim under this rule.
    pub claim_pending: Option<Ground>,
    /// Chooses the engine's book lines; seeded from the clock, so games vary.
    pub rng: crate::rules::shuffle::Rng,
    /// A draw offer by the human that the engine has yet to answer (FIDE 9.1.2.2: it stands
    /// until accepted or declined): the side that offered it.
    pub draw_offer: Option<Color>,
    pub thinking: Option<Thinking>,
    /// The engine's last finished search (its report, line and side together: cleared
    /// together).
    pub last: Option<LastSearch>,
    /// The claims made in the game (correct or not), and the result a loaded game gave:
    /// saved with it, read back, and reviewed.
    pub record: GameRecord,
    search_id: u64,
    /// The game as opened from a PGN file, if it was (its tags, players and result).
    pub loaded: Option<pgn_file::Loaded>,
    /// The play screen's modal on top of it (claim dialog, ruling, promotion, players menu,
    /// game list, questions), which has the keys while it is up.
    pub overlay: Option<Overlay>,
    /// Where the game in progress is kept between runs (None: not kept, as in tests).
    pub resume_path: Option<PathBuf>,
    /// A saved game in progress that was neither resumed nor refused: kept on
    /// disk (set aside if another game has to be saved).
    pub saved_kept: bool,
    /// The last PGN saved: where, and its text (a game that cannot be kept
    /// but was saved so is not lost; the quit question says where it is).
    pub saved_pgn: Option<(PathBuf, String)>,
    /// The time each side had left (White, Black) after each ply played with these clocks,
    /// shown when that ply is viewed.
    pub clock_at: std::collections::BTreeMap<usize, [Duration; 2]>,
}

impl Play {
    /// Whether this game has clocks, as FIDE 9.5's penalty for an incorrect claim needs to
    /// know (the ruling, the claim dialog and the review say it from this).
    pub fn clocks(&self) -> Clocks {
        if self.clock.is_some() {
            Clocks::On
        } else {
            Clocks::Off
        }
    }

    pub fn new(cfg: &Config, game: Game) -> Play {
        let clock = (cfg.clock_base_secs > 0).then(|| {
            Clock::new(
                Duration::from_secs(cfg.clock_base_secs),
                Duration::from_secs(cfg.clock_inc_secs),
            )
        });
        let players = cfg.human;
        Play {
            game,
            flipped: players == Players::HumanBlack,
            cursor: Square::E2,
            selected: None,
            view: None,
            highlight: Vec::new(),
            rng: crate::rules::shuffle::Rng::from_clock(),
            draw_offer: None,
            config: Config {
                level: cfg.level.clamp(*LEVELS.start(), *LEVELS.end()),
                ..cfg.clone()
            },
            clock,
            claim_pending: None,
            thinking: None,
            last: None,
            record: GameRecord::default(),
            search_id: 0,
            loaded: None,
            clock_at: Default::default(),
            overlay: None,
            resume_path: None,
            saved_kept: false,
            saved_pgn: None,
        }
    }

    /// The clocks new games get (seconds: base, increment; base 0: none): the
    /// config's, changed by the clocks key.
    pub fn clock_setting(&self) -> (u64, u64) {
        (self.config.clock_base_secs, self.config.clock_inc_secs)
    }

    /// Whether repetitions are marked, as set: hidden is blind mode (`blind`
    /// in the config); [`Play::marks`] says what the screen may show now.
    pub fn marks_setting(&self) -> Marks {
        if self.config.blind {
            Marks::Hidden
        } else {
            Marks::Shown
        }
    }

    /// The score of the engine's last finished search, if it has one.
    pub fn last_info(&self) -> Option<&Info> {
        self.last.as_ref().map(|l| &l.info)
    }

    /// The principal variation of the engine's last finished search ("" if none).
    pub fn last_pv(&self) -> &str {
        self.last.as_ref().map_or("", |l| l.pv.as_str())
    }

    /// Note the clocks at the current ply (between moves they are stopped at their times
    /// after it), and forget the plies taken back.
    pub(crate) fn note_clocks(&mut self) {
        let len = self.game.len();
        self.clock_at.split_off(&(len + 1));
        if let Some(c) = &self.clock {
            self.clock_at.entry(len).or_insert(c.left);
        }
    }

    /// The time `c` had after the ply viewed, when it was noted; else the time left now.
    pub fn clock_shown(&self, c: Color, now: Instant) -> Option<Duration> {
        let clock = self.clock.as_ref()?;
        let noted = self.view.and_then(|p| self.clock_at.get(&p));
        Some(noted.map_or_else(|| clock.remaining(c, now), |l| l[idx(c)]))
    }
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

/// How far below what a draw is worth to it the engine's score must be for it to accept a
/// draw offer (centipawns): a search's score moves by a few hundredths from move to move,
/// and an engine that took every offer in an equal position would end most games at once.
pub const DRAW_OFFER_MARGIN: i32 = 25;

/// The engine's answer to a draw offer, from its score of the position (centipawns, from
/// its side; `None` if it has none) and its contempt (what a draw is worth less to it): it
/// accepts when playing on is worth clearly less to it than a draw (by
/// [`DRAW_OFFER_MARGIN`]), and says why in one clause.
pub fn draw_offer_answer(score: Option<i32>, contempt: i32) -> (bool, String) {
    let draw = -contempt;
    let pawns = |cp: i32| format!("{:+.2}", f64::from(cp) / 100.0);
    let bar = draw - DRAW_OFFER_MARGIN;
    match score {
        None => (false, "it has no score of the position yet".to_string()),
        Some(s) if s <= bar => (
            true,
            format!(
                "it scores its position {}, worse than the {} a draw is worth to it (contempt \
                 {contempt})",
                pawns(s),
                pawns(draw)
            ),
        ),
        Some(s) => (
            false,
            format!(
                "it scores its position {}, not clearly worse than the {} a draw is worth to \
                 it (contempt {contempt}; it accepts from {})",
                pawns(s),
                pawns(draw),
                pawns(bar)
            ),
        ),
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

/// A move in UCI (for display of engine PVs in ASCII mode and tests).
pub fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// More characters than any move in SAN or UCI has, with check signs and
/// annotations ("exd8=Q+!?" is 9): a longer line is refused by its length
/// instead of being read and quoted back.
pub const MOVE_MAX_CHARS: usize = 32;
