//! The pages in HTML: built from a [`PublicPage`] or a [`SeatPage`] alone, every word escaped,
//! CSS, script and the board's SVG inline (no internet at the table).
//!
//! A page is a shell ([`document`]) around a body ([`public_body`], [`seat_body`]); the live
//! stream sends the new body, which the shell's script puts in place. The shell holds no token:
//! its script finds the stream from the page's own address.

use std::fmt::Write as _;

use super::{PiecePage, PublicPage, SeatPage};
use crate::referee::table::Replay;
use crate::sensing::Place;
use crate::ui::StatusLine;

/// `text` with the characters HTML gives a meaning escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#222}\
main{max-width:40rem;margin:auto;padding:.6rem}h1{font-size:1.2rem;margin:.2rem 0}\
h2{font-size:1rem;margin:.8rem 0 .3rem}.oled{background:#111;color:#9ef;padding:.5rem;\
border-radius:.3rem;font-family:monospace}.oled p{margin:.2rem 0}.status{font-weight:bold}\
ol.story,ul.story{padding-left:1.4rem;color:#444}svg{width:100%;height:auto;display:block}\
.live{font-size:.8rem;color:#777}.live.off{color:#b00}ul{padding-left:1.2rem}";

const SCRIPT: &str = "(function(){var m=document.getElementById('page'),\
l=document.getElementById('live'),u=location.pathname.replace(/\\/+$/,'')+'/events',\
s=new EventSource(u),t=Date.now();s.addEventListener('page',function(e){m.innerHTML=e.data;t=Date.now();\
document.body.setAttribute('data-version',e.lastEventId);l.textContent='live';\
l.className='live';});s.onerror=function(){l.textContent='reconnecting to the umpire...';\
l.className='live off';};\
setInterval(function(){document.querySelectorAll('.clock').forEach(function(c){var n=+c.getAttribute('data-s')+Math.floor((Date.now()-t)/1000),h=Math.floor(n/3600),\
p=function(x){return (x<10?'0':'')+x;},w=(h>0?h+':'+p(Math.floor(n/60)%60):p(Math.floor(n/60)))\
+':'+p(n%60),k=c.getAttribute('data-limit');\
c.textContent=(k!==null&&n>+k?'!':'')+w;});},1000);})();";

/// A whole page around `body`: the `title`, the style, and the script that keeps the body
/// live from the page's event stream.
pub fn document(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <meta name=\"referrer\" content=\"no-referrer\"><title>{}</title><style>{STYLE}</style>\
         </head><body><main><p id=\"live\" class=\"live\">connecting...</p>\
         <div id=\"page\">{body}</div></main><script>{SCRIPT}</script></body></html>",
        escape(title)
    )
}

/// The screen's words.
fn oled(out: &mut String, public: &PublicPage) {
    out.push_str("<section class=\"oled\" aria-label=\"The umpire's screen\">");
    for (i, line) in public.screen.iter().enumerate() {
        match public.clock.as_ref().filter(|c| c.lines.contains(&i)) {
            // The turn clock: the script ticks it on from the published seconds.
            Some(clock) => {
                let _ = write!(
                    out,
                    "<p class=\"clock\" data-s=\"{}\"{}>{}</p>",
                    clock.elapsed_s,
                    clock
                        .limit_s
                        .map(|l| format!(" data-limit=\"{l}\""))
                        .unwrap_or_default(),
                    escape(line)
                );
            }
            None => {
                let _ = write!(out, "<p>{}</p>", escape(line));
            }
        }
    }
    out.push_str("</section>");
}

/// The announcements before the screen, newest first.
fn story(out: &mut String, public: &PublicPage) {
    if !public.announcements.is_empty() {
        out.push_str("<h2>Before</h2><ol class=\"story\">");
        for said in &public.announcements {
            let _ = write!(out, "<li>{}</li>", escape(said));
        }
        out.push_str("</ol>");
    }
}

/// The hand steps the screen lists, one to a line.
fn hands(out: &mut String, public: &PublicPage) {
    if !public.hands.is_empty() {
        out.push_str("<h2>Hand steps</h2><ul class=\"hands\">");
        for step in &public.hands {
            let _ = write!(out, "<li>{}</li>", escape(step));
        }
        out.push_str("</ul>");
    }
}

/// A board in words: each place and what stands there.
fn board_list(out: &mut String, board: &[(String, String)]) {
    out.push_str("<ul class=\"board\">");
    for (place, piece) in board {
        let _ = write!(out, "<li>{}: {}</li>", escape(place), escape(piece));
    }
    out.push_str("</ul>");
}

/// The finished game revealed: the start, every action in full, the final board.
pub fn replay_section(replay: &Replay) -> String {
    let (who, why) = &replay.result;
    let mut out = format!(
        "<section id=\"replay\"><h2>The whole game revealed</h2><p class=\"status\">{}: {}: \
         {}</p><details><summary>Every piece at the start</summary>",
        escape(&replay.title),
        escape(who),
        escape(why)
    );
    board_list(&mut out, &replay.start);
    out.push_str("</details><h2>Every action</h2><ol class=\"replay\">");
    for (_, action, told) in &replay.actions {
        let _ = write!(out, "<li>{}", escape(action));
        for line in told {
            let _ = write!(out, "; {}", escape(line));
        }
        out.push_str("</li>");
    }
    out.push_str("</ol><h2>The final board</h2>");
    board_list(&mut out, &replay.end);
    out.push_str("</section>");
    out
}

/// The replay, when the game is over.
fn replay(out: &mut String, public: &PublicPage) {
    if let Some(replay) = &public.replay {
        out.push_str(&replay_section(replay));
    }
}

/// The public page's body: the OLED's words, nothing else (and once the game is over, the
/// whole game revealed).
pub fn public_body(page: &PublicPage) -> String {
    let mut out = String::from("<h1>The table</h1>");
    oled(&mut out, page);
    hands(&mut out, page);
    story(&mut out, page);
    replay(&mut out, page);
    out
}

/// The status line in words.
fn status_words(status: &StatusLine) -> String {
    let mut s = format!("Turn {}", status.turn);
    if let Some(c) = status.clock {
        let _ = write!(s, ", {:02}:{:02}", c.hour, c.minute);
    }
    let _ = write!(s, "; to act: {}", status.to_act);
    if let Some(n) = status.actions_left {
        let _ = write!(s, ", {n} action{} left", if n == 1 { "" } else { "s" });
    }
    if let Some(n) = status.reinforcements_in {
        let _ = write!(s, "; reinforcements in {n}");
    }
    s
}

/// Colours of the seats' pieces, in turn order.
const SIDES: [(&str, &str); 3] = [
    ("#c0392b", "#fff"),
    ("#2462a8", "#fff"),
    ("#2e7d32", "#fff"),
];

/// A piece's few letters for its square: the words after the seat's name, shortened (of a
/// stack "A, B" the first piece; of "Lobau (Blue Pawn)" the name before the brackets).
fn code(piece: &PiecePage, names: &[String]) -> String {
    let first = piece.piece.split(',').next().unwrap_or("");
    let first = first.split('(').next().unwrap_or("");
    let mut words: Vec<&str> = first.split_whitespace().collect();
    if let Some(side) = piece.side {
        if names.get(side).map(String::as_str) == words.first().copied() {
            words.remove(0);
        }
    }
    match words.as_slice() {
        [] => String::new(),
        ["piece"] => String::new(),
        [one] => one.chars().take(4).collect(),
        [first, second, ..] => {
            let mut c: String = first.chars().take(2).collect();
            c.extend(second.chars().take(2));
            c
        }
    }
}

/// The board as SVG, seen from `page`'s seat (its home edge at the bottom).
fn board_svg(out: &mut String, page: &SeatPage) {
    let (cols, rows) = page.grid;
    if cols == 0 || rows == 0 {
        return;
    }
    const S: u32 = 40;
    let (w, h) = (u32::from(cols) * S, u32::from(rows) * S);
    let flip = page.seat % 2 == 1;
    // `None` off the grid: a page built by hand may hold a piece no square of it has.
    let at = |col: u8, row: u8| {
        let (c, r) = if flip {
            ((cols - 1).checked_sub(col)?, row)
        } else {
            (col, (rows - 1).checked_sub(row)?)
        };
        (c < cols && r < rows).then(|| (u32::from(c) * S, u32::from(r) * S))
    };
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" role=\"img\" \
         aria-label=\"The board as {} sees it\"><rect width=\"{w}\" height=\"{h}\" fill=\"#e8dcc0\"/>",
        escape(page.seat_name())
    );
    for col in 0..cols {
        for row in 0..rows {
            if let (0, Some((x, y))) = ((u16::from(col) + u16::from(row)) % 2, at(col, row)) {
                let _ = write!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{S}\" height=\"{S}\" fill=\"#d8c8a4\"/>"
                );
            }
        }
    }
    for piece in &page.pieces {
        let Place::Square(cell) = piece.place else {
            continue;
        };
        let Some((x, y)) = at(cell.col, cell.row) else {
            continue;
        };
        let (fill, ink) = piece
            .side
            .and_then(|s| SIDES.get(s).copied())
            .unwrap_or(("#777", "#fff"));
        // The seat's own pieces: marked, and outlined so they stand out from the enemy's.
        let (class, outline) = if piece.side == Some(page.seat) {
            (" class=\"own\"", " stroke=\"#111\" stroke-width=\"3\"")
        } else {
            ("", "")
        };
        let _ = write!(
            out,
            "<g{class}><title>{}: {}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\" \
             fill=\"{fill}\"{outline}/><text x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" \
             fill=\"{ink}\" font-family=\"sans-serif\">{}</text></g>",
            escape(&piece.place_name),
            escape(&piece.piece),
            x + 3,
            y + 3,
            S - 6,
            S - 6,
            x + S / 2,
            y + S / 2 + 5,
            escape(&code(piece, &page.seat_names)),
        );
    }
    out.push_str("</svg>");
}

/// A seat's page body: the status, the OLED's words and hand steps, the board, the seat's
/// secrets, the announcements before, the story in the seat's words, the seat's pieces in
/// words, and once the game is over the whole game revealed.
pub fn seat_body(page: &SeatPage) -> String {
    let mut out = format!(
        "<h1>{}: {}</h1>",
        escape(&page.title),
        escape(page.seat_name())
    );
    if let Some(status) = &page.status {
        let _ = write!(
            out,
            "<p class=\"status\">{}</p>",
            escape(&status_words(status))
        );
    }
    if let Some(words) = &page.setup {
        let _ = write!(out, "<p class=\"status\">Set-up: {}</p>", escape(words));
    }
    if let Some((who, why)) = &page.result {
        let _ = write!(
            out,
            "<p class=\"status\">Over: {}: {}</p>",
            escape(who),
            escape(why)
        );
    }
    oled(&mut out, &page.public);
    hands(&mut out, &page.public);
    board_svg(&mut out, page);
    out.push_str("<h2>Your secrets</h2>");
    if page.secrets.is_empty() {
        out.push_str("<p>None besides your pieces in this game.</p>");
    } else {
        out.push_str("<ul class=\"secrets\">");
        for secret in &page.secrets {
            let _ = write!(out, "<li>{}</li>", escape(secret));
        }
        out.push_str("</ul>");
    }
    story(&mut out, &page.public);
    if !page.story.is_empty() {
        let _ = write!(
            out,
            "<details><summary>The story so far ({} actions, in your words)</summary>\
             <ul class=\"story\">",
            page.story.len()
        );
        for said in &page.story {
            let _ = write!(out, "<li>{}</li>", escape(&said.words()));
        }
        out.push_str("</ul></details>");
    }
    let own: Vec<&PiecePage> = page
        .pieces
        .iter()
        .filter(|p| p.side == Some(page.seat))
        .collect();
    if !own.is_empty() {
        let _ = write!(
            out,
            "<details><summary>Your pieces ({})</summary><ul>",
            own.len()
        );
        for p in own {
            let _ = write!(
                out,
                "<li>{}: {}</li>",
                escape(&p.place_name),
                escape(&p.piece)
            );
        }
        out.push_str("</ul></details>");
    }
    replay(&mut out, &page.public);
    out
}

/// The public page, whole.
pub fn public_document(page: &PublicPage) -> String {
    document("Umpire: the table", &public_body(page))
}

/// The finished game's replay, whole.
pub fn replay_document(replay: &Replay) -> String {
    document("Umpire: the game revealed", &replay_section(replay))
}

/// A seat's page, whole.
pub fn seat_document(page: &SeatPage) -> String {
    document(&format!("Umpire: {}", page.seat_name()), &seat_body(page))
}
