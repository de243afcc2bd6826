//! A UECda match on the engine, message by message, as the contest's
//! reference server `tndhms` sends them (`daihu.c`, the loop in `main`):
//! the tables dealt, the exchange, each turn's hand tables, the answer to
//! a play, the table of the cards on the table and the end flag. No I/O:
//! the server ([`crate::serve`]) and the tests drive it.
//!
//! The engine decides every rule (`docs/RULES.md`, DF1–DF24); this module
//! only says it in the server's tables, cell for cell, including what the
//! reference server does that no rule asks for:
//!
//! - a pass while cards are on the table is answered 8 (refused), a pass
//!   on an empty table 9, and a refused play 8; all three count as a pass;
//! - the tables of a turn name the player who just acted and show the
//!   table before it clears (an 8-cut's 8s, the lock, the last pass);
//! - the tables dealt name the turn 6, hold the counts before the
//!   exchange, and show the 富豪 and 大富豪 their hands after the poor's
//!   cards were taken, the 貧民 and 大貧民 theirs before;
//! - the class cells follow the server's `mibun` array, which the players
//!   going out overwrite during a game: a player whose class was
//!   overwritten and who has not gone out shows 0 (the server shows what
//!   the last client sent in that cell; the kit's clients send 0).
//!
//! Cells the reference server copies from the last table a client sent
//! (row 5 from column 8, row 7) are 0 here.

use dalmuti_core::{
    Action, Cards, Decision, Effect, Event, Game, PlayerId, Rules, Seat, Seed, SetKind, TableError,
    View, Viewer, record::Record,
};

use crate::cells::{BadGift, Cells, Submitted};
use crate::state::{Ack, EndFlag, PLAYERS, PlayerNo, StateTable, Turn};
use crate::wire::RawTable;

/// A match's settings: the contest's `tndhms.cfg` values that change the
/// game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatchConfig {
    /// Games in the match (`GAME_NUMBER`).
    pub games: u32,
    /// Games in each class cycle: the first of each is played without
    /// classes and without the exchange (`FLASH_MIBUN_NUMBER`; 2 or more).
    pub class_cycle: u32,
    /// Everything random: the seats and the deals.
    pub seed: Seed,
}

impl MatchConfig {
    /// The engine's rules for this match: Daifugō as the contest plays it.
    pub fn rules(&self) -> Rules {
        let mut rules = Rules::daifugo();
        rules.hands = Some(self.games);
        rules.climbing = Some(dalmuti_core::Climbing {
            class_cycle: self.class_cycle,
            ..dalmuti_core::Climbing::UECDA
        });
        rules
    }
}

/// How a game is dealt.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Deal {
    /// By the engine, from the match's seed (seats drawn again where the
    /// rules say).
    Shuffled,
    /// As another server dealt it (a recorded match): the player in each
    /// seat (the same as the last game's but where the rules draw seats
    /// again) and each player's cards before the exchange, by player.
    Given {
        /// The player in each seat, seat 0 first.
        seats: [PlayerNo; PLAYERS],
        /// Each player's cards as dealt, by player number.
        cards: [Cards; PLAYERS],
        /// The number a stalemate's places are drawn from
        /// ([`dalmuti_core::Hand::chance`]; 0 for another server's deal,
        /// whose stalemates are not drawn as ours are).
        chance: u64,
    },
}

/// What came of a rich player's exchange table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExchangeOutcome {
    /// The cards given back.
    pub given: Cards,
    /// Why the table could not be taken, when the player's strongest
    /// cards were given in its place.
    pub replaced: Option<BadGift>,
}

/// What came of a play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayOutcome {
    /// The answer sent to the player.
    pub ack: Ack,
    /// What the engine applied: the play, or a pass.
    pub action: Action,
    /// Why a play was refused (a pass is not refused, even when answered
    /// 8).
    pub refused: Option<String>,
    /// The table sent to everyone: the cards on the table and the state.
    pub table: RawTable,
    /// The flag sent to everyone after it.
    pub end: EndFlag,
}

/// A message the match cannot take now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RefereeError {
    /// The table could not be seated or dealt.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A player acted out of turn.
    #[error("{player} acted, but it is not their turn ({expected})")]
    NotTheirTurn {
        /// Who acted.
        player: PlayerNo,
        /// Whose turn it is, if anyone's.
        expected: String,
    },
    /// The match is over, or a game is still being played.
    #[error("{0}")]
    Phase(&'static str),
    /// The engine refused what the rules must allow (a bug).
    #[error("the engine refused {0}")]
    Engine(String),
}

/// A UECda match refereed by the engine. See the module's documentation.
///
/// ```
/// use dalmuti_uecda::{Cells, Deal, EndFlag, MatchConfig, PlayerNo, Referee};
/// let names = ["a", "b", "c", "d", "e"].map(String::from);
/// let config = MatchConfig { games: 1, class_cycle: 100, seed: 7.into() };
/// let mut referee = Referee::new(names, config).unwrap();
/// let dealt = referee.start_game(Deal::Shuffled).unwrap();
/// assert_eq!(dealt[0].get(5, 3), 6); // the turn while dealing
/// // Everyone passes until the twenty passes in a row end the game.
/// let mut end = EndFlag::Continue;
/// while end == EndFlag::Continue {
///     let player = referee.turn().unwrap();
///     end = referee.play(player, &Cells::EMPTY).unwrap().end;
/// }
/// assert_eq!(end, EndFlag::MatchOver);
/// assert_eq!(PlayerNo::ALL.map(|p| referee.points(p)).iter().sum::<u32>(), 15);
/// ```
#[derive(Clone, Debug)]
pub struct Referee {
    game: Game,
    config: MatchConfig,
    names: [String; PLAYERS],
    ids: [PlayerId; PLAYERS],
    /// The server's `mibun`: the last game's finishing order, overwritten
    /// from the top as players go out.
    mibun: [PlayerNo; PLAYERS],
    /// The cards on the table as their player sent them (a lone Joker's
    /// cell, which the rules ignore, shows where it was put).
    stage: Cells,
    /// The server's `now_shibari`.
    lock: bool,
    /// Whether the current game has classes.
    classes: bool,
    /// The match is over.
    over: bool,
}

impl Referee {
    /// A match of five players (their names by player number, each
    /// different), seated at random from the seed.
    pub fn new(names: [String; PLAYERS], config: MatchConfig) -> Result<Referee, RefereeError> {
        let game = Game::drawn(config.rules(), names.to_vec(), config.seed)?;
        Referee::with_game(game, names, config)
    }

    /// A match seated as given (the player in each seat, seat 0 first).
    pub fn seated(
        names: [String; PLAYERS],
        seats: [PlayerNo; PLAYERS],
        config: MatchConfig,
    ) -> Result<Referee, RefereeError> {
        let seating = seats.map(|p| names[p.index()].clone()).to_vec();
        let game = Game::seated(config.rules(), seating, config.seed)?;
        Referee::with_game(game, names, config)
    }

    fn with_game(
        game: Game,
        names: [String; PLAYERS],
        config: MatchConfig,
    ) -> Result<Referee, RefereeError> {
        let ids: Vec<PlayerId> = names
            .iter()
            .map(|name| {
                game.player_named(name)
                    .ok_or_else(|| TableError::UnknownPlayer(name.clone()))
            })
            .collect::<Result<_, _>>()?;
        let ids: [PlayerId; PLAYERS] = ids.try_into().expect("five names, five players");
        Ok(Referee {
            game,
            config,
            names,
            ids,
            mibun: PlayerNo::ALL,
            stage: Cells::EMPTY,
            lock: false,
            classes: false,
            over: false,
        })
    }

    /// The match's settings.
    pub fn config(&self) -> &MatchConfig {
        &self.config
    }

    /// The engine's game: every game of the match so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The match as a game record (`dalmuti-record/2`).
    pub fn record(&self) -> Record {
        Record::from_game(&self.game)
    }

    /// A player's name.
    pub fn name(&self, player: PlayerNo) -> &str {
        &self.names[player.index()]
    }

    /// A player's points so far (5 for a 大富豪 … 1 for a 大貧民 a game).
    pub fn points(&self, player: PlayerNo) -> u32 {
        self.game.total(self.ids[player.index()])
    }

    /// The number of the game being played or last played (1 for the
    /// first), 0 before the first.
    pub fn number(&self) -> u32 {
        self.game.hands().len() as u32
    }

    /// Whether every game has been played.
    pub fn is_over(&self) -> bool {
        self.over
    }

    fn seat(&self, player: PlayerNo) -> Seat {
        self.game
            .seat_of(self.ids[player.index()])
            .expect("every player is seated")
    }

    fn player_at(&self, seat: Seat) -> PlayerNo {
        let id = self.game.player_at(seat);
        let p = self.ids.iter().position(|&i| i == id).expect("a player");
        PlayerNo::ALL[p]
    }

    /// The players in each seat this game, seat 0 first.
    pub fn seats(&self) -> [PlayerNo; PLAYERS] {
        Seat::all(PLAYERS)
            .map(|s| self.player_at(s))
            .collect::<Vec<_>>()
            .try_into()
            .expect("five seats")
    }

    /// What `player` may see of the game now (for a bot in a seat).
    pub fn view(&self, player: PlayerNo) -> View<'_> {
        self.game.view(Viewer::Seat(self.seat(player)))
    }

    /// Deals the next game; the tables dealt, by player.
    pub fn start_game(&mut self, deal: Deal) -> Result<[RawTable; PLAYERS], RefereeError> {
        if self.over {
            return Err(RefereeError::Phase("the match is over"));
        }
        if !self.game.is_between_hands() {
            return Err(RefereeError::Phase("a game is being played"));
        }
        if !self.game.hands().is_empty() {
            self.mibun = self.finish_order();
        }
        self.classes = self.game.ranked_next();
        match deal {
            Deal::Shuffled => self.game.next_hand()?,
            Deal::Given {
                seats,
                cards,
                chance,
            } => {
                let seating: Vec<PlayerId> = seats.iter().map(|p| self.ids[p.index()]).collect();
                let dealt: Vec<Cards> = seats.iter().map(|p| cards[p.index()]).collect();
                self.game.next_hand_seated(&seating, &dealt, chance)?;
            }
        }
        self.stage = Cells::EMPTY;
        self.lock = false;
        let exchange = self.game.hand().taxed();
        let hand = self.game.hand();
        let mut base = StateTable {
            exchanging: true,
            turn: Turn::Dealing,
            seats: self.seats(),
            classes: self.class_row(),
            ..StateTable::default()
        };
        for p in PlayerNo::ALL {
            base.counts[p.index()] = hand.dealt(self.seat(p)).len() as u8;
        }
        let mut tables = [RawTable::ZERO; PLAYERS];
        for (class, &p) in self.mibun.iter().enumerate() {
            let seat = self.seat(p);
            let cards = if class >= 3 {
                hand.dealt(seat)
            } else {
                hand.held(seat)
            };
            let mut state = base;
            state.cards = Cells::of_hand(&cards);
            state.exchange = if exchange { 2 - class as i8 } else { 0 };
            tables[p.index()] = state.to_table();
        }
        Ok(tables)
    }

    /// The rich players still to give back cards, in the order the
    /// reference server reads them (the 大富豪 first), with how many.
    pub fn to_exchange(&self) -> Vec<(PlayerNo, u8)> {
        let hand = self.game.hand();
        self.mibun[..2]
            .iter()
            .filter_map(|&p| match hand.decision(self.seat(p)) {
                Some(Decision::Tax { count, .. }) => Some((p, count)),
                _ => None,
            })
            .collect()
    }

    /// A rich player's exchange table: the cards given back, or their
    /// strongest when the table cannot be taken (DF10).
    pub fn exchange(
        &mut self,
        player: PlayerNo,
        cells: &Cells,
    ) -> Result<ExchangeOutcome, RefereeError> {
        let owed = self
            .to_exchange()
            .into_iter()
            .find(|&(p, _)| p == player)
            .map(|(_, count)| count)
            .ok_or_else(|| RefereeError::NotTheirTurn {
                player,
                expected: "the rich players give back cards".into(),
            })?;
        let seat = self.seat(player);
        let strict = self.mibun[0] == player;
        let held = self.game.hand().held(seat);
        let (given, replaced) = match cells.read_gift(&held, owed, strict) {
            Ok(given) => (given, None),
            Err(why) => (self.game.hand().strongest(seat, u32::from(owed)), Some(why)),
        };
        self.game
            .apply(seat, Action::GiveTax(given))
            .map_err(|e| RefereeError::Engine(e.to_string()))?;
        Ok(ExchangeOutcome { given, replaced })
    }

    /// Whose turn it is to play, once the exchange is done (`None` between
    /// games).
    pub fn turn(&self) -> Option<PlayerNo> {
        let hand = self.game.hand();
        (hand.stage() == dalmuti_core::Stage::Play).then(|| self.player_at(hand.turn()))
    }

    /// The tables sent to each player before a turn: their hand and the
    /// state, the player to play marked.
    pub fn turn_tables(&self) -> [RawTable; PLAYERS] {
        let hand = self.game.hand();
        let turn = self.turn();
        let mut base = self.state_now();
        base.turn = turn.map_or(Turn::Dealing, Turn::Player);
        let mut tables = [RawTable::ZERO; PLAYERS];
        for p in PlayerNo::ALL {
            let mut state = base;
            state.cards = Cells::of_hand(&hand.held(self.seat(p)));
            state.my_turn = turn == Some(p);
            tables[p.index()] = state.to_table();
        }
        tables
    }

    /// The state cells as they stand: the table, the counts, the classes.
    fn state_now(&self) -> StateTable {
        let hand = self.game.hand();
        let mut state = StateTable {
            table_clear: hand.top().is_none(),
            eleven_back: hand.eleven_back(),
            revolution: hand.reversed(),
            lock: self.lock,
            classes: self.class_row(),
            seats: self.seats(),
            ..StateTable::default()
        };
        for p in PlayerNo::ALL {
            state.counts[p.index()] = hand.held(self.seat(p)).len() as u8;
        }
        state
    }

    /// The class cells as the server writes them from `mibun`.
    fn class_row(&self) -> [u8; PLAYERS] {
        let mut row = [0u8; PLAYERS];
        if self.classes {
            for (class, p) in self.mibun.iter().enumerate() {
                row[p.index()] = class as u8;
            }
        }
        row
    }

    /// The current game's finishing order, by player.
    fn finish_order(&self) -> [PlayerNo; PLAYERS] {
        let mut order = self.mibun;
        for (i, &seat) in self.game.hand().finish_order().iter().enumerate() {
            order[i] = self.player_at(seat);
        }
        order
    }

    /// A player's play (or pass): the engine takes it or refuses it (a
    /// refused play is a pass), and the answer, the table everyone is sent
    /// and the end flag follow.
    pub fn play(&mut self, player: PlayerNo, cells: &Cells) -> Result<PlayOutcome, RefereeError> {
        if self.turn() != Some(player) {
            return Err(RefereeError::NotTheirTurn {
                player,
                expected: self
                    .turn()
                    .map_or("nobody's: no game is being played".into(), |p| {
                        p.to_string()
                    }),
            });
        }
        let seat = self.seat(player);
        let (clear_before, lock_before) = (self.game.hand().top().is_none(), self.lock);
        let logged = self.game.hand().events().len();
        let mut refused = None;
        let mut played = None;
        match cells.read() {
            Submitted::Pass => {}
            Submitted::Unreadable(why) => refused = Some(why.to_string()),
            Submitted::Play(set) => match self.game.apply(seat, Action::Play(set)) {
                Ok(()) => played = Some(set),
                Err(e) => refused = Some(e.reason.to_string()),
            },
        }
        let action = match played {
            Some(set) => Action::Play(set),
            None => {
                self.game
                    .apply(seat, Action::Pass)
                    .map_err(|e| RefereeError::Engine(e.to_string()))?;
                Action::Pass
            }
        };
        let ack = match (played, clear_before) {
            (Some(_), _) | (None, true) if refused.is_none() => Ack::Accepted,
            _ => Ack::Refused,
        };
        // The player who went out by this play takes their place before the
        // table is sent; the places a stalemate draws and the last
        // player's, after it (`daihu.c`: `mibun[j-1]=now_player` in the
        // turn, the others once it is sent).
        let events: Vec<Event> = self.game.hand().events()[logged..].to_vec();
        let mut placed_later = Vec::new();
        for event in &events {
            if let Event::WentOut { seat: out, place } = *event {
                let p = self.player_at(out);
                if out == seat {
                    self.mibun[usize::from(place)] = p;
                } else {
                    placed_later.push((place, p));
                }
            }
        }
        let lock = match played {
            Some(set) if set.kind() == SetKind::LoneJoker => false,
            Some(_) => {
                lock_before
                    || events
                        .iter()
                        .any(|e| matches!(e, Event::Effect(Effect::Locked { .. })))
            }
            None => lock_before,
        };
        if played.is_some() {
            self.stage = *cells;
        }
        let mut state = self.state_now();
        state.cards = self.stage;
        state.turn = Turn::Player(player);
        state.table_clear = played.is_none() && clear_before;
        state.lock = lock;
        let table = state.to_table();
        for (place, p) in placed_later {
            self.mibun[usize::from(place)] = p;
        }
        self.lock = lock;
        if self.game.hand().top().is_none() {
            self.stage = Cells::EMPTY;
            self.lock = false;
        }
        let end = if self.game.is_between_hands() {
            self.mibun = self.finish_order();
            if self.game.is_over() {
                self.over = true;
                EndFlag::MatchOver
            } else {
                EndFlag::GameOver
            }
        } else {
            EndFlag::Continue
        };
        Ok(PlayOutcome {
            ack,
            action,
            refused,
            table,
            end,
        })
    }
}
