//! The hoarder keeps its strong cards for the end: it follows only with
//! bad cards and passes the rest of the time.

use dalmuti_core::{Action, Set};

use super::Spot;

/// With this many cards or fewer left the hoarder plays to go out.
const ENDGAME: u32 = 4;

/// Goes out if it can. Leads its worst group whole (its strong cards last).
/// Follows only with a whole group of bad cards (value 5 or worse, no wild
/// card) until its hand is down to its strong cards or to a few cards;
/// then it tops with whatever is worst.
pub(super) fn play(spot: &Spot<'_>) -> Action {
    if let Some(out) = spot.going_out() {
        return spot.play(Some(out));
    }
    let endgame = spot.cards.len() <= ENDGAME || spot.strong_cards() == spot.cards.len();
    let weak = |s: &Set| s.wilds() == 0 && s.rank_number() > 4;
    let chosen = match spot.top {
        None => spot
            .sets()
            .filter(weak)
            .max_by_key(|s| (s.rank_number(), s.size()))
            .or_else(|| spot.sets().max_by_key(|s| (s.wilds() == 0, s.size()))),
        Some(_) if endgame => spot.sets().next(),
        Some(_) => spot.sets().find(|s| weak(s) && !spot.breaks(*s)),
    };
    spot.play(chosen)
}
