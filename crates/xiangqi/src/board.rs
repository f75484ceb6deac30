//! The xiangqi position: pieces on the 9×10 points, side to move, Zobrist
//! key; WXF/UCCI FEN in and out; `make`/`unmake`.
//!
//! # Layout (chosen for move-generation speed)
//!
//! A padded mailbox of 16×16 cells. Point (file `f`, rank `r`), files a–i =
//! 0–8 and ranks 0–9 with 0 = Red's back rank, lives in cell
//! `(r + 3) * 16 + (f + 3)`:
//!
//! ```text
//!   cell = 0b rrrr ffff      r = rank + 3 (3..=12), f = file + 3 (3..=11)
//!   +16 = one rank towards Black, +1 = one file towards i
//! ```
//!
//! Three rings of `OFF` cells around the board absorb a horse's or an
//! elephant's reach, so move generation never tests coordinates: an `OFF`
//! cell is neither empty nor a piece of either side.
//!
//! Each cell holds a piece *id* (0 = empty): `16 + slot` for Red, `32 + slot`
//! for Black, where the slot fixes the kind (0 king, 1–2 advisors, 3–4
//! elephants, 5–6 horses, 7–8 rooks, 9–10 cannons, 11–15 pawns). `squares[id]`
//! is the id's cell (0 once captured), so each kind's pieces are found without
//! scanning the board. `rank_bits`/`file_bits` mirror the occupancy of every
//! rank and file; the tables in [`super::movegen`] turn them into the nearest
//! and second-nearest piece in each direction (rook and cannon attacks, the
//! flying general) with one lookup.

use std::fmt;
use std::str::FromStr;

use super::zobrist;

/// Red moves first; Black's pieces start on ranks 5–9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Red,
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// `red` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// `Red` or `Black`.
    pub fn title(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }

    /// The id bit of this side's pieces (0x10 Red, 0x20 Black).
    #[inline]
    pub(crate) fn flag(self) -> u8 {
        match self {
            Color::Red => 0x10,
            Color::Black => 0x20,
        }
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    King = 1,
    Advisor = 2,
    Elephant = 3,
    Horse = 4,
    Rook = 5,
    Cannon = 6,
    Pawn = 7,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];

    /// WXF letter: K A E H R C P.
    pub fn wxf_letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'E',
            Kind::Horse => 'H',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// FEN letter (Red's, upper case): K A B N R C P.
    pub fn fen_letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// English name as the WXF rules use it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "king",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Rook => "rook",
            Kind::Cannon => "cannon",
            Kind::Pawn => "pawn",
        }
    }

    /// The first slot of this kind and how many a side may have.
    fn slots(self) -> (u8, u8) {
        match self {
            Kind::King => (0, 1),
            Kind::Advisor => (1, 2),
            Kind::Elephant => (3, 2),
            Kind::Horse => (5, 2),
            Kind::Rook => (7, 2),
            Kind::Cannon => (9, 2),
            Kind::Pawn => (11, 5),
        }
    }
}

/// A piece: side and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    pub fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// FEN letter: upper case for Red.
    pub fn fen_char(self) -> char {
        let c = self.kind.fen_letter();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
}

/// Piece code used by the Zobrist table: kind (1–7), plus 8 for Black.
#[inline]
pub(crate) const fn code(color: Color, kind: Kind) -> u8 {
    kind as u8 | ((color as u8) << 3)
}

/// Kind of each slot.
pub(crate) const SLOT_KIND: [Kind; 16] = [
    Kind::King,
    Kind::Advisor,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Elephant,
    Kind::Horse,
    Kind::Horse,
    Kind::Rook,
    Kind::Rook,
    Kind::Cannon,
    Kind::Cannon,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
];

const fn build_id_code() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut slot = 0;
    while slot < 16 {
        t[16 + slot] = code(Color::Red, SLOT_KIND[slot]);
        t[32 + slot] = code(Color::Black, SLOT_KIND[slot]);
        slot += 1;
    }
    t
}

/// `ID_CODE[cell]`: piece code of the id in a cell (0 for empty and `OFF`).
pub(crate) static ID_CODE: [u8; 256] = build_id_code();

/// Cell value outside the board.
pub(crate) const OFF: u8 = 0x40;

/// Padded cell of a point.
#[inline]
pub(crate) const fn cell(file: u8, rank: u8) -> u8 {
    ((rank + 3) << 4) | (file + 3)
}

/// File (0–8) of a cell on the board.
#[inline]
pub(crate) const fn file_of(c: u8) -> u8 {
    (c & 15) - 3
}

/// Rank (0–9) of a cell on the board.
#[inline]
pub(crate) const fn rank_of(c: u8) -> u8 {
    (c >> 4) - 3
}

const fn build_in_board() -> [bool; 256] {
    let mut t = [false; 256];
    let mut r = 0;
    while r < 10 {
        let mut f = 0;
        while f < 9 {
            t[cell(f, r) as usize] = true;
            f += 1;
        }
        r += 1;
    }
    t
}

/// Whether a cell is one of the 90 points.
pub(crate) static IN_BOARD: [bool; 256] = build_in_board();

const fn build_palace() -> [[bool; 256]; 2] {
    let mut t = [[false; 256]; 2];
    let mut f = 3;
    while f <= 5 {
        let mut r = 0;
        while r <= 2 {
            t[0][cell(f, r) as usize] = true;
            t[1][cell(f, 9 - r) as usize] = true;
            r += 1;
        }
        f += 1;
    }
    t
}

/// `PALACE[side][cell]`: the nine points of each palace.
pub(crate) static PALACE: [[bool; 256]; 2] = build_palace();

const fn build_own_half() -> [[bool; 256]; 2] {
    let mut t = [[false; 256]; 2];
    let mut r = 0;
    while r < 5 {
        let mut f = 0;
        while f < 9 {
            t[0][cell(f, r) as usize] = true;
            t[1][cell(f, 9 - r) as usize] = true;
            f += 1;
        }
        r += 1;
    }
    t
}

/// `OWN_HALF[side][cell]`: the side's half of the board, ranks 0–4 for Red and
/// 5–9 for Black. Elephants stay in it; a pawn outside it has crossed the river.
pub(crate) static OWN_HALF: [[bool; 256]; 2] = build_own_half();

/// A point, `a0` (Red's left corner) to `i9`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(crate) u8);

impl Square {
    /// The point on file `file` (0 = a … 8 = i) and rank `rank` (0–9).
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(cell(file, rank)))
        } else {
            None
        }
    }

    pub fn file(self) -> u8 {
        file_of(self.0)
    }

    pub fn rank(self) -> u8 {
        rank_of(self.0)
    }

    /// 0–89, rank by rank from a0.
    pub fn index(self) -> usize {
        self.rank() as usize * 9 + self.file() as usize
    }

    /// Every point, a0, b0, … i9.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..10u8).flat_map(|r| (0..9u8).map(move |f| Square(cell(f, r))))
    }

    /// Whether a pawn of `color` standing here has crossed the river.
    pub fn across_river(self, color: Color) -> bool {
        !OWN_HALF[color as usize][self.0 as usize]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a point's name (`a0` to `i9`): shakmaty's `ParseSquareError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid point name (a file a-i and a rank 0-9, as e4)")]
pub struct ParseSquareError;

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(ParseSquareError);
        }
        let f = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'0');
        Square::new(f, r).ok_or(ParseSquareError)
    }
}

/// A move from one point to another (captures included).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
}

impl Move {
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from: from.0,
            to: to.0,
        }
    }

    pub fn from(self) -> Square {
        Square(self.from)
    }

    pub fn to(self) -> Square {
        Square(self.to)
    }

    /// UCCI coordinates, e.g. `h2e2`.
    pub fn ucci(self) -> String {
        format!("{}{}", self.from(), self.to())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What `make` needs to undo a move.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    pub(crate) captured: u8,
    pub(crate) key: u64,
}

impl Undo {
    /// The captured piece, if any.
    pub fn captured(self) -> Option<Piece> {
        piece_of_id(self.captured)
    }
}

/// The piece an id stands for.
#[inline]
pub(crate) fn piece_of_id(id: u8) -> Option<Piece> {
    match id & 0x30 {
        0x10 => Some(Piece::new(Color::Red, SLOT_KIND[(id & 15) as usize])),
        0x20 => Some(Piece::new(Color::Black, SLOT_KIND[(id & 15) as usize])),
        _ => None,
    }
}

/// A xiangqi position.
#[derive(Clone)]
pub struct Position {
    pub(crate) cells: [u8; 256],
    /// Cell of each id (index 16–47); 0 when not on the board.
    pub(crate) squares: [u8; 48],
    /// Bit `f` of `rank_bits[r]`: point (f, r) is occupied.
    pub(crate) rank_bits: [u16; 10],
    /// Bit `r` of `file_bits[f]`: point (f, r) is occupied.
    pub(crate) file_bits: [u16; 9],
    pub(crate) side: Color,
    pub(crate) key: u64,
}

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was refused: one variant per mistake, each with what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The text holds no field at all.
    Empty,
    /// The side to move is not `w`, `r`, `b` (either case).
    SideToMove { found: String },
    /// A seventh field (`extra`).
    TooManyFields { extra: String },
    /// The board does not have ten ranks.
    RankCount { count: usize },
    /// A rank counts empty points with a `0`.
    ZeroCount { rank: u8 },
    /// A rank runs past its ninth point.
    RankOverflow { rank: u8 },
    /// A rank holds a letter that names no piece.
    UnknownLetter { rank: u8, found: char },
    /// A piece stands on a point no game can bring it to.
    Misplaced {
        piece: Piece,
        square: Square,
        why: Misplacement,
    },
    /// More pieces of a kind than a side starts with (`count`).
    TooMany { piece: Piece, count: u8 },
    /// A rank has fewer than nine points.
    RankLength { rank: u8, points: u32 },
    /// A side has no king.
    NoKing { color: Color },
    /// The side not to move is in check (`side` is to move).
    OppositeCheck { side: Color },
    /// A clock (the fifth or sixth field) is not written as a decimal number (`-1`).
    ClockNotANumber { clock: FenClock, found: String },
    /// A clock is larger than 2^32 − 1, the largest the chess FEN reader takes.
    ClockTooLarge { clock: FenClock, found: String },
}

/// The two clocks of a FEN (its fifth and sixth fields), named in its messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenClock {
    /// The fifth field: plies since the last capture.
    Halfmove,
    /// The sixth field: the number of the move to be played.
    Fullmove,
}

impl fmt::Display for FenClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenClock::Halfmove => "halfmove clock",
            FenClock::Fullmove => "fullmove number",
        })
    }
}

/// A clock field: decimal digits up to 2^32 − 1, as the chess FEN reader takes them
/// (threefold-rules' `fen`; this crate depends on no other of ours).
fn check_clock(text: &str, clock: FenClock) -> Result<(), FenError> {
    let found = || cut(text);
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::ClockNotANumber {
            clock,
            found: found(),
        });
    }
    if text.parse::<u32>().is_err() {
        return Err(FenError::ClockTooLarge {
            clock,
            found: found(),
        });
    }
    Ok(())
}

/// A field of a refused FEN as its message quotes it: whole up to [`QUOTED_CHARS`]
/// characters, else its start, `…` and its size (a FEN of 120 kB must not fill the screen or
/// the log), as the chess FEN reader quotes (threefold-rules' `fen`).
fn cut(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((i, _)) => format!("{}… ({} bytes)", &text[..i], text.len()),
        None => text.to_string(),
    }
}

/// The longest text a FEN message quotes.
const QUOTED_CHARS: usize = 60;

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.reason())
    }
}

impl FenError {
    /// What is wrong, without the "bad FEN: " before it: for a message that already says
    /// it is about a FEN (the trainer's "Invalid FEN: …", the same words for both games).
    pub fn reason(&self) -> impl fmt::Display + '_ {
        Reason(self)
    }
}

/// [`FenError::reason`]'s words.
struct Reason<'a>(&'a FenError);

impl fmt::Display for Reason<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::SideToMove { found } => {
                write!(f, "side to move '{found}' (expected w or b)")
            }
            FenError::TooManyFields { extra } => {
                write!(f, "'{extra}' is one field too many (a FEN has at most six)")
            }
            FenError::RankCount { count } => write!(f, "{count} ranks (expected 10)"),
            FenError::ZeroCount { rank } => {
                write!(f, "rank {rank}: '0' is not a count of empty points")
            }
            FenError::RankOverflow { rank } => write!(f, "rank {rank} has more than 9 points"),
            FenError::UnknownLetter { rank, found } => {
                write!(f, "rank {rank}: unknown piece letter '{found}'")
            }
            FenError::Misplaced { piece, square, why } => write!(
                f,
                "{} {} on {square}: {why}",
                piece.color.name(),
                piece.kind.name()
            ),
            FenError::TooMany { piece, count } => write!(
                f,
                "more than {count} {} {}{}",
                piece.color.name(),
                piece.kind.name(),
                if *count > 1 { "s" } else { "" }
            ),
            FenError::RankLength { rank, points } => {
                write!(f, "rank {rank} has {points} points (expected 9)")
            }
            FenError::NoKing { color } => write!(f, "no {} king", color.name()),
            FenError::OppositeCheck { side } => write!(
                f,
                "{} is in check but it is {} to move",
                side.other().title(),
                side.name()
            ),
            FenError::ClockNotANumber { clock, found } => {
                write!(f, "{clock} '{found}' is not a whole number")
            }
            FenError::ClockTooLarge { clock, found } => {
                write!(f, "{clock} {found} is larger than {} (2^32 - 1)", u32::MAX)
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Why a piece cannot stand on a point ([`FenError::Misplaced`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misplacement {
    /// A king outside its palace.
    OutsidePalace,
    /// An advisor off the five diagonal points of its palace.
    NotAdvisorPoint,
    /// An elephant off the seven points it can reach on its side of the river.
    NotElephantPoint,
    /// A pawn on a rank behind its start.
    BehindPawnStart,
    /// A pawn that has not crossed the river off the files it starts on.
    PawnOffFile,
}

impl Misplacement {
    /// Whether the placement breaks the rules of the board — a king or advisor outside its
    /// points in the palace, an elephant off its points on its side of the river: the piece
    /// could not move by its rules from there, and the FEN reader refuses it. The pawn
    /// placements only no game can reach (a pawn behind its start, or off its files before
    /// the river: the WXF manual's diagrams 71–75 have one); the pawn still moves by its
    /// rules, so the reader takes the position and [`Position::unreachable`] names them.
    pub fn breaks_the_rules(self) -> bool {
        !matches!(
            self,
            Misplacement::BehindPawnStart | Misplacement::PawnOffFile
        )
    }
}

impl fmt::Display for Misplacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Misplacement::OutsidePalace => "outside the palace",
            Misplacement::NotAdvisorPoint => "not an advisor point",
            Misplacement::NotElephantPoint => "not an elephant point",
            Misplacement::BehindPawnStart => "behind the pawns' start",
            Misplacement::PawnOffFile => "off the files a, c, e, g, i before crossing the river",
        })
    }
}

impl Position {
    /// The standard start position.
    pub fn start() -> Position {
        Position::from_fen(START_FEN).expect("start FEN is valid")
    }

    fn empty(side: Color) -> Position {
        let mut cells = [OFF; 256];
        for c in 0..256 {
            if IN_BOARD[c] {
                cells[c] = 0;
            }
        }
        Position {
            cells,
            squares: [0; 48],
            rank_bits: [0; 10],
            file_bits: [0; 9],
            side,
            key: 0,
        }
    }

    /// Parses a WXF/UCCI FEN: Black's back rank (rank 9) first, letters
    /// `r n b a k c p` (also `h` horse and `e` elephant), upper case Red, then
    /// the side to move (`w`/`r` Red, `b` Black). The four trailing fields of
    /// the UCCI form (`- - 0 1`) are optional; the clocks among them must be decimal numbers
    /// up to 2^32 − 1 (their values are not kept), and a seventh field is an
    /// error, as in the chess FEN reader. The placement must keep the rules of the board (one
    /// king each in its palace, advisors and elephants on their points, at most the starting
    /// number of each kind) and the side not to move must not be in check. A pawn that no
    /// game could have brought where it stands (behind its start, or off its files before the
    /// river) is taken as given, as Fairy-Stockfish takes it: [`Position::unreachable`] lists
    /// such pawns and [`Position::unreachable_warning`] says it in one line, for a reader to
    /// show.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let Some(board) = fields.next() else {
            return Err(FenError::Empty);
        };
        let side = match fields.next() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(s) => {
                return Err(FenError::SideToMove { found: cut(s) });
            }
        };
        if let Some(extra) = fen.split_whitespace().nth(6) {
            return Err(FenError::TooManyFields { extra: cut(extra) });
        }
        let mut clocks = fen.split_whitespace().skip(4);
        for clock in [FenClock::Halfmove, FenClock::Fullmove] {
            if let Some(text) = clocks.next() {
                check_clock(text, clock)?;
            }
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 10 {
            return Err(FenError::RankCount { count: rows.len() });
        }
        let mut pos = Position::empty(side);
        let mut next_slot = [[0u8; 8]; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i as u8;
            // Counted wide and checked at every step: a run of digits must
            // not wrap around (`99999999999999999999999999997k5` in a u8).
            let mut file = 0u32;
            let too_many = || Err(FenError::RankOverflow { rank });
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::ZeroCount { rank });
                    }
                    file += d;
                    if file > 9 {
                        return too_many();
                    }
                    continue;
                }
                let color = if ch.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                };
                let kind = match ch.to_ascii_lowercase() {
                    'k' => Kind::King,
                    'a' => Kind::Advisor,
                    'b' | 'e' => Kind::Elephant,
                    'n' | 'h' => Kind::Horse,
                    'r' => Kind::Rook,
                    'c' => Kind::Cannon,
                    'p' => Kind::Pawn,
                    _ => return Err(FenError::UnknownLetter { rank, found: ch }),
                };
                if file >= 9 {
                    return too_many();
                }
                let sq = Square(cell(file as u8, rank));
                let piece = Piece::new(color, kind);
                if let Some(why) = misplaced(piece, sq).filter(|w| w.breaks_the_rules()) {
                    return Err(FenError::Misplaced {
                        piece,
                        square: sq,
                        why,
                    });
                }
                let (first, count) = kind.slots();
                let used = &mut next_slot[color as usize][kind as usize];
                if *used >= count {
                    return Err(FenError::TooMany { piece, count });
                }
                let id = color.flag() + first + *used;
                *used += 1;
                pos.put(id, sq.0);
                file += 1;
            }
            if file != 9 {
                return Err(FenError::RankLength { rank, points: file });
            }
        }
        for color in [Color::Red, Color::Black] {
            if next_slot[color as usize][Kind::King as usize] == 0 {
                return Err(FenError::NoKing { color });
            }
        }
        pos.key = pos.compute_key();
        let them = side.other();
        if pos.king_attacked(pos.king_cell(them), side) {
            return Err(FenError::OppositeCheck { side });
        }
        Ok(pos)
    }

    /// The pieces no game could have brought where they stand (pawns behind their start or
    /// off their files before the river; see [`Misplacement::breaks_the_rules`]), with why,
    /// Red's first, by rank and file.
    pub fn unreachable(&self) -> Vec<(Piece, Square, Misplacement)> {
        let mut out = Vec::new();
        for rank in 0..10 {
            for file in 0..9 {
                let sq = Square(cell(file, rank));
                if let Some(p) = self.piece_at(sq)
                    && let Some(why) = misplaced(p, sq)
                {
                    out.push((p, sq, why));
                }
            }
        }
        out.sort_by_key(|(p, _, _)| p.color as u8);
        out
    }

    /// One line for a reader to show when [`Position::unreachable`] finds anything: which
    /// pieces, and that the position is judged as given.
    pub fn unreachable_warning(&self) -> Option<String> {
        let list = self.unreachable();
        if list.is_empty() {
            return None;
        }
        let each: Vec<String> = list
            .iter()
            .map(|(p, sq, why)| {
                format!("the {} {} on {sq} is {why}", p.color.name(), p.kind.name())
            })
            .collect();
        Some(format!(
            "no game reaches this position ({}); it is taken as given",
            each.join("; ")
        ))
    }

    /// Places id on an empty cell (FEN setup).
    fn put(&mut self, id: u8, c: u8) {
        self.cells[c as usize] = id;
        self.squares[id as usize] = c;
        self.rank_bits[rank_of(c) as usize] |= 1 << file_of(c);
        self.file_bits[file_of(c) as usize] |= 1 << rank_of(c);
    }

    /// The FEN of this position (letters `r n b a k c p`, `w`/`b`).
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.piece_at(Square(cell(file, rank))) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(match self.side {
            Color::Red => " w - - 0 1",
            Color::Black => " b - - 0 1",
        });
        s
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key (pieces and side to move).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for (id, &c) in self.squares.iter().enumerate().skip(16) {
            if c != 0 {
                k ^= zobrist::PIECE[ID_CODE[id] as usize][c as usize];
            }
        }
        if self.side == Color::Black {
            k ^= zobrist::BLACK_TO_MOVE;
        }
        k
    }

    /// The piece on a point.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        piece_of_id(self.cells[sq.0 as usize])
    }

    /// Every piece with its point.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (16..48usize).filter_map(move |id| {
            let c = self.squares[id];
            (c != 0).then(|| (Square(c), piece_of_id(id as u8).expect("valid id")))
        })
    }

    /// The occupied points of rank `rank` (0–9): bit `f` set when (`f`, `rank`) holds a
    /// piece (an evaluation counts a rook's reach with it instead of walking the points).
    #[inline]
    pub fn rank_occupancy(&self, rank: u8) -> u16 {
        self.rank_bits[rank as usize]
    }

    /// The occupied points of file `file` (0–8): bit `r` set when (`file`, `r`) holds a piece.
    #[inline]
    pub fn file_occupancy(&self, file: u8) -> u16 {
        self.file_bits[file as usize]
    }

    /// Cell of a side's king.
    #[inline]
    pub(crate) fn king_cell(&self, color: Color) -> u8 {
        self.squares[color.flag() as usize]
    }

    /// The point of a side's king.
    pub fn king(&self, color: Color) -> Square {
        Square(self.king_cell(color))
    }

    /// Whether the side to move is in check (flying general included).
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.king_cell(self.side), self.side.other())
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.cells[m.to as usize] != 0
    }

    /// Whether the move is a pawn's step towards the enemy (irreversible).
    pub fn is_pawn_advance(&self, m: Move) -> bool {
        match piece_of_id(self.cells[m.from as usize]) {
            Some(Piece {
                kind: Kind::Pawn, ..
            }) => rank_of(m.from) != rank_of(m.to),
            _ => false,
        }
    }

    /// Moves the pieces of `m` (which must be pseudo-legal) without touching
    /// the key or the side to move; returns the captured id.
    #[inline]
    pub(crate) fn move_pieces(&mut self, m: Move) -> u8 {
        let (from, to) = (m.from as usize, m.to as usize);
        let id = self.cells[from];
        let cap = self.cells[to];
        self.cells[to] = id;
        self.cells[from] = 0;
        self.squares[id as usize] = m.to;
        if cap != 0 {
            self.squares[cap as usize] = 0;
        } else {
            self.rank_bits[rank_of(m.to) as usize] |= 1 << file_of(m.to);
            self.file_bits[file_of(m.to) as usize] |= 1 << rank_of(m.to);
        }
        self.rank_bits[rank_of(m.from) as usize] &= !(1 << file_of(m.from));
        self.file_bits[file_of(m.from) as usize] &= !(1 << rank_of(m.from));
        cap
    }

    /// Undoes [`Position::move_pieces`].
    #[inline]
    pub(crate) fn unmove_pieces(&mut self, m: Move, cap: u8) {
        let (from, to) = (m.from as usize, m.to as usize);
        let id = self.cells[to];
        self.cells[from] = id;
        self.cells[to] = cap;
        self.squares[id as usize] = m.from;
        if cap != 0 {
            self.squares[cap as usize] = m.to;
        } else {
            self.rank_bits[rank_of(m.to) as usize] &= !(1 << file_of(m.to));
            self.file_bits[file_of(m.to) as usize] &= !(1 << rank_of(m.to));
        }
        self.rank_bits[rank_of(m.from) as usize] |= 1 << file_of(m.from);
        self.file_bits[file_of(m.from) as usize] |= 1 << rank_of(m.from);
    }

    /// Plays a legal (or at least pseudo-legal) move.
    #[inline]
    pub fn make(&mut self, m: Move) -> Undo {
        let key = self.key;
        let id = self.cells[m.from as usize];
        let code = ID_CODE[id as usize] as usize;
        let mut k = key
            ^ zobrist::PIECE[code][m.from as usize]
            ^ zobrist::PIECE[code][m.to as usize]
            ^ zobrist::BLACK_TO_MOVE;
        let cap = self.move_pieces(m);
        if cap != 0 {
            k ^= zobrist::PIECE[ID_CODE[cap as usize] as usize][m.to as usize];
        }
        self.key = k;
        self.side = self.side.other();
        Undo { captured: cap, key }
    }

    /// Takes back a move played by [`Position::make`].
    #[inline]
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        self.unmove_pieces(m, undo.captured);
        self.side = self.side.other();
        self.key = undo.key;
    }

    /// The key of the position after `m` (pseudo-legal), without making the move: what
    /// [`Position::make`] would set (a search prefetches the table's slot with it).
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let id = self.cells[m.from as usize];
        let code = ID_CODE[id as usize] as usize;
        let mut k = self.key
            ^ zobrist::PIECE[code][m.from as usize]
            ^ zobrist::PIECE[code][m.to as usize]
            ^ zobrist::BLACK_TO_MOVE;
        let cap = self.cells[m.to as usize];
        if cap != 0 {
            k ^= zobrist::PIECE[ID_CODE[cap as usize] as usize][m.to as usize];
        }
        k
    }

    /// The position with the other side to move and nothing else changed
    /// (a "null move"): how the judge asks what the side that just moved
    /// threatens.
    pub fn with_side_flipped(&self) -> Position {
        let mut p = self.clone();
        p.side = p.side.other();
        p.key ^= zobrist::BLACK_TO_MOVE;
        p
    }
}

/// Two positions are equal when the same pieces stand on the same points
/// with the same side to move (which slot holds which of two like pieces
/// does not matter).
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.side == other.side
            && self
                .cells
                .iter()
                .zip(&other.cells)
                .all(|(&a, &b)| ID_CODE[a as usize] == ID_CODE[b as usize])
    }
}

impl Eq for Position {}

/// Why a piece cannot stand on a point in any game, if it cannot.
fn misplaced(p: Piece, sq: Square) -> Option<Misplacement> {
    let (f, r) = (sq.file(), sq.rank());
    // Ranks counted from the piece's own back rank.
    let own_r = match p.color {
        Color::Red => r,
        Color::Black => 9 - r,
    };
    match p.kind {
        Kind::King if !PALACE[p.color as usize][sq.0 as usize] => Some(Misplacement::OutsidePalace),
        Kind::Advisor if !(PALACE[p.color as usize][sq.0 as usize] && (f + own_r) % 2 == 1) => {
            Some(Misplacement::NotAdvisorPoint)
        }
        Kind::Elephant
            if !(own_r <= 4 && own_r % 2 == 0 && f % 2 == 0 && (f / 2 + own_r / 2) % 2 == 1) =>
        {
            Some(Misplacement::NotElephantPoint)
        }
        Kind::Pawn if own_r < 3 => Some(Misplacement::BehindPawnStart),
        Kind::Pawn if own_r <= 4 && f % 2 == 1 => Some(Misplacement::PawnOffFile),
        _ => None,
    }
}

impl fmt::Display for Position {
    /// The board as text, Black at the top, with file letters and rank digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                let c = self
                    .piece_at(Square(cell(file, rank)))
                    .map_or('.', Piece::fen_char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{} to move", self.side.title())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pawn no game could have brought where it stands is taken, with one line that says
    /// so (the WXF manual's diagrams 71–75 have a pawn behind its start); a piece that breaks
    /// the rules of the board is still refused.
    /// The clocks are read as the chess FEN reader reads them: decimal, at most 2^32 − 1
    /// (`99999999999999999999` and `-1 -1` were taken); a refused field is quoted cut.
    #[test]
    fn clocks_are_whole_numbers_up_to_2_pow_32_minus_1() {
        let board = "3k5/9/9/9/9/9/9/9/9/4K4 w - -";
        let fen = |clocks: &str| Position::from_fen(&format!("{board} {clocks}"));
        assert!(fen("4294967295 4294967295").is_ok());
        assert!(fen("0").is_ok());
        assert_eq!(
            fen("99999999999999999999 1").unwrap_err(),
            FenError::ClockTooLarge {
                clock: FenClock::Halfmove,
                found: "99999999999999999999".into()
            }
        );
        assert_eq!(
            fen("0 4294967296").unwrap_err().to_string(),
            "bad FEN: fullmove number 4294967296 is larger than 4294967295 (2^32 - 1)"
        );
        assert_eq!(
            fen("-1 -1").unwrap_err().to_string(),
            "bad FEN: halfmove clock '-1' is not a whole number"
        );
        let long = "x".repeat(120_000);
        let e = Position::from_fen(&format!("{board} 0 {long}"))
            .unwrap_err()
            .to_string();
        assert!(e.len() < 200, "{e}");
        assert!(
            e.ends_with("… (120000 bytes)' is not a whole number"),
            "{e}"
        );
    }

    /// Red pawns behind their start (ranks 0–2, from Red's side) and before the river off the
    /// files a, c, e, g, i are unreachable; Black's mirrored (the red pawn on a1 and black
    /// pawns on rank 8 among them).
    #[test]
    fn pawns_behind_their_start_are_unreachable() {
        let at = |fen: &str| -> Vec<String> {
            let pos = Position::from_fen(fen).unwrap();
            pos.unreachable()
                .iter()
                .map(|(p, sq, _)| format!("{:?} {sq}", p.color))
                .collect()
        };
        assert_eq!(at("3k5/9/9/9/9/9/9/9/P8/4K4 w"), ["Red a1"]);
        assert_eq!(at("3k5/9/9/9/9/9/9/9/9/P3K4 w"), ["Red a0"]);
        assert_eq!(at("3k5/p1p6/9/9/9/9/9/9/9/4K4 w"), ["Black a8", "Black c8"]);
        assert_eq!(at("3k5/9/9/1p7/9/9/1P7/9/9/4K4 w"), ["Red b3", "Black b6"]);
        assert!(at("3k5/9/9/p8/9/9/P8/9/9/4K4 w").is_empty());
        let w = Position::from_fen("3k5/9/9/9/9/9/9/9/P8/4K4 w")
            .unwrap()
            .unreachable_warning()
            .unwrap();
        assert!(
            w.contains("the red pawn on a1 is behind the pawns' start"),
            "{w}"
        );
    }

    #[test]
    fn unreachable_pawns_are_taken_with_a_warning_and_broken_rules_refused() {
        let start = Position::start();
        assert!(start.unreachable().is_empty());
        assert_eq!(start.unreachable_warning(), None);
        // A red pawn on e1 (behind its start), a black one on b6 (off its files).
        let pos = Position::from_fen("4k4/9/9/1p7/9/9/9/9/4P4/3K5 w").expect("taken");
        let found: Vec<_> = pos
            .unreachable()
            .iter()
            .map(|&(_, sq, why)| (sq.to_string(), why))
            .collect();
        assert_eq!(
            found,
            [
                ("e1".to_string(), Misplacement::BehindPawnStart),
                ("b6".to_string(), Misplacement::PawnOffFile)
            ]
        );
        assert_eq!(
            pos.unreachable_warning().as_deref(),
            Some(
                "no game reaches this position (the red pawn on e1 is behind the pawns' start; \
                 the black pawn on b6 is off the files a, c, e, g, i before crossing the river); \
                 it is taken as given"
            )
        );
        // The pawn moves by its rules: forward only, as it has not crossed the river.
        let moves: Vec<String> = pos
            .legal_moves()
            .as_slice()
            .iter()
            .filter(|m| m.from().to_string() == "e1")
            .map(|m| m.to().to_string())
            .collect();
        assert_eq!(moves, ["e2"]);
        for (fen, why) in [
            ("3k5/9/9/9/9/9/9/9/9/K8 w", Misplacement::OutsidePalace),
            ("3k5/9/9/9/9/9/9/9/9/3KA4 w", Misplacement::NotAdvisorPoint),
            (
                "3k5/9/9/9/2B6/9/9/9/9/3K5 w",
                Misplacement::NotElephantPoint,
            ),
        ] {
            let e = Position::from_fen(fen).unwrap_err();
            assert!(
                matches!(e, FenError::Misplaced { why: w, .. } if w == why),
                "{fen}: {e}"
            );
        }
    }

    /// Each mistake in a FEN is its own variant, carrying what was found; the message
    /// is built from it.
    #[test]
    fn each_fen_mistake_is_its_own_variant() {
        let why = |fen: &str| Position::from_fen(fen).unwrap_err();
        let rest = "9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        assert_eq!(why("  "), FenError::Empty);
        assert!(
            matches!(why(&format!("rnbakabnr/{rest} x")), FenError::SideToMove { ref found } if found == "x")
        );
        assert!(matches!(
            why(&format!("rnbakabnr/{rest} w - - 0 1 7")),
            FenError::TooManyFields { ref extra } if extra == "7"
        ));
        assert_eq!(why(rest), FenError::RankCount { count: 9 });
        assert_eq!(
            why(&format!("rnbakabnr0/{rest}")),
            FenError::ZeroCount { rank: 9 }
        );
        assert_eq!(
            why(&format!("rnbakabnr1/{rest}")),
            FenError::RankOverflow { rank: 9 }
        );
        assert_eq!(
            why(&format!("rnbakabnx/{rest}")),
            FenError::UnknownLetter {
                rank: 9,
                found: 'x'
            }
        );
        assert_eq!(
            why(&format!("rnbakabn/{rest}")),
            FenError::RankLength { rank: 9, points: 8 }
        );
        let e = why(&format!("rnbka1bnr/{rest}"));
        assert!(
            matches!(
                e,
                FenError::Misplaced {
                    piece: Piece {
                        color: Color::Black,
                        kind: Kind::Advisor
                    },
                    why: Misplacement::NotAdvisorPoint,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "bad FEN: black advisor on e9: not an advisor point"
        );
        let e = why("3k5/9/9/9/9/9/9/9/9/3K1K3 w");
        assert!(matches!(e, FenError::TooMany { count: 1, .. }), "{e}");
        assert_eq!(e.to_string(), "bad FEN: more than 1 red king");
        assert_eq!(
            why("9/9/9/9/9/9/9/9/9/4K4 w"),
            FenError::NoKing {
                color: Color::Black
            }
        );
        let e = why("4k4/9/9/9/9/9/9/9/9/3KR4 w");
        assert_eq!(e, FenError::OppositeCheck { side: Color::Red });
        assert_eq!(
            e.to_string(),
            "bad FEN: Black is in check but it is red to move"
        );
    }

    #[test]
    fn a_point_name_is_a_file_and_a_rank() {
        assert_eq!(
            "e4".parse::<Square>().map(|s| s.to_string()),
            Ok("e4".to_string())
        );
        assert_eq!(
            "I9".parse::<Square>().map(|s| s.to_string()),
            Ok("i9".to_string())
        );
        for bad in ["", "e", "j0", "e10", "4e"] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError), "{bad}");
        }
    }
}
