//! Settings in TOML, in the platform's config directory
//! (`directories::ProjectDirs`). Written with defaults on first run; a
//! malformed file gives a message naming the line, and the defaults are used.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::play::Players;

/// Everything the trainer reads from `config.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Draw the board with ASCII letters instead of Unicode pieces.
    pub ascii: bool,
    /// Which side the human plays: "white", "black", "both" (two humans) or "none" (engine vs engine).
    pub human: Players,
    /// Engine strength, 1 (weakest) to 8.
    pub level: u8,
    /// Engine hash table size in MiB.
    pub hash_mb: usize,
    /// Engine contempt in centipawns: how much worse than equal a draw is for it.
    pub contempt: i32,
    /// Clock base time in seconds (0 = no clocks).
    pub clock_base_secs: u64,
    /// Clock increment in seconds.
    pub clock_inc_secs: u64,
    /// Euwe stepper autoplay delay in milliseconds.
    pub euwe_delay_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            ascii: false,
            human: Players::HumanWhite,
            level: 3,
            hash_mb: 16,
            contempt: 0,
            clock_base_secs: 0,
            clock_inc_secs: 0,
            euwe_delay_ms: 400,
        }
    }
}

/// The config file's path, if the platform has a config directory.
pub fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "threefold").map(|d| d.config_dir().join("config.toml"))
}

/// The data directory (saved game in progress).
pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "threefold").map(|d| d.data_dir().to_path_buf())
}

/// The text written on first run.
pub fn default_text() -> String {
    let body = toml::to_string(&Config::default()).expect("the defaults serialise");
    format!(
        "# threefold settings. Delete this file to get the defaults back.\n\
         # human: white | black | both | none;  level: 1..8;  clock 0 = no clocks.\n{body}"
    )
}

/// Parse config text. On error: the defaults, and a message naming the line.
pub fn parse(text: &str, file: &str) -> (Config, Option<String>) {
    match toml::from_str::<Config>(text) {
        Ok(c) => match validate(&c) {
            Ok(()) => (c, None),
            Err(e) => (
                Config::default(),
                Some(format!("{file}: {e}; using the defaults")),
            ),
        },
        Err(e) => {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            let msg = e.message().replace('\n', " ");
            let place = match line {
                Some(l) => format!("{file} line {l}"),
                None => file.to_string(),
            };
            (
                Config::default(),
                Some(format!("{place}: {msg}; using the defaults")),
            )
        }
    }
}

fn validate(c: &Config) -> Result<(), String> {
    if !(1..=8).contains(&c.level) {
        return Err(format!("level = {} is not in 1..8", c.level));
    }
    Ok(())
}

/// Load the config at `path`, creating it with defaults if it does not exist.
/// Never fails: problems come back as a message, with the defaults.
pub fn load_or_create(path: &Path) -> (Config, Option<String>) {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text, &path.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let created = crate::fsio::write_app_file(path, default_text().as_bytes());
            match created {
                Ok(()) => (Config::default(), None),
                Err(e) => (
                    Config::default(),
                    Some(format!("cannot write {}: {e}", path.display())),
                ),
            }
        }
        Err(e) => (
            Config::default(),
            Some(format!(
                "cannot read {}: {e}; using the defaults",
                path.display()
            )),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip() {
        let (c, msg) = parse(&default_text(), "config.toml");
        assert_eq!(msg, None);
        assert_eq!(c, Config::default());
    }

    #[test]
    fn malformed_names_the_line() {
        let text = "ascii = true\nlevel = 4\nhash_mb = \"lots\"\n";
        let (c, msg) = parse(text, "config.toml");
        assert_eq!(c, Config::default());
        let msg = msg.unwrap();
        assert!(msg.contains("config.toml line 3"), "{msg}");
        assert!(msg.contains("using the defaults"), "{msg}");
    }

    #[test]
    fn bad_values_are_reported() {
        let (_, msg) = parse("human = \"martian\"\n", "c.toml");
        assert!(msg.unwrap().contains("martian"));
        let (c, msg) = parse("level = 7\n", "c.toml");
        assert_eq!(msg, None);
        assert_eq!(c.level, 7);
    }

    #[test]
    fn created_on_first_run_and_atomic_write() {
        let dir = std::env::temp_dir().join(format!("threefold-cfg-{}", std::process::id()));
        let path = dir.join("sub").join("config.toml");
        let _ = std::fs::remove_dir_all(&dir);
        let (c, msg) = load_or_create(&path);
        assert_eq!((c, msg), (Config::default(), None));
        assert!(path.exists());
        crate::fsio::write_app_file(&path, b"level = 2\n").unwrap();
        assert_eq!(load_or_create(&path).0.level, 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
