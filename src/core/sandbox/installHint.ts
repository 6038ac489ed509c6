// How to get bubblewrap on this system, said as the command for the user's own distribution.
import { readFileSync } from 'node:fs';

const BY_DISTRIBUTION: ReadonlyArray<[RegExp, string]> = [
  [/\b(debian|ubuntu|linuxmint|pop|raspbian)\b/, 'sudo apt install bubblewrap'],
  [/\b(fedora|rhel|centos|rocky|almalinux|amzn)\b/, 'sudo dnf install bubblewrap'],
  [/\b(arch|manjaro|endeavouros)\b/, 'sudo pacman -S bubblewrap'],
  [/\b(opensuse|suse|sles)\b/, 'sudo zypper install bubblewrap'],
  [/\balpine\b/, 'sudo apk add bubblewrap'],
  [/\b(gentoo)\b/, 'sudo emerge sys-apps/bubblewrap'],
  [/\b(nixos)\b/, 'add bubblewrap to environment.systemPackages'],
];

/**
 * One sentence for a system that protects less than bubblewrap would: the install command of this distribution
 * (from /etc/os-release), or what to use where bubblewrap does not exist.
 */
export function bubblewrapHint(platform: NodeJS.Platform = process.platform, osRelease?: string): string {
  if (platform !== 'linux') return 'bubblewrap exists only on Linux: for the full sandbox here, run the tests in a container (verifiedFix.sandbox.backend: container, --sandbox container)';
  let release = osRelease;
  if (release === undefined) {
    try {
      release = readFileSync('/etc/os-release', 'utf8');
    } catch {
      release = '';
    }
  }
  const ids = [...release.matchAll(/^(ID|ID_LIKE)="?([^"\n]*)"?$/gm)].map((m) => m[2].toLowerCase()).join(' ');
  const command = BY_DISTRIBUTION.find(([pattern]) => pattern.test(ids))?.[1];
  return command ? `install bubblewrap for the full sandbox: ${command}` : 'install bubblewrap (the package is named bubblewrap in every major distribution) for the full sandbox';
}
