// What the referees of a game are told when one of its mails could not be delivered: the relay
// refused it for good, or took none of the tries of five days (D-MAIL-35).
import { defineTexts, mail, type MailText } from './define.ts';

interface UndeliveredValues {
  game: string;
  gameName: string;
  /** The recipient, as the outbox holds it. */
  to: string;
  /** The mail's subject, as it was to be sent. */
  subject: string;
  /** The relay's last answer. */
  error: string;
  /** The outbox row: `sf referee retry-mail <game> <id>` sends it again. */
  outboxId: number;
}

export const deliveryTexts = defineTexts({
  it: {
    undelivered: (v: UndeliveredValues): MailText =>
      mail(
        `[SF ${v.game}] Posta non consegnata a ${v.to}`,
        `
Un messaggio di "${v.gameName}" non è stato consegnato e il servizio ha smesso di riprovare.

A: ${v.to}
Oggetto: ${v.subject}
Ultima risposta del server di posta: ${v.error}

Controlla l'indirizzo del giocatore nella console; per rimandarlo: sf referee retry-mail ${v.game} ${v.outboxId} --reason …
`,
      ),
  },
  en: {
    undelivered: (v) =>
      mail(
        `[SF ${v.game}] Mail not delivered to ${v.to}`,
        `
A mail of "${v.gameName}" was not delivered, and the service has stopped trying.

To: ${v.to}
Subject: ${v.subject}
The mail server's last answer: ${v.error}

Check the player's address in the console; to send it again: sf referee retry-mail ${v.game} ${v.outboxId} --reason …
`,
      ),
  },
});
