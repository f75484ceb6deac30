//! Xiangqi games in PGN, as Fairy-Stockfish-based programs write and read them.
//!
//! **The format.** The PGN tags (Seven Tag Roster: `White` is Red, `Black` is Black),
//! `[Variant "xiangqi"]`, and for a game that does not begin at the start position
//! `[SetUp "1"]` and `[FEN "..."]` (WXF/UCCI FEN). The moves are Fairy-Stockfish's standard
//! algebraic notation ([`san`]), which pyffish writes (`get_san`, its default notation) and
//! Fairy-Stockfish-based sites export: the piece letter (`K A E H R C P`, pawns included), the
//! file or rank it leaves from where two pieces of a kind could go to the same point, `x` for
//! a capture, the point it goes to with **ranks 1–10** from Red's side, `+` for check and `#`
//! for mate: `Che3`, `Hg8`, `Cbc3`, `Rxc1+`. (UCCI, threefold's coordinates, counts ranks
//! 0–9; the files are the same.)
//!
//! **Reading** takes one game: the tags, then the movetext with move numbers, comments
//! (`{...}`, `;` to the end of the line), NAGs (`$1`), variations (`(...)`, skipped) and the
//! result. A move may be written in this SAN, in UCCI (`h2e2`) or ICCS (`H2-E2`) coordinates,
//! in WXF (`C2=5`) or in Chinese (`炮二平五`): each is read against the position it is played
//! from ([`parse_any`]).
//! A `Variant` tag other than xiangqi is refused; without one, the game is taken as xiangqi.
//! Every error names the line.

use std::fmt::{self, Write as _};

use super::board::{Color, FenError, Move, Position, START_FEN};
use super::notation::{self, MoveError};

/// The point `sq` in Fairy-Stockfish's coordinates: file a–i, rank 1–10.
fn point(sq: super::board::Square) -> String {
    format!("{}{}", (b'a' + sq.file()) as char, sq.rank() + 1)
}

/// The Fairy-Stockfish SAN of the legal move `m` in `pos`: `Che3`, `Cbc3`, `Rxc1+`.
pub fn san(pos: &Position, m: Move) -> String {
    let piece = pos.piece_at(m.from()).expect("a piece on the from point");
    let mut s = String::new();
    s.push(piece.kind.wxf_letter());
    // Other pieces of the kind that can go to the same point: name the file, else the rank,
    // else both (chess's rule).
    let rivals: Vec<Move> = pos
        .legal_moves()
        .as_slice()
        .iter()
        .copied()
        .filter(|o| {
            o.to() == m.to()
                && o.from() != m.from()
                && pos.piece_at(o.from()).map(|p| p.kind) == Some(piece.kind)
        })
        .collect();
    if !rivals.is_empty() {
        let from = m.from();
        let file = (b'a' + from.file()) as char;
        if rivals.iter().all(|o| o.from().file() != from.file()) {
            s.push(file);
        } else if rivals.iter().all(|o| o.from().rank() != from.rank()) {
            let _ = write!(s, "{}", from.rank() + 1);
        } else {
            let _ = write!(s, "{file}{}", from.rank() + 1);
        }
    }
    if pos.is_capture(m) {
        s.push('x');
    }
    s.push_str(&point(m.to()));
    let mut after = pos.clone();
    after.make(m);
    if after.in_check() {
        s.push(if after.has_no_moves() { '#' } else { '+' });
    }
    s
}

/// A SAN token without what a reader may leave out or add: check and mate marks, `x`,
/// annotation marks.
fn san_core(token: &str) -> String {
    token
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | 'x' | '!' | '?'))
        .collect()
}

/// Whether a token has the shape of a SAN move: a piece letter, then a point (with ranks
/// 1–10) at its end.
fn san_shaped(core: &str) -> bool {
    let b = core.as_bytes();
    b.len() >= 3
        && b"KAEHRCP".contains(&b[0])
        && core
            .char_indices()
            .rev()
            .find(|(_, c)| !c.is_ascii_digit())
            .is_some_and(|(i, c)| {
                ('a'..='i').contains(&c)
                    && core[i + 1..]
                        .parse::<u8>()
                        .is_ok_and(|r| (1..=10).contains(&r))
            })
}

/// Reads a SAN move: the legal move whose SAN it is (check marks and `x` may be left out or
/// added); a SAN without the file or rank a rival needs is refused as ambiguous.
pub fn parse_san(pos: &Position, token: &str) -> Result<Move, MoveError> {
    let core = san_core(token);
    // Only the legal moves to the point the token ends with need their SAN written.
    let to = core.trim_start_matches(|c: char| c.is_ascii_uppercase());
    let to = &to[to.rfind(|c: char| c.is_ascii_lowercase()).unwrap_or(0)..];
    let legal = pos.legal_moves();
    let candidates: Vec<Move> = legal
        .as_slice()
        .iter()
        .copied()
        .filter(|&m| point(m.to()) == to)
        .collect();
    if let Some(&m) = candidates.iter().find(|&&m| san_core(&san(pos, m)) == core) {
        return Ok(m);
    }
    // Written without the disambiguation: the moves of the kind to that point.
    let plain: Vec<Move> = candidates
        .iter()
        .copied()
        .filter(|&m| {
            let s = san_core(&san(pos, m));
            let letter = &s[..1];
            let to = point(m.to());
            format!("{letter}{to}") == core
        })
        .collect();
    match plain.as_slice() {
        [m] => Ok(*m),
        [a, b, ..] => Err(MoveError::Ambiguous {
            token: token.to_string(),
            a: san(pos, *a),
            b: san(pos, *b),
        }),
        [] => Err(MoveError::Illegal {
            token: token.to_string(),
            why: notation::Illegality::NoneWrittenSo {
                side: pos.side_to_move(),
            },
        }),
    }
}

/// Reads a move in any notation a xiangqi PGN may hold: SAN (`Che3`), UCCI (`h2e2`), ICCS
/// (`H2-E2`), WXF (`C2=5`) or the traditional Chinese notation (`炮二平五`, `馬８進７`, as
/// Chinese collections write their games).
pub fn parse_any(pos: &Position, token: &str) -> Result<Move, MoveError> {
    if san_shaped(&san_core(token)) {
        parse_san(pos, token)
    } else {
        notation::parse_move(pos, token)
    }
}

/// A game's result as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl Outcome {
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::RedWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    fn from_pgn(token: &str) -> Option<Outcome> {
        Some(match token {
            "1-0" => Outcome::RedWins,
            "0-1" => Outcome::BlackWins,
            "1/2-1/2" | "½-½" => Outcome::Draw,
            "*" => Outcome::Unknown,
            _ => return None,
        })
    }
}

/// A xiangqi game as PGN holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tags other than `Variant`, `SetUp`, `FEN` and `Result` (written from the fields),
    /// in the order read or given.
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: Outcome,
}

impl PgnGame {
    /// A game from `start` with no tags yet.
    pub fn new(start: Position) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: Outcome::Unknown,
        }
    }

    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game in PGN: the Seven Tag Roster first (`?` where unknown), `Variant`, `SetUp`
    /// and `FEN` for a game not from the start position, the other tags, then the moves in
    /// SAN, lines of at most 80 columns, and the result.
    pub fn write(&self) -> String {
        let mut out = String::new();
        let roster = ["Event", "Site", "Date", "Round", "White", "Black"];
        for name in roster {
            let default = if name == "Date" { "????.??.??" } else { "?" };
            let _ = writeln!(
                out,
                "[{name} \"{}\"]",
                escape(self.tag(name).unwrap_or(default))
            );
        }
        let _ = writeln!(out, "[Result \"{}\"]", self.result.pgn());
        let _ = writeln!(out, "[Variant \"xiangqi\"]");
        let start_fen = self.start.fen();
        if start_fen != Position::start().fen() {
            let _ = writeln!(out, "[SetUp \"1\"]");
            let _ = writeln!(out, "[FEN \"{start_fen}\"]");
        }
        for (k, v) in &self.tags {
            if !roster.contains(&k.as_str())
                && !matches!(k.as_str(), "Result" | "Variant" | "SetUp" | "FEN")
            {
                let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
            }
        }
        out.push('\n');
        let mut pos = self.start.clone();
        let mut words = Vec::new();
        let mut number = 1;
        for (i, &m) in self.moves.iter().enumerate() {
            let red = pos.side_to_move() == Color::Red;
            if red {
                words.push(format!("{number}."));
            } else if i == 0 {
                words.push(format!("{number}..."));
            }
            words.push(san(&pos, m));
            if !red {
                number += 1;
            }
            pos.make(m);
        }
        words.push(self.result.pgn().to_string());
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Why a PGN text is not a xiangqi game, and on which line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct PgnError {
    pub line: usize,
    pub reason: PgnReason,
}

/// What is wrong ([`PgnError`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnReason {
    #[error("a tag must read [Name \"value\"]")]
    BadTag,
    #[error("the game is {0}, not xiangqi (tag Variant)")]
    OtherVariant(String),
    #[error("tag FEN: {0}")]
    Fen(FenError),
    #[error("move {number}: {why}")]
    Move { number: String, why: MoveError },
    #[error("a comment opened with {{ is not closed")]
    OpenComment,
    #[error("a variation opened with ( is not closed")]
    OpenVariation,
    #[error("no game: no tags and no moves")]
    Empty,
}

impl fmt::Display for PgnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write())
    }
}

/// Reads one xiangqi game from PGN text (the first, if there are several).
pub fn read(text: &str) -> Result<PgnGame, PgnError> {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    // Tags.
    while let Some((i, raw)) = lines.peek().copied() {
        let l = raw.trim();
        if l.is_empty() {
            lines.next();
            if !tags.is_empty() {
                break;
            }
            continue;
        }
        if !l.starts_with('[') {
            break;
        }
        lines.next();
        let err = || PgnError {
            line: i + 1,
            reason: PgnReason::BadTag,
        };
        let inner = l
            .strip_prefix('[')
            .and_then(|x| x.strip_suffix(']'))
            .ok_or_else(err)?;
        let (name, value) = inner
            .trim()
            .split_once(char::is_whitespace)
            .ok_or_else(err)?;
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or_else(err)?;
        tags.push((
            name.to_string(),
            value.replace("\\\"", "\"").replace("\\\\", "\\"),
        ));
    }
    let tag = |n: &str| {
        tags.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(n))
            .map(|(_, v)| v.clone())
    };
    let tag_line = |n: &str| {
        text.lines()
            .position(|l| l.trim_start().starts_with(&format!("[{n} ")))
            .map_or(1, |i| i + 1)
    };
    if let Some(v) = tag("Variant")
        && !v.eq_ignore_ascii_case("xiangqi")
    {
        return Err(PgnError {
            line: tag_line("Variant"),
            reason: PgnReason::OtherVariant(v),
        });
    }
    let start = match tag("FEN") {
        Some(fen) => Position::from_fen(&fen).map_err(|e| PgnError {
            line: tag_line("FEN"),
            reason: PgnReason::Fen(e),
        })?,
        None => Position::from_fen(START_FEN).expect("the start FEN"),
    };
    // Movetext: tokens with their line numbers, up to the result or the next game's tags.
    let mut tokens: Vec<(usize, String)> = Vec::new();
    let (mut brace, mut paren) = (None::<usize>, Vec::<usize>::new());
    'lines: for (i, raw) in lines {
        if brace.is_none() && paren.is_empty() && raw.trim_start().starts_with('[') {
            break;
        }
        let mut word = String::new();
        let flush = |word: &mut String, tokens: &mut Vec<(usize, String)>| {
            if !word.is_empty() {
                tokens.push((i + 1, std::mem::take(word)));
            }
        };
        for c in raw.chars() {
            if brace.is_some() {
                if c == '}' {
                    brace = None;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut word, &mut tokens);
                    brace = Some(i + 1);
                }
                ';' if paren.is_empty() => {
                    flush(&mut word, &mut tokens);
                    continue 'lines;
                }
                '(' => {
                    flush(&mut word, &mut tokens);
                    paren.push(i + 1);
                }
                ')' if !paren.is_empty() => {
                    word.clear();
                    paren.pop();
                }
                c if c.is_whitespace() => {
                    if paren.is_empty() {
                        flush(&mut word, &mut tokens);
                    } else {
                        word.clear();
                    }
                }
                c => word.push(c),
            }
        }
        if paren.is_empty() {
            flush(&mut word, &mut tokens);
        }
    }
    if let Some(line) = brace {
        return Err(PgnError {
            line,
            reason: PgnReason::OpenComment,
        });
    }
    if let Some(&line) = paren.first() {
        return Err(PgnError {
            line,
            reason: PgnReason::OpenVariation,
        });
    }
    let mut game = PgnGame::new(start);
    game.result = tag("Result")
        .and_then(|r| Outcome::from_pgn(&r))
        .unwrap_or(Outcome::Unknown);
    game.tags = tags
        .into_iter()
        .filter(|(k, _)| !matches!(k.as_str(), "Variant" | "SetUp" | "FEN" | "Result"))
        .collect();
    let mut pos = game.start.clone();
    for (line, token) in tokens {
        if let Some(r) = Outcome::from_pgn(&token) {
            game.result = r;
            break;
        }
        if token.starts_with('$') {
            continue;
        }
        // A move number, alone or glued to its move ("12.", "12...", "12.Che3").
        let t = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let t = if t.len() < token.len() && t.starts_with('.') {
            t.trim_start_matches('.')
        } else {
            token.as_str()
        };
        if t.is_empty() {
            continue;
        }
        let m = parse_any(&pos, t).map_err(|why| PgnError {
            line,
            reason: PgnReason::Move {
                number: move_number(&game, &pos),
                why,
            },
        })?;
        pos.make(m);
        game.moves.push(m);
    }
    if game.moves.is_empty() && game.tags.is_empty() && text.trim().is_empty() {
        return Err(PgnError {
            line: 1,
            reason: PgnReason::Empty,
        });
    }
    Ok(game)
}

/// The number of the next move as a scoresheet writes it ("12." for Red, "12..." for Black).
fn move_number(game: &PgnGame, pos: &Position) -> String {
    let first_black = game.start.side_to_move() == Color::Black;
    let plies = game.moves.len() + usize::from(first_black);
    let n = plies / 2 + 1;
    if pos.side_to_move() == Color::Red {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_ucci;

    fn play(pos: &Position, ucci: &str) -> (Position, Vec<Move>) {
        let mut p = pos.clone();
        let mut moves = Vec::new();
        for t in ucci.split_whitespace() {
            let m = parse_ucci(&p, t).unwrap();
            p.make(m);
            moves.push(m);
        }
        (p, moves)
    }

    /// Fairy-Stockfish's SAN of a few moves, as pyffish 0.0.90 writes them
    /// (`get_san_moves`, its default notation).
    #[test]
    fn san_is_written_as_fairy_stockfish_writes_it() {
        let start = Position::start();
        let (_, moves) = play(
            &start,
            "h2e2 h9g7 h0g2 i9h9 i0h0 b7b3 c3c4 h7h3 b0c2 c6c5 e2e6 g6g5",
        );
        let mut p = start.clone();
        let got: Vec<String> = moves
            .iter()
            .map(|&m| {
                let s = san(&p, m);
                p.make(m);
                s
            })
            .collect();
        assert_eq!(
            got,
            [
                "Che3", "Hg8", "Hg3", "Rh10", "Rh1", "Cb4", "Pc5", "Ch4", "Hc3", "Pc6", "Cxe7",
                "Pg6"
            ]
        );
    }

    #[test]
    fn a_game_round_trips_and_keeps_its_tags() {
        let start = Position::start();
        let (_, moves) = play(
            &start,
            "h2e2 h9g7 h0g2 i9h9 i0h0 b7b3 c3c4 h7h3 b0c2 c6c5 e2e6 g6g5",
        );
        let mut g = PgnGame::new(start);
        g.moves = moves;
        g.result = Outcome::Draw;
        g.tags.push(("White".into(), "Red \"R\" Player".into()));
        g.tags.push(("Annotator".into(), "threefold".into()));
        let text = g.write();
        assert!(text.contains("[Variant \"xiangqi\"]\n"), "{text}");
        assert!(!text.contains("[FEN"), "{text}");
        assert!(text.contains("1. Che3 Hg8 2. Hg3 Rh10"), "{text}");
        assert!(text.trim_end().ends_with("1/2-1/2"), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.moves, g.moves);
        assert_eq!(back.result, Outcome::Draw);
        assert_eq!(back.tag("White"), Some("Red \"R\" Player"));
        assert_eq!(back.tag("Annotator"), Some("threefold"));
    }

    #[test]
    fn a_game_from_a_fen_with_black_to_move_writes_setup_and_reads_back() {
        let start =
            Position::from_fen("2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R b")
                .unwrap();
        let (_, moves) = play(&start, "a7b7 c2a2 b7a7");
        let mut g = PgnGame::new(start.clone());
        g.moves = moves.clone();
        let text = g.write();
        assert!(text.contains("[SetUp \"1\"]\n[FEN \""), "{text}");
        assert!(text.contains("1... Rb8 2. Ca3"), "{text}");
        let back = read(&text).unwrap();
        assert_eq!((back.start.fen(), back.moves), (start.fen(), moves));
    }

    #[test]
    fn moves_are_read_in_san_ucci_or_wxf_with_comments_and_variations() {
        let text = "[Event \"x\"]\n[Variant \"Xiangqi\"]\n\n1. C2=5 {centre cannon} h9g7 \
                    (1... Hg8 2. Hg3) 2. Hg3 $1 ; a comment\nRh10 3.Rh1 *\n";
        let g = read(text).unwrap();
        let (_, expected) = play(&Position::start(), "h2e2 h9g7 h0g2 i9h9 i0h0");
        assert_eq!(g.moves, expected);
        assert_eq!(g.result, Outcome::Unknown);
    }

    #[test]
    fn bad_input_names_the_line() {
        let e = read("[Variant \"chess\"]\n\n1. e4 *").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: the game is chess, not xiangqi (tag Variant)"
        );
        let e = read("[Event \"x\"]\n\n1. Che3 Hg8\n2. Che5 *").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 4: move 2.: illegal move Che5"),
            "{e}"
        );
        let e = read("[FEN \"9/9 w\"]\n\n*").unwrap_err();
        assert!(e.to_string().starts_with("line 1: tag FEN: bad FEN"), "{e}");
        let e = read("1. Che3 {open").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(matches!(e.reason, PgnReason::OpenComment));
        let e = read("[Event x]").unwrap_err();
        assert!(matches!(e.reason, PgnReason::BadTag));
    }
}
