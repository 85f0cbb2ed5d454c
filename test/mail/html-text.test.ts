import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../src/mail/read/html-text.ts';
import { stripQuoted } from '../../src/mail/read/quoted.ts';

describe('htmlToText', () => {
  it('breaks lines at <br>, <p>, <div>, <li> and <tr>, one line each', () => {
    expect(
      htmlToText(
        'H: Sith<br>B2-C3<p>B1-C1</p><div>N9#</div><ul><li>A2-A3</li><li>A1-B1</li></ul><table><tr><td>G7-G8</td></tr><tr><td>G6-G5</td></tr></table>',
      ),
    ).toBe('H: Sith\nB2-C3\nB1-C1\nN9#\nA2-A3\nA1-B1\nG7-G8\nG6-G5');
  });

  it('separates table cells by a space', () => {
    expect(htmlToText('<table><tr><td>B2-C3</td><td>B1-C1</td></tr></table>')).toBe('B2-C3 B1-C1');
  });

  it('reads &nbsp; as a space and decodes entities', () => {
    expect(htmlToText('<p>H:&nbsp;Sith,&nbsp;Hutt</p><p>B2&nbsp;&#8211;&nbsp;C3 &amp; &lt;ok&gt; Ostilit&agrave;</p>')).toBe(
      'H: Sith, Hutt\nB2 – C3 & <ok> Ostilità',
    );
  });

  it('drops comments, <head>, <title>, <script>, <style> and hidden elements', () => {
    const html =
      '<html><head><title>B1-B2</title><style>p{x:1} /* N9# */</style><script>var a="A2-A3"</script></head><body><!-- B2=F6 -->' +
      '<div>B2-C3</div><div style="display:none">B1-C2</div><div hidden>B1-C3</div><!--[if mso]><p>B1-A1</p><![endif]--><script>document.write("B1-B2")</script></body></html>';
    expect(htmlToText(html)).toBe('B2-C3');
  });

  it("does not read Word's list numbers as text", () => {
    const li = (n: number, order: string) =>
      `<p class=MsoListParagraph style='mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>${n}.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp; </span></span><![endif]>${order}<o:p></o:p></p>`;
    expect(htmlToText(li(1, 'X2-X3') + li(2, 'Y2=Y6'))).toBe('X2-X3\nY2=Y6');
  });

  it('treats a trailing <br> in a block as nothing and <div><br></div> as one empty line, as browsers do', () => {
    expect(htmlToText('<div>B2-C3<br></div><div><br></div><div>N9#</div>')).toBe('B2-C3\n\nN9#');
  });

  it('renders <blockquote> as ">" lines, so quoted.ts removes it with its attribution', () => {
    const html =
      '<div>B2-C3</div><div class="gmail_quote"><div class="gmail_attr">On Mon, SF wrote:<br></div><blockquote class="gmail_quote">B2-C9<br>H: Sith</blockquote></div>';
    expect(htmlToText(html)).toBe('B2-C3\nOn Mon, SF wrote:\n> B2-C9\n> H: Sith');
    expect(stripQuoted(htmlToText(html))).toBe('B2-C3');
  });

  it("keeps text indented with Gmail's or Apple's indent button (a blockquote without border)", () => {
    expect(
      htmlToText(
        '<div>H: Sith</div><blockquote style="margin:0px 0px 0px 40px;border:none;padding:0px"><div>B2-C3</div><div>N9#</div></blockquote>',
      ),
    ).toBe('H: Sith\nB2-C3\nN9#');
    expect(htmlToText('<blockquote style="margin: 0 0 0 40px; border: none; padding: 0px;">B2-C3</blockquote>')).toBe('B2-C3');
  });

  it("renders <hr> as Outlook's rule, so OWA's divRplyFwdMsg history is cut", () => {
    const html =
      '<div>B2-C3</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg"><font><b>From:</b> SF<br><b>Sent:</b> Monday<br><b>To:</b> Tom<br><b>Subject:</b> Turn 4</font></div><div>B2-C9</div>';
    expect(stripQuoted(htmlToText(html))).toBe('B2-C3');
  });

  it('ignores link targets and images', () => {
    expect(htmlToText('<a href="https://x.example/B2-C3">N9#</a><img src="cid:x" alt="B1-B2">')).toBe('N9#');
  });
});

// Every multipart/alternative fixture says the same thing twice; both must give the same new text.
describe('the HTML of each fixture reads like its text part', () => {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
    it(file, async () => {
      const mail = await simpleParser(readFileSync(path.join(dir, file)), { skipHtmlToText: true });
      if (!mail.html || !mail.text?.trim()) return;
      expect(stripQuoted(htmlToText(mail.html))).toBe(stripQuoted(mail.text));
    });
  }
});
