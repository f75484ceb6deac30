//! The engine's side of the game screen: asking it to move (from the book
//! while the game follows it, else a search with the level's limits or the
//! clocks), reading its reports, and what it does with its move: play it,
//! claim a draw when its own score welcomes one, answer a draw offer.

use shakmaty::{Color, Move, Position};

use crate::rules::claim::{self, Claim, Ground};
use crate::tui::config;
use crate::tui::engine_thread::{AnyMove, GameRecord, Report};
use crate::tui::game::seat::{self, Heard};

use super::{LastSearch, Play, Requests, Thinking, draw_offer_answer, pv_san};

impl Play {
    /// Whether the engine spars in this game: the setting, or a scenario being played.
    pub(crate) fn sparring(&self) -> bool {
        crate::tui::game::scenario::sparring(self.config.sparring, self.scenario.as_ref())
    }

    /// The sides that never claim a draw: the engine's while it spars
    /// ([`config::engine_may_claim_draw`]), and those a game opened from a file names
    /// ([`crate::rules::review::SPARRING_TAG`]). The review lists no missed claim of theirs.
    pub(crate) fn never_claims(&self) -> Vec<Color> {
        Color::ALL
            .into_iter()
            .filter(|&c| {
                (!self.config.human.is_human(c)
                    && !config::engine_may_claim_draw(self.sparring(), true))
                    || self.record.never_claims.contains(&c)
            })
            .collect()
    }

    pub(crate) fn on_report(&mut self, r: Report, out: &mut Requests) {
        match seat::hear(&mut self.thinking, r, AnyMove::chess) {
            Heard::Progress(info) => {
                if let Some(t) = &mut self.thinking {
                    t.pv = pv_san(self.game.position(), &info.pv, 8);
                    t.info = Some(info);
                }
            }
            Heard::Done(t, mv) => {
                self.last = t.info.clone().map(|info| LastSearch {
                    info,
                    pv: t.pv.clone(),
                    side: t.side,
                });
                if self.game.is_over() || self.config.human.is_human(self.game.position().turn()) {
                    return;
                }
                let Some(m) = mv else { return };
                if !self.game.position().is_legal(m) {
                    out.error("the engine sent an illegal move; ignored");
                    return;
                }
                self.engine_moves(&t, m, out);
            }
            Heard::Failed(e) => out.error(e),
            Heard::Stale => {}
        }
    }

    /// The engine has searched and chosen `m`: it claims a draw when one can
    /// be claimed and its own score of `m` (from its search, from its side's
    /// point of view) is no better than a draw is worth to it after contempt;
    /// otherwise it plays `m`. A claim now (9.2 b, 9.3 b) comes first; else a
    /// claim with `m` as the intended move (9.2 a, 9.3 a).
    fn engine_moves(&mut self, t: &Thinking, m: Move, out: &mut Requests) {
        let score = t.info.as_ref().map(|i| i.score.cp());
        let mut declined = None;
        if self.draw_offer.take().is_some() {
            let (accept, why) = draw_offer_answer(score, self.config.contempt);
            if accept {
                self.draw_agreed(format!("The engine accepts the draw offer: {why}."), out);
                return;
            }
            // Declined by playing on (FIDE 9.1.2.2): the move is the answer.
            declined = Some(format!("The engine declines the draw offer: {why}."));
        }
        let welcome = config::engine_may_claim_draw(
            self.sparring(),
            score.is_some_and(|s| s <= -self.config.contempt),
        );
        let game = &self.game;
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
            self.claim(Claim::Now, g, false, out);
        } else if let (true, Some(g)) = (welcome, with_m) {
            self.claim(Claim::WithMove(m), g, false, out);
        } else {
            self.play_move(m, out);
            if let Some(d) = declined
                && !self.game.is_over()
            {
                out.info(d);
            }
        }
    }

    /// Ask the engine to move if it is its turn. Whether it claims a draw is
    /// decided after the search, from its own score ([`Self::engine_moves`]).
    pub(crate) fn maybe_engine(&mut self, out: &mut Requests) {
        if self.game.is_over() || self.thinking.is_some() {
            return;
        }
        let turn = self.game.position().turn();
        if self.config.human.is_human(turn) {
            return;
        }
        // From the book while the game follows it: played at once, the opening named. A draw
        // offer waits for the engine's search (its score answers it).
        if self.config.book && self.draw_offer.is_none() {
            let played: Vec<Move> = self.game.moves().collect();
            if let Some(b) = crate::engine::chess::book::Book::builtin().choose(
                self.game.start(),
                &played,
                &mut self.rng,
            ) {
                self.play_move(b.mv, out);
                if !self.game.is_over() && out.cleared() {
                    out.info(format!("Book: {}.", b.name));
                }
                return;
            }
        }
        let game = GameRecord::Chess {
            start: self.game.start().clone(),
            moves: self.game.moves().collect(),
        };
        let sparring = self.sparring();
        let id = seat::think(
            &mut self.search_id,
            self.config.level,
            sparring,
            self.clock.as_ref(),
            game,
            out,
        );
        self.thinking = Some(Thinking {
            id,
            info: None,
            side: Some(turn),
            pv: String::new(),
        });
    }

    pub(crate) fn stop_engine(&mut self, out: &mut Requests) {
        seat::stop(&mut self.thinking, out);
    }
}
