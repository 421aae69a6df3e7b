import { render, screen } from '@testing-library/react';
import { setSettings } from '@web/lib/session.ts';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { GameRulesPage } from './GameRulesPage.tsx';
import { PrivacyPage } from './PrivacyPage.tsx';
import { SupportCenterPage } from './SupportCenterPage.tsx';
import { TermsPage } from './TermsPage.tsx';

afterEach(() => {
  setSettings(null);
});

const PAGES: [string, ComponentType][] = [
  ['TermsPage', TermsPage],
  ['PrivacyPage', PrivacyPage],
  ['GameRulesPage', GameRulesPage],
  ['SupportCenterPage', SupportCenterPage],
];

/** The page's text with whitespace collapsed, for phrase checks across elements. */
function pageText(): string {
  return (document.body.textContent ?? '').replace(/\s+/g, ' ');
}

describe('static pages', () => {
  it.each(PAGES)('%s has exactly one h1 and every section link has a target', (_, Page) => {
    render(<Page />);

    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')) {
      const target = link.getAttribute('href')?.slice(1) ?? '';
      expect(document.getElementById(target), `#${target}`).not.toBeNull();
    }
  });

  it('Terms cover age, fees, payout times, fair play, suspension, liability and contact', () => {
    render(<TermsPage />);
    const text = pageText();

    expect(text).toContain('You must be 18 or over to use Pluckers.');
    expect(text).toContain(
      'The entry fee is taken from your wallet the moment you submit your answer',
    );
    expect(text).toContain('Withdrawals are processed within 24–48 hours.');
    expect(text).toContain('Prize payouts land within 7 business days.');
    for (const heading of [
      'Fair play',
      'Suspension and closing your account',
      'Our responsibility to you',
      'Contact us',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name: heading })).toBeTruthy();
    }
  });

  it('Privacy lists the data kept, NDPA rights and what deletion keeps', () => {
    render(<PrivacyPage />);
    const text = pageText();

    expect(text).toContain('Your bank account (bank, account number and account name)');
    expect(text).toContain('Nigeria Data Protection Act 2023');
    expect(text).toContain('Nigeria Data Protection Commission (NDPC)');
    expect(text).toContain('we anonymise your personal data');
    expect(text).toContain('Financial records are kept');
  });

  it('Game rules explain answers, winners, refunds, fairness and points', () => {
    render(<GameRulesPage />);
    const text = pageText();

    expect(text).toContain('1 to 20 words');
    expect(text).toContain(
      'Only one submission allowed. Maximum: 20 words. Once submitted, no edits.',
    );
    expect(text).toContain('one in every five players wins');
    expect(text).toContain('every entry fee is refunded in full');
    expect(text).toContain('SHA-256 fingerprint');
    expect(text).toContain('+10 points');
    expect(text).toContain('+50 points');
    expect(text).toContain('a limited number of games a day');
    // floor(players / 5): 9 players → 1 winner, 24 → 4.
    const rows = screen
      .getByRole('table', { name: 'Number of winners for a number of players' })
      .querySelectorAll('tbody tr');
    const table = [...rows].map((row) => [...row.children].map((cell) => cell.textContent));
    expect(table).toContainEqual(['4', 'None: game cancelled, fees refunded']);
    expect(table).toContainEqual(['9', '1']);
    expect(table).toContainEqual(['24', '4']);
    expect(table).toContainEqual(['100', '20']);
  });

  it('Game rules show the live daily limit and minimum balance once settings are loaded', () => {
    setSettings({
      withdrawalTransactionFee: 50,
      minimumPaymentAmount: 1500,
      dailyGameLimit: 7,
      tournamentLaunchAt: null,
    });

    render(<GameRulesPage />);
    const text = pageText();

    expect(text).toContain('7 games a day');
    expect(text).toContain('(currently ₦1,500)');
  });
});
