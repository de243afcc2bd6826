//! The hand's setup: taxes, the revolution, the merchant exchange.

use super::*;

// ----- taxes, revolution, merchant exchange -----

/// Groups a hand holds (wild cards not counted).
pub(super) fn group_count(cards: Cards) -> i32 {
    groups(cards).count() as i32
}

/// How much a gift of `gift` from `cards` hurts (lower is better): each
/// card's strength, less a bonus for every group it removes whole; a wild
/// card, the World Ruler or a card of value 3 or better is never given
/// while something else can be.
pub(super) fn gift_cost(cards: Cards, gift: Cards) -> i32 {
    const GROUP: i32 = 6;
    const PRECIOUS: i32 = 1000;
    let mut rest = cards;
    rest.remove_all(&gift);
    let removed = group_count(cards) - group_count(rest);
    let strength: i32 = gift
        .iter()
        .map(|c| match c.value() {
            None | Some(0) => PRECIOUS,
            Some(v) if v <= 3 => PRECIOUS / 2 + 13 - i32::from(v),
            // The Wedgie is a 6 with a power: a little more than a 6.
            Some(v) => 13 - i32::from(v) + i32::from(c == Card::TWIRLING_WEDGIE),
        })
        .sum();
    strength - GROUP * removed
}

/// The tax gift that hurts least: lone bad cards first.
pub(super) fn tax_gift(cards: Cards, legal: &[Action]) -> Option<Action> {
    legal
        .iter()
        .copied()
        .filter_map(|a| match a {
            Action::GiveTax(gift) => Some((gift_cost(cards, gift), a)),
            _ => None,
        })
        .min_by_key(|&(cost, _)| cost)
        .map(|(_, a)| a)
}

/// The `n` legal tax gifts that hurt least by [`gift_cost`], least first.
pub(crate) fn cheapest_gifts(cards: Cards, legal: &[Action], n: usize) -> Vec<Action> {
    let mut gifts: Vec<(i32, Action)> = legal
        .iter()
        .filter_map(|&a| match a {
            Action::GiveTax(gift) => Some((gift_cost(cards, gift), a)),
            _ => None,
        })
        .collect();
    // Stable: equal costs keep the engine's order, as `tax_gift` does.
    gifts.sort_by_key(|&(cost, _)| cost);
    gifts.into_iter().take(n).map(|(_, a)| a).collect()
}

/// The single card that hurts least to give away.
pub(crate) fn worst_lone_card(cards: Cards) -> Option<Card> {
    cards
        .kinds()
        .map(|(card, _)| card)
        .min_by_key(|&card| gift_cost(cards, Cards::one(card)))
}

/// The `n` kinds of card that hurt least to give away one of, least
/// first (the first is [`worst_lone_card`]'s).
pub(crate) fn cheapest_cards(cards: Cards, n: usize) -> Vec<Card> {
    let mut kinds: Vec<(i32, Card)> = cards
        .kinds()
        .map(|(card, _)| (gift_cost(cards, Cards::one(card)), card))
        .collect();
    // Stable: equal costs keep the order of kinds, as `min_by_key` does.
    kinds.sort_by_key(|&(cost, _)| cost);
    kinds.into_iter().take(n).map(|(_, card)| card).collect()
}

/// Offers the worst lone card to another Merchant when it is bad enough
/// that anything received is as good; otherwise declines.
pub(super) fn exchange_offer(cards: Cards, legal: &[Action]) -> Option<Action> {
    const BAD_ENOUGH: i32 = 0;
    let card = worst_lone_card(cards)?;
    if gift_cost(cards, Cards::one(card)) > BAD_ENOUGH {
        return Some(Action::DeclineExchange);
    }
    legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::OfferExchange { card: c, .. } if *c == card))
}

/// Answers an exchange with the worst lone card.
pub(super) fn exchange_answer(cards: Cards, _legal: &[Action]) -> Option<Action> {
    worst_lone_card(cards).map(Action::AnswerExchange)
}

/// Whether to call the revolution offered: always as Greater Peon; as a
/// Peon who would pay; as a Merchant with a weak hand. A Dalmuti keeps
/// quiet (and chooses its tax gift).
pub(super) fn calls_revolution(view: &View<'_>, greater: bool) -> bool {
    greater
        || match view.seat().map(|s| view.title(s)) {
            Some(Title::GreaterDalmuti | Title::LesserDalmuti) | None => false,
            Some(Title::LesserPeon | Title::GreaterPeon) => true,
            Some(Title::Merchant { .. }) => is_weak(hand_of(view), view.deck().cards()),
        }
}

/// A hand is weak when it holds a smaller share of good cards (value 4 or
/// better) than the deck does.
pub(super) fn is_weak(cards: Cards, deck: Cards) -> bool {
    let good = |c: &Cards| {
        groups(*c)
            .filter(|&(v, _)| v <= 4)
            .map(|g| u32::from(g.1))
            .sum()
    };
    let numbered = |c: &Cards| c.len() - u32::from(c.wilds());
    let (mine, all): (u32, u32) = (good(&cards), good(&deck));
    mine * numbered(&deck) < all * numbered(&cards)
}
