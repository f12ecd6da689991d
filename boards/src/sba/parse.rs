//! Reading a card file (TOML) into a [`CardSet`], every problem reported with its line.
//!
//! Needs `std` (the TOML reader keeps each value's place in the text, which the problems quote);
//! the rules themselves do not.

use std::collections::BTreeMap;
use std::format;
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

use toml_span::value::{Table, Value};

use super::army::{seat_of, Army, ALLIED, FRENCH};
use super::cards::{
    ArmyTracks, Card, CardAction, CardId, CardProblem, CardSet, Condition, Control, ControlId,
    Effects, Mark, Modifier, TimeTrack, MAX_ACTIONS, MAX_CARDS, MAX_CASUALTY_BOXES, MAX_CONTROLS,
    MAX_DIVISIONS,
};
use crate::{BySeat, Problems};

struct Reader<'t> {
    text: &'t str,
    problems: Vec<CardProblem>,
    /// The time track's boxes as listed, for the names that refer to them (known even when
    /// another part of [time] is wrong).
    time_boxes: Option<Vec<String>>,
}

impl Reader<'_> {
    fn line_of(&self, offset: usize) -> usize {
        self.text
            .as_bytes()
            .iter()
            .take(offset)
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }

    fn problem(&mut self, at: usize, message: String) {
        let line = self.line_of(at);
        self.problems.push(CardProblem { line, message });
    }

    /// Reports keys of `t` not in `known`.
    fn known(&mut self, t: &Table<'_>, section: &str, known: &[&str]) {
        for k in t.keys() {
            if !known.contains(&k.name.as_ref()) {
                self.problem(
                    k.span.start,
                    format!(
                        "unknown key `{}` in {section}: check the spelling (known: {})",
                        k.name,
                        known.join(", ")
                    ),
                );
            }
        }
    }

    fn missing(&mut self, at: usize, section: &str, key: &str, hint: &str) {
        self.problem(at, format!("{section} needs `{key} = ...` ({hint})"));
    }

    fn int(
        &mut self,
        t: &Table<'_>,
        (section, at): (&str, usize),
        key: &str,
        range: (i64, i64),
        default: Option<i64>,
    ) -> Option<(i64, usize)> {
        let Some(v) = t.get(key) else {
            if default.is_none() {
                self.missing(at, section, key, &format!("{} to {}", range.0, range.1));
            }
            return default.map(|d| (d, at));
        };
        match v.as_integer() {
            Some(i) if i >= range.0 && i <= range.1 => Some((i, v.span.start)),
            Some(i) => {
                self.problem(
                    v.span.start,
                    format!(
                        "{section} {key} = {i} is out of range: use {} to {}",
                        range.0, range.1
                    ),
                );
                None
            }
            None => {
                self.problem(
                    v.span.start,
                    format!("{section} {key} must be a whole number"),
                );
                None
            }
        }
    }

    fn string<'v>(
        &mut self,
        t: &'v Table<'_>,
        (section, at): (&str, usize),
        key: &str,
        required: Option<&str>,
    ) -> Option<(&'v str, usize)> {
        let Some(v) = t.get(key) else {
            if let Some(hint) = required {
                self.missing(at, section, key, hint);
            }
            return None;
        };
        match v.as_str() {
            Some(s) => Some((s, v.span.start)),
            None => {
                self.problem(
                    v.span.start,
                    format!("{section} {key} must be a string in quotes"),
                );
                None
            }
        }
    }

    fn name(&mut self, t: &Table<'_>, (section, at): (&str, usize)) -> Option<(String, usize)> {
        let (s, at) = self.string(t, (section, at), "name", Some("the name printed on it"))?;
        if s.is_empty() || s.trim() != s {
            self.problem(
                at,
                format!("{section} name \"{s}\" is empty or has spaces at either end"),
            );
            return None;
        }
        Some((s.to_string(), at))
    }

    fn boolean(&mut self, t: &Table<'_>, section: &str, key: &str) -> bool {
        let Some(v) = t.get(key) else {
            return false;
        };
        match v.as_bool() {
            Some(b) => b,
            None => {
                self.problem(
                    v.span.start,
                    format!("{section} {key} must be true or false"),
                );
                false
            }
        }
    }

    /// The array `key` of `t` as values with their offsets.
    fn array<'v, 'de>(
        &mut self,
        t: &'v Table<'de>,
        section: &str,
        key: &str,
    ) -> Option<(&'v [Value<'de>], usize)> {
        let v = t.get(key)?;
        match v.as_array() {
            Some(a) => Some((a.as_slice(), v.span.start)),
            None => {
                self.problem(
                    v.span.start,
                    format!("{section} {key} must be a list in [brackets]"),
                );
                None
            }
        }
    }

    /// The tables of an array of tables `[[key]]`.
    fn tables<'v, 'de>(
        &mut self,
        t: &'v Table<'de>,
        section: &str,
        key: &str,
    ) -> Vec<(&'v Table<'de>, usize)> {
        let Some((items, _)) = self.array(t, section, key) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for v in items {
            match v.as_table() {
                Some(t) => out.push((t, v.span.start)),
                None => self.problem(
                    v.span.start,
                    format!("each {key} must be a table: write it as [[{key}]]"),
                ),
            }
        }
        out
    }

    fn army(&mut self, t: &Table<'_>, section: (&str, usize), key: &str) -> Option<Army> {
        let (s, at) = self.string(t, section, key, Some("french, allied or prussian"))?;
        match s {
            "french" => Some(Army::French),
            "allied" => Some(Army::Allied),
            "prussian" => Some(Army::Prussian),
            _ => {
                self.problem(
                    at,
                    format!(
                        "{} {key} = \"{s}\" is not an army: use french, allied or prussian",
                        section.0
                    ),
                );
                None
            }
        }
    }

    fn tracks(&mut self, root: &Table<'_>, key: &str) -> Option<ArmyTracks> {
        let section = format!("[{key}]");
        let Some(v) = root.get(key) else {
            self.problem(
                0,
                format!(
                    "the file needs a section {section} with morale, morale_broken and casualties"
                ),
            );
            return None;
        };
        let Some(t) = v.as_table() else {
            self.problem(v.span.start, format!("{key} must be a section {section}"));
            return None;
        };
        let at = v.span.start;
        self.known(t, &section, &["morale", "morale_broken", "casualties"]);
        let start = self.int(t, (&section, at), "morale", (1, 99), None);
        let broken = self.int(t, (&section, at), "morale_broken", (-99, 98), None);
        if let (Some((s, _)), Some((b, b_at))) = (start, broken) {
            if b >= s {
                self.problem(
                    b_at,
                    format!(
                        "{section} morale_broken = {b} must be below morale = {s}: the B square \
                         is where falling morale ends"
                    ),
                );
            }
        }
        let mut marks = Vec::new();
        match self.array(t, &section, "casualties") {
            None if !t.contains_key("casualties") => self.missing(
                at,
                &section,
                "casualties",
                "the casualty boxes top to bottom, e.g. [\"\", \"RT\", \"B\"]",
            ),
            None => {}
            Some((items, list_at)) => {
                if items.is_empty() || items.len() > MAX_CASUALTY_BOXES {
                    self.problem(
                        list_at,
                        format!(
                            "{section} casualties lists {} boxes: list 1 to {MAX_CASUALTY_BOXES}",
                            items.len()
                        ),
                    );
                }
                for (i, item) in items.iter().enumerate() {
                    let mark = match item.as_str() {
                        Some("" | "-") => Some(Mark::Plain),
                        Some("RT") => Some(Mark::RoutTest(0)),
                        Some("B") => Some(Mark::Broken),
                        Some(s) => s
                            .strip_prefix("RT+")
                            .and_then(|n| n.parse::<u8>().ok())
                            .filter(|n| (1..=5).contains(n))
                            .map(Mark::RoutTest),
                        None => None,
                    };
                    match mark {
                        Some(m) => {
                            if m == Mark::Broken && i + 1 != items.len() {
                                self.problem(
                                    item.span.start,
                                    format!(
                                        "{section} casualty box {} is B but is not the last: \
                                         the army routs there, so end the list with it",
                                        i + 1
                                    ),
                                );
                            }
                            marks.push(m);
                        }
                        None => self.problem(
                            item.span.start,
                            format!(
                                "{section} casualty box {} must be \"\", \"RT\", \"RT+1\" to \
                                 \"RT+5\" or \"B\"",
                                i + 1
                            ),
                        ),
                    }
                }
                if marks.len() == items.len() && marks.last() != Some(&Mark::Broken) {
                    self.problem(
                        list_at,
                        format!(
                            "{section} casualties must end with a \"B\" box, where the army \
                             routs: a full track must end the game"
                        ),
                    );
                }
            }
        }
        Some(ArmyTracks {
            morale_start: start?.0 as i16,
            morale_broken: broken?.0 as i16,
            casualties: marks,
        })
    }

    fn time(&mut self, root: &Table<'_>) -> Option<TimeTrack> {
        let section = "[time]";
        let Some(v) = root.get("time") else {
            self.problem(
                0,
                "the file needs a section [time] with boxes, start, prussian_arrivals and \
                 casualties"
                    .into(),
            );
            return None;
        };
        let Some(t) = v.as_table() else {
            self.problem(v.span.start, "time must be a section [time]".into());
            return None;
        };
        let at = v.span.start;
        self.known(
            t,
            section,
            &["boxes", "start", "prussian_arrivals", "casualties"],
        );
        let mut boxes: Vec<String> = Vec::new();
        match self.array(t, section, "boxes") {
            None if !t.contains_key("boxes") => self.missing(
                at,
                section,
                "boxes",
                "the time track's boxes in order, e.g. [\"Midday\", \"1 pm\"]",
            ),
            None => {}
            Some((items, list_at)) => {
                if items.is_empty() || items.len() > 32 {
                    self.problem(
                        list_at,
                        format!("[time] boxes lists {} boxes: list 1 to 32", items.len()),
                    );
                }
                for item in items {
                    match item.as_str() {
                        Some(s) if !s.is_empty() && s.trim() == s => {
                            if boxes.iter().any(|b| b.eq_ignore_ascii_case(s)) {
                                self.problem(
                                    item.span.start,
                                    format!("[time] box \"{s}\" is listed twice; rename one"),
                                );
                            }
                            boxes.push(s.to_string());
                        }
                        _ => self.problem(
                            item.span.start,
                            "[time] each box must be a name in quotes, without spaces at either \
                             end"
                            .into(),
                        ),
                    }
                }
            }
        }
        self.time_boxes = Some(boxes.clone());
        let start = self
            .string(
                t,
                (section, at),
                "start",
                Some("the box the marker starts on"),
            )
            .and_then(|(s, s_at)| {
                let found = boxes.iter().position(|b| b.eq_ignore_ascii_case(s));
                if found.is_none() && !boxes.is_empty() {
                    self.problem(
                        s_at,
                        format!("[time] start = \"{s}\" is not one of the boxes listed"),
                    );
                }
                found
            });
        let arrivals = self.int(t, (section, at), "prussian_arrivals", (1, 99), None);
        let casualties = self.int(t, (section, at), "casualties", (1, 255), None);
        Some(TimeTrack {
            boxes,
            start: start? as u8,
            prussian_arrivals: arrivals?.0 as u8,
            casualties: casualties?.0 as u8,
        })
    }

    fn time_box(&mut self, s: &str, at: usize, what: &str) -> Option<u8> {
        let boxes = self.time_boxes.as_ref()?;
        let found = boxes.iter().position(|b| b.eq_ignore_ascii_case(s));
        if found.is_none() {
            let listed = boxes.join(", ");
            self.problem(
                at,
                format!("{what} \"{s}\" is not a box of the time track (the boxes: {listed})"),
            );
        }
        found.map(|i| i as u8)
    }

    fn effects(&mut self, s: &str, at: usize, what: &str) -> Option<Effects> {
        let mut e = Effects::default();
        let mut ok = true;
        for token in s.split([' ', ',']).filter(|t| !t.is_empty()) {
            if token == "-" {
                continue;
            }
            if token == "CAP" {
                e.capture = true;
                continue;
            }
            let (field, digits) = match token.split_at(
                token
                    .find(|c: char| c.is_ascii_digit())
                    .unwrap_or(token.len()),
            ) {
                ("FC", n) => (&mut e.french_casualties, n),
                ("AC", n) => (&mut e.allied_casualties, n),
                ("FM", n) => (&mut e.french_morale, n),
                ("AM", n) => (&mut e.allied_morale, n),
                ("P", n) => (&mut e.arrive, n),
                _ => {
                    self.problem(
                        at,
                        format!(
                            "{what}: \"{token}\" is not an outcome; use FC, AC, FM, AM or P with \
                             a number (FC1, AM2), CAP, or - for nothing"
                        ),
                    );
                    ok = false;
                    continue;
                }
            };
            match digits.parse::<u8>() {
                Ok(n) if (1..=20).contains(&n) => *field = field.saturating_add(n),
                _ => {
                    self.problem(
                        at,
                        format!("{what}: \"{token}\" needs a number 1 to 20 after its letters"),
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(e)
    }
}

/// What the first pass learns of a card: its name and army, for the targets of every card.
struct CardHead {
    name: String,
    army: Option<Army>,
}

impl CardSet {
    /// Reads a card file.
    ///
    /// # Errors
    /// Every problem, each with its line and how to fix it, sorted by line: TOML syntax, unknown
    /// keys, values of the wrong type or out of range, names of cards, control boxes or time
    /// boxes that do not exist, targets of the acting side's own army, outcomes that cannot be
    /// read.
    pub fn parse(text: &str) -> Result<CardSet, Problems<CardProblem>> {
        let mut r = Reader {
            text,
            problems: Vec::new(),
            time_boxes: None,
        };
        let root = match toml_span::parse(text) {
            Ok(v) => v,
            Err(e) => {
                let line = e
                    .line_info
                    .map_or_else(|| r.line_of(e.span.start), |(l, _)| l + 1);
                return Err(Problems(vec![CardProblem {
                    line,
                    message: format!("this is not valid TOML: {e}"),
                }]));
            }
        };
        let empty = Table::new();
        let root = root.as_table().unwrap_or(&empty);
        r.known(
            root,
            "the top level",
            &[
                "title", "napoleon", "french", "allied", "time", "control", "card",
            ],
        );
        let title = r
            .string(
                root,
                ("top-level", 0),
                "title",
                Some("say whose numbers these are"),
            )
            .map(|(s, _)| s.to_string());
        let napoleon = r.int(root, ("top-level", 0), "napoleon", (-6, 6), None);
        let french = r.tracks(root, "french");
        let allied = r.tracks(root, "allied");
        let time = r.time(root);

        // Control boxes.
        let mut controls = Vec::new();
        let control_tables = r.tables(root, "the file", "control");
        if control_tables.len() > MAX_CONTROLS {
            r.problem(
                control_tables[MAX_CONTROLS].1,
                format!("at most {MAX_CONTROLS} [[control]] boxes fit; remove some"),
            );
        }
        for &(t, at) in control_tables.iter().take(MAX_CONTROLS) {
            r.known(t, "[[control]]", &["name", "held"]);
            let name = r.name(t, ("[[control]]", at));
            let held = r.army(t, ("[[control]]", at), "held");
            if let Some((name, n_at)) = name {
                if controls
                    .iter()
                    .any(|c: &Control| c.name.eq_ignore_ascii_case(&name))
                {
                    r.problem(
                        n_at,
                        format!("control box \"{name}\" is listed twice; remove or rename one"),
                    );
                }
                controls.push(Control {
                    name,
                    held: held.unwrap_or(Army::French),
                });
            }
        }
        let control_id = |name: &str| {
            controls
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(name))
                .map(|i| ControlId::new(i as u8))
        };

        // Cards: names and armies first, so that any card may target any other.
        let card_tables = r.tables(root, "the file", "card");
        if card_tables.is_empty() {
            r.problem(0, "the file lists no [[card]]: add the corps cards".into());
        }
        if card_tables.len() > MAX_CARDS {
            r.problem(
                card_tables[MAX_CARDS].1,
                format!("at most {MAX_CARDS} [[card]] fit; remove some"),
            );
        }
        let card_tables = &card_tables[..card_tables.len().min(MAX_CARDS)];
        let mut heads: Vec<CardHead> = Vec::new();
        let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
        for &(t, at) in card_tables {
            let name = r.name(t, ("[[card]]", at));
            let army = r.army(t, ("[[card]]", at), "army");
            let name = match name {
                Some((name, n_at)) => {
                    match by_name.entry(name.to_ascii_lowercase()) {
                        std::collections::btree_map::Entry::Occupied(_) => r.problem(
                            n_at,
                            format!("card \"{name}\" is listed twice; remove or rename one"),
                        ),
                        std::collections::btree_map::Entry::Vacant(free) => {
                            free.insert(heads.len());
                        }
                    }
                    name
                }
                None => String::new(),
            };
            heads.push(CardHead { name, army });
        }
        for (seat, side) in [(FRENCH, "French"), (ALLIED, "Anglo-Allied")] {
            if !heads
                .iter()
                .any(|h| h.army.is_some_and(|a| seat_of(a) == seat))
                && !card_tables.is_empty()
            {
                r.problem(
                    card_tables[0].1,
                    format!("no {side} card is listed: each side needs at least one"),
                );
            }
        }

        let mut cards = Vec::new();
        for (k, &(t, at)) in card_tables.iter().enumerate() {
            let head = &heads[k];
            let sec = format!("card \"{}\"", head.name);
            r.known(
                t,
                &sec,
                &["name", "army", "divisions", "reserve", "once", "action"],
            );
            let max = i64::from(MAX_DIVISIONS);
            let divisions = r.int(t, (&sec, at), "divisions", (0, max), Some(0));
            let reserve = r.int(t, (&sec, at), "reserve", (0, max), Some(0));
            let once = r.boolean(t, &sec, "once");
            let action_tables = r.tables(t, &sec, "action");
            if action_tables.is_empty() {
                r.problem(
                    at,
                    format!("{sec} has no [[card.action]]: list what the card lets its corps do"),
                );
            }
            if action_tables.len() > MAX_ACTIONS {
                r.problem(
                    action_tables[MAX_ACTIONS].1,
                    format!("{sec} lists more than {MAX_ACTIONS} actions; remove some"),
                );
            }
            let reserve_n = reserve.map_or(0, |(n, _)| n);
            let mut actions = Vec::new();
            for &(a, a_at) in action_tables.iter().take(MAX_ACTIONS) {
                let action = r.action(
                    a,
                    a_at,
                    &sec,
                    head.army,
                    reserve_n > 0,
                    (&heads, &by_name),
                    &control_id,
                );
                if let Some(action) = action {
                    actions.push(action);
                }
            }
            if let (Some(army), Some((d, _)), Some((res, _))) = (head.army, divisions, reserve) {
                cards.push(Card {
                    name: head.name.clone(),
                    army,
                    divisions: d as u8,
                    reserve: res as u8,
                    once,
                    actions,
                });
            }
        }

        r.problems.sort_by_key(|p| p.line);
        if !r.problems.is_empty() {
            return Err(Problems(r.problems));
        }
        let (Some(title), Some((napoleon, _)), Some(french), Some(allied), Some(time)) =
            (title, napoleon, french, allied, time)
        else {
            // Every missing part was reported above; this is not reached.
            return Err(Problems(vec![CardProblem {
                line: 1,
                message: "the card file is incomplete".into(),
            }]));
        };
        let mut tracks = BySeat::from_fn(|_| french.clone());
        tracks[ALLIED] = allied;
        Ok(CardSet {
            title,
            napoleon: napoleon as i8,
            tracks,
            time,
            controls,
            cards,
        })
    }
}

impl Reader<'_> {
    #[allow(clippy::too_many_arguments)]
    fn action(
        &mut self,
        t: &Table<'_>,
        at: usize,
        card: &str,
        army: Option<Army>,
        has_reserve: bool,
        (heads, by_name): (&[CardHead], &BTreeMap<String, usize>),
        control_id: &dyn Fn(&str) -> Option<ControlId>,
    ) -> Option<CardAction> {
        let name = self.name(t, (&format!("an action of {card}"), at));
        let sec = match &name {
            Some((n, _)) => format!("{card} action \"{n}\""),
            None => format!("an action of {card}"),
        };
        self.known(
            t,
            &sec,
            &[
                "name",
                "targets",
                "counter",
                "captures",
                "from_time",
                "modifiers",
                "first",
                "results",
            ],
        );
        let mut ok = name.is_some();
        let mut targets = Vec::new();
        if let Some((items, _)) = self.array(t, &sec, "targets") {
            for item in items {
                let Some(s) = item.as_str() else {
                    self.problem(
                        item.span.start,
                        format!("{sec}: each target must be a card's name in quotes"),
                    );
                    ok = false;
                    continue;
                };
                match by_name.get(&s.to_ascii_lowercase()) {
                    None => {
                        self.problem(
                            item.span.start,
                            format!("{sec} targets \"{s}\", which is not a card: fix the spelling or add the card"),
                        );
                        ok = false;
                    }
                    Some(&i) => {
                        let enemy = match (army, heads[i].army) {
                            (Some(a), Some(b)) => seat_of(a) != seat_of(b),
                            _ => true,
                        };
                        if !enemy {
                            self.problem(
                                item.span.start,
                                format!("{sec} targets \"{s}\", a card of its own side: target an enemy card"),
                            );
                            ok = false;
                        } else if targets.contains(&CardId::new(i as u8)) {
                            self.problem(
                                item.span.start,
                                format!("{sec} lists target \"{s}\" twice; remove one"),
                            );
                            ok = false;
                        } else {
                            targets.push(CardId::new(i as u8));
                        }
                    }
                }
            }
        }
        let counter = self.boolean(t, &sec, "counter");
        if counter && targets.is_empty() {
            self.problem(
                at,
                format!(
                    "{sec} is a counter attack with no targets: list the enemy cards it answers"
                ),
            );
            ok = false;
        }
        let captures = match self.string(t, (&sec, at), "captures", None) {
            None => None,
            Some((s, s_at)) => {
                let c = control_id(s);
                if c.is_none() {
                    self.problem(
                        s_at,
                        format!("{sec} captures \"{s}\", which is not a [[control]] box"),
                    );
                    ok = false;
                }
                c
            }
        };
        let from_time = match self.string(t, (&sec, at), "from_time", None) {
            None => 0,
            Some((s, s_at)) => {
                let found = self.time_box(s, s_at, &format!("{sec} from_time"));
                ok &= found.is_some();
                found.unwrap_or(0)
            }
        };
        let first = self
            .int(t, (&sec, at), "first", (-20, 20), Some(1))
            .map_or(1, |(n, _)| n as i8);
        let mut modifiers = Vec::new();
        if let Some((items, _)) = self.array(t, &sec, "modifiers") {
            for item in items {
                match self.modifier(item, &sec, by_name, control_id) {
                    Some(m) => modifiers.push(m),
                    None => ok = false,
                }
            }
        }
        let mut results = Vec::new();
        match self.array(t, &sec, "results") {
            None if !t.contains_key("results") => {
                self.missing(
                    at,
                    &sec,
                    "results",
                    "one outcome per die result from `first` up, e.g. [\"FC1\", \"AC1 AM1\"]",
                );
                ok = false;
            }
            None => ok = false,
            Some((items, list_at)) => {
                if items.is_empty() || items.len() > 20 {
                    self.problem(
                        list_at,
                        format!("{sec} results lists {} rows: list 1 to 20", items.len()),
                    );
                    ok = false;
                }
                for (i, item) in items.iter().enumerate() {
                    let row = i64::from(first) + i as i64;
                    let what = format!("{sec} result {row}");
                    let Some(s) = item.as_str() else {
                        self.problem(
                            item.span.start,
                            format!("{what} must be a string in quotes"),
                        );
                        ok = false;
                        continue;
                    };
                    match self.effects(s, item.span.start, &what) {
                        Some(e) => {
                            if e.capture && captures.is_none() {
                                self.problem(
                                    item.span.start,
                                    format!(
                                        "{what} has CAP but the action names no `captures` box"
                                    ),
                                );
                                ok = false;
                            }
                            if e.arrive > 0 && !has_reserve {
                                self.problem(
                                    item.span.start,
                                    format!("{what} brings divisions (P) but the card has no `reserve` waiting"),
                                );
                                ok = false;
                            }
                            results.push(e);
                        }
                        None => ok = false,
                    }
                }
            }
        }
        ok.then(|| CardAction {
            name: name.map(|(n, _)| n).unwrap_or_default(),
            targets,
            counter,
            captures,
            from_time,
            modifiers,
            first,
            results,
        })
    }

    fn modifier(
        &mut self,
        item: &Value<'_>,
        sec: &str,
        by_name: &BTreeMap<String, usize>,
        control_id: &dyn Fn(&str) -> Option<ControlId>,
    ) -> Option<Modifier> {
        let what = format!("{sec} modifier");
        let Some(m) = item.as_table() else {
            self.problem(
                item.span.start,
                format!("{what} must be a table like {{ add = 1, held = \"Hougoumont\" }}"),
            );
            return None;
        };
        let at = item.span.start;
        self.known(m, &what, &["add", "held", "not_held", "empty", "from_time"]);
        let add = self.int(m, (&what, at), "add", (-6, 6), None);
        if add.is_some_and(|(a, _)| a == 0) {
            self.problem(at, format!("{what} adds 0: remove it or give the number"));
        }
        let conditions: Vec<&str> = ["held", "not_held", "empty", "from_time"]
            .into_iter()
            .filter(|k| m.contains_key(*k))
            .collect();
        if conditions.len() > 1 {
            self.problem(
                at,
                format!(
                    "{what} has {} conditions ({}): give one per modifier",
                    conditions.len(),
                    conditions.join(", ")
                ),
            );
            return None;
        }
        let when = match conditions.first().copied() {
            None => Some(Condition::Always),
            Some(key) => {
                let (s, s_at) = self.string(m, (&what, at), key, None)?;
                match key {
                    "held" | "not_held" => match control_id(s) {
                        Some(c) if key == "held" => Some(Condition::Held(c)),
                        Some(c) => Some(Condition::NotHeld(c)),
                        None => {
                            self.problem(
                                s_at,
                                format!("{what} {key} = \"{s}\" is not a [[control]] box"),
                            );
                            None
                        }
                    },
                    "empty" => match by_name.get(&s.to_ascii_lowercase()) {
                        Some(&i) => Some(Condition::Empty(CardId::new(i as u8))),
                        None => {
                            self.problem(s_at, format!("{what} empty = \"{s}\" is not a card"));
                            None
                        }
                    },
                    _ => self
                        .time_box(s, s_at, &format!("{what} from_time"))
                        .map(Condition::FromTime),
                }
            }
        };
        Some(Modifier {
            add: add?.0 as i8,
            when: when?,
        })
    }
}
