//! A puzzle's motif (issue 39): what it shows, whatever it asks. Computed, never declared:
//! the start position without its move counters and the moves (UCI for chess, UCCI for
//! xiangqi) up to and including the first that brings back a position that stood before in
//! the puzzle; a puzzle whose moves repeat nothing uses all its moves. The Nf3 Nf6 Ng1 Ng8
//! shuffle from the standard start is one motif, whatever question is asked of it.
//!
//! Two rules read it: a chess theme (puzzle file) may give no motif to more than a tenth of
//! its puzzles ([`MAX_SHARE_PERCENT`], [`check_theme`], run by `drills --check`), and the
//! draw never picks the motif of the puzzle drawn just before when another is available
//! ([`super::session`], both games).
//!
//! The per-theme limit is chess's only: a xiangqi theme holds 5 to 14 puzzles, where the
//! limit would give every puzzle a motif of its own, and the xiangqi themes ask a ruling and
//! a move question of one position by design ("is it a chase?", "which move breaks it?").
//! The draw keeps those two apart.

use std::collections::BTreeMap;
use std::path::Path;

use threefold_rules::Game;
use threefold_xiangqi::judge::Record;

use super::shown::fen_without_counters;

/// No motif may be that of more than this share of a theme's puzzles.
pub const MAX_SHARE_PERCENT: usize = 10;

/// The motif of a start position (its FEN, counters dropped here) and moves, cut after the
/// first move `repeats_at` (1-based ply) that brings a position back: the one form both
/// games' motifs take.
fn motif_of(start_fen: &str, moves: &[String], repeats_at: Option<usize>) -> String {
    let end = repeats_at.unwrap_or(moves.len()).min(moves.len());
    format!(
        "{} | {}",
        fen_without_counters(start_fen),
        moves[..end].join(" ")
    )
    .trim_end()
    .to_string()
}

/// A chess puzzle's motif, from its game (a position "stood before" as the rules core
/// counts repetitions).
pub fn chess(game: &Game) -> String {
    let repeats_at = (1..=game.len()).find(|&k| game.occurrences(k) > 1);
    motif_of(&game.start_fen(), &game.uci_moves(), repeats_at)
}

/// A xiangqi puzzle's motif, from its record (a position "stood before" as the judge counts
/// occurrences).
pub fn xiangqi(record: &Record) -> String {
    let moves: Vec<String> = (1..=record.ply())
        .map(|k| record.move_at(k).ucci())
        .collect();
    let repeats_at = (1..=record.ply()).find(|&k| record.occurrence_count(k) > 0);
    motif_of(&record.position(0).fen(), &moves, repeats_at)
}

/// How many puzzles of a theme of `n` may share a motif: `max(1, n / 10)`.
pub fn limit(n: usize) -> usize {
    (n * MAX_SHARE_PERCENT / 100).max(1)
}

/// The motif limit of one theme: for each motif shared by more than [`limit`] of the
/// theme's puzzles (given as (id, motif)), one line naming the file, the motif and the
/// puzzles' ids.
pub fn check_theme<'a>(
    file: &Path,
    puzzles: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Vec<String> {
    let mut by_motif: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut n = 0;
    for (id, motif) in puzzles {
        n += 1;
        by_motif.entry(motif).or_default().push(id);
    }
    let max = limit(n);
    by_motif
        .into_iter()
        .filter(|(_, ids)| ids.len() > max)
        .map(|(motif, ids)| {
            format!(
                "{}: {} of its {n} puzzles share one motif (at most {max} may, {MAX_SHARE_PERCENT} %): {motif}: {}",
                file.display(),
                ids.len(),
                ids.join(", ")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> Game {
        let mut g = Game::new();
        for m in moves.split_whitespace() {
            g.play_san(m).unwrap();
        }
        g
    }

    #[test]
    fn the_shuffle_is_one_motif_whatever_follows() {
        let a = chess(&game("Nf3 Nf6 Ng1 Ng8"));
        let b = chess(&game("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"));
        let c = chess(&game("Nf3 Nf6 Ng1 Ng8 e4"));
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(
            a,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - | g1f3 g8f6 f3g1 f6g8"
        );
        // No repetition: all the moves.
        assert_ne!(chess(&game("Nf3 Nf6 Ng1")), a);
        assert_eq!(
            chess(&game("e4 e5")),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - | e2e4 e7e5"
        );
    }

    #[test]
    fn a_theme_may_give_a_motif_to_a_tenth_of_its_puzzles() {
        assert_eq!((limit(5), limit(19), limit(20), limit(120)), (1, 1, 2, 12));
        let f = Path::new("puzzles/t.toml");
        let ids: Vec<String> = (0..20).map(|k| format!("p{k}")).collect();
        let motif = |k: usize| {
            if k < 2 {
                "shuffle".to_string()
            } else {
                format!("m{k}")
            }
        };
        let motifs: Vec<String> = (0..20).map(motif).collect();
        let two = ids
            .iter()
            .map(String::as_str)
            .zip(motifs.iter().map(String::as_str));
        assert!(check_theme(f, two).is_empty());
        let motifs: Vec<String> = (0..20)
            .map(|k| {
                if k < 3 {
                    "shuffle".to_string()
                } else {
                    format!("m{k}")
                }
            })
            .collect();
        let three = ids
            .iter()
            .map(String::as_str)
            .zip(motifs.iter().map(String::as_str));
        assert_eq!(
            check_theme(f, three),
            [
                "puzzles/t.toml: 3 of its 20 puzzles share one motif (at most 2 may, 10 %): shuffle: p0, p1, p2"
            ]
        );
    }
}

#[cfg(test)]
mod builtin_tests {
    /// Every built-in theme meets the limit (no shuffle five times over in one theme).
    #[test]
    fn every_builtin_theme_meets_the_motif_limit() {
        let c = crate::load_builtin();
        for t in &c.themes {
            let lines = super::check_theme(
                &t.file,
                t.puzzles.iter().map(|p| (p.id.as_str(), p.motif())),
            );
            assert!(lines.is_empty(), "{}: {lines:?}", t.id);
        }
    }
}
