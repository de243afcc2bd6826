//! Drawing the full-screen game: `impl Widget for &App`.
//!
//! The screen, top to bottom: a header line; the table (seats in order,
//! titles, cards, who acts and who leads, the set on the table and the
//! passes) beside the log; your hand as one chip per rank; the prompt and
//! the last message; the keys. Dialogs (revolution, taxes, the merchant
//! exchange; in Corporate Shuffle also whom the Twirling Wedgie names and
//! what Dogberts alone are worth) open over the table and leave your hand
//! in view. Words, titles and card names follow the variant. At the end
//! of a hand its results take the place of the table, and the final
//! standings end the game. Everything fits 80×24.

use dalmuti_core::narrate::{cards_words, count_of, ordinal, set_words};
use dalmuti_core::{Card, Decision, Event, Seat, Seen, Stage, Title, Variant};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Cell, Clear, Paragraph, Row, Table, Widget, Wrap};

use super::app::{App, Choice, Theme, Tone};
use crate::words;

impl Theme {
    fn fg(self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    /// Dim text: grey, or nothing special without colours.
    fn dim(self) -> Style {
        self.fg(Color::DarkGray)
    }

    fn border(self) -> Style {
        self.fg(Color::Gray)
    }

    fn title_style(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    /// A title with its status symbol (Dalmuti's crown and straw hat;
    /// Corporate Shuffle's office titles have none).
    fn title(self, title: Title, variant: Variant, merchant_exchange: bool) -> String {
        match (variant, title, self.emoji) {
            (Variant::Dalmuti, Title::GreaterDalmuti, true) => "👑 Greater Dalmuti".to_string(),
            (Variant::Dalmuti, Title::GreaterPeon, true) => "👒 Greater Peon".to_string(),
            (_, t, _) => words::title(t, variant, merchant_exchange),
        }
    }
}

impl Widget for &App<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let [header, body, footer] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(1),
        ])
        .areas(area);
        self.header(header, buf);
        self.footer(footer, buf);
        if self.help.is_some() {
            self.help_screen(body, buf);
        } else if self.standings {
            self.standings_panel(body, buf);
        } else if self.session.is_hand_over() {
            self.hand_over(body, buf);
        } else {
            self.game(body, buf);
        }
    }
}

impl App<'_> {
    fn block(&self, title: impl Into<String>) -> Block<'static> {
        Block::bordered()
            .border_style(self.theme.border())
            .title(Span::styled(
                format!(" {} ", title.into()),
                Style::new().add_modifier(Modifier::BOLD),
            ))
    }

    fn header(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let of = s
            .rules()
            .hands
            .map(|h| format!(" of {h}"))
            .unwrap_or_default();
        let mut left = vec![
            Span::styled(
                format!(" {}", s.variant().words().game),
                self.theme.title_style(),
            ),
            Span::raw(format!(
                " · Hand {}{of} · seed {}",
                s.hand_number(),
                s.seed_text()
            )),
        ];
        let rules = s.rules();
        let options = words::optional_rules(rules);
        let room = area.width as usize;
        let used: usize = left.iter().map(Span::width).sum::<usize>() + 16;
        let more = format!(" · {}", options.join(", "));
        if !options.is_empty() && used + Span::raw(more.as_str()).width() <= room {
            left.push(Span::styled(more, self.theme.dim()));
        }
        let right = Span::styled("? help  q quit ", self.theme.dim());
        let width = right.width() as u16;
        let [l, r] =
            Layout::horizontal([Constraint::Min(0), Constraint::Length(width)]).areas(area);
        Line::from(left).render(l, buf);
        right.render(r, buf);
    }

    fn footer(&self, area: Rect, buf: &mut Buffer) {
        let mut keys = self.keys();
        // Too many keys for the width: help and quit go first, since the
        // header shows them too.
        let width: usize = keys
            .iter()
            .map(|(k, w)| Span::raw(format!("  {k} {w}")).width())
            .sum();
        if width >= area.width as usize {
            keys.retain(|(k, _)| !matches!(*k, "?" | "q"));
        }
        let style = self.theme.dim();
        let mut spans = vec![Span::raw(" ")];
        for (i, (key, what)) in keys.iter().enumerate() {
            if i > 0 {
                spans.push(Span::raw("  "));
            }
            spans.push(Span::styled(
                *key,
                Style::new().add_modifier(Modifier::BOLD),
            ));
            spans.push(Span::styled(format!(" {what}"), style));
        }
        Line::from(spans).render(area, buf);
    }

    /// The keys that mean something now.
    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        if self.help.is_some() {
            return vec![("↑↓", "scroll"), ("?/Esc", "close"), ("q", "quit")];
        }
        if self.standings {
            return vec![("Enter", "leave"), ("q", "quit"), ("?", "help")];
        }
        if self.session.is_hand_over() {
            let next = if self.session.is_game_over() {
                "final standings"
            } else {
                "next hand"
            };
            return vec![
                ("Enter", next),
                ("PgUp/PgDn", "log"),
                ("?", "help"),
                ("q", "quit"),
            ];
        }
        let common = [("h", "hint"), ("?", "help"), ("q", "quit")];
        let variant = self.session.variant();
        let corporate = variant == Variant::CorporateShuffle;
        let (revolution, wild) = if corporate {
            ("takeover", ("d", "Dogbert"))
        } else {
            ("revolution", ("j", "Jester"))
        };
        if let Some(choice) = &self.choice {
            let (keys, what) = match choice {
                Choice::Target { .. } => ("↑↓", "player"),
                Choice::Value { .. } => ("←→", "value"),
            };
            return vec![
                (keys, what),
                ("Enter", "play"),
                ("Esc", "back"),
                ("?", "help"),
                ("q", "quit"),
            ];
        }
        let rank = if corporate { "value" } else { "rank" };
        // t matters only to join the Wedgie to 6s you hold.
        let held = self.session.my_cards();
        let six = Card::from_index(6).unwrap_or(Card::TWIRLING_WEDGIE);
        let wedgie = corporate && held.count(Card::TWIRLING_WEDGIE) > 0 && held.count(six) > 0;
        let mut keys = match self.session.decision() {
            None => {
                return vec![("PgUp/PgDn", "log"), ("?", "help"), ("q", "quit and save")];
            }
            Some(Decision::Ready) => vec![("r", revolution), ("n", "keep quiet")],
            Some(Decision::Tax { .. }) => vec![
                ("←→", "card"),
                ("↑", "add"),
                ("↓", "take back"),
                ("Enter", "give"),
            ],
            Some(Decision::ExchangeOffer) => vec![
                ("←→", "card"),
                ("↑↓", words::merchant(variant)),
                ("Enter", "offer"),
                ("n", "decline"),
            ],
            Some(Decision::ExchangeAnswer { .. }) => vec![("←→", "card"), ("Enter", "give back")],
            Some(Decision::Lead) => vec![("←→", rank), ("↑↓", "how many"), wild, ("Enter", "play")],
            Some(Decision::Follow { .. }) => vec![
                ("←→", rank),
                ("↑↓", "how many"),
                wild,
                ("Enter", "play"),
                ("p", "pass"),
            ],
        };
        if wedgie && matches!(keys.last(), Some(("Enter", _) | ("p", _))) {
            let at = keys
                .iter()
                .position(|k| k.0 == "Enter")
                .unwrap_or(keys.len());
            keys.insert(at, ("t", "Wedgie"));
        }
        if self.session.revolution_offer().is_some()
            && self.session.decision() != Some(Decision::Ready)
        {
            keys.push(("r", revolution));
        }
        keys.extend(common);
        keys
    }

    // ----- the game screen -----

    fn game(&self, area: Rect, buf: &mut Buffer) {
        let hand_lines = self.chip_lines(area.width.saturating_sub(2)).len() as u16;
        let [top, hand, now] = Layout::vertical([
            Constraint::Min(0),
            Constraint::Length(hand_lines + 3),
            Constraint::Length(3),
        ])
        .areas(area);
        let table_width = self.table_width().min(top.width.saturating_sub(24));
        let [table, log] =
            Layout::horizontal([Constraint::Length(table_width), Constraint::Min(0)]).areas(top);
        self.table_panel(table, buf);
        self.log_panel(log, buf);
        self.hand_panel(hand, buf);
        self.now_panel(now, buf);
        match (self.session.decision(), &self.choice) {
            (Some(Decision::Ready), _) => self.revolution_dialog(top, buf),
            (Some(Decision::Tax { .. }), _) => self.tax_dialog(top, buf),
            (Some(Decision::ExchangeOffer), _) => self.offer_dialog(top, buf),
            (Some(Decision::ExchangeAnswer { .. }), _) => self.answer_dialog(top, buf),
            (Some(Decision::Lead | Decision::Follow { .. }), Some(choice)) => {
                self.choice_dialog(choice, top, buf)
            }
            _ => {}
        }
    }

    /// The seat rows' columns: marker, seat, name, title, cards, state,
    /// points.
    fn columns(&self) -> Vec<u16> {
        let s = &*self.session;
        let exchange = s.rules().merchant_exchange;
        let variant = s.variant();
        let table = s.table();
        let name = table
            .iter()
            .map(|i| display_name(&i.name, i.is_me).chars().count())
            .max()
            .unwrap_or(4)
            .clamp(4, 14) as u16;
        let title = table
            .iter()
            .map(|i| Span::raw(self.theme.title(i.title, variant, exchange)).width())
            .max()
            .unwrap_or(5) as u16;
        let mut widths = vec![1, 2, name, title, 5, 6];
        if s.rules().scoring != dalmuti_core::Scoring::None {
            widths.push(3);
        }
        widths
    }

    fn table_width(&self) -> u16 {
        let columns = self.columns();
        columns.iter().sum::<u16>() + columns.len() as u16 - 1 + 2
    }

    /// Who leads the current round (after any greater revolution).
    fn leader(&self) -> Option<Seat> {
        let view = self.session.view();
        if view.stage() != Stage::Play {
            return None;
        }
        let mut leader = Seat::new(0);
        for entry in view.log() {
            if let Seen::Event(Event::RoundWon { leader: l, .. }) = entry {
                leader = l;
            }
        }
        Some(leader)
    }

    fn table_panel(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let theme = self.theme;
        let exchange = s.rules().merchant_exchange;
        let variant = s.variant();
        let top = s.top();
        let leader = self.leader();
        let passed: Vec<String> = top.as_ref().map(|t| t.passed.clone()).unwrap_or_default();
        let rows: Vec<Row> = s
            .table()
            .iter()
            .map(|info| {
                let who = if info.is_me {
                    "you"
                } else {
                    info.name.as_str()
                };
                let state = match info.out {
                    Some(place) => format!("{} out", ordinal(place)),
                    None if info.wedged => "wedged".to_string(),
                    None if passed.iter().any(|p| p == who) => "passed".to_string(),
                    None if leader == Some(info.seat) => "leads".to_string(),
                    None => String::new(),
                };
                let acting = info.to_act && info.out.is_none();
                let mut style = Style::new();
                if info.is_me {
                    style = style.add_modifier(Modifier::BOLD);
                }
                if acting {
                    style = style.patch(theme.fg(Color::Yellow));
                    if !theme.color {
                        style = style.add_modifier(Modifier::UNDERLINED);
                    }
                }
                if info.out.is_some() {
                    style = style.patch(theme.dim());
                }
                let mut cells = vec![
                    Cell::from(if acting { "▶" } else { " " }),
                    Cell::from(
                        Line::from(words::seat_number(info.seat).to_string()).right_aligned(),
                    ),
                    Cell::from(display_name(&info.name, info.is_me)),
                    Cell::from(theme.title(info.title, variant, exchange)),
                    Cell::from(Line::from(info.cards.to_string()).right_aligned()),
                    Cell::from(state),
                ];
                if let Some(total) = info.total {
                    cells.push(Cell::from(Line::from(total.to_string()).right_aligned()));
                }
                Row::new(cells).style(style)
            })
            .collect();
        let mut header = vec!["", "#", "Name", "Title", "Cards", ""];
        if s.rules().scoring != dalmuti_core::Scoring::None {
            header.push("Pts");
        }
        let widths: Vec<Constraint> = self.columns().into_iter().map(Constraint::Length).collect();
        let info = self.table_lines(area.width.saturating_sub(2));
        let inner = Block::bordered().inner(area);
        let [seats, below] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(info.len() as u16)])
                .areas(inner);
        let n = rows.len();
        // A big table on a small screen: keep your seat and whoever acts
        // in view by dropping rows from the top, and say which are shown.
        let room = (seats.height.saturating_sub(1) as usize).max(1);
        let skip = if n > room {
            let me = s.table().iter().position(|i| i.is_me).unwrap_or(0);
            let acting = s.table().iter().position(|i| i.to_act).unwrap_or(me);
            let want = me.max(acting);
            (want + 1).saturating_sub(room).min(n - room)
        } else {
            0
        };
        let title = if n > room {
            format!("Table: seats {}-{} of {n}", skip + 1, (skip + room).min(n))
        } else {
            "Table".to_string()
        };
        self.block(title).render(area, buf);
        Widget::render(
            Table::new(rows.into_iter().skip(skip), widths)
                .header(Row::new(header).style(theme.dim()))
                .column_spacing(1),
            seats,
            buf,
        );
        Paragraph::new(info).render(below, buf);
    }

    /// The lines under the seats: the set on the table, the passes, your
    /// taxes and exchange.
    fn table_lines(&self, width: u16) -> Vec<Line<'static>> {
        let s = &*self.session;
        let view = s.view();
        let mut text = Vec::new();
        match (view.stage(), s.top()) {
            (_, Some(top)) => {
                text.push(format!(
                    "On the table: {} [{}], by {}.",
                    set_words(&top.set, s.variant()),
                    top.set,
                    top.name
                ));
                if top.passed.is_empty() {
                    text.push("No passes yet.".to_string());
                } else {
                    text.push(format!("Passed: {}.", top.passed.join(", ")));
                }
                if let Some(line) = words::wedged_line(s) {
                    text.push(line);
                }
            }
            (Stage::Play, None) => {
                let leader = self.leader().map(|l| {
                    if l == s.my_seat() {
                        "you lead".to_string()
                    } else {
                        format!("{} leads", s.name_at(l))
                    }
                });
                text.push(format!(
                    "The table is empty: {}.",
                    leader.unwrap_or_default()
                ));
            }
            (Stage::Setup, _) => text.push(format!(
                "The hand is being set up: {} of {} ready.",
                view.ready_count().unwrap_or(0),
                view.players()
            )),
            (Stage::Over, _) => {}
        }
        let mut exchange = |what: &str, gave: String, got: String, other| {
            text.push(format!(
                "Your {what}: gave [{gave}] to {}, got [{got}].",
                s.name_at(other)
            ));
        };
        let taxes = s.variant().words().taxes;
        if let Some(tax) = view.my_tax() {
            if tax.dalmuti == s.my_seat() {
                exchange(
                    taxes,
                    tax.gift.to_string(),
                    tax.tribute.to_string(),
                    tax.peon,
                );
            } else {
                exchange(
                    taxes,
                    tax.tribute.to_string(),
                    tax.gift.to_string(),
                    tax.dalmuti,
                );
            }
        }
        if let Some(trade) = view.my_trade() {
            if trade.offerer == s.my_seat() {
                exchange(
                    "exchange",
                    trade.offered.to_string(),
                    trade.returned.to_string(),
                    trade.partner,
                );
            } else {
                exchange(
                    "exchange",
                    trade.returned.to_string(),
                    trade.offered.to_string(),
                    trade.offerer,
                );
            }
        }
        text.iter()
            .flat_map(|t| wrap(t, width as usize))
            .map(Line::from)
            .collect()
    }

    fn log_panel(&self, area: Rect, buf: &mut Buffer) {
        let block = self.block("Log");
        let inner = block.inner(area);
        block.render(area, buf);
        let width = inner.width as usize;
        let mut lines: Vec<Line> = Vec::new();
        for entry in &self.log {
            let line = if entry.starts_with("──") {
                Line::styled(entry.clone(), Style::new().add_modifier(Modifier::BOLD))
            } else {
                Line::from(format!("• {entry}"))
            };
            lines.extend(wrap_line(line, width, 2));
        }
        let height = inner.height as usize;
        let end = lines
            .len()
            .saturating_sub(self.scroll.min(lines.len().saturating_sub(height)));
        let start = end.saturating_sub(height);
        let shown: Vec<Line> = lines[start..end].to_vec();
        Paragraph::new(shown).render(inner, buf);
        if start > 0 || end < lines.len() {
            let marker = if end < lines.len() {
                " ↓ PgDn "
            } else {
                " ↑ PgUp "
            };
            Span::styled(marker, self.theme.dim()).render(
                Rect::new(
                    area.right().saturating_sub(10),
                    area.bottom().saturating_sub(1),
                    8,
                    1,
                ),
                buf,
            );
        }
    }

    /// Your hand as chips, one per kind of card, flowed into lines.
    fn chip_lines(&self, width: u16) -> Vec<Line<'static>> {
        let chosen = self.chosen();
        let decision = self.session.decision();
        let choosing = decision.is_some_and(|d| d != Decision::Ready);
        let mut lines = Vec::new();
        let mut line: Vec<Span> = Vec::new();
        let mut used = 0usize;
        for (card, n) in self.kinds() {
            let text = format!(
                " {} {} ×{n} ",
                card.token(),
                card.name(self.session.rules().variant)
            );
            let w = Span::raw(text.as_str()).width();
            if used > 0 && used + 1 + w > width as usize {
                lines.push(Line::from(std::mem::take(&mut line)));
                used = 0;
            }
            if used > 0 {
                line.push(Span::raw(" "));
                used += 1;
            }
            let mut style = Style::new();
            if chosen.count(card) > 0 {
                style = style
                    .patch(self.theme.fg(Color::Yellow))
                    .add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
            }
            if choosing && self.cursor == Some(card) {
                style = style.add_modifier(Modifier::REVERSED);
            }
            line.push(Span::styled(text, style));
            used += w;
        }
        if !line.is_empty() || lines.is_empty() {
            lines.push(Line::from(line));
        }
        lines
    }

    fn hand_panel(&self, area: Rect, buf: &mut Buffer) {
        let cards = self.session.my_cards();
        let block = self.block(format!(
            "Your hand: {} card{}",
            cards.len(),
            if cards.len() == 1 { "" } else { "s" }
        ));
        let inner = block.inner(area);
        block.render(area, buf);
        let mut lines = self.chip_lines(inner.width);
        if cards.is_empty() {
            lines = vec![Line::from("No cards: you are out.")];
        }
        let selection = match self.selection_words() {
            Some(words) => Line::styled(words, self.theme.fg(Color::Cyan)),
            None => Line::from(""),
        };
        lines.push(selection);
        Paragraph::new(lines).render(inner, buf);
    }

    /// The prompt and the last message.
    fn now_panel(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let decision = s.decision();
        let (title, prompt) = match decision {
            None => ("Waiting", format!("Waiting: {}.", self.waiting_for())),
            Some(d) => ("Your move", prompt(self, &d)),
        };
        let block = Block::new()
            .borders(Borders::TOP)
            .border_style(self.theme.border())
            .title(Span::styled(
                format!(" {title} "),
                Style::new().add_modifier(Modifier::BOLD),
            ));
        let inner = block.inner(area);
        block.render(area, buf);
        let mut lines = vec![Line::from(format!(" {prompt}"))];
        if let Some(m) = &self.message {
            let style = match m.tone {
                Tone::Refusal => self.theme.fg(Color::Red).add_modifier(Modifier::BOLD),
                Tone::Hint => self.theme.fg(Color::Green),
                Tone::Note => Style::new(),
            };
            lines.push(Line::styled(format!(" {}", m.text), style));
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
    }

    // ----- dialogs -----

    /// The width of a dialog's text over `area`.
    fn dialog_text_width(area: Rect) -> usize {
        area.width.min(72).saturating_sub(4) as usize
    }

    /// A paragraph of a dialog, wrapped.
    fn para(area: Rect, line: impl Into<Line<'static>>) -> Vec<Line<'static>> {
        wrap_line(line.into(), Self::dialog_text_width(area), 0)
    }

    /// A key and what it does, wrapped under the words.
    fn key_line(area: Rect, key: &str, what: &str) -> Vec<Line<'static>> {
        let line = Line::from(vec![
            Span::styled(
                format!("{key:<5}"),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Span::raw("  "),
            Span::raw(what.to_string()),
        ]);
        wrap_line(line, Self::dialog_text_width(area), 7)
    }

    /// A box in the middle of `area` holding `lines` (already wrapped).
    fn dialog(&self, area: Rect, title: &str, lines: Vec<Line<'static>>, buf: &mut Buffer) {
        if area.width < 10 || area.height < 3 {
            return;
        }
        let width = area.width.min(72);
        let height = (lines.len() as u16 + 2).min(area.height);
        let x = area.x + (area.width - width) / 2;
        let y = area.y + (area.height - height) / 2;
        let rect = Rect::new(x, y, width, height);
        Clear.render(rect, buf);
        let block = Block::bordered()
            .border_style(self.theme.fg(Color::Yellow))
            .title(Span::styled(
                format!(" {title} "),
                Style::new().add_modifier(Modifier::BOLD),
            ));
        let inner = block.inner(rect);
        block.render(rect, buf);
        let inner = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(2),
            ..inner
        };
        Paragraph::new(lines).render(inner, buf);
    }

    fn revolution_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let (Some(decision @ Decision::Ready), Some(offer)) = (s.decision(), s.revolution_offer())
        else {
            return;
        };
        let greater = offer.greater;
        let variant = s.variant();
        let vocabulary = variant.words();
        let (revolution, taxes) = (vocabulary.revolution, vocabulary.taxes);
        let call = if greater {
            format!(
                "call a greater {revolution}: no {taxes}, the seating is reversed for this hand \
                 and you lead as {}",
                words::top_title(variant)
            )
        } else {
            format!("call a {revolution}: no {taxes} this hand, seats stay as they are")
        };
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        lines.extend(Self::key_line(area, "r", &call));
        lines.extend(Self::key_line(
            area,
            "n",
            &format!(
                "keep quiet about the {}: nobody will know",
                vocabulary.wilds
            ),
        ));
        lines.extend(Self::key_line(
            area,
            "h",
            "hint: what the heuristic bot would do",
        ));
        let title = if greater {
            format!("Greater {revolution}?")
        } else {
            format!("{}?", words::capitalize(revolution))
        };
        self.dialog(area, &title, lines, buf);
    }

    fn tax_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let Some(decision @ Decision::Tax { count, .. }) = s.decision() else {
            return;
        };
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        lines.extend(Self::para(
            area,
            Line::styled(
                format!(
                    "Your gift: {} [{}], {} of {count} chosen.",
                    cards_words(&self.picked, s.variant()),
                    self.picked,
                    self.picked.len()
                ),
                Style::new().add_modifier(Modifier::BOLD),
            ),
        ));
        lines.extend(Self::key_line(
            area,
            "←→",
            "choose a card in your hand (below)",
        ));
        lines.extend(Self::key_line(
            area,
            "↑ ↓",
            "add it to the gift, take it back",
        ));
        lines.extend(Self::key_line(area, "Enter", "give the chosen cards"));
        let vocabulary = s.variant().words();
        if s.revolution_offer().is_some() {
            lines.extend(Self::key_line(
                area,
                "r",
                &format!("call a {} instead", vocabulary.revolution),
            ));
        }
        self.dialog(area, &words::capitalize(vocabulary.taxes), lines, buf);
    }

    fn offer_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let Some(decision) = s.decision() else { return };
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        for m in self.merchants() {
            let on = self.partner == Some(m);
            let style = if on {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            lines.push(Line::styled(
                format!(
                    "{} seat {} {} ({} cards)",
                    if on { "▶" } else { " " },
                    words::seat_number(m),
                    s.name_at(m),
                    s.view().card_count(m)
                ),
                style,
            ));
        }
        lines.push(Line::from(""));
        let variant = s.variant();
        lines.extend(Self::key_line(
            area,
            "↑↓",
            &format!("choose the {}", words::merchant(variant)),
        ));
        lines.extend(Self::key_line(area, "←→", "choose your card (below)"));
        lines.extend(Self::key_line(area, "Enter", "offer it, blind"));
        lines.extend(Self::key_line(area, "n", "no exchange"));
        if s.revolution_offer().is_some() {
            lines.extend(Self::key_line(
                area,
                "r",
                &format!("call a {} instead", variant.words().revolution),
            ));
        }
        let title = words::capitalize(&words::exchange_name(variant));
        self.dialog(area, &title, lines, buf);
    }

    fn answer_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let Some(decision) = s.decision() else { return };
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        lines.extend(Self::key_line(area, "←→", "choose your card (below)"));
        lines.extend(Self::key_line(area, "Enter", "give it back"));
        let title = words::capitalize(&words::exchange_name(s.variant()));
        self.dialog(area, &title, lines, buf);
    }

    /// Whom the Twirling Wedgie names, or what Dogberts alone are worth.
    fn choice_dialog(&self, choice: &Choice, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let variant = s.variant();
        let reversed = Style::new().add_modifier(Modifier::REVERSED);
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let (title, mut lines) = match choice {
            Choice::Target { set, targets, at } => {
                let mut lines = Self::para(
                    area,
                    format!(
                        "You play {} [{set}]. Name another player who still holds cards: they \
                         must pass for the rest of this trick.",
                        set_words(set, variant)
                    ),
                );
                lines.push(Line::from(""));
                for (i, &seat) in targets.iter().enumerate() {
                    let on = i == *at;
                    lines.push(Line::styled(
                        format!(
                            "{} seat {} {}, {}: {} cards",
                            if on { "▶" } else { " " },
                            words::seat_number(seat),
                            s.name_at(seat),
                            variant.title_name(seat.title(s.players())),
                            s.view().card_count(seat)
                        ),
                        if on { reversed } else { Style::new() },
                    ));
                }
                ("Twirling Wedgie: whom?", lines)
            }
            Choice::Value {
                dogberts,
                values,
                at,
            } => {
                let which = match s.decision() {
                    Some(Decision::Follow { top, .. }) => {
                        format!("The values that top {} [{top}]:", set_words(&top, variant))
                    }
                    _ => "You lead: any value.".to_string(),
                };
                let mut lines = Self::para(
                    area,
                    format!(
                        "You play {} alone: {} worth the value you name, 1 (the best) to 10. \
                         {which}",
                        count_of((*dogberts).into(), Card::DOGBERT, variant),
                        if *dogberts == 1 { "it is" } else { "they are" },
                    ),
                );
                lines.push(Line::from(""));
                // The values flow as chips, so all ten fit a small screen.
                let width = Self::dialog_text_width(area);
                let mut line: Vec<Span> = Vec::new();
                let mut used = 0;
                for (i, &value) in values.iter().enumerate() {
                    let Some(card) = Card::from_index(value.into()) else {
                        continue;
                    };
                    let text = format!(" {value} {} ", card.name(variant));
                    let w = Span::raw(text.as_str()).width();
                    if used > 0 && used + 1 + w > width {
                        lines.push(Line::from(std::mem::take(&mut line)));
                        used = 0;
                    }
                    if used > 0 {
                        line.push(Span::raw(" "));
                        used += 1;
                    }
                    let style = if i == *at {
                        reversed.patch(bold)
                    } else {
                        Style::new()
                    };
                    line.push(Span::styled(text, style));
                    used += w;
                }
                if !line.is_empty() {
                    lines.push(Line::from(line));
                }
                ("Dogberts: what value?", lines)
            }
        };
        lines.push(Line::from(""));
        let what = match choice {
            Choice::Target { .. } => "↑↓ choose the player (or the seat's number)",
            Choice::Value { .. } => "←→ choose the value (or its number, 0 for 10)",
        };
        lines.extend(Self::para(
            area,
            Line::from(vec![
                Span::styled(what.to_string(), bold),
                Span::raw("  "),
                Span::styled("Enter", bold),
                Span::raw(" play  "),
                Span::styled("Esc", bold),
                Span::raw(" back"),
            ]),
        ));
        self.dialog(area, title, lines, buf);
    }

    // ----- between hands -----

    fn hand_over(&self, area: Rect, buf: &mut Buffer) {
        let Some(end) = self.session.hand_end() else {
            return;
        };
        let [panel, log] = if area.width >= 110 {
            Layout::horizontal([Constraint::Length(72), Constraint::Min(0)]).areas(area)
        } else {
            [area, Rect::default()]
        };
        if !log.is_empty() {
            self.log_panel(log, buf);
        }
        let block = self.block(format!("Hand {} is over", end.number));
        let inner = block.inner(panel);
        block.render(panel, buf);
        let inner = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(2),
            ..inner
        };
        let theme = self.theme;
        let exchange = self.session.rules().merchant_exchange;
        let variant = self.session.variant();
        let vocabulary = variant.words();
        let scored = end.places.iter().any(|p| p.total.is_some());
        let mut lines: Vec<Line> = Vec::new();
        if let Some(r) = end.revolution {
            lines.push(Line::from(if r.greater {
                format!(
                    "A greater {} was called: the seating was reversed for this hand.",
                    vocabulary.revolution
                )
            } else {
                format!(
                    "{} called a {}: no {} this hand.",
                    self.session.name_at(r.by),
                    vocabulary.revolution,
                    vocabulary.taxes
                )
            }));
        }
        lines.push(Line::styled(
            format!(
                "Finishing order: the first out is the new {}.",
                words::top_title(variant)
            ),
            theme.dim(),
        ));
        let rows: Vec<Row> = end
            .places
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut cells = vec![
                    Cell::from(format!("{}.", i + 1)),
                    Cell::from(display_name(&p.name, p.is_me)),
                    Cell::from(variant.title_name(p.was)),
                    Cell::from("→"),
                    Cell::from(theme.title(p.becomes, variant, exchange)),
                ];
                if scored {
                    cells.push(Cell::from(
                        Line::from(p.points.map(|x| format!("+{x}")).unwrap_or_default())
                            .right_aligned(),
                    ));
                    cells.push(Cell::from(
                        Line::from(p.total.map(|x| x.to_string()).unwrap_or_default())
                            .right_aligned(),
                    ));
                }
                let style = if p.is_me {
                    Style::new().add_modifier(Modifier::BOLD)
                } else {
                    Style::new()
                };
                Row::new(cells).style(style)
            })
            .collect();
        let mut widths = vec![
            Constraint::Length(3),
            Constraint::Length(
                end.places
                    .iter()
                    .map(|p| display_name(&p.name, p.is_me).chars().count() as u16)
                    .max()
                    .unwrap_or(4),
            ),
            Constraint::Length(15),
            Constraint::Length(1),
            Constraint::Length(20),
        ];
        let mut header = vec!["", "Name", "Was", "", "Becomes"];
        if scored {
            widths.push(Constraint::Length(3));
            widths.push(Constraint::Length(5));
            header.push("Pts");
            header.push("Total");
        }
        let mut after: Vec<String> = Vec::new();
        if end.game_over {
            after.push(format!(
                "The game is over: {} hand{} played. Enter: the final standings.",
                end.number,
                if end.number == 1 { "" } else { "s" }
            ));
        } else {
            after.push(format!(
                "Next hand's seating, from the {}: {}.",
                words::top_title(variant),
                end.next_seating.join(", ")
            ));
            after.push(format!(
                "Enter: deal hand {}. q: quit (the game is saved).",
                end.number + 1
            ));
        }
        let after: Vec<Line> = after
            .iter()
            .flat_map(|t| wrap(t, inner.width as usize))
            .map(Line::from)
            .collect();
        let lines: Vec<Line> = lines
            .into_iter()
            .flat_map(|l| wrap_line(l, inner.width as usize, 0))
            .collect();
        let [top, table, _, bottom] = Layout::vertical([
            Constraint::Length(lines.len() as u16),
            Constraint::Length(end.places.len() as u16 + 1),
            Constraint::Length(1),
            Constraint::Min(0),
        ])
        .areas(inner);
        Paragraph::new(lines).render(top, buf);
        Widget::render(
            Table::new(rows, widths)
                .header(Row::new(header).style(theme.dim()))
                .column_spacing(1),
            table,
            buf,
        );
        Paragraph::new(after).render(bottom, buf);
    }

    fn standings_panel(&self, area: Rect, buf: &mut Buffer) {
        let block = self.block("Final standings");
        let inner = block.inner(area);
        block.render(area, buf);
        let inner = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(2),
            ..inner
        };
        let standings = self.session.standings();
        let scored = standings.iter().any(|r| r.points.is_some());
        let rows: Vec<Row> = standings
            .iter()
            .map(|r| {
                let mut cells = vec![
                    Cell::from(format!("{}.", r.place)),
                    Cell::from(display_name(&r.name, r.is_me)),
                ];
                if let Some(p) = r.points {
                    cells.push(Cell::from(Line::from(p.to_string()).right_aligned()));
                }
                cells.push(Cell::from(Line::from(r.firsts.to_string()).right_aligned()));
                cells.push(Cell::from(Line::from(r.lasts.to_string()).right_aligned()));
                let style = if r.is_me {
                    Style::new().add_modifier(Modifier::BOLD)
                } else {
                    Style::new()
                };
                Row::new(cells).style(style)
            })
            .collect();
        let mut header = vec!["", "Name"];
        let mut widths = vec![Constraint::Length(3), Constraint::Length(16)];
        if scored {
            header.push("Points");
            widths.push(Constraint::Length(6));
        }
        header.extend(["First", "Last"]);
        widths.extend([Constraint::Length(5), Constraint::Length(5)]);
        let hands = self.session.hand_number();
        let intro = Line::from(format!(
            "{hands} hand{} played{}.",
            if hands == 1 { "" } else { "s" },
            if scored {
                ", by points, then hands won"
            } else {
                ", by hands won, then fewest lost"
            }
        ));
        let [top, table, _, bottom] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(standings.len() as u16 + 1),
            Constraint::Length(1),
            Constraint::Min(0),
        ])
        .areas(inner);
        intro.render(top, buf);
        Widget::render(
            Table::new(rows, widths)
                .header(Row::new(header).style(self.theme.dim()))
                .column_spacing(1),
            table,
            buf,
        );
        Paragraph::new("Enter or q: leave. The game is saved as a record; its path is printed.")
            .wrap(Wrap { trim: true })
            .render(bottom, buf);
    }

    // ----- help -----

    fn help_screen(&self, area: Rect, buf: &mut Buffer) {
        let block = self.block("Help: ? or Esc to close, ↑↓ to scroll");
        let inner = block.inner(area);
        block.render(area, buf);
        let inner = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(2),
            ..inner
        };
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let width = inner.width as usize;
        let mut lines: Vec<Line> = Vec::new();
        let help = match self.session.variant() {
            Variant::Dalmuti => HELP,
            Variant::CorporateShuffle => HELP_CORPORATE,
        };
        for raw in help.lines() {
            if let Some(heading) = raw.strip_prefix("# ") {
                lines.push(Line::styled(heading.to_string(), bold));
            } else if let Some((key, what)) = raw.split_once(" :: ") {
                let line = Line::from(vec![
                    Span::styled(format!("{key:<10}"), bold),
                    Span::raw(" "),
                    Span::raw(what.to_string()),
                ]);
                lines.extend(wrap_line(line, width, 11));
            } else {
                lines.extend(wrap_line(Line::from(raw.to_string()), width, 0));
            }
        }
        let max = (lines.len() as u16).saturating_sub(inner.height);
        let offset = self.help.unwrap_or(0).min(max);
        Paragraph::new(Text::from(lines))
            .scroll((offset, 0))
            .render(inner, buf);
        if offset < max {
            Span::styled(" ↓ more ", self.theme.dim()).render(
                Rect::new(
                    area.right().saturating_sub(10),
                    area.bottom().saturating_sub(1),
                    8,
                    1,
                ),
                buf,
            );
        }
    }
}

/// The prompt for a decision, in one sentence.
fn prompt(app: &App, decision: &Decision) -> String {
    let s = app.session();
    let variant = s.variant();
    let vocabulary = variant.words();
    match *decision {
        Decision::Lead => format!(
            "You lead this round: play any set of one {} ({} join any).",
            words::rank_word(variant),
            vocabulary.wilds
        ),
        Decision::Follow { top, by } => format!(
            "Top {} [{top}] by {}: {} of a lower number, or pass.",
            set_words(&top, variant),
            if by == s.my_seat() {
                "you"
            } else {
                s.name_at(by)
            },
            if top.size() == 1 {
                "one card".to_string()
            } else {
                format!("{} cards", top.size())
            }
        ),
        Decision::Ready => match s.revolution_offer() {
            Some(offer) => format!(
                "You hold both {}: call a {}{} (r) or keep quiet (n)?",
                vocabulary.wilds,
                if offer.greater { "greater " } else { "" },
                vocabulary.revolution
            ),
            None => "Look at your cards: the hand is being set up.".into(),
        },
        Decision::Tax { to, count } => format!(
            "Choose {} to give {}, the {}.",
            if count == 1 {
                "one card".to_string()
            } else {
                format!("{count} cards")
            },
            s.name_at(to),
            variant.title_name(to.title(s.players()))
        ),
        Decision::ExchangeOffer => format!(
            "{}: offer one card to another {}, or decline (n).",
            words::capitalize(&words::exchange_name(variant)),
            words::merchant(variant)
        ),
        Decision::ExchangeAnswer { from } => format!(
            "{} offers you a blind trade: choose one card to give back.",
            s.name_at(from)
        ),
    }
}

/// A name at the table, marked when it is yours.
fn display_name(name: &str, is_me: bool) -> String {
    if is_me && !name.eq_ignore_ascii_case("you") {
        format!("{name} (you)")
    } else {
        name.to_string()
    }
}

/// Greedy word wrap of plain text to `width` columns.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_line(Line::from(text.to_string()), width, 0)
        .into_iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

/// Greedy word wrap of a styled line to `width` columns, keeping each
/// word's style; lines after the first are indented by `indent`. A word
/// longer than a line is left whole (and cut where the screen ends).
pub(super) fn wrap_line(line: Line<'_>, width: usize, indent: usize) -> Vec<Line<'static>> {
    let width = width.max(8);
    let indent = indent.min(width / 2);
    let line_style = line.style;
    // Words and single spaces, each with its span's style.
    let mut tokens: Vec<(String, Style)> = Vec::new();
    for span in &line.spans {
        let mut word = String::new();
        for ch in span.content.chars() {
            if ch == ' ' {
                if !word.is_empty() {
                    tokens.push((std::mem::take(&mut word), span.style));
                }
                tokens.push((" ".to_string(), span.style));
            } else {
                word.push(ch);
            }
        }
        if !word.is_empty() {
            tokens.push((word, span.style));
        }
    }
    let mut out: Vec<Line<'static>> = Vec::new();
    let mut current: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    let mut start = 0;
    for (text, style) in tokens {
        let w = Span::raw(text.as_str()).width();
        if text == " " {
            if used + w <= width {
                current.push(Span::styled(text, style));
                used += w;
            }
            continue;
        }
        if used + w > width && used > start {
            while current.last().is_some_and(|s| s.content == " ") {
                current.pop();
            }
            out.push(Line::from(std::mem::take(&mut current)).style(line_style));
            if indent > 0 {
                current.push(Span::raw(" ".repeat(indent)));
            }
            used = indent;
            start = indent;
        }
        current.push(Span::styled(text, style));
        used += w;
    }
    if !current.is_empty() || out.is_empty() {
        out.push(Line::from(current).style(line_style));
    }
    out
}

/// The help screen: keys, then the rules in short. `# ` starts a heading,
/// `KEY :: what` a key.
const HELP: &str = "\
# Keys
←/→ :: pick a rank in your hand
1-9 0 - = :: the rank of that number (0 is 10, - is 11, = is 12)
↑/↓ :: how many of that rank to play
j :: add a Jester (again: two, again: none); on the Jester alone, one or two
Enter :: play the set shown under your hand (only a legal set is played)
p :: pass
h :: hint: what the heuristic bot would do (and selects it)
y / n :: call a revolution, or not (when you hold both Jesters)
Taxes :: ←/→ a card, ↑ add it to your gift, ↓ take it back, Enter give
Exchange :: ↑/↓ the Merchant, ←/→ your card, Enter offer, n decline
PgUp/PgDn :: scroll the log
Enter :: after a hand: the next hand
? :: this help
q :: quit: the game so far is saved as a record (dalmuti replay tells it)

# The Great Dalmuti in short
Be the first to get rid of your cards. The first out is the next hand's Greater Dalmuti 👑, the last out its Greater Peon 👒.

Cards: 1 Dalmuti (the best) to 12 Peasant (the worst); rank n has n copies. The two Jesters (J) are wild: with other cards they take their rank; alone they rank 13, below a Peasant.

A round: the leader plays any set (cards of one rank, Jesters allowed). The next players, in turn, either top it (the same number of cards of a better, lower rank) or pass; passing once does not stop you later in the round. When everyone else has passed, whoever played last leads again; if they are out, the next player with cards.

Taxes: after the deal the Greater Peon gives their two best cards to the Greater Dalmuti, who gives back any two; the Lesser Peon and the Lesser Dalmuti trade one card the same way. You choose your gift as a Dalmuti; a Peon's gift is automatic.

Revolution: whoever is dealt both Jesters may call one: no taxes this hand. Called by the Greater Peon, it is a greater revolution: everyone swaps places with their opposite for the hand.

Merchant exchange (optional rule, 6 or more players): the highest Merchant may trade one card blind with another Merchant.

Scoring (optional): one point for each player who went out after you.";

/// The help screen for Corporate Shuffle, in its words.
const HELP_CORPORATE: &str = "\
# Keys
←/→ :: pick a value in your hand
1-9 0 :: the value of that number (0 is 10)
↑/↓ :: how many of that value to play
d :: add a Dogbert (again: two, again: none); on the Dogbert alone, one or two
t :: on your 6s: the Twirling Wedgie joins them (again: it leaves)
Enter :: play the set shown under your hand; a Wedgie first asks whom it names, Dogberts alone what value they play as
p :: pass
h :: hint: what the heuristic bot would do (and selects it)
y / n :: call a corporate takeover, or not (when you hold both Dogberts)
Bonuses :: ←/→ a card, ↑ add it to your gift, ↓ take it back, Enter give
Exchange :: ↑/↓ the Worker, ←/→ your card, Enter offer, n decline
PgUp/PgDn :: scroll the log
Enter :: after a hand: the next hand
? :: this help
q :: quit: the game so far is saved as a record (dalmuti replay tells it)

# Corporate Shuffle in short
Be the first to get rid of your cards. The first out is the next hand's Big Boss, the last out its Junior Intern.

Cards: 1 CEO (the best) to 10 Engineer (the worst); value n has n copies. The two Dogberts (D) are wild: with other cards they take their value; alone (one or both) they play as a value you name, 1 to 10.

Dogbert, World Ruler (0) beats everything; it goes alone, where one card may be played, and wins the trick at once. The Twirling Wedgie (T) is a 6, alone or with 6s and Dogberts: it names another player who still holds cards, who must pass for the rest of the trick. Ratbert (R) is worth 11, goes alone and only leads; whoever wins its trick takes it back, unless it was the trick's only card or they went out.

A round: the leader plays any set (cards of one value, Dogberts allowed). The next players, in turn, either top it (the same number of cards of a better, lower value) or pass; passing once does not stop you later in the round. When everyone else has passed, whoever played last leads again; if they are out, the next player with cards.

Executive bonuses: after the deal the Junior Intern gives their two best cards to the Big Boss, who gives back any two; the Senior Intern and the Little Boss trade one card the same way. You choose your gift as a Boss; an Intern's is automatic.

Corporate takeover: whoever is dealt both Dogberts may call one: no executive bonuses this hand. Called by the Junior Intern, it is a greater takeover: everyone swaps places with their opposite for the hand.

Worker exchange (optional rule, 6 or more players): the highest Worker may trade one card blind with another Worker.

Scoring (optional): one point for each player who went out after you.";
