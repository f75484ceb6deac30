//! `threefold xiangqi`: perft, the WXF repetition judge, a per-ply analysis,
//! and benchmarks (perft, the judge, and the engine's search beside
//! Fairy-Stockfish's: `threefold xiangqi bench [all|perft|judge|search]`).

use std::io::Write;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::cli::progress::Progress;
use anyhow::{Result, anyhow};
use clap::Subcommand;
use serde::Serialize;
use serde_json::json;
use threefold::engine::score::MAX_DEPTH;
use threefold::lab::xiangqi::{
    BenchPosition, DEFAULT_SEARCH_DEPTH, SearchRun, fsf_position, judge_games, median, perft_start,
    search_bench, search_positions, shuffling_games,
};
use threefold::xiangqi::judge::{Attack, ChaseMode, EntryStatus, JudgedGame, Ruling, SideReport};
use threefold::xiangqi::notation::{parse_move, wxf};
use threefold::xiangqi::{Color, Position, RuleAt, START_FEN};

/// Arguments of `threefold xiangqi`.
#[derive(clap::Args, Debug)]
pub struct XiangqiArgs {
    /// Without a subcommand: the trainer's xiangqi screen.
    #[command(subcommand)]
    pub command: Option<XiangqiCommand>,
    /// Draw the board with ASCII letters instead of Chinese pieces (the trainer's screen;
    /// the subcommands draw no board).
    #[arg(long)]
    pub ascii: bool,
}

impl XiangqiArgs {
    /// `--ascii` given after `xiangqi`.
    pub fn ascii(&self) -> bool {
        self.ascii
    }
}

#[derive(Subcommand, Debug)]
pub enum XiangqiCommand {
    /// Count legal move paths (the last line is the count).
    Perft(PerftArgs),
    /// The game's WXF ruling: win, loss, draw or undecided (the first ruling made stands).
    /// `--help` ends with the judge's glossary.
    #[command(after_long_help = glossary_help())]
    Judge(JudgeArgs),
    /// One row per ply: the move in WXF and UCCI, repetitions, status, the ruling where made.
    Analyze(JudgeArgs),
    /// Benchmarks: perft speed and the search (beside Fairy-Stockfish if installed), the judge.
    Bench(BenchArgs),
}

/// Arguments of `threefold xiangqi perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Position (WXF/UCCI FEN; default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Depth in plies.
    #[arg(long)]
    pub depth: u32,
    /// Also print the count after each first move (UCCI).
    #[arg(long)]
    pub divide: bool,
}

/// Arguments of `threefold xiangqi judge` and `analyze`.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// Start position (WXF/UCCI FEN; default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Moves separated by spaces, each in UCCI (h2e2) or WXF (C2=5).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub moves: String,
    /// Earlier occurrences of the final position needed before a ruling:
    /// 1 (or first-repetition) = at the first repetition, 2 (or third-occurrence) = at the
    /// third occurrence.
    #[arg(long, default_value = "2", value_parser = super::ntimes_parser)]
    pub ntimes: RuleAt,
    /// One JSON object (judge) or one per ply (analyze).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `threefold xiangqi bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// What to benchmark (default: all three, perft, judge, search).
    #[arg(value_enum, default_value_t = BenchTarget::All)]
    pub target: BenchTarget,
    /// Depth: perft's from the start position (default 5), or the search bench's
    /// (`search`, default 16). With every target (`all`) it is perft's, as before
    /// the search bench; the search runs at its default.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Timed rounds of each measurement (alternating); medians are reported.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Fairy-Stockfish binary to time beside ours: `go perft`, and the search on
    /// the same positions ("none" to skip).
    #[arg(long, default_value = "/usr/games/fairy-stockfish")]
    pub fsf: String,
    /// Plies of shuffling games for the judge benchmark (0 to skip; at most 10,000,000).
    #[arg(long, default_value_t = 20_000)]
    pub plies: usize,
    /// Plies per shuffling game.
    #[arg(long, default_value_t = 400)]
    pub game_length: usize,
    /// Earlier occurrences needed for a ruling in the judge benchmark: 1 (or
    /// first-repetition), 2 (or third-occurrence).
    #[arg(long, default_value = "1", value_parser = super::ntimes_parser)]
    pub ntimes: RuleAt,
    /// Skip perft (with every target: the judge and the search).
    #[arg(long)]
    pub no_perft: bool,
    /// The search bench with the WXF judge on (UCI Judge), off, or both (its cost).
    #[arg(long, value_enum, default_value_t = JudgeRuns::Both)]
    pub judge: JudgeRuns,
    /// Transposition table size in MB of the search bench (ours and Fairy-Stockfish's).
    #[arg(long, default_value_t = threefold::engine::DEFAULT_HASH_MB, value_parser = super::hash_mb_parser())]
    pub hash: usize,
}

/// What `threefold xiangqi bench` measures.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchTarget {
    /// Perft, the judge and the search, in that order.
    All,
    /// Perft from the start position (--depth), beside Fairy-Stockfish's `go perft`.
    Perft,
    /// The judge along shuffling games (--plies), lazy and eager.
    Judge,
    /// The engine's search over assets/xiangqi_bench.txt (--depth, --judge), beside
    /// Fairy-Stockfish's on the same positions.
    Search,
}

/// The search bench's runs: with the judge on, off, or both.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum JudgeRuns {
    On,
    Off,
    Both,
}

impl JudgeRuns {
    /// The judge settings to run, in order.
    fn settings(self) -> &'static [bool] {
        match self {
            JudgeRuns::On => &[true],
            JudgeRuns::Off => &[false],
            JudgeRuns::Both => &[true, false],
        }
    }
}

/// Run `threefold xiangqi SUBCOMMAND` (without one, `main` opens the trainer's xiangqi
/// screen before this is called).
pub fn run(command: &XiangqiCommand, out: &mut dyn Write) -> Result<()> {
    match command {
        XiangqiCommand::Perft(a) => perft(a, out),
        XiangqiCommand::Judge(a) => judge(a, out),
        XiangqiCommand::Analyze(a) => analyze(a, out),
        XiangqiCommand::Bench(a) => bench(a, out),
    }
}

fn perft(args: &PerftArgs, out: &mut dyn Write) -> Result<()> {
    let mut pos = read_fen(&args.fen)?;
    threefold::xiangqi::movegen::check_perft_depth(args.depth)?;
    // What the depth will cost, measured on the shallow counts: refused past
    // PERFT_TIME_LIMIT, said when it is long (depth 6 from the start takes minutes).
    let cost = perft_cost(&mut pos, args.depth);
    if cost.secs > PERFT_TIME_LIMIT.as_secs_f64() {
        let deepest = (1..args.depth)
            .rev()
            .find(|&d| cost.at(d).1 <= PERFT_TIME_LIMIT.as_secs_f64())
            .unwrap_or(1);
        return Err(anyhow!(
            "perft {} from this position would count about {:.1e} paths, about {} at {:.0}M \
             leaves/s; perft starts no count longer than {}: depth {deepest} or less here",
            args.depth,
            cost.paths,
            duration_words(cost.secs),
            cost.rate / 1e6,
            duration_words(PERFT_TIME_LIMIT.as_secs_f64()),
        ));
    }
    if cost.secs >= 2.0 {
        eprintln!(
            "perft {}: about {:.1e} paths, about {} at {:.0}M leaves/s",
            args.depth,
            cost.paths,
            duration_words(cost.secs),
            cost.rate / 1e6
        );
    }
    let start = Instant::now();
    let total = if args.divide {
        let rows = pos.perft_divide(args.depth)?;
        for (m, n) in &rows {
            writeln!(out, "{m}: {n}")?;
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        pos.perft(args.depth)?
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {}: {total} paths in {secs:.3} s ({:.1}M leaves/s)",
        args.depth,
        total as f64 / secs.max(1e-9) / 1e6
    );
    writeln!(out, "{total}")?;
    Ok(())
}

/// The longest perft `xiangqi perft` starts, by its estimate ([`perft_cost`]).
const PERFT_TIME_LIMIT: Duration = Duration::from_secs(600);

/// A perft's estimated cost: paths and seconds.
struct PerftCost {
    /// Paths counted at `depth` (exact when `depth` was counted).
    paths: f64,
    secs: f64,
    /// Leaves counted per second, measured.
    rate: f64,
    /// The deepest depth counted, its paths and the branching factor beyond it.
    depth: u32,
    counted: f64,
    branching: f64,
}

impl PerftCost {
    /// The estimate at another depth (at or beyond the one counted).
    fn at(&self, depth: u32) -> (f64, f64) {
        let paths = self.counted * self.branching.powi(depth.saturating_sub(self.depth) as i32);
        (paths, paths / self.rate)
    }
}

/// Estimates a perft to `depth` from `pos`: counts the shallow depths until one has 200,000
/// paths (a few milliseconds) or `depth` is reached, and extends the last count by its
/// branching factor (the ratio of the last two counts), at the leaves per second measured.
fn perft_cost(pos: &mut Position, depth: u32) -> PerftCost {
    // The rate of a perft big enough to time; a smaller count takes the last measured one.
    let mut rate = 50e6;
    let (mut counted, mut prev, mut d) = (1.0_f64, 1.0_f64, 0);
    while d < depth && counted < 200_000.0 {
        d += 1;
        let t = Instant::now();
        let n = pos.perft(d).unwrap_or(0) as f64;
        let secs = t.elapsed().as_secs_f64();
        if n >= 10_000.0 && secs > 0.0 {
            rate = n / secs;
        }
        (prev, counted) = (counted, n);
    }
    let branching = if prev > 0.0 { counted / prev } else { 0.0 };
    let mut cost = PerftCost {
        paths: counted,
        secs: 0.0,
        rate,
        depth: d,
        counted,
        branching,
    };
    (cost.paths, cost.secs) = cost.at(depth);
    cost
}

/// Seconds in words: `40 s`, `12 min`, `3.5 h`, `2e9 years`.
fn duration_words(secs: f64) -> String {
    const YEAR: f64 = 365.25 * 86400.0;
    if secs < 120.0 {
        format!("{secs:.0} s")
    } else if secs < 7200.0 {
        format!("{:.0} min", secs / 60.0)
    } else if secs < 2.0 * YEAR {
        format!("{:.1} h", secs / 3600.0)
    } else {
        format!("{:.0e} years", secs / YEAR)
    }
}

/// A position from `--fen`: a FEN the reader refuses is the error; a position no game
/// reaches (a pawn behind its start) is taken, with one warning line on stderr.
fn read_fen(fen: &str) -> Result<Position> {
    let pos = Position::from_fen(fen).map_err(|e| anyhow!("{e}"))?;
    if let Some(w) = pos.unreachable_warning() {
        eprintln!("warning: {w}");
    }
    Ok(pos)
}

/// Replays the moves, naming the ply of the first bad one, judged as they are played (the
/// first ruling stands).
fn replay(args: &JudgeArgs) -> Result<JudgedGame> {
    let start = read_fen(&args.fen)?;
    let mut game = JudgedGame::new(start, args.ntimes);
    for (i, token) in args.moves.split_whitespace().enumerate() {
        let m = parse_move(game.record().current(), token)
            .map_err(|e| anyhow!("ply {}: {e}", i + 1))?;
        game.push(m);
    }
    Ok(game)
}

fn attack_json(a: &Attack, mover: Color) -> serde_json::Value {
    json!({
        "victim": format!("{} {}", mover.other().name(), a.victim_kind.name()),
        "square": a.victim.to_string(),
        "attacker": format!("{} {}", mover.name(), a.attacker_kind.name()),
        "from": a.attacker.to_string(),
    })
}

fn status_json(st: &EntryStatus, mover: Color) -> serde_json::Value {
    json!({
        "status": st.status.name(),
        "chased": st.chased.iter().map(|a| attack_json(a, mover)).collect::<Vec<_>>(),
        "checkers": st.checkers.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
    })
}

fn side_json(r: &SideReport) -> serde_json::Value {
    json!({
        "level": r.level.map_or("undecided", |l| l.name()),
        "chased": r.chased.iter().map(|(s, k)| json!({
            "piece": format!("{} {}", r.color.other().name(), k.name()),
            "square": s.to_string(),
        })).collect::<Vec<_>>(),
        "moves": r.moves.iter().map(|m| {
            let mut v = status_json(&m.status, r.color);
            v["ply"] = json!(m.ply);
            v["wxf"] = json!(m.wxf);
            v["ucci"] = json!(m.mv.ucci());
            v["explanation"] = json!(m.explain(r.color));
            v
        }).collect::<Vec<_>>(),
    })
}

fn ruling_json(r: &Ruling) -> serde_json::Value {
    json!({
        "result": r.outcome.name(),
        "ending": r.ending.map(|e| e.name()),
        "side": r.side.name(),
        "ply": r.ply,
        "ntimes": r.rule_at.ntimes(),
        "occurrences": r.occurrences,
        "earlier": r.earlier,
        "window": r.window.map(|(a, b)| json!([a, b])),
        "red": side_json(&r.red),
        "black": side_json(&r.black),
        "explanation": r.explanation(),
    })
}

/// The judge's glossary ([`threefold::xiangqi::judge::GLOSSARY`]), for `xiangqi judge --help`.
fn glossary_help() -> String {
    let mut s = String::from("The judge's words:\n");
    for (term, meaning) in threefold::xiangqi::judge::GLOSSARY {
        s.push_str(&format!("\n  {term}\n      {meaning}\n"));
    }
    s
}

fn judge(args: &JudgeArgs, out: &mut dyn Write) -> Result<()> {
    let game = replay(args)?;
    let ruling = game.ruling();
    if args.json {
        let mut v = ruling_json(&ruling);
        v["played"] = json!(game.record().ply());
        v["played_past"] = json!(game.played_past());
        writeln!(out, "{v}")?;
    } else {
        writeln!(out, "{}.", ruling.headline())?;
        writeln!(out, "{}", ruling.explanation())?;
        // Each judged move in a player's words (the line the trainer's judge panel shows).
        let record = game.record();
        let mut moves: Vec<_> = ruling.red.moves.iter().chain(&ruling.black.moves).collect();
        moves.sort_by_key(|m| m.ply);
        if !moves.is_empty() {
            writeln!(out, "Why, move by move:")?;
        }
        for m in moves {
            writeln!(
                out,
                "  ply {} {}: {}.",
                m.ply,
                m.wxf,
                m.why(record.position(m.ply))
            )?;
        }
        if let Some(note) = game.past_note() {
            writeln!(out, "{note}")?;
        }
    }
    Ok(())
}

#[derive(Serialize)]
struct Row {
    ply: usize,
    wxf: String,
    ucci: String,
    side: &'static str,
    repetitions: usize,
    /// The most recent earlier occurrences, at most `--ntimes` (see
    /// [`Ruling::earlier`](threefold::xiangqi::judge::Ruling)).
    earlier: Vec<usize>,
    status: String,
    detail: String,
    /// The game's ruling, on the ply it was made.
    ruling: Option<serde_json::Value>,
    /// On the plies after it: the ply of the ruling that stands.
    past_ruling: Option<usize>,
}

/// One row per ply, written as it is made: a row holds its ply's repetition count, the few
/// earlier occurrences a ruling counts (never the whole history, so memory and output grow
/// linearly with the game), and the game's ruling on the ply it was made; the rows after it
/// say that they were played past it (the ruling stands, [`JudgedGame`]).
fn analyze(args: &JudgeArgs, out: &mut dyn Write) -> Result<()> {
    let game = replay(args)?;
    let full = game.record();
    let standing = game.standing();
    let counted = args.ntimes.ntimes();
    if !args.json {
        writeln!(
            out,
            "{:>4}  {:<6} {:<5} {:>4}  {:<7} ruling / detail",
            "ply", "wxf", "ucci", "rep", "status"
        )?;
    }
    for ply in 1..=full.ply() {
        let (mut repetitions, mut earlier) = (1, Vec::new());
        for k in full.occurrences(ply) {
            repetitions += 1;
            if earlier.len() < counted {
                earlier.push(k);
            }
        }
        let m = full.move_at(ply);
        let mover = full.position(ply - 1).side_to_move();
        let note = full.move_note(ply);
        let (status, detail) = (note.name().to_string(), note.detail(mover));
        let w = wxf(full.position(ply - 1), m);
        let ruled_here = standing.filter(|r| r.ply == ply);
        let past = standing.filter(|r| r.ply < ply).map(|r| r.ply);
        if args.json {
            let row = Row {
                ply,
                wxf: w,
                ucci: m.ucci(),
                side: mover.name(),
                repetitions,
                earlier,
                status,
                detail,
                ruling: ruled_here.map(ruling_json),
                past_ruling: past,
            };
            writeln!(out, "{}", serde_json::to_string(&row)?)?;
        } else {
            let rest = match (ruled_here, past) {
                (Some(r), _) => format!("{} — {detail}", r.headline()),
                (None, Some(k)) => format!("{detail} [played past the ruling after ply {k}]"),
                (None, None) => detail,
            };
            writeln!(
                out,
                "{ply:>4}  {w:<6} {:<5} {repetitions:>4}  {status:<7} {rest}",
                m.ucci()
            )?;
        }
    }
    Ok(())
}

/// How long another engine may take to answer `uci` and `isready`.
const ENGINE_REPLY: Duration = Duration::from_secs(5);

/// Another UCI engine on pipes. Every wait for a reply has a deadline: its
/// output is read on a thread of its own and handed over a channel, so an
/// engine that never answers (`--fsf /bin/cat`) is a one-line error, not a
/// hang. Dropping it kills the process.
struct Engine {
    path: String,
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: mpsc::Receiver<std::io::Result<String>>,
}

impl Engine {
    fn spawn(path: &str) -> Result<Engine> {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| anyhow!("{path}: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let end = line.is_err();
                if tx.send(line).is_err() || end {
                    break;
                }
            }
        });
        Ok(Engine {
            path: path.to_string(),
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, command: &str) -> Result<()> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| anyhow!("{}: cannot send '{command}': {e}", self.path))
    }

    /// The first line starting with `prefix` within `limit`.
    fn wait_for(&mut self, prefix: &str, limit: Duration) -> Result<String> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Ok(line)) if line.starts_with(prefix) => return Ok(line),
                Ok(Ok(_)) => {}
                Ok(Err(e)) => return Err(anyhow!("{}: {e}", self.path)),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(anyhow!(
                        "{}: no '{prefix}' within {:.0} s (is it a UCI engine?)",
                        self.path,
                        limit.as_secs_f64()
                    ));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(anyhow!("{}: ended without a '{prefix}' line", self.path));
                }
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Fairy-Stockfish's `go perft` from the start position: (leaves, seconds),
/// timed from the command to the count (start-up excluded). `ours` is our
/// own time for the same count: the other engine gets fifty times that (and
/// [`ENGINE_REPLY`]) before it is given up.
fn fsf_perft(path: &str, depth: u32, ours: f64) -> Result<(u64, f64)> {
    let mut engine = Engine::spawn(path)?;
    engine.send("uci")?;
    engine.wait_for("uciok", ENGINE_REPLY)?;
    engine.send("setoption name UCI_Variant value xiangqi")?;
    engine.send(&format!("position fen {START_FEN}"))?;
    engine.send("isready")?;
    engine.wait_for("readyok", ENGINE_REPLY)?;
    let t = Instant::now();
    engine.send(&format!("go perft {depth}"))?;
    let limit = ENGINE_REPLY + Duration::from_secs_f64(ours * 50.0);
    let line = engine.wait_for("Nodes searched", limit)?;
    let secs = t.elapsed().as_secs_f64();
    let _ = engine.send("quit");
    let n = line
        .rsplit(' ')
        .next()
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| anyhow!("{path}: cannot read '{line}'"))?;
    Ok((n, secs))
}

/// The most plies of shuffling games `bench --plies` generates: the games are
/// held in memory for the timed rounds (two bytes a move and a start position
/// a game), and each round judges every position twice, so past this the
/// memory and the minutes only grow.
const MAX_BENCH_PLIES: usize = 10_000_000;

fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<()> {
    if args.plies > MAX_BENCH_PLIES {
        return Err(anyhow!(
            "--plies {} is too many: at most {MAX_BENCH_PLIES} (the games are held in memory)",
            args.plies
        ));
    }
    let rounds = args.rounds.max(1);
    let all = args.target == BenchTarget::All;
    if (all && !args.no_perft) || args.target == BenchTarget::Perft {
        bench_perft(args, args.depth.unwrap_or(5), rounds, out)?;
    }
    if (all || args.target == BenchTarget::Judge) && args.plies > 0 {
        bench_judge(args, rounds, out)?;
    }
    if all || args.target == BenchTarget::Search {
        let depth = match args.target {
            BenchTarget::Search => args.depth.unwrap_or(DEFAULT_SEARCH_DEPTH),
            _ => DEFAULT_SEARCH_DEPTH,
        };
        bench_search(args, depth, rounds, out)?;
    }
    Ok(())
}

/// Perft from the start, ours and Fairy-Stockfish's `go perft`, alternating.
fn bench_perft(args: &BenchArgs, depth: u32, rounds: usize, out: &mut dyn Write) -> Result<()> {
    let use_fsf = args.fsf != "none" && std::path::Path::new(&args.fsf).exists();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let progress = Progress::count((rounds * (1 + usize::from(use_fsf))) as u64, "perfts");
    let out = &mut progress.lines(out);
    for round in 1..=rounds {
        let (n, secs) = perft_start(depth)?;
        progress.inc(1);
        let rate = n as f64 / secs / 1e6;
        writeln!(
            out,
            "round {round}: threefold perft {}: {n} leaves in {secs:.3} s = {rate:.1}M leaves/s",
            depth
        )?;
        ours.push(rate);
        if use_fsf {
            let (m, secs) = fsf_perft(&args.fsf, depth, secs)?;
            progress.inc(1);
            if m != n {
                return Err(anyhow!("fairy-stockfish counts {m} leaves, threefold {n}"));
            }
            let rate = m as f64 / secs / 1e6;
            writeln!(
                out,
                "round {round}: fairy-stockfish perft {}: {m} leaves in {secs:.3} s = {rate:.1}M leaves/s",
                depth
            )?;
            theirs.push(rate);
        }
    }
    let ours = median(ours);
    if use_fsf {
        let theirs = median(theirs);
        writeln!(
            out,
            "perft {} from the start, median of {rounds} (bulk-counted last ply): threefold {ours:.1}M leaves/s, fairy-stockfish {theirs:.1}M leaves/s, {:.2}x",
            depth,
            ours / theirs
        )?;
    } else {
        writeln!(
            out,
            "perft {} from the start, median of {rounds} (bulk-counted last ply): threefold {ours:.1}M leaves/s",
            depth
        )?;
    }
    Ok(())
}

/// The judge along shuffling games, lazy and eager, alternating.
fn bench_judge(args: &BenchArgs, rounds: usize, out: &mut dyn Write) -> Result<()> {
    let games = shuffling_games(args.plies, args.game_length.max(1), 0x7872_6570_6574);
    let (mut lazy, mut eager) = (Vec::new(), Vec::new());
    let mut last = None;
    let progress = Progress::count(2 * rounds as u64, "judge runs");
    let out = &mut progress.lines(out);
    for round in 1..=rounds {
        for (mode, acc) in [(ChaseMode::Lazy, &mut lazy), (ChaseMode::Eager, &mut eager)] {
            let (run, secs) = judge_games(&games, mode, args.ntimes);
            progress.inc(1);
            if let Some(prev) = last
                && prev != run
            {
                {
                    return Err(anyhow!(
                        "lazy and eager judges disagree: {prev:?} vs {run:?}"
                    ));
                }
            }
            last = Some(run);
            let us = secs * 1e6 / run.positions as f64;
            writeln!(
                out,
                "round {round}: judge ({mode:?}): {} positions, {} ruled ({} win/loss), {us:.2} us/position",
                run.positions, run.ruled, run.decisive
            )?;
            acc.push(us);
        }
    }
    writeln!(
        out,
        "judge over {} plies of shuffling games, ntimes {}, median of {rounds}: lazy {:.2} us/position, eager {:.2} us/position",
        args.plies,
        args.ntimes.ntimes(),
        median(lazy),
        median(eager)
    )?;
    Ok(())
}

/// The least time Fairy-Stockfish is given on a search bench position: a search of
/// a millisecond or two mostly measures its start-up, not its speed.
const FSF_MIN_MOVETIME_MS: u64 = 50;

/// Fairy-Stockfish's search of each position, `go movetime` each position's time
/// in `ours` (at least [`FSF_MIN_MOVETIME_MS`]), after `ucinewgame`, one thread,
/// a `hash_mb` table: (nodes, milliseconds) of its last `info ... nodes` line per
/// position, as it reports them.
fn fsf_search(
    path: &str,
    positions: &[BenchPosition],
    ours: &SearchRun,
    hash_mb: usize,
    progress: &Progress,
) -> Result<Vec<(u64, u64)>> {
    let mut engine = Engine::spawn(path)?;
    engine.send("uci")?;
    engine.wait_for("uciok", ENGINE_REPLY)?;
    engine.send("setoption name UCI_Variant value xiangqi")?;
    engine.send("setoption name Threads value 1")?;
    engine.send(&format!("setoption name Hash value {hash_mb}"))?;
    let mut got = Vec::with_capacity(positions.len());
    for (p, r) in positions.iter().zip(&ours.positions) {
        engine.send("ucinewgame")?;
        engine.send(&format!("position {}", fsf_position(p)))?;
        engine.send("isready")?;
        engine.wait_for("readyok", ENGINE_REPLY)?;
        let ms = (r.time.as_millis() as u64).max(FSF_MIN_MOVETIME_MS);
        engine.send(&format!("go movetime {ms}"))?;
        let deadline = Instant::now() + ENGINE_REPLY + Duration::from_millis(ms * 5);
        let mut last = None;
        loop {
            let line = engine.wait_for("", deadline.saturating_duration_since(Instant::now()))?;
            if line.starts_with("bestmove") {
                break;
            }
            if line.starts_with("info ")
                && let Some(n) = info_field(&line, "nodes")
            {
                last = Some((n, info_field(&line, "time").unwrap_or(0)));
            }
        }
        let (n, t) = last.ok_or_else(|| {
            anyhow!(
                "{path}: no 'info ... nodes' line before 'bestmove' in position {}",
                got.len() + 1
            )
        })?;
        got.push((n, t));
        progress.inc(1);
    }
    let _ = engine.send("quit");
    Ok(got)
}

/// The number after `name` in a UCI `info` line.
fn info_field(line: &str, name: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|&w| w == name)?;
    words.next()?.parse().ok()
}

/// The search bench: our search over the bench positions with the judge on and/or
/// off (`--judge`), and Fairy-Stockfish on the same positions for the same time,
/// alternating over `rounds`; the last line holds the medians.
fn bench_search(args: &BenchArgs, depth: u32, rounds: usize, out: &mut dyn Write) -> Result<()> {
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(anyhow!(
            "--depth {depth}: the search bench searches to a depth in 1..={MAX_DEPTH}"
        ));
    }
    let positions = search_positions();
    let use_fsf = args.fsf != "none" && std::path::Path::new(&args.fsf).exists();
    if !use_fsf && args.fsf != "none" {
        writeln!(
            out,
            "search bench: no {} (apt-get install fairy-stockfish, or --fsf PATH): threefold alone",
            args.fsf
        )?;
    }
    let settings = args.judge.settings();
    let mut ours: Vec<Vec<f64>> = vec![Vec::new(); settings.len()];
    let mut nodes: Vec<Option<u64>> = vec![None; settings.len()];
    let mut theirs = Vec::new();
    let mut first: Vec<SearchRun> = Vec::new();
    let mut fsf_first = Vec::new();
    let name = |judge: bool| if judge { "judge on" } else { "judge off" };
    let runs = rounds * (settings.len() + usize::from(use_fsf));
    let progress = Progress::count((runs * positions.len()) as u64, "searches");
    let out = &mut progress.lines(out);
    for round in 1..=rounds {
        // This round's first run: Fairy-Stockfish gets its time per position.
        let mut timed: Option<SearchRun> = None;
        for (k, &judge) in settings.iter().enumerate() {
            let run = search_bench(&positions, depth, args.hash, judge, &mut || progress.inc(1))?;
            if let Some(n) = nodes[k]
                && n != run.nodes
            {
                return Err(anyhow!(
                    "the search counted {n} nodes, then {} ({}): not deterministic",
                    run.nodes,
                    name(judge)
                ));
            }
            nodes[k] = Some(run.nodes);
            writeln!(
                out,
                "round {round}: threefold depth {depth}, {}: {} nodes in {:.3} s = {} nps",
                name(judge),
                run.nodes,
                run.time.as_secs_f64(),
                run.nps
            )?;
            ours[k].push(run.nps as f64);
            if round == 1 {
                first.push(run.clone());
            }
            timed.get_or_insert(run);
        }
        if let Some(timed) = timed.as_ref().filter(|_| use_fsf) {
            let got = fsf_search(&args.fsf, &positions, timed, args.hash, &progress)?;
            let (n, ms) = got.iter().fold((0, 0), |(n, t), &(a, b)| (n + a, t + b));
            let rate = n as f64 * 1000.0 / ms.max(1) as f64;
            writeln!(
                out,
                "round {round}: fairy-stockfish, the same time per position: {n} nodes in {:.3} s = {rate:.0} nps",
                ms as f64 / 1000.0
            )?;
            theirs.push(rate);
            if round == 1 {
                fsf_first = got;
            }
        }
    }
    // The positions of the first round: nodes are the same in every round.
    for (i, p) in positions.iter().enumerate() {
        let mut line = format!("position {:2} ({:2} moves):", i + 1, p.moves.len());
        for run in &first {
            let r = &run.positions[i];
            let best = r.best.map_or_else(|| "-".to_string(), |m| m.ucci());
            line += &format!(
                " {} {:>9} nodes {:>7.3} s {best:<4};",
                name(run.judge),
                r.nodes,
                r.time.as_secs_f64()
            );
        }
        if let Some(&(n, ms)) = fsf_first.get(i) {
            line += &format!(
                " fairy-stockfish {n:>9} nodes {:>7.3} s",
                ms as f64 / 1000.0
            );
        }
        writeln!(out, "{}", line.trim_end_matches(';'))?;
    }
    let mut summary = format!(
        "xiangqi search bench: {} positions, depth {depth}, hash {} MB, median of {rounds}:",
        positions.len(),
        args.hash
    );
    let medians: Vec<f64> = ours.into_iter().map(median).collect();
    for (k, &judge) in settings.iter().enumerate() {
        summary += &format!(
            " {} {} nodes {:.0} nps;",
            name(judge),
            nodes[k].unwrap_or(0),
            medians[k]
        );
    }
    if settings.len() == 2 {
        // Time per node with the judge against without: its cost in time.
        summary += &format!(
            " the judge costs {:+.1}% time per node;",
            (medians[1] / medians[0] - 1.0) * 100.0
        );
    }
    if use_fsf {
        let theirs = median(theirs);
        summary += &format!(
            " fairy-stockfish {theirs:.0} nps; threefold/fairy-stockfish {:.2}x",
            medians[0] / theirs
        );
    }
    writeln!(out, "{}", summary.trim_end_matches(';'))?;
    Ok(())
}
