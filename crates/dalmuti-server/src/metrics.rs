//! What a node exposes at `/metrics` for Prometheus (`docs/DEPLOY.md`,
//! "Health, metrics and logs"): a few gauges, counters and histograms, each
//! with a fixed, small set of label values.
//!
//! Two rules keep it cheap and safe to expose:
//!
//! - **Bounded.** No label names a table, a seat or a client: a label's
//!   values are an enum's ([`StoreOp`], [`LeaseChange`]) or the node's id,
//!   so a scrape costs the same with ten tables or ten thousand, and
//!   Prometheus never sees a series per table.
//! - **Nothing hidden.** Counts and durations over the whole node only: no
//!   card, token or name, and no timing of one seat (how long a player
//!   took to decide would tell the others about their hand).
//!
//! Each server has its own [`Metrics`] (its own registry, no global one):
//! two servers in one process (tests) never add to each other's counters.

use std::sync::Arc;
use std::time::{Duration, Instant};

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::metrics::info::Info;
use prometheus_client::registry::{Registry, Unit};

/// The media type of what [`Metrics::render`] writes: the OpenMetrics text
/// format, which Prometheus reads (and asks for first).
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Buckets, in seconds, from 0.1 ms (an append to an idle SQLite file in
/// memory) to 5 s (a stalled database or a table stuck behind a long
/// replay): 1, 2.5, 5 per decade, fine enough for a p99 on a dashboard.
const BUCKETS: [f64; 15] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

fn histogram() -> Histogram {
    Histogram::new(BUCKETS)
}

/// A store operation, the `op` label of `dalmuti_store_seconds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreOp {
    /// A batch of events written by the [`Writer`](crate::store::Writer)
    /// in one transaction (what every action waits for).
    Append,
    /// A batch of chat and news lines written by the writer.
    Talk,
    /// A table's log read and replayed: a table loaded at start, a finished
    /// game's record rebuilt, a table rebuilt after a bug.
    Replay,
    /// A new table written.
    Create,
    /// A finished game kept as a record (and the oldest pruned).
    Finish,
    /// An expired table deleted with its log.
    Delete,
    /// The readiness check's cheap query (`/readyz`).
    Ping,
}

impl StoreOp {
    /// Every operation, so each has its series (at zero) from the start.
    pub const ALL: [StoreOp; 7] = [
        StoreOp::Append,
        StoreOp::Talk,
        StoreOp::Replay,
        StoreOp::Create,
        StoreOp::Finish,
        StoreOp::Delete,
        StoreOp::Ping,
    ];

    /// The label value.
    pub fn name(self) -> &'static str {
        match self {
            StoreOp::Append => "append",
            StoreOp::Talk => "talk",
            StoreOp::Replay => "replay",
            StoreOp::Create => "create",
            StoreOp::Finish => "finish",
            StoreOp::Delete => "delete",
            StoreOp::Ping => "ping",
        }
    }
}

/// A change of a table's lease (several nodes on one database), the
/// `change` label of `dalmuti_lease_changes_total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaseChange {
    /// This node took a table's lease (a new table, a table taken over).
    Acquired,
    /// This node found a lease gone (expired or taken by another node)
    /// when it renewed it: it stopped writing that table.
    Lost,
    /// This node gave a lease up (a drain, a table leaving memory).
    Released,
}

impl LeaseChange {
    /// Every change, so each has its series (at zero) from the start.
    pub const ALL: [LeaseChange; 3] = [
        LeaseChange::Acquired,
        LeaseChange::Lost,
        LeaseChange::Released,
    ];

    /// The label value.
    pub fn name(self) -> &'static str {
        match self {
            LeaseChange::Acquired => "acquired",
            LeaseChange::Lost => "lost",
            LeaseChange::Released => "released",
        }
    }
}

/// One label, its value from a fixed set.
type Label = [(&'static str, &'static str); 1];

/// A node's metrics: cheap to clone (one `Arc`), shared by the HTTP
/// state and every table's context.
#[derive(Clone)]
pub struct Metrics {
    inner: Arc<Inner>,
}

struct Inner {
    node: String,
    registry: Registry,
    tables: Gauge,
    seats: Gauge,
    connections: Gauge,
    actions: Counter,
    broadcast: Histogram,
    store: Family<Label, Histogram, fn() -> Histogram>,
    leases: Family<Label, Counter>,
    archive: Family<Label, Counter>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    /// A node named `local` (one node alone).
    fn default() -> Metrics {
        Metrics::new("local")
    }
}

impl Metrics {
    /// The metrics of node `node` (the `node` label of
    /// `dalmuti_node_info`), every series at zero.
    pub fn new(node: &str) -> Metrics {
        let mut registry = Registry::with_prefix("dalmuti");
        let tables = Gauge::default();
        let seats = Gauge::default();
        let connections = Gauge::default();
        let actions = Counter::default();
        let broadcast = histogram();
        let store: Family<Label, Histogram, fn() -> Histogram> =
            Family::new_with_constructor(histogram);
        let leases = Family::<Label, Counter>::default();
        let archive = Family::<Label, Counter>::default();
        registry.register(
            "node",
            "This node; its id in the label node",
            Info::new(vec![("node".to_string(), node.to_string())]),
        );
        registry.register(
            "tables",
            "Live tables on this node (their actors run here)",
            tables.clone(),
        );
        registry.register(
            "seats",
            "Seats held by people (not bots) at this node's live tables",
            seats.clone(),
        );
        registry.register(
            "connections",
            "Open WebSocket connections to this node",
            connections.clone(),
        );
        registry.register(
            "actions",
            "Game actions accepted (people's, bots' and those played for people); \
             actions per second is rate() of it",
            actions.clone(),
        );
        registry.register_with_unit(
            "action_broadcast",
            "From an action's arrival at its table to its broadcast, the store's \
             write included",
            Unit::Seconds,
            broadcast.clone(),
        );
        registry.register_with_unit(
            "store",
            "Store operations by op: append and talk are the writer's batches, \
             replay a table's log read and replayed",
            Unit::Seconds,
            store.clone(),
        );
        registry.register(
            "lease_changes",
            "Table leases this node acquired, lost or released",
            leases.clone(),
        );
        for op in StoreOp::ALL {
            let _ = store.get_or_create(&[("op", op.name())]);
        }
        for change in LeaseChange::ALL {
            let _ = leases.get_or_create(&[("change", change.name())]);
        }
        registry.register(
            "archive_answers",
            "Answers about finished games (record, replay, fairness) by source: \
             built from the log, or kept from an earlier build",
            archive.clone(),
        );
        for source in ["built", "kept"] {
            let _ = archive.get_or_create(&[("source", source)]);
        }
        Metrics {
            inner: Arc::new(Inner {
                node: node.to_string(),
                registry,
                tables,
                seats,
                connections,
                actions,
                broadcast,
                store,
                leases,
                archive,
            }),
        }
    }

    /// Every metric in the OpenMetrics text format ([`CONTENT_TYPE`]).
    pub fn render(&self) -> String {
        let mut text = String::with_capacity(8 * 1024);
        // Writing to a String cannot fail, and every metric encodes.
        let _ = encode(&mut text, &self.inner.registry);
        text
    }

    /// Counts a table that went live on this node until the returned
    /// guard is dropped (when its actor stops), with its people's seats.
    pub fn live_table(&self) -> LiveTable {
        self.inner.tables.inc();
        LiveTable {
            metrics: self.clone(),
            seats: 0,
        }
    }

    /// Sets the number of open WebSocket connections (read from the
    /// connection cap when scraped).
    pub fn set_connections(&self, open: usize) {
        self.inner
            .connections
            .set(i64::try_from(open).unwrap_or(i64::MAX));
    }

    /// Counts an accepted game action that took `took` from its arrival
    /// at the table to its broadcast.
    pub fn action(&self, took: Duration) {
        self.inner.actions.inc();
        self.inner.broadcast.observe(took.as_secs_f64());
    }

    /// Records how long a store operation took.
    pub fn store_op(&self, op: StoreOp, took: Duration) {
        self.inner
            .store
            .get_or_create(&[("op", op.name())])
            .observe(took.as_secs_f64());
    }

    /// Runs `f`, a store operation, and records how long it took.
    pub fn time<T>(&self, op: StoreOp, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let result = f();
        self.store_op(op, start.elapsed());
        result
    }

    /// The node these metrics are of (the `node` label).
    pub fn node(&self) -> &str {
        &self.inner.node
    }

    /// An answer about a finished game: `built` from its log if true,
    /// else kept from an earlier build.
    pub fn archive_answer(&self, built: bool) {
        let source = if built { "built" } else { "kept" };
        self.inner
            .archive
            .get_or_create(&[("source", source)])
            .inc();
    }

    /// Counts a change of one of this node's table leases.
    pub fn lease_changed(&self, change: LeaseChange) {
        self.inner
            .leases
            .get_or_create(&[("change", change.name())])
            .inc();
    }
}

/// A live table counted in `dalmuti_tables`, and its people's seats in
/// `dalmuti_seats`: both come off when it is dropped, however the table's
/// actor ends (retired, closed, given up after a bug).
pub struct LiveTable {
    metrics: Metrics,
    seats: i64,
}

impl LiveTable {
    /// Sets how many seats people hold at the table now.
    pub fn set_seats(&mut self, seats: usize) {
        let seats = i64::try_from(seats).unwrap_or(i64::MAX);
        let gauge = &self.metrics.inner.seats;
        gauge.inc_by(seats - self.seats);
        self.seats = seats;
    }
}

impl Drop for LiveTable {
    fn drop(&mut self) {
        self.metrics.inner.seats.dec_by(self.seats);
        self.metrics.inner.tables.dec();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The value of the sample `name` (with its labels, as written).
    pub(crate) fn sample(text: &str, name: &str) -> Option<f64> {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
    }

    #[test]
    fn every_series_is_there_from_the_start_and_counts() {
        let metrics = Metrics::new("node-1");
        let text = metrics.render();
        assert!(text.ends_with("# EOF\n"), "{text}");
        assert_eq!(
            sample(&text, "dalmuti_node_info{node=\"node-1\"}"),
            Some(1.0)
        );
        assert_eq!(sample(&text, "dalmuti_tables"), Some(0.0));
        assert_eq!(sample(&text, "dalmuti_actions_total"), Some(0.0));
        for op in StoreOp::ALL {
            let count = format!("dalmuti_store_seconds_count{{op=\"{}\"}}", op.name());
            assert_eq!(sample(&text, &count), Some(0.0), "{text}");
        }
        for change in LeaseChange::ALL {
            let name = format!(
                "dalmuti_lease_changes_total{{change=\"{}\"}}",
                change.name()
            );
            assert_eq!(sample(&text, &name), Some(0.0), "{text}");
        }

        metrics.lease_changed(LeaseChange::Acquired);
        metrics.lease_changed(LeaseChange::Acquired);
        metrics.lease_changed(LeaseChange::Lost);
        metrics.action(Duration::from_micros(300));
        metrics.store_op(StoreOp::Append, Duration::from_millis(2));
        let text = metrics.render();
        let lease = |c: &str| {
            sample(
                &text,
                &format!("dalmuti_lease_changes_total{{change=\"{c}\"}}"),
            )
        };
        assert_eq!(lease("acquired"), Some(2.0));
        assert_eq!(lease("lost"), Some(1.0));
        assert_eq!(lease("released"), Some(0.0));
        assert_eq!(sample(&text, "dalmuti_actions_total"), Some(1.0));
        // 0.3 ms falls in the 0.5 ms bucket, not the 0.25 ms one.
        assert_eq!(
            sample(
                &text,
                "dalmuti_action_broadcast_seconds_bucket{le=\"0.00025\"}"
            ),
            Some(0.0)
        );
        assert_eq!(
            sample(
                &text,
                "dalmuti_action_broadcast_seconds_bucket{le=\"0.0005\"}"
            ),
            Some(1.0)
        );
        assert_eq!(
            sample(&text, "dalmuti_store_seconds_count{op=\"append\"}"),
            Some(1.0)
        );
    }

    #[test]
    fn a_live_table_and_its_seats_come_off_when_it_ends() {
        let metrics = Metrics::default();
        let mut a = metrics.live_table();
        let mut b = metrics.live_table();
        a.set_seats(3);
        b.set_seats(2);
        a.set_seats(1);
        let text = metrics.render();
        assert_eq!(sample(&text, "dalmuti_tables"), Some(2.0));
        assert_eq!(sample(&text, "dalmuti_seats"), Some(3.0));
        drop(a);
        let text = metrics.render();
        assert_eq!(sample(&text, "dalmuti_tables"), Some(1.0));
        assert_eq!(sample(&text, "dalmuti_seats"), Some(2.0));
        drop(b);
        let text = metrics.render();
        assert_eq!(sample(&text, "dalmuti_tables"), Some(0.0));
        assert_eq!(sample(&text, "dalmuti_seats"), Some(0.0));
    }
}
