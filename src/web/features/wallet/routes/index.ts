/**
 * The wallet's three screens in one chunk. Each lazy route costs the entry chunk a list of the
 * files it needs (hashed names that do not compress), and /Home's budget pays for that list, so
 * App.tsx loads all three from here. /PaymentStatus leads to /topup anyway.
 */
export { PaymentStatusPage } from './PaymentStatusPage.tsx';
export { TopUpPage } from './TopUpPage.tsx';
export { WalletPage } from './WalletPage.tsx';
