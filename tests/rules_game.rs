//! The rules core on hand-made cases: FIDE 9.2.3 identity, repetition counts,
//! undo, claims (9.2, 9.3, 9.5) and automatic endings (9.6).

use shakmaty::Position;
use threefold::rules::claim::{self, Claim, Clocks, Ground, judge, sorted_uci};
use threefold::rules::{EndingKind, Game, PlayError};

fn play(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn game_from(fen: &str, moves: &str) -> Game {
    let mut g = Game::from_fen(fen).expect("valid FEN");
    play(&mut g, moves);
    g
}

const KNIGHTS: &str = "g1f3 g8f6 f3g1 f6g8";

#[test]
fn knight_shuffle_counts_and_earlier_plies() {
    let mut g = Game::new();
    play(&mut g, &format!("{KNIGHTS} {KNIGHTS}"));
    assert_eq!(g.len(), 8);
    assert_eq!(g.occurrences(0), 1);
    assert_eq!(g.occurrences(4), 2);
    assert_eq!(g.occurrences(8), 3);
    assert_eq!(g.earlier(8), vec![0, 4]);
    assert_eq!(g.earlier(5), vec![1]);
    assert_eq!(g.same_as(0), vec![0, 4, 8]);
    assert!(claim::threefold_now(&g));
    assert_eq!(g.ply_label(8), "4...Ng8");
    assert_eq!(g.ply_label(7), "4.Ng1");
}

#[test]
fn undo_restores_counts_across_irreversible_moves() {
    let mut g = Game::new();
    play(&mut g, &format!("{KNIGHTS} e2e4 e7e5 {KNIGHTS}"));
    let before: Vec<u32> = (0..=g.len()).map(|p| g.occurrences(p)).collect();
    play(&mut g, KNIGHTS);
    assert_eq!(g.occurrences(g.len()), 3);
    for _ in 0..4 {
        g.undo();
    }
    // Back through the pawn moves: the stretch before them must be whole again.
    for _ in 0..6 {
        g.undo();
    }
    assert_eq!(g.len(), 4);
    play(&mut g, KNIGHTS);
    assert_eq!(
        g.occurrences(8),
        3,
        "the map of the first stretch was rebuilt"
    );
    assert_eq!(g.earlier(8), vec![0, 4]);
    let mut h = Game::new();
    play(&mut h, &format!("{KNIGHTS} e2e4 e7e5 {KNIGHTS}"));
    let again: Vec<u32> = (0..=h.len()).map(|p| h.occurrences(p)).collect();
    assert_eq!(before, again);
    assert!(g.undo().is_some());
    let mut empty = Game::new();
    assert_eq!(empty.undo(), None);
}

#[test]
fn positions_after_an_irreversible_move_start_a_new_count() {
    let mut g = Game::new();
    play(&mut g, &format!("{KNIGHTS} e2e4 e7e5 {KNIGHTS} {KNIGHTS}"));
    // The start position never recurs after e4; the position after e5 does.
    assert_eq!(g.occurrences(g.len()), 3);
    assert_eq!(g.earlier(g.len()), vec![6, 10]);
}

#[test]
fn castling_rights_lost_make_a_different_position() {
    // King goes e1-f1-e1: same placement, White has lost its castling rights.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let g = game_from(fen, "e1f1 e8f8 f1e1 f8e8 e1f1 e8f8 f1e1 f8e8");
    assert_eq!(g.occurrences(0), 1);
    assert_eq!(g.occurrences(4), 1, "rights lost: not the start position");
    assert_eq!(g.occurrences(8), 2);
    assert_eq!(g.earlier(8), vec![4]);
    // The start position (with rights) never returns.
    assert!(g.same_as(0) == vec![0]);
}

#[test]
fn castling_temporarily_impossible_is_the_same_position() {
    // Bishop on f1 blocks castling; it leaves and comes back. Rights unchanged.
    let fen = "r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1";
    let g = game_from(fen, "f1d3 a8b8 d3f1 b8a8");
    // Black's rook move a8-b8 loses queen-side castling for Black: not the same.
    assert_eq!(g.occurrences(4), 1);
    let g = game_from(fen, "f1d3 e8d8 d3f1 d8e8");
    assert_eq!(
        g.occurrences(4),
        1,
        "black king moved: black lost its rights"
    );
    // White's bishop goes and comes back while Black shuffles a knight: same.
    let fen3 = "r3k1nr/8/8/8/8/8/8/R3KB1R w KQkq - 0 1";
    let g = game_from(fen3, "f1d3 g8f6 d3f1 f6g8");
    assert_eq!(g.occurrences(4), 2);
    assert_eq!(g.earlier(4), vec![0]);
}

#[test]
fn en_passant_legal_makes_a_different_position() {
    // After d7-d5 the pawn on e5 can capture en passant: that position is new.
    let fen = "4k3/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1";
    let g = game_from(fen, "d7d5 g1f3 e8d7 f3g1 d7e8");
    // Ply 1 (after d5, ep legal) vs ply 5 (same placement, White to move, no ep).
    assert_ne!(g.record(1).key, g.record(5).key);
    assert_eq!(g.occurrences(5), 1);
    assert!(g.fen_at(1).contains(" d6 "));
}

#[test]
fn en_passant_pseudo_legal_only_is_the_same_position() {
    // King h5, pawn e5, black rook a5: after d7-d5, exd6 e.p. would empty both
    // d5 and e5 and expose the king to the rook along the fifth rank.
    let fen = "4k3/3p4/8/r3P2K/8/8/8/6N1 b - - 0 1";
    let g = game_from(fen, "d7d5 g1f3 e8d7 f3g1 d7e8 g1f3 e8d7 f3g1 d7e8");
    assert!(!g.fen_at(1).contains(" d6 "), "ep square only when legal");
    assert_eq!(
        g.record(1).key,
        g.record(5).key,
        "same position as without ep"
    );
    assert_eq!(g.occurrences(5), 2);
    assert_eq!(g.occurrences(9), 3);
    assert_eq!(g.earlier(9), vec![1, 5]);
}

#[test]
fn claim_now_correct_ends_the_game_with_explanation() {
    let mut g = Game::new();
    play(&mut g, &format!("{KNIGHTS} {KNIGHTS}"));
    let v = judge(&mut g, Claim::Now, Clocks::On).unwrap();
    assert!(v.correct());
    assert_eq!(v.ground, Some(Ground::Threefold));
    assert_eq!(v.plies, vec![0, 4, 8]);
    assert!(
        v.explanation().contains("the start position"),
        "{}",
        v.explanation()
    );
    assert!(v.explanation().contains("2...Ng8"), "{}", v.explanation());
    assert!(v.explanation().contains("9.2"), "{}", v.explanation());
    assert_eq!(
        g.termination().unwrap().ending.kind,
        EndingKind::ThreefoldClaim
    );
    assert!(matches!(
        g.play_uci("g1f3"),
        Err(PlayError::GameOver { .. })
    ));
}

#[test]
fn claim_now_incorrect_changes_nothing_and_explains() {
    let mut g = Game::new();
    play(&mut g, &format!("{KNIGHTS} g1f3 g8f6"));
    let len = g.len();
    let v = judge(&mut g, Claim::Now, Clocks::On).unwrap();
    assert!(!v.correct());
    assert_eq!(g.len(), len);
    assert!(!g.is_over());
    assert!(
        v.explanation().contains(
            "The position after 3...Nf6 stands for the second time (before: after 1...Nf6)."
        ),
        "{}",
        v.explanation()
    );
}

#[test]
fn claim_with_intended_move_about_to_appear() {
    let mut g = Game::new();
    play(&mut g, &format!("{KNIGHTS} g1f3 g8f6 f3g1"));
    assert!(!claim::threefold_now(&g));
    let moves = claim::threefold_moves(&g);
    assert_eq!(sorted_uci(&moves), vec!["f6g8"]);
    let m = g.parse_uci("f6g8").unwrap();
    let v = judge(&mut g, Claim::WithMove(m), Clocks::On).unwrap();
    assert!(v.correct(), "{}", v.explanation());
    assert_eq!(v.played, Some(m));
    assert_eq!(v.plies, vec![0, 4, 8]);
    assert_eq!(g.len(), 8);
    assert!(g.is_over());
}

#[test]
fn incorrect_claim_with_move_still_plays_it() {
    let mut g = Game::new();
    play(&mut g, KNIGHTS);
    let m = g.parse_uci("b1c3").unwrap();
    let v = judge(&mut g, Claim::WithMove(m), Clocks::On).unwrap();
    assert!(!v.correct());
    assert_eq!(g.len(), 5, "FIDE 9.5: the intended move is played");
    assert!(!g.is_over());
    assert!(v.explanation().contains("9.5"));
    // An illegal intended move is refused and nothing changes.
    let bad = shakmaty::Move::Normal {
        role: shakmaty::Role::Knight,
        from: shakmaty::Square::B8,
        capture: None,
        to: shakmaty::Square::B6,
        promotion: None,
    };
    assert!(matches!(
        judge(&mut g, Claim::WithMove(bad), Clocks::On),
        Err(PlayError::Illegal { .. })
    ));
    assert_eq!(g.len(), 5);
}

#[test]
fn fifty_move_claims() {
    let fen = "4k3/8/8/8/8/8/4P3/R3K3 w Q - 99 80";
    let g = Game::from_fen(fen).unwrap();
    assert!(!claim::fifty_now(&g));
    let moves = sorted_uci(&claim::fifty_moves(&g));
    assert!(
        moves.contains(&"e1c1".to_string()),
        "castling qualifies: {moves:?}"
    );
    assert!(
        !moves.iter().any(|m| m.starts_with("e2")),
        "pawn moves do not: {moves:?}"
    );
    let mut g2 = g.clone();
    let m = g2.parse_uci("a1a7").unwrap();
    let v = judge(&mut g2, Claim::WithMove(m), Clocks::On).unwrap();
    assert!(v.correct());
    assert_eq!(v.ground, Some(Ground::FiftyMoves));
    let mut g3 = g.clone();
    let m = g3.parse_uci("e2e4").unwrap();
    let v = judge(&mut g3, Claim::WithMove(m), Clocks::On).unwrap();
    assert!(!v.correct());
    assert_eq!(g3.position().halfmoves(), 0);
    let mut g4 = game_from(fen, "a1a2");
    assert!(claim::fifty_now(&g4));
    let v = judge(&mut g4, Claim::Now, Clocks::On).unwrap();
    assert!(v.correct() && v.ground == Some(Ground::FiftyMoves));
    assert!(
        v.explanation().contains("The 50-move count is 100/100."),
        "{}",
        v.explanation()
    );
    let g5 = Game::from_fen("4k3/8/8/8/8/8/4P3/R3K3 w Q - 98 80").unwrap();
    assert!(claim::fifty_moves(&g5).is_empty());
}

#[test]
fn fivefold_ends_the_game_and_refuses_moves() {
    let mut g = Game::new();
    play(&mut g, &format!("{KNIGHTS} {KNIGHTS} {KNIGHTS} {KNIGHTS}"));
    let t = g.termination().expect("fivefold ends the game");
    assert_eq!(t.ending.kind, EndingKind::FivefoldRepetition);
    assert_eq!(t.ply, 16);
    assert_eq!(t.ending.plies, vec![0, 4, 8, 12, 16]);
    assert!(t.ending.explanation.contains("9.6.1"));
    let e = g.play_uci("g1f3").unwrap_err();
    assert!(matches!(e, PlayError::GameOver { .. }), "{e}");
    // Undo lifts the ending.
    g.undo();
    assert!(!g.is_over());
}

#[test]
fn seventy_five_moves_and_checkmate_precedence() {
    let g = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 149 120", "a1a2");
    let t = g.termination().expect("75 moves");
    assert_eq!(t.ending.kind, EndingKind::SeventyFiveMoves);
    assert!(t.ending.explanation.contains("9.6.2"));
    // The 150th half-move mates: checkmate takes precedence.
    let g = game_from("6k1/8/6K1/8/8/8/8/R7 w - - 149 120", "a1a8");
    assert_eq!(
        g.termination().unwrap().ending.kind,
        EndingKind::Checkmate {
            winner: shakmaty::Color::White
        }
    );
    assert_eq!(g.termination().unwrap().ending.result(), "1-0");
}

#[test]
fn stalemate_and_insufficient_material() {
    let g = Game::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(g.termination().unwrap().ending.kind, EndingKind::Stalemate);
    let g = game_from("4k3/8/8/8/8/8/3r4/4K1B1 w - - 0 1", "e1d2");
    assert_eq!(
        g.termination().unwrap().ending.kind,
        EndingKind::InsufficientMaterial
    );
}

#[test]
fn bad_input_gives_typed_errors() {
    assert!(Game::from_fen("not a fen").is_err());
    assert!(Game::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    let mut g = Game::new();
    assert!(matches!(g.play_uci("e2e5"), Err(PlayError::Illegal { .. })));
    assert!(matches!(
        g.play_uci("zz"),
        Err(PlayError::Unreadable { .. })
    ));
    assert!(matches!(g.play_san("Qh5"), Err(PlayError::Illegal { .. })));
    let mut g = Game::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
    assert!(matches!(
        g.play_san("Nd2"),
        Err(PlayError::Ambiguous { .. })
    ));
    assert!(g.play_san("Nbd2").is_ok());
}

#[test]
fn flag_fall_loses_unless_the_opponent_cannot_mate() {
    use shakmaty::Color::{Black, White};
    use threefold::rules::ending::flag_fall;
    // FIDE 6.9: White's flag falls at the start; Black has mating material.
    let g = Game::new();
    let e = flag_fall(&g, White);
    assert_eq!(e.kind, EndingKind::LostOnTime { flagged: White });
    assert_eq!((e.winner(), e.result()), (Some(Black), "0-1"));
    assert_eq!(
        e.explanation,
        "White's flag fell: Black wins on time (FIDE 6.9)."
    );
    // Black's flag falls; White has only a king: no win on time, a draw.
    let g = Game::from_fen("4k3/8/8/8/8/8/8/QK6 w - - 0 1").unwrap();
    let e = flag_fall(&g, White);
    assert_eq!(e.kind, EndingKind::FlagFallDraw { flagged: White });
    assert_eq!((e.winner(), e.result()), (None, "1/2-1/2"));
    assert!(e.explanation.contains("Black cannot checkmate"), "{e:?}");
    // The other way round: Black's flag falls against the queen.
    let e = flag_fall(&g, Black);
    assert_eq!(e.kind, EndingKind::LostOnTime { flagged: Black });
    assert_eq!(e.result(), "1-0");
    // A king and a knight cannot mate a lone king; against a king and a pawn
    // they can (the pawn may block its own king): a win on time.
    let g = Game::from_fen("4k3/8/8/8/8/8/8/NK6 w - - 0 1").unwrap();
    assert_eq!(
        flag_fall(&g, Black).kind,
        EndingKind::FlagFallDraw { flagged: Black }
    );
    let g = Game::from_fen("4k3/4p3/8/8/8/8/8/NK6 w - - 0 1").unwrap();
    assert_eq!(
        flag_fall(&g, Black).kind,
        EndingKind::LostOnTime { flagged: Black }
    );
}

#[test]
fn incorrect_claim_adds_two_minutes_and_never_overflows() {
    use std::time::Duration;
    assert_eq!(
        claim::time_after_incorrect_claim(Duration::from_secs(61)),
        Duration::from_secs(181)
    );
    assert_eq!(
        claim::time_after_incorrect_claim(Duration::ZERO),
        claim::INCORRECT_CLAIM_BONUS
    );
    assert_eq!(
        claim::time_after_incorrect_claim(Duration::MAX),
        Duration::MAX
    );
}

#[test]
fn endings_carry_their_winner() {
    // Fool's mate: White is mated, Black wins.
    let g = game_from(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "f2f3 e7e5 g2g4 d8h4",
    );
    let t = g.termination().unwrap();
    assert_eq!(
        t.ending.kind,
        EndingKind::Checkmate {
            winner: shakmaty::Color::Black
        }
    );
    assert_eq!(t.ending.result(), "0-1");
    let g = Game::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(g.termination().unwrap().ending.winner(), None);
}
