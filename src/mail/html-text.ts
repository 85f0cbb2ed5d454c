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
import { htmlToText as convert, type DomNode, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';

const block = (n = 1) => ({ format: 'block', options: { leadingLineBreaks: n, trailingLineBreaks: n } });

const BLOCKS = new Set(['body', 'html', 'div', 'p', 'li', 'td', 'th', 'tr', 'blockquote', 'ul', 'ol', 'table', 'center', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
// Stands for an empty line (`<div><br></div>`) until the end, where it becomes nothing:
// html-to-text drops blocks that have no text.
const EMPTY_LINE = '\ue000';

const shows = (n: DomNode) => !(n.type === 'comment' || n.type === 'script' || n.type === 'style' || (n.type === 'text' && /^\s*$/.test(n.data ?? '')));
const hasShownSibling = (n: DomNode, dir: 1 | -1) => {
  const siblings = n.parent?.children ?? [];
  const i = siblings.indexOf(n);
  return (dir === 1 ? siblings.slice(i + 1) : siblings.slice(0, i)).some(shows);
};

/** Whether nothing visible follows a node up to the end of its block. */
function lastInBlock(node: DomNode): boolean {
  for (let n: DomNode | undefined = node; n; n = n.parent) {
    if (hasShownSibling(n, 1)) return false;
    if (!n.parent || BLOCKS.has(n.parent.name ?? '')) return true;
  }
  return true;
}

// A browser draws nothing for a <br> that ends a block (`<div>B2-C3<br></div>`, Gmail and
// TinyMCE write them) and one empty line for a block that holds only a <br>.
const lineBreak: FormatCallback = (elem, _walk, builder) => {
  if (!lastInBlock(elem)) builder.addLineBreak();
  else if (!hasShownSibling(elem, -1) && BLOCKS.has(elem.parent?.name ?? '')) builder.addInline(EMPTY_LINE);
};

const cell: FormatCallback = (elem, walk, builder) => {
  walk(elem.children, builder);
  builder.addInline(' ');
};

const rule: FormatCallback = (_elem, _walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 1 });
  builder.addInline('_'.repeat(32));
  builder.closeBlock({ trailingLineBreaks: 1 });
};

const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  formatters: { cell, rule, lineBreak },
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
    { selector: 'br', format: 'lineBreak' },
    { selector: 'blockquote', format: 'blockquote', options: { leadingLineBreaks: 1, trailingLineBreaks: 1, trimEmptyLines: true } },
    { selector: 'div.yahoo_quoted', format: 'blockquote', options: { leadingLineBreaks: 1, trailingLineBreaks: 1, trimEmptyLines: true } },
    // Gmail's and WebKit's "indent" button also writes <blockquote>, styled without a border:
    // that is the player's own text, indented, not a quote.
    ...['blockquote[style*="border:none"]', 'blockquote[style*="border: none"]'].map((selector) => ({ selector, ...block() })),
  ],
};

/** Text of an HTML mail body, laid out as a mail client's text/plain alternative would be. */
export function htmlToText(html: string): string {
  let text: string;
  try {
    text = convert(html, OPTIONS);
  } catch {
    // html-to-text gives up only on pathological input: fall back to stripping tags.
    text = html.replace(/<!--[\s\S]*?-->|<(script|style|head)\b[\s\S]*?<\/\1\s*>|<[^>]*>/gi, ' ');
  }
  return text
    .replace(/\u00a0/g, ' ')
    .replace(/\ue000/g, '')
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n');
}
