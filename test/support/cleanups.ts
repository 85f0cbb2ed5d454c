// Undo steps for tests that start servers, databases and temp dirs: run newest first, each one
// even when an earlier one failed, so a failing test never leaves a Dovecot or a database behind.
export class Cleanups {
  private readonly steps: (() => Promise<unknown>)[] = [];

  push(step: () => Promise<unknown>): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    while (this.steps.length) {
      try {
        await this.steps.pop()!();
      } catch (err) {
        console.error('cleanup failed:', err);
      }
    }
  }
}
