//! Generated PGN databases for the review benchmark (`tools/bench_review.py`, the example
//! `gen_pgn`): random legal games with the tags and clock comments of a lichess monthly dump,
//! deterministic for a seed, written fast (about as fast as the rules core replays games).
//!
//! Each game:
//! - is 20 to 160 plies long, or shorter where the rules end it (checkmate, stalemate,
//!   insufficient material, fivefold repetition, seventy-five moves: [`Game`] rules on them);
//!   half of the moves are captures where one exists, so material comes off and games end;
//! - has lichess's tags (Event, Site, Date, Round, White, Black, Result, WhiteElo, BlackElo,
//!   TimeControl, Termination): a game that the rules did not end was resigned or lost on
//!   time (its Result and Termination say which);
//! - in about half of the games, has a `{ [%clk 0:03:12] }` comment after every move;
//! - in about 3 % of the games ([`SHUFFLE_PERCENT`]), has a shuffle: a piece of each side goes
//!   out and back twice, so the position before it stands a third time; half of these games
//!   end there, drawn by a claim, the others play on (a claim nobody made).
//!
//! The PGN is written by the rules core's writer ([`threefold_rules::pgn::write_annotated`]).

use std::io::{self, Write};

use shakmaty::{Move, Role};
use threefold_rules::Game;
use threefold_rules::pgn::{Note, Notes, write_annotated};
use threefold_rules::shuffle::Rng;

/// Percent of the games with a shuffle (a position standing three times).
pub const SHUFFLE_PERCENT: usize = 3;

/// The shortest and longest game, in plies, where the rules do not end it first.
pub const PLIES: std::ops::RangeInclusive<usize> = 20..=160;

/// lichess's time controls (seconds + increment) and their class, the Event's word.
const TIME_CONTROLS: &[(u32, u32, &str)] = &[
    (60, 0, "Bullet"),
    (120, 1, "Bullet"),
    (180, 0, "Blitz"),
    (180, 2, "Blitz"),
    (300, 0, "Blitz"),
    (300, 3, "Blitz"),
    (600, 0, "Rapid"),
    (600, 5, "Rapid"),
    (900, 10, "Rapid"),
    (1800, 0, "Classical"),
    (1800, 20, "Classical"),
];

/// How much to write: a number of games, or at least a number of bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Games(u64),
    Bytes(u64),
}

/// What [`write`] wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub games: u64,
    pub bytes: u64,
    /// Games with a shuffle (a position standing three times).
    pub shuffles: u64,
}

/// One generated game: its PGN text and whether it has a shuffle.
pub struct GeneratedGame {
    pub pgn: String,
    pub shuffle: bool,
}

/// A legal move that can be undone by the reverse move: a knight, bishop or queen moving
/// without capturing (a king or rook move could lose castling rights, a pawn cannot go back).
fn out_and_back(game: &Game, rng: &mut Rng) -> Option<Move> {
    let quiet: Vec<Move> = game
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| {
            !m.is_capture()
                && matches!(m.role(), Role::Knight | Role::Bishop | Role::Queen)
                && !m.is_promotion()
        })
        .collect();
    (!quiet.is_empty()).then(|| quiet[rng.below(quiet.len())])
}

/// The reverse of a quiet piece move.
fn back(m: Move) -> Option<Move> {
    match m {
        Move::Normal { role, from, to, .. } => Some(Move::Normal {
            role,
            from: to,
            capture: None,
            to: from,
            promotion: None,
        }),
        _ => None,
    }
}

/// Plays a shuffle: `a` and a reply `b` out and back twice (8 plies), so the position before
/// them stands three times. `false` (the game left where it was) where it cannot be made.
fn shuffle(game: &mut Game, rng: &mut Rng) -> bool {
    let Some(a) = out_and_back(game, rng) else {
        return false;
    };
    let mut trial = game.clone();
    if trial.play(a).is_err() || trial.is_over() {
        return false;
    }
    let Some(b) = out_and_back(&trial, rng) else {
        return false;
    };
    let (Some(a_back), Some(b_back)) = (back(a), back(b)) else {
        return false;
    };
    let mut trial = game.clone();
    for m in [a, b, a_back, b_back, a, b, a_back, b_back] {
        if trial.play(m).is_err() || trial.is_over() {
            return false;
        }
    }
    *game = trial;
    true
}

/// `h:mm:ss`, as lichess writes a clock.
fn clock(secs: u32) -> String {
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// The next game of a file generated with `rng`.
pub fn game(rng: &mut Rng) -> GeneratedGame {
    let length = PLIES.start() + rng.below(PLIES.end() - PLIES.start() + 1);
    let with_shuffle = rng.below(100) < SHUFFLE_PERCENT;
    let shuffle_at = 10 + rng.below(length.min(40) - 10);
    let with_clock = rng.below(2) == 0;
    let (base, increment, class) = TIME_CONTROLS[rng.below(TIME_CONTROLS.len())];
    let mut game = Game::new();
    let mut clocks = [base; 2];
    let mut notes = Notes::new();
    let mut shuffled = false;
    let mut claimed = false;
    while game.len() < length && !game.is_over() {
        if with_shuffle && !shuffled && game.len() >= shuffle_at {
            let before = game.len();
            if shuffle(&mut game, rng) {
                shuffled = true;
                // Half of the shuffles end in a draw claimed there.
                claimed = rng.below(2) == 0;
                for ply in before + 1..=game.len() {
                    if with_clock {
                        let side = (ply - 1) % 2;
                        clocks[side] = (clocks[side] + increment).saturating_sub(1);
                        notes.insert(
                            ply,
                            Note {
                                nags: Vec::new(),
                                comments: vec![format!(" [%clk {}] ", clock(clocks[side]))],
                            },
                        );
                    }
                }
                if claimed {
                    break;
                }
                continue;
            }
        }
        let legal = game.legal_moves();
        let captures = legal.iter().filter(|m| m.is_capture()).count();
        let m = if captures > 0 && rng.below(2) == 0 {
            *legal
                .iter()
                .filter(|m| m.is_capture())
                .nth(rng.below(captures))
                .expect("a capture")
        } else {
            legal[rng.below(legal.len())]
        };
        game.play(m).expect("a legal move");
        if with_clock {
            let side = (game.len() - 1) % 2;
            let spent = rng.below((base / 20).max(2) as usize) as u32;
            clocks[side] = (clocks[side] + increment).saturating_sub(spent);
            notes.insert(
                game.len(),
                Note {
                    nags: Vec::new(),
                    comments: vec![format!(" [%clk {}] ", clock(clocks[side]))],
                },
            );
        }
    }
    // A game the rules did not end: a claim, a resignation or a flag.
    let (result, termination) = if claimed {
        ("1/2-1/2", "Normal")
    } else {
        match rng.below(20) {
            0..=7 => ("1-0", "Normal"),
            8..=15 => ("0-1", "Normal"),
            16 => ("1/2-1/2", "Normal"),
            17 => ("1-0", "Time forfeit"),
            _ => ("0-1", "Time forfeit"),
        }
    };
    let mut site = String::from("https://lichess.org/");
    const ID: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for _ in 0..8 {
        site.push(ID[rng.below(ID.len())] as char);
    }
    let event = format!("Rated {class} game");
    let date = format!("2024.{:02}.{:02}", 1 + rng.below(12), 1 + rng.below(28));
    let white = format!("player{}", rng.below(1_000_000));
    let black = format!("player{}", rng.below(1_000_000));
    let white_elo = (800 + rng.below(2000)).to_string();
    let black_elo = (800 + rng.below(2000)).to_string();
    let time_control = format!("{base}+{increment}");
    let tags = [
        ("Event", event.as_str()),
        ("Site", &site),
        ("Date", &date),
        ("Round", "-"),
        ("White", &white),
        ("Black", &black),
        ("Result", result),
        ("WhiteElo", &white_elo),
        ("BlackElo", &black_elo),
        ("TimeControl", &time_control),
        ("Termination", termination),
    ];
    GeneratedGame {
        pgn: write_annotated(&game, &tags, &notes),
        shuffle: shuffled,
    }
}

/// Writes games generated from `seed` to `out`, a blank line after each, until `size`.
pub fn write(out: &mut dyn Write, size: Size, seed: u64) -> io::Result<Written> {
    let mut rng = Rng::new(seed);
    let mut w = Written::default();
    loop {
        let done = match size {
            Size::Games(n) => w.games >= n,
            Size::Bytes(n) => w.bytes >= n,
        };
        if done {
            return Ok(w);
        }
        let g = game(&mut rng);
        out.write_all(g.pgn.as_bytes())?;
        out.write_all(b"\n")?;
        w.games += 1;
        w.bytes += g.pgn.len() as u64 + 1;
        w.shuffles += u64::from(g.shuffle);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use threefold_rules::pgn::PgnReader;

    #[test]
    fn the_same_seed_writes_the_same_file_and_another_seed_another() {
        let file = |seed| {
            let mut out = Vec::new();
            let w = write(&mut out, Size::Games(50), seed).unwrap();
            assert_eq!(w.games, 50);
            assert_eq!(w.bytes, out.len() as u64);
            out
        };
        assert_eq!(file(7), file(7));
        assert_ne!(file(7), file(8));
        let mut out = Vec::new();
        let w = write(&mut out, Size::Bytes(100_000), 1).unwrap();
        assert!(w.bytes >= 100_000 && w.bytes < 110_000, "{w:?}");
    }

    #[test]
    fn games_read_back_with_their_tags_lengths_clocks_and_shuffles() {
        let mut out = Vec::new();
        let w = write(&mut out, Size::Games(2000), 37).unwrap();
        let mut reader = PgnReader::new(&out[..], "generated.pgn");
        let (mut games, mut threefold, mut ended, mut long) = (0, 0, 0, 0);
        while let Some((rec, game)) = reader.next_game().unwrap() {
            games += 1;
            for tag in [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "WhiteElo",
                "BlackElo",
                "TimeControl",
                "Termination",
            ] {
                assert!(rec.tag(tag).is_some(), "game {games}: no {tag}");
            }
            assert!(
                game.len() <= *PLIES.end(),
                "game {games}: {} plies",
                game.len()
            );
            long += usize::from(game.len() >= *PLIES.start());
            ended += usize::from(game.is_over());
            // A position stood three times.
            threefold += usize::from(game.records().iter().any(|r| r.occurrence >= 3));
        }
        let text = String::from_utf8(out).unwrap();
        let clocked = text
            .split("[Event ")
            .filter(|g| g.contains("[%clk "))
            .count();
        assert_eq!(games, 2000);
        assert_eq!(w.games, 2000);
        // About half with clocks, 3 % with a shuffle (at least those), most of full length.
        assert!((800..1200).contains(&clocked), "{clocked} with clocks");
        assert!(
            w.shuffles >= 30 && w.shuffles <= 90,
            "{} shuffles",
            w.shuffles
        );
        assert!(
            threefold as u64 >= w.shuffles,
            "{threefold} threefold, {w:?}"
        );
        assert!(ended > 100, "{ended} ended by the rules");
        assert!(long > 1500, "{long} of 20 plies or more");
    }
}
