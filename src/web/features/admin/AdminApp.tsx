import { PageSpinner } from '@web/components/ui/Spinner.tsx';
import { useSession } from '@web/lib/session.ts';
import { type ComponentType, lazy, Suspense } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import { AdminNav } from './components/AdminNav.tsx';
import { SecondFactorGate } from './components/SecondFactorGate.tsx';

/** One console page, loaded on first visit. */
// biome-ignore lint/suspicious/noExplicitAny: React's lazy() is itself typed with ComponentType<any>.
function page<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const DashboardPage = page(() => import('./routes/DashboardPage.tsx'), 'DashboardPage');
const GamesPage = page(() => import('./routes/GamesPage.tsx'), 'GamesPage');
const GameEditorPage = page(() => import('./routes/GameEditorPage.tsx'), 'GameEditorPage');
const GameDetailPage = page(() => import('./routes/GameDetailPage.tsx'), 'GameDetailPage');
const WithdrawalsPage = page(() => import('./routes/WithdrawalsPage.tsx'), 'WithdrawalsPage');
const KycDocumentsPage = page(() => import('./routes/KycDocumentsPage.tsx'), 'KycDocumentsPage');
const UsersPage = page(() => import('./routes/UsersPage.tsx'), 'UsersPage');
const UserDetailPage = page(() => import('./routes/UserDetailPage.tsx'), 'UserDetailPage');
const PlansPage = page(() => import('./routes/PlansPage.tsx'), 'PlansPage');
const CategoriesPage = page(() => import('./routes/CategoriesPage.tsx'), 'CategoriesPage');
const SettingsPage = page(() => import('./routes/SettingsPage.tsx'), 'SettingsPage');
const SandboxPaymentsPage = page(
  () => import('./routes/SandboxPaymentsPage.tsx'),
  'SandboxPaymentsPage',
);
const HeldPaymentsPage = page(() => import('./routes/HeldPaymentsPage.tsx'), 'HeldPaymentsPage');
const SupportTicketsPage = page(
  () => import('./routes/SupportTicketsPage.tsx'),
  'SupportTicketsPage',
);
const AuditPage = page(() => import('./routes/AuditPage.tsx'), 'AuditPage');
const AdminNotFound = page(() => import('./routes/AdminNotFound.tsx'), 'AdminNotFound');

/**
 * The operator console under /admin (docs/product.md#operators "Operators"). Lazily loaded from the app's
 * route table, so players never download it; a player who opens /admin is sent to /.
 * Below here every path is relative to /admin.
 */
export function AdminApp() {
  const user = useSession((session) => session.user);
  if (user?.role !== 'admin') return <Redirect to="/" replace />;
  return (
    <SecondFactorGate>
      <Console />
    </SecondFactorGate>
  );
}

/** The console itself, once the session has proved the operator's second factor. */
function Console() {
  return (
    <Router base="/admin">
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[12.5rem_minmax(0,1fr)] lg:gap-8">
        <aside className="flex min-w-0 flex-col gap-3 lg:sticky lg:top-24 lg:self-start">
          <p className="text-xs font-semibold tracking-[0.2em] text-accent uppercase">
            Operator console
          </p>
          <AdminNav />
        </aside>
        <div className="min-w-0">
          <Suspense fallback={<PageSpinner label="Loading the console" />}>
            <Switch>
              <Route path="/" component={DashboardPage} />
              <Route path="/games" component={GamesPage} />
              <Route path="/games/new" component={GameEditorPage} />
              <Route path="/games/:id/edit" component={GameEditorPage} />
              <Route path="/games/:id" component={GameDetailPage} />
              <Route path="/withdrawals" component={WithdrawalsPage} />
              <Route path="/kyc" component={KycDocumentsPage} />
              <Route path="/users" component={UsersPage} />
              <Route path="/users/:id" component={UserDetailPage} />
              <Route path="/plans" component={PlansPage} />
              <Route path="/categories" component={CategoriesPage} />
              <Route path="/settings" component={SettingsPage} />
              <Route path="/support" component={SupportTicketsPage} />
              <Route path="/audit" component={AuditPage} />
              <Route path="/sandbox-payments" component={SandboxPaymentsPage} />
              <Route path="/held-payments" component={HeldPaymentsPage} />
              <Route component={AdminNotFound} />
            </Switch>
          </Suspense>
        </div>
      </div>
    </Router>
  );
}
