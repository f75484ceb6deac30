//! `threefold review`: the post-game review of the games of a PGN file ([`threefold::review`]),
//! as a report, as JSON lines, or as an annotated PGN.

use std::io::{BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;
use shakmaty::{CastlingMode, Color};
use threefold::engine::Score;
use threefold::review::{self, Budget, FindingKind, Options, Review};
use threefold::rules::Game;
use threefold::rules::notation::color_name;
use threefold::rules::pgn::{self, Note, Notes, PgnReader, PgnRecord, claim_comment};
use threefold::rules::review::GameRecord;
use threefold::visible::visible;

/// Arguments of `threefold review`.
#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The PGN file of the games.
    #[arg(long)]
    pub pgn: PathBuf,
    /// Which game of the file (1 = the first).
    #[arg(long, default_value_t = 1, conflicts_with = "all")]
    pub game: usize,
    /// Review every game of the file (a game that cannot be read is named and skipped; exit 1
    /// at the end if any was).
    #[arg(long)]
    pub all: bool,
    /// One JSON object per finding instead of a report.
    #[arg(long)]
    pub json: bool,
    /// Search each position for this many milliseconds.
    #[arg(long, value_name = "MS", conflicts_with_all = ["nodes", "no_engine"])]
    pub movetime: Option<u64>,
    /// Search each position for this many nodes (default: 200000).
    #[arg(long, value_name = "N", conflicts_with = "no_engine")]
    pub nodes: Option<u64>,
    /// The rules' findings only (missed and incorrect claims): no search.
    #[arg(long)]
    pub no_engine: bool,
    /// The engine's transposition table in MB.
    #[arg(long, default_value_t = threefold::engine::DEFAULT_HASH_MB, value_parser = super::hash_mb_parser())]
    pub hash: usize,
    /// Write the games with the findings as comments to this PGN file.
    #[arg(long, value_name = "OUT.pgn")]
    pub annotate: Option<PathBuf>,
    /// Add every missed and incorrect claim found as a puzzle of the drill theme "From your
    /// games" (from-your-games.toml in the data directory).
    #[arg(long)]
    pub drills: bool,
    /// With --drills: keep the puzzle file in DIR instead of the data directory.
    #[arg(long, value_name = "DIR", requires = "drills")]
    pub drills_dir: Option<PathBuf>,
}

/// One line of `review --json`.
#[derive(Serialize)]
struct JsonFinding<'a> {
    game: usize,
    ply: usize,
    until_ply: usize,
    side: &'static str,
    kind: &'static str,
    #[serde(rename = "move")]
    mv: Option<String>,
    rule: Option<&'static str>,
    /// Centipawns from White's view (mates as ±(100000 − moves)).
    eval_before: Option<i32>,
    eval_after: Option<i32>,
    text: &'a str,
}

/// `review --all` skipped games it could not read (each named on stderr as it was met):
/// the error that ends the command once everything else is done, with exit status 1, as
/// `drills --check` exits when a puzzle file has a problem (2 is for a review that could
/// not be done).
#[derive(Debug, thiserror::Error)]
#[error(
    "{skipped} game{} of {games} skipped (not read: see above)",
    if *skipped == 1 { "" } else { "s" }
)]
pub struct GamesSkipped {
    pub skipped: usize,
    pub games: usize,
}

/// Run `review`, writing to `out`. Errors are user-facing one-liners; a game `--all` could
/// not read is reported and skipped, and ends the command with [`GamesSkipped`].
pub fn run(args: &ReviewArgs, out: &mut dyn Write) -> Result<()> {
    // The annotated file replaces what it is written over: never the games being read.
    if let Some(path) = &args.annotate
        && let (Ok(a), Ok(b)) = (path.canonicalize(), args.pgn.canonicalize())
        && a == b
    {
        anyhow::bail!(
            "--annotate {}: that is the file being reviewed; give the annotated games another name",
            path.display()
        );
    }
    let options = Options {
        budget: if args.no_engine {
            None
        } else {
            Some(match (args.movetime, args.nodes) {
                (Some(ms), _) => Budget::Movetime(Duration::from_millis(ms)),
                (None, Some(n)) => Budget::Nodes(n),
                (None, None) => review::DEFAULT_BUDGET,
            })
        },
        hash_mb: args.hash,
    };
    // The puzzle file is read before any game: one that cannot take puzzles is refused now.
    let mut puzzles = match args.drills {
        false => None,
        true => {
            let path = match &args.drills_dir {
                Some(dir) => dir.join(threefold::drills::from_games::FILE_NAME),
                None => threefold::drills::from_games::default_file().context(
                    "--drills: this platform has no data directory; give --drills-dir DIR",
                )?,
            };
            Some(threefold::drills::from_games::Collector::open(&path)?)
        }
    };
    let skipped = match &args.annotate {
        None => review_games(args, &options, out, None, &mut puzzles)?,
        // The annotated games go to a temporary file beside PATH as each game is reviewed,
        // renamed over PATH at the end (fsio's atomic write): a PATH that cannot be written
        // (no such directory, not a file) is refused before any game is searched, and a
        // review that fails leaves PATH as it was.
        Some(path) => {
            let mut failed = None;
            let mut skipped = None;
            let written = threefold::fsio::write_atomic_with(path, |file| {
                let mut annotated = std::io::BufWriter::new(file);
                match review_games(args, &options, out, Some(&mut annotated), &mut puzzles) {
                    Ok(s) => {
                        skipped = Some(s);
                        annotated.flush()
                    }
                    Err(e) => {
                        failed = Some(e);
                        Err(std::io::Error::other("the review failed"))
                    }
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            written.with_context(|| format!("cannot write {}", path.display()))?;
            skipped.unwrap_or_default()
        }
    };
    match skipped {
        None => Ok(()),
        Some(s) => Err(s.into()),
    }
}

/// Review the games asked for one at a time, as they are read: game `--game` (read as
/// `analyze --pgn` reads it), or with `--all` every game of the file, streamed, so only the
/// game being reviewed is held whatever the size of the file. Each game's report goes out
/// before the next game is read. With `--all`, a game that cannot be read is named on
/// stderr (its number, its line and the problem) and skipped, and the games after it are
/// reviewed; the games skipped, if any, are returned. With `--drills`, the puzzles found go
/// to `puzzles`, each once, and are added at the end.
fn review_games(
    args: &ReviewArgs,
    options: &Options,
    out: &mut dyn Write,
    mut annotated: Option<&mut dyn Write>,
    puzzles: &mut Option<threefold::drills::from_games::Collector>,
) -> Result<Option<GamesSkipped>> {
    let mut out = std::io::BufWriter::new(out);
    let stop = AtomicBool::new(false);
    let tty = std::io::stderr().is_terminal();
    let mut first = true;
    let mut each = |w: &mut dyn Write, index: usize, rec: &PgnRecord, game: &Game| -> Result<()> {
        let record = GameRecord::from_pgn(rec);
        let mut progress = |done: usize, total: usize| {
            if tty {
                let width = 30;
                let filled = done * width / total.max(1);
                eprint!(
                    "\rgame {index}: [{}{}] {done}/{total} positions",
                    "#".repeat(filled),
                    ".".repeat(width - filled)
                );
                if done == total {
                    eprint!("\r{}\r", " ".repeat(60));
                }
            }
        };
        let r = review::review(game, &record, options, &stop, &mut progress)?;
        if let Some(puzzles) = puzzles.as_mut() {
            let source = threefold::drills::from_games::source_from_tags(|n| rec.tag(n));
            for e in puzzles.add_review(game, &r.claims, source.as_deref()) {
                eprintln!("game {index}: {e}");
            }
        }
        if args.json {
            for f in &r.findings {
                let j = JsonFinding {
                    game: index,
                    ply: f.ply,
                    until_ply: f.until_ply,
                    side: match f.side {
                        Color::White => "white",
                        Color::Black => "black",
                    },
                    kind: f.kind.code(),
                    mv: f.mv.map(|m| m.to_uci(CastlingMode::Standard).to_string()),
                    rule: f.rule,
                    eval_before: f.eval_before.map(Score::cp),
                    eval_after: f.eval_after.map(Score::cp),
                    text: &f.text,
                };
                serde_json::to_writer(&mut *w, &j)?;
                writeln!(w)?;
            }
        } else {
            report(w, index, rec, game, &r)?;
        }
        if let (Some(a), Some(path)) = (&mut annotated, &args.annotate) {
            let text = annotate(rec, game, &r);
            let sep = if first { "" } else { "\n" };
            write!(a, "{sep}{text}").with_context(|| format!("cannot write {}", path.display()))?;
        }
        first = false;
        Ok(())
    };
    let mut skipped = None;
    if !args.all {
        let (rec, game) = pgn::read_game_file(&args.pgn, args.game)?;
        each(&mut out, args.game, &rec, &game)?;
    } else {
        let file = args.pgn.display().to_string();
        let f = threefold::fsio::open_regular(&args.pgn).map_err(|e| pgn::PgnError {
            file: file.clone(),
            line: None,
            reason: pgn::PgnReason::Open(std::sync::Arc::new(e)),
        })?;
        let mut reader = PgnReader::new(BufReader::new(f), &file);
        loop {
            match reader.next_game() {
                Ok(Some((rec, game))) => {
                    let index = reader.games_read() + reader.games_skipped();
                    each(&mut out, index, &rec, &game)?;
                }
                Ok(None) => break,
                Err(e) => {
                    // Reports so far go out before the line about the bad game.
                    out.flush()?;
                    let Some(bad) = reader.skip_bad_game()? else {
                        return Err(e.into());
                    };
                    let at = match e.line {
                        Some(l) => format!("{}:{l}", e.file),
                        None => e.file.clone(),
                    };
                    let line = format!(
                        "{at}: game {} (from line {}) skipped: {}",
                        bad.game, bad.line, e.reason
                    );
                    // Not eprintln!, which panics when stderr is a terminal that hung up.
                    let _ = writeln!(std::io::stderr(), "{}", visible(&line));
                }
            }
        }
        if reader.games_skipped() > 0 {
            skipped = Some(GamesSkipped {
                skipped: reader.games_skipped(),
                games: reader.games_read() + reader.games_skipped(),
            });
        } else if reader.games_read() == 0 {
            return Err(pgn::PgnError {
                file,
                line: None,
                reason: pgn::PgnReason::NoGame,
            }
            .into());
        }
    }
    if let Some(puzzles) = puzzles.take() {
        let added = puzzles.write()?;
        if args.json {
            eprintln!("{}", added.summary());
        } else {
            writeln!(out, "{}", added.summary())?;
        }
    }
    out.flush()?;
    Ok(skipped)
}

fn report(
    out: &mut dyn Write,
    index: usize,
    rec: &PgnRecord,
    game: &Game,
    r: &Review,
) -> Result<()> {
    let tag = |n: &str| visible(rec.tag(n).unwrap_or("?")).into_owned();
    let result = GameRecord::from_pgn(rec)
        .result
        .unwrap_or_else(|| "*".to_string());
    writeln!(
        out,
        "Game {index}: {} - {}, {} ({} plies)",
        tag("White"),
        tag("Black"),
        visible(&result),
        game.len()
    )?;
    if r.findings.is_empty() {
        writeln!(out, "  no findings")?;
    }
    for f in &r.findings {
        writeln!(
            out,
            "  {:<9} {:<5} {:<22} {}",
            f.place(game).to_string(),
            color_name(f.side),
            f.kind.code(),
            f.text
        )?;
    }
    for side in [Color::White, Color::Black] {
        let missed = r.claims.runs.iter().filter(|c| c.side == side).count();
        let turns: usize = r
            .claims
            .runs
            .iter()
            .filter(|c| c.side == side)
            .map(|c| c.chances.len())
            .sum();
        if missed > 0 {
            writeln!(
                out,
                "  {}: {missed} missed claim chance{} ({turns} move{} in all)",
                color_name(side),
                if missed == 1 { "" } else { "s" },
                if turns == 1 { "" } else { "s" }
            )?;
        }
    }
    writeln!(out)?;
    Ok(())
}

/// `[%eval 0.17]` / `[%eval #-3]`: the evaluation command of the PGN Specification
/// Supplement, from White's view.
fn eval_command(s: Score) -> String {
    match s {
        Score::Cp(c) if c.abs() >= 100_000 => {
            // A mated position: the game is over; no distance to give.
            String::new()
        }
        Score::Cp(c) => format!("[%eval {:.2}]", f64::from(c) / 100.0),
        Score::Mate(m) => format!("[%eval #{m}]"),
    }
}

/// The game as PGN with the findings as comments (`crates/review/README.md`, section "Output
/// and memory"): the findings about a position after the move into it, the findings about a
/// move after that move with a NAG, each repeated position marked "×3: same as after 12.Nf3,
/// 14.Nf3", the recorded claims kept as `[%claim ...]` and the engine's evaluation as
/// `[%eval ...]`.
fn annotate(rec: &PgnRecord, game: &Game, r: &Review) -> String {
    let mut notes = Notes::new();
    for ply in 0..=game.len() {
        let mut cmds = Vec::new();
        if let Some(Some(s)) = r.evals.get(ply) {
            let e = eval_command(*s);
            if !e.is_empty() && ply > 0 {
                cmds.push(e);
            }
        }
        for c in rec.claims.iter().filter(|c| c.ply == ply) {
            cmds.push(claim_comment(c.mark, c.ground));
        }
        if !cmds.is_empty() {
            notes.entry(ply).or_default().comments.push(cmds.join(" "));
        }
        let n = game.occurrences(ply);
        if n >= 2 {
            let earlier: Vec<String> = game
                .earlier(ply)
                .iter()
                .map(|&p| {
                    if p == 0 {
                        "the start position".to_string()
                    } else {
                        game.ply_label(p)
                    }
                })
                .collect();
            let first = if game.earlier(ply).first() == Some(&0) {
                "same as"
            } else {
                "same as after"
            };
            notes
                .entry(ply)
                .or_default()
                .comments
                .push(format!("×{n}: {first} {}", earlier.join(", ")));
        }
    }
    for f in &r.findings {
        // A finding about the move played from its position goes after that move.
        let about_move = !matches!(
            f.kind,
            FindingKind::Claim(_) | FindingKind::ClaimWorthTaking
        );
        let at = if about_move && f.ply < game.len() {
            f.ply + 1
        } else {
            f.ply
        };
        let n: &mut Note = notes.entry(at).or_default();
        if about_move
            && at > f.ply
            && let Some(g) = f.kind.nag()
            && !n.nags.contains(&g)
        {
            n.nags.push(g);
        }
        n.comments.push(f.text.clone());
    }
    let tags: Vec<(&str, &str)> = rec
        .tags
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()))
        .collect();
    pgn::write_annotated(game, &tags, &notes)
}
