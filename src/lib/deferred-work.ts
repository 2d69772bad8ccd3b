/**
 * Work a request leaves for after its answer (the runtime's `waitUntil`). It is handed over as a function
 * that starts it, not as a promise already running, so that it can be held back: an answer made before the
 * caller's credentials were checked (docs/ARCHITECTURE.md, "The credential check beside the request") must
 * not have started anything by the time the check refuses the caller. Held work starts when released and
 * is never started when dropped.
 */

/** Starts one piece of work. */
export type Deferred = () => Promise<unknown>;

export interface DeferOptions {
  /**
   * How many more times to try work that must not be lost when it fails (a record nobody could otherwise
   * rebuild), waiting a little longer each time; default 0. Every failure is logged either way.
   */
  retries?: number;
  /** Called instead when the work is dropped unstarted (to release what it would have consumed). */
  dropped?: () => void;
}

export type Defer = (work: Deferred, options?: DeferOptions) => void;

/** What the owner of the request's work reports a failure to. */
export type DeferredFailure = (error: unknown, attempt: { number: number; final: boolean }) => void;

const FIRST_RETRY_DELAY_MS = 200;

export class DeferredWork {
  private held: Array<[Deferred, DeferOptions | undefined]> | null = null;

  constructor(
    private readonly waitUntil: (work: Promise<unknown>) => void,
    private readonly failed: DeferredFailure,
  ) {}

  /** Runs `work` after the answer; while held, once released. */
  readonly defer: Defer = (work, options) => {
    if (this.held) this.held.push([work, options]);
    else this.start(work, options);
  };

  /** Runs `work` after the answer even while other work is held (the credential check's own bookkeeping). */
  readonly deferUnheld: Defer = (work, options) => this.start(work, options);

  /** Work deferred from now on waits for `release` or `drop`. */
  hold(): void {
    this.held ??= [];
  }

  /** Starts the work held so far; later work starts at once. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const [work, options] of held) this.start(work, options);
  }

  /** Forgets the work held so far, unstarted; later work starts at once. */
  drop(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const [, options] of held) options?.dropped?.();
  }

  private start(work: Deferred, options: DeferOptions | undefined): void {
    this.waitUntil(this.attempt(work, 1, options?.retries ?? 0));
  }

  private async attempt(work: Deferred, number: number, retries: number): Promise<void> {
    try {
      await work();
    } catch (error) {
      const final = number > retries;
      this.failed(error, { number, final });
      if (final) return;
      await new Promise((resolve) => setTimeout(resolve, FIRST_RETRY_DELAY_MS * 4 ** (number - 1)));
      await this.attempt(work, number + 1, retries);
    }
  }
}
