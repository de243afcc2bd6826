//! `dalmuti loadtest`: its options on the command line, over
//! [`dalmuti_load::run_loadtest`].

use std::net::SocketAddr;
use std::process::ExitCode;

use dalmuti_load::LoadError;

/// `dalmuti loadtest`'s options on the command line.
#[derive(clap::Args, Debug)]
pub struct LoadtestCli {
    /// The address of a running `dalmuti serve` to load; given more than
    /// once, the nodes sharing one PostgreSQL database, tables made on each
    /// in turn. Without it, the load test starts its own server (this
    /// executable, `serve` on 127.0.0.1, a temporary database, no bot,
    /// hand or setup pauses) and stops it at the end.
    #[arg(long)]
    pub addr: Vec<SocketAddr>,
    /// Human seats to hold, each over its own WebSocket.
    #[arg(long, default_value_t = 1000)]
    pub seats: usize,
    /// Players at each table, 3 to 16 (humans and bots).
    #[arg(long, default_value_t = 5)]
    pub players_per_table: usize,
    /// Bots at each table (the rest are human seats held by the load test).
    #[arg(long, default_value_t = 0)]
    pub bots_per_table: usize,
    /// Seconds to play once every game has started.
    #[arg(long, default_value_t = 30)]
    pub duration: u64,
    /// A client's mean think time before it acts, in milliseconds (each
    /// decision waits between half and one and a half times this). 0 acts
    /// at once: every table then plays as fast as the server answers.
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
    /// How many WebSockets are being opened at the same moment.
    #[arg(long, default_value_t = 200)]
    pub connect_concurrency: usize,
    /// Print the report as one JSON object on standard output.
    #[arg(long)]
    pub json: bool,
}

impl From<LoadtestCli> for dalmuti_load::LoadtestArgs {
    fn from(cli: LoadtestCli) -> Self {
        dalmuti_load::LoadtestArgs {
            addr: cli.addr,
            seats: cli.seats,
            players_per_table: cli.players_per_table,
            bots_per_table: cli.bots_per_table,
            duration: cli.duration,
            think_ms: cli.think_ms,
            connect_concurrency: cli.connect_concurrency,
            json: cli.json,
            ..Default::default()
        }
    }
}

/// Prints the report (JSON with `--json`). Exit status 0: the run had no
/// error; 1: it had errors or could not run; 2: bad arguments.
pub fn run_loadtest(cli: LoadtestCli) -> ExitCode {
    let json = cli.json;
    match dalmuti_load::run_loadtest(&cli.into()) {
        Ok(report) => {
            if json {
                println!("{}", report.to_json());
            } else {
                print!("{}", report.to_text());
            }
            if report.clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("dalmuti loadtest: {e}");
            match e {
                LoadError::BadArgs(_) => ExitCode::from(2),
                LoadError::Failed(_) => ExitCode::from(1),
            }
        }
    }
}
