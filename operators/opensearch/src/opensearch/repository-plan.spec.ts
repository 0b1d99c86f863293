import { describe, expect, it } from 'vitest';
import { compareRepository, flattenSettings, repositoryBody } from './repository-plan.ts';

describe('repository settings', () => {
  it('flatten nested objects with dots and turn every value into the string OpenSearch reports', () => {
    expect(flattenSettings({ location: '/snap', compress: true, chunk_size: 10, max: { restore: '10mb' }, gone: null, roles: ['a', 'b'] })).toEqual({
      location: '/snap',
      compress: 'true',
      chunk_size: '10',
      'max.restore': '10mb',
      roles: 'a,b',
    });
  });

  it('compare the type and every setting of both sides, by their strings', () => {
    const desired = repositoryBody({ type: 'fs', settings: { location: '/snap', compress: true } });
    expect(compareRepository(desired, { type: 'fs', settings: { location: '/snap', compress: 'true' } })).toEqual({ upToDate: true, diff: [] });
    expect(compareRepository(desired, { type: 's3', settings: { location: '/other', readonly: 'true' } })).toEqual({
      upToDate: false,
      diff: ['type: want fs, have s3', 'settings.compress: want true, not registered', 'settings.location: want /snap, have /other', 'settings.readonly: not in the spec (registered: true)'],
    });
  });

  it('take no settings as none', () => {
    expect(repositoryBody({ type: 'fs' })).toEqual({ type: 'fs', settings: {} });
    expect(compareRepository(repositoryBody({ type: 'fs' }), { type: 'fs', settings: {} }).upToDate).toBe(true);
  });
});
