import { describe, expect, it } from 'vitest';
import { changelogSection, versionOfTag } from './release-version.ts';

describe('changelogSection', () => {
  const changelog = ['# Changelog', '', '## [Unreleased]', '', '## [0.2.0] - 2027-01-05', '', '- Added X.', '', '## [0.1.0] - 2026-12-02', '', '- First.', ''].join('\n');

  it("is a version's lines up to the next section, with the heading's date", () => {
    expect(changelogSection(changelog, '0.2.0')).toEqual({ date: '2027-01-05', body: '- Added X.' });
    expect(changelogSection(changelog, '0.1.0')).toEqual({ date: '2026-12-02', body: '- First.' });
  });

  it('is undefined for a version without a section, and does not match a prefix', () => {
    expect(changelogSection(changelog, '0.3.0')).toBeUndefined();
    expect(changelogSection('## [0.1.00]\n- x\n', '0.1.0')).toBeUndefined();
  });
});

describe('versionOfTag', () => {
  it('strips the v of a release tag and refuses anything else', () => {
    expect(versionOfTag('v1.2.3')).toBe('1.2.3');
    expect(versionOfTag('v1.2.3-rc.1')).toBe('1.2.3-rc.1');
    expect(() => versionOfTag('1.2.3')).toThrow(/vMAJOR/);
    expect(() => versionOfTag('v1.2')).toThrow(/vMAJOR/);
  });
});
