//! Euwe's sequence and the former German repetition rule, after the section
//! "Former Rule" of the chessprogramming wiki's page "Repetitions"
//! (<https://www.chessprogramming.org/Repetitions>) and Max Euwe's paper
//! "Mengentheoretische Betrachtungen über das Schachspiel" (Proceedings of the
//! Koninklijke Akademie van Wetenschappen, Amsterdam, 1929).
//!
//! The former German rule drew a game when "a sequence of moves — with all
//! pieces in exactly the same positions — is played three times
//! successively". Max Euwe showed in 1929 that this does not make chess
//! finite: take the Prouhet–Thue–Morse sequence `t(k)` (the parity of the
//! number of one-bits of `k`: 0 1 1 0 1 0 0 1 …), which contains no cube
//! `XXX`, and play for each `k` the knight block `t(k)`:
//!
//! ```text
//! block 0:  Nb1-c3  Nb8-c6  Nc3-b1  Nc6-b8
//! block 1:  Ng1-f3  Ng8-f6  Nf3-g1  Nf6-g8
//! ```
//!
//! Each block returns to the start position, and since the two blocks move
//! different knights, a cube of moves would give a cube of blocks, which the
//! Thue–Morse sequence never contains. The game can go on forever under the
//! old rule. Under FIDE's, the start position stands at plies 0, 4, 8, 12,
//! 16: Black may claim with the last move of the second block (9.2 a, ply 7),
//! the claim stands after it (9.2 b, ply 8), and the fifth appearance at ply
//! 16 ends the game without a claim (9.6.1).

use shakmaty::{CastlingMode, Move, Position, uci::UciMove};

use super::game::Game;

/// Euwe's two knight blocks, in UCI.
pub const BLOCKS: [[&str; 4]; 2] = [
    ["b1c3", "b8c6", "c3b1", "c6b8"],
    ["g1f3", "g8f6", "f3g1", "f6g8"],
];

/// Block `bit` in SAN ("Nc3 Nc6 Nb1 Nb8"), as the trainer's other texts
/// write moves: every block is played from the start position.
pub fn block_sans(bit: u8) -> Vec<String> {
    let mut pos = shakmaty::Chess::default();
    BLOCKS[bit as usize]
        .iter()
        .map(|u| {
            let m = u
                .parse::<UciMove>()
                .expect("valid")
                .to_move(&pos)
                .expect("legal in the block");
            let san = shakmaty::san::San::from_move(&pos, m).to_string();
            pos.play_unchecked(m);
            san
        })
        .collect()
}

/// The Thue–Morse bit `t(k)`: the parity of the number of one-bits of `k`.
pub fn thue_morse(k: u64) -> u8 {
    (k.count_ones() & 1) as u8
}

/// Where the move of ply `ply` (1-based: ply 1 is the first move) stands in
/// Euwe's sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EuweIndex {
    /// The Thue–Morse index `k` (the block number).
    pub block: u64,
    /// The bit `t(k)`: which knight block is played.
    pub bit: u8,
    /// The move's place in its block (0..4).
    pub step: usize,
}

impl EuweIndex {
    /// The index of ply `ply` (1-based).
    pub fn of_ply(ply: usize) -> EuweIndex {
        assert!(ply >= 1, "ply 0 is the start position, not a move");
        let i = (ply - 1) as u64;
        let block = i / 4;
        EuweIndex {
            block,
            bit: thue_morse(block),
            step: (i % 4) as usize,
        }
    }

    /// The move in UCI.
    pub fn uci(self) -> &'static str {
        BLOCKS[self.bit as usize][self.step]
    }
}

/// The move of ply `ply` (1-based) of Euwe's sequence, from the standard start.
pub fn euwe_move(ply: usize) -> Move {
    let uci: UciMove = EuweIndex::of_ply(ply)
        .uci()
        .parse()
        .expect("the blocks are valid UCI");
    // Every move of the blocks is legal whenever it is played: each block
    // starts and ends in the standard start position.
    let pos = if EuweIndex::of_ply(ply).step == 0 {
        shakmaty::Chess::default()
    } else {
        let mut pos = shakmaty::Chess::default();
        let first = ply - EuweIndex::of_ply(ply).step;
        for p in first..ply {
            let m = EuweIndex::of_ply(p)
                .uci()
                .parse::<UciMove>()
                .expect("valid");
            let m = m.to_move(&pos).expect("legal in the block");
            pos.play_unchecked(m);
        }
        pos
    };
    uci.to_move(&pos).expect("legal in the block")
}

/// The first `plies` plies of Euwe's sequence as a game. The game is played
/// past the fivefold repetition that ends it under FIDE 9.6.1, so that the
/// former rule can be watched too; [`Game::termination`] records the first
/// automatic ending.
pub fn euwe_game(plies: usize) -> Game {
    let mut game = Game::new();
    for ply in 1..=plies {
        let m = EuweIndex::of_ply(ply)
            .uci()
            .parse::<UciMove>()
            .expect("valid")
            .to_move(game.position())
            .expect("legal: each block starts from the start position");
        game.play_past_end(m).expect("legal");
    }
    game
}

/// Why Euwe's game never meets the former German rule, in one line: the
/// trainer and `threefold euwe` both show it.
pub const CUBE_FREE: &str =
    "Thue–Morse is cube-free (no XXX): no sequence comes a third time in succession.";

/// A sequence of moves played again in immediate succession: the `len` moves
/// after ply `start` (from the position at `start`), then the same moves from
/// the same position again, and so on, for `played` moves in all (the plies
/// `start + 1 ..= start + played` repeat with period `len`).
///
/// Every count here is of plies (one side's move each): Nf3 Nf6 Ng1 Ng8 is a
/// sequence of 4 plies, 2 moves in the chess sense. The texts say "plies"
/// through [`count_plies`] and [`Repeat::span`], so number and unit agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// The ply whose position the sequence is first played from.
    pub start: usize,
    /// The number of plies in the sequence.
    pub len: usize,
    /// How many plies of the repetition have been played, the first time
    /// included (`2 * len` for a sequence played exactly twice).
    pub played: usize,
}

/// "1 ply", "4 plies": how every Euwe text counts half-moves (a count of
/// plies called "moves" reads as twice as long).
pub fn count_plies(n: usize) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

impl Repeat {
    /// The ply of the last move played in the repetition.
    pub fn end(&self) -> usize {
        self.start + self.played
    }

    /// "plies 5–12": the plies the repetition has taken so far.
    pub fn span(&self) -> String {
        format!("plies {}–{}", self.start + 1, self.end())
    }

    /// How many plies short of three times in succession (the former German
    /// rule) the repetition is; 0 once the rule is met.
    pub fn missing(&self) -> usize {
        (3 * self.len).saturating_sub(self.played)
    }

    /// The moves of the sequence in UCI.
    pub fn moves(&self, game: &Game) -> Vec<String> {
        (self.start + 1..=self.start + self.len)
            .map(|p| {
                game.record(p)
                    .mv
                    .expect("ply >= 1 has a move")
                    .to_uci(CastlingMode::Standard)
                    .to_string()
            })
            .collect()
    }

    /// The moves of the sequence in SAN ("Nf3 Nf6 Ng1 Ng8").
    pub fn sans(&self, game: &Game) -> Vec<String> {
        (self.start + 1..=self.start + self.len)
            .map(|p| game.san_plus(p).map(|s| s.to_string()).unwrap_or_default())
            .collect()
    }
}

/// A run: a maximal stretch of the game whose positions repeat with a
/// primitive period of `period` plies, at least twice over. The positions at
/// plies `start ..= end` satisfy `key(i) == key(i + period)` for every
/// `start <= i <= end - period`, with `end - start >= 2 * period`, and the
/// stretch extends neither way. The same moves lead from the same position to
/// the same position, and different moves to different ones, so the moves
/// `start + 1 ..= end` repeat with the same period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub start: usize,
    pub period: usize,
    pub end: usize,
}

/// Every run of `game` (see [`Run`]), in no particular order.
///
/// For each period `p`, a stretch of period `p` covering at least `2p` moves
/// contains a ply that is a multiple of `p` with `key(i) == key(i + p)`, so
/// only those plies are tried: `n/p` tries per period, `n log n` in all.
/// From a match the stretch is extended forward and backward by a longest
/// common extension on rolling hashes of the keys (galloping search, so
/// `O(log n)` each), and a stretch whose first `p` positions have a smaller
/// period dividing `p` is left out (it is found with that period). Hashes are
/// taken modulo the Mersenne prime 2^61 − 1 (a power-of-two modulus fails on
/// Thue–Morse strings, of all things), so two different stretches of `m`
/// positions hash alike with probability below `m / 2^61`.
pub fn runs(game: &Game) -> Vec<Run> {
    let keys: Vec<u64> = game.records().iter().map(|r| r.key).collect();
    let n = keys.len();
    let h = Hashes::new(&keys);
    let mut out = Vec::new();
    for period in 1..=n.saturating_sub(1) / 2 {
        let mut i = 0;
        while i + period < n {
            if keys[i] != keys[i + period] {
                i += period;
                continue;
            }
            let forward = h.common_prefix(i, i + period, n - i - period);
            let backward = h.common_suffix(i, i + period, i);
            let (first, last) = (i - backward, i + forward - 1);
            if last - first >= period && h.is_primitive(first, period) {
                out.push(Run {
                    start: first,
                    period,
                    end: last + period,
                });
            }
            i = (last / period + 1) * period;
        }
    }
    out
}

/// The former German rule and how near a game came to it, ply by ply: at
/// each ply, the longest sequence of moves so far played twice in immediate
/// succession, the repetition that came closest to three times, and the
/// first sequence played three times in succession (which drew the game).
/// Built from the game's [`runs`] in `O(n log² n)`, then answered per ply in
/// `O(1)`; what is said about a ply uses only the moves up to it.
#[derive(Clone, Debug, Default)]
pub struct Successions {
    longest: Vec<Option<Repeat>>,
    closest: Vec<Option<Repeat>>,
    german: Option<Repeat>,
}

impl Successions {
    /// The successions of every ply of `game`.
    pub fn of(game: &Game) -> Successions {
        let n = game.len();
        let runs = runs(game);
        // Squares (a sequence played twice) by the ply that completes them:
        // in a run of period p over m moves, the sequences of k·p moves
        // from its start, for 2kp <= m.
        let mut squares: Vec<Repeat> = runs
            .iter()
            .flat_map(|r| {
                (1..=(r.end - r.start) / (2 * r.period)).map(move |k| Repeat {
                    start: r.start,
                    len: k * r.period,
                    played: 2 * k * r.period,
                })
            })
            .collect();
        squares.sort_unstable_by_key(|s| (s.end(), std::cmp::Reverse(s.len), s.start));
        let mut runs = runs;
        runs.sort_unstable_by_key(|r| r.start + 2 * r.period);

        let mut out = Successions {
            longest: Vec::with_capacity(n + 1),
            closest: Vec::with_capacity(n + 1),
            german: None,
        };
        let (mut next_square, mut next_run) = (0, 0);
        let mut longest: Option<Repeat> = None;
        let mut active: Vec<Run> = Vec::new();
        let mut finished: Option<Repeat> = None;
        for ply in 0..=n {
            while let Some(s) = squares.get(next_square).filter(|s| s.end() == ply) {
                if longest.is_none_or(|l| s.len > l.len) {
                    longest = Some(*s);
                }
                next_square += 1;
            }
            while let Some(r) = runs.get(next_run).filter(|r| r.start + 2 * r.period == ply) {
                active.push(*r);
                next_run += 1;
            }
            let as_now = |r: &Run| Repeat {
                start: r.start,
                len: r.period,
                played: ply.min(r.end) - r.start,
            };
            let mut closest = finished;
            for r in &active {
                closest = nearer(closest, as_now(r));
            }
            active.retain(|r| {
                if r.end == ply {
                    finished = nearer(finished, as_now(r));
                }
                r.end > ply
            });
            if out.german.is_none() && closest.is_some_and(|c| c.missing() == 0) {
                out.german = closest.map(|c| Repeat {
                    played: 3 * c.len,
                    ..c
                });
            }
            out.longest.push(longest);
            out.closest.push(out.german.or(closest));
        }
        out
    }

    /// The longest sequence of moves played twice in immediate succession by
    /// ply `ply` (the first to be completed, if several are as long).
    pub fn longest_square(&self, ply: usize) -> Option<Repeat> {
        self.longest[ply]
    }

    /// The repetition in immediate succession that came closest to three
    /// times by ply `ply`: fewest moves missing, then the shorter sequence,
    /// then the later. Once the former German rule is met, the sequence that
    /// met it.
    pub fn closest_to_german_rule(&self, ply: usize) -> Option<Repeat> {
        self.closest[ply]
    }

    /// The former German rule at ply `ply`: the first sequence of moves
    /// played three times in succession by then, if any (it drew the game at
    /// ply `start + 3 * len`).
    pub fn german_rule(&self, ply: usize) -> Option<Repeat> {
        self.german.filter(|g| g.end() <= ply)
    }
}

/// The nearer of two repetitions to three times in succession.
fn nearer(a: Option<Repeat>, b: Repeat) -> Option<Repeat> {
    let rank = |r: &Repeat| (r.missing(), r.len, std::cmp::Reverse(r.start));
    match a {
        Some(a) if rank(&a) <= rank(&b) => Some(a),
        _ => Some(b),
    }
}

/// Prefix hashes of a sequence of keys modulo 2^61 − 1, for comparing
/// stretches in O(1).
struct Hashes {
    prefix: Vec<u64>,
    power: Vec<u64>,
}

const MERSENNE_61: u64 = (1 << 61) - 1;
const HASH_BASE: u64 = 0x0123_4567_89ab_cdf1 % MERSENNE_61;

fn mul_mod(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    let s = (r as u64 & MERSENNE_61) + (r >> 61) as u64;
    if s >= MERSENNE_61 { s - MERSENNE_61 } else { s }
}

impl Hashes {
    fn new(keys: &[u64]) -> Hashes {
        let mut prefix = Vec::with_capacity(keys.len() + 1);
        let mut power = Vec::with_capacity(keys.len() + 1);
        let (mut h, mut p) = (0, 1);
        prefix.push(h);
        power.push(p);
        for &k in keys {
            h = (mul_mod(h, HASH_BASE) + k % MERSENNE_61 + 1) % MERSENNE_61;
            p = mul_mod(p, HASH_BASE);
            prefix.push(h);
            power.push(p);
        }
        Hashes { prefix, power }
    }

    /// The hash of keys `from..from + len`.
    fn of(&self, from: usize, len: usize) -> u64 {
        let to = from + len;
        let shifted = mul_mod(self.prefix[from], self.power[len]);
        (self.prefix[to] + MERSENNE_61 - shifted) % MERSENNE_61
    }

    fn same(&self, a: usize, b: usize, len: usize) -> bool {
        self.of(a, len) == self.of(b, len)
    }

    /// The largest `len <= max` with keys `a..a+len` equal to `b..b+len`.
    fn common_prefix(&self, a: usize, b: usize, max: usize) -> usize {
        self.gallop(max, |len| self.same(a, b, len))
    }

    /// The largest `len <= max` with keys `a-len..a` equal to `b-len..b`.
    fn common_suffix(&self, a: usize, b: usize, max: usize) -> usize {
        self.gallop(max, |len| self.same(a - len, b - len, len))
    }

    /// The largest `len <= max` for which `equal(len)` holds, `equal` being
    /// true up to some length and false beyond: doubling, then bisection.
    fn gallop(&self, max: usize, equal: impl Fn(usize) -> bool) -> usize {
        let mut good = 0;
        let mut step = 1;
        while good + step <= max && equal(good + step) {
            good += step;
            step *= 2;
        }
        let mut bad = (good + step).min(max + 1);
        while bad - good > 1 {
            let mid = good + (bad - good) / 2;
            if equal(mid) { good = mid } else { bad = mid }
        }
        good
    }

    /// Whether keys `from..from + period` have no smaller period dividing
    /// `period` (are not a power of a shorter sequence).
    fn is_primitive(&self, from: usize, period: usize) -> bool {
        let mut d = 1;
        while d * d <= period {
            if period.is_multiple_of(d) {
                for q in [d, period / d] {
                    if q < period && self.same(from, from + q, period - q) {
                        return false;
                    }
                }
            }
            d += 1;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shuffle::Rng;
    use shakmaty::Role;

    /// What [`Successions`] says at every ply, found by brute force over
    /// every start and length.
    #[allow(clippy::needless_range_loop)] // plies and lengths index the table
    fn brute_force(game: &Game) -> Vec<(Option<Repeat>, Option<Repeat>, Option<Repeat>)> {
        let k: Vec<u64> = game.records().iter().map(|r| r.key).collect();
        let n = game.len();
        // matches[a][l]: how many i = 0, 1, ... have k[a + i] == k[a + l + i].
        let matches = |a: usize, l: usize| {
            (0..)
                .take_while(|i| a + l + i <= n && k[a + i] == k[a + l + i])
                .count()
        };
        let mut m = vec![vec![0; n + 1]; n + 1];
        for (a, row) in m.iter_mut().enumerate() {
            for (l, cell) in row.iter_mut().enumerate().skip(1) {
                if a + l <= n {
                    *cell = matches(a, l);
                }
            }
        }
        let mut out = Vec::new();
        let mut german: Option<Repeat> = None;
        for ply in 0..=n {
            let mut longest: Option<Repeat> = None;
            let mut closest: Option<Repeat> = None;
            for end in 0..=ply {
                for l in (1..=end / 2).rev() {
                    let a = end - 2 * l;
                    if m[a][l] > l && longest.is_none_or(|b| l > b.len) {
                        longest = Some(Repeat {
                            start: a,
                            len: l,
                            played: 2 * l,
                        });
                    }
                }
            }
            for a in 0..=ply {
                for l in 1..=(ply - a) / 2 {
                    if m[a][l] > l {
                        let played = (m[a][l] + l - 1).min(ply - a);
                        let r = Repeat {
                            start: a,
                            len: l,
                            played,
                        };
                        // Fewest moves missing for a third time, then the
                        // shorter sequence, then the later.
                        let rank = |r: &Repeat| {
                            let missing = (3 * r.len).saturating_sub(r.played);
                            (missing, r.len, std::cmp::Reverse(r.start))
                        };
                        if closest.is_none_or(|c| rank(&r) < rank(&c)) {
                            closest = Some(r);
                        }
                    }
                }
            }
            if german.is_none() {
                german = closest.filter(|c| c.missing() == 0).map(|c| Repeat {
                    played: 3 * c.len,
                    ..c
                });
            }
            out.push((longest, german.or(closest), german));
        }
        out
    }

    fn check(game: &Game) {
        let s = Successions::of(game);
        for (ply, (longest, closest, german)) in brute_force(game).into_iter().enumerate() {
            assert_eq!(s.longest_square(ply), longest, "longest at ply {ply}");
            assert_eq!(
                s.closest_to_german_rule(ply),
                closest,
                "closest at ply {ply}"
            );
            assert_eq!(s.german_rule(ply), german, "German rule at ply {ply}");
        }
    }

    /// Knight moves only, mostly the move of 2, 4, 6, 8 or 12 plies before, so
    /// that squares and cubes of several lengths come up.
    fn knight_game(seed: u64, plies: usize) -> Game {
        let mut rng = Rng::new(seed);
        let mut game = Game::new();
        let mut back = 4;
        for _ in 0..plies {
            let mut knights: Vec<Move> = game
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| m.role() == Role::Knight && !m.is_capture())
                .collect();
            if knights.is_empty() {
                // In check from a knight: any legal answer.
                knights = game.legal_moves().to_vec();
            }
            if rng.below(12) == 0 {
                back = [2, 4, 6, 8, 12][rng.below(5)];
            }
            let echo = game
                .len()
                .checked_sub(back - 1)
                .filter(|&p| p >= 1)
                .and_then(|p| game.record(p).mv)
                .filter(|m| knights.contains(m));
            let m = match echo {
                Some(m) if rng.below(10) < 8 => m,
                _ => knights[rng.below(knights.len())],
            };
            game.play_past_end(m).expect("legal");
        }
        game
    }

    #[test]
    fn successions_agree_with_brute_force_on_euwe() {
        check(&euwe_game(240));
    }

    #[test]
    fn successions_agree_with_brute_force_on_knight_games() {
        let mut cubes = 0;
        for seed in 1..=12 {
            let game = knight_game(seed, 120);
            check(&game);
            cubes += usize::from(Successions::of(&game).german_rule(game.len()).is_some());
        }
        // The games must exercise both sides of the rule.
        assert!((1..12).contains(&cubes), "{cubes} of 12 games met the rule");
    }

    #[test]
    fn euwe_plays_squares_but_never_a_move_of_a_third_time() {
        let game = euwe_game(4096);
        let s = Successions::of(&game);
        // Blocks 1 and 2 are both t = 1: plies 5..12 play Nf3 Nf6 Ng1 Ng8 twice.
        let first = Repeat {
            start: 4,
            len: 4,
            played: 8,
        };
        assert_eq!(s.longest_square(12), Some(first));
        assert_eq!(s.closest_to_german_rule(12), Some(first));
        assert_eq!(s.longest_square(11), None);
        for ply in 12..=game.len() {
            let c = s.closest_to_german_rule(ply).expect("a square by ply 12");
            // Thue–Morse is overlap-free, so at the level of moves too a
            // repetition stops exactly when the second time is complete.
            assert_eq!(c.played, 2 * c.len, "at ply {ply}");
            assert_eq!(c.missing(), 4, "at ply {ply}");
            assert_eq!(s.german_rule(ply), None);
        }
        // Blocks 256..511 and 512..767 both complement blocks 0..255.
        assert_eq!(s.longest_square(4096).map(|l| l.len), Some(4 * 256));
    }

    #[test]
    fn a_plain_cube_meets_the_rule_when_its_last_move_is_played() {
        let mut g = Game::new();
        for _ in 0..3 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                g.play_past_end(g.parse_uci(m).expect("legal"))
                    .expect("legal");
            }
        }
        let s = Successions::of(&g);
        assert_eq!(s.german_rule(11), None);
        assert_eq!(s.closest_to_german_rule(11).map(|c| c.missing()), Some(1));
        let cube = s.german_rule(12).expect("the same four moves three times");
        assert_eq!((cube.start, cube.len, cube.end()), (0, 4, 12));
        assert_eq!(cube.moves(&g), ["g1f3", "g8f6", "f3g1", "f6g8"]);
        assert_eq!(cube.sans(&g), ["Nf3", "Nf6", "Ng1", "Ng8"]);
        // Eight moves twice is the longest square (ply 16 is not reached).
        assert_eq!(s.longest_square(12).map(|l| l.len), Some(4));
    }
}
