//! Fits the evaluation's weights to labelled positions ("Texel tuning"); see
//! `tools/TUNING.md` for the whole pipeline.
//!
//! `cargo run --release --example tune_eval -- labelled.txt [--epochs 600] [--lambda 0]
//!  [--smooth 3e-9] [--rate 1.0] [--write crates/engine/src/eval/params.rs]`
//!
//! Input: `FEN;result;cp` lines (result from White's view: 1, 0.5, 0; cp: Stockfish's score
//! from White's view). Each position's target is `lambda * result + (1 - lambda) *
//! sigmoid(K_sf * cp)`, where `K_sf` is fitted so that Stockfish's scores predict the results
//! best. The evaluation `e` (from `threefold::engine::chess::eval::trace`, linear in the weights) is
//! mapped to `sigmoid(K * e)` with `K` fitted to the present weights, and the weights are
//! moved by Adam on the mean squared error, full batch. 5% of the positions are held out and
//! their error is reported too, so over-fitting shows.
//!
//! Tables indexed by a count (mobility, king attack units, passed pawn rank) also pay
//! `--smooth` times the squared difference of neighbouring entries, so that rarely seen
//! counts follow their neighbours instead of their few samples. Afterwards, as a piece always
//! has exactly one square and one mobility count, the occurrence-weighted mean of its
//! piece-square table and of its mobility table is moved into its material value: the same
//! evaluation, with numbers a reader can compare.

use std::fmt::Write as _;

use std::process::exit;

use shakmaty::{CastlingMode, Chess, fen::Fen};
use threefold::engine::chess::eval::{GROUPS, S, WEIGHTS, feature, params, trace};
use threefold::engine::tune::{self, Linear, Schedule, fit_k, sigmoid};

struct Sample {
    /// Range of this position's features in `Data::features`.
    start: u32,
    len: u32,
    phase: f64,
    eg_scale: f64,
    /// +1 White to move, -1 Black.
    tempo: f64,
    result: f64,
    cp: f64,
    target: f64,
}

struct Data {
    features: Vec<(u16, f64)>,
    samples: Vec<Sample>,
}

impl Data {
    fn load(path: &str) -> Data {
        let lines = tune::read_labelled(path).unwrap_or_else(|e| {
            eprintln!("{e}");
            exit(1)
        });
        let mut data = Data {
            features: Vec::new(),
            samples: Vec::new(),
        };
        for l in lines {
            let Some(pos) = l
                .fen
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
            else {
                eprintln!("{path}:{}: bad FEN {}", l.line + 1, l.fen);
                exit(1)
            };
            let t = trace(&pos);
            let start = data.features.len() as u32;
            data.features
                .extend(t.counts.iter().map(|&(f, c)| (f, f64::from(c))));
            data.samples.push(Sample {
                start,
                len: t.counts.len() as u32,
                phase: f64::from(t.phase),
                eg_scale: t.eg_scale,
                tempo: if t.white_to_move { 1.0 } else { -1.0 },
                result: l.result,
                cp: l.cp,
                target: 0.0,
            });
        }
        data
    }
}

/// The evaluation from White's view, tapered: the middle game weight of feature `f` (at
/// `2 f`) counts `phase / 24` of each count, the end game weight (at `2 f + 1`) the rest,
/// scaled by the end game's scale; the tempo is not fitted.
impl Linear for Data {
    type Sample = Sample;
    fn terms(&self, s: &Sample) -> impl Iterator<Item = (usize, f64)> {
        let mg = s.phase / 24.0;
        let eg = s.eg_scale * (24.0 - s.phase) / 24.0;
        self.features[s.start as usize..(s.start + s.len) as usize]
            .iter()
            .flat_map(move |&(f, n)| {
                [
                    (2 * usize::from(f), n * mg),
                    (2 * usize::from(f) + 1, n * eg),
                ]
            })
    }
    fn fixed(&self, s: &Sample) -> f64 {
        s.tempo * f64::from(params::TEMPO)
    }
    fn target(&self, s: &Sample) -> f64 {
        s.target
    }
}

/// Fits the evaluation's weights to labelled positions (see tools/TUNING.md).
#[derive(clap::Parser)]
struct Args {
    /// `FEN;result;cp` lines (tools/label_stockfish.py).
    labelled: String,
    /// Passes of Adam over all positions.
    #[arg(long, default_value_t = 600)]
    epochs: usize,
    /// Weight of the game result in the target (the rest: Stockfish's score).
    #[arg(long, default_value_t = 0.0)]
    lambda: f64,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Weight of the smoothness penalty on count-indexed tables.
    #[arg(long, default_value_t = 3e-9)]
    smooth: f64,
    /// Write params.rs here (atomically) instead of to standard output.
    #[arg(long)]
    write: Option<String>,
}

fn main() {
    let Args {
        labelled: path,
        epochs,
        lambda,
        rate,
        smooth,
        write,
    } = clap::Parser::parse();

    let mut data = Data::load(&path);
    let n = data.samples.len();
    eprintln!("{n} positions, {} features", data.features.len());
    let k_sf = fit_k(
        &data
            .samples
            .iter()
            .map(|s| (s.cp, s.result))
            .collect::<Vec<_>>(),
    );
    for s in &mut data.samples {
        s.target = lambda * s.result + (1.0 - lambda) * sigmoid(k_sf * s.cp);
    }
    let mut w: Vec<f64> = WEIGHTS
        .iter()
        .flat_map(|&(m, e)| [f64::from(m), f64::from(e)])
        .collect();
    let k = fit_k(
        &data
            .samples
            .iter()
            .map(|s| (data.eval(s, &w), s.target))
            .collect::<Vec<_>>(),
    );
    eprintln!("K_sf = {k_sf:.6}, K = {k:.6}, lambda = {lambda}");

    // Every 20th position is held out.
    let held_out = |i: usize| i % 20 == 7;
    let loss = |data: &Data, w: &[f64], test: bool| {
        let samples = data.samples.iter().enumerate();
        let set = samples
            .filter(|&(i, _)| held_out(i) == test)
            .map(|(_, s)| s);
        tune::error(data, set, w, k)
    };
    let (train0, test0) = (loss(&data, &w, false), loss(&data, &w, true));
    eprintln!("before: train {train0:.6}, held out {test0:.6}");

    let train: Vec<&Sample> = (data.samples.iter().enumerate())
        .filter(|&(i, _)| !held_out(i))
        .map(|(_, s)| s)
        .collect();
    // Count-indexed tables: neighbours pay the square of their difference.
    let smoothness = |w: &[f64], grad: &mut [f64]| {
        for (name, at, len) in GROUPS {
            if !ORDINAL.contains(&name) {
                continue;
            }
            for f in at..at + len - 1 {
                for phase in 0..2 {
                    let (a, b) = (2 * f + phase, 2 * (f + 1) + phase);
                    let d = 2.0 * smooth * (w[a] - w[b]);
                    grad[a] += d;
                    grad[b] -= d;
                }
            }
        }
    };
    let report = |epoch: usize, w: &[f64]| {
        if epoch.is_multiple_of(50) || epoch == epochs {
            eprintln!(
                "epoch {epoch}: train {:.6}, held out {:.6}",
                loss(&data, w, false),
                loss(&data, w, true)
            );
        }
    };
    let schedule = Schedule { epochs, rate };
    tune::fit(&data, &train, &mut w, k, schedule, smoothness, report);
    normalize(&mut w, &data);
    eprintln!(
        "normalized: train {:.6}, held out {:.6}",
        loss(&data, &w, false),
        loss(&data, &w, true)
    );
    let rounded: Vec<S> = w
        .chunks(2)
        .map(|p| (p[0].round() as i32, p[1].round() as i32))
        .collect();
    let source = params_source(&rounded, n, lambda, k, k_sf, test0, loss(&data, &w, true));
    if let Err(e) = tune::write_params(write.as_deref(), &source) {
        eprintln!("{e}");
        exit(1)
    }
    if let Some(write) = write {
        eprintln!("wrote {write}");
    }
}

/// Tables indexed by a count or rank: neighbours should be alike.
const ORDINAL: [&str; 6] = [
    "MOBILITY_KNIGHT",
    "MOBILITY_BISHOP",
    "MOBILITY_ROOK",
    "MOBILITY_QUEEN",
    "PASSED",
    "KING_ATTACK",
];

/// Offset and length of a group of weights.
fn group(name: &str) -> (usize, usize) {
    GROUPS
        .iter()
        .find(|g| g.0 == name)
        .map(|g| (g.1, g.2))
        .unwrap_or_else(|| panic!("no weight group {name}"))
}

/// Moves the mean of each piece's square table and mobility table (weighted by how often each
/// entry occurs, White and Black netted) into its material value. Every piece has exactly one
/// square and one mobility count, so shifting a whole table one way and the material the
/// other way leaves every evaluation as it was. Pawns never stand on the first or last rank:
/// those entries stay as they are.
fn normalize(w: &mut [f64], data: &Data) {
    let mut seen = vec![0.0f64; feature::COUNT];
    for &(f, n) in &data.features {
        seen[usize::from(f)] += n.abs();
    }
    let shift = |w: &mut [f64], entries: &[usize], role: usize| {
        for phase in 0..2 {
            let total: f64 = entries.iter().map(|&f| seen[f]).sum();
            if total == 0.0 {
                continue;
            }
            let mean = entries
                .iter()
                .map(|&f| seen[f] * w[2 * f + phase])
                .sum::<f64>()
                / total;
            for &f in entries {
                w[2 * f + phase] -= mean;
            }
            w[2 * (feature::MATERIAL + role) + phase] += mean;
        }
    };
    let (pst, _) = group("PST");
    for role in 0..5 {
        // Visual rows 0 and 7 are ranks 8 and 1.
        let squares: Vec<usize> = (0..64)
            .filter(|sq| role != 0 || (8..56).contains(sq))
            .map(|sq| pst + 64 * role + sq)
            .collect();
        shift(w, &squares, role);
    }
    for (role, name) in [
        "MOBILITY_KNIGHT",
        "MOBILITY_BISHOP",
        "MOBILITY_ROOK",
        "MOBILITY_QUEEN",
    ]
    .into_iter()
    .enumerate()
    {
        let (at, len) = group(name);
        shift(w, &(at..at + len).collect::<Vec<_>>(), role + 1);
    }
}

const DOCS: [(&str, &str); 15] = [
    (
        "MATERIAL",
        "Material by role: pawn, knight, bishop, rook, queen.",
    ),
    (
        "PST",
        "Piece-square tables by role (pawn .. king), as White sees the board: first row = rank 8.",
    ),
    (
        "MOBILITY_KNIGHT",
        "Knight mobility by the number of safe squares it attacks (not own pieces, not attacked by enemy pawns).",
    ),
    ("MOBILITY_BISHOP", "Bishop mobility by safe squares."),
    ("MOBILITY_ROOK", "Rook mobility by safe squares."),
    ("MOBILITY_QUEEN", "Queen mobility by safe squares."),
    (
        "PASSED",
        "Passed pawn by rank, as seen from its own side (0 = first rank).",
    ),
    ("DOUBLED", "Each pawn beyond the first on a file."),
    ("ISOLATED", "A pawn with no own pawn on the adjacent files."),
    ("BISHOP_PAIR", "Two bishops or more."),
    ("ROOK_OPEN", "A rook on a file without pawns."),
    (
        "ROOK_HALF_OPEN",
        "A rook on a file without own pawns but with enemy pawns.",
    ),
    (
        "SHELTER",
        "King on its first two ranks: by the number (0..=3) of own pawns on the three files around it, one or two ranks in front.",
    ),
    (
        "KING_ATTACK",
        "Attacks on the enemy king zone, by attack units (knight, bishop 2, rook 3, queen 5 per square, at most 40).",
    ),
    (
        "PAWN_THREAT",
        "An enemy knight, bishop, rook or queen attacked by a pawn.",
    ),
];

fn pair(p: S) -> String {
    format!("({}, {})", p.0, p.1)
}

/// The text of `params.rs` for weights `w`.
fn params_source(
    w: &[S],
    n: usize,
    lambda: f64,
    k: f64,
    k_sf: f64,
    before: f64,
    after: f64,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! The evaluation's weights: `(middle game, end game)` pairs in centipawns.
//!
//! Written by `cargo run --release --example tune_eval` (see `tools/TUNING.md`); edit the
//! tuner's data or settings rather than these numbers. Last fit: {n} positions, lambda
//! {lambda}, K {k:.6}, K_sf {k_sf:.6}; held-out error {before:.6} before, {after:.6} after.

use super::S;
"
    );
    for (name, at, len) in GROUPS {
        if len == 0 {
            continue;
        }
        let doc = DOCS.iter().find(|d| d.0 == name).map_or("", |d| d.1);
        let _ = writeln!(s, "/// {doc}");
        let vals = &w[at..at + len];
        if name == "PST" {
            let _ = writeln!(s, "#[rustfmt::skip]\npub const PST: [[S; 64]; 6] = [");
            for (r, role) in ["pawn", "knight", "bishop", "rook", "queen", "king"]
                .iter()
                .enumerate()
            {
                let _ = writeln!(s, "    // {role}\n    [");
                for row in 0..8 {
                    let cells: Vec<String> = (0..8)
                        .map(|c| format!("{:<11}", pair(vals[r * 64 + row * 8 + c]) + ","))
                        .collect();
                    let _ = writeln!(s, "        {}", cells.join(" ").trim_end());
                }
                let _ = writeln!(s, "    ],");
            }
            let _ = writeln!(s, "];\n");
        } else if len == 1 {
            let _ = writeln!(s, "pub const {name}: S = {};", pair(vals[0]));
        } else {
            let _ = writeln!(s, "#[rustfmt::skip]\npub const {name}: [S; {len}] = [");
            for row in vals.chunks(8) {
                let cells: Vec<String> = row
                    .iter()
                    .map(|&p| format!("{:<11}", pair(p) + ","))
                    .collect();
                let _ = writeln!(s, "    {}", cells.join(" ").trim_end());
            }
            let _ = writeln!(s, "];");
        }
    }
    let _ = writeln!(
        s,
        "/// The side to move (not fitted).\npub const TEMPO: i32 = {};",
        params::TEMPO
    );
    s
}
