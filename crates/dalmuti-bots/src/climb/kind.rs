//! The kinds of player the search takes the others to be, in its
//! play-outs and when it infers who they are (see [`super::belief`]).

use dalmuti_core::{Action, Cards, Hand, Seat, SetKind, Stage};

/// A kind of player of the pack's games, as the search models it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) enum Kind {
    /// Keeps its groups, as the UECda contest's default client does
    /// (`client/daihinmin.c` of its developer kit): leads its longest run,
    /// else its largest group, else its weakest card; tops a single card
    /// only with a card in no pair and no run (or the Joker), passing
    /// rather than break one; tops larger sets with its weakest.
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

/// The keeper's play (see [`Kind::Keeper`]).
fn keeper(hand: &Hand, seat: Seat, legal: &[Action]) -> Option<Action> {
    if hand.stage() != Stage::Play {
        return legal.first().copied();
    }
    match hand.top() {
        None => {
            // The longest run, else the largest group, the weakest of
            // those (the legal actions come weakest first).
            let key = |action: &Action| match action {
                Action::Play(set) => match set.kind() {
                    SetKind::Sequence => 100 + u32::from(set.size()),
                    SetKind::OfRank => u32::from(set.size()),
                    _ => 0,
                },
                _ => 0,
            };
            let mut best: Option<Action> = None;
            for action in legal {
                if best.is_none_or(|b| key(action) > key(&b)) {
                    best = Some(*action);
                }
            }
            best
        }
        Some((_, top)) if top.size() == 1 && top.kind() != SetKind::Sequence => {
            let loose = loose_cards(&hand.held(seat));
            let single = legal.iter().copied().find(|action| match action {
                Action::Play(set) if set.kind() == SetKind::OfRank => {
                    set.cards().iter().all(|card| loose.count(card) > 0)
                }
                _ => false,
            });
            single
                .or_else(|| {
                    legal.iter().copied().find(
                        |a| matches!(a, Action::Play(set) if set.kind() == SetKind::LoneJoker),
                    )
                })
                .or_else(|| legal.iter().copied().find(|a| *a == Action::Pass))
                .or_else(|| legal.first().copied())
        }
        Some(_) => legal.first().copied(),
    }
}

/// The cards of the pack in no pair (or larger group) and no run of three
/// or more of a suit: what a keeper plays alone.
fn loose_cards(held: &Cards) -> Cards {
    let mask = held.pack_mask();
    let mut grouped = 0u64;
    for place in 0..13 {
        let at = (mask >> (4 * place)) & 0xF;
        if at.count_ones() >= 2 {
            grouped |= at << (4 * place);
        }
    }
    for suit in 0..4 {
        let mut start = 0;
        let mut len = 0;
        for place in 0..=13 {
            let has = place < 13 && mask >> (4 * place + suit) & 1 != 0;
            if has {
                if len == 0 {
                    start = place;
                }
                len += 1;
            } else {
                if len >= 3 {
                    for p in start..start + len {
                        grouped |= 1 << (4 * p + suit);
                    }
                }
                len = 0;
            }
        }
    }
    let mut loose = Cards::EMPTY;
    for card in held.iter() {
        if card.place().is_some_and(|p| {
            let bit = 4 * u64::from(p - 1) + card.suit().map_or(0, |s| s as u64);
            grouped >> bit & 1 == 0
        }) {
            loose.add(card, 1);
        }
    }
    loose
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
