import { PageSpinner } from '@web/components/ui/Spinner.tsx';
import { Toaster } from '@web/lib/toast.tsx';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { Route, Router, Switch } from 'wouter';
import { caseInsensitiveParser } from './routing.ts';
import { SessionGate } from './SessionGate.tsx';

/** A route component loaded on first use, so each screen ships in its own chunk. */
// biome-ignore lint/suspicious/noExplicitAny: React's lazy() is itself typed with ComponentType<any>.
function page<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
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

/** Public routes of spec §2 (no session needed). */
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
  { paths: ['/SupportCenter'], element: <SupportCenterPage /> },
];

/** Protected routes of spec §2, both spellings where the spec gives two. */
const protectedRoutes: AppRoute[] = [
  { paths: ['/', '/Home'], element: <HomePage /> },
  { paths: ['/GameDetails'], element: <GameDetailsPage /> },
  { paths: ['/LeaderBoard'], element: <LeaderboardPage /> },
  { paths: ['/MySubmissions'], element: <MySubmissionsPage /> },
  { paths: ['/Tournament'], element: <TournamentPage /> },
  { paths: ['/PaymentStatus'], element: <PaymentStatusPage /> },
  { paths: ['/UpgradeAccount/:id'], element: <UpgradeAccountPage /> },
  { paths: ['/UpgradeSuccessful'], element: <UpgradeSuccessfulPage /> },
  { paths: ['/SelectedTournament'], element: <SelectedTournamentPage /> },
  { paths: ['/SuccessfulSubmission'], element: <SuccessfulSubmissionPage /> },
  { paths: ['/Pricing'], element: <PricingPage /> },
  { paths: ['/WithdrawFunds', '/wallet'], element: <WalletPage /> },
  { paths: ['/TopUp'], element: <TopUpPage /> },
  { paths: ['/Notifications'], element: <NotificationsPage /> },
  { paths: ['/Profile'], element: <ProfilePage /> },
  // '/admin' and everything below it (DESIGN §4 "Operators").
  { paths: ['/admin/*?'], element: <AdminApp /> },
];

export function App() {
  return (
    <>
      <Router parser={caseInsensitiveParser}>
        <SessionGate>
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
                    <PublicLayout>{element}</PublicLayout>
                  </Route>
                )),
              )}
              {protectedRoutes.flatMap(({ paths, element }) =>
                paths.map((path) => (
                  <Route key={path} path={path}>
                    <Protected>
                      <Suspense fallback={<PageSpinner />}>{element}</Suspense>
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
        </SessionGate>
      </Router>
      <Toaster />
    </>
  );
}
