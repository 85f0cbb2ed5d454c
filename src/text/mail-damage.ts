// What was wrong with a mail itself, as a reply quotes it (MAIL.md "Size and shape"). These are
// stored with the mail before its reader is known, so they are made in both languages at once
// (inBoth).
import { defineTexts } from './define.ts';

export const mailDamageTexts = defineTexts({
  it: {
    /** Where in the message: `label` is a MIME part number such as `1.2`, empty for the whole. */
    where: (label: string, type: string) => (label ? `la parte ${label} (${type})` : `il messaggio (${type})`),
    tooDeep: 'troppe parti MIME annidate; il resto non è stato letto',
    unknownEncoding: (where: string, encoding: string | null) => `${where} ha una codifica di trasferimento sconosciuta "${encoding}"`,
    unknownCharset: (where: string, charset: string) =>
      `${where} dichiara un set di caratteri sconosciuto "${charset}"; è stata letta come UTF-8`,
    badBase64: (where: string) => `${where} non è base64 valido; è stato letto quanto si poteva decodificare`,
    noBoundary: (where: string) => `${where} non ha un separatore (boundary)`,
    noParts: (where: string) => `${where} non ha parti: il suo separatore non compare mai`,
    notClosed: (where: string) => `${where} non è chiuso dal suo separatore: il messaggio potrebbe essere troncato`,
    endsInHeaders: 'il messaggio finisce dentro le intestazioni: manca il corpo',
    malformedHeaders: (n: number) => `${n} righe di intestazione non sono intestazioni`,
    // What went wrong inside a library is no business of the sender's, and may reveal ours: never quoted.
    notParsed: 'il messaggio non si è potuto analizzare',
    notRead: 'il messaggio non si è potuto leggere',

    // The problems a reply lists first, before any sheet line.
    oversized: (limit: string) =>
      `Il messaggio supera il limite di ${limit} e non è stato letto: rimanda gli ordini come testo, senza allegati pesanti.`,
    damaged: (reason: string) => `Il messaggio è danneggiato: ${reason}. Controlla gli ordini letti qui sotto.`,
    noSheet: 'Nel messaggio non c’è un foglio d’ordini: scrivi gli ordini nel testo (non in una citazione) o in un allegato .txt.',
  },
  en: {
    where: (label, type) => (label ? `part ${label} (${type})` : `the message (${type})`),
    tooDeep: 'too many nested MIME parts; the rest was not read',
    unknownEncoding: (where, encoding) => `${where} has an unknown transfer encoding "${encoding}"`,
    unknownCharset: (where, charset) => `${where} declares an unknown charset "${charset}"; it was read as UTF-8`,
    badBase64: (where) => `${where} is not valid base64; what could be decoded was read`,
    noBoundary: (where) => `${where} has no boundary`,
    noParts: (where) => `${where} has no parts: its boundary never appears`,
    notClosed: (where) => `${where} is not closed by its boundary: the message may be cut short`,
    endsInHeaders: 'the message ends inside its headers: there is no body',
    malformedHeaders: (n) => `${n} header line(s) are not headers`,
    notParsed: 'the message could not be parsed',
    notRead: 'the message could not be read',

    oversized: (limit) =>
      `The message is larger than the ${limit} limit and was not read: send the orders again as text, without large attachments.`,
    damaged: (reason) => `The message is damaged: ${reason}. Check the orders as read below.`,
    noSheet: 'The message has no order sheet: write the orders in the text (not in a quote) or in a .txt attachment.',
  },
});
