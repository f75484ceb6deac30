//! What the drill screen holds: the puzzles, the player's progress and where
//! it is saved. Answering judges, records and saves in one call; nothing here
//! panics on a bad progress file or a failed save (they become messages).

use super::builtin::load_builtin;
use super::check::{Feedback, judge};
use super::progress::{Progress, ProgressStore};
use super::types::{Answer, Collection, Puzzle};

/// A drill session.
#[derive(Debug)]
pub struct Session {
    pub collection: Collection,
    pub progress: Progress,
    store: Option<ProgressStore>,
    /// Things to tell the player once (a corrupt progress file moved aside, a
    /// failed save, a puzzle file problem). The screen shows and clears them.
    pub messages: Vec<String>,
}

impl Session {
    /// The built-in puzzles and the progress in the platform data directory.
    pub fn open() -> Session {
        Session::with(load_builtin(), ProgressStore::default_location())
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
        }
    }

    /// Where progress is saved, if anywhere.
    pub fn store(&self) -> Option<&ProgressStore> {
        self.store.as_ref()
    }

    /// The next puzzle to offer in `theme` (see [`Collection::next_in`]).
    pub fn next(&self, theme: &str, last: Option<&str>) -> Option<&Puzzle> {
        self.collection.next_in(theme, &self.progress, last)
    }

    /// Judge the player's answer to puzzle `id`, record it in the theme's
    /// score and streak, and save. `None` for an unknown id.
    pub fn answer(&mut self, id: &str, given: &Answer) -> Option<Feedback> {
        let puzzle = self.collection.puzzle(id)?;
        let feedback = judge(puzzle, given);
        let theme = puzzle.theme.clone();
        self.progress.record(&theme, id, feedback.correct);
        if let Some(store) = &self.store
            && let Err(e) = store.save(&self.progress)
        {
            self.messages.push(format!(
                "could not save progress to {}: {e}",
                store.path().display()
            ));
        }
        Some(feedback)
    }
}
