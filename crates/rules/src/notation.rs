//! How the rules core writes and reads chess for people: side names and move
//! numbers, as on a scoresheet ("White", "12.", "12..."), and the lenient
//! reader of typed moves ([`parse_move_lenient`]) that says, when it refuses
//! a move, why.
//!
//! # Typed moves
//!
//! A player at a keyboard writes moves as they come: SAN (`Nf3`, `exd5`,
//! `e8=Q`, `O-O`), castling with zeros (`0-0`, `0-0-0`), coordinates with or
//! without a dash (`e2e4`, `e2-e4`, `Ng1-f3`, `e7e8q`), piece letters in
//! lower case (`nf3`, `qh5`), a capture without its `x` (`ed5`). All of them
//! are read by [`parse_move_lenient`], which finds the one legal move meant.
//!
//! Lower-case `b` is both the bishop and the b-file: `bxc4` is SAN for the
//! b-pawn's capture and is read so, but `bc4` is not SAN for either. When
//! both a bishop move to c4 and a b-pawn capture on c4 are legal, `bc4` is
//! refused as [`Refusal::BishopOrPawn`], naming both (`Bc4` or `bxc4`): a
//! trainer must not guess a move that cannot be taken back in a claim. When
//! only one of them is legal, that one is played.
//!
//! A refused move comes with a [`Refusal`]: unreadable, no such piece, that
//! piece cannot go there, the king would be in check there, the side is in
//! check and the move does not answer it, the piece is pinned (and by what),
//! ambiguous (which pieces), a promotion without its piece, or why castling
//! is not possible (no right, in check, pieces in the way, an attacked square).

use std::fmt;

use shakmaty::attacks::{attacks, between};
use shakmaty::san::{San, SanPlus};
use shakmaty::{
    CastlingSide, Chess, Color, EnPassantMode, File, Move, Piece, Position, Rank, Role, Square,
};

/// "White" or "Black".
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A move number as written before a move: "12." before White's twelfth
/// move, "12..." before Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// The full-move number (1 for the first move of each side).
    pub number: u32,
    /// The side that makes the move.
    pub side: Color,
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side {
            Color::White => write!(f, "{}.", self.number),
            Color::Black => write!(f, "{}...", self.number),
        }
    }
}

/// Where a move puts the moving piece: for castling (which shakmaty writes
/// king-takes-rook) the king's square, g1/c1 or g8/c8.
pub fn king_target(m: &Move, turn: Color) -> Square {
    match m.castling_side() {
        Some(side) => side.king_to(turn),
        None => m.to(),
    }
}

/// "knight", "pawn", ...
pub fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// A typed move that was refused, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text}: {refusal}")]
pub struct MoveError {
    /// What was typed (trimmed).
    pub text: String,
    pub refusal: Refusal,
}

/// Where the missing piece was looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Among {
    /// All the side's pieces of that kind.
    All,
    File(File),
    Rank(Rank),
    Square(Square),
}

/// Why castling is not possible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CastlingBar {
    /// The king or that rook has moved (the right is gone).
    NoRight,
    /// Castling is not allowed out of check.
    InCheck,
    /// These squares between the king and the rook are not empty.
    Blocked(Vec<Square>),
    /// The king would pass through or land on this attacked square.
    Attacked(Square),
}

/// Why a typed move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not a move in any notation read.
    Unreadable,
    /// The side to move has no such piece (of `role`, or any piece when None) there.
    NoSuchPiece {
        color: Color,
        role: Option<Role>,
        among: Among,
    },
    /// The piece on the square belongs to the other side.
    NotYours { square: Square, piece: Piece },
    /// The piece (the only candidate, or any of them when `from` is None)
    /// cannot go to `to`, not even ignoring checks; `own` is the side's own
    /// piece standing there, if one does.
    CannotGo {
        piece: Piece,
        from: Option<Square>,
        to: Square,
        own: Option<Role>,
    },
    /// The king would be in check on `to`.
    KingIntoCheck { to: Square },
    /// The side to move is in check (by these pieces) and the move does not answer it.
    InCheck {
        color: Color,
        checkers: Vec<(Role, Square)>,
    },
    /// The piece on `from` is pinned to its king by the piece on `by`.
    Pinned {
        piece: Piece,
        from: Square,
        by: (Role, Square),
    },
    /// The move would leave the king in check some other way (an en passant
    /// capture that opens a rank).
    ExposesKing,
    /// Several pieces can make the move; `choices` writes each in SAN.
    Ambiguous {
        role: Role,
        from: Vec<Square>,
        to: Square,
        choices: Vec<String>,
    },
    /// Lower-case `b`: a bishop move and a b-pawn capture are both legal.
    BishopOrPawn { bishop: String, pawn: String },
    /// A pawn reaches the last rank: which piece does it become?
    NeedsPromotion { choices: Vec<String> },
    /// Castling on `side` is not possible.
    Castling {
        side: CastlingSide,
        bar: CastlingBar,
    },
}

fn list_squares(sqs: &[Square]) -> String {
    let names: Vec<String> = sqs.iter().map(|s| s.to_string()).collect();
    or_list(&names, "and")
}

fn or_list(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

fn side_name(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Unreadable => {
                write!(
                    f,
                    "not a move (write e.g. Nf3, exd5, O-O, e8=Q, e2e4 or e2-e4)"
                )
            }
            Refusal::NoSuchPiece { color, role, among } => {
                let what = role.map_or("piece", role_name);
                let c = color_name(*color);
                match among {
                    Among::All => write!(f, "{c} has no {what}"),
                    Among::File(file) => write!(f, "{c} has no {what} on the {}-file", file.char()),
                    Among::Rank(rank) => write!(f, "{c} has no {what} on rank {}", rank.char()),
                    Among::Square(sq) => write!(f, "there is no {c} {what} on {sq}"),
                }
            }
            Refusal::NotYours { square, piece } => write!(
                f,
                "the {} on {square} is {}'s",
                role_name(piece.role),
                color_name(piece.color)
            ),
            Refusal::CannotGo {
                piece,
                from,
                to,
                own,
            } => {
                let r = role_name(piece.role);
                match from {
                    Some(from) => write!(f, "the {r} on {from} cannot go to {to}")?,
                    None => write!(f, "no {} {r} can go to {to}", color_name(piece.color))?,
                }
                match own {
                    Some(o) => write!(f, " (your own {} stands there)", role_name(*o)),
                    None => Ok(()),
                }
            }
            Refusal::KingIntoCheck { to } => {
                write!(f, "the king cannot go to {to}: it would be in check there")
            }
            Refusal::InCheck { color, checkers } => {
                let by: Vec<String> = checkers
                    .iter()
                    .map(|(r, s)| format!("the {} on {s}", role_name(*r)))
                    .collect();
                write!(
                    f,
                    "{} is in check (from {}) and this move does not answer it",
                    color_name(*color),
                    or_list(&by, "and")
                )
            }
            Refusal::Pinned { piece, from, by } => write!(
                f,
                "the {} on {from} is pinned: moving it would expose the king to the {} on {}",
                role_name(piece.role),
                role_name(by.0),
                by.1
            ),
            Refusal::ExposesKing => write!(f, "this move would leave the king in check"),
            Refusal::Ambiguous {
                role,
                from,
                to,
                choices,
            } => write!(
                f,
                "ambiguous: the {}s on {} can each go to {to}; write {}",
                role_name(*role),
                list_squares(from),
                or_list(choices, "or")
            ),
            Refusal::BishopOrPawn { bishop, pawn } => write!(
                f,
                "lower-case b could be the bishop or the b-pawn; write {bishop} (bishop) or {pawn} (pawn)"
            ),
            Refusal::NeedsPromotion { choices } => write!(
                f,
                "say which piece the pawn becomes: {}",
                or_list(choices, "or")
            ),
            Refusal::Castling { side, bar } => {
                let side = side_name(*side);
                match bar {
                    CastlingBar::NoRight => write!(
                        f,
                        "castling {side} is no longer allowed (the king or that rook has moved)"
                    ),
                    CastlingBar::InCheck => write!(f, "castling is not allowed while in check"),
                    CastlingBar::Blocked(sqs) => {
                        write!(f, "castling {side}: {} must be empty", list_squares(sqs))
                    }
                    CastlingBar::Attacked(sq) => write!(
                        f,
                        "castling {side}: the king would cross or land on {sq}, which is attacked"
                    ),
                }
            }
        }
    }
}

/// What the text says of the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wanted {
    Castle(CastlingSide),
    Move(Desc),
    /// Lower-case `b` and a square without `x`: a bishop or the b-pawn.
    BishopOrPawn(Desc),
}

/// A described move: the piece (None: whatever stands on `from`), where it
/// comes from (as much as was written) and where it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Desc {
    role: Option<Role>,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl Desc {
    fn origin(&self) -> Option<Square> {
        match (self.file, self.rank) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        }
    }

    fn with_role(self, role: Role) -> Desc {
        Desc {
            role: Some(role),
            ..self
        }
    }

    fn matches(&self, m: &Move, turn: Color) -> bool {
        let Some(from) = m.from() else { return false };
        self.role.is_none_or(|r| m.role() == r)
            && self.file.is_none_or(|f| from.file() == f)
            && self.rank.is_none_or(|r| from.rank() == r)
            && (king_target(m, turn) == self.to || m.to() == self.to)
            && self.promotion.is_none_or(|p| m.promotion() == Some(p))
    }
}

fn piece_role(c: char) -> Option<Role> {
    match c.to_ascii_lowercase() {
        'p' => Some(Role::Pawn),
        'n' => Some(Role::Knight),
        'b' => Some(Role::Bishop),
        'r' => Some(Role::Rook),
        'q' => Some(Role::Queen),
        'k' => Some(Role::King),
        _ => None,
    }
}

fn file_of(c: char) -> Option<File> {
    File::from_char(c)
}

fn rank_of(c: char) -> Option<Rank> {
    Rank::from_char(c)
}

/// Read the text into what it asks for (no position needed).
fn read(text: &str) -> Option<Wanted> {
    let mut t: Vec<char> = text.trim().chars().collect();
    if !t.iter().all(char::is_ascii) {
        return None;
    }
    // Check marks and annotations, and "e.p.".
    if t.ends_with(&['e', '.', 'p', '.']) {
        t.truncate(t.len() - 4);
        while t.last() == Some(&' ') {
            t.pop();
        }
    }
    while matches!(t.last(), Some('+' | '#' | '!' | '?')) {
        t.pop();
    }
    let castle: String = t
        .iter()
        .map(|c| if matches!(c, '0' | 'o') { 'O' } else { *c })
        .collect();
    match castle.as_str() {
        "O-O" | "OO" => return Some(Wanted::Castle(CastlingSide::KingSide)),
        "O-O-O" | "OOO" => return Some(Wanted::Castle(CastlingSide::QueenSide)),
        _ => {}
    }
    // Promotion: a piece letter after the target square ("e8=Q", "e7e8q", "e8Q").
    let mut promotion = None;
    if let [.., before, last] = t[..]
        && (before == '=' || before.is_ascii_digit())
        && let Some(r) = piece_role(last).filter(|r| !matches!(r, Role::Pawn | Role::King))
    {
        promotion = Some(r);
        t.pop();
        if t.last() == Some(&'=') {
            t.pop();
        }
    }
    let [.., tf, tr] = t[..] else { return None };
    let to = Square::from_coords(file_of(tf)?, rank_of(tr)?);
    t.truncate(t.len() - 2);
    let capture = matches!(t.last(), Some('x' | 'X' | ':'));
    if capture || t.last() == Some(&'-') {
        t.pop();
    }
    // What stands before: [piece][file][rank].
    let (role, rest): (Option<Role>, &[char]) = match t[..] {
        [] => (None, &[]),
        // Lower-case b: the b-file when a rank follows ("b1c3") or when it is
        // a capture ("bxc4", SAN); alone ("bc4") a bishop or a pawn.
        ['b'] if !capture => {
            let pawn = Desc {
                role: Some(Role::Pawn),
                file: Some(File::B),
                rank: None,
                to,
                promotion,
            };
            return Some(Wanted::BishopOrPawn(pawn));
        }
        ['b', next, ..] if next.is_ascii_digit() => (None, &t[..]),
        ['b', ..] if capture && t.len() == 1 => (None, &t[..]),
        [c, ..] if c.is_ascii_uppercase() || (c != 'b' && piece_role(c).is_some()) => {
            (Some(piece_role(c)?), &t[1..])
        }
        ['b', ..] => (Some(Role::Bishop), &t[1..]),
        _ => (None, &t[..]),
    };
    let mut rest = rest.iter().copied().peekable();
    let file = rest.next_if(|&c| file_of(c).is_some()).and_then(file_of);
    let rank = rest.next_if(|&c| rank_of(c).is_some()).and_then(rank_of);
    if rest.next().is_some() {
        return None;
    }
    let desc = match (role, file, rank) {
        // "e2e4", "e2-e4": whatever stands on e2.
        (None, Some(_), Some(_)) => Desc {
            role: None,
            file,
            rank,
            to,
            promotion,
        },
        // "exd5", "ed5": a pawn from that file.
        (None, Some(_), None) => Desc {
            role: Some(Role::Pawn),
            file,
            rank: None,
            to,
            promotion,
        },
        // "e4": a pawn push (from the same file, as SAN means).
        (None, None, None) => Desc {
            role: Some(Role::Pawn),
            file: Some(to.file()),
            rank: None,
            to,
            promotion,
        },
        (None, None, Some(_)) => return None,
        (Some(role), ..) => Desc {
            role: Some(role),
            file,
            rank,
            to,
            promotion,
        },
    };
    Some(Wanted::Move(desc))
}

fn san_of(pos: &Chess, m: Move) -> String {
    San::from_move(pos, m).to_string()
}

/// The one legal move meant by `text` in `pos`, read leniently (see the
/// module docs for every form), or why there is none.
pub fn parse_move_lenient(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    let refuse = |refusal| MoveError {
        text: text.to_string(),
        refusal,
    };
    let turn = pos.turn();
    let legal = pos.legal_moves();
    match read(text).ok_or_else(|| refuse(Refusal::Unreadable))? {
        Wanted::Castle(side) => legal
            .iter()
            .find(|m| m.castling_side() == Some(side))
            .copied()
            .ok_or_else(|| refuse(castling_bar(pos, side))),
        Wanted::BishopOrPawn(pawn) => {
            let bishop = pawn.with_role(Role::Bishop);
            let bishop = Desc {
                file: None,
                ..bishop
            };
            let b: Vec<Move> = legal
                .iter()
                .filter(|m| bishop.matches(m, turn))
                .copied()
                .collect();
            let p: Vec<Move> = legal
                .iter()
                .filter(|m| pawn.matches(m, turn))
                .copied()
                .collect();
            match (b.is_empty(), p.is_empty()) {
                (false, false) if b.len() == 1 && p.len() == 1 => {
                    Err(refuse(Refusal::BishopOrPawn {
                        bishop: san_of(pos, b[0]),
                        pawn: san_of(pos, p[0]),
                    }))
                }
                (false, true) => one_of(pos, b).map_err(refuse),
                (true, false) => one_of(pos, p).map_err(refuse),
                (false, false) => one_of(pos, [b, p].concat()).map_err(refuse),
                // Neither: explain the bishop when White has one, else the pawn.
                (true, true) => {
                    let has_bishop = pos
                        .board()
                        .by_piece(Piece {
                            color: turn,
                            role: Role::Bishop,
                        })
                        .any();
                    Err(refuse(explain(
                        pos,
                        if has_bishop { &bishop } else { &pawn },
                    )))
                }
            }
        }
        Wanted::Move(desc) => {
            let found: Vec<Move> = legal
                .iter()
                .filter(|m| desc.matches(m, turn))
                .copied()
                .collect();
            if found.is_empty() {
                Err(refuse(explain(pos, &desc)))
            } else {
                one_of(pos, found).map_err(refuse)
            }
        }
    }
}

/// The one move among `found` (not empty), or why there are several.
fn one_of(pos: &Chess, found: Vec<Move>) -> Result<Move, Refusal> {
    if let [m] = found[..] {
        return Ok(m);
    }
    let choices: Vec<String> = found.iter().map(|&m| san_of(pos, m)).collect();
    let same_squares = found
        .iter()
        .all(|m| m.from() == found[0].from() && m.to() == found[0].to());
    if same_squares && found.iter().all(|m| m.promotion().is_some()) {
        return Err(Refusal::NeedsPromotion { choices });
    }
    Err(Refusal::Ambiguous {
        role: found[0].role(),
        from: found.iter().filter_map(|m| m.from()).collect(),
        to: found[0].to(),
        choices,
    })
}

/// Whether the piece on `from` could go to `to` ignoring checks and pins.
fn reaches(pos: &Chess, from: Square, to: Square) -> bool {
    let board = pos.board();
    let Some(p) = board.piece_at(from) else {
        return false;
    };
    if board.by_color(p.color).contains(to) {
        return false;
    }
    let occupied = board.occupied();
    if p.role != Role::Pawn {
        return attacks(from, p, occupied).contains(to);
    }
    let dir = if p.color == Color::White { 8 } else { -8 };
    let one = from.offset(dir);
    let start = from.rank() == p.color.fold_wb(Rank::Second, Rank::Seventh);
    let push = (one == Some(to) && !occupied.contains(to))
        || (start
            && one.is_some_and(|o| !occupied.contains(o))
            && from.offset(2 * dir) == Some(to)
            && !occupied.contains(to));
    let capture = shakmaty::attacks::pawn_attacks(p.color, from).contains(to)
        && (board.by_color(!p.color).contains(to)
            || pos.ep_square(EnPassantMode::Always) == Some(to));
    push || capture
}

/// The enemy slider pinning the piece on `sq` to its king, if any.
fn pinner(pos: &Chess, sq: Square) -> Option<(Role, Square)> {
    let board = pos.board();
    let color = board.piece_at(sq)?.color;
    let king = board.king_of(color)?;
    let occupied = board.occupied().without(sq);
    let sliders = board.by_color(!color)
        & (board.by_role(Role::Bishop) | board.by_role(Role::Rook) | board.by_role(Role::Queen));
    sliders.into_iter().find_map(|s| {
        let p = board.piece_at(s)?;
        (between(s, king).contains(sq) && attacks(s, p, occupied).contains(king))
            .then_some((p.role, s))
    })
}

/// Why no legal move matches `desc`.
fn explain(pos: &Chess, desc: &Desc) -> Refusal {
    let board = pos.board();
    let turn = pos.turn();
    let mine = board.by_color(turn);
    let candidates: Vec<Square> = match desc.origin() {
        Some(sq) => match board.piece_at(sq) {
            None => {
                return Refusal::NoSuchPiece {
                    color: turn,
                    role: desc.role,
                    among: Among::Square(sq),
                };
            }
            Some(p) if p.color != turn => {
                return Refusal::NotYours {
                    square: sq,
                    piece: p,
                };
            }
            Some(p) if desc.role.is_some_and(|r| r != p.role) => {
                return Refusal::NoSuchPiece {
                    color: turn,
                    role: desc.role,
                    among: Among::Square(sq),
                };
            }
            Some(_) => vec![sq],
        },
        None => {
            let role = desc.role.unwrap_or(Role::Pawn);
            let among = (mine & board.by_role(role))
                .into_iter()
                .filter(|s| desc.file.is_none_or(|f| s.file() == f))
                .filter(|s| desc.rank.is_none_or(|r| s.rank() == r))
                .collect::<Vec<_>>();
            if among.is_empty() {
                return Refusal::NoSuchPiece {
                    color: turn,
                    role: Some(role),
                    among: match (desc.file, desc.rank) {
                        (Some(f), _) => Among::File(f),
                        (None, Some(r)) => Among::Rank(r),
                        (None, None) => Among::All,
                    },
                };
            }
            among
        }
    };
    // A king moving two files (or onto its own rook) is castling.
    if let [from] = candidates[..]
        && board.piece_at(from).is_some_and(|p| p.role == Role::King)
        && let Some(side) = castling_by_king(pos, from, desc.to)
    {
        return castling_bar(pos, side);
    }
    let piece = board
        .piece_at(candidates[0])
        .expect("a candidate stands there");
    let reachers: Vec<Square> = candidates
        .iter()
        .copied()
        .filter(|&s| reaches(pos, s, desc.to))
        .collect();
    let Some(&r) = reachers.first() else {
        return Refusal::CannotGo {
            piece,
            // A piece on the target square itself is not the one meant ("e5" with the
            // pawn already there): no piece of that kind can go there.
            from: (candidates.len() == 1 && candidates[0] != desc.to).then(|| candidates[0]),
            to: desc.to,
            own: board
                .piece_at(desc.to)
                .filter(|p| p.color == turn)
                .map(|p| p.role),
        };
    };
    if piece.role == Role::King {
        return Refusal::KingIntoCheck { to: desc.to };
    }
    if pos.is_check() {
        return Refusal::InCheck {
            color: turn,
            checkers: pos
                .checkers()
                .into_iter()
                .filter_map(|s| board.piece_at(s).map(|p| (p.role, s)))
                .collect(),
        };
    }
    match pinner(pos, r) {
        Some(by) => Refusal::Pinned { piece, from: r, by },
        None if desc.promotion.is_some() && piece.role != Role::Pawn => Refusal::Unreadable,
        None => Refusal::ExposesKing,
    }
}

/// The castling side a king move from `from` to `to` means, if it is one.
fn castling_by_king(pos: &Chess, from: Square, to: Square) -> Option<CastlingSide> {
    let turn = pos.turn();
    if from != Square::E1.xor(turn.fold_wb(Square::A1, Square::A8)) || to.rank() != from.rank() {
        return None;
    }
    [CastlingSide::KingSide, CastlingSide::QueenSide]
        .into_iter()
        .find(|&side| side.king_to(turn) == to || pos.castles().rook(turn, side) == Some(to))
}

/// Why castling on `side` is not legal.
fn castling_bar(pos: &Chess, side: CastlingSide) -> Refusal {
    let turn = pos.turn();
    let board = pos.board();
    let castles = pos.castles();
    let bar = if !castles.has(turn, side) {
        CastlingBar::NoRight
    } else if pos.is_check() {
        CastlingBar::InCheck
    } else {
        let blocked = castles.path(turn, side) & board.occupied();
        if blocked.any() {
            CastlingBar::Blocked(blocked.into_iter().collect())
        } else {
            let king = board.king_of(turn).expect("castling needs a king");
            let to = side.king_to(turn);
            let path = between(king, to).with(to);
            let occupied = board.occupied();
            match path
                .into_iter()
                .find(|&s| board.attacks_to(s, !turn, occupied).any())
            {
                Some(s) => CastlingBar::Attacked(s),
                // Not reached in standard chess: the rules above are all of them.
                None => CastlingBar::Attacked(to),
            }
        }
    };
    Refusal::Castling { side, bar }
}

/// A move from `pos` as written on a scoresheet, with its number: "14...Ng8".
pub fn move_label(pos: &Chess, m: Move) -> String {
    let number = MoveNumber {
        number: pos.fullmoves().get(),
        side: pos.turn(),
    };
    format!("{number}{}", SanPlus::from_move(pos.clone(), m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Chess {
        crate::Game::from_fen(fen).unwrap().position().clone()
    }

    fn uci(m: Move) -> String {
        m.to_uci(shakmaty::CastlingMode::Standard).to_string()
    }

    fn ok(fen: &str, text: &str) -> String {
        match parse_move_lenient(&pos(fen), text) {
            Ok(m) => uci(m),
            Err(e) => panic!("{text}: {e}"),
        }
    }

    fn refused(fen: &str, text: &str) -> (Refusal, String) {
        match parse_move_lenient(&pos(fen), text) {
            Ok(m) => panic!("{text} was read as {}", uci(m)),
            Err(e) => {
                let line = e.to_string();
                assert!(!line.contains('\n'), "{line}");
                (e.refusal, line)
            }
        }
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /// White may castle both ways; a bishop on f1 gone, the b-pawn on b3.
    const CASTLE: &str = "r3k2r/pppq1ppp/2n2n2/2b1p3/2B1P3/1PN2N2/P1PQ1PPP/R3K2R w KQkq - 0 1";

    #[test]
    fn every_form_of_a_move_is_read() {
        for (text, want) in [
            ("e4", "e2e4"),
            ("e2e4", "e2e4"),
            ("e2-e4", "e2e4"),
            ("Nf3", "g1f3"),
            ("nf3", "g1f3"),
            ("Ng1-f3", "g1f3"),
            ("g1f3", "g1f3"),
            ("Nf3+", "g1f3"),
            ("Nf3!?", "g1f3"),
            ("  e4  ", "e2e4"),
        ] {
            assert_eq!(ok(START, text), want, "{text}");
        }
        for (text, want) in [
            ("O-O", "e1g1"),
            ("0-0", "e1g1"),
            ("o-o", "e1g1"),
            ("e1g1", "e1g1"),
            ("O-O-O", "e1c1"),
            ("0-0-0", "e1c1"),
            ("0-0-0+", "e1c1"),
            ("e1c1", "e1c1"),
            ("Kc1", "e1c1"),
            ("qe3", "d2e3"),
            ("Bxf7", "c4f7"),
            ("nd5", "c3d5"),
        ] {
            assert_eq!(ok(CASTLE, text), want, "{text}");
        }
        // Pawn captures with and without x, en passant, promotion.
        let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(ok(ep, "exd6"), "e5d6");
        assert_eq!(ok(ep, "ed6"), "e5d6");
        assert_eq!(ok(ep, "exd6 e.p."), "e5d6");
        assert_eq!(ok(ep, "e5-d6"), "e5d6");
        let promo = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(ok(promo, "a8=Q"), "a7a8q");
        assert_eq!(ok(promo, "a8Q"), "a7a8q");
        assert_eq!(ok(promo, "a7a8n"), "a7a8n");
        assert_eq!(ok(promo, "axb8=R"), "a7b8r");
        assert_eq!(ok(promo, "a7-b8q"), "a7b8q");
    }

    #[test]
    fn lower_case_b_is_a_bishop_or_a_pawn_never_a_guess() {
        // The bishop on f1 and the b-pawn (b3 takes c4) can both go to c4.
        let both = "4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1";
        let (r, line) = refused(both, "bc4");
        assert_eq!(
            r,
            Refusal::BishopOrPawn {
                bishop: "Bxc4".into(),
                pawn: "bxc4".into()
            }
        );
        assert!(line.contains("Bxc4 (bishop) or bxc4 (pawn)"), "{line}");
        // bxc4 is SAN for the pawn; Bxc4 for the bishop.
        assert_eq!(ok(both, "bxc4"), "b3c4");
        assert_eq!(ok(both, "Bxc4"), "f1c4");
        // Only one of them legal: that one.
        assert_eq!(ok("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "bc4"), "f1c4");
        assert_eq!(ok("4k3/8/8/8/2p5/1P6/8/4K3 w - - 0 1", "bc4"), "b3c4");
        // b1c3 is a from-square, not a bishop.
        assert_eq!(ok(START, "b1c3"), "b1c3");
        assert_eq!(ok(START, "b1-c3"), "b1c3");
    }

    #[test]
    fn each_refusal_says_why_in_one_line() {
        let (r, line) = refused(START, "hello");
        assert_eq!(r, Refusal::Unreadable);
        assert!(line.contains("not a move"), "{line}");
        let (r, line) = refused("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Nf3");
        assert!(matches!(
            r,
            Refusal::NoSuchPiece {
                role: Some(Role::Knight),
                among: Among::All,
                ..
            }
        ));
        assert_eq!(line, "Nf3: White has no knight");
        let (_, line) = refused(START, "e3e4");
        assert_eq!(line, "e3e4: there is no White piece on e3");
        let (r, line) = refused(START, "e7e5");
        assert!(matches!(r, Refusal::NotYours { .. }));
        assert_eq!(line, "e7e5: the pawn on e7 is Black's");
        let (r, line) = refused(START, "Nf5");
        assert!(matches!(r, Refusal::CannotGo { from: None, .. }));
        assert_eq!(line, "Nf5: no White knight can go to f5");
        let (_, line) = refused(START, "Bc4");
        assert_eq!(line, "Bc4: no White bishop can go to c4");
        let (_, line) = refused(START, "e5");
        assert_eq!(line, "e5: the pawn on e2 cannot go to e5");
        let (_, line) = refused("4k3/8/8/4p3/8/8/8/4K3 b - - 0 1", "e5");
        assert_eq!(
            line,
            "e5: no Black pawn can go to e5 (your own pawn stands there)"
        );
        let (_, line) = refused(START, "Qd2");
        assert_eq!(
            line,
            "Qd2: the queen on d1 cannot go to d2 (your own pawn stands there)"
        );
        // The king would stand in check.
        let (r, line) = refused("4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", "Kf1");
        assert_eq!(r, Refusal::KingIntoCheck { to: Square::F1 });
        assert!(line.contains("would be in check there"), "{line}");
        // In check, and the move does not answer it.
        let check = "4k3/4r3/8/8/8/8/8/RN2K3 w - - 0 1";
        let (r, line) = refused(check, "Nc3");
        assert_eq!(
            r,
            Refusal::InCheck {
                color: Color::White,
                checkers: vec![(Role::Rook, Square::E7)]
            }
        );
        assert_eq!(
            line,
            "Nc3: White is in check (from the rook on e7) and this move does not answer it"
        );
        // Pinned.
        let (r, line) = refused("4k3/8/8/1b6/8/3N4/8/5K2 w - - 0 1", "Nf4");
        assert!(
            matches!(
                r,
                Refusal::Pinned {
                    from: Square::D3,
                    by: (Role::Bishop, Square::B5),
                    ..
                }
            ),
            "{r:?}"
        );
        assert!(
            line.contains("pinned") && line.contains("bishop on b5"),
            "{line}"
        );
        // Ambiguous: which pieces.
        let (r, line) = refused("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2");
        assert!(
            matches!(r, Refusal::Ambiguous { ref from, .. } if from == &[Square::B1, Square::F1])
        );
        assert_eq!(
            line,
            "Nd2: ambiguous: the knights on b1 and f1 can each go to d2; write Nbd2 or Nfd2"
        );
        // A promotion without its piece.
        let (r, line) = refused("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8");
        assert!(matches!(r, Refusal::NeedsPromotion { .. }));
        assert!(line.contains("a8=Q") && line.contains("a8=N"), "{line}");
        // An en passant capture that would open the rank to the king.
        let (r, _) = refused("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2", "exd6");
        assert_eq!(r, Refusal::ExposesKing);
    }

    #[test]
    fn castling_refusals_name_the_bar() {
        let bar = |fen: &str, text: &str| match refused(fen, text).0 {
            Refusal::Castling { bar, .. } => bar,
            r => panic!("{text}: {r:?}"),
        };
        // No right.
        assert_eq!(
            bar("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "O-O"),
            CastlingBar::NoRight
        );
        assert_eq!(
            bar("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1"),
            CastlingBar::NoRight
        );
        // In check.
        assert_eq!(
            bar("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", "0-0"),
            CastlingBar::InCheck
        );
        // Pieces in the way.
        assert_eq!(
            bar(START, "O-O"),
            CastlingBar::Blocked(vec![Square::F1, Square::G1])
        );
        // The king would cross an attacked square.
        assert_eq!(
            bar("4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1", "O-O-O"),
            CastlingBar::Attacked(Square::D1)
        );
        let (_, line) = refused("4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1", "0-0-0");
        assert_eq!(
            line,
            "0-0-0: castling queenside: the king would cross or land on d1, which is attacked"
        );
    }

    #[test]
    fn move_numbers_as_on_a_scoresheet() {
        let w = MoveNumber {
            number: 12,
            side: Color::White,
        };
        let b = MoveNumber {
            number: 12,
            side: Color::Black,
        };
        assert_eq!(format!("{w}Nf3 {b}Nf6"), "12.Nf3 12...Nf6");
        assert_eq!(color_name(Color::White), "White");
        assert_eq!(color_name(Color::Black), "Black");
    }
}
