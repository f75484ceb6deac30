//! The review of xiangqi games: every repetition of a game read from PGN, each ruled by the
//! WXF judge ([`threefold_xiangqi::judge`]), and the totals of a collection
//! ([`XiangqiTotals`]).
//!
//! A game is read by the xiangqi crate's PGN reader ([`threefold_xiangqi::pgn::read`]: SAN,
//! UCCI `h2e2`, ICCS `H2-E2` or WXF moves, with or without `[Variant "xiangqi"]`), replayed
//! into a judge [`Record`], and read ply by ply:
//!
//! - a **repetition** is a run of consecutive plies whose positions each stood before since
//!   the last capture or pawn advance (the judge's [`Record::occurrence_count`]);
//! - a repetition is **ruled** at its first ply whose position has stood often enough
//!   before ([`XqOptions::rule_at`]: the third occurrence, as `threefold xiangqi judge`
//!   and Fairy-Stockfish rule, or the first repetition), by [`Record::judge_at`], the call
//!   every ruling in threefold makes: so the game's first ruling is the one
//!   `threefold xiangqi judge` and the trainer give ([`JudgedGame`]'s standing ruling).
//!   Its kind ([`RulingKind`]: perpetual check, perpetual chase, mutual check or chase,
//!   idle) and the side it goes against are the judge's;
//! - a ruling **ended the game** when its repetition is the game's last, the game ended in
//!   it (its last ply is the game's last), and the result agrees with the ruling (a draw
//!   `1/2-1/2`, a loss the winner's `1-0` / `0-1`).
//!
//! A game that ends with the side to move without a legal move ends by checkmate or
//! stalemate ([`Ending`]); both lose in xiangqi.
//!
//! [`JudgedGame`]: threefold_xiangqi::judge::JudgedGame

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};
use threefold_xiangqi::judge::{Ending, Record, RuleAt, Ruling, RulingKind};
use threefold_xiangqi::notation::wxf;
use threefold_xiangqi::pgn::{self, Outcome as PgnOutcome, PgnReason};
use threefold_xiangqi::{Color, Move};

/// How games are judged: the options of `threefold xiangqi judge`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XqOptions {
    /// The occurrence of a position a repetition is ruled at: the third (the default) or the
    /// first repetition, as `xiangqi judge --ntimes`.
    pub rule_at: RuleAt,
}

impl Default for XqOptions {
    fn default() -> Self {
        XqOptions {
            rule_at: RuleAt::ThirdOccurrence,
        }
    }
}

/// A game that could not be reviewed: where (file, line of the file, game number, the
/// game's first line) and why (the PGN reader's [`PgnReason`]: one variant per cause).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: game {game} (from line {first_line}): {reason}")]
pub struct XqReviewError {
    pub file: String,
    /// The line of the file the problem is on.
    pub line: usize,
    /// The game's number in the file.
    pub game: usize,
    /// The line of the game's first byte.
    pub first_line: usize,
    /// Boxed: a review's `Result` stays small.
    pub reason: Box<PgnReason>,
}

/// A run of plies whose positions each stood before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqRepetition {
    /// The first ply of the run (its position stood before).
    pub first_ply: usize,
    /// The last ply of the run.
    pub last_ply: usize,
    /// The earliest ply at which the run's first position stood.
    pub first_seen: usize,
    /// The most times one position of the run stood (2: once repeated, 3: a third
    /// occurrence...).
    pub most: usize,
}

/// A repetition ruled by the judge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqRuling {
    /// The judge's ruling, at the ply it was made (its `ply`), for the side to move there.
    pub ruling: Ruling,
    pub kind: RulingKind,
    /// Which of the game's repetitions ([`XqReview::repetitions`]) it rules.
    pub repetition: usize,
    /// The game ended in this repetition with the result the ruling gives.
    pub ended_game: bool,
}

impl XqRuling {
    /// The side the ruling goes against (`None`: a draw).
    pub fn against(&self) -> Option<Color> {
        self.ruling.loser()
    }
}

/// The review of one xiangqi game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XqReview {
    /// The tags other than `Variant`, `SetUp`, `FEN` and `Result`, as read.
    pub tags: Vec<(String, String)>,
    /// The result, from the movetext's end or the Result tag.
    pub result: PgnOutcome,
    /// The side to move at the start.
    pub first_to_move: Color,
    /// The moves, `moves[p - 1]` reaching ply `p`.
    pub moves: Vec<Move>,
    /// The WXF notation of the moves the findings name, by ply (written only for those:
    /// WXF is read against the position, so it costs a legal-move generation).
    wxf: BTreeMap<usize, String>,
    pub repetitions: Vec<XqRepetition>,
    pub rulings: Vec<XqRuling>,
    /// The side to move at the end has no legal move.
    pub ending: Option<Ending>,
}

/// Reviews one xiangqi game given as the PGN text of that game alone. `first_line` is the
/// line of the game's first byte in `file`, so an error names the file's line; `game` is its
/// number in the file.
pub fn review_game(
    text: &str,
    file: &str,
    first_line: usize,
    game: usize,
    opts: &XqOptions,
) -> Result<XqReview, XqReviewError> {
    let g = pgn::read(text).map_err(|e| XqReviewError {
        file: file.to_string(),
        line: first_line + e.line.max(1) - 1,
        game,
        first_line,
        reason: Box::new(e.reason),
    })?;
    Ok(review_pgn_game(&g, opts))
}

/// Reviews a game the xiangqi PGN reader has read.
pub fn review_pgn_game(g: &pgn::PgnGame, opts: &XqOptions) -> XqReview {
    let at = opts.rule_at;
    let mut record = Record::new(g.start.clone());
    for &m in &g.moves {
        record.push(m);
    }
    let plies = record.ply();
    let mut repetitions: Vec<XqRepetition> = Vec::new();
    let mut rulings: Vec<XqRuling> = Vec::new();
    let mut run_open = false;
    for ply in 1..=plies {
        let count = record.occurrence_count(ply);
        if count == 0 {
            run_open = false;
            continue;
        }
        if !run_open {
            run_open = true;
            repetitions.push(XqRepetition {
                first_ply: ply,
                last_ply: ply,
                first_seen: record.occurrences(ply).last().unwrap_or(ply),
                most: 0,
            });
        }
        let index = repetitions.len() - 1;
        let rep = &mut repetitions[index];
        rep.last_ply = ply;
        rep.most = rep.most.max(count + 1);
        // The first ply of the run at which the judge rules: a repetition is ruled once.
        if count >= at.ntimes() && rulings.last().is_none_or(|r| r.repetition != index) {
            let ruling = record.judge_at(ply, at);
            if let Some(kind) = ruling.kind() {
                rulings.push(XqRuling {
                    ruling,
                    kind,
                    repetition: index,
                    ended_game: false,
                });
            }
        }
    }
    // The last repetition ended the game if the game ended in it with the ruling's result.
    if let (Some(last), Some(rep)) = (rulings.last_mut(), repetitions.last())
        && last.repetition == repetitions.len() - 1
        && rep.last_ply == plies
    {
        last.ended_game = match last.against() {
            None => g.result == PgnOutcome::Draw,
            Some(Color::Red) => g.result == PgnOutcome::BlackWins,
            Some(Color::Black) => g.result == PgnOutcome::RedWins,
        };
    }
    let named = repetitions
        .iter()
        .flat_map(|r| [r.first_ply, r.last_ply])
        .chain(rulings.iter().map(|r| r.ruling.ply));
    let wxf = named
        .filter(|&p| p >= 1)
        .map(|p| (p, wxf(record.position(p - 1), record.move_at(p))))
        .collect();
    XqReview {
        tags: g.tags.clone(),
        result: g.result,
        first_to_move: g.start.side_to_move(),
        moves: g.moves.clone(),
        wxf,
        repetitions,
        rulings,
        ending: Ending::of(record.current()),
    }
}

/// One line of the JSON output: a repetition or a ruling.
#[derive(Serialize)]
struct JsonFinding {
    game: usize,
    /// `repetition`, or the ruling's kind (`perpetual-check`, `perpetual-chase`,
    /// `mutual-check`, `mutual-chase`, `idle`).
    kind: &'static str,
    ply: usize,
    until_ply: usize,
    /// The side to move at `ply` (a ruling's `result` is stated for it).
    side: &'static str,
    /// The move that reached `ply`, in UCCI.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// A ruling's result for `side`: `win`, `loss`, `draw`.
    result: Option<&'static str>,
    /// The side a ruling goes against (null for a draw).
    against: Option<&'static str>,
    red: Option<&'static str>,
    black: Option<&'static str>,
    /// The repetition's most occurrences of one position.
    occurrences: Option<usize>,
    ended_game: Option<bool>,
    text: String,
    explanation: Option<String>,
}

impl XqReview {
    /// The number of moves played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The side to move after `ply` plies.
    fn side_at(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.first_to_move
        } else {
            self.first_to_move.other()
        }
    }

    /// "12." or "12...": the move number and side to move of the position after `ply`.
    pub fn place(&self, ply: usize) -> String {
        let n = (ply + usize::from(self.first_to_move == Color::Black)) / 2 + 1;
        match self.side_at(ply) {
            Color::Red => format!("{n}."),
            Color::Black => format!("{n}..."),
        }
    }

    /// "ply 23 (12. C2=5)": a ply and the move that reached it, numbered as a scoresheet
    /// numbers it.
    fn ply_label(&self, ply: usize) -> String {
        match self.wxf.get(&ply) {
            None => format!("ply {ply}"),
            Some(w) => {
                let n = (ply - 1 + usize::from(self.first_to_move == Color::Black)) / 2 + 1;
                let dots = match self.side_at(ply - 1) {
                    Color::Red => ".",
                    Color::Black => "...",
                };
                format!("ply {ply} ({n}{dots} {w})")
            }
        }
    }

    fn repetition_text(&self, r: &XqRepetition) -> String {
        let span = if r.last_ply > r.first_ply {
            format!(
                "; positions kept recurring through {}",
                self.ply_label(r.last_ply)
            )
        } else {
            String::new()
        };
        format!(
            "the position after {} stood before, first after {}{span}; at most {} times",
            self.ply_label(r.first_ply),
            if r.first_seen == 0 {
                "the start".to_string()
            } else {
                format!("ply {}", r.first_seen)
            },
            r.most
        )
    }

    /// The ruling in one line: the judge's headline and verdict ("Black wins, Red loses:
    /// Perpetual chase outranks idle moves."), and whether the game ended so.
    fn ruling_text(&self, r: &XqRuling) -> String {
        let explanation = r.ruling.explanation();
        let verdict = explanation.lines().last().unwrap_or_default();
        let ended = if r.ended_game {
            format!("; the game ended so ({})", self.result.pgn())
        } else {
            format!("; the game went on ({})", self.result.pgn())
        };
        format!(
            "{} ({}): {}{ended}",
            r.ruling.headline(),
            r.kind.name(),
            verdict.trim_end_matches('.')
        )
    }

    /// The findings in order: each repetition, its ruling after it.
    fn findings(&self) -> impl Iterator<Item = (&XqRepetition, Option<&XqRuling>)> {
        self.repetitions
            .iter()
            .enumerate()
            .map(|(i, rep)| (rep, self.rulings.iter().find(|r| r.repetition == i)))
    }

    /// The game's report, as `threefold review` writes a chess game's: a heading, then one
    /// line per finding (place, side, kind, text), each ruling with the players' moves as
    /// the judge sums them up.
    pub fn write_report(&self, out: &mut dyn Write, game: usize) -> io::Result<()> {
        writeln!(
            out,
            "Game {game}: {} - {}, {} ({} plies, xiangqi)",
            self.tag("White").unwrap_or("?"),
            self.tag("Black").unwrap_or("?"),
            self.result.pgn(),
            self.plies()
        )?;
        if self.repetitions.is_empty() {
            writeln!(out, "  no repetitions")?;
        }
        for (rep, ruling) in self.findings() {
            writeln!(
                out,
                "  {:<9} {:<5} {:<22} {}",
                self.place(rep.first_ply),
                self.side_at(rep.first_ply).title(),
                "repetition",
                self.repetition_text(rep)
            )?;
            if let Some(r) = ruling {
                writeln!(
                    out,
                    "  {:<9} {:<5} {:<22} {}",
                    self.place(r.ruling.ply),
                    r.ruling.side.title(),
                    r.kind.code(),
                    self.ruling_text(r)
                )?;
                for side in [&r.ruling.red, &r.ruling.black] {
                    writeln!(out, "  {:<9} {:<5} {:<22}   {}", "", "", "", side.summary())?;
                }
            }
        }
        if let Some(e) = self.ending {
            writeln!(
                out,
                "  {:<9} {:<5} {:<22} {} has no legal move: {}, and in xiangqi a player who cannot move loses",
                self.place(self.plies()),
                self.side_at(self.plies()).title(),
                e.name(),
                self.side_at(self.plies()).title(),
                e.name()
            )?;
        }
        writeln!(out)
    }

    /// One JSON object per finding, a line each: `game`, `kind` (`repetition` or the
    /// ruling's kind), `ply`, `until_ply`, `side` (to move at `ply`), `move` (UCCI, the move
    /// that reached `ply`), for a ruling `result` (for `side`), `against`, `red` and `black`
    /// (the levels: `check`, `chase`, `idle`), `ended_game` and `explanation` (the judge's
    /// words), for a repetition `occurrences` (the most of one position), and `text`.
    pub fn write_json(&self, out: &mut dyn Write, game: usize) -> io::Result<()> {
        let mv = |ply: usize| {
            ply.checked_sub(1)
                .and_then(|i| self.moves.get(i))
                .map(|m| m.ucci())
        };
        let mut line = |f: &JsonFinding| -> io::Result<()> {
            serde_json::to_writer(&mut *out, f)?;
            writeln!(out)
        };
        for (rep, ruling) in self.findings() {
            line(&JsonFinding {
                game,
                kind: "repetition",
                ply: rep.first_ply,
                until_ply: rep.last_ply,
                side: self.side_at(rep.first_ply).name(),
                mv: mv(rep.first_ply),
                result: None,
                against: None,
                red: None,
                black: None,
                occurrences: Some(rep.most),
                ended_game: None,
                text: self.repetition_text(rep),
                explanation: None,
            })?;
            if let Some(r) = ruling {
                let level = |s: &threefold_xiangqi::judge::SideReport| s.level.map(|l| l.name());
                line(&JsonFinding {
                    game,
                    kind: r.kind.code(),
                    ply: r.ruling.ply,
                    until_ply: r.ruling.ply,
                    side: r.ruling.side.name(),
                    mv: mv(r.ruling.ply),
                    result: Some(r.ruling.outcome.name()),
                    against: r.against().map(Color::name),
                    red: level(&r.ruling.red),
                    black: level(&r.ruling.black),
                    occurrences: None,
                    ended_game: Some(r.ended_game),
                    text: self.ruling_text(r),
                    explanation: Some(r.ruling.explanation()),
                })?;
            }
        }
        Ok(())
    }
}

/// Counts per ruling kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulingCounts {
    pub perpetual_check: u64,
    pub perpetual_chase: u64,
    pub mutual_check: u64,
    pub mutual_chase: u64,
    pub idle: u64,
}

impl RulingCounts {
    fn slot(&mut self, kind: RulingKind) -> &mut u64 {
        match kind {
            RulingKind::PerpetualCheck => &mut self.perpetual_check,
            RulingKind::PerpetualChase => &mut self.perpetual_chase,
            RulingKind::MutualCheck => &mut self.mutual_check,
            RulingKind::MutualChase => &mut self.mutual_chase,
            RulingKind::Idle => &mut self.idle,
        }
    }

    /// The count of `kind`.
    pub fn get(&self, kind: RulingKind) -> u64 {
        match kind {
            RulingKind::PerpetualCheck => self.perpetual_check,
            RulingKind::PerpetualChase => self.perpetual_chase,
            RulingKind::MutualCheck => self.mutual_check,
            RulingKind::MutualChase => self.mutual_chase,
            RulingKind::Idle => self.idle,
        }
    }

    /// All kinds together.
    pub fn total(&self) -> u64 {
        RulingKind::ALL.iter().map(|&k| self.get(k)).sum()
    }

    fn merge(&mut self, other: &RulingCounts) {
        for k in RulingKind::ALL {
            *self.slot(k) += other.get(k);
        }
    }
}

/// The totals of the games with one result.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultTotals {
    pub games: u64,
    pub plies: u64,
    pub repetitions: u64,
    pub rulings: RulingCounts,
    /// The rulings that ended their game.
    pub ended: RulingCounts,
}

impl ResultTotals {
    fn merge(&mut self, o: &ResultTotals) {
        self.games += o.games;
        self.plies += o.plies;
        self.repetitions += o.repetitions;
        self.rulings.merge(&o.rulings);
        self.ended.merge(&o.ended);
    }
}

/// The totals of many xiangqi games: exact sums, so the totals of the parts of a collection
/// merged ([`XiangqiTotals::merge`]) are the totals of the whole.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct XiangqiTotals {
    /// Games reviewed.
    pub games: u64,
    /// Games that could not be read, skipped.
    pub skipped: u64,
    pub plies: u64,
    /// Repetitions (runs of plies whose positions stood before).
    pub repetitions: u64,
    /// Games with at least one repetition.
    pub games_with_repetition: u64,
    /// Repetitions ruled, by kind.
    pub rulings: RulingCounts,
    /// Of those, the ones that ended their game (the result agrees).
    pub ended: RulingCounts,
    /// Rulings (perpetual check or chase) against Red, and against Black.
    pub against_red: u64,
    pub against_black: u64,
    /// Games ending with the side to move without a legal move.
    pub checkmates: u64,
    pub stalemates: u64,
    /// The same by result: `1-0`, `0-1`, `1/2-1/2`, `*` (unknown).
    pub by_result: BTreeMap<String, ResultTotals>,
}

impl XiangqiTotals {
    /// Adds a reviewed game.
    pub fn add(&mut self, r: &XqReview) {
        let mut part = ResultTotals {
            games: 1,
            plies: r.plies() as u64,
            repetitions: r.repetitions.len() as u64,
            ..ResultTotals::default()
        };
        for ruling in &r.rulings {
            *part.rulings.slot(ruling.kind) += 1;
            if ruling.ended_game {
                *part.ended.slot(ruling.kind) += 1;
            }
            match ruling.against() {
                Some(Color::Red) => self.against_red += 1,
                Some(Color::Black) => self.against_black += 1,
                None => {}
            }
        }
        self.games += 1;
        self.plies += part.plies;
        self.repetitions += part.repetitions;
        self.games_with_repetition += u64::from(!r.repetitions.is_empty());
        self.rulings.merge(&part.rulings);
        self.ended.merge(&part.ended);
        match r.ending {
            Some(Ending::Checkmate) => self.checkmates += 1,
            Some(Ending::Stalemate) => self.stalemates += 1,
            None => {}
        }
        self.by_result
            .entry(r.result.pgn().to_string())
            .or_default()
            .merge(&part);
    }

    /// Counts a game that could not be read.
    pub fn add_skipped(&mut self) {
        self.skipped += 1;
    }

    /// Adds the totals of another part of the collection.
    pub fn merge(&mut self, o: &XiangqiTotals) {
        self.games += o.games;
        self.skipped += o.skipped;
        self.plies += o.plies;
        self.repetitions += o.repetitions;
        self.games_with_repetition += o.games_with_repetition;
        self.rulings.merge(&o.rulings);
        self.ended.merge(&o.ended);
        self.against_red += o.against_red;
        self.against_black += o.against_black;
        self.checkmates += o.checkmates;
        self.stalemates += o.stalemates;
        for (k, v) in &o.by_result {
            self.by_result.entry(k.clone()).or_default().merge(v);
        }
    }

    /// The totals in words, a few lines.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let pct = |n: u64, of: u64| {
            if of == 0 {
                String::new()
            } else {
                format!(" ({:.1}%)", n as f64 * 100.0 / of as f64)
            }
        };
        writeln!(
            out,
            "xiangqi: {} games ({} skipped), {} plies",
            self.games, self.skipped, self.plies
        )?;
        writeln!(
            out,
            "  repetitions: {} in {} games{}",
            self.repetitions,
            self.games_with_repetition,
            pct(self.games_with_repetition, self.games)
        )?;
        writeln!(
            out,
            "  rulings: {}, of which {} ended the game; against Red {}, against Black {}",
            self.rulings.total(),
            self.ended.total(),
            self.against_red,
            self.against_black
        )?;
        for k in RulingKind::ALL {
            writeln!(
                out,
                "    {:<16} {:>7}  ended the game {:>7}",
                k.name(),
                self.rulings.get(k),
                self.ended.get(k)
            )?;
        }
        writeln!(
            out,
            "  no legal move at the end: checkmate {}, stalemate {}",
            self.checkmates, self.stalemates
        )?;
        writeln!(out, "  by result:")?;
        for (result, t) in &self.by_result {
            let kinds: Vec<String> = RulingKind::ALL
                .iter()
                .filter(|&&k| t.rulings.get(k) > 0)
                .map(|&k| {
                    format!(
                        "{} {} ({} ended)",
                        k.name(),
                        t.rulings.get(k),
                        t.ended.get(k)
                    )
                })
                .collect();
            writeln!(
                out,
                "    {:<8} {:>7} games{}, {} plies, {} repetitions, rulings: {}",
                result,
                t.games,
                pct(t.games, self.games),
                t.plies,
                t.repetitions,
                if kinds.is_empty() {
                    "none".to_string()
                } else {
                    kinds.join(", ")
                }
            )?;
        }
        Ok(())
    }
}
