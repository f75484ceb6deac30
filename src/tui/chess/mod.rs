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
//! It answers the routing App with [`Request`]s, in order ([`Requests`]): what
//! to say on the message line, what to ask of the engine, the input line to
//! open, the settings to save, and a switch to the review. What it needs to
//! know of the terminal comes in an [`Env`]. Every ruling comes from the
//! rules core (`crate::rules::claim`, `ending`).
mod claim;
pub mod drill;
mod engine;
pub mod euwe;
mod overlay;
pub mod pgn_file;
pub mod review;
mod saved;
mod update;
mod view;

use std::path::PathBuf;
use std::time::{Duration, Instant};

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
pub use super::game::kept::{SavedClaim, SavedClocks};
use crate::engine::level::LEVELS;
pub use crate::rules::notation::king_target;
pub use overlay::{
    ClaimLayout, ClaimOption, Overlay, Question, VerdictLayout, claim_layout, promotion_layout,
    verdict_layout,
};
pub use saved::{SavedGame, SavedGameError, SavedGameReason, load_saved};
pub use view::history_cells;

use super::config::Config;
use super::engine_thread::Info;
use super::keys::{self, Cmd};
use super::prompt::InputKind;
use super::widgets::Marks;

pub use super::screen::{Env, Request, Requests};

/// The latest engine report for the running search.
#[derive(Clone, Debug, Default)]
pub struct Thinking {
    pub id: u64,
    pub info: Option<Info>,
    /// The principal variation in SAN, numbered from the searched position.
    pub pv: String,
    pub side: Option<Color>,
}

impl super::game::seat::Search for Thinking {
    fn id(&self) -> u64 {
        self.id
    }
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
    /// The scenario from a real game being played, if one is ([`super::game::scenario`]).
    pub scenario: Option<super::game::scenario::Run>,
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
        let clock = super::game::clocks::clock_for((cfg.clock_base_secs, cfg.clock_inc_secs));
        let players = cfg.human;
        let mut p = Play {
            game,
            flipped: super::game::players::flipped(players).unwrap_or(false),
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
            scenario: None,
        };
        // FIDE 9.5's words in the review follow the game's clocks, from its first move.
        p.record.clocks = p.clocks();
        p
    }

    /// The clocks new games get (seconds: base, increment; base 0: none): the
    /// config's, changed by the clocks key.
    pub fn clock_setting(&self) -> (u64, u64) {
        super::game::clocks::setting(&self.config)
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

impl super::screen::Component for Play {
    fn ctx(&self) -> keys::Ctx {
        self.overlay.as_ref().map_or(keys::Ctx::Play, |o| o.ctx())
    }

    /// A panel of the game screen has the keys while it is up.
    fn key(&mut self, k: &crossterm::event::KeyEvent, env: &Env, out: &mut Requests) -> bool {
        let Some(o) = self.overlay.clone() else {
            return false;
        };
        self.overlay_key(o, k, env, out);
        true
    }

    fn command(&mut self, cmd: Cmd, _env: &Env, out: &mut Requests) {
        match cmd {
            Cmd::Back => self.back(out),
            cmd => Play::command(self, cmd, out),
        }
    }

    fn submit(&mut self, kind: InputKind, text: &str, _env: &Env, out: &mut Requests) {
        Play::submit(self, kind, text.to_string(), out);
    }

    fn input_closed(&mut self, kind: InputKind, _env: &Env, out: &mut Requests) {
        Play::input_closed(self, kind, out);
    }

    fn click(&mut self, x: u16, y: u16, env: &Env, out: &mut Requests) {
        match self.overlay.clone() {
            Some(o) => self.overlay_click(o, x, y, env, out),
            None => Play::click(self, x, y, env, out),
        }
    }

    /// The wheel scrolls a ruling or a file's game list, else steps through the game.
    fn wheel(&mut self, up: bool, _x: u16, _y: u16, env: &Env, out: &mut Requests) {
        match self.overlay.clone() {
            Some(o @ (Overlay::Verdict { .. } | Overlay::PickGame(_))) => {
                let cmd = if up { Cmd::ScrollUp } else { Cmd::ScrollDown };
                self.overlay_command(o, cmd, env, out);
            }
            _ => Play::command(self, if up { Cmd::HistBack } else { Cmd::HistForward }, out),
        }
    }

    fn tick(&mut self, now: Instant, _env: &Env, out: &mut Requests) {
        Play::tick(self, now, out);
    }

    fn render(&self, env: &Env, theme: &super::theme::Theme, buf: &mut ratatui::buffer::Buffer) {
        if let Some(areas) = super::widgets::layout(env.size) {
            Play::render(self, env, theme, &areas, buf);
        }
    }

    fn render_overlay(
        &self,
        env: &Env,
        theme: &super::theme::Theme,
        buf: &mut ratatui::buffer::Buffer,
    ) {
        Play::render_overlay(self, theme, env.size, buf);
    }

    fn hint(&self) -> Option<String> {
        Some(Play::hint(self))
    }

    fn answers(&self) -> Option<super::keys::Answers> {
        match &self.overlay {
            Some(overlay::Overlay::Ask(q)) => overlay::question_answers(q),
            _ => None,
        }
    }

    /// Claims while the game goes on; scrolling a ruling that scrolls.
    fn enabled(&self, cmd: Cmd, env: &Env) -> bool {
        match (cmd, &self.overlay) {
            (Cmd::Claim, None) => !self.game.is_over(),
            (Cmd::ScrollDown | Cmd::PageDown, Some(Overlay::Verdict { text, .. })) => {
                verdict_layout(text, env.size).max_scroll() > 0
            }
            _ => true,
        }
    }

    fn marks(&self) -> Marks {
        Play::marks(self)
    }

    fn asks(&self) -> bool {
        self.overlay.is_some()
    }
}

impl super::game::KeptGame for Play {
    fn game_in_progress(&self) -> bool {
        Play::game_in_progress(self)
    }

    fn can_keep(&self) -> bool {
        self.resume_path.is_some()
    }

    /// Keeps it (a game not begun or over forgets the kept one).
    fn keep_game(&mut self) -> Result<(), KeepError> {
        self.keep_game_in_progress()
    }

    fn saved_file(&self) -> Option<PathBuf> {
        super::game::files::saved_file(&self.saved_pgn, &self.pgn_text())
    }

    fn game_finished(&self) -> bool {
        !self.game.is_empty() && self.game.is_over()
    }

    fn ask_file_name(&mut self, out: &mut Requests) {
        self.ask_save_name(out);
    }
}
