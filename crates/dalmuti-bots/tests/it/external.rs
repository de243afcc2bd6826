//! Tests of the external bot: bots in other programs, speaking the bot
//! protocol on their standard input and output. The example bot
//! (`examples/bot.py`) plays whole games; small inline programs misbehave
//! in every way a program can, and the game goes on.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dalmuti_bots::{BadSpec, Bot, BotFault, BotSpec, ExternalBot, GreedyBot, fallback};
use dalmuti_core::{Action, Game, Hand, PlayPosition, Rules, Seat, Seed, Variant, View, Viewer};

/// A time limit no healthy bot comes near, even on a loaded machine.
const PATIENT: Duration = Duration::from_secs(10);

/// A short time limit, for bots that hang.
const SHORT: Duration = Duration::from_millis(300);

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The command line that runs `examples/bot.py`, named `name`.
fn example_bot(name: &str) -> String {
    let script = repo_root().join("examples/bot.py");
    format!("python3 '{}' {name}", script.display())
}

/// A Python bot that handshakes as `name` and runs `on_decide` (Python
/// lines without double quotes, indented by 8 spaces inside the loop) for
/// each decide message `m`; `send(m)` writes a line, `n` counts decisions.
fn python_bot(name: &str, on_decide: &str) -> String {
    assert!(!on_decide.contains('"'), "the script goes in double quotes");
    let on_decide: String = on_decide
        .lines()
        .map(|l| format!("        {l}\n"))
        .collect();
    format!(
        r#"python3 -c "
import sys, json, os, time
def send(m):
    print(json.dumps(m), flush=True)
n = 0
seed = 0
for line in sys.stdin:
    m = json.loads(line)
    if m['type'] == 'hello':
        send({{'type': 'ready', 'name': '{name}'}})
    elif m['type'] == 'seed':
        seed = m['seed']
    elif m['type'] == 'decide':
        n += 1
{on_decide}    elif m['type'] == 'quit':
        break
""#
    )
}

/// The answers of `bot`, playing player 0 of a game of `players` (greedy
/// bots for the others) for `hands` hands: every fault is answered with
/// [`fallback`], as the runner does, so the game must go on to its end.
fn play_with(
    bot: &mut dyn Bot,
    rules: Rules,
    players: usize,
    hands: usize,
    seed: u64,
) -> Vec<Result<Action, BotFault>> {
    let names = (0..players).map(|i| format!("P{i}")).collect();
    let mut game = Game::new(rules, names, Seed::from(seed)).unwrap();
    let mut answers = Vec::new();
    for h in 0..hands {
        if h > 0 {
            game.next_hand().unwrap();
        }
        while let Some(seat) = game.hand().next_to_act() {
            let view = game.view(Viewer::Seat(seat));
            let legal = view.legal_actions();
            let action = if game.player_at(seat).index() == 0 {
                let answer = bot.decide(&view, &legal);
                if let Ok(action) = answer {
                    assert!(
                        legal.contains(&action),
                        "{} chose an illegal {action}",
                        bot.name()
                    );
                }
                answers.push(answer.clone());
                answer.unwrap_or_else(|_| fallback(&legal))
            } else {
                GreedyBot.decide(&view, &legal).unwrap()
            };
            game.apply(seat, action).unwrap();
        }
    }
    assert_eq!(game.hands().len(), hands);
    answers
}

/// Whether process `pid` is gone (and was reaped: a zombie still shows).
/// Always true where `/proc` is missing.
fn process_is_gone(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    // A process killed and waited for leaves /proc at once; allow a moment
    // for the kernel all the same.
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return true;
        }
        if Instant::now() > deadline {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            eprintln!("process {pid} is still there: {stat}");
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn spawn_error(command: &str, timeout: Duration) -> String {
    match ExternalBot::spawn(command, timeout) {
        Ok(bot) => panic!("{command} started as {}", bot.name()),
        Err(BadSpec(message)) => message,
    }
}

#[test]
fn the_example_bot_plays_whole_games_legally() {
    let mut bot = ExternalBot::spawn(&example_bot("example"), PATIENT).unwrap();
    assert_eq!(bot.name(), "example");
    for seed in 0..3 {
        let answers = play_with(&mut bot, Rules::default(), 5, 3, seed);
        assert!(answers.len() > 20, "{} decisions", answers.len());
        for answer in answers {
            answer.unwrap();
        }
    }
}

#[test]
fn the_example_bot_plays_corporate_shuffle_legally() {
    // Every table size it may meet, with the Workers' exchange; its plays
    // include Wedgie sets naming a victim and the World Ruler.
    let mut bot = ExternalBot::spawn(&example_bot("example"), PATIENT).unwrap();
    let rules = Rules {
        variant: Variant::CorporateShuffle,
        merchant_exchange: true,
        ..Rules::default()
    };
    let mut sets = Vec::new();
    for players in 3..=8 {
        for answer in play_with(&mut bot, rules, players, 8, players as u64) {
            if let Action::Play(set) = answer.unwrap() {
                sets.push(set);
            }
        }
    }
    assert!(sets.iter().any(|s| s.wedgie_target().is_some()), "{sets:?}");
    assert!(sets.iter().any(|s| s.is_world_ruler()), "{sets:?}");
}

#[test]
fn the_example_bot_answers_every_kind_of_decision() {
    // Seven players with the merchant exchange: revolutions (sometimes),
    // taxes, exchange offers and answers, leads and follows.
    let rules = Rules {
        merchant_exchange: true,
        ..Rules::default()
    };
    let spec: BotSpec = format!("cmd:{}", example_bot("example")).parse().unwrap();
    let mut bots: Vec<Box<dyn Bot>> = (0..7).map(|i| spec.build(i).unwrap()).collect();
    let mut game = Game::new(
        rules,
        (0..7).map(|i| format!("P{i}")).collect(),
        Seed::from(5),
    )
    .unwrap();
    let mut kinds = std::collections::BTreeSet::new();
    for h in 0..4 {
        if h > 0 {
            game.next_hand().unwrap();
        }
        while let Some(seat) = game.hand().next_to_act() {
            let view = game.view(Viewer::Seat(seat));
            let legal = view.legal_actions();
            let bot = &mut bots[game.player_at(seat).index()];
            bot.reseed(h);
            let action = bot.decide(&view, &legal).unwrap();
            assert!(legal.contains(&action));
            let kind = format!("{:?}", view.decision().unwrap());
            kinds.insert(kind.split([' ', '{', '(']).next().unwrap().to_string());
            game.apply(seat, action).unwrap();
        }
    }
    for kind in ["Tax", "ExchangeOffer", "Lead", "Follow"] {
        assert!(kinds.contains(kind), "no {kind} decision in {kinds:?}");
    }
}

#[test]
fn the_example_bot_is_not_the_greedy_bot() {
    // It keeps its best cards when following: over a few games it must pass
    // at least once where greedy would have played.
    let mut bot = ExternalBot::spawn(&example_bot("example"), PATIENT).unwrap();
    let mut kept_back = false;
    let names = (0..5).map(|i| format!("P{i}")).collect();
    let mut game = Game::new(Rules::default(), names, Seed::from(11)).unwrap();
    for h in 0..3 {
        if h > 0 {
            game.next_hand().unwrap();
        }
        while let Some(seat) = game.hand().next_to_act() {
            let view = game.view(Viewer::Seat(seat));
            let legal = view.legal_actions();
            let action = if game.player_at(seat).index() == 0 {
                let action = bot.decide(&view, &legal).unwrap();
                kept_back |= action == Action::Pass && legal[0] != Action::Pass;
                action
            } else {
                legal[0]
            };
            game.apply(seat, action).unwrap();
        }
    }
    assert!(kept_back, "the example bot always played like greedy");
}

#[test]
fn a_bot_that_crashes_once_is_restarted_for_the_next_decision() {
    let dir = std::env::temp_dir().join(format!(
        "dalmuti-crash-once-{}-{:?}",
        std::process::id(),
        Instant::now()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mark = dir.join("crashed");
    let command = python_bot(
        "crashy",
        &format!(
            "if not os.path.exists(r'{}'):\n    open(r'{}', 'w').close()\n    sys.exit(3)\nsend({{'id': m['id'], 'index': 0}})",
            mark.display(),
            mark.display()
        ),
    );
    let mut bot = ExternalBot::spawn(&command, PATIENT).unwrap();
    let first_pid = bot.pid().unwrap();
    let answers = play_with(&mut bot, Rules::default(), 4, 2, 1);
    std::fs::remove_dir_all(&dir).unwrap();

    let BotFault::Crashed(message) = answers[0].clone().unwrap_err() else {
        panic!("{:?}", answers[0]);
    };
    assert!(message.contains("crashy"), "{message}");
    assert!(message.contains("decision 1"), "{message}");
    assert!(message.contains("exit status: 3"), "{message}");
    assert!(process_is_gone(first_pid));
    // Started again: every later decision is answered.
    assert!(answers.len() > 10);
    for answer in &answers[1..] {
        assert!(answer.is_ok(), "{answer:?}");
    }
    assert_ne!(bot.pid(), Some(first_pid));
    assert!(!bot.is_given_up());
}

#[test]
fn a_bot_that_always_crashes_keeps_faulting_cleanly_and_is_given_up() {
    let mut bot = ExternalBot::spawn(&python_bot("doomed", "sys.exit(1)"), PATIENT).unwrap();
    let start = Instant::now();
    let answers = play_with(&mut bot, Rules::default(), 4, 2, 2);
    assert!(answers.len() > 10);
    for answer in &answers {
        assert!(matches!(answer, Err(BotFault::Crashed(_))), "{answer:?}");
    }
    assert!(bot.is_given_up());
    assert_eq!(bot.pid(), None);
    let Err(BotFault::Crashed(message)) = &answers[5] else {
        unreachable!()
    };
    assert!(
        message.contains("gave up on it after 3 crashes"),
        "{message}"
    );
    // Three starts at most: the rest of the game does not wait on it.
    assert!(start.elapsed() < PATIENT, "{:?}", start.elapsed());
}

#[test]
fn a_bot_that_hangs_times_out_and_the_game_goes_on() {
    // A shell that answers the greeting and then sleeps instead of
    // answering (exec: the sleep is the bot's own process).
    let command =
        r#"sh -c 'read hello; echo {\"type\":\"ready\",\"name\":\"sleepy\"}; exec sleep 1000'"#;
    let mut bot = ExternalBot::spawn(command, SHORT).unwrap();
    assert_eq!(bot.name(), "sleepy");
    let first_pid = bot.pid().unwrap();
    let start = Instant::now();
    let answers = play_with(&mut bot, Rules::default(), 4, 1, 3);
    let elapsed = start.elapsed();

    assert_eq!(answers[0], Err(BotFault::TimedOut(SHORT)));
    assert!(
        process_is_gone(first_pid),
        "the hung program was not stopped"
    );
    assert_eq!(
        answers[1],
        Err(BotFault::TimedOut(SHORT)),
        "restarted, it hangs again"
    );
    assert_eq!(answers[2], Err(BotFault::TimedOut(SHORT)));
    // Given up after three: the rest fail at once.
    assert!(bot.is_given_up());
    for answer in &answers[3..] {
        assert!(matches!(answer, Err(BotFault::Crashed(_))), "{answer:?}");
    }
    assert!(answers.len() > 4);
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[test]
fn a_bot_that_prints_garbage_is_told_what_it_said_and_plays_on() {
    // Garbage on odd decisions, the first legal action on even ones.
    let command = python_bot(
        "babbler",
        "if n % 2 == 1:\n    print('I play the Knights', flush=True)\nelse:\n    send({'action': m['legal'][0]})",
    );
    let mut bot = ExternalBot::spawn(&command, PATIENT).unwrap();
    let pid = bot.pid().unwrap();
    let answers = play_with(&mut bot, Rules::default(), 4, 1, 4);
    assert!(answers.len() > 4);
    for (i, answer) in answers.iter().enumerate() {
        if i % 2 == 0 {
            let Err(BotFault::Garbage(message)) = answer else {
                panic!("decision {}: {answer:?}", i + 1);
            };
            assert!(message.contains("babbler"), "{message}");
            assert!(
                message.contains(&format!("decision {}", i + 1)),
                "{message}"
            );
            assert!(message.contains("`I play the Knights`"), "{message}");
            assert!(message.contains("not JSON"), "{message}");
        } else {
            assert!(answer.is_ok(), "decision {}: {answer:?}", i + 1);
        }
    }
    // Garbage is not a crash: the same program plays on.
    assert_eq!(bot.pid(), Some(pid));
}

#[test]
fn a_bot_that_answers_json_that_is_not_an_action_is_told_why() {
    let command = python_bot("confused", "send({'action': {'fold': 'now'}})");
    let mut bot = ExternalBot::spawn(&command, PATIENT).unwrap();
    let answers = play_with(&mut bot, Rules::default(), 3, 1, 5);
    let Err(BotFault::Garbage(message)) = &answers[0] else {
        panic!("{:?}", answers[0]);
    };
    assert!(message.contains(r#"unknown action "fold""#), "{message}");
    assert!(
        answers
            .iter()
            .all(|a| matches!(a, Err(BotFault::Garbage(_))))
    );
}

#[test]
fn a_bot_that_answers_an_illegal_action_is_refused() {
    // Four Dalmutis: the deck has one.
    let command = python_bot("cheat", "send({'action': {'play': '1 1 1 1'}})");
    let mut bot = ExternalBot::spawn(&command, PATIENT).unwrap();
    let answers = play_with(&mut bot, Rules::default(), 5, 1, 6);
    assert!(answers.len() > 4);
    for answer in &answers {
        let Err(BotFault::Illegal(message)) = answer else {
            panic!("{answer:?}");
        };
        assert!(message.contains("cheat"), "{message}");
        assert!(message.contains(r#"{"play":"1 1 1 1"}"#), "{message}");
        assert!(message.contains("is not one of the"), "{message}");
    }

    // An index past the end of the legal list is illegal too.
    let command = python_bot("overreach", "send({'index': len(m['legal'])})");
    let mut bot = ExternalBot::spawn(&command, PATIENT).unwrap();
    let answers = play_with(&mut bot, Rules::default(), 5, 1, 6);
    let Err(BotFault::Illegal(message)) = &answers[0] else {
        panic!("{:?}", answers[0]);
    };
    assert!(message.contains("is out of range"), "{message}");
}

#[test]
fn corporate_shuffle_plays_the_rules_refuse_are_refused_saying_why() {
    // Seat 2 leads at a table of five, holding the Wedgie, both Dogberts
    // and the World Ruler.
    let rules = Rules {
        variant: Variant::CorporateShuffle,
        ..Rules::default()
    };
    let hand = Hand::from_position(PlayPosition {
        rules,
        held: ["9 9 10", "8 8 10", "0 6 T D D", "7 7 10", "5 5 10"]
            .map(|c| c.parse().unwrap())
            .to_vec(),
        gone_out: vec![],
        turn: Seat::new(2),
        top: None,
        passes: 0,
    })
    .unwrap();
    let view = View::new(&hand, Viewer::Seat(Seat::new(2)));
    let legal = view.legal_actions();
    let refused = |name: &str, answer: &str| {
        let command = python_bot(name, &format!("send({{'action': {answer}}})"));
        let mut bot = ExternalBot::spawn(&command, PATIENT).unwrap();
        bot.decide(&view, &legal).unwrap_err()
    };
    // A Wedgie naming its own player: illegal, and the victims it may name.
    let BotFault::Illegal(message) =
        refused("selfish", "{'play': '6 T', 'wedgie': m['view']['seat']}")
    else {
        panic!("not refused as illegal");
    };
    assert!(
        message.contains(
            "the Twirling Wedgie names another player who still holds cards: here seat 0, 1, 3, 4"
        ),
        "{message}"
    );
    // Dogberts declared as 0, the World Ruler in a pair: not sets at all.
    for (name, answer, why) in [
        (
            "zero",
            "{'play': 'D D as 0'}",
            "Dogberts alone play as 1 to 10, not 0",
        ),
        (
            "pair",
            "{'play': '0 D'}",
            "Dogbert, World Ruler (0) is played only alone",
        ),
    ] {
        let BotFault::Garbage(message) = refused(name, answer) else {
            panic!("{name}: not refused as garbage");
        };
        assert!(message.contains(why), "{name}: {message}");
    }
    // Copied from the legal list, the same plays are taken.
    let command = python_bot("copier", "send({'action': m['legal'][-2]})");
    let mut bot = ExternalBot::spawn(&command, PATIENT).unwrap();
    assert_eq!(bot.decide(&view, &legal), Ok(legal[legal.len() - 2]));
}

#[test]
fn answers_by_index_and_late_answers_are_understood() {
    // Each answer comes after a late one for an earlier decision, which is
    // skipped; the real one names the last legal action by its index.
    let command = python_bot(
        "indexer",
        "send({'id': m['id'] - 1, 'index': 0})\nsend({'id': m['id'], 'index': len(m['legal']) - 1})",
    );
    let mut bot = ExternalBot::spawn(&command, PATIENT).unwrap();
    let names = (0..4).map(|i| format!("P{i}")).collect();
    let mut game = Game::new(Rules::default(), names, Seed::from(7)).unwrap();
    let mut asked = 0;
    while let Some(seat) = game.hand().next_to_act() {
        let view = game.view(Viewer::Seat(seat));
        let legal = view.legal_actions();
        let action = if game.player_at(seat).index() == 0 {
            asked += 1;
            let action = bot.decide(&view, &legal).unwrap();
            assert_eq!(action, *legal.last().unwrap());
            action
        } else {
            legal[0]
        };
        game.apply(seat, action).unwrap();
    }
    assert!(asked > 3);
}

#[test]
fn reseeding_sends_the_seed_to_the_bot() {
    let command = python_bot("seeded", "send({'index': seed % len(m['legal'])})");
    let mut bot = ExternalBot::spawn(&command, PATIENT).unwrap();
    let names = (0..4).map(|i| format!("P{i}")).collect();
    let mut game = Game::new(Rules::default(), names, Seed::from(8)).unwrap();
    let mut checked = 0;
    while let Some(seat) = game.hand().next_to_act() {
        let view = game.view(Viewer::Seat(seat));
        let legal = view.legal_actions();
        if legal.len() > 1 {
            let seed = 1_000_003 * checked + 1;
            bot.reseed(seed);
            let action = bot.decide(&view, &legal).unwrap();
            assert_eq!(action, legal[(seed % legal.len() as u64) as usize]);
            checked += 1;
        }
        game.apply(seat, fallback(&legal)).unwrap();
    }
    assert!(checked > 3);
}

#[test]
fn a_bot_that_never_answers_the_greeting_does_not_start() {
    let start = Instant::now();
    let message = spawn_error("sh -c 'echo hello there; exec sleep 1000'", SHORT);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    assert!(message.contains("cmd:sh -c"), "{message}");
    assert!(
        message.contains(r#"no {"type": "ready"} answer"#),
        "{message}"
    );
    assert!(message.contains("within 300ms"), "{message}");
    assert!(message.contains("`hello there`"), "{message}");

    // One that exits at once.
    let message = spawn_error("true", SHORT);
    assert!(
        message.contains("ended (exit status: 0) without answering"),
        "{message}"
    );
    assert!(message.contains("it said nothing"), "{message}");
}

#[test]
fn a_command_that_does_not_exist_is_a_bad_spec() {
    let message = spawn_error("no-such-dalmuti-bot --fast", PATIENT);
    assert!(
        message.contains(r#"cannot start "no-such-dalmuti-bot""#),
        "{message}"
    );

    let spec: BotSpec = "cmd:no-such-dalmuti-bot".parse().unwrap();
    let Err(BadSpec(message)) = spec.build(0) else {
        panic!("built a bot that does not exist");
    };
    assert!(message.contains("no-such-dalmuti-bot"), "{message}");

    let message = spawn_error("python3 'examples/bot.py", PATIENT);
    assert!(message.contains("quote is not closed"), "{message}");
}

#[test]
fn dropping_a_bot_ends_its_program() {
    // A bot that quits when told.
    let bot = ExternalBot::spawn(&example_bot("quitter"), PATIENT).unwrap();
    let pid = bot.pid().unwrap();
    let start = Instant::now();
    drop(bot);
    assert!(
        start.elapsed() < Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
    assert!(process_is_gone(pid));

    // A bot that ignores quit and the end of its input is killed.
    let command = r#"sh -c 'read hello; echo {\"type\":\"ready\"}; exec sleep 1000'"#;
    let bot = ExternalBot::spawn(command, PATIENT).unwrap();
    let pid = bot.pid().unwrap();
    let start = Instant::now();
    drop(bot);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    assert!(process_is_gone(pid));
}

#[test]
fn a_time_limit_too_large_for_the_clock_means_no_limit() {
    let mut bot = ExternalBot::spawn(&example_bot("patient"), Duration::MAX).unwrap();
    let answers = play_with(&mut bot, Rules::default(), 3, 1, 9);
    assert!(answers.iter().all(Result::is_ok));
}

/// A program that floods its output with garbage must not keep the game
/// waiting: the greeting fails within the time limit.
#[test]
fn a_bot_that_floods_its_output_is_refused_in_time() {
    let start = std::time::Instant::now();
    let spec = dalmuti_bots::BotSpec::External {
        command: "yes garbage".into(),
        timeout: std::time::Duration::from_millis(300),
    };
    let err = spec.build(1).err().expect("a flood is not a greeting");
    assert!(err.0.contains("garbage"), "{}", err.0);
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}
