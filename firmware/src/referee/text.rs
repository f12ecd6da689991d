//! Screens as plain text lines: for logs, the simulator's terminal OLED and scenario checks.
//! The pixel renderer is `screens`; this says the same words without the layout.

use crate::ui::{Screen, StatusLine};

fn status(s: &StatusLine) -> String {
    let mut line = format!("Move {} | {} to act", s.turn, s.to_act);
    match s.actions_left {
        Some(1) => line.push_str(" | 1 action left"),
        Some(n) => line.push_str(&format!(" | {n} actions left")),
        None => {}
    }
    line
}

/// The screen's words, one line each, top to bottom.
pub fn screen_lines(screen: &Screen) -> Vec<String> {
    match screen {
        Screen::Boot { version, detail } => vec![format!("Umpire {version}"), detail.clone()],
        Screen::Choice {
            title,
            entries,
            selected,
        } => {
            let mut lines = vec![format!("{title}:")];
            for (i, e) in entries.iter().enumerate() {
                let mark = if i == *selected { '>' } else { ' ' };
                lines.push(format!("{mark} {e}"));
            }
            lines.push("Die: next  OK: choose  Back: up".into());
            lines
        }
        Screen::Setup {
            seat,
            instruction,
            placed,
            needed,
        } => vec![
            format!("{seat} set-up"),
            instruction.clone(),
            format!("placed {placed} of {needed}"),
        ],
        Screen::Problems { title, problems } => {
            let mut lines = vec![format!("{title}: {} problem(s)", problems.len())];
            lines.extend(problems.iter().cloned());
            lines
        }
        Screen::Play { status: s, prompt } => vec![status(s), prompt.clone()],
        Screen::MoveAccepted { status: s, mv } => vec![status(s), format!("Played {mv}")],
        Screen::Illegal {
            status: s,
            reason,
            fix,
        } => vec![
            status(s),
            format!("Not allowed: {reason}"),
            format!("Fix: {fix}"),
        ],
        Screen::Battle {
            attacker,
            defender,
            result,
            hands,
        } => {
            let mut lines = vec![format!("{attacker} attacks {defender}"), result.clone()];
            lines.extend(hands.iter().map(|h| format!("- {h}")));
            lines
        }
        Screen::Told {
            status: s,
            title,
            lines,
            hands,
        } => {
            let mut out = vec![status(s), title.clone()];
            out.extend(lines.iter().cloned());
            out.extend(hands.iter().map(|h| format!("- {h}")));
            out
        }
        Screen::DieRoll { face, meaning } => vec![format!("Die: {face}"), meaning.clone()],
        Screen::Mismatch { differences } => {
            let mut lines = vec!["Board differs:".to_string()];
            lines.extend(
                differences
                    .iter()
                    .map(|d| format!("{}: {}", d.place, d.belongs)),
            );
            lines
        }
        Screen::Takeback {
            moves_back,
            to_move_number,
        } => vec![
            format!("Take back {moves_back} move(s)?"),
            format!("Back to move {to_move_number}"),
            "OK: take back  Back: no".into(),
        ],
        Screen::GameOver { result, reason } => {
            vec![
                format!("Game over: {result}"),
                reason.clone(),
                "OK: new game".into(),
            ]
        }
        Screen::Error { message, fix } => vec![format!("Error: {message}"), fix.clone()],
        Screen::Recovery {
            found,
            detail,
            entries,
            selected,
        } => {
            let mut lines = vec![format!("Last game: {found}"), detail.clone()];
            for (i, e) in entries.iter().enumerate() {
                let mark = if i == *selected { '>' } else { ' ' };
                lines.push(format!("{mark} {e}"));
            }
            lines.push("Die: next  OK: choose".into());
            lines
        }
        Screen::Calibrate {
            columns,
            rows,
            occupied,
            seen,
            note,
        } => vec![
            format!(
                "Calibrate {columns}x{rows}: {} occupied, {} of {} seen",
                occupied.len(),
                seen.len(),
                usize::from(*columns) * usize::from(*rows)
            ),
            note.clone(),
        ],
        Screen::Fault {
            part,
            problem,
            fix,
            more,
        } => {
            let mut lines = vec![format!("Fault: {part}: {problem}"), format!("Fix: {fix}")];
            if *more > 0 {
                lines.push(format!("+{more} more"));
            }
            lines
        }
    }
}

/// The screen's words on one line, parts separated by ` / `.
pub fn screen_text(screen: &Screen) -> String {
    screen_lines(screen).join(" / ")
}
