//! Random and greedy bots, and the harness the other tests share.

use dalmuti_bots::{Bot, BotSpec};
use dalmuti_core::{Action, Game, Rules, Seed, Viewer};

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
    let mut bots: Vec<Box<dyn Bot>> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.parse::<BotSpec>()
                .unwrap()
                .build(seed * 100 + i as u64)
                .unwrap()
        })
        .collect();
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
