//! Saving, opening and keeping a game, for both games: the save prompt, the name typed
//! (written, or asked about when the file exists), the write and what it says, the answer
//! to "no" to overwriting, where the game is saved while the file still holds it, the tags
//! a game played on the trainer is saved with; opening a file (asked first while a game is
//! in progress, the name typed, what is said when it opens or cannot); and the file that
//! keeps a game in progress between runs.

use std::path::{Path, PathBuf};

use crate::rules::pgn::UtcMinute;
use crate::tui::config::Players;
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::prompt::{InputKind, default_save_name, expand_home};
use crate::tui::screen::Requests;

/// The prompt for a file name to save the game in, prefilled with a new
/// `STEM-YYYYMMDD-HHMM.pgn` in the current directory, which the message line names.
pub fn ask_save_name(stem: &str, out: &mut Requests) {
    let name = default_save_name(stem, UtcMinute::now(), Path::new(""));
    out.type_line(InputKind::SavePgn, &name.display().to_string());
    if let Ok(dir) = std::env::current_dir() {
        out.info(format!(
            "A name alone is saved in {}; give a path for elsewhere.",
            dir.display()
        ));
    }
}

/// The tags the trainer saves a game played on it with, both games: the event, the site
/// (the trainer), today's date (UTC), the players ([`player_name`]) and the time control
/// (PGN standard 9.6.1: seconds, "+" the increment; "-" for none, so a review of the file
/// knows no time was added), and the sides a sparring engine played (`sparring`, first and
/// second: [`crate::rules::review::SPARRING_TAG`], so the review of the file lists no missed
/// claim of theirs).
pub fn game_tags(
    event: &str,
    names: [String; 2],
    clock: Option<(std::time::Duration, std::time::Duration)>,
    sparring: [bool; 2],
) -> Vec<(String, String)> {
    let [first, second] = names;
    let tc = match clock {
        Some((base, inc)) => format!("{}+{}", base.as_secs(), inc.as_secs()),
        None => "-".to_string(),
    };
    let mut tags: Vec<(String, String)> = [
        ("Event", event.to_string()),
        ("Site", "threefold".to_string()),
        ("Date", UtcMinute::now().pgn_date()),
        ("White", first),
        ("Black", second),
        ("TimeControl", tc),
    ]
    .map(|(k, v)| (k.to_string(), v))
    .into();
    if let Some(v) = crate::rules::review::sparring_value(sparring[0], sparring[1]) {
        tags.push((crate::rules::review::SPARRING_TAG.to_string(), v));
    }
    tags
}

/// The tags a game opened from a file is saved with again, in both games: the file's own
/// (`file_tags`), its result and termination only while its moves are as read
/// (`unchanged`), and a date, today's, when the file had none.
pub fn opened_tags(file_tags: &[(String, String)], unchanged: bool) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = file_tags
        .iter()
        .filter(|(k, _)| unchanged || !matches!(k.as_str(), "Result" | "Termination"))
        .cloned()
        .collect();
    if !tags.iter().any(|(k, _)| k == "Date") {
        tags.push(("Date".to_string(), UtcMinute::now().pgn_date()));
    }
    tags
}

/// A player as a saved game names it: the engine by its level; the user by the name set
/// (`name` in the config), "Player" when none is set or two humans play.
pub fn player_name(human: bool, players: Players, name: &str, level: u8) -> String {
    if !human {
        format!("threefold level {level}")
    } else if players == Players::TwoHumans || name.is_empty() {
        "Player".to_string()
    } else {
        name.to_string()
    }
}

/// `o`: open a game from a file, the same in both games. With a game in progress the
/// question comes first (true: ask [`super::Question::AbandonForPgn`], whose yes opens the
/// prompt); else the prompt opens.
pub fn ask_open(in_progress: bool, out: &mut Requests) -> bool {
    if !in_progress {
        open_prompt(out);
    }
    in_progress
}

/// The prompt for a file to open.
pub fn open_prompt(out: &mut Requests) {
    out.type_line(InputKind::LoadPgn, "");
}

/// The file named at the open prompt (`~` read as the home directory); none typed, None.
pub fn open_path(text: &str) -> Option<PathBuf> {
    (!text.is_empty()).then(|| expand_home(text))
}

/// A file that could not be opened: one line naming it and the problem, and the name
/// back at the prompt to be changed. The game on the board is untouched.
pub fn not_opened(problem: impl std::fmt::Display, path: &Path, out: &mut Requests) {
    out.error(problem.to_string());
    out.type_line(InputKind::LoadPgn, &path.display().to_string());
}

/// Who plays a game opened from a file, in both games: two humans, to go through it or play
/// it on without the engine answering at once (the players menu changes it).
pub const OPENED_PLAYERS: Players = Players::TwoHumans;

/// The words saying who plays a game opened from a file ([`OPENED_PLAYERS`]).
pub fn opened_players_note() -> String {
    format!(
        "Players: two humans ({} to change).",
        keys::key_for(Cmd::Players)
    )
}

/// What opening a game says: "Opened F: 5 moves" (of game `index` of a file of several:
/// "Opened F game 3: …"). `black_first`: the game began with the second side to move.
pub fn opened(path: &Path, index: Option<usize>, plies: usize, black_first: bool) -> String {
    let game = index.map_or(String::new(), |i| format!(" game {i}"));
    format!(
        "Opened {}{game}: {}",
        path.display(),
        moves_words(plies, black_first)
    )
}

/// What a name typed at the save prompt asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveTo {
    /// No name: nothing.
    Nothing,
    /// The file exists: ask before replacing it.
    Ask(PathBuf),
    /// Write the game there.
    Write(PathBuf),
}

/// The name typed for saving (`~` read as the home directory).
pub fn save_to(text: &str) -> SaveTo {
    if text.is_empty() {
        return SaveTo::Nothing;
    }
    let path = expand_home(text);
    if path.is_file() {
        SaveTo::Ask(path)
    } else {
        SaveTo::Write(path)
    }
}

/// Write the game's text `pgn` to `path` (atomically) and say where: the file and the text
/// written (what [`saved_file`] reads), or None if it could not be written (said).
pub fn write(path: &Path, pgn: String, out: &mut Requests) -> Option<(PathBuf, String)> {
    match crate::fsio::write_atomic(path, pgn.as_bytes()) {
        Ok(()) => {
            let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            out.info(format!("Saved {}", full.display()));
            Some((full, pgn))
        }
        Err(e) => {
            out.error(format!("cannot save {}: {e}", path.display()));
            None
        }
    }
}

/// "No" to overwriting: the name comes back to be changed.
pub fn save_elsewhere(path: &Path, out: &mut Requests) {
    out.type_line(InputKind::SavePgn, &path.display().to_string());
    out.info(not_saved());
}

/// What is said when the player would not overwrite a file: the name comes back to be
/// changed.
pub fn not_saved() -> String {
    format!(
        "Not saved: type another name, or {} to cancel.",
        keys::key_in(Ctx::Input, Cmd::Close)
    )
}

/// The file the game was last saved to, if it still holds the game as it is (`pgn`).
pub fn saved_file(saved: &Option<(PathBuf, String)>, pgn: &str) -> Option<PathBuf> {
    saved
        .as_ref()
        .filter(|(_, text)| text == pgn)
        .map(|(p, _)| p.clone())
}

/// A game's size in moves (a move: one of each side, as the move numbers count), as the
/// messages say it: "1 move", "5 moves". `black_first`: the side that moves second has the
/// first move (a position given by a FEN).
pub fn moves_words(plies: usize, black_first: bool) -> String {
    let n = match plies {
        0 => 0,
        p => (p + 1 + usize::from(black_first)) / 2,
    };
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

/// Remove the file that kept a game, which is over or gone (none there is no error).
pub fn forget_kept(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An existing file is asked about, a new name written, an empty line is nothing.
    #[test]
    fn a_name_typed_is_asked_about_when_its_file_exists() {
        let dir = std::env::temp_dir().join(format!("threefold-saveto-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let there = dir.join("there.pgn");
        std::fs::write(&there, "x").unwrap();
        let there_s = there.display().to_string();
        assert_eq!(save_to(&there_s), SaveTo::Ask(there.clone()));
        let new = dir.join("new.pgn");
        assert_eq!(save_to(&new.display().to_string()), SaveTo::Write(new));
        assert_eq!(save_to(""), SaveTo::Nothing);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Moves, not plies: ten plies are five moves; a game the second side began counts its
    /// first ply as a move of its own.
    #[test]
    fn a_games_size_is_said_in_moves() {
        assert_eq!(moves_words(10, false), "5 moves");
        assert_eq!(moves_words(1, false), "1 move");
        assert_eq!(moves_words(3, false), "2 moves");
        assert_eq!(moves_words(2, true), "2 moves");
        assert_eq!(moves_words(1, true), "1 move");
        assert_eq!(moves_words(0, true), "0 moves");
    }

    #[test]
    fn the_saved_file_is_named_while_it_holds_the_game() {
        let saved = Some((PathBuf::from("/g.pgn"), "1. e4".to_string()));
        assert_eq!(saved_file(&saved, "1. e4"), Some(PathBuf::from("/g.pgn")));
        assert_eq!(saved_file(&saved, "1. e4 e5"), None);
    }
}
