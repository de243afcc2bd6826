//! What one seat (or a spectator) may know: the only window players get.

use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::action::{Action, ActionList, Decision, RevolutionOffer};
use crate::cards::Cards;
use crate::event::{Event, MerchantTrade, TaxPayment};
use crate::hand::{Hand, Revolution, Stage};
use crate::seat::{PerSeat, Seat, Seats, Title};
use crate::set::Set;
use crate::variant::Variant;

/// Who is looking.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// A player, at this seat of play.
    Seat(Seat),
    /// Someone watching: public information only.
    Spectator,
}

/// One entry of the hand's log as a viewer sees it: the public events, and
/// tax and merchant exchanges with their cards only for the two seats in
/// them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seen {
    /// A public event, or a secret one this viewer took part in.
    Event(Event),
    /// A tax exchange between two other seats: who, and how many cards.
    TaxPaid {
        /// The Dalmuti.
        dalmuti: Seat,
        /// The Peon.
        peon: Seat,
        /// How many cards went each way.
        cards: u32,
    },
    /// A merchant exchange between two other seats.
    MerchantExchanged {
        /// The highest Merchant.
        offerer: Seat,
        /// The other Merchant.
        partner: Seat,
    },
    /// 7-pass: a card given between two other seats, face down.
    Given {
        /// Who gave it.
        from: Seat,
        /// Who received it.
        to: Seat,
    },
    /// 10-discard: another seat discarded a card, face down.
    Discarded {
        /// Who discarded it.
        seat: Seat,
    },
}

/// A seat's (or a spectator's) view of a hand: its own cards, every seat's
/// card count and title, the public plays, and the tax and exchange cards
/// it gave and received; nothing else.
///
/// While the hand is set up, a view shows only the viewer's own decision and
/// how many players are ready: never who else is still choosing, nor that
/// someone kept quiet about both Jesters (RULES.md, D25).
///
/// A `View` borrows the hand but keeps it private, so code holding a view
/// (a bot, a protocol encoder) cannot reach another seat's cards.
///
/// ```
/// use dalmuti_core::{DealRng, Hand, Rules, Seat, Seed, View, Viewer};
/// let hand = Hand::deal(Rules::default(), 4, false, &mut DealRng::new(Seed::from(1)));
/// let view = View::new(&hand, Viewer::Seat(Seat::new(2)));
/// assert_eq!(view.cards(), Some(hand.held(Seat::new(2))));
/// assert_eq!(view.card_count(Seat::new(0)), 20);
/// assert_eq!(View::new(&hand, Viewer::Spectator).cards(), None);
/// ```
#[derive(Copy, Clone, Debug)]
pub struct View<'a> {
    hand: &'a Hand,
    viewer: Viewer,
    scores: Option<PerSeat<u32>>,
}

impl<'a> View<'a> {
    /// `viewer`'s view of `hand`.
    pub fn new(hand: &'a Hand, viewer: Viewer) -> View<'a> {
        View {
            hand,
            viewer,
            scores: None,
        }
    }

    /// The same view with the game's totals so far, by seat of play.
    pub fn with_scores(self, scores: PerSeat<u32>) -> View<'a> {
        View {
            scores: Some(scores),
            ..self
        }
    }

    /// Every seat's points so far in the game, when it is scored.
    pub fn scores(&self) -> Option<&[u32]> {
        self.scores.as_ref().map(|s| s.as_slice(self.players()))
    }

    /// Who is looking.
    pub fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// The viewer's seat, unless a spectator.
    pub fn seat(&self) -> Option<Seat> {
        match self.viewer {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }

    /// Whether `seat` is the viewer.
    fn is_me(&self, seat: Seat) -> bool {
        self.viewer == Viewer::Seat(seat)
    }

    /// The rules in force.
    pub fn rules(&self) -> &crate::Rules {
        self.hand.rules()
    }

    /// The deck of this hand (public: it follows from the rules and the
    /// number of players).
    pub fn deck(&self) -> crate::Deck {
        self.hand.deck()
    }

    /// How many players.
    pub fn players(&self) -> usize {
        self.hand.players()
    }

    /// Whether this is the first hand of its game.
    pub fn is_first_hand(&self) -> bool {
        self.hand.is_first()
    }

    /// A seat's title this hand. In President and Daifugō it comes from
    /// the seat's class (the last game's place), and everyone is a
    /// commoner (Merchant's title: 平民, Neutral) in a game without
    /// classes.
    pub fn title(&self, seat: Seat) -> Title {
        let n = self.players();
        if self.variant().is_suited() {
            return match self.hand.class(seat) {
                Some(class) => Seat::new(class).title(n),
                None => Title::Merchant { class: 0 },
            };
        }
        seat.title(n)
    }

    /// A seat's class this game in President and Daifugō (0 the top);
    /// `None` in a game without classes and in the other games.
    pub fn class(&self, seat: Seat) -> Option<usize> {
        self.hand.class(seat)
    }

    /// Whether a revolution is in force (President, Daifugō): 3 high.
    pub fn reversed(&self) -> bool {
        self.hand.reversed()
    }

    /// Whether a Jack's 11-back is in force until the table clears.
    pub fn eleven_back(&self) -> bool {
        self.hand.eleven_back()
    }

    /// The lock: the suits every play must have (0 when free) and whether
    /// each set must be the next rank.
    pub fn lock(&self) -> (u8, bool) {
        self.hand.lock()
    }

    /// Whether play goes to higher seats.
    pub fn clockwise(&self) -> bool {
        self.hand.clockwise()
    }

    /// Who has passed since the table last cleared (public: passes are
    /// said aloud).
    pub fn passed(&self) -> Seats {
        self.hand.passed()
    }

    /// The phase of the hand.
    pub fn stage(&self) -> Stage {
        self.hand.stage()
    }

    /// The viewer's own cards (`None` for a spectator).
    pub fn cards(&self) -> Option<Cards> {
        self.seat().map(|s| self.hand.held(s))
    }

    /// How many cards a seat holds: public, since hands are held in plain
    /// sight and every exchange is card for card.
    pub fn card_count(&self, seat: Seat) -> u32 {
        self.hand.held(seat).len()
    }

    /// Seats still holding cards.
    pub fn holding(&self) -> Seats {
        self.hand.holding()
    }

    /// Seats out so far, in order (the whole finishing order once over).
    pub fn finish_order(&self) -> &'a [Seat] {
        self.hand.finish_order()
    }

    /// The revolution called this hand, if any.
    pub fn revolution(&self) -> Option<Revolution> {
        self.hand.revolution()
    }

    /// Who must decide now, as far as the viewer may know: in play, the
    /// player whose turn it is (the table sees who is thinking); while the
    /// hand is set up, only the viewer, if they have a choice to make. Who
    /// else is still choosing stays secret, since it could tell who holds
    /// both Jesters.
    pub fn to_act(&self) -> Seats {
        match self.stage() {
            Stage::Setup => match self.seat() {
                Some(me) if self.hand.decision(me).is_some() => Seats::only(me),
                _ => Seats::NONE,
            },
            _ => self.hand.to_act(),
        }
    }

    /// How many players have made every setup choice, while the hand is set
    /// up (`None` once play has begun): all anyone learns of the others'
    /// choices until they take effect.
    pub fn ready_count(&self) -> Option<usize> {
        self.hand.ready_count()
    }

    /// The viewer's own pending decision.
    pub fn decision(&self) -> Option<Decision> {
        self.seat().and_then(|s| self.hand.decision(s))
    }

    /// The revolution the viewer may call in place of their setup choice:
    /// only the player dealt both Jesters, and only they ever learn it.
    pub fn revolution_offer(&self) -> Option<RevolutionOffer> {
        self.seat().and_then(|s| self.hand.revolution_offer(s))
    }

    /// The viewer's legal actions, worst first (empty if nothing to decide).
    pub fn legal_actions(&self) -> ActionList {
        self.seat()
            .map(|s| self.hand.legal_actions(s))
            .unwrap_or_default()
    }

    /// Calls `f` with the viewer's legal actions, worst first, until it
    /// breaks.
    pub fn for_each_legal(&self, f: impl FnMut(Action) -> ControlFlow<()>) {
        if let Some(s) = self.seat() {
            self.hand.for_each_legal(s, f);
        }
    }

    /// The set on the table and who played it.
    pub fn top(&self) -> Option<(Seat, Set)> {
        self.hand.top()
    }

    /// How many players in a row have passed the set on the table.
    pub fn passes(&self) -> usize {
        self.hand.passes()
    }

    /// Who the Twirling Wedgie makes pass for the rest of this trick
    /// (public: the Wedgie is played face up and names its target aloud).
    pub fn wedged(&self) -> Option<Seat> {
        self.hand.wedged()
    }

    /// Whether the winner of this trick will take Ratbert back (public: it
    /// follows from the plays).
    pub fn ratbert_to_take(&self) -> bool {
        self.hand.ratbert_to_take()
    }

    /// The game being played.
    pub fn variant(&self) -> Variant {
        self.hand.rules().variant
    }

    /// Whose turn it is in play.
    pub fn turn(&self) -> Option<Seat> {
        (self.stage() == Stage::Play).then(|| self.hand.turn())
    }

    /// The tax exchange the viewer took part in, with its cards.
    pub fn my_tax(&self) -> Option<TaxPayment> {
        self.hand
            .taxes()
            .find(|t| self.is_me(t.dalmuti) || self.is_me(t.peon))
    }

    /// The merchant exchange the viewer took part in, with its cards.
    pub fn my_trade(&self) -> Option<MerchantTrade> {
        self.hand
            .merchant_trade()
            .filter(|t| self.is_me(t.offerer) || self.is_me(t.partner))
    }

    /// The hand's log as this viewer may see it. A holder of both Jesters
    /// who kept quiet is told only to themself.
    pub fn log(&self) -> impl Iterator<Item = Seen> + 'a {
        let me = self.viewer;
        self.hand.events().iter().filter_map(move |&e| {
            Some(match e {
                Event::RevolutionDeclined { seat } if me != Viewer::Seat(seat) => return None,
                Event::TaxPaid(t)
                    if me != Viewer::Seat(t.dalmuti) && me != Viewer::Seat(t.peon) =>
                {
                    Seen::TaxPaid {
                        dalmuti: t.dalmuti,
                        peon: t.peon,
                        cards: t.gift.len(),
                    }
                }
                Event::MerchantExchange(t)
                    if me != Viewer::Seat(t.offerer) && me != Viewer::Seat(t.partner) =>
                {
                    Seen::MerchantExchanged {
                        offerer: t.offerer,
                        partner: t.partner,
                    }
                }
                Event::Given { from, to, .. }
                    if me != Viewer::Seat(from) && me != Viewer::Seat(to) =>
                {
                    Seen::Given { from, to }
                }
                Event::Discarded { seat, .. } if me != Viewer::Seat(seat) => {
                    Seen::Discarded { seat }
                }
                e => Seen::Event(e),
            })
        })
    }

    /// The cards of this game the viewer cannot see (President, Daifugō):
    /// the deck less its own cards, every card played and the cards it
    /// discarded (10-discard). Exchange cards and cards given on (7-pass)
    /// are among them: where they are is for the viewer to remember; so are
    /// the cards the others discarded ([`View::hidden_discards`] of them).
    pub fn unseen(&self) -> Cards {
        let mut unseen = self.deck().cards();
        if let Some(mine) = self.cards() {
            unseen.remove_all(&mine);
        }
        for (_, set) in self.plays() {
            unseen.remove_all(&set.cards());
        }
        unseen.remove_all(&self.my_discards());
        unseen
    }

    /// The cards the viewer discarded this game (10-discard).
    pub fn my_discards(&self) -> Cards {
        let mut mine = Cards::EMPTY;
        for event in self.hand.events() {
            if let Event::Discarded { seat, card } = *event
                && self.is_me(seat)
            {
                mine.add(card, 1);
            }
        }
        mine
    }

    /// How many cards the other players discarded this game (10-discard),
    /// face down: among the [`View::unseen`] cards, but in no one's hand.
    pub fn hidden_discards(&self) -> u32 {
        self.hand
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Discarded { seat, .. } if !self.is_me(*seat)))
            .count() as u32
    }

    /// The game as it would be if the other seats held `others` (indexed by
    /// seat; the viewer's own entry is ignored): a position a search bot
    /// may play out, President and Daifugō only. `others` must share out
    /// [`View::unseen`], each seat its count of cards, but for as many as
    /// the others discarded ([`View::hidden_discards`]), which the copy
    /// takes to be the ones discarded; it holds nothing more than the
    /// viewer may know.
    ///
    /// ```
    /// use dalmuti_core::{DealRng, Hand, Rules, Seat, Seed, View, Viewer, PerSeat, Cards};
    /// let hand = Hand::deal(Rules::daifugo(), 3, true, &mut DealRng::new(Seed::from(3)));
    /// let view = View::new(&hand, Viewer::Seat(Seat::new(0)));
    /// let mut others = PerSeat::<Cards>::default();
    /// let unseen_cards = view.unseen();
    /// let mut unseen = unseen_cards.iter();
    /// for seat in [Seat::new(1), Seat::new(2)] {
    ///     for _ in 0..view.card_count(seat) {
    ///         others[seat].add(unseen.next().unwrap(), 1);
    ///     }
    /// }
    /// let sample = view.sample(&others).unwrap();
    /// assert_eq!(sample.held(Seat::new(0)), hand.held(Seat::new(0)));
    /// assert!(sample.events().is_empty());
    /// ```
    pub fn sample(&self, others: &PerSeat<Cards>) -> Result<Hand, String> {
        if !self.variant().is_suited() {
            return Err("only President and Daifugō are sampled this way".into());
        }
        let me = self.seat();
        let mut holdings = PerSeat::<Cards>::default();
        let mut all = Cards::EMPTY;
        for seat in Seat::all(self.players()) {
            let cards = if Some(seat) == me {
                self.hand.held(seat)
            } else {
                let cards = others[seat];
                if cards.len() != self.card_count(seat) {
                    return Err(format!(
                        "{seat} holds {} cards, not {}",
                        self.card_count(seat),
                        cards.len()
                    ));
                }
                if !cards.is_empty() && !cards.is_suited() {
                    return Err(format!("{cards} are not cards of the pack"));
                }
                if all.pack_mask() & cards.pack_mask() != 0 || all.jokers() + cards.jokers() > 2 {
                    return Err("a card given twice".into());
                }
                all.add_all(&cards);
                cards
            };
            holdings[seat] = cards;
        }
        let unseen = self.unseen();
        if !unseen.contains(&all) || unseen.len() - all.len() != self.hidden_discards() {
            return Err(
                "the cards given are not the unseen cards, less as many as were discarded".into(),
            );
        }
        Ok(self.hand.with_holdings(&holdings))
    }

    /// Every set played so far this hand, in order, with who played it.
    pub fn plays(&self) -> impl Iterator<Item = (Seat, Set)> + 'a {
        self.hand.events().iter().filter_map(|e| match *e {
            Event::Played { seat, set } => Some((seat, set)),
            _ => None,
        })
    }

    /// An owned, serializable copy of everything in this view.
    pub fn snapshot(&self) -> ViewSnapshot {
        let n = self.players();
        ViewSnapshot {
            variant: self.rules().variant,
            seat: self.seat().map(Seat::index),
            players: n,
            stage: match self.stage() {
                Stage::Setup => "setup",
                Stage::Play => "play",
                Stage::Over => "over",
            }
            .to_string(),
            hand: self.cards().map(|c| c.to_string()),
            seats: Seat::all(n)
                .map(|s| {
                    // The place in the finishing order (the last one's too,
                    // once the hand is over) is the seat of the next hand.
                    let place = self.hand.place(s);
                    SeatSnapshot {
                        title: self.rules().variant.title_name(self.title(s)).to_string(),
                        title_key: Some(self.title(s).key().to_string()),
                        next_title_key: place.map(|p| Seat::new(p).title(n).key().to_string()),
                        cards: self.card_count(s),
                        out: place.filter(|_| !self.holding().contains(s)),
                    }
                })
                .collect(),
            to_act: self.to_act().iter().map(Seat::index).collect(),
            ready: self.ready_count(),
            revolution_offer: self
                .revolution_offer()
                .map(|o| OfferSnapshot { greater: o.greater }),
            top: self.top().map(|(s, set)| (s.index(), set.to_string())),
            passes: self.passes(),
            wedged: self.wedged().map(Seat::index),
            revolution: self.revolution().map(|r| RevolutionSnapshot {
                by: r.by.index(),
                greater: r.greater,
            }),
            my_tax: self.my_tax().map(|t| ExchangeSnapshot {
                with: if self.is_me(t.dalmuti) {
                    t.peon
                } else {
                    t.dalmuti
                }
                .index(),
                gave: if self.is_me(t.dalmuti) {
                    t.gift
                } else {
                    t.tribute
                }
                .to_string(),
                received: if self.is_me(t.dalmuti) {
                    t.tribute
                } else {
                    t.gift
                }
                .to_string(),
            }),
            my_trade: self.my_trade().map(|t| {
                let mine = self.is_me(t.offerer);
                ExchangeSnapshot {
                    with: if mine { t.partner } else { t.offerer }.index(),
                    gave: if mine { t.offered } else { t.returned }.to_string(),
                    received: if mine { t.returned } else { t.offered }.to_string(),
                }
            }),
            log: self.log().map(LogEntry::from).collect(),
            finish_order: self.finish_order().iter().map(|s| s.index()).collect(),
            scores: self.scores().map(<[u32]>::to_vec),
            table: self.variant().is_suited().then(|| {
                let (suits, number) = self.lock();
                TableSnapshot {
                    options: self.rules().climbing(),
                    classes: Seat::all(n).map(|s| self.class(s)).collect(),
                    reversed: self.reversed(),
                    eleven_back: self.eleven_back(),
                    lock: suit_letters(suits),
                    lock_number: number,
                    clockwise: self.clockwise(),
                    passed: self.passed().iter().map(Seat::index).collect(),
                }
            }),
        }
    }
}

/// An owned copy of a [`View`], for protocols and tests. Cards are written
/// as record tokens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewSnapshot {
    /// The game: absent (or `dalmuti`) for The Great Dalmuti,
    /// `corporate-shuffle` for Corporate Shuffle.
    #[serde(default, skip_serializing_if = "is_dalmuti")]
    pub variant: Variant,
    /// The viewer's seat; absent for a spectator.
    pub seat: Option<usize>,
    /// How many players.
    pub players: usize,
    /// `setup`, `play` or `over`.
    pub stage: String,
    /// The viewer's cards.
    pub hand: Option<String>,
    /// Every seat, in order.
    pub seats: Vec<SeatSnapshot>,
    /// Seats with a decision to make, as the viewer may know them (during
    /// setup, at most the viewer).
    pub to_act: Vec<usize>,
    /// During setup, how many players have made every choice.
    pub ready: Option<usize>,
    /// The revolution the viewer may call (only the holder of both Jesters
    /// during setup).
    pub revolution_offer: Option<OfferSnapshot>,
    /// The seat and set on the table.
    pub top: Option<(usize, String)>,
    /// Passes in a row since the set on the table.
    pub passes: usize,
    /// Who the Twirling Wedgie makes pass for the rest of the trick
    /// (Corporate Shuffle; absent when no one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wedged: Option<usize>,
    /// A revolution, if called.
    pub revolution: Option<RevolutionSnapshot>,
    /// The viewer's tax exchange.
    pub my_tax: Option<ExchangeSnapshot>,
    /// The viewer's merchant exchange.
    pub my_trade: Option<ExchangeSnapshot>,
    /// The hand's log as the viewer sees it.
    pub log: Vec<LogEntry>,
    /// Seats out so far, in order.
    pub finish_order: Vec<usize>,
    /// Every seat's points so far, when the game is scored.
    pub scores: Option<Vec<u32>>,
    /// The table of President and Daifugō (absent in the other games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<TableSnapshot>,
}

/// The table of President and Daifugō in a [`ViewSnapshot`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSnapshot {
    /// The rule set's options (`docs/RULES.md`).
    pub options: crate::Climbing,
    /// Each seat's class this game, 0 the top (`null` in a game without
    /// classes).
    pub classes: Vec<Option<usize>>,
    /// A revolution is in force: 3 high.
    pub reversed: bool,
    /// A Jack's 11-back is in force until the table clears.
    pub eleven_back: bool,
    /// The locked suits as letters (`SH`; empty when free; `+` for a Joker
    /// beyond the four suits).
    pub lock: String,
    /// Each set must be the next rank.
    pub lock_number: bool,
    /// Play goes to higher seats.
    pub clockwise: bool,
    /// Seats that have passed since the table last cleared.
    pub passed: Vec<usize>,
}

/// One seat in a [`ViewSnapshot`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSnapshot {
    /// Its title, in the variant's words ("Greater Dalmuti", "Big Boss").
    pub title: String,
    /// Its title as a key ([`Title::key`](crate::Title::key)), for clients
    /// to word it in their own language (absent in older snapshots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_key: Option<String>,
    /// Once out (and for the last one, once the hand is over), the title
    /// its place earns for the next hand, as a key: so that a client shows
    /// the new titles without working them out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_title_key: Option<String>,
    /// How many cards it holds.
    pub cards: u32,
    /// Its finishing place (0 = first) once out.
    pub out: Option<usize>,
}

/// A revolution in a [`ViewSnapshot`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevolutionSnapshot {
    /// The caller's seat of play.
    pub by: usize,
    /// Whether it was greater.
    pub greater: bool,
}

/// A revolution the viewer may call, in a [`ViewSnapshot`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfferSnapshot {
    /// Whether it would be a greater revolution.
    pub greater: bool,
}

/// An exchange the viewer took part in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExchangeSnapshot {
    /// The other seat.
    pub with: usize,
    /// Cards the viewer gave.
    pub gave: String,
    /// Cards the viewer received.
    pub received: String,
}

/// One entry of the log in a [`ViewSnapshot`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum LogEntry {
    RevolutionCalled {
        seat: usize,
        greater: bool,
    },
    RevolutionDeclined {
        seat: usize,
    },
    TaxPaid {
        dalmuti: usize,
        peon: usize,
        cards: u32,
        gift: Option<String>,
        tribute: Option<String>,
    },
    MerchantExchange {
        offerer: usize,
        partner: usize,
        offered: Option<String>,
        returned: Option<String>,
    },
    ExchangeDeclined {
        seat: usize,
    },
    Played {
        seat: usize,
        set: String,
        /// The Twirling Wedgie's target (Corporate Shuffle).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        wedgie: Option<usize>,
    },
    Passed {
        seat: usize,
    },
    WentOut {
        seat: usize,
        place: u8,
    },
    RoundWon {
        seat: usize,
        leader: usize,
    },
    /// The trick's winner takes Ratbert back (Corporate Shuffle).
    RatbertTaken {
        seat: usize,
    },
    HandOver,
    /// President and Daifugō: four of a kind or a long sequence turned the
    /// order over (`reversed`: 3 high now).
    Revolution {
        seat: usize,
        reversed: bool,
    },
    /// An 8 cleared the table.
    EightCut {
        seat: usize,
    },
    /// 2s cleared the table.
    TwoClears {
        seat: usize,
    },
    /// The 3♠ beat a lone Joker and cleared the table.
    SpadeThree {
        seat: usize,
    },
    /// A Jack turned the order over until the table clears (`on`), or back.
    ElevenBack {
        seat: usize,
        on: bool,
    },
    /// The table is locked: these suits (letters, empty when only the rank
    /// is locked; `+` for a Joker beyond the four suits), the next rank.
    Locked {
        suits: String,
        number: bool,
    },
    /// 5s skipped these seats.
    Skipped {
        seat: usize,
        skipped: Vec<usize>,
    },
    /// 9s turned the direction of play round.
    Reversed {
        seat: usize,
        clockwise: bool,
    },
    /// The top class fell to last place (都落ち).
    Fell {
        seat: usize,
    },
    /// A forbidden last card put this seat at the bottom.
    Fouled {
        seat: usize,
    },
    /// Too many passes in a row ended the game; these seats took the last
    /// places at random.
    Stalemate {
        left: Vec<usize>,
    },
    /// 7-pass: a card given to the next player; the card only for the two
    /// of them.
    Given {
        from: usize,
        to: usize,
        card: Option<String>,
    },
    /// 10-discard: a card discarded; the card only for its player.
    Discarded {
        seat: usize,
        card: Option<String>,
    },
}

/// A suit mask in letters (`SH`), `+` for a Joker beyond the four suits.
pub(crate) fn suit_letters(suits: u8) -> String {
    let mut out: String = crate::Suit::ALL
        .iter()
        .filter(|s| suits >> s.index() & 1 != 0)
        .map(|s| s.letter())
        .collect();
    if suits & 0x10 != 0 {
        out.push('+');
    }
    out
}

impl From<crate::event::Effect> for LogEntry {
    fn from(effect: crate::event::Effect) -> LogEntry {
        use crate::event::Effect;
        let seats = |s: Seats| s.iter().map(Seat::index).collect();
        match effect {
            Effect::Revolution { seat, reversed } => LogEntry::Revolution {
                seat: seat.index(),
                reversed,
            },
            Effect::EightCut { seat } => LogEntry::EightCut { seat: seat.index() },
            Effect::TwoClears { seat } => LogEntry::TwoClears { seat: seat.index() },
            Effect::SpadeThree { seat } => LogEntry::SpadeThree { seat: seat.index() },
            Effect::ElevenBack { seat, on } => LogEntry::ElevenBack {
                seat: seat.index(),
                on,
            },
            Effect::Locked { suits, number } => LogEntry::Locked {
                suits: suit_letters(suits),
                number,
            },
            Effect::Skipped { seat, skipped } => LogEntry::Skipped {
                seat: seat.index(),
                skipped: seats(skipped),
            },
            Effect::Reversed { seat, clockwise } => LogEntry::Reversed {
                seat: seat.index(),
                clockwise,
            },
            Effect::Fell { seat } => LogEntry::Fell { seat: seat.index() },
            Effect::Fouled { seat } => LogEntry::Fouled { seat: seat.index() },
            Effect::Stalemate { left } => LogEntry::Stalemate { left: seats(left) },
        }
    }
}

fn is_dalmuti(variant: &Variant) -> bool {
    *variant == Variant::Dalmuti
}

impl From<Seen> for LogEntry {
    fn from(seen: Seen) -> LogEntry {
        match seen {
            Seen::TaxPaid {
                dalmuti,
                peon,
                cards,
            } => LogEntry::TaxPaid {
                dalmuti: dalmuti.index(),
                peon: peon.index(),
                cards,
                gift: None,
                tribute: None,
            },
            Seen::MerchantExchanged { offerer, partner } => LogEntry::MerchantExchange {
                offerer: offerer.index(),
                partner: partner.index(),
                offered: None,
                returned: None,
            },
            Seen::Given { from, to } => LogEntry::Given {
                from: from.index(),
                to: to.index(),
                card: None,
            },
            Seen::Discarded { seat } => LogEntry::Discarded {
                seat: seat.index(),
                card: None,
            },
            Seen::Event(e) => match e {
                Event::RevolutionCalled { seat, greater } => LogEntry::RevolutionCalled {
                    seat: seat.index(),
                    greater,
                },
                Event::RevolutionDeclined { seat } => {
                    LogEntry::RevolutionDeclined { seat: seat.index() }
                }
                Event::TaxPaid(t) => LogEntry::TaxPaid {
                    dalmuti: t.dalmuti.index(),
                    peon: t.peon.index(),
                    cards: t.gift.len(),
                    gift: Some(t.gift.to_string()),
                    tribute: Some(t.tribute.to_string()),
                },
                Event::MerchantExchange(t) => LogEntry::MerchantExchange {
                    offerer: t.offerer.index(),
                    partner: t.partner.index(),
                    offered: Some(t.offered.to_string()),
                    returned: Some(t.returned.to_string()),
                },
                Event::ExchangeDeclined { seat } => {
                    LogEntry::ExchangeDeclined { seat: seat.index() }
                }
                Event::Played { seat, set } => LogEntry::Played {
                    seat: seat.index(),
                    set: set.to_string(),
                    wedgie: set.wedgie_target().map(Seat::index),
                },
                Event::Passed { seat } => LogEntry::Passed { seat: seat.index() },
                Event::WentOut { seat, place } => LogEntry::WentOut {
                    seat: seat.index(),
                    place,
                },
                Event::RoundWon { seat, leader } => LogEntry::RoundWon {
                    seat: seat.index(),
                    leader: leader.index(),
                },
                Event::RatbertTaken { seat } => LogEntry::RatbertTaken { seat: seat.index() },
                Event::HandOver => LogEntry::HandOver,
                Event::Effect(effect) => LogEntry::from(effect),
                Event::Given { from, to, card } => LogEntry::Given {
                    from: from.index(),
                    to: to.index(),
                    card: Some(card.to_string()),
                },
                Event::Discarded { seat, card } => LogEntry::Discarded {
                    seat: seat.index(),
                    card: Some(card.to_string()),
                },
            },
        }
    }
}
