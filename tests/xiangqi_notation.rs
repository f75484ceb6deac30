//! UCCI and WXF notation, both ways.

use threefold::rules::shuffle::Rng;
use threefold::xiangqi::notation::{MoveError, parse_move, parse_ucci, parse_wxf, wxf};
use threefold::xiangqi::{Move, Position, START_FEN};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn wxf_of(p: &Position, ucci: &str) -> String {
    wxf(p, parse_ucci(p, ucci).unwrap())
}

#[test]
fn opening_moves_both_sides() {
    let mut p = Position::start();
    assert_eq!(wxf_of(&p, "h2e2"), "C2=5");
    assert_eq!(wxf_of(&p, "b2e2"), "C8=5");
    assert_eq!(wxf_of(&p, "h0g2"), "H2+3");
    assert_eq!(wxf_of(&p, "i0i1"), "R1+1");
    assert_eq!(wxf_of(&p, "g3g4"), "P3+1");
    assert_eq!(wxf_of(&p, "c0e2"), "E7+5");
    assert_eq!(wxf_of(&p, "f0e1"), "A4+5");
    assert_eq!(wxf_of(&p, "e0e1"), "K5+1");
    p.make(parse_ucci(&p, "h2e2").unwrap());
    // Black counts files from its own right (file a is Black's 1).
    assert_eq!(wxf_of(&p, "h7e7"), "C8=5");
    assert_eq!(wxf_of(&p, "b7e7"), "C2=5");
    assert_eq!(wxf_of(&p, "h9g7"), "H8+7");
    assert_eq!(wxf_of(&p, "a9a8"), "R1+1");
    assert_eq!(wxf_of(&p, "c6c5"), "P3+1");
    assert_eq!(wxf_of(&p, "f9e8"), "A6+5");
    assert_eq!(wxf_of(&p, "e9e8"), "K5+1");
    assert_eq!(parse_wxf(&p, "H8+7").unwrap().ucci(), "h9g7");
}

/// The paper's Figure 1: R2+1, K6+1, R2-1, K6-1.
#[test]
fn figure_1_notation() {
    let mut p = pos("5k3/7R1/9/9/9/9/9/9/9/4K4 w - - 0 1");
    for (w, u) in [
        ("R2+1", "h8h9"),
        ("K6+1", "f9f8"),
        ("R2-1", "h9h8"),
        ("K6-1", "f8f9"),
    ] {
        let m = parse_wxf(&p, w).unwrap();
        assert_eq!(m.ucci(), u, "{w}");
        assert_eq!(wxf(&p, m), w);
        p.make(m);
    }
}

#[test]
fn tandem_rooks_cannons_horses() {
    // Two red rooks on file e (Red's 5), two black cannons on file b (Black's 2).
    let p = pos("3k5/9/1c7/9/4R4/1c7/4R4/9/9/5K3 w - - 0 1");
    assert_eq!(wxf_of(&p, "e5e7"), "R++2");
    assert_eq!(wxf_of(&p, "e3a3"), "R-=9");
    assert_eq!(wxf_of(&p, "e3e1"), "R--2");
    // Sign-first and plain-digit spellings are read too.
    assert_eq!(parse_wxf(&p, "+R+2").unwrap().ucci(), "e5e7");
    assert_eq!(parse_wxf(&p, "-R.9").unwrap().ucci(), "e3a3");
    let mut q = p.clone();
    q.make(parse_ucci(&q, "e5e6").unwrap());
    // Black's front cannon is the one nearer Red (lower rank).
    assert_eq!(wxf_of(&q, "b4b0"), "C++4");
    assert_eq!(wxf_of(&q, "b7a7"), "C-=1");
}

#[test]
fn tandem_pawns() {
    // Three red pawns on file c (Red's 7), all across the river.
    let p3 = pos("4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(wxf_of(&p3, "c7d7"), "P+=6");
    assert_eq!(wxf_of(&p3, "c6d6"), "P7=6");
    assert_eq!(wxf_of(&p3, "c5d5"), "P-=6");
    assert_eq!(parse_wxf(&p3, "+P.6").unwrap().ucci(), "c7d7");
    // Five pawns on a file: ++, P+, P<file>, P-, --.
    let p5 = pos("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(wxf_of(&p5, "c9b9"), "++=8");
    assert_eq!(wxf_of(&p5, "c8b8"), "P+=8");
    assert_eq!(wxf_of(&p5, "c7b7"), "P7=8");
    assert_eq!(wxf_of(&p5, "c6b6"), "P-=8");
    assert_eq!(wxf_of(&p5, "c5b5"), "--=8");
    // Four: ++, P+, P-, --.
    let p4 = pos("4k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(wxf_of(&p4, "c8b8"), "++=8");
    assert_eq!(wxf_of(&p4, "c7b7"), "P+=8");
    assert_eq!(wxf_of(&p4, "c6b6"), "P-=8");
    assert_eq!(wxf_of(&p4, "c5b5"), "--=8");
    // Tandem pawns on two files: the file replaces the letter.
    let pp = pos("4k4/9/2P3P2/2P3P2/2P6/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(wxf_of(&pp, "c7d7"), "7+=6");
    assert_eq!(wxf_of(&pp, "c6d6"), "77=6");
    assert_eq!(wxf_of(&pp, "c5d5"), "7-=6");
    assert_eq!(wxf_of(&pp, "g7f7"), "3+=4");
    assert_eq!(wxf_of(&pp, "g6h6"), "3-=2");
}

#[test]
fn bad_tokens_are_named() {
    let p = Position::start();
    assert!(matches!(
        parse_move(&p, "hello"),
        Err(MoveError::NotAMove(_))
    ));
    assert!(matches!(
        parse_move(&p, "z9z9"),
        Err(MoveError::NotAMove(_))
    ));
    let e = parse_move(&p, "h2h8").unwrap_err().to_string();
    assert!(e.contains("h2h8") && e.contains("cannot move"), "{e}");
    let e = parse_move(&p, "e5e6").unwrap_err().to_string();
    assert!(e.contains("no piece on e5"), "{e}");
    let e = parse_move(&p, "b9c7").unwrap_err().to_string();
    assert!(e.contains("Black's"), "{e}");
    let e = parse_move(&p, "R2+1").unwrap_err().to_string();
    assert!(e.contains("R2+1") && e.contains("no legal red move"), "{e}");
    // Moving the screen off the file exposes the king to the flying general.
    let q = pos("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1");
    let e = parse_move(&q, "e5d7").unwrap_err().to_string();
    assert!(e.contains("face each other"), "{e}");
}

/// Every legal move of every position of generated games: UCCI -> WXF ->
/// move and WXF -> UCCI -> move give the move back, and no two legal moves
/// share a WXF spelling.
#[test]
fn round_trip_on_generated_games() {
    let starts = [
        START_FEN,
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
        "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1",
    ];
    let mut rng = Rng::new(0x5eed);
    let mut checked = 0;
    for fen in starts {
        for _game in 0..12 {
            let mut p = pos(fen);
            for _ply in 0..120 {
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mut seen = std::collections::HashSet::new();
                for &m in legal.as_slice() {
                    let w = wxf(&p, m);
                    assert!(seen.insert(w.clone()), "{w} names two moves in {}", p.fen());
                    assert_eq!(parse_wxf(&p, &w).unwrap(), m, "{w} in {}", p.fen());
                    assert_eq!(parse_move(&p, &m.ucci()).unwrap(), m);
                    assert_eq!(parse_move(&p, &w.to_lowercase()).unwrap(), m);
                    checked += 1;
                }
                let m: Move = legal.as_slice()[rng.below(legal.len())];
                p.make(m);
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}
