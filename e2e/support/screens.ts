/** The screens a visitor (no session) can see; scanned with axe and screenshotted for review. */
export const VISITOR_SCREENS = [
  { name: 'login', path: '/login' },
  {
    name: 'login-error',
    path: '/login?error=google_failed',
  },
  { name: 'signup', path: '/Signup' },
  { name: 'forgot-password', path: '/ForgotPassword' },
  { name: 'terms', path: '/Terms' },
  { name: 'privacy', path: '/Privacy' },
  { name: 'game-rules', path: '/GameRules' },
  { name: 'support-center', path: '/SupportCenter' },
  { name: 'not-found', path: '/no-such-page' },
] as const;
