//! The run: tables made, seats connected, games played for the duration.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;

use serde_json::{Value, json};

use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

use crate::args::{LoadtestArgs, tables_for};
use crate::choose::choose;
use crate::http::{Http, reason};
use crate::report::{ClientStats, Report};
use crate::server::process_usage;

// The run.

/// One table the load test made.
pub(crate) struct TableSetup {
    /// The node that made it, which serves it.
    pub(crate) addr: SocketAddr,
    pub(crate) id: String,
    pub(crate) host_token: String,
    pub(crate) tokens: Vec<(String, String)>,
}

/// Counters shared by every client.
#[derive(Default)]
pub(crate) struct Shared {
    pub(crate) connected: AtomicUsize,
    pub(crate) connected_max: AtomicUsize,
    pub(crate) actions: AtomicU64,
    pub(crate) stale: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) first_errors: Mutex<Vec<String>>,
}

impl Shared {
    pub(crate) fn error(&self, what: String) {
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
pub(crate) struct TableClock {
    pub(crate) v: AtomicU64,
    pub(crate) sent_us: AtomicU64,
}

pub(crate) async fn run(
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
pub(crate) async fn make_table(
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

pub(crate) fn seed_for(name: &str, table: &str) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    for b in name.bytes().chain(table.bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h | 1
}

/// Where one client's connection stands.
#[derive(Default)]
pub(crate) struct Seat {
    /// Said hello and counted as connected.
    pub(crate) counted: bool,
    /// Told once the hello is answered.
    pub(crate) ready: Option<tokio::sync::mpsc::UnboundedSender<bool>>,
    /// The action waiting for its think time: (when, v, action).
    pub(crate) pending: Option<(tokio::time::Instant, u64, Value)>,
    /// The action in flight: (the v it was chosen at, when it was sent).
    pub(crate) sent: Option<(u64, Instant)>,
    /// The event number of the last action sent.
    pub(crate) acted_at: Option<u64>,
    /// The reason of a refused act, until its resync arrives.
    pub(crate) refused: Option<String>,
    pub(crate) stats: ClientStats,
}

/// Microseconds, capped to fit 32 bits (71 minutes).
pub(crate) fn micros(us: u64) -> u32 {
    us.min(u64::from(u32::MAX)) as u32
}

/// The parts of a server message a client reads.
#[derive(Deserialize)]
pub(crate) struct Incoming {
    pub(crate) t: String,
    #[serde(default)]
    pub(crate) v: u64,
    #[serde(default)]
    pub(crate) d: Option<IncomingData>,
}

#[derive(Deserialize)]
pub(crate) struct IncomingData {
    #[serde(default)]
    pub(crate) decision: Option<Value>,
    /// The seat's legal actions now (with a decision).
    #[serde(default)]
    pub(crate) legal: Option<Vec<Value>>,
    #[serde(default)]
    pub(crate) e: Option<IncomingEvent>,
    #[serde(default)]
    pub(crate) reason: Option<String>,
}

#[derive(Deserialize)]
pub(crate) struct IncomingEvent {
    #[serde(default)]
    pub(crate) kind: String,
    #[serde(default)]
    pub(crate) name: Option<String>,
}

/// One scripted seat.
pub(crate) struct Client {
    pub(crate) addr: SocketAddr,
    pub(crate) table: String,
    pub(crate) name: String,
    pub(crate) token: String,
    pub(crate) think: Duration,
    pub(crate) shared: Arc<Shared>,
    pub(crate) clock: Arc<TableClock>,
    pub(crate) epoch: Instant,
    pub(crate) rng: u64,
}

impl Client {
    pub(crate) fn think_time(&mut self) -> Duration {
        // xorshift64: half to one and a half times the mean.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        let fraction = 0.5 + (self.rng % 1000) as f64 / 1000.0;
        self.think.mul_f64(fraction)
    }

    pub(crate) async fn run(
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

    pub(crate) fn who(&self) -> String {
        format!("table {} seat {}", self.table, self.name)
    }

    /// The action whose think time is over, as the text to send; notes
    /// when it was sent.
    pub(crate) fn send_pending(&self, seat: &mut Seat) -> Option<String> {
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
    pub(crate) fn on_text(&mut self, seat: &mut Seat, text: &str) {
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
        match (&d.decision, &d.legal) {
            // Saying ready is the table's to do, when the setup pause ends.
            (Some(decision), Some(legal)) if !decision.is_null() && decision["kind"] != "ready" => {
                // One action in flight at a time: its event, or its error
                // and resync, come first.
                if seat.sent.is_some()
                    || seat.acted_at == Some(msg.v)
                    || seat.pending.as_ref().is_some_and(|p| p.1 == msg.v)
                {
                    return;
                }
                match choose(legal) {
                    Some(action) => {
                        let when = tokio::time::Instant::now() + self.think_time();
                        seat.pending = Some((when, msg.v, action));
                    }
                    None => self.shared.error(format!(
                        "{}: no legal action listed for {decision}",
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

    pub(crate) async fn connect(
        &self,
    ) -> Result<tokio_tungstenite::WebSocketStream<TcpStream>, String> {
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
