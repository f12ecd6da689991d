//! Values read from a journal or a file are checked as they are decoded: a type with a range or
//! an invariant deserializes through its checked constructor, so a decoded value is always one
//! the rules can index with. [`OutOfRange`] is the refusal.

use core::fmt;

/// A decoded value outside the range its type allows (a square off the board, a seat no game
/// has). The value is refused while decoding, before any rule can index with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OutOfRange {
    /// What the value should have been ("a Stratego square index").
    pub what: &'static str,
    /// The value found.
    pub value: u128,
    /// The range allowed, in words ("0 to 99").
    pub allowed: &'static str,
}

impl OutOfRange {
    /// `value` is not `what`, which must be `allowed`.
    pub fn new(what: &'static str, value: impl Into<u128>, allowed: &'static str) -> OutOfRange {
        OutOfRange {
            what,
            value: value.into(),
            allowed,
        }
    }
}

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} is out of range ({}): the data is damaged or was written by an incompatible \
             build",
            self.what, self.value, self.allowed
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for OutOfRange {}

/// Test helpers: decode a value from a plain `u8`/`u16`/... or a sequence, with serde's own
/// value deserializers, which keep the refusal's message.
#[cfg(test)]
pub(crate) mod testing {
    use alloc::string::{String, ToString};

    use serde::de::value::Error;
    use serde::de::IntoDeserializer;
    use serde::Deserialize;

    /// `T` decoded from the primitive `v` (a newtype is transparent to serde's value
    /// deserializers), or the refusal's message.
    pub(crate) fn from_value<'de, T, V>(v: V) -> Result<T, String>
    where
        T: Deserialize<'de>,
        V: IntoDeserializer<'de, Error>,
    {
        T::deserialize(v.into_deserializer()).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use crate::geometry::grid::{Cell, Dir};
    use crate::stratego::{Move, Rank, Square};
    use crate::waterloo::{Action, Card};
    use crate::Seat;

    /// The journaled actions and armies decode only into values the rules can index with:
    /// their enums only from a variant they have, their squares, cells and seats only in range.
    #[test]
    fn journaled_actions_decode_only_in_range() {
        // Stratego: a rank is one of twelve; a move's squares are below 100.
        assert_eq!(postcard::from_bytes::<Rank>(&[11]), Ok(Rank::Flag));
        assert!(postcard::from_bytes::<Rank>(&[12]).is_err());
        let e3e4 = Move::new(
            Square::parse("e3").expect("e3"),
            Square::parse("e4").expect("e4"),
        );
        assert_eq!(postcard::from_bytes::<Move>(&[0x18, 0x22]), Ok(e3e4));
        assert!(postcard::from_bytes::<Move>(&[0x18, 122]).is_err());
        // Waterloo: an attack's cells within the letters, its direction one of four; a card
        // one of five; no action past the last variant.
        let attack = Action::Attack {
            from: Cell::new(4, 4),
            to: Cell::new(4, 5),
            dir: Dir::Up,
        };
        let bytes = postcard::to_allocvec(&attack).expect("encodes");
        assert_eq!(postcard::from_bytes::<Action>(&bytes), Ok(attack));
        for (at, bad) in [(1, 26), (4, 255), (5, 4)] {
            let mut b = bytes.clone();
            b[at] = bad;
            assert!(
                postcard::from_bytes::<Action>(&b).is_err(),
                "byte {at} = {bad}"
            );
        }
        assert!(postcard::from_bytes::<Card>(&[5]).is_err());
        assert!(postcard::from_bytes::<Action>(&[200]).is_err());
        assert!(postcard::from_bytes::<(Seat, Card)>(&[3, 0]).is_err());
    }
}
