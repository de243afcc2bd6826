//! The kinds of player the search takes the others to be, in its
//! play-outs and when it infers who they are (see [`super::belief`]).

use dalmuti_core::{Action, Hand, Seat, Set, Stage};

use super::kit;

/// A kind of player of the pack's games, as the search models it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) enum Kind {
    /// Keeps its groups: the UECda contest's default client
    /// (`client/daihinmin.c` of its developer kit), decision for decision
    /// (see [`super::kit`]): leads its longest run, else its largest
    /// group, else its weakest card; tops a single card only with a card
    /// in no group and no run (or the Joker), and a larger set only with
    /// a group or run of exactly its size, passing rather than break one.
    Keeper,
    /// Plays its weakest legal play: sheds its weak cards first (our
    /// `easy` bots, and a fair model of a player who races).
    #[default]
    Weakest,
    /// Any legal play: a player neither model fits. Played out as
    /// [`Kind::Weakest`].
    Random,
}

impl Kind {
    /// What this kind plays at `seat`'s turn in `hand`, given its legal
    /// actions (weakest first, as the engine lists them); `None` for a
    /// kind with no favourite (any legal action as likely).
    pub(super) fn choice(self, hand: &Hand, seat: Seat, legal: &[Action]) -> Option<Action> {
        match self {
            Kind::Keeper => keeper(hand, seat, legal),
            Kind::Weakest => legal.first().copied(),
            Kind::Random => None,
        }
    }

    /// What this kind plays in a play-out (a kind without a favourite
    /// plays its weakest).
    pub(super) fn play(self, hand: &Hand, seat: Seat) -> Option<Action> {
        match self {
            Kind::Keeper if hand.stage() == Stage::Play => {
                let legal = hand.legal_actions(seat);
                keeper(hand, seat, &legal)
            }
            _ => hand.worst_legal(seat),
        }
    }
}

/// The keeper's play (see [`Kind::Keeper`]): the kit's default client's,
/// found among the legal actions; a play the rules refuse is a pass, as
/// the contest's server counts it.
fn keeper(hand: &Hand, seat: Seat, legal: &[Action]) -> Option<Action> {
    if hand.stage() != Stage::Play {
        return legal.first().copied();
    }
    let same = |wanted: &Set, set: &Set| {
        set.kind() == wanted.kind()
            && set.places() == wanted.places()
            && set.cards() == wanted.cards()
    };
    let found = kit::play(hand, seat).and_then(|wanted| {
        legal
            .iter()
            .find(|a| matches!(a, Action::Play(set) if *set == wanted))
            .or_else(|| {
                legal
                    .iter()
                    .find(|a| matches!(a, Action::Play(set) if same(&wanted, set)))
            })
            .copied()
    });
    found
        .or_else(|| legal.iter().copied().find(|a| *a == Action::Pass))
        .or_else(|| legal.first().copied())
}

/// A hand played by kinds, for the tests of what the search learns of
/// them.
#[cfg(test)]
pub(super) fn play_hand_of_five(seed: u64, others: Kind, mut at_mine: impl FnMut(&Hand, usize)) {
    use dalmuti_core::{DealRng, Rules, Seed};
    // A Daifugō hand of five dealt from `seed`: seats 1 to 4 play as
    // `others`, seat 0 its weakest; `at_mine` sees the hand at each of
    // seat 0's turns in the play, with the plays made so far (its own
    // turn counted).
    let mut hand = Hand::deal_ranked(
        Rules::daifugo(),
        5,
        None,
        &mut DealRng::new(Seed::from(seed)),
    );
    let mut plays = 0;
    while let Some(seat) = hand.next_to_act() {
        if hand.stage() == Stage::Play {
            plays += 1;
            if seat.index() == 0 {
                at_mine(&hand, plays);
            }
        }
        let kind = if seat.index() == 0 {
            Kind::Weakest
        } else {
            others
        };
        let action = kind.play(&hand, seat).expect("a legal action");
        hand.apply(seat, action).expect("legal");
    }
}
