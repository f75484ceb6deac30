//! The chess game in progress kept between runs ([`crate::tui::game::kept`], the one path
//! for both games): what of a chess game is kept (its moves in UCI, claims and clocks), how
//! it comes back, and the question at start (resume it, or replace it with the game from
//! the command line).

use std::path::Path;
use std::time::Instant;

use shakmaty::Position;

use crate::drills::GameKind;
use crate::rules::Game;
use crate::rules::claim::Ground;
use crate::rules::pgn::{ClaimMark, RecordedClaim};
use crate::tui::game::kept::{self, Keep, SavedClaim, SavedClocks};

pub use crate::tui::game::kept::{SavedGame, SavedGameError, SavedGameReason};

use super::{KeepError, Overlay, Play, Players, Question, Requests};

impl Keep for Play {
    const GAME: GameKind = GameKind::Chess;

    fn kept(&self, now: Instant) -> SavedGame {
        SavedGame {
            game: GameKind::Chess,
            start_fen: self.game.start_fen(),
            moves: self.game.uci_moves(),
            human: self.config.human,
            level: Some(self.config.level),
            claims: self
                .record
                .claims
                .iter()
                .map(|c| SavedClaim {
                    ply: c.ply,
                    mark: c.mark.code().to_string(),
                    rule: c.ground.map(|g| g.code().to_string()),
                })
                .collect(),
            clocks: self.clock.as_ref().map(|c| SavedClocks::of(c, now)),
        }
    }

    fn check(saved: &SavedGame) -> Result<(), SavedGameReason> {
        restore(saved).map(|_| ())
    }

    fn kept_path(&self) -> Option<&Path> {
        self.resume_path.as_deref()
    }

    fn unanswered(&mut self) -> &mut bool {
        &mut self.saved_kept
    }

    /// The kept game back on the board, with its players, level, claims and clocks.
    fn resume(&mut self, saved: &SavedGame, out: &mut Requests) {
        self.saved_kept = false;
        match restore(saved) {
            Ok((g, claims)) => {
                self.config.human = saved.human;
                if let Some(level) = saved.level {
                    self.config.level = level;
                }
                self.flipped = self.config.human == Players::HumanBlack;
                self.set_game(g, out);
                self.record.claims = claims;
                // The game's own clocks (none if it was played without), whatever new
                // games get; the side to move's runs again from now.
                let turn = self.game.position().turn();
                let begun = !self.game.is_empty();
                self.clock = saved.clocks.map(|c| c.resumed(turn, begun));
                self.record.clocks = self.clocks();
                self.note_clocks();
                kept::resumed(out);
                self.maybe_engine(out);
            }
            Err(e) => kept::cannot_resume(out, e),
        }
    }

    fn go_on(&mut self, out: &mut Requests) {
        self.maybe_engine(out);
    }
}

/// The game and claims of a kept game, or what is wrong with it.
fn restore(saved: &SavedGame) -> Result<(Game, Vec<RecordedClaim>), SavedGameReason> {
    let mut g = Game::from_fen(&saved.start_fen)?;
    for m in &saved.moves {
        g.play_uci(m)?;
    }
    let claims = saved
        .claims
        .iter()
        .map(|c| {
            let mark = ClaimMark::from_code(&c.mark).ok_or_else(|| SavedGameReason::ClaimMark {
                mark: c.mark.clone(),
            })?;
            if c.ply > g.len() || (mark == ClaimMark::WithMove && c.ply == 0) {
                return Err(SavedGameReason::ClaimPly {
                    mark: c.mark.clone(),
                    ply: c.ply,
                    plies: g.len(),
                });
            }
            let ground = match &c.rule {
                None => None,
                Some(r) => Some(
                    Ground::from_code(r)
                        .ok_or_else(|| SavedGameReason::ClaimRule { rule: r.clone() })?,
                ),
            };
            Ok(RecordedClaim {
                ply: c.ply,
                mark,
                ground,
                line: 0,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((g, claims))
}

/// Read the kept chess game in progress ([`kept::load`]).
pub fn load_saved(path: &Path) -> Result<Option<SavedGame>, SavedGameError> {
    kept::load::<Play>(path)
}

impl Play {
    /// A saved game in progress was found at start. Without a game from the
    /// command line: resume it? With one (`--fen`, `--pgn`): replace it? Either
    /// way it stays on disk until the player answers ([`kept::offer`]).
    pub fn offer_saved_game(&mut self, saved: SavedGame, from_command_line: bool) {
        // A list of games the command line's file opened waits behind the question.
        let pick = match self.overlay.take() {
            Some(Overlay::PickGame(pick)) if from_command_line => Some(pick),
            other => {
                self.overlay = other;
                None
            }
        };
        let q = Question::Kept(kept::offer(self, saved, from_command_line, pick));
        self.overlay = Some(Overlay::Ask(q));
    }

    /// Keep the game in progress for the next start ([`kept::keep`]).
    pub fn keep_game_in_progress(&mut self) -> Result<(), KeepError> {
        kept::keep(self)
    }

    /// The game that was kept is over or gone ([`kept::forget`]).
    pub(super) fn forget_saved_game(&mut self) {
        kept::forget(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each thing that can be wrong with the kept game's file is its own variant, and
    /// the file is moved aside for each (one it cannot read stays where it is).
    #[test]
    fn each_fault_of_a_kept_game_is_its_own_variant() {
        let dir = std::env::temp_dir().join(format!("threefold-saved-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game-in-progress.json");
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let game = |moves: &str, claims: &str| {
            format!(
                r#"{{"start_fen":"{start}","moves":[{moves}],"human":"both","claims":[{claims}]}}"#
            )
        };
        let reason = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            match load_saved(&path) {
                Err(SavedGameError::MovedAside { reason, aside, .. }) => {
                    assert!(!path.exists() && aside.exists(), "{reason}");
                    std::fs::remove_file(aside).unwrap();
                    reason
                }
                other => panic!("not moved aside: {other:?}"),
            }
        };
        use SavedGameReason as R;
        assert!(matches!(reason(b"{\"start_fen\": \"\xff\"}"), R::Utf8(_)));
        assert!(matches!(reason(b"{\"moves\": 3}"), R::Json(_)));
        let bad_fen = game("", "").replace(start, "8/8/8/8/8/8/8/8 w - - 0 1");
        assert!(matches!(reason(bad_fen.as_bytes()), R::Fen(_)));
        let illegal = game(r#""e2e5""#, "");
        assert!(matches!(reason(illegal.as_bytes()), R::Move(_)));
        let mark = game(r#""e2e4""#, r#"{"ply":1,"mark":"later"}"#);
        assert!(matches!(reason(mark.as_bytes()), R::ClaimMark { mark } if mark == "later"));
        let ply = game(r#""e2e4""#, r#"{"ply":0,"mark":"move"}"#);
        assert!(matches!(
            reason(ply.as_bytes()),
            R::ClaimPly {
                ply: 0,
                plies: 1,
                ..
            }
        ));
        let rule = game(r#""e2e4""#, r#"{"ply":1,"mark":"now","rule":"9.6"}"#);
        assert!(matches!(reason(rule.as_bytes()), R::ClaimRule { rule } if rule == "9.6"));
        // A game that is fine is offered; no file, nothing to offer.
        std::fs::write(
            &path,
            game(r#""e2e4""#, r#"{"ply":1,"mark":"now","rule":"9.2"}"#),
        )
        .unwrap();
        assert_eq!(load_saved(&path).unwrap().unwrap().moves, ["e2e4"]);
        std::fs::remove_file(&path).unwrap();
        assert!(load_saved(&path).unwrap().is_none());
        // A directory where the file should be cannot be read.
        std::fs::create_dir(&path).unwrap();
        let e = load_saved(&path).unwrap_err();
        assert!(matches!(e, SavedGameError::Read(_)), "{e}");
        assert!(path.is_dir());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
