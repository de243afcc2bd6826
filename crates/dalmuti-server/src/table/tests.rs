use std::sync::Arc;
use std::time::Duration;

use dalmuti_bots::Bot;
use dalmuti_core::{Action, Decision, Seed};
use serde_json::json;

use super::cmd::Command;
use super::*;
use crate::error::ServerError;
use crate::protocol::ServerMsg;
use crate::store::faulty::{Faulty, Ping};
use crate::store::{SqliteStore, Store, TableRow, TalkKind};
use crate::token::SeatToken;

fn timings() -> Timings {
    Timings::for_tests()
}

/// Table "t" of `seats`, with the default rules.
fn row(seats: usize) -> TableRow {
    TableRow {
        id: "t".into(),
        name: "t".into(),
        seats,
        rules: dalmuti_core::Rules::default(),
        public: true,
        ..TableRow::default()
    }
}

/// Ada and three greedy bots on `store`, the game started, up to Ada's
/// first decision that is not saying ready: the table, Ada's token,
/// her feed and that message.
async fn adas_turn(
    store: Arc<dyn Store>,
) -> (
    TableHandle,
    SeatToken,
    broadcast::Receiver<Arc<Outgoing>>,
    ServerMsg,
) {
    let table = create(Context::new(store, timings()), row(4)).unwrap();
    let token = table.join("Ada", None).await.unwrap();
    for _ in 0..3 {
        table.add_bot(&token, "greedy").await.unwrap();
    }
    let mut feed = table.subscribe(Some(&token), 0).await.unwrap().feed;
    table.start_with_seed(&token, Seed::from(3)).await.unwrap();
    // When Ada is to act, nobody else moves (saying ready is not hers
    // to do: the table does it when the setup pause ends).
    // (Once the bots have said ready: until then they still move.)
    let before = loop {
        let msg = feed.recv().await.unwrap().to_msg();
        let view = &msg.data()["view"];
        let others_done = view["stage"] == "play" || view["ready"] == json!(3);
        if !msg.data()["decision"].is_null()
            && msg.data()["decision"]["kind"] != "ready"
            && others_done
        {
            break msg;
        }
    };
    (table, token, feed, before)
}

/// A legal action of Ada's at `msg`'s decision.
fn adas_action(msg: &ServerMsg) -> Action {
    let state = &msg.state().expect("a STATE").state;
    let hand = state.view.as_ref().and_then(|v| v.hand.clone()).unwrap();
    let cards: Vec<&str> = hand.split(' ').collect();
    match state.decision.expect("a decision").0 {
        Decision::Follow { .. } => Action::Pass,
        // Ada deals first: the Greater Dalmuti gives any cards.
        Decision::Tax { count, .. } => {
            let n = usize::from(count);
            Action::GiveTax(cards[cards.len() - n..].join(" ").parse().unwrap())
        }
        _ => Action::Play(cards[0].parse().unwrap()),
    }
}

/// Commit, then tell (issue 24, D1 and D2): with the database down,
/// an act is refused with the state as the log holds it, nobody is
/// told of it, and a line of chat is neither kept nor said; once the
/// database is back, the same act is played at the same number.
#[tokio::test]
async fn with_the_database_down_nothing_uncommitted_is_told() {
    let store = Faulty::new(Ping::Works);
    let (table, token, mut feed, before) = adas_turn(store.clone()).await;
    store.down(Some(
        "could not receive data from server: Connection reset by peer",
    ));
    let action = adas_action(&before);
    let (error, resync) = table.act(&token, action, before.v).await.unwrap_err();
    assert!(matches!(error, ServerError::Storage(_)), "{error}");
    assert_eq!(resync.v, before.v, "the refused act is not applied");
    assert_eq!(resync.data()["view"], before.data()["view"]);
    assert_eq!(resync.data()["decision"], before.data()["decision"]);
    let said = table
        .chat(
            Speaker::Seat {
                token: token.clone(),
                from: [127, 0, 0, 1].into(),
            },
            "hello?",
        )
        .await
        .unwrap_err();
    assert!(said.to_string().contains("could not be kept"), "{said}");
    // Nobody was told anything past what the log holds.
    while let Ok(msg) = feed.try_recv() {
        let msg = msg.to_msg();
        assert!(msg.v <= before.v, "told of v {}: {msg:?}", msg.v);
        assert_ne!(msg.t(), "chat", "a line the store did not keep: {msg:?}");
    }
    let now = table.subscribe(Some(&token), 0).await.unwrap().first;
    assert_eq!(
        (now.v, &now.data()["view"]),
        (before.v, &before.data()["view"])
    );
    assert_eq!(now.data()["chat"], json!([]));

    store.down(None);
    assert_eq!(
        table.act(&token, action, before.v).await.unwrap(),
        before.v + 1
    );
    assert_eq!(store.log(&"t".into()).unwrap().len() as u64, before.v + 1);
    table
        .chat(
            Speaker::Seat {
                token,
                from: [127, 0, 0, 1].into(),
            },
            "back",
        )
        .await
        .unwrap();
    let line = loop {
        let msg = feed.recv().await.unwrap().to_msg();
        if msg.t() == "chat" {
            break msg;
        }
    };
    assert_eq!(line.data()["text"], "back");
    assert_eq!(store.talk(&"t".into(), TalkKind::Chat).unwrap().len(), 1);
}

/// Chat is bounded per seat, however many connections it holds, and
/// per address for spectators, whatever names they give (issue 24,
/// S4); the history keeps other voices' lines.
#[tokio::test]
async fn chat_is_bounded_per_seat_and_per_spectator_address() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let row = TableRow {
        spectator_chat: true,
        ..row(4)
    };
    let table = create(Context::new(store, timings()), row).unwrap();
    let ada = table.join("Ada", None).await.unwrap();
    let bob = table.join("Bob", None).await.unwrap();
    let seat = |token: &str| Speaker::Seat {
        token: SeatToken::from(token),
        from: [127, 0, 0, 1].into(),
    };
    for i in 0..CHAT_BURST {
        table.chat(seat(&ada), &format!("line {i}")).await.unwrap();
    }
    let e = table.chat(seat(&ada), "one more").await.unwrap_err();
    assert!(matches!(e, ServerError::TooMany(_)), "{e}");
    // Another seat still speaks.
    table.chat(seat(&bob), "hi Ada").await.unwrap();
    let from = |a: [u8; 4]| std::net::IpAddr::from(a);
    let spectator = |name: String, a| Speaker::Spectator {
        name: Some(PlayerName::new(&name).unwrap()),
        from: from(a),
    };
    for i in 0..CHAT_BURST {
        let name = format!("watcher {i}");
        table
            .chat(spectator(name, [10, 0, 0, 1]), "look")
            .await
            .unwrap();
    }
    let e = table
        .chat(spectator("watcher 9".into(), [10, 0, 0, 1]), "look")
        .await
        .unwrap_err();
    assert!(matches!(e, ServerError::TooMany(_)), "{e}");
    table
        .chat(spectator("elsewhere".into(), [10, 0, 0, 2]), "hello")
        .await
        .unwrap();
    // Names that look like a seat's are refused to spectators.
    for name in ["ADA", "\u{410}da"] {
        let e = table
            .chat(spectator(name.into(), [10, 0, 0, 3]), "I am Ada")
            .await
            .unwrap_err();
        assert!(e.to_string().contains("looks like"), "{name}: {e}");
    }
    // A newcomer's look-alike name is refused too.
    let e = table.join("ada", None).await.unwrap_err();
    assert!(e.to_string().contains("too like"), "{e}");
}

/// A table taken over (or restarted) during the setup pause keeps what
/// was left of the pause, not a whole new one (issue 24, D5).
#[tokio::test]
async fn the_setup_pause_survives_a_takeover_with_its_time_left() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let pause = Duration::from_secs(4);
    let timings = Timings {
        setup_pause: pause,
        ..timings()
    };
    let table = create(Context::new(store.clone(), timings), row(3)).unwrap();
    let token = table.join("Ada", None).await.unwrap();
    for _ in 0..2 {
        table.add_bot(&token, "greedy").await.unwrap();
    }
    table.start_with_seed(&token, Seed::from(3)).await.unwrap();
    let setup_ms = |msg: &ServerMsg| msg.state().and_then(|s| s.state.setup_ms);
    let first = table.subscribe(Some(&token), 0).await.unwrap().first;
    assert!(
        setup_ms(&first).is_some(),
        "in the setup pause: {:?}",
        first.data()
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // Another node (here: another actor on the same store) takes over.
    let other = load(Context::new(store, timings), row(3)).unwrap();
    let taken = other.subscribe(Some(&token), 0).await.unwrap().first;
    assert_eq!(taken.v, first.v);
    let left = setup_ms(&taken).expect("still in the setup pause");
    assert!(
        (1000..=2600).contains(&left),
        "{left} ms left of the {pause:?} pause after 1.5 s"
    );
}

/// A bot with a bug: it panics at every decision.
struct Panicky;

impl Bot for Panicky {
    fn name(&self) -> &str {
        "panicky"
    }
    fn decide(
        &mut self,
        _: &dalmuti_core::View<'_>,
        _: &[Action],
    ) -> Result<Action, dalmuti_bots::BotFault> {
        panic!("a bot's bug")
    }
}

/// A bot that panics while deciding does not stall its table: the
/// heuristic decides for it that once, and the game goes on with the
/// seat's own bot built afresh.
#[tokio::test]
async fn a_bot_that_panics_is_replaced_for_that_decision() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let (table, token, mut feed, before) = adas_turn(store.clone()).await;
    let seats = table.info().await.unwrap().taken;
    let bot = seats[1].clone();
    let _ = table
        .tx
        .send(Command::Bot(bot.clone(), Box::new(Panicky)))
        .await;
    // Ada plays on (passing or leading) until the bot has acted twice.
    let mut msg = before;
    let mut acted = 0;
    while acted < 2 {
        if !msg.data()["decision"].is_null() && msg.data()["decision"]["kind"] != "ready" {
            let _ = table.act(&token, adas_action(&msg), msg.v).await;
        }
        msg = tokio::time::timeout(Duration::from_secs(20), feed.recv())
            .await
            .expect("the table goes on")
            .unwrap()
            .to_msg();
        if msg.data()["e"]["kind"] == "act" && msg.data()["e"]["name"] == json!(bot) {
            acted += 1;
        }
    }
}

#[tokio::test]
async fn a_panic_rebuilds_the_table_from_its_log_and_play_goes_on() {
    let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
    let (table, token, mut feed, before) = adas_turn(store).await;
    let _ = table.tx.send(Command::Panic).await;
    // Everyone is told to start again from the state as it is.
    loop {
        let msg = feed.recv().await.unwrap().to_msg();
        if msg.t() == "resync" {
            assert_eq!(msg.v, before.v);
            break;
        }
    }
    let after = table.subscribe(Some(&token), 0).await.unwrap().first;
    assert_eq!(after.v, before.v, "nothing lost, nothing added");
    assert_eq!(after.data()["view"], before.data()["view"]);
    // And the table still plays.
    let action = adas_action(&after);
    assert_eq!(
        table.act(&token, action, after.v).await.unwrap(),
        after.v + 1
    );
}
