//! The layers are enforced, not only documented.
//!
//! - Between crates: each crate's manifest names exactly the threefold crates it may use (the
//!   picture in the README, "The crates"), so Cargo refuses an import across a layer.
//! - Within the trainer (`src/tui`): the modules' imports form no circle; the leaf modules
//!   (board widget, key table, line editor, theme, config, ...) import no screen; the screens
//!   import no other screen; `impl App` is written only in `app.rs`, the router.
//!
//! The trainer's imports are read from its source text: every path through `super::` or
//! `crate::tui::` names the module it reaches. Test code (`*tests.rs` files and `#[cfg(test)]`
//! blocks) is left out: a test may drive the whole app.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The threefold crates each crate may use (its `[dependencies]`).
const CRATES: &[(&str, &[&str])] = &[
    ("crates/rules", &[]),
    ("crates/xiangqi", &[]),
    ("crates/engine", &["threefold-rules", "threefold-xiangqi"]),
    ("crates/drills", &["threefold-rules", "threefold-xiangqi"]),
    (
        "crates/review",
        &["threefold-engine", "threefold-rules", "threefold-xiangqi"],
    ),
    (
        "crates/lab",
        &["threefold-engine", "threefold-rules", "threefold-xiangqi"],
    ),
    (
        ".",
        &[
            "threefold-drills",
            "threefold-engine",
            "threefold-lab",
            "threefold-review",
            "threefold-rules",
            "threefold-xiangqi",
        ],
    ),
];

/// The trainer's leaf modules: they may import each other, never a screen or the router.
const LEAVES: &[&str] = &[
    "board",
    "clock",
    "config",
    "engine_thread",
    "engines",
    "game",
    "keys",
    "line_edit",
    "prompt",
    "screen",
    "terminal",
    "theme",
    "tty_wait",
    "widgets",
    "xq_board",
];

/// The router: it uses the screens; nothing but the run loop (`mod.rs`) uses it.
const ROUTER: &[&str] = &["app"];

/// The threefold crates named in the `[dependencies]` (and target-specific dependencies) of
/// a manifest; dev-dependencies are left out (a test may use anything).
fn threefold_deps(manifest: &str) -> BTreeSet<String> {
    let mut deps = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            continue;
        }
        if in_deps
            && let Some(name) = line.split(['.', '=', ' ']).next()
            && name.starts_with("threefold")
        {
            deps.insert(name.to_string());
        }
    }
    deps
}

#[test]
fn each_crate_uses_only_the_layers_below_it() {
    for (dir, allowed) in CRATES {
        let path = Path::new(ROOT).join(dir).join("Cargo.toml");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let got = threefold_deps(&text);
        let want: BTreeSet<String> = allowed.iter().map(|s| s.to_string()).collect();
        assert_eq!(got, want, "{dir}/Cargo.toml");
    }
    // Every crate of the workspace is in the table.
    let mut dirs: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("crates"))
        .unwrap()
        .map(|e| format!("crates/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    dirs.sort();
    let mut listed: Vec<String> = CRATES
        .iter()
        .filter(|(d, _)| *d != ".")
        .map(|(d, _)| d.to_string())
        .collect();
    listed.sort();
    assert_eq!(dirs, listed, "a crate missing from the table of layers");
}

/// The source files of the trainer outside test code, with the top-level module of each
/// (`chess` for `src/tui/chess.rs` and `src/tui/chess/*.rs`; `mod` for `src/tui/mod.rs`).
fn trainer_files() -> Vec<(String, usize, PathBuf)> {
    fn walk(dir: &Path, top: Option<&str>, depth: usize, out: &mut Vec<(String, usize, PathBuf)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                walk(&path, Some(top.unwrap_or(&name)), depth + 1, out);
            } else if path.extension().is_some_and(|e| e == "rs") && !name.ends_with("tests") {
                let module = match top {
                    Some(t) => t.to_string(),
                    None => name.clone(),
                };
                out.push((module, depth, path));
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(ROOT).join("src/tui"), None, 0, &mut out);
    out.sort();
    out
}

/// The text without its `#[cfg(test)]` items (a test module runs to the end of its block).
fn without_test_code(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        // Skip to the end of the item: the end of its line if it ends with `;`, else its
        // brace block.
        let line_end = after.find('\n').unwrap_or(after.len());
        let next = &after[line_end..];
        let item_line_end = next[1.min(next.len())..]
            .find('\n')
            .map_or(next.len(), |i| i + 1);
        let item_line = &next[..item_line_end];
        if item_line.trim_end().ends_with(';') {
            rest = &next[item_line_end..];
            continue;
        }
        let Some(open) = after.find('{') else {
            rest = "";
            break;
        };
        let mut depth = 0;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Drops comments (`//` to the end of the line), so a module named in a doc is not an import.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first names of the paths at `text` (just after a `::`): `a` in `a::b`, `a` and `c`
/// in `{a::b, c}`.
fn heads(text: &str) -> Vec<String> {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        let mut names = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    names.extend(heads(&group[start..i]));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    names.extend(heads(&group[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
        return names;
    }
    let name: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() { vec![] } else { vec![name] }
}

/// The trainer modules each trainer module uses.
fn trainer_imports() -> BTreeMap<String, BTreeSet<String>> {
    let files = trainer_files();
    let mut modules: BTreeSet<String> = files.iter().map(|(m, _, _)| m.clone()).collect();
    // Names src/tui/mod.rs re-exports from a module (`pub use app::render;`) stand for it.
    let mut alias: BTreeMap<String, String> = BTreeMap::new();
    let root = std::fs::read_to_string(Path::new(ROOT).join("src/tui/mod.rs")).unwrap();
    for line in root.lines() {
        if let Some(path) = line
            .trim()
            .strip_prefix("pub use ")
            .and_then(|l| l.strip_suffix(';'))
            && let Some((module, name)) = path.split_once("::")
            && modules.contains(module)
            && !name.contains("::")
        {
            alias.insert(name.to_string(), module.to_string());
        }
    }
    modules.extend(alias.keys().cloned());
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, depth, path) in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let text = without_comments(&without_test_code(&text));
        let file_is_dir_root = path.file_name().is_some_and(|n| n == "mod.rs");
        // How many `super::` reach src/tui from this file.
        let up = if *depth == 0 {
            1
        } else if file_is_dir_root {
            *depth
        } else {
            *depth + 1
        };
        let to_tui = "super::".repeat(up);
        let mut used = BTreeSet::new();
        for prefix in ["crate::tui::", to_tui.as_str()] {
            let mut at = 0;
            while let Some(i) = text[at..].find(prefix) {
                let start = at + i;
                at = start + prefix.len();
                // `super::super::x` also contains `super::x`: only whole prefixes count.
                if prefix.starts_with("super") && text[..start].ends_with("super::") {
                    continue;
                }
                if prefix.starts_with("super") && text[at..].starts_with("super::") {
                    continue;
                }
                used.extend(
                    heads(&text[at..])
                        .into_iter()
                        .filter(|m| modules.contains(m)),
                );
            }
        }
        if *depth == 0 && module == "mod" {
            // src/tui/mod.rs names its children directly.
            for m in &modules {
                if text.contains(&format!("{m}::")) {
                    used.insert(m.clone());
                }
            }
        }
        used.remove(module);
        graph.entry(module.clone()).or_default().extend(used);
    }
    graph
}

/// A circle of imports, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|n| n == next).unwrap();
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            let mut stack = Vec::new();
            if let Some(c) = visit(node, graph, &mut state, &mut stack) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_trainers_imports_form_no_circle() {
    let mut graph = trainer_imports();
    // The run loop (`mod.rs`) declares every module; it is the top, not part of a circle.
    graph.remove("mod");
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "the trainer's modules import each other in a circle: {}",
            cycle.join(" -> ")
        );
    }
}

#[test]
fn leaves_import_no_screen_and_screens_no_other_screen() {
    let graph = trainer_imports();
    for (module, used) in &graph {
        if module == "mod" || ROUTER.contains(&module.as_str()) {
            continue;
        }
        let leaf = LEAVES.contains(&module.as_str());
        for u in used {
            assert!(
                LEAVES.contains(&u.as_str()),
                "{} `{module}` imports `{u}`, which is not a leaf module",
                if leaf {
                    "the leaf module"
                } else {
                    "the screen"
                },
            );
        }
    }
}

#[test]
fn impl_app_only_in_the_router() {
    for (module, _, path) in trainer_files() {
        let text = without_comments(&std::fs::read_to_string(&path).unwrap());
        if ROUTER.contains(&module.as_str()) {
            continue;
        }
        assert!(
            !text.contains("impl App {") && !text.contains("impl App\n"),
            "{} has an `impl App`: only the router (app.rs) may",
            path.display()
        );
    }
}

/// The two games' screens: the chess folder (game screen, drills, Euwe, review) with its board
/// widget and the xiangqi folder (game screen, drills, review) with its board widget never
/// import each other, and the parts both games share (`game`, the screen contract
/// `screen`) import neither: what both games have is written once, beside them.
#[test]
fn the_two_games_screens_import_neither_each_other_nor_from_the_shared_parts() {
    const CHESS: &[&str] = &["chess", "board"];
    const XIANGQI: &[&str] = &["xiangqi", "xq_board"];
    const SHARED: &[&str] = &["game", "screen"];
    let graph = trainer_imports();
    for name in CHESS.iter().chain(XIANGQI).chain(SHARED) {
        assert!(graph.contains_key(*name), "the trainer has `{name}`");
    }
    let imports = |m: &str| graph.get(m).cloned().unwrap_or_default();
    for c in CHESS {
        for x in XIANGQI {
            assert!(
                !imports(c).contains(*x),
                "the chess part `{c}` imports `{x}`"
            );
            assert!(
                !imports(x).contains(*c),
                "the xiangqi part `{x}` imports `{c}`"
            );
        }
    }
    for s in SHARED {
        for g in CHESS.iter().chain(XIANGQI) {
            assert!(
                !imports(s).contains(*g),
                "the shared part `{s}` imports `{g}`"
            );
        }
    }
}

/// The checks above can fail: a circle, a leaf importing a screen.
#[test]
fn the_checks_can_fail() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    assert!(find_cycle(&g).is_none());
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(find_cycle(&g).unwrap(), ["a", "b", "c", "a"]);
    assert_eq!(
        heads("{app::App, keys::{self, Cmd}, theme}"),
        ["app", "keys", "theme"]
    );
    assert_eq!(heads("render::Areas;"), ["render"]);
    let stripped =
        without_test_code("use super::a;\n#[cfg(test)]\nmod tests {\n use super::b; }\nfn x() {}");
    assert!(
        stripped.contains("super::a")
            && !stripped.contains("super::b")
            && stripped.contains("fn x")
    );
    let deps = threefold_deps(
        "[dependencies]\nthreefold-rules.workspace = true\nshakmaty = \"1\"\n[dev-dependencies]\nthreefold-engine = \"1\"\n",
    );
    assert_eq!(deps.into_iter().collect::<Vec<_>>(), ["threefold-rules"]);
}
