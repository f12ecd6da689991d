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
