// Password hashing (argon2, costly by design; bench:http's login flood) runs through a small
// queue: a few at a time and a bounded number waiting; beyond that a login is refused at once,
// before any hashing, so that a flood of logins cannot take the CPU the public pages need.
export interface HashingPlace {
  /** Runs the work when its turn comes; the place is given up when it ends. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives up the place without running (the attempt was refused first). */
  leave(): void;
}

export class HashingQueue {
  private admitted = 0;
  private running = 0;
  private readonly turns: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  /** A place in the queue, or null when it is full. */
  enter(): HashingPlace | null {
    if (this.full) return null;
    this.admitted++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      this.admitted--;
    };
    return {
      leave,
      run: async <T>(work: () => Promise<T>): Promise<T> => {
        if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.turns.push(resolve));
        else this.running++;
        try {
          return await work();
        } finally {
          // The turn passes straight to the next in line (running stays the same), or is freed.
          const next = this.turns.shift();
          if (next) next();
          else this.running--;
          leave();
        }
      },
    };
  }

  /** Whether enter() would refuse now. */
  get full(): boolean {
    return this.admitted >= this.concurrency + this.maxWaiting;
  }

  /** Places taken (running and waiting), for tests and logs. */
  get size(): number {
    return this.admitted;
  }
}
