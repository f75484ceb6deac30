//! Lists: the moves of a move-list text (drill answers), and the games of a PGN file as a
//! list to choose from shows them.

use std::io::BufReader;
use std::sync::Arc;

use super::lexer::{LexError, Lexer, Tok};
use super::reader::{PgnReader, PgnRecord, describe, open_variation};
use super::{MAX_PLIES, PgnError, PgnReason};

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
/// ([`crate::notation::parse_move_lenient`], the trainer's) and to name in its refusal.
pub fn move_list_as_written(text: &str) -> Result<Vec<ListedMove>, (usize, PgnReason)> {
    listed_moves(text, true)
}

pub(super) fn listed_moves(text: &str, as_written: bool) -> Result<Vec<ListedMove>, LexError> {
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

/// One game of a PGN file, as a list to choose from shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's number in the file (1-based), as [`super::read_game_file`] takes it.
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
