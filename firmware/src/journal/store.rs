//! Where journal bytes live: a file on the SD card, or memory for tests and the simulator.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// An append-only byte store that can be made durable.
///
/// The journal needs nothing else: it appends whole frames, syncs before it reports success,
/// reads everything back on resume, and cuts off a torn tail.
pub trait Store {
    /// Adds `bytes` at the end. They need not be durable until [`Store::sync`].
    ///
    /// # Errors
    /// The underlying I/O error; the store may then hold part of `bytes`.
    fn append(&mut self, bytes: &[u8]) -> io::Result<()>;

    /// Makes everything appended so far durable (survive a power cut).
    ///
    /// # Errors
    /// The underlying I/O error; what reached the medium is then unknown.
    fn sync(&mut self) -> io::Result<()>;

    /// Every byte in the store, from the start.
    ///
    /// # Errors
    /// The underlying I/O error.
    fn read_all(&mut self) -> io::Result<Vec<u8>>;

    /// Cuts the store to its first `len` bytes, durably; later appends follow them.
    ///
    /// # Errors
    /// The underlying I/O error.
    fn truncate(&mut self, len: usize) -> io::Result<()>;
}

/// A store in memory: for tests and the simulator. Never fails, unless given a [`Quota`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemStore {
    bytes: Vec<u8>,
    quota: Option<Quota>,
}

/// The room on a simulated SD card, shared by the stores on it and by whoever frees space.
#[derive(Debug, Clone, Default)]
pub struct Quota(Arc<AtomicUsize>);

impl Quota {
    /// A card on which a store may hold at most `bytes`.
    pub fn new(bytes: usize) -> Quota {
        Quota(Arc::new(AtomicUsize::new(bytes)))
    }

    /// The most bytes a store may hold.
    pub fn get(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }

    /// Fills the card (a smaller limit) or frees space on it (a larger one).
    pub fn set(&self, bytes: usize) {
        self.0.store(bytes, Ordering::Relaxed);
    }
}

/// Two quotas are equal when they are the same card.
impl PartialEq for Quota {
    fn eq(&self, other: &Quota) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Quota {}

impl MemStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// A store holding `bytes`, as if read back after a power cut.
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        Self { bytes, quota: None }
    }

    /// An empty store on a card with `quota`: an append that does not fit writes what fits and
    /// fails with [`io::ErrorKind::StorageFull`], as a write to a full SD card does.
    pub fn on_card(quota: Quota) -> Self {
        Self {
            bytes: Vec::new(),
            quota: Some(quota),
        }
    }

    /// The bytes held.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes held, by value.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

impl Store for MemStore {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        if let Some(quota) = &self.quota {
            let room = quota.get().saturating_sub(self.bytes.len());
            if bytes.len() > room {
                self.bytes.extend_from_slice(&bytes[..room]);
                return Err(io::Error::new(
                    io::ErrorKind::StorageFull,
                    "no space left on the simulated SD card",
                ));
            }
        }
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }

    fn sync(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn read_all(&mut self) -> io::Result<Vec<u8>> {
        Ok(self.bytes.clone())
    }

    fn truncate(&mut self, len: usize) -> io::Result<()> {
        self.bytes.truncate(len);
        Ok(())
    }
}

/// A journal file, opened for appending; every [`Store::sync`] is an `fdatasync`.
#[derive(Debug)]
pub struct FileStore {
    file: File,
    path: PathBuf,
    /// Added to every sync: a slow SD card, simulated (see [`FileStore::with_slow_sync`]).
    slow_sync: Option<std::time::Duration>,
}

impl FileStore {
    /// Creates a new, empty journal file at `path`, readable and writable by its owner only
    /// (mode 0600: a journal holds both secret set-ups), and makes its name durable by syncing
    /// the directory that holds it. Never overwrites an existing file.
    ///
    /// # Errors
    /// `AlreadyExists` if a file is there (resume it with [`FileStore::open`] or move it away),
    /// or any other I/O error from creating the file or syncing its directory.
    pub fn create(path: impl AsRef<Path>) -> io::Result<Self> {
        let path = path.as_ref();
        let file =
            private(OpenOptions::new().read(true).append(true).create_new(true)).open(path)?;
        file.sync_all()?;
        sync_parent_dir(path)?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
            slow_sync: None,
        })
    }

    /// Opens an existing journal file at `path` to resume it.
    ///
    /// # Errors
    /// `NotFound` if there is no file there, or any other I/O error from opening it.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let path = path.as_ref();
        let file = OpenOptions::new().read(true).append(true).open(path)?;
        Ok(Self {
            file,
            path: path.to_path_buf(),
            slow_sync: None,
        })
    }

    /// The path the file was opened at.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The same file on a simulated slow card: every sync (and cut) takes `delay` more, as an
    /// SD card's `fdatasync` can take 10-100+ ms. For the tests that check the scan loop keeps
    /// its rate while the journal writes (`tests/service_gap.rs`).
    #[must_use]
    pub fn with_slow_sync(mut self, delay: std::time::Duration) -> Self {
        self.slow_sync = Some(delay);
        self
    }

    fn wait_for_card(&self) {
        if let Some(delay) = self.slow_sync {
            std::thread::sleep(delay);
        }
    }
}

impl Store for FileStore {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.file.write_all(bytes)
    }

    fn sync(&mut self) -> io::Result<()> {
        self.wait_for_card();
        self.file.sync_data()
    }

    fn read_all(&mut self) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.file.seek(SeekFrom::Start(0))?;
        self.file.read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    fn truncate(&mut self, len: usize) -> io::Result<()> {
        let len = u64::try_from(len).map_err(io::Error::other)?;
        self.file.set_len(len)?;
        self.wait_for_card();
        self.file.sync_all()
    }
}

/// Writes a whole journal to `path` (the simulator's `--journal FILE`), owner-only like the
/// umpire's journals (mode 0600, also when it replaces a file that was open to others), synced.
///
/// # Errors
/// The file cannot be written, its mode set, or synced.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file =
        private(OpenOptions::new().write(true).create(true).truncate(true)).open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(bytes)?;
    file.sync_all()
}

/// Keeps a byte-identical copy of the journal at `path` beside it, as `NAME.damaged-N` with the
/// lowest free `N` (from 1), owner-only like the journal, synced with its name: taken before a
/// damaged journal is cut, so nothing is lost. Returns the copy's path.
///
/// # Errors
/// The journal cannot be read, or the copy cannot be written or synced.
pub fn keep_copy(path: &Path) -> io::Result<PathBuf> {
    let bytes = std::fs::read(path)?;
    let (copy, mut file) = new_beside(path)?;
    file.write_all(&bytes)?;
    file.sync_all()?;
    sync_parent_dir(&copy)?;
    Ok(copy)
}

/// Moves the journal at `path` aside, to `NAME.damaged-N` with the lowest free `N` (from 1), so
/// that it is no longer resumed yet nothing is deleted. Returns the new path.
///
/// # Errors
/// The file cannot be renamed or its folder synced.
pub fn set_aside(path: &Path) -> io::Result<PathBuf> {
    // Reserve the name first: a rename would silently replace a file already there.
    let (aside, _placeholder) = new_beside(path)?;
    std::fs::rename(path, &aside)?;
    sync_parent_dir(&aside)?;
    Ok(aside)
}

/// A new, empty, owner-only file named `NAME.damaged-N` beside `path`, with the lowest free `N`.
fn new_beside(path: &Path) -> io::Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "a journal path has a name"))?
        .to_string_lossy()
        .into_owned();
    for n in 1..=u32::MAX {
        let beside = path.with_file_name(format!("{name}.damaged-{n}"));
        match private(OpenOptions::new().write(true).create_new(true)).open(&beside) {
            Ok(file) => return Ok((beside, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "every name for a copy of this journal is taken",
    ))
}

/// `options` creating files readable and writable by their owner only (mode 0600).
#[cfg(unix)]
fn private(options: &mut OpenOptions) -> &mut OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    options.mode(0o600)
}

#[cfg(not(unix))]
fn private(options: &mut OpenOptions) -> &mut OpenOptions {
    options
}

/// A new file's name is durable only once its directory is synced (ext4; see
/// `docs/hardware.md` §6). Only Unix can open a directory to sync it.
#[cfg(unix)]
fn sync_parent_dir(path: &Path) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_parent_dir(_path: &Path) -> io::Result<()> {
    Ok(())
}
