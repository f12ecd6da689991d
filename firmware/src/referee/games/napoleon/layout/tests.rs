//! The layout file: the shipped one loads clean against the default campaign; each kind of
//! mistake is reported with its line, all at once.

use boards::geometry::grid::Cell;
use boards::napoleon::Campaign;

use super::*;

fn campaign() -> Campaign {
    Campaign::standard().expect("the default campaign reads")
}

/// The problems of `text`, which must not load.
fn problems(text: &str) -> Vec<(usize, String)> {
    NapoleonLayout::parse(text, &campaign())
        .expect_err("the layout has problems")
        .0
}

fn says(problems: &[(usize, String)], line: usize, words: &str) -> bool {
    problems
        .iter()
        .any(|(l, m)| *l == line && m.contains(words))
}

fn line_of(text: &str, start: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with(start))
        .expect("the line is in the file")
        + 1
}

/// The shipped layout loads clean, and every town and city of the default map has slots, at
/// least as many as its historical blocks; both boards and every tray are whole.
#[test]
fn the_default_layout_gives_every_town_of_the_map_its_slots() {
    let campaign = campaign();
    let layout = NapoleonLayout::parse(DEFAULT_LAYOUT, &campaign).unwrap();
    let map = campaign.map();
    assert_eq!(map.graph().town_count(), 39);
    for (id, town) in map.graph().towns() {
        let historical = campaign
            .order_of_battle()
            .blocks()
            .filter(|(_, b)| b.start == id)
            .count();
        let slots = layout.town(id).len();
        assert!(slots >= historical.max(1), "{}: {slots}", town.info.code);
    }
    assert_eq!(layout.boards().len(), 2);
    for army in Army::ALL {
        assert_eq!(
            layout.eliminated(army).len(),
            campaign.order_of_battle().army(army).count()
        );
    }
    // Each place once, and the sensing layer takes them all.
    let places: Vec<Place> = layout.places().collect();
    let distinct: std::collections::BTreeSet<Place> = places.iter().copied().collect();
    assert_eq!(places.len(), distinct.len());
    let sensed = layout.setup().validate().expect("a valid sensor layout");
    assert_eq!(usize::from(sensed.cell_count()), 26 * 31);
    assert_eq!(layout.setup().places.len(), places.len());
    // Named as the players read them.
    let mons = map.town("MON").unwrap();
    let slot = layout.town(mons)[1];
    assert_eq!(
        layout.name(&campaign, &slot).as_deref(),
        Some("Bergen slot 2")
    );
    let board = &layout.boards()[1];
    let zone = Zone::new(Side::Defender, Wing::Right);
    assert_eq!(
        layout.name(&campaign, &board.zone(zone)[2]).as_deref(),
        Some("board 2 defender right 3")
    );
    assert_eq!(
        layout.name(&campaign, &board.terrain(zone)).as_deref(),
        Some("board 2 defender right terrain")
    );
    assert_eq!(
        layout
            .name(&campaign, &board.reserve(Side::Attacker)[0])
            .as_deref(),
        Some("board 2 attacker reserve 1")
    );
    assert_eq!(
        layout
            .name(&campaign, &layout.eliminated(Army::Prussian)[3])
            .as_deref(),
        Some("Prussian eliminated 4")
    );
    assert_eq!(
        layout.name(&campaign, &Place::Square(Cell::new(25, 0))),
        None
    );
}

/// A town the map does not have is refused with its line.
#[test]
fn a_town_not_on_the_map_is_named_with_its_line() {
    let text = format!("{DEFAULT_LAYOUT}town NAMUR: z1\n");
    let p = problems(&text);
    let line = text.lines().count();
    assert!(
        says(&p, line, "town NAMUR: no such town in the map"),
        "{p:?}"
    );
}

/// A town of the map left out, or given no squares, has no slots.
#[test]
fn a_town_without_slots_is_refused() {
    let text = DEFAULT_LAYOUT
        .replace("town LIG: n10 o10 p10 q10 r10 s10 t10 u10", "")
        .replace("town QB: a6 b6 c6 d6 e6 f6 g6 h6", "town QB:");
    let p = problems(&text);
    assert!(says(&p, 0, "town LIG (Ligny): no slots"), "{p:?}");
    assert!(
        says(&p, line_of(&text, "town QB:"), "town QB: no slots"),
        "{p:?}"
    );
}

/// A square given twice names both lines; one off the grid or not a square is refused.
#[test]
fn a_square_used_twice_or_off_the_grid_is_refused() {
    let text = DEFAULT_LAYOUT
        .replace("town GHE: n1 o1", "town GHE: a1 o1")
        .replace("town AAL: n2 o2", "town AAL: n2 o99")
        .replace("town HAL: n3 o3", "town HAL: n3 3o");
    let p = problems(&text);
    assert!(
        says(
            &p,
            line_of(&text, "town GHE"),
            "a1 is also a slot of town BRU (line"
        ),
        "{p:?}"
    );
    assert!(
        says(
            &p,
            line_of(&text, "town AAL"),
            "o99 is outside the 26x31 grid"
        ),
        "{p:?}"
    );
    assert!(
        says(&p, line_of(&text, "town HAL"), "\"3o\" is not a square"),
        "{p:?}"
    );
}

/// A town with fewer slots than its historical blocks, a short tray, a terrain spot of two
/// squares, a board without its reserve and an unknown entry: every problem at once.
#[test]
fn every_problem_is_listed_at_once() {
    let text = DEFAULT_LAYOUT
        .replace(
            "town BEA: n18 o18 p18 q18 r18 s18 t18 u18 v18 w18 x18 y18",
            "town BEA: n18 o18 p18 q18",
        )
        .replace("eliminated ad: a30 b30 c30", "eliminated ad: a30")
        .replace(
            "battle 1 attacker left terrain: a22",
            "battle 1 attacker left terrain: a22 b22",
        )
        .replace(
            "battle 2 defender reserve: s27 t27 u27 v27 w27 x27 y27 z27",
            "",
        )
        .replace("grid: 26x31", "grid: 26x31\nbridge: a1");
    let p = problems(&text);
    assert!(
        says(
            &p,
            line_of(&text, "town BEA"),
            "12 blocks start there historically"
        ),
        "{p:?}"
    );
    assert!(
        says(&p, line_of(&text, "eliminated ad"), "for 16 blocks"),
        "{p:?}"
    );
    assert!(
        says(
            &p,
            line_of(&text, "battle 1 attacker left terrain"),
            "a terrain spot is one square, not 2"
        ),
        "{p:?}"
    );
    assert!(
        says(
            &p,
            0,
            "battle board 2 is missing \"battle 2 defender reserve\""
        ),
        "{p:?}"
    );
    assert!(
        says(&p, line_of(&text, "bridge"), "\"bridge\" is no town"),
        "{p:?}"
    );
    // The terrain line's own problem is not said again as a missing part.
    assert!(!p
        .iter()
        .any(|(_, m)| m.contains("battle 1 attacker left terrain\"")));
}

/// A layout with no grid line, or a name given twice, says so.
#[test]
fn a_missing_grid_and_a_name_given_twice_are_refused() {
    let p = problems(&DEFAULT_LAYOUT.replace("grid: 26x31", ""));
    assert!(says(&p, 0, "no grid line"), "{p:?}");
    let text = format!("{DEFAULT_LAYOUT}town BRU: z30\n");
    let p = problems(&text);
    assert!(
        says(&p, text.lines().count(), "town BRU is given twice"),
        "{p:?}"
    );
}
