//! `threefold review`: the post-game review of the games of a PGN file ([`threefold::review`]),
//! as a report, as JSON lines, or as an annotated PGN.

use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::progress::Progress;
use anyhow::{Context, Result};
use serde::Serialize;
use shakmaty::{CastlingMode, Color};
use threefold::engine::Score;
use threefold::review::scan::Batch;
use threefold::review::scan::quick::Quick;
use threefold::review::summary::{ChessDetail, GameTags, Summary};
use threefold::review::xiangqi::XqOptions;
use threefold::review::{self, Budget, FindingKind, Options, Review};
use threefold::rules::Game;
use threefold::rules::notation::color_name;
use threefold::rules::pgn::{self, Note, Notes, PgnReader, PgnRecord, claim_comment};
use threefold::rules::review::GameRecord;
use threefold::visible::visible;

/// Arguments of `threefold review`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ReviewArgs {
    #[command(subcommand)]
    pub command: Option<ReviewCommand>,
    /// The PGN file of the games: a .pgn file, a zstd-compressed one (.pgn.zst, decompressed
    /// as it is read), or - for standard input.
    #[arg(long, required = true)]
    pub pgn: Option<PathBuf>,
    /// Threads reading and reviewing the games with --all (default: one per core). The
    /// output is in the games' order whatever the count.
    #[arg(long, value_name = "N", requires = "all", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: Option<u16>,
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
    /// With --all: print the totals of the games (claims made and missed, repetitions,
    /// automatic endings, by time control, rating and result) instead of a report per game.
    #[arg(long, requires = "all")]
    pub summary: bool,
    /// With --all: write the totals as JSON to FILE (summaries of parts of a database merge
    /// with `threefold review merge`).
    #[arg(long, value_name = "FILE", requires = "all")]
    pub summary_json: Option<PathBuf>,
    /// With --all: every game is a xiangqi game, reviewed by the WXF judge (for collections
    /// written without a [Variant "xiangqi"] tag, in UCCI, ICCS, WXF or Chinese notation).
    /// Games with the tag are xiangqi games without it.
    #[arg(long, requires = "all")]
    pub xiangqi: bool,
    /// Xiangqi games: the earlier occurrences of a position before a repetition is ruled
    /// (1 or first-repetition: at the first repetition; 2 or third-occurrence: at the third
    /// occurrence), as `xiangqi judge --ntimes`.
    #[arg(long, default_value = "2", requires = "all", value_parser = super::ntimes_parser)]
    pub ntimes: threefold::xiangqi::RuleAt,
}

/// Subcommands of `threefold review`.
#[derive(clap::Subcommand, Debug)]
pub enum ReviewCommand {
    /// Add up summaries written by `review --all --summary-json` (of the parts of a
    /// database) into the summary of the whole, written as JSON to standard output.
    Merge {
        /// The summaries.
        #[arg(required = true, value_name = "SUMMARY.json")]
        files: Vec<PathBuf>,
    },
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

/// `review --all` was interrupted (Ctrl-C): what was reviewed before it has been written,
/// and the summary of those games if one was asked for; exit status 130, as a shell reports a
/// program SIGINT ended.
#[derive(Debug, thiserror::Error)]
#[error("interrupted after {games} game{}: the output above is of those", if *games == 1 { "" } else { "s" })]
pub struct Interrupted {
    pub games: usize,
}

/// Run `review`, writing to `out`. Errors are user-facing one-liners; a game `--all` could
/// not read is reported and skipped, and ends the command with [`GamesSkipped`].
pub fn run(args: &ReviewArgs, out: &mut dyn Write) -> Result<()> {
    if let Some(ReviewCommand::Merge { files }) = &args.command {
        return super::review_merge::merge_files(files, out);
    }
    let pgn_path = args
        .pgn
        .as_deref()
        .expect("clap requires --pgn without a subcommand");
    // The annotated file and the summary replace what they are written over: never the
    // games being read.
    for (flag, path) in [
        ("--annotate", &args.annotate),
        ("--summary-json", &args.summary_json),
    ] {
        if let Some(path) = path
            && pgn_path.as_os_str() != "-"
            && let (Ok(a), Ok(b)) = (path.canonicalize(), pgn_path.canonicalize())
            && a == b
        {
            anyhow::bail!(
                "{flag} {}: that is the file being reviewed; give it another name",
                path.display()
            );
        }
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

/// What is shown of a game before its findings: "Game 3: A - B, 1-0 (80 plies)".
struct Head {
    white: Option<String>,
    black: Option<String>,
    /// The recorded result ([`threefold::rules::review::recorded_result`]), `*` if none.
    result: String,
    plies: usize,
}

impl Head {
    fn of(rec: &PgnRecord, game: &Game) -> Head {
        Head {
            white: rec.tag("White").map(str::to_string),
            black: rec.tag("Black").map(str::to_string),
            result: GameRecord::from_pgn(rec)
                .result
                .unwrap_or_else(|| "*".to_string()),
            plies: game.len(),
        }
    }

    fn of_plain(g: &review::scan::quick::PlainGame) -> Head {
        Head {
            white: g.tags.white.clone(),
            black: g.tags.black.clone(),
            result: threefold::rules::review::recorded_result(g.result, g.tags.result.as_deref())
                .unwrap_or_else(|| "*".to_string()),
            plies: g.plies,
        }
    }
}

/// A game read and reviewed, kept whole when something is to be made of it.
struct Reviewed {
    rec: PgnRecord,
    game: Game,
    review: Review,
}

/// One game of a scan, as a worker hands it back.
enum Found {
    /// A game read (quickly, or by the full reader); `full` when its findings, its puzzles or
    /// its annotated PGN are to be written.
    Game {
        head: Head,
        full: Option<Box<Reviewed>>,
    },
    /// A game that could not be read: where, the line it starts on, and why.
    Skipped {
        at: String,
        line: usize,
        reason: String,
    },
    /// A game longer than the scan holds, passed over.
    TooLong { line: usize },
    /// A xiangqi game, reviewed by the WXF judge.
    Xiangqi(Box<review::xiangqi::XqReview>),
}

/// What the workers of a scan share.
struct Work<'a> {
    file: &'a str,
    options: &'a Options,
    stop: &'a AtomicBool,
    /// The quick reading may be used: only the rules' findings, no annotated PGN.
    quick: bool,
    /// Keep every game whole (annotated PGN, puzzles).
    keep_all: bool,
    /// Count the games' statistics (--summary, --summary-json).
    count: bool,
    /// Every game is a xiangqi game (--xiangqi).
    xiangqi: bool,
    xq_options: XqOptions,
}

/// What a worker makes of a batch: its games in order, and their statistics.
struct BatchDone {
    found: Vec<Found>,
    totals: Summary,
}

/// The statistics' view of a game's tags; the result as the report takes it (the movetext's
/// result token, else the `Result` tag).
fn game_tags<'a>(token: Option<&'a str>, tag: impl Fn(&str) -> Option<&'a str>) -> GameTags<'a> {
    GameTags {
        result: token.or_else(|| tag("Result")),
        time_control: tag("TimeControl"),
        white_elo: tag("WhiteElo"),
        black_elo: tag("BlackElo"),
    }
}

impl Work<'_> {
    /// Read and review the games of a batch.
    fn batch(&self, batch: &Batch) -> Result<BatchDone, threefold::engine::TtAllocError> {
        let mut done = BatchDone {
            found: Vec::with_capacity(batch.spans.len()),
            totals: Summary::default(),
        };
        for span in &batch.spans {
            if span.too_long {
                done.found.push(Found::TooLong { line: span.line });
                done.totals.chess.add_skipped();
                continue;
            }
            let piece = &batch.bytes[span.range.clone()];
            if span.cut_off && !piece.iter().all(u8::is_ascii_whitespace) {
                // The stream broke off in this game: it is not reviewed as if it were whole.
                done.found.push(Found::Skipped {
                    at: format!("{}:{}", self.file, span.line),
                    line: span.line,
                    reason: "the stream broke off in this game".to_string(),
                });
                done.totals.chess.add_skipped();
                continue;
            }
            self.span(piece, span.line, &mut done)?;
        }
        Ok(done)
    }

    /// The games of one piece of the stream.
    fn span(
        &self,
        piece: &[u8],
        line: usize,
        done: &mut BatchDone,
    ) -> Result<(), threefold::engine::TtAllocError> {
        // A byte order mark opens the first piece of a file written by some Windows tools.
        let piece = piece.strip_prefix(b"\xef\xbb\xbf").unwrap_or(piece);
        // The quick reading only where its plain games are used; elsewhere the reader tells a
        // xiangqi game (below) as the quick reading would.
        let quick = if self.xiangqi {
            Quick::Xiangqi
        } else if self.quick {
            review::scan::quick::read(piece)
        } else {
            Quick::Full
        };
        if quick == Quick::Xiangqi {
            self.xiangqi_game(piece, line, done);
            return Ok(());
        }
        let (found, totals) = (&mut done.found, &mut done.totals.chess);
        match quick {
            Quick::Empty => return Ok(()),
            Quick::Plain(g) => {
                if self.count {
                    totals.add(&game_tags(g.result, |n| g.tags.tag(n)), g.plies, None);
                }
                found.push(Found::Game {
                    head: Head::of_plain(&g),
                    full: None,
                });
                return Ok(());
            }
            Quick::Xiangqi | Quick::Full => {}
        }
        let mut reader = PgnReader::starting_at_line(piece, self.file, line);
        loop {
            match reader.next_game() {
                Ok(Some((rec, game))) => {
                    let record = GameRecord::from_pgn(&rec);
                    let r =
                        review::review(&game, &record, self.options, self.stop, &mut |_, _| {})?;
                    if self.count {
                        let detail = ChessDetail {
                            game: &game,
                            claims: &r.claims,
                            record: &record,
                        };
                        let tags = game_tags(rec.result.as_deref(), |n| rec.tag(n));
                        totals.add(&tags, game.len(), Some(detail));
                    }
                    let head = Head::of(&rec, &game);
                    let keep = self.keep_all || !r.findings.is_empty();
                    found.push(Found::Game {
                        head,
                        full: keep.then(|| {
                            Box::new(Reviewed {
                                rec,
                                game,
                                review: r,
                            })
                        }),
                    });
                }
                Ok(None) => return Ok(()),
                // A xiangqi game the quick reading did not tell (its Variant tag after a
                // FEN or an escaped value): the reader tells it, and the judge reviews it.
                Err(e)
                    if matches!(e.reason, pgn::PgnReason::Xiangqi { .. })
                        && reader.games_read() + reader.games_skipped() == 0 =>
                {
                    self.xiangqi_game(piece, line, done);
                    return Ok(());
                }
                Err(e) => {
                    let at = match e.line {
                        Some(l) => format!("{}:{l}", e.file),
                        None => e.file.clone(),
                    };
                    let bad = reader.skip_bad_game().ok().flatten();
                    totals.add_skipped();
                    found.push(Found::Skipped {
                        at,
                        line: bad.map_or(line, |b| b.line),
                        reason: e.reason.to_string(),
                    });
                    if bad.is_none() {
                        return Ok(());
                    }
                }
            }
        }
    }
}

impl Work<'_> {
    /// A xiangqi game: reviewed by the WXF judge ([`review::xiangqi`]).
    fn xiangqi_game(&self, piece: &[u8], line: usize, done: &mut BatchDone) {
        if piece.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let skipped = |at: String, reason: String| Found::Skipped { at, line, reason };
        let Ok(text) = std::str::from_utf8(piece) else {
            done.totals.xiangqi.add_skipped();
            done.found.push(skipped(
                format!("{}:{line}", self.file),
                "the game is not UTF-8 text".to_string(),
            ));
            return;
        };
        // The game's number is the sink's to give: 0 here, and the error's parts are kept.
        match review::xiangqi::review_game(text, self.file, line, 0, &self.xq_options) {
            Ok(r) => {
                if self.count {
                    done.totals.xiangqi.add(&r);
                }
                done.found.push(Found::Xiangqi(Box::new(r)));
            }
            Err(e) => {
                done.totals.xiangqi.add_skipped();
                done.found.push(Found::Skipped {
                    at: format!("{}:{}", e.file, e.line),
                    line: e.first_line,
                    reason: e.reason.to_string(),
                });
            }
        }
    }
}

/// Where the output of a review goes, game by game in the file's order.
struct Sink<'a, 'w, 'n, 'p> {
    args: &'a ReviewArgs,
    out: std::io::BufWriter<&'w mut dyn Write>,
    annotated: Option<&'n mut dyn Write>,
    puzzles: &'p mut Option<threefold::drills::from_games::Collector>,
    /// Games met so far (read or skipped): the number of the next is one more.
    games: usize,
    skipped: usize,
    /// The statistics of the games written so far.
    summary: Summary,
}

impl Sink<'_, '_, '_, '_> {
    fn game(&mut self, head: &Head, full: Option<&Reviewed>) -> Result<()> {
        self.games += 1;
        let index = self.games;
        if let (Some(f), Some(puzzles)) = (full, self.puzzles.as_mut()) {
            let source = threefold::drills::from_games::source_from_tags(|n| f.rec.tag(n));
            for e in puzzles.add_review(&f.game, &f.review.claims, source.as_deref()) {
                eprintln!("game {index}: {e}");
            }
        }
        if self.args.summary {
            // The totals at the end instead of a report per game.
        } else if self.args.json {
            if let Some(f) = full {
                write_json(&mut self.out, index, &f.review)?;
            }
        } else {
            report(
                &mut self.out,
                index,
                head,
                full.map(|f| (&f.game, &f.review)),
            )?;
        }
        if let (Some(a), Some(path), Some(f)) = (&mut self.annotated, &self.args.annotate, full) {
            let text = annotate(&f.rec, &f.game, &f.review);
            let sep = if index == 1 { "" } else { "\n" };
            write!(a, "{sep}{text}").with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }

    fn skipped(&mut self, at: &str, line: Option<usize>, reason: &str) -> Result<()> {
        self.games += 1;
        self.skipped += 1;
        // Reports so far go out before the line about the bad game.
        self.out.flush()?;
        let from = line
            .map(|l| format!(" (from line {l})"))
            .unwrap_or_default();
        let text = format!("{at}: game {}{from} skipped: {reason}", self.games);
        // Not eprintln!, which panics when stderr is a terminal that hung up.
        let _ = writeln!(std::io::stderr(), "{}", visible(&text));
        Ok(())
    }

    fn found(&mut self, f: Found, file: &str) -> Result<()> {
        match f {
            Found::Game { head, full } => self.game(&head, full.as_deref()),
            Found::Xiangqi(r) => {
                self.games += 1;
                if self.args.summary {
                    Ok(())
                } else if self.args.json {
                    Ok(r.write_json(&mut self.out, self.games)?)
                } else {
                    Ok(r.write_report(&mut self.out, self.games)?)
                }
            }
            Found::Skipped { at, line, reason } => self.skipped(&at, Some(line), &reason),
            Found::TooLong { line } => self.skipped(
                &format!("{file}:{line}"),
                None,
                &format!(
                    "longer than {} (passed over)",
                    threefold::fsio::human_size(review::scan::split::MAX_GAME_BYTES as u64)
                ),
            ),
        }
    }
}

/// Review the games asked for, as they are read: game `--game` (read as `analyze --pgn`
/// reads it), or with `--all` every game of the stream ([`review::scan`]: read and reviewed
/// on `--threads` threads, the output in the games' order), so memory stays bounded whatever
/// the size of the file. With `--all`, a game that cannot be read is named on stderr (its
/// number, its line and the problem) and skipped, and the games after it are reviewed; the
/// games skipped, if any, are returned. With `--drills`, the puzzles found go to `puzzles`,
/// each once, and are added at the end.
fn review_games(
    args: &ReviewArgs,
    options: &Options,
    out: &mut dyn Write,
    annotated: Option<&mut dyn Write>,
    puzzles: &mut Option<threefold::drills::from_games::Collector>,
) -> Result<Option<GamesSkipped>> {
    let input = open_input(args.pgn.as_deref().expect("--pgn"))?;
    let file = input.name.clone();
    // With --all, a progress line on stderr when it is a terminal: games, the file read so
    // far (compressed bytes for a .zst), its rate, and the time left when the size is known.
    let progress = Progress::bytes(input.size.filter(|_| args.all), "games");
    let consumed = std::sync::Arc::clone(&input.consumed);
    let mut lines = progress.lines(out);
    let mut sink = Sink {
        args,
        out: std::io::BufWriter::new(&mut lines),
        annotated,
        puzzles,
        games: 0,
        skipped: 0,
        summary: Summary::default(),
    };
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let mut skipped = None;
    if !args.all {
        let (rec, game) = pgn::read_game_from(BufReader::new(input.reader), &file, args.game)?;
        let record = GameRecord::from_pgn(&rec);
        // The positions searched, on a progress line when stderr is a terminal.
        let mut searched: Option<(Progress, usize)> = None;
        let mut progress = |done: usize, total: usize| {
            let (bar, shown) =
                searched.get_or_insert_with(|| (Progress::count(total as u64, "positions"), 0));
            bar.inc(done.saturating_sub(*shown) as u64);
            *shown = done;
        };
        let r = review::review(&game, &record, options, &stop, &mut progress)?;
        drop(searched);
        let head = Head::of(&rec, &game);
        sink.games = args.game - 1;
        sink.game(
            &head,
            Some(&Reviewed {
                rec,
                game,
                review: r,
            }),
        )?;
    } else {
        // Ctrl-C ends the scan after the games already read, which are written; a second
        // Ctrl-C ends the program at once.
        #[cfg(unix)]
        {
            use signal_hook::consts::SIGINT;
            signal_hook::flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&stop))?;
            signal_hook::flag::register(SIGINT, Arc::clone(&stop))?;
        }
        let threads = match args.threads {
            Some(n) => usize::from(n),
            None => std::thread::available_parallelism().map_or(1, usize::from),
        };
        let work = Work {
            file: &file,
            options,
            stop: &stop,
            quick: options.budget.is_none() && args.annotate.is_none(),
            keep_all: args.annotate.is_some() || args.drills,
            count: args.summary || args.summary_json.is_some(),
            xiangqi: args.xiangqi,
            xq_options: XqOptions {
                rule_at: args.ntimes,
            },
        };
        // The summary file is begun now: one that cannot be written is refused before the
        // first game is read, and it is put in place whole at the end.
        let summary_file = match &args.summary_json {
            Some(path) => Some(
                threefold::fsio::begin_write(path)
                    .with_context(|| format!("cannot write {}", path.display()))?,
            ),
            None => None,
        };
        // With the engine a game takes seconds: one game a batch keeps the threads busy. A
        // batch whose games are all kept whole (their positions, for --annotate or --drills)
        // is smaller, so the batches in flight stay a few megabytes.
        let batch_bytes = if options.budget.is_some() {
            1
        } else if work.keep_all {
            review::scan::BATCH_BYTES / 16
        } else {
            review::scan::BATCH_BYTES
        };
        let scanned = review::scan::run(
            input.reader,
            threads,
            batch_bytes,
            &stop,
            &|b| work.batch(b),
            &mut |done: Result<BatchDone, _>, _read| -> Result<()> {
                // After Ctrl-C nothing more is written: a game being searched then was cut
                // short, and the output is of whole games only.
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return Ok(());
                }
                let done = done?;
                sink.summary.merge(&done.totals);
                progress.set(
                    consumed.load(std::sync::atomic::Ordering::Relaxed),
                    (sink.games + done.found.len()) as u64,
                );
                for f in done.found {
                    sink.found(f, &file)?;
                }
                // Each batch's reports go out as it is done (a batch is one game with the
                // engine).
                sink.out.flush()?;
                Ok(())
            },
        );
        // A stream that cannot be read on (a damaged disk, a .zst cut off): the games read
        // before are written, and their summary, then the error.
        let broken = match scanned {
            Ok(()) => None,
            Err(review::scan::ScanError::Sink(e)) => return Err(e),
            Err(review::scan::ScanError::Read(e)) => Some(pgn::PgnError {
                file: file.clone(),
                line: None,
                reason: pgn::PgnReason::Read(std::sync::Arc::new(e)),
            }),
        };
        let interrupted = stop.load(std::sync::atomic::Ordering::Relaxed);
        if args.summary {
            if interrupted {
                writeln!(sink.out, "The games before Ctrl-C:")?;
            } else if broken.is_some() {
                writeln!(sink.out, "The games before the stream broke off:")?;
            }
            sink.summary.write_text(&mut sink.out)?;
        }
        if let (Some(file), Some(path)) = (summary_file, &args.summary_json) {
            let mut text = serde_json::to_string_pretty(&sink.summary)?;
            text.push('\n');
            file.finish(text.as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        if let Some(e) = broken {
            sink.out.flush()?;
            return Err(e.into());
        }
        if interrupted {
            sink.out.flush()?;
            return Err(Interrupted { games: sink.games }.into());
        }
        if sink.skipped > 0 {
            skipped = Some(GamesSkipped {
                skipped: sink.skipped,
                games: sink.games,
            });
        } else if sink.games == 0 {
            return Err(pgn::PgnError {
                file,
                line: None,
                reason: pgn::PgnReason::NoGame,
            }
            .into());
        }
    }
    if let Some(puzzles) = sink.puzzles.take() {
        let added = puzzles.write()?;
        if args.json {
            eprintln!("{}", added.summary());
        } else {
            writeln!(sink.out, "{}", added.summary())?;
        }
    }
    sink.out.flush()?;
    Ok(skipped)
}

/// Open the games' stream ([`review::scan::input::open`]), its errors as the PGN reader's.
fn open_input(path: &std::path::Path) -> Result<review::scan::input::Input> {
    use review::scan::input::OpenError;
    review::scan::input::open(path).map_err(|e| match e {
        OpenError::Open(e) => pgn::PgnError {
            file: path.display().to_string(),
            line: None,
            reason: pgn::PgnReason::Open(std::sync::Arc::new(e)),
        }
        .into(),
        e => anyhow::Error::new(e),
    })
}

/// The findings of a game as `--json` lines.
fn write_json(w: &mut dyn Write, index: usize, r: &Review) -> Result<()> {
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
    Ok(())
}

/// The report of one game: its head, then its findings (`full`: the game and its review;
/// `None` for a game with no findings).
fn report(
    out: &mut dyn Write,
    index: usize,
    head: &Head,
    full: Option<(&Game, &Review)>,
) -> Result<()> {
    let tag = |v: &Option<String>| visible(v.as_deref().unwrap_or("?")).into_owned();
    writeln!(
        out,
        "Game {index}: {} - {}, {} ({} plies)",
        tag(&head.white),
        tag(&head.black),
        visible(&head.result),
        head.plies
    )?;
    let Some((game, r)) = full.filter(|(_, r)| !r.findings.is_empty()) else {
        writeln!(out, "  no findings")?;
        writeln!(out)?;
        return Ok(());
    };
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
