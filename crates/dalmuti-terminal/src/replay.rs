//! A whole game told hand by hand in the reader's language, every card
//! shown: the rules, the draw for seats, then each hand's seating, deal,
//! events, finishing order and scores (`dalmuti replay`). Every word comes
//! from the catalogues, as in the terminal game.

use dalmuti_core::{Game, HandLog, PlayerId, Seat, Stage};

use crate::narrate;
use crate::tr::Tr;
use crate::words::{optional_rules, shown_name};

/// The whole game as text, one line per item.
///
/// ```
/// use dalmuti_core::{Game, Rules, Seed};
/// use dalmuti_i18n::Lang;
/// use dalmuti_terminal::{replay, tr::Tr};
/// let names = ["Ada", "Bo", "Cy"].map(String::from).to_vec();
/// let game = Game::new(Rules::default(), names, Seed::from(1)).unwrap();
/// let told = replay::game(&game, Tr::new(Lang::En, game.rules().variant));
/// assert_eq!(told[0], "A game of The Great Dalmuti, one hand. Optional rules: none.");
/// assert!(told.iter().any(|line| line.starts_with("  Ada is dealt ")));
/// ```
pub fn game(game: &Game, tr: Tr) -> Vec<String> {
    let name = |p: PlayerId| player_name(game, tr, p);
    let mut options = optional_rules(game.rules(), tr);
    if options.is_empty() {
        options.push(tr.t("replay.no-options", &[]));
    }
    let hands = game.hands().len();
    let mut out = vec![tr.n(
        "replay.game",
        hands as u64,
        &[("game", &tr.game()), ("options", &tr.join(&options))],
    )];
    if let Some(rounds) = game.draw() {
        let players: Vec<PlayerId> = game.players().collect();
        for (i, round) in rounds.iter().enumerate() {
            let draws: Vec<String> = round
                .iter()
                .map(|&(p, card)| {
                    let card = tr.count_of(1, card);
                    // The reader draws in the second person ("you draw"),
                    // as in the game itself.
                    if reader(game) == Some(players[p]) {
                        tr.t("draw.you", &[("card", &card)])
                    } else {
                        tr.t(
                            "draw.other",
                            &[("name", &name(players[p])), ("card", &card)],
                        )
                    }
                })
                .collect();
            let key = if i == 0 { "draw.first" } else { "draw.again" };
            out.push(tr.t(key, &[("draws", &tr.join(&draws))]));
        }
    }
    let mut totals = vec![0u32; game.players().count()];
    for (i, log) in game.hands().iter().enumerate() {
        out.push(String::new());
        out.extend(hand(game, tr, i, log, &mut totals));
    }
    if game.is_between_hands() && hands > 0 {
        out.push(String::new());
        let next: Vec<String> = game.next_seating().iter().map(|&p| name(p)).collect();
        out.push(tr.t("plain.next-seating", &[("names", &tr.join(&next))]));
        if game.scored() {
            let mut standings: Vec<(u32, PlayerId)> =
                game.players().map(|p| (game.total(p), p)).collect();
            standings.sort_by_key(|s| std::cmp::Reverse(s.0));
            let words: Vec<String> = standings
                .iter()
                .map(|&(total, p)| {
                    tr.t(
                        "replay.total",
                        &[("name", &name(p)), ("total", &total.to_string())],
                    )
                })
                .collect();
            out.push(tr.t("replay.standings", &[("standings", &tr.join(&words))]));
        }
    }
    out
}

/// The player who played under the terminal game's default name, "You":
/// the record is told to them, in the second person, not as "You passes".
fn reader(game: &Game) -> Option<PlayerId> {
    game.players()
        .find(|&p| game.name(p).eq_ignore_ascii_case("you"))
}

/// A player's name as told: the reader's in the reader's language.
fn player_name(game: &Game, tr: Tr, p: PlayerId) -> String {
    shown_name(game.name(p), reader(game) == Some(p), tr)
}

/// `key`, or `key.you` when it is about the reader.
fn about(game: &Game, key: &str, p: PlayerId) -> String {
    if reader(game) == Some(p) {
        format!("{key}.you")
    } else {
        key.to_string()
    }
}

/// One hand, its points added to `totals`.
fn hand(game: &Game, tr: Tr, index: usize, log: &HandLog, totals: &mut [u32]) -> Vec<String> {
    let hand = &log.hand;
    let n = hand.players();
    let name = |p: PlayerId| player_name(game, tr, p);
    let mut out = vec![tr.t("hand.number", &[("hand", &(index + 1).to_string())])];
    for &p in &log.left {
        out.push(tr.t(&about(game, "replay.leaves", p), &[("name", &name(p))]));
    }
    for &(p, seat) in &log.joined {
        out.push(tr.t(
            &about(game, "replay.joins", p),
            &[("name", &name(p)), ("seat", &(seat + 1).to_string())],
        ));
    }
    let seating: Vec<String> = log
        .dealt_seating
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            // President and Daifugō: the class from the last game, not the
            // seat (everyone a commoner in a game without classes).
            let title = match (game.rules().variant.is_suited(), hand.class(Seat::new(i))) {
                (true, Some(class)) => Seat::new(class).title(n),
                (true, None) => dalmuti_core::Title::Merchant { class: 0 },
                (false, _) => Seat::new(i).title(n),
            };
            let title = tr.title(title);
            tr.t("replay.seat", &[("name", &name(p)), ("title", &title)])
        })
        .collect();
    out.push(tr.t("replay.seating", &[("seating", &tr.join(&seating))]));
    for &p in &log.dealt_seating {
        let seat = log.seat_of(p).expect("a player of the hand has a seat");
        let dealt = hand.dealt(seat);
        out.push(tr.n(
            &about(game, "replay.dealt", p),
            u64::from(dealt.len()),
            &[("name", &name(p)), ("cards", &dealt.to_string())],
        ));
    }
    if hand.is_first() && hand.rules().first_deal_revolution {
        out.push(tr.t(
            "replay.first-deal",
            &[("revolution", &tr.revolution()), ("taxes", &tr.taxes())],
        ));
    }
    let seat_name = |s: Seat| name(log.player_at(s));
    let me = reader(game).and_then(|p| log.seat_of(p));
    out.extend(narrate::events(
        hand.events().iter().copied(),
        n,
        tr,
        me,
        &seat_name,
    ));
    let order: Vec<String> = log
        .finishers()
        .enumerate()
        .map(|(i, p)| {
            tr.t(
                "replay.placed",
                &[("place", &(i + 1).to_string()), ("name", &name(p))],
            )
        })
        .collect();
    if hand.stage() == Stage::Over {
        out.push(tr.t("replay.finishing-order", &[("order", &tr.join(&order))]));
    } else {
        let order = if order.is_empty() {
            tr.t("replay.no-one", &[])
        } else {
            tr.join(&order)
        };
        out.push(tr.t("replay.stopped", &[("order", &order)]));
    }
    if let Some(points) = hand.points() {
        let scores: Vec<String> = Seat::all(n)
            .map(|s| {
                let p = log.player_at(s);
                totals[p.index()] += points[s];
                tr.t(
                    "replay.score",
                    &[
                        ("name", &name(p)),
                        ("points", &points[s].to_string()),
                        ("total", &totals[p.index()].to_string()),
                    ],
                )
            })
            .collect();
        out.push(tr.t("replay.scores", &[("scores", &tr.join(&scores))]));
    }
    out
}

#[cfg(test)]
mod tests {
    use dalmuti_bots::{Bot, HeuristicBot};
    use dalmuti_core::{Rules, Seed};
    use dalmuti_i18n::Lang;

    use super::*;

    /// A whole game of heuristic bots, one of them under the terminal
    /// game's default name.
    fn played(names: [&str; 4]) -> Game {
        let names = names.iter().map(|n| n.to_string()).collect();
        let mut game = Game::new(Rules::default(), names, Seed::from(5)).unwrap();
        let mut bots: Vec<HeuristicBot> = (0..4).map(|_| HeuristicBot::default()).collect();
        while let Some(seat) = game.hand().to_act().first_seat() {
            let view = game.view(dalmuti_core::Viewer::Seat(seat));
            let legal = view.legal_actions();
            let action = bots[seat.index()].decide(&view, &legal).unwrap();
            game.apply(seat, action).unwrap();
        }
        game
    }

    #[test]
    fn the_player_called_you_is_told_in_the_second_person() {
        let game = played(["Ada", "You", "Bo", "Cy"]);
        let told = super::game(&game, Tr::new(Lang::En, game.rules().variant));
        let all = told.join("\n");
        for slip in [
            "You is ",
            "You passes",
            "You tops",
            "You leads",
            "You gives",
        ] {
            assert!(!all.contains(slip), "{slip:?} in\n{all}");
        }
        assert!(all.contains("You are dealt"), "{all}");
        assert!(all.contains("Ada is dealt"), "{all}");
        // In Korean the reader is 당신 ("you"), not the English word.
        let ko = super::game(&game, Tr::new(Lang::Ko, game.rules().variant)).join("\n");
        assert!(!ko.contains("You"), "{ko}");
    }

    #[test]
    fn the_player_called_you_draws_in_the_second_person_in_every_language() {
        let game = played(["Ada", "You", "Bo", "Cy"]);
        assert!(game.draw().is_some(), "a game of four draws for seats");
        for (lang, you_draw, slip) in [
            (Lang::En, "you draw ", "You draws"),
            (Lang::De, "du ziehst ", "You zieht"),
            (Lang::Es, "tú sacas ", "You saca"),
            (Lang::Ja, "あなた：", "You："),
            (Lang::Ko, "나: ", "You: "),
        ] {
            let told = super::game(&game, Tr::new(lang, game.rules().variant));
            let draw = &told[1];
            assert!(draw.contains(you_draw), "{lang:?}: {draw}");
            assert!(!draw.contains(slip), "{lang:?}: {draw}");
            // The others draw in the third person.
            assert!(draw.contains("Ada"), "{lang:?}: {draw}");
        }
    }
}
