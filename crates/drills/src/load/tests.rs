use threefold_rules::Game;

use super::shared::Src;
use super::*;

#[test]
fn line_numbers_are_those_of_a_newline_count() {
    let text = "a\n\nbc\r\nd\n";
    let src = Src::new(Path::new("t.toml"), text);
    for offset in 0..=text.len() + 3 {
        let counted = text.as_bytes()[..offset.min(text.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        assert_eq!(src.line(offset), counted, "offset {offset}");
    }
    assert_eq!(Src::new(Path::new("e"), "").line(0), 1);
}

#[test]
fn move_numbers_and_results_are_dropped() {
    let t: Vec<String> = tokens("1. e4 e5 2.Nf3 Nc6\n3... a6 12...Nf6 O-O 1/2-1/2")
        .unwrap()
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    assert_eq!(t, ["e4", "e5", "Nf3", "Nc6", "a6", "Nf6", "O-O"]);
    let lines: Vec<usize> = tokens("1. e4\n e5\n\n2. Nf3")
        .unwrap()
        .iter()
        .map(|t| t.0)
        .collect();
    assert_eq!(lines, [0, 1, 3]);
    assert!(tokens("  ").unwrap().is_empty());
    assert_eq!(tokens("0-1").unwrap()[..], []);
    assert_eq!(tokens("1. e4 e5 2. 0-0").unwrap()[2].1, "O-O");
    assert_eq!(
        tokens("e4\n e5 blah").map_err(|(line, reason)| (line, reason.to_string())),
        Err((1, "cannot read 'blah' as a move".into()))
    );
}

#[test]
fn labels_resolve_with_or_without_check_marks_and_spaces() {
    let mut g = Game::new();
    for m in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"] {
        g.play_san(m).unwrap();
    }
    assert_eq!(find_label(&g, "start"), Some(0));
    assert_eq!(find_label(&g, "0"), Some(0));
    assert_eq!(find_label(&g, "7"), Some(7));
    assert_eq!(find_label(&g, "8"), None);
    assert_eq!(find_label(&g, "2.Qh5"), Some(3));
    assert_eq!(find_label(&g, "after 3... Nf6"), Some(6));
    assert_eq!(find_label(&g, "4.Qxf7#"), Some(7));
    assert_eq!(find_label(&g, "4.Qxf7"), Some(7));
    assert_eq!(find_label(&g, "4...Qxf7"), None);
}

#[test]
fn a_puzzle_line_is_its_header_line() {
    let text = "name = \"x\"\n\n[[puzzle]]\nid = \"a\"\ntitle = \"t\"\nask = \"ending\"\nanswer = \"no\"\nexplanation = \"x\"\n";
    let (theme, problems) = load_str(Path::new("x.toml"), text);
    assert!(problems.is_empty(), "{problems:?}");
    let p = &theme.unwrap().puzzles[0];
    assert_eq!(p.origin.line, 3);
    assert_eq!(p.answer_origin.line, 7);
}

#[test]
fn move_lines_are_right_with_crlf_line_ends() {
    let text = "[[puzzle]]\r\nid = \"a\"\r\ntitle = \"t\"\r\nmoves = \"\"\"\r\n1. e4 e5\r\n2. Ke3\r\n\"\"\"\r\nask = \"ending\"\r\nanswer = \"no\"\r\nexplanation = \"x\"\r\n";
    let (_, problems) = load_str(Path::new("x.toml"), text);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].line, Some(6), "{}", problems[0]);
}

/// A theme's name and description are read by the one reader both games' files share
/// (`shared::read_theme`): a description that is not a string is a problem at its line in a
/// chess file as in a xiangqi file (the chess loader used to drop it silently), and a
/// multi-line one is one paragraph. Broken to see it fail: `text_of` returning `None` for a
/// non-string value without pushing the problem.
#[test]
fn both_games_read_a_themes_name_and_description_alike() {
    let puzzle = "[[puzzle]]\nid = \"a\"\ntitle = \"t\"\nask = \"ending\"\nanswer = \"no\"\nexplanation = \"x\"\n";
    let chess = format!("name = \"Ends\"\ndescription = 3\n{puzzle}");
    let (theme, problems) = load_str(Path::new("x.toml"), &chess);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].line, Some(2), "{}", problems[0]);
    assert!(
        problems[0]
            .to_string()
            .contains("'description' must be a string")
    );
    let theme = theme.unwrap();
    assert_eq!(
        (theme.name.as_str(), theme.description.as_str()),
        ("Ends", "")
    );
    let xq = "game = \"xiangqi\"\ndescription = 3\n";
    let (_, problems) = crate::xiangqi::load_str(Path::new("x.toml"), xq);
    assert!(
        problems
            .iter()
            .any(|p| p.line == Some(2) && p.to_string().contains("'description' must be a string")),
        "{problems:?}"
    );
    let folded = format!("description = \"\"\"\none\n  two\n\"\"\"\n{puzzle}");
    let (theme, problems) = load_str(Path::new("x.toml"), &folded);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(theme.unwrap().description, "one two");
}
