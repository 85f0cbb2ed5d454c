// What a sheet row keeps of its reading (sheets.parsed). The text is stored once, in
// sheets.text; the reading refers to it by line number and never copies it (a problem
// per order on a 15 KB line copied the line thousands of times, 61 MB for one sheet). Nothing
// reads this back to adjudicate — the edict reads the text again — so it is for the referee.
import type { SheetReview } from '../../adjudicator/review.ts';

export interface StoredReview {
  orders: Array<{ order: string; line: number; applies: boolean }>;
  hostility: string[];
  vote: string | null;
  eliminate: { cell: string; line: number } | null;
  problems: Array<{ line: number; code: string; rule?: string }>;
  normalised: Array<{ line: number; code: string }>;
  notes: Array<{ line: number; code: string }>;
}

/** Orders are kept as read (canonical and short: an order names two cells). */
export function storedReview(review: SheetReview): StoredReview {
  const e = review.parsed.eliminate;
  return {
    orders: review.orders.map((o) => ({ order: o.order, line: o.line, applies: o.applies })),
    hostility: [...review.hostility],
    vote: review.vote,
    eliminate: e ? { cell: e.cell, line: e.line } : null,
    problems: review.problems.map((p) => (p.rule ? { line: p.line, code: p.code, rule: p.rule } : { line: p.line, code: p.code })),
    normalised: review.normalised.map((p) => ({ line: p.line, code: p.code })),
    notes: (review.notes ?? []).map((p) => ({ line: p.line, code: p.code })),
  };
}
