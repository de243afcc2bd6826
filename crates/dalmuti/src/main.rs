//! `dalmuti`: the command line of the dalmuti project.

mod loadtest;
mod play;
mod serve;
mod sim;
mod uecda;
mod verify;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use dalmuti_core::Seed;
use dalmuti_core::record::{Checked, Record, check};

/// The Great Dalmuti: rules engine, game records and more.
#[derive(Parser, Debug)]
#[command(name = "dalmuti", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check a game record (dalmuti-record/1) against the rules.
    ///
    /// Exit status: 0 valid, 1 invalid, 2 not a readable record.
    Check {
        /// Print the verdict as one JSON object.
        #[arg(long)]
        json: bool,
        /// The record, or - for standard input.
        file: PathBuf,
    },
    /// Tell a game record hand by hand, every card shown.
    Replay {
        /// The language: en, ko, de, es or ja [default: $DALMUTI_LANG, else
        /// the locale, else English].
        #[arg(long)]
        lang: Option<String>,
        /// The record, or - for standard input.
        file: PathBuf,
    },
    /// Play bots against each other over many hands and report who wins.
    ///
    /// Example: dalmuti sim --players 5 --hands 100000 --bots
    /// search,heuristic,heuristic,greedy,random --seed 7
    ///
    /// A round-robin ladder of any bots, your own included, with ratings
    /// and 95% intervals: dalmuti sim --ladder 'greedy,heuristic,cmd:python3
    /// mybot.py' --players 5 --hands 400 --seed 1 --json ladder.json --plot
    /// ladder.svg
    ///
    /// Exit status: 0 done, 1 the run failed (a bot would not start, a file
    /// could not be written), 2 bad arguments.
    Sim(sim::SimCli),
    /// Play a game against bots in the terminal: The Great Dalmuti, or
    /// Corporate Shuffle with --variant corporate-shuffle.
    ///
    /// On a terminal it opens the full-screen game: arrows or 1-9 0 - = pick
    /// a rank, up/down how many, j adds Jesters (d Dogberts; t joins the
    /// Twirling Wedgie to your 6s), Enter plays (asking whom a Wedgie names
    /// or what Dogberts alone are worth), p passes, h hints, ? shows help, q
    /// quits. With --plain (or when standard input is not a terminal)
    /// commands are typed as lines: play 6 6 J, play D D as 3, play 6 T
    /// wedgie Wally, pass, revolution (takeover), no, give 10 10, offer 4 7,
    /// decline, answer 9, hint, legal, hand, table, log, score, help, quit.
    /// On quit (or at the end) a game in which you made a move is saved as
    /// a record in $XDG_DATA_HOME/dalmuti/games (or
    /// ~/.local/share/dalmuti/games), and its path printed with the command
    /// that tells it; quit before your first move and nothing is saved (the
    /// seed is printed, to deal the same game again).
    ///
    /// Exit status: 0 played (and saved, if you moved), 1 the game could
    /// not start or be saved, 2 bad arguments.
    Play(play::PlayCli),
    /// Serve the multiplayer game: the browser client at /, the lobby API
    /// under /api, a WebSocket per table (docs/PROTOCOL.md).
    ///
    /// Tables, seats and every accepted action are kept in an SQLite file;
    /// start the server again after a crash and every table goes on where
    /// it was.
    ///
    /// Exit status: 0 stopped by Ctrl-C or SIGTERM, 1 could not start.
    Serve(serve::ServeArgs),
    /// Check a downloaded game's fairness: each hand's revealed seed matches
    /// the commitment published before its deal, and deals exactly the
    /// recorded cards (docs/FAIRNESS.md).
    ///
    /// Exit status: 0 every hand verified, 1 a hand does not verify, 2 not
    /// a readable record with fairness data.
    Verify(verify::VerifyArgs),
    /// Load a server with many tables of scripted clients over real
    /// WebSockets and report the connected seats held and the time from an
    /// action to its broadcast (docs/PERFORMANCE.md).
    Loadtest(loadtest::LoadtestCli),
    /// The UECda contest's protocol both ways: contest programs on our
    /// server (serve), our bots on a contest server (join). See
    /// docs/UECDA.md.
    Uecda(uecda::UecdaCli),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { json, file } => run_check(&file, json),
        Command::Replay { lang, file } => run_replay(&file, lang.as_deref()),
        Command::Sim(args) => sim::run_sim(args),
        Command::Play(args) => play::run_play(args),
        Command::Serve(args) => serve::run_serve(args),
        Command::Verify(args) => verify::run_verify(args),
        Command::Loadtest(args) => loadtest::run_loadtest(args),
        Command::Uecda(args) => uecda::run_uecda(args),
    }
}

fn read_input(file: &PathBuf) -> Result<String, String> {
    let mut text = String::new();
    let result = if file.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read(file).and_then(|bytes| {
            text = String::from_utf8(bytes).map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text")
            })?;
            Ok(())
        })
    };
    result
        .map(|_| text)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))
}

fn run_check(file: &PathBuf, json: bool) -> ExitCode {
    let verdict = match read_input(file) {
        Ok(text) => check(&text),
        Err(e) => Checked::Unreadable(e),
    };
    let lines = if json {
        vec![verdict.to_json()]
    } else {
        match &verdict {
            Checked::Valid(report) => {
                let mut lines = vec![format!("valid: {} hand(s)", report.hands.len())];
                if let Some(seating) = &report.seating {
                    lines.push(format!("next seating: {}", seating.join(", ")));
                }
                if let Some(totals) = &report.totals {
                    let t: Vec<String> = totals.iter().map(|(n, p)| format!("{n} {p}")).collect();
                    lines.push(format!("totals: {}", t.join(", ")));
                }
                lines
            }
            Checked::Invalid(fault) => vec![format!("invalid: {fault}")],
            Checked::Unreadable(m) => {
                eprintln!("not a readable record: {m}");
                vec![]
            }
        }
    };
    print_lines(lines);
    ExitCode::from(verdict.exit_code() as u8)
}

fn run_replay(file: &PathBuf, lang: Option<&str>) -> ExitCode {
    let lang = match dalmuti_terminal::config::choose_lang(lang, |k| std::env::var(k).ok()) {
        Ok(lang) => lang,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let text = match read_input(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let record = match Record::parse(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(match e {
                dalmuti_core::record::ReadError::Unreadable(_) => 2,
                dalmuti_core::record::ReadError::Invalid(_) => 1,
            });
        }
    };
    let game = record
        .replay(Seed::from(0))
        .expect("a record that checks replays");
    let tr = dalmuti_terminal::tr::Tr::new(lang, game.rules().variant);
    print_lines(dalmuti_terminal::replay::game(&game, tr))
}

/// Prints lines to standard output; a reader that goes away early (`| head`)
/// ends the program quietly instead of with a panic.
fn print_lines(lines: impl IntoIterator<Item = String>) -> ExitCode {
    let mut out = std::io::stdout().lock();
    for line in lines {
        if let Err(e) = writeln!(out, "{line}") {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("cannot write the replay: {e}");
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
