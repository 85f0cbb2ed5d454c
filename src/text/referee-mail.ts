// The mail the referee's actions send to players. `reason` is the referee's own text,
// inserted as written.
import { defineTexts, mail, type MailText } from './define.ts';

interface GameValues {
  game: string;
  gameName: string;
}

export const refereeTexts = defineTexts({
  it: {
    gamePaused: (v: GameValues & { reason: string }): MailText =>
      mail(
        `[SF ${v.game}] La partita è in pausa`,
        `
L'arbitro ha messo in pausa "${v.gameName}": nessuna scadenza passa e nessun promemoria parte finché
non riprende; allora la scadenza si sposta in avanti quanto è durata la pausa.

Motivo: ${v.reason}
`,
      ),
    gameResumed: (v: GameValues & { turn: number; deadline: string; reason: string }): MailText =>
      mail(
        `[SF ${v.game}] La partita riprende: il turno ${v.turn} scade ${v.deadline}`,
        `
L'arbitro ha fatto riprendere "${v.gameName}". La scadenza del turno ${v.turn} si è spostata in
avanti quanto è durata la pausa: ${v.deadline}.

Motivo: ${v.reason}
`,
      ),
    lengthChanged: (v: GameValues & { lastTurn: number | null; turn: number; reason: string }): MailText =>
      mail(
        v.lastTurn === null
          ? `[SF ${v.game}] La partita non ha più un ultimo turno`
          : `[SF ${v.game}] La partita finisce al turno ${v.lastTurn}`,
        `
L'arbitro ha cambiato la durata di "${v.gameName}" (R-WIN-2). ${
          v.lastTurn === null
            ? 'La partita non ha più un ultimo turno: si gioca finché una fazione controlla i pianeti che servono per vincere (R-WIN-1).'
            : `L'ultimo turno è il ${v.lastTurn}: alla sua fine, se nessuno ha già vinto, vince chi controlla più pianeti; a pari merito la vittoria è condivisa.`
        }
Il turno in corso è il ${v.turn}.

Motivo: ${v.reason}
`,
      ),
    /** `changes`: `label: old → new`, one a setting; `now`: the settings as they are now (describePressSettings). */
    pressChanged: (v: GameValues & { changes: string[]; now: string[]; reason: string }): MailText =>
      mail(
        `[SF ${v.game}] Nuove regole per i messaggi tra giocatori`,
        `
L'arbitro ha cambiato le regole dei messaggi tra giocatori di "${v.gameName}".
Valgono dal prossimo messaggio.

Cosa cambia:
${v.changes.map((l) => `  ${l}`).join('\n')}

Ora le regole sono:
${v.now.map((l) => `  ${l}`).join('\n')}

Motivo: ${v.reason}
`,
      ),
    seatLeft: (v: GameValues & { since: string; reason: string }): MailText =>
      mail(
        `[SF ${v.game}] Hai lasciato "${v.gameName}"`,
        `
L'arbitro ha dato il tuo posto in "${v.gameName}" a un altro giocatore, da ${v.since}.

Motivo: ${v.reason}

Il tuo indirizzo personale per gli ordini non funziona più. Grazie per aver giocato.
`,
      ),
    turnRolledBack: (v: GameValues & { turn: number; deadline: string; reason: string }): MailText =>
      mail(
        `[SF ${v.game}] Il turno ${v.turn} è di nuovo aperto`,
        `
L'arbitro ha annullato la risoluzione del turno ${v.turn} di "${v.gameName}": il suo editto è ritirato
(resta nell'archivio) e il turno è di nuovo aperto, con i fogli che avevi mandato.

Motivo: ${v.reason}

Nuova scadenza: ${v.deadline}
Puoi mandare un nuovo foglio fino ad allora; i fogli per il turno successivo andranno rimandati.
`,
      ),
    /** `declaration`: declarationBy(), or empty when the turn has no Chancellor. */
    deadlineExtended: (
      v: GameValues & {
        player: string;
        turn: number;
        deadline: string;
        previous: string;
        declaration: string;
        reason: string;
        address: string;
      },
    ): MailText =>
      mail(
        `[SF ${v.game}] Turno ${v.turn}: la nuova scadenza è ${v.deadline}`,
        `
Ciao ${v.player},

l'arbitro di "${v.gameName}" ha spostato la scadenza del turno ${v.turn}.

Gli ordini vanno inviati entro ${v.deadline} (prima: ${v.previous}).${v.declaration}
Motivo: ${v.reason}

Il tuo foglio, se lo hai inviato, resta valido; puoi mandarne uno nuovo fino alla nuova scadenza.

Il tuo indirizzo per gli ordini: ${v.address}
`,
      ),
    declarationBy: (at: string) => `\nIl Cancelliere dichiara entro ${at}.`,
    /** To the player the referee removed (their code no longer works). */
    seatRemoved: (v: GameValues & { faction: string; since: string; reason: string }): MailText =>
      mail(
        `[SF ${v.game}] Hai lasciato "${v.gameName}"`,
        `
L'arbitro ti ha tolto da "${v.gameName}", dove giocavi con ${v.faction}, da ${v.since}.

Motivo: ${v.reason}

Il tuo indirizzo personale per gli ordini e il tuo codice non funzionano più, e la posta dai tuoi
indirizzi non viene più letta per questa partita. Grazie per aver giocato.
`,
      ),
    /** To everyone else: the faction stays, without a player. */
    seatVacant: (v: GameValues & { faction: string; since: string; reason: string; turn: number }): MailText =>
      mail(
        `[SF ${v.game}] ${v.faction}: nessun giocatore`,
        `
L'arbitro ha tolto il giocatore di ${v.faction} da "${v.gameName}", da ${v.since}.

Motivo: ${v.reason}

La fazione ${v.faction} resta sul tabellone. Finché l'arbitro non dà il posto a qualcun altro,
gioca come una fazione il cui giocatore non ha mandato ordini (R-TURN-5): ogni unità resta ferma e
non vota. Un foglio d'ordini per il turno ${v.turn} mandato prima d'ora dal suo giocatore resta
valido.
`,
      ),
    addressesChanged: (v: GameValues & { reason: string; addresses: string; primary: string }): MailText =>
      mail(
        `[SF ${v.game}] I tuoi indirizzi in "${v.gameName}"`,
        `
L'arbitro ha cambiato gli indirizzi da cui giochi "${v.gameName}".

Motivo: ${v.reason}

La posta da uno qualsiasi di questi indirizzi, con il tuo codice, vale come tua: ${v.addresses}.
La posta della partita va a ${v.primary}.

Se non l'hai chiesto tu, avvisa l'arbitro.
`,
      ),
  },
  en: {
    gamePaused: (v) =>
      mail(
        `[SF ${v.game}] The game is paused`,
        `
The referee has paused "${v.gameName}": no deadline passes and no reminder is sent until it resumes,
and then the deadline moves on by the length of the pause.

Reason: ${v.reason}
`,
      ),
    gameResumed: (v) =>
      mail(
        `[SF ${v.game}] The game resumes: turn ${v.turn} is due ${v.deadline}`,
        `
The referee has resumed "${v.gameName}". The deadline of turn ${v.turn} moved on by the length of
the pause: ${v.deadline}.

Reason: ${v.reason}
`,
      ),
    lengthChanged: (v) =>
      mail(
        v.lastTurn === null ? `[SF ${v.game}] The game no longer has a last turn` : `[SF ${v.game}] The game ends with turn ${v.lastTurn}`,
        `
The referee has changed the length of "${v.gameName}" (R-WIN-2). ${
          v.lastTurn === null
            ? 'The game no longer has a last turn: it goes on until a faction controls the planets needed to win (R-WIN-1).'
            : `The last turn is turn ${v.lastTurn}: at its end, unless someone has already won, the faction controlling the most planets wins; tied, they share the victory.`
        }
Turn ${v.turn} is open now.

Reason: ${v.reason}
`,
      ),
    pressChanged: (v) =>
      mail(
        `[SF ${v.game}] New rules for messages between players`,
        `
The referee has changed the rules for messages between the players of "${v.gameName}".
They apply from the next message.

What changes:
${v.changes.map((l) => `  ${l}`).join('\n')}

The rules now:
${v.now.map((l) => `  ${l}`).join('\n')}

Reason: ${v.reason}
`,
      ),
    seatLeft: (v) =>
      mail(
        `[SF ${v.game}] You have left "${v.gameName}"`,
        `
The referee has given your seat in "${v.gameName}" to another player, from ${v.since}.

Reason: ${v.reason}

Your private orders address no longer works. Thank you for playing.
`,
      ),
    turnRolledBack: (v) =>
      mail(
        `[SF ${v.game}] Turn ${v.turn} is open again`,
        `
The referee has rolled back turn ${v.turn} of "${v.gameName}": its edict is withdrawn (it stays in
the archive) and the turn is open again, with the sheets you had sent for it.

Reason: ${v.reason}

New deadline: ${v.deadline}
You may send a new sheet until then; sheets for the next turn must be sent again later.
`,
      ),
    deadlineExtended: (v) =>
      mail(
        `[SF ${v.game}] Turn ${v.turn}: the deadline is now ${v.deadline}`,
        `
Hello ${v.player},

the referee of "${v.gameName}" has moved the deadline of turn ${v.turn}.

Orders are now due ${v.deadline} (it was ${v.previous}).${v.declaration}
Reason: ${v.reason}

Your sheet, if you sent one, still stands; you may send a new one until the new deadline.

Your orders address: ${v.address}
`,
      ),
    declarationBy: (at) => `\nThe Chancellor declares by ${at}.`,
    seatRemoved: (v) =>
      mail(
        `[SF ${v.game}] You have left "${v.gameName}"`,
        `
The referee has removed you from "${v.gameName}", where you played the ${v.faction}, from ${v.since}.

Reason: ${v.reason}

Your private orders address and your code no longer work, and mail from your addresses is no
longer read for this game. Thank you for playing.
`,
      ),
    seatVacant: (v) =>
      mail(
        `[SF ${v.game}] The ${v.faction} have no player`,
        `
The referee has removed the player of the ${v.faction} from "${v.gameName}", from ${v.since}.

Reason: ${v.reason}

The ${v.faction} stay on the board. Until the referee gives the seat to someone, they play as a
faction whose player sent no orders (R-TURN-5): every unit holds and they cast no votes. A sheet
their player sent for turn ${v.turn} before now still stands.
`,
      ),
    addressesChanged: (v) =>
      mail(
        `[SF ${v.game}] Your addresses in "${v.gameName}"`,
        `
The referee has changed the addresses you play "${v.gameName}" from.

Reason: ${v.reason}

Mail from any of these addresses, with your code, is read as yours: ${v.addresses}.
Mail from the game goes to ${v.primary}.

If you did not ask for this, tell the referee.
`,
      ),
  },
});
