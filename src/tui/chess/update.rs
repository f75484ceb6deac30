//! The play screen's updates: its commands (keys from the table's `Play`
//! context), the cursor and the mouse's moves, typed lines, time, history
//! stepping, the game's ends outside play (resignation, agreed draw, flag
//! fall) and its settings keys. Each answers the App through the [`Requests`]
//! it is given.

use std::time::Instant;

use shakmaty::{Color, Move, Position, Square};

use crate::rules::claim::Claim;
use crate::rules::notation::parse_move_lenient;
use crate::rules::review::GameRecord;
use crate::rules::{EndingKind, Game, ending};
use crate::tui::engine_thread::Effect;

use super::{
    CONTEMPT_STEPS_CP, Env, HASH_STEPS_MB, MOVE_MAX_CHARS, Overlay, Play, Players, Question,
    Requests, game_over_hint, king_target, level_message, short_reason, step_level,
};
use crate::drills::scenario::{Scenario, ScenarioGame};
use crate::tui::clock::idx;
use crate::tui::config::{Setting, step_after};
use crate::tui::game::scenario::{self, Chosen, Run};
use crate::tui::game::{clocks, files, history, players};
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::prompt::InputKind;
use crate::tui::widgets::Marks;

impl Play {
    /// What the game screen may reveal: blind mode hides the marks until the
    /// game is over.
    pub fn marks(&self) -> Marks {
        crate::tui::game::marks(self.config.blind, self.game.is_over())
    }

    /// Whether the panel "How engines see it" is drawn: switched on, and the marks shown
    /// (the rules core's occurrence count is an answer blind mode keeps back).
    pub fn engines_panel_shown(&self, env: &Env) -> bool {
        env.engines_panel && self.marks() == Marks::Shown
    }

    /// Back (Esc) on the game screen: withdraw a claim waiting for its move, put
    /// a selected piece down, or return to the live position.
    pub fn back(&mut self, out: &mut Requests) {
        if self.claim_pending.is_some() {
            self.cancel_claim();
            out.info("Claim withdrawn.");
        } else if self.selected.is_some() {
            self.selected = None;
        } else if self.view.is_some() {
            self.view = None;
            out.info("Back to the position now.");
        } else {
            out.info(format!("Press {} to quit.", keys::key_for(Cmd::Quit)));
        }
    }

    /// The input line for `kind` was closed without a line.
    pub fn input_closed(&mut self, kind: InputKind, out: &mut Requests) {
        if kind == InputKind::ClaimMove {
            out.info(format!(
                "Make your intended move on the board, or {} to withdraw the claim.",
                keys::key_for(Cmd::Back)
            ));
        }
    }
}

impl Play {
    /// Start: ask the engine to move if it is its turn.
    pub fn start(&mut self, out: &mut Requests) {
        self.maybe_engine(out);
    }

    /// The ply whose board is shown.
    pub fn shown_ply(&self) -> usize {
        self.view.unwrap_or(self.game.len()).min(self.game.len())
    }

    pub fn is_human_turn(&self) -> bool {
        self.config.human.is_human(self.game.position().turn()) && !self.game.is_over()
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

    /// Play a move on the live game (any player), then let the engine go.
    pub(super) fn play_move(&mut self, m: Move, out: &mut Requests) {
        let mover = self.game.position().turn();
        if let Err(e) = self.game.play(m) {
            out.error(short_reason(&e));
            return;
        }
        self.after_move(mover, out);
    }

    fn after_move(&mut self, mover: Color, out: &mut Requests) {
        let now = Instant::now();
        self.record.result = None;
        if let Some(c) = &mut self.clock {
            c.moved(mover, now);
        }
        self.selected = None;
        self.view = None;
        self.highlight.clear();
        if self.game.is_over() {
            self.game_ended(now, out);
        } else if self.marks() == Marks::Hidden {
            out.clear();
        } else {
            let occ = self.game.current().occurrence;
            if occ >= 3 {
                out.info(format!(
                    "This position has now appeared {}: the player to move may claim a draw (press {}).",
                    crate::rules::ending::times(occ),
                    keys::key_for(Cmd::Claim)
                ));
            } else if occ == 2 {
                out.info(format!(
                    "Repetition: this position appeared before ({}).",
                    crate::rules::ending::list_places(
                        &self.game,
                        &self.game.earlier(self.game.len())
                    )
                ));
            } else {
                out.clear();
            }
        }
        self.maybe_engine(out);
    }

    fn game_ended(&mut self, now: Instant, out: &mut Requests) {
        if let Some(c) = &mut self.clock {
            c.stop(now);
        }
        self.stop_engine(out);
        if let Some(t) = self.game.termination() {
            self.highlight = t.ending.plies.clone();
            let text = t.ending.explanation.clone();
            out.info(text);
        }
        self.forget_saved_game();
    }

    /// `D`: offer a draw (FIDE 9.1). Against the engine, the offer is answered after its
    /// search of its reply, by its score and contempt
    /// ([`draw_offer_answer`](super::draw_offer_answer)); made before
    /// the player's own move, it is still valid but answered after that move (9.1.2.1,
    /// 9.1.2.2). Two humans: the opponent answers a question. An offer is also a claim's
    /// part (9.1.2.4), which the claim dialog already is.
    fn offer_draw(&mut self, out: &mut Requests) {
        if self.game.is_over() {
            out.error("The game is over; there is no draw to offer.");
            return;
        }
        let turn = self.game.position().turn();
        match self.config.human {
            Players::Engines => {
                out.error("Engine against engine: there is no one to offer a draw.")
            }
            Players::TwoHumans => self.overlay = Some(Overlay::Ask(Question::AcceptDraw)),
            players => {
                let human = if players.is_human(Color::White) {
                    Color::White
                } else {
                    Color::Black
                };
                if self.draw_offer.is_some() {
                    out.error("Your draw offer stands: the engine answers it after its search.");
                    return;
                }
                self.draw_offer = Some(human);
                if turn == human {
                    out.info(
                        "Draw offered before your move: still valid, but the right moment is after \
                         your move (FIDE 9.1.2.1); the engine answers after your move.",
                    );
                } else {
                    out.info("Draw offered (FIDE 9.1): the engine answers after its search.");
                }
            }
        }
    }

    /// `K`: resign, after a question (the side that resigns: the human; of two humans, the
    /// player to move).
    fn ask_resign(&mut self, out: &mut Requests) {
        if self.game.is_over() {
            out.error("The game is over; there is nothing to resign.");
            return;
        }
        if self.config.human == Players::Engines {
            out.error("Engine against engine: there is no one to resign.");
            return;
        }
        self.overlay = Some(Overlay::Ask(Question::Resign));
    }

    /// The side that resigns with `K`: the human against the engine, else the side to move.
    pub fn resigner(&self) -> Color {
        let turn = self.game.position().turn();
        match self.config.human {
            Players::HumanWhite => Color::White,
            Players::HumanBlack => Color::Black,
            Players::TwoHumans | Players::Engines => turn,
        }
    }

    /// The resignation, confirmed: the game ends (FIDE 5.1.2).
    pub(crate) fn resign(&mut self, out: &mut Requests) {
        let winner = !self.resigner();
        let kind = EndingKind::Resignation { winner };
        self.end_outside_play(kind, format!("{kind}."), out);
    }

    /// A draw offer accepted: the game ends drawn by agreement (FIDE 5.2.3, 9.1).
    pub(crate) fn draw_agreed(&mut self, why: String, out: &mut Requests) {
        self.end_outside_play(EndingKind::DrawAgreed, why, out);
    }

    fn end_outside_play(&mut self, kind: EndingKind, explanation: String, out: &mut Requests) {
        self.draw_offer = None;
        self.claim_pending = None;
        self.game.end_externally(crate::rules::Ending {
            kind,
            explanation,
            plies: Vec::new(),
        });
        self.record.result = None;
        self.game_ended(Instant::now(), out);
    }

    /// `P`: play on from a game that ended outside the rules of play (a resignation, an
    /// agreed draw, a loaded game's recorded result), an explicit choice; an ending the
    /// rules made is taken back instead.
    fn play_on(&mut self, out: &mut Requests) {
        let Some(t) = self.game.termination() else {
            out.error("The game is not over.");
            return;
        };
        if !t.ending.kind.is_outside_play() {
            out.error(format!(
                "The game ended by the rules ({}): {} takes the last move back.",
                t.ending.kind,
                keys::key_for(Cmd::Takeback)
            ));
            return;
        }
        self.game.play_on();
        self.record.result = None;
        self.highlight.clear();
        if let Some(c) = &mut self.clock
            && !self.game.is_empty()
        {
            c.running = Some((self.game.position().turn(), Instant::now()));
        }
        out.info("Playing on from the position where the game ended.");
        self.maybe_engine(out);
    }

    /// A move chosen by a human (typed, cursor or mouse).
    pub(crate) fn human_move(&mut self, m: Move, out: &mut Requests) {
        if let Some(ground) = self.claim_pending.take() {
            self.claim(Claim::WithMove(m), ground, true, out);
        } else {
            self.play_move(m, out);
        }
    }

    /// Replace the game.
    pub fn new_game(&mut self, game: Game, out: &mut Requests) {
        self.set_game(game, out);
        self.maybe_engine(out);
    }

    /// Replace the game (a new game, fresh clocks) without letting the engine go.
    pub(super) fn set_game(&mut self, game: Game, out: &mut Requests) {
        scenario::leave(&mut self.scenario);
        self.stop_engine(out);
        self.game = game;
        self.view = None;
        self.selected = None;
        self.highlight.clear();
        self.claim_pending = None;
        self.draw_offer = None;
        self.last = None;
        self.loaded = None;
        self.clock_at.clear();
        self.clock = clocks::clock_for(self.clock_setting());
        self.record = GameRecord {
            clocks: self.clocks(),
            ..GameRecord::default()
        };
        out.engine(Effect::NewGame);
        match self.game.termination() {
            Some(t) => out.info(t.ending.explanation.clone()),
            None => out.clear(),
        }
    }

    /// Play a scenario from a real game ([`Request::PlayScenario`](crate::tui::screen::Request)),
    /// asking first if that would lose the game in progress.
    pub fn play_scenario(&mut self, chosen: Chosen, out: &mut Requests) {
        if self.game_in_progress() {
            self.overlay = Some(Overlay::Ask(Question::AbandonForScenario(chosen)));
        } else {
            self.start_scenario(chosen.0, out);
        }
    }

    /// Start the scenario: its game up to `begin`, the player on its side, the engine
    /// sparring on the other.
    pub(super) fn start_scenario(&mut self, s: Box<Scenario>, out: &mut Requests) {
        let ScenarioGame::Chess(game) = s.position_at_begin() else {
            out.error(format!("Scenario {} is not a chess game.", s.id));
            return;
        };
        self.set_game(*game, out);
        let run = Run::new(s);
        self.config.human = run.players();
        self.flipped = self.config.human == Players::HumanBlack;
        out.info(run.opening());
        self.scenario = Some(run);
        self.maybe_engine(out);
    }

    fn takeback(&mut self, out: &mut Requests) {
        self.stop_engine(out);
        self.cancel_claim();
        self.draw_offer = None;
        let ended = self.game.is_over();
        let flag_fell = self
            .game
            .termination()
            .is_some_and(|t| t.ending.kind.is_flag_fall());
        // Back to a position where a human is to move.
        let game = &mut self.game;
        let n = history::take_back(self.config.human, || {
            game.undo().map(|_| game.position().turn())
        });
        self.view = None;
        self.selected = None;
        self.highlight.clear();
        let len = self.game.len();
        self.record.claims.retain(|c| c.ply <= len);
        self.record.result = None;
        if let Some(c) = &mut self.clock
            && n > 0
        {
            // Taking back a flag fall takes back the time that ran out: the clocks show
            // what they did after the ply returned to.
            if flag_fell && let Some(left) = self.clock_at.get(&len) {
                c.left = *left;
            }
            // The clock of the side to move runs (again, after a game that had ended).
            if (c.running.is_some() || ended) && len > 0 && !self.game.is_over() {
                c.running = Some((self.game.position().turn(), Instant::now()));
            }
        }
        out.info(history::taken_back(n));
        if self.config.human != Players::Engines {
            self.maybe_engine(out);
        }
    }

    fn jump_occurrence(&mut self, cmd: Cmd, out: &mut Requests) {
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
                // "Occurrence 1 of 3 of this position: the start position."
                // (the place reads as a noun phrase: "after 2...Ng8" too).
                out.info(format!(
                    "Occurrence {} of {} of this position: {}.",
                    same.iter().position(|&x| x == q).unwrap_or(0) + 1,
                    same.len(),
                    self.game.place_label(q)
                ));
            }
            None => out.info(if same.len() > 1 {
                "No further occurrence in that direction.".to_string()
            } else {
                "This position has not occurred elsewhere.".to_string()
            }),
        }
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
    pub fn select(&mut self, sq: Square, out: &mut Requests) {
        self.cursor = sq;
        if self.view.is_some() {
            self.view = None;
            return;
        }
        if self.game.is_over() {
            out.error(game_over_hint());
            return;
        }
        if !self.is_human_turn() {
            out.error("It is the engine's turn.");
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
                    0 if own => self.pick_up(sq, out),
                    0 => {
                        self.selected = None;
                        out.error(format!("{}-{} is not a legal move", from, sq));
                    }
                    1 => {
                        self.selected = None;
                        // Castling may come as king-takes-rook: fine either way.
                        self.human_move(moves[0], out);
                    }
                    _ => self.overlay = Some(Overlay::Promotion(moves)),
                }
            }
            Some(_) => self.selected = None,
            None if own => self.pick_up(sq, out),
            None => {}
        }
    }

    /// Pick up the piece on `sq`: the status line's last word is old news (both game
    /// screens clear it so).
    fn pick_up(&mut self, sq: Square, out: &mut Requests) {
        self.selected = Some(sq);
        out.clear();
    }

    /// The game as PGN, with Date, players, TimeControl, Result and Termination tags, the
    /// claims made, and with clocks the time each player had after each move
    /// (`{[%clk 0:04:58]}`, the PGN Specification Supplement's command).
    pub fn pgn_text(&self) -> String {
        let tags = self.pgn_tags();
        let tags: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let mut notes = crate::rules::pgn::claim_notes(&self.record.claims);
        if self.clock.is_some() {
            let game = &self.game;
            for (&ply, left) in self.clock_at.range(1..=game.len()) {
                let mover = game.position_at(ply - 1).turn();
                let s = left[idx(mover)].as_secs();
                let clk = format!("[%clk {}:{:02}:{:02}]", s / 3600, s / 60 % 60, s % 60);
                notes.entry(ply).or_default().comments.insert(0, clk);
            }
        }
        crate::rules::pgn::write_annotated(&self.game, &tags, &notes)
    }

    /// Whether replacing the game would lose one: moves played, not over.
    pub fn game_in_progress(&self) -> bool {
        !self.game.is_empty() && !self.game.is_over()
    }

    /// The FEN prompt, holding the position shown (to edit, or to replace).
    pub(crate) fn open_fen_prompt(&mut self, out: &mut Requests) {
        let fen = self.game.fen_at(self.game.len());
        out.type_line(InputKind::Fen, &fen);
        out.info(format!(
            "The FEN of the position now: edit it, or {} clears the line for another.",
            keys::key_in(
                Ctx::Input,
                Cmd::Edit(crate::tui::line_edit::Edit::KillToStart)
            )
        ));
    }

    /// A command of the game screen.
    pub(crate) fn command(&mut self, cmd: Cmd, out: &mut Requests) {
        match cmd {
            Cmd::Up | Cmd::Down | Cmd::Left | Cmd::Right => self.move_cursor(cmd),
            Cmd::Select => self.select(self.cursor, out),
            Cmd::TypeMove => out.type_line(InputKind::Move, ""),
            Cmd::Claim => self.open_claim(out),
            Cmd::OfferDraw => self.offer_draw(out),
            Cmd::Resign => self.ask_resign(out),
            Cmd::PlayOn => self.play_on(out),
            Cmd::Takeback => self.takeback(out),
            Cmd::NewGame => {
                if self.game_in_progress() {
                    self.overlay = Some(Overlay::Ask(Question::NewGame));
                } else {
                    self.new_game(Game::new(), out);
                }
            }
            Cmd::Flip => self.flipped = !self.flipped,
            Cmd::HistBack | Cmd::HistForward | Cmd::HistStart | Cmd::HistEnd => {
                self.view = history::step(cmd, self.view, self.game.len()).unwrap_or(self.view);
                self.selected = None;
            }
            Cmd::PrevOccurrence | Cmd::NextOccurrence if self.marks() == Marks::Hidden => {
                out.error(format!(
                    "Blind mode: look back through the moves yourself ({} shows the marks).",
                    keys::key_for(Cmd::Blind)
                ));
            }
            Cmd::PrevOccurrence | Cmd::NextOccurrence => self.jump_occurrence(cmd, out),
            Cmd::Blind => {
                self.config.blind = !self.config.blind;
                out.info(match self.marks_setting() {
                    Marks::Hidden => format!(
                        "Blind mode: no marks, no hints. Count the repetitions and claim ({}) yourself.",
                        keys::key_for(Cmd::Claim)
                    ),
                    Marks::Shown => "Blind mode off: repeated positions are marked.".to_string(),
                });
                out.save_settings(&[Setting::Blind]);
            }
            Cmd::Save => self.ask_save_name(out),
            Cmd::Load => {
                let asks = files::ask_open(self.game_in_progress(), out);
                self.overlay = asks.then_some(Overlay::Ask(Question::AbandonForPgn));
            }
            Cmd::Fen if self.game_in_progress() => {
                self.overlay = Some(Overlay::Ask(Question::AbandonForFen));
            }
            Cmd::Fen => self.open_fen_prompt(out),
            Cmd::Players
            | Cmd::Stronger
            | Cmd::Weaker
            | Cmd::Hash
            | Cmd::Contempt
            | Cmd::Clocks => self.setting(cmd, out),
            _ => {}
        }
    }

    /// The settings of the game screen: who plays, engine level, hash,
    /// contempt, clocks.
    fn setting(&mut self, cmd: Cmd, out: &mut Requests) {
        match cmd {
            Cmd::Players => {
                self.overlay = Some(Overlay::Players {
                    selected: players::menu_row(self.config.human),
                    sparring_was: self.config.sparring,
                });
            }
            Cmd::Stronger | Cmd::Weaker => {
                self.config.level = step_level(self.config.level, cmd == Cmd::Stronger);
                out.info(level_message(self.config.level, true));
                out.save_settings(&[Setting::Level]);
            }
            Cmd::Hash => {
                self.config.hash_mb = step_after(&HASH_STEPS_MB, self.config.hash_mb);
                out.engine(Effect::SetHash(self.config.hash_mb));
                out.info(format!("Engine hash {} MiB", self.config.hash_mb));
                out.save_settings(&[Setting::HashMb]);
            }
            Cmd::Contempt => {
                self.config.contempt = step_after(&CONTEMPT_STEPS_CP, self.config.contempt);
                out.engine(Effect::SetContempt(self.config.contempt));
                out.info(format!(
                    "Engine contempt {} cp: {}",
                    self.config.contempt,
                    match self.config.contempt.signum() {
                        1 => "it avoids draws",
                        -1 => "it welcomes draws",
                        _ => "a draw is worth equality",
                    }
                ));
                out.save_settings(&[Setting::Contempt]);
            }
            Cmd::Clocks => {
                let next = clocks::next_preset(self.clock_setting());
                (self.config.clock_base_secs, self.config.clock_inc_secs) = next;
                // A game under way keeps its clocks (9.5's minutes included): one rule.
                let in_progress = self.game_in_progress();
                if !in_progress {
                    self.clock_at.clear();
                    self.clock = clocks::clock_for(next);
                    self.record.clocks = self.clocks();
                }
                out.info(clocks::chosen(next, in_progress));
                out.save_settings(clocks::SETTINGS);
            }
            _ => {}
        }
    }

    /// The players chosen from the menu: one change, straight from the old
    /// players to the new (no engine search starts in between). A search for
    /// a side that is no longer the engine's is stopped; the engine starts
    /// only if it now has the move.
    pub(crate) fn set_players(&mut self, players: Players, sparring_was: bool, out: &mut Requests) {
        out.info(players::chosen::<Color>(
            (self.config.human, sparring_was),
            (players, self.config.sparring),
        ));
        if players == self.config.human {
            return;
        }
        self.stop_engine(out);
        if players == Players::TwoHumans {
            // No engine in the game now: its last line would stand there, stale.
            self.last = None;
        }
        self.config.human = players;
        if let Some(f) = players::flipped(players) {
            self.flipped = f;
        }
        out.save_settings(&[Setting::Human]);
        self.maybe_engine(out);
    }

    /// Time passes: a flag falls (FIDE 6.9, ruled by the rules core).
    pub(crate) fn tick(&mut self, now: Instant, out: &mut Requests) {
        let turn = self.game.position().turn();
        if clocks::flag_fell(self.clock.as_ref(), turn, self.game.is_over(), now) {
            let ending = ending::flag_fall(&self.game, turn);
            self.game.end_externally(ending);
            self.game_ended(now, out);
        }
    }

    /// A line typed on the game screen.
    ///
    /// A typed move longer than [`MOVE_MAX_CHARS`] is refused by its length.
    pub(crate) fn submit(&mut self, kind: InputKind, text: String, out: &mut Requests) {
        match kind {
            InputKind::Move | InputKind::ClaimMove => {
                if text.is_empty() {
                    return;
                }
                if self.game.is_over() {
                    out.error(game_over_hint());
                    return;
                }
                if !self.is_human_turn() {
                    out.error("It is the engine's turn.");
                    return;
                }
                let n = text.trim().chars().count();
                if n > MOVE_MAX_CHARS {
                    // Not quoted back: a paste of 100 kB would fill the screen.
                    out.error(format!(
                        "Not a move: {n} characters (a move has at most {MOVE_MAX_CHARS}); \
                         {} clears the line",
                        keys::key_in(
                            Ctx::Input,
                            Cmd::Edit(crate::tui::line_edit::Edit::KillToStart)
                        )
                    ));
                    out.type_line(kind, &text);
                    return;
                }
                match parse_move_lenient(self.game.position(), &text) {
                    Ok(m) => self.human_move(m, out),
                    Err(e) => {
                        out.error(e.to_string());
                        // Keep what was typed so it can be corrected.
                        out.type_line(kind, &text);
                    }
                }
            }
            InputKind::Fen => match Game::from_fen(&text) {
                Ok(g) => {
                    self.new_game(g, out);
                    out.info("Started from the FEN position.");
                }
                Err(e) => crate::tui::game::refuse_fen(out, kind, &text, e.reason),
            },
            InputKind::LoadPgn => {
                if let Some(path) = files::open_path(&text) {
                    self.load_pgn(&path, out);
                }
            }
            InputKind::SavePgn => self.save_typed(&text, out),
            InputKind::DrillAnswer => {}
        }
    }
}
