//! The server as a child process: `dalmuti serve` started on loopback
//! with a temporary database, and what became of it.

use std::io::{BufRead, BufReader as StdBufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::args::{LoadtestArgs, tables_for};

pub(crate) struct Server {
    pub(crate) child: Child,
    pub(crate) addr: SocketAddr,
    pub(crate) dir: PathBuf,
    pub(crate) output: Arc<Mutex<Vec<String>>>,
}

/// What became of the server the load test started.
pub(crate) struct ServerReport {
    pub(crate) cpu_seconds: Option<f64>,
    pub(crate) max_rss_mib: Option<f64>,
    pub(crate) clean_exit: bool,
    pub(crate) exit: String,
}

impl Server {
    pub(crate) fn start(args: &LoadtestArgs, fd_limit: u64) -> Result<Server, String> {
        let exe = match &args.server_program {
            Some(program) => program.clone(),
            None => {
                std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?
            }
        };
        let dir = std::env::temp_dir().join(format!("dalmuti-loadtest-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let tables = tables_for(args);
        let mut child = Command::new(exe)
            .arg("serve")
            .args(["--addr", "127.0.0.1:0"])
            .arg("--data")
            .arg(dir.join("server.sqlite"))
            // No pause of any kind (the setup's look-at-your-cards pause
            // too, which left the tables idle six seconds a hand).
            .args([
                "--bot-delay",
                "0",
                "--hand-pause",
                "0",
                "--setup-pause",
                "0",
            ])
            .args(["--grace", "3600"])
            .args(["--max-connections", &(args.seats + 1000).to_string()])
            .args(["--max-tables", &(tables + 100).to_string()])
            // Every simulated client comes from this machine's address.
            .args(["--max-per-address", &(args.seats + 1000).to_string()])
            .args(["--tables-per-address", &(tables + 100).to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run `dalmuti serve`: {e}"))?;
        eprintln!(
            "dalmuti loadtest: started `dalmuti serve` (pid {}, open-file limit {fd_limit}, data in {})",
            child.id(),
            dir.display()
        );
        let stderr = child
            .stderr
            .take()
            .ok_or("no standard error from the server")?;
        let output = Arc::new(Mutex::new(Vec::new()));
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let lines = output.clone();
        std::thread::spawn(move || {
            let mut addr_tx = Some(addr_tx);
            for line in StdBufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(tx) = &addr_tx
                    && let Some(addr) = parse_open_line(&line)
                {
                    let _ = tx.send(addr);
                    addr_tx = None;
                    continue;
                }
                eprintln!("server: {line}");
                if let Ok(mut l) = lines.lock() {
                    l.push(line);
                }
            }
        });
        let started = Instant::now();
        loop {
            match addr_rx.recv_timeout(Duration::from_millis(100)) {
                Ok(addr) => {
                    return Ok(Server {
                        child,
                        addr,
                        dir,
                        output,
                    });
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {}
            }
            if let Ok(Some(status)) = child.try_wait() {
                let said = output.lock().map(|l| l.join("\n")).unwrap_or_default();
                let _ = std::fs::remove_dir_all(&dir);
                return Err(format!("it exited ({status}) before listening: {said}"));
            }
            if started.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                let _ = child.wait();
                let _ = std::fs::remove_dir_all(&dir);
                return Err("it did not print its address within 60 seconds".into());
            }
        }
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server with SIGTERM (as an operator would) and says how
    /// it went and what it used.
    pub(crate) fn stop(mut self) -> ServerReport {
        let (cpu_seconds, max_rss_mib) = process_usage(self.child.id());
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                _ => break None,
            }
        };
        let (clean_exit, exit) = match status {
            Some(s) => (s.success(), s.to_string()),
            None => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                (
                    false,
                    "did not stop within 30 s of SIGTERM: killed".to_string(),
                )
            }
        };
        if !clean_exit {
            let said = self.output.lock().map(|l| l.join("\n")).unwrap_or_default();
            eprintln!("dalmuti loadtest: the server did not stop cleanly ({exit}): {said}");
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        ServerReport {
            cpu_seconds,
            max_rss_mib,
            clean_exit,
            exit,
        }
    }
}

/// `dalmuti serve: open http://127.0.0.1:PORT/ ...` gives the address.
pub(crate) fn parse_open_line(line: &str) -> Option<SocketAddr> {
    let rest = &line[line.find("open http://")? + "open http://".len()..];
    rest[..rest.find('/')?].parse().ok()
}

/// CPU seconds used so far and the peak resident memory of a process
/// (from /proc; None where there is no /proc).
pub(crate) fn process_usage(pid: u32) -> (Option<f64>, Option<f64>) {
    let cpu = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            // Fields after the command name (which is in parentheses):
            // utime and stime are the 14th and 15th fields of the line.
            let after = &stat[stat.rfind(')')? + 2..];
            let fields: Vec<&str> = after.split_whitespace().collect();
            let utime: f64 = fields.get(11)?.parse().ok()?;
            let stime: f64 = fields.get(12)?.parse().ok()?;
            Some((utime + stime) / 100.0)
        });
    let rss = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib / 1024.0)
        });
    (cpu, rss)
}
