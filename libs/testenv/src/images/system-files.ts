import { compareBytes } from './layer-entries.ts';
import type { LayerItem } from './file-layer.ts';

/** A user of an image's `/etc/passwd`; its primary group has the same number. */
export interface Account {
  readonly name: string;
  readonly uid: number;
  readonly home: string;
  /** Defaults to `/sbin/nologin`, as in distroless (no image here has a login shell to offer). */
  readonly shell?: string;
}

/** A group of an image's `/etc/group`. */
export interface Group {
  readonly name: string;
  readonly gid: number;
  readonly members?: readonly string[];
}

/** `root`, UID 0, home `/root`. */
export const ROOT: Account = { name: 'root', uid: 0, home: '/root' };
/** `nonroot`, UID 65532, home `/home/nonroot`: distroless's unprivileged user, which the charts run as. */
export const NONROOT: Account = { name: 'nonroot', uid: 65532, home: '/home/nonroot' };
/** `nobody`, UID 65534, home `/nonexistent`. */
export const NOBODY: Account = { name: 'nobody', uid: 65534, home: '/nonexistent' };

/** `/etc/passwd` for `accounts`, in the order given. Pure. */
export function passwdFile(accounts: readonly Account[]): string {
  return accounts.map((a) => `${a.name}:x:${a.uid}:${a.uid}:${a.name}:${a.home}:${a.shell ?? '/sbin/nologin'}\n`).join('');
}

/** `/etc/group` for `groups`, in the order given. Pure. */
export function groupFile(groups: readonly Group[]): string {
  return groups.map((g) => `${g.name}:x:${g.gid}:${(g.members ?? []).join(',')}\n`).join('');
}

/** `/etc/nsswitch.conf`: everything from files, hosts also from DNS (what glibc needs for cluster names). */
export const NSSWITCH_CONF = [
  'passwd:         files',
  'group:          files',
  'shadow:         files',
  'hosts:          files dns',
  'networks:       files',
  'protocols:      files',
  'services:       files',
  'ethers:         files',
  'rpc:            files',
  '',
].join('\n');

/** A certificate file shipped under `/usr/share/ca-certificates`. */
export interface CertificateFile {
  /** The path relative to `/usr/share/ca-certificates`, e.g. `mozilla/ISRG_Root_X1.crt`. */
  readonly name: string;
  readonly data: Uint8Array;
}

/**
 * `/etc/ssl/certs/ca-certificates.crt` as `update-ca-certificates` writes it with every certificate enabled (the
 * default `/etc/ca-certificates.conf`): each `.crt` in C-locale order of its name, a newline added where a file
 * lacks a final one. Pure.
 */
export function caBundle(certificates: readonly CertificateFile[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const cert of [...certificates].filter((c) => c.name.endsWith('.crt')).sort((a, b) => compareBytes(a.name, b.name))) {
    parts.push(cert.data);
    if (cert.data.byteLength > 0 && cert.data[cert.data.byteLength - 1] !== 0x0a) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** What {@link systemFiles} writes. */
export interface SystemFilesSpec {
  readonly accounts: readonly Account[];
  readonly groups: readonly Group[];
}

/** `/etc/passwd`, `/etc/group` and `/etc/nsswitch.conf` as `0644 root:root` layer items. Pure. */
export function systemFiles(spec: SystemFilesSpec): LayerItem[] {
  const file = (path: string, text: string): LayerItem => ({ type: 'bytes', path, mode: 0o644, uid: 0, gid: 0, data: Buffer.from(text) });
  return [file('/etc/passwd', passwdFile(spec.accounts)), file('/etc/group', groupFile(spec.groups)), file('/etc/nsswitch.conf', NSSWITCH_CONF)];
}
