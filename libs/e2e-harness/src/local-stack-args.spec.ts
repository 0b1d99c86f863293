import { describe, expect, it } from 'vitest';
import { parseLocalStackArgs } from './local-stack-args.ts';

describe('parseLocalStackArgs', () => {
  it('runs all three operators by default', () => {
    expect(parseLocalStackArgs([])).toEqual({ systems: ['kafka', 'opensearch', 'redis'] });
  });

  it('takes --only in the canonical order, without duplicates, and --instance', () => {
    expect(parseLocalStackArgs(['--only', 'redis,kafka,redis', '--instance', 't1'])).toEqual({ systems: ['kafka', 'redis'], instance: 't1' });
  });

  it('refuses unknown operators, bad instance ids and stray arguments', () => {
    expect(() => parseLocalStackArgs(['--only', 'mysql'])).toThrow(/unknown operator "mysql"/);
    expect(() => parseLocalStackArgs(['--only', ''])).toThrow(/names no operator/);
    expect(() => parseLocalStackArgs(['--instance', 'Team_A'])).toThrow(/--instance "Team_A"/);
    expect(() => parseLocalStackArgs(['up'])).toThrow();
  });
});
