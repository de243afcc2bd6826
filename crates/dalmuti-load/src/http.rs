//! A small HTTP/1.1 client for the lobby's JSON, over one kept-alive
//! connection.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

// A small HTTP/1.1 client for the lobby's JSON, over one kept-alive
// connection.

pub(crate) struct Http {
    pub(crate) addr: SocketAddr,
    pub(crate) conn: Option<BufReader<TcpStream>>,
}

impl Http {
    pub(crate) fn new(addr: SocketAddr) -> Http {
        Http { addr, conn: None }
    }

    /// Sends one request; answers the status and the body as JSON (Null
    /// when empty). Retries on a dropped kept-alive connection and, with a
    /// growing pause, on 429 (too many requests).
    pub(crate) async fn call(
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

    pub(crate) async fn exchange(&mut self, request: &[u8]) -> Result<(u16, Value), String> {
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

    pub(crate) async fn exchange_on(
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
pub(crate) fn reason(body: &Value) -> String {
    body.get("error")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| body.to_string())
}

// ---------------------------------------------------------------------------
