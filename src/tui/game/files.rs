//! Saving and keeping a game, for both games: the save prompt, the name typed (written, or
//! asked about when the file exists), the write and what it says, the answer to "no" to
//! overwriting, where the game is saved while the file still holds it, and the file that
//! keeps a game in progress between runs.

use std::path::{Path, PathBuf};

use crate::rules::pgn::UtcMinute;
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
