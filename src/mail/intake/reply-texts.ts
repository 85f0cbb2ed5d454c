// The words of every answer intake sends, in Italian and English. Plain text: players read it on
// phones. Everything a player wrote is quoted back as data, never as markup.
import type { Board } from '../../adjudicator/map.ts';
import type { SheetReview } from '../../adjudicator/review.ts';
import type { Lang, Problem } from '../../adjudicator/types.ts';
import type { RefusalReason } from './identify-sender.ts';
import { MAX_ORDERS_LISTED, MAX_PROBLEMS_LISTED, MAX_QUOTED_LINE, MAX_STATUS_LINES, headLines } from './reply-limits.ts';

// One way to name a side, the edict's: the Imperial Troops are named alike in replies and edicts.
import { sideName } from '../../adjudicator/render/vocabulary.ts';
export { sideName };

const t = (lang: Lang, it: string, en: string) => (lang === 'it' ? it : en);

/**
 * A problem as the reply lists it: always with its line (MAIL.md, D-MAIL-14). The parser's
 * messages carry `Riga n:` already; the engine's order messages name only the order.
 */
function problemLine(p: Problem, lang: Lang): string {
  const m = p.message[lang];
  const prefix = t(lang, `Riga ${p.line}: `, `Line ${p.line}: `);
  return p.line > 0 && !m.startsWith(prefix) ? prefix + m : m;
}

export interface AckFacts {
  lang: Lang;
  board: Board;
  gameName: string;
  faction: string;
  turn: number;
  electionTurn: boolean;
  review: SheetReview;
  replaces: string | null;
  deadline: string;
  /** For the Chancellor: the earlier declaration deadline (R-TURN-3). */
  declarationDeadline: string | null;
  isChancellor: boolean;
  /** What was wrong with the mail itself, read as far as it could be (D-MAIL-11). */
  damage?: string[];
}

export function ackText(f: AckFacts): string {
  const { lang, review } = f;
  const out: string[] = [];
  const who = sideName(f.board, f.faction, lang);
  out.push(t(lang, `Ordini ricevuti: ${who}, turno ${f.turn} di "${f.gameName}".`, `Orders received: ${who}, turn ${f.turn} of "${f.gameName}".`));
  out.push(
    f.replaces
      ? t(lang, `Questo foglio sostituisce interamente quello del ${f.replaces} (R-TURN-4).`, `This sheet replaces your sheet of ${f.replaces} entirely (R-TURN-4).`)
      : t(lang, `È il tuo primo foglio per questo turno.`, `This is your first sheet for this turn.`),
  );
  out.push(
    review.status === 'valid'
      ? t(lang, `Stato: valido, nessun problema.`, `Status: valid, no problems.`)
      : t(lang, `Stato: ricevuto con problemi (vedi sotto). Puoi mandare un foglio corretto fino alla scadenza.`,
          `Status: received with problems (see below). You may send a corrected sheet until the deadline.`),
  );
  out.push('', t(lang, 'ORDINI COME LI HO CAPITI', 'ORDERS AS UNDERSTOOD'));
  if (review.orders.length === 0) out.push(t(lang, '  nessun ordine: tutte le unità restano ferme', '  no orders: every unit holds'));
  for (const o of review.orders.slice(0, MAX_ORDERS_LISTED)) {
    out.push(`  ${o.order.padEnd(10)} ${o.applies ? '' : t(lang, '(non applicato: vedi i problemi)', '(not applied: see the problems)')}`.trimEnd());
  }
  const moreOrders = review.orders.length - MAX_ORDERS_LISTED;
  if (moreOrders > 0) out.push(t(lang, `  … e altri ${moreOrders} ordini`, `  … and ${moreOrders} more orders`));
  const hostile = review.hostility.map((s) => sideName(f.board, s, lang)).join(', ');
  out.push('', `${t(lang, 'Ostilità', 'Hostility')}: ${hostile || t(lang, 'nessuno', 'nobody')}`);
  if (f.electionTurn) {
    const vote = review.vote ? sideName(f.board, review.vote, lang) : t(lang, 'nessun voto', 'no vote');
    out.push(`${t(lang, 'Voto', 'Vote')}: ${vote}`);
  }
  if (review.problems.length) {
    out.push('', t(lang, 'PROBLEMI', 'PROBLEMS'));
    for (const p of review.problems.slice(0, MAX_PROBLEMS_LISTED)) out.push(`  ${problemLine(p, lang)}`);
    const more = review.problems.length - MAX_PROBLEMS_LISTED;
    if (more > 0) out.push(t(lang, `  … e altri ${more} problemi`, `  … and ${more} more problems`));
  }
  if (review.notes?.length) {
    out.push('', t(lang, 'NOTE', 'NOTES'));
    for (const p of review.notes) out.push(`  ${problemLine(p, lang)}`);
  }
  if (f.damage?.length) {
    out.push('', t(lang, 'LA MAIL ERA DANNEGGIATA: letta fin dove possibile', 'THE MAIL WAS DAMAGED: read as far as possible'));
    for (const d of f.damage) out.push(`  ${d}`);
  }
  if (review.normalised.length) {
    out.push('', t(lang, 'CARATTERI SOSTITUITI', 'CHARACTERS READ AS OTHERS'));
    for (const p of review.normalised) out.push(`  ${p.message[lang]}`);
  }
  out.push('');
  if (f.isChancellor) {
    out.push(t(lang, `Sei il Cancelliere: questo foglio è definitivo ed è stato inviato a tutti i giocatori (R-TURN-3).`,
      `You are the Chancellor: this sheet is final and has been sent to every player (R-TURN-3).`));
  }
  out.push(`${t(lang, 'Scadenza', 'Deadline')}: ${f.deadline}`);
  out.push(t(lang, 'Gli ordini restano segreti fino alla scadenza.', 'Orders stay secret until the deadline.'));
  return out.join('\n') + '\n';
}

export function chancellorBroadcastText(f: AckFacts): string {
  const { lang } = f;
  const who = sideName(f.board, f.faction, lang);
  const lines = [
    t(lang, `Il Cancelliere (${who}) ha dichiarato i suoi ordini per il turno ${f.turn} di "${f.gameName}" (R-TURN-3).`,
      `The Chancellor (${who}) has declared their orders for turn ${f.turn} of "${f.gameName}" (R-TURN-3).`),
    '',
    `${t(lang, 'Ostilità', 'Hostility')}: ${f.review.hostility.map((s) => sideName(f.board, s, lang)).join(', ') || t(lang, 'nessuno', 'nobody')}`,
    t(lang, 'Ordini (comprese le Truppe Imperiali):', 'Orders (Imperial Troops included):'),
    ...(f.review.orders.length ? f.review.orders.filter((o) => o.applies).map((o) => `  ${o.order}`) : [t(lang, '  nessuno', '  none')]),
    '',
    `${t(lang, 'Scadenza per tutti gli altri', 'Deadline for everyone else')}: ${f.deadline}`,
  ];
  return lines.join('\n') + '\n';
}

export function refusalText(lang: Lang, reason: RefusalReason, game: string | null): string {
  const g = game ?? '?';
  switch (reason) {
    // A code that belongs to another address reads exactly as an unknown one: a prober must not
    // learn that a guess was someone's code (issue 8).
    case 'sender-mismatch':
    case 'unknown-code':
      return t(lang, `Non riconosco il codice di questa mail: nessun ordine è stato applicato. Usa l'indirizzo personale che trovi nella mail di benvenuto.\n`,
        `I do not recognise the code in this mail: no orders were applied. Use the private address from your welcome mail.\n`);
    case 'missing-code':
      return t(lang, `La mail per la partita ${g} non contiene il tuo codice: nessun ordine è stato applicato. Scrivi al tuo indirizzo personale, oppure aggiungi una riga "Code: <il tuo codice>".\n`,
        `Your mail for game ${g} has no code: no orders were applied. Write to your private address, or add a line "Code: <your code>".\n`);
    case 'unknown-game':
      return t(lang, `Non conosco la partita indicata nell'oggetto: nessun ordine è stato applicato.\n`,
        `I do not know the game named in the subject: no orders were applied.\n`);
    case 'no-game':
    case 'unknown-sender':
      return t(lang, `Non capisco per quale partita scrivi: nessun ordine è stato applicato. Scrivi al tuo indirizzo personale (lo trovi nella mail di benvenuto).\n`,
        `I cannot tell which game this mail is for: no orders were applied. Write to your private address (it is in your welcome mail).\n`);
  }
}

/** `summary`: more than one attempt since the last warning (warnings go out at most once an hour). */
export function spoofWarningText(lang: Lang, sender: string, at: string, summary: { attempts: number; since: string } | null = null, referees: readonly string[] = []): string {
  // Players are told how to reach the game's referees (issue 10), when the game has any.
  const reach = referees.length ? ` (${referees.join(', ')})` : '';
  if (summary) {
    return t(lang,
      `Attenzione: dal ${summary.since} qualcuno ha provato ${summary.attempts} volte a usare il tuo codice personale, l'ultima il ${at} dall'indirizzo ${sender}. Non è stato applicato nulla. Se non eri tu, avvisa l'arbitro${reach}.\n`,
      `Warning: since ${summary.since} someone tried ${summary.attempts} times to use your private code, the last on ${at} from ${sender}. Nothing was applied. If it was not you, tell the referee${reach}.\n`);
  }
  return t(lang,
    `Attenzione: il ${at} qualcuno ha scritto dall'indirizzo ${sender} usando il tuo codice personale. Non è stato applicato nulla. Se non eri tu, avvisa l'arbitro${reach}.\n`,
    `Warning: on ${at} someone wrote from ${sender} using your private code. Nothing was applied. If it was not you, tell the referee${reach}.\n`);
}

export type UnreadableReason = 'too-large' | 'broken' | 'no-sheet' | 'too-costly';
export function unreadableText(lang: Lang, reason: UnreadableReason, detail: string): string {
  const why = {
    'too-large': t(lang, `la mail è troppo grande (${detail})`, `the mail is too large (${detail})`),
    broken: t(lang, `non riesco a leggere la mail (${detail})`, `I cannot read the mail (${detail})`),
    'too-costly': t(lang, `leggerla richiedeva troppo tempo o troppa memoria, ed è stata messa da parte per l'arbitro`,
      `reading it took too much time or memory, and it has been set aside for the referee`),
    'no-sheet': t(lang, `nessuna riga della mail è un ordine, un'ostilità o un voto`, `no line of the mail is an order, a hostility or a vote`),
  }[reason];
  const again = reason === 'broken' || reason === 'too-costly'
    ? t(lang, ` Rimanda i tuoi ordini come testo semplice nel corpo di una nuova mail.`, ` Send your orders again as plain text in the body of a new mail.`)
    : '';
  return t(lang, `Non ho letto questa mail come foglio d'ordini: ${why}. Il tuo foglio precedente resta valido.${again}\n`,
    `I did not read this mail as an order sheet: ${why}. Your earlier sheet still stands.${again}\n`);
}

export function lateText(lang: Lang, receivedAt: string, deadline: string, chancellor: boolean): string {
  return chancellor
    ? t(lang, `Il tuo foglio è arrivato il ${receivedAt}, dopo la scadenza della dichiarazione del Cancelliere (${deadline}): non è applicato (R-TURN-3).\n`,
        `Your sheet arrived on ${receivedAt}, after the Chancellor's declaration deadline (${deadline}): it is not applied (R-TURN-3).\n`)
    : t(lang, `Il tuo foglio è arrivato il ${receivedAt}, dopo la scadenza (${deadline}): non è applicato (R-TURN-4).\n`,
        `Your sheet arrived on ${receivedAt}, after the deadline (${deadline}): it is not applied (R-TURN-4).\n`);
}

export function notAcceptedText(lang: Lang, why: 'chancellor-final' | 'not-in-play' | 'game-not-active' | 'no-open-turn'): string {
  return {
    'chancellor-final': t(lang, `Il foglio del Cancelliere è già stato accettato e pubblicato: non si può cambiare (R-TURN-3).\n`,
      `The Chancellor's sheet was already accepted and published: it cannot be changed (R-TURN-3).\n`),
    'not-in-play': t(lang, `La tua fazione entra in gioco all'inizio del prossimo turno (R-SETUP-4): manda i tuoi ordini allora.\n`,
      `Your faction enters play at the start of the next turn (R-SETUP-4): send your orders then.\n`),
    'game-not-active': t(lang, `Questa partita non è in corso: nessun ordine è stato applicato.\n`, `This game is not running: no orders were applied.\n`),
    'no-open-turn': t(lang, `Nessun turno è aperto in questo momento: nessun ordine è stato applicato.\n`, `No turn is open right now: no orders were applied.\n`),
  }[why];
}

/** ABSENCE (D-ABS-1): what was recorded, or how to write the dates. */
export function absenceText(lang: Lang, days: { fromDay: string; toDay: string } | null): string {
  if (!days) {
    return t(lang,
      `Non ho capito le date dell'assenza. Scrivi per esempio:\n\n    ASSENZA 2025-04-01 2025-04-10\n\noppure ASSENZA 1/4 10/4 (giorno/mese).\n`,
      `I could not read the dates of the absence. Write for example:\n\n    ABSENCE 2025-04-01 2025-04-10\n\nor ABSENCE 1/4 10/4 (day/month).\n`);
  }
  return t(lang,
    `Ho registrato la tua assenza dal ${days.fromDay} al ${days.toDay}. Se una scadenza cade in quei giorni si sposta alla fine dell'assenza, nei limiti della partita, e tutti i giocatori ricevono la nuova scadenza. Una scadenza non si sposta mai prima.\n`,
    `Your absence from ${days.fromDay} to ${days.toDay} is recorded. A deadline that falls on those days moves to the end of the absence, within the game's limits, and every player is told the new deadline. A deadline never moves earlier.\n`);
}

/** D-MAIL-20: a sheet received before the one that stands, but processed after it (an outage). */
export function supersededText(lang: Lang, receivedAt: string, standing: string): string {
  return t(lang,
    `Il tuo foglio arrivato il ${receivedAt} è stato letto solo ora, ed è più vecchio del foglio che hai mandato il ${standing}: resta valido quello più recente (R-TURN-4). Nessun ordine è cambiato.\n`,
    `Your sheet that arrived on ${receivedAt} was only read now, and it is older than the sheet you sent on ${standing}: the newer one stands (R-TURN-4). No orders were changed.\n`);
}

export interface StatusFacts {
  lang: Lang;
  board: Board;
  gameName: string;
  faction: string;
  turn: number;
  deadline: string;
  received: 'none' | 'problems' | 'valid';
  sheetAt: string | null;
  sheetText: string | null;
}

export function statusText(f: StatusFacts): string {
  const { lang } = f;
  const state = {
    none: t(lang, 'nessun foglio ricevuto', 'no sheet received'),
    problems: t(lang, 'ricevuto con problemi', 'received with problems'),
    valid: t(lang, 'valido', 'valid'),
  }[f.received];
  const lines = [
    `"${f.gameName}" — ${sideName(f.board, f.faction, lang)}, ${t(lang, 'turno', 'turn')} ${f.turn}`,
    `${t(lang, 'Scadenza', 'Deadline')}: ${f.deadline}`,
    `${t(lang, 'I tuoi ordini', 'Your orders')}: ${state}${f.sheetAt ? ` (${f.sheetAt})` : ''}`,
  ];
  if (f.sheetText !== null) {
    const quoted = headLines(f.sheetText, MAX_STATUS_LINES, MAX_QUOTED_LINE);
    lines.push('', t(lang, 'Il tuo foglio attuale:', 'Your current sheet:'), ...quoted.lines.map((l) => `  ${l}`));
    if (quoted.omitted > 0) lines.push(t(lang, `  … e altre ${quoted.omitted} righe`, `  … and ${quoted.omitted} more lines`));
  }
  return lines.join('\n').trimEnd() + '\n';
}

export function helpText(lang: Lang): string {
  return t(lang,
    [
      'Come scrivere un foglio d\'ordini (una riga per ordine):',
      '  H: Sith, Mercanti    le fazioni a cui sei ostile in questo turno',
      '  B2-C3                movimento in una casella adiacente (anche in diagonale)',
      '  B2=F6                iperspazio, da 1 a 4 caselle',
      '  N9#                  azione politica, da una casella della Capitale',
      '  V: Sith              in un turno di elezioni, il tuo voto',
      '  E: O10               se sei eletto e la Capitale è piena, l\'unità che sostituisci',
      'Un\'unità senza ordini resta ferma. Vale l\'ultimo foglio inviato prima della scadenza.',
      'Scrivi STATUS per vedere la scadenza e il tuo foglio attuale.',
    ].join('\n') + '\n',
    [
      'How to write an order sheet (one order per line):',
      '  H: Sith, Merchants   the factions you are hostile to this turn',
      '  B2-C3                move to an adjacent cell (diagonals too)',
      '  B2=F6                hyperspace, 1 to 4 cells',
      '  N9#                  politics, from a Capital cell',
      '  V: Sith              in an election turn, your vote',
      '  E: O10               if you are elected and the Capital is full, the unit you replace',
      'A unit with no order holds. The last sheet sent before the deadline counts.',
      'Send STATUS to see the deadline and your current sheet.',
    ].join('\n') + '\n');
}
