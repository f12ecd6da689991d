//! The QR code the OLED draws of a seat's address ([`crate::web::link`]), as modules: small
//! enough to fit the 64 rows at 2 pixels a module.

use std::fmt;

use qrcodegen::{QrCode, QrCodeEcc, QrSegment, Version};

/// The largest QR code version the OLED draws: 29 modules, 58 pixels at 2 a module, which
/// leaves a quiet zone in the 64 rows.
pub const MAX_VERSION: u8 = 3;

/// A QR code's modules: `size` x `size`, dark ones `true`, row by row.
#[derive(Clone, PartialEq, Eq)]
pub struct Modules {
    size: usize,
    dark: Vec<bool>,
}

impl fmt::Debug for Modules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The modules spell a seat's key: never in a log.
        write!(f, "Modules({0}x{0})", self.size)
    }
}

impl Modules {
    /// Modules on a side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether the module at column `x`, row `y` is dark (outside: light, the quiet zone).
    pub fn dark(&self, x: usize, y: usize) -> bool {
        x < self.size && y < self.size && self.dark[y * self.size + x]
    }
}

/// `text`'s QR code, at most [`MAX_VERSION`], with the strongest error correction that fits
/// (at least level L); `None` if it does not fit.
pub fn qr(text: &str) -> Option<Modules> {
    let segments = QrSegment::make_segments(text);
    let code = QrCode::encode_segments_advanced(
        &segments,
        QrCodeEcc::Low,
        Version::MIN,
        Version::new(MAX_VERSION),
        None,
        true,
    )
    .ok()?;
    let size = usize::try_from(code.size()).ok()?;
    let mut dark = Vec::with_capacity(size * size);
    for y in 0..code.size() {
        for x in 0..code.size() {
            dark.push(code.get_module(x, y));
        }
    }
    Some(Modules { size, dark })
}
