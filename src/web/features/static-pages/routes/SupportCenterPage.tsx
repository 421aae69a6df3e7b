import {
  PLAYERS_PER_WINNER,
  PRIZE_PAYOUT_TEXT,
  WITHDRAWAL_PROCESSING_TEXT,
} from '@shared/constants.ts';
import { VALIDATION_MESSAGES } from '@shared/messages.ts';
import { buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../components/contact.ts';
import { proseClass, StaticPage } from '../components/StaticPage.tsx';
import { SupportForm } from '../components/SupportForm.tsx';

interface Faq {
  question: string;
  answer: ReactNode;
}

const FAQS: Faq[] = [
  {
    question: 'How do I top up my wallet?',
    answer: (
      <p>
        Open <Link href="/TopUp">Top up</Link>, pick or type an amount and pay with your card
        through our payment partner. Your balance updates as soon as the payment is confirmed.
      </p>
    ),
  },
  {
    question: 'When will my withdrawal reach my bank?',
    answer: (
      <p>
        {WITHDRAWAL_PROCESSING_TEXT} Save your bank account on the{' '}
        <Link href="/WithdrawFunds">Withdraw</Link> page first; the fee and the minimum amount are
        shown before you confirm.
      </p>
    ),
  },
  {
    question: 'I won! When do I get my reward?',
    answer: (
      <p>
        Congratulations! You get a notification when the draw is done, and the reward goes into your
        Pluckers wallet. {PRIZE_PAYOUT_TEXT}
      </p>
    ),
  },
  {
    question: 'Why did I get my entry fee back?',
    answer: (
      <p>
        A game needs at least {PLAYERS_PER_WINNER} players for a draw. When fewer join, the game is
        cancelled and every entry fee is refunded in full to your wallet.
      </p>
    ),
  },
  {
    question: 'Can I change my answer?',
    answer: <p>No. {VALIDATION_MESSAGES.answerWarning} Take your time before you press submit.</p>,
  },
  {
    question: 'How are winners picked?',
    answer: (
      <p>
        At random, by software, with no human involvement: one in every five players wins. Every
        draw can be checked: the <Link href="/GameRules">Game rules</Link> explain how.
      </p>
    ),
  },
  {
    question: 'My verification code or e-mail has not arrived',
    answer: (
      <p>
        Check your spam or promotions folder first. Codes expire after 10 minutes, and you can ask
        for a new one after a minute. Still nothing? Send us a message below.
      </p>
    ),
  },
  {
    question: 'Why can’t I play more games today?',
    answer: (
      <p>
        Without a plan there is a daily game limit, which resets at midnight Lagos time. VIP players
        have unlimited games and tournament access; see <Link href="/Pricing">Pricing</Link>.
      </p>
    ),
  },
  {
    question: 'How do I delete my account?',
    answer: (
      <p>
        Withdraw your balance first, then open your <Link href="/Profile">Profile</Link> and choose
        Delete account. Your personal data is anonymised; see the{' '}
        <Link href="/Privacy">Privacy notice</Link> for what is kept.
      </p>
    ),
  },
];

const TOPICS = [
  { href: '/GameRules', icon: '🎯', title: 'Game rules', text: 'Answers, winners, refunds' },
  { href: '/Terms', icon: '📜', title: 'Terms of use', text: 'Wallet, fees, withdrawals' },
  { href: '/Privacy', icon: '🔐', title: 'Privacy', text: 'Your data and your rights' },
];

export function SupportCenterPage() {
  return (
    <StaticPage
      eyebrow="Support Center"
      title="How can we help?"
      intro={
        <p>
          Most questions are answered below. If yours is not, send us a message and the Pluckers
          team will get back to you by e-mail.
        </p>
      }
      actions={
        <>
          <a href="#contact" className={`${buttonBase} ${buttonStyles.primary}`}>
            Send us a message
          </a>
          <a href={`mailto:${SUPPORT_EMAIL}`} className={`${buttonBase} ${buttonStyles.outline}`}>
            {SUPPORT_EMAIL}
          </a>
        </>
      }
    >
      <nav aria-label="Help topics" className="mb-10">
        <ul className="grid gap-3 sm:grid-cols-3">
          {TOPICS.map((topic) => (
            <li key={topic.href}>
              <Link
                href={topic.href}
                className="flex h-full items-center gap-3 rounded-2xl border border-line bg-card p-4 hover:border-accent"
              >
                <span
                  aria-hidden="true"
                  className="grid size-11 shrink-0 place-items-center rounded-xl bg-page text-xl"
                >
                  {topic.icon}
                </span>
                <span>
                  <span className="block font-semibold">{topic.title}</span>
                  <span className="block text-sm text-muted">{topic.text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <section aria-labelledby="faq-title" className="scroll-mt-24">
        <h2 id="faq-title" className="mb-4 text-xl font-bold sm:text-2xl">
          Frequently asked questions
        </h2>
        <div className="divide-y divide-line rounded-2xl border border-line bg-card">
          {FAQS.map((faq) => (
            <details key={faq.question} className="group">
              <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-4 py-3 font-semibold hover:text-accent [&::-webkit-details-marker]:hidden">
                {faq.question}
                <span
                  aria-hidden="true"
                  className="grid size-7 shrink-0 place-items-center rounded-full border border-line text-accent transition-transform group-open:rotate-45"
                >
                  +
                </span>
              </summary>
              <div className={`max-w-prose px-4 pb-5 ${proseClass}`}>{faq.answer}</div>
            </details>
          ))}
        </div>
      </section>

      <section id="contact" aria-labelledby="contact-title" className="mt-12 scroll-mt-24">
        <h2 id="contact-title" className="text-xl font-bold sm:text-2xl">
          Send us a message
        </h2>
        <p className="mt-2 max-w-prose text-muted">
          Tell us what is going on and how to reach you. Never include your password or full card
          number.
        </p>
        <div className="mt-5 sm:rounded-3xl sm:border sm:border-line sm:p-8">
          <SupportForm />
        </div>
      </section>
    </StaticPage>
  );
}
