//! The game screen: play the engine or a friend, watch repetitions pile up,
//! claim draws. Its state ([`Play`]), its commands (keys from the table's
//! `Play` context), its mouse hit-testing ([`App::play_click`], on the same
//! layout as the drawing in `render`) and the engine's side of the game.
//! Every ruling comes from the rules core (`crate::rules::claim`, `ending`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess, Color, Move, Position, Square};

use crate::rules::claim::{self, Claim, Clocks, Ground};
use crate::rules::notation::parse_move_lenient;
use crate::rules::pgn::{ClaimMark, RecordedClaim};
use crate::rules::review::GameRecord;
use crate::rules::{EndingKind, Game, MoveNumber, PlayError, color_name, ending};

use super::app::{App, Effect, Input, InputKind, Message, Overlay, Question, Screen, Tone};
pub use super::config::{CLOCK_PRESETS, CONTEMPT_STEPS_CP, HASH_STEPS_MB, Players, clock_label};
use super::config::{Config, Setting};
use super::engine_thread::{Info, Limits, Report};
use super::keys::{self, Cmd, Ctx};
use super::overlay::ClaimOption;
use super::render::{self, Marks};

/// Chess clocks: base + increment, flag fall.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub base: Duration,
    pub inc: Duration,
    /// Time left for White and Black when their clock last stopped.
    pub left: [Duration; 2],
    /// Whose clock runs, since when.
    pub running: Option<(Color, Instant)>,
    /// The clocks are stopped while a claim is made and ruled (FIDE 6.12,
    /// 9.5.1): whose clock starts again when play goes on.
    pub halted: Option<Color>,
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
            halted: None,
        }
    }
    pub fn remaining(&self, c: Color, now: Instant) -> Duration {
        let left = self.left[idx(c)];
        match self.running {
            Some((r, since)) if r == c => left.saturating_sub(now.saturating_duration_since(since)),
            _ => left,
        }
    }
    /// `c` completed a move: stop its clock, add the increment, start the
    /// other (or, with the clocks halted for a claim, let the other's start
    /// when play goes on).
    pub fn moved(&mut self, c: Color, now: Instant) {
        let left = self.remaining(c, now);
        self.left[idx(c)] = left.saturating_add(self.inc);
        if self.halted.is_some() {
            self.halted = Some(!c);
        } else {
            self.running = Some((!c, now));
        }
    }
    pub fn stop(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            self.left[idx(c)] = self.remaining(c, now);
        }
        self.running = None;
        self.halted = None;
    }
    /// Stop the running clock for a claim (FIDE 6.12): it restarts on [`Clock::resume`].
    pub fn halt(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            self.stop(now);
            self.halted = Some(c);
        }
    }
    /// Play goes on after a claim: the halted clock runs again.
    pub fn resume(&mut self, now: Instant) {
        if let Some(c) = self.halted.take() {
            self.running = Some((c, now));
        }
    }
}

/// A game in progress kept between runs: the moves, who plays them, the claims made
/// and the clocks, so that quitting, a signal or a panic loses nothing of the game.
/// Files written before claims and clocks were kept have neither (`serde(default)`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedGame {
    pub start_fen: String,
    pub moves: Vec<String>,
    pub human: Players,
    /// The claims made in the game, as in [`GameRecord::claims`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<SavedClaim>,
    /// The clocks, if the game was played with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<SavedClocks>,
}

/// A claim of a kept game: the ply of [`RecordedClaim::ply`], the mark's
/// [`ClaimMark::code`] ("now" or "move") and the rule's [`Ground::code`] ("9.2", "9.3"),
/// as `[%claim ...]` writes them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedClaim {
    pub ply: usize,
    pub mark: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The clocks of a kept game, in milliseconds: base time, increment, and the time
/// White and Black had left when the game was kept (a running clock is stopped first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedClocks {
    pub base_ms: u64,
    pub inc_ms: u64,
    pub left_ms: [u64; 2],
}

impl SavedGame {
    /// The game in progress of `play`, as it is kept (clocks read at `now`).
    pub fn of(play: &Play, now: Instant) -> SavedGame {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        SavedGame {
            start_fen: play.game.start_fen(),
            moves: play.game.uci_moves(),
            human: play.players,
            claims: play
                .record
                .claims
                .iter()
                .map(|c| SavedClaim {
                    ply: c.ply,
                    mark: c.mark.code().to_string(),
                    rule: c.ground.map(|g| g.code().to_string()),
                })
                .collect(),
            clocks: play.clock.as_ref().map(|c| SavedClocks {
                base_ms: ms(c.base),
                inc_ms: ms(c.inc),
                left_ms: [Color::White, Color::Black].map(|side| ms(c.remaining(side, now))),
            }),
        }
    }
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
    pub players: Players,
    pub level: u8,
    pub hash_mb: usize,
    pub contempt: i32,
    /// The clocks of the game on the board.
    pub clock: Option<Clock>,
    /// The clocks new games get (seconds: base, increment; base 0: none): the
    /// config's, changed by the clocks key.
    pub clock_setting: (u64, u64),
    /// The next move made (typed, cursor or mouse) is the intended move of a
    /// claim under this rule.
    pub claim_pending: Option<Ground>,
    /// Whether the engine opens from its book ([`crate::engine::book`]).
    pub book: bool,
    /// Chooses the engine's book lines; seeded from the clock, so games vary.
    pub rng: crate::rules::shuffle::Rng,
    /// A draw offer by the human that the engine has yet to answer (FIDE 9.1.2.2: it stands
    /// until accepted or declined): the side that offered it.
    pub draw_offer: Option<Color>,
    /// Whether repetitions are marked: hidden is blind mode (`blind` in the config).
    pub marks: Marks,
    pub thinking: Option<Thinking>,
    pub last_info: Option<Info>,
    /// The side to move in the position `last_info` was searched for (its
    /// score is from that side's point of view).
    pub last_side: Option<Color>,
    pub last_pv: String,
    /// The claims made in the game (correct or not), and the result a loaded game gave:
    /// saved with it, read back, and reviewed.
    pub record: GameRecord,
    search_id: u64,
    /// The human's name for saved games ("" = "Player").
    pub name: String,
    /// The game as opened from a PGN file, if it was (its tags, players and result).
    pub loaded: Option<super::pgn_file::Loaded>,
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
            book: cfg.book,
            rng: crate::rules::shuffle::Rng::from_clock(),
            draw_offer: None,
            players,
            level: cfg.level.clamp(1, 8),
            hash_mb: cfg.hash_mb,
            contempt: cfg.contempt,
            clock,
            clock_setting: (cfg.clock_base_secs, cfg.clock_inc_secs),
            claim_pending: None,
            marks: if cfg.blind {
                Marks::Hidden
            } else {
                Marks::Shown
            },
            thinking: None,
            last_info: None,
            last_side: None,
            last_pv: String::new(),
            record: GameRecord::default(),
            search_id: 0,
            name: cfg.name.clone(),
            loaded: None,
            clock_at: Default::default(),
        }
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

/// The game, claims and clocks of a kept game, or what is wrong with it.
fn restore(saved: &SavedGame) -> Result<(Game, Vec<RecordedClaim>, Option<Clock>), String> {
    let mut g = Game::from_fen(&saved.start_fen).map_err(|e| e.to_string())?;
    for m in &saved.moves {
        g.play_uci(m).map_err(|e| e.to_string())?;
    }
    let claims = saved
        .claims
        .iter()
        .map(|c| {
            let mark = ClaimMark::from_code(&c.mark)
                .ok_or_else(|| format!("a claim is marked '{}', not 'now' or 'move'", c.mark))?;
            if c.ply > g.len() || (mark == ClaimMark::WithMove && c.ply == 0) {
                return Err(format!(
                    "a claim '{}' at ply {} of a game of {} plies",
                    c.mark,
                    c.ply,
                    g.len()
                ));
            }
            let ground = match &c.rule {
                None => None,
                Some(r) => Some(
                    Ground::from_code(r)
                        .ok_or_else(|| format!("a claim under '{r}', not '9.2' or '9.3'"))?,
                ),
            };
            Ok(RecordedClaim {
                ply: c.ply,
                mark,
                ground,
                line: 0,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let clock = saved.clocks.map(|c| {
        let d = Duration::from_millis;
        let mut clock = Clock::new(d(c.base_ms), d(c.inc_ms));
        clock.left = c.left_ms.map(d);
        clock
    });
    Ok((g, claims, clock))
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

pub use crate::rules::notation::king_target;

/// A move in UCI (for display of engine PVs in ASCII mode and tests).
pub fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// More characters than any move in SAN or UCI has, with check signs and
/// annotations ("exd8=Q+!?" is 9): a longer line is refused by its length
/// instead of being read and quoted back.
pub const MOVE_MAX_CHARS: usize = 32;

impl App {
    /// Start: ask the engine to move if it is its turn.
    pub fn start(&mut self) {
        self.maybe_engine();
    }

    /// The ply whose board is shown.
    pub fn shown_ply(&self) -> usize {
        self.play
            .view
            .unwrap_or(self.play.game.len())
            .min(self.play.game.len())
    }

    pub fn is_human_turn(&self) -> bool {
        self.play.players.is_human(self.play.game.position().turn()) && !self.play.game.is_over()
    }

    /// Legal targets of the selected piece.
    pub fn targets(&self) -> Vec<Square> {
        match self.play.selected {
            Some(from) if self.play.view.is_none() => self
                .play
                .game
                .position()
                .legal_moves()
                .iter()
                .filter(|m| m.from() == Some(from))
                .map(|m| king_target(m, self.play.game.position().turn()))
                .collect(),
            _ => Vec::new(),
        }
    }

    pub(crate) fn on_report(&mut self, r: Report) {
        match r {
            Report::Info { id, info } => {
                if let Some(t) = &mut self.play.thinking
                    && t.id == id
                {
                    t.pv = pv_san(self.play.game.position(), &info.pv, 8);
                    t.info = Some(info);
                }
            }
            Report::Best { id, mv } => {
                let Some(t) = self.play.thinking.take_if(|t| t.id == id) else {
                    return;
                };
                self.play.last_info = t.info.clone();
                self.play.last_side = t.side;
                self.play.last_pv = t.pv.clone();
                if self.play.game.is_over()
                    || self.play.players.is_human(self.play.game.position().turn())
                {
                    return;
                }
                let Some(m) = mv else { return };
                if !self.play.game.position().is_legal(m) {
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
        let mut declined = None;
        if self.play.draw_offer.take().is_some() {
            let (accept, why) = draw_offer_answer(score, self.play.contempt);
            if accept {
                self.draw_agreed(format!("The engine accepts the draw offer: {why}."));
                return;
            }
            // Declined by playing on (FIDE 9.1.2.2): the move is the answer.
            declined = Some(format!("The engine declines the draw offer: {why}."));
        }
        let welcome = score.is_some_and(|s| s <= -self.play.contempt);
        let game = &self.play.game;
        let now = if claim::threefold_now(game) {
            Some(Ground::Threefold)
        } else {
            claim::fifty_now(game).then_some(Ground::FiftyMoves)
        };
        let with_m = if claim::threefold_moves(game).contains(&m) {
            Some(Ground::Threefold)
        } else {
            claim::fifty_moves(game)
                .contains(&m)
                .then_some(Ground::FiftyMoves)
        };
        if let (true, Some(g)) = (welcome, now) {
            self.claim(Claim::Now, g, false);
        } else if let (true, Some(g)) = (welcome, with_m) {
            self.claim(Claim::WithMove(m), g, false);
        } else {
            self.play_move(m);
            if let Some(d) = declined
                && !self.play.game.is_over()
            {
                self.info(d);
            }
        }
    }

    /// Ask the engine to move if it is its turn. Whether it claims a draw is
    /// decided after the search, from its own score ([`Self::engine_moves`]).
    pub(crate) fn maybe_engine(&mut self) {
        if self.play.game.is_over() || self.play.thinking.is_some() || self.screen != Screen::Play {
            return;
        }
        let turn = self.play.game.position().turn();
        if self.play.players.is_human(turn) {
            return;
        }
        // From the book while the game follows it: played at once, the opening named. A draw
        // offer waits for the engine's search (its score answers it).
        if self.play.book && self.play.draw_offer.is_none() {
            let played: Vec<Move> = self.play.game.moves().collect();
            if let Some(b) = crate::engine::book::Book::builtin().choose(
                self.play.game.start(),
                &played,
                &mut self.play.rng,
            ) {
                self.play_move(b.mv);
                if !self.play.game.is_over() && self.message.is_none() {
                    self.info(format!("Book: {}.", b.name));
                }
                return;
            }
        }
        self.play.search_id += 1;
        let mut limits = level_limits(self.play.level);
        if let Some(c) = &self.play.clock {
            let now = Instant::now();
            limits.wtime = Some(c.remaining(Color::White, now));
            limits.btime = Some(c.remaining(Color::Black, now));
            limits.winc = Some(c.inc);
            limits.binc = Some(c.inc);
            limits.movetime = None;
        }
        self.play.thinking = Some(Thinking {
            id: self.play.search_id,
            info: None,
            side: Some(turn),
            pv: String::new(),
        });
        self.effects.push(Effect::Think {
            id: self.play.search_id,
            start: self.play.game.start().clone(),
            moves: self.play.game.moves().collect(),
            limits,
        });
    }

    pub(crate) fn stop_engine(&mut self) {
        if self.play.thinking.take().is_some() {
            self.effects.push(Effect::Stop);
        }
    }

    /// Play a move on the live game (any player), then let the engine go.
    fn play_move(&mut self, m: Move) {
        let mover = self.play.game.position().turn();
        if let Err(e) = self.play.game.play(m) {
            self.error(short_reason(&e));
            return;
        }
        self.after_move(mover);
    }

    fn after_move(&mut self, mover: Color) {
        let now = Instant::now();
        self.play.record.result = None;
        if let Some(c) = &mut self.play.clock {
            c.moved(mover, now);
        }
        self.play.selected = None;
        self.play.view = None;
        self.play.highlight.clear();
        if self.play.game.is_over() {
            self.game_ended(now);
        } else if self.marks() == Marks::Hidden {
            self.message = None;
        } else {
            let occ = self.play.game.current().occurrence;
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
                        &self.play.game,
                        &self.play.game.earlier(self.play.game.len())
                    )
                ));
            } else {
                self.message = None;
            }
        }
        self.maybe_engine();
    }

    fn game_ended(&mut self, now: Instant) {
        if let Some(c) = &mut self.play.clock {
            c.stop(now);
        }
        self.stop_engine();
        if let Some(t) = self.play.game.termination() {
            self.play.highlight = t.ending.plies.clone();
            let text = t.ending.explanation.clone();
            self.info(text);
        }
        self.forget_saved_game();
    }

    /// `D`: offer a draw (FIDE 9.1). Against the engine, the offer is answered after its
    /// search of its reply, by its score and contempt ([`draw_offer_answer`]); made before
    /// the player's own move, it is still valid but answered after that move (9.1.2.1,
    /// 9.1.2.2). Two humans: the opponent answers a question. An offer is also a claim's
    /// part (9.1.2.4), which the claim dialog already is.
    fn offer_draw(&mut self) {
        if self.play.game.is_over() {
            self.error("The game is over; there is no draw to offer.");
            return;
        }
        let turn = self.play.game.position().turn();
        match self.play.players {
            Players::Engines => {
                self.error("Engine against engine: there is no one to offer a draw.")
            }
            Players::TwoHumans => self.overlay = Some(Overlay::Ask(Question::AcceptDraw)),
            players => {
                let human = if players.is_human(Color::White) {
                    Color::White
                } else {
                    Color::Black
                };
                if self.play.draw_offer.is_some() {
                    self.error("Your draw offer stands: the engine answers it after its search.");
                    return;
                }
                self.play.draw_offer = Some(human);
                if turn == human {
                    self.info(
                        "Draw offered before your move: still valid, but the right moment is after \
                         your move (FIDE 9.1.2.1); the engine answers after your move.",
                    );
                } else {
                    self.info("Draw offered (FIDE 9.1): the engine answers after its search.");
                }
            }
        }
    }

    /// `K`: resign, after a question (the side that resigns: the human; of two humans, the
    /// player to move).
    fn ask_resign(&mut self) {
        if self.play.game.is_over() {
            self.error("The game is over; there is nothing to resign.");
            return;
        }
        if self.play.players == Players::Engines {
            self.error("Engine against engine: there is no one to resign.");
            return;
        }
        self.overlay = Some(Overlay::Ask(Question::Resign));
    }

    /// The side that resigns with `K`: the human against the engine, else the side to move.
    pub fn resigner(&self) -> Color {
        let turn = self.play.game.position().turn();
        match self.play.players {
            Players::HumanWhite => Color::White,
            Players::HumanBlack => Color::Black,
            Players::TwoHumans | Players::Engines => turn,
        }
    }

    /// The resignation, confirmed: the game ends (FIDE 5.1.2).
    pub(crate) fn resign(&mut self) {
        let winner = !self.resigner();
        let kind = EndingKind::Resignation { winner };
        self.end_outside_play(kind, format!("{kind}."));
    }

    /// A draw offer accepted: the game ends drawn by agreement (FIDE 5.2.3, 9.1).
    pub(crate) fn draw_agreed(&mut self, why: String) {
        self.end_outside_play(EndingKind::DrawAgreed, why);
    }

    fn end_outside_play(&mut self, kind: EndingKind, explanation: String) {
        self.play.draw_offer = None;
        self.play.claim_pending = None;
        self.play.game.end_externally(crate::rules::Ending {
            kind,
            explanation,
            plies: Vec::new(),
        });
        self.play.record.result = None;
        self.game_ended(Instant::now());
    }

    /// `P`: play on from a game that ended outside the rules of play (a resignation, an
    /// agreed draw, a loaded game's recorded result), an explicit choice; an ending the
    /// rules made is taken back instead.
    fn play_on(&mut self) {
        let Some(t) = self.play.game.termination() else {
            self.error("The game is not over.");
            return;
        };
        if !t.ending.kind.is_outside_play() {
            self.error(format!(
                "The game ended by the rules ({}): {} takes the last move back.",
                t.ending.kind,
                keys::key_for(Cmd::Takeback)
            ));
            return;
        }
        self.play.game.play_on();
        self.play.record.result = None;
        self.play.highlight.clear();
        if let Some(c) = &mut self.play.clock
            && !self.play.game.is_empty()
        {
            c.running = Some((self.play.game.position().turn(), Instant::now()));
        }
        self.info("Playing on from the position where the game ended.");
        self.maybe_engine();
    }

    /// Judge a claim under `ground` by the player to move (human or engine).
    /// The clocks stop (FIDE 6.12) and the ruling is shown; play goes on, and
    /// the clocks restart, when the ruling is closed ([`Self::close_verdict`]).
    pub(crate) fn claim(&mut self, c: Claim, ground: Ground, human: bool) {
        let now = Instant::now();
        self.halt_clocks(now);
        let mover = self.play.game.position().turn();
        let before = self.play.game.len();
        let clocks = self.play.clocks();
        match claim::judge_under(&mut self.play.game, c, ground, clocks) {
            Err(e) => {
                self.error(short_reason(&e));
                self.resume_clocks();
            }
            Ok(v) => {
                self.record_claim(before, ground);
                let mut text = v.explanation.clone();
                if !human {
                    text = format!("The engine plays {}.\n{text}", color_name(mover));
                }
                self.play.highlight = v.plies.clone();
                self.play.selected = None;
                self.play.view = None;
                if let Some(clock) = &mut self.play.clock {
                    if self.play.game.len() > before {
                        clock.moved(mover, now);
                    }
                    if !v.correct() {
                        // FIDE 9.5: the ruling says so; the clock carries it out.
                        let left = &mut clock.left[idx(!mover)];
                        *left = claim::time_after_incorrect_claim(*left);
                    }
                }
                let correct = v.correct();
                if self.play.game.is_over() {
                    if let Some(c) = &mut self.play.clock {
                        c.stop(now);
                    }
                    self.stop_engine();
                    self.forget_saved_game();
                }
                self.message = Some(Message {
                    tone: if correct { Tone::Info } else { Tone::Error },
                    text: v.conclusion(),
                });
                self.overlay = Some(Overlay::Verdict {
                    correct,
                    text,
                    scroll: 0,
                });
            }
        }
    }

    /// Keep a claim just judged in the game record: made in the position at ply `before`,
    /// with a move if the game has gone on since (as FIDE 9.5 has the intended move played).
    fn record_claim(&mut self, before: usize, ground: Ground) {
        let ply = self.play.game.len();
        let mark = if ply > before {
            ClaimMark::WithMove
        } else {
            ClaimMark::Now
        };
        self.play.record.result = None;
        self.play.record.claims.push(RecordedClaim {
            ply,
            mark,
            ground: Some(ground),
            line: 0,
        });
    }

    /// The ruling is closed: play goes on, the clocks restart, the engine
    /// moves if it is its turn.
    pub(crate) fn close_verdict(&mut self) {
        self.overlay = None;
        self.resume_clocks();
        self.maybe_engine();
    }

    /// An option of the claim dialog: a claim now is ruled at once; a claim
    /// with a move waits for the move.
    pub(crate) fn claim_option(&mut self, o: ClaimOption) {
        self.overlay = None;
        if o.with_move {
            self.claim_with_move(o.ground);
        } else {
            self.claim(Claim::Now, o.ground, true);
        }
    }

    /// The claim dialog was cancelled, or a claim waiting for its move
    /// withdrawn: no claim was made, the clocks run again.
    pub(crate) fn cancel_claim(&mut self) {
        self.overlay = None;
        self.play.claim_pending = None;
        self.resume_clocks();
    }

    /// Stop the clocks for a claim (FIDE 6.12).
    fn halt_clocks(&mut self, now: Instant) {
        if let Some(c) = &mut self.play.clock {
            c.halt(now);
        }
    }

    fn resume_clocks(&mut self) {
        if let Some(c) = &mut self.play.clock {
            c.resume(Instant::now());
        }
    }

    /// A move chosen by a human (typed, cursor or mouse).
    pub(crate) fn human_move(&mut self, m: Move) {
        if let Some(ground) = self.play.claim_pending.take() {
            self.claim(Claim::WithMove(m), ground, true);
        } else {
            self.play_move(m);
        }
    }

    /// Replace the game.
    pub fn new_game(&mut self, game: Game) {
        self.set_game(game);
        self.maybe_engine();
    }

    /// Replace the game (a new game, fresh clocks) without letting the engine go.
    fn set_game(&mut self, game: Game) {
        self.stop_engine();
        self.play.game = game;
        self.play.view = None;
        self.play.selected = None;
        self.play.highlight.clear();
        self.play.claim_pending = None;
        self.play.draw_offer = None;
        self.play.last_info = None;
        self.play.last_pv.clear();
        self.play.loaded = None;
        self.play.clock_at.clear();
        let (b, i) = self.play.clock_setting;
        self.play.clock =
            (b > 0).then(|| Clock::new(Duration::from_secs(b), Duration::from_secs(i)));
        self.play.record = GameRecord {
            clocks: self.play.clocks(),
            ..GameRecord::default()
        };
        self.effects.push(Effect::NewGame);
        self.message = self.play.game.termination().map(|t| Message {
            tone: Tone::Info,
            text: t.ending.explanation.clone(),
        });
    }

    fn takeback(&mut self) {
        self.stop_engine();
        self.cancel_claim();
        self.play.draw_offer = None;
        let ended = self.play.game.is_over();
        let flag_fell = self
            .play
            .game
            .termination()
            .is_some_and(|t| t.ending.kind.is_flag_fall());
        let mut n = 0;
        // Back to a position where a human is to move.
        while self.play.game.undo().is_some() {
            n += 1;
            if self.play.players.is_human(self.play.game.position().turn())
                || self.play.players == Players::Engines
            {
                break;
            }
        }
        self.play.view = None;
        self.play.selected = None;
        self.play.highlight.clear();
        let len = self.play.game.len();
        self.play.record.claims.retain(|c| c.ply <= len);
        self.play.record.result = None;
        if let Some(c) = &mut self.play.clock
            && n > 0
        {
            // Taking back a flag fall takes back the time that ran out: the clocks show
            // what they did after the ply returned to.
            if flag_fell && let Some(left) = self.play.clock_at.get(&len) {
                c.left = *left;
            }
            // The clock of the side to move runs (again, after a game that had ended).
            if (c.running.is_some() || ended) && len > 0 && !self.play.game.is_over() {
                c.running = Some((self.play.game.position().turn(), Instant::now()));
            }
        }
        self.info(if n == 0 {
            "Nothing to take back.".to_string()
        } else {
            format!("Took back {n} {}.", if n == 1 { "ply" } else { "plies" })
        });
        if self.play.players != Players::Engines {
            self.maybe_engine();
        }
    }

    fn jump_occurrence(&mut self, cmd: Cmd) {
        let p = self.shown_ply();
        let same = self.play.game.same_as(p);
        let target = if cmd == Cmd::PrevOccurrence {
            same.iter().rev().find(|&&q| q < p).copied()
        } else {
            same.iter().find(|&&q| q > p).copied()
        };
        match target {
            Some(q) => {
                self.play.view = (q < self.play.game.len()).then_some(q);
                // "Occurrence 1 of 3 of this position: the start position."
                // (the place reads as a noun phrase: "after 2...Ng8" too).
                self.info(format!(
                    "Occurrence {} of {} of this position: {}.",
                    same.iter().position(|&x| x == q).unwrap_or(0) + 1,
                    same.len(),
                    self.play.game.place_label(q)
                ));
            }
            None => self.info(if same.len() > 1 {
                "No further occurrence in that direction.".to_string()
            } else {
                "This position has not occurred elsewhere.".to_string()
            }),
        }
    }

    fn open_claim(&mut self) {
        if self.play.game.is_over() {
            self.error("The game is over; there is nothing to claim.");
            return;
        }
        if !self.is_human_turn() {
            self.error("Only the player to move may claim (FIDE 9.2): wait for your turn.");
            return;
        }
        self.play.view = None;
        self.halt_clocks(Instant::now());
        self.overlay = Some(Overlay::Claim);
    }

    fn move_cursor(&mut self, cmd: Cmd) {
        let (mut df, mut dr): (i32, i32) = match cmd {
            Cmd::Up => (0, 1),
            Cmd::Down => (0, -1),
            Cmd::Left => (-1, 0),
            _ => (1, 0),
        };
        if self.play.flipped {
            df = -df;
            dr = -dr;
        }
        let f = (i32::from(u8::from(self.play.cursor.file())) + df).clamp(0, 7);
        let r = (i32::from(u8::from(self.play.cursor.rank())) + dr).clamp(0, 7);
        self.play.cursor =
            Square::from_coords(shakmaty::File::new(f as u32), shakmaty::Rank::new(r as u32));
    }

    /// Select a piece or put it down on `sq` (cursor Enter/Space or mouse click).
    pub fn select(&mut self, sq: Square) {
        self.play.cursor = sq;
        if self.play.view.is_some() {
            self.play.view = None;
            return;
        }
        if self.play.game.is_over() {
            self.error(game_over_hint());
            return;
        }
        if !self.is_human_turn() {
            self.error("It is the engine's turn.");
            return;
        }
        let pos = self.play.game.position();
        let own = pos
            .board()
            .piece_at(sq)
            .is_some_and(|p| p.color == pos.turn());
        match self.play.selected {
            Some(from) if from != sq => {
                let moves: Vec<Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| {
                        m.from() == Some(from) && (m.to() == sq || king_target(m, pos.turn()) == sq)
                    })
                    .collect();
                match moves.len() {
                    0 if own => self.play.selected = Some(sq),
                    0 => {
                        self.play.selected = None;
                        self.error(format!("{}-{} is not a legal move", from, sq));
                    }
                    1 => {
                        self.play.selected = None;
                        // Castling may come as king-takes-rook: fine either way.
                        self.human_move(moves[0]);
                    }
                    _ => self.overlay = Some(Overlay::Promotion(moves)),
                }
            }
            Some(_) => self.play.selected = None,
            None if own => self.play.selected = Some(sq),
            None => {}
        }
    }

    /// Resume a saved game in progress.
    pub(crate) fn resume(&mut self, saved: &SavedGame) {
        self.saved_kept = false;
        match restore(saved) {
            Ok((g, claims, clock)) => {
                self.play.players = saved.human;
                self.play.flipped = self.play.players == Players::HumanBlack;
                self.set_game(g);
                self.play.record.claims = claims;
                // The game's own clocks (none if it was played without), whatever new
                // games get; the side to move's runs again from now.
                let turn = self.play.game.position().turn();
                let started = !self.play.game.is_empty();
                self.play.clock = clock.map(|mut c| {
                    if started {
                        c.running = Some((turn, Instant::now()));
                    }
                    c
                });
                self.play.record.clocks = self.play.clocks();
                self.play.note_clocks();
                // A problem found at start (the config's) stays on screen: the board
                // shows that the game is back.
                if !self.message.as_ref().is_some_and(|m| m.is_error()) {
                    self.info("Resumed the game in progress.");
                }
                self.maybe_engine();
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

    fn claim_with_move(&mut self, ground: Ground) {
        self.overlay = None;
        self.play.claim_pending = Some(ground);
        self.open_input(InputKind::ClaimMove, "");
        self.info(format!(
            "Write your intended move: type it, or make it on the board ({} types nothing).",
            keys::key_in(Ctx::Input, Cmd::Close)
        ));
    }

    /// The game as PGN, with Date, players, TimeControl, Result and Termination tags, the
    /// claims made, and with clocks the time each player had after each move
    /// (`{[%clk 0:04:58]}`, the PGN Specification Supplement's command).
    pub fn pgn_text(&self) -> String {
        let tags = self.pgn_tags();
        let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let mut notes = crate::rules::pgn::claim_notes(&self.play.record.claims);
        if self.play.clock.is_some() {
            let game = &self.play.game;
            for (&ply, left) in self.play.clock_at.range(1..=game.len()) {
                let mover = game.position_at(ply - 1).turn();
                let s = left[idx(mover)].as_secs();
                let clk = format!("[%clk {}:{:02}:{:02}]", s / 3600, s / 60 % 60, s % 60);
                notes.entry(ply).or_default().comments.insert(0, clk);
            }
        }
        crate::rules::pgn::write_annotated(&self.play.game, &tags, &notes)
    }

    /// Whether replacing the game would lose one: moves played, not over.
    pub fn game_in_progress(&self) -> bool {
        !self.play.game.is_empty() && !self.play.game.is_over()
    }

    /// The FEN prompt, holding the position shown (to edit, or to replace).
    pub(crate) fn open_fen_prompt(&mut self) {
        let fen = self.play.game.fen_at(self.play.game.len());
        self.open_input(InputKind::Fen, &fen);
        self.info(format!(
            "The FEN of the position now: edit it, or {} clears the line for another.",
            keys::key_in(Ctx::Input, Cmd::Edit(super::line_edit::Edit::KillToStart))
        ));
    }

    /// The prompt for a PGN file to load.
    pub(crate) fn open_pgn_prompt(&mut self) {
        self.open_input(InputKind::LoadPgn, "");
    }

    /// A saved game in progress was found at start. Without a game from the
    /// command line: resume it? With one (`--fen`, `--pgn`): replace it? Either
    /// way it stays on disk until the player answers (and is set aside, never
    /// overwritten, if another game has to be kept first).
    pub fn offer_saved_game(&mut self, saved: SavedGame, from_command_line: bool) {
        self.saved_kept = true;
        let q = if from_command_line {
            Question::ReplaceKept(Box::new(saved))
        } else {
            Question::Resume(Box::new(saved))
        };
        self.overlay = Some(Overlay::Ask(q));
    }

    /// A command of the game screen.
    pub(crate) fn play_command(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Up | Cmd::Down | Cmd::Left | Cmd::Right => self.move_cursor(cmd),
            Cmd::Select => self.select(self.play.cursor),
            Cmd::TypeMove => self.open_input(InputKind::Move, ""),
            Cmd::Claim => self.open_claim(),
            Cmd::OfferDraw => self.offer_draw(),
            Cmd::Resign => self.ask_resign(),
            Cmd::PlayOn => self.play_on(),
            Cmd::Takeback => self.takeback(),
            Cmd::NewGame => {
                if self.game_in_progress() {
                    self.overlay = Some(Overlay::Ask(Question::NewGame));
                } else {
                    self.new_game(Game::new());
                }
            }
            Cmd::Flip => self.play.flipped = !self.play.flipped,
            Cmd::HistBack => {
                let p = self.shown_ply();
                self.play.view = Some(p.saturating_sub(1));
                self.play.selected = None;
            }
            Cmd::HistForward => {
                let p = self.shown_ply() + 1;
                self.play.view = (p < self.play.game.len()).then_some(p);
            }
            Cmd::HistStart => self.play.view = Some(0),
            Cmd::HistEnd => self.play.view = None,
            Cmd::PrevOccurrence | Cmd::NextOccurrence if self.marks() == Marks::Hidden => {
                self.error(format!(
                    "Blind mode: look back through the moves yourself ({} shows the marks).",
                    keys::key_for(Cmd::Blind)
                ));
            }
            Cmd::PrevOccurrence | Cmd::NextOccurrence => self.jump_occurrence(cmd),
            Cmd::Blind => {
                self.play.marks = match self.play.marks {
                    Marks::Shown => Marks::Hidden,
                    Marks::Hidden => Marks::Shown,
                };
                self.info(match self.play.marks {
                    Marks::Hidden => format!(
                        "Blind mode: no marks, no hints. Count the repetitions and claim ({}) yourself.",
                        keys::key_for(Cmd::Claim)
                    ),
                    Marks::Shown => "Blind mode off: repeated positions are marked.".to_string(),
                });
                self.save_settings(&[Setting::Blind]);
            }
            Cmd::Save => self.ask_save_name(),
            Cmd::Load if self.game_in_progress() => {
                self.overlay = Some(Overlay::Ask(Question::AbandonForPgn));
            }
            Cmd::Load => self.open_pgn_prompt(),
            Cmd::Fen if self.game_in_progress() => {
                self.overlay = Some(Overlay::Ask(Question::AbandonForFen));
            }
            Cmd::Fen => self.open_fen_prompt(),
            Cmd::Players
            | Cmd::Stronger
            | Cmd::Weaker
            | Cmd::Hash
            | Cmd::Contempt
            | Cmd::Clocks => self.play_setting(cmd),
            _ => {}
        }
    }

    /// The settings of the game screen: who plays, engine level, hash,
    /// contempt, clocks.
    fn play_setting(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Players => {
                let selected = Players::ALL
                    .iter()
                    .position(|&p| p == self.play.players)
                    .unwrap_or(0);
                self.overlay = Some(Overlay::Players { selected });
            }
            Cmd::Stronger | Cmd::Weaker => {
                self.play.level = if cmd == Cmd::Stronger {
                    (self.play.level + 1).min(8)
                } else {
                    self.play.level.saturating_sub(1).max(1)
                };
                self.info(format!(
                    "Engine level {}: {}",
                    self.play.level,
                    describe_limits(&level_limits(self.play.level))
                ));
                self.save_settings(&[Setting::Level]);
            }
            Cmd::Hash => {
                let sizes = HASH_STEPS_MB;
                let i = sizes
                    .iter()
                    .position(|&m| m == self.play.hash_mb)
                    .map_or(0, |i| (i + 1) % sizes.len());
                self.play.hash_mb = sizes[i];
                self.effects.push(Effect::SetHash(self.play.hash_mb));
                self.info(format!("Engine hash {} MiB", self.play.hash_mb));
                self.save_settings(&[Setting::HashMb]);
            }
            Cmd::Contempt => {
                let values = CONTEMPT_STEPS_CP;
                let i = values
                    .iter()
                    .position(|&c| c == self.play.contempt)
                    .map_or(0, |i| (i + 1) % values.len());
                self.play.contempt = values[i];
                self.effects.push(Effect::SetContempt(self.play.contempt));
                self.info(format!(
                    "Engine contempt {} cp: {}",
                    self.play.contempt,
                    match self.play.contempt.signum() {
                        1 => "it avoids draws",
                        -1 => "it welcomes draws",
                        _ => "a draw is worth equality",
                    }
                ));
                self.save_settings(&[Setting::Contempt]);
            }
            Cmd::Clocks => {
                // The preset after the one set (clocks from the config that are not a
                // preset start the cycle; a base of 0 is "off" whatever the increment).
                let (base, _) = self.play.clock_setting;
                let next = CLOCK_PRESETS
                    .iter()
                    .position(|&p| p == self.play.clock_setting)
                    .or((base == 0).then_some(0))
                    .map_or(0, |p| (p + 1) % CLOCK_PRESETS.len());
                let (b, i) = CLOCK_PRESETS[next];
                self.play.clock_setting = (b, i);
                let name = format!("Clocks {}", clock_label(b, i));
                if self.game_in_progress() {
                    // A game under way keeps its clocks, or having none (the time its
                    // players have is theirs, 9.5's minutes included): one rule.
                    self.info(format!(
                        "{name} from the next game ({}); this game keeps its clocks.",
                        keys::key_for(Cmd::NewGame)
                    ));
                } else {
                    // No game under way: the new clocks apply to this one.
                    self.play.clock_at.clear();
                    self.play.clock =
                        (b > 0).then(|| Clock::new(Duration::from_secs(b), Duration::from_secs(i)));
                    self.info(name);
                }
                self.save_settings(&[Setting::ClockBaseSecs, Setting::ClockIncSecs]);
            }
            _ => {}
        }
    }

    /// The players chosen from the menu: one change, straight from the old
    /// players to the new (no engine search starts in between). A search for
    /// a side that is no longer the engine's is stopped; the engine starts
    /// only if it now has the move.
    pub(crate) fn set_players(&mut self, players: Players) {
        if players == self.play.players {
            self.info(format!("Players: {} (unchanged)", players.describe()));
            return;
        }
        self.stop_engine();
        if players == Players::TwoHumans {
            // No engine in the game now: its last line would stand there, stale.
            self.play.last_info = None;
            self.play.last_pv.clear();
        }
        self.play.players = players;
        self.play.flipped = players == Players::HumanBlack;
        self.info(format!("Players: {}", players.describe()));
        self.save_settings(&[Setting::Human]);
        self.maybe_engine();
    }

    /// Time passes: a flag falls (FIDE 6.9, ruled by the rules core).
    pub(crate) fn play_tick(&mut self, now: Instant) {
        if let Some(clock) = &self.play.clock
            && clock.running.is_some()
            && !self.play.game.is_over()
        {
            let turn = self.play.game.position().turn();
            if clock.remaining(turn, now).is_zero() {
                let ending = ending::flag_fall(&self.play.game, turn);
                self.play.game.end_externally(ending);
                self.game_ended(now);
            }
        }
    }

    /// A line typed on the game screen.
    ///
    /// A typed move longer than [`MOVE_MAX_CHARS`] is refused by its length.
    pub(crate) fn play_submit(&mut self, kind: InputKind, text: String) {
        match kind {
            InputKind::Move | InputKind::ClaimMove => {
                if text.is_empty() {
                    return;
                }
                if self.play.game.is_over() {
                    self.error(game_over_hint());
                    return;
                }
                if !self.is_human_turn() {
                    self.error("It is the engine's turn.");
                    return;
                }
                let n = text.trim().chars().count();
                if n > MOVE_MAX_CHARS {
                    // Not quoted back: a paste of 100 kB would fill the screen.
                    self.error(format!(
                        "Not a move: {n} characters (a move has at most {MOVE_MAX_CHARS}); \
                         {} clears the line",
                        keys::key_in(Ctx::Input, Cmd::Edit(super::line_edit::Edit::KillToStart))
                    ));
                    self.input = Some(Input::new(kind, &text));
                    return;
                }
                match parse_move_lenient(self.play.game.position(), &text) {
                    Ok(m) => self.human_move(m),
                    Err(e) => {
                        self.error(e.to_string());
                        // Keep what was typed so it can be corrected.
                        self.input = Some(Input::new(kind, &text));
                    }
                }
            }
            InputKind::Fen => match Game::from_fen(&text) {
                Ok(g) => {
                    self.new_game(g);
                    self.info("Started from the FEN position.");
                }
                Err(e) => {
                    // The reason alone: the FEN stays on the input line below it.
                    self.error(format!("Invalid FEN: {} (correct it below)", e.reason));
                    // Keep the FEN so that it can be corrected.
                    self.input = Some(Input::new(kind, &text));
                }
            },
            InputKind::LoadPgn => self.load_pgn(&PathBuf::from(text)),
            InputKind::SavePgn => self.save_typed(&text),
            InputKind::DrillAnswer => {}
        }
    }

    /// A click on the game screen, hit-tested on the layout it is drawn with.
    pub(crate) fn play_click(&mut self, x: u16, y: u16) {
        let areas = render::layout(self.size);
        let Some(areas) = areas else { return };
        // After the game's end the button is gone (nothing to claim): its place does nothing.
        if areas.claim.contains((x, y).into()) && !self.play.game.is_over() {
            self.run(Cmd::Claim);
            return;
        }
        if let Some(g) = render::board_geom(&areas, self.play.flipped)
            && let Some(sq) = g.square_at(x, y)
        {
            self.select(sq);
            return;
        }
        let (history, engines) = render::history_and_engines(self, &areas);
        if engines.is_none()
            && let Some(ply) = render::spark_ply(self, areas.spark, x, y)
        {
            self.play.view = (ply < self.play.game.len()).then_some(ply);
            self.play.selected = None;
            return;
        }
        for (r, ply) in render::history_cells(self, history) {
            if r.contains((x, y).into()) {
                self.play.view = (ply < self.play.game.len()).then_some(ply);
                self.play.selected = None;
                return;
            }
        }
    }

    /// Keep the game in progress for the next start (on quitting, on a
    /// signal, after a panic); with no game in progress, forget the saved one.
    /// A saved game that was neither resumed nor refused is set aside first,
    /// never overwritten. The error says why a game in progress could not
    /// be kept (quitting asks then; a signal says it on stderr).
    pub fn keep_game_in_progress(&mut self) -> Result<(), KeepError> {
        let Some(p) = self.resume_path.clone() else {
            return Ok(());
        };
        let in_progress = !self.play.game.is_empty() && !self.play.game.is_over();
        if !in_progress {
            self.forget_saved_game();
            return Ok(());
        }
        if self.saved_kept && p.exists() {
            let _ = std::fs::rename(&p, crate::fsio::aside_name(&p, "older"));
        }
        self.saved_kept = false;
        let saved = SavedGame::of(&self.play, Instant::now());
        let text = serde_json::to_string(&saved).map_err(KeepError::Encode)?;
        crate::fsio::write_app_file(&p, text.as_bytes())
            .map_err(|source| KeepError::Write { path: p, source })
    }

    /// The game that was kept is over or gone: delete the file, unless it
    /// holds a game the player has not answered for.
    fn forget_saved_game(&mut self) {
        if let Some(p) = &self.resume_path
            && !self.saved_kept
        {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Why the game in progress could not be kept for the next start.
#[derive(Debug, thiserror::Error)]
pub enum KeepError {
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot encode the game: {0}")]
    Encode(serde_json::Error),
}

/// Read the saved game in progress. A file that is not a saved game is moved
/// aside (as `progress.toml` is) and the message says where.
pub fn load_saved(path: &std::path::Path) -> Result<Option<SavedGame>, String> {
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(format!(
                "cannot read the saved game {}: {e}",
                path.display()
            ));
        }
    };
    let parsed = std::str::from_utf8(&text)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str::<SavedGame>(t).map_err(|e| e.to_string()))
        .and_then(|s| restore(&s).map(|_| s));
    match parsed {
        Ok(s) => Ok(Some(s)),
        Err(reason) => {
            let aside = crate::fsio::aside_name(path, "corrupt");
            Err(match std::fs::rename(path, &aside) {
                Ok(()) => format!(
                    "the saved game {} was unreadable ({reason}); it was moved to {}",
                    path.display(),
                    aside.display()
                ),
                Err(e) => format!(
                    "the saved game {} was unreadable ({reason}) and could not be moved aside ({e})",
                    path.display()
                ),
            })
        }
    }
}
