import { describe, expect, it } from 'vitest';
import { expandVars } from './expand.ts';

const vars = new Map([
  ['PASS', 's3cret'],
  ['POD_NAME', 'redis-0'],
  ['EMPTY', ''],
]);

describe('expandVars', () => {
  it('replaces defined variables', () => {
    expect(expandVars('--requirepass $(PASS)', vars)).toBe('--requirepass s3cret');
    expect(expandVars('$(POD_NAME).$(POD_NAME)', vars)).toBe('redis-0.redis-0');
    expect(expandVars('a$(EMPTY)b', vars)).toBe('ab');
  });

  it('keeps undefined references verbatim', () => {
    expect(expandVars('$(NOPE)-x', vars)).toBe('$(NOPE)-x');
  });

  it('treats $$ as an escaped dollar', () => {
    expect(expandVars('$$(PASS)', vars)).toBe('$(PASS)');
    expect(expandVars('cost $$5', vars)).toBe('cost $5');
  });

  it('keeps unclosed references, lone dollars and other characters', () => {
    expect(expandVars('$(PASS', vars)).toBe('$(PASS');
    expect(expandVars('a$', vars)).toBe('a$');
    expect(expandVars('$HOME', vars)).toBe('$HOME');
    expect(expandVars('', vars)).toBe('');
  });
});
