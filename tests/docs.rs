//! The docs keep up with the code: every crate's front page (its `lib.rs` docs) names each of
//! its public modules, and every relative link in the Markdown docs reaches a file that exists.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The public modules a `lib.rs` declares (`pub mod name;` at the start of a line).
fn public_modules(lib: &str) -> Vec<String> {
    lib.lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(str::to_string)
        .collect()
}

/// The crate-level docs of a `lib.rs`: its `//!` lines.
fn crate_docs(lib: &str) -> String {
    lib.lines()
        .filter_map(|l| l.trim_start().strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether the docs link to module `m` (rustdoc's `[`m`]` or `[..](mod@m)`).
fn names_module(docs: &str, m: &str) -> bool {
    docs.contains(&format!("[`{m}`]")) || docs.contains(&format!("mod@{m})"))
}

fn missing_modules(lib: &str) -> Vec<String> {
    let docs = crate_docs(lib);
    public_modules(lib)
        .into_iter()
        .filter(|m| !names_module(&docs, m))
        .collect()
}

#[test]
fn every_crates_front_page_names_each_public_module() {
    let mut problems = Vec::new();
    let crates = fs::read_dir(root().join("crates")).expect("crates/");
    for entry in crates {
        let lib = entry.expect("entry").path().join("src/lib.rs");
        let Ok(text) = fs::read_to_string(&lib) else {
            continue;
        };
        for m in missing_modules(&text) {
            problems.push(format!("{}: module `{m}` is not named", lib.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_module_left_out_of_the_front_page_is_found() {
    let lib = "//! The modules: [`a`] and [`b`](mod@b).\npub mod a;\npub mod b;\npub mod c;\n";
    assert_eq!(missing_modules(lib), ["c"]);
}

/// The Markdown files of the docs: the READMEs, `docs/`, `tools/`.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name();
            let name = name.to_string_lossy();
            if p.is_dir() {
                if !name.starts_with('.') && name != "target" && name != "corpus" {
                    walk(&p, out);
                }
            } else if name.ends_with(".md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out
}

/// The relative link targets of a Markdown text (`](target)`, anchors dropped).
fn relative_links(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = md;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = &rest[..end];
        let external = target.contains("://") || target.starts_with("mailto:");
        if !external && !target.starts_with('#') && !target.contains(char::is_whitespace) {
            out.push(target.split('#').next().unwrap_or("").to_string());
        }
    }
    out
}

#[test]
fn every_relative_link_in_the_docs_reaches_a_file() {
    let files = markdown_files();
    assert!(files.len() > 5, "the docs were found: {files:?}");
    let mut problems = Vec::new();
    for f in files {
        let text = fs::read_to_string(&f).expect("readable");
        for link in relative_links(&text) {
            let target = f.parent().expect("dir").join(&link);
            if !target.exists() {
                problems.push(format!("{}: {link}", f.display()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "links to nothing:\n{}",
        problems.join("\n")
    );
}

#[test]
fn links_are_read_as_a_reader_follows_them() {
    let md = "See [a](docs/a.md#x), [b](https://x.org/b), [c](#here) and [d](../d.md).";
    assert_eq!(relative_links(md), ["docs/a.md", "../d.md"]);
}
