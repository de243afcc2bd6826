//! The spender plays as the heuristic, but spends its wild cards as soon
//! as it can: it adds them to what it leads, and tops with them rather
//! than pass.

use dalmuti_core::Action;

use super::Spot;

/// `planned` is the heuristic's choice. A lead becomes the same group
/// with every wild card that may join it; a pass becomes the worst play
/// that uses a wild card, if there is one.
pub(super) fn play(spot: &Spot<'_>, planned: Action) -> Action {
    match (spot.top, planned) {
        (None, Action::Play(set)) if set.naturals() > 0 => {
            let bigger = spot
                .sets()
                .filter(|s| s.face() == set.face() && s.naturals() == set.naturals())
                .filter(|s| s.holds_wedgie() == set.holds_wedgie())
                .max_by_key(|s| s.wilds());
            spot.play(bigger.or(Some(set)))
        }
        (Some(_), Action::Pass) => match spot.sets().find(|s| s.wilds() > 0) {
            Some(set) => spot.play(Some(set)),
            None => Action::Pass,
        },
        _ => planned,
    }
}
