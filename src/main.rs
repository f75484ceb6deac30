//! The `threefold` binary: the trainer (TUI) and its subcommands.

mod cli;

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use cli::progress::Progress;

/// `threefold --version`: the package version and the commit it was built from (`build.rs`).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("THREEFOLD_COMMIT"),
    ")"
);

/// A terminal trainer about repetition of positions in chess and xiangqi.
#[derive(Parser, Debug)]
#[command(name = "threefold", version = VERSION, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Draw the board with ASCII letters instead of Unicode pieces (also after `xiangqi`).
    /// Only the trainer draws a board: the subcommands' help does not offer it.
    #[arg(long)]
    ascii: bool,
    /// Start from this position (FEN; with --xiangqi a xiangqi FEN).
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    fen: Option<String>,
    /// Open a game of this PGN file (a file of several games lists them to choose from; with
    /// --xiangqi a xiangqi game).
    #[arg(long, value_name = "FILE")]
    pgn: Option<std::path::PathBuf>,
    /// Open the trainer on its xiangqi screen (as `threefold xiangqi` does).
    #[arg(long)]
    xiangqi: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// What the rules say about every ply of a game: repetitions, claims, endings.
    Analyze(cli::analyze::AnalyzeArgs),
    /// Post-game review of PGN games: missed and incorrect claims, and with the engine the
    /// claims and repetitions that mattered; as a report, JSON lines or annotated PGN.
    Review(cli::review::ReviewArgs),
    /// How five repetition detectors of chess programs see every ply of a game.
    Detectors(cli::detectors::DetectorsArgs),
    /// Euwe's Thue–Morse knight sequence under the former German rule and FIDE's.
    Euwe(cli::euwe::EuweArgs),
    /// Benchmarks: the engine's search (default) or the rules core.
    Bench(BenchArgs),
    /// The sparring measurement: games of the sparring engine against a weaker stand-in, and
    /// how often a claimable repetition (chess) or a ruling (xiangqi) arose.
    Sparring(SparringArgs),
    /// Drill puzzles: `--check [PATH]` checks every puzzle file (of a directory, or one file) against the rules core.
    Drills(DrillsArgs),
    /// Run the engine as a UCI engine on stdin/stdout.
    Uci,
    /// Xiangqi: without a subcommand the trainer's xiangqi screen; perft, the WXF repetition
    /// judge, per-ply analysis, benchmarks.
    Xiangqi(cli::xiangqi::XiangqiArgs),
    /// Shell completions on standard output (e.g. `threefold completions bash >
    /// ~/.local/share/bash-completion/completions/threefold`).
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// The manual page (roff) on standard output, or with `--dir` one page per command.
    Man(cli::shell::ManArgs),
}

#[derive(clap::Args, Debug)]
struct DrillsArgs {
    /// Check every puzzle or scenario file in DIR, or the one file PATH names (e.g.
    /// from-your-games.toml in the data directory) (default: puzzles/ and scenarios/, else
    /// the puzzles and scenarios built in): one line per problem, exit 1 if any.
    #[arg(long, value_name = "PATH", num_args = 0..=1)]
    check: Option<Option<std::path::PathBuf>>,
    /// List the scenarios built in (real games a few moves before a repetition), one a
    /// line: id, game, players, event, year, and the side that plays from which move.
    #[arg(long, conflicts_with = "check")]
    scenarios: bool,
}

#[derive(clap::Args, Debug)]
struct SparringArgs {
    /// The game: chess or xiangqi.
    #[arg(long, value_enum, default_value_t = SparringGame::Chess)]
    game: SparringGame,
    /// Games per run.
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// The sparring engine's level.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=8))]
    level: u8,
    /// The stand-in's level (normal mode): by default 2, the level below the sparring
    /// engine's default 3, as a player who spars against level 3 might be.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=8))]
    stand_in: u8,
    /// Moves (each side's) a game is played for at most.
    #[arg(long, default_value_t = 60)]
    moves: usize,
    /// Which runs: sparring on, off (the reference), or both.
    #[arg(long, value_enum, default_value_t = SparringRuns::Both)]
    runs: SparringRuns,
    /// The seed of the openings and the engines' noise.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also print each game's moves (UCI, UCCI) after its line.
    #[arg(long)]
    verbose: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SparringGame {
    Chess,
    Xiangqi,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SparringRuns {
    On,
    Off,
    Both,
}

#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// What to benchmark.
    #[arg(value_enum, default_value_t = BenchTarget::Search)]
    target: BenchTarget,
    /// Search depth for each bench position (search: 14; pollution: 8).
    #[arg(long, value_parser = cli::depth_parser())]
    depth: Option<u32>,
    /// Node budget per position (suite).
    #[arg(long, default_value_t = 200_000)]
    nodes: u64,
    /// Plies played on from each suite position (pollution).
    #[arg(long, default_value_t = threefold::lab::pollution::DEFAULT_PLIES)]
    moves: usize,
    /// Transposition table size in MB (search, suite, pollution).
    #[arg(long, default_value_t = threefold::engine::DEFAULT_HASH_MB, value_parser = cli::hash_mb_parser())]
    hash: usize,
    /// Repetition detector of the search: zarkov, belle, rookie or axon.
    #[arg(long, default_value = "zarkov")]
    repetition: threefold::engine::chess::repetition::Method,
    /// Stockfish's upcoming-repetition draw score in the search.
    #[arg(long)]
    upcoming: bool,
    /// Count the detector's wrong answers against the exact key scan (slower).
    #[arg(long)]
    audit: bool,
    /// Store Muller's shadow score (UCI ShadowScore) in the search bench.
    #[arg(long)]
    shadow: bool,
    #[command(flatten)]
    rules: cli::bench_rules::BenchRulesArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum BenchTarget {
    /// The engine's search over the positions in assets/.
    Search,
    /// The rules core replaying shuffling games.
    Rules,
    /// Solve rates on the repetition suite, plain and with the shadow score (--nodes).
    Suite,
    /// Repetition draws read back on other paths, plain and shadow (--depth, --moves).
    Pollution,
}

/// `threefold sparring`: the runs asked for, sparring on first ([`threefold::lab::sparring`]).
fn sparring(args: &SparringArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    use threefold::lab::sparring::{GameKind, Settings, run};
    let runs: &[bool] = match args.runs {
        SparringRuns::On => &[true],
        SparringRuns::Off => &[false],
        SparringRuns::Both => &[true, false],
    };
    for &on in runs {
        let s = Settings {
            game: match args.game {
                SparringGame::Chess => GameKind::Chess,
                SparringGame::Xiangqi => GameKind::Xiangqi,
            },
            games: args.games,
            level: args.level,
            stand_in: args.stand_in,
            moves: args.moves,
            sparring: on,
            seed: args.seed,
            hash_mb: threefold::engine::DEFAULT_HASH_MB,
            verbose: args.verbose,
        };
        run(&s, out)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // A usage error: one message on stderr, exit 2.
        Err(e) if e.use_stderr() => e.exit(),
        // `--help`, `--version`, `help <command>`: on stdout, which may not take them (a
        // full disk): clap's `exit` would drop the error and exit 0.
        // Where the locale is not UTF-8, in ASCII as every output ("–", "²" in `euwe`'s).
        Err(e) => {
            let printed = if threefold::tui::locale_is_utf8(|k| std::env::var(k).ok()) {
                e.print()
            } else {
                AsciiOut::new(std::io::stdout().lock()).write_all(e.render().to_string().as_bytes())
            };
            return match printed.and_then(|()| std::io::stdout().flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(io) => {
                    let _ = writeln!(
                        std::io::stderr(),
                        "error: cannot write to standard output: {io}"
                    );
                    ExitCode::from(2)
                }
            };
        }
    };
    if let Some(Command::Uci) = cli.command {
        if stdout_was_closed() {
            let _ = writeln!(
                std::io::stderr(),
                "error: standard output is closed: the GUI could not read the engine's answers"
            );
            return ExitCode::from(2);
        }
        // The UCI loop writes to stdout from its own threads; output it cannot write (the
        // GUI gone, a full disk) ends it with an error.
        return match threefold::engine::uci::run(std::io::stdin().lock(), std::io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "error: {e}");
                ExitCode::from(2)
            }
        };
    }
    let stdout = std::io::stdout();
    // Where the locale is not UTF-8 (`LC_ALL=C`), the output goes to ASCII as the trainer's
    // screen does (≈, ·, —, ✗ …: `threefold::tui::theme::ascii_char`).
    let mut out: Box<dyn Write> = if threefold::tui::locale_is_utf8(|k| std::env::var(k).ok()) {
        Box::new(stdout.lock())
    } else {
        Box::new(AsciiOut::new(stdout.lock()))
    };
    let result = match cli.command {
        Some(Command::Analyze(args)) => cli::analyze::run(&args, &mut out),
        Some(Command::Detectors(args)) => cli::detectors::run(&args, &mut out),
        Some(Command::Euwe(args)) => cli::euwe::run(&args, &mut out),
        Some(Command::Review(args)) => cli::review::run(&args, &mut out),
        Some(Command::Bench(args)) => match args.target {
            BenchTarget::Rules => cli::bench_rules::run(&args.rules, &mut out),
            BenchTarget::Search => threefold::lab::bench::run_setup(
                args.depth.unwrap_or(threefold::lab::bench::DEFAULT_DEPTH),
                args.hash,
                threefold::engine::tt::IndexMapping::Multiply,
                threefold::lab::bench::Setup {
                    repetition: args.repetition,
                    upcoming: args.upcoming,
                    audit: args.audit,
                    shadow: if args.shadow {
                        threefold::engine::shadow::ShadowScore::On
                    } else {
                        threefold::engine::shadow::ShadowScore::Off
                    },
                },
                &mut out,
            )
            .map(|_| ())
            .map_err(Into::into),
            BenchTarget::Suite => {
                use threefold::lab::suite;
                let progress = Progress::count(suite::entries().len() as u64, "positions");
                suite::run(
                    args.nodes,
                    args.hash,
                    &mut progress.lines(&mut out),
                    &mut || progress.inc(1),
                )
                .map(|_| ())
                .map_err(Into::into)
            }
            BenchTarget::Pollution => {
                use threefold::lab::{pollution, suite};
                let plies = suite::entries().len() * args.moves;
                let progress = Progress::count(plies as u64, "plies");
                pollution::run(
                    args.depth.unwrap_or(pollution::DEFAULT_DEPTH),
                    args.moves,
                    args.hash,
                    &mut progress.lines(&mut out),
                    &mut |n| progress.inc(n),
                )
                .map(|_| ())
                .map_err(Into::into)
            }
        },
        Some(Command::Sparring(args)) => sparring(&args, &mut out),
        Some(Command::Xiangqi(cli::xiangqi::XiangqiArgs {
            command: Some(command),
            ..
        })) => cli::xiangqi::run(&command, &mut out),
        Some(Command::Completions { shell }) => {
            cli::shell::completions(shell, Cli::command(), &mut out)
        }
        Some(Command::Man(args)) => cli::shell::man(&args, Cli::command(), &mut out),
        Some(Command::Uci) => unreachable!("handled before stdout is locked"),
        // Exit 1 (not 2) when a puzzle file has a problem.
        Some(Command::Drills(args)) => match drills(&args, &mut out) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
        None | Some(Command::Xiangqi(_)) if !has_terminal() => {
            eprintln!("threefold needs a terminal; try `threefold --help`");
            return ExitCode::from(2);
        }
        xiangqi @ (None | Some(Command::Xiangqi(_))) => {
            match threefold::tui::run(threefold::tui::Options {
                ascii: cli.ascii || matches!(&xiangqi, Some(Command::Xiangqi(x)) if x.ascii()),
                fen: cli.fen,
                pgn: cli.pgn,
                xiangqi: cli.xiangqi || xiangqi.is_some(),
            }) {
                Ok(threefold::tui::Ended::Quit) => Ok(()),
                // As a shell reports a program a signal ended: 128 + its number.
                Ok(threefold::tui::Ended::Signal(n)) => {
                    return ExitCode::from(128u8.saturating_add(n));
                }
                Err(e) => Err(e),
            }
        }
    };
    let _ = out.flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`threefold analyze ... | head -1`): nothing to say.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        // Exit 1 (not 2) when `review --all` skipped games it could not read: the others
        // were reviewed, each bad game named on its own line.
        // Ctrl-C in `review --all`: what was read was written; 128 + SIGINT.
        Err(e) if e.downcast_ref::<cli::review::Interrupted>().is_some() => {
            let _ = writeln!(std::io::stderr(), "{e}");
            ExitCode::from(130)
        }
        Err(e) if e.downcast_ref::<cli::review::GamesSkipped>().is_some() => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(1)
        }
        Err(e) => {
            let msg =
                threefold::visible::visible(&format!("{e:#}").replace('\n', " ")).into_owned();
            // Not eprintln!, which panics (exit 101) when stderr is a terminal that hung up.
            let _ = writeln!(std::io::stderr(), "error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Whether the trainer can run: its screen goes to stdout, and its keys come from stdin or,
/// when stdin is redirected, from the controlling terminal (as crossterm reads them).
fn has_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal()
        && (std::io::stdin().is_terminal()
            || std::fs::File::open("/dev/tty").is_ok_and(|t| t.is_terminal()))
}

/// Whether standard output was closed when the program started (`threefold uci >&-`). Rust's
/// runtime then opens /dev/null read-write in its place, so writing never fails and the
/// answers would vanish: that /dev/null, read-write, is how it is recognised (a shell's
/// `> /dev/null` opens it write-only).
#[cfg(unix)]
fn stdout_was_closed() -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    // SAFETY: fcntl(F_GETFL) on a descriptor only reads its flags.
    let flags = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFL) };
    if flags < 0 {
        return true;
    }
    let (Ok(out), Ok(null)) = (
        std::fs::metadata("/proc/self/fd/1").or_else(|_| std::fs::metadata("/dev/fd/1")),
        std::fs::metadata("/dev/null"),
    ) else {
        return false;
    };
    flags & libc::O_ACCMODE == libc::O_RDWR
        && out.file_type().is_char_device()
        && out.rdev() == null.rdev()
}

#[cfg(not(unix))]
fn stdout_was_closed() -> bool {
    false
}

/// Whether an error comes from writing to a pipe whose reader has closed it.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>()
                .is_some_and(|j| j.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
    })
}

/// `threefold drills`: with `--check [DIR]`, one line per problem and false
/// (exit 1) if any, else a summary and true; without it, the built-in themes.
/// Output that cannot be written is an error (exit 2), as for every command.
fn drills(args: &DrillsArgs, out: &mut impl Write) -> anyhow::Result<bool> {
    if args.scenarios {
        let coll = threefold::drills::load_builtin();
        if coll.scenarios.is_empty() {
            writeln!(out, "No scenarios are built in yet.")?;
        }
        for s in &coll.scenarios {
            writeln!(out, "{}", threefold::visible::visible(&s.listing()))?;
        }
        out.flush()?;
        return Ok(true);
    }
    let Some(dir) = &args.check else {
        let coll = threefold::drills::load_builtin();
        for t in &coll.themes {
            writeln!(
                out,
                "{:<12} {:>3} puzzles  {}",
                t.id,
                t.puzzles.len(),
                t.name
            )?;
        }
        for t in &coll.xiangqi {
            writeln!(
                out,
                "{:<18} {:>3} puzzles  {}",
                t.id,
                t.puzzles.len(),
                t.name
            )?;
        }
        out.flush()?;
        return Ok(true);
    };
    let (lines, ok) = match dir {
        Some(dir) => threefold::drills::cli_check(dir),
        None if std::path::Path::new("puzzles").is_dir() => threefold::drills::cli_check_dirs(
            std::path::Path::new("puzzles"),
            std::path::Path::new("scenarios"),
        ),
        None => threefold::drills::cli_check_builtin(),
    };
    for l in &lines {
        writeln!(out, "{}", threefold::visible::visible(l))?;
    }
    out.flush()?;
    Ok(ok)
}

/// A writer that passes ASCII on and writes every other character as
/// `threefold::tui::theme::ascii_char` does (a character split between two writes is
/// kept until its end arrives).
struct AsciiOut<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> AsciiOut<W> {
    fn new(inner: W) -> AsciiOut<W> {
        AsciiOut {
            inner,
            pending: Vec::new(),
        }
    }
}

impl<W: Write> Write for AsciiOut<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        let (text, rest) = match std::str::from_utf8(&self.pending) {
            Ok(t) => (t.to_string(), Vec::new()),
            Err(e) if e.error_len().is_none() => {
                let (done, rest) = self.pending.split_at(e.valid_up_to());
                (String::from_utf8_lossy(done).into_owned(), rest.to_vec())
            }
            Err(_) => (
                String::from_utf8_lossy(&self.pending).into_owned(),
                Vec::new(),
            ),
        };
        self.inner
            .write_all(threefold::tui::theme::ascii_text(&text).as_bytes())?;
        self.pending = rest;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}
