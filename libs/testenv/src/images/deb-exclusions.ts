/**
 * Packages a container rootfs leaves out although a package in it depends on them, with the reason. The layer
 * builder runs no maintainer scripts and no init system, so what exists only to serve those is not needed; what
 * the scripts would have created (users, directories, the CA bundle) the image definitions create instead.
 * A dependency clause that names any of these is skipped as a whole. Found by resolving the closures of every
 * image here and running the programs (`redis-server`, `redis-cli`, `node`) in a chroot of the result.
 */
export const DEBIAN_EXCLUSIONS: ReadonlyMap<string, string> = new Map([
  ['adduser', 'maintainer scripts create system users with it; /etc/passwd and /etc/group are written directly'],
  ['passwd', 'only reached through adduser (useradd, shadow tools)'],
  ['debconf', 'asks configuration questions in maintainer scripts, which do not run'],
  ['debconf-2.0', 'the virtual package debconf provides'],
  ['cdebconf', 'the other provider of debconf-2.0'],
  ['init-system-helpers', 'update-rc.d and deb-systemd-helper for maintainer scripts; a container has no init system'],
  ['lsb-base', 'the function library of /etc/init.d scripts; nothing starts them'],
  ['sysvinit-utils', 'only reached through lsb-base (start-stop-daemon for init scripts)'],
  ['systemd', 'no init system runs in a container (libsystemd0, the client library, stays)'],
  ['usrmerge', 'converts a host to merged /usr; the layer keeps the paths the packages ship'],
  ['usr-is-merged', 'the marker usrmerge provides'],
  ['dpkg', 'no package database in the image; nothing installs packages in it'],
  ['perl-base', 'only maintainer scripts and dpkg tools use Perl'],
  ['awk', "base-files' maintainer script uses it (a virtual package, provided by mawk)"],
  ['mawk', 'the provider of awk'],
  ['openssl', 'the command-line tool; ca-certificates needs it only for update-ca-certificates, whose bundle is generated'],
]);
