import { describe, expect, it } from 'vitest';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

interface Category {
  id: string;
  title: string;
  emoji: string;
}
interface Bank {
  id: string;
  bankName: string;
  code: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EMOJI = /^(\p{Extended_Pictographic}|\p{Regional_Indicator})/u;

describe('GET /api/v1/category', () => {
  it('lists categories, each with an id, a title and an emoji, sorted by title', async () => {
    const app = fileApp();

    const response = await app.inject({ url: '/api/v1/category' });

    expect(response.statusCode).toBe(200);
    const categories: Category[] = response.json().data;
    expect(categories.length).toBeGreaterThanOrEqual(5);
    for (const category of categories) {
      expect(Object.keys(category).sort()).toEqual(['emoji', 'id', 'title']);
      expect(category.id).toMatch(UUID);
      expect(category.title.trim()).not.toBe('');
      expect(category.emoji, category.title).toMatch(EMOJI);
    }
    const titles = categories.map((c) => c.title);
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(titles).size).toBe(titles.length);
    expect(categories).toContainEqual(expect.objectContaining({ title: 'Sports', emoji: '⚽' }));
  });
});

describe('GET /api/v1/bank', () => {
  it('lists Nigerian banks with their real institution codes', async () => {
    const app = fileApp();

    const response = await app.inject({ url: '/api/v1/bank' });

    expect(response.statusCode).toBe(200);
    const banks: Bank[] = response.json().data;
    expect(banks.length).toBeGreaterThanOrEqual(20);
    const byName = new Map(banks.map((bank) => [bank.bankName, bank.code]));
    expect(byName.get('Guaranty Trust Bank')).toBe('058');
    expect(byName.get('Access Bank')).toBe('044');
    expect(byName.get('Zenith Bank')).toBe('057');
    expect(byName.get('First Bank of Nigeria')).toBe('011');
    expect(byName.get('United Bank For Africa')).toBe('033');
    for (const bank of banks) {
      expect(Object.keys(bank).sort()).toEqual(['bankName', 'code', 'id']);
      expect(bank.id).toMatch(UUID);
      expect(bank.code).toMatch(/^\d{3,6}$/);
    }
    expect(new Set(banks.map((bank) => bank.code)).size).toBe(banks.length);
    const names = banks.map((bank) => bank.bankName);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});
