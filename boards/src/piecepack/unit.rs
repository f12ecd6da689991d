//! The pieces: both orders of battle, with their suits, values and kinds, and the die faces.

use core::fmt;

use serde::{Deserialize, Serialize};

use super::{ALLIES, FRENCH};
use crate::decode::OutOfRange;
use crate::geometry::stack::StackRule;
use crate::Seat;

/// A piecepack value: a coin's hidden face, or a die face.
///
/// "Symbol and blanks are considered "0"" when pieces are added up; a symbol rolled on a die
/// doubles one numerical result instead (our ruling, `docs/design.md`: the ace is the symbol).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Face {
    /// Blank (the piecepack null): 0.
    Blank,
    /// The suit symbol (the piecepack ace): 0 on a piece, a doubling on a die.
    Symbol,
    /// 2.
    Two,
    /// 3.
    Three,
    /// 4.
    Four,
    /// 5.
    Five,
}

impl Face {
    /// The six faces of a piecepack die, one each.
    pub const ALL: [Face; 6] = [
        Face::Blank,
        Face::Symbol,
        Face::Two,
        Face::Three,
        Face::Four,
        Face::Five,
    ];

    /// What it adds to a total: blank and symbol 0.
    pub const fn points(self) -> u8 {
        match self {
            Face::Blank | Face::Symbol => 0,
            Face::Two => 2,
            Face::Three => 3,
            Face::Four => 4,
            Face::Five => 5,
        }
    }

    /// The numerical value, for "whose numerical value is equal to or less than": a blank is
    /// 0, a symbol has none.
    pub const fn number(self) -> Option<u8> {
        match self {
            Face::Symbol => None,
            f => Some(f.points()),
        }
    }

    /// One character: `-` blank, `*` symbol, `2`-`5`.
    pub const fn to_char(self) -> char {
        match self {
            Face::Blank => '-',
            Face::Symbol => '*',
            Face::Two => '2',
            Face::Three => '3',
            Face::Four => '4',
            Face::Five => '5',
        }
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Face::Blank => "blank",
            Face::Symbol => "symbol",
            Face::Two => "2",
            Face::Three => "3",
            Face::Four => "4",
            Face::Five => "5",
        })
    }
}

/// A piecepack suit: the colour and symbol every player sees on a coin's face-up side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Suit {
    /// Red Stars (the rules' name for Suns): Wellington's army.
    RedStar,
    /// Black Moons: the Prussians.
    BlackMoon,
    /// Green Crowns: the Imperial Guard.
    GreenCrown,
    /// Blue Fleurs (Arms): the line corps.
    BlueFleur,
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Suit::RedStar => "Red Star",
            Suit::BlackMoon => "Black Moon",
            Suit::GreenCrown => "Green Crown",
            Suit::BlueFleur => "Blue Fleur",
        })
    }
}

/// What a piece counts as for stacking: one of each may share a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// A coin with a value or a blank.
    Regular,
    /// A coin whose value is the symbol (Hougoumont garrison, Guard artillery).
    Symbol,
    /// A pawn.
    Leader,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Regular => "regular",
            Kind::Symbol => "symbol",
            Kind::Leader => "leader",
        })
    }
}

/// "The maximum number of pieces in a square is three: One regular piece, one symbol piece and
/// one leader pawn."
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stacking;

impl StackRule<Unit> for Stacking {
    type Category = Kind;

    fn category(&self, item: &Unit) -> Kind {
        item.kind()
    }

    fn limit(&self, _category: Kind) -> usize {
        1
    }
}

/// One of the 23 pieces of the two orders of battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[allow(missing_docs)] // The names are the order of battle; see `Unit::name`.
pub enum Unit {
    // Allies: red.
    Wellington,
    Cooke,
    Picton,
    Clinton,
    DutchBelgians,
    Uxbridge,
    HougoumontGarrison,
    // Allies: black (the Prussians).
    Blucher,
    Bulow,
    Pirch,
    Steinmetz,
    PrussianCavalry,
    // French: green (the Guard).
    Napoleon,
    OldGuard,
    YoungGuard,
    GuardCavalry,
    GuardArtillery,
    // French: blue.
    Ney,
    DErlon,
    Lobau,
    Reille,
    IICorps,
    FrenchCavalry,
}

/// How many pieces there are.
pub const UNITS: usize = 23;

impl Unit {
    /// Every piece, Allies first, in the rulebook's order.
    pub const ALL: [Unit; UNITS] = [
        Unit::Wellington,
        Unit::Cooke,
        Unit::Picton,
        Unit::Clinton,
        Unit::DutchBelgians,
        Unit::Uxbridge,
        Unit::HougoumontGarrison,
        Unit::Blucher,
        Unit::Bulow,
        Unit::Pirch,
        Unit::Steinmetz,
        Unit::PrussianCavalry,
        Unit::Napoleon,
        Unit::OldGuard,
        Unit::YoungGuard,
        Unit::GuardCavalry,
        Unit::GuardArtillery,
        Unit::Ney,
        Unit::DErlon,
        Unit::Lobau,
        Unit::Reille,
        Unit::IICorps,
        Unit::FrenchCavalry,
    ];

    /// The index of this piece in [`Unit::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with this index in [`Unit::ALL`].
    pub const fn from_index(i: usize) -> Option<Unit> {
        if i < UNITS {
            Some(Unit::ALL[i])
        } else {
            None
        }
    }

    /// The side it fights for: the Allies (red and black) or the French (green and blue).
    pub const fn side(self) -> Seat {
        if (self as usize) < Unit::Napoleon as usize {
            ALLIES
        } else {
            FRENCH
        }
    }

    /// Its suit and colour.
    pub const fn suit(self) -> Suit {
        match self as usize {
            0..=6 => Suit::RedStar,
            7..=11 => Suit::BlackMoon,
            12..=16 => Suit::GreenCrown,
            _ => Suit::BlueFleur,
        }
    }

    /// Leader pawn, symbol piece or regular piece.
    pub const fn kind(self) -> Kind {
        match self {
            Unit::Wellington | Unit::Blucher | Unit::Napoleon | Unit::Ney => Kind::Leader,
            Unit::HougoumontGarrison | Unit::GuardArtillery => Kind::Symbol,
            _ => Kind::Regular,
        }
    }

    /// The value on the coin's hidden side; `None` for the pawns.
    pub const fn value(self) -> Option<Face> {
        Some(match self {
            Unit::Wellington | Unit::Blucher | Unit::Napoleon | Unit::Ney => return None,
            Unit::Cooke | Unit::Bulow | Unit::OldGuard | Unit::DErlon => Face::Five,
            Unit::Picton | Unit::Pirch | Unit::YoungGuard | Unit::Lobau => Face::Four,
            Unit::Clinton | Unit::Reille => Face::Three,
            Unit::DutchBelgians | Unit::Steinmetz | Unit::GuardCavalry | Unit::IICorps => Face::Two,
            Unit::Uxbridge | Unit::PrussianCavalry | Unit::FrenchCavalry => Face::Blank,
            Unit::HougoumontGarrison | Unit::GuardArtillery => Face::Symbol,
        })
    }

    /// What it adds to its side's total in combat: its value, with symbols, blanks and pawns 0.
    pub const fn points(self) -> u8 {
        match self.value() {
            Some(v) => v.points(),
            None => 0,
        }
    }

    /// "Leaders (pawns) and cavalry units (French green crown 2, all others blank pieces) can
    /// move two squares per turn. All other pieces move 1 square."
    pub const fn allowance(self) -> u8 {
        match self {
            Unit::Wellington
            | Unit::Blucher
            | Unit::Napoleon
            | Unit::Ney
            | Unit::GuardCavalry
            | Unit::Uxbridge
            | Unit::PrussianCavalry
            | Unit::FrenchCavalry => 2,
            _ => 1,
        }
    }

    /// A pawn.
    pub const fn is_leader(self) -> bool {
        matches!(self.kind(), Kind::Leader)
    }

    /// One of the five black pieces, set aside at the start to arrive as reinforcements.
    pub const fn is_prussian(self) -> bool {
        matches!(self.suit(), Suit::BlackMoon)
    }

    /// "One per eligible leader (Napoleon, Blucher or Ney) taking part in the combat."
    pub const fn attack_die(self) -> bool {
        matches!(self, Unit::Napoleon | Unit::Blucher | Unit::Ney)
    }

    /// "One per eligible leader (Napoleon or Wellington) taking part in the combat."
    pub const fn defence_die(self) -> bool {
        matches!(self, Unit::Napoleon | Unit::Wellington)
    }

    /// The name in the order of battle.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Wellington => "Wellington",
            Unit::Cooke => "British 1st & 3rd divisions (Cooke and Alten)",
            Unit::Picton => "British 5th & 6th divisions (Picton)",
            Unit::Clinton => "British 2nd & 4th divisions (Clinton)",
            Unit::DutchBelgians => "Dutch-Belgians and other allies",
            Unit::Uxbridge => "Cavalry Reserve (Uxbridge)",
            Unit::HougoumontGarrison => "Hougoumont garrison",
            Unit::Blucher => "Blucher",
            Unit::Bulow => "IV Prussian Corps (Bulow)",
            Unit::Pirch => "II Prussian Corps (Pirch)",
            Unit::Steinmetz => "I Prussian Corps (Steinmetz)",
            Unit::PrussianCavalry => "Prussian cavalry",
            Unit::Napoleon => "Napoleon",
            Unit::OldGuard => "Old Guard",
            Unit::YoungGuard => "Young Guard",
            Unit::GuardCavalry => "Guard cavalry",
            Unit::GuardArtillery => "Guard artillery",
            Unit::Ney => "Ney",
            Unit::DErlon => "I Corps (D'Erlon)",
            Unit::Lobau => "VI Corps (Lobau)",
            Unit::Reille => "II Corps (-) (Reille)",
            Unit::IICorps => "II Corps",
            Unit::FrenchCavalry => "III & IV Cavalry corps",
        }
    }

    /// The piece as the set names it: "Red Star 5", "Green Pawn".
    pub const fn piece_name(self) -> &'static str {
        match self {
            Unit::Wellington => "Red Pawn",
            Unit::Cooke => "Red Star 5",
            Unit::Picton => "Red Star 4",
            Unit::Clinton => "Red Star 3",
            Unit::DutchBelgians => "Red Star 2",
            Unit::Uxbridge => "Red Star blank",
            Unit::HougoumontGarrison => "Red Star symbol",
            Unit::Blucher => "Black Pawn",
            Unit::Bulow => "Black Moon 5",
            Unit::Pirch => "Black Moon 4",
            Unit::Steinmetz => "Black Moon 2",
            Unit::PrussianCavalry => "Black Moon blank",
            Unit::Napoleon => "Green Pawn",
            Unit::OldGuard => "Green Crown 5",
            Unit::YoungGuard => "Green Crown 4",
            Unit::GuardCavalry => "Green Crown 2",
            Unit::GuardArtillery => "Green Crown symbol",
            Unit::Ney => "Blue Pawn",
            Unit::DErlon => "Blue Fleur 5",
            Unit::Lobau => "Blue Fleur 4",
            Unit::Reille => "Blue Fleur 3",
            Unit::IICorps => "Blue Fleur 2",
            Unit::FrenchCavalry => "Blue Fleur blank",
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of pieces: bit `i` is the piece with index `i`. Decodes only with no bit at or above
/// [`UNITS`] set, so [`Units::len`] counts pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u32")]
pub struct Units(u32);

impl TryFrom<u32> for Units {
    type Error = OutOfRange;

    fn try_from(bits: u32) -> Result<Units, OutOfRange> {
        if bits >> UNITS == 0 {
            Ok(Units(bits))
        } else {
            Err(OutOfRange::new(
                "a piecepack set of pieces",
                bits,
                "bits 0 to 22 only",
            ))
        }
    }
}

impl Units {
    /// No pieces.
    pub const EMPTY: Units = Units(0);

    /// Whether `unit` is in the set.
    pub const fn contains(self, unit: Unit) -> bool {
        self.0 & (1 << unit as u32) != 0
    }

    /// Adds `unit`.
    pub fn insert(&mut self, unit: Unit) {
        self.0 |= 1 << unit as u32;
    }

    /// Removes `unit`.
    pub fn remove(&mut self, unit: Unit) {
        self.0 &= !(1 << unit as u32);
    }

    /// How many pieces.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether it holds none.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The pieces, in [`Unit::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Unit> {
        Unit::ALL.into_iter().filter(move |u| self.contains(*u))
    }
}

impl FromIterator<Unit> for Units {
    fn from_iter<I: IntoIterator<Item = Unit>>(iter: I) -> Units {
        let mut s = Units::EMPTY;
        for u in iter {
            s.insert(u);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_of_battle_are_twelve_and_eleven() {
        let allies = Unit::ALL.iter().filter(|u| u.side() == ALLIES).count();
        assert_eq!((allies, UNITS - allies), (12, 11));
        for (i, u) in Unit::ALL.iter().enumerate() {
            assert_eq!(u.index(), i);
            assert_eq!(Unit::from_index(i), Some(*u));
            assert_eq!(u.value().is_none(), u.is_leader());
            assert_eq!(u.value() == Some(Face::Symbol), u.kind() == Kind::Symbol);
        }
        assert_eq!(Unit::ALL.iter().filter(|u| u.is_prussian()).count(), 5);
    }

    #[test]
    fn sets_and_pieces_beyond_the_orders_of_battle_do_not_decode() {
        use crate::decode::testing::from_value;
        let all: Units = Unit::ALL.into_iter().collect();
        assert_eq!(from_value::<Units, u32>(all.0), Ok(all));
        let err = from_value::<Units, u32>(1 << 23).unwrap_err();
        assert!(err.contains("bits 0 to 22 only"), "{err}");
        // A unit, a face: enums decode only from a variant they have.
        assert_eq!(postcard::from_bytes::<Unit>(&[22]), Ok(Unit::FrenchCavalry));
        assert!(postcard::from_bytes::<Unit>(&[23]).is_err());
        assert!(postcard::from_bytes::<Face>(&[6]).is_err());
    }
}
