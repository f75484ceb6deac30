//! Saving the game as PGN and opening games from PGN files, in the trainer.
//!
//! - `s` asks for a file name, prefilled with a new `game-YYYYMMDD-HHMM.pgn` in the current
//!   directory (UTC); a file that exists is replaced only after "overwrite? y/n".
//! - `o` asks for a file; a file of several games opens a list to choose from
//!   ([`GamePick`]: keys from the table's `PickGame` context, clicks, the wheel).
//! - A game opened from a file keeps its tags ([`Loaded`]): its players and result are
//!   shown, and saved again as they were while its moves are unchanged.

use std::path::{Path, PathBuf};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};
use shakmaty::{Color, Move, Position};

use crate::rules::pgn::{self, GameSummary};

use super::{Overlay, Play, Question, Requests};
use crate::tui::game::files::{self, SaveTo};
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::prompt::expand_home;
use crate::tui::theme::Theme;
use crate::tui::widgets::{clip, popup};

/// The most games of one file listed to choose from.
pub const MAX_LISTED: usize = 10_000;

/// A game opened from a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub path: PathBuf,
    /// The game's number in the file (1-based).
    pub index: usize,
    /// The tag pairs as read, in file order.
    pub tags: Vec<(String, String)>,
    /// The result token of the movetext (or the `Result` tag).
    pub result: String,
    /// The main line as read.
    pub moves: Vec<Move>,
}

impl Loaded {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `game` is still the game as read (its result then still holds).
    pub fn holds(&self, game: &crate::rules::Game) -> bool {
        game.moves().eq(self.moves.iter().copied())
    }

    /// The player of a side, as the file names it ("?" if it does not).
    pub fn player(&self, c: Color) -> std::borrow::Cow<'_, str> {
        let tag = match c {
            Color::White => "White",
            Color::Black => "Black",
        };
        crate::visible::visible(self.tag(tag).unwrap_or("?"))
    }
}

/// The list of a file's games, one of them chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePick {
    pub path: PathBuf,
    pub games: Vec<GameSummary>,
    pub selected: usize,
    /// Why the list stops early (a game that cannot be read), if it does.
    pub problem: Option<String>,
}

/// The list's layout: the popup, and the rows of games inside it with their indexes into
/// `games` (one function for drawing and for clicks). The page shown is the one that holds
/// the chosen game.
pub fn pick_layout(pick: &GamePick, size: Rect) -> (Rect, Vec<(Rect, usize)>) {
    let extra = 4 + 2 * u16::from(pick.problem.is_some());
    let want = (pick.games.len() as u16).saturating_add(extra);
    let p = popup(
        size,
        76.min(size.width),
        want.min(size.height.saturating_sub(2)),
    );
    let page = p.height.saturating_sub(extra).max(1) as usize;
    let first = pick.selected / page * page;
    let rows = (first..pick.games.len().min(first + page))
        .enumerate()
        .map(|(i, g)| (Rect::new(p.x + 1, p.y + 1 + i as u16, p.width - 2, 1), g))
        .collect();
    (p, rows)
}

/// Rows shown at once.
fn page(pick: &GamePick, size: Rect) -> usize {
    let (p, _) = pick_layout(pick, size);
    let extra = 4 + 2 * u16::from(pick.problem.is_some());
    p.height.saturating_sub(extra).max(1) as usize
}

/// One game as a row: "  3. Carlsen – Nepomniachtchi, World Championship  1/2-1/2
/// 2021.12.03  82 plies" (the event, when the file names one, tells games of the same
/// players apart).
pub(crate) fn row_text(g: &GameSummary, width: usize) -> String {
    let plies = if g.plies == 1 { "ply  " } else { "plies" };
    let tail = format!("  {:>7}  {:<10}  {:>5} {plies}", g.result, g.date, g.plies);
    let mut head = format!("{:>4}. {} – {}", g.index, g.white, g.black);
    if !matches!(g.event.trim(), "" | "?") {
        head.push_str(&format!(", {}", g.event.trim()));
    }
    let room = width.saturating_sub(tail.chars().count() + 1);
    format!("{:<room$}{tail}", clip(&head, room, false))
}

pub fn render_pick(pick: &GamePick, t: &Theme, size: Rect, buf: &mut Buffer) {
    let (p, rows) = pick_layout(pick, size);
    crate::tui::widgets::clear_popup(p, buf);
    let title = format!(
        " {}: {} games ",
        pick.path.file_name().map_or_else(
            || pick.path.display().to_string(),
            |n| n.to_string_lossy().into_owned()
        ),
        pick.games.len()
    );
    let first = rows.first().map_or(0, |r| r.1);
    let last = rows.last().map_or(0, |r| r.1);
    Block::bordered()
        .title(title)
        .title_bottom(
            Line::from(format!(
                " {}–{} of {} ",
                first + 1,
                last + 1,
                pick.games.len()
            ))
            .right_aligned(),
        )
        .render(p, buf);
    for (r, i) in &rows {
        let style = if *i == pick.selected {
            t.viewing
        } else {
            ratatui::style::Style::new()
        };
        let mark = if *i == pick.selected { ">" } else { " " };
        let text = format!("{mark}{}", row_text(&pick.games[*i], r.width as usize - 1));
        buf.set_stringn(r.x, r.y, text, r.width as usize, style);
    }
    // The problem (two rows, wrapped: a path can be long), then the keys.
    let mut foot = vec![Line::from(Span::styled(
        keys::hint_line(Ctx::PickGame),
        t.dim,
    ))];
    if let Some(problem) = &pick.problem {
        foot.insert(0, Line::from(Span::styled(problem.clone(), t.error)));
    }
    let h = 1 + 2 * u16::from(pick.problem.is_some());
    Paragraph::new(foot).wrap(Wrap { trim: true }).render(
        Rect::new(
            p.x + 2,
            p.bottom().saturating_sub(1 + h),
            p.width.saturating_sub(4),
            h,
        ),
        buf,
    );
}

impl Play {
    /// `s`: ask for the file to save the game in.
    pub(crate) fn ask_save_name(&mut self, out: &mut Requests) {
        files::ask_save_name("game", out);
    }

    /// The file name typed for saving: written, or asked about if it exists.
    pub(crate) fn save_typed(&mut self, text: &str, out: &mut Requests) {
        match files::save_to(text) {
            SaveTo::Nothing => {}
            SaveTo::Ask(path) => self.overlay = Some(Overlay::Ask(Question::Overwrite(path))),
            SaveTo::Write(path) => self.save_pgn(&path, out),
        }
    }

    /// Write the game to `path` (atomically).
    pub(crate) fn save_pgn(&mut self, path: &Path, out: &mut Requests) {
        if let Some(saved) = files::write(path, self.pgn_text(), out) {
            self.saved_pgn = Some(saved);
        }
    }

    /// The tags the trainer writes: the file's own for a game opened from one (its result
    /// only while its moves are as read), else the players of this game and today's date.
    pub(crate) fn pgn_tags(&self) -> Vec<(String, String)> {
        if let Some(l) = &self.loaded {
            let unchanged = l.holds(&self.game);
            let mut tags = files::opened_tags(&l.tags, unchanged);
            if unchanged && l.tag("Result").is_none() {
                tags.push(("Result".to_string(), l.result.clone()));
            }
            return tags;
        }
        let c = &self.config;
        let name = |side| files::player_name(c.human.is_human(side), c.human, &c.name, c.level);
        let never = self.never_claims();
        files::game_tags(
            "threefold training game",
            [name(Color::White), name(Color::Black)],
            self.clock.as_ref().map(|c| (c.base, c.inc)),
            Color::ALL.map(|side| never.contains(&side)),
        )
    }

    /// Open a PGN file: its game, or the list of its games to choose from.
    pub fn load_pgn(&mut self, path: &Path, out: &mut Requests) {
        let path = expand_home(&path.display().to_string());
        let (games, problem) = pgn::list_games(&path, MAX_LISTED);
        match (games.len(), problem) {
            (0, Some(e)) => files::not_opened(e, &path, out),
            (0, None) => {
                files::not_opened(format!("{}: no game found", path.display()), &path, out)
            }
            (1, None) => self.load_game(&path, 1, false, out),
            (n, problem) => {
                let problem = problem
                    .map(|e| format!("{e} (the list stops before it)"))
                    .or_else(|| {
                        (n == MAX_LISTED)
                            .then(|| format!("only the first {MAX_LISTED} games are listed"))
                    });
                self.overlay = Some(Overlay::PickGame(Box::new(GamePick {
                    path,
                    games,
                    selected: 0,
                    problem,
                })));
            }
        }
    }

    /// Open game `index` of a file (`of_several`: a file of several games; two humans then,
    /// to browse it).
    pub fn load_game(&mut self, path: &Path, index: usize, of_several: bool, out: &mut Requests) {
        match pgn::read_game_file(path, index) {
            Ok((rec, g)) => {
                self.config.human = files::OPENED_PLAYERS;
                self.new_game(g, out);
                self.record = crate::rules::review::GameRecord::from_pgn(&rec);
                self.end_as_recorded(rec.tag("Termination"), out);
                let loaded = Loaded {
                    path: path.to_path_buf(),
                    index,
                    tags: rec
                        .tags
                        .iter()
                        .map(|t| (t.name.clone(), t.value.clone()))
                        .collect(),
                    result: rec
                        .result
                        .clone()
                        .or_else(|| rec.tag("Result").map(str::to_string))
                        .unwrap_or_else(|| "*".to_string()),
                    moves: self.game.moves().collect(),
                };
                let black_first = self.game.position_at(0).turn() == Color::Black;
                let opened = files::opened(
                    path,
                    of_several.then_some(index),
                    self.game.len(),
                    black_first,
                );
                let msg = format!(
                    "{opened}, {} – {}, {}. {}",
                    loaded.player(Color::White),
                    loaded.player(Color::Black),
                    loaded.result,
                    files::opened_players_note(),
                );
                self.loaded = Some(loaded);
                out.info(msg);
            }
            Err(e) => files::not_opened(e, path, out),
        }
    }

    /// A loaded game that the rules did not end but whose record does opens finished: a
    /// correct claim recorded at its last ply (`{[%claim …]}`) ends it as the claim did, else
    /// a result ("1-0", "0-1", "1/2-1/2") ends it as recorded (resignation, agreement, …,
    /// as `termination` says). Playing on is then an explicit choice (`P`, or take back).
    fn end_as_recorded(&mut self, termination: Option<&str>, out: &mut Requests) {
        use crate::rules::claim::{self, Claim};
        use crate::rules::pgn::ClaimMark;
        if self.game.is_over() {
            return;
        }
        let len = self.game.len();
        let clocks = self.record.clocks;
        if let Some(c) = self.record.claims.last().filter(|c| c.ply == len) {
            let mut g = self.game.clone();
            let claim = match c.mark {
                ClaimMark::Now => Some(Claim::Now),
                ClaimMark::WithMove => g.undo().map(Claim::WithMove),
            };
            if let Some(claim) = claim {
                let verdict = match c.ground {
                    Some(ground) => claim::judge_under(&mut g, claim, ground, clocks),
                    None => claim::judge(&mut g, claim, clocks),
                };
                if verdict.is_ok_and(|v| v.correct()) {
                    self.highlight = g
                        .termination()
                        .map(|t| t.ending.plies.clone())
                        .unwrap_or_default();
                    self.game = g;
                }
            }
        }
        if !self.game.is_over()
            && let Some(result) = self.record.result.clone()
        {
            let winner = match result.as_str() {
                "1-0" => Some(Color::White),
                "0-1" => Some(Color::Black),
                _ => None,
            };
            let kind = crate::rules::EndingKind::Recorded { winner };
            let how = termination
                .map(|t| format!(" (Termination \"{t}\")"))
                .unwrap_or_default();
            self.game.end_externally(crate::rules::Ending {
                kind,
                explanation: format!("The game ended {result}{how}: {kind}."),
                plies: Vec::new(),
            });
        }
        if self.game.is_over() {
            self.stop_engine(out);
            if let Some(c) = &mut self.clock {
                c.running = None;
            }
        }
    }

    /// A command of the game list.
    pub(crate) fn pick_command(
        &mut self,
        mut pick: Box<GamePick>,
        cmd: Cmd,
        size: Rect,
        out: &mut Requests,
    ) {
        let last = pick.games.len().saturating_sub(1);
        let page = page(&pick, size);
        pick.selected = match cmd {
            Cmd::ScrollUp => pick.selected.saturating_sub(1),
            Cmd::ScrollDown => (pick.selected + 1).min(last),
            Cmd::PageUp => pick.selected.saturating_sub(page),
            Cmd::PageDown => (pick.selected + page).min(last),
            Cmd::ScrollTop => 0,
            Cmd::ScrollBottom => last,
            _ => pick.selected,
        };
        match cmd {
            Cmd::Submit => {
                self.overlay = None;
                let index = pick.games[pick.selected].index;
                self.load_game(&pick.path, index, true, out);
            }
            Cmd::Close => self.overlay = None,
            _ => self.overlay = Some(Overlay::PickGame(pick)),
        }
    }

    /// A click on the game list: a row opens its game; outside the list, nothing.
    pub(crate) fn pick_click(
        &mut self,
        mut pick: Box<GamePick>,
        x: u16,
        y: u16,
        size: Rect,
        out: &mut Requests,
    ) {
        let (_, rows) = pick_layout(&pick, size);
        if let Some(&(_, i)) = rows.iter().find(|(r, _)| r.contains((x, y).into())) {
            pick.selected = i;
            self.pick_command(pick, Cmd::Submit, size, out);
        }
    }
}
