import { render } from 'preact';
import { App } from './app';
import { startOffline } from './offline/register';
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
// A book opened by address: its reader (which starts loading the book) comes in beside the shell.
if (location.pathname.startsWith('/read/')) void import('./reader/index');
startLiveUpdates();
render(<App />, document.getElementById('app')!);
