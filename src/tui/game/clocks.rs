//! Clocks and levels for both games: the clocks a setting gives, the preset after it (the
//! clocks key), what is said when it changes, whether a flag has fallen, and the engine's
//! search limits at its level with the clocks of the game.

use std::time::{Duration, Instant};

use crate::engine::Limits;
use crate::tui::clock::{Clock, Side};
use crate::tui::config::{CLOCK_PRESETS, Config, Setting, clock_label};
use crate::tui::keys::{self, Cmd};

use super::players::Named;

/// The config's keys that keep the clocks of new games, in both games.
pub const SETTINGS: &[Setting] = &[Setting::ClockBaseSecs, Setting::ClockIncSecs];

/// The clocks of new games as the config keeps them (seconds: base, increment; base 0:
/// none), in both games.
pub fn setting(cfg: &Config) -> (u64, u64) {
    (cfg.clock_base_secs, cfg.clock_inc_secs)
}

/// The clocks of a new game with the setting (base and increment in seconds; base 0: none).
pub fn clock_for<S: Side>((base, inc): (u64, u64)) -> Option<Clock<S>> {
    (base > 0).then(|| Clock::new(Duration::from_secs(base), Duration::from_secs(inc)))
}

/// The preset after the setting `now` (clocks that are not a preset start the cycle; a base
/// of 0 is "off" whatever the increment).
pub fn next_preset(now: (u64, u64)) -> (u64, u64) {
    let next = CLOCK_PRESETS
        .iter()
        .position(|&p| p == now)
        .or((now.0 == 0).then_some(0))
        .map_or(0, |p| (p + 1) % CLOCK_PRESETS.len());
    CLOCK_PRESETS[next]
}

/// What is said when the clocks key sets `setting`: a game under way keeps its clocks, or
/// having none (the time its players have is theirs); with no game under way the new clocks
/// are this game's.
pub fn chosen((base, inc): (u64, u64), in_progress: bool) -> String {
    let name = format!("Clocks {}", clock_label(base, inc));
    if in_progress {
        format!(
            "{name} from the next game ({}); this game keeps its clocks.",
            keys::key_for(Cmd::NewGame)
        )
    } else {
        name
    }
}

/// Whether `turn`'s flag has fallen: its clock ran to zero in a game not over.
pub fn flag_fell<S: Side>(clock: Option<&Clock<S>>, turn: S, over: bool, now: Instant) -> bool {
    clock.is_some_and(|c| c.running.is_some() && !over && c.remaining(turn, now).is_zero())
}

/// The engine's search limits at `level`, with the time both sides have on the clocks of
/// the game (if it has clocks).
pub fn limits<S: Named>(level: u8, sparring: bool, clock: Option<&Clock<S>>) -> Limits {
    let mut limits = crate::tui::config::engine_limits(level, sparring);
    if let Some(c) = clock {
        let now = Instant::now();
        limits.wtime = Some(c.remaining(S::FIRST, now));
        limits.btime = Some(c.remaining(S::FIRST.other(), now));
        limits.winc = Some(c.inc);
        limits.binc = Some(c.inc);
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_presets_cycle_from_off_and_from_clocks_not_preset() {
        assert_eq!(next_preset((0, 0)), CLOCK_PRESETS[1]);
        assert_eq!(next_preset((0, 7)), CLOCK_PRESETS[1]);
        assert_eq!(next_preset(CLOCK_PRESETS[3]), CLOCK_PRESETS[0]);
        assert_eq!(next_preset((900, 10)), CLOCK_PRESETS[0]);
    }

    #[test]
    fn a_flag_falls_only_on_a_running_clock_at_zero() {
        use crate::xiangqi::Color;
        let now = Instant::now();
        let mut c: Clock<Color> = clock_for((60, 0)).unwrap();
        assert!(!flag_fell(Some(&c), Color::Red, false, now));
        c.running = Some((Color::Red, now));
        let later = now + Duration::from_secs(61);
        assert!(flag_fell(Some(&c), Color::Red, false, later));
        assert!(!flag_fell(Some(&c), Color::Red, true, later));
        assert!(!flag_fell(Some(&c), Color::Black, false, later));
    }
}
