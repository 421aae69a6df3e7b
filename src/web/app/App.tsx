import { PageSpinner } from '@web/components/ui/Spinner.tsx';
import { prefetchGames } from '@web/features/games/api/prefetch-games.ts';
import { HOME_FIRST_TAB } from '@web/features/games/lib/home-tabs.ts';
import { prefetchNotifications } from '@web/features/notifications/api/prefetch-notifications.ts';
import { savingData } from '@web/lib/data-saver.ts';
import { HydrationState } from '@web/lib/hydrated.tsx';
import { useSession } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import {
  type ComponentProps,
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useState,
} from 'react';
import { Route, Router, Switch } from 'wouter';
import { SandboxBanner } from './layout/SandboxBanner.tsx';
import { RouteAnnouncer } from './RouteAnnouncer.tsx';
import { caseInsensitiveParser } from './routing.ts';
import { ScreenBoundary, ScreenCodeError } from './ScreenBoundary.tsx';
import { SessionGate } from './SessionGate.tsx';

// biome-ignore lint/suspicious/noExplicitAny: React's lazy() is itself typed with ComponentType<any>.
type AnyComponent = ComponentType<any>;

/** A route component whose code can also be fetched ahead of its first render. */
type Page<P> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * A route component loaded on first use, so each screen ships in its own chunk. When its code
 * is already there (see `preloadScreen`), it renders at once instead of through a Suspense
 * round, so a signed-in screen opened cold shows in one go rather than shell first.
 */
function page<K extends string, M extends Record<K, AnyComponent>>(
  load: () => Promise<M>,
  name: K,
): Page<ComponentProps<M[K]>> {
  let loaded: M[K] | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = module[name];
      return module;
    });
  // lazy() keeps a failed load for good, and a screen that never showed mounts afresh on each
  // render attempt: only ScreenBoundary's retry swaps in a wrapper that asks for the code again.
  const fresh = (): ReturnType<typeof lazy<AnyComponent>> =>
    lazy(() =>
      preload().then(
        (module) => ({ default: module[name] }),
        (error: unknown) => {
          throw new ScreenCodeError(error, () => {
            Lazy = fresh();
          });
        },
      ),
    );
  let Lazy = fresh();
  // biome-ignore lint/correctness/noComponentHookFactories: page() runs once per route when this module loads, never during a render, so each Screen is one stable component (as lazy() itself returns).
  function Screen(props: ComponentProps<M[K]>) {
    // Decided once per mount: switching from the lazy wrapper to the module would remount.
    const [Component] = useState<AnyComponent>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Screen, { preload });
}

const Protected = page(() => import('./guards.tsx'), 'Protected');
const PublicLayout = page(() => import('./layout/PublicLayout.tsx'), 'PublicLayout');
const LoginPage = page(() => import('@web/features/auth/routes/LoginPage.tsx'), 'LoginPage');
const SignupPage = page(() => import('@web/features/auth/routes/SignupPage.tsx'), 'SignupPage');
const VerifyEmailPage = page(
  () => import('@web/features/auth/routes/VerifyEmailPage.tsx'),
  'VerifyEmailPage',
);
const ValidateTokenPage = page(
  () => import('@web/features/auth/routes/ValidateTokenPage.tsx'),
  'ValidateTokenPage',
);
const ForgotPasswordPage = page(
  () => import('@web/features/auth/routes/ForgotPasswordPage.tsx'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = page(
  () => import('@web/features/auth/routes/ResetPasswordPage.tsx'),
  'ResetPasswordPage',
);
const PricingPage = page(() => import('@web/features/plans/routes/PricingPage.tsx'), 'PricingPage');
const UpgradeAccountPage = page(
  () => import('@web/features/plans/routes/UpgradeAccountPage.tsx'),
  'UpgradeAccountPage',
);
const UpgradeSuccessfulPage = page(
  () => import('@web/features/plans/routes/UpgradeSuccessfulPage.tsx'),
  'UpgradeSuccessfulPage',
);
const ProfilePage = page(
  () => import('@web/features/profile/routes/ProfilePage.tsx'),
  'ProfilePage',
);
const ResponsiblePlayPage = page(
  () => import('@web/features/responsible-play/routes/ResponsiblePlayPage.tsx'),
  'ResponsiblePlayPage',
);
const NotificationsPage = page(
  () => import('@web/features/notifications/routes/NotificationsPage.tsx'),
  'NotificationsPage',
);
const TermsPage = page(
  () => import('@web/features/static-pages/routes/TermsPage.tsx'),
  'TermsPage',
);
const PrivacyPage = page(
  () => import('@web/features/static-pages/routes/PrivacyPage.tsx'),
  'PrivacyPage',
);
const GameRulesPage = page(
  () => import('@web/features/static-pages/routes/GameRulesPage.tsx'),
  'GameRulesPage',
);
const SupportCenterPage = page(
  () => import('@web/features/static-pages/routes/SupportCenterPage.tsx'),
  'SupportCenterPage',
);
const FairnessPage = page(
  () => import('@web/features/static-pages/routes/FairnessPage.tsx'),
  'FairnessPage',
);
const HomePage = page(() => import('@web/features/games/routes/HomePage.tsx'), 'HomePage');
const GameDetailsPage = page(
  () => import('@web/features/games/routes/GameDetailsPage.tsx'),
  'GameDetailsPage',
);
const LeaderboardPage = page(
  () => import('@web/features/leaderboard/routes/LeaderboardPage.tsx'),
  'LeaderboardPage',
);
const MySubmissionsPage = page(
  () => import('@web/features/submissions/routes/MySubmissionsPage.tsx'),
  'MySubmissionsPage',
);
const TournamentPage = page(
  () => import('@web/features/tournaments/routes/TournamentPage.tsx'),
  'TournamentPage',
);
const SelectedTournamentPage = page(
  () => import('@web/features/tournaments/routes/SelectedTournamentPage.tsx'),
  'SelectedTournamentPage',
);
const SuccessfulSubmissionPage = page(
  () => import('@web/features/tournaments/routes/SuccessfulSubmissionPage.tsx'),
  'SuccessfulSubmissionPage',
);
// One chunk for the three wallet screens: see src/web/features/wallet/routes/index.ts.
const walletRoutes = () => import('@web/features/wallet/routes/index.ts');
const TopUpPage = page(walletRoutes, 'TopUpPage');
const WalletPage = page(walletRoutes, 'WalletPage');
const PaymentStatusPage = page(walletRoutes, 'PaymentStatusPage');
// The operator console: one lazy entry; it guards itself and routes within /admin.
const AdminApp = page(() => import('@web/features/admin/AdminApp.tsx'), 'AdminApp');
const NotFoundPage = page(() => import('./NotFoundPage.tsx'), 'NotFoundPage');

interface AppRoute {
  paths: string[];
  element: ReactNode;
}

/** Public routes of docs/product.md#screens (no session needed). */
const publicRoutes: AppRoute[] = [
  { paths: ['/login'], element: <LoginPage /> },
  { paths: ['/Signup'], element: <SignupPage /> },
  { paths: ['/verifyemail'], element: <VerifyEmailPage /> },
  { paths: ['/auth/validate/:token'], element: <ValidateTokenPage /> },
  { paths: ['/ForgotPassword'], element: <ForgotPasswordPage /> },
  { paths: ['/resetpassword'], element: <ResetPasswordPage /> },
];

const staticRoutes: AppRoute[] = [
  { paths: ['/Terms'], element: <TermsPage /> },
  { paths: ['/Privacy'], element: <PrivacyPage /> },
  { paths: ['/GameRules'], element: <GameRulesPage /> },
  { paths: ['/Fairness'], element: <FairnessPage /> },
  { paths: ['/SupportCenter'], element: <SupportCenterPage /> },
];

/** Protected routes of docs/product.md#screens, both spellings where the spec gives two. */
const protectedRoutes: Array<{
  paths: string[];
  Screen: Page<object>;
  /** Starts the screen's first request, on a cold start, alongside the session. */
  prefetch?: () => void;
  /** Shows while the session is restored (Home: the prerendered signed-in shell). */
  shell?: true;
}> = [
  {
    paths: ['/', '/Home'],
    Screen: HomePage,
    prefetch: () => prefetchGames(HOME_FIRST_TAB),
    shell: true,
  },
  { paths: ['/GameDetails'], Screen: GameDetailsPage },
  { paths: ['/LeaderBoard'], Screen: LeaderboardPage },
  { paths: ['/MySubmissions'], Screen: MySubmissionsPage },
  { paths: ['/Tournament'], Screen: TournamentPage },
  { paths: ['/PaymentStatus'], Screen: PaymentStatusPage },
  { paths: ['/UpgradeAccount/:id'], Screen: UpgradeAccountPage },
  { paths: ['/UpgradeSuccessful'], Screen: UpgradeSuccessfulPage },
  { paths: ['/SelectedTournament'], Screen: SelectedTournamentPage },
  { paths: ['/SuccessfulSubmission'], Screen: SuccessfulSubmissionPage },
  { paths: ['/Pricing'], Screen: PricingPage },
  { paths: ['/WithdrawFunds', '/wallet'], Screen: WalletPage },
  { paths: ['/TopUp'], Screen: TopUpPage },
  { paths: ['/Notifications'], Screen: NotificationsPage },
  { paths: ['/Profile'], Screen: ProfilePage },
  { paths: ['/ResponsiblePlay'], Screen: ResponsiblePlayPage },
  // '/admin' and everything below it (docs/product.md#operators "Operators").
  { paths: ['/admin/*?'], Screen: AdminApp },
];

/**
 * A signed-in screen opened cold needs the protected shell and its own chunk, which lazy
 * loading would only ask for one after the other once the session is back. With a stored
 * token both are fetched while the session restores (SessionGate waits for all of it), and
 * so are the first requests the screen makes, the navigation bar's unread count and the
 * screen's own list where it has one (not waited for: they show their own loading states).
 */
export function preloadScreen(pathname: string): Promise<unknown> | undefined {
  const route = protectedRoutes.find(({ paths }) =>
    paths.some((path) => caseInsensitiveParser(path).pattern.test(pathname)),
  );
  if (!route) return undefined;
  prefetchNotifications();
  route.prefetch?.();
  return Promise.all([Protected.preload(), route.Screen.preload()]);
}

/**
 * Until a service worker controls the page (a first visit; never in Data saver, which does not
 * install one) a screen's code is downloaded only when it is opened, so on a connection that has
 * just dropped the next tap could not open anything. Once a player is signed in, the code of
 * their screens is downloaded while the browser is idle and online, without running it
 * (lib/player-files.ts); Data saver keeps its promise of nothing ahead of need, and the operator
 * console is not a player's screen (the build leaves it out of the list).
 */
function PreloadPlayerScreens() {
  const signedIn = useSession((session) => session.user !== null);
  useEffect(() => {
    if (!signedIn || savingData() || navigator.serviceWorker?.controller) return;
    // From a chunk of its own, as the service worker's: the first screen does not pay for it.
    let stop: (() => void) | undefined;
    let unmounted = false;
    import('@web/lib/player-files.ts').then(
      ({ downloadPlayerFiles }) => {
        if (!unmounted) stop = downloadPlayerFiles();
      },
      () => undefined,
    );
    return () => {
      unmounted = true;
      stop?.();
    };
  }, [signedIn]);
  return null;
}

/**
 * `ssrPath`: the page the build prerenders (scripts/prerender-web.ts); the browser's own
 * otherwise. `hydrating`: this render adopts the prerendered HTML (and the prerender makes it).
 */
export function App({ ssrPath, hydrating = false }: { ssrPath?: string; hydrating?: boolean }) {
  return (
    <HydrationState hydrating={hydrating}>
      <SandboxBanner />
      <Router parser={caseInsensitiveParser} ssrPath={ssrPath}>
        <RouteAnnouncer />
        <SessionGate preload={preloadScreen}>
          <PreloadPlayerScreens />
          <ScreenBoundary>
            <Suspense fallback={<PageSpinner />}>
              <Switch>
                {publicRoutes.flatMap(({ paths, element }) =>
                  paths.map((path) => (
                    <Route key={path} path={path}>
                      {element}
                    </Route>
                  )),
                )}
                {staticRoutes.flatMap(({ paths, element }) =>
                  paths.map((path) => (
                    <Route key={path} path={path}>
                      <PublicLayout>
                        <ScreenBoundary>{element}</ScreenBoundary>
                      </PublicLayout>
                    </Route>
                  )),
                )}
                {protectedRoutes.flatMap(({ paths, Screen, shell }) =>
                  paths.map((path) => (
                    <Route key={path} path={path}>
                      <Protected shell={shell}>
                        <ScreenBoundary>
                          <Suspense fallback={<PageSpinner />}>
                            <Screen />
                          </Suspense>
                        </ScreenBoundary>
                      </Protected>
                    </Route>
                  )),
                )}
                <Route>
                  <PublicLayout>
                    <NotFoundPage />
                  </PublicLayout>
                </Route>
              </Switch>
            </Suspense>
          </ScreenBoundary>
        </SessionGate>
      </Router>
      <Toaster />
    </HydrationState>
  );
}
