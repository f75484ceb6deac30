//! Writes a generated PGN database ([`threefold_lab::pgn_gen`]): random legal games with
//! lichess's tags, clock comments on about half of them and a threefold shuffle in about 3 %,
//! deterministic for a seed.
//!
//! ```sh
//! cargo run --release -p threefold-lab --example gen_pgn -- --mb 100 --seed 1 --out db.pgn
//! cargo run --release -p threefold-lab --example gen_pgn -- --games 1000 --out -
//! ```

use std::io::{BufWriter, Write};
use std::time::Instant;

use threefold_lab::pgn_gen::{Size, write};

const USAGE: &str = "usage: gen_pgn (--games N | --mb N) [--seed S] --out FILE (- for stdout)";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut size, mut seed, mut out) = (None, 1u64, None);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value; {USAGE}"))
        };
        match a.as_str() {
            "--games" => size = Some(Size::Games(value("--games")?.parse()?)),
            "--mb" => size = Some(Size::Bytes(value("--mb")?.parse::<u64>()? * 1_000_000)),
            "--seed" => seed = value("--seed")?.parse()?,
            "--out" => out = Some(value("--out")?),
            _ => return Err(format!("unknown argument '{a}'; {USAGE}").into()),
        }
    }
    let (Some(size), Some(out)) = (size, out) else {
        return Err(USAGE.into());
    };
    let t = Instant::now();
    let mut sink: Box<dyn Write> = if out == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(std::fs::File::create(&out).map_err(|e| format!("{out}: {e}"))?)
    };
    let mut w = BufWriter::with_capacity(1 << 20, &mut sink);
    let written = write(&mut w, size, seed)?;
    w.flush()?;
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "{out}: {} games ({} with a threefold shuffle), {:.1} MB in {secs:.1} s ({:.1} MB/s)",
        written.games,
        written.shuffles,
        written.bytes as f64 / 1e6,
        written.bytes as f64 / 1e6 / secs
    );
    Ok(())
}
