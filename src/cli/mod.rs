//! The command-line subcommands (the binary's edge: anyhow lives here).

pub mod analyze;
pub mod bench_rules;
pub mod detectors;
pub mod euwe;
pub mod review;
pub mod shell;
pub mod xiangqi;
