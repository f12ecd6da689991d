//! The rules of Sa Belle Alliance: phases, actions, die rolls, casualties, morale, rout tests,
//! time and control boxes.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::army::{seat_name, seat_of, Army, ALLIED, FRENCH};
use super::cards::{
    control_in, used_in, ActionId, Card, CardAction, CardId, CardSet, Condition, ControlId,
    Effects, Mark,
};
use super::phase::{EndReason, Phase, RoutHow};
use super::view::View;
use super::Options;
use crate::decode::OutOfRange;
use crate::{Actor, BySeat, Game, Problems, Seat, Status};

/// A face of the d6, 1 to 6; decodes only in that range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8")]
pub struct Face(u8);

impl Face {
    /// The six faces, each rolled with the same weight.
    pub const ALL: [Face; 6] = [Face(1), Face(2), Face(3), Face(4), Face(5), Face(6)];

    /// The face showing `pips`, if it is 1 to 6.
    pub const fn new(pips: u8) -> Option<Face> {
        if pips >= 1 && pips <= 6 {
            Some(Face(pips))
        } else {
            None
        }
    }

    /// The pips showing.
    pub const fn pips(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for Face {
    type Error = OutOfRange;
    fn try_from(pips: u8) -> Result<Face, OutOfRange> {
        Face::new(pips).ok_or(OutOfRange::new("a die face", pips, "1 to 6"))
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Something a player, or chance, does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// The phasing player activates `card` for its action `action` against `target` (one of
    /// the action's targets; `None` when it lists none), with Napoleon (French, once a game).
    Activate {
        /// The card activated.
        card: CardId,
        /// Which of its actions.
        action: ActionId,
        /// The enemy card targeted.
        target: Option<CardId>,
        /// Napoleon makes the action more effective: his modifier is added to the die roll.
        napoleon: bool,
    },
    /// Chance: the d6 shows this face (the action's die, or a rout test).
    Roll(Face),
    /// The owner takes the casualty from this card's box, the targeted one being empty.
    TakeFrom(CardId),
    /// No card can be activated: the phase passes (legal only then).
    Pass,
}

impl Action {
    /// Activate `card`'s action number `action` against `target`, without Napoleon.
    pub fn activate(card: CardId, action: u8, target: Option<CardId>) -> Action {
        Action::Activate {
            card,
            action: ActionId::new(action),
            target,
            napoleon: false,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Activate {
                card,
                action,
                target,
                napoleon,
            } => {
                write!(f, "card {} action {}", card.index() + 1, action.index() + 1)?;
                if let Some(t) = target {
                    write!(f, " against card {}", t.index() + 1)?;
                }
                if napoleon {
                    f.write_str(" with Napoleon")?;
                }
                Ok(())
            }
            Action::Roll(face) => write!(f, "die: {face}"),
            Action::TakeFrom(card) => write!(f, "casualty from card {}", card.index() + 1),
            Action::Pass => f.write_str("pass"),
        }
    }
}

/// Something that happened, for the referee to announce and the table to carry out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Event {
    /// `seat` activated a card.
    Activated {
        /// Who.
        seat: Seat,
        /// The card.
        card: CardId,
        /// Its action.
        action: ActionId,
        /// The enemy card targeted.
        target: Option<CardId>,
        /// With Napoleon.
        napoleon: bool,
    },
    /// The action's die: the face, the modifiers added, the result read on the card.
    Rolled {
        /// The face.
        face: Face,
        /// The sum of the modifiers that applied.
        modifier: i16,
        /// Face plus modifier.
        result: i16,
    },
    /// The card's outcome for the result (or its only row).
    Read(Effects),
    /// A division marker moved from `from`'s box to `seat`'s casualty box number `index` (from
    /// 0, top), marked `mark`.
    Casualty {
        /// The army suffering it.
        seat: Seat,
        /// The card whose box it left.
        from: CardId,
        /// The casualty box, from 0 at the top.
        index: u8,
        /// The box's mark.
        mark: Mark,
    },
    /// `card` lost its last marker: one extra morale loss for its owner follows.
    LastMarker(CardId),
    /// A casualty `seat` could not take: none of its boxes has a marker left.
    NoMarkerLeft(Seat),
    /// `seat`'s morale marker moved down `by` squares to `to`.
    MoraleLost {
        /// The army.
        seat: Seat,
        /// Squares.
        by: u8,
        /// Where it stands now.
        to: i16,
    },
    /// A control box changed hands.
    Captured {
        /// The box.
        control: ControlId,
        /// Whose marker is in it now.
        by: Army,
    },
    /// Waiting divisions of `card` came onto the battlefield, into its box.
    Arrived {
        /// The card (Blücher's Prussians).
        card: CardId,
        /// How many.
        count: u8,
    },
    /// A rout test: `face` + `modifier` against `morale`; routed if higher.
    RoutTest {
        /// The army testing.
        seat: Seat,
        /// The face rolled.
        face: Face,
        /// The highest RT+ modifier of the filled casualty boxes.
        modifier: u8,
        /// The army's morale.
        morale: i16,
        /// Whether it routed.
        routed: bool,
    },
    /// `seat`'s army routed: the game is over and the other seat has won.
    Routed {
        /// The army.
        seat: Seat,
        /// How.
        how: RoutHow,
    },
    /// The time marker moved to box `to` (index into the time track).
    TimeAdvanced {
        /// The box.
        to: u8,
    },
    /// `seat` could activate nothing and passed.
    Passed(Seat),
}

/// What a played action did: the events in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Everything that happened.
    pub events: Vec<Event>,
}

/// Why an action was refused, with the fix in its message.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// The umpire must roll the die first.
    AwaitingChance,
    /// A player must act now, not the die.
    NotChance,
    /// Not the moment for this kind of action (e.g. choosing a casualty's box with none due).
    NotNow,
    /// No card with this number in the card set.
    NoSuchCard(CardId),
    /// The card is the other side's.
    NotYourCard(String),
    /// A corps (or the Grand Battery) with no division markers left cannot be activated.
    NoMarkers(String),
    /// The card may be used once a game and has been.
    UsedOnce(String),
    /// The card has no action with this number.
    NoSuchAction {
        /// The card.
        card: String,
        /// The number asked for, from 0.
        action: u8,
    },
    /// The action may be taken only from this time on.
    TooEarly {
        /// The action.
        action: String,
        /// The first time box it may be taken in.
        from: String,
    },
    /// The action lists targets: one of them must be chosen.
    TargetMissing(String),
    /// The action has no target, or not this one.
    NotATarget {
        /// The action.
        action: String,
    },
    /// A counter attack only straight after the target's own action.
    NotImmediate {
        /// The counter attack.
        action: String,
        /// The target chosen.
        target: String,
    },
    /// Napoleon has been used this game.
    NapoleonUsed,
    /// Napoleon helps French actions only.
    NapoleonIsFrench,
    /// Napoleon's modifier needs a die roll, and this action has none.
    NapoleonNeedsDie(String),
    /// The casualty must come from a box of the army suffering it, with a marker in it.
    CannotTakeFrom(String),
    /// A card can be activated: the phase cannot be passed.
    MustAct,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::AwaitingChance => f.write_str("the die must be rolled first: roll it"),
            Illegal::NotChance => f.write_str("a player must act now, not the die"),
            Illegal::NotNow => f.write_str("that is not asked for now"),
            Illegal::NoSuchCard(c) => write!(
                f,
                "there is no card {} in this card set: choose one of its cards",
                c.index() + 1
            ),
            Illegal::NotYourCard(c) => {
                write!(f, "{c} is the other side's card: activate one of yours")
            }
            Illegal::NoMarkers(c) => write!(
                f,
                "{c} has no division markers left and cannot be activated: choose another card"
            ),
            Illegal::UsedOnce(c) => {
                write!(
                    f,
                    "{c} may be used once a game and has been: choose another card"
                )
            }
            Illegal::NoSuchAction { card, action } => write!(
                f,
                "{card} has no action {}: choose one printed on the card",
                action + 1
            ),
            Illegal::TooEarly { action, from } => {
                write!(f, "\"{action}\" may be taken only from {from} on")
            }
            Illegal::TargetMissing(a) => {
                write!(
                    f,
                    "\"{a}\" needs a target: choose one of the enemy corps it names"
                )
            }
            Illegal::NotATarget { action } => write!(
                f,
                "that corps is not a target of \"{action}\": choose one the card names"
            ),
            Illegal::NotImmediate { action, target } => write!(
                f,
                "\"{action}\" is a counter attack: it may answer {target} only straight after \
                 {target}'s own action"
            ),
            Illegal::NapoleonUsed => {
                f.write_str("Napoleon has been used this game: act without him")
            }
            Illegal::NapoleonIsFrench => f.write_str("only the French player has Napoleon"),
            Illegal::NapoleonNeedsDie(a) => write!(
                f,
                "\"{a}\" rolls no die, so Napoleon cannot help it: keep him for another action"
            ),
            Illegal::CannotTakeFrom(c) => write!(
                f,
                "the casualty cannot come from {c}: take it from one of the suffering army's \
                 boxes that still holds a marker"
            ),
            Illegal::MustAct => f.write_str(
                "a card can still be activated: choose an action, passing is not allowed",
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Illegal {}

/// A casualty still to be taken: the army, how many, and the box they come from first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Due {
    seat: Seat,
    count: u8,
    from: Option<CardId>,
}

/// The action being carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Acting {
    card: CardId,
    action: ActionId,
    target: Option<CardId>,
    napoleon: bool,
    effects: Effects,
}

/// A game of Sa Belle Alliance: the whole state (nothing in it is secret).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaBelleAlliance {
    pub(crate) options: Options,
    /// Division markers in each card's box.
    pub(crate) boxes: Vec<u8>,
    /// Division markers of each card still waiting to arrive.
    pub(crate) waiting: Vec<u8>,
    /// Markers that have arrived from waiting, all cards together.
    pub(crate) arrived: u8,
    /// Each army's casualty track, top to bottom: the card each marker came from.
    pub(crate) track: BySeat<Vec<CardId>>,
    pub(crate) morale: BySeat<i16>,
    pub(crate) time: u8,
    /// The two reasons the time marker moves, each once: Prussian arrivals, casualties.
    pub(crate) time_moved: [bool; 2],
    pub(crate) control: Vec<Army>,
    pub(crate) used: Vec<bool>,
    pub(crate) napoleon_used: bool,
    pub(crate) turn: u16,
    pub(crate) phasing: Seat,
    pub(crate) phase: Phase,
    /// The last action taken (by whom, with which card), for counter attacks.
    pub(crate) last: Option<(Seat, CardId)>,
    acting: Option<Acting>,
    due: Vec<Due>,
    owed: BySeat<u8>,
    pub(crate) status: Status<EndReason>,
}

impl SaBelleAlliance {
    fn cards(&self) -> &CardSet {
        &self.options.cards
    }

    fn card(&self, id: CardId) -> Option<&Card> {
        self.options.cards.card(id)
    }

    fn name(&self, id: CardId) -> String {
        self.card(id).map_or_else(
            || alloc::format!("card {}", id.index() + 1),
            |c| c.name.clone(),
        )
    }

    /// Division markers in `card`'s box (0 for a card this set does not have).
    pub fn divisions(&self, card: CardId) -> u8 {
        self.boxes.get(card.index()).copied().unwrap_or(0)
    }

    /// Division markers of `card` still waiting to come onto the battlefield.
    pub fn waiting(&self, card: CardId) -> u8 {
        self.waiting.get(card.index()).copied().unwrap_or(0)
    }

    /// How many waiting markers have come onto the battlefield so far.
    pub fn arrived(&self) -> u8 {
        self.arrived
    }

    /// `seat`'s casualty track, top to bottom: the card each marker came from.
    pub fn casualties(&self, seat: Seat) -> &[CardId] {
        &self.track[seat]
    }

    /// `seat`'s morale.
    pub fn morale(&self, seat: Seat) -> i16 {
        self.morale[seat]
    }

    /// The time marker's box, as an index into the card set's time track.
    pub fn time(&self) -> u8 {
        self.time
    }

    /// The name of the time marker's box ("Midday").
    pub fn time_name(&self) -> &str {
        self.cards()
            .time
            .boxes
            .get(usize::from(self.time))
            .map_or("", String::as_str)
    }

    /// Whose marker is in control box `c`.
    pub fn control(&self, c: ControlId) -> Option<Army> {
        control_in(&self.control, c)
    }

    /// Whether the once-a-game `card` has been used.
    pub fn used(&self, card: CardId) -> bool {
        used_in(&self.used, card)
    }

    /// Whether Napoleon has been used.
    pub fn napoleon_used(&self) -> bool {
        self.napoleon_used
    }

    /// The turn, from 1.
    pub fn turn(&self) -> u16 {
        self.turn
    }

    /// The phasing player.
    pub fn phasing(&self) -> Seat {
        self.phasing
    }

    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The last action taken: by whom, with which card (none after a pass).
    pub fn last_action(&self) -> Option<(Seat, CardId)> {
        self.last
    }

    /// The modifier `seat`'s rout tests get now: the highest RT+ of its filled casualty boxes.
    pub fn rout_modifier(&self, seat: Seat) -> u8 {
        let marks = &self.cards().tracks[seat].casualties;
        marks
            .iter()
            .take(self.track[seat].len())
            .map(|m| match m {
                Mark::RoutTest(n) => *n,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// Whether `card` can be activated now, markers and once-a-game use considered.
    fn can_activate(&self, id: CardId, card: &Card) -> bool {
        if card.once && self.used(id) {
            return false;
        }
        !card.has_markers() || self.divisions(id) > 0 || self.waiting(id) > 0
    }

    fn holds(&self, seat: Seat, when: Condition) -> bool {
        match when {
            Condition::Always => true,
            Condition::Held(c) => self.control(c).is_some_and(|a| seat_of(a) == seat),
            Condition::NotHeld(c) => self.control(c).is_none_or(|a| seat_of(a) != seat),
            Condition::Empty(c) => self.divisions(c) == 0,
            Condition::FromTime(t) => self.time >= t,
        }
    }

    /// The modifier added to `action`'s die roll now, by `seat`, with or without Napoleon.
    pub fn die_modifier(&self, seat: Seat, action: &CardAction, napoleon: bool) -> i16 {
        let mut m: i16 = action
            .modifiers
            .iter()
            .filter(|m| self.holds(seat, m.when))
            .map(|m| i16::from(m.add))
            .sum();
        if napoleon {
            m += i16::from(self.cards().napoleon);
        }
        m
    }

    /// Every activation `seat` could make now if it were phasing.
    fn activations(&self, seat: Seat, out: &mut Vec<Action>) {
        for (id, card) in self.cards().ids() {
            if seat_of(card.army) != seat || !self.can_activate(id, card) {
                continue;
            }
            for (k, a) in card.actions.iter().enumerate() {
                if self.time < a.from_time {
                    continue;
                }
                let action = ActionId::new(k as u8);
                let mut push = |target: Option<CardId>| {
                    out.push(Action::Activate {
                        card: id,
                        action,
                        target,
                        napoleon: false,
                    });
                    if seat == FRENCH && !self.napoleon_used && a.rolls() {
                        out.push(Action::Activate {
                            card: id,
                            action,
                            target,
                            napoleon: true,
                        });
                    }
                };
                if a.targets.is_empty() {
                    push(None);
                }
                for &t in &a.targets {
                    if !a.counter || self.last == Some((seat.opponent(), t)) {
                        push(Some(t));
                    }
                }
            }
        }
    }

    fn can_act(&self, seat: Seat) -> bool {
        let mut out = Vec::new();
        self.activations(seat, &mut out);
        !out.is_empty()
    }

    fn legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        match self.phase {
            Phase::Over | Phase::Roll | Phase::RoutTest(_) => {}
            Phase::Act => {
                self.activations(self.phasing, &mut out);
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            Phase::TakeFrom(seat) => {
                for (id, card) in self.cards().ids() {
                    if seat_of(card.army) == seat && self.divisions(id) > 0 {
                        out.push(Action::TakeFrom(id));
                    }
                }
            }
        }
        out
    }

    fn check_activate(
        &self,
        id: CardId,
        action: ActionId,
        target: Option<CardId>,
        napoleon: bool,
    ) -> Result<(), Illegal> {
        let seat = self.phasing;
        let card = self.card(id).ok_or(Illegal::NoSuchCard(id))?;
        if seat_of(card.army) != seat {
            return Err(Illegal::NotYourCard(card.name.clone()));
        }
        if card.once && self.used(id) {
            return Err(Illegal::UsedOnce(card.name.clone()));
        }
        if !self.can_activate(id, card) {
            return Err(Illegal::NoMarkers(card.name.clone()));
        }
        let a = card
            .actions
            .get(action.index())
            .ok_or_else(|| Illegal::NoSuchAction {
                card: card.name.clone(),
                action: action.index() as u8,
            })?;
        if self.time < a.from_time {
            let from = self
                .cards()
                .time
                .boxes
                .get(usize::from(a.from_time))
                .cloned()
                .unwrap_or_default();
            return Err(Illegal::TooEarly {
                action: a.name.clone(),
                from,
            });
        }
        match target {
            None if !a.targets.is_empty() => return Err(Illegal::TargetMissing(a.name.clone())),
            Some(t) if !a.targets.contains(&t) => {
                return Err(Illegal::NotATarget {
                    action: a.name.clone(),
                })
            }
            Some(t) if a.counter && self.last != Some((seat.opponent(), t)) => {
                return Err(Illegal::NotImmediate {
                    action: a.name.clone(),
                    target: self.name(t),
                })
            }
            _ => {}
        }
        if napoleon {
            if seat != FRENCH {
                return Err(Illegal::NapoleonIsFrench);
            }
            if self.napoleon_used {
                return Err(Illegal::NapoleonUsed);
            }
            if !a.rolls() {
                return Err(Illegal::NapoleonNeedsDie(a.name.clone()));
            }
        }
        Ok(())
    }

    fn check_action(&self, action: &Action) -> Result<(), Illegal> {
        match (self.phase, action) {
            (Phase::Over, _) => Err(Illegal::GameOver),
            (Phase::Roll | Phase::RoutTest(_), Action::Roll(_)) => Ok(()),
            (Phase::Roll | Phase::RoutTest(_), _) => Err(Illegal::AwaitingChance),
            (_, Action::Roll(_)) => Err(Illegal::NotChance),
            (
                Phase::Act,
                &Action::Activate {
                    card,
                    action,
                    target,
                    napoleon,
                },
            ) => self.check_activate(card, action, target, napoleon),
            (Phase::Act, Action::Pass) => {
                if self.can_act(self.phasing) {
                    Err(Illegal::MustAct)
                } else {
                    Ok(())
                }
            }
            (Phase::TakeFrom(seat), &Action::TakeFrom(id)) => {
                let card = self.card(id).ok_or(Illegal::NoSuchCard(id))?;
                if seat_of(card.army) == seat && self.divisions(id) > 0 {
                    Ok(())
                } else {
                    Err(Illegal::CannotTakeFrom(card.name.clone()))
                }
            }
            _ => Err(Illegal::NotNow),
        }
    }

    fn apply(&mut self, action: &Action, ev: &mut Vec<Event>) {
        match (self.phase, *action) {
            (
                Phase::Act,
                Action::Activate {
                    card,
                    action,
                    target,
                    napoleon,
                },
            ) => self.activate(card, action, target, napoleon, ev),
            (Phase::Act, Action::Pass) => {
                ev.push(Event::Passed(self.phasing));
                self.last = None;
                self.end_phase(ev);
            }
            (Phase::Roll, Action::Roll(face)) => self.roll(face, ev),
            (Phase::RoutTest(seat), Action::Roll(face)) => self.rout_test(seat, face, ev),
            (Phase::TakeFrom(seat), Action::TakeFrom(id)) => {
                if self.divisions(id) > 0 {
                    self.take_casualty(seat, id, ev);
                    if let Some(d) = self.due.first_mut() {
                        d.count = d.count.saturating_sub(1);
                    }
                }
                self.proceed(ev);
            }
            _ => {}
        }
    }

    fn activate(
        &mut self,
        card: CardId,
        action: ActionId,
        target: Option<CardId>,
        napoleon: bool,
        ev: &mut Vec<Event>,
    ) {
        let seat = self.phasing;
        let Some(c) = self.card(card) else { return };
        let Some(a) = c.actions.get(action.index()) else {
            return;
        };
        let (once, rolls, only) = (c.once, a.rolls(), a.row(i16::from(a.first)));
        if once {
            if let Some(u) = self.used.get_mut(card.index()) {
                *u = true;
            }
        }
        if napoleon {
            self.napoleon_used = true;
        }
        self.last = Some((seat, card));
        ev.push(Event::Activated {
            seat,
            card,
            action,
            target,
            napoleon,
        });
        self.acting = Some(Acting {
            card,
            action,
            target,
            napoleon,
            effects: Effects::default(),
        });
        if rolls {
            self.phase = Phase::Roll;
        } else {
            ev.push(Event::Read(only));
            self.resolve(only, ev);
        }
    }

    fn roll(&mut self, face: Face, ev: &mut Vec<Event>) {
        let Some(acting) = self.acting else { return };
        let Some(a) = self
            .card(acting.card)
            .and_then(|c| c.actions.get(acting.action.index()))
        else {
            return;
        };
        let modifier = self.die_modifier(self.phasing, a, acting.napoleon);
        let result = i16::from(face.pips()) + modifier;
        let effects = a.row(result);
        ev.push(Event::Rolled {
            face,
            modifier,
            result,
        });
        ev.push(Event::Read(effects));
        self.resolve(effects, ev);
    }

    /// Records an outcome: the casualties, the non-phasing army's first, then the morale
    /// losses, the capture, the arrivals; then the rout tests.
    fn resolve(&mut self, effects: Effects, ev: &mut Vec<Event>) {
        let Some(acting) = self.acting.as_mut() else {
            return;
        };
        acting.effects = effects;
        let (card, target) = (acting.card, acting.target);
        let seat = self.phasing;
        self.due.clear();
        for s in [seat.opponent(), seat] {
            let count = effects.casualties(s);
            if count > 0 {
                let from = if s == seat { Some(card) } else { target };
                self.due.push(Due {
                    seat: s,
                    count,
                    from,
                });
            }
        }
        self.owed = BySeat::default();
        self.phase = Phase::Act;
        self.proceed(ev);
    }

    /// Takes the casualties still due, asking the owner when the box they come from is empty,
    /// then records the rest of the outcome.
    fn proceed(&mut self, ev: &mut Vec<Event>) {
        while let Some(&Due { seat, count, from }) = self.due.first() {
            if self.phase == Phase::Over {
                return;
            }
            if count == 0 {
                self.due.remove(0);
                continue;
            }
            let source = match from {
                Some(c) if self.divisions(c) > 0 => Some(c),
                _ => {
                    let choices: Vec<CardId> = self
                        .cards()
                        .ids()
                        .filter(|(id, c)| seat_of(c.army) == seat && self.divisions(*id) > 0)
                        .map(|(id, _)| id)
                        .collect();
                    match choices[..] {
                        [] => {
                            ev.push(Event::NoMarkerLeft(seat));
                            self.due.remove(0);
                            continue;
                        }
                        [only] => Some(only),
                        _ => None,
                    }
                }
            };
            let Some(source) = source else {
                self.phase = Phase::TakeFrom(seat);
                return;
            };
            self.take_casualty(seat, source, ev);
            if let Some(d) = self.due.first_mut() {
                d.count -= 1;
            }
        }
        if self.phase == Phase::Over {
            return;
        }
        self.phase = Phase::Act;
        let Some(acting) = self.acting else { return };
        let seat = self.phasing;
        for s in [seat.opponent(), seat] {
            let loss = acting.effects.morale(s);
            if loss > 0 {
                self.lose_morale(s, loss, ev);
                if self.phase == Phase::Over {
                    return;
                }
            }
        }
        let card = self.card(acting.card);
        let army = card.map(|c| c.army);
        let captures = card
            .and_then(|c| c.actions.get(acting.action.index()))
            .and_then(|a| a.captures);
        if let (true, Some(c), Some(by)) = (acting.effects.capture, captures, army) {
            if let Some(held) = self.control.get_mut(c.index()) {
                if *held != by {
                    *held = by;
                    ev.push(Event::Captured { control: c, by });
                }
            }
        }
        let i = acting.card.index();
        let count = acting.effects.arrive.min(self.waiting(acting.card));
        if count > 0 {
            self.waiting[i] -= count;
            self.boxes[i] += count;
            self.arrived = self.arrived.saturating_add(count);
            ev.push(Event::Arrived {
                card: acting.card,
                count,
            });
        }
        self.next_test(ev);
    }

    fn take_casualty(&mut self, seat: Seat, card: CardId, ev: &mut Vec<Event>) {
        let i = card.index();
        self.boxes[i] -= 1;
        let index = self.track[seat].len();
        let mark = self.cards().tracks[seat]
            .casualties
            .get(index)
            .copied()
            .unwrap_or(Mark::Broken);
        self.track[seat].push(card);
        ev.push(Event::Casualty {
            seat,
            from: card,
            index: index as u8,
            mark,
        });
        match mark {
            Mark::Broken => {
                self.rout(seat, RoutHow::CasualtyTrack, ev);
                return;
            }
            Mark::RoutTest(_) if self.options.rout_test_per_casualty => {
                self.owed[seat] = self.owed[seat].saturating_add(1)
            }
            Mark::RoutTest(_) => self.owed[seat] = 1,
            Mark::Plain => {}
        }
        // The corps' last marker: none on the map and none still waiting to arrive.
        if self.boxes[i] == 0 && self.waiting(card) == 0 {
            ev.push(Event::LastMarker(card));
            self.lose_morale(seat, 1, ev);
        }
    }

    fn lose_morale(&mut self, seat: Seat, by: u8, ev: &mut Vec<Event>) {
        let broken = self.cards().tracks[seat].morale_broken;
        let to = (self.morale[seat] - i16::from(by)).max(broken);
        self.morale[seat] = to;
        ev.push(Event::MoraleLost { seat, by, to });
        if to == broken {
            self.rout(seat, RoutHow::Morale, ev);
        }
    }

    fn rout(&mut self, seat: Seat, how: RoutHow, ev: &mut Vec<Event>) {
        ev.push(Event::Routed { seat, how });
        self.status = Status::Won {
            winner: seat.opponent(),
            reason: EndReason::Routed(how),
        };
        self.phase = Phase::Over;
        self.due.clear();
        self.acting = None;
    }

    /// The next rout test due: the non-phasing army's first.
    fn next_test(&mut self, ev: &mut Vec<Event>) {
        for s in [self.phasing.opponent(), self.phasing] {
            if self.owed[s] > 0 {
                self.phase = Phase::RoutTest(s);
                return;
            }
        }
        self.end_phase(ev);
    }

    fn rout_test(&mut self, seat: Seat, face: Face, ev: &mut Vec<Event>) {
        let modifier = self.rout_modifier(seat);
        let morale = self.morale[seat];
        let routed = i16::from(face.pips()) + i16::from(modifier) > morale;
        ev.push(Event::RoutTest {
            seat,
            face,
            modifier,
            morale,
            routed,
        });
        if routed {
            self.rout(seat, RoutHow::Test, ev);
        } else {
            self.owed[seat] -= 1;
            self.next_test(ev);
        }
    }

    fn end_phase(&mut self, ev: &mut Vec<Event>) {
        self.acting = None;
        self.due.clear();
        self.owed = BySeat::default();
        if self.phasing == FRENCH {
            self.phasing = ALLIED;
        } else {
            self.time_phase(ev);
            self.turn = self.turn.saturating_add(1);
            self.phasing = FRENCH;
        }
        self.phase = Phase::Act;
        if !self.can_act(FRENCH) && !self.can_act(ALLIED) {
            self.status = Status::Drawn {
                reason: EndReason::Stalemate,
            };
            self.phase = Phase::Over;
        }
    }

    fn time_phase(&mut self, ev: &mut Vec<Event>) {
        let time = &self.options.cards.time;
        let last = time.boxes.len().saturating_sub(1) as u8;
        let casualties = self.track[FRENCH].len() + self.track[ALLIED].len();
        let reasons = [
            self.arrived >= time.prussian_arrivals,
            casualties >= usize::from(time.casualties),
        ];
        for (moved, now) in self.time_moved.iter_mut().zip(reasons) {
            if now && !*moved {
                *moved = true;
                if self.time < last {
                    self.time += 1;
                    ev.push(Event::TimeAdvanced { to: self.time });
                }
            }
        }
    }

    /// `event` in words for the table, with the cards' and boxes' names: "I Corps (Orange): one
    /// division to Anglo-Allied casualty box 4 (RT)".
    pub fn announce(&self, event: &Event) -> String {
        use alloc::format;
        let cards = self.cards();
        let control = |c: ControlId| {
            cards
                .controls
                .get(c.index())
                .map_or("a control box", |c| c.name.as_str())
        };
        let divisions = |n: u8| match n {
            1 => String::from("one division"),
            n => format!("{n} divisions"),
        };
        match *event {
            Event::Activated {
                seat,
                card,
                action,
                target,
                napoleon,
            } => {
                let what = self
                    .card(card)
                    .and_then(|c| c.actions.get(action.index()))
                    .map_or("an action", |a| a.name.as_str());
                let mut s = format!("{}: {} {what}", seat_name(seat), self.name(card));
                if let Some(t) = target {
                    s.push_str(&format!(" against {}", self.name(t)));
                }
                if napoleon {
                    s.push_str(", with Napoleon");
                }
                s
            }
            Event::Rolled {
                face,
                modifier,
                result,
            } => match modifier {
                0 => format!("rolled {face}"),
                m => format!("rolled {face}, {m:+}: {result}"),
            },
            Event::Read(e) => format!("the card reads {e}"),
            Event::Casualty {
                seat,
                from,
                index,
                mark,
            } => {
                let mark = match mark {
                    Mark::Plain => String::new(),
                    m => format!(" ({m})"),
                };
                format!(
                    "{}: one division to {} casualty box {}{mark}",
                    self.name(from),
                    seat_name(seat),
                    u16::from(index) + 1
                )
            }
            Event::LastMarker(card) => {
                format!(
                    "{} has lost its last marker: one more morale loss",
                    self.name(card)
                )
            }
            Event::NoMarkerLeft(seat) => {
                format!("{}: no marker left to take the casualty", seat_name(seat))
            }
            Event::MoraleLost { seat, by, to } => {
                format!("{} morale down {by} to {to}", seat_name(seat))
            }
            Event::Captured { control: c, by } => {
                let a = if by == Army::Allied { "an" } else { "a" };
                format!("{} is taken: {a} {by} marker in it", control(c))
            }
            Event::Arrived { card, count } => {
                format!(
                    "{}: {} arrive in the box",
                    self.name(card),
                    divisions(count)
                )
            }
            Event::RoutTest {
                seat,
                face,
                modifier,
                morale,
                routed,
            } => {
                let plus = match modifier {
                    0 => String::new(),
                    m => format!(" +{m}"),
                };
                let verdict = if routed { "routs" } else { "holds" };
                format!(
                    "{} rout test: {face}{plus} against morale {morale}: the army {verdict}",
                    seat_name(seat)
                )
            }
            Event::Routed { seat, how } => {
                let why = match how {
                    RoutHow::Test => "failed its rout test",
                    RoutHow::CasualtyTrack => "reached the B casualty box",
                    RoutHow::Morale => "reached B on the morale track",
                };
                format!(
                    "the {} army {why} and routs: {} victory",
                    seat_name(seat),
                    seat_name(seat.opponent())
                )
            }
            Event::TimeAdvanced { to } => format!(
                "the time marker moves to {}",
                cards
                    .time
                    .boxes
                    .get(usize::from(to))
                    .map_or("", String::as_str)
            ),
            Event::Passed(seat) => {
                format!("{}: no card can act, the phase passes", seat_name(seat))
            }
        }
    }

    /// A one-line summary for logs and tests.
    pub fn summary(&self) -> String {
        alloc::format!(
            "turn {} ({}), {} phase, morale F{} A{}, casualties F{} A{}",
            self.turn,
            self.time_name(),
            seat_name(self.phasing),
            self.morale[FRENCH],
            self.morale[ALLIED],
            self.track[FRENCH].len(),
            self.track[ALLIED].len()
        )
    }
}

impl Game for SaBelleAlliance {
    type Options = Options;
    /// The set-up is fixed by the rulebook and the card set; nothing to choose.
    type Setup = ();
    type SetupProblem = core::convert::Infallible;
    type Action = Action;
    type Illegal = Illegal;
    type Outcome = Outcome;
    type View = View;
    type EndReason = EndReason;

    /// "The blue division markers are placed in the French Corps boxes ... the red division
    /// markers are placed in the Anglo-Allied boxes. The black division markers ... Set them
    /// aside"; control markers as the card set says; morale at its start; time at its start.
    fn start(options: Options, (): ()) -> Result<SaBelleAlliance, Problems<Self::SetupProblem>> {
        let cards = &options.cards;
        let n = cards.cards.len();
        let g = SaBelleAlliance {
            boxes: cards.cards.iter().map(|c| c.divisions).collect(),
            waiting: cards.cards.iter().map(|c| c.reserve).collect(),
            arrived: 0,
            track: BySeat::default(),
            morale: BySeat::from_fn(|s| cards.tracks[s].morale_start),
            time: cards.time.start,
            time_moved: [false; 2],
            control: cards.controls.iter().map(|c| c.held).collect(),
            used: vec![false; n],
            napoleon_used: false,
            turn: 1,
            phasing: FRENCH,
            phase: Phase::Act,
            last: None,
            acting: None,
            due: Vec::new(),
            owed: BySeat::default(),
            status: Status::Ongoing,
            options,
        };
        Ok(g)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn to_act(&self) -> Actor {
        match self.phase {
            Phase::Over => Actor::Nobody,
            Phase::Act => Actor::Seat(self.phasing),
            Phase::TakeFrom(seat) => Actor::Seat(seat),
            Phase::Roll | Phase::RoutTest(_) => Actor::Chance,
        }
    }

    fn status(&self) -> Status<EndReason> {
        self.status
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.legal()
    }

    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        match self.phase {
            Phase::Roll | Phase::RoutTest(_) => {
                Face::ALL.iter().map(|&f| (Action::Roll(f), 1)).collect()
            }
            _ => Vec::new(),
        }
    }

    fn check(&self, action: &Action) -> Result<(), Illegal> {
        self.check_action(action)
    }

    fn play_unchecked(&mut self, action: &Action) -> Outcome {
        let mut events = Vec::new();
        self.apply(action, &mut events);
        Outcome { events }
    }

    fn view(&self, seat: Seat) -> View {
        View::new(self, seat)
    }
}

// A seat's view is built here, beside the game whose state it copies: view.rs stands below the
// game, which names the view as its `Game::View`.
impl View {
    pub(crate) fn new(g: &SaBelleAlliance, seat: Seat) -> View {
        View {
            seat,
            turn: g.turn,
            phasing: g.phasing,
            phase: g.phase,
            time: g.time,
            time_name: String::from(g.time_name()),
            divisions: g.boxes.clone(),
            waiting: g.waiting.clone(),
            casualties: g.track.clone(),
            morale: g.morale,
            control: g.control.clone(),
            used: g.used.clone(),
            napoleon_used: g.napoleon_used,
            last: g.last,
            status: g.status,
        }
    }
}

impl fmt::Display for SaBelleAlliance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())
    }
}
