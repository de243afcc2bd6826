//! Tests of the bots of one style each: they play both games legally, and
//! each plays its style.

use dalmuti_bots::{Bot, HeuristicBot, Style, StyleBot};
use dalmuti_core::{Action, Hand, Rules, Seat, Variant, View, Viewer};

use crate::heuristic::five_at_play;

fn play(s: &str) -> Action {
    Action::Play(s.parse().unwrap())
}

/// What a bot of `style` does for seat 2 of `hand`.
fn decides(style: Style, hand: &Hand) -> Action {
    let view = View::new(hand, Viewer::Seat(Seat::new(2)));
    let legal = view.legal_actions();
    let action = StyleBot::new(style, 1).decide(&view, &legal).unwrap();
    assert!(legal.contains(&action), "{style} chose an illegal {action}");
    action
}

#[test]
fn every_style_plays_whole_games_of_both_games_legally() {
    for variant in Variant::ALL {
        // President and Daifugō too: their own rules, no merchant exchange.
        let rules = if variant.is_suited() {
            Rules {
                variant,
                hands: Some(4),
                ..Rules::daifugo()
            }
        } else {
            Rules {
                variant,
                merchant_exchange: true,
                hands: Some(4),
                ..Rules::default()
            }
        };
        for players in [3, 5, 8] {
            let lineup: Vec<&str> = (0..players)
                .map(|i| Style::ALL[i % Style::ALL.len()].name())
                .collect();
            let names = (0..players).map(|i| format!("P{i}")).collect();
            let seed = players as u64;
            let mut game = dalmuti_core::Game::new(rules, names, seed.into()).unwrap();
            let mut bots = crate::basic::bots_for(&lineup, seed);
            for h in 0..4 {
                if h > 0 {
                    game.next_hand().unwrap();
                }
                crate::basic::play_hand(&mut game, &mut bots);
            }
        }
    }
}

#[test]
fn the_shedder_leads_its_biggest_group_and_tops_whenever_it_can() {
    let hand = five_at_play("3 7 7 7 9 9 12 J", None);
    assert_eq!(decides(Style::Shedder, &hand), play("7 7 7"));
    // The heuristic would keep its 2 and 3 here; the shedder tops.
    let hand = five_at_play("2 3 11 11 12", Some("10"));
    assert_eq!(decides(Style::Shedder, &hand), play("3"));
}

#[test]
fn the_hoarder_keeps_its_strong_cards_and_sheds_bad_groups() {
    let hand = five_at_play("2 3 4 4 10 10 11 11 12 12", Some("9"));
    assert_eq!(decides(Style::Hoarder, &hand), Action::Pass);
    let hand = five_at_play("2 3 4 4 8 10 10 11 11 12", Some("9"));
    assert_eq!(decides(Style::Hoarder, &hand), play("8"));
    // Down to its strong cards, it plays them.
    let hand = five_at_play("2 3 4", Some("9"));
    assert_eq!(decides(Style::Hoarder, &hand), play("4"));
}

#[test]
fn the_breaker_leads_single_cards_and_breaks_groups_to_top() {
    let hand = five_at_play("5 5 9 9 12 12", None);
    assert_eq!(decides(Style::Breaker, &hand), play("12"));
    let hand = five_at_play("5 5 9 9 12 12", Some("11"));
    assert_eq!(decides(Style::Breaker, &hand), play("9"));
    // Not with its best cards while it holds many.
    let hand = five_at_play("1 2 2 11 11 12", Some("4"));
    assert_eq!(decides(Style::Breaker, &hand), Action::Pass);
}

#[test]
fn the_spender_adds_its_jesters_to_what_the_heuristic_leads() {
    let hand = five_at_play("4 9 9 11 11 J J", None);
    let view = View::new(&hand, Viewer::Seat(Seat::new(2)));
    let heuristic = HeuristicBot::new(0)
        .decide(&view, &view.legal_actions())
        .unwrap();
    let Action::Play(led) = heuristic else {
        panic!("the heuristic leads")
    };
    let Action::Play(spent) = decides(Style::Spender, &hand) else {
        panic!("the spender leads")
    };
    assert_eq!(spent.face(), led.face());
    assert_eq!(spent.naturals(), led.naturals());
    assert_eq!(spent.wilds(), 2);
}

#[test]
fn the_noisy_bot_strays_from_the_heuristic_about_one_time_in_five() {
    let mut noisy = StyleBot::new(Style::Noisy, 3);
    let mut heuristic = HeuristicBot::new(0);
    let (mut strayed, mut decisions) = (0, 0);
    for seed in 0..40 {
        let hand = crate::basic::deal_with(Rules::default(), 5, &[], seed);
        let view = View::new(&hand, Viewer::Seat(hand.next_to_act().unwrap()));
        let legal = view.legal_actions();
        if legal.len() < 5 {
            continue;
        }
        for _ in 0..20 {
            decisions += 1;
            let n = noisy.decide(&view, &legal).unwrap();
            strayed += usize::from(n != heuristic.decide(&view, &legal).unwrap());
        }
    }
    let rate = strayed as f64 / decisions as f64;
    // One in five at random, and a random action is sometimes the
    // heuristic's own.
    assert!(
        (0.1..0.25).contains(&rate),
        "strayed {strayed} of {decisions}"
    );
}

/// Under the contest's Daifugō rules a leader may pass (DF18); a style
/// is an opponent to measure against, so none gives up a lead it could
/// make (the noisy one aside, one decision in five at random), nor does
/// the heuristic.
#[test]
fn no_style_passes_a_lead_in_daifugo() {
    let rules = Rules {
        hands: Some(3),
        ..Rules::daifugo()
    };
    assert!(
        rules.climbing().lead_may_pass,
        "the test needs a pass to refuse"
    );
    let lineup = ["shedder", "hoarder", "spender", "breaker", "heuristic"];
    let mut leads = 0;
    for seed in 0..6u64 {
        let names = (0..5).map(|i| format!("P{i}")).collect();
        let mut game = dalmuti_core::Game::new(rules, names, seed.into()).unwrap();
        let mut bots = crate::basic::bots_for(&lineup, seed);
        for h in 0..3 {
            if h > 0 {
                game.next_hand().unwrap();
            }
            while let Some(seat) = game.hand().next_to_act() {
                let player = game.player_at(seat).index();
                let view = game.view(Viewer::Seat(seat));
                let legal = view.legal_actions();
                let action = bots[player].decide(&view, &legal).unwrap();
                if view.decision() == Some(dalmuti_core::Decision::Lead)
                    && legal.contains(&Action::Pass)
                {
                    assert_ne!(action, Action::Pass, "{} passed a lead", lineup[player]);
                    leads += 1;
                }
                game.apply(seat, action).unwrap();
            }
        }
    }
    assert!(leads > 100, "only {leads} leads");
}
