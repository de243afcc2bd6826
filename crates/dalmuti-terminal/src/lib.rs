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
pub mod phrase;
pub mod plain;
pub mod replay;
pub mod save;
pub mod session;
pub mod tr;
pub mod tui;
pub mod words;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

pub use config::{Config, ConfigError, PlayArgs};
pub use save::SaveError;
pub use session::{Session, SessionError};

/// A game played to its end or to the player's quit, and saved.
#[derive(Debug)]
pub struct Played {
    /// Where the game's record was saved; `None` when the player made no
    /// move, and there was nothing worth keeping.
    pub saved: Option<PathBuf>,
    /// The terminal failed before the end (the game was saved as far as
    /// it went); a reader that went away (`| head`) is not a failure.
    pub interrupted: Option<std::io::Error>,
}

/// Why `dalmuti play` did not play or keep a game.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The options do not make a game.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The game could not start (a bot would not start).
    #[error(transparent)]
    Start(#[from] SessionError),
    /// The game could not be saved (and, if the terminal failed first, why).
    #[error("{error}")]
    Save {
        /// Why the record was not written.
        error: SaveError,
        /// The terminal's failure before it, if any.
        interrupted: Option<std::io::Error>,
    },
}

/// Runs `dalmuti play`: the game on the terminal (full screen, or lines
/// with `--plain` or when standard input is not one), then its record saved
/// and its path said in the player's language.
pub fn run_play(args: &PlayArgs) -> Result<Played, PlayError> {
    let config = Config::new(args)?;
    let mut session = Session::new(&config)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let result = if !config.plain && stdin.is_terminal() && stdout.is_terminal() {
        tui::run(&mut session, &config)
    } else {
        let delay = (stdout.is_terminal() && !config.speed.is_zero()).then_some(config.speed);
        let options = plain::Options { delay, note: None };
        plain::run(&mut session, stdin.lock(), stdout.lock(), &options).map(|_| ())
    };
    let interrupted = result
        .err()
        .filter(|e| e.kind() != std::io::ErrorKind::BrokenPipe);
    let tr = session.tr();
    let (saved, said) = if session.has_moved() {
        let saved = save::default_dir().and_then(|dir| session.save_record(&dir));
        let saved = match saved {
            Ok(path) => path,
            Err(error) => return Err(PlayError::Save { error, interrupted }),
        };
        let path = saved.display().to_string();
        let replay = format!("{} replay {}", this_program(), shell_word(&path));
        let said = tr.t("game-saved", &[("path", &path), ("replay", &replay)]);
        (Some(saved), said)
    } else {
        (
            None,
            tr.t("game-not-saved", &[("seed", session.seed_text())]),
        )
    };
    let mut out = stdout.lock();
    // A reader that went away (`| head`) is no reason to lose the game, nor
    // to complain: the record is saved above either way.
    let _ = writeln!(out, "{said}");
    let _ = out.flush();
    Ok(Played { saved, interrupted })
}

/// How to run this program again, for the saved game's line: `dalmuti`
/// when that name on the `PATH` is this program, else its own path
/// (`target/release/dalmuti` for someone who has only `cargo run`),
/// relative to the current folder when it lies below it.
fn this_program() -> String {
    let Ok(exe) = std::env::current_exe().and_then(std::fs::canonicalize) else {
        return "dalmuti".into();
    };
    let on_path = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths)
            .any(|dir| std::fs::canonicalize(dir.join("dalmuti")).is_ok_and(|found| found == exe))
    });
    if on_path {
        return "dalmuti".into();
    }
    let here = std::env::current_dir().and_then(std::fs::canonicalize);
    let shown = match here {
        Ok(here) => exe.strip_prefix(&here).map_or(exe.clone(), PathBuf::from),
        Err(_) => exe.clone(),
    };
    let shown = shown.display().to_string();
    // A bare name would be looked up on the PATH, not found here.
    if shown.contains('/') {
        shell_word(&shown)
    } else {
        shell_word(&format!("./{shown}"))
    }
}

/// `text` as one word of a shell command: quoted when it holds anything
/// but letters, digits and `/._-+:,=@%`.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:,=@%".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}
