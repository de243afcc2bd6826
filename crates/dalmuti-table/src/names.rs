//! Display names as people choose them: a new name is refused if it hides
//! characters (invisible or bidirectional controls), if it is one of the
//! server's own (a bot's: [`reserved`]), and two names are the same name
//! if they look alike (issue 24, S7; issue 40): "Ann", "ANN", "Аnn" with a
//! Cyrillic А, "Ann" with a zero-width space, "AIice" with a capital I for
//! the l, "B0b", "𝐀lice", "Alicė", "Ada  Lovelace" ([`form`]).
//!
//! Names already in a table's log are not checked again when it is
//! replayed: an old log must keep replaying ([`check_name`]).

use unicode_normalization::UnicodeNormalization;
use unicode_security::confusable_detection::skeleton;

use crate::error::{BadRequest, TableError};

/// A player's display name, checked: 1 to 32 characters, no control
/// characters, no space at either end ([`check_name`]). A seat, a chat
/// line's speaker and a standing are named by one. Written as a plain JSON
/// string; read back through [`check_name`], so a stored or sent name
/// that breaks the rules is refused where it is read.
///
/// ```
/// use dalmuti_table::names::PlayerName;
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
    pub fn new(name: &str) -> Result<PlayerName, TableError> {
        check_name(name)
    }

    /// A name the table's game holds: the game is only ever given the
    /// names of its seats, each a `PlayerName` when it was seated.
    pub fn seated(name: &str) -> PlayerName {
        debug_assert!(check_name(name).is_ok_and(|n| n == name), "{name:?}");
        PlayerName(name.to_string())
    }
}

/// A player who kept their name and presented their secret: who takes a
/// seat under it, and whose games and ratings are kept under its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Their name, as they chose it.
    pub name: PlayerName,
    /// The name's key: the form it is kept unique under.
    pub key: String,
}

impl TryFrom<String> for PlayerName {
    type Error = TableError;

    fn try_from(name: String) -> Result<PlayerName, TableError> {
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
pub fn check_name(name: &str) -> Result<PlayerName, TableError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 32 || name.chars().any(char::is_control) {
        return Err(BadRequest::NameLength.into());
    }
    Ok(PlayerName(name.to_string()))
}

/// A name someone chose now: [`check_name`]'s rules, and no character
/// that is invisible or reorders text (the Unicode default-ignorable code
/// points, bidirectional controls and spaces other than U+0020), but for
/// the two that emoji are made of (zero-width joiner, variation selector
/// 16).
///
/// Nor two spaces in a row (a browser shows them as one, so "Ada
/// Lovelace" with two would pass for Ada's), nor a name of the server's
/// own ([`reserved`]).
///
/// ```
/// use dalmuti_table::names::check_new_name;
/// assert_eq!(check_new_name(" Ann ").unwrap(), "Ann");
/// assert!(check_new_name("Ann\u{202e}").is_err());
/// assert!(check_new_name("A\u{ad}nn").is_err());
/// assert!(check_new_name("Ada  Lovelace").is_err());
/// assert!(check_new_name("normal bot 1").is_err());
/// assert!(check_new_name("👩‍🚀 Ann").is_ok());
/// ```
pub fn check_new_name(name: &str) -> Result<PlayerName, TableError> {
    let name = check_name(name)?;
    if let Some(c) = name.chars().find(|&c| hidden(c)) {
        return Err(BadRequest::HiddenCharacter { c }.into());
    }
    if name.contains("  ") {
        return Err(BadRequest::TwoSpaces.into());
    }
    if let Some(why) = reserved(&name) {
        let name = name.to_string();
        return Err(BadRequest::ReservedName { name, why }.into());
    }
    Ok(name)
}

/// Why `name` is kept for the server's own use, if it is: a person must
/// not pass for a bot (the names the server gives bots, "normal bot 3",
/// and the levels the leaderboard lists, "hard"), nor take a word of the
/// API's (`me`, as in `/api/players/me`). Compared by [`form`], so "B0T"
/// and "ʜard" are kept too.
///
/// Kept: any name with the word "bot" in it (a word is a run of letters
/// and digits, a number before or after the word not counting: "bot",
/// "Bot 7", "bot:hard", "bot1", "normal bot 1"), or the words the
/// browser's five languages call a bot ("Bot", "bot", "ボット", "봇")
/// anywhere; the levels' names alone ("easy", "normal", "hard",
/// "expert"); and "me". Not kept: "Robot", "Abbot", "Botond".
///
/// ```
/// use dalmuti_table::names::reserved;
/// for name in ["bot:hard", "normal bot 1", "B0T", "Bot7", "Hard", "me", "ノーマルボット2"] {
///     assert!(reserved(name).is_some(), "{name}");
/// }
/// for name in ["Robot Rob", "Abbot", "Botond", "Hardy", "Mei"] {
///     assert!(reserved(name).is_none(), "{name}");
/// }
/// ```
pub fn reserved(name: &str) -> Option<&'static str> {
    let plain: String = name.nfkc().collect();
    if ["ボット", "봇"].iter().any(|w| plain.contains(w)) {
        return Some("it says it is a bot, and only the server names bots");
    }
    let bot = |word: &str| {
        let word = word.trim_matches(|c: char| c.is_ascii_digit());
        !word.is_empty() && form(word) == "bot"
    };
    if plain.split(|c: char| !c.is_alphanumeric()).any(bot) {
        return Some("it says it is a bot, and only the server names bots");
    }
    let whole = form(name);
    if dalmuti_bots::Level::ALL
        .iter()
        .any(|level| form(level.name()) == whole)
    {
        return Some("it is a bot level's name, which the leaderboard lists");
    }
    if whole == form("me") {
        return Some("\"me\" is a word of the server's (/api/players/me)");
    }
    None
}

/// A table's name when its creator gives none: "Ada's table", then
/// "Ada's table 2" and so on, so that no two live tables share a default
/// name. Clients word it in their player's language from
/// [`DefaultTableName`].
///
/// ```
/// use dalmuti_table::names::default_table_name;
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
    /// use dalmuti_table::names::DefaultTableName;
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
/// use dalmuti_table::names::{bot_name, bot_number};
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

/// Whether two names look alike: they have the same [`form`].
///
/// ```
/// use dalmuti_table::names::alike;
/// assert!(alike("Ann", "ANN"));
/// assert!(alike("Ann", "\u{410}nn")); // Cyrillic А
/// assert!(alike("Alice", "AIice")); // a capital I for the l
/// assert!(!alike("Ann", "Anna"));
/// ```
pub fn alike(a: &str, b: &str) -> bool {
    form(a) == form(b)
}

/// The form in which names are compared: two names are one name when
/// their forms are equal (issue 40).
///
/// 1. Compatibility characters become the ones they stand for (NFKC):
///    "𝐀" (mathematical bold) is "A", "Ａ" (full width) is "A".
/// 2. Until nothing changes: each character is replaced by the one it
///    is confused with (the Unicode confusable skeleton, UTS #39: Greek
///    "Α" and Cyrillic "А" are "A", "0" is "O", "I" and "1" are "l",
///    "m" is "rn"), small capitals ("ʙ", which Cyrillic "в" looks like)
///    become their letters, the text is put in lower case and accents
///    (combining marks over Latin, Greek and Cyrillic letters) are
///    dropped: "Alicė" is "Alice". Look-alikes come before case, since
///    the capital of a letter may look like another letter ("I" like
///    "l"), so case is ignored as the letters look: for Latin letters
///    fully, for Greek and Cyrillic ones as their capitals and small
///    letters look.
/// 3. "i" and "l" are one letter: a capital "I" is an "l" to the eye and
///    an "i" by case, so "ALICE", "Alice" and "AIice" are one name.
/// 4. A colon counts as a space, and a run of spaces as one: no form
///    has a colon, so no player's form can ever be a bot's key
///    (`bot:hard`, the server's `players` module).
///
/// ```
/// use dalmuti_table::names::form;
/// assert_eq!(form("ALICE"), form("alice"));
/// assert_eq!(form("\u{1d400}lice"), form("Alice"));
/// assert_eq!(form("B0b"), "bob");
/// assert_eq!(form("Ada  Lovelace"), "ada lovelace");
/// assert!(!form("bot:hard").contains(':'));
/// ```
pub fn form(name: &str) -> String {
    let mut text: String = name.nfkc().collect();
    // Each round only ever maps towards the skeleton's prototypes; a few
    // rounds reach a fixed point (a bound all the same).
    for _ in 0..8 {
        let next = fold_once(&text);
        if next == text {
            break;
        }
        text = next;
    }
    let text = text.replace('i', "l").replace(':', " ");
    let mut folded = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !folded.is_empty() {
            folded.push(' ');
        }
        folded.push_str(word);
    }
    folded
}

/// One round of [`form`]'s second step.
fn fold_once(text: &str) -> String {
    let capitals: String = text.chars().map(small_capital).collect();
    let skeleton: String = skeleton(&capitals).collect();
    skeleton
        .to_lowercase()
        .nfd()
        .filter(|&c| !accent(c))
        .map(small_capital)
        .collect()
}

/// The letter a small capital is (the confusable skeleton leaves most of
/// them alone, or maps "ᴍ" to a turned "w"); "ĸ" (kra) is a "k".
fn small_capital(c: char) -> char {
    const SMALL: [(char, char); 27] = [
        ('ᴀ', 'a'),
        ('ʙ', 'b'),
        ('ᴄ', 'c'),
        ('ᴅ', 'd'),
        ('ᴇ', 'e'),
        ('ꜰ', 'f'),
        ('ɢ', 'g'),
        ('ʜ', 'h'),
        ('ɪ', 'i'),
        ('ᴊ', 'j'),
        ('ᴋ', 'k'),
        ('ʟ', 'l'),
        ('ᴍ', 'm'),
        ('ɴ', 'n'),
        ('ᴏ', 'o'),
        ('ᴘ', 'p'),
        ('ꞯ', 'q'),
        ('ʀ', 'r'),
        ('ꜱ', 's'),
        ('ᴛ', 't'),
        ('ᴜ', 'u'),
        ('ᴠ', 'v'),
        ('ᴡ', 'w'),
        ('ʏ', 'y'),
        ('ᴢ', 'z'),
        ('ĸ', 'k'),
        ('ʍ', 'm'),
    ];
    SMALL
        .iter()
        .find(|(small, _)| *small == c)
        .map_or(c, |(_, letter)| *letter)
}

/// A combining accent of the kind written over Latin, Greek and Cyrillic
/// letters (the combining diacritical marks and their supplements), not
/// the marks other scripts spell with (a Japanese dakuten makes "ガ" of
/// "カ": another name).
fn accent(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
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

    /// Issue 40: the look-alikes an audit kept beside "Alice", "Bob",
    /// "Olga", "Will" and "Ada Lovelace" (17 of 23 capitals slipped
    /// through when names were put in lower case before their skeleton),
    /// each the same name as the one it imitates, and mixes of them.
    #[test]
    fn the_audits_capital_and_other_look_alikes_are_the_same_name() {
        let same = [
            // Greek capitals Ζ Ν Τ Κ Μ Η Β Χ Υ, each for its Latin twin.
            ("Zoe", "\u{396}oe"),
            ("Nina", "\u{39d}ina"),
            ("Tom", "\u{3a4}om"),
            ("Kim", "\u{39a}im"),
            ("Max", "\u{39c}ax"),
            ("Hal", "\u{397}al"),
            ("Bob", "\u{392}ob"),
            ("Xena", "\u{3a7}ena"),
            ("Yuki", "\u{3a5}uki"),
            // Cyrillic capitals В Н К М Т.
            ("Bob", "\u{412}ob"),
            ("Hal", "\u{41d}al"),
            ("Kim", "\u{41a}im"),
            ("Max", "\u{41c}ax"),
            ("Tom", "\u{422}om"),
            // A capital I for an l.
            ("Alice", "AIice"),
            ("Will", "WiII"),
            // Digits, mathematical bold, an accent, a small Cyrillic в
            // (a small capital B), two spaces.
            ("Bob", "B0b"),
            ("Olga", "0lga"),
            ("Alice", "\u{1d400}lice"),
            ("Alice", "Alic\u{117}"),
            ("Bob", "\u{432}ob"),
            ("Ada Lovelace", "Ada  Lovelace"),
            // Case, as before.
            ("Alice", "ALICE"),
            ("Alice", "alice"),
            ("Will", "WILL"),
        ];
        for (name, like) in same {
            assert!(alike(name, like), "{like:?} is {name:?}");
        }
        // Mixes: several tricks in one name.
        for like in [
            "\u{391}I\u{456}c\u{435}", // Greek Α, capital I, Cyrillic і and е
            "\u{1d400}LIC\u{1d404}",   // bold A and E around capitals
            "A\u{30c}l\u{131}ce",      // an accent, a dotless ı
            "\u{ff21}lice",            // full width
        ] {
            assert!(alike("Alice", like), "{like:?}");
        }
        assert!(alike("Bob", "\u{412}0\u{432}"), "В0в");
        assert!(alike("Ada Lovelace", "\u{410}da  \u{406}ovelace"));
        // Different names stay different.
        for (a, b) in [
            ("Alice", "Alicia"),
            ("Bob", "Rob"),
            ("Tom", "Tim"),
            ("Ada Lovelace", "AdaLovelace"),
            ("\u{30ac}\u{30f3}", "\u{30ab}\u{30f3}"), // ガン, カン
            ("민수", "민지"),
        ] {
            assert!(!alike(a, b), "{a:?} and {b:?}");
        }
    }

    /// A bot's name or the bots' word is not a person's (issue 40).
    #[test]
    fn bot_names_are_refused_with_why() {
        for name in [
            "bot:hard",
            "normal bot 1",
            "hard bot 12",
            "Bot",
            "B0T",
            "bot1",
            "easy",
            "HARD",
            "Expert",
            "\u{39d}ORMAL",
            "Bot 3 (schwer)",
            "bot difícil 2",
            "ノーマルボット1",
            "보통 봇 1",
            "me",
            "ME",
        ] {
            let e = check_new_name(name).unwrap_err().to_string();
            assert!(e.contains("not a name a person may take"), "{name}: {e}");
        }
        for name in ["Robot Rob", "Abbot", "Botond", "Bo", "Hardy", "Normandy"] {
            check_new_name(name).unwrap();
        }
    }

    #[test]
    fn a_refusal_says_which_character() {
        let e = check_new_name("Ann\u{202e}").unwrap_err().to_string();
        assert!(e.contains("U+202E"), "{e}");
        assert!(check_new_name("Ann\tB").is_err());
    }
}
