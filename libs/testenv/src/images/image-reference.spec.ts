import { describe, expect, it } from 'vitest';
import { debianVersionTag, imageReference, tagOf } from './image-reference.ts';

describe('image references', () => {
  it('turns Debian versions into valid tags', () => {
    expect(debianVersionTag('5:7.0.15-1~deb12u10')).toBe('7.0.15-1_deb12u10');
    expect(debianVersionTag('1:1.35.0-4+deb12u1+b1')).toBe('1.35.0-4_deb12u1_b1');
  });

  it('accepts registry-qualified names with valid tags and says what is wrong otherwise', () => {
    expect(imageReference('localhost/domain-operators/redis', '7.0.15-1_deb12u10')).toBe('localhost/domain-operators/redis:7.0.15-1_deb12u10');
    expect(imageReference('ghcr.io/domain-operators/kafka-operator', '0.1.0')).toBe('ghcr.io/domain-operators/kafka-operator:0.1.0');
    expect(imageReference('localhost:5000/a/b', 'v1')).toBe('localhost:5000/a/b:v1');
    expect(() => imageReference('redis', '7.2')).toThrow(/registry host/);
    expect(() => imageReference('localhost/Redis', '7')).toThrow(/not a valid path component/);
    expect(() => imageReference('localhost/redis', '7.0~1')).toThrow(/not a valid tag/);
  });

  it('finds the tag after a registry port', () => {
    expect(tagOf('localhost:5000/a/b:v1')).toBe('v1');
    expect(() => tagOf('localhost:5000/a/b')).toThrow(/no tag/);
  });
});
