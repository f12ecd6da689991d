//! Game data files read at run time: the Stratego: Waterloo board layout, and every future
//! game's layout or data file. The file named in the configuration (or on the simulator's
//! command line) is read and validated with every problem and its line; a file that cannot be
//! read or holds a problem stops the game from starting. It is never replaced by another.

use std::fmt;
use std::path::{Path, PathBuf};

use boards::waterloo::Layout;

use crate::boot::StartFault;

/// A game data file's contents, checked.
pub trait DataFile: Sized {
    /// What the file holds, for messages ("Waterloo layout").
    const WHAT: &'static str;
    /// The configuration setting that names the file (`[waterloo] layout`).
    const SETTING: &'static str;

    /// Reads the file's text.
    ///
    /// # Errors
    /// Every problem, each with its line (from 1; 0 for the whole file) and how to fix it.
    fn parse(text: &str) -> Result<Self, Vec<(usize, String)>>;
}

impl DataFile for Layout {
    const WHAT: &'static str = "Waterloo layout";
    const SETTING: &'static str = "[waterloo] layout";

    fn parse(text: &str) -> Result<Layout, Vec<(usize, String)>> {
        Layout::parse(text).map_err(layout_problems)
    }
}

/// A Waterloo layout's problems, each with its line, in line order.
fn layout_problems(
    problems: boards::Problems<boards::waterloo::LayoutProblem>,
) -> Vec<(usize, String)> {
    let mut list: Vec<(usize, String)> = problems
        .0
        .into_iter()
        .map(|p| (p.line, p.message))
        .collect();
    list.sort_by_key(|p| p.0);
    list
}

/// Why a game data file cannot be used.
#[derive(Debug)]
pub enum DataFileError {
    /// The file cannot be read.
    Unreadable {
        /// What the file holds ("Waterloo layout").
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Several files of one game cannot be used: each file's error, in the order they are read.
    Several(Vec<DataFileError>),
    /// The file holds problems: every one, with its line.
    Invalid {
        /// What the file holds ("Waterloo layout").
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Each problem's line (0: the whole file) and what to do.
        problems: Vec<(usize, String)>,
    },
}

impl DataFileError {
    /// One start fault per problem, each naming the file and line (the service's Fault screen
    /// shows the first and counts the others; the log lists them all).
    pub fn faults(&self) -> Vec<StartFault> {
        match self {
            DataFileError::Several(errors) => errors.iter().flat_map(Self::faults).collect(),
            DataFileError::Unreadable { what, path, source } => vec![StartFault::new(
                *what,
                format!("cannot read {}: {source}", path.display()),
                "install the umpire package again, or fix the path in the configuration",
            )],
            DataFileError::Invalid {
                what,
                path,
                problems,
            } => problems
                .iter()
                .map(|(line, message)| {
                    let part = if *line == 0 {
                        (*what).to_string()
                    } else {
                        format!("{what} line {line}")
                    };
                    StartFault::new(
                        part,
                        message.clone(),
                        format!("edit {}; it is read again by itself", path.display()),
                    )
                })
                .collect(),
        }
    }
}

impl fmt::Display for DataFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataFileError::Several(errors) => {
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        f.write_str("\n")?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
            DataFileError::Unreadable { what, path, source } => {
                write!(
                    f,
                    "cannot read the {what} {}: {source}; fix its path in the configuration \
                     (the shipped copy is in /usr/share/umpire/)",
                    path.display()
                )
            }
            DataFileError::Invalid {
                what,
                path,
                problems,
            } => {
                let n = problems.len();
                write!(
                    f,
                    "the {what} {} has {n} problem{}; fix each: until then the umpire \
                     starts no game, whichever is chosen:",
                    path.display(),
                    if n == 1 { "" } else { "s" }
                )?;
                for (line, message) in problems {
                    // Line 0 is the whole file (a key it lacks): no line to point at.
                    match line {
                        0 => write!(f, "\n  {}: {message}", path.display())?,
                        _ => write!(f, "\n  {}:{line}: {message}", path.display())?,
                    }
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for DataFileError {}

/// Reads and checks the data file at `path`.
///
/// # Errors
/// The file cannot be read, or every problem it holds, each with its line.
pub fn load<T: DataFile>(path: &Path) -> Result<T, DataFileError> {
    load_with_text(path).map(|(value, _)| value)
}

/// Reads and checks the data file at `path`, keeping the text it was read from (a game that
/// journals its data file records the text, so the game replays anywhere).
///
/// # Errors
/// The file cannot be read, or every problem it holds, each with its line.
pub fn load_with_text<T: DataFile>(path: &Path) -> Result<(T, String), DataFileError> {
    let text = read_text(T::WHAT, path)?;
    match T::parse(&text) {
        Ok(value) => Ok((value, text)),
        Err(problems) => Err(DataFileError::Invalid {
            what: T::WHAT,
            path: path.to_path_buf(),
            problems,
        }),
    }
}

/// The whole text of the file at `path`, which holds `what`.
fn read_text(what: &'static str, path: &Path) -> Result<String, DataFileError> {
    std::fs::read_to_string(path).map_err(|source| DataFileError::Unreadable {
        what,
        path: path.to_path_buf(),
        source,
    })
}

/// Where a file a setting of `config_file` names is: a relative path is read from the
/// configuration file's folder.
fn in_config_folder(config_file: &Path, path: &Path) -> PathBuf {
    match config_file.parent() {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    }
}

/// The Stratego: Waterloo board in the layout file at `path`, checked, with its text.
///
/// # Errors
/// The file cannot be read, or every problem it holds, each with its line.
pub fn load_waterloo_layout(
    path: &Path,
) -> Result<crate::referee::games::BoardLayout, DataFileError> {
    use crate::referee::games::{BoardLayout, LayoutSource};
    let text = read_text(Layout::WHAT, path)?;
    BoardLayout::read(&text, LayoutSource::File(path.to_path_buf())).map_err(|problems| {
        DataFileError::Invalid {
            what: Layout::WHAT,
            path: path.to_path_buf(),
            problems: layout_problems(problems),
        }
    })
}

/// The Stratego: Waterloo board of `config`, read from `config_file`: the file `[waterloo]
/// layout` names (a relative path is read from the configuration file's folder), else the
/// shipped layout.
///
/// # Errors
/// The named file cannot be read or holds problems: never the shipped layout instead.
pub fn waterloo_layout(
    config: &crate::config::Config,
    config_file: &Path,
) -> Result<crate::referee::games::BoardLayout, DataFileError> {
    use crate::referee::games::BoardLayout;
    match &config.waterloo_layout {
        None => Ok(BoardLayout::shipped()),
        Some(path) => load_waterloo_layout(&in_config_folder(config_file, path)),
    }
}

/// The Sa Belle Alliance card set and map layout of `config`, read from `config_file`'s
/// folder: the files `[sba] cards` and `[sba] layout` name, each else the shipped one (the
/// example card set, the shipped layout). The layout is checked against the cards.
///
/// # Errors
/// A named file cannot be read, or either holds problems (every one, with its file and line):
/// never the shipped files instead.
pub fn sba_set(
    config: &crate::config::Config,
    config_file: &Path,
) -> Result<crate::referee::games::sba::SbaSet, DataFileError> {
    use crate::referee::games::sba::{SbaFile, SbaFileKey, SbaSet, DEFAULT_LAYOUT};
    if config.sba_cards.is_none() && config.sba_layout.is_none() {
        return Ok(SbaSet::shipped());
    }
    // Each file with where it was read, journaled with every game begun on it.
    let read = |setting: &Option<PathBuf>, key: SbaFileKey, shipped: &str| match setting {
        None => Ok((
            None,
            SbaFile {
                source: key.shipped_source().to_string(),
                text: shipped.to_string(),
            },
        )),
        Some(path) => {
            let path = in_config_folder(config_file, path);
            let text = read_text(key.what(), &path)?;
            let source = path.display().to_string();
            Ok((Some(path), SbaFile { source, text }))
        }
    };
    let (cards_path, cards) = read(
        &config.sba_cards,
        SbaFileKey::Cards,
        boards::sba::EXAMPLE_CARDS,
    )?;
    let (layout_path, layout) = read(&config.sba_layout, SbaFileKey::Layout, DEFAULT_LAYOUT)?;
    SbaSet::read(cards, layout).map_err(|p| DataFileError::Invalid {
        what: p.file.what(),
        path: match p.file {
            SbaFileKey::Cards => cards_path,
            SbaFileKey::Layout => layout_path,
        }
        .unwrap_or_else(|| PathBuf::from("(shipped)")),
        problems: p.problems,
    })
}

/// Napoléon 1815's four data files of `config` (`[napoleon] map`, `order_of_battle`,
/// `turns` and `layout`, a relative path read from `config_file`'s folder), each else the
/// shipped one, checked together: the order of battle and the layout against the map.
///
/// # Errors
/// Every named file that cannot be read, or every problem of every file, each with its file
/// and line: never the shipped files instead.
pub fn napoleon_set(
    config: &crate::config::Config,
    config_file: &Path,
) -> Result<crate::referee::games::napoleon::NapoleonSet, DataFileError> {
    use crate::referee::games::napoleon::{NapoleonFileKey, NapoleonFiles, NapoleonSet};
    if config.napoleon.all_shipped() {
        return Ok(NapoleonSet::shipped());
    }
    let mut files = NapoleonFiles::shipped();
    let mut unreadable = Vec::new();
    for key in NapoleonFileKey::ALL {
        if let Some(path) = config.napoleon.get(key.key()) {
            let path = in_config_folder(config_file, path);
            match read_text(key.what(), &path) {
                Ok(text) => {
                    *files.get_mut(key) = crate::referee::games::napoleon::NapoleonFile {
                        source: path.display().to_string(),
                        text,
                    }
                }
                Err(e) => unreadable.push(e),
            }
        }
    }
    let one_or_several = |mut errors: Vec<DataFileError>| match errors.len() {
        1 => errors.remove(0),
        _ => DataFileError::Several(errors),
    };
    if !unreadable.is_empty() {
        return Err(one_or_several(unreadable));
    }
    NapoleonSet::read(files).map_err(|problems| {
        one_or_several(
            problems
                .0
                .into_iter()
                .map(|(key, problems)| DataFileError::Invalid {
                    what: key.what(),
                    path: config.napoleon.get(key.key()).map_or_else(
                        || PathBuf::from(format!("(the shipped {})", key.what())),
                        |p| in_config_folder(config_file, p),
                    ),
                    problems,
                })
                .collect(),
        )
    })
}

/// The games of the menu the board of `config` cannot play
/// ([`RefereeConfig::games_beyond_the_board`](crate::referee::RefereeConfig::games_beyond_the_board)),
/// judged on the games' data files as read ([`waterloo_layout`], [`sba_set`],
/// [`napoleon_set`]): what `umpire check-config` and `umpire doctor` tell the builder before a
/// player meets the menu's refusal. Empty when the board itself is broken (its problem is told
/// on its own).
pub fn games_beyond_the_board(
    config: &crate::config::Config,
    waterloo_layout: crate::referee::games::BoardLayout,
    sba_set: crate::referee::games::sba::SbaSet,
    napoleon_set: crate::referee::games::napoleon::NapoleonSet,
) -> Vec<crate::referee::BeyondTheBoard> {
    match on_the_board(config, waterloo_layout, sba_set, napoleon_set) {
        Some(referee) => referee.games_beyond_the_board(),
        None => Vec::new(),
    }
}

/// The game `game` names, as the menu names it, the places it senses, every variant's
/// together, on the games' data files as read ([`waterloo_layout`], [`sba_set`],
/// [`napoleon_set`]), and what the board lacks of them: the places `umpire calibrate --game`
/// asks the builder to walk. `None` when the board itself is broken (its problem is told on its
/// own) or the menu lacks the game's entry.
pub fn places_of_game(
    config: &crate::config::Config,
    game: crate::config::GameName,
    waterloo_layout: crate::referee::games::BoardLayout,
    sba_set: crate::referee::games::sba::SbaSet,
    napoleon_set: crate::referee::games::napoleon::NapoleonSet,
) -> Option<(
    &'static str,
    std::collections::BTreeSet<crate::sensing::Place>,
    Option<crate::referee::BeyondTheBoard>,
)> {
    on_the_board(config, waterloo_layout, sba_set, napoleon_set)?.places_of_game(game.menu_entry())
}

/// The referee's configuration for `config`'s board (its places known) on the data files as
/// read; `None` when the board's layout is broken.
fn on_the_board(
    config: &crate::config::Config,
    waterloo_layout: crate::referee::games::BoardLayout,
    sba_set: crate::referee::games::sba::SbaSet,
    napoleon_set: crate::referee::games::napoleon::NapoleonSet,
) -> Option<crate::referee::RefereeConfig> {
    let layout = crate::sensing::SensorLayout::new(config.layout_setup()).ok()?;
    Some(crate::referee::RefereeConfig {
        board: Some(layout.iter().map(|(_, place)| place).collect()),
        waterloo_layout,
        sba_set,
        napoleon_set,
        ..config.referee_config()
    })
}

/// The tags registered to pieces and blocks (`[nfc] tags`, relative to `config_file`'s
/// folder), each block name checked against the order of battle of `napoleon`; none without
/// the key.
///
/// # Errors
/// The file cannot be read, or holds problems: every one, with its line.
pub fn tag_registry(
    config: &crate::config::Config,
    config_file: &Path,
    napoleon: crate::referee::games::napoleon::NapoleonSet,
) -> Result<crate::referee::TagRegistry, DataFileError> {
    const WHAT: &str = "NFC tags";
    let Some(path) = config.nfc.as_ref().and_then(|n| n.tags.as_ref()) else {
        return Ok(crate::referee::TagRegistry::new());
    };
    let path = in_config_folder(config_file, path);
    let text = read_text(WHAT, &path)?;
    let oob = napoleon.campaign().order_of_battle();
    crate::referee::TagRegistry::parse(&text, |name| oob.find(name).is_some()).map_err(|problems| {
        DataFileError::Invalid {
            what: WHAT,
            path,
            problems,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::referee::games::BoardLayout;

    /// A file in a fresh temporary folder, written with `text`.
    fn file(name: &str, text: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("umpire-game-data-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// `[nfc] tags`: the owner's tags file read (relative to the configuration's folder), each
    /// block name checked against the order of battle played; a broken file is every problem
    /// as a start fault naming the file and line; without the key, no tag registered.
    #[test]
    fn the_tags_file_registers_pieces_and_blocks_or_stops_with_every_problem() {
        use crate::referee::games::napoleon::NapoleonSet;
        let nfc = |tags: &str| {
            format!(
                "[sensor]\nkind = \"simulated\"\n[nfc]\nbus = \"spi0\"\n\
                 chip_select = \"ce0\"\n{tags}[[nfc.reader]]\ncells = [\"a1\", \"b1\"]\n"
            )
        };
        let good = file(
            "tags.txt",
            "04:A2:1B:7C block NAPOLEON\n04:A2:1B:7D piece blue Marshal\n",
        );
        let config_file = good.parent().unwrap().join("umpire.toml");
        let config = Config::parse(&nfc("tags = \"tags.txt\"\n")).unwrap();
        let registry = tag_registry(&config, &config_file, NapoleonSet::shipped()).unwrap();
        assert_eq!(registry.len(), 2);
        assert!(registry.has_blocks() && registry.has_pieces());

        let bad = file("bad-tags.txt", "04:A2:1B:7C block MURAT\n");
        let config = Config::parse(&nfc(&format!("tags = \"{}\"\n", bad.display()))).unwrap();
        let err = tag_registry(&config, &config_file, NapoleonSet::shipped()).unwrap_err();
        let faults = err.faults();
        assert_eq!(faults.len(), 1, "{err}");
        assert_eq!(faults[0].part, "NFC tags line 1");
        assert!(faults[0].problem.contains("no block MURAT"), "{faults:?}");

        let config = Config::parse(&nfc("")).unwrap();
        let none = tag_registry(&config, &config_file, NapoleonSet::shipped()).unwrap();
        assert!(none.is_empty());
        assert!(Config::parse(&nfc("tags = \" \"\n")).is_err());
        std::fs::remove_dir_all(good.parent().unwrap()).ok();
        std::fs::remove_dir_all(bad.parent().unwrap()).ok();
    }

    /// A broken layout file is every problem with its line, as start faults naming the file
    /// and line: never the shipped layout in its place (the old code fell back on a board
    /// without Prussians, lines of retreat or terrain).
    #[test]
    fn a_broken_layout_file_stops_the_game_with_every_problem_and_its_line() {
        let path = file(
            "broken.txt",
            "columns: 12\nrows 10\n# fine\nprussian_entry: z99 a5\nhill.x: a1 a1\ncolumns: 3\n",
        );
        let config = Config::parse(&format!(
            "[sensor]\nkind = \"simulated\"\n[waterloo]\nlayout = \"{}\"\n",
            path.display()
        ))
        .unwrap();
        let err = waterloo_layout(&config, Path::new("/etc/umpire/umpire.toml")).unwrap_err();
        let DataFileError::Invalid { problems, .. } = &err else {
            panic!("{err}");
        };
        let lines: Vec<usize> = problems.iter().map(|p| p.0).collect();
        assert_eq!(lines, vec![2, 4, 5, 6], "{err}");
        let text = err.to_string();
        assert!(text.contains("has 4 problems"), "{text}");
        // A broken file stops every game, and says so (not "the game").
        assert!(
            text.contains("until then the umpire starts no game"),
            "{text}"
        );
        assert!(
            text.contains(&format!("{}:2: 'rows 10' is not", path.display())),
            "{text}"
        );
        let faults = err.faults();
        assert_eq!(faults.len(), 4);
        assert_eq!(faults[0].part, "Waterloo layout line 2");
        assert!(faults[0].fix.contains(&path.display().to_string()));
        assert!(faults[1].problem.contains("z99"), "{faults:?}");
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    /// A file that cannot be read is named with the fix; a relative path is read from the
    /// configuration's folder; a good file is the board played on.
    #[test]
    fn a_broken_sba_layout_stops_the_game_with_every_problem_and_its_line() {
        use crate::referee::games::sba::DEFAULT_LAYOUT;
        let path = file(
            "sba-layout.txt",
            &DEFAULT_LAYOUT.replace("Hougoumont: j2", "Hougoumont: j2 j9"),
        );
        let config = Config::parse(&format!(
            "[sensor]\nkind = \"simulated\"\n[sba]\nlayout = \"{}\"\n",
            path.display()
        ))
        .unwrap();
        let err = sba_set(&config, Path::new("/etc/umpire/umpire.toml")).unwrap_err();
        let faults = err.faults();
        let line = DEFAULT_LAYOUT
            .lines()
            .position(|l| l.starts_with("Hougoumont"))
            .unwrap()
            + 1;
        assert_eq!(faults.len(), 1, "{err}");
        assert_eq!(
            faults[0].part,
            format!("Sa Belle Alliance layout line {line}")
        );
        // Without [sba], the shipped files.
        let config = Config::parse("[sensor]\nkind = \"simulated\"\n").unwrap();
        let set = sba_set(&config, Path::new("/etc/umpire/umpire.toml")).unwrap();
        assert_eq!(set, crate::referee::games::sba::SbaSet::shipped());
        // A layout file read: its path and text kept, to be journaled with each game begun on
        // it; the cards the shipped example, named as such.
        let text = DEFAULT_LAYOUT.replace("grid: 10x9", "grid: 10x10");
        let path = file("sba-layout.txt", &text);
        let config = Config::parse(&format!(
            "[sensor]\nkind = \"simulated\"\n[sba]\nlayout = \"{}\"\n",
            path.display()
        ))
        .unwrap();
        let set = sba_set(&config, Path::new("/etc/umpire/umpire.toml")).unwrap();
        assert_eq!(set.layout_file().source, path.display().to_string());
        assert_eq!(set.layout_file().text, text);
        assert_eq!(set.cards_file().source, "the example cards");
    }

    #[test]
    fn the_layout_file_is_read_from_the_configuration_folder() {
        let config = Config::parse(
            "[sensor]\nkind = \"simulated\"\n[waterloo]\nlayout = \"my-board.txt\"\n",
        )
        .unwrap();
        let err = waterloo_layout(&config, Path::new("/nonexistent/umpire.toml")).unwrap_err();
        assert!(
            err.to_string()
                .contains("cannot read the Waterloo layout /nonexistent/my-board.txt")
                && err
                    .to_string()
                    .contains("fix its path in the configuration"),
            "{err}"
        );
        assert_eq!(err.faults()[0].part, "Waterloo layout");
        let path = file("my-board.txt", "rows: 11\n");
        let layout = waterloo_layout(&config, &path.with_file_name("umpire.toml")).unwrap();
        assert_eq!(layout.layout().rows, 11);
        assert_ne!(layout, BoardLayout::shipped());
        // The same layout read again is the same one kept.
        let again = waterloo_layout(&config, &path.with_file_name("umpire.toml")).unwrap();
        assert!(std::ptr::eq(layout.layout(), again.layout()));
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    /// The line of `text` that starts with `start`, from 1.
    fn line_of(text: &str, start: &str) -> usize {
        text.lines().position(|l| l.starts_with(start)).unwrap() + 1
    }

    /// Napoléon's files are read by path, relative to the configuration's folder: a broken map
    /// and a broken order of battle are every problem of both, each with its file and line,
    /// never the shipped files instead; a file that cannot be read is named with its path.
    #[test]
    fn broken_napoleon_files_stop_the_game_with_every_problem_of_every_file() {
        use crate::referee::games::napoleon::{NapoleonSet, DEFAULT_LAYOUT};
        use boards::napoleon::{DEFAULT_MAP, DEFAULT_ORDER_OF_BATTLE};
        let dir = std::env::temp_dir().join(format!("umpire-napoleon-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        let config_file = |dir: &Path| dir.join("umpire.toml");
        // The map: a road to a town that does not exist.
        let map = DEFAULT_MAP.replace("road BRU ", "road XYZ ");
        let map_path = file("napoleon-map.txt", &map);
        // The order of battle: a block with strength 9 and one with no firepower.
        let oob = DEFAULT_ORDER_OF_BATTLE
            .replace(
                "infantry         4   F2   BEA",
                "infantry         9   F2   BEA",
            )
            .replace(
                "leader           1   F1   BEA",
                "leader           1   F9   BEA",
            );
        let oob_path = file("napoleon-oob.txt", &oob);
        let config = Config::parse(
            "[sensor]\nkind = \"simulated\"\n[napoleon]\nmap = \"napoleon-map.txt\"\n\
             order_of_battle = \"napoleon-oob.txt\"\n",
        )
        .unwrap();
        let err = napoleon_set(&config, &config_file(&dir)).unwrap_err();
        let DataFileError::Several(errors) = &err else {
            panic!("two files with problems, not {err}");
        };
        assert_eq!(errors.len(), 2, "{err}");
        let faults = err.faults();
        let road = line_of(&map, "road XYZ ");
        assert!(
            faults
                .iter()
                .any(|f| f.part == format!("Napoleon map line {road}") && f.problem.contains("XYZ")),
            "{faults:?}"
        );
        let strong = line_of(&oob, "block G-INF");
        let fire = line_of(&oob, "block NAPOLEON");
        for line in [strong, fire] {
            assert!(
                faults
                    .iter()
                    .any(|f| f.part == format!("Napoleon order of battle line {line}")),
                "line {line}: {faults:?}"
            );
        }
        let text = err.to_string();
        assert!(text.contains(&map_path.display().to_string()), "{text}");
        assert!(text.contains(&oob_path.display().to_string()), "{text}");
        assert!(
            faults.iter().all(|f| f.fix.starts_with("edit ")),
            "{faults:?}"
        );

        // A file that cannot be read: named with its path, read from the configuration's folder.
        let config = Config::parse(
            "[sensor]\nkind = \"simulated\"\n[napoleon]\nturns = \"no-such-turns.txt\"\n",
        )
        .unwrap();
        let err = napoleon_set(&config, &config_file(&dir)).unwrap_err();
        let DataFileError::Unreadable { what, path, .. } = &err else {
            panic!("{err}");
        };
        assert_eq!(*what, "Napoleon turn track");
        assert_eq!(*path, dir.join("no-such-turns.txt"));

        // A layout naming a town the map lacks: its own line.
        let layout = DEFAULT_LAYOUT.replace("town AAL:", "town ZZZ:");
        let layout_path = file("napoleon-layout.txt", &layout);
        let config = Config::parse(&format!(
            "[sensor]\nkind = \"simulated\"\n[napoleon]\nlayout = \"{}\"\n",
            layout_path.display()
        ))
        .unwrap();
        let err = napoleon_set(&config, Path::new("/etc/umpire/umpire.toml")).unwrap_err();
        let line = line_of(&layout, "town ZZZ:");
        assert!(
            err.faults()
                .iter()
                .any(|f| f.part == format!("Napoleon layout line {line}")),
            "{err}"
        );

        // Without [napoleon], the shipped files; an edited map that is still good is the one
        // played on, kept with where it was read.
        let config = Config::parse("[sensor]\nkind = \"simulated\"\n").unwrap();
        assert_eq!(
            napoleon_set(&config, Path::new("/etc/umpire/umpire.toml")).unwrap(),
            NapoleonSet::shipped()
        );
        let map = format!("{DEFAULT_MAP}\n# checked against my board, 2026\n");
        let map_path = file("napoleon-map.txt", &map);
        let config = Config::parse(
            "[sensor]\nkind = \"simulated\"\n[napoleon]\nmap = \"napoleon-map.txt\"\n",
        )
        .unwrap();
        let set = napoleon_set(&config, &config_file(&dir)).unwrap();
        assert_eq!(set.files().map.text, map);
        assert_eq!(set.files().map.source, map_path.display().to_string());
        assert_ne!(set, NapoleonSet::shipped());
        assert_eq!(
            set.campaign().map().town("BRU"),
            NapoleonSet::shipped().campaign().map().town("BRU")
        );
        std::fs::remove_dir_all(dir).ok();
    }
}
