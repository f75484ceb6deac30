//! Routing to the xiangqi review screen ([`crate::tui::xq_review`], which owns its state,
//! keys, drawing and hit-testing): open it on the xiangqi game, hand it a command, carry
//! out its reply. The chess review's routing is [`App::open_review`]'s.

use super::{App, Screen};
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::xq_review::{GameToReview, Reply};

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
        self.with_xiangqi(|x, out| x.stop_engine(out));
        self.overlay = None;
        self.input = None;
        let x = &self.xiangqi;
        let game = GameToReview {
            record: x.record(),
            result: x.pgn().result,
            calls: &x.calls,
            ntimes: x.ntimes,
            over: x.is_over(),
            flipped: x.flipped,
        };
        self.xq_review.open(&game, self.size);
        self.screen = Screen::XqReview;
        self.message = None;
    }

    /// Close the xiangqi review (the engine's part stops if it is still running).
    pub fn close_xq_review(&mut self) {
        self.xq_review.cancel();
        self.screen = Screen::Xiangqi;
        self.message = None;
        self.with_xiangqi(|x, out| x.maybe_engine(out));
    }

    /// A command of the xiangqi review screen.
    pub(super) fn xq_review_command(&mut self, cmd: Cmd) {
        let reply = if cmd == Cmd::AddPuzzle {
            let tags = self.xiangqi.pgn().tags;
            self.xq_review
                .add_selected_puzzle(self.drills_file.as_deref(), &tags)
        } else {
            self.xq_review.command(cmd, self.size)
        };
        match reply {
            Reply::Nothing => {}
            Reply::Info(t) => self.info(t),
            Reply::Error(t) => self.error(t),
            Reply::Leave => self.close_xq_review(),
            Reply::ViewPly(ply) => {
                let len = self.xiangqi.record().ply();
                let same = self.xq_review.state.as_ref().is_some_and(|s| {
                    s.is_of(
                        self.xiangqi.record(),
                        &self.xiangqi.calls,
                        self.xiangqi.ntimes,
                    )
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
            Reply::PuzzlesAdded(summary) => {
                // The xiangqi drill screen reloads its puzzles next time it opens.
                self.xq_drills = None;
                self.info(summary);
            }
        }
    }
}
