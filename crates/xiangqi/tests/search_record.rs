//! A search keeps one judge record and pushes and pops moves on it ([`Record::push_made`],
//! [`Record::push_null`], [`Record::pop`]), reusing the chase information it cached while
//! the entries stand. This replays generated shuffling walks, with takebacks and null moves,
//! through such a record and, at every step, through a record built afresh from the same
//! line: both must rule alike (full rulings at the first repetition and at the third
//! occurrence, and `judge_prune`).

use threefold_xiangqi::judge::Record;
use threefold_xiangqi::{Move, Position};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const STARTS: &[&str] = &[
    "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
    "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
    "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
    "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
    "5k3/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1",
];

/// One step of a line: a move, or a null move (`None`).
type Step = Option<Move>;

/// A record built afresh from `start` and `line`.
fn fresh(start: &Position, line: &[Step]) -> Record {
    let mut r = Record::new(start.clone());
    for step in line {
        match step {
            Some(m) => r.push(*m),
            None => r.push_null(),
        }
    }
    r
}

/// A move that tends to repeat: the reverse of the mover's own last move when legal, else
/// a random legal move (captures and pawn advances rarely).
fn shuffle_move(rng: &mut Rng, pos: &Position, line: &[Step]) -> Option<Move> {
    let legal = pos.legal_moves();
    let moves = legal.as_slice();
    if moves.is_empty() {
        return None;
    }
    if line.len() >= 2
        && let Some(own) = line[line.len() - 2]
    {
        let back = Move::new(own.to(), own.from());
        if moves.contains(&back) && rng.below(4) != 0 {
            return Some(back);
        }
    }
    for _ in 0..8 {
        let m = moves[rng.below(moves.len())];
        if !(pos.is_capture(m) || pos.is_pawn_advance(m)) || rng.below(8) == 0 {
            return Some(m);
        }
    }
    Some(moves[rng.below(moves.len())])
}

#[test]
fn a_record_pushed_and_popped_rules_as_one_built_afresh() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut rulings = 0;
    for (g, fen) in STARTS.iter().cycle().take(20).enumerate() {
        let start = Position::from_fen(fen).expect("a legal FEN");
        let mut record = Record::new(start.clone());
        let mut line: Vec<Step> = Vec::new();
        for step in 0..160 {
            // A search's walk: mostly forward, sometimes back a few plies, a null move now
            // and then (never twice in a row, never in check).
            let back = rng.below(6) == 0 && !line.is_empty();
            if back {
                for _ in 0..=rng.below(3).min(line.len() - 1) {
                    record.pop();
                    line.pop();
                }
            } else if rng.below(25) == 0
                && !record.current().in_check()
                && line.last().is_some_and(|s| s.is_some())
            {
                record.push_null();
                line.push(None);
            } else {
                let pos = record.current().clone();
                let Some(m) = shuffle_move(&mut rng, &pos, &line) else {
                    break;
                };
                let mut next = pos.clone();
                next.make(m);
                let check = next.in_check();
                record.push_made(m, next, pos.is_capture(m) || pos.is_pawn_advance(m), check);
                line.push(Some(m));
            }
            let built = fresh(&start, &line);
            for ntimes in [1, 2] {
                let (a, b) = (record.judge(ntimes), built.judge(ntimes));
                assert_eq!(a, b, "game {g} step {step} ntimes {ntimes}: line {line:?}");
                if a.window.is_some() {
                    rulings += 1;
                }
            }
            for (draw, beta) in [(0, 1), (0, -1), (-20, 50)] {
                assert_eq!(
                    record.judge_prune(draw, beta),
                    built.judge_prune(draw, beta),
                    "game {g} step {step}: judge_prune({draw}, {beta})"
                );
            }
        }
    }
    // The walks must actually repeat, or the comparison would prove little.
    assert!(rulings > 200, "only {rulings} rulings made");
}
