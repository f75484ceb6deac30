//! Loading puzzle files: TOML read with spans, so every problem names its
//! file and line; a malformed puzzle or file never stops the others.
//!
//! - `shared`: the TOML helpers both games' files are read with;
//! - `chess`: chess's puzzles (xiangqi's are read by `xiangqi/load.rs`);
//! - here: a directory or a set of texts loaded into one [`Collection`], each file by its
//!   game's loader, duplicate ids reported.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use toml::de::DeTable;

use threefold_rules::fsio::{self, FileKind};

use crate::types::{Collection, Origin, Problem, Theme};
use chess::load_chess;
use shared::{Src, parse_file};

pub(crate) mod chess;
pub(crate) mod shared;

#[cfg(test)]
mod tests;

pub(crate) use chess::{find_label, tokens};

/// Which game a puzzle file's puzzles are about: its top-level `game` key
/// (`"chess"`, the default, or `"xiangqi"`, read by [`super::xiangqi::load_str`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Chess,
    Xiangqi,
}

impl GameKind {
    /// The `game` key's value: "chess" or "xiangqi" (also the progress file's key for the
    /// game's "All themes" streak).
    pub fn code(self) -> &'static str {
        match self {
            GameKind::Chess => "chess",
            GameKind::Xiangqi => "xiangqi",
        }
    }
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
        // A file of `[[scenario]]` tables is a scenario file, of either game.
        Ok(game) if doc.get_ref().get("scenario").is_some() => {
            let scenarios =
                crate::scenario::read_file(&src, doc.get_ref(), game, &mut coll.problems);
            coll.scenarios.extend(scenarios);
        }
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
    load_dirs(&[dir])
}

/// [`load_dir`] of several directories into one collection (the puzzles and the
/// scenarios), ids unique over all; a directory that is not there or holds no file is a
/// problem only when it is the first (the puzzles).
pub fn load_dirs(dirs: &[&Path]) -> Collection {
    let mut coll = Collection::default();
    for (k, dir) in dirs.iter().enumerate() {
        add_dir(&mut coll, dir, k == 0);
    }
    drop_duplicate_ids(&mut coll);
    coll
}

/// Every `*.toml` file of `dir` (sorted by name) loaded into `coll`; a directory without
/// one is a problem if it is `required`.
fn add_dir(coll: &mut Collection, dir: &Path, required: bool) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            coll.problems.push(Problem::file(
                dir,
                format!("cannot read the puzzle directory: {e}"),
            ));
            return;
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .collect();
    files.sort();
    if files.is_empty() && required {
        coll.problems.push(Problem::file(
            dir,
            "no puzzle files (*.toml) in this directory",
        ));
        return;
    }
    for file in files {
        match read_puzzle_file(&file) {
            Ok(text) => load_into(coll, &file, &text),
            Err(p) => coll.problems.push(p),
        }
    }
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
    keep_first_ids(
        &mut coll.scenarios,
        |s| (&s.id, &s.origin),
        &mut seen,
        &mut coll.problems,
    );
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
