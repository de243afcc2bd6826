//! The engine and the bots in WebAssembly: a game against bots in the
//! browser, with no server (`docs/DEVELOPING.md`, "The offline engine").
//!
//! The page's Web Worker (`crates/dalmuti-server/web/offline/worker.js`)
//! hands every request to [`offline::Offline`] as JSON text and gets its
//! [`offline::Reply`] back the same way: the messages the server would
//! have sent (STATE with `legal`, events, refusals), when to wake it next,
//! and the game to keep in IndexedDB. The table, its dialogs and replays
//! are the page's code for online play; no rule is written in JavaScript.
//!
//! ```
//! use dalmuti_core::Seed;
//! use dalmuti_wasm::offline::Offline;
//! let mut n = 0u64;
//! let mut engine = Offline::new(Box::new(move || { n += 1; Seed::from(n) }));
//! let reply = engine.handle_text(r#"{"do":"new","now":0,"setup":{"name":"Ada","seats":4,"level":"easy"}}"#);
//! assert!(reply.error.is_none() && reply.token.is_some());
//! // The bots' first moves wait for the "look at your cards" pause.
//! assert_eq!(reply.wake_ms, Some(6000));
//! ```

pub mod offline;
#[cfg(target_arch = "wasm32")]
mod web;
