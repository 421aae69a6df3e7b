import { PageSpinner } from '@web/components/ui/Spinner.tsx';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { Toaster } from 'react-hot-toast';
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
const PendingFeaturePage = page(() => import('./PendingFeaturePage.tsx'), 'PendingFeaturePage');
const NotFoundPage = page(() => import('./NotFoundPage.tsx'), 'NotFoundPage');

function Pending({ title }: { title: string }) {
  return <PendingFeaturePage title={title} />;
}

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
  { paths: ['/', '/Home'], element: <Pending title="Home" /> },
  { paths: ['/GameDetails'], element: <Pending title="Game details" /> },
  { paths: ['/LeaderBoard'], element: <Pending title="Leaderboard" /> },
  { paths: ['/MySubmissions'], element: <Pending title="My submissions" /> },
  { paths: ['/Tournament'], element: <Pending title="Tournament Hub" /> },
  { paths: ['/PaymentStatus'], element: <Pending title="Payment status" /> },
  { paths: ['/UpgradeAccount/:id'], element: <Pending title="Upgrade account" /> },
  { paths: ['/UpgradeSuccessful'], element: <Pending title="You are Now Verified" /> },
  { paths: ['/SelectedTournament'], element: <Pending title="Tournament" /> },
  { paths: ['/SuccessfulSubmission'], element: <Pending title="Submission received" /> },
  { paths: ['/Pricing'], element: <Pending title="Pricing" /> },
  { paths: ['/WithdrawFunds', '/wallet'], element: <Pending title="Withdraw funds" /> },
  { paths: ['/TopUp'], element: <Pending title="Top up" /> },
  { paths: ['/Notifications'], element: <NotificationsPage /> },
  { paths: ['/Profile'], element: <ProfilePage /> },
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
      <Toaster position="top-center" toastOptions={{ className: '!bg-card-raised !text-white' }} />
    </>
  );
}
