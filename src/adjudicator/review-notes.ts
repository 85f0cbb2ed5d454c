// What a sheet says about the vote and the Capital that the parser reads without a word (D-PARSE-15):
// an abstention (`V: nessuno`) is a choice, not an error, and is confirmed in a note that leaves
// the sheet valid; an `E:` cell on the board but off the Capital can never be used (R-ELEC-5) and
// is a problem, as an off-board one is (D-PARSE-2). Pure, and linear in the sheet.
import { isNobody } from './faction-names.ts';
import type { Board } from './map.ts';
import type { ParsedSheet, Problem } from './types.ts';

const VOTE_KEYWORDS = new Set(['v', 'voto', 'vote']);

/** The note for the last `V:` line when it abstains; null when there is none. */
export function abstentionNote(text: string, parsed: ParsedSheet): Problem | null {
  if (parsed.vote !== null) return null;
  const last = lastVoteLine(text);
  if (!last || !isNobody(last.rest)) return null;
  return {
    line: last.line,
    code: 'vote-abstain',
    rule: 'R-ORD-3',
    message: {
      it: `Riga ${last.line}: ti astieni: nessun voto è espresso.`,
      en: `Line ${last.line}: you abstain: no vote is cast.`,
    },
  };
}

/** The problem with an `E:` cell that is on the board but not a Capital cell (R-ELEC-5). */
export function eliminateProblem(board: Board, parsed: ParsedSheet): Problem | null {
  const e = parsed.eliminate;
  if (!e) return null;
  const cell = board.parseCell(e.cell);
  if (cell === null || board.isCapital[cell]) return null; // off the board: the parser reported it
  const capital = board.map.capital.join(', ');
  return {
    line: e.line,
    code: 'eliminate-not-capital',
    rule: 'R-ELEC-5',
    message: {
      it: `Riga ${e.line}: ${e.cell} non è una casella della Capitale (${capital}): la riga E: non avrà effetto.`,
      en: `Line ${e.line}: ${e.cell} is not a Capital cell (${capital}): the E: line will have no effect.`,
    },
  };
}

/**
 * The last line whose keyword is V (D-PARSE-10, after a list bullet, D-PARSE-11), with what
 * follows its colon. Lines are counted as the parser counts them (\r\n, \n or \r end one).
 */
function lastVoteLine(text: string): { line: number; rest: string } | null {
  let found: { line: number; rest: string } | null = null;
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    line++;
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
    const rest = voteRest(text, start, end);
    if (rest !== null) found = { line, rest };
    start = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
  }
  return found;
}

/** What follows `V:` on a line, trimmed, or null if the line is not a V: line. No regular expression: lines may be long. */
function voteRest(text: string, start: number, end: number): string | null {
  let i = start;
  const skipSpaces = () => {
    while (i < end && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  skipSpaces();
  if (i < end && '-*•'.includes(text[i]!) && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
    i++;
    skipSpaces();
  }
  const k = i;
  while (i < end && i - k <= 5 && /[a-z]/i.test(text[i]!)) i++;
  if (!VOTE_KEYWORDS.has(text.slice(k, i).toLowerCase())) return null;
  skipSpaces();
  if (text[i] !== ':') return null;
  const rest = text.slice(i + 1, Math.min(end, i + 1 + 40)); // isNobody needs no more than a dozen characters
  return end - (i + 1) > 40 ? rest + '…' : rest.replace(/[ .,;]+$/, '').trim(); // at most 40 characters: linear
}
