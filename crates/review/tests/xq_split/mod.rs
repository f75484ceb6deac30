//! The games of a PGN text, for the xiangqi review's tests and `examples/xq_totals.rs`
//! (`threefold review --all` splits files with its own scanner): (first line, text) of each
//! game, a game starting at a tag line that follows movetext (or at the first line).

pub fn split_games(text: &str) -> Vec<(usize, &str)> {
    let mut games = Vec::new();
    let (mut start, mut start_line) = (0, 1);
    let mut in_moves = false;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            if in_moves {
                games.push((start_line, &text[start..offset]));
                (start, start_line) = (offset, i + 1);
                in_moves = false;
            }
        } else if !t.is_empty() {
            in_moves = true;
        }
        offset += line.len();
    }
    games.push((start_line, &text[start..]));
    games.retain(|(_, g)| !g.trim().is_empty());
    games
}
