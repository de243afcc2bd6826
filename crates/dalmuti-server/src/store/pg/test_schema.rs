//! A schema of its own on the test database for each test.

use super::*;

/// The variable that names the PostgreSQL database tests use
/// (`postgres://dalmuti@127.0.0.1:54329/dalmuti_test`); `.ci/postgres`
/// starts one and prints it.
pub const TEST_DATABASE_URL: &str = "DALMUTI_TEST_DATABASE_URL";

/// A schema of its own on the test database, for one test: tests run at
/// the same time without seeing each other's tables, and the schema is
/// dropped with everything in it when this is dropped.
pub struct TestSchema {
    base: String,
    name: String,
    /// The database's address with this schema first on the search path:
    /// what [`PostgresStore::open`] and `dalmuti serve --data` take.
    pub url: String,
}

impl TestSchema {
    /// Creates a fresh schema on the database named by
    /// [`TEST_DATABASE_URL`]. Fails, saying how to start one, when the
    /// variable is not set: the PostgreSQL tests are never skipped.
    pub fn new() -> Result<TestSchema, StoreError> {
        let base = std::env::var(TEST_DATABASE_URL).map_err(|_| {
            StoreError::Failed(format!(
                "the PostgreSQL tests need a database: set {TEST_DATABASE_URL}, e.g. start a \
                 private one on loopback with `eval \"$(bash .ci/postgres start target/pg)\"` \
                 (Debian's postgresql package; see docs/DEVELOPING.md)"
            ))
        })?;
        let name = format!("test_{}", crate::ids::TableId::new());
        let config = Config::from_str(&base)
            .map_err(|e| StoreError::Failed(format!("PostgreSQL: {TEST_DATABASE_URL}: {e}")))?;
        on_own_thread(|| {
            let mut client = connect(&config, &Connector::Plain)?;
            client
                .batch_execute(&format!("CREATE SCHEMA {name}"))
                .map_err(failed(format!("create schema {name}")))
        })?;
        let sep = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{sep}options=-c%20search_path%3D{name}");
        Ok(TestSchema { base, name, url })
    }

    /// A store on this schema.
    pub fn store(&self) -> Result<PostgresStore, StoreError> {
        PostgresStore::open(&self.url)
    }
}

impl Drop for TestSchema {
    fn drop(&mut self) {
        let Ok(config) = Config::from_str(&self.base) else {
            return;
        };
        let _ = on_own_thread(|| {
            connect(&config, &Connector::Plain)?
                .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.name))
                .map_err(failed("drop the test schema"))
        });
    }
}
