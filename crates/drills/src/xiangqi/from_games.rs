//! Drills from your own xiangqi games: a finding of the xiangqi review (a missed or wrong
//! call to the arbiter, a move that made one's own repetition forbidden) becomes a puzzle
//! of the theme "From your xiangqi games", kept in `from-your-xiangqi-games.toml` beside
//! the chess file ([`crate::from_games::XIANGQI_FILE_NAME`]), in the xiangqi puzzle format
//! of every other theme (`puzzles/README.md`), and drilled on the same Leitner schedule
//! ([`crate::Session`]).
//!
//! | finding                                   | `ask`     | the position                     |
//! |-------------------------------------------|-----------|----------------------------------|
//! | missed call, wrong call                   | `ruling`  | the repetition's first ruling    |
//! | move that made one's repetition forbidden | `break`   | the game before the move         |
//!
//! Both ask at the first repetition (`ntimes = 1`), the judge's word on the repetition so
//! far, which the arbiter answers calls by. A `ruling` puzzle ends its moves where the judge
//! first rules at the first repetition (up to the finding's moment: the arbiter's answer
//! rests on that ruling); a `break` puzzle that the judge has ruled already, or whose every
//! move breaks (the opponent's reply, not the mover's move, closes the cycle, as in a
//! perpetual check), is asked as a `ruling` puzzle instead. The
//! answer is never taken from the finding: [`super::solve`] computes it from the judge,
//! and the puzzle is loaded back and checked ([`super::check`]) before it is written, as a
//! chess puzzle from your games is ([`crate::from_games`]). The moves are written in UCCI
//! (unambiguous whatever the position), the finding's text is the explanation.

use std::path::Path;

use threefold_xiangqi::judge::{JudgedGame, Record};
use threefold_xiangqi::{Color, Move, Position};

use super::{SolveError, Verdict, XiangqiAnswer, check, load_str, solve};
use crate::from_games::{
    FNV_OFFSET, FromGamesError, NewPuzzle, NotLoaded, XIANGQI_FILE_NAME, XIANGQI_THEME_ID, fnv1a,
    toml_str,
};

/// The question a xiangqi finding asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XqAsk {
    /// How is the repetition so far ruled (a call missed or made wrongly)?
    Ruling,
    /// Which moves break the side to move's forbidden repetition?
    Break,
}

impl XqAsk {
    fn code(self) -> &'static str {
        match self {
            XqAsk::Ruling => "ruling",
            XqAsk::Break => "break",
        }
    }
}

/// What a puzzle is made of: the game from `start` with `moves` (the whole game), the
/// finding's position (`ply`) and the first ply of its repetition (`from_ply`), the
/// question, the finding's kind (a tag, `review --json`'s code) and text (the
/// explanation), and its `source`.
#[derive(Clone, Copy, Debug)]
pub struct XqFindingPuzzle<'a> {
    pub start: &'a Position,
    pub moves: &'a [Move],
    pub ply: usize,
    pub from_ply: usize,
    pub ask: XqAsk,
    pub kind: &'static str,
    pub text: &'a str,
    pub source: Option<&'a str>,
}

/// "xq-game-" and 16 hex digits of the FNV-1a hash of the start FEN, the moves (UCCI) and
/// the question: the same finding gets the same id on every run.
fn id_of(start: &Position, moves: &[Move], ask: XqAsk) -> String {
    let mut h = fnv1a(FNV_OFFSET, b"xiangqi|");
    h = fnv1a(h, start.fen().as_bytes());
    h = fnv1a(h, b"|");
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            h = fnv1a(h, b" ");
        }
        h = fnv1a(h, m.ucci().as_bytes());
    }
    h = fnv1a(h, b"|");
    h = fnv1a(h, ask.code().as_bytes());
    format!("xq-game-{h:016x}")
}

/// "1. h2e2 h9g7 2. ...": the moves numbered as a scoresheet numbers them, ten a line.
fn movetext(start: &Position, moves: &[Move]) -> String {
    let black_first = start.side_to_move() == Color::Black;
    let mut s = String::new();
    for (i, m) in moves.iter().enumerate() {
        let p = i + usize::from(black_first);
        let n = p / 2 + 1;
        if p % 2 == 0 {
            if i > 0 {
                s.push(if n % 10 == 1 { '\n' } else { ' ' });
            }
            s.push_str(&format!("{n}. "));
        } else if i == 0 {
            s.push_str(&format!("{n}... "));
        } else {
            s.push(' ');
        }
        s.push_str(&m.ucci());
    }
    s
}

/// Load one xiangqi puzzle's text as a puzzle of the theme's file.
fn load_one(block: &str) -> Result<super::XiangqiPuzzle, FromGamesError> {
    let text = format!("game = \"xiangqi\"\nname = \"x\"\n\n{block}");
    let (theme, problems) = load_str(Path::new(XIANGQI_FILE_NAME), &text);
    if let Some(p) = problems.into_iter().next() {
        return Err(FromGamesError::DoesNotLoad(NotLoaded::Problem(p)));
    }
    theme
        .and_then(|t| t.puzzles.into_iter().next())
        .ok_or(FromGamesError::DoesNotLoad(NotLoaded::NoPuzzle))
}

/// Turn a xiangqi finding into a puzzle of the theme "From your xiangqi games" (see the
/// module docs); it is loaded and checked against the judge before it is returned.
pub fn xiangqi_puzzle(f: &XqFindingPuzzle<'_>) -> Result<NewPuzzle, FromGamesError> {
    if f.ply > f.moves.len() {
        return Err(FromGamesError::PastTheEnd {
            ply: f.ply,
            len: f.moves.len(),
        });
    }
    let mut record = Record::new(f.start.clone());
    for (i, &m) in f.moves.iter().enumerate() {
        if !record.current().is_legal(m) {
            return Err(FromGamesError::IllegalMove(i));
        }
        record.push(m);
    }
    // The judge's first ruling at the first repetition, if it rules the finding's
    // repetition (an earlier repetition ruled first leaves nothing to ask about this one).
    let ruled = JudgedGame::of(&record, super::RuleAt::FirstRepetition)
        .standing()
        .filter(|r| r.ending.is_none())
        .map(|r| r.ply);
    let as_ruling = || match ruled {
        Some(r) if r >= f.from_ply => make(&f.moves[..r], f.ply_ask(XqAsk::Ruling)),
        Some(r) => Err(FromGamesError::RuledEarlier(r)),
        None => Err(FromGamesError::XiangqiUnsolvable(SolveError::NoRuling {
            occurrences: record.occurrence_count(f.ply),
            ntimes: super::RuleAt::FirstRepetition.ntimes(),
            at: super::RuleAt::FirstRepetition.words(),
        })),
    };
    match f.ask {
        XqAsk::Ruling => as_ruling(),
        XqAsk::Break if ruled.is_some_and(|r| r <= f.ply) => as_ruling(),
        XqAsk::Break => {
            let p = make(&f.moves[..f.ply], *f)?;
            if every_move_breaks(&p)? {
                as_ruling()
            } else {
                Ok(p)
            }
        }
    }
}

impl XqFindingPuzzle<'_> {
    /// The same finding, asked as `ask`.
    fn ply_ask(&self, ask: XqAsk) -> Self {
        XqFindingPuzzle { ask, ..*self }
    }
}

/// Whether a `break` puzzle's answer is every legal move (it asks nothing).
fn every_move_breaks(p: &NewPuzzle) -> Result<bool, FromGamesError> {
    let puzzle = load_one(&p.text)?;
    Ok(match solve(&puzzle) {
        Ok(s) => match s.answer {
            XiangqiAnswer::Moves(ms) => {
                ms.len() == puzzle.record().current().legal_moves().as_slice().len()
            }
            _ => false,
        },
        Err(_) => false,
    })
}

/// Write, solve and check the puzzle `f` asks on the game `moves`, as it asks it.
fn make(moves: &[Move], f: XqFindingPuzzle<'_>) -> Result<NewPuzzle, FromGamesError> {
    let mut pos = f.start.clone();
    for &m in moves {
        pos.make(m);
    }
    let side = pos.side_to_move().title();
    let n = moves.len();
    let at = if n == 0 {
        "the start".to_string()
    } else {
        format!("after ply {n}")
    };
    let title = match f.ask {
        XqAsk::Ruling => format!("{side} to move {at}: the repetition so far"),
        XqAsk::Break => format!("{side} to move {at}: break the repetition"),
    };
    let id = id_of(f.start, moves, f.ask);
    let start = if f.start.fen() == Position::start().fen() {
        "standard".to_string()
    } else {
        f.start.fen()
    };
    let write = |answer: &XiangqiAnswer| {
        let answer = match answer {
            XiangqiAnswer::Ruling(v) => toml_str(v.code()),
            XiangqiAnswer::Moves(ms) => {
                let v: Vec<String> = ms.iter().map(|m| toml_str(&m.ucci())).collect();
                format!("[{}]", v.join(", "))
            }
            _ => unreachable!("ruling and break questions have verdicts and moves"),
        };
        let mut s = String::new();
        s.push_str("[[puzzle]]\n");
        s.push_str(&format!("id = {}\n", toml_str(&id)));
        s.push_str(&format!("title = {}\n", toml_str(&title)));
        s.push_str(&format!("start = {}\n", toml_str(&start)));
        s.push_str(&format!(
            "moves = {}\n",
            toml_str(&movetext(f.start, moves))
        ));
        s.push_str(&format!("ask = {}\n", toml_str(f.ask.code())));
        s.push_str("ntimes = 1\n");
        s.push_str(&format!("answer = {answer}\n"));
        s.push_str(&format!("explanation = {}\n", toml_str(f.text)));
        let tags = [XIANGQI_THEME_ID, f.kind].map(toml_str);
        s.push_str(&format!("tags = [{}]\n", tags.join(", ")));
        s.push_str("difficulty = 3\n");
        if let Some(src) = f.source {
            s.push_str(&format!("source = {}\n", toml_str(src)));
        }
        s
    };
    let provisional = match f.ask {
        XqAsk::Ruling => XiangqiAnswer::Ruling(Verdict::Draw),
        XqAsk::Break => XiangqiAnswer::moves(Vec::new()),
    };
    let puzzle = load_one(&write(&provisional))?;
    let solution = solve(&puzzle).map_err(FromGamesError::XiangqiUnsolvable)?;
    let text = write(&solution.answer);
    let puzzle = load_one(&text)?;
    check(&puzzle).map_err(|m| FromGamesError::DoesNotLoad(NotLoaded::XiangqiMismatch(m)))?;
    Ok(NewPuzzle { id, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Figure 1's perpetual check: after Red's rook brought the start back twice, a ruling
    /// puzzle (Red loses) and, before Red's fifth move, a break puzzle whose answer is every
    /// move but the repeating check. Broken to see it fail: `ntimes = 1` left out of the
    /// written puzzle (the ruling needs the third occurrence: no ruling, no puzzle).
    #[test]
    fn findings_become_ruling_and_break_puzzles() {
        let start = Position::from_fen("5k3/7R1/9/9/9/9/9/9/9/4K4 w").unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for t in [
            "h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9",
        ] {
            let m = threefold_xiangqi::notation::parse_move(&pos, t).unwrap();
            pos.make(m);
            moves.push(m);
        }
        let finding = |ply, ask, kind| XqFindingPuzzle {
            start: &start,
            moves: &moves,
            ply,
            from_ply: 4,
            ask,
            kind,
            text: "Red checked on every move.",
            source: Some("Player – threefold level 3"),
        };
        // Black's missed call after ply 5: the repetition as the judge first rules it, at
        // ply 4 (Red's perpetual check: Red loses).
        let ruling = xiangqi_puzzle(&finding(5, XqAsk::Ruling, "missed-call")).unwrap();
        assert!(
            ruling.text.contains("answer = \"red-loses\""),
            "{}",
            ruling.text
        );
        assert!(ruling.text.contains("ntimes = 1"), "{}", ruling.text);
        assert!(
            ruling.text.contains("2. h9h8 f8f9\"\nask"),
            "{}",
            ruling.text
        );
        assert!(ruling.id.starts_with("xq-game-"));
        // Red's forbidden move at ply 5 (from the position after ply 4): ruled already at
        // ply 4, so asked as the ruling, the same puzzle.
        let brk = xiangqi_puzzle(&finding(4, XqAsk::Break, "forbidden-move")).unwrap();
        assert_eq!(brk.id, ruling.id);
        // A call where nothing repeats yet (ply 1) in a game whose first ruling is later:
        // the ruling asked is the repetition's; with the repetition starting after the
        // ruling, there is none to ask.
        let e = xiangqi_puzzle(&XqFindingPuzzle {
            from_ply: 6,
            ..finding(6, XqAsk::Ruling, "wrong-call")
        })
        .unwrap_err();
        assert!(matches!(e, FromGamesError::RuledEarlier(4)), "{e}");
    }

    /// A break puzzle where the mover's own move closes the cycle: figure 2's perpetual
    /// chase from Black's first move, so that Red's rook, chasing the cannon back to i3,
    /// brings the position back (ply 4). Before it, every Red move but the chase breaks the
    /// repetition. Broken to see it fail: `every_move_breaks` made always true (the break
    /// asked as a ruling).
    #[test]
    fn a_break_puzzle_asks_for_the_moves_that_break() {
        let start = Position::from_fen("4k4/9/8c/9/9/9/8R/9/9/3K5 b").unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for t in ["i7h7", "i3h3", "h7i7", "h3i3"] {
            let m = threefold_xiangqi::notation::parse_move(&pos, t).unwrap();
            pos.make(m);
            moves.push(m);
        }
        let p = xiangqi_puzzle(&XqFindingPuzzle {
            start: &start,
            moves: &moves,
            ply: 3,
            from_ply: 4,
            ask: XqAsk::Break,
            kind: "forbidden-move",
            text: "Red's rook chased the cannon once too often.",
            source: None,
        })
        .unwrap();
        assert!(p.text.contains("ask = \"break\""), "{}", p.text);
        assert!(p.text.contains("\"h3h2\""), "{}", p.text);
        assert!(!p.text.contains("\"h3i3\""), "{}", p.text);
    }
}
