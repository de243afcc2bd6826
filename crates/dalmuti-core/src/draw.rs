//! The seating draw: best card is Greater Dalmuti; ties redraw.

use crate::card::Card;
use crate::cards::Cards;
use crate::deck::Deck;
use crate::rng::DealRng;

/// One round of the draw: `(player, card)` for each player who drew.
pub type DrawRound = Vec<(usize, Card)>;

/// Why a recorded draw is not a valid draw.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadDraw {
    /// A round names the wrong players.
    #[error("round {round} of the draw should have a card for exactly {expected}")]
    WrongPlayers {
        /// 0-based round.
        round: usize,
        /// Who should have drawn, in words.
        expected: String,
    },
    /// More of a card was drawn than the deck holds.
    #[error("the draw uses more {0} cards than the deck holds")]
    TooMany(String),
    /// Players are still tied after the last round.
    #[error("the draw leaves players tied")]
    StillTied,
}

/// The outcome of a seating draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatingDraw {
    /// The rounds, in order. Empty when the pile ran out before every tie
    /// was broken (then ties were broken at random and the draw is not
    /// recordable).
    pub rounds: Vec<DrawRound>,
    /// The players, best draw first: the seating of the first hand.
    pub order: Vec<usize>,
}

/// Draws for seats: every player takes a card from the shuffled `deck`;
/// players still tied draw again, without replacement, until untied.
///
/// ```
/// use dalmuti_core::{draw_for_seats, DealRng, Deck, Seed};
/// let draw = draw_for_seats(5, Deck::STANDARD, &mut DealRng::new(Seed::from(9)));
/// assert_eq!(draw.rounds[0].len(), 5);
/// let mut order = draw.order.clone();
/// order.sort();
/// assert_eq!(order, [0, 1, 2, 3, 4]);
/// ```
pub fn draw_for_seats(players: usize, deck: Deck, rng: &mut DealRng) -> SeatingDraw {
    let mut pile = deck.shuffled(rng);
    let mut rounds: Vec<DrawRound> = Vec::new();
    loop {
        let tied = still_tied(players, &rounds);
        if tied.is_empty() {
            let order = order_of(players, &rounds);
            return SeatingDraw { rounds, order };
        }
        if pile.len() < tied.len() {
            // Practically impossible: break the remaining ties at random.
            let mut order = order_of(players, &rounds);
            rng.shuffle(&mut order);
            let mut keyed: Vec<(Vec<usize>, usize)> =
                order.into_iter().map(|p| (key(p, &rounds), p)).collect();
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            return SeatingDraw {
                rounds: Vec::new(),
                order: keyed.into_iter().map(|(_, p)| p).collect(),
            };
        }
        rounds.push(
            tied.into_iter()
                .map(|p| (p, pile.pop().expect("checked")))
                .collect(),
        );
    }
}

/// Checks a recorded draw for `players` players from `deck` and returns the
/// seating it gives, best first.
pub fn check_draw(players: usize, deck: Deck, rounds: &[DrawRound]) -> Result<Vec<usize>, BadDraw> {
    let mut used = Cards::EMPTY;
    for (i, round) in rounds.iter().enumerate() {
        let expected = still_tied(players, &rounds[..i]);
        let mut got: Vec<usize> = round.iter().map(|&(p, _)| p).collect();
        got.sort_unstable();
        if expected.is_empty() || got != expected {
            return Err(BadDraw::WrongPlayers {
                round: i,
                expected: if expected.is_empty() {
                    "no one: every tie was already broken".into()
                } else {
                    format!("the {} players still tied", expected.len())
                },
            });
        }
        for &(_, card) in round {
            used.add(card, 1);
            if used.count(card) > deck.cards().count(card) {
                return Err(BadDraw::TooMany(card.name(deck.variant()).to_string()));
            }
        }
    }
    if !still_tied(players, rounds).is_empty() {
        return Err(BadDraw::StillTied);
    }
    Ok(order_of(players, rounds))
}

/// A player's draws so far, as badness (1 best … 13 Jester; in Corporate
/// Shuffle 0 the World Ruler … 12 a Dogbert, C3).
fn key(player: usize, rounds: &[DrawRound]) -> Vec<usize> {
    rounds
        .iter()
        .filter_map(|r| {
            r.iter()
                .find(|&&(p, _)| p == player)
                .map(|&(_, c)| usize::from(c.draw_value()))
        })
        .collect()
}

/// Players who must draw in the next round, ascending: everyone before the
/// first round, then those whose draws so far equal another's.
fn still_tied(players: usize, rounds: &[DrawRound]) -> Vec<usize> {
    if rounds.is_empty() {
        return (0..players).collect();
    }
    let keys: Vec<Vec<usize>> = (0..players).map(|p| key(p, rounds)).collect();
    (0..players)
        .filter(|&p| (0..players).any(|q| q != p && keys[q] == keys[p]))
        .collect()
}

fn order_of(players: usize, rounds: &[DrawRound]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..players).collect();
    order.sort_by_key(|&p| key(p, rounds));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(cards: &[(usize, &str)]) -> DrawRound {
        cards
            .iter()
            .map(|&(p, c)| (p, c.parse().unwrap()))
            .collect()
    }

    #[test]
    fn rulebook_setup_example_seats_by_the_draw() {
        // Amity 12, Cherise 6, Sondra 1, Dana 12, Anton 2; Amity and Dana
        // redraw an Abbess and a Jester.
        let (amity, cherise, sondra, dana, anton) = (0, 1, 2, 3, 4);
        let rounds = vec![
            round(&[
                (amity, "12"),
                (cherise, "6"),
                (sondra, "1"),
                (dana, "12"),
                (anton, "2"),
            ]),
            round(&[(amity, "5"), (dana, "J")]),
        ];
        // The book's own rule puts Cherise (6) above Amity (12), though its
        // text seats Amity first (see docs/RULES.md).
        assert_eq!(
            check_draw(5, Deck::STANDARD, &rounds),
            Ok(vec![sondra, anton, cherise, amity, dana])
        );
    }

    #[test]
    fn only_tied_players_redraw() {
        let rounds = vec![
            round(&[(0, "3"), (1, "3"), (2, "7")]),
            round(&[(0, "4"), (1, "4"), (2, "1")]),
        ];
        assert!(matches!(
            check_draw(3, Deck::STANDARD, &rounds),
            Err(BadDraw::WrongPlayers { round: 1, .. })
        ));
        let unresolved = vec![round(&[(0, "3"), (1, "3"), (2, "7")])];
        assert_eq!(
            check_draw(3, Deck::STANDARD, &unresolved),
            Err(BadDraw::StillTied)
        );
    }

    #[test]
    fn jesters_are_worst_in_the_draw_and_cards_are_not_replaced() {
        let rounds = vec![
            round(&[(0, "J"), (1, "12"), (2, "12")]),
            round(&[(1, "1"), (2, "1")]),
        ];
        assert!(matches!(
            check_draw(3, Deck::STANDARD, &rounds),
            Err(BadDraw::TooMany(_))
        ));
        let ok = vec![round(&[(0, "J"), (1, "12"), (2, "11")])];
        assert_eq!(check_draw(3, Deck::STANDARD, &ok), Ok(vec![2, 1, 0]));
    }

    #[test]
    fn random_draws_always_check() {
        for seed in 0..200 {
            let mut rng = DealRng::new(crate::Seed::from(seed));
            let players = 3 + (seed as usize % 14);
            let draw = draw_for_seats(players, Deck::STANDARD, &mut rng);
            assert_eq!(
                check_draw(players, Deck::STANDARD, &draw.rounds),
                Ok(draw.order)
            );
        }
    }
}
