//! The xiangqi game in progress kept between runs ([`crate::tui::game::kept`], the one path
//! for both games): what of a xiangqi game is kept (its moves in UCCI, players, level and
//! clocks), how it comes back, how an older kept file (PGN) is read, and the question at
//! start (resume it, or replace it with the game from the command line).

use std::path::Path;
use std::time::Instant;

use crate::drills::GameKind;
use crate::tui::config::{KeepError, LEVEL, Players};
use crate::tui::game::Question;
use crate::tui::game::kept::{self, Keep, SavedClocks, SavedGame, SavedGameReason};
use crate::tui::game::players;
use crate::xiangqi::pgn as xpgn;
use crate::xiangqi::{Move, Position};

use super::{OnYes, Overlay, Requests, XiangqiScreen};

impl XiangqiScreen {
    /// Keep the game in progress where games are kept between runs ([`Self::kept_path`];
    /// nowhere: nothing is done), as [`kept::keep`] keeps both games.
    pub fn keep_in_progress(&mut self) -> Result<(), KeepError> {
        kept::keep(self)
    }

    /// The kept game found at start: resume it? (`given`: a game was given on the command
    /// line: replace the kept one with it?) It stays on disk until the player answers.
    pub fn offer_kept(&mut self, saved: SavedGame, given: bool) {
        let q = Question::Kept(kept::offer(self, saved, given, None));
        self.overlay = Some(Overlay::Ask(q, Box::new(OnYes::Kept)));
    }
}

/// The start and moves of a kept xiangqi game, or what is wrong with it.
fn restore(saved: &SavedGame) -> Result<(Position, Vec<Move>), SavedGameReason> {
    let start = Position::from_fen(&saved.start_fen)
        .map_err(|e| SavedGameReason::XiangqiFen(Box::new(e)))?;
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(saved.moves.len());
    for (i, m) in saved.moves.iter().enumerate() {
        let mv = crate::xiangqi::notation::parse_ucci(&pos, m).map_err(|e| {
            SavedGameReason::XiangqiMove {
                ply: i + 1,
                source: Box::new(e),
            }
        })?;
        pos.make(mv);
        moves.push(mv);
    }
    Ok((start, moves))
}

impl Keep for XiangqiScreen {
    const GAME: GameKind = GameKind::Xiangqi;

    fn kept(&self, now: Instant) -> SavedGame {
        let rec = self.record();
        SavedGame {
            game: GameKind::Xiangqi,
            start_fen: rec.position(0).fen(),
            moves: (1..=rec.ply()).map(|p| rec.move_at(p).ucci()).collect(),
            human: self.players,
            level: Some(self.level),
            claims: Vec::new(),
            clocks: self.clock.as_ref().map(|c| SavedClocks::of(c, now)),
        }
    }

    fn check(saved: &SavedGame) -> Result<(), SavedGameReason> {
        restore(saved).map(|_| ())
    }

    /// Before the one format, the xiangqi game was kept as PGN: its moves, and who played
    /// in its tags ("Player", or "threefold level N" for the engine).
    fn read_older(text: &str) -> Result<SavedGame, SavedGameReason> {
        let g = xpgn::read(text).map_err(|e| SavedGameReason::XiangqiPgn(Box::new(e)))?;
        let engine = |tag: &str| {
            g.tag(tag)
                .and_then(|v| v.strip_prefix("threefold level "))
                .and_then(|l| l.parse::<u8>().ok())
        };
        let (red, black) = (engine("White"), engine("Black"));
        let human = match (red, black) {
            (None, None) => Players::TwoHumans,
            (None, Some(_)) => Players::HumanWhite,
            (Some(_), None) => Players::HumanBlack,
            (Some(_), Some(_)) => Players::Engines,
        };
        let moves = g.moves.iter().map(|m| m.ucci()).collect();
        Ok(SavedGame {
            game: GameKind::Xiangqi,
            start_fen: g.start.fen(),
            moves,
            human,
            level: red.or(black),
            claims: Vec::new(),
            clocks: None,
        })
    }

    fn kept_path(&self) -> Option<&Path> {
        self.kept_path.as_deref()
    }

    fn unanswered(&mut self) -> &mut bool {
        &mut self.kept_unanswered
    }

    /// The kept game back on the board, with its players, level and clocks.
    fn resume(&mut self, saved: &SavedGame, out: &mut Requests) {
        self.kept_unanswered = false;
        let (start, moves) = match restore(saved) {
            Ok(game) => game,
            Err(e) => return kept::cannot_resume(out, e),
        };
        self.players = saved.human;
        if let Some(f) = players::flipped(self.players) {
            self.flipped = f;
        }
        if let Some(level) = saved.level {
            self.level = level.clamp(*LEVEL.start() as u8, *LEVEL.end() as u8);
        }
        let turn = match moves.len() % 2 {
            0 => start.side_to_move(),
            _ => start.side_to_move().other(),
        };
        let clock = saved.clocks.map(|c| c.resumed(turn, !moves.is_empty()));
        self.set_game_clocked(start, &moves, clock, out);
        kept::resumed(out);
    }

    fn go_on(&mut self, out: &mut Requests) {
        self.maybe_engine(out);
    }
}
