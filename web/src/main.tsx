import { render } from 'preact';
import { App } from './app';
import { startOffline } from './offline/register';
import { startEarlyLoad } from './reader/early-load';
import { startLiveUpdates } from './state/live';
import { applyTheme } from './state/theme';
import './styles.css';
// The reader's styles ride with the app's (1.4 KB gzip): a book opened by address then waits for one
// stylesheet, not a second one behind the reader's script.
import './reader/reader.css';

// A chunk named by an older deploy is gone after a new one: reload once to get the new names.
addEventListener('vite:preloadError', () => {
  if (!sessionStorage.getItem('longbox.reloaded')) {
    sessionStorage.setItem('longbox.reloaded', '1');
    location.reload();
  }
});

const LIVE_UPDATES_DELAY_IN_READER_MS = 3000;

applyTheme();
startOffline();
// A book opened by address: the book and the reader's code load beside the app shell, not after it.
startEarlyLoad();
if (location.pathname.startsWith('/read/')) void import('./reader/index');
// Live catalogue updates are for the browsing screens; in the reader their stream would take one of the
// browser's six connections and the server's time while the first page loads, so it opens later there.
if (location.pathname.startsWith('/read/')) setTimeout(startLiveUpdates, LIVE_UPDATES_DELAY_IN_READER_MS);
else startLiveUpdates();
render(<App />, document.getElementById('app')!);
