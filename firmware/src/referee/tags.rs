//! NFC tags registered to pieces before a game, for a set-up by tags and the wrong-piece check.

use std::collections::BTreeMap;

use boards::stratego::Piece;

use crate::sensing::TagUid;

/// NFC tags registered to pieces: each tag is registered once, then read on placement.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagRegistry {
    tags: BTreeMap<TagUid, Piece>,
}

impl TagRegistry {
    /// An empty registry.
    pub fn new() -> TagRegistry {
        TagRegistry::default()
    }

    /// Registers `uid` as `piece` (replacing an earlier registration of the same tag).
    pub fn register(&mut self, uid: TagUid, piece: Piece) {
        self.tags.insert(uid, piece);
    }

    /// The piece `uid` is registered to.
    pub fn get(&self, uid: &TagUid) -> Option<Piece> {
        self.tags.get(uid).copied()
    }

    /// How many tags are registered.
    pub fn len(&self) -> usize {
        self.tags.len()
    }

    /// Whether no tag is registered.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }
}
