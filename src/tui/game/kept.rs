//! The game in progress kept between runs, for both games, by one code path: one file
//! format ([`SavedGame`]: JSON with the game's kind, its start position and moves, the
//! players, the level, the clocks and chess's claims), one reading ([`load`]: a file that
//! is not a kept game of its game is moved aside, one that cannot be read is left where it
//! is, and the error says which), one writing ([`keep`]: atomic, a kept game the player has
//! not answered for set aside, never overwritten), one question at start (resume it?
//! replace it with the game given on the command line?). What differs per game is only
//! how its game becomes a kept game and back ([`Keep`]).
//!
//! Files written before this format are still read: chess's kept JSON has no `game` (it is
//! chess) nor `level`; xiangqi's kept game was PGN ([`Keep::read_older`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::drills::GameKind;
use crate::fsio::{FileKind, ReadError, human_size, read_bytes};
use crate::rules::{FenError, PlayError};
use crate::tui::clock::{Clock, Side};
use crate::tui::config::{KeepError, Players};
use crate::tui::screen::Requests;

use super::KeptGame;

/// A game in progress kept between runs: the game, its start and moves (UCI for chess,
/// UCCI for xiangqi), who plays them, the engine's level, the claims made (chess) and the
/// clocks, so that quitting, a signal or a panic loses nothing of the game. Files written
/// before the game's kind, the level, claims and clocks were kept have none
/// (`serde(default)`: a file without `game` is chess's).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedGame {
    #[serde(default = "chess", with = "game_code")]
    pub game: GameKind,
    pub start_fen: String,
    pub moves: Vec<String>,
    pub human: Players,
    /// The engine's level when the game was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// The claims made in the game (chess), as in
    /// [`GameRecord::claims`](crate::rules::review::GameRecord::claims).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<SavedClaim>,
    /// The clocks, if the game was played with them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<SavedClocks>,
}

fn chess() -> GameKind {
    GameKind::Chess
}

/// The game's kind in the file: its [`GameKind::code`].
mod game_code {
    use crate::drills::GameKind;

    pub fn serialize<S: serde::Serializer>(g: &GameKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(g.code())
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<GameKind, D::Error> {
        let code = <String as serde::Deserialize>::deserialize(d)?;
        [GameKind::Chess, GameKind::Xiangqi]
            .into_iter()
            .find(|g| g.code() == code)
            .ok_or_else(|| {
                serde::de::Error::custom(format!("game '{code}', not 'chess' or 'xiangqi'"))
            })
    }
}

/// A claim of a kept game: the ply of [`RecordedClaim::ply`], the mark's
/// [`ClaimMark::code`] ("now" or "move") and the rule's [`Ground::code`] ("9.2", "9.3"),
/// as `[%claim ...]` writes them.
///
/// [`RecordedClaim::ply`]: crate::rules::pgn::RecordedClaim::ply
/// [`ClaimMark::code`]: crate::rules::pgn::ClaimMark::code
/// [`Ground::code`]: crate::rules::claim::Ground::code
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedClaim {
    pub ply: usize,
    pub mark: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The clocks of a kept game, in milliseconds: base time, increment, and the time the
/// side that moves first (White, Red) and the other had left when the game was kept (a
/// running clock is stopped first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedClocks {
    pub base_ms: u64,
    pub inc_ms: u64,
    pub left_ms: [u64; 2],
}

impl SavedClocks {
    /// The clocks `c` as kept, read at `now`.
    pub fn of<C: Side>(c: &Clock<C>, now: Instant) -> SavedClocks {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let side = |i: usize| {
            c.running
                .map(|(r, _)| if i == r.index() { r } else { r.other() })
        };
        let left = |i: usize| side(i).map_or(c.left[i], |s| c.remaining(s, now));
        SavedClocks {
            base_ms: ms(c.base),
            inc_ms: ms(c.inc),
            left_ms: [ms(left(0)), ms(left(1))],
        }
    }

    /// The clocks back, the side to move's running from now if the game has begun.
    pub fn resumed<C: Side>(self, turn: C, begun: bool) -> Clock<C> {
        let d = Duration::from_millis;
        let mut clock = Clock::new(d(self.base_ms), d(self.inc_ms));
        clock.left = self.left_ms.map(d);
        if begun {
            clock.running = Some((turn, Instant::now()));
        }
        clock
    }
}

/// What is wrong with a kept game's file: its text is not a game that can be resumed.
/// The rules' and the decoders' errors are kept as they are.
#[derive(Debug, thiserror::Error)]
pub enum SavedGameReason {
    /// The file is not UTF-8 text.
    #[error(transparent)]
    Utf8(#[from] std::str::Utf8Error),
    /// The text is not JSON of a kept game's shape.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The file keeps a game of the other game (a xiangqi game where chess's is kept).
    #[error("it keeps a {} game, not a {} game", found.code(), wanted.code())]
    OtherGame { found: GameKind, wanted: GameKind },
    /// The start position is not a chess FEN the rules core reads.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A chess move cannot be played from the position before it.
    #[error(transparent)]
    Move(#[from] PlayError),
    /// The start position is not a xiangqi FEN.
    #[error("{0}")]
    XiangqiFen(Box<crate::xiangqi::board::FenError>),
    /// A xiangqi move cannot be played from the position before it.
    #[error("move {ply}: {source}")]
    XiangqiMove {
        ply: usize,
        source: Box<crate::xiangqi::notation::MoveError>,
    },
    /// An older kept xiangqi game (PGN) that is not a xiangqi game.
    #[error(transparent)]
    XiangqiPgn(Box<crate::xiangqi::pgn::PgnError>),
    /// A claim's mark is not a [`ClaimMark::code`] ("now" or "move").
    ///
    /// [`ClaimMark::code`]: crate::rules::pgn::ClaimMark::code
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
    ///
    /// [`Ground::code`]: crate::rules::claim::Ground::code
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

/// What keeping differs in per game: how the game on the screen becomes a kept game, what
/// makes a kept game one that cannot be resumed, an older file's shape; and where the
/// screen keeps its game.
pub trait Keep: KeptGame {
    /// The game this screen plays.
    const GAME: GameKind;
    /// The game on the board as it is kept (clocks read at `now`).
    fn kept(&self, now: Instant) -> SavedGame;
    /// What is wrong with a kept game of this game, if anything.
    fn check(saved: &SavedGame) -> Result<(), SavedGameReason>;
    /// A kept file that is not JSON, as an older version wrote it (none but JSON: an error).
    fn read_older(text: &str) -> Result<SavedGame, SavedGameReason> {
        Ok(serde_json::from_str(text)?)
    }
    /// Where the game in progress is kept between runs (None: nowhere).
    fn kept_path(&self) -> Option<&Path>;
    /// Whether the kept file holds a game the player has not answered for (neither resumed
    /// nor refused): set aside, never overwritten, never deleted.
    fn unanswered(&mut self) -> &mut bool;
    /// The kept game back on the board, with its players, level and clocks (and chess's
    /// claims); one that cannot be resumed is named.
    fn resume(&mut self, saved: &SavedGame, out: &mut Requests);
    /// The game on the board goes on once the question is answered (the engine plays if
    /// it is its turn).
    fn go_on(&mut self, out: &mut Requests);
}

/// The question about a kept game, the same for both games ([`offer_text`]): resume it, or
/// (`given`: a game was given on the command line) replace it with the one given?
/// `behind`: what the command line's file opened and waits behind the question (chess's
/// list of a file's games), shown again once the kept game is not resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer<L = ()> {
    pub saved: Box<SavedGame>,
    pub given: bool,
    pub behind: Option<Box<L>>,
}

impl<L> Offer<L> {
    /// The question in words.
    pub fn text(&self) -> String {
        offer_text(&self.saved, self.given)
    }

    /// What each key does, in the question's words (the same as [`offer_text`]'s brackets).
    pub fn answers(&self) -> super::Answers {
        if self.given {
            super::Answers {
                yes: "play the new game",
                no: "resume the kept one",
                later: "keep both",
            }
        } else {
            super::Answers {
                yes: "resume",
                no: "delete it",
                later: "set it aside",
            }
        }
    }
}

/// Ask about the kept game `saved` found at start: it stays on disk until the player
/// answers (and is set aside, never overwritten, if another game has to be kept first).
pub fn offer<G: Keep, L>(
    g: &mut G,
    saved: SavedGame,
    given: bool,
    behind: Option<Box<L>>,
) -> Offer<L> {
    *g.unanswered() = true;
    Offer {
        saved: Box::new(saved),
        given,
        behind,
    }
}

/// The answer to the question about the kept game, in both games: resumed ([`resumes`]),
/// or deleted and then as [`later`]. What waited behind the question comes back, to be
/// shown again.
pub fn answer<G: Keep, L>(
    g: &mut G,
    offer: Offer<L>,
    yes: bool,
    out: &mut Requests,
) -> Option<Box<L>> {
    if resumes(offer.given, yes) {
        g.resume(&offer.saved, out);
        return None;
    }
    discard(g, out);
    later(g, offer, out)
}

/// The question about the kept game left for later (Esc), or the kept game deleted: what
/// waited behind the question comes back, or else the game on the board goes on.
pub fn later<G: Keep, L>(g: &mut G, offer: Offer<L>, out: &mut Requests) -> Option<Box<L>> {
    if offer.behind.is_none() {
        g.go_on(out);
    }
    offer.behind
}

/// Read the kept game of `G` in `path` (none there: None). A file that is not a kept game
/// of `G` is moved aside and the error says where; one that cannot be read stays.
pub fn load<G: Keep>(path: &Path) -> Result<Option<SavedGame>, SavedGameError> {
    let text = match read_bytes(path, FileKind::KeptGame) {
        Ok(t) => Ok(t),
        Err(e) if e.is_not_found() => return Ok(None),
        Err(ReadError::TooLarge { .. }) => Err(SavedGameReason::TooLarge),
        Err(e) => return Err(SavedGameError::Read(e)),
    };
    let parsed = text
        .and_then(|t| String::from_utf8(t).map_err(|e| e.utf8_error().into()))
        .and_then(|t| {
            if t.trim_start().starts_with('{') {
                Ok(serde_json::from_str::<SavedGame>(&t)?)
            } else {
                G::read_older(&t)
            }
        })
        .and_then(|s| match s.game {
            g if g != G::GAME => Err(SavedGameReason::OtherGame {
                found: g,
                wanted: G::GAME,
            }),
            _ => G::check(&s).map(|()| s),
        });
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

/// Keep the game in progress of `g` for the next start (on quitting, on a signal, after a
/// panic), atomically; with no game in progress, forget the kept one. A kept game that was
/// neither resumed nor refused is set aside first, never overwritten. The error says why a
/// game in progress could not be kept (quitting asks then; a signal says it on stderr).
pub fn keep<G: Keep>(g: &mut G) -> Result<(), KeepError> {
    let Some(p) = g.kept_path().map(Path::to_path_buf) else {
        return Ok(());
    };
    if !g.game_in_progress() {
        forget(g);
        return Ok(());
    }
    if std::mem::take(g.unanswered()) && p.exists() {
        let _ = std::fs::rename(&p, crate::fsio::aside_name(&p, "older"));
    }
    let text = serde_json::to_string(&g.kept(Instant::now())).map_err(KeepError::Encode)?;
    crate::fsio::write_app_file(&p, text.as_bytes())
        .map_err(|source| KeepError::Write { path: p, source })
}

/// The game that was kept is over or gone: delete the file, unless it holds a game the
/// player has not answered for.
pub fn forget<G: Keep>(g: &mut G) {
    if !*g.unanswered()
        && let Some(p) = g.kept_path()
    {
        let _ = super::files::forget_kept(p);
    }
}

/// The player said no to resuming: the kept game goes.
pub fn discard<G: Keep>(g: &mut G, out: &mut Requests) {
    *g.unanswered() = false;
    if let Some(p) = g.kept_path() {
        let _ = super::files::forget_kept(p);
    }
    out.info("The saved game was deleted.");
}

/// Whether the answer to the question about a kept game ([`offer_text`]) resumes it: yes
/// to resuming, or no to replacing it with the game given.
pub fn resumes(given: bool, yes: bool) -> bool {
    yes != given
}

/// A kept game that could not be put back on the board (its moves or position refused), in
/// both games' words.
pub fn cannot_resume(out: &mut Requests, why: impl std::fmt::Display) {
    out.error(format!("cannot resume: {why}"));
}

/// What is said when a kept game is back on the board (a problem found at start, the
/// config's, stays on screen: the board shows that the game is back).
pub fn resumed(out: &mut Requests) {
    if !out.shows_error() {
        out.info("Resumed the game in progress.");
    }
}

/// The question at start about a kept game: resume it, or (`given`: a game was given on
/// the command line) replace it with the one given? In words, with the game's size.
pub fn offer_text(saved: &SavedGame, given: bool) -> String {
    let size = match saved.moves.len() {
        1 => "1 ply".to_string(),
        n => format!("{n} plies"),
    };
    let game = saved.game.code();
    // What each key does is said on the question's own line ([`Offer::answers`]).
    if given {
        format!(
            "A {game} game in progress was kept ({size}). Play the new game and delete the \
             kept one?"
        )
    } else {
        format!("A {game} game in progress was kept ({size}). Resume it?")
    }
}
