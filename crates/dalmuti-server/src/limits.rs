//! Limits per client address, so one stranger cannot take what everyone
//! shares: connections held at once ([`PerAddress`]) and new tables
//! ([`CreationLimit`]).
//!
//! A client is known by its address as the socket sees it: behind a
//! reverse proxy every client shares the proxy's, so raise the limits
//! there (`dalmuti serve --max-per-address`, `--tables-per-address`).
//! IPv6 clients are counted by their /64 network, which one machine
//! usually holds whole.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ServerError;

pub use dalmuti_table::origin::address_key;

// The limits of the players' home, one place for all of them.

/// New identities an address may make at once, then one every
/// [`REGISTRATION_INTERVAL`]: a name is kept for good, so a stranger
/// must not reserve a dictionary of them.
pub const REGISTRATION_BURST: u32 = 3;
/// See [`REGISTRATION_BURST`].
pub const REGISTRATION_INTERVAL: Duration = Duration::from_secs(600);

/// The limit on new identities per address: `burst` at once (by default
/// [`REGISTRATION_BURST`]).
pub fn registrations(burst: u32) -> CreationLimit {
    CreationLimit::new(burst, REGISTRATION_INTERVAL, "new players")
}

/// Times a player may take their seat back at one table at once, then
/// one every [`RECLAIM_INTERVAL`]: each taking is an event in the table's
/// log, and a loop of them must not flood it (issue 40).
pub const RECLAIM_BURST: u32 = 5;
/// See [`RECLAIM_BURST`].
pub const RECLAIM_INTERVAL: Duration = Duration::from_secs(10);

/// The limit on seats taken back, per table and player.
pub fn reclaims() -> CreationLimit<(crate::ids::TableId, String)> {
    CreationLimit::keyed(
        RECLAIM_BURST,
        RECLAIM_INTERVAL,
        "seats taken back",
        "at this table",
    )
}

/// Play-now tables a player may ask for at once ([`crate::queue`])…
pub const PLAYER_BURST: u32 = 3;
/// …and then one per this interval (a game of five hands takes longer).
pub const PLAYER_INTERVAL: Duration = Duration::from_secs(120);

/// The limit on play-now tables per player, by their name's key.
pub fn play_now() -> CreationLimit<String> {
    CreationLimit::keyed(
        PLAYER_BURST,
        PLAYER_INTERVAL,
        "play-now tables",
        "under your name",
    )
}

/// Counts what each address holds at once, up to a cap.
#[derive(Debug)]
pub struct PerAddress {
    max: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One thing an address holds; given back when dropped.
#[derive(Debug)]
pub struct Slot {
    owner: Arc<PerAddress>,
    key: IpAddr,
}

impl PerAddress {
    /// At most `max` at once per address.
    pub fn new(max: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            max,
            held: Mutex::new(HashMap::new()),
        })
    }

    /// The cap.
    pub fn max(&self) -> usize {
        self.max
    }

    /// A slot for `ip`, or `None` if it holds the most it may already.
    pub fn try_take(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let key = address_key(ip);
        let mut held = self.lock();
        let n = held.entry(key).or_default();
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(Slot {
            owner: self.clone(),
            key,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self.owner.lock();
        if let Some(n) = held.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.key);
            }
        }
    }
}

/// How many things of a kind a client may make: a burst, then one per
/// interval (a token bucket per key, GCRA). Keyed by address (new tables,
/// names) or by anything else a refusal can name (a player's play-now
/// tables, a seat's takings back).
pub struct CreationLimit<K: std::hash::Hash + Eq + Clone = IpAddr> {
    limiter: DefaultKeyedRateLimiter<K>,
    /// What is made, in a refusal's words ("new tables").
    what: &'static str,
    /// Whose, in a refusal's words ("from your address").
    whose: &'static str,
}

/// Addresses remembered before the limiter forgets those back to a full
/// burst.
const REMEMBERED: usize = 10_000;

impl CreationLimit<IpAddr> {
    /// `burst` things at once per address, then one every `interval`;
    /// `what` names them in a refusal ("new tables").
    pub fn new(burst: u32, interval: Duration, what: &'static str) -> CreationLimit {
        CreationLimit::keyed(burst, interval, what, "from your address")
    }

    /// Counts one new thing for `ip` (its [`address_key`]), or refuses it
    /// with when to retry.
    pub fn check(&self, ip: IpAddr) -> Result<(), ServerError> {
        self.check_key(&address_key(ip))
    }
}

impl<K: std::hash::Hash + Eq + Clone> CreationLimit<K> {
    /// `burst` things at once per key, then one every `interval`; `what`
    /// and `whose` name them in a refusal ("too many new tables from your
    /// address").
    pub fn keyed(
        burst: u32,
        interval: Duration,
        what: &'static str,
        whose: &'static str,
    ) -> CreationLimit<K> {
        let burst = NonZeroU32::new(burst.max(1)).expect("at least 1");
        let quota = Quota::with_period(interval.max(Duration::from_millis(1)))
            .expect("a positive period")
            .allow_burst(burst);
        CreationLimit {
            limiter: RateLimiter::keyed(quota),
            what,
            whose,
        }
    }

    /// Counts one new thing for `key`, or refuses it with when to retry.
    pub fn check_key(&self, key: &K) -> Result<(), ServerError> {
        if self.limiter.len() > REMEMBERED {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(key).map_err(|not_until| {
            let seconds = retry_seconds(not_until.wait_time_from(DefaultClock::default().now()));
            ServerError::RateLimited {
                reason: format!(
                    "too many {} {}: try again in {seconds} s",
                    self.what, self.whose
                ),
                retry_after: seconds,
            }
        })
    }
}

/// The whole seconds a refused client is told to wait for `wait`: rounded
/// up, and at least one. The wait is measured after the refusal, so on a
/// loaded machine the moment may already have passed (a `Retry-After: 0`
/// was sent, issue 40): zero would tell a client to ask again at once.
fn retry_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_asks_for_at_least_a_second_rounded_up() {
        assert_eq!(retry_seconds(Duration::ZERO), 1);
        assert_eq!(retry_seconds(Duration::from_millis(1)), 1);
        assert_eq!(retry_seconds(Duration::from_secs(1)), 1);
        assert_eq!(retry_seconds(Duration::from_millis(1200)), 2);
        assert_eq!(retry_seconds(Duration::from_secs(60)), 60);
    }

    #[test]
    fn an_address_holds_at_most_its_share_and_gets_it_back() {
        let limit = PerAddress::new(2);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = limit.try_take(a).unwrap();
        let _second = limit.try_take(a).unwrap();
        assert!(limit.try_take(a).is_none());
        assert!(
            limit.try_take(b).is_some(),
            "another address is not held up"
        );
        drop(first);
        assert!(
            limit.try_take(a).is_some(),
            "a slot given back is free again"
        );
    }

    #[test]
    fn ipv6_is_counted_by_its_64_network() {
        let limit = PerAddress::new(1);
        let _one = limit.try_take("2001:db8:1:2::1".parse().unwrap()).unwrap();
        assert!(
            limit
                .try_take("2001:db8:1:2::ffff".parse().unwrap())
                .is_none()
        );
        assert!(limit.try_take("2001:db8:1:3::1".parse().unwrap()).is_some());
        assert_eq!(
            address_key("::ffff:192.0.2.1".parse().unwrap()),
            "192.0.2.1".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn table_creation_is_refused_past_the_burst_with_when_to_retry() {
        let limit = CreationLimit::new(2, Duration::from_secs(60), "new tables");
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        limit.check(a).unwrap();
        limit.check(a).unwrap();
        match limit.check(a) {
            Err(ServerError::RateLimited {
                reason,
                retry_after,
            }) => {
                assert!((1..=60).contains(&retry_after), "{retry_after}");
                assert!(
                    reason.contains("too many new tables from your address: try again in"),
                    "{reason}"
                );
            }
            other => panic!("a third table at once: {other:?}"),
        }
        limit.check("192.0.2.2".parse().unwrap()).unwrap();
    }
}
