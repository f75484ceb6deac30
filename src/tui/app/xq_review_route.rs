//! Routing to the xiangqi review screen ([`crate::tui::xq_review`], which owns its state,
//! keys, drawing and hit-testing): open it on the xiangqi game, carry out its
//! `ViewPly`; its commands come through the screen contract like every screen's. The chess review's routing is [`App::open_review`]'s.

use super::{App, Screen};
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::xq_review::GameToReview;

impl App {
    /// Open the review of the xiangqi game (`v` on the xiangqi screen, the chess review's
    /// key). Blind mode: the review waits for the end of the game, as chess's does.
    pub fn open_xq_review(&mut self) {
        let x = &self.xiangqi;
        if x.record().ply() == 0 {
            self.error("There is no move to review yet.");
            return;
        }
        if !x.reveal() {
            self.error(format!(
                "The review waits for the end of the game in blind mode ({} shows the marks).",
                keys::key_in(Ctx::Xiangqi, Cmd::Blind)
            ));
            return;
        }
        self.with_xiangqi(|x, _, out| x.stop_engine(out));
        self.overlay = None;
        self.input = None;
        let x = &self.xiangqi;
        let game = GameToReview {
            record: x.record(),
            result: x.pgn().result,
            calls: &x.calls,
            rule_at: x.rule_at,
            over: x.is_over(),
            flipped: x.flipped,
        };
        let tags = x.pgn().tags;
        self.xq_review.open(&game, self.size);
        self.xq_review.tags = tags;
        self.xq_review.drills_file = self.drills_file.clone();
        self.screen = Screen::XqReview;
        self.message = None;
    }

    /// Close the xiangqi review (the engine's part stops if it is still running).
    pub fn close_xq_review(&mut self) {
        self.xq_review.cancel();
        self.screen = Screen::Xiangqi;
        self.message = None;
        self.with_xiangqi(|x, _, out| x.maybe_engine(out));
    }

    /// The review's `ViewPly`: back on the xiangqi screen, showing ply `ply` of the game if
    /// the review is of the game as it stands.
    pub(super) fn view_xq_reviewed_ply(&mut self, ply: usize) {
        let x = &self.xiangqi;
        let len = x.record().ply();
        let same = self.xq_review.is_of(&GameToReview {
            record: x.record(),
            result: x.pgn().result,
            calls: &x.calls,
            rule_at: x.rule_at,
            over: x.is_over(),
            flipped: x.flipped,
        });
        self.close_xq_review();
        if same {
            self.xiangqi.view = (ply < len).then_some(ply);
            self.info(format!(
                "Viewing the game after ply {ply} ({} goes back to the live position).",
                keys::key_in(Ctx::Xiangqi, Cmd::HistEnd)
            ));
        }
    }
}
