//! The writer: every table's events and talk written from one thread,
//! many per transaction.

use super::{Append, Store, StoreError, TableId, TalkRow};
use crate::metrics::{Metrics, StoreOp};
use dalmuti_table::state::Stored;

/// Writes events and chat and news lines for every table from one
/// thread, many per transaction: under load, tables that act at the same
/// moment share one sync to disk (group commit) instead of queueing for one
/// each. A table awaits its write before it broadcasts the event or line.
#[derive(Clone)]
pub struct Writer {
    tx: std::sync::mpsc::Sender<(Job, Done)>,
}

/// What the writer is asked to write.
enum Job {
    Event(Append),
    Talk(TalkRow),
}

type Done = tokio::sync::oneshot::Sender<Result<(), StoreError>>;

impl Writer {
    /// Starts the writing thread over `store`, its batches timed in
    /// metrics of its own (see [`Writer::metered`]).
    pub fn start(store: std::sync::Arc<dyn Store>) -> Writer {
        Writer::metered(store, Metrics::default())
    }

    /// Starts the writing thread over `store`; how long each batch takes
    /// goes to `metrics` (`dalmuti_store_seconds`, ops `append` and
    /// `talk`).
    pub fn metered(store: std::sync::Arc<dyn Store>, metrics: Metrics) -> Writer {
        let (tx, rx) = std::sync::mpsc::channel::<(Job, Done)>();
        std::thread::Builder::new()
            .name("dalmuti-writer".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut batch = vec![first];
                    while batch.len() < 512
                        && let Ok(more) = rx.try_recv()
                    {
                        batch.push(more);
                    }
                    let (mut events, mut talk) = (Vec::new(), Vec::new());
                    for (job, done) in batch {
                        match job {
                            Job::Event(e) => events.push((e, done)),
                            Job::Talk(t) => talk.push((t, done)),
                        }
                    }
                    if !events.is_empty() {
                        metrics.time(StoreOp::Append, || write_events(store.as_ref(), events));
                    }
                    if !talk.is_empty() {
                        let lines: Vec<TalkRow> = talk.iter().map(|(t, _)| t.clone()).collect();
                        let result = metrics.time(StoreOp::Talk, || store.add_talk(&lines));
                        for (_, done) in talk {
                            let _ = done.send(result.clone());
                        }
                    }
                }
            })
            .expect("start the writer thread");
        Writer { tx }
    }

    async fn write(&self, job: Job) -> Result<(), StoreError> {
        let (done, wait) = tokio::sync::oneshot::channel();
        self.tx
            .send((job, done))
            .map_err(|_| StoreError::Failed("the writer has stopped".into()))?;
        wait.await
            .map_err(|_| StoreError::Failed("the writer has stopped".into()))?
    }

    /// Appends one event; resolves once it is on disk.
    pub async fn append(&self, table: &TableId, v: u64, event: Stored) -> Result<(), StoreError> {
        self.write(Job::Event(Append {
            table: table.clone(),
            v,
            event,
        }))
        .await
    }

    /// Keeps one chat or news line; resolves once it is on disk.
    pub async fn talk(&self, line: TalkRow) -> Result<(), StoreError> {
        self.write(Job::Talk(line)).await
    }
}

/// Appends a batch of events in one transaction and answers each.
fn write_events(store: &dyn Store, batch: Vec<(Append, Done)>) {
    if batch.is_empty() {
        return;
    }
    let events: Vec<Append> = batch.iter().map(|(a, _)| a.clone()).collect();
    match store.append_batch(&events) {
        Ok(()) => {
            for (_, done) in batch {
                let _ = done.send(Ok(()));
            }
        }
        // One bad event must not sink the others: write them one by one
        // and answer each (each table logs its own failure).
        Err(e) => {
            tracing::warn!(
                events = events.len(),
                error = %e,
                "the writer's batch of events failed: writing them one by one"
            );
            for (e, done) in batch {
                let _ = done.send(store.append(&e.table, e.v, &e.event));
            }
        }
    }
}
