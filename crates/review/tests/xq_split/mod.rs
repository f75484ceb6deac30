//! The games of a PGN text, for the xiangqi review's tests and `examples/xq_totals.rs`
//! (`threefold review --all` splits files with its own scanner): (first line, text) of each
//! game, a game starting at a tag line that follows movetext (or at the first line).

pub fn split_games(text: &str) -> Vec<(usize, &str)> {
    let mut starts = vec![0usize];
    let mut in_moves = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('[') {
            if in_moves {
                starts.push(offset);
                in_moves = false;
            }
        } else if !t.is_empty() {
            in_moves = true;
        }
        offset += line.len();
    }
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| (text[..w[0]].matches('\n').count() + 1, &text[w[0]..w[1]]))
        .filter(|(_, g)| !g.trim().is_empty())
        .collect()
}
