//! Reading games from PGN and writing a [`Game`](crate::game::Game) as PGN.
//!
//! # Reading
//!
//! [`PgnReader`] is the one reader: it decides where games begin and end, which tokens are
//! main-line moves, and the line of everything, in one pass over a stream (a file is never
//! read whole). Only the main line is kept; variations, comments and NAGs are checked for
//! form and skipped. A game with a `[FEN "..."]` tag starts from that position.
//!
//! The grammar is the PGN standard's (Edwards, "Portable Game Notation Specification and
//! Implementation Guide", 1994, sections 8 and 16), read strictly, so that a file is either
//! understood as written or refused with its line:
//!
//! - A tag pair is `[Name "value"]` on one line, `\"` and `\\` escaping inside the value.
//!   A malformed tag (`[Event "q"uote"]`, a missing `]`, text after it) is an error, never
//!   the start of a new game; a tag name given twice in one tag section is an error (two
//!   tag sections with no moves and no result between them run together otherwise).
//! - The movetext holds move numbers (`12.`, `12...`), moves in SAN (`O-O` may be written
//!   `0-0`), NAGs (`$1`, `!`, `?!` ...), comments (`{...}` over any lines, `;` to the end of
//!   the line), variations in parentheses, and at most one result (`1-0`, `0-1`,
//!   `1/2-1/2`, `*`), which ends the game. Anything else (`blah`, stray bytes, `<`) is an
//!   error naming the token and its line.
//! - A game ends at its result, at a blank line (outside a comment) or at a tag at the
//!   start of a line, as python-chess and pgn-reader end it; a `%` at the start of a line
//!   escapes the whole line.
//!
//! Memory is bounded whatever the input: a tag value may hold [`MAX_TAG_VALUE_BYTES`], a
//! token [`MAX_TOKEN_BYTES`], a tag section [`MAX_TAGS`] tags, a main line [`MAX_PLIES`]
//! moves and variations nest [`MAX_VARIATION_DEPTH`] deep; comments are skipped without
//! being stored (only the embedded `[%claim ...]` commands below are kept, at most
//! [`MAX_CLAIMS`] per game), and only the game being read is held.
//! [`PgnReader::next_game`] plays each main-line move as it is read, so the first error of
//! a game in file order is the one reported, and a reader of a whole database (`review
//! --all`) holds one game at a time.
//!
//! An error ends the reading, unless the caller asks to go on: [`PgnReader::skip_bad_game`]
//! skips the rest of the game that could not be read, to the start of the next game, so a
//! scan of a database reports a bad game and reads the games after it. The rest of the bad
//! game is found by lines: after an error in its tag section, its tag lines, a blank line and
//! its movetext; after an error in its movetext, the movetext up to a blank line (outside a
//! comment) or a tag at the start of a line, where the reader itself ends a game. The next
//! game is the line after that. (A file cut off in the middle of its last game: that game
//! is bad, the games before it are read.)
//!
//! # Draw claims recorded in a game
//!
//! PGN has no notation for a draw claim, so threefold records one as an embedded command in
//! a comment, in the `[%command argument]` form of the PGN Specification Supplement (Alan
//! Cotreau and Mark Crowther, 2001: the form of `[%clk 1:05:23]` and `[%eval 0.17]`), which
//! readers that do not know the command skip as part of the comment:
//!
//! - `{[%claim now]}` after a move (or before the first move, for the start position): the
//!   player to move in the position after that move claimed a draw without writing a move
//!   (FIDE 9.2 b, 9.3 b).
//! - `{[%claim move]}` after a move: that move was written on the scoresheet with a claim
//!   (9.2 a, 9.3 a) and, as FIDE 9.5 requires, played.
//! - The rule may follow: `{[%claim now 9.2]}` (threefold repetition), `{[%claim move
//!   9.3]}` (the fifty-move rule). A claim names its rule over the board, and is judged
//!   under that rule only; without it, under either.
//!
//! Only main-line comments count ([`PgnRecord::claims`]); the arbiter's ruling is not
//! recorded, since the rules core can give it again from the position ([`super::review`]).
//! [`claim_comment`] writes the command.

use std::sync::Arc;

use shakmaty::fen::Fen;

use crate::game::{FenError, PlayError};
use lexer::describe_byte;

mod claims;
mod lexer;
mod listing;
mod reader;
mod writer;

#[cfg(test)]
mod tests;

pub use claims::{ClaimMark, RecordedClaim, claim_comment, claim_notes};
pub use lexer::{Symbol, is_symbol_token_byte, symbol};
pub use listing::{GameSummary, ListedMove, list_games, move_list, move_list_as_written};
pub use reader::{
    PgnReader, PgnRecord, SkippedGame, Tag, read_game_file, read_game_from, read_records, to_game,
};
pub use writer::{Note, Notes, UtcMinute, termination_tag, write, write_annotated};

/// The longest tag value read (a FEN is under 100 bytes).
pub const MAX_TAG_VALUE_BYTES: usize = 16 << 10;
/// The longest token (move, move number, NAG) read.
pub const MAX_TOKEN_BYTES: usize = 64;
/// The most tags one game may have.
pub const MAX_TAGS: usize = 1000;
/// The most main-line moves one game may have.
pub const MAX_PLIES: usize = 100_000;
/// The most variations open at once (`(` inside `(`): deeper nesting is refused, so a file
/// of unclosed `(` cannot grow the reader's stack of open variations without bound.
pub const MAX_VARIATION_DEPTH: usize = 100;
/// The most `[%claim ...]` commands one game may record.
pub const MAX_CLAIMS: usize = 10_000;
/// The longest embedded command (`[%claim move]`) looked at in a comment.
const MAX_COMMAND_BYTES: usize = 64;

/// A PGN problem, with the file and the line it concerns (`None` when it concerns the
/// file as a whole: it cannot be opened, it holds no such game).
#[derive(Clone, Debug, thiserror::Error)]
pub struct PgnError {
    pub file: String,
    pub line: Option<usize>,
    pub reason: PgnReason,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let place = crate::fsio::file_place(&self.file, self.line);
        write!(f, "{place}: {}", self.reason)
    }
}

/// What is wrong in a PGN text or file: one variant per mistake (the file and the line
/// are [`PgnError`]'s, or a move list's line).
#[derive(Clone, Debug, thiserror::Error)]
pub enum PgnReason {
    /// The file cannot be opened, or is not a regular file ([`crate::fsio::open_regular`]).
    #[error("cannot read file: {}", .0.cause())]
    Open(Arc<crate::fsio::ReadError>),
    /// Reading the text failed midway.
    #[error("cannot read PGN: {0}")]
    Read(Arc<std::io::Error>),
    /// A `{` comment runs to the end of the file.
    #[error("comment '{{' is not closed before the end of the file")]
    UnclosedComment,
    /// A byte that starts no token.
    #[error("unexpected {} in the moves", describe_byte(*byte))]
    UnexpectedByte { byte: u8 },
    /// A symbol longer than any move (`start`: its first 20 bytes).
    #[error("'{start}...' is longer than {MAX_TOKEN_BYTES} bytes: not a move")]
    TokenTooLong { start: String },
    /// A tag pair that is not `[Name "value"]`.
    #[error("malformed tag: {0}")]
    MalformedTag(TagProblem),
    /// `$` without a number.
    #[error("'{text}' is not a NAG ($ and a number)")]
    BadNag { text: String },
    /// `--` or `Z0`.
    #[error("'{text}' is a null move, which a game of chess cannot contain")]
    NullMove { text: String },
    /// A symbol that is not a move.
    #[error("cannot read '{text}' as a move")]
    NotAMove { text: String },
    /// `[%claim move]` before the first move.
    #[error("'[%claim move]' marks the move before it, and no move comes before it")]
    ClaimBeforeMoves,
    /// More claims than a game may hold.
    #[error("more than {MAX_CLAIMS} claims in a game")]
    TooManyClaims,
    /// A variation still open where the movetext ends (at line `before`).
    #[error("the variation opened here is not closed before line {before}")]
    VariationOpenAt { before: usize },
    /// A variation still open at the end of a move list.
    #[error("the variation opened here is not closed")]
    VariationOpen,
    /// A token (`found`, as described) after the game's result.
    #[error("{found} after the result '{result}': a new game starts after a blank line")]
    AfterResult { found: String, result: String },
    /// A token (`found`, as described) after a move list's result.
    #[error("{found} after the result '{result}'")]
    AfterListResult { found: String, result: String },
    /// A tag after the first move.
    #[error("a tag inside the moves (tags go on their own lines before them)")]
    TagInMoves,
    /// A tag in a move list.
    #[error("a tag in a move list")]
    TagInList,
    /// The same tag twice in a game.
    #[error(
        "tag '{name}' given twice (first on line {first}); a game without moves needs a \
         result ('*') before the next game"
    )]
    TagTwice { name: String, first: usize },
    /// More tags than a game may hold.
    #[error("more than {MAX_TAGS} tags")]
    TooManyTags,
    /// More moves than a game may hold.
    #[error("more than {MAX_PLIES} moves in a game")]
    TooManyMoves,
    /// More moves than a move list may hold.
    #[error("more than {MAX_PLIES} moves")]
    TooManyListed,
    /// `)` with no variation open.
    #[error("')' without a '(' before it")]
    UnopenedVariation,
    /// A result inside a variation.
    #[error("result '{result}' inside a variation")]
    ResultInVariation { result: &'static str },
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    #[error(
        "this '(' opens a variation more than {MAX_VARIATION_DEPTH} deep (the outermost \
         one still open is on line {outermost})"
    )]
    TooDeep { outermost: usize },
    /// A `Variant` tag naming another game than standard chess.
    #[error("variant '{variant}' is not supported (only standard chess)")]
    Variant { variant: String },
    /// Game `game` (1 = the first of the file) has a `[Variant "xiangqi"]` tag: its moves
    /// are not chess moves, and the xiangqi screen reads it.
    #[error(
        "game {game} is a xiangqi game ([Variant \"{variant}\"]), not chess: open it on the \
         trainer's xiangqi screen (threefold xiangqi, then o)"
    )]
    Xiangqi { game: usize, variant: String },
    /// The `FEN` tag is refused by the strict FEN reader.
    #[error(transparent)]
    Fen(FenError),
    /// A main-line move that is not legal in the position (`fen`).
    #[error("illegal move '{text}' (ply {ply}) in position {fen}")]
    IllegalMove {
        text: String,
        ply: usize,
        fen: Box<Fen>,
    },
    /// A main-line move that matches more than one legal move.
    #[error("ambiguous move '{text}' (ply {ply}) in position {fen}")]
    AmbiguousMove {
        text: String,
        ply: usize,
        fen: Box<Fen>,
    },
    /// Any other refusal of a move by the rules core (the game is over).
    #[error(transparent)]
    Play(PlayError),
    /// The file holds no game.
    #[error("no game found")]
    NoGame,
    /// The file holds fewer games than the one asked for.
    #[error(
        "there is no game {index}: the file holds {count} game{}",
        if *count == 1 { "" } else { "s" }
    )]
    NoSuchGame { index: usize, count: usize },
}

/// How a tag pair is malformed ([`PgnReason::MalformedTag`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TagProblem {
    #[error("expected a tag name after '['")]
    NoName,
    #[error("expected a space after the name '{name}'")]
    NoSpace { name: String },
    #[error("expected a quoted value after the name '{name}'")]
    NoValue { name: String },
    #[error("the value of '{name}' has no closing '\"' on its line")]
    UnclosedValue { name: String },
    #[error("the value of '{name}' is longer than {MAX_TAG_VALUE_BYTES} bytes")]
    LongValue { name: String },
    #[error("expected ']' after the value of '{name}', found {}", describe_byte(*found))]
    NoBracket { name: String, found: u8 },
    #[error("the tag '{name}' has no closing ']'")]
    Unclosed { name: String },
}
