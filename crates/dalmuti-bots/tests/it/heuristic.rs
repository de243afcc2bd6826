//! Tests of the heuristic bot.
