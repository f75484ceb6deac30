//! The engine and the rules core key positions and count repetitions the same way.
//!
//! Random shuffling games (kings, rooks and knights going back and forth, castling rights
//! kept and lost, legal and pinned en passant, captures and promotions now and then) are
//! replayed through `rules::Game` and through the engine's game record
//! (`engine::search::keys::KeyHistory`, Zarkov's list of keys). At every ply the key of each
//! equals the position's full Zobrist hash, the occurrence count the engine's scan sees
//! equals the rules core's, and the scan calls a third occurrence a draw exactly when the
//! rules core counts three or more.

mod shuffle_starts;

use shakmaty::Position;
use shuffle_starts::{STARTS, start};
use threefold::engine::search::keys::{KeyHistory, Repetition};
use threefold::rules::Game;
use threefold::rules::key::position_key;
use threefold::rules::shuffle::{Rng, shuffling_game};

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
