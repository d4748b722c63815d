// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Version } from '../../../common/api/catalogue';
import { FormModal } from '../../components/FormModal';
import { toastHistory } from '../../components/notify';
import type { UserType } from '../../../common/roles';
import { profileCan, versionCan } from '../../test/abilities';
import { apiError, fakeApi } from '../../test/fake-api';
import { adminProfile, renderPage } from '../../test/render';
import { ArtifactsPanel } from './ArtifactsPanel';

const SHA = 'ab'.repeat(32);

/** A version as the server answers it to `viewer` (a product manager unless said), with its `can`. */
const version = ({ viewer = 'productManager', ...props }: Partial<Version> & { viewer?: UserType } = {}): Version => ({
  can: versionCan(viewer, { published: props.published ?? false }),
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
  latestFor: [],
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

const lastNotification = () => toastHistory.getSnapshot()[0];

beforeEach(() => {
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  toastHistory.clear();
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

  it('offers no upload or removal for a published version', () => {
    renderPage(<ArtifactsPanel version={version({ published: true })} onChanged={() => {}} />);
    expect(screen.getByTestId('artifact-linux')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Upload|Replace|Remove/ })).toBeNull();
    expect(screen.queryByTestId('artifact-windows')).toBeNull();
  });

  it('offers no upload or removal to a role that does not manage versions', () => {
    renderPage(<ArtifactsPanel version={version({ viewer: 'supportEngineer' })} onChanged={() => {}} />, {
      profile: {
        ...adminProfile,
        type: 'supportEngineer',
        yourRole: 'supportEngineer',
        can: profileCan('supportEngineer', 'supportEngineer'),
      },
    });
    expect(screen.getByTestId('artifact-linux')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Upload|Replace|Remove/ })).toBeNull();
  });

  it("follows the version's can, not the role: a removal without an upload, or nothing at all", () => {
    const removeOnly = { edit: true, publish: false, upload: false, deleteArtifacts: true };
    renderPage(<ArtifactsPanel version={version({ can: removeOnly })} onChanged={() => {}} />);
    expect(screen.getByRole('button', { name: REMOVE_LINUX })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Upload|Replace/ })).toBeNull();
    cleanup();
    const nothing = { ...removeOnly, deleteArtifacts: false };
    renderPage(<ArtifactsPanel version={version({ can: nothing })} onChanged={() => {}} />);
    expect(screen.getByTestId('artifact-linux')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Upload|Replace|Remove/ })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });

  it('says what to do with a version without files: upload one per platform, or from a release pipeline', () => {
    renderPage(<ArtifactsPanel version={version({ artifacts: [] })} onChanged={() => {}} />);
    expect(screen.getByTestId('artifacts-empty').textContent).toBe(
      'Upload a file for each platform this version supports, or let a release pipeline upload them with an API token of the product.',
    );
    expect(screen.getByRole('button', { name: 'Upload the Linux artifact' })).toBeTruthy();
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

    act(() => xhr.upload.onprogress?.({ lengthComputable: true, loaded: 6, total: 15 }));
    const progress = await within(row).findByRole('progressbar', { name: 'Upload of the Windows artifact' });
    // the bar shows from the start of the upload; the progress event moves it once rendered
    await waitFor(() => expect(progress.getAttribute('aria-valuenow')).toBe('40'));

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

  it("says the portal's storage is full, and that nothing was stored, in both languages", async () => {
    const answer = {
      error: { code: 'storage_full', message: 'The artifact storage has no space left: the file was not stored' },
    };
    const { unmount } = renderPage(<ArtifactsPanel version={version()} onChanged={() => {}} />);
    chooseFile(screen.getByTestId('artifact-linux'), new File(['x'], 'server.tar.gz'));
    FakeXhr.last!.answer(507, answer);
    expect((await within(screen.getByTestId('artifact-linux')).findByRole('alert')).textContent).toBe(
      "The artifact could not be uploaded: the portal's file storage is full: nothing was stored. Ask its operator to free some space, then upload the file again.",
    );
    unmount();
    renderPage(<ArtifactsPanel version={version()} onChanged={() => {}} />, { path: '/fr' });
    chooseFile(screen.getByTestId('artifact-linux'), new File(['x'], 'server.tar.gz'));
    FakeXhr.last!.answer(507, answer);
    expect((await within(screen.getByTestId('artifact-linux')).findByRole('alert')).textContent).toBe(
      "L'artefact n'a pas pu être déposé : le stockage des fichiers du portail est plein : rien n’a été enregistré. Demandez à son exploitant de libérer de la place, puis envoyez à nouveau le fichier.",
    );
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

/** The panel in the version modal: reloading the version after a change drops what was removed. */
function VersionHarness({ onChanged, onCloseModal }: { onChanged: () => void; onCloseModal?: () => void }) {
  const [current, setCurrent] = useState(version());
  const reload = () => {
    onChanged();
    setCurrent((shown) => ({ ...shown, artifacts: removed.has(shown.id) ? [] : shown.artifacts }));
  };
  return (
    <FormModal opened onClose={onCloseModal ?? (() => {})} title="Version 2.1.0">
      <ArtifactsPanel version={current} onChanged={reload} />
    </FormModal>
  );
}

const removed = new Set<number>();
const DELETE_LINUX = 'DELETE /api/versions/5/artifacts/linux';
const REMOVE_LINUX = 'Remove server-2.1.0.tar.gz, the Linux artifact';

async function askToRemove() {
  fireEvent.click(await screen.findByRole('button', { name: REMOVE_LINUX }));
  return screen.findByRole('dialog', { name: 'Remove the artifact' });
}

describe('removing an artifact', () => {
  beforeEach(() => removed.clear());

  it('asks first, naming the file, then removes it, reloads the version and says so', async () => {
    const api = fakeApi({
      [DELETE_LINUX]: () => {
        removed.add(5);
        return { status: 200, body: { ok: true } };
      },
    });
    const onChanged = vi.fn();
    renderPage(<VersionHarness onChanged={onChanged} />);
    const dialog = await askToRemove();
    expect(within(dialog).getByTestId('artifact-remove-confirm').textContent).toContain(
      'Remove server-2.1.0.tar.gz, the Linux artifact of version 2.1.0? The file is deleted from the portal.',
    );
    expect(api.calls(DELETE_LINUX)).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.calls(DELETE_LINUX)).toHaveLength(1));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    expect(lastNotification()).toMatchObject({ status: 'success', message: 'server-2.1.0.tar.gz was removed.' });
    const row = screen.getByTestId('artifact-linux');
    await waitFor(() => expect(within(row).queryByText('server-2.1.0.tar.gz')).toBeNull());
    expect(within(row).queryByRole('button', { name: /Remove/ })).toBeNull();
    // the keyboard user's focus lands on the row's upload, not on the page
    const upload = within(row).getByRole('button', { name: 'Upload the Linux artifact' });
    await waitFor(() => expect(document.activeElement).toBe(upload));
  });

  it('keeps the artifact when the question is answered no, or with Escape, and leaves the version modal open', async () => {
    const api = fakeApi({});
    const onChanged = vi.fn();
    const onCloseModal = vi.fn();
    renderPage(<VersionHarness onChanged={onChanged} onCloseModal={onCloseModal} />);
    let dialog = await askToRemove();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove the artifact' })).toBeNull());

    dialog = await askToRemove();
    fireEvent.keyDown(within(dialog).getByRole('button', { name: 'Keep it' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove the artifact' })).toBeNull());
    expect(onCloseModal).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Version 2.1.0' })).toBeTruthy();

    expect(api.calls(DELETE_LINUX)).toHaveLength(0);
    expect(onChanged).not.toHaveBeenCalled();
    expect(within(screen.getByTestId('artifact-linux')).getByText('server-2.1.0.tar.gz')).toBeTruthy();
  });

  it('shows why a removal failed, in the row and as a notification', async () => {
    fakeApi({ [DELETE_LINUX]: () => apiError(403, 'forbidden', 'Forbidden') });
    const onChanged = vi.fn();
    renderPage(<VersionHarness onChanged={onChanged} />);
    fireEvent.click(within(await askToRemove()).getByRole('button', { name: 'Remove' }));
    const row = screen.getByTestId('artifact-linux');
    const message = 'The artifact could not be removed: You are not allowed to do this.';
    expect((await within(row).findByRole('alert')).textContent).toBe(message);
    expect(lastNotification()).toMatchObject({ status: 'error', message });
    expect(screen.queryByRole('dialog', { name: 'Remove the artifact' })).toBeNull();
    expect(onChanged).not.toHaveBeenCalled();
    expect(within(row).getByText('server-2.1.0.tar.gz')).toBeTruthy();
  });

  it('says a version published meanwhile keeps its artifacts, and shows the version as it is now', async () => {
    fakeApi({
      [DELETE_LINUX]: () => apiError(409, 'version_published', "A published version's artifacts cannot be changed"),
    });
    const onChanged = vi.fn();
    renderPage(<VersionHarness onChanged={onChanged} />);
    fireEvent.click(within(await askToRemove()).getByRole('button', { name: 'Remove' }));
    const row = screen.getByTestId('artifact-linux');
    expect((await within(row).findByRole('alert')).textContent).toBe(
      'The artifact could not be removed: the version is published: its artifacts can no longer change.',
    );
    expect(onChanged).toHaveBeenCalledTimes(1);
  });
});
