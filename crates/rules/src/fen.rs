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

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN '{fen}': {reason}")]
pub struct FenError {
    /// The FEN as given (trimmed).
    pub fen: String,
    /// What is wrong, naming the field.
    pub reason: String,
}

/// Reads a FEN of standard chess strictly (see the module docs).
pub fn parse(text: &str) -> Result<Fen, FenError> {
    let fen = text.trim();
    let err = |reason: String| FenError {
        fen: fen.to_string(),
        reason,
    };
    let fields: Vec<&str> = fen.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
    if fields.len() < 4 {
        return Err(err(format!(
            "{} field{} where a FEN has 4 to 6: board, side to move, castling, en passant, \
             halfmove clock, fullmove number",
            fields.len(),
            if fields.len() == 1 { "" } else { "s" }
        )));
    }
    if fields.len() > 6 {
        return Err(err(format!(
            "{} fields where a FEN has six: '{}' is one too many",
            fields.len(),
            fields[6]
        )));
    }
    board(fields[0]).map_err(&err)?;
    if !matches!(fields[1], "w" | "b") {
        return Err(err(format!(
            "side to move '{}' is not 'w' or 'b'",
            fields[1]
        )));
    }
    castling(fields[2]).map_err(&err)?;
    let ep = fields[3].as_bytes();
    let ep_ok = fields[3] == "-"
        || (ep.len() == 2 && (b'a'..=b'h').contains(&ep[0]) && matches!(ep[1], b'3' | b'6'));
    if !ep_ok {
        return Err(err(format!(
            "en passant square '{}' is not '-' or a square on the third or sixth rank",
            fields[3]
        )));
    }
    if let Some(h) = fields.get(4) {
        clock(h, "halfmove clock").map_err(&err)?;
    }
    if let Some(f) = fields.get(5) {
        clock(f, "fullmove number").map_err(&err)?;
    }
    Fen::from_ascii(fields.join(" ").as_bytes()).map_err(|e| err(e.to_string()))
}

/// Reads a FEN strictly and sets up the position (standard castling notation).
pub fn position(text: &str) -> Result<Chess, FenError> {
    parse(text)?
        .into_position(CastlingMode::Standard)
        .map_err(|e| FenError {
            fen: text.trim().to_string(),
            reason: e.to_string(),
        })
}

fn board(b: &str) -> Result<(), String> {
    let ranks: Vec<&str> = b.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!(
            "the board has {} ranks, not 8 ('{b}')",
            ranks.len()
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let name = 8 - i;
        let mut squares = 0;
        let mut last_digit = false;
        for c in rank.chars() {
            match c {
                '1'..='8' => {
                    if last_digit {
                        return Err(format!("rank {name} ('{rank}') has two digits in a row"));
                    }
                    squares += c as usize - '0' as usize;
                    last_digit = true;
                }
                'P' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'p' | 'n' | 'b' | 'r' | 'q' | 'k' => {
                    squares += 1;
                    last_digit = false;
                }
                _ => {
                    return Err(format!(
                        "rank {name} ('{rank}') holds '{c}', which is neither a piece \
                         (PNBRQK, pnbrqk) nor a digit 1-8"
                    ));
                }
            }
        }
        if squares != 8 {
            return Err(format!(
                "rank {name} ('{rank}') has {squares} squares, not 8"
            ));
        }
    }
    Ok(())
}

fn castling(c: &str) -> Result<(), String> {
    if c == "-" {
        return Ok(());
    }
    let mut rest = "KQkq";
    for ch in c.chars() {
        match rest.find(ch) {
            Some(i) => rest = &rest[i + 1..],
            None => {
                return Err(format!(
                    "castling '{c}' is not '-' or some of KQkq, in that order, each once"
                ));
            }
        }
    }
    Ok(())
}

fn clock(text: &str, what: &str) -> Result<(), String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} '{text}' is not a whole number"));
    }
    if text.parse::<u32>().is_err() {
        return Err(format!(
            "{what} {text} is larger than {} (2^32 - 1)",
            u32::MAX
        ));
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
            .unwrap_or_else(|e| e.reason)
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
}
