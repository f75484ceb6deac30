//! Move notation: UCCI coordinates and WXF notation, both ways.
//!
//! **UCCI**: from and to point, files `a`–`i` from Red's left, ranks `0`–`9`
//! from Red's back rank: `h2e2`. ICCS's `H2-E2` is accepted too.
//!
//! **WXF** (the Asian/World Xiangqi Federation notation): piece letter
//! (`K A E H R C P`), the file it stands on counted from the mover's right
//! (1–9), the direction (`+` forward, `-` backward, `=` sideways; `.` is read
//! as `=`), then for a straight move forward or backward the number of ranks
//! moved, otherwise the file arrived on: `C2=5`, `H2+3`, `R1-2`.
//!
//! Tandem pieces (two of a kind on one file) replace the file by `+` (front,
//! nearer the enemy) or `-` (rear): `R+=3`, `C--1`. Pawns follow the WXF
//! rules for several on a file: with three, the middle one keeps its file
//! digit (`P+=4`, `P3=4`, `P-=4`); with four or five the foremost and
//! rearmost are `++` and `--` (`++=4`, `P+=4`, `P3=4`, `P-=4`, `--=4`); when
//! two files hold tandem pawns, the letter is replaced by the file
//! (`3+=4`, `33=4`, `7-=6`). Reading also accepts the sign before the letter
//! (`+R=3`, `-P+1`), lower case, `.` for `=`, letters `G`/`B`/`N`/`S` for
//! king/elephant/horse/pawn, and a plain file digit for a tandem piece when
//! that names a single legal move.
//!
//! Writing is one function ([`wxf`]); reading ([`parse_wxf`]) matches the
//! input against what [`wxf`] writes for every legal move, so the two cannot
//! disagree.

use std::fmt;

use super::board::{Color, Kind, Move, Piece, Position, Square};

/// WXF file number (1–9 from the mover's right) of a file 0–8 (a–i).
fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// How far forward (towards the enemy) a rank is for `color`.
fn forwardness(color: Color, rank: u8) -> i8 {
    match color {
        Color::Red => rank as i8,
        Color::Black => 9 - rank as i8,
    }
}

/// The two-character locator of the piece on `from` (letter and file, or the
/// tandem forms described in the module docs), and its plain form
/// (letter and file digit).
fn locator(pos: &Position, from: Square) -> (String, String) {
    let piece = pos.piece_at(from).expect("a piece on the from point");
    let (color, kind) = (piece.color, piece.kind);
    let letter = kind.wxf_letter();
    let num = file_number(color, from.file());
    let plain = format!("{letter}{num}");
    // Same-kind pieces on this file, front (nearest the enemy) first.
    let on_file = |file: u8| {
        let mut v: Vec<Square> = pos
            .pieces()
            .filter(|(s, p)| p.color == color && p.kind == kind && s.file() == file)
            .map(|(s, _)| s)
            .collect();
        v.sort_by_key(|s| -forwardness(color, s.rank()));
        v
    };
    let here = on_file(from.file());
    if here.len() < 2 {
        return (plain.clone(), plain);
    }
    let idx = here
        .iter()
        .position(|&s| s == from)
        .expect("from is on its file");
    let n = here.len();
    if kind != Kind::Pawn {
        let sign = if idx == 0 { '+' } else { '-' };
        return (format!("{letter}{sign}"), plain);
    }
    // Pawns: the sign (or the middle pawn's file digit) in the second place.
    let second = match (n, idx) {
        (3, 1) | (5, 2) => char::from(b'0' + num),
        (_, 0) if n <= 3 => '+',
        (_, i) if n <= 3 && i == n - 1 => '-',
        (_, 0) | (_, 1) => '+',
        _ => '-',
    };
    let tandem_files = (0..9u8).filter(|&f| on_file(f).len() >= 2).count();
    if tandem_files >= 2 {
        return (format!("{}{second}", char::from(b'0' + num)), plain);
    }
    let first = match (n, idx) {
        (4 | 5, 0) => '+',
        (4, 3) | (5, 4) => '-',
        _ => 'P',
    };
    (format!("{first}{second}"), plain)
}

/// The direction and argument of a move: `+3`, `-1`, `=5`.
fn motion(color: Color, kind: Kind, m: Move) -> String {
    let (from, to) = (m.from(), m.to());
    let ahead = forwardness(color, to.rank()) - forwardness(color, from.rank());
    let diagonal = matches!(kind, Kind::Horse | Kind::Advisor | Kind::Elephant);
    let to_file = file_number(color, to.file());
    if ahead == 0 {
        format!("={to_file}")
    } else {
        let sign = if ahead > 0 { '+' } else { '-' };
        if diagonal {
            format!("{sign}{to_file}")
        } else {
            format!("{sign}{}", ahead.unsigned_abs())
        }
    }
}

/// The WXF notation of the legal move `m` in `pos`, e.g. `C2=5`, `R+=3`.
pub fn wxf(pos: &Position, m: Move) -> String {
    let piece = pos.piece_at(m.from()).expect("a piece on the from point");
    let (loc, _) = locator(pos, m.from());
    format!("{loc}{}", motion(piece.color, piece.kind, m))
}

/// The plain WXF spelling (file digit even for a tandem piece), which
/// [`parse_wxf`] also accepts when it names a single legal move.
fn wxf_plain(pos: &Position, m: Move) -> String {
    let piece = pos.piece_at(m.from()).expect("a piece on the from point");
    let (_, plain) = locator(pos, m.from());
    format!("{plain}{}", motion(piece.color, piece.kind, m))
}

/// Normalises a WXF token for matching: upper case, `.` → `=`, Unicode
/// minus, letter aliases, sign-first tandem forms (`+R=3` → `R+=3`).
fn normalize_wxf(s: &str) -> String {
    let mut v: Vec<char> = s
        .trim()
        .chars()
        .map(|c| match c {
            '.' => '=',
            '−' | '–' => '-',
            c => c.to_ascii_uppercase(),
        })
        .map(|c| match c {
            'G' => 'K',
            'B' | 'M' => 'E',
            'N' => 'H',
            'S' => 'P',
            c => c,
        })
        .collect();
    if v.len() == 4 && matches!(v[0], '+' | '-') && v[1].is_ascii_alphabetic() {
        v.swap(0, 1);
    }
    v.into_iter().collect()
}

/// Why a move token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("'{0}' is a move in neither UCCI (like h2e2) nor WXF notation (like C2=5)")]
    NotAMove(String),
    /// Where only UCCI coordinates are read (the UCI engine's moves).
    #[error("'{0}' is not a UCCI move (from and to point, files a-i, ranks 0-9: like h2e2)")]
    NotUcci(String),
    #[error("illegal move {token}: {why}")]
    Illegal { token: String, why: Illegality },
    #[error("'{token}' could be {a} or {b}")]
    Ambiguous { token: String, a: String, b: String },
}

/// Whether a token looks like UCCI/ICCS coordinates (`h2e2`, `H2-E2`).
fn ucci_squares(token: &str) -> Option<(Square, Square)> {
    let t: String = token.chars().filter(|&c| c != '-').collect();
    if t.len() != 4 || !t.is_ascii() {
        return None;
    }
    let from: Square = t[0..2].parse().ok()?;
    let to: Square = t[2..4].parse().ok()?;
    Some((from, to))
}

/// Why a move is not legal in a position ([`MoveError::Illegal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegality {
    /// No piece stands on the point the move starts from.
    NoPiece { from: Square },
    /// The piece on `from` belongs to the side not to move (`side` is to move).
    NotYours {
        piece: Piece,
        from: Square,
        side: Color,
    },
    /// The piece cannot go from `from` to `to` (not one of its moves there).
    CannotReach {
        piece: Piece,
        from: Square,
        to: Square,
    },
    /// The move would leave the two kings facing each other on an open file.
    KingsFacing,
    /// `side` is in check and the move does not meet it.
    CheckNotMet { side: Color },
    /// The move would leave `side`'s king in check.
    LeavesCheck { side: Color },
    /// A WXF move names no legal move of `side`.
    NoneWrittenSo { side: Color },
}

impl fmt::Display for Illegality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegality::NoPiece { from } => write!(f, "no piece on {from}"),
            Illegality::NotYours { piece, from, side } => write!(
                f,
                "the {} on {from} is {}'s and it is {} to move",
                piece.kind.name(),
                piece.color.title(),
                side.name()
            ),
            Illegality::CannotReach { piece, from, to } => write!(
                f,
                "the {} {} on {from} cannot move to {to}",
                piece.color.name(),
                piece.kind.name()
            ),
            Illegality::KingsFacing => {
                f.write_str("the two kings would face each other on an open file")
            }
            Illegality::CheckNotMet { side } => {
                write!(f, "{} is in check and this does not meet it", side.title())
            }
            Illegality::LeavesCheck { side } => {
                write!(f, "it would leave the {} king in check", side.name())
            }
            Illegality::NoneWrittenSo { side } => {
                write!(f, "no legal {} move is written so", side.name())
            }
        }
    }
}

/// Why `m` is not legal in `pos`, or `None` when it is.
pub fn illegal_reason(pos: &Position, m: Move) -> Option<Illegality> {
    let side = pos.side_to_move();
    let Some(piece) = pos.piece_at(m.from()) else {
        return Some(Illegality::NoPiece { from: m.from() });
    };
    if piece.color != side {
        return Some(Illegality::NotYours {
            piece,
            from: m.from(),
            side,
        });
    }
    if pos.legal_moves().contains(m) {
        return None;
    }
    if !pos.pseudo_contains(m) {
        return Some(Illegality::CannotReach {
            piece,
            from: m.from(),
            to: m.to(),
        });
    }
    let mut after = pos.clone();
    after.make(m);
    Some(if after.kings_facing() {
        Illegality::KingsFacing
    } else if pos.in_check() {
        Illegality::CheckNotMet { side }
    } else {
        Illegality::LeavesCheck { side }
    })
}

/// Reads a UCCI move, checking that it is legal.
pub fn parse_ucci(pos: &Position, token: &str) -> Result<Move, MoveError> {
    let (from, to) = ucci_squares(token).ok_or_else(|| MoveError::NotUcci(token.to_string()))?;
    let m = Move::new(from, to);
    match illegal_reason(pos, m) {
        None => Ok(m),
        Some(why) => Err(MoveError::Illegal {
            token: token.to_string(),
            why,
        }),
    }
}

/// Whether a token has the shape of a WXF move (so that an unmatched one is
/// reported as illegal rather than as gibberish).
fn wxf_shaped(norm: &str) -> bool {
    let c: Vec<char> = norm.chars().collect();
    c.len() == 4
        && (c[0].is_ascii_digit() || "KAEHRCP+-".contains(c[0]))
        && (c[1].is_ascii_digit() || "+-".contains(c[1]))
        && "+-=".contains(c[2])
        && c[3].is_ascii_digit()
}

/// Reads a WXF move: the legal move whose notation (canonical or plain) it is.
pub fn parse_wxf(pos: &Position, token: &str) -> Result<Move, MoveError> {
    let norm = normalize_wxf(token);
    if !wxf_shaped(&norm) {
        return Err(MoveError::NotAMove(token.to_string()));
    }
    let legal = pos.legal_moves();
    let canonical: Vec<Move> = legal
        .as_slice()
        .iter()
        .copied()
        .filter(|&m| wxf(pos, m) == norm)
        .collect();
    let found = if canonical.is_empty() {
        legal
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| wxf_plain(pos, m) == norm)
            .collect()
    } else {
        canonical
    };
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveError::Illegal {
            token: token.to_string(),
            why: Illegality::NoneWrittenSo {
                side: pos.side_to_move(),
            },
        }),
        [a, b, ..] => Err(MoveError::Ambiguous {
            token: token.to_string(),
            a: format!("{} ({a})", wxf(pos, *a)),
            b: format!("{} ({b})", wxf(pos, *b)),
        }),
    }
}

/// Reads a move in either notation: UCCI first (its shape cannot be WXF).
pub fn parse_move(pos: &Position, token: &str) -> Result<Move, MoveError> {
    if ucci_squares(token).is_some() {
        parse_ucci(pos, token)
    } else {
        parse_wxf(pos, token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each reason a move is illegal is its own variant, with the pieces and points it
    /// names; the message is built from them.
    #[test]
    fn each_illegality_is_its_own_variant() {
        let why = |fen: &str, token: &str| {
            let pos = Position::from_fen(fen).unwrap();
            match parse_move(&pos, token) {
                Err(MoveError::Illegal { why, .. }) => why,
                other => panic!("{token}: {other:?}"),
            }
        };
        let start = crate::START_FEN;
        let e5 = Square::new(4, 5).unwrap();
        assert_eq!(why(start, "e5e6"), Illegality::NoPiece { from: e5 });
        assert!(matches!(
            why(start, "b9c7"),
            Illegality::NotYours {
                piece: Piece {
                    color: Color::Black,
                    kind: Kind::Horse
                },
                side: Color::Red,
                ..
            }
        ));
        let e = why(start, "h2h8");
        assert!(
            matches!(
                e,
                Illegality::CannotReach {
                    piece: Piece {
                        kind: Kind::Cannon,
                        ..
                    },
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(e.to_string(), "the red cannon on h2 cannot move to h8");
        assert_eq!(
            why("4k4/9/9/9/4N4/9/9/9/9/4K4 w", "e5d7"),
            Illegality::KingsFacing
        );
        assert_eq!(
            why("3kr4/9/9/9/9/9/9/9/R8/4K4 w", "a1a2"),
            Illegality::CheckNotMet { side: Color::Red }
        );
        let e = why("3kr4/9/9/9/9/9/9/9/4R4/4K4 w", "e1d1");
        assert_eq!(e, Illegality::LeavesCheck { side: Color::Red });
        assert_eq!(e.to_string(), "it would leave the red king in check");
        assert_eq!(
            why(start, "R2+1"),
            Illegality::NoneWrittenSo { side: Color::Red }
        );
    }
}
