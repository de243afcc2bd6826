//! What the learned policy reads of each legal action: the heuristic's own
//! reckoning of the play (the leads the hand needs after it, whether it
//! wins the trick, whether it goes out) with the plain facts of the set
//! and the race, as numbers. The policy weighs them linearly
//! (`crate::learned`), so a feature says one thing a player weighs.

use dalmuti_core::{Action, Hand, Seat, Set, View};

use super::ending::Duel;
use super::{
    FEW_CARDS, GOOD_RANK, LEAD, Plan, Turn, WAITED_ROUNDS, rule_of_thumb, with_hand_turn,
    with_view_turn,
};
use crate::knowledge::Knowledge;

/// How many numbers describe one legal action.
pub(crate) const FEATURES: usize = 24;

/// The names of the features, in order: a weights file names them, so
/// that weights trained for other features are refused, not misread.
pub(crate) const NAMES: [&str; FEATURES] = [
    "pass",
    "pass_when_a_rival_is_near_out",
    "pass_after_waiting",
    "pass_cards_held",
    "pass_leads_needed",
    "heuristic_choice",
    "goes_out",
    "way_out",
    "wins_the_trick",
    "leads_saved",
    "leads_saved_with_few_cards",
    "leads_saved_when_eager",
    "wild_cards_spent",
    "wild_cards_spent_late",
    "value",
    "value_following",
    "size",
    "size_leading",
    "breaks_a_group",
    "world_ruler",
    "good_cards_spent_losing",
    "losers_after",
    "winners_after",
    "play_when_a_rival_is_near_out",
];

/// One legal action's features.
pub(crate) type Features = [f32; FEATURES];

/// A rival this close to going out makes the hand a race.
const NEAR_OUT: u32 = 2;

/// Calls `visit` with the index in `turn.legal` and the features of each
/// legal action, in order (without gathering them: a search's play-outs
/// weigh every move this way).
pub(crate) fn each(turn: &Turn<'_>, mut visit: impl FnMut(usize, &Features)) {
    let favourite = rule_of_thumb(turn);
    let now = Plan::of(turn.shape, &turn.rivals);
    let base_need = now.need(turn.leading);
    let few = turn.shape.len <= FEW_CARDS;
    let eager = now.need(false) <= LEAD || few || turn.waited >= turn.patience;
    let near_out = rival_near_out(turn);
    for (i, &action) in turn.legal.iter().enumerate() {
        let mut f = [0.0; FEATURES];
        f[5] = flag(favourite == Some(action));
        match action {
            Action::Play(set) => {
                play_features(turn, set, base_need, few, eager, &mut f);
                f[23] = flag(near_out);
            }
            _ => {
                f[0] = 1.0;
                f[1] = flag(near_out);
                f[2] = turn.waited.min(8) as f32 / 4.0;
                f[3] = turn.shape.len as f32 / 10.0;
                f[4] = base_need as f32 / 4.0;
            }
        }
        visit(i, &f);
    }
}

/// The features of playing `set`.
fn play_features(
    turn: &Turn<'_>,
    set: Set,
    base_need: i32,
    few: bool,
    eager: bool,
    f: &mut Features,
) {
    let wins = turn.rivals.wins_now(set);
    let after = Plan::of(turn.after(set, wins), &turn.rivals);
    let need = after.need(wins) + turn.risk(set, wins);
    let saved = ((base_need - need) as f32 / 2.0).clamp(-4.0, 4.0);
    let value = set.rank_number();
    f[6] = flag(u32::from(set.size()) == turn.shape.len);
    f[7] = flag(wins && after.goes_out_leading());
    f[8] = flag(wins);
    f[9] = saved;
    f[10] = if few { saved } else { 0.0 };
    f[11] = if eager { saved } else { 0.0 };
    f[12] = f32::from(set.wilds());
    f[13] = if turn.shape.len <= 4 { f[12] } else { 0.0 };
    f[14] = f32::from(value) / 12.0;
    f[15] = if turn.leading { 0.0 } else { f[14] };
    f[16] = f32::from(set.size()) / 4.0;
    f[17] = if turn.leading { f[16] } else { 0.0 };
    f[18] = flag(set.naturals() > 0 && set.naturals() < turn.shape.copies[usize::from(value)]);
    f[19] = flag(set.is_world_ruler());
    f[20] = flag(!wins && value <= GOOD_RANK);
    f[21] = after.losers as f32 / 4.0;
    f[22] = after.winners as f32 / 4.0;
}

/// Whether another seat still holding cards holds at most [`NEAR_OUT`].
fn rival_near_out(turn: &Turn<'_>) -> bool {
    Seat::all(turn.players)
        .filter(|&s| s != turn.me)
        .any(|s| (1..=NEAR_OUT).contains(&turn.counts[s]))
}

fn flag(b: bool) -> f32 {
    if b { 1.0 } else { 0.0 }
}

/// [`each`] for the seat to play in `view`, as the heuristic bot sees it.
pub(crate) fn of_view(view: &View<'_>, legal: &[Action], visit: impl FnMut(usize, &Features)) {
    let k = Knowledge::from_view(view);
    with_view_turn(view, &k, legal, WAITED_ROUNDS, |turn| each(turn, visit));
}

/// [`each`] for `seat` in a hand seen whole (a search's determinization),
/// as the heuristic's play-outs see it; `legal` is filled with the seat's
/// legal actions.
pub(crate) fn of_hand(
    hand: &Hand,
    seat: Seat,
    legal: &mut Vec<Action>,
    visit: impl FnMut(usize, &Features),
) {
    with_hand_turn(hand, seat, legal, WAITED_ROUNDS, |turn| each(turn, visit));
}

/// Whether the heuristic plays `view`'s decision by its exact two-player
/// ending search rather than by its rules of thumb.
pub(crate) fn ending_solved(view: &View<'_>) -> bool {
    Duel::at(view, &Knowledge::from_view(view)).is_some()
}
