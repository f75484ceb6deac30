//! Euwe's sequence: the former German rule never fires; FIDE's claim and
//! fivefold ending arrive within a few moves.

use threefold::rules::analysis::report_current;
use threefold::rules::euwe::{self, EuweIndex, Successions, thue_morse};
use threefold::rules::{EndingKind, Game};

#[test]
fn thue_morse_prefix() {
    let bits: Vec<u8> = (0..16).map(thue_morse).collect();
    assert_eq!(bits, [0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0]);
    assert_eq!(EuweIndex::of_ply(1).uci(), "b1c3");
    assert_eq!(EuweIndex::of_ply(5).uci(), "g1f3");
    assert_eq!(EuweIndex::of_ply(13).uci(), "b1c3");
}

#[test]
fn german_rule_never_fires_in_the_first_100000_plies() {
    let game = euwe::euwe_game(100_000);
    assert_eq!(game.len(), 100_000);
    let s = Successions::of(&game);
    assert_eq!(s.german_rule(game.len()), None);
    // The nearest it comes: a sequence played twice, never a move more.
    let c = s
        .closest_to_german_rule(game.len())
        .expect("squares abound");
    assert_eq!((c.len, c.played, c.missing()), (4, 8, 4));
}

#[test]
fn german_rule_does_fire_on_a_plain_cube() {
    let mut g = Game::new();
    for _ in 0..3 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            g.play_past_end(g.parse_uci(m).unwrap()).unwrap();
        }
    }
    let s = Successions::of(&g);
    let cube = s.german_rule(12).expect("the same four moves three times");
    assert_eq!((cube.start, cube.len), (0, 4));
    assert_eq!(cube.moves(&g), ["g1f3", "g8f6", "f3g1", "f6g8"]);
    assert_eq!(s.german_rule(11), None);
}

#[test]
fn fide_claim_and_fivefold_arrive_early() {
    let mut game = Game::new();
    let mut first_claim_with = None;
    let mut first_claim_now = None;
    let mut fivefold = None;
    for ply in 1..=40 {
        let r = report_current(&game);
        if first_claim_with.is_none() && !r.claim_threefold_moves.is_empty() {
            first_claim_with = Some(game.len());
        }
        game.play_past_end(euwe::euwe_move(ply)).unwrap();
        let r = report_current(&game);
        if first_claim_now.is_none() && r.claim_threefold {
            first_claim_now = Some(ply);
        }
        if fivefold.is_none() && r.outcome == Some(EndingKind::FivefoldRepetition) {
            fivefold = Some(ply);
        }
    }
    // Blocks t(0..4) = 0 1 1 0 each return to the start position: it stands at
    // plies 0, 4, 8, 12, 16. Black may claim with 4...Ng8 (at ply 7), the
    // claim "now" is there at ply 8, and the fifth appearance at ply 16 ends it.
    assert_eq!(first_claim_with, Some(7));
    assert_eq!(first_claim_now, Some(8));
    assert_eq!(fivefold, Some(16));
    let t = game.termination().expect("fivefold recorded");
    assert_eq!((t.ending.kind, t.ply), (EndingKind::FivefoldRepetition, 16));
}
