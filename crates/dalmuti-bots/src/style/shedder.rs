//! The shedder races to go out: it plays whenever it can, and leads its
//! biggest group.

use dalmuti_core::Action;

use super::Spot;

/// Goes out if it can; leads its biggest group without wild cards (the
/// worst of equals), wild cards only when nothing else is left; follows
/// with the set that needs the fewest wild cards, the worst of those,
/// passing only when nothing tops.
pub(super) fn play(spot: &Spot<'_>) -> Action {
    if let Some(out) = spot.going_out() {
        return spot.play(Some(out));
    }
    let chosen = match spot.top {
        None => spot
            .sets()
            .max_by_key(|s| (s.wilds() == 0, s.size(), s.rank_number())),
        Some(_) => spot
            .sets()
            .min_by_key(|s| (s.wilds(), std::cmp::Reverse(s.rank_number()))),
    };
    spot.play(chosen)
}
