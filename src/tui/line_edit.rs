//! The one line editor behind every text prompt of the trainer (typed moves,
//! claim moves, FEN, file names, drill answers). It edits like a shell line
//! (readline's emacs keys): the cursor moves with Left/Right and Home/End
//! (Ctrl-B/Ctrl-F, Ctrl-A/Ctrl-E), Backspace and Delete (Ctrl-D) remove a
//! character, Ctrl-U removes everything before the cursor, Ctrl-K everything
//! after it, and Ctrl-W the word before it. The keys live in the key table
//! (context `Input`, commands [`Cmd::Edit`](super::keys::Cmd::Edit)); this
//! type only knows the edits.
//!
//! The cursor is a character index (not a byte index), so multi-byte text
//! (a file name with accents) is edited a character at a time.

/// One edit of the line (everything but inserting a character).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Move the cursor a character left / right.
    Left,
    Right,
    /// Move the cursor to the start / end of the line.
    Home,
    End,
    /// Remove the character before / under the cursor.
    Backspace,
    Delete,
    /// Remove everything before the cursor (Ctrl-U).
    KillToStart,
    /// Remove everything from the cursor to the end (Ctrl-K).
    KillToEnd,
    /// Remove the word before the cursor, and the spaces after it (Ctrl-W,
    /// as a shell does: words end at whitespace).
    KillWord,
}

/// A line of text and a cursor in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineEdit {
    text: String,
    /// Characters before the cursor (0..=char count).
    cursor: usize,
    /// Characters in `text`, kept as it changes: typing at the end then
    /// costs the same however long the line is (a 100 kB paste is 100,000
    /// characters typed at the end; counting them each time was quadratic).
    chars: usize,
}

impl LineEdit {
    /// A line holding `text`, the cursor at its end.
    pub fn new(text: &str) -> LineEdit {
        let chars = text.chars().count();
        LineEdit {
            text: text.to_string(),
            cursor: chars,
            chars,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor's position: how many characters are before it.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    fn len(&self) -> usize {
        self.chars
    }

    /// The byte offset of character `i` (the end for `i` past it).
    fn byte(&self, i: usize) -> usize {
        if i >= self.chars {
            return self.text.len();
        }
        self.text
            .char_indices()
            .nth(i)
            .map_or(self.text.len(), |(b, _)| b)
    }

    /// Type a character at the cursor.
    pub fn insert(&mut self, c: char) {
        let at = self.byte(self.cursor);
        self.text.insert(at, c);
        self.cursor += 1;
        self.chars += 1;
    }

    /// Remove characters `from..to` (character indices) and put the cursor at `from`.
    fn remove(&mut self, from: usize, to: usize) {
        let (a, b) = (self.byte(from), self.byte(to));
        self.text.replace_range(a..b, "");
        self.chars -= to.min(self.chars) - from.min(to);
        self.cursor = from;
    }

    /// Apply an edit.
    pub fn edit(&mut self, e: Edit) {
        let len = self.len();
        match e {
            Edit::Left => self.cursor = self.cursor.saturating_sub(1),
            Edit::Right => self.cursor = (self.cursor + 1).min(len),
            Edit::Home => self.cursor = 0,
            Edit::End => self.cursor = len,
            Edit::Backspace if self.cursor > 0 => self.remove(self.cursor - 1, self.cursor),
            Edit::Delete if self.cursor < len => self.remove(self.cursor, self.cursor + 1),
            Edit::Backspace | Edit::Delete => {}
            Edit::KillToStart => self.remove(0, self.cursor),
            Edit::KillToEnd => self.remove(self.cursor, len),
            Edit::KillWord => {
                let chars: Vec<char> = self.text.chars().collect();
                let mut from = self.cursor;
                while from > 0 && chars[from - 1].is_whitespace() {
                    from -= 1;
                }
                while from > 0 && !chars[from - 1].is_whitespace() {
                    from -= 1;
                }
                self.remove(from, self.cursor);
            }
        }
    }

    /// What fits in `width` columns with the cursor in view: the text before
    /// the cursor, the character under it (None at the end of the line) and
    /// the text after it. A line longer than the width scrolls so that the
    /// cursor stays visible (one column is kept for the cursor at the end).
    pub fn window(&self, width: usize) -> (String, Option<char>, String) {
        let chars: Vec<char> = self.text.chars().collect();
        let width = width.max(1);
        let start = (self.cursor + 1).saturating_sub(width);
        let end = (start + width).min(chars.len());
        let before: String = chars[start..self.cursor].iter().collect();
        let at = chars
            .get(self.cursor)
            .copied()
            .filter(|_| self.cursor < end);
        let after: String = chars
            .get(self.cursor + 1..end)
            .map_or(String::new(), |s| s.iter().collect());
        (before, at, after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(s: &str) -> LineEdit {
        let mut l = LineEdit::default();
        for c in s.chars() {
            l.insert(c);
        }
        l
    }

    #[test]
    fn cursor_moves_and_inserts_in_the_middle() {
        let mut l = typed("e4");
        assert_eq!((l.text(), l.cursor()), ("e4", 2));
        l.edit(Edit::Left);
        l.insert('2');
        assert_eq!(l.text(), "e24");
        l.edit(Edit::Home);
        l.insert('N');
        assert_eq!((l.text(), l.cursor()), ("Ne24", 1));
        l.edit(Edit::End);
        assert_eq!(l.cursor(), 4);
        l.edit(Edit::Right);
        assert_eq!(l.cursor(), 4, "the cursor stops at the end");
        l.edit(Edit::Home);
        l.edit(Edit::Left);
        assert_eq!(l.cursor(), 0, "and at the start");
    }

    #[test]
    fn backspace_and_delete_remove_one_character_either_side() {
        let mut l = LineEdit::new("Nbd2");
        l.edit(Edit::Left);
        l.edit(Edit::Left);
        l.edit(Edit::Backspace);
        assert_eq!((l.text(), l.cursor()), ("Nd2", 1));
        l.edit(Edit::Delete);
        assert_eq!((l.text(), l.cursor()), ("N2", 1));
        l.edit(Edit::End);
        l.edit(Edit::Delete);
        assert_eq!(l.text(), "N2", "nothing under the cursor at the end");
        l.edit(Edit::Home);
        l.edit(Edit::Backspace);
        assert_eq!(l.text(), "N2", "nothing before the cursor at the start");
    }

    #[test]
    fn kills_as_a_shell_does() {
        let mut l = LineEdit::new("8/8/8 w - -  ");
        l.edit(Edit::KillWord);
        assert_eq!(l.text(), "8/8/8 w - ", "the word and the spaces after it");
        l.edit(Edit::KillWord);
        l.edit(Edit::KillWord);
        assert_eq!(l.text(), "8/8/8 ");
        l.edit(Edit::Left);
        l.edit(Edit::Left);
        l.edit(Edit::KillToEnd);
        assert_eq!((l.text(), l.cursor()), ("8/8/", 4));
        l.edit(Edit::Left);
        l.edit(Edit::KillToStart);
        assert_eq!((l.text(), l.cursor()), ("/", 0));
        l.edit(Edit::KillWord);
        assert_eq!(l.text(), "/", "nothing before the cursor");
    }

    #[test]
    fn characters_not_bytes() {
        let mut l = LineEdit::new("partie-Ève.pgn");
        for _ in 0..6 {
            l.edit(Edit::Left);
        }
        l.edit(Edit::Backspace);
        assert_eq!(l.text(), "partie-ve.pgn");
        l.insert('É');
        assert_eq!(l.text(), "partie-Éve.pgn");
        assert_eq!(l.window(80), ("partie-É".into(), Some('v'), "e.pgn".into()));
    }

    /// The kept count agrees with the text after every kind of edit.
    #[test]
    fn the_character_count_follows_every_edit() {
        let mut l = typed("Ève a");
        let edits = [
            Edit::Left,
            Edit::Backspace,
            Edit::Delete,
            Edit::KillWord,
            Edit::End,
            Edit::KillToStart,
        ];
        for e in edits {
            l.insert('é');
            l.edit(e);
            assert_eq!(l.len(), l.text().chars().count(), "after {e:?}: {l:?}");
        }
        l = LineEdit::new("abc");
        l.edit(Edit::Home);
        l.edit(Edit::KillToEnd);
        assert_eq!((l.len(), l.text()), (0, ""));
    }

    #[test]
    fn a_long_line_scrolls_to_keep_the_cursor_in_view() {
        let mut l = LineEdit::new("abcdefghij");
        assert_eq!(l.window(4), ("hij".into(), None, String::new()));
        l.edit(Edit::Home);
        assert_eq!(l.window(4), (String::new(), Some('a'), "bcd".into()));
        l.edit(Edit::Right);
        l.edit(Edit::Right);
        assert_eq!(l.window(20), ("ab".into(), Some('c'), "defghij".into()));
    }
}
