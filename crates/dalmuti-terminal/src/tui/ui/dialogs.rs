//! The dialogs over the table: the revolution, taxes, the merchant
//! exchange, and in Corporate Shuffle whom the Twirling Wedgie names and
//! what Dogberts alone are worth.

use super::*;

impl App<'_> {
    // ----- dialogs -----

    /// The width of a dialog's text over `area`.
    pub(super) fn dialog_text_width(area: Rect) -> usize {
        area.width.min(72).saturating_sub(4) as usize
    }

    /// A paragraph of a dialog, wrapped.
    pub(super) fn para(area: Rect, line: impl Into<Line<'static>>) -> Vec<Line<'static>> {
        wrap_line(line.into(), Self::dialog_text_width(area), 0)
    }

    /// A key and what it does, wrapped under the words.
    pub(super) fn key_line(area: Rect, key: &str, what: &str) -> Vec<Line<'static>> {
        let line = Line::from(vec![
            Span::styled(pad(key, 5), Style::new().add_modifier(Modifier::BOLD)),
            Span::raw("  "),
            Span::raw(what.to_string()),
        ]);
        wrap_line(line, Self::dialog_text_width(area), 7)
    }

    /// [`Self::key_line`] for each key and what it does, in order.
    pub(super) fn key_lines(area: Rect, keys: &[(&str, String)]) -> Vec<Line<'static>> {
        keys.iter()
            .flat_map(|(key, what)| Self::key_line(area, key, what))
            .collect()
    }

    /// A box in the middle of `area` holding `lines` (already wrapped).
    pub(super) fn dialog(
        &self,
        area: Rect,
        title: &str,
        lines: Vec<Line<'static>>,
        buf: &mut Buffer,
    ) {
        if area.width < 10 || area.height < 3 {
            return;
        }
        let width = area.width.min(72);
        let height = (lines.len() as u16 + 2).min(area.height);
        let x = area.x + (area.width - width) / 2;
        let y = area.y + (area.height - height) / 2;
        let rect = Rect::new(x, y, width, height);
        // What the box stands over is dimmed, so the eye goes to the box and
        // log lines cut by it above and below read as background.
        self.dim(area, buf);
        // The whole band the box stands in, not the box alone: cut log
        // lines on either side read as nonsense ("herdess, Cherise draws").
        Clear.render(Rect::new(area.x, y, area.width, height), buf);
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

    /// Dims everything drawn in `area`: grey without bold or reverse, or
    /// the terminal's own dim without colours.
    pub(super) fn dim(&self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        for y in area.top()..area.bottom() {
            for x in area.left()..area.right() {
                let Some(cell) = buf.cell_mut((x, y)) else {
                    continue;
                };
                if self.theme.color {
                    cell.modifier = Modifier::empty();
                    cell.set_fg(Color::DarkGray);
                } else {
                    cell.modifier = Modifier::DIM;
                }
            }
        }
    }

    pub(super) fn revolution_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let (Some(decision @ Decision::Ready), Some(offer)) = (s.decision(), s.revolution_offer())
        else {
            return;
        };
        let tr = s.tr();
        let greater = offer.greater;
        let call = if greater {
            say(tr, "tui.call.greater", &[])
        } else {
            say(tr, "tui.call", &[])
        };
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        lines.extend(Self::key_lines(
            area,
            &[
                ("r", call),
                ("n", say(tr, "tui.keep-quiet", &[])),
                ("h", tr.t("tui.key-hint", &[])),
            ],
        ));
        let title = if greater {
            say(tr, "tui.title.greater", &[])
        } else {
            say(tr, "tui.title.revolution", &[])
        };
        self.dialog(area, &title, lines, buf);
    }

    pub(super) fn tax_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let Some(decision @ Decision::Tax { count, .. }) = s.decision() else {
            return;
        };
        let tr = s.tr();
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        let gift = if self.picked.is_empty() {
            tr.t("tui.gift.none", &[("n", &count.to_string())])
        } else {
            tr.t(
                "tui.gift",
                &[
                    ("words", &tr.cards_words(&self.picked)),
                    ("cards", &self.picked.to_string()),
                    ("chosen", &self.picked.len().to_string()),
                    ("n", &count.to_string()),
                ],
            )
        };
        lines.extend(Self::para(
            area,
            Line::styled(gift, Style::new().add_modifier(Modifier::BOLD)),
        ));
        lines.extend(Self::key_lines(
            area,
            &[
                ("←→", tr.t("tui.dialog.card", &[])),
                ("↑ ↓", tr.t("tui.dialog.add", &[])),
                ("Enter", tr.t("tui.dialog.give", &[])),
            ],
        ));
        if s.revolution_offer().is_some() {
            lines.extend(Self::key_line(
                area,
                "r",
                &say(tr, "tui.dialog.revolution", &[]),
            ));
        }
        self.dialog(area, &capitalize(&tr.taxes()), lines, buf);
    }

    pub(super) fn offer_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let Some(decision) = s.decision() else { return };
        let tr = s.tr();
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        for m in self.merchants() {
            let on = self.partner == Some(m);
            let style = if on {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            let row = tr.n(
                "tui.merchant-row",
                s.view().card_count(m).into(),
                &[
                    ("seat", &words::seat_number(m).to_string()),
                    ("name", s.name_at(m)),
                ],
            );
            lines.push(Line::styled(
                format!("{} {row}", if on { "▶" } else { " " }),
                style,
            ));
        }
        lines.push(Line::from(""));
        lines.extend(Self::key_lines(
            area,
            &[
                ("↑↓", say(tr, "tui.dialog.merchant", &[])),
                ("←→", tr.t("tui.dialog.your-card", &[])),
                ("Enter", tr.t("tui.dialog.offer", &[])),
                ("n", tr.t("tui.dialog.no-exchange", &[])),
            ],
        ));
        if s.revolution_offer().is_some() {
            lines.extend(Self::key_line(
                area,
                "r",
                &say(tr, "tui.dialog.revolution", &[]),
            ));
        }
        self.dialog(area, &capitalize(&tr.exchange()), lines, buf);
    }

    pub(super) fn answer_dialog(&self, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let Some(decision) = s.decision() else { return };
        let tr = s.tr();
        let mut lines = Self::para(area, words::explain(s, &decision));
        lines.push(Line::from(""));
        lines.extend(Self::key_lines(
            area,
            &[
                ("←→", tr.t("tui.dialog.your-card", &[])),
                ("Enter", tr.t("tui.dialog.give-back", &[])),
            ],
        ));
        self.dialog(area, &capitalize(&tr.exchange()), lines, buf);
    }

    /// Whom the Twirling Wedgie names, or what Dogberts alone are worth.
    pub(super) fn choice_dialog(&self, choice: &Choice, area: Rect, buf: &mut Buffer) {
        let s = &*self.session;
        let tr = s.tr();
        let reversed = Style::new().add_modifier(Modifier::REVERSED);
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let (title, mut lines) = match choice {
            Choice::Target { set, targets, at } => {
                let mut lines = Self::para(
                    area,
                    tr.t(
                        "tui.target.intro",
                        &[("set", &tr.set_words(set)), ("tokens", &set.to_string())],
                    ),
                );
                lines.push(Line::from(""));
                for (i, &seat) in targets.iter().enumerate() {
                    let on = i == *at;
                    let row = tr.n(
                        "tui.target.row",
                        s.view().card_count(seat).into(),
                        &[
                            ("seat", &words::seat_number(seat).to_string()),
                            ("name", s.name_at(seat)),
                            ("title", &tr.title(seat.title(s.players()))),
                        ],
                    );
                    lines.push(Line::styled(
                        format!("{} {row}", if on { "▶" } else { " " }),
                        if on { reversed } else { Style::new() },
                    ));
                }
                (say(tr, "tui.target.title", &[]), lines)
            }
            Choice::Value {
                dogberts,
                values,
                at,
            } => {
                let which = match s.decision() {
                    Some(Decision::Follow { top, .. }) => tr.t(
                        "tui.value.top",
                        &[("set", &tr.set_words(&top)), ("tokens", &top.to_string())],
                    ),
                    _ => tr.t("tui.value.lead", &[]),
                };
                let mut lines = Self::para(
                    area,
                    tr.n(
                        "tui.value.intro",
                        (*dogberts).into(),
                        &[
                            ("dogberts", &tr.count_of((*dogberts).into(), Card::DOGBERT)),
                            ("which", &which),
                        ],
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
                    let text = format!(" {value} {} ", tr.card(card));
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
                (tr.t("tui.value.title", &[]), lines)
            }
        };
        lines.push(Line::from(""));
        let what = match choice {
            Choice::Target { .. } => tr.t("tui.target.keys", &[]),
            Choice::Value { .. } => tr.t("tui.value.keys", &[]),
        };
        lines.extend(Self::para(
            area,
            Line::from(vec![
                Span::styled(what, bold),
                Span::raw("  "),
                Span::styled("Enter", bold),
                Span::raw(format!(" {}  ", tr.t("tui.key.play", &[]))),
                Span::styled("Esc", bold),
                Span::raw(format!(" {}", tr.t("tui.key.back", &[]))),
            ]),
        ));
        self.dialog(area, &title, lines, buf);
    }
}
