//! Test clients for the server over real sockets: a server on 127.0.0.1:0
//! in this process, a small HTTP/1.1 client, a small WebSocket client (so
//! the tests can also send what a library would refuse to: binary and
//! oversized frames) and scripted players that play any legal action.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dalmuti_core::wire::Wire;
use dalmuti_core::{Action, Decision, SetKind, Variant};
use dalmuti_server::Config;
use dalmuti_server::http::{BotAdded, Created, Seated};
use dalmuti_server::protocol::{
    ChatLine, ErrorKind, MsgType, News, NewsLine, Refusal, ServerMsg, State, StateKind, StateMsg,
    TableInfo, Told,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// How long a test waits for something the server must send.
pub const WAIT: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------------
// The server.

/// A server running in this process on a temporary database.
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<Result<(), dalmuti_server::ServerError>>>,
    dir: Option<PathBuf>,
    /// The PostgreSQL database it runs on instead of a file in `dir`.
    database_url: Option<String>,
}

impl Server {
    /// Starts a server with `Config::for_tests()` changed by `tweak`.
    pub async fn start(tweak: impl FnOnce(&mut Config)) -> Server {
        Server::start_in(fresh_dir(), None, tweak).await
    }

    /// Starts a server on the PostgreSQL database at `url` (a
    /// `TestSchema`'s). It still gets a folder of its own (empty): the
    /// folder is removed when the server is dropped.
    pub async fn start_on_postgres(url: &str, tweak: impl FnOnce(&mut Config)) -> Server {
        Server::start_in(fresh_dir(), Some(url.to_string()), tweak).await
    }

    /// Starts a server on the data in `dir`, or on PostgreSQL.
    async fn start_in(
        dir: PathBuf,
        database_url: Option<String>,
        tweak: impl FnOnce(&mut Config),
    ) -> Server {
        let mut config = Config {
            data: dir.join("server.sqlite"),
            database_url: database_url.clone(),
            ..Config::for_tests()
        };
        tweak(&mut config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(dalmuti_server::serve(config, listener, async move {
            let _ = stopped.await;
        }));
        Server {
            addr,
            stop: Some(stop),
            task: Some(task),
            dir: Some(dir),
            database_url,
        }
    }

    /// The SQLite file it keeps its tables in (none on PostgreSQL).
    pub fn sqlite_file(&self) -> Option<PathBuf> {
        match (&self.dir, &self.database_url) {
            (Some(dir), None) => Some(dir.join("server.sqlite")),
            _ => None,
        }
    }

    /// Stops the server and starts it again on the same data, with
    /// `Config::for_tests()` changed by `tweak`.
    pub async fn restart(mut self, tweak: impl FnOnce(&mut Config)) -> Server {
        let dir = self.dir.take().unwrap();
        let database_url = self.database_url.take();
        self.stop().await;
        Server::start_in(dir, database_url, tweak).await
    }

    /// Stops the server and waits until it has.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let result = tokio::time::timeout(WAIT, task)
                .await
                .expect("the server stops");
            result.unwrap().unwrap();
        }
    }

    /// HTTP with a JSON body (or none).
    pub async fn http(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let body = body.map(|b| b.to_string());
        http(self.addr, method, path, token, body.as_deref()).await
    }

    /// Creates a table; returns its id and the creator's token.
    pub async fn create_table(&self, body: Value) -> (String, String) {
        let (status, created) = self.http("POST", "/api/tables", None, Some(body)).await;
        assert_eq!(status, 201, "create a table: {created}");
        let created: Created = answer(&created);
        (created.id.to_string(), created.token.as_str().to_string())
    }

    /// Takes a seat named `name`; returns its token.
    pub async fn take_seat(&self, id: &str, name: &str) -> String {
        let path = format!("/api/tables/{id}/seats");
        let (status, seat) = self
            .http("POST", &path, None, Some(json!({ "name": name })))
            .await;
        assert_eq!(status, 201, "take a seat: {seat}");
        answer::<Seated>(&seat).token.as_str().to_string()
    }

    /// Adds a bot as the host.
    pub async fn add_bot(&self, id: &str, host: &str, bot: &str) -> String {
        let path = format!("/api/tables/{id}/bots");
        let (status, added) = self
            .http("POST", &path, Some(host), Some(json!({ "bot": bot })))
            .await;
        assert_eq!(status, 201, "add a bot: {added}");
        answer::<BotAdded>(&added).name.to_string()
    }

    /// Starts the game as the host.
    pub async fn start_game(&self, id: &str, host: &str) {
        let path = format!("/api/tables/{id}/start");
        let (status, body) = self.http("POST", &path, Some(host), None).await;
        assert_eq!(status, 204, "start: {body}");
    }

    /// The table's INFO.
    pub async fn info(&self, id: &str) -> Value {
        let (status, info) = self
            .http("GET", &format!("/api/tables/{id}"), None, None)
            .await;
        assert_eq!(status, 200, "table info: {info}");
        info
    }

    /// The table's INFO as the server's type: a field renamed or retyped
    /// fails here.
    pub async fn table_info(&self, id: &str) -> TableInfo {
        let info = self.info(id).await;
        serde_json::from_value(info.clone())
            .unwrap_or_else(|e| panic!("an INFO that does not read as the server's: {e}: {info}"))
    }

    /// The lobby's list at `path` (`/api/tables`, with a query or none),
    /// each table read as the server's INFO type.
    pub async fn lobby(&self, path: &str) -> Vec<TableInfo> {
        /// The listing's shape.
        #[derive(serde::Deserialize)]
        struct Listing {
            tables: Vec<TableInfo>,
        }
        let (status, listing) = self.http("GET", path, None, None).await;
        assert_eq!(status, 200, "the lobby: {listing}");
        serde_json::from_value::<Listing>(listing.clone())
            .unwrap_or_else(|e| {
                panic!("a listing that does not read as the server's: {e}: {listing}")
            })
            .tables
    }

    /// Opens a WebSocket to table `id`.
    pub async fn ws(&self, id: &str) -> Ws {
        Ws::connect(self.addr, &format!("/ws/{id}")).await
    }

    /// Opens a WebSocket and says hello; returns it and the answer.
    pub async fn hello(&self, id: &str, token: Option<&str>, v: u64) -> (Ws, Value) {
        let mut ws = self.ws(id).await;
        ws.send_json(&hello(token, v)).await;
        let answer = ws.recv_json().await;
        (ws, answer)
    }

    /// [`Server::hello`], the answer read as the wire's type.
    pub async fn hello_msg(&self, id: &str, token: Option<&str>, v: u64) -> (Ws, ServerMsg) {
        let mut ws = self.ws(id).await;
        ws.send_json(&hello(token, v)).await;
        let answer = ws.recv_msg().await;
        (ws, answer)
    }
}

/// A new empty folder for one server's data, removed with the server.
fn fresh_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "dalmuti-sockets-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A `hello` message.
pub fn hello(token: Option<&str>, v: u64) -> Value {
    match token {
        Some(token) => json!({ "t": "hello", "v": v, "d": { "token": token } }),
        None => json!({ "t": "hello", "v": v, "d": {} }),
    }
}

// ---------------------------------------------------------------------------
// HTTP/1.1, one request per connection.

/// Sends one request; answers the status and the body as JSON (Null when
/// empty, a string when not JSON).
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (u16, Value) {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(token) = token {
        head += &format!("Authorization: Bearer {token}\r\n");
    }
    let body = body.unwrap_or("");
    head += &format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    raw_http(addr, &[head.as_bytes(), body.as_bytes()].concat()).await
}

/// Sends bytes as they are; answers the status and the body.
pub async fn raw_http(addr: SocketAddr, request: &[u8]) -> (u16, Value) {
    let (status, _, body) = raw_http_head(addr, request).await;
    (status, body)
}

/// Sends bytes as they are; answers the status, the head (status line and
/// headers, lowercased) and the body.
pub async fn raw_http_head(addr: SocketAddr, request: &[u8]) -> (u16, String, Value) {
    raw_http_head_from(None, addr, request).await
}

/// [`raw_http_head`] from local address `from` (any of 127.0.0.0/8 reaches
/// a server on 127.0.0.1): a client at another place, as the server sees
/// it.
pub async fn raw_http_head_from(
    from: Option<std::net::IpAddr>,
    addr: SocketAddr,
    request: &[u8],
) -> (u16, String, Value) {
    let mut stream = match from {
        None => TcpStream::connect(addr).await.unwrap(),
        Some(ip) => {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket.bind(SocketAddr::new(ip, 0)).unwrap();
            socket.connect(addr).await.unwrap()
        }
    };
    // The server may answer (413) before reading everything: a failed
    // write is then not the test's concern, the answer is.
    let sent = stream.write_all(request).await;
    let asked = std::time::Instant::now();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(WAIT, stream.read_to_end(&mut answer))
        .await
        .expect("an HTTP answer");
    let text = String::from_utf8_lossy(&answer);
    // How the connection ended says whose fault a missing answer is: a
    // reset, a close after a timeout of the server's, or a lost write.
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            panic!(
                "not an HTTP answer: {text:?} (sending: {sent:?}; reading: {read:?}, \
                 {:?} after the request)",
                asked.elapsed()
            )
        });
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    let value = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&body).unwrap_or(Value::String(body))
    };
    (status, head.to_ascii_lowercase(), value)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out += &rest[..size];
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

// ---------------------------------------------------------------------------
// WebSocket (RFC 6455), client side.

/// A frame from the server.
#[derive(Debug)]
pub enum Frame {
    /// A text message.
    Text(String),
    /// A binary message.
    Binary(Vec<u8>),
    /// A close frame: its code and reason.
    Close(Option<u16>, String),
    /// A ping, when the connection does not answer them
    /// ([`Ws::answer_pings`] false).
    Ping,
}

/// A WebSocket connection.
pub struct Ws {
    stream: BufReader<TcpStream>,
    /// Whether [`Ws::recv`] answers pings, as browsers do (the default);
    /// if not it returns them as [`Frame::Ping`].
    pub answer_pings: bool,
}

impl Ws {
    /// Connects and upgrades; panics with the server's answer if it refuses.
    pub async fn connect(addr: SocketAddr, path: &str) -> Ws {
        match Ws::try_connect(addr, path).await {
            Ok(ws) => ws,
            Err((status, body)) => panic!("WebSocket to {path} refused: {status} {body}"),
        }
    }

    /// Connects and upgrades, or answers the HTTP status and body.
    pub async fn try_connect(addr: SocketAddr, path: &str) -> Result<Ws, (u16, String)> {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let _ = stream.set_nodelay(true);
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Sec-WebSocket-Version: 13\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut stream = BufReader::new(stream);
        let mut line = String::new();
        stream.read_line(&mut line).await.unwrap();
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let mut head = String::new();
        loop {
            let mut header = String::new();
            if stream.read_line(&mut header).await.unwrap() == 0 || header.trim().is_empty() {
                break;
            }
            head += &header;
        }
        if status != 101 {
            let mut body = Vec::new();
            let _ = stream.read_to_end(&mut body).await;
            return Err((status, String::from_utf8_lossy(&body).into_owned()));
        }
        Ok(Ws {
            stream,
            answer_pings: true,
        })
    }

    /// Sends one frame, masked as a client must.
    pub async fn send_frame(&mut self, opcode: u8, payload: &[u8]) -> std::io::Result<()> {
        let mask = [0x37, 0xfa, 0x21, 0x3d];
        let mut frame = vec![0x80 | opcode];
        match payload.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n <= 0xffff => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.stream.get_mut().write_all(&frame).await
    }

    /// Sends `bytes` as they are (the start of a frame, say).
    pub async fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stream.get_mut().write_all(bytes).await
    }

    /// Sends a text frame.
    pub async fn send_text(&mut self, text: &str) {
        self.send_frame(1, text.as_bytes()).await.unwrap();
    }

    /// Sends a JSON message.
    pub async fn send_json(&mut self, message: &Value) {
        self.send_text(&message.to_string()).await;
    }

    /// The next frame (pings are answered), or None at the end of the
    /// connection.
    pub async fn recv(&mut self) -> Option<Frame> {
        let mut message = Vec::new();
        let mut kind = 0;
        loop {
            let mut head = [0u8; 2];
            self.stream.read_exact(&mut head).await.ok()?;
            let (fin, opcode) = (head[0] & 0x80 != 0, head[0] & 0x0f);
            let mut len = u64::from(head[1] & 0x7f);
            if len == 126 {
                let mut b = [0u8; 2];
                self.stream.read_exact(&mut b).await.ok()?;
                len = u64::from(u16::from_be_bytes(b));
            } else if len == 127 {
                let mut b = [0u8; 8];
                self.stream.read_exact(&mut b).await.ok()?;
                len = u64::from_be_bytes(b);
            }
            let mut payload = vec![0; len as usize];
            self.stream.read_exact(&mut payload).await.ok()?;
            match opcode {
                0x9 if !self.answer_pings => return Some(Frame::Ping),
                0x9 => {
                    self.send_frame(0xA, &payload).await.ok()?;
                    continue;
                }
                0xA => continue,
                0x8 => {
                    let code =
                        (payload.len() >= 2).then(|| u16::from_be_bytes([payload[0], payload[1]]));
                    let reason =
                        String::from_utf8_lossy(payload.get(2..).unwrap_or(&[])).into_owned();
                    return Some(Frame::Close(code, reason));
                }
                0x0 => message.extend_from_slice(&payload),
                op => {
                    kind = op;
                    message = payload;
                }
            }
            if fin {
                return Some(match kind {
                    1 => Frame::Text(String::from_utf8_lossy(&message).into_owned()),
                    _ => Frame::Binary(message),
                });
            }
        }
    }

    /// The next frame, waiting at most [`WAIT`].
    pub async fn recv_within(&mut self, wait: Duration) -> Option<Option<Frame>> {
        tokio::time::timeout(wait, self.recv()).await.ok()
    }

    /// The next message as JSON; panics on anything else.
    pub async fn recv_json(&mut self) -> Value {
        match self.recv_within(WAIT).await {
            Some(Some(Frame::Text(text))) => serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("the server sent non-JSON text {text:?}: {e}")),
            Some(other) => panic!("expected a JSON message, got {other:?}"),
            None => panic!("no message within {WAIT:?}"),
        }
    }

    /// Reads messages until one satisfies `pred`; returns it.
    pub async fn recv_until(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        loop {
            let m = self.recv_json().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// The next message as the wire's own type (a field renamed or
    /// retyped fails here); panics on anything else.
    pub async fn recv_msg(&mut self) -> ServerMsg {
        match self.recv_within(WAIT).await {
            Some(Some(Frame::Text(text))) => msg_of(&text),
            Some(other) => panic!("expected a message, got {other:?}"),
            None => panic!("no message within {WAIT:?}"),
        }
    }

    /// Reads messages until one satisfies `pred`; returns it.
    pub async fn recv_until_msg(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let m = self.recv_msg().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// Reads messages until a refusal (`error`); returns it.
    pub async fn recv_refusal(&mut self) -> Refusal {
        let m = self.recv_until_msg(|m| m.t() == MsgType::Error).await;
        m.refusal().cloned().expect("an error message")
    }

    /// Reads messages until one that carries STATE; returns it.
    pub async fn recv_state(&mut self) -> ServerMsg {
        self.recv_until_msg(|m| m.state().is_some()).await
    }

    /// Sends a close frame.
    pub async fn close(mut self) {
        let _ = self.send_frame(8, &1000u16.to_be_bytes()).await;
    }
}

// ---------------------------------------------------------------------------
// Choosing a legal action.

/// A hand by kind: numbered cards by value (index 0, the World Ruler, to
/// 12), the wild cards (Jesters or Dogberts), and Corporate Shuffle's
/// Twirling Wedgie and Ratbert.
struct Cards {
    counts: [usize; 13],
    wilds: usize,
    /// The wild card's token: `J` or `D`.
    wild: &'static str,
    wedgie: bool,
    ratbert: bool,
}

impl Cards {
    fn parse(cards: &str) -> Cards {
        let mut c = Cards {
            counts: [0; 13],
            wilds: 0,
            wild: "J",
            wedgie: false,
            ratbert: false,
        };
        // A set of Dogberts alone says its value after the cards.
        for token in cards.split(" as ").next().unwrap_or("").split_whitespace() {
            match token {
                "J" => c.wilds += 1,
                "D" => {
                    c.wilds += 1;
                    c.wild = "D";
                }
                "T" => c.wedgie = true,
                "R" => c.ratbert = true,
                n => c.counts[n.parse::<usize>().unwrap()] += 1,
            }
        }
        c
    }

    fn len(&self) -> usize {
        self.counts.iter().sum::<usize>()
            + self.wilds
            + usize::from(self.wedgie)
            + usize::from(self.ratbert)
    }

    /// The `n` worst cards: Ratbert, the highest numbers (the Wedgie after
    /// the plain 6s), then the wild cards.
    fn worst(&self, n: usize) -> String {
        let mut picked: Vec<String> = Vec::new();
        if self.ratbert {
            picked.push("R".into());
        }
        for rank in (0..=12).rev() {
            for _ in 0..self.counts[rank] {
                picked.push(rank.to_string());
            }
            if rank == 6 && self.wedgie {
                picked.push("T".into());
            }
        }
        picked.extend(std::iter::repeat_n(self.wild.to_string(), self.wilds));
        picked.truncate(n);
        picked.reverse();
        picked.join(" ")
    }
}

/// The value a played set is compared by: `as V` for Dogberts alone, the
/// numbered cards' (6 for the Wedgie, 11 for Ratbert), or 13 for Jesters
/// alone.
fn set_value(set: &str) -> usize {
    if let Some((_, value)) = set.split_once(" as ") {
        return value.parse().unwrap();
    }
    let cards = Cards::parse(set);
    if cards.ratbert {
        return 11;
    }
    if cards.wedgie {
        return 6;
    }
    (0..=12).find(|&r| cards.counts[r] > 0).unwrap_or(13)
}

/// The action the test's reading of the rules chose, as the wire writes it
/// and the server reads it.
fn wire_action(chosen: Value) -> Action {
    serde_json::from_value::<Wire<Action>>(chosen.clone())
        .unwrap_or_else(|e| panic!("{chosen} is no action: {e}"))
        .0
}

/// A play of `set` from `state`: with the Twirling Wedgie it names the
/// first other player who still holds cards, unless the play ends the hand.
fn play_of(state: &State, set: String, size: usize, hand: &Cards) -> Action {
    if !set.split(' ').any(|t| t == "T") {
        return wire_action(json!({ "play": set }));
    }
    let view = state.view.as_ref().expect("a play is chosen with a view");
    let others: Vec<usize> = (view.seats.iter().enumerate())
        .filter(|(i, s)| Some(*i) != view.seat && s.cards > 0)
        .map(|(i, _)| i)
        .collect();
    if hand.len() == size && others.len() == 1 {
        return wire_action(json!({ "play": set }));
    }
    wire_action(json!({ "play": set, "wedgie": others[0] }))
}

/// STATE's data `d` as the server's wire type: a field renamed or retyped
/// fails here.
pub fn state_of(d: &Value) -> StateMsg {
    serde_json::from_value(d.clone())
        .unwrap_or_else(|e| panic!("a STATE that does not read as the server's: {e}: {d}"))
}

/// [`choose_for`] of STATE's data `d`, read as the server's wire type.
pub fn choose(d: &Value) -> Option<Wire<Action>> {
    choose_for(&state_of(d))
}

/// A legal action for STATE's `decision` holding STATE's `view.hand`: no
/// revolution and no exchange offer, the worst cards as tax or in answer,
/// lead the Twirling Wedgie or a lone Dogbert (as a 10) when held, else the
/// worst single card, follow with the worst set that tops (numbered cards
/// and the Wedgie only) or pass. A play of the Wedgie names a target. None
/// for `ready`: the table says that for everyone.
///
/// Checks STATE's `legal` on the way: there exactly when there is a
/// decision, and holding the action chosen here by the rules as this test
/// reads them (two readings of the rules that must agree).
pub fn choose_for(msg: &StateMsg) -> Option<Wire<Action>> {
    let state = &msg.state;
    let legal = state.legal.as_deref();
    let Some(Wire(decision)) = &state.decision else {
        assert!(
            legal.is_none(),
            "legal actions without a decision: {state:?}"
        );
        return None;
    };
    let legal = legal.unwrap_or_else(|| panic!("a decision without its legal actions: {state:?}"));
    if matches!(state.rules.variant, Variant::Daifugo | Variant::President) {
        return choose_among(legal, state, decision);
    }
    let chosen = choose_by_the_rules(state, decision)?;
    assert!(
        legal.contains(&Wire(chosen)),
        "{chosen:?} is not among the legal actions {legal:?} of {decision:?}"
    );
    Some(Wire(chosen))
}

/// President and Daifugō: one of the `legal` actions as a person picks it,
/// no rule read here; which one varies with the hand and the choices, so
/// whole games meet sets, Jokers, sequences and passes. None for `ready`.
fn choose_among(
    legal: &[Wire<Action>],
    state: &State,
    decision: &Decision,
) -> Option<Wire<Action>> {
    if *decision == Decision::Ready || legal.is_empty() {
        return None;
    }
    let held = (state.view.as_ref())
        .and_then(|v| v.hand.as_deref())
        .map_or(0, |h| h.split_whitespace().count());
    // Pass now and then, play mostly: a game ends either way.
    let plays: Vec<&Wire<Action>> = legal.iter().filter(|a| a.0 != Action::Pass).collect();
    let stir = held * 31 + legal.len() * 7 + state.hand;
    // A sequence, or else a set with a Joker in it, two times in three
    // that one may be played: they are few among the legal plays, and
    // whole games must meet them whatever the deals (at random, eleven
    // hands once had no sequence).
    let sequence =
        |a: &&&Wire<Action>| matches!(a.0, Action::Play(set) if set.kind() == SetKind::Sequence);
    let joker_in_set =
        |a: &&&Wire<Action>| matches!(a.0, Action::Play(set) if set.size() > 1 && set.wilds() > 0);
    if stir % 3 != 0
        && let Some(play) =
            (plays.iter().find(sequence)).or_else(|| plays.iter().find(joker_in_set))
    {
        return Some(**play);
    }
    if plays.is_empty() || stir % 5 == 0 {
        return Some(legal[stir % legal.len()]);
    }
    Some(*plays[stir % plays.len()])
}

fn choose_by_the_rules(state: &State, decision: &Decision) -> Option<Action> {
    let held = state.view.as_ref().and_then(|v| v.hand.as_deref());
    let hand = Cards::parse(held.unwrap_or(""));
    Some(match decision {
        Decision::Tax { count, .. } => {
            wire_action(json!({ "give_tax": hand.worst(usize::from(*count)) }))
        }
        Decision::ExchangeOffer => Action::DeclineExchange,
        Decision::ExchangeAnswer { .. } => wire_action(json!({ "answer_exchange": hand.worst(1) })),
        // Corporate Shuffle's specials are led as soon as held, so every
        // game sends a Wedgie's target and a Dogbert's value.
        Decision::Lead if hand.wedgie => play_of(state, "T".into(), 1, &hand),
        Decision::Lead if hand.wild == "D" && hand.wilds > 0 => {
            wire_action(json!({ "play": "D as 10" }))
        }
        Decision::Lead => play_of(state, hand.worst(1), 1, &hand),
        Decision::Follow { top, .. } => {
            let top = top.to_string();
            let n = Cards::parse(&top).len();
            let value = set_value(&top);
            let available = |r: usize| hand.counts[r] + usize::from(r == 6 && hand.wedgie);
            // The World Ruler is played alone.
            match (0..value)
                .rev()
                .find(|&r| available(r) >= n && (r > 0 || n == 1))
            {
                Some(r) => {
                    let naturals = hand.counts[r].min(n);
                    let mut cards = vec![r.to_string(); naturals];
                    if naturals < n {
                        cards.push("T".into());
                    }
                    play_of(state, cards.join(" "), n, &hand)
                }
                None => Action::Pass,
            }
        }
        _ => return None,
    })
}

/// A refused HTTP request's body, `{"error": REASON}`, read as the
/// server's type: a body that is not one fails here.
pub fn error_body(body: &Value) -> dalmuti_server::error::ErrorBody {
    serde_json::from_value(body.clone())
        .unwrap_or_else(|e| panic!("not an error body: {e}: {body}"))
}

/// An HTTP answer's body read as the server's own type for it
/// (`Created`, `Seated`, `Registered`…): a field renamed or retyped
/// fails here.
pub fn answer<T: serde::de::DeserializeOwned>(body: &Value) -> T {
    serde_json::from_value(body.clone()).unwrap_or_else(|e| {
        panic!(
            "an answer that does not read as the server's {}: {e}: {body}",
            std::any::type_name::<T>()
        )
    })
}

/// A server message's text read as the wire's own type: a field renamed
/// or retyped fails here.
pub fn msg_of(text: &str) -> ServerMsg {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not a server message {text:?}: {e}"))
}

/// A message a [`Player`] logged, read as the wire's own type.
pub fn msg_from(m: &Value) -> ServerMsg {
    msg_of(&m.to_string())
}

/// What a [`ServerMsg`] tells, read by its type (the test crate's own
/// reading of the wire's enum).
pub trait Reading {
    /// The refusal, if the message is one.
    fn refusal(&self) -> Option<&Refusal>;
    /// The chat line, if the message is one.
    fn chat_line(&self) -> Option<&ChatLine>;
    /// The news line, if the message is one.
    fn news_line(&self) -> Option<&NewsLine>;
    /// The news it tells, if it is a news line.
    fn news(&self) -> Option<&News> {
        self.news_line().map(|line| &line.news)
    }
    /// The STATE it carries; panics, naming the message, if it carries none.
    fn expect_state(&self) -> &StateMsg;
}

impl Reading for ServerMsg {
    fn refusal(&self) -> Option<&Refusal> {
        match &self.told {
            Told::Error(refusal) => Some(refusal),
            _ => None,
        }
    }

    fn chat_line(&self) -> Option<&ChatLine> {
        match &self.told {
            Told::Chat(line) => Some(line),
            _ => None,
        }
    }

    fn news_line(&self) -> Option<&NewsLine> {
        match &self.told {
            Told::News(line) => Some(line),
            _ => None,
        }
    }

    fn expect_state(&self) -> &StateMsg {
        self.state()
            .unwrap_or_else(|| panic!("a message without STATE: {}", self.to_text()))
    }
}

/// Whether a message's STATE asks its seat to play: to lead or follow.
pub fn asks_to_play(m: &ServerMsg) -> bool {
    let decision = m.state().and_then(|s| s.state.decision.as_ref());
    matches!(
        decision,
        Some(Wire(Decision::Lead | Decision::Follow { .. }))
    )
}

/// Whether a server message carries STATE (it has a `view`).
pub fn has_state(m: &Value) -> bool {
    let t = serde_json::from_value::<MsgType>(m["t"].clone());
    matches!(
        t,
        Ok(MsgType::Snapshot
            | MsgType::Catchup
            | MsgType::Event
            | MsgType::Presence
            | MsgType::Resync)
    )
}

// ---------------------------------------------------------------------------
// Scripted players.

/// What a [`Player`] answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Mode {
    /// Nothing: it only records (a spectator, a second connection).
    Watch = 0,
    /// Every decision.
    All = 1,
    /// Every decision but leading and following: the game waits for this
    /// seat at its first play.
    NoPlay = 2,
}

/// A seat played by a task: it connects, says hello and plays a legal action
/// whenever it has a decision (as its [`Mode`] says), recording every
/// message it receives, until the game is over or it is stopped.
pub struct Player {
    /// The seat's name.
    pub name: String,
    /// Every message received, in order.
    pub log: Arc<Mutex<Vec<Value>>>,
    /// Every message received, as the server wrote it.
    pub texts: Arc<Mutex<Vec<String>>>,
    /// Its [`Mode`], as a number.
    pub mode: Arc<AtomicU8>,
    /// Every message received, for the test to wait on.
    pub rx: mpsc::UnboundedReceiver<Value>,
    task: tokio::task::JoinHandle<()>,
}

impl Player {
    /// Connects seat `name` (token `token`, or a spectator with None) to
    /// table `id`, saying hello with `v`.
    pub async fn join(
        server: &Server,
        id: &str,
        name: &str,
        token: Option<&str>,
        v: u64,
        mode: Mode,
    ) -> Player {
        let mut ws = server.ws(id).await;
        ws.send_json(&hello(token, v)).await;
        let log = Arc::new(Mutex::new(Vec::new()));
        let texts = Arc::new(Mutex::new(Vec::new()));
        let mode = Arc::new(AtomicU8::new(mode as u8));
        let (tx, rx) = mpsc::unbounded_channel();
        let heard = Heard {
            log: log.clone(),
            texts: texts.clone(),
        };
        let task = tokio::spawn(play(ws, heard, mode.clone(), tx));
        Player {
            name: name.to_string(),
            log,
            texts,
            mode,
            rx,
            task,
        }
    }

    /// Waits for a message that satisfies `pred` (among those not yet
    /// waited on); returns it.
    pub async fn wait_for(&mut self, what: &str, mut pred: impl FnMut(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            match tokio::time::timeout_at(deadline, self.rx.recv()).await {
                Ok(Some(m)) if pred(&m) => return m,
                Ok(Some(_)) => {}
                Ok(None) => panic!("{}: the connection ended before {what}", self.name),
                Err(_) => panic!("{}: no {what} within {WAIT:?}", self.name),
            }
        }
    }

    /// [`Player::wait_for`] reading each message as the wire's type.
    pub async fn wait_for_msg(
        &mut self,
        what: &str,
        mut pred: impl FnMut(&ServerMsg) -> bool,
    ) -> ServerMsg {
        let m = self.wait_for(what, |m| pred(&msg_from(m))).await;
        msg_from(&m)
    }

    /// Waits until the task ends (game over or connection closed); returns
    /// every message received.
    pub async fn finish(self) -> Vec<Value> {
        let name = self.name.clone();
        tokio::time::timeout(Duration::from_secs(120), self.task)
            .await
            .unwrap_or_else(|_| panic!("{name}: the game did not end"))
            .unwrap();
        self.log.lock().unwrap().clone()
    }

    /// Drops the connection at once, as a crashed browser would; returns
    /// every message received.
    pub fn drop_connection(self) -> Vec<Value> {
        self.task.abort();
        self.log.lock().unwrap().clone()
    }
}

/// Where a [`Player`] keeps what it heard: read, and as written.
struct Heard {
    log: Arc<Mutex<Vec<Value>>>,
    texts: Arc<Mutex<Vec<String>>>,
}

async fn play(mut ws: Ws, heard: Heard, mode: Arc<AtomicU8>, tx: mpsc::UnboundedSender<Value>) {
    let mut acted_at = None;
    loop {
        let (m, msg) = match ws.recv().await {
            Some(Frame::Text(text)) => {
                heard.texts.lock().unwrap().push(text.to_string());
                let m = serde_json::from_str::<Value>(&text)
                    .unwrap_or_else(|e| panic!("non-JSON text {text:?}: {e}"));
                // The wire's own type: a field renamed or retyped fails here.
                let msg = serde_json::from_str::<ServerMsg>(&text)
                    .unwrap_or_else(|e| panic!("not a server message {text:?}: {e}"));
                (m, msg)
            }
            Some(Frame::Close(..)) | None => return,
            Some(Frame::Binary(b)) => panic!("the server sent a binary frame: {b:?}"),
            Some(Frame::Ping) => continue,
        };
        heard.log.lock().unwrap().push(m.clone());
        let _ = tx.send(m);
        let v = msg.v;
        // Faster than any person, it may hit the message rate limit: the
        // refused action comes back with a resync; wait, then act again.
        if let Told::State(StateKind::Resync, state) = &msg.told
            && state.error_kind == Some(ErrorKind::TooMany)
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
            acted_at = None;
        }
        let Some(state) = msg.state() else { continue };
        if state.state.game_over {
            return;
        }
        let decision = state.state.decision.as_ref().map(|d| &d.0);
        let answer = match mode.load(Ordering::Relaxed) {
            1 => true,
            2 => !matches!(decision, Some(Decision::Lead | Decision::Follow { .. })),
            _ => false,
        };
        if answer
            && acted_at != Some(v)
            && let Some(action) = choose_for(state)
        {
            acted_at = Some(v);
            ws.send_json(&json!({ "t": "act", "v": v, "d": action }))
                .await;
        }
    }
}
