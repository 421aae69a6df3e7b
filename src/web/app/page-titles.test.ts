import { CONSOLE_SECTIONS } from '@web/features/admin/components/AdminNav.tsx';
import { describe, expect, it } from 'vitest';
import { HOME_TITLE, pageTitle } from './page-titles.ts';

describe('pageTitle', () => {
  it.each([
    ['/login', 'Log in · Pluckers'],
    ['/Signup', 'Sign up · Pluckers'],
    ['/verifyemail', 'Verify your e-mail · Pluckers'],
    ['/auth/validate/abc123', 'Validating your e-mail · Pluckers'],
    ['/ForgotPassword', 'Forgot your password · Pluckers'],
    ['/resetpassword', 'Reset your password · Pluckers'],
    ['/Terms', 'Terms · Pluckers'],
    ['/Privacy', 'Privacy · Pluckers'],
    ['/GameRules', 'Game rules · Pluckers'],
    ['/Fairness', 'Fair draws · Pluckers'],
    ['/SupportCenter', 'Support · Pluckers'],
    ['/GameDetails', 'Game · Pluckers'],
    ['/LeaderBoard', 'Leaderboard · Pluckers'],
    ['/MySubmissions', 'My submissions · Pluckers'],
    ['/Tournament', 'Tournament · Pluckers'],
    ['/SelectedTournament', 'Tournament round · Pluckers'],
    ['/SuccessfulSubmission', 'Answer sent · Pluckers'],
    ['/PaymentStatus', 'Payment status · Pluckers'],
    ['/UpgradeAccount/plan-1', 'Confirm your plan · Pluckers'],
    ['/UpgradeSuccessful', 'Welcome to VIP · Pluckers'],
    ['/Pricing', 'Go VIP · Pluckers'],
    ['/WithdrawFunds', 'Wallet · Pluckers'],
    ['/wallet', 'Wallet · Pluckers'],
    ['/TopUp', 'Top up · Pluckers'],
    ['/Notifications', 'Notifications · Pluckers'],
    ['/Profile', 'Profile · Pluckers'],
    ['/ResponsiblePlay', 'Responsible play · Pluckers'],
  ])('names %s "%s"', (path, title) => {
    expect(pageTitle(path)).toBe(title);
  });

  it('matches paths without regard to case or a trailing slash, as the routes do', () => {
    expect(pageTitle('/TOPUP/')).toBe('Top up · Pluckers');
    expect(pageTitle('/topup')).toBe('Top up · Pluckers');
  });

  it("keeps the app's own title for Home, at both its paths", () => {
    expect(pageTitle('/')).toBe(HOME_TITLE);
    expect(pageTitle('/Home')).toBe(HOME_TITLE);
  });

  it('names a path the app does not know as such', () => {
    expect(pageTitle('/no-such-page')).toBe('Page not found · Pluckers');
  });

  it("names each console section as the console's navigation does", () => {
    for (const { href, label } of CONSOLE_SECTIONS) {
      const path = href === '~/admin' ? '/admin' : `/admin${href}`;
      expect(pageTitle(path)).toBe(`${label} · Operator console · Pluckers`);
    }
    expect(pageTitle('/admin/games/42/edit')).toBe('Games · Operator console · Pluckers');
    expect(pageTitle('/admin/nothing-here')).toBe('Operator console · Pluckers');
  });
});
