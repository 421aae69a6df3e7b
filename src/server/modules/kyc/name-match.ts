/**
 * The one rule deciding whether two ways of writing a person's name belong to the same person:
 * the identity the KYC provider returned against the account's full name (tier 2), and later
 * the verified name against a payout bank account's name.
 *
 * 1. Normalise: Unicode NFKD, accents dropped (Adébáyọ̀ → adebayo), lower case, every run of
 *    characters other than letters (spaces, hyphens, dots, apostrophes, commas) splits tokens.
 *    Honorifics (mr, mrs, miss, ms, dr, chief, alhaji, alhaja, engr, prof, pastor, barr) are
 *    dropped.
 * 2. Two tokens match when they are equal or, when both have at least 5 letters, differ by at
 *    most one edit (insert, delete or substitute one letter: Oluwaseun / Oluwasean). Shorter
 *    tokens must match exactly: one letter in "Ada" is a different name.
 * 3. The names match when the identity's surname matches a token of the other name AND at
 *    least one of the identity's given names (first or middle) matches a different token of it.
 *    Order does not matter (banks often write the surname first); extra tokens on either side
 *    (a middle name the account left out, a second surname) do not matter.
 */

const HONORIFICS = new Set([
  'mr',
  'mrs',
  'miss',
  'ms',
  'dr',
  'chief',
  'alhaji',
  'alhaja',
  'engr',
  'prof',
  'pastor',
  'barr',
]);

export function nameTokens(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((token) => token.length > 0 && !HONORIFICS.has(token));
}

/** Levenshtein distance, stopping early once it is known to exceed `limit`. */
function editDistanceAtMost(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return false;
    previous = current;
  }
  return (previous[b.length] ?? Number.POSITIVE_INFINITY) <= limit;
}

export function tokensMatch(a: string, b: string): boolean {
  if (a === b) return true;
  return a.length >= 5 && b.length >= 5 && editDistanceAtMost(a, b, 1);
}

export interface IdentityName {
  /** First and middle names as the provider returned them (either may be empty). */
  givenNames: string[];
  surname: string;
}

/** The stored verified name ("Given Middle Surname", surname last) as an identity. */
export function identityFromVerifiedName(verifiedName: string): IdentityName {
  const tokens = nameTokens(verifiedName);
  return { givenNames: tokens.slice(0, -1), surname: tokens.at(-1) ?? '' };
}

export function namesMatch(identity: IdentityName, other: string): boolean {
  const surnames = nameTokens(identity.surname);
  const given = identity.givenNames.flatMap(nameTokens);
  const candidates = nameTokens(other);
  if (surnames.length === 0 || given.length === 0 || candidates.length < 2) return false;
  // Every surname token must be found (a double-barrelled surname counts as a whole), then one
  // given name among the tokens left over.
  const used = new Set<number>();
  for (const surname of surnames) {
    const index = candidates.findIndex((token, at) => !used.has(at) && tokensMatch(surname, token));
    if (index < 0) return false;
    used.add(index);
  }
  return given.some((name) =>
    candidates.some((token, at) => !used.has(at) && tokensMatch(name, token)),
  );
}
