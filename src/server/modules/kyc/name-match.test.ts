import { describe, expect, it } from 'vitest';
import { identityFromVerifiedName, namesMatch, nameTokens, tokensMatch } from './name-match.ts';

const ada = { givenNames: ['ADA', 'NGOZI'], surname: 'OKAFOR' };

describe('the KYC name rule', () => {
  it('normalises case, accents, punctuation and honorifics', () => {
    expect(nameTokens("  Mrs. Adébáyọ̀  O'Neil-Okafor ")).toEqual([
      'adebayo',
      'o',
      'neil',
      'okafor',
    ]);
    expect(nameTokens('CHIEF (DR) EMEKA, OKONKWO')).toEqual(['emeka', 'okonkwo']);
  });

  it('allows one edit only in tokens of five letters or more', () => {
    expect(tokensMatch('oluwaseun', 'oluwasean')).toBe(true);
    expect(tokensMatch('okafor', 'okafro')).toBe(false); // a swap is two edits
    expect(tokensMatch('okafor', 'okafo')).toBe(true);
    expect(tokensMatch('ada', 'ida')).toBe(false);
    expect(tokensMatch('tolu', 'tolu')).toBe(true);
    expect(tokensMatch('chinedu', 'chinwe')).toBe(false);
  });

  it('matches surname plus one given name, in any order, ignoring extra names', () => {
    expect(namesMatch(ada, 'Ada Okafor')).toBe(true);
    expect(namesMatch(ada, 'OKAFOR ADA NGOZI')).toBe(true);
    expect(namesMatch(ada, 'Ngozi Okafor')).toBe(true);
    expect(namesMatch(ada, 'Ada Ngozi Okafor-Bello')).toBe(true);
    expect(namesMatch(ada, 'Adaeze Okafor')).toBe(false);
    expect(namesMatch(ada, 'Ada Okoro')).toBe(false);
    expect(namesMatch(ada, 'Okafor')).toBe(false);
    // Surname and given name must be two different tokens.
    expect(namesMatch({ givenNames: ['OKAFOR'], surname: 'OKAFOR' }, 'Okafor Bello')).toBe(false);
  });

  it('accepts a one-letter typo in a long token, not in a short one', () => {
    const seun = { givenNames: ['OLUWASEUN', ''], surname: 'ADEBAYO' };
    expect(namesMatch(seun, 'Oluwasean Adebayo')).toBe(true);
    expect(namesMatch(seun, 'Oluwasean Adebayp')).toBe(true);
    expect(namesMatch(ada, 'Ida Okafor')).toBe(false);
  });

  it('a double-barrelled surname must be there whole', () => {
    const identity = { givenNames: ['Tunde'], surname: 'Bello-Okafor' };
    expect(namesMatch(identity, 'Tunde Bello Okafor')).toBe(true);
    expect(namesMatch(identity, 'Tunde Okafor')).toBe(false);
  });

  it('reads the stored verified name with the surname last', () => {
    expect(identityFromVerifiedName('Ada Ngozi Okafor')).toEqual({
      givenNames: ['ada', 'ngozi'],
      surname: 'okafor',
    });
    expect(namesMatch(identityFromVerifiedName('Ada Ngozi Okafor'), 'OKAFOR, ADA')).toBe(true);
  });
});
