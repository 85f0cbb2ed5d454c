// The Imperial Edict's mail (R-EDICT-1), to players and to observers, and the notes it may carry.
import { defineTexts, mail, type MailText } from './define.ts';

interface EdictValues {
  game: string;
  gameName: string;
  turn: number;
  /** versionNote(), empty for the first version. */
  versionNote: string;
  /** gameOver(), empty while the game goes on. */
  gameOver: string;
  /** The edict's own text (src/adjudicator/render/edict-text.ts). */
  edict: string;
}

export const edictTexts = defineTexts({
  it: {
    edict: (
      v: EdictValues & {
        amendment: string;
        lateNote: string;
        addressNote: string;
        disputeNote: string;
        pageNote: string;
        attachmentsNote: string;
      },
    ): MailText =>
      mail(
        `[SF ${v.game}] Editto Imperiale, turno ${v.turn}${v.versionNote}`,
        `
${v.amendment}Questo è l'Editto Imperiale del turno ${v.turn} di "${v.gameName}".
${v.gameOver}${v.lateNote}
${v.addressNote}${v.disputeNote}${v.pageNote}${v.attachmentsNote}

${v.edict}
`,
      ),
    edictObserver: (v: EdictValues & { unsubscribe: string; pageNote: string }): MailText =>
      mail(
        `[SF ${v.game}] Editto Imperiale, turno ${v.turn}${v.versionNote}`,
        `
Questo è l'Editto Imperiale del turno ${v.turn} di "${v.gameName}", che segui come osservatore.
${v.gameOver}${v.pageNote}
Per non ricevere più queste mail: ${v.unsubscribe}

${v.edict}
`,
      ),
    versionNote: (version: number) => (version > 1 ? ` (emendato, versione ${version})` : ''),
    amendment: (reason: string | null) => (reason ? `L'arbitro ha emendato questo editto (R-EDICT-3). Motivo: ${reason}\n\n` : ''),
    /**
     * R-WIN-1, R-WIN-2: the game's outcome, first in the final edict's mail; null while it goes on.
     * `winners` are display names; none when the last turn ended with no faction in play.
     */
    gameOver: (over: { winners: readonly string[]; rule: 'R-WIN-1' | 'R-WIN-2' | null } | null) =>
      over === null
        ? ''
        : over.winners.length === 0
          ? 'La partita è finita, senza vincitori (R-WIN-2).\n'
          : `La partita è finita. ${over.winners.length > 1 ? 'Vincitori a pari merito' : 'Vincitore'}: ${over.winners.join(', ')} (${
              over.rule === 'R-WIN-2' ? "R-WIN-2: il maggior numero di pianeti alla fine dell'ultimo turno" : 'R-WIN-1'
            }).\n`,
    /** D-TURN-2: closed after its deadline because the service was down. */
    lateNote: (late: { closedAt: string; deadline: string } | null) =>
      late
        ? `\nQuesto turno è stato chiuso in ritardo, ${late.closedAt}, perché il servizio non era attivo alla scadenza (${late.deadline}). Contano solo i fogli ricevuti entro la scadenza (D-TURN-2).\n`
        : '',
    /** The game's public page, when PUBLIC_URL is known. */
    pageNote: (url: string | null) => (url ? `La pagina della partita: ${url}\n` : ''),
    /** D-PRESS-18: the final edict links the game's messages, published now (reveal = at-end). */
    pressNote: (url: string | null) => (url ? `I messaggi della partita, ora pubblicati: ${url}\n` : ''),
    /** The player's orders address; null once the game is over (no more sheets). */
    addressNote: (address: string | null) => (address ? `Il tuo indirizzo per gli ordini: ${address}\n` : ''),
    /** R-TURN-2 step 5: until when this version may be disputed; null when the game has no window. */
    disputeNote: (until: string | null) =>
      until ? `Puoi contestare questo editto fino a ${until}: scrivi CONTESTA e il motivo (R-TURN-2).\n` : '',
    // Every edict has its map (D-EDICT-2: in the reader's language).
    attachmentsNote: "In allegato la mappa (PNG) e l'editto come dati (JSON).",
    /** Under the map in the HTML mail, where a phone shows it small (D-WEB-8). */
    mapFullSize: (link: boolean) =>
      link ? 'Apri la mappa a grandezza piena, da ingrandire' : 'La mappa a grandezza piena, da ingrandire, è in allegato (PNG).',
  },
  en: {
    edict: (v) =>
      mail(
        `[SF ${v.game}] Imperial Edict, turn ${v.turn}${v.versionNote}`,
        `
${v.amendment}This is the Imperial Edict of turn ${v.turn} of "${v.gameName}".
${v.gameOver}${v.lateNote}
${v.addressNote}${v.disputeNote}${v.pageNote}${v.attachmentsNote}

${v.edict}
`,
      ),
    edictObserver: (v) =>
      mail(
        `[SF ${v.game}] Imperial Edict, turn ${v.turn}${v.versionNote}`,
        `
This is the Imperial Edict of turn ${v.turn} of "${v.gameName}", which you follow as an observer.
${v.gameOver}${v.pageNote}
To stop receiving these mails: ${v.unsubscribe}

${v.edict}
`,
      ),
    versionNote: (version) => (version > 1 ? ` (amended, version ${version})` : ''),
    amendment: (reason) => (reason ? `The referee has amended this edict (R-EDICT-3). Reason: ${reason}\n\n` : ''),
    gameOver: (over) =>
      over === null
        ? ''
        : over.winners.length === 0
          ? 'The game is over, with no winner (R-WIN-2).\n'
          : `The game is over. ${over.winners.length > 1 ? 'Shared victory' : 'Winner'}: ${over.winners.join(', ')} (${
              over.rule === 'R-WIN-2' ? 'R-WIN-2: the most planets at the end of the last turn' : 'R-WIN-1'
            }).\n`,
    lateNote: (late) =>
      late
        ? `\nThis turn was closed late, ${late.closedAt}, because the service was not running at its deadline (${late.deadline}). Only sheets received by the deadline count (D-TURN-2).\n`
        : '',
    pageNote: (url) => (url ? `The game's page: ${url}\n` : ''),
    pressNote: (url) => (url ? `The game's messages, published now: ${url}\n` : ''),
    addressNote: (address) => (address ? `Your orders address: ${address}\n` : ''),
    disputeNote: (until) => (until ? `You may dispute this edict until ${until}: send DISPUTE and your reason (R-TURN-2).\n` : ''),
    attachmentsNote: 'The map is attached (PNG), and the edict as data (JSON).',
    mapFullSize: (link) => (link ? 'Open the map full size, to zoom in' : 'The map full size, to zoom in, is attached (PNG).'),
  },
});
