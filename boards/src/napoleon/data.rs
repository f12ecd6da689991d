//! What the three data files (map, order of battle, turn track) share: a problem with its line
//! ([`DataProblem`]), the reading of a file into entries of words, the problems found so far, and
//! the checks of a number and of a short code.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

/// One problem in a Napoléon data file, with the line it is on (0 when it is about the whole
/// file, such as something missing).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DataProblem {
    /// The line, from 1; 0 for the file as a whole.
    pub line: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for DataProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DataProblem {}

/// One non-blank line of a data file, cut into words, its comment removed.
pub(super) struct Entry<'a> {
    /// The line, from 1.
    pub(super) line: usize,
    /// Its words; never empty.
    pub(super) words: Vec<&'a str>,
}

/// The entries of `text`: `#` starts a comment, blank lines are skipped, a leading byte-order
/// mark is ignored.
pub(super) fn entries(text: &str) -> impl Iterator<Item = Entry<'_>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().enumerate().filter_map(|(i, raw)| {
        let content = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = content.split_whitespace().collect();
        (!words.is_empty()).then_some(Entry { line: i + 1, words })
    })
}

/// Problems found so far in one file.
#[derive(Default)]
pub(super) struct Report(pub(super) Vec<DataProblem>);

impl Report {
    pub(super) fn at(&mut self, line: usize, message: String) {
        self.0.push(DataProblem { line, message });
    }

    /// `value` when nothing was reported, else the problems.
    pub(super) fn finish<T>(self, value: T) -> Result<T, crate::Problems<DataProblem>> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self.into_problems())
        }
    }

    /// The problems in line order (those about the whole file first).
    pub(super) fn into_problems(mut self) -> crate::Problems<DataProblem> {
        self.0.sort_by_key(|p| p.line);
        crate::Problems(self.0)
    }
}

/// `word` read as a whole number from `lo` to `hi`, or a problem naming `what`.
pub(super) fn number(
    report: &mut Report,
    line: usize,
    subject: &str,
    what: &str,
    word: &str,
    lo: u16,
    hi: u16,
) -> Option<u16> {
    match word.parse::<u16>() {
        Ok(n) if (lo..=hi).contains(&n) => Some(n),
        _ => {
            report.at(
                line,
                alloc::format!(
                    "{subject}: {what} must be a whole number from {lo} to {hi}, not '{word}'"
                ),
            );
            None
        }
    }
}

/// Whether `code` is usable as a short name: 1 to 12 ASCII letters, digits, `-` or `_`.
pub(super) fn good_code(code: &str) -> bool {
    (1..=12).contains(&code.len())
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
