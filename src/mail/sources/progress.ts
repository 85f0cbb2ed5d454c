// How far a mail source has read: the turn job closes a turn only once every mail the mail server
// received before the deadline has been read (issue: catching up after an outage).
//
// A drain that STARTED at time T and finished delivered everything the mailbox held at T. While the
// source then waits in IMAP IDLE on a live connection, the server would tell it about new mail at
// once, so it is caught up as of now; a polling source only as of its last drain's start.
export class SourceProgress {
  private drainedFrom: number | null = null;
  private listening = false;

  constructor(private readonly now: () => number = Date.now) {}

  /** Call right before a drain; hand the result to drained() if it completes. */
  drainStarting(): number {
    this.listening = false;
    return this.now();
  }

  drained(startedAt: number): void {
    this.drainedFrom = startedAt;
  }

  /** In IDLE after a complete drain (true), or no longer (false: woken, disconnected, polling). */
  listen(on: boolean): void {
    this.listening = on && this.drainedFrom !== null;
  }

  /** Every mail received before this instant (ms) has been delivered; null before the first drain. */
  caughtUpAsOf(): number | null {
    return this.listening ? this.now() : this.drainedFrom;
  }
}
