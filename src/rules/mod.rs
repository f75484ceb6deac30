//! The rules core: a game as a start position plus moves, FIDE 9.2 / 9.3 / 9.6.
