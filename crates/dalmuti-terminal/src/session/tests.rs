use super::*;
use crate::config::{Config, PlayArgs};
use dalmuti_core::Illegal;

pub(crate) fn config(seed: u64, players: usize) -> Config {
    config_of("dalmuti", seed, players)
}

pub(crate) fn config_of(variant: &str, seed: u64, players: usize) -> Config {
    Config::new(&PlayArgs {
        variant: variant.into(),
        players: Some(players),
        bots: "heuristic".into(),
        name: "You".into(),
        seed: Some(seed.to_string()),
        stripped_deck: false,
        first_deal_revolution: false,
        // The exchange wherever it can apply (6 or more players).
        merchant_exchange: players >= 6,
        scoring: "standard".into(),
        house: None,
        hands: Some(3),
        speed: 0,
        plain: true,
        lang: Some("en".into()),
    })
    .unwrap()
}

/// Plays the human by hints until the game is over.
fn play_out(session: &mut Session) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        seen.extend(session.take_news());
        if let Some(step) = session.step_bots() {
            seen.extend(step.lines);
        } else if let Some(action) = session.hint() {
            session.act(action).unwrap();
        } else if session.is_game_over() {
            return seen;
        } else {
            assert!(session.hand_end().is_some());
            session.next_hand().unwrap();
        }
    }
}

#[test]
fn a_game_plays_to_its_end_and_scores() {
    for seed in 0..6 {
        let mut s = Session::new(&config(seed, 6)).unwrap();
        play_out(&mut s);
        assert_eq!(s.hand_number(), 3);
        let end = s.hand_end().unwrap();
        assert!(end.game_over);
        assert_eq!(end.places.len(), 6);
        let total: u32 = s.standings().iter().filter_map(|r| r.points).sum();
        assert_eq!(total, 3 * (5 + 4 + 3 + 2 + 1));
        assert_eq!(s.standings()[0].place, 1);
        assert!(s.next_hand().is_err());
    }
}

#[test]
fn the_log_never_shows_other_seats_tax_cards() {
    for seed in 0..20 {
        let mut s = Session::new(&config(seed, 6)).unwrap();
        for line in play_out(&mut s) {
            if line.starts_with("Taxes:") && !line.contains("you") {
                assert!(line.contains(" best card"), "{line}");
            }
            if line.starts_with("Merchant exchange:") && !line.contains("you") {
                assert!(line.contains("trades a card blind with"), "{line}");
            }
        }
    }
}

#[test]
fn an_illegal_action_changes_nothing() {
    let mut s = Session::new(&config(3, 5)).unwrap();
    while s.decision().is_none() {
        s.step_bots().unwrap();
    }
    let (before, cards) = (s.log(), s.my_cards());
    let four_dalmutis = Action::Play("1 1 1 1".parse().unwrap());
    assert!(s.act(four_dalmutis).is_err());
    assert_eq!((s.log(), s.my_cards()), (before, cards));
    assert!(s.decision().is_some());
}

#[test]
fn corporate_shuffle_games_play_out_in_their_words_and_save_records_that_check() {
    let dir = std::env::temp_dir().join(format!("dalmuti-session-cs-{}", std::process::id()));
    let mut specials = [false; 3];
    for seed in 0..6 {
        let mut s =
            Session::new(&config_of("corporate-shuffle", seed, 5 + seed as usize % 4)).unwrap();
        assert_eq!(s.variant(), Variant::CorporateShuffle);
        let seen = play_out(&mut s);
        assert_eq!(s.hand_number(), 3);
        let text = seen.join("\n");
        for dalmuti_word in [
            "Jester",
            "Dalmuti",
            "Peon",
            "Merchant",
            "Taxes",
            "revolution",
        ] {
            assert!(!text.contains(dalmuti_word), "{dalmuti_word}: {text}");
        }
        assert!(text.contains("Executive bonuses: "), "{text}");
        specials[0] |= text.contains("must pass for the rest of the trick");
        specials[1] |= text.contains("Dogbert, World Ruler, which wins the trick at once");
        specials[2] |= text.contains("Ratbert goes back to");
        let path = s.save_record(&dir).unwrap();
        let record = std::fs::read_to_string(&path).unwrap();
        assert!(record.contains("\"corporate-shuffle\""), "{record}");
        match dalmuti_core::record::check(&record) {
            dalmuti_core::record::Checked::Valid(report) => assert_eq!(report.hands.len(), 3),
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    assert_eq!(specials, [true; 3], "every special power was seen");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_wedgie_targets_and_the_dogbert_values_come_from_the_legal_plays() {
    // A lead holding the Wedgie: every other player with cards may be
    // named; a lead holding a Dogbert: it may be any value 1 to 10.
    let (mut wedgie, mut dogbert) = (false, false);
    for seed in 0..40 {
        let mut s = Session::new(&config_of("corporate-shuffle", seed, 5)).unwrap();
        while s.step_bots().is_some() {}
        while s.decision().is_some_and(|d| d != Decision::Lead) {
            let hint = s.hint().unwrap();
            s.act(hint).unwrap();
            while s.step_bots().is_some() {}
        }
        if s.decision() != Some(Decision::Lead) {
            continue;
        }
        let cards = s.my_cards();
        if cards.count(dalmuti_core::Card::TWIRLING_WEDGIE) > 0 {
            let alone: Set = "T".parse().unwrap();
            let others: Vec<Option<Seat>> = Seat::all(5)
                .filter(|&t| t != s.my_seat() && s.view().card_count(t) > 0)
                .map(Some)
                .collect();
            assert_eq!(s.wedgie_targets(&alone), others);
            assert!(s.wedgie_targets(&"6 6".parse().unwrap()).is_empty());
            wedgie = true;
        }
        if cards.count(dalmuti_core::Card::DOGBERT) > 0 {
            assert_eq!(s.dogbert_values(1), (1..=10).collect::<Vec<u8>>());
            dogbert = true;
        }
    }
    assert!(wedgie && dogbert);
}

/// Facing a set nothing in the hand tops (a Dalmuti alone, say), the
/// advice and the refusal say so instead of asking for a better rank.
#[test]
fn with_nothing_that_tops_the_advice_says_pass() {
    let mut checked = 0;
    for seed in 0..40 {
        let mut s = Session::new(&config(seed, 5)).unwrap();
        while !s.is_game_over() && checked < 3 {
            if s.step_bots().is_some() {
                continue;
            }
            let Some(decision) = s.decision() else {
                if s.hand_end().is_some() {
                    s.next_hand().unwrap();
                }
                continue;
            };
            let only_pass = s.legal().iter().all(|a| *a == Action::Pass);
            if let (Decision::Follow { top, .. }, true) = (decision, only_pass) {
                let advice = crate::words::explain(&s, &decision);
                assert!(advice.contains("You hold nothing that tops"), "{advice}");
                assert!(!advice.contains("better rank"), "{advice}");
                // A single card of the hand, played anyway, is refused in
                // the same words.
                let worst = s.my_cards().iter().filter_map(|c| c.rank()).max();
                if let (1, Some(worst)) = (top.size(), worst) {
                    let single = Set::new(worst, 1, 0).unwrap();
                    let Err(e) = s.act(Action::Play(single)) else {
                        panic!("{single} was played on {top}");
                    };
                    assert!(matches!(e.reason, Illegal::DoesNotTop { .. }), "{e}");
                    let refusal = crate::words::refusal(&s, &e.reason);
                    assert!(refusal.contains("you hold nothing that does"), "{refusal}");
                    checked += 1;
                }
            }
            let action = s.hint().unwrap();
            s.act(action).unwrap();
        }
    }
    assert!(checked >= 3, "only {checked} such decisions in 40 games");
}

/// The hint is what a bot of one level would do, and every help that
/// describes it names that level, in every language: not the bot's
/// inner name, which no player is offered.
#[test]
fn the_hint_is_described_by_the_level_that_gives_it() {
    assert_eq!(HINT_LEVEL.spec_text(), "heuristic");
    for lang in Lang::ALL {
        for variant in Variant::ALL {
            let tr = Tr::new(lang, variant);
            let level = tr.t(&format!("level.{}", HINT_LEVEL.name()), &[]);
            let keys = tr.v("help.keys", &[]);
            let commands = tr.v("help.commands", &[]);
            let lines = [
                keys.lines().find(|l| l.starts_with("h ::")).unwrap(),
                commands.lines().find(|l| l.starts_with("hint ")).unwrap(),
                &tr.t("tui.key-hint", &[]),
            ];
            for line in lines {
                assert!(
                    line.contains(&level),
                    "{lang:?}: {line:?} does not name {level:?}"
                );
                for inner in [
                    "heuristic",
                    "Heuristik",
                    "heurístic",
                    "ヒューリスティック",
                    "휴리스틱",
                ] {
                    assert!(!line.contains(inner), "{lang:?}: {line:?}");
                }
            }
        }
    }
}

/// Quitting saves a record only once the player has moved (the session
/// saves nothing before), and every game's help says so in every
/// language, the same words as The Great Dalmuti's; none promises a
/// command by a name the player may not have (`cargo run` users).
#[test]
fn every_help_says_quitting_saves_only_after_a_move() {
    for lang in Lang::ALL {
        let said = |variant: Variant| {
            let tr = Tr::new(lang, variant);
            let keys = tr.v("help.keys", &[]);
            let commands = tr.v("help.commands", &[]);
            let key = keys
                .lines()
                .find(|l| l.starts_with("q ::"))
                .map(str::to_owned);
            let command = commands
                .lines()
                .find(|l| l.starts_with("help, quit"))
                .map(str::to_owned);
            (key, command)
        };
        let dalmuti = said(Variant::Dalmuti);
        for variant in Variant::ALL {
            let (key, command) = said(variant);
            assert_eq!(
                (&key, &command),
                (&dalmuti.0, &dalmuti.1),
                "{lang:?} {variant:?}"
            );
            let key = key.unwrap_or_else(|| panic!("{lang:?} {variant:?}: no q line"));
            assert!(
                !key.contains("dalmuti replay"),
                "{lang:?} {variant:?}: {key}"
            );
        }
    }
}
