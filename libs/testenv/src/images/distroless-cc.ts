import { debianLayer } from './debian-layer.ts';
import type { LayerSource } from './image-definition.ts';
import { NOBODY, NONROOT, ROOT, systemFiles } from './system-files.ts';

/**
 * What `gcr.io/distroless/cc-debian12` holds, as Debian 12 packages (distroless's `static`, `base` and `cc`
 * package lists): `base-files` (the FHS directories, `/etc/os-release`), `netbase` (`/etc/services`,
 * `/etc/protocols`), `tzdata`, `media-types` (`/etc/mime.types`), the CA certificates (distroless keeps only the
 * bundle; here the package with its bundle generated), `libc6` and `libssl3` (base), `libgcc-s1`, `libgomp1`,
 * `libstdc++6` and `gcc-12-base` (cc). Left out: the `C.utf8` locale files distroless copies from `libc-bin`
 * (glibc 2.35 and later have `C.UTF-8` built in).
 */
export const DISTROLESS_CC_PACKAGES: readonly string[] = [
  'base-files',
  'netbase',
  'tzdata',
  'media-types',
  'ca-certificates',
  'libc6',
  'libssl3',
  'libgcc-s1',
  'libgomp1',
  'libstdc++6',
  'gcc-12-base',
];

/**
 * The environment distroless sets and an image built on it inherits: the standard `PATH` and `SSL_CERT_FILE`
 * (for OpenSSL, which would otherwise look for a hashed certificate directory that is not there).
 */
export const DISTROLESS_ENV: readonly string[] = [
  'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  'SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt',
];

/** UID and GID of distroless's `nonroot` user, which `:nonroot` images run as. */
export const NONROOT_ID = NONROOT.uid;

/**
 * The root filesystem layer of a `gcr.io/distroless/cc-debian12:nonroot` equivalent: {@link DISTROLESS_CC_PACKAGES}
 * unpacked, the CA bundle at `/etc/ssl/certs/ca-certificates.crt`, distroless's accounts (`root` 0, `nobody`
 * 65534, `nonroot` 65532; groups `root`, `tty`, `staff`, `nobody`, `nonroot`), `/etc/nsswitch.conf`, `/root`
 * 0700, `/home/nonroot` 0700 owned by 65532, `/tmp` 1777. Each call returns a new source: call it once and
 * share the result between images so the layer is planned once.
 */
export function distrolessCcLayer(): LayerSource {
  return debianLayer({
    description: 'distroless cc-debian12 equivalent',
    packages: DISTROLESS_CC_PACKAGES,
    caBundle: true,
    items: [
      ...systemFiles({
        accounts: [ROOT, NOBODY, NONROOT],
        groups: [
          { name: 'root', gid: 0 },
          { name: 'tty', gid: 5 },
          { name: 'staff', gid: 50 },
          { name: 'nobody', gid: NOBODY.uid },
          { name: 'nonroot', gid: NONROOT.uid },
        ],
      }),
      { type: 'directory', path: '/root', mode: 0o700, uid: 0, gid: 0 },
      { type: 'directory', path: '/home', mode: 0o755, uid: 0, gid: 0 },
      { type: 'directory', path: '/home/nonroot', mode: 0o700, uid: NONROOT.uid, gid: NONROOT.uid },
      { type: 'directory', path: '/tmp', mode: 0o1777, uid: 0, gid: 0 },
    ],
  });
}
