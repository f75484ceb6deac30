//! The sparring measurement (issue 39 item 1): how often a repetition the player can claim
//! arises in games against the sparring engine ([`threefold_engine::sparring`]).
//!
//! The engine at one level, sparring on (or off, the reference), plays games against a
//! *stand-in* for the player: the engine at a fixed weaker level, normal mode, on the other
//! side. The sparring engine has White (Red) in even games and Black in odd ones. Each game
//! opens with one random move for each side (drawn from the run's seed and the game's
//! number), and each engine plays with a fresh seed of its evaluation noise per game, so the
//! games are not one game many times. Everything is sequential, on one thread, and
//! reproducible from `seed`.
//!
//! A game is played for at most `moves` moves (each side's), and stops at the first chance
//! the stand-in has to claim:
//!
//! - chess: at the stand-in's turn, a threefold repetition is claimable ([`claim::threefold_now`],
//!   or with one of its legal moves, [`claim::threefold_moves`]): the repetition *arose*. The
//!   stand-in claims whenever it can: now, or with its chosen move when that move repeats;
//!   the claim is judged by the rules core ([`claim::judge`]), as the trainer judges a
//!   player's claim, and counts as *claimed correctly* when the arbiter upholds it. (A chance
//!   with a move the stand-in did not choose is counted as arisen, not claimed.)
//! - xiangqi: at the stand-in's turn, a call of the arbiter would be right
//!   ([`arbiter::call`]: the opponent's forbidden perpetual, or a draw): a ruling *arose*; the
//!   stand-in calls and is *correct* by the arbiter's answer. A ruling that stands against the
//!   stand-in (its own perpetual) counts as arisen, not claimed. Repetitions are ruled at the
//!   third occurrence, the trainer's default.
//!
//! The engine never claims in sparring; the normal engine's claims are not played here
//! either (the trainer makes them, not the search), so the reference run measures how often
//! the two engines' games repeat at all.
//!
//! The two games are played by one game loop (`game`); what differs between them (the
//! rules' record of the game, what a claim or a call is) is the small trait `Table`. With
//! sparring on, the run also counts the sparring engine's moves that sparring chose instead
//! of its search's best, and what they gave up by that search
//! ([`threefold_engine::Engine::sparred`]): how far from "playing badly" it went.

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;

use shakmaty::Chess;
use threefold_engine::game::Game;
use threefold_engine::{Engine, Request, TtAllocError, level};
use threefold_rules::Game as ChessGame;
use threefold_rules::claim::{self, Claim, Clocks};
use threefold_xiangqi::arbiter::{self, Call};
use threefold_xiangqi::judge::JudgedGame;
use threefold_xiangqi::{Move as XqMove, Position, RuleAt};

/// Which game to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Chess,
    Xiangqi,
}

/// A run's settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub game: GameKind,
    pub games: usize,
    /// The sparring engine's level.
    pub level: u8,
    /// The stand-in's level (normal mode).
    pub stand_in: u8,
    /// Moves (each side's) a game is played for at most.
    pub moves: usize,
    /// Sparring on (off: the reference).
    pub sparring: bool,
    pub seed: u64,
    /// Transposition table of each engine, MB.
    pub hash_mb: usize,
    /// Also write each game's moves (UCI, UCCI), on a line after the game's; a move sparring
    /// chose instead of the search's best is marked `*`.
    pub verbose: bool,
}

/// What a run found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: usize,
    /// Games in which a claimable repetition (chess) or a ruling (xiangqi) arose.
    pub arose: usize,
    /// Games in which the stand-in claimed (called the arbiter) correctly.
    pub claimed: usize,
    /// Claims or calls the arbiter rejected.
    pub wrong: usize,
    /// Xiangqi: of the right calls, those of the sparring engine's own forbidden perpetual
    /// check or chase ([`threefold_engine::search::params::SPARRING_OFFEND_PERCENT`]).
    pub forbidden: usize,
    /// The sparring engine's moves chosen by a search (not the random opening moves).
    pub spar_moves: usize,
    /// Of those, the moves sparring chose instead of the search's best move.
    pub changed: usize,
    /// What those changes gave up in all, centipawns by the engine's own search
    /// ([`threefold_engine::sparring::Sparred::given_up`]).
    pub given_up: i64,
    /// The most one change gave up.
    pub given_up_max: i32,
}

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Nothing arose within the game's plies (played until the move limit or the end).
    Nothing { plies: usize },
    /// A claimable repetition (a ruling) arose at this ply; claimed correctly or not.
    Arose {
        ply: usize,
        claimed: bool,
        wrong: bool,
        /// Xiangqi: the sparring engine's forbidden perpetual, called by the stand-in.
        forbidden: bool,
    },
}

/// The engine's move in `start` + `moves` at `level`, sparring or not.
fn engine_move<G: Game>(
    e: &mut Engine,
    start: &G,
    moves: &[G::Move],
    level_: u8,
    sparring: bool,
) -> Option<G::Move> {
    let stop = AtomicBool::new(false);
    let limits = threefold_engine::Limits {
        sparring,
        ..level::limits(level_)
    };
    e.search(
        &Request::new(start, moves, &limits, &stop),
        &mut (),
        &mut |_| {},
    )
    .best
}

/// A number in `0..n` from the seed and two indices.
fn pick(seed: u64, game: usize, ply: usize, n: usize) -> usize {
    (level::mix(seed ^ level::mix((game as u64) << 8 | ply as u64)) % n.max(1) as u64) as usize
}

/// Plays the run, one line per game on `out`, and returns the tally.
pub fn run(s: &Settings, out: &mut dyn Write) -> Result<Tally, RunError> {
    let mut spar = Engine::new(s.hash_mb)?;
    let mut stand = Engine::new(s.hash_mb)?;
    let mut t = Tally::default();
    for g in 0..s.games {
        spar.new_game();
        stand.new_game();
        spar.set_noise_seed(level::mix(s.seed ^ (2 * g as u64 + 1)));
        stand.set_noise_seed(level::mix(s.seed ^ (2 * g as u64 + 2)));
        // The sparring engine: the first player in even games.
        let spar_first = g % 2 == 0;
        let mut log = Vec::new();
        let outcome = match s.game {
            GameKind::Chess => {
                game::<ChessGame>(s, g, spar_first, &mut spar, &mut stand, &mut log, &mut t)
            }
            GameKind::Xiangqi => {
                game::<JudgedGame>(s, g, spar_first, &mut spar, &mut stand, &mut log, &mut t)
            }
        };
        t.games += 1;
        let side = if spar_first { "first" } else { "second" };
        match outcome {
            Outcome::Nothing { plies } => writeln!(
                out,
                "game {:>2}: sparring engine {side}: none in {plies} plies",
                g + 1
            )?,
            Outcome::Arose {
                ply,
                claimed,
                wrong,
                forbidden,
            } => {
                t.arose += 1;
                t.forbidden += usize::from(forbidden);
                t.claimed += usize::from(claimed);
                t.wrong += usize::from(wrong);
                let how = if forbidden {
                    "the sparring engine's forbidden perpetual, called correctly"
                } else if claimed {
                    "claimed correctly"
                } else if wrong {
                    "claim rejected"
                } else {
                    "not claimed"
                };
                writeln!(
                    out,
                    "game {:>2}: sparring engine {side}: repetition at ply {ply}, {how}",
                    g + 1
                )?;
            }
        }
        if s.verbose {
            writeln!(out, "  {}", log.join(" "))?;
        }
    }
    let pct = |n: usize| 100.0 * n as f64 / t.games.max(1) as f64;
    writeln!(
        out,
        "{} games, sparring {}: a repetition arose in {} ({:.0} %), the stand-in claimed correctly in {} ({:.0} %), {} claims rejected",
        t.games,
        if s.sparring { "on" } else { "off" },
        t.arose,
        pct(t.arose),
        t.claimed,
        pct(t.claimed),
        t.wrong
    )?;
    if s.game == GameKind::Xiangqi {
        writeln!(
            out,
            "of the right calls, {} of the sparring engine's own forbidden perpetual check or chase",
            t.forbidden
        )?;
    }
    if s.sparring {
        writeln!(
            out,
            "sparring chose {} of the engine's {} moves ({:.0} %) instead of its best, giving up {:.0} cp on average (at most {}) by its own search",
            t.changed,
            t.spar_moves,
            100.0 * t.changed as f64 / t.spar_moves.max(1) as f64,
            t.given_up as f64 / t.changed.max(1) as f64,
            t.given_up_max
        )?;
    }
    Ok(t)
}

/// What the one game loop ([`game`]) needs of a game beyond the engine's [`Game`]: the
/// rules' record of the game, and what a claim (a call of the arbiter) is in it.
trait Table: Sized {
    /// The engine's position type.
    type G: Game;
    /// The start position and the rules' record of a game from it.
    fn start() -> (Self::G, Self);
    /// The legal moves now.
    fn legal_moves(&self) -> Vec<<Self::G as Game>::Move>;
    /// Plays the legal move `m`; false if the rules refuse it.
    fn play(&mut self, m: <Self::G as Game>::Move) -> bool;
    /// The move in the notation the verbose log prints.
    fn notation(m: <Self::G as Game>::Move) -> String;
    /// At the stand-in's turn: whether a claim (a call) would be right, and if so how the
    /// stand-in's own claim went; `choice` is the move the stand-in would play.
    fn chance(
        &mut self,
        choice: &mut dyn FnMut() -> Option<<Self::G as Game>::Move>,
    ) -> Option<Claimed>;
    /// Whether the game has ended: `Some(true)` by a ruling against the side that moved
    /// last (a ruling arose that the stand-in cannot claim), `Some(false)` otherwise (mate,
    /// stalemate, an automatic draw), `None` while it goes on.
    fn ended(&self) -> Option<bool>;
}

/// How the stand-in's claim went when one was possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Claimed {
    correct: bool,
    wrong: bool,
    /// Xiangqi: the right call was the opponent's (the sparring engine's) forbidden
    /// perpetual.
    forbidden: bool,
}

impl Table for ChessGame {
    type G = Chess;

    fn start() -> (Chess, ChessGame) {
        let start = Chess::default();
        let game = ChessGame::from_position(start.clone());
        (start, game)
    }

    fn legal_moves(&self) -> Vec<shakmaty::Move> {
        ChessGame::legal_moves(self).to_vec()
    }

    fn play(&mut self, m: shakmaty::Move) -> bool {
        ChessGame::play(self, m).is_ok()
    }

    fn notation(m: shakmaty::Move) -> String {
        m.to_uci(shakmaty::CastlingMode::Standard).to_string()
    }

    /// A threefold repetition is claimable now ([`claim::threefold_now`]) or with one of the
    /// stand-in's legal moves ([`claim::threefold_moves`]); it claims now, or with its chosen
    /// move when that move repeats, judged by the rules core ([`claim::judge`]).
    fn chance(&mut self, choice: &mut dyn FnMut() -> Option<shakmaty::Move>) -> Option<Claimed> {
        let now = claim::threefold_now(self);
        let with = claim::threefold_moves(self);
        if !now && with.is_empty() {
            return None;
        }
        let claim = if now {
            Some(Claim::Now)
        } else {
            choice().filter(|m| with.contains(m)).map(Claim::WithMove)
        };
        let (correct, wrong) = match claim {
            Some(c) => match claim::judge(self, c, Clocks::Off) {
                Ok(v) => (v.correct(), !v.correct()),
                Err(_) => (false, true),
            },
            None => (false, false),
        };
        Some(Claimed {
            correct,
            wrong,
            forbidden: false,
        })
    }

    fn ended(&self) -> Option<bool> {
        self.is_over().then_some(false)
    }
}

impl Table for JudgedGame {
    type G = Position;

    fn start() -> (Position, JudgedGame) {
        let start = Position::start();
        let game = JudgedGame::new(start.clone(), RuleAt::ThirdOccurrence);
        (start, game)
    }

    fn legal_moves(&self) -> Vec<XqMove> {
        self.record()
            .current()
            .legal_moves()
            .into_iter()
            .copied()
            .collect()
    }

    fn play(&mut self, m: XqMove) -> bool {
        self.push(m);
        true
    }

    fn notation(m: XqMove) -> String {
        m.to_string()
    }

    /// A call of the arbiter would be right ([`arbiter::call`]: the opponent's forbidden
    /// perpetual, or a draw); the stand-in calls, and is right by the arbiter's answer.
    fn chance(&mut self, _choice: &mut dyn FnMut() -> Option<XqMove>) -> Option<Claimed> {
        let side = self.record().current().side_to_move();
        let right = |c| arbiter::call(self, side, c).is_right();
        let forbidden = right(Call::Forbidden);
        (forbidden || right(Call::Draw)).then_some(Claimed {
            correct: true,
            wrong: false,
            forbidden,
        })
    }

    fn ended(&self) -> Option<bool> {
        self.standing().map(|r| r.ending.is_none())
    }
}

/// One game (see the module docs), its moves written to `log` when given.
fn game<T: Table>(
    s: &Settings,
    g: usize,
    spar_first: bool,
    spar: &mut Engine,
    stand: &mut Engine,
    log: &mut Vec<String>,
    t: &mut Tally,
) -> Outcome {
    let (start, mut table) = T::start();
    let mut moves = Vec::new();
    for ply in 0..2 * s.moves {
        let spar_turn = (ply % 2 == 0) == spar_first;
        if !spar_turn {
            let mut choice = || engine_move(stand, &start, &moves, s.stand_in, false);
            if let Some(c) = table.chance(&mut choice) {
                return Outcome::Arose {
                    ply,
                    claimed: c.correct,
                    wrong: c.wrong,
                    forbidden: c.forbidden,
                };
            }
        }
        match table.ended() {
            Some(true) => {
                return Outcome::Arose {
                    ply,
                    claimed: false,
                    wrong: false,
                    forbidden: false,
                };
            }
            Some(false) => break,
            None => {}
        }
        let mut changed = false;
        let m = if ply < 2 {
            let legal = table.legal_moves();
            legal.get(pick(s.seed, g, ply, legal.len())).copied()
        } else if spar_turn {
            let m = engine_move(spar, &start, &moves, s.level, s.sparring);
            t.spar_moves += 1;
            if let Some(c) = spar.sparred().filter(|_| s.sparring) {
                t.changed += 1;
                t.given_up += i64::from(c.given_up());
                t.given_up_max = t.given_up_max.max(c.given_up());
                changed = true;
            }
            m
        } else {
            engine_move(stand, &start, &moves, s.stand_in, false)
        };
        let Some(m) = m else { break };
        if !table.play(m) {
            break;
        }
        log.push(T::notation(m) + if changed { "*" } else { "" });
        moves.push(m);
    }
    Outcome::Nothing { plies: moves.len() }
}

/// Why a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Hash(#[from] TtAllocError),
    #[error("cannot write the report: {0}")]
    Write(#[from] io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_run_is_reproducible_and_counts_what_it_prints() {
        let s = Settings {
            game: GameKind::Chess,
            games: 2,
            level: 1,
            stand_in: 1,
            moves: 12,
            sparring: true,
            seed: 7,
            hash_mb: 1,
            verbose: false,
        };
        let mut a = Vec::new();
        let ta = run(&s, &mut a).unwrap();
        let mut b = Vec::new();
        let tb = run(&s, &mut b).unwrap();
        assert_eq!(ta, tb);
        assert_eq!(a, b);
        assert_eq!(ta.games, 2);
        let text = String::from_utf8(a).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
    }

    fn settings(game: GameKind, sparring: bool) -> Settings {
        Settings {
            game,
            games: 6,
            level: 3,
            stand_in: 2,
            moves: 60,
            sparring,
            seed: 1,
            hash_mb: 1,
            verbose: false,
        }
    }

    #[test]
    fn a_sparring_run_counts_the_moves_sparring_changed_and_what_they_gave_up() {
        let on = run(&settings(GameKind::Chess, true), &mut Vec::new()).unwrap();
        assert!(on.changed > 0 && on.changed < on.spar_moves, "{on:?}");
        assert!(
            on.given_up_max <= threefold_engine::search::params::SPARRING_MARGIN_MAX_CP,
            "{on:?}"
        );
        let off = run(&settings(GameKind::Chess, false), &mut Vec::new()).unwrap();
        assert_eq!((off.changed, off.given_up), (0, 0), "{off:?}");
    }

    #[test]
    fn the_one_game_loop_finds_the_rulings_of_xiangqi_games() {
        let mut out = Vec::new();
        let t = run(&settings(GameKind::Xiangqi, true), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(t.arose > 0 && t.claimed > 0, "{text}");
        assert_eq!(t.wrong, 0, "{text}");
    }

    /// The xiangqi game from `fen` after `moves` (UCCI), ruled at the third occurrence.
    fn xiangqi(fen: &str, moves: &str) -> JudgedGame {
        let mut g = JudgedGame::new(Position::from_fen(fen).unwrap(), RuleAt::ThirdOccurrence);
        for token in moves.split_whitespace() {
            let m = threefold_xiangqi::notation::parse_move(g.record().current(), token).unwrap();
            g.push(m);
        }
        g
    }

    #[test]
    fn a_xiangqi_call_counts_as_forbidden_only_for_the_opponents_perpetual() {
        let mut none = || None;
        // Red's cannon chases the unprotected black rook (the xiangqi crate's example): at
        // the first repetition Black calls the forbidden perpetual rightly.
        let mut chase = xiangqi(
            "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w",
            "c2a2 a7b7 a2b2 b7a7 b2a2",
        );
        let c = Table::chance(&mut chase, &mut none).expect("a right call");
        assert!(c.correct && c.forbidden, "{c:?}");
        // Horses out and back, twice: the start stands a third time, a draw, no one's fault.
        let mut idle = xiangqi(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9",
        );
        let c = Table::chance(&mut idle, &mut none).expect("a right call");
        assert!(c.correct && !c.forbidden, "{c:?}");
    }
}
