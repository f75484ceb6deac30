//! The terminal trainer (ratatui + crossterm): play the engine or a friend,
//! watch repetitions pile up, claim draws, step through Euwe's sequence.
//!
//! - [`app`]: state, actions, update (no I/O but the optional game files).
//! - [`render`]: side-effect-free drawing; [`board`]: the board widget.
//! - [`drill`]: the drill screen (puzzles from [`crate::drills`]).
//! - [`keys`]: the one key table (help overlay and hints come from it).
//! - [`line_edit`]: the one line editor behind every text prompt.
//! - [`engine_thread`]: the engine on its own thread.

pub mod app;
pub mod board;
pub mod config;
pub mod drill;
pub mod engine_adapter;
pub mod engine_thread;
pub mod engines;
pub mod euwe;
pub mod keys;
pub mod line_edit;
pub mod overlay;
pub mod pgn_file;
pub mod play;
pub mod render;
pub mod review;
pub mod terminal;
pub mod theme;
pub mod tty_wait;

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[cfg(unix)]
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};

use crossterm::event::{self, Event};

use crate::rules::Game;
use app::{Action, App, Effect};
use engine_thread::EngineThread;
use tty_wait::{TtyState, TtyWait};

/// Command-line options of the trainer.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub ascii: bool,
    pub fen: Option<String>,
    pub pgn: Option<PathBuf>,
}

/// Open the trainer; returns when the user quits.
pub fn run(opts: Options) -> anyhow::Result<()> {
    let launched = Instant::now();
    let trace = std::env::var_os("THREEFOLD_TRACE").map(PathBuf::from);
    let cfg_path = config::default_path();
    let (cfg, cfg_msg) = match &cfg_path {
        Some(p) => config::load_or_create(p),
        None => (config::Config::default(), None),
    };
    let game = match &opts.fen {
        Some(fen) => Game::from_fen(fen)?,
        None => Game::new(),
    };
    let mut app = App::new(&cfg, game);
    app.ascii |= opts.ascii;
    app.config_path = cfg_path;
    app.resume_path = config::data_dir().map(|d| d.join("game-in-progress.json"));
    if let Some(p) = &opts.pgn {
        app.load_pgn(p);
        if let Some(m) = app.message.take_if(|m| m.is_error()) {
            anyhow::bail!("{}", m.text);
        }
    }
    if let Some(p) = app.resume_path.clone() {
        match play::load_saved(&p) {
            Ok(Some(saved)) => {
                app.offer_saved_game(saved, opts.fen.is_some() || opts.pgn.is_some());
            }
            Ok(None) => {}
            Err(m) => app.error(m),
        }
    }
    if let Some(m) = cfg_msg {
        app.error(m);
    }
    let (opponent, hash_mb) = engine_thread::default_opponent(cfg.hash_mb);
    if hash_mb != cfg.hash_mb {
        app.error(format!(
            "hash_mb = {}: that much memory cannot be had; the engine uses {hash_mb} MiB",
            cfg.hash_mb
        ));
    }
    app.play.hash_mb = hash_mb;
    let engine = EngineThread::spawn(opponent);
    engine.set_contempt(cfg.contempt);

    // SIGTERM, SIGINT, SIGHUP (the terminal closed) and SIGQUIT end the loop
    // like a quit: the game in progress is kept and the terminal restored.
    // So does a hung-up terminal (see `tty_wait`).
    let signalled = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    let ending = [SIGTERM, SIGINT, SIGHUP, SIGQUIT];
    #[cfg(not(unix))]
    let ending = [];
    #[cfg(unix)]
    for sig in ending {
        signal_hook::flag::register(sig, Arc::clone(&signalled))?;
    }
    let mut tty = TtyWait::new(&ending)?;
    let mut term = terminal::setup()?;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        event_loop(
            &mut term, &mut tty, &mut app, &engine, launched, trace, &signalled,
        )
    }));
    // Whatever ended the loop (quit, signal, error, panic), the game is kept.
    app.keep_game_in_progress();
    terminal::restore();
    drop(engine);
    match result {
        Ok(r) => r,
        Err(panic) => std::panic::resume_unwind(panic),
    }
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
            Effect::Think {
                id,
                start,
                moves,
                limits,
            } => engine.think(id, start, moves, limits),
            Effect::Stop => engine.stop(),
            Effect::NewGame => engine.new_game(),
            Effect::SetHash(mb) => engine.set_hash(mb),
            Effect::SetContempt(cp) => engine.set_contempt(cp),
            Effect::Quit => {}
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
        if !event::poll(Duration::ZERO)? {
            return Ok(is_key);
        }
    }
}

fn event_loop(
    term: &mut terminal::Tui,
    tty: &mut TtyWait,
    app: &mut App,
    engine: &EngineThread,
    launched: Instant,
    trace: Option<PathBuf>,
    signalled: &AtomicBool,
) -> anyhow::Result<()> {
    let mut trace = Trace::new(trace);
    let size = term.size()?;
    app.update(Action::Resize(size.width, size.height));
    if app.overlay.is_none() {
        app.start();
    }
    let mut first = true;
    // For the end-to-end test that a panic in play keeps the game.
    let panic_at: Option<usize> = std::env::var("THREEFOLD_TEST_PANIC_AT_PLY")
        .ok()
        .and_then(|v| v.parse().ok());
    loop {
        if signalled.load(Ordering::Relaxed) {
            break;
        }
        if panic_at.is_some_and(|n| app.play.game.len() >= n) {
            panic!("test panic requested by THREEFOLD_TEST_PANIC_AT_PLY");
        }
        term.draw(|f| render::render(app, f))?;
        trace.frame(app.play.thinking.is_some());
        if first {
            first = false;
            // For the end-to-end test that a panic restores the terminal.
            if std::env::var_os("THREEFOLD_TEST_PANIC").is_some() {
                panic!("test panic requested by THREEFOLD_TEST_PANIC");
            }
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
            || app.review.state.as_ref().is_some_and(|s| s.running());
        let timeout = Duration::from_millis(if animating { 30 } else { 250 });
        // crossterm is asked only while the terminal lives (`tty_wait`), and
        // then every turn, so a resize it saw is taken at once.
        if tty.wait(timeout)? == TtyState::Gone {
            break;
        }
        if event::poll(Duration::ZERO)? {
            let t_key = Instant::now();
            if read_events(app)? && trace.path.is_some() && !app.quit {
                term.draw(|f| render::render(app, f))?;
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
mod engines_tests;
#[cfg(test)]
mod pgn_file_tests;
#[cfg(test)]
mod review_tests;
#[cfg(test)]
mod tests;
