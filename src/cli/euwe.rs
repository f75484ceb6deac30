//! `threefold euwe`: Euwe's Thue–Morse knight sequence, ply by ply, under the
//! former German rule and under FIDE's.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;
use shakmaty::san::San;
use threefold::rules::analysis::report_current;
use threefold::rules::euwe::{self, EuweIndex};
use threefold::rules::{EndingKind, Game};

/// Arguments of `threefold euwe`.
#[derive(clap::Args, Debug)]
pub struct EuweArgs {
    /// How many plies of the sequence to play.
    #[arg(long, default_value_t = 40)]
    pub plies: usize,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Row {
    ply: usize,
    thue_morse_index: u64,
    bit: u8,
    #[serde(rename = "move")]
    mv: String,
    occurrences: u32,
    claim_now: bool,
    claim_with: Vec<String>,
    fivefold_ended: bool,
    german_rule: Option<Vec<String>>,
}

pub fn run(args: &EuweArgs, out: &mut dyn Write) -> Result<()> {
    let mut out = std::io::BufWriter::new(out);
    let mut game = Game::new();
    if !args.json {
        writeln!(
            out,
            "{:>6} {:>6} {:>3}  {:<8} {:>4}  {:<18} {:<9} former German rule",
            "ply", "k", "t(k)", "move", "occ", "FIDE 9.2 claim", "9.6.1"
        )?;
    }
    let mut fivefold_ply = None;
    for ply in 1..=args.plies {
        let idx = EuweIndex::of_ply(ply);
        let m = euwe::euwe_move(ply);
        let san = San::from_move(game.position(), m).to_string();
        game.play_past_end(m)?;
        let r = report_current(&game);
        if fivefold_ply.is_none()
            && game
                .termination()
                .is_some_and(|t| t.ending.kind == EndingKind::FivefoldRepetition)
        {
            fivefold_ply = Some(ply);
        }
        let cube = euwe::german_rule_at(&game, ply);
        let claim_with: Vec<String> = {
            let pos = game.position();
            r.claim_threefold_moves
                .iter()
                .map(|&m| San::from_move(pos, m).to_string())
                .collect()
        };
        let row = Row {
            ply,
            thue_morse_index: idx.block,
            bit: idx.bit,
            mv: san,
            occurrences: r.repetitions,
            claim_now: r.claim_threefold,
            claim_with,
            fivefold_ended: fivefold_ply.is_some(),
            german_rule: cube.map(|c| c.moves(&game)),
        };
        if args.json {
            serde_json::to_writer(&mut out, &row)?;
            writeln!(out)?;
        } else {
            let claim = match (row.claim_now, row.claim_with.is_empty()) {
                (true, true) => "now".to_string(),
                (true, false) => format!("now / with {}", row.claim_with.join(",")),
                (false, false) => format!("with {}", row.claim_with.join(",")),
                (false, true) => "-".to_string(),
            };
            let ended = match fivefold_ply {
                Some(p) if p == ply => "ENDS NOW".to_string(),
                Some(p) => format!("since {p}"),
                None => "-".to_string(),
            };
            let german = match &row.german_rule {
                Some(moves) => format!("DRAW: {} played three times", moves.join(" ")),
                None => "no sequence of moves played three times in succession".to_string(),
            };
            writeln!(
                out,
                "{:>6} {:>6} {:>3}   {:<8} {:>4}  {:<18} {:<9} {}",
                ply, idx.block, idx.bit, row.mv, row.occurrences, claim, ended, german
            )?;
        }
    }
    out.flush()?;
    Ok(())
}
