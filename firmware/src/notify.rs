//! systemd's notify protocol (`sd_notify(3)`), written out over a Unix datagram socket: the
//! service says READY=1 once it is up and WATCHDOG=1 from its loop within the watchdog interval
//! (a hung loop is then restarted by systemd). STOPPING=1 is not sent: the service is stopped
//! by a signal with nothing to flush (the journal is synced at every record), and
//! `ExecStopPost` blanks the OLED.
//!
//! systemd passes the socket in `$NOTIFY_SOCKET` (a path, or `@name` for an abstract socket)
//! and, with `WatchdogSec=`, the interval in `$WATCHDOG_USEC` (for the process in
//! `$WATCHDOG_PID`, when set). Outside systemd there is no socket and every call does nothing.

use std::io;
use std::os::unix::net::UnixDatagram;
use std::path::PathBuf;
use std::time::Duration;

use crate::sensing::Millis;

/// Where notifications go, and how often the watchdog wants to hear from the loop.
#[derive(Debug)]
pub struct Notifier {
    target: Option<(UnixDatagram, Target)>,
    watchdog: Option<Duration>,
    last_ping: Option<Millis>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    Path(PathBuf),
    #[cfg(any(target_os = "linux", target_os = "android"))]
    Abstract(Vec<u8>),
}

impl Notifier {
    /// The notifier systemd set up for this process (`$NOTIFY_SOCKET`, `$WATCHDOG_USEC`,
    /// `$WATCHDOG_PID`), or one that does nothing outside systemd.
    ///
    /// # Errors
    /// The socket could not be created.
    pub fn from_env() -> io::Result<Notifier> {
        let socket = std::env::var_os("NOTIFY_SOCKET");
        let usec = std::env::var("WATCHDOG_USEC").ok();
        let pid = std::env::var("WATCHDOG_PID").ok();
        let for_us = pid.is_none_or(|p| p.trim() == std::process::id().to_string());
        let watchdog = usec
            .filter(|_| for_us)
            .and_then(|u| u.trim().parse::<u64>().ok())
            .filter(|&u| u > 0)
            .map(Duration::from_micros);
        Notifier::new(socket.map(PathBuf::from), watchdog)
    }

    /// A notifier to `socket` (a path, or `@name` for an abstract socket), with the watchdog
    /// interval `watchdog`.
    ///
    /// # Errors
    /// The socket could not be created.
    pub fn new(socket: Option<PathBuf>, watchdog: Option<Duration>) -> io::Result<Notifier> {
        let target = match socket {
            None => None,
            Some(path) => Some((UnixDatagram::unbound()?, target_of(path)?)),
        };
        Ok(Notifier {
            target,
            watchdog,
            last_ping: None,
        })
    }

    /// Sends one notification (`READY=1`, `STATUS=...`, several lines at once are allowed).
    ///
    /// # Errors
    /// The socket refused the datagram.
    pub fn notify(&self, state: &str) -> io::Result<()> {
        let Some((socket, target)) = &self.target else {
            return Ok(());
        };
        match target {
            Target::Path(path) => socket.send_to(state.as_bytes(), path).map(|_| ()),
            #[cfg(any(target_os = "linux", target_os = "android"))]
            Target::Abstract(name) => {
                #[cfg(target_os = "android")]
                use std::os::android::net::SocketAddrExt;
                #[cfg(target_os = "linux")]
                use std::os::linux::net::SocketAddrExt;
                let addr = std::os::unix::net::SocketAddr::from_abstract_name(name)?;
                socket.send_to_addr(state.as_bytes(), &addr).map(|_| ())
            }
        }
    }

    /// Tells systemd the service is up (`Type=notify`), with a status line.
    ///
    /// # Errors
    /// As [`Notifier::notify`].
    pub fn ready(&self, status: &str) -> io::Result<()> {
        self.notify(&format!("READY=1\nSTATUS={}", one_line(status)))
    }

    /// A status line for `systemctl status`.
    ///
    /// # Errors
    /// As [`Notifier::notify`].
    pub fn status(&self, status: &str) -> io::Result<()> {
        self.notify(&format!("STATUS={}", one_line(status)))
    }

    /// Called from every turn of the loop: sends `WATCHDOG=1` when half the watchdog interval
    /// has passed since the last one (so systemd hears from a live loop at least twice per
    /// interval, and not at every turn). Returns whether it sent.
    ///
    /// # Errors
    /// As [`Notifier::notify`].
    pub fn keep_alive(&mut self, now: Millis) -> io::Result<bool> {
        let Some(interval) = self.watchdog else {
            return Ok(false);
        };
        let half = u64::try_from(interval.as_millis() / 2).unwrap_or(u64::MAX);
        if self.last_ping.is_some_and(|last| now.since(last) < half) {
            return Ok(false);
        }
        self.notify("WATCHDOG=1")?;
        self.last_ping = Some(now);
        Ok(true)
    }
}

fn one_line(s: &str) -> String {
    s.replace('\n', " ")
}

fn target_of(path: PathBuf) -> io::Result<Target> {
    let bytes = path.as_os_str().as_encoded_bytes();
    match bytes.split_first() {
        Some((b'@', name)) => {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            {
                Ok(Target::Abstract(name.to_vec()))
            }
            #[cfg(not(any(target_os = "linux", target_os = "android")))]
            {
                let _ = name;
                Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "abstract notify sockets exist only on Linux",
                ))
            }
        }
        Some(_) => Ok(Target::Path(path)),
        None => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "NOTIFY_SOCKET is empty",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn socket(name: &str) -> (PathBuf, UnixDatagram) {
        let dir = std::env::temp_dir().join(format!("umpire-notify-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("notify");
        let listener = UnixDatagram::bind(&path).unwrap();
        listener.set_nonblocking(true).unwrap();
        (path, listener)
    }

    fn received(listener: &UnixDatagram) -> Vec<String> {
        let mut out = Vec::new();
        let mut buf = [0u8; 512];
        while let Ok(n) = listener.recv(&mut buf) {
            out.push(String::from_utf8_lossy(&buf[..n]).into_owned());
        }
        out
    }

    #[test]
    fn ready_watchdog_and_status_reach_the_socket() {
        let (path, listener) = socket("all");
        let mut n = Notifier::new(Some(path.clone()), Some(Duration::from_secs(10))).unwrap();
        n.ready("refereeing\non a 12x10 board").unwrap();
        // A loop turning every 10 ms for 12 s pings at 0, 5 and 10 s.
        let mut pings = 0;
        for t in (0..12_000).step_by(10) {
            if n.keep_alive(Millis(t)).unwrap() {
                pings += 1;
            }
        }
        n.status("waiting for: OLED").unwrap();
        let got = received(&listener);
        assert_eq!(got[0], "READY=1\nSTATUS=refereeing on a 12x10 board");
        assert_eq!(pings, 3);
        assert_eq!(&got[1..4], ["WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"]);
        assert_eq!(got[4], "STATUS=waiting for: OLED");
        assert_eq!(got.len(), 5);
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[test]
    fn outside_systemd_nothing_is_sent_and_nothing_fails() {
        let mut n = Notifier::new(None, None).unwrap();
        n.ready("x").unwrap();
        n.status("y").unwrap();
        assert!(!n.keep_alive(Millis(0)).unwrap());
    }

    #[test]
    fn no_watchdog_no_pings() {
        let (path, listener) = socket("nowd");
        let mut n = Notifier::new(Some(path.clone()), None).unwrap();
        assert!(!n.keep_alive(Millis(100_000)).unwrap());
        assert!(received(&listener).is_empty());
        std::fs::remove_dir_all(path.parent().unwrap()).ok();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_abstract_socket_is_reached() {
        use std::os::linux::net::SocketAddrExt;
        let name = format!("umpire-notify-test-{}", std::process::id());
        let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
        let listener = UnixDatagram::bind_addr(&addr).unwrap();
        listener.set_nonblocking(true).unwrap();
        let n = Notifier::new(Some(PathBuf::from(format!("@{name}"))), None).unwrap();
        n.status("refereeing").unwrap();
        assert_eq!(received(&listener), ["STATUS=refereeing"]);
    }
}
