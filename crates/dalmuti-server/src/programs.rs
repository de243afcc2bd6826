//! Contest programs at the server's UECda port (`dalmuti serve
//! --uecda-port`): UECda clients, nineteen years of them, waiting to be
//! seated by a host at a table of the contest's Daifugō, beside people and
//! our bots.
//!
//! A program connects and sends its first table (protocol and name) as it
//! would to the contest's server; it then waits, told nothing, until a
//! host seats it (`POST /api/tables/{id}/bots` with `{"bot": "program"}`
//! seats the one that has waited longest) and the game starts, when it is
//! told its player number and the match begins
//! ([`dalmuti_uecda::ContestSeats`]). A program that closes its
//! connection while it waits is forgotten.
//!
//! Strangers connect here too, so every input is bounded: a connection
//! that sends no first table within [`HELLO_TIME`] is closed, at most
//! [`MOST_GREETING`] are read at once, at most [`MOST_WAITING`] programs
//! wait (the newest is turned away past it), [`MOST_PER_ADDRESS`] of them
//! from one address; a seated program that answers no play within
//! [`ANSWER_TIME`] loses its seat to a bot, and the table plays on.

use std::collections::VecDeque;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dalmuti_uecda::Program;

/// How long a new connection may take to send its first table.
pub const HELLO_TIME: Duration = Duration::from_secs(3);
/// How long a seated program may take to answer a play or an exchange.
pub const ANSWER_TIME: Duration = Duration::from_secs(10);
/// Connections whose first table is being read at once.
pub const MOST_GREETING: usize = 32;
/// Programs waiting to be seated.
pub const MOST_WAITING: usize = 16;
/// Programs waiting from one address.
pub const MOST_PER_ADDRESS: usize = 5;

/// The programs waiting at the server's UECda port.
#[derive(Clone)]
pub struct Programs {
    waiting: Arc<Mutex<VecDeque<Program>>>,
    port: u16,
}

impl std::fmt::Debug for Programs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Programs")
            .field("port", &self.port)
            .field("waiting", &self.waiting())
            .finish()
    }
}

impl Programs {
    /// Listens for contest programs on `addr` (port 0: any free port), on
    /// a thread of its own.
    pub fn listen(addr: SocketAddr) -> std::io::Result<Programs> {
        let listener = TcpListener::bind(addr)?;
        let port = listener.local_addr()?.port();
        let programs = Programs {
            waiting: Arc::new(Mutex::new(VecDeque::new())),
            port,
        };
        let waiting = programs.clone();
        std::thread::Builder::new()
            .name("uecda-port".into())
            .spawn(move || waiting.accept(listener))?;
        tracing::info!(port, "contest programs (UECda clients) may connect");
        Ok(programs)
    }

    /// The port programs connect to.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// How many programs wait.
    pub fn waiting(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Program>> {
        // A thread that panicked holding the list left it whole: every
        // change to it is one push or one pop.
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The program that has waited longest and is still connected (those
    /// gone meanwhile are forgotten).
    pub fn take(&self) -> Option<Program> {
        let mut waiting = self.lock();
        while let Some(program) = waiting.pop_front() {
            if program.is_connected() {
                return Some(program);
            }
            tracing::info!(
                name = program.name(),
                "a contest program left before it was seated"
            );
        }
        None
    }

    /// Puts a program taken but not seated back at the head of the line.
    pub fn give_back(&self, program: Program) {
        self.lock().push_front(program);
    }

    fn accept(self, listener: TcpListener) {
        let greeting = Arc::new(AtomicUsize::new(0));
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let Ok(addr) = stream.peer_addr() else {
                continue;
            };
            if greeting.fetch_add(1, Ordering::SeqCst) >= MOST_GREETING {
                greeting.fetch_sub(1, Ordering::SeqCst);
                tracing::warn!(%addr, "a contest program turned away: too many connections at once");
                continue;
            }
            let (programs, greeting) = (self.clone(), greeting.clone());
            let spawned = std::thread::Builder::new()
                .name("uecda-hello".into())
                .spawn(move || {
                    programs.greet(stream, addr);
                    greeting.fetch_sub(1, Ordering::SeqCst);
                });
            if spawned.is_err() {
                tracing::warn!(%addr, "a contest program turned away: no thread to read it");
            }
        }
    }

    fn greet(&self, stream: std::net::TcpStream, addr: SocketAddr) {
        let program = match Program::greet(stream, addr, HELLO_TIME) {
            Ok(program) => program,
            Err(why) => {
                tracing::info!(%addr, "a connection to the UECda port {why}: closed");
                return;
            }
        };
        let mut waiting = self.lock();
        waiting.retain(Program::is_connected);
        let from_here = |ip: IpAddr| waiting.iter().filter(|p| p.addr().ip() == ip).count();
        let refused = if waiting.len() >= MOST_WAITING {
            Some(format!("{MOST_WAITING} programs wait already"))
        } else if from_here(addr.ip()) >= MOST_PER_ADDRESS {
            Some(format!(
                "{MOST_PER_ADDRESS} programs from its address wait already"
            ))
        } else {
            None
        };
        match refused {
            Some(why) => {
                tracing::warn!(%addr, name = program.name(), "a contest program turned away: {why}");
                program.close();
            }
            None => {
                tracing::info!(%addr, name = program.name(), "a contest program waits to be seated");
                waiting.push_back(program);
            }
        }
    }
}
