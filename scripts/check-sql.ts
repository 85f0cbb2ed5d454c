// SQL is written only in src/db (its repositories, named for what they do): this fails when a file
// elsewhere in src/ builds a query. Run by CI: `node scripts/check-sql.ts` (exit 1 and one line per
// place when it finds one).
//
// What counts, decided by the compiler rather than by the look of a line:
// - a value import of drizzle-orm (its `sql` tag, its operators) or of the tables in src/db/schema.ts;
// - a call of select/insert/update/delete/execute/… on a Drizzle database or transaction.
// So `createHash(…).update(…)` and `map.delete(…)`, which a grep for `.update(` or `.delete(` also
// finds, are not queries: their receivers are a Hash and a Map.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src') + path.sep;
const dataLayer = path.join(root, 'src', 'db') + path.sep;
const QUERY_METHODS = new Set([
  'select',
  'selectDistinct',
  'selectDistinctOn',
  'insert',
  'update',
  'delete',
  'execute',
  'with',
  'query',
  '$count',
  'refreshMaterializedView',
]);
const fromDrizzle = (file: string) => file.includes(`${path.sep}node_modules${path.sep}drizzle-orm${path.sep}`);

const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), (f) => ts.sys.readFile(f));
const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
const files = parsed.fileNames.filter((f) => path.resolve(f).startsWith(src) && !path.resolve(f).startsWith(dataLayer));
const program = ts.createProgram(files, parsed.options);
const checker = program.getTypeChecker();

/** Whether a value of this type is a Drizzle database, transaction or query builder. */
function isDrizzle(type: ts.Type): boolean {
  if (type.isUnion() || type.isIntersection()) return type.types.some(isDrizzle);
  // Not the alias (src/db's `Db` names a Drizzle type): what it stands for.
  return [type.getSymbol(), type.aliasSymbol].some((s) => (s?.declarations ?? []).some((d) => fromDrizzle(d.getSourceFile().fileName)));
}

const found: string[] = [];
for (const file of files) {
  const sf = program.getSourceFile(file)!;
  const at = (node: ts.Node, what: string) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push(`${path.relative(root, file)}:${line + 1}: ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !node.importClause?.isTypeOnly) {
      const from = node.moduleSpecifier.text;
      const named = node.importClause?.namedBindings;
      const values = named && ts.isNamedImports(named) ? named.elements.filter((e) => !e.isTypeOnly) : [];
      const anyValue =
        node.importClause === undefined ||
        node.importClause.name !== undefined ||
        values.length > 0 ||
        (named !== undefined && !ts.isNamedImports(named));
      if (anyValue && (from === 'drizzle-orm' || from.startsWith('drizzle-orm/'))) at(node, `imports ${from}: queries belong in src/db`);
      if (anyValue && /(^|\/)db\/schema\.ts$/.test(from)) at(node, 'imports the tables of src/db/schema.ts: queries belong in src/db');
    }
    if (ts.isPropertyAccessExpression(node) && QUERY_METHODS.has(node.name.text) && isDrizzle(checker.getTypeAtLocation(node.expression))) {
      at(node, `.${node.name.text} on the database: a query; move it into a repository function in src/db`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

if (found.length) {
  process.stderr.write(`SQL outside src/db (${found.length}):\n${found.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`no SQL outside src/db (${files.length} files checked)\n`);
