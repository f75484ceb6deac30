//! The quick reading of a simple game: most games of a database have nothing for the review.
//!
//! A rules finding needs a position that stood twice and that a move could make stand a third
//! time (a claim with a move makes a third occurrence; a claim without one needs three, and
//! came after such a move), a fifty-move count of 99 half-moves or more, or a claim recorded
//! in a comment. A game with none of these has no finding, no repetition
//! and no automatic ending, so it does not need [`threefold_rules::Game`] (every position
//! kept, its claims searched at every ply): [`read`] plays its moves on one position and
//! watches for these three things, and hands the game to the full reader as soon as one
//! appears, or as soon as anything in it is not plain.
//!
//! 1. **Plain form only.** Tag pairs one to a line (`[Name "value"]`, no escapes, no name
//!    twice, no `FEN`, `SetUp` or `Variant`), then a movetext of move numbers, moves, NAGs and
//!    `{...}` comments without an embedded `[%claim ...]`, ending with a result or the end of
//!    the piece. Tokens are read by the reader's own reading ([`threefold_rules::pgn::symbol`]);
//!    anything else (a variation, a `;` comment, an escape line, a token the reader refuses,
//!    a second game in the piece) goes to the full reader, which reads or refuses it with
//!    its line.
//! 2. **Moves as the rules core plays them**: `San::to_move` among the legal moves (an
//!    illegal or ambiguous move goes to the full reader, which names it), and no move after
//!    the game ended by insufficient material (checkmate and stalemate leave no legal move).
//! 3. **Repetitions, conservatively.** A position is compared by its board alone with the
//!    positions of the same side to move since the last irreversible move (the rules core's
//!    stretch, `Position::is_irreversible`): positions the rules call the same have the same
//!    board, so no repetition is missed. A board that stood twice is kept; as soon as the
//!    side to move could make it stand a third time with one move (one of its pieces, not a
//!    pawn, moved from one square to another, legal or not), the game goes to the full
//!    reader: a claim with a move is only there, and a third occurrence only comes after
//!    one. A match of boards with other castling or en passant rights only sends a game to
//!    the full reader.
//!
//! `tests/review_scan.rs` replays generated games through this and the full reader.

use shakmaty::{Chess, Position};
use threefold_rules::pgn::{MAX_PLIES, MAX_TAG_VALUE_BYTES, MAX_TOKEN_BYTES, Symbol, symbol};

/// The tags a plain game's report and the summary need.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlainTags {
    pub white: Option<String>,
    pub black: Option<String>,
    pub result: Option<String>,
    pub time_control: Option<String>,
    pub white_elo: Option<String>,
    pub black_elo: Option<String>,
}

impl PlainTags {
    /// The value of the tag `name`, among those kept.
    pub fn tag(&self, name: &str) -> Option<&str> {
        match name {
            "White" => self.white.as_deref(),
            "Black" => self.black.as_deref(),
            "Result" => self.result.as_deref(),
            "TimeControl" => self.time_control.as_deref(),
            "WhiteElo" => self.white_elo.as_deref(),
            "BlackElo" => self.black_elo.as_deref(),
            _ => None,
        }
    }
}

/// A game read quickly: nothing in it for the review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainGame {
    pub tags: PlainTags,
    /// The result token of the movetext, if any.
    pub result: Option<&'static str>,
    pub plies: usize,
}

/// What the quick reading made of a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quick {
    /// Whitespace only.
    Empty,
    Plain(PlainGame),
    /// A game whose `Variant` tag says xiangqi.
    Xiangqi,
    /// Anything else: the full reader reads it.
    Full,
}

/// Most tags a plain game may have (more: the full reader).
const MAX_PLAIN_TAGS: usize = 40;

/// Read `piece` quickly (see the module docs).
pub fn read(piece: &[u8]) -> Quick {
    read_inner(piece).unwrap_or(Quick::Full)
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A hash of the board alone: the same board gives the same hash.
fn board_hash(pos: &Chess) -> u64 {
    let b = pos.board();
    let mut h: u64 = 0;
    for bb in [
        b.pawns(),
        b.knights(),
        b.bishops(),
        b.rooks(),
        b.queens(),
        b.kings(),
        b.white(),
    ] {
        h = (h ^ bb.0)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
    h
}

/// Whether `to` is `from` with one piece of `side`, not a pawn, moved to another square
/// (what a reversible move does); conservative: whether the move is legal is not asked.
fn one_move_apart(from: &shakmaty::Board, to: &shakmaty::Board, side: shakmaty::Color) -> bool {
    let diff = from.occupied() ^ to.occupied();
    let left = from.occupied() & diff;
    let came = to.occupied() & diff;
    if left.count() != 1 || came.count() != 1 {
        return false;
    }
    let (Some(a), Some(b)) = (left.first(), came.first()) else {
        return false;
    };
    let Some(piece) = from.piece_at(a) else {
        return false;
    };
    if piece.color != side || piece.role == shakmaty::Role::Pawn || to.piece_at(b) != Some(piece) {
        return false;
    }
    // Every other square as it was.
    [
        shakmaty::Role::Pawn,
        shakmaty::Role::Knight,
        shakmaty::Role::Bishop,
        shakmaty::Role::Rook,
        shakmaty::Role::Queen,
        shakmaty::Role::King,
    ]
    .iter()
    .all(|&r| ((from.by_role(r) ^ to.by_role(r)) & !diff).is_empty())
        && ((from.white() ^ to.white()) & !diff).is_empty()
}

/// Whether a comment may hold a `[%claim ...]` command as the reader reads one: `[%`, any
/// whitespace, then `claim` (conservative: what follows is not looked at).
fn has_claim_command(comment: &[u8]) -> bool {
    memchr::memmem::find_iter(comment, b"[%").any(|at| {
        let rest = &comment[at + 2..];
        let word = rest
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(rest.len());
        rest[word..].starts_with(b"claim")
    })
}

/// `None`: not plain (the full reader reads it).
fn read_inner(p: &[u8]) -> Option<Quick> {
    let n = p.len();
    let mut i = 0;
    while i < n && is_space(p[i]) {
        i += 1;
    }
    if i == n {
        return Some(Quick::Empty);
    }
    // 1. Tags, one to a line.
    let mut names: Vec<&[u8]> = Vec::new();
    let mut tags = PlainTags::default();
    while i < n && p[i] == b'[' {
        let line_end = memchr::memchr(b'\n', &p[i..]).map_or(n, |j| i + j);
        let line = &p[i..line_end];
        let close = line.iter().rposition(|&b| b == b']')?;
        if !line[close + 1..]
            .iter()
            .all(|&b| b == b' ' || b == b'\r' || b == b'\t')
        {
            return None;
        }
        let inner = &line[1..close];
        let sp = inner.iter().position(|&b| b == b' ')?;
        let (name, rest) = (&inner[..sp], &inner[sp + 1..]);
        if name.is_empty()
            || !name[0].is_ascii_alphanumeric()
            || !name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_')
            || name.len() > MAX_TOKEN_BYTES
        {
            return None;
        }
        let value = rest.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
        if value.len() > MAX_TAG_VALUE_BYTES || value.iter().any(|&b| b == b'"' || b == b'\\') {
            return None;
        }
        if names.len() >= MAX_PLAIN_TAGS || names.contains(&name) {
            return None;
        }
        names.push(name);
        let text = || std::str::from_utf8(value).ok().map(str::to_string);
        match name {
            b"FEN" | b"SetUp" => return None,
            b"Variant" => {
                let v = std::str::from_utf8(value).ok()?;
                return Some(if v.trim().eq_ignore_ascii_case("xiangqi") {
                    Quick::Xiangqi
                } else {
                    return None;
                });
            }
            b"White" => tags.white = Some(text()?),
            b"Black" => tags.black = Some(text()?),
            b"Result" => tags.result = Some(text()?),
            b"TimeControl" => tags.time_control = Some(text()?),
            b"WhiteElo" => tags.white_elo = Some(text()?),
            b"BlackElo" => tags.black_elo = Some(text()?),
            _ => {
                std::str::from_utf8(value).ok()?;
            }
        }
        i = line_end;
        while i < n && is_space(p[i]) {
            i += 1;
        }
    }
    // 2. The movetext.
    let mut pos = Chess::default();
    let mut window: Vec<u64> = Vec::with_capacity(64);
    window.push(board_hash(&pos));
    // Boards that stood twice in the stretch, with the parity of their ply.
    let mut doubled: Vec<(shakmaty::Board, usize)> = Vec::new();
    let mut plies = 0usize;
    let mut result: Option<&'static str> = None;
    let mut ended = false;
    let mut breaks = 0;
    let mut any = false;
    while i < n {
        let b = p[i];
        match b {
            b'\n' => {
                breaks += 1;
                i += 1;
                if breaks >= 2 && any {
                    // A blank line ends the game: only whitespace may follow in the piece.
                    if !p[i..].iter().all(|&b| is_space(b)) {
                        return None;
                    }
                    break;
                }
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'{' => {
                let j = memchr::memchr(b'}', &p[i..])?;
                let comment = &p[i + 1..i + j];
                if has_claim_command(comment) {
                    return None;
                }
                breaks = 0;
                i += j + 1;
                continue;
            }
            b'*' => {
                if result.is_some() {
                    return None;
                }
                result = Some("*");
                any = true;
                breaks = 0;
                i += 1;
                continue;
            }
            _ => {}
        }
        if !threefold_rules::pgn::is_symbol_token_byte(b) {
            return None;
        }
        // A symbol: its bytes, a move number's dots ending it.
        let start = i;
        i += 1;
        while i < n && threefold_rules::pgn::is_symbol_token_byte(p[i]) {
            if p[i] != b'.' && p[i - 1] == b'.' {
                break;
            }
            i += 1;
        }
        if i - start > MAX_TOKEN_BYTES || result.is_some() {
            return None;
        }
        any = true;
        breaks = 0;
        match symbol(&p[start..i]).ok()? {
            Symbol::MoveNumber | Symbol::Nag => {}
            Symbol::Result(r) => result = Some(r),
            Symbol::Move(san) => {
                if ended || plies >= MAX_PLIES {
                    return None;
                }
                let m = san.san.to_move(&pos).ok()?;
                let irreversible = pos.is_irreversible(m);
                let material = m.is_capture() || m.is_promotion();
                pos.play_unchecked(m);
                plies += 1;
                if irreversible {
                    window.clear();
                }
                if irreversible {
                    doubled.clear();
                }
                let h = board_hash(&pos);
                if window.iter().rev().skip(1).step_by(2).any(|&x| x == h) {
                    // The position stands for (at least) the second time.
                    doubled.push((pos.board().clone(), plies % 2));
                }
                window.push(h);
                // A move to a position that stood twice would make a claim: read it fully.
                if doubled.iter().any(|(d, parity)| {
                    *parity != plies % 2 && one_move_apart(pos.board(), d, pos.turn())
                }) {
                    return None;
                }
                if pos.halfmoves() >= 99 {
                    return None;
                }
                if material && pos.is_insufficient_material() {
                    ended = true;
                }
            }
        }
    }
    if names.is_empty() && !any {
        // Comments alone: no game, for the reader too.
        return Some(Quick::Empty);
    }
    Some(Quick::Plain(PlainGame {
        tags,
        result,
        plies,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::SanPlus;

    fn movetext(sans: &[String]) -> String {
        let mut t = String::from("[White \"A\"]\n\n");
        for (i, s) in sans.iter().enumerate() {
            if i % 2 == 0 {
                t.push_str(&format!("{}. ", i / 2 + 1));
            }
            t.push_str(s);
            t.push(' ');
        }
        t.push_str("*\n");
        t
    }

    /// 1. e4 e5 2. d4 d5, then quiet moves of pieces, each to a board not seen before.
    fn quiet_game(plies: usize) -> Vec<String> {
        let mut pos = Chess::default();
        let mut sans = Vec::new();
        for s in ["e4", "e5", "d4", "d5"] {
            let m = s.parse::<SanPlus>().unwrap().san.to_move(&pos).unwrap();
            sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        }
        let mut seen = std::collections::HashSet::new();
        while sans.len() < plies {
            let next = pos.legal_moves().into_iter().find(|m| {
                if m.is_capture() || m.role() == shakmaty::Role::Pawn || m.is_castle() {
                    return false;
                }
                let mut p = pos.clone();
                p.play_unchecked(*m);
                !seen.contains(&(p.board().clone(), p.turn()))
            });
            let m = next.expect("a quiet move to a new board");
            sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
            seen.insert((pos.board().clone(), pos.turn()));
        }
        sans
    }

    #[test]
    fn fifty_moves_without_a_capture_or_pawn_move_go_to_the_full_reader() {
        // 99 half-moves since the last pawn move: a claim with a move is there.
        let long = quiet_game(4 + 99);
        assert_eq!(read(movetext(&long).as_bytes()), Quick::Full);
        let short = quiet_game(4 + 98);
        assert!(matches!(read(movetext(&short).as_bytes()), Quick::Plain(g) if g.plies == 102));
    }

    #[test]
    fn a_position_that_stood_twice_goes_to_the_full_reader_once_a_move_could_repeat_it() {
        let sans = |t: &str| t.split(' ').map(str::to_string).collect::<Vec<_>>();
        // Out and back once: the start stood twice, and no move of White's makes it again.
        let once = sans("Nf3 Nf6 Ng1 Ng8 e4");
        assert!(matches!(read(movetext(&once).as_bytes()), Quick::Plain(_)));
        // Out and back, then out again: positions stood twice, but no move makes a third
        // occurrence (4.Ng1 makes 2.Ng1's second).
        let twice = sans("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 e4");
        assert!(matches!(read(movetext(&twice).as_bytes()), Quick::Plain(_)));
        // After 4.Ng1, 4...Ng8 would make the start's third occurrence: a claim.
        let again = sans("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 e5");
        assert_eq!(read(movetext(&again).as_bytes()), Quick::Full);
        // A recorded claim, a FEN, a variation: the full reader.
        for text in [
            "1. e4 {[%claim now]} *",
            "1. e4 {[% claim now]} *",
            "1. e4 {[%clk 0:01:00] [%\nclaim move 9.2]} *",
            "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n*",
            "1. e4 (1. d4) *",
        ] {
            assert_eq!(read(text.as_bytes()), Quick::Full, "{text}");
        }
        assert_eq!(read(b"[Variant \"Xiangqi\"]\n\n1. h2e2 *"), Quick::Xiangqi);
        // Comments alone are no game (the fuzzer's find), tags alone are one.
        assert_eq!(read(b"{a comment}\n{another}\n"), Quick::Empty);
        assert!(matches!(read(b"[White \"A\"]\n"), Quick::Plain(g) if g.plies == 0));
    }
}
