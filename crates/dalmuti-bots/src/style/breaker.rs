//! The group-breaker plays single cards: it leads its worst card alone and
//! tops with whatever cards are cheapest, breaking groups to do so.

use dalmuti_core::{Action, Set};

use super::Spot;

/// With more cards than this, the breaker keeps its strong cards.
const KEEP_STRONG_ABOVE: u32 = 4;

/// Goes out if it can. Leads its worst card alone (wild cards last).
/// Follows with the worst set without wild cards, breaking a group if that
/// is cheapest, but not with a card of value 3 or better while it holds
/// more than a few cards; passes otherwise.
pub(super) fn play(spot: &Spot<'_>) -> Action {
    if let Some(out) = spot.going_out() {
        return spot.play(Some(out));
    }
    let many = spot.cards.len() > KEEP_STRONG_ABOVE;
    let cheap = |s: &Set| s.wilds() == 0 && (!many || s.rank_number() > 3);
    let chosen = match spot.top {
        None => spot
            .sets()
            .filter(|s| s.size() == 1 && s.wilds() == 0)
            .max_by_key(|s| s.rank_number())
            .or_else(|| spot.sets().next()),
        Some(_) => spot.sets().find(cheap),
    };
    spot.play(chosen)
}
