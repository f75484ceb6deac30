//! Text from files and command lines, made safe to show on a terminal.
//!
//! A PGN tag, a puzzle title, a move typed on the command line: such text can
//! carry control characters, and a terminal acts on them — `ESC [ 2 J`
//! clears the screen, `ESC ] 0 ; … BEL` sets the window title, the C1
//! character U+009B is a one-byte CSI on some terminals — so a file could
//! redraw or retitle the user's terminal through `threefold review`'s
//! report. [`visible`] writes every such character as an escape you can
//! read (`\e`, `\a`, `\u{9b}`) instead of dropping it silently, so the user
//! sees that the text holds one. The trainer (whose screen library would
//! drop them unseen) and every command that prints such text call it.
//!
//! What is escaped: the C0 controls and DEL (ECMA-48 §5, "C0 and C1 control
//! functions", <https://ecma-international.org/publications-and-standards/standards/ecma-48/>),
//! the C1 controls U+0080–U+009F, and the invisible characters that reorder
//! or separate lines (the bidirectional controls of Unicode Standard Annex
//! #9, <https://www.unicode.org/reports/tr9/>, and U+2028/U+2029), which can
//! make a line read otherwise than it is. JSON output needs none of this:
//! serde_json writes control characters as `\u001b`.
//!
//! Backslashes are left alone: a name with a backslash reads as it is, at
//! the price of `\e` typed literally looking like an escape.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` must not reach a terminal as it is.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
                | '\u{2028}' | '\u{2029}'
        )
}

/// `text` with every control character (and every invisible reordering
/// character) written as a readable escape: `\e` for ESC, `\a` BEL, `\b`,
/// `\t`, `\n`, `\v`, `\f`, `\r`, `\0`, and `\u{hex}` for the rest
/// (`\u{9b}`, `\u{7f}`, `\u{202e}`). Text without any comes back borrowed.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{1b}' => out.push_str("\\e"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if hidden(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::visible;
    use std::borrow::Cow;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        for s in [
            "",
            "Carlsen, Magnus",
            "Nepomniachtchi – 1/2-1/2",
            "Müller ♞ 象棋",
            "a\\eb",
        ] {
            assert!(matches!(visible(s), Cow::Borrowed(b) if b == s), "{s}");
        }
    }

    #[test]
    fn controls_are_written_as_escapes() {
        assert_eq!(
            visible("AAA\u{1b}[2J\u{1b}]0;PWNED\u{7}"),
            "AAA\\e[2J\\e]0;PWNED\\a"
        );
        assert_eq!(visible("x\u{9b}31m"), "x\\u{9b}31m");
        assert_eq!(visible("\u{7f}\u{1}\u{0}"), "\\u{7f}\\u{1}\\0");
        assert_eq!(visible("a\tb\r\nc"), "a\\tb\\r\\nc");
        assert_eq!(visible("abc\u{202e}fed"), "abc\\u{202e}fed");
    }

    /// No character that a terminal acts on survives, whatever the input.
    #[test]
    fn nothing_hidden_survives() {
        let all: String = (0u32..0x3000).filter_map(char::from_u32).collect();
        let shown = visible(&all);
        assert!(
            shown.chars().all(|c| !super::hidden(c)),
            "a control character is left"
        );
        assert!(shown.contains("Ā"), "printable text is kept");
    }
}
