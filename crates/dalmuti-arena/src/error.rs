//! Why a run stopped: one error for the runner, the ladder and the work
//! units they share (its own module, so that neither imports the other
//! for it).

use std::path::PathBuf;

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A bot could not be built (an external program that does not start).
    #[error("cannot start the bot {label}: {reason}")]
    Bot {
        /// Its label in the lineup.
        label: String,
        /// Why.
        reason: String,
    },
    /// A game record could not be written.
    #[error("cannot write the game record {}: {source}", .path.display())]
    Records {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The records' folder could not be made (its parent is missing, or
    /// not writable).
    #[error("cannot make the folder {} for --records: {source}", .path.display())]
    RecordsFolder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {reason}")]
    Threads {
        /// How many were asked for.
        threads: usize,
        /// Why.
        reason: String,
    },
}
