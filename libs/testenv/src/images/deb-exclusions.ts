/**
 * Packages a container rootfs leaves out although a package in it depends on them, with the reason. The layer
 * builder runs no maintainer scripts and no init system, so what exists only to serve those is not needed; what
 * the scripts would have created (users, directories, the CA bundle) the image definitions write instead. A
 * dependency clause naming any of these is skipped as a whole (`debconf | debconf-2.0` included).
 *
 * Decided by trying (Debian 12, December 2026): these six are exactly the names the images' closures ask for.
 * Without them the Redis closure grows from 18 to 53 packages (adduser → passwd → PAM, SELinux and audit
 * libraries; init-system-helpers → usrmerge → perl; lsb-base → sysvinit-utils; debconf; dpkg, tar), and the
 * distroless base does not resolve at all (`base-files` pre-depends on the virtual `awk`). redis-server,
 * redis-cli, busybox's sh and node all run in a chroot of the trimmed layers.
 */
export const DEBIAN_EXCLUSIONS: ReadonlyMap<string, string> = new Map([
  ['adduser', 'maintainer scripts create system users with it; /etc/passwd and /etc/group are written directly'],
  ['debconf', 'asks configuration questions in maintainer scripts, which do not run'],
  ['init-system-helpers', 'update-rc.d and deb-systemd-helper for maintainer scripts; a container has no init system'],
  ['lsb-base', 'the function library of /etc/init.d scripts; nothing starts them'],
  ['awk', "base-files' maintainer script uses it (a virtual package, provided by mawk)"],
  ['openssl', 'the command-line tool; ca-certificates needs it only for update-ca-certificates, whose bundle is generated'],
]);
