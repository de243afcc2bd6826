//! Tests of the external bot.
