// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Version } from '../../../../common/api/catalogue';
import type { Customer } from '../../../../common/api/customers';
import type { Licence } from '../../../../common/api/licences';
import type { Role } from '../../../../common/roles';
import { browser } from '../../../api/downloads';
import { toastHistory } from '../../../components/notify';
import { customerCan, licenceCan, typeOfRole, versionCan } from '../../../test/abilities';
import { apiError, type FakeHandler, fakeApi } from '../../../test/fake-api';
import { renderPage } from '../../../test/render';
import { VersionsSection } from './VersionsSection';

const customer = (yourRole: Role): Customer => ({
  id: 7,
  name: 'Acme',
  customerKey: 'ACME000001',
  selfService: false,
  paymentStatus: null,
  accountExecutive: null,
  billingEmail: null,
  yourRole,
  yourMembershipId: 70,
  yourSettings: null,
  can: customerCan(yourRole),
});

type LicenceRow = Omit<Licence, 'can'>;
const licence = (productKey: string, productName: string, props: Partial<LicenceRow> = {}): LicenceRow => ({
  id: productKey.length,
  customerId: 7,
  productKey,
  productName,
  isSaas: false,
  customizationType: 'none',
  hasEntityResolution: false,
  status: 'valid',
  startDate: '2026-01-01',
  endDate: '2027-03-05',
  accessLevel: 'stable',
  data: {},
  downloadSecret: `secret of ${productKey}`,
  customizationId: null,
  latestDownload: null,
  latestFilesReleased: null,
  ...props,
});

const licences = [
  licence('cloud', 'Graph Cloud', { isSaas: true }),
  licence('server', 'Graph Server'),
  licence('viewer', 'Graph Viewer', { status: 'invalid' }),
];

/** Licences as the server sends them to a user holding `role` in the customer. */
const licencesFor = (role: Role, rows: LicenceRow[]): Licence[] =>
  rows.map((row) => ({ ...row, can: licenceCan(role, row.customizationType) }));

/** 23 versions of a product, newest first: 1.22.0 down to 1.0.0 (the `can` is added by the answer). */
const versionsOf = (productKey: string, productName: string): Omit<Version, 'can'>[] =>
  Array.from({ length: 23 }, (_, i) => {
    const minor = 22 - i;
    return {
      id: 100 + minor,
      productKey,
      productName,
      title: `Release ${minor}`,
      type: minor === 22 ? 'maintenance' : 'stable',
      semVer: `1.${minor}.0`,
      description: `Notes of **${minor}**`,
      descriptionHtml: `<p>Notes of <strong>${minor}</strong></p>`,
      releaseDate: `2026-${String((minor % 12) + 1).padStart(2, '0')}-15`,
      published: true,
      latestFor: minor === 22 ? ['stable'] : [],
      artifacts:
        minor === 21
          ? []
          : [
              {
                id: minor * 10 + 1,
                platform: 'linux',
                fileName: `server-1.${minor}.0.tar.gz`,
                size: 52_400_000,
                sha256: 'a',
                createdAt: '2026-01-01T00:00:00.000Z',
              },
              {
                id: minor * 10 + 2,
                platform: 'windows',
                fileName: `server-1.${minor}.0.zip`,
                size: 900,
                sha256: 'b',
                createdAt: '2026-01-01T00:00:00.000Z',
              },
            ],
    };
  });

/** A page of versions as the server answers it to a user holding `role` in the customer (with its `can`). */
const pageOf =
  (all: Omit<Version, 'can'>[], role: Role): FakeHandler =>
  ({ query }) => {
    const offset = Number(query.get('pageOffset'));
    const length = Number(query.get('pageLength'));
    const data: Version[] = all
      .slice(offset, offset + length)
      .map((version) => ({ ...version, can: versionCan(typeOfRole(role), version) }));
    return { status: 200, body: { data, offset, total: all.length, totalCapped: false } };
  };

function open(role: Role, routes: Record<string, FakeHandler> = {}, path = '/en/accounts/7') {
  const api = fakeApi({
    'GET /api/customers/7/licenses': () => ({
      status: 200,
      body: { data: licencesFor(role, licences), offset: 0, total: 3, totalCapped: false },
    }),
    'GET /api/products/server/versions': pageOf(versionsOf('server', 'Graph Server'), role),
    'GET /api/products/viewer/versions': pageOf(versionsOf('viewer', 'Graph Viewer').slice(0, 2), role),
    'GET /api/download/linux': () => ({ status: 200, body: { ok: true } }),
    ...routes,
  });
  renderPage(<VersionsSection customer={customer(role)} />, { path, route: '/:locale/accounts/:id' });
  return api;
}

const cards = () => screen.queryAllByTestId('version-card');
const semVers = () => cards().map((card) => card.getAttribute('data-semver'));
const card = async (semVer: string) => {
  await waitFor(() => expect(semVers()).toContain(semVer));
  return cards().find((c) => c.getAttribute('data-semver') === semVer) as HTMLElement;
};
const artifact = (element: HTMLElement, platform: string) =>
  within(element)
    .getAllByTestId('version-artifact')
    .find((a) => a.getAttribute('data-platform') === platform) as HTMLElement;
const lastNotification = () => toastHistory.getSnapshot()[0];

let assign: ReturnType<typeof vi.fn<(url: string) => void>>;
beforeEach(() => {
  assign = vi.fn<(url: string) => void>();
  vi.spyOn(browser, 'assign').mockImplementation(assign);
  vi.spyOn(browser, 'origin').mockReturnValue('https://portal.example.com');
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  toastHistory.clear();
});

describe('VersionsSection: products and versions', () => {
  it('selects the first product for a technical contact once the licences are in, SaaS left out, and lists its newest versions', async () => {
    const api = open('technicalContact');
    const server = await card('1.22.0');
    const select = screen.getByLabelText('Product') as HTMLSelectElement;
    expect(select.value).toBe('server');
    expect(Array.from(select.options).map((o) => o.textContent)).toEqual(['Graph Server', 'Graph Viewer']);
    expect(semVers()).toEqual(Array.from({ length: 10 }, (_, i) => `1.${22 - i}.0`));
    expect(
      within(server)
        .getAllByTestId('version-badge')
        .map((badge) => badge.textContent),
    ).toEqual(['Latest', 'Maintenance']);
    // the next one is neither the latest nor of a type that says anything
    expect(within(await card('1.20.0')).queryAllByTestId('version-badge')).toEqual([]);
    expect(within(server).getByText('Release 22')).toBeTruthy();
    expect(within(server).getByTestId('version-release-date').textContent).toBe('Released 2026-11-15');
    expect(within(server).getByTestId('version-description').innerHTML).toBe('<p>Notes of <strong>22</strong></p>');
    expect(within(artifact(server, 'linux')).getByText('server-1.22.0.tar.gz · 52.4 MB')).toBeTruthy();
    expect(within(await card('1.21.0')).getByTestId('version-no-artifact').textContent).toBe(
      'Nothing to download for this version yet.',
    );
    const call = api.calls('GET /api/products/server/versions')[0];
    expect([call.query.get('customerId'), call.query.get('pageOffset'), call.query.get('pageLength')]).toEqual([
      '7',
      '0',
      '10',
    ]);
    // the licences table's page, asked once for both sections
    expect(api.calls('GET /api/customers/7/licenses').map((c) => c.query.get('pageLength'))).toEqual(['10']);
  });

  it('opens on the first product of the list, whichever has the newest release (spec 4)', async () => {
    const api = open('technicalContact', {
      'GET /api/customers/7/licenses': () => ({
        status: 200,
        body: {
          data: licencesFor('technicalContact', [
            licence('cloud', 'Graph Cloud', { isSaas: true, latestFilesReleased: '2026-11-01' }),
            licence('server', 'Graph Server', { latestFilesReleased: null }),
            licence('viewer', 'Graph Viewer', { latestFilesReleased: '2026-10-01' }),
          ]),
          offset: 0,
          total: 3,
          totalCapped: false,
        },
      }),
      'GET /api/products/server/versions': pageOf([], 'technicalContact'),
    });
    await waitFor(() => expect((screen.getByLabelText('Product') as HTMLSelectElement).value).toBe('server'));
    await waitFor(() => expect(api.calls('GET /api/products/server/versions').length).toBeGreaterThan(0));
    expect(api.calls('GET /api/products/viewer/versions')).toHaveLength(0);
  });

  it('offers the products of every licence when the customer holds more than a page of them', async () => {
    const many = licencesFor(
      'technicalContact',
      Array.from({ length: 12 }, (_, i) => licence(`product-${i + 1}`, `Product ${i + 1}`)),
    );
    const api = open('technicalContact', {
      'GET /api/customers/7/licenses': ({ query }) => {
        const length = Number(query.get('pageLength'));
        return {
          status: 200,
          body: { data: many.slice(0, length), offset: 0, total: many.length, totalCapped: false },
        };
      },
      'GET /api/products/product-1/versions': pageOf([], 'technicalContact'),
    });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(12));
    expect(screen.getAllByRole('option').at(-1)?.textContent).toBe('Product 12');
    expect(api.calls('GET /api/customers/7/licenses').map((c) => c.query.get('pageLength'))).toEqual(['10', '100']);
  });

  it('asks other roles to choose a product before loading any version', async () => {
    const api = open('businessOwner');
    const select = (await screen.findByLabelText('Product')) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(Array.from(select.options).map((o) => o.textContent)).toEqual([
      'Choose a product',
      'Graph Server',
      'Graph Viewer',
    ]);
    expect(api.calls('GET /api/products/server/versions')).toHaveLength(0);
    fireEvent.change(select, { target: { value: 'viewer' } });
    await card('1.21.0');
    expect(semVers()).toEqual(['1.22.0', '1.21.0']);
    expect(screen.queryByTestId('versions-load-more')).toBeNull();
    expect(api.calls('GET /api/products/server/versions')).toHaveLength(0);
  });

  it('opens the product a shared link names (versions-product), for any role', async () => {
    const api = open('businessOwner', {}, '/en/accounts/7?versions-product=viewer');
    await card('1.21.0');
    expect(((await screen.findByLabelText('Product')) as HTMLSelectElement).value).toBe('viewer');
    expect(api.calls('GET /api/products/server/versions')).toHaveLength(0);
  });

  it('appends the previous releases: "Load 10", then "Load 3", then nothing more', async () => {
    const api = open('technicalContact');
    await card('1.13.0');
    const more = screen.getByTestId('versions-load-more');
    expect(more.textContent).toBe('Load 10 previous releases');
    fireEvent.click(more);
    await card('1.3.0');
    expect(cards()).toHaveLength(20);
    // the keyboard's focus goes to the first release the button brought
    await waitFor(() => expect(document.activeElement?.getAttribute('data-semver')).toBe('1.12.0'));
    expect(screen.getByTestId('versions-load-more').textContent).toBe('Load 3 previous releases');
    fireEvent.click(screen.getByTestId('versions-load-more'));
    await card('1.0.0');
    expect(cards()).toHaveLength(23);
    expect(semVers().at(-1)).toBe('1.0.0');
    expect(screen.queryByTestId('versions-load-more')).toBeNull();
    expect(api.calls('GET /api/products/server/versions').map((c) => c.query.get('pageOffset'))).toEqual([
      '0',
      '10',
      '20',
    ]);
  });

  it('says so when the licence allows no version yet', async () => {
    open('technicalContact', {
      'GET /api/products/server/versions': () => ({
        status: 200,
        body: { data: [], offset: 0, total: 0, totalCapped: false },
      }),
    });
    const empty = await screen.findByTestId('versions-empty');
    expect(empty.textContent).toContain('No version of Graph Server is available to this customer yet.');
    // and what to do next
    expect(empty.textContent).toContain('contact your account executive or the support centre');
  });

  it('says there is nothing to download for a customer with SaaS licences only', async () => {
    open('technicalContact', {
      'GET /api/customers/7/licenses': () => ({
        status: 200,
        body: { data: licencesFor('technicalContact', [licences[0]]), offset: 0, total: 1, totalCapped: false },
      }),
    });
    expect((await screen.findByTestId('versions-no-product')).textContent).toContain('SaaS products run online');
    expect(screen.queryByLabelText('Product')).toBeNull();
  });

  it('says why the versions could not be loaded, and its retry loads them', async () => {
    let calls = 0;
    open('technicalContact', {
      'GET /api/products/server/versions': (request) =>
        calls++ === 0
          ? apiError(500, 'internal_error', 'boom')
          : pageOf(versionsOf('server', 'Graph Server'), 'technicalContact')(request),
    });
    const alert = await screen.findByTestId('versions-load-error');
    expect(alert.textContent).toContain('The versions could not be loaded: An error has occurred...');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await card('1.22.0');
  });

  it('lists the artifacts without download buttons for a product manager', async () => {
    open('productManager');
    fireEvent.change(await screen.findByLabelText('Product'), { target: { value: 'server' } });
    const server = await card('1.22.0');
    expect(within(server).getAllByTestId('version-artifact')).toHaveLength(2);
    expect(within(server).queryByTestId('artifact-download')).toBeNull();
    expect(within(server).queryByTestId('artifact-copy-url')).toBeNull();
  });

  it('speaks French', async () => {
    open('technicalContact', {}, '/fr/accounts/7');
    const server = await card('1.22.0');
    expect(
      within(server)
        .getAllByTestId('version-badge')
        .map((badge) => badge.textContent),
    ).toEqual(['Dernière', 'Maintenance']);
    expect(within(server).getByTestId('version-release-date').textContent).toBe('Publiée le 2026-11-15');
    expect(screen.getByTestId('versions-load-more').textContent).toBe('Charger 10 versions précédentes');
    expect(within(server).getByRole('button', { name: 'Télécharger Graph Server 1.22.0 pour Linux' })).toBeTruthy();
  });
});

describe('VersionsSection: downloads', () => {
  it('checks the link, then sends the browser to the file; the button stays loading for 1 second after the check', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = open('technicalContact');
    const button = within(artifact(await card('1.22.0'), 'linux')).getByRole('button', {
      name: 'Download Graph Server 1.22.0 for Linux',
    });
    fireEvent.click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/download/linux?customerId=7&versionId=122'));
    const check = api.calls('GET /api/download/linux')[0].query;
    expect([check.get('customerId'), check.get('versionId'), check.has('check')]).toEqual(['7', '122', true]);
    expect(button.hasAttribute('data-loading')).toBe(true);
    act(() => {
      vi.advanceTimersByTime(700);
    });
    expect(button.hasAttribute('data-loading')).toBe(true);
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(button.hasAttribute('data-loading')).toBe(false);
    expect(lastNotification()).toBeUndefined();
  });

  it('says "Download failed" with the status when the check refuses, stays on the page, and resets after 1 second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    open('technicalContact', { 'GET /api/download/windows': () => apiError(404, 'not_found', 'Not found') });
    const button = within(artifact(await card('1.22.0'), 'windows')).getByTestId('artifact-download');
    fireEvent.click(button);
    await waitFor(() =>
      expect(lastNotification()).toMatchObject({
        status: 'error',
        message: 'Download failed, try reloading this page. (status: 404)',
      }),
    );
    expect(assign).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(700);
    });
    expect(button.hasAttribute('data-loading')).toBe(true);
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(button.hasAttribute('data-loading')).toBe(false);
  });

  it('copies the absolute secret URL of the version and platform', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    open('technicalContact');
    fireEvent.click(within(artifact(await card('1.20.0'), 'windows')).getByTestId('artifact-copy-url'));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        'https://portal.example.com/api/get/windows/server/1.20.0/?secret=secret%20of%20server',
      ),
    );
    expect(lastNotification()).toMatchObject({ status: 'success' });
    expect(lastNotification().message).toContain('The download URL was copied.');
  });

  it('tells the user of an expired licence to contact their account manager instead of copying or checking', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const api = open('technicalContact');
    fireEvent.change(await screen.findByLabelText('Product'), { target: { value: 'viewer' } });
    const viewer = artifact(await card('1.22.0'), 'linux');
    fireEvent.click(within(viewer).getByTestId('artifact-copy-url'));
    expect(lastNotification()).toMatchObject({
      status: 'error',
      message: 'Your license is expired, please contact your account manager',
    });
    expect(writeText).not.toHaveBeenCalled();
    toastHistory.clear();
    fireEvent.click(within(viewer).getByTestId('artifact-download'));
    expect(lastNotification().message).toBe('Your license is expired, please contact your account manager');
    expect(api.calls('GET /api/download/linux')).toHaveLength(0);
    expect(assign).not.toHaveBeenCalled();
  });

  it('says "Clipboard not available" where there is no clipboard', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    open('technicalContact');
    fireEvent.click(within(artifact(await card('1.22.0'), 'linux')).getByTestId('artifact-copy-url'));
    await waitFor(() =>
      expect(lastNotification()).toMatchObject({ status: 'error', message: 'Clipboard not available' }),
    );
  });
});

describe('VersionsSection: release pages', () => {
  const URL_1_20 = 'https://portal.example.com/api/get/windows/server/1.20.0/?secret=secret%20of%20server';
  const MASKED_1_20 = 'https://portal.example.com/api/get/windows/server/1.20.0/?secret=••••••••';
  let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;
  beforeEach(() => {
    writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
  });

  it('shows each file’s checksum with a copy button', async () => {
    open('technicalContact');
    const windows = artifact(await card('1.20.0'), 'windows');
    expect(within(windows).getByTestId('artifact-sha256').textContent).toBe('b');
    expect(within(windows).getByTestId('artifact-file').textContent).toBe('server-1.20.0.zip · 900 byte');
    fireEvent.click(within(windows).getByRole('button', { name: 'Copy the SHA-256 checksum of server-1.20.0.zip' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('b'));
    expect(lastNotification()).toMatchObject({ status: 'success', message: 'The checksum was copied.' });
  });

  it('shows the commands of a file with the secret masked, and copies them with the secret', async () => {
    open('technicalContact');
    const windows = artifact(await card('1.20.0'), 'windows');
    const toggle = within(windows).getByRole('button', {
      name: 'Commands to download Graph Server 1.20.0 for Windows',
    });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const commands = within(windows).getAllByTestId('artifact-command');
    expect(commands.map((c) => c.getAttribute('data-kind'))).toEqual(['curl', 'wget', 'powershell']);
    expect(within(commands[0]).getByTestId('artifact-command-text').textContent).toBe(
      `curl -fL -C - -o server-1.20.0.zip '${MASKED_1_20}'`,
    );
    expect(windows.textContent).not.toContain('secret%20of%20server');
    fireEvent.click(
      within(windows).getByRole('button', { name: 'Copy the PowerShell command for Graph Server 1.20.0 on Windows' }),
    );
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(`Invoke-WebRequest -Uri '${URL_1_20}' -OutFile 'server-1.20.0.zip'`),
    );
    fireEvent.click(
      within(windows).getByRole('button', { name: 'Copy the curl command for Graph Server 1.20.0 on Windows' }),
    );
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(`curl -fL -C - -o server-1.20.0.zip '${URL_1_20}'`));
  });

  it('reveals the secret, the feed, the latest addresses and the checksums only when asked', async () => {
    open('technicalContact');
    const panel = await screen.findByTestId('script-access');
    await card('1.22.0');
    expect(within(panel).getByTestId('script-secret-value').textContent).toBe('••••••••');
    expect(within(panel).getByTestId('script-feed-value').textContent).toBe(
      'https://portal.example.com/api/feeds/server.atom?secret=••••••••',
    );
    expect(within(panel).getByTestId('script-latest-linux-value').textContent).toBe(
      'https://portal.example.com/api/get/linux/server/latest/?secret=••••••••',
    );
    expect(within(panel).queryByTestId('script-latest-docker')).toBeNull();
    const sums = within(await card('1.22.0')).getByTestId('version-sums-value');
    expect(sums.textContent).toBe('https://portal.example.com/api/get/sums/server/1.22.0/?secret=••••••••');

    const reveal = within(panel).getByRole('button', { name: 'Show the secret' });
    expect(reveal.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(reveal);
    expect(within(panel).getByRole('button', { name: 'Hide the secret' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(panel).getByTestId('script-secret-value').textContent).toBe('secret of server');
    expect(sums.textContent).toBe('https://portal.example.com/api/get/sums/server/1.22.0/?secret=secret%20of%20server');

    fireEvent.click(within(panel).getByRole('button', { name: 'Copy the feed address of Graph Server' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        'https://portal.example.com/api/feeds/server.atom?secret=secret%20of%20server',
      ),
    );
  });

  it('offers no secret to a role that does not download, nor for a licence past its grace period', async () => {
    open('productManager');
    fireEvent.change(await screen.findByLabelText('Product'), { target: { value: 'server' } });
    const server = await card('1.22.0');
    expect(screen.queryByTestId('script-access')).toBeNull();
    expect(within(server).queryByTestId('artifact-commands-toggle')).toBeNull();
    expect(within(server).queryByTestId('version-sums')).toBeNull();
    cleanup();
    open('technicalContact');
    fireEvent.change(await screen.findByLabelText('Product'), { target: { value: 'viewer' } });
    await card('1.22.0');
    expect(screen.queryByTestId('script-access')).toBeNull();
  });

  it('opens the page of what changed since the version picked among those listed, without asking again', async () => {
    const api = open('technicalContact');
    await card('1.22.0');
    const select = screen.getByLabelText('The version I run') as HTMLSelectElement;
    // the newest has nothing newer: from the second one down, as far as the list goes
    expect(Array.from(select.options).map((o) => o.value)).toEqual([
      '',
      ...Array.from({ length: 9 }, (_, i) => `1.${21 - i}.0`),
    ]);
    const see = screen.getByRole('button', { name: 'See what changed' });
    expect((see as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(select, { target: { value: '1.19.0' } });
    fireEvent.click(see);
    expect((await screen.findByTestId('location')).textContent).toBe('/en/accounts/7/changes/server/1.19.0');
    expect(api.calls('GET /api/products/server/versions')).toHaveLength(1);
  });
});
