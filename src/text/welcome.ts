// The welcome mail (R-SETUP-4) and the words it is made of.
import { defineTexts, mail, type MailText } from './define.ts';

export interface WelcomeValues {
  game: string;
  gameName: string;
  /** The player's display name, or their address. */
  player: string;
  email: string;
  faction: string;
  homeName: string;
  homeCell: string;
  systemCells: string;
  factions: string;
  firstTurn: number;
  /** R-WIN-2: the game's last turn, or null when it plays until R-WIN-1. */
  lastTurn: number | null;
  victoryPlanets: number;
  deadline: string;
  weekly: string;
  /** The player's zone, which every time in the mail is in. */
  timeZone: string;
  /** The game's zone when it is not the player's: the weekly time may then shift with summer time. */
  gameTimeZone: string | null;
  declarationLead: string;
  /** How long after each edict it may be disputed (the game's dispute window, as `duration` writes it). */
  disputeWindow: string;
  address: string;
  commonAddress: string;
  secret: string;
  /** The game's public page, when PUBLIC_URL is known. */
  page: string | null;
  /** The game's press settings, one line each (describePressSettings, in the reader's language). */
  press: string[];
  /** Who settles disputes (D-PRESS-17): the game's referees, the service's operator, or nobody assigned yet. */
  settledBy: 'referees' | 'operator' | 'kept';
}

const indented = (lines: string[]) => lines.map((l) => `    ${l}`).join('\n');

export const welcomeTexts = defineTexts({
  it: {
    welcome: (v: WelcomeValues): MailText =>
      mail(
        `[SF ${v.game}] ${v.gameName}: la tua fazione è ${v.faction}`,
        `
Ciao ${v.player},

ti diamo il benvenuto in "${v.gameName}", una partita di Starts Foundation.
La tua fazione: ${v.faction}.

LA TUA FAZIONE
  Sistema natale: ${v.homeName} (${v.homeCell}), con i pianeti di sistema ${v.systemCells}.
  Parti con 3 unità, una su ciascuno di questi pianeti.
  Fazioni in gioco: ${v.factions}.
  ${
    v.lastTurn === null
      ? `Vince chi controlla ${v.victoryPlanets} pianeti (R-WIN-1).`
      : `Vince chi controlla ${v.victoryPlanets} pianeti (R-WIN-1); la partita finisce col turno ${v.lastTurn}, e allora vince chi ne controlla di più (R-WIN-2).`
  }

SCADENZE
  Il tuo primo turno è il turno ${v.firstTurn}. Scadenza: ${v.deadline}.
  Poi una scadenza ogni settimana: ${v.weekly} (${v.timeZone}).${
    v.gameTimeZone
      ? `
  La partita segue l'ora di ${v.gameTimeZone}: quando l'ora legale cambia solo in uno dei due
  fusi, la scadenza può spostarsi di un'ora; ogni promemoria dà l'ora esatta.`
      : ''
  }
  Il Cancelliere dichiara per primo, ${v.declarationLead} prima di ogni scadenza.${
    v.firstTurn === 1
      ? `
  Il turno 1 è solo l'elezione del primo Cancelliere: nessuna unità si muove.`
      : ''
  }

COME MANDARE GLI ORDINI
  Scrivi al tuo indirizzo privato per gli ordini:

      ${v.address}

  Dice chi sei: non darlo a nessuno. Scrivi da questo indirizzo (${v.email});
  la posta da altri indirizzi non viene applicata.

  Se devi scrivere a ${v.commonAddress}, metti [SF ${v.game}] nell'oggetto
  e questa riga nel messaggio:

      Code: ${v.secret}

COME SCRIVERE UN FOGLIO D'ORDINI
  Un ordine per riga, nel testo della mail. Per esempio:

      H: Sith, Mercanti
      B2-C3
      B1=F5
      N9#
      V: Hutt

  H: fazioni         le fazioni a cui sei ostile in questo turno (senza riga H: nessuna)
  B2-C3              muove l'unità in B2 nella casella vicina C3 (anche in diagonale)
  B2=F6              salto nell'iperspazio, fino a 4 caselle, su una casella vuota, mai su un pianeta
  N9#                politica, da un'unità su una casella della Capitale (N9, O9, N10, O10)
  V: fazione         in un turno di elezioni, il tuo voto per il Cancelliere
  E: casella         se vieni eletto e la Capitale è piena, l'unità che la tua nuova unità sostituisce

  Un'unità senza ordini resta ferma. Puoi mandare un nuovo foglio in qualsiasi momento prima
  della scadenza: l'ultimo sostituisce del tutto i precedenti. A ogni foglio rispondiamo con
  quello che abbiamo capito e gli eventuali problemi, riga per riga.

ALTRI COMANDI (una mail con questa sola riga, al tuo indirizzo privato)
  STATO              la scadenza e il foglio che abbiamo per te (anche STATUS)
  AIUTO              come scrivere un foglio d'ordini (anche HELP)
  ASSENZA 1/4 10/4   sarai via dal 1° al 10 aprile (giorno/mese, anche ABSENCE): una scadenza
                     che cade in quei giorni si sposta alla fine, nei limiti della partita

DIPLOMAZIA E CONTESTAZIONI (al tuo indirizzo privato, anche nella stessa mail degli ordini)
  STAMPA A Sith, Hutt        un messaggio a quelle fazioni, firmato col nome della tua fazione;
  ...testo...                finisce con una riga FINE (o con la fine della mail)
  FINE
  A TUTTI                    un messaggio a tutti i giocatori (anche BROADCAST)
  STAMPA ANONIMA A Sith      senza il tuo nome (se la partita lo permette)
  STAMPA ALL'ARBITRO         agli arbitri, sempre possibile
  CONTESTA: il motivo        contesti l'ultimo editto, entro ${v.disputeWindow} dall'editto (anche DISPUTE)
  SILENZIA Sith              da solo in una mail: i messaggi dei Sith non ti arrivano più (chi
                             scrive non lo sa); anche più fazioni: SILENZIA Sith, Hutt;
                             SILENZIA ANONIMI per quelli anonimi; RIATTIVA Sith
  RIEPILOGO                  da solo in una mail: i messaggi in una mail al giorno, alle 7 della
                             tua ora; SUBITO per riceverli di nuovo uno per uno (anche MUTE, UNMUTE, DIGEST,
                             IMMEDIATE)
  Per rispondere a un messaggio basta "Rispondi", dal tuo indirizzo registrato. Ogni messaggio
  riceve una conferma: a chi è andato, o perché no.
  ${
    v.settledBy === 'referees'
      ? 'Le contestazioni le decidono gli arbitri della partita.'
      : v.settledBy === 'operator'
        ? 'Le contestazioni le decide il gestore del servizio: la partita non ha ancora un arbitro.'
        : 'La partita non ha ancora un arbitro: le contestazioni restano in attesa del primo.'
  }

  In questa partita:
${indented(v.press)}
${
  v.page
    ? `
LA PAGINA DELLA PARTITA
  ${v.page}
  La mappa, le scadenze, chi ha mandato gli ordini e l'archivio degli editti.
`
    : ''
}
Buona fortuna,
la Cancelleria di Starts Foundation
`,
      ),
  },
  en: {
    welcome: (v) =>
      mail(
        `[SF ${v.game}] Welcome to ${v.gameName}: you are the ${v.faction}`,
        `
Hello ${v.player},

welcome to "${v.gameName}", a game of Starts Foundation. You play the ${v.faction}.

YOUR FACTION
  Home system: ${v.homeName} (${v.homeCell}), with the system planets ${v.systemCells}.
  You start with 3 units, one on each of these planets.
  Factions in play: ${v.factions}.
  ${
    v.lastTurn === null
      ? `The first to control ${v.victoryPlanets} planets wins (R-WIN-1).`
      : `The first to control ${v.victoryPlanets} planets wins (R-WIN-1); the game ends with turn ${v.lastTurn}, and then the most planets win (R-WIN-2).`
  }

DEADLINES
  Your first turn is turn ${v.firstTurn}. Its deadline: ${v.deadline}.
  After that, a deadline every week: ${v.weekly} (${v.timeZone}).${
    v.gameTimeZone
      ? `
  The game keeps the clock of ${v.gameTimeZone}: when summer time changes in only one of the two
  zones, the deadline may shift by an hour; every reminder gives the exact time.`
      : ''
  }
  The Chancellor declares first, ${v.declarationLead} before each deadline.${
    v.firstTurn === 1
      ? `
  Turn 1 is only the election of the first Chancellor: no unit moves.`
      : ''
  }

HOW TO SEND YOUR ORDERS
  Write to your private orders address:

      ${v.address}

  It tells us who you are: keep it to yourself. Send from this address (${v.email});
  mail from any other address is not applied.

  If you must write to ${v.commonAddress} instead, put [SF ${v.game}] in the subject
  and this line in the message:

      Code: ${v.secret}

HOW TO WRITE A SHEET
  One order per line, in the body of the mail. For example:

      H: Sith, Merchants
      B2-C3
      B1=F5
      N9#
      V: Hutt

  H: factions        the factions you are hostile to this turn (no H: line: nobody)
  B2-C3              move the unit in B2 to the next cell C3 (diagonals too)
  B2=F6              hyperspace jump, up to 4 cells away, onto an empty cell, never onto a planet
  N9#                politics, by a unit standing on a Capital cell (N9, O9, N10, O10)
  V: faction         in an election turn, your vote for Chancellor
  E: cell            if you are elected and the Capital is full, the unit your new unit replaces

  A unit with no order holds. You may send a new sheet at any time before the deadline:
  the last one replaces the earlier ones entirely. Every sheet is answered with what was
  understood and any problem, line by line.

OTHER COMMANDS (a mail with only this line, to your private address)
  STATUS             the deadline and the sheet we hold for you
  HELP               how to write an order sheet
  ABSENCE 1/4 10/4   you are away from 1 to 10 April (day/month): a deadline that falls on
                     those days moves to their end, within the game's limits

DIPLOMACY AND DISPUTES (to your private address, also in the same mail as your orders)
  PRESS TO Sith, Hutt        a message to those factions, signed with your faction's name;
  ...text...                 it ends with a line ENDPRESS (or with the end of the mail)
  ENDPRESS
  BROADCAST                  a message to every player (also PRESS TO ALL)
  PRESS ANONYMOUS TO Sith    without your name (when the game allows it)
  PRESS TO REFEREE           to the referees, always possible
  DISPUTE: your reason       you dispute the latest edict, within ${v.disputeWindow} of it
  MUTE Sith                  alone in a mail: the Sith's messages no longer reach you (the writer
                             is not told); several factions too: MUTE Sith, Hutt;
                             MUTE ANONYMOUS for anonymous ones; UNMUTE Sith
  DIGEST                     alone in a mail: messages in one mail a day, at 07:00 your time;
                             IMMEDIATE to get each one at once again
  To answer a message just press Reply, from your registered address. Every message is
  acknowledged: to whom it went, or why not.
  ${
    v.settledBy === 'referees'
      ? "Disputes are settled by the game's referees."
      : v.settledBy === 'operator'
        ? "Disputes are settled by the service's operator: no referee is assigned to this game yet."
        : 'No referee is assigned to this game yet: disputes wait for the first one.'
  }

  In this game:
${indented(v.press)}
${
  v.page
    ? `
THE GAME'S PAGE
  ${v.page}
  The map, the deadlines, whose orders are in and the archive of edicts.
`
    : ''
}
Good luck,
the Chancellery of Starts Foundation
`,
      ),
  },
});
