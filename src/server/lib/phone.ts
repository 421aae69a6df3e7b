import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { RULE_MESSAGES } from '../../shared/messages.ts';
import { badRequest } from '../errors.ts';

/**
 * The E.164 form of a number the shared schema has already normalised (+<digits>), if it is a
 * number that can exist: a real Nigerian one, or a valid international one. The full metadata
 * checks each country's number plans, not only their lengths.
 */
export function toE164(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed?.isValid()) throw badRequest(RULE_MESSAGES.phoneFormat);
  return parsed.number;
}
