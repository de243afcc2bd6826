//! Bots play through views only and always answer legally.

mod basic;
mod corporate;
mod external;
mod heuristic;
mod learned;
mod search;
mod styles;
