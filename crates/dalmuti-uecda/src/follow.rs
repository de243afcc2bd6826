//! A client's side of a game: the tables it is sent hold no events, only
//! hands, counts and the cards on the table, so the game is followed from
//! them, as contest clients do, and replayed on the engine to give a bot a
//! view of its seat.
//!
//! What a player learns from the tables: its own cards (before the
//! exchange in the tables dealt to the poor, after it for the rich), every
//! player's count, the seats and classes; after each turn, who acted
//! (`[5][3]`) and, when their count fell, what they put on the table. The
//! exchange is recovered as contest clients recover it: a poor player
//! compares its hand before and after (what was taken, what came back); a
//! rich player knows what it gave.
//!
//! The engine needs every seat's cards. The follower gives the other seats
//! cards consistent with all the player has seen (each holds what it has
//! played, what the player knows it holds, and its count; the holder of
//! the 3♦ leads) and replays the game on them from the deal, so the view
//! it hands the bot is exactly what the player may know: its own cards,
//! the counts, the table, the log of plays and passes, its own exchange.
//! A rich player cannot know what the poor's tribute was (`protocol.html`,
//! 通信4); the follower takes its own best cards for it, which tells the
//! bot no more than the truth would (the poor kept nothing better than
//! what was taken).

use dalmuti_bots::{Bot, fallback};
use dalmuti_core::{Action, Card, Cards, Hand, Rules, Seat, Set, Stage, Suit, View, Viewer};

use crate::cells::{Cells, Submitted};
use crate::state::{PLAYERS, PlayerNo, StateTable, Turn};

/// A table the follower cannot make sense of, or a game it cannot replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FollowError {
    /// A message came before the game it belongs to was dealt.
    #[error("no game has been dealt yet")]
    NoGame,
    /// A table whose cards are no hand or no play.
    #[error("{0}")]
    BadTable(String),
    /// The tables contradict each other or the rules (another server's
    /// rules, or a fault in this follower).
    #[error("the tables do not fit together: {0}")]
    Inconsistent(String),
}

/// The cards of the 52-card pack and the Joker.
fn whole_pack() -> Cards {
    Cards::from_pack((1u64 << 52) - 1, 1)
}

/// A card's strength in the order the server takes a poor player's best
/// cards (`Cards::best`): 0 the Joker, then 2♠ 2♥ 2♦ 2♣, A♠ … 3♣.
fn strength_rank(card: Card) -> u32 {
    match (card.place(), card.suit()) {
        (Some(place), Some(suit)) => 1 + 4 * u32::from(13 - place) + suit.index() as u32,
        _ => 0,
    }
}

/// One game as a player follows it.
#[derive(Clone, Debug)]
struct Following {
    seats: [PlayerNo; PLAYERS],
    /// The players by class, 大富豪 first, in a game with classes.
    ranking: Option<[PlayerNo; PLAYERS]>,
    /// Each player's count as dealt (the same after the exchange).
    dealt_counts: [u8; PLAYERS],
    /// The player's cards in the table dealt.
    dealt: Cards,
    /// The player's cards once play began, and who leads.
    start: Option<(Cards, PlayerNo)>,
    /// Each turn's player and play (`None` for a pass), in order.
    actions: Vec<(PlayerNo, Option<Set>)>,
    /// The counts in the last table.
    counts: [u8; PLAYERS],
    /// The player's cards in the last hand table.
    cards: Cards,
}

/// A player's side of a match: feed it every table the server sends, and
/// it answers with the bot's choices. See the module's documentation.
///
/// ```
/// use dalmuti_uecda::{Cells, Deal, EndFlag, Follower, MatchConfig, PlayerNo, Referee, StateTable};
/// // A referee deals; player 2 follows its tables and plays by a bot.
/// let names = ["a", "b", "c", "d", "e"].map(String::from);
/// let config = MatchConfig { games: 1, class_cycle: 100, seed: 3.into() };
/// let mut referee = Referee::new(names, config).unwrap();
/// let me = PlayerNo::new(2).unwrap();
/// let mut follower = Follower::new(me);
/// let mut bot = "greedy".parse::<dalmuti_bots::BotSpec>().unwrap().build(1).unwrap();
/// let dealt = referee.start_game(Deal::Shuffled).unwrap();
/// follower.dealt(&StateTable::from_table(&dealt[2]).unwrap()).unwrap();
/// loop {
///     let player = referee.turn().unwrap();
///     let hand = StateTable::from_table(&referee.turn_tables()[2]).unwrap();
///     follower.hand(&hand).unwrap();
///     let cells = if player == me { follower.decide(&mut *bot).unwrap() } else { Cells::EMPTY };
///     let outcome = referee.play(player, &cells).unwrap();
///     follower.table(&StateTable::from_table(&outcome.table).unwrap()).unwrap();
///     if outcome.end != EndFlag::Continue { break; }
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Follower {
    me: PlayerNo,
    rules: Rules,
    game: Option<Following>,
}

impl Follower {
    /// Follows the games of `me` under the contest's rules.
    pub fn new(me: PlayerNo) -> Follower {
        Follower {
            me,
            rules: Rules::daifugo(),
            game: None,
        }
    }

    /// The player followed.
    pub fn me(&self) -> PlayerNo {
        self.me
    }

    fn following(&self) -> Result<&Following, FollowError> {
        self.game.as_ref().ok_or(FollowError::NoGame)
    }

    /// A table dealt at the start of a game (通信4).
    pub fn dealt(&mut self, table: &StateTable) -> Result<(), FollowError> {
        let dealt = table
            .cards
            .hand()
            .map_err(|e| FollowError::BadTable(format!("the hand dealt: {e}")))?;
        let ranking = table.has_classes().then(|| {
            let mut by_class = PlayerNo::ALL;
            for p in PlayerNo::ALL {
                by_class[usize::from(table.classes[p.index()])] = p;
            }
            by_class
        });
        if let Some(r) = ranking
            && PlayerNo::ALL.iter().any(|p| !r.contains(p))
        {
            return Err(FollowError::BadTable(
                "the classes dealt are not each player's once".into(),
            ));
        }
        self.game = Some(Following {
            seats: table.seats,
            ranking,
            dealt_counts: table.counts,
            dealt,
            start: None,
            actions: Vec::new(),
            counts: table.counts,
            cards: dealt,
        });
        Ok(())
    }

    /// A hand table before a turn (通信6).
    pub fn hand(&mut self, table: &StateTable) -> Result<(), FollowError> {
        let cards = table
            .cards
            .hand()
            .map_err(|e| FollowError::BadTable(format!("the hand: {e}")))?;
        let game = self.game.as_mut().ok_or(FollowError::NoGame)?;
        if game.start.is_none() {
            let Turn::Player(first) = table.turn else {
                return Err(FollowError::BadTable("a turn of nobody's".into()));
            };
            game.start = Some((cards, first));
        }
        game.cards = cards;
        game.counts = table.counts;
        Ok(())
    }

    /// The table sent after a turn (通信9): who acted, and what they put
    /// on the table if their count fell.
    pub fn table(&mut self, table: &StateTable) -> Result<(), FollowError> {
        let game = self.game.as_mut().ok_or(FollowError::NoGame)?;
        let Turn::Player(actor) = table.turn else {
            return Err(FollowError::BadTable("a turn of nobody's".into()));
        };
        let before = game.counts[actor.index()];
        let after = table.counts[actor.index()];
        let action = if after < before {
            match table.cards.read() {
                Submitted::Play(set) if u32::from(set.size()) == u32::from(before - after) => {
                    Some(set)
                }
                other => {
                    return Err(FollowError::BadTable(format!(
                        "{actor} put down {} cards, but the table holds {other:?}",
                        before - after
                    )));
                }
            }
        } else {
            None
        };
        game.actions.push((actor, action));
        game.counts = table.counts;
        Ok(())
    }

    /// The bot's answer to the decision at hand, as the cells to send: the
    /// cards a rich player gives back after the tables dealt, or the play
    /// when its hand table says it is its turn. A bot that fails to answer
    /// is answered for (a pass, or the worst cards).
    pub fn decide(&self, bot: &mut dyn Bot) -> Result<Cells, FollowError> {
        let hand = self.shadow()?;
        let seat = self.seat()?;
        let game = self.following()?;
        if hand.stage() == Stage::Play && hand.held(seat) != game.cards {
            return Err(FollowError::Inconsistent(format!(
                "{} holds {} as followed, {} by the server's table",
                self.me,
                hand.held(seat),
                game.cards
            )));
        }
        let view = View::new(&hand, Viewer::Seat(seat));
        let legal = view.legal_actions();
        if legal.is_empty() {
            return Err(FollowError::Inconsistent(format!(
                "{} has nothing to decide in the game as followed",
                self.me
            )));
        }
        let action = bot
            .decide(&view, &legal)
            .unwrap_or_else(|_| fallback(&legal));
        Ok(Cells::of_action(&action))
    }

    /// The player's seat this game.
    pub fn seat(&self) -> Result<Seat, FollowError> {
        let game = self.following()?;
        let i = game.seats.iter().position(|&p| p == self.me).unwrap_or(0);
        Ok(Seat::new(i))
    }

    /// The game as followed so far, on the engine: the player's seat holds
    /// its own cards, the others cards consistent with everything it has
    /// seen (see the module's documentation). Only the player's view of it
    /// is true to the game.
    pub fn shadow(&self) -> Result<Hand, FollowError> {
        let g = self.following()?;
        let seat = |p: PlayerNo| Seat::new(g.seats.iter().position(|&q| q == p).unwrap_or(0));
        let me = self.me;
        // The exchange's pairs: (rich, poor, cards).
        let pairs: Vec<(PlayerNo, PlayerNo, u32)> = match g.ranking {
            Some(r) => vec![(r[0], r[4], 2), (r[1], r[3], 1)],
            None => Vec::new(),
        };
        let my_pair = pairs.iter().find(|&&(r, p, _)| r == me || p == me).copied();
        let inconsistent = |what: String| FollowError::Inconsistent(what);

        // What the player knows of the exchange.
        let mut my_dealt = g.dealt;
        let mut fake_tribute = Cards::EMPTY;
        let mut known = [Cards::EMPTY; PLAYERS];
        let mut gifts: Vec<(PlayerNo, Cards)> = Vec::new();
        if let Some((rich, poor, k)) = my_pair {
            if rich == me {
                // Its own best cards stand for the tribute (see above).
                fake_tribute = g.dealt.best(k);
                my_dealt.remove_all(&fake_tribute);
                if let Some((start, _)) = g.start {
                    let given = g.dealt.missing_from(&start);
                    if given.len() != k {
                        return Err(inconsistent(format!(
                            "{me} gave back {} cards, not {k}",
                            given.len()
                        )));
                    }
                    known[poor.index()].add_all(&given);
                    gifts.push((me, given));
                }
            } else if let Some((start, _)) = g.start {
                let tribute = g.dealt.best(k);
                let mut kept = g.dealt;
                kept.remove_all(&tribute);
                let received = start.missing_from(&kept);
                if received.len() != k || !start.contains(&kept) {
                    return Err(inconsistent(format!(
                        "{me}'s hand before and after the exchange ({} and {start})",
                        g.dealt
                    )));
                }
                known[rich.index()].add_all(&tribute.missing_from(&received));
                gifts.push((rich, received));
            }
        }
        // Cards played, and who leads.
        let mut played = [Cards::EMPTY; PLAYERS];
        for &(p, set) in &g.actions {
            if let Some(set) = set {
                played[p.index()].add_all(&set.cards());
            }
        }
        let mine_at_start = match g.start {
            Some((cards, _)) => cards,
            None => g.dealt,
        };
        if let Some((_, first)) = g.start {
            let three = Card::suited(1, Suit::Diamonds).expect("the 3♦");
            let seen = played.iter().any(|c| c.count(three) > 0)
                || known.iter().any(|c| c.count(three) > 0);
            if first != me && mine_at_start.count(three) == 0 && !seen {
                known[first.index()].add(three, 1);
            }
        }
        // Each other player's cards once play began: what it played, what
        // the player knows it holds, and cards nobody has seen.
        let mut pool = whole_pack();
        pool.remove_all(&if g.start.is_some() {
            mine_at_start
        } else {
            g.dealt
        });
        let mut held = [Cards::EMPTY; PLAYERS];
        for p in PlayerNo::ALL.into_iter().filter(|&p| p != me) {
            let mut base = played[p.index()];
            for card in known[p.index()].iter() {
                if base.count(card) == 0 {
                    base.add(card, 1);
                }
            }
            if !pool.contains(&base) {
                return Err(inconsistent(format!(
                    "{p} holds cards seen elsewhere: {base}"
                )));
            }
            pool.remove_all(&base);
            held[p.index()] = base;
        }
        if g.start.is_none() {
            // The exchange is being decided: the poor player holds the
            // tribute the rich player was given.
            if let Some((rich, poor, _)) = my_pair
                && rich == me
            {
                held[poor.index()].add_all(&fake_tribute);
            }
        }
        // Fill up: first the poor player of a rich player, with cards
        // weaker than the tribute; then the others.
        let mut order: Vec<PlayerNo> = PlayerNo::ALL.into_iter().filter(|&p| p != me).collect();
        let weak_limit = fake_tribute.iter().map(strength_rank).max().unwrap_or(0);
        if let Some((rich, poor, _)) = my_pair
            && rich == me
        {
            order.retain(|&p| p != poor);
            order.insert(0, poor);
        }
        for p in order {
            let size = if g.start.is_some() {
                u32::from(g.counts[p.index()]) + played[p.index()].len()
            } else {
                u32::from(g.dealt_counts[p.index()])
            };
            let weak_only =
                !fake_tribute.is_empty() && my_pair.is_some_and(|(_, poor, _)| poor == p);
            let mut candidates: Vec<Card> = pool.iter().collect();
            candidates.sort_by_key(|&c| std::cmp::Reverse(strength_rank(c)));
            for card in candidates {
                if held[p.index()].len() >= size {
                    break;
                }
                if weak_only && strength_rank(card) <= weak_limit {
                    continue;
                }
                held[p.index()].add(card, 1);
                pool.remove(card, 1);
            }
            if held[p.index()].len() != size {
                return Err(inconsistent(format!(
                    "no cards left to give {p} its {size}"
                )));
            }
        }
        // The deal those hands come from.
        let mut dealt = [Cards::EMPTY; PLAYERS];
        for p in PlayerNo::ALL {
            dealt[p.index()] = if p == me { my_dealt } else { held[p.index()] };
        }
        // The server reads the 大富豪's cards before the 富豪's: while the
        // 富豪 decides, the 大富豪 has given back.
        let settled = |rich: PlayerNo| {
            g.start.is_some() || g.ranking.is_some_and(|r| r[0] == rich && r[1] == me)
        };
        for &(rich, poor, k) in pairs.iter().filter(|&&(rich, _, _)| settled(rich)) {
            if rich == me {
                let given = gifts.iter().find(|(r, _)| *r == me).map(|g| g.1);
                let d = &mut dealt[poor.index()];
                d.remove_all(&given.unwrap_or_default());
                d.add_all(&fake_tribute);
            } else if poor == me {
                let received = gifts.iter().find(|(r, _)| *r == rich).map(|g| g.1);
                let tribute = g.dealt.best(k);
                let d = &mut dealt[rich.index()];
                d.add_all(&received.unwrap_or_default());
                if !d.remove_all(&tribute) {
                    return Err(inconsistent(format!("{rich} cannot have had the tribute")));
                }
            } else {
                // Another pair: the rich player gave back what it got.
                let tribute = dealt[poor.index()].best(k);
                gifts.push((rich, tribute));
            }
        }
        let by_seat: Vec<Cards> = (0..PLAYERS).map(|s| dealt[g.seats[s].index()]).collect();
        let ranking: Option<Vec<Seat>> = g.ranking.map(|r| r.iter().map(|&p| seat(p)).collect());
        let mut hand = Hand::from_deal_ranked(self.rules, PLAYERS, ranking.as_deref(), &by_seat, 0)
            .map_err(|e| inconsistent(format!("the deal as followed: {e}")))?;
        for (rich, cards) in gifts {
            hand.apply(seat(rich), Action::GiveTax(cards))
                .map_err(|e| inconsistent(format!("the exchange as followed: {e}")))?;
        }
        if g.start.is_none() {
            return Ok(hand);
        }
        if hand.stage() != Stage::Play {
            return Err(inconsistent("the exchange did not end as followed".into()));
        }
        for (i, &(p, set)) in g.actions.iter().enumerate() {
            let action = set.map_or(Action::Pass, Action::Play);
            hand.apply(seat(p), action)
                .map_err(|e| inconsistent(format!("turn {} as followed: {e}", i + 1)))?;
        }
        Ok(hand)
    }
}
