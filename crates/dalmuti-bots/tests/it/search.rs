//! Tests of the search bot.
