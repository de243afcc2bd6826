//! Fuzzes the server's reader of WebSocket messages from clients
//! (`dalmuti_server::protocol::ClientMsg::parse`, docs/PROTOCOL.md).
//!
//! For any bytes, read as lossy UTF-8 text, `parse` returns (never panics),
//! a refusal always says why, and nothing longer than a client frame may be
//! (`MAX_CLIENT_MESSAGE` bytes) is ever accepted.
//!
//! Run: `cargo fuzz run client_msg fuzz/corpus/client_msg fuzz/seeds/client_msg`
//! (docs/DEVELOPING.md).

#![no_main]

use dalmuti_server::protocol::{ClientMsg, MAX_CLIENT_MESSAGE};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match ClientMsg::parse(&text) {
        Ok(_) => assert!(
            text.len() <= MAX_CLIENT_MESSAGE,
            "accepted a message of {} bytes",
            text.len()
        ),
        Err(reason) => assert!(!reason.trim().is_empty(), "a refusal without a reason"),
    }
});
