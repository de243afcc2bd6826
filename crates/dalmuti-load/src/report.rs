//! The report of a run: counts and latency percentiles, as text or JSON.

use serde_json::{Value, json};

use crate::server::ServerReport;

/// What one client measured.
#[derive(Default)]
pub(crate) struct ClientStats {
    /// Microseconds from its `act` to its own event.
    pub(crate) action_us: Vec<u32>,
    /// Microseconds from any seat's `act` to the event's arrival here.
    pub(crate) broadcast_us: Vec<u32>,
}

/// The report of a run.
pub struct Report {
    pub(crate) seats: usize,
    pub(crate) tables: usize,
    pub(crate) players_per_table: usize,
    pub(crate) bots_per_table: usize,
    pub(crate) think_ms: u64,
    pub(crate) duration_s: f64,
    pub(crate) setup_s: f64,
    pub(crate) connect_s: f64,
    pub(crate) connected_max: usize,
    pub(crate) connected_end: usize,
    pub(crate) actions: u64,
    pub(crate) stale: u64,
    pub(crate) errors: u64,
    pub(crate) first_errors: Vec<String>,
    pub(crate) action_us: Vec<u32>,
    pub(crate) broadcast_us: Vec<u32>,
    /// CPU seconds the load test itself used (its clients compete with the
    /// server for the same cores when both run on one machine).
    pub(crate) own_cpu_s: Option<f64>,
    pub(crate) server: Option<ServerReport>,
}

/// Percentiles (ms) of sorted microseconds.
pub(crate) fn percentiles(sorted: &[u32]) -> Value {
    let at = |p: f64| -> Value {
        if sorted.is_empty() {
            return Value::Null;
        }
        let i = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
        json!((f64::from(sorted[i]) / 10.0).round() / 100.0)
    };
    json!({
        "samples": sorted.len(),
        "p50_ms": at(0.50),
        "p90_ms": at(0.90),
        "p99_ms": at(0.99),
        "max_ms": at(1.0),
    })
}

impl Report {
    /// Whether the run had no error and the server it started (if any)
    /// exited cleanly.
    pub fn clean(&self) -> bool {
        self.errors == 0 && self.server.as_ref().is_none_or(|s| s.clean_exit)
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> Value {
        json!({
            "seats": self.seats,
            "tables": self.tables,
            "players_per_table": self.players_per_table,
            "bots_per_table": self.bots_per_table,
            "think_ms": self.think_ms,
            "duration_s": self.duration_s,
            "setup_s": self.setup_s,
            "connect_s": self.connect_s,
            "connected_max": self.connected_max,
            "connected_end": self.connected_end,
            "actions": self.actions,
            "actions_per_s": self.actions as f64 / self.duration_s.max(1e-9),
            "stale": self.stale,
            "errors": self.errors,
            "first_errors": self.first_errors,
            "action_latency": percentiles(&self.action_us),
            "broadcast_latency": percentiles(&self.broadcast_us),
            "loadtest_cpu_s": self.own_cpu_s,
            "server": self.server.as_ref().map(|s| json!({
                "cpu_s": s.cpu_seconds,
                "max_rss_mib": s.max_rss_mib,
                "clean_exit": s.clean_exit,
                "exit": s.exit,
            })),
        })
    }

    /// The report as a table for people.
    pub fn to_text(&self) -> String {
        let j = self.to_json();
        let line = |name: &str, l: &Value| {
            format!(
                "{name}: p50 {} ms, p90 {} ms, p99 {} ms, max {} ms ({} samples)\n",
                l["p50_ms"], l["p90_ms"], l["p99_ms"], l["max_ms"], l["samples"]
            )
        };
        let mut out = format!(
            "seats: {} at {} tables of {} ({} bots each), think time {} ms\n\
             setup {:.1} s, connecting {:.1} s, played {:.1} s\n\
             connected seats: {} at most, {} at the end\n\
             actions: {} ({:.0} a second), refused as stale: {}, errors: {}\n",
            self.seats,
            self.tables,
            self.players_per_table,
            self.bots_per_table,
            self.think_ms,
            self.setup_s,
            self.connect_s,
            self.duration_s,
            self.connected_max,
            self.connected_end,
            self.actions,
            self.actions as f64 / self.duration_s.max(1e-9),
            self.stale,
            self.errors,
        );
        out += &line("action -> own event", &j["action_latency"]);
        out += &line("action -> event at every seat", &j["broadcast_latency"]);
        if let Some(cpu) = self.own_cpu_s {
            out += &format!("load test: {cpu:.1} CPU s\n");
        }
        for e in &self.first_errors {
            out += &format!("error: {e}\n");
        }
        if let Some(s) = &self.server {
            out += &format!(
                "server: {} CPU s, {} MiB peak memory, stopped by SIGTERM: {}\n",
                s.cpu_seconds.map_or("?".to_string(), |c| format!("{c:.1}")),
                s.max_rss_mib.map_or("?".to_string(), |m| format!("{m:.0}")),
                s.exit
            );
        }
        out
    }
}
