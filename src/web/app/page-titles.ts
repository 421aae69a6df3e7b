/**
 * Each screen's document title, so that a tab, the history list and a screen reader name the
 * page (WCAG 2.4.2). Home keeps index.html's; a path the app does not know gets "Page not
 * found". Loaded apart from the first screen's code (app/RouteAnnouncer.tsx): the prerendered
 * pages have theirs in the HTML already (scripts/prerender-web.ts).
 */
export const HOME_TITLE = 'Pluckers · Play to Earn';

/** By lower-case path; where the spec gives a screen two paths, both. */
const SCREENS: Record<string, string> = {
  '/login': 'Log in',
  '/signup': 'Sign up',
  '/verifyemail': 'Verify your e-mail',
  '/forgotpassword': 'Forgot your password',
  '/resetpassword': 'Reset your password',
  '/terms': 'Terms',
  '/privacy': 'Privacy',
  '/gamerules': 'Game rules',
  '/fairness': 'Fair draws',
  '/supportcenter': 'Support',
  '/gamedetails': 'Game',
  '/leaderboard': 'Leaderboard',
  '/mysubmissions': 'My submissions',
  '/tournament': 'Tournament',
  '/selectedtournament': 'Tournament round',
  '/successfulsubmission': 'Answer sent',
  '/paymentstatus': 'Payment status',
  '/upgradesuccessful': 'Welcome to VIP',
  '/pricing': 'Go VIP',
  '/withdrawfunds': 'Wallet',
  '/wallet': 'Wallet',
  '/topup': 'Top up',
  '/notifications': 'Notifications',
  '/profile': 'Profile',
  '/responsibleplay': 'Responsible play',
};

/** The console's sections, by the first part of the path under /admin. */
const SECTION_TITLES: Record<string, string> = {
  games: 'Games',
  withdrawals: 'Withdrawals',
  'held-payments': 'Held payments',
  kyc: 'Identity documents',
  users: 'Users',
  plans: 'Plans',
  categories: 'Categories',
  settings: 'Settings',
  support: 'Support',
  audit: 'Audit log',
  'sandbox-payments': 'Sandbox payments',
};

const titled = (name: string) => `${name} · Pluckers`;

function screenName(pathname: string): string | undefined {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  if (path === '/' || path === '/home') return undefined;
  const screen = SCREENS[path];
  if (screen) return screen;
  if (path.startsWith('/auth/validate/')) return 'Validating your e-mail';
  if (path.startsWith('/upgradeaccount/')) return 'Confirm your plan';
  if (path === '/admin') return 'Dashboard · Operator console';
  if (path.startsWith('/admin/')) {
    const section = SECTION_TITLES[path.split('/')[2] ?? ''];
    return section ? `${section} · Operator console` : 'Operator console';
  }
  return 'Page not found';
}

export function pageTitle(pathname: string): string {
  const name = screenName(pathname);
  return name === undefined ? HOME_TITLE : titled(name);
}
