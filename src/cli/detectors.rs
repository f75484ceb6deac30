//! `threefold detectors`: how five repetition detectors of chess programs see a game, ply
//! by ply, against the rules core (see `threefold::engine::chess::repetition`).

use std::io::Write;

use anyhow::{Context, Result};
use serde::Serialize;
use threefold::engine::chess::repetition::report::{PlyReport, Replay, Which};
use threefold::engine::tt::OpenSlot;
use threefold::rules::Game;

use super::analyze::{GameArgs, each_ply};

/// Arguments of `threefold detectors`.
#[derive(clap::Args, Debug)]
pub struct DetectorsArgs {
    #[command(flatten)]
    pub input: GameArgs,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Slots of Belle's transposition table (default: as many as the engine's 16 MB table
    /// holds; a few slots show what happens when open positions share one). At most as many
    /// as the largest Hash holds, and refused as that Hash would be when the memory is not
    /// there.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub belle_slots: Option<u64>,
}

/// One ply as `--json` prints it.
#[derive(Serialize, Debug)]
struct Row {
    ply: usize,
    /// The move into this position (UCI), null at ply 0.
    #[serde(rename = "move")]
    mv: Option<String>,
    /// The rules core's occurrence count, this one included.
    exact: u32,
    /// Earlier occurrences Zarkov's scan found.
    zarkov: u32,
    /// Rookie's counter was non-zero before verification.
    rookie_hit: bool,
    /// Rookie's back-trace verified a repetition.
    rookie: bool,
    /// Belle found an open entry.
    belle: bool,
    /// Belle could not mark this position: another open position held its slot.
    belle_shared_slot: bool,
    /// Axon's chains all closed.
    axon: bool,
    /// Over how many plies they closed.
    axon_plies: Option<usize>,
    /// The side to move has a move to an earlier position of the stretch (cuckoo tables).
    cuckoo: bool,
    /// That move (UCI squares) and how many plies back its position stands.
    cuckoo_move: Option<String>,
    cuckoo_back: Option<usize>,
    /// Each detector's disagreement with the rules core, explained.
    disagreements: Vec<String>,
    /// The detectors that disagree.
    #[serde(skip)]
    marks: Vec<Which>,
}

impl Row {
    fn of(game: &Game, r: PlyReport) -> Row {
        let record = game.record(r.ply);
        Row {
            ply: r.ply,
            mv: record
                .mv
                .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()),
            exact: r.exact,
            zarkov: r.zarkov,
            rookie_hit: r.rookie.hit,
            rookie: r.says_repetition(Which::Rookie),
            belle: r.belle.found,
            belle_shared_slot: r.belle.slot == Some(OpenSlot::Shared),
            axon: r.says_repetition(Which::Axon),
            axon_plies: r.axon.closed_after,
            cuckoo: r.cuckoo.is_some(),
            cuckoo_move: r.cuckoo.map(|c| format!("{}{}", c.from, c.to)),
            cuckoo_back: r.cuckoo.map(|c| c.back),
            disagreements: r.notes().collect(),
            marks: r.disagreements.iter().map(|d| d.which).collect(),
        }
    }
}

/// Run `detectors`, writing to `out`.
pub fn run(args: &DetectorsArgs, out: &mut dyn Write) -> Result<()> {
    let mut replay = match args.belle_slots {
        Some(n) => Replay::with_belle_slots(n).with_context(|| format!("--belle-slots {n}"))?,
        None => Replay::default(),
    };
    // Bad input prints the error only, as `analyze` does: no rows, no "every detector agrees".
    super::analyze::whole_or_error(out, |out| write_rows(args, &mut replay, out))
}

/// The table (or JSON rows) and the disagreements, for a game read to its end.
fn write_rows(args: &DetectorsArgs, replay: &mut Replay, out: &mut dyn Write) -> Result<()> {
    let mut out = std::io::BufWriter::new(out);
    let mut notes: Vec<String> = Vec::new();
    let mut rows = 0;
    let json = args.json;
    each_ply(&args.input, |game| {
        let row = Row::of(game, replay.step(game, game.len()));
        if json {
            serde_json::to_writer(&mut out, &row)?;
            writeln!(out)?;
        } else {
            if rows == 0 {
                writeln!(
                    out,
                    "{:>5}  {:<12} {:>5} {:>6}  {:<9} {:<6} {:<8} {:<10} marks",
                    "ply", "move", "exact", "zarkov", "rookie", "belle", "axon", "cuckoo"
                )?;
            }
            writeln!(out, "{}", table_row(game, &row))?;
        }
        rows += 1;
        notes.extend(row.disagreements);
        Ok(())
    })?;
    if !json && rows > 0 {
        if notes.is_empty() {
            writeln!(
                out,
                "\nEvery detector agrees with the rules core at every ply."
            )?;
        } else {
            writeln!(out, "\nDisagreements with the rules core (✗ in the table):")?;
            for n in &notes {
                writeln!(out, "  {n}")?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn table_row(game: &Game, r: &Row) -> String {
    let mv = if r.ply == 0 {
        "start".to_string()
    } else {
        game.ply_label(r.ply)
    };
    // The trainer's mark for a detector that errs ("How engines see it"): one meaning per
    // mark (the trainer's `*` marks the plies a ruling names).
    let mark = |detector: Which| {
        if r.marks.contains(&detector) {
            "✗"
        } else {
            ""
        }
    };
    let rookie = match (r.rookie_hit, r.rookie) {
        (false, _) => "-".to_string(),
        (true, false) => "hit".to_string(),
        (true, true) => "hit rep".to_string(),
    };
    let belle = match (r.belle, r.belle_shared_slot) {
        (true, _) => "open",
        (false, true) => "lost",
        (false, false) => "-",
    };
    let axon = r.axon_plies.map_or("-".to_string(), |k| format!("rep/{k}"));
    let cuckoo = match (&r.cuckoo_move, r.cuckoo_back) {
        (Some(m), Some(b)) => format!("{m}/{b}"),
        _ => "-".to_string(),
    };
    let marks: String = r
        .marks
        .iter()
        .map(|d| d.label())
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "{:>5}  {:<12} {:>5} {:>6}  {:<9} {:<6} {:<8} {:<10} {}",
        r.ply,
        mv,
        r.exact,
        r.zarkov,
        format!("{rookie}{}", mark(Which::Rookie)),
        format!("{belle}{}", mark(Which::Belle)),
        format!("{axon}{}", mark(Which::Axon)),
        format!("{cuckoo}{}", mark(Which::Cuckoo)),
        marks
    )
}
