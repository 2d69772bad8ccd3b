// Longbox laid out as `npm start` runs it (scripts/start.mjs): the API worker in one `wrangler dev`
// process, the book-work queue consumers and the native-image worker in a second one, over one local
// state and one dev registry private to it (how the API's queue reaches the consumers, and the consumers
// the API's EventHub). A bench that scans books needs both: with the API alone, the per-book work (page
// sizes, hashes, thumbnails) is queued and never done. Each process is its own group, so a bench can
// measure the API's CPU apart from the consumers'.
import path from 'node:path';
import { startWranglerDev } from './wrangler-dev.mjs';

/** `sources` as snapshotSources returns them; `vars` reach both processes, as `npm start`'s LONGBOX_* do. */
export async function startLongbox({ sources, persistTo, vars = {} }) {
  const registry = path.join(persistTo, 'dev-registry');
  const api = await startWranglerDev({ config: sources.api, persistTo, readyPath: '/api/v1/health', vars, registry });
  let jobs;
  try {
    // The jobs worker answers every request 404 (it only consumes queues): that answer means it is up.
    jobs = await startWranglerDev({
      config: [sources.consumers, sources.renderer],
      persistTo,
      readyPath: '/',
      readyStatus: 404,
      vars,
      registry,
    });
  } catch (error) {
    await api.stop();
    throw error;
  }
  return {
    url: api.url,
    jobsUrl: jobs.url,
    output: () => `${api.output()}\n${jobs.output()}`,
    errors: () => [...api.errors(), ...jobs.errors()],
    stop: async () => {
      await jobs.stop();
      await api.stop();
    },
  };
}
