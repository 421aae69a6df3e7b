/** Where players reach a person; shown on the static pages. */
export const SUPPORT_EMAIL = 'support@pluckers.ng';
export const PRIVACY_EMAIL = 'privacy@pluckers.ng';

/** When the terms and the privacy notice last changed. */
export const POLICIES_UPDATED = { iso: '2026-11-22', text: '22 November 2026' } as const;
