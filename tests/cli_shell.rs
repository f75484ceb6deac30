//! What a shell and `man` get from threefold: `--version` with the commit, completions that
//! complete, manual pages for every command.

use std::process::{Command, Output};

fn threefold(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every subcommand the binary has, as `--help` lists them.
fn subcommands() -> Vec<String> {
    let help = stdout(&threefold(&["--help"]));
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

#[test]
fn version_names_the_commit_it_was_built_from() {
    let out = threefold(&["--version"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!("threefold {} (commit ", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
    let head = Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    match head {
        Ok(h) if h.status.success() => {
            let hash = String::from_utf8_lossy(&h.stdout).trim().to_string();
            assert!(
                text.contains(&format!("(commit {hash})")),
                "{text} vs {hash}"
            );
        }
        // Built outside a git checkout: the build script says so.
        _ => assert!(text.contains("(commit unknown)"), "{text}"),
    }
}

#[test]
fn bash_completion_completes_subcommands_and_options() {
    let script = stdout(&threefold(&["completions", "bash"]));
    let complete = |words: &str| -> String {
        // As bash calls a completion function: the command, the word being completed and
        // the word before it.
        let cword = words.split(' ').count() - 1;
        let prog = format!(
            "{script}\nCOMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE='{words}'; \
             COMP_POINT=${{#COMP_LINE}}; \
             _threefold threefold \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; \
             printf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        let out = Command::new("bash")
            .args(["--norc", "-c", &prog])
            .output()
            .expect("bash runs");
        stdout(&out)
    };
    let subs = subcommands();
    assert!(subs.len() >= 10, "{subs:?}");
    let all = complete("threefold ''");
    for sub in &subs {
        assert!(all.lines().any(|l| l == sub), "{sub} not offered: {all}");
    }
    let an = complete("threefold an");
    assert_eq!(an.lines().collect::<Vec<_>>(), ["analyze"], "{an}");
    let opts = complete("threefold review --");
    assert!(opts.lines().any(|l| l == "--pgn"), "{opts}");
}

#[test]
fn every_shell_gets_a_script_naming_every_subcommand() {
    let subs = subcommands();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = threefold(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let script = stdout(&out);
        for sub in &subs {
            assert!(script.contains(sub.as_str()), "{shell} lacks {sub}");
        }
    }
    let bad = threefold(&["completions", "tcsh"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn man_pages_cover_every_command() {
    let main = stdout(&threefold(&["man"]));
    assert!(
        main.contains(".TH threefold 1"),
        "{}",
        &main[..200.min(main.len())]
    );
    let dir = std::env::temp_dir().join(format!("threefold-man-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = threefold(&["man", "--dir", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for sub in subcommands() {
        let page = dir.join(format!("threefold-{sub}.1"));
        let text = std::fs::read_to_string(&page).unwrap_or_else(|_| panic!("no {page:?}"));
        assert!(text.contains(&format!(".TH threefold-{sub} 1")), "{page:?}");
    }
    assert!(dir.join("threefold-xiangqi-judge.1").is_file());
    let missing = threefold(&["man", "--dir", dir.join("nope").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("is not a directory"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Help and version that cannot be written (a full disk, here `/dev/full`): one line on
/// stderr and exit 2, as every command's output. clap's own printing exited 0, the text lost.
/// The usage of a wrong command still goes to stderr with exit 2.
#[cfg(target_os = "linux")]
#[test]
fn help_and_version_say_when_standard_output_cannot_be_written() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["--version"],
        &["analyze", "--help"],
        &["help", "review"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(
            stderr,
            "error: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
        // Written where it can be: exit 0.
        assert_eq!(threefold(args).status.code(), Some(0), "{args:?}");
    }
    let out = threefold(&["analyze", "--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.is_empty());
}
