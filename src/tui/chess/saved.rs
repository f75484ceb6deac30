//! The game in progress kept between runs: written on quitting, on a signal
//! and after a panic, offered again at the next start (resume, or replace it
//! with a game from the command line), set aside rather than overwritten, and
//! moved aside when it cannot be read.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use shakmaty::{Color, Position};

use crate::fsio::{FileKind, ReadError, human_size, read_bytes};
use crate::rules::claim::Ground;
use crate::rules::pgn::{ClaimMark, RecordedClaim};
use crate::rules::{FenError, Game, PlayError};

use super::{Clock, KeepError, Overlay, Play, Players, Question, Requests};

/// A game in progress kept between runs: the moves, who plays them, the claims made
/// and the clocks, so that quitting, a signal or a panic loses nothing of the game.
/// Files written before claims and clocks were kept have neither (`serde(default)`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedGame {
    pub start_fen: String,
    pub moves: Vec<String>,
    pub human: Players,
    /// The claims made in the game, as in [`GameRecord::claims`](crate::rules::review::GameRecord::claims).
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
            human: play.config.human,
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

/// What is wrong with a kept game's file: its text is not a game that can be
/// resumed. The rules core's and the decoders' errors are kept as they are.
#[derive(Debug, thiserror::Error)]
pub enum SavedGameReason {
    /// The file is not UTF-8 text.
    #[error(transparent)]
    Utf8(#[from] std::str::Utf8Error),
    /// The text is not JSON of a kept game's shape.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The start position is not a FEN the rules core reads.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A move cannot be played from the position before it.
    #[error(transparent)]
    Move(#[from] PlayError),
    /// A claim's mark is not a [`ClaimMark::code`] ("now" or "move").
    #[error("a claim is marked '{mark}', not 'now' or 'move'")]
    ClaimMark { mark: String },
    /// A claim is at a ply the game does not have (a claim with a move needs a move
    /// before it).
    #[error("a claim '{mark}' at ply {ply} of a game of {plies} plies")]
    ClaimPly {
        mark: String,
        ply: usize,
        plies: usize,
    },
    /// A claim's rule is not a [`Ground::code`] ("9.2" or "9.3").
    #[error("a claim under '{rule}', not '9.2' or '9.3'")]
    ClaimRule { rule: String },
    /// The file holds more than a kept game may ([`FileKind::KeptGame`]).
    #[error(
        "it holds more than {} may ({})",
        FileKind::KeptGame.words(),
        human_size(FileKind::KeptGame.limit())
    )]
    TooLarge,
}

/// Why the kept game was not offered at start: the file could not be read, or its
/// text is not a game ([`SavedGameReason`]) and it was moved aside (or could not be).
#[derive(Debug, thiserror::Error)]
pub enum SavedGameError {
    /// The file exists but cannot be read (not a regular file, permissions): it is left
    /// where it is, untouched.
    #[error("the saved game was not resumed: {0}")]
    Read(ReadError),
    /// The file is not a kept game; it was moved to `aside`.
    #[error(
        "the saved game {} was unreadable ({reason}); it was moved to {}",
        path.display(),
        aside.display()
    )]
    MovedAside {
        path: PathBuf,
        reason: SavedGameReason,
        aside: PathBuf,
    },
    /// The file is not a kept game, and moving it aside failed.
    #[error(
        "the saved game {} was unreadable ({reason}) and could not be moved aside ({source})",
        path.display()
    )]
    NotMovedAside {
        path: PathBuf,
        reason: SavedGameReason,
        source: std::io::Error,
    },
}

/// The game, claims and clocks of a kept game, or what is wrong with it.
fn restore(
    saved: &SavedGame,
) -> Result<(Game, Vec<RecordedClaim>, Option<Clock>), SavedGameReason> {
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
    let clock = saved.clocks.map(|c| {
        let d = Duration::from_millis;
        let mut clock = Clock::new(d(c.base_ms), d(c.inc_ms));
        clock.left = c.left_ms.map(d);
        clock
    });
    Ok((g, claims, clock))
}

/// Read the saved game in progress. A file that is not a saved game is moved
/// aside (as `progress.toml` is) and the error says where.
pub fn load_saved(path: &Path) -> Result<Option<SavedGame>, SavedGameError> {
    let text = match read_bytes(path, FileKind::KeptGame) {
        Ok(t) => Ok(t),
        Err(e) if e.is_not_found() => return Ok(None),
        Err(ReadError::TooLarge { .. }) => Err(SavedGameReason::TooLarge),
        Err(e) => return Err(SavedGameError::Read(e)),
    };
    let parsed = text
        .and_then(|t| String::from_utf8(t).map_err(|e| e.utf8_error().into()))
        .and_then(|t| serde_json::from_str::<SavedGame>(&t).map_err(SavedGameReason::from))
        .and_then(|s| restore(&s).map(|_| s));
    match parsed {
        Ok(s) => Ok(Some(s)),
        Err(reason) => {
            let path = path.to_path_buf();
            let aside = crate::fsio::aside_name(&path, "corrupt");
            Err(match std::fs::rename(&path, &aside) {
                Ok(()) => SavedGameError::MovedAside {
                    path,
                    reason,
                    aside,
                },
                Err(source) => SavedGameError::NotMovedAside {
                    path,
                    reason,
                    source,
                },
            })
        }
    }
}

impl Play {
    /// Resume a saved game in progress.
    pub(crate) fn resume(&mut self, saved: &SavedGame, out: &mut Requests) {
        self.saved_kept = false;
        match restore(saved) {
            Ok((g, claims, clock)) => {
                self.config.human = saved.human;
                self.flipped = self.config.human == Players::HumanBlack;
                self.set_game(g, out);
                self.record.claims = claims;
                // The game's own clocks (none if it was played without), whatever new
                // games get; the side to move's runs again from now.
                let turn = self.game.position().turn();
                let started = !self.game.is_empty();
                self.clock = clock.map(|mut c| {
                    if started {
                        c.running = Some((turn, Instant::now()));
                    }
                    c
                });
                self.record.clocks = self.clocks();
                self.note_clocks();
                // A problem found at start (the config's) stays on screen: the board
                // shows that the game is back.
                if !out.shows_error() {
                    out.info("Resumed the game in progress.");
                }
                self.maybe_engine(out);
            }
            Err(e) => out.error(format!("cannot resume: {e}")),
        }
    }

    /// The player said no to resuming: the saved game goes.
    pub(crate) fn discard_saved_game(&mut self, out: &mut Requests) {
        self.saved_kept = false;
        if let Some(p) = &self.resume_path {
            let _ = std::fs::remove_file(p);
        }
        out.info("The saved game was deleted.");
    }

    /// A saved game in progress was found at start. Without a game from the
    /// command line: resume it? With one (`--fen`, `--pgn`): replace it? Either
    /// way it stays on disk until the player answers (and is set aside, never
    /// overwritten, if another game has to be kept first).
    pub fn offer_saved_game(&mut self, saved: SavedGame, from_command_line: bool) {
        self.saved_kept = true;
        let q = if from_command_line {
            // A list of games the command line's file opened waits behind the question.
            let pick = match self.overlay.take() {
                Some(Overlay::PickGame(pick)) => Some(pick),
                other => {
                    self.overlay = other;
                    None
                }
            };
            Question::ReplaceKept {
                saved: Box::new(saved),
                pick,
            }
        } else {
            Question::Resume(Box::new(saved))
        };
        self.overlay = Some(Overlay::Ask(q));
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
        let in_progress = !self.game.is_empty() && !self.game.is_over();
        if !in_progress {
            self.forget_saved_game();
            return Ok(());
        }
        if self.saved_kept && p.exists() {
            let _ = std::fs::rename(&p, crate::fsio::aside_name(&p, "older"));
        }
        self.saved_kept = false;
        let saved = SavedGame::of(self, Instant::now());
        let text = serde_json::to_string(&saved).map_err(KeepError::Encode)?;
        crate::fsio::write_app_file(&p, text.as_bytes())
            .map_err(|source| KeepError::Write { path: p, source })
    }

    /// The game that was kept is over or gone: delete the file, unless it
    /// holds a game the player has not answered for.
    pub(super) fn forget_saved_game(&mut self) {
        if let Some(p) = &self.resume_path
            && !self.saved_kept
        {
            let _ = crate::tui::game::files::forget_kept(p);
        }
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
