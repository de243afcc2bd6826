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
//! play a legal action whenever it is to act (decline a revolution or an
//! exchange, give its worst cards as tax, lead its worst single card, pass
//! when following), after a think time.
//!
//! It measures the time from sending an `act` to receiving, at the same
//! client, the `event` for that action (the next event number), and the
//! time from the send to the same event's arrival at every seat of the
//! table (the broadcast), and reports the connected seats held, actions and
//! latency percentiles as text or `--json`.

use std::io::{BufRead, BufReader as StdBufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// Arguments of `dalmuti loadtest`.
#[derive(clap::Args, Debug)]
pub struct LoadtestArgs {
    /// The address of a running `dalmuti serve` to load; given more than
    /// once, the nodes sharing one PostgreSQL database, tables made on each
    /// in turn. Without it, the load test starts its own server (this
    /// executable, `serve` on 127.0.0.1, a temporary database, no bot or
    /// hand pauses) and stops it at the end.
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
    /// The program started as `PROGRAM serve ...` when there is no `addr`;
    /// None: the running executable, which is `dalmuti` itself when the
    /// load test runs as `dalmuti loadtest`. Not an option on the command
    /// line.
    #[arg(skip)]
    pub server_program: Option<PathBuf>,
}

/// Runs the load test; the report goes to standard output, progress to
/// standard error. Exit status 0: the run had no error; 1: it had errors
/// or could not run; 2: bad arguments.
pub fn run_loadtest(args: LoadtestArgs) -> ExitCode {
    if let Err(e) = check_args(&args) {
        eprintln!("dalmuti loadtest: {e}");
        return ExitCode::from(2);
    }
    let fd_limit = match raise_fd_limit() {
        Ok(limit) => limit,
        Err(e) => {
            eprintln!("dalmuti loadtest: {e}");
            return ExitCode::from(1);
        }
    };
    // Each seat is one socket; the rest is room for HTTP, the runtime and
    // the standard streams.
    let needed = args.seats as u64 + 64;
    if fd_limit < needed {
        eprintln!(
            "dalmuti loadtest: {} seats need about {needed} open files, but the limit is \
             {fd_limit} (raise the hard limit: ulimit -Hn, /etc/security/limits.conf)",
            args.seats
        );
        return ExitCode::from(1);
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("dalmuti loadtest: cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let mut server = None;
    let addrs = match args.addr.as_slice() {
        [_, ..] => args.addr.clone(),
        [] => match Server::start(&args, fd_limit) {
            Ok(s) => {
                let addr = s.addr;
                server = Some(s);
                vec![addr]
            }
            Err(e) => {
                eprintln!("dalmuti loadtest: the server did not start: {e}");
                return ExitCode::from(1);
            }
        },
    };
    let outcome = runtime.block_on(run(&args, &addrs, server.as_ref().map(|s| s.pid())));
    let server_report = server.map(Server::stop);
    match outcome {
        Ok(mut report) => {
            report.server = server_report;
            if args.json {
                println!("{}", report.to_json());
            } else {
                print!("{}", report.to_text());
            }
            if report.errors == 0 && report.server.as_ref().is_none_or(|s| s.clean_exit) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("dalmuti loadtest: {e}");
            ExitCode::from(1)
        }
    }
}

fn check_args(args: &LoadtestArgs) -> Result<(), String> {
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

// ---------------------------------------------------------------------------
// The server as a child process.

struct Server {
    child: Child,
    addr: SocketAddr,
    dir: PathBuf,
    output: Arc<Mutex<Vec<String>>>,
}

/// What became of the server the load test started.
struct ServerReport {
    cpu_seconds: Option<f64>,
    max_rss_mib: Option<f64>,
    clean_exit: bool,
    exit: String,
}

impl Server {
    fn start(args: &LoadtestArgs, fd_limit: u64) -> Result<Server, String> {
        let exe = match &args.server_program {
            Some(program) => program.clone(),
            None => {
                std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?
            }
        };
        let dir = std::env::temp_dir().join(format!("dalmuti-loadtest-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let tables = tables_for(args);
        let mut child = Command::new(exe)
            .arg("serve")
            .args(["--addr", "127.0.0.1:0"])
            .arg("--data")
            .arg(dir.join("server.sqlite"))
            .args(["--bot-delay", "0", "--hand-pause", "0", "--grace", "3600"])
            .args(["--max-connections", &(args.seats + 1000).to_string()])
            .args(["--max-tables", &(tables + 100).to_string()])
            // Every simulated client comes from this machine's address.
            .args(["--max-per-address", &(args.seats + 1000).to_string()])
            .args(["--tables-per-address", &(tables + 100).to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run `dalmuti serve`: {e}"))?;
        eprintln!(
            "dalmuti loadtest: started `dalmuti serve` (pid {}, open-file limit {fd_limit}, data in {})",
            child.id(),
            dir.display()
        );
        let stderr = child
            .stderr
            .take()
            .ok_or("no standard error from the server")?;
        let output = Arc::new(Mutex::new(Vec::new()));
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let lines = output.clone();
        std::thread::spawn(move || {
            let mut addr_tx = Some(addr_tx);
            for line in StdBufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(tx) = &addr_tx
                    && let Some(addr) = parse_open_line(&line)
                {
                    let _ = tx.send(addr);
                    addr_tx = None;
                    continue;
                }
                eprintln!("server: {line}");
                if let Ok(mut l) = lines.lock() {
                    l.push(line);
                }
            }
        });
        let started = Instant::now();
        loop {
            match addr_rx.recv_timeout(Duration::from_millis(100)) {
                Ok(addr) => {
                    return Ok(Server {
                        child,
                        addr,
                        dir,
                        output,
                    });
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {}
            }
            if let Ok(Some(status)) = child.try_wait() {
                let said = output.lock().map(|l| l.join("\n")).unwrap_or_default();
                let _ = std::fs::remove_dir_all(&dir);
                return Err(format!("it exited ({status}) before listening: {said}"));
            }
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                let _ = child.wait();
                let _ = std::fs::remove_dir_all(&dir);
                return Err("it did not print its address within 60 seconds".into());
            }
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server with SIGTERM (as an operator would) and says how
    /// it went and what it used.
    fn stop(mut self) -> ServerReport {
        let (cpu_seconds, max_rss_mib) = process_usage(self.child.id());
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                _ => break None,
            }
        };
        let (clean_exit, exit) = match status {
            Some(s) => (s.success(), s.to_string()),
            None => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                (
                    false,
                    "did not stop within 30 s of SIGTERM: killed".to_string(),
                )
            }
        };
        if !clean_exit {
            let said = self.output.lock().map(|l| l.join("\n")).unwrap_or_default();
            eprintln!("dalmuti loadtest: the server did not stop cleanly ({exit}): {said}");
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        ServerReport {
            cpu_seconds,
            max_rss_mib,
            clean_exit,
            exit,
        }
    }
}

/// `dalmuti serve: open http://127.0.0.1:PORT/ ...` gives the address.
fn parse_open_line(line: &str) -> Option<SocketAddr> {
    let rest = &line[line.find("open http://")? + "open http://".len()..];
    rest[..rest.find('/')?].parse().ok()
}

/// CPU seconds used so far and the peak resident memory of a process
/// (from /proc; None where there is no /proc).
fn process_usage(pid: u32) -> (Option<f64>, Option<f64>) {
    let cpu = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            // Fields after the command name (which is in parentheses):
            // utime and stime are the 14th and 15th fields of the line.
            let after = &stat[stat.rfind(')')? + 2..];
            let fields: Vec<&str> = after.split_whitespace().collect();
            let utime: f64 = fields.get(11)?.parse().ok()?;
            let stime: f64 = fields.get(12)?.parse().ok()?;
            Some((utime + stime) / 100.0)
        });
    let rss = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib / 1024.0)
        });
    (cpu, rss)
}

fn tables_for(args: &LoadtestArgs) -> usize {
    args.seats
        .div_ceil(args.players_per_table - args.bots_per_table)
}

// ---------------------------------------------------------------------------
// A small HTTP/1.1 client for the lobby's JSON, over one kept-alive
// connection.

struct Http {
    addr: SocketAddr,
    conn: Option<BufReader<TcpStream>>,
}

impl Http {
    fn new(addr: SocketAddr) -> Http {
        Http { addr, conn: None }
    }

    /// Sends one request; answers the status and the body as JSON (Null
    /// when empty). Retries on a dropped kept-alive connection and, with a
    /// growing pause, on 429 (too many requests).
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut auth = String::new();
        if let Some(token) = token {
            auth = format!("Authorization: Bearer {token}\r\n");
        }
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n{auth}\r\n{body}",
            self.addr,
            body.len()
        );
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            match self.exchange(request.as_bytes()).await {
                Ok((429, _)) if attempt < 60 => {
                    tokio::time::sleep(Duration::from_millis(20 * u64::from(attempt))).await;
                }
                Ok(answer) => return Ok(answer),
                Err(_) if attempt < 3 => {
                    self.conn = None;
                }
                Err(e) => return Err(format!("{method} {path}: {e}")),
            }
        }
    }

    async fn exchange(&mut self, request: &[u8]) -> Result<(u16, Value), String> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(self.addr)
                .await
                .map_err(|e| format!("cannot connect to {}: {e}", self.addr))?;
            let _ = stream.set_nodelay(true);
            self.conn = Some(BufReader::new(stream));
        }
        let conn = self.conn.as_mut().ok_or("no connection")?;
        let result = Self::exchange_on(conn, request).await;
        match &result {
            Ok((_, _, keep)) if *keep => {}
            _ => self.conn = None,
        }
        result.map(|(status, body, _)| (status, body))
    }

    async fn exchange_on(
        conn: &mut BufReader<TcpStream>,
        request: &[u8],
    ) -> Result<(u16, Value, bool), String> {
        let io = |e: std::io::Error| e.to_string();
        conn.get_mut().write_all(request).await.map_err(io)?;
        let mut line = String::new();
        if conn.read_line(&mut line).await.map_err(io)? == 0 {
            return Err("connection closed".into());
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("not an HTTP answer: {line:?}"))?;
        let mut length = None;
        let mut chunked = false;
        let mut keep = true;
        loop {
            line.clear();
            if conn.read_line(&mut line).await.map_err(io)? == 0 {
                return Err("connection closed in the headers".into());
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                let value = value.trim();
                match name.to_ascii_lowercase().as_str() {
                    "content-length" => length = value.parse::<usize>().ok(),
                    "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                    "connection" => keep = !value.eq_ignore_ascii_case("close"),
                    _ => {}
                }
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                conn.read_line(&mut line).await.map_err(io)?;
                let size = usize::from_str_radix(line.trim(), 16)
                    .map_err(|_| format!("bad chunk size {line:?}"))?;
                let mut chunk = vec![0; size + 2];
                conn.read_exact(&mut chunk).await.map_err(io)?;
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        } else if let Some(length) = length {
            body.resize(length, 0);
            conn.read_exact(&mut body).await.map_err(io)?;
        } else if status != 204 && status != 304 {
            conn.read_to_end(&mut body).await.map_err(io)?;
            keep = false;
        }
        let value = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&body)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()))
        };
        Ok((status, value, keep))
    }
}

/// The reason in an error answer, for messages.
fn reason(body: &Value) -> String {
    body.get("error")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| body.to_string())
}

// ---------------------------------------------------------------------------
// Choosing a legal action from STATE.

/// Cards by rank: `counts[r]` numbered cards of rank `r` (1 to 12) and
/// `jesters`.
struct Cards {
    counts: [u8; 13],
    jesters: u8,
}

impl Cards {
    fn parse(hand: &str) -> Cards {
        let mut cards = Cards {
            counts: [0; 13],
            jesters: 0,
        };
        for token in hand.split_whitespace() {
            if token == "J" {
                cards.jesters += 1;
            } else if let Ok(rank) = token.parse::<usize>()
                && (1..=12).contains(&rank)
            {
                cards.counts[rank] += 1;
            }
        }
        cards
    }

    /// The `n` worst cards (highest ranks first, Jesters last), best first.
    fn worst(&self, n: usize) -> Option<String> {
        let mut picked = Vec::new();
        for rank in (1..=12).rev() {
            for _ in 0..self.counts[rank] {
                if picked.len() < n {
                    picked.push(rank.to_string());
                }
            }
        }
        for _ in 0..self.jesters {
            if picked.len() < n {
                picked.push("J".to_string());
            }
        }
        if picked.len() < n || n == 0 {
            return None;
        }
        // Best first, Jesters last.
        picked.sort_by_key(|c| c.parse::<u8>().unwrap_or(13));
        Some(picked.join(" "))
    }
}

/// A legal action for `decision` (STATE's) holding `hand`: no revolution,
/// no exchange, the worst cards as tax or in answer, the worst single card
/// to lead, a pass to follow. None for a decision it does not know.
fn choose(decision: &Value, hand: &str) -> Option<Value> {
    let cards = Cards::parse(hand);
    match decision.get("kind")?.as_str()? {
        "tax" => {
            let count = decision.get("count")?.as_u64()? as usize;
            Some(json!({ "give_tax": cards.worst(count)? }))
        }
        "offer_exchange" | "exchange_offer" => Some(json!("decline_exchange")),
        "answer_exchange" | "exchange_answer" => {
            Some(json!({ "answer_exchange": cards.worst(1)? }))
        }
        "lead" => Some(json!({ "play": cards.worst(1)? })),
        "follow" => Some(json!("pass")),
        _ => None,
    }
}

// ---------------------------------------------------------------------------
// The run.

/// One table the load test made.
struct TableSetup {
    /// The node that made it, which serves it.
    addr: SocketAddr,
    id: String,
    host_token: String,
    tokens: Vec<(String, String)>,
}

/// Counters shared by every client.
#[derive(Default)]
struct Shared {
    connected: AtomicUsize,
    connected_max: AtomicUsize,
    actions: AtomicU64,
    stale: AtomicU64,
    errors: AtomicU64,
    first_errors: Mutex<Vec<String>>,
}

impl Shared {
    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut first) = self.first_errors.lock()
            && first.len() < 10
        {
            first.push(what);
        }
    }
}

/// When the last action at a table was sent, for the broadcast latency
/// seen at every seat: the event number it was chosen at and the send time
/// in microseconds since the run's start.
#[derive(Default)]
struct TableClock {
    v: AtomicU64,
    sent_us: AtomicU64,
}

/// What one client measured.
#[derive(Default)]
struct ClientStats {
    /// Microseconds from its `act` to its own event.
    action_us: Vec<u32>,
    /// Microseconds from any seat's `act` to the event's arrival here.
    broadcast_us: Vec<u32>,
}

/// The report of a run.
struct Report {
    seats: usize,
    tables: usize,
    players_per_table: usize,
    bots_per_table: usize,
    think_ms: u64,
    duration_s: f64,
    setup_s: f64,
    connect_s: f64,
    connected_max: usize,
    connected_end: usize,
    actions: u64,
    stale: u64,
    errors: u64,
    first_errors: Vec<String>,
    action_us: Vec<u32>,
    broadcast_us: Vec<u32>,
    /// CPU seconds the load test itself used (its clients compete with the
    /// server for the same cores when both run on one machine).
    own_cpu_s: Option<f64>,
    server: Option<ServerReport>,
}

/// Percentiles (ms) of sorted microseconds.
fn percentiles(sorted: &[u32]) -> Value {
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
    fn to_json(&self) -> Value {
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

    fn to_text(&self) -> String {
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

async fn run(
    args: &LoadtestArgs,
    addrs: &[SocketAddr],
    server_pid: Option<u32>,
) -> Result<Report, String> {
    let tables = tables_for(args);
    let humans = args.players_per_table - args.bots_per_table;
    let epoch = Instant::now();

    // 1. Tables and seats, over a few kept-alive HTTP connections.
    let on: Vec<String> = addrs.iter().map(|a| a.to_string()).collect();
    eprintln!(
        "dalmuti loadtest: creating {tables} tables for {} seats on {}",
        args.seats,
        on.join(", ")
    );
    let next = Arc::new(AtomicUsize::new(0));
    let made = Arc::new(Mutex::new(Vec::with_capacity(tables)));
    let mut workers = Vec::new();
    for _ in 0..16.min(tables) {
        let (next, made) = (next.clone(), made.clone());
        let (seats, players, bots) = (args.seats, args.players_per_table, args.bots_per_table);
        let addrs = addrs.to_vec();
        workers.push(tokio::spawn(async move {
            let mut nodes: Vec<Http> = addrs.iter().map(|a| Http::new(*a)).collect();
            loop {
                let t = next.fetch_add(1, Ordering::Relaxed);
                if t >= tables {
                    return Ok::<(), String>(());
                }
                let here = humans.min(seats - t * humans);
                let http = &mut nodes[t % addrs.len()];
                let table = make_table(http, t, here, players, bots).await?;
                let mut made = made.lock().map_err(|_| "poisoned")?;
                made.push(table);
                if made.len() % 500 == 0 {
                    eprintln!("dalmuti loadtest: {} tables made", made.len());
                }
            }
        }));
    }
    for w in workers {
        w.await.map_err(|e| e.to_string())??;
    }
    let made: Vec<TableSetup> = std::mem::take(&mut *made.lock().map_err(|_| "poisoned")?);
    let setup_s = epoch.elapsed().as_secs_f64();

    // 2. Every seat connects and says hello.
    eprintln!("dalmuti loadtest: connecting {} seats", args.seats);
    let shared = Arc::new(Shared::default());
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let gate = Arc::new(tokio::sync::Semaphore::new(args.connect_concurrency));
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::unbounded_channel::<bool>();
    let mut clients = Vec::with_capacity(args.seats);
    let connect_start = Instant::now();
    for table in &made {
        let clock = Arc::new(TableClock::default());
        for (name, token) in &table.tokens {
            let client = Client {
                addr: table.addr,
                table: table.id.clone(),
                name: name.clone(),
                token: token.clone(),
                think: Duration::from_millis(args.think_ms),
                shared: shared.clone(),
                clock: clock.clone(),
                epoch,
                rng: seed_for(name, &table.id),
            };
            let (gate, ready, stop) = (gate.clone(), ready_tx.clone(), stop_rx.clone());
            clients.push(tokio::spawn(client.run(gate, ready, stop)));
        }
    }
    drop(ready_tx);
    let mut answered = 0;
    let mut last_progress = Instant::now();
    while answered < args.seats {
        match ready_rx.recv().await {
            Some(_) => answered += 1,
            None => break,
        }
        if last_progress.elapsed() > Duration::from_secs(2) {
            last_progress = Instant::now();
            eprintln!(
                "dalmuti loadtest: {} of {} seats connected",
                shared.connected.load(Ordering::Relaxed),
                args.seats
            );
        }
    }
    let connect_s = connect_start.elapsed().as_secs_f64();
    let connected = shared.connected.load(Ordering::Relaxed);
    eprintln!(
        "dalmuti loadtest: {connected} of {} seats connected in {connect_s:.1} s",
        args.seats
    );
    if connected == 0 {
        let _ = stop_tx.send(true);
        let first = shared
            .first_errors
            .lock()
            .map(|e| e.join("; "))
            .unwrap_or_default();
        return Err(format!("no seat could connect: {first}"));
    }

    // 3. Start every game, then play for the duration (counted from the
    // first start).
    let play_start = Instant::now();
    eprintln!("dalmuti loadtest: starting {} games", made.len());
    let made = Arc::new(made);
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..16.min(made.len()) {
        let (next, made, shared) = (next.clone(), made.clone(), shared.clone());
        let addrs = addrs.to_vec();
        workers.push(tokio::spawn(async move {
            let mut nodes: Vec<Http> = addrs.iter().map(|a| Http::new(*a)).collect();
            loop {
                let t = next.fetch_add(1, Ordering::Relaxed);
                let Some(table) = made.get(t) else { return };
                // The node that made the table serves it.
                let Some(http) = nodes.iter_mut().find(|h| h.addr == table.addr) else {
                    return;
                };
                let path = format!("/api/tables/{}/start", table.id);
                match http
                    .call("POST", &path, Some(&table.host_token), None)
                    .await
                {
                    Ok((204, _)) => {}
                    Ok((status, body)) => {
                        shared.error(format!("POST {path}: {status} {}", reason(&body)))
                    }
                    Err(e) => shared.error(e),
                }
            }
        }));
    }
    for w in workers {
        let _ = w.await;
    }
    let mut last_actions = 0;
    let mut last_cpu = server_pid.and_then(|pid| process_usage(pid).0);
    let end = play_start + Duration::from_secs(args.duration);
    while Instant::now() < end {
        let tick = Duration::from_secs(5).min(end - Instant::now());
        tokio::time::sleep(tick).await;
        let actions = shared.actions.load(Ordering::Relaxed);
        let cpu = server_pid.and_then(|pid| process_usage(pid).0);
        let cpu_note = match (cpu, last_cpu) {
            (Some(now), Some(before)) => {
                format!(
                    ", server CPU {:.0} %",
                    100.0 * (now - before) / tick.as_secs_f64()
                )
            }
            _ => String::new(),
        };
        last_cpu = cpu;
        eprintln!(
            "dalmuti loadtest: {:>4.0} s: {} seats connected, {} actions ({:.0}/s), {} stale, {} errors{cpu_note}",
            play_start.elapsed().as_secs_f64(),
            shared.connected.load(Ordering::Relaxed),
            actions,
            (actions - last_actions) as f64 / tick.as_secs_f64(),
            shared.stale.load(Ordering::Relaxed),
            shared.errors.load(Ordering::Relaxed),
        );
        last_actions = actions;
    }
    let duration_s = play_start.elapsed().as_secs_f64();
    let connected_end = shared.connected.load(Ordering::Relaxed);
    let actions = shared.actions.load(Ordering::Relaxed);
    let _ = stop_tx.send(true);

    let mut action_us = Vec::new();
    let mut broadcast_us = Vec::new();
    for client in clients {
        if let Ok(stats) = client.await {
            action_us.extend(stats.action_us);
            broadcast_us.extend(stats.broadcast_us);
        }
    }
    action_us.sort_unstable();
    broadcast_us.sort_unstable();
    let first_errors = shared
        .first_errors
        .lock()
        .map(|e| e.clone())
        .unwrap_or_default();
    Ok(Report {
        seats: args.seats,
        tables,
        players_per_table: args.players_per_table,
        bots_per_table: args.bots_per_table,
        think_ms: args.think_ms,
        duration_s,
        setup_s,
        connect_s,
        connected_max: shared.connected_max.load(Ordering::Relaxed),
        connected_end,
        actions,
        stale: shared.stale.load(Ordering::Relaxed),
        errors: shared.errors.load(Ordering::Relaxed),
        first_errors,
        action_us,
        broadcast_us,
        own_cpu_s: process_usage(std::process::id()).0,
        server: None,
    })
}

/// Creates table number `t` with `humans` human seats (the creator first)
/// and `bots` bots; private, so the lobby's list stays short.
async fn make_table(
    http: &mut Http,
    t: usize,
    humans: usize,
    players: usize,
    bots: usize,
) -> Result<TableSetup, String> {
    let body = json!({
        "name": format!("load {t}"),
        "player": "p0",
        "seats": players,
        "public": false,
    });
    let (status, created) = http.call("POST", "/api/tables", None, Some(&body)).await?;
    if status != 201 {
        return Err(format!("POST /api/tables: {status} {}", reason(&created)));
    }
    let field = |v: &Value, f: &str| {
        v.get(f)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("no \"{f}\" in {v}"))
    };
    let id = field(&created, "id")?;
    let host_token = field(&created, "token")?;
    let mut tokens = vec![("p0".to_string(), host_token.clone())];
    for p in 1..humans {
        let name = format!("p{p}");
        let path = format!("/api/tables/{id}/seats");
        let (status, seat) = http
            .call("POST", &path, None, Some(&json!({ "name": name })))
            .await?;
        if status != 201 {
            return Err(format!("POST {path}: {status} {}", reason(&seat)));
        }
        tokens.push((name, field(&seat, "token")?));
    }
    for _ in 0..bots {
        let path = format!("/api/tables/{id}/bots");
        let (status, bot) = http
            .call(
                "POST",
                &path,
                Some(&host_token),
                Some(&json!({ "bot": "greedy" })),
            )
            .await?;
        if status != 201 {
            return Err(format!("POST {path}: {status} {}", reason(&bot)));
        }
    }
    Ok(TableSetup {
        addr: http.addr,
        id,
        host_token,
        tokens,
    })
}

fn seed_for(name: &str, table: &str) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    for b in name.bytes().chain(table.bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h | 1
}

/// Where one client's connection stands.
#[derive(Default)]
struct Seat {
    /// Said hello and counted as connected.
    counted: bool,
    /// Told once the hello is answered.
    ready: Option<tokio::sync::mpsc::UnboundedSender<bool>>,
    /// The action waiting for its think time: (when, v, action).
    pending: Option<(tokio::time::Instant, u64, Value)>,
    /// The action in flight: (the v it was chosen at, when it was sent).
    sent: Option<(u64, Instant)>,
    /// The event number of the last action sent.
    acted_at: Option<u64>,
    /// The reason of a refused act, until its resync arrives.
    refused: Option<String>,
    stats: ClientStats,
}

/// Microseconds, capped to fit 32 bits (71 minutes).
fn micros(us: u64) -> u32 {
    us.min(u64::from(u32::MAX)) as u32
}

/// The parts of a server message a client reads.
#[derive(Deserialize)]
struct Incoming {
    t: String,
    #[serde(default)]
    v: u64,
    #[serde(default)]
    d: Option<IncomingData>,
}

#[derive(Deserialize)]
struct IncomingData {
    #[serde(default)]
    decision: Option<Value>,
    #[serde(default)]
    view: Option<IncomingView>,
    #[serde(default)]
    e: Option<IncomingEvent>,
    #[serde(default)]
    reason: Option<String>,
}

#[derive(Deserialize)]
struct IncomingView {
    #[serde(default)]
    hand: Option<String>,
}

#[derive(Deserialize)]
struct IncomingEvent {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    name: Option<String>,
}

/// One scripted seat.
struct Client {
    addr: SocketAddr,
    table: String,
    name: String,
    token: String,
    think: Duration,
    shared: Arc<Shared>,
    clock: Arc<TableClock>,
    epoch: Instant,
    rng: u64,
}

impl Client {
    fn think_time(&mut self) -> Duration {
        // xorshift64: half to one and a half times the mean.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        let fraction = 0.5 + (self.rng % 1000) as f64 / 1000.0;
        self.think.mul_f64(fraction)
    }

    async fn run(
        mut self,
        gate: Arc<tokio::sync::Semaphore>,
        ready: tokio::sync::mpsc::UnboundedSender<bool>,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) -> ClientStats {
        let permit = gate.acquire().await;
        let ws = match self.connect().await {
            Ok(ws) => ws,
            Err(e) => {
                self.shared.error(format!("{}: {e}", self.who()));
                let _ = ready.send(false);
                return ClientStats::default();
            }
        };
        drop(permit);
        let (mut sink, mut stream) = ws.split();
        let mut seat = Seat {
            ready: Some(ready),
            ..Seat::default()
        };
        loop {
            let wake = seat.pending.as_ref().map(|p| p.0);
            let sleep = async move {
                match wake {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = stop.changed() => break,
                _ = sleep => {
                    let Some(text) = self.send_pending(&mut seat) else { continue };
                    if let Err(e) = sink.send(Message::text(text)).await {
                        self.shared.error(format!("{}: cannot send: {e}", self.who()));
                        break;
                    }
                }
                message = stream.next() => match message {
                    Some(Ok(Message::Text(text))) => self.on_text(&mut seat, text.as_str()),
                    Some(Ok(Message::Close(_))) | None => {
                        if !*stop.borrow() {
                            self.shared.error(format!("{}: the server closed the connection", self.who()));
                        }
                        break;
                    }
                    Some(Ok(_)) => {}
                    Some(Err(e)) => {
                        if !*stop.borrow() {
                            self.shared.error(format!("{}: {e}", self.who()));
                        }
                        break;
                    }
                },
            }
        }
        if seat.counted {
            self.shared.connected.fetch_sub(1, Ordering::Relaxed);
        }
        let _ = sink.send(Message::Close(None)).await;
        seat.stats
    }

    fn who(&self) -> String {
        format!("table {} seat {}", self.table, self.name)
    }

    /// The action whose think time is over, as the text to send; notes
    /// when it was sent.
    fn send_pending(&self, seat: &mut Seat) -> Option<String> {
        let (_, v, action) = seat.pending.take()?;
        let now = Instant::now();
        self.clock.v.store(v, Ordering::Relaxed);
        let sent_us = now.duration_since(self.epoch).as_micros() as u64;
        self.clock.sent_us.store(sent_us, Ordering::Relaxed);
        seat.sent = Some((v, now));
        seat.acted_at = Some(v);
        Some(json!({ "t": "act", "v": v, "d": action }).to_string())
    }

    /// Reads one message from the server: counts, measures, and plans the
    /// answer to a decision.
    fn on_text(&mut self, seat: &mut Seat, text: &str) {
        let now = Instant::now();
        let msg: Incoming = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => {
                self.shared
                    .error(format!("{}: unreadable message: {e}", self.who()));
                return;
            }
        };
        match msg.t.as_str() {
            "snapshot" | "catchup" if !seat.counted => {
                seat.counted = true;
                let n = self.shared.connected.fetch_add(1, Ordering::Relaxed) + 1;
                self.shared.connected_max.fetch_max(n, Ordering::Relaxed);
                if let Some(r) = seat.ready.take() {
                    let _ = r.send(true);
                }
            }
            "event" => {
                let e = msg.d.as_ref().and_then(|d| d.e.as_ref());
                let mine =
                    e.is_some_and(|e| e.kind == "act" && e.name.as_deref() == Some(&self.name));
                // Any seat's action reaching this seat.
                if msg.v >= 1 && self.clock.v.load(Ordering::Relaxed) == msg.v - 1 {
                    let sent_us = self.clock.sent_us.load(Ordering::Relaxed);
                    let now_us = now.duration_since(self.epoch).as_micros() as u64;
                    if sent_us > 0 && now_us >= sent_us {
                        seat.stats.broadcast_us.push(micros(now_us - sent_us));
                    }
                }
                // This seat's own action.
                if let Some((v, at)) = seat.sent
                    && msg.v == v + 1
                    && mine
                {
                    seat.stats
                        .action_us
                        .push(micros(now.duration_since(at).as_micros() as u64));
                    self.shared.actions.fetch_add(1, Ordering::Relaxed);
                    seat.sent = None;
                }
            }
            "error" => {
                let why = msg
                    .d
                    .as_ref()
                    .and_then(|d| d.reason.clone())
                    .unwrap_or_default();
                if seat.sent.is_some() {
                    // A refused act: the resync that follows says whether
                    // another seat acted first.
                    seat.refused = Some(why);
                } else {
                    self.shared
                        .error(format!("{}: error at v {}: {why}", self.who(), msg.v));
                }
                return;
            }
            "resync" => {
                let why = seat
                    .refused
                    .take()
                    .unwrap_or_else(|| "a resync without an error".into());
                match seat.sent.take() {
                    Some((v, _)) if msg.v > v => {
                        self.shared.stale.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => self.shared.error(format!(
                        "{}: action refused at v {}: {why}",
                        self.who(),
                        msg.v
                    )),
                }
                seat.acted_at = None;
            }
            _ => {}
        }
        if !matches!(
            msg.t.as_str(),
            "snapshot" | "catchup" | "event" | "presence" | "resync"
        ) {
            return;
        }
        let Some(d) = msg.d.as_ref() else { return };
        let hand = d.view.as_ref().and_then(|v| v.hand.as_deref());
        match (&d.decision, hand) {
            // Saying ready is the table's to do, when the setup pause ends.
            (Some(decision), Some(hand)) if !decision.is_null() && decision["kind"] != "ready" => {
                // One action in flight at a time: its event, or its error
                // and resync, come first.
                if seat.sent.is_some()
                    || seat.acted_at == Some(msg.v)
                    || seat.pending.as_ref().is_some_and(|p| p.1 == msg.v)
                {
                    return;
                }
                match choose(decision, hand) {
                    Some(action) => {
                        let when = tokio::time::Instant::now() + self.think_time();
                        seat.pending = Some((when, msg.v, action));
                    }
                    None => self.shared.error(format!(
                        "{}: cannot choose for {decision} holding {hand:?}",
                        self.who()
                    )),
                }
            }
            // Nothing to decide now: an action planned earlier would be
            // stale.
            _ => {
                if seat.pending.as_ref().is_some_and(|p| p.1 < msg.v) {
                    seat.pending = None;
                }
            }
        }
    }

    async fn connect(&self) -> Result<tokio_tungstenite::WebSocketStream<TcpStream>, String> {
        let stream = TcpStream::connect(self.addr).await.map_err(|e| {
            if e.raw_os_error() == Some(24) {
                format!(
                    "cannot connect to {}: too many open files (raise ulimit -n)",
                    self.addr
                )
            } else {
                format!("cannot connect to {}: {e}", self.addr)
            }
        })?;
        let _ = stream.set_nodelay(true);
        let url = format!("ws://{}/ws/{}", self.addr, self.table);
        let (mut ws, _) = tokio_tungstenite::client_async(url, stream)
            .await
            .map_err(|e| format!("WebSocket handshake: {e}"))?;
        let hello = json!({ "t": "hello", "v": 0, "d": { "token": self.token } });
        ws.send(Message::text(hello.to_string()))
            .await
            .map_err(|e| format!("cannot say hello: {e}"))?;
        Ok(ws)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chooses_legal_actions_from_the_decision_and_hand() {
        let hand = "1 3 3 7 12 J J";
        assert_eq!(
            choose(&json!({"kind": "lead"}), hand),
            Some(json!({"play": "12"}))
        );
        assert_eq!(
            choose(&json!({"kind": "lead"}), "J J"),
            Some(json!({"play": "J"}))
        );
        assert_eq!(
            choose(&json!({"kind": "tax", "to": 4, "count": 2}), hand),
            Some(json!({"give_tax": "7 12"}))
        );
        assert_eq!(
            choose(&json!({"kind": "tax", "to": 4, "count": 2}), "5 J"),
            Some(json!({"give_tax": "5 J"}))
        );
        assert_eq!(
            choose(&json!({"kind": "follow", "top": "9", "by": 2}), hand),
            Some(json!("pass"))
        );
        assert_eq!(
            choose(
                &json!({"kind": "answer_exchange", "from": 3, "card": 4}),
                hand
            ),
            Some(json!({"answer_exchange": "12"}))
        );
        assert_eq!(
            choose(&json!({"kind": "offer_exchange"}), hand),
            Some(json!("decline_exchange"))
        );
        assert_eq!(choose(&json!({"kind": "dance"}), hand), None);
        assert_eq!(choose(&json!({"kind": "lead"}), ""), None);
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
