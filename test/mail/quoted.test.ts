import { describe, expect, it } from 'vitest';
import { looksLikeSheetLine, splitQuoted, stripQuoted } from '../../src/mail/read/quoted.ts';

const t = (...lines: string[]) => lines.join('\n');

describe('stripQuoted: marked quotes', () => {
  it('removes ">" lines of any depth, also with leading spaces', () => {
    expect(stripQuoted(t('B2-C3', '> B2-C9', '>> B1-B2', '  > > N9#', '>', 'N9#'))).toBe('B2-C3\nN9#');
  });

  it('reads a bottom-posted reply below the quote', () => {
    expect(stripQuoted(t('On Mon, 3 Mar 2025 at 09:00, SF <orders@sf.example> wrote:', '', '> B2-C9', '> H: Sith', '', 'B2-C3'))).toBe(
      'B2-C3',
    );
  });

  it('reads an interleaved reply between quotes', () => {
    expect(stripQuoted(t('Il 03/03/25 09:00, SF ha scritto:', '> B2-C9', 'B2-C3', '> H: Sith', 'H: Hutt'))).toBe('B2-C3\nH: Hutt');
  });
});

describe('stripQuoted: attribution lines', () => {
  it.each([
    ['Gmail, English', 'On Mon, 3 Mar 2025 at 09:00, Starts Foundation <orders@sf.example> wrote:'],
    ['Gmail, Italian', 'Il giorno lun 3 mar 2025 alle ore 09:00 Starts Foundation <orders@sf.example> ha scritto:'],
    ['Apple Mail, Italian', 'Il giorno 3 mar 2025, alle ore 09:00, Starts Foundation <orders@sf.example> ha scritto:'],
    ['Thunderbird, Italian (no "giorno")', 'Il 03/03/25 09:00, Starts Foundation ha scritto:'],
    ['French', 'Le lun. 3 mars 2025 à 09:00, Starts Foundation <orders@sf.example> a écrit :'],
    ['German', 'Am Mo., 3. März 2025 um 09:00 Uhr schrieb Starts Foundation <orders@sf.example>:'],
    ['no lead word, quote follows', 'Starts Foundation <orders@sf.example> ha scritto:'],
    ['Gmail, Dutch', 'Op ma 3 mrt 2025 om 09:00 schreef Starts Foundation <orders@sf.example>:'],
    ['Gmail, Polish', 'pon., 3 mar 2025 o 09:00 Starts Foundation <orders@sf.example> napisał(a):'],
    ['Gmail, Swedish', 'Den mån 3 mars 2025 kl 09:00 skrev Starts Foundation <orders@sf.example>:'],
    ['Gmail, Russian', 'пн, 3 мар. 2025 г. в 09:00, Starts Foundation <orders@sf.example>:'],
    ['Thunderbird, Russian', '03.03.2025 09:00, Starts Foundation пишет:'],
  ])('%s', (_name, attribution) => {
    expect(stripQuoted(t('B2-C3', '', attribution, '', '> B2-C9'))).toBe('B2-C3');
  });

  it('joins an attribution wrapped over two lines (Gmail breaks inside the address)', () => {
    expect(
      stripQuoted(
        t('B2-C3', '', 'Il giorno lun 3 mar 2025 alle ore 09:00 Starts Foundation <', 'orders@sf.example> ha scritto:', '', '> B2-C9'),
      ),
    ).toBe('B2-C3');
    expect(stripQuoted(t('B2-C3', 'On Mon, 3 Mar 2025, 09:00 Starts Foundation, <orders@sf.example>', 'wrote:', '> B2-C9'))).toBe('B2-C3');
  });

  it('and over three lines', () => {
    expect(
      stripQuoted(
        t(
          'B2-C3',
          'Il giorno lunedì 3 marzo 2025 alle ore 09:00',
          'Starts Foundation <orders+k7Q2-x9Pm@sf.example>',
          'ha scritto:',
          '> B2-C9',
        ),
      ),
    ).toBe('B2-C3');
  });

  it('takes everything after an attribution not followed by a marked quote as history (Yahoo)', () => {
    expect(
      stripQuoted(t('B2-C3', '', '   On Monday, 3 March 2025 at 09:00:00 CET, SF <orders@sf.example> wrote:', '', ' B2-C9', 'N9#')),
    ).toBe('B2-C3');
  });

  it('removes an attribution that ends the text', () => {
    expect(splitQuoted(t('B2-C3', '', 'On Mon, 3 Mar 2025, SF wrote:'))).toEqual({ text: 'B2-C3', cuts: ['attribution'] });
  });

  it('leaves a sentence that merely ends in "wrote:" when no quote follows', () => {
    expect(stripQuoted(t('As Mario wrote:', 'B2-C3'))).toBe('As Mario wrote:\nB2-C3');
  });
});

describe('stripQuoted: unmarked history', () => {
  it.each([
    ['Outlook, Italian', '-----Messaggio originale-----'],
    ['Outlook, English', '-----Original Message-----'],
    ['Samsung', '-------- Messaggio originale --------'],
    ['Gmail forward', '---------- Forwarded message ---------'],
    ['Gmail forward, Italian', '---------- Messaggio inoltrato ---------'],
    ['Thunderbird forward', '-------- Forwarded Message --------'],
    ['Apple forward', 'Begin forwarded message:'],
  ])('%s separator', (_name, separator) => {
    expect(stripQuoted(t('B2-C3', '', separator, 'From: SF <orders@sf.example>', 'B2-C9'))).toBe('B2-C3');
  });

  it.each([
    [
      'Yahoo forward, Italian',
      '   ----- Messaggio inoltrato ----- Da: Starts Foundation <orders@sf.example>A: anna@example.itInviato: lunedì 3 marzo 2025, 09:00:00 CETOggetto: [SF andromeda] Editto',
    ],
    [
      'Yahoo forward, English',
      '   ----- Forwarded Message ----- From: Starts Foundation <orders@sf.example>To: tom@example.co.ukSent: Monday, 3 March 2025, 09:00:00 GMTSubject: [SF andromeda] Edict',
    ],
    [
      'Yahoo forward, spaced fields',
      '  ----- Messaggio inoltrato ----- Da: SF <orders@sf.example> A: anna@example.it Inviato: lunedì Oggetto: Editto',
    ],
  ])('%s: marker and header block on one indented line', (_name, marker) => {
    expect(stripQuoted(t('V: Mercanti', '', marker, '', 'B2-C9', 'H: Sith'))).toBe('V: Mercanti');
  });

  it('keeps a line that only mentions a forward in passing', () => {
    expect(stripQuoted(t('H: Sith', 'ti ho inoltrato il messaggio: Da: me', 'B2-C3'))).toBe(
      'H: Sith\nti ho inoltrato il messaggio: Da: me\nB2-C3',
    );
  });

  it('cuts at Outlook\'s "____" rule followed by Da:/From:', () => {
    expect(stripQuoted(t('B2-C3', '________________________________', 'Da: SF <orders@sf.example>', 'Inviato: lunedì', 'B2-C9'))).toBe(
      'B2-C3',
    );
    expect(stripQuoted(t('B2-C3', '________________________________', '', 'From: SF <orders@sf.example>', 'B2-C9'))).toBe('B2-C3');
  });

  it('keeps a "____" rule that is only decoration', () => {
    expect(stripQuoted(t('H: Sith', '____________', 'B2-C3'))).toBe('H: Sith\n____________\nB2-C3');
  });

  it.each([
    [
      'Outlook, Italian',
      ['Da: SF <orders@sf.example>', 'Inviato: lunedì 3 marzo 2025 09:00', 'A: Luca', 'Cc: Paolo', 'Oggetto: [SF andromeda] Turno 4'],
    ],
    ['Outlook, English', ['From: SF <orders@sf.example>', 'Sent: Monday, March 3, 2025 9:00 AM', 'To: Tom', 'Subject: Turn 4']],
    ['Outlook for Mac', ['From: SF <orders@sf.example>', 'Date: Monday, 3 March 2025 at 09:00', 'To: Tom', 'Subject: Turn 4']],
    ['Gmail starred', ['*From:* SF <orders@sf.example>', '*Sent:* Monday', '*To:* Tom', '*Subject:* Turn 4']],
  ])('cuts at a header block without separator (%s)', (_name, block) => {
    expect(stripQuoted(t('B2-C3', '', ...block, '', 'B2-C9'))).toBe('B2-C3');
  });

  it('needs a date and a subject line to call "Da:" a header block', () => {
    expect(stripQuoted(t('Da: Mario', 'B2-C3'))).toBe('Da: Mario\nB2-C3');
  });
});

describe('stripQuoted: separators drawn with other dashes', () => {
  it('cuts at Proton Mail’s "‐‐‐‐‐‐‐ Original Message ‐‐‐‐‐‐‐" (U+2010 hyphens) and at en/em-dash separators', () => {
    const h = '\u2010'.repeat(7);
    expect(
      stripQuoted(
        t('B2-C3', '', 'Sent with ProtonMail Secure Email.', '', `${h} Original Message ${h}`, 'On Wed, X <x@y> wrote:', '', '> B2-C9'),
      ),
    ).toBe('B2-C3');
    expect(stripQuoted(t('B2-C3', `${h} Original Message ${h}`, 'From: SF <orders@sf.example>', 'B2-C9'))).toBe('B2-C3');
    expect(stripQuoted(t('B2-C3', '–––––Messaggio originale–––––', 'B2-C9'))).toBe('B2-C3');
    expect(stripQuoted(t('B2-C3', '—— Forwarded message ——', 'B2-C9'))).toBe('B2-C3');
  });
});

describe('stripQuoted: signatures and footers', () => {
  it('cuts at "-- "', () => {
    expect(splitQuoted(t('B2-C3', '-- ', 'Mario Rossi', 'B1-B2 is my motto'))).toEqual({ text: 'B2-C3', cuts: ['signature'] });
  });

  it('cuts at a bare "--" (trailing space eaten by Outlook) when no sheet line follows', () => {
    expect(stripQuoted(t('B2-C3', '--', 'Mario Rossi', 'Tel. 333 1234567'))).toBe('B2-C3');
  });

  it('skips a bare "--" the player used as a separator between sheet lines', () => {
    expect(stripQuoted(t('H: Sith', '--', 'B2-C3'))).toBe('H: Sith\nB2-C3');
  });

  it('a bare "--" followed by sheet lines only inside history is still a signature', () => {
    expect(stripQuoted(t('B2-C3', '--', 'Mario', '-----Original Message-----', 'B2-C9'))).toBe('B2-C3');
  });

  it.each([
    'Inviato da iPhone',
    'Inviato dal mio iPhone',
    'Inviato dal mio dispositivo Galaxy',
    'Sent from my iPhone',
    'Sent from Outlook for Android',
    'Sent from Yahoo Mail on Android',
    'Get Outlook for iOS<https://aka.ms/o0ukef>',
    'Ottieni Outlook per Android',
    'Inviato da Posta per Windows',
    // Proton Mail's default signature, as its users' mail to public lists shows it.
    'Sent with Proton Mail secure email.',
    'Sent with ProtonMail Secure Email.',
    "Inviato con l'email sicura di ProtonMail.",
    'Inviato con l’email sicura di Proton Mail.',
    'Sent with Spark',
  ])('drops the mobile footer "%s"', (footer) => {
    expect(stripQuoted(t('B2-C3', '', footer))).toBe('B2-C3');
  });

  it('drops a footer but keeps reading after it (footer above a quote, sheet below)', () => {
    expect(stripQuoted(t('Sent from my iPhone', '', '> B2-C9', 'B2-C3'))).toBe('B2-C3');
  });
});

describe('stripQuoted: shape', () => {
  it('drops a leading BOM, trims blank lines at both ends, keeps inner ones', () => {
    expect(stripQuoted('\ufeff\n\nH: Sith\n\nB2-C3\n\n')).toBe('H: Sith\n\nB2-C3');
  });

  it('handles CRLF and CR', () => {
    expect(stripQuoted('B2-C3\r\n> B2-C9\r\nN9#')).toBe('B2-C3\nN9#');
    expect(stripQuoted('B2-C3\r> B2-C9\rN9#')).toBe('B2-C3\nN9#');
  });

  // A backtracking blow-up would hang for minutes: the test's timeout is the guard.
  it('does not hang on a long single line or on many lines', { timeout: 30_000 }, () => {
    expect(typeof stripQuoted(`On ${'x'.repeat(2_000_000)} wrote:`)).toBe('string');
    const many = stripQuoted(Array.from({ length: 50_000 }, (_, i) => (i % 2 ? '--' : 'Il giorno')).join('\n'));
    // The first bare `--` ends the text as a signature (D-MAIL-5): only the first line is left.
    expect(many).toBe('Il giorno');
  });
});

describe('looksLikeSheetLine', () => {
  it.each([
    'B2-C3',
    'b2 - c3',
    'B2=F6',
    'N9#',
    'N9#M9',
    '- B2-C3',
    'B2\u2013C3',
    'H: Sith',
    'h:sith',
    'Ostilità: Hutt',
    'V: Mercanti',
    'E: B2',
    'Voto: Sith',
  ])('%s is a sheet line', (line) => expect(looksLikeSheetLine(line)).toBe(true));
  it.each(['Ciao', 'see attached', 'Code: k7Q2-x9Pm', 'In allegato gli ordini.', 'B2'])('%s is not', (line) =>
    expect(looksLikeSheetLine(line)).toBe(false),
  );
});
