//! The board widget: Unicode or ASCII pieces, light/dark squares, rank and
//! file labels, flip, last move, king in check, the selected piece and its
//! legal targets, the cursor. Squares keep a 2:1 cell ratio so they look
//! square; marks are also drawn as text so they survive NO_COLOR.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;
use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use super::theme::Theme;

/// Where the board's squares are on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geom {
    /// Top-left cell of the top-left square.
    pub x: u16,
    pub y: u16,
    /// Cells per square.
    pub sq_w: u16,
    pub sq_h: u16,
    pub flipped: bool,
}

/// Square sizes tried, largest first (width = 2 × height looks square).
const SIZES: [(u16, u16); 4] = [(8, 4), (6, 3), (4, 2), (2, 1)];

impl Geom {
    /// The largest board (with labels: 2 columns left, 1 row below) that fits `area`, centred.
    pub fn fit(area: Rect, flipped: bool) -> Option<Geom> {
        let (sq_w, sq_h) = SIZES
            .into_iter()
            .find(|&(w, h)| 8 * w + 2 <= area.width && 8 * h < area.height)?;
        let bw = 8 * sq_w + 2;
        let bh = 8 * sq_h + 1;
        Some(Geom {
            x: area.x + (area.width - bw) / 2 + 2,
            y: area.y + (area.height - bh) / 2,
            sq_w,
            sq_h,
            flipped,
        })
    }

    /// The width and height the board with labels takes.
    pub fn outer(&self) -> Rect {
        Rect::new(self.x - 2, self.y, 8 * self.sq_w + 2, 8 * self.sq_h + 1)
    }

    /// Screen column/row (0..8 from the top-left) of a square.
    pub fn cell(&self, sq: Square) -> (u16, u16) {
        let f = u16::from(sq.file());
        let r = u16::from(sq.rank());
        if self.flipped { (7 - f, r) } else { (f, 7 - r) }
    }

    /// The rectangle of a square.
    pub fn rect(&self, sq: Square) -> Rect {
        let (c, r) = self.cell(sq);
        Rect::new(
            self.x + c * self.sq_w,
            self.y + r * self.sq_h,
            self.sq_w,
            self.sq_h,
        )
    }

    /// The square under a screen position, if any.
    pub fn square_at(&self, col: u16, row: u16) -> Option<Square> {
        if col < self.x || row < self.y {
            return None;
        }
        let c = (col - self.x) / self.sq_w;
        let r = (row - self.y) / self.sq_h;
        if c >= 8 || r >= 8 {
            return None;
        }
        let (f, rk) = if self.flipped { (7 - c, r) } else { (c, 7 - r) };
        Some(Square::from_coords(
            File::new(u32::from(f)),
            Rank::new(u32::from(rk)),
        ))
    }
}

/// A piece's glyph.
pub fn glyph(p: Piece, ascii: bool, color: bool) -> char {
    if ascii {
        let c = p.role.char();
        return if p.color == Color::White {
            c.to_ascii_uppercase()
        } else {
            c
        };
    }
    // With colour both sides use the solid glyphs (coloured); without, white
    // pieces are outlined and black ones solid.
    let solid = color || p.color == Color::Black;
    match (p.role, solid) {
        (Role::King, true) => '♚',
        (Role::Queen, true) => '♛',
        (Role::Rook, true) => '♜',
        (Role::Bishop, true) => '♝',
        (Role::Knight, true) => '♞',
        (Role::Pawn, true) => '♟',
        (Role::King, false) => '♔',
        (Role::Queen, false) => '♕',
        (Role::Rook, false) => '♖',
        (Role::Bishop, false) => '♗',
        (Role::Knight, false) => '♘',
        (Role::Pawn, false) => '♙',
    }
}

/// The board widget.
pub struct BoardView<'a> {
    pub board: &'a Board,
    pub geom: Geom,
    pub theme: &'a Theme,
    pub ascii: bool,
    pub last_move: Option<(Square, Square)>,
    pub check: Option<Square>,
    pub selected: Option<Square>,
    pub targets: &'a [Square],
    pub cursor: Option<Square>,
}

impl<'a> BoardView<'a> {
    /// The position at `ply` of `game`: the move into it marked, a king in check marked;
    /// nothing selected, no cursor.
    pub fn at_ply(
        game: &'a crate::rules::Game,
        ply: usize,
        geom: Geom,
        theme: &'a Theme,
        ascii: bool,
    ) -> BoardView<'a> {
        use shakmaty::Position;
        let pos = game.position_at(ply);
        let last_move = game.record(ply).mv.and_then(|m| {
            let mover = game.position_at(ply - 1).turn();
            m.from()
                .map(|f| (f, crate::rules::notation::king_target(&m, mover)))
        });
        BoardView {
            board: pos.board(),
            geom,
            theme,
            ascii,
            last_move,
            check: pos
                .is_check()
                .then(|| pos.board().king_of(pos.turn()))
                .flatten(),
            selected: None,
            targets: &[],
            cursor: None,
        }
    }
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let g = self.geom;
        let t = self.theme;
        let inside =
            |x: u16, y: u16| x >= area.x && y >= area.y && x < area.right() && y < area.bottom();
        for sq in Square::ALL {
            let r = g.rect(sq);
            let light = sq.is_light();
            let mut bg = if light { t.light } else { t.dark };
            let last = self.last_move.is_some_and(|(a, b)| a == sq || b == sq);
            if t.color {
                if last {
                    bg = bg.bg(if light {
                        t.last_move_light
                    } else {
                        t.last_move_dark
                    });
                }
                if self.selected == Some(sq) {
                    bg = bg.bg(t.selected);
                }
                if self.check == Some(sq) {
                    bg = bg.bg(t.check);
                }
            } else if !light {
                bg = bg.add_modifier(Modifier::DIM);
            }
            // Fill; without colour the dark squares get a light dot texture.
            for y in r.y..r.bottom() {
                for x in r.x..r.right() {
                    if inside(x, y) {
                        // No colour: dark squares get a dotted texture, kept off
                        // the piece's row so pieces stay readable.
                        let textured = !t.color
                            && !light
                            && (y != r.y + (r.height - 1) / 2 || self.board.piece_at(sq).is_none());
                        let sym = match (textured, self.ascii) {
                            (false, _) => " ",
                            (true, false) => "·",
                            (true, true) => ".",
                        };
                        buf[(x, y)].set_symbol(sym).set_style(bg);
                    }
                }
            }
            let cx = r.x + (r.width - 1) / 2;
            let cy = r.y + (r.height - 1) / 2;
            let piece = self.board.piece_at(sq);
            if let Some(p) = piece
                && inside(cx, cy)
            {
                let fg = if p.color == Color::White {
                    t.white_piece
                } else {
                    t.black_piece
                };
                let mut s = bg.fg(fg).add_modifier(Modifier::BOLD);
                if !t.color {
                    s = Style::new().add_modifier(Modifier::BOLD);
                }
                buf[(cx, cy)]
                    .set_symbol(&glyph(p, self.ascii, t.color).to_string())
                    .set_style(s);
            }
            // Text marks, left and right of the centre (just right on tiny squares).
            let (lx, rx) = if r.width >= 4 {
                (Some(cx - 1), cx + 1)
            } else {
                (None, cx + 1)
            };
            let mark_style = |c: ratatui::style::Color| {
                if t.color {
                    bg.fg(c).add_modifier(Modifier::BOLD)
                } else {
                    Style::new().add_modifier(Modifier::BOLD)
                }
            };
            let dot = if self.ascii { "*" } else { "●" };
            let mut marks: Vec<(&str, &str, Style)> = Vec::new();
            if self.targets.contains(&sq) {
                if piece.is_some() {
                    marks.push(("x", "x", mark_style(t.target)));
                } else if r.width >= 4 {
                    if inside(cx, cy) {
                        buf[(cx, cy)]
                            .set_symbol(dot)
                            .set_style(mark_style(t.target));
                    }
                } else {
                    marks.push(("", dot, mark_style(t.target)));
                }
            } else if self.check == Some(sq) {
                // "!" both sides: a "+" would run into the cursor's corners and read as the
                // drills' difficulty marks in ASCII ("!K++").
                marks.push(("!", "!", mark_style(t.black_piece)));
            } else if self.selected == Some(sq) {
                marks.push(("[", "]", mark_style(t.cursor)));
            } else if last && !t.color {
                marks.push(("'", "'", mark_style(t.cursor)));
            }
            if self.cursor == Some(sq) {
                let s = mark_style(t.cursor);
                if r.height >= 2 && r.width >= 4 {
                    let corners = if self.ascii {
                        ["+"; 4]
                    } else {
                        ["┌", "┐", "└", "┘"]
                    };
                    for (x, y, c) in [
                        (r.x, r.y, corners[0]),
                        (r.right() - 1, r.y, corners[1]),
                        (r.x, r.bottom() - 1, corners[2]),
                        (r.right() - 1, r.bottom() - 1, corners[3]),
                    ] {
                        if inside(x, y) {
                            buf[(x, y)].set_symbol(c).set_style(s);
                        }
                    }
                } else {
                    marks.push((">", "<", s.add_modifier(Modifier::REVERSED)));
                }
            }
            for (l, rr, style) in marks {
                if let Some(lx) = lx
                    && inside(lx, cy)
                    && !l.is_empty()
                {
                    buf[(lx, cy)].set_symbol(l).set_style(style);
                }
                if inside(rx, cy) && rx < r.right() {
                    buf[(rx, cy)].set_symbol(rr).set_style(style);
                }
            }
        }
        // Labels: files below, ranks to the left.
        for i in 0..8u16 {
            let file = if g.flipped { 7 - i } else { i };
            let x = g.x + i * g.sq_w + (g.sq_w - 1) / 2;
            let y = g.y + 8 * g.sq_h;
            if inside(x, y) {
                buf[(x, y)]
                    .set_symbol(&char::from(b'a' + file as u8).to_string())
                    .set_style(t.label);
            }
            let rank = if g.flipped { i } else { 7 - i };
            let ry = g.y + i * g.sq_h + (g.sq_h - 1) / 2;
            if inside(g.x - 2, ry) {
                buf[(g.x - 2, ry)]
                    .set_symbol(&char::from(b'1' + rank as u8).to_string())
                    .set_style(t.label);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    fn row(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
    }

    fn draw(flipped: bool, ascii: bool, theme: Theme, area: Rect) -> (Buffer, Geom) {
        let pos = Chess::default();
        let geom = Geom::fit(area, flipped).unwrap();
        let mut buf = Buffer::empty(area);
        BoardView {
            board: pos.board(),
            geom,
            theme: &theme,
            ascii,
            last_move: None,
            check: None,
            selected: Some(Square::G1),
            targets: &[Square::F3, Square::H3],
            cursor: Some(Square::E2),
        }
        .render(area, &mut buf);
        (buf, geom)
    }

    #[test]
    fn white_at_the_bottom_then_flipped() {
        let area = Rect::new(0, 0, 18, 9);
        let (buf, g) = draw(false, true, Theme::colored(), area);
        assert_eq!((g.sq_w, g.sq_h), (2, 1));
        assert!(
            row(&buf, 0).starts_with("8 r n b q k b n r"),
            "{:?}",
            row(&buf, 0)
        );
        assert!(
            row(&buf, 7).starts_with("1 R N B Q K"),
            "{:?}",
            row(&buf, 7)
        );
        assert_eq!(row(&buf, 8).trim(), "a b c d e f g h");
        let (buf, _) = draw(true, true, Theme::colored(), area);
        assert!(
            row(&buf, 0).starts_with("1 R N]B K Q"),
            "{:?}",
            row(&buf, 0)
        );
        assert_eq!(row(&buf, 8).trim(), "h g f e d c b a");
    }

    #[test]
    fn targets_and_selection_show_as_text_without_colour() {
        let area = Rect::new(0, 0, 66, 33);
        let (buf, g) = draw(false, false, Theme::plain(), area);
        assert_eq!((g.sq_w, g.sq_h), (8, 4));
        let f3 = g.rect(Square::F3);
        let cy = f3.y + 1;
        assert_eq!(buf[(f3.x + 3, cy)].symbol(), "●");
        let g1 = g.rect(Square::G1);
        assert_eq!(buf[(g1.x + 2, g1.y + 1)].symbol(), "[");
        assert_eq!(buf[(g1.x + 3, g1.y + 1)].symbol(), "♘");
        let e2 = g.rect(Square::E2);
        assert_eq!(buf[(e2.x, e2.y)].symbol(), "┌");
        // Black pieces solid, white outlined.
        let e8 = g.rect(Square::E8);
        assert_eq!(buf[(e8.x + 3, e8.y + 1)].symbol(), "♚");
    }

    /// A king in check is marked "!K!", in ASCII too and with the cursor on it: no "K+",
    /// which is the cursor's corner and the drills' difficulty mark in ASCII.
    #[test]
    fn a_king_in_check_is_marked_unambiguously_in_ascii() {
        let (geom, buf) = start_with_check(&Theme::plain(), true, None, Some(Square::E1));
        let e1 = geom.rect(Square::E1);
        let row: String = (e1.x..e1.right())
            .map(|x| buf[(x, e1.y + (e1.height - 1) / 2)].symbol().to_string())
            .collect();
        assert!(row.contains("!K!") && !row.contains("K+"), "{row:?}");
    }

    /// The start position on a 34×17 board with White's king marked in check.
    fn start_with_check(
        t: &Theme,
        ascii: bool,
        last_move: Option<(Square, Square)>,
        cursor: Option<Square>,
    ) -> (Geom, Buffer) {
        let area = Rect::new(0, 0, 34, 17);
        let pos = Chess::default();
        let geom = Geom::fit(area, false).unwrap();
        let mut buf = Buffer::empty(area);
        BoardView {
            board: pos.board(),
            geom,
            theme: t,
            ascii,
            last_move,
            check: Some(Square::E1),
            selected: None,
            targets: &[],
            cursor,
        }
        .render(area, &mut buf);
        (geom, buf)
    }

    #[test]
    fn colours_mark_selection_and_check() {
        let t = Theme::colored();
        let (geom, buf) = start_with_check(&t, false, Some((Square::E2, Square::E4)), None);
        let e1 = geom.rect(Square::E1);
        assert_eq!(buf[(e1.x, e1.y)].bg, t.check);
        let e4 = geom.rect(Square::E4);
        assert_eq!(buf[(e4.x, e4.y)].bg, t.last_move_light);
    }

    #[test]
    fn hit_testing_round_trips() {
        for flipped in [false, true] {
            let g = Geom::fit(Rect::new(3, 2, 70, 35), flipped).unwrap();
            for sq in Square::ALL {
                let r = g.rect(sq);
                assert_eq!(g.square_at(r.x + r.width - 1, r.y + r.height - 1), Some(sq));
            }
            assert_eq!(g.square_at(0, 0), None);
        }
        assert_eq!(Geom::fit(Rect::new(0, 0, 17, 9), false), None);
    }
}
