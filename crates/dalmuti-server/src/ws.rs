//! One WebSocket connection to a table (`docs/PROTOCOL.md`): `hello`
//! first, then the table's feed out and the client's messages in, each
//! answered or refused with a reason.

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, broadcast, watch};

use tokio::time::Instant;

use crate::accept::ConnectionSlot;
use crate::error::{BadRequest, ServerError, TooMany};
use crate::names::PlayerName;
use crate::protocol::{ClientMsg, Moved, MsgType, Outgoing, ServerMsg, StateKind, Told};
use crate::table::{self, Speaker, TableHandle};
use crate::token::SeatToken;

/// The largest WebSocket frame read at all; frames over
/// [`crate::protocol::MAX_CLIENT_MESSAGE`] get a clear error, larger ones
/// close the connection.
const MAX_FRAME: usize = 64 * 1024;
/// A connection's read buffer, in bytes.
const READ_BUFFER: usize = 8 * 1024;

/// The close code of a connection closed for silence: no `hello` in
/// time, or no answer to pings (4000-4999 are the application's own;
/// 408 as in HTTP's Request Timeout).
pub const CLOSE_TIMEOUT: u16 = 4408;

/// The close code of a connection whose seat was taken back on another
/// device, after its `taken` message (409 as in HTTP's Conflict).
pub const CLOSE_TAKEN: u16 = 4409;

/// A connection's limits, from the server's [`crate::Config`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub messages_per_second: u32,
    pub hello_timeout: Duration,
    pub ping_interval: Duration,
    pub idle_timeout: Duration,
}

/// How a connection learns that the server stops, and what it tells its
/// client then.
pub(crate) struct Closing {
    /// True once the server stops.
    pub signal: watch::Receiver<bool>,
    /// Whether the client is told `moved` then, whatever its table: on
    /// several nodes another serves every table of a node that stops (a
    /// table it took over or made as it stopped, a finished game shown
    /// from the store), so the client connects again; alone, the server
    /// has nowhere to send it.
    pub moved: bool,
}

/// Upgrades to a WebSocket on `table`. `held` is what the connection
/// holds while it is open: its place among the server's connections and
/// its address's.
pub(crate) fn accept(
    ws: WebSocketUpgrade,
    table: TableHandle,
    held: (OwnedSemaphorePermit, Option<ConnectionSlot>),
    settings: Settings,
    closing: Closing,
    address: std::net::IpAddr,
) -> Response {
    let limit = RateLimit::new(settings.messages_per_second);
    ws
        // Client frames are small; tungstenite's default 128 KiB read
        // buffer per connection was most of a connection's memory and
        // cleared on every frame read (docs/PERFORMANCE.md).
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_FRAME)
        // Checked at the frame's header: a frame that says it is longer is
        // refused before any of it is read (issue 24, S2).
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            let now = Instant::now();
            let mut conn = Connection {
                socket,
                table,
                limit,
                address,
                name: None,
                closing: closing.signal,
                moved_on_close: closing.moved,
                v: 0,
                settings,
                last_heard: now,
                next_ping: now + settings.ping_interval,
                later: Vec::new(),
            };
            conn.run().await;
            drop(held);
        })
}

/// Upgrades to a WebSocket that says only `moved` and closes: the table is
/// served elsewhere, at `url` (another node's, `node`, for table `id`),
/// or, when None, wherever the client first connected (it was handed over
/// and its new node is not known yet, or this node is stopping).
pub(crate) fn moved(ws: WebSocketUpgrade, url: Option<String>, node: Option<&str>) -> Response {
    let msg = moved_msg(url, node);
    ws.on_upgrade(move |mut socket| async move {
        let _ = socket.send(Message::Text(msg.to_text().into())).await;
        let _ = socket
            .send(Message::Close(Some(CloseFrame {
                code: 1000,
                reason: "moved".into(),
            })))
            .await;
    })
}

/// The `moved` message (`docs/PROTOCOL.md`).
fn moved_msg(url: Option<String>, node: Option<&str>) -> ServerMsg {
    ServerMsg {
        v: 0,
        told: Told::Moved(Moved {
            url,
            node: node.map(str::to_string),
            reason: table::Retire::Moved.reason().to_string(),
        }),
    }
}

/// A token bucket: `rate` messages a second, bursts of `burst`.
struct RateLimit {
    /// Messages a second, as configured (for the refusal's words).
    per_second: u32,
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
    refused: u32,
}

impl RateLimit {
    /// `per_second` messages a second, in bursts of twice as many.
    fn new(per_second: u32) -> RateLimit {
        let rate = f64::from(per_second.max(1));
        RateLimit::with_burst(per_second, 2.0 * rate)
    }

    fn with_burst(per_second: u32, burst: f64) -> RateLimit {
        RateLimit {
            per_second,
            rate: f64::from(per_second.max(1)),
            burst,
            tokens: burst,
            last: Instant::now(),
            refused: 0,
        }
    }

    /// Whether one more message may pass now.
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let earned = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + earned).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.refused = 0;
            true
        } else {
            self.refused += 1;
            false
        }
    }
}

/// What woke a connection waiting for the client.
enum Woke {
    Frame(Option<Result<Message, axum::Error>>),
    Closing,
    Ping,
    Silent,
}

/// A text frame from the client, and whether the rate limit let it in.
struct Incoming {
    text: String,
    allowed: bool,
}

/// What a connection should do after a frame.
enum Next {
    Go,
    Stop,
}

struct Connection {
    socket: WebSocket,
    table: TableHandle,
    limit: RateLimit,
    /// Where the client connected from (spectators' chat is counted by
    /// address).
    address: std::net::IpAddr,
    /// A spectator's name for its chat lines, from `hello`.
    name: Option<PlayerName>,
    closing: watch::Receiver<bool>,
    /// Whether the client is told `moved` when the server stops
    /// ([`Closing::moved`]).
    moved_on_close: bool,
    v: u64,
    settings: Settings,
    /// When the client last sent anything (a pong counts).
    last_heard: Instant,
    next_ping: Instant,
    /// Messages of the feed read early (while answering a refusal) that
    /// follow the refusal.
    later: Vec<Arc<Outgoing>>,
}

/// What the table tells one connection.
type Feed = broadcast::Receiver<Arc<Outgoing>>;

/// A client refused this many messages in a row is closed.
const MAX_REFUSED: u32 = 100;

impl Connection {
    async fn send(&mut self, msg: &ServerMsg) -> bool {
        self.send_text(&msg.to_text()).await
    }

    async fn send_text(&mut self, text: &str) -> bool {
        self.socket.send(Message::Text(text.into())).await.is_ok()
    }

    async fn close(&mut self, code: u16, reason: &str) {
        let _ = self
            .socket
            .send(Message::Close(Some(CloseFrame {
                code,
                reason: reason.into(),
            })))
            .await;
    }

    /// The next text frame, answering what is not one; `None` when the
    /// connection ends.
    async fn next_text(&mut self) -> Option<Incoming> {
        loop {
            let silent_until = self.last_heard + self.settings.idle_timeout;
            let woke = tokio::select! {
                m = self.socket.recv() => Woke::Frame(m),
                _ = self.closing.wait_for(|c| *c) => Woke::Closing,
                () = tokio::time::sleep_until(self.next_ping) => Woke::Ping,
                () = tokio::time::sleep_until(silent_until) => Woke::Silent,
            };
            let message = match woke {
                Woke::Frame(Some(Ok(message))) => message,
                Woke::Frame(_) => return None,
                Woke::Closing => {
                    // Its table was handed over as the node stopped (or
                    // another node serves it from now on): the client is
                    // told to reconnect, whichever came first.
                    if self.moved_on_close || self.table.retired() == Some(table::Retire::Moved) {
                        let _ = self.send(&moved_msg(None, None)).await;
                    }
                    self.close(1001, "the server is stopping").await;
                    return None;
                }
                Woke::Ping => {
                    self.next_ping = Instant::now() + self.settings.ping_interval;
                    if self
                        .socket
                        .send(Message::Ping(Default::default()))
                        .await
                        .is_err()
                    {
                        return None;
                    }
                    continue;
                }
                Woke::Silent => {
                    let reason = format!(
                        "no answer to pings for {} s",
                        self.settings.idle_timeout.as_secs_f64()
                    );
                    self.close(CLOSE_TIMEOUT, &reason).await;
                    return None;
                }
            };
            self.last_heard = Instant::now();
            let allowed = match message {
                Message::Text(_) | Message::Binary(_) => self.limit.allow(),
                _ => true,
            };
            if !allowed && self.limit.refused > MAX_REFUSED {
                self.close(1008, "too many messages").await;
                return None;
            }
            match message {
                Message::Text(text) => {
                    return Some(Incoming {
                        text: text.to_string(),
                        allowed,
                    });
                }
                Message::Binary(_) => {
                    let error = if allowed {
                        BadRequest::BinaryFrame.into()
                    } else {
                        self.too_many()
                    };
                    if !self.send(&error.to_msg(self.v)).await {
                        return None;
                    }
                }
                Message::Close(_) => return None,
                Message::Ping(_) | Message::Pong(_) => {}
            }
        }
    }

    fn too_many(&self) -> ServerError {
        ServerError::TooMany(TooMany::Messages {
            rate: self.limit.per_second.max(1),
        })
    }

    async fn run(&mut self) {
        // `hello` first; before it the connection has no seat or view to
        // resync, so anything else gets only an error.
        let hello_by = Instant::now() + self.settings.hello_timeout;
        let (token, v) = loop {
            let Ok(incoming) = tokio::time::timeout_at(hello_by, self.next_text()).await else {
                let reason = format!(
                    "no hello within {} s",
                    self.settings.hello_timeout.as_secs_f64()
                );
                self.close(CLOSE_TIMEOUT, &reason).await;
                return;
            };
            let Some(incoming) = incoming else {
                return;
            };
            let error = match ClientMsg::parse(&incoming.text) {
                _ if !incoming.allowed => self.too_many(),
                Ok(ClientMsg::Hello { token, v, name }) => {
                    self.name = name;
                    break (token, v);
                }
                Ok(_) => BadRequest::HelloFirst.into(),
                Err(refused) => BadRequest::Message(refused.reason).into(),
            };
            if !self.send(&error.to_msg(0)).await {
                return;
            }
        };
        let sub = match self.table.subscribe(token.as_ref(), v).await {
            Ok(sub) => sub,
            // A table handed over (or retired) while the hello came: the
            // client is told so, `moved` to reconnect (issue 24, D6).
            Err(_) if self.table.retired().is_some() => {
                self.retired().await;
                return;
            }
            Err(e) => {
                self.send(&e.to_msg(0)).await;
                self.close(1008, "no such seat").await;
                return;
            }
        };
        let seat = sub.seat.clone();
        self.play(token, sub).await;
        if let Some(seat) = seat {
            self.table.unsubscribe(&seat).await;
        }
    }

    async fn play(&mut self, token: Option<SeatToken>, sub: table::Subscription) {
        let mut feed = sub.feed;
        self.v = sub.first.v;
        if !self.send(&sub.first).await {
            return;
        }
        loop {
            tokio::select! {
                msg = feed.recv() => match msg {
                    Ok(msg) if msg.t == MsgType::Taken => {
                        // The seat plays on another device now: this
                        // connection is told, then let go.
                        if self.send_text(&msg.text).await {
                            self.close(CLOSE_TAKEN, "taken back on another device").await;
                        }
                        return;
                    }
                    Ok(msg) => {
                        self.v = msg.v;
                        if !self.send_text(&msg.text).await { return; }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        if !self.catch_up(token.as_ref(), &mut feed).await { return; }
                    }
                    Err(_) => {
                        // The feed ends when the seat is gone or the table
                        // left memory.
                        self.retired().await;
                        return;
                    }
                },
                incoming = self.next_text() => {
                    let Some(incoming) = incoming else { return };
                    if let Next::Stop = self.answer(incoming, token.as_ref(), &mut feed).await {
                        return;
                    }
                }
            }
        }
    }

    /// Ends the connection as its table ended for it: `moved` if it is
    /// served elsewhere now, and a close frame that says why.
    async fn retired(&mut self) {
        let retired = self.table.retired();
        if retired == Some(table::Retire::Moved) {
            let _ = self.send(&moved_msg(None, None)).await;
        }
        let reason = retired.map_or("you left the table", |r| r.reason());
        self.close(1000, reason).await;
    }

    /// Fell behind the feed: a fresh state replaces everything. False
    /// when the table is gone or the client cannot be written to.
    async fn catch_up(&mut self, token: Option<&SeatToken>, feed: &mut Feed) -> bool {
        self.later.clear();
        let Ok(sub) = self.table.subscribe(token, 0).await else {
            // Handed over while the client was behind: told so.
            if self.table.retired().is_some() {
                self.retired().await;
            }
            return false;
        };
        if let Some(seat) = &sub.seat {
            // The new subscription counted again.
            self.table.unsubscribe(seat).await;
        }
        *feed = sub.feed;
        let mut first = sub.first;
        if let Told::State(kind, _) = &mut first.told {
            *kind = StateKind::Resync;
        }
        self.v = first.v;
        self.send(&first).await
    }

    async fn answer(
        &mut self,
        incoming: Incoming,
        token: Option<&SeatToken>,
        feed: &mut Feed,
    ) -> Next {
        let parsed = ClientMsg::parse(&incoming.text);
        if !incoming.allowed {
            let action = match &parsed {
                Ok(msg) => msg.is_action(),
                Err(refused) => refused.action,
            };
            let error = self.too_many();
            return self.refuse(error, action, token, feed).await;
        }
        let msg = match parsed {
            Ok(msg) => msg,
            Err(refused) => {
                return self
                    .refuse(
                        BadRequest::Message(refused.reason).into(),
                        refused.action,
                        token,
                        feed,
                    )
                    .await;
            }
        };
        if let ClientMsg::Chat(line) = &msg {
            let from = match token {
                Some(token) => Speaker::Seat {
                    token: token.clone(),
                    from: self.address,
                },
                None => Speaker::Spectator {
                    name: self.name.clone(),
                    from: self.address,
                },
            };
            return self.chat(from, line, token, feed).await;
        }
        let Some(token) = token else {
            let error = match msg {
                ClientMsg::Hello { .. } => BadRequest::HelloAgain,
                _ => BadRequest::SpectatorActs,
            };
            let error = ServerError::BadRequest(error);
            return self.refuse(error, msg.is_action(), None, feed).await;
        };
        match msg {
            ClientMsg::Hello { .. } => {
                let error = ServerError::BadRequest(BadRequest::HelloAgain);
                self.refuse(error, false, Some(token), feed).await
            }
            ClientMsg::Act { v, action } => match self.table.act(token, action, v).await {
                Ok(_) => Next::Go,
                Err(refusal) => self.refused_by_table(refusal, Some(token), feed).await,
            },
            ClientMsg::Place { v, name, seat } => {
                match self.table.place(token, &name, seat, v).await {
                    Ok(_) => Next::Go,
                    Err(refusal) => self.refused_by_table(refusal, Some(token), feed).await,
                }
            }
            ClientMsg::Chat(_) => Next::Go,
        }
    }

    async fn chat(
        &mut self,
        from: Speaker,
        line: &str,
        token: Option<&SeatToken>,
        feed: &mut Feed,
    ) -> Next {
        match self.table.chat(from, line).await {
            Ok(()) => Next::Go,
            Err(e) => self.refuse(e, false, token, feed).await,
        }
    }

    /// Refuses the client's last message: an `error`, and for an `act` or
    /// a `place` the `resync` the table gives this viewer.
    async fn refuse(
        &mut self,
        error: ServerError,
        action: bool,
        token: Option<&SeatToken>,
        feed: &mut Feed,
    ) -> Next {
        if !action {
            return if self.send(&error.to_msg(self.v)).await {
                Next::Go
            } else {
                Next::Stop
            };
        }
        match self.table.resync(token, &error).await {
            Ok(resync) => {
                let refusal = (error, resync);
                self.refused_by_table(refusal, token, feed).await
            }
            Err(_) => {
                // The table stopped (a drain): the client is told why.
                if self.table.retired().is_some() {
                    self.retired().await;
                }
                Next::Stop
            }
        }
    }

    /// Answers a refused `act` or `place`: the `error`, then the table's
    /// `resync`. What the table broadcast before it answered is sent
    /// first, so that the client's v never goes back (issue 24, D7): the
    /// refusal's state is never older than what it was told before.
    async fn refused_by_table(
        &mut self,
        (error, resync): (ServerError, ServerMsg),
        token: Option<&SeatToken>,
        feed: &mut Feed,
    ) -> Next {
        if matches!(error, ServerError::Closed) {
            // The table stopped while the act was on its way (a drain):
            // the client is told why, not left without a close (D4).
            self.retired().await;
            return Next::Stop;
        }
        let mut lagged = false;
        loop {
            match feed.try_recv() {
                Ok(msg) if msg.v <= resync.v => {
                    self.v = msg.v;
                    if !self.send_text(&msg.text).await {
                        return Next::Stop;
                    }
                }
                // Told after the refusal: it follows it.
                Ok(msg) => {
                    self.later.push(msg);
                    break;
                }
                Err(broadcast::error::TryRecvError::Lagged(_)) => {
                    lagged = true;
                    break;
                }
                Err(_) => break,
            }
        }
        if !self.send(&error.to_msg(resync.v.max(self.v))).await {
            return Next::Stop;
        }
        if lagged {
            return if self.catch_up(token, feed).await {
                Next::Go
            } else {
                Next::Stop
            };
        }
        // A resync older than what the client holds would take it back.
        if resync.v >= self.v {
            self.v = resync.v;
            if !self.send(&resync).await {
                return Next::Stop;
            }
        }
        for msg in std::mem::take(&mut self.later) {
            self.v = msg.v;
            if !self.send_text(&msg.text).await {
                return Next::Stop;
            }
        }
        Next::Go
    }
}
