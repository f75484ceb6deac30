//! Drill progress: score and streak per theme, and when each puzzle is due again, kept in
//! the platform data directory as TOML, written atomically; a corrupt file is moved aside.
//!
//! # When a puzzle comes back: a Leitner schedule
//!
//! Each puzzle answered has a box (0 to 5) and a due day ([`Schedule`]). A right answer
//! moves it up one box and makes it due again after [`INTERVALS`] days: 1, 3, 7, 14, 30 for
//! boxes 1 to 5 (box 5 stays at 30). A wrong answer puts it back in box 0, due the same
//! day: the session offers it again after [`super::session::RETRY_AFTER`] other puzzles,
//! not at once, so the answer is not simply remembered from a moment ago.
//!
//! This is the Leitner system (Sebastian Leitner, "So lernt man lernen", 1972) with
//! expanding intervals, the schedule that SuperMemo- and Anki-like trainers refine: what is
//! known is asked less and less often, what was missed soon and often. It is simple and
//! predictable: the player can tell from a puzzle's box when it returns, and a mistake
//! costs all its boxes, which suits rules whose point is exactness. A day is a UTC
//! calendar day counted from 1970-01-01 ([`today`]); the schedule takes the day as a
//! parameter, so it is tested without the clock. Progress files written before the
//! schedule existed load with no schedule: their puzzles count as new.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use threefold_rules::fsio::{self, FileKind};

use crate::load::GameKind;

/// The version written in progress files.
pub const PROGRESS_VERSION: u32 = 1;

/// Progress in one theme.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ThemeProgress {
    /// Answers given.
    pub attempts: u32,
    /// Correct answers given (the score).
    pub correct: u32,
    /// Correct answers in a row, up to the latest.
    pub streak: u32,
    /// The longest streak so far.
    pub best_streak: u32,
    /// Puzzles answered correctly at least once.
    pub solved: BTreeSet<String>,
    /// When each puzzle answered comes back (by id).
    pub schedule: BTreeMap<String, Schedule>,
}

/// Correct answers in a row over all themes of one game, now and at best: what "All
/// themes" shows. Kept apart from the themes' streaks, which "All themes" cannot add up (it
/// draws from each theme in turn, so five right answers in a row are one or two in each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Streak {
    pub streak: u32,
    pub best_streak: u32,
}

/// A streak after an answer: one longer if right (its best kept), 0 if wrong. The one rule
/// for a theme's streak and for a game's over all themes.
fn count_streak(streak: &mut u32, best: &mut u32, correct: bool) {
    if correct {
        *streak = streak.saturating_add(1);
        *best = (*best).max(*streak);
    } else {
        *streak = 0;
    }
}

/// Days until a puzzle in box 1, 2, 3, 4, 5 is due again (see the module docs).
pub const INTERVALS: [i64; 5] = [1, 3, 7, 14, 30];

/// The highest box.
pub const TOP_BOX: u8 = INTERVALS.len() as u8;

/// A puzzle's place in the Leitner schedule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Schedule {
    /// 0 (new or missed) to [`TOP_BOX`].
    #[serde(rename = "box")]
    pub level: u8,
    /// The day it is due (days since 1970-01-01, UTC).
    pub due: i64,
}

impl Schedule {
    /// The schedule after an answer on day `today`: right, up one box and due after that
    /// box's interval; wrong, box 0 and due today.
    pub fn after(self, correct: bool, today: i64) -> Schedule {
        if correct {
            let level = self.level.saturating_add(1).min(TOP_BOX);
            Schedule {
                level,
                due: today.saturating_add(INTERVALS[usize::from(level) - 1]),
            }
        } else {
            Schedule {
                level: 0,
                due: today,
            }
        }
    }
}

/// Today as a day number (days since 1970-01-01, UTC) from the system clock: the one place
/// the schedule reads the clock.
pub fn today() -> i64 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    (secs / 86_400) as i64
}

/// Progress over all themes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub version: u32,
    #[serde(default)]
    pub themes: BTreeMap<String, ThemeProgress>,
    /// The streak over all themes of each game ([`GameKind::code`]: "chess", "xiangqi").
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub all: BTreeMap<String, Streak>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            version: PROGRESS_VERSION,
            themes: BTreeMap::new(),
            all: BTreeMap::new(),
        }
    }
}

impl Progress {
    /// Record an answer to puzzle `id` of `theme` given on day `today` ([`today`]): the
    /// score, the streak, and when the puzzle is due again ([`Schedule::after`]).
    pub fn record(&mut self, theme: &str, id: &str, correct: bool, today: i64) {
        // Counts saturate: a file saying 4294967295 stays there instead of wrapping to 0.
        let t = self.themes.entry(theme.to_string()).or_default();
        let s = t.schedule.entry(id.to_string()).or_default();
        *s = s.after(correct, today);
        t.attempts = t.attempts.saturating_add(1);
        count_streak(&mut t.streak, &mut t.best_streak, correct);
        if correct {
            t.correct = t.correct.saturating_add(1);
            t.solved.insert(id.to_string());
        }
    }

    /// [`Progress::record`], and the answer counted in the streak over all themes of
    /// `game` ([`Progress::all_themes`]): what the drill session records for both games.
    pub fn record_in(&mut self, game: GameKind, theme: &str, id: &str, correct: bool, today: i64) {
        self.record(theme, id, correct, today);
        let s = self.all.entry(game.code().to_string()).or_default();
        count_streak(&mut s.streak, &mut s.best_streak, correct);
    }

    /// The streak over all themes of `game` (zero if never played).
    pub fn all_themes(&self, game: GameKind) -> Streak {
        self.all.get(game.code()).copied().unwrap_or_default()
    }

    /// Whether puzzle `id` of `theme` has been answered correctly.
    pub fn is_solved(&self, theme: &str, id: &str) -> bool {
        self.themes
            .get(theme)
            .is_some_and(|t| t.solved.contains(id))
    }

    /// When puzzle `id` of `theme` is due, if it was ever answered.
    pub fn schedule(&self, theme: &str, id: &str) -> Option<Schedule> {
        self.themes.get(theme)?.schedule.get(id).copied()
    }

    /// Whether puzzle `id` of `theme` was answered before and is due on day `today`.
    pub fn is_due(&self, theme: &str, id: &str, today: i64) -> bool {
        self.schedule(theme, id).is_some_and(|s| s.due <= today)
    }

    /// The progress in `theme` (zero if never played).
    pub fn theme(&self, theme: &str) -> ThemeProgress {
        self.themes.get(theme).cloned().unwrap_or_default()
    }

    /// Read progress from TOML text.
    pub fn from_toml(text: &str) -> Result<Progress, ProgressError> {
        let p: Progress = toml::from_str(text).map_err(ProgressError::Toml)?;
        if p.version != PROGRESS_VERSION {
            return Err(ProgressError::Version { found: p.version });
        }
        Ok(p)
    }

    /// The progress as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("progress serializes")
    }
}

/// Why a progress file's text is not progress (the reason in the warning of
/// [`ProgressStore::load`]).
#[derive(Debug, thiserror::Error)]
pub enum ProgressError {
    /// The file is not UTF-8 text.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// The text is not TOML of the progress file's shape (toml's message, without its
    /// excerpt of the file).
    #[error("{}", .0.message().trim())]
    Toml(toml::de::Error),
    /// The file was written by another version of the format.
    #[error("version {found} (this program writes version {PROGRESS_VERSION})")]
    Version { found: u32 },
    /// The file holds more than a progress file may ([`FileKind::Progress`]).
    #[error(
        "it holds more than {} may ({})",
        FileKind::Progress.words(),
        fsio::human_size(FileKind::Progress.limit())
    )]
    TooLarge,
}

/// Progress as loaded, with a message for the user when the file was corrupt.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub progress: Progress,
    /// Set when the file could not be read as progress and was moved aside.
    pub warning: Option<String>,
}

/// Where progress is kept.
#[derive(Clone, Debug)]
pub struct ProgressStore {
    path: PathBuf,
}

impl ProgressStore {
    /// `progress.toml` in the platform data directory ([`threefold_rules::fsio::data_dir`], the same
    /// directory the TUI keeps its saved game in), if the platform has one.
    pub fn default_location() -> Option<ProgressStore> {
        Some(ProgressStore::at(
            threefold_rules::fsio::data_dir()?.join("progress.toml"),
        ))
    }

    /// A store at an explicit path (tests, `--progress FILE`).
    pub fn at(path: impl Into<PathBuf>) -> ProgressStore {
        ProgressStore { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Load progress. A missing file is a fresh start. A file that is not
    /// valid progress is renamed to `progress.toml.corrupt-<unix seconds>` and
    /// a fresh start is returned with a warning saying so; it never panics.
    pub fn load(&self) -> Loaded {
        let text = match fsio::read_bytes(&self.path, FileKind::Progress) {
            Ok(bytes) => Ok(bytes),
            Err(e) if e.is_not_found() => {
                return Loaded {
                    progress: Progress::default(),
                    warning: None,
                };
            }
            // A regular file too large to be progress: set aside like any corrupt one.
            Err(fsio::ReadError::TooLarge { .. }) => Err(ProgressError::TooLarge),
            Err(e) => {
                return Loaded {
                    progress: Progress::default(),
                    warning: Some(format!(
                        "{e}; starting with no progress (the file is left as it is)"
                    )),
                };
            }
        };
        let parsed = text
            .and_then(|t| String::from_utf8(t).map_err(|_| ProgressError::NotUtf8))
            .and_then(|t| Progress::from_toml(&t));
        match parsed {
            Ok(progress) => Loaded {
                progress,
                warning: None,
            },
            Err(reason) => {
                let aside = self.corrupt_name();
                let moved = fs::rename(&self.path, &aside);
                let warning = match moved {
                    Ok(()) => format!(
                        "the progress file {} was unreadable ({reason}); it was moved to {} and progress starts afresh",
                        self.path.display(),
                        aside.display()
                    ),
                    Err(e) => format!(
                        "the progress file {} was unreadable ({reason}) and could not be moved aside ({e}); progress starts afresh",
                        self.path.display()
                    ),
                };
                Loaded {
                    progress: Progress::default(),
                    warning: Some(warning),
                }
            }
        }
    }

    fn corrupt_name(&self) -> PathBuf {
        threefold_rules::fsio::aside_name(&self.path, "corrupt")
    }

    /// Save progress atomically ([`threefold_rules::fsio::write_app_file`]: a temporary file beside
    /// the target, flushed to disk and renamed over it; the directory is created if needed).
    pub fn save(&self, progress: &Progress) -> io::Result<()> {
        threefold_rules::fsio::write_app_file(&self.path, progress.to_toml().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that is not progress says which of the three ways it is not.
    #[test]
    fn unreadable_progress_names_its_cause() {
        let e = Progress::from_toml("version = 2\n").unwrap_err();
        assert!(matches!(e, ProgressError::Version { found: 2 }), "{e}");
        assert_eq!(e.to_string(), "version 2 (this program writes version 1)");
        let e = Progress::from_toml("version = \n").unwrap_err();
        assert!(matches!(e, ProgressError::Toml(_)), "{e}");
        assert!(!e.to_string().contains('|'), "no excerpt of the file: {e}");
        let dir = std::env::temp_dir().join(format!("threefold-progress-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let store = ProgressStore::at(dir.join("progress.toml"));
        fs::write(store.path(), b"version = 1\n\xff\n").unwrap();
        let warning = store.load().warning.unwrap();
        assert!(warning.contains("(not UTF-8 text)"), "{warning}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn counts_saturate_instead_of_wrapping() {
        let text = "version = 1\n[themes.basics]\nattempts = 4294967295\ncorrect = 4294967295\n\
                    streak = 4294967295\nbest_streak = 4294967295\n";
        let mut p = Progress::from_toml(text).unwrap();
        p.record("basics", "x", true, 0);
        p.record("basics", "y", false, 0);
        let t = p.theme("basics");
        assert_eq!((t.attempts, t.correct, t.streak), (u32::MAX, u32::MAX, 0));
        assert_eq!(t.best_streak, u32::MAX);
    }

    /// The sequence, five right, one wrong, five right, drawn from themes in turn:
    /// "All themes" has a streak of 5 and a best of 5 (it showed 1 and 2); each game its own.
    #[test]
    fn the_all_themes_streak_counts_answers_in_a_row_over_the_themes() {
        let mut p = Progress::default();
        let themes = ["basics", "fifty", "identity", "euwe"];
        let answers = [
            true, true, true, true, true, false, true, true, true, true, true,
        ];
        for (k, &right) in answers.iter().enumerate() {
            p.record_in(GameKind::Chess, themes[k % 4], &format!("p{k}"), right, 0);
        }
        assert_eq!(
            p.all_themes(GameKind::Chess),
            Streak {
                streak: 5,
                best_streak: 5
            }
        );
        p.record_in(GameKind::Chess, "basics", "p11", true, 0);
        assert_eq!(p.all_themes(GameKind::Chess).best_streak, 6);
        assert_eq!(p.all_themes(GameKind::Xiangqi), Streak::default());
        p.record_in(GameKind::Xiangqi, "xiangqi-check", "x", false, 0);
        assert_eq!(p.all_themes(GameKind::Chess).streak, 6);
        let back = Progress::from_toml(&p.to_toml()).unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn right_answers_climb_the_boxes_and_a_wrong_one_starts_again() {
        let mut p = Progress::default();
        let day = 20_000;
        let mut dues = Vec::new();
        for k in 0..7 {
            p.record("t", "a", true, day + k);
            let s = p.schedule("t", "a").unwrap();
            dues.push((s.level, s.due - (day + k)));
        }
        assert_eq!(
            dues,
            [(1, 1), (2, 3), (3, 7), (4, 14), (5, 30), (5, 30), (5, 30)]
        );
        assert!(!p.is_due("t", "a", day + 6 + 29));
        assert!(p.is_due("t", "a", day + 6 + 30));
        p.record("t", "a", false, day + 40);
        assert_eq!(
            p.schedule("t", "a"),
            Some(Schedule {
                level: 0,
                due: day + 40
            })
        );
        assert!(p.is_due("t", "a", day + 40));
        // Never answered: new, not due.
        assert!(!p.is_due("t", "b", day + 1000));
    }

    #[test]
    fn a_progress_file_from_before_the_schedule_loads_and_one_with_it_reads_back() {
        let old = "version = 1\n[themes.basics]\nattempts = 3\ncorrect = 2\nstreak = 1\n\
                   best_streak = 2\nsolved = [\"a\", \"b\"]\n";
        let mut p = Progress::from_toml(old).unwrap();
        assert_eq!(p.theme("basics").correct, 2);
        assert!(p.theme("basics").schedule.is_empty());
        p.record("basics", "a", true, 100);
        let back = Progress::from_toml(&p.to_toml()).unwrap();
        assert_eq!(back, p);
        assert_eq!(
            back.schedule("basics", "a"),
            Some(Schedule { level: 1, due: 101 })
        );
    }
}
