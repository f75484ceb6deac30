use super::*;

/// Positions of several kinds: the opening, contact between rooks, cannons and horses, pawns
/// across the river, bare endings (the lab's xiangqi bench starts and a few more).
const FENS: &[&str] = &[
    threefold_xiangqi::START_FEN,
    "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
    "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
    "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
    "4kab2/4a4/4P2Rn/1R7/4n1p2/2p5P/6P2/4B4/9/3AKABN1 b - - 2 29",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
];

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The position and every position one legal move away, for each of [`FENS`].
fn positions() -> Vec<Position> {
    let mut all = Vec::new();
    for fen in FENS {
        let root = pos(fen);
        for &m in root.legal_moves().as_slice() {
            let mut p = root.clone();
            p.make(m);
            all.push(p);
        }
        all.push(root);
    }
    all
}

/// The board of `fen` seen from the other side: colours swapped, ranks reversed, the other
/// side to move.
fn colour_flipped(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board: Vec<String> = fields
        .next()
        .unwrap()
        .split('/')
        .rev()
        .map(|rank| {
            rank.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if fields.next() == Some("w") { "b" } else { "w" };
    format!("{} {side}", board.join("/"))
}

/// The board of `fen` mirrored left to right (file a ↔ file i).
fn mirrored(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board: Vec<String> = fields
        .next()
        .unwrap()
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    format!("{} {}", board.join("/"), fields.next().unwrap())
}

#[test]
fn colour_flipped_positions_score_the_same_for_the_side_to_move() {
    for p in positions() {
        let fen = p.fen();
        let flipped = pos(&colour_flipped(&fen));
        assert_eq!(
            evaluate(&p),
            evaluate(&flipped),
            "{fen} / {}",
            flipped.fen()
        );
    }
}

#[test]
fn mirrored_positions_score_the_same() {
    let mut differ = 0;
    for p in positions() {
        let fen = p.fen();
        let mirror = pos(&mirrored(&fen));
        differ += usize::from(mirror != p);
        assert_eq!(evaluate(&p), evaluate(&mirror), "{fen} / {}", mirror.fen());
    }
    assert!(differ > 100, "the positions must not all be symmetric");
}

#[test]
fn start_position_is_near_even() {
    let v = evaluate(&Position::start());
    assert!(v.abs() < 50, "{v}");
    assert_eq!(v, params::TEMPO);
}

#[test]
fn a_rook_up_is_winning() {
    // The start position without Black's a9 rook: more than 600 for Red to move, and the
    // same less two tempi against Black to move (Fairy-Stockfish's depth-8 search gives
    // Black to move -679).
    let red = pos("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let black = pos("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert!(evaluate(&red) > 600, "{}", evaluate(&red));
    assert_eq!(evaluate(&black), 2 * params::TEMPO - evaluate(&red));
    // And worth more than a horse or a cannon.
    let no_horse = pos("r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let no_cannon = pos("rnbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    assert!(evaluate(&red) > evaluate(&no_horse));
    assert!(evaluate(&red) > evaluate(&no_cannon));
}

#[test]
fn a_pawn_across_the_river_is_worth_more() {
    // Red's e-pawn at home (e3), then across the river (e5), Black's mirror image absent.
    let home = pos("4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1");
    let across = pos("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1");
    assert!(
        evaluate(&across) > evaluate(&home) + 30,
        "{} {}",
        evaluate(&across),
        evaluate(&home)
    );
}

#[test]
fn piece_values_are_the_material_weights() {
    for kind in Kind::ALL {
        if kind == Kind::King {
            assert_eq!(piece_value(kind), KING_VALUE);
        } else {
            assert_eq!(piece_value(kind), params::MATERIAL[kind as usize - 1]);
            assert!(piece_value(kind) < KING_VALUE);
        }
    }
    assert!(piece_value(Kind::Rook) > piece_value(Kind::Cannon));
    assert!(piece_value(Kind::Rook) > piece_value(Kind::Horse));
    assert!(piece_value(Kind::Horse) > piece_value(Kind::Pawn));
}

#[test]
fn groups_cover_every_weight_once() {
    let mut next = 0;
    for (name, at, len) in GROUPS {
        assert_eq!(at, next, "{name}");
        next += len;
    }
    assert_eq!(next, feature::COUNT);
}

/// The trace and the weights give back the evaluation exactly, so the tuner fits what the
/// search uses.
#[test]
fn trace_reproduces_the_evaluation() {
    let weights: Vec<f64> = WEIGHTS.iter().map(|&w| f64::from(w)).collect();
    let mut checked = 0;
    for p in positions() {
        let t = trace(&p);
        let red = t.red_score(&weights);
        let stm = if t.red_to_move { red } else { -red };
        assert_eq!(stm, f64::from(evaluate(&p)), "{}", p.fen());
        checked += 1;
    }
    assert!(checked > 200, "{checked}");
}

/// Each positional term counts what its documentation says, per side.
#[test]
fn terms_count_what_they_say() {
    use terms::*;
    // The start: each rook reaches two points up its file, each horse's only free leg leads
    // to two points; nothing else.
    let t = terms::counts(&Position::start());
    for side in t {
        assert_eq!(side, [4, 4, 0, 0, 0, 0]);
    }
    // Red's cannon on e1 faces Black's king on e9 with nothing between; two red pawns side by
    // side across the river; Black has no advisor or elephant against one red attacker.
    let t = terms::counts(&pos("4k4/9/9/9/2PP5/9/9/9/4C4/3K5 w - - 0 1"));
    assert_eq!(t[Color::Red as usize][HOLLOW_CANNON], 1);
    assert_eq!(t[Color::Red as usize][PAWN_PAIR], 1);
    assert_eq!(t[Color::Black as usize][BARE_ADVISORS], 2);
    assert_eq!(t[Color::Black as usize][BARE_ELEPHANTS], 2);
    assert_eq!(t[Color::Red as usize][BARE_ADVISORS], 0);
    // A piece between the cannon and the king: no longer hollow.
    let t = terms::counts(&pos("4k4/4a4/9/9/2PP5/4P4/9/9/4C4/3K5 w - - 0 1"));
    assert_eq!(t[Color::Red as usize][HOLLOW_CANNON], 0);
}
