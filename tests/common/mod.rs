//! A pseudo-terminal harness for the end-to-end tests: the real binary in a
//! pty, its screen parsed by vt100, with its own HOME / XDG dirs so no real
//! config, saved game or progress file is touched.
#![allow(dead_code)] // each test crate uses a different part of it

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

pub struct Session {
    parser: Arc<Mutex<vt100::Parser>>,
    /// `None` once [`Session::hang_up`] closed the terminal.
    writer: Option<Box<dyn Write + Send>>,
    child: Box<dyn Child + Send + Sync>,
    master: Option<Box<dyn MasterPty + Send>>,
    /// The reader thread (it holds a clone of the master) and its stop flag.
    reader: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
    pub home: PathBuf,
}

/// A program left running by a failed test is killed, not left spinning.
impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub fn temp_home(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("threefold-pty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("config/threefold")).unwrap();
    d
}

impl Session {
    pub fn spawn(name: &str, config: Option<&str>, args: &[&str], cols: u16, rows: u16) -> Session {
        Session::spawn_in(temp_home(name), config, args, &[], cols, rows)
    }

    pub fn spawn_in(
        home: PathBuf,
        config: Option<&str>,
        args: &[&str],
        env: &[(&str, &str)],
        cols: u16,
        rows: u16,
    ) -> Session {
        if let Some(c) = config {
            std::fs::write(home.join("config/threefold/config.toml"), c).unwrap();
        }
        let pty = native_pty_system();
        let pair = pty
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_threefold"));
        cmd.args(args);
        cmd.env("HOME", &home);
        cmd.env("XDG_CONFIG_HOME", home.join("config"));
        cmd.env("XDG_DATA_HOME", home.join("data"));
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        // A UTF-8 locale, whatever the machine's: the trainer draws letters under another.
        cmd.env("LANG", "C.UTF-8");
        cmd.env_remove("LC_ALL");
        cmd.env_remove("LC_CTYPE");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.cwd(&home);
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(
            rows.try_into().unwrap(),
            cols.try_into().unwrap(),
            0,
        )));
        let mut reader = pair.master.try_clone_reader().unwrap();
        // The reader is a dup of the master: polling the master's fd tells
        // when it has bytes, so the thread can also watch its stop flag.
        let fd = pair.master.as_raw_fd().expect("a unix pty");
        let p2 = Arc::clone(&parser);
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while !stop2.load(Ordering::Relaxed) {
                let mut pfd = libc::pollfd {
                    fd,
                    events: libc::POLLIN,
                    revents: 0,
                };
                if unsafe { libc::poll(&mut pfd, 1, 50) } <= 0 {
                    continue;
                }
                match reader.read(&mut buf) {
                    Ok(n) if n > 0 => p2.lock().unwrap().process(&buf[..n]),
                    _ => break,
                }
            }
        });
        let writer = pair.master.take_writer().unwrap();
        Session {
            parser,
            writer: Some(writer),
            child,
            master: Some(pair.master),
            reader: Some((stop, thread)),
            home,
        }
    }

    /// Close the terminal as `tmux kill-session` or a dropped ssh link does:
    /// every fd of the pty master (reader, writer, master) is closed.
    pub fn hang_up(&mut self) {
        if let Some((stop, thread)) = self.reader.take() {
            stop.store(true, Ordering::Relaxed);
            thread.join().unwrap();
        }
        self.writer = None;
        self.master = None;
    }

    /// Send a signal to the program (`kill -<name> <pid>`).
    pub fn signal(&self, name: &str) {
        let pid = self.child.process_id().expect("a pid");
        let ok = std::process::Command::new("kill")
            .arg(format!("-{name}"))
            .arg(pid.to_string())
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill -{name} {pid}");
    }

    /// The program's pid.
    pub fn pid(&self) -> u32 {
        self.child.process_id().expect("a pid")
    }

    /// CPU time (user + system, in clock ticks) the program used so far,
    /// from `/proc/PID/stat` (fields 14 and 15).
    pub fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).unwrap();
        // The command name (field 2) may hold spaces: count after its ')'.
        let rest = &stat[stat.rfind(')').unwrap() + 2..];
        let f: Vec<&str> = rest.split_whitespace().collect();
        f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap()
    }

    /// Paste `text` as a terminal does: one burst of bytes. The write is done
    /// on its own thread, so a program that stops reading fails the test
    /// after `limit` instead of blocking it forever.
    pub fn paste(&mut self, text: &str, limit: Duration) {
        let mut w = self.writer.take().expect("the terminal is open");
        let bytes = text.as_bytes().to_vec();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let r = w.write_all(&bytes).and_then(|()| w.flush());
            let _ = tx.send((r, w));
        });
        match rx.recv_timeout(limit) {
            Ok((r, w)) => {
                r.unwrap();
                self.writer = Some(w);
            }
            Err(_) => panic!(
                "a paste of {} bytes was not taken within {limit:?}; screen:\n{}",
                text.len(),
                self.screen()
            ),
        }
    }

    /// [`Session::wait_for`] with a time limit of its own.
    pub fn wait_for_within(&self, text: &str, limit: Duration) {
        let t0 = Instant::now();
        while t0.elapsed() < limit {
            if self.screen().contains(text) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!(
            "timed out ({limit:?}) waiting for {text:?}; screen:\n{}",
            self.screen()
        );
    }

    pub fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// The screen's rows cut to the columns `x..x + width` (a panel of the layout).
    pub fn rows(&self, x: u16, width: u16) -> Vec<String> {
        self.parser
            .lock()
            .unwrap()
            .screen()
            .rows(x, width)
            .collect()
    }

    /// Wait until `ok` holds of the screen (`what` names it in the failure).
    pub fn wait_until(&self, what: &str, limit: Duration, ok: impl Fn(&Session) -> bool) {
        let t0 = Instant::now();
        while t0.elapsed() < limit {
            if ok(self) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!(
            "timed out ({limit:?}) waiting for {what}; screen:\n{}",
            self.screen()
        );
    }

    pub fn wait_for(&self, text: &str) {
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(20) {
            if self.screen().contains(text) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("timed out waiting for {text:?}; screen:\n{}", self.screen());
    }

    /// Press Esc and wait until the screen answers it. A key sent on the heels
    /// of a lone Esc can reach the program in the same read, where the
    /// terminal's input parser takes the pair for Alt and that key (the Esc is
    /// lost): on a loaded machine a fixed pause is not enough.
    pub fn escape(&mut self) {
        let before = self.screen();
        self.send("\x1b");
        self.wait_until("the screen to answer Esc", Duration::from_secs(20), |s| {
            s.screen() != before
        });
    }

    pub fn send(&mut self, s: &str) {
        let w = self.writer.as_mut().expect("the terminal is open");
        w.write_all(s.as_bytes()).unwrap();
        w.flush().unwrap();
        std::thread::sleep(Duration::from_millis(30));
    }

    /// Type a move in the input line.
    pub fn typed(&mut self, mv: &str) {
        self.send("i");
        self.wait_for("Move (SAN or UCI):");
        self.send(mv);
        self.send("\r");
    }

    /// The exit status if the program has ended, without waiting.
    pub fn try_exit(&mut self) -> Option<portable_pty::ExitStatus> {
        self.child.try_wait().unwrap()
    }

    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let t0 = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::thread::sleep(Duration::from_millis(100));
                return status;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "did not exit:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn assert_restored(&self) {
        let p = self.parser.lock().unwrap();
        let s = p.screen();
        assert!(!s.alternate_screen(), "still on the alternate screen");
        assert!(!s.hide_cursor(), "cursor still hidden");
        assert_eq!(s.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    }

    /// Quit and check the terminal was given back: no alternate screen, cursor
    /// shown, mouse reporting off.
    pub fn quit_and_check_restored(mut self) {
        self.send("q");
        let t0 = Instant::now();
        let mut answered = false;
        loop {
            // A finished game no file holds: quitting asks before it is lost; yes.
            if !answered && self.screen().contains("saved in no file") {
                self.send("y");
                answered = true;
            }
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status:?}");
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "did not quit:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100));
        let p = self.parser.lock().unwrap();
        let s = p.screen();
        assert!(!s.alternate_screen(), "still on the alternate screen");
        assert!(!s.hide_cursor(), "cursor still hidden");
        assert_eq!(s.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
        drop(p);
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

/// A fresh, empty directory under the system temp dir, `threefold-<prefix>-<name>-…`, new
/// at each call (for the tests that write files without a terminal).
pub fn temp_dir(prefix: &str, name: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "threefold-{prefix}-{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
