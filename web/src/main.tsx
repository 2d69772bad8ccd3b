import { render } from 'preact';
import { App } from './app';
import { startOffline } from './offline/register';
import { startEarlyLoad } from './reader/early-load';
import { startLiveUpdates } from './state/live';
import { applyTheme } from './state/theme';
import './styles.css';

// A chunk named by an older deploy is gone after a new one: reload once to get the new names.
addEventListener('vite:preloadError', () => {
  if (!sessionStorage.getItem('longbox.reloaded')) {
    sessionStorage.setItem('longbox.reloaded', '1');
    location.reload();
  }
});

applyTheme();
startOffline();
// A book opened by address: the book and the reader's code load beside the app shell, not after it.
startEarlyLoad();
if (location.pathname.startsWith('/read/')) void import('./reader/index');
startLiveUpdates();
render(<App />, document.getElementById('app')!);
