//! A contest client's connection, as a server holds it: the first table
//! (protocol and name), tables and numbers written a turn at a time, and
//! answers read within a time limit.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::cells::Cells;
use crate::state::Hello;
use crate::wire::{BadHex, Protocol, RawTable, TABLE_BYTES, int_bytes};

pub(crate) struct Client {
    pub(crate) stream: TcpStream,
    pub(crate) protocol: Protocol,
    /// Messages not yet written: a turn's go out together.
    out: Vec<u8>,
}

/// Why a client is stood in for.
pub(crate) struct Fault(pub(crate) String);

impl Client {
    pub(crate) fn queue_table(&mut self, table: &RawTable) {
        self.out.extend_from_slice(&table.encode(self.protocol));
    }

    pub(crate) fn queue_int(&mut self, n: i32) {
        self.out.extend_from_slice(&int_bytes(n));
    }

    pub(crate) fn flush(&mut self) -> Result<(), Fault> {
        if self.out.is_empty() {
            return Ok(());
        }
        let result = self.stream.write_all(&self.out);
        self.out.clear();
        result.map_err(|e| Fault(format!("could not be written to ({})", io_words(&e))))
    }

    /// A table read in the client's protocol: the bytes as sent, and the
    /// table they make (a 20140 table that is no table is a bad answer,
    /// not a failed client).
    pub(crate) fn read_table(
        &mut self,
        what: &str,
        timeout: Duration,
    ) -> Result<(Vec<u8>, Result<RawTable, BadHex>), Fault> {
        let mut buf = [0u8; TABLE_BYTES];
        let len = self.protocol.table_bytes();
        read_within(&mut self.stream, &mut buf[..len], timeout)
            .map_err(|e| Fault(format!("sent no {what} ({e})")))?;
        Ok((
            buf[..len].to_vec(),
            RawTable::decode(self.protocol, &buf[..len]),
        ))
    }
}

/// Reads exactly `buf.len()` bytes within `timeout` in all (zero: no
/// limit).
pub(crate) fn read_within(
    stream: &mut TcpStream,
    buf: &mut [u8],
    timeout: Duration,
) -> Result<(), String> {
    let deadline = (!timeout.is_zero()).then(|| Instant::now() + timeout);
    let mut got = 0;
    while got < buf.len() {
        let left = match deadline {
            Some(d) => match d.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Some(left),
                _ => return Err(format!("within {}", seconds(timeout))),
            },
            None => None,
        };
        stream.set_read_timeout(left).map_err(|e| io_words(&e))?;
        match stream.read(&mut buf[got..]) {
            Ok(0) => return Err("the connection was closed".into()),
            Ok(n) => got += n,
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Err(format!("within {}", seconds(timeout)));
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(io_words(&e)),
        }
    }
    Ok(())
}

fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

pub(crate) fn io_words(e: &std::io::Error) -> String {
    match e.kind() {
        ErrorKind::BrokenPipe | ErrorKind::ConnectionReset => "the connection was closed".into(),
        ErrorKind::WouldBlock | ErrorKind::TimedOut => "it stopped reading".into(),
        _ => e.to_string(),
    }
}

/// Reads a new connection's first table: the protocol it speaks and its
/// name. Its number is told apart ([`Client::queue_int`]).
pub(crate) fn hello(mut stream: TcpStream, timeout: Duration) -> Result<(Client, Hello), Fault> {
    let _ = stream.set_nodelay(true);
    let mut buf = [0u8; TABLE_BYTES];
    read_within(&mut stream, &mut buf, timeout).map_err(|e| {
        Fault(format!(
            "sent no first table (protocol and name) {e}: a UECda client of 2007 or later sends it at once"
        ))
    })?;
    let hello = Hello::from_table(&RawTable::from_bytes(&buf));
    let Some(protocol) = hello.protocol() else {
        return Err(Fault(format!(
            "says it speaks protocol {}, and this server speaks 20070 and 20140",
            hello.protocol
        )));
    };
    let _ = stream.set_write_timeout(Some(timeout.max(Duration::from_secs(10))));
    Ok((
        Client {
            stream,
            protocol,
            out: Vec::new(),
        },
        hello,
    ))
}

/// The cells that stand for an answer that is no table (a 20140 answer
/// that does not decode): a card below the 3, which the server takes as
/// a refused play, or an exchange it replaces by the strongest cards.
pub(crate) fn no_table() -> Cells {
    let mut cells = Cells::EMPTY;
    cells.set(0, 0, 1);
    cells
}
