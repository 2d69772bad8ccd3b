// A Chrome DevTools Protocol client for the inspector `wrangler dev --inspector-port` exposes (it forwards to
// the worker's isolate in workerd): the isolate's JS heap use, a forced garbage collection, and heap snapshots
// summarised by constructor, so two snapshots taken some traffic apart show what the isolate kept.

/**
 * Connects to ws://127.0.0.1:<port>/ws (wrangler's inspector proxy) and enables the heap profiler.
 *
 * workerd dispatches inspector commands to an isolate only when the isolate has something to run: an idle one
 * leaves a command waiting until its next request or timer (`npm start`'s cron tick, up to a minute later).
 * `wake`, if given, is called every 250 ms while a command is unanswered — a cheap request to the worker
 * (GET /api/v1/health) — so a sample taken between two rounds of traffic is answered at once.
 */
export async function connectInspector(port, { timeoutMs = 30_000, wake } = {}) {
  // The inspector proxy accepts DevTools from its allowed origins only, loopback among them.
  const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Origin: 'http://127.0.0.1' } });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`inspector on ${port} did not open`)), timeoutMs);
    socket.addEventListener('open', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.addEventListener('error', (event) => {
      clearTimeout(timer);
      reject(new Error(`inspector on ${port}: ${event.message ?? 'error'}`));
    });
  });
  let nextId = 1;
  const pending = new Map();
  const listeners = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(typeof event.data === 'string' ? event.data : Buffer.from(event.data).toString());
    if (message.id !== undefined) {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(`${message.error.message} (${message.error.code})`));
      else waiter?.resolve(message.result);
    } else listeners.get(message.method)?.(message.params);
  });
  const send = (method, params = {}, timeout = timeoutMs) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const waking = wake ? setInterval(() => wake().catch(() => {}), 250) : undefined;
      const done = () => {
        clearTimeout(timer);
        clearInterval(waking);
      };
      const timer = setTimeout(() => {
        pending.delete(id);
        done();
        reject(new Error(`${method} timed out`));
      }, timeout);
      pending.set(id, {
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('HeapProfiler.enable');

  return {
    /** {usedSize, totalSize} of the isolate's V8 heap, bytes. */
    heapUsage: () => send('Runtime.getHeapUsage'),
    collectGarbage: () => send('HeapProfiler.collectGarbage', {}, 120_000),
    /** A heap snapshot (after a full GC), summarised: per `type:name`, count and self size. */
    async heapSummary() {
      const chunks = [];
      listeners.set('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk));
      try {
        await send('HeapProfiler.collectGarbage', {}, 120_000);
        await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false }, 300_000);
      } finally {
        listeners.delete('HeapProfiler.addHeapSnapshotChunk');
      }
      return summarizeSnapshot(JSON.parse(chunks.join('')));
    },
    close: () => socket.close(),
  };
}

/** Count and self size per node type and name (constructor for objects) of a V8 heap snapshot. */
export function summarizeSnapshot(snapshot) {
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const typeNames = types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byName = new Map();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = typeNames[snapshot.nodes[i + typeAt]];
    let name = snapshot.strings[snapshot.nodes[i + nameAt]];
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = '(strings)';
    else if (type === 'code') name = '(code)';
    else if (type === 'number') name = '(numbers)';
    else if (name.length > 60) name = `${name.slice(0, 57)}...`;
    const key = `${type}:${name}`;
    const size = snapshot.nodes[i + sizeAt];
    total += size;
    const entry = byName.get(key) ?? { count: 0, size: 0 };
    entry.count += 1;
    entry.size += size;
    byName.set(key, entry);
  }
  return { total, byName };
}

/** What grew from `before` to `after`, largest growth first. */
export function diffSummaries(before, after, top = 25) {
  const rows = [];
  for (const [key, a] of after.byName) {
    const b = before.byName.get(key) ?? { count: 0, size: 0 };
    rows.push({ key, count: a.count - b.count, size: a.size - b.size, after: a.size });
  }
  return rows.sort((x, y) => y.size - x.size).slice(0, top);
}
