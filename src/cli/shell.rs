//! `threefold completions SHELL` and `threefold man`: what a shell and `man` need, generated
//! from the same clap definitions as `--help`, so they never drift from the commands.
//!
//! Install (`README.md`, section "Install", says the same):
//! - bash: `threefold completions bash > ~/.local/share/bash-completion/completions/threefold`
//! - zsh: `threefold completions zsh > ~/.zfunc/_threefold` with `~/.zfunc` in `fpath`
//! - fish: `threefold completions fish > ~/.config/fish/completions/threefold.fish`
//! - man: `threefold man --dir ~/.local/share/man/man1` (one page per command), or
//!   `threefold man | man -l -` to read the main page at once.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Arguments of `threefold man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write `threefold.1` and one page per subcommand (`threefold-analyze.1`, …) into DIR
    /// instead of printing the main page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Writes the completion script for `shell` to `out`.
pub fn completions(
    shell: clap_complete::Shell,
    mut cmd: clap::Command,
    out: &mut impl Write,
) -> Result<()> {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "threefold", &mut buf);
    out.write_all(&buf)?;
    Ok(())
}

/// The manual pages of `cmd` and of each of its subcommands (nested ones too), as
/// (file name, roff text), the main page first.
pub fn man_pages(cmd: clap::Command) -> Result<Vec<(String, Vec<u8>)>> {
    fn collect(cmd: clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
        let subs: Vec<clap::Command> = cmd
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .cloned()
            .collect();
        let man = clap_mangen::Man::new(cmd);
        let mut text = Vec::new();
        man.render(&mut text)?;
        pages.push((man.get_filename(), text));
        for sub in subs {
            collect(sub, pages)?;
        }
        Ok(())
    }
    let mut cmd = cmd.disable_help_subcommand(true);
    // Building gives each subcommand its display name ("threefold-analyze").
    cmd.build();
    let mut pages = Vec::new();
    collect(cmd, &mut pages)?;
    Ok(pages)
}

/// `threefold man`: the main page on `out`, or every page into `dir` (each file written
/// atomically; the directory must exist).
pub fn man(args: &ManArgs, cmd: clap::Command, out: &mut impl Write) -> Result<()> {
    let pages = man_pages(cmd)?;
    match &args.dir {
        None => out.write_all(&pages[0].1)?,
        Some(dir) => {
            if !dir.is_dir() {
                bail!("{} is not a directory", dir.display());
            }
            for (name, text) in &pages {
                let path: PathBuf = Path::new(dir).join(name);
                threefold::fsio::write_atomic(&path, text)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                writeln!(out, "{}", path.display())?;
            }
        }
    }
    Ok(())
}
