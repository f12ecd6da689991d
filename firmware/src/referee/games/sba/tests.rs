//! The Sa Belle Alliance adapter: the layout file, the set-up, the gestures.

use boards::geometry::grid::Cell;

use super::*;

/// The shipped card set and layout read each other without a problem.
#[test]
fn the_shipped_layout_fits_the_example_cards() {
    let data = SbaData::parse(EXAMPLE_CARDS, DEFAULT_LAYOUT).unwrap();
    let spaces: std::collections::BTreeSet<Place> = data.layout.places().collect();
    // 41 box spaces, 30 casualty boxes, 3 control boxes, Wellington's card.
    assert_eq!(spaces.len(), 41 + 30 + 3 + 1);
    assert_eq!(
        SbaTable::layout(SbaChoice::default()).places.len(),
        spaces.len()
    );
}

/// A space is named from the card set of the game asked about, whichever set was read last:
/// two sets with other card names name the same space each its own way. Fails on the old
/// code, where the names came from the set a global last made active (whichever game set up
/// or began last).
#[test]
fn place_names_come_from_the_choice_asked_about() {
    let shipped = SbaChoice::default();
    let data = shipped.set.data();
    let (i, card) = data.cards.ids().next().expect("a card");
    let first_box = data.layout.boxes[i.index()][0];
    let name = short(&card.name).to_string();
    let renamed = EXAMPLE_CARDS.replace(&name, "Zed");
    assert_ne!(renamed, EXAMPLE_CARDS, "{name} is in the file");
    let file = |source: &str, text: &str| SbaFile {
        source: source.to_string(),
        text: text.to_string(),
    };
    let other = SbaChoice {
        set: SbaSet::read(
            file("zed.toml", &renamed),
            file("zed.txt", &DEFAULT_LAYOUT.replace(&name, "Zed")),
        )
        .expect("the files read"),
    };
    // The other set set up last: the shipped game still names its own spaces.
    let _ = SbaTable::layout(other);
    assert_eq!(
        SbaTable::place_name(shipped, &first_box),
        format!("{name} 1")
    );
    assert_eq!(SbaTable::place_name(other, &first_box), "Zed 1");
    // Off the map: the sensing layer's name.
    let off = Place::Square(Cell::new(15, 15));
    assert_eq!(SbaTable::place_name(shipped, &off), off.to_string());
}

/// Every problem of a broken layout, each with its line and its fix; never a board.
#[test]
fn a_broken_layout_lists_every_problem_with_its_line() {
    let cards = CardSet::example();
    let text = DEFAULT_LAYOUT
        .replace(
            "I Corps (d'Erlon): a1 b1 c1 d1",
            "I Corps (d'Erlon): a1 b1 c1",
        )
        .replace("Hougoumont: j2", "Hugomont: j2")
        .replace("II Corps (Reille): e1 f1 g1", "II Corps (Reille): e1 f1 a1")
        .replace(
            "Reserve (Picton): a9 b9 c9 d9",
            "Reserve (Picton): a9 b9 c9 z99",
        );
    let problems = SbaLayout::parse(&text, &cards).unwrap_err();
    let says = |line: usize, words: &str| {
        problems
            .iter()
            .any(|(l, m)| *l == line && m.contains(words))
    };
    let line_of = |start: &str| text.lines().position(|l| l.starts_with(start)).unwrap() + 1;
    assert!(
        says(line_of("I Corps (d'Erlon)"), "needs 4 spaces"),
        "{problems:?}"
    );
    assert!(
        says(line_of("Hugomont"), "no card, control box"),
        "{problems:?}"
    );
    assert!(
        says(
            line_of("II Corps (Reille)"),
            "a1 is also a space of I Corps"
        ),
        "{problems:?}"
    );
    assert!(
        says(line_of("Reserve (Picton)"), "outside the 10x9 grid"),
        "{problems:?}"
    );
    assert!(
        says(0, "control box Hougoumont has no space"),
        "{problems:?}"
    );
}

fn table() -> SbaTable {
    let choice = SbaChoice::default();
    let armies = BySeat::from_fn(|seat| {
        let groups = SbaTable::sample_groups(choice, seat, &mut |_| 0).unwrap();
        SbaTable::army(choice, seat, &groups).unwrap()
    });
    SbaTable::start(choice, &armies).unwrap()
}

fn p(s: &str) -> Place {
    Place::Square(Cell::parse(s).unwrap())
}

/// A corps chosen by lifting and putting back a marker, then a target's marker lifted, is the
/// action; the menu has it too, and Napoleon's version only there.
#[test]
fn a_corps_and_its_target_are_chosen_by_hand() {
    let t = table();
    // Kellermann (d2) charges Orange (a8).
    let made = t.matching(&Gesture::select_then_lift(p("d2"), p("a8")).normalized());
    assert_eq!(made.len(), 1, "{made:?}");
    assert_eq!(t.label(&made[0].1), "Kellermann: Charge vs Orange");
    assert!(t
        .choices()
        .iter()
        .any(|(l, _)| l == "Kellermann: Charge vs Orange, Napoleon"));
}

/// A counter attack by hand against a corps that did not just act is refused with the rule.
#[test]
fn a_counter_attack_not_straight_after_is_refused() {
    let t = table();
    let g = Gesture::select_then_lift(p("d2"), p("h8")).normalized();
    assert!(t.matching(&g).is_empty());
    let shaped = t.shaped(&g);
    let reason = t.check(&shaped[0]).unwrap_err();
    assert!(reason.contains("counter attack"), "{reason}");
}

/// A casualty names the marker's space and the casualty box it goes to (the rulebook: "remove
/// one division marker from the battlefield map and place it on the casualty track. Fill the
/// track from top to bottom"): the box's last marker first, on the OLED and in the record, and
/// the move is told, so the session does not list it again as two hand steps.
#[test]
fn a_casualty_names_the_spaces() {
    let mut t = table();
    let made = t.matching(&Gesture::select_then_lift(p("d2"), p("a8")).normalized());
    t.play(&made[0].1);
    // 6: "AC2": two Orange divisions to the Allied casualty track.
    let Screen::Told { lines, .. } = t.play(&Action::Roll(Face::new(6).unwrap())) else {
        panic!("not told");
    };
    assert_eq!(
        lines,
        [
            "rolled 6: AC2",
            "Orange 4 to Allied casualty 1",
            "Orange 3 to Allied casualty 2"
        ],
    );
    // Orange's box is a8-d8; the Allied casualty track begins a6, b6.
    assert_eq!(
        t.told_moves(),
        [
            ToldMove::Move {
                from: p("d8"),
                to: p("a6")
            },
            ToldMove::Move {
                from: p("c8"),
                to: p("b6")
            }
        ]
    );
    let told = t.told();
    assert!(
        told.iter()
            .any(|l| l.ends_with("Orange 4 to Allied casualty 1")),
        "{told:?}"
    );
    assert!(
        told.iter()
            .any(|l| l.ends_with("Orange 3 to Allied casualty 2")),
        "{told:?}"
    );
    assert!(!t.board().contains_key(&p("d8")));
    assert!(t.board().contains_key(&p("b6")));
}
