/**
 * The longbox-jobs worker's entry (consumers/wrangler.toml): the book-work queue consumers, nothing
 * else. A worker of its own so the per-book work scales and is limited apart from the API — and, under
 * `npm start`, runs in its own workerd process, on its own core, while the API stays responsive.
 */
import { withInjectedFaults } from '../src/fault-injection/platform-faults';
import { consumeQueue } from './queues';

export default {
  async fetch() {
    return new Response('longbox-jobs consumes queues only\n', { status: 404 });
  },
  // The environment itself, unless a test installed a fault injector (docs/RELIABILITY.md, "Faults").
  queue: (batch, env, ctx) => consumeQueue(batch, withInjectedFaults(env), ctx),
} satisfies ExportedHandler<Env>;
