import { describe, expect, it } from 'vitest';
import { caBundle, groupFile, NONROOT, passwdFile, ROOT, systemFiles } from './system-files.ts';

describe('system files', () => {
  it('writes passwd and group lines in the order given', () => {
    expect(passwdFile([ROOT, NONROOT, { name: 'redis', uid: 999, home: '/var/lib/redis', shell: '/usr/sbin/nologin' }])).toBe(
      'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\nredis:x:999:999:redis:/var/lib/redis:/usr/sbin/nologin\n',
    );
    expect(groupFile([{ name: 'root', gid: 0 }, { name: 'adm', gid: 4, members: ['a', 'b'] }])).toBe('root:x:0:\nadm:x:4:a,b\n');
    expect(systemFiles({ accounts: [ROOT], groups: [] }).map((i) => i.path)).toEqual(['/etc/passwd', '/etc/group', '/etc/nsswitch.conf']);
  });

  it('concatenates certificates in C-locale order of their names, adding missing final newlines', () => {
    const bundle = caBundle([
      { name: 'mozilla/b.crt', data: Buffer.from('B') },
      { name: 'mozilla/A.crt', data: Buffer.from('A\n') },
      { name: 'local/z.crt', data: Buffer.from('Z') },
      { name: 'mozilla/readme.txt', data: Buffer.from('not a cert') },
    ]);
    expect(Buffer.from(bundle).toString()).toBe('Z\nA\nB\n');
  });
});
