//! Scenarios (issue 39 item 2): a real game's position a few moves before a repetition
//! arose; the player takes the side that must notice it and plays on against the engine.
//! Written once for both games: files `scenarios/chess-<theme>.toml` and
//! `scenarios/xiangqi-<theme>.toml` (format in `scenarios/README.md`), read by the puzzle
//! loader ([`crate::load`]: a file of `[[scenario]]` tables is a scenario file), so that
//! bounded reads, one problem a line with file and line, and duplicate ids work as for
//! puzzles; checked by `drills --check` ([`check`]).

use std::ops::Range;
use std::path::PathBuf;

use toml::de::DeTable;

use shakmaty::Position as _;
use threefold_rules::Game;
use threefold_xiangqi::Position as XqPosition;
use threefold_xiangqi::judge::{JudgedGame, Record, RuleAt};
use threefold_xiangqi::notation::parse_move as parse_xq_move;

use crate::load::GameKind;
use crate::load::shared::{PuzzleErrors, Src, opt_str, req_str, valid_id};
use crate::types::{Origin, Problem};

/// The keys a scenario may have.
pub(crate) const SCENARIO_KEYS: &[&str] = &[
    "id",
    "white",
    "red",
    "black",
    "event",
    "site",
    "date",
    "result",
    "start",
    "moves",
    "begin",
    "player",
    "repetition",
    "motif",
    "source",
    "note",
];

/// The fewest and most plies between `begin` and `repetition` ("a few moves before").
pub const LEAD_PLIES: std::ops::RangeInclusive<usize> = 2..=40;

/// A scenario's game: played once by the loader, to the last move given.
#[derive(Clone, Debug)]
pub enum ScenarioGame {
    Chess(Box<Game>),
    Xiangqi(Box<Record>),
}

impl ScenarioGame {
    /// How many plies it holds.
    pub fn len(&self) -> usize {
        match self {
            ScenarioGame::Chess(g) => g.len(),
            ScenarioGame::Xiangqi(r) => r.ply(),
        }
    }

    /// Whether it holds no move.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The side to move after `ply` plies: "white"/"black" (chess), "red"/"black"
    /// (xiangqi), as `player` is written.
    pub fn side_at(&self, ply: usize) -> &'static str {
        match self {
            ScenarioGame::Chess(g) => match g.position_at(ply).turn() {
                shakmaty::Color::White => "white",
                shakmaty::Color::Black => "black",
            },
            ScenarioGame::Xiangqi(r) => match r.position(ply).side_to_move() {
                threefold_xiangqi::Color::Red => "red",
                threefold_xiangqi::Color::Black => "black",
            },
        }
    }

    /// The game cut after `ply` plies (the start and the moves up to it).
    fn upto(&self, ply: usize) -> ScenarioGame {
        match self {
            ScenarioGame::Chess(g) => {
                let mut h = Game::from_position(g.start().clone());
                for m in g.moves().take(ply) {
                    h.play(m).expect("the loader played these moves");
                }
                ScenarioGame::Chess(Box::new(h))
            }
            ScenarioGame::Xiangqi(r) => {
                let mut h = Record::new(r.position(0).clone());
                for k in 1..=ply.min(r.ply()) {
                    h.push(r.move_at(k));
                }
                ScenarioGame::Xiangqi(Box::new(h))
            }
        }
    }

    /// The first ply at which a repetition is there to be called: chess, the first ply
    /// whose position stands for the third time (a threefold claim is first possible);
    /// xiangqi, the first ply the WXF judge rules at (third occurrence).
    pub fn first_repetition(&self) -> Option<usize> {
        match self {
            ScenarioGame::Chess(g) => (1..=g.len()).find(|&k| g.occurrences(k) >= 3),
            ScenarioGame::Xiangqi(r) => {
                let judged = JudgedGame::of(r, RuleAt::ThirdOccurrence);
                judged.standing().map(|ruling| ruling.ply)
            }
        }
    }
}

/// One scenario, as read and played by the loader.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Unique over all scenario (and puzzle) files.
    pub id: String,
    pub game_kind: GameKind,
    /// The theme: the file stem, and the file's `name` (shown after the scenario only).
    pub theme: String,
    pub theme_name: String,
    /// The players: White (chess) or Red (xiangqi), and Black.
    pub first: String,
    pub black: String,
    pub event: String,
    pub site: Option<String>,
    /// PGN style: "1971.10.07", "1971.??.??".
    pub date: String,
    pub result: String,
    /// The game from `start` through every move given.
    pub game: ScenarioGame,
    /// The ply whose position the player takes over.
    pub begin: usize,
    /// "white"/"black" (chess), "red"/"black" (xiangqi).
    pub player: String,
    /// The ply at which the repetition is there (see [`ScenarioGame::first_repetition`]).
    pub repetition: usize,
    pub motif: String,
    pub source: String,
    pub note: String,
    pub origin: Origin,
}

impl Scenario {
    /// The start and the moves up to `begin`: where the trainer starts the player's game
    /// (it is `player`'s turn).
    pub fn position_at_begin(&self) -> ScenarioGame {
        self.game.upto(self.begin)
    }

    /// The game's year (the date's first field).
    pub fn year(&self) -> &str {
        self.date.split('.').next().unwrap_or("")
    }

    /// One line for a listing, giving nothing away: id, game, players, event, site and
    /// year, and where the player takes over. No theme, motif or note (they name what is
    /// to be noticed).
    pub fn listing(&self) -> String {
        let site = self
            .site
            .as_deref()
            .map_or(String::new(), |s| format!(", {s}"));
        let number = self.begin / 2 + 1;
        format!(
            "{:<28} {:<7} {} - {}, {}{site} {}: {} plays from move {number}",
            self.id,
            self.game_kind.code(),
            self.first,
            self.black,
            self.event,
            self.year(),
            self.player,
        )
    }
}

/// A scenario file read: its scenarios (those that loaded) and its problems.
pub(crate) fn read_file(
    src: &Src<'_>,
    doc: &DeTable<'_>,
    game: GameKind,
    problems: &mut Vec<Problem>,
) -> Vec<Scenario> {
    let theme = crate::load::shared::theme_id(src.path);
    let text = |key: &str| {
        doc.get(key)
            .and_then(|v| v.get_ref().as_str())
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
    };
    let theme_name = text("name").unwrap_or_else(|| theme.clone());
    for (k, v) in doc.iter() {
        if !["game", "name", "description", "scenario"].contains(&k.get_ref().as_ref()) {
            problems.push(src.problem(
                v.span(),
                format!(
                    "unknown key '{}' at the top of a scenario file (expected: game, name, description, scenario)",
                    k.get_ref()
                ),
            ));
        }
    }
    let Some(items) = doc.get("scenario").and_then(|v| v.get_ref().as_array()) else {
        problems.push(Problem::at(
            src.path,
            1,
            "'scenario' must be an array of tables ([[scenario]])",
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items.iter() {
        match item.get_ref().as_table() {
            None => problems.push(src.problem(item.span(), "a scenario must be a table")),
            Some(t) => match read_scenario(src, game, &theme, &theme_name, item.span(), t) {
                Ok(s) => out.push(s),
                Err(mut ps) => problems.append(&mut ps),
            },
        }
    }
    out
}

/// One `[[scenario]]` table: every problem is one line naming the file, line and id.
fn read_scenario(
    src: &Src<'_>,
    game: GameKind,
    theme: &str,
    theme_name: &str,
    span: Range<usize>,
    t: &DeTable<'_>,
) -> Result<Scenario, Vec<Problem>> {
    let header = src.line(span.start);
    let id = t
        .get("id")
        .and_then(|v| v.get_ref().as_str())
        .unwrap_or("?")
        .to_string();
    let mut err = PuzzleErrors {
        src,
        what: "scenario",
        id: id.clone(),
        problems: Vec::new(),
    };
    let first_key = match game {
        GameKind::Chess => "white",
        GameKind::Xiangqi => "red",
    };
    for (k, v) in t.iter() {
        let k = k.get_ref().as_ref();
        let other_side = match game {
            GameKind::Chess => "red",
            GameKind::Xiangqi => "white",
        };
        if !SCENARIO_KEYS.contains(&k) || k == other_side {
            err.at(
                v.span(),
                format!(
                    "unknown key '{k}' (a {} scenario names {first_key} and black)",
                    game.code()
                ),
            );
        }
    }
    match t.get("id").map(|v| v.get_ref().as_str()) {
        None => err.missing(header, "id"),
        Some(Some(s)) if valid_id(s) => {}
        Some(_) => err.at(
            t.get("id").map_or(span.clone(), |v| v.span()),
            "'id' must be non-empty lowercase letters, digits and '-'",
        ),
    }
    let first = req_str(&mut err, t, first_key, header);
    let black = req_str(&mut err, t, "black", header);
    let event = req_str(&mut err, t, "event", header);
    let site = opt_str(&mut err, t, "site");
    let date = req_str(&mut err, t, "date", header);
    if let (Some(d), Some(v)) = (&date, t.get("date"))
        && !valid_date(d)
    {
        err.at(
            v.span(),
            format!("'date' must be YYYY.MM.DD with a year, '??' for an unknown month or day (not '{d}')"),
        );
    }
    let result = req_str(&mut err, t, "result", header);
    if let (Some(r), Some(v)) = (&result, t.get("result"))
        && !["1-0", "0-1", "1/2-1/2"].contains(&r.as_str())
    {
        err.at(
            v.span(),
            format!("'result' must be 1-0, 0-1 or 1/2-1/2 (not '{r}')"),
        );
    }
    let source = req_str(&mut err, t, "source", header);
    let note = req_str(&mut err, t, "note", header);
    let motif = req_str(&mut err, t, "motif", header);
    if let (Some(m), Some(v)) = (&motif, t.get("motif"))
        && !valid_id(m)
    {
        err.at(
            v.span(),
            "'motif' must be a kebab-case word (a-z, 0-9, '-')",
        );
    }
    let player = req_str(&mut err, t, "player", header);
    let sides: &[&str] = match game {
        GameKind::Chess => &["white", "black"],
        GameKind::Xiangqi => &["red", "black"],
    };
    if let (Some(p), Some(v)) = (&player, t.get("player"))
        && !sides.contains(&p.as_str())
    {
        err.at(v.span(), format!("'player' must be {}", sides.join(" or ")));
    }
    let ply_of = |err: &mut PuzzleErrors<'_>, key: &str| match t.get(key) {
        None => {
            err.missing(header, key);
            None
        }
        Some(v) => match v
            .get_ref()
            .as_integer()
            .and_then(|i| i.as_str().parse::<usize>().ok())
        {
            Some(n) => Some(n),
            None => {
                err.at(
                    v.span(),
                    format!("'{key}' must be a ply number (0 = start)"),
                );
                None
            }
        },
    };
    let begin = ply_of(&mut err, "begin");
    let repetition = ply_of(&mut err, "repetition");
    let played = play(&mut err, t, game, header);

    let (
        Some(first),
        Some(black),
        Some(event),
        Some(date),
        Some(result),
        Some(source),
        Some(note),
        Some(motif),
        Some(player),
        Some(begin),
        Some(repetition),
        Some(game_played),
    ) = (
        first, black, event, date, result, source, note, motif, player, begin, repetition, played,
    )
    else {
        if err.problems.is_empty() {
            err.at_line(header, "incomplete");
        }
        return Err(err.problems);
    };
    if !err.problems.is_empty() {
        return Err(err.problems);
    }
    Ok(Scenario {
        id,
        game_kind: game,
        theme: theme.to_string(),
        theme_name: theme_name.to_string(),
        first,
        black,
        event,
        site,
        date,
        result,
        game: game_played,
        begin,
        player,
        repetition,
        motif,
        source,
        note,
        origin: Origin {
            file: PathBuf::from(src.path),
            line: header,
        },
    })
}

/// "1971.10.07", "1971.??.??", "1971": a four-digit year, then month and day or "??".
fn valid_date(d: &str) -> bool {
    let parts: Vec<&str> = d.split('.').collect();
    let year = parts[0].len() == 4 && parts[0].bytes().all(|b| b.is_ascii_digit());
    let rest = parts[1..]
        .iter()
        .all(|p| p.len() == 2 && (*p == "??" || p.bytes().all(|b| b.is_ascii_digit())));
    year && rest && parts.len() <= 3
}

/// The scenario's `start` and `moves`, played: chess SAN (the puzzles' PGN movetext
/// reader), xiangqi WXF, UCCI or Chinese. A move that does not play is one problem naming
/// its number.
fn play(
    err: &mut PuzzleErrors<'_>,
    t: &DeTable<'_>,
    game: GameKind,
    header: usize,
) -> Option<ScenarioGame> {
    let start = match t.get("start") {
        None => "standard".to_string(),
        Some(v) => match v.get_ref().as_str() {
            Some(s) => s.trim().to_string(),
            None => {
                err.at(v.span(), "'start' must be \"standard\" or a FEN");
                return None;
            }
        },
    };
    let standard = start.eq_ignore_ascii_case("standard");
    let Some(moves_v) = t.get("moves") else {
        err.missing(header, "moves");
        return None;
    };
    let Some(text) = moves_v.get_ref().as_str() else {
        err.at(moves_v.span(), "'moves' must be a string");
        return None;
    };
    let start_span = t.get("start").map_or(0..0, |v| v.span());
    let base = err.src.text_line(moves_v.span());
    match game {
        GameKind::Chess => {
            let mut g = if standard {
                Game::new()
            } else {
                match Game::from_fen(&start) {
                    Ok(g) => g,
                    Err(e) => {
                        err.at(start_span, format!("'start': {e}"));
                        return None;
                    }
                }
            };
            let toks = match crate::load::tokens(text) {
                Ok(t) => t,
                Err((line, e)) => {
                    err.at_line(base + line, format!("'moves': {e}"));
                    return None;
                }
            };
            for (line, tok) in toks {
                let n = g.len() + 1;
                if let Err(e) = g.play_san(&tok) {
                    err.at_line(base + line, format!("move {n} ('{tok}'): {e}"));
                    return None;
                }
            }
            Some(ScenarioGame::Chess(Box::new(g)))
        }
        GameKind::Xiangqi => {
            let pos = if standard {
                XqPosition::start()
            } else {
                match XqPosition::from_fen(&start) {
                    Ok(p) => p,
                    Err(e) => {
                        err.at(start_span, format!("'start': {e}"));
                        return None;
                    }
                }
            };
            let mut r = Record::new(pos);
            for (line, tok) in crate::xiangqi::move_tokens(text) {
                let n = r.ply() + 1;
                match parse_xq_move(r.current(), tok) {
                    Ok(m) => r.push(m),
                    Err(e) => {
                        err.at_line(base + line, format!("move {n} ('{tok}'): {e}"));
                        return None;
                    }
                }
            }
            Some(ScenarioGame::Xiangqi(Box::new(r)))
        }
    }
}

/// `drills --check` of one scenario: `begin < repetition <= moves`, `repetition - begin`
/// within [`LEAD_PLIES`], `player` to move at `begin`, and the repetition first there at
/// `repetition` (not at or before `begin`). One line per problem, naming the file and id.
pub fn check(s: &Scenario) -> Vec<String> {
    let mut out = Vec::new();
    let mut say = |msg: String| out.push(format!("{}: scenario '{}': {msg}", s.origin, s.id));
    let n = s.game.len();
    if s.begin >= s.repetition {
        say(format!(
            "'begin' ({}) must come before 'repetition' ({})",
            s.begin, s.repetition
        ));
    }
    if s.repetition > n {
        say(format!(
            "'repetition' ({}) is past the moves given ({n} plies)",
            s.repetition
        ));
    }
    let lead = s.repetition.saturating_sub(s.begin);
    if s.begin < s.repetition && !LEAD_PLIES.contains(&lead) {
        say(format!(
            "'begin' is {lead} plies before 'repetition'; a scenario starts {} to {} plies before it",
            LEAD_PLIES.start(),
            LEAD_PLIES.end()
        ));
    }
    if s.begin <= n && s.game.side_at(s.begin) != s.player {
        say(format!(
            "at 'begin' (ply {}) it is {}'s turn, not the player's ({})",
            s.begin,
            s.game.side_at(s.begin),
            s.player
        ));
    }
    let what = match s.game_kind {
        GameKind::Chess => "a position stands for the third time",
        GameKind::Xiangqi => "the WXF judge rules",
    };
    match s.game.first_repetition() {
        None => say(format!("{what} nowhere in the moves given")),
        Some(k) if k <= s.begin => say(format!(
            "{what} at ply {k}, at or before 'begin' ({}): nothing is left to notice",
            s.begin
        )),
        Some(k) if k != s.repetition => say(format!(
            "{what} first at ply {k}, not at 'repetition' ({})",
            s.repetition
        )),
        Some(_) => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load_texts;
    use std::path::Path;

    /// A scenario file of the format, in chess: the knights' shuffle from the start (not a
    /// real game: the format, not the data, is tested here).
    const CHESS: &str = r#"
game = "chess"
name = "Shuffles"
description = "Knights out and back."

[[scenario]]
id = "sc-test-knights"
white = "A. White"
black = "B. Black"
event = "Test"
site = "Nowhere"
date = "2024.??.??"
result = "1/2-1/2"
start = "standard"
moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"
begin = 2
player = "white"
repetition = 8
motif = "shuffle"
source = "made up for the loader's test"
note = "Black could claim after 4...Ng8."
"#;

    const XIANGQI: &str = r#"
game = "xiangqi"
name = "Shuffles"

[[scenario]]
id = "sc-test-xq-horses"
red = "A. Red"
black = "B. Black"
event = "Test"
date = "2024"
result = "1/2-1/2"
moves = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9"
begin = 2
player = "red"
repetition = 8
motif = "shuffle"
source = "made up for the loader's test"
note = "The judge rules a draw."
"#;

    fn load(files: &[(&str, &str)]) -> crate::Collection {
        load_texts(files.iter().map(|(p, t)| (Path::new(*p), *t)))
    }

    #[test]
    fn the_format_loads_and_checks_for_both_games() {
        let c = load(&[
            ("scenarios/chess-shuffle.toml", CHESS),
            ("scenarios/xiangqi-shuffle.toml", XIANGQI),
        ]);
        assert!(c.problems.is_empty(), "{:?}", c.problems);
        assert_eq!(c.scenarios.len(), 2);
        for s in &c.scenarios {
            assert_eq!(check(s), Vec::<String>::new(), "{}", s.id);
            let at = s.position_at_begin();
            assert_eq!(at.len(), 2);
            assert_eq!(at.side_at(at.len()), s.player);
        }
        assert!(
            c.scenarios[0]
                .listing()
                .contains("A. White - B. Black, Test, Nowhere 2024")
        );
        assert!(!c.scenarios[0].listing().contains("shuffle"));
    }

    #[test]
    fn each_problem_is_one_line_naming_the_file_and_the_id() {
        let bad = CHESS
            .replace("begin = 2", "begin = 3")
            .replace("date = \"2024.??.??\"", "date = \"??\"")
            .replace("source = \"made up for the loader's test\"\n", "");
        let c = load(&[("scenarios/chess-shuffle.toml", &bad)]);
        let lines: Vec<String> = c.problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines
                .iter()
                .all(|l| l.starts_with("scenarios/chess-shuffle.toml:")
                    && l.contains("scenario 'sc-test-knights'"))
        );
        assert!(lines.iter().any(|l| l.contains("missing key 'source'")));
        assert!(lines.iter().any(|l| l.contains("'date' must be")));
        // Loaded but wrong: the checks.
        let late = CHESS.replace("begin = 2", "begin = 3");
        let c = load(&[("scenarios/chess-shuffle.toml", &late)]);
        let s = &c.scenarios[0];
        assert_eq!(
            check(s),
            [
                "scenarios/chess-shuffle.toml:6: scenario 'sc-test-knights': at 'begin' (ply 3) it is black's turn, not the player's (white)"
            ]
        );
        let early = CHESS.replace("repetition = 8", "repetition = 7");
        let c = load(&[("scenarios/chess-shuffle.toml", &early)]);
        let l = check(&c.scenarios[0]);
        assert_eq!(l.len(), 1, "{l:?}");
        assert!(
            l[0].contains("first at ply 8, not at 'repetition' (7)"),
            "{l:?}"
        );
        let none = XIANGQI
            .replace("g2h0 g7h9\"", "\"")
            .replace("repetition = 8", "repetition = 6");
        let c = load(&[("scenarios/xiangqi-shuffle.toml", &none)]);
        let l = check(&c.scenarios[0]);
        assert_eq!(l.len(), 1, "{l:?}");
        assert!(l[0].contains("the WXF judge rules nowhere"), "{l:?}");
        let illegal = CHESS.replace("2. Ng1", "2. Ng4");
        let c = load(&[("scenarios/chess-shuffle.toml", &illegal)]);
        assert_eq!(c.problems.len(), 1, "{:?}", c.problems);
        assert!(
            c.problems[0].to_string().contains("move 3 ('Ng4')"),
            "{}",
            c.problems[0]
        );
    }
}
