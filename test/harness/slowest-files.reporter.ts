// Prints the slowest test files at the end of a run, so that a file growing slow is seen the day
// it happens (the whole `npm test` is to stay under 10 minutes on a 2-core machine).
// "Time" is the file's wall time in its worker: importing it plus its tests and hooks.
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const timed = modules
      .map((m) => {
        const d = m.diagnostic();
        return { name: m.relativeModuleId, project: m.project.name, ms: d.collectDuration + d.duration, state: m.state() };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (timed.length === 0) return;
    const lines = timed.map(
      (t) => `${(t.ms / 1000).toFixed(1).padStart(7)} s  ${t.project.padEnd(11)} ${t.name}${t.state === 'passed' ? '' : `  (${t.state})`}`,
    );
    process.stdout.write(`\n Slowest test files\n${lines.join('\n')}\n\n`);
  }
}
