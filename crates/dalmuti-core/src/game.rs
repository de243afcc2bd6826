//! A game: the players at a table and the hands they play in turn, with
//! titles, taxes and scores carried from one hand to the next.

use crate::action::IllegalAction;
use crate::cards::Cards;
use crate::deck::Deck;
use crate::draw::{DrawRound, draw_for_seats};
use crate::hand::{BadDeal, Hand, Stage};
use crate::rng::{DealRng, Seed};
use crate::rules::{Rules, Scoring};
use crate::seat::{MAX_PLAYERS, MIN_PLAYERS, Seat};
use crate::view::{View, Viewer};

/// A player at the table, the same across hands (seats change every hand).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(u16);

impl PlayerId {
    /// The player's number in order of arrival at the table (0-based).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub(crate) fn from_index(index: usize) -> PlayerId {
        PlayerId(index as u16)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Player {
    name: String,
    total: u32,
}

/// One hand of a game, with the table changes made before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandLog {
    /// Players who left before this hand.
    pub left: Vec<PlayerId>,
    /// Newcomers seated before this hand, one at a time, at these seats.
    pub joined: Vec<(PlayerId, usize)>,
    /// The players by seat at the deal (before any greater revolution).
    pub dealt_seating: Vec<PlayerId>,
    /// The hand itself.
    pub hand: Hand,
}

impl HandLog {
    /// The player at a seat of play (after any greater revolution).
    pub fn player_at(&self, seat: Seat) -> PlayerId {
        let i = seat.index();
        match self.hand.revolution() {
            Some(r) if r.greater => self.dealt_seating[self.dealt_seating.len() - 1 - i],
            _ => self.dealt_seating[i],
        }
    }

    /// The seat of play of a player in this hand.
    pub fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        Seat::all(self.dealt_seating.len()).find(|&s| self.player_at(s) == player)
    }

    /// The players in finishing order so far.
    pub fn finishers(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.hand.finish_order().iter().map(|&s| self.player_at(s))
    }
}

/// Why a table change or a deal was refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// Not 3 to 16 players.
    #[error("a table seats 3 to 16 players, not {0}")]
    Players(usize),
    /// The rules cannot seat this table (the variant's table sizes, a
    /// stripped Corporate Shuffle deck).
    #[error(transparent)]
    Rules(#[from] crate::rules::BadRules),
    /// An empty name.
    #[error("a player's name cannot be empty")]
    EmptyName,
    /// A name already at the table.
    #[error("{0:?} is already a name at this table")]
    DuplicateName(String),
    /// No player of that name is seated.
    #[error("no player named {0:?} is seated")]
    UnknownPlayer(String),
    /// Only between hands.
    #[error("players join, leave and deal only between hands")]
    HandInProgress,
    /// The set number of hands has been played.
    #[error("the game is over: its {0} hands have been played")]
    GameOver(u32),
    /// The table's rules forbid joining and leaving.
    #[error("this table does not allow joining or leaving")]
    Closed,
    /// Between two hands, players leave before newcomers are seated (the
    /// order a game record applies them in).
    #[error("players leave before newcomers join: {0} cannot leave now")]
    LeaveAfterJoin(String),
    /// Leaving would leave fewer than three players.
    #[error("a table needs at least 3 players")]
    TooFew,
    /// Joining would seat more than sixteen.
    #[error("a table seats at most 16 players")]
    TooMany,
    /// The seat is not halfway down the table.
    #[error("a newcomer sits halfway down the table: seat {}", seats_words(.0))]
    JoinSeat(Vec<usize>),
    /// The cards given for a deal are not a valid deal.
    #[error(transparent)]
    BadDeal(#[from] BadDeal),
    /// A seating that is not the table's (President, Daifugō).
    #[error("{0}")]
    Seating(String),
}

fn seats_words(seats: &[usize]) -> String {
    let words: Vec<String> = seats.iter().map(usize::to_string).collect();
    let choice = if seats.len() > 1 {
        " (the Greater Dalmuti chooses)"
    } else {
        ""
    };
    format!("{}{choice}", words.join(" or "))
}

/// Where a newcomer may sit when joining a table of `players`: halfway
/// between the Greater Dalmuti and the Greater Peon, so one seat when the
/// count is even and two (the Greater Dalmuti's choice) when it is odd.
///
/// ```
/// assert_eq!(dalmuti_core::join_seats(4), vec![2]);
/// assert_eq!(dalmuti_core::join_seats(5), vec![2, 3]);
/// ```
pub fn join_seats(players: usize) -> Vec<usize> {
    if players % 2 == 0 {
        vec![players / 2]
    } else {
        vec![(players - 1) / 2, players.div_ceil(2)]
    }
}

/// A game at one table: its players, its rules, its random stream and every
/// hand dealt so far (the last is the current one).
///
/// ```
/// use dalmuti_core::{Game, Rules, Scoring, Seed};
/// let rules = Rules { scoring: Scoring::Standard, hands: Some(2), ..Rules::default() };
/// let names = ["Amity", "Anton", "Cherise", "Dana", "Sondra"].map(String::from).to_vec();
/// let mut game = Game::new(rules, names, Seed::from(7)).unwrap();
/// while !game.is_over() {
///     while let Some(seat) = game.hand().next_to_act() {
///         let action = game.hand().worst_legal(seat).unwrap();
///         game.apply(seat, action).unwrap();
///     }
///     if !game.is_over() {
///         game.next_hand().unwrap();
///     }
/// }
/// // Two hands, 4+3+2+1+0 points each.
/// assert_eq!(game.players().map(|p| game.total(p)).sum::<u32>(), 20);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    players: Vec<Player>,
    draw: Option<Vec<DrawRound>>,
    hands: Vec<HandLog>,
    next_seating: Vec<PlayerId>,
    left: Vec<PlayerId>,
    joined: Vec<(PlayerId, usize)>,
    rng: DealRng,
}

impl Game {
    /// A new game: the players draw for seats, then the first hand is dealt.
    /// Everything random comes from `seed`.
    pub fn new(rules: Rules, names: Vec<String>, seed: Seed) -> Result<Game, TableError> {
        // The same stream goes on from the draw to every deal.
        let mut game = Game::drawn(rules, names, seed)?;
        game.next_hand()?;
        Ok(game)
    }

    /// A new game whose players have drawn for seats from `draw_seed`, not
    /// yet dealt: every hand is then dealt from its own seed
    /// ([`Game::next_hand_from`]). The server deals this way so that each
    /// hand's seed can be committed to before the deal and revealed after.
    ///
    /// ```
    /// use dalmuti_core::{Deck, DealRng, Game, Rules, Seat, Seed};
    /// let names = ["Ada", "Bo", "Cy", "Di"].map(String::from).to_vec();
    /// let mut game = Game::drawn(Rules::default(), names, Seed::from(1)).unwrap();
    /// assert!(game.hands().is_empty());
    /// game.next_hand_from(Seed::from(9)).unwrap();
    /// // Anyone holding the seed deals the same cards.
    /// let deal = Deck::for_table(&Rules::default(), 4).deal(4, &mut DealRng::new(Seed::from(9)));
    /// assert_eq!(game.hands()[0].hand.dealt(Seat::new(0)), deal[Seat::new(0)]);
    /// ```
    pub fn drawn(rules: Rules, names: Vec<String>, draw_seed: Seed) -> Result<Game, TableError> {
        let mut rng = DealRng::new(draw_seed);
        let players = names.len();
        check_count(players)?;
        rules.check(players)?;
        if rules.variant.is_suited() {
            // President and Daifugō: seats drawn at random (the contest's
            // `tn_sekigae` before the first game), no card draw.
            let mut seating = names;
            rng.shuffle(&mut seating);
            return Game::seated_without_deal(rules, seating, None, rng);
        }
        let deck = Deck::for_table(&rules, players);
        let draw = draw_for_seats(players, deck, &mut rng);
        let seating: Vec<String> = draw.order.iter().map(|&p| names[p].clone()).collect();
        let rounds = (!draw.rounds.is_empty()).then(|| {
            // Draw rounds name players by their place in `seating`.
            let id_of = |p: usize| draw.order.iter().position(|&q| q == p).expect("drew");
            draw.rounds
                .iter()
                .map(|r| r.iter().map(|&(p, c)| (id_of(p), c)).collect())
                .collect()
        });
        Game::seated_without_deal(rules, seating, rounds, rng)
    }

    /// A new game with the first hand's seating given (Greater Dalmuti
    /// first), no draw.
    pub fn with_seating(
        rules: Rules,
        seating: Vec<String>,
        seed: Seed,
    ) -> Result<Game, TableError> {
        let mut game = Game::seated_without_deal(rules, seating, None, DealRng::new(seed))?;
        game.next_hand()?;
        Ok(game)
    }

    /// A new game with the first hand's seating given (seat 0 first), no
    /// draw and no hand dealt yet: every hand is then dealt with
    /// [`Game::next_hand`], [`Game::next_hand_from`] or, in President and
    /// Daifugō, [`Game::next_hand_seated`]. For games another server seats
    /// and deals (a UECda contest match) and that the engine referees.
    ///
    /// ```
    /// use dalmuti_core::{Game, Rules, Seed};
    /// let names = ["Ada", "Bo", "Cy", "Di", "Eve"].map(String::from).to_vec();
    /// let mut game = Game::seated(Rules::daifugo(), names, Seed::from(1)).unwrap();
    /// assert!(game.hands().is_empty());
    /// game.next_hand().unwrap();
    /// assert_eq!(game.name(game.hands()[0].dealt_seating[0]), "Ada");
    /// ```
    pub fn seated(rules: Rules, seating: Vec<String>, seed: Seed) -> Result<Game, TableError> {
        Game::seated_without_deal(rules, seating, None, DealRng::new(seed))
    }

    /// A game seated but not yet dealt: the start of a replay. Draw rounds
    /// name players by their index in `seating`.
    pub(crate) fn seated_without_deal(
        rules: Rules,
        seating: Vec<String>,
        draw: Option<Vec<DrawRound>>,
        rng: DealRng,
    ) -> Result<Game, TableError> {
        check_count(seating.len())?;
        rules.check(seating.len())?;
        let mut players: Vec<Player> = Vec::with_capacity(seating.len());
        for name in seating {
            check_name(&name, players.iter().map(|p| p.name.as_str()))?;
            players.push(Player { name, total: 0 });
        }
        Ok(Game {
            rules,
            next_seating: (0..players.len() as u16).map(PlayerId).collect(),
            players,
            draw,
            hands: Vec::new(),
            left: Vec::new(),
            joined: Vec::new(),
            rng,
        })
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seating draw, if one was made: rounds of (player, card), players
    /// numbered as [`PlayerId::index`].
    pub fn draw(&self) -> Option<&[DrawRound]> {
        self.draw.as_deref()
    }

    /// Every player who has sat at the table, in order of arrival.
    pub fn players(&self) -> impl Iterator<Item = PlayerId> + use<> {
        (0..self.players.len() as u16).map(PlayerId)
    }

    /// A player's name.
    pub fn name(&self, player: PlayerId) -> &str {
        &self.players[player.index()].name
    }

    /// The player with this name.
    pub fn player_named(&self, name: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p.name == name)
            .map(|i| PlayerId(i as u16))
    }

    /// A player's points so far (0 without scoring).
    pub fn total(&self, player: PlayerId) -> u32 {
        self.players[player.index()].total
    }

    /// Every hand dealt so far, the current one last.
    pub fn hands(&self) -> &[HandLog] {
        &self.hands
    }

    fn current(&self) -> &HandLog {
        self.hands
            .last()
            .expect("a game always has a hand once dealt")
    }

    /// The current hand (or the last one, between hands).
    pub fn hand(&self) -> &Hand {
        &self.current().hand
    }

    /// The current hand, to change outside the rules (a replay's
    /// stalemate places).
    pub(crate) fn hand_mut(&mut self) -> &mut Hand {
        &mut self.hands.last_mut().expect("a hand has been dealt").hand
    }

    /// The player at a seat of play in the current hand.
    pub fn player_at(&self, seat: Seat) -> PlayerId {
        self.current().player_at(seat)
    }

    /// A player's seat of play in the current hand.
    pub fn seat_of(&self, player: PlayerId) -> Option<Seat> {
        self.current().seat_of(player)
    }

    /// The seating the next hand will be dealt with, Greater Dalmuti first:
    /// the finishing order of the last hand, changed by leaves and joins.
    pub fn next_seating(&self) -> &[PlayerId] {
        &self.next_seating
    }

    /// Whether the current hand is over (players may join or leave now).
    pub fn is_between_hands(&self) -> bool {
        self.hands.is_empty() || self.hand().stage() == Stage::Over
    }

    /// Whether the set number of hands has been played.
    pub fn is_over(&self) -> bool {
        match self.rules.hands {
            Some(h) => {
                self.hands.len() as u64 >= u64::from(h)
                    && self.is_between_hands()
                    && !self.hands.is_empty()
            }
            None => false,
        }
    }

    /// What `viewer` may see of the current hand, with the game's totals
    /// when it is scored.
    pub fn view(&self, viewer: Viewer) -> View<'_> {
        let view = View::new(self.hand(), viewer);
        if !self.scored() {
            return view;
        }
        let mut totals = crate::PerSeat::<u32>::default();
        for seat in Seat::all(self.hand().players()) {
            totals[seat] = self.total(self.player_at(seat));
        }
        view.with_scores(totals)
    }

    /// Applies an action in the current hand; when it ends the hand, scores
    /// it and sets the next seating.
    pub fn apply(&mut self, seat: Seat, action: crate::Action) -> Result<(), Box<IllegalAction>> {
        let log = self.hands.last_mut().expect("a hand has been dealt");
        log.hand.apply(seat, action)?;
        if log.hand.stage() == Stage::Over {
            self.finish_hand();
        }
        Ok(())
    }

    fn finish_hand(&mut self) {
        let log = self.hands.last().expect("a hand");
        if let Some(points) = log.hand.points() {
            for seat in Seat::all(log.hand.players()) {
                let p = log.player_at(seat);
                self.players[p.index()].total += points[seat];
            }
        }
        // President and Daifugō keep their seats (drawn again every so
        // many games); Dalmuti reseats by the finishing order.
        if !self.rules.variant.is_suited() {
            self.next_seating = log.finishers().collect();
        }
    }

    fn between_hands(&self) -> Result<(), TableError> {
        if !self.is_between_hands() || self.hands.is_empty() {
            return Err(TableError::HandInProgress);
        }
        if let (true, Some(h)) = (self.is_over(), self.rules.hands) {
            return Err(TableError::GameOver(h));
        }
        if !self.rules.join_and_leave {
            return Err(TableError::Closed);
        }
        Ok(())
    }

    /// A seated player leaves before the next hand; the others keep their
    /// order. Leaves come before any join of the same break.
    pub fn leave(&mut self, name: &str) -> Result<(), TableError> {
        self.between_hands()?;
        let player = self
            .player_named(name)
            .filter(|p| self.next_seating.contains(p))
            .ok_or_else(|| TableError::UnknownPlayer(name.to_string()))?;
        if !self.joined.is_empty() {
            return Err(TableError::LeaveAfterJoin(name.to_string()));
        }
        if self.next_seating.len() <= MIN_PLAYERS {
            return Err(TableError::TooFew);
        }
        self.next_seating.retain(|&p| p != player);
        self.left.push(player);
        Ok(())
    }

    /// A newcomer joins before the next hand at `seat` (0-based, counted
    /// after the insertion), which must be one of [`join_seats`].
    pub fn join(&mut self, name: &str, seat: usize) -> Result<PlayerId, TableError> {
        self.between_hands()?;
        let n = self.next_seating.len();
        if n >= MAX_PLAYERS.min(*self.rules.variant.players().end()) {
            return Err(TableError::TooMany);
        }
        let seats = join_seats(n);
        if !seats.contains(&seat) {
            return Err(TableError::JoinSeat(seats));
        }
        check_name(name, self.players.iter().map(|p| p.name.as_str()))?;
        let id = PlayerId(self.players.len() as u16);
        self.players.push(Player {
            name: name.to_string(),
            total: 0,
        });
        self.next_seating.insert(seat, id);
        self.joined.push((id, seat));
        Ok(id)
    }

    /// The number of the next game of a match of President or Daifugō
    /// (1 for the first).
    fn next_number(&self) -> usize {
        self.hands.len() + 1
    }

    /// Whether the next game of President or Daifugō draws seats anew:
    /// every `reseat_every` games from the fourth (the first was drawn with
    /// the game; `external.c`, `tn_sekigae`: game `g` with `g % 3 == 1`).
    pub fn reseats_next(&self) -> bool {
        let every = self.rules.climbing().reseat_every as usize;
        let g = self.next_number();
        self.rules.variant.is_suited() && every > 0 && g > 1 && (g - 1) % every == 0
    }

    /// Whether the next game of President or Daifugō has classes (and so
    /// the exchange): not the first, nor the first of each class cycle
    /// (`daihu.c`: game `g` with `g % 100 == 1` deals from a random seat
    /// and exchanges nothing).
    pub fn ranked_next(&self) -> bool {
        let cycle = self.rules.climbing().class_cycle as usize;
        let g = self.next_number();
        g > 1 && (cycle == 0 || (g - 1) % cycle != 0)
    }

    /// The last game's finishing order as seats of the next game's seating.
    fn next_ranking(&self) -> Option<Vec<Seat>> {
        if !self.ranked_next() {
            return None;
        }
        let last = self.hands.last()?;
        Some(
            last.finishers()
                .map(|p| {
                    let i = self
                        .next_seating
                        .iter()
                        .position(|&q| q == p)
                        .expect("seated");
                    Seat::new(i)
                })
                .collect(),
        )
    }

    /// Draws seats anew before a game of President or Daifugō, from the
    /// game's stream.
    fn reseat(&mut self) {
        if self.reseats_next() {
            let mut seating = self.next_seating.clone();
            self.rng.shuffle(&mut seating);
            self.next_seating = seating;
        }
    }

    /// Deals the next game of President or Daifugō from `rng` (the game's
    /// stream or a hand's own seed).
    fn deal_suited(&mut self, seed: Option<Seed>) -> Hand {
        self.reseat();
        let ranking = self.next_ranking();
        let n = self.next_seating.len();
        match seed {
            Some(seed) => {
                Hand::deal_ranked(self.rules, n, ranking.as_deref(), &mut DealRng::new(seed))
            }
            None => Hand::deal_ranked(self.rules, n, ranking.as_deref(), &mut self.rng),
        }
    }

    /// Deals the next game of President or Daifugō from given cards with
    /// the seats given (a replay): `seating` must be the players seated
    /// now, drawn anew only where the rules draw seats again; a
    /// stalemate's places come from `chance`.
    pub fn next_hand_seated(
        &mut self,
        seating: &[PlayerId],
        dealt: &[Cards],
        chance: u64,
    ) -> Result<(), TableError> {
        self.check_can_deal()?;
        let mut sorted = seating.to_vec();
        sorted.sort();
        let mut now = self.next_seating.clone();
        now.sort();
        if sorted != now {
            return Err(TableError::Seating(
                "the seating is not the players at the table".into(),
            ));
        }
        if !self.reseats_next() && seating != self.next_seating.as_slice() {
            return Err(TableError::Seating(
                "seats are drawn again only every so many games; this game keeps the last seating"
                    .into(),
            ));
        }
        self.next_seating = seating.to_vec();
        let ranking = self.next_ranking();
        let hand =
            Hand::from_deal_ranked(self.rules, seating.len(), ranking.as_deref(), dealt, chance)?;
        self.push_hand(hand);
        Ok(())
    }

    /// Shuffles and deals the next hand.
    pub fn next_hand(&mut self) -> Result<(), TableError> {
        self.check_can_deal()?;
        if self.rules.variant.is_suited() {
            let hand = self.deal_suited(None);
            self.push_hand(hand);
            return Ok(());
        }
        let hand = Hand::deal(
            self.rules,
            self.next_seating.len(),
            self.hands.is_empty(),
            &mut self.rng,
        );
        self.push_hand(hand);
        Ok(())
    }

    /// Shuffles and deals the next hand from its own `seed`, not from the
    /// game's stream: `Deck::for_table(rules, n).deal(n, &mut
    /// DealRng::new(seed))` gives the same cards, so a revealed seed proves
    /// the deal.
    pub fn next_hand_from(&mut self, seed: Seed) -> Result<(), TableError> {
        self.check_can_deal()?;
        if self.rules.variant.is_suited() {
            let hand = self.deal_suited(Some(seed));
            self.push_hand(hand);
            return Ok(());
        }
        let hand = Hand::deal(
            self.rules,
            self.next_seating.len(),
            self.hands.is_empty(),
            &mut DealRng::new(seed),
        );
        self.push_hand(hand);
        Ok(())
    }

    /// Deals the next hand from given cards, seat by seat (a replay).
    pub fn next_hand_with(&mut self, dealt: &[Cards]) -> Result<(), TableError> {
        self.check_can_deal()?;
        if self.rules.variant.is_suited() {
            let seating = self.next_seating.clone();
            return self.next_hand_seated(&seating, dealt, 0);
        }
        let hand = Hand::from_deal(
            self.rules,
            self.next_seating.len(),
            self.hands.is_empty(),
            dealt,
        )?;
        self.push_hand(hand);
        Ok(())
    }

    fn check_can_deal(&self) -> Result<(), TableError> {
        if !self.is_between_hands() {
            return Err(TableError::HandInProgress);
        }
        match self.rules.hands {
            Some(h) if self.is_over() => Err(TableError::GameOver(h)),
            _ => Ok(()),
        }
    }

    fn push_hand(&mut self, hand: Hand) {
        self.hands.push(HandLog {
            left: std::mem::take(&mut self.left),
            joined: std::mem::take(&mut self.joined),
            dealt_seating: self.next_seating.clone(),
            hand,
        });
    }

    /// Whether hands are scored.
    pub fn scored(&self) -> bool {
        self.rules.scoring != Scoring::None
    }
}

fn check_count(players: usize) -> Result<(), TableError> {
    if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        Ok(())
    } else {
        Err(TableError::Players(players))
    }
}

fn check_name<'a>(name: &str, mut taken: impl Iterator<Item = &'a str>) -> Result<(), TableError> {
    if name.is_empty() {
        return Err(TableError::EmptyName);
    }
    if taken.any(|t| t == name) {
        return Err(TableError::DuplicateName(name.to_string()));
    }
    Ok(())
}
