//! `threefold analyze`: what the rules say about every ply of a game.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, bail};
use shakmaty::Move;
use threefold::rules::analysis::{JsonPly, PlyReport, report_current};
use threefold::rules::notation::Refusal;
use threefold::rules::{Game, PlayError, pgn};

/// Arguments of `threefold analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub input: GameArgs,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The game a command reads: `--fen`, `--moves`, `--san`, `--pgn [--game N]` (shared by
/// `analyze` and `detectors`).
#[derive(clap::Args, Debug)]
pub struct GameArgs {
    /// Start position (default: the standard start position).
    #[arg(long, conflicts_with = "pgn")]
    pub fen: Option<String>,
    /// Moves in UCI, separated by spaces ("e2e4 e7e5 ...").
    #[arg(long, conflicts_with_all = ["san", "pgn"], allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Moves in SAN, separated by spaces ("e4 e5 Nf3 ..."; move numbers allowed).
    #[arg(long, conflicts_with = "pgn", allow_hyphen_values = true)]
    pub san: Option<String>,
    /// Read the game from a PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Which game of the PGN file (1 = the first, the default).
    // clap lets a required argument go missing when it conflicts with one given
    // (`--moves ... --game 2` would pass `requires` alone): the conflicts say it.
    #[arg(long, requires = "pgn", conflicts_with_all = ["fen", "moves", "san"])]
    pub game: Option<usize>,
}

/// Reads the game of `args` and calls `ply` with the game at its start position and after
/// each move. A move that cannot be played ends the reading with its error, after `ply` has
/// seen every position before it (`analyze` and `detectors` then print the error only:
/// [`whole_or_error`]).
pub fn each_ply(args: &GameArgs, mut ply: impl FnMut(&Game) -> Result<()>) -> Result<()> {
    let mut game = match (&args.pgn, &args.fen) {
        (Some(path), _) => {
            let (_, game) = pgn::read_game_file(path, args.game.unwrap_or(1))?;
            // Re-analyse from the start so every ply is reported.
            let mut fresh = Game::from_position(game.start().clone());
            ply(&fresh)?;
            for m in game.moves() {
                fresh.play(m)?;
                ply(&fresh)?;
            }
            return Ok(());
        }
        (None, Some(fen)) => Game::from_fen(fen)?,
        (None, None) => Game::new(),
    };
    // SAN is read as PGN movetext (move numbers, results and comments skipped), each move
    // as written, then read as the trainer reads a typed move.
    let (tokens, san): (Vec<String>, bool) = match (&args.moves, &args.san) {
        (Some(m), _) => (m.split_whitespace().map(str::to_string).collect(), false),
        (None, Some(s)) => match pgn::move_list_as_written(s) {
            Ok(moves) => (moves.into_iter().map(|m| m.san).collect(), true),
            Err((_, msg)) => bail!("--san: {msg}"),
        },
        (None, None) => (Vec::new(), false),
    };
    ply(&game)?;
    for tok in tokens {
        if san {
            // SAN read as the trainer reads typed moves: a refusal says why.
            let ply = game.len() + 1;
            match threefold::rules::notation::parse_move_lenient(game.position(), &tok) {
                Ok(m) => game.play(m)?,
                // Text that is no move at all is quoted: it may be anything.
                Err(e) if e.refusal == Refusal::Unreadable => {
                    bail!("--san, ply {ply}: '{}' is {}", e.text, e.refusal)
                }
                Err(e) => bail!("--san, ply {ply}: {e}"),
            }
        } else if let Err(e) = game.play_uci(&tok) {
            match e {
                // This names the move, its ply and the position; the reason is the one
                // the trainer gives a typed move.
                PlayError::Illegal { .. } => {
                    match threefold::rules::notation::parse_move_lenient(game.position(), &tok) {
                        Err(why) => bail!("{e}: {}", why.refusal),
                        Ok(_) => bail!(e),
                    }
                }
                PlayError::Ambiguous { .. } => bail!(e),
                _ => bail!("{e} (ply {})", game.len() + 1),
            }
        }
        ply(&game)?;
    }
    Ok(())
}

/// Run `analyze`, writing to `out`. Errors are user-facing one-liners, and a game that
/// cannot be read to its end prints nothing: the rows are kept until the last move is
/// played, so a table on stdout is always a whole game's.
pub fn run(args: &AnalyzeArgs, out: &mut dyn Write) -> Result<()> {
    whole_or_error(out, |rows| {
        let mut printer = Printer::new(args.json, rows);
        each_ply(&args.input, |game| printer.row(game))?;
        printer.finish()
    })
}

/// Output that is all or nothing: `write` writes into a buffer, which goes to `out` only if
/// it succeeds, so input that cannot be read to its end prints the error only (`analyze`
/// and `detectors` both answer so).
pub fn whole_or_error(
    out: &mut dyn Write,
    write: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let mut rows = Vec::new();
    write(&mut rows)?;
    out.write_all(&rows)?;
    Ok(())
}

struct Printer<'a> {
    json: bool,
    out: std::io::BufWriter<&'a mut dyn Write>,
    rows: usize,
}

impl<'a> Printer<'a> {
    fn new(json: bool, out: &'a mut dyn Write) -> Printer<'a> {
        Printer {
            json,
            out: std::io::BufWriter::new(out),
            rows: 0,
        }
    }

    fn row(&mut self, game: &Game) -> Result<()> {
        let r = report_current(game);
        if self.json {
            serde_json::to_writer(&mut self.out, &JsonPly::new(game, &r))?;
            writeln!(self.out)?;
        } else {
            // The header comes with the first row: input that cannot be read prints nothing.
            if self.rows == 0 {
                writeln!(
                    self.out,
                    "{:>5}  {:<12} {:>4}  {:<16} {:<26} {:<14} outcome",
                    "ply", "move", "rep", "earlier", "claim 9.2 (now / with)", "claim 9.3"
                )?;
            }
            writeln!(self.out, "{}", table_row(game, &r))?;
        }
        self.rows += 1;
        Ok(())
    }

    fn finish(mut self) -> Result<()> {
        self.out.flush()?;
        Ok(())
    }
}

fn table_row(game: &Game, r: &PlyReport) -> String {
    let mv = if r.ply == 0 {
        "start".to_string()
    } else {
        game.ply_label(r.ply)
    };
    let earlier = if r.earlier.is_empty() {
        "-".to_string()
    } else {
        r.earlier
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let sans = |moves: &[Move]| -> String {
        let pos = game.position();
        let mut v: Vec<String> = moves
            .iter()
            .map(|&m| shakmaty::san::San::from_move(pos, m).to_string())
            .collect();
        v.sort();
        v.join(" ")
    };
    let threefold = match (r.claim_threefold, r.claim_threefold_moves.is_empty()) {
        (true, true) => "now".to_string(),
        (true, false) => format!("now / {}", sans(&r.claim_threefold_moves)),
        (false, false) => format!("with {}", sans(&r.claim_threefold_moves)),
        (false, true) => "-".to_string(),
    };
    let fifty = if r.claim_fifty {
        "now".to_string()
    } else if !r.claim_fifty_moves.is_empty() {
        format!("with {} moves", r.claim_fifty_moves.len())
    } else {
        "-".to_string()
    };
    let outcome = r.outcome.map_or("-".to_string(), |o| o.to_string());
    format!(
        "{:>5}  {:<12} {:>4}  {:<16} {:<26} {:<14} {}",
        r.ply, mv, r.repetitions, earlier, threefold, fifty, outcome
    )
}
