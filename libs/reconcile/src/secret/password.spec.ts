import { describe, expect, it } from 'vitest';
import { generatePassword } from './password.ts';

describe('generatePassword', () => {
  it('makes 32 distinct URL-safe characters by default (Kafka SCRAM, Redis ACL)', () => {
    const passwords = new Set(Array.from({ length: 100 }, () => generatePassword()));
    expect(passwords.size).toBe(100);
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('adds one character of each class for systems whose rules ask for them (OpenSearch)', () => {
    const password = generatePassword('every-class');
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}-Aa1$/);
    for (const klass of [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/]) expect(password).toMatch(klass);
    expect(generatePassword('every-class')).not.toBe(password);
  });
});
