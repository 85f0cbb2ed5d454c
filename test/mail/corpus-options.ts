// Settings the fixture corpus is written for, shared by the corpus test, the CLI test and (later)
// the Dovecot end-to-end run: domain sf.example, orders+<secret>@sf.example, 10 MB cap.
import type { ExtractOptions } from '../../src/mail/extract.ts';

export const CORPUS_OPTIONS: ExtractOptions = {
  maxBytes: 10 * 1024 * 1024,
  ourDomain: 'sf.example',
  ordersLocalPart: 'orders',
  ourAddresses: ['orders@sf.example'],
};

/** The shape of `fixtures/*.expected.json`. Absent optional keys are not checked. */
export interface Expected {
  description: string;
  /** A smaller cap for this fixture (the oversized case without a 10 MB file in the repo). */
  maxBytes?: number;
  automatic: boolean;
  gameTag: string | null;
  secret: string | null;
  orders: string[];
  hostility: string[] | null;
  vote: string | null;
  /** Codes of `problems`, in order: mail-* first, then the parser's by line. */
  problemCodes: string[];
  sheetText?: string;
  sheetTextIncludes?: string[];
  sheetTextExcludes?: string[];
  sheetSource?: 'text' | 'html' | 'attachment' | 'none';
  from?: string;
  secretSource?: 'address' | 'code-line' | 'subject';
  /** Default false. */
  oversized?: boolean;
  /** Whether `broken` is set; default false. */
  broken?: boolean;
  normalisedCodes?: string[];
  automaticReasonsInclude?: string[];
  /** Free text for the reader: what the intake should then do (e.g. a spoofed sender). */
  note?: string;
}
