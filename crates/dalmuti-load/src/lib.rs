//! Load generation for `dalmuti serve` (`dalmuti loadtest`): many tables
//! of scripted clients over real WebSockets.
//!
//! By default it starts `dalmuti serve` as a child process (the running
//! executable, or [`LoadtestArgs::server_program`]), because one process
//! cannot hold both ends of 10,000 connections within the usual open-file
//! limit; `--addr` loads a server that is already running instead, and
//! several `--addr` load several nodes sharing one database (tables are
//! made on each in turn, and each table's seats connect to the node that
//! made it, the one serving it). It creates `--seats / (players - bots)`
//! private tables over the lobby API, connects every human seat over its own
//! WebSocket (`docs/PROTOCOL.md`), starts the games and lets each client
//! play whenever it is to act, after a think time, one of the legal actions
//! STATE lists (a pass or a declined exchange when it may, else the last
//! listed): it knows no rule of any game.
//!
//! It measures the time from sending an `act` to receiving, at the same
//! client, the `event` for that action (the next event number), and the
//! time from the send to the same event's arrival at every seat of the
//! table (the broadcast), and reports the connected seats held, actions and
//! latency percentiles as text or `--json`.

mod args;
mod choose;
mod http;
mod report;
mod run;
mod server;

pub use args::LoadtestArgs;
pub use report::Report;

use args::check_args;
use server::Server;

/// Why a load test did not run.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The options do not make a load test.
    #[error("{0}")]
    BadArgs(String),
    /// It could not run: too few open files, no runtime, the server did
    /// not start, no table could be made.
    #[error("{0}")]
    Failed(String),
}

/// Runs the load test and returns its report (progress goes to standard
/// error as it runs). A report may still hold errors: see
/// [`Report::clean`].
pub fn run_loadtest(args: &LoadtestArgs) -> Result<Report, LoadError> {
    check_args(args).map_err(LoadError::BadArgs)?;
    let fd_limit = raise_fd_limit().map_err(LoadError::Failed)?;
    // Each seat is one socket; the rest is room for HTTP, the runtime and
    // the standard streams.
    let needed = args.seats as u64 + 64;
    if fd_limit < needed {
        return Err(LoadError::Failed(format!(
            "{} seats need about {needed} open files, but the limit is \
             {fd_limit} (raise the hard limit: ulimit -Hn, /etc/security/limits.conf)",
            args.seats
        )));
    }
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| LoadError::Failed(format!("cannot start the runtime: {e}")))?;
    let mut server = None;
    let addrs = match args.addr.as_slice() {
        [_, ..] => args.addr.clone(),
        [] => {
            let s = Server::start(args, fd_limit)
                .map_err(|e| LoadError::Failed(format!("the server did not start: {e}")))?;
            let addr = s.addr;
            server = Some(s);
            vec![addr]
        }
    };
    let outcome = runtime.block_on(run::run(args, &addrs, server.as_ref().map(|s| s.pid())));
    let server_report = server.map(Server::stop);
    let mut report = outcome.map_err(LoadError::Failed)?;
    report.server = server_report;
    Ok(report)
}

/// Raises the soft limit of open files to the hard limit (a child server
/// inherits it) and returns the limit now in force.
fn raise_fd_limit() -> Result<u64, String> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE)
        .map_err(|e| format!("cannot read the open-file limit: {e}"))?;
    if soft < hard {
        setrlimit(Resource::RLIMIT_NOFILE, hard, hard)
            .map_err(|e| format!("cannot raise the open-file limit from {soft} to {hard}: {e}"))?;
    }
    Ok(hard.max(soft))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::choose::choose;
    use crate::report::percentiles;
    use crate::server::parse_open_line;

    #[test]
    fn chooses_among_the_legal_actions_it_is_sent() {
        let follow = [
            json!({"play": "8 8 8"}),
            json!({"play": "8 8 J"}),
            json!("pass"),
        ];
        assert_eq!(choose(&follow), Some(json!("pass")));
        let offer = [
            json!("decline_exchange"),
            json!({"offer_exchange": {"partner": 3, "card": "2"}}),
        ];
        assert_eq!(choose(&offer), Some(json!("decline_exchange")));
        // Daifugō's plays too: whatever the engine lists, it may take.
        let lead = [json!({"play": "9s 9h"}), json!({"play": "3c"})];
        assert_eq!(choose(&lead), Some(json!({"play": "3c"})));
        assert_eq!(choose(&[]), None);
    }

    #[test]
    fn reads_the_servers_address_line() {
        assert_eq!(
            parse_open_line("dalmuti serve: open http://127.0.0.1:4321/ (data in /tmp/x)"),
            Some("127.0.0.1:4321".parse().unwrap())
        );
        assert_eq!(parse_open_line("dalmuti serve: something else"), None);
    }

    #[test]
    fn percentiles_pick_the_nearest_rank() {
        let sorted: Vec<u32> = (1..=100).map(|ms| ms * 1000).collect();
        let p = percentiles(&sorted);
        assert_eq!(p["p50_ms"], json!(50.0));
        assert_eq!(p["p99_ms"], json!(99.0));
        assert_eq!(p["max_ms"], json!(100.0));
        assert_eq!(percentiles(&[])["p50_ms"], Value::Null);
    }
}
