//! Bots that each play one clear style, to measure other bots against
//! (`dalmuti sim --pool`) and to give players opponents with a character:
//!
//! | name | style |
//! |---|---|
//! | `shedder` | races: plays whenever it can, its biggest group first |
//! | `hoarder` | passes to keep its strong cards and wild cards for the end |
//! | `spender` | the heuristic, but spends its wild cards as soon as it can |
//! | `breaker` | leads single cards and tops with whatever is cheapest, breaking groups |
//! | `noisy` | the heuristic, with a random legal action one time in five |
//! | `patient` | the heuristic as it was: it waits for a lead however long it takes |
//!
//! They differ in play (lead, follow, pass); their setup choices (tax
//! gifts, the revolution, the merchant exchange) are the heuristic's, but
//! for `noisy`, whose every decision may be random. Each play is chosen
//! from the seat's own cards, the set on the table and the legal actions
//! (a [`Spot`]), so a style reads no more than its seat's view.

mod breaker;
mod hoarder;
mod shedder;
mod spender;

use std::fmt;
use std::str::FromStr;

use dalmuti_core::{Action, Card, Cards, Decision, Set, View};
use rand::Rng;

use crate::{Bot, BotFault, BotRng, HeuristicBot, bot_rng};

/// A style of play ([`StyleBot`]).
///
/// ```
/// use dalmuti_bots::Style;
/// assert_eq!("hoarder".parse::<Style>(), Ok(Style::Hoarder));
/// assert_eq!(Style::Noisy.to_string(), "noisy");
/// assert_eq!(Style::ALL.len(), 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// Plays whenever it can, its biggest group first.
    Shedder,
    /// Passes to keep strong cards and wild cards for the end.
    Hoarder,
    /// The heuristic, spending wild cards as soon as it can.
    Spender,
    /// Leads single cards, tops with the cheapest cards, breaking groups.
    Breaker,
    /// The heuristic, with a random legal action one decision in five.
    Noisy,
    /// The heuristic as it was before it stopped waiting for leads
    /// ([`HeuristicBot::patient`]).
    Patient,
}

impl Style {
    /// Every style.
    pub const ALL: [Style; 6] = [
        Style::Shedder,
        Style::Hoarder,
        Style::Spender,
        Style::Breaker,
        Style::Noisy,
        Style::Patient,
    ];

    /// Its name as a bot: `shedder`, `hoarder`…
    pub fn name(self) -> &'static str {
        match self {
            Style::Shedder => "shedder",
            Style::Hoarder => "hoarder",
            Style::Spender => "spender",
            Style::Breaker => "breaker",
            Style::Noisy => "noisy",
            Style::Patient => "patient",
        }
    }
}

impl Style {
    /// The style's play (lead, follow or pass) at `spot`; `heuristic` is
    /// the heuristic's choice there (the patient heuristic's for
    /// `patient`), asked for only by the styles built on it. The `noisy`
    /// style's noise is its bot's: here it plays as the heuristic.
    pub(crate) fn play(self, spot: &Spot<'_>, heuristic: impl FnOnce() -> Action) -> Action {
        match self {
            Style::Shedder => shedder::play(spot),
            Style::Hoarder => hoarder::play(spot),
            Style::Breaker => breaker::play(spot),
            Style::Spender => spender::play(spot, heuristic()),
            Style::Noisy | Style::Patient => heuristic(),
        }
    }
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Style {
    type Err = ();

    fn from_str(s: &str) -> Result<Style, ()> {
        Style::ALL.into_iter().find(|st| st.name() == s).ok_or(())
    }
}

/// One in this many decisions of the `noisy` bot is a random legal action.
pub(crate) const NOISE_ONE_IN: u32 = 5;

/// A bot playing one [`Style`].
///
/// ```
/// use dalmuti_bots::{Bot, Style, StyleBot};
/// use dalmuti_core::{DealRng, Hand, Rules, Seed, Stage, View, Viewer};
/// let mut hand = Hand::deal(Rules::default(), 5, false, &mut DealRng::new(Seed::from(2)));
/// let mut bots: Vec<StyleBot> = Style::ALL.iter().map(|&s| StyleBot::new(s, 1)).collect();
/// while let Some(seat) = hand.next_to_act() {
///     let view = View::new(&hand, Viewer::Seat(seat));
///     let legal = view.legal_actions();
///     let action = bots[seat.index()].decide(&view, &legal).unwrap();
///     hand.apply(seat, action).unwrap();
/// }
/// assert_eq!(hand.stage(), Stage::Over);
/// ```
#[derive(Clone, Debug)]
pub struct StyleBot {
    style: Style,
    heuristic: HeuristicBot,
    rng: BotRng,
}

impl StyleBot {
    /// A bot of `style`, its randomness (the `noisy` style's) seeded by
    /// `seed`.
    pub fn new(style: Style, seed: u64) -> StyleBot {
        StyleBot {
            style,
            heuristic: match style {
                Style::Patient => HeuristicBot::patient(),
                _ => HeuristicBot::new(seed),
            },
            rng: bot_rng(seed),
        }
    }

    /// Its style.
    pub fn style(&self) -> Style {
        self.style
    }
}

impl Bot for StyleBot {
    fn name(&self) -> &str {
        self.style.name()
    }

    fn decide(&mut self, view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        // President and Daifugō: the rules of thumb of the pack's games
        // (a bot built by name plays them through `climb`; this keeps a
        // bot made directly from playing them with Dalmuti's reckoning).
        if view.variant().is_suited() {
            return Ok(crate::climb::pack_choice(view, legal));
        }
        if self.style == Style::Noisy && self.rng.random_ratio(1, NOISE_ONE_IN) {
            return Ok(legal[self.rng.random_range(0..legal.len())]);
        }
        let spot = Spot {
            cards: view.cards().unwrap_or_default(),
            legal,
            top: view.top().map(|(_, set)| set),
        };
        let chosen = match view.decision() {
            Some(Decision::Lead | Decision::Follow { .. }) => self.style.play(&spot, || {
                self.heuristic.decide(view, legal).unwrap_or(legal[0])
            }),
            _ => self.heuristic.decide(view, legal)?,
        };
        // Whatever a style computes, it answers with a legal action.
        Ok(if legal.contains(&chosen) {
            chosen
        } else {
            legal[0]
        })
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
    }
}

/// What a style chooses a play from: the seat's cards, the set to top (if
/// any) and the legal actions.
pub(crate) struct Spot<'a> {
    pub(crate) cards: Cards,
    pub(crate) legal: &'a [Action],
    pub(crate) top: Option<Set>,
}

impl Spot<'_> {
    /// The legal plays, worst first.
    pub(crate) fn sets(&self) -> impl Iterator<Item = Set> + '_ {
        self.legal.iter().filter_map(|a| match a {
            Action::Play(set) => Some(*set),
            _ => None,
        })
    }

    /// The play that empties the hand, if any.
    pub(crate) fn going_out(&self) -> Option<Set> {
        let size = self.cards.len();
        self.sets().find(|s| u32::from(s.size()) == size)
    }

    /// Whether `set` leaves cards of its own face in the hand.
    pub(crate) fn breaks(&self, set: Set) -> bool {
        set.naturals() > 0 && set.naturals() < self.cards.count(set.face())
    }

    /// How many cards of value 1 to 4, World Rulers and wild cards the
    /// hand holds: what a careful player keeps for the end.
    pub(crate) fn strong_cards(&self) -> u32 {
        self.cards
            .kinds()
            .filter(|&(card, _)| is_strong(card))
            .map(|(_, n)| u32::from(n))
            .sum()
    }

    /// The play of `set`, or pass when there is none; Dogberts alone
    /// declared as the best value they may take.
    pub(crate) fn play(&self, set: Option<Set>) -> Action {
        let Some(set) = set else {
            return Action::Pass;
        };
        if set.declared().is_some() {
            let best = self
                .sets()
                .filter(|s| s.cards() == set.cards())
                .min_by_key(Set::rank_number);
            return Action::Play(best.unwrap_or(set));
        }
        Action::Play(set)
    }
}

/// A card a careful player keeps for the end: value 4 or better, or wild.
fn is_strong(card: Card) -> bool {
    card.value().is_none_or(|v| v <= 4)
}
