//! Drill progress: score and streak per theme, kept in the platform data
//! directory as TOML, written atomically; a corrupt file is moved aside.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

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
}

/// Progress over all themes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub version: u32,
    #[serde(default)]
    pub themes: BTreeMap<String, ThemeProgress>,
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            version: PROGRESS_VERSION,
            themes: BTreeMap::new(),
        }
    }
}

impl Progress {
    /// Record an answer to puzzle `id` of `theme`.
    pub fn record(&mut self, theme: &str, id: &str, correct: bool) {
        // Counts saturate: a file saying 4294967295 stays there instead of wrapping to 0.
        let t = self.themes.entry(theme.to_string()).or_default();
        t.attempts = t.attempts.saturating_add(1);
        if correct {
            t.correct = t.correct.saturating_add(1);
            t.streak = t.streak.saturating_add(1);
            t.best_streak = t.best_streak.max(t.streak);
            t.solved.insert(id.to_string());
        } else {
            t.streak = 0;
        }
    }

    /// Whether puzzle `id` of `theme` has been answered correctly.
    pub fn is_solved(&self, theme: &str, id: &str) -> bool {
        self.themes
            .get(theme)
            .is_some_and(|t| t.solved.contains(id))
    }

    /// The progress in `theme` (zero if never played).
    pub fn theme(&self, theme: &str) -> ThemeProgress {
        self.themes.get(theme).cloned().unwrap_or_default()
    }

    /// Read progress from TOML text.
    pub fn from_toml(text: &str) -> Result<Progress, String> {
        let p: Progress = toml::from_str(text).map_err(|e| e.message().trim().to_string())?;
        if p.version != PROGRESS_VERSION {
            return Err(format!(
                "version {} (this program writes version {PROGRESS_VERSION})",
                p.version
            ));
        }
        Ok(p)
    }

    /// The progress as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("progress serializes")
    }
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
    /// `progress.toml` in the platform data directory ([`crate::fsio::data_dir`], the same
    /// directory the TUI keeps its saved game in), if the platform has one.
    pub fn default_location() -> Option<ProgressStore> {
        Some(ProgressStore::at(
            crate::fsio::data_dir()?.join("progress.toml"),
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
        let text = match fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Loaded {
                    progress: Progress::default(),
                    warning: None,
                };
            }
            Err(e) => {
                return Loaded {
                    progress: Progress::default(),
                    warning: Some(format!(
                        "could not read the progress file {}: {e}; starting with no progress (the file is left as it is)",
                        self.path.display()
                    )),
                };
            }
        };
        let parsed = String::from_utf8(text)
            .map_err(|_| "not UTF-8 text".to_string())
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
        crate::fsio::aside_name(&self.path, "corrupt")
    }

    /// Save progress atomically ([`crate::fsio::write_app_file`]: a temporary file beside
    /// the target, flushed to disk and renamed over it; the directory is created if needed).
    pub fn save(&self, progress: &Progress) -> io::Result<()> {
        crate::fsio::write_app_file(&self.path, progress.to_toml().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_saturate_instead_of_wrapping() {
        let text = "version = 1\n[themes.basics]\nattempts = 4294967295\ncorrect = 4294967295\n\
                    streak = 4294967295\nbest_streak = 4294967295\n";
        let mut p = Progress::from_toml(text).unwrap();
        p.record("basics", "x", true);
        p.record("basics", "y", false);
        let t = p.theme("basics");
        assert_eq!((t.attempts, t.correct, t.streak), (u32::MAX, u32::MAX, 0));
        assert_eq!(t.best_streak, u32::MAX);
    }
}
