//! Build script: the commit the binary was built from, for `threefold --version`.
//!
//! `THREEFOLD_COMMIT` is the short hash of `HEAD`, or `unknown` outside a git checkout (a
//! source tarball, `cargo install` from crates.io). The script reruns when `HEAD` or a ref
//! moves. (No `-dirty` mark: it would need a rerun on every edit to stay true.)

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = match git(&["rev-parse", "--short=10", "HEAD"]) {
        Some(hash) if !hash.is_empty() => hash,
        _ => "unknown".to_string(),
    };
    println!("cargo:rustc-env=THREEFOLD_COMMIT={commit}");
    // A worktree's HEAD lives in its own git dir, the refs in the common one.
    for dir in [
        git(&["rev-parse", "--absolute-git-dir"]),
        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]),
    ]
    .into_iter()
    .flatten()
    {
        let dir = PathBuf::from(dir);
        for p in [
            dir.join("HEAD"),
            dir.join("refs/heads"),
            dir.join("packed-refs"),
        ] {
            if p.exists() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
}
