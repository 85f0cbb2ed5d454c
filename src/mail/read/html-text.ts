// HTML → the text the player saw (MAIL.md "Which text is the sheet"), for HTML-only mail.
//
// Built on html-to-text (a direct dependency; mailparser uses it too) rather than bare
// htmlparser2: it already does entity decoding, whitespace collapsing, block/inline layout and
// selector-based skipping, which we would otherwise rewrite. We only re-style it to look like the
// text/plain part a mail client would have written:
// - one line per <p>/<div>/<li>/<tr>/<br> (Outlook and Gmail write one element per typed line);
// - table cells separated by a space, lists without bullets or numbers (Word adds those);
// - <blockquote> (Gmail's gmail_quote, Apple's type=cite, Thunderbird) becomes `>` lines, exactly
//   as in the client's own text part, and quoted.ts removes it with its attribution line — except
//   the border-less blockquote that Gmail's and WebKit's "indent" button writes;
// - <hr> becomes Outlook's `____` rule, so OWA's `<hr>` + divRplyFwdMsg header block is cut as
//   history by quoted.ts in the same way as its text part;
// - comments, <head>, <script>, <style>, hidden elements and Word's list markers are dropped;
// - &nbsp; is a space (MAIL.md), not a substitution to report: HTML editors put it everywhere.
import { htmlToText as convert, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';
import { decodeCommonEntities, lineBreakAtBlocks, MAX_NESTING_COST_PER_CHAR, nestingCost, stripTags } from './html-fallback.ts';
import { trimEndBlanks } from './linear.ts';

const block = (n = 1) => ({ format: 'block', options: { leadingLineBreaks: n, trailingLineBreaks: n } });

// Every <br> becomes this character before html-to-text sees the HTML, and a line break after:
// a run of <br>s is then one text node instead of thousands of elements, each costing the
// library a selector match and its own layout (`a<br>` repeated cost seconds per MB).
const BR_MARK = '\ue001';
// `[^<>]*` stops at the next `<`, so an unclosed `<br` rescans nothing.
const BR = /<br(?=[\s/>])[^<>]*>/gi;

/**
 * The line breaks back in place of the marks, as a browser draws them: nothing for a <br> that
 * ends a block (`<div>B2-C3<br></div>`, Gmail and TinyMCE write them), so one empty line for a
 * block that holds only a <br>; each new line keeps the line's `>` marks (a <br> in a quote).
 */
function placeLineBreaks(line: string): string {
  if (!line.includes(BR_MARK)) return line;
  const end = trimEndBlanks(line);
  const text = end.endsWith(BR_MARK) ? end.slice(0, -1) : end;
  const quote = /^(?:> ?)*/.exec(text)![0];
  return text
    .split(BR_MARK)
    .map((piece, i) => (i === 0 ? piece : quote + piece.replace(/^[ \t]+/, '')))
    .join('\n');
}

const cell: FormatCallback = (elem, walk, builder) => {
  walk(elem.children, builder);
  builder.addInline(' ');
};

const rule: FormatCallback = (_elem, _walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 1 });
  builder.addInline('_'.repeat(32));
  builder.closeBlock({ trailingLineBreaks: 1 });
};

// Outlook opens the quoted message's header block with a <div> whose top border is the rule:
// it becomes the same `____` line, then the block.
const topRule: FormatCallback = (elem, walk, builder, options) => {
  rule(elem, walk, builder, options);
  builder.openBlock({ leadingLineBreaks: 1 });
  walk(elem.children, builder);
  builder.closeBlock({ trailingLineBreaks: 1 });
};

const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  formatters: { cell, rule, topRule },
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    ...['head', 'script', 'style', 'title', 'template', 'xml', 'object', 'iframe'].map((selector) => ({ selector, format: 'skip' })),
    // Hidden text is not what the player wrote (pre-headers, Outlook's hidden fields).
    ...['[hidden]', '[style*="display:none"]', '[style*="display: none"]'].map((selector) => ({ selector, format: 'skip' })),
    // Word's list numbers and bullets: `<span style='mso-list:Ignore'>1.&nbsp;&nbsp;</span>`.
    { selector: '[style*="mso-list:Ignore"]', format: 'skip' },
    ...['p', 'div', 'li', 'tr', 'ul', 'ol', 'table', 'dl', 'dt', 'dd', 'center', 'address'].map((selector) => ({ selector, ...block() })),
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, ...block() })),
    { selector: 'td', format: 'cell' },
    { selector: 'th', format: 'cell' },
    { selector: 'hr', format: 'rule' },
    ...[
      'div[style*="border-top:solid"]',
      'div[style*="border-top: solid"]',
      'div[style*="border-top:1px solid"]',
      'div[style*="border-top: 1px solid"]',
    ].map((selector) => ({ selector, format: 'topRule' })),
    { selector: 'blockquote', format: 'blockquote', options: { leadingLineBreaks: 1, trailingLineBreaks: 1, trimEmptyLines: true } },
    { selector: 'div.yahoo_quoted', format: 'blockquote', options: { leadingLineBreaks: 1, trailingLineBreaks: 1, trimEmptyLines: true } },
    // Gmail's and WebKit's "indent" button also writes <blockquote>, styled without a border:
    // that is the player's own text, indented, not a quote.
    ...['blockquote[style*="border:none"]', 'blockquote[style*="border: none"]'].map((selector) => ({ selector, ...block() })),
  ],
};

/** Text of an HTML mail body, laid out as a mail client's text/plain alternative would be. */
export function htmlToText(html: string): string {
  const marked = html.replace(BR, BR_MARK);
  let text: string | null = null;
  // Nesting costs htmlparser2 time in proportion to its depth at every tag, and deep nesting makes
  // html-to-text give up: such HTML is written by no mail client, and is read by the plain fallback.
  if (nestingCost(marked) <= MAX_NESTING_COST_PER_CHAR * marked.length + 100_000) {
    try {
      text = convert(marked, OPTIONS);
    } catch {
      // html-to-text gives up only on pathological input: fall back to stripping tags.
    }
  }
  text ??= decodeCommonEntities(stripTags(marked, lineBreakAtBlocks));
  return text
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => trimEndBlanks(placeLineBreaks(l)))
    .join('\n');
}
