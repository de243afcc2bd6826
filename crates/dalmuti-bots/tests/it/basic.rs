//! Random and greedy bots, and the harness the other tests share.

use dalmuti_bots::{Bot, BotSpec, GreedyBot, HeuristicBot, bot_rng};
use dalmuti_core::{Action, Card, Cards, Deck, Game, Hand, Rules, Seat, Seed, View, Viewer};
use rand::seq::SliceRandom;

/// One bot per player, built from `specs`, each with its own seed drawn
/// from `seed`.
pub(crate) fn bots_for(specs: &[&str], seed: u64) -> Vec<Box<dyn Bot>> {
    specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.parse::<BotSpec>()
                .unwrap()
                .build(seed * 100 + i as u64)
                .unwrap()
        })
        .collect()
}

/// What the heuristic bot does for `seat` in `hand`.
pub(crate) fn heuristic_decides(hand: &Hand, seat: Seat) -> Action {
    let view = View::new(hand, Viewer::Seat(seat));
    let legal = view.legal_actions();
    let action = HeuristicBot::new(0).decide(&view, &legal).unwrap();
    assert!(legal.contains(&action), "illegal {action}");
    action
}

/// A deal of `players` where the given seats hold exactly the given cards
/// and the rest of the deck is shared at random among the other seats.
pub(crate) fn deal_with(rules: Rules, players: usize, fixed: &[(usize, &str)], seed: u64) -> Hand {
    let deck = Deck::for_table(&rules, players);
    let mut rest = deck.cards();
    let mut dealt = vec![Cards::EMPTY; players];
    for &(seat, hand) in fixed {
        dealt[seat] = hand.parse().unwrap();
        assert_eq!(dealt[seat].len(), deck.share(Seat::new(seat), players));
        assert!(rest.remove_all(&dealt[seat]));
    }
    let mut pool: Vec<Card> = rest.iter().collect();
    pool.shuffle(&mut bot_rng(seed));
    let mut pool = pool.into_iter();
    for seat in (0..players).filter(|s| fixed.iter().all(|f| f.0 != *s)) {
        let share = deck.share(Seat::new(seat), players) as usize;
        dealt[seat] = pool.by_ref().take(share).collect();
    }
    Hand::from_deal(rules, players, false, &dealt).unwrap()
}

/// Plays `hand` to its end with `bot` at `me` and greedy bots at the other
/// seats, every answer legal; returns the finished hand.
pub(crate) fn play_out_against_greedy(mut hand: Hand, me: Seat, bot: &mut dyn Bot) -> Hand {
    while let Some(seat) = hand.next_to_act() {
        let view = View::new(&hand, Viewer::Seat(seat));
        let legal = view.legal_actions();
        let action = if seat == me {
            bot.decide(&view, &legal).unwrap()
        } else {
            GreedyBot.decide(&view, &legal).unwrap()
        };
        assert!(legal.contains(&action), "illegal {action}");
        hand.apply(seat, action).unwrap();
    }
    hand
}

/// Plays `hands` hands of a game with one bot per player; every answer must
/// be legal. Returns the game.
/// Plays the current hand to its end, each player's bot deciding from its
/// own view; every answer must be legal. Returns the actions in order.
pub(crate) fn play_hand(game: &mut Game, bots: &mut [Box<dyn Bot>]) -> Vec<Action> {
    let mut actions = Vec::new();
    while let Some(seat) = game.hand().next_to_act() {
        let player = game.player_at(seat).index();
        let view = game.view(Viewer::Seat(seat));
        let legal = view.legal_actions();
        let action = bots[player].decide(&view, &legal).unwrap();
        assert!(
            legal.contains(&action),
            "{} chose an illegal {action}",
            bots[player].name()
        );
        game.apply(seat, action).unwrap();
        actions.push(action);
    }
    actions
}

pub(crate) fn play(specs: &[&str], hands: usize, seed: u64) -> Game {
    let names = (0..specs.len()).map(|i| format!("P{i}")).collect();
    let mut game = Game::new(Rules::default(), names, Seed::from(seed)).unwrap();
    let mut bots = bots_for(specs, seed);
    for h in 0..hands {
        if h > 0 {
            game.next_hand().unwrap();
        }
        play_hand(&mut game, &mut bots);
    }
    game
}

#[test]
fn random_and_greedy_bots_play_whole_games_legally() {
    for seed in 0..5 {
        let game = play(&["random", "greedy", "random", "greedy", "random"], 3, seed);
        assert_eq!(game.hands().len(), 3);
    }
}

#[test]
fn the_same_seed_gives_the_same_random_choices() {
    let a = play(&["random", "random", "random"], 2, 9);
    let b = play(&["random", "random", "random"], 2, 9);
    assert_eq!(a.hands(), b.hands());
}
