//! Print every built-in puzzle's prompt and the feedback for its stated
//! answer: `cargo run --example drill_feedback [ID]`.

fn main() {
    let only = std::env::args().nth(1);
    let coll = threefold::drills::load_builtin();
    for p in coll.puzzles() {
        if only.as_deref().is_some_and(|id| id != p.id) {
            continue;
        }
        let f = threefold::drills::judge(p, &p.answer);
        println!("== {} [{}] {}", p.id, p.theme, p.title);
        println!("Q: {}", p.prompt());
        println!("A: {}  (correct: {})", f.expected, f.correct);
        println!("{}", f.explanation);
        println!("highlight: {:?}\n", f.plies_to_highlight);
    }
}
