import { formatNaira } from './money.ts';

/** KYC tiers, modelled on the Central Bank of Nigeria's three-tier KYC. */
export const KYC_TIERS = [1, 2, 3] as const;
export type KycTier = (typeof KYC_TIERS)[number];

export const KYC_ID_TYPES = ['BVN', 'NIN'] as const;
export type KycIdType = (typeof KYC_ID_TYPES)[number];

export const KYC_DOCUMENT_TYPES = [
  'passport',
  'drivers_licence',
  'voters_card',
  'national_id',
  'utility_bill',
] as const;
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPES)[number];

export const KYC_DOCUMENT_LABELS: Record<KycDocumentType, string> = {
  passport: 'International passport',
  drivers_licence: "Driver's licence",
  voters_card: "Voter's card",
  national_id: 'National ID card',
  utility_bill: 'Utility bill (proof of address)',
};

/** What a player at each tier is asked to verify to go further. */
export const KYC_NEXT_STEP: Record<KycTier, string> = {
  1: 'verify your identity with your BVN or NIN (tier 2)',
  2: 'upload an identity document for review (tier 3)',
  3: 'contact support',
};

const cap = (naira: number) => formatNaira(naira);

/** The user-facing texts of KYC, shared by the forms and the server. */
export const KYC_MESSAGES = {
  verified: 'Your identity is verified. Your limits are now those of tier 2.',
  alreadyVerified: 'Your identity is already verified',
  providerDown:
    'We could not reach the identity service. Nothing was saved: please try again later.',
  notFound: 'We could not find this number. Check it and try again.',
  nameMismatch: 'The name on this BVN/NIN does not match the name on your account.',
  birthDateMismatch: 'The date of birth on this BVN/NIN does not match the one you entered.',
  underage: 'You must be 18 or older to verify your identity.',
  duplicate: 'This identity is already verified on another Pluckers account.',
  phoneNeeded: 'Add a valid Nigerian phone number to your profile before you verify your identity.',
  tooMany: 'Too many identity checks.',
  documentSubmitted: 'Document received. An operator will review it soon.',
  documentPending: 'You already have a document waiting for review',
  documentNeedsTier2: 'Verify your identity with your BVN or NIN before you upload a document',
  alreadyTier3: 'Your account already has the highest tier',
  documentImage:
    'Upload a photo or scan of the document: a JPEG, PNG or WebP image of 5 MB or less',
  bankNameMismatch: (verifiedName: string) =>
    `The name on this bank account must match your verified name (${verifiedName}). Add an account in your own name.`,
  withdrawalBankMismatch: (verifiedName: string) =>
    `Withdrawals are paused: your bank account is not in your verified name (${verifiedName}). Replace it with an account in your own name to withdraw.`,
  topUpCap: (tier: KycTier, balanceCap: number) =>
    `Tier ${tier} wallets can hold at most ${cap(balanceCap)}, and this top-up would take you above it. To raise the limit, ${KYC_NEXT_STEP[tier]}.`,
  withdrawalCap: (tier: KycTier, dailyCap: number, remaining: number) =>
    `Tier ${tier} accounts can withdraw at most ${cap(dailyCap)} a day; ${cap(remaining)} is left today. To raise the limit, ${KYC_NEXT_STEP[tier]}.`,
} as const;
