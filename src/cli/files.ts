// Reading a file named on the command line: the reason it cannot be read, in words.
const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
};

export function cannotRead(file: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return `cannot read ${file}: ${REASONS[code] ?? (code || 'unreadable')}${code && REASONS[code] ? ` (${code})` : ''}`;
}
