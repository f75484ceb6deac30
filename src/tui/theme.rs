//! One colour theme, and its NO_COLOR twin: without colour every mark stays
//! visible as text (brackets, dots, badges) plus bold/reverse modifiers.

use ratatui::style::{Color, Modifier, Style};

/// Colours and modifiers used by every widget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
    pub light: Style,
    pub dark: Style,
    pub white_piece: Color,
    pub black_piece: Color,
    pub last_move_light: Color,
    pub last_move_dark: Color,
    pub selected: Color,
    pub check: Color,
    pub target: Color,
    pub cursor: Color,
    pub label: Style,
    pub title: Style,
    pub rep2: Style,
    pub rep3: Style,
    pub viewing: Style,
    pub claimed: Style,
    pub error: Style,
    pub info: Style,
    pub button: Style,
    pub dim: Style,
    pub key: Style,
    pub banner: Style,
}

impl Theme {
    /// The theme for this process: NO_COLOR (any non-empty value) turns colour off.
    pub fn from_env() -> Theme {
        match std::env::var_os("NO_COLOR") {
            Some(v) if !v.is_empty() => Theme::plain(),
            _ => Theme::colored(),
        }
    }

    /// The colour theme (a warm wooden board).
    pub fn colored() -> Theme {
        Theme {
            color: true,
            // Mid-tone squares, so that both white and black pieces stand out.
            light: Style::new().bg(Color::Rgb(196, 164, 122)),
            dark: Style::new().bg(Color::Rgb(140, 104, 72)),
            white_piece: Color::Rgb(255, 255, 255),
            black_piece: Color::Rgb(0, 0, 0),
            last_move_light: Color::Rgb(190, 186, 86),
            last_move_dark: Color::Rgb(150, 146, 56),
            selected: Color::Rgb(86, 140, 200),
            check: Color::Rgb(214, 60, 50),
            target: Color::Rgb(30, 80, 30),
            cursor: Color::Rgb(20, 40, 160),
            label: Style::new().fg(Color::Gray),
            title: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            rep2: Style::new().fg(Color::Black).bg(Color::Rgb(240, 200, 80)),
            rep3: Style::new()
                .fg(Color::White)
                .bg(Color::Rgb(200, 50, 50))
                .add_modifier(Modifier::BOLD),
            viewing: Style::new().add_modifier(Modifier::REVERSED),
            claimed: Style::new()
                .fg(Color::Black)
                .bg(Color::Rgb(120, 200, 120))
                .add_modifier(Modifier::BOLD),
            error: Style::new().fg(Color::Rgb(255, 110, 100)),
            info: Style::new().fg(Color::Rgb(140, 200, 255)),
            button: Style::new()
                .fg(Color::Black)
                .bg(Color::Rgb(240, 200, 80))
                .add_modifier(Modifier::BOLD),
            dim: Style::new().fg(Color::DarkGray),
            key: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            banner: Style::new()
                .fg(Color::White)
                .bg(Color::Rgb(40, 70, 140))
                .add_modifier(Modifier::BOLD),
        }
    }

    /// No colour at all: modifiers and text marks only.
    pub fn plain() -> Theme {
        let none = Style::new();
        Theme {
            color: false,
            light: none,
            dark: none,
            white_piece: Color::Reset,
            black_piece: Color::Reset,
            last_move_light: Color::Reset,
            last_move_dark: Color::Reset,
            selected: Color::Reset,
            check: Color::Reset,
            target: Color::Reset,
            cursor: Color::Reset,
            label: none,
            title: none.add_modifier(Modifier::BOLD),
            rep2: none.add_modifier(Modifier::UNDERLINED),
            rep3: none.add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            viewing: none.add_modifier(Modifier::REVERSED),
            claimed: none.add_modifier(Modifier::BOLD | Modifier::REVERSED),
            error: none.add_modifier(Modifier::BOLD),
            info: none,
            button: none.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            dim: none,
            key: none.add_modifier(Modifier::BOLD),
            banner: none.add_modifier(Modifier::REVERSED | Modifier::BOLD),
        }
    }

    /// The style of a repetition mark for an occurrence count (2nd, 3rd+).
    pub fn repetition(&self, occurrence: u32) -> Style {
        if occurrence >= 3 {
            self.rep3
        } else {
            self.rep2
        }
    }
}

/// The badge for an occurrence count: "" for a first occurrence, else "×n".
pub fn badge(occurrence: u32, ascii: bool) -> String {
    match occurrence {
        0 | 1 => String::new(),
        n if ascii => format!("x{n}"),
        n => format!("×{n}"),
    }
}

/// The move list's mark before a ply a ruling names (the occurrences of a repetition, the
/// ply of an ending), in the game and in a drill's ruling.
pub const PLACE_MARK: &str = "*";

/// The xiangqi move list's mark before each ply of the repetition a ruling judges.
pub const RULING_SPAN_MARK: &str = "|";

/// The move list's mark at the end of a ply where a repetition detector errs ("How engines
/// see it"); `threefold detectors` marks a detector's wrong answer the same way.
pub fn detector_mark(ascii: bool) -> &'static str {
    if ascii { "?" } else { "✗" }
}

/// The ASCII a character beyond ASCII is drawn as where the terminal cannot show it (a
/// locale that is not UTF-8, or `--ascii`): the one fallback every text goes through, the
/// trainer's screen cell by cell ([`ascii_buffer`]) and the commands' output
/// ([`ascii_text`]), as the board's pieces go to letters. Dashes and rules to `-`, `≈` to
/// `~`, `·` to `.`, `×` to `x`, box corners to `+`, arrows to `<`/`>`; anything else to `?`.
pub fn ascii_char(c: char) -> &'static str {
    match c {
        '─' | '━' | '—' | '–' | '−' | '‐' | '═' => "-",
        '│' | '┃' | '║' => "|",
        '┌' | '┐' | '└' | '┘' | '├' | '┤' | '┬' | '┴' | '┼' | '╭' | '╮' | '╯' | '╰' => {
            "+"
        }
        '≈' | '∼' => "~",
        '·' | '•' | '●' => ".",
        '×' | '✗' => "x",
        '✓' => "v",
        '…' => "~",
        '→' | '▶' | '»' | '›' => ">",
        '←' | '◀' | '«' | '‹' => "<",
        '↑' => "^",
        '↓' => "v",
        '★' => "+",
        '█' | '▌' | '▐' => "#",
        '‘' | '’' => "'",
        '“' | '”' => "\"",
        '≤' => "<",
        '≥' => ">",
        '²' => "2",
        '³' => "3",
        _ => "?",
    }
}

/// `text` with every character beyond ASCII replaced by [`ascii_char`]'s.
pub fn ascii_text(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_ascii() {
                    c.to_string()
                } else {
                    ascii_char(c).to_string()
                }
            })
            .collect(),
    )
}

/// Every cell of a drawn screen in ASCII ([`ascii_char`]); the second cell of a two-column
/// character becomes a space.
pub fn ascii_buffer(buf: &mut ratatui::buffer::Buffer) {
    let area = buf.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &mut buf[(x, y)];
            if !cell.symbol().is_ascii() {
                let s = ascii_text(cell.symbol()).into_owned();
                let s = if s.len() > 1 { s[..1].to_string() } else { s };
                cell.set_symbol(&s);
            }
        }
    }
}

/// Every mark the trainer draws, with its meaning, for the help's legend: one entry per
/// mark, each mark with one meaning.
pub fn legend(ascii: bool) -> Vec<(String, &'static str)> {
    vec![
        (
            format!("{} {}", badge(2, ascii), badge(3, ascii)),
            "the position after this ply stands for the 2nd, 3rd … time (coloured by count; \
             hidden in blind mode and in drills before the answer)",
        ),
        (
            PLACE_MARK.to_string(),
            "a ply the ruling names: the occurrences of a repetition, the ply of an ending",
        ),
        (
            RULING_SPAN_MARK.to_string(),
            "xiangqi: a ply of the repetition the ruling judges",
        ),
        (
            "check chase idle".to_string(),
            "xiangqi: a move's status as the WXF judge sees it (chase: of which piece, by which; \
             idle: neither); threat: the last move, a chase if the reply answers it; cancel: a \
             capture or a pawn's advance, after which the count starts again",
        ),
        (
            detector_mark(ascii).to_string(),
            "a repetition detector errs at this ply (How engines see it)",
        ),
        ("[ ]".to_string(), "a ply chosen in a drill's answer"),
        (
            if ascii { "+" } else { "★" }.to_string(),
            "a drill's difficulty (one to three)",
        ),
        (
            if ascii { ">" } else { "▶" }.to_string(),
            "the player to move; in a list, the row selected",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn badges() {
        assert_eq!(badge(1, false), "");
        assert_eq!(badge(2, false), "×2");
        assert_eq!(badge(5, true), "x5");
    }

    #[test]
    fn plain_theme_has_no_colours() {
        let t = Theme::plain();
        assert!(!t.color);
        assert_eq!(t.rep2.fg, None);
        assert_eq!(t.rep3.bg, None);
        assert_ne!(t.rep2, t.rep3);
    }
}
