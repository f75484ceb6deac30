//! `review --all` as a database scan (`threefold_review::scan`): generated games, many with
//! repetitions, claims recorded in comments and games that cannot be read, give the same
//! report and the same findings on 1, 2 and 4 threads, compressed or not, from a file or
//! standard input, as the strict reader reviewing every game one after another.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position, Role};
use threefold::rules::pgn::PgnReader;
use threefold::rules::review::{GameRecord, review_claims};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_threefold")
}

fn run(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .output()
        .expect("run threefold")
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One game's PGN: random moves, captures preferred half the time; about one game in three
/// shuffles a piece out and back (positions stand twice, three times, claims come and go),
/// some with a claim recorded; one in 40 has an illegal move.
fn game(rng: &mut Rng, n: usize) -> String {
    let mut pos = Chess::default();
    let mut sans = Vec::new();
    let plies = 10 + rng.below(120);
    let shuffler = rng.below(3) == 0;
    // One game in 20 is a long quiet one: 50 moves and more without a capture or a pawn move
    // (the fifty-move rule's claims).
    if rng.below(20) == 0 {
        for _ in 0..(95 + rng.below(20)) {
            let quiet: Vec<_> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| !m.is_capture() && m.role() != Role::Pawn && !m.is_castle())
                .collect();
            let Some(m) = quiet.get(rng.below(quiet.len().max(1))).cloned() else {
                break;
            };
            sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        }
    }
    let mut claimed = false;
    while sans.len() < plies {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.is_insufficient_material() {
            break;
        }
        if shuffler && rng.below(6) == 0 {
            let times = 1 + rng.below(3);
            let mut p = pos.clone();
            let mut line = Vec::new();
            'shuffle: for _ in 0..times {
                let mut out = Vec::new();
                for _ in 0..2 {
                    let quiet: Vec<_> = p
                        .legal_moves()
                        .into_iter()
                        .filter(|m| !m.is_capture() && m.role() != Role::Pawn && !m.is_castle())
                        .collect();
                    let Some(m) = quiet.get(rng.below(quiet.len().max(1))).cloned() else {
                        break 'shuffle;
                    };
                    out.push(m);
                    line.push(SanPlus::from_move_and_play_unchecked(&mut p, m));
                }
                // And back, in the same order.
                for m in out {
                    let back = p.legal_moves().into_iter().find(|r| {
                        r.from() == Some(m.to()) && r.to() == m.from().unwrap() && !r.is_capture()
                    });
                    let Some(r) = back else { break 'shuffle };
                    line.push(SanPlus::from_move_and_play_unchecked(&mut p, r));
                }
            }
            if line.is_empty() {
                continue;
            }
            sans.extend(line.iter().map(|s| s.to_string()));
            pos = p;
            if !claimed && rng.below(4) == 0 {
                claimed = true;
                let rule = if rng.below(2) == 0 { " 9.2" } else { "" };
                sans.push(format!("{{[%claim now{rule}]}}"));
            }
            continue;
        }
        let caps: Vec<_> = legal.iter().filter(|m| m.is_capture()).cloned().collect();
        let m = if !caps.is_empty() && rng.below(2) == 0 {
            caps[rng.below(caps.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    if rng.below(40) == 0 && !sans.is_empty() {
        let at = rng.below(sans.len());
        sans.insert(at, "Ke9".to_string());
    }
    let mut movetext = String::new();
    let mut ply = 0;
    for s in &sans {
        if s.starts_with('{') {
            movetext.push_str(s);
            movetext.push(' ');
            continue;
        }
        if ply % 2 == 0 {
            movetext.push_str(&format!("{}. ", ply / 2 + 1));
        }
        movetext.push_str(s);
        movetext.push(' ');
        if rng.below(4) == 0 {
            movetext.push_str(&format!(
                "{{ [%clk 0:0{}:1{}] }} ",
                rng.below(10),
                rng.below(10)
            ));
        }
        ply += 1;
        if ply % 12 == 0 {
            movetext.push('\n');
        }
    }
    let result = ["1-0", "0-1", "1/2-1/2", "*"][rng.below(4)];
    format!(
        "[Event \"scan {n}\"]\n[White \"w{n}\"]\n[Black \"b{n}\"]\n[Result \"{result}\"]\n\
         [TimeControl \"{}+0\"]\n\n{movetext}{result}\n\n",
        60 * (1 + rng.below(10))
    )
}

fn games(count: usize, seed: u64) -> String {
    let mut rng = Rng(seed);
    (1..=count).map(|n| game(&mut rng, n)).collect()
}

fn write(dir: &Path, name: &str, text: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The rules findings of every game of `text` read by the strict reader alone, one game after
/// another: (game number, ply, kind).
fn reference(text: &str) -> Vec<(u64, u64, String)> {
    let mut reader = PgnReader::new(text.as_bytes(), "games.pgn");
    let mut out = Vec::new();
    let mut n = 0u64;
    loop {
        match reader.next_game() {
            Ok(Some((rec, game))) => {
                n += 1;
                let r = review_claims(&game, &GameRecord::from_pgn(&rec));
                for f in r.findings {
                    out.push((n, f.ply as u64, f.kind.code().to_string()));
                }
            }
            Ok(None) => break,
            Err(_) => {
                n += 1;
                reader.skip_bad_game().unwrap().expect("a bad game to skip");
            }
        }
    }
    out
}

fn findings(out: &Output) -> Vec<(u64, u64, String)> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect(l);
            (
                v["game"].as_u64().unwrap(),
                v["ply"].as_u64().unwrap(),
                v["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_scan_finds_what_the_reader_finds_on_any_thread_count() {
    let dir = std::env::temp_dir().join(format!("threefold-scan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = games(600, 0x5eed);
    let path = write(&dir, "games.pgn", text.as_bytes());
    let file = path.to_str().unwrap();
    let want = reference(&text);
    assert!(want.len() > 50, "the games have findings: {}", want.len());

    // The report with every game read by the strict reader (an annotated PGN is written:
    // no game is read quickly), as the reference for the report.
    let ann = dir.join("annotated.pgn");
    let full = run(&[
        "review",
        "--pgn",
        file,
        "--all",
        "--no-engine",
        "--threads",
        "1",
        "--annotate",
        ann.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&full.stdout).contains("Game 600:"));
    for threads in ["1", "2", "4"] {
        let json = run(&[
            "review",
            "--pgn",
            file,
            "--all",
            "--no-engine",
            "--json",
            "--threads",
            threads,
        ]);
        assert_eq!(findings(&json), want, "{threads} threads");
        let report = run(&[
            "review",
            "--pgn",
            file,
            "--all",
            "--no-engine",
            "--threads",
            threads,
        ]);
        assert_eq!(report.stdout, full.stdout, "{threads} threads");
        assert_eq!(report.stderr, full.stderr, "{threads} threads");
        assert_eq!(report.status.code(), full.status.code());
    }

    // Compressed, and from standard input: the same.
    let mut enc = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
    enc.write_all(text.as_bytes()).unwrap();
    let zst = write(&dir, "games.pgn.zst", &enc.finish().unwrap());
    let z = run(&[
        "review",
        "--pgn",
        zst.to_str().unwrap(),
        "--all",
        "--no-engine",
        "--threads",
        "2",
    ]);
    assert_eq!(z.stdout, full.stdout);
    let mut child = Command::new(bin())
        .args([
            "review",
            "--pgn",
            "-",
            "--all",
            "--no-engine",
            "--json",
            "--threads",
            "2",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feed = text.clone();
    let writer = std::thread::spawn(move || stdin.write_all(feed.as_bytes()));
    let piped = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert_eq!(findings(&piped), want);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C during `review --all`: the games reviewed before it are written whole, the one
/// being searched is not, and the command ends with 130 and one line saying so.
#[cfg(unix)]
#[test]
fn ctrl_c_ends_the_scan_with_the_games_reviewed_so_far() {
    use std::io::{BufRead, BufReader};
    let dir = std::env::temp_dir().join(format!("threefold-scan-int-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = games(20, 7);
    let path = write(&dir, "games.pgn", text.as_bytes());
    let mut child = Command::new(bin())
        .args([
            "review",
            "--pgn",
            path.to_str().unwrap(),
            "--all",
            "--threads",
            "1",
        ])
        .args(["--nodes", "20000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with("Game 1:"), "{first}");
    // SAFETY: kill(2) with the child's pid and SIGINT.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    assert!(!rest.contains("Game 6:"), "{rest}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interrupted after"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database split in shards, each reviewed on its own with `--summary-json`, and the
/// summaries merged with `review merge`: the same totals as one run over the whole file.
#[test]
fn shards_merged_give_the_summary_of_the_whole() {
    let dir = std::env::temp_dir().join(format!("threefold-scan-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = games(600, 0xd1ce);
    let whole = write(&dir, "whole.pgn", text.as_bytes());
    let whole_json = dir.join("whole.json");
    let out = run(&[
        "review",
        "--pgn",
        whole.to_str().unwrap(),
        "--all",
        "--no-engine",
        "--threads",
        "2",
        "--summary-json",
        whole_json.to_str().unwrap(),
    ]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    // Three shards, cut at game starts.
    let starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
    let cuts = [0, starts[150], starts[420], text.len()];
    let mut parts = Vec::new();
    for (k, w) in cuts.windows(2).enumerate() {
        let shard = write(&dir, &format!("shard{k}.pgn"), &text.as_bytes()[w[0]..w[1]]);
        let json = dir.join(format!("shard{k}.json"));
        let out = run(&[
            "review",
            "--pgn",
            shard.to_str().unwrap(),
            "--all",
            "--no-engine",
            "--threads",
            "1",
            "--summary-json",
            json.to_str().unwrap(),
        ]);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
        parts.push(json.to_str().unwrap().to_string());
    }
    let mut args = vec!["review", "merge"];
    args.extend(parts.iter().map(String::as_str));
    let merged = run(&args);
    assert_eq!(merged.status.code(), Some(0), "{merged:?}");
    let merged: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    let one: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&whole_json).unwrap()).unwrap();
    assert_eq!(merged, one);
    assert_eq!(
        one["chess"]["total"]["games"].as_u64().unwrap()
            + one["chess"]["skipped"].as_u64().unwrap(),
        600
    );
    assert!(
        one["chess"]["total"]["claims"]["chances"]["threefold_move"]
            .as_u64()
            .unwrap()
            > 0
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Xiangqi games in a scan: a collection without the Variant tag with `--xiangqi`, and
/// games with the tag among chess games, go to the WXF judge; the same output on 1 and 2
/// threads, and the summary counts each game in its own game's totals.
#[test]
fn xiangqi_games_are_judged_in_the_scan() {
    let collection = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/xiangqi/fsf_selfplay.pgn"
    );
    let one = run(&[
        "review",
        "--pgn",
        collection,
        "--all",
        "--xiangqi",
        "--threads",
        "1",
    ]);
    let two = run(&[
        "review",
        "--pgn",
        collection,
        "--all",
        "--xiangqi",
        "--threads",
        "2",
    ]);
    assert_eq!(one.status.code(), Some(0), "{one:?}");
    assert_eq!(one.stdout, two.stdout);
    let text = String::from_utf8_lossy(&one.stdout);
    assert!(text.contains("Game 200: "), "{text}");
    assert!(text.contains("perpetual chase"), "{text}");

    // Three games of the collection, tagged, among chess games.
    let dir = std::env::temp_dir().join(format!("threefold-scan-xq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let coll = std::fs::read_to_string(collection).unwrap();
    let starts: Vec<usize> = coll.match_indices("[Event ").map(|(i, _)| i).collect();
    let mut mixed = games(4, 3);
    for k in 0..3 {
        let game = &coll[starts[k]..starts[k + 1]];
        mixed.push_str(&game.replacen("[Event ", "[Variant \"xiangqi\"]\n[Event ", 1));
        mixed.push_str(&games(1, 10 + k as u64));
    }
    let path = write(&dir, "mixed.pgn", mixed.as_bytes());
    let json = dir.join("mixed.json");
    let out = run(&[
        "review",
        "--pgn",
        path.to_str().unwrap(),
        "--all",
        "--no-engine",
        "--threads",
        "2",
        "--summary-json",
        json.to_str().unwrap(),
    ]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    let report = String::from_utf8_lossy(&out.stdout);
    for n in [5, 7, 9] {
        assert!(
            report.contains(&format!("Game {n}: Fairy-Stockfish - Fairy-Stockfish")),
            "{report}"
        );
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["xiangqi"]["games"], 3);
    let chess = &summary["chess"];
    assert_eq!(
        chess["total"]["games"].as_u64().unwrap() + chess["skipped"].as_u64().unwrap(),
        7
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a review of the scan found, each seen failing before its fix: a claim written
/// `[% claim now]`; xiangqi games whose Variant tag the quick reading does not reach, or
/// behind a byte order mark; a compressed stream that starts with a skippable frame (pzstd)
/// or comes a byte at a time; a stream cut off mid-game; a summary written over the games.
#[test]
fn the_scan_reads_what_the_reader_reads_at_the_edges() {
    let dir = std::env::temp_dir().join(format!("threefold-scan-edges-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let review = |path: &Path, extra: &[&str]| {
        let mut args = vec![
            "review",
            "--pgn",
            path.to_str().unwrap(),
            "--all",
            "--no-engine",
        ];
        args.extend_from_slice(extra);
        run(&args)
    };

    let claim = write(
        &dir,
        "claim.pgn",
        b"[Event \"x\"]\n\n1. e4 {[% claim now]} e5 *\n",
    );
    let out = review(&claim, &["--json"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("incorrect-claim"),
        "{out:?}"
    );

    let xq = "1. h2e2 h9g7 2. h0g2 *\n";
    let tagged = format!(
        "\u{feff}[Variant \"xiangqi\"]\n\n{xq}\n[Event \"a \\\"q\\\" b\"]\n[Variant \"xiangqi\"]\n\n{xq}\n\
         [FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\"]\n\
         [Variant \"xiangqi\"]\n\n{xq}"
    );
    let path = write(&dir, "xq.pgn", tagged.as_bytes());
    let out = review(&path, &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("plies, xiangqi)").count(), 3, "{out:?}");
    assert_eq!(out.status.code(), Some(0), "{out:?}");

    // A skippable frame first, then the games compressed.
    let games_text = games(30, 5);
    let mut z = vec![0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 7, 7];
    z.extend(zstd::encode_all(games_text.as_bytes(), 3).unwrap());
    let zpath = write(&dir, "pz.pgn.zst", &z);
    let plain = write(&dir, "plain.pgn", games_text.as_bytes());
    let want = review(&plain, &[]);
    assert_eq!(review(&zpath, &[]).stdout, want.stdout);
    // Through a pipe, two bytes first.
    let mut child = Command::new(bin())
        .args(["review", "--pgn", "-", "--all", "--no-engine"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feed = z.clone();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&feed[..2]).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        stdin.write_all(&feed[2..]).unwrap();
    });
    let piped = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(piped.stdout, want.stdout);

    // Cut off in the middle of the compressed stream: the games before are reviewed, the
    // one it broke off in is named, not reviewed as if whole.
    let whole = zstd::encode_all(games(400, 9).as_bytes(), 3).unwrap();
    let cut = write(&dir, "cut.pgn.zst", &whole[..whole.len() / 2]);
    let out = review(&cut, &["--threads", "1"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("skipped: the stream broke off in this game"),
        "{err}"
    );
    assert!(err.contains("damaged"), "{err}");

    // The summary is never written over the games.
    let before = std::fs::read(&plain).unwrap();
    let out = review(&plain, &["--summary-json", plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&plain).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}
