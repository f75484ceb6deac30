//! `threefold detectors`: how five repetition detectors of chess programs see a game, ply
//! by ply, against the rules core (see `threefold::engine::repetition`).

use std::io::Write;

use anyhow::Result;
use serde::Serialize;
use shakmaty::Square;
use threefold::engine::DEFAULT_HASH_MB;
use threefold::engine::repetition::{
    Axon, Belle, BelleAnswer, Detector, Rookie, RookieAnswer, Step, Upcoming, Zarkov, axon, cuckoo,
};
use threefold::engine::tt::{OpenSlot, Tt};
use threefold::rules::Game;
use threefold::rules::analysis::moves_back_into_stretch;

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
    /// holds; a few slots show what happens when open positions share one).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
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
}

struct Detectors {
    zarkov: Zarkov,
    belle: Belle,
    rookie: Rookie,
    axon: Axon,
    upcoming: Upcoming,
}

fn uci_squares(from: Square, to: Square) -> String {
    format!("{from}{to}")
}

impl Detectors {
    fn step(&mut self, game: &Game) -> Row {
        let ply = game.len();
        let record = game.current();
        let step = match (ply, record.mv) {
            (0, _) | (_, None) => Step::start(record.key),
            (_, Some(m)) => Step::by_move(game.position_at(ply - 1), &m, record.key),
        };
        self.zarkov.push(step);
        self.belle.push(step);
        self.rookie.push(step);
        self.axon.push(step);
        self.upcoming.push(step);
        let pos = game.position();
        let zarkov = self.zarkov.answer(pos);
        let belle: BelleAnswer = self.belle.answer(pos);
        let rookie: RookieAnswer = self.rookie.answer(pos);
        let axon: axon::Scan = self.axon.answer(pos);
        let cycle: Option<cuckoo::Cycle> = self.upcoming.answer(pos);
        let exact = record.occurrence;
        let repeated = exact >= 2;
        let mut notes = Vec::new();
        let earlier = record.previous;
        let of_ply = |p: Option<usize>| p.map_or(String::new(), |p| format!(" of ply {p}"));

        if zarkov + 1 != exact {
            notes.push(format!(
                "ply {ply}, Zarkov: counted {zarkov} earlier occurrences, the rules core {}",
                exact - 1
            ));
        }
        if (rookie.verified > 0) != repeated {
            notes.push(format!(
                "ply {ply}, Rookie: the back-trace {} (counter {})",
                if repeated {
                    "missed a repetition"
                } else {
                    "verified a repetition that is not there"
                },
                if rookie.hit { "non-zero" } else { "zero" }
            ));
        }
        if belle.found != repeated {
            let why = if repeated && belle.slot == Some(OpenSlot::Shared) {
                let holder = self
                    .belle
                    .marks
                    .holder_of_last(&self.belle.tt)
                    .map_or(String::new(), |h| format!(" (ply {h})"));
                format!(
                    "missed the repetition{}: its slot is held by another open position{holder}, \
                     so it was never marked (a shared-slot loss)",
                    of_ply(earlier)
                )
            } else if repeated {
                format!(
                    "missed the repetition{}: the earlier occurrence was not marked (its slot \
                     was shared)",
                    of_ply(earlier)
                )
            } else {
                "an open entry of another position matched by its lock (a key collision in the \
                 table)"
                    .to_string()
            };
            notes.push(format!("ply {ply}, Belle: {why}"));
        }
        let axon_seen = axon.closed_after.is_some();
        if axon_seen != repeated {
            let why = match (axon.closed_after, earlier) {
                (Some(k), _) if k % 2 == 1 => format!(
                    "the chains closed over {k} plies, so the side to move differs — \
                     triangulation"
                ),
                (Some(k), _) => format!(
                    "the chains closed over {k} plies, but the position {k} plies back is not \
                     this one"
                ),
                (None, Some(p)) => {
                    let open = self.axon.0.open_chains(ply - p);
                    let chains: Vec<String> =
                        open.iter().map(|&(f, t)| format!("{f}→{t}")).collect();
                    if open.len() > axon::CHAINS {
                        format!(
                            "missed the repetition of ply {p}: more than {} chains, the list \
                             overflowed",
                            axon::CHAINS
                        )
                    } else {
                        format!(
                            "missed the repetition of ply {p}: chains {} stayed open — pieces of \
                             one kind exchanged squares",
                            chains.join(", ")
                        )
                    }
                }
                (None, None) => "missed a repetition".to_string(),
            };
            notes.push(format!("ply {ply}, Axon: {why}"));
        }
        let reference = !moves_back_into_stretch(game).is_empty();
        if cycle.is_some() != reference {
            notes.push(format!(
                "ply {ply}, cuckoo: {}",
                if reference {
                    "missed a move back to an earlier position of the stretch"
                } else {
                    "no legal move reaches the position it found"
                }
            ));
        }
        Row {
            ply,
            mv: record
                .mv
                .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()),
            exact,
            zarkov,
            rookie_hit: rookie.hit,
            rookie: rookie.verified > 0,
            belle: belle.found,
            belle_shared_slot: belle.slot == Some(OpenSlot::Shared),
            axon: axon_seen,
            axon_plies: axon.closed_after,
            cuckoo: cycle.is_some(),
            cuckoo_move: cycle.map(|c| uci_squares(c.from, c.to)),
            cuckoo_back: cycle.map(|c| c.back),
            disagreements: notes,
        }
    }
}

/// Run `detectors`, writing to `out`.
pub fn run(args: &DetectorsArgs, out: &mut dyn Write) -> Result<()> {
    let slots = args
        .belle_slots
        .map_or(Tt::slots_for_mb(DEFAULT_HASH_MB), |n| n as usize);
    let mut d = Detectors {
        zarkov: Zarkov::default(),
        belle: Belle::with_entries(slots),
        rookie: Rookie::default(),
        axon: Axon::default(),
        upcoming: Upcoming::default(),
    };
    let mut out = std::io::BufWriter::new(out);
    let mut notes: Vec<String> = Vec::new();
    let mut rows = 0;
    let json = args.json;
    let read = each_ply(&args.input, |game| {
        let row = d.step(game);
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
    });
    if !json && rows > 0 {
        if notes.is_empty() {
            writeln!(
                out,
                "\nEvery detector agrees with the rules core at every ply."
            )?;
        } else {
            writeln!(out, "\nDisagreements with the rules core (* in the table):")?;
            for n in &notes {
                writeln!(out, "  {n}")?;
            }
        }
    }
    out.flush()?;
    read
}

fn table_row(game: &Game, r: &Row) -> String {
    let mv = if r.ply == 0 {
        "start".to_string()
    } else {
        game.ply_label(r.ply)
    };
    let mark = |detector: &str| {
        if r.disagreements
            .iter()
            .any(|d| d.contains(&format!(", {detector}:")))
        {
            "*"
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
    let marks: String = ["Zarkov", "Rookie", "Belle", "Axon", "cuckoo"]
        .iter()
        .filter(|d| !mark(d).is_empty())
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "{:>5}  {:<12} {:>5} {:>6}  {:<9} {:<6} {:<8} {:<10} {}",
        r.ply,
        mv,
        r.exact,
        r.zarkov,
        format!("{rookie}{}", mark("Rookie")),
        format!("{belle}{}", mark("Belle")),
        format!("{axon}{}", mark("Axon")),
        format!("{cuckoo}{}", mark("cuckoo")),
        marks
    )
}
