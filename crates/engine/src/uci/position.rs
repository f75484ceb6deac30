//! `position`: the start (either game's start position or a FEN) and the moves played since,
//! each read in the position it is played from. A refused `position` says why in one line
//! ([`PositionError`]) and makes `go` refuse until a valid one comes.

use shakmaty::{Chess, Color, Move, Position, uci::UciMove};
use threefold_xiangqi as xq;

use super::{MAX_LINE_BYTES, Uci, note};

/// Why a `position` command was refused: its `Display` is the line the loop prints (before
/// "; position ignored, and go refused until a valid position").
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    /// Neither `startpos` nor `fen <fen>` after `position`.
    #[error("position needs 'startpos' or 'fen <fen>'")]
    NoStart,
    /// A chess FEN that cannot be read (the rules core's strict reader says why).
    #[error("{0}")]
    ChessFen(#[from] threefold_rules::fen::FenError),
    /// A xiangqi FEN that cannot be read.
    #[error("xiangqi FEN: {0}")]
    XiangqiFen(#[from] xq::board::FenError),
    /// A chess move that is not a legal move in UCI notation where it is played.
    #[error("illegal move '{text}' at index {index} of the move list")]
    IllegalChessMove { text: String, index: usize },
    /// A xiangqi move that is not a legal UCCI move where it is played.
    #[error("illegal move '{text}' at index {index} of the move list ({source})")]
    IllegalXiangqiMove {
        text: String,
        index: usize,
        source: xq::notation::MoveError,
    },
    /// The command's line was longer than [`MAX_LINE_BYTES`] (and so not read whole).
    #[error("input line longer than {MAX_LINE_BYTES} bytes (a position command)")]
    TooLong,
}

/// The game of `UCI_Variant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Chess,
    Xiangqi,
}

impl Variant {
    /// Every variant, as the `uci` announcement lists them.
    pub const ALL: [Variant; 2] = [Variant::Chess, Variant::Xiangqi];

    /// The name of `UCI_Variant`'s value (Fairy-Stockfish's).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Xiangqi => "xiangqi",
        }
    }

    /// The variant named `text` (any case).
    pub fn parse(text: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(text))
    }
}

/// The game of the last valid `position`: its start and the moves played since.
#[derive(Clone, Debug)]
pub(super) enum GameRecord {
    Chess {
        start: Chess,
        moves: Vec<Move>,
    },
    Xiangqi {
        start: Box<xq::Position>,
        moves: Vec<xq::Move>,
    },
}

impl GameRecord {
    /// The start position of `variant`, no moves.
    pub(super) fn start(variant: Variant) -> GameRecord {
        match variant {
            Variant::Chess => GameRecord::Chess {
                start: Chess::default(),
                moves: Vec::new(),
            },
            Variant::Xiangqi => GameRecord::Xiangqi {
                start: Box::new(xq::Position::start()),
                moves: Vec::new(),
            },
        }
    }

    /// The clock of the side to move: White's or Red's is `wtime`.
    pub(super) fn turn(&self) -> Color {
        let (first_starts, n) = match self {
            GameRecord::Chess { start, moves } => (start.turn().is_white(), moves.len()),
            GameRecord::Xiangqi { start, moves } => {
                (start.side_to_move() == xq::Color::Red, moves.len())
            }
        };
        if first_starts == n.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }
}

impl Uci {
    pub(super) fn position(&mut self, rest: &[&str]) {
        let mi = rest.iter().position(|w| *w == "moves");
        let (head, tail) = match mi {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let game = match self.variant {
            Variant::Chess => chess_position(head, tail),
            Variant::Xiangqi => xiangqi_position(head, tail),
        };
        match game {
            Ok(game) => {
                if let GameRecord::Xiangqi { start, .. } = &game
                    && let Some(w) = start.unreachable_warning()
                {
                    note(&self.out, &format!("xiangqi FEN: {w}"));
                }
                self.game = game;
                self.position_ok = true;
            }
            Err(why) => self.refuse_position(&why),
        }
    }

    /// A refused `position`: says why, and refuses `go` until a valid one comes.
    pub(super) fn refuse_position(&mut self, why: &PositionError) {
        self.position_ok = false;
        note(
            &self.out,
            &format!("{why}; position ignored, and go refused until a valid position"),
        );
    }
}

/// The start of a `position` command: `None` for `startpos`, the FEN's words joined for
/// `fen <fen>`; anything else is refused.
fn position_start(head: &[&str]) -> Result<Option<String>, PositionError> {
    match head.first() {
        Some(&"startpos") if head.len() == 1 => Ok(None),
        Some(&"fen") if head.len() > 1 => Ok(Some(head[1..].join(" "))),
        _ => Err(PositionError::NoStart),
    }
}

/// The moves after `moves`, each read in the position it is played from (`parse` refuses
/// one with its error, `illegal` names the move and its index with it, `play` makes it).
fn replay<P: Clone, M: Copy, E>(
    start: &P,
    tail: &[&str],
    parse: impl Fn(&P, &str) -> Result<M, E>,
    illegal: impl Fn(String, usize, E) -> PositionError,
    play: impl Fn(&mut P, M),
) -> Result<Vec<M>, PositionError> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(tail.len());
    for (i, text) in tail.iter().enumerate() {
        let m = parse(&pos, text).map_err(|why| illegal(text.to_string(), i, why))?;
        play(&mut pos, m);
        moves.push(m);
    }
    Ok(moves)
}

/// A chess `position`: `head` is `startpos` or `fen <fen>`, `tail` the moves after `moves`;
/// the error says what is wrong and where.
fn chess_position(head: &[&str], tail: &[&str]) -> Result<GameRecord, PositionError> {
    let start = match position_start(head)? {
        None => Chess::default(),
        Some(fen) => threefold_rules::fen::position(&fen)?,
    };
    let moves = replay(
        &start,
        tail,
        |pos, text| {
            UciMove::from_ascii(text.as_bytes())
                .ok()
                .and_then(|u| u.to_move(pos).ok())
                .ok_or(())
        },
        |text, index, ()| PositionError::IllegalChessMove { text, index },
        |pos, m| pos.play_unchecked(m),
    )?;
    Ok(GameRecord::Chess { start, moves })
}

/// A xiangqi `position` (moves in UCCI coordinates), as [`chess_position`].
fn xiangqi_position(head: &[&str], tail: &[&str]) -> Result<GameRecord, PositionError> {
    let start = match position_start(head)? {
        None => xq::Position::start(),
        Some(fen) => xq::Position::from_fen(&fen)?,
    };
    let moves = replay(
        &start,
        tail,
        xq::notation::parse_ucci,
        |text, index, source| PositionError::IllegalXiangqiMove {
            text,
            index,
            source,
        },
        |pos, m| {
            pos.make(m);
        },
    )?;
    Ok(GameRecord::Xiangqi {
        start: Box::new(start),
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each cause of a refused `position` has its own variant, and its line says what and
    /// where (the texts the loop printed before the errors were typed).
    #[test]
    fn refused_positions_say_why_in_one_line() {
        let why = |r: Result<GameRecord, PositionError>| r.expect_err("refused").to_string();
        assert!(matches!(
            chess_position(&["startpos", "x"], &[]),
            Err(PositionError::NoStart)
        ));
        assert_eq!(
            why(chess_position(&["start"], &[])),
            "position needs 'startpos' or 'fen <fen>'"
        );
        assert_eq!(
            why(chess_position(&["startpos"], &["e2e4", "e7e4"])),
            "illegal move 'e7e4' at index 1 of the move list"
        );
        assert!(matches!(
            chess_position(&["fen", "8/8/8/8/8/8/8/8", "w", "-", "-"], &[]),
            Err(PositionError::ChessFen(_))
        ));
        assert_eq!(
            why(xiangqi_position(&["fen", "9/9/9/9/9", "w"], &[])),
            "xiangqi FEN: bad FEN: 5 ranks (expected 10)"
        );
        let e = why(xiangqi_position(&["startpos"], &["h2e2", "h2e2"]));
        assert!(
            e.starts_with("illegal move 'h2e2' at index 1 of the move list ("),
            "{e}"
        );
        assert_eq!(
            PositionError::TooLong.to_string(),
            format!("input line longer than {MAX_LINE_BYTES} bytes (a position command)")
        );
        assert!(xiangqi_position(&["startpos"], &["h2e2", "h9g7"]).is_ok());
    }
}
