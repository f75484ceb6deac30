//! The command-line subcommands (the binary's edge: anyhow lives here).

pub mod analyze;
pub mod bench_rules;
pub mod detectors;
pub mod euwe;
pub mod progress;
pub mod review;
pub mod review_merge;
pub mod shell;
pub mod xiangqi;

/// The parser of every `--hash` (table size in MB): a whole number in
/// `MIN_HASH_MB..=MAX_HASH_MB`, the range of UCI `Hash`; `--hash 0` is refused in one line
/// by clap (exit 2) instead of being taken as 1 MB.
pub fn hash_mb_parser() -> clap::builder::RangedU64ValueParser<usize> {
    use threefold::engine::tt::{MAX_HASH_MB, MIN_HASH_MB};
    clap::builder::RangedU64ValueParser::new().range(MIN_HASH_MB as u64..=MAX_HASH_MB as u64)
}

/// The parser of every xiangqi `--ntimes`: the earlier occurrences of a position a repetition
/// is ruled at, 1 (the first repetition) or 2 (the third occurrence), or the rule's name
/// (`first-repetition`, `third-occurrence`); anything else is refused in one line by clap.
pub fn ntimes_parser(
    s: &str,
) -> Result<threefold::xiangqi::RuleAt, threefold::xiangqi::judge::ParseRuleAtError> {
    threefold::xiangqi::RuleAt::parse_ntimes(s)
}

/// The parser of every search `--depth`: `1..=MAX_DEPTH` plies (a depth-0 search does not
/// exist: the search always completes depth 1, and `bench --depth 0` said depth 0 and
/// searched depth 1).
pub fn depth_parser() -> clap::builder::RangedI64ValueParser<u32> {
    use threefold::engine::score::MAX_DEPTH;
    clap::builder::RangedI64ValueParser::new().range(1..=i64::from(MAX_DEPTH))
}
