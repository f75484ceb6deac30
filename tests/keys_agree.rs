//! The engine and the rules core key positions and count repetitions the same way.
//!
//! Random shuffling games (kings, rooks and knights going back and forth, castling rights
//! kept and lost, legal and pinned en passant, captures and promotions now and then) are
//! replayed through `rules::Game` and through the engine's game record
//! (`engine::history::KeyHistory`, Zarkov's list of keys). At every ply the key of each
//! equals the position's full Zobrist hash, the occurrence count the engine's scan sees
//! equals the rules core's, and the scan calls a third occurrence a draw exactly when the
//! rules core counts three or more.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use threefold::engine::history::{KeyHistory, Repetition};
use threefold::rules::Game;
use threefold::rules::key::position_key;
use threefold::rules::shuffle::{Rng, shuffling_game};

/// Start positions: castling rights to keep or lose, pawns to push (en passant), endgames,
/// and positions just after a double push whose en passant capture is legal or pinned.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppbqppp/2np1n2/4p3/4P3/2NP1N2/PPPBQPPP/R3K2R w KQkq - 2 8",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5",
    "r3k3/8/2n5/8/4B3/8/3N4/4K2R w Kq - 0 30",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/r7 w - - 40 60",
    "4k3/8/8/8/8/8/4P3/R3K2R w KQ - 90 80",
    // En passant pinned along a file, a diagonal and a rank (pseudo-legal only)...
    "1n2k3/8/8/8/3Pp3/8/8/1N2R1K1 b - d3 0 1",
    "kn6/8/8/8/3Pp3/8/5P2/1N4KB b - d3 0 1",
    "1n6/8/8/8/k2Pp2R/8/6K1/6N1 b - d3 0 1",
    // ... and legal.
    "1n2k3/8/8/8/3Pp3/8/8/RN4K1 b - d3 0 1",
    "1n2k3/8/8/8/2pPp3/8/8/1N2R1K1 b - d3 0 1",
    // Pawns facing each other on many files: double pushes next to enemy pawns.
    "r3k2r/8/8/8/1p1p1p1p/8/P1P1P1P1/R3K2R w KQkq - 0 1",
];

fn start(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn engine_and_rules_agree_on_keys_and_counts_at_every_ply() {
    let mut rng = Rng::new(0x5EED_0F7E_F01D);
    let (mut plies, mut repeated, mut thirds, mut pinned_repeats) = (0, 0, 0, 0);
    let (mut ep_legal, mut ep_pinned) = (0, 0);
    for round in 0..40 {
        for (i, fen) in STARTS.iter().enumerate() {
            let start = start(fen);
            let moves = shuffling_game(&start, &mut rng, 150 + 10 * (round % 8));
            let mut game = Game::from_position(start.clone());
            for &m in &moves {
                game.play(m).unwrap();
            }
            let mut history = KeyHistory::new();
            let end = history.record_game(&start, &moves);
            assert_eq!(end, *game.position());
            assert_eq!(history.len(), game.len() + 1);
            // Walk back from the end: the history's last entry is the position at `ply`.
            for ply in (0..=game.len()).rev() {
                let what = || {
                    format!(
                        "{fen} round {round} ply {ply}: {:?}",
                        &game.uci_moves()[..ply]
                    )
                };
                let full = position_key(game.position_at(ply));
                assert_eq!(game.record(ply).key, full, "rules key, {}", what());
                assert_eq!(history.last_key(), Some(full), "engine key, {}", what());
                let n = game.occurrences(ply);
                assert_eq!(history.occurrences(), n, "occurrences, {}", what());
                // The root is the game's last position: before it only a third occurrence
                // is a draw, as the arbiter has it.
                assert_eq!(
                    history.repetition() == Repetition::Draw,
                    n >= 3,
                    "draw by the scan, {}",
                    what()
                );
                plies += 1;
                repeated += usize::from(n >= 2);
                thirds += usize::from(n >= 3);
                pinned_repeats += usize::from(n >= 2 && ply == 4 && (6..=8).contains(&i));
                let pos = game.position_at(ply);
                ep_legal += usize::from(pos.legal_ep_square().is_some());
                ep_pinned += usize::from(
                    pos.pseudo_legal_ep_square().is_some() && pos.legal_ep_square().is_none(),
                );
                history.pop();
            }
        }
    }
    // The games must exercise what they are meant to.
    assert!(plies > 50_000, "{plies} plies");
    assert!(repeated > plies / 10, "{repeated} repeated of {plies}");
    assert!(thirds > 1_000, "{thirds} third occurrences");
    assert!(
        ep_legal > 100 && ep_pinned > 100,
        "{ep_legal} legal, {ep_pinned} pinned en passant"
    );
    assert!(pinned_repeats > 0, "no pinned en passant start repeated");
    eprintln!(
        "{plies} plies, {repeated} repeated positions, {thirds} third or later occurrences, \
         {ep_legal} positions with a legal en passant, {ep_pinned} with a pinned one, \
         {pinned_repeats} pinned-en-passant starts repeated at ply 4"
    );
}
