//! Who plays, for both games: the config's [`Players`] read over either game's sides, its
//! words ("You (Red) vs engine"), and the players menu (its keys, its popup, its clicks), so
//! that chess and xiangqi choose their players by one code path.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Widget};

use crate::tui::clock::Side;
use crate::tui::config::Players;
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::theme::Theme;
use crate::tui::widgets::popup;

/// A side of a game with its name: what the players menu and the title say.
pub trait Named: Side {
    /// The side that moves first, as the config's `white` reads in this game.
    const FIRST: Self;
    /// The sides' names, the first to move first ("White", "Black"; "Red", "Black").
    const NAMES: [&'static str; 2];
}

impl Named for shakmaty::Color {
    const FIRST: Self = shakmaty::Color::White;
    const NAMES: [&'static str; 2] = ["White", "Black"];
}

impl Named for crate::xiangqi::Color {
    const FIRST: Self = crate::xiangqi::Color::Red;
    const NAMES: [&'static str; 2] = ["Red", "Black"];
}

/// The side a human plays against the engine, if one does.
pub fn human_side<S: Named>(players: Players) -> Option<S> {
    match players {
        Players::HumanWhite => Some(S::FIRST),
        Players::HumanBlack => Some(S::FIRST.other()),
        Players::TwoHumans | Players::Engines => None,
    }
}

/// The players in words, with this game's side names: "You (Red) vs engine".
pub fn describe<S: Named>(players: Players) -> String {
    match players {
        Players::HumanWhite => format!("You ({}) vs engine", S::NAMES[0]),
        Players::HumanBlack => format!("Engine vs you ({})", S::NAMES[1]),
        Players::TwoHumans => "Two humans".to_string(),
        Players::Engines => "Engine vs engine".to_string(),
    }
}

/// "L3", "L3 sparring": the engine's level in a game screen's header, and whether it spars
/// (said only when the engine plays a side).
pub fn level_words(players: Players, level: u8, sparring: bool) -> String {
    if sparring && players != Players::TwoHumans {
        format!("L{level} sparring")
    } else {
        format!("L{level}")
    }
}

/// Whether the board is turned for these players: the human's side at the bottom (None: as
/// it is, two humans or two engines).
pub fn flipped(players: Players) -> Option<bool> {
    match players {
        Players::HumanWhite => Some(false),
        Players::HumanBlack => Some(true),
        Players::TwoHumans | Players::Engines => None,
    }
}

/// What is said when the players are chosen from the menu: `was` the players and the
/// sparring setting when it opened, `now` those chosen (sparring may be turned over in the
/// menu); what changed is said, "(unchanged)" only when nothing did.
pub fn chosen<S: Named>(was: (Players, bool), now: (Players, bool)) -> String {
    let who = describe::<S>(now.0);
    let sparring = crate::tui::config::sparring_label(now.1);
    if was == now {
        format!("Players: {who} (unchanged)")
    } else if was.1 == now.1 {
        format!("Players: {who}")
    } else {
        format!("Players: {who}; {sparring}")
    }
}

/// What a command does in the players menu (the key table's `PlayersMenu` context).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuStep {
    /// Highlight this row.
    Row(usize),
    /// These players are chosen: the menu closes.
    Choose(Players),
    /// The menu closes, nothing chosen.
    Close,
    /// Sparring is turned on or off (the menu stays open).
    ToggleSparring,
}

/// The menu's answer to `cmd` with row `row` highlighted (None: not the menu's command).
pub fn menu_step(row: usize, cmd: Cmd) -> Option<MenuStep> {
    let n = Players::ALL.len();
    match cmd {
        Cmd::Up => Some(MenuStep::Row((row + n - 1) % n)),
        Cmd::Down => Some(MenuStep::Row((row + 1) % n)),
        Cmd::Select => Some(MenuStep::Choose(Players::ALL[row % n])),
        Cmd::ChoosePlayers(p) => Some(MenuStep::Choose(p)),
        Cmd::Close | Cmd::Back => Some(MenuStep::Close),
        Cmd::ToggleSparring => Some(MenuStep::ToggleSparring),
        _ => None,
    }
}

/// The menu's row for the players now.
pub fn menu_row(players: Players) -> usize {
    Players::ALL.iter().position(|&p| p == players).unwrap_or(0)
}

/// The players menu's layout: the popup and one row per choice, in the order of
/// [`Players::ALL`].
pub fn layout(size: Rect) -> (Rect, Vec<(Rect, Cmd)>) {
    let p = popup(size, 62, Players::ALL.len() as u16 + 5);
    let rows = Players::ALL
        .iter()
        .enumerate()
        .map(|(i, &pl)| {
            let r = Rect::new(p.x + 2, p.y + 2 + i as u16, p.width.saturating_sub(4), 1);
            (r, Cmd::ChoosePlayers(pl))
        })
        .collect();
    (p, rows)
}

/// A click on the menu: the row's choice, a close when outside the popup (None: inside, on
/// no row).
pub fn click(size: Rect, x: u16, y: u16) -> Option<MenuStep> {
    let (p, rows) = layout(size);
    if let Some((_, Cmd::ChoosePlayers(pl))) = rows.iter().find(|(r, _)| r.contains((x, y).into()))
    {
        return Some(MenuStep::Choose(*pl));
    }
    (!p.contains((x, y).into())).then_some(MenuStep::Close)
}

/// Draw the players menu: `now` marked, row `selected` highlighted, whether the engine
/// spars on its first line.
pub fn render<S: Named>(
    now: Players,
    sparring: bool,
    selected: usize,
    t: &Theme,
    size: Rect,
    buf: &mut Buffer,
) {
    let (p, rows) = layout(size);
    crate::tui::widgets::clear_popup(p, buf);
    Block::bordered().title(" Who plays? ").render(p, buf);
    let text_w = p.width.saturating_sub(4) as usize;
    buf.set_stringn(
        p.x + 2,
        p.y + 1,
        format!(
            "The game goes on from this position; {}: {}.",
            keys::key_in(Ctx::PlayersMenu, Cmd::ToggleSparring),
            crate::tui::config::sparring_label(sparring)
        ),
        text_w,
        t.dim,
    );
    for (i, (r, cmd)) in rows.into_iter().enumerate() {
        let Cmd::ChoosePlayers(pl) = cmd else {
            continue;
        };
        let mark_now = if pl == now { "  (now)" } else { "" };
        let mark = if i == selected { ">" } else { " " };
        let label = format!(
            "{mark} [{}] {}{mark_now}",
            keys::key_in(Ctx::PlayersMenu, cmd),
            describe::<S>(pl)
        );
        let style = if i == selected {
            t.button
        } else {
            Style::new()
        };
        buf.set_stringn(
            r.x,
            r.y,
            format!("{label:<w$}", w = r.width as usize),
            r.width as usize,
            style,
        );
    }
    let foot = keys::hint_line_for(Ctx::PlayersMenu, Some(S::NAMES));
    buf.set_stringn(p.x + 2, p.bottom().saturating_sub(2), foot, text_w, t.dim);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One reading of the config's players for both games: `white` is the side that moves
    /// first (Red in xiangqi).
    #[test]
    fn the_first_side_is_the_configs_white_in_both_games() {
        use crate::xiangqi::Color as Xq;
        use shakmaty::Color as Ch;
        assert!(Players::HumanWhite.is_human(Xq::Red));
        assert!(!Players::HumanWhite.is_human(Xq::Black));
        assert!(Players::HumanBlack.is_human(Ch::Black));
        assert!(!Players::HumanBlack.is_human(Ch::White));
        assert_eq!(describe::<Xq>(Players::HumanWhite), "You (Red) vs engine");
        assert_eq!(describe::<Ch>(Players::HumanWhite), "You (White) vs engine");
        assert_eq!(human_side::<Xq>(Players::HumanBlack), Some(Xq::Black));
    }

    #[test]
    fn the_menu_wraps_round_and_chooses_the_row() {
        assert_eq!(menu_step(0, Cmd::Up), Some(MenuStep::Row(3)));
        assert_eq!(menu_step(3, Cmd::Down), Some(MenuStep::Row(0)));
        assert_eq!(
            menu_step(1, Cmd::Select),
            Some(MenuStep::Choose(Players::HumanBlack))
        );
    }
}
