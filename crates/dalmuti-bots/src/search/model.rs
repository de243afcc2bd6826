//! How the other players choose inside the search, when they are modelled
//! rather than searched: each as one kind of player.

use dalmuti_core::{Action, Hand, Seat};
use rand::Rng;

use crate::style::{NOISE_ONE_IN, Spot, Style};
use crate::{BotRng, heuristic};

/// A kind of player the search models another seat as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Kind {
    /// The heuristic bot.
    #[default]
    Heuristic,
    /// The greedy bot: its worst set whenever it can play.
    Greedy,
    /// Any legal action, uniformly.
    Random,
    /// One style.
    Style(Style),
}

impl Kind {
    /// The play of `seat` in `hand` (a determinization the search sees
    /// whole; the model reads only the seat's cards and what the table
    /// shows). `legal` is a buffer for the legal actions.
    pub(super) fn play(
        self,
        hand: &Hand,
        seat: Seat,
        legal: &mut Vec<Action>,
        rng: &mut BotRng,
    ) -> Action {
        let noise = match self {
            Kind::Random => true,
            Kind::Style(Style::Noisy) => rng.random_ratio(1, NOISE_ONE_IN),
            _ => false,
        };
        if noise {
            fill(hand, seat, legal);
            return legal[rng.random_range(0..legal.len())];
        }
        self.choice(hand, seat, legal)
            .expect("only the random kind has no choice")
    }

    /// What this kind plays for `seat` in `hand` when it does not play at
    /// random (the `noisy` style as the heuristic); `None` for the random
    /// kind, which has no favourite.
    pub(super) fn choice(self, hand: &Hand, seat: Seat, legal: &mut Vec<Action>) -> Option<Action> {
        Some(match self {
            Kind::Random => return None,
            Kind::Heuristic | Kind::Style(Style::Noisy) => {
                heuristic::playout_play(hand, seat, legal)
            }
            Kind::Greedy => hand.worst_legal(seat).expect("a seat to act can act"),
            Kind::Style(Style::Patient) => {
                heuristic::playout_play_with(hand, seat, legal, u32::MAX)
            }
            Kind::Style(style) => {
                fill(hand, seat, legal);
                let spot = Spot {
                    cards: hand.held(seat),
                    legal,
                    top: hand.top().map(|(_, set)| set),
                };
                let chosen = style.play(&spot, || {
                    heuristic::playout_play(hand, seat, &mut Vec::with_capacity(legal.len()))
                });
                if legal.contains(&chosen) {
                    chosen
                } else {
                    legal[0]
                }
            }
        })
    }
}

/// Fills `legal` with the legal actions of `seat`.
pub(super) fn fill(hand: &Hand, seat: Seat, legal: &mut Vec<Action>) {
    legal.clear();
    hand.for_each_legal(seat, |a| {
        legal.push(a);
        std::ops::ControlFlow::Continue(())
    });
}
