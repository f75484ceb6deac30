//! Scanning a whole database: `threefold review --all` over files of millions of games, at
//! the speed of the disk, in bounded memory, with the output in the games' order.
//!
//! # The pipeline
//!
//! 1. **Open** ([`input`]): a file (regular files only), `-` for standard input; a stream
//!    that starts with zstd's magic number is decompressed as it is read, whatever its name.
//! 2. **Cut** ([`split`]): one thread reads the stream and cuts it where games begin, by the
//!    reader's own rules for where a game ends, into batches of about a megabyte.
//! 3. **Read and review** (the caller's `work`, on `threads` worker threads): each batch's
//!    games are read, most by the quick reading ([`quick`]: a game in which no position
//!    stood twice has nothing for the review), the rest by the full reader and reviewed.
//! 4. **In order** ([`run`]): the results of the batches are handed to the caller's `sink`
//!    in stream order, whatever the thread count; at most [`IN_FLIGHT_PER_THREAD`] batches per
//!    thread, and never more than [`MAX_AHEAD`] beyond one per thread, are read ahead, so
//!    memory does not grow with the file.
//!
//! With one thread the three steps run one after another on the calling thread.
//!
//! # Why not pgn-reader
//!
//! pgn-reader (Niklas Fiekas, the PGN reader of the lichess database tools) tokenizes PGN
//! far faster than the strict reader of the rules core, but it reads past what it cannot
//! read without a word (an unknown token is skipped) and keeps no line numbers, while a
//! database scan must name every bad game by its number and line and skip it. The quick
//! reading takes the same shortcut pgn-reader does (a plain game is tokenized on a byte
//! slice, nothing allocated per move), but hands anything it does not fully understand to
//! the strict reader. `tools/bench_review.py` measures both on the same file.

pub mod input;
pub mod quick;
pub mod split;

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};

pub use split::{Batch, Span};

/// Batches read ahead per worker thread: enough to keep every thread busy while one batch
/// takes longer, few enough that memory stays bounded (a batch is about
/// [`BATCH_BYTES`]).
pub const IN_FLIGHT_PER_THREAD: usize = 4;

/// Batches read ahead beyond one per thread, at most: memory stays bounded with many threads.
pub const MAX_AHEAD: usize = 8;

/// The size of a batch when the review is the rules' alone: large enough that handing it
/// to a thread costs nothing beside reading it.
pub const BATCH_BYTES: usize = 1 << 20;

/// A scan that could not go on.
#[derive(Debug, thiserror::Error)]
pub enum ScanError<E> {
    /// Reading the stream failed (a disk error, a corrupt zstd frame).
    #[error("{0}")]
    Read(io::Error),
    /// The caller's sink failed (its output could not be written, say).
    #[error("{0}")]
    Sink(E),
}

/// Scan `input` (see the module docs): cut it into batches of about `batch_bytes` bytes,
/// `work` on each batch on `threads` threads, and `sink` each result with the bytes of the
/// stream read so far, in stream order. Setting `stop` ends the scan after the batches
/// already read (their results are sunk).
pub fn run<R, T, E>(
    input: R,
    threads: usize,
    batch_bytes: usize,
    stop: &AtomicBool,
    work: &(dyn Fn(&Batch) -> T + Sync),
    sink: &mut dyn FnMut(T, u64) -> Result<(), E>,
) -> Result<(), ScanError<E>>
where
    R: Read + Send,
    T: Send,
{
    if threads <= 1 {
        let mut splitter = split::Splitter::new(input, batch_bytes);
        while !stop.load(Ordering::Relaxed) {
            let Some(batch) = splitter.next_batch().map_err(ScanError::Read)? else {
                break;
            };
            let out = work(&batch);
            sink(out, batch.read).map_err(ScanError::Sink)?;
        }
        return Ok(());
    }
    // Each worker holds a batch; a few more are read ahead, however many threads.
    let in_flight = (threads * IN_FLIGHT_PER_THREAD).min(threads + MAX_AHEAD) as u64;
    // How many batches have been sunk, and whether the scan is being given up.
    let gate = (Mutex::new((0u64, false)), Condvar::new());
    let (work_tx, work_rx) = mpsc::sync_channel::<Batch>(threads);
    let work_rx = Arc::new(Mutex::new(work_rx));
    let (done_tx, done_rx) = mpsc::channel::<(u64, u64, T)>();
    std::thread::scope(|s| {
        let gate = &gate;
        let reader = s.spawn(move || -> io::Result<()> {
            let mut splitter = split::Splitter::new(input, batch_bytes);
            while !stop.load(Ordering::Relaxed) {
                let Some(batch) = splitter.next_batch()? else {
                    break;
                };
                let mut g = gate.0.lock().unwrap_or_else(|e| e.into_inner());
                while batch.seq >= g.0 + in_flight && !g.1 {
                    g = gate.1.wait(g).unwrap_or_else(|e| e.into_inner());
                }
                if g.1 {
                    break;
                }
                drop(g);
                if work_tx.send(batch).is_err() {
                    break;
                }
            }
            Ok(())
        });
        for _ in 0..threads {
            let rx = Arc::clone(&work_rx);
            let tx = done_tx.clone();
            s.spawn(move || {
                loop {
                    let next = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok(batch) = next else { break };
                    let out = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        work(&batch)
                    })) {
                        Ok(out) => out,
                        Err(panic) => {
                            // The batch's result will never come: give the scan up, so the
                            // reader stops waiting for it, then fail as the work failed.
                            let mut g = gate.0.lock().unwrap_or_else(|e| e.into_inner());
                            g.1 = true;
                            gate.1.notify_all();
                            drop(g);
                            std::panic::resume_unwind(panic);
                        }
                    };
                    if tx.send((batch.seq, batch.read, out)).is_err() {
                        break;
                    }
                }
            });
        }
        // Only the workers receive: when they are all gone, sending fails and the reader ends.
        drop(work_rx);
        drop(done_tx);
        let mut waiting: BTreeMap<u64, (u64, T)> = BTreeMap::new();
        let mut next = 0u64;
        let mut result: Result<(), ScanError<E>> = Ok(());
        for (seq, read, out) in done_rx {
            waiting.insert(seq, (read, out));
            while let Some((read, out)) = waiting.remove(&next) {
                if result.is_ok()
                    && let Err(e) = sink(out, read)
                {
                    result = Err(ScanError::Sink(e));
                }
                next += 1;
                let mut g = gate.0.lock().unwrap_or_else(|e| e.into_inner());
                g.0 = next;
                g.1 |= result.is_err();
                gate.1.notify_all();
            }
        }
        let read = reader
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        match (result, read) {
            (Err(e), _) => Err(e),
            (Ok(()), Err(e)) => Err(ScanError::Read(e)),
            (Ok(()), Ok(())) => Ok(()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Work that panics on every batch ends the scan with that panic on any thread count;
    /// the scan never waits for results that cannot come.
    #[test]
    fn a_panic_in_the_work_ends_the_scan() {
        for threads in [1, 2, 3] {
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                let text = "1. e4 *\n\n".repeat(200);
                let stop = AtomicBool::new(false);
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run(
                        text.as_bytes(),
                        threads,
                        1,
                        &stop,
                        // Slow enough that the reader is waiting to hand out more.
                        &|_: &Batch| -> () {
                            std::thread::sleep(std::time::Duration::from_millis(100));
                            panic!("work fails")
                        },
                        &mut |(), _| Ok::<(), ()>(()),
                    )
                }));
                let _ = tx.send(r.is_err());
            });
            let panicked = rx
                .recv_timeout(std::time::Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("{threads} threads: the scan hangs"));
            assert!(panicked, "{threads} threads");
        }
    }
}
