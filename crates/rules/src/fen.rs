//! Reading FEN strictly: the one FEN reader of the rules core, the engine's UCI `position`
//! and the trainer.
//!
//! shakmaty's parser is lenient on purpose (it reads variants): it takes `44` for a rank of
//! eight empty squares, `KQkqq`, a crazyhouse pocket, `~` promotion marks and three-check
//! counters, and clamps clocks that do not fit in 32 bits. This reader checks the text
//! against the FEN of standard chess (Edwards, "Portable Game Notation Specification and
//! Implementation Guide", 1994, section 16.1) first, so every mistake is named, and hands
//! shakmaty only what it then reads exactly:
//!
//! - fields are separated by spaces or tabs (any number); the halfmove clock and the
//!   fullmove number may be left out together (the defaults 0 and 1), or the fullmove
//!   number alone, as python-chess allows;
//! - the board has exactly eight ranks of eight squares, written with `PNBRQKpnbrqk` and
//!   the digits 1 to 8, never two digits in a row;
//! - the side to move is `w` or `b`; castling is `-` or some of `KQkq`, in that order,
//!   each at most once; the en passant square is `-` or a square on the third or sixth
//!   rank;
//! - the clocks are decimal numbers up to 4294967295 (2^32 − 1); a fullmove number of 0
//!   is read as 1 (python-chess does the same).
//!
//! Whether the position can be played (kings, castling rights that match the pieces, an en
//! passant square behind a pawn that just moved) is then shakmaty's check.

use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::{CastlingMode, Chess, PositionError};

/// Why a FEN was refused: the FEN as given and what is wrong with it.
#[derive(Clone, Debug, thiserror::Error)]
#[error("invalid FEN '{}': {reason}", quote(fen))]
pub struct FenError {
    /// The FEN as given (trimmed).
    pub fen: String,
    /// What is wrong, naming the field.
    pub reason: FenReason,
}

/// What is wrong with a refused FEN: one variant per mistake, each naming its field and
/// quoting the text found there (the shape of shakmaty's `ParseFenError`, with the text).
#[derive(Clone, Debug, thiserror::Error)]
pub enum FenReason {
    /// Fewer than the four fields a FEN needs.
    #[error(
        "{count} field{} where a FEN has 4 to 6: board, side to move, castling, en passant, \
         halfmove clock, fullmove number",
        if *count == 1 { "" } else { "s" }
    )]
    TooFewFields { count: usize },
    /// More than six fields; `extra` is the seventh.
    #[error(
        "{count} fields where a FEN has six: '{extra}' {}",
        match count - 6 {
            1 => "is one too many".to_string(),
            n => format!("and what follows are {n} too many"),
        }
    )]
    TooManyFields { count: usize, extra: String },
    /// The board field does not have eight ranks.
    #[error("the board has {count} ranks, not 8 ('{}')", quote(board))]
    RankCount { count: usize, board: String },
    /// A rank (named 8 down to 1) has two digits in a row, as shakmaty's `44` for `8`.
    #[error("rank {rank} ('{}') has two digits in a row", quote(text))]
    TwoDigits { rank: usize, text: String },
    /// A rank holds a character that is neither a piece letter nor a digit 1-8.
    #[error(
        "rank {rank} ('{}') holds '{found}', which is neither a piece \
         (PNBRQK, pnbrqk) nor a digit 1-8",
        quote(text)
    )]
    BadCharacter {
        rank: usize,
        text: String,
        found: char,
    },
    /// A rank does not add up to eight squares.
    #[error("rank {rank} ('{}') has {squares} squares, not 8", quote(text))]
    RankLength {
        rank: usize,
        text: String,
        squares: usize,
    },
    /// The side to move is not `w` or `b`.
    #[error("side to move '{}' is not 'w' or 'b'", quote(found))]
    SideToMove { found: String },
    /// The castling field is not `-` or some of `KQkq` in order, each once.
    #[error(
        "castling '{}' is not '-' or some of KQkq, in that order, each once",
        quote(found)
    )]
    Castling { found: String },
    /// The en passant field is not `-` or a square on the third or sixth rank.
    #[error(
        "en passant square '{}' is not '-' or a square on the third or sixth rank",
        quote(found)
    )]
    EnPassant { found: String },
    /// A clock is not written as a decimal number.
    #[error("{clock} '{}' is not a whole number", quote(found))]
    NotANumber { clock: Clock, found: String },
    /// A clock is larger than 2^32 - 1.
    #[error("{clock} {} is larger than {max} (2^32 - 1)", quote(found), max = u32::MAX)]
    TooLarge { clock: Clock, found: String },
    /// shakmaty refused the text this reader passed (none known: every field is checked
    /// above first).
    #[error(transparent)]
    Syntax(ParseFenError),
    /// Well formed, but not a position that can be played (shakmaty's check: kings,
    /// castling rights that match the pieces, the en passant square, checks, material).
    #[error(transparent)]
    Illegal(Box<PositionError<Chess>>),
}

/// The longest text of a FEN its messages quote: a longer one is cut, with its size.
pub const QUOTED_CHARS: usize = 60;

/// A text of a refused FEN as a message quotes it: whole up to [`QUOTED_CHARS`] characters,
/// else its start, `…` and its size (a FEN of 120 kB was echoed whole).
fn quote(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((i, _)) => format!("{}… ({} bytes)", &text[..i], text.len()).into(),
        None => text.into(),
    }
}

/// The two clocks of a FEN, named in its messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The fifth field: plies since the last capture or pawn move.
    Halfmove,
    /// The sixth field: the number of the move to be played.
    Fullmove,
}

impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Clock::Halfmove => "halfmove clock",
            Clock::Fullmove => "fullmove number",
        })
    }
}

/// Reads a FEN of standard chess strictly (see the module docs).
pub fn parse(text: &str) -> Result<Fen, FenError> {
    let fen = text.trim();
    let err = |reason: FenReason| FenError {
        fen: fen.to_string(),
        reason,
    };
    let fields: Vec<&str> = fen.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
    if fields.len() < 4 {
        return Err(err(FenReason::TooFewFields {
            count: fields.len(),
        }));
    }
    if fields.len() > 6 {
        return Err(err(FenReason::TooManyFields {
            count: fields.len(),
            extra: fields[6].to_string(),
        }));
    }
    board(fields[0]).map_err(&err)?;
    if !matches!(fields[1], "w" | "b") {
        return Err(err(FenReason::SideToMove {
            found: fields[1].to_string(),
        }));
    }
    castling(fields[2]).map_err(&err)?;
    let ep = fields[3].as_bytes();
    let ep_ok = fields[3] == "-"
        || (ep.len() == 2 && (b'a'..=b'h').contains(&ep[0]) && matches!(ep[1], b'3' | b'6'));
    if !ep_ok {
        return Err(err(FenReason::EnPassant {
            found: fields[3].to_string(),
        }));
    }
    if let Some(h) = fields.get(4) {
        clock(h, Clock::Halfmove).map_err(&err)?;
    }
    if let Some(f) = fields.get(5) {
        clock(f, Clock::Fullmove).map_err(&err)?;
    }
    Fen::from_ascii(fields.join(" ").as_bytes()).map_err(|e| err(FenReason::Syntax(e)))
}

/// Reads a FEN strictly and sets up the position (standard castling notation).
pub fn position(text: &str) -> Result<Chess, FenError> {
    parse(text)?
        .into_position(CastlingMode::Standard)
        .map_err(|e| FenError {
            fen: text.trim().to_string(),
            reason: FenReason::Illegal(Box::new(e)),
        })
}

fn board(b: &str) -> Result<(), FenReason> {
    let ranks: Vec<&str> = b.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenReason::RankCount {
            count: ranks.len(),
            board: b.to_string(),
        });
    }
    for (i, rank) in ranks.iter().enumerate() {
        let name = 8 - i;
        let text = || rank.to_string();
        let mut squares = 0;
        let mut last_digit = false;
        for c in rank.chars() {
            match c {
                '1'..='8' => {
                    if last_digit {
                        return Err(FenReason::TwoDigits {
                            rank: name,
                            text: text(),
                        });
                    }
                    squares += c as usize - '0' as usize;
                    last_digit = true;
                }
                'P' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'p' | 'n' | 'b' | 'r' | 'q' | 'k' => {
                    squares += 1;
                    last_digit = false;
                }
                _ => {
                    return Err(FenReason::BadCharacter {
                        rank: name,
                        text: text(),
                        found: c,
                    });
                }
            }
        }
        if squares != 8 {
            return Err(FenReason::RankLength {
                rank: name,
                text: text(),
                squares,
            });
        }
    }
    Ok(())
}

fn castling(c: &str) -> Result<(), FenReason> {
    if c == "-" {
        return Ok(());
    }
    let mut rest = "KQkq";
    for ch in c.chars() {
        match rest.find(ch) {
            Some(i) => rest = &rest[i + 1..],
            None => {
                return Err(FenReason::Castling {
                    found: c.to_string(),
                });
            }
        }
    }
    Ok(())
}

fn clock(text: &str, clock: Clock) -> Result<(), FenReason> {
    let found = || text.to_string();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenReason::NotANumber {
            clock,
            found: found(),
        });
    }
    if text.parse::<u32>().is_err() {
        return Err(FenReason::TooLarge {
            clock,
            found: found(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn reason(fen: &str) -> String {
        parse(fen)
            .map(|_| String::new())
            .unwrap_or_else(|e| e.reason.to_string())
    }

    /// A refused FEN of 120 kB is quoted cut, with its size: the message was 240 kB (the
    /// FEN and its board field, whole).
    #[test]
    fn a_huge_fen_is_quoted_cut() {
        let board = "x".repeat(120_000);
        let e = position(&format!("{board} w - - 0 1"))
            .unwrap_err()
            .to_string();
        assert!(e.len() < 300, "{} bytes", e.len());
        assert_eq!(
            e,
            format!(
                "invalid FEN '{}… (120010 bytes)': the board has 1 ranks, not 8 ('{}… (120000 \
                 bytes)')",
                "x".repeat(QUOTED_CHARS),
                "x".repeat(QUOTED_CHARS)
            )
        );
        // A short one is quoted whole.
        assert!(reason("8/8 w - -").contains("('8/8')"));
    }

    #[test]
    fn the_standard_fields_are_read_and_spacing_is_free() {
        assert!(position(START).is_ok());
        assert!(
            position("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw  KQkq\t- 0\t1 ").is_ok()
        );
        assert!(position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").is_ok());
        assert!(position("4k3/8/8/8/8/8/8/4K3 b - - 99 0").is_ok());
        let p = position("4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295").unwrap();
        use shakmaty::Position;
        assert_eq!(p.halfmoves(), u32::MAX);
    }

    #[test]
    fn what_shakmaty_would_take_is_refused_with_its_field() {
        for (fen, want) in [
            (
                "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "two digits in a row",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqq - 0 1",
                "castling 'KQkqq'",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QK - 0 1",
                "castling 'QK'",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "9 ranks",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1",
                "holds '['",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Qq w KQkq - 0 1",
                "9 ranks",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN~R w KQkq - 0 1",
                "holds '~'",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
                "7 squares",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 1",
                "not a whole number",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4294967296 1",
                "larger than 4294967295",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999",
                "fullmove number 99999999999 is larger",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
                "not a whole number",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                "side to move 'x'",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1",
                "en passant square 'e4'",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",
                "one too many",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 a b",
                "8 fields where a FEN has six: 'a' and what follows are 2 too many",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1",
                "1 field",
            ),
            ("", "0 fields"),
        ] {
            let r = reason(fen);
            assert!(r.contains(want), "{fen}: {r}");
        }
        // Well formed but not a position: shakmaty's check.
        assert!(position("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    }

    #[test]
    fn each_mistake_is_its_own_variant() {
        let why = |fen: &str| position(fen).map(|_| ()).unwrap_err().reason;
        let b = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert!(matches!(why("a b c"), FenReason::TooFewFields { count: 3 }));
        assert!(matches!(
            why(&format!("{b} w - - 0 1 x")),
            FenReason::TooManyFields { count: 7, ref extra } if extra == "x"
        ));
        assert!(matches!(
            why("8/8/8/8/8/8/8 w - - 0 1"),
            FenReason::RankCount { count: 7, .. }
        ));
        assert!(matches!(
            why("8/8/8/8/8/8/8/44 w - - 0 1"),
            FenReason::TwoDigits { rank: 1, .. }
        ));
        assert!(matches!(
            why("8/8/8/8/8/8/8/7x w - - 0 1"),
            FenReason::BadCharacter {
                rank: 1,
                found: 'x',
                ..
            }
        ));
        assert!(matches!(
            why("9/8/8/8/8/8/8/8 w - - 0 1"),
            FenReason::BadCharacter {
                rank: 8,
                found: '9',
                ..
            }
        ));
        assert!(matches!(
            why("7/8/8/8/8/8/8/8 w - - 0 1"),
            FenReason::RankLength {
                rank: 8,
                squares: 7,
                ..
            }
        ));
        assert!(matches!(
            why(&format!("{b} W - - 0 1")),
            FenReason::SideToMove { .. }
        ));
        assert!(matches!(
            why(&format!("{b} w qk - 0 1")),
            FenReason::Castling { .. }
        ));
        assert!(matches!(
            why(&format!("{b} w - e5 0 1")),
            FenReason::EnPassant { .. }
        ));
        assert!(matches!(
            why(&format!("{b} w - - x 1")),
            FenReason::NotANumber {
                clock: Clock::Halfmove,
                ..
            }
        ));
        assert!(matches!(
            why(&format!("{b} w - - 0 4294967296")),
            FenReason::TooLarge {
                clock: Clock::Fullmove,
                ..
            }
        ));
        // shakmaty's check, with its kinds: two white kings, and no black one.
        match why("4k3/8/8/8/8/8/8/3KK3 w - - 0 1") {
            FenReason::Illegal(e) => {
                assert!(
                    e.kinds()
                        .contains(shakmaty::PositionErrorKinds::TOO_MANY_KINGS)
                )
            }
            other => panic!("{other}"),
        }
    }
}
