//! The options: the `uci` announcement (`Uci::say_options`) and `setoption`, its name and
//! value read by the keywords' positions ([`parse_setoption`]), each value checked against the
//! option's range with a note when it is refused.

use crate::DEFAULT_HASH_MB;
use crate::chess::repetition::Method;
use crate::level;
use crate::shadow::ShadowScore;
use crate::tt::MIN_HASH_MB;

use super::position::{GameRecord, Variant};
use super::{NAME, Uci, default_uci_elo, note, say};

impl Uci {
    /// The `uci` command's answer before `uciok`: the engine's name and its options.
    pub(super) fn say_options(&self) {
        say(&self.out, &format!("id name {NAME}"));
        say(&self.out, "id author the threefold authors");
        say(
            &self.out,
            &format!(
                "option name Hash type spin default {DEFAULT_HASH_MB} min {MIN_HASH_MB} max {}",
                self.options.max_hash_mb
            ),
        );
        say(
            &self.out,
            "option name Contempt type spin default 0 min -1000 max 1000",
        );
        say(
            &self.out,
            "option name Threads type spin default 1 min 1 max 1",
        );
        say(&self.out, "option name Ponder type check default false");
        say(&self.out, "option name OwnBook type check default false");
        let vars: Vec<String> = Method::ALL.iter().map(|m| format!("var {m}")).collect();
        say(
            &self.out,
            &format!(
                "option name Repetition type combo default {} {}",
                Method::default(),
                vars.join(" ")
            ),
        );
        say(
            &self.out,
            "option name UpcomingRepetition type check default false",
        );
        say(
            &self.out,
            "option name ShadowScore type check default false",
        );
        let vars: Vec<String> = Variant::ALL
            .iter()
            .map(|v| format!("var {}", v.name()))
            .collect();
        say(
            &self.out,
            &format!(
                "option name UCI_Variant type combo default chess {}",
                vars.join(" ")
            ),
        );
        say(&self.out, "option name Judge type check default true");
        say(&self.out, "option name Sparring type check default false");
        say(
            &self.out,
            &format!(
                "option name Level type spin default 0 min 0 max {}",
                level::LEVELS.end()
            ),
        );
        say(
            &self.out,
            "option name UCI_LimitStrength type check default false",
        );
        let (lo, hi) = level::elo_range();
        say(
            &self.out,
            &format!(
                "option name UCI_Elo type spin default {} min {lo} max {hi}",
                default_uci_elo()
            ),
        );
    }

    pub(super) fn setoption(&mut self, rest: &[&str]) {
        let (name, value) = match parse_setoption(rest) {
            Ok(nv) => nv,
            Err(e) => {
                note(&self.out, &format!("{e}; ignored"));
                return;
            }
        };
        let max_hash = self.options.max_hash_mb;
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (MIN_HASH_MB..=max_hash).contains(&mb) => {
                    let engine = self.engine();
                    let result = engine.set_hash(mb);
                    let now = engine.hash_mb();
                    if let Err(e) = result {
                        note(
                            &self.out,
                            &format!("Hash {mb} refused: {e}; the table has {now} MB"),
                        );
                    }
                }
                _ => note(
                    &self.out,
                    &format!("Hash value '{value}' is not in {MIN_HASH_MB}..={max_hash}; ignored"),
                ),
            },
            "contempt" => match value.parse::<i32>() {
                Ok(cp) if (-1000..=1000).contains(&cp) => self.engine().set_contempt(cp),
                _ => note(
                    &self.out,
                    &format!("Contempt value '{value}' is not in -1000..=1000; ignored"),
                ),
            },
            "repetition" => match value.parse::<Method>() {
                Ok(m) => self.engine().set_repetition(m),
                Err(e) => note(&self.out, &format!("Repetition: {e}; ignored")),
            },
            "upcomingrepetition" => {
                if let Some(on) = self.check_value("UpcomingRepetition", &value) {
                    self.engine().set_upcoming_repetition(on);
                }
            }
            "shadowscore" => {
                if let Some(on) = self.check_value("ShadowScore", &value) {
                    self.engine().set_shadow_score(if on {
                        ShadowScore::On
                    } else {
                        ShadowScore::Off
                    });
                }
            }
            "sparring" => {
                if let Some(on) = self.check_value("Sparring", &value) {
                    self.sparring = on;
                }
            }
            "ownbook" => {
                if let Some(on) = self.check_value("OwnBook", &value) {
                    self.own_book = on;
                }
            }
            "uci_variant" => match Variant::parse(&value) {
                Some(v) => {
                    if v != self.variant {
                        self.engine().new_game();
                        self.variant = v;
                    }
                    self.game = GameRecord::start(v);
                    self.position_ok = true;
                }
                None => note(
                    &self.out,
                    &format!("UCI_Variant value '{value}' is not chess or xiangqi; ignored"),
                ),
            },
            "judge" => {
                if let Some(on) = self.check_value("Judge", &value) {
                    self.engine().set_judge(on);
                }
            }
            "level" => match value.parse::<u8>() {
                Ok(l) if l == 0 || level::LEVELS.contains(&l) => {
                    self.level = l;
                    if l > 0 {
                        note(
                            &self.out,
                            &format!(
                                "Level {l}: {}{}",
                                level::summary(l),
                                if self.limit_strength {
                                    "; UCI_LimitStrength is on and chooses the level by UCI_Elo"
                                } else {
                                    ""
                                }
                            ),
                        );
                    }
                }
                _ => note(
                    &self.out,
                    &format!(
                        "Level value '{value}' is not in 0..={}; ignored",
                        level::LEVELS.end()
                    ),
                ),
            },
            "uci_limitstrength" => {
                if let Some(on) = self.check_value("UCI_LimitStrength", &value) {
                    self.limit_strength = on;
                    self.say_level();
                }
            }
            "uci_elo" => {
                let (lo, hi) = level::elo_range();
                match value.parse::<i32>() {
                    Ok(e) => {
                        if !(lo..=hi).contains(&e) {
                            note(
                                &self.out,
                                &format!(
                                    "UCI_Elo {e} is outside {lo}..={hi}; taken as {}",
                                    e.clamp(lo, hi)
                                ),
                            );
                        }
                        self.uci_elo = e.clamp(lo, hi);
                        self.say_level();
                    }
                    Err(_) => note(
                        &self.out,
                        &format!("UCI_Elo value '{value}' is not a number; ignored"),
                    ),
                }
            }
            "threads" | "ponder" | "multipv" | "uci_chess960" | "uci_showwdl" => {}
            _ => note(&self.out, &format!("unknown option '{name}' ignored")),
        }
    }

    /// The level every `go` is narrowed to, if any: `UCI_Elo`'s when `UCI_LimitStrength` is on,
    /// else `Level`'s (0: none).
    pub(super) fn level(&self) -> Option<u8> {
        if self.limit_strength {
            Some(level::from_elo(self.uci_elo))
        } else {
            (self.level > 0).then_some(self.level)
        }
    }

    /// With `UCI_LimitStrength` on, which level `UCI_Elo` chose.
    fn say_level(&self) {
        if self.limit_strength {
            let l = level::from_elo(self.uci_elo);
            note(
                &self.out,
                &format!("UCI_Elo {}: level {l}, {}", self.uci_elo, level::summary(l)),
            );
        }
    }

    /// The value of a `check` option, `true` or `false` in any case; anything else is
    /// noted as ignored and gives `None`.
    fn check_value(&self, option: &str, value: &str) -> Option<bool> {
        match value.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => {
                note(
                    &self.out,
                    &format!("{option} value '{value}' is not true or false; ignored"),
                );
                None
            }
        }
    }
}

/// A `setoption` line that names no option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetoptionError {
    /// No `name` keyword.
    #[error("setoption without 'name' (setoption name <id> [value <x>])")]
    NoName,
    /// `name` followed by no word (or directly by `value`).
    #[error("setoption with no option name after 'name'")]
    EmptyName,
    /// Words before the first keyword.
    #[error("setoption: '{0}' before 'name' or 'value' (setoption name <id> [value <x>])")]
    Stray(String),
}

/// Reads `setoption name <id> [value <x>]` by the keywords' positions: the name is the words
/// after `name` up to `value` (or the end), the value the words after `value` up to `name`
/// (or the end), in either order, so `setoption value 3 name Hash` sets Hash to 3. Names and
/// values may have several words; the first `name` and the first `value` are the keywords.
pub fn parse_setoption(rest: &[&str]) -> Result<(String, String), SetoptionError> {
    let ni = rest
        .iter()
        .position(|w| *w == "name")
        .ok_or(SetoptionError::NoName)?;
    let vi = rest.iter().position(|w| *w == "value");
    let first = vi.map_or(ni, |v| v.min(ni));
    if first > 0 {
        return Err(SetoptionError::Stray(rest[..first].join(" ")));
    }
    let (name, value) = match vi {
        None => (&rest[ni + 1..], &[][..]),
        // name <id> value <x>: the value runs to the end (it may contain "name").
        Some(v) if v > ni => (&rest[ni + 1..v], &rest[v + 1..]),
        // value <x> name <id>.
        Some(v) => (&rest[ni + 1..], &rest[v + 1..ni]),
    };
    if name.is_empty() {
        return Err(SetoptionError::EmptyName);
    }
    Ok((name.join(" "), value.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_reads_name_and_value_by_their_keywords() {
        let ok = |rest: &[&str], name: &str, value: &str| {
            assert_eq!(
                parse_setoption(rest),
                Ok((name.to_string(), value.to_string())),
                "{rest:?}"
            );
        };
        ok(&["name", "Hash", "value", "3"], "Hash", "3");
        ok(&["value", "3", "name", "Hash"], "Hash", "3");
        ok(&["name", "Clear", "Hash"], "Clear Hash", "");
        ok(
            &["name", "Path", "value", "a", "name", "b"],
            "Path",
            "a name b",
        );
        ok(&["name", "Hash", "value"], "Hash", "");
        assert_eq!(parse_setoption(&[]), Err(SetoptionError::NoName));
        assert_eq!(
            parse_setoption(&["value", "3"]),
            Err(SetoptionError::NoName)
        );
        assert_eq!(
            parse_setoption(&["name", "value", "3"]),
            Err(SetoptionError::EmptyName)
        );
        assert_eq!(
            parse_setoption(&["value", "3", "name"]),
            Err(SetoptionError::EmptyName)
        );
        assert_eq!(
            parse_setoption(&["Hash", "name", "Hash", "value", "3"]),
            Err(SetoptionError::Stray("Hash".into()))
        );
    }
}
