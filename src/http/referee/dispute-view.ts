// The console's forms for settling a dispute (R-TURN-2 step 5): amend the last closed turn — a
// different unit into a contested cell (R-ADV-2), a corrected sheet — as a new edict version with
// the reason (R-EDICT-3); roll it back; pause or resume the game. The code behind them is the
// application layer's (src/games/amend-turn.ts, pause.ts), as `sf referee` uses it too.
import type { EdictVersion } from '../../db/edicts.ts';
import type { GameOverview } from '../../db/referee-views.ts';
import { MAX_REASON_LENGTH, MAX_ROLLBACK_HOURS } from '../../games/index.ts';
import { html, when, type Html } from './html.ts';
import { factionName } from './names.ts';

const base = (o: GameOverview) => `/referee/games/${encodeURIComponent(o.game.id)}`;
const reason = (id: string) =>
  html`<label for="${id}">Reason (players and the audit log see it)</label><input id="${id}" name="reason" type="text" required maxlength="${MAX_REASON_LENGTH}" size="40">`;
const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

/** `last`: the newest edict of the last closed turn, when its next turn is still open (or the game is over). */
export function disputeSection(o: GameOverview, last: EdictVersion | null, csrf: string): Html {
  const g = o.game;
  const pause =
    g.status === 'paused'
      ? html`<h3>The game is paused</h3><form method="post" action="${base(o)}/resume">${csrfField(csrf)}${reason('resume-reason')} <button type="submit">Resume (deadlines move on by the pause)</button></form>`
      : g.status === 'active'
        ? html`<h3>Pause the game</h3><form method="post" action="${base(o)}/pause">${csrfField(csrf)}${reason('pause-reason')} <button type="submit">Pause</button></form>`
        : html``;
  const length =
    g.status === 'finished'
      ? html``
      : html`<h3>Length of the game (R-WIN-2)</h3><p>${g.lastTurn === null ? 'No last turn: the game goes on until a faction has the planets to win.' : `The last turn is turn ${g.lastTurn}.`}</p><form method="post" action="${base(o)}/length">${csrfField(csrf)}<label for="last-turn">Last turn (empty: none)</label><input id="last-turn" name="lastTurn" type="number" min="${Math.max(2, g.currentTurn)}" value="${g.lastTurn ?? ''}">${reason('length-reason')} <button type="submit">Set the length</button></form>`;
  const controls = html`${pause}${length}`;
  if (!last) return html`<section><h2>Disputes</h2><p>No closed turn can be amended now.</p>${controls}</section>`;
  const contested = last.json.advances.filter((a) => a.contested);
  const choices = contested.map(
    (a) =>
      html`<p><label for="adv-${a.to}">Into ${a.to} (now ${a.from})</label><select id="adv-${a.to}" name="advance:${a.to}"><option value="">as adjudicated</option>${a.candidates.map(
        (c) => html`<option value="${c}">${c}</option>`,
      )}</select></p>`,
  );
  const factions = o.players.map((p) => html`<option value="${p.faction}">${factionName(g.map, p.faction)}</option>`);
  const amend = html`<h3 id="amend">Amend turn ${last.turn} (edict version ${last.version}, ${when(last.createdAt)})</h3><form method="post" action="${base(o)}/amend">${csrfField(csrf)}<input type="hidden" name="turn" value="${last.turn}">${
    choices.length ? choices : html`<p>No contested advance in this turn.</p>`
  }<p><label for="fix-faction">Correct the sheet of</label><select id="fix-faction" name="faction"><option value="">nobody</option>${factions}</select></p><p><label for="fix-text">as it should have been read</label><textarea id="fix-text" name="sheet" rows="4" cols="40"></textarea></p><p><input id="confirm" name="confirm" type="checkbox" value="yes"><label for="confirm">amend even if the dispute window (${g.disputeWindowMinutes} minutes) is over</label></p>${reason('amend-reason')} <button type="submit">Publish the amended edict</button></form>`;
  const rollback = html`<h3>Roll back turn ${last.turn}</h3><form method="post" action="${base(o)}/rollback">${csrfField(csrf)}<label for="rollback-hours">The turn re-opens, due in hours</label><input id="rollback-hours" name="hours" type="number" min="1" max="${MAX_ROLLBACK_HOURS}" required>${reason('rollback-reason')} <button type="submit">Roll back</button></form>`;
  return html`<section><h2>Disputes</h2>${amend}${rollback}${controls}</section>`;
}
