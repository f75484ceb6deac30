//! Waiting for the terminal without handing a dead tty to crossterm, and
//! asking crossterm for events so that none is stranded.
//!
//! Once the terminal goes away (`tmux kill-session`, a dropped ssh link),
//! its tty stays readable while `read` returns 0 or `EIO`, and crossterm
//! 0.29's event source retries that read at once, forever: `event::poll`
//! never returns, even with a timeout, and the trainer spins at 100% CPU
//! without ever seeing the SIGHUP (crossterm issue #793,
//! <https://github.com/crossterm-rs/crossterm/issues/793>, fixed by the
//! unreleased PR #1067).
//!
//! So the event loop waits here first: `poll(2)` on the fd crossterm reads
//! (stdin when it is a tty, else `/dev/tty`, as crossterm's own `tty_fd`
//! chooses) and on a self-pipe written by SIGWINCH and the signals that end
//! the trainer. `POLLHUP`, `POLLERR` or `POLLNVAL` on the tty means it is
//! gone: the loop ends as for SIGHUP. Only while the tty is alive does the
//! loop ask crossterm ([`event_ready`]), which also turns a SIGWINCH into
//! `Event::Resize` through crossterm's own signal pipe.
//!
//! ## Why crossterm is built with `use-dev-tty`
//!
//! crossterm's default unix event source registers the tty with mio, which
//! is edge-triggered (epoll `EPOLLET`): it reports the tty once per arrival
//! of new bytes. On that report it reads 1,024 bytes, and returns as soon
//! as they parse into an event, leaving the rest of a longer paste in the
//! kernel. No new bytes arrive (the paste is all there), so mio never
//! reports the tty again, and `event::poll` says "nothing" while the poll
//! here, level-triggered, says "readable" at once: the loop spun at full
//! CPU redrawing, and each later key let the next 1,024 bytes through
//! (issue 27: a 10,000-character paste was not taken in minutes).
//!
//! With the `use-dev-tty` feature crossterm waits with `poll(2)` as this
//! module does, level-triggered: bytes left in the kernel are seen on the
//! next call, so a paste of any length is read through, 1,024 bytes at a
//! time, within one turn of the loop ([`event_ready`] is asked until it says
//! no). One quirk of that source: given no time at all (`Duration::ZERO`)
//! it does not look, not even at events it has already parsed; so crossterm
//! is given [`LOOK`], which ends at once when anything is there.
//!
//! That source also leaves no dead-tty race: its read of a hung-up tty
//! returns an error or nothing, and every wait of it has a time limit, so it
//! cannot spin forever between this poll and its read.

use std::time::Duration;

/// How long crossterm may wait for an event when asked whether one is
/// there: a millisecond, since its level-triggered source does not look at
/// all when given no time (see the module docs). Bytes on the tty or events
/// already parsed end the wait at once.
pub const LOOK: Duration = Duration::from_millis(1);

/// Whether crossterm has an event to read now (bytes on the tty, events
/// parsed from an earlier read, or a resize). The one way the trainer asks.
pub fn event_ready() -> std::io::Result<bool> {
    crossterm::event::poll(LOOK)
}

/// What the terminal is after a wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtyState {
    /// Still there: crossterm may be asked for events.
    Alive,
    /// Hung up or closed: crossterm must not read it again.
    Gone,
}

#[cfg(unix)]
pub use unix::TtyWait;

#[cfg(unix)]
mod unix {
    use super::TtyState;
    use std::fs::File;
    use std::io::{self, IsTerminal, Read};
    use std::os::fd::{AsRawFd, RawFd};
    use std::os::unix::net::UnixStream;
    use std::time::Duration;

    /// The terminal's fd and a self-pipe for signals, polled together.
    pub struct TtyWait {
        tty: RawFd,
        /// `/dev/tty` when stdin is not a tty (kept open for `tty`).
        _dev_tty: Option<File>,
        wake: UnixStream,
    }

    impl TtyWait {
        /// Watch the terminal; each signal in `wake_on` (and SIGWINCH) ends a
        /// wait at once.
        pub fn new(wake_on: &[libc::c_int]) -> io::Result<TtyWait> {
            let (tty, dev_tty) = if io::stdin().is_terminal() {
                (libc::STDIN_FILENO, None)
            } else {
                let f = File::options().read(true).write(true).open("/dev/tty")?;
                (f.as_raw_fd(), Some(f))
            };
            let (wake, signal_end) = UnixStream::pair()?;
            wake.set_nonblocking(true)?;
            for &sig in wake_on.iter().chain(&[signal_hook::consts::SIGWINCH]) {
                signal_hook::low_level::pipe::register(sig, signal_end.try_clone()?)?;
            }
            Ok(TtyWait {
                tty,
                _dev_tty: dev_tty,
                wake,
            })
        }

        /// Wait up to `timeout` for input, a signal, or the terminal's end.
        pub fn wait(&mut self, timeout: Duration) -> io::Result<TtyState> {
            let mut fds = [
                libc::pollfd {
                    fd: self.tty,
                    events: libc::POLLIN,
                    revents: 0,
                },
                libc::pollfd {
                    fd: self.wake.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                },
            ];
            let ms = timeout.as_millis().min(i32::MAX as u128) as libc::c_int;
            // SAFETY: `fds` is a valid array of two pollfd for the call.
            let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
            if n < 0 {
                let e = io::Error::last_os_error();
                return match e.kind() {
                    io::ErrorKind::Interrupted => Ok(TtyState::Alive),
                    _ => Err(e),
                };
            }
            if fds[0].revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                return Ok(TtyState::Gone);
            }
            if fds[1].revents & libc::POLLIN != 0 {
                let mut buf = [0u8; 64];
                while matches!((&self.wake).read(&mut buf), Ok(n) if n > 0) {}
            }
            Ok(TtyState::Alive)
        }
    }
}

/// Elsewhere crossterm's own wait is all there is.
#[cfg(not(unix))]
pub struct TtyWait;

#[cfg(not(unix))]
impl TtyWait {
    pub fn new(_wake_on: &[i32]) -> std::io::Result<TtyWait> {
        Ok(TtyWait)
    }

    pub fn wait(&mut self, timeout: std::time::Duration) -> std::io::Result<TtyState> {
        crossterm::event::poll(timeout)?;
        Ok(TtyState::Alive)
    }
}
