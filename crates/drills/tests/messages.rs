//! What `drills --check` and the puzzles from your games say about bad input: one line per
//! problem, each said once.

use std::path::Path;

use threefold_drills::from_games::add_puzzles;
use threefold_drills::load_str;

/// An answer listing one move many times is one line with the count (it was one line per
/// repetition: 99,999 identical lines for 100,000), and an unreadable move listed again is
/// one line too.
#[test]
fn a_repeated_answer_is_said_once_with_its_count() {
    let answer = vec!["\"Nf3\""; 1000].join(", ") + ", \"Zz9\", \"Zz9\"";
    let text = format!(
        "name = \"R\"\ndescription = \"x\"\n\n[[puzzle]]\nid = \"r-1\"\ntitle = \"t\"\n\
         moves = \"1. Nf3 Nf6 2. Ng1 Ng8\"\nask = \"claim-moves\"\nanswer = [{answer}]\n\
         explanation = \"x\"\ndifficulty = 1\n"
    );
    let (_, problems) = load_str(Path::new("rep.toml"), &text);
    let lines: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].ends_with(
            "answer move 'Zz9': cannot read move 'Zz9': not a SAN move (e.g. \
             Nf3, exd5, O-O, e8=Q) (listed twice)"
        ),
        "{lines:?}"
    );
    assert_eq!(
        lines[1],
        "rep.toml:9: puzzle 'r-1': answer lists 'Nf3' 1000 times"
    );
}

/// A puzzle file that cannot be read (a directory) is named once with the reason, which is
/// the message's and not also its source: through anyhow's `{:#}` (the binary's edge) it
/// read "Is a directory (os error 21): Is a directory (os error 21)". The one file reader
/// refuses a directory before reading it.
#[cfg(unix)]
#[test]
fn an_unreadable_puzzle_file_says_why_once() {
    let dir = std::env::temp_dir().join(format!("tf-msg-{}", std::process::id()));
    let path = dir.join("from-your-games.toml");
    std::fs::create_dir_all(&path).unwrap();
    let e = add_puzzles(&path, &[]).unwrap_err();
    assert!(std::error::Error::source(&e).is_none(), "{e:?}");
    let text = e.to_string();
    assert_eq!(
        text,
        format!(
            "cannot read {}: a directory, not a regular file; nothing was added",
            path.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}
