//! Engine-level tests: repetitions seen through the game history, contempt, mates, limits.
//! Shallow depths so the whole suite stays quick in debug builds.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen, uci::UciMove};

use super::*;

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn moves(start: &Chess, ucis: &[&str]) -> Vec<Move> {
    let mut p = start.clone();
    ucis.iter()
        .map(|u| {
            let m = u.parse::<UciMove>().unwrap().to_move(&p).unwrap();
            p.play_unchecked(m);
            m
        })
        .collect()
}

fn search(e: &mut Engine, start: &Chess, ms: &[Move], depth: u32) -> SearchResult {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    e.search(
        &Request::new(start, ms, &limits, &stop),
        &mut (),
        &mut |_| {},
    )
}

fn uci(m: Option<Move>) -> String {
    m.map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .unwrap_or_default()
}

fn cp(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) => {
            if n > 0 {
                30000
            } else {
                -30000
            }
        }
    }
}

/// Black is a knight up; both sides shuffle: white Kg1-h1-g1, black Na8-b6-a8.
const KNIGHT_DOWN: &str = "n5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1";
const ONE_CYCLE: [&str; 4] = ["g1h1", "a8b6", "h1g1", "b6a8"];

#[test]
fn finds_perpetual_check_when_it_is_the_only_save() {
    // White is a queen and rook down; Qg5+ Kf8 Qd8+ Kg7 Qg5+ ... is a perpetual (Stockfish:
    // 0.00 for Qg5+, about -6.6 for every other move).
    let p = pos("6k1/5p1p/8/8/8/4Q3/qr4PP/7K w - - 0 1");
    let mut e = Engine::new(4).unwrap();
    let r = search(&mut e, &p, &[], 9);
    assert_eq!(uci(r.best), "e3g5", "{r:?}");
    assert!(cp(r.score).abs() <= 30, "{r:?}");
}

#[test]
fn twofold_before_root_is_not_a_draw_in_the_first_two_plies() {
    // Root = start position after one shuffle cycle (2nd occurrence). Kh1 repeats a position
    // that occurred once, before the root, at ply 1: not a draw, so White's score stays that
    // of a knight down.
    let start = pos(KNIGHT_DOWN);
    let ms = moves(&start, &ONE_CYCLE);
    let mut e = Engine::new(4).unwrap();
    let r = search(&mut e, &start, &ms, 6);
    assert!(cp(r.score) < -150, "{r:?}");
}

#[test]
fn third_occurrence_from_game_history_is_a_draw_at_once() {
    // After two cycles, Kh1 makes the position after 1. Kh1 appear for the third time: a draw
    // the knight-down side takes.
    let start = pos(KNIGHT_DOWN);
    let mut cyc = ONE_CYCLE.to_vec();
    cyc.extend_from_slice(&ONE_CYCLE);
    let ms = moves(&start, &cyc);
    let mut e = Engine::new(4).unwrap();
    let r = search(&mut e, &start, &ms, 6);
    assert_eq!(uci(r.best), "g1h1", "{r:?}");
    assert_eq!(r.score, Score::Cp(0), "{r:?}");
    // Depth 1 too: the draw is seen at once.
    let r = search(&mut e, &start, &ms, 1);
    assert_eq!((uci(r.best), r.score), ("g1h1".to_string(), Score::Cp(0)));
}

#[test]
fn contempt_takes_a_repetition_when_behind() {
    let start = pos(KNIGHT_DOWN);
    let mut cyc = ONE_CYCLE.to_vec();
    cyc.extend_from_slice(&ONE_CYCLE);
    let ms = moves(&start, &cyc);
    let mut e = Engine::new(4).unwrap();
    e.set_contempt(100);
    let r = search(&mut e, &start, &ms, 6);
    // A draw is worth -100 to White, better than a knight down.
    assert_eq!(uci(r.best), "g1h1", "{r:?}");
    assert_eq!(r.score, Score::Cp(-100), "{r:?}");
    // With a contempt larger than the knight, White plays on.
    e.set_contempt(900);
    e.new_game();
    let r = search(&mut e, &start, &ms, 6);
    assert_ne!(uci(r.best), "g1h1", "{r:?}");
    assert!(cp(r.score) > -900 && cp(r.score) < -150, "{r:?}");
}

#[test]
fn contempt_avoids_a_repetition_when_ahead() {
    // Colours reversed: White is the knight up, Black shuffles the king, White the knight; after
    // two cycles Nb6 would make a third occurrence.
    let start = pos("N5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
    let cyc = [
        "a8b6", "g8h8", "b6a8", "h8g8", "a8b6", "g8h8", "b6a8", "h8g8",
    ];
    let ms = moves(&start, &cyc);
    let mut e = Engine::new(4).unwrap();
    e.set_contempt(50);
    let r = search(&mut e, &start, &ms, 6);
    assert_ne!(uci(r.best), "a8b6", "{r:?}");
    assert!(cp(r.score) > 100, "{r:?}");
    // And as the side that is behind there (Black, to move after Nb6), the engine takes the
    // draw: Kh8 repeats for the third time.
    let ms2 = moves(&start, &cyc[..cyc.len() - 1]);
    let r = search(&mut e, &start, &ms2, 6);
    assert_eq!(uci(r.best), "h8g8", "{r:?}");
    assert_eq!(r.score, Score::Cp(-50), "{r:?}");
}

#[test]
fn finds_mate_in_two() {
    // A back-rank mate in two: 1. Re8+ Rxe8 2. Rxe8#.
    let p = pos("3r2k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1");
    let mut e = Engine::new(4).unwrap();
    let r = search(&mut e, &p, &[], 5);
    assert_eq!(r.score, Score::Mate(2), "{r:?}");
    assert_eq!(uci(r.best), "e2e8");
    // Being mated is reported negative.
    let p = pos("6k1/5ppp/8/8/8/8/5PPP/r5K1 w - - 0 1");
    let r = search(&mut e, &p, &[], 3);
    assert_eq!(r.score, Score::Mate(0));
    assert_eq!(r.best, None);
}

#[test]
fn stalemate_root_and_nodes_limit() {
    let p = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let mut e = Engine::new(1).unwrap();
    let r = search(&mut e, &p, &[], 3);
    assert_eq!((r.best, r.score), (None, Score::Cp(0)));
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(3000),
        ..Default::default()
    };
    let r = e.search(
        &Request::new(&Chess::default(), &[], &limits, &stop),
        &mut (),
        &mut |_| {},
    );
    assert!(r.best.is_some());
    assert!(r.nodes <= 3100, "{r:?}");
}

#[test]
fn stop_flag_and_movetime_answer_promptly() {
    let mut e = Engine::new(1).unwrap();
    let stop = AtomicBool::new(true);
    let t = Instant::now();
    let r = e.search(
        &Request::new(
            &Chess::default(),
            &[],
            &Limits {
                infinite: true,
                ..Default::default()
            },
            &stop,
        ),
        &mut (),
        &mut |_| {},
    );
    assert!(r.best.is_some());
    assert!(t.elapsed() < Duration::from_millis(500));
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let limits = Limits {
        movetime: Some(Duration::from_millis(200)),
        ..Default::default()
    };
    let mut infos = 0;
    let r = e.search(
        &Request::new(&Chess::default(), &[], &limits, &stop),
        &mut (),
        &mut |_| infos += 1,
    );
    assert!(r.best.is_some() && infos >= 1);
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn set_hash_failure_keeps_old_table() {
    let mut e = Engine::new(1).unwrap();
    assert!(e.set_hash(usize::MAX >> 20).is_err());
    let r = search(&mut e, &Chess::default(), &[], 3);
    assert!(r.best.is_some());
    assert!(e.set_hash(2).is_ok());
}

#[test]
fn engine_is_send() {
    fn is_send<T: Send>() {}
    is_send::<Engine>();
}

#[test]
fn shadow_score_changes_what_is_stored_not_the_rules() {
    // The repetition rules at the root are the plain search's: a third occurrence from the
    // game history is still taken at once by the side that is behind...
    let start = pos(KNIGHT_DOWN);
    let mut cyc = ONE_CYCLE.to_vec();
    cyc.extend_from_slice(&ONE_CYCLE);
    let ms = moves(&start, &cyc);
    let mut e = Engine::new(4).unwrap();
    e.set_shadow_score(shadow::ShadowScore::On);
    let r = search(&mut e, &start, &ms, 6);
    assert_eq!((uci(r.best), r.score), ("g1h1".to_string(), Score::Cp(0)));
    // ...and a perpetual check is still found as the only save.
    let p = pos("6k1/5p1p/8/8/8/4Q3/qr4PP/7K w - - 0 1");
    e.new_game();
    let r = search(&mut e, &p, &[], 9);
    assert_eq!(uci(r.best), "e3g5", "{r:?}");
    assert!(cp(r.score).abs() <= 30, "{r:?}");
}

/// The level's search: `level::limits` as the trainer gives it, with the seed `seed`.
fn level_move(e: &mut Engine, start: &Chess, ms: &[Move], lvl: u8, seed: u64) -> SearchResult {
    e.new_game();
    e.set_noise_seed(seed);
    let stop = AtomicBool::new(false);
    e.search(
        &Request::new(start, ms, &level::limits(lvl), &stop),
        &mut (),
        &mut |_| {},
    )
}

#[test]
fn weak_levels_vary_their_moves_by_the_seed_and_repeat_them_with_it() {
    let start = Chess::default();
    let ms = moves(&start, &["e2e4", "e7e5", "g1f3"]);
    let mut e = Engine::new(1).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..24u64 {
        let a = level_move(&mut e, &start, &ms, 1, seed);
        let b = level_move(&mut e, &start, &ms, 1, seed);
        assert_eq!(
            uci(a.best),
            uci(b.best),
            "seed {seed}: the same seed, the same move"
        );
        seen.insert(uci(a.best));
    }
    assert!(
        seen.len() >= 4,
        "level 1 played only {seen:?} over 24 seeds"
    );
    // The strongest level has no noise: one move whatever the seed.
    let strong: std::collections::BTreeSet<String> = (0..3u64)
        .map(|seed| uci(level_move(&mut e, &start, &ms, 8, seed).best))
        .collect();
    assert_eq!(strong.len(), 1, "{strong:?}");
}

#[test]
fn a_level_searches_no_more_than_its_nodes_or_depth() {
    let start = Chess::default();
    let mut e = Engine::new(1).unwrap();
    for lvl in level::LEVELS {
        let r = level_move(&mut e, &start, &[], lvl, 1);
        let l = level::level(lvl);
        if let Some(n) = l.nodes {
            assert!(r.nodes <= n, "level {lvl}: {} nodes > {n}", r.nodes);
        }
        if let Some(d) = l.depth {
            assert!(r.depth <= d, "level {lvl}: depth {} > {d}", r.depth);
        }
        assert!(r.best.is_some());
    }
}

fn search_sparring(e: &mut Engine, start: &Chess, ms: &[Move], depth: u32) -> SearchResult {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        sparring: true,
        ..Default::default()
    };
    e.search(
        &Request::new(start, ms, &limits, &stop),
        &mut (),
        &mut |_| {},
    )
}

#[test]
fn sparring_picks_a_move_within_the_margin_that_returns_to_a_position_that_stood_before() {
    // 1.e4 e5 2.Nf3 Nc6 3.Ng1 Nb8: White to move. 4.Nf3 returns to the position after
    // 2.Nf3; the normal search prefers 4.d4, by 2 cp at depth 5.
    let start = Chess::default();
    let ms = moves(&start, &["e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8"]);
    let normal = search(&mut Engine::new(16).unwrap(), &start, &ms, 5);
    assert_eq!(uci(normal.best), "d2d4", "normal play need not repeat");
    let c = sparring::candidates(&mut Engine::new(16).unwrap(), &start, &ms, false);
    let returning: Vec<String> = c
        .iter()
        .filter(|c| matches!(c.pull, sparring::Pull::Returns(_)))
        .map(|c| uci(Some(c.m)))
        .collect();
    assert_eq!(returning, ["g1f3"]);
    // The repeating move's score, verified by a search of the position after it.
    let nf3 = moves(
        &start,
        &["e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8", "g1f3"],
    );
    let verified = -cp(search(&mut Engine::new(16).unwrap(), &start, &nf3, 4).score);
    assert!(
        (cp(normal.score) - verified).abs() <= search::params::SPARRING_MARGIN_CP,
        "two moves within the margin: {} and {verified}",
        cp(normal.score)
    );
    let spar = search_sparring(&mut Engine::new(16).unwrap(), &start, &ms, 5);
    assert_eq!(uci(spar.best), "g1f3", "sparring repeats");
    assert!(
        cp(spar.score) >= cp(normal.score) - search::params::SPARRING_MARGIN_CP,
        "with a verified score within the margin: {:?}",
        spar.score
    );
}

#[test]
fn sparring_offers_a_threefold_the_player_can_claim_while_winning() {
    // Black is a queen up and shuffles with White's king: 1.Kd1 Qa7 2.Ke1 Qa8 3.Kd1 Qa7
    // 4.Ke1. 4...Qa8 would stand the start position a third time, and White could claim the
    // draw: the normal search never allows it, winning; sparring offers it (the claim is the
    // player's to make), since the position after it is as good as Black's best, by a
    // search that does not count the draw White could claim.
    let start = pos("q3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let ms = moves(
        &start,
        &["e1d1", "a8a7", "d1e1", "a7a8", "e1d1", "a8a7", "d1e1"],
    );
    let normal = search(&mut Engine::new(16).unwrap(), &start, &ms, 5);
    assert!(
        cp(normal.score) >= 500,
        "Black is winning: {:?}",
        normal.score
    );
    assert_ne!(uci(normal.best), "a7a8", "normal play avoids the draw");
    let mut e = Engine::new(16).unwrap();
    let spar = search_sparring(&mut e, &start, &ms, 5);
    assert_eq!(uci(spar.best), "a7a8", "sparring offers the claim");
    let sparred = e.sparred().expect("sparring replaced the best move");
    assert!(
        sparred.given_up() <= sparring::margin(cp(normal.score)),
        "within the margin: {sparred:?}"
    );
}

#[test]
fn sparring_never_makes_a_fivefold_repetition() {
    // The shuffle of the test above, one round longer: 6...Qa8 would stand the start
    // position a fifth time, which ends the game as a draw with no claim in chess.
    let start = pos("q3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let round = ["e1d1", "a8a7", "d1e1", "a7a8"];
    let mut ucis: Vec<&str> = round.repeat(3);
    ucis.extend(["e1d1", "a8a7", "d1e1"]);
    let ms = moves(&start, &ucis);
    let c = sparring::candidates(&mut Engine::new(16).unwrap(), &start, &ms, false);
    assert!(
        c.iter()
            .any(|c| uci(Some(c.m)) == "a7a8" && c.pull == sparring::Pull::Returns(5)),
        "{c:?}"
    );
    let spar = search_sparring(&mut Engine::new(16).unwrap(), &start, &ms, 5);
    assert_ne!(uci(spar.best), "a7a8", "no fifth occurrence");
}

#[test]
fn the_sparring_margin_scales_with_the_advantage_and_is_capped() {
    use search::params::{SPARRING_MARGIN_CP, SPARRING_MARGIN_MAX_CP};
    assert_eq!(sparring::margin(-300), SPARRING_MARGIN_CP, "losing");
    assert_eq!(sparring::margin(0), SPARRING_MARGIN_CP, "level");
    assert_eq!(
        sparring::margin(400),
        100,
        "a quarter of a winning advantage"
    );
    assert_eq!(
        sparring::margin(2_000),
        SPARRING_MARGIN_MAX_CP,
        "at most the cap"
    );
}
