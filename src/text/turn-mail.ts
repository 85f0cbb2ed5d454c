// The mail of a turn's life before its edict: reminders, the grace period, early processing, the
// Chancellor's missed declaration, a deadline moved by an absence.
import { defineTexts, mail, type MailText } from './define.ts';

interface TurnValues {
  game: string;
  gameName: string;
  turn: number;
}

/** What a reminder says of the game's last turn (R-WIN-2, as refereeTexts.lengthChanged words it). */
const LAST_TURN = {
  it: "È l'ultimo turno della partita: alla sua fine, se nessuno ha già vinto, vince la fazione che controlla più pianeti; a pari merito la vittoria è condivisa (R-WIN-2).",
  en: "This is the game's last turn: at its end, unless someone has already won, the faction controlling the most planets wins; tied, they share the victory (R-WIN-2).",
};

export const turnTexts = defineTexts({
  it: {
    /** `last`: the turn is the game's last (R-WIN-2), which the reminder says. */
    reminder: (
      v: TurnValues & { player: string; deadline: string; missing: string; address: string; page: string | null; last: boolean },
    ): MailText =>
      mail(
        `[SF ${v.game}] Promemoria: i tuoi ordini per il turno ${v.turn}${v.last ? ", l'ultimo" : ''}`,
        `
Ciao ${v.player},

i tuoi ordini per il turno ${v.turn} di "${v.gameName}" scadono ${v.deadline}.
${v.last ? `\n${LAST_TURN.it}\n` : ''}
${v.missing}

Il tuo indirizzo per gli ordini: ${v.address}
Scrivi STATUS per vedere il foglio che abbiamo, HELP per sapere come scriverne uno.${
          v.page
            ? `
La pagina della partita: ${v.page}`
            : ''
        }
`,
      ),
    noOrdersYet: 'Non abbiamo ancora ricevuto ordini da te per questo turno: senza, le tue unità restano ferme (R-TURN-5).',
    sheetHasProblems: 'Il foglio che abbiamo per te ha dei problemi:',
    /** A problem as the sheet's review words it (`Riga 2: …`): its line is already named. */
    problemLine: (message: string) => `  ${message}`,
    moreProblems: (n: number) => `  … e altri ${n}`,
    sendCorrected: 'Puoi mandarne uno corretto fino alla scadenza.',
    grace: (v: TurnValues & { player: string; closesAt: string; address: string; page: string | null; last: boolean }): MailText =>
      mail(
        `[SF ${v.game}] Turno ${v.turn}: la scadenza è passata, c'è un periodo di tolleranza`,
        `
Ciao ${v.player},

la scadenza del turno ${v.turn} di "${v.gameName}" è passata e non abbiamo un tuo foglio. Questa
partita ha un periodo di tolleranza: un foglio che ci arriva entro ${v.closesAt} vale ancora.
${v.last ? `\n${LAST_TURN.it}\n` : ''}
Il tuo indirizzo per gli ordini: ${v.address}${
          v.page
            ? `
La pagina della partita: ${v.page}`
            : ''
        }
`,
      ),
    /** `next` is null on the game's last turn (R-WIN-2): no turn follows it. */
    early: (v: TurnValues & { at: string; next: string | null }): MailText =>
      mail(
        `[SF ${v.game}] Turno ${v.turn}: tutti i fogli sono arrivati`,
        `
I fogli di tutti i giocatori per il turno ${v.turn} di "${v.gameName}" sono arrivati e sono validi, e
questa partita anticipa i turni: il turno sarà risolto ${v.at}.
${
  v.next === null
    ? `È l'ultimo turno della partita (R-WIN-2): l'editto dirà chi ha vinto.`
    : `Il turno ${v.turn + 1} scadrà allora ${v.next}: la prima scadenza settimanale che lascia
almeno due giorni prima della dichiarazione del Cancelliere (D-TURN-7).`
}

Fino ad allora puoi ancora cambiare idea e mandare un nuovo foglio. Se prima di allora arriva un
foglio con problemi, il turno aspetta la sua scadenza normale.
`,
      ),
    earlyWithdrawn: (v: TurnValues & { deadline: string }): MailText =>
      mail(
        `[SF ${v.game}] Turno ${v.turn}: niente risoluzione anticipata`,
        `
Dopo l'annuncio che tutti gli ordini erano arrivati è arrivato un foglio con problemi: il turno
${v.turn} di "${v.gameName}" non sarà risolto in anticipo, e la scadenza resta ${v.deadline}.
`,
      ),
    declarationMissed: (v: TurnValues & { chancellor: string; declarationDeadline: string; deadline: string }): MailText =>
      mail(
        `[SF ${v.game}] Turno ${v.turn}: il Cancelliere non ha dichiarato`,
        `
Il Cancelliere (${v.chancellor}) non ha inviato la dichiarazione per il turno ${v.turn} di
"${v.gameName}" entro ${v.declarationDeadline}.

Come dicono le regole (R-TURN-3), in questo turno tutte le unità del Cancelliere e le Truppe
Imperiali restano ferme, e l'editto lo dirà. Gli ordini degli altri giocatori scadono come sempre:
${v.deadline}.
`,
      ),
    /** D-ABS-1: `who` names the absent factions. */
    deadlineMoved: (v: TurnValues & { who: string; deadline: string; declarationDeadline: string }): MailText =>
      mail(
        `[SF ${v.game}] Turno ${v.turn}: la scadenza si sposta a ${v.deadline}`,
        `
La scadenza del turno ${v.turn} di "${v.gameName}" cadeva durante un'assenza (${v.who}): si sposta
alla sua fine, nei limiti della partita:

  ordini:                         ${v.deadline}
  dichiarazione del Cancelliere:  ${v.declarationDeadline}

Una scadenza non si sposta mai prima. I fogli già inviati restano validi.
`,
      ),
    closedLate: (v: { game: string; gameName: string; turn: number; deadline: string; closedAt: string }): MailText =>
      mail(
        `[SF ${v.game}] Turno ${v.turn} chiuso in ritardo`,
        `
Il turno ${v.turn} di "${v.gameName}" scadeva ${v.deadline} ma è stato giudicato solo ${v.closedAt}:
il servizio non era in funzione alla scadenza. L'editto lo dice ai giocatori; i fogli considerati
sono quelli ricevuti entro la scadenza (D-TURN-2, D-TURN-3).
`,
      ),
  },
  en: {
    reminder: (v) =>
      mail(
        `[SF ${v.game}] Reminder: your orders for turn ${v.turn}${v.last ? ', the last' : ''}`,
        `
Hello ${v.player},

your orders for turn ${v.turn} of "${v.gameName}" are due ${v.deadline}.
${v.last ? `\n${LAST_TURN.en}\n` : ''}
${v.missing}

Your orders address: ${v.address}
Send STATUS to see the sheet we hold for you, HELP for how to write one.${
          v.page
            ? `
The game's page: ${v.page}`
            : ''
        }
`,
      ),
    noOrdersYet: 'We have no orders from you for this turn yet: without them your units hold (R-TURN-5).',
    sheetHasProblems: 'The sheet we hold for you has problems:',
    problemLine: (message) => `  ${message}`,
    moreProblems: (n) => `  … and ${n} more`,
    sendCorrected: 'You may send a corrected one until the deadline.',
    grace: (v) =>
      mail(
        `[SF ${v.game}] Turn ${v.turn}: the deadline has passed, a grace period is open`,
        `
Hello ${v.player},

the deadline of turn ${v.turn} of "${v.gameName}" has passed and we have no sheet from you. This game
has a grace period: a sheet that reaches us by ${v.closesAt} still counts.
${v.last ? `\n${LAST_TURN.en}\n` : ''}
Your orders address: ${v.address}${
          v.page
            ? `
The game's page: ${v.page}`
            : ''
        }
`,
      ),
    early: (v) =>
      mail(
        `[SF ${v.game}] Turn ${v.turn}: all sheets are in`,
        `
Every player's sheet for turn ${v.turn} of "${v.gameName}" is in and valid, and this game
processes turns early: the turn will be adjudicated ${v.at}.
${
  v.next === null
    ? `This is the game's last turn (R-WIN-2): the edict will say who has won.`
    : `Turn ${v.turn + 1} will then be due ${v.next}: the first weekly deadline that leaves at least
two days before the Chancellor's declaration (D-TURN-7).`
}

Until then you may still change your mind and send a new sheet. If a sheet with problems comes in
before then, the turn waits for its usual deadline.
`,
      ),
    earlyWithdrawn: (v) =>
      mail(
        `[SF ${v.game}] Turn ${v.turn}: not adjudicated early after all`,
        `
A sheet with problems came in after everyone's orders were announced as complete, so turn ${v.turn}
of "${v.gameName}" is not adjudicated early: its deadline stands, ${v.deadline}.
`,
      ),
    declarationMissed: (v) =>
      mail(
        `[SF ${v.game}] Turn ${v.turn}: the Chancellor has not declared`,
        `
The Chancellor (${v.chancellor}) sent no declaration for turn ${v.turn} of "${v.gameName}" by
${v.declarationDeadline}.

As the rules say (R-TURN-3), this turn all the Chancellor's units and the Imperial Troops hold,
and the edict will say so. Every other player's orders are due as usual: ${v.deadline}.
`,
      ),
    deadlineMoved: (v) =>
      mail(
        `[SF ${v.game}] Turn ${v.turn}: the deadline moves to ${v.deadline}`,
        `
The deadline of turn ${v.turn} of "${v.gameName}" fell during an absence (${v.who}), so it moves to
the end of it, as the game allows:

  orders:                     ${v.deadline}
  the Chancellor declares by: ${v.declarationDeadline}

A deadline never moves earlier. Sheets already sent stand.
`,
      ),
    closedLate: (v) =>
      mail(
        `[SF ${v.game}] Turn ${v.turn} closed late`,
        `
Turn ${v.turn} of "${v.gameName}" was due ${v.deadline} but was adjudicated only ${v.closedAt}:
the service was not running at the deadline. The edict tells the players; the sheets used are those
received by the deadline (D-TURN-2, D-TURN-3).
`,
      ),
  },
});
