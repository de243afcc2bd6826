//! The game's words in five languages, kept in catalogue files
//! (`locales/<lang>.<part>.json`), not in code, so a translator edits JSON
//! and nothing else.
//!
//! A catalogue is a flat JSON object: each key names one message. A message
//! is either a string or, where it depends on a count, an object of CLDR
//! plural categories (`{"one": "Knight", "other": "Knights"}`, `other`
//! required). `{name}` in a message is a placeholder.
//!
//! There are three parts per language: `game` (card names, titles, the
//! variants' own words) shared by every client, `terminal` (`dalmuti play`)
//! and `web` (the browser client, which the server sends as they are). A key
//! missing from a language falls back to English, then to the key itself, so
//! a missing translation shows up plainly instead of failing.
//!
//! ```
//! use dalmuti_i18n::{Lang, catalogue};
//!
//! let de = catalogue(Lang::De);
//! assert_eq!(de.text("dalmuti.title.greater-dalmuti"), "Großer Dalmuti");
//! assert_eq!(de.count("dalmuti.card.6", 2), "Ritter");
//! assert_eq!(catalogue(Lang::En).count("dalmuti.card.6", 2), "Knights");
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

mod lang;

pub use lang::{BadLang, Lang};

/// Which program a catalogue part serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// Card names, titles and each variant's words: every client.
    Game,
    /// `dalmuti play`.
    Terminal,
    /// The browser client.
    Web,
}

impl Part {
    /// Every part.
    pub const ALL: [Part; 3] = [Part::Game, Part::Terminal, Part::Web];

    /// Its word in file names: `game`, `terminal`, `web`.
    pub fn word(self) -> &'static str {
        match self {
            Part::Game => "game",
            Part::Terminal => "terminal",
            Part::Web => "web",
        }
    }
}

macro_rules! sources {
    ($($lang:ident $code:literal),*) => {
        /// The catalogue file of one language and part, as written.
        ///
        /// The server sends these to browsers unchanged.
        pub fn source(lang: Lang, part: Part) -> &'static str {
            match (lang, part) {
                $(
                    (Lang::$lang, Part::Game) => include_str!(concat!("../locales/", $code, ".game.json")),
                    (Lang::$lang, Part::Terminal) => include_str!(concat!("../locales/", $code, ".terminal.json")),
                    (Lang::$lang, Part::Web) => include_str!(concat!("../locales/", $code, ".web.json")),
                )*
            }
        }
    };
}

sources!(En "en", Ko "ko", De "de", Es "es", Ja "ja");

/// One message: plain, or by plural category.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Message {
    Plain(String),
    Plural { one: Option<String>, other: String },
}

/// The messages of one language (its game and terminal parts), with English
/// behind them for anything missing.
#[derive(Debug)]
pub struct Catalogue {
    lang: Lang,
    messages: HashMap<String, Message>,
    fallback: Option<&'static Catalogue>,
}

/// The catalogue of `lang` (game and terminal parts), parsed once.
pub fn catalogue(lang: Lang) -> &'static Catalogue {
    static CATALOGUES: [OnceLock<Catalogue>; Lang::ALL.len()] =
        [const { OnceLock::new() }; Lang::ALL.len()];
    CATALOGUES[lang as usize].get_or_init(|| {
        let mut messages = HashMap::new();
        for part in [Part::Game, Part::Terminal] {
            // The files are part of this crate and tested to parse, so a
            // failure here is a bug in the build, not bad input.
            let parsed = parse_messages(source(lang, part))
                .unwrap_or_else(|e| panic!("locales/{}.{}.json: {e}", lang.code(), part.word()));
            messages.extend(parsed);
        }
        let fallback = (lang != Lang::En).then(|| catalogue(Lang::En));
        Catalogue {
            lang,
            messages,
            fallback,
        }
    })
}

/// Reads one catalogue file; the error says which key is malformed.
fn parse_messages(text: &str) -> Result<Vec<(String, Message)>, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let object = value
        .as_object()
        .ok_or("a catalogue is one JSON object of messages")?;
    object
        .iter()
        .map(|(key, value)| {
            let message = match value {
                serde_json::Value::String(s) => Message::Plain(s.clone()),
                serde_json::Value::Object(forms) => {
                    let form =
                        |name: &str| forms.get(name).and_then(|v| v.as_str()).map(String::from);
                    if let Some(bad) = forms.keys().find(|k| {
                        !["zero", "one", "two", "few", "many", "other"].contains(&k.as_str())
                    }) {
                        return Err(format!("{key}: {bad:?} is not a plural category"));
                    }
                    Message::Plural {
                        one: form("one"),
                        other: form("other")
                            .ok_or(format!("{key}: a plural message needs \"other\""))?,
                    }
                }
                _ => {
                    return Err(format!(
                        "{key}: a message is a string or an object of plural forms"
                    ));
                }
            };
            Ok((key.clone(), message))
        })
        .collect()
}

impl Catalogue {
    /// The language of this catalogue.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    fn message(&self, key: &str) -> Option<&Message> {
        self.messages
            .get(key)
            .or_else(|| self.fallback.and_then(|f| f.messages.get(key)))
    }

    /// The message `key` (its `other` form if it has plural forms), or the
    /// key itself if no catalogue has it.
    pub fn text<'a>(&'a self, key: &'a str) -> &'a str {
        match self.message(key) {
            Some(Message::Plain(s)) | Some(Message::Plural { other: s, .. }) => s,
            None => key,
        }
    }

    /// The message `key` in the form for `n` things, in this language's
    /// plural rule.
    pub fn count<'a>(&'a self, key: &'a str, n: u64) -> &'a str {
        match self.message(key) {
            Some(Message::Plural { one: Some(one), .. }) if self.lang.is_one(n) => one,
            _ => self.text(key),
        }
    }

    /// `key` with each `{name}` replaced by its value in `args`.
    ///
    /// ```
    /// use dalmuti_i18n::{Lang, catalogue};
    /// let en = catalogue(Lang::En);
    /// // An unknown key is shown as itself, placeholders filled.
    /// assert_eq!(en.format("no such {thing}", &[("thing", "key")]), "no such key");
    /// ```
    pub fn format(&self, key: &str, args: &[(&str, &str)]) -> String {
        fill(self.text(key), args)
    }

    /// [`Catalogue::count`] with placeholders filled; `{n}` is the count.
    pub fn format_count(&self, key: &str, n: u64, args: &[(&str, &str)]) -> String {
        let n_text = n.to_string();
        let mut all = vec![("n", n_text.as_str())];
        all.extend_from_slice(args);
        fill(self.count(key, n), &all)
    }

    /// Whether this language's own files have `key` (not through English).
    pub fn has_own(&self, key: &str) -> bool {
        self.messages.contains_key(key)
    }
}

/// The words of `text` shaped like message keys (`tui.key.help`,
/// `log.round.lead-to`): what a message missing from every catalogue, or a
/// key mistyped in code, leaves on screen. Tests of the programs that speak
/// scan their output with it.
///
/// ```
/// use dalmuti_i18n::raw_keys;
/// assert_eq!(raw_keys("Hand 2 of 3. tui.col.name: Bo"), ["tui.col.name"]);
/// assert!(raw_keys("Bo leads. Saved: 2026-01-01-seed-7.json, 1.º").is_empty());
/// ```
pub fn raw_keys(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')))
        .filter(|word| {
            let mut parts = word.split('.');
            let first = parts.next().unwrap_or_default();
            let rest: Vec<&str> = parts.collect();
            first.starts_with(|c: char| c.is_ascii_lowercase())
                && !rest.is_empty()
                && rest
                    .iter()
                    .all(|p| p.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit()))
        })
        .collect()
}

/// Replaces `{name}` by its value; an unknown placeholder stays as written.
fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match args.iter().find(|(n, _)| *n == name) {
                    Some((_, value)) => out.push_str(value),
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
