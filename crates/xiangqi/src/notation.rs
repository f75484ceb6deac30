//! Move notation: UCCI coordinates and WXF notation, both ways, and the traditional Chinese
//! notation ([`chinese`]: 炮二平五, 馬8進7).
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
//!
//! **Chinese** ([`chinese`], read by [`parse_chinese`]): the same four parts in
//! characters — piece, file (Red 一–九, Black 1–9), 進/退/平, file or number of ranks — with
//! 前/中/後 (and 二三四五 for four or five pawns) for tandem pieces; its doc says which
//! conventions it follows and why. Which
//! piece a move names, its place among like pieces on its file, and its direction and number
//! are found once (a private `Locator` and the move's direction) and written out by both
//! [`wxf`] and [`chinese`], so the two always name the same piece and motion.

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

/// Which piece a move names: the facts both notations ([`wxf`] and [`chinese`]) are written
/// from, found once here so that the two always name the same piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Locator {
    color: Color,
    kind: Kind,
    /// The file it stands on, 1–9 from the mover's right.
    file: u8,
    /// Its place among the like pieces on its file, 0 = the front one (nearest the enemy).
    index: usize,
    /// How many like pieces stand on its file (1: no tandem).
    count: usize,
    /// Pawns only: two files each hold two or more pawns, so the file must be named too.
    two_files: bool,
}

/// Where a tandem piece stands among the like pieces on its file, as both notations
/// distinguish them (the WXF notation rules, Asian Xiangqi Federation 1980/82, adopted by
/// the WXF: <http://www.wxf.org/xq/computer/wxf_notation.html>).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Alone on its file: the file names it.
    Alone,
    /// The front one of two or three (WXF `+`, 前).
    Front,
    /// The middle one of three, or of five (WXF: its file digit; 中).
    Middle,
    /// The rear one of two or three (WXF `-`, 後).
    Rear,
    /// Four or five pawns: the `n`-th from the front, 1-based (WXF `++`, `P+`, `P3`,
    /// `P-`, `--`; Chinese 一 二 三 四 五).
    Nth(usize),
}

impl Locator {
    fn place(&self) -> Place {
        match (self.count, self.index) {
            (0 | 1, _) => Place::Alone,
            (2 | 3, 0) => Place::Front,
            (3, 1) => Place::Middle,
            (2 | 3, _) => Place::Rear,
            (_, i) => Place::Nth(i + 1),
        }
    }
}

/// The facts that name the piece on `from` ([`Locator`]).
fn locate(pos: &Position, from: Square) -> Locator {
    let piece = pos.piece_at(from).expect("a piece on the from point");
    let (color, kind) = (piece.color, piece.kind);
    // Same-kind pieces on a file, front (nearest the enemy) first.
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
    let index = here
        .iter()
        .position(|&s| s == from)
        .expect("from is on its file");
    let two_files = kind == Kind::Pawn
        && here.len() >= 2
        && (0..9u8).filter(|&f| on_file(f).len() >= 2).count() >= 2;
    Locator {
        color,
        kind,
        file: file_number(color, from.file()),
        index,
        count: here.len(),
        two_files,
    }
}

/// The two-character WXF locator of a piece (letter and file, or the tandem forms described
/// in the module docs), and its plain form (letter and file digit).
fn wxf_locator(loc: &Locator) -> (String, String) {
    let letter = loc.kind.wxf_letter();
    let num = char::from(b'0' + loc.file);
    let plain = format!("{letter}{num}");
    let place = loc.place();
    if loc.kind != Kind::Pawn {
        let sign = match place {
            Place::Alone => return (plain.clone(), plain),
            Place::Front => '+',
            _ => '-',
        };
        return (format!("{letter}{sign}"), plain);
    }
    let n = loc.count;
    // Pawns: the sign (or the middle pawn's file digit) in the second place; for four or
    // five on a file the foremost and rearmost also put a sign in the first.
    let (first, second) = match place {
        Place::Alone => return (plain.clone(), plain),
        Place::Front => ('P', '+'),
        Place::Middle => ('P', num),
        Place::Rear => ('P', '-'),
        Place::Nth(1) => ('+', '+'),
        Place::Nth(2) => ('P', '+'),
        Place::Nth(i) if i == n => ('-', '-'),
        Place::Nth(i) if i == n - 1 => ('P', '-'),
        Place::Nth(_) => ('P', num),
    };
    if loc.two_files {
        return (format!("{num}{second}"), plain);
    }
    (format!("{first}{second}"), plain)
}

/// Which way a move goes, from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    /// Towards the enemy: WXF `+`, 進.
    Advance,
    /// Towards the own side: WXF `-`, 退.
    Retreat,
    /// Along the rank: WXF `=`, 平.
    Traverse,
}

/// The direction of a move and its number: the file arrived on (1–9 from the mover's right)
/// for a traverse and for the diagonal movers (horse, advisor, elephant), else the number of
/// ranks moved. Both notations write this pair.
fn movement(color: Color, kind: Kind, m: Move) -> (Direction, u8) {
    let (from, to) = (m.from(), m.to());
    let ahead = forwardness(color, to.rank()) - forwardness(color, from.rank());
    let diagonal = matches!(kind, Kind::Horse | Kind::Advisor | Kind::Elephant);
    let to_file = file_number(color, to.file());
    let direction = match ahead {
        0 => Direction::Traverse,
        a if a > 0 => Direction::Advance,
        _ => Direction::Retreat,
    };
    if direction == Direction::Traverse || diagonal {
        (direction, to_file)
    } else {
        (direction, ahead.unsigned_abs())
    }
}

/// The direction and argument of a move in WXF: `+3`, `-1`, `=5`.
fn motion(color: Color, kind: Kind, m: Move) -> String {
    let (direction, n) = movement(color, kind, m);
    let sign = match direction {
        Direction::Advance => '+',
        Direction::Retreat => '-',
        Direction::Traverse => '=',
    };
    format!("{sign}{n}")
}

/// The WXF notation of the legal move `m` in `pos`, e.g. `C2=5`, `R+=3`.
pub fn wxf(pos: &Position, m: Move) -> String {
    let loc = locate(pos, m.from());
    let (name, _) = wxf_locator(&loc);
    format!("{name}{}", motion(loc.color, loc.kind, m))
}

/// The plain WXF spelling (file digit even for a tandem piece), which
/// [`parse_wxf`] also accepts when it names a single legal move.
fn wxf_plain(pos: &Position, m: Move) -> String {
    let loc = locate(pos, m.from());
    let (_, plain) = wxf_locator(&loc);
    format!("{plain}{}", motion(loc.color, loc.kind, m))
}

/// Red's numerals for files and numbers of ranks, 1–9.
const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The character of a piece in the traditional notation: the board's characters (Red
/// 帥仕相俥傌炮兵, Black 將士象車馬砲卒).
pub fn chinese_piece(color: Color, kind: Kind) -> char {
    match (color, kind) {
        (Color::Red, Kind::King) => '帥',
        (Color::Red, Kind::Advisor) => '仕',
        (Color::Red, Kind::Elephant) => '相',
        (Color::Red, Kind::Rook) => '俥',
        (Color::Red, Kind::Horse) => '傌',
        (Color::Red, Kind::Cannon) => '炮',
        (Color::Red, Kind::Pawn) => '兵',
        (Color::Black, Kind::King) => '將',
        (Color::Black, Kind::Advisor) => '士',
        (Color::Black, Kind::Elephant) => '象',
        (Color::Black, Kind::Rook) => '車',
        (Color::Black, Kind::Horse) => '馬',
        (Color::Black, Kind::Cannon) => '砲',
        (Color::Black, Kind::Pawn) => '卒',
    }
}

/// A file or a number of ranks (1–9) as `color` writes it: Red in Chinese numerals, Black
/// in (ASCII) digits.
fn chinese_number(color: Color, n: u8) -> char {
    debug_assert!((1..=9).contains(&n), "{n} is no file or rank count");
    match color {
        Color::Red => RED_NUMERALS[usize::from(n - 1)],
        Color::Black => char::from(b'0' + n),
    }
}

/// The character that tells a tandem piece from the like ones on its file: 前 中 後, and for
/// four or five pawns 前 二 三 四 (五) counted from the front.
fn chinese_place(place: Place) -> Option<char> {
    match place {
        Place::Alone => None,
        Place::Front | Place::Nth(1) => Some('前'),
        Place::Middle => Some('中'),
        Place::Rear => Some('後'),
        Place::Nth(k) => Some(RED_NUMERALS[k - 1]),
    }
}

/// The traditional Chinese notation of the legal move `m` in `pos`: 炮二平五, 馬8進7,
/// 前俥進一.
///
/// Four characters: the piece, the file it stands on (counted from the mover's right, as
/// [`wxf`] counts), 進 (advance), 退 (retreat) or 平 (traverse), then the file arrived on (a
/// traverse, and the diagonal movers horse, advisor and elephant) or the number of ranks
/// moved (a straight move). Red writes files and numbers in Chinese numerals (一–九), Black
/// in digits (1–9): the common convention of Chinese game records. Printed records often use
/// full-width digits (`馬８進７`); this writes ASCII digits, one terminal column each.
///
/// The pieces are written with the characters the trainer's board shows (issue 25): Red
/// 帥仕相俥傌炮兵, Black 將士象車馬砲卒. Many records write 車 馬 (and 炮) for both sides
/// and 将 帅 进 后 in simplified characters; this writes the traditional forms only.
///
/// Several like pieces on one file (the same piece [`wxf`] names, from one shared
/// computation):
/// - two: 前 (front, nearer the enemy) or 後 (rear) replaces the file, before the piece:
///   前俥進一, 後砲平4 (WXF `R++1`, `C-=4`). The WXF's own notation page
///   (<http://www.wxf.org/xq/computer/wxf_notation.html>, AXF 1980/82, adopted by the WXF
///   in 1997) writes the Hong Kong order 車前平三; the mainland order 前車平三 is the more
///   widespread and is the one written here.
/// - three pawns: 前兵, 中兵, 後兵 (WXF `P+`, `P3`, `P-`).
/// - four pawns: 前 二 三 四 from the front; five: 前 二 三 四 五 (WXF `++`, `P+`, (`P3`),
///   `P-`, `--`, which count the rear ones from the back: the same pieces, other words).
/// - two files each with two or more pawns: the pawn's character gives way to its file,
///   after the place: 前九平八 for 前兵九平八 (WXF `9+=8`).
///
/// The pawn forms follow the description "當兵卒在同一縱線達到3個，用前中後來區分，達到4個，
/// 用前二三四區分，達到5個，用前二三四五區分", with the two-file form as the DhtmlXQ board
/// writes it (reproduced at <https://www.njarts.cn/a_wenhua/202109/510094.html> and
/// <http://m.1-jiu.com/edu/qilei/3981.html>). Other forms are in use (一二三四五 counted
/// from the front, or 後 for the rearmost); this one was chosen because a source describes it.
pub fn chinese(pos: &Position, m: Move) -> String {
    let loc = locate(pos, m.from());
    let piece = chinese_piece(loc.color, loc.kind);
    let file = chinese_number(loc.color, loc.file);
    let mut s = String::new();
    match (chinese_place(loc.place()), loc.two_files) {
        (None, _) => {
            s.push(piece);
            s.push(file);
        }
        (Some(place), false) => {
            s.push(place);
            s.push(piece);
        }
        (Some(place), true) => {
            s.push(place);
            s.push(file);
        }
    }
    let (direction, n) = movement(loc.color, loc.kind, m);
    s.push(match direction {
        Direction::Advance => '進',
        Direction::Retreat => '退',
        Direction::Traverse => '平',
    });
    s.push(chinese_number(loc.color, n));
    s
}

/// One character of a Chinese move reduced to what it means, so that the usual variants
/// read alike: simplified and traditional characters (车/車, 马/馬, 进/進, 后/後, 将/將, 帅/帥),
/// either side's piece characters (俥/車, 傌/馬, 炮/砲/包, 兵/卒 …), Chinese numerals, ASCII and
/// full-width digits. `None`: no character of the notation.
fn chinese_token(c: char) -> Option<char> {
    let digit = |n: usize| char::from(b'0' + n as u8);
    if let Some(i) = RED_NUMERALS.iter().position(|&x| x == c) {
        return Some(digit(i + 1));
    }
    if let Some(i) = "１２３４５６７８９".chars().position(|x| x == c) {
        return Some(digit(i + 1));
    }
    Some(match c {
        '1'..='9' => c,
        '帥' | '帅' | '將' | '将' => 'K',
        '仕' | '士' => 'A',
        '相' | '象' => 'E',
        '俥' | '車' | '车' => 'R',
        '傌' | '馬' | '马' => 'H',
        '炮' | '砲' | '包' => 'C',
        '兵' | '卒' => 'P',
        '進' | '进' => '+',
        '退' => '-',
        '平' => '=',
        '前' => 'F',
        '中' => 'M',
        '後' | '后' => 'B',
        _ => return None,
    })
}

/// A Chinese move's four characters reduced by [`chinese_token`], or `None`.
fn normalize_chinese(s: &str) -> Option<String> {
    let v: Option<String> = s
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(chinese_token)
        .collect();
    v.filter(|v| v.chars().count() == 4)
}

/// The one legal move a token was read as (`found`, every legal move written so): none is
/// an illegal move, two or more are ambiguous (named in the notation `write`), for WXF and
/// the Chinese notation alike.
fn the_one_written(
    pos: &Position,
    token: &str,
    found: &[Move],
    write: fn(&Position, Move) -> String,
) -> Result<Move, MoveError> {
    match found {
        [m] => Ok(*m),
        [] => Err(MoveError::Illegal {
            token: token.to_string(),
            why: Illegality::NoneWrittenSo {
                side: pos.side_to_move(),
            },
        }),
        [a, b, ..] => Err(MoveError::Ambiguous {
            token: token.to_string(),
            a: format!("{} ({a})", write(pos, *a)),
            b: format!("{} ({b})", write(pos, *b)),
        }),
    }
}

/// Reads a move in the traditional Chinese notation: the legal move whose [`chinese`] text it
/// is, read leniently (simplified characters, either side's piece characters, numerals or
/// digits for either side), so reading and writing cannot disagree.
pub fn parse_chinese(pos: &Position, token: &str) -> Result<Move, MoveError> {
    let norm = normalize_chinese(token).ok_or_else(|| MoveError::NotChinese(token.to_string()))?;
    let legal = pos.legal_moves();
    let found: Vec<Move> = legal
        .as_slice()
        .iter()
        .copied()
        .filter(|&m| normalize_chinese(&chinese(pos, m)).as_deref() == Some(norm.as_str()))
        .collect();
    the_one_written(pos, token, &found, chinese)
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
    #[error(
        "'{0}' is a move in neither UCCI (like h2e2), WXF (like C2=5) nor the Chinese notation (like 炮二平五)"
    )]
    NotAMove(String),
    /// Where only UCCI coordinates are read (the UCI engine's moves).
    #[error("'{0}' is not a UCCI move (from and to point, files a-i, ranks 0-9: like h2e2)")]
    NotUcci(String),
    #[error("illegal move {token}: {why}")]
    Illegal { token: String, why: Illegality },
    /// Where Chinese notation is read ([`parse_chinese`]).
    #[error("'{0}' is not a move in Chinese notation (four characters, like 炮二平五 or 馬8進7)")]
    NotChinese(String),
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
    // One move's legality, not the whole legal list: reading a game's moves (a collection of
    // tens of thousands of games, `threefold review --xiangqi`) asks this of every move.
    if pos.is_legal(m) {
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
    the_one_written(pos, token, &found, wxf)
}

/// Reads a move as a player types it, in any of the three notations: UCCI first (its shape
/// cannot be WXF), then WXF (ASCII, or shaped like WXF with a Unicode minus), else the
/// traditional Chinese notation (`炮二平五`, [`parse_chinese`]). The one reading of typed
/// moves: the trainer's move prompt, `threefold xiangqi judge --moves` and the puzzle files.
pub fn parse_move(pos: &Position, token: &str) -> Result<Move, MoveError> {
    if ucci_squares(token).is_some() {
        parse_ucci(pos, token)
    } else if token.is_ascii() || wxf_shaped(&normalize_wxf(token)) {
        parse_wxf(pos, token)
    } else {
        parse_chinese(pos, token)
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
