//! A small HTTP/1.1 server on `std::net`: one request per connection, at most
//! [`MAX_CONNECTIONS`] at once (one thread each; the next gets 503 and is closed), requests
//! capped at [`MAX_REQUEST`] bytes and [`READ_TIMEOUT`], writes at [`WRITE_TIMEOUT`] (a phone
//! that stops reading is dropped).
//!
//! **A phone gone from the Wi-Fi holds no place for long.** Its event stream sends nothing to
//! notice it by but ": alive" every [`KEEPALIVE`], which the kernel buffers for many minutes
//! before a write fails (std has no TCP keepalive, and the workspace forbids the `unsafe` a
//! `setsockopt` needs). So when every place is taken, a new request ends the oldest event
//! stream open for at least [`STREAM_EVICT_AGE`] and takes its place: a phone still there
//! reconnects by itself (the page's `EventSource` does) and is young again, so a flood of
//! requests can end each stream at most once per [`STREAM_EVICT_AGE`]; with no stream that old,
//! 503 as before.
//!
//! | path | answer |
//! |---|---|
//! | `/` | the public table page |
//! | `/events` | its live body (server-sent events) |
//! | `/seat/<token>` | the seat's private page; a wrong or old token: 403, empty |
//! | `/seat/<token>/events` | its live body, until the token dies (a new game) |
//! | `/replay` | once the game is over, the whole game revealed; before: 404, empty |
//!
//! `/S/<token>` (or `/s/`) is the same seat page: the short address the OLED's code holds
//! ([`super::link`]), the token in base32 of either case or in hex.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::{html, Slot, Snapshot};

/// The most connections served at once (ten phones on a page and its stream fit).
pub const MAX_CONNECTIONS: usize = 24;
/// The longest request head read, in bytes.
pub const MAX_REQUEST: usize = 4096;
/// How long a request may take to arrive.
pub const READ_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a write may wait for a phone to read.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);
/// How often a quiet event stream says it is alive (and finds a phone gone).
pub const KEEPALIVE: Duration = Duration::from_secs(15);
/// How long an event stream is safe from being ended for a new request when every place is
/// taken (see the module's docs).
pub const STREAM_EVICT_AGE: Duration = Duration::from_secs(30);
/// Each connection thread's stack.
const STACK: usize = 128 * 1024;

/// A running server: its address, and a way to stop it.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    active: Arc<AtomicUsize>,
    streams: Arc<Streams>,
}

/// The event streams being served, oldest first, so a new request can end the oldest when
/// every place is taken.
#[derive(Debug)]
struct Streams {
    open: Mutex<Vec<OpenStream>>,
    next: AtomicU64,
    evicted: AtomicU64,
    /// How old a stream must be to be ended for a new request ([`STREAM_EVICT_AGE`]).
    evict_age: Duration,
}

#[derive(Debug)]
struct OpenStream {
    id: u64,
    since: Instant,
    /// Set to end the stream; its thread wakes and returns, giving back its place.
    end: Arc<AtomicBool>,
    /// The connection, shut down on eviction so a write blocked on a gone phone fails at once.
    socket: Option<TcpStream>,
}

impl Streams {
    /// Ends the oldest stream open for at least the eviction age, waking its thread
    /// through `slot`: whether there was one.
    fn evict_oldest(&self, slot: &Slot) -> bool {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let oldest = open
            .iter()
            .find(|s| s.since.elapsed() >= self.evict_age && !s.end.load(Ordering::SeqCst));
        let Some(stream) = oldest else {
            return false;
        };
        stream.end.store(true, Ordering::SeqCst);
        if let Some(socket) = &stream.socket {
            let _ = socket.shutdown(std::net::Shutdown::Both);
        }
        drop(open);
        self.evicted.fetch_add(1, Ordering::SeqCst);
        slot.wake();
        true
    }
}

/// A stream's entry in [`Streams`], taken out when the stream ends.
struct StreamEntry<'a> {
    streams: &'a Streams,
    id: u64,
    end: Arc<AtomicBool>,
}

impl<'a> StreamEntry<'a> {
    fn open(streams: &'a Streams, socket: &TcpStream) -> StreamEntry<'a> {
        let id = streams.next.fetch_add(1, Ordering::SeqCst);
        let end = Arc::new(AtomicBool::new(false));
        streams
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(OpenStream {
                id,
                since: Instant::now(),
                end: Arc::clone(&end),
                socket: socket.try_clone().ok(),
            });
        StreamEntry { streams, id, end }
    }
}

impl Drop for StreamEntry<'_> {
    fn drop(&mut self) {
        self.streams
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|s| s.id != self.id);
    }
}

impl Server {
    /// Serves the pages in `slot` on `listener`, from a thread of its own.
    ///
    /// # Errors
    /// The listener has no address, or the thread cannot start.
    pub fn start(listener: TcpListener, slot: Arc<Slot>) -> io::Result<Server> {
        Server::start_evicting(listener, slot, STREAM_EVICT_AGE)
    }

    /// [`Server::start`] with event streams ended for a new request once `evict_age` old
    /// (tests shorten it).
    pub(crate) fn start_evicting(
        listener: TcpListener,
        slot: Arc<Slot>,
        evict_age: Duration,
    ) -> io::Result<Server> {
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let active = Arc::new(AtomicUsize::new(0));
        let streams = Arc::new(Streams {
            open: Mutex::new(Vec::new()),
            next: AtomicU64::new(0),
            evicted: AtomicU64::new(0),
            evict_age,
        });
        let (s, a, st) = (Arc::clone(&stop), Arc::clone(&active), Arc::clone(&streams));
        thread::Builder::new()
            .name("web".into())
            .stack_size(STACK)
            .spawn(move || accept(&listener, &slot, &s, &a, &st))?;
        Ok(Server {
            addr,
            stop,
            active,
            streams,
        })
    }

    /// Event streams ended so far to make room for a new request.
    pub fn evicted(&self) -> u64 {
        self.streams.evicted.load(Ordering::SeqCst)
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Connections being served now.
    pub fn active(&self) -> usize {
        self.active.load(Ordering::SeqCst)
    }

    /// Stops accepting (connections being served finish by themselves).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Holds one of the connection places until dropped.
struct Place(Arc<AtomicUsize>);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn accept(
    listener: &TcpListener,
    slot: &Arc<Slot>,
    stop: &AtomicBool,
    active: &Arc<AtomicUsize>,
    streams: &Arc<Streams>,
) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(mut stream) = stream else {
            // A connection that failed before it was accepted: the next one may be fine.
            continue;
        };
        let taken = active.fetch_add(1, Ordering::SeqCst);
        let place = Place(Arc::clone(active));
        // Every place taken: the oldest old stream makes room (its thread ends at once), else
        // 503. Only a place held by a stream is given up, so the count overshoots the cap by
        // the streams ending this instant at most.
        if taken >= MAX_CONNECTIONS && !streams.evict_oldest(slot) {
            let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
            let _ = stream.write_all(
                b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 2\r\n\
                  Connection: close\r\n\r\n",
            );
            drop(place);
            continue;
        }
        let (slot, streams) = (Arc::clone(slot), Arc::clone(streams));
        let spawned = thread::Builder::new()
            .name("web-conn".into())
            .stack_size(STACK)
            .spawn(move || {
                let _place = place;
                let _ = serve(stream, &slot, &streams);
            });
        // A thread that cannot start drops its connection (and its place) with it.
        drop(spawned);
    }
}

/// What a request asks for.
#[derive(Debug, PartialEq, Eq)]
enum Route<'a> {
    Public,
    PublicEvents,
    Seat(&'a str),
    SeatEvents(&'a str),
    NotFound,
    Replay,
}

fn route(path: &str) -> Route<'_> {
    let path = path.split('?').next().unwrap_or("");
    match path {
        "/" => Route::Public,
        "/events" => Route::PublicEvents,
        "/replay" => Route::Replay,
        _ => match path
            .strip_prefix("/seat/")
            .or_else(|| path.strip_prefix("/S/"))
            .or_else(|| path.strip_prefix("/s/"))
        {
            Some(rest) => match rest.strip_suffix("/events") {
                Some(token) => Route::SeatEvents(token),
                None => Route::Seat(rest.trim_end_matches('/')),
            },
            None => Route::NotFound,
        },
    }
}

/// Reads the request head: its method and path, or the status to answer.
fn read_head(stream: &mut TcpStream) -> Result<(String, String), &'static str> {
    let mut head = Vec::with_capacity(512);
    let mut buf = [0u8; 512];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.len() >= MAX_REQUEST {
            return Err("431 Request Header Fields Too Large");
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return Err(""),
            Ok(n) => head.extend_from_slice(&buf[..n.min(MAX_REQUEST + 4 - head.len())]),
        }
    }
    let text = std::str::from_utf8(&head).map_err(|_| "400 Bad Request")?;
    let mut words = text.lines().next().unwrap_or("").split(' ');
    match (words.next(), words.next(), words.next()) {
        (Some(method), Some(path), Some(v)) if v.starts_with("HTTP/1.") => {
            Ok((method.to_string(), path.to_string()))
        }
        _ => Err("400 Bad Request"),
    }
}

/// Headers every answer carries: no caching, no referrer (the address holds the token), and
/// nothing loaded from anywhere else.
const HEADERS: &str = "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n\
    X-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'; \
    style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src data:\r\n\
    Connection: close\r\n";

fn answer(stream: &mut TcpStream, status: &str, kind: &str, body: &str) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n{HEADERS}\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    stream.flush()
}

fn empty(stream: &mut TcpStream, status: &str) -> io::Result<()> {
    let head = format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\n{HEADERS}\r\n");
    stream.write_all(head.as_bytes())
}

const HTML: &str = "text/html; charset=utf-8";

fn serve(mut stream: TcpStream, slot: &Slot, streams: &Streams) -> io::Result<()> {
    stream.set_read_timeout(Some(READ_TIMEOUT))?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let (method, path) = match read_head(&mut stream) {
        Ok(head) => head,
        Err("") => return Ok(()),
        Err(status) => return empty(&mut stream, status),
    };
    if method != "GET" {
        return empty(&mut stream, "405 Method Not Allowed");
    }
    let snapshot = slot.current();
    // The pages' clock as it stands now, however long ago the snapshot was made.
    let age = snapshot.age_s();
    match route(&path) {
        Route::Public => match &snapshot.public {
            Some(page) => answer(
                &mut stream,
                "200 OK",
                HTML,
                &html::public_document(&page.aged(age)),
            ),
            None => empty(&mut stream, "503 Service Unavailable"),
        },
        Route::Seat(token) => match snapshot.seat(token) {
            Some(entry) => answer(
                &mut stream,
                "200 OK",
                HTML,
                &html::seat_document(&entry.page.aged(age)),
            ),
            None => empty(&mut stream, "403 Forbidden"),
        },
        Route::PublicEvents => stream_events(stream, slot, streams, snapshot, |s| {
            s.public
                .as_ref()
                .map(|p| html::public_body(&p.aged(s.age_s())))
        }),
        Route::SeatEvents(token) => {
            if snapshot.seat(token).is_none() {
                return empty(&mut stream, "403 Forbidden");
            }
            let token = token.to_string();
            stream_events(stream, slot, streams, snapshot, move |s| {
                s.seat(&token)
                    .map(|e| html::seat_body(&e.page.aged(s.age_s())))
            })
        }
        Route::NotFound => empty(&mut stream, "404 Not Found"),
        // Nothing of the revealed game before it is over.
        Route::Replay => match snapshot.public.as_ref().and_then(|p| p.replay.as_ref()) {
            Some(replay) => answer(&mut stream, "200 OK", HTML, &html::replay_document(replay)),
            None => empty(&mut stream, "404 Not Found"),
        },
    }
}

/// One server-sent event carrying `body` (each of its lines a `data:` line).
pub fn event(version: u64, body: &str) -> String {
    let mut out = format!("event: page\nid: {version}\n");
    for line in body.split('\n') {
        out.push_str("data: ");
        out.push_str(line.trim_end_matches('\r'));
        out.push('\n');
    }
    out.push('\n');
    out
}

/// Sends the body `page` makes of each new snapshot, the current one first, until the phone
/// goes, `page` has nothing (the token died), or a new request ends it ([`Streams`]).
fn stream_events(
    mut stream: TcpStream,
    slot: &Slot,
    streams: &Streams,
    mut snapshot: Arc<Snapshot>,
    page: impl Fn(&Snapshot) -> Option<String>,
) -> io::Result<()> {
    let entry = StreamEntry::open(streams, &stream);
    let head = format!("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n{HEADERS}\r\n");
    stream.write_all(head.as_bytes())?;
    let mut sent = None;
    loop {
        if entry.end.load(Ordering::SeqCst) {
            // Made room for a new request (the socket is shut down): the page's EventSource
            // reconnects by itself.
            return Ok(());
        }
        if sent != Some(snapshot.version) {
            let Some(body) = page(&snapshot) else {
                return Ok(());
            };
            stream.write_all(event(snapshot.version, &body).as_bytes())?;
            stream.flush()?;
            sent = Some(snapshot.version);
        } else {
            stream.write_all(b": alive\n\n")?;
        }
        snapshot = slot.wait_newer_or_end(snapshot.version, KEEPALIVE, &entry.end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_read_from_the_path() {
        assert_eq!(route("/"), Route::Public);
        assert_eq!(route("/?x=1"), Route::Public);
        assert_eq!(route("/events"), Route::PublicEvents);
        assert_eq!(route("/seat/ab12"), Route::Seat("ab12"));
        assert_eq!(route("/seat/ab12/"), Route::Seat("ab12"));
        assert_eq!(route("/seat/ab12/events"), Route::SeatEvents("ab12"));
        assert_eq!(route("/S/AB12"), Route::Seat("AB12"));
        assert_eq!(route("/s/ab12/events"), Route::SeatEvents("ab12"));
        assert_eq!(route("/favicon.ico"), Route::NotFound);
        assert_eq!(route("/replay"), Route::Replay);
    }

    #[test]
    fn an_event_carries_every_line_of_the_body() {
        assert_eq!(
            event(7, "<p>a</p>\n<p>b</p>"),
            "event: page\nid: 7\ndata: <p>a</p>\ndata: <p>b</p>\n\n"
        );
    }
}
