//! What the drill screen holds: the puzzles, the player's progress and where
//! it is saved, and which puzzle comes next. Answering judges, records and
//! saves in one call; nothing here panics on a bad progress file or a failed
//! save (they become messages).
//!
//! # Which puzzle comes next
//!
//! First the puzzles that are due ([`super::progress`]'s Leitner schedule: answered on an
//! earlier day and due again, or missed in this session), the longest overdue first, then
//! the lower box, then the easier one; a puzzle missed in this session comes back only
//! after [`RETRY_AFTER`] other puzzles, and never twice in a row.
//!
//! Then, within a theme: the easiest puzzle (file order among equals) that is not
//! solved and has not been offered in this round; then the easiest one not
//! offered in this round; once every puzzle of the theme has been offered,
//! the easiest unsolved one that is not the last one offered, then the easiest
//! one that is not the last one (so a solved theme can be played again).
//! A round starts when the session starts and when the player goes back to
//! the theme list ([`Session::new_round`]), and again once every puzzle of
//! the pick has been offered.
//!
//! For all themes: the themes in turn, starting after the theme of the last
//! puzzle offered, preferring a theme whose next puzzle is due, then one whose next
//! puzzle is unsolved and not offered in this round.

use super::builtin::load_builtin;
use super::check::{Feedback, judge};
use super::load::GameKind;
use super::progress::{Progress, ProgressStore};
use super::types::{Answer, Collection, Puzzle};
use super::xiangqi::{XiangqiAnswer, XiangqiPuzzle, XiangqiTheme, judge_answer};

/// How many other puzzles are offered before one missed in this session comes back.
pub const RETRY_AFTER: usize = 3;

/// Which puzzles are drilled: one theme (its id) or all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    All,
    Theme(String),
}

/// `coll` with the puzzle file `yours` loaded beside it, when there is one: the theme
/// "From your games" ([`super::from_games`]) beside the built-in ones, and its xiangqi
/// sibling "From your xiangqi games" ([`super::from_games::XIANGQI_FILE_NAME`], in the same
/// directory) beside the built-in xiangqi themes; one loader reads both.
pub fn with_yours(mut coll: Collection, yours: Option<&std::path::Path>) -> Collection {
    if let Some(chess) = yours {
        for game in [GameKind::Chess, GameKind::Xiangqi] {
            let path = super::from_games::file_of(chess, game);
            if path.exists() {
                super::load::add_file(&mut coll, &path);
            }
        }
    }
    coll
}

/// What the schedule reads of a puzzle of either game: the one schedule draws both.
trait Drawn {
    fn id(&self) -> &str;
    fn theme(&self) -> &str;
    fn difficulty(&self) -> u8;
    fn motif(&self) -> &str;
}

impl Drawn for Puzzle {
    fn id(&self) -> &str {
        &self.id
    }
    fn theme(&self) -> &str {
        &self.theme
    }
    fn difficulty(&self) -> u8 {
        self.difficulty
    }
    fn motif(&self) -> &str {
        Puzzle::motif(self)
    }
}

impl Drawn for XiangqiPuzzle {
    fn id(&self) -> &str {
        &self.id
    }
    fn theme(&self) -> &str {
        &self.theme
    }
    fn difficulty(&self) -> u8 {
        self.difficulty
    }
    fn motif(&self) -> &str {
        XiangqiPuzzle::motif(self)
    }
}

/// A drill session.
#[derive(Debug)]
pub struct Session {
    pub collection: Collection,
    pub progress: Progress,
    store: Option<ProgressStore>,
    /// Things to tell the player once (a corrupt progress file moved aside, a
    /// failed save, a puzzle file problem). The screen shows and clears them.
    pub messages: Vec<String>,
    /// The last puzzle offered.
    last: Option<String>,
    /// Its motif ([`super::motif`]): the next puzzle drawn has another when one is available.
    last_motif: Option<String>,
    /// The puzzles offered in this round, in order.
    offered: Vec<String>,
    /// The day answers are recorded on and due dates compared with ([`super::progress::today`]
    /// when the session opens; tests set it).
    pub today: i64,
    /// How many puzzles were offered in this session.
    offered_count: usize,
    /// The puzzles missed in this session, with `offered_count` when they were missed.
    missed_at: std::collections::HashMap<String, usize>,
}

impl Session {
    /// The built-in puzzles, the puzzles from your games (`from-your-games.toml` in the
    /// data directory, when it exists) and the progress in the platform data directory.
    pub fn open() -> Session {
        Session::open_with(super::from_games::default_file().as_deref())
    }

    /// [`Session::open`] with the puzzles from your games read from `yours` (if it exists).
    pub fn open_with(yours: Option<&std::path::Path>) -> Session {
        Session::with(
            with_yours(load_builtin(), yours),
            ProgressStore::default_location(),
        )
    }

    /// Given puzzles and a progress store (`None`: progress is kept in memory only).
    pub fn with(collection: Collection, store: Option<ProgressStore>) -> Session {
        let mut messages: Vec<String> = collection.problems.iter().map(|p| p.to_string()).collect();
        let progress = match &store {
            Some(s) => {
                let loaded = s.load();
                messages.extend(loaded.warning);
                loaded.progress
            }
            None => {
                messages.push(
                    "no data directory on this platform: progress will not be saved".to_string(),
                );
                Progress::default()
            }
        };
        Session {
            collection,
            progress,
            store,
            messages,
            last: None,
            last_motif: None,
            offered: Vec::new(),
            today: super::progress::today(),
            offered_count: 0,
            missed_at: std::collections::HashMap::new(),
        }
    }

    /// Where progress is saved, if anywhere.
    pub fn store(&self) -> Option<&ProgressStore> {
        self.store.as_ref()
    }

    /// Offer the next puzzle of `pick` (see the module docs) and remember it
    /// as offered. `None` when the pick has no puzzle.
    pub fn next(&mut self, pick: &Pick) -> Option<&Puzzle> {
        let themes: Vec<(&str, &[Puzzle])> = self
            .collection
            .themes
            .iter()
            .map(|t| (t.id.as_str(), t.puzzles.as_slice()))
            .collect();
        let p = self.choose(&themes, pick)?;
        let (id, motif) = (p.id().to_string(), p.motif().to_string());
        let round_done = self.round_done(&themes, pick);
        self.offer(&id, motif, round_done);
        self.collection.puzzle(&id)
    }

    /// [`Session::next`] for the xiangqi drill screen: the next xiangqi puzzle of `pick`, by
    /// the same schedule and the same progress.
    pub fn next_xiangqi(&mut self, pick: &Pick) -> Option<&XiangqiPuzzle> {
        let themes: Vec<(&str, &[XiangqiPuzzle])> = self
            .collection
            .xiangqi
            .iter()
            .map(|t| (t.id.as_str(), t.puzzles.as_slice()))
            .collect();
        let p = self.choose(&themes, pick)?;
        let (id, motif) = (p.id().to_string(), p.motif().to_string());
        let round_done = self.round_done(&themes, pick);
        self.offer(&id, motif, round_done);
        self.collection.xiangqi_puzzle(&id)
    }

    /// Whether every puzzle of `pick` among `themes` was offered in this round.
    fn round_done<P: Drawn>(&self, themes: &[(&str, &[P])], pick: &Pick) -> bool {
        themes
            .iter()
            .filter(|(t, _)| match pick {
                Pick::All => true,
                Pick::Theme(id) => id == t,
            })
            .flat_map(|(_, ps)| ps.iter())
            .all(|p| self.was_offered(p))
    }

    /// Remember puzzle `id`, of `motif`, as offered; `round_done`: every puzzle of the pick
    /// had been offered.
    fn offer(&mut self, id: &str, motif: String, round_done: bool) {
        if self.offered.iter().any(|o| o == id) {
            if round_done {
                // Everything was offered: a new round begins with this one.
                self.offered.clear();
            } else {
                // Offered again before the round is over (the motif rule left nothing
                // else): the round goes on.
                self.offered.retain(|o| o != id);
            }
        }
        self.offered.push(id.to_string());
        self.offered_count += 1;
        self.last = Some(id.to_string());
        self.last_motif = Some(motif);
    }

    /// Start a new round: every puzzle may be offered again before the others.
    pub fn new_round(&mut self) {
        self.offered.clear();
    }

    /// The last puzzle offered, if any.
    pub fn last(&self) -> Option<&Puzzle> {
        self.collection.puzzle(self.last.as_deref()?)
    }

    /// The next puzzle of `pick` among `themes` (id and puzzles, of either game).
    fn choose<'a, P: Drawn>(&self, themes: &[(&'a str, &'a [P])], pick: &Pick) -> Option<&'a P> {
        let in_theme = |id: &str| {
            themes
                .iter()
                .find(|(t, _)| *t == id)
                .and_then(|(_, ps)| self.next_in_theme(ps))
        };
        match pick {
            Pick::Theme(id) => in_theme(id),
            Pick::All if themes.is_empty() => None,
            Pick::All => {
                let last = self.last.as_deref();
                let last_theme = themes
                    .iter()
                    .position(|(_, ps)| ps.iter().any(|p| Some(p.id()) == last));
                let start = last_theme.map_or(0, |i| i + 1);
                let order: Vec<&str> = (0..themes.len())
                    .map(|k| themes[(start + k) % themes.len()].0)
                    .collect();
                // A theme's next puzzle has the last motif only when all the theme's
                // puzzles have it: another theme's comes first.
                let first = |other_motif: bool| {
                    let ok = move |p: &P| !other_motif || !self.same_motif(p);
                    order
                        .iter()
                        .find_map(|id| in_theme(id).filter(|p| self.ready(*p) && ok(p)))
                        .or_else(|| {
                            order.iter().find_map(|id| {
                                in_theme(id).filter(|p| {
                                    !self.is_solved(*p) && !self.was_offered(*p) && ok(p)
                                })
                            })
                        })
                        .or_else(|| order.iter().find_map(|id| in_theme(id).filter(|p| ok(p))))
                };
                first(true).or_else(|| first(false))
            }
        }
    }

    fn was_offered(&self, p: &impl Drawn) -> bool {
        self.offered.iter().any(|o| o == p.id())
    }

    /// Whether `p` has the motif of the last puzzle offered.
    fn same_motif(&self, p: &impl Drawn) -> bool {
        self.last_motif.as_deref() == Some(p.motif())
    }

    fn next_in_theme<'a, P: Drawn>(&self, puzzles: &'a [P]) -> Option<&'a P> {
        let mut order: Vec<&P> = puzzles.iter().collect();
        // Never the last puzzle's motif twice in a row while another is there.
        if order.iter().any(|p| !self.same_motif(*p)) {
            order.retain(|p| !self.same_motif(*p));
        }
        order.sort_by_key(|p| p.difficulty());
        let fresh = |p: &&&P| !self.was_offered(**p);
        let not_last = |p: &&&P| Some(p.id()) != self.last.as_deref();
        let due = order.iter().filter(|p| self.ready(**p)).min_by_key(|p| {
            let s = self
                .progress
                .schedule(p.theme(), p.id())
                .unwrap_or_default();
            (s.due, s.level, p.difficulty())
        });
        due.or_else(|| {
            order
                .iter()
                .filter(|p| !self.held_back(**p))
                .filter(fresh)
                .find(|p| !self.is_solved(**p))
        })
        .or_else(|| order.iter().filter(|p| !self.held_back(**p)).find(fresh))
        .or_else(|| {
            order
                .iter()
                .filter(fresh)
                .find(|p| !self.is_solved(**p))
                .or_else(|| order.iter().find(fresh))
                .or_else(|| order.iter().filter(not_last).find(|p| !self.is_solved(**p)))
                .or_else(|| order.iter().find(not_last))
                .or_else(|| order.first())
        })
        .copied()
    }

    /// Whether `p` is due now and may be offered next: due by the schedule, not the last
    /// one offered, and if missed in this session, [`RETRY_AFTER`] other puzzles ago.
    fn ready(&self, p: &impl Drawn) -> bool {
        self.progress.is_due(p.theme(), p.id(), self.today)
            && Some(p.id()) != self.last.as_deref()
            && !self.held_back(p)
    }

    /// Whether `p` was missed in this session fewer than [`RETRY_AFTER`] puzzles ago.
    fn held_back(&self, p: &impl Drawn) -> bool {
        self.missed_at
            .get(p.id())
            .is_some_and(|&at| self.offered_count < at + RETRY_AFTER)
    }

    /// How many puzzles of `theme` are due on the session's day.
    pub fn due_in(&self, theme: &str) -> usize {
        self.collection.theme(theme).map_or(0, |t| {
            t.puzzles
                .iter()
                .filter(|p| self.progress.is_due(&t.id, &p.id, self.today))
                .count()
        })
    }

    fn is_solved(&self, p: &impl Drawn) -> bool {
        self.progress.is_solved(p.theme(), p.id())
    }

    /// The xiangqi themes ([`super::xiangqi`]), kept apart from `collection.themes`, which
    /// the chess drill screen shows.
    pub fn xiangqi_themes(&self) -> &[XiangqiTheme] {
        &self.collection.xiangqi
    }

    /// Judge the player's answer to xiangqi puzzle `id` by the WXF judge, record it in the
    /// theme's score and streak, and save, as [`Session::answer`] does for chess. `None` for
    /// an unknown id.
    pub fn answer_xiangqi(&mut self, id: &str, given: &XiangqiAnswer) -> Option<Feedback> {
        let puzzle = self.collection.xiangqi_puzzle(id)?;
        let feedback = judge_answer(puzzle, given);
        let theme = puzzle.theme.clone();
        self.record(GameKind::Xiangqi, &theme, id, feedback.correct);
        Some(feedback)
    }

    /// Record an answer in the progress (its theme's score and streak, and its game's
    /// streak over all themes) and save it.
    fn record(&mut self, game: GameKind, theme: &str, id: &str, correct: bool) {
        self.progress
            .record_in(game, theme, id, correct, self.today);
        if correct {
            self.missed_at.remove(id);
        } else {
            self.missed_at.insert(id.to_string(), self.offered_count);
        }
        if let Some(store) = &self.store
            && let Err(e) = store.save(&self.progress)
        {
            self.messages.push(format!(
                "could not save progress to {}: {e}",
                store.path().display()
            ));
        }
    }

    /// Judge the player's answer to puzzle `id`, record it in the theme's
    /// score and streak, and save. `None` for an unknown id.
    pub fn answer(&mut self, id: &str, given: &Answer) -> Option<Feedback> {
        let puzzle = self.collection.puzzle(id)?;
        let feedback = judge(puzzle, given);
        let theme = puzzle.theme.clone();
        self.record(GameKind::Chess, &theme, id, feedback.correct);
        Some(feedback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Answer, load_builtin};

    /// An answer no puzzle takes as right (no game has a ply 9999).
    fn wrong() -> Answer {
        Answer::count(vec![9999])
    }

    fn session(today: i64) -> Session {
        let mut s = Session::with(load_builtin(), None);
        s.today = today;
        s
    }

    /// Issue 39: five of twelve drills were the one knights' shuffle. The draw never gives
    /// the last puzzle's motif again while another is there: in a theme where five of eight
    /// share one (basics), in all themes, and in the xiangqi drills; a theme of one motif
    /// only (euwe) still gives its puzzles.
    #[test]
    fn the_draw_never_gives_the_same_motif_twice_in_a_row() {
        let mut s = session(20_000);
        let motifs = |s: &mut Session, pick: &Pick, xq: bool| -> Vec<String> {
            (0..30)
                .map(|_| {
                    if xq {
                        s.next_xiangqi(pick).unwrap().motif().to_string()
                    } else {
                        let p = s.next(pick).unwrap().clone();
                        let right = crate::solve(&p).unwrap().answer;
                        s.answer(&p.id, &right);
                        p.motif().to_string()
                    }
                })
                .collect()
        };
        for (pick, xq) in [
            (Pick::Theme("basics".to_string()), false),
            (Pick::All, false),
            (Pick::All, true),
            (Pick::Theme("xiangqi-check".to_string()), true),
        ] {
            s.new_round();
            let m = motifs(&mut s, &pick, xq);
            for w in m.windows(2) {
                assert_ne!(w[0], w[1], "{pick:?}: {m:#?}");
            }
        }
        let m = motifs(&mut s, &Pick::Theme("euwe".to_string()), false);
        assert_eq!(m.len(), 30);
    }

    #[test]
    fn a_missed_puzzle_comes_back_after_a_few_others_not_at_once() {
        let mut s = session(20_000);
        let pick = Pick::Theme("basics".to_string());
        let missed = s.next(&pick).unwrap().id.clone();
        assert!(!s.answer(&missed, &wrong()).unwrap().correct);
        assert_eq!(s.due_in("basics"), 1);
        let mut then = Vec::new();
        for _ in 0..RETRY_AFTER + 1 {
            let id = s.next(&pick).unwrap().id.clone();
            then.push(id.clone());
            if id != missed {
                let right = crate::solve(s.collection.puzzle(&id).unwrap()).unwrap();
                assert!(s.answer(&id, &right.answer).unwrap().correct);
            }
        }
        assert!(!then[..RETRY_AFTER].contains(&missed), "{then:?}");
        assert_eq!(then[RETRY_AFTER], missed, "{then:?}");
    }

    #[test]
    fn xiangqi_answers_are_recorded_apart_from_the_chess_themes() {
        let mut s = session(20_000);
        assert!(!s.xiangqi_themes().is_empty());
        let p = s.xiangqi_themes()[0].puzzles[0].clone();
        let right = crate::xiangqi::solve(&p).unwrap().answer;
        assert!(s.answer_xiangqi(&p.id, &right).unwrap().correct);
        assert!(s.progress.is_solved(&p.theme, &p.id));
        assert!(s.answer_xiangqi("no-such-puzzle", &right).is_none());
        // The chess screen's picks never offer a xiangqi puzzle.
        for _ in 0..200 {
            let id = s.next(&Pick::All).unwrap().id.clone();
            assert!(s.collection.xiangqi_puzzle(&id).is_none(), "{id}");
        }
    }

    /// The xiangqi puzzles are drawn by the same schedule: a missed one comes back after
    /// [`RETRY_AFTER`] others, and one due by the Leitner boxes comes first. Broken to see it
    /// fail: `next_xiangqi` drawing the themes' puzzles in file order (`themes[0].1.first()`),
    /// as the xiangqi drill screen did.
    #[test]
    fn xiangqi_puzzles_are_drawn_on_the_same_schedule() {
        let mut s = session(20_000);
        let theme = s.xiangqi_themes()[0].id.clone();
        let pick = Pick::Theme(theme.clone());
        let missed = s.next_xiangqi(&pick).unwrap().id.clone();
        // A chase of no piece: no puzzle's answer.
        let wrong = XiangqiAnswer::Chase(crate::xiangqi::ChaseStatus::Chases(Vec::new()));
        assert!(!s.answer_xiangqi(&missed, &wrong).unwrap().correct);
        let mut then = Vec::new();
        for _ in 0..RETRY_AFTER + 1 {
            let p = s.next_xiangqi(&pick).unwrap().clone();
            then.push(p.id.clone());
            if p.id != missed {
                let right = crate::xiangqi::solve(&p).unwrap().answer;
                assert!(s.answer_xiangqi(&p.id, &right).unwrap().correct);
            }
        }
        assert!(!then[..RETRY_AFTER].contains(&missed), "{then:?}");
        assert_eq!(then[RETRY_AFTER], missed, "{then:?}");
        // Answered right three days ago, the hardest is due: it comes first.
        let mut s = session(20_000);
        let hardest = s.xiangqi_themes()[0]
            .puzzles
            .iter()
            .max_by_key(|p| p.difficulty)
            .unwrap()
            .id
            .clone();
        s.progress.record(&theme, &hardest, true, 19_997);
        assert_eq!(s.next_xiangqi(&pick).unwrap().id, hardest);
    }

    #[test]
    fn due_puzzles_come_first_and_are_counted_per_theme() {
        let mut s = session(20_000);
        let hardest = s
            .collection
            .theme("basics")
            .unwrap()
            .puzzles
            .iter()
            .max_by_key(|p| p.difficulty)
            .unwrap()
            .id
            .clone();
        // Answered right three days ago: box 1, due two days ago.
        s.progress.record("basics", &hardest, true, 19_997);
        assert_eq!(s.due_in("basics"), 1);
        assert_eq!(s.due_in("fifty"), 0);
        let pick = Pick::Theme("basics".to_string());
        assert_eq!(s.next(&pick).unwrap().id, hardest);
        let right = crate::solve(s.collection.puzzle(&hardest).unwrap()).unwrap();
        s.answer(&hardest, &right.answer);
        // Box 2: due in three days, not before.
        assert_eq!(s.due_in("basics"), 0);
        s.today += 3;
        assert_eq!(s.due_in("basics"), 1);
        // All themes: the theme with a due puzzle first (once another puzzle came between).
        s.new_round();
        s.next(&Pick::Theme("fifty".to_string()));
        assert_eq!(s.next(&Pick::All).unwrap().id, hardest);
    }
}
