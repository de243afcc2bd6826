//! The clock a bot's time budget reads: std's, except in WebAssembly in a
//! browser (the offline engine, `dalmuti-wasm`), where std has no clock
//! (`Instant::now` panics there) and `web-time` reads the page's
//! `performance.now()`.

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub(crate) use web_time::Instant;
