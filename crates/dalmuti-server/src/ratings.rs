//! Ratings of players and bots from the places of rated games: the
//! Weng–Lin model for free-for-all games (the one OpenSkill implements),
//! through the `skillratings` crate, one rating per game (Dalmuti,
//! Corporate Shuffle) and per band of table sizes.
//!
//! A game is rated when its host asked for it, every person at the table
//! kept a name ([`crate::players`]) and no two of them took their seats
//! from one place ([`origin`]): a seat nobody can be held to, or a second
//! account at the same keyboard, would be a free rating for whoever sits
//! beside it. A rated table seats nobody who kept no name, and a player
//! who leaves a rated game before its end is rated below everyone who
//! stayed. Bots are rated too, each level as one player (`bot:normal`), so
//! the levels stand on the players' scale. What this does against
//! collusion and what it cannot is in `docs/PLAYERS.md`.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

// The rating and its change cross the wire (the `rated` news, profiles),
// so they live with the protocol's types.
pub use dalmuti_table::rating::{PROVISIONAL_SIGMA, Rating, RatingChange};

pub use dalmuti_table::origin::origin;

/// The band of table sizes a game of `players` is rated in: places at a
/// table of three say something else than places at a table of twelve.
///
/// ```
/// use dalmuti_server::ratings::band;
/// assert_eq!(band(3), "3-4");
/// assert_eq!(band(5), "5-7");
/// assert_eq!(band(16), "8-16");
/// ```
pub fn band(players: usize) -> &'static str {
    match players {
        0..=4 => "3-4",
        5..=7 => "5-7",
        _ => "8-16",
    }
}

/// The bands, smallest tables first.
pub const BANDS: [&str; 3] = ["3-4", "5-7", "8-16"];

/// The ratings after a game, from those before it and each seat's place
/// (1 = first out), in seat order.
///
/// ```
/// use dalmuti_server::ratings::{Rating, rate};
/// let after = rate(&[Rating::default(); 2], &[1, 2]);
/// assert!(after[0].mu > 25.0 && after[1].mu < 25.0);
/// ```
pub fn rate(before: &[Rating], places: &[usize]) -> Vec<Rating> {
    let singles: Vec<[WengLinRating; 1]> = before
        .iter()
        .map(|r| {
            [WengLinRating {
                rating: r.mu,
                uncertainty: r.sigma,
            }]
        })
        .collect();
    let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = singles
        .iter()
        .zip(places)
        .map(|(team, &place)| (&team[..], MultiTeamOutcome::new(place)))
        .collect();
    weng_lin_multi_team(&teams, &WengLinConfig::new())
        .into_iter()
        .map(|team| Rating {
            mu: team[0].rating,
            sigma: team[0].uncertainty,
        })
        .collect()
}

/// A rating function as the store takes it: before and places in, after
/// out (the store reads and writes the ratings in one transaction).
pub type RateFn = fn(&[Rating], &[usize]) -> Vec<Rating>;

#[cfg(test)]
mod tests {
    use super::*;

    /// The newcomer's rating the wire's type starts at is the model's.
    #[test]
    fn a_newcomer_starts_at_the_models_first_guess() {
        let model = WengLinRating::new();
        assert_eq!(
            Rating::default(),
            Rating {
                mu: model.rating,
                sigma: model.uncertainty
            }
        );
    }

    /// The model's worked example (Weng & Lin 2011, as OpenSkill's
    /// documentation gives it): two newcomers, one wins.
    #[test]
    fn two_newcomers_move_as_the_models_worked_example() {
        let after = rate(&[Rating::default(); 2], &[1, 2]);
        assert!(
            (after[0].mu - 27.635_231_383_473_65).abs() < 1e-9,
            "{after:?}"
        );
        assert!(
            (after[1].mu - 22.364_768_616_526_35).abs() < 1e-9,
            "{after:?}"
        );
        for r in &after {
            assert!((r.sigma - 8.065_506_316_323_548).abs() < 1e-9, "{after:?}");
        }
    }

    /// Games a player plays at a table of `players` (places turning
    /// round) before the rating is provisional no more.
    fn games_provisional(players: usize) -> usize {
        let mut ratings = vec![Rating::default(); players];
        let mut games = 0;
        while ratings[0].provisional() {
            let places: Vec<usize> = (0..players).map(|i| (i + games) % players + 1).collect();
            ratings = rate(&ratings, &places);
            games += 1;
        }
        games
    }

    /// A rating is provisional for about ten games: more at three, where
    /// a game's places say less, fewer at five ([`PROVISIONAL_SIGMA`]).
    #[test]
    fn a_rating_is_provisional_for_about_ten_games() {
        assert_eq!(games_provisional(5), 9);
        assert_eq!(games_provisional(3), 16);
    }

    #[test]
    fn places_order_the_new_means_and_a_tie_moves_nobody_apart() {
        let after = rate(&[Rating::default(); 5], &[3, 1, 5, 2, 4]);
        let mut by_place: Vec<(usize, f64)> = [3, 1, 5, 2, 4]
            .into_iter()
            .zip(after.iter().map(|r| r.mu))
            .collect();
        by_place.sort_by_key(|&(p, _)| p);
        assert!(by_place.windows(2).all(|w| w[0].1 > w[1].1), "{by_place:?}");
        // Between equals a shared place changes nothing of the order.
        let tied = rate(&[Rating::default(); 3], &[1, 1, 1]);
        assert!(tied.iter().all(|r| (r.mu - 25.0).abs() < 1e-9), "{tied:?}");
        // A favourite who wins gains less than an outsider who wins.
        let strong = Rating {
            mu: 35.0,
            sigma: 4.0,
        };
        let weak = Rating {
            mu: 15.0,
            sigma: 4.0,
        };
        let favourite = rate(&[strong, weak], &[1, 2]);
        let upset = rate(&[strong, weak], &[2, 1]);
        assert!(favourite[0].mu - 35.0 < upset[1].mu - 15.0);
    }
}
