import type { AccessLevel, Platform, VersionType } from './domain';

/**
 * What the release pages show of a version and how a script fetches its files (docs/decisions/081):
 * the badges a version wears, the addresses a licence's download secret opens, and the commands a
 * reader pastes into a shell. Shared by the pages and their tests.
 */

export const RELEASE_BADGES = ['latest', 'preRelease', 'maintenance', 'endOfLife'] as const;
export type ReleaseBadge = (typeof RELEASE_BADGES)[number];

/**
 * The badges of a version, in the order shown: "Latest" when it is the newest published version the
 * viewer's licence allows (`latestFor` holds that access level; for staff with no licence in view,
 * any level), then what its type says of it: a beta or alpha is a pre-release, a maintenance or eol
 * version says so, a stable one needs no word.
 */
export function releaseBadges(
  version: { type: VersionType; latestFor: readonly AccessLevel[] },
  viewerLevel: AccessLevel | null,
): ReleaseBadge[] {
  const badges: ReleaseBadge[] = [];
  const latest = viewerLevel === null ? version.latestFor.length > 0 : version.latestFor.includes(viewerLevel);
  if (latest) badges.push('latest');
  if (version.type === 'beta' || version.type === 'alpha') badges.push('preRelease');
  if (version.type === 'maintenance') badges.push('maintenance');
  if (version.type === 'eol') badges.push('endOfLife');
  return badges;
}

const part = (value: string) => encodeURIComponent(value);

/** What stands for the secret on screen until the reader reveals it. */
export const MASKED_SECRET = '••••••••';

/**
 * An address with its `secret` parameter's value replaced by the mask, for display: the copied text
 * carries the real one.
 */
export function maskSecret(url: string, secret: string): string {
  const encoded = `secret=${part(secret)}`;
  return url.split(encoded).join(`secret=${MASKED_SECRET}`);
}

/**
 * A word for a POSIX shell: as it is when made only of characters no shell treats specially, else in
 * single quotes (a quote inside closes, escapes and reopens). A URL with `?` is always quoted: zsh
 * would read it as a pattern.
 */
export function shellWord(value: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A string for PowerShell: single quotes, in which only a doubled quote is special. */
export function powerShellString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export const COMMAND_KINDS = ['curl', 'wget', 'npm', 'powershell', 'docker'] as const;
type CommandKind = (typeof COMMAND_KINDS)[number];

interface DownloadCommand {
  kind: CommandKind;
  command: string;
}

/**
 * The commands that fetch one artifact from `url` into `fileName`, for its platform: curl (resumes
 * with `-C -`, fails on an HTTP error with `-f`) and wget (`-c` resumes; `-O` names the file, which
 * wget would otherwise name after the address's last part, `index.html?secret=…`) for every
 * platform; `npm install` of the tarball for npm; PowerShell's Invoke-WebRequest for windows; the
 * download then `docker load` for docker.
 */
export function downloadCommands(platform: Platform, fileName: string, url: string): DownloadCommand[] {
  const file = shellWord(fileName);
  const address = shellWord(url);
  const curl = `curl -fL -C - -o ${file} ${address}`;
  const commands: DownloadCommand[] = [
    { kind: 'curl', command: curl },
    { kind: 'wget', command: `wget -c -O ${file} ${address}` },
  ];
  if (platform === 'npm') commands.push({ kind: 'npm', command: `npm install ${address}` });
  if (platform === 'windows') {
    commands.push({
      kind: 'powershell',
      command: `Invoke-WebRequest -Uri ${powerShellString(url)} -OutFile ${powerShellString(fileName)}`,
    });
  }
  if (platform === 'docker') commands.push({ kind: 'docker', command: `${curl} && docker load -i ${file}` });
  return commands;
}
