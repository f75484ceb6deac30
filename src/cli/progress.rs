//! The progress line of the long commands (`review --all`, `bench suite`, `bench pollution`,
//! `xiangqi bench`): one line on standard error, redrawn four times a second by the field's
//! progress-bar crate (indicatif), and nothing at all when standard error is not a terminal
//! (a pipe, a file, a CI log) or the terminal is `TERM=dumb`.
//!
//! Two shapes:
//! - [`Progress::bytes`]: a byte stream (a PGN file or standard input): items done (games),
//!   MB read, MB/s, the time elapsed and, when the total is known (a file's size), the ETA;
//! - [`Progress::count`]: a count of steps (positions searched), with the ETA.
//!
//! A command that also writes lines to standard output while the line is shown writes them
//! through [`Progress::lines`], so that on a terminal its lines and the progress line do not
//! mix; [`Progress::finish`] clears the line.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// How often the line is redrawn, also when nothing advanced (the elapsed time moves on).
const REDRAW: Duration = Duration::from_millis(250);

/// A progress line on standard error, or nothing when standard error is not a terminal.
#[derive(Debug)]
pub struct Progress {
    /// `None` when nothing is drawn: every call is then a branch and no more.
    bar: Option<ProgressBar>,
    /// Items done (games) of a byte stream, read when the line is drawn.
    items: Arc<AtomicU64>,
}

/// Whether a progress line is drawn: standard error is a terminal that can take one.
pub fn visible() -> bool {
    std::io::stderr().is_terminal()
        && std::env::var_os("TERM").is_none_or(|t| !t.is_empty() && t != "dumb")
}

impl Progress {
    fn new(total: Option<u64>, template: &str, what: &str, items: &Arc<AtomicU64>) -> Progress {
        let items = Arc::clone(items);
        let bar = visible().then(|| {
            let shown = Arc::clone(&items);
            let style = ProgressStyle::with_template(&template.replace("{what}", what))
                .expect("a valid progress template")
                .with_key(
                    "items",
                    move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{}", shown.load(Ordering::Relaxed));
                    },
                )
                .progress_chars("=> ");
            let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr_with_hz(4))
                .with_style(style);
            bar.enable_steady_tick(REDRAW);
            bar
        });
        Progress { bar, items }
    }

    /// A byte stream of `total` bytes if known (a file's size; unknown for standard input or
    /// a compressed file), whose items are `what` ("games").
    pub fn bytes(total: Option<u64>, what: &str) -> Progress {
        let template = if total.is_some() {
            "{items} {what}  {decimal_bytes}/{decimal_total_bytes}  {decimal_bytes_per_sec}  \
             {elapsed_precise}  ETA {eta_precise} [{wide_bar}]"
        } else {
            "{items} {what}  {decimal_bytes}  {decimal_bytes_per_sec}  {elapsed_precise}"
        };
        Progress::new(total, template, what, &Arc::default())
    }

    /// A count of `total` steps that are `what` ("positions").
    pub fn count(total: u64, what: &str) -> Progress {
        Progress::new(
            Some(total),
            "{pos}/{len} {what}  {elapsed_precise}  ETA {eta_precise} [{wide_bar}]",
            what,
            &Arc::default(),
        )
    }

    /// A byte stream: `bytes` read so far, `items` done so far.
    pub fn set(&self, bytes: u64, items: u64) {
        if let Some(bar) = &self.bar {
            self.items.store(items, Ordering::Relaxed);
            bar.set_position(bytes);
        }
    }

    /// A count: `n` more steps done.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Clears the line (also done when the progress is dropped).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// Standard output (`out`) for whole lines written while the line is shown: when standard
    /// output is the terminal too, each complete line is written with the progress line taken
    /// off and put back after it. Otherwise (no progress line, or standard output to a pipe or
    /// file) `out` itself, at its own speed.
    pub fn lines<'a>(&'a self, out: &'a mut dyn Write) -> Lines<'a> {
        Lines {
            bar: self
                .bar
                .as_ref()
                .filter(|_| std::io::stdout().is_terminal()),
            out,
            pending: Vec::new(),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The writer of [`Progress::lines`]: holds a partial line until its end.
pub struct Lines<'a> {
    bar: Option<&'a ProgressBar>,
    out: &'a mut dyn Write,
    pending: Vec<u8>,
}

impl Lines<'_> {
    /// Writes what is held, the progress line taken off the terminal meanwhile.
    fn write_pending(&mut self, upto: usize) -> std::io::Result<()> {
        let Some(bar) = self.bar else {
            return Ok(());
        };
        let (out, pending) = (&mut self.out, &mut self.pending);
        bar.suspend(|| {
            out.write_all(&pending[..upto])?;
            out.flush()
        })?;
        pending.drain(..upto);
        Ok(())
    }
}

impl Write for Lines<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bar.is_none() {
            return self.out.write(buf);
        }
        self.pending.extend_from_slice(buf);
        if let Some(end) = self.pending.iter().rposition(|&b| b == b'\n') {
            self.write_pending(end + 1)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.write_pending(self.pending.len())?;
        self.out.flush()
    }
}

impl Drop for Lines<'_> {
    fn drop(&mut self) {
        // What is left is a line without its end: written as a flush would (an error here has
        // nowhere to go; every complete line was written, and checked, before).
        let _ = self.write_pending(self.pending.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_reach_the_output_whole_with_or_without_a_progress_line() {
        let p = Progress::count(3, "positions");
        let mut out = Vec::new();
        {
            let mut w = p.lines(&mut out);
            write!(w, "a").unwrap();
            writeln!(w, "b").unwrap();
            write!(w, "c").unwrap();
        }
        p.inc(1);
        p.set(10, 1);
        p.finish();
        assert_eq!(out, b"ab\nc");
    }
}
