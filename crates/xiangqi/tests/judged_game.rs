//! A game's ruling stands once made ([`JudgedGame`]): generated shuffling games, with
//! takebacks, are judged move by move by a `JudgedGame` and, at every step, by the rule
//! written out plainly — the first ply at which a record built afresh up to that ply is
//! ruled. Both must name the same ruling, and the moves after it are played past it.

use threefold_xiangqi::judge::{JudgedGame, Outcome, Record};
use threefold_xiangqi::{Move, Position, RuleAt};

mod common;
use common::{Rng, STARTS, shuffle_move};

/// The first ruling of the game `line` from `start`, found by judging every prefix afresh.
fn first_ruling(start: &Position, line: &[Move], at: RuleAt) -> Option<(usize, Outcome)> {
    let mut r = Record::new(start.clone());
    for k in 0..=line.len() {
        if k > 0 {
            r.push(line[k - 1]);
        }
        let ruling = r.judge(at);
        if ruling.outcome != Outcome::Undecided {
            return Some((k, ruling.outcome));
        }
    }
    None
}

#[test]
fn the_first_ruling_stands_through_later_moves_and_takebacks() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let mut past = [0usize; 2];
    for (g, fen) in STARTS.iter().cycle().take(20).enumerate() {
        let start = Position::from_fen(fen).expect("a legal FEN");
        for (i, at) in RuleAt::ALL.into_iter().enumerate() {
            let ntimes = at.ntimes();
            let mut game = JudgedGame::new(start.clone(), at);
            let mut line: Vec<Move> = Vec::new();
            for step in 0..120 {
                if rng.below(8) == 0 && !line.is_empty() {
                    game.pop();
                    line.pop();
                } else {
                    let own = line.len().checked_sub(2).map(|i| line[i]);
                    let Some(m) = shuffle_move(&mut rng, game.record().current(), own) else {
                        break;
                    };
                    game.push(m);
                    line.push(m);
                }
                let expected = first_ruling(&start, &line, at);
                let got = game.standing().map(|r| (r.ply, r.outcome));
                assert_eq!(
                    got, expected,
                    "game {g} step {step} ntimes {ntimes}: {line:?}"
                );
                let ruling = game.ruling();
                match expected {
                    Some((ply, _)) => {
                        assert_eq!(ruling.ply, ply);
                        assert_eq!(game.played_past(), line.len() - ply);
                        assert_eq!(game.past_note().is_some(), line.len() > ply);
                        if line.len() > ply {
                            past[i] += 1;
                        }
                    }
                    None => {
                        assert_eq!(ruling.outcome, Outcome::Undecided);
                        assert_eq!(ruling.ply, line.len());
                        assert_eq!((game.played_past(), game.past_note()), (0, None));
                    }
                }
            }
            // Built at once from the record, the same game is judged alike.
            let again = JudgedGame::of(game.record(), at);
            assert_eq!(
                again.standing(),
                game.standing(),
                "game {g} ntimes {ntimes}"
            );
        }
    }
    // The walks do go on past rulings, at both occurrences.
    assert!(past.iter().all(|&n| n > 50), "{past:?}");
}

/// The case: with `ntimes` 1 a perpetual chase ruled at the first repetition still
/// stands a move later, when the final position alone would be undecided.
#[test]
fn a_chase_ruled_at_the_first_repetition_stands_a_move_later() {
    let start =
        Position::from_fen("2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1")
            .expect("a legal FEN");
    let mut game = JudgedGame::new(start, RuleAt::FirstRepetition);
    for t in "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 h2h3".split_whitespace() {
        let m = threefold_xiangqi::notation::parse_ucci(game.record().current(), t).unwrap();
        game.push(m);
    }
    assert_eq!(
        game.record().judge(RuleAt::FirstRepetition).outcome,
        Outcome::Undecided
    );
    let r = game.ruling();
    assert_eq!((r.ply, r.outcome), (5, Outcome::Win));
    assert_eq!(r.headline(), "Black wins, Red loses");
    assert_eq!(
        game.past_note().as_deref(),
        Some("The ruling was made after ply 5 and stands: plies 6–7 were played past it.")
    );
    game.pop();
    game.pop();
    assert_eq!(game.played_past(), 0);
    game.pop();
    assert!(game.standing().is_none());
}
