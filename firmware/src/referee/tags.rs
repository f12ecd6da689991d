//! NFC tags registered to pieces before a game, for a set-up by tags and the wrong-piece check.

use std::collections::BTreeMap;

use boards::stratego::Piece;

use crate::sensing::TagUid;

/// What a tag is registered to: a Stratego piece, or a Napoléon block by its order-of-battle
/// name (the name, not the block's number, so a registration outlives an edited order of
/// battle that keeps its names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Registered {
    /// A Stratego piece: its owner and rank.
    Stratego(Piece),
    /// A Napoléon block, by its name in the order of battle ("NAPOLEON", "G-INF").
    NapoleonBlock(String),
}

/// NFC tags registered to pieces: each tag is registered once, then read on placement.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagRegistry {
    tags: BTreeMap<TagUid, Registered>,
}

impl TagRegistry {
    /// An empty registry.
    pub fn new() -> TagRegistry {
        TagRegistry::default()
    }

    /// Registers `uid` as the Stratego `piece` (replacing an earlier registration of the same
    /// tag).
    pub fn register(&mut self, uid: TagUid, piece: Piece) {
        self.tags.insert(uid, Registered::Stratego(piece));
    }

    /// Registers `uid` as the Napoléon block named `block` in the order of battle (replacing
    /// an earlier registration of the same tag). The name is matched ignoring ASCII case.
    pub fn register_block(&mut self, uid: TagUid, block: &str) {
        self.tags
            .insert(uid, Registered::NapoleonBlock(block.to_string()));
    }

    /// The Stratego piece `uid` is registered to.
    pub fn get(&self, uid: &TagUid) -> Option<Piece> {
        match self.tags.get(uid) {
            Some(Registered::Stratego(piece)) => Some(*piece),
            _ => None,
        }
    }

    /// The name of the Napoléon block `uid` is registered to.
    pub fn block(&self, uid: &TagUid) -> Option<&str> {
        match self.tags.get(uid) {
            Some(Registered::NapoleonBlock(name)) => Some(name),
            _ => None,
        }
    }

    /// What `uid` is registered to, whatever the game.
    pub fn registered(&self, uid: &TagUid) -> Option<&Registered> {
        self.tags.get(uid)
    }

    /// Whether some tag is registered to a Stratego piece.
    pub fn has_pieces(&self) -> bool {
        self.tags
            .values()
            .any(|r| matches!(r, Registered::Stratego(_)))
    }

    /// Whether some tag is registered to a Napoléon block.
    pub fn has_blocks(&self) -> bool {
        self.tags
            .values()
            .any(|r| matches!(r, Registered::NapoleonBlock(_)))
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
