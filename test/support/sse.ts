/** A Server-Sent Events response read as it arrives: the events (id, parsed data) and whether it has ended. */
export interface EventStreamReader {
  events: Array<{ id: number; data: Record<string, any> }>;
  /** True once the server ended the stream or the connection broke. */
  readonly ended: boolean;
  close(): Promise<void>;
}

export function readEventStream(response: Response): EventStreamReader {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: EventStreamReader['events'] = [];
  let ended = false;
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (id && data) events.push({ id: Number(id), data: JSON.parse(data) });
        }
      }
    } catch {
      // a connection that broke has ended too
    }
    ended = true;
  })();
  return {
    events,
    get ended() {
      return ended;
    },
    async close() {
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}
