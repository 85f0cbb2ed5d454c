// The words of press and disputes (docs/press.md): the relayed message, the writer's
// acknowledgement, every refusal and every problem of src/games/press, the disputes' mails.
// Plain text: players read it on phones. What a player wrote is inserted as data, never
// translated (D-PRESS-19). Names of factions, times and lists come in already written in the
// reader's language (the caller has the board and the reader's zone).
import { defineTexts, mail, type MailText } from './define.ts';

export interface RelayValues {
  game: string;
  gameName: string;
  /** The writer's faction, or null for an anonymous message. */
  from: string | null;
  /** Who it went to, as the reader reads it ("te e i Sith", "tutti"), written by `audience`. */
  to: string;
  text: string;
  /** Where a plain Reply goes: the other participants, as `audience` writes them. */
  replyGoesTo: string;
  turn: number;
  /**
   * Who reads it: a player; the hidden writer of the anonymous message it answers (told that a
   * reply keeps them anonymous, D-PRESS-10); or a referee, whose footer is their own (D-PRESS-4);
   * or a player reading a referee's answer, whose Reply goes back to the referees (nothing to REPORT).
   */
  reader?: 'player' | 'hidden-writer' | 'referee' | 'from-referee';
}

/** A message to everyone as an observer reads it (D-PRESS-10: `from` is null when anonymous). */
export interface ObserverBroadcastValues {
  game: string;
  gameName: string;
  from: string | null;
  text: string;
  turn: number;
  unsubscribe: string;
}

export interface DisputeValues {
  game: string;
  gameName: string;
  faction: string;
  turn: number;
  version: number;
  reason: string;
  edictUrl: string;
  consoleUrl: string;
}

/** A reported message as the referees read it: its writer named, anonymous or not (D-PRESS-10). */
export interface ReportValues {
  game: string;
  gameName: string;
  messageId: number;
  turn: number;
  reporter: string;
  writer: string;
  sign: 'signed' | 'anonymous';
  to: string;
  reason: string;
  text: string;
  consoleUrl: string;
}

/** One message of a digest, as its reader reads it (names in their language, "you" for them). */
export interface DigestEntry {
  /** The writer's faction, "Referee", or null when anonymous. */
  from: string | null;
  to: string;
  turn: number;
  text: string;
  /** The reader's reply address in this message's conversation (their press token). */
  replyAddress: string;
}

export interface DigestValues {
  game: string;
  gameName: string;
  /** Up to when the digest carries what arrived, in the reader's zone. */
  until: string;
  entries: DigestEntry[];
  /** Messages from writers the reader muted since their last digest (D-PRESS-11). */
  muted: number;
  /** The reader's private address (the digest's Reply-To): where IMMEDIATE goes. */
  privateAddress: string;
}

/** What a press command did, and where the player's choices stand now (the answer to MUTE, DIGEST…). */
export interface PressChoicesValues {
  /** What this mail did, in the reader's words; null when it changed nothing. */
  done: string | null;
  /** Muted factions, in the reader's language; `anonymous`: every anonymous message is muted. */
  muted: string[];
  anonymous: boolean;
  delivery: 'digest' | 'immediate';
  /** The player's time zone, for the digest's 07:00. */
  timeZone: string;
  /** Whether the game sends reminders before its deadline (the digest's second slot). */
  reminders: boolean;
}

/** `a`, `a e b`, `a, b e c`: a list as a sentence reads it. */
const sentence =
  (and: string) =>
  (items: readonly string[]): string =>
    items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;

/**
 * Italian `a` before a name, a phrase or a list of them: articulated with its article (`a` +
 * `gli arbitri` → `agli arbitri`, `a` + `la conversazione` → `alla conversazione`, `a` + `gli Hutt e
 * i Sith` → `agli Hutt e ai Sith`), `ad` before another `a`;
 * the hidden writer, named "anonimo", as a person: `all'anonimo`.
 */
export function italianA(x: string): string {
  // A list ("gli Hutt e i Sith", "te, i Sith e anonimo"): each item takes its own preposition.
  const items = x.split(/(, | e )/);
  if (items.length > 1) return items.map((item, k) => (k % 2 ? item : italianA1(item))).join('');
  return italianA1(x);
}

function italianA1(x: string): string {
  const articled = /^(il|lo|la|i|gli|le) (.*)$/s.exec(x);
  if (articled) return `${{ il: 'al', lo: 'allo', la: 'alla', i: 'ai', gli: 'agli', le: 'alle' }[articled[1]!]} ${articled[2]}`;
  if (/^l['’]/.test(x)) return `all${x.slice(1)}`;
  if (/^anonimo(?![\p{L}])/u.test(x)) return `all'${x}`;
  return /^[aA]/.test(x) ? `ad ${x}` : `a ${x}`;
}

/**
 * Italian `di` before a name or a list of them, articulated as `italianA` does (`di` + `i Sith e gli
 * Hutt` → `dei Sith e degli Hutt`); `d'` before a vowel when there is no article.
 */
export function italianDi(x: string): string {
  const items = x.split(/(, | e )/);
  return items.map((item, k) => (k % 2 ? item : italianDi1(item))).join('');
}

function italianDi1(x: string): string {
  const articled = /^(il|lo|la|i|gli|le) (.*)$/s.exec(x);
  if (articled) return `${{ il: 'del', lo: 'dello', la: 'della', i: 'dei', gli: 'degli', le: 'delle' }[articled[1]!]} ${articled[2]}`;
  if (/^l['’]/.test(x)) return `dell${x.slice(1)}`;
  return /^[aeiouAEIOU]/.test(x) ? `d'${x}` : `di ${x}`;
}

/**
 * A player's text as others read it below the head we write (who wrote it, to whom): every line
 * behind a bar, so that no line of it can pass for a head of ours — a message that goes on with
 * `Game "…", turn 3` / `From: Hutt` shows them as its own words (D-PRESS-40). Every break a
 * client may show as a new line starts a framed line.
 */
export const framed = (text: string): string =>
  text
    .split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/)
    .map((l) => (l ? `| ${l}` : '|'))
    .join('\n');

/** A reporter's reason after its label: on the label's line when it is one line, else framed below it. */
const afterLabel = (reason: string): string => (/[\n\r\v\f\u0085\u2028\u2029]/.test(reason) ? `\n${framed(reason)}` : ` ${reason}`);

/** The relayed text quoted in its writer's acknowledgement, whole (docs/press.md §4.7). */
const quoted = (text: string): string =>
  text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');

export const pressTexts = defineTexts({
  it: {
    list: sentence('e'),
    you: 'te',
    everyone: 'tutti',
    referees: 'gli arbitri',
    referee: 'Arbitro',
    anonymous: 'Anonimo',
    /** The hidden writer of an anonymous conversation, as a Reply's addressee. */
    anonymousWriter: 'anonimo',

    relaySubject: (v: { game: string; from: string | null; to: string }) => `[SF ${v.game}] ${v.from ?? 'Anonimo'} → ${v.to}`,
    relay: (v: RelayValues): MailText =>
      mail(
        `[SF ${v.game}] ${v.from ?? 'Anonimo'} → ${v.to}`,
        `
Partita "${v.gameName}", turno ${v.turn}
Da: ${v.from ?? 'anonimo'}
A: ${v.to}
${v.reader === 'hidden-writer' ? '\nÈ una risposta al tuo messaggio anonimo: se rispondi a questa mail resti anonimo.\n' : ''}

${framed(v.text)}

—
${
  v.reader === 'referee'
    ? `Rispondi a questa mail per rispondere ${italianA(v.replyGoesTo)}: la risposta va solo a questo giocatore, firmata "Arbitro".`
    : v.reader === 'from-referee'
      ? `Rispondi a questa mail per rispondere ${italianA(v.replyGoesTo)} (solo dal tuo indirizzo registrato).`
      : `Rispondi a questa mail per scrivere ${italianA(v.replyGoesTo)} (solo dal tuo indirizzo registrato).
Per scrivere a qualcuno da solo, manda un nuovo messaggio al tuo indirizzo personale:
STAMPA A <fazione> … FINE. Per segnalare questo messaggio agli arbitri rispondi con SEGNALA.`
}
`,
      ),

    /** A message to everyone as an observer receives it: no reply address, an unsubscribe link (docs/press.md §4.3). */
    observerBroadcast: (v: ObserverBroadcastValues): MailText =>
      mail(
        `[SF ${v.game}] ${v.from ?? 'Anonimo'} → tutti`,
        `
Partita "${v.gameName}", turno ${v.turn}
Da: ${v.from ?? 'anonimo'}
A: tutti


${framed(v.text)}

—
Ricevi i messaggi a tutti di questa partita come osservatore: non puoi rispondere,
una risposta a questa mail non arriva a nessun giocatore.
Per non ricevere più mail di questa partita: ${v.unsubscribe}
`,
      ),

    // A reply by token (docs/press.md §4.6).
    replySent: (to: string, anonymous: boolean, text: string) =>
      `La tua risposta è stata inviata ${italianA(to)}, ${anonymous ? 'anonima' : 'firmata'}:\n\n${quoted(text)}`,
    replyNotSent: (why: string) => `La tua risposta non è stata inviata: ${why}`,
    conversation: 'la conversazione',
    replyEmpty: 'la risposta è vuota (il testo citato della mail a cui rispondi non conta).',
    replyNothingToAnswer: 'in questa conversazione non ti è arrivato ancora nessun messaggio.',
    // A reply address used from an address not the owner's (D-PRESS-9): named by its conversation, not the code.
    forgedReplySubject: (game: string, conversation: string) =>
      `[SF ${game}] Qualcuno ha scritto nella tua conversazione con ${conversation}`,
    /** `sender` null: the address is another player's of this game, never named (D-PRESS-38). */
    forgedReply: (at: string, sender: string | null, conversation: string, reach: string) =>
      `Attenzione: ${at} qualcuno ha scritto ${sender === null ? "dall'indirizzo di un altro giocatore di questa partita (gli arbitri sanno chi è)" : `dall'indirizzo ${sender}`} all'indirizzo di risposta della tua conversazione con ${conversation}. Non è stato inoltrato nulla: il tuo codice personale non è stato usato. Se non eri tu, avvisa l'arbitro${reach}.\n`,
    /** To a player of the game who answered a relay that reached another player (D-PRESS-38). */
    replyNotYours:
      'Questo indirizzo di risposta è di una conversazione di un altro giocatore, non tua: non è stato inoltrato nulla. Per rispondere in una tua conversazione, rispondi a una mail che è arrivata a te.\n',
    reportTaken: (kept: boolean) =>
      kept
        ? 'La tua segnalazione è registrata: la partita non ha ancora un arbitro, il primo assegnato la leggerà. Chi ha scritto il messaggio non ne sa nulla.'
        : 'La tua segnalazione è arrivata agli arbitri. Chi ha scritto il messaggio non ne sa nulla.',
    reportAgain: 'Avevi già segnalato questo messaggio: la segnalazione resta quella.',

    // The acknowledgement: one line per block.
    ackHeading: 'MESSAGGI',
    sent: (first: number, last: number, to: string, anonymous: boolean, text: string) =>
      `${first === last ? `Riga ${first}` : `Righe ${first}–${last}`}: inviato ${italianA(to)}, ${anonymous ? 'anonimo' : 'firmato'}:\n${quoted(text)}`,
    sentDelayed: 'I messaggi anonimi partono dopo qualche minuto, a caso: così l’ora di arrivo non dice chi li ha scritti.',
    anonymousReminder: 'Il testo è inoltrato esattamente come lo hai scritto: se contiene il tuo nome, chi lo riceve lo legge.',
    noRefereeYet: 'La partita non ha ancora un arbitro: il messaggio è conservato e lo leggerà il primo arbitro assegnato.',
    signedAnyway: 'Ai messaggi agli arbitri il nome è sempre indicato: è stato inviato firmato.',
    notSent: (line: number, why: string) => `Riga ${line}: non inviato: ${why}`,
    noSheetWithPress: 'La mail non contiene ordini: il tuo foglio di ordini precedente resta valido.',
    noSheetYet: (turn: number) => `La mail non contiene ordini: per il turno ${turn} non ne hai ancora mandati.`,
    attachmentsDropped: 'Gli allegati non vengono inoltrati; una mail in HTML è inoltrata come testo.',
    /** docs/press.md §1: a mail with no text part, its press read from its HTML. */
    htmlAsText: 'La tua mail era solo in HTML: se ne inoltra il testo, senza formattazione né immagini.',

    refusal: {
      gameOver: 'la partita è finita.',
      pressOff: 'in questa partita non ci sono messaggi tra giocatori (agli arbitri si può sempre scrivere: STAMPA ALL’ARBITRO).',
      anonymousNotAllowed: 'in questa partita i messaggi sono solo firmati: togli ANONIMO.',
      signedNotAllowed: 'in questa partita i messaggi sono solo anonimi: togli FIRMATO.',
      privateNotAllowed: 'in questa partita si scrive solo a tutti: A TUTTI … FINE.',
      pressClosed: (since: string, turn: number) => `i messaggi sono chiusi da ${since}; riaprono con il turno ${turn}.`,
      /** `factions` each with its article (`i Mercanti`): after "non inviato:", one sentence. */
      notInPlay: (factions: string) => `nessuno gioca con ${factions}.`,
      onlyYourself: 'il messaggio nomina solo la tua fazione.',
      tooLong: (chars: number, max: number) => `è lungo ${chars} caratteri, al massimo ${max}: non è stato inviato né tagliato.`,
      tooMany: (max: number, nextAt: string) => `hai già mandato ${max} messaggi nell’ultima ora; il prossimo da ${nextAt}.`,
    },

    // The reader's problems (src/games/press/read-press.ts), with how to write it.
    problem: {
      unknownKeyword: (words: string) =>
        `non capisco "${words}": scrivi STAMPA A <fazioni>, A TUTTI o STAMPA ALL’ARBITRO, con ANONIMO se vuoi. Il testo sotto non è stato inviato né letto come ordini.`,
      unknownFaction: (name: string) => `"${name}" non è una fazione: il messaggio non è partito.`,
      noAudience: 'manca a chi scrivere: STAMPA A Sith, Hutt.',
      mixedAudience: 'un messaggio va o ad alcune fazioni, o a tutti, o agli arbitri: scrivine uno per ciascuno.',
      bothSigns: 'FIRMATO e ANONIMO insieme: scegline uno.',
      empty: 'il messaggio è vuoto.',
      unterminated:
        'il messaggio non finisce con FINE e sotto ci sono righe che sembrano ordini: non ho inviato nulla né letto quelle righe come ordini. Chiudi il messaggio con FINE e manda di nuovo.',
      strayEnd: 'FINE senza un messaggio aperto: la prima riga di un messaggio è come STAMPA A Sith.',
      tooManyBlocks: (max: number) => `una mail porta al massimo ${max} messaggi: il resto non è stato letto.`,
      tooManyProblems: 'e altri problemi.',
    },

    // MUTE / UNMUTE / DIGEST / IMMEDIATE (docs/press.md §1, D-PRESS-11).
    anonymousMessages: 'i messaggi anonimi',
    /** `who`: the factions with their articles (`i Sith e gli Hutt`). */
    muted: (who: string) => `Da ora i messaggi ${italianDi(who)} non ti arrivano: restano conservati, e chi li scrive non lo sa.`,
    mutedAnonymous: 'Da ora i messaggi anonimi non ti arrivano: restano conservati, e chi li scrive non lo sa.',
    unmuted: (who: string) => `Da ora i messaggi ${italianDi(who)} ti arrivano di nuovo.`,
    unmutedAnonymous: 'Da ora i messaggi anonimi ti arrivano di nuovo.',
    notMuted: (who: string) => `Non avevi silenziato ${who}: non cambia nulla.`,
    nowDigest: 'Da ora i messaggi ti arrivano in un riepilogo al giorno.',
    nowImmediate: 'Da ora ricevi ogni messaggio subito, in una mail. Quelli già in attesa arrivano nel prossimo riepilogo.',
    unknownMuteTarget: (text: string) =>
      `Non capisco "${text}": non è una fazione di questa partita: non cambia nulla. Scrivi SILENZIA e le fazioni (SILENZIA Sith, Hutt) o SILENZIA ANONIMI, da solo in una mail.`,
    refereesNotMuted: 'Gli arbitri non si possono silenziare: i loro messaggi arrivano sempre, subito.',
    pressChoices: (v: PressChoicesValues) =>
      [
        ...(v.done ? [v.done, ''] : []),
        v.muted.length || v.anonymous
          ? `Hai silenziato: ${sentence('e')([...v.muted, ...(v.anonymous ? ['i messaggi anonimi'] : [])])}.`
          : 'Non hai silenziato nessuno.',
        v.delivery === 'digest'
          ? `Il tuo riepilogo arriva ogni giorno alle 7 (${v.timeZone})${v.reminders ? ', e prima dell’ultimo promemoria della scadenza' : ''}.`
          : 'Ricevi ogni messaggio subito, in una mail.',
        '',
        'Comandi (da soli in una mail al tuo indirizzo personale): SILENZIA <fazioni> (SILENZIA Sith, Hutt), SILENZIA ANONIMI, RIATTIVA <fazioni>, RIEPILOGO, SUBITO.',
      ].join('\n'),
    digest: (v: DigestValues): MailText =>
      mail(
        `[SF ${v.game}] Riepilogo dei messaggi (${v.entries.length})`,
        `
Partita "${v.gameName}": i messaggi arrivati per te fino a ${v.until}.
${v.entries
  .map(
    (e, i) => `
——— ${i + 1}. Da: ${e.from ?? 'anonimo'} — A: ${e.to} — turno ${e.turn}

${framed(e.text)}

Per rispondere a questa conversazione scrivi a: ${e.replyAddress}
`,
  )
  .join('')}${
          v.muted
            ? `
${v.muted === 1 ? '1 messaggio di chi hai silenziato non ti è stato consegnato.' : `${v.muted} messaggi di chi hai silenziato non ti sono stati consegnati.`}
`
            : ''
        }
—
Rispondi solo dal tuo indirizzo registrato: da un altro la risposta non viene inoltrata.
Ricevi i messaggi in un riepilogo al giorno. Per riceverli uno per uno, subito, rispondi a questa
mail con SUBITO da solo (va al tuo indirizzo personale, ${v.privateAddress}).
`,
      ),

    // Disputes (R-TURN-2 step 5).
    disputeHeading: 'CONTESTAZIONI',
    disputeLine: (line: number, what: string) => `Riga ${line}: ${what}`,
    // A dispute's line reads as a message's: "Riga 1: contestazione … inviata" or "… non presa: <why>".
    disputeTaken: (turn: number) => `contestazione dell'editto del turno ${turn} inviata agli arbitri. Ti diremo come la risolvono.`,
    disputeNotTaken: (why: string) => `contestazione non presa: ${why}`,
    disputeRefusal: {
      noEdict: 'non c’è ancora un editto da contestare.',
      windowClosed: (turn: number, endedAt: string) => `il tempo per contestare l’editto del turno ${turn} è finito ${endedAt}.`,
      edictFinal: (turn: number) => `il turno dopo il ${turn} è già chiuso: quell’editto non si può più correggere.`,
      tooMany: (max: number) => `hai già mandato ${max} contestazioni per questo turno.`,
      tooLong: (chars: number, max: number) => `è lunga ${chars} caratteri, al massimo ${max}.`,
    },
    disputeToReferee: (v: DisputeValues): MailText =>
      mail(
        `[SF ${v.game}] Contestazione: ${v.faction}, turno ${v.turn}`,
        `
Contestazione dell'editto del turno ${v.turn} (versione ${v.version}) di "${v.gameName}".
Da: ${v.faction}


${framed(v.reason)}

Editto: ${v.edictUrl}
Console: ${v.consoleUrl}
`,
      ),
    reportToReferee: (v: ReportValues): MailText =>
      mail(
        `[SF ${v.game}] Segnalazione: messaggio #${v.messageId}, turno ${v.turn}`,
        `
${v.reporter} ha segnalato un messaggio di "${v.gameName}" (#${v.messageId}, turno ${v.turn}).
Scritto da: ${v.writer} (${v.sign === 'anonymous' ? 'anonimo' : 'firmato'})
A: ${v.to}
Motivo:${afterLabel(v.reason)}


${framed(v.text)}

Console: ${v.consoleUrl}
`,
      ),
    disputeRejected: (v: { game: string; turn: number; reason: string }): MailText =>
      mail(
        `[SF ${v.game}] Contestazione respinta, turno ${v.turn}`,
        `
L'arbitro ha respinto la tua contestazione dell'editto del turno ${v.turn}: l'editto resta com'è.

Motivo: ${v.reason}
`,
      ),
    disputeAmended: (v: { game: string; turn: number; version: number }): MailText =>
      mail(
        `[SF ${v.game}] Contestazione accolta, turno ${v.turn}`,
        `
L'arbitro ha corretto l'editto del turno ${v.turn} dopo la tua contestazione: la versione ${v.version}
è stata inviata a tutti i giocatori.
`,
      ),
    disputeLapsed: (v: { game: string; turn: number }): MailText =>
      mail(
        `[SF ${v.game}] Contestazione non risolta, turno ${v.turn}`,
        `
Il turno dopo il ${v.turn} si è chiuso prima che l'arbitro risolvesse la tua contestazione: l'editto
del turno ${v.turn} resta com'è.
`,
      ),
  },
  en: {
    list: sentence('and'),
    you: 'you',
    everyone: 'everyone',
    referees: 'the referees',
    referee: 'Referee',
    anonymous: 'Anonymous',
    anonymousWriter: 'the anonymous writer',

    relaySubject: (v: { game: string; from: string | null; to: string }) => `[SF ${v.game}] ${v.from ?? 'Anonymous'} → ${v.to}`,
    relay: (v: RelayValues): MailText =>
      mail(
        `[SF ${v.game}] ${v.from ?? 'Anonymous'} → ${v.to}`,
        `
Game "${v.gameName}", turn ${v.turn}
From: ${v.from ?? 'anonymous'}
To: ${v.to}
${v.reader === 'hidden-writer' ? '\nThis answers your anonymous message: if you reply to this mail, you stay anonymous.\n' : ''}

${framed(v.text)}

—
${
  v.reader === 'referee'
    ? `Reply to this mail to answer ${v.replyGoesTo}: your answer goes to this player only, signed "Referee".`
    : v.reader === 'from-referee'
      ? `Reply to this mail to answer ${v.replyGoesTo} (from your registered address only).`
      : `Reply to this mail to write to ${v.replyGoesTo} (from your registered address only).
To write to someone alone, send a new message to your private address:
PRESS TO <faction> … ENDPRESS. To report this message to the referees, reply with REPORT.`
}
`,
      ),

    observerBroadcast: (v: ObserverBroadcastValues): MailText =>
      mail(
        `[SF ${v.game}] ${v.from ?? 'Anonymous'} → everyone`,
        `
Game "${v.gameName}", turn ${v.turn}
From: ${v.from ?? 'anonymous'}
To: everyone


${framed(v.text)}

—
You receive this game's messages to everyone as an observer: you cannot reply,
a reply to this mail reaches no player.
To stop receiving mail about this game: ${v.unsubscribe}
`,
      ),

    replySent: (to: string, anonymous: boolean, text: string) =>
      `Your reply was sent to ${to}, ${anonymous ? 'anonymous' : 'signed'}:\n\n${quoted(text)}`,
    replyNotSent: (why: string) => `Your reply was not sent: ${why}`,
    conversation: 'the conversation',
    replyEmpty: 'the reply is empty (the quoted text of the mail you answer does not count).',
    replyNothingToAnswer: 'no message has reached you in this conversation yet.',
    forgedReplySubject: (game: string, conversation: string) => `[SF ${game}] Someone wrote in your conversation with ${conversation}`,
    forgedReply: (at: string, sender: string | null, conversation: string, reach: string) =>
      `Warning: on ${at} someone wrote from ${sender === null ? "another player's address in this game (the referees know whose)" : sender} to the reply address of your conversation with ${conversation}. Nothing was relayed, and your private code was not used. If it was not you, tell the referee${reach}.\n`,
    replyNotYours:
      'This reply address belongs to a conversation of another player, not yours: nothing was relayed. To reply in a conversation of your own, answer a mail that reached you.\n',
    reportTaken: (kept: boolean) =>
      kept
        ? 'Your report is recorded: this game has no referee yet, the first one assigned will read it. The writer is not told.'
        : 'Your report has reached the referees. The writer is not told.',
    reportAgain: 'You had reported this message already: your report stands.',

    ackHeading: 'MESSAGES',
    sent: (first: number, last: number, to: string, anonymous: boolean, text: string) =>
      `${first === last ? `Line ${first}` : `Lines ${first}–${last}`}: sent to ${to}, ${anonymous ? 'anonymous' : 'signed'}:\n${quoted(text)}`,
    sentDelayed: 'Anonymous messages leave after a few minutes, at random, so that their arrival time does not tell who wrote them.',
    anonymousReminder: 'The text is relayed exactly as you wrote it: if it names you, its readers will know.',
    noRefereeYet: 'This game has no referee yet: the message is kept, and the first referee assigned will read it.',
    signedAnyway: 'Messages to the referees always show who wrote them: it was sent signed.',
    notSent: (line: number, why: string) => `Line ${line}: not sent: ${why}`,
    noSheetWithPress: 'This mail holds no orders: your earlier order sheet stands.',
    noSheetYet: (turn: number) => `This mail holds no orders: you have not sent orders for turn ${turn} yet.`,
    attachmentsDropped: 'Attachments are not relayed; an HTML mail is relayed as its text.',
    htmlAsText: 'Your mail was in HTML only: what is relayed of it is its text, without formatting or pictures.',

    refusal: {
      gameOver: 'the game is over.',
      pressOff: 'this game has no messages between players (you can always write to the referees: PRESS TO REFEREE).',
      anonymousNotAllowed: 'this game takes signed messages only: remove ANONYMOUS.',
      signedNotAllowed: 'this game takes anonymous messages only: remove SIGNED.',
      privateNotAllowed: 'in this game messages go to everyone only: BROADCAST … ENDPRESS.',
      pressClosed: (since: string, turn: number) => `messages are closed since ${since}; they open again with turn ${turn}.`,
      notInPlay: (factions: string) => `nobody plays ${factions}.`,
      onlyYourself: 'the message names only your own faction.',
      tooLong: (chars: number, max: number) => `it is ${chars} characters long, at most ${max}: it was neither sent nor cut.`,
      tooMany: (max: number, nextAt: string) => `you have sent ${max} messages in the last hour; the next one from ${nextAt}.`,
    },

    problem: {
      unknownKeyword: (words: string) =>
        `I do not understand "${words}": write PRESS TO <factions>, BROADCAST or PRESS TO REFEREE, with ANONYMOUS if you wish. The text below was neither sent nor read as orders.`,
      unknownFaction: (name: string) => `"${name}" is no faction: the message was not sent.`,
      noAudience: 'it does not say to whom: PRESS TO Sith, Hutt.',
      mixedAudience: 'a message goes to some factions, or to everyone, or to the referees: write one for each.',
      bothSigns: 'SIGNED and ANONYMOUS together: choose one.',
      empty: 'the message is empty.',
      unterminated:
        'the message does not end with ENDPRESS and lines below it look like orders: nothing was sent, and those lines were not read as orders. End the message with ENDPRESS and send it again.',
      strayEnd: 'ENDPRESS with no message open: a message starts with a line like PRESS TO Sith.',
      tooManyBlocks: (max: number) => `a mail carries at most ${max} messages: the rest was not read.`,
      tooManyProblems: 'and more problems.',
    },

    anonymousMessages: 'anonymous messages',
    muted: (who: string) => `From now on messages from ${who} do not reach you: they are kept, and their writers are not told.`,
    mutedAnonymous: 'From now on anonymous messages do not reach you: they are kept, and their writers are not told.',
    unmuted: (who: string) => `From now on messages from ${who} reach you again.`,
    unmutedAnonymous: 'From now on anonymous messages reach you again.',
    notMuted: (who: string) => `You had not muted ${who}: nothing changes.`,
    nowDigest: 'From now on your messages come in one digest a day.',
    nowImmediate: 'From now on you get each message at once, in a mail of its own. Those already waiting come in the next digest.',
    unknownMuteTarget: (text: string) =>
      `I do not understand "${text}": it is no faction of this game: nothing changes. Write MUTE and the factions (MUTE Sith, Hutt) or MUTE ANONYMOUS, alone in a mail.`,
    refereesNotMuted: 'Referees cannot be muted: their messages always reach you, at once.',
    pressChoices: (v: PressChoicesValues) =>
      [
        ...(v.done ? [v.done, ''] : []),
        v.muted.length || v.anonymous
          ? `You have muted: ${sentence('and')([...v.muted, ...(v.anonymous ? ['anonymous messages'] : [])])}.`
          : 'You have muted nobody.',
        v.delivery === 'digest'
          ? `Your digest comes every day at 07:00 (${v.timeZone})${v.reminders ? ', and before the deadline’s last reminder' : ''}.`
          : 'You get each message at once, in a mail of its own.',
        '',
        'Commands (alone in a mail to your private address): MUTE <factions> (MUTE Sith, Hutt), MUTE ANONYMOUS, UNMUTE <factions>, DIGEST, IMMEDIATE.',
      ].join('\n'),
    digest: (v: DigestValues): MailText =>
      mail(
        `[SF ${v.game}] Press digest (${v.entries.length})`,
        `
Game "${v.gameName}": the messages that came for you until ${v.until}.
${v.entries
  .map(
    (e, i) => `
——— ${i + 1}. From: ${e.from ?? 'anonymous'} — To: ${e.to} — turn ${e.turn}

${framed(e.text)}

To reply in this conversation write to: ${e.replyAddress}
`,
  )
  .join('')}${
          v.muted
            ? `
${v.muted === 1 ? '1 message from writers you muted was not delivered.' : `${v.muted} messages from writers you muted were not delivered.`}
`
            : ''
        }
—
Reply only from your registered address: a reply from any other is not relayed.
You get messages in one digest a day. To get each one at once, reply to this mail with IMMEDIATE
alone (it goes to your private address, ${v.privateAddress}).
`,
      ),

    disputeHeading: 'DISPUTES',
    disputeLine: (line: number, what: string) => `Line ${line}: ${what}`,
    disputeTaken: (turn: number) => `dispute of the edict of turn ${turn} sent to the referees. You will be told how they settle it.`,
    disputeNotTaken: (why: string) => `dispute not taken: ${why}`,
    disputeRefusal: {
      noEdict: 'there is no edict to dispute yet.',
      windowClosed: (turn: number, endedAt: string) => `the time to dispute the edict of turn ${turn} ended on ${endedAt}.`,
      edictFinal: (turn: number) => `the turn after turn ${turn} has closed: that edict can no longer be corrected.`,
      tooMany: (max: number) => `you have already sent ${max} disputes for this turn.`,
      tooLong: (chars: number, max: number) => `it is ${chars} characters long, at most ${max}.`,
    },
    disputeToReferee: (v: DisputeValues): MailText =>
      mail(
        `[SF ${v.game}] Dispute: ${v.faction}, turn ${v.turn}`,
        `
A dispute of the edict of turn ${v.turn} (version ${v.version}) of "${v.gameName}".
From: ${v.faction}


${framed(v.reason)}

Edict: ${v.edictUrl}
Console: ${v.consoleUrl}
`,
      ),
    reportToReferee: (v: ReportValues): MailText =>
      mail(
        `[SF ${v.game}] Report: message #${v.messageId}, turn ${v.turn}`,
        `
${v.reporter} reported a message of "${v.gameName}" (#${v.messageId}, turn ${v.turn}).
Written by: ${v.writer} (${v.sign})
To: ${v.to}
Reason:${afterLabel(v.reason)}


${framed(v.text)}

Console: ${v.consoleUrl}
`,
      ),
    disputeRejected: (v: { game: string; turn: number; reason: string }): MailText =>
      mail(
        `[SF ${v.game}] Dispute rejected, turn ${v.turn}`,
        `
The referee has rejected your dispute of the edict of turn ${v.turn}: the edict stands.

Reason: ${v.reason}
`,
      ),
    disputeAmended: (v: { game: string; turn: number; version: number }): MailText =>
      mail(
        `[SF ${v.game}] Dispute upheld, turn ${v.turn}`,
        `
The referee has corrected the edict of turn ${v.turn} after your dispute: version ${v.version}
has been sent to every player.
`,
      ),
    disputeLapsed: (v: { game: string; turn: number }): MailText =>
      mail(
        `[SF ${v.game}] Dispute not settled, turn ${v.turn}`,
        `
The turn after turn ${v.turn} closed before the referee settled your dispute: the edict of turn
${v.turn} stands.
`,
      ),
  },
});
