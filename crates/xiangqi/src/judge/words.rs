//! The judge's words for a player: the glossary of the terms its rulings use, and one line
//! per move on why it counts as a check, a chase or neither — both written once here and
//! shown by the trainer's judge panel and help, `threefold xiangqi judge` and the review.
//!
//! The terms are the WXF rules' as Daniel Tan and Neftali Watkinson Medina implement them
//! ("Complete Implementation of WXF Chinese Chess Rules", 2024,
//! <https://arxiv.org/abs/2412.17334>); see [`crate::judge`] for where each lives.

use super::ruling::{MoveNote, MoveReport};
use super::threats::{Attack, EntryStatus, Harmless, Status, Unanswered, value};
use crate::board::{Kind, Position, Square};

/// The glossary: each term the judge's rulings use, and what it means, in a player's words.
pub const GLOSSARY: &[(&str, &str)] = &[
    (
        "check",
        "A move that attacks the enemy king. Checking on every move of a repetition is \
         perpetual check: it loses, unless the other side checks perpetually too (a draw).",
    ),
    (
        "chase",
        "A move that makes a new threat to take an enemy piece that is unprotected (or worth \
         more than its attacker), when the reply answers the threat: the piece moves away, \
         the line is blocked or the piece gets protected. A threat the reply does not answer \
         (it checks, counter-attacks or leaves the piece) is no chase. Kings and pawns never \
         chase; a pawn that has not crossed the river cannot be chased; offering to exchange \
         like pieces is no chase. Chasing the same piece on every move is perpetual chase: \
         it loses against idle moves.",
    ),
    (
        "idle",
        "Neither check nor chase. A side whose moves in a repetition are not all checks, or \
         not all chases of one same piece, is idle over it: it cannot lose by the repetition.",
    ),
    (
        "cancel",
        "A capture or a pawn's step forward: it cannot be undone, so the positions before it \
         cannot come back, and the repetition count starts again.",
    ),
    (
        "protected",
        "After the attacker takes the piece, a piece of its side could legally take back (a \
         rook or cannon along its line as it stood before the capture). A piece worth more \
         than its attacker (a rook attacked by a horse or cannon) counts as unprotected.",
    ),
    (
        "outranks",
        "Violations rank perpetual check above perpetual chase above idle moves. When one \
         side's outranks the other's, that side loses; equal ones draw.",
    ),
    (
        "first repetition",
        "A position standing for the second time. The arbiter, called, rules the repetition \
         so far here: a side whose repetition is forbidden must vary. Marked forbidden on the \
         board: a move that brings a position back and makes one's own repetition the \
         forbidden one.",
    ),
    (
        "third occurrence",
        "A position standing for the third time: where arbiters (and Fairy-Stockfish) rule \
         the game, the default here; the trainer can rule at the first repetition instead.",
    ),
];

/// A piece in words: "rook on h7".
fn piece(kind: Kind, sq: Square) -> String {
    format!("{} on {sq}", kind.name())
}

/// The victim of an attack with what makes it a target: "the unprotected rook on h7", or
/// "the rook on h7 (worth more than the cannon)".
fn target(a: &Attack) -> String {
    if value(a.victim_kind) > value(a.attacker_kind) {
        format!(
            "the {} (worth more than the {})",
            piece(a.victim_kind, a.victim),
            a.attacker_kind.name()
        )
    } else {
        format!("the unprotected {}", piece(a.victim_kind, a.victim))
    }
}

/// "the cannon on b7 attacks the unprotected rook on h7".
fn attacks(a: &Attack) -> String {
    format!(
        "the {} attacks {}",
        piece(a.attacker_kind, a.attacker),
        target(a)
    )
}

/// Why a move whose reply is known counts as what the judge found: its first finding in a
/// player's words, and how many more there are.
fn judged(st: &EntryStatus, at: &Position) -> String {
    let more = |n: usize| {
        if n > 1 {
            format!(" (and {} more)", n - 1)
        } else {
            String::new()
        }
    };
    match st.status {
        Status::Check => checks(&st.checkers, at),
        Status::Chase => format!(
            "chase: {}, which the previous move did not attack, and the reply answered it{}",
            attacks(&st.chased[0]),
            more(st.chased.len())
        ),
        Status::Idle => {
            if let Some((a, why)) = st.unanswered.first() {
                let reply = match why {
                    Unanswered::CounterCheck => "the reply gives check instead".to_string(),
                    Unanswered::CounterAttack(c) => format!(
                        "the reply attacks the {} instead",
                        c.iter()
                            .map(|x| piece(x.victim_kind, x.victim))
                            .collect::<Vec<_>>()
                            .join(" and the ")
                    ),
                    Unanswered::Sacrifice => "the reply leaves it to be taken".to_string(),
                };
                format!(
                    "no chase: {}, but {reply}: a threat the reply does not answer is no chase{}",
                    attacks(a),
                    more(st.unanswered.len())
                )
            } else if let Some(a) = st.old.first() {
                format!(
                    "no chase: the {} already attacked the {} before this move",
                    piece(a.attacker_kind, a.attacker),
                    piece(a.victim_kind, a.victim)
                )
            } else if let Some((a, h)) = st.harmless.first() {
                let v = piece(a.victim_kind, a.victim);
                match h {
                    Harmless::Protected { by, kind } => format!(
                        "no chase: the {v} is protected by the {}",
                        piece(*kind, *by)
                    ),
                    Harmless::Exchange => format!(
                        "no chase: the {v} could take the {} back: an offer to exchange",
                        piece(a.attacker_kind, a.attacker)
                    ),
                    Harmless::UncrossedPawn => format!(
                        "no chase: the {v} has not crossed the river, and such a pawn cannot be chased"
                    ),
                    Harmless::KingOrPawn => format!(
                        "no chase: the {} attacks the {v}, but kings and pawns never chase",
                        piece(a.attacker_kind, a.attacker)
                    ),
                }
            } else {
                "idle: it attacks nothing".to_string()
            }
        }
    }
}

/// "check: the rook on e2 attacks the king".
fn checks(checkers: &[Square], at: &Position) -> String {
    let by: Vec<String> = checkers
        .iter()
        .map(|&sq| {
            let kind = at.piece_at(sq).map_or(Kind::King, |p| p.kind);
            format!("the {}", piece(kind, sq))
        })
        .collect();
    if by.is_empty() {
        "check".to_string()
    } else {
        format!("check: {} attacks the king", by.join(" and "))
    }
}

impl MoveNote {
    /// One line on why the move counts as a check, a chase or neither, in a player's words,
    /// from the judge's own findings (never a second judgement): "chase: the cannon on b7
    /// attacks the unprotected rook on h7, which the previous move did not attack, and the
    /// reply answered it", "no chase: the rook on h7 is protected by the horse on g5".
    /// `at` is the position the move reached. The judge's panel, `threefold xiangqi judge`
    /// and the review show this line.
    pub fn why(&self, at: &Position) -> String {
        match self {
            MoveNote::Cancel { capture: true } => {
                "cancel: a capture cannot be undone, so the repetition count starts again".into()
            }
            MoveNote::Cancel { capture: false } => {
                "cancel: a pawn's step forward cannot be undone, so the repetition count starts again"
                    .into()
            }
            MoveNote::Judged(r) => judged(&r.status, at),
            MoveNote::Check => checks(&at.checkers(), at),
            MoveNote::Threat(v) => format!(
                "threat: {}, a chase if the reply answers it",
                v.iter().map(attacks).collect::<Vec<_>>().join("; ")
            ),
            MoveNote::Quiet => "idle: it attacks nothing new".into(),
        }
    }
}

impl MoveReport {
    /// [`MoveNote::why`] of a move of a ruling (`at`: the position the move reached).
    pub fn why(&self, at: &Position) -> String {
        judged(&self.status, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Record;

    fn play(fen: &str, moves: &[&str]) -> Record {
        let mut r = Record::new(Position::from_fen(fen).expect("legal"));
        for m in moves {
            let pos = r.current().clone();
            r.push(crate::notation::parse_move(&pos, m).expect("a move"));
        }
        r
    }

    /// A rook attacking an unprotected cannon that steps away: a chase, said with both
    /// pieces; the same attack on a protected horse: no chase, said with the protector.
    /// Broken to see it fail: `Status::Chase` answered with the `Idle` text ("idle: it
    /// attacks nothing").
    #[test]
    fn why_names_the_pieces_and_the_reason() {
        // The red rook a0 goes to a5, attacking the black cannon on e5, which steps to e6.
        let r = play("4k4/9/9/9/4c4/9/9/9/9/R3K4 w", &["a0a5", "e5e6", "a5a4"]);
        let why = r.move_note(1).why(r.position(1));
        assert_eq!(
            why,
            "chase: the rook on a5 attacks the unprotected cannon on e5, which the previous \
             move did not attack, and the reply answered it"
        );
        // The horse on f7 protects the cannon on e5: a rook attacking it is no chase.
        let r = play("3k5/9/5n3/9/4c4/9/9/9/9/R3K4 w", &["a0a5", "d9d8", "a5a4"]);
        let why = r.move_note(1).why(r.position(1));
        assert!(
            why.starts_with("no chase: the cannon on e5 is protected by the horse on f7"),
            "{why}"
        );
    }

    /// Every glossary term the brief names is there, once.
    #[test]
    fn the_glossary_has_each_term_once() {
        for term in [
            "check",
            "chase",
            "idle",
            "cancel",
            "protected",
            "outranks",
            "first repetition",
            "third occurrence",
        ] {
            assert_eq!(
                GLOSSARY.iter().filter(|(t, _)| *t == term).count(),
                1,
                "{term}"
            );
        }
    }
}
