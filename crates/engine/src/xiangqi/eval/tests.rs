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

/// The terms counted the slow way, point by point with [`Square::new`] (how they were first
/// written): the oracle for the tables and occupancy bits of [`terms::counts`].
fn counts_point_by_point(pos: &Position) -> [[i32; terms::COUNT]; 2] {
    use terms::*;
    const STEPS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let at = |sq: Square, df: i8, dr: i8| {
        let (f, r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
        if f < 0 || r < 0 {
            None
        } else {
            Square::new(f as u8, r as u8)
        }
    };
    let mut t = [[0; COUNT]; 2];
    let (mut advisors, mut elephants, mut attackers) = ([0; 2], [0; 2], [0; 2]);
    for (sq, piece) in pos.pieces() {
        let c = piece.color as usize;
        match piece.kind {
            Kind::Rook => {
                attackers[c] += 2;
                for (df, dr) in STEPS {
                    let mut cur = sq;
                    while let Some(next) = at(cur, df, dr) {
                        match pos.piece_at(next) {
                            None => t[c][ROOK_MOBILITY] += 1,
                            Some(p) => {
                                t[c][ROOK_MOBILITY] += i32::from(p.color != piece.color);
                                break;
                            }
                        }
                        cur = next;
                    }
                }
            }
            Kind::Horse => {
                attackers[c] += 1;
                for (df, dr) in STEPS {
                    let Some(leg) = at(sq, df, dr) else { continue };
                    if pos.piece_at(leg).is_some() {
                        continue;
                    }
                    for side in [1, -1] {
                        if let Some(to) = at(leg, df + side * dr, dr + side * df)
                            && pos.piece_at(to).is_none_or(|p| p.color != piece.color)
                        {
                            t[c][HORSE_MOBILITY] += 1;
                        }
                    }
                }
            }
            Kind::Cannon => {
                attackers[c] += 1;
                let king = pos.king(if c == 0 { Color::Black } else { Color::Red });
                let (lo, hi) = (sq.rank().min(king.rank()), sq.rank().max(king.rank()));
                if king.file() == sq.file()
                    && (lo + 1..hi)
                        .all(|r| pos.piece_at(Square::new(sq.file(), r).unwrap()).is_none())
                {
                    t[c][HOLLOW_CANNON] += 1;
                }
            }
            Kind::Advisor => advisors[c] += 1,
            Kind::Elephant => elephants[c] += 1,
            Kind::Pawn => {
                if sq.across_river(piece.color)
                    && at(sq, 1, 0).is_some_and(|n| pos.piece_at(n) == Some(piece))
                {
                    t[c][PAWN_PAIR] += 1;
                }
            }
            Kind::King => {}
        }
    }
    for c in 0..2 {
        t[c][BARE_ADVISORS] = (2 - advisors[c]) * attackers[1 - c];
        t[c][BARE_ELEPHANTS] = (2 - elephants[c]) * attackers[1 - c];
    }
    t
}

/// The positions of [`FENS`] and every position along pseudo-random games from each (a
/// fixed linear congruential sequence picks the moves), so that pieces stand on every
/// kind of point: edges, corners, next to each other, alone on a line.
fn played_out() -> Vec<Position> {
    let mut all = positions();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for fen in FENS {
        for _ in 0..8 {
            let mut p = pos(fen);
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let m = moves.as_slice()[(seed >> 33) as usize % moves.len()];
                p.make(m);
                all.push(p.clone());
            }
        }
    }
    all
}

/// The counts from precomputed tables and occupancy bits are those of walking the points.
#[test]
fn terms_counts_match_walking_the_points() {
    let all = played_out();
    assert!(all.len() > 5_000, "{}", all.len());
    for p in all {
        assert_eq!(terms::counts(&p), counts_point_by_point(&p), "{}", p.fen());
    }
}
