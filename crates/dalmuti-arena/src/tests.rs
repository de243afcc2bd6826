//! Tests across the modules: the runner against its promises.

use dalmuti_bots::{Bot, BotFault, BotSpec, GreedyBot};
use dalmuti_core::record::{Checked, check};
use dalmuti_core::{Action, Rules, Scoring, Variant, View};

use crate::play::{GameTable, Players, Series, Table};
use crate::seeds::{SeedStream, Stream, bot_seed, seating};
use crate::{Mode, SimArgs, SimConfig, SimReport, run};

fn config(bots: &str, more: SimArgs) -> SimConfig {
    SimConfig::new(SimArgs {
        bots: bots.into(),
        seed: Some("11".into()),
        threads: Some(1),
        ..more
    })
    .expect("a valid configuration")
}

fn report(bots: &str, more: SimArgs) -> SimReport {
    run(&config(bots, more), |_| {}).expect("the run completes")
}

fn hands(n: u64) -> SimArgs {
    SimArgs {
        hands: Some(n),
        ..SimArgs::default()
    }
}

fn games(games: u64, hands_per_game: u32) -> SimArgs {
    SimArgs {
        games: Some(games),
        hands_per_game: Some(hands_per_game),
        ..SimArgs::default()
    }
}

#[test]
fn the_report_does_not_depend_on_the_threads() {
    for args in [
        SimArgs {
            players: Some(4),
            ..hands(300)
        },
        SimArgs {
            duplicate: true,
            ..games(7, 5)
        },
    ] {
        let one = report("greedy,random,random,greedy", args.clone());
        let c = config("greedy,random,random,greedy", args);
        let three = run(&c.with_threads(3), |_| {}).unwrap();
        assert_eq!(one.results_json(), three.results_json());
        assert_eq!(three.timing.threads, 3);
    }
}

#[test]
fn mean_places_sum_to_one_plus_two_up_to_n() {
    for (bots, players) in [
        ("random", 3),
        ("greedy,random,random,random,greedy", 5),
        ("random", 9),
    ] {
        let r = report(
            bots,
            SimArgs {
                players: Some(players),
                ..hands(150)
            },
        );
        let sum: f64 = r.bots.iter().map(|b| b.mean_place).sum();
        let n = players as f64;
        assert!((sum - n * (n + 1.0) / 2.0).abs() < 1e-9, "{sum}");
        assert!(
            r.bots
                .iter()
                .all(|b| b.hands == 150 && b.places.iter().sum::<u64>() == 150)
        );
        let points: u64 = r.bots.iter().map(|b| b.points).sum();
        assert_eq!(points, 150 * (players * (players - 1) / 2) as u64);
    }
}

#[test]
fn duplicate_copies_of_greedy_share_the_places_exactly() {
    for players in [3, 5, 6] {
        let r = report(
            "greedy",
            SimArgs {
                players: Some(players),
                duplicate: true,
                ..hands(40)
            },
        );
        assert_eq!(r.hands, 40 * players as u64);
        assert_eq!(r.rotations, players);
        let middle = (players as f64 + 1.0) / 2.0;
        for b in &r.bots {
            assert_eq!(b.hands, 40 * players as u64);
            assert_eq!(b.mean_place, middle, "{}", b.label);
            // Every deal's mean place is the same: the interval is a point.
            assert_eq!((b.ci95_low, b.ci95_high), (Some(middle), Some(middle)));
            // Each copy finished each place once per deal.
            assert!(b.places.iter().all(|&c| c == 40), "{:?}", b.places);
        }
    }
    // Without duplicate, the same bots share places only on average.
    let r = report(
        "greedy",
        SimArgs {
            players: Some(5),
            ..hands(40)
        },
    );
    assert!(r.bots.iter().any(|b| b.mean_place != 3.0));
}

#[test]
fn games_carry_titles_and_mobility_rows_sum_to_one() {
    let r = report(
        "greedy,random,random,random,random",
        SimArgs {
            scoring: Some("standard".into()),
            ..games(30, 6)
        },
    );
    assert_eq!((r.hands, r.deals), (180, 180));
    let m = r.mobility.as_ref().expect("games have a mobility matrix");
    assert_eq!(m.rows[0], "Greater Dalmuti");
    let transitions: u64 = m.counts.iter().flatten().sum();
    assert_eq!(transitions, 30 * 5 * 5); // 5 transitions of 5 players per game
    for (row, counts) in m.rates.iter().zip(&m.counts) {
        if counts.iter().sum::<u64>() > 0 {
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
    // Taxes and the lead favour the Greater Dalmuti: keeping the title is
    // likelier than for the Greater Peon to take it.
    assert!(m.rates[0][0] > m.rates[4][0], "{:?}", m.rates);
    // Independent hands have no mobility matrix.
    assert!(report("greedy", hands(5)).mobility.is_none());
}

#[test]
fn random_beats_nobody() {
    let r = report("greedy,random,random,random", hands(400));
    let greedy = r.bots[0].mean_place;
    assert!(r.bots[1..].iter().all(|b| b.mean_place > greedy + 0.3));
    assert!(r.bots[0].rating > r.bots[1].rating);
    assert!(r.bots[1].ci95_low.unwrap() > r.bots[0].ci95_high.unwrap());
}

#[test]
fn games_and_series_play_the_same_hands() {
    // Dalmuti's decks: merchant exchanges, philanthropic scoring.
    for variant in Variant::ALL.into_iter().filter(|v| !v.is_suited()) {
        games_and_series_play_the_same_hands_of(variant);
    }
}

fn games_and_series_play_the_same_hands_of(variant: Variant) {
    let labels: Vec<String> = ["a", "b", "c", "d", "e", "f"].map(String::from).to_vec();
    let rules = Rules {
        variant,
        merchant_exchange: true,
        scoring: Scoring::Philanthropic,
        hands: Some(8),
        join_and_leave: false,
        ..Rules::default()
    };
    let mut stream = SeedStream::at(dalmuti_core::Seed::from(3), Stream::Games, 0);
    for _ in 0..6 {
        let seeds = stream.next_seeds();
        let seats = seating(seeds.aux, 6);
        let mut series = Series::new(rules, 6, seats, seeds.deal);
        let mut game = GameTable::new(rules, &labels, seats, seeds.deal);
        let bots = || -> Players {
            let bots = (0..6).map(|e| BotSpec::Random.build(e).unwrap()).collect();
            Players::new(bots, vec![false; 6])
        };
        let (mut p1, mut p2) = (bots(), bots());
        for h in 0..8 {
            if h > 0 {
                series.next_hand();
                game.next_hand();
            }
            assert_eq!(series.dealt()[..6], game.dealt()[..6]);
            p1.reseed(series.dealt(), |s| bot_seed(seeds.aux, h, s));
            p2.reseed(game.dealt(), |s| bot_seed(seeds.aux, h, s));
            let (a, b) = (p1.play_hand(&mut series), p2.play_hand(&mut game));
            assert_eq!((a.order, a.seat), (b.order, b.seat));
            assert_eq!(series.hand(), game.hand());
        }
        let Checked::Valid(report) =
            check(&dalmuti_core::record::Record::from_game(game.game()).to_json_string())
        else {
            panic!("the game's record does not check");
        };
        assert_eq!(report.hands.len(), 8);
    }
}

#[test]
fn the_greedy_shortcut_decides_as_the_greedy_bot() {
    // Dalmuti's decks: revolutions and merchant exchanges.
    for variant in Variant::ALL.into_iter().filter(|v| !v.is_suited()) {
        the_greedy_shortcut_decides_as_the_greedy_bot_in(variant);
    }
}

fn the_greedy_shortcut_decides_as_the_greedy_bot_in(variant: Variant) {
    // Both ways, over hands with taxes, revolutions (both wild cards in one
    // hand, in about one hand in n) and merchant exchanges.
    let rules = Rules {
        variant,
        merchant_exchange: true,
        join_and_leave: false,
        ..Rules::default()
    };
    let mut stream = SeedStream::at(dalmuti_core::Seed::from(5), Stream::Hands, 0);
    let mut revolutions = 0;
    for players in [3, 4, 6, 8] {
        for _ in 0..150 {
            let seeds = stream.next_seeds();
            let seats = seating(seeds.aux, players);
            let mut fast = Series::new(rules, players, seats, seeds.deal);
            let mut slow = Series::new(rules, players, seats, seeds.deal);
            let greedy = |shortcut: bool| {
                let bots: Vec<Box<dyn Bot>> = (0..players)
                    .map(|_| Box::new(GreedyBot) as Box<dyn Bot>)
                    .collect();
                Players::new(bots, vec![shortcut; players])
            };
            greedy(true).play_hand(&mut fast);
            greedy(false).play_hand(&mut slow);
            assert_eq!(fast.hand(), slow.hand());
            revolutions += usize::from(fast.hand().revolution_holder().is_some());
        }
    }
    assert!(revolutions > 20, "{revolutions}");
}

/// A bot that fails in every way in turn.
struct Faulty(u32);

impl Bot for Faulty {
    fn name(&self) -> &str {
        "faulty"
    }

    fn decide(&mut self, _view: &View<'_>, legal: &[Action]) -> Result<Action, BotFault> {
        self.0 += 1;
        match self.0 % 6 {
            0 => Err(BotFault::Crashed("gone".into())),
            1 => Err(BotFault::TimedOut(std::time::Duration::from_secs(1))),
            2 => Err(BotFault::Garbage("?".into())),
            3 => Err(BotFault::Illegal("no".into())),
            // Not legal: leading with a pass, or passing a revolution.
            4 if !legal.contains(&Action::Pass) => Ok(Action::Pass),
            _ => Ok(legal[0]),
        }
    }
}

#[test]
fn faults_are_counted_by_kind_and_the_fallback_is_played() {
    let mut stream = SeedStream::at(dalmuti_core::Seed::from(8), Stream::Hands, 0);
    let bots: Vec<Box<dyn Bot>> = vec![
        Box::new(Faulty(0)),
        BotSpec::Random.build(1).unwrap(),
        BotSpec::Greedy.build(2).unwrap(),
    ];
    let mut players = Players::new(bots, vec![false, false, true]);
    for _ in 0..20 {
        let seeds = stream.next_seeds();
        let mut table = Series::new(Rules::default(), 3, seating(seeds.aux, 3), seeds.deal);
        let outcome = players.play_hand(&mut table);
        assert_eq!(table.hand().finish_order().len(), 3);
        assert!(outcome.order[..3].contains(&0));
    }
    let f = players.faults[0];
    assert!(
        f.crashed > 10 && f.timed_out > 10 && f.garbage > 10,
        "{f:?}"
    );
    // Illegal: the bot's own "illegal" answers plus passes the engine refused.
    assert!(f.illegal > f.crashed, "{f:?}");
    assert_eq!(players.faults[1].total() + players.faults[2].total(), 0);
}

#[test]
fn records_of_every_hand_and_game_check() {
    let dir = std::env::temp_dir().join(format!("dalmuti-arena-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let with_records = |more: SimArgs| {
        let args = SimArgs {
            records: Some(dir.clone()),
            first_deal_revolution: true,
            ..more
        };
        report("greedy,random,random,random", args)
    };
    let r = with_records(SimArgs {
        duplicate: true,
        ..hands(3)
    });
    let r2 = with_records(games(2, 3));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 3 * 4 + 2);
    assert_eq!(names[0], "game-0-r0.json");
    assert_eq!(names[2], "hand-0-r0.json");
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let Checked::Valid(report) = check(&text) else {
            panic!("{name} does not check: {text}");
        };
        let expected = if name.starts_with("game") { 3 } else { 1 };
        assert_eq!(report.hands.len(), expected, "{name}");
    }
    // Records or not, the same hands are played.
    let _ = std::fs::remove_dir_all(&dir);
    let plain = report(
        "greedy,random,random,random",
        SimArgs {
            duplicate: true,
            first_deal_revolution: true,
            ..hands(3)
        },
    );
    assert_eq!(plain.results_json(), r.results_json());
    let plain2 = report(
        "greedy,random,random,random",
        SimArgs {
            first_deal_revolution: true,
            ..games(2, 3)
        },
    );
    assert_eq!(plain2.results_json(), r2.results_json());
}

#[test]
fn progress_counts_up_to_every_hand() {
    let seen = std::cell::RefCell::new(Vec::new());
    let c = config(
        "random",
        SimArgs {
            players: Some(3),
            duplicate: true,
            ..hands(200)
        },
    );
    run(&c, |h| seen.borrow_mut().push(h)).unwrap();
    let seen = seen.into_inner();
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(seen.last(), Some(&600));
    assert_eq!(seen.len() as u64, 200u64.div_ceil(crate::HANDS_PER_UNIT));
    assert_eq!(c.mode(), Mode::Hands { hands: 200 });
}

#[test]
fn bots_that_cannot_start_stop_the_run() {
    // External bots start a program per work unit; one that cannot start
    // is an error, not a crash.
    let c = config("cmd:/nonexistent/dalmuti-bot,greedy,greedy", hands(5));
    match run(&c, |_| {}) {
        Err(e) => assert!(e.to_string().contains("/nonexistent/dalmuti-bot"), "{e}"),
        // A program that fails only when asked counts as faults instead.
        Ok(r) => assert!(r.bots[0].faults.total() > 0),
    }
}

#[test]
fn text_and_csv_name_every_bot() {
    let r = report("greedy,random,random", games(3, 4));
    let text = r.to_text();
    assert!(text.contains("3 players, 3 games of 4 hands, seed 11"));
    assert!(text.contains("random#2"));
    assert!(text.contains("class mobility"));
    let csv = r.to_csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].ends_with("faults_total,place_1,place_2,place_3"));
    assert!(lines[3].starts_with("random#2,random,12,"));
}

/// The arguments of a Corporate Shuffle run.
fn corporate(more: SimArgs) -> SimArgs {
    SimArgs {
        variant: Some("corporate-shuffle".into()),
        ..more
    }
}

#[test]
fn corporate_shuffle_runs_in_every_mode_and_its_records_check() {
    let dir = std::env::temp_dir().join(format!("dalmuti-arena-corporate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let lineup = "heuristic,greedy,random,search:iterations=10,random,greedy";
    let independent = report(
        lineup,
        corporate(SimArgs {
            duplicate: true,
            records: Some(dir.clone()),
            ..hands(2)
        }),
    );
    let played = report(
        lineup,
        corporate(SimArgs {
            merchant_exchange: true,
            scoring: Some("standard".into()),
            records: Some(dir.clone()),
            ..games(2, 3)
        }),
    );
    for r in [&independent, &played] {
        assert_eq!(r.rules.variant, Variant::CorporateShuffle);
        assert_eq!(r.players, 6);
        assert_eq!(r.seat_places.rows[0], "Big Boss");
        assert_eq!(r.seat_places.rows[2], "Worker 1");
        assert_eq!(r.seat_places.rows[5], "Junior Intern");
        assert!(r.bots.iter().all(|b| b.faults.total() == 0));
        assert!(r.to_text().contains("rules: Corporate Shuffle, scoring"));
    }
    assert_eq!(independent.hands, 12);
    let mobility = played.mobility.as_ref().expect("games have mobility");
    assert_eq!(mobility.columns[1], "Little Boss");
    assert!(
        played
            .to_text()
            .contains("BB Big Boss, LB Little Boss, W1 Worker 1")
    );
    // Every record is a game of Corporate Shuffle that checks.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2 * 6 + 2);
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(text.contains("corporate-shuffle"), "{name}");
        let Checked::Valid(report) = check(&text) else {
            panic!("{name} does not check: {text}");
        };
        let expected = if name.starts_with("game") { 3 } else { 1 };
        assert_eq!(report.hands.len(), expected, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    // The same seed, another game: other hands.
    let dalmuti = report(lineup, hands(2));
    assert_ne!(
        dalmuti.results_json(),
        report(lineup, corporate(hands(2))).results_json()
    );
}

#[test]
fn corporate_shuffle_refuses_what_it_does_not_allow() {
    let err = |more: SimArgs| {
        SimConfig::new(SimArgs {
            bots: "greedy".into(),
            ..more
        })
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        err(corporate(SimArgs {
            stripped_deck: true,
            ..SimArgs::default()
        })),
        "--stripped-deck is a Dalmuti rule: Corporate Shuffle's 60-card deck is never stripped"
    );
    assert_eq!(
        err(corporate(SimArgs {
            players: Some(9),
            ..SimArgs::default()
        })),
        "Corporate Shuffle seats 3 to 8 players, not 9"
    );
    assert_eq!(
        err(corporate(SimArgs {
            players: Some(2),
            ..SimArgs::default()
        })),
        "Corporate Shuffle seats 3 to 8 players, not 2"
    );
    assert_eq!(
        err(SimArgs {
            variant: Some("chess".into()),
            ..SimArgs::default()
        }),
        "--variant is dalmuti or corporate-shuffle, not \"chess\""
    );
    // What it allows: eight players, one bot for every seat; the variant
    // in any case.
    let c = SimConfig::new(SimArgs {
        bots: "greedy".into(),
        players: Some(8),
        variant: Some(" Corporate-Shuffle ".into()),
        ..SimArgs::default()
    })
    .unwrap();
    assert_eq!(c.rules().variant, Variant::CorporateShuffle);
    assert_eq!(c.players(), 8);
    // Dalmuti is the default, and still seats sixteen.
    let c = SimConfig::new(SimArgs {
        bots: "greedy".into(),
        players: Some(16),
        ..SimArgs::default()
    })
    .unwrap();
    assert_eq!(c.rules().variant, Variant::Dalmuti);
}

/// Games of Daifugō in a simulation are the rules' games: from the second
/// on, the classes exchange cards, records or not (the runner's fast table
/// once dealt every game of the pack without classes, so without an
/// exchange, unless records were written).
#[test]
fn games_of_daifugo_exchange_with_or_without_records() {
    let dir = std::env::temp_dir().join(format!("dalmuti-arena-daifugo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = |records: Option<std::path::PathBuf>| SimArgs {
        variant: Some("daifugo".into()),
        records,
        ..games(2, 4)
    };
    let bots = "normal,easy,easy,easy,easy";
    let recorded = report(bots, args(Some(dir.clone())));
    let plain = report(bots, args(None));
    assert_eq!(plain.results_json(), recorded.results_json());
    let mut exchanges = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let Checked::Valid(report) = check(&text) else {
            panic!("a record that does not check: {text}");
        };
        assert_eq!(report.hands.len(), 4);
        exchanges += text.matches("\"tax\"").count();
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Every game but its first hand: 2 games × 3 hands.
    assert_eq!(exchanges, 6);
}

/// In President and Daifugō a title is a class, not a seat round the
/// table: the finishing place by title counts the hands with classes
/// (not a game's first), each title once a hand, and the rich, who take
/// the poor's best cards, finish first more often than the poor.
#[test]
fn titles_of_daifugo_are_classes() {
    let args = SimArgs {
        variant: Some("daifugo".into()),
        ..games(24, 5)
    };
    let sim = report("easy", args);
    let classed = 24 * 4;
    for (row, counts) in sim.seat_places.counts.iter().enumerate() {
        assert_eq!(counts.iter().sum::<u64>(), classed, "row {row}");
    }
    // Mobility from a hand with classes to the next: 3 a game.
    for (row, counts) in sim.mobility.as_ref().unwrap().counts.iter().enumerate() {
        assert_eq!(counts.iter().sum::<u64>(), 24 * 3, "row {row}");
    }
    let first = |row: usize| sim.seat_places.counts[row][0];
    assert!(first(0) > 2 * first(4), "{:?}", sim.seat_places.counts);
    assert_eq!(sim.seat_places.rows[0], "Daifugō");
}
