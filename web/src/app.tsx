/**
 * The app shell: routes, the signed-in guard, the first-run redirect and the header. Screens other
 * than the first ones a visitor sees (home, login, registration, the setup wizard) are lazy chunks, so
 * the initial download stays small; the reader (web/src/reader) loads only when a book is opened. The
 * first-run screens are in the first download because they are forms: a lazy route is drawn when its
 * chunk arrives, and a visitor must be able to type the moment a form is on screen.
 */
import { useSignalEffect } from '@preact/signals';
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { Header } from './components/header';
import { t } from './i18n';
import { currentPath } from './state/navigation';
import { session } from './state/session';
import { firstRunRedirect, loadSetupStatus, PUBLIC_PATHS, setupStatus } from './state/setup';
import { LoginScreen } from './screens/login';
import { HomeScreen } from './screens/home';
import { NotFoundScreen } from './screens/not-found';
import { RegisterScreen } from './screens/register';
import { SetupScreen } from './screens/setup';

const ReaderRoute = lazy(() => import('./reader/index').then((module) => module.ReaderScreen));
const AccountScreen = lazy(() => import('./screens/account').then((module) => module.AccountScreen));
const LibrariesScreen = lazy(() => import('./screens/libraries').then((module) => module.LibrariesScreen));
const SeriesGridScreen = lazy(() => import('./screens/series-grid').then((module) => module.SeriesGridScreen));
const SeriesScreen = lazy(() => import('./screens/series').then((module) => module.SeriesScreen));
const BookScreen = lazy(() => import('./screens/book').then((module) => module.BookScreen));
const SearchScreen = lazy(() => import('./screens/search').then((module) => module.SearchScreen));
const CollectionsScreen = lazy(() => import('./screens/collections').then((module) => module.CollectionsScreen));
const CollectionScreen = lazy(() => import('./screens/collections').then((module) => module.CollectionScreen));
const ReadListsScreen = lazy(() => import('./screens/read-lists').then((module) => module.ReadListsScreen));
const ReadListScreen = lazy(() => import('./screens/read-lists').then((module) => module.ReadListScreen));
const ReleasesScreen = lazy(() => import('./screens/releases').then((module) => module.ReleasesScreen));
const StatisticsScreen = lazy(() => import('./statistics/statistics-screen').then((module) => module.StatisticsScreen));
const AdminScreen = lazy(() => import('./admin/admin').then((module) => module.AdminScreen));

export function App() {
  return (
    <LocationProvider>
      <ErrorBoundary>
        <Shell />
      </ErrorBoundary>
    </LocationProvider>
  );
}

function Shell() {
  const { path, route } = useLocation();
  const setup = setupStatus.value;
  const signedIn = session.value !== null;
  const isPublic = PUBLIC_PATHS.includes(path);
  const needsSetupStatus = !signedIn || isPublic;
  const redirect = setup && firstRunRedirect(setup, path, signedIn);

  useEffect(() => {
    if (needsSetupStatus) void loadSetupStatus();
  }, [needsSetupStatus]);

  useEffect(() => {
    if (redirect) route(redirect, true);
  }, [redirect]);

  useSignalEffect(() => {
    // Signed out (logout, expired token) on a private page: to the login screen, then back here.
    if (session.value === null && !PUBLIC_PATHS.includes(location.pathname)) {
      route(`/login?next=${encodeURIComponent(currentPath())}`, true);
    }
  });

  // Nothing is drawn that is about to be replaced: a form shown and then swapped loses what was typed.
  if (!setup && needsSetupStatus) return <Splash />;
  if (redirect || (!signedIn && !isPublic)) return <Splash />;

  return (
    <>
      {/* The readers are one landmark with nothing before it to skip. */}
      {!path.startsWith('/read/') && (
        <a class="skip-link" href="#main">
          {t('app.skipToContent')}
        </a>
      )}
      {signedIn && !path.startsWith('/read/') && path !== '/setup' && <Header />}
      <Router>
        <Route path="/setup" component={SetupScreen} />
        <Route path="/login" component={LoginScreen} />
        <Route path="/register" component={RegisterScreen} />
        <Route path="/" component={HomeScreen} />
        <Route path="/account" component={AccountScreen} />
        <Route path="/libraries" component={LibrariesScreen} />
        <Route path="/libraries/:libraryId" component={SeriesGridScreen} />
        <Route path="/series/:seriesId" component={SeriesScreen} />
        <Route path="/books/:bookId" component={BookScreen} />
        <Route path="/search" component={SearchScreen} />
        <Route path="/collections" component={CollectionsScreen} />
        <Route path="/collections/:collectionId" component={CollectionScreen} />
        <Route path="/readlists" component={ReadListsScreen} />
        <Route path="/readlists/:readListId" component={ReadListScreen} />
        <Route path="/releases" component={ReleasesScreen} />
        <Route path="/statistics" component={StatisticsScreen} />
        <Route path="/admin/*" component={AdminScreen} />
        <Route path="/admin" component={AdminScreen} />
        <Route path="/read/:bookId" component={ReaderRoute} />
        <Route default component={NotFoundScreen} />
      </Router>
    </>
  );
}

function Splash(): preact.JSX.Element {
  return (
    <div class="splash" aria-busy="true">
      {t('app.loading')}
    </div>
  );
}
