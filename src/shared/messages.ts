import {
  ANSWER_MAX_CHARACTERS,
  ANSWER_MAX_WORDS,
  EMAIL_MAX_LENGTH,
  FULLNAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
} from './constants.ts';
import { formatNaira } from './money.ts';
import { UNAUTHORIZED_MESSAGES } from './unauthorized-messages.ts';

/**
 * Texts players see, exactly as docs/product.md#validation and #errors write them (including their grammar).
 * Server and client both import these so a message never drifts between the two.
 */
export const SIGNUP_MESSAGES = {
  fullname: 'Please enter a valid fullname',
  username: 'Enter your username',
  email: 'Enter your email address',
  phoneNumber: 'Enter your phone number',
  password: 'Enter your password',
  confirmPassword: 'Retype your password',
  mismatch: 'Passwords does not match',
} as const;

export const VALIDATION_MESSAGES = {
  withdrawalAmount: 'Enter amount to withdraw',
  topupAmount: 'Enter a topup amount',
  paymentMethod: 'Select a payment method',
  profilePhoto: 'Please upload a valid profile photo',
  planId: 'Plan ID is required',
  answerWarning: 'Only one submission allowed. Maximum: 20 words. Once submitted, no edits.',
} as const;

/** Why a signed-in request is refused because of the account itself. */
export const ACCOUNT_MESSAGES = {
  suspended: 'Your account is suspended. Contact support.',
} as const;

export const ERROR_MESSAGES = {
  ...UNAUTHORIZED_MESSAGES,
  gameList: 'An error occurred.',
  playGame: 'Something went wrong playing game, please try again',
  playedGames: 'Something went wrong getting submissions, please try again.',
  leaderboard: 'Something went wrong getting leaderboard, please try again.',
  signup: 'Something went wrong signing you up',
  loginAndResend: 'Something went wrong validating you',
  verifyForgotReset: 'Something went wrong, please try again',
  generic: 'Something went wrong',
  genericOops: 'Oops, Something went wrong',
  banks: 'Error getting banks',
  planNotFound: 'Oops, something went wrong',
  resetNeedsEmail: 'An error occurred',
  paymentFailedDefault: 'Something went wrong with your payment. Please try again.',
  invalidCredentials: 'Invalid email or password',
} as const;

export const PAGE_TEXTS = {
  tagline: 'Play to Earn',
  headline: 'FEED YOUR WALLET',
  subHeadline: 'PLAY.PLUCK.PROSPER',
  welcome:
    'Welcome, Pluckers! Jump into daily challenges where every answer adds to the fun. No right or wrong, just simple questions to keep the game alive. With our encrypted selection system, every player gets a fair shot at winning.',
  tournamentTeaser: 'Ready to test your creativity and climb the ranks?',
  answerPlaceholder: 'type your answer here...',
  answerSending: 'Hold on while we send in your response...',
  answerSubmitted: 'Your answer has been submitted!',
  paymentSuccessful: 'Payment Successful',
  paymentFailed: 'Payment Failed',
  upgradeSuccessful: 'You are Now Verified',
} as const;

/** Texts of our own, for the rules the spec leaves to the server (docs/product.md#validation). */
export const RULE_MESSAGES = {
  answerTooLong: `Your answer must be ${ANSWER_MAX_CHARACTERS} characters or fewer`,
  emailFormat: 'Enter a valid email address',
  usernameFormat: 'Username must be 3 to 20 characters: lowercase letters, numbers or _',
  usernamePrefix: 'Username must not start with plucker_',
  passwordLength: 'Password must be at least 8 characters',
  ageConfirmed: 'You must be 18 or over to play on Pluckers',
  phoneFormat: 'Enter a valid phone number',
  otpFormat: 'Enter the 6-digit code',
  amountPositive: 'Amount must be greater than zero',
  pageNumber: 'Page must be a whole number from 1',
  fullnameTooLong: `Full name must be at most ${FULLNAME_MAX_LENGTH} characters`,
  emailTooLong: `Email address must be at most ${EMAIL_MAX_LENGTH} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
} as const;

/** Why the server refuses an answer, per src/shared/games.ts `checkAnswerRule` problem. */
export const ANSWER_MESSAGES = {
  empty: 'Type your answer before you submit',
  tooManyWords: `Your answer must be ${ANSWER_MAX_WORDS} words or fewer`,
  tooLong: RULE_MESSAGES.answerTooLong,
} as const;

/**
 * The wallet's rules in the server's words (amounts in naira): the wallet's forms check them
 * before sending, so the player hears the same sentence either way.
 */
export const WALLET_MESSAGES = {
  minimumTopUp: (minimum: number) => `The minimum top-up is ${formatNaira(minimum)}`,
  minimumWithdrawal: (minimum: number) => `The minimum withdrawal is ${formatNaira(minimum)}`,
  insufficientForWithdrawal: (total: number, fee: number) =>
    `Insufficient balance: this withdrawal needs ${formatNaira(total)} (including the ${formatNaira(fee)} fee)`,
  noBankAccount: 'Add a bank account before you withdraw',
} as const;

/** Payment availability and the sandbox banner (no zod here: the banner is in /login's bundle). */
export const PAYMENT_MESSAGES = {
  notAvailable: 'This payment method is not available',
  noneAvailable: 'Top-ups are not available right now. Please try again later.',
  payoutsNotAvailable:
    'Bank account checks and payouts are not available right now. Please try again later.',
  sandboxBanner: 'Sandbox mode: test payments, no real money',
} as const;
