//! The record keeps every position's earlier occurrences as moves are pushed and popped
//! (issue 36: long games grew slow, quadratically, when each ruling scanned the game back).
//! Generated shuffling games with takebacks and null moves are checked, at every ply,
//! against the rule written out plainly — a scan back over the plies with the same side to
//! move while no capture or pawn advance intervenes — and their rulings against a record
//! built afresh; looking occurrences up must cost the occurrences found, not the game.

use threefold_xiangqi::judge::{JudgedGame, Record, Ruling};
use threefold_xiangqi::{Move, Position, RuleAt};

mod common;
use common::{Rng, STARTS, shuffle_move};

/// The earlier plies (most recent first) at which the position of ply `n` stood: the scan
/// the record used to make for every ruling.
fn scanned(r: &Record, n: usize) -> Vec<usize> {
    let key = r.position(n).key();
    let mut out = Vec::new();
    let mut k = n;
    while k >= 2 && !r.irreversible(k) && !r.irreversible(k - 1) {
        k -= 2;
        if r.position(k).key() == key {
            out.push(k);
        }
    }
    out
}

/// A record built afresh from `start` with `line` (`None`: a null move).
fn afresh(start: &Position, line: &[Option<Move>]) -> Record {
    let mut r = Record::new(start.clone());
    for m in line {
        match m {
            Some(m) => r.push(*m),
            None => r.push_null(),
        }
    }
    r
}

/// The parts of a ruling that rest on the occurrences, checked against the scan.
fn check_against_scan(ruling: &Ruling, scan: &[usize], ntimes: usize, what: &str) {
    assert_eq!(ruling.occurrences, scan.len(), "{what}");
    let counted: Vec<usize> = scan.iter().copied().take(ntimes).collect();
    assert_eq!(ruling.earlier, counted, "{what}");
    if ruling.ending.is_none() {
        assert_eq!(
            ruling.window.map(|(j, _)| j),
            scan.get(ntimes - 1).copied(),
            "{what}"
        );
    }
}

#[test]
fn occurrences_kept_as_moves_are_pushed_and_popped_match_a_scan_and_rulings_a_fresh_record() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut repeated = 0;
    for (g, length) in [40, 150, 400, 700].iter().cycle().take(8).enumerate() {
        let start = Position::from_fen(STARTS[g % STARTS.len()]).expect("a start");
        let mut r = Record::new(start.clone());
        let mut line: Vec<Option<Move>> = Vec::new();
        let mut steps = 0;
        while line.len() < *length && steps < 4 * length {
            steps += 1;
            let n = r.ply();
            if n > 0 && rng.below(10) == 0 {
                // Take back one to three plies.
                for _ in 0..=rng.below(3).min(n - 1) {
                    r.pop();
                    line.pop();
                }
            } else if rng.below(40) == 0 && !r.current().in_check() {
                r.push_null();
                line.push(None);
            } else {
                let own = (n >= 2).then(|| r.move_at(n - 1));
                let Some(m) = shuffle_move(&mut rng, r.current(), own) else {
                    break;
                };
                r.push(m);
                line.push(Some(m));
            }
            let n = r.ply();
            let what = format!("game {g}, ply {n}, line {line:?}");
            // Every ply's occurrences, not only the last one's: a pop must restore them all.
            for k in [n, rng.below(n + 1), n.saturating_sub(1)] {
                let scan = scanned(&r, k);
                assert_eq!(r.earlier_occurrences(k), scan, "ply {k}, {what}");
                assert_eq!(r.occurrence_count(k), scan.len(), "ply {k}, {what}");
            }
            let scan = scanned(&r, n);
            repeated += usize::from(!scan.is_empty());
            for at in RuleAt::ALL {
                let ntimes = at.ntimes();
                let ruling = r.judge(at);
                check_against_scan(&ruling, &scan, ntimes, &what);
                if steps % 16 == 0 {
                    let fresh = afresh(&start, &line);
                    assert_eq!(ruling, fresh.judge(at), "{what}");
                    // The judge of an earlier ply, without taking anything back.
                    let k = rng.below(n + 1);
                    let back = afresh(&start, &line[..k]);
                    assert_eq!(r.judge_at(k, at), back.judge(at), "ply {k}, {what}");
                    check_against_scan(&r.judge_at(k, at), &scanned(&r, k), ntimes, &what);
                }
            }
        }
    }
    // The games repeat a lot: the chains are exercised, not only their ends.
    assert!(repeated > 500, "{repeated}");
}

/// Judging every ply of a long shuffle looks up a few occurrences a ply, however many times
/// the positions stood before: the count of earlier occurrences is kept, not counted again.
/// (It failed with `judge` counting them along the chain: `self.occurrences(n).count()`.)
#[test]
fn judging_a_long_shuffle_looks_up_a_few_occurrences_a_ply() {
    let cycle: Vec<Move> = [("b0", "c2"), ("b9", "c7"), ("c2", "b0"), ("c7", "b9")]
        .iter()
        .map(|(a, b)| Move::new(a.parse().expect("a point"), b.parse().expect("a point")))
        .collect();
    let plies = 2_000;
    for at in RuleAt::ALL {
        let ntimes = at.ntimes();
        let mut r = Record::new(Position::start());
        for &m in cycle.iter().cycle().take(plies) {
            r.push(m);
            r.judge(at);
        }
        // The last position, the start position, stood after every fourth ply before.
        assert_eq!(r.occurrence_count(plies), plies / 4);
        let bound = (2 * ntimes * plies) as u64;
        assert!(
            r.occurrence_lookups() <= bound,
            "{} lookups over {plies} plies judged (ntimes {ntimes}), more than {bound}",
            r.occurrence_lookups()
        );
    }
    // A judged game played on past its ruling: no lookup at all after it.
    let mut game = JudgedGame::new(Position::start(), RuleAt::ThirdOccurrence);
    for &m in cycle.iter().cycle().take(plies) {
        game.push(m);
    }
    assert_eq!(game.standing().map(|r| r.ply), Some(8));
    assert!(game.record().occurrence_lookups() <= 4 * 8);
}
