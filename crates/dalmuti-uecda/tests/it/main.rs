//! The crate's integration tests: one binary (`autotests = false`).

mod loopback;
mod reference;
mod replay;
