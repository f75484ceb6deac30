//! Stepping through a game's history and taking moves back, for both games: the ply a
//! history key shows, how many plies a takeback undoes, and what it says.

use crate::tui::clock::Side;
use crate::tui::config::Players;
use crate::tui::keys::Cmd;

/// The ply viewed after a history command (`,` `.` `<` `>`), from the ply viewed `view`
/// (None: the live position) in a game of `len` plies; None for a command that is not one.
/// The result is the new view: None again is the live position.
pub fn step(cmd: Cmd, view: Option<usize>, len: usize) -> Option<Option<usize>> {
    let shown = view.unwrap_or(len).min(len);
    Some(match cmd {
        Cmd::HistBack => Some(shown.saturating_sub(1)),
        Cmd::HistForward => Some(shown + 1).filter(|&p| p < len),
        // The start of a game with no move is the live position.
        Cmd::HistStart => (len > 0).then_some(0),
        Cmd::HistEnd => None,
        _ => return None,
    })
}

/// Take moves back until a human is to move (one ply at least; engine against engine: one
/// ply). `undo` takes one ply back and gives the side to move then (None: nothing left to
/// take back). The number of plies taken back.
pub fn take_back<S: Side>(players: Players, mut undo: impl FnMut() -> Option<S>) -> usize {
    let mut n = 0;
    while let Some(side) = undo() {
        n += 1;
        if players.is_human(side) || players == Players::Engines {
            break;
        }
    }
    n
}

/// What a takeback of `n` plies says.
pub fn taken_back(n: usize) -> String {
    match n {
        0 => "Nothing to take back.".to_string(),
        1 => "Took back 1 ply.".to_string(),
        n => format!("Took back {n} plies."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::Color;

    #[test]
    fn history_keys_step_within_the_game() {
        assert_eq!(step(Cmd::HistBack, None, 4), Some(Some(3)));
        assert_eq!(step(Cmd::HistBack, Some(0), 4), Some(Some(0)));
        assert_eq!(step(Cmd::HistForward, Some(2), 4), Some(Some(3)));
        assert_eq!(step(Cmd::HistForward, Some(3), 4), Some(None));
        assert_eq!(step(Cmd::HistStart, None, 0), Some(None));
        assert_eq!(step(Cmd::HistStart, None, 4), Some(Some(0)));
        assert_eq!(step(Cmd::HistEnd, Some(1), 4), Some(None));
        assert_eq!(step(Cmd::Flip, Some(1), 4), None);
    }

    /// Against the engine a takeback returns to the human's move: the engine's reply goes
    /// with the human's move.
    #[test]
    fn a_takeback_returns_to_the_humans_move() {
        // The side to move after each ply taken back, last first.
        let mut sides = vec![Color::Red, Color::Red, Color::Black];
        let n = take_back(Players::HumanWhite, || sides.pop());
        assert_eq!(n, 2);
        let mut sides = vec![Color::Red, Color::Red, Color::Black];
        assert_eq!(take_back(Players::Engines, || sides.pop()), 1);
        assert_eq!(take_back(Players::TwoHumans, || None::<Color>), 0);
    }
}
