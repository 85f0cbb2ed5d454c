// The console's view of a game's press (docs/press.md §5, D-PRESS-10): every message with its
// writer — anonymous ones too, which players never see — and to whom it went (a reply's hidden
// anonymous reader too), reported ones first with each report's reason, refused ones with why in
// the players' words. Read-only; the text is escaped like every player's words.
import type { Board } from '../../adjudicator/map.ts';
import { sideName } from '../../adjudicator/render/vocabulary.ts';
import type { RefereePressRow } from '../../db/press.ts';
import { refusalText, type PressRefusal } from '../../games/index.ts';
import { html, when, type Html } from './html.ts';

/** The console speaks English (docs/press.md §9: referees' language is left). */
const LANG = 'en';

function audience(board: Board, m: RefereePressRow): string {
  if (m.audienceKind === 'all') return 'everyone';
  if (m.audienceKind === 'referee') return 'the referees';
  const names = m.audienceFactions.map((f) => sideName(board, f, LANG));
  if (m.hiddenReader)
    names.push(`${sideName(board, m.hiddenReader.faction, LANG)} (${m.hiddenReader.email}), the conversation's anonymous writer`);
  return names.join(', ') || '(nobody)';
}

function writer(board: Board, m: RefereePressRow): string {
  const who =
    m.writerRefereeId !== null
      ? 'a referee'
      : `${m.writerFaction ? sideName(board, m.writerFaction, LANG) : '?'} (${m.writerEmail ?? 'seat since changed'})`;
  return m.sign === 'anonymous' ? `${who}, anonymous to players` : who;
}

/** A refusal as stored (JSON: its dates are strings), in the words its writer got. */
export function storedRefusalText(refusal: unknown, board: Board, timeZone: string): string {
  const r = refusal as (PressRefusal & { since?: string | Date; nextAt?: string | Date }) | null;
  if (!r || typeof r.reason !== 'string') return 'no reason stored';
  const revived = {
    ...r,
    ...(r.since !== undefined ? { since: new Date(r.since) } : {}),
    ...(r.nextAt !== undefined ? { nextAt: new Date(r.nextAt) } : {}),
  } as PressRefusal;
  return refusalText(LANG, revived, board, timeZone) ?? r.reason;
}

export function pressList(list: readonly RefereePressRow[], board: Board, timeZone: string): Html {
  if (!list.length) return html`<section id="press"><h2>Press</h2><p>No message yet.</p></section>`;
  const items = list.map((m) => {
    const reports = m.reports.map((r) => html`<li>reported ${when(r.at)}: ${r.reason || '(no reason given)'}</li>`);
    const outcome =
      m.status === 'refused' ? html`<p><strong>Refused:</strong> ${storedRefusalText(m.refusal, board, timeZone)}</p>` : html``;
    return html`<li id="press-${m.id}"><p><strong>#${m.id}</strong> turn ${m.turn}, ${when(m.receivedAt)}: from ${writer(board, m)} to ${audience(board, m)}</p>${
      reports.length ? html`<ul class="reports">${reports}</ul>` : html``
    }${outcome}<blockquote><pre>${m.text}</pre></blockquote></li>`;
  });
  const reported = list.filter((m) => m.reports.length).length;
  return html`<section id="press"><h2>Press</h2><p>${list.length} messages${reported ? `, ${reported} reported (first)` : ''}. Players never see who wrote an anonymous one.</p><ol>${items}</ol></section>`;
}
