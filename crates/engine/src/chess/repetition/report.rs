//! How the five detectors see a game, ply by ply, against the rules core: the one replay
//! and the one set of explanations behind `threefold detectors` and the trainer's panel
//! "How engines see it".
//!
//! [`Replay`] feeds the game's positions to the five detectors of this module's parent
//! (each answering from its own data only), and [`PlyReport`] holds their answers beside
//! the rules core's (the occurrence count of [`threefold_rules::Game`], and
//! [`moves_back_into_stretch_at`], which tries every legal move, for the upcoming
//! repetition). Each disagreement comes with a one-line reason built here, by
//! `explain`, from the detector's own data (Axon's open chains, Belle's slot holder):
//! triangulation closes Axon's chains over an odd number of plies, pieces of one kind that
//! exchange squares leave its chains open, and a Belle position whose slot another open
//! position holds was never marked.

use std::fmt;

use shakmaty::Square;

use super::{Axon, Belle, BelleAnswer, Detector, Rookie, RookieAnswer, Step, Upcoming, Zarkov};
use super::{axon, cuckoo};
use crate::DEFAULT_HASH_MB;
use crate::tt::{OpenSlot, Tt, TtAllocError};
use threefold_rules::Game;
use threefold_rules::analysis::moves_back_into_stretch_at;

/// One of the five detectors, as reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Which {
    Zarkov,
    Rookie,
    Belle,
    Axon,
    Cuckoo,
}

impl Which {
    /// The five, in the order reports list them.
    pub const ALL: [Which; 5] = [
        Which::Zarkov,
        Which::Rookie,
        Which::Belle,
        Which::Axon,
        Which::Cuckoo,
    ];

    /// Its name in reports ("Zarkov", ..., "cuckoo").
    pub fn label(self) -> &'static str {
        match self {
            Which::Zarkov => "Zarkov",
            Which::Belle => "Belle",
            Which::Rookie => "Rookie",
            Which::Axon => "Axon",
            Which::Cuckoo => "cuckoo",
        }
    }
}

impl fmt::Display for Which {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A detector's answer that the rules core contradicts, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    pub which: Which,
    /// One line, without the detector's name.
    pub why: String,
}

/// The five answers at one ply, and the rules core's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyReport {
    pub ply: usize,
    /// The rules core's occurrence count, this one included.
    pub exact: u32,
    /// The earlier occurrence the rules core knows of, if any.
    pub previous: Option<usize>,
    /// Earlier occurrences Zarkov's scan found.
    pub zarkov: u32,
    pub rookie: RookieAnswer,
    pub belle: BelleAnswer,
    pub axon: axon::Scan,
    /// The cuckoo scan's move back into the stretch.
    pub cuckoo: Option<cuckoo::Cycle>,
    /// The rules core (every legal move tried): the side to move can go back into the stretch.
    pub cuckoo_reference: bool,
    /// Each detector that disagrees with the rules core, in [`Which::ALL`] order.
    pub disagreements: Vec<Disagreement>,
}

impl PlyReport {
    /// The rules core sees a repetition (an earlier occurrence in the stretch).
    pub fn repeated(&self) -> bool {
        self.exact >= 2
    }

    /// Does the detector's answer say "repetition" (for the cuckoo scan: "a move back into
    /// the stretch")?
    pub fn says_repetition(&self, which: Which) -> bool {
        match which {
            Which::Zarkov => self.zarkov > 0,
            Which::Belle => self.belle.found,
            Which::Rookie => self.rookie.verified > 0,
            Which::Axon => self.axon.closed_after.is_some(),
            Which::Cuckoo => self.cuckoo.is_some(),
        }
    }

    /// The reason the detector disagrees with the rules core, or None when it agrees.
    pub fn disagreement(&self, which: Which) -> Option<&Disagreement> {
        self.disagreements.iter().find(|d| d.which == which)
    }

    /// "ply 23, Axon: …": the disagreements as the command line lists them.
    pub fn notes(&self) -> impl Iterator<Item = String> + '_ {
        self.disagreements
            .iter()
            .map(move |d| format!("ply {}, {}: {}", self.ply, d.which, d.why))
    }
}

/// The five detectors following one game.
pub struct Replay {
    zarkov: Zarkov,
    belle: Belle,
    rookie: Rookie,
    axon: Axon,
    upcoming: Upcoming,
}

impl Default for Replay {
    /// Belle's table as large as the engine's default (16 MB).
    fn default() -> Replay {
        Replay::with_belle(Belle::with_entries(Tt::slots_for_mb(DEFAULT_HASH_MB)))
    }
}

impl Replay {
    /// With `slots` entries in Belle's table (few slots show the shared-slot losses);
    /// refused when a table of that size would be refused as UCI `Hash` ([`Belle::with_slots`]).
    pub fn with_belle_slots(slots: u64) -> Result<Replay, TtAllocError> {
        Ok(Replay::with_belle(Belle::with_slots(slots)?))
    }

    fn with_belle(belle: Belle) -> Replay {
        Replay {
            zarkov: Zarkov::default(),
            belle,
            rookie: Rookie::default(),
            axon: Axon::default(),
            upcoming: Upcoming::default(),
        }
    }

    /// Enters ply `ply` of `game` (plies come in order from 0; later plies of `game` play
    /// no part) and reports how each detector sees it.
    pub fn step(&mut self, game: &Game, ply: usize) -> PlyReport {
        let record = game.record(ply);
        let step = match (ply, record.mv) {
            (0, _) | (_, None) => Step::start(record.key),
            (_, Some(m)) => Step::by_move(game.position_at(ply - 1), &m, record.key),
        };
        self.zarkov.push(step);
        self.belle.push(step);
        self.rookie.push(step);
        self.axon.push(step);
        self.upcoming.push(step);
        let pos = game.position_at(ply);
        let mut report = PlyReport {
            ply,
            exact: record.occurrence,
            previous: record.previous,
            zarkov: self.zarkov.answer(pos),
            rookie: self.rookie.answer(pos),
            belle: self.belle.answer(pos),
            axon: self.axon.answer(pos),
            cuckoo: self.upcoming.answer(pos),
            cuckoo_reference: !moves_back_into_stretch_at(game, ply).is_empty(),
            disagreements: Vec::new(),
        };
        report.disagreements = Which::ALL
            .into_iter()
            .filter_map(|which| {
                explain(self, &report, which).map(|why| Disagreement { which, why })
            })
            .collect();
        report
    }
}

/// Every ply of `game`, from the start position, with Belle's table as large as the
/// engine's default.
pub fn replay_game(game: &Game) -> Vec<PlyReport> {
    let mut replay = Replay::default();
    (0..=game.len()).map(|ply| replay.step(game, ply)).collect()
}

/// Why `which` disagrees with the rules core at the last ply entered, or None when it
/// agrees. The one place these reasons are written.
fn explain(d: &Replay, r: &PlyReport, which: Which) -> Option<String> {
    let repeated = r.repeated();
    let ply = r.ply;
    let of_ply = |p: Option<usize>| p.map_or(String::new(), |p| format!(" of ply {p}"));
    match which {
        Which::Zarkov => (r.zarkov + 1 != r.exact).then(|| {
            format!(
                "counted {} earlier occurrences, the rules core {}",
                r.zarkov,
                r.exact - 1
            )
        }),
        Which::Rookie => ((r.rookie.verified > 0) != repeated).then(|| {
            format!(
                "the back-trace {} (counter {})",
                if repeated {
                    "missed a repetition"
                } else {
                    "verified a repetition that is not there"
                },
                if r.rookie.hit { "non-zero" } else { "zero" }
            )
        }),
        Which::Belle => (r.belle.found != repeated).then(|| {
            if repeated && r.belle.slot == Some(OpenSlot::Shared) {
                let holder = d
                    .belle
                    .marks
                    .holder_of_last(&d.belle.tt)
                    .map_or(String::new(), |h| format!(" (ply {h})"));
                format!(
                    "missed the repetition{}: its slot is held by another open position{holder}, \
                     so it was never marked (a shared-slot loss)",
                    of_ply(r.previous)
                )
            } else if repeated {
                format!(
                    "missed the repetition{}: the earlier occurrence was not marked (its slot \
                     was shared)",
                    of_ply(r.previous)
                )
            } else {
                "an open entry of another position matched by its lock (a key collision in the \
                 table)"
                    .to_string()
            }
        }),
        Which::Axon => (r.axon.closed_after.is_some() != repeated).then(|| {
            match (r.axon.closed_after, r.previous) {
                (Some(k), _) if k % 2 == 1 => format!(
                    "the chains closed over {k} plies, so the side to move differs — \
                     triangulation"
                ),
                (Some(k), _) => format!(
                    "the chains closed over {k} plies, but the position {k} plies back is not \
                     this one"
                ),
                (None, Some(p)) => {
                    let open = d.axon.0.open_chains(ply - p);
                    if open.len() > axon::CHAINS {
                        format!(
                            "missed the repetition of ply {p}: more than {} chains, the list \
                             overflowed",
                            axon::CHAINS
                        )
                    } else {
                        format!(
                            "missed the repetition of ply {p}: chains {} stayed open — pieces of \
                             one kind exchanged squares",
                            chain_list(&open)
                        )
                    }
                }
                (None, None) => "missed a repetition".to_string(),
            }
        }),
        Which::Cuckoo => (r.cuckoo.is_some() != r.cuckoo_reference).then(|| {
            if r.cuckoo_reference {
                "missed a move back to an earlier position of the stretch"
            } else {
                "no legal move reaches the position it found"
            }
            .to_string()
        }),
    }
}

fn chain_list(open: &[(Square, Square)]) -> String {
    open.iter()
        .map(|&(f, t)| format!("{f}→{t}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &str) -> Game {
        let mut g = Game::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            g.play_uci(m).unwrap();
        }
        g
    }

    #[test]
    fn triangulation_is_axons_false_repetition() {
        let g = play(
            "7k/8/8/3r4/3R4/8/8/K7 w - - 0 1",
            "a1a2 h8g8 a2b1 g8h8 b1a1",
        );
        let r = replay_game(&g);
        assert_eq!(r.len(), 6);
        let last = &r[5];
        assert!(!last.repeated());
        assert!(last.says_repetition(Which::Axon));
        assert_eq!(
            last.disagreement(Which::Axon).unwrap().why,
            "the chains closed over 5 plies, so the side to move differs — triangulation"
        );
        assert_eq!(last.disagreements.len(), 1, "{last:?}");
        assert!(r[..5].iter().all(|p| p.disagreements.is_empty()));
        assert_eq!(
            last.notes().next().unwrap(),
            "ply 5, Axon: the chains closed over 5 plies, so the side to move differs — \
             triangulation"
        );
    }

    #[test]
    fn two_rooks_exchanging_squares_is_axons_miss() {
        let g = play(
            "7k/8/8/8/8/8/8/RR2K3 w - - 0 1",
            "a1a2 h8g8 b1a1 g8h8 a2b2 h8g8 b2b1 g8h8",
        );
        let last = replay_game(&g).pop().unwrap();
        assert!(last.repeated());
        assert!(!last.says_repetition(Which::Axon));
        let why = &last.disagreement(Which::Axon).unwrap().why;
        assert!(
            why.starts_with("missed the repetition of ply 0: chains "),
            "{why}"
        );
        assert!(why.contains("a1→b1") && why.contains("b1→a1"), "{why}");
        for w in [Which::Zarkov, Which::Rookie, Which::Belle, Which::Cuckoo] {
            assert!(last.disagreement(w).is_none(), "{w}: {last:?}");
        }
    }

    #[test]
    fn a_ply_in_the_middle_sees_only_the_plies_before_it() {
        let g = play(
            "7k/8/8/8/8/8/8/RR2K3 w - - 0 1",
            "a1a2 h8g8 b1a1 g8h8 a2b2 h8g8 b2b1 g8h8",
        );
        let mut short = g.clone();
        while short.len() > 4 {
            short.undo();
        }
        assert_eq!(replay_game(&g)[..5], replay_game(&short)[..]);
    }
}
