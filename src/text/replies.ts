// The words of every answer intake sends (src/mail/intake/reply-texts.ts puts them together).
// Plain text: players read it on phones. Everything a player wrote is inserted as data.
import type { Lang, Problem } from '../adjudicator/types.ts';
import { defineTexts } from './define.ts';

export const replyTexts = defineTexts({
  it: {
    // The acknowledgement of a sheet.
    linePrefix: (line: number) => `Riga ${line}: `,
    received: (who: string, turn: number, gameName: string) => `Ordini ricevuti: ${who}, turno ${turn} di "${gameName}".`,
    replaces: (at: string) => `Questo foglio sostituisce interamente quello di ${at} (R-TURN-4).`,
    firstSheet: `È il tuo primo foglio per questo turno.`,
    statusValid: `Stato: valido, nessun problema.`,
    statusProblems: `Stato: ricevuto con problemi (vedi sotto). Puoi mandare un foglio corretto fino alla scadenza.`,
    ordersHeading: 'ORDINI COME LI HO CAPITI',
    noOrders: '  nessun ordine: tutte le unità restano ferme',
    notApplied: '(non applicato: vedi i problemi)',
    moreOrders: (n: number) => `  … e altri ${n} ordini`,
    hostility: 'Ostilità',
    nobody: 'nessuno',
    vote: 'Voto',
    noVote: 'nessun voto',
    problemsHeading: 'PROBLEMI',
    moreProblems: (n: number) => `  … e altri ${n} problemi`,
    notesHeading: 'NOTE',
    moreNotes: (n: number) => `  … e altre ${n} note`,
    damagedHeading: 'LA MAIL ERA DANNEGGIATA: letta fin dove possibile',
    normalisedHeading: 'CARATTERI SOSTITUITI',
    youAreChancellor: `Sei il Cancelliere: questo foglio è definitivo ed è stato inviato a tutti i giocatori (R-TURN-3).`,
    deadline: 'Scadenza',
    ordersStaySecret: 'Gli ordini restano segreti fino alla scadenza.',
    /** To the Chancellor, whose own orders have just gone to everyone (R-TURN-3). */
    othersStaySecret: 'Gli ordini degli altri giocatori restano segreti fino alla scadenza.',

    // R-TURN-3: the Chancellor's sheet, sent to every player.
    chancellorSubject: (game: string, chancellor: string, turn: number) =>
      `[SF ${game}] Dichiarazione del Cancelliere — ${chancellor}, turno ${turn}`,
    chancellorDeclared: (who: string, turn: number, gameName: string) =>
      `Il Cancelliere (${who}) ha dichiarato i suoi ordini per il turno ${turn} di "${gameName}" (R-TURN-3).`,
    chancellorOrders: 'Ordini (comprese le Truppe Imperiali):',
    noOrdersListed: '  nessuno',
    deadlineForOthers: 'Scadenza per tutti gli altri',

    // Refusals of a mail nobody could be matched to.
    unknownCode: `Non riconosco il codice di questa mail: nessun ordine è stato applicato. Usa l'indirizzo personale che trovi nella mail di benvenuto.\n`,
    missingCode: (game: string) =>
      `La mail per la partita ${game} non contiene il tuo codice: nessun ordine è stato applicato. Scrivi al tuo indirizzo personale, oppure aggiungi una riga "Code: <il tuo codice>".\n`,
    unknownGame: `Non conosco la partita indicata nell'oggetto: nessun ordine è stato applicato.\n`,
    noGame: `Non capisco per quale partita scrivi: nessun ordine è stato applicato. Scrivi al tuo indirizzo personale (lo trovi nella mail di benvenuto).\n`,

    // To the owner of a code someone else used.
    warningSubject: (game: string) => `[SF ${game}] Tentativo di usare il tuo codice`,
    /** In place of a sender's address that is another player's of the game (D-PRESS-38): never named. */
    fellowAddress: 'di un altro giocatore di questa partita (gli arbitri sanno chi è)',
    warningOnce: (at: string, sender: string, reach: string) =>
      `Attenzione: ${at} qualcuno ha scritto dall'indirizzo ${sender} usando il tuo codice personale. Non è stato applicato nulla. Se non eri tu, avvisa l'arbitro${reach}.\n`,
    warningSummary: (since: string, attempts: number, at: string, sender: string, reach: string) =>
      `Attenzione: da ${since} qualcuno ha provato ${attempts} volte a usare il tuo codice personale, l'ultima ${at} dall'indirizzo ${sender}. Non è stato applicato nulla. Se non eri tu, avvisa l'arbitro${reach}.\n`,

    // A mail not read as a sheet.
    tooLarge: (detail: string) => `la mail è troppo grande (${detail})`,
    broken: (detail: string) => `non riesco a leggere la mail (${detail})`,
    tooCostly: `leggerla richiedeva troppo tempo o troppa memoria, ed è stata messa da parte per l'arbitro`,
    noSheet: `nessuna riga della mail è un ordine, un'ostilità o un voto`,
    sendAsText: ` Rimanda i tuoi ordini come testo semplice nel corpo di una nuova mail.`,
    notReadAsSheet: (why: string, again: string) =>
      `Non ho letto questa mail come foglio d'ordini: ${why}. Il tuo foglio precedente resta valido.${again}\n`,

    // A sheet not accepted.
    late: (receivedAt: string, deadline: string) =>
      `Il tuo foglio è arrivato ${receivedAt}, dopo la scadenza (${deadline}): non è applicato (R-TURN-4).\n`,
    lateChancellor: (receivedAt: string, deadline: string) =>
      `Il tuo foglio è arrivato ${receivedAt}, dopo la scadenza della dichiarazione del Cancelliere (${deadline}): non è applicato (R-TURN-3).\n`,
    chancellorFinal: `Il foglio del Cancelliere è già stato accettato e pubblicato: non si può cambiare (R-TURN-3).\n`,
    notInPlay: `La tua fazione entra in gioco all'inizio del prossimo turno (R-SETUP-4): manda i tuoi ordini allora.\n`,
    gameNotActive: `Questa partita è finita: non prende più ordini, e nessun ordine è stato applicato. HELP e STATUS rispondono ancora.\n`,
    noOpenTurn: `Nessun turno è aperto in questo momento: nessun ordine è stato applicato.\n`,
    superseded: (receivedAt: string, standing: string) =>
      `Il tuo foglio arrivato ${receivedAt} è stato letto solo ora, ed è più vecchio del foglio che hai mandato ${standing}: resta valido quello più recente (R-TURN-4). Nessun ordine è cambiato.\n`,

    // ABSENCE (D-ABS-1).
    absenceUnread: `Non ho capito le date dell'assenza. Scrivi per esempio:\n\n    ASSENZA 2025-04-01 2025-04-10\n\noppure ASSENZA 1/4 10/4 (giorno/mese).\n`,
    /** An ABSENCE line written among orders: not recorded there. */
    absenceInSheet: (line: number, text: string) =>
      `Riga ${line}: un'assenza non si registra dentro un foglio d'ordini. Mandala da sola, in una mail al tuo indirizzo privato con questa sola riga: ${text}`,
    absenceRecorded: (fromDay: string, toDay: string) =>
      `Ho registrato la tua assenza dal ${fromDay} al ${toDay}. Se una scadenza cade in quei giorni si sposta alla fine dell'assenza, nei limiti della partita, e tutti i giocatori ricevono la nuova scadenza. Una scadenza non si sposta mai prima.\n`,

    // STATUS.
    stateNone: 'nessun foglio ricevuto',
    stateProblems: 'ricevuto con problemi',
    stateValid: 'valido',
    turn: 'turno',
    yourOrders: 'I tuoi ordini',
    /** STATUS once the game is over: in place of the deadline (R-WIN-1, R-WIN-2). */
    gameOver: 'La partita è finita: non si mandano più ordini. Il suo ultimo editto dice chi ha vinto.',
    currentSheet: 'Il tuo foglio attuale:',
    moreLines: (n: number) => `  … e altre ${n} righe`,

    // HELP.
    help:
      [
        "Come scrivere un foglio d'ordini (una riga per ordine):",
        '  H: Sith, Mercanti    le fazioni a cui sei ostile in questo turno',
        '  B2-C3                movimento in una casella adiacente (anche in diagonale)',
        '  B2=F6                iperspazio, da 1 a 4 caselle',
        '  N9#                  azione politica, da una casella della Capitale',
        '  V: Sith              in un turno di elezioni, il tuo voto',
        "  E: O10               se sei eletto e la Capitale è piena, l'unità che sostituisci",
        "Un'unità senza ordini resta ferma. Vale l'ultimo foglio inviato prima della scadenza.",
        'Scrivi STATUS per vedere la scadenza e il tuo foglio attuale.',
        'Scrivi ASSENZA 1/4 10/4 (giorno/mese) se sarai via: una scadenza che cade in quei giorni si sposta alla fine, nei limiti della partita.',
        'Ogni comando va da solo in una mail al tuo indirizzo privato.',
        '',
        'Diplomazia, anche nella stessa mail degli ordini:',
        '  STAMPA A Sith, Hutt   poi il testo, poi una riga FINE: un messaggio firmato a quelle fazioni',
        '  A TUTTI               a tutti i giocatori; STAMPA ANONIMA A …: senza il tuo nome, se la partita lo permette',
        "  STAMPA ALL'ARBITRO    agli arbitri, sempre",
        "  CONTESTA: motivo      contesti l'ultimo editto, entro il tempo indicato",
        'Per rispondere a un messaggio ricevuto basta "Rispondi" dal tuo indirizzo registrato.',
        'Da soli in una mail: SILENZIA Sith (o SILENZIA Sith, Hutt; o SILENZIA ANONIMI) e RIATTIVA Sith, per non ricevere più',
        'i messaggi di quelle fazioni e riaverli; RIEPILOGO, per riceverli in una mail al giorno; SUBITO, per riceverli di nuovo uno per uno.',
      ].join('\n') + '\n',
  },
  en: {
    linePrefix: (line) => `Line ${line}: `,
    received: (who, turn, gameName) => `Orders received: ${who}, turn ${turn} of "${gameName}".`,
    replaces: (at) => `This sheet replaces your sheet of ${at} entirely (R-TURN-4).`,
    firstSheet: `This is your first sheet for this turn.`,
    statusValid: `Status: valid, no problems.`,
    statusProblems: `Status: received with problems (see below). You may send a corrected sheet until the deadline.`,
    ordersHeading: 'ORDERS AS UNDERSTOOD',
    noOrders: '  no orders: every unit holds',
    notApplied: '(not applied: see the problems)',
    moreOrders: (n) => `  … and ${n} more orders`,
    hostility: 'Hostility',
    nobody: 'nobody',
    vote: 'Vote',
    noVote: 'no vote',
    problemsHeading: 'PROBLEMS',
    moreProblems: (n) => `  … and ${n} more problems`,
    notesHeading: 'NOTES',
    moreNotes: (n) => `  … and ${n} more notes`,
    damagedHeading: 'THE MAIL WAS DAMAGED: read as far as possible',
    normalisedHeading: 'CHARACTERS READ AS OTHERS',
    youAreChancellor: `You are the Chancellor: this sheet is final and has been sent to every player (R-TURN-3).`,
    deadline: 'Deadline',
    ordersStaySecret: 'Orders stay secret until the deadline.',
    othersStaySecret: "The other players' orders stay secret until the deadline.",

    chancellorSubject: (game, chancellor, turn) => `[SF ${game}] The Chancellor declares — ${chancellor}, turn ${turn}`,
    chancellorDeclared: (who, turn, gameName) =>
      `The Chancellor (${who}) has declared their orders for turn ${turn} of "${gameName}" (R-TURN-3).`,
    chancellorOrders: 'Orders (Imperial Troops included):',
    noOrdersListed: '  none',
    deadlineForOthers: 'Deadline for everyone else',

    unknownCode: `I do not recognise the code in this mail: no orders were applied. Use the private address from your welcome mail.\n`,
    missingCode: (game) =>
      `Your mail for game ${game} has no code: no orders were applied. Write to your private address, or add a line "Code: <your code>".\n`,
    unknownGame: `I do not know the game named in the subject: no orders were applied.\n`,
    noGame: `I cannot tell which game this mail is for: no orders were applied. Write to your private address (it is in your welcome mail).\n`,

    warningSubject: (game) => `[SF ${game}] Someone tried to use your code`,
    fellowAddress: "another player's address in this game (the referees know whose)",
    warningOnce: (at, sender, reach) =>
      `Warning: on ${at} someone wrote from ${sender} using your private code. Nothing was applied. If it was not you, tell the referee${reach}.\n`,
    warningSummary: (since, attempts, at, sender, reach) =>
      `Warning: since ${since} someone tried ${attempts} times to use your private code, the last on ${at} from ${sender}. Nothing was applied. If it was not you, tell the referee${reach}.\n`,

    tooLarge: (detail) => `the mail is too large (${detail})`,
    broken: (detail) => `I cannot read the mail (${detail})`,
    tooCostly: `reading it took too much time or memory, and it has been set aside for the referee`,
    noSheet: `no line of the mail is an order, a hostility or a vote`,
    sendAsText: ` Send your orders again as plain text in the body of a new mail.`,
    notReadAsSheet: (why, again) => `I did not read this mail as an order sheet: ${why}. Your earlier sheet still stands.${again}\n`,

    late: (receivedAt, deadline) =>
      `Your sheet arrived on ${receivedAt}, after the deadline (${deadline}): it is not applied (R-TURN-4).\n`,
    lateChancellor: (receivedAt, deadline) =>
      `Your sheet arrived on ${receivedAt}, after the Chancellor's declaration deadline (${deadline}): it is not applied (R-TURN-3).\n`,
    chancellorFinal: `The Chancellor's sheet was already accepted and published: it cannot be changed (R-TURN-3).\n`,
    notInPlay: `Your faction enters play at the start of the next turn (R-SETUP-4): send your orders then.\n`,
    gameNotActive: `This game is over: it takes no more orders, and no orders were applied. HELP and STATUS still answer.\n`,
    noOpenTurn: `No turn is open right now: no orders were applied.\n`,
    superseded: (receivedAt, standing) =>
      `Your sheet that arrived on ${receivedAt} was only read now, and it is older than the sheet you sent on ${standing}: the newer one stands (R-TURN-4). No orders were changed.\n`,

    absenceUnread: `I could not read the dates of the absence. Write for example:\n\n    ABSENCE 2025-04-01 2025-04-10\n\nor ABSENCE 1/4 10/4 (day/month).\n`,
    absenceInSheet: (line, text) =>
      `Line ${line}: an absence is not recorded inside an order sheet. Send it alone, in a mail to your private address with only this line: ${text}`,
    absenceRecorded: (fromDay, toDay) =>
      `Your absence from ${fromDay} to ${toDay} is recorded. A deadline that falls on those days moves to the end of the absence, within the game's limits, and every player is told the new deadline. A deadline never moves earlier.\n`,

    stateNone: 'no sheet received',
    stateProblems: 'received with problems',
    stateValid: 'valid',
    turn: 'turn',
    yourOrders: 'Your orders',
    gameOver: 'The game is over: no more orders are taken. Its last edict says who has won.',
    currentSheet: 'Your current sheet:',
    moreLines: (n) => `  … and ${n} more lines`,

    help:
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
        "Send ABSENCE 1/4 10/4 (day/month) if you will be away: a deadline that falls on those days moves to their end, within the game's limits.",
        'Each command goes alone in a mail to your private address.',
        '',
        'Diplomacy, also in the same mail as your orders:',
        '  PRESS TO Sith, Hutt   then the text, then a line ENDPRESS: a signed message to those factions',
        '  BROADCAST             to every player; PRESS ANONYMOUS TO …: without your name, when the game allows it',
        '  PRESS TO REFEREE      to the referees, always',
        '  DISPUTE: reason       you dispute the latest edict, within the time it gives',
        'To answer a message you received just press Reply, from your registered address.',
        "Alone in a mail: MUTE Sith (or MUTE Sith, Hutt; or MUTE ANONYMOUS) and UNMUTE Sith, to stop those factions' messages and have them back;",
        'DIGEST, to get them in one mail a day; IMMEDIATE, to get each one at once again.',
      ].join('\n') + '\n',
  },
});

/**
 * A problem as the reply lists it: always with its line (MAIL.md, D-MAIL-14). The parser's
 * messages carry `Riga n:` already; the engine's order messages name only the order.
 */
export function problemLine(p: Problem, lang: Lang): string {
  const m = p.message[lang];
  const prefix = replyTexts[lang].linePrefix(p.line);
  return p.line > 0 && !m.startsWith(prefix) ? prefix + m : m;
}
