//! The layout files of the map games (Napoléon, Sa Belle Alliance): which sensed square is each
//! place of the map. One reader for the shape they share — a `grid: COLUMNSxROWS` line and
//! `NAME: SQUARES` lines, `#` starting a comment — so each game reads only what its names mean.
//!
//! Every square senses one place: a square given twice, a square off the grid, a word that is no
//! square, a name given twice and a line that is not `NAME: SQUARES` are each a problem with its
//! line and its fix. A file saved with a byte-order mark or Windows line ends reads the same.

use std::collections::BTreeMap;

use boards::geometry::grid::Cell;

use crate::sensing::Place;

/// One `NAME: SQUARES` line, its name read by the game.
pub(super) struct SquareLine<T> {
    /// Its line in the file, from 1.
    pub line: usize,
    /// What the game read its name as.
    pub what: T,
    /// Its name, white space folded ("town  BRU" is "town BRU").
    pub name: String,
    /// Its squares in the order given, without the ones with a problem.
    pub places: Vec<Place>,
}

/// A layout file read: its grid and its lines.
pub(super) struct SquareFile<T> {
    /// The grid's columns.
    pub columns: u8,
    /// The grid's rows.
    pub rows: u8,
    /// The lines whose name the game knows, in file order.
    pub lines: Vec<SquareLine<T>>,
    /// Every name given (the grid's and the ones the game does not know too), with its line.
    pub seen: BTreeMap<String, usize>,
    /// The problems found so far, each with its line (0: the file as a whole): the game adds
    /// its own and ends with [`verdict`].
    pub problems: Vec<(usize, String)>,
}

/// `value` when no problem was found, else every problem in line order: how a game ends its
/// reading of a layout file.
pub(super) fn verdict<V>(
    problems: Vec<(usize, String)>,
    value: V,
) -> Result<V, Vec<(usize, String)>> {
    if problems.is_empty() {
        Ok(value)
    } else {
        Err(in_line_order(problems))
    }
}

fn in_line_order(mut problems: Vec<(usize, String)>) -> Vec<(usize, String)> {
    problems.sort_by_key(|p| p.0);
    problems
}

/// Reads `text`: the lines whose name `name` knows, every other problem in the file's
/// `problems`. `space` is what the game calls a square's place ("slot", "space"), `example` a
/// grid for the fix of a missing one ("26x31").
///
/// # Errors
/// Every problem found, in line order, when there is no grid line: the squares cannot be
/// checked against it then.
pub(super) fn read<T>(
    text: &str,
    space: &str,
    example: &str,
    mut name: impl FnMut(&str) -> Result<T, String>,
) -> Result<SquareFile<T>, Vec<(usize, String)>> {
    let mut problems: Vec<(usize, String)> = Vec::new();
    let mut grid: Option<(u8, u8)> = None;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut owner: BTreeMap<Cell, (String, usize)> = BTreeMap::new();
    let mut lines = Vec::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let Some((given, squares)) = body.rsplit_once(':') else {
            problems.push((
                line,
                format!("\"{body}\" is not NAME: SQUARES: write a name, a colon, its squares"),
            ));
            continue;
        };
        let given = given.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(first) = seen.get(&given) {
            problems.push((
                line,
                format!("{given} is given twice (first on line {first}): keep one line"),
            ));
            continue;
        }
        seen.insert(given.clone(), line);
        if given == "grid" {
            match grid_size(squares) {
                Some(size) => grid = Some(size),
                None => problems.push((
                    line,
                    format!(
                        "grid \"{}\" is not COLUMNSxROWS: write e.g. {example} (at most {} \
                         columns)",
                        squares.trim(),
                        Cell::FILES
                    ),
                )),
            }
            continue;
        }
        let what = match name(&given) {
            Ok(what) => what,
            Err(problem) => {
                problems.push((line, problem));
                continue;
            }
        };
        let mut places = Vec::new();
        for word in squares.split_whitespace() {
            let Some(cell) = Cell::parse(word) else {
                problems.push((
                    line,
                    format!(
                        "{given}: \"{word}\" is not a square: write a letter and a number, like c4"
                    ),
                ));
                continue;
            };
            if let Some((other, at)) = owner.get(&cell) {
                problems.push((
                    line,
                    format!(
                        "{given}: {cell} is also a {space} of {other} (line {at}): a square senses \
                         one {space} only, give another"
                    ),
                ));
                continue;
            }
            owner.insert(cell, (given.clone(), line));
            places.push(Place::Square(cell));
        }
        lines.push(SquareLine {
            line,
            what,
            name: given,
            places,
        });
    }
    let Some((columns, rows)) = grid else {
        problems.push((
            0,
            format!(
                "the layout has no grid line: add \"grid: COLUMNSxROWS\", e.g. grid: {example}"
            ),
        ));
        return Err(in_line_order(problems));
    };
    for (cell, (given, line)) in &owner {
        if cell.col >= columns || cell.row >= rows {
            problems.push((
                *line,
                format!(
                    "{given}: {cell} is outside the {columns}x{rows} grid: give a square on the \
                     grid, or make the grid larger"
                ),
            ));
        }
    }
    Ok(SquareFile {
        columns,
        rows,
        lines,
        seen,
        problems,
    })
}

/// `COLUMNSxROWS` with 1 to 26 columns and at least one row.
fn grid_size(words: &str) -> Option<(u8, u8)> {
    let (c, r) = words.trim().split_once('x')?;
    let (c, r) = (c.trim().parse::<u8>().ok()?, r.trim().parse::<u8>().ok()?);
    ((1..=Cell::FILES).contains(&c) && r >= 1).then_some((c, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` with every name known as itself.
    fn read_all(text: &str) -> (Option<SquareFile<String>>, Vec<(usize, String)>) {
        match read(text, "space", "4x4", |n| Ok(n.to_string())) {
            Ok(mut file) => {
                let problems = std::mem::take(&mut file.problems);
                (Some(file), problems)
            }
            Err(problems) => (None, problems),
        }
    }

    fn square(s: &str) -> Place {
        Place::Square(Cell::parse(s).unwrap())
    }

    #[test]
    fn a_file_saved_by_a_windows_editor_reads_as_any_other() {
        let (file, problems) =
            read_all("\u{feff}grid: 4x4\r\nwest  box: a1 b1 # two\r\n\r\nb: d4\r\n");
        assert_eq!(problems, []);
        let file = file.unwrap();
        assert_eq!((file.columns, file.rows), (4, 4));
        let lines: Vec<(usize, &str, &[Place])> = file
            .lines
            .iter()
            .map(|l| (l.line, l.name.as_str(), l.places.as_slice()))
            .collect();
        assert_eq!(
            lines,
            [
                (2, "west box", &[square("a1"), square("b1")][..]),
                (4, "b", &[square("d4")][..]),
            ]
        );
        assert_eq!(file.seen.get("grid"), Some(&1));
    }

    #[test]
    fn every_problem_is_told_with_its_line_and_its_fix() {
        let (file, problems) =
            read_all("grid: 4x4\nno colon here\nwest: a1 q\neast: a1 e9\nwest: b2\nodd: c3\n");
        assert!(file.is_some());
        let says = |line: usize, words: &str| {
            problems
                .iter()
                .any(|(l, m)| *l == line && m.contains(words))
        };
        assert!(
            says(2, "is not NAME: SQUARES: write a name"),
            "{problems:?}"
        );
        assert!(says(3, "west: \"q\" is not a square"), "{problems:?}");
        assert!(
            says(4, "east: a1 is also a space of west (line 3)"),
            "{problems:?}"
        );
        assert!(says(4, "east: e9 is outside the 4x4 grid"), "{problems:?}");
        assert!(
            says(5, "west is given twice (first on line 3)"),
            "{problems:?}"
        );
        assert_eq!(problems.len(), 5, "{problems:?}");
    }

    #[test]
    fn a_bad_or_missing_grid_is_a_problem_and_no_file_and_the_problems_come_in_line_order() {
        let (file, problems) = read_all("grid: 27x4\nwest: a1\n");
        assert!(file.is_none());
        assert_eq!(
            problems,
            [
                (
                    0,
                    "the layout has no grid line: add \"grid: COLUMNSxROWS\", e.g. grid: 4x4"
                        .to_string()
                ),
                (
                    1,
                    "grid \"27x4\" is not COLUMNSxROWS: write e.g. 4x4 (at most 26 columns)"
                        .to_string()
                ),
            ]
        );
    }

    #[test]
    fn a_name_the_game_does_not_know_is_its_problem_and_its_squares_stay_free() {
        let file = read("grid: 4x4\nbad: a1\ngood: a1\n", "slot", "4x4", |n| {
            if n == "good" {
                Ok(())
            } else {
                Err(format!("{n}: unknown"))
            }
        })
        .unwrap();
        assert_eq!(file.problems, [(2, "bad: unknown".to_string())]);
        assert_eq!(file.lines.len(), 1);
        assert_eq!(file.lines[0].places, [square("a1")]);
        assert_eq!(file.seen.get("bad"), Some(&2));
    }
}
