//! What a load test is asked to do, checked.

use std::net::SocketAddr;
use std::path::PathBuf;

/// `dalmuti loadtest`'s options. [`Default`] gives the command line's
/// defaults.
#[derive(Clone, Debug)]
pub struct LoadtestArgs {
    /// The address of a running `dalmuti serve` to load; given more than
    /// once, the nodes sharing one PostgreSQL database, tables made on each
    /// in turn. Without it, the load test starts its own server (this
    /// executable, `serve` on 127.0.0.1, a temporary database, no bot,
    /// hand or setup pauses) and stops it at the end.
    pub addr: Vec<SocketAddr>,
    /// Human seats to hold, each over its own WebSocket.
    pub seats: usize,
    /// Players at each table, 3 to 16 (humans and bots).
    pub players_per_table: usize,
    /// Bots at each table (the rest are human seats held by the load test).
    pub bots_per_table: usize,
    /// Seconds to play once every game has started.
    pub duration: u64,
    /// A client's mean think time before it acts, in milliseconds (each
    /// decision waits between half and one and a half times this). 0 acts
    /// at once: every table then plays as fast as the server answers.
    pub think_ms: u64,
    /// How many WebSockets are being opened at the same moment.
    pub connect_concurrency: usize,
    /// Print the report as one JSON object on standard output.
    pub json: bool,
    /// The program started as `PROGRAM serve ...` when there is no `addr`;
    /// None: the running executable, which is `dalmuti` itself when the
    /// load test runs as `dalmuti loadtest`. Not an option on the command
    /// line.
    pub server_program: Option<PathBuf>,
}

impl Default for LoadtestArgs {
    /// The command line's defaults: 1,000 seats at five-player tables of
    /// people, 30 seconds, a second's think time.
    fn default() -> LoadtestArgs {
        LoadtestArgs {
            addr: Vec::new(),
            seats: 1000,
            players_per_table: 5,
            bots_per_table: 0,
            duration: 30,
            think_ms: 1000,
            connect_concurrency: 200,
            json: false,
            server_program: None,
        }
    }
}

/// Why the options do not make a load test, in the command line's words.
pub(crate) fn check_args(args: &LoadtestArgs) -> Result<(), String> {
    if !(3..=16).contains(&args.players_per_table) {
        return Err("--players-per-table must be 3 to 16".into());
    }
    if args.bots_per_table >= args.players_per_table {
        return Err("--bots-per-table must leave at least one human seat at each table".into());
    }
    if args.seats == 0 {
        return Err("--seats must be at least 1".into());
    }
    if args.connect_concurrency == 0 {
        return Err("--connect-concurrency must be at least 1".into());
    }
    Ok(())
}

pub(crate) fn tables_for(args: &LoadtestArgs) -> usize {
    args.seats
        .div_ceil(args.players_per_table - args.bots_per_table)
}

// ---------------------------------------------------------------------------
