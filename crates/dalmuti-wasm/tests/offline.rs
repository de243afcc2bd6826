//! The offline engine as the page's worker drives it: whole games against
//! bots, told in the server's messages, kept and taken up again, and
//! every bad request refused with nothing lost.

use dalmuti_core::record::{Checked, check};
use dalmuti_core::{Rules, Seed, Variant};
use dalmuti_table::protocol::{ErrorKind, MsgType, ServerMsg, Told};
use dalmuti_table::token::SeatToken;
use dalmuti_wasm::offline::{Offline, Reply, Request, Saved};
use serde_json::json;

/// An engine whose randomness is a fixed sequence.
fn engine(from: u64) -> Offline {
    let mut n = from;
    Offline::new(Box::new(move || {
        n += 1;
        Seed::from(n)
    }))
}

fn request(value: serde_json::Value) -> Request {
    serde_json::from_value(value).expect("a request reads")
}

/// A driver standing for the page and its worker: keeps the clock, the
/// token, the last STATE and the game kept.
struct Page {
    engine: Offline,
    now: u64,
    token: SeatToken,
    last: Option<ServerMsg>,
    saved: Option<Saved>,
    wake_ms: Option<u64>,
    told: Vec<ServerMsg>,
}

impl Page {
    fn new(engine: Offline, setup: serde_json::Value) -> Page {
        let mut engine = engine;
        let reply = engine.handle(request(json!({"do": "new", "now": 0, "setup": setup})));
        assert_eq!(reply.error, None);
        let token = reply.token.clone().expect("a new game's token");
        let mut page = Page {
            engine,
            now: 0,
            token,
            last: None,
            saved: None,
            wake_ms: None,
            told: Vec::new(),
        };
        page.take(reply);
        page.hello(0);
        page
    }

    fn take(&mut self, reply: Reply) {
        assert_eq!(reply.error, None);
        self.wake_ms = reply.wake_ms;
        if let Some(saved) = reply.saved {
            self.saved = Some(saved);
        }
        for msg in reply.sent {
            if msg.state().is_some() {
                self.last = Some(msg.clone());
            }
            self.told.push(msg);
        }
    }

    fn client(&mut self, text: String) -> Reply {
        self.engine.handle(Request::Client {
            text,
            now: self.now,
        })
    }

    fn hello(&mut self, v: u64) {
        let text = json!({"t": "hello", "v": v, "d": {"token": self.token}}).to_string();
        let reply = self.client(text);
        assert_eq!(reply.sent.len(), 1);
        self.take(reply);
    }

    fn v(&self) -> u64 {
        self.last.as_ref().expect("a STATE").v
    }

    fn state(&self) -> serde_json::Value {
        self.last.as_ref().expect("a STATE").data()
    }

    /// One step: the person plays the first legal action offered, or the
    /// clock runs to the next wake. False when nothing is left to happen.
    fn step(&mut self) -> bool {
        let state = self.state();
        if let Some(first) = state["legal"].as_array().and_then(|l| l.first()) {
            let text = json!({"t": "act", "v": self.v(), "d": first}).to_string();
            let reply = self.client(text);
            assert!(
                reply.sent.iter().all(|m| m.t() == MsgType::Event),
                "a legal move is accepted: {:?}",
                reply.sent
            );
            self.take(reply);
            return true;
        }
        let Some(wait) = self.wake_ms else {
            return false;
        };
        self.now += wait;
        let reply = self.engine.handle(Request::Wake { now: self.now });
        self.take(reply);
        true
    }
}

fn setup(variant: Variant, seats: usize, level: &str, hands: u32) -> serde_json::Value {
    let base = match variant {
        Variant::President => Rules::president(),
        Variant::Daifugo => Rules::daifugo(),
        _ => Rules {
            variant,
            ..Rules::default()
        },
    };
    let rules = Rules {
        hands: Some(hands),
        ..base
    };
    json!({"name": "Ada", "seats": seats, "level": level, "rules": rules})
}

#[test]
fn a_whole_game_against_bots_ends_with_a_record_dalmuti_check_accepts() {
    for (variant, seats, level) in [
        (Variant::Dalmuti, 4, "normal"),
        (Variant::CorporateShuffle, 5, "easy"),
        (Variant::President, 4, "normal"),
        (Variant::Daifugo, 5, "hard"),
    ] {
        let mut page = Page::new(engine(0), setup(variant, seats, level, 2));
        let mut steps = 0;
        while page.step() {
            steps += 1;
            assert!(steps < 5000, "{variant:?}: the game goes on and on");
        }
        let state = page.state();
        assert_eq!(
            state["game_over"], true,
            "{variant:?}: nothing left but the game not over"
        );
        assert_eq!(state["you"], "Ada");
        assert_eq!(state["results"].as_array().map(Vec::len), Some(2));
        // Every message was for Ada's seat, in order, the version never
        // going back.
        let vs: Vec<u64> = page.told.iter().map(|m| m.v).collect();
        assert!(vs.windows(2).all(|w| w[0] <= w[1]), "{variant:?}: {vs:?}");
        let record = page
            .engine
            .handle(Request::Record)
            .record
            .expect("a record");
        let text = serde_json::to_string(&record).unwrap();
        match check(&text) {
            Checked::Valid(report) => assert_eq!(report.hands.len(), 2),
            other => panic!("{variant:?}: dalmuti check refuses the record: {other:?}"),
        }
        let replay = page
            .engine
            .handle(Request::Replay)
            .replay
            .expect("a replay");
        assert!(!replay.frames.is_empty());
    }
}

#[test]
fn no_message_tells_a_hand_s_seed_before_it_is_over_nor_another_seat_s_cards() {
    let mut page = Page::new(engine(100), setup(Variant::Dalmuti, 4, "normal", 1));
    while page.step() {}
    for msg in &page.told {
        let Some(state) = msg.state() else { continue };
        let d = msg.data();
        let hand_over = d["game_over"] == true || d["next_deal_ms"].is_number();
        if !hand_over {
            for hand in d["fairness"]["hands"].as_array().into_iter().flatten() {
                assert!(
                    hand["seed"].is_null(),
                    "a seed told during its hand: {hand}"
                );
            }
        }
        assert_eq!(state.state.you.as_deref(), Some("Ada"));
    }
}

#[test]
fn a_game_kept_in_the_browser_is_taken_up_where_it_was() {
    let mut page = Page::new(engine(7), setup(Variant::Dalmuti, 5, "normal", 2));
    for _ in 0..40 {
        assert!(page.step());
    }
    let saved = page.saved.clone().expect("the game kept");
    let v = page.v();
    // Kept as text (IndexedDB holds what the worker gives it), read back
    // by a new engine: a reload.
    let text = serde_json::to_string(&saved).unwrap();
    let mut again = engine(1000);
    let reply = again.handle_text(&format!(r#"{{"do":"resume","now":0,"saved":{text}}}"#));
    assert_eq!(reply.error, None);
    let mut reloaded = Page {
        engine: again,
        now: 0,
        token: page.token.clone(),
        last: None,
        saved: Some(saved),
        wake_ms: reply.wake_ms,
        told: Vec::new(),
    };
    reloaded.hello(v);
    assert_eq!(reloaded.v(), v);
    assert_eq!(reloaded.state()["view"], page.state()["view"]);
    assert_eq!(reloaded.state()["legal"], page.state()["legal"]);
    while reloaded.step() {}
    assert_eq!(reloaded.state()["game_over"], true);
}

#[test]
fn bad_requests_are_refused_saying_what_is_wrong_and_change_nothing() {
    let mut page = Page::new(engine(3), setup(Variant::Dalmuti, 4, "easy", 1));
    let v = page.v();
    let saved = page.saved.clone();

    // Not a request at all.
    let reply = page.engine.handle_text("{\"do\":\"fly\"}");
    assert!(
        reply.error.as_deref().is_some_and(|e| e.contains("fly")),
        "{reply:?}"
    );
    // A garbled socket message.
    let reply = page.client("{\"t\":\"act\",\"v\":1,\"d\":\"seven of cups\"}".into());
    assert_eq!(reply.sent[0].t(), MsgType::Error);
    // A move chosen at an old event: refused as stale, then the table.
    let reply = page.client(json!({"t": "act", "v": 1, "d": "pass"}).to_string());
    match &reply.sent[0].told {
        Told::Error(refusal) => assert_eq!(refusal.kind, ErrorKind::Stale),
        other => panic!("not a refusal: {other:?}"),
    }
    assert_eq!(reply.sent[1].t(), MsgType::Resync);
    assert!(reply.saved.is_none());
    // Saying ready: the table says it for everyone.
    let reply = page.client(json!({"t": "act", "v": v, "d": "ready"}).to_string());
    assert_eq!(reply.sent[1].t(), MsgType::Resync);
    // Chat: no one to talk to.
    let reply = page.client(json!({"t": "chat", "d": "hello"}).to_string());
    assert_eq!(reply.sent[0].t(), MsgType::Error);
    // A stranger's token is no seat: a spectator's STATE, no `you`.
    let text = json!({"t": "hello", "v": 0, "d": {"token": SeatToken::new()}}).to_string();
    let reply = page.client(text);
    assert!(reply.sent[0].data()["you"].is_null());
    // A kept game that is not one.
    let mut other = engine(0);
    let garbled = json!({"do": "resume", "now": 0, "saved": {
        "setup": {"name": "Ada", "seats": 4, "level": "easy"},
        "id": "x",
        "events": [{"deal": {"seed": "0".repeat(64)}}],
    }});
    let reply = other.handle_text(&garbled.to_string());
    assert!(
        reply
            .error
            .as_deref()
            .is_some_and(|e| e.contains("cannot be read")),
        "{reply:?}"
    );
    let reply = other.handle(Request::Wake { now: 0 });
    assert!(reply.error.is_some(), "no game after a refused resume");
    // Too many seats, an unknown level.
    let reply = other.handle(request(
        json!({"do": "new", "now": 0, "setup": setup(Variant::Dalmuti, 12, "easy", 1)}),
    ));
    assert!(
        reply
            .error
            .as_deref()
            .is_some_and(|e| e.contains("at most 8")),
        "{reply:?}"
    );
    let reply = other.handle(request(
        json!({"do": "new", "now": 0, "setup": setup(Variant::Dalmuti, 4, "grandmaster", 1)}),
    ));
    assert!(reply.error.is_some());

    // Nothing changed at Ada's table.
    page.hello(v);
    assert_eq!(page.v(), v);
    assert_eq!(page.saved, saved);
}

#[test]
fn bots_wait_for_the_setup_pause_then_move_one_at_a_time_after_their_delay() {
    let mut page = Page::new(engine(11), setup(Variant::Dalmuti, 4, "easy", 1));
    assert_eq!(page.wake_ms, Some(6000), "the look-at-your-cards pause");
    assert!(page.state()["setup_ms"].is_number());
    let v = page.v();
    // Waking early does nothing.
    page.now = 100;
    let reply = page.engine.handle(Request::Wake { now: 100 });
    assert!(reply.sent.is_empty());
    assert_eq!(reply.wake_ms, Some(5900));
    page.now = 6000;
    let reply = page.engine.handle(Request::Wake { now: 6000 });
    // At the end of the pause the bots' setup choices (taxes) and the
    // readies are told at once, with no delay between them.
    assert!(!reply.sent.is_empty());
    page.take(reply);
    assert!(page.v() > v);
    // Then bots move one a wake, 700 ms apart (unless it is Ada's turn).
    if page.state()["legal"].is_null() {
        assert_eq!(page.wake_ms, Some(700));
        let before = page.v();
        page.now += 700;
        let reply = page.engine.handle(Request::Wake { now: page.now });
        assert_eq!(reply.sent.len(), 1);
        page.take(reply);
        assert_eq!(page.v(), before + 1);
    }
}
