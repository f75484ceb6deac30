//! The xiangqi board widget: nine files and ten ranks of points, the river between the fifth
//! and sixth ranks, both palaces, and the pieces on the points — Chinese characters (two
//! columns wide: 帥仕相俥傌炮兵 for Red, 將士象車馬砲卒 for Black) or, with `--ascii`, WXF
//! letters (upper case Red, lower case Black) padded to two columns.
//!
//! The lines are ASCII (`+ - | \ /`): box-drawing characters are "ambiguous" width in East
//! Asian terminals (one column or two, as the terminal likes), and the Chinese pieces are
//! always two columns, so nothing here depends on a character whose width varies. Each point
//! takes two columns (a piece's), then the line to the next file; the layout is a pure
//! function of the area ([`XqGeom::fit`]), used both to draw and to hit-test clicks.
//!
//! Two sizes: with room (22 rows) every rank has a row of vertical lines below it, with the
//! palaces' diagonals; at 80×24 one row per rank, the palaces' points drawn as `*` (and
//! tinted), the river a row of its own. Marks (last move, selection and legal targets,
//! check, a chased piece and its attackers, the cursor) are colours, and modifiers under
//! NO_COLOR.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::widgets::Widget;

use crate::xiangqi::judge::{Forbidden, Record};
use crate::xiangqi::{Color, Kind, Piece, Position, RuleAt, Square};

use super::theme::Theme;

/// Columns of the rank labels left of the board.
const LABEL_W: u16 = 3;

/// Where the board's points are on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XqGeom {
    /// Screen column of the leftmost file's point, row of the top rank.
    pub x: u16,
    pub y: u16,
    /// Columns from one file to the next (4, or 3 when narrow).
    pub pitch: u16,
    /// A row of lines between ranks (the full board), or not (compact).
    pub full: bool,
    pub flipped: bool,
}

impl XqGeom {
    /// The largest board (with its labels) that fits `area`, centred; None if none fits.
    pub fn fit(area: Rect, flipped: bool) -> Option<XqGeom> {
        [(4, true), (4, false), (3, false)]
            .into_iter()
            .map(|(pitch, full)| XqGeom {
                x: 0,
                y: 0,
                pitch,
                full,
                flipped,
            })
            .find(|g| g.width() <= area.width && g.height() <= area.height)
            .map(|g| XqGeom {
                x: area.x + (area.width - g.width()) / 2 + LABEL_W,
                y: area.y + (area.height - g.height()) / 2 + 1,
                ..g
            })
    }

    /// Columns the board takes with its labels.
    pub fn width(&self) -> u16 {
        LABEL_W + 8 * self.pitch + 2
    }

    /// Rows the board takes with its labels (a row of file numbers above, numbers and
    /// UCCI letters below).
    pub fn height(&self) -> u16 {
        self.grid_rows() + 3
    }

    /// Rows of the points and lines: ten ranks, and the river (a row of its own when
    /// compact) or the rows between ranks.
    fn grid_rows(&self) -> u16 {
        if self.full { 19 } else { 11 }
    }

    /// The board's rectangle with its labels.
    pub fn outer(&self) -> Rect {
        Rect::new(self.x - LABEL_W, self.y - 1, self.width(), self.height())
    }

    /// Display column (0..9, left to right) and row (0..10, top to bottom) of a point.
    pub fn cell(&self, sq: Square) -> (u16, u16) {
        let (f, r) = (u16::from(sq.file()), u16::from(sq.rank()));
        if self.flipped { (8 - f, r) } else { (f, 9 - r) }
    }

    fn square(&self, col: u16, row: u16) -> Option<Square> {
        let (f, r) = if self.flipped {
            (8 - col, row)
        } else {
            (col, 9 - row)
        };
        Square::new(f as u8, r as u8)
    }

    /// The screen row of display row `row` (0..10).
    fn row_y(&self, row: u16) -> u16 {
        if self.full {
            self.y + 2 * row
        } else {
            self.y + row + u16::from(row >= 5)
        }
    }

    /// The screen column and row of a point (its piece takes this column and the next).
    pub fn pos(&self, sq: Square) -> (u16, u16) {
        let (c, r) = self.cell(sq);
        (self.x + c * self.pitch, self.row_y(r))
    }

    /// The point under a screen position: its two columns, or the line after it up to
    /// the next point's column.
    pub fn square_at(&self, col: u16, row: u16) -> Option<Square> {
        if col < self.x || row < self.y {
            return None;
        }
        let c = (col - self.x) / self.pitch;
        let r = (0..10).find(|&r| self.row_y(r) == row)?;
        if c > 8 {
            return None;
        }
        self.square(c, r)
    }
}

/// The character of a piece: its Chinese character, or its WXF letter in ASCII.
pub fn glyph(p: Piece, ascii: bool) -> char {
    if ascii {
        let c = p.kind.wxf_letter();
        return match p.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        };
    }
    match (p.color, p.kind) {
        (Color::Red, Kind::King) => '帥',
        (Color::Red, Kind::Advisor) => '仕',
        (Color::Red, Kind::Elephant) => '相',
        (Color::Red, Kind::Horse) => '傌',
        (Color::Red, Kind::Rook) => '俥',
        (Color::Red, Kind::Cannon) => '炮',
        (Color::Red, Kind::Pawn) => '兵',
        (Color::Black, Kind::King) => '將',
        (Color::Black, Kind::Advisor) => '士',
        (Color::Black, Kind::Elephant) => '象',
        (Color::Black, Kind::Horse) => '馬',
        (Color::Black, Kind::Rook) => '車',
        (Color::Black, Kind::Cannon) => '砲',
        (Color::Black, Kind::Pawn) => '卒',
    }
}

/// The targets of the piece on `from` that the judge would rule forbidden now, with the
/// reason: the move brings a position back and completes the mover's own perpetual check or
/// chase, which the judge's word on the repetition so far (at the first repetition, as the
/// arbiter rules a call) rules lost ([`Record::forbidden`], the one list the drills' `break`
/// question and the review read too).
pub fn forbidden_targets(rec: &Record, from: Square) -> Vec<(Square, String)> {
    rec.current()
        .legal_moves()
        .as_slice()
        .iter()
        .filter(|m| m.from() == from)
        .filter_map(|&mv| {
            let ruling = rec.forbidden(mv, RuleAt::FirstRepetition)?;
            Some((mv.to(), Forbidden { mv, ruling }.reason(rec)))
        })
        .collect()
}

/// The answer to "why is this target forbidden?" (the key `y`): the reason for the marked
/// target under the cursor, else for every marked target of the piece picked up, else what
/// the marks are. `shown`: whether marks are shown at all (not in blind mode).
pub fn why_forbidden(
    rec: &Record,
    selected: Option<Square>,
    cursor: Square,
    shown: bool,
) -> String {
    if !shown {
        return "Blind mode: forbidden targets are not marked until the game is over.".into();
    }
    let Some(from) = selected else {
        return "Pick up a piece: the targets the judge would rule forbidden now (your own \
                perpetual check or chase completed) are marked x, and this key says why."
            .into();
    };
    let all = forbidden_targets(rec, from);
    let kind = rec
        .current()
        .piece_at(from)
        .map_or("piece", |p| p.kind.name());
    if all.is_empty() {
        return format!("No target of the {kind} on {from} is forbidden now.");
    }
    match all.iter().find(|(sq, _)| *sq == cursor) {
        Some((_, why)) => why.clone(),
        None => all
            .iter()
            .map(|(_, why)| why.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// A point in a palace (files d–f, ranks 0–2 and 7–9).
pub fn in_palace(sq: Square) -> bool {
    (3..=5).contains(&sq.file()) && (sq.rank() <= 2 || sq.rank() >= 7)
}

/// What a point is marked as, besides its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointMark {
    /// The chased piece of the move shown.
    Chased,
    /// A piece that attacks it.
    Attacker,
    /// A protector that does not really protect (the judge's false protection).
    FalseProtector,
}

/// The board widget.
pub struct XqBoardView<'a> {
    pub pos: &'a Position,
    pub geom: XqGeom,
    pub theme: &'a Theme,
    pub ascii: bool,
    pub last_move: Option<(Square, Square)>,
    pub check: Option<Square>,
    pub selected: Option<Square>,
    pub targets: &'a [Square],
    /// The targets the judge would rule forbidden now ([`forbidden_targets`]): marked `x`.
    pub forbidden: &'a [Square],
    pub cursor: Option<Square>,
    pub marks: &'a [(Square, PointMark)],
}

impl<'a> XqBoardView<'a> {
    /// The position at `ply` of `rec`: the move into it marked, a king in check marked;
    /// nothing selected, no cursor, no marks.
    pub fn at_ply(
        rec: &'a Record,
        ply: usize,
        geom: XqGeom,
        theme: &'a Theme,
        ascii: bool,
    ) -> XqBoardView<'a> {
        let pos = rec.position(ply);
        XqBoardView {
            pos,
            geom,
            theme,
            ascii,
            last_move: (ply > 0).then(|| {
                let m = rec.move_at(ply);
                (m.from(), m.to())
            }),
            check: pos.in_check().then(|| pos.king(pos.side_to_move())),
            selected: None,
            targets: &[],
            forbidden: &[],
            cursor: None,
            marks: &[],
        }
    }
}

const RED: Tint = Tint::Rgb(190, 20, 20);
const INK: Tint = Tint::Rgb(20, 20, 20);
const PALACE: Tint = Tint::Rgb(210, 180, 135);

impl XqBoardView<'_> {
    /// The style of a point: its highlight (cursor, selection, check, target, marks, last
    /// move in that order) over the board.
    fn point_style(&self, sq: Square, base: Style) -> Style {
        let t = self.theme;
        let bg = |c: Tint| {
            if t.color { base.bg(c) } else { base }
        };
        if self.cursor == Some(sq) {
            // No colour at all under NO_COLOR: crossterm then writes a colour as an empty
            // SGR sequence, which resets the cell's modifiers (the cursor vanished).
            let on = if t.color {
                bg(t.cursor).fg(Tint::White)
            } else {
                base
            };
            return on.add_modifier(Modifier::REVERSED);
        }
        if self.selected == Some(sq) {
            return bg(t.selected).add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
        }
        if self.check == Some(sq) {
            return bg(t.check).add_modifier(Modifier::BOLD | Modifier::SLOW_BLINK);
        }
        if self.forbidden.contains(&sq) {
            return if t.color {
                bg(t.check)
                    .fg(Tint::White)
                    .add_modifier(Modifier::CROSSED_OUT)
            } else {
                base.add_modifier(Modifier::CROSSED_OUT | Modifier::UNDERLINED)
            };
        }
        if self.targets.contains(&sq) {
            return if t.color {
                bg(t.target).fg(Tint::White)
            } else {
                base.add_modifier(Modifier::UNDERLINED)
            };
        }
        match self.marks.iter().find(|(s, _)| *s == sq).map(|&(_, m)| m) {
            Some(PointMark::Chased) => return base.patch(t.rep3),
            Some(PointMark::Attacker) => return base.patch(t.rep2),
            Some(PointMark::FalseProtector) => {
                return base.patch(t.rep2).add_modifier(Modifier::CROSSED_OUT);
            }
            None => {}
        }
        if self.last_move.is_some_and(|(a, b)| a == sq || b == sq) {
            return bg(t.last_move_light).add_modifier(Modifier::BOLD);
        }
        if !self.geom.full && in_palace(sq) && t.color {
            return base.bg(PALACE);
        }
        base
    }
}

impl Widget for XqBoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let g = self.geom;
        let t = self.theme;
        let outer = g.outer().intersection(area);
        let board_style = if t.color {
            t.light.fg(INK)
        } else {
            Style::new()
        };
        let grid = Rect::new(g.x - 1, g.y, 8 * g.pitch + 4, g.grid_rows());
        buf.set_style(grid.intersection(area), board_style);
        let put = |buf: &mut Buffer, x: u16, y: u16, s: &str, style: Style| {
            if x < outer.right() && y < outer.bottom() {
                buf.set_string(x, y, s, style);
            }
        };
        // The lines between the ranks (full board): verticals, broken at the river but
        // for the edge files, and the palaces' diagonals.
        if g.full {
            for gap in 0..9u16 {
                let y = g.y + 2 * gap + 1;
                for c in 0..9u16 {
                    if gap != 4 || c == 0 || c == 8 {
                        put(buf, g.x + c * g.pitch, y, "|", board_style);
                    }
                }
                if gap == 0 || gap == 1 || gap == 7 || gap == 8 {
                    // Down-right on the first row of a palace's pair, down-left on the second.
                    let first = gap == 0 || gap == 7;
                    let mid = g.pitch / 2;
                    let (l, r) = if first { ("\\", "/") } else { ("/", "\\") };
                    put(buf, g.x + 3 * g.pitch + mid, y, l, board_style);
                    put(buf, g.x + 4 * g.pitch + mid, y, r, board_style);
                }
            }
        }
        // The river.
        let river_y = if g.full { g.y + 9 } else { g.y + 5 };
        if !g.full {
            put(buf, g.x, river_y, "|", board_style);
            put(buf, g.x + 8 * g.pitch, river_y, "|", board_style);
        }
        let river = if self.ascii {
            "~ river ~"
        } else {
            "楚 河   漢 界"
        };
        let rw = river
            .chars()
            .map(|c| if c.is_ascii() { 1 } else { 2 })
            .sum::<u16>();
        let span = 8 * g.pitch;
        put(
            buf,
            g.x + span.saturating_sub(rw) / 2,
            river_y,
            river,
            board_style.add_modifier(Modifier::BOLD),
        );
        // The points, their pieces and the lines between files.
        for row in 0..10u16 {
            let y = g.row_y(row);
            for col in 0..9u16 {
                let Some(sq) = g.square(col, row) else {
                    continue;
                };
                let x = g.x + col * g.pitch;
                if col < 8 {
                    let line = "-".repeat(usize::from(g.pitch - 2));
                    put(buf, x + 2, y, &line, board_style);
                }
                let style = self.point_style(sq, board_style);
                match self.pos.piece_at(sq) {
                    Some(p) => {
                        let fg = match (t.color, p.color) {
                            (false, _) => Tint::Reset,
                            (true, Color::Red) => RED,
                            (true, Color::Black) => INK,
                        };
                        let style = if t.color { style.fg(fg) } else { style };
                        let s = if self.ascii {
                            format!("{} ", glyph(p, true))
                        } else {
                            glyph(p, false).to_string()
                        };
                        put(buf, x, y, &s, style.add_modifier(Modifier::BOLD));
                    }
                    None => {
                        let mark = if self.forbidden.contains(&sq) {
                            "x"
                        } else if self.targets.contains(&sq) {
                            "o"
                        } else if !g.full && in_palace(sq) {
                            "*"
                        } else {
                            "+"
                        };
                        let next = if col < 8 { "-" } else { " " };
                        put(buf, x, y, &format!("{mark}{next}"), style);
                    }
                }
            }
            // Rank labels: UCCI's 0-9.
            if let Some(sq) = g.square(0, row) {
                put(buf, g.x - LABEL_W, y, &format!("{:>2}", sq.rank()), t.label);
            }
        }
        // File labels: each side's WXF file numbers (counted from its own right), and
        // UCCI's letters below.
        let bottom_side = if g.flipped { Color::Black } else { Color::Red };
        let top_y = g.y - 1;
        let bottom_y = g.y + g.grid_rows();
        for col in 0..9u16 {
            let Some(sq) = g.square(col, 0) else { continue };
            let x = g.x + col * g.pitch;
            let number = |side: Color| match side {
                Color::Red => 9 - sq.file(),
                Color::Black => sq.file() + 1,
            };
            put(
                buf,
                x,
                top_y,
                &number(bottom_side.other()).to_string(),
                t.label,
            );
            put(buf, x, bottom_y, &number(bottom_side).to_string(), t.label);
            put(
                buf,
                x,
                bottom_y + 1,
                &char::from(b'a' + sq.file()).to_string(),
                t.dim,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_is_hit_where_it_is_drawn() {
        for flipped in [false, true] {
            for area in [Rect::new(0, 0, 60, 30), Rect::new(0, 1, 40, 19)] {
                let g = XqGeom::fit(area, flipped).expect("fits");
                for sq in Square::all() {
                    let (x, y) = g.pos(sq);
                    assert_eq!(g.square_at(x, y), Some(sq), "{sq} {g:?}");
                    assert_eq!(g.square_at(x + 1, y), Some(sq), "{sq} {g:?}");
                }
            }
        }
    }

    #[test]
    fn the_compact_board_fits_beside_the_move_list_at_80x24() {
        let g = XqGeom::fit(Rect::new(0, 1, 40, 19), false).expect("fits");
        assert!(!g.full);
        assert_eq!(g.pitch, 4);
        let g = XqGeom::fit(Rect::new(0, 1, 40, 26), false).expect("fits");
        assert!(g.full);
    }
}
