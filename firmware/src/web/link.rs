//! The address a phone opens for a seat's page (the OLED draws its QR code,
//! [`crate::screens::qr`]).
//!
//! A seat's address is short so that its QR code fits the 128x64 OLED at 2 pixels a module:
//! `HTTP://192.168.1.23:8080/S/` and the seat's [`Token`] in 26 base32 characters, all
//! upper case so the whole address is in the QR code's alphanumeric mode (scheme and host are
//! case-blind; the server takes the token in either case). That makes a version 3 code (29
//! modules, 58 pixels) for any IPv4 address and port.
//!
//! Where the Pi is: `[web] url` in `umpire.toml` when set ([`Origin::parse`], checked when the
//! file is read), else found from the Pi's own interfaces when a code is asked for
//! ([`detect`]): the source address of the default route (a UDP socket "connected" to it, no
//! packet sent), or of the one private network the Pi is on. A Pi on no private network, or
//! on several with none the default route's, gets no guessed link: [`LinkError`] says so and
//! how to fix it, on the OLED.

use std::fmt;
use std::net::{Ipv4Addr, UdpSocket};

use super::Token;
use crate::screens::qr::qr;

/// Where the phones reach the umpire: scheme, host and port, upper case (`HTTP://10.0.0.7:8080`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Origin(String);

impl fmt::Debug for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Origin({})", self.0)
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why `[web] url` cannot be used; each says what to write instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlError {
    /// Not `http://` (the umpire serves plain HTTP on the table's network).
    NotHttp,
    /// Nothing after `http://`.
    NoHost,
    /// The host holds a character no host name or IPv4 address has.
    BadHost(String),
    /// The port is not a number from 1 to 65535.
    BadPort(String),
    /// A path, query or fragment after the host (the umpire adds the seat's path itself).
    HasPath(String),
    /// Too long for the QR code the OLED can draw.
    TooLong {
        /// Its length.
        len: usize,
        /// The longest that fits.
        max: usize,
    },
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::NotHttp => f.write_str(
                "the umpire serves plain HTTP: begin it with http:// (e.g. \"http://umpire.local:8080\")",
            ),
            UrlError::NoHost => {
                f.write_str("no host after http://: write the Pi's name or address and port")
            }
            UrlError::BadHost(h) => write!(
                f,
                "host {h:?} is not a host name or IPv4 address: use letters, digits, '-' and '.' \
                 (e.g. umpire.local or 192.168.1.20)"
            ),
            UrlError::BadPort(p) => write!(f, "port {p:?}: write a number from 1 to 65535"),
            UrlError::HasPath(p) => write!(
                f,
                "remove {p:?}: give only http://host:port, the umpire adds each seat's path"
            ),
            UrlError::TooLong { len, max } => write!(
                f,
                "{len} characters is too long for the code the OLED shows: at most {max} \
                 (use the Pi's IPv4 address or a shorter name)"
            ),
        }
    }
}

impl std::error::Error for UrlError {}

impl Origin {
    /// The origin a phone reaches at `ip`, port `port`.
    pub fn lan(ip: Ipv4Addr, port: u16) -> Origin {
        Origin(format!("HTTP://{ip}:{port}"))
    }

    /// The port the phones reach: the address's own, or HTTP's 80.
    pub fn port(&self) -> u16 {
        self.0
            .rsplit_once(':')
            .and_then(|(_, p)| p.parse().ok())
            .unwrap_or(80)
    }

    /// Reads `[web] url`: `http://host[:port]`, no path; short enough for the OLED's code.
    ///
    /// # Errors
    /// What is wrong with it, and what to write instead.
    pub fn parse(text: &str) -> Result<Origin, UrlError> {
        let text = text.trim();
        let rest = text
            .get(..7)
            .filter(|s| s.eq_ignore_ascii_case("http://"))
            .map(|_| &text[7..])
            .ok_or(UrlError::NotHttp)?;
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        if let Some(at) = rest.find(['/', '?', '#']) {
            return Err(UrlError::HasPath(rest[at..].to_string()));
        }
        let (host, port) = match rest.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (rest, None),
        };
        if host.is_empty() {
            return Err(UrlError::NoHost);
        }
        let host_ok = host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
            && !host.starts_with(['-', '.'])
            && !host.ends_with('-');
        if !host_ok {
            return Err(UrlError::BadHost(host.to_string()));
        }
        let origin = match port {
            Some(p) => match p.parse::<u16>() {
                Ok(n) if n > 0 => format!("HTTP://{}:{n}", host.to_ascii_uppercase()),
                _ => return Err(UrlError::BadPort(p.to_string())),
            },
            None => format!("HTTP://{}", host.to_ascii_uppercase()),
        };
        let origin = Origin(origin);
        // The longest seat address must still fit the code the OLED draws.
        if qr(&origin.seat_url(&Token([0xff; 16]))).is_none() {
            let max = (1..=origin.0.len())
                .rev()
                .find(|&n| {
                    qr(&format!("{}{}", &origin.0[..n], seat_path(&Token([0; 16])))).is_some()
                })
                .unwrap_or(0);
            return Err(UrlError::TooLong {
                len: text.len(),
                max,
            });
        }
        Ok(origin)
    }

    /// The address of the page `token` opens: this origin, `/S/` and the token in base32.
    pub fn seat_url(&self, token: &Token) -> String {
        format!("{}{}", self.0, seat_path(token))
    }
}

fn seat_path(token: &Token) -> String {
    format!("/S/{}", token.base32())
}

/// No address a phone could open was found; each says how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// The Pi has no IPv4 address on a private network (not on the table's Wi-Fi yet).
    NoNetwork,
    /// Only public addresses: the phones may not reach them.
    OnlyPublic(Vec<Ipv4Addr>),
    /// Several private networks and no default route among them: which one the phones are
    /// on cannot be told.
    Several(Vec<Ipv4Addr>),
}

impl LinkError {
    /// What is wrong, in a few words for the OLED.
    pub fn problem(&self) -> String {
        match self {
            LinkError::NoNetwork => "The Pi is on no local network".into(),
            LinkError::OnlyPublic(ips) => format!("Only a public address ({})", list(ips)),
            LinkError::Several(ips) => format!("On several networks ({})", list(ips)),
        }
    }

    /// How to fix it, for the OLED.
    pub fn fix(&self) -> &'static str {
        match self {
            LinkError::NoNetwork => "join the table's Wi-Fi, or set [web] url in umpire.toml",
            LinkError::OnlyPublic(_) | LinkError::Several(_) => {
                "set [web] url in umpire.toml to the address the phones reach"
            }
        }
    }
}

fn list(ips: &[Ipv4Addr]) -> String {
    ips.iter()
        .map(Ipv4Addr::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.problem(), self.fix())
    }
}

impl std::error::Error for LinkError {}

/// How the umpire learns the origin of its pages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Address {
    /// `[web] url`, as written.
    Fixed(Origin),
    /// Found from the Pi's interfaces each time a code is shown (the Wi-Fi may join after the
    /// umpire starts), with the port the server listens on.
    Detect {
        /// The server's port.
        port: u16,
    },
}

impl Address {
    /// The origin now: the configured one, or the one [`detect`] finds.
    ///
    /// # Errors
    /// No address could be found ([`LinkError`] says how to fix it).
    pub fn resolve(&self) -> Result<Origin, LinkError> {
        match self {
            Address::Fixed(origin) => Ok(origin.clone()),
            Address::Detect { port } => detect(*port),
        }
    }
}

/// Whether `ip` is in a private range (RFC 1918) a table's Wi-Fi uses.
pub fn is_private(ip: Ipv4Addr) -> bool {
    ip.is_private()
}

/// The origin of the Pi's pages on port `port`, found from its interfaces: the source
/// address of the default route, or of each network in `/proc/net/route` (a UDP socket
/// connected to an address there: the kernel picks the source, no packet is sent), chosen by
/// [`choose`]. A few system calls, no network traffic.
///
/// # Errors
/// No private address, or several and none of them the default route's.
pub fn detect(port: u16) -> Result<Origin, LinkError> {
    let routes = std::fs::read_to_string("/proc/net/route").unwrap_or_default();
    // TEST-NET-1 stands for "anywhere": the default route's source address.
    let mut found = vec![(source_for(Ipv4Addr::new(192, 0, 2, 1)), true)];
    for network in networks(&routes) {
        found.push((source_for(network), false));
    }
    let found: Vec<(Ipv4Addr, bool)> = found
        .into_iter()
        .filter_map(|(ip, default)| ip.map(|ip| (ip, default)))
        .collect();
    choose(&found).map(|ip| Origin::lan(ip, port))
}

/// The source address the kernel would use to reach `to`, if it has a route.
fn source_for(to: Ipv4Addr) -> Option<Ipv4Addr> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect((to, 9)).ok()?;
    match socket.local_addr().ok()?.ip() {
        std::net::IpAddr::V4(ip) if !ip.is_unspecified() => Some(ip),
        _ => None,
    }
}

/// An address inside each network `/proc/net/route` lists (its first host), the default
/// route and host routes left out.
pub fn networks(route_table: &str) -> Vec<Ipv4Addr> {
    let mut out = Vec::new();
    for line in route_table.lines().skip(1) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (Some(dest), Some(mask)) = (fields.get(1), fields.get(7)) else {
            continue;
        };
        let (Ok(dest), Ok(mask)) = (u32::from_str_radix(dest, 16), u32::from_str_radix(mask, 16))
        else {
            continue;
        };
        // The kernel writes the address's bytes as one number in the host's byte order.
        let (dest, mask) = (
            Ipv4Addr::from(dest.to_ne_bytes()),
            Ipv4Addr::from(mask.to_ne_bytes()),
        );
        let bits = u32::from(mask);
        if bits == 0 || bits == u32::MAX {
            continue;
        }
        // A network's first host; none past the last address (a route to 255.255.255.255).
        let Some(first) = u32::from(dest).checked_add(1).map(Ipv4Addr::from) else {
            continue;
        };
        if !out.contains(&first) {
            out.push(first);
        }
    }
    out
}

/// The address to give the phones among `found` (each with whether it is the default route's
/// source): the default route's if private, else the only private one.
///
/// # Errors
/// None private, or several and none the default route's.
pub fn choose(found: &[(Ipv4Addr, bool)]) -> Result<Ipv4Addr, LinkError> {
    if let Some((ip, _)) = found.iter().find(|(ip, d)| *d && is_private(*ip)) {
        return Ok(*ip);
    }
    let mut private: Vec<Ipv4Addr> = Vec::new();
    let mut public: Vec<Ipv4Addr> = Vec::new();
    for &(ip, _) in found {
        let into = if is_private(ip) {
            &mut private
        } else if ip.is_loopback() || ip.is_link_local() || ip.is_unspecified() {
            continue;
        } else {
            &mut public
        };
        if !into.contains(&ip) {
            into.push(ip);
        }
    }
    match (private.as_slice(), public.is_empty()) {
        ([one], _) => Ok(*one),
        ([], true) => Err(LinkError::NoNetwork),
        ([], false) => Err(LinkError::OnlyPublic(public)),
        _ => Err(LinkError::Several(private)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token() -> Token {
        Token([
            0x00, 0x44, 0x32, 0x14, 0xc7, 0x42, 0x54, 0xb6, 0x35, 0xcf, 0x84, 0x65, 0x3a, 0x56,
            0xd7, 0xc6,
        ])
    }

    /// Base32 by RFC 4648: 26 characters carry all 128 bits; "AB" style check on known bytes.
    #[test]
    fn a_token_in_base32_is_26_characters_and_matches_either_case() {
        let t = Token([0xff; 16]);
        assert_eq!(t.base32(), "77777777777777777777777774");
        let t = token();
        let b = t.base32();
        assert_eq!(b.len(), 26);
        assert_eq!(&b[..8], "ABCDEFGH");
        assert!(t.matches(&b));
        assert!(t.matches(&b.to_ascii_lowercase()));
        assert!(t.matches(&t.hex()));
        assert!(
            !t.matches(&t.hex().to_ascii_uppercase()),
            "hex is lower case only"
        );
        assert!(!t.matches(&b[..25]));
        assert!(!Token([1; 16]).matches(&b));
    }

    #[test]
    fn a_seat_address_is_short_upper_case_and_fits_a_version_3_code() {
        let origin = Origin::lan(Ipv4Addr::new(255, 255, 255, 255), 65535);
        let url = origin.seat_url(&token());
        assert_eq!(
            url,
            format!("HTTP://255.255.255.255:65535/S/{}", token().base32())
        );
        let code = qr(&url).expect("the longest IPv4 address fits");
        assert!(code.size() <= 29, "{}", code.size());
    }

    #[test]
    fn the_configured_url_is_checked_with_what_to_write() {
        assert_eq!(
            Origin::parse("http://umpire.local:8080")
                .unwrap()
                .to_string(),
            "HTTP://UMPIRE.LOCAL:8080"
        );
        assert_eq!(
            Origin::parse("HTTP://192.168.1.20/").unwrap().to_string(),
            "HTTP://192.168.1.20"
        );
        assert_eq!(Origin::parse("https://pi:8080"), Err(UrlError::NotHttp));
        assert_eq!(Origin::parse("umpire.local"), Err(UrlError::NotHttp));
        assert_eq!(Origin::parse("http://"), Err(UrlError::NoHost));
        assert_eq!(Origin::parse("http://:80"), Err(UrlError::NoHost));
        assert_eq!(
            Origin::parse("http://pi_1:80"),
            Err(UrlError::BadHost("pi_1".into()))
        );
        assert_eq!(
            Origin::parse("http://pi:0"),
            Err(UrlError::BadPort("0".into()))
        );
        assert_eq!(
            Origin::parse("http://pi:http"),
            Err(UrlError::BadPort("http".into()))
        );
        assert_eq!(
            Origin::parse("http://pi:80/umpire"),
            Err(UrlError::HasPath("/umpire".into()))
        );
        let long = format!("http://{}.local:8080", "a".repeat(60));
        match Origin::parse(&long) {
            Err(UrlError::TooLong { len, max }) => {
                assert_eq!(len, long.len());
                assert!((30..60).contains(&max), "{max}");
                let fits = format!("http://{}", "a".repeat(max - 7));
                assert!(Origin::parse(&fits).is_ok(), "{fits}");
                let not = format!("http://{}", "a".repeat(max - 6));
                assert!(Origin::parse(&not).is_err(), "{not}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_route_table_gives_an_address_in_each_network() {
        let table =
            "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n\
            wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n\
            wlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0\n\
            eth0\t0000000A\t00000000\t0001\t0\t0\t100\t000000FF\t0\t0\t0\n\
            eth0\t0101A8C0\t00000000\t0005\t0\t0\t100\tFFFFFFFF\t0\t0\t0\n\
            garbage line\n";
        assert_eq!(
            networks(table),
            [Ipv4Addr::new(192, 168, 1, 1), Ipv4Addr::new(10, 0, 0, 1)]
        );
        assert!(networks("").is_empty());
    }

    /// A route to the last address (255.255.255.255 with a network's mask) has no first host
    /// after it: skipped, where `dest + 1` overflowed (a panic in a checked build).
    #[test]
    fn a_route_to_the_last_address_is_skipped() {
        let table = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\n\
            eth0\tFFFFFFFF\t00000000\t0001\t0\t0\t0\t00FFFFFF\n\
            eth0\t0000000A\t00000000\t0001\t0\t0\t100\t000000FF\n";
        assert_eq!(networks(table), [Ipv4Addr::new(10, 0, 0, 1)]);
    }

    #[test]
    fn an_origins_port_is_its_own_or_80() {
        assert_eq!(
            Origin::parse("http://umpire.local:9090").unwrap().port(),
            9090
        );
        assert_eq!(Origin::parse("http://umpire.local").unwrap().port(), 80);
        assert_eq!(Origin::lan(Ipv4Addr::new(10, 0, 0, 2), 8080).port(), 8080);
    }

    #[test]
    fn the_default_routes_private_address_wins_and_no_guess_is_made() {
        let wifi = Ipv4Addr::new(192, 168, 4, 7);
        let wire = Ipv4Addr::new(10, 1, 2, 3);
        let public = Ipv4Addr::new(203, 0, 113, 9);
        assert_eq!(choose(&[(wire, false), (wifi, true)]), Ok(wifi));
        assert_eq!(choose(&[(public, true), (wifi, false)]), Ok(wifi));
        assert_eq!(choose(&[(wifi, false), (wifi, false)]), Ok(wifi));
        assert_eq!(choose(&[]), Err(LinkError::NoNetwork));
        assert_eq!(
            choose(&[
                (Ipv4Addr::LOCALHOST, false),
                (Ipv4Addr::new(169, 254, 1, 1), false)
            ]),
            Err(LinkError::NoNetwork)
        );
        assert_eq!(
            choose(&[(public, true)]),
            Err(LinkError::OnlyPublic(vec![public]))
        );
        assert_eq!(
            choose(&[(public, true), (wifi, false), (wire, false)]),
            Err(LinkError::Several(vec![wifi, wire]))
        );
        let e = LinkError::Several(vec![wifi, wire]);
        assert!(e.to_string().contains("[web] url"), "{e}");
    }

    /// On this machine, whatever its network: either an address a phone could open, or the
    /// reason why not; never loopback.
    #[test]
    fn detection_gives_a_private_address_or_says_why_not() {
        match detect(8080) {
            Ok(origin) => {
                let s = origin.to_string();
                assert!(s.starts_with("HTTP://") && s.ends_with(":8080"), "{s}");
                assert!(!s.contains("127.0.0.1"), "{s}");
            }
            Err(e) => assert!(!e.fix().is_empty()),
        }
    }
}
