//! Integration tests of the rules engine: one binary, several modules.

mod corporate;
mod daifugo;
mod house;
mod pack_properties;
mod properties;
mod records;
mod rules;
mod wire;
