import { describe, expect, it } from 'vitest';
import type { Exec } from './exec.ts';
import { importArgs, importImages, imagesToImport, type ImageArchive } from './import-images.ts';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;
const images: ImageArchive[] = [
  { reference: 'localhost/a:1', manifestDigest: D1, archive: '/x/a.tar' },
  { reference: 'localhost/b:1', manifestDigest: D2, archive: '/x/b.tar' },
];
const row = (ref: string, digest: string, unpacked: boolean): string => `${ref} application/vnd.oci.image.manifest.v1+json ${digest} complete (2/2) 1.0 MiB/1.0 MiB ${unpacked}`;
const table = (...rows: string[]): string => ['REF TYPE DIGEST STATUS SIZE UNPACKED', ...rows, ''].join('\n');

describe('imagesToImport', () => {
  it('keeps what is absent, at another digest or not unpacked', () => {
    expect(imagesToImport(images, [{ reference: 'localhost/a:1', digest: D1, unpacked: true }]).map((i) => i.reference)).toEqual(['localhost/b:1']);
    expect(imagesToImport(images, [{ reference: 'localhost/a:1', digest: D2, unpacked: true }, { reference: 'localhost/b:1', digest: D2, unpacked: false }])).toEqual(images);
  });
});

describe('importImages', () => {
  it('imports only the missing image, unpacked for overlayfs in k8s.io, then checks again', async () => {
    const calls: string[][] = [];
    let imported = false;
    const exec: Exec = (command, args) => {
      calls.push([command, ...args]);
      if (args.includes('import')) imported = true;
      return Promise.resolve(args.includes('check') ? table(row('localhost/a:1', D1, true), ...(imported ? [row('localhost/b:1', D2, true)] : [])) : '');
    };
    const results = await importImages(images, { ctr: '/bin/ctr', address: '/run/c.sock', exec });
    expect(results).toEqual([
      { reference: 'localhost/a:1', imported: false },
      { reference: 'localhost/b:1', imported: true },
    ]);
    expect(calls[0]).toEqual(['/bin/ctr', '--address', '/run/c.sock', '--namespace', 'k8s.io', 'images', 'check', '--snapshotter', 'overlayfs', 'name==localhost/a:1', 'name==localhost/b:1']);
    expect(calls[1]).toEqual(['/bin/ctr', ...importArgs({ address: '/run/c.sock' }, '/x/b.tar')]);
    expect(calls[1]).toEqual(['/bin/ctr', '--address', '/run/c.sock', '--namespace', 'k8s.io', 'images', 'import', '--platform', 'linux/amd64', '--snapshotter', 'overlayfs', '/x/b.tar']);
    expect(calls).toHaveLength(3);
  });

  it('fails naming the image containerd still lacks after the import', async () => {
    const exec: Exec = (_command, args) => Promise.resolve(args.includes('check') ? table(row('localhost/a:1', D1, true)) : '');
    await expect(importImages(images, { ctr: 'ctr', address: '/s', exec })).rejects.toThrow(/lacks localhost\/b:1@sha256:2/);
  });

  it('imports everything when the check itself fails', async () => {
    const imports: string[] = [];
    let checks = 0;
    const exec: Exec = (_command, args) => {
      if (args.includes('import')) imports.push(args.at(-1) ?? '');
      if (args.includes('check') && checks++ === 0) return Promise.reject(new Error('ctr: unable to check'));
      return Promise.resolve(table(row('localhost/a:1', D1, true), row('localhost/b:1', D2, true)));
    };
    await importImages(images, { ctr: 'ctr', address: '/s', exec });
    expect(imports).toEqual(['/x/a.tar', '/x/b.tar']);
  });
});
