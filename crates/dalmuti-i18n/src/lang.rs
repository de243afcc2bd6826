//! The five languages and how a locale names them.

/// A language the game speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English, the default and the fallback.
    En,
    /// Korean.
    Ko,
    /// German.
    De,
    /// Spanish.
    Es,
    /// Japanese.
    Ja,
}

/// A language code the game does not speak.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLang(pub String);

impl std::fmt::Display for BadLang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the language is one of en, ko, de, es, ja, not {:?}",
            self.0
        )
    }
}

impl std::error::Error for BadLang {}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 5] = [Lang::En, Lang::Ko, Lang::De, Lang::Es, Lang::Ja];

    /// Its ISO 639-1 code: `en`, `ko`, `de`, `es`, `ja`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ko => "ko",
            Lang::De => "de",
            Lang::Es => "es",
            Lang::Ja => "ja",
        }
    }

    /// Its name in itself, for a language menu: "Deutsch", "日本語"…
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ko => "한국어",
            Lang::De => "Deutsch",
            Lang::Es => "Español",
            Lang::Ja => "日本語",
        }
    }

    /// The language of a locale or language tag: `de_DE.UTF-8`, `ko-KR`,
    /// `ja`, `es_MX@euro`. `None` for one the game does not speak (and for
    /// `C` and `POSIX`).
    ///
    /// ```
    /// use dalmuti_i18n::Lang;
    /// assert_eq!(Lang::from_locale("de_DE.UTF-8"), Some(Lang::De));
    /// assert_eq!(Lang::from_locale("ko-KR"), Some(Lang::Ko));
    /// assert_eq!(Lang::from_locale("C.UTF-8"), None);
    /// ```
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let code = locale
            .split(['_', '-', '.', '@'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language a terminal asks for, from POSIX's variables in their
    /// order of precedence (`LC_ALL`, `LC_MESSAGES`, `LANG`; `LANGUAGE`'s
    /// first choice before them, as GNU gettext reads it), English if none
    /// names one the game speaks. `var` looks a variable up (the process
    /// environment in the program, a map in tests).
    ///
    /// ```
    /// use dalmuti_i18n::Lang;
    /// let env = |name: &str| (name == "LANG").then(|| "es_ES.UTF-8".to_string());
    /// assert_eq!(Lang::detect(env), Lang::Es);
    /// assert_eq!(Lang::detect(|_| None), Lang::En);
    /// ```
    pub fn detect(var: impl Fn(&str) -> Option<String>) -> Lang {
        // LC_ALL overrides everything; an empty variable counts as unset.
        let set = |name: &str| var(name).filter(|v| !v.is_empty());
        if let Some(all) = set("LC_ALL") {
            return Lang::from_locale(&all).unwrap_or(Lang::En);
        }
        let language = set("LANGUAGE").and_then(|list| list.split(':').find_map(Lang::from_locale));
        language
            .or_else(|| set("LC_MESSAGES").and_then(|v| Lang::from_locale(&v)))
            .or_else(|| set("LANG").and_then(|v| Lang::from_locale(&v)))
            .unwrap_or(Lang::En)
    }

    /// Whether `n` takes the "one" form: English, German and Spanish say
    /// "1 Knight" but "0 Knights"; Korean and Japanese have one form.
    pub(crate) fn is_one(self, n: u64) -> bool {
        match self {
            Lang::En | Lang::De | Lang::Es => n == 1,
            Lang::Ko | Lang::Ja => false,
        }
    }
}

impl std::str::FromStr for Lang {
    type Err = BadLang;

    /// A code (`de`) or a locale (`de_DE.UTF-8`).
    fn from_str(s: &str) -> Result<Lang, BadLang> {
        Lang::from_locale(s.trim()).ok_or_else(|| BadLang(s.chars().take(20).collect()))
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}
