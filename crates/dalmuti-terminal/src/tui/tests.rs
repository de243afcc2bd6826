//! The full-screen game without a terminal: keys go straight to the
//! [`App`], and screens are rendered on ratatui's `TestBackend` and kept as
//! insta snapshots (`src/tui/snapshots/`). Seeds are fixed and bots
//! act at once (`--speed 0`), so every screen is the same on every run.

use std::time::Duration;

use dalmuti_core::{Action, Card, Cards, Decision, Seat};
use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::style::{Color, Modifier};

use super::app::{Choice, Tone};
use super::{App, Theme};
use crate::config::{Config, PlayArgs};
use crate::session::Session;
use crate::words;
use dalmuti_i18n::Lang;

const THEME: Theme = Theme {
    color: true,
    emoji: true,
};

fn config(seed: u64, players: usize, exchange: bool, hands: u32) -> Config {
    config_of("dalmuti", seed, players, exchange, hands)
}

fn config_of(variant: &str, seed: u64, players: usize, exchange: bool, hands: u32) -> Config {
    Config::new(&PlayArgs {
        variant: variant.into(),
        players: Some(players),
        bots: "heuristic".into(),
        name: "You".into(),
        seed: Some(seed.to_string()),
        stripped_deck: false,
        first_deal_revolution: false,
        merchant_exchange: exchange,
        scoring: "standard".into(),
        house: None,
        hands: Some(hands),
        speed: 0,
        plain: false,
        // English whatever the machine's locale: the snapshots are English.
        lang: Some("en".into()),
    })
    .unwrap()
}

fn session(seed: u64, players: usize, exchange: bool, hands: u32) -> Session {
    Session::new(&config(seed, players, exchange, hands)).unwrap()
}

fn app(session: &mut Session) -> App<'_> {
    let mut app = App::new(session, THEME, Duration::ZERO);
    app.settle();
    app
}

fn press(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::from(code));
    app.settle();
}

fn screen(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .unwrap();
    terminal
}

/// The first seed (from 0) whose session, once the bots have acted, asks
/// the human what `want` says.
fn seed_where(players: usize, exchange: bool, want: impl Fn(&Decision) -> bool) -> u64 {
    (0..5000)
        .find(|&seed| {
            let mut s = session(seed, players, exchange, 3);
            while s.step_bots().is_some() {}
            s.decision().is_some_and(|d| want(&d))
        })
        .expect("some seed deals that")
}

/// Answers the human's decisions with the hint's keys until `stop` says
/// so (or the game is over).
fn play_until(app: &mut App, stop: impl Fn(&App) -> bool) {
    assert!(play_to(app, stop), "never got there");
}

/// Answers the human's decisions with the hint's keys until `stop` says
/// so (`true`) or the game is over (`false`).
fn play_to(app: &mut App, stop: impl Fn(&App) -> bool) -> bool {
    for _ in 0..2000 {
        app.settle();
        if stop(app) {
            return true;
        }
        if app.is_done() || app.standings {
            return false;
        }
        if app.session().is_hand_over() {
            press(app, KeyCode::Enter);
            continue;
        }
        let Some(hint) = app.session().hint() else {
            press(app, KeyCode::Enter);
            continue;
        };
        press(app, KeyCode::Char('h'));
        let key = match hint {
            Action::CallRevolution => KeyCode::Char('r'),
            Action::Ready | Action::DeclineExchange => KeyCode::Char('n'),
            Action::Pass => KeyCode::Char('p'),
            _ => KeyCode::Enter,
        };
        press(app, key);
        // A Wedgie's target or the Dogberts' value: the dialog starts on
        // the hint's choice.
        if app.choice.is_some() {
            press(app, KeyCode::Enter);
        }
    }
    panic!("the game went on too long");
}

fn following(app: &App) -> bool {
    matches!(app.session().decision(), Some(Decision::Follow { .. }))
        && app.session().top().is_some_and(|t| !t.passed.is_empty())
}

// ----- screens -----

#[test]
fn the_table_mid_hand() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    play_until(&mut app, following);
    assert_snapshot!(screen(&app, 100, 30).backend());
}

#[test]
fn a_narrow_terminal_80_by_24() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    play_until(&mut app, following);
    assert_snapshot!(screen(&app, 80, 24).backend());
}

#[test]
fn a_big_table_on_80_by_24_keeps_you_in_view() {
    let mut s = session(2, 12, false, 3);
    let mut app = app(&mut s);
    play_until(&mut app, following);
    let term = screen(&app, 80, 24);
    assert_snapshot!(term.backend());
    let text = format!("{}", term.backend());
    assert!(text.contains("You "), "{text}");
}

#[test]
fn the_hand_panel_shows_the_selection() {
    let seed = seed_where(5, false, |d| *d == Decision::Lead);
    let mut s = session(seed, 5, false, 3);
    let mut app = app(&mut s);
    let cards = app.session().my_cards();
    // Move to the best rank you hold and add a Jester if you have one.
    press(&mut app, KeyCode::Home);
    if cards.wilds() > 0 {
        press(&mut app, KeyCode::Char('j'));
    }
    let term = screen(&app, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("Your set: "), "{text}");
    assert_snapshot!(term.backend());
}

#[test]
fn the_revolution_dialog() {
    // The human is asked to say ready only when dealt both Jesters.
    let seed = seed_where(5, false, |d| *d == Decision::Ready);
    let mut s = session(seed, 5, false, 3);
    let app = app(&mut s);
    let term = screen(&app, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("both Jesters"), "{text}");
    assert_snapshot!(term.backend());
}

#[test]
fn the_tax_dialog() {
    let seed = seed_where(5, false, |d| matches!(d, Decision::Tax { count: 2, .. }));
    let mut s = session(seed, 5, false, 3);
    let mut app = app(&mut s);
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Up);
    let term = screen(&app, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("1 of 2 chosen"), "{text}");
    assert_snapshot!(term.backend());
}

/// The screen's rows as text, one string a row.
fn rows(term: &Terminal<TestBackend>) -> Vec<String> {
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

#[test]
fn a_dialog_dims_the_table_and_the_log_behind_it() {
    let seed = seed_where(5, false, |d| matches!(d, Decision::Tax { count: 2, .. }));
    for theme in [
        THEME,
        Theme {
            color: false,
            emoji: false,
        },
    ] {
        let mut s = session(seed, 5, false, 3);
        let mut app = app(&mut s);
        app.theme = theme;
        let term = screen(&app, 80, 24);
        let rows = rows(&term);
        let buf = term.backend().buffer();
        let dim = |x: u16, y: usize| {
            let cell = &buf[(x, y as u16)];
            if theme.color {
                cell.fg == Color::DarkGray && !cell.modifier.contains(Modifier::BOLD)
            } else {
                cell.modifier.contains(Modifier::DIM)
            }
        };
        let top = rows.iter().position(|r| r.contains("┌ Taxes")).unwrap();
        let bottom = top
            + rows[top..]
                .iter()
                .position(|r| r.trim_start().starts_with('└'))
                .unwrap();
        let hand = rows
            .iter()
            .position(|r| r.starts_with("┌ Your hand"))
            .unwrap();
        // Above and below the box, the table and the log are dimmed, the
        // cut log lines with them.
        assert!(bottom + 1 < hand && top > 1, "{rows:#?}");
        for y in (1..top).chain(bottom + 1..hand) {
            for x in 0..80 {
                assert!(
                    dim(x, y),
                    "row {y}, column {x} is not dimmed: {:?}",
                    rows[y]
                );
            }
        }
        // The box is not, nor your hand below it.
        let words = rows[top + 1].find("Taxes:").unwrap() as u16;
        assert!(!dim(words, top + 1), "{:?}", rows[top + 1]);
        assert!(!dim(2, hand + 1), "{:?}", rows[hand + 1]);
    }
}

#[test]
fn the_tax_gift_says_nothing_chosen_and_the_hand_counts_what_stays() {
    let seed = seed_where(5, false, |d| matches!(d, Decision::Tax { count: 2, .. }));
    let mut s = session(seed, 5, false, 3);
    let mut app = app(&mut s);
    let text = text_of(&app);
    assert!(
        text.contains("Your gift: nothing chosen yet, 0 of 2."),
        "{text}"
    );
    assert!(text.contains("nothing chosen yet, 0 of 2"), "{text}");
    assert!(!text.contains("[]"), "{text}");
    // The worst kind goes into the gift: its chip counts one fewer.
    let (worst, held) = *app.kinds().last().unwrap();
    let name = app.session().tr().card(worst);
    let chip = |n: u8| format!("{} {name} ×{n}", worst.token());
    assert!(text_of(&app).contains(&chip(held)), "{}", text_of(&app));
    press(&mut app, KeyCode::End);
    press(&mut app, KeyCode::Up);
    assert_eq!(app.picked.count(worst), 1);
    let text = text_of(&app);
    assert!(text.contains(&chip(held - 1)), "{text}");
    assert!(!text.contains(&chip(held)), "{text}");
    assert!(text.contains("1 of 2 chosen"), "{text}");
    // Taken back, it is counted in the hand again.
    press(&mut app, KeyCode::Down);
    assert!(text_of(&app).contains(&chip(held)), "{}", text_of(&app));
}

#[test]
fn the_set_proposed_keeps_the_jesters_when_a_set_without_one_tops() {
    // Deals where you follow, a set with a Jester and one without both
    // top, and the worst rank that tops needs the Jester.
    let mut met = 0;
    for seed in 0..400 {
        let mut s = session(seed, 5, false, 1);
        let mut app = app(&mut s);
        if !play_to(&mut app, |a| {
            matches!(a.session().decision(), Some(Decision::Follow { .. }))
                && a.session().my_cards().wilds() > 0
        }) {
            continue;
        }
        let plays: Vec<dalmuti_core::Set> = app
            .session()
            .legal()
            .iter()
            .filter_map(|a| match a {
                Action::Play(set) => Some(*set),
                _ => None,
            })
            .collect();
        let plain = plays.iter().any(|p| p.wilds() == 0);
        if !plain || plays.first().is_none_or(|p| p.wilds() == 0) {
            continue;
        }
        met += 1;
        assert_eq!(
            app.selected_cards().wilds(),
            0,
            "seed {seed}: {:?} proposed while {:?} tops without a Jester",
            app.selected_cards(),
            plays.iter().find(|p| p.wilds() == 0)
        );
        if met == 3 {
            break;
        }
    }
    assert!(met > 0, "no deal where a Jester could be spent needlessly");
}

#[test]
fn at_80_by_24_the_log_is_wide_enough_to_read_and_the_prompt_keeps_its_indent() {
    for (lang, players) in [(Lang::En, 5), (Lang::De, 5), (Lang::En, 12)] {
        let mut s = in_lang(lang, session(2, players, false, 3));
        let mut app = app(&mut s);
        play_until(&mut app, following);
        let term = screen(&app, 80, 24);
        let rows = rows(&term);
        // The log's box: from its corner on the second row to the end.
        let log = rows[1].rfind('┌').unwrap();
        let width = rows[1][log..].chars().count();
        assert!(
            width >= 40,
            "{lang:?}: the log is {width} columns:\n{}",
            rows.join("\n")
        );
        // Without the titles' column, the crown and the hat mark the seats.
        if players == 5 {
            let text = rows.join("\n");
            assert!(text.contains('👑') && text.contains('👒'), "{text}");
        }
    }
    // A prompt too long for its line wraps one column in, as it starts.
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    play_until(&mut app, following);
    let rows = rows(&screen(&app, 40, 24));
    let at = rows.iter().position(|r| r.starts_with(" Top ")).unwrap();
    assert!(
        rows[at + 1].starts_with(' ') && !rows[at + 1].starts_with("  "),
        "{:?}",
        &rows[at..]
    );
}

#[test]
fn the_merchant_exchange_dialog() {
    let seed = seed_where(6, true, |d| *d == Decision::ExchangeOffer);
    let mut s = session(seed, 6, true, 3);
    let app = app(&mut s);
    assert_snapshot!(screen(&app, 80, 24).backend());
}

#[test]
fn the_end_of_hand_panel_then_the_next_hand() {
    let mut s = session(4, 5, false, 3);
    let mut app = app(&mut s);
    play_until(&mut app, |a| a.session().is_hand_over());
    let term = screen(&app, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("Hand 1 is over"), "{text}");
    assert_snapshot!(term.backend());
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.session().hand_number(), 2);
    assert!(!app.session().is_hand_over());
}

#[test]
fn the_final_standings_then_leaving() {
    let mut s = session(5, 4, false, 1);
    let mut app = app(&mut s);
    play_until(&mut app, |a| a.session().is_hand_over());
    press(&mut app, KeyCode::Enter);
    assert!(!app.is_done());
    let term = screen(&app, 80, 24);
    assert_snapshot!(term.backend());
    press(&mut app, KeyCode::Enter);
    assert!(app.is_done());
}

#[test]
fn the_help_screen() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    press(&mut app, KeyCode::Char('?'));
    assert_snapshot!(screen(&app, 80, 24).backend());
    // The bots wait while the help is open; Esc closes it.
    assert!(!app.bots_pending());
    press(&mut app, KeyCode::Esc);
    assert!(app.help.is_none());
}

#[test]
fn without_colour_only_text_styles() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    app.theme = Theme {
        color: false,
        emoji: false,
    };
    play_until(&mut app, following);
    let term = screen(&app, 80, 24);
    let buf = term.backend().buffer();
    for cell in buf.content() {
        assert_eq!(cell.fg, Color::Reset, "{cell:?}");
        assert_eq!(cell.bg, Color::Reset, "{cell:?}");
    }
    // The selection still stands out, in reverse video.
    assert!(
        buf.content()
            .iter()
            .any(|c| c.modifier.contains(Modifier::REVERSED))
    );
    let text = format!("{}", term.backend());
    assert!(!text.contains('👑'), "{text}");
    assert_snapshot!(term.backend());
}

#[test]
fn any_size_renders_without_panicking() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    for (w, h) in [(1, 1), (20, 5), (40, 12), (80, 24), (200, 60)] {
        screen(&app, w, h);
    }
    press(&mut app, KeyCode::Char('?'));
    for (w, h) in [(1, 1), (20, 5), (80, 24)] {
        screen(&app, w, h);
    }
}

// ----- keys -----

/// A key for a rank: 1-9, 0 for 10, - for 11, = for 12.
fn rank_key(card: Card) -> KeyCode {
    match card.index() {
        n @ 1..=9 => KeyCode::Char(char::from(b'0' + n as u8)),
        10 => KeyCode::Char('0'),
        11 => KeyCode::Char('-'),
        _ => KeyCode::Char('='),
    }
}

#[test]
fn choosing_a_rank_and_a_count_then_enter_plays_it() {
    let seed = seed_where(5, false, |d| *d == Decision::Lead);
    let mut s = session(seed, 5, false, 3);
    let mut app = app(&mut s);
    let before = app.session().my_cards();
    let (card, held) = before
        .kinds()
        .filter(|(c, _)| !c.is_jester())
        .last()
        .unwrap();
    press(&mut app, rank_key(card));
    for _ in 1..held {
        press(&mut app, KeyCode::Down);
    }
    let log = app.log().len();
    app.on_key(KeyEvent::from(KeyCode::Enter));
    let after = app.session().my_cards();
    assert_eq!(after.count(card), held - 1, "one {} played", card.token());
    assert_eq!(after.len(), before.len() - 1);
    assert!(app.log().len() > log);
    assert!(app.log()[log].starts_with("You"), "{:?}", &app.log()[log..]);
}

#[test]
fn an_illegal_choice_says_why_and_changes_nothing() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    // A follow where you hold a rank no better than the set on the table.
    play_until(&mut app, |a| match a.session().decision() {
        Some(Decision::Follow { top, .. }) => a
            .session()
            .my_cards()
            .kinds()
            .any(|(c, _)| !c.is_jester() && c.index() >= usize::from(top.rank_number())),
        _ => false,
    });
    let Some(Decision::Follow { top, .. }) = app.session().decision() else {
        panic!("not following");
    };
    let (card, _) = app
        .session()
        .my_cards()
        .kinds()
        .find(|(c, _)| !c.is_jester() && c.index() >= usize::from(top.rank_number()))
        .unwrap();
    let (cards, log, decision) = (
        app.session().my_cards(),
        app.session().log(),
        app.session().decision(),
    );
    app.on_key(KeyEvent::from(rank_key(card)));
    app.on_key(KeyEvent::from(KeyCode::Enter));
    let message = app.message().expect("a reason").clone();
    assert_eq!(message.tone, Tone::Refusal);
    assert!(message.text.contains("does not top"), "{}", message.text);
    assert_eq!(app.session().my_cards(), cards);
    assert_eq!(app.session().log(), log);
    assert_eq!(app.session().decision(), decision);
    let term = screen(&app, 80, 24);
    assert!(format!("{}", term.backend()).contains("does not top"));
}

#[test]
fn p_passes() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    play_until(&mut app, |a| {
        matches!(a.session().decision(), Some(Decision::Follow { .. }))
    });
    let (cards, log) = (app.session().my_cards(), app.log().len());
    app.on_key(KeyEvent::from(KeyCode::Char('p')));
    assert_eq!(app.session().my_cards(), cards);
    assert_eq!(app.log()[log], "You pass.", "{:?}", &app.log()[log..]);
}

#[test]
fn leading_cannot_pass() {
    let seed = seed_where(5, false, |d| *d == Decision::Lead);
    let mut s = session(seed, 5, false, 3);
    let mut app = app(&mut s);
    app.on_key(KeyEvent::from(KeyCode::Char('p')));
    let message = app.message().unwrap();
    assert_eq!(message.tone, Tone::Refusal);
    assert!(message.text.contains("cannot pass"), "{}", message.text);
    assert_eq!(app.session().decision(), Some(Decision::Lead));
}

#[test]
fn h_shows_the_hint_and_selects_it() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    play_until(&mut app, |a| {
        matches!(a.session().hint(), Some(Action::Play(_)))
            && matches!(
                a.session().decision(),
                Some(Decision::Follow { .. } | Decision::Lead)
            )
    });
    let Some(Action::Play(set)) = app.session().hint() else {
        unreachable!()
    };
    app.on_key(KeyEvent::from(KeyCode::Char('h')));
    let message = app.message().unwrap();
    assert_eq!(message.tone, Tone::Hint);
    assert!(message.text.starts_with("Hint: play"), "{}", message.text);
    assert!(
        message.text.contains(&format!("[{set}]")),
        "{}",
        message.text
    );
    assert_eq!(app.selected_cards(), set.cards());
    let held = app.session().my_cards().len();
    app.on_key(KeyEvent::from(KeyCode::Enter));
    assert_eq!(app.session().my_cards().len(), held - u32::from(set.size()));
}

#[test]
fn a_dalmuti_chooses_the_tax_gift_and_sees_the_exchange() {
    let seed = seed_where(5, false, |d| matches!(d, Decision::Tax { count: 2, .. }));
    let mut s = session(seed, 5, false, 3);
    let mut app = app(&mut s);
    let worst = app.session().my_cards().worst(2);
    // Enter with too few cards is refused, with the reason.
    app.on_key(KeyEvent::from(KeyCode::Enter));
    assert!(app.message().unwrap().text.contains("exactly 2"));
    for (card, n) in worst.kinds() {
        app.on_key(KeyEvent::from(rank_key(card)));
        if card.is_jester() {
            while app.cursor != Some(Card::JESTER) {
                app.on_key(KeyEvent::from(KeyCode::Right));
            }
        }
        for _ in 0..n {
            app.on_key(KeyEvent::from(KeyCode::Up));
        }
    }
    assert_eq!(app.picked, worst);
    press(&mut app, KeyCode::Enter);
    let view = app.session().view();
    let tax = view.my_tax().expect("the taxes are done");
    assert_eq!(tax.gift, worst);
    assert!(
        app.log().iter().any(|l| l.starts_with("Taxes: you give")),
        "{:?}",
        app.log()
    );
    let text = format!("{}", screen(&app, 80, 24).backend());
    assert!(text.contains("Your taxes: gave"), "{text}");
}

#[test]
fn y_calls_the_revolution() {
    // The human is asked to say ready only when dealt both Jesters.
    let seed = seed_where(5, false, |d| *d == Decision::Ready);
    let mut s = session(seed, 5, false, 3);
    let mut app = app(&mut s);
    press(&mut app, KeyCode::Char('y'));
    assert!(app.session().view().revolution().is_some());
    assert!(
        app.log().iter().any(|l| l.contains("revolution")),
        "{:?}",
        app.log()
    );
}

#[test]
fn n_keeps_quiet_and_nobody_is_told() {
    let seed = seed_where(5, false, |d| *d == Decision::Ready);
    let mut s = session(seed, 5, false, 3);
    let mut app = app(&mut s);
    press(&mut app, KeyCode::Char('n'));
    app.settle();
    assert!(app.session().view().revolution().is_none());
    assert!(
        app.log()
            .iter()
            .any(|l| l.contains("dealt both Jesters but call no revolution")),
        "you are told: {:?}",
        app.log()
    );
}

/// The first seed whose human, once the bots have acted, chooses a tax
/// gift holding both Jesters (and so may call a revolution instead).
fn taxing_dalmuti_with_both_jesters() -> u64 {
    (0..5000)
        .find(|&seed| {
            let mut s = session(seed, 5, false, 3);
            while s.step_bots().is_some() {}
            matches!(s.decision(), Some(Decision::Tax { .. })) && s.revolution_offer().is_some()
        })
        .expect("some seed deals that")
}

#[test]
fn a_dalmuti_dealt_both_jesters_may_press_r_in_the_tax_dialog() {
    let seed = taxing_dalmuti_with_both_jesters();
    let mut s = session(seed, 5, false, 3);
    let mut app = app(&mut s);
    let text = format!("{}", screen(&app, 80, 30).backend());
    assert!(text.contains("call a revolution instead"), "{text}");
    press(&mut app, KeyCode::Char('r'));
    assert!(app.session().view().revolution().is_some());
    assert!(!app.session().view().rules().first_deal_revolution);
    assert_eq!(app.session().view().my_tax(), None, "no taxes after it");
}

/// Every language's help names the keys that call a revolution, and each
/// does, in the revolution dialog and in the tax dialog alike.
#[test]
fn the_help_names_the_revolution_keys_that_work_in_every_dialog() {
    for lang in dalmuti_i18n::Lang::ALL {
        let help = crate::tr::Tr::new(lang, dalmuti_core::Variant::Dalmuti).v("help.keys", &[]);
        let line = help
            .lines()
            .find(|l| l.starts_with("r / n ::"))
            .unwrap_or_else(|| panic!("{lang:?}: no r / n line in {help}"));
        assert!(line.contains('y'), "{lang:?}: {line}");
    }
    let taxed = taxing_dalmuti_with_both_jesters();
    let asked = seed_where(5, false, |d| *d == Decision::Ready);
    for seed in [taxed, asked] {
        for key in ['r', 'y'] {
            let mut s = session(seed, 5, false, 3);
            let mut app = app(&mut s);
            press(&mut app, KeyCode::Char(key));
            assert!(
                app.session().view().revolution().is_some(),
                "{key} at seed {seed}"
            );
        }
    }
}

#[test]
fn the_merchant_exchange_by_keys() {
    let seed = seed_where(6, true, |d| *d == Decision::ExchangeOffer);
    let mut s = session(seed, 6, true, 3);
    let mut app = app(&mut s);
    press(&mut app, KeyCode::Enter);
    let view = app.session().view();
    assert!(view.my_trade().is_some(), "{:?}", app.log());
}

#[test]
fn q_quits_at_any_time() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    app.on_key(KeyEvent::from(KeyCode::Char('q')));
    assert!(app.is_done());
    // What was played so far can be saved.
    let dir = std::env::temp_dir().join(format!("dalmuti-tui-{}", std::process::id()));
    let path = s.save_record(&dir).unwrap();
    assert!(path.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn whole_games_by_keys_alone() {
    for seed in 0..4 {
        let mut s = session(seed, 6, true, 2);
        let mut app = app(&mut s);
        play_until(&mut app, |a| a.standings);
        assert!(app.session().is_game_over());
        screen(&app, 80, 24);
        press(&mut app, KeyCode::Enter);
        assert!(app.is_done());
    }
}

// ----- Corporate Shuffle -----

fn corporate(seed: u64, players: usize, hands: u32) -> Session {
    Session::new(&config_of("corporate-shuffle", seed, players, false, hands)).unwrap()
}

/// The first Corporate Shuffle game (from seed 0, five players) in which
/// the hints' keys bring the human to where `stop` says; its seed.
fn corporate_seed_where(stop: impl Fn(&App) -> bool + Copy) -> u64 {
    (0..200)
        .find(|&seed| {
            let mut s = corporate(seed, 5, 3);
            let mut app = app(&mut s);
            play_to(&mut app, stop)
        })
        .expect("some game comes there")
}

fn holds(app: &App, card: Card) -> bool {
    app.session().my_cards().count(card) > 0
}

fn leading_with(card: Card) -> impl Fn(&App) -> bool + Copy {
    move |a: &App| a.session().decision() == Some(Decision::Lead) && holds(a, card)
}

/// Left and right until the cursor is on `card`.
fn cursor_to(app: &mut App, card: Card) {
    press(app, KeyCode::Home);
    while app.cursor != Some(card) {
        let before = app.cursor;
        press(app, KeyCode::Right);
        assert_ne!(app.cursor, before, "no {card} in the hand");
    }
}

/// The human is to follow while a Wedgie has made someone pass.
fn wedged(app: &App) -> bool {
    matches!(app.session().decision(), Some(Decision::Follow { .. }))
        && app.session().view().wedged().is_some()
}

#[test]
fn a_corporate_shuffle_table_shows_titles_names_and_who_is_wedged() {
    let seed = corporate_seed_where(wedged);
    let mut s = corporate(seed, 5, 3);
    let mut app = app(&mut s);
    play_until(&mut app, wedged);
    let term = screen(&app, 100, 30);
    let text = format!("{}", term.backend());
    for words in [
        "Corporate Shuffle",
        "Big Boss",
        "Junior Intern",
        " wedged ",
        "is wedged: they pass for the rest of",
    ] {
        assert!(text.contains(words), "no {words:?} in\n{text}");
    }
    for word in [
        "Jester",
        "Dalmuti",
        "Peon",
        "Merchant",
        "axes",
        "revolution",
    ] {
        assert!(!text.contains(word), "{word} in\n{text}");
    }
    assert_snapshot!(term.backend());
}

#[test]
fn the_wedgie_target_dialog_names_a_player_then_plays() {
    let seed = corporate_seed_where(leading_with(Card::TWIRLING_WEDGIE));
    let mut s = corporate(seed, 5, 3);
    let mut app = app(&mut s);
    play_until(&mut app, leading_with(Card::TWIRLING_WEDGIE));
    cursor_to(&mut app, Card::TWIRLING_WEDGIE);
    press(&mut app, KeyCode::Enter);
    let Some(Choice::Target { targets, .. }) = app.choice.clone() else {
        panic!("no dialog: {:?}", app.message());
    };
    // Everyone else still holding cards, and nobody else.
    let others: Vec<Seat> = app
        .session()
        .table()
        .iter()
        .filter(|i| !i.is_me && i.cards > 0)
        .map(|i| i.seat)
        .collect();
    assert_eq!(targets, others);
    let term = screen(&app, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("Twirling Wedgie: whom?"), "{text}");
    assert_snapshot!(term.backend());
    // Esc goes back and plays nothing; Enter again, Down, Enter names the
    // second player.
    let held = app.session().my_cards();
    press(&mut app, KeyCode::Esc);
    assert!(app.choice.is_none());
    assert_eq!(app.session().my_cards(), held);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Down);
    let log = app.log().len();
    app.on_key(KeyEvent::from(KeyCode::Enter));
    assert!(app.choice.is_none());
    assert_eq!(app.session().view().wedged(), Some(targets[1]));
    let name = app.session().name_at(targets[1]).to_string();
    assert_eq!(
        app.log()[log],
        format!("You lead the Twirling Wedgie: {name} must pass for the rest of the trick.")
    );
}

#[test]
fn the_dogbert_value_dialog_offers_the_values_that_top() {
    let seed = corporate_seed_where(leading_with(Card::DOGBERT));
    let mut s = corporate(seed, 5, 3);
    let mut app = app(&mut s);
    play_until(&mut app, leading_with(Card::DOGBERT));
    // The wild card is the hand's last kind; one Dogbert.
    press(&mut app, KeyCode::End);
    assert_eq!(app.cursor, Some(Card::DOGBERT));
    while app.count > 1 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    let Some(Choice::Value { values, at, .. }) = app.choice.clone() else {
        panic!("no dialog: {:?}", app.message());
    };
    assert_eq!(values, (1..=10).collect::<Vec<u8>>(), "a lead: any value");
    assert_eq!(at, 0, "the best value first");
    press(&mut app, KeyCode::Char('3'));
    let term = screen(&app, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("Dogberts: what value?"), "{text}");
    assert!(text.contains("3 Consultant"), "{text}");
    assert_snapshot!(term.backend());
    for (w, h) in [(1, 1), (20, 5), (40, 12), (200, 60)] {
        screen(&app, w, h);
    }
    let log = app.log().len();
    app.on_key(KeyEvent::from(KeyCode::Enter));
    assert_eq!(app.log()[log], "You lead a Dogbert as a 3 (Consultant).");
}

#[test]
fn a_dogbert_value_that_does_not_top_is_refused_in_the_dialog() {
    let following_with_a_dogbert = |a: &App| match a.session().decision() {
        Some(Decision::Follow { top, .. }) => {
            top.size() == 1 && top.rank_number() > 2 && holds(a, Card::DOGBERT)
        }
        _ => false,
    };
    let seed = corporate_seed_where(following_with_a_dogbert);
    let mut s = corporate(seed, 5, 3);
    let mut app = app(&mut s);
    play_until(&mut app, following_with_a_dogbert);
    let Some(Decision::Follow { top, .. }) = app.session().decision() else {
        unreachable!()
    };
    press(&mut app, KeyCode::End);
    while app.count > 1 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    let Some(Choice::Value { values, .. }) = app.choice.clone() else {
        panic!("no dialog: {:?}", app.message());
    };
    let topping: Vec<u8> = (1..top.rank_number()).collect();
    assert_eq!(values, topping);
    // The set's own value does not top it.
    let key = match top.rank_number() {
        10 => KeyCode::Char('0'),
        n => KeyCode::Char(char::from(b'0' + n)),
    };
    press(&mut app, key);
    let message = app.message().expect("a reason");
    assert_eq!(message.tone, Tone::Refusal);
    assert!(
        message
            .text
            .starts_with(&format!("Not {}:", top.rank_number())),
        "{}",
        message.text
    );
    assert!(app.choice.is_some(), "the dialog stays open");
}

#[test]
fn the_corporate_takeover_offer() {
    let seed = (0..5000)
        .find(|&seed| {
            let mut s = corporate(seed, 5, 3);
            while s.step_bots().is_some() {}
            s.decision() == Some(Decision::Ready)
        })
        .expect("someone is dealt both Dogberts");
    let mut s = corporate(seed, 5, 3);
    let mut app = app(&mut s);
    let term = screen(&app, 80, 24);
    let text = format!("{}", term.backend());
    assert!(text.contains("both Dogberts"), "{text}");
    assert!(text.contains("corporate takeover"), "{text}");
    assert!(!text.contains("revolution"), "{text}");
    assert_snapshot!(term.backend());
    press(&mut app, KeyCode::Char('r'));
    assert!(app.session().view().revolution().is_some());
    assert!(
        app.log()
            .iter()
            .any(|l| l.contains("corporate takeover: no executive bonuses")),
        "{:?}",
        app.log()
    );
}

#[test]
fn whole_corporate_shuffle_games_by_keys_alone_save_records_that_check() {
    let dir = std::env::temp_dir().join(format!("dalmuti-tui-cs-{}", std::process::id()));
    for seed in 0..3 {
        let mut s = corporate(seed, 4 + seed as usize, 2);
        let mut app = app(&mut s);
        play_until(&mut app, |a| a.standings);
        screen(&app, 80, 24);
        press(&mut app, KeyCode::Enter);
        assert!(app.is_done());
        let path = s.save_record(&dir).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            matches!(
                dalmuti_core::record::check(&text),
                dalmuti_core::record::Checked::Valid(_)
            ),
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn t_joins_the_wedgie_to_your_sixes_and_only_to_them() {
    let six = Card::from_index(6).unwrap();
    let leading_with_sixes = |a: &App| {
        leading_with(Card::TWIRLING_WEDGIE)(a)
            && holds(a, six)
            && a.session()
                .my_cards()
                .kinds()
                .any(|(c, _)| c.number().is_some_and(|n| n != 6))
    };
    let seed = corporate_seed_where(leading_with_sixes);
    let mut s = corporate(seed, 5, 3);
    let mut app = app(&mut s);
    play_until(&mut app, leading_with_sixes);
    // On another value, t says why not.
    let (other, _) = app
        .session()
        .my_cards()
        .kinds()
        .find(|(c, _)| c.number().is_some_and(|n| n != 6))
        .unwrap();
    press(&mut app, rank_key(other));
    press(&mut app, KeyCode::Char('t'));
    let message = app.message().expect("a reason");
    assert_eq!(message.tone, Tone::Refusal);
    assert!(
        message.text.starts_with("The Twirling Wedgie is a 6"),
        "{}",
        message.text
    );
    // On the 6s it joins them, and Enter asks whom it names.
    press(&mut app, KeyCode::Char('6'));
    let sixes = app.count;
    press(&mut app, KeyCode::Char('t'));
    let mut cards = Cards::EMPTY;
    cards.add(six, sixes);
    cards.add(Card::TWIRLING_WEDGIE, 1);
    assert_eq!(app.selected_cards(), cards);
    press(&mut app, KeyCode::Enter);
    let Some(Choice::Target { targets, .. }) = app.choice.clone() else {
        panic!("no dialog: {:?}", app.message());
    };
    // A seat's number picks it.
    let last = *targets.last().unwrap();
    press(
        &mut app,
        KeyCode::Char(char::from(b'0' + words::seat_number(last) as u8)),
    );
    let log = app.log().len();
    app.on_key(KeyEvent::from(KeyCode::Enter));
    assert_eq!(app.session().my_cards().count(Card::TWIRLING_WEDGIE), 0);
    assert_eq!(app.session().my_cards().count(six), 0);
    assert!(
        app.log()[log].ends_with(&format!(
            "the Twirling Wedgie: {} must pass for the rest of the trick.",
            app.session().name_at(last)
        )),
        "{}",
        app.log()[log]
    );
}

// ----- other languages -----

/// The screen's text, every message translated (no key shows) and every
/// row as wide as the screen, wide characters included.
fn translated(term: &Terminal<TestBackend>) -> String {
    let text = format!("{}", term.backend());
    let keys = dalmuti_i18n::raw_keys(&text);
    assert!(keys.is_empty(), "{keys:?} in\n{text}");
    let width = usize::from(term.size().unwrap().width);
    for row in text.lines() {
        // Each row is quoted, then may list the cells wide characters hide.
        let row = row.split(" Hidden by multi-width symbols").next().unwrap();
        assert_eq!(ratatui::text::Line::from(row).width(), width + 2, "{row}");
    }
    text
}

fn in_lang(lang: Lang, mut session: Session) -> Session {
    session.set_lang(lang);
    session
}

/// The table of [`the_table_mid_hand`] in `lang`, on `width` by `height`.
fn mid_hand_in(lang: Lang, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut s = in_lang(lang, session(1, 5, false, 3));
    let mut app = app(&mut s);
    play_until(&mut app, following);
    screen(&app, width, height)
}

#[test]
fn the_table_mid_hand_in_korean() {
    let term = mid_hand_in(Lang::Ko, 100, 30);
    let text = translated(&term);
    for words in ["대 달무티", "기사", "패스"] {
        assert!(text.contains(words), "no {words:?} in\n{text}");
    }
    assert_snapshot!(term.backend());
}

#[test]
fn a_corporate_shuffle_table_in_korean() {
    let seed = corporate_seed_where(wedged);
    let mut s = in_lang(Lang::Ko, corporate(seed, 5, 3));
    let mut app = app(&mut s);
    play_until(&mut app, wedged);
    let term = screen(&app, 100, 30);
    let text = translated(&term);
    assert!(text.contains("큰 보스"), "{text}");
    assert!(!text.contains("달무티"), "{text}");
    assert_snapshot!(term.backend());
}

#[test]
fn the_tax_dialog_in_german() {
    let seed = seed_where(5, false, |d| matches!(d, Decision::Tax { count: 2, .. }));
    let mut s = in_lang(Lang::De, session(seed, 5, false, 3));
    let mut app = app(&mut s);
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Up);
    let term = screen(&app, 80, 24);
    let text = translated(&term);
    assert!(text.contains("1 von 2 gewählt"), "{text}");
    assert!(text.contains("Großer Dalmuti"), "{text}");
    assert_snapshot!(term.backend());
}

#[test]
fn a_narrow_terminal_in_german() {
    let term = mid_hand_in(Lang::De, 80, 24);
    translated(&term);
    assert_snapshot!(term.backend());
}

#[test]
fn l_switches_the_language_and_the_screen_follows() {
    let mut s = session(1, 5, false, 3);
    let mut app = app(&mut s);
    // English, then Korean, German, Spanish, Japanese and English again.
    for title in [
        "대 달무티",
        "Großer Dalmuti",
        "Gran Dalmuti",
        "大ダルムティ",
        "Greater Dalmuti",
    ] {
        press(&mut app, KeyCode::Char('L'));
        let text = translated(&screen(&app, 100, 30));
        assert!(text.contains(title), "no {title:?} in\n{text}");
    }
}

/// After `L` the whole log is told again in the new language, earlier
/// hands too: no line stays in the old one, and the log tells the same
/// story (as many hands, every move).
#[test]
fn l_tells_the_whole_log_again_in_the_new_language() {
    let mut s = session(4, 5, false, 3);
    let mut app = app(&mut s);
    play_until(&mut app, |a| {
        a.session().hand_number() == 2 && a.session().decision().is_some()
    });
    // Notices of secret setup choices (a bot's tax gift chosen, your own)
    // are part of the story, and are told again with the rest.
    let story = |log: &[String]| -> Vec<String> { log.to_vec() };
    let english = story(app.log());
    assert!(
        english
            .iter()
            .any(|l| l.contains(" has chosen the tax gift") || l.starts_with("You will give")),
        "{english:#?}"
    );
    press(&mut app, KeyCode::Char('L'));
    assert_eq!(app.session().lang(), Lang::Ko);
    let korean = app.log().to_vec();
    for line in &korean {
        for word in [
            "Your hand",
            "passes",
            " leads ",
            "The draw",
            "Hand ",
            "tops it",
        ] {
            assert!(!line.contains(word), "{word:?} still in English: {line}");
        }
    }
    assert_eq!(
        korean.iter().filter(|l| l.starts_with("── ")).count(),
        2,
        "{korean:#?}"
    );
    // Back in English, the story is the one told before the switch.
    for _ in 1..Lang::ALL.len() {
        press(&mut app, KeyCode::Char('L'));
    }
    assert_eq!(app.session().lang(), Lang::En);
    assert_eq!(story(app.log()), english);
    // The next hand's seating says "you" in the language's own word.
    press(&mut app, KeyCode::Char('L'));
    play_until(&mut app, |a| a.session().is_hand_over());
    let end = app.session().hand_end().expect("the hand is over");
    assert!(
        end.next_seating.iter().all(|n| n != "You"),
        "{:?}",
        end.next_seating
    );
}

// ----- a bot that thinks long -----

/// A bot that thinks until the test lets it answer: a long search on
/// demand. It says when it starts (`entered`), then waits for the gate
/// (never more than a minute, so a broken test fails instead of hanging)
/// and makes the safe choice. `hold` says which decisions it thinks over;
/// others it answers at once.
struct SlowBot {
    entered: std::sync::mpsc::Sender<Decision>,
    gate: std::sync::mpsc::Receiver<()>,
    hold: fn(&Decision) -> bool,
}

impl dalmuti_bots::Bot for SlowBot {
    fn name(&self) -> &str {
        "slow"
    }

    fn decide(
        &mut self,
        view: &dalmuti_core::View<'_>,
        legal: &[Action],
    ) -> Result<Action, dalmuti_bots::BotFault> {
        if let Some(decision) = view.decision().filter(|d| (self.hold)(d)) {
            let _ = self.entered.send(decision);
            let _ = self.gate.recv_timeout(Duration::from_secs(60));
        }
        Ok(dalmuti_bots::fallback(legal))
    }
}

/// Puts a [`SlowBot`] in `player`'s seat; returns the channels that see it
/// start thinking and let it answer.
fn seat_slow_bot(
    session: &mut Session,
    player: dalmuti_core::PlayerId,
    hold: fn(&Decision) -> bool,
) -> (
    std::sync::mpsc::Receiver<Decision>,
    std::sync::mpsc::Sender<()>,
) {
    let (entered, started) = std::sync::mpsc::channel();
    let (open, gate) = std::sync::mpsc::channel();
    session.seat_bot(
        player,
        Box::new(SlowBot {
            entered,
            gate,
            hold,
        }),
    );
    (started, open)
}

fn plays(decision: &Decision) -> bool {
    matches!(decision, Decision::Lead | Decision::Follow { .. })
}

/// A session in play where a bot, not the human, is to move next, and
/// that bot's player.
fn a_bot_to_play() -> (Session, dalmuti_core::PlayerId) {
    let mut s = session(3, 5, false, 3);
    for _ in 0..1000 {
        let in_play = s.view().ready_count().is_none();
        if in_play && s.decision().is_none() && s.bots_to_act() {
            let next = s.table().into_iter().find(|t| t.to_act && !t.is_me);
            let next = next.expect("in play, the table sees whose turn it is");
            return (s, next.player);
        }
        if !in_play && s.bots_to_act() || s.decision().is_none() {
            s.step_bots();
        } else {
            let hint = s.hint().unwrap();
            s.act(hint).unwrap();
        }
    }
    panic!("no bot came to play");
}

fn text_of(app: &App) -> String {
    format!("{}", screen(app, 100, 30).backend())
}

/// Ticks until the log grows past `lines` (the bot's answer is played), or
/// gives up after a few seconds.
fn tick_until_played(app: &mut App, lines: usize) {
    let start = std::time::Instant::now();
    while app.log().len() == lines {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the bot's answer was never played"
        );
        app.tick(std::time::Instant::now());
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_thinking_bot_shows_who_thinks_keys_are_answered_and_its_move_comes_after() {
    let (mut s, thinker) = a_bot_to_play();
    let (started, open) = seat_slow_bot(&mut s, thinker, plays);
    let name = s.name(thinker).to_string();
    let mut app = App::new(&mut s, THEME, Duration::ZERO);
    app.tick(std::time::Instant::now());
    started
        .recv_timeout(Duration::from_secs(20))
        .expect("the bot starts thinking on its own thread");

    // Who thinks, and nothing of what: the prompt names the player only.
    let thinking = app.thinking().expect("the screen knows a bot thinks");
    assert_eq!(thinking.name.as_deref(), Some(name.as_str()));
    let text = text_of(&app);
    assert!(
        text.contains(&format!("{name} is thinking…")),
        "the prompt says who thinks:\n{text}"
    );

    // Keys are answered meanwhile (each returns although the bot still
    // thinks): the help, scrolling, the language.
    app.on_key(KeyEvent::from(KeyCode::Char('?')));
    assert!(app.help.is_some());
    app.tick(std::time::Instant::now());
    app.on_key(KeyEvent::from(KeyCode::Esc));
    assert!(app.help.is_none());
    app.on_key(KeyEvent::from(KeyCode::PageUp));
    assert!(app.scroll > 0);
    app.on_key(KeyEvent::from(KeyCode::PageDown));
    app.on_key(KeyEvent::from(KeyCode::Char('L')));
    assert_eq!(app.session().lang(), Lang::Ko);
    let text = text_of(&app);
    assert!(text.contains("생각하는 중"), "in the new language:\n{text}");
    for _ in 1..Lang::ALL.len() {
        app.on_key(KeyEvent::from(KeyCode::Char('L')));
    }
    assert_eq!(app.session().lang(), Lang::En);
    // The log is told again at each switch: what was handed out, all of it
    // (this test took the session's first news before the screen opened).
    let lines = app.log().len();
    app.tick(std::time::Instant::now());
    assert_eq!(
        app.log().len(),
        lines,
        "nothing is played before it answers"
    );
    assert!(app.thinking().is_some());

    // It answers: its move is played and shown.
    open.send(()).unwrap();
    tick_until_played(&mut app, lines);
    let played = &app.log()[lines];
    assert!(played.contains(&name), "{played}");
    assert!(
        app.session()
            .table()
            .iter()
            .all(|t| !(t.player == thinker && t.to_act)),
        "its turn is over"
    );
}

#[test]
fn quitting_while_a_bot_thinks_does_not_wait_for_it() {
    let (mut s, thinker) = a_bot_to_play();
    let (started, _open) = seat_slow_bot(&mut s, thinker, plays);
    let mut app = App::new(&mut s, THEME, Duration::ZERO);
    app.tick(std::time::Instant::now());
    started.recv_timeout(Duration::from_secs(20)).unwrap();
    app.on_key(KeyEvent::from(KeyCode::Char('q')));
    assert!(app.is_done(), "q quits while the bot still thinks");
    drop(app);
    // The game so far is whole: the record is saved without the move in
    // thought.
    let dir = std::env::temp_dir().join(format!("dalmuti-thinking-{}", std::process::id()));
    let path = s.save_record(&dir).unwrap();
    let record = std::fs::read_to_string(&path).unwrap();
    assert!(matches!(
        dalmuti_core::record::check(&record),
        dalmuti_core::record::Checked::Valid(_)
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn while_the_hand_is_set_up_the_screen_does_not_say_who_is_still_choosing() {
    // A deal that leaves you nothing to choose while the bots choose.
    let mut s = (0..100)
        .map(|seed| session(seed, 5, false, 3))
        .find(|s| s.decision().is_none() && s.bots_to_act())
        .expect("some deal asks you nothing at first");
    let bots: Vec<_> = s
        .table()
        .into_iter()
        .filter(|t| !t.is_me)
        .map(|t| t.player)
        .collect();
    let gates: Vec<_> = bots
        .iter()
        .map(|&p| seat_slow_bot(&mut s, p, |_| true))
        .collect();
    let mut app = App::new(&mut s, THEME, Duration::ZERO);
    app.tick(std::time::Instant::now());
    assert!(
        gates
            .iter()
            .any(|(started, _)| started.recv_timeout(Duration::from_secs(20)).is_ok()),
        "a bot thinks over its setup choice"
    );
    assert_eq!(app.session().view().ready_count().map(|_| ()), Some(()));
    let thinking = app.thinking().expect("a bot thinks");
    assert_eq!(thinking.name, None, "who is still choosing stays secret");
    let text = text_of(&app);
    assert!(!text.contains("is thinking"), "{text}");
    assert!(text.contains("getting ready"), "{text}");
    for (_, open) in &gates {
        let _ = open.send(());
    }
}

#[test]
fn your_setup_choice_does_not_wait_for_a_thinking_bot() {
    // A deal that asks you a setup choice (a tax gift, a revolution) while
    // the bots make theirs.
    let mut s = (0..200)
        .map(|seed| session(seed, 5, false, 3))
        .find(|s| s.decision().is_some() && s.bots_to_act())
        .expect("some deal asks you and the bots at once");
    let bots: Vec<_> = s
        .table()
        .into_iter()
        .filter(|t| !t.is_me)
        .map(|t| t.player)
        .collect();
    let gates: Vec<_> = bots
        .iter()
        .map(|&p| seat_slow_bot(&mut s, p, |_| true))
        .collect();
    let mut app = App::new(&mut s, THEME, Duration::ZERO);
    app.tick(std::time::Instant::now());
    assert!(
        gates
            .iter()
            .any(|(started, _)| started.recv_timeout(Duration::from_secs(20)).is_ok()),
        "a bot thinks over its setup choice"
    );
    // You choose while it thinks.
    let hint = app.session().hint().unwrap();
    app.session.act(hint).unwrap();
    assert_eq!(app.session().decision(), None);
    // Every bot answers in turn; the hand goes on to play.
    for (_, open) in &gates {
        for _ in 0..8 {
            let _ = open.send(());
        }
    }
    let start = std::time::Instant::now();
    while app.session().view().ready_count().is_some() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the setup never ended"
        );
        app.tick(std::time::Instant::now());
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Beside a dialog wider screens show nothing: not the ends of the table's
/// and the log's lines it covers, which read as nonsense cut mid-word.
#[test]
fn a_dialog_leaves_no_cut_line_beside_it() {
    let seed = seed_where(5, false, |d| matches!(d, Decision::Tax { count: 2, .. }));
    let mut s = session(seed, 5, false, 3);
    let app = app(&mut s);
    let term = screen(&app, 110, 30);
    let buf = term.backend().buffer();
    let row = |y: u16| -> Vec<String> {
        (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect()
    };
    let top = (0..buf.area.height)
        .find(|&y| row(y).concat().contains("┌ Taxes"))
        .expect("the tax dialog is drawn");
    let left = row(top).iter().position(|c| c == "┌").unwrap();
    let right = left + row(top)[left..].iter().position(|c| c == "┐").unwrap();
    let mut y = top;
    loop {
        let cells = row(y);
        let beside = cells[..left].concat() + &cells[right + 1..].concat();
        assert!(beside.trim().is_empty(), "row {y}: {:?}", cells.concat());
        if cells[left] == "└" {
            break;
        }
        y += 1;
    }
}
