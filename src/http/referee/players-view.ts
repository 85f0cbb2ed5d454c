// The console's players: each seat with every address its player writes from (the primary, where
// the game's mail goes, first — D-SEAT-3), and the forms to resend a welcome, give the seat to
// someone else, remove the player (D-SEAT-1) and change their addresses; then the seats left
// empty, each with the form that fills it. Everything a player or referee wrote is escaped by `html`.
import type { Player } from '../../db/players.ts';
import { MAX_ADDRESSES, MAX_REASON_LENGTH } from '../../games/index.ts';
import type { GameOverview } from '../../db/referee-views.ts';
import { html, when, type Html } from './html.ts';
import { factionName } from './names.ts';

const base = (o: GameOverview) => `/referee/games/${encodeURIComponent(o.game.id)}`;
const reason = (id: string) =>
  html`<label for="${id}">Reason (players and the audit log see it)</label><input id="${id}" name="reason" type="text" required maxlength="${MAX_REASON_LENGTH}" size="40">`;

function form(action: string, csrf: string, label: string, id: string, extra: Html = html``): Html {
  return html`<form method="post" action="${action}"><input type="hidden" name="_csrf" value="${csrf}">${extra}${reason(id)} <button type="submit">${label}</button></form>`;
}

const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;

function giveSeat(o: GameOverview, p: Player, csrf: string, label: string): Html {
  return form(
    `${base(o)}/players/${p.id}/replace`,
    csrf,
    label,
    `replace-${p.id}`,
    html`<label for="replace-email-${p.id}">New player's address</label><input id="replace-email-${p.id}" name="email" type="email" required><label for="replace-lang-${p.id}">Language</label><select id="replace-lang-${p.id}" name="lang"><option>en</option><option>it</option></select>`,
  );
}

function addresses(o: GameOverview, p: Player, csrf: string): Html {
  const list = o.addresses.get(p.id) ?? [p.email];
  const items = list.map((a, i) =>
    i === 0
      ? html`<li>${a} (primary)</li>`
      : html`<li>${a}${form(`${base(o)}/players/${p.id}/addresses`, csrf, 'Make primary', `primary-${p.id}-${i}`, html`${hidden('change', 'primary')}${hidden('email', a)}`)}${form(
          `${base(o)}/players/${p.id}/addresses`,
          csrf,
          'Remove this address',
          `unaddress-${p.id}-${i}`,
          html`${hidden('change', 'remove')}${hidden('email', a)}`,
        )}</li>`,
  );
  const add =
    list.length < MAX_ADDRESSES
      ? form(
          `${base(o)}/players/${p.id}/addresses`,
          csrf,
          'Add the address',
          `address-${p.id}`,
          html`${hidden('change', 'add')}<label for="address-email-${p.id}">Another address they write from</label><input id="address-email-${p.id}" name="email" type="email" required>`,
        )
      : html``;
  return html`<ul>${items}</ul>${add}`;
}

export function playersSection(o: GameOverview, csrf: string): Html {
  const rows = o.players.map(
    (p) =>
      html`<tr><td>${factionName(o.game.map, p.faction)}</td><td>${addresses(o, p, csrf)}</td><td>${p.displayName ?? ''}</td><td>${p.lang}</td><td>${p.joinedTurn}</td><td>${form(
        `${base(o)}/players/${p.id}/welcome`,
        csrf,
        'Resend welcome',
        `welcome-${p.id}`,
      )}${giveSeat(o, p, csrf, 'Give the seat to')}${form(`${base(o)}/players/${p.id}/remove`, csrf, 'Remove the player (the seat stays empty)', `remove-${p.id}`)}</td></tr>`,
  );
  const vacant = o.vacant.map(
    (p) =>
      html`<tr><td>${factionName(o.game.map, p.faction)}</td><td>${p.email}</td><td>${when(p.removedAt)}</td><td>${giveSeat(o, p, csrf, 'Give the seat to')}</td></tr>`,
  );
  return html`<section><h2>Players</h2><table><tr><th>Faction</th><th>Addresses</th><th>Name</th><th>Language</th><th>Since turn</th><th>Action</th></tr>${rows}</table>${
    vacant.length
      ? html`<h3>Empty seats</h3><p>Their units hold and they cast no votes, as if no sheet came (R-TURN-5), until someone takes the seat.</p><table><tr><th>Faction</th><th>Last player</th><th>Removed</th><th>Action</th></tr>${vacant}</table>`
      : html``
  }</section>`;
}
