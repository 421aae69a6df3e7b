import type { FastifyInstance, FastifyPluginAsync, onRouteHookHandler } from 'fastify';
import type { AppConfig } from './config.ts';
import { adminAuditRoutes } from './modules/admin/audit.ts';
import { adminCatalogueRoutes } from './modules/admin/catalogue.ts';
import { adminReportRoutes } from './modules/admin/reports.ts';
import { adminUserRoutes } from './modules/admin/users.ts';
import { operatorSecondFactorRoutes } from './modules/auth/admin-routes.ts';
import { authRoutes, sessionRoutes } from './modules/auth/routes.ts';
import { catalogueRoutes } from './modules/catalogue/routes.ts';
import { drawRoutes } from './modules/draws/routes.ts';
import { fairnessRoutes } from './modules/fairness/routes.ts';
import { adminGameRoutes } from './modules/games/admin-routes.ts';
import { gameRoutes } from './modules/games/routes.ts';
import { adminKycRoutes } from './modules/kyc/admin-routes.ts';
import { kycRoutes } from './modules/kyc/routes.ts';
import { leaderboardRoutes } from './modules/leaderboard/routes.ts';
import { pushRoutes } from './modules/notifications/push-routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import {
  adminBankTransferRoutes,
  adminHeldPaymentRoutes,
  adminSandboxReviewRoutes,
} from './modules/payments/admin-routes.ts';
import { bankTransferRoutes } from './modules/payments/bank-transfer-routes.ts';
import { paymentRoutes, type TransferSettler } from './modules/payments/routes.ts';
import { topUpRoutes } from './modules/payments/top-up-routes.ts';
import { planRoutes, subscriptionRoutes } from './modules/plans/routes.ts';
import { ageConfirmationRoutes } from './modules/profile/age-routes.ts';
import { userRoutes } from './modules/profile/routes.ts';
import { adminResponsiblePlayRoutes } from './modules/responsible-play/admin-routes.ts';
import { responsiblePlayRoutes } from './modules/responsible-play/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { adminSupportRoutes } from './modules/support/admin-routes.ts';
import { supportRoutes } from './modules/support/routes.ts';
import { walletRoutes } from './modules/wallet/routes.ts';
import { adminWithdrawalRoutes } from './modules/withdrawals/admin-routes.ts';
import { bankAccountResolveRoutes } from './modules/withdrawals/bank-account-routes.ts';
import { withdrawalRoutes } from './modules/withdrawals/routes.ts';
import { settleTransfer } from './modules/withdrawals/transfers.ts';

/**
 * Who may call what. Every route under /api/v1 is registered in one of three scopes: the
 * public one, the players' (one hook: a valid, unrevoked token of a live account) and the
 * operators' under /api/v1/admin (one hook: the same, the admin role and a session that proved
 * the operator's second factor; the second factor's own routes sit in a fourth scope without
 * that last condition, also under /api/v1/admin). A route module
 * states no guard of its own, so a route cannot be added without one by forgetting it;
 * route-guards.test.ts walks every registered route and holds each to its scope's answers.
 */
export async function api(app: FastifyInstance, { config }: { config: AppConfig }) {
  const options: ApiOptions = { config, settleTransfer };
  await app.register(scopeOf(PUBLIC_ROUTES, options));
  await app.register(scopeOf(PLAYER_ROUTES, options, app.authenticate));
  await app.register(scopeOf(OPERATOR_ROUTES, options, app.requireAdmin), { prefix: '/admin' });
  await app.register(scopeOf(OPERATOR_SIGN_IN_ROUTES, options, app.requireOperatorAccount), {
    prefix: '/admin',
  });
}

/** What every route plugin is given; most use the config or nothing. */
interface ApiOptions {
  config: AppConfig;
  settleTransfer: TransferSettler;
}
type ApiRoutes = FastifyPluginAsync<ApiOptions>;

/** Open to anyone: signing up and in, reference lists, public proofs, provider callbacks. */
const PUBLIC_ROUTES: ApiRoutes[] = [
  authRoutes,
  settingsRoutes,
  catalogueRoutes,
  planRoutes,
  drawRoutes,
  fairnessRoutes,
  supportRoutes,
  paymentRoutes,
];

const PLAYER_ROUTES: ApiRoutes[] = [
  sessionRoutes,
  userRoutes,
  ageConfirmationRoutes,
  notificationRoutes,
  pushRoutes,
  gameRoutes,
  leaderboardRoutes,
  topUpRoutes,
  bankTransferRoutes,
  withdrawalRoutes,
  walletRoutes,
  bankAccountResolveRoutes,
  kycRoutes,
  subscriptionRoutes,
  responsiblePlayRoutes,
];

/** Under /api/v1/admin. */
const OPERATOR_ROUTES: ApiRoutes[] = [
  adminUserRoutes,
  adminResponsiblePlayRoutes,
  adminKycRoutes,
  adminGameRoutes,
  adminCatalogueRoutes,
  adminWithdrawalRoutes,
  adminSandboxReviewRoutes,
  adminHeldPaymentRoutes,
  adminBankTransferRoutes,
  adminReportRoutes,
  adminAuditRoutes,
  adminSupportRoutes,
];

/**
 * Under /api/v1/admin too, behind the admin role alone: enrolling and proving the second factor,
 * which every other operator route wants first (requireAdmin).
 */
const OPERATOR_SIGN_IN_ROUTES: ApiRoutes[] = [operatorSecondFactorRoutes];

/** One scope: its guard (none for the public one), then its route plugins, each in a scope of its own. */
function scopeOf(routes: ApiRoutes[], options: ApiOptions, hook?: Guard) {
  return async (scope: FastifyInstance) => {
    if (hook) guard(scope, hook);
    for (const plugin of routes) await scope.register(plugin, options);
  };
}

type Guard = FastifyInstance['authenticate'] | FastifyInstance['requireAdmin'];

const BEARER = [{ bearerAuth: [] }];

/**
 * The scope's one guard, for every route registered in it from here on (child scopes
 * included). preValidation rather than onRequest, so the per-client rate limit (onRequest)
 * counts refused tokens too, and a caller who may not call is refused before the body is read
 * (401 or 403, never a 400 that tells them the route's rules). The OpenAPI document says so
 * of each route, from the same place.
 */
function guard(app: FastifyInstance, hook: Guard) {
  app.addHook('preValidation', hook);
  const documentBearer: onRouteHookHandler = (route) => {
    route.schema = { ...route.schema, security: BEARER };
  };
  app.addHook('onRoute', documentBearer);
}
