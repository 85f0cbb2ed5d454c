// The HTML part of the edict mail is real HTML rendered from the edict (not the text in a <pre>):
// navigable headings, tables, the map image instead of the board in characters, neutral colours,
// every user-supplied string escaped, and a problem published as its line and kind only (R-EDICT-4).
import { describe, expect, it } from 'vitest';
import { renderEdictHtml } from '../../src/adjudicator/render/edict-html.ts';
import { VOCABULARY } from '../../src/adjudicator/render/vocabulary.ts';
import { board, crowdedEdictWithChatter, edictMailsFor, electionEdict, LONG_NAME, PRIVATE_LINES } from './edict-html-fixture.ts';

const crowded = crowdedEdictWithChatter();
const [it_, en] = edictMailsFor(crowded, { reason: 'Avanzata <img src=x onerror=boom()> decisa' });
const headings = (h: string, level: number) => [...h.matchAll(new RegExp(`<h${level}[^>]*>([^<]*)</h${level}>`, 'g'))].map((m) => m[1]);

describe('the HTML edict in the mail', () => {
  it('has the title as h1 and the six sections as h2, in the reader’s language', () => {
    for (const [mail, lang] of [
      [it_!, 'it'],
      [en!, 'en'],
    ] as const) {
      const v = VOCABULARY[lang];
      expect(headings(mail.bodyHtml!, 1)).toEqual([v.title(9, null)]);
      expect(headings(mail.bodyHtml!, 2)).toEqual(v.sections.map((s, i) => `${i + 1}. ${s}`));
      expect(mail.bodyHtml).toContain(`<html lang="${lang}">`);
    }
  });

  it('has no preformatted block and no board in characters; the plain-text part keeps the board', () => {
    const html = it_!.bodyHtml!;
    expect(html).not.toMatch(/<pre|white-space:\s*pre/);
    expect(html).not.toContain(VOCABULARY.it.legendTerrain);
    expect(html).not.toMatch(/ A {2}B {2}C {2}D/);
    expect(it_!.bodyText).toContain(VOCABULARY.it.legendTerrain);
    expect(html).toContain(
      '<img src="cid:map@starts-foundation" alt="alt it &lt;map&gt;" style="display:block;width:100%;max-width:100%;height:auto">',
    );
  });

  it('shows orders, votes and planets as tables with header cells', () => {
    const html = it_!.bodyHtml!;
    expect(html).toMatch(/<th scope="col"[^>]*>Ordine<\/th><th scope="col"[^>]*>Esito<\/th>/);
    expect(html).toMatch(/<code style="font-family:monospace">A10-B11<\/code><\/th><td [^>]*>attacca B11, resta ferma \(R-MOVE-5\)<\/td>/);
    expect(html).toContain(`<caption style="text-align:left;font-weight:bold">${VOCABULARY.it.perFaction}</caption>`);
    const vote = edictMailsFor(electionEdict())[1]!.bodyHtml!;
    expect(vote).toMatch(/<th scope="row"[^>]*>Hutt<\/th><td [^>]*>3 votes<\/td><td [^>]*>Hutt<\/td>/);
    expect(vote).toContain('a662aaa7b9cdc8dde1f6e6c602401f1b38e26ce5fcaf74bfabfd48a545470bad');
  });

  it('escapes the game name and the amendment reason', () => {
    const html = it_!.bodyHtml!;
    expect(html).not.toContain('<b>Orione');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;b&gt;Orione&lt;/b&gt; &amp; Co.');
    expect(html).toContain('Avanzata &lt;img src=x onerror=boom()&gt; decisa');
    expect(LONG_NAME).toHaveLength(80);
  });

  it('publishes a problem as its line and kind, never the words the player wrote (R-EDICT-4)', () => {
    const html = it_!.bodyHtml!;
    expect(html).toContain('<li>riga 1: non è un ordine comprensibile (R-ORD-8)</li>');
    expect(en!.bodyHtml).toContain('<li>line 1: not an order I understand (R-ORD-8)</li>');
    for (const line of PRIVATE_LINES)
      for (const word of line.split(/[ ,<>]+/).filter((w) => w.length > 3)) {
        expect(html).not.toContain(word);
        expect(en!.bodyHtml).not.toContain(word);
      }
  });

  it('sets no background and no text colour, so a dark mail client stays readable', () => {
    for (const mail of [it_!, en!]) {
      // Links take the client's own colour (inherit), underlined.
      expect(mail.bodyHtml).not.toMatch(/background|[^-]color\s*:(?!inherit;text-decoration:underline)/);
      expect(mail.bodyHtml).toContain('<meta name="color-scheme" content="light dark">');
    }
  });
});

describe('the HTML edict on a page', () => {
  it('styles by class only (the pages’ CSP refuses inline styles) and starts its sections at h3', () => {
    const html = renderEdictHtml(crowded, board, 'en', { level: 3, map: null, inline: false });
    expect(html).not.toContain('style=');
    expect(html).not.toContain('<img');
    expect(headings(html, 3)).toEqual(VOCABULARY.en.sections.map((s, i) => `${i + 1}. ${s}`));
    expect(html).toContain('<table class="sf-table">');
  });
});
