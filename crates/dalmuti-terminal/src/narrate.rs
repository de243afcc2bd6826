//! A hand's log told in the player's language, one sentence per entry:
//! as a seat sees it ([`seen`], that seat in the second person; a
//! spectator with no seat) or, for a finished game's replay, every card
//! shown ([`events`]). Other seats' tax and exchange cards are never told
//! to a seat: the hidden entries carry none, and a full event is told with
//! its cards only to a seat in it.

use dalmuti_core::{Event, Seat, Seen, Set};

use crate::tr::{Tr, capitalize};

/// Tells `log` as the player at `me` sees it (`None`: a spectator); `name`
/// names a seat of play.
pub fn seen(
    log: impl IntoIterator<Item = Seen>,
    players: usize,
    tr: Tr,
    me: Option<Seat>,
    name: &dyn Fn(Seat) -> String,
) -> Vec<String> {
    let teller = Teller {
        players,
        tr,
        me,
        everything: false,
        name,
    };
    teller.tell(log)
}

/// Tells a hand's events with every card shown, the seat `me` (if any) in
/// the second person: a finished game as its record holds it (`dalmuti
/// replay`), told to whoever played `me`.
///
/// ```
/// use dalmuti_core::{Event, Seat, Set, Variant};
/// use dalmuti_i18n::Lang;
/// use dalmuti_terminal::{narrate, tr::Tr};
/// let played = Event::Played { seat: Seat::new(1), set: "7 7".parse::<Set>().unwrap() };
/// let names = |s: Seat| ["Ada", "Bo", "Cy"][s.index()].to_string();
/// let tr = Tr::new(Lang::En, Variant::Dalmuti);
/// assert_eq!(narrate::events([played], 3, tr, None, &names), ["Bo leads two Seamstresses."]);
/// let me = Some(Seat::new(1));
/// assert_eq!(narrate::events([played], 3, tr, me, &names), ["You lead two Seamstresses."]);
/// ```
pub fn events(
    events: impl IntoIterator<Item = Event>,
    players: usize,
    tr: Tr,
    me: Option<Seat>,
    name: &dyn Fn(Seat) -> String,
) -> Vec<String> {
    let teller = Teller {
        players,
        tr,
        me,
        everything: true,
        name,
    };
    teller.tell(events.into_iter().map(Seen::Event))
}

struct Teller<'a> {
    players: usize,
    tr: Tr,
    /// The seat told in the second person, if any.
    me: Option<Seat>,
    /// Every card may be told (a finished game's replay): else only the
    /// cards of `me`'s own tax and exchange.
    everything: bool,
    name: &'a dyn Fn(Seat) -> String,
}

impl Teller<'_> {
    fn tell(&self, log: impl IntoIterator<Item = Seen>) -> Vec<String> {
        let mut leading = true;
        let mut previous = None;
        log.into_iter()
            .map(|entry| match entry {
                Seen::TaxPaid {
                    dalmuti,
                    peon,
                    cards,
                } => self.hidden_tax(dalmuti, peon, cards),
                Seen::MerchantExchanged { offerer, partner } => {
                    self.say("log.exchange.hidden", offerer, &self.args(&[partner], &[]))
                }
                Seen::Given { from, to } => {
                    self.say("log.give.hidden", from, &self.args(&[to], &[]))
                }
                Seen::Discarded { seat } => self.say("log.discard.hidden", seat, &[]),
                Seen::Event(event) => {
                    let line = self.event(event, leading, previous.as_ref());
                    match event {
                        Event::Played { .. } => leading = false,
                        Event::RoundWon { .. } => leading = true,
                        _ => {}
                    }
                    previous = Some(event);
                    line
                }
            })
            .collect()
    }

    /// The message `key` about `seat`: `key.you` when that is the human
    /// (languages conjugate for "you"), with `{name}` the seat's name.
    fn say(&self, key: &str, seat: Seat, args: &[(String, String)]) -> String {
        let key = if self.is_me(seat) {
            format!("{key}.you")
        } else {
            key.to_string()
        };
        let name = (self.name)(seat);
        let mut all: Vec<(&str, &str)> = vec![("name", &name)];
        all.extend(args.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        self.tr.t(&key, &all)
    }

    /// The common placeholders: `{other}` (the seats after the first, by
    /// name or "you"), the variant's words.
    fn args(&self, others: &[Seat], more: &[(&str, String)]) -> Vec<(String, String)> {
        let tr = self.tr;
        let mut args = vec![
            ("taxes".to_string(), tr.taxes()),
            ("Taxes".to_string(), capitalize(&tr.taxes())),
            ("revolution".to_string(), tr.revolution()),
            ("wilds".to_string(), tr.wilds()),
            ("Exchange".to_string(), capitalize(&tr.exchange())),
        ];
        if let Some(&other) = others.first() {
            args.push(("other".to_string(), self.who(other)));
        }
        args.extend(more.iter().map(|(k, v)| (k.to_string(), v.clone())));
        args
    }

    fn is_me(&self, seat: Seat) -> bool {
        Some(seat) == self.me
    }

    fn who(&self, seat: Seat) -> String {
        if self.is_me(seat) {
            self.tr.you()
        } else {
            (self.name)(seat)
        }
    }

    fn title(&self, seat: Seat) -> String {
        self.tr.title(seat.title(self.players))
    }

    fn hidden_tax(&self, dalmuti: Seat, peon: Seat, cards: u32) -> String {
        let args = self.args(
            &[peon],
            &[
                ("name", (self.name)(dalmuti)),
                ("title", self.title(dalmuti)),
                ("other_title", self.title(peon)),
                ("number", self.tr.number(cards)),
            ],
        );
        self.count("log.tax.hidden", cards, &args)
    }

    /// [`Tr::n`] over owned placeholders.
    fn count(&self, key: &str, n: u32, args: &[(String, String)]) -> String {
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        self.tr.n(key, n.into(), &args)
    }

    /// What a play of President or Daifugō did to the table.
    fn effect(&self, effect: dalmuti_core::Effect) -> String {
        use dalmuti_core::Effect;
        let tr = self.tr;
        let word = |key: &str| tr.v(&format!("word.{key}"), &[]);
        match effect {
            Effect::Revolution { seat, reversed } => {
                let key = if reversed {
                    "log.effect.revolution"
                } else {
                    "log.effect.revolution-back"
                };
                self.say(key, seat, &self.args(&[], &[("word", word("revolution"))]))
            }
            Effect::EightCut { seat } => self.say(
                "log.effect.eight-cut",
                seat,
                &self.args(&[], &[("word", word("eight-cut"))]),
            ),
            Effect::TwoClears { seat } => self.say("log.effect.two-clears", seat, &[]),
            Effect::SpadeThree { seat } => self.say(
                "log.effect.spade-three",
                seat,
                &self.args(&[], &[("word", word("spade-three"))]),
            ),
            Effect::ElevenBack { seat, on } => {
                let key = if on {
                    "log.effect.eleven-back"
                } else {
                    "log.effect.eleven-back-off"
                };
                self.say(key, seat, &self.args(&[], &[("word", word("eleven-back"))]))
            }
            Effect::Locked { suits, number } => {
                let symbols: String = dalmuti_core::Suit::ALL
                    .iter()
                    .filter(|s| suits >> s.index() & 1 != 0)
                    .map(|s| s.symbol())
                    .collect();
                let key = match (suits != 0, number) {
                    (true, true) => "log.effect.locked-both",
                    (true, false) => "log.effect.locked",
                    _ => "log.effect.locked-number",
                };
                tr.t(key, &[("suits", &symbols), ("word", &word("lock"))])
            }
            Effect::Skipped { seat, skipped } => {
                let names: Vec<String> = skipped.iter().map(|s| self.who(s)).collect();
                self.say(
                    "log.effect.skipped",
                    seat,
                    &self.args(&[], &[("skipped", tr.list(&names, "list.and"))]),
                )
            }
            Effect::Reversed { seat, .. } => self.say("log.effect.reversed", seat, &[]),
            Effect::Fell { seat } => self.say(
                "log.effect.fell",
                seat,
                &self.args(&[], &[("word", word("miyako-ochi"))]),
            ),
            Effect::Fouled { seat } => self.say("log.effect.fouled", seat, &[]),
            Effect::Stalemate { .. } => tr.t("log.effect.stalemate", &[]),
        }
    }

    /// A set and what its special card does.
    fn set(&self, set: &Set) -> String {
        let words = self.tr.set_words(set);
        if let Some(target) = set.wedgie_target() {
            let key = if self.is_me(target) {
                "log.power.wedgie.you"
            } else {
                "log.power.wedgie"
            };
            self.tr
                .t(key, &[("set", &words), ("other", &(self.name)(target))])
        } else if set.is_world_ruler() {
            self.tr.t("log.power.world-ruler", &[("set", &words)])
        } else {
            words
        }
    }

    fn event(&self, event: Event, leading: bool, previous: Option<&Event>) -> String {
        let tr = self.tr;
        match event {
            Event::RevolutionCalled { seat, greater } => {
                let args = self.args(
                    &[],
                    &[
                        ("peon", self.title(Seat::new(self.players - 1))),
                        ("top", tr.top_title()),
                    ],
                );
                if !greater {
                    return self.say("log.revolution", seat, &args);
                }
                let mut line = self.say("log.revolution.greater", seat, &args);
                if let Some(me) = self.me.filter(|&me| me != seat) {
                    line.push(' ');
                    line.push_str(&tr.t("log.you-are-now", &[("title", &self.title(me))]));
                }
                line
            }
            Event::RevolutionDeclined { seat } => {
                self.say("log.revolution.declined", seat, &self.args(&[], &[]))
            }
            Event::TaxPaid(t) if self.everything || self.is_me(t.dalmuti) || self.is_me(t.peon) => {
                if self.everything {
                    let args = self.args(
                        &[t.peon],
                        &[
                            ("name", (self.name)(t.dalmuti)),
                            ("title", self.title(t.dalmuti)),
                            ("other_title", self.title(t.peon)),
                            ("gave", tr.cards_words(&t.gift)),
                            ("got", tr.cards_words(&t.tribute)),
                        ],
                    );
                    return self.count("log.tax.shown", t.gift.len(), &args);
                }
                let (key, other, gave, got) = if self.is_me(t.dalmuti) {
                    ("log.tax.dalmuti", t.peon, t.gift, t.tribute)
                } else {
                    ("log.tax.peon", t.dalmuti, t.tribute, t.gift)
                };
                let args = self.args(
                    &[other],
                    &[
                        ("other_title", self.title(other)),
                        ("gave", tr.cards_words(&gave)),
                        ("got", tr.cards_words(&got)),
                    ],
                );
                self.count(key, gave.len(), &args)
            }
            Event::TaxPaid(t) => self.hidden_tax(t.dalmuti, t.peon, t.gift.len()),
            Event::MerchantExchange(t) if self.everything => {
                let args = self.args(
                    &[t.partner],
                    &[
                        ("offered", tr.count_of(1, t.offered)),
                        ("returned", tr.count_of(1, t.returned)),
                    ],
                );
                self.say("log.exchange.shown", t.offerer, &args)
            }
            Event::MerchantExchange(t) if self.is_me(t.offerer) || self.is_me(t.partner) => {
                let key = if self.is_me(t.offerer) {
                    "log.exchange.offered"
                } else {
                    "log.exchange.answered"
                };
                let other = if self.is_me(t.offerer) {
                    t.partner
                } else {
                    t.offerer
                };
                let args = self.args(
                    &[other],
                    &[
                        ("offered", tr.count_of(1, t.offered)),
                        ("returned", tr.count_of(1, t.returned)),
                    ],
                );
                self.count(key, 1, &args)
            }
            Event::MerchantExchange(t) => self.say(
                "log.exchange.hidden",
                t.offerer,
                &self.args(&[t.partner], &[]),
            ),
            Event::ExchangeDeclined { seat } => self.say(
                "log.exchange.declined",
                seat,
                &self.args(&[], &[("title", self.title(seat))]),
            ),
            Event::Played { seat, set } => {
                let key = if leading { "log.lead" } else { "log.top" };
                self.say(key, seat, &self.args(&[], &[("set", self.set(&set))]))
            }
            Event::Passed { seat } => self.say("log.pass", seat, &[]),
            Event::WentOut { seat, place } => self.say(
                "log.out",
                seat,
                &self.args(
                    &[],
                    &[
                        ("place", tr.ordinal(place.into())),
                        (
                            "title",
                            tr.title(
                                Seat::new(usize::from(place).min(dalmuti_core::MAX_PLAYERS - 1))
                                    .title(self.players),
                            ),
                        ),
                    ],
                ),
            ),
            Event::RoundWon { seat, leader } => {
                let how = match previous {
                    Some(Event::Passed { .. }) => tr.t("log.everyone-passed", &[]),
                    _ => tr.t("log.won-at-once", &[]),
                };
                if seat == leader {
                    self.say("log.round.leads", seat, &self.args(&[], &[("how", how)]))
                } else {
                    let key = if self.is_me(leader) {
                        "log.round.lead-to-you"
                    } else {
                        "log.round.lead-to"
                    };
                    self.say(key, seat, &self.args(&[leader], &[("how", how)]))
                }
            }
            Event::RatbertTaken { seat } => self.say("log.ratbert", seat, &[]),
            Event::Given { from, to, card }
                if self.everything || self.is_me(from) || self.is_me(to) =>
            {
                let args = self.args(&[to], &[("card", tr.count_of(1, card))]);
                self.say("log.give.shown", from, &args)
            }
            Event::Given { from, to, .. } => {
                self.say("log.give.hidden", from, &self.args(&[to], &[]))
            }
            Event::Discarded { seat, card } if self.everything || self.is_me(seat) => {
                let args = self.args(&[], &[("card", tr.count_of(1, card))]);
                self.say("log.discard.shown", seat, &args)
            }
            Event::Discarded { seat, .. } => self.say("log.discard.hidden", seat, &[]),
            Event::HandOver => tr.t("log.hand-over", &[]),
            Event::Effect(effect) => self.effect(effect),
        }
    }
}

#[cfg(test)]
mod tests {
    use dalmuti_core::{Cards, Event, Seat, Seen, Set, TaxPayment, Variant};
    use dalmuti_i18n::Lang;

    use super::*;

    fn names(s: Seat) -> String {
        ["Alice", "Bo", "Cy", "Di"][s.index()].to_string()
    }

    fn tax() -> Event {
        let cards = |text: &str| text.parse::<Cards>().unwrap();
        Event::TaxPaid(TaxPayment {
            dalmuti: Seat::new(0),
            peon: Seat::new(3),
            gift: cards("11 12"),
            tribute: cards("1 2"),
        })
    }

    #[test]
    fn a_spectator_is_told_the_wedgie_and_its_victim() {
        let set: Set = "T".parse().unwrap();
        let set = set.with_target(Some(Seat::new(2))).unwrap();
        let played = Event::Played {
            seat: Seat::new(0),
            set,
        };
        let tr = Tr::new(Lang::En, Variant::CorporateShuffle);
        let told = seen([Seen::Event(played)], 4, tr, None, &names);
        assert_eq!(
            told,
            ["Alice leads the Twirling Wedgie: Cy must pass for the rest of the trick."]
        );
    }

    #[test]
    fn tax_cards_are_told_only_to_their_seats_and_in_a_replay() {
        let tr = Tr::new(Lang::En, Variant::Dalmuti);
        let to = |me| seen([Seen::Event(tax())], 4, tr, me, &names).remove(0);
        for other in [None, Some(Seat::new(1))] {
            let line = to(other);
            assert!(!line.contains("Baroness"), "{other:?}: {line}");
            assert!(line.contains("gives two cards"), "{other:?}: {line}");
        }
        let mine = to(Some(Seat::new(0)));
        assert!(
            mine.contains("you give a Stonecutter and a Peasant"),
            "{mine}"
        );
        let replayed = events([tax()], 4, tr, None, &names).remove(0);
        assert_eq!(
            replayed,
            "Taxes: Alice, the Greater Dalmuti, gives a Stonecutter and a Peasant to Di, \
             the Greater Peon, and receives a Dalmuti and an Archbishop."
        );
    }
}
