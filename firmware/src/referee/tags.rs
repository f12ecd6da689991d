//! NFC tags registered to pieces before a game, for a set-up by tags and the wrong-piece check.

use std::collections::BTreeMap;

use boards::stratego::{Piece, Rank, BLUE, RED};

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

    /// Reads an owner's tags file: one tag a line, its UID as hex bytes with colons
    /// (`04:A2:1B:7C`, as the calibration screen shows it), then `block NAME` (a Napoléon block
    /// of the order of battle, any case) or `piece red|blue RANK` (a Stratego piece: `Marshal`,
    /// `Scout`, `Flag`...); `#` starts a comment. `known_block` says whether a block name is in
    /// the order of battle the umpire plays.
    ///
    /// # Errors
    /// Every problem, each with its line (from 1) and the fix: a UID that does not read, a tag
    /// registered twice, a piece or block that is not one.
    pub fn parse(
        text: &str,
        known_block: impl Fn(&str) -> bool,
    ) -> Result<TagRegistry, Vec<(usize, String)>> {
        let mut registry = TagRegistry::new();
        let mut problems = Vec::new();
        let mut first_line: BTreeMap<TagUid, usize> = BTreeMap::new();
        // A file saved with a byte-order mark (Windows' Notepad) reads as without it.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let words: Vec<&str> = raw
                .split('#')
                .next()
                .unwrap_or_default()
                .split_whitespace()
                .collect();
            let Some((uid, what)) = words.split_first() else {
                continue;
            };
            let uid = match parse_uid(uid) {
                Ok(uid) => uid,
                Err(why) => {
                    problems.push((line, why));
                    continue;
                }
            };
            let registered = match what {
                ["block", name] if known_block(name) => Registered::NapoleonBlock(name.to_string()),
                ["block", name] => {
                    problems.push((
                        line,
                        format!(
                            "no block {name} in the Napoleon order of battle: write its name as \
                             the order of battle does (NAPOLEON, G-INF)"
                        ),
                    ));
                    continue;
                }
                ["piece", seat, rank] => {
                    let owner = match *seat {
                        "red" => RED,
                        "blue" => BLUE,
                        other => {
                            problems
                                .push((line, format!("`{other}` is no side: write red or blue")));
                            continue;
                        }
                    };
                    match Rank::ALL
                        .iter()
                        .find(|r| r.name().eq_ignore_ascii_case(rank))
                    {
                        Some(&rank) => Registered::Stratego(Piece { owner, rank }),
                        None => {
                            problems.push((
                                line,
                                format!(
                                    "`{rank}` is no Stratego rank: write one of {}",
                                    Rank::ALL
                                        .iter()
                                        .map(|r| r.name())
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                            ));
                            continue;
                        }
                    }
                }
                _ => {
                    problems.push((
                        line,
                        "write the tag's UID, then `block NAME` (a Napoleon block) or `piece \
                         red|blue RANK` (a Stratego piece)"
                            .to_string(),
                    ));
                    continue;
                }
            };
            if let Some(first) = first_line.insert(uid, line) {
                problems.push((
                    line,
                    format!("tag {uid} is registered on line {first} already: keep one line"),
                ));
                continue;
            }
            registry.tags.insert(uid, registered);
        }
        if problems.is_empty() {
            Ok(registry)
        } else {
            Err(problems)
        }
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

/// A UID as an owner writes it: hex bytes with colons between (`04:A2:1B:7C`).
fn parse_uid(text: &str) -> Result<TagUid, String> {
    let bytes: Option<Vec<u8>> = text
        .split(':')
        .map(|b| {
            (b.len() == 2)
                .then(|| u8::from_str_radix(b, 16).ok())
                .flatten()
        })
        .collect();
    let fix =
        "write the UID as the calibration screen shows it: hex bytes with colons (04:A2:1B:7C)";
    let bytes = bytes.ok_or_else(|| format!("`{text}` is no tag UID: {fix}"))?;
    TagUid::new(&bytes).map_err(|e| format!("`{text}`: {e}: {fix}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tags file registers Stratego pieces and Napoléon blocks; every problem of a file is
    /// listed with its line and fix.
    #[test]
    fn a_tags_file_registers_pieces_and_blocks_and_lists_every_problem() {
        let known = |n: &str| {
            ["NAPOLEON", "G-INF"]
                .iter()
                .any(|b| b.eq_ignore_ascii_case(n))
        };
        let text = "# the owner's tags\n\
                    04:A2:1B:7C  block NAPOLEON\n\
                    04:A2:1B:7D  block g-inf   # its name in any case\n\
                    \n\
                    04:5A:01:00  piece red Scout\n";
        let registry = TagRegistry::parse(text, known).unwrap();
        assert_eq!(registry.len(), 3);
        let uid = |t: &str| parse_uid(t).unwrap();
        assert_eq!(registry.block(&uid("04:A2:1B:7C")), Some("NAPOLEON"));
        assert_eq!(
            registry.get(&uid("04:5A:01:00")),
            Some(Piece {
                owner: RED,
                rank: Rank::Scout
            })
        );
        assert!(registry.has_blocks() && registry.has_pieces());

        let bad = "04:A2:1B7C  block NAPOLEON\n\
                   zz:A2:1B:7C  block NAPOLEON\n\
                   04:A2:1B:7C  block MURAT\n\
                   04:A2:1B:7D  piece green Scout\n\
                   04:A2:1B:7E  piece red Admiral\n\
                   04:A2:1B:7F  NAPOLEON\n\
                   04:A2:1B:80  block NAPOLEON\n\
                   04:A2:1B:80  block G-INF\n";
        let problems = TagRegistry::parse(bad, known).unwrap_err();
        let lines: Vec<usize> = problems.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5, 6, 8], "{problems:?}");
        assert!(
            problems[0].1.contains("hex bytes with colons"),
            "{problems:?}"
        );
        assert!(problems[2].1.contains("no block MURAT"), "{problems:?}");
        assert!(problems[3].1.contains("write red or blue"), "{problems:?}");
        assert!(problems[4].1.contains("no Stratego rank"), "{problems:?}");
        assert!(problems[5].1.contains("then `block NAME`"), "{problems:?}");
        assert!(
            problems[6].1.contains("registered on line 7 already"),
            "{problems:?}"
        );
    }
}
