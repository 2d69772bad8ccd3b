/** Worker entry: the HTTP app and the Durable Object classes. No logic lives here. */
import { createApp } from './app';

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
