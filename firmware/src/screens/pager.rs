//! Which page of a screen the OLED shows: what does not fit one page flows onto more
//! ([`crate::screens::layout`](super::Layout)), and the pages turn by themselves every
//! [`PAGE_MS`].

use super::page_count;
use crate::ui::Screen;

/// How long each page of a screen with several stays up before the next, in milliseconds.
pub const PAGE_MS: u64 = 3_000;

/// Which page of a screen to show now: pages turn every [`PAGE_MS`] from when the screen first
/// went up, and a new screen starts on page 1. A screen that differs only in its status line's
/// clock (the time used this turn ticks every second) is the same screen: its pages go on
/// turning.
#[derive(Clone, Debug, Default)]
pub struct Pager {
    /// The screen without its clock, since when it is up, and its page count.
    showing: Option<(Screen, u64, usize)>,
    /// The screen last asked about, clock and all: the same again (most steps) costs a compare.
    last: Option<Screen>,
}

impl Pager {
    /// The page of `screen` to show at `now_ms`.
    pub fn page(&mut self, screen: &Screen, now_ms: u64) -> usize {
        if self.last.as_ref() != Some(screen) {
            let key = without_clock(screen);
            let fresh = !self
                .showing
                .as_ref()
                .is_some_and(|(shown, _, _)| *shown == key);
            if fresh {
                let pages = page_count(screen).max(1);
                self.showing = Some((key, now_ms, pages));
            }
            self.last = Some(screen.clone());
        }
        match &self.showing {
            Some((_, since, pages)) if *pages > 1 => {
                usize::try_from(now_ms.saturating_sub(*since) / PAGE_MS).unwrap_or(0) % pages
            }
            _ => 0,
        }
    }
}

impl Pager {
    /// The page count of the screen last asked about (1 before any).
    pub fn pages(&self) -> usize {
        self.showing.as_ref().map_or(1, |(_, _, pages)| *pages)
    }
}

/// `screen` with its status line's running clock cleared: what changes only with the clock
/// is the same screen (the pager keeps its page; the phone pages are not re-sent).
pub fn without_clock(screen: &Screen) -> Screen {
    let mut screen = screen.clone();
    match &mut screen {
        Screen::Play { status, .. }
        | Screen::MoveAccepted { status, .. }
        | Screen::Illegal { status, .. }
        | Screen::Told { status, .. } => {
            status.elapsed_s = 0;
        }
        _ => {}
    }
    screen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::StatusLine;

    fn refusal(elapsed_s: u32, reason: &str) -> Screen {
        Screen::Illegal {
            status: StatusLine {
                turn: 3,
                to_act: "French (move)".into(),
                reinforcements_in: Some(4),
                elapsed_s,
                ..StatusLine::default()
            },
            reason: reason.into(),
            fix: "f7: put the Blue Fleur coin; f9: take the piece off".into(),
            places: Default::default(),
        }
    }

    #[test]
    fn pages_turn_while_the_clock_ticks_and_a_new_screen_starts_on_page_one() {
        let long = "that piece may not go to f9: too far, no way round the enemy, or no room \
                    (one regular coin, one symbol coin and one pawn per square)";
        let pages = crate::screens::page_count(&refusal(0, long));
        assert!(pages >= 2, "the example must take pages");
        let mut pager = Pager::default();
        let mut seen = Vec::new();
        // The status line's clock changes every second; the pages still turn every 3 s.
        for second in 0..(3 * pages as u64 + 1) {
            let screen = refusal(u32::try_from(second).unwrap(), long);
            seen.push(pager.page(&screen, 1_000 + second * 1_000));
        }
        assert_eq!(seen[0], 0);
        assert_eq!(seen[3], 1, "{seen:?}");
        assert_eq!(
            seen[3 * pages],
            0,
            "after the last page, the first: {seen:?}"
        );
        // Another screen starts again on page 1.
        assert_eq!(pager.page(&refusal(0, "another reason"), 30_000), 0);
        // A one-page screen is always page 1.
        let short = refusal(0, "x");
        assert_eq!(pager.page(&short, 40_000), 0);
        assert_eq!(pager.page(&short, 49_000), 0);
    }
}
