//! Sa Belle Alliance card files: the example set reads and says it is ours; a broken file gets
//! every problem, each with its line and how to fix it.

use boards::sba::{Army, CardSet, Condition, Effects, Mark, ALLIED, EXAMPLE_CARDS, FRENCH};

#[test]
fn the_example_set_reads_and_is_labelled_as_ours() {
    let set = CardSet::example();
    assert!(
        set.title().contains("not the publisher's"),
        "{}",
        set.title()
    );
    assert!(EXAMPLE_CARDS.contains("THESE ARE NOT THE PUBLISHER'S NUMBERS"));
    assert_eq!(set.napoleon(), 2);
    assert_eq!(set.cards().len(), 13);
    assert_eq!(set.controls().len(), 3);
    assert_eq!(set.time().boxes, ["Midday", "3 pm", "6 pm"]);
    let french = set.tracks(FRENCH);
    assert_eq!((french.morale_start, french.morale_broken), (10, 0));
    assert_eq!(french.casualties.len(), 16);
    assert_eq!(french.casualties[12], Mark::RoutTest(1));
    assert_eq!(french.casualties[14], Mark::RoutTest(2));
    assert_eq!(set.tracks(ALLIED).casualties.last(), Some(&Mark::Broken));
    let derlon = set.card(set.card_id("i corps (d'erlon)").unwrap()).unwrap();
    assert_eq!((derlon.army, derlon.divisions), (Army::French, 4));
    let assault = &derlon.actions[0];
    assert_eq!(assault.captures, set.control_id("La Haye Sainte"));
    assert_eq!(
        assault.modifiers[0].when,
        Condition::Held(set.control_id("Hougoumont").unwrap())
    );
    assert_eq!(
        assault.results[5],
        Effects {
            allied_casualties: 2,
            allied_morale: 1,
            capture: true,
            ..Effects::default()
        }
    );
    assert_eq!(assault.results[5].to_string(), "AC2 AM1 CAP");
    let blucher = set
        .card(set.card_id("Blücher's Prussians").unwrap())
        .unwrap();
    assert_eq!(
        (blucher.army, blucher.divisions, blucher.reserve),
        (Army::Prussian, 0, 6)
    );
    let wellington = set.card(set.card_id("Wellington").unwrap()).unwrap();
    assert!(wellington.once && !wellington.has_markers());
}

const BROKEN: &str = r#"title = "broken"
napoleon = 9
colour = "blue"

[french]
morale = 10
morale_broken = 12
casualties = ["", "RT", "B", "RT+7"]

[allied]
morale = "ten"
morale_broken = 0
casualties = ["", "RT"]

[time]
boxes = ["Midday", "Evening", "Midday"]
start = "Noon"
prussian_arrivals = 5
casualties = 10

[[control]]
name = "Hougoumont"
held = "dutch"

[[card]]
name = "I Corps"
army = "french"
divisions = 40

[[card.action]]
name = "Assault"
targets = ["II Corps", "Nobody", "I Corps"]
results = ["FC1", "XX3", "AC", "CAP", "P1"]
modifiers = [{ add = 1, held = "Papelotte" }, { add = 0 }, { add = 1, held = "Hougoumont", empty = "I Corps" }]

[[card]]
name = "II Corps"
army = "allied"
divisions = 2

[[card.action]]
name = "Counter"
counter = true
from_time = "Dusk"

[[card]]
name = "i corps"
army = "prussian"
"#;

#[test]
fn a_broken_file_gets_every_problem_with_its_line() {
    let problems = CardSet::parse(BROKEN).expect_err("broken").0;
    let got: Vec<(usize, String)> = problems
        .iter()
        .map(|p| (p.line, p.message.clone()))
        .collect();
    let expect: &[(usize, &str)] = &[
        (2, "napoleon = 9 is out of range: use -6 to 6"),
        (3, "unknown key `colour` in the top level"),
        (7, "[french] morale_broken = 12 must be below morale = 10"),
        (8, "[french] casualty box 3 is B but is not the last"),
        (8, "[french] casualty box 4 must be"),
        (11, "[allied] morale must be a whole number"),
        (13, "[allied] casualties must end with a \"B\" box"),
        (16, "[time] box \"Midday\" is listed twice"),
        (17, "[time] start = \"Noon\" is not one of the boxes listed"),
        (23, "held = \"dutch\" is not an army"),
        (28, "divisions = 40 is out of range: use 0 to 20"),
        (32, "targets \"Nobody\", which is not a card"),
        (32, "targets \"I Corps\", a card of its own side"),
        (33, "result 2: \"XX3\" is not an outcome"),
        (33, "result 3: \"AC\" needs a number 1 to 20"),
        (
            33,
            "result 4 has CAP but the action names no `captures` box",
        ),
        (
            33,
            "result 5 brings divisions (P) but the card has no `reserve` waiting",
        ),
        (34, "held = \"Papelotte\" is not a [[control]] box"),
        (34, "adds 0: remove it"),
        (34, "has 2 conditions (held, empty)"),
        (41, "is a counter attack with no targets"),
        (41, "needs `results = ...`"),
        (44, "from_time \"Dusk\" is not a box of the time track"),
        (47, "card \"i corps\" is listed twice"),
        (46, "card \"i corps\" has no [[card.action]]"),
    ];
    for (line, fragment) in expect {
        assert!(
            got.iter().any(|(l, m)| l == line && m.contains(fragment)),
            "missing line {line}: {fragment}\ngot:\n{}",
            got.iter()
                .map(|(l, m)| format!("{l}: {m}"))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    assert_eq!(got.len(), expect.len(), "{got:#?}");
    let lines: Vec<usize> = got.iter().map(|(l, _)| *l).collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]), "sorted by line");
}

#[test]
fn bad_toml_and_missing_sections_are_reported_with_a_line() {
    let problems = CardSet::parse("title = \"x\"\n[french\nmorale = 1\n")
        .expect_err("bad")
        .0;
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].line, 2);
    assert!(
        problems[0].message.starts_with("this is not valid TOML"),
        "{}",
        problems[0]
    );
    let problems = CardSet::parse("title = \"x\"\n").expect_err("empty").0;
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    for fragment in [
        "needs `napoleon",
        "section [french]",
        "section [allied]",
        "section [time]",
        "no [[card]]",
    ] {
        assert!(
            text.iter().any(|t| t.contains(fragment)),
            "{fragment}: {text:?}"
        );
    }
    assert!(text.iter().all(|t| t.starts_with("line 1: ")), "{text:?}");
}

/// A file of 15 lines of tracks followed by `cards`.
fn with_cards(cards: &str) -> String {
    format!(
        "title = \"t\"\nnapoleon = 1\n[french]\nmorale = 10\nmorale_broken = 0\n\
         casualties = [\"B\"]\n[allied]\nmorale = 10\nmorale_broken = 0\n\
         casualties = [\"B\"]\n[time]\nboxes = [\"Midday\"]\nstart = \"Midday\"\n\
         prussian_arrivals = 5\ncasualties = 10\n{cards}"
    )
}

/// Empty lists are caught too: no cards, a card with no actions, a counter attack with no target.
#[test]
fn empty_lists_are_problems() {
    let text = format!("card = []\n{}", with_cards(""));
    let problems = CardSet::parse(&text).expect_err("no cards").0;
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].message.contains("lists no [[card]]"),
        "{problems:?}"
    );
    let text = with_cards(
        "[[card]]\nname = \"A\"\narmy = \"french\"\naction = []\n\
         [[card]]\nname = \"B\"\narmy = \"allied\"\n[[card.action]]\nname = \"C\"\n\
         counter = true\ntargets = []\nresults = [\"-\"]\n",
    );
    let problems = CardSet::parse(&text).expect_err("empty lists").0;
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "line 16: card \"A\" has no [[card.action]]: list what the card lets its corps do",
            "line 23: card \"B\" action \"C\" is a counter attack with no targets: list the \
             enemy cards it answers",
        ]
    );
}
