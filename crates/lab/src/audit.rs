//! The repetition detector's audit (`threefold bench --audit`) and Rookie's hit counts: a
//! [`Probe`] on the search ([`threefold_engine::probe`]).
//!
//! At every node that asks the chosen detector for a repetition, the probe gets the
//! detector's raw answer ([`Answer`]). It counts Rookie's hits (its counter was non-zero, so
//! the back-trace ran) and false hits (the back-trace found no earlier occurrence: another
//! position shared the low 14 bits, or the occurrence lies beyond an irreversible move); with
//! the audit on it also runs Zarkov's exact scan over the list of keys and counts where the
//! detector saw a repetition that is not there (false) or missed one that is (missed).
//!
//! The exact scan is Zarkov's, so for Zarkov itself this audit is no test (its answer is the
//! reference): the test that Zarkov and Rookie are exact in the search counts the positions
//! of the search line with the rules core instead (`tests/detectors_agree.rs`).
//!
//! Before the probe, these counters were fields of the engine's repetition tracker, and the
//! audit a flag tested at every node of every search; now the search a game uses does not
//! contain them.

use threefold_engine::probe::{Answer, Probe};
use threefold_engine::search::keys::KeyHistory;

/// What the detector did in the searches watched so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Rookie: counters found non-zero.
    pub rookie_hits: u64,
    /// Rookie: hits the back-trace found no earlier occurrence for.
    pub rookie_false_hits: u64,
    /// Audit: nodes that asked for a repetition.
    pub probes: u64,
    /// Audit: positions with an earlier occurrence (Zarkov's exact scan).
    pub exact_repetitions: u64,
    /// Audit: the detector saw a repetition where the exact scan sees no earlier occurrence
    /// in the stretch.
    pub false_repetitions: u64,
    /// Audit: the exact scan sees an earlier occurrence the detector missed.
    pub missed_repetitions: u64,
}

/// The probe: Rookie's counts always, the audit when asked for.
#[derive(Clone, Copy, Debug, Default)]
pub struct Audit {
    /// Whether each answer is checked against the exact scan (slower).
    pub exact: bool,
    pub counts: Counts,
}

impl Audit {
    /// Counts Rookie's hits; `exact`: audits every answer as well.
    pub fn new(exact: bool) -> Audit {
        Audit {
            exact,
            counts: Counts::default(),
        }
    }
}

/// Whether the detector saw an earlier occurrence (`None`: Zarkov, which answers with its
/// rule's verdict, not a sighting: the audit's reference itself).
fn seen(answer: Answer) -> Option<bool> {
    match answer {
        Answer::Zarkov(_) => None,
        Answer::Rookie(hit) => Some(hit.is_some_and(|(earlier, _)| earlier > 0)),
        Answer::Belle(seen) | Answer::Axon(seen) => Some(seen),
    }
}

impl Probe<shakmaty::Chess> for Audit {
    const ACTIVE: bool = true;

    fn repetition(&mut self, keys: &KeyHistory, answer: Answer) {
        let c = &mut self.counts;
        if let Answer::Rookie(Some((earlier, _))) = answer {
            c.rookie_hits += 1;
            c.rookie_false_hits += u64::from(earlier == 0);
        }
        if self.exact {
            let exact = keys.back_trace().0 > 0;
            let seen = seen(answer).unwrap_or(exact);
            c.probes += 1;
            c.exact_repetitions += u64::from(exact);
            c.false_repetitions += u64::from(seen && !exact);
            c.missed_repetitions += u64::from(exact && !seen);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use threefold_engine::search::keys::Repetition;

    fn keys(ks: &[u64]) -> KeyHistory {
        let mut h = KeyHistory::new();
        for &k in ks {
            h.push(k, false);
        }
        h
    }

    #[test]
    fn answers_are_counted_against_the_exact_scan() {
        let repeated = keys(&[1, 2, 3, 4, 1]);
        let fresh = keys(&[1, 2, 3, 4, 5]);
        let mut a = Audit::new(true);
        a.repetition(&repeated, Answer::Belle(false));
        a.repetition(&fresh, Answer::Axon(true));
        a.repetition(&fresh, Answer::Rookie(Some((0, Repetition::None))));
        a.repetition(&repeated, Answer::Rookie(Some((1, Repetition::Draw))));
        a.repetition(&repeated, Answer::Zarkov(Repetition::Draw));
        let c = a.counts;
        assert_eq!((c.probes, c.exact_repetitions), (5, 3));
        assert_eq!((c.false_repetitions, c.missed_repetitions), (1, 1));
        assert_eq!((c.rookie_hits, c.rookie_false_hits), (2, 1));
        // Without the audit only Rookie's hits are counted.
        let mut b = Audit::new(false);
        b.repetition(&repeated, Answer::Belle(false));
        b.repetition(&fresh, Answer::Rookie(Some((0, Repetition::None))));
        assert_eq!(
            b.counts,
            Counts {
                rookie_hits: 1,
                rookie_false_hits: 1,
                ..Counts::default()
            }
        );
    }
}
