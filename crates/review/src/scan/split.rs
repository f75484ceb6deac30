//! Cutting a PGN stream into batches of whole games, without reading the games.
//!
//! A scan of a database hands games to several threads, so the stream must be cut where a
//! game begins before anything in it is read. [`Splitter`] finds those places with the
//! reader's own rules for where a game ends ([`threefold_rules::pgn`], module docs):
//!
//! 1. A game's movetext ends at a blank line (outside a comment) before its next token, or
//!    at a tag at the start of a line.
//! 2. Comments (`{...}` over any lines, `;` to the end of the line, a line escaped with `%`)
//!    are skipped whole: a blank line or a `[` inside one ends nothing.
//! 3. A tag pair is skipped by the tag grammar (`[Name "value"]`, `\"` inside the value), so
//!    a `{` or `;` in a value opens no comment; a tag that does not parse is skipped to the
//!    end of its line, and a tag in the middle of a movetext line or a byte no token starts
//!    with (a move in Chinese notation, say) to the end of its line with the comments opened
//!    on it skipped whole, as the reader skips past an error.
//!
//! A cut is made at the start of the line where the next game's first token stands (or the
//! first comment after the blank line that ended the game: comments after a blank line are
//! the next game's). Each piece is then read by the full reader from its first line, or by
//! the scan's quick reading of simple games ([`super::quick`]); a piece may hold more than
//! one game where the file is unusual (a movetext on a tag's line, a bad tag), never part of
//! one. Only a file that is wrong in a way the reader would read past differently can be
//! split differently from one reading of the whole stream: a `[` tag that does not parse in
//! the middle of a movetext line makes the reader skip the next game's tags too, while the
//! scan reads that game.
//!
//! Memory is bounded: a batch is about [`Splitter::new`]'s `target` bytes, and a game longer
//! than [`MAX_GAME_BYTES`] is not held: it is passed over and reported as too long.

use std::io::{self, Read};
use std::ops::Range;

use threefold_rules::pgn::{MAX_TAG_VALUE_BYTES, MAX_TOKEN_BYTES, is_symbol_token_byte};

/// The longest game held: a longer one is skipped and named (the limit of a PGN game a person
/// opens, [`threefold_rules::fsio::FileKind::PgnGame`]).
pub const MAX_GAME_BYTES: usize = 64 << 20;

/// A piece of the stream that starts where a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// Its bytes in [`Batch::bytes`].
    pub range: Range<usize>,
    /// The line of the file its first byte is on (1-based).
    pub line: usize,
    /// A game longer than [`MAX_GAME_BYTES`]: its bytes were passed over (`range` is empty).
    pub too_long: bool,
    /// The last piece before the stream broke off (a read error): its game may be cut off.
    pub cut_off: bool,
}

/// Consecutive pieces of the stream, in order.
#[derive(Debug, Default)]
pub struct Batch {
    /// Its number: batches are numbered 0, 1, 2 ... in stream order.
    pub seq: u64,
    pub bytes: Vec<u8>,
    pub spans: Vec<Span>,
    /// Bytes of the stream read so far, this batch included.
    pub read: u64,
}

/// Where the scanner is inside a tag pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagStep {
    /// After `[`, before the name.
    Open,
    /// In the name (its length so far).
    Name(usize),
    /// After the name, before the value's `"` (spaces seen?).
    AfterName(bool),
    /// In the value (its length so far).
    Value(usize),
    /// After a `\` in the value.
    Escape(usize),
    /// After the value, before `]`.
    AfterValue,
}

/// What the scanner is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// Between tokens.
    Normal,
    /// A `{` comment.
    Comment,
    /// Skipping to the end of the line (`;`, `%`, a tag that does not parse).
    LineSkip,
    /// Skipping the rest of a movetext line the reader refused (a byte no token starts with,
    /// a tag in the movetext): as the reader skips past its error, a `{` there opens a
    /// comment that is skipped whole, over any lines.
    ErrorSkip,
    /// A comment opened in an [`Ctx::ErrorSkip`]: the skip goes on after it.
    ErrorComment,
    Tag(TagStep),
    /// A symbol token (move, move number, NAG, result).
    Symbol,
}

/// The reader's game-boundary rules as a state machine over bytes (see the module docs).
#[derive(Clone, Debug)]
struct Scanner {
    ctx: Ctx,
    /// The game being scanned is in its movetext.
    moves: bool,
    /// Line breaks since the last token or comment.
    breaks: u32,
    /// A blank line came in the movetext since the last token.
    blank: bool,
    /// Only whitespace so far on the current line.
    line_start: bool,
    /// Where the current line begins.
    line_begin: usize,
    /// Where the line of the first comment or token after the blank line begins.
    after_blank: Option<usize>,
}

impl Scanner {
    fn new() -> Scanner {
        Scanner {
            ctx: Ctx::Normal,
            moves: false,
            breaks: 0,
            blank: false,
            line_start: true,
            line_begin: 0,
            after_blank: None,
        }
    }

    /// Shift the positions kept after the first `n` bytes of the buffer were taken away.
    fn shift(&mut self, n: usize) {
        self.line_begin = self.line_begin.saturating_sub(n);
        self.after_blank = self.after_blank.map(|p| p.saturating_sub(n));
    }

    /// Something that is not whitespace at `pos`: the first after a blank line marks where
    /// the next game's piece would begin.
    fn mark(&mut self) {
        if self.blank && self.after_blank.is_none() {
            self.after_blank = Some(self.line_begin);
        }
    }

    /// Scan `buf[from..]`, pushing the position of every game start found (cuts are never
    /// 0 and increase). Returns the position scanned to (the whole buffer).
    fn scan(&mut self, buf: &[u8], from: usize, cuts: &mut Vec<usize>) {
        let mut i = from;
        let n = buf.len();
        while i < n {
            match self.ctx {
                Ctx::Comment => match memchr::memchr(b'}', &buf[i..]) {
                    Some(j) => {
                        self.lines_in(buf, i, i + j);
                        self.line_start = false;
                        self.ctx = Ctx::Normal;
                        i += j + 1;
                    }
                    None => {
                        self.lines_in(buf, i, n);
                        i = n;
                    }
                },
                Ctx::ErrorSkip => match memchr::memchr3(b'\n', b'{', b';', &buf[i..]) {
                    Some(j) if buf[i + j] == b'{' => {
                        self.ctx = Ctx::ErrorComment;
                        i += j + 1;
                    }
                    Some(j) if buf[i + j] == b';' => {
                        self.ctx = Ctx::LineSkip;
                        i += j + 1;
                    }
                    Some(j) => {
                        self.ctx = Ctx::Normal;
                        i += j;
                    }
                    None => i = n,
                },
                Ctx::ErrorComment => match memchr::memchr(b'}', &buf[i..]) {
                    Some(j) => {
                        self.lines_in(buf, i, i + j);
                        self.ctx = Ctx::ErrorSkip;
                        i += j + 1;
                    }
                    None => {
                        self.lines_in(buf, i, n);
                        i = n;
                    }
                },
                Ctx::LineSkip => match memchr::memchr(b'\n', &buf[i..]) {
                    Some(j) => {
                        self.ctx = Ctx::Normal;
                        i += j;
                    }
                    None => i = n,
                },
                Ctx::Symbol => {
                    let b = buf[i];
                    if is_symbol_token_byte(b) {
                        i += 1;
                    } else {
                        self.ctx = Ctx::Normal;
                    }
                }
                Ctx::Tag(TagStep::Value(v)) => {
                    // The value up to its closing quote, an escape or the line's end.
                    let j = memchr::memchr3(b'"', b'\\', b'\n', &buf[i..]).unwrap_or(n - i);
                    if v + j > MAX_TAG_VALUE_BYTES {
                        self.ctx = Ctx::LineSkip;
                    } else if i + j < n {
                        i += j;
                        self.ctx = self.tag_step(TagStep::Value(v + j), buf[i]);
                        if self.ctx != Ctx::LineSkip || buf[i] != b'\n' {
                            i += 1;
                        }
                    } else {
                        self.ctx = Ctx::Tag(TagStep::Value(v + j));
                        i = n;
                    }
                }
                // Inside a movetext line after its first token, only a line break, a comment
                // or a `;` can matter: the tokens between are passed over.
                Ctx::Normal if self.moves && !self.blank && !self.line_start => {
                    match memchr::memchr3(b'\n', b'{', b';', &buf[i..]) {
                        Some(j) => {
                            i += j;
                            self.normal_byte(buf, &mut i, cuts);
                        }
                        None => i = n,
                    }
                }
                Ctx::Tag(step) => {
                    self.ctx = self.tag_step(step, buf[i]);
                    if self.ctx != Ctx::LineSkip || buf[i] != b'\n' {
                        i += 1;
                    }
                }
                Ctx::Normal => self.normal_byte(buf, &mut i, cuts),
            }
        }
    }

    /// One byte between tokens (`buf[*i]`), read byte by byte: advances `i` past it.
    fn normal_byte(&mut self, buf: &[u8], i: &mut usize, cuts: &mut Vec<usize>) {
        let b = buf[*i];
        match b {
            b'\n' => {
                self.breaks += 1;
                if self.breaks >= 2 && self.moves {
                    self.blank = true;
                }
                self.line_start = true;
                self.line_begin = *i + 1;
            }
            b' ' | b'\t' | b'\r' => {}
            b'%' if self.line_start => {
                self.mark();
                self.breaks = 0;
                self.ctx = Ctx::LineSkip;
            }
            b';' => {
                self.mark();
                self.breaks = 0;
                self.ctx = Ctx::LineSkip;
            }
            b'{' => {
                self.mark();
                self.breaks = 0;
                self.line_start = false;
                self.ctx = Ctx::Comment;
            }
            _ => {
                self.mark();
                if self.moves && (self.blank || (b == b'[' && self.line_start)) {
                    let at = if self.blank {
                        self.after_blank.unwrap_or(self.line_begin)
                    } else {
                        self.line_begin
                    };
                    if at > 0 && cuts.last().is_none_or(|&c| c < at) {
                        cuts.push(at);
                    }
                    self.moves = false;
                }
                self.blank = false;
                self.after_blank = None;
                self.breaks = 0;
                self.ctx = match b {
                    // A tag in the movetext, not at the start of a line: refused,
                    // and the reader skips past it to the end of the line.
                    b'[' if self.moves => Ctx::ErrorSkip,
                    b'[' => Ctx::Tag(TagStep::Open),
                    b'(' | b')' | b'*' => {
                        self.moves = true;
                        Ctx::Normal
                    }
                    b if is_symbol_token_byte(b) => {
                        self.moves = true;
                        Ctx::Symbol
                    }
                    // No token starts with it: an error, skipped to the end of the
                    // line as in a movetext.
                    _ => {
                        self.moves = true;
                        Ctx::ErrorSkip
                    }
                };
                self.line_start = false;
                if self.ctx == Ctx::Symbol {
                    // The symbol's first byte is read with it.
                    *i += 1;
                    return;
                }
            }
        }
        *i += 1;
    }

    /// Line breaks in `buf[a..b]` (inside a comment): the current line is the last one.
    fn lines_in(&mut self, buf: &[u8], a: usize, b: usize) {
        if let Some(j) = memchr::memrchr(b'\n', &buf[a..b]) {
            self.line_begin = a + j + 1;
        }
    }

    /// One byte of a tag pair: the tag grammar of the reader; where it fails, the rest of
    /// the line is skipped.
    fn tag_step(&self, step: TagStep, b: u8) -> Ctx {
        let name_byte =
            |b: u8, first: bool| b.is_ascii_alphanumeric() || (!first && b"_+#=:-".contains(&b));
        let next = match (step, b) {
            (_, b'\n') => return Ctx::LineSkip,
            (TagStep::Open, b' ' | b'\t') => TagStep::Open,
            (TagStep::Open, b) if name_byte(b, true) => TagStep::Name(1),
            (TagStep::Name(n), b) if name_byte(b, false) && n < MAX_TOKEN_BYTES => {
                TagStep::Name(n + 1)
            }
            (TagStep::Name(_), b' ' | b'\t') => TagStep::AfterName(true),
            (TagStep::AfterName(_), b' ' | b'\t') => TagStep::AfterName(true),
            (TagStep::AfterName(true), b'"') => TagStep::Value(0),
            (TagStep::Value(_), b'"') => TagStep::AfterValue,
            (TagStep::Value(n), b'\\') => TagStep::Escape(n),
            (TagStep::Escape(n), b'"' | b'\\') => TagStep::Value(n + 1),
            // A `\` before anything else is itself; the byte is then read as usual.
            (TagStep::Escape(n), b) => return self.tag_step(TagStep::Value(n + 1), b),
            (TagStep::Value(n), _) if n + 1 > MAX_TAG_VALUE_BYTES => return Ctx::LineSkip,
            (TagStep::Value(n), _) => TagStep::Value(n + 1),
            (TagStep::AfterValue, b' ' | b'\t') => TagStep::AfterValue,
            (TagStep::AfterValue, b']') => return Ctx::Normal,
            _ => return Ctx::LineSkip,
        };
        Ctx::Tag(next)
    }
}

/// Cuts a stream into [`Batch`]es of whole games (see the module docs).
pub struct Splitter<R> {
    input: R,
    /// Bytes read and not yet handed out.
    buf: Vec<u8>,
    /// Where the scan of `buf` has reached.
    scanned: usize,
    /// Game starts found in `buf`.
    cuts: Vec<usize>,
    scanner: Scanner,
    /// The line of `buf[0]`.
    line: usize,
    /// Bytes read so far.
    read: u64,
    eof: bool,
    /// A batch is handed out once it holds this many bytes of whole games.
    target: usize,
    /// The game at the start of `buf` is too long and is being passed over (its line).
    passing: Option<usize>,
    seq: u64,
    started: bool,
    /// Reading failed: what was read before is handed out as if the stream ended there, then
    /// the error.
    failed: Option<io::Error>,
    /// The longest game held ([`MAX_GAME_BYTES`]).
    max_game: usize,
}

impl<R: Read> Splitter<R> {
    /// A splitter handing out batches of about `target` bytes (at least one game each).
    pub fn new(input: R, target: usize) -> Splitter<R> {
        Splitter {
            input,
            buf: Vec::new(),
            scanned: 0,
            cuts: Vec::new(),
            scanner: Scanner::new(),
            line: 1,
            read: 0,
            eof: false,
            target: target.max(1),
            passing: None,
            seq: 0,
            started: false,
            failed: None,
            max_game: MAX_GAME_BYTES,
        }
    }

    /// [`Splitter::new`] holding games of at most `max_game` bytes.
    pub fn with_max_game(input: R, target: usize, max_game: usize) -> Splitter<R> {
        Splitter {
            max_game,
            ..Splitter::new(input, target)
        }
    }

    /// Bytes read from the stream so far.
    pub fn bytes_read(&self) -> u64 {
        self.read
    }

    /// The next batch, `None` at the end of the stream.
    pub fn next_batch(&mut self) -> io::Result<Option<Batch>> {
        loop {
            if !self.started && self.buf.len() >= 3 {
                self.started = true;
                // A UTF-8 byte order mark is no token (the reader skips it too).
                if self.buf.starts_with(b"\xef\xbb\xbf") {
                    self.scanned = 3;
                }
            }
            if self.started || self.eof {
                self.scanner.scan(&self.buf, self.scanned, &mut self.cuts);
                self.scanned = self.buf.len();
            }
            if let Some(line) = self.passing {
                match self.cuts.first().copied() {
                    // The long game ends at the next game's start, or with the stream: hand it
                    // out as passed over.
                    Some(c) => {
                        self.take(c, true);
                        return Ok(Some(self.passed_over(line)));
                    }
                    None if self.eof => {
                        let n = self.buf.len();
                        self.take(n, true);
                        return Ok(Some(self.passed_over(line)));
                    }
                    None => {
                        // Keep the line being scanned (a game may begin on it).
                        let keep = self
                            .scanner
                            .after_blank
                            .unwrap_or(usize::MAX)
                            .min(self.scanner.line_begin);
                        let n = if keep > 0 { keep } else { self.buf.len() };
                        self.take(n, true);
                    }
                }
            } else if self.eof {
                if self.buf.is_empty() {
                    return match self.failed.take() {
                        Some(e) => Err(e),
                        None => Ok(None),
                    };
                }
                let n = self.buf.len();
                return Ok(Some(self.cut(n)));
            } else if let Some(&c) = self.cuts.iter().find(|&&c| c >= self.target) {
                return Ok(Some(self.cut(c)));
            } else if self.buf.len() - self.cuts.last().copied().unwrap_or(0) > self.max_game {
                // The game being read is too long: hand out the games before it and pass
                // over it.
                let start = self.cuts.last().copied().unwrap_or(0);
                let games_before = start > 0;
                let batch = games_before.then(|| self.cut(start));
                self.passing = Some(self.line);
                if let Some(b) = batch {
                    return Ok(Some(b));
                }
                continue;
            }
            self.fill()?;
        }
    }

    /// Read more of the stream.
    fn fill(&mut self) -> io::Result<()> {
        let want = self.target.clamp(64 << 10, 4 << 20);
        let old = self.buf.len();
        self.buf.resize(old + want, 0);
        let got = loop {
            match self.input.read(&mut self.buf[old..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // The games read so far are handed out first (the last one cut off, as
                    // a file that ends mid-game), then the error.
                    self.buf.truncate(old);
                    self.failed = Some(e);
                    self.eof = true;
                    return Ok(());
                }
            }
        };
        self.buf.truncate(old + got);
        self.read += got as u64;
        if got == 0 {
            self.eof = true;
        }
        Ok(())
    }

    /// Drop the first `n` bytes of the buffer (counting their lines) and shift what was
    /// found in it.
    fn take(&mut self, n: usize, count_lines: bool) -> Vec<u8> {
        if count_lines {
            self.line += memchr::memchr_iter(b'\n', &self.buf[..n]).count();
        }
        let rest = self.buf.split_off(n);
        let taken = std::mem::replace(&mut self.buf, rest);
        self.scanned -= n;
        self.cuts.retain(|&c| c > n);
        for c in &mut self.cuts {
            *c -= n;
        }
        self.scanner.shift(n);
        taken
    }

    /// Hand out the bytes before `end` (a cut, or the end of the stream) as a batch.
    fn cut(&mut self, end: usize) -> Batch {
        let starts: Vec<usize> = std::iter::once(0)
            .chain(self.cuts.iter().copied().take_while(|&c| c < end))
            .collect();
        let mut spans = Vec::with_capacity(starts.len());
        let mut line = self.line;
        for (k, &s) in starts.iter().enumerate() {
            let e = starts.get(k + 1).copied().unwrap_or(end);
            spans.push(Span {
                range: s..e,
                line,
                too_long: false,
                cut_off: false,
            });
            line += memchr::memchr_iter(b'\n', &self.buf[s..e]).count();
        }
        if end == self.buf.len()
            && self.failed.is_some()
            && let Some(last) = spans.last_mut()
        {
            last.cut_off = true;
        }
        let bytes = self.take(end, false);
        self.line = line;
        self.batch(bytes, spans)
    }

    /// The batch of a game too long to hold, from `line`, passed over.
    fn passed_over(&mut self, line: usize) -> Batch {
        self.passing = None;
        let span = Span {
            range: 0..0,
            line,
            too_long: true,
            cut_off: false,
        };
        self.batch(Vec::new(), vec![span])
    }

    fn batch(&mut self, bytes: Vec<u8>, spans: Vec<Span>) -> Batch {
        let seq = self.seq;
        self.seq += 1;
        Batch {
            seq,
            bytes,
            spans,
            read: self.read,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces `text` is cut into, with their first lines.
    fn pieces(text: &str, target: usize) -> Vec<(String, usize)> {
        let mut s = Splitter::new(text.as_bytes(), target);
        let mut out = Vec::new();
        while let Some(b) = s.next_batch().unwrap() {
            for sp in b.spans {
                out.push((
                    String::from_utf8(b.bytes[sp.range].to_vec()).unwrap(),
                    sp.line,
                ));
            }
        }
        out
    }

    /// A stream that fails: the games before the failure are handed out, then the error.
    #[test]
    fn a_read_error_comes_after_the_games_read_before_it() {
        struct Failing<'a>(&'a [u8]);
        impl Read for Failing<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::other("disk on fire"));
                }
                let n = buf.len().min(self.0.len()).min(10);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let text = b"[A \"1\"]\n1. e4 *\n\n[B \"2\"]\n1. d4";
        let mut s = Splitter::new(Failing(text), 1 << 20);
        let batch = s.next_batch().unwrap().unwrap();
        assert_eq!(batch.bytes, text);
        let cut: Vec<bool> = batch.spans.iter().map(|s| s.cut_off).collect();
        assert_eq!(cut, [false, true], "the last game is cut off");
        assert_eq!(s.next_batch().unwrap_err().to_string(), "disk on fire");
    }

    /// A game longer than the limit is passed over, not held, and named by its first line;
    /// the games around it are whole.
    #[test]
    fn a_game_too_long_is_passed_over() {
        let long = format!("{{{}}}", "x\n".repeat(300_000));
        let text =
            format!("[A \"1\"]\n1. e4 *\n\n[B \"2\"]\n1. d4 {long} d5 *\n\n[C \"3\"]\n1. c4 *\n");
        let mut s = Splitter::with_max_game(text.as_bytes(), 1, 100_000);
        let mut got = Vec::new();
        while let Some(b) = s.next_batch().unwrap() {
            assert!(b.bytes.len() < 200_000, "held {} bytes", b.bytes.len());
            for sp in b.spans {
                got.push((
                    String::from_utf8_lossy(&b.bytes[sp.range]).into_owned(),
                    sp.line,
                    sp.too_long,
                ));
            }
        }
        assert_eq!(
            got,
            [
                ("[A \"1\"]\n1. e4 *\n\n".to_string(), 1, false),
                (String::new(), 4, true),
                ("[C \"3\"]\n1. c4 *\n".to_string(), 300_007, false),
            ]
        );
    }

    fn joined(p: &[(String, usize)]) -> String {
        p.iter().map(|(t, _)| t.as_str()).collect()
    }

    #[test]
    fn games_are_cut_where_the_reader_ends_them() {
        let text = "[A \"1\"]\n\n1. e4 e5 1-0\n\n[B \"{\"]\n1. d4 {x\n\n[C \"\"]} d5 *\n[D \"2\"]\n1. c4 ; \n\n%x\n*\n\n\n{after}\n1. Nf3 *\n<bad {x\n\n[E \"1\"]} *\n";
        let got = pieces(text, 1);
        let texts: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "[A \"1\"]\n\n1. e4 e5 1-0\n\n",
                "[B \"{\"]\n1. d4 {x\n\n[C \"\"]} d5 *\n",
                "[D \"2\"]\n1. c4 ; \n\n",
                "%x\n*\n\n\n",
                "{after}\n1. Nf3 *\n<bad {x\n\n[E \"1\"]} *\n",
            ]
        );
        let lines: Vec<usize> = got.iter().map(|&(_, l)| l).collect();
        assert_eq!(lines, [1, 5, 9, 12, 16]);
        // A batch is about `target` bytes: with 1, one game each.
        let mut s = Splitter::new(text.as_bytes(), 1);
        while let Some(b) = s.next_batch().unwrap() {
            assert_eq!(b.spans.len(), 1, "{:?}", String::from_utf8_lossy(&b.bytes));
        }
        // However the stream is batched, the same pieces.
        for target in [1, 7, 30, 1000] {
            assert_eq!(joined(&pieces(text, target)), text, "target {target}");
            assert_eq!(pieces(text, target), got, "target {target}");
        }
    }
}
