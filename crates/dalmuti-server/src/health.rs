//! The node's health, as `/readyz` tells it ([`crate::ops`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Semaphore;

/// The node's health: whether it drains, and the database check under
/// way. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Health {
    pub(crate) draining: Arc<AtomicBool>,
    /// One database check at a time: while one waits for a stuck
    /// database (its blocking thread cannot be cancelled), later probes
    /// wait for it within their own bound instead of each taking another
    /// thread of the blocking pool.
    pub(crate) checking: Arc<Semaphore>,
}

impl Default for Health {
    fn default() -> Health {
        Health {
            draining: Arc::new(AtomicBool::new(false)),
            checking: Arc::new(Semaphore::new(1)),
        }
    }
}

impl Health {
    /// Marks the node as draining (or not).
    pub fn set_draining(&self, draining: bool) {
        self.draining.store(draining, Ordering::SeqCst);
    }

    /// Whether the node is draining.
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }
}
