//! Move generation, check detection and perft.
//!
//! Pseudo-legal moves come from the padded mailbox ([`super::board`]): rooks
//! and cannons walk their rays until an `OFF` cell, horses test their leg,
//! elephants their eye and their own half, kings and advisors their palace,
//! pawns move sideways once across the river.
//!
//! Legality is decided without making most moves. A move can expose its own
//! king only by
//! - leaving the king's rank or file (a rook, the other king, or a cannon
//!   whose screen it was, or one of whose two screens it was),
//! - leaving one of the four points diagonally next to the king (the leg of
//!   a horse that would then check), or
//! - arriving on the king's rank or file (becoming a cannon's only screen).
//!
//! So when the side to move is not in check, a non-king move that does none
//! of these is legal as generated; every other move is made on the board and
//! the king's safety tested with `Position::king_attacked`, which reads the
//! nearest and second-nearest piece in each direction from precomputed
//! tables indexed by the rank's or file's occupancy bits (rooks, cannons and
//! the flying general in four lookups), then the four horse legs and the
//! adjacent pawns.
//!
//! [`Position::perft`] counts the legal move paths; at the last ply it counts
//! the legal moves without making them ("bulk counting").

use super::board::{
    Color, Kind, Move, OFF, OWN_HALF, PALACE, Position, cell, code, file_of, rank_of,
};

/// No legal position has more moves than this (the sum of every piece's
/// maximum mobility is 119).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move { from: 0, to: 0 }; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, from: u8, to: u8) {
        debug_assert!(self.len < MAX_MOVES);
        // SAFETY-free: the bound is asserted in debug builds and guaranteed by
        // the piece counts the FEN parser enforces.
        self.moves[self.len] = Move { from, to };
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    #[inline]
    fn swap_remove(&mut self, i: usize) {
        self.len -= 1;
        self.moves[i] = self.moves[self.len];
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// For a line of `N` points with occupancy `mask` and a piece at `p`: the
/// nearest occupied point above `p` (rook target), the nearest below, the
/// second above (cannon target) and the second below, or -1.
const fn build_slide<const N: usize, const M: usize>() -> [[[i8; 4]; M]; N] {
    let mut t = [[[-1i8; 4]; M]; N];
    let mut p = 0;
    while p < N {
        let mut mask = 0;
        while mask < M {
            let mut seen = 0;
            let mut q = p + 1;
            while q < N {
                if mask & (1 << q) != 0 {
                    if seen == 0 {
                        t[p][mask][0] = q as i8;
                    } else if seen == 1 {
                        t[p][mask][2] = q as i8;
                    }
                    seen += 1;
                }
                q += 1;
            }
            seen = 0;
            let mut q = p as isize - 1;
            while q >= 0 {
                if mask & (1 << q) != 0 {
                    if seen == 0 {
                        t[p][mask][1] = q as i8;
                    } else if seen == 1 {
                        t[p][mask][3] = q as i8;
                    }
                    seen += 1;
                }
                q -= 1;
            }
            mask += 1;
        }
        p += 1;
    }
    t
}

/// `FILE_SLIDE[rank][file_bits]`: ranks of the nearest/second pieces up and down a file.
static FILE_SLIDE: [[[i8; 4]; 1024]; 10] = build_slide::<10, 1024>();
/// `RANK_SLIDE[file][rank_bits]`: files of the nearest/second pieces right and left.
static RANK_SLIDE: [[[i8; 4]; 512]; 9] = build_slide::<9, 512>();

const ORTH: [i8; 4] = [16, -16, 1, -1];
const DIAG: [i8; 4] = [17, 15, -15, -17];
/// Horse: for each orthogonal leg, the two targets beyond it.
const HORSE: [(i8, [i8; 2]); 4] = [
    (16, [33, 31]),
    (-16, [-31, -33]),
    (1, [18, -14]),
    (-1, [14, -18]),
];

#[inline]
fn step(c: u8, d: i8) -> u8 {
    c.wrapping_add(d as u8)
}

impl Position {
    /// Whether a king standing on `k` would be attacked by `by`: rooks and
    /// the other king along the file (the flying general), rooks along the
    /// rank, cannons over exactly one screen, horses whose leg is free, and
    /// pawns (which reach a palace only after crossing the river).
    #[inline]
    pub(crate) fn king_attacked(&self, k: u8, by: Color) -> bool {
        let (f, r) = (file_of(k), rank_of(k));
        let rook = code(by, Kind::Rook);
        let cannon = code(by, Kind::Cannon);
        let king = code(by, Kind::King);
        let ids = &super::board::ID_CODE;
        let fl = FILE_SLIDE[r as usize][self.file_bits[f as usize] as usize];
        for i in 0..2 {
            if fl[i] >= 0 {
                let p = ids[self.cells[cell(f, fl[i] as u8) as usize] as usize];
                if p == rook || p == king {
                    return true;
                }
            }
            if fl[i + 2] >= 0
                && ids[self.cells[cell(f, fl[i + 2] as u8) as usize] as usize] == cannon
            {
                return true;
            }
        }
        let rl = RANK_SLIDE[f as usize][self.rank_bits[r as usize] as usize];
        for i in 0..2 {
            if rl[i] >= 0 && ids[self.cells[cell(rl[i] as u8, r) as usize] as usize] == rook {
                return true;
            }
            if rl[i + 2] >= 0
                && ids[self.cells[cell(rl[i + 2] as u8, r) as usize] as usize] == cannon
            {
                return true;
            }
        }
        let horse = code(by, Kind::Horse);
        // A horse two ranks and one file away (or the reverse) attacks `k`
        // when the point diagonally next to `k` on its side is empty.
        for (d, a, b) in [
            (17i8, 33i8, 18i8),
            (15, 31, 14),
            (-15, -31, -14),
            (-17, -33, -18),
        ] {
            if self.cells[step(k, d) as usize] == 0
                && (ids[self.cells[step(k, a) as usize] as usize] == horse
                    || ids[self.cells[step(k, b) as usize] as usize] == horse)
            {
                return true;
            }
        }
        let pawn = code(by, Kind::Pawn);
        let front: i8 = if by == Color::Red { -16 } else { 16 };
        ids[self.cells[step(k, front) as usize] as usize] == pawn
            || ids[self.cells[step(k, 1) as usize] as usize] == pawn
            || ids[self.cells[step(k, -1) as usize] as usize] == pawn
    }

    /// Appends every pseudo-legal move of the side to move (captures of the
    /// enemy king cannot occur in a legal position).
    pub(crate) fn gen_pseudo(&self, list: &mut MoveList) {
        let us = self.side;
        let own = us.flag();
        let them = us.other().flag();
        let base = own as usize;
        let cells = &self.cells;
        // Empty or enemy: a point the mover may go to.
        let free = |c: u8| {
            let v = cells[c as usize];
            v == 0 || v & them != 0
        };
        let palace = &PALACE[us as usize];

        let k = self.squares[base];
        for d in ORTH {
            let t = step(k, d);
            if palace[t as usize] && free(t) {
                list.push(k, t);
            }
        }
        for id in base + 1..=base + 2 {
            let s = self.squares[id];
            if s == 0 {
                continue;
            }
            for d in DIAG {
                let t = step(s, d);
                if palace[t as usize] && free(t) {
                    list.push(s, t);
                }
            }
        }
        let half = &OWN_HALF[us as usize];
        for id in base + 3..=base + 4 {
            let s = self.squares[id];
            if s == 0 {
                continue;
            }
            for d in DIAG {
                let t = step(s, 2 * d);
                if half[t as usize] && cells[step(s, d) as usize] == 0 && free(t) {
                    list.push(s, t);
                }
            }
        }
        for id in base + 5..=base + 6 {
            let s = self.squares[id];
            if s == 0 {
                continue;
            }
            for (leg, targets) in HORSE {
                if cells[step(s, leg) as usize] != 0 {
                    continue;
                }
                for d in targets {
                    let t = step(s, d);
                    if free(t) {
                        list.push(s, t);
                    }
                }
            }
        }
        for id in base + 7..=base + 8 {
            let s = self.squares[id];
            if s == 0 {
                continue;
            }
            for d in ORTH {
                let mut t = step(s, d);
                loop {
                    let v = cells[t as usize];
                    if v == 0 {
                        list.push(s, t);
                    } else {
                        if v & them != 0 {
                            list.push(s, t);
                        }
                        break;
                    }
                    t = step(t, d);
                }
            }
        }
        for id in base + 9..=base + 10 {
            let s = self.squares[id];
            if s == 0 {
                continue;
            }
            for d in ORTH {
                let mut t = step(s, d);
                // Quiet moves up to the screen.
                loop {
                    let v = cells[t as usize];
                    if v != 0 {
                        break;
                    }
                    list.push(s, t);
                    t = step(t, d);
                }
                if cells[t as usize] == OFF {
                    continue;
                }
                // Over the screen to the next piece.
                loop {
                    t = step(t, d);
                    let v = cells[t as usize];
                    if v != 0 {
                        if v & them != 0 {
                            list.push(s, t);
                        }
                        break;
                    }
                }
            }
        }
        let fwd: i8 = if us == Color::Red { 16 } else { -16 };
        for id in base + 11..=base + 15 {
            let s = self.squares[id];
            if s == 0 {
                continue;
            }
            let t = step(s, fwd);
            if free(t) {
                list.push(s, t);
            }
            if !half[s as usize] {
                for d in [1, -1] {
                    let t = step(s, d);
                    if free(t) {
                        list.push(s, t);
                    }
                }
            }
        }
    }

    /// Whether the (pseudo-legal) move `m` leaves the mover's king safe, by
    /// making it on the board.
    #[inline]
    fn safe_after(&mut self, m: Move) -> bool {
        let us = self.side;
        let cap = self.move_pieces(m);
        let safe = !self.king_attacked(self.king_cell(us), us.other());
        self.unmove_pieces(m, cap);
        safe
    }

    /// What the legality test of this position's moves needs, found once: the king's point,
    /// whether it is in check, which lines through it an enemy rook, cannon or king holds,
    /// and the legs of enemy horses aimed at it (see [`Legality::risky`]).
    pub fn legality(&self) -> Legality {
        let us = self.side;
        let k = self.king_cell(us);
        let in_check = self.king_attacked(k, us.other());
        let (kf, kr) = (file_of(k), rank_of(k));
        // Which lines can hurt at all: an enemy rook or cannon on the king's
        // rank, an enemy rook, cannon or king on its file, an enemy cannon
        // (needing a screen) on either.
        let base = us.other().flag() as usize;
        let (mut rank_slider, mut file_slider, mut rank_cannon, mut file_cannon) =
            (false, false, false, false);
        for id in [base, base + 7, base + 8, base + 9, base + 10] {
            let s = self.squares[id];
            if s == 0 {
                continue;
            }
            let cannon = id >= base + 9;
            if rank_of(s) == kr && id != base {
                rank_slider = true;
                rank_cannon |= cannon;
            }
            if file_of(s) == kf {
                file_slider = true;
                file_cannon |= cannon;
            }
        }
        // The points diagonally next to the king that are the leg of an enemy horse aimed
        // at it (0 marks an unused slot: no board point is cell 0).
        let horse = code(us.other(), Kind::Horse);
        let ids = &super::board::ID_CODE;
        let mut legs = [0u8; 4];
        let mut n_legs = 0;
        for (d, a, b) in [
            (17i8, 33i8, 18i8),
            (15, 31, 14),
            (-15, -31, -14),
            (-17, -33, -18),
        ] {
            if ids[self.cells[step(k, a) as usize] as usize] == horse
                || ids[self.cells[step(k, b) as usize] as usize] == horse
            {
                legs[n_legs] = step(k, d);
                n_legs += 1;
            }
        }
        Legality {
            k,
            kf,
            kr,
            in_check,
            rank_slider,
            file_slider,
            rank_cannon,
            file_cannon,
            legs,
        }
    }

    /// Whether the pseudo-legal move `m` leaves the mover's king safe: made on the board and
    /// unmade (the position is as before). Needed only for the moves
    /// [`Legality::risky`] names.
    pub fn keeps_king_safe(&mut self, m: Move) -> bool {
        self.safe_after(m)
    }

    /// Removes the illegal moves from a pseudo-legal list (see the module docs).
    fn retain_legal(&mut self, list: &mut MoveList) {
        let legality = self.legality();
        let mut i = 0;
        while i < list.len {
            let m = list.moves[i];
            if legality.risky(m) && !self.safe_after(m) {
                list.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// The pseudo-legal moves of the side to move (legal but for the king's safety), in
    /// generation order: a search that tests legality one move at a time, when it comes to
    /// a move ([`Legality`]), skips the test for the moves a cutoff leaves unsearched.
    pub fn pseudo_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list);
        list
    }

    /// Appends the legal moves to `list` (cleared first).
    pub(crate) fn legal_into(&mut self, list: &mut MoveList) {
        list.len = 0;
        self.gen_pseudo(list);
        self.retain_legal(list);
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.clone().legal_into(&mut list);
        list
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list);
        list.contains(m) && self.clone().safe_after(m)
    }

    /// Checkmate and stalemate both lose in xiangqi: whether the side to move
    /// has no legal move.
    /// Stops at the first legal move found: [`Record::judge`] asks this of
    /// every position it rules.
    ///
    /// [`Record::judge`]: super::judge::Record::judge
    pub fn has_no_moves(&self) -> bool {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list);
        let mut pos = self.clone();
        !list.as_slice().iter().any(|&m| pos.safe_after(m))
    }

    /// Number of legal move paths of length `depth` (bulk-counted at the last
    /// ply), refused past [`MAX_PERFT_DEPTH`].
    pub fn perft(&mut self, depth: u32) -> Result<u64, PerftError> {
        check_perft_depth(depth)?;
        Ok(self.perft_unchecked(depth))
    }

    /// The recursion of [`Position::perft`]: one stack frame (with its move
    /// list) per ply, so `depth` must have been checked.
    fn perft_unchecked(&mut self, depth: u32) -> u64 {
        let mut list = MoveList::new();
        self.legal_into(&mut list);
        if depth <= 1 {
            return if depth == 0 { 1 } else { list.len as u64 };
        }
        let mut n = 0;
        for i in 0..list.len {
            let m = list.moves[i];
            let u = self.make(m);
            n += self.perft_unchecked(depth - 1);
            self.unmake(m, u);
        }
        n
    }

    /// Perft split by first move, in move-generation order.
    pub fn perft_divide(&mut self, depth: u32) -> Result<Vec<(Move, u64)>, PerftError> {
        check_perft_depth(depth)?;
        let mut list = MoveList::new();
        self.legal_into(&mut list);
        let mut out = Vec::with_capacity(list.len);
        for &m in list.as_slice() {
            let u = self.make(m);
            let n = if depth <= 1 {
                1
            } else {
                self.perft_unchecked(depth - 1)
            };
            self.unmake(m, u);
            out.push((m, n));
        }
        Ok(out)
    }
}

/// A position's legality test, found once ([`Position::legality`]) and asked of each
/// pseudo-legal move: most moves cannot expose the king, and only those that may are made on
/// the board ([`Position::keeps_king_safe`]).
#[derive(Clone, Copy, Debug)]
pub struct Legality {
    /// The king's cell, file and rank.
    k: u8,
    kf: u8,
    kr: u8,
    in_check: bool,
    rank_slider: bool,
    file_slider: bool,
    rank_cannon: bool,
    file_cannon: bool,
    /// Legs of enemy horses aimed at the king (0: none).
    legs: [u8; 4],
}

impl Legality {
    /// Whether the pseudo-legal move `m` may leave the king attacked, so that it must be made
    /// to know: in check every move; otherwise a king move, a move off a line an enemy
    /// slider or the enemy king holds through the king, a move onto such a line (a cannon's
    /// screen), or a move off the leg of a horse aimed at the king.
    #[inline]
    pub fn risky(&self, m: Move) -> bool {
        self.in_check
            || m.from == self.k
            || (self.file_slider && file_of(m.from) == self.kf)
            || (self.rank_slider && rank_of(m.from) == self.kr)
            || (self.file_cannon && file_of(m.to) == self.kf)
            || (self.rank_cannon && rank_of(m.to) == self.kr)
            || self.legs.contains(&m.from)
    }
}

/// The deepest perft counted. Perft recurses once per ply with a move list
/// of [`MAX_MOVES`] on the stack, so an unbounded depth overflows the stack;
/// and from the start position depth 7 already takes minutes, so no real
/// count needs more than this.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Why a perft was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    #[error("perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})")]
    TooDeep { depth: u32 },
}

/// The one place the perft depth limit is checked.
pub fn check_perft_depth(depth: u32) -> Result<(), PerftError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftError::TooDeep { depth });
    }
    Ok(())
}

impl Position {
    /// Whether `m` is among the pseudo-legal moves (legal but for king safety).
    pub(crate) fn pseudo_contains(&self, m: Move) -> bool {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list);
        list.contains(m)
    }

    /// The legal captures of the side to move (a quiescence search's moves).
    pub fn legal_captures(&self) -> MoveList {
        let mut list = MoveList::new();
        self.gen_pseudo(&mut list);
        let mut i = 0;
        while i < list.len {
            if self.cells[list.moves[i].to as usize] == 0 {
                list.swap_remove(i);
            } else {
                i += 1;
            }
        }
        self.clone().retain_legal(&mut list);
        list
    }

    /// Whether the legal move `m` gives check (known before it is played).
    pub fn gives_check(&self, m: Move) -> bool {
        let mut p = self.clone();
        p.make(m);
        p.in_check()
    }

    /// Whether, after the pseudo-legal move `m`, the point it lands on is attacked by the
    /// opponent's rooks, cannons, horses, pawns or by the flying general: a cheap test of
    /// whether a capture can be taken back (advisors, elephants and the king's own steps are
    /// not counted, so it may miss a defender; a search uses it only to order moves and to
    /// prune).
    pub fn lands_attacked(&self, m: Move) -> bool {
        let mut p = self.clone();
        let us = p.side;
        p.move_pieces(m);
        p.king_attacked(m.to, us.other())
    }

    /// Whether the two kings stand on one file with nothing between them.
    pub fn kings_facing(&self) -> bool {
        let (r, b) = (self.king_cell(Color::Red), self.king_cell(Color::Black));
        if file_of(r) != file_of(b) {
            return false;
        }
        let fl = FILE_SLIDE[rank_of(r) as usize][self.file_bits[file_of(r) as usize] as usize];
        fl[0] == rank_of(b) as i8
    }

    /// The pieces of the side not to move that attack the side to move's
    /// king, as points (the other king too when the kings face each other).
    pub fn checkers(&self) -> Vec<super::board::Square> {
        let us = self.side;
        let k = self.king_cell(us);
        let mut flipped = self.clone();
        flipped.side = us.other();
        let mut list = MoveList::new();
        flipped.gen_pseudo(&mut list);
        let mut out: Vec<super::board::Square> = list
            .as_slice()
            .iter()
            .filter(|m| m.to == k)
            .map(|m| super::board::Square(m.from))
            .collect();
        if self.kings_facing() {
            out.push(super::board::Square(self.king_cell(us.other())));
        }
        out
    }
}
