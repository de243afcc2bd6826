//! Bots in other programs, speaking the bot protocol ([`crate::protocol`],
//! `docs/BOT-PROTOCOL.md`) on their standard input and output.
//!
//! The program runs as a child process. Two threads per program move the
//! lines: one writes the game's messages to its standard input (so a bot
//! that stops reading can never block the game), one reads its standard
//! output into a channel that [`ExternalBot::decide`] waits on with the time
//! limit. Its standard error is the game's, for the bot's own messages.
//!
//! A bot that fails (crashes, hangs, prints garbage, answers an illegal
//! action) gets a [`BotFault`] and one line on standard error; the caller
//! plays [`crate::fallback`] and the game goes on. A crashed or hung program
//! is stopped and started again for the next decision; after
//! [`MAX_FAILURES_IN_A_ROW`] crashes or hangs without a legal answer between
//! them, or if it cannot be started again, the bot is given up on and every
//! later decision fails at once with [`BotFault::Crashed`].

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use dalmuti_core::{Action, View};

use crate::protocol::{FromBot, ToBot, describe_decision, truncate};
use crate::{BadSpec, Bot, BotFault};

/// Crashes or hangs in a row (without a legal answer between them) after
/// which a bot's program is not started again.
const MAX_FAILURES_IN_A_ROW: u32 = 3;

/// How long a program may take to exit once told to quit.
const QUIT_GRACE: Duration = Duration::from_secs(1);

/// How long to wait for the exit status of a program that closed its
/// output, for the message.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(200);

/// The longest line read from a bot; longer lines are garbage.
const MAX_LINE: usize = 64 * 1024;

/// Lines read from a program but not yet taken by the game.
const LINES_IN_FLIGHT: usize = 64;

/// How much of what a bot said goes into a message.
const SHOWN: usize = 200;

/// The longest name a bot may give itself.
const MAX_NAME: usize = 40;

/// A bot in another program, started from a command line, that answers
/// decisions with the bot protocol (`docs/BOT-PROTOCOL.md`).
///
/// ```no_run
/// use std::time::Duration;
/// use dalmuti_bots::{Bot, ExternalBot};
/// let bot = ExternalBot::spawn("python3 examples/bot.py", Duration::from_secs(5)).unwrap();
/// println!("playing with {}", bot.name());
/// ```
#[derive(Debug)]
pub struct ExternalBot {
    /// The command line, as given.
    command: String,
    /// The command line split into the program and its arguments.
    argv: Vec<String>,
    /// The time limit per answer (and for the greeting).
    timeout: Duration,
    /// The name the bot gave itself, or the command.
    name: String,
    /// The running program; `None` after a crash or hang, until the next
    /// decision starts it again.
    process: Option<Process>,
    /// The number of the last decision sent.
    last_id: u64,
    /// The last seed, sent again to a restarted program.
    seed: Option<u64>,
    /// Crashes and hangs since the last legal answer.
    failures_in_a_row: u32,
    /// Why the bot was given up on, if it was.
    given_up: Option<String>,
}

impl ExternalBot {
    /// Starts the program and greets it: it must answer `ready` within
    /// `timeout`, which is also its time limit for every decision.
    ///
    /// `command` is split on white space; single or double quotes keep
    /// white space inside one argument (`python3 -c "print(1)"`). There is
    /// no other shell syntax.
    pub fn spawn(command: &str, timeout: Duration) -> Result<ExternalBot, BadSpec> {
        let argv = split_command(command).map_err(|e| BadSpec(format!("cmd:{command}: {e}")))?;
        let (process, name) =
            Process::start(&argv, timeout).map_err(|e| BadSpec(format!("cmd:{command}: {e}")))?;
        let name = name
            .map(|n| clean_name(&n))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| clean_name(command));
        Ok(ExternalBot {
            command: command.to_string(),
            argv,
            timeout,
            name,
            process: Some(process),
            last_id: 0,
            seed: None,
            failures_in_a_row: 0,
            given_up: None,
        })
    }

    /// The command line the bot was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The time limit per decision.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The process id of the running program: `None` between a crash or
    /// hang and the next decision, and once given up on.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(|p| p.child.id())
    }

    /// Whether the bot was given up on: its program crashed or hung too
    /// often, or could not be started again. Every decision then fails at
    /// once with [`BotFault::Crashed`].
    pub fn is_given_up(&self) -> bool {
        self.given_up.is_some()
    }

    /// Prints one line about the bot on standard error.
    fn report(&self, message: &str) {
        eprintln!("dalmuti: bot {}: {message}", self.name);
    }

    /// The running program, started again if it crashed or hung before.
    fn running(&mut self) -> Result<&mut Process, BotFault> {
        if let Some(reason) = &self.given_up {
            return Err(BotFault::Crashed(reason.clone()));
        }
        if self.process.is_none() {
            match Process::start(&self.argv, self.timeout) {
                Ok((process, _)) => {
                    if let Some(seed) = self.seed {
                        process.send(&ToBot::Seed { seed });
                    }
                    self.process = Some(process);
                }
                Err(e) => {
                    let reason = format!(
                        "{}: could not be started again ({e}); its decisions are played by fallback from now on",
                        self.name
                    );
                    self.report(&format!("crashed: {reason}"));
                    self.given_up = Some(reason.clone());
                    return Err(BotFault::Crashed(reason));
                }
            }
        }
        Ok(self.process.as_mut().expect("started above"))
    }

    /// A crash or hang: the program is stopped (to be started again for
    /// the next decision, or given up on).
    fn failed(&mut self, fault: BotFault, what: &str) -> BotFault {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.failures_in_a_row += 1;
        let next = if self.failures_in_a_row >= MAX_FAILURES_IN_A_ROW {
            let reason = format!(
                "{}: gave up on it after {} crashes or hangs in a row; its decisions are played by fallback from now on",
                self.name, self.failures_in_a_row
            );
            self.given_up = Some(reason);
            "gave up on it after this one: its decisions are played by fallback from now on"
                .to_string()
        } else {
            "stopped it; it starts again for the next decision".to_string()
        };
        match &fault {
            BotFault::TimedOut(limit) => self.report(&format!(
                "gave no answer within {limit:?} to {what}; {next}"
            )),
            _ => self.report(&format!("{fault}; {next}")),
        }
        fault
    }
}

impl Bot for ExternalBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        self.last_id += 1;
        let id = self.last_id;
        let what = format!(
            "decision {id} ({})",
            view.decision()
                .map_or_else(|| "no decision".to_string(), |d| describe_decision(&d))
        );
        let about = format!("{}, {what}", self.name);
        let timeout = self.timeout;
        match self.running()?.ask(id, view, legal, timeout, &about) {
            Outcome::Chose(action) => {
                self.failures_in_a_row = 0;
                Ok(action)
            }
            Outcome::Refused(fault) => {
                self.report(&fault.to_string());
                Err(fault)
            }
            Outcome::Failed(fault) => Err(self.failed(fault, &what)),
        }
    }

    fn reseed(&mut self, seed: u64) {
        self.seed = Some(seed);
        if let Some(process) = &self.process {
            // A program that is gone is found out at the next decision.
            process.send(&ToBot::Seed { seed });
        }
    }
}

/// What the reading thread passes on.
#[derive(Debug)]
enum FromProcess {
    /// One line, without its end.
    Line(String),
    /// A line too long to keep: its start.
    TooLong(String),
    /// The program closed its output: it ended, most likely.
    Closed,
}

/// How a program answered one decision.
#[derive(Debug)]
enum Outcome {
    /// A legal action.
    Chose(Action),
    /// Garbage or an illegal action: the program runs on.
    Refused(BotFault),
    /// A crash or a hang: the program must be stopped.
    Failed(BotFault),
}

/// A running bot program and its two threads.
#[derive(Debug)]
struct Process {
    child: Child,
    /// Lines for the writing thread; `None` once closed.
    to_bot: Option<Sender<String>>,
    /// Lines from the reading thread.
    lines: Receiver<FromProcess>,
    /// Whether the child was waited for (no zombie is left).
    reaped: bool,
}

impl Process {
    /// Starts the program and greets it. Returns the name it gave, or why
    /// it did not start.
    fn start(argv: &[String], timeout: Duration) -> Result<(Process, Option<String>), String> {
        let (program, args) = argv.split_first().ok_or("the command is empty")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {program:?}: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("cannot reach the program's input and output".into());
        };
        let (to_bot, for_writer) = mpsc::channel();
        // Bounded, so a program that floods its output is held back by a
        // full pipe instead of filling memory.
        let (for_reader, lines) = mpsc::sync_channel(LINES_IN_FLIGHT);
        let threads = thread::Builder::new()
            .name("dalmuti-bot-writer".into())
            .spawn(move || write_lines(stdin, for_writer))
            .and_then(|_| {
                thread::Builder::new()
                    .name("dalmuti-bot-reader".into())
                    .spawn(move || read_lines(stdout, for_reader))
            });
        let mut process = Process {
            child,
            to_bot: Some(to_bot),
            lines,
            reaped: false,
        };
        if let Err(e) = threads {
            process.kill();
            return Err(format!("cannot start a thread for it: {e}"));
        }

        process.send(&ToBot::hello(timeout));
        let deadline = Instant::now().checked_add(timeout);
        // Lines before `ready` are skipped (a banner, say); the first is
        // shown if the greeting fails.
        let mut first_said: Option<String> = None;
        fn keep(said: &str, first: &mut Option<String>) {
            if first.is_none() && !said.trim().is_empty() {
                *first = Some(shown(said));
            }
        }
        let failure = loop {
            match recv_before(&process.lines, deadline) {
                Ok(FromProcess::Line(line)) => match FromBot::parse(&line) {
                    Ok(FromBot::Ready { name }) => return Ok((process, name)),
                    _ => keep(&line, &mut first_said),
                },
                Ok(FromProcess::TooLong(start)) => keep(&start, &mut first_said),
                Ok(FromProcess::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    break format!(
                        "the program ended ({}) without answering the greeting",
                        process.exit_status()
                    );
                }
                Err(RecvTimeoutError::Timeout) => {
                    break format!(
                        r#"no {{"type": "ready"}} answer to the greeting within {timeout:?}"#
                    );
                }
            }
        };
        process.kill();
        Err(match first_said {
            Some(said) => format!("{failure}; it said `{said}`"),
            None => format!("{failure}; it said nothing"),
        })
    }

    /// Asks decision `id` and waits up to `timeout` for the answer.
    /// `about` names the bot and the decision in messages.
    fn ask(
        &mut self,
        id: u64,
        view: &View<'_>,
        legal: &[Action],
        timeout: Duration,
        about: &str,
    ) -> Outcome {
        // Lines the program printed since its last answer are not answers
        // to this decision; if it ended meanwhile, that is a crash.
        if let Some(status) = self.drain() {
            return Outcome::Failed(BotFault::Crashed(format!(
                "{about}: the program had ended ({status}) before it was asked"
            )));
        }
        if !self.send(&ToBot::decide(id, view, legal)) {
            return Outcome::Failed(BotFault::Crashed(format!(
                "{about}: could not write to the program ({})",
                self.exit_status()
            )));
        }
        let deadline = Instant::now().checked_add(timeout);
        loop {
            let line = match recv_before(&self.lines, deadline) {
                Ok(FromProcess::Line(line)) => line,
                Ok(FromProcess::TooLong(start)) => {
                    return Outcome::Refused(BotFault::Garbage(format!(
                        "{about}: said a line longer than {MAX_LINE} bytes, starting `{}`",
                        shown(&start)
                    )));
                }
                Ok(FromProcess::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Outcome::Failed(BotFault::Crashed(format!(
                        "{about}: the program ended ({}) before answering",
                        self.exit_status()
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Outcome::Failed(BotFault::TimedOut(timeout));
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            let said = |problem: &dyn std::fmt::Display| {
                format!("{about}: said `{}`: {problem}", shown(&line))
            };
            return match FromBot::parse(&line) {
                // A late answer to an earlier decision: not this one's.
                Ok(FromBot::Answer {
                    id: Some(other), ..
                }) if other != id => continue,
                Ok(FromBot::Answer { choice, .. }) => match choice.resolve(legal) {
                    Ok(action) => Outcome::Chose(action),
                    Err(e) => Outcome::Refused(BotFault::Illegal(said(&e))),
                },
                Ok(FromBot::Ready { .. }) => Outcome::Refused(BotFault::Garbage(said(
                    &"a ready message, not an answer to the decision",
                ))),
                Err(e) => Outcome::Refused(BotFault::Garbage(said(&e))),
            };
        }
    }

    /// Queues a message for the program; false if its input is closed.
    fn send(&self, message: &ToBot) -> bool {
        let mut line = message.to_line();
        line.push('\n');
        self.to_bot
            .as_ref()
            .is_some_and(|to_bot| to_bot.send(line).is_ok())
    }

    /// Throws away the lines waiting to be read. Returns how the program
    /// ended, if it did.
    fn drain(&mut self) -> Option<String> {
        loop {
            match self.lines.try_recv() {
                Ok(FromProcess::Line(_) | FromProcess::TooLong(_)) => {}
                Ok(FromProcess::Closed) | Err(TryRecvError::Disconnected) => {
                    return Some(self.exit_status());
                }
                Err(TryRecvError::Empty) => return None,
            }
        }
    }

    /// How the program ended, in words, waiting a little for it to end.
    fn exit_status(&mut self) -> String {
        match self.wait_for(EXIT_STATUS_WAIT) {
            Some(status) => status.to_string(),
            None => "its output closed".into(),
        }
    }

    /// Waits up to `limit` for the program to end by itself.
    fn wait_for(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return Some(status);
                }
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Ends the program now and waits for it.
    fn kill(&mut self) {
        self.to_bot = None;
        if !self.reaped {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.reaped = true;
        }
    }
}

impl Drop for Process {
    /// Says quit and closes the program's input; ends it if it has not
    /// exited within [`QUIT_GRACE`].
    fn drop(&mut self) {
        if self.reaped {
            return;
        }
        self.send(&ToBot::Quit);
        self.to_bot = None;
        if self.wait_for(QUIT_GRACE).is_none() {
            self.kill();
        }
    }
}

/// The next message from the reading thread, waiting until `deadline`
/// (for ever if `None`: a time limit too large to add to the clock).
fn recv_before(
    lines: &Receiver<FromProcess>,
    deadline: Option<Instant>,
) -> Result<FromProcess, RecvTimeoutError> {
    match deadline {
        // A program that floods its output always has a line ready: the
        // deadline is checked first so it cannot keep the game waiting.
        Some(deadline) if Instant::now() >= deadline => Err(RecvTimeoutError::Timeout),
        Some(deadline) => lines.recv_timeout(deadline.saturating_duration_since(Instant::now())),
        None => lines.recv().map_err(|_| RecvTimeoutError::Disconnected),
    }
}

/// The writing thread: each message to the program's input, until the
/// channel closes or the program stops reading.
fn write_lines(mut stdin: ChildStdin, messages: Receiver<String>) {
    for line in messages {
        if stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// The reading thread: each line of the program's output, until it closes.
fn read_lines(stdout: ChildStdout, lines: SyncSender<FromProcess>) {
    let mut reader = BufReader::new(stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    let text = |bytes: &[u8]| {
        let s = String::from_utf8_lossy(bytes);
        s.strip_suffix('\r').unwrap_or(&s).to_string()
    };
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = e;
                let _ = lines.send(FromProcess::Closed);
                return;
            }
        };
        if buf.is_empty() {
            // The end: a last line without its newline still counts.
            if too_long {
                let _ = lines.send(FromProcess::TooLong(text(&line)));
            } else if !line.is_empty() {
                let _ = lines.send(FromProcess::Line(text(&line)));
            }
            let _ = lines.send(FromProcess::Closed);
            return;
        }
        let (part, used, ended) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        if part.len() > room {
            too_long = true;
        }
        line.extend_from_slice(&part[..part.len().min(room)]);
        reader.consume(used);
        if ended {
            let message = if too_long {
                FromProcess::TooLong(text(&line[..line.len().min(SHOWN * 4)]))
            } else {
                FromProcess::Line(text(&line))
            };
            if lines.send(message).is_err() {
                // Nobody listens any more: read on to the end so the
                // program never blocks on a full pipe, keeping nothing.
                let _ = std::io::copy(&mut reader, &mut std::io::sink());
                return;
            }
            line.clear();
            too_long = false;
        }
    }
}

/// What a bot said, for a message: cut short, control characters escaped.
fn shown(said: &str) -> String {
    let cut = truncate(said.trim(), SHOWN);
    cut.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

/// A bot's name for reports: one line, no control characters, not too
/// long.
fn clean_name(name: &str) -> String {
    let name: String = name
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    truncate(&name, MAX_NAME)
}

/// Splits a command line on white space; single or double quotes keep
/// white space (and the other quote) inside one argument.
fn split_command(command: &str) -> Result<Vec<String>, String> {
    let mut args = Vec::new();
    let mut arg = String::new();
    let mut in_arg = false;
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => arg.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_arg = true;
            }
            None if c.is_whitespace() => {
                if in_arg {
                    args.push(std::mem::take(&mut arg));
                    in_arg = false;
                }
            }
            None => {
                arg.push(c);
                in_arg = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("a {q} quote is not closed"));
    }
    if in_arg {
        args.push(arg);
    }
    if args.is_empty() {
        return Err("the command is empty".into());
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_on_white_space_and_quotes_keep_it() {
        assert_eq!(
            split_command("  python3   examples/bot.py ").unwrap(),
            ["python3", "examples/bot.py"]
        );
        assert_eq!(
            split_command(r#"python3 -c "print('a b')" x'y z'"#).unwrap(),
            ["python3", "-c", "print('a b')", "xy z"]
        );
        assert_eq!(split_command(r#"a "" b"#).unwrap(), ["a", "", "b"]);
        assert!(split_command("  ").is_err());
        assert!(split_command("python3 'bot.py").is_err());
    }

    #[test]
    fn what_a_bot_said_is_cut_short_and_escaped() {
        assert_eq!(shown("a\u{1b}[31mb\n"), "a\\u{1b}[31mb");
        let long = shown(&"é".repeat(1000));
        assert_eq!(long.chars().count(), SHOWN + 1);
        assert_eq!(clean_name(" my\tbot "), "my bot");
    }
}
