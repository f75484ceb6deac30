//! The games of a PGN text for the xiangqi review's tests, cut by the scan's own splitter
//! (`threefold_review::scan::split`, as `threefold review --all` cuts a file): (first line,
//! text) of each game.

pub fn split_games(text: &str) -> Vec<(usize, &str)> {
    let mut splitter = threefold_review::scan::split::Splitter::new(text.as_bytes(), 1);
    let mut games = Vec::new();
    let mut offset = 0;
    while let Some(batch) = splitter.next_batch().expect("reading a string") {
        for span in &batch.spans {
            let piece = &text[offset + span.range.start..offset + span.range.end];
            if !piece.trim().is_empty() {
                games.push((span.line, piece));
            }
        }
        offset += batch.bytes.len();
    }
    games
}
