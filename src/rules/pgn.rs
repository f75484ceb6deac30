//! Reading games from PGN (with pgn-reader) and writing a [`Game`] as PGN.
//!
//! Only the main line is read; variations, comments and NAGs are skipped. A
//! game with `[SetUp "1"]` / `[FEN "..."]` starts from that position. Errors
//! name the file and the line of the offending tag or move.

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::Color;

use super::game::{Game, PlayError};

/// A game as read from PGN, before its moves are checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnRecord {
    /// The tag pairs, in file order.
    pub tags: Vec<(String, String)>,
    /// The main-line moves as written.
    pub sans: Vec<String>,
    /// The line (1-based) of each move in `sans`.
    pub lines: Vec<usize>,
    /// The line the game starts on.
    pub first_line: usize,
}

impl PgnRecord {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A PGN problem, with the file and line it concerns.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct PgnError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

#[derive(Default)]
struct Collect {
    record: PgnRecord,
}

impl Visitor for Collect {
    type Tags = Vec<(String, String)>;
    type Movetext = Vec<String>;
    type Output = (Vec<(String, String)>, Vec<String>);

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        self.record.tags = tags;
        ControlFlow::Continue(Vec::new())
    }

    fn san(&mut self, movetext: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        movetext.push(san.to_string());
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        (std::mem::take(&mut self.record.tags), movetext)
    }
}

/// Where each game starts and where each of its main-line move tokens stands,
/// found by a light scan of the text (pgn-reader does not report positions).
fn scan_lines(text: &str) -> Vec<(usize, Vec<usize>)> {
    let mut games: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut in_movetext = false;
    let mut depth = 0usize; // variation depth
    let mut in_brace = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = line.trim_start();
        if !in_brace && depth == 0 && t.starts_with('[') {
            if in_movetext || games.is_empty() {
                games.push((n, Vec::new()));
                in_movetext = false;
            }
            continue;
        }
        if !in_brace && t.starts_with('%') {
            continue;
        }
        let mut token = String::new();
        let mut flush = |token: &mut String, depth: usize| {
            let castles = |t: &str| t.starts_with("O-O") || t.starts_with("0-0");
            let tok = if castles(token) {
                token.as_str()
            } else {
                token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
            };
            let is_move = tok.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                || castles(tok)
                || tok == "--";
            if is_move && depth == 0 {
                if games.is_empty() {
                    games.push((n, Vec::new()));
                }
                games.last_mut().expect("pushed").1.push(n);
                in_movetext = true;
            }
            token.clear();
        };
        for c in line.chars() {
            if in_brace {
                in_brace = c != '}';
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, depth);
                    in_brace = true;
                }
                ';' => {
                    flush(&mut token, depth);
                    break;
                }
                '(' => {
                    flush(&mut token, depth);
                    depth += 1;
                }
                ')' => {
                    flush(&mut token, depth);
                    depth = depth.saturating_sub(1);
                }
                c if c.is_whitespace() => flush(&mut token, depth),
                c => token.push(c),
            }
        }
        flush(&mut token, depth);
        if !t.is_empty() {
            in_movetext = true;
        }
    }
    games
}

/// Read every game of a PGN text. `file` names the source in errors.
pub fn read_records(text: &str, file: &str) -> Result<Vec<PgnRecord>, PgnError> {
    let mut reader = Reader::new(text.as_bytes());
    let mut visitor = Collect::default();
    let mut out = Vec::new();
    loop {
        match reader.read_game(&mut visitor) {
            Ok(Some((tags, sans))) => out.push(PgnRecord {
                tags,
                sans,
                ..PgnRecord::default()
            }),
            Ok(None) => break,
            Err(e) => {
                return Err(PgnError {
                    file: file.to_string(),
                    line: 1,
                    message: format!("cannot read PGN: {e}"),
                });
            }
        }
    }
    let lines = scan_lines(text);
    for (i, rec) in out.iter_mut().enumerate() {
        if let Some((first, moves)) = lines.get(i) {
            rec.first_line = *first;
            if moves.len() >= rec.sans.len() {
                rec.lines = moves[..rec.sans.len()].to_vec();
            }
        }
        if rec.lines.len() != rec.sans.len() {
            rec.lines = vec![rec.first_line; rec.sans.len()];
        }
    }
    Ok(out)
}

/// Replay a record into a [`Game`]. Errors name the file and line.
pub fn to_game(rec: &PgnRecord, file: &str) -> Result<Game, PgnError> {
    let err = |line: usize, message: String| PgnError {
        file: file.to_string(),
        line,
        message,
    };
    let mut game = match rec.tag("FEN") {
        Some(fen) => Game::from_fen(fen).map_err(|e| err(rec.first_line, e.to_string()))?,
        None => Game::new(),
    };
    for (i, san) in rec.sans.iter().enumerate() {
        let line = rec.lines.get(i).copied().unwrap_or(rec.first_line);
        game.play_san(san).map_err(|e| {
            let msg = match e {
                PlayError::Illegal { ply, fen, .. } => {
                    format!("illegal move '{san}' (ply {ply}) in position {fen}")
                }
                PlayError::Ambiguous { ply, fen, .. } => {
                    format!("ambiguous move '{san}' (ply {ply}) in position {fen}")
                }
                other => other.to_string(),
            };
            err(line, msg)
        })?;
    }
    Ok(game)
}

/// Read a PGN file and return game `index` (1-based) as a [`Game`] with its record.
pub fn read_game_file(path: &std::path::Path, index: usize) -> Result<(PgnRecord, Game), PgnError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| PgnError {
        file: file.clone(),
        line: 0,
        message: format!("cannot read file: {e}"),
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let records = read_records(&text, &file)?;
    if records.is_empty() {
        return Err(PgnError {
            file,
            line: 1,
            message: "no game found".to_string(),
        });
    }
    let rec = records.get(index.wrapping_sub(1)).ok_or_else(|| PgnError {
        file: file.clone(),
        line: 1,
        message: format!(
            "there is no game {index}: the file holds {} game{}",
            records.len(),
            if records.len() == 1 { "" } else { "s" }
        ),
    })?;
    let game = to_game(rec, &file)?;
    Ok((rec.clone(), game))
}

/// Write `game` as PGN with the given tags (the Seven Tag Roster is completed
/// with "?" where missing; Result and, if the game ended, Termination come
/// from the game; SetUp/FEN are added for a non-standard start).
pub fn write(game: &Game, tags: &[(&str, &str)]) -> String {
    let result = game.termination().map(|t| t.ending.result()).unwrap_or("*");
    let mut out = String::new();
    let get = |name: &str| tags.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
        let v = get(name).unwrap_or("?");
        out.push_str(&format!("[{name} \"{}\"]\n", escape(v)));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    let standard = game.start() == &shakmaty::Chess::default();
    if !standard {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", game.start_fen()));
    }
    if let Some(t) = game.termination() {
        out.push_str(&format!(
            "[Termination \"{}\"]\n",
            escape(&t.ending.kind.to_string())
        ));
    }
    for (k, v) in tags {
        if !matches!(
            *k,
            "Event"
                | "Site"
                | "Date"
                | "Round"
                | "White"
                | "Black"
                | "Result"
                | "SetUp"
                | "FEN"
                | "Termination"
        ) {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
    }
    out.push('\n');
    let mut tokens = Vec::new();
    for ply in 1..=game.len() {
        let number = game.move_number(ply);
        let san = game.san_plus(ply).expect("ply >= 1 has a move");
        if number.side == Color::White || ply == 1 {
            tokens.push(format!("{number} {san}"));
        } else {
            tokens.push(san.to_string());
        }
    }
    if let Some(t) = game.termination() {
        tokens.push(format!("{{{}}}", t.ending.explanation.replace('}', ")")));
    }
    tokens.push(result.to_string());
    let mut line_len = 0;
    for tok in tokens {
        if line_len > 0 && line_len + 1 + tok.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += tok.len();
        out.push_str(&tok);
    }
    out.push('\n');
    out
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}
