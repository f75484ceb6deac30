//! The input line's prompts: what a typed line is for, and the line editor
//! holding it. A leaf: the App owns the one input line; the screens ask for
//! it by [`InputKind`].

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
            InputKind::XiangqiMove => "Move (WXF like C2=5, or UCCI like h2e2)",
            InputKind::XiangqiFen => "Xiangqi FEN",
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
