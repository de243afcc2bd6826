//! `dalmuti play`: a game against bots in the terminal, as a library so
//! that the command line stays thin and other programs can reuse the game.
//!
//! - [`config`]: the options and the checked configuration;
//! - [`session`]: the game session driver that every interface stands on;
//! - [`tui`]: the full-screen game, when standard input and output are
//!   terminals and `--plain` is not given;
//! - [`plain`]: the plain line mode (`--plain`, or when standard input is
//!   not a terminal);
//! - [`command`] and [`words`]: what the player types, and the game in
//!   words;
//! - [`save`]: where a game is saved as a record;
//! - [`tr`] and [`narrate`]: every word in the player's language, from the
//!   catalogues of `dalmuti-i18n`.

pub mod command;
pub mod config;
pub mod narrate;
pub mod plain;
pub mod save;
pub mod session;
pub mod tr;
pub mod tui;
pub mod words;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

pub use config::{Config, PlayArgs};
pub use session::Session;

/// Runs `dalmuti play`: exit status 0 when the game ends or the player
/// quits and the game is saved, 1 when it cannot start or cannot be saved,
/// 2 for bad arguments.
pub fn run_play(args: PlayArgs) -> ExitCode {
    let config = match Config::new(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut session = match Session::new(&config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let result = if !config.plain && stdin.is_terminal() && stdout.is_terminal() {
        tui::run(&mut session, &config)
    } else {
        let delay = (stdout.is_terminal() && !config.speed.is_zero()).then_some(config.speed);
        let options = plain::Options { delay, note: None };
        plain::run(&mut session, stdin.lock(), stdout.lock(), &options).map(|_| ())
    };
    let saved = save::default_dir().and_then(|dir| session.save_record(&dir));
    let mut out = stdout.lock();
    // A reader that went away (`| head`) is no reason to lose the game, nor
    // to complain: the record is saved above either way.
    let _ = match &saved {
        Ok(path) => writeln!(
            out,
            "{}",
            session
                .tr()
                .t("game-saved", &[("path", &path.display().to_string())])
        ),
        Err(_) => Ok(()),
    };
    let _ = out.flush();
    if let Err(e) = &result
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: {e}");
    }
    match saved {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
