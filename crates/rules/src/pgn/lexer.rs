//! PGN text cut into tokens: tags, move numbers, moves, comments (with the claims they
//! carry), variations, NAGs and results, each with its line; bounded in every size.

use std::io::BufRead;
use std::sync::Arc;

use shakmaty::san::SanPlus;

use crate::claim::Ground;
use crate::game::read_san;

use super::claims::{ClaimMark, parse_claim_command};
use super::{MAX_COMMAND_BYTES, MAX_TAG_VALUE_BYTES, MAX_TOKEN_BYTES, PgnReason, TagProblem};

/// One token of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
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
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) line: usize,
    /// A blank line (outside comments) came between the previous token and this one.
    pub(super) blank_before: bool,
    /// Only whitespace precedes the token on its line.
    pub(super) line_start: bool,
    /// `[%claim ...]` commands in the comments before the token.
    pub(super) claims: Vec<LexedClaim>,
}

/// A `[%claim ...]` command found by the lexer.
#[derive(Clone, Copy, Debug)]
pub(super) struct LexedClaim {
    pub(super) mark: ClaimMark,
    pub(super) ground: Option<Ground>,
    pub(super) line: usize,
    /// A blank line came before the comment (it then belongs to the next game).
    pub(super) after_blank: bool,
}

/// Splits PGN bytes into tokens, skipping whitespace, comments and escape lines.
pub(super) struct Lexer<R> {
    pub(super) input: R,
    /// A byte order mark is skipped before the first token.
    pub(super) started: bool,
    pub(super) line: usize,
    /// Only whitespace seen on the current line so far.
    pub(super) line_start: bool,
    /// Moves are kept as written ([`Tok::Word`]) instead of read as SAN.
    pub(super) as_written: bool,
}

/// A lexer error: line and reason.
pub(super) type LexError = (usize, PgnReason);

impl<R: BufRead> Lexer<R> {
    pub(super) fn new(input: R) -> Self {
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
    pub(super) fn skip_game(&mut self, mut in_moves: bool) -> Result<(), LexError> {
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
    pub(super) fn next(&mut self) -> Result<Token, LexError> {
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

/// Bytes that may form a PGN symbol token (section 7 of the standard).
#[inline]
pub(super) fn is_symbol_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_+#=:/-".contains(&b)
}

/// "'x'" for a printable byte, "byte 0xNN" otherwise.
pub(super) fn describe_byte(b: u8) -> String {
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
pub(super) fn classify(t: &[u8], as_written: bool) -> Result<Tok, PgnReason> {
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
