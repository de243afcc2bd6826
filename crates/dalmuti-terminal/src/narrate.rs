//! The hand's log told to the human, in the human's language: one sentence
//! per entry of [`dalmuti_core::View::log`], the human in the second person.
//! (`dalmuti replay` tells records with `dalmuti_core::narrate`, in
//! English.) Other seats' tax and exchange cards are never told: the
//! hidden entries carry none, and a full event is told with its cards only
//! to a seat in it.

use dalmuti_core::{Event, Seat, Seen, Set};

use crate::tr::{Tr, capitalize};

/// Tells `log` as the player at `me` sees it; `name` names a seat of play.
pub fn seen(
    log: impl IntoIterator<Item = Seen>,
    players: usize,
    tr: Tr,
    me: Seat,
    name: &dyn Fn(Seat) -> String,
) -> Vec<String> {
    let teller = Teller {
        players,
        tr,
        me,
        name,
    };
    let mut leading = true;
    let mut previous = None;
    log.into_iter()
        .map(|entry| match entry {
            Seen::TaxPaid {
                dalmuti,
                peon,
                cards,
            } => teller.hidden_tax(dalmuti, peon, cards),
            Seen::MerchantExchanged { offerer, partner } => teller.say(
                "log.exchange.hidden",
                offerer,
                &teller.args(&[partner], &[]),
            ),
            Seen::Event(event) => {
                let line = teller.event(event, leading, previous.as_ref());
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

struct Teller<'a> {
    players: usize,
    tr: Tr,
    me: Seat,
    name: &'a dyn Fn(Seat) -> String,
}

impl Teller<'_> {
    /// The message `key` about `seat`: `key.you` when that is the human
    /// (languages conjugate for "you"), with `{name}` the seat's name.
    fn say(&self, key: &str, seat: Seat, args: &[(String, String)]) -> String {
        let key = if seat == self.me {
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

    fn who(&self, seat: Seat) -> String {
        if seat == self.me {
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

    /// A set and what its special card does.
    fn set(&self, set: &Set) -> String {
        let words = self.tr.set_words(set);
        if let Some(target) = set.wedgie_target() {
            let key = if target == self.me {
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
                if seat != self.me {
                    line.push(' ');
                    line.push_str(&tr.t("log.you-are-now", &[("title", &self.title(self.me))]));
                }
                line
            }
            Event::RevolutionDeclined { seat } => {
                self.say("log.revolution.declined", seat, &self.args(&[], &[]))
            }
            Event::TaxPaid(t) if t.dalmuti == self.me || t.peon == self.me => {
                let (key, other, gave, got) = if t.dalmuti == self.me {
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
            Event::MerchantExchange(t) if t.offerer == self.me || t.partner == self.me => {
                let key = if t.offerer == self.me {
                    "log.exchange.offered"
                } else {
                    "log.exchange.answered"
                };
                let other = if t.offerer == self.me {
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
                    let key = if leader == self.me {
                        "log.round.lead-to-you"
                    } else {
                        "log.round.lead-to"
                    };
                    self.say(key, seat, &self.args(&[leader], &[("how", how)]))
                }
            }
            Event::RatbertTaken { seat } => self.say("log.ratbert", seat, &[]),
            Event::HandOver => tr.t("log.hand-over", &[]),
        }
    }
}
