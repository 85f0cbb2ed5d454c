// defineTexts: the English catalogue must have exactly the Italian one's keys and types; the
// catalogues that must not compile are in define-texts.types.ts.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { defineTexts, mail } from '../../src/text/define.ts';
import { good } from './define-texts.types.ts';

describe('defineTexts', () => {
  it('gives each language its texts', () => {
    expect(good.it.turn(3)).toBe('Turno 3');
    expect(good.en.turn(3)).toBe('Turn 3');
    expect([good.en.title, good.en.note(true), good.it.nested.a]).toEqual(['Turn', 'late', 'uno']);
  });

  it('mail(): the body starts after its first line break, lines end with LF, the subject is trimmed', () => {
    expect(mail(' [SF g] Hi ', '\nline 1\r\nline 2\n')).toEqual({ subject: '[SF g] Hi', text: 'line 1\nline 2\n' });
  });

  it('a value is inserted as written, never read for placeholders', () => {
    const texts = defineTexts({
      it: { hello: (v: { player: string; secret: string }) => mail(`Ciao`, `\nCiao ${v.player}, ${v.secret}\n`) },
      en: { hello: (v) => mail(`Hi`, `\nHello ${v.player}, ${v.secret}\n`) },
    });
    expect(texts.en.hello({ player: '{{secret}} ${v.secret} $&', secret: 's3' }).text).toBe('Hello {{secret}} ${v.secret} $&, s3\n');
  });

  it('every @ts-expect-error in define-texts.types.ts marks a compile error, and nothing else is one', () => {
    const file = fileURLToPath(new URL('define-texts.types.ts', import.meta.url));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      types: [],
      lib: ['lib.es2022.d.ts'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => d.file?.fileName === file);
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  }, 60_000);
});
