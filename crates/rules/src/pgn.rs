//! Reading games from PGN and writing a [`Game`] as PGN.
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

use std::io::{BufRead, BufReader};
use std::sync::Arc;

use shakmaty::Color;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;

use super::claim::Ground;
use super::ending::EndingKind;
use super::game::{FenError, Game, PlayError, read_san};

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

/// A draw claim recorded in a game (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimMark {
    /// `[%claim now]`: a claim in the position, without a move (9.2 b, 9.3 b).
    Now,
    /// `[%claim move]`: the move into this ply was written with a claim (9.2 a, 9.3 a).
    WithMove,
}

impl ClaimMark {
    /// The command's argument: "now" or "move".
    pub fn code(self) -> &'static str {
        match self {
            ClaimMark::Now => "now",
            ClaimMark::WithMove => "move",
        }
    }

    /// The mark whose [`ClaimMark::code`] is `code`.
    pub fn from_code(code: &str) -> Option<ClaimMark> {
        [ClaimMark::Now, ClaimMark::WithMove]
            .into_iter()
            .find(|m| m.code() == code)
    }
}

/// A `[%claim ...]` command of the main line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedClaim {
    /// The number of main-line moves before the comment: the ply of the position claimed
    /// in ([`ClaimMark::Now`]), or the ply the intended move led to ([`ClaimMark::WithMove`]).
    pub ply: usize,
    pub mark: ClaimMark,
    /// The rule claimed under (`[%claim now 9.2]`), or None when the record does not say
    /// (`[%claim now]`): then the claim is judged under either rule.
    pub ground: Option<Ground>,
    /// The line (1-based) of the comment; 0 for a claim not read from a file (one made in
    /// the trainer).
    pub line: usize,
}

/// The embedded command recording a claim (`mark`, and the rule if known), as a comment's
/// text (without the braces): `[%claim now 9.2]`, `[%claim move]`.
pub fn claim_comment(mark: ClaimMark, ground: Option<Ground>) -> String {
    match ground {
        Some(g) => format!("[%claim {} {}]", mark.code(), g.code()),
        None => format!("[%claim {}]", mark.code()),
    }
}

/// The notes that record `claims` in a written game (a [`claim_comment`] at each claim's
/// ply), for [`write_annotated`]: reading the game back gives the same claims.
pub fn claim_notes(claims: &[RecordedClaim]) -> Notes {
    let mut notes = Notes::new();
    for c in claims {
        notes
            .entry(c.ply)
            .or_default()
            .comments
            .push(claim_comment(c.mark, c.ground));
    }
    notes
}

/// A tag pair as read, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    /// The value, unescaped; bytes that are not UTF-8 become U+FFFD.
    pub value: String,
    /// The line (1-based) the tag stands on.
    pub line: usize,
}

/// A game as read from PGN, before its moves are checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnRecord {
    /// The tag pairs, in file order.
    pub tags: Vec<Tag>,
    /// The main-line moves, in SAN as shakmaty writes them (`0-0` reads as `O-O`).
    pub sans: Vec<String>,
    /// The line (1-based) of each move in `sans`.
    pub lines: Vec<usize>,
    /// The line the game starts on (its first tag or token).
    pub first_line: usize,
    /// The result token ending the movetext, if there was one.
    pub result: Option<String>,
    /// The draw claims recorded in main-line comments, in file order.
    pub claims: Vec<RecordedClaim>,
}

impl PgnRecord {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// The line of a tag.
    pub fn tag_line(&self, name: &str) -> Option<usize> {
        self.tags.iter().find(|t| t.name == name).map(|t| t.line)
    }
}

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
        match self.line {
            Some(l) => write!(f, "{}:{l}: {}", self.file, self.reason),
            None => write!(f, "{}: {}", self.file, self.reason),
        }
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

/// One token of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Tag {
        name: String,
        value: String,
    },
    Move(SanPlus),
    /// A move as written, not read as SAN (move lists read as written).
    Word(String),
    MoveNumber,
    Nag,
    Result(&'static str),
    Open,
    Close,
    Eof,
}

/// A token with where it stands.
#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
    /// A blank line (outside comments) came between the previous token and this one.
    blank_before: bool,
    /// Only whitespace precedes the token on its line.
    line_start: bool,
    /// `[%claim ...]` commands in the comments before the token.
    claims: Vec<LexedClaim>,
}

/// A `[%claim ...]` command found by the lexer.
#[derive(Clone, Copy, Debug)]
struct LexedClaim {
    mark: ClaimMark,
    ground: Option<Ground>,
    line: usize,
    /// A blank line came before the comment (it then belongs to the next game).
    after_blank: bool,
}

/// Splits PGN bytes into tokens, skipping whitespace, comments and escape lines.
struct Lexer<R> {
    input: R,
    /// A byte order mark is skipped before the first token.
    started: bool,
    line: usize,
    /// Only whitespace seen on the current line so far.
    line_start: bool,
    /// Moves are kept as written ([`Tok::Word`]) instead of read as SAN.
    as_written: bool,
}

/// A lexer error: line and reason.
type LexError = (usize, PgnReason);

impl<R: BufRead> Lexer<R> {
    fn new(input: R) -> Self {
        Lexer {
            input,
            started: false,
            line: 1,
            line_start: true,
            as_written: false,
        }
    }

    fn peek(&mut self) -> Result<Option<u8>, LexError> {
        loop {
            match self.input.fill_buf() {
                Ok(b) => return Ok(b.first().copied()),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err((self.line, PgnReason::Read(Arc::new(e)))),
            }
        }
    }

    fn bump(&mut self) -> Result<Option<u8>, LexError> {
        let b = self.peek()?;
        if let Some(c) = b {
            self.input.consume(1);
            if c == b'\n' {
                self.line += 1;
                self.line_start = true;
            } else if !matches!(c, b' ' | b'\t' | b'\r') {
                self.line_start = false;
            }
        }
        Ok(b)
    }

    /// Skips to the end of the line (the `\n` is left).
    fn skip_line(&mut self) -> Result<(), LexError> {
        while let Some(c) = self.peek()? {
            if c == b'\n' {
                break;
            }
            self.input.consume(1);
        }
        Ok(())
    }

    /// Skips the rest of a game that could not be read, to the start of the line where the
    /// next game starts (see the module docs): `in_moves` when the error was in its movetext,
    /// else in its tag section (its movetext is skipped too).
    fn skip_game(&mut self, mut in_moves: bool) -> Result<(), LexError> {
        // The rest of the line the error is on.
        self.skip_game_line(in_moves)?;
        let mut blank = false;
        loop {
            // At the start of a line: its first byte that is not a space.
            while let Some(b' ' | b'\t' | b'\r') = self.peek()? {
                self.bump()?;
            }
            match self.peek()? {
                None => return Ok(()),
                Some(b'\n') => {
                    blank = true;
                    self.bump()?;
                }
                // A tag after a blank line, or one ending the movetext: the next game's.
                Some(b'[') if blank || in_moves => return Ok(()),
                // Another tag of the bad game, or an escaped line.
                Some(b'[' | b'%') => {
                    self.skip_line()?;
                    self.bump()?;
                }
                // Movetext after a blank line that ended the bad game's: a game without tags.
                Some(_) if blank && in_moves => return Ok(()),
                Some(_) => {
                    in_moves = true;
                    blank = false;
                    self.skip_game_line(true)?;
                }
            }
        }
    }

    /// Skips the rest of a line of a bad game and its line break; in the movetext, a comment
    /// opened on it is skipped whole (its blank lines end no game).
    fn skip_game_line(&mut self, in_moves: bool) -> Result<(), LexError> {
        while let Some(c) = self.bump()? {
            match c {
                b'\n' => break,
                b';' if in_moves => {
                    self.skip_line()?;
                }
                b'{' if in_moves => {
                    while let Some(c) = self.bump()? {
                        if c == b'}' {
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The next token.
    fn next(&mut self) -> Result<Token, LexError> {
        if !self.started {
            self.started = true;
            // A UTF-8 byte order mark.
            if let Ok(b) = self.input.fill_buf()
                && b.starts_with(b"\xef\xbb\xbf")
            {
                self.input.consume(3);
            }
        }
        let mut blank_before = false;
        // Line breaks since the last token or comment: two mean a blank line between.
        let mut breaks = 0;
        let mut claims = Vec::new();
        loop {
            let Some(c) = self.peek()? else {
                return Ok(Token {
                    tok: Tok::Eof,
                    line: self.line,
                    blank_before,
                    line_start: true,
                    claims,
                });
            };
            match c {
                b'\n' => {
                    breaks += 1;
                    blank_before |= breaks >= 2;
                    self.bump()?;
                    continue;
                }
                b' ' | b'\t' | b'\r' => {
                    self.bump()?;
                    continue;
                }
                b'%' if self.line_start => {
                    self.skip_line()?;
                    breaks = 0;
                    continue;
                }
                b';' => {
                    self.skip_line()?;
                    breaks = 0;
                    continue;
                }
                b'{' => {
                    let open = self.line;
                    self.bump()?;
                    // An embedded command "[%...]" being read, if any.
                    let mut command: Option<Vec<u8>> = None;
                    let mut prev = 0u8;
                    loop {
                        match self.bump()? {
                            Some(b'}') => break,
                            Some(b) => {
                                match &mut command {
                                    None if prev == b'[' && b == b'%' => command = Some(Vec::new()),
                                    None => {}
                                    Some(cmd) if b == b']' => {
                                        if let Some((mark, ground)) = parse_claim_command(cmd) {
                                            claims.push(LexedClaim {
                                                mark,
                                                ground,
                                                line: self.line,
                                                after_blank: blank_before,
                                            });
                                        }
                                        command = None;
                                    }
                                    Some(cmd) if cmd.len() < MAX_COMMAND_BYTES => cmd.push(b),
                                    Some(_) => command = None,
                                }
                                prev = b;
                            }
                            None => {
                                return Err((open, PgnReason::UnclosedComment));
                            }
                        }
                    }
                    breaks = 0;
                    continue;
                }
                _ => {}
            }
            let line = self.line;
            let line_start = self.line_start;
            let tok = self.token(c)?;
            return Ok(Token {
                tok,
                line,
                blank_before,
                line_start,
                claims,
            });
        }
    }

    /// Reads the token that starts with `c`.
    fn token(&mut self, c: u8) -> Result<Tok, LexError> {
        let line = self.line;
        match c {
            b'[' => return self.tag(),
            b'(' => {
                self.bump()?;
                return Ok(Tok::Open);
            }
            b')' => {
                self.bump()?;
                return Ok(Tok::Close);
            }
            b'*' => {
                self.bump()?;
                return Ok(Tok::Result("*"));
            }
            _ => {}
        }
        if !is_symbol_token_byte(c) {
            return Err((line, PgnReason::UnexpectedByte { byte: c }));
        }
        // A symbol: letters, digits and _+#=:/- (and annotation marks), up to a delimiter.
        // Read a buffer at a time into a fixed array (a token is at most MAX_TOKEN_BYTES):
        // the bytes of a symbol are no line breaks or spaces, so only `line_start` changes.
        let mut t = [0u8; MAX_TOKEN_BYTES];
        let mut len = 0;
        loop {
            let buf = loop {
                match self.input.fill_buf() {
                    Ok(b) => break b,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err((self.line, PgnReason::Read(Arc::new(e)))),
                }
            };
            if buf.is_empty() {
                break;
            }
            let mut used = 0;
            let mut ended = false;
            for &b in buf {
                if !is_symbol_token_byte(b) {
                    ended = true;
                    break;
                }
                if len >= MAX_TOKEN_BYTES {
                    return Err((
                        line,
                        PgnReason::TokenTooLong {
                            start: String::from_utf8_lossy(&t[..20]).into_owned(),
                        },
                    ));
                }
                // A move number's dots end it: "1.e4" is "1." then "e4".
                if b != b'.' && len > 0 && t[len - 1] == b'.' {
                    ended = true;
                    break;
                }
                t[len] = b;
                len += 1;
                used += 1;
            }
            self.input.consume(used);
            if used > 0 {
                self.line_start = false;
            }
            if ended {
                break;
            }
        }
        let t = &t[..len];
        classify(t, self.as_written).map_err(|m| (line, m))
    }

    /// A tag pair: `[Name "value"]`, the `[` not yet read.
    fn tag(&mut self) -> Result<Tok, LexError> {
        let line = self.line;
        self.bump()?;
        self.skip_spaces()?;
        let mut name = Vec::new();
        while let Some(b) = self.peek()? {
            let ok = if name.is_empty() {
                b.is_ascii_alphanumeric()
            } else {
                b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b)
            };
            if !ok || name.len() >= MAX_TOKEN_BYTES {
                break;
            }
            name.push(b);
            self.bump()?;
        }
        let malformed = |what: TagProblem| (line, PgnReason::MalformedTag(what));
        if name.is_empty() {
            return Err(malformed(TagProblem::NoName));
        }
        let name = String::from_utf8_lossy(&name).into_owned();
        if self.skip_spaces()? == 0 {
            return Err(malformed(TagProblem::NoSpace { name }));
        }
        if self.peek()? != Some(b'"') {
            return Err(malformed(TagProblem::NoValue { name }));
        }
        self.bump()?;
        let mut value = Vec::new();
        loop {
            let b = match self.peek()? {
                None | Some(b'\n') => {
                    return Err(malformed(TagProblem::UnclosedValue { name }));
                }
                Some(b) => b,
            };
            self.bump()?;
            let b = match b {
                b'"' => break,
                b'\\' => match self.peek()? {
                    Some(e @ (b'"' | b'\\')) => {
                        self.bump()?;
                        e
                    }
                    _ => b'\\',
                },
                b => b,
            };
            if value.len() >= MAX_TAG_VALUE_BYTES {
                return Err(malformed(TagProblem::LongValue { name }));
            }
            value.push(b);
        }
        self.skip_spaces()?;
        match self.peek()? {
            Some(b']') => {
                self.bump()?;
            }
            Some(found) => {
                return Err(malformed(TagProblem::NoBracket { name, found }));
            }
            None => return Err(malformed(TagProblem::Unclosed { name })),
        }
        Ok(Tok::Tag {
            name,
            value: String::from_utf8_lossy(&value).into_owned(),
        })
    }

    /// Skips spaces and tabs on the line; returns how many.
    fn skip_spaces(&mut self) -> Result<usize, LexError> {
        let mut n = 0;
        while let Some(b' ' | b'\t') = self.peek()? {
            self.bump()?;
            n += 1;
        }
        Ok(n)
    }
}

/// `claim now` / `claim move`, optionally with the rule (`claim now 9.2`, `claim move
/// 9.3`): the text of an embedded command, without `[%` and `]`. Other commands (`clk`,
/// `eval`, ...) and other arguments are not claims.
fn parse_claim_command(cmd: &[u8]) -> Option<(ClaimMark, Option<Ground>)> {
    let text = std::str::from_utf8(cmd).ok()?;
    let mut words = text.split_ascii_whitespace();
    if words.next()? != "claim" {
        return None;
    }
    let mark = ClaimMark::from_code(words.next()?)?;
    let ground = match words.next() {
        None => None,
        Some(code) => Some(Ground::from_code(code)?),
    };
    words.next().is_none().then_some((mark, ground))
}

/// Bytes that may form a PGN symbol token (section 7 of the standard).
#[inline]
fn is_symbol_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_+#=:/-".contains(&b)
}

/// "'x'" for a printable byte, "byte 0xNN" otherwise.
fn describe_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

/// A symbol token of the movetext as the reader reads it ([`symbol`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// `1-0`, `0-1` or `1/2-1/2`.
    Result(&'static str),
    /// `12.` / `12...`.
    MoveNumber,
    /// `$1`, `!`, `?!` ...
    Nag,
    /// A move in SAN (annotation marks glued to it dropped).
    Move(SanPlus),
}

/// Whether `b` belongs to a symbol token: a symbol is a run of these, and a move number's
/// dots end it (`1.e4` is `1.` then `e4`).
#[inline]
pub fn is_symbol_token_byte(b: u8) -> bool {
    is_symbol_byte(b) || matches!(b, b'$' | b'!' | b'?' | b'.')
}

/// What the symbol token `t` is, as the reader reads it (one reading for the reader and
/// for a scan that reads simple games itself); the reason it is no token otherwise.
pub fn symbol(t: &[u8]) -> Result<Symbol, PgnReason> {
    Ok(match classify(t, false)? {
        Tok::Result(r) => Symbol::Result(r),
        Tok::MoveNumber => Symbol::MoveNumber,
        Tok::Nag => Symbol::Nag,
        Tok::Move(san) => Symbol::Move(san),
        _ => unreachable!("classify gives only symbols"),
    })
}

/// What a symbol token is: a result, a move number, a NAG, or a move (read as SAN, or with
/// `as_written` kept as written).
fn classify(t: &[u8], as_written: bool) -> Result<Tok, PgnReason> {
    // Only an error needs the token as text: not made for every move read.
    let text = || String::from_utf8_lossy(t);
    match t {
        b"1-0" => return Ok(Tok::Result("1-0")),
        b"0-1" => return Ok(Tok::Result("0-1")),
        b"1/2-1/2" => return Ok(Tok::Result("1/2-1/2")),
        b"!" | b"?" | b"!!" | b"??" | b"!?" | b"?!" => return Ok(Tok::Nag),
        _ => {}
    }
    if let Some(d) = t.strip_prefix(b"$") {
        if !d.is_empty() && d.iter().all(u8::is_ascii_digit) {
            return Ok(Tok::Nag);
        }
        return Err(PgnReason::BadNag {
            text: text().into_owned(),
        });
    }
    let digits = t.iter().take_while(|b| b.is_ascii_digit()).count();
    if t[digits..].iter().all(|&b| b == b'.') && !t.starts_with(b"0") {
        return Ok(Tok::MoveNumber);
    }
    // Annotation marks glued to a move ("e4!?") are NAGs; drop them.
    let mv = {
        let end = t.len()
            - t.iter()
                .rev()
                .take_while(|b| matches!(b, b'!' | b'?'))
                .count();
        &t[..end]
    };
    match read_san(mv) {
        _ if as_written && mv != b"--" && mv != b"Z0" => {
            Ok(Tok::Word(String::from_utf8_lossy(mv).into_owned()))
        }
        Some(san) => Ok(Tok::Move(san)),
        None if mv == b"--" || mv == b"Z0" => Err(PgnReason::NullMove {
            text: text().into_owned(),
        }),
        None => Err(PgnReason::NotAMove {
            text: text().into_owned(),
        }),
    }
}

/// Where the reader is within a game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing of the game read yet.
    Start,
    /// In the tag section.
    Tags,
    /// In the movetext.
    Moves,
}

/// Reads the games of a PGN stream one at a time (see the module docs).
pub struct PgnReader<R> {
    lexer: Lexer<R>,
    file: String,
    /// A token read but not used (the first of the next game).
    pending: Option<Token>,
    /// Games returned so far.
    games: usize,
    /// Games that could not be read and were skipped ([`PgnReader::skip_bad_game`]).
    skipped: usize,
    /// The first line of the game being read (or that failed), once its first token is read.
    game_line: Option<usize>,
    /// An error ends the reading: later calls return `None` (unless the bad game is skipped).
    failed: bool,
    /// Where the last error was: its line, and whether it was in the tag section.
    failure: Option<(Option<usize>, bool)>,
}

/// A game that could not be read and was skipped ([`PgnReader::skip_bad_game`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkippedGame {
    /// Its number in the file (1-based, counting every game before it, read or skipped).
    pub game: usize,
    /// The line it starts on.
    pub line: usize,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of `input`; `file` names the source in errors.
    pub fn new(input: R, file: &str) -> Self {
        PgnReader {
            lexer: Lexer::new(input),
            file: file.to_string(),
            pending: None,
            games: 0,
            skipped: 0,
            game_line: None,
            failed: false,
            failure: None,
        }
    }

    /// A reader of `input` that starts on line `line` of `file`: a part of a file cut at a
    /// game's start (a database scanned in pieces) is read with the file's line numbers.
    pub fn starting_at_line(input: R, file: &str, line: usize) -> Self {
        let mut reader = PgnReader::new(input, file);
        reader.lexer.line = line.max(1);
        reader
    }

    /// How many games have been returned.
    pub fn games_read(&self) -> usize {
        self.games
    }

    /// How many games were skipped ([`PgnReader::skip_bad_game`]): the number in the file
    /// of the game last returned is `games_read() + games_skipped()`.
    pub fn games_skipped(&self) -> usize {
        self.skipped
    }

    /// After [`next_game`](Self::next_game) or [`next_record`](Self::next_record) returned
    /// an error: skip the rest of that game (see the module docs) so that the next call
    /// reads the game after it, instead of `None`. Returns the bad game's number and first
    /// line. Without an error to skip, or after one reading the input itself
    /// ([`PgnReason::Read`]: the input is gone, not the game), nothing is skipped and `None`
    /// is returned.
    pub fn skip_bad_game(&mut self) -> Result<Option<SkippedGame>, PgnError> {
        let Some((line, tags)) = self.failure.take() else {
            return Ok(None);
        };
        self.failed = false;
        self.skipped += 1;
        let skipped = SkippedGame {
            game: self.games + self.skipped,
            line: self.game_line.or(line).unwrap_or(self.lexer.line),
        };
        // A token already read past the bad game is the next game's first.
        if self.pending.is_none() {
            self.lexer
                .skip_game(!tags)
                .map_err(|(l, m)| self.err(l, m))?;
        }
        Ok(Some(skipped))
    }

    fn err(&mut self, line: usize, reason: PgnReason) -> PgnError {
        self.failed = true;
        PgnError {
            file: self.file.clone(),
            line: Some(line),
            reason,
        }
    }

    fn next_token(&mut self) -> Result<Token, PgnError> {
        if let Some(t) = self.pending.take() {
            return Ok(t);
        }
        self.lexer.next().map_err(|(l, m)| self.err(l, m))
    }

    /// The next game, `None` at the end of the input (or after an error).
    pub fn next_record(&mut self) -> Result<Option<PgnRecord>, PgnError> {
        Ok(self.read(false)?.map(|(rec, _)| rec))
    }

    /// The next game with its moves played ([`to_game`] as it is read): the first error of
    /// the game in file order is the one reported (an illegal move on line 3 comes before
    /// "more than 100000 moves" on line 9000). `None` at the end of the input (or after
    /// an error).
    pub fn next_game(&mut self) -> Result<Option<(PgnRecord, Game)>, PgnError> {
        Ok(self
            .read(true)?
            .map(|(rec, game)| (rec, game.expect("a replayed game"))))
    }

    /// The next record and, with `replay`, its game; an error is kept for
    /// [`PgnReader::skip_bad_game`]. A game whose tags name xiangqi is refused as that,
    /// whatever else its moves hold: read as chess, its first move was the error ("cannot
    /// read 'C2.' as a move").
    fn read(&mut self, replay: bool) -> Result<Option<(PgnRecord, Option<Game>)>, PgnError> {
        if self.failed {
            return Ok(None);
        }
        self.game_line = None;
        let mut rec = PgnRecord::default();
        let read = self.read_game(replay, &mut rec).inspect_err(|e| {
            self.failed = true;
            // Cannot be skipped: the input itself failed.
            let skippable = !matches!(e.reason, PgnReason::Read(_));
            let in_tags = matches!(
                e.reason,
                PgnReason::MalformedTag(_) | PgnReason::TagTwice { .. } | PgnReason::TooManyTags
            );
            self.failure = skippable.then_some((e.line, in_tags));
        });
        match read {
            Ok(Some(game)) => Ok(Some((rec, game))),
            Ok(None) => Ok(None),
            Err(e) => Err(match rec.tag("Variant") {
                Some(v) if v.trim().eq_ignore_ascii_case("xiangqi") => PgnError {
                    file: self.file.clone(),
                    line: Some(rec.tag_line("Variant").unwrap_or(rec.first_line)),
                    reason: PgnReason::Xiangqi {
                        // The game's number in the file, skipped games counted.
                        game: self.games + self.skipped + 1,
                        variant: v.to_string(),
                    },
                },
                _ => e,
            }),
        }
    }

    /// [`Self::read`] into `rec`: `Some(game)` when a record was read.
    fn read_game(
        &mut self,
        replay: bool,
        rec: &mut PgnRecord,
    ) -> Result<Option<Option<Game>>, PgnError> {
        let mut game: Option<Game> = None;
        let mut state = State::Start;
        // Open variations: the line of each '('.
        let mut open: Vec<usize> = Vec::new();
        loop {
            let mut t = self.next_token()?;
            if state == State::Start {
                rec.first_line = t.line;
                self.game_line = Some(t.line);
            }
            // A blank line or a tag at the start of a line ends the movetext.
            let ends_moves = state == State::Moves
                && (t.blank_before
                    || t.tok == Tok::Eof
                    || (matches!(t.tok, Tok::Tag { .. }) && t.line_start));
            // Claims in comments before this token: this game's, unless a blank line
            // ending the movetext came before them.
            let claims = std::mem::take(&mut t.claims);
            for c in claims {
                if ends_moves && c.after_blank {
                    t.claims.push(c);
                } else if open.is_empty() {
                    let wrong = if c.mark == ClaimMark::WithMove && rec.sans.is_empty() {
                        Some(PgnReason::ClaimBeforeMoves)
                    } else if rec.claims.len() >= MAX_CLAIMS {
                        Some(PgnReason::TooManyClaims)
                    } else {
                        None
                    };
                    if let Some(reason) = wrong {
                        if ends_moves {
                            // The token after the blank line starts the next game.
                            self.pending = Some(t);
                        }
                        return Err(self.err(c.line, reason));
                    }
                    rec.claims.push(RecordedClaim {
                        ply: rec.sans.len(),
                        mark: c.mark,
                        ground: c.ground,
                        line: c.line,
                    });
                }
            }
            if ends_moves {
                if let Some(&o) = open.last() {
                    let before = t.line;
                    // The token after the blank line starts the next game.
                    self.pending = Some(t);
                    return Err(self.err(o, PgnReason::VariationOpenAt { before }));
                }
                self.pending = Some(t);
                break;
            }
            if let Some(result) = &rec.result
                && t.tok != Tok::Eof
            {
                let reason = PgnReason::AfterResult {
                    found: describe(&t.tok),
                    result: result.clone(),
                };
                return Err(self.err(t.line, reason));
            }
            match t.tok {
                Tok::Eof => {
                    if state == State::Start {
                        return Ok(None);
                    }
                    break;
                }
                Tok::Tag { name, value } => {
                    if state == State::Moves {
                        return Err(self.err(t.line, PgnReason::TagInMoves));
                    }
                    state = State::Tags;
                    if let Some(first) = rec.tag_line(&name) {
                        return Err(self.err(t.line, PgnReason::TagTwice { name, first }));
                    }
                    if rec.tags.len() >= MAX_TAGS {
                        return Err(self.err(t.line, PgnReason::TooManyTags));
                    }
                    rec.tags.push(Tag {
                        name,
                        value,
                        line: t.line,
                    });
                }
                Tok::Move(san) => {
                    state = State::Moves;
                    if open.is_empty() {
                        if rec.sans.len() >= MAX_PLIES {
                            return Err(self.err(t.line, PgnReason::TooManyMoves));
                        }
                        // As `to_string` writes it, without the formatting machinery.
                        let mut text = String::with_capacity(8);
                        san.append_to_string(&mut text);
                        if replay {
                            // The tags are all read: a tag after a move is an error.
                            let g = match &mut game {
                                Some(g) => g,
                                None => game.insert(
                                    start_game(rec, &self.file)
                                        .inspect_err(|_| self.failed = true)?,
                                ),
                            };
                            if let Err(e) = g.play_san_move(&san.san, &text) {
                                self.failed = true;
                                return Err(play_error(e, &text, t.line, &self.file));
                            }
                        }
                        rec.sans.push(text);
                        rec.lines.push(t.line);
                    }
                }
                Tok::Word(w) => {
                    // Only move lists keep moves as written.
                    return Err(self.err(t.line, PgnReason::NotAMove { text: w }));
                }
                Tok::MoveNumber | Tok::Nag => state = State::Moves,
                Tok::Open => {
                    state = State::Moves;
                    open_variation(&mut open, t.line).map_err(|(l, m)| self.err(l, m))?;
                }
                Tok::Close => {
                    state = State::Moves;
                    if open.pop().is_none() {
                        return Err(self.err(t.line, PgnReason::UnopenedVariation));
                    }
                }
                Tok::Result(r) => {
                    if !open.is_empty() {
                        return Err(self.err(t.line, PgnReason::ResultInVariation { result: r }));
                    }
                    state = State::Moves;
                    rec.result = Some(r.to_string());
                }
            }
        }
        if replay && game.is_none() {
            game = Some(start_game(rec, &self.file).inspect_err(|_| self.failed = true)?);
        }
        self.games += 1;
        Ok(Some(game))
    }
}

/// How an error names a token.
fn describe(t: &Tok) -> String {
    match t {
        Tok::Tag { name, .. } => format!("tag '{name}'"),
        Tok::Move(san) => format!("move '{san}'"),
        Tok::Word(w) => format!("move '{w}'"),
        Tok::MoveNumber => "a move number".to_string(),
        Tok::Nag => "an annotation".to_string(),
        Tok::Result(r) => format!("result '{r}'"),
        Tok::Open => "'('".to_string(),
        Tok::Close => "')'".to_string(),
        Tok::Eof => "the end of the file".to_string(),
    }
}

/// Opens a variation at `line` on the stack of open ones (the line of each `(`), refused
/// past [`MAX_VARIATION_DEPTH`]: the one rule for the game reader and the move lists.
fn open_variation(open: &mut Vec<usize>, line: usize) -> Result<(), LexError> {
    if open.len() >= MAX_VARIATION_DEPTH {
        return Err((line, PgnReason::TooDeep { outermost: open[0] }));
    }
    open.push(line);
    Ok(())
}

/// A move of a move list, with its line (1-based within the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedMove {
    /// In SAN as shakmaty writes it ([`move_list`]), or as written
    /// ([`move_list_as_written`]).
    pub san: String,
    pub line: usize,
}

/// The main-line moves of a bare move list ("1. e4 e5 2. Nf3", as typed on a command line
/// or in a puzzle file): the movetext grammar of a game, read by the same lexer, with blank
/// lines allowed and no tags. Move numbers, NAGs, comments, variations and a final result
/// are skipped. Errors give the line (1-based within `text`) and the reason.
pub fn move_list(text: &str) -> Result<Vec<ListedMove>, (usize, PgnReason)> {
    listed_moves(text, false)
}

/// [`move_list`] with each move kept exactly as written (`nf3`, `Ng1-f3`, `e2e4`: not read
/// as SAN, apart from annotation marks glued to it), for a lenient reader to read
/// ([`super::notation::parse_move_lenient`], the trainer's) and to name in its refusal.
pub fn move_list_as_written(text: &str) -> Result<Vec<ListedMove>, (usize, PgnReason)> {
    listed_moves(text, true)
}

fn listed_moves(text: &str, as_written: bool) -> Result<Vec<ListedMove>, LexError> {
    let mut lexer = Lexer::new(text.as_bytes());
    lexer.as_written = as_written;
    let mut out = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut result: Option<&str> = None;
    loop {
        let t = lexer.next()?;
        if let Some(r) = result
            && t.tok != Tok::Eof
        {
            return Err((
                t.line,
                PgnReason::AfterListResult {
                    found: describe(&t.tok),
                    result: r.to_string(),
                },
            ));
        }
        match t.tok {
            Tok::Eof => break,
            Tok::Tag { .. } => return Err((t.line, PgnReason::TagInList)),
            Tok::Move(_) | Tok::Word(_) if !open.is_empty() => {}
            Tok::Move(_) | Tok::Word(_) if out.len() >= MAX_PLIES => {
                return Err((t.line, PgnReason::TooManyListed));
            }
            Tok::Move(san) => out.push(ListedMove {
                san: san.to_string(),
                line: t.line,
            }),
            Tok::Word(san) => out.push(ListedMove { san, line: t.line }),
            Tok::MoveNumber | Tok::Nag => {}
            Tok::Open => open_variation(&mut open, t.line)?,
            Tok::Close => {
                if open.pop().is_none() {
                    return Err((t.line, PgnReason::UnopenedVariation));
                }
            }
            Tok::Result(r) if open.is_empty() => result = Some(r),
            Tok::Result(r) => return Err((t.line, PgnReason::ResultInVariation { result: r })),
        }
    }
    if let Some(&o) = open.last() {
        return Err((o, PgnReason::VariationOpen));
    }
    Ok(out)
}

/// Read every game of a PGN text. `file` names the source in errors.
pub fn read_records(text: &str, file: &str) -> Result<Vec<PgnRecord>, PgnError> {
    let mut reader = PgnReader::new(text.as_bytes(), file);
    let mut out = Vec::new();
    while let Some(rec) = reader.next_record()? {
        out.push(rec);
    }
    Ok(out)
}

/// The variants a game may name in its `Variant` tag (all mean standard chess).
const STANDARD_VARIANTS: &[&str] = &["standard", "chess", "normal", "from position"];

/// Replay a record into a [`Game`]. Errors name the file and line.
pub fn to_game(rec: &PgnRecord, file: &str) -> Result<Game, PgnError> {
    let mut game = start_game(rec, file)?;
    for (i, text) in rec.sans.iter().enumerate() {
        let line = rec.lines.get(i).copied().unwrap_or(rec.first_line);
        game.play_san(text)
            .map_err(|e| play_error(e, text, line, file))?;
    }
    Ok(game)
}

/// The game a record starts: standard chess only (its `Variant` tag), from its `FEN` tag
/// or the standard start position.
fn start_game(rec: &PgnRecord, file: &str) -> Result<Game, PgnError> {
    let err = |line: usize, reason: PgnReason| PgnError {
        file: file.to_string(),
        line: Some(line),
        reason,
    };
    if let Some(v) = rec.tag("Variant")
        && !STANDARD_VARIANTS.contains(&v.trim().to_ascii_lowercase().as_str())
    {
        return Err(err(
            rec.tag_line("Variant").unwrap_or(rec.first_line),
            PgnReason::Variant {
                variant: v.to_string(),
            },
        ));
    }
    match rec.tag("FEN") {
        Some(fen) => Game::from_fen(fen).map_err(|e| {
            err(
                rec.tag_line("FEN").unwrap_or(rec.first_line),
                PgnReason::Fen(e),
            )
        }),
        None => Ok(Game::new()),
    }
}

/// Why a main-line move of a game read from PGN (written `text`, on `line`) was refused.
fn play_error(e: PlayError, text: &str, line: usize, file: &str) -> PgnError {
    let text = text.to_string();
    let reason = match e {
        PlayError::Illegal { ply, fen, .. } => PgnReason::IllegalMove { text, ply, fen },
        PlayError::Ambiguous { ply, fen, .. } => PgnReason::AmbiguousMove { text, ply, fen },
        other => PgnReason::Play(other),
    };
    PgnError {
        file: file.to_string(),
        line: Some(line),
        reason,
    }
}

/// Read game `index` (1-based) of a PGN file as a [`Game`] with its record. The file is
/// streamed and read only up to that game.
pub fn read_game_file(path: &std::path::Path, index: usize) -> Result<(PgnRecord, Game), PgnError> {
    let file = path.display().to_string();
    let f = crate::fsio::open_regular(path).map_err(|e| PgnError {
        file: file.clone(),
        line: None,
        reason: PgnReason::Open(Arc::new(e)),
    })?;
    read_game_from(BufReader::new(f), &file, index)
}

/// [`read_game_file`] from a stream (`file` names it in errors): standard input, a
/// decompressed file.
pub fn read_game_from<R: BufRead>(
    input: R,
    file: &str,
    index: usize,
) -> Result<(PgnRecord, Game), PgnError> {
    let file = file.to_string();
    let mut reader = PgnReader::new(input, &file);
    loop {
        // Only the game asked for is played (an illegal move in another is not its concern).
        let replay = reader.games_read() + 1 == index;
        let Some((rec, game)) = reader.read(replay)? else {
            let n = reader.games_read();
            let reason = if n == 0 {
                PgnReason::NoGame
            } else {
                PgnReason::NoSuchGame { index, count: n }
            };
            return Err(PgnError {
                file,
                line: None,
                reason,
            });
        };
        if let Some(game) = game {
            return Ok((rec, game));
        }
    }
}

/// Write `game` as PGN with the given tags (the Seven Tag Roster is completed
/// with "?" where missing; Result and, if the game ended, Termination come
/// from the game; SetUp/FEN are added for a non-standard start).
pub fn write(game: &Game, tags: &[(&str, &str)]) -> String {
    write_annotated(game, tags, &Notes::new())
}

/// What to add to a ply of a written game: NAGs after its move, then comments. The notes of
/// ply 0 (the start position) are written as comments before the first move; NAGs there
/// are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Note {
    /// Numeric annotation glyphs (1 = "!", 2 = "?", 4 = "??", 6 = "?!", 10 = "=", ...).
    pub nags: Vec<u8>,
    /// Comments, each written as `{...}` (a `}` inside becomes `)`).
    pub comments: Vec<String>,
}

/// Notes by ply.
pub type Notes = std::collections::BTreeMap<usize, Note>;

/// [`write`] with notes on plies. A `Result` tag in `tags` is used when the game has not
/// ended in the rules core (a game read from PGN, ended by resignation or agreement).
///
/// [`write`]: fn@write
pub fn write_annotated(game: &Game, tags: &[(&str, &str)], notes: &Notes) -> String {
    let get = |name: &str| tags.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    let result = match game.termination() {
        Some(t) => t.ending.result(),
        None => get("Result")
            .filter(|r| matches!(*r, "1-0" | "0-1" | "1/2-1/2"))
            .unwrap_or("*"),
    };
    let mut out = String::new();
    for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
        let v = get(name).unwrap_or("?");
        out.push_str(&format!("[{name} \"{}\"]\n", escape(v)));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    // Positions compare without their move counters: a start position with the standard
    // setup but another 50-move count or move number needs its FEN too.
    let standard = game.start_fen() == Game::new().start_fen();
    if !standard {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", game.start_fen()));
    }
    // The standard's values; what ended the game in words is the comment before the result.
    let termination = match game.termination() {
        Some(t) => Some(termination_tag(t.ending.kind)),
        None if result == "*" => Some("unterminated"),
        None => get("Termination"),
    };
    if let Some(t) = termination {
        out.push_str(&format!("[Termination \"{}\"]\n", escape(t)));
    }
    for (k, v) in tags {
        if !matches!(
            *k,
            "Event"
                | "Site"
                | "Date"
                | "Round"
                | "White"
                | "Black"
                | "Result"
                | "SetUp"
                | "FEN"
                | "Termination"
        ) {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
    }
    out.push('\n');
    let comment = |text: &str| format!("{{{}}}", text.replace('}', ")"));
    let mut tokens = Vec::new();
    if let Some(note) = notes.get(&0) {
        tokens.extend(note.comments.iter().map(|c| comment(c)));
    }
    // A Black move gets its number at the start and after a comment ("12... Nf6").
    let mut number_black = true;
    for ply in 1..=game.len() {
        let number = game.move_number(ply);
        let san = game.san_plus(ply).expect("ply >= 1 has a move");
        if number.side == Color::White || number_black {
            tokens.push(format!("{number} {san}"));
        } else {
            tokens.push(san.to_string());
        }
        number_black = false;
        if let Some(note) = notes.get(&ply) {
            tokens.extend(note.nags.iter().map(|n| format!("${n}")));
            tokens.extend(note.comments.iter().map(|c| comment(c)));
            number_black = !note.comments.is_empty();
        }
    }
    if let Some(t) = game.termination() {
        tokens.push(comment(&t.ending.explanation));
    }
    tokens.push(result.to_string());
    let mut line_len = 0;
    for tok in tokens {
        // Long comments are broken at spaces, so lines stay near 80 columns; an embedded
        // command stays on one line.
        for (i, word) in break_units(&tok).iter().enumerate() {
            let glue = i > 0 && !tok.starts_with('{');
            if line_len > 0 && line_len + 1 + word.len() > 79 && !glue {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            line_len += word.len();
            out.push_str(word);
        }
    }
    out.push('\n');
    out
}

/// The pieces of a written token a line may break between: its words, except that an
/// embedded command (`[%claim move 9.2]`) stays whole.
fn break_units(tok: &str) -> Vec<String> {
    let mut units: Vec<String> = Vec::new();
    let mut in_command = false;
    for word in tok.split(' ') {
        match units.last_mut() {
            Some(last) if in_command => {
                last.push(' ');
                last.push_str(word);
            }
            _ => units.push(word.to_string()),
        }
        in_command |= word.contains("[%");
        if word.contains(']') {
            in_command = false;
        }
    }
    units
}

/// The `Termination` tag value for an ending, from the PGN standard's list (Edwards 1994,
/// section 9.8.1: "abandoned", "adjudication", "death", "emergency", "normal", "rules
/// infraction", "time forfeit", "unterminated"): a flag fall is a "time forfeit" (also when
/// it draws, FIDE 6.9), every other ending the rules core rules on is "normal".
pub fn termination_tag(kind: EndingKind) -> &'static str {
    match kind {
        EndingKind::LostOnTime { .. } | EndingKind::FlagFallDraw { .. } => "time forfeit",
        EndingKind::Checkmate { .. }
        | EndingKind::Stalemate
        | EndingKind::InsufficientMaterial
        | EndingKind::FivefoldRepetition
        | EndingKind::SeventyFiveMoves
        | EndingKind::ThreefoldClaim
        | EndingKind::FiftyMoveClaim
        | EndingKind::Resignation { .. }
        | EndingKind::DrawAgreed
        | EndingKind::Recorded { .. } => "normal",
    }
}

/// A moment in UTC, to the minute, as the calendar has it (proleptic Gregorian).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UtcMinute {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
}

impl UtcMinute {
    /// The calendar date and time of `secs` seconds after 1970-01-01 00:00 UTC (Howard
    /// Hinnant's `civil_from_days`, "chrono-Compatible Low-Level Date Algorithms").
    pub fn from_unix(secs: u64) -> UtcMinute {
        let days = (secs / 86_400) as i64;
        let rest = secs % 86_400;
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        UtcMinute {
            year,
            month,
            day,
            hour: (rest / 3600) as u32,
            minute: (rest % 3600 / 60) as u32,
        }
    }

    /// Now (the Unix epoch if the system clock is before it).
    pub fn now() -> UtcMinute {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        UtcMinute::from_unix(secs)
    }

    /// The date as a PGN `Date` tag writes it: "2026.11.23".
    pub fn pgn_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}

/// One game of a PGN file, as a list to choose from shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's number in the file (1-based), as [`read_game_file`] takes it.
    pub index: usize,
    pub white: String,
    pub black: String,
    pub result: String,
    pub date: String,
    pub event: String,
    /// Main-line moves.
    pub plies: usize,
}

impl GameSummary {
    fn of(index: usize, rec: &PgnRecord) -> GameSummary {
        let tag = |name: &str| crate::visible::visible(rec.tag(name).unwrap_or("?")).into_owned();
        GameSummary {
            index,
            white: tag("White"),
            black: tag("Black"),
            result: rec
                .result
                .clone()
                .or_else(|| {
                    rec.tag("Result")
                        .map(|r| crate::visible::visible(r).into_owned())
                })
                .unwrap_or_else(|| "*".to_string()),
            date: tag("Date"),
            event: tag("Event"),
            plies: rec.sans.len(),
        }
    }
}

/// The games of a PGN file, at most `max` of them, streamed (only one game is held at a
/// time). A file that cannot be read gives the error and no games; a game that cannot be
/// read ends the list with the games before it and the error.
pub fn list_games(path: &std::path::Path, max: usize) -> (Vec<GameSummary>, Option<PgnError>) {
    let file = path.display().to_string();
    let f = match crate::fsio::open_regular(path) {
        Ok(f) => f,
        Err(e) => {
            return (
                Vec::new(),
                Some(PgnError {
                    file,
                    line: None,
                    reason: PgnReason::Open(Arc::new(e)),
                }),
            );
        }
    };
    let mut reader = PgnReader::new(BufReader::new(f), &file);
    let mut out = Vec::new();
    while out.len() < max {
        match reader.next_record() {
            Ok(Some(rec)) => out.push(GameSummary::of(out.len() + 1, &rec)),
            Ok(None) => break,
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reason of the first error reading `text` as games, each replayed.
    fn why(text: &str) -> (Option<usize>, PgnReason) {
        let mut reader = PgnReader::new(text.as_bytes(), "t.pgn");
        loop {
            match reader.next_game() {
                Ok(Some(_)) => continue,
                Ok(None) => panic!("no error in {text:?}"),
                Err(e) => return (e.line, e.reason),
            }
        }
    }

    /// What a scan that skips bad games reads of `text`: for each game, its first move
    /// ("" if none) or, for a bad one, "bad N from line L: error line".
    fn scan(text: &str) -> Vec<String> {
        let mut reader = PgnReader::new(text.as_bytes(), "t.pgn");
        let mut out = Vec::new();
        loop {
            match reader.next_game() {
                Ok(Some((rec, _))) => {
                    out.push(rec.sans.first().cloned().unwrap_or_default());
                    assert_eq!(reader.games_read() + reader.games_skipped(), out.len());
                }
                Ok(None) => return out,
                Err(e) => {
                    let bad = reader.skip_bad_game().unwrap().expect("a game to skip");
                    assert_eq!(bad.game, out.len() + 1);
                    out.push(format!(
                        "bad {} from line {}: {}",
                        bad.game,
                        bad.line,
                        e.line.unwrap()
                    ));
                }
            }
        }
    }

    /// A scan goes on past a bad game, wherever its mistake is: the bad game is named with
    /// its first line, and the next game is read from its start (its tags, or its moves
    /// after a blank line in a file of games without tags). Without skipping, the error
    /// still ends the reading.
    #[test]
    fn a_bad_game_is_skipped_to_the_start_of_the_next() {
        let good = "[White \"a\"]\n\n1. d4 *\n";
        // A move that is not one, an illegal move, in the movetext.
        for bad in ["1. e4 Zz9 2. Nf3 *", "1. e4 e5\n2. Ke3 Nc6\n3. Nf3 *"] {
            let text = format!("{good}\n[White \"b\"]\n[Black \"c\"]\n\n{bad}\n\n{good}");
            let got = scan(&text);
            assert_eq!(got.len(), 3, "{got:?}");
            assert_eq!(got[0], "d4");
            assert!(got[1].starts_with("bad 2 from line 5: "), "{got:?}");
            assert_eq!(got[2], "d4");
        }
        // A malformed tag: the rest of the tag section and the movetext are the bad game's.
        let text = format!("[White \"b\"\n[Black \"c\"]\n\n1. e4 e5 *\n\n{good}");
        assert_eq!(scan(&text), ["bad 1 from line 1: 1", "d4"]);
        // A comment over a blank line after the mistake is still the bad game's.
        let text = format!("1. e4 Zz9 {{a\n\n[b]}} 2. Nf3\n\n{good}");
        assert_eq!(scan(&text), ["bad 1 from line 1: 1", "d4"]);
        // Games without tags: the next one starts after the blank line.
        let text = "1. e4 *\n\n1. e4 e5 Ke3\n2. Nf3 *\n\n1. c4 *\n";
        assert_eq!(scan(text), ["e4", "bad 2 from line 3: 3", "c4"]);
        // A variation still open at the blank line: the token after it is the next game's.
        let text = "1. e4 (1. d4\n\n[White \"x\"]\n1. c4 *\n";
        assert_eq!(scan(text), ["bad 1 from line 1: 1", "c4"]);
        // A file cut off in the middle of a move or a comment: the last game is bad.
        let text = format!("{good}\n[White \"b\"]\n\n1. e4 e5 2. N");
        assert_eq!(scan(&text), ["d4", "bad 2 from line 5: 7"]);
        let text = format!("{good}\n1. e4 {{cut");
        assert_eq!(scan(&text), ["d4", "bad 2 from line 5: 5"]);
        // Without skipping, the error ends the reading, as before.
        let mut reader = PgnReader::new("1. Zz9 *\n\n1. e4 *\n".as_bytes(), "t.pgn");
        assert!(reader.next_game().is_err());
        assert!(reader.next_game().unwrap().is_none());
        // Nothing to skip without an error.
        let mut reader = PgnReader::new("1. e4 *\n".as_bytes(), "t.pgn");
        assert!(reader.skip_bad_game().unwrap().is_none());
    }

    /// Each mistake in PGN text is its own variant, with its facts; the message is built
    /// from them.
    #[test]
    fn each_mistake_is_its_own_variant() {
        assert!(matches!(
            why("1. e4 {open\n"),
            (Some(1), PgnReason::UnclosedComment)
        ));
        assert!(matches!(
            why("1. e4 & *"),
            (_, PgnReason::UnexpectedByte { byte: b'&' })
        ));
        let (_, r) = why("[White\"x\"]\n*");
        assert!(
            matches!(&r, PgnReason::MalformedTag(TagProblem::NoSpace { name }) if name == "White"),
            "{r}"
        );
        assert_eq!(
            r.to_string(),
            "malformed tag: expected a space after the name 'White'"
        );
        assert!(matches!(why("1. e4 $x *"), (_, PgnReason::BadNag { .. })));
        assert!(matches!(why("1. e4 -- *"), (_, PgnReason::NullMove { .. })));
        assert!(matches!(
            why("[White \"a\"]\n[White \"b\"]\n*"),
            (Some(2), PgnReason::TagTwice { first: 1, .. })
        ));
        assert!(matches!(
            why("1. e4 ) *"),
            (_, PgnReason::UnopenedVariation)
        ));
        assert!(matches!(
            why("1. e4 (1. d4 1-0) *"),
            (_, PgnReason::ResultInVariation { result: "1-0" })
        ));
        assert!(matches!(
            why("1. e4 * e5"),
            (_, PgnReason::AfterResult { ref result, .. }) if result == "*"
        ));
        assert!(matches!(
            why("[Variant \"atomic\"]\n*"),
            (Some(1), PgnReason::Variant { .. })
        ));
        assert!(matches!(
            why("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n*"),
            (Some(1), PgnReason::Fen(_))
        ));
        let (line, r) = why("1. e4 e5\n2. Ke3 *");
        assert_eq!(line, Some(2));
        match &r {
            PgnReason::IllegalMove { text, ply: 3, fen } => {
                assert_eq!(text, "Ke3");
                assert_eq!(
                    fen.to_string(),
                    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
                );
            }
            other => panic!("{other}"),
        }
        let (line, r) = move_list("e4\n(d4 (c4").unwrap_err();
        assert_eq!(line, 2);
        assert!(matches!(r, PgnReason::VariationOpen));
        assert!(matches!(
            move_list("[White \"x\"] e4").unwrap_err(),
            (1, PgnReason::TagInList)
        ));
    }
}
