import { Unavailable } from './errors.ts';

/**
 * At most `max` runs at once in this process; the others wait their turn in arrival order, each
 * for at most `maxWaitMs`, then give up with `Unavailable` (503 with Retry-After). In front of
 * work that needs several database connections one after the other (placing an order), it keeps
 * a burst from taking every pooled connection in turns, where each request queues at the pool
 * again for each step and all of them finish late: admitted runs go through at the pool's pace
 * and the rest wait here, first come first served.
 */
export class WaitingGate {
  private running = 0;
  private readonly queue: { admit: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    readonly max: number,
    readonly maxWaitMs: number,
    private readonly busy: () => Unavailable = () => new Unavailable(),
  ) {}

  /** How many runs wait for their turn now. */
  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await fn();
    } finally {
      this.leave();
    }
  }

  private enter(): Promise<void> {
    if (this.running < this.max) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry = {
        admit: resolve,
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(entry), 1);
          reject(this.busy());
        }, this.maxWaitMs),
      };
      this.queue.push(entry);
    });
  }

  /** The next in line takes the place over (the count stays); without one it is given back. */
  private leave(): void {
    const next = this.queue.shift();
    if (!next) {
      this.running -= 1;
      return;
    }
    clearTimeout(next.timer);
    next.admit();
  }
}
