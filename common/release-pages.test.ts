import { secretSumsPath, versionFeedPath } from './api/catalogue';
import { describe, expect, it } from 'vitest';
import { secretDownloadPath } from './api/catalogue';
import {
  downloadCommands,
  MASKED_SECRET,
  maskSecret,
  powerShellString,
  releaseBadges,
  shellWord,
} from './release-pages';

const URL_OF = (platform: string) =>
  `https://portal.example${secretDownloadPath(platform, 'graph-server', '4.1.0', 'S3cr/et+')}`;
const ENCODED = `https://portal.example/api/get/linux/graph-server/4.1.0/?secret=S3cr%2Fet%2B`;

describe('releaseBadges', () => {
  it('marks the newest version the viewer’s access level allows as latest, and only for that level', () => {
    expect(releaseBadges({ type: 'stable', latestFor: ['stable', 'beta'] }, 'stable')).toEqual(['latest']);
    expect(releaseBadges({ type: 'stable', latestFor: ['stable'] }, 'beta')).toEqual([]);
    expect(releaseBadges({ type: 'beta', latestFor: ['beta', 'alpha'] }, 'alpha')).toEqual(['latest', 'preRelease']);
    expect(releaseBadges({ type: 'stable', latestFor: [] }, 'alpha')).toEqual([]);
  });

  it('without a licence in view (staff on the product page), latest for any level', () => {
    expect(releaseBadges({ type: 'alpha', latestFor: ['alpha'] }, null)).toEqual(['latest', 'preRelease']);
    expect(releaseBadges({ type: 'stable', latestFor: [] }, null)).toEqual([]);
  });

  it('names pre-releases, maintenance and end-of-life versions; a stable one wears no type badge', () => {
    expect(releaseBadges({ type: 'alpha', latestFor: [] }, 'alpha')).toEqual(['preRelease']);
    expect(releaseBadges({ type: 'beta', latestFor: [] }, 'beta')).toEqual(['preRelease']);
    expect(releaseBadges({ type: 'maintenance', latestFor: ['stable'] }, 'stable')).toEqual(['latest', 'maintenance']);
    expect(releaseBadges({ type: 'eol', latestFor: [] }, 'stable')).toEqual(['endOfLife']);
    expect(releaseBadges({ type: 'stable', latestFor: [] }, 'stable')).toEqual([]);
  });
});

describe('addresses of a licence’s secret', () => {
  it('builds the feed and checksums paths as the download paths are built, parts encoded', () => {
    expect(versionFeedPath('graph-server', 'a b&c')).toBe('/api/feeds/graph-server.atom?secret=a%20b%26c');
    expect(secretSumsPath('graph-server', '1.0.0+build.1', 'x/y')).toBe(
      '/api/get/sums/graph-server/1.0.0%2Bbuild.1/?secret=x%2Fy',
    );
    expect(secretSumsPath('graph-server', 'latest', 's')).toBe('/api/get/sums/graph-server/latest/?secret=s');
  });

  it('masks the secret for the screen and leaves the rest of the address', () => {
    expect(URL_OF('linux')).toBe(ENCODED);
    expect(maskSecret(ENCODED, 'S3cr/et+')).toBe(
      `https://portal.example/api/get/linux/graph-server/4.1.0/?secret=${MASKED_SECRET}`,
    );
    expect(maskSecret(ENCODED, 'S3cr/et+')).not.toContain('S3cr');
  });
});

describe('shell quoting', () => {
  it('leaves plain words alone and single-quotes the rest, a quote inside closed, escaped and reopened', () => {
    expect(shellWord('graph-server-4.1.0.tar.gz')).toBe('graph-server-4.1.0.tar.gz');
    expect(shellWord(ENCODED)).toBe(`'${ENCODED}'`);
    expect(shellWord("it's here.tgz")).toBe(`'it'\\''s here.tgz'`);
    expect(shellWord('a $HOME `x` "q" *.zip')).toBe(`'a $HOME \`x\` "q" *.zip'`);
    expect(shellWord('')).toBe("''");
  });

  it('doubles single quotes in PowerShell strings', () => {
    expect(powerShellString("it's")).toBe("'it''s'");
    expect(powerShellString(ENCODED)).toBe(`'${ENCODED}'`);
  });
});

describe('downloadCommands', () => {
  it('offers curl and wget for every platform, resuming and failing on HTTP errors', () => {
    const commands = downloadCommands('linux', 'server.tar.gz', ENCODED);
    expect(commands).toEqual([
      { kind: 'curl', command: `curl -fL -C - -o server.tar.gz '${ENCODED}'` },
      { kind: 'wget', command: `wget -c -O server.tar.gz '${ENCODED}'` },
    ]);
    for (const platform of ['osx', 'generic'] as const) {
      expect(downloadCommands(platform, 'f', ENCODED).map((c) => c.kind)).toEqual(['curl', 'wget']);
    }
  });

  it('adds npm install for npm, Invoke-WebRequest for windows and docker load for docker', () => {
    expect(downloadCommands('npm', 'pkg.tgz', ENCODED)[2]).toEqual({
      kind: 'npm',
      command: `npm install '${ENCODED}'`,
    });
    expect(downloadCommands('windows', 'Setup 4.exe', ENCODED)[2]).toEqual({
      kind: 'powershell',
      command: `Invoke-WebRequest -Uri '${ENCODED}' -OutFile 'Setup 4.exe'`,
    });
    expect(downloadCommands('windows', 'Setup 4.exe', ENCODED)[0].command).toBe(
      `curl -fL -C - -o 'Setup 4.exe' '${ENCODED}'`,
    );
    expect(downloadCommands('docker', 'image.tar', ENCODED)[2]).toEqual({
      kind: 'docker',
      command: `curl -fL -C - -o image.tar '${ENCODED}' && docker load -i image.tar`,
    });
  });

  it('shows the masked address in the same command when given it', () => {
    const shown = downloadCommands('linux', 'f.tgz', maskSecret(ENCODED, 'S3cr/et+'))[0].command;
    expect(shown).toBe(
      `curl -fL -C - -o f.tgz 'https://portal.example/api/get/linux/graph-server/4.1.0/?secret=${MASKED_SECRET}'`,
    );
  });
});
