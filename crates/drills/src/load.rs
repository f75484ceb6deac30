//! Loading puzzle files: TOML read with spans, so every problem names its
//! file and line; a malformed puzzle or file never stops the others.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::types::{
    Answer, ClaimRule, Collection, EndingRule, Origin, PlyRef, PlySet, Problem, Puzzle, Question,
    Start, Theme, normalize_label, short_label,
};
use threefold_rules::Game;
use threefold_rules::fsio::{self, FileKind};
use threefold_rules::pgn::PgnReason;

/// The keys a puzzle may have.
const PUZZLE_KEYS: &[&str] = &[
    "id",
    "title",
    "start",
    "moves",
    "ask",
    "prompt",
    "answer",
    "explanation",
    "tags",
    "difficulty",
    "source",
    "move",
    "at",
    "first",
    "second",
];

/// The keys a puzzle file may have at its top level (either game's).
const FILE_KEYS: &[&str] = &["name", "description", "game", "puzzle"];

/// Which game a puzzle file's puzzles are about: its top-level `game` key
/// (`"chess"`, the default, or `"xiangqi"`, read by [`super::xiangqi::load_str`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Chess,
    Xiangqi,
}

/// A puzzle file's `game` key (`doc`, the file parsed): `Err` with a problem for a value
/// that is neither "chess" nor "xiangqi". The file is parsed once: the tree of a 29 MB file
/// of 100,000 puzzles takes 200 MB, and two of them were held at once.
fn kind_of(src: &Src<'_>, doc: &DeTable<'_>) -> Result<GameKind, Problem> {
    match doc.get("game") {
        None => Ok(GameKind::Chess),
        Some(v) => match v.get_ref().as_str() {
            Some("chess") => Ok(GameKind::Chess),
            Some("xiangqi") => Ok(GameKind::Xiangqi),
            _ => Err(src.problem(
                v.span(),
                "'game' must be \"chess\" (the default) or \"xiangqi\"",
            )),
        },
    }
}

/// Load puzzle-file text of either game into `coll`: chess themes into `coll.themes`,
/// xiangqi themes into `coll.xiangqi`, problems into `coll.problems`.
/// A file is parsed once for both its `game` key and its chess puzzles (it was parsed
/// twice: a quarter of the time the drill screen took to open a file of 100,000 puzzles).
fn load_into(coll: &mut Collection, path: &Path, text: &str) {
    let src = Src::new(path, text);
    let doc = match parse_file(&src) {
        Ok(doc) => doc,
        // Not TOML: the chess loader's message (a file that is not TOML counts as chess).
        Err(p) => return coll.problems.push(p),
    };
    match kind_of(&src, doc.get_ref()) {
        Err(p) => coll.problems.push(p),
        Ok(GameKind::Chess) => {
            let (theme, problems) = load_chess(&src, doc.get_ref());
            coll.problems.extend(problems);
            coll.themes.extend(theme);
        }
        Ok(GameKind::Xiangqi) => {
            let (theme, problems) = super::xiangqi::load_str(path, text);
            coll.problems.extend(problems);
            coll.xiangqi.extend(theme);
        }
    }
}

/// Load every `*.toml` file of `dir` (sorted by name). Problems (unreadable
/// files, TOML syntax errors, malformed puzzles, duplicate ids) are collected;
/// everything else loads.
pub fn load_dir(dir: &Path) -> Collection {
    let mut coll = Collection::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            coll.problems.push(Problem::file(
                dir,
                format!("cannot read the puzzle directory: {e}"),
            ));
            return coll;
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .collect();
    files.sort();
    if files.is_empty() {
        coll.problems.push(Problem::file(
            dir,
            "no puzzle files (*.toml) in this directory",
        ));
        return coll;
    }
    for file in files {
        match read_puzzle_file(&file) {
            Ok(text) => load_into(&mut coll, &file, &text),
            Err(p) => coll.problems.push(p),
        }
    }
    drop_duplicate_ids(&mut coll);
    coll
}

/// Load puzzle files given as (path, text) pairs, e.g. the copies built
/// into the binary ([`super::builtin`]).
pub fn load_texts<'a>(files: impl IntoIterator<Item = (&'a Path, &'a str)>) -> Collection {
    let mut coll = Collection::default();
    for (path, text) in files {
        load_into(&mut coll, path, text);
    }
    drop_duplicate_ids(&mut coll);
    coll
}

/// Load the puzzle file at `path` into `coll` beside what it holds (the personal theme
/// beside the built-in ones): its problems are added, a puzzle whose id is taken is reported
/// and left out, the good puzzles load.
pub fn add_file(coll: &mut Collection, path: &Path) {
    match read_puzzle_file(path) {
        Ok(text) => load_into(coll, path, &text),
        Err(p) => coll.problems.push(p),
    }
    drop_duplicate_ids(coll);
}

/// Keep the first puzzle of each id; report the others.
/// Also sorts the problems by file and line (stable), so they read in order.
fn drop_duplicate_ids(coll: &mut Collection) {
    // One set of ids for both games: a xiangqi puzzle may not take a chess puzzle's id.
    let mut seen: HashMap<String, Origin> = HashMap::new();
    for theme in &mut coll.themes {
        keep_first_ids(
            &mut theme.puzzles,
            |p| (&p.id, &p.origin),
            &mut seen,
            &mut coll.problems,
        );
    }
    for theme in &mut coll.xiangqi {
        keep_first_ids(
            &mut theme.puzzles,
            |p| (&p.id, &p.origin),
            &mut seen,
            &mut coll.problems,
        );
    }
    coll.problems
        .sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
}

/// Keep the puzzles whose id (`key` gives it and the puzzle's origin) is not in `seen`,
/// adding theirs; report each other one as a duplicate.
fn keep_first_ids<P>(
    puzzles: &mut Vec<P>,
    key: impl Fn(&P) -> (&String, &Origin),
    seen: &mut HashMap<String, Origin>,
    problems: &mut Vec<Problem>,
) {
    puzzles.retain(|p| {
        let (id, origin) = key(p);
        match seen.get(id) {
            Some(first) => {
                problems.push(Problem::at(
                    &origin.file,
                    origin.line,
                    format!("puzzle '{id}': duplicate id (first at {first})"),
                ));
                false
            }
            None => {
                seen.insert(id.clone(), origin.clone());
                true
            }
        }
    });
}

/// Load one puzzle file. The theme is `None` only when the file cannot be
/// read or is not TOML at all; otherwise it holds every puzzle that loaded.
pub fn load_file(path: &Path) -> (Option<Theme>, Vec<Problem>) {
    match read_puzzle_file(path) {
        Ok(text) => load_str(path, &text),
        Err(p) => (None, vec![p]),
    }
}

/// The text of the puzzle file at `path`, read as every file is (regular files only, at
/// most [`FileKind::Puzzles`]'s limit); the problem names the file and the cause.
pub(crate) fn read_puzzle_file(path: &Path) -> Result<String, Problem> {
    fsio::read_text(path, FileKind::Puzzles)
        .map_err(|e| Problem::file(path, format!("cannot read: {}", e.cause())))
}

/// Load puzzle-file text as if read from `path` (used for file names in
/// problems and for the theme id, the file stem).
pub fn load_str(path: &Path, text: &str) -> (Option<Theme>, Vec<Problem>) {
    let src = Src::new(path, text);
    let doc = match parse_file(&src) {
        Ok(d) => d,
        Err(p) => return (None, vec![p]),
    };
    let doc = doc.get_ref();
    if let Ok(GameKind::Xiangqi) = kind_of(&src, doc) {
        let line = doc.get("game").map_or(1, |v| src.line(v.span().start));
        return (
            None,
            vec![Problem::at(
                path,
                line,
                "a xiangqi puzzle file (game = \"xiangqi\"): read by the xiangqi loader, not the chess one",
            )],
        );
    }
    load_chess(&src, doc)
}

/// [`load_str`] of a chess puzzle file already parsed (`doc`).
fn load_chess(src: &Src<'_>, doc: &DeTable<'_>) -> (Option<Theme>, Vec<Problem>) {
    let path = src.path;
    let mut problems = Vec::new();
    let id = theme_id(path);
    check_file_keys(src, doc, &mut problems);
    let name = match doc.get("name") {
        None => id.clone(),
        Some(v) => match v.get_ref().as_str() {
            Some(s) => s.to_string(),
            None => {
                problems.push(src.problem(v.span(), "'name' must be a string"));
                id.clone()
            }
        },
    };
    // A multi-line description is one paragraph: fold its line breaks.
    let description = doc
        .get("description")
        .and_then(|v| v.get_ref().as_str())
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let puzzles = read_puzzles(src, doc, &id, &mut problems, read_puzzle);
    let theme = Theme {
        id,
        name,
        description,
        file: path.to_path_buf(),
        puzzles,
    };
    (Some(theme), problems)
}

/// Parse a puzzle file's text: a syntax error is one problem at its line.
pub(crate) fn parse_file<'i>(src: &Src<'i>) -> Result<Spanned<DeTable<'i>>, Problem> {
    DeTable::parse(src.text).map_err(|e| {
        let line = e.span().map_or(1, |s| src.line(s.start));
        let msg = e.message().trim().replace('\n', " ");
        Problem::at(src.path, line, format!("not valid TOML: {msg}"))
    })
}

/// A theme's id: its file's stem.
pub(crate) fn theme_id(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Report each top-level key of a puzzle file that is not one of [`FILE_KEYS`].
pub(crate) fn check_file_keys(src: &Src<'_>, doc: &DeTable<'_>, problems: &mut Vec<Problem>) {
    for (k, v) in doc.iter() {
        if !FILE_KEYS.contains(&k.get_ref().as_ref()) {
            problems.push(src.problem(
                v.span(),
                format!(
                    "unknown key '{}' at the top of the file (expected: {})",
                    k.get_ref(),
                    FILE_KEYS.join(", ")
                ),
            ));
        }
    }
}

/// Read a file's `[[puzzle]]` tables with `read` (given the source, the theme id, the
/// table's span and the table): the puzzles that load, in order; every problem goes to
/// `problems`.
pub(crate) fn read_puzzles<P>(
    src: &Src<'_>,
    doc: &DeTable<'_>,
    theme: &str,
    problems: &mut Vec<Problem>,
    read: impl Fn(&Src<'_>, &str, Range<usize>, &DeTable<'_>) -> Result<P, Vec<Problem>>,
) -> Vec<P> {
    let mut puzzles = Vec::new();
    match doc.get("puzzle") {
        None => problems.push(Problem::at(
            src.path,
            1,
            "no puzzles: add [[puzzle]] tables",
        )),
        Some(v) => match v.get_ref().as_array() {
            None => problems
                .push(src.problem(v.span(), "'puzzle' must be an array of tables ([[puzzle]])")),
            Some(items) => {
                for item in items.iter() {
                    match item.get_ref().as_table() {
                        None => problems.push(src.problem(item.span(), "a puzzle must be a table")),
                        Some(t) => match read(src, theme, item.span(), t) {
                            Ok(p) => puzzles.push(p),
                            Err(mut ps) => problems.append(&mut ps),
                        },
                    }
                }
            }
        },
    }
    puzzles
}

pub(crate) struct Src<'a> {
    pub(crate) path: &'a Path,
    pub(crate) text: &'a str,
    /// The byte offset of the start of each line after the first (each `\n` + 1),
    /// ascending: a line number is a binary search, not a count from the start of the
    /// file (which made checking a file quadratic in its size).
    line_starts: Vec<usize>,
}

impl<'a> Src<'a> {
    pub(crate) fn new(path: &'a Path, text: &'a str) -> Src<'a> {
        let line_starts = text
            .bytes()
            .enumerate()
            .filter(|&(_, b)| b == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        Src {
            path,
            text,
            line_starts,
        }
    }

    /// The 1-based line of a byte offset.
    pub(crate) fn line(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        self.line_starts.partition_point(|&s| s <= end) + 1
    }

    pub(crate) fn origin(&self, span: Range<usize>) -> Origin {
        Origin {
            file: self.path.to_path_buf(),
            line: self.line(span.start),
        }
    }

    pub(crate) fn problem(&self, span: Range<usize>, message: impl Into<String>) -> Problem {
        Problem::at(self.path, self.line(span.start), message)
    }

    /// The line where a string value's text starts: a newline right after an opening
    /// `"""` or `'''` is not part of the string.
    pub(crate) fn text_line(&self, span: Range<usize>) -> usize {
        let raw = &self.text[span.clone()];
        let skipped = ["\"\"\"\n", "\"\"\"\r\n", "'''\n", "'''\r\n"]
            .iter()
            .any(|open| raw.starts_with(open));
        self.line(span.start) + usize::from(skipped)
    }

    /// The line of the puzzle table's `[[puzzle]]` header: the span of an
    /// array-of-tables item starts at its header (toml 0.9) or after it, so look back
    /// for the last header that begins at or before the span's start.
    pub(crate) fn header_line(&self, span: Range<usize>) -> usize {
        let start = span.start.min(self.text.len());
        let upto = (start + 2).min(self.text.len());
        match self.text[..upto].rfind("[[") {
            Some(h)
                if self.text[h..start]
                    .trim_start_matches("[[")
                    .trim()
                    .starts_with("puzzle") =>
            {
                self.line(h)
            }
            _ => self.line(start),
        }
    }
}

pub(crate) type Field<'a, 'i> = &'a Spanned<DeValue<'i>>;

/// Collects the problems of one puzzle, each prefixed with its id.
pub(crate) struct PuzzleErrors<'s> {
    pub(crate) src: &'s Src<'s>,
    pub(crate) id: String,
    pub(crate) problems: Vec<Problem>,
}

impl PuzzleErrors<'_> {
    pub(crate) fn at(&mut self, span: Range<usize>, msg: impl AsRef<str>) {
        let p = self
            .src
            .problem(span, format!("puzzle '{}': {}", self.id, msg.as_ref()));
        self.problems.push(p);
    }

    /// A problem at a line rather than a span (the puzzle's header, a line of its moves).
    pub(crate) fn at_line(&mut self, line: usize, msg: impl AsRef<str>) {
        let p = Problem::at(
            self.src.path,
            line,
            format!("puzzle '{}': {}", self.id, msg.as_ref()),
        );
        self.problems.push(p);
    }

    /// A required key that is not there, reported at the puzzle's header line.
    pub(crate) fn missing(&mut self, header: usize, key: &str) {
        self.at_line(header, format!("missing key '{key}'"));
    }

    /// A key of table `t` that question `code` does not take, if it is there.
    pub(crate) fn refuse(&mut self, t: &DeTable<'_>, code: &str, key: &str) {
        if let Some(v) = t.get(key) {
            self.at(
                v.span(),
                format!("'{key}' does not belong to ask = \"{code}\""),
            );
        }
    }

    /// A key that question `code` needs and the puzzle lacks, at its header line.
    pub(crate) fn require(&mut self, header: usize, code: &str, key: &str) {
        self.at_line(header, format!("ask = \"{code}\" needs '{key}'"));
    }
}

/// What every puzzle table starts with, whatever its game: where it is, its id and the
/// problems found so far, and the string keys both games read alike.
pub(crate) struct Common<'s> {
    /// The line of the puzzle's `[[puzzle]]` header.
    pub(crate) header: usize,
    pub(crate) origin: Origin,
    pub(crate) id: String,
    pub(crate) err: PuzzleErrors<'s>,
    pub(crate) title: Option<String>,
    pub(crate) explanation: Option<String>,
    pub(crate) ask: Option<String>,
    pub(crate) prompt_text: Option<String>,
    pub(crate) source: Option<String>,
}

/// Read the start of a puzzle table, the same for chess and xiangqi: every key not in
/// `keys` is reported as unknown (`kind` names the puzzle in that message: "a puzzle",
/// "a xiangqi puzzle"), then the id is checked and title, explanation, ask, prompt and
/// source are read, in that order.
pub(crate) fn read_common<'s>(
    src: &'s Src<'s>,
    span: Range<usize>,
    t: &DeTable<'_>,
    keys: &[&str],
    kind: &str,
) -> Common<'s> {
    let header = src.header_line(span);
    let origin = Origin {
        file: src.path.to_path_buf(),
        line: header,
    };
    let id_field = t.get("id");
    let id = id_field
        .and_then(|v| v.get_ref().as_str())
        .unwrap_or("?")
        .to_string();
    let mut err = PuzzleErrors {
        src,
        id: id.clone(),
        problems: Vec::new(),
    };

    for (k, v) in t.iter() {
        if !keys.contains(&k.get_ref().as_ref()) {
            err.at(
                v.span(),
                format!(
                    "unknown key '{}' ({kind} may have: {})",
                    k.get_ref(),
                    keys.join(", ")
                ),
            );
        }
    }

    match id_field {
        None => err.missing(header, "id"),
        Some(v) => match v.get_ref().as_str() {
            None => err.at(v.span(), "'id' must be a string"),
            Some(s) if !valid_id(s) => err.at(
                v.span(),
                "'id' must be non-empty lowercase letters, digits and '-'",
            ),
            Some(_) => {}
        },
    }
    let title = req_str(&mut err, t, "title", header);
    let explanation = req_str(&mut err, t, "explanation", header);
    let ask = req_str(&mut err, t, "ask", header);
    let prompt_text = opt_str(&mut err, t, "prompt");
    let source = opt_str(&mut err, t, "source");
    Common {
        header,
        origin,
        id,
        err,
        title,
        explanation,
        ask,
        prompt_text,
        source,
    }
}

/// A puzzle's `tags`: none when the key is absent or malformed (reported).
pub(crate) fn read_tags(err: &mut PuzzleErrors<'_>, t: &DeTable<'_>) -> Vec<String> {
    match t.get("tags") {
        None => Vec::new(),
        Some(v) => str_array(err, v, "tags").unwrap_or_default(),
    }
}

/// A puzzle's `difficulty`, 1 to 5: 1 when the key is absent or malformed (reported).
pub(crate) fn read_difficulty(err: &mut PuzzleErrors<'_>, t: &DeTable<'_>) -> u8 {
    match t.get("difficulty") {
        None => 1,
        Some(v) => match v
            .get_ref()
            .as_integer()
            .and_then(|i| i.as_str().parse::<u8>().ok())
        {
            Some(d) if (1..=5).contains(&d) => d,
            _ => {
                err.at(v.span(), "'difficulty' must be an integer from 1 to 5");
                1
            }
        },
    }
}

fn read_puzzle(
    src: &Src<'_>,
    theme: &str,
    span: Range<usize>,
    t: &DeTable<'_>,
) -> Result<Puzzle, Vec<Problem>> {
    let Common {
        header,
        origin,
        id,
        mut err,
        title,
        explanation,
        ask,
        prompt_text,
        source,
    } = read_common(src, span.clone(), t, PUZZLE_KEYS, "a puzzle");
    let start = match opt_str(&mut err, t, "start") {
        None => Start::Standard,
        Some(s) if s.trim().eq_ignore_ascii_case("standard") => Start::Standard,
        Some(s) => Start::Fen(s.trim().to_string()),
    };
    let tags = read_tags(&mut err, t);
    let difficulty = read_difficulty(&mut err, t);

    // The game: start position and moves, played by the rules core (the
    // puzzle keeps the game; nothing replays the SAN again).
    let mut game = match &start {
        Start::Standard => Some(Game::new()),
        Start::Fen(f) => match Game::from_fen(f) {
            Ok(g) => Some(g),
            Err(e) => {
                let span = t.get("start").map(|v| v.span()).unwrap_or(span.clone());
                err.at(span, e.to_string());
                None
            }
        },
    };
    if let Some(v) = t.get("moves") {
        match v.get_ref().as_str() {
            None => err.at(v.span(), "'moves' must be a string of SAN moves"),
            Some(text) => {
                let base = src.text_line(v.span());
                let listed = tokens(text).unwrap_or_else(|(line_in, msg)| {
                    err.at_line(base + line_in, format!("moves: {msg}"));
                    game = None;
                    Vec::new()
                });
                for (line_in, tok) in listed {
                    let line = base + line_in;
                    if let Some(g) = game.as_mut() {
                        let n = g.len() + 1;
                        if let Err(e) = g.play_san(&tok) {
                            err.at_line(line, format!("move {n} ('{tok}'): {e}"));
                            game = None;
                        }
                    }
                }
            }
        }
    }

    // The question.
    let question = match (ask.as_deref(), game.as_ref()) {
        (None, _) | (_, None) => None,
        (Some(code), Some(g)) => read_question(&mut err, t, code, header, g),
    };
    let answer_field = t.get("answer");
    if answer_field.is_none() {
        err.missing(header, "answer");
    }
    let answer = match (&question, answer_field, game.as_ref()) {
        (Some(q), Some(v), Some(g)) => read_answer(&mut err, q, v, g),
        _ => None,
    };

    if !err.problems.is_empty() {
        return Err(err.problems);
    }
    let (
        Some(title),
        Some(explanation),
        Some(game),
        Some(question),
        Some(answer),
        Some(answer_field),
    ) = (title, explanation, game, question, answer, answer_field)
    else {
        // Every None above has recorded a problem.
        return Err(vec![Problem::at(
            src.path,
            header,
            format!("puzzle '{id}': incomplete"),
        )]);
    };
    // Kept for the session: only the plies played (a puzzle file may hold 100,000).
    let mut game = game;
    game.shrink_to_fit();
    Ok(Puzzle {
        id,
        title,
        theme: theme.to_string(),
        game: Box::new(game),
        question,
        prompt_text,
        answer,
        explanation: explanation.trim().to_string(),
        tags,
        difficulty,
        source,
        origin,
        answer_origin: src.origin(answer_field.span()),
    })
}

pub(crate) fn valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

pub(crate) fn req_str(
    err: &mut PuzzleErrors<'_>,
    t: &DeTable<'_>,
    key: &str,
    header: usize,
) -> Option<String> {
    match t.get(key) {
        None => {
            err.missing(header, key);
            None
        }
        Some(v) => match v.get_ref().as_str() {
            Some(s) if !s.trim().is_empty() => Some(s.to_string()),
            Some(_) => {
                err.at(v.span(), format!("'{key}' must not be empty"));
                None
            }
            None => {
                err.at(v.span(), format!("'{key}' must be a string"));
                None
            }
        },
    }
}

pub(crate) fn opt_str(err: &mut PuzzleErrors<'_>, t: &DeTable<'_>, key: &str) -> Option<String> {
    let v = t.get(key)?;
    match v.get_ref().as_str() {
        Some(s) => Some(s.to_string()),
        None => {
            err.at(v.span(), format!("'{key}' must be a string"));
            None
        }
    }
}

/// A yes-or-no answer: a boolean, or "yes" / "no" in any case.
pub(crate) fn yes_no(v: Field<'_, '_>) -> Option<bool> {
    match v.get_ref() {
        DeValue::Boolean(b) => Some(*b),
        DeValue::String(s) if s.eq_ignore_ascii_case("yes") => Some(true),
        DeValue::String(s) if s.eq_ignore_ascii_case("no") => Some(false),
        _ => None,
    }
}

/// An answer that lists moves (an array of strings, each read by `parse`): the moves in
/// the listed order, or `None` when any is unreadable or listed twice (each reported).
pub(crate) fn answer_moves<M: PartialEq, E: std::fmt::Display>(
    err: &mut PuzzleErrors<'_>,
    v: Field<'_, '_>,
    parse: impl Fn(&str) -> Result<M, E>,
) -> Option<Vec<M>> {
    let listed = str_array(err, v, "answer")?;
    // Each move once with how often it is listed, and each unreadable text once: an answer
    // listing one move 100,000 times is one line, not 99,999 identical ones.
    let mut moves: Vec<(M, &str, usize)> = Vec::new();
    let mut unreadable: Vec<(&str, String, usize)> = Vec::new();
    for s in &listed {
        if let Some(u) = unreadable.iter_mut().find(|u| u.0 == s) {
            u.2 += 1;
            continue;
        }
        match parse(s) {
            Ok(m) => match moves.iter_mut().find(|(n, _, _)| *n == m) {
                Some(seen) => seen.2 += 1,
                None => moves.push((m, s, 1)),
            },
            Err(e) => unreadable.push((s, e.to_string(), 1)),
        }
    }
    let times = |n: usize| match n {
        2 => "twice".to_string(),
        n => format!("{n} times"),
    };
    let mut ok = true;
    for (s, e, n) in &unreadable {
        let again = if *n > 1 {
            format!(" (listed {})", times(*n))
        } else {
            String::new()
        };
        err.at(v.span(), format!("answer move '{s}': {e}{again}"));
        ok = false;
    }
    for (_, s, n) in moves.iter().filter(|m| m.2 > 1) {
        err.at(v.span(), format!("answer lists '{s}' {}", times(*n)));
        ok = false;
    }
    ok.then(|| moves.into_iter().map(|(m, _, _)| m).collect())
}

pub(crate) fn str_array(
    err: &mut PuzzleErrors<'_>,
    v: Field<'_, '_>,
    key: &str,
) -> Option<Vec<String>> {
    let Some(items) = v.get_ref().as_array() else {
        err.at(v.span(), format!("'{key}' must be an array of strings"));
        return None;
    };
    let mut out = Vec::new();
    for item in items.iter() {
        match item.get_ref().as_str() {
            Some(s) => out.push(s.to_string()),
            None => {
                err.at(item.span(), format!("'{key}' must hold only strings"));
                return None;
            }
        }
    }
    Some(out)
}

/// The SAN moves of a move text with the line (0-based, within the text) of each, read as
/// PGN movetext by the one PGN lexer ([`threefold_rules::pgn::move_list`]): move numbers
/// ("12.", "12...", "12.Nf3"), comments and results are skipped; `0-0` reads as `O-O`.
/// An error gives its line (0-based) and message.
pub(crate) fn tokens(text: &str) -> Result<Vec<(usize, String)>, (usize, PgnReason)> {
    threefold_rules::pgn::move_list(text)
        .map(|moves| moves.into_iter().map(|m| (m.line - 1, m.san)).collect())
        .map_err(|(line, msg)| (line - 1, msg))
}

/// Resolve a position reference ("start", "4...Ng8", "12.Qh5+", or a ply number).
fn resolve_ref(
    err: &mut PuzzleErrors<'_>,
    v: Field<'_, '_>,
    key: &str,
    game: &Game,
) -> Option<PlyRef> {
    let (text, found) = match v.get_ref() {
        DeValue::Integer(i) => {
            let ply = i.as_str().parse::<usize>().ok();
            (i.as_str().to_string(), ply.filter(|&p| p <= game.len()))
        }
        DeValue::String(s) => (s.to_string(), find_label(game, s)),
        _ => {
            err.at(
                v.span(),
                format!(
                    "'{key}' must be \"start\", a move label like \"4...Ng8\", or a ply number"
                ),
            );
            return None;
        }
    };
    match found {
        Some(ply) => Some(PlyRef {
            text: if ply == 0 {
                "start".to_string()
            } else {
                short_label(game, ply)
            },
            ply,
        }),
        None => {
            let labels: Vec<String> = (0..=game.len()).map(|p| short_label(game, p)).collect();
            err.at(
                v.span(),
                format!(
                    "'{key}' = '{text}' names no position of this game (positions: {})",
                    abbreviate(&labels)
                ),
            );
            None
        }
    }
}

fn abbreviate(labels: &[String]) -> String {
    if labels.len() <= 12 {
        labels.join(", ")
    } else {
        format!(
            "{}, ..., {}",
            labels[..6].join(", "),
            labels[labels.len() - 4..].join(", ")
        )
    }
}

/// The ply a label names: "start"/"0" is ply 0, else the ply whose
/// scoresheet label matches (spaces and check marks ignored).
pub(crate) fn find_label(game: &Game, text: &str) -> Option<usize> {
    let want = normalize_label(text);
    if want.eq_ignore_ascii_case("start") {
        return Some(0);
    }
    if let Ok(p) = want.parse::<usize>() {
        return (p <= game.len()).then_some(p);
    }
    (1..=game.len()).find(|&p| short_label(game, p) == want)
}

fn read_question(
    err: &mut PuzzleErrors<'_>,
    t: &DeTable<'_>,
    code: &str,
    header: usize,
    game: &Game,
) -> Option<Question> {
    let span_of = |key: &str| t.get(key).map(|v| v.span());
    let q = match code {
        "claim" | "claim-moves" | "ending" => {
            for k in ["move", "at", "first", "second"] {
                err.refuse(t, code, k);
            }
            match code {
                "claim" => Question::Claim,
                "claim-moves" => Question::ClaimMoves,
                _ => Question::Ending,
            }
        }
        "intended" => {
            for k in ["at", "first", "second"] {
                err.refuse(t, code, k);
            }
            let Some(v) = t.get("move") else {
                err.require(header, code, "move");
                return None;
            };
            let Some(mv) = v.get_ref().as_str() else {
                err.at(v.span(), "'move' must be a SAN move, e.g. \"Nf3\"");
                return None;
            };
            match game.parse_san(mv) {
                Ok(mv) => Question::Intended { mv },
                Err(e) => {
                    err.at(v.span(), format!("'move' = '{mv}': {e}"));
                    return None;
                }
            }
        }
        "count" => {
            for k in ["move", "first", "second"] {
                err.refuse(t, code, k);
            }
            let at = match t.get("at") {
                None => None,
                Some(v) => Some(resolve_ref(err, v, "at", game)?),
            };
            Question::Count { at }
        }
        "same" => {
            for k in ["move", "at"] {
                err.refuse(t, code, k);
            }
            let (Some(a), Some(b)) = (t.get("first"), t.get("second")) else {
                if t.get("first").is_none() {
                    err.require(header, code, "first");
                }
                if t.get("second").is_none() {
                    err.require(header, code, "second");
                }
                return None;
            };
            let first = resolve_ref(err, a, "first", game);
            let second = resolve_ref(err, b, "second", game);
            Question::Same {
                first: first?,
                second: second?,
            }
        }
        other => {
            let span = span_of("ask").unwrap_or(0..0);
            err.at(
                span,
                format!(
                    "unknown ask = \"{other}\" (expected one of: {})",
                    Question::CODES.join(", ")
                ),
            );
            return None;
        }
    };
    if let Question::Claim | Question::ClaimMoves | Question::Intended { .. } = q
        && let Some(term) = game.termination()
    {
        let span = span_of("ask").unwrap_or(0..0);
        err.at(
            span,
            format!(
                "ask = \"{code}\" on a game that is already over ({}); ask = \"ending\" instead",
                term.ending.kind
            ),
        );
        return None;
    }
    Some(q)
}

/// Read the stated answer for question `q`.
fn read_answer(
    err: &mut PuzzleErrors<'_>,
    q: &Question,
    v: Field<'_, '_>,
    game: &Game,
) -> Option<Answer> {
    let span = v.span();
    match q {
        Question::Claim | Question::Intended { .. } => {
            let s = v.get_ref().as_str();
            match s.and_then(ClaimRule::parse) {
                Some(r) => Some(Answer::Claim(r)),
                None => {
                    err.at(
                        span,
                        "answer must be \"none\", \"threefold\", \"fifty\" or \"both\"",
                    );
                    None
                }
            }
        }
        Question::Ending => match v.get_ref().as_str().and_then(EndingRule::parse) {
            Some(r) => Some(Answer::Ending(r)),
            None => {
                err.at(
                    span,
                    "answer must be \"no\", \"checkmate\", \"stalemate\", \"insufficient\", \"fivefold\" or \"seventy-five\"",
                );
                None
            }
        },
        Question::Same { .. } => match yes_no(v) {
            Some(b) => Some(Answer::Same(b)),
            None => {
                err.at(span, "answer must be \"yes\" or \"no\"");
                None
            }
        },
        Question::ClaimMoves => answer_moves(err, v, |s| game.parse_san(s)).map(Answer::moves),
        Question::Count { .. } => {
            let Some(table) = v.get_ref().as_table() else {
                err.at(
                    span,
                    "answer must be a table: { count = 3, after = [\"start\", \"2...Ng8\", \"4...Ng8\"] }",
                );
                return None;
            };
            for (k, val) in table.iter() {
                if !matches!(k.get_ref().as_ref(), "count" | "after") {
                    err.at(
                        val.span(),
                        format!(
                            "unknown key '{}' in answer (expected count, after)",
                            k.get_ref()
                        ),
                    );
                }
            }
            let count = match table.get("count") {
                Some(c) => match c
                    .get_ref()
                    .as_integer()
                    .and_then(|i| i.as_str().parse::<usize>().ok())
                {
                    Some(n) => Some(n),
                    None => {
                        err.at(c.span(), "answer count must be a positive integer");
                        None
                    }
                },
                None => {
                    err.at(span.clone(), "answer needs 'count'");
                    None
                }
            };
            let places = match table.get("after") {
                Some(a) => match a.get_ref().as_array() {
                    Some(items) => {
                        let mut plies = Vec::new();
                        for item in items.iter() {
                            plies.push(resolve_ref(err, item, "after", game)?.ply);
                        }
                        Some(plies)
                    }
                    None => {
                        err.at(a.span(), "answer 'after' must be an array of move labels");
                        None
                    }
                },
                None => {
                    err.at(span.clone(), "answer needs 'after' (the list of places)");
                    None
                }
            };
            let (count, plies) = (count?, places?);
            let n = plies.len();
            let places = PlySet::new(plies);
            if places.count() != n || count != n {
                err.at(
                    span,
                    format!(
                        "answer count = {count} but 'after' lists {n} place{} ({} distinct)",
                        if n == 1 { "" } else { "s" },
                        places.count()
                    ),
                );
                return None;
            }
            Some(Answer::Count(places))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_numbers_are_those_of_a_newline_count() {
        let text = "a\n\nbc\r\nd\n";
        let src = Src::new(Path::new("t.toml"), text);
        for offset in 0..=text.len() + 3 {
            let counted = text.as_bytes()[..offset.min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            assert_eq!(src.line(offset), counted, "offset {offset}");
        }
        assert_eq!(Src::new(Path::new("e"), "").line(0), 1);
    }

    #[test]
    fn move_numbers_and_results_are_dropped() {
        let t: Vec<String> = tokens("1. e4 e5 2.Nf3 Nc6\n3... a6 12...Nf6 O-O 1/2-1/2")
            .unwrap()
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(t, ["e4", "e5", "Nf3", "Nc6", "a6", "Nf6", "O-O"]);
        let lines: Vec<usize> = tokens("1. e4\n e5\n\n2. Nf3")
            .unwrap()
            .iter()
            .map(|t| t.0)
            .collect();
        assert_eq!(lines, [0, 1, 3]);
        assert!(tokens("  ").unwrap().is_empty());
        assert_eq!(tokens("0-1").unwrap()[..], []);
        assert_eq!(tokens("1. e4 e5 2. 0-0").unwrap()[2].1, "O-O");
        assert_eq!(
            tokens("e4\n e5 blah").map_err(|(line, reason)| (line, reason.to_string())),
            Err((1, "cannot read 'blah' as a move".into()))
        );
    }

    #[test]
    fn labels_resolve_with_or_without_check_marks_and_spaces() {
        let mut g = Game::new();
        for m in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"] {
            g.play_san(m).unwrap();
        }
        assert_eq!(find_label(&g, "start"), Some(0));
        assert_eq!(find_label(&g, "0"), Some(0));
        assert_eq!(find_label(&g, "7"), Some(7));
        assert_eq!(find_label(&g, "8"), None);
        assert_eq!(find_label(&g, "2.Qh5"), Some(3));
        assert_eq!(find_label(&g, "after 3... Nf6"), Some(6));
        assert_eq!(find_label(&g, "4.Qxf7#"), Some(7));
        assert_eq!(find_label(&g, "4.Qxf7"), Some(7));
        assert_eq!(find_label(&g, "4...Qxf7"), None);
    }

    #[test]
    fn a_puzzle_line_is_its_header_line() {
        let text = "name = \"x\"\n\n[[puzzle]]\nid = \"a\"\ntitle = \"t\"\nask = \"ending\"\nanswer = \"no\"\nexplanation = \"x\"\n";
        let (theme, problems) = load_str(Path::new("x.toml"), text);
        assert!(problems.is_empty(), "{problems:?}");
        let p = &theme.unwrap().puzzles[0];
        assert_eq!(p.origin.line, 3);
        assert_eq!(p.answer_origin.line, 7);
    }

    #[test]
    fn move_lines_are_right_with_crlf_line_ends() {
        let text = "[[puzzle]]\r\nid = \"a\"\r\ntitle = \"t\"\r\nmoves = \"\"\"\r\n1. e4 e5\r\n2. Ke3\r\n\"\"\"\r\nask = \"ending\"\r\nanswer = \"no\"\r\nexplanation = \"x\"\r\n";
        let (_, problems) = load_str(Path::new("x.toml"), text);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].line, Some(6), "{}", problems[0]);
    }
}
