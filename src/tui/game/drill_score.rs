//! A drill theme's score as both drill screens show it (chess's and xiangqi's theme lists):
//! correct answers of attempts, puzzles solved, puzzles due again, and the streak; written
//! once over the game, the themes given as their ids and their puzzles' ids.

use crate::drills::{GameKind, Session};

/// A theme's score as the drill screens show it.
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
    /// Puzzles due again today ([`crate::drills::progress`]'s schedule).
    pub due: usize,
}

/// The score of theme `theme` whose puzzles have the ids `puzzles`.
pub fn theme_score<'a>(
    session: &Session,
    theme: &str,
    puzzles: impl IntoIterator<Item = &'a str>,
) -> Score {
    let t = session.progress.theme(theme);
    let mut s = Score {
        correct: t.correct,
        attempts: t.attempts,
        streak: t.streak,
        best_streak: t.best_streak,
        ..Score::default()
    };
    for id in puzzles {
        s.puzzles += 1;
        s.solved += usize::from(t.solved.contains(id));
        s.due += usize::from(session.progress.is_due(theme, id, session.today));
    }
    s
}

/// The totals of a game's `themes`; the streak is the one over all themes of `game`
/// ([`crate::drills::Progress::all_themes`]), not the themes' added up.
pub fn all_themes(
    session: &Session,
    game: GameKind,
    themes: impl IntoIterator<Item = Score>,
) -> Score {
    let all = session.progress.all_themes(game);
    let mut acc = Score {
        streak: all.streak,
        best_streak: all.best_streak,
        ..Score::default()
    };
    for s in themes {
        acc.correct = acc.correct.saturating_add(s.correct);
        acc.attempts = acc.attempts.saturating_add(s.attempts);
        acc.solved += s.solved;
        acc.puzzles += s.puzzles;
        acc.due += s.due;
    }
    acc
}

/// The score columns of a theme list's rows, in order, padded to one width so that they
/// line up; never cut within a number ("solved 3/217" is as wide as it needs).
pub fn score_texts(scores: &[Score]) -> Vec<String> {
    let width = |n: usize| n.max(1).ilog10() as usize + 1;
    let (mut right, mut solved, mut puzzles) = (3, 2, 2);
    for s in scores {
        right = right.max(width(s.correct.max(s.attempts) as usize));
        solved = solved.max(width(s.solved));
        puzzles = puzzles.max(width(s.puzzles));
    }
    scores
        .iter()
        .map(|s| {
            let due = if s.due > 0 {
                format!("due {:>2}", s.due)
            } else {
                " ".repeat(6)
            };
            format!(
                "score {:>right$}/{:<right$}  solved {:>solved$}/{:<puzzles$}  {due}",
                s.correct, s.attempts, s.solved, s.puzzles
            )
        })
        .collect()
}

/// The highlighted row's streak, under its description.
pub fn streak_text(s: Score) -> String {
    format!("Streak {} (best {}).", s.streak, s.best_streak)
}
