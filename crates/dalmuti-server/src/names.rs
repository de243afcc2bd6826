//! Display names as people choose them: a new name is refused if it hides
//! characters (invisible or bidirectional controls), and two names are the
//! same name if they look alike (issue 24, S7): "Ann", "ANN", "Аnn" with a
//! Cyrillic А, "Ann" with a zero-width space.
//!
//! Names already in a table's log are not checked again when it is
//! replayed: an old log must keep replaying ([`check_name`]).

use unicode_security::confusable_detection::skeleton;

use crate::error::ServerError;

/// A player's display name, checked: 1 to 32 characters, no control
/// characters, no space at either end ([`check_name`]). A seat, a chat
/// line's speaker and a standing are named by one. Written as a plain JSON
/// string; read back through [`check_name`], so a stored or sent name
/// that breaks the rules is refused where it is read.
///
/// ```
/// use dalmuti_server::names::PlayerName;
/// let ann = PlayerName::new(" Ann ").unwrap();
/// assert_eq!(ann, "Ann");
/// assert_eq!(serde_json::to_string(&ann).unwrap(), "\"Ann\"");
/// assert!(serde_json::from_str::<PlayerName>("\"\"").is_err());
/// assert!(PlayerName::new("a\nb").is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct PlayerName(String);

crate::ids::text_type!(PlayerName);

impl PlayerName {
    /// `name` trimmed, if it keeps [`check_name`]'s rules.
    pub fn new(name: &str) -> Result<PlayerName, ServerError> {
        check_name(name)
    }

    /// A name the table's game holds: the game is only ever given the
    /// names of its seats, each a `PlayerName` when it was seated.
    pub(crate) fn seated(name: &str) -> PlayerName {
        debug_assert!(check_name(name).is_ok_and(|n| n == name), "{name:?}");
        PlayerName(name.to_string())
    }
}

impl TryFrom<String> for PlayerName {
    type Error = ServerError;

    fn try_from(name: String) -> Result<PlayerName, ServerError> {
        check_name(&name)
    }
}

impl std::fmt::Debug for PlayerName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

/// A display name as the log keeps it: 1 to 32 characters, no control
/// characters (the rule a replayed log is held to).
pub fn check_name(name: &str) -> Result<PlayerName, ServerError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 32 || name.chars().any(char::is_control) {
        return Err(ServerError::BadRequest(
            "a display name has 1 to 32 characters, none of them control characters".into(),
        ));
    }
    Ok(PlayerName(name.to_string()))
}

/// A name someone chose now: [`check_name`]'s rules, and no character
/// that is invisible or reorders text (the Unicode default-ignorable code
/// points, bidirectional controls and spaces other than U+0020), but for
/// the two that emoji are made of (zero-width joiner, variation selector
/// 16).
///
/// ```
/// use dalmuti_server::names::check_new_name;
/// assert_eq!(check_new_name(" Ann ").unwrap(), "Ann");
/// assert!(check_new_name("Ann\u{202e}").is_err());
/// assert!(check_new_name("A\u{ad}nn").is_err());
/// assert!(check_new_name("👩‍🚀 Ann").is_ok());
/// ```
pub fn check_new_name(name: &str) -> Result<PlayerName, ServerError> {
    let name = check_name(name)?;
    if let Some(c) = name.chars().find(|&c| hidden(c)) {
        return Err(ServerError::BadRequest(format!(
            "a display name has no invisible or text-direction characters: \
             U+{:04X} is one",
            u32::from(c)
        )));
    }
    Ok(name)
}

/// A table's name when its creator gives none: "Ada's table", then
/// "Ada's table 2" and so on, so that no two live tables share a default
/// name. Clients word it in their player's language from
/// [`DefaultTableName`].
///
/// ```
/// use dalmuti_server::names::default_table_name;
/// assert_eq!(default_table_name("Ada", ["Ada's table"].into_iter()), "Ada's table 2");
/// ```
pub fn default_table_name<'a>(player: &str, taken: impl Iterator<Item = &'a str>) -> String {
    let base = table_name(player, 1);
    // Once over the names, not once per candidate: a thousand tables of
    // one player's name made every creation scan them a thousand times.
    let taken: std::collections::HashSet<&str> = taken.filter(|t| t.starts_with(&base)).collect();
    (1..)
        .map(|k| table_name(player, k))
        .find(|name| !taken.contains(name.as_str()))
        .expect("a free name")
}

/// The `n`th default name of `player`'s tables.
fn table_name(player: &str, n: u32) -> String {
    match n {
        1 => format!("{player}'s table"),
        n => format!("{player}'s table {n}"),
    }
}

/// What a default table name is made of (its player and number), sent
/// beside the name so that a client says it in its player's words.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DefaultTableName {
    /// The player the table is named after.
    pub player: String,
    /// 1 for "Ada's table", 2 for "Ada's table 2"…
    pub n: u32,
}

impl DefaultTableName {
    /// The parts of `name` if it is a default name ([`default_table_name`]).
    ///
    /// ```
    /// use dalmuti_server::names::DefaultTableName;
    /// let parts = |name| DefaultTableName::of(name).map(|d| (d.player, d.n));
    /// assert_eq!(parts("Ada's table"), Some(("Ada".to_string(), 1)));
    /// assert_eq!(parts("Ada's table 12"), Some(("Ada".to_string(), 12)));
    /// assert_eq!(parts("Ada's table 1"), None);
    /// assert_eq!(parts("Friday game"), None);
    /// assert_eq!(parts("'s table"), None);
    /// ```
    pub fn of(name: &str) -> Option<DefaultTableName> {
        let (player, n) = match name.strip_suffix("'s table") {
            Some(player) => (player, 1),
            None => {
                let (base, n) = name.rsplit_once(' ')?;
                (base.strip_suffix("'s table")?, n.parse().ok()?)
            }
        };
        let parts = DefaultTableName {
            player: player.to_string(),
            n,
        };
        (!player.is_empty() && table_name(player, n) == name).then_some(parts)
    }
}

/// The name the server gives the `n`th bot of a level a host adds:
/// "normal bot 3". Clients word it in their player's language from the
/// lobby's `bot` and `bot_n` ([`bot_number`]).
///
/// ```
/// use dalmuti_server::names::{bot_name, bot_number};
/// assert_eq!(bot_name("normal", 3), "normal bot 3");
/// assert_eq!(bot_number("normal", "normal bot 3"), Some(3));
/// assert_eq!(bot_number("normal", "hard bot 3"), None);
/// assert_eq!(bot_number("normal", "normal bot 03"), None);
/// ```
pub fn bot_name(level: &str, n: u32) -> PlayerName {
    // A level is a short word of the server's: the name keeps the rules.
    PlayerName(format!("{level} bot {n}"))
}

/// The number `n` when `name` is [`bot_name`]`(level, n)`: the name the
/// server gave, not one chosen by a person (a seat a bot took over keeps
/// its person's name).
pub fn bot_number(level: &str, name: &str) -> Option<u32> {
    let n: u32 = name
        .strip_prefix(level)?
        .strip_prefix(" bot ")?
        .parse()
        .ok()?;
    (bot_name(level, n) == name).then_some(n)
}

/// Whether two names look alike: the same once case is folded and each
/// character is replaced by the one it is confusable with.
///
/// ```
/// use dalmuti_server::names::alike;
/// assert!(alike("Ann", "ANN"));
/// assert!(alike("Ann", "\u{410}nn")); // Cyrillic А
/// assert!(!alike("Ann", "Anna"));
/// ```
pub fn alike(a: &str, b: &str) -> bool {
    folded(a) == folded(b)
}

/// The form names are compared in.
pub(crate) fn folded(name: &str) -> String {
    skeleton(&name.to_lowercase()).collect()
}

/// Invisible, or a control of text direction (DerivedCoreProperties.txt,
/// Default_Ignorable_Code_Point; Bidi_Control is within it but for the
/// Arabic letter mark, listed too), or a space other than U+0020.
fn hidden(c: char) -> bool {
    const EMOJI: [char; 2] = ['\u{200D}', '\u{FE0F}'];
    if EMOJI.contains(&c) {
        return false;
    }
    (c.is_whitespace() && c != ' ')
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names the audit chatted with beside the seat "Ann".
    #[test]
    fn the_audits_look_alikes_are_refused_or_the_same_name() {
        for name in [
            "ann",
            "ANN",
            "\u{410}nn",
            "Ann\u{200b}",
            "A\u{00ad}nn",
            "Ann\u{202e}",
        ] {
            let taken = match check_new_name(name) {
                Ok(name) => alike(&name, "Ann"),
                Err(_) => true,
            };
            assert!(taken, "{name:?}");
        }
        for name in ["Anne", "Bob", "Ana", "アン"] {
            let name = check_new_name(name).unwrap();
            assert!(!alike(&name, "Ann"), "{name}");
        }
    }

    #[test]
    fn a_refusal_says_which_character() {
        let e = check_new_name("Ann\u{202e}").unwrap_err().to_string();
        assert!(e.contains("U+202E"), "{e}");
        assert!(check_new_name("Ann\tB").is_err());
    }
}
