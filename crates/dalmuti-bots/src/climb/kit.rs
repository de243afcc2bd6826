//! The play of the UECda developer kit's default client
//! (`tndhm_devkit_c-20180826`, `client/daihinmin.c`: `lead`, `follow` and
//! the tables they read), worked out as the client works it out, so that
//! the search can play its keepers out as the contest's programs play.
//!
//! The client reads its hand as the contest's table: a row per suit, a
//! column per place (1 the 3 … 13 the 2; 0 and 14 are where a Joker may
//! stand beyond the ends). Under a revolution it reads the same columns
//! from the other end; here the columns are counted from the weakest place
//! in the order now, so one reading serves both orders.
//!
//! It leads its longest run (with its Joker, a run the Joker lengthens or
//! mends), else its largest group (with its Joker, the Joker added), else
//! its weakest card; it tops a single card with its weakest card in no run
//! and no group (else its Joker, else it passes), and larger plays only
//! with a group or run of exactly their size, the Joker filling in when it
//! must. Its mistakes are its own: a play the rules refuse (the run it
//! mends with its Joker below the top, say) is refused, and the server
//! counts it as a pass.

use dalmuti_core::{Cards, Hand, Seat, Set, SetKind, Suit};

/// The contest's columns: 0 below the 3, 1 the 3 … 13 the 2, 14 above.
const COLUMNS: usize = 15;

/// A hand's cards by suit and column, as the client's tables hold them.
type Rows = [[bool; COLUMNS]; 4];

/// What the default client plays at `seat`'s turn: the set it sends, or
/// `None` for a pass. The set may not be legal; the server refuses it.
pub(super) fn play(hand: &Hand, seat: Seat) -> Option<Set> {
    let flipped = hand.reversed() != hand.eleven_back();
    let held = hand.held(seat);
    let reading = Reading::of(&held, flipped);
    match hand.top() {
        None => reading.lead(),
        Some((_, top)) => reading.follow(top, hand.lock().0),
    }
}

/// The client's reading of its hand in the order now.
struct Reading {
    rows: Rows,
    joker: bool,
    flipped: bool,
}

impl Reading {
    fn of(held: &Cards, flipped: bool) -> Reading {
        let mask = held.pack_mask();
        let mut rows = [[false; COLUMNS]; 4];
        for place in 1..=13u8 {
            for (suit, row) in rows.iter_mut().enumerate() {
                if mask >> (4 * usize::from(place - 1) + suit) & 1 != 0 {
                    row[column(place, flipped)] = true;
                }
            }
        }
        Reading {
            rows,
            joker: held.jokers() > 0,
            flipped,
        }
    }

    /// `lead`: the longest run, the lowest of those; else the largest
    /// group, the lowest; else the lowest card (the Joker when it is the
    /// last).
    fn lead(&self) -> Option<Set> {
        let runs = runs(&self.rows, self.joker);
        for len in (3..=COLUMNS as u8).rev() {
            if let Some((suit, start)) = lowest_run(&runs, len) {
                return self.run(&self.rows, suit, start, len);
            }
        }
        let groups = groups(&self.rows, self.joker);
        for size in (2..=5).rev() {
            if let Some(at) = groups.iter().position(|&n| n == size) {
                return self.group(&self.rows, at, size, 0);
            }
        }
        match lowest_card(&self.rows, 0, |_| true) {
            Some((suit, at)) => Set::of_rank(self.place(at), 1 << suit, 0, 0),
            None => self.joker.then_some(Set::LONE_JOKER),
        }
    }

    /// `follow`: a set of the top's size and kind above it, from cards of
    /// the locked suits when the suits are locked.
    fn follow(&self, top: Set, locked: u8) -> Option<Set> {
        let ord = match top.kind() {
            SetKind::LoneJoker => COLUMNS - 1,
            _ => {
                let (low, high) = top.places();
                column(low, self.flipped).max(column(high, self.flipped))
            }
        };
        let free = |suit: usize| locked == 0 || locked >> suit & 1 != 0;
        if top.size() == 1 {
            // The weakest card above the top in no run and no group.
            let runs = runs(&self.rows, false);
            let groups = groups(&self.rows, false);
            let mut loose = self.rows;
            for (suit, row) in runs.iter().enumerate() {
                let mut at = 0;
                while at < COLUMNS {
                    let len = usize::from(row[at]);
                    if len > 2 {
                        loose[suit][at..at + len].fill(false);
                        at += len;
                    } else {
                        at += 1;
                    }
                }
            }
            for (at, &n) in groups.iter().enumerate() {
                if n > 1 {
                    loose.iter_mut().for_each(|row| row[at] = false);
                }
            }
            return match lowest_card(&loose, ord, free) {
                Some((suit, at)) => Set::of_rank(self.place(at), 1 << suit, 0, 0),
                None => self.joker.then_some(Set::LONE_JOKER),
            };
        }
        // Larger sets: only from the cards above the top, in free suits.
        let mut above = [[false; COLUMNS]; 4];
        for (suit, row) in above.iter_mut().enumerate() {
            if free(suit) {
                row[ord + 1..].copy_from_slice(&self.rows[suit][ord + 1..]);
            }
        }
        let size = top.size();
        if top.kind() == SetKind::Sequence {
            let found = lowest_run(&runs(&above, false), size).or_else(|| {
                self.joker
                    .then(|| lowest_run(&runs(&above, true), size))
                    .flatten()
            });
            let (suit, start) = found?;
            return self.run(&above, suit, start, size);
        }
        let at_size = |joker| groups(&above, joker).iter().position(|&n| n == size);
        let at = at_size(false).or_else(|| self.joker.then(|| at_size(true)).flatten())?;
        self.group(&above, at, size, locked)
    }

    /// `lowSequence`'s cards: the run of `suit` from `start`, the Joker
    /// where `rows` has no card.
    fn run(&self, rows: &Rows, suit: usize, start: usize, len: u8) -> Option<Set> {
        let columns = start..start + usize::from(len);
        let mut jokers = 0u16;
        let low = columns.clone().map(|at| self.place(at)).min()?;
        for at in columns {
            if !rows[suit].get(at).copied().unwrap_or(false) {
                jokers |= 1 << (self.place(at) - low);
            }
        }
        Set::sequence(Suit::from_index(suit)?, low, len, jokers)
    }

    /// `lowGroup`'s cards: the cards of `rows` at column `at`, the Joker
    /// standing for the first suits the hand lacks (of the locked ones).
    fn group(&self, rows: &Rows, at: usize, size: u8, locked: u8) -> Option<Set> {
        let naturals = (0..4).filter(|&s| rows[s][at]).fold(0u8, |m, s| m | 1 << s);
        let mut count = naturals.count_ones() as u8;
        let mut jokers = 0u8;
        for suit in 0..4 {
            if count >= size {
                break;
            }
            if !self.rows[suit][at] && (locked == 0 || locked >> suit & 1 != 0) {
                jokers |= 1 << suit;
                count += 1;
            }
        }
        let extra = size.saturating_sub(count);
        Set::of_rank(self.place(at), naturals, jokers, extra)
    }

    fn place(&self, at: usize) -> u8 {
        column_place(at, self.flipped)
    }
}

/// The column of a place (0 to 14) counted from the weakest.
fn column(place: u8, flipped: bool) -> usize {
    let place = usize::from(place);
    if flipped { COLUMNS - 1 - place } else { place }
}

fn column_place(at: usize, flipped: bool) -> u8 {
    (if flipped { COLUMNS - 1 - at } else { at }) as u8
}

/// `makeKaidanTable` (and with the Joker `makeJKaidanTable`): at each
/// column, the length of the run of its suit from there up, when 3 or
/// more. With the Joker, a run counts the Joker once: in one gap, or just
/// above its top.
fn runs(rows: &Rows, joker: bool) -> [[u8; COLUMNS]; 4] {
    let mut table = [[0u8; COLUMNS]; 4];
    for (row, out) in rows.iter().zip(table.iter_mut()) {
        if joker {
            let (mut count, mut naturals) = (1u8, 0u8);
            for at in (0..=13).rev() {
                if row[at] {
                    count += 1;
                    naturals += 1;
                } else {
                    count = naturals + 1;
                    naturals = 0;
                }
                if count > 2 {
                    out[at] = count;
                }
            }
        } else {
            let mut count = 0u8;
            for at in (1..=13).rev() {
                count = if row[at] { count + 1 } else { 0 };
                if count > 2 {
                    out[at] = count;
                }
            }
        }
    }
    table
}

/// `makeGroupTable` (and with the Joker `makeJGroupTable`): at each
/// column, how many cards a set there holds (the Joker added), when 2 or
/// more.
fn groups(rows: &Rows, joker: bool) -> [u8; COLUMNS] {
    let mut table = [0u8; COLUMNS];
    for (at, out) in table.iter_mut().enumerate().take(14) {
        let n = rows.iter().filter(|row| row[at]).count() as u8;
        let size = n + u8::from(joker);
        if n > 0 && size > 1 {
            *out = size;
        }
    }
    table
}

/// `lowSolo`: the card of the lowest column above `above`, the first of
/// the suits `free` lets it play there (suit, column).
fn lowest_card(rows: &Rows, above: usize, free: impl Fn(usize) -> bool) -> Option<(usize, usize)> {
    (above + 1..14).find_map(|at| (0..4).find(|&s| rows[s][at] && free(s)).map(|s| (s, at)))
}

/// `lowSequence` over the runs of exactly `len`: the lowest column, the
/// first suit there.
fn lowest_run(runs: &[[u8; COLUMNS]; 4], len: u8) -> Option<(usize, usize)> {
    (0..COLUMNS).find_map(|at| (0..4).find(|&s| runs[s][at] == len).map(|s| (s, at)))
}

#[cfg(test)]
mod tests {
    use super::super::kind::Kind;
    use dalmuti_core::record::Record;
    use dalmuti_core::{Action, Seed, Stage};

    /// A match of five of the kit's default clients on our server
    /// (`tests/fixtures/README.md` says how it was recorded).
    const MATCH: &str = include_str!("../../tests/fixtures/kit-default-clients-30-games.json");

    #[test]
    fn the_keeper_plays_as_the_kits_default_client_did() {
        let record = Record::parse(MATCH).expect("the fixture is a record");
        let (mut plays, mut refused, mut reversed, mut runs) = (0, 0, 0, 0);
        for k in 0..record.hands.len() {
            // The game as hand k's play begins, then its plays one by one.
            let mut cut = record.clone();
            cut.hands.truncate(k + 1);
            cut.hands[k].plays.clear();
            let mut game = cut.replay(Seed::from(0)).expect("the prefix replays");
            for (p, play) in record.hands[k].plays.iter().enumerate() {
                let seat = game
                    .seat_of(game.player_named(&play.player).expect("a player"))
                    .expect("seated");
                let hand = game.hand();
                assert_eq!(hand.stage(), Stage::Play);
                let legal = hand.legal_actions(seat);
                let chosen = Kind::Keeper.choice(hand, seat, &legal).expect("a choice");
                let played = play.set.map_or(Action::Pass, Action::Play);
                assert_eq!(
                    chosen,
                    played,
                    "game {k}, play {p}: {} holding {} over {:?}",
                    play.player,
                    hand.held(seat),
                    hand.top().map(|(_, top)| top.to_string())
                );
                plays += 1;
                reversed += usize::from(hand.reversed());
                runs += usize::from(matches!(played, Action::Play(set)
                    if set.kind() == dalmuti_core::SetKind::Sequence));
                // A set the rules refuse, played as a pass.
                refused += usize::from(super::play(hand, seat).is_some() && played == Action::Pass);
                game.apply(seat, played).expect("the record's play");
            }
        }
        // The match has what the model must get right: many plays, some
        // under a revolution, runs, and sets the server refused.
        assert!(plays > 2000, "{plays} plays");
        assert!(
            reversed > 20 && runs > 20,
            "{reversed} reversed, {runs} runs"
        );
        assert!(refused > 0, "{refused} refused");
    }
}
