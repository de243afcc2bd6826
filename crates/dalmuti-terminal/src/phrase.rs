//! A message in the player's language with the variant's own words filled
//! in, and a player's name as shown: what every part of the terminal says
//! through, the session included (so it sits below both the session and
//! [`crate::words`], which tells the game from the session).

use dalmuti_core::{Card, Title};

use crate::tr::{Tr, capitalize};

/// A player's name as shown: the human's default name, "You", in the
/// language spoken ("Du", "나").
pub fn shown_name(name: &str, is_me: bool, tr: Tr) -> String {
    if is_me && name.eq_ignore_ascii_case("you") {
        capitalize(&tr.you())
    } else {
        name.to_string()
    }
}

/// " (you)" after the human's name, unless the name says it already.
pub fn you_mark(name: &str, is_me: bool, tr: Tr) -> String {
    if is_me && !name.eq_ignore_ascii_case("you") && name != tr.you() {
        tr.t("you.mark", &[])
    } else {
        String::new()
    }
}

/// The variant's words as placeholders: `{taxes}`, `{Taxes}`,
/// `{revolution}`, `{wild}`, `{wilds}`, `{merchant}`, `{exchange}`,
/// `{Exchange}`, `{top}`, `{peon}`, `{rank}`, `{wedgie}`.
pub fn vocabulary(tr: Tr) -> Vec<(&'static str, String)> {
    vec![
        ("taxes", tr.taxes()),
        ("Taxes", capitalize(&tr.taxes())),
        ("revolution", tr.revolution()),
        ("Revolution", capitalize(&tr.revolution())),
        ("wild", tr.wild()),
        ("wilds", tr.wilds()),
        ("merchant", tr.merchant()),
        ("exchange", tr.exchange()),
        ("Exchange", capitalize(&tr.exchange())),
        ("top", tr.top_title()),
        ("peon", tr.title(Title::GreaterPeon)),
        ("rank", tr.v("rank", &[])),
        ("wedgie", tr.card(Card::TWIRLING_WEDGIE)),
    ]
}

/// The message `key` with the variant's words and `args` filled in.
pub fn say(tr: Tr, key: &str, args: &[(&str, &str)]) -> String {
    let words = vocabulary(tr);
    let mut all: Vec<(&str, &str)> = args.to_vec();
    all.extend(words.iter().map(|(k, v)| (*k, v.as_str())));
    tr.t(key, &all)
}

/// [`say`] in the form for `n`.
pub fn say_n(tr: Tr, key: &str, n: u64, args: &[(&str, &str)]) -> String {
    let words = vocabulary(tr);
    let mut all: Vec<(&str, &str)> = args.to_vec();
    all.extend(words.iter().map(|(k, v)| (*k, v.as_str())));
    tr.n(key, n, &all)
}
