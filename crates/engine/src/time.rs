//! Time management.
//!
//! From the UCI limits, [`budget`] derives two deadlines:
//! - a *soft* one: no new iteration of the iterative deepening starts after it (an iteration
//!   usually costs more than all previous ones together, so starting one late is wasted);
//! - a *hard* one: the search is aborted when it passes (the clock is read every
//!   [`super::search::CLOCK_CHECK_NODES`] nodes).
//!
//! With a clock (`wtime`/`btime` for the side to move): the time is split over `movestogo`
//! moves (if not given, the game's horizon: 25 moves in chess, 40 in xiangqi; fewer if the
//! game is already long is not modelled), plus most of the increment: `soft = time / mtg + 3/4 inc`; `hard = min(4 soft, time / 3)`; both minus a safety
//! margin for the GUI's overhead, and never more than the time left minus that margin.
//! Below [`LOW_CLOCK_INCREMENTS`] increments on the clock a move spends at most the increment,
//! so the clock builds back up. In xiangqi ([`crate::game::Game::SCALED_SOFT_LIMIT`]) the
//! soft deadline is scaled after each iteration by [`soft_scale`]: up to 1.5 × while the best
//! move has just changed, down to 0.7 × once it has stood for four iterations, 1.3 × more
//! after the score fell by 25 cp or more. `movetime` gives both deadlines exactly (minus the margin). `depth`, `nodes` and `infinite`
//! impose no deadline. [`is_limited`] says whether the limits end a search at all; the UCI
//! loop gives a `go` without one a default movetime.

use std::time::Duration;

use shakmaty::Color;

use super::Limits;

/// Overhead reserved for the GUI and process communication.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

/// Below this many increments on the clock, a move spends at most one increment ([`budget`]).
/// Without it the clock settled at about 1.5 increments in xiangqi games at 10+0.1 (each move
/// spending what the last added) and the engine lost 8 of 200 games against Fairy-Stockfish on
/// time on a loaded machine.
pub const LOW_CLOCK_INCREMENTS: u32 = 10;

/// Soft and hard deadlines, measured from the start of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Abort the search at this.
    pub hard: Option<Duration>,
}

/// The clock and increment of the side `us`.
fn clock(limits: &Limits, us: Color) -> (Option<Duration>, Option<Duration>) {
    match us {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    }
}

/// Whether `limits` end a search of the side `us` by themselves: a `movetime`, a `depth`, a
/// node count or that side's own clock. The other side's clock is no limit (`go wtime 1000`
/// with Black to move would otherwise search until input ends), and neither is an increment
/// alone. `infinite` asks for no end on purpose and counts as a limit here.
pub fn is_limited(limits: &Limits, us: Color) -> bool {
    limits.infinite
        || limits.movetime.is_some()
        || limits.depth.is_some()
        || limits.nodes.is_some()
        || clock(limits, us).0.is_some()
}

/// Computes the deadlines for the side `us`, splitting the clock over `horizon` moves when the
/// GUI sends no `movestogo` (the game's [`crate::game::Game::MOVE_HORIZON`]).
pub fn budget(limits: &Limits, us: Color, horizon: u32) -> Budget {
    if limits.infinite {
        return Budget {
            soft: None,
            hard: None,
        };
    }
    if let Some(mt) = limits.movetime {
        let t = mt
            .saturating_sub(MOVE_OVERHEAD)
            .max(Duration::from_millis(1));
        return Budget {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let (time, inc) = clock(limits, us);
    let Some(time) = time else {
        return Budget {
            soft: None,
            hard: None,
        };
    };
    let inc = inc.unwrap_or_default();
    let mtg = limits.movestogo.unwrap_or(horizon).clamp(1, 50);
    let usable = time
        .saturating_sub(MOVE_OVERHEAD)
        .max(Duration::from_millis(1));
    // Saturating: a clock or increment near Duration::MAX must not overflow.
    let mut soft = (time / mtg).saturating_add(inc.saturating_mul(3) / 4);
    let mut hard = soft
        .saturating_mul(4)
        .min((time / 3).saturating_add(inc / 2));
    if mtg == 1 {
        hard = usable - usable / 10;
    }
    // Low on time: with less than `LOW_CLOCK_INCREMENTS` increments left, spend at most the
    // increment (half of it before a new iteration), so the clock builds back up instead of
    // settling where one hiccup of the machine or the GUI loses on time.
    if inc > Duration::ZERO && time < inc.saturating_mul(LOW_CLOCK_INCREMENTS) {
        soft = soft.min(inc / 2);
        hard = hard.min(inc);
    }
    soft = soft.min(usable);
    hard = hard.min(usable).max(soft);
    Budget {
        soft: Some(soft),
        hard: Some(hard),
    }
}

/// The share of the soft deadline an iteration may start within, from the root's last
/// iterations: more while the best move keeps changing or the score falls, less once the same
/// move has stood for several iterations (the hard deadline still bounds it).
/// `stable`: iterations in a row the best move has stayed; `drop`: how far the score fell in
/// the last iteration, in centipawns (negative: it rose).
pub fn soft_scale(stable: u32, drop: i32) -> f64 {
    let by_move = match stable {
        0 => 1.5,
        1 => 1.2,
        2 => 1.0,
        3 => 0.85,
        _ => 0.7,
    };
    let by_score = if drop >= 25 { 1.3 } else { 1.0 };
    by_move * by_score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_clocks_and_increments_saturate() {
        for side in [Color::White, Color::Black] {
            let l = Limits {
                wtime: Some(Duration::MAX),
                btime: Some(Duration::MAX),
                winc: Some(Duration::MAX),
                binc: Some(Duration::MAX),
                ..Limits::default()
            };
            let b = budget(&l, side, 25);
            assert!(b.soft.unwrap() <= b.hard.unwrap());
        }
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn clock_budget_is_sane() {
        let l = Limits {
            wtime: Some(ms(10_000)),
            winc: Some(ms(100)),
            btime: Some(ms(1)),
            ..Default::default()
        };
        let b = budget(&l, Color::White, 25);
        let (s, h) = (b.soft.unwrap(), b.hard.unwrap());
        assert!(s >= ms(300) && s <= ms(600), "{b:?}");
        assert!(h >= s && h <= ms(3400), "{b:?}");
        // Almost flagged: stays inside the clock.
        let b = budget(&l, Color::Black, 25);
        assert!(b.hard.unwrap() <= ms(1));
    }

    #[test]
    fn only_the_side_to_move_s_clock_limits_its_search() {
        let white_clock = Limits {
            wtime: Some(ms(1000)),
            winc: Some(ms(10)),
            binc: Some(ms(10)),
            ..Default::default()
        };
        assert!(is_limited(&white_clock, Color::White));
        assert!(!is_limited(&white_clock, Color::Black));
        let black_clock = Limits {
            btime: Some(ms(1000)),
            ..Default::default()
        };
        assert!(!is_limited(&black_clock, Color::White));
        assert!(is_limited(&black_clock, Color::Black));
        for l in [
            Limits {
                depth: Some(3),
                ..Default::default()
            },
            Limits {
                nodes: Some(3),
                ..Default::default()
            },
            Limits {
                movetime: Some(ms(3)),
                ..Default::default()
            },
            Limits {
                infinite: true,
                ..Default::default()
            },
        ] {
            assert!(
                is_limited(&l, Color::White) && is_limited(&l, Color::Black),
                "{l:?}"
            );
        }
        assert!(!is_limited(&Limits::default(), Color::White));
    }

    #[test]
    fn a_low_clock_spends_at_most_the_increment() {
        // 0.2 s left with a 0.1 s increment: the search may not use more than it gains.
        let l = Limits {
            wtime: Some(ms(200)),
            winc: Some(ms(100)),
            ..Default::default()
        };
        let b = budget(&l, Color::White, 25);
        assert!(b.hard.unwrap() <= ms(100), "{b:?}");
        assert!(b.soft.unwrap() <= ms(50), "{b:?}");
        // With ten increments or more on the clock the increment is no cap.
        let l = Limits {
            wtime: Some(ms(3000)),
            winc: Some(ms(100)),
            ..Default::default()
        };
        assert!(budget(&l, Color::White, 25).hard.unwrap() > ms(100));
    }

    /// Without `movestogo` the clock is split over the game's horizon; with it, over it.
    #[test]
    fn the_horizon_splits_a_clock_without_movestogo() {
        let mut l = Limits {
            wtime: Some(ms(10_000)),
            winc: Some(ms(100)),
            ..Default::default()
        };
        assert_eq!(budget(&l, Color::White, 25).soft, Some(ms(475)));
        assert_eq!(budget(&l, Color::White, 40).soft, Some(ms(325)));
        l.movestogo = Some(20);
        assert_eq!(budget(&l, Color::White, 40).soft, Some(ms(575)));
    }

    /// A best move that keeps changing, or a falling score, lets the next iteration start
    /// later than a move that has stood for several iterations.
    #[test]
    fn an_unsettled_root_gets_more_of_the_soft_deadline() {
        assert!(soft_scale(0, 0) > soft_scale(1, 0));
        assert!(soft_scale(1, 0) > soft_scale(2, 0));
        assert!(soft_scale(2, 0) > soft_scale(4, 0));
        assert_eq!(soft_scale(4, 0), soft_scale(9, 0));
        assert!(soft_scale(4, 40) > soft_scale(4, 0));
        assert_eq!(soft_scale(4, -40), soft_scale(4, 0));
        assert_eq!(soft_scale(2, 0), 1.0);
    }

    #[test]
    fn movetime_and_infinite() {
        let l = Limits {
            movetime: Some(ms(500)),
            ..Default::default()
        };
        assert_eq!(budget(&l, Color::White, 25).hard, Some(ms(470)));
        let l = Limits {
            infinite: true,
            wtime: Some(ms(5)),
            ..Default::default()
        };
        assert_eq!(budget(&l, Color::White, 25).hard, None);
        let l = Limits {
            depth: Some(3),
            ..Default::default()
        };
        assert_eq!(budget(&l, Color::White, 25).hard, None);
    }
}
