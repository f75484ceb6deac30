//! Claims on the game screen and their rulings: the claim dialog's options,
//! a claim now or with an intended move (FIDE 9.2, 9.3), the clocks stopped
//! while it is made and ruled (6.12), the ruling and its penalty (9.5), and
//! the claims kept in the game's record. The rulings are the rules core's
//! (`crate::rules::claim`).

use std::time::Instant;

use shakmaty::Position;

use crate::rules::claim::{self, Claim, Ground};
use crate::rules::color_name;
use crate::rules::pgn::{ClaimMark, RecordedClaim};
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::prompt::InputKind;

use super::{ClaimOption, Overlay, Play, Requests, short_reason};
use crate::tui::clock::idx;

impl Play {
    pub(super) fn open_claim(&mut self, out: &mut Requests) {
        if self.game.is_over() {
            out.error("The game is over; there is nothing to claim.");
            return;
        }
        if !self.is_human_turn() {
            out.error("Only the player to move may claim (FIDE 9.2): wait for your turn.");
            return;
        }
        self.view = None;
        self.halt_clocks(Instant::now());
        self.overlay = Some(Overlay::Claim);
    }

    /// An option of the claim dialog: a claim now is ruled at once; a claim
    /// with a move waits for the move.
    pub(crate) fn claim_option(&mut self, o: ClaimOption, out: &mut Requests) {
        self.overlay = None;
        if o.with_move {
            self.claim_with_move(o.ground, out);
        } else {
            self.claim(Claim::Now, o.ground, true, out);
        }
    }

    fn claim_with_move(&mut self, ground: Ground, out: &mut Requests) {
        self.overlay = None;
        self.claim_pending = Some(ground);
        out.type_line(InputKind::ClaimMove, "");
        out.info(format!(
            "Write your intended move: type it, or make it on the board ({} types nothing).",
            keys::key_in(Ctx::Input, Cmd::Close)
        ));
    }

    /// Judge a claim under `ground` by the player to move (human or engine).
    /// The clocks stop (FIDE 6.12) and the ruling is shown; play goes on, and
    /// the clocks restart, when the ruling is closed ([`Self::close_verdict`]).
    pub(crate) fn claim(&mut self, c: Claim, ground: Ground, human: bool, out: &mut Requests) {
        let now = Instant::now();
        self.halt_clocks(now);
        let mover = self.game.position().turn();
        let before = self.game.len();
        let clocks = self.clocks();
        match claim::judge_under(&mut self.game, c, ground, clocks) {
            Err(e) => {
                out.error(short_reason(&e));
                self.resume_clocks();
            }
            Ok(v) => {
                self.record_claim(before, ground);
                let mut text = v.explanation();
                if !human {
                    text = format!("The engine plays {}.\n{text}", color_name(mover));
                }
                self.highlight = v.plies.clone();
                self.selected = None;
                self.view = None;
                if let Some(clock) = &mut self.clock {
                    if self.game.len() > before {
                        clock.moved(mover, now);
                    }
                    if !v.correct() {
                        // FIDE 9.5: the ruling says so; the clock carries it out.
                        let left = &mut clock.left[idx(!mover)];
                        *left = claim::time_after_incorrect_claim(*left);
                    }
                }
                let correct = v.correct();
                if self.game.is_over() {
                    if let Some(c) = &mut self.clock {
                        c.stop(now);
                    }
                    self.stop_engine(out);
                    self.forget_saved_game();
                }
                if correct {
                    out.info(v.conclusion());
                } else {
                    out.error(v.conclusion());
                }
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
        let ply = self.game.len();
        let mark = if ply > before {
            ClaimMark::WithMove
        } else {
            ClaimMark::Now
        };
        self.record.result = None;
        self.record.claims.push(RecordedClaim {
            ply,
            mark,
            ground: Some(ground),
            line: 0,
        });
    }

    /// The ruling is closed: play goes on, the clocks restart, the engine
    /// moves if it is its turn.
    pub(crate) fn close_verdict(&mut self, out: &mut Requests) {
        self.overlay = None;
        self.resume_clocks();
        self.maybe_engine(out);
    }

    /// The claim dialog was cancelled, or a claim waiting for its move
    /// withdrawn: no claim was made, the clocks run again.
    pub(crate) fn cancel_claim(&mut self) {
        self.overlay = None;
        self.claim_pending = None;
        self.resume_clocks();
    }

    /// Stop the clocks for a claim (FIDE 6.12).
    fn halt_clocks(&mut self, now: Instant) {
        if let Some(c) = &mut self.clock {
            c.halt(now);
        }
    }

    fn resume_clocks(&mut self) {
        if let Some(c) = &mut self.clock {
            c.resume(Instant::now());
        }
    }
}
