// The console's form for a game's press settings (docs/press.md §3): every setting shown with its
// current value; what the referee changes is stored, logged and told to every player
// (src/games/press/change-settings.ts), as `sf referee press` does.
import type { GameOverview } from '../../db/referee-views.ts';
import { describePressSettings, MAX_REASON_LENGTH, PRESS_MODES, PRESS_OPEN, pressSettingsOf } from '../../games/index.ts';
import { html, type Html } from './html.ts';

const select = (id: string, name: string, label: string, values: readonly string[], current: string): Html =>
  html`<p><label for="${id}">${label}</label><select id="${id}" name="${name}">${values.map(
    (v) => html`<option value="${v}"${v === current ? html` selected` : html``}>${v}</option>`,
  )}</select></p>`;

export function pressSettingsSection(o: GameOverview, csrf: string): Html {
  const g = o.game;
  const s = pressSettingsOf(g.pressSettings);
  const now = html`<ul>${describePressSettings(s, 'en').map((l) => html`<li>${l}</li>`)}</ul>`;
  if (g.status === 'finished') return html`<section><h2>Press settings</h2>${now}<p>The game is over: its settings stay.</p></section>`;
  // The values shown go back with the form: the route sends only what this referee changed, so a
  // form left open never reverts another referee's change made since (D-PRESS-20).
  const shown: Record<string, string> = {
    mode: s.mode,
    private: s.private ? 'yes' : 'no',
    open: s.open,
    observers: s.observers,
    reveal: s.reveal,
    maxChars: String(s.maxChars),
    perHour: String(s.perHour),
  };
  const was = Object.entries(shown).map(([k, v]) => html`<input type="hidden" name="was_${k}" value="${v}">`);
  return html`<section><h2>Press settings</h2>${now}<form method="post" action="/referee/games/${encodeURIComponent(g.id)}/press-settings"><input type="hidden" name="_csrf" value="${csrf}">${was}${[
    select('press-mode', 'mode', 'Messages between players', PRESS_MODES, s.mode),
    select('press-private', 'private', 'Messages to some factions (no: to everyone only)', ['yes', 'no'], s.private ? 'yes' : 'no'),
    select('press-open', 'open', 'Open', PRESS_OPEN, s.open),
    select('press-observers', 'observers', 'Observers and the public page see', ['broadcasts', 'nothing'], s.observers),
    select('press-reveal', 'reveal', 'Private messages shown to every player', ['at-end', 'never'], s.reveal),
    html`<p><label for="press-max-chars">Longest message (characters, 200 to 50000)</label><input id="press-max-chars" name="maxChars" type="number" min="200" max="50000" value="${s.maxChars}" required></p>`,
    html`<p><label for="press-per-hour">Messages a player may send in an hour (1 to 1000)</label><input id="press-per-hour" name="perHour" type="number" min="1" max="1000" value="${s.perHour}" required></p>`,
  ]}<label for="press-reason">Reason (players and the audit log see it)</label><input id="press-reason" name="reason" type="text" required maxlength="${MAX_REASON_LENGTH}" size="40"> <button type="submit">Change the press settings</button></form><p>Every player is mailed what changed, old and new; a change that changes nothing mails nobody.</p></section>`;
}
