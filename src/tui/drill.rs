//! The drill screen's state: a theme list (plus "all"), then one puzzle at a
//! time with an answer widget suited to its question, then the ruling. The
//! judging, scoring and saving are the [`crate::drills`] library's.

use shakmaty::Move;

pub use crate::drills::Pick;
use crate::drills::{Answer, ClaimRule, EndingRule, Feedback, Puzzle, Question, Session};
use crate::rules::Game;

/// What the drill screen shows.
#[derive(Clone, Debug)]
pub enum View {
    Themes,
    Puzzle(Box<PuzzleState>),
}

/// The kind of answer widget a question gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widget {
    /// Buttons (claim rules, endings, yes/no).
    Choice,
    /// A set of moves, typed (or made on the board).
    Moves,
    /// Plies chosen in the move list; the count is their number.
    Plies,
}

/// One puzzle on screen.
#[derive(Clone, Debug)]
pub struct PuzzleState {
    pub pick: Pick,
    pub puzzle: Puzzle,
    pub prompt: String,
    /// The highlighted option (choice questions).
    pub option: usize,
    /// The moves given so far (claim-moves questions).
    pub moves: Vec<Move>,
    /// The plies chosen (count questions), ascending.
    pub chosen: Vec<usize>,
    /// The ply under the cursor in the move list; its board is shown.
    pub cursor: usize,
    /// A piece picked up on the board (claim-moves questions).
    pub selected: Option<shakmaty::Square>,
    /// The ruling, once answered, with the answer given in words.
    pub feedback: Option<(Feedback, String)>,
}

impl PuzzleState {
    pub fn new(pick: Pick, puzzle: Puzzle) -> PuzzleState {
        let prompt = puzzle.prompt();
        let cursor = puzzle.game().len();
        PuzzleState {
            pick,
            puzzle,
            prompt,
            option: 0,
            moves: Vec::new(),
            chosen: Vec::new(),
            cursor,
            selected: None,
            feedback: None,
        }
    }

    /// The puzzle's game.
    pub fn game(&self) -> &Game {
        self.puzzle.game()
    }

    pub fn widget(&self) -> Widget {
        match self.puzzle.question {
            Question::ClaimMoves => Widget::Moves,
            Question::Count { .. } => Widget::Plies,
            _ => Widget::Choice,
        }
    }

    /// The options of a choice question: (label, answer).
    pub fn options(&self) -> Vec<(&'static str, Answer)> {
        let claim = |r: ClaimRule, l| (l, Answer::Claim(r));
        let end = |r: EndingRule, l| (l, Answer::Ending(r));
        match self.puzzle.question {
            Question::Claim | Question::Intended { .. } => vec![
                claim(ClaimRule::None, "none"),
                claim(ClaimRule::Threefold, "threefold (9.2)"),
                claim(ClaimRule::Fifty, "fifty (9.3)"),
                claim(ClaimRule::Both, "both"),
            ],
            Question::Same { .. } => vec![
                ("yes, the same", Answer::Same(true)),
                ("no, different", Answer::Same(false)),
            ],
            Question::Ending => vec![
                end(EndingRule::NotOver, "not over"),
                end(EndingRule::Checkmate, "checkmate"),
                end(EndingRule::Stalemate, "stalemate"),
                end(EndingRule::Insufficient, "insufficient"),
                end(EndingRule::Fivefold, "fivefold (9.6.1)"),
                end(EndingRule::SeventyFive, "75 moves (9.6.2)"),
            ],
            _ => Vec::new(),
        }
    }

    /// The answer the widget holds now (moves or plies), for submitting.
    pub fn pending(&self) -> Option<Answer> {
        match self.widget() {
            Widget::Choice => self.options().get(self.option).map(|o| o.1.clone()),
            Widget::Moves => Some(Answer::moves(self.moves.clone())),
            Widget::Plies => Some(Answer::count(self.chosen.clone())),
        }
    }

    /// Choose or unchoose a ply (count questions).
    pub fn toggle(&mut self, ply: usize) {
        match self.chosen.binary_search(&ply) {
            Ok(i) => {
                self.chosen.remove(i);
            }
            Err(i) => self.chosen.insert(i, ply),
        }
    }

    /// Add a move to the set given (claim-moves questions); false if already there.
    pub fn add_move(&mut self, m: Move) -> bool {
        if self.moves.contains(&m) {
            return false;
        }
        self.moves.push(m);
        true
    }

    pub fn highlighted(&self) -> &[usize] {
        match &self.feedback {
            Some((f, _)) => &f.plies_to_highlight,
            None => &[],
        }
    }
}

/// The whole drill screen: the session (puzzles and progress) and the view.
#[derive(Debug)]
pub struct DrillState {
    pub session: Session,
    /// The row of the theme list: 0 = all, then the themes.
    pub row: usize,
    pub view: View,
}

impl DrillState {
    pub fn new(session: Session) -> DrillState {
        DrillState {
            session,
            row: 0,
            view: View::Themes,
        }
    }

    /// Rows of the theme list: "all" then each theme.
    pub fn rows(&self) -> usize {
        self.session.collection.themes.len() + 1
    }

    pub fn pick_at(&self, row: usize) -> Pick {
        match row {
            0 => Pick::All,
            r => Pick::Theme(self.session.collection.themes[r - 1].id.clone()),
        }
    }

    /// Show the next puzzle of `pick` (the session chooses it); false if
    /// there is none.
    pub fn open_next(&mut self, pick: Pick) -> bool {
        match self.session.next(&pick).cloned() {
            Some(p) => {
                self.view = View::Puzzle(Box::new(PuzzleState::new(pick, p)));
                true
            }
            None => false,
        }
    }

    /// Judge the answer to the puzzle shown (records and saves progress).
    pub fn answer(&mut self, answer: Answer) {
        let View::Puzzle(p) = &mut self.view else {
            return;
        };
        if p.feedback.is_some() {
            return;
        }
        if let Some(fb) = self.session.answer(&p.puzzle.id, &answer) {
            let given = answer.describe(p.game());
            p.feedback = Some((fb, given));
            p.selected = None;
        }
    }

    /// The score of a theme.
    pub fn score(&self, theme: &str) -> Score {
        let t = self.session.progress.theme(theme);
        let n = self
            .session
            .collection
            .theme(theme)
            .map_or(0, |t| t.puzzles.len());
        let solved = self.session.collection.theme(theme).map_or(0, |th| {
            th.puzzles
                .iter()
                .filter(|p| t.solved.contains(&p.id))
                .count()
        });
        Score {
            correct: t.correct,
            attempts: t.attempts,
            streak: t.streak,
            best_streak: t.best_streak,
            solved,
            puzzles: n,
        }
    }

    /// The totals over all themes (streak: the best current streak).
    pub fn total(&self) -> Score {
        let mut acc = Score::default();
        for t in &self.session.collection.themes {
            let s = self.score(&t.id);
            acc.correct = acc.correct.saturating_add(s.correct);
            acc.attempts = acc.attempts.saturating_add(s.attempts);
            acc.streak = acc.streak.max(s.streak);
            acc.best_streak = acc.best_streak.max(s.best_streak);
            acc.solved += s.solved;
            acc.puzzles += s.puzzles;
        }
        acc
    }
}

/// A theme's score as the drill screen shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Correct answers and attempts.
    pub correct: u32,
    pub attempts: u32,
    /// Correct answers in a row, now and at best.
    pub streak: u32,
    pub best_streak: u32,
    /// Puzzles solved at least once, of how many.
    pub solved: usize,
    pub puzzles: usize,
}

// ---------------------------------------------------------------------------
// Key and mouse handling of the drill screen (the App's side).

use super::app::{App, InputKind, Screen};
use super::keys::{self, Cmd, Ctx};
use super::play::king_target;
use super::render;

/// What a drill command leads to, once the screen state is no longer borrowed.
enum Outcome {
    Nothing,
    Info(String),
    Error(String),
    Answer(Answer),
    Type,
    Next(Pick),
}

impl App {
    /// Open the drill screen (loading the puzzles and progress the first time).
    pub fn open_drills(&mut self) {
        self.stop_engine();
        self.input = None;
        self.play.selected = None;
        self.overlay = None;
        let d = self
            .drills
            .take()
            .unwrap_or_else(|| Box::new(DrillState::new(Session::open())));
        self.drills = Some(d);
        self.screen = Screen::Drills;
        self.message = None;
        self.info(format!(
            "Pick a theme ({}/{} and {}, or click it).",
            keys::key_in(Ctx::DrillThemes, Cmd::DrillUp),
            keys::key_in(Ctx::DrillThemes, Cmd::DrillDown),
            keys::key_in(Ctx::DrillThemes, Cmd::DrillPick)
        ));
        self.show_drill_messages();
    }

    /// Show the session's messages (a corrupt progress file set aside, a failed save) once.
    fn show_drill_messages(&mut self) {
        let Some(d) = self
            .drills
            .as_deref_mut()
            .filter(|_| self.screen == Screen::Drills)
        else {
            return;
        };
        if !d.session.messages.is_empty() {
            let text = d.session.messages.drain(..).collect::<Vec<_>>().join(" · ");
            self.error(text);
        }
    }

    fn drill_next(&mut self, pick: Pick) {
        let Some(d) = self
            .drills
            .as_deref_mut()
            .filter(|_| self.screen == Screen::Drills)
        else {
            return;
        };
        if d.open_next(pick) {
            self.message = None;
        } else {
            self.error("There are no puzzles in this theme.");
        }
    }

    /// Answer with option `i` (0-based) of a choice question.
    pub fn drill_choose(&mut self, i: usize) {
        let out = match &self.drills {
            Some(d) if self.screen == Screen::Drills => match &d.view {
                View::Puzzle(p) if p.feedback.is_none() => {
                    let opts = p.options();
                    match opts.get(i) {
                        Some((_, a)) => Outcome::Answer(a.clone()),
                        None if opts.is_empty() => Outcome::Error(match p.widget() {
                            Widget::Moves => {
                                format!(
                                    "Give moves: {} to type them, or make them on the board.",
                                    keys::key_in(Ctx::DrillAnswer, Cmd::DrillType)
                                )
                            }
                            _ => format!(
                                "Choose plies in the move list: {}/{} and {}.",
                                keys::key_in(Ctx::DrillAnswer, Cmd::DrillUp),
                                keys::key_in(Ctx::DrillAnswer, Cmd::DrillDown),
                                keys::key_in(Ctx::DrillAnswer, Cmd::DrillToggle)
                            ),
                        }),
                        None => Outcome::Error(format!("Options are 1 to {}.", opts.len())),
                    }
                }
                _ => Outcome::Nothing,
            },
            _ => Outcome::Nothing,
        };
        self.drill_outcome(out);
    }

    /// Carry out a drill command from the key table.
    pub fn drill_command(&mut self, cmd: Cmd) {
        let Some(d) = self
            .drills
            .as_deref_mut()
            .filter(|_| self.screen == Screen::Drills)
        else {
            return;
        };
        let rows = d.rows();
        let out = match &mut d.view {
            View::Themes => match cmd {
                Cmd::DrillUp => {
                    d.row = (d.row + rows - 1) % rows;
                    Outcome::Nothing
                }
                Cmd::DrillDown => {
                    d.row = (d.row + 1) % rows;
                    Outcome::Nothing
                }
                Cmd::DrillPick => Outcome::Next(d.pick_at(d.row)),
                _ => Outcome::Nothing,
            },
            View::Puzzle(p) => {
                let answered = p.feedback.is_some();
                match cmd {
                    Cmd::DrillUp => {
                        p.cursor = p.cursor.saturating_sub(1);
                        Outcome::Nothing
                    }
                    Cmd::DrillDown => {
                        p.cursor = (p.cursor + 1).min(p.game().len());
                        Outcome::Nothing
                    }
                    Cmd::DrillNext | Cmd::DrillSkip => Outcome::Next(p.pick.clone()),
                    _ if answered => Outcome::Nothing,
                    Cmd::DrillPrevOption | Cmd::DrillNextOption => {
                        let n = p.options().len();
                        if n > 0 {
                            p.option = if cmd == Cmd::DrillNextOption {
                                (p.option + 1) % n
                            } else {
                                (p.option + n - 1) % n
                            };
                        }
                        Outcome::Nothing
                    }
                    Cmd::DrillToggle => match p.widget() {
                        Widget::Plies => {
                            p.toggle(p.cursor);
                            Outcome::Nothing
                        }
                        Widget::Choice => p
                            .options()
                            .get(p.option)
                            .map_or(Outcome::Nothing, |o| Outcome::Answer(o.1.clone())),
                        Widget::Moves => Outcome::Error(format!(
                            "Give moves: {} to type them, or make them on the board.",
                            keys::key_in(Ctx::DrillAnswer, Cmd::DrillType)
                        )),
                    },
                    Cmd::DrillSubmit => match p.widget() {
                        Widget::Plies if p.chosen.is_empty() => Outcome::Error(format!(
                            "Choose the positions first: {}/{} through the move list, {} on each place the position stands.",
                            keys::key_in(Ctx::DrillAnswer, Cmd::DrillUp),
                            keys::key_in(Ctx::DrillAnswer, Cmd::DrillDown),
                            keys::key_in(Ctx::DrillAnswer, Cmd::DrillToggle)
                        )),
                        _ => p.pending().map_or(Outcome::Nothing, Outcome::Answer),
                    },
                    Cmd::DrillYes | Cmd::DrillNo => {
                        if matches!(p.puzzle.question, Question::Same { .. }) {
                            Outcome::Answer(Answer::Same(cmd == Cmd::DrillYes))
                        } else {
                            Outcome::Error("This is not a yes/no question.".into())
                        }
                    }
                    Cmd::DrillType => Outcome::Type,
                    Cmd::DrillRemoveMove => match p.widget() {
                        Widget::Moves => {
                            p.moves.pop();
                            Outcome::Nothing
                        }
                        Widget::Plies => {
                            p.chosen.retain(|&c| c != p.cursor);
                            Outcome::Nothing
                        }
                        Widget::Choice => Outcome::Nothing,
                    },
                    _ => Outcome::Nothing,
                }
            }
        };
        self.drill_outcome(out);
    }

    fn drill_outcome(&mut self, out: Outcome) {
        match out {
            Outcome::Nothing => {}
            Outcome::Info(t) => self.info(t),
            Outcome::Error(t) => self.error(t),
            Outcome::Type => self.open_input(InputKind::DrillAnswer, ""),
            Outcome::Next(pick) => self.drill_next(pick),
            Outcome::Answer(a) => {
                if let Some(d) = &mut self.drills {
                    d.answer(a);
                }
                self.message = None;
                self.show_drill_messages();
            }
        }
    }

    /// A typed answer: words, places or moves, as the puzzle files write them.
    pub fn drill_typed(&mut self, text: &str) {
        let out = match &mut self.drills {
            Some(d) if self.screen == Screen::Drills => match &mut d.view {
                View::Puzzle(p) if p.feedback.is_none() => {
                    match crate::drills::parse_answer(&p.puzzle, text) {
                        Err(e) => {
                            self.input = Some(super::app::Input::new(InputKind::DrillAnswer, text));
                            Outcome::Error(e)
                        }
                        Ok(Answer::Moves(ms)) if !ms.is_empty() => {
                            for m in ms {
                                p.add_move(m);
                            }
                            Outcome::Info(format!(
                                "Your moves: {}. {} submits; {} adds more; {} removes the last.",
                                Answer::Moves(p.moves.clone()).describe(p.game()),
                                keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit),
                                keys::key_in(Ctx::DrillAnswer, Cmd::DrillType),
                                keys::key_in(Ctx::DrillAnswer, Cmd::DrillRemoveMove)
                            ))
                        }
                        Ok(a) => Outcome::Answer(a),
                    }
                }
                _ => Outcome::Nothing,
            },
            _ => Outcome::Nothing,
        };
        self.drill_outcome(out);
    }

    /// A click on the drill screen: a theme, an option, a ply, a square.
    pub fn drill_click(&mut self, x: u16, y: u16) {
        let size = self.size;
        let ascii = self.ascii;
        let Some(d) = self
            .drills
            .as_deref_mut()
            .filter(|_| self.screen == Screen::Drills)
        else {
            return;
        };
        let out = match &mut d.view {
            View::Themes => {
                let rows = render::drill_theme_rows(size, d.rows());
                match rows.iter().position(|r| r.contains((x, y).into())) {
                    Some(row) => {
                        d.row = row;
                        Outcome::Next(d.pick_at(row))
                    }
                    None => Outcome::Nothing,
                }
            }
            View::Puzzle(p) => {
                let Some(a) = render::drill_layout(size) else {
                    return;
                };
                let answered = p.feedback.is_some();
                let buttons = render::drill_option_buttons(p, a.answer, ascii);
                if let Some(i) = buttons.iter().position(|r| r.contains((x, y).into())) {
                    if answered {
                        Outcome::Nothing
                    } else {
                        p.option = i;
                        Outcome::Answer(p.options()[i].1.clone())
                    }
                } else if let Some((_, ply)) =
                    render::history_cells_in(p.game(), p.cursor, a.history)
                        .into_iter()
                        .find(|(r, _)| r.contains((x, y).into()))
                {
                    p.cursor = ply;
                    if !answered && p.widget() == Widget::Plies {
                        p.toggle(ply);
                    }
                    Outcome::Nothing
                } else if let Some(sq) =
                    render::drill_board_geom(&a, p).and_then(|g| g.square_at(x, y))
                {
                    if answered || p.widget() != Widget::Moves {
                        Outcome::Nothing
                    } else {
                        board_click(p, sq)
                    }
                } else {
                    Outcome::Nothing
                }
            }
        };
        self.drill_outcome(out);
    }
}

/// Pick up a piece or put it down, adding the move to the answer (claim-moves).
fn board_click(p: &mut PuzzleState, sq: shakmaty::Square) -> Outcome {
    use shakmaty::Position;
    if p.cursor != p.game().len() {
        p.cursor = p.game().len();
        p.selected = None;
        return Outcome::Info("Back to the position of the question: make the moves here.".into());
    }
    let pos = p.game().position().clone();
    let own = pos
        .board()
        .piece_at(sq)
        .is_some_and(|pc| pc.color == pos.turn());
    match p.selected {
        Some(from) if from != sq => {
            let m = pos
                .legal_moves()
                .into_iter()
                .filter(|m| {
                    m.from() == Some(from) && (m.to() == sq || king_target(m, pos.turn()) == sq)
                })
                .max_by_key(|m| m.promotion().map_or(0, |r| r as u8));
            match m {
                Some(m) => {
                    p.selected = None;
                    p.add_move(m);
                    Outcome::Info(format!(
                        "Your moves: {}. {} submits; {} removes the last.",
                        Answer::Moves(p.moves.clone()).describe(p.game()),
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit),
                        keys::key_in(Ctx::DrillAnswer, Cmd::DrillRemoveMove)
                    ))
                }
                None if own => {
                    p.selected = Some(sq);
                    Outcome::Nothing
                }
                None => {
                    p.selected = None;
                    Outcome::Error(format!("{from}-{sq} is not a legal move"))
                }
            }
        }
        Some(_) => {
            p.selected = None;
            Outcome::Nothing
        }
        None if own => {
            p.selected = Some(sq);
            Outcome::Nothing
        }
        None => Outcome::Nothing,
    }
}
