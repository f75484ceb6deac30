//! The one key-binding table. The help overlay (`?`) and the status-bar hints
//! are generated from it, and key handling looks commands up in it, so the
//! three can never disagree.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::Role;

use super::config::Players;
use super::line_edit::Edit;
use crate::rules::Ground;

/// Where a binding applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctx {
    /// The game screen (board, history, claim button).
    Play,
    /// The Euwe stepper.
    Euwe,
    /// Drills: the theme list.
    DrillThemes,
    /// Drills: a puzzle waiting for an answer.
    DrillAnswer,
    /// Drills: the ruling on an answer.
    DrillFeedback,
    /// The post-game review.
    Review,
    /// The xiangqi screen (board, moves, the WXF rulings).
    Xiangqi,
    /// The xiangqi screen's choice of a call to the arbiter.
    XqCall,
    /// Xiangqi drills: the theme list.
    XqDrillThemes,
    /// Xiangqi drills: a puzzle waiting for an answer.
    XqDrillAnswer,
    /// Xiangqi drills: the answer judged.
    XqDrillFeedback,
    /// Everywhere but in a modal context (also read by the help overlay as "global").
    Global,
    /// The help overlay.
    Help,
    /// The arbiter's ruling on a claim.
    Verdict,
    /// The draw-claim dialog.
    ClaimDialog,
    /// The promotion choice.
    Promotion,
    /// A yes/no question (new game, quit, resume).
    Question,
    /// The players menu: who plays White and Black.
    PlayersMenu,
    /// A line being typed (the keys that are not text).
    Input,
    /// Choosing a game of a PGN file that holds several.
    PickGame,
    /// Choosing a scenario from a real game to play (from either game's drills).
    PickScenario,
}

impl Ctx {
    /// Modal contexts take every key: the global bindings do not apply.
    pub fn is_modal(self) -> bool {
        matches!(
            self,
            Ctx::Help
                | Ctx::Verdict
                | Ctx::ClaimDialog
                | Ctx::Promotion
                | Ctx::Question
                | Ctx::PlayersMenu
                | Ctx::Input
                | Ctx::PickGame
                | Ctx::PickScenario
                | Ctx::XqCall
        )
    }
}

/// A key as written in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Code(KeyCode),
    Ctrl(char),
}

/// An option of the claim dialog: the rule claimed under, now or with an
/// intended move (FIDE 9.2 b, 9.2 a, 9.3 b, 9.3 a).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaimOption {
    pub ground: Ground,
    pub with_move: bool,
}

impl ClaimOption {
    pub const THREEFOLD_NOW: ClaimOption = ClaimOption {
        ground: Ground::Threefold,
        with_move: false,
    };
    pub const THREEFOLD_WITH_MOVE: ClaimOption = ClaimOption {
        ground: Ground::Threefold,
        with_move: true,
    };
    pub const FIFTY_NOW: ClaimOption = ClaimOption {
        ground: Ground::FiftyMoves,
        with_move: false,
    };
    pub const FIFTY_WITH_MOVE: ClaimOption = ClaimOption {
        ground: Ground::FiftyMoves,
        with_move: true,
    };
}

/// Commands a key can trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmd {
    Up,
    Down,
    Left,
    Right,
    Select,
    TypeMove,
    Claim,
    /// Offer a draw (FIDE 9.1).
    OfferDraw,
    /// Resign (FIDE 5.1.2), after a question.
    Resign,
    /// Play on from a position whose game ended outside the rules of play (a resignation,
    /// an agreed draw, a loaded game's recorded result).
    PlayOn,
    Takeback,
    NewGame,
    Flip,
    HistBack,
    HistForward,
    HistStart,
    HistEnd,
    PrevOccurrence,
    NextOccurrence,
    Players,
    Stronger,
    Weaker,
    Clocks,
    Hash,
    Contempt,
    /// Blind mode on/off: no repetition marks, no hints.
    Blind,
    Save,
    Load,
    Fen,
    Euwe,
    EuweNext,
    EuwePrev,
    EuweJumpStart,
    EuweJumpEnd,
    EuweJumpFivefold,
    EuweAutoplay,
    EuweFaster,
    EuweSlower,
    Drills,
    /// Xiangqi: open the xiangqi screen (from chess), or back to chess (from xiangqi).
    Xiangqi,
    /// Xiangqi: call the arbiter (the choice: forbidden repetition or draw).
    CallArbiter,
    /// Xiangqi: the call made.
    CallAs(crate::xiangqi::arbiter::Call),
    /// Xiangqi: the panel "How the judge sees it" on / off.
    JudgePanel,
    /// Xiangqi: the judge's glossary (check, chase, idle, cancel, ...), in the help.
    Glossary,
    /// Xiangqi: why the marked targets of the piece picked up are forbidden now.
    WhyForbidden,
    /// Xiangqi: WXF or the traditional Chinese notation.
    Notation,
    /// Xiangqi: rule a repetition at its first occurrence (the paper's engine) or at the
    /// third (arbiters, Fairy-Stockfish).
    RuleAt,
    /// The panel "How engines see it" on / off (game screen and Euwe stepper).
    EnginesPanel,
    /// Open the post-game review.
    Review,
    /// Review: add the finding selected as a drill puzzle ("From your games").
    AddPuzzle,
    DrillUp,
    DrillDown,
    /// The first theme, or the start of a puzzle's move list.
    DrillFirst,
    /// The last theme, or the end of a puzzle's move list.
    DrillLast,
    DrillPick,
    DrillChoose,
    DrillPrevOption,
    DrillNextOption,
    DrillSubmit,
    DrillYes,
    DrillNo,
    DrillType,
    DrillToggle,
    DrillRemoveMove,
    DrillSkip,
    DrillNext,
    Help,
    Back,
    Quit,
    /// Help: scroll a line up / down, a page up / down, to the top / bottom.
    ScrollUp,
    ScrollDown,
    PageUp,
    PageDown,
    ScrollTop,
    ScrollBottom,
    /// Close an overlay (help, ruling, dialog) without doing anything.
    Close,
    /// Claim dialog: claim under a rule, now or with an intended move.
    ClaimAs(ClaimOption),
    /// Promotion: the piece to promote to.
    Promote(Role),
    /// Players menu: who plays.
    ChoosePlayers(Players),
    /// Sparring on or off (the players menu).
    ToggleSparring,
    /// Answer a question yes / no.
    Yes,
    No,
    /// Input line: submit what was typed.
    Submit,
    /// The list of scenarios from real games (the drill screens).
    Scenarios,
    /// Input line: an edit of the line (cursor, deletions).
    Edit(Edit),
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    pub ctx: Ctx,
    pub keys: &'static [Key],
    pub cmd: Cmd,
    /// Shown in the help overlay.
    pub help: &'static str,
    /// Short label for the status bar, if the binding is hinted there.
    pub hint: Option<&'static str>,
}

use Key::{Char, Code, Ctrl};

const fn b(
    ctx: Ctx,
    keys: &'static [Key],
    cmd: Cmd,
    help: &'static str,
    hint: Option<&'static str>,
) -> Binding {
    Binding {
        ctx,
        keys,
        cmd,
        help,
        hint,
    }
}

/// Every key binding of the application: context, keys, command, help, hint.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    b(Ctx::Play, &[Code(KeyCode::Up), Char('k')], Cmd::Up, "move the cursor up", None),
    b(Ctx::Play, &[Code(KeyCode::Down), Char('j')], Cmd::Down, "move the cursor down", None),
    b(Ctx::Play, &[Code(KeyCode::Left), Char('h')], Cmd::Left, "move the cursor left", None),
    b(Ctx::Play, &[Code(KeyCode::Right), Char('l')], Cmd::Right, "move the cursor right", None),
    b(Ctx::Play, &[Code(KeyCode::Enter), Char(' ')], Cmd::Select, "pick up / put down a piece (or click)", Some("move")),
    b(Ctx::Play, &[Char('i'), Char(':'), Code(KeyCode::Tab)], Cmd::TypeMove, "type a move (SAN or UCI)", Some("type")),
    b(Ctx::Play, &[Char('c')], Cmd::Claim, "claim a draw (FIDE 9.2 / 9.3)", Some("claim")),
    b(Ctx::Play, &[Char('D')], Cmd::OfferDraw, "offer a draw (FIDE 9.1: best after your move; the engine answers by its score)", None),
    b(Ctx::Play, &[Char('K')], Cmd::Resign, "resign (FIDE 5.1.2), after a question", None),
    b(Ctx::Play, &[Char('P')], Cmd::PlayOn, "play on after a resignation, an agreed draw or a loaded game's recorded end", None),
    b(Ctx::Play, &[Char('u'), Code(KeyCode::Backspace)], Cmd::Takeback, "take back a move", Some("takeback")),
    b(Ctx::Play, &[Char('n')], Cmd::NewGame, "new game", Some("new")),
    b(Ctx::Play, &[Char('f')], Cmd::Flip, "flip the board", Some("flip")),
    b(Ctx::Play, &[Char(','), Code(KeyCode::PageUp)], Cmd::HistBack, "step back through the history", Some("hist")),
    b(Ctx::Play, &[Char('.'), Code(KeyCode::PageDown)], Cmd::HistForward, "step forward through the history", None),
    b(Ctx::Play, &[Code(KeyCode::Home)], Cmd::HistStart, "go to the start position", None),
    b(Ctx::Play, &[Code(KeyCode::End)], Cmd::HistEnd, "back to the live position", None),
    b(Ctx::Play, &[Char('r')], Cmd::PrevOccurrence, "previous occurrence of this position", Some("repeat")),
    b(Ctx::Play, &[Char('R')], Cmd::NextOccurrence, "next occurrence of this position", None),
    b(Ctx::Play, &[Char('p')], Cmd::Players, "who plays: a menu (you vs the engine, two humans, engine vs engine)", Some("players")),
    b(Ctx::Play, &[Char('+'), Char('=')], Cmd::Stronger, "engine stronger", None),
    b(Ctx::Play, &[Char('-')], Cmd::Weaker, "engine weaker", None),
    b(Ctx::Play, &[Char('H')], Cmd::Hash, "engine hash size", None),
    b(Ctx::Play, &[Char('x')], Cmd::Contempt, "engine contempt", None),
    b(Ctx::Play, &[Char('t')], Cmd::Clocks, "clocks of the next game (a game under way keeps its own)", None),
    b(Ctx::Play, &[Char('B')], Cmd::Blind, "blind mode: no marks, no hints (on/off)", None),
    b(Ctx::Play, &[Char('s')], Cmd::Save, "save the game as PGN", None),
    b(Ctx::Play, &[Char('o')], Cmd::Load, "load a game from a PGN file", None),
    b(Ctx::Play, &[Char('F')], Cmd::Fen, "start from a FEN position", None),
    b(Ctx::Play, &[Char('e')], Cmd::Euwe, "Euwe's Thue–Morse stepper", Some("euwe")),
    b(Ctx::Play, &[Char('d')], Cmd::Drills, "drills: puzzles about repetition and claims", None),
    b(Ctx::Play, &[Char('E')], Cmd::EnginesPanel, "how engines see it: five repetition detectors at the shown ply", None),
    b(Ctx::Play, &[Char('v')], Cmd::Review, "review this game: missed and incorrect claims, repetitions that cost it", None),
    b(Ctx::Play, &[Char('X')], Cmd::Xiangqi, "xiangqi: the board, play the engine, the WXF rulings (the chess game is kept)", None),
    b(Ctx::Xiangqi, &[Code(KeyCode::Up), Char('k')], Cmd::Up, "move the cursor up", None),
    b(Ctx::Xiangqi, &[Code(KeyCode::Down), Char('j')], Cmd::Down, "move the cursor down", None),
    b(Ctx::Xiangqi, &[Code(KeyCode::Left), Char('h')], Cmd::Left, "move the cursor left", None),
    b(Ctx::Xiangqi, &[Code(KeyCode::Right), Char('l')], Cmd::Right, "move the cursor right", None),
    b(Ctx::Xiangqi, &[Code(KeyCode::Enter), Char(' ')], Cmd::Select, "pick up / put down a piece (or click)", Some("move")),
    b(Ctx::Xiangqi, &[Char('i'), Char(':'), Code(KeyCode::Tab)], Cmd::TypeMove, "type a move: WXF (C2=5, H2+3, tandem R+=3) or UCCI (h2e2)", Some("type")),
    b(Ctx::Xiangqi, &[Char('u'), Code(KeyCode::Backspace)], Cmd::Takeback, "take back a move (yours and the engine's reply)", Some("takeback")),
    b(Ctx::Xiangqi, &[Char('n')], Cmd::NewGame, "new xiangqi game", Some("new")),
    b(Ctx::Xiangqi, &[Char('f')], Cmd::Flip, "flip the board (Red at the top or the bottom)", Some("flip")),
    b(Ctx::Xiangqi, &[Char(','), Code(KeyCode::PageUp)], Cmd::HistBack, "step back through the game: the ruling builds up ply by ply", Some("hist")),
    b(Ctx::Xiangqi, &[Char('.'), Code(KeyCode::PageDown)], Cmd::HistForward, "step forward through the game", None),
    b(Ctx::Xiangqi, &[Code(KeyCode::Home)], Cmd::HistStart, "go to the start position", None),
    b(Ctx::Xiangqi, &[Code(KeyCode::End)], Cmd::HistEnd, "back to the live position", None),
    b(Ctx::Xiangqi, &[Char('p')], Cmd::Players, "who plays: a menu (you Red or Black against the engine, two humans, engine against engine)", Some("players")),
    b(Ctx::Xiangqi, &[Char('+'), Char('=')], Cmd::Stronger, "engine stronger", None),
    b(Ctx::Xiangqi, &[Char('-')], Cmd::Weaker, "engine weaker", None),
    b(Ctx::Xiangqi, &[Char('a')], Cmd::CallArbiter, "call the arbiter: the opponent's repetition is forbidden (perpetual check or chase), or it is a draw", Some("arbiter")),
    b(Ctx::Xiangqi, &[Char('B')], Cmd::Blind, "blind mode: statuses, marks and the judge's panel wait for the end of the game (on/off)", None),
    b(Ctx::Xiangqi, &[Char('J')], Cmd::JudgePanel, "how the judge sees it: the move shown, its status, every threat not counted and why", Some("judge")),
    b(Ctx::Xiangqi, &[Char('g')], Cmd::Glossary, "the judge's words: check, chase, idle, cancel, protected, outranks, first repetition, third occurrence", None),
    b(Ctx::Xiangqi, &[Char('y')], Cmd::WhyForbidden, "why a target marked x is forbidden now (the one under the cursor, else every one): it completes your own perpetual check or chase", None),
    b(Ctx::Xiangqi, &[Char('w')], Cmd::Notation, "moves in WXF (C2=5) or the traditional Chinese notation", None),
    b(Ctx::Xiangqi, &[Char('s')], Cmd::Save, "save the game as PGN ([Variant \"xiangqi\"], read by Fairy-Stockfish-based programs)", None),
    b(Ctx::Xiangqi, &[Char('o')], Cmd::Load, "open a xiangqi game from a PGN file", None),
    b(Ctx::XqCall, &[Char('1'), Char('f')], Cmd::CallAs(crate::xiangqi::arbiter::Call::Forbidden), "the opponent's repetition is forbidden (perpetual check or chase)", Some("forbidden")),
    b(Ctx::XqCall, &[Char('2'), Char('d')], Cmd::CallAs(crate::xiangqi::arbiter::Call::Draw), "the repetition is a draw", Some("draw")),
    b(Ctx::XqCall, &[Code(KeyCode::Esc), Char('q')], Cmd::Close, "call nothing", Some("cancel")),
    b(Ctx::Xiangqi, &[Char('d')], Cmd::Drills, "xiangqi drills: puzzles on the WXF repetition rulings", Some("drills")),
    b(Ctx::Xiangqi, &[Char('v')], Cmd::Review, "review this game: missed and wrong calls to the arbiter, moves that made your own repetition forbidden (and the moves that would have broken it)", None),
    b(Ctx::XqDrillThemes, &[Code(KeyCode::Up), Char('k')], Cmd::DrillUp, "previous theme", None),
    b(Ctx::XqDrillThemes, &[Code(KeyCode::Down), Char('j')], Cmd::DrillDown, "next theme", None),
    b(Ctx::XqDrillThemes, &[Code(KeyCode::Home), Char('g')], Cmd::DrillFirst, "first theme", None),
    b(Ctx::XqDrillThemes, &[Code(KeyCode::End), Char('G')], Cmd::DrillLast, "last theme", None),
    b(Ctx::XqDrillThemes, &[Code(KeyCode::Enter), Char(' ')], Cmd::DrillPick, "drill this theme (or click it)", Some("pick")),
    b(Ctx::XqDrillThemes, &[Char('S')], Cmd::Scenarios, "scenarios from real games: play on from a real game's position against the sparring engine", Some("scenarios")),
    b(Ctx::XqDrillAnswer, &[Char('i'), Char(':'), Code(KeyCode::Tab), Code(KeyCode::Enter)], Cmd::DrillType, "type the answer (the words the question names)", Some("type")),
    b(Ctx::XqDrillAnswer, &[Char(','), Code(KeyCode::Left), Char('h')], Cmd::HistBack, "step back through the moves", Some("ply")),
    b(Ctx::XqDrillAnswer, &[Char('.'), Code(KeyCode::Right), Char('l')], Cmd::HistForward, "step forward through the moves", None),
    b(Ctx::XqDrillAnswer, &[Code(KeyCode::Home)], Cmd::DrillFirst, "the start position", None),
    b(Ctx::XqDrillAnswer, &[Code(KeyCode::End)], Cmd::DrillLast, "the puzzle's position", None),
    b(Ctx::XqDrillAnswer, &[Char('1'), Char('2'), Char('3')], Cmd::DrillChoose, "answer with that button (or click it)", Some("answer")),
    b(Ctx::XqDrillAnswer, &[Char('s')], Cmd::DrillSkip, "skip this puzzle", Some("skip")),
    b(Ctx::XqDrillAnswer, &[Char('F')], Cmd::Fen, "show the FEN of the position shown", None),
    b(Ctx::XqDrillFeedback, &[Char('n'), Code(KeyCode::Enter)], Cmd::DrillNext, "next puzzle", Some("next")),
    b(Ctx::XqDrillFeedback, &[Char(','), Code(KeyCode::Left), Char('h')], Cmd::HistBack, "step back through the moves", Some("ply")),
    b(Ctx::XqDrillFeedback, &[Char('.'), Code(KeyCode::Right), Char('l')], Cmd::HistForward, "step forward through the moves", None),
    b(Ctx::XqDrillFeedback, &[Code(KeyCode::PageDown), Char(' ')], Cmd::PageDown, "the explanation: further down", Some("more")),
    b(Ctx::XqDrillFeedback, &[Code(KeyCode::PageUp), Char('b')], Cmd::PageUp, "the explanation: back up", None),
    b(Ctx::XqDrillFeedback, &[Code(KeyCode::Home)], Cmd::DrillFirst, "the start position", None),
    b(Ctx::XqDrillFeedback, &[Code(KeyCode::End)], Cmd::DrillLast, "the puzzle's position", None),
    b(Ctx::XqDrillFeedback, &[Char('F')], Cmd::Fen, "show the FEN of the position shown", None),
    b(Ctx::Xiangqi, &[Char('t')], Cmd::Clocks, "clocks of the next game (a game under way keeps its own)", None),
    b(Ctx::Xiangqi, &[Char('O')], Cmd::RuleAt, "rule a repetition at the first repetition (as the engine of Tan and Watkinson Medina's paper) or at the third occurrence (as arbiters and Fairy-Stockfish)", None),
    b(Ctx::Xiangqi, &[Char('F')], Cmd::Fen, "start from a xiangqi FEN", None),
    b(Ctx::Xiangqi, &[Char('X')], Cmd::Xiangqi, "back to chess (the xiangqi game is kept)", Some("chess")),
    b(Ctx::Review, &[Code(KeyCode::Up), Char('k')], Cmd::Up, "previous finding (its position on the board)", Some("finding")),
    b(Ctx::Review, &[Code(KeyCode::Down), Char('j')], Cmd::Down, "next finding (or click one)", None),
    b(Ctx::Review, &[Code(KeyCode::PageUp)], Cmd::PageUp, "a page of findings up", None),
    b(Ctx::Review, &[Code(KeyCode::PageDown)], Cmd::PageDown, "a page of findings down", None),
    b(Ctx::Review, &[Code(KeyCode::Home), Char('g')], Cmd::ScrollTop, "first finding", None),
    b(Ctx::Review, &[Code(KeyCode::End), Char('G')], Cmd::ScrollBottom, "last finding", None),
    b(Ctx::Review, &[Char(','), Code(KeyCode::Left)], Cmd::HistBack, "board: one ply back", Some("ply")),
    b(Ctx::Review, &[Char('.'), Code(KeyCode::Right)], Cmd::HistForward, "board: one ply forward", None),
    b(Ctx::Review, &[Code(KeyCode::Enter)], Cmd::Select, "view the board's ply in the game", Some("in game")),
    b(Ctx::Review, &[Char('f')], Cmd::Flip, "flip the board", None),
    b(Ctx::Review, &[Char('p')], Cmd::AddPuzzle, "add a missed or incorrect claim as a drill puzzle (theme \"From your games\"); in xiangqi a missed or wrong call or a forbidden move (\"From your xiangqi games\")", Some("puzzle")),
    b(Ctx::Review, &[Char(' '), Char('J')], Cmd::ScrollDown, "explanation: scroll down a line", Some("more")),
    b(Ctx::Review, &[Char('b'), Char('K')], Cmd::ScrollUp, "explanation: scroll up a line", None),
    b(Ctx::Euwe, &[Code(KeyCode::Right), Char('l'), Char('.'), Char(' ')], Cmd::EuweNext, "next ply", Some("next")),
    b(Ctx::Euwe, &[Code(KeyCode::Left), Char('h'), Char(',')], Cmd::EuwePrev, "previous ply", Some("prev")),
    b(Ctx::Euwe, &[Code(KeyCode::Home), Char('g')], Cmd::EuweJumpStart, "jump to the start", None),
    b(Ctx::Euwe, &[Code(KeyCode::End), Char('G')], Cmd::EuweJumpEnd, "jump to the last ply", None),
    b(Ctx::Euwe, &[Char('5')], Cmd::EuweJumpFivefold, "jump to the fivefold repetition", Some("fivefold")),
    b(Ctx::Euwe, &[Char('a'), Code(KeyCode::Enter)], Cmd::EuweAutoplay, "autoplay on/off", Some("autoplay")),
    b(Ctx::Euwe, &[Char('+'), Char('=')], Cmd::EuweFaster, "autoplay faster", Some("speed")),
    b(Ctx::Euwe, &[Char('-')], Cmd::EuweSlower, "autoplay slower", None),
    b(Ctx::Euwe, &[Char('E')], Cmd::EnginesPanel, "how engines see it: five repetition detectors at this ply", None),
    b(Ctx::DrillThemes, &[Code(KeyCode::Up), Char('k')], Cmd::DrillUp, "previous theme", None),
    b(Ctx::DrillThemes, &[Code(KeyCode::Down), Char('j')], Cmd::DrillDown, "next theme", None),
    b(Ctx::DrillThemes, &[Code(KeyCode::Home), Char('g')], Cmd::DrillFirst, "first theme", None),
    b(Ctx::DrillThemes, &[Code(KeyCode::End), Char('G')], Cmd::DrillLast, "last theme", None),
    b(Ctx::DrillThemes, &[Code(KeyCode::Enter), Char(' ')], Cmd::DrillPick, "drill this theme (or click it)", Some("pick")),
    b(Ctx::DrillThemes, &[Char('S')], Cmd::Scenarios, "scenarios from real games: play on from a real game's position against the sparring engine", Some("scenarios")),
    b(Ctx::DrillAnswer, &[Char('1'), Char('2'), Char('3'), Char('4'), Char('5'), Char('6')], Cmd::DrillChoose, "answer with that option (or click it)", Some("answer")),
    b(Ctx::DrillAnswer, &[Code(KeyCode::Left), Char('h')], Cmd::DrillPrevOption, "previous option", None),
    b(Ctx::DrillAnswer, &[Code(KeyCode::Right), Char('l')], Cmd::DrillNextOption, "next option", None),
    b(Ctx::DrillAnswer, &[Char('y')], Cmd::DrillYes, "yes (same-position questions)", None),
    b(Ctx::DrillAnswer, &[Char('n')], Cmd::DrillNo, "no (same-position questions)", None),
    b(Ctx::DrillAnswer, &[Code(KeyCode::Up), Char('k'), Char(',')], Cmd::DrillUp, "previous ply in the move list", Some("ply")),
    b(Ctx::DrillAnswer, &[Code(KeyCode::Down), Char('j'), Char('.')], Cmd::DrillDown, "next ply in the move list", None),
    b(Ctx::DrillAnswer, &[Code(KeyCode::Home)], Cmd::DrillFirst, "the start of the move list", None),
    b(Ctx::DrillAnswer, &[Code(KeyCode::End)], Cmd::DrillLast, "the end of the move list", None),
    b(Ctx::DrillAnswer, &[Char(' '), Char('x')], Cmd::DrillToggle, "choose / unchoose the ply (count; or click it)", Some("choose")),
    b(Ctx::DrillAnswer, &[Code(KeyCode::Enter)], Cmd::DrillSubmit, "submit the answer", Some("submit")),
    b(Ctx::DrillAnswer, &[Char('i'), Char(':'), Code(KeyCode::Tab)], Cmd::DrillType, "type the answer (moves in SAN, places, words)", Some("type")),
    b(Ctx::DrillAnswer, &[Code(KeyCode::Backspace)], Cmd::DrillRemoveMove, "remove the last move given", None),
    b(Ctx::DrillAnswer, &[Char('s')], Cmd::DrillSkip, "skip this puzzle", Some("skip")),
    b(Ctx::DrillAnswer, &[Char('F')], Cmd::Fen, "show the FEN of the position shown", None),
    b(Ctx::DrillFeedback, &[Char('n'), Code(KeyCode::Enter)], Cmd::DrillNext, "next puzzle", Some("next")),
    b(Ctx::DrillFeedback, &[Code(KeyCode::Up), Char('k'), Char(',')], Cmd::DrillUp, "previous ply in the move list", Some("ply")),
    b(Ctx::DrillFeedback, &[Code(KeyCode::Down), Char('j'), Char('.')], Cmd::DrillDown, "next ply in the move list", None),
    b(Ctx::DrillFeedback, &[Code(KeyCode::Home)], Cmd::DrillFirst, "the start of the move list", None),
    b(Ctx::DrillFeedback, &[Code(KeyCode::End)], Cmd::DrillLast, "the end of the move list", None),
    b(Ctx::DrillFeedback, &[Code(KeyCode::PageDown), Char(' ')], Cmd::PageDown, "the ruling: next page (or the mouse wheel over it)", Some("more")),
    b(Ctx::DrillFeedback, &[Code(KeyCode::PageUp), Char('b')], Cmd::PageUp, "the ruling: previous page", None),
    b(Ctx::DrillFeedback, &[Char('F')], Cmd::Fen, "show the FEN of the position shown", None),
    b(Ctx::Global, &[Char('?'), Code(KeyCode::F(1))], Cmd::Help, "this help", Some("help")),
    b(Ctx::Global, &[Code(KeyCode::Esc)], Cmd::Back, "close / cancel / back to the live position", Some("back")),
    b(Ctx::Global, &[Char('q'), Ctrl('c')], Cmd::Quit, "quit (asks first if a game would be lost)", Some("quit")),
    b(Ctx::Help, &[Code(KeyCode::Esc), Code(KeyCode::Enter), Char('?'), Char('q')], Cmd::Close, "close the help", Some("close")),
    b(Ctx::Help, &[Code(KeyCode::Down), Char('j')], Cmd::ScrollDown, "scroll down a line (or the mouse wheel)", Some("scroll")),
    b(Ctx::Help, &[Code(KeyCode::Up), Char('k')], Cmd::ScrollUp, "scroll up a line", None),
    b(Ctx::Help, &[Code(KeyCode::PageDown), Char(' ')], Cmd::PageDown, "next page", Some("page")),
    b(Ctx::Help, &[Code(KeyCode::PageUp), Char('b')], Cmd::PageUp, "previous page", None),
    b(Ctx::Help, &[Code(KeyCode::Home), Char('g')], Cmd::ScrollTop, "to the top", None),
    b(Ctx::Help, &[Code(KeyCode::End), Char('G')], Cmd::ScrollBottom, "to the bottom", None),
    b(Ctx::Verdict, &[Code(KeyCode::Enter), Code(KeyCode::Esc), Char('q')], Cmd::Close, "close the ruling; play goes on, the clocks restart", Some("close")),
    b(Ctx::Verdict, &[Code(KeyCode::Down), Char('j')], Cmd::ScrollDown, "scroll the ruling down a line (or the mouse wheel)", Some("scroll")),
    b(Ctx::Verdict, &[Code(KeyCode::Up), Char('k')], Cmd::ScrollUp, "scroll the ruling up a line", None),
    b(Ctx::Verdict, &[Code(KeyCode::PageDown), Char(' ')], Cmd::PageDown, "next page of the ruling", Some("page")),
    b(Ctx::Verdict, &[Code(KeyCode::PageUp), Char('b')], Cmd::PageUp, "previous page of the ruling", None),
    // The claim dialog: the help text is "<label>: <explanation>", both shown on its buttons.
    b(Ctx::ClaimDialog, &[Char('1')], Cmd::ClaimAs(ClaimOption::THREEFOLD_NOW), "threefold now (9.2 b): the position on the board stands for the 3rd time", Some("threefold")),
    b(Ctx::ClaimDialog, &[Char('2')], Cmd::ClaimAs(ClaimOption::THREEFOLD_WITH_MOVE), "threefold with a move (9.2 a): write your move; the position after it stands for the 3rd time", Some("threefold+move")),
    b(Ctx::ClaimDialog, &[Char('3')], Cmd::ClaimAs(ClaimOption::FIFTY_NOW), "fifty moves now (9.3 b): the 50-move count has reached 100/100", Some("fifty")),
    b(Ctx::ClaimDialog, &[Char('4')], Cmd::ClaimAs(ClaimOption::FIFTY_WITH_MOVE), "fifty moves with a move (9.3 a): write a move that is no capture and no pawn move; the count reaches 100/100", Some("fifty+move")),
    b(Ctx::ClaimDialog, &[Code(KeyCode::Esc), Char('q')], Cmd::Close, "cancel: no claim is made, the clocks restart", Some("cancel")),
    b(Ctx::Verdict, &[Char('v')], Cmd::Review, "review the game", Some("review")),
    b(Ctx::Promotion, &[Char('q')], Cmd::Promote(Role::Queen), "promote to a queen", Some("Queen")),
    b(Ctx::Promotion, &[Char('r')], Cmd::Promote(Role::Rook), "promote to a rook", Some("Rook")),
    b(Ctx::Promotion, &[Char('b')], Cmd::Promote(Role::Bishop), "promote to a bishop", Some("Bishop")),
    b(Ctx::Promotion, &[Char('n')], Cmd::Promote(Role::Knight), "promote to a knight", Some("Knight")),
    b(Ctx::Promotion, &[Code(KeyCode::Esc)], Cmd::Close, "take the pawn back", Some("cancel")),
    b(Ctx::Question, &[Char('y'), Code(KeyCode::Enter)], Cmd::Yes, "yes", Some("yes")),
    b(Ctx::Question, &[Char('n')], Cmd::No, "no", Some("no")),
    b(Ctx::Question, &[Code(KeyCode::Esc)], Cmd::Close, "decide later (nothing changes)", Some("later")),
    b(Ctx::PlayersMenu, &[Char('1'), Char('w')], Cmd::ChoosePlayers(Players::HumanWhite), "you play White against the engine", Some("White")),
    b(Ctx::PlayersMenu, &[Char('2'), Char('b')], Cmd::ChoosePlayers(Players::HumanBlack), "you play Black against the engine", Some("Black")),
    b(Ctx::PlayersMenu, &[Char('3'), Char('h')], Cmd::ChoosePlayers(Players::TwoHumans), "two humans at one board (the engine does not move)", Some("humans")),
    b(Ctx::PlayersMenu, &[Char('4'), Char('e')], Cmd::ChoosePlayers(Players::Engines), "the engine plays both sides", Some("engines")),
    b(Ctx::PlayersMenu, &[Char('s')], Cmd::ToggleSparring, "sparring on/off: the engine steers toward repetitions and leaves claims to you", None),
    b(Ctx::PlayersMenu, &[Code(KeyCode::Up), Char('k')], Cmd::Up, "highlight the choice above", None),
    b(Ctx::PlayersMenu, &[Code(KeyCode::Down), Char('j')], Cmd::Down, "highlight the choice below", None),
    b(Ctx::PlayersMenu, &[Code(KeyCode::Enter), Char(' ')], Cmd::Select, "choose the highlighted players (or click them)", None),
    b(Ctx::PlayersMenu, &[Code(KeyCode::Esc), Char('q')], Cmd::Close, "keep the players as they are", Some("cancel")),
    b(Ctx::PickGame, &[Code(KeyCode::Enter), Char(' ')], Cmd::Submit, "open the chosen game (or click it)", Some("open")),
    b(Ctx::PickGame, &[Code(KeyCode::Down), Char('j')], Cmd::ScrollDown, "next game (or the mouse wheel)", Some("choose")),
    b(Ctx::PickGame, &[Code(KeyCode::Up), Char('k')], Cmd::ScrollUp, "previous game", None),
    b(Ctx::PickGame, &[Code(KeyCode::PageDown)], Cmd::PageDown, "a page down", Some("page")),
    b(Ctx::PickGame, &[Code(KeyCode::PageUp)], Cmd::PageUp, "a page up", None),
    b(Ctx::PickGame, &[Code(KeyCode::Home), Char('g')], Cmd::ScrollTop, "the first game", None),
    b(Ctx::PickGame, &[Code(KeyCode::End), Char('G')], Cmd::ScrollBottom, "the last game", None),
    b(Ctx::PickGame, &[Code(KeyCode::Esc), Char('q')], Cmd::Close, "open nothing", Some("cancel")),
    b(Ctx::PickScenario, &[Code(KeyCode::Enter), Char(' ')], Cmd::Submit, "play this scenario: its game's moves up to where you take over, you on the side that must notice, the engine sparring", Some("play")),
    b(Ctx::PickScenario, &[Code(KeyCode::Down), Char('j')], Cmd::ScrollDown, "next scenario", Some("choose")),
    b(Ctx::PickScenario, &[Code(KeyCode::Up), Char('k')], Cmd::ScrollUp, "previous scenario", None),
    b(Ctx::PickScenario, &[Code(KeyCode::PageDown)], Cmd::PageDown, "ten scenarios down", None),
    b(Ctx::PickScenario, &[Code(KeyCode::PageUp)], Cmd::PageUp, "ten scenarios up", None),
    b(Ctx::PickScenario, &[Code(KeyCode::Home), Char('g')], Cmd::ScrollTop, "the first scenario", None),
    b(Ctx::PickScenario, &[Code(KeyCode::End), Char('G')], Cmd::ScrollBottom, "the last scenario", None),
    b(Ctx::PickScenario, &[Code(KeyCode::Esc), Char('q')], Cmd::Close, "play nothing", Some("cancel")),
    b(Ctx::Input, &[Code(KeyCode::Enter)], Cmd::Submit, "submit what was typed", Some("submit")),
    b(Ctx::Input, &[Code(KeyCode::Esc)], Cmd::Close, "cancel typing", Some("cancel")),
    b(Ctx::Input, &[Code(KeyCode::Left), Ctrl('b')], Cmd::Edit(Edit::Left), "cursor left", None),
    b(Ctx::Input, &[Code(KeyCode::Right), Ctrl('f')], Cmd::Edit(Edit::Right), "cursor right", None),
    b(Ctx::Input, &[Code(KeyCode::Home), Ctrl('a')], Cmd::Edit(Edit::Home), "cursor to the start of the line", None),
    b(Ctx::Input, &[Code(KeyCode::End), Ctrl('e')], Cmd::Edit(Edit::End), "cursor to the end of the line", None),
    b(Ctx::Input, &[Code(KeyCode::Backspace), Ctrl('h')], Cmd::Edit(Edit::Backspace), "delete the character before the cursor", None),
    b(Ctx::Input, &[Code(KeyCode::Delete), Ctrl('d')], Cmd::Edit(Edit::Delete), "delete the character under the cursor", None),
    b(Ctx::Input, &[Ctrl('u')], Cmd::Edit(Edit::KillToStart), "delete everything before the cursor", Some("clear")),
    b(Ctx::Input, &[Ctrl('k')], Cmd::Edit(Edit::KillToEnd), "delete from the cursor to the end", None),
    b(Ctx::Input, &[Ctrl('w')], Cmd::Edit(Edit::KillWord), "delete the word before the cursor", None),
];

impl Key {
    /// How the key is written for people.
    pub fn label(self) -> String {
        match self {
            Key::Char(' ') => "Space".to_string(),
            Key::Char(c) => c.to_string(),
            Key::Ctrl(c) => format!("Ctrl-{c}"),
            Key::Code(code) => match code {
                // Words, not arrows: an arrow's ASCII fallback is a letter or a sign that
                // other keys are ("↓" would read "v", the review's key).
                KeyCode::Up => "Up".to_string(),
                KeyCode::Down => "Down".to_string(),
                KeyCode::Left => "Left".to_string(),
                KeyCode::Right => "Right".to_string(),
                KeyCode::Enter => "Enter".to_string(),
                KeyCode::Tab => "Tab".to_string(),
                KeyCode::Backspace => "Bksp".to_string(),
                KeyCode::Delete => "Del".to_string(),
                KeyCode::PageUp => "PgUp".to_string(),
                KeyCode::PageDown => "PgDn".to_string(),
                KeyCode::Home => "Home".to_string(),
                KeyCode::End => "End".to_string(),
                KeyCode::Esc => "Esc".to_string(),
                KeyCode::F(n) => format!("F{n}"),
                other => format!("{other:?}"),
            },
        }
    }

    fn matches(self, ev: &KeyEvent) -> bool {
        match self {
            Key::Ctrl(c) => {
                ev.modifiers.contains(KeyModifiers::CONTROL) && ev.code == KeyCode::Char(c)
            }
            Key::Char(c) => {
                !ev.modifiers.contains(KeyModifiers::CONTROL) && ev.code == KeyCode::Char(c)
            }
            Key::Code(code) => ev.code == code && !ev.modifiers.contains(KeyModifiers::CONTROL),
        }
    }
}

impl Binding {
    /// All the keys of the binding, as written ("Up/k").
    pub fn keys_label(&self) -> String {
        self.keys
            .iter()
            .map(|k| k.label())
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The command bound to a key event in a context (global bindings apply everywhere).
pub fn lookup(ctx: Ctx, ev: &KeyEvent) -> Option<Cmd> {
    let global = if ctx.is_modal() {
        None
    } else {
        Some(Ctx::Global)
    };
    BINDINGS
        .iter()
        .filter(|b| b.ctx == ctx)
        .chain(BINDINGS.iter().filter(|b| Some(b.ctx) == global))
        .find(|b| b.keys.iter().any(|k| k.matches(ev)))
        .map(|b| b.cmd)
}

/// The first key of a command, as written (for messages: "press c to claim").
pub fn key_for(cmd: Cmd) -> String {
    BINDINGS
        .iter()
        .find(|b| b.cmd == cmd)
        .map(|b| b.keys[0].label())
        .unwrap_or_default()
}

/// The first key of a command in a context, as written.
pub fn key_in(ctx: Ctx, cmd: Cmd) -> String {
    BINDINGS
        .iter()
        .find(|b| b.cmd == cmd && b.ctx == ctx)
        .map(|b| b.keys[0].label())
        .unwrap_or_else(|| key_for(cmd))
}

/// The bindings of a context that have a hint, in table order (with the
/// global ones outside modal contexts).
fn hinted(ctx: Ctx) -> impl Iterator<Item = &'static Binding> {
    BINDINGS
        .iter()
        .filter(move |b| b.ctx == ctx || (b.ctx == Ctx::Global && !ctx.is_modal()))
        .filter(|b| b.hint.is_some())
}

fn hint_of(b: &Binding) -> (String, &'static str) {
    (b.keys[0].label(), b.hint.unwrap_or_default())
}

/// Status-bar hints for a context: ("c", "claim") pairs, in table order.
pub fn hints(ctx: Ctx) -> Vec<(String, &'static str)> {
    hinted(ctx).map(hint_of).collect()
}

/// The key bar of a context in `width` columns: its hints in the table's
/// order, which is their priority, each taking its key, its label and three
/// spaces. Hints that do not fit are dropped from the end, but help and quit
/// (outside modal contexts) and a modal context's close or cancel always
/// stay, in their places. Commands `enabled` refuses (a claim option the
/// dialog does not offer) are left out.
pub fn key_bar(
    ctx: Ctx,
    width: usize,
    enabled: impl Fn(Cmd) -> bool,
) -> Vec<(String, &'static str)> {
    key_bar_for(ctx, width, enabled, None)
}

/// [`key_bar`] in a game whose sides are `sides` (None: the table's words, chess's): the
/// players menu's hints name them.
pub fn key_bar_for(
    ctx: Ctx,
    width: usize,
    enabled: impl Fn(Cmd) -> bool,
    sides: Option<[&'static str; 2]>,
) -> Vec<(String, &'static str)> {
    let hint_of = |b: &Binding| (b.keys[0].label(), side_words(b, sides));
    let kept = |b: &Binding| matches!(b.cmd, Cmd::Help | Cmd::Quit | Cmd::Close);
    let w = |b: &Binding| {
        let (k, h) = hint_of(b);
        k.chars().count() + h.chars().count() + 3
    };
    let mut room = width.saturating_sub(hinted(ctx).filter(|b| kept(b)).map(w).sum());
    let mut full = false;
    let mut out = Vec::new();
    for b in hinted(ctx).filter(|b| enabled(b.cmd)) {
        if kept(b) {
            out.push(hint_of(b));
        } else if !full && w(b) <= room {
            room -= w(b);
            out.push(hint_of(b));
        } else {
            full = true;
        }
    }
    out
}

/// The hints of a context on one line: "y yes · n no · Esc later".
pub fn hint_line(ctx: Ctx) -> String {
    hint_line_for(ctx, None)
}

/// What each key of a question does, in the question's own words (yes, no, Esc): "y
/// abandon the game · n keep playing · Esc keep playing" rather than "yes · no · later".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answers {
    pub yes: &'static str,
    pub no: &'static str,
    pub later: &'static str,
}

/// A question's hint line, each key with what it does in the question's words ("y abandon
/// the game · n keep playing · Esc keep playing"); the keys from the table's `Question`
/// context.
pub fn question_hint(words: Answers) -> String {
    question_bar(words)
        .into_iter()
        .map(|(k, said)| format!("{k} {said}"))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A question's keys, each with what it does in the question's words: the key bar's pairs
/// ([`key_bar`]) and the popup's line ([`question_hint`]).
pub fn question_bar(words: Answers) -> Vec<(String, &'static str)> {
    hinted(Ctx::Question)
        .map(|b| {
            let said = match b.cmd {
                Cmd::Yes => words.yes,
                Cmd::No => words.no,
                Cmd::Close => words.later,
                _ => b.hint.unwrap_or_default(),
            };
            (b.keys[0].label(), said)
        })
        .collect()
}

/// The hints of a context on one line, the players menu's naming the game's `sides` (the
/// first to move first; None: the table's words, chess's): "1 Red · 2 Black · …".
pub fn hint_line_for(ctx: Ctx, sides: Option<[&'static str; 2]>) -> String {
    hinted(ctx)
        .map(|b| format!("{} {}", b.keys[0].label(), side_words(b, sides)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A binding's hint in a game whose sides are `sides` (None: the table's words): the
/// players menu's choices of a side name that side.
fn side_words(b: &Binding, sides: Option<[&'static str; 2]>) -> &'static str {
    match (b.cmd, sides) {
        (Cmd::ChoosePlayers(Players::HumanWhite), Some([first, _])) => first,
        (Cmd::ChoosePlayers(Players::HumanBlack), Some([_, second])) => second,
        _ => b.hint.unwrap_or_default(),
    }
}

/// The help text of a binding; the settings that cycle through values list
/// them from the constants they cycle through.
pub fn help_text(b: &Binding) -> String {
    use super::config::{CLOCK_PRESETS, CONTEMPT_STEPS_CP, HASH_STEPS_MB};
    let list = |v: Vec<String>| v.join(", ");
    match b.cmd {
        Cmd::Hash => format!(
            "{}: {} MiB",
            b.help,
            list(HASH_STEPS_MB.iter().map(|m| m.to_string()).collect())
        ),
        Cmd::Contempt => format!(
            "{}: {} cp",
            b.help,
            list(CONTEMPT_STEPS_CP.iter().map(|c| c.to_string()).collect())
        ),
        Cmd::Clocks => format!(
            "{}: {}",
            b.help,
            list(
                CLOCK_PRESETS
                    .iter()
                    .map(|&(base, inc)| super::config::clock_label(base, inc))
                    .collect()
            )
        ),
        _ => b.help.to_string(),
    }
}

/// Help rows for a context: ("Up/k", "move the cursor up").
pub fn help_rows(ctx: Ctx) -> Vec<(String, String)> {
    BINDINGS
        .iter()
        .filter(|b| b.ctx == ctx)
        .map(|b| (b.keys_label(), help_text(b)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No two keys of the table read the same on an ASCII terminal (`LC_ALL=C`,
    /// `--ascii`): "↓" read "v", so the help said "v/j move the cursor down" while `v`
    /// opens the review.
    #[test]
    fn no_two_keys_read_the_same_in_ascii() {
        let mut seen: Vec<(String, Key)> = Vec::new();
        for b in BINDINGS {
            for &k in b.keys {
                let ascii = crate::tui::theme::ascii_text(&k.label()).into_owned();
                match seen.iter().find(|(l, _)| *l == ascii) {
                    Some(&(_, other)) => assert_eq!(other, k, "{ascii:?} reads as two keys"),
                    None => seen.push((ascii, k)),
                }
            }
        }
    }

    fn key(c: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
    }

    #[test]
    fn lookup_by_context() {
        assert_eq!(lookup(Ctx::Play, &key('c')), Some(Cmd::Claim));
        assert_eq!(lookup(Ctx::Play, &key('k')), Some(Cmd::Up));
        assert_eq!(lookup(Ctx::Euwe, &key('l')), Some(Cmd::EuweNext));
        assert_eq!(lookup(Ctx::Euwe, &key('q')), Some(Cmd::Quit));
        assert_eq!(
            lookup(
                Ctx::Play,
                &KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)
            ),
            Some(Cmd::Quit)
        );
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for ctx in [
            Ctx::Play,
            Ctx::Euwe,
            Ctx::DrillThemes,
            Ctx::DrillAnswer,
            Ctx::DrillFeedback,
            Ctx::Review,
            Ctx::Xiangqi,
            Ctx::XqCall,
            Ctx::XqDrillThemes,
            Ctx::XqDrillAnswer,
            Ctx::XqDrillFeedback,
            Ctx::Help,
            Ctx::Verdict,
            Ctx::ClaimDialog,
            Ctx::Promotion,
            Ctx::Question,
            Ctx::PlayersMenu,
            Ctx::Input,
            Ctx::PickGame,
            Ctx::PickScenario,
        ] {
            let mut seen = Vec::new();
            for b in BINDINGS
                .iter()
                .filter(|b| b.ctx == ctx || (b.ctx == Ctx::Global && !ctx.is_modal()))
            {
                for k in b.keys {
                    assert!(!seen.contains(k), "{k:?} bound twice in {ctx:?}");
                    seen.push(*k);
                }
            }
        }
    }

    #[test]
    fn hints_come_from_the_table() {
        let h = hints(Ctx::Play);
        assert!(h.contains(&("c".to_string(), "claim")));
        assert!(h.contains(&("?".to_string(), "help")));
        assert_eq!(key_for(Cmd::Claim), "c");
        assert!(hints(Ctx::DrillFeedback).contains(&("n".to_string(), "next")));
        assert_eq!(lookup(Ctx::DrillAnswer, &key('3')), Some(Cmd::DrillChoose));
        assert_eq!(lookup(Ctx::DrillAnswer, &key('n')), Some(Cmd::DrillNo));
        assert_eq!(lookup(Ctx::DrillFeedback, &key('n')), Some(Cmd::DrillNext));
        // Overlays are keyed from the table too, without the global keys.
        assert_eq!(
            lookup(Ctx::Promotion, &key('q')),
            Some(Cmd::Promote(Role::Queen))
        );
        assert_eq!(lookup(Ctx::Question, &key('q')), None);
        assert_eq!(
            lookup(Ctx::ClaimDialog, &key('2')),
            Some(Cmd::ClaimAs(ClaimOption::THREEFOLD_WITH_MOVE))
        );
        assert!(
            help_rows(Ctx::Play)
                .iter()
                .any(|(_, h)| h.contains("16, 64, 256, 1024 MiB"))
        );
    }
}
