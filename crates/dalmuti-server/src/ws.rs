//! One WebSocket connection to a table (`docs/PROTOCOL.md`): `hello`
//! first, then the table's feed out and the client's messages in, each
//! answered or refused with a reason.

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use tokio::sync::{OwnedSemaphorePermit, watch};
use tokio::time::Instant;

use crate::error::ServerError;
use crate::protocol::{ClientMsg, ServerMsg};
use crate::table::{self, TableHandle};

/// The largest WebSocket frame read at all; frames over
/// [`crate::protocol::MAX_CLIENT_MESSAGE`] get a clear error, larger ones
/// close the connection.
const MAX_FRAME: usize = 64 * 1024;
/// A connection's read buffer, in bytes.
const READ_BUFFER: usize = 8 * 1024;

/// Upgrades to a WebSocket on `table`; `permit` is its connection slot,
/// held until the connection ends.
pub(crate) fn accept(
    ws: WebSocketUpgrade,
    table: TableHandle,
    permit: OwnedSemaphorePermit,
    messages_per_second: u32,
    closing: watch::Receiver<bool>,
) -> Response {
    let limit = RateLimit::new(messages_per_second);
    ws
        // Client frames are small; tungstenite's default 128 KiB read
        // buffer per connection was most of a connection's memory and
        // cleared on every frame read (docs/PERFORMANCE.md).
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            let mut conn = Connection {
                socket,
                table,
                limit,
                closing,
                v: 0,
            };
            conn.run().await;
            drop(permit);
        })
}

/// A token bucket: `rate` messages a second, bursts of twice that.
struct RateLimit {
    rate: f64,
    tokens: f64,
    last: Instant,
    refused: u32,
}

impl RateLimit {
    fn new(per_second: u32) -> RateLimit {
        let rate = f64::from(per_second.max(1));
        RateLimit {
            rate,
            tokens: 2.0 * rate,
            last: Instant::now(),
            refused: 0,
        }
    }

    /// Whether one more message may pass now.
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let earned = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + earned).min(2.0 * self.rate);
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

/// What a connection should do after a frame.
enum Next {
    Go,
    Stop,
}

struct Connection {
    socket: WebSocket,
    table: TableHandle,
    limit: RateLimit,
    closing: watch::Receiver<bool>,
    v: u64,
}

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
    async fn next_text(&mut self) -> Option<String> {
        loop {
            let message = tokio::select! {
                m = self.socket.recv() => Some(m),
                _ = self.closing.wait_for(|c| *c) => None,
            };
            let Some(message) = message else {
                self.close(1001, "the server is stopping").await;
                return None;
            };
            let Some(Ok(message)) = message else {
                return None;
            };
            if !self.limit.allow() {
                if self.limit.refused > MAX_REFUSED {
                    self.close(1008, "too many messages").await;
                    return None;
                }
                let error = ServerError::TooMany(format!(
                    "too many messages: at most {} a second",
                    self.limit.rate
                ));
                if !self
                    .send(&ServerMsg::error(self.v, &error.to_string()))
                    .await
                {
                    return None;
                }
                continue;
            }
            match message {
                Message::Text(text) => return Some(text.to_string()),
                Message::Binary(_) => {
                    let msg = ServerMsg::error(
                        self.v,
                        "binary frames are not understood: send JSON text",
                    );
                    if !self.send(&msg).await {
                        return None;
                    }
                }
                Message::Close(_) => return None,
                Message::Ping(_) | Message::Pong(_) => {}
            }
        }
    }

    async fn run(&mut self) {
        // `hello` first.
        let (token, v) = loop {
            let Some(text) = self.next_text().await else {
                return;
            };
            let reason = match ClientMsg::parse(&text) {
                Ok(ClientMsg::Hello { token, v }) => break (token, v),
                Ok(_) => "say hello first: {\"t\": \"hello\", \"v\": 0, \"d\": {\"token\": TOKEN}}"
                    .to_string(),
                Err(reason) => reason,
            };
            if !self.send(&ServerMsg::error(0, &reason)).await {
                return;
            }
        };
        let sub = match self.table.subscribe(token.as_deref(), v).await {
            Ok(sub) => sub,
            Err(e) => {
                self.send(&ServerMsg::error(0, &e.to_string())).await;
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

    async fn play(&mut self, token: Option<String>, sub: table::Subscription) {
        let mut feed = sub.feed;
        self.v = sub.first.v;
        if !self.send(&sub.first).await {
            return;
        }
        loop {
            tokio::select! {
                msg = feed.recv() => match msg {
                    Ok(msg) => {
                        self.v = msg.v;
                        if !self.send_text(&msg.text).await { return; }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        // Fell behind: a fresh state replaces everything.
                        match self.table.subscribe(token.as_deref(), 0).await {
                            Ok(sub) => {
                                if let Some(seat) = &sub.seat {
                                    // The new subscription counted again.
                                    self.table.unsubscribe(seat).await;
                                }
                                feed = sub.feed;
                                let mut first = sub.first;
                                first.t = "resync";
                                self.v = first.v;
                                if !self.send(&first).await { return; }
                            }
                            Err(_) => return,
                        }
                    }
                    Err(_) => {
                        self.close(1000, "you left the table").await;
                        return;
                    }
                },
                text = self.next_text() => {
                    let Some(text) = text else { return };
                    if let Next::Stop = self.answer(&text, token.as_deref()).await {
                        return;
                    }
                }
            }
        }
    }

    async fn answer(&mut self, text: &str, token: Option<&str>) -> Next {
        let refused = |e: ServerError, resync: ServerMsg| (e, resync);
        let result = match (ClientMsg::parse(text), token) {
            (Err(reason), _) => Err(reason),
            (Ok(ClientMsg::Hello { .. }), _) => Err("already said hello".into()),
            (Ok(_), None) => Err("spectators cannot act or chat".into()),
            (Ok(ClientMsg::Act { v, action }), Some(token)) => {
                match self.table.act(token, action, v).await {
                    Ok(_) => Ok(()),
                    Err((e, resync)) => return self.refuse(refused(e, resync)).await,
                }
            }
            (Ok(ClientMsg::Place { v, name, seat }), Some(token)) => {
                match self.table.place(token, &name, seat, v).await {
                    Ok(_) => Ok(()),
                    Err((e, resync)) => return self.refuse(refused(e, resync)).await,
                }
            }
            (Ok(ClientMsg::Chat(line)), Some(token)) => self
                .table
                .chat(token, &line)
                .await
                .map_err(|e| e.to_string()),
        };
        match result {
            Ok(()) => Next::Go,
            Err(reason) => {
                if self.send(&ServerMsg::error(self.v, &reason)).await {
                    Next::Go
                } else {
                    Next::Stop
                }
            }
        }
    }

    async fn refuse(&mut self, (error, resync): (ServerError, ServerMsg)) -> Next {
        if matches!(error, ServerError::Closed) {
            return Next::Stop;
        }
        if !self
            .send(&ServerMsg::error(resync.v, &error.to_string()))
            .await
        {
            return Next::Stop;
        }
        self.v = resync.v;
        if self.send(&resync).await {
            Next::Go
        } else {
            Next::Stop
        }
    }
}
