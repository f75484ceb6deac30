//! The puzzle files of `puzzles/`, built into the binary so the drills work
//! from any working directory, chess and xiangqi (`xiangqi-*.toml`) alike. A test keeps this
//! list equal to the directory.

use std::path::Path;

use super::types::Collection;

/// (file name, text) of every puzzle file shipped in `puzzles/`.
pub const FILES: &[(&str, &str)] = &[
    ("basics.toml", include_str!("../../../puzzles/basics.toml")),
    (
        "endings.toml",
        include_str!("../../../puzzles/endings.toml"),
    ),
    ("euwe.toml", include_str!("../../../puzzles/euwe.toml")),
    ("fifty.toml", include_str!("../../../puzzles/fifty.toml")),
    (
        "identity.toml",
        include_str!("../../../puzzles/identity.toml"),
    ),
    (
        "intended.toml",
        include_str!("../../../puzzles/intended.toml"),
    ),
    (
        "real-games.toml",
        include_str!("../../../puzzles/real-games.toml"),
    ),
    (
        "xiangqi-chase.toml",
        include_str!("../../../puzzles/xiangqi-chase.toml"),
    ),
    (
        "xiangqi-check.toml",
        include_str!("../../../puzzles/xiangqi-check.toml"),
    ),
    (
        "xiangqi-counter.toml",
        include_str!("../../../puzzles/xiangqi-counter.toml"),
    ),
    (
        "xiangqi-mutual.toml",
        include_str!("../../../puzzles/xiangqi-mutual.toml"),
    ),
    (
        "xiangqi-not-chase.toml",
        include_str!("../../../puzzles/xiangqi-not-chase.toml"),
    ),
    (
        "xiangqi-protection.toml",
        include_str!("../../../puzzles/xiangqi-protection.toml"),
    ),
    (
        "xiangqi-real-games.toml",
        include_str!("../../../puzzles/xiangqi-real-games.toml"),
    ),
];

/// (file name, text) of every scenario file shipped in `scenarios/` (`chess-*.toml`,
/// `xiangqi-*.toml`; [`super::scenario`]). A test keeps this list equal to the directory.
pub const SCENARIO_FILES: &[(&str, &str)] = &[
    (
        "chess-perpetual-check.toml",
        include_str!("../../../scenarios/chess-perpetual-check.toml"),
    ),
    (
        "chess-shuffle.toml",
        include_str!("../../../scenarios/chess-shuffle.toml"),
    ),
    (
        "xiangqi-chase.toml",
        include_str!("../../../scenarios/xiangqi-chase.toml"),
    ),
    (
        "xiangqi-check.toml",
        include_str!("../../../scenarios/xiangqi-check.toml"),
    ),
    (
        "xiangqi-mutual.toml",
        include_str!("../../../scenarios/xiangqi-mutual.toml"),
    ),
];

/// Load the built-in puzzles and scenarios (problems name `puzzles/<file>`,
/// `scenarios/<file>`).
pub fn load_builtin() -> Collection {
    let paths: Vec<(String, &str)> = FILES
        .iter()
        .map(|(name, text)| (format!("puzzles/{name}"), *text))
        .chain(
            SCENARIO_FILES
                .iter()
                .map(|(name, text)| (format!("scenarios/{name}"), *text)),
        )
        .collect();
    super::load::load_texts(paths.iter().map(|(p, t)| (Path::new(p.as_str()), *t)))
}
