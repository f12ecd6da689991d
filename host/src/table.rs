//! Table games (every game but Stratego Original and Duel) on the simulated table: choosing one
//! from the OLED's menus, setting it up group by group, and hands that play whole games from
//! physical events only — lifts, placements, buttons — guided by what the referee's
//! [`TableView`] says is legal, exactly as players reading the rules would.

use std::collections::BTreeSet;

use boards::geometry::grid::Cell;
use boards::napoleon::battle::{Side, Wing, Zone};
use boards::napoleon::Army;
use boards::{Actor, Seat};
use firmware::referee::games;
use firmware::referee::games::napoleon::{NapoleonSet, Spot};
use firmware::referee::table::{Gesture, TableView};
use firmware::referee::{GameKind, RefereeConfig};
use firmware::sensing::{Button, LayoutSetup, Place, TrayKind};
use firmware::ui::Screen;
use rand::Rng;

use crate::sim::{HandError, SimTable, GESTURE_MS};

/// A table game found on the menu: where it is and what it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableGameEntry {
    /// The game's name on the menu.
    pub name: String,
    /// The variant's label on the game's own menu.
    pub variant: String,
    /// The journal header's game.
    pub kind: GameKind,
}

impl TableGameEntry {
    /// The sensed places the game needs.
    pub fn layout(&self) -> LayoutSetup {
        games::layout(self.kind)
    }

    /// The referee's settings for this game: the defaults, on the game's board layout (and
    /// with Napoléon's 6.2.4 option when the entry has it).
    pub fn referee_config(&self) -> RefereeConfig {
        let mut config = RefereeConfig::default();
        match self.kind {
            GameKind::Waterloo { choice } => config.waterloo_layout = choice.layout,
            GameKind::Sba { choice } => config.sba_set = choice.set,
            GameKind::Napoleon { choice } => {
                config.napoleon_set = choice.set;
                config.napoleon_reveal_on_contact = choice.reveal_on_contact;
            }
            GameKind::Stratego { .. } | GameKind::Piecepack { .. } => {}
        }
        config
    }
}

/// Words as a scenario writes them: lower case, runs of anything else one `-`
/// ("Stratego: Waterloo" is `stratego-waterloo`); the same rule the configuration's
/// `[game]` settings use ([`firmware::config::slug`]).
pub use firmware::config::slug;

/// The table game whose name's slug contains `game` (exactly one must), in the variant whose
/// label's slug contains `variant` (the first variant when `None`).
///
/// # Errors
/// No game or several match, or no variant does; the message lists what there is.
pub fn find_game(game: &str, variant: Option<&str>) -> Result<TableGameEntry, String> {
    let menu = games::menu();
    let want = slug(game);
    let found: Vec<_> = menu
        .iter()
        .filter(|(name, _)| slug(name) == want || slug(name).contains(&want))
        .collect();
    let names = || {
        menu.iter()
            .map(|(n, _)| slug(n))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (name, variants) = match found.as_slice() {
        [one] => *one,
        [] => {
            return Err(format!(
                "no game is called `{game}`: `classic` or `duel` (Stratego), or a table game: {}",
                names()
            ))
        }
        _ => {
            return Err(format!(
                "`{game}` names several games: {}; write more of the one meant",
                found
                    .iter()
                    .map(|(n, _)| slug(n))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    };
    let entry = match variant {
        None => variants.first(),
        Some(v) => {
            let v = slug(v);
            variants
                .iter()
                .find(|(label, _)| slug(label) == v)
                .or_else(|| variants.iter().find(|(label, _)| slug(label).contains(&v)))
        }
    };
    let Some((label, kind)) = entry else {
        return Err(format!(
            "{name} has no variant `{}`: {}",
            variant.unwrap_or_default(),
            variants
                .iter()
                .map(|(l, _)| slug(l))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    Ok(TableGameEntry {
        name: name.to_string(),
        variant: label.clone(),
        kind: *kind,
    })
}

/// A rule option a scenario's `game` line gives after the game and its variant (`game napoleon
/// historical reveal-on-contact`): one the umpire's configuration file sets for that game, so a
/// scenario plays what a configured umpire plays. The game's data files (layouts, cards, maps)
/// are no options: the shipped ones are played (Waterloo's layout: `check --layout`).
#[derive(Clone, Copy, Debug)]
pub struct GameOption {
    /// The option as the line writes it, a [`slug`]: any spelling with the same slug reads the
    /// same (`reveal_on_contact`, as the configuration file spells it).
    pub name: &'static str,
    /// The game it applies to, as the menu names it.
    pub game: &'static str,
    /// What it does, in a few words.
    pub meaning: &'static str,
    /// The configuration file's setting for it on the umpire.
    pub config: &'static str,
    /// Whether a game has it on.
    is_on: fn(GameKind) -> bool,
    /// The game with it on.
    turn_on: fn(GameKind) -> GameKind,
}

/// Every option a `game` line may give, each for its own game. Stratego Original's and Duel's
/// repetition rules are their own line (`rules isf` or `rules plain`), not an option here.
pub const GAME_OPTIONS: [GameOption; 1] = [GameOption {
    name: "reveal-on-contact",
    game: games::napoleon::TITLE,
    meaning: "rule 6.2.4's option: a block on a battle's wing is seen only once it fires or \
              is in combat",
    config: "[napoleon] reveal_on_contact = true",
    is_on: |kind| matches!(kind, GameKind::Napoleon { choice } if choice.reveal_on_contact),
    turn_on: |kind| kind.on_napoleon_reveal_on_contact(true),
}];

/// The options `game` (as the menu names it) takes on its `game` line, in words for a message:
/// "`reveal-on-contact` (rule 6.2.4's option: ...; the umpire's `[napoleon] reveal_on_contact
/// = true`)"; `None` when it takes none.
pub fn game_options_words(game: &str) -> Option<String> {
    let options: Vec<String> = GAME_OPTIONS
        .iter()
        .filter(|o| o.game == game)
        .map(|o| format!("`{}` ({}; the umpire's `{}`)", o.name, o.meaning, o.config))
        .collect();
    (!options.is_empty()).then(|| options.join(", "))
}

/// The option of any game a word of a `game` line names, if it names one.
fn game_option(word: &str) -> Option<&'static GameOption> {
    let word = slug(word);
    GAME_OPTIONS.iter().find(|o| o.name == word)
}

/// Why `word` cannot stand after the game and variant of `game` (as the menu names it) on a
/// `game` line, with the fix: an option of another game, or no option at all.
fn not_an_option(game: &str, word: &str) -> String {
    let why = match game_option(word) {
        Some(o) => format!("`{word}` is an option of {} only ({})", o.game, o.meaning),
        None => format!("`{word}` is no option of any game"),
    };
    match game_options_words(game) {
        Some(options) => {
            format!("{why}; {game}'s options: {options}: correct it to one of them or remove it")
        }
        None => format!("{why}; {game} takes no options on its `game` line: remove it"),
    }
}

/// The table game a scenario's `game` line names, from the words after `game`: `GAME [VARIANT]
/// [OPTION...]` (`napoleon historical reveal-on-contact`). GAME and VARIANT are found as
/// [`find_game`] finds them; a second word that names an option is an option, the variant then
/// the game's first. Each option must be one of [`GAME_OPTIONS`] for that game, given once.
///
/// # Errors
/// No game or variant matches, or an option is unknown, another game's or given twice; the
/// message lists the game's options.
pub fn parse_game_line(words: &[&str]) -> Result<TableGameEntry, String> {
    let Some((game, rest)) = words.split_first() else {
        return Err("`game` takes a game, then its variant and options (host/SCENARIOS.md)".into());
    };
    let (variant, options) = match rest.split_first() {
        Some((v, options)) if game_option(v).is_none() => (Some(*v), options),
        _ => (None, rest),
    };
    let mut entry = find_game(game, variant).map_err(|e| {
        // A misspelt option in the variant's place: say what may follow the variant too.
        match (variant, find_game(game, None)) {
            (Some(_), Ok(found)) => match game_options_words(&found.name) {
                Some(options) => format!("{e}; after the variant, {} takes {options}", found.name),
                None => e,
            },
            _ => e,
        }
    })?;
    for word in options {
        let Some(option) = game_option(word).filter(|o| o.game == entry.name) else {
            // A variant written after an option: say where it goes.
            if variant.is_none() && find_game(game, Some(word)).is_ok() {
                return Err(format!(
                    "`{word}` is a variant of {}: write it right after the game, before the \
                     options (`game {} {word} {}`)",
                    entry.name,
                    slug(game),
                    rest.iter()
                        .filter(|w| *w != word)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            return Err(not_an_option(&entry.name, word));
        };
        if (option.is_on)(entry.kind) {
            return Err(format!(
                "`{}` is given twice on the `game` line: write it once",
                option.name
            ));
        }
        entry.kind = (option.turn_on)(entry.kind);
    }
    Ok(entry)
}

/// The scenario `game` line that plays `entry`: the game, its variant and each option it has
/// on (`game napoleon 2-players-historical-set-up reveal-on-contact`), as
/// [`parse_game_line`] reads it back.
pub fn game_line(entry: &TableGameEntry) -> String {
    let mut line = format!("game {} {}", slug(&entry.name), slug(&entry.variant));
    for option in options_on(entry) {
        line.push(' ');
        line.push_str(option.name);
    }
    line
}

/// The options `entry` has on, in [`GAME_OPTIONS`]' order.
pub fn options_on(entry: &TableGameEntry) -> impl Iterator<Item = &'static GameOption> + '_ {
    GAME_OPTIONS.iter().filter(|o| (o.is_on)(entry.kind))
}

/// Why a Stratego `game` line (`game classic` or `game duel`, `title` its game's name) cannot
/// go on with `word`, with the fix: Stratego has no variants or options on the line.
pub fn stratego_game_line_error(title: &str, word: &str) -> String {
    match (slug(word).as_str(), game_option(word)) {
        ("isf" | "plain", _) => format!(
            "{title}'s repetition rules are their own line, not the `game` line's: write \
             `rules {}` on a line of its own",
            slug(word)
        ),
        (_, Some(o)) => format!(
            "`{word}` is an option of {} only ({}); {title} takes no options on its `game` \
             line: remove it",
            o.game, o.meaning
        ),
        _ => format!(
            "{title} takes nothing after its name on the `game` line (Duel is its own game, \
             `game duel`; the repetition rules are a `rules isf` or `rules plain` line): remove \
             `{word}`"
        ),
    }
}

/// A place as a scenario writes it: a square `c4` (column letter, row number from 1), or a tray
/// slot `KIND/SEAT/SLOT` with KIND `reserve`, `staging`, `withdrawn` or `eliminated`, SEAT 1 or
/// 2 and SLOT from 1 (`reserve/2/3`).
///
/// # Errors
/// What is wrong with the text.
pub fn parse_place(text: &str) -> Result<Place, String> {
    if let Some(cell) = Cell::parse(text) {
        return Ok(Place::Square(cell));
    }
    let parts: Vec<&str> = text.split('/').collect();
    let [kind, seat, slot] = parts.as_slice() else {
        return Err(format!(
            "`{text}` is not a place: write a square (c4) or a tray slot (reserve/1/3)"
        ));
    };
    let tray = match *kind {
        "reserve" => TrayKind::Reserve,
        "staging" => TrayKind::PrussianStaging,
        "withdrawn" => TrayKind::Withdrawn,
        "eliminated" => TrayKind::Eliminated,
        other => {
            return Err(format!(
                "`{other}` is not a tray: reserve, staging, withdrawn or eliminated"
            ))
        }
    };
    let seat = match *seat {
        "1" => Seat::FIRST,
        "2" => Seat::SECOND,
        other => return Err(format!("`{other}` is not a seat: 1 or 2")),
    };
    let slot: u8 = slot
        .parse()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("`{slot}` is not a slot number from 1"))?;
    Ok(Place::Tray {
        tray,
        seat,
        slot: slot - 1,
    })
}

/// A place as a scenario writes it (the inverse of [`parse_place`]).
pub fn place_text(place: &Place) -> String {
    match place {
        Place::Square(cell) => cell.to_string(),
        Place::Tray { tray, seat, slot } => {
            let kind = match tray {
                TrayKind::Reserve => "reserve",
                TrayKind::PrussianStaging => "staging",
                TrayKind::Withdrawn => "withdrawn",
                TrayKind::Eliminated => "eliminated",
            };
            format!("{kind}/{}/{}", seat.index() + 1, u16::from(*slot) + 1)
        }
    }
}

/// A place as a scenario writes it in the game of `entry`: [`parse_place`]'s squares and tray
/// slots, and in Napoléon the places as the layout and the OLED name them:
///
/// - a town's slot `CODE/SLOT`: the town's code as the map file spells it, the slot from 1
///   (`MON/2`, "Bergen slot 2");
/// - a battle board's zone space `bN/SIDE/WING/SLOT` (`b1/attacker/left/2`), reserve space
///   `bN/SIDE/reserve/SLOT` (`b1/defender/reserve/1`) or terrain spot `bN/SIDE/WING/terrain`
///   (`b2/attacker/centre/terrain`): SIDE `attacker` or `defender`, WING `left`, `centre` or
///   `right` as that side sees it;
/// - an eliminated-tray slot `eliminated/ARMY/SLOT`, ARMY `french`, `ad` or `pr`
///   (`eliminated/french/3`).
///
/// # Errors
/// What is wrong with the text, with the fix.
pub fn parse_place_in(entry: Option<&TableGameEntry>, text: &str) -> Result<Place, String> {
    match entry.map(|e| e.kind) {
        Some(GameKind::Napoleon { choice }) => napoleon_place(choice.set, text),
        _ => parse_place(text),
    }
}

/// A place as a scenario writes it in the game of `entry` (the inverse of
/// [`parse_place_in`]): in Napoléon by its name in the layout (`MON/2`), else as
/// [`place_text`] writes it.
pub fn place_text_in(entry: Option<&TableGameEntry>, place: &Place) -> String {
    if let Some(GameKind::Napoleon { choice }) = entry.map(|e| e.kind) {
        if let Some(text) = napoleon_place_text(choice.set, place) {
            return text;
        }
    }
    place_text(place)
}

/// What a hand could not do, its place written as a scenario writes it in the game of `entry`
/// (`there is no piece on MON/2 to lift`).
pub fn hand_error_text(entry: Option<&TableGameEntry>, e: &HandError) -> String {
    let at = |p: &Place| place_text_in(entry, p);
    match e {
        HandError::NothingThere(p) => format!("there is no piece on {} to lift", at(p)),
        HandError::Occupied(p) => format!("a piece already stands on {}: lift it first", at(p)),
        HandError::NoSuchPlace(p) => format!("the board has no sensor at {}", at(p)),
    }
}

fn side_text(side: Side) -> &'static str {
    match side {
        Side::Attacker => "attacker",
        Side::Defender => "defender",
    }
}

fn wing_text(wing: Wing) -> &'static str {
    match wing {
        Wing::Left => "left",
        Wing::Centre => "centre",
        Wing::Right => "right",
    }
}

fn army_text(army: Army) -> &'static str {
    match army {
        Army::French => "french",
        Army::AngloDutch => "ad",
        Army::Prussian => "pr",
    }
}

/// Slot `slot` (from 1, as written) of `slots`, or what the text may say instead.
fn nth_slot(slots: &[Place], slot: &str, what: &str, example: &str) -> Result<Place, String> {
    let n = slots.len();
    slot.parse::<usize>()
        .ok()
        .filter(|i| (1..=n).contains(i))
        .and_then(|i| slots.get(i - 1).copied())
        .ok_or_else(|| {
            format!("`{slot}` is not a slot of {what}: it has slots 1 to {n} (`{example}`)")
        })
}

fn napoleon_place(set: NapoleonSet, text: &str) -> Result<Place, String> {
    let usage = "write a town's slot (MON/2), a battle board's space (b1/attacker/left/2, \
                 b1/defender/reserve/1), a terrain spot (b1/attacker/left/terrain), an \
                 eliminated-tray slot (eliminated/french/3) or a square (n6)";
    if let Some(cell) = Cell::parse(text) {
        return Ok(Place::Square(cell));
    }
    let layout = set.layout();
    let map = set.campaign().map();
    let parts: Vec<&str> = text.split('/').collect();
    match parts.as_slice() {
        ["eliminated", army, slot] => {
            let army = match *army {
                "french" => Army::French,
                "ad" => Army::AngloDutch,
                "pr" => Army::Prussian,
                other => {
                    return Err(format!(
                        "`{other}` is not an army's tray: french, ad or pr (`eliminated/ad/1`)"
                    ))
                }
            };
            let example = format!("eliminated/{}/1", army_text(army));
            nth_slot(
                layout.eliminated(army),
                slot,
                &format!("the {army} eliminated tray"),
                &example,
            )
        }
        [board, side, area, slot] if board.starts_with('b') => {
            let boards = layout.boards();
            let b = board[1..]
                .parse::<usize>()
                .ok()
                .filter(|i| (1..=boards.len()).contains(i))
                .ok_or_else(|| {
                    format!(
                        "`{board}` is not a battle board: b1 to b{} (`b1/attacker/left/1`)",
                        boards.len()
                    )
                })?;
            let bb = &boards[b - 1];
            let side = match *side {
                "attacker" => Side::Attacker,
                "defender" => Side::Defender,
                other => {
                    return Err(format!(
                        "`{other}` is not a side: attacker or defender (`{board}/attacker/left/1`)"
                    ))
                }
            };
            let s = side_text(side);
            let wing = match *area {
                "reserve" => {
                    return nth_slot(
                        bb.reserve(side),
                        slot,
                        &format!("board {b}'s {s} reserve"),
                        &format!("{board}/{s}/reserve/1"),
                    )
                }
                "left" => Wing::Left,
                "centre" => Wing::Centre,
                "right" => Wing::Right,
                other => {
                    return Err(format!(
                        "`{other}` is not a zone: left, centre, right or reserve \
                         (`{board}/{s}/left/1`)"
                    ))
                }
            };
            let zone = Zone::new(side, wing);
            if *slot == "terrain" {
                return Ok(bb.terrain(zone));
            }
            let w = wing_text(wing);
            nth_slot(
                bb.zone(zone),
                slot,
                &format!("board {b}'s {s} {w} zone"),
                &format!("{board}/{s}/{w}/1 or {board}/{s}/{w}/terrain"),
            )
        }
        [code, slot] => {
            let town = map.town(code).ok_or_else(|| {
                format!(
                    "`{code}` is no town of the Napoleon map: write a town's code as the map \
                     file and the layout spell it (BRU/1, MON/2, QB/1)"
                )
            })?;
            let code = map.code(town).unwrap_or(code);
            nth_slot(
                layout.town(town),
                slot,
                &format!("{code} ({})", map.name(town).unwrap_or("?")),
                &format!("{code}/1"),
            )
        }
        _ => Err(format!("`{text}` is not a Napoleon place: {usage}")),
    }
}

fn napoleon_place_text(set: NapoleonSet, place: &Place) -> Option<String> {
    let map = set.campaign().map();
    Some(match set.layout().spot(place)? {
        Spot::Town { town, slot } => format!("{}/{}", map.code(town)?, slot + 1),
        Spot::Zone { board, zone, slot } => format!(
            "b{}/{}/{}/{}",
            board + 1,
            side_text(zone.half),
            wing_text(zone.wing),
            slot + 1
        ),
        Spot::Reserve { board, side, slot } => {
            format!("b{}/{}/reserve/{}", board + 1, side_text(side), slot + 1)
        }
        Spot::Terrain { board, zone } => format!(
            "b{}/{}/{}/terrain",
            board + 1,
            side_text(zone.half),
            wing_text(zone.wing)
        ),
        Spot::Eliminated { army, slot } => format!("eliminated/{}/{}", army_text(army), slot + 1),
    })
}

/// A Waterloo army drawn as a diagram: its set-up rows, the farthest from the Allied player
/// first (Allied rows 4 to 1, French rows 10 to 7; more rows may be drawn, Allied rows 6 to 1
/// for the Expert game's Hougoumont garrison), each a list of one token per column, a
/// unit's code as [`Unit::code`](boards::waterloo::Unit::code) gives it (`C K H4 H5 H6 L i1 i2 I3 I4 I5 I6 A`) or `.`; and
/// the codes of the pieces on its reserve slots, from slot 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArmyDiagram {
    /// The set-up rows' tokens, the farthest row first.
    pub rows: Vec<Vec<String>>,
    /// The reserve slots' codes, slot 1 first.
    pub reserve: Vec<String>,
}

impl ArmyDiagram {
    /// Whether nothing was drawn.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty() && self.reserve.is_empty()
    }
}

/// The Waterloo seat a scenario names: `allied` or `french`.
pub fn waterloo_seat(word: &str) -> Option<Seat> {
    match word {
        "allied" => Some(boards::waterloo::ALLIED),
        "french" => Some(boards::waterloo::FRENCH),
        _ => None,
    }
}

/// The places of each of `seat`'s set-up groups drawn by `diagram` (the Allied player's
/// Prussians on the staging slots in group order, from slot 1).
///
/// # Errors
/// The game is not Waterloo, or the diagram is not a whole army: every problem named.
pub fn diagram_groups(
    entry: &TableGameEntry,
    seat: Seat,
    diagram: &ArmyDiagram,
) -> Result<Vec<Vec<Place>>, String> {
    use boards::waterloo::{Army, Unit, ALLIED};
    use firmware::referee::table::TableGame as _;
    let GameKind::Waterloo { choice } = entry.kind else {
        return Err(format!("{} has no army diagrams", entry.name));
    };
    let layout = games::waterloo::options(choice).layout;
    let (army, side) = if seat == ALLIED {
        (Army::Allied, "allied")
    } else {
        (Army::French, "french")
    };
    // The set-up rows, or more (the Expert game's Hougoumont garrison stands on rows 5-6).
    let setup_rows = usize::from(layout.setup_rows);
    let drawn = u8::try_from(diagram.rows.len()).unwrap_or(u8::MAX);
    if diagram.rows.len() < setup_rows || drawn > layout.rows {
        return Err(format!(
            "the {side} diagram has {} rows: draw the {setup_rows} set-up rows (or more, up to \
             {})",
            diagram.rows.len(),
            layout.rows
        ));
    }
    let code = |token: &str| -> Result<Unit, String> {
        Unit::of(army).find(|u| u.code() == token).ok_or_else(|| {
            format!(
                "`{token}` is no {army} unit: {}",
                Unit::of(army).map(Unit::code).collect::<Vec<_>>().join(" ")
            )
        })
    };
    let mut placed: Vec<(Unit, Place)> = Vec::new();
    for (i, row) in diagram.rows.iter().enumerate() {
        if row.len() != usize::from(layout.columns) {
            return Err(format!(
                "a {side} row has {} tokens: write {}, one per column",
                row.len(),
                layout.columns
            ));
        }
        // The farthest row from the Allied player first.
        let row_index = if seat == ALLIED {
            drawn - 1 - u8::try_from(i).unwrap_or(0)
        } else {
            layout.rows - 1 - u8::try_from(i).unwrap_or(0)
        };
        for (col, token) in row.iter().enumerate() {
            if token != "." {
                let cell = Cell::new(u8::try_from(col).unwrap_or(0), row_index);
                placed.push((code(token)?, Place::Square(cell)));
            }
        }
    }
    for (slot, token) in diagram.reserve.iter().enumerate() {
        placed.push((
            code(token)?,
            Place::Tray {
                tray: TrayKind::Reserve,
                seat,
                slot: u8::try_from(slot).unwrap_or(u8::MAX),
            },
        ));
    }
    let mut units: Vec<Unit> = Unit::of(army).collect();
    if seat == ALLIED {
        units.extend(Unit::of(Army::Prussian));
    }
    let labels = games::WaterlooTable::groups(choice, seat);
    let mut problems = Vec::new();
    let mut groups = Vec::new();
    let mut staging = 0u8;
    for (k, unit) in units.iter().enumerate() {
        if !labels
            .get(k)
            .is_some_and(|g| g.label.contains(unit.short()))
        {
            return Err(format!(
                "the referee's set-up groups are not the units in piece-page order: {}",
                labels
                    .iter()
                    .map(|g| g.label.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
        let mut places: Vec<Place> = placed
            .iter()
            .filter(|(u, _)| u == unit)
            .map(|(_, p)| *p)
            .collect();
        if unit.army() == Army::Prussian {
            for _ in 0..unit.count() {
                places.push(Place::Tray {
                    tray: TrayKind::PrussianStaging,
                    seat: ALLIED,
                    slot: staging,
                });
                staging += 1;
            }
        } else if places.len() != usize::from(unit.count()) {
            problems.push(format!(
                "{} {} ({}) drawn, the army has {}",
                places.len(),
                unit.name(),
                unit.code(),
                unit.count()
            ));
        }
        groups.push(places);
    }
    if problems.is_empty() {
        Ok(groups)
    } else {
        Err(format!("the {side} diagram: {}", problems.join("; ")))
    }
}

/// Presses Die until the OLED's menu highlights the entry containing `text`, then OK.
///
/// # Errors
/// No menu is shown, or no entry contains `text`.
pub fn choose_entry(table: &mut SimTable, text: &str) -> Result<(), String> {
    let Screen::Choice {
        entries, selected, ..
    } = table.referee().screen().clone()
    else {
        return Err(format!(
            "no menu is shown to choose `{text}` from; the screen shows: {}",
            table.screen_text()
        ));
    };
    let target = entries
        .iter()
        .position(|e| e == text)
        .or_else(|| entries.iter().position(|e| e.contains(text)))
        .ok_or_else(|| format!("the menu has no entry `{text}`: {}", entries.join("; ")))?;
    let presses = (target + entries.len() - selected % entries.len().max(1)) % entries.len();
    for _ in 0..presses {
        table.press(Button::Die);
    }
    match table.referee().screen() {
        Screen::Choice { selected, .. } if *selected == target => {
            table.press(Button::Ok);
            Ok(())
        }
        _ => Err(format!(
            "Die did not move the menu to `{text}`; the screen shows: {}",
            table.screen_text()
        )),
    }
}

/// Chooses `entry` from the game menus with the buttons, as a player would.
///
/// # Errors
/// The menus do not offer it.
pub fn choose_game(table: &mut SimTable, entry: &TableGameEntry) -> Result<(), String> {
    choose_entry(table, &entry.name)?;
    choose_entry(table, &entry.variant)
}

/// The table game's view, or an error naming what the OLED shows instead.
///
/// # Errors
/// No table game is in progress.
pub fn view(table: &SimTable) -> Result<&dyn TableView, String> {
    table.referee().table().ok_or_else(|| {
        format!(
            "no table game is in progress; the screen shows: {}",
            table.screen_text()
        )
    })
}

/// Puts a piece on each of `places` as one group (a piece going onto an occupied place: the
/// piece there is lifted and both put back, as on a stack), then presses OK.
///
/// # Errors
/// A hand could not act.
pub fn place_group(table: &mut SimTable, places: &[Place]) -> Result<(), String> {
    let hand = |e: crate::sim::HandError| e.to_string();
    let mut fresh = Vec::new();
    for place in places {
        if table.board.is_occupied(*place) {
            table.lift(*place).map_err(hand)?;
            table.place(*place, None).map_err(hand)?;
        } else {
            fresh.push((*place, None));
        }
    }
    table.place_many(&fresh).map_err(hand)?;
    table.press(Button::Ok);
    Ok(())
}

/// Sets up both sides group by group from the game's sample set-up drawn with `rng`.
///
/// # Errors
/// The game has no sample set-up, a hand could not act, or the referee did not start play.
pub fn set_up(table: &mut SimTable, rng: &mut impl Rng) -> Result<(), String> {
    set_up_with(table, |table, seat| {
        view(table)?
            .sample_groups(seat, &mut |n| rng.random_range(0..n.max(1)))
            .ok_or_else(|| "this game has no sample set-up".to_string())
    })
}

/// Sets up both sides group by group, each seat's groups (the places of each, in group order)
/// given by `groups` when the referee asks for that seat.
///
/// # Errors
/// `groups` failed, a hand could not act, or the referee did not start play.
pub fn set_up_with(
    table: &mut SimTable,
    mut groups: impl FnMut(&SimTable, Seat) -> Result<Vec<Vec<Place>>, String>,
) -> Result<(), String> {
    for _ in 0..2 {
        let (seat, _) = view(table)?
            .setup_step()
            .ok_or("the set-up is already finished")?;
        for places in groups(table, seat)? {
            place_group(table, &places)?;
        }
    }
    if !view(table)?.in_play() {
        return Err(format!(
            "the referee did not start the game after the set-up; it shows: {}",
            table.screen_text()
        ));
    }
    Ok(())
}

/// Makes the physical board what the referee expects (the hands following the OLED's steps).
///
/// # Errors
/// A hand could not act.
pub fn follow_hands(table: &mut SimTable) -> Result<(), String> {
    let v = view(table)?;
    let expected: BTreeSet<Place> = v.expected().into_keys().collect();
    let swaps = v.swaps();
    let sensed: BTreeSet<Place> = table.board.occupied_places().into_iter().collect();
    // With NFC, a block standing where the umpire expects another is moved too.
    let misplaced: BTreeSet<Place> = table.misplaced_blocks().into_iter().collect();
    let hand = |e: crate::sim::HandError| e.to_string();
    for place in sensed.difference(&expected).chain(&misplaced) {
        table.lift(*place).map_err(hand)?;
    }
    for place in expected.difference(&sensed).chain(&misplaced) {
        table.place_expected(*place).map_err(hand)?;
    }
    // A piece the hands must exchange for another on the same place.
    for place in swaps {
        if table.board.is_occupied(place) {
            table.lift(place).map_err(hand)?;
            table.place(place, None).map_err(hand)?;
        }
    }
    Ok(())
}

/// Makes `gesture` with the hands: the selected piece lifted and put back, the pieces lifted,
/// then the pieces placed. A gesture of lifts only (an attack, a shot) is held up for the
/// referee's attack hold, as a deliberate hand does.
///
/// # Errors
/// A hand could not act.
pub fn perform(table: &mut SimTable, gesture: &Gesture) -> Result<(), String> {
    let hand = |e: crate::sim::HandError| e.to_string();
    if let Some(place) = gesture.selected {
        table.lift(place).map_err(hand)?;
        table.place(place, None).map_err(hand)?;
    }
    for place in &gesture.lifted {
        table.lift(*place).map_err(hand)?;
    }
    for place in &gesture.placed {
        table.place(*place, None).map_err(hand)?;
    }
    table.wait(GESTURE_MS);
    if gesture.placed.is_empty() {
        table.wait(u64::from(RefereeConfig::default().attack_hold_ms));
    }
    Ok(())
}

/// One thing the bot's hands did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Did {
    /// A gesture, meaning the labelled action.
    Gesture(String),
    /// A menu choice.
    Chose(String),
    /// The Die button for a die the rules call for.
    Rolled,
    /// The hands followed the OLED's steps.
    Hands,
}

/// Plays one step of the game with random legal choices: follows pending hand steps, rolls a
/// due die, or makes a random legal action (attacks and fire preferred over moves, moves over
/// button actions). Returns `None` once the game is over.
///
/// # Errors
/// The referee did not take what the rules call legal, or a hand could not act.
pub fn bot_step(table: &mut SimTable, rng: &mut impl Rng) -> Result<Option<Did>, String> {
    let v = view(table)?;
    let sensed: BTreeSet<Place> = table.board.occupied_places().into_iter().collect();
    let expected: BTreeSet<Place> = v.expected().into_keys().collect();
    if sensed != expected || !v.swaps().is_empty() {
        follow_hands(table)?;
        return Ok(Some(Did::Hands));
    }
    if v.result().is_some() {
        return Ok(None);
    }
    if v.menu().is_some() {
        // A menu left open: close it.
        table.press(Button::Back);
        return Ok(Some(Did::Hands));
    }
    let before = v.actions().unwrap_or(0);
    if v.to_act() == Some(Actor::Chance) {
        if v.die_button() {
            table.press(Button::Die);
        } else {
            table.wait(GESTURE_MS);
        }
        let after = view(table)?.actions().unwrap_or(0);
        if after == before {
            return Err(format!(
                "the referee rolled nothing for the pending chance; it shows: {}",
                table.screen_text()
            ));
        }
        return Ok(Some(Did::Rolled));
    }
    let gestures = v.gestures();
    let choices = v.choices();
    let weight = |g: &Gesture| {
        if g.selected.is_some() || g.lifted.len() == 2 {
            12
        } else {
            3
        }
    };
    let total: u32 = gestures.iter().map(|(g, _)| weight(g)).sum::<u32>()
        + u32::try_from(choices.len()).unwrap_or(u32::MAX);
    if total == 0 {
        return Err(format!(
            "the side to act has no legal action and the game is not over; the screen shows: {}",
            table.screen_text()
        ));
    }
    let mut pick = rng.random_range(0..total);
    let mut chosen = None;
    for (g, label) in &gestures {
        let w = weight(g);
        if pick < w {
            chosen = Some((Some(g.clone()), label.clone()));
            break;
        }
        pick -= w;
    }
    let (gesture, label) = match chosen {
        Some(c) => c,
        None => {
            let i = usize::try_from(pick).unwrap_or(0).min(choices.len() - 1);
            (None, choices[i].clone())
        }
    };
    let did = match gesture {
        Some(g) => {
            perform(table, &g)?;
            if view(table)?.menu().is_some() {
                choose_entry(table, &label)?;
            }
            Did::Gesture(label)
        }
        None => {
            table.press(Button::Ok);
            choose_entry(table, &label)?;
            Did::Chose(label)
        }
    };
    let after = view(table)?.actions().unwrap_or(0);
    if after == before {
        return Err(format!(
            "the referee did not take `{}`; it shows: {}",
            match &did {
                Did::Gesture(l) | Did::Chose(l) => l.as_str(),
                _ => "",
            },
            table.screen_text()
        ));
    }
    Ok(Some(did))
}

/// How a table-game demo went.
#[derive(Debug)]
pub struct TablePlayed {
    /// Actions played (chance outcomes included).
    pub actions: u32,
    /// The result, when the game ended: (who won or "Draw", why).
    pub result: Option<(String, String)>,
    /// The referee's journal (the bytes of its file).
    pub journal: Vec<u8>,
    /// OLED frames written.
    pub frames: u32,
    /// Every input the simulated board fed its sensing model, from the first button press: a
    /// fresh [`firmware::pipeline::Pipeline`] on the game's layout fed these plays the same game.
    pub inputs: Vec<crate::sim::Sensed>,
    /// Every screen the OLED showed, in order.
    pub screens: Vec<firmware::ui::Screen>,
}

/// A whole seeded game of `entry` between two random bots on the simulated table, told action by
/// action with every OLED screen (`OLED|` lines; with `frames`, PNGs too). Stops after
/// `max_actions` actions if the game has not ended.
///
/// # Errors
/// [`crate::demo::Error::Table`]: the table and the referee disagreed (a bug);
/// [`crate::demo::Error::Write`]: writing the report failed (a closed pipe among them).
pub fn demo(
    entry: &TableGameEntry,
    seed: u64,
    max_actions: u32,
    quiet: bool,
    frames: Option<&std::path::Path>,
    out: &mut impl std::io::Write,
) -> Result<TablePlayed, crate::demo::Error> {
    demo_served(entry, seed, max_actions, quiet, frames, None, out)
}

/// [`demo`] served to the phone pages (`demo --serve`), as [`crate::demo::run_served`] serves
/// a Stratego: played at `serve`'s pace with every change published, the pages' addresses
/// printed once the game is chosen, and the OLED handing out each seat's code (the demo's hands
/// press OK for each seat in turn).
///
/// # Errors
/// As [`demo`].
pub fn demo_served(
    entry: &TableGameEntry,
    seed: u64,
    max_actions: u32,
    quiet: bool,
    frames: Option<&std::path::Path>,
    serve: Option<crate::demo::Serve>,
    out: &mut impl std::io::Write,
) -> Result<TablePlayed, crate::demo::Error> {
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut table = SimTable::with_layout(entry.referee_config(), seed, entry.layout())
        .map_err(|p| format!("the simulated board's layout: {p}"))?;
    table.board.record();
    let mut oled = crate::demo::Oled {
        print: !quiet,
        frames,
        written: 0,
        seen: Vec::new(),
        leds: crate::leds::SimLeds::new().map_err(|e| e.to_string())?,
        pace: serve.as_ref().map(|s| s.pace),
    };
    let address = serve.as_ref().map(|s| s.address.clone());
    if let Some(serve) = serve {
        table.set_web(Some(serve.publisher));
        table.set_handout(serve.handout);
    }
    writeln!(
        out,
        "{}: {} — seed {seed}, two random bots, physical events only",
        entry.name, entry.variant
    )?;
    choose_game(&mut table, entry)?;
    if let Some(address) = address {
        crate::demo::write_addresses(&table, &address, out)?;
    }
    crate::demo::tell(&mut table, &mut oled, out)?;
    // Each seat in turn: OK shows its code, OK hides it and asks the next.
    while table.handing_out() {
        if matches!(table.oled_screen(), Screen::PhoneAsk { .. }) {
            table.wait(firmware::web::handout::ASK_CALM_MS);
        }
        table.press(Button::Ok);
        crate::demo::tell(&mut table, &mut oled, out)?;
    }
    set_up(&mut table, &mut rng)?;
    crate::demo::tell(&mut table, &mut oled, out)?;
    let mut steps = 0u32;
    loop {
        let actions = view(&table)?.actions().unwrap_or(0);
        if actions >= max_actions || steps > max_actions.saturating_mul(4) {
            break;
        }
        steps += 1;
        let did = bot_step(&mut table, &mut rng)?;
        let told = table.take_told();
        for t in &told {
            match t {
                crate::sim::Told::Decision(firmware::referee::Decision::Acted {
                    actor,
                    action,
                }) => {
                    let who = match actor {
                        Actor::Seat(s) => format!("seat {}", s.index() + 1),
                        Actor::Chance => "chance".to_string(),
                        Actor::Nobody => "nobody".to_string(),
                    };
                    if !quiet {
                        writeln!(out, "{who:>8}: {action}")?;
                    }
                }
                crate::sim::Told::Decision(firmware::referee::Decision::GameOver {
                    result,
                    reason,
                }) => {
                    writeln!(out, "Game over: {result} ({reason})")?;
                }
                crate::sim::Told::Screen(screen) => {
                    oled.show(screen, out)?;
                    oled.show_leds(&table, screen)?;
                    if let Some(pace) = oled.pace {
                        out.flush()?;
                        std::thread::sleep(pace);
                    }
                }
                crate::sim::Told::Decision(_) => {}
            }
        }
        if did.is_none() {
            break;
        }
    }
    let v = view(&table)?;
    let result = v.result();
    let actions = v.actions().unwrap_or(0);
    match &result {
        Some((r, why)) => writeln!(out, "Result: {r} ({why}) after {actions} actions"),
        None => writeln!(out, "Stopped after {actions} actions without a result"),
    }?;
    Ok(TablePlayed {
        actions,
        result,
        journal: table.journal_bytes(),
        frames: oled.written,
        inputs: table.board.take_recording(),
        screens: oled.seen,
    })
}
