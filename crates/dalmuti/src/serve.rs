//! `dalmuti serve`: the multiplayer server, thin over `dalmuti-server`.

use dalmuti_server::protocol::{ChatLine, printable};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use dalmuti_server::Config;

/// Arguments of `dalmuti serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Where to listen. Use 0.0.0.0:8080 to let friends on your network in.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The SQLite database file (created if missing), or a PostgreSQL
    /// database: postgres://USER:PASSWORD@HOST:PORT/DB, the password and
    /// the port optional (its schema is created or brought up to date at
    /// start). Default: the address in
    /// $DALMUTI_DATABASE_URL if set, else
    /// $XDG_DATA_HOME/dalmuti/server.sqlite (or ~/.local/share/…).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// A PEM file of the CA that signed the PostgreSQL server's
    /// certificate: the connection is then TLS, the certificate and host
    /// name verified (as `sslrootcert=PATH` in the URL). `sslmode=require`
    /// in the URL without it verifies against the system's roots.
    #[arg(long, value_name = "PEM")]
    pub database_ca: Option<PathBuf>,
    /// Seconds a player may be gone before a bot plays for them.
    #[arg(long, default_value_t = 30)]
    pub grace: u64,
    /// Milliseconds between two bot moves, so people can follow them.
    #[arg(long, default_value_t = 700)]
    pub bot_delay: u64,
    /// Milliseconds between the end of a hand and the next deal.
    #[arg(long, default_value_t = 6000)]
    pub hand_pause: u64,
    /// Milliseconds every hand's setup lasts at least: the "look at your
    /// cards" pause, at whose end everyone is ready (a player dealt both
    /// Jesters calls a revolution before it ends, or keeps quiet).
    #[arg(long, default_value_t = 6000)]
    pub setup_pause: u64,
    /// The most WebSocket connections held at once.
    #[arg(long, default_value_t = Config::default().max_connections)]
    pub max_connections: usize,
    /// The most tables the server keeps.
    #[arg(long, default_value_t = Config::default().max_tables)]
    pub max_tables: usize,
    /// Bot decisions that may think at once, over every table. Default:
    /// the machine's cores.
    #[arg(long, default_value_t = dalmuti_server::default_bot_threads())]
    pub bot_threads: usize,
    /// The most connections one client address may hold at once. Behind a
    /// reverse proxy every client has the proxy's address: raise it there.
    #[arg(long, default_value_t = Config::default().max_per_address)]
    pub max_per_address: usize,
    /// Tables one client address may create at once (then one a minute).
    #[arg(long, default_value_t = Config::default().table_burst)]
    pub tables_per_address: u32,
    /// Names one client address may keep at once (then one every ten
    /// minutes): a kept name is for good, so strangers may not hoard them.
    #[arg(long, default_value_t = Config::default().player_burst)]
    pub names_per_address: u32,
    /// Downloads of finished games (records, replays) one client address
    /// is sent at once; it may ask for 20 at once, then 2 a second.
    #[arg(long, default_value_t = Config::default().downloads.per_address)]
    pub downloads_per_address: usize,
    /// Downloads of finished games sent at once over every address: past
    /// it the server answers 503 with a Retry-After, so that its tables
    /// play on.
    #[arg(long, default_value_t = Config::default().downloads.at_once)]
    pub max_downloads: usize,
    /// On PostgreSQL, this node's id among the nodes sharing the database
    /// (1 to 64 letters, digits, '-', '_' or '.'). Default: the host's
    /// name and the port. Give each node its own.
    #[arg(long)]
    pub node_id: Option<String>,
    /// On PostgreSQL, where clients reach this node: requests for its
    /// tables that reach another node are sent here (e.g.
    /// `https://play.example/n/1`, a path the load balancer sends to this
    /// node). Default: http:// and the address it listens on.
    #[arg(long)]
    pub public_url: Option<String>,
    /// On PostgreSQL, seconds a node's hold on a table lasts unless
    /// renewed: how long a dead node's tables wait for another node.
    #[arg(long, default_value_t = 10)]
    pub lease_seconds: u64,
    /// How logs are written on standard error: text (one line each, for a
    /// person) or json (one object a line, for a log collector). Which
    /// logs: $RUST_LOG (e.g. warn, or info,dalmuti_server=debug); default
    /// info.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// A port (on --addr's address) where contest programs, UECda clients
    /// of protocol 20070 or 20140, connect and wait until a host seats
    /// them at a table of the contest's Daifugō for five ("contest
    /// program" among the bots), beside people and our bots; their match is
    /// the table's game (docs/UECDA.md). The contest's own port is 42485.
    #[arg(long, value_name = "PORT")]
    pub uecda_port: Option<u16>,
    /// For tests only: every table started draws its seats and deals its
    /// hands from this seed (a number or 64 hex digits), so a browser test
    /// plays positions chosen for it. Whoever knows it knows every hand:
    /// hidden from --help, and the server warns at start.
    #[arg(long, hide = true, value_name = "SEED", value_parser = parse_seed)]
    pub deal_seed: Option<dalmuti_core::Seed>,
    /// For the operator: print the chat lines players reported (newest
    /// first, at most 200: the table, the line, who reported it and why)
    /// from the database --data or $DALMUTI_DATABASE_URL names, and exit
    /// without serving.
    #[arg(long)]
    pub list_reports: bool,
}

/// A seed as typed: a number or 64 hex digits.
fn parse_seed(text: &str) -> Result<dalmuti_core::Seed, String> {
    dalmuti_core::Seed::from_text(text).map_err(|e| e.to_string())
}

/// How `dalmuti serve` writes its logs.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// One line of text per event, span fields (`table{table=…}`) first.
    Text,
    /// One JSON object per line: `timestamp`, `level`, `target`, the
    /// event's fields (`message`, …) and its `span` (`{"name": "table",
    /// "table": ID}`).
    Json,
}

/// Starts writing logs to standard error in `format`, filtered by
/// $RUST_LOG (default `info`). A $RUST_LOG that does not parse is said,
/// not ignored silently, and `info` is used.
pub(crate) fn start_logs(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = match std::env::var("RUST_LOG") {
        Ok(wanted) if !wanted.trim().is_empty() => {
            EnvFilter::try_new(&wanted).unwrap_or_else(|e| {
                eprintln!("dalmuti: RUST_LOG={wanted:?} does not parse ({e}): logging at info");
                EnvFilter::new("info")
            })
        }
        _ => EnvFilter::new("info"),
    };
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // If a subscriber is already set (never, in the binary), keep it.
    let _ = match format {
        LogFormat::Text => {
            use std::io::IsTerminal;
            logs.with_ansi(std::io::stderr().is_terminal()).try_init()
        }
        LogFormat::Json => logs
            .json()
            .flatten_event(true)
            .with_span_list(false)
            .try_init(),
    };
}

/// Tells the person who started the server something (its address, that
/// it stopped, why it could not start): a line of text, or in JSON logs a
/// log event like the others, so that standard error stays JSON lines.
fn say(format: LogFormat, error: bool, text: &str) {
    match (format, error) {
        (LogFormat::Text, _) => eprintln!("dalmuti serve: {text}"),
        (LogFormat::Json, false) => tracing::info!("{text}"),
        (LogFormat::Json, true) => tracing::error!("{text}"),
    }
}

fn default_data() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("dalmuti").join("server.sqlite")
}

/// The variable that names a PostgreSQL database when `--data` is not
/// given.
const DATABASE_URL: &str = "DALMUTI_DATABASE_URL";

/// Whether `--data` names a PostgreSQL database rather than a file.
fn is_postgres(data: &str) -> bool {
    data.starts_with("postgres://") || data.starts_with("postgresql://")
}

/// Where the data lives: `--data` (a file or a `postgres://` address),
/// else `$DALMUTI_DATABASE_URL`, else the default file. The address is
/// `Some` for PostgreSQL.
fn choose_data(data: Option<PathBuf>, env: Option<String>) -> (PathBuf, Option<String>) {
    match data {
        Some(path) => match path.to_str().filter(|p| is_postgres(p)) {
            Some(url) => (default_data(), Some(url.to_string())),
            None => (path, None),
        },
        None => match env.filter(|u| !u.is_empty()) {
            Some(url) => (default_data(), Some(url)),
            None => (default_data(), None),
        },
    }
}

pub fn run_serve(args: ServeArgs) -> ExitCode {
    let format = args.log_format;
    start_logs(format);
    let chosen = args.data.is_some();
    let (data, database_url) = choose_data(args.data, std::env::var(DATABASE_URL).ok());
    if database_url.is_none()
        && let Some(dir) = data.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        // The default folder is ours to make; a folder someone named is
        // theirs: a typo must not leave a new folder behind.
        let made = if chosen {
            Err(format!(
                "the folder {} does not exist: make it first (mkdir -p {}), or give \
                 --data a file path in a folder that exists",
                dir.display(),
                dir.display()
            ))
        } else {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))
        };
        if let Err(e) = made {
            say(format, true, &e);
            return ExitCode::from(1);
        }
    }
    let config = Config {
        data,
        database_url,
        database_ca: args.database_ca,
        grace: Duration::from_secs(args.grace),
        bot_delay: Duration::from_millis(args.bot_delay),
        hand_pause: Duration::from_millis(args.hand_pause),
        setup_pause: Duration::from_millis(args.setup_pause),
        max_connections: args.max_connections,
        max_tables: args.max_tables,
        bot_threads: args.bot_threads.max(1),
        max_per_address: args.max_per_address.max(1),
        table_burst: args.tables_per_address.max(1),
        player_burst: args.names_per_address.max(1),
        downloads: dalmuti_server::records::Downloads {
            per_address: args.downloads_per_address.max(1),
            at_once: args.max_downloads.max(1),
            ..Config::default().downloads
        },
        node_id: args.node_id,
        public_url: args.public_url,
        lease: Duration::from_secs(args.lease_seconds.clamp(1, 3600)),
        deal_seed: args.deal_seed,
        ..Config::default()
    };
    if args.list_reports {
        return print_reports(&config);
    }
    let mut config = config;
    if let Some(port) = args.uecda_port {
        let at = SocketAddr::new(args.addr.ip(), port);
        match dalmuti_server::programs::Programs::listen(at) {
            Ok(programs) => config.programs = Some(programs),
            Err(e) => {
                say(
                    format,
                    true,
                    &format!("cannot listen for contest programs on {at}: {e}"),
                );
                return ExitCode::from(1);
            }
        }
    }
    if config.deal_seed.is_some() {
        tracing::warn!("--deal-seed: every deal follows from a known seed; for tests only");
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            say(format, true, &format!("cannot start the runtime: {e}"));
            return ExitCode::from(1);
        }
    };
    let result = runtime.block_on(async move {
        // The address is bound first (a node's default public address
        // is where it listens), but nobody is told to open it before the
        // database is open.
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let server =
            dalmuti_server::Server::open(config.clone(), addr).map_err(|e| {
                match &config.database_url {
                    Some(_) => format!("{e}\n{}", postgres_help(&e.to_string())),
                    None => format!("{e}\n{}", data_help(&config.data)),
                }
            })?;
        let place = match &config.database_url {
            Some(url) => dalmuti_server::redact(url),
            None => config.data.display().to_string(),
        };
        let node = server
            .node()
            .map(|(id, url)| format!(", node {id} at {url}"))
            .unwrap_or_default();
        say(
            format,
            false,
            &format!("open http://{addr}/ (data in {place}{node})"),
        );
        server
            .run(listener, shutdown_signal())
            .await
            .map_err(|e| e.to_string())
    });
    match result {
        Ok(()) => {
            say(format, false, "stopped");
            ExitCode::SUCCESS
        }
        Err(e) => {
            say(format, true, &e);
            ExitCode::from(1)
        }
    }
}

/// Reports shown by `--list-reports`.
const LISTED_REPORTS: usize = 200;

/// `--list-reports`: the reported chat lines, one block each, on
/// standard output. Every field a player wrote is printed escaped
/// ([`printable`]): a line kept with an escape sequence or a line feed
/// (before chat refused them) cannot colour the terminal nor forge a
/// report of its own.
fn print_reports(config: &Config) -> ExitCode {
    let reports = match dalmuti_server::list_reports(config, LISTED_REPORTS) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("dalmuti serve: {e}");
            return ExitCode::from(1);
        }
    };
    if reports.is_empty() {
        println!("no chat line has been reported");
    }
    for r in &reports {
        let when = std::time::UNIX_EPOCH + Duration::from_millis(r.at);
        // The line as the table kept it: who said what.
        let (said_by, text) = match serde_json::from_str::<ChatLine>(&r.line) {
            Ok(line) => (
                line.from
                    .map_or_else(|| "a spectator".to_string(), String::from),
                line.text,
            ),
            Err(_) => ("?".to_string(), r.line.clone()),
        };
        let why = if r.why.is_empty() {
            String::new()
        } else {
            format!(": {}", printable(&r.why))
        };
        println!(
            "{} table {} ({}), line {}, reported by {}{why}\n  {}: {}",
            httpdate::fmt_http_date(when),
            printable(&r.table),
            printable(&r.table_name),
            r.n,
            printable(&r.reporter),
            printable(&said_by),
            printable(&text),
        );
    }
    ExitCode::SUCCESS
}

/// What `--data` wants, for a database that would not open.
fn data_help(data: &std::path::Path) -> String {
    let wants = "--data wants a file path for the SQLite database (created if missing, \
                 in a folder that exists and can be written)";
    let shown = data.display();
    if data.is_dir() {
        let example = data.join("server.sqlite");
        format!(
            "{shown} is a folder. {wants}: e.g. --data {}",
            example.display()
        )
    } else if data.is_file() {
        let example = data.with_file_name("server.sqlite");
        let example = if example == data {
            data.with_file_name("dalmuti.sqlite")
        } else {
            example
        };
        format!(
            "{shown} is a file that is not an SQLite database: it is left as it is. \
             {wants}: a new one, e.g. --data {}",
            example.display()
        )
    } else {
        format!("{wants}.")
    }
}

/// What a PostgreSQL address wants, for a database that would not open
/// with `error`.
fn postgres_help(error: &str) -> String {
    if error.contains("certificate") || error.contains("TLS") {
        return "the database's certificate could not be verified: give the CA that \
                signed it with --database-ca PEM (or sslrootcert=PEM in the address), \
                and reach the database by the name or address its certificate is for \
                (docs/DEPLOY.md)"
            .to_string();
    }
    "--data (or $DALMUTI_DATABASE_URL) wants a PostgreSQL database that exists and that \
     the user may create tables in: e.g. postgres://dalmuti@127.0.0.1:5432/dalmuti \
     (docs/DEPLOY.md)"
        .to_string()
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        let term = async {
            match term.as_mut() {
                Some(t) => {
                    t.recv().await;
                }
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_is_a_file_or_a_postgres_address_from_the_flag_or_the_variable() {
        let url = "postgres://ada@db/dalmuti".to_string();
        let file = PathBuf::from("here.sqlite");
        assert_eq!(
            choose_data(Some(file.clone()), Some(url.clone())),
            (file, None),
            "the flag first"
        );
        assert_eq!(
            choose_data(Some(PathBuf::from(&url)), None),
            (default_data(), Some(url.clone()))
        );
        let other = "postgresql://bo@db/d".to_string();
        assert_eq!(
            choose_data(None, Some(other.clone())),
            (default_data(), Some(other))
        );
        assert_eq!(
            choose_data(None, Some(String::new())),
            (default_data(), None)
        );
        assert_eq!(choose_data(None, None), (default_data(), None));
    }
}
