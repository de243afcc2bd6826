//! Where a client is, as the server counts and compares clients: by
//! address, an IPv6 client by its /64 network (which one machine usually
//! holds whole); and where a seat was taken from, kept without the address.

use std::net::{IpAddr, Ipv6Addr};

/// The key a client address is counted under: an IPv4 address itself
/// (also when mapped into IPv6), an IPv6 address its /64 network.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// Where a seat was taken from, as a rated game compares seats: a digest
/// of the client's address as the server counts addresses
/// ([`address_key`]: an IPv6 client by its /64), so that
/// two seats taken from one place are known as such without the log
/// keeping the address itself. 16 hex digits.
///
/// ```
/// use dalmuti_table::origin::origin;
/// let home = origin("192.0.2.7".parse().unwrap());
/// assert_eq!(home.len(), 16);
/// assert_eq!(home, origin("::ffff:192.0.2.7".parse().unwrap()));
/// assert_eq!(origin("2001:db8::1".parse().unwrap()), origin("2001:db8::2".parse().unwrap()));
/// assert_ne!(home, origin("192.0.2.8".parse().unwrap()));
/// ```
pub fn origin(ip: std::net::IpAddr) -> String {
    use sha2::Digest;
    let key = address_key(ip);
    let digest = sha2::Sha256::digest(format!("dalmuti seat origin {key}"));
    crate::ids::hex(&digest[..8])
}
