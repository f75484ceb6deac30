//! Routing to the review screen of either game ([`crate::tui::game::review::ReviewScreen`],
//! which owns its state, keys, drawing and hit-testing; [`crate::tui::chess::review`] is chess's
//! part, [`crate::tui::xiangqi::review`] xiangqi's): open it on the game of the game screen shown,
//! close it back to that screen, carry out its `ViewPly`, one way for both games. Its
//! commands come through the screen contract like every screen's.

use super::{App, Screen};
use crate::tui::chess::Play;
use crate::tui::chess::review::GameToReview;
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::widgets::Marks;
use crate::tui::xiangqi::XiangqiScreen;
use crate::tui::xiangqi::review::GameToReview as XqGameToReview;

/// The chess game on the game screen, to review.
fn chess_game(p: &Play) -> GameToReview<'_> {
    GameToReview {
        game: &p.game,
        record: &p.record,
        flipped: p.flipped,
        never_claims: p.never_claims(),
    }
}

/// The xiangqi game on the xiangqi screen, to review.
fn xiangqi_game(x: &XiangqiScreen) -> XqGameToReview<'_> {
    XqGameToReview {
        record: x.record(),
        result: x.pgn().result,
        calls: &x.calls,
        rule_at: x.rule_at,
        over: x.is_over(),
        flipped: x.flipped,
    }
}

impl App {
    /// Open the review of the game on the game screen shown (`v`, or from the end of a
    /// game): the xiangqi review on the xiangqi screen, else chess's.
    pub fn open_review(&mut self) {
        let xiangqi = self.screen == Screen::Xiangqi;
        // A move or a claim (a call in xiangqi) is worth reviewing: a claim may come before
        // any move.
        let (game, ctx, events) = if xiangqi {
            let x = &self.xiangqi;
            (
                Screen::Xiangqi,
                Ctx::Xiangqi,
                x.record().ply() + x.calls.len(),
            )
        } else {
            let p = &self.play;
            (
                Screen::Play,
                Ctx::Play,
                p.game.len() + p.record.claims.len(),
            )
        };
        if events == 0 {
            self.error("There is no move or claim to review yet.");
            return;
        }
        // Blind mode: a missed claim or call of an earlier ply tells how often a position has
        // stood, and the position can come back, so the review waits for the end of the
        // game, as the marks and "How engines see it" do.
        if self.component(game).map_or(Marks::Shown, |c| c.marks()) == Marks::Hidden {
            self.error(format!(
                "The review waits for the end of the game in blind mode ({} shows the marks).",
                keys::key_in(ctx, Cmd::Blind)
            ));
            return;
        }
        self.overlay = None;
        self.input = None;
        let (size, drills_file) = (self.size, self.drills_file.clone());
        self.screen = if xiangqi {
            self.with_xiangqi(|x, _, out| x.stop_engine(out));
            let r = &mut self.xq_review;
            r.open(&xiangqi_game(&self.xiangqi), size);
            r.tags = self.xiangqi.pgn().tags;
            r.drills_file = drills_file;
            Screen::XqReview
        } else {
            self.stop_engine();
            self.play.selected = None;
            let r = &mut self.review;
            r.open(&chess_game(&self.play), size);
            r.tags = self.play.pgn_tags();
            r.drills_file = drills_file;
            Screen::Review
        };
        self.message = None;
    }

    /// Close the review screen `from` back to its game's screen (the engine's part stops if
    /// it is still running).
    pub fn close_review(&mut self, from: Screen) {
        self.screen = if from == Screen::XqReview {
            self.xq_review.cancel();
            Screen::Xiangqi
        } else {
            self.review.cancel();
            Screen::Play
        };
        self.message = None;
        self.maybe_engine();
    }

    /// The review's `ViewPly`: back on the game's screen, showing ply `ply` of the game if
    /// the review is of the game as it stands.
    pub(super) fn view_reviewed_ply(&mut self, from: Screen, ply: usize) {
        let xiangqi = from == Screen::XqReview;
        // Where the ply stands in words, from the review (the screen may drop it on closing).
        let at = if xiangqi {
            let same = self.xq_review.is_of(&xiangqi_game(&self.xiangqi));
            same.then(|| self.xq_review.place_words(ply))
        } else {
            let same = self.review.is_of(&chess_game(&self.play));
            same.then(|| self.review.place_words(ply))
        };
        self.close_review(from);
        let Some(at) = at.flatten() else {
            return;
        };
        let (view, len, ctx) = if xiangqi {
            let len = self.xiangqi.record().ply();
            (&mut self.xiangqi.view, len, Ctx::Xiangqi)
        } else {
            (&mut self.play.view, self.play.game.len(), Ctx::Play)
        };
        *view = (ply < len).then_some(ply);
        self.info(format!(
            "Viewing the game {at} ({} goes back to the live position).",
            keys::key_in(ctx, Cmd::HistEnd)
        ));
    }
}
