//! The MFRC522 driver against exact SPI transaction lists.
//!
//! Every byte below is written out literally (SPI address bytes, frames, CRC_A and BCC values
//! computed independently of the driver), so a change in what goes over the wire fails here.

use embedded_hal::spi::ErrorKind;
use embedded_hal_mock::eh1::delay::{CheckedDelay, Transaction as DelayTx};
use embedded_hal_mock::eh1::spi::{Mock as SpiMock, Transaction as Tx};

use super::mfrc522::{
    Atqa, ChipState, ChipVersion, Error, Garble, Mfrc522, Mfrc522Ready, Selected, MAX_POLLS,
};
use crate::sensing::{TagFailure, TagUid};
use crate::sim::NoDelay;

// SPI address bytes: write = reg << 1, read = 0x80 | reg << 1.
const W_COMMAND: u8 = 0x02; // CommandReg 0x01
const R_COMMAND: u8 = 0x82;
const W_COM_IRQ: u8 = 0x08; // ComIrqReg 0x04
const R_COM_IRQ: u8 = 0x88;
const R_ERROR: u8 = 0x8C; // ErrorReg 0x06
const W_FIFO: u8 = 0x12; // FIFODataReg 0x09
const R_FIFO: u8 = 0x92;
const W_FIFO_LEVEL: u8 = 0x14; // FIFOLevelReg 0x0A
const R_FIFO_LEVEL: u8 = 0x94;
const R_CONTROL: u8 = 0x98; // ControlReg 0x0C
const W_BIT_FRAMING: u8 = 0x1A; // BitFramingReg 0x0D
const W_MODE: u8 = 0x22; // ModeReg 0x11
const W_TX_CONTROL: u8 = 0x28; // TxControlReg 0x14
const R_TX_CONTROL: u8 = 0xA8;
const W_TX_ASK: u8 = 0x2A; // TxASKReg 0x15
const W_T_MODE: u8 = 0x54; // TModeReg 0x2A
const R_T_MODE: u8 = 0xD4;
const W_T_PRESCALER: u8 = 0x56; // TPrescalerReg 0x2B
const R_T_PRESCALER: u8 = 0xD6;
const W_T_RELOAD_H: u8 = 0x58; // TReloadRegH 0x2C
const R_T_RELOAD_H: u8 = 0xD8;
const W_T_RELOAD_L: u8 = 0x5A; // TReloadRegL 0x2D
const R_T_RELOAD_L: u8 = 0xDA;
const R_COLL: u8 = 0x9C; // CollReg 0x0E
const R_VERSION: u8 = 0xEE; // VersionReg 0x37

// ComIrqReg values as a real chip shows them: TxIRq and LoAlertIRq are up once the frame has
// gone out; RxIRq when the answer is in; TimerIRq when the timer ran out.
const IRQ_WAITING: u8 = 0x44;
const IRQ_RECEIVED: u8 = 0x64;
const IRQ_TIMED_OUT: u8 = 0x45;

/// One SPI write, framed by chip select.
fn write(bytes: &[u8]) -> Vec<Tx<u8>> {
    vec![
        Tx::transaction_start(),
        Tx::write_vec(bytes.to_vec()),
        Tx::transaction_end(),
    ]
}

/// One register read: `[address, 0x00]` out, the value in the second byte back.
fn read(address: u8, value: u8) -> Vec<Tx<u8>> {
    vec![
        Tx::transaction_start(),
        Tx::transfer(vec![address, 0x00], vec![0x00, value]),
        Tx::transaction_end(),
    ]
}

/// The writes that start a Transceive of `frame` with BitFramingReg `bit_framing`.
fn send(frame: &[u8], bit_framing: u8) -> Vec<Tx<u8>> {
    let mut fifo = vec![W_FIFO];
    fifo.extend_from_slice(frame);
    [
        write(&[W_COMMAND, 0x00]),    // Idle
        write(&[W_COM_IRQ, 0x7F]),    // clear the interrupt bits
        write(&[W_FIFO_LEVEL, 0x80]), // flush the FIFO
        write(&fifo),                 // the frame
        write(&[W_BIT_FRAMING, bit_framing]),
        write(&[W_COMMAND, 0x0C]),                   // Transceive
        write(&[W_BIT_FRAMING, 0x80 | bit_framing]), // StartSend
    ]
    .concat()
}

/// ComIrqReg polls returning `values` in turn.
fn polls(values: &[u8]) -> Vec<Tx<u8>> {
    values.iter().flat_map(|v| read(R_COM_IRQ, *v)).collect()
}

/// A clean answer of `bytes`: ErrorReg 0, the FIFO level, ControlReg 0, then the FIFO read.
fn answer(bytes: &[u8]) -> Vec<Tx<u8>> {
    let n = bytes.len();
    let mut out = vec![R_FIFO; n];
    out.push(0x00);
    let mut back = vec![0x00];
    back.extend_from_slice(bytes);
    [
        read(R_ERROR, 0x00),
        read(R_FIFO_LEVEL, n as u8),
        read(R_CONTROL, 0x00),
        vec![
            Tx::transaction_start(),
            Tx::transfer(out, back),
            Tx::transaction_end(),
        ],
    ]
    .concat()
}

/// A whole exchange: send, one wait, the answer.
fn exchange(frame: &[u8], bit_framing: u8, reply: &[u8]) -> Vec<Tx<u8>> {
    [
        send(frame, bit_framing),
        polls(&[IRQ_WAITING, IRQ_RECEIVED]),
        answer(reply),
    ]
    .concat()
}

/// Runs `f` on an initialised driver over a mock expecting `expected` (the init itself is
/// tested on its own), then checks every transaction ran.
fn with_chip<T>(
    expected: &[Tx<u8>],
    f: impl FnOnce(&mut Mfrc522Ready<SpiMock<u8>, NoDelay>) -> T,
) -> T {
    let spi = SpiMock::new(expected);
    let chip = Mfrc522::new(spi, NoDelay);
    let mut chip = Mfrc522Ready::assume_initialised(chip);
    let out = f(&mut chip);
    let (mut spi, _) = chip.release();
    spi.done();
    out
}

/// Runs `f` on an uninitialised driver over a mock expecting `expected`.
fn with_new_chip<T>(
    expected: &[Tx<u8>],
    f: impl FnOnce(&mut Mfrc522<SpiMock<u8>, NoDelay>) -> T,
) -> T {
    let spi = SpiMock::new(expected);
    let mut chip = Mfrc522::new(spi, NoDelay);
    let out = f(&mut chip);
    let (mut spi, _) = chip.release();
    spi.done();
    out
}

/// Initialises a driver over a mock expecting `expected`: done, or the error.
fn init(expected: &[Tx<u8>]) -> Result<(), Error<ErrorKind>> {
    let mut spi = SpiMock::new(expected);
    let result = Mfrc522::new(spi.clone(), NoDelay).init().map(|_| ());
    spi.done();
    result.map_err(|e| match e {
        Error::Spi(e) => Error::Spi(embedded_hal::spi::Error::kind(&e)),
        Error::NotAnswering { version } => Error::NotAnswering { version },
        Error::ResetTimeout => Error::ResetTimeout,
        Error::NotInitialised(s) => Error::NotInitialised(s),
        Error::ChipStuck => Error::ChipStuck,
        Error::Overheated => Error::Overheated,
        Error::NoTag => Error::NoTag,
        Error::Collision => Error::Collision,
        Error::Garbled(g) => Error::Garbled(g),
    })
}

/// The reads of [`Mfrc522::state`]: CommandReg, TxControlReg, then the four timer registers.
fn state(command: u8, tx_control: u8, timer: [u8; 4]) -> Vec<Tx<u8>> {
    [
        read(R_COMMAND, command),
        read(R_TX_CONTROL, tx_control),
        read(R_T_MODE, timer[0]),
        read(R_T_PRESCALER, timer[1]),
        read(R_T_RELOAD_H, timer[2]),
        read(R_T_RELOAD_L, timer[3]),
    ]
    .concat()
}

// The NTAG UID used throughout, and its frames.
const NTAG_UID: [u8; 7] = [0x04, 0xA2, 0x1B, 0x7C, 0x33, 0x5E, 0x80];

fn ntag_select() -> Vec<Tx<u8>> {
    [
        // Cascade level 1: the cascade tag 0x88, then UID bytes 0..3, BCC 0x35.
        exchange(&[0x93, 0x20], 0x00, &[0x88, 0x04, 0xA2, 0x1B, 0x35]),
        exchange(
            &[0x93, 0x70, 0x88, 0x04, 0xA2, 0x1B, 0x35, 0x7D, 0xD6],
            0x00,
            &[0x04, 0xDA, 0x17], // SAK 0x04: UID not complete
        ),
        // Cascade level 2: UID bytes 3..7, BCC 0x91.
        exchange(&[0x95, 0x20], 0x00, &[0x7C, 0x33, 0x5E, 0x80, 0x91]),
        exchange(
            &[0x95, 0x70, 0x7C, 0x33, 0x5E, 0x80, 0x91, 0x99, 0x10],
            0x00,
            &[0x00, 0xFE, 0x51], // SAK 0x00: complete, NTAG21x
        ),
    ]
    .concat()
}

#[test]
fn version_of_a_genuine_chip() {
    let expected = [
        Tx::transaction_start(),
        Tx::transfer(vec![0xEE, 0x00], vec![0x00, 0x92]),
        Tx::transaction_end(),
    ];
    assert_eq!(
        with_new_chip(&expected, |c| c.version()),
        Ok(ChipVersion::V2_0)
    );
    let v1 = read(R_VERSION, 0x91);
    assert_eq!(with_new_chip(&v1, |c| c.version()), Ok(ChipVersion::V1_0));
}

#[test]
fn version_of_a_clone() {
    let expected = read(R_VERSION, 0x88);
    let version = with_new_chip(&expected, |c| c.version());
    assert_eq!(version, Ok(ChipVersion::Clone));
    let odd = read(R_VERSION, 0xB2);
    assert_eq!(
        with_new_chip(&odd, |c| c.version()),
        Ok(ChipVersion::Unknown(0xB2))
    );
}

#[test]
fn version_of_a_chip_not_answering_says_check_wiring_and_power() {
    for value in [0x00, 0xFF] {
        let expected = read(R_VERSION, value);
        let err = with_new_chip(&expected, |c| c.version()).unwrap_err();
        assert_eq!(err, Error::NotAnswering { version: value });
        assert_eq!(err.tag_failure(), TagFailure::ReaderFault);
        let text = err.to_string();
        assert!(text.contains("does not answer"), "{text}");
        assert!(text.contains("power"), "{text}");
        assert!(text.contains("wire"), "{text}");
    }
}

/// The writes and reads of a healthy init after the soft reset finished: timer, ASK, mode,
/// the antenna switched on from `tx_control`, and the read-back.
fn configure(tx_control: u8) -> Vec<Tx<u8>> {
    let mut out = [
        write(&[W_T_MODE, 0x80]),      // TAuto
        write(&[W_T_PRESCALER, 0xA9]), // 40 kHz
        write(&[W_T_RELOAD_H, 0x00]),
        write(&[W_T_RELOAD_L, 0x4F]), // 80 ticks = 2.0 ms
        write(&[W_TX_ASK, 0x40]),     // Force100ASK
        write(&[W_MODE, 0x3D]),       // CRC preset 0x6363
        read(R_TX_CONTROL, tx_control),
    ]
    .concat();
    if tx_control & 0x03 != 0x03 {
        out.extend(write(&[W_TX_CONTROL, tx_control | 0x03]));
    }
    out.extend(state(0x20, tx_control | 0x03, [0x80, 0xA9, 0x00, 0x4F]));
    out
}

/// Finding of the issue: the reader was never initialised on a Pi, and nothing waited for its
/// oscillator. Init now waits 1 ms before each PowerDown poll, and the result is the only type
/// that reads tags.
#[test]
fn init_resets_waits_for_the_oscillator_sets_a_2_ms_timer_and_switches_the_antenna_on() {
    let expected = [
        read(R_VERSION, 0x92),
        write(&[W_COMMAND, 0x0F]), // SoftReset
        read(R_COMMAND, 0x30),     // PowerDown still set: the oscillator is not up yet
        read(R_COMMAND, 0x20),     // PowerDown clear
        configure(0x80),           // reset value: antenna off
    ]
    .concat();
    let spi = SpiMock::new(&expected);
    let delay = CheckedDelay::new(&[DelayTx::delay_ms(1), DelayTx::delay_ms(1)]);
    let ready = Mfrc522::new(spi, delay).init().unwrap();
    let (mut spi, mut delay) = ready.release();
    spi.done();
    delay.done();
}

#[test]
fn after_a_hard_reset_the_driver_waits_50_ms_before_touching_the_bus() {
    let mut spi = SpiMock::new(&[]);
    let delay = CheckedDelay::new(&[DelayTx::delay_ms(50)]);
    let chip = Mfrc522::after_hard_reset(spi.clone(), delay);
    let (_, mut delay) = chip.release();
    delay.done();
    spi.done();
}

#[test]
fn init_leaves_an_antenna_already_on_alone() {
    let expected = [
        read(R_VERSION, 0x88),
        write(&[W_COMMAND, 0x0F]),
        read(R_COMMAND, 0x00),
        configure(0x83),
    ]
    .concat();
    // A clone (VersionReg 0x88) is set up like a genuine chip.
    assert_eq!(init(&expected), Ok(()));
}

#[test]
fn init_of_a_missing_chip_stops_at_the_version() {
    let expected = read(R_VERSION, 0xFF);
    assert_eq!(init(&expected), Err(Error::NotAnswering { version: 0xFF }));
}

#[test]
fn init_gives_up_on_a_reset_that_never_finishes() {
    let mut expected = [read(R_VERSION, 0x92), write(&[W_COMMAND, 0x0F])].concat();
    for _ in 0..50 {
        expected.extend(read(R_COMMAND, 0x10));
    }
    let err = init(&expected).unwrap_err();
    assert_eq!(err, Error::ResetTimeout);
    assert!(err.to_string().contains("power"));
}

#[test]
fn init_of_a_chip_that_ignores_writes_is_not_initialised() {
    // MOSI broken: reads answer, but TxControlReg and the timer keep their reset values.
    let expected = [
        read(R_VERSION, 0x92),
        write(&[W_COMMAND, 0x0F]),
        read(R_COMMAND, 0x20),
        write(&[W_T_MODE, 0x80]),
        write(&[W_T_PRESCALER, 0xA9]),
        write(&[W_T_RELOAD_H, 0x00]),
        write(&[W_T_RELOAD_L, 0x4F]),
        write(&[W_TX_ASK, 0x40]),
        write(&[W_MODE, 0x3D]),
        read(R_TX_CONTROL, 0x80),
        write(&[W_TX_CONTROL, 0x83]),
        state(0x20, 0x80, [0x00, 0x00, 0x00, 0x00]),
    ]
    .concat();
    let err = init(&expected).unwrap_err();
    let expected_state = ChipState {
        powered_down: false,
        antenna_on: false,
        timer_set: false,
    };
    assert_eq!(err, Error::NotInitialised(expected_state));
    assert!(err.to_string().contains("MOSI"), "{err}");
    assert!(err.is_reader_fault());
}

#[test]
fn the_state_of_a_chip_never_initialised_says_so() {
    let expected = state(0x20, 0x80, [0x00, 0x00, 0x00, 0x00]);
    let state = with_new_chip(&expected, |c| c.state()).unwrap();
    assert!(!state.antenna_on && !state.timer_set && !state.is_initialised());
}

#[test]
fn soft_power_down_and_wake_switch_the_field_off_and_on() {
    let expected = [
        write(&[W_COMMAND, 0x10]), // Idle + PowerDown
        write(&[W_COMMAND, 0x00]), // Idle: wake
        read(R_COMMAND, 0x10),     // still waking
        read(R_COMMAND, 0x00),
    ]
    .concat();
    with_chip(&expected, |c| {
        c.power_down().unwrap();
        c.wake().unwrap();
    });
}

#[test]
fn reqa_anticollision_and_select_of_a_4_byte_uid() {
    let expected = [
        // REQA: 0x26 as a 7-bit short frame (BitFramingReg TxLastBits = 7); ATQA 04 00.
        exchange(&[0x26], 0x07, &[0x04, 0x00]),
        // ANTICOLLISION CL1: SEL 0x93, NVB 0x20; the UID DE AD BE EF and BCC 0x22.
        exchange(&[0x93, 0x20], 0x00, &[0xDE, 0xAD, 0xBE, 0xEF, 0x22]),
        // SELECT CL1: SEL, NVB 0x70, UID, BCC, CRC_A 0xB9 0x9C; SAK 0x08 + CRC_A.
        exchange(
            &[0x93, 0x70, 0xDE, 0xAD, 0xBE, 0xEF, 0x22, 0xB9, 0x9C],
            0x00,
            &[0x08, 0xB6, 0xDD],
        ),
    ]
    .concat();
    let (atqa, selected) = with_chip(&expected, |c| (c.reqa(), c.select()));
    assert_eq!(atqa, Ok(Atqa([0x04, 0x00])));
    assert_eq!(
        selected,
        Ok(Selected {
            uid: TagUid::new(&[0xDE, 0xAD, 0xBE, 0xEF]).unwrap(),
            sak: 0x08,
        })
    );
}

#[test]
fn read_uid_of_a_7_byte_ntag_goes_through_the_cascade_and_halts_it() {
    let expected = [
        // WUPA 0x52, 7 bits; ATQA 44 00 (NTAG21x).
        exchange(&[0x52], 0x07, &[0x44, 0x00]),
        ntag_select(),
        // HLTA 50 00 + CRC_A 57 CD; a halted tag stays silent until the timer runs out.
        send(&[0x50, 0x00, 0x57, 0xCD], 0x00),
        polls(&[IRQ_WAITING, IRQ_WAITING, IRQ_TIMED_OUT]),
    ]
    .concat();
    let uid = with_chip(&expected, |c| c.read_uid());
    assert_eq!(uid, Ok(TagUid::new(&NTAG_UID).unwrap()));
}

#[test]
fn no_tag_is_the_chip_timer_running_out() {
    let expected = [
        send(&[0x52], 0x07),
        polls(&[IRQ_WAITING, IRQ_WAITING, IRQ_WAITING, IRQ_TIMED_OUT]),
    ]
    .concat();
    let err = with_chip(&expected, |c| c.read_uid()).unwrap_err();
    assert_eq!(err, Error::NoTag);
    assert_eq!(TagFailure::from(err), TagFailure::NoTag);
}

#[test]
fn a_chip_that_never_reports_is_given_up_after_a_bounded_number_of_polls() {
    let expected = [send(&[0x26], 0x07), polls(&vec![0x00; MAX_POLLS as usize])].concat();
    let err = with_chip(&expected, |c| c.reqa()).unwrap_err();
    assert_eq!(err, Error::ChipStuck);
    assert_eq!(err.tag_failure(), TagFailure::ReaderFault);
}

#[test]
fn two_tags_answering_anticollision_is_a_collision() {
    let expected = [
        exchange(&[0x52], 0x07, &[0x44, 0x00]),
        send(&[0x93, 0x20], 0x00),
        polls(&[IRQ_RECEIVED | 0x02]), // ErrIRq too
        read(R_ERROR, 0x08),           // CollErr
    ]
    .concat();
    let err = with_chip(&expected, |c| c.read_uid()).unwrap_err();
    assert_eq!(err, Error::Collision);
    assert_eq!(err.tag_failure(), TagFailure::Collision);
    assert!(err.to_string().contains("one piece per square"));
}

#[test]
fn a_bad_bcc_is_garbled_and_nothing_is_selected() {
    let expected = [
        exchange(&[0x26], 0x07, &[0x04, 0x00]),
        // BCC should be 0x22.
        exchange(&[0x93, 0x20], 0x00, &[0xDE, 0xAD, 0xBE, 0xEF, 0x23]),
    ]
    .concat();
    let err = with_chip(&expected, |c| c.reqa().and_then(|_| c.select())).unwrap_err();
    assert_eq!(err, Error::Garbled(Garble::BadBcc));
    assert_eq!(err.tag_failure(), TagFailure::Garbled);
    assert!(err.to_string().contains("lift the piece"));
}

#[test]
fn a_bad_sak_crc_is_garbled() {
    let expected = [
        exchange(&[0x93, 0x20], 0x00, &[0xDE, 0xAD, 0xBE, 0xEF, 0x22]),
        exchange(
            &[0x93, 0x70, 0xDE, 0xAD, 0xBE, 0xEF, 0x22, 0xB9, 0x9C],
            0x00,
            &[0x08, 0xB6, 0xDE],
        ),
    ]
    .concat();
    assert_eq!(
        with_chip(&expected, |c| c.select()),
        Err(Error::Garbled(Garble::BadCrc))
    );
}

#[test]
fn a_cascade_tag_without_the_sak_cascade_bit_is_garbled() {
    let expected = [
        exchange(&[0x93, 0x20], 0x00, &[0x88, 0x04, 0xA2, 0x1B, 0x35]),
        exchange(
            &[0x93, 0x70, 0x88, 0x04, 0xA2, 0x1B, 0x35, 0x7D, 0xD6],
            0x00,
            &[0x00, 0xFE, 0x51], // SAK says complete, but the UID began with 0x88
        ),
    ]
    .concat();
    assert_eq!(
        with_chip(&expected, |c| c.select()),
        Err(Error::Garbled(Garble::BadCascade))
    );
}

#[test]
fn parity_errors_and_short_answers_are_garbled() {
    let parity = [
        send(&[0x26], 0x07),
        polls(&[IRQ_RECEIVED]),
        read(R_ERROR, 0x02), // ParityErr
    ]
    .concat();
    assert_eq!(
        with_chip(&parity, |c| c.reqa()),
        Err(Error::Garbled(Garble::Framing { error_reg: 0x02 }))
    );
    let short = [
        send(&[0x26], 0x07),
        polls(&[IRQ_RECEIVED]),
        read(R_ERROR, 0x00),
        read(R_FIFO_LEVEL, 0x01),
        read(R_CONTROL, 0x04),
    ]
    .concat();
    assert_eq!(
        with_chip(&short, |c| c.reqa()),
        Err(Error::Garbled(Garble::WrongLength {
            expected: 2,
            got: 1,
            last_bits: 4
        }))
    );
}

#[test]
fn an_overheated_chip_is_a_reader_fault() {
    let expected = [
        send(&[0x26], 0x07),
        polls(&[IRQ_RECEIVED]),
        read(R_ERROR, 0x40),
    ]
    .concat();
    let err = with_chip(&expected, |c| c.reqa()).unwrap_err();
    assert_eq!(err, Error::Overheated);
    assert!(err.is_reader_fault());
}

#[test]
fn a_bus_error_is_a_reader_fault_that_says_check_the_wires() {
    let err: Error<ErrorKind> = Error::Spi(ErrorKind::Other);
    assert_eq!(err.tag_failure(), TagFailure::ReaderFault);
    assert!(err.to_string().contains("MISO"));
}

#[test]
fn two_reads_of_an_ntag_through_an_initialised_reader_agree_under_the_default_voting() {
    use crate::drivers::nfc::reader::vote;
    use crate::drivers::nfc::Voting;

    let one_read = [
        exchange(&[0x52], 0x07, &[0x44, 0x00]),
        ntag_select(),
        send(&[0x50, 0x00, 0x57, 0xCD], 0x00),
        polls(&[IRQ_TIMED_OUT]),
    ]
    .concat();
    let spi = SpiMock::new(&[one_read.clone(), one_read].concat());
    let chip = Mfrc522::new(spi, NoDelay);
    let mut chip = Mfrc522Ready::assume_initialised(chip);
    let mut last_fault = None;
    let result = vote(Voting::DEFAULT, &mut last_fault, || chip.read_uid());
    assert_eq!(result, Ok(TagUid::new(&NTAG_UID).unwrap()));
    assert_eq!(last_fault, None);
    chip.release().0.done();
}

/// The field is cycled (off 5 ms, on 5.1 ms) so every tag starts in IDLE.
fn field_reset() -> Vec<Tx<u8>> {
    [
        read(R_TX_CONTROL, 0x83),
        write(&[W_TX_CONTROL, 0x80]),
        write(&[W_TX_CONTROL, 0x83]),
    ]
    .concat()
}

/// HLTA: sent, never answered.
fn hlta() -> Vec<Tx<u8>> {
    [
        send(&[0x50, 0x00, 0x57, 0xCD], 0x00),
        polls(&[IRQ_TIMED_OUT]),
    ]
    .concat()
}

#[test]
fn inventory_resolves_two_tags_bit_by_bit_and_lists_both() {
    // Tag A: UID 10 20 30 40 (BCC 40); tag B: UID 10 20 31 40 (BCC 41). They first differ in
    // bit 17 of the level (byte 2, bit 0).
    let expected = [
        field_reset(),
        exchange(&[0x26], 0x07, &[0x04, 0x00]), // REQA: both answer the same ATQA
        // ANTICOLLISION: the bits collide at position 17 (CollReg 0x11); the FIFO holds the
        // 17 bits up to it.
        send(&[0x93, 0x20], 0x00),
        polls(&[IRQ_WAITING, IRQ_RECEIVED]),
        read(R_ERROR, 0x08),
        read(R_COLL, 0x11),
        read(R_FIFO_LEVEL, 3),
        read(R_CONTROL, 0x01),
        vec![
            Tx::transaction_start(),
            Tx::transfer(
                vec![R_FIFO, R_FIFO, R_FIFO, 0x00],
                vec![0x00, 0x10, 0x20, 0x30],
            ),
            Tx::transaction_end(),
        ],
        // Again with the 17 bits known, bit 17 set: NVB 0x41 (4 bytes + 1 bit), RxAlign and
        // TxLastBits 1. Only B answers: the rest of byte 2 (aligned at bit 1), byte 3, BCC.
        exchange(&[0x93, 0x41, 0x10, 0x20, 0x31], 0x11, &[0x30, 0x40, 0x41]),
        exchange(
            &[0x93, 0x70, 0x10, 0x20, 0x31, 0x40, 0x41, 0x16, 0x2B],
            0x00,
            &[0x08, 0xB6, 0xDD],
        ),
        hlta(),
        // B is halted: A alone answers.
        exchange(&[0x26], 0x07, &[0x04, 0x00]),
        exchange(&[0x93, 0x20], 0x00, &[0x10, 0x20, 0x30, 0x40, 0x40]),
        exchange(
            &[0x93, 0x70, 0x10, 0x20, 0x30, 0x40, 0x40, 0x43, 0x60],
            0x00,
            &[0x08, 0xB6, 0xDD],
        ),
        hlta(),
        // Nobody left awake.
        send(&[0x26], 0x07),
        polls(&[IRQ_TIMED_OUT]),
    ]
    .concat();
    let tags = with_chip(&expected, |c| c.inventory()).unwrap();
    let a = TagUid::new(&[0x10, 0x20, 0x30, 0x40]).unwrap();
    let b = TagUid::new(&[0x10, 0x20, 0x31, 0x40]).unwrap();
    assert_eq!(tags, vec![b, a]);
}

#[test]
fn inventory_of_an_empty_field_is_empty() {
    let expected = [field_reset(), send(&[0x26], 0x07), polls(&[IRQ_TIMED_OUT])].concat();
    assert_eq!(with_chip(&expected, |c| c.inventory()), Ok(vec![]));
}
