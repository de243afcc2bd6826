//! The [`Store`] contract, one function per promise, run against every
//! backend (SQLite in memory, PostgreSQL on a schema of its own) by the
//! tests in `store.rs`.

use super::*;

pub fn row(id: &str, public: bool) -> TableRow {
    TableRow {
        id: id.into(),
        name: id.into(),
        seats: 3,
        rules: dalmuti_core::Rules::default(),
        public,
        turn_seconds: None,
        ..TableRow::default()
    }
}

/// Line `n` of `kind` at `table`, of which the table keeps `keep`.
pub fn line(table: &str, n: u64, kind: TalkKind, keep: usize) -> TalkRow {
    TalkRow {
        table: table.into(),
        line: talk(n, kind),
        keep,
    }
}

/// Line `n` of chat (it says `n`) or news (the game's hand `n`).
pub fn talk(n: u64, kind: TalkKind) -> crate::protocol::TalkLine {
    match kind {
        TalkKind::Chat => crate::protocol::TalkLine::Chat(crate::protocol::ChatLine {
            n,
            at: n,
            from: None,
            spectator: true,
            text: n.to_string(),
        }),
        TalkKind::News => crate::protocol::TalkLine::News(crate::protocol::NewsLine {
            n,
            at: n,
            news: crate::protocol::News::Hand { hand: n as usize },
        }),
    }
}

/// An event for the log's tests (the store keeps events whatever they
/// say): player `n` will leave.
pub fn event(n: u64) -> Stored {
    Stored::Leaving {
        name: crate::names::PlayerName::new(&format!("player {n}")).unwrap(),
    }
}

/// Table `id`'s lobby summary.
pub fn summary(id: &str) -> TableInfo {
    TableInfo {
        id: id.into(),
        name: id.into(),
        default_name: None,
        seats: 3,
        taken: Vec::new(),
        bots: Vec::new(),
        started: true,
        over: true,
        public: true,
        variant: dalmuti_core::Variant::Dalmuti,
        hand: 1,
        v: 9,
        finished_at: Some(1),
        winner: None,
        idle: false,
        age: std::time::Duration::ZERO,
    }
}

fn append(table: &str, v: u64) -> Append {
    Append {
        table: table.into(),
        v,
        event: event(v),
    }
}

/// A table comes back as it was stored; its log takes each number once,
/// in order, and keeps it after the table is finished.
pub fn log_is_append_only(store: &dyn Store) {
    let t = TableRow {
        id: "t1".into(),
        name: "Friday".into(),
        seats: 4,
        rules: dalmuti_core::Rules {
            hands: Some(7),
            ..dalmuti_core::Rules::default()
        },
        public: false,
        turn_seconds: Some(60),
        ..TableRow::default()
    };
    store.create_table(&t).unwrap();
    assert_eq!(store.tables().unwrap(), vec![t.clone()]);
    assert!(store.create_table(&t).is_err(), "one id, one table");
    store.append(&"t1".into(), 1, &event(1)).unwrap();
    let twice = store.append(&"t1".into(), 1, &event(1)).unwrap_err();
    assert!(
        twice.message().contains("t1"),
        "the error names the table: {twice}"
    );
    let gap = store.append(&"t1".into(), 3, &event(3)).unwrap_err();
    assert!(
        gap.message().contains("t1"),
        "the error names the table: {gap}"
    );
    assert!(
        store.append(&"t1".into(), 0, &event(0)).is_err(),
        "no event 0"
    );
    store.append(&"t1".into(), 2, &event(2)).unwrap();
    assert_eq!(store.log(&"t1".into()).unwrap(), [event(1), event(2)]);
    assert!(
        store.append(&"nowhere".into(), 1, &event(1)).is_err(),
        "no such table"
    );
    assert!(store.log(&"nowhere".into()).unwrap().is_empty());
    // Finished: no longer live, its log kept, its summary kept (a private
    // table's is not listed).
    store.finish(&"t1".into(), &summary("t1"), 10).unwrap();
    assert_eq!(store.tables().unwrap(), vec![]);
    assert_eq!(store.log(&"t1".into()).unwrap().len(), 2);
    assert_eq!(store.finished(10).unwrap(), [], "private");
    let (back, kept) = store.finished_table(&"t1".into()).unwrap().unwrap();
    assert_eq!((back, kept), (t, summary("t1")));
    assert!(store.finished_table(&"nowhere".into()).unwrap().is_none());
}

/// A batch is written whole or not at all, events of one table in a batch
/// follow each other, and a gap anywhere refuses the whole batch.
pub fn batches_are_all_or_none(store: &dyn Store) {
    store.create_table(&row("a", true)).unwrap();
    store.create_table(&row("b", true)).unwrap();
    store.append_batch(&[]).unwrap();
    store
        .append_batch(&[append("a", 1), append("b", 1), append("a", 2)])
        .unwrap();
    assert_eq!(store.log(&"a".into()).unwrap(), [event(1), event(2)]);
    assert_eq!(store.log(&"b".into()).unwrap(), [event(1)]);
    assert!(
        store
            .append_batch(&[append("a", 3), append("b", 3)])
            .is_err(),
        "b's event 3 leaves a gap"
    );
    assert_eq!(
        store.log(&"a".into()).unwrap().len(),
        2,
        "a's event 3 not kept"
    );
    assert!(
        store
            .append_batch(&[append("a", 4), append("a", 3)])
            .is_err(),
        "out of order"
    );
    assert_eq!(store.log(&"a".into()).unwrap().len(), 2);
    store.append_batch(&[append("a", 3)]).unwrap();
    assert_eq!(store.log(&"a".into()).unwrap().len(), 3);
}

/// Finished tables are kept up to a bound, oldest pruned first with their
/// logs and lines; deleted tables go with theirs; the order of live tables
/// is their creation's, and numbers are not reused.
pub fn finished_tables_are_kept_up_to_a_bound(store: &dyn Store) {
    for id in ["a", "b", "c"] {
        store.create_table(&row(id, true)).unwrap();
        let id = &TableId::from(id);
        store.append(id, 1, &event(1)).unwrap();
        store.add_talk(&[line(id, 1, TalkKind::Chat, 50)]).unwrap();
        store.finish(id, &summary(id), 2).unwrap();
    }
    assert_eq!(store.finished(10).unwrap(), [summary("c"), summary("b")]);
    assert_eq!(store.finished(1).unwrap(), [summary("c")]);
    assert!(
        store.finished_table(&"a".into()).unwrap().is_none(),
        "pruned"
    );
    assert!(store.log(&"a".into()).unwrap().is_empty(), "with its log");
    assert!(
        store.talk(&"a".into(), TalkKind::Chat).unwrap().is_empty(),
        "and talk"
    );
    assert_eq!(store.log(&"b".into()).unwrap().len(), 1, "b is kept whole");
    store.create_table(&row("d", true)).unwrap();
    store.append(&"d".into(), 1, &event(1)).unwrap();
    store.delete(&"d".into()).unwrap();
    assert!(store.tables().unwrap().is_empty());
    assert!(store.log(&"d".into()).unwrap().is_empty());
    // A deleted table's id may be used again, from event 1.
    store.create_table(&row("d", true)).unwrap();
    store.append(&"d".into(), 1, &event(1)).unwrap();
    store.delete(&"d".into()).unwrap();
    // Numbers are not reused after a delete: the order stays.
    store.create_table(&row("e", true)).unwrap();
    store.create_table(&row("f", true)).unwrap();
    let ids: Vec<TableId> = store.tables().unwrap().into_iter().map(|t| t.id).collect();
    assert_eq!(ids, ["e", "f"]);
}

/// Chat and news are each kept up to their bound, newest kept; the
/// settings and the first rematch stick; everything goes with the table.
pub fn talk_is_kept_up_to_a_bound(store: &dyn Store) {
    store.create_table(&row("t", true)).unwrap();
    let mut lines: Vec<TalkRow> = (1..=60).map(|n| line("t", n, TalkKind::Chat, 50)).collect();
    lines.push(line("t", 61, TalkKind::News, 50));
    store.add_talk(&lines).unwrap();
    store.add_talk(&[]).unwrap();
    let chat = store.talk(&"t".into(), TalkKind::Chat).unwrap();
    assert_eq!(chat.len(), 50);
    assert_eq!((chat[0].0, chat[49].0), (11, 60), "the newest fifty");
    assert_eq!(chat[49].1, Some(talk(60, TalkKind::Chat)));
    assert_eq!(
        store.talk(&"t".into(), TalkKind::News).unwrap(),
        [(61, Some(talk(61, TalkKind::News)))],
        "news apart"
    );
    assert!(
        store
            .add_talk(&[line("nowhere", 1, TalkKind::Chat, 50)])
            .is_err(),
        "no such table"
    );
    assert_eq!(store.set_rematch(&"t".into(), &"r1".into()).unwrap(), "r1");
    assert_eq!(
        store.set_rematch(&"t".into(), &"r2".into()).unwrap(),
        "r1",
        "the first stays"
    );
    assert!(store.set_rematch(&"nowhere".into(), &"r".into()).is_err());
    assert_eq!(store.tables().unwrap()[0].rematch.as_deref(), Some("r1"));
    store.set_spectator_chat(&"t".into(), true).unwrap();
    assert!(store.tables().unwrap()[0].spectator_chat);
    store.set_spectator_chat(&"t".into(), false).unwrap();
    assert!(!store.tables().unwrap()[0].spectator_chat);
    store.delete(&"t".into()).unwrap();
    assert!(store.talk(&"t".into(), TalkKind::Chat).unwrap().is_empty());
    assert!(store.talk(&"t".into(), TalkKind::News).unwrap().is_empty());
}

/// A live table is found by its id until its game is finished; an
/// unknown one is not.
pub fn live_tables_are_found_by_id(store: &dyn Store) {
    store.create_table(&row("t", true)).unwrap();
    assert_eq!(store.live_table(&"t".into()).unwrap(), Some(row("t", true)));
    assert_eq!(store.live_table(&"unknown".into()).unwrap(), None);
    store.finish(&"t".into(), &summary("t"), 10).unwrap();
    assert_eq!(store.live_table(&"t".into()).unwrap(), None);
}

/// The readiness check's query answers on a working database, also while
/// a table is being written.
pub fn a_working_database_answers_a_ping(store: &dyn Store) {
    store.ping().unwrap();
    store.create_table(&row("p", true)).unwrap();
    store.append(&"p".into(), 1, &event(1)).unwrap();
    store.ping().unwrap();
}

/// A name's key is kept once, and so is its look-alike form: a second
/// player under the same key, or under a name that looks like a kept one,
/// is refused and changes nothing; a player is found by its secret's hash
/// and by its name or any name like it, the exact name first.
pub fn a_name_is_kept_once_and_found_by_its_secret(store: &dyn Store) {
    let player = |key: &str, name: &str, secret: u8| PlayerRow {
        key: key.into(),
        name: crate::names::PlayerName::new(name).unwrap(),
        secret_hash: [secret; 32],
        since: 1_700_000_000_000,
    };
    let ann = player("ann", "Ann", 7);
    assert!(store.add_player(&ann).unwrap());
    assert!(
        !store.add_player(&player("ann", "Bob", 8)).unwrap(),
        "one key, one player"
    );
    assert!(
        !store.add_player(&player("other", "ANN", 9)).unwrap(),
        "one look-alike form, one player"
    );
    assert_eq!(store.player_named("Ann").unwrap(), Some(ann.clone()));
    assert_eq!(
        store.player_named("\u{410}NN").unwrap(),
        Some(ann.clone()),
        "found by a look-alike"
    );
    assert_eq!(store.player_by_secret(&[7; 32]).unwrap(), Some(ann));
    for refused in [8, 9] {
        assert_eq!(
            store.player_by_secret(&[refused; 32]).unwrap(),
            None,
            "the refused one was not kept"
        );
    }
    assert_eq!(store.player_named("Bob").unwrap(), None);
}

/// A player's secret is changed only by whoever holds it: the old one is
/// no one's from then on, and a second change with the old one fails.
pub fn a_secret_is_changed_once_and_the_old_one_is_no_ones(store: &dyn Store) {
    let ann = PlayerRow {
        key: "ann".into(),
        name: crate::names::PlayerName::new("Ann").unwrap(),
        secret_hash: [1; 32],
        since: 1,
    };
    store.add_player(&ann).unwrap();
    assert!(!store.change_secret("ann", &[9; 32], &[2; 32]).unwrap());
    assert!(!store.change_secret("bo", &[1; 32], &[2; 32]).unwrap());
    assert!(store.change_secret("ann", &[1; 32], &[2; 32]).unwrap());
    assert_eq!(store.player_by_secret(&[1; 32]).unwrap(), None);
    let now = store.player_by_secret(&[2; 32]).unwrap().unwrap();
    assert_eq!((now.key.as_str(), now.name.as_str()), ("ann", "Ann"));
    assert!(
        !store.change_secret("ann", &[1; 32], &[3; 32]).unwrap(),
        "the old secret changes nothing any more"
    );
    assert_eq!(store.player_by_secret(&[3; 32]).unwrap(), None);
}

/// Players as a database of the schema before look-alike forms kept them
/// (SQL both databases read): "Alice" first, then "AIice" (a capital I,
/// which the old rule let through), and "bot:hard", a person keyed as
/// the hard bot level, sharing its rating row.
pub const PLAYERS_BEFORE_FORMS: &str = "
    INSERT INTO players (key, name, secret, since) VALUES
        ('alice', 'Alice', '0101010101010101010101010101010101010101010101010101010101010101', 1),
        ('aiice', 'AIice', '0202020202020202020202020202020202020202020202020202020202020202', 2),
        ('bot:hard', 'bot:hard', '0303030303030303030303030303030303030303030303030303030303030303', 3);
    INSERT INTO player_games
        (key, table_id, table_name, at, game, players, place, rated, mu, sigma)
        VALUES ('bot:hard', 'g', 'G', 5, 'dalmuti', 3, 1, TRUE, 26.0, 8.0);
    INSERT INTO player_tables (key, table_id, at) VALUES ('bot:hard', 'g', 4);
    INSERT INTO ratings (key, name, bot, game, band, mu, sigma, games)
        VALUES ('bot:hard', 'bot:hard', FALSE, 'dalmuti', '3-4', 26.0, 8.0, 9);
";

/// After the migration of [`PLAYERS_BEFORE_FORMS`]: every player keeps
/// their name and secret; the oldest of look-alikes holds the form, so no
/// new look-alike of theirs is kept, and each is still found by their
/// exact name; the person keyed as a bot level is moved out of the bots'
/// keys with their games and tables, and the bot level's rating row is a
/// bot's again.
pub fn players_kept_before_forms_are_migrated(store: &dyn Store) {
    let named = |name: &str| store.player_named(name).unwrap().map(|p| p.key);
    assert_eq!(named("Alice").as_deref(), Some("alice"));
    assert_eq!(named("ALICE").as_deref(), Some("alice"), "the oldest");
    assert_eq!(named("AIice").as_deref(), Some("aiice"), "its exact name");
    let late = PlayerRow {
        key: crate::names::form("ALlCE"),
        name: crate::names::PlayerName::new("ALlCE").unwrap(),
        secret_hash: [4; 32],
        since: 10,
    };
    assert!(!store.add_player(&late).unwrap(), "a look-alike of Alice");
    assert_eq!(named("bot:hard").as_deref(), Some("person:bot:hard"));
    assert_eq!(
        store.player_by_secret(&[3; 32]).unwrap().unwrap().key,
        "person:bot:hard"
    );
    assert_eq!(store.player_games("person:bot:hard", 10).unwrap().len(), 1);
    assert_eq!(store.player_tables("person:bot:hard", 10).unwrap().len(), 1);
    assert!(store.player_games("bot:hard", 10).unwrap().is_empty());
    let bot = store.player_ratings("bot:hard").unwrap();
    assert_eq!(bot.len(), 1);
    assert_eq!((bot[0].name.as_str(), bot[0].bot), ("hard", true));
}

/// A game over goes into each keyed person's history once, whoever tells
/// it twice; it moves the ratings of every seat (bots included) only when
/// it counts, and the leaderboard ranks by the ordinal.
pub fn a_game_is_counted_once_and_rated_only_when_it_counts(store: &dyn Store) {
    fn rate_by_place(
        before: &[crate::ratings::Rating],
        places: &[usize],
    ) -> Vec<crate::ratings::Rating> {
        before
            .iter()
            .zip(places)
            .map(|(r, &p)| crate::ratings::Rating {
                mu: r.mu + 3.0 - p as f64,
                sigma: r.sigma - 1.0,
            })
            .collect()
    }
    let seat = |key: Option<&str>, name: &str, bot: bool, place: usize| FinishedSeat {
        key: key.map(str::to_string),
        name: name.into(),
        bot,
        place,
        from: (!bot).then(|| format!("from {name}")),
    };
    let rated = FinishedGame {
        table: "g1".into(),
        table_name: "Friday".into(),
        at: 1_000,
        game: "dalmuti".into(),
        rated: true,
        public: true,
        seats: vec![
            seat(Some("ann"), "Ann", false, 2),
            seat(Some("bot:hard"), "hard", true, 1),
            seat(Some("bo"), "Bo", false, 3),
        ],
    };
    assert!(rated.counts());
    let fresh = crate::ratings::Rating::default();
    // Each key's change is answered, for the game over to show: before
    // and after, in seat order; told again, the game moves nothing.
    let changes = store.record_game(&rated, rate_by_place).unwrap();
    let moved: Vec<(&str, bool, f64, f64)> = changes
        .iter()
        .map(|c| (c.name.as_str(), c.bot, c.before.mu, c.after.mu))
        .collect();
    assert_eq!(
        moved,
        [
            ("Ann", false, fresh.mu, fresh.mu + 1.0),
            ("hard", true, fresh.mu, fresh.mu + 2.0),
            ("Bo", false, fresh.mu, fresh.mu),
        ]
    );
    assert_eq!(store.record_game(&rated, rate_by_place).unwrap(), []);
    let ann = store.player_games("ann", 10).unwrap();
    assert_eq!(ann.len(), 1, "counted once: {ann:?}");
    assert_eq!(
        (ann[0].place, ann[0].players, ann[0].rated, ann[0].public),
        (2, 3, true, true)
    );
    assert_eq!(ann[0].rating.unwrap().mu, fresh.mu + 1.0);
    assert!(
        store.player_games("bot:hard", 10).unwrap().is_empty(),
        "bots keep no history"
    );
    let board = store.leaderboard("dalmuti", "3-4", 10).unwrap();
    let order: Vec<&str> = board.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(order, ["bot:hard", "ann", "bo"]);
    assert!(board[0].bot && board.iter().all(|r| r.games == 1));

    // Not counted: someone kept no name. History only (a private
    // table's, said so).
    let unrated = FinishedGame {
        table: "g2".into(),
        at: 2_000,
        public: false,
        seats: vec![
            seat(Some("ann"), "Ann", false, 1),
            seat(None, "Cy", false, 2),
            seat(Some("bo"), "Bo", false, 3),
        ],
        ..rated.clone()
    };
    assert!(!unrated.counts());
    assert_eq!(store.record_game(&unrated, rate_by_place).unwrap(), []);
    let ann = store.player_games("ann", 10).unwrap();
    assert_eq!(
        ann.iter().map(|g| g.table.as_str()).collect::<Vec<_>>(),
        ["g2", "g1"]
    );
    assert_eq!(
        (ann[0].rated, ann[0].rating, ann[0].public),
        (false, None, false)
    );
    // Nor when two people took their seats from one place.
    let one_place = FinishedGame {
        table: "g2b".into(),
        seats: vec![
            FinishedSeat {
                from: Some("home".into()),
                ..seat(Some("ann"), "Ann", false, 1)
            },
            seat(Some("bot:hard"), "hard", true, 2),
            FinishedSeat {
                from: Some("home".into()),
                ..seat(Some("bo"), "Bo", false, 3)
            },
        ],
        ..rated.clone()
    };
    assert!(!one_place.counts());
    let ratings = store.player_ratings("ann").unwrap();
    assert_eq!(ratings.len(), 1);
    assert_eq!(
        (ratings[0].games, ratings[0].rating.mu),
        (1, fresh.mu + 1.0)
    );

    // A second rated game moves the kept rating on.
    let again = FinishedGame {
        table: "g3".into(),
        at: 3_000,
        ..rated
    };
    let changes = store.record_game(&again, rate_by_place).unwrap();
    assert_eq!(
        (changes[0].before.mu, changes[0].after.mu),
        (fresh.mu + 1.0, fresh.mu + 2.0),
        "from the rating kept"
    );
    let ratings = store.player_ratings("ann").unwrap();
    assert_eq!(
        (ratings[0].games, ratings[0].rating.mu),
        (2, fresh.mu + 2.0)
    );
    assert_eq!(store.leaderboard("dalmuti", "5-7", 10).unwrap(), []);
    assert_eq!(store.leaderboard("dalmuti", "3-4", 1).unwrap().len(), 1);

    // Two copies of one bot level: the level plays one more game, moved
    // by the mean of its copies' changes (places 1 and 3: +2 and 0).
    let copies = FinishedGame {
        table: "g4".into(),
        at: 4_000,
        seats: vec![
            seat(Some("bot:easy"), "easy", true, 1),
            seat(Some("ann"), "Ann", false, 2),
            seat(Some("bot:easy"), "easy", true, 3),
        ],
        ..again
    };
    let changes = store.record_game(&copies, rate_by_place).unwrap();
    assert_eq!(changes.len(), 2, "one change per key: {changes:?}");
    let easy = store.player_ratings("bot:easy").unwrap();
    assert_eq!(easy.len(), 1);
    assert_eq!((easy[0].games, easy[0].rating.mu), (1, fresh.mu + 1.0));
    assert_eq!(easy[0].rating.sigma, fresh.sigma - 1.0);
}

/// The tables a player sat at come back newest first, each once.
pub fn a_players_tables_are_listed_newest_first(store: &dyn Store) {
    store.add_player_table("ann", &"t1".into(), 10).unwrap();
    store.add_player_table("ann", &"t2".into(), 20).unwrap();
    store.add_player_table("ann", &"t1".into(), 30).unwrap();
    store.add_player_table("bo", &"t3".into(), 40).unwrap();
    let ann = store.player_tables("ann", 10).unwrap();
    assert_eq!(ann, vec![("t2".into(), 20), ("t1".into(), 10)]);
    assert_eq!(store.player_tables("ann", 1).unwrap().len(), 1);
    assert!(store.player_tables("cy", 10).unwrap().is_empty());
}

/// A report is kept once per reporter and line, newest first; a silence
/// keeps the silenced seats with the table and removes only the lines
/// named.
pub fn reports_are_kept_once_and_a_silence_removes_lines(store: &dyn Store) {
    let report = |n: u64, reporter: &str, at: u64| ReportRow {
        table: "t".into(),
        table_name: "Friday".into(),
        n,
        line: format!("{{\"n\":{n}}}"),
        reporter: reporter.into(),
        why: "rude".into(),
        at,
    };
    assert!(store.add_report(&report(3, "Ann", 10)).unwrap());
    assert!(
        !store.add_report(&report(3, "Ann", 11)).unwrap(),
        "once per reporter"
    );
    assert!(store.add_report(&report(3, "Bo", 12)).unwrap());
    assert!(store.add_report(&report(4, "Ann", 13)).unwrap());
    let kept = store.reports(10).unwrap();
    let order: Vec<(u64, &str)> = kept.iter().map(|r| (r.n, r.reporter.as_str())).collect();
    assert_eq!(order, [(4, "Ann"), (3, "Bo"), (3, "Ann")]);
    assert_eq!(kept[2], report(3, "Ann", 10));
    assert_eq!(store.reports(1).unwrap().len(), 1);

    store.create_table(&row("t", true)).unwrap();
    store
        .add_talk(&[
            line("t", 1, TalkKind::Chat, 50),
            line("t", 2, TalkKind::Chat, 50),
            line("t", 3, TalkKind::News, 50),
        ])
        .unwrap();
    let bo = Silenced {
        name: crate::names::PlayerName::new("Bo").unwrap(),
        player: Some("bo".into()),
        from: vec![Silenced::mark(&"t".into(), "192.0.2.1".parse().unwrap())],
        spared: vec![crate::names::PlayerName::new("Ann").unwrap()],
    };
    store
        .silence(&"t".into(), std::slice::from_ref(&bo), &[2, 3])
        .unwrap();
    let chat: Vec<u64> = store
        .talk(&"t".into(), TalkKind::Chat)
        .unwrap()
        .iter()
        .map(|l| l.0)
        .collect();
    assert_eq!(chat, [1]);
    assert_eq!(
        store.talk(&"t".into(), TalkKind::News).unwrap().len(),
        1,
        "news stays"
    );
    assert_eq!(
        store.live_table(&"t".into()).unwrap().unwrap().silenced,
        [bo]
    );
}

/// A player waits with one ticket (asking again answers it), the queue
/// holds at most its cap, tickets are claimed all or none, and seated only
/// once their table is made (a claim released waits again; one held too
/// long is found stale), and a ticket nobody polls is dropped.
pub fn a_ticket_waits_once_and_is_seated_once(store: &dyn Store) {
    let ticket = |id: &str, key: &str, since: u64| Ticket {
        id: id.into(),
        key: key.into(),
        name: crate::names::PlayerName::new(key).unwrap(),
        game: "dalmuti".into(),
        players: 3,
        wait_ms: 10_000,
        mu: 25.0,
        since,
        from: Some("origin".into()),
        seating: Seating::Waiting,
    };
    let seating = |id: &str, key: &str| store.poll_ticket(id, key, 400).unwrap().unwrap().seating;
    assert_eq!(
        store.enqueue(&ticket("a1", "ann", 100), 2).unwrap(),
        Enqueued::Waiting(ticket("a1", "ann", 100))
    );
    let again = store.enqueue(&ticket("a2", "ann", 150), 2).unwrap();
    assert_eq!(
        again,
        Enqueued::Waiting(ticket("a1", "ann", 100)),
        "one ticket a player"
    );
    assert!(matches!(
        store.enqueue(&ticket("b1", "bo", 200), 2).unwrap(),
        Enqueued::Waiting(_)
    ));
    assert_eq!(
        store.enqueue(&ticket("c1", "cy", 300), 2).unwrap(),
        Enqueued::Full
    );
    let ids: Vec<String> = store
        .waiting(0)
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(ids, ["a1", "b1"], "oldest first");

    // All or none: b1 is claimed, so a1 and b1 together are not.
    assert!(
        store
            .claim_tickets(&["b1".into()], &"t1".into(), 350)
            .unwrap()
    );
    assert!(
        !store
            .claim_tickets(&["a1".into(), "b1".into()], &"t2".into(), 360)
            .unwrap()
    );
    assert_eq!(seating("a1", "ann"), Seating::Waiting, "a1 is left waiting");
    assert_eq!(
        seating("b1", "bo"),
        Seating::Claimed {
            table: "t1".into(),
            since: 350
        },
        "claimed, not yet seated"
    );
    assert_eq!(
        store.poll_ticket("b1", "ann", 400).unwrap(),
        None,
        "a ticket is its player's"
    );
    // A claimed ticket is not waiting for another table, but its player
    // asking again keeps it, and cannot give it up halfway.
    assert_eq!(store.waiting(0).unwrap().len(), 1);
    assert!(
        matches!(store.enqueue(&ticket("b9", "bo", 370), 2).unwrap(), Enqueued::Waiting(t) if t.id == "b1")
    );
    assert!(!store.leave_queue("bo").unwrap());
    assert_eq!(store.stale_claims(350).unwrap(), Vec::<TableId>::new());
    assert_eq!(store.stale_claims(351).unwrap(), [TableId::from("t1")]);

    // Released, it waits again in its place; claimed again and seated,
    // it is seated there.
    assert_eq!(store.release_claim(&"t1".into()).unwrap(), 1);
    assert_eq!(seating("b1", "bo"), Seating::Waiting);
    assert!(
        store
            .claim_tickets(&["b1".into()], &"t3".into(), 380)
            .unwrap()
    );
    assert_eq!(store.seat_claimed(&"t3".into()).unwrap(), 1);
    assert_eq!(seating("b1", "bo"), Seating::Seated("t3".into()));
    assert_eq!(
        store.release_claim(&"t3".into()).unwrap(),
        0,
        "seated stays"
    );
    assert!(store.stale_claims(1 << 50).unwrap().is_empty());

    // Bo asks again after being seated: a new ticket.
    assert!(
        matches!(store.enqueue(&ticket("b2", "bo", 500), 2).unwrap(), Enqueued::Waiting(t) if t.id == "b2")
    );
    assert!(store.leave_queue("bo").unwrap());
    assert!(!store.leave_queue("bo").unwrap());
    // Ann was last seen at 400: dropped as stale after it.
    assert_eq!(store.waiting(399).unwrap().len(), 1);
    assert!(store.waiting(401).unwrap().is_empty());
}
