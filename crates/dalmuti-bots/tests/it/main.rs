//! Bots play through views only and always answer legally.

mod basic;
mod external;
mod heuristic;
mod search;
