// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Version } from '../../../common/api/catalogue';
import { notificationStore } from '../../components/notify';
import { adminProfile, renderPage } from '../../test/render';
import { ArtifactsPanel } from './ArtifactsPanel';

const SHA = 'ab'.repeat(32);

const version = (props: Partial<Version> = {}): Version => ({
  id: 5,
  productKey: 'server',
  productName: 'Graph Server',
  title: 'Spring release',
  type: 'stable',
  semVer: '2.1.0',
  description: '',
  descriptionHtml: '',
  releaseDate: null,
  published: false,
  artifacts: [
    {
      id: 9,
      platform: 'linux',
      fileName: 'server-2.1.0.tar.gz',
      size: 1_500_000,
      sha256: SHA,
      createdAt: '2026-11-20T10:00:00.000Z',
    },
  ],
  ...props,
});

/** A stand-in for XMLHttpRequest: records the request, and the test answers it. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  body: Blob | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  responseType = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: Blob) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const lastNotification = () => notificationStore.getSnapshot()[0];

beforeEach(() => {
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  notificationStore.clear();
});
afterEach(() => vi.unstubAllGlobals());

function chooseFile(row: HTMLElement, file: File) {
  const input = row.querySelector('input[type="file"]');
  if (!input) throw new Error('no file input in the row');
  fireEvent.change(input, { target: { files: [file] } });
}

describe('ArtifactsPanel', () => {
  it('lists the artifacts with their size and shortened sha256, and copies the whole sha256', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPage(<ArtifactsPanel version={version({ published: true })} onChanged={() => {}} />);
    const row = screen.getByTestId('artifact-linux');
    expect(within(row).getByText('server-2.1.0.tar.gz')).toBeTruthy();
    expect(within(row).getByText('1.5 MB')).toBeTruthy();
    expect(within(row).getByText(`${SHA.slice(0, 12)}…`)).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Copy the SHA-256 of server-2.1.0.tar.gz' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SHA));
  });

  it('offers no upload for a published version', () => {
    renderPage(<ArtifactsPanel version={version({ published: true })} onChanged={() => {}} />);
    expect(screen.queryByRole('button', { name: /Upload|Replace/ })).toBeNull();
    expect(screen.queryByTestId('artifact-windows')).toBeNull();
  });

  it('offers no upload to a role that does not manage versions', () => {
    renderPage(<ArtifactsPanel version={version()} onChanged={() => {}} />, {
      profile: { ...adminProfile, type: 'supportEngineer', yourRole: 'supportEngineer' },
    });
    expect(screen.queryByRole('button', { name: /Upload|Replace/ })).toBeNull();
  });

  it('says that uploading a platform that has a file replaces it', () => {
    renderPage(<ArtifactsPanel version={version()} onChanged={() => {}} />);
    expect(screen.getByRole('button', { name: 'Replace server-2.1.0.tar.gz, the Linux artifact' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload the Windows artifact' })).toBeTruthy();
    expect(screen.getByText('Uploading a file for a platform that has one replaces it.')).toBeTruthy();
    expect(screen.getByTestId('artifacts-version-id').textContent).toContain('its id, 5,');
  });

  it('uploads a file with a progress bar, then reloads the version', async () => {
    const onChanged = vi.fn();
    renderPage(<ArtifactsPanel version={version()} onChanged={onChanged} />);
    const row = screen.getByTestId('artifact-windows');
    chooseFile(row, new File(['installer bytes'], 'setup 2.1.exe', { type: 'application/x-msdownload' }));

    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('PUT');
    expect(xhr.url).toBe('/api/versions/5/artifacts/windows?fileName=setup+2.1.exe');
    // the file goes as bytes, whatever its own type
    expect(xhr.body?.type).toBe('application/octet-stream');
    expect(xhr.body?.size).toBe(15);

    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 6, total: 15 });
    const progress = await within(row).findByRole('progressbar', { name: 'Upload of the Windows artifact' });
    expect(progress.getAttribute('aria-valuenow')).toBe('40');

    xhr.answer(200, {
      id: 10,
      platform: 'windows',
      fileName: 'setup 2.1.exe',
      size: 15,
      sha256: SHA,
      createdAt: '2026-11-21T10:00:00.000Z',
    });
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    expect(within(row).queryByRole('progressbar')).toBeNull();
    expect(lastNotification()).toMatchObject({ status: 'success', message: 'setup 2.1.exe was uploaded.' });
  });

  it('shows why an upload failed, in the row and as a notification', async () => {
    const onChanged = vi.fn();
    renderPage(<ArtifactsPanel version={version()} onChanged={onChanged} />);
    const row = screen.getByTestId('artifact-linux');
    chooseFile(row, new File(['x'], 'server.tar.gz'));
    FakeXhr.last!.answer(409, {
      error: { code: 'version_published', message: "A published version's artifacts cannot be changed" },
    });
    const message = 'The artifact could not be uploaded: the version is published: its artifacts can no longer change.';
    expect((await within(row).findByRole('alert')).textContent).toBe(message);
    expect(lastNotification()).toMatchObject({ status: 'error', message });
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('says a file is too large in words, not bytes', async () => {
    renderPage(<ArtifactsPanel version={version()} onChanged={() => {}} />);
    const row = screen.getByTestId('artifact-osx');
    chooseFile(row, new File(['x'], 'huge.dmg'));
    FakeXhr.last!.answer(413, {
      error: { code: 'payload_too_large', message: 'The file is too large: at most 10 bytes' },
    });
    expect((await within(row).findByRole('alert')).textContent).toBe(
      'The artifact could not be uploaded: the file is larger than this portal accepts.',
    );
  });
});
