//! The OK / Back / Die buttons, debounced in software, and an optional buzzer.
//!
//! # Buttons
//! Each button is an `InputPin`, polled at the scan rate with the current time:
//! [`Buttons::poll`]. A button changes state only after its pin has read the new level on
//! [`ButtonsConfig::stable_samples`] consecutive polls (3 at 100 Hz: 20-30 ms, well above the
//! < 1 ms bounce of a reed or the 5-20 ms of a tactile switch). Out come [`ButtonEvent`]s:
//! - [`ButtonEvent::Pressed`] as soon as a press is believed, carrying the
//!   [`ButtonPress`] the sensing model takes;
//! - [`ButtonEvent::LongPress`] once, when a button has been held for
//!   [`ButtonsConfig::long_press_ms`]. The referee gives it meaning; the intended one is
//!   **Back held = confirm the takeback** that a short Back press proposed, so a single press
//!   can never undo a move;
//! - [`ButtonEvent::Released`] with how long the button was held.
//!
//! No clock inside: time arrives with each poll, and every event is stamped with the time of
//! the poll that confirmed it (not the earlier time the first stable sample was read), so
//! events never go back in time relative to scan frames stamped in between: the sensing model
//! requires non-decreasing times.
//!
//! A button held down when the driver starts is reported as pressed after the debounce.
//!
//! # Buzzer
//! [`Buzzer`] plays a [`BeepPattern`] on an `OutputPin` (a transistor-driven active buzzer;
//! [`ActiveLevel::High`] sounds it by driving the pin high). It is a small state machine
//! driven by [`Buzzer::tick`] with the current time: it writes the pin only when the sound
//! starts or stops, and a late tick skips the phases that have already passed.
//!
//! # Example
//! ```
//! use embedded_hal_mock::eh1::digital::{Mock as Pin, State, Transaction as Tx};
//! use firmware::drivers::buttons::{ButtonEvent, Buttons, ButtonsConfig};
//! use firmware::sensing::{Button, ButtonPress, Millis};
//!
//! // The Die button (to ground) reads low on three polls 10 ms apart.
//! let die = Pin::new(&[Tx::get(State::Low), Tx::get(State::Low), Tx::get(State::Low)]);
//! let mut buttons = Buttons::new([(Button::Die, die)], ButtonsConfig::default())?;
//! assert!(buttons.poll(Millis(0))?.is_empty());
//! assert!(buttons.poll(Millis(10))?.is_empty());
//! let press = ButtonPress { at: Millis(20), button: Button::Die };
//! assert_eq!(buttons.poll(Millis(20))?, [ButtonEvent::Pressed(press)]);
//! for (_, mut pin) in buttons.release() {
//!     pin.done();
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use embedded_hal::digital::{InputPin, OutputPin};

pub use super::reed_matrix::ActiveLevel;
use crate::sensing::{Button, ButtonPress, Millis};

/// How the buttons are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ButtonsConfig {
    /// The level a pressed button puts on its pin (`Low`: button to ground, pull-up on).
    pub active: ActiveLevel,
    /// How many consecutive polls must read a new level before it is believed (0 counts as 1).
    pub stable_samples: u8,
    /// How long a button must be held for a [`ButtonEvent::LongPress`]; `None` never reports
    /// one.
    pub long_press_ms: Option<u32>,
}

impl Default for ButtonsConfig {
    /// Active low, 3 stable samples, long press after 1.5 s.
    fn default() -> Self {
        ButtonsConfig {
            active: ActiveLevel::Low,
            stable_samples: 3,
            long_press_ms: Some(1_500),
        }
    }
}

/// Something a button did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ButtonEvent {
    /// The button went down.
    Pressed(ButtonPress),
    /// The button has been held for [`ButtonsConfig::long_press_ms`] (once per press).
    LongPress(ButtonPress),
    /// The button came up.
    Released {
        /// When the release was confirmed.
        at: Millis,
        /// Which button.
        button: Button,
        /// How long it was held (from the confirmed press to the confirmed release).
        held_ms: u64,
    },
}

#[cfg(test)]
impl ButtonEvent {
    /// The press of a [`ButtonEvent::Pressed`].
    pub(crate) fn press(&self) -> Option<ButtonPress> {
        match self {
            ButtonEvent::Pressed(press) => Some(*press),
            _ => None,
        }
    }

    /// When the event was confirmed.
    pub(crate) fn at(&self) -> Millis {
        match self {
            ButtonEvent::Pressed(p) | ButtonEvent::LongPress(p) => p.at,
            ButtonEvent::Released { at, .. } => *at,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Debounced {
    button: Button,
    pressed: bool,
    /// Consecutive polls that read the other state.
    differing: u8,
    pressed_at: Millis,
    long_reported: bool,
}

/// The buttons on `P` input pins.
#[derive(Debug)]
pub struct Buttons<P> {
    pins: Vec<P>,
    states: Vec<Debounced>,
    config: ButtonsConfig,
    levels: Vec<bool>,
}

impl<P: InputPin> Buttons<P> {
    /// Takes the buttons' pins; every button starts released.
    ///
    /// # Errors
    /// [`Error::DuplicateButton`] if a button is given two pins.
    pub fn new(
        pins: impl IntoIterator<Item = (Button, P)>,
        config: ButtonsConfig,
    ) -> Result<Self, Error<P::Error>> {
        let mut buttons = Buttons {
            pins: Vec::new(),
            states: Vec::new(),
            config,
            levels: Vec::new(),
        };
        for (button, pin) in pins {
            if buttons.states.iter().any(|s| s.button == button) {
                return Err(Error::DuplicateButton { button });
            }
            buttons.pins.push(pin);
            buttons.states.push(Debounced {
                button,
                pressed: false,
                differing: 0,
                pressed_at: Millis(0),
                long_reported: false,
            });
        }
        Ok(buttons)
    }

    /// Whether `button` is down (debounced); false for a button without a pin.
    #[cfg(test)]
    pub(crate) fn is_pressed(&self, button: Button) -> bool {
        self.states.iter().any(|s| s.button == button && s.pressed)
    }

    /// Reads every button once at `now` and returns what happened, in the order the buttons
    /// were given.
    ///
    /// # Errors
    /// [`Error::Read`] naming the first button whose pin could not be read; no button's state
    /// changes on a failed poll.
    pub fn poll(&mut self, now: Millis) -> Result<Vec<ButtonEvent>, Error<P::Error>> {
        self.levels.clear();
        for (pin, state) in self.pins.iter_mut().zip(&self.states) {
            let high = pin.is_high().map_err(|source| Error::Read {
                button: state.button,
                source,
            })?;
            self.levels.push(self.config.active.is_active(high));
        }
        let needed = self.config.stable_samples.max(1);
        let mut events = Vec::new();
        for (state, &down) in self.states.iter_mut().zip(&self.levels) {
            if down == state.pressed {
                state.differing = 0;
            } else {
                state.differing = state.differing.saturating_add(1);
                if state.differing >= needed {
                    state.differing = 0;
                    state.pressed = down;
                    if down {
                        state.pressed_at = now;
                        state.long_reported = false;
                        events.push(ButtonEvent::Pressed(ButtonPress {
                            at: now,
                            button: state.button,
                        }));
                    } else {
                        events.push(ButtonEvent::Released {
                            at: now,
                            button: state.button,
                            held_ms: now.since(state.pressed_at),
                        });
                    }
                }
            }
            if let Some(long_ms) = self.config.long_press_ms {
                if state.pressed
                    && !state.long_reported
                    && now.since(state.pressed_at) >= u64::from(long_ms)
                {
                    state.long_reported = true;
                    events.push(ButtonEvent::LongPress(ButtonPress {
                        at: now,
                        button: state.button,
                    }));
                }
            }
        }
        Ok(events)
    }

    /// Gives the pins back.
    pub fn release(self) -> Vec<(Button, P)> {
        self.states
            .into_iter()
            .map(|s| s.button)
            .zip(self.pins)
            .collect()
    }
}

/// One beep: the buzzer sounds for `on_ms`, then is silent for `off_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Beep {
    /// How long it sounds.
    pub on_ms: u32,
    /// How long the silence after it lasts.
    pub off_ms: u32,
}

/// What the buzzer can say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BeepPattern {
    /// Two short beeps: a move was accepted.
    Confirm,
    /// One long beep: a move was refused, look at the screen.
    Refuse,
    /// Three beeps: something needs the players now (a battle result, a fault).
    Alert,
}

impl BeepPattern {
    /// The beeps, in order.
    pub const fn beeps(self) -> &'static [Beep] {
        match self {
            BeepPattern::Confirm => &[
                Beep {
                    on_ms: 60,
                    off_ms: 60,
                },
                Beep {
                    on_ms: 60,
                    off_ms: 0,
                },
            ],
            BeepPattern::Refuse => &[Beep {
                on_ms: 400,
                off_ms: 0,
            }],
            BeepPattern::Alert => &[
                Beep {
                    on_ms: 100,
                    off_ms: 100,
                },
                Beep {
                    on_ms: 100,
                    off_ms: 100,
                },
                Beep {
                    on_ms: 100,
                    off_ms: 0,
                },
            ],
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Playing {
    beeps: &'static [Beep],
    /// Phase `2k` is beep `k` sounding, phase `2k + 1` its silence.
    phase: usize,
    phase_ends: Millis,
}

impl Playing {
    fn duration(&self, phase: usize) -> u32 {
        self.beeps
            .get(phase / 2)
            .map_or(0, |b| if phase % 2 == 0 { b.on_ms } else { b.off_ms })
    }

    fn sounding(&self) -> bool {
        self.phase % 2 == 0
    }
}

/// A buzzer on an `OutputPin`, playing [`BeepPattern`]s.
#[derive(Debug)]
pub struct Buzzer<P> {
    pin: P,
    active: ActiveLevel,
    sounding: bool,
    playing: Option<Playing>,
}

impl<P: OutputPin> Buzzer<P> {
    /// Takes the pin and makes the buzzer silent.
    ///
    /// # Errors
    /// [`Error::Buzzer`] if the pin cannot be driven.
    pub fn new(mut pin: P, active: ActiveLevel) -> Result<Self, Error<P::Error>> {
        pin.set_state(active.inactive_state())
            .map_err(Error::Buzzer)?;
        Ok(Buzzer {
            pin,
            active,
            sounding: false,
            playing: None,
        })
    }

    /// Starts `pattern` at `now`, cutting off whatever was playing.
    ///
    /// # Errors
    /// [`Error::Buzzer`] if the pin cannot be driven.
    pub fn play(&mut self, pattern: BeepPattern, now: Millis) -> Result<(), Error<P::Error>> {
        let beeps = pattern.beeps();
        let mut playing = Playing {
            beeps,
            phase: 0,
            phase_ends: now,
        };
        playing.phase_ends = now.plus(playing.duration(0));
        self.playing = Some(playing);
        self.tick(now)
    }

    /// Advances the pattern to `now`: moves past every phase that has ended and sets the pin
    /// to match (written only when it changes).
    ///
    /// # Errors
    /// [`Error::Buzzer`] if the pin cannot be driven.
    pub fn tick(&mut self, now: Millis) -> Result<(), Error<P::Error>> {
        if let Some(mut playing) = self.playing {
            while now >= playing.phase_ends && self.playing.is_some() {
                playing.phase += 1;
                if playing.phase >= 2 * playing.beeps.len() {
                    self.playing = None;
                } else {
                    playing.phase_ends = playing.phase_ends.plus(playing.duration(playing.phase));
                    self.playing = Some(playing);
                }
            }
        }
        let want = self.playing.is_some_and(|p| p.sounding());
        self.sound(want)
    }

    /// Silences the buzzer and forgets the pattern.
    ///
    /// # Errors
    /// [`Error::Buzzer`] if the pin cannot be driven.
    pub fn stop(&mut self) -> Result<(), Error<P::Error>> {
        self.playing = None;
        self.sound(false)
    }

    /// Whether a pattern is still playing.
    #[cfg(test)]
    pub(crate) fn is_playing(&self) -> bool {
        self.playing.is_some()
    }

    /// Gives the pin back (silenced first, best effort).
    pub fn release(mut self) -> P {
        let _ = self.stop();
        self.pin
    }

    fn sound(&mut self, on: bool) -> Result<(), Error<P::Error>> {
        if on != self.sounding {
            let state = if on {
                self.active.active_state()
            } else {
                self.active.inactive_state()
            };
            self.pin.set_state(state).map_err(Error::Buzzer)?;
            self.sounding = on;
        }
        Ok(())
    }
}

/// What went wrong with the buttons or the buzzer, and what to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error<E> {
    /// The same button was given two pins.
    DuplicateButton {
        /// The button.
        button: Button,
    },
    /// A button's pin could not be read.
    Read {
        /// The button.
        button: Button,
        /// The HAL's error.
        source: E,
    },
    /// The buzzer's pin could not be driven.
    Buzzer(E),
}

fn button_name(button: Button) -> &'static str {
    match button {
        Button::Ok => "OK",
        Button::Back => "Back",
        Button::Die => "Die",
    }
}

impl<E: fmt::Debug> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::DuplicateButton { button } => write!(
                f,
                "the {} button is given two pins: give each button one pin in the pin map",
                button_name(*button)
            ),
            Error::Read { button, source } => write!(
                f,
                "could not read the {} button ({source:?}): check its GPIO number in the pin map \
                 and that no other program has claimed the pin",
                button_name(*button)
            ),
            Error::Buzzer(source) => write!(
                f,
                "could not drive the buzzer ({source:?}): check its GPIO number in the pin map \
                 and that no other program has claimed the pin"
            ),
        }
    }
}

impl<E: fmt::Debug> std::error::Error for Error<E> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sensing::SensorInput;
    use embedded_hal_mock::eh1::digital::{Mock as PinMock, State, Transaction as PinTx};
    use embedded_hal_mock::eh1::MockError;

    const L: State = State::Low;
    const H: State = State::High;

    fn reads(levels: &[State]) -> Vec<PinTx> {
        levels.iter().map(|s| PinTx::get(*s)).collect()
    }

    fn no_long() -> ButtonsConfig {
        ButtonsConfig {
            long_press_ms: None,
            ..ButtonsConfig::default()
        }
    }

    #[test]
    fn a_bouncing_press_is_reported_once_after_three_stable_samples() {
        // Active low, polled every 10 ms: bounce, then held, then a bouncy release.
        let levels = [H, L, H, L, L, L, L, H, L, H, H, H];
        let mut ok = PinMock::new(&reads(&levels));
        let mut buttons = Buttons::new([(Button::Ok, ok.clone())], no_long()).unwrap();
        let mut events = Vec::new();
        for i in 0..levels.len() as u64 {
            events.extend(buttons.poll(Millis(1_000 + 10 * i)).unwrap());
            if i == 5 {
                assert!(buttons.is_pressed(Button::Ok));
            }
        }
        assert_eq!(
            events,
            [
                ButtonEvent::Pressed(ButtonPress {
                    at: Millis(1_050),
                    button: Button::Ok
                }),
                ButtonEvent::Released {
                    at: Millis(1_110),
                    button: Button::Ok,
                    held_ms: 60
                },
            ]
        );
        assert_eq!(
            SensorInput::from(events[0].press().unwrap()),
            SensorInput::Button(ButtonPress {
                at: Millis(1_050),
                button: Button::Ok
            })
        );
        assert_eq!(events[1].press(), None);
        assert_eq!(events[1].at(), Millis(1_110));
        assert!(!buttons.is_pressed(Button::Ok));
        ok.done();
    }

    #[test]
    fn active_high_buttons_read_high_as_pressed() {
        let mut die = PinMock::new(&reads(&[H, H]));
        let config = ButtonsConfig {
            active: ActiveLevel::High,
            stable_samples: 2,
            long_press_ms: None,
        };
        let mut buttons = Buttons::new([(Button::Die, die.clone())], config).unwrap();
        assert_eq!(buttons.poll(Millis(0)).unwrap(), []);
        assert_eq!(
            buttons.poll(Millis(10)).unwrap(),
            [ButtonEvent::Pressed(ButtonPress {
                at: Millis(10),
                button: Button::Die
            })]
        );
        die.done();
    }

    #[test]
    fn holding_back_gives_one_long_press_after_the_press() {
        let mut back = PinMock::new(&reads(&[L, L, L, L, L, L, H, H, H]));
        let config = ButtonsConfig {
            long_press_ms: Some(1_500),
            ..ButtonsConfig::default()
        };
        let mut buttons = Buttons::new([(Button::Back, back.clone())], config).unwrap();
        let times = [0, 10, 20, 1_000, 1_519, 1_520, 3_000, 3_010, 3_020];
        let mut events = Vec::new();
        for t in times {
            events.extend(buttons.poll(Millis(t)).unwrap());
        }
        let press = |at| ButtonPress {
            at: Millis(at),
            button: Button::Back,
        };
        assert_eq!(
            events,
            [
                ButtonEvent::Pressed(press(20)),
                ButtonEvent::LongPress(press(1_520)),
                ButtonEvent::Released {
                    at: Millis(3_020),
                    button: Button::Back,
                    held_ms: 3_000
                },
            ]
        );
        back.done();
    }

    #[test]
    fn several_buttons_report_in_the_order_given() {
        let mut ok = PinMock::new(&reads(&[L]));
        let mut back = PinMock::new(&reads(&[H]));
        let mut die = PinMock::new(&reads(&[L]));
        let config = ButtonsConfig {
            stable_samples: 1,
            ..no_long()
        };
        let mut buttons = Buttons::new(
            [
                (Button::Die, die.clone()),
                (Button::Back, back.clone()),
                (Button::Ok, ok.clone()),
            ],
            config,
        )
        .unwrap();
        let pressed: Vec<Button> = buttons
            .poll(Millis(5))
            .unwrap()
            .iter()
            .filter_map(|e| e.press().map(|p| p.button))
            .collect();
        assert_eq!(pressed, [Button::Die, Button::Ok]);
        let released = buttons.release();
        assert_eq!(
            released.iter().map(|(b, _)| *b).collect::<Vec<_>>(),
            [Button::Die, Button::Back, Button::Ok]
        );
        ok.done();
        back.done();
        die.done();
    }

    #[test]
    fn a_read_error_is_typed_and_changes_no_state() {
        let broken = MockError::Io(std::io::ErrorKind::BrokenPipe);
        let mut ok = PinMock::new(&reads(&[L, L]));
        let mut back = PinMock::new(&[PinTx::get(L), PinTx::get(L).with_error(broken.clone())]);
        let config = ButtonsConfig {
            stable_samples: 2,
            ..no_long()
        };
        let mut buttons = Buttons::new(
            [(Button::Ok, ok.clone()), (Button::Back, back.clone())],
            config,
        )
        .unwrap();
        assert_eq!(buttons.poll(Millis(0)).unwrap(), []);
        let err = buttons.poll(Millis(10)).unwrap_err();
        assert_eq!(
            err,
            Error::Read {
                button: Button::Back,
                source: broken
            }
        );
        assert!(err.to_string().contains("Back button"));
        // OK's second low sample was read but not counted.
        assert!(!buttons.is_pressed(Button::Ok));
        ok.done();
        back.done();
    }

    #[test]
    fn a_button_given_twice_is_refused() {
        let mut a = PinMock::new(&[]);
        let mut b = PinMock::new(&[]);
        let err = Buttons::new(
            [(Button::Ok, a.clone()), (Button::Ok, b.clone())],
            ButtonsConfig::default(),
        )
        .unwrap_err();
        assert_eq!(err, Error::DuplicateButton { button: Button::Ok });
        a.done();
        b.done();
    }

    #[test]
    fn the_buzzer_plays_confirm_as_two_beeps_driven_by_tick() {
        let mut pin = PinMock::new(&[
            PinTx::set(L), // silent at init
            PinTx::set(H), // beep 1 at 0
            PinTx::set(L), // silence at 60
            PinTx::set(H), // beep 2 at 120
            PinTx::set(L), // done at 180
        ]);
        let mut buzzer = Buzzer::new(pin.clone(), ActiveLevel::High).unwrap();
        buzzer.play(BeepPattern::Confirm, Millis(0)).unwrap();
        for t in [10, 59, 60, 61, 119, 120, 179, 180, 500] {
            buzzer.tick(Millis(t)).unwrap();
            assert_eq!(buzzer.is_playing(), t < 180, "at {t}");
        }
        pin.done();
    }

    #[test]
    fn a_late_tick_skips_passed_phases_and_writes_only_changes() {
        // Active low buzzer: sounding = low.
        let mut pin = PinMock::new(&[PinTx::set(H), PinTx::set(L), PinTx::set(H)]);
        let mut buzzer = Buzzer::new(pin.clone(), ActiveLevel::Low).unwrap();
        buzzer.play(BeepPattern::Alert, Millis(100)).unwrap();
        // At 350 the second beep (300-400) is sounding: still on, no write.
        buzzer.tick(Millis(350)).unwrap();
        assert!(buzzer.is_playing());
        buzzer.tick(Millis(2_000)).unwrap();
        assert!(!buzzer.is_playing());
        pin.done();
    }

    #[test]
    fn play_restarts_and_stop_silences() {
        let pin = PinMock::new(&[PinTx::set(L), PinTx::set(H), PinTx::set(L)]);
        let mut buzzer = Buzzer::new(pin, ActiveLevel::High).unwrap();
        buzzer.play(BeepPattern::Refuse, Millis(0)).unwrap();
        // Replacing a sounding pattern with another keeps the pin on: no write.
        buzzer.play(BeepPattern::Confirm, Millis(100)).unwrap();
        assert!(buzzer.is_playing());
        buzzer.stop().unwrap();
        assert!(!buzzer.is_playing());
        // Already silent: release writes nothing.
        let mut pin = buzzer.release();
        pin.done();
    }

    #[test]
    fn a_buzzer_pin_error_is_typed() {
        let busy = MockError::Io(std::io::ErrorKind::ResourceBusy);
        let mut pin = PinMock::new(&[PinTx::set(L), PinTx::set(H).with_error(busy.clone())]);
        let mut buzzer = Buzzer::new(pin.clone(), ActiveLevel::High).unwrap();
        let err = buzzer.play(BeepPattern::Confirm, Millis(0)).unwrap_err();
        assert_eq!(err, Error::Buzzer(busy));
        assert!(err.to_string().contains("buzzer"));
        pin.done();
    }

    #[test]
    fn patterns_are_short() {
        for p in [
            BeepPattern::Confirm,
            BeepPattern::Refuse,
            BeepPattern::Alert,
        ] {
            let total: u32 = p.beeps().iter().map(|b| b.on_ms + b.off_ms).sum();
            assert!(total > 0 && total <= 500, "{p:?}");
        }
    }
}
