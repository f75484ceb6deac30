//! `threefold review merge A.json B.json …`: the summaries of the parts of a database
//! (`review --summary-json`), added into the summary of the whole and written as JSON in the
//! same form (`crates/review/README.md`, section "Beyond one machine").

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use threefold::fsio::{FileKind, read_text};
use threefold::review::summary::{SUMMARY_FORMAT, Summary};

/// Read the summaries `paths` and write their sum to `out`. A file that cannot be read or is
/// not a summary is refused with one line naming it and the problem, and nothing is written
/// (a sum without one of its parts would pass for the whole).
pub fn merge_files(paths: &[PathBuf], out: &mut dyn Write) -> Result<()> {
    if paths.is_empty() {
        bail!("no summary to merge: give the files written by review --summary-json");
    }
    let mut total = Summary::default();
    for path in paths {
        let text = read_text(path, FileKind::ReviewSummary)?;
        let part: Summary = serde_json::from_str(&text).with_context(|| {
            format!(
                "cannot merge {}: not a review summary (written by review --summary-json)",
                path.display()
            )
        })?;
        if part.format != SUMMARY_FORMAT {
            bail!(
                "cannot merge {}: a summary of form {} (this threefold writes form {SUMMARY_FORMAT}); review its games again",
                path.display(),
                part.format
            );
        }
        total.merge(&part);
    }
    serde_json::to_writer_pretty(&mut *out, &total).context("cannot write the summary")?;
    writeln!(out).context("cannot write the summary")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use threefold::review::summary::{ChessTotals, GameTags};

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "threefold-review-merge-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn part(result: &str, plies: usize) -> Summary {
        let mut t = ChessTotals::default();
        let tags = GameTags {
            result: Some(result),
            time_control: Some("180+2"),
            white_elo: Some("1712"),
            black_elo: None,
        };
        t.add(&tags, plies, None);
        t.add_skipped();
        Summary {
            chess: t,
            ..Summary::default()
        }
    }

    /// The merged file is the sum of the parts, in their JSON form.
    #[test]
    fn merges_the_parts_into_the_whole() {
        let dir = scratch("sum");
        let (a, b) = (part("1-0", 40), part("1/2-1/2", 61));
        let paths = [dir.join("a.json"), dir.join("b.json")];
        std::fs::write(&paths[0], serde_json::to_string(&a).unwrap()).unwrap();
        std::fs::write(&paths[1], serde_json::to_string_pretty(&b).unwrap()).unwrap();
        let mut out = Vec::new();
        merge_files(&paths, &mut out).unwrap();
        let merged: Summary = serde_json::from_slice(&out).unwrap();
        let mut whole = a.clone();
        whole.merge(&b);
        assert_eq!(merged, whole);
        assert_eq!(
            (
                merged.chess.total.games,
                merged.chess.total.plies,
                merged.chess.skipped
            ),
            (2, 101, 2)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file that is not a summary is named with the problem, in one line, and nothing is
    /// written.
    #[test]
    fn a_file_that_is_not_a_summary_is_named() {
        let dir = scratch("bad");
        let good = dir.join("good.json");
        std::fs::write(&good, serde_json::to_string(&part("0-1", 9)).unwrap()).unwrap();
        let cases = [
            (
                "games.pgn",
                "[Event \"x\"]\n1. e4 *\n",
                "expected value at line 1",
            ),
            ("other.json", "{\"games\": 3}", "unknown field `games`"),
            ("empty.json", "", "EOF while parsing"),
            ("short.json", "{\"format\": 1}", "missing field `chess`"),
        ];
        for (name, text, problem) in cases {
            let bad = dir.join(name);
            std::fs::write(&bad, text).unwrap();
            let mut out = Vec::new();
            let e = merge_files(&[good.clone(), bad.clone()], &mut out).unwrap_err();
            let line = format!("{e:#}");
            assert!(line.contains(&bad.display().to_string()), "{line}");
            assert!(line.contains("not a review summary"), "{line}");
            assert!(line.contains(problem), "{line}");
            assert!(!line.contains('\n'), "{line}");
            assert!(out.is_empty(), "{name}: written anyway");
        }
        // A summary of another form is refused, by name.
        let mut other = part("0-1", 9);
        other.format = SUMMARY_FORMAT + 1;
        let later = dir.join("later.json");
        std::fs::write(&later, serde_json::to_string(&other).unwrap()).unwrap();
        let e = merge_files(&[good.clone(), later.clone()], &mut Vec::new()).unwrap_err();
        assert!(format!("{e:#}").contains("a summary of form 2"), "{e:#}");
        let missing = dir.join("missing.json");
        let e = merge_files(std::slice::from_ref(&missing), &mut Vec::new()).unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            format!("cannot read {}: no such file", missing.display())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
