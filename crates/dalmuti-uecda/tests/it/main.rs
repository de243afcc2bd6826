//! The crate's integration tests: one binary (`autotests = false`).

mod reference;
mod replay;
