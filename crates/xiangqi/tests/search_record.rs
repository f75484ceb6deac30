//! A search keeps one judge record and pushes and pops moves on it ([`Record::push_made`],
//! [`Record::push_null`], [`Record::pop`]), reusing the chase information it cached while
//! the entries stand. This replays generated shuffling walks, with takebacks and null moves,
//! through such a record and, at every step, through a record built afresh from the same
//! line: both must rule alike (full rulings at the first repetition and at the third
//! occurrence, and `judge_prune`).

use threefold_xiangqi::judge::Record;
use threefold_xiangqi::{Move, Position, RuleAt};

mod common;
use common::{Rng, STARTS, shuffle_move};

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
                let Some(m) = shuffle_move(
                    &mut rng,
                    &pos,
                    line.len().checked_sub(2).and_then(|i| line[i]),
                ) else {
                    break;
                };
                let mut next = pos.clone();
                next.make(m);
                let check = next.in_check();
                record.push_made(m, next, pos.is_capture(m) || pos.is_pawn_advance(m), check);
                line.push(Some(m));
            }
            let built = fresh(&start, &line);
            for at in RuleAt::ALL {
                let ntimes = at.ntimes();
                let (a, b) = (record.judge(at), built.judge(at));
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
