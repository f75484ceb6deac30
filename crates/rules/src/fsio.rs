//! Saving files so that a crash, a full disk or a bad path never loses what was there.
//!
//! [`write_atomic`] is the one way the program writes a file the user cares about (settings,
//! drill progress, the game in progress, a saved PGN):
//!
//! 1. A symbolic link is followed: its final target is written and the link stays a link.
//! 2. The target must be a regular file or not exist yet; a directory, a device, a FIFO or a
//!    socket is refused before anything is written.
//! 3. The target's directory must exist: nothing is created (a typo in a directory name is an
//!    error, not a new directory tree).
//! 4. The text goes to a new temporary file beside the target (same directory, so the rename
//!    stays within one file system), which gets the old file's permissions, is flushed to
//!    disk (`fsync`), and renamed over the target; then the directory is flushed too, so the
//!    rename itself survives a power cut.
//! 5. On any failure the temporary file is removed and the old file is untouched.
//! 6. A temporary file a killed writer left (SIGKILL or a power cut between its creation and
//!    the rename) is removed by the next successful save of the same target: see
//!    `remove_stale_temps` (private, below) for which ones count as left.
//!
//! [`write_app_file`] is the same for the program's own files (config and data directory),
//! whose directory it creates first.
//!
//! Reading is the other half: [`read_text`] and [`read_bytes`] are the one way a file is
//! read whole, and [`open_regular`] the one way one is opened to be streamed (PGN):
//!
//! 1. The file is opened without blocking (`O_NONBLOCK`), so a FIFO with no writer cannot
//!    hang the caller; then what was opened is looked at (`fstat`, after links are followed):
//!    anything but a regular file (a directory, a device such as `/dev/zero`, a FIFO, a
//!    socket) is refused with one line naming it, before a byte is read.
//! 2. A file read whole is read up to the limit of its [`FileKind`] and no further: one
//!    larger (or growing while it is read) is refused, never held in memory, so a link to an
//!    endless file costs a few megabytes at most.
//! 3. Every error names the file ([`ReadError`], one variant per cause).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How many symbolic links are followed before giving up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// The program's data directory (drill progress, the game in progress, the puzzles from
/// your games): `directories::ProjectDirs::from("", "", "threefold")`'s, if the platform
/// has one (`$XDG_DATA_HOME/threefold` or `~/.local/share/threefold` on Linux).
pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "threefold").map(|d| d.data_dir().to_path_buf())
}

/// Writes `bytes` to `path` atomically (see the module docs for every rule).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// [`write_atomic`] into the program's own config or data directory, which is created first
/// if it does not exist yet.
pub fn write_app_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    write_atomic(path, bytes)
}

/// [`write_atomic`] with the content written by `write` into the temporary file.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    begin_write(path)?.finish_with(write)
}

/// A file being written atomically ([`begin_write`]): its temporary file is made at once,
/// so a path that cannot be written is refused before any work is done for it; the file is
/// written and renamed over the path by [`PendingWrite::finish`], and the temporary file is
/// removed if it never is.
#[derive(Debug)]
pub struct PendingWrite {
    tmp: PathBuf,
    file: Option<File>,
    target: PathBuf,
    existing: Option<fs::Metadata>,
    name: String,
}

/// Start writing `path` atomically (see [`PendingWrite`]): the checks of [`write_atomic`]
/// (not a directory or a device, its directory exists) and its temporary file, now.
pub fn begin_write(path: &Path) -> io::Result<PendingWrite> {
    let target = follow_links(path)?;
    let existing = match fs::metadata(&target) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(m) = &existing
        && !m.is_file()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is not a regular file ({}); not replaced",
                target.display(),
                kind_of(m)
            ),
        ));
    }
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} does not name a file", target.display()),
        )
    })?;
    let dir = parent_dir(&target);
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is not a directory", dir.display()),
            ));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("the directory {} does not exist", dir.display()),
            ));
        }
        Err(e) => return Err(e),
    }
    let name = name.to_string_lossy().into_owned();
    let (tmp, file) = create_temp(dir, &name)?;
    Ok(PendingWrite {
        tmp,
        file: Some(file),
        target: target.clone(),
        existing,
        name,
    })
}

impl PendingWrite {
    /// Write `bytes` and put the file in place.
    pub fn finish(self, bytes: &[u8]) -> io::Result<()> {
        self.finish_with(|f| f.write_all(bytes))
    }

    /// Write the file with `write` and put it in place.
    pub fn finish_with(
        mut self,
        write: impl FnOnce(&mut File) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut file = self.file.take().expect("a pending write is finished once");
        let dir = parent_dir(&self.target).to_path_buf();
        let result = (|| {
            if let Some(m) = &self.existing {
                file.set_permissions(m.permissions())?;
            }
            write(&mut file)?;
            file.sync_all()?;
            drop(file);
            fs::rename(&self.tmp, &self.target)?;
            sync_dir(&dir)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&self.tmp);
        } else {
            remove_stale_temps(&dir, &self.name, SystemTime::now());
        }
        result
    }
}

impl Drop for PendingWrite {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// How long a temporary file may go unmodified before it counts as left even if its
/// writer's process id is in use (process ids are reused). A save writes its temporary
/// file in seconds; an hour is far beyond any live writer.
pub const STALE_AFTER: Duration = Duration::from_secs(3600);

/// The process id in a temporary file name of ours for the target `name`:
/// `.<name>.tmp-<pid>-<n>` exactly (as [`create_temp`] makes them), else None.
fn temp_owner(file_name: &str, name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?.strip_prefix(name)?;
    let (pid, n) = rest.strip_prefix(".tmp-")?.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n)).then(|| pid.parse().ok())?
}

/// Whether process `pid` exists (any user's). Elsewhere than unix: assumed so, and
/// then only the age rule removes a left temporary file.
fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Remove the temporary files a killed writer left beside the target `name` in `dir`.
///
/// Only files of our exact naming for this target (`.<name>.tmp-<pid>-<n>`, regular
/// files, not links) are looked at, so no other program's file is touched; of those, one
/// is left (and removed) when its writer's process is gone, or when it has not been
/// modified for [`STALE_AFTER`] (the process id may have been reused). A file of this
/// process or of another live one that is younger may be a save under way: it stays.
/// Best effort: a file that cannot be removed stays, and the save that called this has
/// succeeded regardless.
fn remove_stale_temps(dir: &Path, name: &str, now: SystemTime) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|f| temp_owner(f, name)) else {
            continue;
        };
        let Ok(m) = e.path().symlink_metadata() else {
            continue;
        };
        if !m.is_file() {
            continue;
        }
        let old = m
            .modified()
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age >= STALE_AFTER);
        let writer_gone = pid != me && !process_alive(pid);
        if old || writer_gone {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// The final target of `path` after following symbolic links (relative links are relative
/// to the link's directory). A path that is not a link is returned as it is.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&p)?;
                p = if link.is_absolute() {
                    link
                } else {
                    parent_dir(&p).join(link)
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{}: more than {MAX_LINKS} levels of symbolic links",
            path.display()
        ),
    ))
}

/// The directory of `path` ("." for a bare file name).
fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A new, empty temporary file `.<name>.tmp-<pid>-<n>` in `dir`, never one that exists.
fn create_temp(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut last = None;
    for n in 0..100 {
        let tmp = dir.join(format!(".{name}.tmp-{pid}-{n}"));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary file name left")))
}

fn kind_of(m: &fs::Metadata) -> &'static str {
    let t = m.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

/// Flushes a directory so a rename in it is on disk. Unix only (elsewhere a directory
/// cannot be opened as a file, and the rename is as durable as the platform makes it).
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// What a file read whole is, which sets how large it may be ([`FileKind::limit`]) and
/// how the refusal names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// The trainer's `config.toml`.
    Config,
    /// The drills' progress (`progress.toml`).
    Progress,
    /// A puzzle file (`puzzles/*.toml`, `from-your-games.toml`).
    Puzzles,
    /// A game in progress kept between runs (`game-in-progress.json`,
    /// `xiangqi-in-progress.pgn`).
    KeptGame,
    /// One game read whole from a PGN file (a xiangqi game the trainer opens).
    PgnGame,
    /// A list of positions or games given to a command (`bench rules --file`).
    InputList,
    /// The statistics of a review written as JSON (`review --summary-json`), read by
    /// `review merge`.
    ReviewSummary,
}

impl FileKind {
    /// The most bytes a file of this kind may hold. Each is far above what the program
    /// writes or a person edits (a 200,000-ply game is about 2 MB of PGN; 100,000 puzzles
    /// about 30 MB), and far below what would strain memory.
    pub const fn limit(self) -> u64 {
        const MIB: u64 = 1 << 20;
        match self {
            FileKind::Config => MIB,
            FileKind::Progress | FileKind::ReviewSummary => 16 * MIB,
            FileKind::Puzzles | FileKind::KeptGame | FileKind::PgnGame => 64 * MIB,
            FileKind::InputList => 256 * MIB,
        }
    }

    /// The kind in words, for messages: "a config file".
    pub const fn words(self) -> &'static str {
        match self {
            FileKind::Config => "a config file",
            FileKind::Progress => "a drill progress file",
            FileKind::Puzzles => "a puzzle file",
            FileKind::KeptGame => "a kept game",
            FileKind::PgnGame => "a PGN game",
            FileKind::InputList => "an input file",
            FileKind::ReviewSummary => "a review summary",
        }
    }
}

/// Why a file was not read. The message names the file ("cannot read config.toml: a
/// device, not a regular file"), and the caller adds what follows ("; using the
/// defaults"); [`ReadError::cause`] is the same without the file's name, for messages that
/// name it already.
#[derive(Debug)]
pub enum ReadError {
    /// There is no such file.
    NotFound { path: PathBuf },
    /// The path names something other than a regular file.
    NotRegular { path: PathBuf, kind: &'static str },
    /// The file holds more than its kind may ([`FileKind::limit`]).
    TooLarge {
        path: PathBuf,
        kind: FileKind,
        /// The size the file system gave, when it gave one above the limit (a file that
        /// grew while it was read, or a /proc file, has none).
        size: Option<u64>,
    },
    /// The file is not UTF-8 text.
    NotUtf8 { path: PathBuf, offset: usize },
    /// Opening or reading failed for another reason (permissions, I/O).
    Io { path: PathBuf, source: io::Error },
}

impl ReadError {
    /// Whether the file does not exist (callers that create a missing file ask this).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::NotFound { .. })
    }

    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ReadError::NotFound { path }
            | ReadError::NotRegular { path, .. }
            | ReadError::TooLarge { path, .. }
            | ReadError::NotUtf8 { path, .. }
            | ReadError::Io { path, .. } => path,
        }
    }

    /// What is wrong, without the file's name: "a FIFO, not a regular file".
    pub fn cause(&self) -> String {
        match self {
            ReadError::NotFound { .. } => "no such file".to_string(),
            ReadError::NotRegular { kind, .. } => format!("{kind}, not a regular file"),
            ReadError::TooLarge { kind, size, .. } => format!(
                "{}more than {} may hold ({})",
                size.map_or_else(String::new, |s| format!("{}, ", human_size(s))),
                kind.words(),
                human_size(kind.limit())
            ),
            ReadError::NotUtf8 { offset, .. } => format!("not UTF-8 text (byte {offset})"),
            ReadError::Io { source, .. } => source.to_string(),
        }
    }

    fn io(path: &Path, source: io::Error) -> ReadError {
        if source.kind() == io::ErrorKind::NotFound {
            ReadError::NotFound {
                path: path.to_path_buf(),
            }
        } else {
            ReadError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read {}: {}", self.path().display(), self.cause())
    }
}

/// No `source`: the message holds the cause already (an I/O error given as the source too
/// is printed twice by `{:#}`: "Is a directory (os error 21): Is a directory (os error 21)").
impl std::error::Error for ReadError {}

/// "1 MiB", "7.8 GiB", "312 bytes": a size for messages.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    #[allow(clippy::cast_precision_loss)] // a size in a message: two digits are enough
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    let tenths = format!("{v:.1}");
    if v.fract() == 0.0 {
        format!("{v:.0} {}", UNITS[unit])
    } else if tenths.ends_with(".0") {
        // Just past a whole unit ("1.0 MiB" beside a limit of "1 MiB"): the bytes.
        format!("{bytes} bytes")
    } else {
        format!("{tenths} {}", UNITS[unit])
    }
}

/// Opens `path` to be read, refusing anything but a regular file (see the module docs):
/// the one way a file is opened to be streamed. Never blocks on a FIFO.
pub fn open_regular(path: &Path) -> Result<File, ReadError> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| ReadError::io(path, e))?;
    let meta = file.metadata().map_err(|e| ReadError::io(path, e))?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(&meta),
        });
    }
    #[cfg(unix)]
    {
        // Reads of a regular file block as usual: clear O_NONBLOCK again.
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor this function owns; no memory is passed.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if flags >= 0 {
            // SAFETY: as above.
            unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) };
        }
    }
    Ok(file)
}

/// The bytes of the regular file `path`, at most `kind`'s limit of them (see the module
/// docs): the one way a file is read whole.
pub fn read_bytes(path: &Path, kind: FileKind) -> Result<Vec<u8>, ReadError> {
    read_within(path, kind, kind.limit())
}

/// [`read_bytes`] with the limit given (the tests' small limits).
fn read_within(path: &Path, kind: FileKind, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            kind,
            size: Some(size),
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            kind,
            size: None,
        });
    }
    Ok(bytes)
}

/// [`read_bytes`] as UTF-8 text.
pub fn read_text(path: &Path, kind: FileKind) -> Result<String, ReadError> {
    let bytes = read_bytes(path, kind)?;
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        path: path.to_path_buf(),
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Where in a file a problem is, as every error line names it: "F:3" (the file and the line,
/// 1-based), or "F" for the file as a whole. The one format of both games' file errors.
pub fn file_place(file: impl std::fmt::Display, line: Option<usize>) -> String {
    match line {
        Some(l) => format!("{file}:{l}"),
        None => file.to_string(),
    }
}

/// A free name beside `path` for a copy set aside: `<path>.<what>-<unix
/// seconds>` (with `-1`, `-2`, … if that exists), e.g. `progress.toml.corrupt-1700000000`.
pub fn aside_name(path: &Path, what: &str) -> std::path::PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let base = format!("{}.{what}-{secs}", path.display());
    let mut candidate = std::path::PathBuf::from(&base);
    let mut n = 1;
    while candidate.exists() {
        candidate = std::path::PathBuf::from(format!("{base}-{n}"));
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh scratch directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("threefold-fsio-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    /// A FIFO at `path` (with no writer: opening it to read would block).
    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_and_replaces_keeping_permissions_and_no_temp_file() {
        let d = scratch("replace");
        let p = d.join("a.pgn");
        write_atomic(&p, b"one").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&p).unwrap().permissions().mode() & 0o777,
                0o640
            );
        }
        assert_eq!(names(&d), ["a.pgn"]);
        let _ = fs::remove_dir_all(&d);
    }

    /// A temporary file a killed writer left is removed by the next save of the same
    /// target; a live writer's young one, another target's, and a name that only looks
    /// like ours stay.
    #[test]
    fn the_next_save_removes_temp_files_left_by_a_killed_writer() {
        let d = scratch("stale");
        let p = d.join("game.json");
        // A process that has ended: its id is free (for now).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let me = std::process::id();
        let left = format!(".game.json.tmp-{dead}-0");
        let old_mine = format!(".game.json.tmp-{me}-7");
        let young_mine = format!(".game.json.tmp-{me}-8");
        let other_target = format!(".other.json.tmp-{dead}-0");
        let not_ours = format!(".game.json.tmp-{dead}-0.bak");
        for n in [&left, &old_mine, &young_mine, &other_target, &not_ours] {
            fs::write(d.join(n), "half a save").unwrap();
        }
        let two_hours_ago = SystemTime::now() - 2 * STALE_AFTER;
        File::options()
            .write(true)
            .open(d.join(&old_mine))
            .unwrap()
            .set_modified(two_hours_ago)
            .unwrap();
        write_atomic(&p, b"{}").unwrap();
        let mut want = vec![
            "game.json".to_string(),
            young_mine.clone(),
            other_target.clone(),
            not_ours.clone(),
        ];
        want.sort();
        assert_eq!(names(&d), want);
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn temp_names_are_read_exactly() {
        assert_eq!(temp_owner(".a.pgn.tmp-123-0", "a.pgn"), Some(123));
        assert_eq!(temp_owner(".a.pgn.tmp-123-45", "a.pgn"), Some(123));
        for not in [
            "a.pgn.tmp-123-0",
            ".a.pgn.tmp-123-",
            ".a.pgn.tmp--0",
            ".a.pgn.tmp-12x-0",
            ".a.pgn.tmp-123-0x",
            ".b.pgn.tmp-123-0",
            ".a.pgn.tmp-99999999999-0",
        ] {
            assert_eq!(temp_owner(not, "a.pgn"), None, "{not}");
        }
    }

    #[test]
    fn creates_no_directories() {
        let d = scratch("nodirs");
        let p = d.join("nonexistent").join("dir").join("x.pgn");
        let e = write_atomic(&p, b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().contains("does not exist"), "{e}");
        assert!(names(&d).is_empty());
        // The program's own directories are another matter.
        write_app_file(&p, b"x").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"x");
        let _ = fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_stays_a_link_and_its_target_is_written() {
        let d = scratch("symlink");
        fs::create_dir(d.join("real")).unwrap();
        let target = d.join("real").join("game.pgn");
        fs::write(&target, "old").unwrap();
        let link = d.join("link.pgn");
        std::os::unix::fs::symlink("real/game.pgn", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(names(&d), ["link.pgn", "real"]);
        assert_eq!(names(&d.join("real")), ["game.pgn"]);
        // A dangling link: its target is created.
        fs::remove_file(&target).unwrap();
        write_atomic(&link, b"again").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"again");
        // A loop is an error, not a hang.
        std::os::unix::fs::symlink("loop", d.join("loop")).unwrap();
        assert!(write_atomic(&d.join("loop"), b"x").is_err());
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn what_is_not_a_regular_file_is_refused_and_nothing_is_left_behind() {
        let d = scratch("notfile");
        fs::create_dir(d.join("sub")).unwrap();
        let e = write_atomic(&d.join("sub"), b"x").unwrap_err();
        assert!(
            e.to_string()
                .contains("is not a regular file (a directory)"),
            "{e}"
        );
        assert_eq!(names(&d), ["sub"]);
        #[cfg(unix)]
        {
            let e = write_atomic(Path::new("/dev/null"), b"x").unwrap_err();
            assert!(e.to_string().contains("a device"), "{e}");
        }
        #[cfg(target_os = "linux")]
        {
            let fifo = d.join("fifo");
            mkfifo(&fifo);
            let e = write_atomic(&fifo, b"x").unwrap_err();
            assert!(e.to_string().contains("a FIFO"), "{e}");
            use std::os::unix::fs::FileTypeExt;
            assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        }
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn a_failed_write_removes_the_temp_file_and_keeps_the_old_content() {
        let d = scratch("fail");
        let p = d.join("progress.toml");
        fs::write(&p, "old").unwrap();
        let e = write_atomic_with(&p, |f| {
            f.write_all(b"half")?;
            Err(io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        assert_eq!(fs::read(&p).unwrap(), b"old");
        assert_eq!(names(&d), ["progress.toml"]);
        let _ = fs::remove_dir_all(&d);
    }

    /// The reader takes regular files only, each within its kind's limit, and never
    /// blocks: a FIFO without a writer, a device (also behind a link), a directory and a
    /// file over the limit are refused with a message naming the file and the cause.
    #[test]
    fn the_reader_takes_regular_files_within_their_limit_only() {
        let d = scratch("read");
        let p = d.join("config.toml");
        fs::write(&p, "level = 3\n").unwrap();
        assert_eq!(read_text(&p, FileKind::Config).unwrap(), "level = 3\n");
        let missing = read_text(&d.join("none.toml"), FileKind::Config).unwrap_err();
        assert!(missing.is_not_found(), "{missing}");
        // A directory: refused before reading (and "Is a directory" not said twice).
        let e = read_text(&d, FileKind::Config).unwrap_err();
        assert!(
            matches!(
                e,
                ReadError::NotRegular {
                    kind: "a directory",
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(e.to_string().matches("directory").count(), 1, "{e}");
        // An endless device behind a link: refused, nothing read.
        #[cfg(unix)]
        {
            let link = d.join("zero.toml");
            std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
            let e = read_bytes(&link, FileKind::KeptGame).unwrap_err();
            assert!(
                matches!(
                    e,
                    ReadError::NotRegular {
                        kind: "a device",
                        ..
                    }
                ),
                "{e}"
            );
            assert_eq!(
                e.to_string(),
                format!(
                    "cannot read {}: a device, not a regular file",
                    link.display()
                )
            );
        }
        // A FIFO with no writer: refused at once (a blocking open would hang the test).
        #[cfg(target_os = "linux")]
        {
            let fifo = d.join("fifo.pgn");
            mkfifo(&fifo);
            let e = open_regular(&fifo).unwrap_err();
            assert!(
                matches!(e, ReadError::NotRegular { kind: "a FIFO", .. }),
                "{e}"
            );
        }
        // One byte over the limit: refused with the size and the limit named.
        let big = d.join("big.toml");
        let f = File::create(&big).unwrap();
        f.set_len(FileKind::Config.limit() + 1).unwrap();
        let e = read_bytes(&big, FileKind::Config).unwrap_err();
        assert!(
            matches!(e, ReadError::TooLarge { size: Some(_), .. }),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains(": 1048577 bytes, more than a config file may hold (1 MiB)"),
            "{e}"
        );
        f.set_len(FileKind::Config.limit()).unwrap();
        assert_eq!(read_bytes(&big, FileKind::Config).unwrap().len(), 1 << 20);
        // Not UTF-8: the offset of the first bad byte.
        fs::write(&p, b"ab\xffcd").unwrap();
        let e = read_text(&p, FileKind::Config).unwrap_err();
        assert!(matches!(e, ReadError::NotUtf8 { offset: 2, .. }), "{e}");
        let _ = fs::remove_dir_all(&d);
    }

    /// A file holding more than its size says (a /proc file says 0 bytes; a file growing
    /// while it is read) is refused too: the read stops one byte after the limit.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_larger_than_its_size_says_is_cut_at_the_limit() {
        let maps = Path::new("/proc/self/maps");
        assert_eq!(fs::metadata(maps).unwrap().len(), 0);
        let e = read_within(maps, FileKind::Config, 16).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { size: None, .. }), "{e}");
        assert!(read_bytes(maps, FileKind::Config).unwrap().len() > 16);
    }

    #[test]
    fn sizes_in_messages() {
        assert_eq!(human_size(312), "312 bytes");
        assert_eq!(human_size(1 << 20), "1 MiB");
        assert_eq!(human_size(8_400_000_000), "7.8 GiB");
        assert_eq!(human_size((1 << 20) + 1), "1048577 bytes");
    }
}
