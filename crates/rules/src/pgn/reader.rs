//! Games read from PGN text: the tags and main-line moves of each game, its recorded
//! claims, replayed into a [`Game`] by the rules core.

use std::io::{BufRead, BufReader};
use std::sync::Arc;

use crate::game::{Game, PlayError};

use super::claims::{ClaimMark, RecordedClaim};
use super::lexer::{LexError, Lexer, Tok, Token};
use super::{MAX_CLAIMS, MAX_PLIES, MAX_TAGS, MAX_VARIATION_DEPTH, PgnError, PgnReason};

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

/// Where the reader is within a game.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
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
pub(super) fn describe(t: &Tok) -> String {
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
pub(super) fn open_variation(open: &mut Vec<usize>, line: usize) -> Result<(), LexError> {
    if open.len() >= MAX_VARIATION_DEPTH {
        return Err((line, PgnReason::TooDeep { outermost: open[0] }));
    }
    open.push(line);
    Ok(())
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
pub(super) const STANDARD_VARIANTS: &[&str] = &["standard", "chess", "normal", "from position"];

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
pub(super) fn start_game(rec: &PgnRecord, file: &str) -> Result<Game, PgnError> {
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
pub(super) fn play_error(e: PlayError, text: &str, line: usize, file: &str) -> PgnError {
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
