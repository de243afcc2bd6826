//! The learned policy: it plays both games legally, alone and inside the
//! search's play-outs; its features describe the heuristic's own choice;
//! and weights for other features are refused.

use dalmuti_bots::learned::{FEATURE_NAMES, LearnedPolicy};
use dalmuti_bots::{Bot, HeuristicBot, LearnedBot};
use dalmuti_core::{Action, Decision, Game, Rules, Seat, Variant, View, Viewer};

use crate::heuristic::five_at_play;

#[test]
fn the_learned_bot_plays_whole_games_of_both_games_legally() {
    for variant in Variant::ALL {
        // President and Daifugō too: their own rules, no merchant exchange.
        let rules = if variant.is_suited() {
            Rules {
                variant,
                hands: Some(3),
                ..Rules::daifugo()
            }
        } else {
            Rules {
                variant,
                merchant_exchange: true,
                hands: Some(3),
                ..Rules::default()
            }
        };
        for players in [3, 5, 8] {
            let mut lineup = vec!["learned"; players];
            lineup[1] = "search:iterations=40,playout=learned";
            lineup[2] = "heuristic";
            let names = (0..players).map(|i| format!("P{i}")).collect();
            let seed = players as u64;
            let mut game = Game::new(rules, names, seed.into()).unwrap();
            let mut bots = crate::basic::bots_for(&lineup, seed);
            for h in 0..3 {
                if h > 0 {
                    game.next_hand().unwrap();
                }
                crate::basic::play_hand(&mut game, &mut bots);
            }
        }
    }
}

/// Weights that trust only the heuristic's choice.
fn heuristic_weights() -> LearnedPolicy {
    let mut weights = [0.0; FEATURE_NAMES.len()];
    let favourite = FEATURE_NAMES
        .iter()
        .position(|&n| n == "heuristic_choice")
        .unwrap();
    weights[favourite] = 1.0;
    LearnedPolicy::new(weights, "the heuristic")
}

#[test]
fn weights_that_trust_only_the_heuristic_choose_as_it_does() {
    // Every lead and follow of whole hands among heuristic bots while at
    // least three seats hold cards (with two the heuristic solves the
    // ending exactly, which no feature describes).
    let policy = heuristic_weights();
    let mut compared = 0;
    for seed in 0..6u64 {
        let names = (0..5).map(|i| format!("P{i}")).collect();
        let mut game = Game::new(Rules::default(), names, seed.into()).unwrap();
        let mut heuristic = HeuristicBot::new(0);
        while let Some(seat) = game.hand().next_to_act() {
            let view = game.view(Viewer::Seat(seat));
            let legal = view.legal_actions();
            let action = heuristic.decide(&view, &legal).unwrap();
            let hand = game.hand();
            let holding = Seat::all(5).filter(|&s| !hand.held(s).is_empty()).count();
            let play = matches!(
                view.decision(),
                Some(Decision::Lead | Decision::Follow { .. })
            );
            if play && holding > 2 && legal.len() > 1 {
                assert_eq!(legal[policy.choose(&view, &legal)], action, "seed {seed}");
                compared += 1;
            }
            game.apply(seat, action).unwrap();
        }
    }
    assert!(compared > 100, "only {compared} decisions compared");
}

#[test]
fn the_shipped_policy_goes_out_when_it_can() {
    for (mine, top) in [
        ("7 7", Some("8 8")),
        ("3 3 J", Some("9 9 9")),
        ("11 11", None),
    ] {
        let hand = five_at_play(mine, top);
        let view = View::new(&hand, Viewer::Seat(Seat::new(2)));
        let legal = view.legal_actions();
        let action = LearnedBot::new(0).decide(&view, &legal).unwrap();
        let Action::Play(set) = action else {
            panic!("passed holding {mine} on {top:?}");
        };
        assert_eq!(
            set.size() as usize,
            hand.held(Seat::new(2)).len() as usize,
            "{mine}"
        );
    }
}

#[test]
fn weights_for_other_features_are_refused_with_the_reason() {
    let good = LearnedPolicy::shipped().to_json();
    let renamed = good.replacen("\"pass\"", "\"passes\"", 1);
    let refusal = LearnedPolicy::from_json(&renamed).unwrap_err().to_string();
    assert!(refusal.contains("not today's"), "{refusal}");
    let value: serde_json::Value = serde_json::from_str(&good).unwrap();
    let mut short = value.clone();
    short["weights"].as_array_mut().unwrap().pop();
    let refusal = LearnedPolicy::from_json(&short.to_string())
        .unwrap_err()
        .to_string();
    assert!(refusal.contains("weights for"), "{refusal}");
    let refusal = LearnedPolicy::from_json("{").unwrap_err().to_string();
    assert!(refusal.starts_with("learned policy weights:"), "{refusal}");
}
