//! The xiangqi screen: a xiangqi game on its board against the engine (which plays by the
//! WXF rulings: its judge is on), between two humans or engine against engine, with every
//! move's status as the judge sees it and the ruling drawn on the board as it builds up.
//!
//! - The board ([`super::xq_board`]): Chinese pieces or letters, the river and the palaces;
//!   the last move, the selected piece and its legal targets, check, and for the move shown
//!   the chased piece and its attackers.
//! - The move list: WXF notation, each move's status ([`Record::move_note`]: check, chase of
//!   which piece, idle, cancel), the repeated positions (×2, ×3), and the plies the ruling
//!   judges (`|`) with the occurrences it counts ([`PLACE_MARK`]).
//! - The ruling: the first one made stands ([`JudgedGame`]) and ends the game; a banner
//!   gives it in the judge's words. Stepping back through the game shows it building up:
//!   at each ply, how often the position has stood and how the judge reads the repetition so
//!   far (what it would rule if the position stood for the deciding time now).
//! - The occurrence at which a repetition is ruled is a setting ([`Cmd::RuleAt`]): the first
//!   repetition, as the paper's engine rules (Tan and Watkinson Medina, "Complete
//!   Implementation of WXF Chinese Chess Rules", 2024, <https://arxiv.org/abs/2412.17334>),
//!   or the third occurrence, as tournament arbiters and Fairy-Stockfish do.
//!
//! The screen owns its state, its commands (the key table's [`Ctx::Xiangqi`]), its layout
//! (one function for drawing and clicks) and its drawing, and answers the
//! [`App`](super::app::App), which only routes to it, with [`Request`]s. Every rule comes from
//! `threefold-xiangqi`: legality, notation, statuses and rulings are its functions.
//!
//! [`Ctx::Xiangqi`]: super::keys::Ctx::Xiangqi

pub mod drill;
pub mod review;
mod saved;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use std::path::{Path, PathBuf};

use crate::review::xiangqi::XqCall;
use crate::rules::fsio::{FileKind, ReadError};
use crate::xiangqi::arbiter::{self, Call, CallAnswer, Consequence};
use crate::xiangqi::judge::{
    Attack, FalseProtection, Harmless, JudgedGame, Level, MoveNote, Outcome, Record, Ruling,
    Unanswered, false_protectors,
};
use crate::xiangqi::notation::{chinese, illegal_reason, parse_move, wxf};
use crate::xiangqi::pgn::{self as xpgn, PgnGame};
use crate::xiangqi::{Color, Move, Position, RuleAt, Square};

use std::time::Instant;

use super::clock::Clock;
use super::config::{self, Config, KeepError, LEVEL, Players, Setting, level_message, step_level};
use super::engine_thread::{AnyMove, Effect, GameRecord, Info, Report};
use super::game::Question;
use super::game::files::{self, SaveTo};
use super::game::players::{self, MenuStep};
use super::game::scenario::{self, Chosen, Run};
use super::game::seat::{self, Heard};
use super::game::{clocks, history, kept};
use super::keys::{self, Cmd, Ctx};
use super::prompt::InputKind;
use super::theme::{PLACE_MARK, RULING_SPAN_MARK, Theme, badge};
use super::widgets::{self, clip};
use super::xq_board::{PointMark, XqBoardView, XqGeom, forbidden_targets, glyph, why_forbidden};
use crate::drills::scenario::{Scenario, ScenarioGame};

pub use super::screen::{Request, Requests};

/// A panel of the xiangqi screen, on top of its move list: one at a time, and `Esc` closes
/// whichever it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// The choice of a call (forbidden repetition or draw).
    Call,
    /// The players menu, this row highlighted, and the sparring setting when it opened (to
    /// say what changed).
    Players(usize, bool),
    /// The arbiter's answer to the last call ([`XiangqiScreen::call_answer`]), for the live
    /// position.
    Answer,
    /// A question before the game in progress or a file is lost, and what a yes does.
    Ask(Question, Box<OnYes>),
}

/// What a yes to a question of the xiangqi screen does (boxed in [`Overlay::Ask`]).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnYes {
    /// A new game from the start position.
    NewGame,
    /// Start the game read (from a FEN or a file), saying this.
    Replace { game: PgnGame, said: String },
    /// Write the game to the file.
    Save(PathBuf),
    /// Play this scenario from a real game.
    Scenario(Chosen),
    /// Open the prompt for a file to open.
    Open,
    /// The kept game asked about at start ([`Question::Kept`]): resumed or deleted.
    Kept,
}

/// A search the screen waits for.
#[derive(Clone, Debug)]
pub struct Thinking {
    pub id: u64,
    pub info: Option<Info<Move>>,
}

impl seat::Search for Thinking {
    fn id(&self) -> u64 {
        self.id
    }
}

/// The xiangqi screen's state.
#[derive(Clone, Debug)]
pub struct XiangqiScreen {
    pub game: JudgedGame,
    pub players: Players,
    pub level: u8,
    pub flipped: bool,
    pub cursor: Square,
    pub selected: Option<Square>,
    /// The ply shown when stepping through the game (None: the live position).
    pub view: Option<usize>,
    pub thinking: Option<Thinking>,
    search_id: u64,
    /// Blind mode: statuses, marks and the judge's panel stay hidden until the game is over.
    pub blind: bool,
    /// The panel "How the judge sees it".
    pub judge_panel: bool,
    /// Moves in the traditional Chinese notation (炮二平五) instead of WXF's (C2=5).
    pub chinese: bool,
    /// The panel up, if one is: the choice of a call, the players menu, the arbiter's
    /// answer, a question.
    pub overlay: Option<Overlay>,
    /// The arbiter's last answer to a call, and who called (the engine or a player).
    pub call_answer: Option<(CallAnswer, bool)>,
    /// Every call made in the game (by a player or the engine), for the review
    /// ([`crate::review::xiangqi::review_with_calls`]); a takeback drops the calls after it.
    pub calls: Vec<XqCall>,
    /// The ply of the engine's last call (it calls once a repetition, not every move).
    engine_called: Option<usize>,
    /// The engine's last score of its own position (centipawns).
    engine_score: Option<i32>,
    /// The clocks of the game (None: no clocks), and those of the next game (base and
    /// increment in seconds, as the config keeps them; base 0: none).
    pub clock: Option<Clock<Color>>,
    pub next_clock: (u64, u64),
    /// The side whose flag fell: it lost on time.
    pub flagged: Option<Color>,
    /// The setting: rule at the first repetition or the third occurrence; a game under way
    /// is ruled so from the change on, a game over keeps its ruling.
    pub rule_at: RuleAt,
    /// The setting: sparring ([`crate::tui::config::Config::sparring`]).
    pub sparring: bool,
    /// Where the game in progress is kept between runs (None: nowhere, as in tests, or
    /// no data directory: quitting then asks before losing a game).
    pub kept_path: Option<PathBuf>,
    /// The kept game was neither resumed nor refused: set aside, never overwritten.
    pub kept_unanswered: bool,
    /// The game as read from the file it was opened from (saved again with the file's tags,
    /// [`files::opened_tags`]); None for a game begun on the trainer.
    pub opened: Option<Box<PgnGame>>,
    /// The player's name, as saved games write it ([`Config::name`]).
    pub name: String,
    /// The file the game was last saved to and the PGN written there (quitting when the
    /// game cannot be kept says where it is saved, if it still is).
    pub saved_pgn: Option<(PathBuf, String)>,
    /// The scenario from a real game being played, if one is ([`super::game::scenario`]).
    pub scenario: Option<Run>,
    /// How many rows of the move list were made so far ([`XiangqiScreen::rows_made`]).
    rows_made: std::cell::Cell<u64>,
}

impl XiangqiScreen {
    /// A new game from the start position: you play Red against the engine at the config's
    /// level, ruled and written as the config says.
    pub fn new(cfg: &Config) -> XiangqiScreen {
        let rule_at = cfg.xiangqi_rule_at;
        let level = cfg.level;
        XiangqiScreen {
            game: JudgedGame::new(Position::start(), rule_at),
            players: Players::HumanWhite,
            level: level.clamp(*LEVEL.start() as u8, *LEVEL.end() as u8),
            flipped: false,
            cursor: Square::new(4, 0).expect("e0"),
            selected: None,
            view: None,
            thinking: None,
            search_id: 0,
            blind: cfg.blind,
            judge_panel: false,
            chinese: cfg.xiangqi_chinese,
            overlay: None,
            call_answer: None,
            calls: Vec::new(),
            engine_called: None,
            engine_score: None,
            clock: clocks::clock_for(clocks::setting(cfg)),
            next_clock: clocks::setting(cfg),
            flagged: None,
            rule_at,
            sparring: cfg.sparring,
            kept_path: None,
            kept_unanswered: false,
            opened: None,
            name: cfg.name.clone(),
            saved_pgn: None,
            scenario: None,
            rows_made: std::cell::Cell::new(0),
        }
    }

    /// How many rows of the move list the redraws made so far: the rows in sight each time,
    /// never the whole game (a test reads it).
    pub fn rows_made(&self) -> u64 {
        self.rows_made.get()
    }

    /// Whether what the player is to find out alone may be shown: always, but in blind mode
    /// only once the game is over.
    pub fn reveal(&self) -> bool {
        super::game::marks(self.blind, self.is_over()) == widgets::Marks::Shown
    }

    /// A move in the notation chosen: WXF (C2=5) or the traditional Chinese (炮二平五), the
    /// Chinese only where the terminal shows it (not `ascii`: WXF there).
    pub fn notation(&self, pos: &Position, m: Move, ascii: bool) -> String {
        if self.chinese && !ascii {
            chinese(pos, m)
        } else {
            wxf(pos, m)
        }
    }

    pub fn record(&self) -> &Record {
        self.game.record()
    }

    /// The ply shown on the board.
    pub fn shown(&self) -> usize {
        self.view.unwrap_or(self.record().ply())
    }

    /// The screen's settings as the config file keeps them.
    pub fn settings(&self, cfg: &mut Config) {
        cfg.xiangqi_rule_at = self.rule_at;
        cfg.xiangqi_chinese = self.chinese;
        cfg.sparring = self.sparring;
        cfg.level = self.level;
        cfg.blind = self.blind;
        (cfg.clock_base_secs, cfg.clock_inc_secs) = self.next_clock;
    }

    /// Whether the game is over: a ruling stands (a repetition ruled, or no legal move), or
    /// a flag fell.
    pub fn is_over(&self) -> bool {
        self.game.standing().is_some() || self.flagged.is_some()
    }

    /// The game's end in words ("Black wins, Red loses"), if it is over.
    fn end_words(&self) -> Option<String> {
        if let Some(c) = self.flagged {
            return Some(format!(
                "{} wins on time, {} loses",
                c.other().title(),
                c.title()
            ));
        }
        self.game.standing().map(Ruling::headline)
    }

    /// Time passes: a flag falls when the side to move has no time left (WXF: a player who
    /// exceeds the time limit loses).
    pub fn tick(&mut self, now: Instant, out: &mut Requests) {
        let turn = self.record().current().side_to_move();
        if !clocks::flag_fell(self.clock.as_ref(), turn, self.is_over(), now) {
            return;
        }
        if let Some(c) = &mut self.clock {
            c.stop(now);
        }
        self.flagged = Some(turn);
        self.stop_engine(out);
        out.info(format!(
            "{}'s flag fell: {}.",
            turn.title(),
            self.end_words().unwrap_or_default()
        ));
    }

    /// Whether time runs on the screen (clocks or the engine's search): the run loop redraws
    /// more often.
    pub fn animating(&self) -> bool {
        self.thinking.is_some() || self.clock.as_ref().is_some_and(|c| c.running.is_some())
    }

    /// Plays a legal move on the live position.
    fn play(&mut self, m: Move, out: &mut Requests) {
        let mover = self.record().current().side_to_move();
        if self.players.is_human(mover) {
            self.call_answer = None;
            self.close_answer();
            out.push(Request::Clear);
        }
        self.selected = None;
        self.game.push(m);
        self.cursor = m.to();
        let now = Instant::now();
        if let Some(c) = &mut self.clock {
            c.moved(mover, now);
            if self.game.standing().is_some() {
                c.stop(now);
            }
        }
        if let Some(r) = self.game.standing() {
            out.info(format!("{}.", r.headline()));
        }
        self.engine_calls(out);
        self.maybe_engine(out);
    }

    /// The engine calls the arbiter when the rules favour it (the opponent repeats forbidden
    /// moves, or a repetition it would welcome as a draw), once a repetition.
    fn engine_calls(&mut self, out: &mut Requests) {
        let side = self.record().current().side_to_move();
        let ply = self.record().ply();
        if self.players.is_human(side)
            || self.is_over()
            || self.engine_called.is_some_and(|p| p + 4 > ply && p <= ply)
        {
            return;
        }
        let draw_welcome = config::engine_may_claim_draw(
            scenario::sparring(self.sparring, self.scenario.as_ref()),
            self.engine_score.is_some_and(|cp| cp <= -50),
        );
        if let Some(call) = arbiter::favourable_call(&self.game, side, draw_welcome) {
            let answer = arbiter::call(&self.game, side, call);
            self.engine_called = Some(ply);
            self.calls.push(XqCall {
                ply,
                caller: side,
                call,
            });
            let over = matches!(answer.consequence(), Consequence::GameOver(_));
            if self.blind && !over {
                // Blind mode: a call tells of a repetition, and so would its answer; both
                // wait for the end of the game (the call is kept for the review).
            } else {
                out.info(format!(
                    "The engine calls the arbiter: {}.",
                    answer.headline()
                ));
                self.overlay = Some(Overlay::Answer);
            }
            self.call_answer = Some((answer, true));
        }
    }

    /// The player calls the arbiter (`call`): the answer, in the judge's words.
    fn player_calls(&mut self, call: Call, out: &mut Requests) {
        self.overlay = None;
        let side = self.record().current().side_to_move();
        let caller = match self.players {
            Players::HumanWhite => Color::Red,
            Players::HumanBlack => Color::Black,
            Players::TwoHumans => side,
            Players::Engines => return out.error("Two engines play: there is no one to call."),
        };
        let answer = arbiter::call(&self.game, caller, call);
        self.calls.push(XqCall {
            ply: self.record().ply(),
            caller,
            call,
        });
        let over = matches!(answer.consequence(), Consequence::GameOver(_));
        out.info(format!("{}.", answer.headline()));
        self.call_answer = Some((answer, false));
        self.overlay = Some(Overlay::Answer);
        if over {
            self.stop_engine(out);
        }
    }

    /// Ask the engine to move if it is its turn and it is not thinking.
    pub fn maybe_engine(&mut self, out: &mut Requests) {
        let side = self.record().current().side_to_move();
        if self.is_over()
            || self.players.is_human(side)
            || self.thinking.is_some()
            || matches!(self.overlay, Some(Overlay::Ask(..)))
        {
            return;
        }
        let rec = self.record();
        let game = GameRecord::Xiangqi {
            start: rec.position(0).clone(),
            moves: (1..=rec.ply()).map(|p| rec.move_at(p)).collect(),
        };
        let id = seat::think(
            &mut self.search_id,
            self.level,
            scenario::sparring(self.sparring, self.scenario.as_ref()),
            self.clock.as_ref(),
            game,
            out,
        );
        self.thinking = Some(Thinking { id, info: None });
    }

    /// Stop the engine's search, if one runs (its move will be ignored).
    pub fn stop_engine(&mut self, out: &mut Requests) {
        seat::stop(&mut self.thinking, out);
    }

    /// A report of the engine thread.
    pub fn on_report(&mut self, r: Report, ascii: bool, out: &mut Requests) {
        match seat::hear(&mut self.thinking, r, AnyMove::xiangqi) {
            Heard::Progress(info) => {
                self.engine_score = Some(info.score.cp());
                if let Some(t) = &mut self.thinking {
                    t.info = Some(info);
                }
            }
            Heard::Done(_, mv) => {
                let side = self.record().current().side_to_move();
                if self.is_over() || self.players.is_human(side) {
                    return;
                }
                match mv {
                    Some(m) if self.record().current().is_legal(m) => {
                        let text = self.notation(self.record().current(), m, ascii);
                        self.play(m, out);
                        if self.game.standing().is_none() {
                            out.info(format!("The engine played {text}."));
                        }
                    }
                    Some(_) => out.error("the engine sent an illegal move; ignored"),
                    None => {}
                }
            }
            Heard::Failed(e) => out.error(e),
            Heard::Stale => {}
        }
    }

    /// A command of the screen's context.
    pub fn command(&mut self, cmd: Cmd, out: &mut Requests) {
        let ply = self.record().ply();
        match (&self.overlay, cmd) {
            (Some(Overlay::Players(row, sparring_was)), _) => {
                let sparring_was = *sparring_was;
                match players::menu_step(*row, cmd) {
                    Some(MenuStep::Row(row)) => {
                        self.overlay = Some(Overlay::Players(row, sparring_was))
                    }
                    Some(MenuStep::Choose(p)) => self.choose_players(p, sparring_was, out),
                    Some(MenuStep::Close) => self.overlay = None,
                    Some(MenuStep::ToggleSparring) => {
                        out.info(config::toggle_sparring(&mut self.sparring));
                        out.push(Request::SaveSettings(&[Setting::Sparring]));
                    }
                    None => {}
                }
                return;
            }
            (Some(Overlay::Ask(..)), Cmd::Yes | Cmd::No) => {
                let Some(Overlay::Ask(q, on_yes)) = self.overlay.take() else {
                    unreachable!("matched")
                };
                if let Question::Kept(offer) = q {
                    kept::answer(self, offer, cmd == Cmd::Yes, out);
                    return;
                }
                return self.answer(*on_yes, cmd == Cmd::Yes, out);
            }
            (Some(Overlay::Ask(..)), Cmd::Close) => {
                // Decide later: nothing changes, and the engine plays if it is its turn.
                if let Some(Overlay::Ask(Question::Kept(offer), _)) = self.overlay.take() {
                    kept::later(self, offer, out);
                } else {
                    self.maybe_engine(out);
                }
                return;
            }
            (Some(Overlay::Ask(..)), _) => return,
            // Esc closes the panel up, whatever it is.
            (Some(_), Cmd::Back | Cmd::Close) => {
                self.overlay = None;
                return;
            }
            // The judge's panel (`J`) is a panel too: Esc closes it before it steps back to
            // the live position.
            (None, Cmd::Back | Cmd::Close) if self.judge_panel => {
                self.judge_panel = false;
                return;
            }
            // The arbiter's answer is about the live position: stepping through the game
            // closes it.
            (
                Some(Overlay::Answer),
                Cmd::HistBack | Cmd::HistForward | Cmd::HistStart | Cmd::HistEnd,
            ) => self.overlay = None,
            _ => {}
        }
        match cmd {
            Cmd::Up | Cmd::Down | Cmd::Left | Cmd::Right => self.move_cursor(cmd),
            Cmd::Select => self.select(self.cursor, out),
            Cmd::TypeMove => {
                if let Some(why) = self.why_no_move() {
                    out.error(why);
                } else {
                    out.push(Request::Type(InputKind::Move, String::new()));
                }
            }
            Cmd::Takeback => self.takeback(out),
            // A game under way is not lost to one key: the question chess asks.
            Cmd::NewGame if self.in_progress() => {
                self.overlay = Some(Overlay::Ask(Question::NewGame, Box::new(OnYes::NewGame)));
            }
            Cmd::NewGame => self.answer(OnYes::NewGame, true, out),
            Cmd::Flip => self.flipped = !self.flipped,
            Cmd::HistBack | Cmd::HistForward | Cmd::HistStart | Cmd::HistEnd => {
                self.view = history::step(cmd, self.view, ply).unwrap_or(self.view);
                self.selected = None;
            }
            Cmd::Back => self.view = None,
            Cmd::Players => {
                self.overlay = Some(Overlay::Players(
                    players::menu_row(self.players),
                    self.sparring,
                ))
            }
            Cmd::Stronger | Cmd::Weaker => {
                self.level = step_level(self.level, cmd == Cmd::Stronger);
                out.info(level_message(self.level, false));
                out.save_settings(&[Setting::Level]);
            }
            Cmd::RuleAt => {
                self.rule_at = self.rule_at.other();
                out.push(Request::SaveSettings(&[Setting::XiangqiRuleAt]));
                // A ruling made stands: the setting then rules the next game.
                if self.is_over() {
                    return out.info(format!(
                        "The next game's repetitions are ruled {}; this game's ruling stands.",
                        rule_at_words(self.rule_at)
                    ));
                }
                self.game = JudgedGame::of(self.record(), self.rule_at);
                out.info(format!(
                    "Repetitions are ruled {}.",
                    rule_at_words(self.rule_at)
                ));
                self.maybe_engine(out);
            }
            // The line opens empty (a xiangqi FEN is wider than the line: prefilled, it
            // showed only its end); a game in progress is asked about once the FEN is read.
            Cmd::Fen => out.push(Request::Type(InputKind::Fen, String::new())),
            Cmd::Clocks => {
                self.next_clock = clocks::next_preset(self.next_clock);
                // A game under way keeps its clocks; with none under way they are this one's.
                let in_progress = self.in_progress();
                if !in_progress {
                    self.clock = clocks::clock_for(self.next_clock);
                }
                out.info(clocks::chosen(self.next_clock, in_progress));
                out.save_settings(clocks::SETTINGS);
            }
            Cmd::Blind => {
                self.blind = !self.blind;
                out.info(if self.blind {
                    "Blind mode: statuses, marks and the judge's panel wait for the end of the \
                     game; you must notice the chase yourself."
                } else {
                    "Blind mode off: statuses and marks shown."
                });
                out.save_settings(&[Setting::Blind]);
            }
            Cmd::WhyForbidden => out.info(why_forbidden(
                self.record(),
                self.selected,
                self.cursor,
                self.reveal(),
            )),
            Cmd::JudgePanel => {
                self.judge_panel = !self.judge_panel;
                // One panel at a time: the judge's takes the place of the arbiter's answer.
                if self.judge_panel && self.overlay == Some(Overlay::Answer) {
                    self.overlay = None;
                }
                if self.judge_panel && !self.reveal() {
                    out.info("How the judge sees it waits for the end of the game in blind mode.");
                }
            }
            Cmd::Notation => {
                self.chinese = !self.chinese;
                out.info(if self.chinese {
                    "Moves in the traditional Chinese notation (炮二平五)."
                } else {
                    "Moves in WXF notation (C2=5)."
                });
                out.push(Request::SaveSettings(&[Setting::XiangqiChinese]));
            }
            Cmd::CallArbiter => {
                if self.players == Players::Engines {
                    out.error("Two engines play: there is no one to call.");
                } else {
                    self.overlay = Some(Overlay::Call);
                }
            }
            Cmd::CallAs(call) => self.player_calls(call, out),
            Cmd::Save => self.ask_save_name(out),
            Cmd::Load => {
                let asks = files::ask_open(self.in_progress(), out);
                let q = Question::AbandonForPgn;
                self.overlay = asks.then(|| Overlay::Ask(q, Box::new(OnYes::Open)));
            }
            Cmd::Xiangqi => {
                self.stop_engine(out);
                out.push(Request::Leave);
            }
            _ => {}
        }
    }

    /// Who plays, from the players menu: the board turns so that your side is at the
    /// bottom.
    fn choose_players(&mut self, players: Players, sparring_was: bool, out: &mut Requests) {
        self.overlay = None;
        out.info(players::chosen::<Color>(
            (self.players, sparring_was),
            (players, self.sparring),
        ));
        if players == self.players {
            return;
        }
        self.players = players;
        if let Some(f) = players::flipped(players) {
            self.flipped = f;
        }
        self.stop_engine(out);
        self.maybe_engine(out);
    }

    /// The line under the screen: the keys a new player looks for.
    pub fn hint(&self) -> String {
        let k = |c| keys::key_in(Ctx::Xiangqi, c);
        if self.is_over() {
            format!(
                "{} new game · {} take back · {} drills · {} chess",
                k(Cmd::NewGame),
                k(Cmd::Takeback),
                k(Cmd::Drills),
                k(Cmd::Xiangqi)
            )
        } else {
            format!(
                "{} players · {} call the arbiter · {} the judge · {} drills · {} chess",
                k(Cmd::Players),
                k(Cmd::CallArbiter),
                k(Cmd::JudgePanel),
                k(Cmd::Drills),
                k(Cmd::Xiangqi)
            )
        }
    }

    /// Why no move can be made now (None: one can).
    fn why_no_move(&self) -> Option<String> {
        if self.view.is_some() {
            return Some(format!(
                "You are looking at an earlier position: {} goes back to the live one.",
                keys::key_in(Ctx::Xiangqi, Cmd::HistEnd)
            ));
        }
        if let Some(end) = self.end_words() {
            return Some(format!(
                "The game is over: {end}. {} takes back, {} starts a new game.",
                keys::key_in(Ctx::Xiangqi, Cmd::Takeback),
                keys::key_in(Ctx::Xiangqi, Cmd::NewGame)
            ));
        }
        let side = self.record().current().side_to_move();
        if !self.players.is_human(side) {
            return Some(format!("It is the engine's move ({}).", side.title()));
        }
        None
    }

    fn move_cursor(&mut self, cmd: Cmd) {
        let (f, r) = (self.cursor.file() as i8, self.cursor.rank() as i8);
        // Up is up on the screen: towards rank 9 unless the board is flipped.
        let up = if self.flipped { -1 } else { 1 };
        let right = up;
        let (df, dr) = match cmd {
            Cmd::Up => (0, up),
            Cmd::Down => (0, -up),
            Cmd::Left => (-right, 0),
            _ => (right, 0),
        };
        let (f, r) = ((f + df).clamp(0, 8), (r + dr).clamp(0, 9));
        if let Some(sq) = Square::new(f as u8, r as u8) {
            self.cursor = sq;
        }
    }

    /// Pick up the piece on `sq`, or put the piece picked up down there.
    fn select(&mut self, sq: Square, out: &mut Requests) {
        if let Some(why) = self.why_no_move() {
            out.error(why);
            return;
        }
        let pos = self.record().current().clone();
        let side = pos.side_to_move();
        let own = pos.piece_at(sq).is_some_and(|p| p.color == side);
        match self.selected {
            Some(from) if from == sq => self.selected = None,
            // Picked up: the status line's last word is old news, as on chess's screen.
            _ if own => {
                self.selected = Some(sq);
                out.clear();
            }
            Some(from) => {
                let m = Move::new(from, sq);
                match illegal_reason(&pos, m) {
                    None => self.play(m, out),
                    Some(why) => out.error(format!("{}: {why}.", m.ucci())),
                }
            }
            None => out.error(match pos.piece_at(sq) {
                None => format!("No piece on {sq}: pick one of {}'s pieces.", side.title()),
                Some(p) => format!(
                    "The {} on {sq} is {}'s; it is {} to move.",
                    p.kind.name(),
                    p.color.title(),
                    side.title()
                ),
            }),
        }
    }

    /// A click at a screen position: a point of the board picks up or puts down.
    pub fn click(&mut self, size: Rect, x: u16, y: u16, out: &mut Requests) {
        if let Some(Overlay::Players(_, sparring_was)) = self.overlay {
            match players::click(size, x, y) {
                Some(MenuStep::Choose(p)) => self.choose_players(p, sparring_was, out),
                Some(MenuStep::Close) => self.overlay = None,
                _ => {}
            }
            return;
        }
        let Some(a) = layout(size) else { return };
        let Some(g) = XqGeom::fit(a.board, self.flipped) else {
            return;
        };
        if let Some(sq) = g.square_at(x, y) {
            self.cursor = sq;
            self.select(sq, out);
        } else if self
            .call_button(a.side)
            .is_some_and(|b| b.contains((x, y).into()))
        {
            self.command(Cmd::CallArbiter, out);
        } else if a.side.contains((x, y).into())
            && let Some(ply) = self.ply_at_row(a.side, y)
        {
            self.view = (ply < self.record().ply()).then_some(ply);
        }
    }

    /// A line typed at the input line.
    pub fn submit(&mut self, kind: InputKind, text: &str, out: &mut Requests) {
        match kind {
            InputKind::Move => {
                if let Some(why) = self.why_no_move() {
                    return out.error(why);
                }
                match parse_move(self.record().current(), text) {
                    Ok(m) => self.play(m, out),
                    Err(e) => {
                        out.error(format!("{e}."));
                        out.push(Request::Type(InputKind::Move, text.to_string()));
                    }
                }
            }
            InputKind::Fen => match Position::from_fen(text) {
                Ok(pos) => {
                    let said = match pos.unreachable_warning() {
                        Some(w) => format!("New game from the FEN. {w}"),
                        None => "New game from the FEN.".to_string(),
                    };
                    let game = PgnGame::new(pos);
                    self.replace_asking(Question::AbandonForFen, game, said, out);
                }
                Err(e) => super::game::refuse_fen(out, InputKind::Fen, text, e.reason()),
            },
            InputKind::SavePgn => match files::save_to(text) {
                SaveTo::Nothing => {}
                SaveTo::Ask(path) => {
                    let q = Question::Overwrite(path.clone());
                    self.overlay = Some(Overlay::Ask(q, Box::new(OnYes::Save(path))));
                }
                SaveTo::Write(path) => self.save(path, out),
            },
            InputKind::LoadPgn => {
                let Some(path) = files::open_path(text) else {
                    return;
                };
                match read_game(&path, FileKind::PgnGame) {
                    Ok(g) => {
                        let black_first = g.start.side_to_move() == Color::Black;
                        let opened = files::opened(&path, None, g.moves.len(), black_first);
                        // A start position no game can reach is said, as for a FEN typed.
                        let players = files::opened_players_note();
                        let said = match g.start.unreachable_warning() {
                            Some(w) => format!("{opened}. {w} {players}"),
                            None => format!("{opened}. {players}"),
                        };
                        self.players = files::OPENED_PLAYERS;
                        self.set_game(g.start.clone(), &g.moves, out);
                        self.opened = Some(Box::new(g));
                        out.info(said);
                    }
                    Err(e) => files::not_opened(e, &path, out),
                }
            }
            _ => {}
        }
    }

    /// The game as PGN, as Fairy-Stockfish-based programs read it (`[Variant "xiangqi"]`).
    pub fn pgn(&self) -> PgnGame {
        let rec = self.record();
        let mut g = PgnGame::new(rec.position(0).clone());
        g.moves = (1..=rec.ply()).map(|p| rec.move_at(p)).collect();
        let p = self.players;
        let name = |side| files::player_name(p.is_human(side), p, &self.name, self.level);
        let spars = scenario::sparring(self.sparring, self.scenario.as_ref());
        let opened = self.opened.as_ref();
        let unchanged = opened.filter(|o| o.start == g.start && o.moves == g.moves);
        g.tags = match opened {
            Some(o) => files::opened_tags(&o.tags, unchanged.is_some()),
            None => files::game_tags(
                "threefold xiangqi",
                [name(Color::Red), name(Color::Black)],
                self.clock.as_ref().map(|c| (c.base, c.inc)),
                [Color::Red, Color::Black].map(|side| spars && !p.is_human(side)),
            ),
        };
        g.result = match self.game.standing().map(|r| (r.outcome, r.side)) {
            Some((Outcome::Draw, _)) => xpgn::Outcome::Draw,
            Some((Outcome::Win, Color::Red) | (Outcome::Loss, Color::Black)) => {
                xpgn::Outcome::RedWins
            }
            Some((Outcome::Win | Outcome::Loss, _)) => xpgn::Outcome::BlackWins,
            _ => xpgn::Outcome::Unknown,
        };
        // A game opened and not played on: the file's result, as read.
        if let Some(o) = unchanged {
            g.result = o.result;
        }
        g
    }

    /// Replace the game with `game` (from a FEN or a file; its moves were checked as read),
    /// asking `q` first if that would lose the game in progress.
    fn replace_asking(&mut self, q: Question, game: PgnGame, said: String, out: &mut Requests) {
        let on_yes = OnYes::Replace { game, said };
        if self.in_progress() {
            self.overlay = Some(Overlay::Ask(q, Box::new(on_yes)));
        } else {
            self.answer(on_yes, true, out);
        }
    }

    /// The answer to a question: yes does what was asked; no to overwriting brings the name
    /// back to be changed; no to abandoning the game keeps it.
    fn answer(&mut self, on_yes: OnYes, yes: bool, out: &mut Requests) {
        match (on_yes, yes) {
            (OnYes::NewGame, true) => {
                self.restart(Position::start(), out);
                out.info("New game from the start position.");
            }
            (OnYes::Replace { game, said }, true) => {
                self.set_game(game.start, &game.moves, out);
                out.info(said);
            }
            (OnYes::Scenario(chosen), true) => self.start_scenario(chosen.0, out),
            (OnYes::Open, true) => files::open_prompt(out),
            (OnYes::NewGame | OnYes::Replace { .. } | OnYes::Scenario(_) | OnYes::Open, false) => {
                super::game::goes_on(out)
            }
            // Answered with its question ([`kept::answer`]).
            (OnYes::Kept, _) => {}
            (OnYes::Save(path), true) => self.save(path, out),
            (OnYes::Save(path), false) => files::save_elsewhere(&path, out),
        }
    }

    /// Write the game to `path` (atomically).
    fn save(&mut self, path: PathBuf, out: &mut Requests) {
        if let Some(saved) = files::write(&path, self.pgn().write(), out) {
            self.saved_pgn = Some(saved);
        }
    }

    /// The arbiter's answer goes with the position it was given for.
    fn close_answer(&mut self) {
        if self.overlay == Some(Overlay::Answer) {
            self.overlay = None;
        }
    }

    /// The choice of a call is open.
    pub fn calling(&self) -> bool {
        self.overlay == Some(Overlay::Call)
    }

    /// The prompt for a file name to save the game in (`s`, and no to quitting without the
    /// game kept).
    pub fn ask_save_name(&self, out: &mut Requests) {
        files::ask_save_name("xiangqi", out);
    }

    /// A game begun and not over: what quitting must keep (or ask before losing).
    pub fn in_progress(&self) -> bool {
        self.record().ply() > 0 && !self.is_over()
    }

    /// Where the game is saved as PGN, if the file written last still holds this game.
    pub fn saved_as(&self) -> Option<PathBuf> {
        files::saved_file(&self.saved_pgn, &self.pgn().write())
    }

    fn restart(&mut self, start: Position, out: &mut Requests) {
        self.set_game(start, &[], out);
    }

    /// A new game from `start` with `moves` played (legal: checked when read), with the
    /// clocks new games get.
    fn set_game(&mut self, start: Position, moves: &[Move], out: &mut Requests) {
        let clock = clocks::clock_for(self.next_clock);
        self.set_game_clocked(start, moves, clock, out);
    }

    /// [`Self::set_game`] with these clocks.
    fn set_game_clocked(
        &mut self,
        start: Position,
        moves: &[Move],
        clock: Option<Clock<Color>>,
        out: &mut Requests,
    ) {
        scenario::leave(&mut self.scenario);
        self.stop_engine(out);
        out.push(Request::Engine(Effect::NewGame));
        self.opened = None;
        self.game = JudgedGame::new(start, self.rule_at);
        for &m in moves {
            self.game.push(m);
        }
        self.view = None;
        self.selected = None;
        self.cursor = self.record().current().king(Color::Red);
        self.call_answer = None;
        self.calls.clear();
        self.close_answer();
        self.engine_called = None;
        self.flagged = None;
        self.clock = clock;
        self.maybe_engine(out);
    }

    /// Play a scenario from a real game ([`Request::PlayScenario`]), asking first if that
    /// would lose the game in progress.
    pub fn play_scenario(&mut self, chosen: Chosen, out: &mut Requests) {
        let on_yes = OnYes::Scenario(chosen);
        if self.in_progress() {
            self.overlay = Some(Overlay::Ask(Question::AbandonForScenario, Box::new(on_yes)));
        } else {
            self.answer(on_yes, true, out);
        }
    }

    /// Start the scenario: its game up to `begin`, the player on its side, the engine
    /// sparring on the other.
    fn start_scenario(&mut self, s: Box<Scenario>, out: &mut Requests) {
        let ScenarioGame::Xiangqi(rec) = s.position_at_begin() else {
            out.error(format!("Scenario {} is not a xiangqi game.", s.id));
            return;
        };
        let run = Run::new(s);
        self.players = run.players();
        self.flipped = self.players == Players::HumanBlack;
        let moves: Vec<Move> = (1..=rec.ply()).map(|p| rec.move_at(p)).collect();
        self.set_game(rec.position(0).clone(), &moves, out);
        out.info(run.opening());
        self.scenario = Some(run);
    }

    /// Take back the last move, and the engine's reply with it when a human plays
    /// against the engine (back to the human's turn).
    fn takeback(&mut self, out: &mut Requests) {
        self.stop_engine(out);
        self.view = None;
        self.selected = None;
        let game = &mut self.game;
        let n = history::take_back(self.players, || {
            (game.record().ply() > 0).then(|| {
                game.pop();
                game.record().current().side_to_move()
            })
        });
        let ply = self.record().ply();
        self.calls.retain(|c| c.ply <= ply);
        out.info(history::taken_back(n));
        self.maybe_engine(out);
    }
}

/// Why a xiangqi game could not be read from a file.
#[derive(Debug, thiserror::Error)]
pub enum ReadGameError {
    /// The file could not be read (missing, not a regular file, too large, not UTF-8).
    #[error("{0}.")]
    Read(#[from] ReadError),
    /// The text is not a xiangqi game.
    #[error("{}: {}.", crate::fsio::file_place(path.display(), Some(source.line)), source.reason)]
    Pgn {
        path: PathBuf,
        source: Box<xpgn::PgnError>,
    },
}

/// A xiangqi game from a PGN file read whole (within `kind`'s limit); the error names the
/// file, the line and the problem.
fn read_game(path: &Path, kind: FileKind) -> Result<PgnGame, ReadGameError> {
    let text = crate::fsio::read_text(path, kind)?;
    xpgn::read(&text).map_err(|source| ReadGameError::Pgn {
        path: path.to_path_buf(),
        source: Box::new(source),
    })
}

fn rule_at_words(at: RuleAt) -> &'static str {
    match at {
        RuleAt::FirstRepetition => "at the first repetition (as the paper's engine)",
        RuleAt::ThirdOccurrence => "at the third occurrence (as arbiters and Fairy-Stockfish)",
    }
}

/// The screen's regions.
#[derive(Clone, Copy, Debug)]
pub struct XqAreas {
    pub title: Rect,
    pub board: Rect,
    /// Under the board: the move shown and the judge's reading of it.
    pub note: Rect,
    pub side: Rect,
}

/// The button that calls the arbiter (or `a`).
const CALL_BUTTON: &str = " a: call arbiter ";

/// The fewest moves the move list shows under a panel.
const LIST_MIN: u16 = 8;

/// The side panel's narrowest width.
const SIDE_MIN: u16 = 34;

/// Lay the screen out in the trainer's frame (None: the terminal is too small).
pub fn layout(size: Rect) -> Option<XqAreas> {
    let a = widgets::layout(size)?;
    let body = Rect::new(a.board.x, a.board.y, size.width, a.message.y - a.board.y);
    let board_w = body.width.saturating_sub(SIDE_MIN + 1).min(40);
    let probe = Rect::new(body.x, body.y, board_w, body.height);
    let g = XqGeom::fit(probe, false)?;
    let board_h = g.height().min(body.height);
    let board_w = g.width().max(board_w.min(40));
    let board = Rect::new(body.x, body.y, board_w, board_h);
    // The note reaches down over the message rows: a message, when there is one, is drawn
    // over it.
    let note = Rect::new(
        body.x,
        body.y + board_h,
        board_w,
        a.input.y - body.y - board_h,
    );
    let side = Rect::new(
        body.x + board_w + 1,
        body.y,
        body.width - board_w - 1,
        body.height,
    );
    Some(XqAreas {
        title: a.title,
        board,
        note,
        side,
    })
}

/// What the screen shows of the ply shown: the ruling that stands (if the ply shown has
/// reached it), or the judge's reading so far.
enum Shown {
    Standing(Ruling),
    /// The position stands again: the judge's word if it stood for the deciding time now.
    Building {
        occurrence: usize,
        reading: Ruling,
    },
    Nothing,
}

impl XiangqiScreen {
    fn shown_state(&self) -> Shown {
        let ply = self.shown();
        if let Some(r) = self.game.standing().filter(|r| r.ply <= ply) {
            return Shown::Standing(r.clone());
        }
        let rec = self.record();
        let occurrence = rec.occurrence_count(ply) + 1;
        if occurrence < 2 {
            return Shown::Nothing;
        }
        Shown::Building {
            occurrence,
            reading: rec.judge_at(ply, RuleAt::FirstRepetition),
        }
    }

    /// A move's status: the standing ruling's word on the moves it judged (so the last move
    /// of a ruled repetition reads as the banner does), else the record's.
    fn note_at(&self, ply: usize) -> MoveNote {
        if let Some(r) = self.game.standing().filter(|r| ply <= r.ply)
            && let Some(m) = r
                .red
                .moves
                .iter()
                .chain(&r.black.moves)
                .find(|m| m.ply == ply)
        {
            return MoveNote::Judged(m.clone());
        }
        self.record().move_note(ply)
    }

    /// The attacks of the move shown that the board marks: its chases, or for the last move
    /// its threats (a chase if the reply answers them).
    fn shown_attacks(&self) -> Vec<Attack> {
        let ply = self.shown();
        if ply == 0 {
            return Vec::new();
        }
        match self.note_at(ply) {
            MoveNote::Judged(r) => r.status.chased,
            MoveNote::Threat(a) => a,
            _ => Vec::new(),
        }
    }

    /// The protections of the shown attacks' victims that are not real (the judge's
    /// [`false_protectors`], asked with the attacker to move in the position shown).
    fn false_protections(&self) -> Vec<(Attack, Square, FalseProtection)> {
        let pre = self.record().position(self.shown()).with_side_flipped();
        let mut out = Vec::new();
        for a in self.shown_attacks() {
            let cap = Move::new(a.attacker, a.victim);
            if pre.piece_at(a.victim).is_some() {
                for (sq, why) in false_protectors(&pre, cap) {
                    out.push((a, sq, why));
                }
            }
        }
        out
    }

    /// The board's marks for the move shown: the chased pieces, their attackers, and the
    /// protectors that do not really protect.
    fn point_marks(&self) -> Vec<(Square, PointMark)> {
        if !self.reveal() {
            return Vec::new();
        }
        let mut marks = Vec::new();
        for a in self.shown_attacks() {
            marks.push((a.victim, PointMark::Chased));
            marks.push((a.attacker, PointMark::Attacker));
        }
        for (_, sq, _) in self.false_protections() {
            marks.push((sq, PointMark::FalseProtector));
        }
        marks
    }

    /// Draw the screen in the trainer's frame.
    pub fn render(&self, ascii: bool, t: &Theme, size: Rect, buf: &mut Buffer) {
        let Some(a) = layout(size) else { return };
        self.render_title(t, a.title, buf);
        let ply = self.shown();
        let rec = self.record();
        let pos = rec.position(ply);
        let geom = XqGeom::fit(a.board, self.flipped);
        if let Some(geom) = geom {
            let live = self.view.is_none() && !self.is_over();
            let targets: Vec<Square> = match self.selected.filter(|_| live) {
                Some(from) => pos
                    .legal_moves()
                    .as_slice()
                    .iter()
                    .filter(|m| m.from() == from)
                    .map(|m| m.to())
                    .collect(),
                None => Vec::new(),
            };
            let marks = self.point_marks();
            let forbidden: Vec<Square> = match self.selected.filter(|_| live && self.reveal()) {
                Some(from) => forbidden_targets(rec, from)
                    .into_iter()
                    .map(|t| t.0)
                    .collect(),
                None => Vec::new(),
            };
            XqBoardView {
                selected: self.selected.filter(|_| live),
                targets: &targets,
                forbidden: &forbidden,
                cursor: live.then_some(self.cursor),
                marks: &marks,
                ..XqBoardView::at_ply(rec, ply, geom, t, ascii)
            }
            .render(a.board, buf);
        }
        self.render_note(ascii, t, a.note, buf);
        self.render_side(ascii, t, a.side, buf);
    }

    fn render_title(&self, t: &Theme, area: Rect, buf: &mut Buffer) {
        let rec = self.record();
        let side = rec.current().side_to_move();
        let status = match (&self.thinking, self.game.standing()) {
            _ if self.flagged.is_some() => self.end_words().unwrap_or_default(),
            (_, Some(r)) => r.headline(),
            (Some(th), None) => match &th.info {
                // A score near 0.00 in a shuffle hints at a repetition: blind mode keeps it.
                Some(i) if self.reveal() => {
                    // The score from Red's side, as the move list reads the game.
                    let engine = self.record().current().side_to_move();
                    let red = match (engine, i.score) {
                        (Color::Red, s) => s,
                        (Color::Black, crate::engine::Score::Cp(cp)) => {
                            crate::engine::Score::Cp(-cp)
                        }
                        (Color::Black, crate::engine::Score::Mate(n)) => {
                            crate::engine::Score::Mate(-n)
                        }
                    };
                    format!("engine: depth {} {red} (Red)", i.depth)
                }
                Some(i) => format!("engine thinking: depth {}", i.depth),
                None => "engine thinking".to_string(),
            },
            (None, None) => format!("{} to move", side.title()),
        };
        let clocks = self.clock.as_ref().map_or(String::new(), |c| {
            let now = Instant::now();
            let show = |d: std::time::Duration| {
                let s = d.as_secs();
                format!("{}:{:02}", s / 60, s % 60)
            };
            format!(
                " · {} {}",
                show(c.remaining(Color::Red, now)),
                show(c.remaining(Color::Black, now))
            )
        });
        let status = format!("{status}{clocks}");
        let line = Line::from(vec![
            Span::styled(" threefold · xiangqi ", t.title),
            Span::raw(format!(
                " {} · {}{} · {}",
                players::describe::<Color>(self.players),
                players::level_words(
                    self.players,
                    self.level,
                    scenario::sparring(self.sparring, self.scenario.as_ref())
                ),
                if self.blind { " · blind" } else { "" },
                status
            )),
        ]);
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        if text.chars().count() > area.width as usize {
            // Cut at the end, visibly.
            let cut = clip(&text, area.width as usize, false);
            let head = " threefold · xiangqi ".chars().count();
            let line = Line::from(vec![
                Span::styled(" threefold · xiangqi ", t.title),
                Span::raw(cut.chars().skip(head).collect::<String>()),
            ]);
            return Paragraph::new(line).render(area, buf);
        }
        Paragraph::new(line).render(area, buf);
    }

    /// Under the board: the move shown and what the judge made of it, or of the position.
    fn render_note(&self, ascii: bool, t: &Theme, area: Rect, buf: &mut Buffer) {
        if area.height == 0 {
            return;
        }
        let ply = self.shown();
        let rec = self.record();
        let state = if self.reveal() {
            self.shown_state()
        } else {
            Shown::Nothing
        };
        let mut below = Vec::new();
        match state {
            Shown::Standing(_) | Shown::Nothing => {}
            Shown::Building {
                occurrence,
                reading,
            } => {
                below.push(Line::from(Span::styled(
                    format!(
                        "Stands for the {} time (ruled at the {}).",
                        ordinal(occurrence),
                        ordinal(self.game.ntimes() + 1)
                    ),
                    t.rep2,
                )));
                below.push(Line::from(format!(
                    "So far {}: {}.",
                    so_far(&reading),
                    reading.headline()
                )));
            }
        }
        let width = area.width as usize;
        let rows = |l: &Line| widgets::wrap(&l.to_string(), width).len();
        let mut lines = Vec::new();
        if ply == 0 {
            lines.push(Line::from(Span::styled("The start position.", t.dim)));
        } else {
            let mover = rec.position(ply - 1).side_to_move();
            let note = self.note_at(ply);
            let played = format!(
                "{} {}",
                move_label(rec, ply),
                self.notation(rec.position(ply - 1), rec.move_at(ply), ascii)
            );
            let text = if self.reveal() {
                format!("{played}: {}.", note.detail(mover))
            } else {
                format!("{played}.")
            };
            // Where the whole detail would not fit above the state's lines: its one word,
            // and the key to the judge's reasons.
            let room = (area.height as usize).saturating_sub(below.iter().map(rows).sum());
            let text = if self.reveal() && widgets::wrap(&text, width).len() > room.max(1) {
                format!(
                    "{played}: {} ({} the judge's reasons).",
                    note.name(),
                    keys::key_in(Ctx::Xiangqi, Cmd::JudgePanel)
                )
            } else {
                text
            };
            lines.push(Line::from(Span::raw(text)));
        }
        lines.extend(below);
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .render(area, buf);
    }

    fn render_side(&self, ascii: bool, t: &Theme, area: Rect, buf: &mut Buffer) {
        let standing = match self.shown_state() {
            Shown::Standing(r) => Some(r),
            _ => None,
        };
        let w = area.width as usize;
        let lower = self.lower_panel(ascii, t, area, standing.as_ref());
        let lower_h = lower.len() as u16;
        let list_h = area.height - lower_h;
        let head = format!(
            "Moves · rule at {}",
            if self.game.ntimes() == 1 {
                "1st"
            } else {
                "3rd"
            }
        );
        let mut header = vec![Span::styled(head.clone(), t.label)];
        if let Some(b) = self.call_button(area) {
            let pad = (b.x - area.x) as usize - head.chars().count();
            header.push(Span::raw(" ".repeat(pad)));
            header.push(Span::styled(CALL_BUTTON, t.button));
        }
        let header = Line::from(header);
        // Only the rows in sight are made. Badges stay near their moves on a wide terminal.
        let (first, room) = self.list_window(self.record().ply() + 1, list_h);
        let plies = first..(first + room).min(self.record().ply() + 1);
        let mut lines = vec![header];
        lines.extend(self.move_rows(ascii, t, w.min(48), standing.as_ref(), plies));
        Paragraph::new(lines).render(Rect::new(area.x, area.y, area.width, list_h), buf);
        if lower_h > 0 {
            let b = Rect::new(area.x, area.y + list_h, area.width, lower_h);
            ratatui::widgets::Clear.render(b, buf);
            // When it does not fit, the choice and the headline stay; the end is cut.
            Paragraph::new(lower).render(b, buf);
        }
    }

    /// Where the button "call the arbiter" is (the end of the move list's header row), if
    /// a call can be made and it fits.
    fn call_button(&self, side: Rect) -> Option<Rect> {
        let w = CALL_BUTTON.chars().count() as u16;
        let head = 20;
        (!self.is_over() && self.players != Players::Engines && side.width >= head + w)
            .then(|| Rect::new(side.right() - w, side.y, w, 1))
    }

    /// The move list's rows shown in `list_h` rows (one of them its header): the first ply
    /// shown and how many, keeping the ply on the board in sight.
    fn list_window(&self, plies: usize, list_h: u16) -> (usize, usize) {
        let room = list_h.saturating_sub(1) as usize;
        let first = (self.shown() + 1)
            .saturating_sub(room)
            .min(plies.saturating_sub(room));
        (first, room)
    }

    /// The ply of the move list's row at screen row `y`, if a row of it is there.
    fn ply_at_row(&self, area: Rect, y: u16) -> Option<usize> {
        let standing = match self.shown_state() {
            Shown::Standing(r) => Some(r),
            _ => None,
        };
        let lower = self.lower_panel(false, &Theme::plain(), area, standing.as_ref());
        let list_h = area.height - lower.len() as u16;
        let (first, room) = self.list_window(self.record().ply() + 1, list_h);
        let row = y.checked_sub(area.y + 1)? as usize;
        (row < room && first + row <= self.record().ply()).then_some(first + row)
    }

    /// Under the move list: the players menu or the choice of a call, the ruling in the
    /// judge's words (or the arbiter's answer to a call), and "How the judge sees it"; at most
    /// the rows the panel can spare.
    fn lower_panel(
        &self,
        ascii: bool,
        t: &Theme,
        area: Rect,
        standing: Option<&Ruling>,
    ) -> Vec<Line<'static>> {
        let w = area.width as usize;
        // Under the move list: the choice of a call, the ruling in the judge's words (or the
        // arbiter's answer to a call), and "How the judge sees it".
        let mut lower: Vec<Line> = Vec::new();
        if self.calling() {
            lower.push(Line::from(Span::styled(
                clip(" Call the arbiter:", w, ascii),
                t.button,
            )));
            for (k, h) in keys::help_rows(Ctx::XqCall) {
                for (i, row) in widgets::wrap(&format!("{k} {h}"), w.saturating_sub(1))
                    .into_iter()
                    .enumerate()
                {
                    let style = if i == 0 { t.key } else { Style::new() };
                    lower.push(Line::from(Span::styled(format!(" {row}"), style)));
                }
            }
        }
        // While the game goes on the move list keeps its header and at least LIST_MIN
        // moves; the ruling that ends it takes the room its words need.
        let most = match standing {
            Some(_) => area.height.saturating_sub(5).max(area.height / 2),
            None => area.height.saturating_sub(LIST_MIN + 1),
        } as usize;
        if let Some(r) = standing {
            lower.push(Line::from(Span::styled(
                clip(&format!(" {}.", r.headline()), w, ascii),
                t.banner,
            )));
            let room = most.saturating_sub(lower.len() + 1);
            lower.extend(
                fit_explanation(&r.explanation(), w, room)
                    .into_iter()
                    .map(Line::from),
            );
            if let Some(n) = self.game.past_note() {
                lower.push(Line::from(Span::styled(n, t.dim)));
            }
        } else if let (Some(Overlay::Answer), Some((answer, by_engine)), None) =
            (&self.overlay, &self.call_answer, self.view)
        {
            let who = if *by_engine { "The engine calls: " } else { "" };
            lower.push(Line::from(Span::styled(
                clip(&format!(" {who}{}.", answer.headline()), w, ascii),
                t.banner,
            )));
            // One block a ply, as the ruling's: never run together.
            let room = most.saturating_sub(lower.len());
            lower.extend(
                fit_explanation(&answer.explanation(), w, room)
                    .into_iter()
                    .map(Line::from),
            );
        }
        if self.judge_panel && self.reveal() {
            lower.extend(self.judge_rows(ascii, t, w));
        }
        lower.truncate(most);
        lower
    }

    /// "How the judge sees it": the judge's entry for the move shown — its status, the
    /// pieces it chased, and every attack it did not count as a chase, with the reason.
    fn judge_rows(&self, ascii: bool, t: &Theme, w: usize) -> Vec<Line<'static>> {
        let ply = self.shown();
        let rec = self.record();
        let mut out = vec![Line::from(Span::styled(
            clip(
                &format!(
                    " How the judge sees it ({}: the words)",
                    keys::key_in(Ctx::Xiangqi, Cmd::Glossary)
                ),
                w,
                ascii,
            ),
            t.title,
        ))];
        let mut say = |text: String| {
            out.extend(widgets::wrap(&text, w).into_iter().map(Line::from));
        };
        if ply == 0 {
            say("The start position: no move to judge.".into());
            return out;
        }
        let at = rec.position(ply);
        let name = |a: &Attack| {
            let g = |sq| at.piece_at(sq).map_or(' ', |p| glyph(p, ascii));
            format!(
                "{}{} on {}{}",
                g(a.attacker),
                a.attacker,
                g(a.victim),
                a.victim
            )
        };
        let harmless = |h: &Harmless| match h {
            Harmless::Protected { by, kind } => format!("protected by the {} on {by}", kind.name()),
            Harmless::Exchange => "an offer to exchange like pieces".into(),
            Harmless::UncrossedPawn => "a pawn not across the river cannot be chased".into(),
            Harmless::KingOrPawn => "kings and pawns never chase".into(),
        };
        let mover = rec.position(ply - 1).side_to_move();
        match self.note_at(ply) {
            MoveNote::Cancel { capture } => say(format!(
                "A {}: it cancels the repetition count (the judge starts again).",
                if capture { "capture" } else { "pawn advance" }
            )),
            MoveNote::Judged(r) => {
                let st = &r.status;
                say(format!(
                    "{} {}: {}.",
                    mover.title(),
                    r.wxf,
                    st.status.name()
                ));
                // The last move of a ruling had no reply: the judge took the one played
                // when the position stood before.
                let answered = match self.game.standing().and_then(|r| r.stand_in_reply(ply)) {
                    Some(k) => format!(
                        "no reply yet: move {k}, the reply when this position stood before, answered it"
                    ),
                    None => "the reply answered it".to_string(),
                };
                for a in &st.chased {
                    say(format!("Chase: {} ({answered}).", name(a)));
                }
                for (a, why) in &st.unanswered {
                    let why = match why {
                        Unanswered::CounterCheck => "answered by a check".to_string(),
                        Unanswered::CounterAttack(v) => format!(
                            "answered by a counter-attack ({})",
                            v.iter().map(&name).collect::<Vec<_>>().join(", ")
                        ),
                        Unanswered::Sacrifice => "left to be taken: a sacrifice".to_string(),
                    };
                    say(format!("Not a chase: {} — {why}.", name(a)));
                }
                for a in &st.old {
                    say(format!(
                        "Not counted: {} — threatened before this move.",
                        name(a)
                    ));
                }
                for (a, h) in &st.harmless {
                    say(format!("No threat: {} — {}.", name(a), harmless(h)));
                }
                if st.chased.is_empty()
                    && st.unanswered.is_empty()
                    && st.harmless.is_empty()
                    && st.old.is_empty()
                {
                    say("It threatens nothing.".into());
                }
            }
            MoveNote::Check => say(format!("{} gives check.", mover.title())),
            MoveNote::Threat(v) => {
                for a in &v {
                    say(format!(
                        "Threat: {} — a chase if the reply answers it.",
                        name(a)
                    ));
                }
            }
            MoveNote::Quiet => say("It threatens nothing new.".into()),
        }
        // The judge's findings in a player's words (the judge crate's one sentence).
        say(format!("In short: {}.", self.note_at(ply).why(at)));
        for (a, sq, why) in self.false_protections() {
            let g = |sq| at.piece_at(sq).map_or(' ', |p| glyph(p, ascii));
            say(format!(
                "Not a real protection: {}{sq} seems to guard {}{} but does not: {}.",
                g(sq),
                g(a.victim),
                a.victim,
                why.reason()
            ));
        }
        if let Shown::Building { reading, .. } = self.shown_state() {
            for side in [&reading.red, &reading.black] {
                if !side.chased.is_empty() {
                    let v: Vec<String> = side
                        .chased
                        .iter()
                        .map(|(sq, k)| format!("{} {sq}", k.name()))
                        .collect();
                    say(format!(
                        "{} has chased through the repetition: {}.",
                        side.color.title(),
                        v.join(", ")
                    ));
                }
            }
        }
        out
    }

    /// The move list's rows of `plies` (ply 0 is the start position), one per ply: number,
    /// move in WXF, status, marks. Each row costs the same however long the game: its
    /// occurrence is counted by the record as the moves were played.
    fn move_rows(
        &self,
        ascii: bool,
        t: &Theme,
        width: usize,
        standing: Option<&Ruling>,
        plies: std::ops::Range<usize>,
    ) -> Vec<Line<'static>> {
        self.rows_made
            .set(self.rows_made.get() + plies.len() as u64);
        let rec = self.record();
        let shown = self.shown();
        let window = standing.and_then(|r| r.window);
        let counted: Vec<usize> = standing
            .filter(|r| r.ending.is_none())
            .map(|r| {
                let mut v = r.earlier.clone();
                v.push(r.ply);
                v
            })
            .unwrap_or_default();
        let mut rows = Vec::new();
        for ply in plies {
            let style = if ply == shown {
                t.viewing
            } else {
                Style::new()
            };
            let in_window = window.is_some_and(|(a, b)| ply > a && ply <= b);
            let place = if counted.contains(&ply) {
                PLACE_MARK
            } else {
                " "
            };
            let bar = if in_window { RULING_SPAN_MARK } else { " " };
            if ply == 0 {
                rows.push(Line::from(vec![
                    Span::raw(format!("{place}{bar}")),
                    Span::styled("start".to_string(), style),
                ]));
                continue;
            }
            let before = rec.position(ply - 1);
            let note = self.note_at(ply);
            let status = match &note {
                _ if !self.reveal() => String::new(),
                MoveNote::Judged(r) if !r.status.chased.is_empty() => {
                    let v: Vec<String> = r
                        .status
                        .chased
                        .iter()
                        .map(|a| {
                            let at = rec.position(ply);
                            let name = |sq| at.piece_at(sq).map_or(' ', |p| glyph(p, ascii));
                            format!("{}{} by {}", name(a.victim), a.victim, name(a.attacker))
                        })
                        .collect();
                    format!("chase {}", v.join(", "))
                }
                n => n.name().to_string(),
            };
            let occurrence = if self.reveal() {
                rec.occurrence_count(ply) + 1
            } else {
                1
            };
            let text = format!(
                "{:<6} {} ",
                move_label(rec, ply),
                pad_cols(&self.notation(before, rec.move_at(ply), ascii), 8)
            );
            let status_w = width.saturating_sub(2 + cols(&text) + 4);
            let status_style = match note.name() {
                "check" | "chase" => Style::new().add_modifier(Modifier::BOLD),
                _ => t.dim,
            };
            let status = clip_cols(&status, status_w, ascii);
            let pad = status_w.saturating_sub(cols(&status));
            rows.push(Line::from(vec![
                Span::raw(format!("{place}{bar}")),
                Span::styled(text, style),
                Span::styled(format!("{status}{}", " ".repeat(pad)), status_style),
                Span::styled(
                    badge(occurrence as u32, ascii),
                    t.repetition(occurrence as u32),
                ),
            ]));
        }
        rows
    }
}

/// A ruling's explanation in at most `room` rows of `width`: its first line (which plies) and
/// its last (the verdict) always, the lines between (each move's status) as many as fit, and
/// a pointer to the judge's panel for the rest.
fn fit_explanation(text: &str, width: usize, room: usize) -> Vec<String> {
    let blocks: Vec<Vec<String>> = text.lines().map(|l| widgets::wrap(l, width)).collect();
    let total: usize = blocks.iter().map(Vec::len).sum();
    if total <= room || blocks.len() < 3 {
        return blocks.concat();
    }
    let (first, last) = (&blocks[0], &blocks[blocks.len() - 1]);
    let mut left = room.saturating_sub(first.len() + last.len() + 1);
    let mut out = first.clone();
    for b in &blocks[1..blocks.len() - 1] {
        if b.len() > left {
            break;
        }
        left -= b.len();
        out.extend(b.iter().cloned());
    }
    out.push("… (J: each move as the judge sees it)".to_string());
    out.extend(last.iter().cloned());
    out
}

/// Terminal columns of a text: a Chinese character takes two.
fn cols(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// `text` padded with spaces to `width` columns.
fn pad_cols(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(cols(text))))
}

/// `text` cut to `width` columns (a Chinese character is two), with "~" where it was cut.
fn clip_cols(text: &str, width: usize, ascii: bool) -> String {
    if cols(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        if cols(&out) + cols(&c.to_string()) + 1 > width {
            break;
        }
        out.push(c);
    }
    out.push(if ascii { '~' } else { '…' });
    out
}

/// "3." for Red's third move, "3..." for Black's (a game from a FEN with Black to move
/// starts with "1...").
fn move_label(rec: &Record, ply: usize) -> String {
    let first = rec.position(0).side_to_move();
    let mover = rec.position(ply - 1).side_to_move();
    let number = (ply + usize::from(first == Color::Black)).div_ceil(2);
    match mover {
        Color::Red => format!("{number}."),
        Color::Black => format!("{number}..."),
    }
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

/// How each side's moves read over the repetition so far ("Red chases, Black idle": every
/// move a check, or a chase of the same piece, or neither).
fn so_far(r: &Ruling) -> String {
    let side = |s: &crate::xiangqi::judge::SideReport| {
        let what = match s.level {
            None => "no repetition",
            Some(Level::Check) => "checks",
            Some(Level::Chase) => "chases",
            Some(Level::Idle) => "idle",
        };
        format!("{} {what}", s.color.title())
    };
    format!("{}, {}", side(&r.red), side(&r.black))
}

impl super::screen::Component for XiangqiScreen {
    fn ctx(&self) -> Ctx {
        match self.overlay {
            Some(Overlay::Call) => Ctx::XqCall,
            Some(Overlay::Players(..)) => Ctx::PlayersMenu,
            Some(Overlay::Ask(..)) => Ctx::Question,
            Some(Overlay::Answer) | None => Ctx::Xiangqi,
        }
    }

    fn command(&mut self, cmd: Cmd, env: &super::screen::Env, out: &mut Requests) {
        if cmd == Cmd::Notation && env.ascii {
            // The setting is kept as it is: the next terminal that shows Chinese uses it.
            return out.error(
                "The traditional Chinese notation needs a terminal that shows Chinese \
                 characters (not --ascii or LC_ALL=C): moves stay in WXF (C2=5).",
            );
        }
        XiangqiScreen::command(self, cmd, out);
    }

    fn submit(
        &mut self,
        kind: InputKind,
        text: &str,
        _env: &super::screen::Env,
        out: &mut Requests,
    ) {
        XiangqiScreen::submit(self, kind, text, out);
    }

    /// Xiangqi's own words for the lines it asks for; the move's Chinese example only where
    /// the terminal shows it (not in ASCII).
    fn prompt(&self, kind: InputKind, env: &super::screen::Env) -> &'static str {
        match kind {
            InputKind::Move if env.ascii => "Move (WXF C2=5 or UCCI h2e2)",
            InputKind::Move => "Move (WXF C2=5, UCCI h2e2 or 炮二平五)",
            InputKind::Fen => "Xiangqi FEN",
            InputKind::SavePgn => "Save the xiangqi game as",
            InputKind::LoadPgn => "Open a xiangqi PGN file",
            kind => kind.prompt(),
        }
    }

    fn click(&mut self, x: u16, y: u16, env: &super::screen::Env, out: &mut Requests) {
        XiangqiScreen::click(self, env.size, x, y, out);
    }

    fn wheel(&mut self, up: bool, _x: u16, _y: u16, _env: &super::screen::Env, out: &mut Requests) {
        let cmd = if up { Cmd::HistBack } else { Cmd::HistForward };
        XiangqiScreen::command(self, cmd, out);
    }

    fn tick(&mut self, now: Instant, _env: &super::screen::Env, out: &mut Requests) {
        XiangqiScreen::tick(self, now, out);
    }

    fn render(&self, env: &super::screen::Env, theme: &Theme, buf: &mut Buffer) {
        XiangqiScreen::render(self, env.ascii, theme, env.size, buf);
    }

    fn hint(&self) -> Option<String> {
        Some(XiangqiScreen::hint(self))
    }

    fn answers(&self) -> Option<super::keys::Answers> {
        match &self.overlay {
            Some(Overlay::Ask(q, _)) => Some(q.answers()),
            _ => None,
        }
    }

    fn settings(&self, cfg: &mut Config) {
        XiangqiScreen::settings(self, cfg);
    }

    fn sides(&self) -> Option<[&'static str; 2]> {
        Some(<Color as players::Named>::NAMES)
    }

    /// A question, over the screen.
    fn render_overlay(&self, env: &super::screen::Env, theme: &Theme, buf: &mut Buffer) {
        match &self.overlay {
            Some(Overlay::Ask(q, _)) => {
                widgets::question_popup(q.text(), Some(q.answers()), theme, env.size, buf)
            }
            Some(Overlay::Players(row, _)) => {
                players::render::<Color>(self.players, self.sparring, *row, theme, env.size, buf)
            }
            _ => {}
        }
    }

    fn asks(&self) -> bool {
        matches!(self.overlay, Some(Overlay::Ask(..)))
    }

    /// Blind mode keeps the marks back until the game is over.
    fn marks(&self) -> widgets::Marks {
        super::game::marks(self.blind, self.is_over())
    }
}

impl super::game::KeptGame for XiangqiScreen {
    fn game_in_progress(&self) -> bool {
        self.in_progress()
    }

    fn can_keep(&self) -> bool {
        self.kept_path.is_some()
    }

    /// Keeps it (a game not begun or over forgets the kept one).
    fn keep_game(&mut self) -> Result<(), KeepError> {
        self.keep_in_progress()
    }

    fn saved_file(&self) -> Option<PathBuf> {
        self.saved_as()
    }

    fn game_finished(&self) -> bool {
        self.record().ply() > 0 && self.is_over()
    }

    fn ask_file_name(&mut self, out: &mut Requests) {
        self.ask_save_name(out);
    }
}
