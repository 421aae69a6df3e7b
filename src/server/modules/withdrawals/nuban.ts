const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

/**
 * CBN NUBAN check digit: over the 6-digit institution code (3-digit bank codes padded with 000)
 * and the 9-digit serial, weights 3,7,3 repeated; check = (10 - sum mod 10) mod 10.
 * Only 3-digit deposit-money-bank codes map to their NUBAN institution code directly; for
 * microfinance and fintech codes we check the length and leave the rest to the provider lookup.
 */
export function isValidNuban(accountNumber: string, bankCode: string): boolean {
  if (!/^\d{10}$/.test(accountNumber)) return false;
  if (!/^\d{3}$/.test(bankCode)) return true;
  return nubanCheckDigit(accountNumber.slice(0, 9), bankCode) === Number(accountNumber[9]);
}

/** The check digit that makes `serial` (9 digits) a valid NUBAN at `bankCode` (3 digits). */
export function nubanCheckDigit(serial: string, bankCode: string): number {
  const digits = `000${bankCode}${serial}`;
  const sum = [...digits].reduce(
    (total, digit, index) => total + Number(digit) * (WEIGHTS[index] ?? 0),
    0,
  );
  return (10 - (sum % 10)) % 10;
}
