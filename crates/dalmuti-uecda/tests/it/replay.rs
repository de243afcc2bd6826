//! Replays a transcript recorded from the reference server through our
//! [`Referee`]: the same seats, the same deal, the same tables from the
//! players; every message our server would send must be the recorded one,
//! byte for byte.

use std::collections::VecDeque;

use dalmuti_bots::{Bot, BotSpec};
use dalmuti_core::{Action, Cards, Seat, View};
use dalmuti_uecda::transcript::{Direction, Message, Transcript};
use dalmuti_uecda::{
    Cells, Deal, EndFlag, Follower, Hello, MatchConfig, PLAYERS, PlayerNo, RawTable, Referee,
    StateTable, Submitted,
};

/// The messages of each player, each way, in order.
pub struct Streams {
    to_server: Vec<VecDeque<Message>>,
    to_player: Vec<VecDeque<Message>>,
}

impl Streams {
    pub fn of(transcript: &Transcript) -> Streams {
        let mut s = Streams {
            to_server: vec![VecDeque::new(); PLAYERS],
            to_player: vec![VecDeque::new(); PLAYERS],
        };
        for line in &transcript.lines {
            let queue = match line.direction {
                Direction::ToServer => &mut s.to_server,
                Direction::ToPlayer => &mut s.to_player,
            };
            queue[line.player.index()].push_back(line.message.clone());
        }
        s
    }

    pub fn sent_by(&mut self, p: PlayerNo) -> Result<RawTable, String> {
        match self.to_server[p.index()].pop_front() {
            Some(Message::Table(t)) => Ok(t),
            Some(Message::Hex(h)) => RawTable::from_hex(&h).map_err(|e| e.to_string()),
            other => Err(format!("{p} sent {other:?} where a table was recorded")),
        }
    }

    pub fn table_to(&mut self, p: PlayerNo) -> Result<RawTable, String> {
        match self.to_player[p.index()].pop_front() {
            Some(Message::Table(t)) => Ok(t),
            Some(Message::Hex(h)) => RawTable::from_hex(&h).map_err(|e| e.to_string()),
            other => Err(format!("{p} was sent {other:?} where a table was expected")),
        }
    }

    pub fn int_to(&mut self, p: PlayerNo) -> Result<i32, String> {
        match self.to_player[p.index()].pop_front() {
            Some(Message::Int(n)) => Ok(n),
            other => Err(format!(
                "{p} was sent {other:?} where an integer was expected"
            )),
        }
    }

    /// Whether every message was used.
    pub fn is_done(&self) -> bool {
        self.to_server
            .iter()
            .chain(&self.to_player)
            .all(VecDeque::is_empty)
    }
}

/// What a replay went through.
#[derive(Debug, Default)]
pub struct Replayed {
    pub games: u32,
    pub tables: usize,
    pub refused_plays: usize,
    /// Why each refused play was refused.
    pub refusals: Vec<String>,
    pub passes_answered_8: usize,
    pub exchanges: usize,
    pub gifts_replaced: usize,
    /// Decisions the followers answered (and checked).
    pub followed: usize,
    /// Where the replay stopped at a difference between the reference
    /// server and the rules that dalmuti keeps on purpose (RULES.md,
    /// DF24): a Joker's 2 at the 3♠'s cell on a lone Joker, from a player
    /// holding the 3♠ but not the Joker, which the reference server takes
    /// as the 3♠ (the table clears and the player keeps the 3♠).
    pub stopped_at_df24: Option<String>,
}

/// Each player's follower and the bot it asks, when the replay checks the
/// client's side too.
pub struct Followers {
    players: Vec<(Follower, Box<dyn Bot>)>,
}

impl Followers {
    pub fn new(bot: &str) -> Followers {
        let spec: BotSpec = bot.parse().expect("a bot");
        Followers {
            players: PlayerNo::ALL
                .iter()
                .map(|&p| {
                    (
                        Follower::new(p),
                        spec.build(p.index() as u64).expect("built"),
                    )
                })
                .collect(),
        }
    }
}

/// What a player sees of the game as followed equals what it sees of the
/// true game, down to its legal actions.
pub fn same_view(ours: &View<'_>, truth: &View<'_>) -> Result<(), String> {
    let seats: Vec<Seat> = Seat::all(PLAYERS).collect();
    let facts = |v: &View<'_>| {
        format!(
            "cards {:?}; counts {:?}; top {:?}; lock {:?}; reversed {}; passed {:?}; turn {:?}; \
             out {:?}; decision {:?}; legal {:?}",
            v.cards(),
            seats.iter().map(|&s| v.card_count(s)).collect::<Vec<_>>(),
            v.top(),
            v.lock(),
            v.reversed(),
            v.passed(),
            v.turn(),
            v.finish_order(),
            v.decision(),
            v.legal_actions().to_vec(),
        )
    };
    let (a, b) = (facts(ours), facts(truth));
    if a == b {
        Ok(())
    } else {
        Err(format!(
            "the game as followed differs\n  followed: {a}\n  true:     {b}"
        ))
    }
}

/// The follower of `p` answers the decision `p` faces in the true game:
/// the same view, and an answer the true game takes.
fn follow_decision(
    followers: &mut Followers,
    referee: &Referee,
    p: PlayerNo,
    at: &str,
) -> Result<(), String> {
    let (follower, bot) = &mut followers.players[p.index()];
    let shadow = follower.shadow().map_err(|e| format!("{at}: {p}: {e}"))?;
    let seat = follower.seat().map_err(|e| e.to_string())?;
    let truth = referee.view(p);
    same_view(
        &View::new(&shadow, dalmuti_core::Viewer::Seat(seat)),
        &truth,
    )
    .map_err(|e| format!("{at}: {p}: {e}"))?;
    let cells = follower
        .decide(&mut **bot)
        .map_err(|e| format!("{at}: {p}: {e}"))?;
    let action = match truth.decision() {
        Some(dalmuti_core::Decision::Tax { .. }) => {
            Action::GiveTax(cells.hand().map_err(|e| e.to_string())?)
        }
        _ => match cells.read() {
            Submitted::Play(set) => Action::Play(set),
            Submitted::Pass => Action::Pass,
            Submitted::Unreadable(why) => return Err(format!("{at}: {p} answered {why}")),
        },
    };
    if !truth.legal_actions().contains(&action) {
        return Err(format!(
            "{at}: {p} would play {action}, which the game refuses"
        ));
    }
    Ok(())
}

/// Names as our server makes them: the client's own, told apart.
pub fn names(hellos: &[Hello]) -> [String; PLAYERS] {
    let mut names: Vec<String> = Vec::new();
    for (p, h) in hellos.iter().enumerate() {
        let mut name = h.name.clone();
        if name.is_empty() || names.contains(&name) {
            name = format!("{name}#{p}");
        }
        names.push(name);
    }
    names.try_into().expect("five")
}

fn same(ours: &RawTable, theirs: &RawTable, what: &str) -> Result<(), String> {
    if ours.to_bytes() == theirs.to_bytes() {
        return Ok(());
    }
    Err(format!(
        "{what}: the tables differ\n  ours:      {ours}\n  reference: {theirs}"
    ))
}

/// The deal of a game from the tables the reference server sent: the rich
/// were shown their hands after the poor's best cards were taken, so
/// their cards as dealt are those less the tribute.
pub fn deal_of(tables: &[StateTable; PLAYERS]) -> Result<Deal, String> {
    let mut cards = [Cards::EMPTY; PLAYERS];
    for p in 0..PLAYERS {
        cards[p] = tables[p].cards.hand().map_err(|e| e.to_string())?;
    }
    let classes = tables[0].classes;
    let by_class = |c: u8| classes.iter().position(|&k| k == c).expect("a class");
    if tables[0].has_classes() && tables.iter().any(|t| t.exchange > 0) {
        for (rich, poor, count) in [(0, 4, 2), (1, 3, 1)] {
            let tribute = cards[by_class(poor)].best(count);
            cards[by_class(rich)].remove_all(&tribute);
        }
    }
    Ok(Deal::Given {
        seats: tables[0].seats,
        cards,
        chance: 0,
    })
}

/// A lone Joker's 2 at the 3♠'s cell and nothing else.
fn is_df24(sent: &RawTable) -> bool {
    let cells = Cells::of_table(sent);
    let mut only = Cells::EMPTY;
    only.set(0, 1, 2);
    cells == only
}

/// Replays a whole recorded match; the first difference is the error.
pub fn replay(
    transcript: &Transcript,
    class_cycle: u32,
    mut followers: Option<&mut Followers>,
) -> Result<Replayed, String> {
    let mut s = Streams::of(transcript);
    let mut hellos = Vec::new();
    for p in PlayerNo::ALL {
        hellos.push(Hello::from_table(&s.sent_by(p)?));
        let number = s.int_to(p)?;
        if number != p.index() as i32 {
            return Err(format!("{p} was told it is player {number}"));
        }
    }
    let games = transcript
        .of_player(PlayerNo::ALL[0])
        .filter(|l| l.direction == Direction::ToPlayer)
        .filter(|l| matches!(l.message, Message::Int(1) | Message::Int(2)))
        .count() as u32;
    let mut done = Replayed::default();
    let mut referee: Option<Referee> = None;
    for g in 1..=games {
        let mut dealt = Vec::new();
        let mut raw = Vec::new();
        for p in PlayerNo::ALL {
            let t = s.table_to(p)?;
            dealt.push(StateTable::from_table(&t).map_err(|e| e.to_string())?);
            raw.push(t);
        }
        let dealt: [StateTable; PLAYERS] = dealt.try_into().expect("five");
        let deal = deal_of(&dealt)?;
        let referee = referee.get_or_insert_with(|| {
            let config = MatchConfig {
                games,
                class_cycle,
                seed: 0.into(),
            };
            Referee::seated(names(&hellos), dealt[0].seats, config).expect("seated")
        });
        let ours = referee
            .start_game(deal)
            .map_err(|e| format!("game {g}: {e}"))?;
        for p in PlayerNo::ALL {
            same(
                &ours[p.index()],
                &raw[p.index()],
                &format!("game {g}, dealt to {p}"),
            )?;
            done.tables += 1;
            if let Some(f) = followers.as_deref_mut() {
                f.players[p.index()]
                    .0
                    .dealt(&dealt[p.index()])
                    .map_err(|e| format!("game {g}: {p}: {e}"))?;
            }
        }
        for (p, _) in referee.to_exchange() {
            if let Some(f) = followers.as_deref_mut() {
                follow_decision(f, referee, p, &format!("game {g}, exchange"))?;
                done.followed += 1;
            }
            let t = s.sent_by(p)?;
            let outcome = referee
                .exchange(p, &Cells::of_table(&t))
                .map_err(|e| format!("game {g}: {e}"))?;
            done.exchanges += 1;
            done.gifts_replaced += usize::from(outcome.replaced.is_some());
        }
        for turn in 1.. {
            let at = format!("game {g}, turn {turn}");
            let tables = referee.turn_tables();
            for p in PlayerNo::ALL {
                same(
                    &tables[p.index()],
                    &s.table_to(p)?,
                    &format!("{at}, hand of {p}"),
                )?;
                done.tables += 1;
                if let Some(f) = followers.as_deref_mut() {
                    let state =
                        StateTable::from_table(&tables[p.index()]).map_err(|e| e.to_string())?;
                    f.players[p.index()]
                        .0
                        .hand(&state)
                        .map_err(|e| format!("{at}: {p}: {e}"))?;
                }
            }
            let player = referee.turn().ok_or(format!("{at}: nobody to play"))?;
            if let Some(f) = followers.as_deref_mut() {
                follow_decision(f, referee, player, &at)?;
                done.followed += 1;
            }
            let sent = s.sent_by(player)?;
            let outcome = referee
                .play(player, &Cells::of_table(&sent))
                .map_err(|e| format!("{at}: {e}"))?;
            let ack = s.int_to(player)?;
            if ack == 9 && outcome.ack.number() == 8 && is_df24(&sent) {
                done.stopped_at_df24 = Some(at);
                return Ok(done);
            }
            if ack != outcome.ack.number() {
                return Err(format!(
                    "{at}: {player} sent {sent}; we answer {} ({:?}), the reference {ack}",
                    outcome.ack.number(),
                    outcome.refused
                ));
            }
            if let Some(why) = &outcome.refused {
                done.refused_plays += 1;
                done.refusals.push(why.clone());
            } else if ack == 8 {
                done.passes_answered_8 += 1;
            }
            let state = StateTable::from_table(&outcome.table).map_err(|e| e.to_string())?;
            for p in PlayerNo::ALL {
                same(
                    &outcome.table,
                    &s.table_to(p)?,
                    &format!("{at}, table sent to {p}"),
                )?;
                done.tables += 1;
                if let Some(f) = followers.as_deref_mut() {
                    f.players[p.index()]
                        .0
                        .table(&state)
                        .map_err(|e| format!("{at}: {p}: {e}"))?;
                }
                let flag = s.int_to(p)?;
                if flag != outcome.end.number() {
                    return Err(format!(
                        "{at}: we send {p} the end flag {}, the reference {flag}",
                        outcome.end.number()
                    ));
                }
            }
            if outcome.end != EndFlag::Continue {
                break;
            }
        }
        done.games = g;
    }
    if !s.is_done() {
        return Err("messages left over after the last game".into());
    }
    Ok(done)
}
