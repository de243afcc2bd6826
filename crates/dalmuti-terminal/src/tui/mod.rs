//! The full-screen game (`dalmuti play` on a terminal), with ratatui over
//! crossterm.
//!
//! - `app`: the [`App`]: what is on screen and what each key does. It
//!   holds the [`Session`] and no terminal, so tests drive it key by key;
//! - `ui`: drawing an [`App`] (`impl Widget for &App`);
//! - [`run`]: the one event loop: draw, wait for a key or the next bot's
//!   turn, repeat.
//!
//! Bots act one step per tick, `--speed` milliseconds apart, and the screen
//! is drawn after every step so a human can follow. A bot thinks on a
//! thread of its own ([`Session::think`]) while the loop goes on answering
//! keys (scrolling, the help, the language, quitting at once) and turns a
//! spinner with the thinker's name (only who, never what; nobody's while
//! the hand is set up). Its answer is played when it comes, and not before
//! the delay since the last step is over.

mod app;
mod ui;

#[cfg(test)]
mod tests;

use std::io;
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyEventKind};

pub use app::{App, Theme};

use super::config::Config;
use super::session::Session;

/// Plays `session` full screen until the game is over or the player quits.
/// The terminal is restored on return and on panic (ratatui's hook); saving
/// the record and printing its path are the caller's, once the normal
/// screen is back.
pub fn run(session: &mut Session, config: &Config) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let result = event_loop(&mut terminal, session, config);
    ratatui::try_restore()?;
    result
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    session: &mut Session,
    config: &Config,
) -> io::Result<()> {
    let mut app = App::new(session, Theme::from_env(), config.speed);
    loop {
        terminal.draw(|frame| frame.render_widget(&app, frame.area()))?;
        if app.is_done() {
            return Ok(());
        }
        // Wait for a key, or until the next bot may act. With nothing for a
        // bot to do, wait for a key (or a resize) as long as it takes.
        let wait = app
            .bot_wait(Instant::now())
            .unwrap_or(Duration::from_secs(3600));
        if event::poll(wait)? {
            match event::read()? {
                Event::Key(key) if key.kind != KeyEventKind::Release => app.on_key(key),
                // A resize (or anything else) only asks for a new frame.
                _ => {}
            }
        } else {
            app.tick(Instant::now());
        }
    }
}
