//! What the drill screens show of a position before the answer, written once for both
//! games: a FEN without its move counters ([`fen_without_counters`]: the halfmove clock
//! answers the fifty-move question, and two positions that differ only in their counters
//! read as different when the question is whether they are the same), and in place of the
//! clock the fact a player at the board knows ([`last_reset`]: the last capture or pawn
//! move, never the count it leads to).

use shakmaty::{Color, Position};
use threefold_rules::Game;

/// `fen` (chess's or xiangqi's, which write the same six fields) without its trailing
/// halfmove and fullmove counters: "8/8/4k3/8/8/3K4/5R2/8 w - -". Fields after the
/// second that are numbers are dropped; a FEN without counters is returned as it is.
pub fn fen_without_counters(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    while fields.len() > 2
        && fields
            .last()
            .is_some_and(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
    {
        fields.pop();
    }
    fields.join(" ")
}

/// The last capture or pawn move before the position at `ply` of `game`, as a player at the
/// board knows it from the scoresheet: "31...Rxd4" when it is among the game's moves, "30...
/// (before the moves shown)" from the start FEN's clock when it was played
/// before the moves shown, or that none has been made. Never the count of moves since,
/// which is the fifty-move question's answer.
pub fn last_reset(game: &Game, ply: usize) -> String {
    let ply = ply.min(game.len());
    if let Some(k) = (1..=ply)
        .rev()
        .find(|&k| game.position_at(k).halfmoves() == 0)
    {
        return format!("last capture or pawn move: {}", game.ply_label(k));
    }
    // Before the moves shown: the start FEN's clock says how many half-moves ago.
    let start = game.start();
    let clock = start.halfmoves() as u64;
    let fullmoves = u64::from(start.fullmoves().get());
    let played = (fullmoves - 1) * 2 + u64::from(start.turn() == Color::Black);
    match played.checked_sub(clock) {
        Some(0) if clock == 0 => "no capture or pawn move yet".to_string(),
        // A clock longer than the game (a FEN's counters disagree): the fact, without a move.
        Some(0) | None => "last capture or pawn move: before the moves shown".to_string(),
        Some(at) => {
            // `at` half-moves were played up to and including it: odd is White's move.
            let dots = if at % 2 == 1 { "." } else { "..." };
            format!(
                "last capture or pawn move: {}{dots} (before the moves shown)",
                at.div_ceil(2)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_go_from_both_games_fens() {
        assert_eq!(
            fen_without_counters("8/8/4k3/8/8/3K4/5R2/8 w - - 98 80"),
            "8/8/4k3/8/8/3K4/5R2/8 w - -"
        );
        assert_eq!(
            fen_without_counters(
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
            ),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -"
        );
        assert_eq!(
            fen_without_counters("8/8/8/8/8/8/8/8 w - -"),
            "8/8/8/8/8/8/8/8 w - -"
        );
    }

    #[test]
    fn the_last_capture_or_pawn_move_is_named_not_counted() {
        // 98 half-moves before White's 80th move: the last one was Black's 30th.
        let mut g = Game::from_fen("8/8/4k3/8/8/3K4/5R2/8 w - - 98 80").unwrap();
        g.play_san("Rf1").unwrap();
        assert_eq!(
            last_reset(&g, 1),
            "last capture or pawn move: 30... (before the moves shown)"
        );
        let mut g = Game::from_fen("8/8/4k3/8/3n4/3K4/5R2/8 w - - 97 80").unwrap();
        g.play_san("Kxd4").unwrap();
        g.play_san("Kd6").unwrap();
        assert_eq!(last_reset(&g, 2), "last capture or pawn move: 80.Kxd4");
        let g = Game::new();
        assert_eq!(last_reset(&g, 0), "no capture or pawn move yet");
    }
}
