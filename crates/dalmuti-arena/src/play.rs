//! Playing hands with bots: whose bot decides, what it may do, and what
//! happens when it fails.

use std::ops::ControlFlow;

use dalmuti_bots::{Bot, BotFault, fallback};
use dalmuti_core::{
    Action, ActionList, DealRng, Game, Hand, IllegalAction, MAX_PLAYERS, PerSeat, Rules, Seat,
    Seats, Seed, View, Viewer,
};
use serde::Serialize;

/// Lineup entries by seat: `seating[s]` is the entry at seat `s`.
pub(crate) type Seating = [u8; MAX_PLAYERS];

/// How often a bot failed, by kind. Each fault cost one decision, played
/// for the bot by [`dalmuti_bots::fallback`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Faults {
    /// Its process ended or could not be reached.
    pub crashed: u64,
    /// It gave no answer in time.
    pub timed_out: u64,
    /// It answered something that is not an action.
    pub garbage: u64,
    /// It answered an action that is not legal.
    pub illegal: u64,
}

impl Faults {
    /// All faults together.
    ///
    /// ```
    /// let f = dalmuti_arena::Faults { crashed: 1, illegal: 2, ..Default::default() };
    /// assert_eq!(f.total(), 3);
    /// ```
    pub fn total(&self) -> u64 {
        self.crashed + self.timed_out + self.garbage + self.illegal
    }

    pub(crate) fn add(&mut self, other: &Faults) {
        self.crashed += other.crashed;
        self.timed_out += other.timed_out;
        self.garbage += other.garbage;
        self.illegal += other.illegal;
    }

    fn count(&mut self, fault: &BotFault) {
        match fault {
            BotFault::Crashed(_) => self.crashed += 1,
            BotFault::TimedOut(_) => self.timed_out += 1,
            BotFault::Garbage(_) => self.garbage += 1,
            BotFault::Illegal(_) => self.illegal += 1,
        }
    }
}

/// A table hands are played at: the engine's [`Game`] (which keeps every
/// hand, for records) or a [`Series`] (which keeps only the current one).
/// Both deal the same cards from the same seed and show the same views.
pub(crate) trait Table {
    /// The current hand.
    fn hand(&self) -> &Hand;
    /// Entries by seat as dealt (before any greater revolution).
    fn dealt(&self) -> &Seating;
    /// What `seat` sees.
    fn view(&self, seat: Seat) -> View<'_>;
    /// Applies an action of the current hand.
    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), Box<IllegalAction>>;
    /// Plays the turns of the seats in `greedy` (seats of play whose bot
    /// is the greedy bot), each the first legal action, until another seat
    /// must decide (returned) or the hand is over.
    fn greedy_turns(&mut self, greedy: Seats) -> Option<Seat>;
    /// Settles a hand that is over (its points).
    fn end_hand(&mut self) {}
    /// Deals the next hand of the game, seated by the last finishing order.
    fn next_hand(&mut self);

    /// The entry playing at `seat` (after any greater revolution, which
    /// reverses the seating).
    #[inline]
    fn entry_at(&self, seat: Seat) -> usize {
        let hand = self.hand();
        let i = match hand.revolution() {
            Some(r) if r.greater => hand.players() - 1 - seat.index(),
            _ => seat.index(),
        };
        self.dealt()[i] as usize
    }
}

/// Hands in a series without their history: the current hand, the seating
/// and the scores.
pub(crate) struct Series {
    rules: Rules,
    rng: DealRng,
    hand: Hand,
    dealt: Seating,
    /// Points by entry.
    totals: [u32; MAX_PLAYERS],
}

impl Series {
    /// The first hand of a game seated by `seating`, dealt from `seed`:
    /// the same cards `Game::with_seating` deals.
    pub fn new(rules: Rules, players: usize, seating: Seating, seed: Seed) -> Series {
        let mut rng = DealRng::new(seed);
        let hand = Hand::deal(rules, players, true, &mut rng);
        Series {
            rules,
            rng,
            hand,
            dealt: seating,
            totals: [0; MAX_PLAYERS],
        }
    }
}

impl Table for Series {
    #[inline]
    fn hand(&self) -> &Hand {
        &self.hand
    }

    #[inline]
    fn dealt(&self) -> &Seating {
        &self.dealt
    }

    #[inline]
    fn view(&self, seat: Seat) -> View<'_> {
        let view = View::new(&self.hand, Viewer::Seat(seat));
        if self.rules.scoring == dalmuti_core::Scoring::None {
            return view;
        }
        let mut scores = PerSeat::<u32>::default();
        for s in Seat::all(self.hand.players()) {
            scores[s] = self.totals[self.entry_at(s)];
        }
        view.with_scores(scores)
    }

    #[inline]
    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), Box<IllegalAction>> {
        self.hand.apply(seat, action)
    }

    #[inline]
    fn greedy_turns(&mut self, greedy: Seats) -> Option<Seat> {
        greedy_turns(&mut self.hand, greedy)
    }

    fn end_hand(&mut self) {
        if let Some(points) = self.hand.points() {
            for s in Seat::all(self.hand.players()) {
                let e = self.entry_at(s);
                self.totals[e] += points[s];
            }
        }
    }

    fn next_hand(&mut self) {
        let mut next = [0u8; MAX_PLAYERS];
        for (i, &s) in self.hand.finish_order().iter().enumerate() {
            next[i] = self.entry_at(s) as u8;
        }
        self.dealt = next;
        self.hand = Hand::deal(self.rules, self.hand.players(), false, &mut self.rng);
    }
}

/// The engine's [`Game`], whose players are the lineup's labels.
pub(crate) struct GameTable {
    game: Game,
    /// Entry of each player (by `PlayerId::index`).
    entry_of: Seating,
    dealt: Seating,
}

impl GameTable {
    /// A game seated by `seating` (entry per seat), players named by
    /// `labels` (per entry), dealt from `seed`.
    pub fn new(rules: Rules, labels: &[String], seating: Seating, seed: Seed) -> GameTable {
        let n = labels.len();
        let names = seating[..n]
            .iter()
            .map(|&e| labels[e as usize].clone())
            .collect();
        let game = Game::with_seating(rules, names, seed).expect("a checked lineup seats");
        GameTable {
            game,
            entry_of: seating,
            dealt: seating,
        }
    }

    /// The game, for its record.
    pub fn game(&self) -> &Game {
        &self.game
    }
}

impl Table for GameTable {
    fn hand(&self) -> &Hand {
        self.game.hand()
    }

    fn dealt(&self) -> &Seating {
        &self.dealt
    }

    fn view(&self, seat: Seat) -> View<'_> {
        self.game.view(Viewer::Seat(seat))
    }

    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), Box<IllegalAction>> {
        self.game.apply(seat, action)
    }

    fn greedy_turns(&mut self, greedy: Seats) -> Option<Seat> {
        while let Some(seat) = self.game.hand().next_to_act() {
            if !greedy.contains(seat) {
                return Some(seat);
            }
            // The first legal action, which is what `worst_legal` gives
            // (whose only call must stay in `greedy_turns`).
            let mut first = None;
            self.game.hand().for_each_legal(seat, |a| {
                first = Some(a);
                ControlFlow::Break(())
            });
            let action = first.expect("a seat to act has a legal action");
            self.game
                .apply(seat, action)
                .expect("the first legal action is legal");
        }
        None
    }

    fn next_hand(&mut self) {
        self.game.next_hand().expect("the game has hands left");
        let log = self.game.hands().last().expect("dealt");
        for (i, p) in log.dealt_seating.iter().enumerate() {
            self.dealt[i] = self.entry_of[p.index()];
        }
    }
}

/// The lineup's bots at one work unit, with their faults.
///
/// Bots that always play the first legal action
/// ([`Bot::plays_first_legal`], the greedy bot) take a shortcut: the engine
/// computes that action directly as
/// [`Hand::worst_legal`] (without listing every legal action, most of the
/// cost of a decision). The choice is the same; a test checks it over
/// 600 hands, with taxes, revolutions and merchant exchanges.
pub(crate) struct Players {
    bots: Vec<Box<dyn Bot>>,
    /// Whether the entry plays the first legal action (decided by the
    /// shortcut).
    greedy: Vec<bool>,
    /// Faults by entry.
    pub faults: Vec<Faults>,
    legal: ActionList,
}

/// Plays the turns of the seats in `greedy`, each its worst legal action
/// (the greedy bot's choice, computed directly by the engine), until
/// another seat must decide (returned) or the hand is over.
///
/// This is the crate's only call of [`Hand::worst_legal`], so that the
/// compiler inlines it (a function called once is inlined whatever its
/// size; called from two places it is not). Out of line, its answer comes
/// back through memory, written a byte or two at a time, and copying it
/// whole reads it back at once in wider words: a store-forwarding stall
/// that cost a fifth of the time of a greedy hand.
#[inline(never)]
fn greedy_turns(hand: &mut Hand, greedy: Seats) -> Option<Seat> {
    while let Some(seat) = hand.next_to_act() {
        if !greedy.contains(seat) {
            return Some(seat);
        }
        let action = hand.worst_legal(seat).expect("a seat to act can act");
        hand.apply(seat, action)
            .expect("the worst legal action is legal");
    }
    None
}

/// How one hand ended, by lineup entry.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Outcome {
    /// Entries in finishing order.
    pub order: Seating,
    /// Each entry's title during play, as a seat of play (the Greater
    /// Dalmuti's, the Daifugō's, 0), or [`NO_TITLE`].
    pub seat: Seating,
}

/// An [`Outcome`]'s title of a player without one: everyone in a game of
/// the pack's first hand, where there are no classes yet.
pub(crate) const NO_TITLE: u8 = u8::MAX;

impl Players {
    /// The bots by entry; `greedy[e]` says entry `e` is the greedy bot.
    pub fn new(bots: Vec<Box<dyn Bot>>, greedy: Vec<bool>) -> Players {
        let faults = vec![Faults::default(); bots.len()];
        Players {
            bots,
            greedy,
            faults,
            legal: ActionList::new(),
        }
    }

    /// Restarts every bot's randomness for a hand: the bot at dealt seat
    /// `s` from `seed(s)`.
    pub fn reseed(&mut self, dealt: &Seating, seed: impl Fn(usize) -> u64) {
        let n = self.bots.len();
        for (s, &e) in dealt[..n].iter().enumerate() {
            self.bots[e as usize].reseed(seed(s));
        }
    }

    /// Plays the table's current hand to its end.
    pub fn play_hand<T: Table>(&mut self, table: &mut T) -> Outcome {
        // Greedy seats of play: they change only with a greater revolution,
        // which only another bot can call.
        let mut greedy = self.greedy_seats(table);
        while let Some(seat) = table.greedy_turns(greedy) {
            let entry = table.entry_at(seat);
            self.ask_bot(table, seat, entry);
            greedy = self.greedy_seats(table);
        }
        table.end_hand();
        let hand = table.hand();
        let mut outcome = Outcome {
            order: [0; MAX_PLAYERS],
            seat: [0; MAX_PLAYERS],
        };
        let suited = hand.rules().variant.is_suited();
        for (place, &s) in hand.finish_order().iter().enumerate() {
            let e = table.entry_at(s);
            outcome.order[place] = e as u8;
            // In President and Daifugō seats keep their places round the
            // table and the title is the class (none in a game's first
            // hand); in Dalmuti the seat of play is the title.
            outcome.seat[e] = if suited {
                hand.class(s).map_or(NO_TITLE, |class| class as u8)
            } else {
                s.index() as u8
            };
        }
        outcome
    }

    /// The seats of play whose bot is the greedy bot.
    fn greedy_seats<T: Table>(&self, table: &T) -> Seats {
        let mut seats = Seats::NONE;
        for s in Seat::all(table.hand().players()) {
            if self.greedy[table.entry_at(s)] {
                seats.insert(s);
            }
        }
        seats
    }

    /// Asks entry `entry`'s bot to decide for `seat`, and applies its
    /// answer, or the fallback if it fails.
    #[inline(never)]
    fn ask_bot<T: Table>(&mut self, table: &mut T, seat: Seat, entry: usize) {
        let action = {
            let view = table.view(seat);
            self.legal.clear();
            let legal = &mut self.legal;
            view.for_each_legal(|a| {
                legal.push(a);
                ControlFlow::Continue(())
            });
            match self.bots[entry].decide(&view, &self.legal) {
                Ok(action) => action,
                Err(fault) => {
                    self.faults[entry].count(&fault);
                    fallback(&self.legal)
                }
            }
        };
        // The engine refuses exactly the actions that are not legal, and a
        // refused action changes nothing.
        if table.apply(seat, action).is_err() {
            self.faults[entry].illegal += 1;
            table
                .apply(seat, fallback(&self.legal))
                .expect("the fallback is a legal action");
        }
    }
}
