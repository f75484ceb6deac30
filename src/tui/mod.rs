//! The terminal trainer (ratatui + crossterm): play the engine or a friend,
//! watch repetitions pile up, claim draws, step through Euwe's sequence.
//!
//! - [`app`]: state, actions, update (no I/O but the optional game files):
//!   routes to the screens and carries out their requests.
//! - [`screen`]: the screen contract every screen implements ([`screen::Component`]) and
//!   the one request type they answer with ([`screen::Request`]).
//! - [`game`]: what both games' screens share, written once (players, clocks, history,
//!   the engine's seat, files, the questions before a game or a file is lost, keeping a
//!   game on quitting, and the one review screen [`game::review`]).
//! - [`chess`]: chess's screens: the game screen (with its overlays and PGN files), the
//!   drills [`chess::drill`], Euwe's sequence [`chess::euwe`] and the review
//!   [`chess::review`]; [`xiangqi`]: the same for xiangqi ([`xiangqi::drill`],
//!   [`xiangqi::review`]).
//! - [`app::render`]: side-effect-free drawing; [`board`] and [`xq_board`]: the two board
//!   widgets (leaves, as [`widgets`], the layout and drawing pieces the screens share).
//! - [`keys`]: the one key table (help overlay and hints come from it).
//! - [`line_edit`]: the one line editor behind every text prompt.
//! - [`engine_thread`]: the engine on its own thread.

pub mod app;
pub mod board;
// The frame's drawing at its old path (the library's callers draw with `tui::render`).
pub use app::render;
pub mod chess;
pub mod clock;
pub mod config;
pub mod engine_thread;
pub mod engines;
pub mod game;
pub mod keys;
pub mod line_edit;
pub mod prompt;
pub mod screen;
pub mod terminal;
pub mod theme;
pub mod tty_wait;
pub mod widgets;
pub mod xiangqi;
pub mod xq_board;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[cfg(unix)]
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};

use crossterm::event::{self, Event};

use crate::drills::GameKind;
use crate::rules::Game;
use app::{Action, App, Effect, InputKind};
use engine_thread::EngineThread;
use tty_wait::{TtyState, TtyWait};

/// Command-line options of the trainer.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub ascii: bool,
    pub fen: Option<String>,
    pub pgn: Option<PathBuf>,
    /// Open on the xiangqi screen.
    pub xiangqi: bool,
}

/// What the player is told when the configured `hash_mb` could not be had
/// and the engine got `got` MiB instead (None when it got what was asked).
fn hash_fallback_message(asked: usize, got: usize, reason: Option<&str>) -> Option<String> {
    if got == asked {
        return None;
    }
    let default = if got == config::Config::default().hash_mb {
        " (the default)"
    } else {
        ""
    };
    Some(format!(
        "hash_mb = {asked}: {}; the engine uses {got} MiB{default}",
        reason.unwrap_or("that much memory cannot be had")
    ))
}

/// Whether the locale lets the terminal show characters beyond ASCII: the first of
/// `LC_ALL`, `LC_CTYPE` and `LANG` that is set names UTF-8 (none set: assumed so, as most
/// terminals are today).
pub fn locale_is_utf8(var: impl Fn(&str) -> Option<String>) -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| var(k).filter(|v| !v.is_empty()))
        .is_none_or(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

/// How the trainer ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The player quit.
    Quit,
    /// This signal ended it (the binary exits with 128 + its number, as a
    /// shell reports a program a signal ended).
    Signal(u8),
}

/// `--fen` or `--pgn` (with `--xiangqi`, xiangqi's): the screen the trainer opens on starts
/// from that position or game, read as a FEN typed after `F` or a file opened with `o` is,
/// by the screen's own code, the same for both games (the kept game is then offered to be
/// replaced by it). A position or file that cannot be read is an error: one line, and the
/// trainer does not open.
fn open_given(
    app: &mut App,
    screen: app::Screen,
    fen: Option<&str>,
    pgn: Option<&Path>,
) -> anyhow::Result<()> {
    let pgn = pgn.map(|p| p.display().to_string());
    for (kind, text) in [(InputKind::Fen, fen), (InputKind::LoadPgn, pgn.as_deref())] {
        if let Some(text) = text {
            app.with_screen(screen, |c, env, out| c.submit(kind, text, env, out));
        }
    }
    if let Some(m) = app.message.take_if(|m| m.is_error()) {
        // Nothing to correct below on the command line: the reason alone.
        anyhow::bail!("{}", m.text.trim_end_matches(game::CORRECT_BELOW));
    }
    Ok(())
}

/// The trainer as the command line starts it, before its files are set: the position or
/// game given (`--fen`, `--pgn`) read on the screen it opens on by [`open_given`], in both
/// games (chess's FEN was read before the trainer was built, its error the rules core's).
fn given_app(cfg: &config::Config, opts: &Options) -> anyhow::Result<App> {
    let mut app = App::new(cfg, Game::new());
    let screen = match opts.xiangqi {
        true => app::Screen::Xiangqi,
        false => app::Screen::Play,
    };
    open_given(&mut app, screen, opts.fen.as_deref(), opts.pgn.as_deref())?;
    Ok(app)
}

/// Where a game in progress is kept in the data directory `dir`: `STEM.json`. An older
/// run kept the xiangqi game as `STEM.pgn`: a file of that name, and none of the new, is
/// renamed so that it is read (its text is read as it was written) and kept in its place.
fn kept_file(dir: &Path, stem: &str) -> PathBuf {
    let path = dir.join(format!("{stem}.json"));
    let older = dir.join(format!("{stem}.pgn"));
    if !path.exists() && older.is_file() {
        let _ = std::fs::rename(&older, &path);
    }
    path
}

/// Open the trainer; returns when the user quits or a signal ends it.
pub fn run(opts: Options) -> anyhow::Result<Ended> {
    let launched = Instant::now();
    let trace = std::env::var_os("THREEFOLD_TRACE").map(PathBuf::from);
    let cfg_path = config::default_path();
    let (cfg, cfg_msg) = match &cfg_path {
        Some(p) => config::load_or_create(p),
        None => (config::Config::default(), None),
    };
    let mut app = given_app(&cfg, &opts)?;
    // Letters wherever the terminal cannot show the pieces' characters: a locale that is
    // not UTF-8 (chess's glyphs and xiangqi's Chinese pieces alike).
    app.ascii |= opts.ascii || !locale_is_utf8(|k| std::env::var(k).ok());
    app.config_path = cfg_path;
    app.play.resume_path = config::data_dir().map(|d| d.join("game-in-progress.json"));
    app.drills_file = crate::drills::from_games::default_file();
    app.xiangqi.kept_path = config::data_dir().map(|d| kept_file(&d, "xiangqi-in-progress"));
    let given = opts.fen.is_some() || opts.pgn.is_some();
    app.offer_kept_games(given, opts.xiangqi);
    if let Some(m) = cfg_msg {
        app.add_error(m);
    }
    let chosen = engine_thread::default_opponent(cfg.hash_mb);
    let refused = chosen.refused.as_ref().map(ToString::to_string);
    if let Some(m) = hash_fallback_message(cfg.hash_mb, chosen.hash_mb, refused.as_deref()) {
        app.add_error(m);
    }
    app.play.config.hash_mb = chosen.hash_mb;
    let engine = EngineThread::spawn(chosen.opponent);
    engine.set_contempt(cfg.contempt);

    // SIGTERM, SIGINT, SIGHUP (the terminal closed) and SIGQUIT end the loop
    // like a quit: the game in progress is kept and the terminal restored.
    // So does a hung-up terminal (see `tty_wait`).
    // `signalled` holds the number of the signal that came (0: none).
    let signalled = Arc::new(AtomicUsize::new(0));
    #[cfg(unix)]
    let ending = [SIGTERM, SIGINT, SIGHUP, SIGQUIT];
    #[cfg(not(unix))]
    let ending = [];
    #[cfg(unix)]
    for sig in ending {
        signal_hook::flag::register_usize(sig, Arc::clone(&signalled), sig as usize)?;
    }
    let mut tty = TtyWait::new(&ending)?;
    let mut term = terminal::setup()?;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        event_loop(
            &mut term, &mut tty, &mut app, &engine, launched, trace, &signalled,
        )
    }));
    // Whatever ended the loop (quit, signal, error, panic), the game is kept;
    // if it cannot be, and the player was not asked (a signal cannot ask),
    // it is said once the terminal is back.
    // Stderr may be the terminal that hung up: what is said there must not
    // panic when it cannot be written (eprintln! does).
    let kept = app.play.keep_game_in_progress();
    let xq_kept = app.xiangqi.keep_in_progress();
    terminal::restore();
    // `restore` showed the cursor; ratatui's Drop would show it again and
    // eprintln! its failure on a hung-up terminal, a panic (exit 101).
    std::mem::forget(term);
    if let Err(e) = kept
        && !app.loss_accepted.contains(&GameKind::Chess)
    {
        let _ = writeln!(
            std::io::stderr(),
            "threefold: the game in progress was not kept: {e}"
        );
    }
    if let Err(e) = xq_kept
        && !app.loss_accepted.contains(&GameKind::Xiangqi)
    {
        let _ = writeln!(
            std::io::stderr(),
            "threefold: the xiangqi game in progress was not kept: {e}"
        );
    }
    drop(engine);
    let result = match result {
        Ok(r) => r,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    result.map(|()| match signalled.load(Ordering::Relaxed) {
        0 => Ended::Quit,
        n => Ended::Signal(u8::try_from(n).unwrap_or(u8::MAX)),
    })
}

/// Timings for `THREEFOLD_TRACE` (first frame, key to frame, redraws while
/// the engine thinks), written to the trace file at the end.
struct Trace {
    path: Option<PathBuf>,
    log: Vec<String>,
    frames: u64,
    thinking_frames: u64,
    thinking_time: Duration,
    last_frame: Instant,
}

impl Trace {
    fn new(path: Option<PathBuf>) -> Trace {
        Trace {
            path,
            log: Vec::new(),
            frames: 0,
            thinking_frames: 0,
            thinking_time: Duration::ZERO,
            last_frame: Instant::now(),
        }
    }

    /// A frame was drawn.
    fn frame(&mut self, thinking: bool) {
        self.frames += 1;
        let now = Instant::now();
        if thinking {
            self.thinking_frames += 1;
            self.thinking_time += now - self.last_frame;
        }
        self.last_frame = now;
    }

    fn write(mut self) {
        let Some(path) = self.path.take() else { return };
        self.log.push(format!("frames {}", self.frames));
        if !self.thinking_time.is_zero() {
            self.log.push(format!(
                "redraws_per_s_while_thinking {:.1} ({} frames in {:.2} s)",
                self.thinking_frames as f64 / self.thinking_time.as_secs_f64(),
                self.thinking_frames,
                self.thinking_time.as_secs_f64()
            ));
        }
        if let Ok(mut f) = std::fs::File::create(path) {
            let _ = writeln!(f, "{}", self.log.join("\n"));
        }
    }
}

/// Carry out what the app asked for.
fn carry_out(app: &mut App, engine: &EngineThread) {
    for e in app.effects.drain(..) {
        match e {
            Effect::Think { id, game, limits } => engine.think(id, game, limits),
            Effect::Stop => engine.stop(),
            Effect::NewGame => engine.new_game(),
            Effect::SetHash(mb) => engine.set_hash(mb),
            Effect::SetContempt(cp) => engine.set_contempt(cp),
        }
    }
}

/// Take every terminal event that is queued; true if one was a key.
fn read_events(app: &mut App) -> std::io::Result<bool> {
    let mut is_key = false;
    loop {
        match event::read()? {
            Event::Key(k) => {
                is_key = true;
                app.update(Action::Key(k))
            }
            Event::Mouse(m) => app.update(Action::Mouse(m)),
            Event::Resize(w, h) => app.update(Action::Resize(w, h)),
            _ => {}
        }
        if !tty_wait::event_ready()? {
            return Ok(is_key);
        }
    }
}

/// The panics the end-to-end tests (`tests/tui_pty.rs`) ask for through the environment:
/// `THREEFOLD_TEST_PANIC` panics after the first frame (the terminal is restored),
/// `THREEFOLD_TEST_PANIC_AT_PLY=n` once the game has `n` plies (the game is kept). They
/// exist only with the `test-hooks` feature, which the root package's dev-dependency on
/// itself turns on for `cargo test`: the shipped binary reads no such variable.
#[cfg(feature = "test-hooks")]
struct TestHooks {
    panic_first_frame: bool,
    panic_at_ply: Option<usize>,
}

#[cfg(feature = "test-hooks")]
impl TestHooks {
    fn from_env() -> TestHooks {
        TestHooks {
            panic_first_frame: std::env::var_os("THREEFOLD_TEST_PANIC").is_some(),
            panic_at_ply: std::env::var("THREEFOLD_TEST_PANIC_AT_PLY")
                .ok()
                .and_then(|v| v.parse().ok()),
        }
    }

    /// For the end-to-end test that a panic in play keeps the game.
    fn at_ply(&self, plies: usize) {
        if self.panic_at_ply.is_some_and(|n| plies >= n) {
            panic!("test panic requested by THREEFOLD_TEST_PANIC_AT_PLY");
        }
    }

    /// For the end-to-end test that a panic restores the terminal.
    fn first_frame(&self) {
        if self.panic_first_frame {
            panic!("test panic requested by THREEFOLD_TEST_PANIC");
        }
    }
}

/// Without the `test-hooks` feature (the shipped binary): no hook, nothing read.
#[cfg(not(feature = "test-hooks"))]
struct TestHooks;

#[cfg(not(feature = "test-hooks"))]
impl TestHooks {
    fn from_env() -> TestHooks {
        TestHooks
    }

    fn at_ply(&self, _plies: usize) {}

    fn first_frame(&self) {}
}

fn event_loop(
    term: &mut terminal::Tui,
    tty: &mut TtyWait,
    app: &mut App,
    engine: &EngineThread,
    launched: Instant,
    trace: Option<PathBuf>,
    signalled: &AtomicUsize,
) -> anyhow::Result<()> {
    let mut trace = Trace::new(trace);
    let size = term.size()?;
    app.update(Action::Resize(size.width, size.height));
    if app.overlay.is_none() && app.play.overlay.is_none() {
        app.start();
    }
    let mut first = true;
    let hooks = TestHooks::from_env();
    loop {
        if signalled.load(Ordering::Relaxed) != 0 {
            break;
        }
        hooks.at_ply(app.play.game.len());
        term.draw(|f| app::render::render(app, f))?;
        trace.frame(app.play.thinking.is_some());
        if first {
            first = false;
            hooks.first_frame();
            let ms = launched.elapsed().as_secs_f64() * 1e3;
            trace.log.push(format!("first_frame_ms {ms:.2}"));
        }
        carry_out(app, engine);
        if app.quit {
            break;
        }
        let animating = app.play.thinking.is_some()
            || app.play.clock.as_ref().is_some_and(|c| c.running.is_some())
            || (app.screen == app::Screen::Euwe && app.euwe.autoplay)
            || app.review.running()
            || app.xq_review.running()
            || (app.screen == app::Screen::Xiangqi && app.xiangqi.animating());
        let timeout = Duration::from_millis(if animating { 30 } else { 250 });
        // crossterm is asked only while the terminal lives (`tty_wait`), and
        // then every turn, so a resize it saw is taken at once.
        if tty.wait(timeout)? == TtyState::Gone {
            // Ended as by SIGHUP (which usually comes too, racing this),
            // so the exit status does not depend on which came first.
            #[cfg(unix)]
            let _ = signalled.compare_exchange(
                0,
                SIGHUP as usize,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
            break;
        }
        if tty_wait::event_ready()? {
            let t_key = Instant::now();
            if read_events(app)? && trace.path.is_some() && !app.quit {
                term.draw(|f| app::render::render(app, f))?;
                trace.frame(false);
                let ms = t_key.elapsed().as_secs_f64() * 1e3;
                trace.log.push(format!("key_to_frame_ms {ms:.3}"));
            }
        }
        for r in engine.poll() {
            app.update(Action::Engine(r));
        }
        app.update(Action::Tick(Instant::now()));
    }
    trace.write();
    Ok(())
}

#[cfg(test)]
mod blind_tests;
#[cfg(test)]
mod claim_tests;
#[cfg(test)]
mod ending_tests;
#[cfg(test)]
mod engine_seat_tests;
#[cfg(test)]
mod engines_tests;
#[cfg(test)]
mod euwe_tests;
#[cfg(test)]
mod files_tests;
#[cfg(test)]
mod games_tests;
#[cfg(test)]
mod moves_tests;
#[cfg(test)]
mod pgn_file_tests;
#[cfg(test)]
mod prompt_tests;
#[cfg(test)]
mod render_tests;
#[cfg(test)]
mod review_tests;
#[cfg(test)]
mod scenario_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod words_tests;
#[cfg(test)]
mod xiangqi_tests;
#[cfg(test)]
mod xq_review_tests;

#[cfg(test)]
mod locale_tests {
    use super::locale_is_utf8;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn letters_where_the_locale_is_not_utf8() {
        assert!(locale_is_utf8(env(&[])));
        assert!(locale_is_utf8(env(&[("LANG", "en_US.UTF-8")])));
        assert!(locale_is_utf8(env(&[("LANG", "C.utf8")])));
        assert!(!locale_is_utf8(env(&[("LANG", "C")])));
        assert!(!locale_is_utf8(env(&[
            ("LANG", "en_US.UTF-8"),
            ("LC_ALL", "POSIX")
        ])));
        assert!(!locale_is_utf8(env(&[("LC_CTYPE", "de_DE.ISO-8859-1")])));
        assert!(locale_is_utf8(env(&[
            ("LC_ALL", ""),
            ("LANG", "zh_CN.UTF-8")
        ])));
    }
}
