//! The statistics of a scan of many chess games (`threefold review --all --summary`,
//! `--summary-json FILE`): how often a position stood three times, how many claims were there
//! to make, how many were made and how many missed, how many games the automatic rules ended,
//! and how many draws came by a repetition nobody claimed; broken down by time control,
//! result and the rating of the side that could claim.
//!
//! A [`ChessTotals`] is fed one game at a time ([`ChessTotals::add`]): by the scan's quick
//! path for a game in which nothing can be claimed (tags and ply count only), by the full
//! review for the rest. Every figure is a sum over games, so the totals of the parts of a
//! database merge into the totals of the whole ([`ChessTotals::merge`]), whatever the split
//! and the order. The figures are defined in `crates/review/README.md`, section
//! "Statistics: --summary and --summary-json".

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use threefold_engine::level::thousands;
use threefold_rules::Game;
use threefold_rules::claim::Ground;
use threefold_rules::ending::EndingKind;
use threefold_rules::pgn::ClaimMark;
use threefold_rules::review::{ClaimChance, ClaimReview, GameRecord};

/// The tags the statistics break down by (values as written in the PGN, None when absent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameTags<'a> {
    pub result: Option<&'a str>,
    pub time_control: Option<&'a str>,
    pub white_elo: Option<&'a str>,
    pub black_elo: Option<&'a str>,
}

/// A game the rules found something in: everything the full review knows.
#[derive(Clone, Copy, Debug)]
pub struct ChessDetail<'a> {
    pub game: &'a Game,
    pub claims: &'a ClaimReview,
    pub record: &'a GameRecord,
}

/// Counts by the claim a chance (or a recorded claim) is for: FIDE 9.2 or 9.3, at once (b)
/// or with a move written on the scoresheet (a).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByClaim {
    /// 9.2 (b): the position stands for the third time, claimed at once.
    pub threefold_now: u64,
    /// 9.3 (b): fifty moves each without a capture or a pawn move, claimed at once.
    pub fifty_now: u64,
    /// 9.2 (a): a move that makes a position stand for the third time, written with a claim.
    pub threefold_move: u64,
    /// 9.3 (a): a move that completes the fifty, written with a claim.
    pub fifty_move: u64,
}

impl ByClaim {
    /// All four.
    pub fn total(&self) -> u64 {
        self.threefold_now + self.fifty_now + self.threefold_move + self.fifty_move
    }

    fn count(&mut self, ground: Ground, with_move: bool) {
        *match (ground, with_move) {
            (Ground::Threefold, false) => &mut self.threefold_now,
            (Ground::FiftyMoves, false) => &mut self.fifty_now,
            (Ground::Threefold, true) => &mut self.threefold_move,
            (Ground::FiftyMoves, true) => &mut self.fifty_move,
        } += 1;
    }

    /// A chance, under the claim its finding names ([`ClaimChance::claim`]).
    fn count_chance(&mut self, chance: &ClaimChance) {
        let (m, ground) = chance.claim();
        self.count(ground, m.is_some());
    }

    fn merge(&mut self, other: &ByClaim) {
        let ByClaim {
            threefold_now,
            fifty_now,
            threefold_move,
            fifty_move,
        } = other;
        self.threefold_now += threefold_now;
        self.fifty_now += fifty_now;
        self.threefold_move += threefold_move;
        self.fifty_move += fifty_move;
    }
}

/// What the claims of one side (or of both) came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimCounts {
    /// Turns at which a correct claim was available (taken or not).
    pub chances: ByClaim,
    /// Of those, the turns whose chance was not taken.
    pub missed: ByClaim,
    /// Runs of missed chances (one side, its consecutive turns): one per finding of
    /// `threefold review`, under the claim of the run's first chance.
    pub missed_runs: ByClaim,
    /// Claims recorded in the games (`[%claim ...]`) and ruled correct.
    pub claimed_correct: ByClaim,
    /// Claims recorded and ruled incorrect, under the rule the record names.
    pub claimed_incorrect: ByClaim,
    /// Claims recorded without a rule (`[%claim now]`) and ruled incorrect under either.
    pub claimed_incorrect_unstated: u64,
}

impl ClaimCounts {
    /// Turns whose chance was taken: a correct claim recorded there, or (in a game with no
    /// recorded claim) the draw the game ended with at that turn.
    pub fn taken(&self) -> ByClaim {
        let (c, m) = (&self.chances, &self.missed);
        ByClaim {
            threefold_now: c.threefold_now - m.threefold_now,
            fifty_now: c.fifty_now - m.fifty_now,
            threefold_move: c.threefold_move - m.threefold_move,
            fifty_move: c.fifty_move - m.fifty_move,
        }
    }

    /// Claims recorded, correct or not.
    pub fn claimed(&self) -> u64 {
        self.claimed_correct.total()
            + self.claimed_incorrect.total()
            + self.claimed_incorrect_unstated
    }

    fn merge(&mut self, other: &ClaimCounts) {
        let ClaimCounts {
            chances,
            missed,
            missed_runs,
            claimed_correct,
            claimed_incorrect,
            claimed_incorrect_unstated,
        } = other;
        self.chances.merge(chances);
        self.missed.merge(missed);
        self.missed_runs.merge(missed_runs);
        self.claimed_correct.merge(claimed_correct);
        self.claimed_incorrect.merge(claimed_incorrect);
        self.claimed_incorrect_unstated += claimed_incorrect_unstated;
    }
}

/// The counts of a set of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameCounts {
    pub games: u64,
    /// Moves by either side (half-moves).
    pub plies: u64,
    /// Games in which some position stood three times (or more).
    pub games_with_threefold: u64,
    /// Positions that stood for the third time: the plies at which a position appeared for
    /// the third time (a position that went on to a fourth counts once).
    pub threefold_positions: u64,
    /// Both sides' claims.
    pub claims: ClaimCounts,
    /// Games the rules ended by a fifth occurrence (FIDE 9.6.1).
    pub fivefold: u64,
    /// Games the rules ended after seventy-five moves each without a capture or a pawn move
    /// (FIDE 9.6.2).
    pub seventy_five_moves: u64,
    /// Games with the result 1/2-1/2 whose last position had stood three times or more and
    /// in which no claim is recorded.
    pub drawn_by_unclaimed_repetition: u64,
}

impl GameCounts {
    fn merge(&mut self, other: &GameCounts) {
        let GameCounts {
            games,
            plies,
            games_with_threefold,
            threefold_positions,
            claims,
            fivefold,
            seventy_five_moves,
            drawn_by_unclaimed_repetition,
        } = other;
        self.games += games;
        self.plies += plies;
        self.games_with_threefold += games_with_threefold;
        self.threefold_positions += threefold_positions;
        self.claims.merge(claims);
        self.fivefold += fivefold;
        self.seventy_five_moves += seventy_five_moves;
        self.drawn_by_unclaimed_repetition += drawn_by_unclaimed_repetition;
    }
}

/// The counts of the players of one rating band: each game counts once for White's band and
/// once for Black's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideCounts {
    /// Games played by a side in the band.
    pub sides: u64,
    /// That side's claims.
    pub claims: ClaimCounts,
}

impl SideCounts {
    fn merge(&mut self, other: &SideCounts) {
        let SideCounts { sides, claims } = other;
        self.sides += sides;
        self.claims.merge(claims);
    }
}

/// The width of a rating band.
pub const RATING_BAND: u32 = 200;

/// The lowest rating of the top band: every rating from it up counts there.
pub const TOP_BAND: u32 = 3000;

/// The time-control classes, fastest first (lichess's, from the estimated duration
/// `base + 40 × increment` seconds), then the games without a clock and those whose tag is
/// absent or not read.
pub const TIME_CONTROL_CLASSES: [&str; 7] = [
    "ultrabullet",
    "bullet",
    "blitz",
    "rapid",
    "classical",
    "correspondence",
    "unknown",
];

/// The results the breakdown by result keeps; any other value (or none) is "unknown".
pub const RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "*", "unknown"];

/// The statistics of a scan of chess games.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChessTotals {
    /// Games that could not be read (skipped).
    pub skipped: u64,
    /// Every game read.
    pub total: GameCounts,
    /// By time-control class ([`TIME_CONTROL_CLASSES`]).
    pub by_time_control: BTreeMap<String, GameCounts>,
    /// By the `Result` tag ([`RESULTS`]).
    pub by_result: BTreeMap<String, GameCounts>,
    /// By the rating band of the side (its lowest rating, a multiple of [`RATING_BAND`]; the
    /// band [`TOP_BAND`] holds every rating from it up).
    pub by_rating: BTreeMap<u32, SideCounts>,
    /// The sides without a rating (no `WhiteElo` / `BlackElo` tag, or not a number).
    pub rating_unknown: SideCounts,
}

/// The time-control class of a `TimeControl` tag (PGN standard 9.6.1): "-" is a game without
/// a clock (correspondence); otherwise the first period's seconds (`base`, `base+increment`,
/// `moves/seconds`, `*seconds`) give the estimated duration `base + 40 × increment`, classed
/// as lichess does (under 30 s ultrabullet, 180 s bullet, 480 s blitz, 1500 s rapid, else
/// classical). Absent or unreadable: "unknown".
pub fn time_control_class(tag: Option<&str>) -> &'static str {
    let Some(tag) = tag.map(str::trim) else {
        return "unknown";
    };
    if tag == "-" {
        return "correspondence";
    }
    let first = tag.split(':').next().unwrap_or("");
    let period = first.rsplit('/').next().unwrap_or("");
    let period = period.strip_prefix('*').unwrap_or(period);
    let (base, increment) = period.split_once('+').unwrap_or((period, "0"));
    let (Ok(base), Ok(increment)) = (base.parse::<u64>(), increment.parse::<u64>()) else {
        return "unknown";
    };
    match base.saturating_add(increment.saturating_mul(40)) {
        0..30 => "ultrabullet",
        30..180 => "bullet",
        180..480 => "blitz",
        480..1500 => "rapid",
        _ => "classical",
    }
}

/// The rating band of an `Elo` tag: its lowest rating, or None for no rating.
pub fn rating_band(tag: Option<&str>) -> Option<u32> {
    let elo: u32 = tag?.trim().parse().ok()?;
    Some((elo / RATING_BAND * RATING_BAND).min(TOP_BAND))
}

/// The breakdown key of a `Result` tag ([`RESULTS`]).
pub fn result_key(tag: Option<&str>) -> &'static str {
    let tag = tag.map(str::trim);
    RESULTS[..4]
        .iter()
        .find(|&&r| Some(r) == tag)
        .copied()
        .unwrap_or("unknown")
}

/// "1400-1599", "3000+", "unknown".
fn band_label(band: Option<u32>) -> String {
    match band {
        Some(b) if b >= TOP_BAND => format!("{b}+"),
        Some(b) => format!("{b}-{}", b + RATING_BAND - 1),
        None => "unknown".to_string(),
    }
}

fn side_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// One game's counts, and each side's claims (White, Black).
fn one_game(
    tags: &GameTags,
    plies: usize,
    detail: Option<ChessDetail<'_>>,
) -> (GameCounts, [ClaimCounts; 2]) {
    let mut g = GameCounts {
        games: 1,
        plies: plies as u64,
        ..GameCounts::default()
    };
    let mut sides = [ClaimCounts::default(); 2];
    let Some(d) = detail else {
        return (g, sides);
    };
    let thirds = d
        .game
        .records()
        .iter()
        .filter(|r| r.occurrence == 3)
        .count() as u64;
    g.threefold_positions = thirds;
    g.games_with_threefold = u64::from(thirds > 0);
    match d.game.termination().map(|t| t.ending.kind) {
        Some(EndingKind::FivefoldRepetition) => g.fivefold = 1,
        Some(EndingKind::SeventyFiveMoves) => g.seventy_five_moves = 1,
        _ => {}
    }
    g.drawn_by_unclaimed_repetition = u64::from(
        result_key(tags.result) == "1/2-1/2"
            && d.game.current().occurrence >= 3
            && d.record.claims.is_empty(),
    );
    for ch in &d.claims.chances {
        let side = &mut sides[side_index(ch.side)];
        side.chances.count_chance(ch);
        if !ch.taken {
            side.missed.count_chance(ch);
        }
    }
    for run in &d.claims.runs {
        sides[side_index(run.side)]
            .missed_runs
            .count_chance(&run.chances[0]);
    }
    for j in &d.claims.recorded {
        let side = &mut sides[side_index(j.side)];
        let with_move = j.recorded.mark == ClaimMark::WithMove;
        match (j.verdict.ground, j.recorded.ground) {
            (Some(ground), _) => side.claimed_correct.count(ground, with_move),
            (None, Some(ground)) => side.claimed_incorrect.count(ground, with_move),
            (None, None) => side.claimed_incorrect_unstated += 1,
        }
    }
    g.claims = sides[0];
    g.claims.merge(&sides[1]);
    (g, sides)
}

impl ChessTotals {
    /// One game. `detail` is None for a game in which no position stood twice, the
    /// fifty-move count never reached 99 half-moves and no claim was recorded: then it has
    /// no claim, no repetition and no automatic ending, and only `plies` and the tags count.
    pub fn add(&mut self, tags: &GameTags, plies: usize, detail: Option<ChessDetail<'_>>) {
        let (game, sides) = one_game(tags, plies, detail);
        self.total.merge(&game);
        entry(
            &mut self.by_time_control,
            time_control_class(tags.time_control),
        )
        .merge(&game);
        entry(&mut self.by_result, result_key(tags.result)).merge(&game);
        for (elo, claims) in [tags.white_elo, tags.black_elo].into_iter().zip(&sides) {
            let one = SideCounts {
                sides: 1,
                claims: *claims,
            };
            match rating_band(elo) {
                Some(band) => self.by_rating.entry(band).or_default().merge(&one),
                None => self.rating_unknown.merge(&one),
            }
        }
    }

    /// A game that could not be read (skipped).
    pub fn add_skipped(&mut self) {
        self.skipped += 1;
    }

    /// Adds another summary's counts (summaries of shards merge into the whole's).
    pub fn merge(&mut self, other: &ChessTotals) {
        let ChessTotals {
            skipped,
            total,
            by_time_control,
            by_result,
            by_rating,
            rating_unknown,
        } = other;
        self.skipped += skipped;
        self.total.merge(total);
        for (k, v) in by_time_control {
            self.by_time_control.entry(k.clone()).or_default().merge(v);
        }
        for (k, v) in by_result {
            self.by_result.entry(k.clone()).or_default().merge(v);
        }
        for (k, v) in by_rating {
            self.by_rating.entry(*k).or_default().merge(v);
        }
        self.rating_unknown.merge(rating_unknown);
    }

    /// The summary as a person reads it (a few aligned sections, fits 80 columns).
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let t = &self.total;
        let c = &t.claims;
        let games = [
            ("games read", t.games),
            ("games skipped (not read)", self.skipped),
            ("plies (moves by either side)", t.plies),
        ];
        let repetitions = [
            (
                "games in which a position stood three times",
                t.games_with_threefold,
            ),
            ("positions that stood three times", t.threefold_positions),
            ("games ended by a fivefold repetition (9.6.1)", t.fivefold),
            (
                "games ended by the seventy-five-move rule (9.6.2)",
                t.seventy_five_moves,
            ),
            (
                "games drawn by a repetition nobody claimed",
                t.drawn_by_unclaimed_repetition,
            ),
        ];
        let label_w = games
            .iter()
            .chain(&repetitions)
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        let num_w = games
            .iter()
            .chain(&repetitions)
            .map(|(_, n)| thousands(*n).len())
            .max()
            .unwrap_or(0);
        for (title, lines) in [("Chess", &games[..]), ("Repetitions", &repetitions[..])] {
            writeln!(out, "{title}")?;
            for (label, n) in lines {
                writeln!(out, "  {label:<label_w$}  {:>num_w$}", thousands(*n))?;
            }
            writeln!(out)?;
        }

        let by_claim = |b: &ByClaim| {
            vec![
                b.threefold_now,
                b.fifty_now,
                b.threefold_move,
                b.fifty_move,
                b.total(),
            ]
        };
        let mut claim_rows = vec![
            ("available (turns)".to_string(), by_claim(&c.chances)),
            ("taken (turns)".to_string(), by_claim(&c.taken())),
            ("missed (turns)".to_string(), by_claim(&c.missed)),
            ("missed (runs)".to_string(), by_claim(&c.missed_runs)),
            ("claimed, correct".to_string(), by_claim(&c.claimed_correct)),
            (
                "claimed, incorrect".to_string(),
                by_claim(&c.claimed_incorrect),
            ),
        ];
        if c.claimed_incorrect_unstated > 0 {
            let n = c.claimed_incorrect_unstated;
            claim_rows.push(("incorrect, no rule named".to_string(), vec![0, 0, 0, 0, n]));
        }
        table(
            out,
            "Claims",
            &["9.2 b", "9.3 b", "9.2 a", "9.3 a", "all"],
            &claim_rows,
        )?;
        writeln!(
            out,
            "  (b: at once; a: with a move written on the scoresheet. A run is one side's\n  \
             missed chances on consecutive turns.)"
        )?;
        writeln!(out)?;

        let game_headers = [
            "games",
            "x3",
            "avail",
            "missed",
            "claimed",
            "5-fold",
            "75-move",
            "unclaimed",
        ];
        let game_row = |g: &GameCounts| {
            vec![
                g.games,
                g.threefold_positions,
                g.claims.chances.total(),
                g.claims.missed_runs.total(),
                g.claims.claimed(),
                g.fivefold,
                g.seventy_five_moves,
                g.drawn_by_unclaimed_repetition,
            ]
        };
        let tc_rows: Vec<(String, Vec<u64>)> =
            ordered(&self.by_time_control, &TIME_CONTROL_CLASSES)
                .map(|(k, g)| (k.to_string(), game_row(g)))
                .collect();
        table(out, "By time control", &game_headers, &tc_rows)?;
        writeln!(out)?;
        let result_rows: Vec<(String, Vec<u64>)> = ordered(&self.by_result, &RESULTS)
            .map(|(k, g)| (k.to_string(), game_row(g)))
            .collect();
        table(out, "By result", &game_headers, &result_rows)?;
        writeln!(
            out,
            "  (x3: positions that stood three times; avail: turns with a claim available;\n  \
             missed: runs missed; claimed: claims recorded; unclaimed: drawn by a\n  \
             repetition nobody claimed.)"
        )?;
        writeln!(out)?;

        let side_row = |s: &SideCounts| {
            vec![
                s.sides,
                s.claims.chances.total(),
                s.claims.taken().total(),
                s.claims.missed.total(),
                s.claims.missed_runs.total(),
                s.claims.claimed_correct.total(),
                s.claims.claimed_incorrect.total() + s.claims.claimed_incorrect_unstated,
            ]
        };
        let mut rating_rows: Vec<(String, Vec<u64>)> = self
            .by_rating
            .iter()
            .map(|(&b, s)| (band_label(Some(b)), side_row(s)))
            .collect();
        if self.rating_unknown.sides > 0 {
            rating_rows.push((band_label(None), side_row(&self.rating_unknown)));
        }
        table(
            out,
            "By rating of the side",
            &[
                "sides", "avail", "taken", "missed", "runs", "correct", "wrong",
            ],
            &rating_rows,
        )?;
        writeln!(
            out,
            "  (sides: games played by a side in the band; avail, taken, missed: turns with\n  \
             a claim for that side; runs: missed runs; correct, wrong: its claims\n  \
             recorded.)"
        )
    }
}

/// The counts of `key` in a breakdown, made on its first game (a key is copied once, not for
/// every game).
fn entry<'a, V: Default>(map: &'a mut BTreeMap<String, V>, key: &str) -> &'a mut V {
    if !map.contains_key(key) {
        map.insert(key.to_string(), V::default());
    }
    map.get_mut(key).expect("inserted above")
}

/// The entries of a breakdown in the order of `order`, then any other key.
fn ordered<'a, V>(
    map: &'a BTreeMap<String, V>,
    order: &'a [&str],
) -> impl Iterator<Item = (&'a str, &'a V)> {
    order
        .iter()
        .filter_map(|&k| map.get_key_value(k))
        .chain(map.iter().filter(|(k, _)| !order.contains(&k.as_str())))
        .map(|(k, v)| (k.as_str(), v))
}

/// The widest a line of the text may be.
const COLUMNS: usize = 80;

/// A number in at most 6 characters: exact below 10,000, else to a tenth of its unit
/// ("12.3k", "188.7M", "12.7B").
fn compact(n: u64) -> String {
    let x = n as f64;
    match n {
        0..10_000 => n.to_string(),
        10_000..999_950 => format!("{:.1}k", x / 1e3),
        999_950..999_950_000 => format!("{:.1}M", x / 1e6),
        _ => format!("{:.1}B", x / 1e9),
    }
}

/// A table: a title over the row labels, right-aligned numbers under their headers; the
/// numbers written in full ("1,234,567"), or [`compact`] when the table would not fit in
/// [`COLUMNS`] so.
fn table(
    out: &mut dyn Write,
    title: &str,
    headers: &[&str],
    rows: &[(String, Vec<u64>)],
) -> io::Result<()> {
    let cells = |write: fn(u64) -> String| -> Vec<Vec<String>> {
        rows.iter()
            .map(|(_, v)| v.iter().map(|&n| write(n)).collect())
            .collect()
    };
    let exact = cells(thousands);
    let cells = if table_width(title, headers, rows, &exact) <= COLUMNS {
        exact
    } else {
        cells(compact)
    };
    let (label_w, widths) = widths(title, headers, rows, &cells);
    write!(out, "{title:<label_w$}")?;
    for (h, w) in headers.iter().zip(&widths) {
        write!(out, " {h:>w$}")?;
    }
    writeln!(out)?;
    for ((label, _), row) in rows.iter().zip(&cells) {
        let label = format!("  {label}");
        write!(out, "{label:<label_w$}")?;
        for (cell, w) in row.iter().zip(&widths) {
            write!(out, " {cell:>w$}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The width of the labels' column and of each number's.
fn widths(
    title: &str,
    headers: &[&str],
    rows: &[(String, Vec<u64>)],
    cells: &[Vec<String>],
) -> (usize, Vec<usize>) {
    let label_w = rows
        .iter()
        .map(|(l, _)| l.chars().count() + 2)
        .chain([title.chars().count()])
        .max()
        .unwrap_or(0);
    let widths = headers
        .iter()
        .enumerate()
        .map(|(i, h)| {
            cells
                .iter()
                .map(|r| r[i].len())
                .chain([h.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    (label_w, widths)
}

/// How wide [`table`] writes its lines with these cells.
fn table_width(
    title: &str,
    headers: &[&str],
    rows: &[(String, Vec<u64>)],
    cells: &[Vec<String>],
) -> usize {
    let (label_w, widths) = widths(title, headers, rows, cells);
    label_w + widths.iter().map(|w| w + 1).sum::<usize>()
}

/// The form of [`Summary`]'s JSON: a summary of another form is not merged.
pub const SUMMARY_FORMAT: u32 = 1;

/// The summary of a scan (`review --summary-json`): the statistics of its chess games and of
/// its xiangqi games, and the form they are written in. Summaries of the parts of a database merge into the
/// summary of the whole ([`Summary::merge`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// [`SUMMARY_FORMAT`] when written.
    pub format: u32,
    pub chess: ChessTotals,
    pub xiangqi: crate::xiangqi::XiangqiTotals,
}

impl Default for Summary {
    fn default() -> Self {
        Summary {
            format: SUMMARY_FORMAT,
            chess: ChessTotals::default(),
            xiangqi: crate::xiangqi::XiangqiTotals::default(),
        }
    }
}

impl Summary {
    /// Add another summary's counts.
    pub fn merge(&mut self, other: &Summary) {
        let Summary {
            format: _,
            chess,
            xiangqi,
        } = other;
        self.chess.merge(chess);
        self.xiangqi.merge(xiangqi);
    }

    /// The summary as a person reads it: the chess games', and the xiangqi games' when
    /// there were any.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let xiangqi = self.xiangqi.games + self.xiangqi.skipped > 0;
        let chess = self.chess.total.games + self.chess.skipped > 0;
        if chess || !xiangqi {
            self.chess.write_text(out)?;
        }
        if xiangqi {
            if chess {
                writeln!(out)?;
            }
            self.xiangqi.write_text(out)?;
        }
        Ok(())
    }
}
