// The console's page of one game: sheets with every version and the mail behind each, the
// players, mail set aside, outbox failures, bouncing addresses and the audit log — and the forms
// of the actions, each asking for a reason. Everything players or referees wrote is escaped by
// the `html` tag.
import type { AuditEntry } from '../../db/audit.ts';
import type { EdictVersion } from '../../db/edicts.ts';
import type { InboundHead } from '../../db/inbound.ts';
import type { OutboxMail } from '../../db/outbox.ts';
import type { Sheet } from '../../db/sheets.ts';
import type { GameOverview } from '../../db/referee-views.ts';
import { boardFor, MAX_EXTENSION_MINUTES, MAX_REASON_LENGTH, type OpenDispute } from '../../games/index.ts';
import { disputeSection } from './dispute-view.ts';
import { disputesList } from './disputes-list.ts';
import { factionName } from './names.ts';
import { playersSection } from './players-view.ts';
import { pressSettingsSection } from './press-settings-view.ts';
import { html, when, type Html } from './html.ts';

/** How much of a mail is shown inline; the rest is one link away. */
export const INLINE_MAIL_BYTES = 64 * 1024;

export interface GamePageInput {
  o: GameOverview;
  /** The newest edict of the turn a dispute can be about; null when none can be amended. */
  last: EdictVersion | null;
  mailStarts: Map<number, { start: Buffer; size: number }>;
  csrf: string;
  notice: string | null;
  /** The game's disputes, open first (disputes-list.ts). */
  disputes?: readonly OpenDispute[];
}

const base = (o: GameOverview) => `/referee/games/${encodeURIComponent(o.game.id)}`;

const reasonField = (id: string) =>
  html`<label for="${id}">Reason (players and the audit log see it)</label><input id="${id}" name="reason" type="text" required maxlength="${MAX_REASON_LENGTH}" size="40">`;

function actionForm(action: string, csrf: string, label: string, id: string, extra: Html = html``): Html {
  return html`<form method="post" action="${action}"><input type="hidden" name="_csrf" value="${csrf}">${extra}${reasonField(id)} <button type="submit">${label}</button></form>`;
}

export function rawMailBlock(gameBase: string, id: number, mail: { start: Buffer; size: number } | undefined): Html {
  if (!mail) return html`<p>(mail ${id} is not stored)</p>`;
  const cut = mail.size > mail.start.length;
  return html`<details><summary>Mail ${id} as received (${mail.size} bytes)</summary><pre>${mail.start.toString('utf8')}</pre>${
    cut ? html`<p>Only the first ${mail.start.length} bytes are shown: <a href="${gameBase}/mail/${id}">the whole mail</a>.</p>` : html``
  }</details>`;
}

function sheetVersion(o: GameOverview, s: Sheet, starts: GamePageInput['mailStarts']): Html {
  const mail = s.inboundId === null ? null : o.mails.get(s.inboundId);
  return html`<li><p>Version ${s.version}: ${s.status === 'valid' ? 'valid' : 'with problems'}, received ${when(s.receivedAt)}${
    mail ? html`, from ${mail.messageId ?? 'a mail without Message-ID'}` : html``
  }</p><pre>${s.text}</pre>${s.inboundId === null ? html`<p>(entered without a mail)</p>` : rawMailBlock(base(o), s.inboundId, starts.get(s.inboundId))}</li>`;
}

function sheetsSection(o: GameOverview, starts: GamePageInput['mailStarts']): Html {
  const turnLinks = o.turns.map(
    (t) => html` <a href="${base(o)}?turn=${t.number}"${t.number === o.turn?.number ? html` aria-current="page"` : html``}>${t.number}</a>`,
  );
  const factions = o.sheets.map(
    (f) =>
      html`<h3>${factionName(o.game.map, f.faction)} (${o.players.find((p) => p.faction === f.faction)?.email ?? 'no player'})</h3><ol>${f.versions.map((s) => sheetVersion(o, s, starts))}</ol>`,
  );
  return html`<section><h2>Sheets of turn ${o.turn?.number ?? '—'}</h2><p>Turns:${turnLinks}</p>${factions.length ? factions : html`<p>No sheets for this turn.</p>`}</section>`;
}

function turnSection(o: GameOverview, csrf: string): Html {
  const open = o.turns.find((t) => t.number === o.game.currentTurn && t.status === 'open');
  const closed = o.turns.filter((t) => t.status === 'adjudicated');
  const extend = open
    ? html`<h3>Extend the deadline of turn ${open.number} (now ${when(open.deadline)})</h3>${actionForm(
        `${base(o)}/deadline`,
        csrf,
        'Extend',
        'extend-reason',
        html`<label for="extend-minutes">Minutes later (at most ${MAX_EXTENSION_MINUTES})</label><input id="extend-minutes" name="minutes" type="number" min="1" max="${MAX_EXTENSION_MINUTES}" required>`,
      )}<p><a href="${base(o)}/preview">Preview: what if turn ${open.number} closed now</a></p>`
    : html`<p>No turn is open.</p>`;
  const options = [
    html`<option value="">every player</option>`,
    ...o.players.map((p) => html`<option value="${p.id}">${factionName(o.game.map, p.faction)} (${p.email})</option>`),
  ];
  const resend = closed.length
    ? html`<h3>Resend an edict</h3>${actionForm(
        `${base(o)}/edicts/resend`,
        csrf,
        'Resend',
        'resend-reason',
        html`<label for="resend-turn">Turn</label><select id="resend-turn" name="turn">${closed.map((t) => html`<option>${t.number}</option>`)}</select><label for="resend-player">To</label><select id="resend-player" name="player">${options}</select>`,
      )}`
    : html``;
  return html`<section><h2>Turn</h2>${extend}${resend}</section>`;
}

function unprocessableSection(o: GameOverview): Html {
  return mailSetAside(o.unprocessable, base(o), 'Mail set aside as unprocessable');
}

export function mailSetAside(mails: InboundHead[], gameBase: string, title: string): Html {
  const rows = mails.map(
    (m) =>
      html`<tr><td><a href="${gameBase}/mail/${m.id}">${m.id}</a></td><td>${when(m.receivedAt)}</td><td>${m.messageId ?? ''}</td><td>${m.size}</td><td>${m.attempts}</td></tr>`,
  );
  return html`<section><h2>${title}</h2>${
    rows.length
      ? html`<table><tr><th>Mail</th><th>Received</th><th>Message-ID</th><th>Bytes</th><th>Attempts</th></tr>${rows}</table>`
      : html`<p>None.</p>`
  }</section>`;
}

function outboxSection(o: GameOverview, csrf: string): Html {
  const action = (m: OutboxMail) =>
    m.status === 'failed'
      ? actionForm(`${base(o)}/outbox/${m.id}/retry`, csrf, 'Retry', `retry-${m.id}`)
      : actionForm(`${base(o)}/outbox/${m.id}/drop`, csrf, 'Drop', `drop-${m.id}`);
  const rows = o.outboxProblems.map(
    (m) =>
      html`<tr><td>${m.id}</td><td>${m.kind}</td><td>${m.toAddress}</td><td>${m.subject}</td><td>${m.status}</td><td>${m.attempts}</td><td>${(m.lastError ?? '').slice(0, 300)}</td><td>${action(m)}</td></tr>`,
  );
  const bouncing = o.bouncing.map(
    (b) => html`<tr><td>${b.address}</td><td>${b.failed}</td><td>${when(b.lastAt)}</td><td>${(b.lastError ?? '').slice(0, 300)}</td></tr>`,
  );
  return html`<section><h2>Outgoing mail that failed or keeps failing</h2>${
    rows.length
      ? html`<table><tr><th>Id</th><th>Kind</th><th>To</th><th>Subject</th><th>Status</th><th>Attempts</th><th>Last error</th><th>Action</th></tr>${rows}</table>`
      : html`<p>None.</p>`
  }<h2>Bouncing addresses</h2>${
    bouncing.length
      ? html`<table><tr><th>Address</th><th>Failed mails</th><th>Last</th><th>Last error</th></tr>${bouncing}</table>`
      : html`<p>None.</p>`
  }</section>`;
}

function auditSection(entries: AuditEntry[]): Html {
  const rows = entries.map((e) => {
    const { reason, ...rest } = e.detail as Record<string, unknown>;
    return html`<tr><td>${when(e.at)}</td><td>${e.actor}</td><td>${e.action}</td><td>${typeof reason === 'string' ? reason : ''}</td><td><code>${JSON.stringify(rest)}</code></td></tr>`;
  });
  return html`<section><h2>Audit log</h2>${
    rows.length
      ? html`<table><tr><th>When</th><th>Who</th><th>What</th><th>Why</th><th>Detail</th></tr>${rows}</table>`
      : html`<p>Nothing yet.</p>`
  }</section>`;
}

export function gamePage({ o, last, mailStarts, csrf, notice, disputes = [] }: GamePageInput): Html {
  const g = o.game;
  return html`${notice ? html`<p class="notice" role="status">${notice}</p>` : html``}<p>Game <code>${g.id}</code>, ${g.status}, turn ${g.currentTurn}; time zone ${g.timeZone}, weekly deadline ${g.weeklyDeadline}.</p>${[
    turnSection(o, csrf),
    disputesList(base(o), disputes, csrf, boardFor(g.map)),
    html`<p><a href="${base(o)}/press">The game's press</a>: every message with its writer, reported ones first.</p>`,
    disputeSection(o, last, csrf),
    pressSettingsSection(o, csrf),
    sheetsSection(o, mailStarts),
    playersSection(o, csrf),
    unprocessableSection(o),
    outboxSection(o, csrf),
    auditSection(o.audit),
  ]}`;
}
