//! How fast the `pgn-reader` crate tokenizes a PGN file (`.pgn`, or `.pgn.zst` decompressed as
//! it streams): a visitor that touches every tag and every SAN, one core. Prints the file's
//! games and its rate in MB of PGN (uncompressed) per second, wall clock and CPU, as
//! `tools/bench_review.py` reads it:
//!
//! ```text
//! pgn-reader: 101234 games, 7612345 SANs, 100.0 MB in 0.345 s wall, 0.340 s CPU: 289.9 MB/s wall, 294.1 MB/s CPU
//! ```
//!
//! ```sh
//! cargo run --release -p threefold-lab --example pgn_reader_rate -- db.pgn.zst
//! ```

use std::io::{self, Read};
use std::ops::ControlFlow;
use std::time::Instant;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};

/// Counts games and SANs, and folds every tag value and every SAN into a checksum, so that
/// nothing the reader hands out is left untouched.
#[derive(Default)]
struct Touch {
    games: u64,
    sans: u64,
    check: u64,
}

impl Visitor for Touch {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        let v = value.0;
        self.check = self.check.wrapping_mul(31).wrapping_add(
            name.len() as u64 + v.len() as u64 + u64::from(v.first().copied().unwrap_or(0)),
        );
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san: SanPlus) -> ControlFlow<()> {
        self.sans += 1;
        let to = match san.san {
            pgn_reader::shakmaty::san::San::Normal { to, .. } => to as u64,
            _ => 64,
        };
        self.check = self.check.wrapping_mul(31).wrapping_add(to);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {
        self.games += 1;
    }
}

/// Counts the bytes that pass (the uncompressed size of a .zst).
struct Counted<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

/// CPU seconds (user + system) of this process.
fn cpu_seconds() -> f64 {
    // /proc/self/stat fields 14 and 15: utime and stime in clock ticks (100 a second).
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = &s[s.rfind(')')? + 2..];
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some((f[11].parse::<f64>().ok()? + f[12].parse::<f64>().ok()?) / 100.0)
        })
        .unwrap_or(f64::NAN)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: pgn_reader_rate FILE.pgn[.zst]")?;
    let (t, c) = (Instant::now(), cpu_seconds());
    let file = std::fs::File::open(&path).map_err(|e| format!("{path}: {e}"))?;
    let input: Box<dyn Read> = if path.ends_with(".zst") {
        Box::new(zstd::Decoder::new(file)?)
    } else {
        Box::new(file)
    };
    let mut counted = Counted {
        inner: input,
        bytes: 0,
    };
    let mut touch = Touch::default();
    Reader::new(&mut counted).visit_all_games(&mut touch)?;
    let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
    let mb = counted.bytes as f64 / 1e6;
    println!(
        "pgn-reader: {} games, {} SANs, {mb:.1} MB in {wall:.3} s wall, {cpu:.3} s CPU: {:.1} MB/s wall, {:.1} MB/s CPU (checksum {:016x})",
        touch.games,
        touch.sans,
        mb / wall,
        mb / cpu,
        touch.check
    );
    Ok(())
}
