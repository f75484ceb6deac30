//! Loading xiangqi puzzle files (`game = "xiangqi"`): the same TOML layout and the same
//! one-line problems (`file:line: what is wrong`) as the chess files
//! ([`crate::load`]), with xiangqi positions and moves read by `threefold-xiangqi`.

use std::ops::Range;
use std::path::Path;

use toml::de::{DeTable, DeValue};

use threefold_xiangqi::judge::Record;
use threefold_xiangqi::notation::parse_move;
use threefold_xiangqi::{Kind, Move, Position, Square};

use super::{
    AttackRef, ChaseStatus, RuleAt, Verdict, XiangqiPuzzle, XiangqiQuestion, XiangqiTheme,
    parse_piece,
};
use crate::load::shared::{
    Common, Field, PuzzleErrors, Src, answer_moves, parse_file, read_common, read_theme, str_array,
    yes_no,
};
use crate::types::Problem;

/// The keys a xiangqi puzzle may have.
const PUZZLE_KEYS: &[&str] = &[
    "id",
    "title",
    "start",
    "moves",
    "ask",
    "prompt",
    "answer",
    "explanation",
    "tags",
    "difficulty",
    "source",
    "ntimes",
    "at",
    "attack",
];

/// Load xiangqi puzzle-file text as if read from `path` (the theme id is its stem). The
/// theme is `None` only when the text is not TOML; otherwise it holds every puzzle that
/// loaded, and each problem is one line naming the file and line.
pub fn load_str(path: &Path, text: &str) -> (Option<XiangqiTheme>, Vec<Problem>) {
    let src = Src::new(path, text);
    let mut problems = Vec::new();
    let doc = match parse_file(&src) {
        Ok(d) => d,
        Err(p) => return (None, vec![p]),
    };
    let t = read_theme(&src, doc.get_ref(), &mut problems, read_puzzle);
    let theme = XiangqiTheme {
        id: t.id,
        name: t.name,
        description: t.description,
        file: path.to_path_buf(),
        puzzles: t.puzzles,
    };
    (Some(theme), problems)
}

/// The move tokens of a `moves` text with the line (0-based, within the text) of each:
/// whitespace-separated, move numbers ("12." alone or before a move, "12...") skipped.
pub(crate) fn move_tokens(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (line, l) in text.lines().enumerate() {
        for tok in l.split_whitespace() {
            let rest = tok.trim_start_matches(|c: char| c.is_ascii_digit());
            let numbered = rest.len() < tok.len() && rest.starts_with('.');
            let tok = if numbered {
                rest.trim_start_matches('.')
            } else {
                tok
            };
            if !tok.is_empty() {
                out.push((line, tok));
            }
        }
    }
    out
}

fn read_puzzle(
    src: &Src<'_>,
    theme: &str,
    span: Range<usize>,
    t: &DeTable<'_>,
) -> Result<XiangqiPuzzle, Vec<Problem>> {
    let Common {
        header,
        origin,
        id,
        mut err,
        title,
        explanation,
        ask,
        prompt_text,
        source,
        tags,
        difficulty,
    } = read_common(src, span, t, PUZZLE_KEYS, "a xiangqi puzzle");
    let small_int = |v: Field<'_, '_>| {
        v.get_ref()
            .as_integer()
            .and_then(|i| i.as_str().parse::<usize>().ok())
    };
    let rule_at = match t.get("ntimes") {
        None => RuleAt::ThirdOccurrence,
        Some(v) => match small_int(v).and_then(RuleAt::from_ntimes) {
            Some(at) => at,
            None => {
                err.at(
                    v.span(),
                    "'ntimes' must be 1 (rule at the first repetition) or 2 (at the third occurrence)",
                );
                RuleAt::ThirdOccurrence
            }
        },
    };

    // The game: the start position and the moves, played once into the judge's record.
    let start = match t.get("start") {
        None => Some(Position::start()),
        Some(v) => match v.get_ref().as_str() {
            None => {
                err.at(v.span(), "'start' must be a xiangqi FEN or \"standard\"");
                None
            }
            Some(s) if s.trim().eq_ignore_ascii_case("standard") => Some(Position::start()),
            Some(s) => match Position::from_fen(s.trim()) {
                Ok(p) => Some(p),
                Err(e) => {
                    err.at(v.span(), format!("'start': {e}"));
                    None
                }
            },
        },
    };
    let mut record = start.map(Record::new);
    if let Some(v) = t.get("moves") {
        match v.get_ref().as_str() {
            None => err.at(v.span(), "'moves' must be a string of WXF or UCCI moves"),
            Some(text) => {
                let base = src.text_line(v.span());
                for (line_in, tok) in move_tokens(text) {
                    let Some(r) = record.as_mut() else { break };
                    let n = r.ply() + 1;
                    match parse_move(r.current(), tok) {
                        Ok(m) => r.push(m),
                        Err(e) => {
                            err.at_line(base + line_in, format!("move {n} ('{tok}'): {e}"));
                            record = None;
                        }
                    }
                }
            }
        }
    }

    let answer_field = t.get("answer");
    if answer_field.is_none() {
        err.missing(header, "answer");
    }
    let question = match (ask.as_deref(), record.as_ref(), answer_field) {
        (Some(code), Some(r), Some(a)) => read_question(&mut err, t, code, header, r, rule_at, a),
        (Some(code), _, _) if !XiangqiQuestion::CODES.contains(&code) => {
            unknown_ask(&mut err, t, code);
            None
        }
        _ => None,
    };

    if !err.problems.is_empty() {
        return Err(err.problems);
    }
    let (Some(title), Some(explanation), Some(record), Some(question), Some(answer_field)) =
        (title, explanation, record, question, answer_field)
    else {
        return Err(vec![Problem::at(
            src.path,
            header,
            format!("puzzle '{id}': incomplete"),
        )]);
    };
    Ok(XiangqiPuzzle {
        id,
        title,
        theme: theme.to_string(),
        motif: crate::motif::xiangqi(&record),
        record,
        rule_at,
        question,
        prompt_text,
        explanation: explanation.trim().to_string(),
        tags,
        difficulty,
        source,
        origin,
        answer_origin: src.origin(answer_field.span()),
    })
}

fn unknown_ask(err: &mut PuzzleErrors<'_>, t: &DeTable<'_>, code: &str) {
    let span = t.get("ask").map_or(0..0, |v| v.span());
    err.at(
        span,
        format!(
            "unknown ask = \"{code}\" (a xiangqi puzzle asks one of: {})",
            XiangqiQuestion::CODES.join(", ")
        ),
    );
}

/// Read the question `code` with its keys and the stated answer `a`.
fn read_question(
    err: &mut PuzzleErrors<'_>,
    t: &DeTable<'_>,
    code: &str,
    header: usize,
    record: &Record,
    rule_at: RuleAt,
    a: Field<'_, '_>,
) -> Option<XiangqiQuestion> {
    match code {
        "ruling" => {
            err.refuse(t, code, "at");
            err.refuse(t, code, "attack");
            match a.get_ref().as_str().and_then(Verdict::parse) {
                Some(stated) => Some(XiangqiQuestion::Ruling { stated }),
                None => {
                    err.at(
                        a.span(),
                        "answer must be \"red-loses\", \"black-loses\" or \"draw\"",
                    );
                    None
                }
            }
        }
        "chase" => {
            err.refuse(t, code, "attack");
            err.refuse(t, code, "ntimes");
            let Some(v) = t.get("at") else {
                err.require(header, code, "at");
                return None;
            };
            let n = record.ply();
            let ply = v
                .get_ref()
                .as_integer()
                .and_then(|i| i.as_str().parse::<usize>().ok());
            let ply = match ply {
                Some(p) if (1..n).contains(&p) => p,
                _ => {
                    err.at(
                        v.span(),
                        format!(
                            "'at' must be the number of a move that has a reply (1 to {})",
                            n.saturating_sub(1)
                        ),
                    );
                    return None;
                }
            };
            if record.irreversible(ply) {
                err.at(
                    v.span(),
                    format!(
                        "move {ply} is a capture or a pawn advance: a cancel, never judged a chase"
                    ),
                );
                return None;
            }
            let stated = read_chase(err, a)?;
            Some(XiangqiQuestion::Chase { ply, stated })
        }
        "protected" => {
            err.refuse(t, code, "at");
            err.refuse(t, code, "ntimes");
            let Some(v) = t.get("attack") else {
                err.require(header, code, "attack");
                return None;
            };
            let attack = read_attack(err, v, record.current())?;
            match yes_no(a) {
                Some(stated) => Some(XiangqiQuestion::Protected { attack, stated }),
                None => {
                    err.at(a.span(), "answer must be \"yes\" or \"no\"");
                    None
                }
            }
        }
        "break" => {
            err.refuse(t, code, "at");
            err.refuse(t, code, "attack");
            let pos = record.current();
            if pos.has_no_moves() {
                err.at(
                    t.get("ask").map_or(0..0, |v| v.span()),
                    "ask = \"break\" where the side to move has no legal move",
                );
                return None;
            }
            let ruled = threefold_xiangqi::judge::JudgedGame::of(record, rule_at);
            if let Some(r) = ruled.standing() {
                err.at(
                    t.get("ask").map_or(0..0, |v| v.span()),
                    format!(
                        "ask = \"break\" on a game the judge has ruled already (after ply {}: {})",
                        r.ply,
                        r.headline()
                    ),
                );
                return None;
            }
            let mut moves = answer_moves(err, a, |s| parse_move(pos, s))?;
            moves.sort_by_key(|m| m.ucci());
            Some(XiangqiQuestion::Break { stated: moves })
        }
        other => {
            unknown_ask(err, t, other);
            None
        }
    }
}

/// A `chase` answer: "none", "check", a piece "rook b7", or an array of pieces.
fn read_chase(err: &mut PuzzleErrors<'_>, a: Field<'_, '_>) -> Option<ChaseStatus> {
    const HOW: &str = "answer must be \"none\", \"check\", or the chased pieces as [\"rook b7\", ...] (kind and point)";
    let words: Vec<String> = match a.get_ref() {
        DeValue::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "none" | "no" | "idle" => return Some(ChaseStatus::None),
            "check" => return Some(ChaseStatus::Check),
            _ => vec![s.to_string()],
        },
        DeValue::Array(_) => str_array(err, a, "answer")?,
        _ => {
            err.at(a.span(), HOW);
            return None;
        }
    };
    let mut pieces = Vec::new();
    for w in &words {
        match parse_piece(w) {
            Some(p) => pieces.push(p),
            None => {
                err.at(a.span(), format!("'{w}': {HOW}"));
                return None;
            }
        }
    }
    if pieces.is_empty() {
        err.at(a.span(), HOW);
        return None;
    }
    Some(ChaseStatus::chases(pieces))
}

/// The `attack` of a `protected` question: a capture (UCCI from and to points) that the
/// attacker's side could legally make in `pos` — with the side to move flipped when the
/// attacker is the side that just moved.
fn read_attack(err: &mut PuzzleErrors<'_>, v: Field<'_, '_>, pos: &Position) -> Option<AttackRef> {
    const HOW: &str =
        "'attack' must be a capture as the attacker's and the victim's points, like \"h3h7\"";
    let Some(s) = v.get_ref().as_str() else {
        err.at(v.span(), HOW);
        return None;
    };
    let t: String = s.chars().filter(|&c| c != '-').collect();
    let squares = (t.len() == 4 && t.is_ascii())
        .then(|| {
            Some((
                t[0..2].parse::<Square>().ok()?,
                t[2..4].parse::<Square>().ok()?,
            ))
        })
        .flatten();
    let Some((from, to)) = squares else {
        err.at(v.span(), format!("'{s}': {HOW}"));
        return None;
    };
    let (Some(attacker), Some(victim)) = (pos.piece_at(from), pos.piece_at(to)) else {
        err.at(
            v.span(),
            format!("'attack' = '{s}': needs a piece on {from} and one on {to}"),
        );
        return None;
    };
    if attacker.color == victim.color {
        err.at(
            v.span(),
            format!("'attack' = '{s}': the pieces on {from} and {to} are on the same side"),
        );
        return None;
    }
    if victim.kind == Kind::King {
        err.at(
            v.span(),
            format!("'attack' = '{s}': a king is checked, never captured: name another victim"),
        );
        return None;
    }
    let asked = if attacker.color == pos.side_to_move() {
        pos.clone()
    } else {
        pos.with_side_flipped()
    };
    let capture = Move::new(from, to);
    if !asked.is_legal(capture) {
        err.at(
            v.span(),
            format!(
                "'attack' = '{s}': the {} on {from} cannot legally take the {} on {to}",
                attacker.kind.name(),
                victim.kind.name()
            ),
        );
        return None;
    }
    Some(AttackRef {
        capture,
        attacker: attacker.kind,
        victim: victim.kind,
        by: attacker.color,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_skipped_and_lines_kept() {
        let toks = move_tokens("1. C2=5 h7e7\n2.H2+3 12... R1+1");
        assert_eq!(toks, [(0, "C2=5"), (0, "h7e7"), (1, "H2+3"), (1, "R1+1")]);
    }
}
