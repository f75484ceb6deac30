//! The opening book: main lines of the common openings (`assets/book.txt`), so that two
//! games against the engine do not open alike.
//!
//! Each line names an opening and gives its moves in SAN from the standard start. While a
//! game from the standard start follows at least one line, the engine may answer from the
//! book: among the lines that continue the game so far, one is chosen at random and its
//! next move is played. Lines share their beginnings, so a move is chosen with the weight of
//! the lines through it (1.e4 more often than 1.c4, as the book has more lines of it). Once
//! the game leaves every line, or the lines end, the engine searches.
//!
//! The lines were chosen from opening theory and checked to be balanced: every final
//! position is within ±0.70 pawns by Stockfish at depth 14 (`tools/check_book.py`), and
//! every move is legal (`tests` below replay them through the rules core).
//!
//! The trainer uses the book by default (`book = false` in `config.toml` turns it off); the
//! UCI engine only with `setoption name OwnBook value true`, so matches and GUIs that bring
//! their own openings are not changed.

use std::sync::OnceLock;

use shakmaty::{Chess, Move};

use threefold_rules::shuffle::Rng;
use threefold_rules::{Game, PlayError};

/// The book's text, built into the binary.
const BOOK_TEXT: &str = include_str!("../../../../assets/book.txt");

/// One line of the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookLine {
    /// The opening's name ("Sicilian Defence, Najdorf").
    pub name: String,
    /// Its moves from the standard start.
    pub moves: Vec<Move>,
}

/// A move the book offers, with the opening it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// The name of the line chosen.
    pub name: String,
}

/// What is wrong with a line of a book file.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum BookError {
    /// A line without the `|` between the name and the moves.
    #[error("line {line}: no '|' between the opening's name and its moves")]
    NoSeparator { line: usize },
    /// A line with a name but no moves, or moves but no name.
    #[error("line {line}: the name or the moves are missing")]
    Empty { line: usize },
    /// A move that cannot be played where it stands (`reason`: the rules core's refusal).
    #[error("line {line}: move {ply} '{san}' cannot be played: {reason}")]
    Move {
        line: usize,
        ply: usize,
        san: String,
        reason: PlayError,
    },
}

/// An opening book: lines from the standard start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    lines: Vec<BookLine>,
}

impl Book {
    /// Reads a book: one line per opening, `name | moves in SAN`; blank lines and lines
    /// starting with `#` are skipped. The first bad line is the error.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut lines = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let raw = raw.trim();
            if raw.is_empty() || raw.starts_with('#') {
                continue;
            }
            let (name, sans) = raw.split_once('|').ok_or(BookError::NoSeparator { line })?;
            let (name, sans) = (name.trim(), sans.trim());
            if name.is_empty() || sans.is_empty() {
                return Err(BookError::Empty { line });
            }
            let mut game = Game::new();
            let mut moves = Vec::new();
            for (ply, san) in sans.split_whitespace().enumerate() {
                let m = game.play_san(san).map_err(|e| BookError::Move {
                    line,
                    ply: ply + 1,
                    san: san.to_string(),
                    reason: e,
                })?;
                moves.push(m);
            }
            lines.push(BookLine {
                name: name.to_string(),
                moves,
            });
        }
        Ok(Book { lines })
    }

    /// The book built into the binary (`assets/book.txt`; the tests check that it reads
    /// whole, so the empty book a bad file would give is never shipped).
    pub fn builtin() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::parse(BOOK_TEXT).unwrap_or_default())
    }

    /// The lines of the book.
    pub fn lines(&self) -> &[BookLine] {
        &self.lines
    }

    /// A move from the book for the game that started at `start` and went on with
    /// `played`: the next move of a line chosen at random among those that continue it.
    /// `None` when the game did not start from the standard position, or has left the book.
    pub fn choose(&self, start: &Chess, played: &[Move], rng: &mut Rng) -> Option<BookMove> {
        if *start != Chess::default() {
            return None;
        }
        let next: Vec<&BookLine> = self
            .lines
            .iter()
            .filter(|l| l.moves.len() > played.len() && l.moves.starts_with(played))
            .collect();
        if next.is_empty() {
            return None;
        }
        let line = next[rng.below(next.len())];
        Some(BookMove {
            mv: line.moves[played.len()],
            name: line.name.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_book_reads_whole_and_every_move_is_legal() {
        let book = Book::parse(BOOK_TEXT).expect("assets/book.txt reads");
        assert!(book.lines().len() >= 40, "{}", book.lines().len());
        assert_eq!(Book::builtin(), &book);
        // Replayed by the rules core: every line is a legal game from the start.
        for l in book.lines() {
            let mut g = Game::new();
            for &m in &l.moves {
                g.play(m).unwrap_or_else(|e| panic!("{}: {e}", l.name));
            }
            assert!(l.moves.len() >= 8, "{} is short", l.name);
        }
        // Names are unique.
        let mut names: Vec<&str> = book.lines().iter().map(|l| l.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), book.lines().len());
    }

    #[test]
    fn bad_lines_are_named_by_their_number() {
        assert_eq!(
            Book::parse("# c\n\nOne | e4 e5\nTwo e4 e5\n"),
            Err(BookError::NoSeparator { line: 4 })
        );
        assert_eq!(Book::parse(" | e4"), Err(BookError::Empty { line: 1 }));
        let e = Book::parse("Bad | e4 e5 Ke3").unwrap_err();
        assert!(
            matches!(&e, BookError::Move { line: 1, ply: 3, san, .. } if san == "Ke3"),
            "{e}"
        );
    }

    /// A move the rules core refuses keeps the refusal typed (and written in the message).
    #[test]
    fn a_bad_move_keeps_the_rules_core_refusal() {
        let e = Book::parse("Bad | e4 e5 Ke3").unwrap_err();
        assert!(
            matches!(
                &e,
                BookError::Move {
                    reason: PlayError::Illegal { ply: 3, .. },
                    ..
                }
            ),
            "{e}"
        );
        let e = Book::parse("Bad | e4 Zz").unwrap_err();
        assert!(
            matches!(
                &e,
                BookError::Move {
                    reason: PlayError::Unreadable { .. },
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            "line 1: move 2 'Zz' cannot be played: cannot read move 'Zz': not a SAN move \
             (e.g. Nf3, exd5, O-O, e8=Q)"
        );
    }

    /// The book follows the game and varies: from the start, different seeds give different
    /// first moves; a game off the book, or from another position, gets nothing.
    #[test]
    fn choices_follow_the_game_and_vary() {
        let book = Book::builtin();
        let start = Chess::default();
        let mut firsts = std::collections::BTreeSet::new();
        for seed in 1..60 {
            let mut rng = Rng::new(seed);
            let m = book.choose(&start, &[], &mut rng).expect("a first move");
            firsts.insert(m.mv.to_string());
        }
        assert!(firsts.len() >= 4, "{firsts:?}");
        // After 1.e4 c5 the book answers from a Sicilian line.
        let mut g = Game::new();
        for san in ["e4", "c5"] {
            g.play_san(san).unwrap();
        }
        let played: Vec<Move> = g.moves().collect();
        for seed in 1..20 {
            let m = book.choose(&start, &played, &mut Rng::new(seed)).unwrap();
            assert!(m.name.starts_with("Sicilian Defence"), "{}", m.name);
        }
        // Off the book: 1.h4.
        let mut g = Game::new();
        g.play_san("h4").unwrap();
        let played: Vec<Move> = g.moves().collect();
        assert_eq!(book.choose(&start, &played, &mut Rng::new(1)), None);
        // Another start.
        let other = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert_eq!(book.choose(other.start(), &[], &mut Rng::new(1)), None);
    }
}
