//! A game: a start position plus moves, with every position's FIDE 9.2.3 identity.
//!
//! Each ply keeps the key of its position ([`super::key`]): two positions have
//! the same key exactly when FIDE 9.2.3 calls them the same (same player to
//! move, same pieces on the same squares, same castling rights, same *legal*
//! en passant captures).
//!
//! # Counting repetitions in O(1)
//!
//! An irreversible move (a capture, a pawn move, a move that loses a castling
//! right, or any move in a position where an en passant capture was legal and
//! was not made) changes something that can never change back: material, the
//! pawn structure, castling rights, or the availability of that en passant
//! capture. No position before such a move can therefore appear after it, so
//! the game splits into *reversible stretches* and repetitions only happen
//! inside one. The game keeps a map from key to the latest ply with that key
//! for the current stretch; each ply records its occurrence number and the
//! previous ply with the same position, so adding a ply is one hash-map
//! insertion and the earlier occurrences of any ply are a short chain.
//!
//! # Games from a FEN
//!
//! A game started from a FEN knows nothing of what came before its start
//! position: the start position is counted as its first occurrence, even if
//! in the real game it had appeared before. (The FEN's halfmove clock is kept,
//! so the fifty- and seventy-five-move counts continue from it.)

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use shakmaty::fen::Fen;
use shakmaty::san::SanError;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, CastlingMode, Chess, EnPassantMode, Move, MoveList, Position, attacks};

use super::ending::{self, Ending, EndingKind};
use super::key::{play_keyed, position_key, reversible_key_after};
use super::notation::MoveNumber;

/// SAN as the standard writes it, with `0-0` / `0-0-0` (zeros) accepted for castling.
/// Drops (`Q@e4`) and null moves are not moves of standard chess: `None`.
pub fn read_san(text: &[u8]) -> Option<SanPlus> {
    let zeros = text.starts_with(b"0-0");
    let fixed: Vec<u8>;
    let text = if zeros {
        let castle = if text.starts_with(b"0-0-0") { 5 } else { 3 };
        fixed = text
            .iter()
            .enumerate()
            .map(|(i, &b)| if i < castle && b == b'0' { b'O' } else { b })
            .collect();
        &fixed[..]
    } else {
        text
    };
    let san = SanPlus::from_ascii(text).ok()?;
    match san.san {
        San::Put { .. } | San::Null => None,
        _ => Some(san),
    }
}

/// A hasher for keys that are already uniformly random (Zobrist keys).
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(crate) type KeyMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// What the game records about one ply (ply 0 is the start position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyRecord {
    /// Zobrist key of the position at this ply (FIDE 9.2.3 identity).
    pub key: u64,
    /// The move that led to this position (`None` at ply 0).
    pub mv: Option<Move>,
    /// That move in SAN, without check suffix (see [`Game::san_plus`]).
    pub san: Option<San>,
    /// Whether the move into this position was irreversible.
    pub irreversible: bool,
    /// How many times this position has appeared up to this ply, this one
    /// included (1 = first time).
    pub occurrence: u32,
    /// The latest earlier ply holding the same position.
    pub previous: Option<usize>,
}

/// How a game ended, if it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Termination {
    /// The ending and its explanation.
    pub ending: Ending,
    /// The ply at which it ended.
    pub ply: usize,
}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The text is not a move in the notation expected.
    #[error("cannot read move '{text}': {reason}")]
    Unreadable { text: String, reason: MoveSyntax },
    /// The move is not legal in the current position (`fen`).
    #[error("illegal move '{text}' at ply {ply} in position {fen}")]
    Illegal {
        text: String,
        ply: usize,
        fen: Box<Fen>,
    },
    /// The SAN matches more than one legal move in the current position (`fen`).
    #[error("ambiguous move '{text}' at ply {ply} in position {fen}")]
    Ambiguous {
        text: String,
        ply: usize,
        fen: Box<Fen>,
    },
    /// The game has ended (`reason`: how); no more moves can be played.
    #[error("the game is over ({reason}); move '{text}' at ply {ply} refused")]
    GameOver {
        text: String,
        ply: usize,
        reason: EndingKind,
    },
}

/// The notation a move's text was read in and is not written in ([`PlayError::Unreadable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSyntax {
    /// Not a UCI move.
    Uci,
    /// Not a SAN move.
    San,
}

impl fmt::Display for MoveSyntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveSyntax::Uci => "not a UCI move (e.g. e2e4, e7e8q)",
            MoveSyntax::San => "not a SAN move (e.g. Nf3, exd5, O-O, e8=Q)",
        })
    }
}

/// Why a start position could not be set up (the strict FEN reader's error).
pub use crate::fen::FenError;

/// The plies a new game has room for before its vectors grow (a master game has about 80).
const RESERVED_PLIES: usize = 128;

/// A game of chess: a start position plus the moves played from it.
#[derive(Clone)]
pub struct Game {
    positions: Vec<Chess>,
    records: Vec<PlyRecord>,
    /// Key → latest ply with that key, over the current reversible stretch.
    stretch: KeyMap,
    /// The keys of the current stretch that have appeared at least twice: the
    /// only positions a move can make appear a third time. Usually empty or
    /// tiny, so claims with a move skip the map entirely.
    repeated: Vec<u64>,
    /// The legal moves of the current position, generated the first time they are asked
    /// for (claims, the trainer): reading a game needs only each move's SAN candidates and
    /// whether a legal move is left ([`has_legal_move`]), so most plies never generate them.
    legal: OnceLock<MoveList>,
    termination: Option<Termination>,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("start", &self.start_fen())
            .field("moves", &self.uci_moves())
            .field("termination", &self.termination)
            .finish()
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A game from the standard start position.
    pub fn new() -> Game {
        Game::from_position(Chess::default())
    }

    /// A game from a position.
    pub fn from_position(start: Chess) -> Game {
        let key = position_key(&start);
        let mut stretch = KeyMap::default();
        stretch.insert(key, 0);
        // Room for a game of average length: a game read move by move does not grow its
        // vectors (copying every position so far) several times over.
        let mut positions = Vec::with_capacity(RESERVED_PLIES + 1);
        positions.push(start);
        let mut records = Vec::with_capacity(RESERVED_PLIES + 1);
        records.push(PlyRecord {
            key,
            mv: None,
            san: None,
            irreversible: false,
            occurrence: 1,
            previous: None,
        });
        let mut game = Game {
            positions,
            records,
            stretch,
            repeated: Vec::new(),
            legal: OnceLock::new(),
            termination: None,
        };
        game.termination = game
            .automatic_ending()
            .map(|ending| Termination { ending, ply: 0 });
        game
    }

    /// A game from a FEN, read strictly ([`crate::fen`]; standard chess, castling in
    /// standard notation).
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        crate::fen::position(fen).map(Game::from_position)
    }

    /// Make room for `plies` more moves (a replay of a game of known length).
    pub fn reserve(&mut self, plies: usize) {
        self.positions.reserve(plies);
        self.records.reserve(plies);
    }

    /// The number of plies played (positions are `0..=len()`).
    pub fn len(&self) -> usize {
        self.records.len() - 1
    }

    /// True when no move has been played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        self.positions.last().expect("a game has a start position")
    }

    /// The position at `ply` (0 = start). Panics if `ply > len()`.
    pub fn position_at(&self, ply: usize) -> &Chess {
        &self.positions[ply]
    }

    /// The legal moves of the current position (generated once per position, when first
    /// asked for).
    pub fn legal_moves(&self) -> &[Move] {
        self.legal.get_or_init(|| self.position().legal_moves())
    }

    /// Gives back the room reserved for plies not played (a game read move by move reserves
    /// `RESERVED_PLIES`: 23 KB a game): for games kept by the thousand, as the drill
    /// puzzles' (a file of 100,000 puzzles took 1.4 GB).
    pub fn shrink_to_fit(&mut self) {
        self.positions.shrink_to_fit();
        self.records.shrink_to_fit();
        self.repeated.shrink_to_fit();
        self.stretch.shrink_to_fit();
    }

    /// Whether the side to move has a legal move (else it is checkmated or stalemated):
    /// from the legal moves when they are at hand, else [`has_legal_move`].
    pub fn has_legal_moves(&self) -> bool {
        match self.legal.get() {
            Some(moves) => !moves.is_empty(),
            None => has_legal_move(self.position()),
        }
    }

    /// Whether `m` is legal in the current position: against the legal moves when they are
    /// at hand, else against the candidates of its target square only.
    fn is_legal(&self, m: Move) -> bool {
        match self.legal.get() {
            Some(moves) => moves.contains(&m),
            None => self.position().is_legal(m),
        }
    }

    /// The start position.
    pub fn start(&self) -> &Chess {
        &self.positions[0]
    }

    /// The start position as FEN.
    pub fn start_fen(&self) -> String {
        self.fen_at(0)
    }

    /// The position at `ply` as FEN (en passant square only if legal).
    pub fn fen_at(&self, ply: usize) -> String {
        self.fen(ply).to_string()
    }

    /// The FEN of the position at `ply`, as a value ([`Game::fen_at`] writes it).
    pub fn fen(&self, ply: usize) -> Fen {
        Fen::from_position(&self.positions[ply], EnPassantMode::Legal)
    }

    /// Why `text`, a move not legal in the current position, was refused.
    pub(crate) fn illegal(&self, text: String) -> PlayError {
        PlayError::Illegal {
            text,
            ply: self.len() + 1,
            fen: Box::new(self.fen(self.len())),
        }
    }

    /// The record of `ply`. Panics if `ply > len()`.
    pub fn record(&self, ply: usize) -> &PlyRecord {
        &self.records[ply]
    }

    /// The record of the current position.
    pub fn current(&self) -> &PlyRecord {
        self.records.last().expect("a game has a start position")
    }

    /// All records, ply 0 first.
    pub fn records(&self) -> &[PlyRecord] {
        &self.records
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.records.iter().filter_map(|r| r.mv)
    }

    /// The moves played, in UCI.
    pub fn uci_moves(&self) -> Vec<String> {
        self.moves()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect()
    }

    /// How many times the position at `ply` has appeared up to and including `ply`.
    pub fn occurrences(&self, ply: usize) -> u32 {
        self.records[ply].occurrence
    }

    /// The earlier plies holding the same position as `ply`, ascending.
    pub fn earlier(&self, ply: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.records[ply].occurrence as usize);
        let mut p = self.records[ply].previous;
        while let Some(q) = p {
            out.push(q);
            p = self.records[q].previous;
        }
        out.reverse();
        out
    }

    /// Every ply holding the same position as `ply`, earlier or later, ascending.
    pub fn same_as(&self, ply: usize) -> Vec<usize> {
        let key = self.records[ply].key;
        let mut out = self.earlier(ply);
        out.push(ply);
        // Later plies: scan forward while the stretch lasts.
        for (q, rec) in self.records.iter().enumerate().skip(ply + 1) {
            if rec.irreversible {
                break;
            }
            if rec.key == key {
                out.push(q);
            }
        }
        out
    }

    /// How the game ended, if it has.
    pub fn termination(&self) -> Option<&Termination> {
        self.termination.as_ref()
    }

    /// True when the game has ended (automatically or by a correct claim).
    pub fn is_over(&self) -> bool {
        self.termination.is_some()
    }

    /// The automatic ending at the current position, if any (checkmate,
    /// stalemate, insufficient material, fivefold repetition, seventy-five
    /// moves, in that precedence).
    pub fn automatic_ending(&self) -> Option<Ending> {
        ending::automatic(self)
    }

    /// The SAN of the move into `ply` with its check or mate suffix.
    pub fn san_plus(&self, ply: usize) -> Option<SanPlus> {
        let san = self.records[ply].san?;
        let pos = &self.positions[ply];
        let suffix = if pos.is_checkmate() {
            Some(Suffix::Checkmate)
        } else if pos.is_check() {
            Some(Suffix::Check)
        } else {
            None
        };
        Some(SanPlus { san, suffix })
    }

    /// The move number (as on a scoresheet) and side of the move into `ply` (`ply >= 1`).
    pub fn move_number(&self, ply: usize) -> MoveNumber {
        let before = &self.positions[ply - 1];
        MoveNumber {
            number: before.fullmoves().get(),
            side: before.turn(),
        }
    }

    /// A scoresheet label for a ply: "12.Nf3", "12...Nf6", or "the start position".
    pub fn ply_label(&self, ply: usize) -> String {
        if ply == 0 {
            return "the start position".to_string();
        }
        let san = self.san_plus(ply).expect("ply >= 1 has a move");
        format!("{}{san}", self.move_number(ply))
    }

    /// "after 12.Nf3" or "the start position": where a position stood.
    pub fn place_label(&self, ply: usize) -> String {
        if ply == 0 {
            "the start position".to_string()
        } else {
            format!("after {}", self.ply_label(ply))
        }
    }

    /// Play a legal move. Refused when the game is over or the move is illegal.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        let text = || m.to_uci(CastlingMode::Standard).to_string();
        if self.termination.is_some() {
            self.check_not_over(&text())?;
        }
        if !self.is_legal(m) {
            return Err(self.illegal(text()));
        }
        self.push_legal(m);
        Ok(())
    }

    /// Play a legal move even after the game has ended, keeping the first
    /// ending on record. For demonstrations that look past an ending (Euwe's
    /// sequence under the former rule); ordinary play uses [`Game::play`].
    pub fn play_past_end(&mut self, m: Move) -> Result<(), PlayError> {
        if !self.is_legal(m) {
            return Err(self.illegal(m.to_uci(CastlingMode::Standard).to_string()));
        }
        match self.termination.take() {
            // The first ending stays on record; judging (and explaining)
            // each later position would make long demonstrations quadratic.
            Some(first) => {
                self.push_unjudged(m);
                self.termination = Some(first);
            }
            None => self.push_legal(m),
        }
        Ok(())
    }

    /// Replay the next move of `other`, a game from the same start that this one is a
    /// beginning of, as [`Game::play_past_end`] would play it: the position, key, SAN and
    /// occurrence are copied from `other` instead of computed again. `None` when `other`
    /// has no more moves.
    pub fn replay_next(&mut self, other: &Game) -> Option<Move> {
        let ply = self.len() + 1;
        debug_assert!(self.start() == other.start() && self.len() <= other.len());
        let rec = other.records.get(ply)?.clone();
        let m = rec.mv?;
        if rec.irreversible {
            self.stretch.clear();
            self.repeated.clear();
        }
        self.stretch.insert(rec.key, ply as u32);
        if rec.occurrence == 2 {
            self.repeated.push(rec.key);
        }
        self.legal = OnceLock::new();
        self.positions.push(other.positions[ply].clone());
        self.records.push(rec);
        if self.termination.is_none() {
            self.judge_ending();
        }
        Some(m)
    }

    /// Parse and play a move in UCI notation.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, PlayError> {
        let m = self.parse_uci(text)?;
        self.check_not_over(text)?;
        self.push_legal(m);
        Ok(m)
    }

    /// Parse and play a move in SAN.
    pub fn play_san(&mut self, text: &str) -> Result<Move, PlayError> {
        let m = self.parse_san(text)?;
        self.check_not_over(text)?;
        self.push_legal(m);
        Ok(m)
    }

    /// Parse and play a move in SAN or UCI (UCI is tried first when it reads as UCI).
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        let m = self.parse_move(text)?;
        self.check_not_over(text)?;
        self.push_legal(m);
        Ok(m)
    }

    /// A legal move in the current position from SAN or UCI text.
    pub fn parse_move(&self, text: &str) -> Result<Move, PlayError> {
        let t = text.trim();
        if t.parse::<UciMove>().is_ok() {
            return self.parse_uci(t);
        }
        self.parse_san(t)
    }

    /// A legal move in the current position from UCI text.
    pub fn parse_uci(&self, text: &str) -> Result<Move, PlayError> {
        let t = text.trim();
        let uci: UciMove = t.parse().map_err(|_| PlayError::Unreadable {
            text: t.to_string(),
            reason: MoveSyntax::Uci,
        })?;
        uci.to_move(self.position())
            .map_err(|_| self.illegal(t.to_string()))
    }

    /// A legal move in the current position from SAN text.
    pub fn parse_san(&self, text: &str) -> Result<Move, PlayError> {
        let t = text.trim();
        let san = read_san(t.as_bytes()).ok_or_else(|| PlayError::Unreadable {
            text: t.to_string(),
            reason: MoveSyntax::San,
        })?;
        self.san_to_move(&san.san, t)
    }

    /// Parse and play a move read as SAN already (`text`: as written, for errors).
    pub fn play_san_move(&mut self, san: &San, text: &str) -> Result<Move, PlayError> {
        let (m, written) = self.san_to_move_and_san(san, text)?;
        self.check_not_over(text)?;
        self.push_unjudged_san(m, written);
        self.judge_ending();
        Ok(m)
    }

    /// The legal move `san` means in the current position (`t`: as written, for errors).
    fn san_to_move(&self, san: &San, t: &str) -> Result<Move, PlayError> {
        self.san_to_move_and_san(san, t).map(|(m, _)| m)
    }

    /// The legal move `san` means in the current position (`t`: as written, for errors) and
    /// its SAN as [`San::from_move`] writes it: `San::to_move`'s reading (the one move it
    /// matches among the legal moves of its role to its target square, the only moves
    /// generated), with those same candidates used to disambiguate the move as written.
    fn san_to_move_and_san(&self, san: &San, t: &str) -> Result<(Move, San), PlayError> {
        let pos = self.position();
        let found = match *san {
            San::Normal { role, to, .. } => {
                let candidates = pos.san_candidates(role, to);
                let mut matching = candidates.iter().filter(|&&m| san.matches(m));
                match (matching.next(), matching.next()) {
                    (Some(&m), None) => Ok((m, San::disambiguate(m, &candidates))),
                    (Some(_), Some(_)) => Err(SanError::AmbiguousSan),
                    (None, _) => Err(SanError::IllegalSan),
                }
            }
            _ => san.to_move(pos).map(|m| (m, San::from_move(pos, m))),
        };
        found.map_err(|e| match e {
            SanError::AmbiguousSan => PlayError::Ambiguous {
                text: t.to_string(),
                ply: self.len() + 1,
                fen: Box::new(self.fen(self.len())),
            },
            SanError::IllegalSan => self.illegal(t.to_string()),
        })
    }

    fn check_not_over(&self, text: &str) -> Result<(), PlayError> {
        match &self.termination {
            Some(t) => Err(PlayError::GameOver {
                text: text.trim().to_string(),
                ply: self.len() + 1,
                reason: t.ending.kind,
            }),
            None => Ok(()),
        }
    }

    /// Append a move known to be legal in the current position, ignoring
    /// whether the game has ended. O(1) amortised.
    pub(crate) fn push_legal(&mut self, m: Move) {
        self.push_unjudged(m);
        self.judge_ending();
    }

    /// The automatic ending of the position just reached, if any, as the game's.
    fn judge_ending(&mut self) {
        let ply = self.len();
        self.termination = self
            .automatic_ending()
            .map(|ending| Termination { ending, ply });
    }

    /// Append a move known to be legal, leaving the ending as it was.
    fn push_unjudged(&mut self, m: Move) {
        // `San::from_move`: it disambiguates among the legal moves of the same role to the
        // same square, which the legal moves include when they are at hand.
        let san = match self.legal.get() {
            Some(legal) => San::disambiguate(m, legal),
            None => San::from_move(self.position(), m),
        };
        self.push_unjudged_san(m, san);
    }

    /// [`Game::push_unjudged`] with the move's SAN already known.
    fn push_unjudged_san(&mut self, m: Move, san: San) {
        let pos = self.position();
        let irreversible = pos.is_irreversible(m);
        let mut next = pos.clone();
        let key = if irreversible {
            play_keyed(&mut next, self.current().key, m)
        } else {
            next.play_unchecked(m);
            reversible_key_after(pos, self.current().key, m)
        };
        let ply = self.records.len();
        if irreversible {
            self.stretch.clear();
            self.repeated.clear();
        }
        let previous = self.stretch.insert(key, ply as u32).map(|p| p as usize);
        let occurrence = previous.map_or(1, |p| self.records[p].occurrence + 1);
        if occurrence == 2 {
            self.repeated.push(key);
        }
        self.legal = OnceLock::new();
        self.positions.push(next);
        self.records.push(PlyRecord {
            key,
            mv: Some(m),
            san: Some(san),
            irreversible,
            occurrence,
            previous,
        });
    }

    /// Take back the last move; returns it. Also lifts any ending (a claimed
    /// draw or an automatic ending), since the game goes back to before it.
    pub fn undo(&mut self) -> Option<Move> {
        if self.records.len() == 1 {
            if self
                .termination
                .as_ref()
                .is_some_and(|t| t.ending.kind.is_claim())
            {
                self.termination = None;
            }
            return None;
        }
        let rec = self.records.pop().expect("len > 1");
        self.positions.pop();
        self.legal = OnceLock::new();
        if rec.irreversible {
            // Rebuild the map of the stretch that is current again.
            self.stretch.clear();
            self.repeated.clear();
            let start = self
                .records
                .iter()
                .rposition(|r| r.irreversible)
                .unwrap_or(0);
            for (p, r) in self.records.iter().enumerate().skip(start) {
                self.stretch.insert(r.key, p as u32);
                if r.occurrence == 2 {
                    self.repeated.push(r.key);
                }
            }
        } else {
            if rec.occurrence == 2
                && let Some(i) = self.repeated.iter().position(|&k| k == rec.key)
            {
                self.repeated.swap_remove(i);
            }
            match rec.previous {
                Some(p) => {
                    self.stretch.insert(rec.key, p as u32);
                }
                None => {
                    self.stretch.remove(&rec.key);
                }
            }
        }
        self.termination = self.automatic_ending().map(|ending| Termination {
            ending,
            ply: self.len(),
        });
        rec.mv
    }

    /// Whether the position with `key` has appeared at least twice in the
    /// current stretch (so one more appearance makes a threefold repetition).
    #[inline]
    pub(crate) fn appeared_twice(&self, key: u64) -> bool {
        self.repeated.contains(&key)
    }

    /// True when no position of the current stretch has appeared twice: then
    /// no move can make a position appear a third time.
    #[inline]
    pub(crate) fn nothing_repeated(&self) -> bool {
        self.repeated.is_empty()
    }

    /// The latest ply in the current stretch holding the position with `key`.
    pub(crate) fn latest_with_key(&self, key: u64) -> Option<usize> {
        self.stretch.get(&key).map(|&p| p as usize)
    }

    /// End the game by a correct draw claim (used by [`super::claim::judge`]).
    pub(crate) fn end_by_claim(&mut self, ending: Ending) {
        debug_assert!(matches!(
            ending.kind,
            EndingKind::ThreefoldClaim | EndingKind::FiftyMoveClaim
        ));
        self.termination = Some(Termination {
            ending,
            ply: self.len(),
        });
    }

    /// End the game for a reason outside the rules core (resignation, flag fall, agreement).
    pub fn end_externally(&mut self, ending: Ending) {
        self.termination = Some(Termination {
            ending,
            ply: self.len(),
        });
    }

    /// Lift an ending outside the rules of play (a resignation, an agreed draw, a recorded
    /// result: [`EndingKind::is_outside_play`]) so that play goes on from the position, as
    /// players may choose to analyse on. An ending the rules made (a mate, a claim, a flag
    /// fall) is not lifted: returns whether the game goes on.
    pub fn play_on(&mut self) -> bool {
        if self
            .termination
            .as_ref()
            .is_some_and(|t| t.ending.kind.is_outside_play())
        {
            self.termination = None;
        }
        self.termination.is_none()
    }
}

/// Whether the side to move in `pos` has a legal move, without generating them all in
/// nearly every position: not in check, a king step to a square no enemy piece attacks
/// (the king taken off the board, so a slider's ray through it counts) is legal, and so is
/// any move of a piece that is not pinned to its king (not the only piece between the king
/// and an enemy slider on its line): a knight or slider to a square without a piece of its
/// own, a pawn's push to an empty square or capture. En passant and the moves of pinned
/// pieces are left to the full generation, which also answers in check and whenever the
/// quick look finds nothing (so "false" is always the generator's answer).
pub fn has_legal_move(pos: &Chess) -> bool {
    if pos.is_check() {
        return !pos.legal_moves().is_empty();
    }
    let board = pos.board();
    let turn = pos.turn();
    let us = pos.us();
    let them = pos.them();
    let occupied = board.occupied();
    let Some(king) = board.king_of(turn) else {
        return !pos.legal_moves().is_empty();
    };
    // Our pieces pinned to the king (as shakmaty's generator finds them).
    let snipers = ((attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens()))
        & them;
    let mut pinned = Bitboard(0);
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if !between.more_than_one() {
            pinned |= between & us;
        }
    }
    let free = us & !pinned;
    let pawns = free & board.pawns();
    let pushes = match turn {
        shakmaty::Color::White => pawns.shift(8),
        shakmaty::Color::Black => pawns.shift(-8),
    };
    if (pushes & !occupied).any() {
        return true;
    }
    if (free & board.knights())
        .into_iter()
        .any(|from| (attacks::knight_attacks(from) & !us).any())
        || pawns
            .into_iter()
            .any(|from| (attacks::pawn_attacks(turn, from) & them).any())
        || (free & board.bishops_and_queens())
            .into_iter()
            .any(|from| (attacks::bishop_attacks(from, occupied) & !us).any())
        || (free & board.rooks_and_queens())
            .into_iter()
            .any(|from| (attacks::rook_attacks(from, occupied) & !us).any())
    {
        return true;
    }
    let without_king = occupied ^ Bitboard::from_square(king);
    for to in attacks::king_attacks(king) & !us {
        if board.attacks_to(to, !turn, without_king).is_empty() {
            return true;
        }
    }
    !pos.legal_moves().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shuffle::Rng;

    /// The quick answer is the generator's in every position of random games (mates,
    /// stalemates, pins, en passant) and in a stalemate where only a pinned knight has
    /// squares to go to.
    #[test]
    fn has_legal_move_agrees_with_the_move_generator() {
        let stalemate_pinned_knight =
            crate::fen::position("R5nk/5K2/6P1/8/8/8/8/8 b - - 0 1").expect("test FEN");
        assert!(stalemate_pinned_knight.legal_moves().is_empty());
        assert!(!has_legal_move(&stalemate_pinned_knight));
        let mut rng = Rng::new(26);
        let mut without_moves = 0;
        for _ in 0..400 {
            let mut pos = Chess::default();
            for _ in 0..300 {
                let legal = pos.legal_moves();
                assert_eq!(has_legal_move(&pos), !legal.is_empty(), "{:?}", pos);
                if legal.is_empty() {
                    without_moves += 1;
                    break;
                }
                pos.play_unchecked(legal[rng.below(legal.len())]);
            }
        }
        assert!(
            without_moves > 5,
            "only {without_moves} games reached a mate or stalemate"
        );
    }

    /// A move read from SAN (as written, or with more disambiguation than needed) is the
    /// move it names, and the game keeps its SAN as `San::from_move` writes it.
    #[test]
    fn san_read_and_kept_as_shakmaty_writes_it() {
        let mut rng = Rng::new(9);
        for _ in 0..100 {
            let mut game = Game::new();
            for _ in 0..200 {
                if game.is_over() {
                    break;
                }
                let legal = game.position().legal_moves();
                let m = legal[rng.below(legal.len())];
                let san = San::from_move(game.position(), m);
                let full = match (san, m) {
                    (
                        San::Normal {
                            role,
                            capture,
                            to,
                            promotion,
                            ..
                        },
                        Move::Normal { from, .. },
                    ) => San::Normal {
                        role,
                        file: Some(from.file()),
                        rank: Some(from.rank()),
                        capture,
                        to,
                        promotion,
                    },
                    _ => san,
                };
                assert_eq!(game.san_to_move(&full, "full"), Ok(m));
                game.play_san_move(&san, "san").expect("legal");
                assert_eq!(game.current().san, Some(san));
            }
        }
    }

    /// A refused move keeps its facts typed: the notation it failed, the position it was
    /// illegal or ambiguous in, the ending that closed the game; the message is built
    /// from them.
    #[test]
    fn play_errors_carry_their_facts() {
        let mut g = Game::new();
        let e = g.play_uci("zz").unwrap_err();
        assert!(
            matches!(
                e,
                PlayError::Unreadable {
                    reason: MoveSyntax::Uci,
                    ..
                }
            ),
            "{e}"
        );
        let e = g.play_san("Zz9").unwrap_err();
        assert!(
            matches!(
                e,
                PlayError::Unreadable {
                    reason: MoveSyntax::San,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "cannot read move 'Zz9': not a SAN move (e.g. Nf3, exd5, O-O, e8=Q)"
        );
        g.play_uci("e2e4").unwrap();
        let e = g.play_uci("e4e5").unwrap_err();
        match &e {
            PlayError::Illegal { ply: 2, fen, .. } => assert_eq!(**fen, g.fen(1)),
            other => panic!("{other}"),
        }
        assert_eq!(
            e.to_string(),
            format!("illegal move 'e4e5' at ply 2 in position {}", g.fen_at(1))
        );
        let g = Game::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
        let e = g.parse_san("Nd2").unwrap_err();
        assert!(matches!(e, PlayError::Ambiguous { ply: 1, ref fen, .. } if **fen == g.fen(0)));
        let mut g = Game::from_fen("4k3/8/8/8/8/8/3r4/4K1B1 w - - 0 1").unwrap();
        g.play_uci("e1d2").unwrap();
        let e = g.play_uci("e8e7").unwrap_err();
        assert!(
            matches!(
                e,
                PlayError::GameOver {
                    reason: EndingKind::InsufficientMaterial,
                    ply: 2,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "the game is over (insufficient material); move 'e8e7' at ply 2 refused"
        );
    }
}
