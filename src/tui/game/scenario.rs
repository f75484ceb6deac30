//! Playing a scenario (issue 39 item 2), written once for both games: the list the drill
//! screens open (`S`), which names each scenario by its players and year only (nothing
//! that tells the motif, the theme or when the repetition comes), and the scenario being
//! played on a game screen ([`Run`]): the player's side, the sparring engine, and the real
//! game's story told once the game ends or is left. A leaf: it imports neither game's
//! screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Clear, Widget};

use crate::drills::GameKind;
use crate::drills::scenario::Scenario;
use crate::tui::config::Players;
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::screen::{Request, Requests};
use crate::tui::theme::Theme;
use crate::tui::widgets::popup;

pub use crate::tui::screen::Chosen;

/// The list of one game's scenarios, a row highlighted.
#[derive(Clone, Debug)]
pub struct List {
    pub scenarios: Vec<Scenario>,
    pub row: usize,
}

/// What the list shows of a scenario: its players and year, nothing more.
pub fn label(s: &Scenario) -> String {
    format!("{} - {}, {}", s.first, s.black, s.year())
}

impl List {
    /// The scenarios of `game` among `all`, in file order.
    pub fn of(game: GameKind, all: &[Scenario]) -> List {
        List {
            scenarios: all
                .iter()
                .filter(|s| s.game_kind == game)
                .cloned()
                .collect(),
            row: 0,
        }
    }

    /// A command of the list's context: moving, choosing (a [`Request::PlayScenario`]),
    /// closing. `false`: the list is to close.
    pub fn command(&mut self, cmd: Cmd, out: &mut Requests) -> bool {
        let last = self.scenarios.len().saturating_sub(1);
        match cmd {
            Cmd::ScrollUp => self.row = self.row.saturating_sub(1),
            Cmd::ScrollDown => self.row = (self.row + 1).min(last),
            Cmd::PageUp => self.row = self.row.saturating_sub(10),
            Cmd::PageDown => self.row = (self.row + 10).min(last),
            Cmd::ScrollTop => self.row = 0,
            Cmd::ScrollBottom => self.row = last,
            Cmd::Submit => {
                if let Some(s) = self.scenarios.get(self.row) {
                    out.push(Request::PlayScenario(Chosen(Box::new(s.clone()))));
                }
                return false;
            }
            Cmd::Close => return false,
            _ => {}
        }
        true
    }

    /// Draw the list in a popup over the screen, the highlighted row in sight.
    pub fn render(&self, t: &Theme, size: Rect, buf: &mut Buffer) {
        let p = popup(size, 60, size.height.saturating_sub(2));
        Clear.render(p, buf);
        let title = format!(
            " Scenarios from real games: {} plays, {} cancels ",
            keys::key_in(Ctx::PickScenario, Cmd::Submit),
            keys::key_in(Ctx::PickScenario, Cmd::Close)
        );
        Block::bordered().title(title).render(p, buf);
        let inner = Rect::new(
            p.x + 1,
            p.y + 1,
            p.width.saturating_sub(2),
            p.height.saturating_sub(2),
        );
        if self.scenarios.is_empty() {
            buf.set_stringn(
                inner.x,
                inner.y,
                "No scenario.",
                inner.width as usize,
                t.dim,
            );
            return;
        }
        let rows = inner.height as usize;
        let top = self.row.saturating_sub(rows.saturating_sub(1));
        for (i, s) in self.scenarios.iter().enumerate().skip(top).take(rows) {
            let style = if i == self.row {
                Style::default().reversed()
            } else {
                Style::default()
            };
            let y = inner.y + (i - top) as u16;
            buf.set_stringn(
                inner.x,
                y,
                format!(" {}", label(s)),
                inner.width as usize,
                style,
            );
        }
    }
}

/// A scenario played on a game screen: what it is, and whether its story was told.
#[derive(Clone, Debug)]
pub struct Run {
    pub scenario: Box<Scenario>,
    told: bool,
    /// The game was replaced by another (new, FEN, file): the story is told next, and the
    /// engine no longer spars for it.
    left: bool,
}

impl Run {
    pub fn new(scenario: Box<Scenario>) -> Run {
        Run {
            scenario,
            told: false,
            left: false,
        }
    }

    /// The scenario's game is replaced by another.
    pub fn leave(&mut self) {
        self.left = true;
    }

    /// Whether the scenario's game was replaced by another.
    pub fn left(&self) -> bool {
        self.left
    }

    /// Who plays: the player on the scenario's side, the engine on the other.
    pub fn players(&self) -> Players {
        if self.scenario.player == "black" {
            Players::HumanBlack
        } else {
            Players::HumanWhite
        }
    }

    /// Said when the scenario starts: whose game, the side played, and that the engine
    /// spars. Nothing of what is to be noticed.
    pub fn opening(&self) -> String {
        let s = &self.scenario;
        format!(
            "{}: you play {} from move {} against the sparring engine. The real game is told when this one ends.",
            label(s),
            s.player,
            s.begin / 2 + 1
        )
    }

    /// The real game's story: once, when the game ends or is left.
    pub fn tell(&mut self, out: &mut Requests) {
        if self.told {
            return;
        }
        self.told = true;
        let s = &self.scenario;
        out.info(format!(
            "In the real game ({} - {}, {}, {}): {} Source: {}",
            s.first,
            s.black,
            s.event,
            s.year(),
            s.note,
            s.source
        ));
    }
}

/// The engine spars in a scenario, whatever the setting says (the setting is not changed).
pub fn sparring(setting: bool, run: Option<&Run>) -> bool {
    setting || run.is_some_and(|r| !r.left)
}

/// What a game screen does when its game is replaced: the scenario played, if one was, is
/// left (the App tells its story after what the screen says, [`Run::tell`]).
pub fn leave(run: &mut Option<Run>) {
    if let Some(r) = run {
        r.leave();
    }
}

/// The story of the scenario on a game screen, if it is to be told now (its game ended or
/// was left), once; a scenario left is dropped.
pub fn story(run: &mut Option<Run>, over: bool) -> Requests {
    let mut out = Requests::none();
    if let Some(r) = run
        && (over || r.left)
    {
        r.tell(&mut out);
        if r.left {
            *run = None;
        }
    }
    out
}

/// A drill screen's command, if the list takes it: any while the list is open, and the key
/// that opens it (`Cmd::Scenarios`, the theme list's) on `game`'s scenarios among `all`.
/// One code path for both drill screens.
pub fn route(
    list: &mut Option<List>,
    game: GameKind,
    all: &[Scenario],
    cmd: Cmd,
    out: &mut Requests,
) -> bool {
    match list {
        Some(l) => {
            if !l.command(cmd, out) {
                *list = None;
            }
            true
        }
        None if cmd == Cmd::Scenarios => {
            let l = List::of(game, all);
            if l.scenarios.is_empty() {
                out.error("There are no scenarios for this game.");
            } else {
                out.info(format!(
                    "Scenarios from real games: you take over from a player and play on against the sparring engine ({} plays, {} cancels).",
                    keys::key_in(Ctx::PickScenario, Cmd::Submit),
                    keys::key_in(Ctx::PickScenario, Cmd::Close)
                ));
                *list = Some(l);
            }
            true
        }
        None => false,
    }
}
