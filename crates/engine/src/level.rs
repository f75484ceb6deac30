//! Strength levels: one table for the trainer (chess and xiangqi) and for UCI
//! (`Level`, `UCI_LimitStrength` / `UCI_Elo`).
//!
//! A level limits the search by its *size* (a depth or a node count), never by time, so a
//! level plays the same on a fast machine and a slow one, beside a build or alone, and its
//! measured strength stays true everywhere. A clock, where there is one, limits the search
//! as well: whichever ends it first.
//!
//! The lower levels also add pseudo-random noise to every static evaluation
//! ([`Limits::noise`], [`noise`]): a uniform number of centipawns in `-noise..=noise`, drawn
//! from the position's key mixed with a seed that changes with each game
//! ([`super::Engine::new_game`]). The same position gets the same noise all game long, so
//! the search and its table stay consistent, while two games differ: the weak levels vary
//! their moves, and their mistakes look like a human's misjudgements (a pawn's worth more or
//! less here and there) rather than random moves. Stockfish's `Skill Level` instead picks
//! among the best lines of a MultiPV search; noise in the evaluation costs nothing and needs
//! no MultiPV.
//!
//! [`ELO`] is what each level measured against Stockfish 15.1 limited by `UCI_Elo`, at 5+0.05
//! (the README's table says how, with the commands and error bars). `UCI_Elo` maps onto the
//! level whose measured Elo is nearest ([`from_elo`]).

use std::ops::RangeInclusive;

use super::Limits;

/// The levels, weakest first.
pub const LEVELS: RangeInclusive<u8> = 1..=8;

/// What one level's search may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Evaluation noise in centipawns ([`Limits::noise`]).
    pub noise: u32,
}

/// The table, level 1 first.
#[rustfmt::skip]
const TABLE: [Level; 8] = [
    Level { depth: Some(1), nodes: None,          noise: 200 },
    Level { depth: Some(2), nodes: None,          noise: 120 },
    Level { depth: Some(2), nodes: None,          noise: 60 },
    Level { depth: None,    nodes: Some(600),     noise: 50 },
    Level { depth: None,    nodes: Some(1_500),   noise: 40 },
    Level { depth: None,    nodes: Some(5_000),   noise: 20 },
    Level { depth: None,    nodes: Some(80_000),  noise: 0 },
    Level { depth: None,    nodes: Some(300_000), noise: 0 },
];

/// A level's measured strength: its Elo on Stockfish's `UCI_Elo` scale and the 95% error bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elo {
    pub elo: i32,
    pub err: i32,
}

/// Each level's measured Elo, level 1 first (see the module docs).
pub const ELO: [Elo; 8] = [
    Elo { elo: 1047, err: 95 },
    Elo { elo: 1316, err: 76 },
    Elo { elo: 1424, err: 64 },
    Elo { elo: 1510, err: 60 },
    Elo { elo: 1723, err: 76 },
    Elo { elo: 1946, err: 75 },
    Elo { elo: 2076, err: 56 },
    Elo { elo: 2212, err: 53 },
];

/// The index of `level` in the tables, clamped into [`LEVELS`].
fn index(level: u8) -> usize {
    (level.clamp(*LEVELS.start(), *LEVELS.end()) - LEVELS.start()) as usize
}

/// What `level` may search (clamped into [`LEVELS`]).
pub fn level(level: u8) -> Level {
    TABLE[index(level)]
}

/// The search limits of `level`, without a clock (the trainer adds its clock to them).
pub fn limits(level: u8) -> Limits {
    narrow(level, &Limits::default())
}

/// `limits` (a `go` with a clock, say) narrowed to `level`: its depth and node count where
/// they are smaller, and its noise.
pub fn narrow(level: u8, limits: &Limits) -> Limits {
    let l = self::level(level);
    let min = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Limits {
        depth: min(limits.depth.map(u64::from), l.depth.map(u64::from)).map(|d| d as u32),
        nodes: min(limits.nodes, l.nodes),
        noise: limits.noise.max(l.noise),
        ..limits.clone()
    }
}

/// `level`'s measured Elo.
pub fn elo(level: u8) -> Elo {
    ELO[index(level)]
}

/// The level whose measured Elo is nearest `elo` (the weaker one at a tie).
pub fn from_elo(elo: i32) -> u8 {
    LEVELS
        .min_by_key(|&l| (self::elo(l).elo - elo).abs())
        .unwrap_or(*LEVELS.start())
}

/// The range `UCI_Elo` accepts: the weakest and strongest levels' Elo.
pub fn elo_range() -> (i32, i32) {
    (elo(*LEVELS.start()).elo, elo(*LEVELS.end()).elo)
}

/// What `level` searches: "depth 1, ±150 cp noise", "20,000 nodes a move".
pub fn describe(level: u8) -> String {
    let l = self::level(level);
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("{} nodes a move", thousands(n)));
    }
    if l.noise > 0 {
        parts.push(format!("±{} cp noise", l.noise));
    }
    parts.join(", ")
}

/// "measured 1510 ± 60 (600 nodes a move, ±50 cp noise)": what UCI says of a level.
pub fn summary(level: u8) -> String {
    let e = elo(level);
    format!("measured {} ± {} ({})", e.elo, e.err, describe(level))
}

/// 150000 → "150,000".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The noise of a position: uniform in `-amplitude..=amplitude`, from its key and the game's
/// seed.
#[inline]
pub fn noise(key: u64, seed: u64, amplitude: u32) -> i32 {
    let span = 2 * u64::from(amplitude) + 1;
    (mix(key ^ seed) % span) as i64 as i32 - amplitude as i32
}

/// splitmix64's finaliser: every bit of `z` moves about half the bits of the result.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger() {
        for l in 2..=8u8 {
            let (a, b) = (level(l - 1), level(l));
            assert!(b.noise <= a.noise, "level {l}");
            assert!(
                b.depth.unwrap_or(u32::MAX) >= a.depth.unwrap_or(u32::MAX)
                    || b.nodes.is_some() && a.depth.is_some(),
                "level {l}"
            );
            if let (Some(x), Some(y)) = (a.nodes, b.nodes) {
                assert!(y > x, "level {l}");
            }
        }
    }

    #[test]
    fn narrow_keeps_the_clock_and_takes_the_smaller_limits() {
        let clock = Limits {
            wtime: Some(std::time::Duration::from_secs(5)),
            nodes: Some(1_000),
            ..Limits::default()
        };
        let n = narrow(8, &clock);
        assert_eq!(n.wtime, clock.wtime);
        assert_eq!(n.nodes, Some(1_000));
        let n = narrow(5, &Limits::default());
        assert_eq!(n.nodes, level(5).nodes);
        let n = narrow(1, &Limits::default());
        assert_eq!((n.depth, n.noise), (Some(1), level(1).noise));
    }

    #[test]
    fn noise_is_uniform_and_bounded() {
        let a = 40;
        let mut seen = vec![0u32; 2 * a as usize + 1];
        for k in 0..200_000u64 {
            let v = noise(k.wrapping_mul(0x9e37_79b9_7f4a_7c15), 7, a);
            assert!((-(a as i32)..=a as i32).contains(&v));
            seen[(v + a as i32) as usize] += 1;
        }
        let mean = 200_000 / seen.len() as u32;
        for (i, &n) in seen.iter().enumerate() {
            assert!(n > mean * 9 / 10 && n < mean * 11 / 10, "value {i}: {n}");
        }
        assert_eq!(noise(12345, 1, 0), 0);
        assert_ne!(
            (0..20).map(|k| noise(k, 1, a)).collect::<Vec<_>>(),
            (0..20).map(|k| noise(k, 2, a)).collect::<Vec<_>>(),
            "another seed, other noise"
        );
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(150_000), "150,000");
        assert_eq!(thousands(2_000), "2,000");
        assert_eq!(thousands(300), "300");
    }
}
