//! A simulated table: a board of reed switches (and optional NFC readers) under physical pieces,
//! scanned every 10 ms into the firmware's own [`Pipeline`] (its [`Sensing`] model and
//! [`Referee`]) exactly as the `umpire` service scans the Pi's board into it. "Hands" act on it
//! with physical events only: lift a piece, place a piece, press or hold a button, wait, cut the
//! power.

use std::collections::BTreeMap;
use std::fmt;

use boards::stratego::Square;
use boards::Problems;
use firmware::drivers::buttons::ButtonsConfig;
use firmware::journal::MemStore;
use firmware::pipeline::{self, Pipeline};
use firmware::referee::{screen_text, Decision, Referee, RefereeConfig, ResumeError, SeededChance};
use firmware::sensing::{
    Button, ButtonPress, LayoutProblem, LayoutSetup, Millis, Occupancy, OccupancyFrame, Place,
    SensedCell, Sensing, SensingConfig, SensorInput, SensorLayout, TagRead, TagUid,
};
use firmware::ui::Screen;

/// How often the simulated scanner reads the switches, in ms.
pub const SCAN_MS: u64 = 10;
/// How long the hands wait after each lift or placement, in ms: long enough for the sensing
/// model's debounce and settle window (170 ms with the defaults) to report it.
pub const GESTURE_MS: u64 = 250;

/// The referee as the simulator runs it: journal in memory, chance from a seed.
pub type SimReferee = Referee<MemStore, SeededChance>;

/// A hand could not do what it was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandError {
    /// Nothing stands there to lift.
    NothingThere(Place),
    /// A piece already stands there.
    Occupied(Place),
    /// The board has no sensor at that place.
    NoSuchPlace(Place),
}

impl fmt::Display for HandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandError::NothingThere(p) => write!(f, "there is no piece on {p} to lift"),
            HandError::Occupied(p) => {
                write!(f, "a piece already stands on {p}: lift it first")
            }
            HandError::NoSuchPlace(p) => write!(f, "the board has no sensor at {p}"),
        }
    }
}

impl std::error::Error for HandError {}

/// The physical board: which places hold a piece (and which tag it carries), the NFC reader's
/// scripted faults and the clock. It senses nothing itself: [`SimTable`] scans it into the
/// firmware's [`Pipeline`] the way the `umpire` service scans the real switches.
#[derive(Debug)]
pub struct SimBoard {
    layout: SensorLayout,
    occupied: Occupancy,
    tags: BTreeMap<Place, TagUid>,
    /// Scripted faults: the answer the reader gives at the next read of a place, instead of
    /// the tag standing there (a misread, a missing answer, a tag registered to nothing).
    read_faults: BTreeMap<Place, Result<TagUid, firmware::sensing::TagFailure>>,
    now: Millis,
    /// When a switch last changed: frames are scanned around changes, ticks in between.
    last_change: Millis,
    /// Every input fed to the pipeline, while recording.
    recording: Option<Vec<Sensed>>,
}

/// One input the simulated table fed the firmware's [`Pipeline`]: what a real board's scan
/// loop feeds it. Recorded, they replay the same stretch of a game through a fresh pipeline
/// (see [`feed_recorded`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sensed {
    /// A scan of the switches ([`Pipeline::scan`]).
    Frame(OccupancyFrame),
    /// A tag read the pipeline asked for during the frame before it.
    Tag(firmware::sensing::SensorInput),
    /// A button press ([`Pipeline::press`]).
    Press(ButtonPress),
    /// Time passing with no scan ([`Pipeline::idle`]).
    Tick(Millis),
    /// A button held for the long-press time ([`Pipeline::hold`]).
    Hold(ButtonPress),
}

/// What the scanner does at its next pass.
enum Scan {
    /// Reads the switches: one changed in the last four scans.
    Frame(OccupancyFrame),
    /// Nothing changed lately: time passes with no scan.
    Quiet(Millis),
}

impl SimBoard {
    /// A 10x10 Stratego board, NFC readers under every square when `nfc`.
    ///
    /// # Errors
    /// The layout's problems (none for the built-in grid).
    pub fn stratego(nfc: bool) -> Result<SimBoard, Problems<LayoutProblem>> {
        SimBoard::with_layout(stratego_layout(nfc))
    }

    /// A board sensing the places of `setup` (a game's grid and trays).
    ///
    /// # Errors
    /// The layout's problems.
    pub fn with_layout(setup: LayoutSetup) -> Result<SimBoard, Problems<LayoutProblem>> {
        Ok(SimBoard {
            layout: SensorLayout::new(setup)?,
            occupied: Occupancy::EMPTY,
            tags: BTreeMap::new(),
            read_faults: BTreeMap::new(),
            now: Millis(0),
            last_change: Millis(0),
            recording: None,
        })
    }

    /// Starts recording every input fed to the pipeline. A power cut starts a new pipeline:
    /// the inputs after [`SimTable::power_on`] replay into the resumed one, not the first.
    pub fn record(&mut self) {
        self.recording = Some(Vec::new());
    }

    /// The inputs recorded so far (recording goes on).
    pub fn take_recording(&mut self) -> Vec<Sensed> {
        self.recording
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    fn log(&mut self, input: Sensed) {
        if let Some(r) = self.recording.as_mut() {
            r.push(input);
        }
    }

    /// The time now.
    pub fn now(&self) -> Millis {
        self.now
    }

    /// Whether a piece stands on `place`.
    pub fn is_occupied(&self, place: Place) -> bool {
        self.layout
            .cell(place)
            .is_some_and(|c| self.occupied.contains(c))
    }

    /// The occupied places.
    pub fn occupied_places(&self) -> Vec<Place> {
        self.layout
            .iter()
            .filter(|(c, _)| self.occupied.contains(*c))
            .map(|(_, p)| p)
            .collect()
    }

    /// Whether a hand could put a piece on `place` (`on`) or lift the one there, checked as a
    /// hand's step checks it, without doing it.
    ///
    /// # Errors
    /// [`HandError`]: no sensor there, a piece already there, or nothing to lift.
    pub fn can_set(&self, place: Place, on: bool) -> Result<(), HandError> {
        let cell = self
            .layout
            .cell(place)
            .ok_or(HandError::NoSuchPlace(place))?;
        match (on, self.occupied.contains(cell)) {
            (true, true) => Err(HandError::Occupied(place)),
            (false, false) => Err(HandError::NothingThere(place)),
            _ => Ok(()),
        }
    }

    fn set(&mut self, place: Place, on: bool, tag: Option<TagUid>) -> Result<(), HandError> {
        let cell = self
            .layout
            .cell(place)
            .ok_or(HandError::NoSuchPlace(place))?;
        match (on, self.occupied.contains(cell)) {
            (true, true) => return Err(HandError::Occupied(place)),
            (false, false) => return Err(HandError::NothingThere(place)),
            _ => {}
        }
        self.occupied.set(cell, on);
        if !on {
            self.read_faults.remove(&place);
        }
        match tag {
            Some(uid) if on => {
                self.tags.insert(place, uid);
            }
            _ => {
                self.tags.remove(&place);
            }
        }
        self.last_change = self.now;
        Ok(())
    }

    /// Moves the clock one scan period on, not past `end`: a frame of the switches when one
    /// changed in the last four scans, else quiet time.
    fn next_scan(&mut self, end: u64) -> Scan {
        self.now = Millis((self.now.0 + SCAN_MS).min(end));
        if self.now.since(self.last_change) <= 4 * SCAN_MS {
            Scan::Frame(OccupancyFrame {
                at: self.now,
                occupied: self.occupied,
            })
        } else {
            Scan::Quiet(self.now)
        }
    }

    /// The reader's answers at `at` for `cells`: a scripted fault, else the tag standing
    /// there, else no tag.
    fn read_tags(&mut self, cells: &[SensedCell], at: Millis) -> Vec<SensorInput> {
        cells
            .iter()
            .map(|&cell| {
                let place = self.layout.place(cell);
                let fault = place.and_then(|p| self.read_faults.remove(&p));
                let result = fault.unwrap_or_else(|| {
                    place
                        .and_then(|p| self.tags.get(&p).copied())
                        .ok_or(firmware::sensing::TagFailure::NoTag)
                });
                TagRead { at, cell, result }.into()
            })
            .collect()
    }

    /// The tag of the piece standing on `place`, if it carries one.
    pub fn tag_at(&self, place: Place) -> Option<TagUid> {
        self.tags.get(&place).copied()
    }

    /// Makes the reader under `place` answer `answer` at its next read there, whatever
    /// stands on it (lifting the piece first cancels it): a scripted NFC fault.
    pub fn fault_next_read(
        &mut self,
        place: Place,
        answer: Result<TagUid, firmware::sensing::TagFailure>,
    ) {
        self.read_faults.insert(place, answer);
    }

    /// The sensor layout (a 10x10 grid, cell = row * 10 + column).
    pub fn layout(&self) -> &SensorLayout {
        &self.layout
    }
}

/// The 10x10 Stratego grid, with NFC readers under every square when `nfc`.
pub fn stratego_layout(nfc: bool) -> LayoutSetup {
    let setup = LayoutSetup::grid(10, 10);
    if nfc {
        setup.with_tag_readers_everywhere()
    } else {
        setup
    }
}

/// One line the table produced: a screen the OLED showed, or a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Told {
    /// The OLED changed to this screen.
    Screen(Screen),
    /// The referee decided this.
    Decision(Decision),
}

/// The firmware's pipeline as the simulator runs it: journal in memory, chance from a seed.
pub type SimPipeline = Pipeline<MemStore, SeededChance>;

/// The simulated board under the firmware's own [`Pipeline`] (sensing model, referee, screen),
/// driven as the `umpire` service drives it: a scan every [`SCAN_MS`] around changes with the
/// tag reads it asks for, idle time in between, button presses and holds.
#[derive(Debug)]
pub struct SimTable {
    /// The physical board.
    pub board: SimBoard,
    pipeline: SimPipeline,
    told: Vec<Told>,
    config: RefereeConfig,
    seed: u64,
    /// False between [`SimTable::power_off`] and [`SimTable::power_on`].
    powered: bool,
    /// With NFC readers: the tags of the pieces lifted and not yet put down, in the order
    /// lifted.
    hand: Vec<TagUid>,
    /// With NFC readers: how many new tagged pieces came out of the box (see
    /// [`SimTable::place`]).
    fresh: u32,
    /// The phone pages' publisher, if the table is served (`--serve`).
    web: Option<firmware::web::Publisher>,
    /// The seats' phone codes handed out on the OLED, if set, and what it last showed.
    handout: Option<(firmware::web::handout::Handout, Option<Screen>)>,
}

impl SimTable {
    /// A table with a fresh umpire at the game-select menu.
    ///
    /// # Errors
    /// The layout's problems (none for the built-in grid).
    pub fn new(
        config: RefereeConfig,
        seed: u64,
        nfc: bool,
    ) -> Result<SimTable, Problems<LayoutProblem>> {
        SimTable::with_layout(config, seed, stratego_layout(nfc))
    }

    /// A table whose board senses the places of `layout` (see
    /// [`firmware::referee::games::layout`] for a table game's).
    ///
    /// # Errors
    /// The layout's problems.
    pub fn with_layout(
        config: RefereeConfig,
        seed: u64,
        layout: LayoutSetup,
    ) -> Result<SimTable, Problems<LayoutProblem>> {
        let board = SimBoard::with_layout(layout)?;
        let referee = Referee::new(config.clone(), SeededChance::new(seed), || {
            Ok(MemStore::new())
        });
        let sensing = Sensing::new(board.layout.clone(), SensingConfig::default());
        let mut table = SimTable {
            board,
            pipeline: Pipeline::new(sensing, referee),
            told: Vec::new(),
            config,
            seed,
            powered: true,
            hand: Vec::new(),
            fresh: 0,
            web: None,
            handout: None,
        };
        table.note(&[], &mut Vec::new());
        Ok(table)
    }

    /// The umpire: the referee in the pipeline.
    pub fn referee(&self) -> &SimReferee {
        self.pipeline.referee()
    }

    /// The firmware pipeline the board is scanned into.
    pub fn pipeline(&self) -> &SimPipeline {
        &self.pipeline
    }

    /// Whether the board has NFC readers (pieces then carry their tags from hand to place).
    pub fn has_readers(&self) -> bool {
        self.board
            .layout
            .iter()
            .any(|(cell, _)| self.board.layout.has_tag_reader(cell))
    }

    /// Takes `place`'s piece into the hand: its tag goes with it.
    fn take_up(&mut self, place: Place) -> Result<(), HandError> {
        let tag = self.board.tag_at(place);
        self.board.set(place, false, None)?;
        if let (true, Some(uid)) = (self.has_readers(), tag) {
            self.hand.push(uid);
        }
        Ok(())
    }

    /// The tag of the piece a hand puts on `place` when the caller names none: with NFC
    /// readers, the piece in hand the umpire expects there (Stratego), else the last one
    /// lifted, else a new piece from the box with its own new tag. Without readers, none.
    fn tag_for(&mut self, place: Place) -> Option<TagUid> {
        if !self.has_readers() {
            return None;
        }
        let expected = match (place, self.referee().position()) {
            (Place::Square(cell), Some(pos)) => {
                Square::from_cell(cell).and_then(|s| pos.piece_at(s))
            }
            _ => None,
        };
        let pick = expected
            .and_then(|want| {
                self.hand
                    .iter()
                    .rposition(|uid| self.config.tags.get(uid) == Some(want))
            })
            .or_else(|| self.hand.len().checked_sub(1));
        if let Some(i) = pick {
            return Some(self.hand.remove(i));
        }
        self.fresh = self.fresh.wrapping_add(1);
        let [a, b, c, d] = self.fresh.to_be_bytes();
        TagUid::new(&[0x04, 0xB0, a, b, c, d]).ok()
    }

    /// Puts on `place` the block in hand the umpire expects there (a Napoléon block, with NFC
    /// readers), as a hand following the OLED's steps does; else as [`SimTable::place`].
    ///
    /// # Errors
    /// [`HandError`] when the place is taken.
    pub fn place_expected(&mut self, place: Place) -> Result<Vec<Decision>, HandError> {
        let block = self.expected_block(place);
        let pick = block.and_then(|block| {
            self.hand.iter().rposition(|uid| {
                self.config
                    .tags
                    .block(uid)
                    .is_some_and(|name| name.eq_ignore_ascii_case(&block))
            })
        });
        let tag = pick.map(|i| self.hand.remove(i));
        self.place(place, tag)
    }

    /// With NFC readers, the places whose piece carries the tag of another Napoléon block than
    /// the one the umpire expects there: a hand following the OLED's steps ("board 1 attacker
    /// reserve 2 to board 1 attacker reserve 1") moves those too, though the switches see the
    /// same places filled.
    pub fn misplaced_blocks(&self) -> Vec<Place> {
        if !self.has_readers() {
            return Vec::new();
        }
        self.board
            .occupied_places()
            .into_iter()
            .filter(|p| {
                let (Some(want), Some(uid)) = (self.expected_block(*p), self.board.tag_at(*p))
                else {
                    return false;
                };
                self.config
                    .tags
                    .block(&uid)
                    .is_some_and(|name| !name.eq_ignore_ascii_case(&want))
            })
            .collect()
    }

    /// The Napoléon block the umpire expects on `place` (its name), when a Napoléon game is in
    /// play: the block a hand following the OLED's steps puts there.
    fn expected_block(&self, place: Place) -> Option<String> {
        use firmware::referee::games::napoleon::NapoleonTable;
        use firmware::referee::table::Session;
        let session = self
            .referee()
            .table_session()?
            .downcast_ref::<Session<NapoleonTable>>()?;
        let game = session.game()?;
        let oob = session.choice().set.campaign().order_of_battle();
        oob.blocks()
            .find(|(id, _)| game.place_of(*id) == Some(place))
            .map(|(_, b)| b.name.clone())
    }

    /// Cuts the power: until [`SimTable::power_on`], hands still move pieces but nobody senses
    /// them, and the referee in memory is lost (only its journal survives).
    pub fn power_off(&mut self) {
        self.powered = false;
    }

    /// Restores power: a sensing model boots on the board as it stands
    /// ([`pipeline::boot`], as the `umpire` service boots), the referee resumes from the
    /// journal (with `torn` bytes of a half-written record appended, as a power cut mid-write
    /// leaves them) and what the sensing model reports, and the two make a new pipeline.
    ///
    /// # Errors
    /// Why the journal could not be resumed (the old pipeline stays, unpowered).
    pub fn power_on(&mut self, torn: &[u8]) -> Result<Vec<Decision>, ResumeError> {
        let mut bytes = self.journal_bytes();
        bytes.extend_from_slice(torn);
        // The board boots as the service's does: the sensing model comes up on the board as
        // it stands (scanned every SCAN_MS, the standing pieces' tags read once) before the
        // referee resumes with what it reports.
        let board = std::cell::RefCell::new(&mut self.board);
        let layout = board.borrow().layout.clone();
        let booted = pipeline::boot(
            layout,
            SensingConfig::default(),
            || {
                let mut board = board.borrow_mut();
                board.now = Millis(board.now.0 + SCAN_MS);
                Some(OccupancyFrame {
                    at: board.now,
                    occupied: board.occupied,
                })
            },
            |cells| {
                let mut board = board.borrow_mut();
                let at = board.now;
                board.read_tags(cells, at)
            },
        );
        let (referee, mut decisions) = Referee::resume(
            self.config.clone(),
            SeededChance::new(self.seed.wrapping_add(1)),
            || Ok(MemStore::new()),
            MemStore::from_bytes(bytes),
            booted.places(),
            booted.at(),
        )?;
        let (pipeline, told) = booted.pipeline(referee);
        decisions.extend(told);
        self.pipeline = pipeline;
        self.powered = true;
        let mut out = Vec::new();
        self.note(&decisions, &mut out);
        Ok(out)
    }

    /// Lets `ms` pass: while powered, the board is scanned into the pipeline every
    /// [`SCAN_MS`] around changes (answering the tag reads it asks for), idle in between.
    fn run(&mut self, ms: u64) -> Vec<Decision> {
        let mut out = Vec::new();
        if !self.powered {
            self.board.now = self.board.now.plus(u32::try_from(ms).unwrap_or(u32::MAX));
            return out;
        }
        let end = self.board.now.0 + ms;
        while self.board.now.0 < end {
            let decisions = match self.board.next_scan(end) {
                Scan::Frame(frame) => {
                    self.board.log(Sensed::Frame(frame));
                    let board = &mut self.board;
                    self.pipeline.scan(frame.at, frame.occupied, |cells| {
                        let reads = board.read_tags(cells, frame.at);
                        for read in &reads {
                            board.log(Sensed::Tag(*read));
                        }
                        reads
                    })
                }
                Scan::Quiet(at) => {
                    self.board.log(Sensed::Tick(at));
                    self.pipeline.idle(at)
                }
            };
            self.note(&decisions, &mut out);
        }
        out
    }

    /// Tells `decisions`, and the screen when the pipeline has a new one for the OLED.
    fn note(&mut self, decisions: &[Decision], out: &mut Vec<Decision>) {
        for d in decisions {
            self.told.push(Told::Decision(d.clone()));
            out.push(d.clone());
        }
        if let Some(screen) = self.pipeline.new_screen() {
            self.told.push(Told::Screen(screen.clone()));
        }
        if let Some(web) = self.web.as_mut() {
            web.update(self.pipeline.referee(), self.pipeline.screen());
            if let Some((handout, shown)) = self.handout.as_mut() {
                // As the service does: the codes cover the OLED only while handed out.
                let sensed = self.pipeline.referee().sensed();
                handout.follow(web, sensed);
                handout.tick(self.board.now);
                if decisions.contains(&Decision::PhonePages) {
                    handout.open(web, sensed);
                }
                let now = handout.screen();
                if now != *shown {
                    let screen = now
                        .clone()
                        .unwrap_or_else(|| self.pipeline.screen().clone());
                    self.told.push(Told::Screen(screen));
                    *shown = now;
                }
            }
        }
    }

    /// Hands the seats their phone codes on the OLED, as the service does
    /// ([`firmware::web::handout`]); needs [`SimTable::set_web`].
    pub fn set_handout(&mut self, handout: Option<firmware::web::handout::Handout>) {
        self.handout = handout.map(|h| (h, None));
        self.note(&[], &mut Vec::new());
    }

    /// What the OLED shows now: the phone codes while handed out, else the referee's screen.
    pub fn oled_screen(&self) -> Screen {
        self.handout
            .as_ref()
            .and_then(|(h, _)| h.screen())
            .unwrap_or_else(|| self.pipeline.screen().clone())
    }

    /// Whether the phone codes are being handed out (they take the buttons).
    pub fn handing_out(&self) -> bool {
        self.handout.as_ref().is_some_and(|(h, _)| h.is_open())
    }

    /// A button pressed while the codes are handed out: theirs (true), or the referee's.
    fn handout_press(&mut self, button: Button) -> bool {
        let (Some((handout, _)), Some(web)) = (self.handout.as_mut(), self.web.as_ref()) else {
            return false;
        };
        if !handout.press(button, web) {
            return false;
        }
        self.note(&[], &mut Vec::new());
        true
    }

    /// Publishes the table to the phone pages ([`firmware::web`]) after every change, as the
    /// `umpire` service does after every step; the table as it stands at once.
    pub fn set_web(&mut self, web: Option<firmware::web::Publisher>) {
        self.web = web;
        self.note(&[], &mut Vec::new());
    }

    /// The phone pages' publisher, if the table is served.
    pub fn web(&self) -> Option<&firmware::web::Publisher> {
        self.web.as_ref()
    }

    /// The referee's journal as it stands (empty before a game is chosen).
    pub fn journal_bytes(&self) -> Vec<u8> {
        self.referee()
            .journal()
            .map(|j| j.store().as_bytes().to_vec())
            .unwrap_or_default()
    }

    /// Everything told since the last call.
    pub fn take_told(&mut self) -> Vec<Told> {
        std::mem::take(&mut self.told)
    }

    /// Lifts the piece on `place` and waits for the board to report it.
    ///
    /// # Errors
    /// [`HandError`] when there is nothing to lift.
    pub fn lift(&mut self, place: Place) -> Result<Vec<Decision>, HandError> {
        self.take_up(place)?;
        Ok(self.run(GESTURE_MS))
    }

    /// Places a piece (with `tag`, on an NFC board) on `place` and waits for the report.
    /// With no `tag` on an NFC board, the piece comes from the hand (see [`SimTable::lift`]):
    /// the one the umpire expects there, else the last lifted, else a new tagged piece.
    ///
    /// # Errors
    /// [`HandError`] when a piece already stands there.
    pub fn place(&mut self, place: Place, tag: Option<TagUid>) -> Result<Vec<Decision>, HandError> {
        if self.board.is_occupied(place) {
            return Err(HandError::Occupied(place));
        }
        let tag = tag.or_else(|| self.tag_for(place));
        self.board.set(place, true, tag)?;
        Ok(self.run(GESTURE_MS))
    }

    /// Places several pieces one after another, 60 ms apart, then waits for the board to
    /// settle: a hand setting out a rank group.
    ///
    /// # Errors
    /// [`HandError`] when a place is taken.
    pub fn place_many(
        &mut self,
        places: &[(Place, Option<TagUid>)],
    ) -> Result<Vec<Decision>, HandError> {
        let mut out = Vec::new();
        for (place, tag) in places {
            if self.board.is_occupied(*place) {
                return Err(HandError::Occupied(*place));
            }
            let tag = tag.or_else(|| self.tag_for(*place));
            self.board.set(*place, true, tag)?;
            out.extend(self.run(60));
        }
        out.extend(self.run(GESTURE_MS));
        Ok(out)
    }

    /// Slides a piece from the first place over the middle ones to the last without lifting
    /// it: each square passed over closes its switch for 60 ms (less than the settle window).
    ///
    /// # Errors
    /// [`HandError`] when the path starts empty or crosses a piece.
    pub fn slide(&mut self, path: &[Place]) -> Result<Vec<Decision>, HandError> {
        let mut out = Vec::new();
        let Some((first, rest)) = path.split_first() else {
            return Ok(out);
        };
        let Some((last, middle)) = rest.split_last() else {
            return Ok(out);
        };
        self.take_up(*first)?;
        out.extend(self.run(40));
        for place in middle {
            self.board.set(*place, true, None)?;
            out.extend(self.run(60));
            self.board.set(*place, false, None)?;
            out.extend(self.run(20));
        }
        if self.board.is_occupied(*last) {
            return Err(HandError::Occupied(*last));
        }
        let tag = self.tag_for(*last);
        self.board.set(*last, true, tag)?;
        out.extend(self.run(GESTURE_MS));
        Ok(out)
    }

    /// Lifts the piece on `place` and puts it straight back, within the settle window (80 ms):
    /// the sensing model reports nothing.
    ///
    /// # Errors
    /// [`HandError`] when there is nothing to lift.
    pub fn nudge(&mut self, place: Place) -> Result<Vec<Decision>, HandError> {
        let tag = self.board.tag_at(place);
        self.board.set(place, false, None)?;
        let mut out = self.run(80);
        self.board.set(place, true, tag)?;
        out.extend(self.run(GESTURE_MS));
        Ok(out)
    }

    /// Presses `button`, then lets 50 ms pass.
    pub fn press(&mut self, button: Button) -> Vec<Decision> {
        if !self.powered {
            return Vec::new();
        }
        let press = ButtonPress {
            at: self.board.now,
            button,
        };
        self.board.log(Sensed::Press(press));
        if self.handout_press(button) {
            return self.run(50);
        }
        let decisions = self.pipeline.press(press.at, button);
        let mut out = Vec::new();
        self.note(&decisions, &mut out);
        out.extend(self.run(50));
        out
    }

    /// Holds `button` down for the buttons driver's long-press time (the time passes first:
    /// the service hands a held press on only then), then lets 50 ms pass.
    pub fn hold(&mut self, button: Button) -> Vec<Decision> {
        if !self.powered {
            return Vec::new();
        }
        // The default always has a long-press time; without one no press is ever held.
        let held_ms = ButtonsConfig::default().long_press_ms.map_or(0, u64::from);
        let mut out = self.run(held_ms);
        let press = ButtonPress {
            at: self.board.now,
            button,
        };
        self.board.log(Sensed::Hold(press));
        if self.handout_press(button) {
            out.extend(self.run(50));
            return out;
        }
        let decisions = self.pipeline.hold(press.at, button);
        self.note(&decisions, &mut out);
        out.extend(self.run(50));
        out
    }

    /// Lets `ms` pass with nobody touching anything.
    pub fn wait(&mut self, ms: u64) -> Vec<Decision> {
        self.run(ms)
    }

    /// The OLED's words now, on one line.
    pub fn screen_text(&self) -> String {
        screen_text(self.pipeline.screen())
    }
}

/// The place of a square.
pub fn square_place(square: Square) -> Place {
    Place::Square(square.cell())
}

/// Feeds recorded inputs (from [`SimBoard::record`]) to `pipeline` as a real scan loop would:
/// each frame with the tag reads that followed it, presses and idle ticks in order. `each` is
/// called after every input, with the pipeline, to look at its screen or decisions.
pub fn feed_recorded<S, C>(
    pipeline: &mut firmware::pipeline::Pipeline<S, C>,
    inputs: &[Sensed],
    mut each: impl FnMut(&mut firmware::pipeline::Pipeline<S, C>),
) where
    S: firmware::journal::Store,
    C: firmware::referee::Chance,
{
    let mut inputs = inputs.iter().peekable();
    while let Some(input) = inputs.next() {
        match input {
            Sensed::Frame(frame) => {
                let mut tags = Vec::new();
                while let Some(Sensed::Tag(t)) = inputs.peek() {
                    tags.push(*t);
                    inputs.next();
                }
                pipeline.scan(frame.at, frame.occupied, |_| std::mem::take(&mut tags));
            }
            // A read with no frame before it cannot come from a scan loop: nothing to feed.
            Sensed::Tag(_) => {}
            Sensed::Press(p) => {
                pipeline.press(p.at, p.button);
            }
            Sensed::Tick(at) => {
                pipeline.idle(*at);
            }
            Sensed::Hold(p) => {
                pipeline.hold(p.at, p.button);
            }
        }
        each(pipeline);
    }
}
