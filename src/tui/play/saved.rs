//! The game in progress kept between runs: written on quitting, on a signal
//! and after a panic, offered again at the next start (resume, or replace it
//! with a game from the command line), set aside rather than overwritten, and
//! moved aside when it cannot be read.

use std::time::{Duration, Instant};

use shakmaty::{Color, Position};

use crate::rules::Game;
use crate::rules::claim::Ground;
use crate::rules::pgn::{ClaimMark, RecordedClaim};

use super::{Clock, Overlay, Play, Players, Question, Replies};

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

impl Play {
    /// Resume a saved game in progress.
    pub(crate) fn resume(&mut self, saved: &SavedGame, out: &mut Replies) {
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
    pub(crate) fn discard_saved_game(&mut self, out: &mut Replies) {
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
            Question::ReplaceKept(Box::new(saved))
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
            let _ = std::fs::remove_file(p);
        }
    }
}
