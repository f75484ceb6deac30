//! The traditional Chinese notation (炮二平五): known moves, and over generated games that it
//! names the piece that moves and agrees with the WXF notation on piece and motion.

use threefold_xiangqi::notation::{MoveError, chinese, parse_chinese, parse_ucci, wxf};
use threefold_xiangqi::{Color, Kind, Move, Position, START_FEN, Square};

// Only the generator is used here, not the shuffling starts.
#[allow(dead_code)]
mod common;
use common::Rng;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn zh(p: &Position, ucci: &str) -> String {
    chinese(p, parse_ucci(p, ucci).unwrap())
}

fn play(p: &mut Position, ucci: &str) {
    let m = parse_ucci(p, ucci).unwrap();
    p.make(m);
}

#[test]
fn opening_moves_both_sides() {
    let mut p = Position::start();
    assert_eq!(zh(&p, "h2e2"), "炮二平五");
    assert_eq!(zh(&p, "b2e2"), "炮八平五");
    assert_eq!(zh(&p, "h0g2"), "傌二進三");
    assert_eq!(zh(&p, "i0i1"), "俥一進一");
    assert_eq!(zh(&p, "a0a1"), "俥九進一");
    assert_eq!(zh(&p, "c3c4"), "兵七進一");
    assert_eq!(zh(&p, "c0e2"), "相七進五");
    assert_eq!(zh(&p, "f0e1"), "仕四進五");
    assert_eq!(zh(&p, "e0e1"), "帥五進一");
    assert_eq!(zh(&p, "h2h9"), "炮二進七");
    play(&mut p, "h2e2");
    // Black counts files from its own right (file a is Black's 1), in digits.
    assert_eq!(zh(&p, "h9g7"), "馬8進7");
    assert_eq!(zh(&p, "b9c7"), "馬2進3");
    assert_eq!(zh(&p, "h7e7"), "砲8平5");
    assert_eq!(zh(&p, "a9a8"), "車1進1");
    assert_eq!(zh(&p, "c6c5"), "卒3進1");
    assert_eq!(zh(&p, "f9e8"), "士6進5");
    assert_eq!(zh(&p, "e9e8"), "將5進1");
    play(&mut p, "h9g7");
    play(&mut p, "a0a1");
    play(&mut p, "g7h9");
    assert_eq!(zh(&p, "a1d1"), "俥九平六");
    assert_eq!(zh(&p, "e2e1"), "炮五退一");
    play(&mut p, "a1b1");
    // Black's horse back where it came from: 馬7退8.
    assert_eq!(zh(&p, "h9g7"), "馬8進7");
    // 車九平八 (rook to the 8th file), the brief's opening move, in the board's characters.
    let mut q = Position::start();
    play(&mut q, "b0c2");
    play(&mut q, "b9c7");
    assert_eq!(zh(&q, "a0b0"), "俥九平八");
    assert_eq!(zh(&q, "c2b0"), "傌七退八");
}

/// The paper's Figure 1 (Tan and Watkinson Medina 2024): R2+1, K6+1, R2-1, K6-1.
#[test]
fn figure_1() {
    let mut p = pos("5k3/7R1/9/9/9/9/9/9/9/4K4 w");
    let mut got = Vec::new();
    for ucci in ["h8h9", "f9f8", "h9h8", "f8f9"] {
        got.push(zh(&p, ucci));
        play(&mut p, ucci);
    }
    assert_eq!(got, ["俥二進一", "將6進1", "俥二退一", "將6退1"]);
}

#[test]
fn tandem_rooks_cannons_horses() {
    // Two red rooks on file e (Red's 5), two black cannons on file b (Black's 2).
    let p = pos("3k5/9/1c7/9/4R4/1c7/4R4/9/9/5K3 w - - 0 1");
    assert_eq!(zh(&p, "e5e7"), "前俥進二");
    assert_eq!(zh(&p, "e3a3"), "後俥平九");
    assert_eq!(zh(&p, "e3e1"), "後俥退二");
    let mut q = p.clone();
    play(&mut q, "e5e6");
    // Black's front cannon is the one nearer Red (lower rank).
    assert_eq!(zh(&q, "b4b0"), "前砲進4");
    assert_eq!(zh(&q, "b7a7"), "後砲平1");
    // Two horses on one file: the front one.
    let h = pos("3k5/9/9/9/9/9/2N6/9/2N6/4K4 w - - 0 1");
    assert_eq!(zh(&h, "c3d5"), "前傌進六");
    assert_eq!(zh(&h, "c1a0"), "後傌退九");
}

#[test]
fn tandem_pawns() {
    // Three red pawns on file c (Red's 7): 前 中 後.
    let p3 = pos("4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(zh(&p3, "c7d7"), "前兵平六");
    assert_eq!(zh(&p3, "c6d6"), "中兵平六");
    assert_eq!(zh(&p3, "c5d5"), "後兵平六");
    // Five pawns on a file: 前 二 三 四 五 from the front.
    let p5 = pos("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(zh(&p5, "c9b9"), "前兵平八");
    assert_eq!(zh(&p5, "c8b8"), "二兵平八");
    assert_eq!(zh(&p5, "c7b7"), "三兵平八");
    assert_eq!(zh(&p5, "c6b6"), "四兵平八");
    assert_eq!(zh(&p5, "c5b5"), "五兵平八");
    // Four: 前 二 三 四.
    let p4 = pos("4k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(zh(&p4, "c8b8"), "前兵平八");
    assert_eq!(zh(&p4, "c7b7"), "二兵平八");
    assert_eq!(zh(&p4, "c6b6"), "三兵平八");
    assert_eq!(zh(&p4, "c5b5"), "四兵平八");
    // Tandem pawns on two files: the file replaces the pawn.
    let pp = pos("4k4/9/2P3P2/2P3P2/2P6/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(zh(&pp, "c7d7"), "前七平六");
    assert_eq!(zh(&pp, "c6d6"), "中七平六");
    assert_eq!(zh(&pp, "c5d5"), "後七平六");
    assert_eq!(zh(&pp, "g7f7"), "前三平四");
    assert_eq!(zh(&pp, "g6h6"), "後三平二");
    // Black's pawns: front is nearer Red; digits.
    let b = pos("3k5/9/9/9/9/2p6/2p6/9/9/4K4 b - - 0 1");
    assert_eq!(zh(&b, "c3c2"), "前卒進1");
    assert_eq!(zh(&b, "c4d4"), "後卒平4");
}

/// The red numerals and Black's digits, each a file 1–9.
fn number(c: char) -> Option<u8> {
    "一二三四五六七八九"
        .chars()
        .position(|x| x == c)
        .or_else(|| "123456789".chars().position(|x| x == c))
        .map(|i| i as u8 + 1)
}

fn kind_of(c: char) -> Option<(Color, Kind)> {
    let red = "帥仕相傌俥炮兵".chars().position(|x| x == c);
    let black = "將士象馬車砲卒".chars().position(|x| x == c);
    let kinds = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];
    red.map(|i| (Color::Red, kinds[i]))
        .or_else(|| black.map(|i| (Color::Black, kinds[i])))
}

/// Reads a Chinese move by the rules written out plainly (not by the crate's code): the
/// piece it names, and the WXF spelling those rules give the same move.
fn read_back(p: &Position, text: &str, m: Move) -> (Square, String) {
    let c: Vec<char> = text.chars().collect();
    assert_eq!(c.len(), 4, "{text}");
    let side = p.side_to_move();
    let file_of = |n: u8| match side {
        Color::Red => 9 - n,
        Color::Black => n - 1,
    };
    let ahead = |s: &Square| match side {
        Color::Red => -(s.rank() as i32),
        Color::Black => s.rank() as i32,
    };
    // Like pieces on a file, front first.
    let column = |kind: Kind, file: u8| {
        let mut v: Vec<Square> = p
            .pieces()
            .filter(|(s, q)| q.color == side && q.kind == kind && s.file() == file)
            .map(|(s, _)| s)
            .collect();
        v.sort_by_key(ahead);
        v
    };
    let place = |ch: char, count: usize| -> usize {
        match ch {
            '前' => 0,
            '中' => 1,
            '後' => count - 1,
            '二' => 1,
            '三' => 2,
            '四' => 3,
            '五' => 4,
            _ => panic!("{text}: no place {ch}"),
        }
    };
    // The WXF head of the k-th of `count` (front first), by the WXF notation page's table.
    let wxf_head = |letter: char, digit: char, k: usize, count: usize| -> String {
        let forms: Vec<String> = match count {
            1 => vec![format!("{letter}{digit}")],
            2 => vec![format!("{letter}+"), format!("{letter}-")],
            3 => vec![format!("P+"), format!("P{digit}"), format!("P-")],
            4 => vec!["++".into(), "P+".into(), "P-".into(), "--".into()],
            _ => vec![
                "++".into(),
                "P+".into(),
                format!("P{digit}"),
                "P-".into(),
                "--".into(),
            ],
        };
        forms[k].clone()
    };
    let (from, head) = if let Some((color, kind)) = kind_of(c[0]) {
        assert_eq!(color, side, "{text}");
        let n = number(c[1]).expect("a file");
        let col = column(kind, file_of(n));
        assert_eq!(col.len(), 1, "{text}: a file names a piece alone on it");
        (col[0], format!("{}{n}", kind.wxf_letter()))
    } else if let Some((color, kind)) = kind_of(c[1]) {
        assert_eq!(color, side, "{text}");
        // The piece's file: the one of the moving piece (a place names it on its file).
        let col = column(kind, m.from().file());
        let k = place(c[0], col.len());
        let digit = char::from(
            b'0' + (match side {
                Color::Red => 9 - m.from().file(),
                Color::Black => m.from().file() + 1,
            }),
        );
        (col[k], wxf_head(kind.wxf_letter(), digit, k, col.len()))
    } else {
        // Place and file: a pawn on one of two files with tandem pawns.
        let n = number(c[1]).expect("a file");
        let col = column(Kind::Pawn, file_of(n));
        let k = place(c[0], col.len());
        let digit = char::from(b'0' + n);
        let h = wxf_head('P', digit, k, col.len());
        let second = h.chars().nth(1).expect("two characters");
        (col[k], format!("{digit}{second}"))
    };
    let sign = match c[2] {
        '進' => '+',
        '退' => '-',
        '平' => '=',
        x => panic!("{text}: no direction {x}"),
    };
    let arg = number(c[3]).expect("a number");
    (from, format!("{head}{sign}{arg}"))
}

/// Random legal moves from several starts, some with many pawns on a file, a few thousand
/// plies in all: at every position every legal move's Chinese notation names the piece that
/// moves, says what the WXF notation says, and no two legal moves share a spelling.
#[test]
fn chinese_names_the_same_piece_and_motion_as_wxf() {
    let starts = [
        START_FEN,
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
        "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
        "4k4/9/2P3P2/2P3P2/2P6/9/9/9/9/3K5 w - - 0 1",
        "3k5/9/9/9/9/2pP5/2p6/2p1p4/2p6/4K4 b - - 0 1",
        "3k5/9/1c7/9/4R4/1c7/4R4/9/9/5K3 w - - 0 1",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut plies, mut checked, mut tandem) = (0, 0, 0);
    for round in 0..6 {
        for fen in starts {
            let mut p = pos(fen);
            for _ in 0..(if round == 0 { 300 } else { 80 }) {
                let legal = p.legal_moves();
                let moves = legal.as_slice();
                if moves.is_empty() {
                    break;
                }
                let mut seen = std::collections::HashSet::new();
                for &m in moves {
                    let text = chinese(&p, m);
                    let (from, as_wxf) = read_back(&p, &text, m);
                    assert_eq!(from, m.from(), "{text} names another piece in {}", p.fen());
                    assert_eq!(as_wxf, wxf(&p, m), "{text} in {}", p.fen());
                    assert!(
                        seen.insert(text.clone()),
                        "two moves written {text} in {}",
                        p.fen()
                    );
                    checked += 1;
                    if kind_of(text.chars().next().unwrap()).is_none() {
                        tandem += 1;
                    }
                }
                let m = moves[rng.below(moves.len())];
                p.make(m);
                plies += 1;
            }
        }
    }
    assert!(plies > 3_000, "{plies} plies");
    assert!(tandem > 500, "only {tandem} tandem moves among {checked}");
}

/// Reading: what `chinese` writes reads back to the move, and so do the usual variants
/// (simplified characters, either side's piece characters, full-width digits).
#[test]
fn parse_chinese_reads_what_is_written_and_its_variants() {
    let p = Position::start();
    let read = |p: &Position, t: &str| parse_chinese(p, t).map(|m| m.ucci());
    assert_eq!(read(&p, "炮二平五").unwrap(), "h2e2");
    assert_eq!(read(&p, "车一进一").unwrap(), "i0i1");
    assert_eq!(read(&p, "車九進一").unwrap(), "a0a1");
    assert_eq!(read(&p, "马二进三").unwrap(), "h0g2");
    let mut q = p.clone();
    play(&mut q, "h2e2");
    assert_eq!(read(&q, "馬8進7").unwrap(), "h9g7");
    assert_eq!(read(&q, "马８进７").unwrap(), "h9g7");
    assert_eq!(read(&q, "炮8平5").unwrap(), "h7e7");
    let t = pos("3k5/9/1c7/9/4R4/1c7/4R4/9/9/5K3 w - - 0 1");
    assert_eq!(read(&t, "前车进二").unwrap(), "e5e7");
    assert_eq!(read(&t, "後俥平九").unwrap(), "e3a3");
    assert!(matches!(
        parse_chinese(&p, "hello"),
        Err(MoveError::NotChinese(_))
    ));
    assert!(matches!(
        parse_chinese(&p, "炮二進九"),
        Err(MoveError::Illegal { .. })
    ));
    // Every legal move of generated games reads back from its text.
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for fen in [START_FEN, "4k4/9/2P3P2/2P3P2/2P6/9/9/9/9/3K5 w - - 0 1"] {
        let mut p = pos(fen);
        for _ in 0..150 {
            let legal = p.legal_moves();
            let moves = legal.as_slice();
            if moves.is_empty() {
                break;
            }
            for &m in moves {
                let text = chinese(&p, m);
                assert_eq!(parse_chinese(&p, &text), Ok(m), "{text} in {}", p.fen());
            }
            p.make(moves[rng.below(moves.len())]);
        }
    }
}
