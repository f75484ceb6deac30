//! The TOML helpers both games' puzzle files are read with: the file parsed with spans, its
//! top-level keys, the `[[puzzle]]` tables, the keys every puzzle has (id, title, ask,
//! explanation, prompt, source, tags, difficulty), and one-line problems naming the file and
//! line. Chess's reading is in `load/chess.rs`, xiangqi's in `xiangqi/load.rs`.

use std::ops::Range;
use std::path::Path;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::types::{Origin, Problem};

/// The keys a puzzle file may have at its top level (either game's).
pub(crate) const FILE_KEYS: &[&str] = &["name", "description", "game", "puzzle"];

/// What a puzzle file holds besides its game, the same for both games: the theme's id (the
/// file's stem), its name and description, and its puzzles.
pub(crate) struct ThemeParts<P> {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) puzzles: Vec<P>,
}

/// Read a parsed puzzle file's top level and its `[[puzzle]]` tables (each with `read`, as
/// [`read_puzzles`]): unknown top-level keys are reported; `name` (the id if absent) and
/// `description` are strings, their line breaks and runs of spaces folded (a multi-line
/// description is one paragraph), and one that is not a string is reported and left out.
pub(crate) fn read_theme<P>(
    src: &Src<'_>,
    doc: &DeTable<'_>,
    problems: &mut Vec<Problem>,
    read: impl Fn(&Src<'_>, &str, Range<usize>, &DeTable<'_>) -> Result<P, Vec<Problem>>,
) -> ThemeParts<P> {
    let id = theme_id(src.path);
    check_file_keys(src, doc, problems);
    let mut text_of = |key: &str| match doc.get(key) {
        None => None,
        Some(v) => match v.get_ref().as_str() {
            Some(s) => Some(s.split_whitespace().collect::<Vec<_>>().join(" ")),
            None => {
                problems.push(src.problem(v.span(), format!("'{key}' must be a string")));
                None
            }
        },
    };
    let name = text_of("name").unwrap_or_else(|| id.clone());
    let description = text_of("description").unwrap_or_default();
    let puzzles = read_puzzles(src, doc, &id, problems, read);
    ThemeParts {
        id,
        name,
        description,
        puzzles,
    }
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
    /// What the table is: "puzzle" or "scenario" (each problem starts "puzzle 'id': ").
    pub(crate) what: &'static str,
    pub(crate) id: String,
    pub(crate) problems: Vec<Problem>,
}

impl PuzzleErrors<'_> {
    pub(crate) fn at(&mut self, span: Range<usize>, msg: impl AsRef<str>) {
        let p = self.src.problem(
            span,
            format!("{} '{}': {}", self.what, self.id, msg.as_ref()),
        );
        self.problems.push(p);
    }

    /// A problem at a line rather than a span (the puzzle's header, a line of its moves).
    pub(crate) fn at_line(&mut self, line: usize, msg: impl AsRef<str>) {
        let p = Problem::at(
            self.src.path,
            line,
            format!("{} '{}': {}", self.what, self.id, msg.as_ref()),
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
    pub(crate) tags: Vec<String>,
    pub(crate) difficulty: u8,
}

/// Read the start of a puzzle table, the same for chess and xiangqi: every key not in
/// `keys` is reported as unknown (`kind` names the puzzle in that message: "a puzzle",
/// "a xiangqi puzzle"), then the id is checked and title, explanation, ask, prompt and
/// source are read, in that order, then tags and difficulty.
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
        what: "puzzle",
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
    let tags = read_tags(&mut err, t);
    let difficulty = read_difficulty(&mut err, t);
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
        tags,
        difficulty,
    }
}

/// A puzzle's `tags`: none when the key is absent or malformed (reported).
fn read_tags(err: &mut PuzzleErrors<'_>, t: &DeTable<'_>) -> Vec<String> {
    match t.get("tags") {
        None => Vec::new(),
        Some(v) => str_array(err, v, "tags").unwrap_or_default(),
    }
}

/// A puzzle's `difficulty`, 1 to 5: 1 when the key is absent or malformed (reported).
fn read_difficulty(err: &mut PuzzleErrors<'_>, t: &DeTable<'_>) -> u8 {
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
