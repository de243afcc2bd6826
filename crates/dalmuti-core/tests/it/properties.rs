//! Property tests over random games.
