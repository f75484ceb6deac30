//! Opening what a scan reads: a PGN file, a zstd-compressed one, or standard input.

use std::io::{self, BufReader, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use threefold_rules::fsio::{self, ReadError};

/// The first bytes of a zstd frame (RFC 8878, section 3.1.1).
pub const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Whether a stream starting with `head` is zstd: a frame, or a skippable frame (magic
/// 0x184D2A50 to 0x184D2A5F, little-endian; RFC 8878, section 3.1.2), as pzstd writes first.
pub fn is_zstd(head: &[u8]) -> bool {
    head.starts_with(&ZSTD_MAGIC)
        || (head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18])
}

/// A stream opened for a scan.
pub struct Input {
    /// The PGN, decompressed if it was compressed.
    pub reader: Box<dyn Read + Send>,
    /// The name errors give it (the path, or "standard input").
    pub name: String,
    /// The bytes stored, for a regular file (compressed ones for a .zst): with
    /// [`Input::consumed`], how far the scan is.
    pub size: Option<u64>,
    /// Bytes of the stored stream read so far (before decompression).
    pub consumed: Arc<AtomicU64>,
    /// The stream is zstd-compressed.
    pub compressed: bool,
}

/// Why a stream cannot be scanned.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file cannot be opened (missing, not a regular file ...).
    #[error("{0}")]
    Open(#[from] ReadError),
    /// Reading its first bytes, or starting its decompression, failed.
    #[error("cannot read {name}: {source}")]
    Read { name: String, source: io::Error },
}

/// Counts the bytes read through it.
struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A zstd decoder whose errors say they are the compressed stream's.
struct Unzstd<R>(R);

impl<R: Read> Read for Unzstd<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::Interrupted => e,
            kind => io::Error::new(kind, format!("the zstd-compressed stream is damaged ({e})")),
        })
    }
}

/// Open `path` for a scan: `-` is standard input; a regular file otherwise
/// ([`fsio::open_regular`]: a FIFO or a device is refused). A stream that begins with
/// zstd's magic number is decompressed as it is read.
pub fn open(path: &Path) -> Result<Input, OpenError> {
    let consumed = Arc::new(AtomicU64::new(0));
    let (raw, name, size): (Box<dyn Read + Send>, String, Option<u64>) = if path.as_os_str() == "-"
    {
        (Box::new(io::stdin()), "standard input".to_string(), None)
    } else {
        let file = fsio::open_regular(path)?;
        let size = file.metadata().ok().map(|m| m.len());
        (Box::new(file), path.display().to_string(), size)
    };
    let mut counted = Counted {
        inner: raw,
        count: Arc::clone(&consumed),
    };
    // The first four bytes, however the stream hands them out (a pipe may give one at a
    // time), tell a compressed stream.
    let mut head = Vec::with_capacity(4);
    while head.len() < 4 {
        let mut b = [0u8; 4];
        match counted.read(&mut b[..4 - head.len()]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&b[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(source) => return Err(OpenError::Read { name, source }),
        }
    }
    let compressed = is_zstd(&head);
    let buffered = BufReader::with_capacity(256 << 10, io::Cursor::new(head).chain(counted));
    let reader: Box<dyn Read + Send> = if compressed {
        let decoder = zstd::stream::read::Decoder::with_buffer(buffered).map_err(|source| {
            OpenError::Read {
                name: name.clone(),
                source,
            }
        })?;
        Box::new(Unzstd(decoder))
    } else {
        Box::new(buffered)
    };
    Ok(Input {
        reader,
        name,
        size,
        consumed,
        compressed,
    })
}
