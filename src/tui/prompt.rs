//! The input line's prompts: what a typed line is for, and the line editor
//! holding it. A leaf: the App owns the one input line; the screens ask for
//! it by [`InputKind`].

use std::path::{Path, PathBuf};

use crate::rules::pgn::UtcMinute;

use super::line_edit::LineEdit;

/// What a typed line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    Move,
    ClaimMove,
    Fen,
    LoadPgn,
    SavePgn,
    /// A typed drill answer.
    DrillAnswer,
    /// A xiangqi move (WXF or UCCI).
    XiangqiMove,
    /// A xiangqi position to start from.
    XiangqiFen,
    /// Where to save the xiangqi game.
    XiangqiSave,
    /// The xiangqi game to open.
    XiangqiLoad,
    /// A xiangqi drill's answer.
    XqDrillAnswer,
}

impl InputKind {
    pub fn prompt(self) -> &'static str {
        match self {
            InputKind::Move => "Move (SAN or UCI)",
            InputKind::ClaimMove => "Intended move for the claim",
            InputKind::Fen => "FEN",
            InputKind::LoadPgn => "Load PGN file",
            InputKind::SavePgn => "Save PGN as",
            InputKind::DrillAnswer => "Your answer",
            InputKind::XiangqiMove => "Move (WXF C2=5, UCCI h2e2 or 炮二平五)",
            InputKind::XiangqiFen => "Xiangqi FEN",
            InputKind::XiangqiSave => "Save the xiangqi game as",
            InputKind::XiangqiLoad => "Open a xiangqi PGN file",
            InputKind::XqDrillAnswer => "Your answer",
        }
    }
}

/// The line being typed: what it is for, and the line editor holding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub kind: InputKind,
    pub line: LineEdit,
}

impl Input {
    /// A prompt for `kind` holding `text`, the cursor at its end.
    pub fn new(kind: InputKind, text: &str) -> Input {
        Input {
            kind,
            line: LineEdit::new(text),
        }
    }

    /// What has been typed.
    pub fn text(&self) -> &str {
        self.line.text()
    }
}

/// Where `~/` leads (the home directory), so typed paths read as a shell reads them.
pub fn expand_home(text: &str) -> PathBuf {
    match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(text),
    }
}

/// A new file name for a saved game in `dir`: `game-20261123-1437.pgn` (UTC; `prefix`
/// "game" for chess, "xiangqi" for xiangqi), with `-2`, `-3` ... added if that file exists.
pub fn default_save_name(prefix: &str, now: UtcMinute, dir: &Path) -> PathBuf {
    let stem = format!(
        "{prefix}-{:04}{:02}{:02}-{:02}{:02}",
        now.year, now.month, now.day, now.hour, now.minute
    );
    let mut name = dir.join(format!("{stem}.pgn"));
    let mut n = 2;
    while name.exists() {
        name = dir.join(format!("{stem}-{n}.pgn"));
        n += 1;
    }
    name
}
