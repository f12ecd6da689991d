//! The three armies, unit by unit, from the piece pages at the end of the rulebook; the seat that
//! plays each army ([`seat_of`]); and a unit as it stands on the board ([`Placed`]).

use core::fmt;

use serde::{Deserialize, Serialize};

use super::sides::{ALLIED, FRENCH};
use crate::Seat;

/// One of the three armies on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Army {
    /// Blue: the French player.
    French,
    /// Red: the Allied player.
    Allied,
    /// Black: the Prussians, played by the Allied player once they arrive.
    Prussian,
}

/// What kind of unit a piece is, which decides how it moves and fights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Class {
    /// Moves three squares, not necessarily straight; immune to artillery fire.
    LightInfantry,
    /// Moves two squares, not necessarily straight (asterisk on the back).
    LineInfantry,
    /// Moves any distance in one direction over empty squares.
    LightCavalry,
    /// As light cavalry, but loses 1 strength per charge (asterisk on the back).
    HeavyCavalry,
    /// Moves one square and fires.
    Artillery,
    /// Ney, Uxbridge, von Bulow: strength 5, light cavalry, worth one action.
    Commander,
    /// Napoleon, Wellington: win every attack they make, lose every attack on them.
    CommanderInChief,
}

impl Class {
    /// The symbol on the back of the piece, which the opponent sees.
    pub const fn arm(self) -> Arm {
        match self {
            Class::LightInfantry | Class::LineInfantry => Arm::Infantry,
            Class::Artillery => Arm::Artillery,
            _ => Arm::Cavalry,
        }
    }

    /// Whether the back carries the asterisk of line infantry and heavy cavalry.
    pub const fn asterisk(self) -> bool {
        matches!(self, Class::LineInfantry | Class::HeavyCavalry)
    }

    /// Cavalry of any kind, commanders and commanders-in-chief included ("considered to belong
    /// to the Light Cavalry units").
    pub const fn is_cavalry(self) -> bool {
        matches!(self.arm(), Arm::Cavalry)
    }

    /// Infantry of either kind.
    pub const fn is_infantry(self) -> bool {
        matches!(self.arm(), Arm::Infantry)
    }
}

/// The symbol on the back of a piece: "INFANTRY • CAVALRY • ARTILLERY".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Arm {
    /// Infantry.
    Infantry,
    /// Cavalry (and commanders).
    Cavalry,
    /// Artillery.
    Artillery,
}

/// What the opponent sees of a hidden piece: its army, the symbol and the asterisk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Back {
    /// Whose piece.
    pub army: Army,
    /// Infantry, cavalry or artillery.
    pub arm: Arm,
    /// The asterisk of line infantry and heavy cavalry.
    pub asterisk: bool,
}

macro_rules! units {
    ($( $(#[$doc:meta])* $name:ident = $army:ident, $class:ident, $strength:expr, $guard:expr, $count:expr, $label:expr, $short:expr; )*) => {
        /// A kind of piece, as named on the piece pages.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum Unit {
            $( $(#[$doc])* $name, )*
        }

        impl Unit {
            /// Every unit, French first, then Allied, then Prussian.
            pub const ALL: &'static [Unit] = &[$(Unit::$name),*];

            /// The army it belongs to.
            pub const fn army(self) -> Army {
                match self { $(Unit::$name => Army::$army,)* }
            }

            /// Its class.
            pub const fn class(self) -> Class {
                match self { $(Unit::$name => Class::$class,)* }
            }

            /// Its printed strength (0 for the commanders-in-chief, who have none).
            pub const fn strength(self) -> u8 {
                match self { $(Unit::$name => $strength,)* }
            }

            /// Imperial Guard or elite unit.
            pub const fn is_guard(self) -> bool {
                match self { $(Unit::$name => $guard,)* }
            }

            /// How many of these the army has.
            pub const fn count(self) -> u8 {
                match self { $(Unit::$name => $count,)* }
            }

            /// Its name on the piece.
            pub const fn name(self) -> &'static str {
                match self { $(Unit::$name => $label,)* }
            }

            /// Its short name for the 128x64 screen: at most 13 characters, and no two units
            /// of any army share one, so it needs no army in front.
            pub const fn short(self) -> &'static str {
                match self { $(Unit::$name => $short,)* }
            }
        }
    };
}

units! {
    /// Emperor Napoleon, French commander-in-chief.
    Napoleon = French, CommanderInChief, 0, false, 1, "Emperor Napoleon", "Napoleon";
    /// Marshal Ney, French commander (5).
    Ney = French, Commander, 5, false, 1, "Marshal Ney", "Marshal Ney";
    /// Polish Lancers: heavy cavalry 5, Imperial Guard.
    PolishLancers = French, HeavyCavalry, 5, true, 2, "Polish Lancers", "Pol. Lancers";
    /// Empress Dragoons: heavy cavalry 6, Imperial Guard.
    EmpressDragoons = French, HeavyCavalry, 6, true, 1, "Empress Dragoons", "Emp. Dragoons";
    /// Cuirassiers: heavy cavalry 4.
    Cuirassiers = French, HeavyCavalry, 4, false, 3, "Cuirassiers", "Cuirassiers";
    /// Chasseurs a Cheval: light cavalry 2.
    Chasseurs = French, LightCavalry, 2, false, 6, "Chasseurs a Cheval", "Chasseurs";
    /// French light infantry (1).
    FrenchLightInfantry = French, LightInfantry, 1, false, 5, "Light Infantry", "Fr. Light Inf";
    /// French line infantry (3).
    FrenchLineInfantry = French, LineInfantry, 3, false, 15, "Line Infantry", "Fr. Line Inf";
    /// Young Guard: line infantry 4, Imperial Guard.
    YoungGuard = French, LineInfantry, 4, true, 2, "Young Guard", "Young Guard";
    /// Middle Guard: line infantry 5, Imperial Guard.
    MiddleGuard = French, LineInfantry, 5, true, 2, "Middle Guard", "Middle Guard";
    /// Old Guard: line infantry 6, Imperial Guard.
    OldGuard = French, LineInfantry, 6, true, 1, "Old Guard", "Old Guard";
    /// French artillery.
    FrenchArtillery = French, Artillery, 0, false, 8, "French Artillery", "Fr. Artillery";
    /// The Duke of Wellington, Allied commander-in-chief.
    Wellington = Allied, CommanderInChief, 0, false, 1, "Duke of Wellington", "Wellington";
    /// Lord Uxbridge, Allied commander (5).
    Uxbridge = Allied, Commander, 5, false, 1, "Lord Uxbridge", "Uxbridge";
    /// Scots Greys: heavy cavalry 5, elite.
    ScotsGreys = Allied, HeavyCavalry, 5, true, 1, "Scots Greys", "Scots Greys";
    /// Royal Horse Guards: heavy cavalry 6, elite.
    RoyalHorseGuards = Allied, HeavyCavalry, 6, true, 1, "Royal Horse Guards", "Horse Guards";
    /// Dutch Carabiniers: heavy cavalry 4.
    DutchCarabiniers = Allied, HeavyCavalry, 4, false, 3, "Dutch Carabiniers", "Carabiniers";
    /// KGL Hussars: light cavalry 2.
    KglHussars = Allied, LightCavalry, 2, false, 6, "KGL Hussars", "KGL Hussars";
    /// 95th Rifles: light infantry 2.
    Rifles95th = Allied, LightInfantry, 2, false, 2, "95th Rifles", "95th Rifles";
    /// Brunswick 'Leib': light infantry 1.
    BrunswickLeib = Allied, LightInfantry, 1, false, 3, "Brunswick 'Leib'", "Brunswickers";
    /// British/KGL Foot: line infantry 3.
    BritishFoot = Allied, LineInfantry, 3, false, 18, "British/KGL Foot", "British Foot";
    /// Royal Foot Guards: line infantry 6, elite.
    RoyalFootGuards = Allied, LineInfantry, 6, true, 1, "Royal Foot Guards", "Foot Guards";
    /// Highland regiments: line infantry 5, elite.
    Highlanders = Allied, LineInfantry, 5, true, 2, "Highland regiment", "Highlanders";
    /// British artillery.
    BritishArtillery = Allied, Artillery, 0, false, 6, "British Artillery", "Br. Artillery";
    /// Feldmarschall von Bulow, Prussian commander (5).
    VonBulow = Prussian, Commander, 5, false, 1, "Feldmarschall von Bulow", "von Bulow";
    /// Prussian infantry: line infantry 3.
    PrussianInfantry = Prussian, LineInfantry, 3, false, 3, "Prussian Infantry", "Pr. Infantry";
    /// Landwehr: light infantry 2.
    Landwehr = Prussian, LightInfantry, 2, false, 4, "Landwehr", "Landwehr";
    /// Silesian Landwehr: light cavalry 2.
    SilesianLandwehr = Prussian, LightCavalry, 2, false, 4, "Silesian Landwehr", "Sil. Landwehr";
    /// Prussian artillery.
    PrussianArtillery = Prussian, Artillery, 0, false, 1, "Prussian Artillery", "Pr. Artillery";
}

impl Unit {
    /// What the opponent sees of it.
    pub const fn back(self) -> Back {
        Back {
            army: self.army(),
            arm: self.class().arm(),
            asterisk: self.class().asterisk(),
        }
    }

    /// The units of `army`, in piece-page order.
    pub fn of(army: Army) -> impl Iterator<Item = Unit> {
        Unit::ALL.iter().copied().filter(move |u| u.army() == army)
    }

    /// Every piece of `army`, one entry per piece (47 French, 45 Allied, 13 Prussian).
    pub fn army_list(army: Army) -> impl Iterator<Item = Unit> {
        Unit::of(army).flat_map(|u| core::iter::repeat_n(u, usize::from(u.count())))
    }

    /// The number of pieces of `army`.
    pub fn army_size(army: Army) -> usize {
        Unit::of(army).map(|u| usize::from(u.count())).sum()
    }

    /// A short code for diagrams, unique within an army.
    pub const fn code(self) -> &'static str {
        match self {
            Unit::Napoleon | Unit::Wellington => "C",
            Unit::Ney | Unit::Uxbridge | Unit::VonBulow => "K",
            Unit::PolishLancers | Unit::ScotsGreys => "H5",
            Unit::EmpressDragoons | Unit::RoyalHorseGuards => "H6",
            Unit::Cuirassiers | Unit::DutchCarabiniers => "H4",
            Unit::Chasseurs | Unit::KglHussars | Unit::SilesianLandwehr => "L",
            Unit::FrenchLightInfantry | Unit::BrunswickLeib => "i1",
            Unit::Rifles95th | Unit::Landwehr => "i2",
            Unit::FrenchLineInfantry | Unit::BritishFoot | Unit::PrussianInfantry => "I3",
            Unit::YoungGuard => "I4",
            Unit::MiddleGuard | Unit::Highlanders => "I5",
            Unit::OldGuard | Unit::RoyalFootGuards => "I6",
            Unit::FrenchArtillery | Unit::BritishArtillery | Unit::PrussianArtillery => "A",
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Army::French => "French",
            Army::Allied => "Allied",
            Army::Prussian => "Prussian",
        })
    }
}

/// The seat that plays `army`'s pieces.
pub const fn seat_of(army: Army) -> Seat {
    match army {
        Army::French => FRENCH,
        Army::Allied | Army::Prussian => ALLIED,
    }
}

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placed {
    /// What it is.
    pub unit: Unit,
    /// Strength lost by heavy cavalry charges ('weakened' blocks; public).
    pub weakened: u8,
    /// Known to the opponent (revealed in battle).
    pub revealed: bool,
    /// The half-turn of its last charge (heavy cavalry), `u32::MAX` if none.
    pub(super) charged_at: u32,
    /// Fighting spirit: +1 strength until the end of the turn.
    pub(super) spirited: bool,
}

impl Placed {
    pub(super) fn new(unit: Unit) -> Placed {
        Placed {
            unit,
            weakened: 0,
            revealed: false,
            charged_at: u32::MAX,
            spirited: false,
        }
    }

    /// The seat that plays it.
    pub fn seat(&self) -> Seat {
        seat_of(self.unit.army())
    }
}

#[cfg(test)]
mod tests {
    use super::Unit;

    #[test]
    fn short_names_fit_the_screen_and_name_one_unit_each() {
        for (i, a) in Unit::ALL.iter().enumerate() {
            assert!(a.short().len() <= 13, "{} is too long", a.short());
            for b in &Unit::ALL[i + 1..] {
                assert_ne!(a.short(), b.short(), "{a:?} and {b:?} share a short name");
            }
        }
    }
}
