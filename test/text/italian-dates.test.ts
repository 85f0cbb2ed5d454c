// Italian before a date that opens with its weekday ("giovedì 26 novembre 2026 alle ore 22:34"):
// no article ("quello di giovedì", "arrivato giovedì", "da giovedì"), never "del/il/dal giovedì".
import { describe, expect, it } from 'vitest';
import { formatInstant } from '../../src/games/time-format.ts';
import { refereeTexts } from '../../src/text/referee-mail.ts';
import { replyTexts } from '../../src/text/replies.ts';

const at = formatInstant(new Date('2026-11-26T21:34:00Z'), 'Europe/Rome', 'it');
const ARTICLED_WEEKDAY = /\b(il|del|dal|al) (lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica)\b/;

describe('Italian dates with their weekday', () => {
  it('take no article in the replies and the referee’s mail', () => {
    const T = replyTexts.it;
    const texts = [
      T.replaces(at),
      T.warningOnce(at, 'x@example.org', ''),
      T.warningSummary(at, 3, at, 'x@example.org', ''),
      T.late(at, at),
      T.lateChancellor(at, at),
      T.superseded(at, at),
      refereeTexts.it.seatLeft({ game: 'g', gameName: 'G', since: at, reason: 'r' }).text,
    ];
    expect(at).toMatch(/^giovedì 26 novembre 2026/);
    for (const t of texts) expect(t).not.toMatch(ARTICLED_WEEKDAY);
    expect(T.replaces(at)).toContain(`quello di ${at}`);
  });
});
