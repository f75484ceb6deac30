//! Drills from your own games: a missed or incorrect claim that the review finds
//! ([`threefold_rules::review::review_claims`]) becomes a puzzle of the personal theme
//! "From your games", kept in `from-your-games.toml` in the data directory, in the puzzle
//! format of every other theme (`puzzles/README.md`).
//!
//! A finding becomes the question that fits it, on the game as it stood at the finding's ply:
//!
//! | finding                                 | `ask`                       |
//! |-----------------------------------------|-----------------------------|
//! | missed claim now (9.2 b, 9.3 b)         | `claim`                     |
//! | missed claim with a move under 9.2 a    | `claim-moves`               |
//! | missed claim with a move under 9.3 a    | `intended` with the move    |
//! | incorrect claim now                     | `claim`                     |
//! | incorrect claim with a move             | `intended` with the move    |
//!
//! The answer is never taken from the finding: [`crate::check::solve`] computes it
//! from the rules core, and the puzzle is loaded back and checked ([`crate::check`])
//! before it is written (the answer, and every move the explanation names against the moves
//! shown), so the file holds only puzzles `drills --check` accepts. The
//! finding's text is the explanation; the players, event and date are the `source`.
//!
//! [`crate::check`]: mod@crate::check
//!
//! The id is `game-` and 16 hex digits of a 64-bit FNV-1a hash (Fowler, Noll, Vo,
//! "FNV hash", <http://www.isthe.com/chongo/tech/comp/fnv/>) of the start FEN, the moves
//! (UCI) and the question: the answer to a repetition question depends on the whole game,
//! so the id names the game up to the position and the question asked there. FNV-1a is
//! fixed by its definition (unlike `std`'s hasher, which may change between Rust
//! releases), so the same finding gets the same id on every run and adding it twice does
//! nothing.
//!
//! Writing reads the file (if any), appends the new puzzles' text and writes the whole
//! atomically ([`threefold_rules::fsio::write_app_file`]); a new file starts with its header.
//! A file that does not parse as a puzzle file (a TOML error) is refused with its problem
//! and line, and nothing is written: the puzzles would be added to a file the drill screen
//! cannot read. A scan of many games ([`Collector`]) tells a puzzle it has made, or that
//! the file holds, by its id before making it again.
//!
//! Xiangqi games give their puzzles to a sibling file, `from-your-xiangqi-games.toml`
//! ([`XIANGQI_FILE_NAME`], made by [`crate::xiangqi::from_games`]): a puzzle file holds one
//! game's puzzles (`game = "xiangqi"` is the file's). Both files are added to, read and
//! refused the same way ([`add_puzzles_of`]), and loaded beside the built-in themes by the
//! one loader ([`crate::session::with_yours`]).

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use shakmaty::{Color, Move, Position};

use threefold_rules::Game;
use threefold_rules::claim::Ground;
use threefold_rules::fsio::FileKind;
use threefold_rules::review::{ClaimFinding, ClaimFindingKind, ClaimReview};

use super::check::{Mismatch, SolveError, UnshownMove, check, check_moves_named, solve};
use super::load::{GameKind, load_str};
use super::types::{Answer, Problem, Question, uci};

/// The theme's id (the file stem, and the key of its progress).
pub const THEME_ID: &str = "from-your-games";
/// The theme's name on the drill screen.
pub const THEME_NAME: &str = "From your games";
/// The file's name in the data directory.
pub const FILE_NAME: &str = "from-your-games.toml";
/// The xiangqi theme's id (the file stem, and the key of its progress).
pub const XIANGQI_THEME_ID: &str = "from-your-xiangqi-games";
/// The xiangqi theme's name on the xiangqi drill screen.
pub const XIANGQI_THEME_NAME: &str = "From your xiangqi games";
/// The xiangqi file's name, beside [`FILE_NAME`].
pub const XIANGQI_FILE_NAME: &str = "from-your-xiangqi-games.toml";

/// The file of `game`'s puzzles beside `chess_file` (the chess file's path, as
/// [`default_file`] gives it).
pub fn file_of(chess_file: &Path, game: GameKind) -> PathBuf {
    match game {
        GameKind::Chess => chess_file.to_path_buf(),
        GameKind::Xiangqi => chess_file.with_file_name(XIANGQI_FILE_NAME),
    }
}

/// Why the puzzle made of a finding does not load or check as a puzzle
/// ([`FromGamesError::DoesNotLoad`]).
#[derive(Debug, thiserror::Error)]
pub enum NotLoaded {
    /// The puzzle file's reader found a problem in the text written.
    #[error("{0}")]
    Problem(Problem),
    /// The text written holds no puzzle.
    #[error("no puzzle")]
    NoPuzzle,
    /// The answer written is not the rules core's.
    #[error(transparent)]
    Mismatch(Mismatch),
    /// The explanation names a move the puzzle does not show.
    #[error(transparent)]
    UnshownMove(UnshownMove),
    /// The answer written is not the xiangqi judge's.
    #[error(transparent)]
    XiangqiMismatch(crate::xiangqi::Mismatch),
}

/// Why a finding did not become a puzzle, or the puzzles were not written.
#[derive(Debug, thiserror::Error)]
pub enum FromGamesError {
    /// Only missed and incorrect claims are drills (the finding's kind, as `review --json`
    /// names it).
    #[error("only a missed or an incorrect claim becomes a puzzle (this is a {0} finding)")]
    NotAMistake(&'static str),
    /// The finding's ply is not a position of the game.
    #[error("the finding's ply {ply} is past the end of the game ({len} plies)")]
    PastTheEnd { ply: usize, len: usize },
    /// A missed claim with a move that names no move.
    #[error("the missed claim with a move at ply {0} names no move")]
    MissingMove(usize),
    /// The finding's move is not legal where it is said to be written.
    #[error("the move of the finding is not legal after ply {0}")]
    IllegalMove(usize),
    /// The rules core cannot answer the question (the game was already over there).
    #[error("the rules core cannot pose this puzzle: {0}")]
    Unsolvable(SolveError),
    /// The xiangqi judge cannot answer the question (no repetition ruled there, or the game
    /// was ruled earlier).
    #[error("the judge cannot pose this puzzle: {0}")]
    XiangqiUnsolvable(crate::xiangqi::SolveError),
    /// A xiangqi finding that is no mistake (a right call).
    #[error(
        "only a missed or wrong call or a forbidden move becomes a puzzle (this is a {0} finding)"
    )]
    NotAXiangqiMistake(&'static str),
    /// The xiangqi game was ruled at the first repetition before the finding's repetition
    /// began: a puzzle there would ask about another repetition.
    #[error("the judge rules an earlier repetition (after ply {0}) at the first repetition")]
    RuledEarlier(usize),
    /// The puzzle written does not load or check as a puzzle (a bug, reported, not written).
    #[error("the puzzle made of this finding does not load: {0}")]
    DoesNotLoad(NotLoaded),
    /// The puzzle file does not parse as a puzzle file (not TOML, a xiangqi file): nothing
    /// is added to it.
    #[error("{0} (nothing added: fix the file or move it away)")]
    NotAPuzzleFile(Problem),
    /// The puzzle file could not be read (not a regular file, too large, not UTF-8).
    #[error("{0}; nothing was added")]
    Read(threefold_rules::fsio::ReadError),
    /// The puzzle file could not be written. The message holds the I/O error, which is
    /// therefore no `source` (named so, thiserror made it one, and `{:#}` printed it twice:
    /// "Is a directory (os error 21): Is a directory (os error 21)").
    #[error("cannot write {}: {error}", path.display())]
    Write { path: PathBuf, error: io::Error },
}

/// A puzzle made of a finding: its id and its text (one `[[puzzle]]` table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPuzzle {
    pub id: String,
    pub text: String,
}

/// What [`add_puzzles`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Added {
    /// The file written (or that already held every puzzle).
    pub path: PathBuf,
    /// The ids added.
    pub added: Vec<String>,
    /// The ids the file already held.
    pub already: Vec<String>,
    /// The theme's name on the drill screen ([`THEME_NAME`], [`XIANGQI_THEME_NAME`]).
    pub theme: &'static str,
}

impl Added {
    /// "2 puzzles added to PATH (1 was already there).": what was done, in one line (the
    /// review screen's message and `review --drills`'s last line).
    pub fn summary(&self) -> String {
        let n = self.added.len();
        let k = self.already.len();
        let path = self.path.display();
        match (n, k) {
            (0, 0) => "No missed or incorrect claim to add as a puzzle.".to_string(),
            (0, 1) => format!("This puzzle is already in {path}."),
            (0, k) => format!("All {k} puzzles are already in {path}."),
            (n, _) => {
                let already = match k {
                    0 => String::new(),
                    1 => " (1 was already there)".to_string(),
                    k => format!(" ({k} were already there)"),
                };
                format!(
                    "{n} puzzle{} added to {path}{already}: drills, theme \"{}\".",
                    if n == 1 { "" } else { "s" },
                    self.theme
                )
            }
        }
    }
}

/// `<data dir>/from-your-games.toml`, if the platform has a data directory.
pub fn default_file() -> Option<PathBuf> {
    threefold_rules::fsio::data_dir().map(|d| d.join(FILE_NAME))
}

/// Whether a finding of this kind becomes a puzzle (missed and incorrect claims).
pub fn is_drill(kind: ClaimFindingKind) -> bool {
    !matches!(kind, ClaimFindingKind::CorrectClaim)
}

/// "Ada – Bob, Club championship, 2024.05.01": the `source` of a game's puzzles, from its
/// PGN tags (`tag` looks one up); unknown values ("?", "????.??.??") are left out.
pub fn source_from_tags<'a>(tag: impl Fn(&str) -> Option<&'a str>) -> Option<String> {
    let known = |name: &str| {
        tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && !v.chars().all(|c| matches!(c, '?' | '.')))
    };
    let players = match (known("White"), known("Black")) {
        (Some(w), Some(b)) => Some(format!("{w} – {b}")),
        (Some(w), None) => Some(format!("{w} – ?")),
        (None, Some(b)) => Some(format!("? – {b}")),
        (None, None) => None,
    };
    let parts: Vec<String> = [players, known("Event").map(str::to_string)]
        .into_iter()
        .flatten()
        .chain(known("Date").map(str::to_string))
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The question a finding asks of the position at its ply (see the module docs).
fn question_for(f: &ClaimFinding) -> Result<Question, FromGamesError> {
    Ok(match (f.kind, f.mv) {
        (ClaimFindingKind::CorrectClaim, _) => {
            return Err(FromGamesError::NotAMistake(
                ClaimFindingKind::CorrectClaim.code(),
            ));
        }
        (ClaimFindingKind::MissedClaim | ClaimFindingKind::IncorrectClaim, None) => Question::Claim,
        (ClaimFindingKind::MissedClaimWithMove, Some(_))
            if f.rule == Some(Ground::Threefold.article(true)) =>
        {
            Question::ClaimMoves
        }
        (_, Some(mv)) => Question::Intended { mv },
        (ClaimFindingKind::MissedClaimWithMove, None) => {
            return Err(FromGamesError::MissingMove(f.ply));
        }
    })
}

/// Turn finding `f` of `game` into a puzzle of the theme "From your games" (see the module
/// docs): the game up to the finding's ply, the question that fits, the answer computed by
/// the rules core, the finding's text as explanation, `source` as given
/// ([`source_from_tags`]). The puzzle is loaded and checked before it is returned.
pub fn puzzle_from_finding(
    game: &Game,
    f: &ClaimFinding,
    source: Option<&str>,
) -> Result<NewPuzzle, FromGamesError> {
    let question = question_for(f)?;
    if f.ply > game.len() {
        return Err(FromGamesError::PastTheEnd {
            ply: f.ply,
            len: game.len(),
        });
    }
    let mut g = Game::from_position(game.start().clone());
    for m in game.moves().take(f.ply) {
        g.play_past_end(m)
            .map_err(|e| FromGamesError::Unsolvable(e.into()))?;
    }
    if let Some(mv) = f.mv
        && !g.legal_moves().contains(&mv)
    {
        return Err(FromGamesError::IllegalMove(f.ply));
    }
    let start = if g.start_fen() == Game::new().start_fen() {
        "standard".to_string()
    } else {
        g.start_fen()
    };
    let moves = movetext(&g);
    let id = id_text(GameIds::new(&g).id(f.ply, &question));
    let side = match g.position().turn() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let at = threefold_rules::review::position_label(&g, f.ply);
    let title = match f.kind {
        ClaimFindingKind::IncorrectClaim => format!("{side}'s claim {at}"),
        _ => format!("{side} to move {at}"),
    };
    let tags = {
        let mut t = vec![THEME_ID.to_string(), f.kind.code().to_string()];
        if let Some(r) = f.rule {
            t.push(r.replace(' ', ""));
        }
        t
    };
    // A first text with a provisional answer, loaded so the rules core can solve it; then
    // the text with the rules core's answer, loaded and checked again.
    let provisional = match question {
        Question::ClaimMoves => Answer::moves(Vec::new()),
        _ => Answer::Claim(super::types::ClaimRule::None),
    };
    let write = |answer: &Answer, san: &dyn Fn(Move) -> String| {
        let mut s = String::new();
        s.push_str("[[puzzle]]\n");
        s.push_str(&format!("id = {}\n", toml_str(&id)));
        s.push_str(&format!("title = {}\n", toml_str(&title)));
        s.push_str(&format!("start = {}\n", toml_str(&start)));
        s.push_str(&format!("moves = {}\n", toml_str(&moves)));
        s.push_str(&format!("ask = {}\n", toml_str(question.code())));
        if let Question::Intended { mv } = &question {
            s.push_str(&format!("move = {}\n", toml_str(&san(*mv))));
        }
        let answer = match answer {
            Answer::Claim(r) => toml_str(r.code()),
            Answer::Moves(ms) => {
                let v: Vec<String> = ms.iter().map(|m| toml_str(&san(*m))).collect();
                format!("[{}]", v.join(", "))
            }
            _ => unreachable!("claim questions have claim or move answers"),
        };
        s.push_str(&format!("answer = {answer}\n"));
        s.push_str(&format!("explanation = {}\n", toml_str(&f.text)));
        let tags: Vec<String> = tags.iter().map(|t| toml_str(t)).collect();
        s.push_str(&format!("tags = [{}]\n", tags.join(", ")));
        s.push_str("difficulty = 3\n");
        if let Some(src) = source {
            s.push_str(&format!("source = {}\n", toml_str(src)));
        }
        s
    };
    let san = |m: Move| shakmaty::san::San::from_move(g.position(), m).to_string();
    let first = write(&provisional, &san);
    let puzzle = load_one(&first)?;
    let solution = solve(&puzzle).map_err(FromGamesError::Unsolvable)?;
    let text = write(&solution.answer, &san);
    let puzzle = load_one(&text)?;
    check(&puzzle).map_err(|m| FromGamesError::DoesNotLoad(NotLoaded::Mismatch(m)))?;
    check_moves_named(&puzzle)
        .map_err(|m| FromGamesError::DoesNotLoad(NotLoaded::UnshownMove(m)))?;
    Ok(NewPuzzle { id, text })
}

/// The puzzles of every missed and incorrect claim of a game's review, in order (a finding
/// that cannot become one gives its error, and the others are still made).
pub fn puzzles_of_review(
    game: &Game,
    review: &ClaimReview,
    source: Option<&str>,
) -> Vec<Result<NewPuzzle, FromGamesError>> {
    review
        .findings
        .iter()
        .filter(|f| is_drill(f.kind))
        .map(|f| puzzle_from_finding(game, f, source))
        .collect()
}

/// The ids of the puzzles a game's findings make (see the module docs), found in one pass
/// over its moves: the FNV-1a state after the start FEN and the moves up to each ply, so a
/// finding's id costs no replay and no text.
pub struct GameIds {
    /// The hash of `"<start FEN>|<move 1> <move 2> ... <move k>"` for every ply k.
    prefixes: Vec<u64>,
}

impl GameIds {
    pub fn new(game: &Game) -> GameIds {
        let mut h = fnv1a(FNV_OFFSET, game.start_fen().as_bytes());
        h = fnv1a(h, b"|");
        let mut prefixes = Vec::with_capacity(game.len() + 1);
        prefixes.push(h);
        for (i, m) in game.moves().enumerate() {
            if i > 0 {
                h = fnv1a(h, b" ");
            }
            h = fnv1a(h, uci(&m).as_bytes());
            prefixes.push(h);
        }
        GameIds { prefixes }
    }

    /// The id of the puzzle asking `question` at `ply` (a ply of the game).
    fn id(&self, ply: usize, question: &Question) -> u64 {
        let mut h = fnv1a(self.prefixes[ply], b"|");
        h = fnv1a(h, question.code().as_bytes());
        if let Question::Intended { mv } = question {
            h = fnv1a(h, b"|");
            h = fnv1a(h, uci(mv).as_bytes());
        }
        h
    }

    /// The id of the puzzle finding `f` makes, if it makes one.
    fn of(&self, f: &ClaimFinding) -> Option<u64> {
        let question = question_for(f).ok()?;
        (f.ply < self.prefixes.len()).then(|| self.id(f.ply, &question))
    }
}

/// "game-" and 16 hex digits.
fn id_text(id: u64) -> String {
    format!("game-{id:016x}")
}

/// The id's hash, if it is one of ours.
fn id_hash(id: &str) -> Option<u64> {
    let hex = id.strip_prefix("game-")?;
    (hex.len() == 16)
        .then(|| u64::from_str_radix(hex, 16).ok())
        .flatten()
}

/// The puzzles of many games' reviews for one file (`review --all --drills`), each made
/// once: a finding whose puzzle this run already made, or the file already holds, is told
/// by its id ([`GameIds`]) before anything is made, so memory holds the new puzzles and
/// the ids seen, never all the findings, and a puzzle found a thousand times is made once.
/// [`Collector::write`] adds them with [`add_puzzles`].
pub struct Collector {
    path: PathBuf,
    /// The ids of the puzzles in the file when it was opened.
    held: HashSet<u64>,
    /// The ids of the puzzles found so far (made, already held, or failed).
    seen: HashSet<u64>,
    /// The puzzles found that the file did not hold.
    puzzles: Vec<NewPuzzle>,
    /// The puzzles found that the file held.
    already: Vec<String>,
}

impl Collector {
    /// A collector for the puzzle file at `path` (it may not exist yet); a file that is not
    /// a puzzle file is refused now, before any game is read ([`add_puzzles`]).
    pub fn open(path: &Path) -> Result<Collector, FromGamesError> {
        let held = match read_held(path)? {
            Some(f) => f.ids.iter().filter_map(|id| id_hash(id)).collect(),
            None => HashSet::new(),
        };
        Ok(Collector {
            path: path.to_path_buf(),
            held,
            seen: HashSet::new(),
            puzzles: Vec::new(),
            already: Vec::new(),
        })
    }

    /// Make the puzzles of a game's review not made yet ([`puzzles_of_review`]); the
    /// findings that cannot become one give their errors.
    pub fn add_review(
        &mut self,
        game: &Game,
        review: &ClaimReview,
        source: Option<&str>,
    ) -> Vec<FromGamesError> {
        let mut errors = Vec::new();
        let mut ids = None;
        for f in review.findings.iter().filter(|f| is_drill(f.kind)) {
            let ids = ids.get_or_insert_with(|| GameIds::new(game));
            if let Some(id) = ids.of(f) {
                if !self.seen.insert(id) {
                    continue;
                }
                if self.held.contains(&id) {
                    self.already.push(id_text(id));
                    continue;
                }
            }
            match puzzle_from_finding(game, f, source) {
                Ok(p) => self.puzzles.push(p),
                Err(e) => errors.push(e),
            }
        }
        errors
    }

    /// How many puzzles new to the file are held, to be added by [`Collector::write`].
    pub fn pending(&self) -> usize {
        self.puzzles.len()
    }

    /// Add the puzzles made to the file ([`add_puzzles`]: read again, so puzzles added
    /// meanwhile are not added twice); what was done, counting the puzzles the file held.
    pub fn write(self) -> Result<Added, FromGamesError> {
        let mut added = add_puzzles(&self.path, &self.puzzles)?;
        added.already.extend(self.already);
        Ok(added)
    }
}

/// Load one puzzle's text as a puzzle of the theme's file.
fn load_one(block: &str) -> Result<super::types::Puzzle, FromGamesError> {
    let text = format!("{}\n{block}", header());
    let (theme, problems) = load_str(Path::new(FILE_NAME), &text);
    if let Some(p) = problems.into_iter().next() {
        return Err(FromGamesError::DoesNotLoad(NotLoaded::Problem(p)));
    }
    theme
        .and_then(|t| t.puzzles.into_iter().next())
        .ok_or(FromGamesError::DoesNotLoad(NotLoaded::NoPuzzle))
}

/// The header of a new file of `game`'s puzzles.
fn header_of(game: GameKind) -> String {
    match game {
        GameKind::Chess => header(),
        GameKind::Xiangqi => format!(
            "# Puzzles from your own xiangqi games, added by threefold (the xiangqi review\n\
             # screen's key). The format is that of every theme (puzzles/README.md);\n\
             # `threefold drills --check {XIANGQI_FILE_NAME}` checks it. You may edit or delete puzzles.\n\
             game = \"xiangqi\"\n\
             name = {}\n\
             description = {}\n",
            toml_str(XIANGQI_THEME_NAME),
            toml_str(
                "Missed and wrong calls to the arbiter, and moves that made your own repetition forbidden, found by the review of your xiangqi games."
            )
        ),
    }
}

/// The header of a new file.
fn header() -> String {
    format!(
        "# Puzzles from your own games, added by threefold (the review screen's key, or\n\
         # `threefold review --drills`). The format is that of every theme (puzzles/README.md);\n\
         # `threefold drills --check {FILE_NAME}` checks it. You may edit or delete puzzles.\n\
         name = {}\n\
         description = {}\n",
        toml_str(THEME_NAME),
        toml_str("Missed and incorrect draw claims found by the review of your games.")
    )
}

/// The puzzle file as it stands: its text and the ids it holds, loaded or (a puzzle the
/// user broke by hand still holds its id) written on an `id = "..."` line.
struct Held {
    text: String,
    ids: HashSet<String>,
}

/// Read the puzzle file at `path` (`None` if there is none); a file that does not parse
/// as a puzzle file is refused, with its problem and line.
fn read_held(path: &Path) -> Result<Option<Held>, FromGamesError> {
    read_held_of(path, GameKind::Chess)
}

/// [`read_held`] of a file of `game`'s puzzles (a file of the other game's is refused).
fn read_held_of(path: &Path, game: GameKind) -> Result<Option<Held>, FromGamesError> {
    let text = match threefold_rules::fsio::read_text(path, FileKind::Puzzles) {
        Ok(t) => t,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(FromGamesError::Read(e)),
    };
    let (ids, problems): (Option<Vec<String>>, Vec<Problem>) = match game {
        GameKind::Chess => {
            let (theme, problems) = load_str(path, &text);
            (
                theme.map(|t| t.puzzles.into_iter().map(|p| p.id).collect()),
                problems,
            )
        }
        GameKind::Xiangqi => {
            let (theme, problems) = crate::xiangqi::load_str(path, &text);
            // The xiangqi reader reads a chess file's puzzles as problems: refuse it.
            let chess = !text.lines().any(|l| {
                let t: String = l.split_whitespace().collect();
                t == "game=\"xiangqi\""
            });
            if chess {
                return Err(FromGamesError::NotAPuzzleFile(Problem::file(
                    path,
                    "not a xiangqi puzzle file (no game = \"xiangqi\")",
                )));
            }
            (
                theme.map(|t| t.puzzles.into_iter().map(|p| p.id).collect()),
                problems,
            )
        }
    };
    let Some(ids) = ids else {
        let problem = problems
            .into_iter()
            .next()
            .unwrap_or_else(|| Problem::file(path, "not a puzzle file"));
        return Err(FromGamesError::NotAPuzzleFile(problem));
    };
    let mut ids: HashSet<String> = ids.into_iter().collect();
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("id = \"")
            && let Some(end) = rest.find('"')
        {
            ids.insert(rest[..end].to_string());
        }
    }
    Ok(Some(Held { text, ids }))
}

/// Add `puzzles` to the file at `path` (created with its header if missing), skipping those
/// whose id the file already holds; written atomically, and not at all if nothing is new.
/// A file that does not parse as a puzzle file is refused with its problem, and left as it
/// is (`review --drills` and the review screen's key both add through here).
pub fn add_puzzles(path: &Path, puzzles: &[NewPuzzle]) -> Result<Added, FromGamesError> {
    add_puzzles_of(path, puzzles, GameKind::Chess)
}

/// [`add_puzzles`] to a file of `game`'s puzzles: the xiangqi review screen adds to
/// [`XIANGQI_FILE_NAME`] through here, a new file starting with its `game = "xiangqi"`
/// header.
pub fn add_puzzles_of(
    path: &Path,
    puzzles: &[NewPuzzle],
    game: GameKind,
) -> Result<Added, FromGamesError> {
    let (mut text, mut held) = match read_held_of(path, game)? {
        Some(h) => (h.text, h.ids),
        None => (header_of(game), HashSet::new()),
    };
    let mut out = Added {
        path: path.to_path_buf(),
        added: Vec::new(),
        already: Vec::new(),
        theme: match game {
            GameKind::Chess => THEME_NAME,
            GameKind::Xiangqi => XIANGQI_THEME_NAME,
        },
    };
    for p in puzzles {
        if held.contains(&p.id) {
            out.already.push(p.id.clone());
            continue;
        }
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
        text.push_str(&p.text);
        held.insert(p.id.clone());
        out.added.push(p.id.clone());
    }
    if !out.added.is_empty() {
        threefold_rules::fsio::write_app_file(path, text.as_bytes()).map_err(|error| {
            FromGamesError::Write {
                path: path.to_path_buf(),
                error,
            }
        })?;
    }
    Ok(out)
}

/// "1. e4 e5 2. Nf3 ...": the moves as puzzle files write them, ten moves a line.
fn movetext(g: &Game) -> String {
    let mut s = String::new();
    for ply in 1..=g.len() {
        let n = g.move_number(ply);
        let san = g.san_plus(ply).expect("a move").to_string();
        if n.side == Color::White {
            if ply > 1 {
                s.push(if n.number % 10 == 1 { '\n' } else { ' ' });
            }
            s.push_str(&format!("{n} {san}"));
        } else if ply == 1 {
            s.push_str(&format!("{n} {san}"));
        } else {
            s.push(' ');
            s.push_str(&san);
        }
    }
    s
}

/// A TOML string (quoted and escaped by the toml crate; multi-line text as a basic string
/// with `\n`).
pub(crate) fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// FNV-1a's 64-bit offset basis: the hash of no bytes.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a of `bytes`, continuing from `h` (the hash of the bytes before them).
pub(crate) fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text that does not load as a puzzle says why, as its own variant.
    #[test]
    fn a_puzzle_that_does_not_load_says_why() {
        let e = load_one("").unwrap_err();
        assert!(
            matches!(&e, FromGamesError::DoesNotLoad(NotLoaded::Problem(p)) if p.message.starts_with("no puzzles")),
            "{e}"
        );
        let e = load_one("[[puzzle]]\nid = 3\n").unwrap_err();
        assert!(
            matches!(&e, FromGamesError::DoesNotLoad(NotLoaded::Problem(p)) if p.line.is_some()),
            "{e}"
        );
    }
}
