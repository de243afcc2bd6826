//! A table of The Great Dalmuti and its family, as the server keeps it and
//! as the browser's offline engine keeps it too: a fold over its events
//! ([`state::TableState`], [`state::Stored`]), and the messages of the wire
//! ([`protocol`]) built from it for each seat (each seat told only what it
//! may see). No I/O, no async, no threads: the server (`dalmuti-server`)
//! adds the store, the clocks and the sockets around it; the WebAssembly
//! build runs it in a Web Worker.
//!
//! Also here, because the table's events and messages carry them: table
//! ids ([`ids`]), players' names and their look-alike form ([`names`]),
//! seat tokens ([`token`]), where a client is ([`origin`]), a table's row
//! ([`row`]), and the commitments that make its deals verifiable
//! ([`fairness`]).

pub mod error;
pub mod fairness;
pub mod ids;
pub mod names;
pub mod origin;
pub mod protocol;
pub mod rating;
pub mod row;
pub mod state;
pub mod tell;
pub mod token;

pub use error::{IllegalMove, TableError};
