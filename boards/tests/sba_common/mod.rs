//! Small Sa Belle Alliance card sets written for tests (not the publisher's), shared by the
//! rule-by-rule and random-game suites.

/// A card set's text: its head (morale, casualty tracks, a two-box time track) then `cards`.
/// `french_track` and `allied_track` are the casualty boxes' contents, `time_casualties` the
/// casualties that move the time marker.
pub fn set_text(
    french_morale: u8,
    french_track: &str,
    allied_track: &str,
    time_casualties: u8,
    cards: &[String],
) -> String {
    format!(
        r#"title = "test set, not the publisher's"
napoleon = 1
[french]
morale = {french_morale}
morale_broken = 0
casualties = [{french_track}]
[allied]
morale = 10
morale_broken = 0
casualties = [{allied_track}]
[time]
boxes = ["Midday", "Evening"]
start = "Midday"
prussian_arrivals = 5
casualties = {time_casualties}
{}"#,
        cards.concat()
    )
}

/// One card with one action. `how` is its own line ("once = true", "divisions = 2") or empty;
/// `targets` and `results` are TOML list contents (`"Orange"`, `"-", "AC1"`).
pub fn card(
    name: &str,
    army: &str,
    how: &str,
    action: &str,
    targets: Option<&str>,
    results: &str,
) -> String {
    let how = if how.is_empty() {
        String::new()
    } else {
        format!("{how}\n")
    };
    let targets = targets.map_or(String::new(), |t| format!("targets = [{t}]\n"));
    format!(
        "[[card]]\nname = \"{name}\"\narmy = \"{army}\"\n{how}[[card.action]]\nname = \"{action}\"\n\
         {targets}results = [{results}]\n"
    )
}
