//! The crate's integration tests: one binary (`autotests = false`).

mod garbage;
mod loopback;
mod programs;
mod reference;
mod replay;
