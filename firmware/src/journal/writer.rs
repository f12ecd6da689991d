//! Appending to a journal in a [`Store`], durably, and resuming one after a power cut.

use core::fmt;
use core::marker::PhantomData;
use std::io;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::format::{decode, encode_header, encode_record, Corruption, EncodeError, HeaderError};
use super::format::{Recovered, Tail};
use super::store::Store;

/// Something went wrong writing or resuming a journal.
#[derive(Debug)]
pub enum JournalError {
    /// The store failed.
    Io {
        /// What the journal was doing: "read", "write to", "sync" or "truncate".
        doing: &'static str,
        /// The store's error.
        source: io::Error,
    },
    /// A header or record could not be encoded; nothing was written.
    Encode(EncodeError),
    /// The journal's header cannot be trusted; nothing can be recovered.
    Header(HeaderError),
    /// A record in the middle of the journal is damaged; [`JournalWriter::resume`] will not append
    /// after it.
    Corrupt {
        /// Byte offset of the damaged record.
        offset: usize,
        /// Its index: the number of intact records before it.
        index: usize,
        /// What is wrong with it.
        problem: Corruption,
    },
    /// [`JournalWriter::create`] found bytes already in the store.
    NotEmpty {
        /// Bytes found.
        len: usize,
    },
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { doing, source } => write!(
                f,
                "could not {doing} the journal ({source}); check that the SD card is in place, \
                 not full and not read-only, then resume the game"
            ),
            Self::Encode(e) => write!(f, "nothing was written to the journal: {e}"),
            Self::Header(e) => e.fmt(f),
            Self::Corrupt {
                offset,
                index,
                problem,
            } => write!(
                f,
                "record {index} at byte {offset} of the journal is damaged ({problem}); the \
                 {index} records before it are intact. To resume from them and drop the rest, \
                 resume with `JournalWriter::resume_truncating_corruption` (copy the file first \
                 to keep the damaged part for inspection)"
            ),
            Self::NotEmpty { len } => write!(
                f,
                "the journal store already holds {len} bytes; resume that game, or move the file \
                 away to start a new one"
            ),
        }
    }
}

impl std::error::Error for JournalError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            Self::Encode(e) => Some(e),
            Self::Header(e) => Some(e),
            _ => None,
        }
    }
}

impl JournalError {
    /// Whether the store failed because the medium is full (`ENOSPC`, or a quota): freeing
    /// space and trying again is the fix.
    pub fn is_storage_full(&self) -> bool {
        match self {
            Self::Io { source, .. } => {
                source.kind() == io::ErrorKind::StorageFull
                    || matches!(source.raw_os_error(), Some(ENOSPC | EDQUOT))
            }
            _ => false,
        }
    }

    /// Whether the store failed because the medium is read-only (`EROFS`: a card's lock
    /// switch, or a filesystem the kernel remounted read-only after errors).
    pub fn is_read_only(&self) -> bool {
        match self {
            Self::Io { source, .. } => {
                source.kind() == io::ErrorKind::ReadOnlyFilesystem
                    || source.raw_os_error() == Some(EROFS)
            }
            _ => false,
        }
    }
}

/// Linux's "no space left on device", "quota exceeded" and "read-only file system" numbers,
/// for errors built from a raw OS code on a platform whose `ErrorKind` mapping lacks them.
const ENOSPC: i32 = 28;
const EDQUOT: i32 = 122;
const EROFS: i32 = 30;

impl From<HeaderError> for JournalError {
    fn from(e: HeaderError) -> Self {
        Self::Header(e)
    }
}

impl From<EncodeError> for JournalError {
    fn from(e: EncodeError) -> Self {
        Self::Encode(e)
    }
}

fn io_error(doing: &'static str) -> impl FnOnce(io::Error) -> JournalError {
    move |source| JournalError::Io { doing, source }
}

/// The append end of one game's journal, records of type `R`, in a store `S`.
///
/// [`JournalWriter::append`] returns only once the record is synced to the store: tell the
/// players the result after it returns, never before, and a power cut can lose nothing they saw.
///
/// A failed write or sync leaves the writer usable: it knows the length of the journal's last
/// good record, and before the next append (or on [`JournalWriter::heal`]) it cuts off whatever
/// part of the failed frame reached the store, so a full card, once space is freed, takes the
/// record again with nothing lost and nothing doubled.
pub struct JournalWriter<S, R> {
    store: S,
    /// Bytes of header plus intact records in the store.
    len: usize,
    /// Records in the store.
    records: usize,
    /// Set when a write or sync failed: the store may hold part of a frame after `len`, to be
    /// cut off before anything else is appended.
    dirty: bool,
    _record: PhantomData<fn(&R)>,
}

impl<S: fmt::Debug, R> fmt::Debug for JournalWriter<S, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JournalWriter")
            .field("store", &self.store)
            .field("len", &self.len)
            .field("records", &self.records)
            .field("dirty", &self.dirty)
            .finish()
    }
}

impl<S: Store, R> JournalWriter<S, R> {
    /// Starts a new journal in the empty `store`: writes and syncs the header.
    ///
    /// # Errors
    /// [`JournalError::NotEmpty`] if the store holds anything (never overwrite a game),
    /// [`JournalError::Encode`] if the header cannot be encoded, or [`JournalError::Io`].
    pub fn create<H: Serialize>(mut store: S, header: &H) -> Result<Self, JournalError> {
        let existing = store.read_all().map_err(io_error("read"))?;
        if !existing.is_empty() {
            return Err(JournalError::NotEmpty {
                len: existing.len(),
            });
        }
        let bytes = encode_header(header)?;
        store.append(&bytes).map_err(io_error("write to"))?;
        store.sync().map_err(io_error("sync"))?;
        Ok(Self {
            store,
            len: bytes.len(),
            records: 0,
            dirty: false,
            _record: PhantomData,
        })
    }

    /// Reopens the journal in `store` after a restart or power cut: the header and every record,
    /// ready to replay. A torn final record is cut off (durably) so appends continue cleanly;
    /// [`Recovered::tail`] says whether there was one.
    ///
    /// # Errors
    /// [`JournalError::Header`] if the header cannot be trusted, [`JournalError::Corrupt`] if a
    /// complete record is damaged (nothing is changed; see
    /// [`JournalWriter::resume_truncating_corruption`]), or [`JournalError::Io`].
    pub fn resume<H>(store: S) -> Result<(Self, Recovered<H, R>), JournalError>
    where
        H: DeserializeOwned,
        R: DeserializeOwned,
    {
        Self::resume_with(store, false)
    }

    /// Like [`JournalWriter::resume`], but a damaged record is cut off too, with everything after
    /// it: the game resumes from the intact records before it, and [`Recovered::tail`] still
    /// reports the damage. Only on a person's explicit choice: later records are lost.
    ///
    /// # Errors
    /// [`JournalError::Header`] if the header cannot be trusted, or [`JournalError::Io`].
    pub fn resume_truncating_corruption<H>(
        store: S,
    ) -> Result<(Self, Recovered<H, R>), JournalError>
    where
        H: DeserializeOwned,
        R: DeserializeOwned,
    {
        Self::resume_with(store, true)
    }

    fn resume_with<H>(
        mut store: S,
        truncate_corruption: bool,
    ) -> Result<(Self, Recovered<H, R>), JournalError>
    where
        H: DeserializeOwned,
        R: DeserializeOwned,
    {
        let bytes = store.read_all().map_err(io_error("read"))?;
        let recovered: Recovered<H, R> = decode(&bytes)?;
        match &recovered.tail {
            Tail::Clean => {}
            Tail::Corrupt {
                offset,
                index,
                problem,
            } if !truncate_corruption => {
                return Err(JournalError::Corrupt {
                    offset: *offset,
                    index: *index,
                    problem: problem.clone(),
                });
            }
            Tail::Torn { .. } | Tail::Corrupt { .. } => store
                .truncate(recovered.valid_len)
                .map_err(io_error("truncate"))?,
        }
        let writer = Self {
            store,
            len: recovered.valid_len,
            records: recovered.records.len(),
            dirty: false,
            _record: PhantomData,
        };
        Ok((writer, recovered))
    }

    /// Appends `record` and syncs it: when this returns `Ok`, the record survives a power cut.
    /// After an earlier failure, first cuts off what the failed write left (see
    /// [`JournalWriter::heal`]).
    ///
    /// # Errors
    /// [`JournalError::Encode`] if the record cannot be encoded (nothing written);
    /// [`JournalError::Io`] if the store fails. Either way the record is not in the journal and
    /// the writer stays usable: append it again once the store is fixed.
    pub fn append(&mut self, record: &R) -> Result<(), JournalError>
    where
        R: Serialize,
    {
        let bytes = encode_record(record)?;
        self.heal()?;
        // Dirty until both steps succeed: a failed write may leave part of a frame behind.
        self.dirty = true;
        self.store.append(&bytes).map_err(io_error("write to"))?;
        self.store.sync().map_err(io_error("sync"))?;
        self.dirty = false;
        self.len += bytes.len();
        self.records += 1;
        Ok(())
    }

    /// After a failed append, cuts the store back (durably) to the journal's last good record,
    /// dropping any part of the failed frame; does nothing when no append failed. A truncate
    /// frees space rather than needing it, so it works on a full card.
    ///
    /// # Errors
    /// [`JournalError::Io`] if the store cannot be truncated; the writer stays dirty and tries
    /// again on the next append or heal.
    pub fn heal(&mut self) -> Result<(), JournalError> {
        if self.dirty {
            self.store
                .truncate(self.len)
                .map_err(io_error("truncate"))?;
            self.dirty = false;
        }
        Ok(())
    }

    /// Whether a failed append may have left part of a frame in the store (cut off by the next
    /// append or [`JournalWriter::heal`]).
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Records in the journal.
    pub fn record_count(&self) -> usize {
        self.records
    }

    /// Bytes in the journal: header plus records.
    pub fn len_bytes(&self) -> usize {
        self.len
    }

    /// The store, to inspect.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Gives the store back, for instance to resume from it after an error.
    pub fn into_store(self) -> S {
        self.store
    }
}
