import type { Logger } from 'pino';

/** Periodic jobs of a server process (sweeps); started by the server, not by tests unless they ask. */
export class BackgroundTasks {
  private tasks: { name: string; everyMs: number; run: () => Promise<void> }[] = [];
  private timers: NodeJS.Timeout[] = [];
  private running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  every(name: string, everyMs: number, run: () => Promise<void>): void {
    this.tasks.push({ name, everyMs, run });
  }

  start(): void {
    for (const t of this.tasks) {
      const timer = setInterval(() => {
        const p = t
          .run()
          .catch((err: unknown) => this.logger.warn({ err, task: t.name }, 'background task failed'));
        this.running.add(p);
        void p.finally(() => this.running.delete(p));
      }, t.everyMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Runs one job now, as its timer would (tests use it instead of waiting for the interval). */
  async runNow(name: string): Promise<void> {
    const task = this.tasks.find((t) => t.name === name);
    if (!task) throw new Error(`no background task named ${name}`);
    await task.run();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await Promise.allSettled([...this.running]);
  }
}
