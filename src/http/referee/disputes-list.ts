// The console's list of a game's disputes (R-TURN-2 step 5, docs/press.md §5): the open ones
// first, each with who disputed, the turn, when and why, and a form to reject it with a reason;
// then the settled ones with how. Amending the turn (dispute-view.ts) settles its open disputes.
import type { Board } from '../../adjudicator/map.ts';
import { sideName } from '../../adjudicator/render/vocabulary.ts';
import type { OpenDispute } from '../../games/index.ts';
import { MAX_REASON_LENGTH } from '../../games/index.ts';
import { html, when, type Html } from './html.ts';

const SETTLED: Record<OpenDispute['status'], string> = {
  open: 'open',
  rejected: 'rejected',
  amended: 'settled by an amendment',
  lapsed: 'lapsed (the next turn closed)',
};

export function disputesList(gameBase: string, list: readonly OpenDispute[], csrf: string, board: Board): Html {
  const faction = (f: string) => sideName(board, f, 'en');
  const open = list.filter((d) => d.status === 'open');
  const settled = list.filter((d) => d.status !== 'open');
  const openItems = open.map(
    (d) =>
      html`<li id="dispute-${d.id}"><p><strong>#${d.id}</strong> turn ${d.turn} (edict version ${d.edictVersion}), ${faction(d.faction)} (${d.player}), received ${when(d.receivedAt)}</p><blockquote><pre>${d.reason}</pre></blockquote><form method="post" action="${gameBase}/disputes/${d.id}/reject"><input type="hidden" name="_csrf" value="${csrf}"><label for="reject-${d.id}">Reason (the disputer and the audit log see it)</label><input id="reject-${d.id}" name="reason" type="text" required maxlength="${MAX_REASON_LENGTH}" size="40"> <button type="submit">Reject: the edict stands</button></form></li>`,
  );
  // A list like the open ones, not a seven-column table: at 360 px a table's columns were squeezed to one letter a line.
  const settledItems = settled.map(
    (d) =>
      html`<li id="dispute-${d.id}"><p><strong>#${d.id}</strong> turn ${d.turn}, ${faction(d.faction)}, received ${when(d.receivedAt)}: ${SETTLED[d.status]}${
        d.settlementReason ? html` (${d.settlementReason})` : html``
      }</p><blockquote><pre>${d.reason}</pre></blockquote></li>`,
  );
  return html`<section id="disputes"><h2>Open disputes</h2>${
    openItems.length
      ? html`<ol>${openItems}</ol><p>To uphold one, <a href="${gameBase}#amend">amend its turn</a> on the game's page: the amendment settles every open dispute of that turn.</p>`
      : html`<p>No open dispute.</p>`
  }${settledItems.length ? html`<h3>Settled disputes</h3><ol class="settled">${settledItems}</ol>` : html``}</section>`;
}
