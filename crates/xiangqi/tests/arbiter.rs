//! Calling the arbiter: every consequence on real positions — a right and a wrong call of a
//! forbidden repetition, a right and a wrong draw call, a call before any repetition, and a
//! call when both sides violate — before the game's ruling occurrence (the arbiter's warning)
//! and once the ruling stands.

use threefold_xiangqi::arbiter::{
    Call, CallAnswer, Consequence, GameResult, Verdict, call, favourable_call,
};
use threefold_xiangqi::judge::{JudgedGame, Level};
use threefold_xiangqi::notation::parse_move;
use threefold_xiangqi::{Color, Move, Position, RuleAt};

/// The crate's doc example: Red's cannon chases the unprotected black rook (a2/b2 against
/// a7/b7); the position after ply 1 stands again after plies 5 and 9.
const CHASE_FEN: &str = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w";
const CHASE: &str = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2";
/// The paper's Figure 1: R2+1 K6+1 R2-1 K6-1, Red checks on every move.
const CHECK_FEN: &str = "5k3/7R1/9/9/9/9/9/9/9/4K4 w";
const CHECK: &str = "R2+1 K6+1 R2-1 K6-1 R2+1 K6+1 R2-1 K6-1";
/// Both sides check on every move (the paper's Figure 3 pattern, the judge's own case
/// "mutual perpetual check").
const MUTUAL_FEN: &str = "9/4c4/5k3/5r3/9/9/4C4/9/4K4/5R3 w";
const MUTUAL: &str = "e3f3 f6e6 f3e3 e6f6 e3f3 f6e6 f3e3 e6f6";
/// Horses out and back: nobody checks or chases.
const IDLE: &str = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";

/// The game from `fen` after the first `plies` moves of `moves`, ruled at `ntimes`.
fn game(fen: &str, moves: &str, plies: usize, ntimes: usize) -> JudgedGame {
    let at = RuleAt::from_ntimes(ntimes).expect("ntimes 1 or 2");
    let mut g = JudgedGame::new(Position::from_fen(fen).expect("a legal FEN"), at);
    for token in moves.split_whitespace().take(plies) {
        let m = parse_move(g.record().current(), token).expect("a legal move");
        g.push(m);
    }
    g
}

fn ucci(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.ucci()).collect()
}

fn must_vary(a: &CallAnswer) -> (Color, Vec<String>) {
    match a.consequence() {
        Consequence::MustVary {
            offender,
            forbidden,
        } => (*offender, ucci(forbidden)),
        other => panic!("not an order to vary: {other:?}\n{}", a.explanation()),
    }
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

#[test]
fn a_right_call_of_a_perpetual_chase_orders_the_chaser_to_vary_then_he_loses() {
    // At the first repetition (ply 5), with the game ruled at the third occurrence.
    let g = game(CHASE_FEN, CHASE, 5, 2);
    assert!(g.standing().is_none());
    let a = call(&g, Color::Black, Call::Forbidden);
    assert_eq!(a.verdict(), Verdict::Right);
    // Red's moves of the cycle, from the next it would play: a2b2 then b2a2.
    assert_eq!(
        must_vary(&a),
        (Color::Red, vec!["a2b2".into(), "b2a2".into()])
    );
    assert_eq!(
        a.headline(),
        "Right call (forbidden repetition): Red must vary or lose"
    );
    let text = a.explanation();
    assert!(text.contains("Red's repetition is forbidden"), "{text}");
    assert!(text.contains("perpetual chase"), "{text}");
    assert!(
        text.contains("Red loses when the position stands for the third time"),
        "{text}"
    );
    // Before the third occurrence the judge's words come as what they are: a forecast.
    assert!(
        text.contains("The repetition so far, as the judge rules it at its first repetition"),
        "{text}"
    );
    // Red does not vary: at the third occurrence the judge rules, and the call ends the game.
    let g = game(CHASE_FEN, CHASE, 9, 2);
    let a = call(&g, Color::Black, Call::Forbidden);
    assert_eq!(a.verdict(), Verdict::Right);
    assert_eq!(
        a.consequence(),
        &Consequence::GameOver(GameResult::Won {
            winner: Color::Black
        })
    );
    assert_eq!(
        a.headline(),
        "Right call (forbidden repetition): Black wins, Red loses"
    );
    assert!(
        a.explanation()
            .ends_with("Perpetual chase outranks idle moves: Black wins, Red loses.")
    );
    // Ruled at the first repetition, the call at ply 5 ends the game at once.
    let a = call(&game(CHASE_FEN, CHASE, 5, 1), Color::Black, Call::Forbidden);
    assert_eq!(
        a.consequence(),
        &Consequence::GameOver(GameResult::Won {
            winner: Color::Black
        })
    );
}

#[test]
fn a_right_call_of_a_perpetual_check() {
    let g = game(CHECK_FEN, CHECK, 4, 2);
    let a = call(&g, Color::Black, Call::Forbidden);
    assert_eq!(a.verdict(), Verdict::Right);
    assert_eq!(
        must_vary(&a),
        (Color::Red, vec!["h8h9".into(), "h9h8".into()])
    );
    assert!(
        a.explanation().contains("perpetual check"),
        "{}",
        a.explanation()
    );
    let a = call(&game(CHECK_FEN, CHECK, 8, 2), Color::Black, Call::Forbidden);
    assert_eq!(
        a.consequence(),
        &Consequence::GameOver(GameResult::Won {
            winner: Color::Black
        })
    );
    assert_eq!(
        favourable_call(&game(CHECK_FEN, CHECK, 4, 2), Color::Black, false),
        Some(Call::Forbidden)
    );
}

#[test]
fn a_wrong_call_of_a_forbidden_repetition() {
    // Black's moves were idle: Red's call finds Red the offender, and the arbiter now at the
    // board orders Red to vary.
    let g = game(CHASE_FEN, CHASE, 5, 2);
    let a = call(&g, Color::Red, Call::Forbidden);
    assert_eq!(a.verdict(), Verdict::CallerOffends);
    assert_eq!(must_vary(&a).0, Color::Red);
    let text = a.explanation();
    assert!(
        text.contains("Red's own repetition is the forbidden one"),
        "{text}"
    );
    assert!(text.contains("Red chases the black rook"), "{text}");
    // Nobody checks or chases: the call is wrong and play goes on.
    let g = game(START, IDLE, 4, 2);
    let a = call(&g, Color::Red, Call::Forbidden);
    assert_eq!(a.verdict(), Verdict::NothingForbidden);
    assert_eq!(a.consequence(), &Consequence::PlayOn);
    assert_eq!(a.headline(), "Wrong call (forbidden repetition): play on");
    let text = a.explanation();
    assert!(
        text.contains("Black's repetition is not forbidden"),
        "{text}"
    );
    assert!(
        text.contains("are idle: no move checks or chases"),
        "{text}"
    );
    assert!(text.contains("Nothing changes: play goes on."), "{text}");
    // Once the repetition is complete the wrong call changes nothing: the ruling stands.
    let a = call(&game(CHASE_FEN, CHASE, 9, 2), Color::Red, Call::Forbidden);
    assert_eq!(a.verdict(), Verdict::CallerOffends);
    assert_eq!(
        a.consequence(),
        &Consequence::GameOver(GameResult::Won {
            winner: Color::Black
        })
    );
    assert_eq!(favourable_call(&g, Color::Red, false), None);
}

#[test]
fn a_right_draw_call() {
    // Before the game's ruling occurrence: a draw if the repetition goes on.
    let g = game(START, IDLE, 4, 2);
    let a = call(&g, Color::Black, Call::Draw);
    assert_eq!(a.verdict(), Verdict::Right);
    assert_eq!(a.consequence(), &Consequence::DrawIfRepeated);
    assert!(
        a.explanation()
            .contains("the game is drawn when the position stands for the third time"),
        "{}",
        a.explanation()
    );
    assert_eq!(favourable_call(&g, Color::Black, true), Some(Call::Draw));
    assert_eq!(favourable_call(&g, Color::Black, false), None);
    // At the occurrence the game rules at, the game is drawn.
    for (plies, ntimes) in [(8, 2), (4, 1)] {
        let a = call(&game(START, IDLE, plies, ntimes), Color::Black, Call::Draw);
        assert_eq!(a.verdict(), Verdict::Right);
        assert_eq!(a.consequence(), &Consequence::GameOver(GameResult::Drawn));
        assert_eq!(a.headline(), "Right call (draw): Draw");
    }
}

#[test]
fn a_wrong_draw_call() {
    // Red chases perpetually: no draw, and Red is ordered to vary.
    let a = call(&game(CHASE_FEN, CHASE, 5, 2), Color::Black, Call::Draw);
    assert_eq!(
        a.verdict(),
        Verdict::NotADraw {
            offender: Color::Red
        }
    );
    assert_eq!(must_vary(&a).0, Color::Red);
    assert!(
        a.explanation()
            .contains("it is no draw, Red's repetition is forbidden"),
        "{}",
        a.explanation()
    );
    // The checker calls a draw: it is his own perpetual check.
    let a = call(&game(CHECK_FEN, CHECK, 8, 2), Color::Red, Call::Draw);
    assert_eq!(
        a.verdict(),
        Verdict::NotADraw {
            offender: Color::Red
        }
    );
    assert_eq!(
        a.consequence(),
        &Consequence::GameOver(GameResult::Won {
            winner: Color::Black
        })
    );
}

#[test]
fn a_call_before_any_repetition() {
    for plies in [0, 2, 4] {
        let g = game(CHASE_FEN, CHASE, plies, 2);
        for c in [Call::Forbidden, Call::Draw] {
            let a = call(&g, Color::Black, c);
            assert_eq!(a.verdict(), Verdict::NoRepetition, "ply {plies}");
            assert_eq!(a.consequence(), &Consequence::PlayOn);
            let text = a.explanation();
            assert!(text.contains("the position has not repeated"), "{text}");
            assert!(text.contains("has occurred 0 times before"), "{text}");
        }
        assert_eq!(favourable_call(&g, Color::Black, true), None);
    }
}

#[test]
fn a_call_when_both_sides_violate() {
    let g = game(MUTUAL_FEN, MUTUAL, 4, 2);
    for caller in [Color::Red, Color::Black] {
        let a = call(&g, caller, Call::Forbidden);
        assert_eq!(a.verdict(), Verdict::BothViolate(Level::Check));
        assert_eq!(a.consequence(), &Consequence::PlayOn);
        assert!(
            a.explanation().contains("both sides check perpetually"),
            "{}",
            a.explanation()
        );
        let a = call(&g, caller, Call::Draw);
        assert_eq!(a.verdict(), Verdict::Right);
        assert_eq!(a.consequence(), &Consequence::DrawIfRepeated);
    }
    let done = game(MUTUAL_FEN, MUTUAL, 8, 2);
    let a = call(&done, Color::Red, Call::Forbidden);
    assert_eq!(a.verdict(), Verdict::BothViolate(Level::Check));
    assert_eq!(a.consequence(), &Consequence::GameOver(GameResult::Drawn));
    assert!(
        a.explanation()
            .ends_with("Both sides check perpetually: draw.")
    );
    // Nothing to call once the ruling stands.
    assert_eq!(favourable_call(&done, Color::Red, true), None);
}

#[test]
fn a_call_after_checkmate() {
    // Red's second rook mates on the back rank (the rook on a8 guards the king's rank 8).
    let g = game("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", "b0b9", 1, 2);
    let a = call(&g, Color::Red, Call::Forbidden);
    assert!(
        matches!(a.verdict(), Verdict::GameEnded(_)),
        "{:?}",
        a.verdict()
    );
    assert_eq!(
        a.consequence(),
        &Consequence::GameOver(GameResult::Won { winner: Color::Red })
    );
}
