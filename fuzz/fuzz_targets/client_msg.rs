//! Fuzzes the server's reader of WebSocket messages from clients
//! (`dalmuti_server::protocol::ClientMsg::parse`, docs/PROTOCOL.md).
//!
//! For any bytes, read as lossy UTF-8 text, `parse` returns (never panics),
//! a refusal always says why, nothing longer than a client frame may be
//! (`MAX_CLIENT_MESSAGE` bytes) is ever accepted, and an `act` or `place`
//! is always known as one (`is_action`, `Refused::action`), however it is
//! wrong, so its refusal is followed by a resync.
//!
//! Run: `cargo fuzz run client_msg fuzz/corpus/client_msg fuzz/seeds/client_msg`
//! (docs/DEVELOPING.md).

#![no_main]

use dalmuti_server::protocol::{ClientMsg, MAX_CLIENT_MESSAGE, is_action_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let action = is_action_text(&text);
    match ClientMsg::parse(&text) {
        Ok(msg) => {
            assert!(
                text.len() <= MAX_CLIENT_MESSAGE,
                "accepted a message of {} bytes",
                text.len()
            );
            assert_eq!(msg.is_action(), action, "an action not known as one");
        }
        Err(refused) => {
            assert!(
                !refused.reason.to_string().trim().is_empty(),
                "a refusal without a reason"
            );
            assert_eq!(
                refused.action, action,
                "a refused action not marked for a resync"
            );
        }
    }
});
