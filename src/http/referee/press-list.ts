// The console's view of a game's press (docs/press.md §5, D-PRESS-10): every message with its
// writer — anonymous ones too, which players never see — and to whom it went, reported ones first
// with each report's reason, refused ones with why. Read-only; the text is escaped like every
// player's words.
import type { RefereePressRow } from '../../db/press.ts';
import { html, when, type Html } from './html.ts';

function audience(m: RefereePressRow): string {
  if (m.audienceKind === 'all') return 'everyone';
  if (m.audienceKind === 'referee') return 'the referees';
  return m.audienceFactions.join(', ') || '(nobody)';
}

function writer(m: RefereePressRow): string {
  const who = m.writerRefereeId !== null ? 'a referee' : `${m.writerFaction ?? '?'} (${m.writerEmail ?? 'seat since changed'})`;
  return m.sign === 'anonymous' ? `${who}, anonymous to players` : who;
}

export function pressList(list: readonly RefereePressRow[]): Html {
  if (!list.length) return html`<section id="press"><h2>Press</h2><p>No message yet.</p></section>`;
  const items = list.map((m) => {
    const reports = m.reports.map((r) => html`<li>reported ${when(r.at)}: ${r.reason || '(no reason given)'}</li>`);
    const outcome = m.status === 'refused' ? html`<p><strong>Refused:</strong> ${JSON.stringify(m.refusal)}</p>` : html``;
    return html`<li id="press-${m.id}"><p><strong>#${m.id}</strong> turn ${m.turn}, ${when(m.receivedAt)}: from ${writer(m)} to ${audience(m)}</p>${
      reports.length ? html`<ul class="reports">${reports}</ul>` : html``
    }${outcome}<blockquote><pre>${m.text}</pre></blockquote></li>`;
  });
  const reported = list.filter((m) => m.reports.length).length;
  return html`<section id="press"><h2>Press</h2><p>${list.length} messages${reported ? `, ${reported} reported (first)` : ''}. Players never see who wrote an anonymous one.</p><ol>${items}</ol></section>`;
}
