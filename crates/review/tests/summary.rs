//! The review's statistics ([`threefold_review::summary`]): generated games, with repetitions
//! and claims recorded, read from PGN as the scan reads them; the totals of shards merge into
//! the totals of one run whatever the split, the JSON form round-trips, and a game without
//! repetitions counts the same through the scan's quick path as through the full review.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use threefold_review::summary::{
    ChessDetail, ChessTotals, GameTags, rating_band, result_key, time_control_class,
};
use threefold_rules::Game;
use threefold_rules::claim::{Ground, claims_possible_in};
use threefold_rules::pgn::{ClaimMark, PgnReader, RecordedClaim, claim_notes, write_annotated};
use threefold_rules::review::{GameRecord, review_claims};
use threefold_rules::shuffle::{Rng, shuffling_game};

/// Start positions: the initial one, endgames for shuffling, and two whose fifty-move count
/// is near its end (9.3 claims, the seventy-five-move rule).
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppbqppp/2np1n2/4p3/4P3/2NP1N2/PPPBQPPP/R3K2R w KQkq - 2 8",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/r7 w - - 40 60",
    "4k3/8/8/8/8/8/4P3/R3K2R w KQ - 90 80",
    "8/8/4k3/8/8/3K4/8/R6r w - - 130 100",
];

const TIME_CONTROLS: &[Option<&str>] = &[
    Some("15+0"),
    Some("60+0"),
    Some("180+2"),
    Some("600+5"),
    Some("1800+20"),
    Some("-"),
    Some("40/7200:3600"),
    Some("?"),
    None,
];

const ELOS: &[Option<&str>] = &[
    Some("850"),
    Some("1499"),
    Some("1500"),
    Some("2210"),
    Some("3150"),
    Some("?"),
    None,
];

fn start(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// A game of random legal moves (few repetitions), at most `max` plies.
fn random_game(rng: &mut Rng, max: usize) -> Game {
    let mut g = Game::new();
    while !g.is_over() && g.len() < max {
        let legal = g.legal_moves();
        let m = legal[rng.below(legal.len())];
        g.play(m).unwrap();
    }
    g
}

/// The claims recorded with a game: correct ones at its claim chances, and claims made
/// anywhere (mostly incorrect), with and without the rule.
fn recorded_claims(rng: &mut Rng, game: &Game) -> Vec<RecordedClaim> {
    let mut out = Vec::new();
    let ground = |rng: &mut Rng| match rng.below(3) {
        0 => None,
        1 => Some(Ground::Threefold),
        _ => Some(Ground::FiftyMoves),
    };
    if rng.below(3) == 0 {
        let chances = review_claims(game, &GameRecord::default()).chances;
        if !chances.is_empty() {
            let ch = &chances[rng.below(chances.len())];
            let (m, g) = ch.claim();
            let (ply, mark) = match m {
                Some(m) if ch.played == Some(m) => (ch.ply + 1, ClaimMark::WithMove),
                _ => (ch.ply, ClaimMark::Now),
            };
            if mark == ClaimMark::Now || ch.played.is_some() {
                out.push(RecordedClaim {
                    ply,
                    mark,
                    ground: Some(g).filter(|_| rng.below(2) == 0),
                    line: 0,
                });
            }
        }
    }
    if rng.below(4) == 0 && !game.is_empty() {
        let ply = 1 + rng.below(game.len());
        let mark = if rng.below(2) == 0 {
            ClaimMark::Now
        } else {
            ClaimMark::WithMove
        };
        out.push(RecordedClaim {
            ply,
            mark,
            ground: ground(rng),
            line: 0,
        });
    }
    out.sort_by_key(|c| c.ply);
    out
}

/// The generated database: one PGN text per game, two of them unreadable.
fn games() -> Vec<String> {
    let mut rng = Rng::new(0x5077_A12E_5EED);
    let mut out = Vec::new();
    for i in 0..180 {
        let game = if i % 3 == 0 {
            let max = 20 + rng.below(80);
            random_game(&mut rng, max)
        } else {
            let s = start(STARTS[i % STARTS.len()]);
            let max = 40 + rng.below(120);
            let moves = shuffling_game(&s, &mut rng, max);
            let mut g = Game::from_position(s);
            for m in moves {
                g.play(m).unwrap();
            }
            g
        };
        let claims = recorded_claims(&mut rng, &game);
        let result = ["1-0", "0-1", "1/2-1/2", "1/2-1/2", "*"][rng.below(5)];
        let mut tags = vec![("Result", result)];
        let pick = |rng: &mut Rng, from: &[Option<&'static str>]| from[rng.below(from.len())];
        if let Some(tc) = pick(&mut rng, TIME_CONTROLS) {
            tags.push(("TimeControl", tc));
        }
        if let Some(e) = pick(&mut rng, ELOS) {
            tags.push(("WhiteElo", e));
        }
        if let Some(e) = pick(&mut rng, ELOS) {
            tags.push(("BlackElo", e));
        }
        let pgn = write_annotated(&game, &tags, &claim_notes(&claims));
        out.push(pgn);
        if i == 50 || i == 131 {
            out.push("[Event \"bad\"]\n\n1. e4 Zz9 2. Nf3 *\n".to_string());
        }
    }
    out
}

/// What the scan does with a game: the quick path when nothing can be claimed in it, else the
/// full review.
fn add_game(totals: &mut ChessTotals, rec: &threefold_rules::pgn::PgnRecord, game: &Game) {
    let record = GameRecord::from_pgn(rec);
    let tags = GameTags {
        result: rec.tag("Result"),
        time_control: rec.tag("TimeControl"),
        white_elo: rec.tag("WhiteElo"),
        black_elo: rec.tag("BlackElo"),
    };
    if record.claims.is_empty() && !claims_possible_in(game) {
        totals.add(&tags, game.len(), None);
    } else {
        let claims = review_claims(game, &record);
        let detail = ChessDetail {
            game,
            claims: &claims,
            record: &record,
        };
        totals.add(&tags, game.len(), Some(detail));
    }
}

/// The totals of the games `texts`, read as one PGN file.
fn summary(texts: &[&String]) -> ChessTotals {
    let pgn: String = texts.iter().map(|t| format!("{t}\n")).collect();
    let mut reader = PgnReader::new(pgn.as_bytes(), "shard.pgn");
    let mut totals = ChessTotals::default();
    loop {
        match reader.next_game() {
            Ok(Some((rec, game))) => add_game(&mut totals, &rec, &game),
            Ok(None) => break,
            Err(e) => {
                reader
                    .skip_bad_game()
                    .unwrap()
                    .unwrap_or_else(|| panic!("not skippable: {e}"));
                totals.add_skipped();
            }
        }
    }
    totals
}

fn merged(parts: &[ChessTotals]) -> ChessTotals {
    let mut out = ChessTotals::default();
    for p in parts {
        out.merge(p);
    }
    out
}

/// Every figure the merge adds is exercised: the generated games have some of each.
fn assert_covers_every_figure(t: &ChessTotals) {
    let g = &t.total;
    let c = &g.claims;
    let figures = [
        ("skipped", t.skipped),
        ("games", g.games),
        ("plies", g.plies),
        ("games with threefold", g.games_with_threefold),
        ("threefold positions", g.threefold_positions),
        ("fivefold", g.fivefold),
        ("seventy-five moves", g.seventy_five_moves),
        (
            "drawn by unclaimed repetition",
            g.drawn_by_unclaimed_repetition,
        ),
        ("9.2 b chances", c.chances.threefold_now),
        ("9.3 b chances", c.chances.fifty_now),
        ("9.2 a chances", c.chances.threefold_move),
        ("9.3 a chances", c.chances.fifty_move),
        ("taken", c.taken().total()),
        ("missed 9.2 b", c.missed.threefold_now),
        ("missed 9.2 a", c.missed.threefold_move),
        ("missed runs", c.missed_runs.total()),
        ("claimed correct", c.claimed_correct.total()),
        ("claimed incorrect", c.claimed_incorrect.total()),
        ("claimed incorrect, no rule", c.claimed_incorrect_unstated),
        ("rating unknown", t.rating_unknown.sides),
    ];
    for (name, n) in figures {
        assert!(n > 0, "no {name} in the generated games: {t:#?}");
    }
    assert!(
        t.by_time_control.len() >= 6,
        "{:?}",
        t.by_time_control.keys()
    );
    assert!(t.by_result.len() >= 4, "{:?}", t.by_result.keys());
    assert!(t.by_rating.len() >= 4, "{:?}", t.by_rating.keys());
}

#[test]
fn shards_merge_into_the_one_run_totals() {
    let games = games();
    let all: Vec<&String> = games.iter().collect();
    let whole = summary(&all);
    assert_covers_every_figure(&whole);
    assert_eq!(whole.skipped, 2);
    assert_eq!(whole.total.games as usize, games.len() - 2);
    // The breakdowns each hold every game (rating: every side).
    let games_in = |m: &std::collections::BTreeMap<
        String,
        threefold_review::summary::GameCounts,
    >| { m.values().map(|g| g.games).sum::<u64>() };
    assert_eq!(games_in(&whole.by_time_control), whole.total.games);
    assert_eq!(games_in(&whole.by_result), whole.total.games);
    let sides: u64 =
        whole.by_rating.values().map(|s| s.sides).sum::<u64>() + whole.rating_unknown.sides;
    assert_eq!(sides, 2 * whole.total.games);

    // Contiguous shards, cut in several ways (a bad game at a cut included).
    for cuts in [
        vec![1],
        vec![51],
        vec![52, 53],
        vec![10, 60, 61, 120, 181],
        (1..games.len()).step_by(7).collect(),
        (1..games.len()).collect(),
    ] {
        let mut parts = Vec::new();
        let mut from = 0;
        for &c in cuts.iter().chain([&games.len()]) {
            parts.push(summary(&all[from..c]));
            from = c;
        }
        assert_eq!(merged(&parts), whole, "cut at {cuts:?}");
        // In any order.
        parts.reverse();
        assert_eq!(merged(&parts), whole, "cut at {cuts:?}, merged backwards");
    }
    // Interleaved shards (every k-th game), merged pairwise.
    for k in [2, 3, 5] {
        let mut parts: Vec<ChessTotals> = (0..k)
            .map(|r| {
                let shard: Vec<&String> = all.iter().copied().skip(r).step_by(k).collect();
                summary(&shard)
            })
            .collect();
        while parts.len() > 1 {
            let b = parts.pop().unwrap();
            let mut a = parts.pop().unwrap();
            a.merge(&b);
            parts.insert(0, a);
        }
        assert_eq!(parts[0], whole, "every {k}th game");
    }
}

#[test]
fn the_json_form_round_trips_and_merges() {
    let games = games();
    let all: Vec<&String> = games.iter().collect();
    let whole = summary(&all);
    let json = serde_json::to_string(&whole).unwrap();
    let back: ChessTotals = serde_json::from_str(&json).unwrap();
    assert_eq!(back, whole);
    // Shards written as JSON and read back merge into the whole.
    let parts: Vec<ChessTotals> = [&all[..70], &all[70..]]
        .iter()
        .map(|s| serde_json::from_str(&serde_json::to_string(&summary(s)).unwrap()).unwrap())
        .collect();
    assert_eq!(merged(&parts), whole);
    // Stable: the same totals write the same bytes.
    assert_eq!(serde_json::to_string(&merged(&parts)).unwrap(), json);
    // Something else is refused: an unknown figure would be lost by a merge.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["total"]["new_figure"] = 1.into();
    assert!(serde_json::from_value::<ChessTotals>(v).is_err());
    assert!(serde_json::from_str::<ChessTotals>("{}").is_err());
}

#[test]
fn quick_path_and_full_review_agree_on_games_without_repetitions() {
    let games = games();
    let pgn: String = games.iter().map(|t| format!("{t}\n")).collect();
    let mut reader = PgnReader::new(pgn.as_bytes(), "all.pgn");
    let mut quick_games = 0;
    loop {
        let (rec, game) = match reader.next_game() {
            Ok(Some(g)) => g,
            Ok(None) => break,
            Err(_) => {
                reader.skip_bad_game().unwrap().unwrap();
                continue;
            }
        };
        let record = GameRecord::from_pgn(&rec);
        if !record.claims.is_empty() || claims_possible_in(&game) {
            continue;
        }
        quick_games += 1;
        let tags = GameTags {
            result: rec.tag("Result"),
            time_control: rec.tag("TimeControl"),
            white_elo: rec.tag("WhiteElo"),
            black_elo: rec.tag("BlackElo"),
        };
        let mut quick = ChessTotals::default();
        quick.add(&tags, game.len(), None);
        let mut full = ChessTotals::default();
        let claims = review_claims(&game, &record);
        full.add(
            &tags,
            game.len(),
            Some(ChessDetail {
                game: &game,
                claims: &claims,
                record: &record,
            }),
        );
        assert_eq!(quick, full, "{:?}", game.uci_moves());
    }
    assert!(quick_games >= 40, "{quick_games} games without repetitions");
}

fn game_from_san(sans: &str) -> Game {
    let mut g = Game::new();
    for s in sans.split_whitespace() {
        g.play_san(s).unwrap();
    }
    g
}

fn one(sans: &str, result: &str, claims: Vec<RecordedClaim>) -> ChessTotals {
    let game = game_from_san(sans);
    let record = GameRecord {
        claims,
        result: Some(result.to_string()).filter(|r| r != "*"),
        ..GameRecord::default()
    };
    let claims = review_claims(&game, &record);
    let mut t = ChessTotals::default();
    t.add(
        &GameTags {
            result: Some(result),
            time_control: Some("300+0"),
            white_elo: Some("1650"),
            black_elo: None,
        },
        game.len(),
        Some(ChessDetail {
            game: &game,
            claims: &claims,
            record: &record,
        }),
    );
    t
}

/// The knights' shuffle: Black could draw with 4...Ng8 written with a claim (9.2 a), White at
/// once after it (9.2 b); the start position stood three times.
const SHUFFLE: &str = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";

#[test]
fn a_drawn_shuffle_is_a_repetition_nobody_claimed() {
    let t = one(SHUFFLE, "1/2-1/2", vec![]);
    let g = &t.total;
    assert_eq!((g.games, g.plies), (1, 8));
    assert_eq!((g.games_with_threefold, g.threefold_positions), (1, 1));
    assert_eq!(g.drawn_by_unclaimed_repetition, 1);
    assert_eq!(g.claims.chances.threefold_move, 1);
    assert_eq!(g.claims.chances.threefold_now, 1);
    assert_eq!(g.claims.chances.total(), 2);
    // The draw ended the game at those chances: taken, not missed.
    assert_eq!(g.claims.missed.total(), 0);
    assert_eq!(g.claims.taken().total(), 2);
    // White's chance counts for White's band, Black's for the unrated side.
    assert_eq!(t.by_rating[&1600].claims.chances.threefold_now, 1);
    assert_eq!(t.rating_unknown.claims.chances.threefold_move, 1);
    assert_eq!(t.by_time_control["blitz"], t.total);
    assert_eq!(t.by_result["1/2-1/2"], t.total);
}

#[test]
fn an_unfinished_shuffle_has_two_missed_runs() {
    let t = one(SHUFFLE, "*", vec![]);
    let c = &t.total.claims;
    assert_eq!(t.total.drawn_by_unclaimed_repetition, 0);
    assert_eq!((c.missed.total(), c.missed_runs.total()), (2, 2));
    assert_eq!(c.missed_runs.threefold_move, 1);
    assert_eq!(c.missed_runs.threefold_now, 1);
    assert_eq!(t.by_result["*"].games, 1);
}

#[test]
fn recorded_claims_count_by_rule_and_ruling() {
    let claim = |ply, mark, ground| RecordedClaim {
        ply,
        mark,
        ground,
        line: 0,
    };
    // Black writes 4...Ng8 with a claim (correct, 9.2 a); an earlier claim by White at once
    // after 2...Ng8 (the start position twice only) is incorrect, once under 9.2, once
    // without a rule.
    for (early, unstated) in [(Some(Ground::Threefold), 0), (None, 1)] {
        let t = one(
            SHUFFLE,
            "1/2-1/2",
            vec![
                claim(4, ClaimMark::Now, early),
                claim(8, ClaimMark::WithMove, None),
            ],
        );
        let c = &t.total.claims;
        assert_eq!(c.claimed_correct.threefold_move, 1);
        assert_eq!(c.claimed_correct.total(), 1);
        assert_eq!(c.claimed_incorrect.threefold_now, 1 - unstated);
        assert_eq!(c.claimed_incorrect_unstated, unstated);
        assert_eq!(c.claimed(), 2);
        // A claim is recorded: the draw is not one nobody claimed.
        assert_eq!(t.total.drawn_by_unclaimed_repetition, 0);
        // The claims count for the side that made them.
        assert_eq!(t.by_rating[&1600].claims.claimed(), 1);
        assert_eq!(t.rating_unknown.claims.claimed_correct.total(), 1);
    }
}

#[test]
fn tags_are_classed() {
    for (tc, class) in [
        ("0+1", "bullet"),
        ("15+0", "ultrabullet"),
        ("29", "ultrabullet"),
        ("30", "bullet"),
        ("60+1", "bullet"),
        ("120+1", "bullet"),
        ("180+0", "blitz"),
        ("300+3", "blitz"),
        ("480", "rapid"),
        ("600+0", "rapid"),
        ("900+10", "rapid"),
        ("1500", "classical"),
        ("5400+30", "classical"),
        ("40/7200:3600", "classical"),
        ("*180", "blitz"),
        ("-", "correspondence"),
        ("?", "unknown"),
        ("", "unknown"),
        ("fast", "unknown"),
    ] {
        assert_eq!(time_control_class(Some(tc)), class, "{tc}");
    }
    assert_eq!(time_control_class(None), "unknown");
    for (elo, band) in [
        ("0", Some(0)),
        ("199", Some(0)),
        ("200", Some(200)),
        ("1999", Some(1800)),
        (" 2000 ", Some(2000)),
        ("2999", Some(2800)),
        ("3000", Some(3000)),
        ("3400", Some(3000)),
        ("?", None),
        ("-", None),
        ("", None),
    ] {
        assert_eq!(rating_band(Some(elo)), band, "{elo}");
    }
    for (r, key) in [
        ("1-0", "1-0"),
        ("0-1", "0-1"),
        ("1/2-1/2", "1/2-1/2"),
        ("*", "*"),
        ("draw", "unknown"),
    ] {
        assert_eq!(result_key(Some(r)), key);
    }
    assert_eq!(result_key(None), "unknown");
}

fn text(t: &ChessTotals) -> String {
    let mut out = Vec::new();
    t.write_text(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    for line in text.lines() {
        let n = line.chars().count();
        assert!(n <= 80, "{n} columns: {line}\n{text}");
    }
    for section in [
        "Chess",
        "Repetitions",
        "Claims",
        "By time control",
        "By result",
        "By rating",
    ] {
        assert!(text.contains(section), "{section}:\n{text}");
    }
    text
}

#[test]
fn the_text_fits_80_columns() {
    let games = games();
    let all: Vec<&String> = games.iter().collect();
    let mut t = summary(&all);
    // Exact figures while they fit.
    let small = text(&t);
    let all_chances = threefold_engine::level::thousands(t.total.claims.chances.total());
    assert!(
        small.lines().any(
            |l| l.starts_with("  available (turns)") && l.ends_with(&format!(" {all_chances}"))
        ),
        "{all_chances}\n{small}"
    );
    // Two months of lichess: figures of nine digits and more, rounded in the tables.
    for _ in 0..10 {
        let copy = t.clone();
        t.merge(&copy);
        t.merge(&copy);
        t.merge(&copy);
    }
    let big = text(&t);
    assert!(big.contains("  games read  "), "{big}");
    assert!(big.contains(" 188,743,680\n"), "{big}");
    assert!(big.contains("  classical      32.5M"), "{big}");
}
