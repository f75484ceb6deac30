//! Chess puzzle files: the positions and moves, read by the rules core, the questions and
//! their answers.

use std::ops::Range;

use toml::de::{DeTable, DeValue};

use threefold_rules::Game;
use threefold_rules::pgn::PgnReason;

use super::shared::{
    Common, Field, PuzzleErrors, Src, answer_moves, opt_str, read_common, read_theme, yes_no,
};
use crate::types::{
    Answer, ClaimRule, EndingRule, PlyRef, PlySet, Problem, Puzzle, Question, Start, Theme,
    normalize_label, short_label,
};

/// The keys a puzzle may have.
pub(crate) const PUZZLE_KEYS: &[&str] = &[
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
    "move",
    "at",
    "first",
    "second",
];

/// [`load_str`] of a chess puzzle file already parsed (`doc`).
pub(crate) fn load_chess(src: &Src<'_>, doc: &DeTable<'_>) -> (Option<Theme>, Vec<Problem>) {
    let mut problems = Vec::new();
    let t = read_theme(src, doc, &mut problems, read_puzzle);
    let theme = Theme {
        id: t.id,
        name: t.name,
        description: t.description,
        file: src.path.to_path_buf(),
        puzzles: t.puzzles,
    };
    (Some(theme), problems)
}

pub(crate) fn read_puzzle(
    src: &Src<'_>,
    theme: &str,
    span: Range<usize>,
    t: &DeTable<'_>,
) -> Result<Puzzle, Vec<Problem>> {
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
    } = read_common(src, span.clone(), t, PUZZLE_KEYS, "a puzzle");
    let start = match opt_str(&mut err, t, "start") {
        None => Start::Standard,
        Some(s) if s.trim().eq_ignore_ascii_case("standard") => Start::Standard,
        Some(s) => Start::Fen(s.trim().to_string()),
    };

    // The game: start position and moves, played by the rules core (the
    // puzzle keeps the game; nothing replays the SAN again).
    let mut game = match &start {
        Start::Standard => Some(Game::new()),
        Start::Fen(f) => match Game::from_fen(f) {
            Ok(g) => Some(g),
            Err(e) => {
                let span = t.get("start").map(|v| v.span()).unwrap_or(span.clone());
                err.at(span, e.to_string());
                None
            }
        },
    };
    if let Some(v) = t.get("moves") {
        match v.get_ref().as_str() {
            None => err.at(v.span(), "'moves' must be a string of SAN moves"),
            Some(text) => {
                let base = src.text_line(v.span());
                let listed = tokens(text).unwrap_or_else(|(line_in, msg)| {
                    err.at_line(base + line_in, format!("moves: {msg}"));
                    game = None;
                    Vec::new()
                });
                for (line_in, tok) in listed {
                    let line = base + line_in;
                    if let Some(g) = game.as_mut() {
                        let n = g.len() + 1;
                        if let Err(e) = g.play_san(&tok) {
                            err.at_line(line, format!("move {n} ('{tok}'): {e}"));
                            game = None;
                        }
                    }
                }
            }
        }
    }

    // The question.
    let question = match (ask.as_deref(), game.as_ref()) {
        (None, _) | (_, None) => None,
        (Some(code), Some(g)) => read_question(&mut err, t, code, header, g),
    };
    let answer_field = t.get("answer");
    if answer_field.is_none() {
        err.missing(header, "answer");
    }
    let answer = match (&question, answer_field, game.as_ref()) {
        (Some(q), Some(v), Some(g)) => read_answer(&mut err, q, v, g),
        _ => None,
    };

    if !err.problems.is_empty() {
        return Err(err.problems);
    }
    let (
        Some(title),
        Some(explanation),
        Some(game),
        Some(question),
        Some(answer),
        Some(answer_field),
    ) = (title, explanation, game, question, answer, answer_field)
    else {
        // Every None above has recorded a problem.
        return Err(vec![Problem::at(
            src.path,
            header,
            format!("puzzle '{id}': incomplete"),
        )]);
    };
    // Kept for the session: only the plies played (a puzzle file may hold 100,000).
    let mut game = game;
    game.shrink_to_fit();
    Ok(Puzzle {
        id,
        title,
        theme: theme.to_string(),
        motif: crate::motif::chess(&game),
        game: Box::new(game),
        question,
        prompt_text,
        answer,
        explanation: explanation.trim().to_string(),
        tags,
        difficulty,
        source,
        origin,
        answer_origin: src.origin(answer_field.span()),
    })
}

/// The SAN moves of a move text with the line (0-based, within the text) of each, read as
/// PGN movetext by the one PGN lexer ([`threefold_rules::pgn::move_list`]): move numbers
/// ("12.", "12...", "12.Nf3"), comments and results are skipped; `0-0` reads as `O-O`.
/// An error gives its line (0-based) and message.
pub(crate) fn tokens(text: &str) -> Result<Vec<(usize, String)>, (usize, PgnReason)> {
    threefold_rules::pgn::move_list(text)
        .map(|moves| moves.into_iter().map(|m| (m.line - 1, m.san)).collect())
        .map_err(|(line, msg)| (line - 1, msg))
}

/// Resolve a position reference ("start", "4...Ng8", "12.Qh5+", or a ply number).
pub(crate) fn resolve_ref(
    err: &mut PuzzleErrors<'_>,
    v: Field<'_, '_>,
    key: &str,
    game: &Game,
) -> Option<PlyRef> {
    let (text, found) = match v.get_ref() {
        DeValue::Integer(i) => {
            let ply = i.as_str().parse::<usize>().ok();
            (i.as_str().to_string(), ply.filter(|&p| p <= game.len()))
        }
        DeValue::String(s) => (s.to_string(), find_label(game, s)),
        _ => {
            err.at(
                v.span(),
                format!(
                    "'{key}' must be \"start\", a move label like \"4...Ng8\", or a ply number"
                ),
            );
            return None;
        }
    };
    match found {
        Some(ply) => Some(PlyRef {
            text: if ply == 0 {
                "start".to_string()
            } else {
                short_label(game, ply)
            },
            ply,
        }),
        None => {
            let labels: Vec<String> = (0..=game.len()).map(|p| short_label(game, p)).collect();
            err.at(
                v.span(),
                format!(
                    "'{key}' = '{text}' names no position of this game (positions: {})",
                    abbreviate(&labels)
                ),
            );
            None
        }
    }
}

pub(crate) fn abbreviate(labels: &[String]) -> String {
    if labels.len() <= 12 {
        labels.join(", ")
    } else {
        format!(
            "{}, ..., {}",
            labels[..6].join(", "),
            labels[labels.len() - 4..].join(", ")
        )
    }
}

/// The ply a label names: "start"/"0" is ply 0, else the ply whose
/// scoresheet label matches (spaces and check marks ignored).
pub(crate) fn find_label(game: &Game, text: &str) -> Option<usize> {
    let want = normalize_label(text);
    if want.eq_ignore_ascii_case("start") {
        return Some(0);
    }
    if let Ok(p) = want.parse::<usize>() {
        return (p <= game.len()).then_some(p);
    }
    (1..=game.len()).find(|&p| short_label(game, p) == want)
}

pub(crate) fn read_question(
    err: &mut PuzzleErrors<'_>,
    t: &DeTable<'_>,
    code: &str,
    header: usize,
    game: &Game,
) -> Option<Question> {
    let span_of = |key: &str| t.get(key).map(|v| v.span());
    let q = match code {
        "claim" | "claim-moves" | "ending" => {
            for k in ["move", "at", "first", "second"] {
                err.refuse(t, code, k);
            }
            match code {
                "claim" => Question::Claim,
                "claim-moves" => Question::ClaimMoves,
                _ => Question::Ending,
            }
        }
        "intended" => {
            for k in ["at", "first", "second"] {
                err.refuse(t, code, k);
            }
            let Some(v) = t.get("move") else {
                err.require(header, code, "move");
                return None;
            };
            let Some(mv) = v.get_ref().as_str() else {
                err.at(v.span(), "'move' must be a SAN move, e.g. \"Nf3\"");
                return None;
            };
            match game.parse_san(mv) {
                Ok(mv) => Question::Intended { mv },
                Err(e) => {
                    err.at(v.span(), format!("'move' = '{mv}': {e}"));
                    return None;
                }
            }
        }
        "count" => {
            for k in ["move", "first", "second"] {
                err.refuse(t, code, k);
            }
            let at = match t.get("at") {
                None => None,
                Some(v) => Some(resolve_ref(err, v, "at", game)?),
            };
            Question::Count { at }
        }
        "same" => {
            for k in ["move", "at"] {
                err.refuse(t, code, k);
            }
            let (Some(a), Some(b)) = (t.get("first"), t.get("second")) else {
                if t.get("first").is_none() {
                    err.require(header, code, "first");
                }
                if t.get("second").is_none() {
                    err.require(header, code, "second");
                }
                return None;
            };
            let first = resolve_ref(err, a, "first", game);
            let second = resolve_ref(err, b, "second", game);
            Question::Same {
                first: first?,
                second: second?,
            }
        }
        other => {
            let span = span_of("ask").unwrap_or(0..0);
            err.at(
                span,
                format!(
                    "unknown ask = \"{other}\" (expected one of: {})",
                    Question::CODES.join(", ")
                ),
            );
            return None;
        }
    };
    if let Question::Claim | Question::ClaimMoves | Question::Intended { .. } = q
        && let Some(term) = game.termination()
    {
        let span = span_of("ask").unwrap_or(0..0);
        err.at(
            span,
            format!(
                "ask = \"{code}\" on a game that is already over ({}); ask = \"ending\" instead",
                term.ending.kind
            ),
        );
        return None;
    }
    Some(q)
}

/// Read the stated answer for question `q`.
pub(crate) fn read_answer(
    err: &mut PuzzleErrors<'_>,
    q: &Question,
    v: Field<'_, '_>,
    game: &Game,
) -> Option<Answer> {
    let span = v.span();
    match q {
        Question::Claim | Question::Intended { .. } => {
            let s = v.get_ref().as_str();
            match s.and_then(ClaimRule::parse) {
                Some(r) => Some(Answer::Claim(r)),
                None => {
                    err.at(
                        span,
                        "answer must be \"none\", \"threefold\", \"fifty\" or \"both\"",
                    );
                    None
                }
            }
        }
        Question::Ending => match v.get_ref().as_str().and_then(EndingRule::parse) {
            Some(r) => Some(Answer::Ending(r)),
            None => {
                err.at(
                    span,
                    "answer must be \"no\", \"checkmate\", \"stalemate\", \"insufficient\", \"fivefold\" or \"seventy-five\"",
                );
                None
            }
        },
        Question::Same { .. } => match yes_no(v) {
            Some(b) => Some(Answer::Same(b)),
            None => {
                err.at(span, "answer must be \"yes\" or \"no\"");
                None
            }
        },
        Question::ClaimMoves => answer_moves(err, v, |s| game.parse_san(s)).map(Answer::moves),
        Question::Count { .. } => {
            let Some(table) = v.get_ref().as_table() else {
                err.at(
                    span,
                    "answer must be a table: { count = 3, after = [\"start\", \"2...Ng8\", \"4...Ng8\"] }",
                );
                return None;
            };
            for (k, val) in table.iter() {
                if !matches!(k.get_ref().as_ref(), "count" | "after") {
                    err.at(
                        val.span(),
                        format!(
                            "unknown key '{}' in answer (expected count, after)",
                            k.get_ref()
                        ),
                    );
                }
            }
            let count = match table.get("count") {
                Some(c) => match c
                    .get_ref()
                    .as_integer()
                    .and_then(|i| i.as_str().parse::<usize>().ok())
                {
                    Some(n) => Some(n),
                    None => {
                        err.at(c.span(), "answer count must be a positive integer");
                        None
                    }
                },
                None => {
                    err.at(span.clone(), "answer needs 'count'");
                    None
                }
            };
            let places = match table.get("after") {
                Some(a) => match a.get_ref().as_array() {
                    Some(items) => {
                        let mut plies = Vec::new();
                        for item in items.iter() {
                            plies.push(resolve_ref(err, item, "after", game)?.ply);
                        }
                        Some(plies)
                    }
                    None => {
                        err.at(a.span(), "answer 'after' must be an array of move labels");
                        None
                    }
                },
                None => {
                    err.at(span.clone(), "answer needs 'after' (the list of places)");
                    None
                }
            };
            let (count, plies) = (count?, places?);
            let n = plies.len();
            let places = PlySet::new(plies);
            if places.count() != n || count != n {
                err.at(
                    span,
                    format!(
                        "answer count = {count} but 'after' lists {n} place{} ({} distinct)",
                        if n == 1 { "" } else { "s" },
                        places.count()
                    ),
                );
                return None;
            }
            Some(Answer::Count(places))
        }
    }
}
