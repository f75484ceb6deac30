//! Fits the xiangqi evaluation's weights (`threefold_engine::xiangqi::eval`) to positions scored by
//! Fairy-Stockfish; see `tools/TUNING.md`, "Xiangqi", for the whole pipeline.
//!
//! `cargo run --release -p threefold-engine --example xq_tune -- labelled.txt [--epochs 1500]
//!  [--rate 2] [--ridge 1e-9] [--k K] [--no-tempo] [--rounds 5]
//!  [--write crates/engine/src/xiangqi/eval/params.rs]`
//!
//! Input: `FEN;result;cp` lines (`tools/xq_label_fsf.py`: result for Red 1, 0.5, 0; cp
//! Fairy-Stockfish's depth-8 score for Red). Lines whose FEN threefold refuses are counted and
//! skipped. The label script keeps positions whose side to move is not in check and whose best
//! move (Fairy-Stockfish's) is not a capture; this tuner checks again with threefold's own
//! rules and leaves out a position where the side to move is in check or has a capture that
//! wins material at once: an undefended piece, or a piece worth more than its taker (by the
//! piece values, [`piece_value`], of the weights being fitted), the one-ply exchange the chess
//! tuner's data step also refuses. As the fit changes the piece values, which positions are
//! quiet may change with it: the tuner selects, fits, and selects again with the fitted
//! values, until the selection stays the same (at most `--rounds` times), so the weights it
//! writes were fitted on the positions their own values call quiet, and a second run from
//! them fits the same positions again.
//!
//! Fit: the evaluation `e` (the dot product of the weights with [`trace`], Red's view) and
//! Fairy-Stockfish's score `cp` are both mapped through `sigmoid(K * x)` with the same `K`, so
//! the weights stay on Fairy-Stockfish's scale; Adam minimises the mean squared difference
//! over all weights at once (material, piece-square tables, tempo), full batch, from the
//! weights in `params.rs`. `K` is fitted so that Fairy-Stockfish's scores predict the game
//! results best (as the chess tuner's `K_sf`), unless `--k` gives it. The piece-square
//! entries also pay `--ridge` times their square, which settles the split between a kind's
//! material and its table (every piece counts once in each) and keeps rarely seen points
//! near 0. Blocks of 200 consecutive lines of the input (about a game) are held out, one in
//! 20, so the held-out error is measured on games the fit has not seen.
//!
//! `--no-tempo` holds the tempo at 0, to see whether the data supports one.
//!
//! Afterwards each table's mean is moved into the material value: the occurrence-weighted
//! mean over the points a kind was seen on (for pawns, over the points before the river, so
//! `MATERIAL` is a pawn at home and the table holds what crossing adds). Every piece counts
//! once in its material and once in its table, so the evaluation is unchanged; points never
//! seen in the data (a pawn behind its start, an advisor outside the palace) are set to 0.

use std::fmt::Write as _;
use std::process::exit;

use threefold_engine::tune::{self, Linear, Schedule, fit_k, sigmoid};
use threefold_engine::xiangqi::eval::{GROUPS, WEIGHTS, feature, piece_value, pst_point, trace};
use threefold_xiangqi::{Color, Kind, Position};

const USAGE: &str =
    "usage: xq_tune LABELLED [--epochs N] [--rate R] [--ridge L] [--k K] [--write PATH]";

struct Args {
    labelled: String,
    epochs: usize,
    rate: f64,
    ridge: f64,
    k: Option<f64>,
    /// Hold the tempo at 0 (to see whether the fit supports one).
    no_tempo: bool,
    /// At most this many rounds of selecting the quiet positions and fitting.
    rounds: usize,
    write: Option<String>,
}

fn args() -> Args {
    let mut a = Args {
        labelled: String::new(),
        epochs: 1500,
        rate: 2.0,
        ridge: 1e-9,
        k: None,
        no_tempo: false,
        rounds: 5,
        write: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next().unwrap_or_else(|| {
                eprintln!("{name} needs a value\n{USAGE}");
                exit(2)
            })
        };
        let number = |name: &str, v: String| -> f64 {
            v.parse().unwrap_or_else(|_| {
                eprintln!("{name}: not a number: {v}\n{USAGE}");
                exit(2)
            })
        };
        match arg.as_str() {
            "--epochs" => a.epochs = number("--epochs", value("--epochs")) as usize,
            "--rate" => a.rate = number("--rate", value("--rate")),
            "--ridge" => a.ridge = number("--ridge", value("--ridge")),
            "--k" => a.k = Some(number("--k", value("--k"))),
            "--write" => a.write = Some(value("--write")),
            "--no-tempo" => a.no_tempo = true,
            "--rounds" => a.rounds = number("--rounds", value("--rounds")) as usize,
            "-h" | "--help" => {
                println!("{USAGE}");
                exit(0)
            }
            s if s.starts_with('-') || !a.labelled.is_empty() => {
                eprintln!("unexpected argument {s}\n{USAGE}");
                exit(2)
            }
            s => a.labelled = s.to_string(),
        }
    }
    if a.labelled.is_empty() {
        eprintln!("{USAGE}");
        exit(2)
    }
    a
}

struct Sample {
    /// Line of the position in the input (from 0): the held-out blocks are counted in lines.
    line: usize,
    /// Range of this position's features in `Data::features`.
    start: u32,
    len: u32,
    /// Range of its defended captures in `Data::exchanges`.
    ex_start: u32,
    ex_len: u32,
    /// In check, or a capture of an undefended piece: not quiet whatever the piece values.
    tactical: bool,
    /// Quiet with the piece values of the present weights (see [`Data::select`]).
    quiet: bool,
    result: f64,
    cp: f64,
    target: f64,
}

#[derive(Default)]
struct Data {
    features: Vec<(u16, f64)>,
    /// `(victim, taker)` of each capture onto a defended point.
    exchanges: Vec<(Kind, Kind)>,
    samples: Vec<Sample>,
    refused: usize,
}

/// Whether the side to move is in check or can capture an undefended piece (no legal
/// recapture on its point); and the `(victim, taker)` of its captures of defended pieces.
fn captures(pos: &Position) -> (bool, Vec<(Kind, Kind)>) {
    let mut exchanges = Vec::new();
    if pos.in_check() {
        return (true, exchanges);
    }
    for &m in pos.legal_moves().as_slice() {
        let (Some(victim), Some(taker)) = (pos.piece_at(m.to()), pos.piece_at(m.from())) else {
            continue;
        };
        let mut after = pos.clone();
        after.make(m);
        let defended = after
            .legal_moves()
            .as_slice()
            .iter()
            .any(|r| r.to() == m.to());
        if !defended {
            return (true, exchanges);
        }
        exchanges.push((victim.kind, taker.kind));
    }
    (false, exchanges)
}

/// The worth of a kind with weights `w`, as [`piece_value`] gives it once `w` is written
/// (rounded material, the king's fixed value).
fn value(w: &[f64], kind: Kind) -> f64 {
    match kind {
        Kind::King => f64::from(piece_value(Kind::King)),
        _ => w[feature::MATERIAL + kind as usize - 1].round(),
    }
}

impl Data {
    fn load(path: &str) -> Data {
        let lines = tune::read_labelled(path).unwrap_or_else(|e| {
            eprintln!("{e}");
            exit(1)
        });
        let mut data = Data::default();
        for l in lines {
            let Ok(pos) = Position::from_fen(&l.fen) else {
                data.refused += 1;
                continue;
            };
            let (tactical, exchanges) = captures(&pos);
            let t = trace(&pos);
            let (start, ex_start) = (data.features.len() as u32, data.exchanges.len() as u32);
            data.features
                .extend(t.counts.iter().map(|&(f, c)| (f, f64::from(c))));
            data.exchanges.extend(&exchanges);
            data.samples.push(Sample {
                line: l.line,
                start,
                len: t.counts.len() as u32,
                ex_start,
                ex_len: exchanges.len() as u32,
                tactical,
                quiet: false,
                result: l.result,
                cp: l.cp,
                target: 0.0,
            });
        }
        data
    }

    /// Marks as quiet the positions with no capture that wins at once with the piece values
    /// of `w`: no check, no undefended victim, no victim worth more than its taker. Returns
    /// how many positions changed.
    fn select(&mut self, w: &[f64]) -> usize {
        let mut changed = 0;
        for s in &mut self.samples {
            let wins = s.tactical
                || self.exchanges[s.ex_start as usize..(s.ex_start + s.ex_len) as usize]
                    .iter()
                    .any(|&(victim, taker)| value(w, victim) > value(w, taker));
            changed += usize::from(s.quiet == wins);
            s.quiet = !wins;
        }
        changed
    }

    fn quiet(&self) -> usize {
        self.samples.iter().filter(|s| s.quiet).count()
    }
}

/// The evaluation from Red's view: the weights (indexed by `feature`) times the counts.
impl Linear for Data {
    type Sample = Sample;
    fn terms(&self, s: &Sample) -> impl Iterator<Item = (usize, f64)> {
        self.features[s.start as usize..(s.start + s.len) as usize]
            .iter()
            .map(|&(f, n)| (usize::from(f), n))
    }
    fn target(&self, s: &Sample) -> f64 {
        s.target
    }
}

/// One block of 200 lines of the input (about a game) in 20 is held out.
fn held_out(s: &Sample) -> bool {
    (s.line / 200) % 20 == 7
}

/// Errors of weights `w` on the quiet training or held-out positions: the mean squared error
/// in sigmoid space (what is minimised) and the mean absolute difference in centipawns, both
/// scores clipped to ±1500.
fn errors(data: &Data, w: &[f64], k: f64, test: bool) -> (f64, f64) {
    let (mut sq, mut abs, mut count) = (0.0, 0.0, 0usize);
    for s in data
        .samples
        .iter()
        .filter(|s| s.quiet && held_out(s) == test)
    {
        let e = data.eval(s, w);
        sq += (sigmoid(k * e) - s.target).powi(2);
        abs += (e.clamp(-1500.0, 1500.0) - s.cp.clamp(-1500.0, 1500.0)).abs();
        count += 1;
    }
    let n = count.max(1) as f64;
    (sq / n, abs / n)
}

fn pst_range() -> std::ops::Range<usize> {
    feature::PST..feature::PST + 7 * feature::POINTS
}

/// `args.epochs` steps of Adam, full batch, on the quiet training positions (`tune::fit`),
/// with a ridge on the piece-square tables and the tempo held at 0 by `--no-tempo`.
fn fit(data: &Data, w: &mut [f64], k: f64, args: &Args) {
    let train: Vec<&Sample> = data
        .samples
        .iter()
        .filter(|s| s.quiet && !held_out(s))
        .collect();
    let schedule = Schedule {
        epochs: args.epochs,
        rate: args.rate,
    };
    let penalty = |w: &[f64], grad: &mut [f64]| {
        for f in pst_range() {
            grad[f] += 2.0 * args.ridge * w[f];
        }
        if args.no_tempo {
            grad[feature::TEMPO] = 0.0;
        }
    };
    let report = |epoch: usize, w: &[f64]| {
        if epoch.is_multiple_of(500) || epoch == args.epochs {
            let (train, test) = (errors(data, w, k, false), errors(data, w, k, true));
            eprintln!(
                "  epoch {epoch}: train {:.6}, held out {:.6} ({:.1} cp)",
                train.0, test.0, test.1
            );
        }
    };
    tune::fit(data, &train, w, k, schedule, penalty, report);
}

fn main() {
    let args = args();
    let mut data = Data::load(&args.labelled);
    let n = data.samples.len();
    eprintln!("{n} positions ({} refused by the FEN reader)", data.refused);
    if n == 0 {
        eprintln!("no positions to fit");
        exit(1)
    }
    let k = args.k.unwrap_or_else(|| {
        fit_k(
            &data
                .samples
                .iter()
                .map(|s| (s.cp, s.result))
                .collect::<Vec<_>>(),
        )
    });
    for s in &mut data.samples {
        s.target = sigmoid(k * s.cp);
    }
    eprintln!("K = {k:.6}");
    let mut w: Vec<f64> = WEIGHTS.iter().map(|&x| f64::from(x)).collect();
    if args.no_tempo {
        w[feature::TEMPO] = 0.0;
    }
    let initial = w.clone();

    // Which positions are quiet depends on the piece values, which the fit changes: select,
    // fit, select again with the fitted values, until the selection no longer changes.
    let mut settled = false;
    for round in 1..=args.rounds {
        let changed = data.select(&w);
        eprintln!(
            "round {round}: {} quiet positions ({} not quiet), {changed} changed",
            data.quiet(),
            n - data.quiet()
        );
        if round > 1 && changed == 0 {
            settled = true;
            break;
        }
        fit(&data, &mut w, k, &args);
        normalize(&mut w, &data);
    }
    if !settled {
        let changed = data.select(&w);
        eprintln!(
            "after {} rounds the selection still changes ({changed})",
            args.rounds
        );
    }
    let before = errors(&data, &initial, k, true);
    eprintln!(
        "before: train {:.6}, held out {:.6} ({:.1} cp)",
        errors(&data, &initial, k, false).0,
        before.0,
        before.1
    );
    let rounded: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    let rounded_f: Vec<f64> = rounded.iter().map(|&x| f64::from(x)).collect();
    let after = errors(&data, &rounded_f, k, true);
    eprintln!(
        "after (normalized and rounded): train {:.6}, held out {:.6} ({:.1} cp)",
        errors(&data, &rounded_f, k, false).0,
        after.0,
        after.1
    );
    let m = &rounded[feature::MATERIAL..feature::MATERIAL + 7];
    eprintln!(
        "material: advisor {}, elephant {}, horse {}, rook {}, cannon {}, pawn {}; tempo {}",
        m[1],
        m[2],
        m[3],
        m[4],
        m[5],
        m[6],
        rounded[feature::TEMPO]
    );
    let quiet = data.quiet();
    let source = params_source(&rounded, &args, quiet, k, before, after);
    if let Err(e) = tune::write_params(args.write.as_deref(), &source) {
        eprintln!("{e}");
        exit(1)
    }
    if let Some(path) = &args.write {
        eprintln!("wrote {path}");
    }
}

/// Moves each piece-square table's occurrence-weighted mean into its kind's material value
/// (for pawns, the mean over the points before the river), and sets points never seen to 0.
fn normalize(w: &mut [f64], data: &Data) {
    let mut seen = vec![0.0f64; feature::COUNT];
    for s in data.samples.iter().filter(|s| s.quiet) {
        for &(f, n) in &data.features[s.start as usize..(s.start + s.len) as usize] {
            seen[usize::from(f)] += n.abs();
        }
    }
    for kind in 0..7 {
        let table = feature::PST + feature::POINTS * kind;
        let entries: Vec<usize> = (0..feature::POINTS)
            .filter(|&p| seen[table + p] > 0.0)
            .collect();
        let counted: Vec<usize> = if kind == 6 {
            // Pawns: Red's ranks 0-4 (before the river).
            (0..10u8)
                .flat_map(|rank| (0..5u8).map(move |file| (file, rank)))
                .filter(|&(_, rank)| rank <= 4)
                .map(|(file, rank)| pst_point(Color::Red, file, rank))
                .filter(|&p| seen[table + p] > 0.0)
                .collect()
        } else {
            entries.clone()
        };
        let total: f64 = counted.iter().map(|&p| seen[table + p]).sum();
        if total > 0.0 {
            let mean = counted
                .iter()
                .map(|&p| seen[table + p] * w[table + p])
                .sum::<f64>()
                / total;
            for &p in &entries {
                w[table + p] -= mean;
            }
            w[feature::MATERIAL + kind] += mean;
        }
        for p in 0..feature::POINTS {
            if seen[table + p] == 0.0 {
                w[table + p] = 0.0;
            }
        }
    }
    // The kings cancel: their material is not a weight the data can see.
    w[feature::MATERIAL] = 0.0;
}

/// The text of `params.rs` for weights `w`.
fn params_source(
    w: &[i32],
    args: &Args,
    n: usize,
    k: f64,
    before: (f64, f64),
    after: (f64, f64),
) -> String {
    let group = |name: &str| {
        let g = GROUPS.iter().find(|g| g.0 == name).expect("weight group");
        &w[g.1..g.1 + g.2]
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! The xiangqi evaluation's weights, in centipawns on Fairy-Stockfish's scale.
//!
//! Written by `cargo run --release -p threefold-engine --example xq_tune -- LABELLED --epochs
//! {} --rate {} --ridge {:e} --rounds {}{} --write crates/engine/src/xiangqi/eval/params.rs` (see
//! `tools/TUNING.md`, \"Xiangqi\"); edit the tuner's data or settings rather than these
//! numbers. Last fit: {n} positions, K {k:.6}; held-out error {:.6} ({:.1} cp) before,
//! {:.6} ({:.1} cp) after.

/// Material by kind: king, advisor, elephant, horse, rook, cannon, pawn (at home: what a pawn
/// gains across the river is in its table).
#[rustfmt::skip]
pub const MATERIAL: [i32; 7] = {:?};

/// Piece-square tables by kind (king .. pawn), as Red sees the board: ten rows of five, the
/// first row rank 9 (Black's back rank), files a–e (f–i mirror them).
#[rustfmt::skip]
pub const PST: [[i32; 50]; 7] = [",
        args.epochs,
        args.rate,
        args.ridge,
        args.rounds,
        if args.no_tempo { " --no-tempo" } else { "" },
        before.0,
        before.1,
        after.0,
        after.1,
        group("MATERIAL"),
    );
    let pst = group("PST");
    for (kind, name) in [
        "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
    ]
    .iter()
    .enumerate()
    {
        let _ = writeln!(s, "    // {name}\n    [");
        for row in pst[kind * feature::POINTS..(kind + 1) * feature::POINTS].chunks(5) {
            let cells: Vec<String> = row.iter().map(|v| format!("{v:>4},")).collect();
            let _ = writeln!(s, "      {}", cells.join(""));
        }
        let _ = writeln!(s, "    ],");
    }
    let _ = writeln!(
        s,
        "];\n\n/// The side to move's bonus.\npub const TEMPO: i32 = {};\n\n/// The positional terms' \
         weights (see `super::terms`): rook reach, horse moves, hollow\n/// cannon, missing advisors \
         and missing elephants times the opponent's attackers, pawns side\n/// by side across the \
         river.\n#[rustfmt::skip]\npub const TERMS: [i32; {}] = {:?};",
        group("TEMPO")[0],
        group("TERMS").len(),
        group("TERMS"),
    );
    s
}
