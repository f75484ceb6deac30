//! `threefold euwe`: Euwe's Thue–Morse knight sequence, ply by ply, under the
//! former German rule and under FIDE's.
//!
//! Linear in the number of plies but for the former German rule's runs
//! (`rules::euwe::Successions`, `O(n log² n)`): about 3 s of CPU a million
//! plies in a release build, and some 260 bytes of memory a ply (the game
//! is kept), so `--plies` is capped at [`MAX_PLIES`].

use std::io::Write;

use anyhow::Result;
use serde::Serialize;
use shakmaty::san::San;
use threefold::rules::euwe::{self, CUBE_FREE, EuweIndex, Repeat, Successions, count_plies};
use threefold::rules::{EndingKind, Game, claim};

/// The most plies `--plies` takes (the game is kept in memory, about 260
/// bytes a ply: some 260 MB at the cap).
pub const MAX_PLIES: usize = 1_000_000;

/// Arguments of `threefold euwe`.
#[derive(clap::Args, Debug)]
pub struct EuweArgs {
    /// How many plies of the sequence to play (at most 1,000,000: the game is
    /// kept in memory, about 260 bytes a ply; time grows as n log² n, a
    /// million plies take about 3 s).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(0..=MAX_PLIES as u64))]
    pub plies: u64,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// A sequence repeated in succession, as `--json` prints it.
#[derive(Serialize)]
struct RepeatJson {
    /// The ply the sequence is first played from.
    start: usize,
    /// Its number of plies.
    len: usize,
    /// How many plies of the repetition were played (2·len: twice).
    played: usize,
    /// How many more plies would make three times in succession.
    missing: usize,
}

impl From<Repeat> for RepeatJson {
    fn from(r: Repeat) -> Self {
        RepeatJson {
            start: r.start,
            len: r.len,
            played: r.played,
            missing: r.missing(),
        }
    }
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
    /// The sequence played three times in succession by this ply, if any
    /// (the former German rule; never in Euwe's sequence).
    german_rule: Option<Vec<String>>,
    /// The longest sequence played twice in succession so far.
    longest_twice: Option<RepeatJson>,
    /// The repetition in succession closest to three times so far.
    closest_to_three: Option<RepeatJson>,
}

/// The former German rule's column: the same facts as the trainer's panel.
fn german_column(game: &Game, s: &Successions, ply: usize) -> String {
    if let Some(g) = s.german_rule(ply) {
        return format!(
            "DRAW: {} played three times ({})",
            g.sans(game).join(" "),
            g.span()
        );
    }
    match (s.longest_square(ply), s.closest_to_german_rule(ply)) {
        (Some(l), Some(c)) => format!(
            "longest twice {} ({}); closest {}, {} short of three times",
            count_plies(l.len),
            l.span(),
            c.span(),
            count_plies(c.missing())
        ),
        _ => "nothing played twice in succession".to_string(),
    }
}

pub fn run(args: &EuweArgs, out: &mut dyn Write) -> Result<()> {
    let plies = usize::try_from(args.plies)?;
    let mut out = std::io::BufWriter::new(out);
    // The whole sequence first, for the former German rule's runs; then ply
    // by ply again for FIDE's claims, which are about the current position.
    let (moves, successions) = {
        let whole = euwe::euwe_game(plies);
        let moves: Vec<_> = whole.moves().collect();
        (moves, Successions::of(&whole))
    };
    let mut game = Game::new();
    if !args.json {
        writeln!(
            out,
            "{:>6} {:>6} {:>3}  {:<8} {:>4}  {:<18} {:<9} former German rule (3 times in succession)",
            "ply", "k", "t(k)", "move", "occ", "FIDE 9.2 claim", "9.6.1"
        )?;
    }
    let mut fivefold_ply = None;
    for ply in 1..=plies {
        let idx = EuweIndex::of_ply(ply);
        let m = moves[ply - 1];
        let san = San::from_move(game.position(), m).to_string();
        game.play_past_end(m)?;
        if fivefold_ply.is_none()
            && game
                .termination()
                .is_some_and(|t| t.ending.kind == EndingKind::FivefoldRepetition)
        {
            fivefold_ply = Some(ply);
        }
        let claim_with: Vec<String> = {
            let pos = game.position();
            claim::threefold_moves(&game)
                .iter()
                .map(|&m| San::from_move(pos, m).to_string())
                .collect()
        };
        let row = Row {
            ply,
            thue_morse_index: idx.block,
            bit: idx.bit,
            mv: san,
            occurrences: game.current().occurrence,
            claim_now: claim::threefold_now(&game),
            claim_with,
            fivefold_ended: fivefold_ply.is_some(),
            german_rule: successions.german_rule(ply).map(|c| c.moves(&game)),
            longest_twice: successions.longest_square(ply).map(RepeatJson::from),
            closest_to_three: successions
                .closest_to_german_rule(ply)
                .map(RepeatJson::from),
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
            let german = german_column(&game, &successions, ply);
            writeln!(
                out,
                "{:>6} {:>6} {:>3}   {:<8} {:>4}  {:<18} {:<9} {}",
                ply, idx.block, idx.bit, row.mv, row.occurrences, claim, ended, german
            )?;
        }
    }
    if !args.json && successions.german_rule(plies).is_none() {
        writeln!(out, "{CUBE_FREE}")?;
    }
    out.flush()?;
    Ok(())
}
