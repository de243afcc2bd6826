//! What the WebAssembly module exports to its worker: one engine, which
//! takes a request as JSON text and answers JSON text
//! ([`crate::offline::Request`], [`crate::offline::Reply`]).

use dalmuti_core::Seed;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::offline::Offline;

/// The engine of one offline table, for the worker.
#[wasm_bindgen]
pub struct Engine(Offline);

#[wasm_bindgen]
impl Engine {
    /// An engine with no game yet; its deals and tokens are drawn from the
    /// browser's `crypto.getRandomValues`.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)] // wasm-bindgen's constructor
    pub fn new() -> Engine {
        Engine(Offline::new(Box::new(Seed::from_entropy)))
    }

    /// Answers one request (JSON text) with its reply (JSON text).
    pub fn handle(&mut self, request: &str) -> String {
        let reply = self.0.handle_text(request);
        serde_json::to_string(&reply).unwrap_or_else(|e| {
            serde_json::json!({ "error": format!("the engine could not write its reply: {e}") })
                .to_string()
        })
    }
}
